# proftool memory (with --steps / --time-window, --step-pattern or no selection) on a model file
# without memory data whose sources are all Kineto traces says so after one read that keeps no event
# (proftool-memory(1) MEMORY), not after making the steps or keeping the host ranges for them: the error and the exit status of before, and the selection is not checked (no
# warning for steps that the model does not have). Standard input that cannot be read again is loaded
# whole, as before (the selection's warning then comes). A model with memory data (CUPTI) is read as
# before: its tables alone before the events, then the reads of memory-filters-stream. The trace is
# scaled (several event batches).
ln -s "$SRC/testdata" td
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k.json --scale 4M && proftool import k.json -o k.ptm 2>/dev/null && echo imported'
run proftool memory k.ptm --steps 2-3
run proftool memory k.ptm --time-window 1ms:3ms --by op
run proftool memory k.ptm --steps 99999
run proftool memory k.ptm
run proftool memory k.ptm --step-pattern 'ProfilerStep#[0-9]+' --by op
# piped: loaded whole, the same error (and the selection's warning, checked on the loaded model)
run 'cat k.ptm | TMPDIR=/nonexistent proftool memory - --steps 2-3; echo "exit $?"'
run 'cat k.ptm | TMPDIR=/nonexistent proftool memory - --steps 99999; echo "exit $?"'
# one read of the file, against the steps' reads and the memory read before
term() { m=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$m': 100%"; }
run "term k.ptm memory k.ptm --steps 2-3; term k.ptm memory k.ptm"
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s k.ptm) * 3 / 4 )) k.ptm > cut.ptm; proftool memory cut.ptm --steps 2 -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'cp k.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s k.ptm) / 2 )) conv=notrunc 2>/dev/null; proftool memory bad.ptm --steps 2 -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
