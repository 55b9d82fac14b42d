# proftool hints, rule by rule, on generated single-process CUPTI dumps: runtime calls and launches
# (LAUNCH_BOUND, and the launch pairs of hints.md §2.3, §6 case 7), precision and framework usage, data
# quality. For each rule a dump that fires it and one that does not, each in every output format with the
# other rules off; further severities in CSV only (helpers: hints-rules.sh; times are µs after the start
# of the trace).
. "$SRC/tests/e2e/cases/hints-rules.sh"

# LAUNCH_BOUND: one 100 µs step; kernel [0,80); a cudaStreamSynchronize of S µs from 80 while the device
# is idle; the next kernel launched right after it runs to the step end. Runtime calls cover S + 1 µs of
# idle step time: S = 16 -> 17% crit, 4 -> 5% warn, 1 -> 2% none. API names print without _vNNNN.
for S in 16 4 1; do
	begin launch$S.cdtxt
	rng "ProfilerStep#1" 0 100
	kern gemm 0 80 0 1
	call 131 80 $((80 + S))
	kern relu $((81 + S)) 100 $((80 + S)) $((81 + S))
	finish
done
formats launch16.cdump LAUNCH_BOUND
one launch4.cdump LAUNCH_BOUND
formats launch1.cdump LAUNCH_BOUND

# Launch pairs (case 7, step [0,500)): r [0,10) d [150,160), r [200,260) d [300,301), r [400,410) d [420,425).
# `busy`: a kernel launched by cudaGraphLaunch (not a launch API) keeps the device busy: LAUNCH_DELAY 1/3
# info, RUNTIME_OUTLIER 1/3 = 33.3% warn, SHORT_KERNELS 1/3 none. `idle`: without it LOW_DEVICE_UTIL fires
# and LAUNCH_DELAY is warn (G3). `short`: d1 [150,155) is shorter than its call too: SHORT_KERNELS 2/3 warn.
# `calm`: r [0,10) d [50,60), r [200,240) d [300,350): queue delays 40, 60, 10 us, calls of 10 to 40 us,
# one short kernel in three: none of the three fires.
pairs() { # NAME D1_START D1_END R2_END D2_END BUSY
	begin $1.cdtxt
	rng "ProfilerStep#1" 0 500
	[ "$6" = busy ] && kern graph_kernel 0 500 0 1 8 0 311
	kern a "$2" "$3" 0 10
	kern b 300 "$5" 200 "$4"
	kern c 420 425 400 410
	finish
}
pairs busy 150 160 260 301 busy
pairs idle 150 160 260 301 idle
pairs short 150 155 260 301 busy
pairs calm 50 60 240 350 busy
formats busy.cdump LAUNCH_DELAY RUNTIME_OUTLIER SHORT_KERNELS
one idle.cdump LAUNCH_DELAY LOW_DEVICE_UTIL
formats short.cdump SHORT_KERNELS
formats calm.cdump LAUNCH_DELAY RUNTIME_OUTLIER SHORT_KERNELS
# RUNTIME_OUTLIER with a cut-off above the slow call: none
one 'busy.cdump --hint hints.launch.runtime_us=60' RUNTIME_OUTLIER

# TENSOR_CORES_UNUSED: an aten::mm operator range launches a kernel without a Tensor Core name pattern on
# a GPU of compute capability 9 -> info; a Tensor Core kernel (xmma_gemm) -> none; compute capability 6
# -> none.
tc() { # NAME KERNEL CC_MAJOR
	begin $1.cdtxt "$3"
	rng "ProfilerStep#1" 0 100
	rng "aten::mm" 0 30 Operator
	kern "$2" 10 40 5 6
	finish
}
tc tc-fp32 sgemm_128x64_nn 9
tc tc-used sm90_xmma_gemm_f16f16_128x64 9
tc tc-cc6 sgemm_128x64_nn 6
formats tc-fp32.cdump TENSOR_CORES_UNUSED
formats tc-used.cdump TENSOR_CORES_UNUSED
one tc-cc6.cdump TENSOR_CORES_UNUSED

# USE_DDP (DataParallel.forward, work on 2 devices) and DDP_WITHOUT_NCCL (DistributedDataParallel.forward,
# no nccl:* range): both fire on two GPUs; with one GPU and an nccl:all_reduce range neither does.
ddp() { # NAME GPUS
	begin $1.cdtxt 9 "$2"
	rng "ProfilerStep#1" 0 100
	rng DataParallel.forward 0 50
	rng DistributedDataParallel.forward 50 90
	kern k0 0 40 0 1
	if [ "$2" = 2 ]; then kern k1 50 90 50 51 7 1; else rng nccl:all_reduce 60 70; fi
	finish
}
ddp ddp2 2
ddp ddp1 1
formats ddp2.cdump USE_DDP DDP_WITHOUT_NCCL
formats ddp1.cdump USE_DDP DDP_WITHOUT_NCCL

# UNATTRIBUTED_DEVICE and TRUNCATED_LAST_STEP: five kernels in step 1, N in step 2. N = 3 (< 0.8 x 5) ->
# TRUNCATED_LAST_STEP info, and the last kernel has no launching call: 10 of 80 us of device time, 12.5%
# -> UNATTRIBUTED_DEVICE info. N = 4, every kernel launched -> neither.
for N in 3 4; do
	begin trunc$N.cdtxt
	rng "ProfilerStep#1" 0 100
	rng "ProfilerStep#2" 100 200
	for ((i = 0; i < 5; i++)); do kern k $((i * 20)) $((i * 20 + 10)) $((i * 20)) $((i * 20 + 1)); done
	for ((i = 0; i < N - 1; i++)); do kern k $((100 + i * 20)) $((110 + i * 20)) $((100 + i * 20)) $((101 + i * 20)); done
	if [ $N = 3 ]; then kern k 140 150; else kern k 160 170 160 161; fi
	finish
done
formats trunc3.cdump UNATTRIBUTED_DEVICE TRUNCATED_LAST_STEP
formats trunc4.cdump UNATTRIBUTED_DEVICE TRUNCATED_LAST_STEP

# LAUNCH_BOUND and DEVICE_IDLE over two steps with runtime calls on two host threads: R (hints.md §2.1) is
# the union of the host's calls, each API's exposed time the sum over its calls. Steps [0,100), [100,200);
# kernels [0,40) and [0,30) on two streams (equal starts), [110,150) and [110,120); cudaStreamSynchronize
# [40,70) on the main thread, [60,90) and [95,110) (across the step boundary) on a second one. Runtime time
# in free step time: [40,90) + [95,100) + [100,110) (which holds the launches [100,101)) = 65 of 200 us,
# 32.5% -> crit; cudaStreamSynchronize 30 + 30 + 5 + 10 = 75 us exposed, cudaLaunchKernel 1 + 1. DEVICE_IDLE:
# idle [40,110) (host_wait: the next kernels' calls start at 100) and [150,200) (other).
tcall() { # CBID START END: a runtime call of the second host thread
	C=$((C + 1))
	echo "  rec RUNTIME cbid=$1 start=$(us "$2") end=$(us "$3") processId=$P threadId=$((P + 1)) correlationId=$C" >>"$F"
}
begin threads.cdtxt
rng "ProfilerStep#1" 0 100
rng "ProfilerStep#2" 100 200
kern gemm 0 40 0 1
kern relu 0 30 0 1 8
call 131 40 70
tcall 131 60 90
tcall 131 95 110
kern gemm 110 150 100 101
kern relu 110 120 100 101 8
finish
formats threads.cdump LAUNCH_BOUND DEVICE_IDLE
one 'threads.cdump --steps 2' LAUNCH_BOUND DEVICE_IDLE
