# proftool timeline over a GPU model of several traced processes (three CUPTI ranks in one model, each
# one's events after the other's in the file) reads it as a stream, one writing read per process
# (proftool-timeline(1) MEMORY): the same bytes as the in-memory path (--in-memory), the viewer
# profile and the kineto profile's file per rank. The ranks' dumps are the benchmark's loop scaled to
# about twenty event batches each, of different lengths, with the same correlation ids in two of them,
# their clocks a little apart (their events interleave in the trace, their equal starts tie).
cat > rank.sh <<'SH'
# rank.sh SRC R REAL SCALE STRIDE: rank R's dump, pid 700+R, its CUPTI clock at REAL
src=$1; shift
sed -E -e "s/^(process )rank=-?[0-9]+ local_rank=-?[0-9]+ world_size=-?[0-9]+/\1rank=$1 local_rank=$1 world_size=3/" \
	-e "s/^(header .*)pid=664/\1pid=$((700 + $1))/" -e "s/real=1795780314720567446/real=$2/" "$src/bench/torch-loop.cdtxt" > r$1.cdtxt
proftool-gen cupti r$1.cdtxt -o r$1.cdump --scale $3 --id-stride $4 > /dev/null
SH
run 'bash rank.sh "$SRC" 0 1795780314720567446 3M 1 && bash rank.sh "$SRC" 1 1795780314721801013 2M 1 && bash rank.sh "$SRC" 2 1795780314719000001 4M 2 && proftool import r0.cdump r1.cdump r2.cdump -o procs.ptm && proftool info procs.ptm | grep -E "^ +(70[0-9]|0) "'
cp "$SRC/tests/e2e/cases/timeline-stream-same.sh" same.sh # (the streamed and in-memory traces compared)
run "for v in '' '--no-flows' '--no-overlap' '--scope-depth 2' '--no-demangle' '--gzip' '--split-mb 2'; do bash same.sh \$v; done"
run "for v in '' '--extra-tracks' '--no-flows' '--gzip'; do bash same.sh --profile kineto \$v; done; ls a/k"
# --time-window streams too (its note is of the events' span), and --steps (each rank's steps from its
# own launches, below): the same bytes and notes either way
run "for v in '--time-window 1s:3s' '--time-window 6.5s:7s --no-flows' '--time-window 100s:200s' '--time-window=-5s:-1s' '--steps 2-3' '--steps 900-901'; do bash same.sh \$v; bash same.sh --profile kineto \$v; done; cat a.txt"
# two processes of one rank (rank -1: 0, the same ids): one kineto file of both
run 'for p in 900 901; do sed -e "s/pid=664/pid=$p/" "$SRC/bench/torch-loop.cdtxt" > u$p.cdtxt && proftool-gen cupti u$p.cdtxt -o u$p.cdump --scale 2M > /dev/null; done; proftool import u900.cdump u901.cdump -o procs.ptm 2>/dev/null && echo imported'
run "for v in '' '--extra-tracks' '--time-window 6.5s:7s'; do bash same.sh --profile kineto \$v; done; ls a/k; bash same.sh"
run 'proftool import r0.cdump r1.cdump r2.cdump -o procs.ptm 2>/dev/null && echo imported'
# the trace interleaves the processes: each one's launch arrows start on its own host thread
run "proftool timeline procs.ptm -o - | grep -c '\"ph\":\"s\"'; proftool timeline procs.ptm --profile kineto -o k && grep -c '\"ph\":\"s\"' k/rank*.pt.trace.json"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s procs.ptm) * 3 / 4 )) procs.ptm > cut.ptm; proftool timeline cut.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"procs.ptm\", \"rb\").read()); d[len(d) * 7 // 8] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"; proftool timeline bad.ptm --profile kineto -o kd; echo "exit $?"; find kd -type f 2>/dev/null | wc -l'
# --steps on a model whose ranks count their steps apart (each rank's steps from its host's step ranges,
# else from its own launches): three CUPTI processes numbering their correlation ids alike, each over
# several event batches, two under the iteration-boundary rule (the second shifted in time, so that
# launches joined across processes would move its steps), one with NVTX step ranges (its clock moved to
# the others' day: a trace spans less than 2^53 ns)
ln -s "$SRC/testdata" td
run 'sed -E "s/^process rank=-?[0-9]+/process rank=2/; s/^header cupti=130001 pid=664/header cupti=130001 pid=700/" "$SRC/bench/torch-loop.cdtxt" > p0.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=701/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > p1.cdtxt
sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=1/; s/pid=4242/pid=702/; s/processId=4242/processId=702/g; s/objectId=4242,4242/objectId=702,702/g" td/cupti/launch.cdtxt | perl -pe "s/\breal=(\d+)/q(real=).(\$1+1795780320388000000)/ge" > p2.cdtxt
proftool-gen cupti p0.cdtxt -o p0.cdump --scale 2560K && proftool-gen cupti p1.cdtxt -o p1.cdump --scale 2M && proftool-gen cupti p2.cdtxt -o p2.cdump --scale 256K && proftool import p0.cdump p1.cdump p2.cdump -o three.ptm'
run "for v in '--steps 2-3' '--steps 1' '--steps 150-160' '--steps 900-901' '--steps 2-3 --device 0' '--steps 2-3 --device 5' '--steps 2 --no-flows' '--steps 2-3 --step-pattern Foo' '--steps 1-2 --step-pattern ProfilerStep.*' '--steps 2-3 --time-window 0.001s:0.5s'; do M=three.ptm bash same.sh \$v; M=three.ptm bash same.sh --profile kineto \$v; done"
# the notes count each rank's steps by its own launches or ranges
run "proftool timeline three.ptm --steps 900-901 -o t.json; proftool timeline three.ptm --steps 2-3 --step-pattern Foo -o t.json"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; proftool timeline cut.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"three.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"; proftool timeline bad.ptm --steps 2-3 --profile kineto -o kd; echo "exit $?"; find kd -type f 2>/dev/null | wc -l'
# the same model without its launch links (tests/e2e/ptm-edit drop:22): a device activity's step is that
# of the first runtime call of its correlation id in the model, of any process (the whole load's anchor;
# the ranks number their ids alike), not its own rank's call's: the same bytes either way, each profile
run '"$SRC/tests/e2e/ptm-edit" three.ptm nl.ptm drop:22 && for m in three nl; do proftool dump $m.ptm | grep -c "^gpu-link" || :; done'
run "for v in '' '--steps 1' '--steps 2-3' '--steps 150-160' '--steps 2 --no-flows' '--time-window 0.001s:0.5s' '--steps 2-3 --time-window 0.001s:0.5s'; do M=nl.ptm bash same.sh \$v; M=nl.ptm bash same.sh --profile kineto \$v; M=nl.ptm bash same.sh --profile kineto --extra-tracks \$v; done"
