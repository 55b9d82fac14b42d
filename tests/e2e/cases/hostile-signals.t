# Signals while an output file is written (issue 29.12): HUP, INT, QUIT, TERM
# and the other catchable fatal signals remove the temporary "<out>.tmp.<pid>"
# and the process dies of the signal; after SIGKILL, which cannot be caught,
# the next run writing the same output removes the stale temporary. The
# signal is sent by a preloaded shim (tests/signal-at-rename.c) when
# proftool is about to rename its finished temporary into place: a known
# point, with no timing involved.
cp -r "$SRC/testdata/ascend/sample" sample
proftool import sample -o good.ptm 2>/dev/null
cc -shared -fPIC -o shim.so "$SRC/tests/signal-at-rename.c" -ldl || { echo "skipped: cannot build the shim"; exit 77; }
# sig.py SIGNAL|- [ignore-hup] CMD...: run CMD with the shim sending SIGNAL, print how it ended
cat >sig.py <<'PY'
import os, signal, subprocess, sys
env = dict(os.environ, LD_PRELOAD=os.path.abspath("shim.so"))
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
if sys.argv[1] != "-":
    env["PT_TEST_SIGNAL"] = str(int(getattr(signal, "SIG" + sys.argv[1])))
args, pre = sys.argv[2:], None
if args[0] == "ignore-hup":
    args, pre = args[1:], lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN)
rc = subprocess.call(args, env=env, preexec_fn=pre)
print("killed by SIG%s" % signal.Signals(-rc).name[3:] if rc < 0 else "exit %d" % rc)
PY
# what is left in the directory, with pids written as PID
left() { ls | grep -v -e '^sample$' -e '^good.ptm$' -e '^shim.so$' -e '^sig.py$' | sed 's/\.tmp\.[0-9]\{2,8\}$/.tmp.PID/'; }
for s in HUP INT QUIT TERM USR1 ALRM; do
	run "python3 sig.py $s \"\$PROFTOOL\" summary good.ptm -o out.txt; left"
done
# an existing output stays as it was
echo "the previous output" >out.txt
run "python3 sig.py TERM \"\$PROFTOOL\" export --table tasks good.ptm -o out.txt; left; cat out.txt"
rm -f out.txt
# SIGKILL leaves the temporary; the next run of the same output removes it,
# a temporary of a live process (pid 1) and anything not a regular file stay
run "python3 sig.py KILL \"\$PROFTOOL\" summary good.ptm -o out.txt; left"
echo busy >out.txt.tmp.1
mkdir out.txt.tmp.2147483600
run "proftool summary good.ptm -o out.txt >/dev/null; left"
rm -rf out.txt out.txt.tmp.*
# a signal ignored when proftool starts (nohup) stays ignored: the run completes
run "python3 sig.py HUP ignore-hup \"\$PROFTOOL\" summary good.ptm -o out.txt; left"
rm -f out.txt
# a file size limit (ulimit -f): SIGXFSZ at the write past it, deterministic
run "ulimit -f 2; python3 sig.py - \"\$PROFTOOL\" export --table tasks good.ptm -o big.txt; left"
