# proftool memory and dataset of a model file keep only the events their views read
# (proftool-memory(1), proftool-dataset(1) MEMORY): the same bytes, warnings and exit status as the
# raw job imported whole in memory gives, for an Ascend job with a memory file (every --by view,
# --at a node), MindData files, an Ascend job, CUPTI dumps with memory records (read twice: the
# records, then the calls they name and the host ranges), an Ascend job beside a CUPTI dump and
# models without memory or dataset data; standard input streams too (a GPU model: read whole).
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 2 >/dev/null && proftool import job -o job.ptm 2>/dev/null; proftool import "td/minddata/pipeline" -o md.ptm 2>/dev/null; proftool import "td/ascend/sample" -o asc.ptm 2>/dev/null; proftool import "td/cupti/real-13.0-h200-torch-loop.cdump" -o real.ptm 2>/dev/null; proftool import "td/cupti/real-13.0-h200-vecadd-nvtx.cdump" -o nvtx.ptm 2>/dev/null; proftool import job "td/cupti/real-13.0-h200-vecadd-nvtx.cdump" -o mix.ptm 2>/dev/null; echo imported'
run "cmp1() { \"\$@\" > a.out 2> a.err; ra=\$?; \"\${@/\$X.ptm/\$R}\" > b.out 2> b.err; rb=\$?; proftool \$2 - \"\${@:4}\" < \$X.ptm > c.out 2> c.err; rc=\$?; sed -i \"/hwts_frequency/d; s|\$R has |\$X.ptm has |; s|standard input|\$X.ptm|\" b.err c.err; cmp -s a.out b.out && cmp -s a.err b.err && cmp -s a.out c.out && cmp -s a.err c.err && [ \$ra = \$rb ] && [ \$ra = \$rc ] && echo \"same: \${*:2} (exit \$ra, \$(wc -l < a.out) lines)\" || echo \"DIFFERS: \$*\"; }
X=job R=job; for by in pool op time; do cmp1 proftool memory job.ptm --by \$by --wide; done; cmp1 proftool memory job.ptm --at 1 --format csv --table memory_holders; cmp1 proftool memory job.ptm --device 0 --format json; cmp1 proftool dataset job.ptm
X=md R=td/minddata/pipeline; cmp1 proftool dataset md.ptm --wide; cmp1 proftool dataset md.ptm --format json; cmp1 proftool memory md.ptm
X=asc R=td/ascend/sample; cmp1 proftool dataset asc.ptm --wide; cmp1 proftool memory asc.ptm
X=real R=td/cupti/real-13.0-h200-torch-loop.cdump; for by in pool op time; do cmp1 proftool memory real.ptm --by \$by --wide; done; cmp1 proftool dataset real.ptm
X=nvtx R=td/cupti/real-13.0-h200-vecadd-nvtx.cdump; for by in pool op time; do cmp1 proftool memory nvtx.ptm --by \$by --format json; done
for by in pool op time; do proftool memory mix.ptm --by \$by --format csv -o a/ 2>/dev/null; proftool memory job --by \$by --format csv -o b/ 2>/dev/null; proftool memory td/cupti/real-13.0-h200-vecadd-nvtx.cdump --by \$by --format csv -o b/ 2>/dev/null; proftool memory - --by \$by --format csv -o c/ < mix.ptm 2>/dev/null; diff -r a b >/dev/null && diff -r a c >/dev/null && echo \"same: memory mix.ptm --by \$by (\$(ls a | wc -l) tables, \$(cat a/* | wc -l) lines) as its two parts and as read whole\" || echo \"DIFFERS: mix \$by\"; rm -rf a b c; done"
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s job.ptm) * 2 / 3 )) job.ptm > cut.ptm; for c in memory dataset; do proftool $c cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
run 'cp md.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s md.ptm) / 2 )) conv=notrunc 2>/dev/null; for c in memory dataset; do proftool $c bad.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
