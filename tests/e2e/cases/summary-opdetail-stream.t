# summary --op-detail of a GPU model with host ranges read as a stream (proftool-summary(1) MEMORY,
# the host read): the children of each operator and the device rows of its own and its children's
# calls, as --in-memory prints them, in every format, with steps, time windows and thread groups, of
# one process and of two in one model. Generated Kineto traces of many event batches: operators with
# children, copies and fills (named by their kinds), an operator nested in one of its own name, a
# user annotation inside an operator, a communication operator enclosing a collective kernel.
for r in 0 1; do
	sed -E "s/^pid 4242/pid $((4242 + r))/; s/^rank 0 world 2/rank $r world 2/; s/^steps 3 /steps $((300 - 100 * r)) /" \
		"$SRC/testdata/kineto/train-current.ktdesc" > r$r.ktdesc
	cat >> r$r.ktdesc <<'DESC'
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "vectorized_elementwise_kernel_add" 1625us 3us 1735us 9us stream=30
op "aten::linear" 1760us 60us
op "aten::linear" 1765us 30us
kernel "k_inner" 1770us 2us 1830us 5us stream=30
ann "my_scope" 1800us 10us
kernel "k_scope" 1802us 2us 1840us 4us stream=30
memset Device 4096 1812us 2us 1850us 1.5us stream=30
DESC
done
run 'for r in 0 1; do proftool-gen kineto r$r.ktdesc -o r$r.json >/dev/null || echo "no r$r"; done; proftool import r0.json -o one.ptm 2>/dev/null && proftool import r0.json r1.json -o two.ptm 2>/dev/null && proftool info two.ptm --table devices --format csv | cut -d, -f1-2,13-14,16'
cat > same.sh <<'SH'
# same.sh MODEL FORMAT OPTIONS...: the streamed summary and --in-memory alike (CSV: every table's file)
m=$1; f=$2; shift 2
one() { # one OUT OPTIONS...: the output and exit status
	o=$1; shift; rm -rf d; mkdir d
	if [ $f = csv ]; then "$@" --format csv -o d/ > $o 2>&1; echo "exit $?" >> $o; cat d/* >> $o 2>/dev/null
	else "$@" --format $f > $o 2>&1; echo "exit $?" >> $o; fi
}
one a.txt "$PROFTOOL" summary $m --op-detail "$@"
one b.txt "$PROFTOOL" summary $m --op-detail --in-memory "$@"
cmp -s a.txt b.txt && echo "same: $m $f $* ($(wc -l < a.txt) lines, $(grep -m1 '^exit' a.txt))" || { echo "DIFFERS: $m $f $*"; diff a.txt b.txt | head -5; }
SH
run "for m in one.ptm two.ptm; do for f in table csv json; do for v in '' '--view operator' '--view all' '--thread-sep' '--steps 2-3' '--steps 150-' '--time-window 0:100ms' '--view operator --top 3 --sorted-by calls --time-unit us' '--view operator --name linear'; do bash same.sh \$m \$f \$v; done; done; done"
# it is read as a stream: five reads of the file (the scan, the calls, the steps, the host read, the
# sums) against the one read of the whole load
term() { local f=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$f': 100%"; }
run "term two.ptm summary --op-detail two.ptm -o s.txt; term two.ptm summary --op-detail --in-memory two.ptm -o m.txt; cmp s.txt m.txt && echo same"
run "term one.ptm summary --op-detail --steps 2-3 one.ptm -o s.txt; term one.ptm summary --op-detail --steps 2-3 --in-memory one.ptm -o m.txt; cmp s.txt m.txt && echo same"
# the streamed rows themselves: an operator nested in one of its own name (a child row and an
# operator row of the same name), the user annotation's kernel and fill under its child row, the
# copies and fills named by their kinds
run "proftool summary two.ptm --view operator --op-detail --name 'linear|allreduce' --time-unit us"
# a model without host ranges (a CUPTI dump): the same as the whole load
run "gen() { proftool-gen cupti \"\$SRC/testdata/cupti/launch.cdtxt\" -o app.cdump && proftool import app.cdump -o c.ptm 2>/dev/null; }; gen && bash same.sh c.ptm table && bash same.sh c.ptm csv --view all"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as the whole load's
run 'head -c $(( $(stat -c %s two.ptm) * 2 / 3 )) two.ptm > cut.ptm; for v in "" "--steps 2-3"; do proftool summary cut.ptm --op-detail $v; echo "exit $?"; proftool summary cut.ptm --op-detail --in-memory $v; echo "exit $?"; done'
run 'python3 -c "d = bytearray(open(\"two.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; for v in "" "--view operator"; do proftool summary bad.ptm --op-detail $v; echo "exit $?"; proftool summary bad.ptm --op-detail --in-memory $v; echo "exit $?"; done'
# A CUPTI dump whose NVTX ranges come after the calls they hold (as the collector writes them): the
# thread is out of start order, its ranges held from the read of the steps and put in order into the
# host read (five reads, as streamed); with two calls of a thread out of order too (nvs), those held
# in the window the read of the steps measures (five reads too). Both print what --in-memory prints.
nv() { # nv N [swap]: N iterations, a buffer each: two calls, a kernel, a copy, a call of a second thread, then the ranges
	n=$1
	echo 'header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids'
	echo 'kinds default'
	echo 'clock cupti=1000000000 real=1000000000'
	echo 'process rank=0 exe=app cmdline="app" comm=app'
	echo 'threads 4242=app 4243=worker'
	echo 'buffer'
	echo '  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0'
	echo '  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7'
	echo 'end-buffer'
	for ((i = 1; i <= n; i++)); do
		t=$((1000000000 + i * 10000)); c=$((i * 4))
		echo 'buffer'
		a="  rec RUNTIME cbid=211 start=$((t + 100)) end=$((t + 300)) processId=4242 threadId=4242 correlationId=$c"
		b="  rec RUNTIME cbid=41 start=$((t + 400)) end=$((t + 600)) processId=4242 threadId=4242 correlationId=$((c + 1))"
		if [ "${2:-}" = swap ] && [ $i = 7 ]; then echo "$b"; echo "$a"; else echo "$a"; echo "$b"; fi
		echo "  rec CONCURRENT_KERNEL start=$((t + 700)) end=$((t + 1700)) deviceId=0 contextId=1 streamId=7 correlationId=$c name=\"k$((i % 3))\" gridX=64 gridY=1 gridZ=1 blockX=256 blockY=1 blockZ=1 registersPerThread=32 staticSharedMemory=0 dynamicSharedMemory=0"
		echo "  rec MEMCPY copyKind=1 srcKind=2 dstKind=3 bytes=4096 start=$((t + 1800)) end=$((t + 2000)) deviceId=0 contextId=1 streamId=7 correlationId=$((c + 1))"
		echo "  rec RUNTIME cbid=211 start=$((t + 2100)) end=$((t + 2200)) processId=4242 threadId=4243 correlationId=$((c + 2))"
		echo "  rec CONCURRENT_KERNEL start=$((t + 2300)) end=$((t + 2400)) deviceId=0 contextId=1 streamId=8 correlationId=$((c + 2)) name=\"w\" gridX=1 gridY=1 gridZ=1 blockX=32 blockY=1 blockZ=1 registersPerThread=8 staticSharedMemory=0 dynamicSharedMemory=0"
		echo "  rec MARKER flags=2 id=$((2 * i)) timestamp=$((t + 50)) objectKind=2 objectId=4242,4242 name=\"iteration\""
		echo "  rec MARKER flags=2 id=$((2 * i + 1)) timestamp=$((t + 350)) objectKind=2 objectId=4242,4242 name=\"copy\""
		echo "  rec MARKER flags=4 id=$((2 * i + 1)) timestamp=$((t + 650)) objectKind=2 objectId=4242,4242"
		echo "  rec MARKER flags=4 id=$((2 * i)) timestamp=$((t + 3000)) objectKind=2 objectId=4242,4242"
		echo 'end-buffer'
	done
	echo "clock cupti=$((1000000000 + n * 10000 + 10000)) real=$((1000000000 + n * 10000 + 10000)) reason=2"
	echo 'end'
}
run 'nv 1500 > nv.cdtxt; nv 1500 swap > nvs.cdtxt; for f in nv nvs; do proftool-gen cupti $f.cdtxt -o $f.cdump && proftool import $f.cdump -o $f.ptm 2>/dev/null || echo "no $f"; done; proftool info nv.ptm --table devices --format csv | cut -d, -f1-2,13-14'
run "for m in nv.ptm nvs.ptm; do for f in table csv json; do for v in '' '--view all' '--view userdefined,model --thread-sep' '--steps 1' '--time-window 0:5ms --view all'; do bash same.sh \$m \$f \$v; done; done; done"
run "term nv.ptm summary nv.ptm --view all -o s.txt; term nv.ptm summary --in-memory nv.ptm --view all -o m.txt; cmp s.txt m.txt && echo same; term nvs.ptm summary nvs.ptm -o s.txt"
run proftool summary nv.ptm --view userdefined --thread-sep
