# proftool memory --steps / --time-window / --step-pattern of a model file stream (proftool-memory(1)
# MEMORY): a first read takes the step windows and the origin, the memory reads the records, the calls
# they name and the host ranges, and the selection's checks what those reads saw. The same bytes,
# warnings and exit status as the model read whole (standard input with a selection is loaded whole)
# and as the raw input imported in memory, for every view, on GPU records (windows with pools, steps,
# empty and out-of-range selections, a pattern matching no range, a bad pattern, a device) and on an
# Ascend job with a memory file (the graphs stay whole; a note says so). (A raw Ascend job imported
# with --device naming no device fails at the import, so that case is compared on GPU input only.)
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool-gen cupti "$SRC/tests/gen/cases/memory-pools.cdtxt" -o p.cdump >/dev/null && proftool import p.cdump -o p.ptm 2>/dev/null; proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 2 >/dev/null && proftool import job -o job.ptm 2>/dev/null; proftool import td/cupti/real-13.0-h200-torch-loop.cdump -o real.ptm 2>/dev/null; echo imported'
run "cmp1() { proftool memory \$X.ptm \"\$@\" > a.out 2> a.err; ra=\$?; proftool memory - \"\$@\" < \$X.ptm > b.out 2> b.err; rb=\$?; proftool memory \$R \"\$@\" > c.out 2> c.err; rc=\$?; sed -i \"s|standard input|\$X.ptm|\" b.err; sed -i \"/hwts_frequency/d; s|\$R|\$X.ptm|g\" c.err; cmp -s a.out b.out && cmp -s a.err b.err && cmp -s a.out c.out && cmp -s a.err c.err && [ \$ra = \$rb ] && [ \$ra = \$rc ] && echo \"same: \$X \$* (exit \$ra, \$(wc -l < a.out) lines, \$(wc -l < a.err) warnings)\" || echo \"DIFFERS: \$X \$*\"; }
for X in p real job; do case \$X in p) R=p.cdump;; real) R=td/cupti/real-13.0-h200-torch-loop.cdump;; job) R=job;; esac
for by in pool op time; do cmp1 --by \$by --steps 2; cmp1 --by \$by --time-window 0:25ns --format csv; cmp1 --by \$by --steps 400-500; done
cmp1 --steps 1-2 --wide; cmp1 --steps 2 --time-window :60ns --format json; cmp1 --time-window 65ns:95ns --format csv; cmp1 --time-window 1000s:
cmp1 --step-pattern 'ProfilerStep#1' --steps 1; cmp1 --step-pattern nomatch --steps 1; cmp1 --step-pattern nomatch; cmp1 --step-pattern '(' --steps 1
cmp1 --device 0 --steps 1 --by time; [ \$X = job ] || cmp1 --device 9 --steps 1; done"
# a selection's errors are usage errors, before any read
run proftool memory p.ptm --steps 2-1
run proftool memory p.ptm --time-window 5:x
# a truncated model and a corrupt one with a selection: the error names the file and the offset, exit 1,
# no output file (the first read fails, or the memory reads after it)
run 'head -c $(( $(stat -c %s real.ptm) * 3 / 4 )) real.ptm > cut.ptm; for s in "--steps 2" "--time-window 1ms:" "--step-pattern x"; do proftool memory cut.ptm $s -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
run 'cp real.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s real.ptm) / 2 )) conv=notrunc 2>/dev/null; proftool memory bad.ptm --steps 2 --by time -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
