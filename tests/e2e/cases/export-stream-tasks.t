# proftool export --table tasks or ops of a model file in CSV streams its rows (proftool-export(1)
# MEMORY), and the steps, aicpu and tensors tables read the model keeping no event: the same bytes as
# the whole model read from standard input gives (tasks, ops: the CSV of the table held whole, via
# --format csv -o DIR/), for Ascend jobs (text and binary era, several streams, AI CPU ops, step
# markers, a memory file), an Ascend job beside a CUPTI dump, and per device.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 40 >/dev/null && proftool import job -o job.ptm 2>/dev/null; proftool import "td/ascend/sample" -o asc.ptm 2>/dev/null; proftool import "td/ascend/binary" -o bin.ptm 2>/dev/null; proftool import "td/ascend/sample" "td/cupti/real-13.0-h200-vecadd.cdump" -o mix.ptm 2>/dev/null; echo imported'
run "for t in tasks ops steps aicpu tensors; do for f in job.ptm asc.ptm bin.ptm mix.ptm; do proftool export --table \$t \$f > a.csv; proftool export --table \$t - < \$f > b.csv; proftool export --table \$t \$f -o c.csv; mkdir -p d; proftool export --table \$t \$f -o d/ 2>/dev/null; cmp -s a.csv b.csv && cmp -s a.csv c.csv && cmp -s a.csv d/\$t.csv && echo \"same: \$t \$f \$(wc -l < a.csv) lines\" || echo \"DIFFERS: \$t \$f\"; rm -rf d; done; done"
run "for t in tasks ops; do for d in 0 1; do proftool export --table \$t --device \$d asc.ptm > a.csv; proftool export --table \$t --device \$d - < asc.ptm > b.csv; cmp a.csv b.csv && echo \"same: \$t --device \$d \$(wc -l < a.csv) lines\"; done; done 2>&1"
run "for t in steps aicpu tensors; do proftool export --table \$t job.ptm --format json > a.json; proftool export --table \$t job --format json > b.json 2>/dev/null; cmp a.json b.json && echo \"same: \$t json as the raw job\"; done"
run 'proftool export --table tasks job.ptm | head -3; proftool export --table ops asc.ptm --time-unit us | sed -n 2p'
# a truncated model: the error names it with the offset, exit 1, and no output file
run 'head -c $(( $(stat -c %s job.ptm) / 2 )) job.ptm > cut.ptm; for t in tasks ops steps; do proftool export --table $t cut.ptm -o out.csv; echo "exit $?"; test -e out.csv && echo "out.csv written" || echo "no out.csv"; done; proftool export --table tasks cut.ptm | wc -c'
