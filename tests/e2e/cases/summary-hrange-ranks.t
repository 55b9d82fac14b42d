# The summary of a model file of several processes with host ranges read as a stream
# (proftool-summary(1) MEMORY, the host read per process): three Kineto traces (ranks 0-2, pids
# 4242-4244, 400, 300 and 200 ProfilerSteps: several event batches each) imported into one model.
# Each numbers the same correlation ids, so a launching call is found by id and process; each
# process's threads (the same thread ids in all three) nest their own ranges; each rank has its own
# steps, launch span (coverage) and thread groups. An all-reduce operator range encloses a collective
# kernel and an add whose kernel is communication by attribution (summary.md §2.5). Every view the
# host read takes, in every format, with steps, time windows and thread groups, prints what
# --in-memory prints.
for r in 0 1 2; do
	sed -E "s/^pid 4242/pid $((4242 + r))/; s/^rank 0 world 2/rank $r world 3/; s/^steps 3 /steps $((400 - 100 * r)) /" \
		"$SRC/testdata/kineto/train-current.ktdesc" > r$r.ktdesc
	cat >> r$r.ktdesc <<'DESC'
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "vectorized_elementwise_kernel_add" 1625us 3us 1735us 9us stream=30
DESC
done
run 'for r in 0 1 2; do proftool-gen kineto r$r.ktdesc -o r$r.json >/dev/null || echo "no r$r"; done; proftool import r0.json r1.json r2.json -o three.ptm 2>/dev/null && proftool info three.ptm --table devices --format csv | cut -d, -f1-2,13-14,16'
cat > same.sh <<'SH'
# same.sh MODEL FORMAT OPTIONS...: the streamed summary and --in-memory alike (CSV: every table's file)
m=$1; f=$2; shift 2
one() { # one OUT OPTIONS...: the output and exit status
	o=$1; shift; rm -rf d; mkdir d
	if [ $f = csv ]; then "$@" --format csv -o d/ > $o 2>&1; echo "exit $?" >> $o; cat d/* >> $o 2>/dev/null
	else "$@" --format $f > $o 2>&1; echo "exit $?" >> $o; fi
}
one a.txt "$PROFTOOL" summary $m "$@"
one b.txt "$PROFTOOL" summary $m --in-memory "$@"
cmp -s a.txt b.txt && echo "same: $m $f $* ($(wc -l < a.txt) lines, $(grep -m1 '^exit' a.txt))" || { echo "DIFFERS: $m $f $*"; diff a.txt b.txt | head -5; }
SH
run "for f in table csv json; do for v in '' '--view overview,model,operator,kernel,api,gpu' '--thread-sep' '--view operator --thread-sep' '--steps 2-3' '--steps 250-' '--steps 399' '--steps 150-250' '--time-window 0:100ms' '--time-window 500ms:' '--device 0 --view overview,model' '--view operator,kernel --top 3 --sorted-by calls --time-unit us' '--step-pattern Nothing --view model'; do bash same.sh three.ptm \$f \$v; done; done"
# it is read as a stream: five reads of the file (the scan, the calls, the steps, the host read, the
# sums) against the one read of the whole load
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'three.ptm': 100%"; }
run "term summary three.ptm -o s.txt; term summary --in-memory three.ptm -o m.txt; cmp s.txt m.txt && echo same"
# the other views of the host read (device, distributed, memcpy, userdefined, optype, aicpu, so
# --view all), of several processes too: the same as the whole load, and streamed (five reads)
run "for f in table csv json; do for v in '--view all' '--view memcpy,userdefined' '--view device,distributed --steps 2-3' '--view all --time-window 0:100ms --thread-sep'; do bash same.sh three.ptm \$f \$v; done; done"
run "term summary three.ptm --view all -o s.txt; term summary --in-memory three.ptm --view all -o m.txt; cmp s.txt m.txt && echo same"
# the streamed figures themselves: each rank's steps and its communication
run proftool summary three.ptm --view model,overview --steps 250- --time-unit us
run proftool summary three.ptm --view operator --top 2 --format csv
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as the whole load's
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; for v in "" "--steps 2-3"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
run 'python3 -c "d = bytearray(open(\"three.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; for v in "" "--view operator"; do proftool summary bad.ptm $v; echo "exit $?"; proftool summary bad.ptm --in-memory $v; echo "exit $?"; done'
# a process whose thread holds its ranges out of start order (the host read puts them in order),
# beside one in order: the same output
{
	echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['
	echo '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 9, "tid": 10, "ts": 1000, "dur": 1000, "args": {}},'
	echo '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 9, "tid": 10, "ts": 0, "dur": 1000, "args": {}},'
	echo '{"ph": "X", "cat": "cpu_op", "name": "aten::a", "pid": 9, "tid": 10, "ts": 100, "dur": 300, "args": {}},'
	echo '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10, "ts": 120, "dur": 5, "args": {"correlation": 1}},'
	echo '{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 150, "dur": 50, "args": {"device": 0, "stream": 7, "correlation": 1}}'
	echo ']}'
} > o.json
run 'proftool import r2.json o.json -o mixed.ptm 2>/dev/null && for v in "" "--view operator --format csv" "--steps 1"; do proftool summary mixed.ptm $v > a.txt 2>&1; proftool summary mixed.ptm --in-memory $v > b.txt 2>&1; cmp -s a.txt b.txt && echo "same: $v" || echo "DIFFERS: $v"; done'
