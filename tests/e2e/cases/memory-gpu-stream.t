# proftool memory of a CUPTI model file streams its memory records (proftool-memory(1) MEMORY): kept
# packed, the replay's rows taken as they come and the --by time rows made when the exporter reads
# them (text reads them twice: the widths, then the rows). The same bytes, warnings and exit status
# as the raw dump imported whole in memory gives, for every view and format, a device, standard
# input (read whole, records still packed); dump of the same model as with the records unpacked.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool import td/cupti/real-13.0-h200-torch-loop.cdump -o real.ptm 2>/dev/null; proftool import td/cupti/real-13.0-h200-vecadd.cdump -o vec.ptm 2>/dev/null; echo imported'
run "cmp1() { proftool memory \$X.ptm \"\$@\" > a.out 2> a.err; ra=\$?; proftool memory \$R \"\$@\" > b.out 2> b.err; rb=\$?; proftool memory - \"\$@\" < \$X.ptm > c.out 2> c.err; rc=\$?; sed -i \"s|\$R|\$X.ptm|g; s|standard input|\$X.ptm|\" b.err c.err; cmp -s a.out b.out && cmp -s a.err b.err && cmp -s a.out c.out && cmp -s a.err c.err && [ \$ra = \$rb ] && [ \$ra = \$rc ] && echo \"same: \$X \$* (exit \$ra, \$(wc -l < a.out) lines)\" || echo \"DIFFERS: \$X \$*\"; }
X=real R=td/cupti/real-13.0-h200-torch-loop.cdump
for by in pool op time; do for f in table csv json jsonl; do cmp1 --by \$by --format \$f; done; cmp1 --by \$by --wide; done
cmp1 --by time --format csv --time-unit us; cmp1 --by time --device 0; cmp1 --by time --device 3; cmp1 --by time --format csv --table gpu_memory_timeline
X=vec R=td/cupti/real-13.0-h200-vecadd.cdump
for by in pool op time; do cmp1 --by \$by --wide; done"
run 'proftool memory real.ptm --by time --format csv | head -4; proftool memory real.ptm --by time --format csv | wc -l'
run 'proftool dump real.ptm > a.txt; proftool dump - < real.ptm > b.txt; cmp a.txt b.txt && echo "dump: same, $(grep -c "^gpu-mem" a.txt) memory records"'
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real.ptm) * 3 / 4 )) real.ptm > cut.ptm; for by in pool op time; do proftool memory cut.ptm --by $by -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done; proftool dump cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'cp real.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s real.ptm) * 3 / 4 )) conv=notrunc 2>/dev/null; for by in pool time; do proftool memory bad.ptm --by $by -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
