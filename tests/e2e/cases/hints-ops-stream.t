# proftool hints over a Kineto model with PyTorch operator ranges (cpu_op) reads it as a stream
# (proftool-hints(1) MEMORY): two reads take the Operator ranges (their op types, FLOPs from Input Dims,
# nesting, Tensor Core leaves) and each kernel's launch links, and the device read sums TOP_OPS' op types,
# LOW_FLOPS_UTIL's executions (a range's FLOPs once per device, busy time per op type) and
# TENSOR_CORES_UNUSED as the kernels pass; the same bytes as --in-memory and as standard input, which load
# the model whole, in every format, with selections and with thresholds moved so that the rules fire.
# The trace: aten::linear (sizes known) around aten::addmm (only the inner one counts), aten::mm on two
# threads (Tensor Core ops without a Tensor Core kernel), aten::relu, an op without sizes around a
# kernel, a kernel launched in a user annotation (its op type is its name), copies and sets every step.
cat > ops.ktdesc <<'KT'
dialect current
base 1790857026000000000
pid 4242
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 6 period 3ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,-
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7
op "aten::mm" 400us 100us dims=64x1024,1024x512
kernel "gemm_small" 410us 5us 450us 50us stream=7
op "aten::relu" 520us 40us dims=64x512
kernel "vectorized_elementwise_kernel" 530us 3us 600us 10.001us stream=7
op "aten::copy_" 640us 30us
kernel "copy_kernel" 645us 3us 700us 4us stream=7
memcpy HtoD Pinned Device 1048576 750us 4us 760us 80.333us stream=7
op "autograd::engine::evaluate_function: MmBackward0" 900us 600us tid=4250
op "aten::mm" 910us 300us tid=4250 dims=512x64,64x1024
kernel "ampere_sgemm_128x64_nn" 920us 4.75us 960us 240.5us stream=20 tid=4250
memset Device 4096 1300us 2us 1410us 1.25us stream=20 tid=4250
ann "Optimizer.step#SGD.step" 1600us 100us
kernel "multi_tensor_apply_kernel" 1610us 6us 1630us 30.999us stream=7
KT
run 'proftool-gen kineto ops.ktdesc -o ops.json && proftool import ops.json -o ops.ptm 2>/dev/null && echo imported'
run 'proftool-gen kineto ops.ktdesc -o opss.json --scale 3M && proftool import opss.json -o opss.ptm 2>/dev/null && echo imported'
# malformed sizes (a negative dimension): that aten::mm's FLOPs unknown
run "sed 's/\"Input Dims\": \[\[64, 1024\], \[1024, 512\]\]/\"Input Dims\": [[64, 1024], [1024, -512]]/' ops.json > bad.json && grep -c '1024, -512' bad.json && proftool import bad.json -o bad.ptm 2>/dev/null && echo imported"
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.launch.queue_delay_us=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.flops_util.min_coverage_pct=0'
for m in ops.ptm opss.ptm bad.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 4ms:11ms --format csv' '--time-window 10000s:' '--step-pattern Foo'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--format json --show-suppressed' '--steps 2-4 --format csv' '--hint hints.tensor_cores.ops=aten::relu --format csv'; do bash same.sh $m $FIRE \$v; done"
done
# the calls measured in a read of their own
run "PT_TEST_HINTS_CALLS_CAP=5 bash same.sh opss.ptm $FIRE --steps 2-40 --format csv"
# the streamed rules themselves: op types from the ranges, FLOPs utilisation, Tensor Cores unused
run "proftool hints opss.ptm $FIRE --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep -E 'TOP_OPS|LOW_FLOPS_UTIL|TENSOR_CORES_UNUSED'"
run "proftool hints bad.ptm $FIRE --format csv --show-suppressed -o hb/ && cat hb/hints.csv hb/hints_suppressed.csv | grep -E 'LOW_FLOPS_UTIL'"
# a truncated model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s opss.ptm) * 9 / 10 )) opss.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
