# LOW_FLOPS_UTIL on CUDA (hints.md §3): FLOPs from the sizes of PyTorch's NVTX operator ranges, as
# proftool flops computes them (cupti.md §6.12), the peak from the GPU table (H100 SXM, FP16 989.5 TFLOPS).
# aten::linear around aten::addmm (only the inner range counts; its kernel gemm runs 2 us), an unknown
# aten::conv2d whose kernel runs CONV_NS.
desc() { # ADDMM_SIZES CONV_NS DEVICE_NAME
	local B=1000000000
	cat <<CD
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=$B real=$B
process rank=0 exe=app cmdline="app" comm=app
threads 4242=app
buffer
  rec DEVICE id=0 name="$3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec MARKER flags=2 id=1 timestamp=$((B + 50)) objectKind=2 objectId=4242,4242 name="ProfilerStep#1"
  rec MARKER flags=2 id=2 timestamp=$((B + 60)) objectKind=2 objectId=4242,4242 name="aten::linear, seq = 1"
  rec MARKER flags=2 id=3 timestamp=$((B + 70)) objectKind=2 objectId=4242,4242 name="aten::addmm, seq = 2$1"
  rec RUNTIME cbid=211 start=$((B + 100)) end=$((B + 1800)) processId=4242 threadId=4242 correlationId=7
  rec MARKER flags=4 id=3 timestamp=$((B + 1900)) objectKind=2 objectId=4242,4242
  rec MARKER flags=4 id=2 timestamp=$((B + 1950)) objectKind=2 objectId=4242,4242
  rec MARKER flags=2 id=4 timestamp=$((B + 2000)) objectKind=2 objectId=4242,4242 name="aten::conv2d, seq = 3, sizes = [[1, 3, 8, 8], [4, 3, 3, 3]]"
  rec RUNTIME cbid=211 start=$((B + 2100)) end=$((B + 2200)) processId=4242 threadId=4242 correlationId=8
  rec MARKER flags=4 id=4 timestamp=$((B + 2300)) objectKind=2 objectId=4242,4242
  rec CONCURRENT_KERNEL start=$((B + 2500)) end=$((B + 4500)) deviceId=0 contextId=1 streamId=7 correlationId=7 name="gemm"
  rec CONCURRENT_KERNEL start=$((B + 4600)) end=$((B + 4600 + $2)) deviceId=0 contextId=1 streamId=7 correlationId=8 name="conv"
  rec MARKER flags=4 id=1 timestamp=$((B + 9000)) objectKind=2 objectId=4242,4242
end-buffer
CD
}
H100="NVIDIA H100 80GB HBM3"
# addmm (64 x 1024) . (1024 x 512) + bias: 67,141,632 FLOPs in 2 us = 33.57 TFLOPS, 3.4% of the peak -> warn
desc ', sizes = [[512], [64, 1024], [1024, 512], [], []]' 1000 "$H100" >low.cdtxt
# (1024 x 1024) . (1024 x 512): 1,074,266,112 FLOPs in 2 us = 537.1 TFLOPS, 54.3% -> no hint
desc ', sizes = [[512], [1024, 1024], [1024, 512], [], []]' 1000 "$H100" >ok.cdtxt
# the unknown conv2d runs 5 us (4.4 us inside the step): known FLOPs cover 2 of 6.4 us -> not evaluated
desc ', sizes = [[512], [64, 1024], [1024, 512], [], []]' 5000 "$H100" >cov.cdtxt
# no sizes recorded (record_shapes off): no kernel FLOPs known
desc '' 1000 "$H100" >nosizes.cdtxt
# a GPU the peak table does not know
desc ', sizes = [[512], [64, 1024], [1024, 512], [], []]' 1000 "Some Other GPU" >nopeak.cdtxt
for d in low ok cov nosizes nopeak; do run proftool-gen cupti $d.cdtxt -o $d.cdump; done
OFF=--hint=hints.disable=TOP_OPS,LOW_DEVICE_UTIL,DEVICE_IDLE,UNEXPLAINED_TIME,LAUNCH_DELAY,RUNTIME_OUTLIER,SHORT_KERNELS,LAUNCH_BOUND,TENSOR_CORES_UNUSED
run proftool hints low.cdump $OFF --format csv
run proftool hints low.cdump $OFF
run proftool hints low.cdump $OFF --format json
# the same FLOPs, time and peak as proftool flops
run proftool flops low.cdump --by model --format csv
run proftool hints low.cdump $OFF --hint hints.flops_util.peak_tflops=100 --format csv
run "proftool hints ok.cdump $OFF --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep -c LOW_FLOPS_UTIL"
for d in cov nosizes nopeak; do
	run "proftool hints $d.cdump $OFF --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep LOW_FLOPS_UTIL"
done
run "proftool hints nopeak.cdump $OFF --hint hints.flops_util.peak_tflops=500 --format csv | grep -o 'LOW_FLOPS_UTIL,warn,util_pct,[0-9.]*'"
