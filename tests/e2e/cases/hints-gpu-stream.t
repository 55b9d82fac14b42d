# proftool hints over a model file of GPU data from one process without PyTorch operator ranges
# reads it as a stream (proftool-hints(1) MEMORY): the same bytes as --in-memory and as standard
# input, which load the model whole, in every format, with selections and with thresholds moved so
# that every rule that reads the events fires, on CUPTI dumps (launch links, memcpy/memset, several
# streams and threads, sparse ids) and NVTX and Nsight Systems ranges; models it cannot stream
# (operator ranges: Kineto) are read whole and print the same too ("same: ...").
# hints-hrange-stream has the host ranges that stream.
gpu_models
# the benchmark's dump scaled down: repetitions of a real loop, each stream's syncs and copies written
# apart from its kernels, several host threads, equal starts on a thread, sparse correlation ids
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
# a dump made for the streamed path: a kernel that runs 5 s after its launch call (delays beyond 4
# bytes), a receive kernel (PP_RECEIVE's Rv), a copy, a memset, an activity without a call, two threads,
# a call recorded after a later one on its thread (the calls then wait in a heap, not in queues)
cat > odd.cdtxt <<'CD'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 exe=app cmdline="app" comm=app
threads 4242=app 4243=worker
buffer
  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec RUNTIME cbid=211 start=1000000100 end=1000001800 processId=4242 threadId=4242 correlationId=7
  rec CONCURRENT_KERNEL start=6000002500 end=6000004500 deviceId=0 contextId=1 streamId=7 correlationId=7 name="_Z7vec_addPfS_S_i" gridX=64 gridY=1 gridZ=1 blockX=256 blockY=1 blockZ=1 registersPerThread=32
  rec RUNTIME cbid=41 start=1000004600 end=1000004900 processId=4242 threadId=4242 correlationId=9
  rec MEMCPY copyKind=1 srcKind=2 dstKind=3 bytes=1048576 start=1000005000 end=1000006000 deviceId=0 contextId=1 streamId=7 correlationId=9
  rec RUNTIME cbid=51 start=1000006100 end=1000006200 processId=4242 threadId=4243 correlationId=10
  rec MEMSET value=0 bytes=4096 start=1000006300 end=1000006400 deviceId=0 contextId=1 streamId=8 correlationId=10 memoryKind=3
  rec RUNTIME cbid=211 start=1000006500 end=1000006700 processId=4242 threadId=4243 correlationId=11
  rec CONCURRENT_KERNEL start=1000006800 end=1000007800 deviceId=0 contextId=1 streamId=8 correlationId=11 name="ncclDevKernel_SendRecv_Sum" gridX=8 gridY=2 gridZ=1 blockX=128 blockY=1 blockZ=1 registersPerThread=16
  rec RUNTIME cbid=211 start=1000007000 end=1000007100 processId=4242 threadId=4242 correlationId=13
  rec CONCURRENT_KERNEL start=1000007500 end=1000009800 deviceId=0 contextId=1 streamId=7 correlationId=13 name="relu_kernel" gridX=8 gridY=2 gridZ=1 blockX=128 blockY=1 blockZ=1 registersPerThread=16
  rec RUNTIME cbid=211 start=1000009900 end=1000010100 processId=4242 threadId=4242 correlationId=14
  rec CONCURRENT_KERNEL start=1000010200 end=1000010300 deviceId=0 contextId=1 streamId=7 correlationId=15 name="relu_kernel" gridX=8 gridY=2 gridZ=1 blockX=128 blockY=1 blockZ=1 registersPerThread=16
  rec RUNTIME cbid=41 start=1000009000 end=1000009950 processId=4242 threadId=4242 correlationId=16
  rec RUNTIME cbid=165 start=1000011900 end=1000012000 processId=4242 threadId=4242 correlationId=12
  rec SYNCHRONIZATION type=4 start=1000011900 end=1000012000 correlationId=12 contextId=1 streamId=0xffffffff cudaEventId=0xffffffff
end-buffer
clock cupti=6000010000 real=6000010000 reason=2
end
CD
run 'proftool-gen cupti odd.cdtxt -o odd.cdump && proftool import odd.cdump -o odd.ptm 2>/dev/null && echo imported'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
# every GPU rule that reads the events fires: utilisation, idle time, launch-bound time, launch delays,
# runtime outliers, short kernels, memory operations, communication, top ops, unattributed device time,
# the unexplained time, the step gap, the truncated last step, memory capacity
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.launch_bound.moderate_pct=0 --hint hints.launch.queue_delay_us=0 --hint hints.launch.queue_delay_warn_pct=0 --hint hints.launch.runtime_us=1 --hint hints.launch.runtime_warn_pct=0 --hint hints.short_kernels.pct=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.unattributed.pct=0 --hint hints.memory.peak_pct=0 --hint hints.rank_spread.pct=0'
IDLE='--hint hints.idle.min_pct=0 --hint hints.idle.class_pct=0'
for m in odd.ptm launch.ptm scaled.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 0.001s:0.002s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo' '--fail-on info'; do bash same.sh $m \$v; done"
	run "for v in '--format csv' '--format json --show-suppressed' '--steps 2-3 --format csv' '--device 0'; do bash same.sh $m $FIRE \$v; done"
	run "for g in 0 1000 1000000000; do bash same.sh $m $IDLE --hint hints.idle.kernel_wait_gap_ns=\$g --format csv; done"
done
# the host's calls measured in a read of their own (when too many wait for their windows in the device read)
for m in scaled.ptm real-13.0-h200-torch-loop.ptm real-13.0-h200-vecadd.ptm; do
	run "for v in '--format csv' '--steps 2-3 --format csv'; do PT_TEST_HINTS_CALLS_CAP=0 bash same.sh $m $FIRE \$v; done"
done
# the streamed hints themselves
run proftool hints real-13.0-h200-torch-loop.ptm $FIRE --format csv
run proftool hints odd.ptm $FIRE --format csv
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "d = bytearray(open(\"real-13.0-h200-torch-loop.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool hints bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
