# steps, perf, flops (and --steps), memory --steps, diff --by step and hints read a model file as a stream where
# host ranges name communication (a kernel launched inside one counts as communication, summary.md §2.5)
# and (1) a GPU device records no traced process (its host by the vote of its launches), or (2) several
# processes come without launch links (proftool-steps(1), proftool-hints(1) MEMORY). The kernel's call is
# the one the whole load joins it to: its last launch link's, which may be another process's call than
# the voted host's (its process id is none either), or without links the first API call of its
# correlation id in the whole file, whichever process made it. The same bytes, warnings and exit status
# as the whole load (a pipe that cannot be copied; hints: --in-memory too).
# The trace is that of hints-comm-stream.t (an allreduce range launching an NCCL kernel and, from
# inside it, an elementwise kernel: communication by its launch alone).
sed -n '/^cat > cr.ktdesc/,/^KT$/p' "$SRC/tests/e2e/cases/hints-comm-stream.t" | sed '1d;$d' > cr.ktdesc
# (1) the trace with process id 0, whose GPU device then records no traced process, and a CUPTI process
# of no process id (the torch loop): two hosts, two devices that vote (each goes to its own host, whose
# calls have the ids of most of its activities); then the same without links
sed 's/^pid 4242/pid 0/' cr.ktdesc > v0.ktdesc
sed -E "s/^process rank=-?[0-9]+/process rank=1/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" > a.cdtxt
run 'proftool-gen kineto v0.ktdesc -o v0.json --scale 2M && proftool-gen cupti a.cdtxt -o a.cdump --scale 1M --id-stride 1 && proftool import v0.json a.cdump -o va.ptm 2>/dev/null && echo imported'
# (2) two Kineto ranks whose ids are alike, rank 1's add launched after its allreduce range: without
# links rank 1's add kernel joins rank 0's call (inside the range) where rank 0 comes first in the file,
# and rank 0's joins rank 1's (outside) where rank 1 does
sed 's/^pid 4242/pid 4243/; s/rank 0 world/rank 1 world/; s/^thread 4242/thread 4243/; s/^op "aten::add_" 620us 20us/op "aten::add_" 760us 20us/; s/^kernel "vectorized_elementwise_kernel" 625us 3us 735us/kernel "vectorized_elementwise_kernel" 765us 3us 800us/' cr.ktdesc > r1.ktdesc
run 'grep -c "^op \"aten::add_\" 760us" r1.ktdesc'
run 'proftool-gen kineto cr.ktdesc -o r0.json --scale 2M && proftool-gen kineto r1.ktdesc -o r1.json --scale 2M && proftool import r0.json r1.json -o two.ptm 2>/dev/null && proftool import r1.json r0.json -o owt.ptm 2>/dev/null && echo imported'
run 'for m in va two owt; do python3 "$SRC/tests/e2e/ptm-edit" $m.ptm $m-nl.ptm drop:22 || exit 1; done; proftool dump va.ptm | grep -c "^gpu-link"; proftool dump va-nl.ptm | grep -c "^gpu-link"; proftool info va.ptm | grep -E "^events"; proftool info two-nl.ptm | grep -E "^events"'
run 'proftool info va.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cat > same.sh <<'SH'
# same.sh MODEL CMD OPTIONS...: CMD on MODEL streamed and loaded whole (a pipe that cannot be copied)
m=$1; shift; c=$1; shift
proftool $c $m "$@" > a.txt 2>&1; ra=$?
cat $m | TMPDIR=/nonexistent proftool $c - "$@" > b.txt 2>&1; rb=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#'-'#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $m $c $* (exit $ra, $(wc -l < a.txt) lines)" || echo "DIFFERS: $m $c $*"
SH
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" hsame.sh
for m in va.ptm va-nl.ptm two-nl.ptm owt-nl.ptm; do
	run "for v in '' '--format csv --wide' '--format json' '--steps 2-3 --format csv' '--device 0 --format csv' '--step-pattern Foo'; do bash same.sh $m steps \$v; done"
	run "for v in '--format csv' '--time-window 4ms:11ms'; do bash same.sh $m perf \$v; done; bash same.sh $m flops --format csv; bash same.sh $m flops --steps 2-3 --format csv; bash same.sh $m memory --steps 2-3 --format csv; bash same.sh $m diff $m --by step --format csv"
	run "for v in '' '--format csv' '--format json --show-suppressed' '--steps 2-3' '--device 0 --format csv'; do bash hsame.sh $m \$v; done"
done
# what the kernels' calls make of the communication column (communication_ns and computation_ns of each
# rank and device, the steps' average and outside them): with links the voted trace's add kernels are
# communication by their call; without, the first calls of their ids are the CUPTI process's (whose
# events come first in the file); in two-nl rank 1's add kernels join rank 0's calls, in owt-nl rank 0's
# rank 1's
run 'for m in va va-nl two two-nl owt-nl; do echo "$m:$(proftool steps $m.ptm --format csv | awk -F, "\$3 == \"avg\" || \$3 == \"outside\" { printf \" %s/%s/%s %s %s\", \$1, \$2, \$3, \$13, \$14 }")"; done'
# it is read as a stream: the scan, then the vote's, the calls' and the activities' reads replay the
# event batches the scan kept (these models being small), hints' own reads read the file; with links
# and a device that votes, one read more takes the links again; the whole load reads it once
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$2': 100%"; }
run 'for m in va va-nl two-nl; do echo "$m: steps $(term steps $m.ptm -o s.txt), hints $(term hints $m.ptm -o h.txt), whole $(term hints $m.ptm --in-memory -o w.txt)"; done'
# a truncated and a corrupt model of each shape: the error names the file and the offset, exit 1, no output
run 'for m in va va-nl two-nl; do head -c $(( $(stat -c %s $m.ptm) * 2 / 3 )) $m.ptm > cut.ptm; for c in steps "flops --steps 2-3" hints; do rm -f out.csv; proftool $c cut.ptm -o out.csv; echo "$m $c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done; done'
run 'for m in va two-nl; do python3 -c "import sys; d = bytearray(open(sys.argv[1], \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)" $m.ptm; for c in steps hints; do rm -f out.csv; proftool $c bad.ptm -o out.csv; echo "$m $c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done; done'
