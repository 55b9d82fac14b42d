# proftool hints over a Kineto model whose Operator ranges come out of nesting order on a thread (an op
# before the op that holds it, both starting together) reads it as a stream (proftool-hints(1) MEMORY):
# the ranges' read nests each thread's ranges as they pass, finds the order broken and reads the events
# once more, keeping their places to sort; the same bytes as --in-memory and as standard input, which
# load the model whole, with thresholds moved so that the rules fire (nested as they pass, aten::linear
# would count for FLOPs through the kernel launched in it after aten::addmm, and be no Tensor Core
# leaf). The same trace in nesting order is nested as it passes. The trace also has memory operations
# of three kinds (a copy that runs into the next step, a memset, two DtoH copies: the top three by
# exposed time, then by event) and launches of differing delays and call durations, whose p50, p99 and
# largest are merged from sorted runs (PT_TEST_HINTS_QRUN: runs of 5 values, of 1). Scaled to 3 MB:
# several batches of events, range infos and Input Dims.
cat > ops.ktdesc <<'KT'
dialect current
base 1790857026000000000
pid 4242
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 6 period 3ms
op "aten::addmm" 10us 200us dims=512,64x1024,1024x512,-,-
op "aten::linear" 10us 300us dims=64x1024,512x1024,512
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7
kernel "bias_kernel" 250us 3us 260us 20us stream=7
op "aten::mm" 400us 100us dims=64x1024,1024x512
kernel "gemm_small" 410us 5us 450us 50us stream=7
op "aten::relu" 520us 40us dims=64x512
kernel "vectorized_elementwise_kernel" 530us 3us 700us 10.001us stream=7
memcpy DtoH Device Pageable 4096 760us 7us 800us 3us stream=7
memcpy DtoH Device Pageable 4096 770us 9us 900us 3us stream=7
op "autograd::engine::evaluate_function: MmBackward0" 900us 600us tid=4250
op "aten::mm" 910us 300us tid=4250 dims=512x64,64x1024
kernel "ampere_sgemm_128x64_nn" 920us 4.75us 960us 240.5us stream=20 tid=4250
memset Device 4096 1300us 2us 1410us 1.25us stream=20 tid=4250
memcpy HtoD Pinned Device 1048576 2900us 4us 2960us 80.333us stream=7
KT
sed '/aten::addmm/{h;d}; /aten::linear/{G}' ops.ktdesc > ordered.ktdesc
run 'grep -A1 "aten::linear" ordered.ktdesc'
run 'for k in ops ordered; do proftool-gen kineto $k.ktdesc -o $k.json --scale 3M && proftool import $k.json -o $k.ptm 2>/dev/null || exit 1; done; echo imported'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.launch.queue_delay_us=0 --hint hints.launch.runtime_us=4 --hint hints.mem_ops.moderate_pct=0 --hint hints.flops_util.min_coverage_pct=0'
for m in ops.ptm ordered.ptm; do
	run "for v in '' '--format json --show-suppressed' '--steps 2-3' '--time-window 4ms:11ms --format csv'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--format json --show-suppressed' '--steps 2-4 --format csv' '--hint hints.tensor_cores.op_names=aten::relu,aten::linear --format json'; do bash same.sh $m $FIRE \$v; done"
done
run "for r in 5 1; do PT_TEST_HINTS_QRUN=\$r bash same.sh ops.ptm $FIRE --format json --show-suppressed; PT_TEST_HINTS_QRUN=\$r bash same.sh ops.ptm $FIRE --steps 3-9; done"
# the rules themselves: the memory operations' kinds and top three, the delays' and durations' quantiles,
# the FLOPs of aten::addmm alone (inside aten::linear, whose kernel carries none)
run "proftool hints ops.ptm $FIRE --format csv -o h/ && grep -E 'MEM_OPS_CRITICAL|LAUNCH_DELAY|RUNTIME_OUTLIER|TOP_OPS|LOW_FLOPS_UTIL' h/hints.csv | cut -d, -f3-7,9-"
# a truncated model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s ops.ptm) * 9 / 10 )) ops.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
