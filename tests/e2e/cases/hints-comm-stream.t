# proftool hints over a Kineto model with communication host ranges, or with the host ranges USE_DDP and
# DDP_WITHOUT_NCCL count (DataParallel.forward, DistributedDataParallel.forward, nccl:*), reads it as a stream
# (proftool-hints(1) MEMORY): two reads of their own find the ranges (an Operator range of a
# communication name, a Communication range, record_param_comms, whose name is none) and the calls that
# start inside them on their thread, and each kernel whose last launch link is such a call counts as
# communication (summary.md §2.5: COMM_EXPOSED, the breakdowns, a receive among them for PP_RECEIVE and
# RANK_SPREAD's bubble); the same bytes as --in-memory and as standard input, which load the model whole,
# in every format, with selections and with thresholds moved so that the rules fire, on one process (with
# PyTorch operator ranges) and on two ranks imported together (without). The traces: a kernel launched
# inside the communication range (computation by its name), a kernel of another thread launched at the
# same time (not), a receive kernel launched inside a Communication range, a kernel launched at the end
# of one (not), an empty one (not), a user annotation of a communication name (not).
cat > cr.ktdesc <<'KT'
dialect current
base 1790857026000000000
pid 4242
rank 0 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 6 period 3ms
op "aten::linear" 10us 300us
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7
memcpy HtoD Pinned Device 1048576 250us 4us 260us 80.333us stream=7
op "c10d::allreduce_" 600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL" 610us 5us 650us 80us stream=30
op "aten::add_" 620us 20us
kernel "vectorized_elementwise_kernel" 625us 3us 735us 9us stream=30
op "aten::mul" 612us 30us tid=4250
kernel "mul_kernel" 615us 2us 700us 50us stream=20 tid=4250
op "record_param_comms" 900us 100us comm=recv:Float:1024:1024:2:0
kernel "unpack_recv_buffer" 910us 4us 1000us 30us stream=30
ann "allreduce_bucket_view" 1100us 50us
kernel "copy_kernel" 1110us 3us 1200us 10us stream=7
op "c10d::broadcast_" 1300us 50us
op "aten::zero_" 1350us 10us
kernel "zero_kernel" 1350us 2us 1400us 5us stream=30
op "c10d::allgather_" 1500us 0us
kernel "gather_copy_kernel" 1500us 2us 1600us 40us stream=30
sync "Stream Sync" 2400us 300.5us stream=7
ann "Optimizer.step#SGD.step" 2500us 100us
kernel "multi_tensor_apply_kernel" 2510us 6us 2530us 30.999us stream=7
KT
# two ranks whose host ranges are annotations and record_param_comms alone (no operator ranges)
sed 's/^op "aten::[a-z_]*"/ann "user"/; s/^op "c10d::\([a-z]*\)_"/op "record_param_comms"/; s/^\(op "record_param_comms" [0-9]*us [0-9]*us\)$/\1 comm=allreduce:Float:1024:1024:2:0/' cr.ktdesc > r0.ktdesc
sed 's/^pid 4242/pid 4243/; s/rank 0 world/rank 1 world/; s/^thread 4242/thread 4243/; s/"user" 10us 300us/"user" 10us 400us/; s/unpack_recv_buffer" 910us 4us 1000us 30us/unpack_recv_buffer" 910us 4us 1000us 60us/' r0.ktdesc > r1.ktdesc
# DataParallel on two devices of one process; DistributedDataParallel without, then with, an nccl: range
sed 's/^device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0/&\ndevice 1 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0/; s/^kernel "copy_kernel" 1110us 3us 1200us 10us stream=7/& device=1/; s/^ann "Optimizer.step#SGD.step" 2500us 100us/ann "DataParallel.forward" 5us 560us\n&/' cr.ktdesc > dp.ktdesc
sed 's/^ann "Optimizer.step#SGD.step" 2500us 100us/ann "DistributedDataParallel.forward" 5us 560us\n&/' cr.ktdesc > ddp.ktdesc
sed 's/^ann "allreduce_bucket_view"/ann "nccl:all_reduce" 1050us 10us\n&/' ddp.ktdesc > ddpn.ktdesc
run 'grep -c "^op \"record_param_comms\".*comm=" r0.ktdesc r1.ktdesc; grep -c -E "DataParallel|device=1|^device 1|nccl:" dp.ktdesc ddp.ktdesc ddpn.ktdesc'
run 'for f in dp ddp ddpn; do proftool-gen kineto $f.ktdesc -o $f.json --scale 2M && proftool import $f.json -o $f.ptm 2>/dev/null || exit 1; done; echo imported'
run 'proftool-gen kineto cr.ktdesc -o cr.json && proftool import cr.json -o cr.ptm 2>/dev/null && echo imported'
run 'proftool-gen kineto cr.ktdesc -o crs.json --scale 4M && proftool import crs.json -o crs.ptm 2>/dev/null && echo imported'
run 'for r in 0 1; do proftool-gen kineto r$r.ktdesc -o r$r.json --scale 2M || exit 1; done; proftool import r0.json r1.json -o two.ptm 2>/dev/null && echo imported'
run 'proftool info crs.ptm --table devices --format csv | cut -d, -f1-3,6-7; proftool info two.ptm --table devices --format csv | cut -d, -f1-3,6-7'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.launch.queue_delay_us=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.rank_spread.pct=0 --hint hints.pp.receive_pct=0'
for m in cr.ptm crs.ptm two.ptm dp.ptm ddp.ptm ddpn.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 4ms:11ms --format csv' '--time-window 10000s:' '--step-pattern Foo'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--format json --show-suppressed' '--steps 2-40 --format csv'; do bash same.sh $m $FIRE \$v; done"
done
# the calls measured in a read of their own
run "PT_TEST_HINTS_CALLS_CAP=5 bash same.sh crs.ptm $FIRE --steps 2-40 --format csv"
# the streamed rules themselves: the communication the ranges make, a receive among it
run "proftool hints crs.ptm $FIRE --format csv | cut -d, -f1-6 | grep -E 'COMM_EXPOSED'"
run "proftool hints two.ptm $FIRE --format csv | cut -d, -f1-6 | grep -E 'COMM_EXPOSED|PP_RECEIVE|RANK_SPREAD'"
run "for m in dp ddp ddpn; do proftool hints \$m.ptm --format json | grep -o '\"[A-Z_]*DDP[A-Z_]*\"[^{]*{[^}]*}' || echo \"\$m: no DDP hint\"; done"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s crs.ptm) * 9 / 10 )) crs.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'cp two.ptm bad.ptm; printf "\377\377\377\377\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s two.ptm) * 3 / 4 )) conv=notrunc 2>/dev/null; proftool hints bad.ptm > /dev/null; echo "exit $?"'
