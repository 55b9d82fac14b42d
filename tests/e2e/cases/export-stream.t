# proftool export --table api or kernels of a model file streams its rows into the CSV (proftool-export(1)
# MEMORY): the same bytes as the whole model read from standard input gives, in the same order,
# for a generated dump scaled up, the real PyTorch dump, an Ascend job beside a CUPTI dump, two
# processes (two host devices with calls, one read each) and a model without calls (the header
# alone).
run 'proftool-gen cupti "$SRC/tests/gen/cases/summary-stream-gpu.cdtxt" -o g.cdump --scale 3M && proftool import g.cdump -o g.ptm 2>/dev/null && proftool info g.ptm | grep -E "^events"'
run 'proftool import "$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump" -o real.ptm 2>/dev/null; proftool import "$SRC/testdata/ascend/sample" g.cdump -o mix.ptm 2>/dev/null; proftool import "$SRC/testdata/ascend/sample" -o asc.ptm 2>/dev/null; proftool import "$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump" "$SRC/testdata/cupti/real-13.0-h200-vecadd.cdump" -o two.ptm 2>/dev/null; echo imported'
run "for t in api kernels; do for f in g.ptm real.ptm mix.ptm asc.ptm two.ptm; do proftool export --table \$t \$f > a.csv; proftool export --table \$t - < \$f > b.csv; proftool export --table \$t \$f -o c.csv; cmp -s a.csv b.csv && cmp -s a.csv c.csv && echo \"same: \$t \$f \$(wc -l < a.csv) lines\" || echo \"DIFFERS: \$t \$f\"; done; done; proftool export --table kernels --device 0 two.ptm > a.csv; proftool export --table kernels --device 0 - < two.ptm > b.csv; cmp a.csv b.csv && echo \"same: kernels --device 0 \$(wc -l < a.csv) lines\""
run 'proftool export --table api real.ptm | head -3; proftool export --table api two.ptm | cut -d, -f6 | uniq -c'
# the other formats and tables read the whole model, as before
run "proftool export --table api real.ptm --format json > a.json && proftool export --table api - --format json < real.ptm > b.json && cmp a.json b.json && echo 'same: json'"
# a truncated model: the error names it with the offset, exit 1, and no output file (the first
# read checks the whole file before any row is written)
run 'head -c $(( $(stat -c %s g.ptm) / 2 )) g.ptm > cut.ptm; proftool export --table kernels cut.ptm -o out.csv; echo "exit $?"; proftool export --table api cut.ptm -o out.csv; echo "exit $?"; test -e out.csv && echo "out.csv written" || echo "no out.csv"; proftool export --table api cut.ptm | wc -c'
