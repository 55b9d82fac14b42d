# Hostile models and outputs beyond model-errors.t: a model version far in
# the future, a bad checksum in a compressed model, and every analysis
# command writing to a full disk (exit 1, one message) and to a closed pipe
# (the reader took what it wanted: exit 0, no message, issue #25).
# a relative input path: the model records paths as given, and the offsets in
# the messages below must not depend on where the source tree lives
cp -r "$SRC/testdata/ascend/sample" sample
proftool import sample -o good.ptm 2>/dev/null
{ head -c 8 good.ptm; printf '\377\377\377\377'; tail -c +13 good.ptm; } >future.ptm
run proftool info future.ptm
python3 -c "b=bytearray(open('good.ptm','rb').read()); b[-3]^=0x40; open('crc.ptm','wb').write(b)"
run proftool info crc.ptm
# closed: run a command with standard output on a pipe whose reader is
# already closed (deterministic, unlike `| head`); prints its exit status
cat >closed.py <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
print("status", subprocess.call(sys.argv[1:], stdout=w))
PY
for c in info dump summary steps perf 'export --table tasks' timeline; do
	run "proftool $c good.ptm -o /dev/full"
	run "python3 closed.py \"\$PROFTOOL\" $c good.ptm"
done
# a FIFO whose reader goes away after one line: quiet, exit 0, nothing created beside it
mkfifo fifo
run "(head -1 fifo >/dev/null &) ; proftool export --table tasks good.ptm --format csv -o fifo; echo status \$?; ls"
# the common case, through a real pipe: no message, status 0 for pipefail scripts
run "set -o pipefail; proftool export --table tasks good.ptm --format csv | head -1; echo status \$?"
