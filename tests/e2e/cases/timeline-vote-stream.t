# proftool timeline --steps over a GPU model of several traced processes where some GPU devices record
# none of them (CUPTI dumps without a process id) reads it as a stream (proftool-timeline(1) MEMORY):
# each rank's steps, which the selection's notes count, come from the streamed read of `proftool steps`
# (each such device goes to the host whose calls have the ids of most of its activities, the first of a
# tie), then the timeline's own reads. The same bytes, notes and exit status as the whole load
# (--in-memory). Four CUPTI processes of one model, each over several event batches: A and B (the
# benchmark's loop, B twice A's length and shifted in time, both without a process id, the same
# correlation ids: one process of two hosts), C (NVTX step ranges, no process id, its ids tie between
# A's and B's calls: its device goes to A) and D (pid 702, its own device); C's and D's clocks moved
# to A's day (a viewer trace spans less than 2^53 ns).
ln -s "$SRC/testdata" td
run 'sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" > a.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=1/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > b.cdtxt
for x in c:2:0 d:3:702; do IFS=: read n r p <<< "$x"; sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=$r/; s/pid=4242/pid=$p/; s/processId=4242/processId=$p/g; s/objectId=4242,4242/objectId=$p,$p/g" td/cupti/launch.cdtxt | perl -pe "s/\breal=(\d+)/q(real=).(\$1+1795780315000000000)/ge" > $n.cdtxt; done
proftool-gen cupti a.cdtxt -o a.cdump --scale 1M --id-stride 1 && proftool-gen cupti b.cdtxt -o b.cdump --scale 2M --id-stride 1 && proftool-gen cupti c.cdtxt -o c.cdump --scale 256K && proftool-gen cupti d.cdtxt -o d.cdump --scale 256K && proftool import a.cdump b.cdump c.cdump d.cdump -o four.ptm'
run 'proftool info four.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cp "$SRC/tests/e2e/cases/timeline-stream-same.sh" same.sh # (the streamed and in-memory traces compared)
run "for v in '--steps 2-3' '--steps 1' '--steps 150-160' '--steps 900-901' '--steps 2-3 --device 0' '--steps 2 --no-flows' '--steps 2-3 --step-pattern Foo' '--steps 1-2 --step-pattern ProfilerStep.*' '--steps 2-3 --time-window 0.001s:0.5s'; do M=four.ptm bash same.sh \$v; done"
# without a selection too: A's, B's and C's dumps record one pid (none), each read as a process of its own
# for the reads' order (held one after the other in the file), the launch arrows joined by pid as the
# whole load joins them
run "for v in '' '--no-flows' '--time-window 1s:3s' '--split-mb 1'; do M=four.ptm bash same.sh \$v; done"
# the notes count each rank's steps: A's by its launches and C's device (by the vote), B's by its own
run "proftool timeline four.ptm --steps 900-901 -o t.json; proftool timeline four.ptm --steps 2-3 --step-pattern Foo -o t.json"
# it is read as a stream: the timeline's first read, the steps' reads (the vote's among them), then the
# timeline's others (the whole load: one read; after the timeline's first read, as before, three)
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'four.ptm': 100%"; }
run "term timeline four.ptm --steps 2-3 -o t.json; term timeline four.ptm --steps 2-3 --in-memory -o t.json"
# the kineto profile (no NVTX ranges that it would annotate: A, B and the loop with pid 702)
run 'sed -E "s/^process rank=-?[0-9]+/process rank=3/; s/^header cupti=130001 pid=664/header cupti=130001 pid=702/" "$SRC/bench/torch-loop.cdtxt" > e.cdtxt && proftool-gen cupti e.cdtxt -o e.cdump --scale 512K --id-stride 1 && proftool import a.cdump b.cdump e.cdump -o three.ptm'
run "for v in '--steps 1' '--steps 1-2' '--steps 2-3' '--steps 1 --device 0' '--steps 900-901'; do M=three.ptm bash same.sh --profile kineto \$v; M=three.ptm bash same.sh \$v; done; for v in '' '--extra-tracks' '--time-window 1s:3s'; do M=three.ptm bash same.sh --profile kineto \$v; done; M=three.ptm bash same.sh; M=three.ptm bash same.sh --profile kineto --steps 1 --extra-tracks; M=three.ptm bash same.sh --steps 900-901; cat a.txt"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s four.ptm) * 2 / 3 )) four.ptm > cut.ptm; proftool timeline cut.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"four.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"; proftool timeline three.ptm --steps 2-3 --profile kineto -o kd > /dev/null; head -c $(( $(stat -c %s three.ptm) / 2 )) three.ptm > cut3.ptm; proftool timeline cut3.ptm --steps 2-3 --profile kineto -o kd2; echo "exit $?"; find kd2 -type f 2>/dev/null | wc -l'
