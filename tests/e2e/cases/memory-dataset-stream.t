# proftool memory and dataset of a model file keep only the events their views read
# (proftool-memory(1), proftool-dataset(1) MEMORY): the same bytes, warnings and exit status as the
# raw job imported whole in memory gives, for an Ascend job with a memory file (every --by view,
# --at a node), MindData files, an Ascend job, a CUPTI dump with memory records (read whole) and
# models without memory or dataset data; standard input streams too.
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 2 >/dev/null && proftool import job -o job.ptm 2>/dev/null; proftool import "$SRC/testdata/minddata/pipeline" -o md.ptm 2>/dev/null; proftool import "$SRC/testdata/ascend/sample" -o asc.ptm 2>/dev/null; proftool import "$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump" -o real.ptm 2>/dev/null; echo imported'
run "cmp1() { \"\$@\" > a.out 2> a.err; ra=\$?; \"\${@/\$X.ptm/\$R}\" > b.out 2> b.err; rb=\$?; proftool \$2 - \"\${@:4}\" < \$X.ptm > c.out 2> c.err; rc=\$?; sed -i \"/hwts_frequency/d; s|\$R has |\$X.ptm has |; s|standard input|\$X.ptm|\" b.err c.err; cmp -s a.out b.out && cmp -s a.err b.err && cmp -s a.out c.out && cmp -s a.err c.err && [ \$ra = \$rb ] && [ \$ra = \$rc ] && echo \"same: \${*:2} (exit \$ra, \$(wc -l < a.out) lines)\" || echo \"DIFFERS: \$*\"; }
X=job R=job; for by in pool op time; do cmp1 proftool memory job.ptm --by \$by --wide; done; cmp1 proftool memory job.ptm --at 1 --format csv --table memory_holders; cmp1 proftool memory job.ptm --device 0 --format json; cmp1 proftool dataset job.ptm
X=md R=\$SRC/testdata/minddata/pipeline; cmp1 proftool dataset md.ptm --wide; cmp1 proftool dataset md.ptm --format json; cmp1 proftool memory md.ptm
X=asc R=\$SRC/testdata/ascend/sample; cmp1 proftool dataset asc.ptm --wide; cmp1 proftool memory asc.ptm
X=real R=\$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump; cmp1 proftool memory real.ptm --wide; cmp1 proftool memory real.ptm --by op; cmp1 proftool dataset real.ptm"
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s job.ptm) * 2 / 3 )) job.ptm > cut.ptm; for c in memory dataset; do proftool $c cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
run 'cp md.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s md.ptm) / 2 )) conv=notrunc 2>/dev/null; for c in memory dataset; do proftool $c bad.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
