# Helpers of the per-rule cases tests/e2e/cases/hints-rules-*.t (sourced by them; not a case itself).
#
# Every case runs a rule on a dump that fires it and on one that does not, in every output format, with
# the rules not under test turned off (hints.disable=$(except RULE...)), so that a golden shows the rules
# under test alone. CUPTI dumps are written by proftool-gen from descriptions built here; their times are
# µs after the start of the trace.
B=1000000000
ALL="INPUT_BOUND UNEXPLAINED_TIME STEP_GAP MD_QUEUE MD_PIPELINE MD_CPU_BUSY MD_OP_CPU MD_OP_QUEUE
MD_BOTTLENECK_OP LOW_DEVICE_UTIL LAUNCH_BOUND LAUNCH_DELAY RUNTIME_OUTLIER SHORT_KERNELS DEVICE_IDLE
COMM_EXPOSED PP_RECEIVE PP_STAGE_COMM PP_STAGE_FLOPS RANK_SPREAD RANK_STEP_GAP RANK_FLOPS SLOW_LINK TOP_OPS
MEM_OPS_CRITICAL LOW_FLOPS_UTIL MEMORY_NEAR_CAPACITY TENSOR_CORES_UNUSED USE_DDP DDP_WITHOUT_NCCL
UNATTRIBUTED_DEVICE TRUNCATED_LAST_STEP"
except() { # RULE...: every other rule id, comma-separated (the value of hints.disable)
	local out='' r k
	for r in $ALL; do
		for k in "$@"; do [ "$r" = "$k" ] && continue 2; done
		out=$out${out:+,}$r
	done
	echo "$out"
}
formats() { # 'INPUT [OPTION...]' RULE...: the hints of RULE... alone, in every format
	local d=$1 f
	shift
	for f in table csv json jsonl; do run "proftool hints $d --format $f --hint hints.disable=\$(except $*)"; done
}
one() { # 'INPUT [OPTION...]' RULE...: the same in CSV only (further severities of a rule)
	local d=$1
	shift
	run "proftool hints $d --format csv --hint hints.disable=\$(except $*)"
}
us() { echo $((B + $1 * 1000)); }
begin() { # FILE [CC_MAJOR] [GPUS] [RANK]: a CUPTI description: process 4242 + RANK (rank RANK, default 0)
	#   driving GPUS GPUs (1) numbered from RANK (GPU index d: device RANK + d, context d + 1)
	F=$1 P=$((4242 + ${4:-0})) G=${4:-0} C=0 R=0
	cat >"$F" <<D
header cupti=130001 pid=$P flags=default-clock,rewritten,system-tids
kinds default
clock cupti=$B real=$B
process rank=$G exe=train cmdline="train" comm=train
threads $P=train
buffer
D
	local d
	for ((d = 0; d < ${3:-1}; d++)); do
		echo "  rec DEVICE id=$((G + d)) name=\"NVIDIA H100 80GB HBM3\" numMultiprocessors=132" \
			"globalMemorySize=85520809984 computeCapabilityMajor=${2:-9} computeCapabilityMinor=0" >>"$F"
		echo "  rec CONTEXT contextId=$((d + 1)) deviceId=$((G + d)) nullStreamId=7" >>"$F"
	done
}
call() { # CBID START END: a runtime call with the next correlation id (211 cudaLaunchKernel, 41
	#   cudaMemcpyAsync, 51 cudaMemsetAsync, 131 cudaStreamSynchronize, 311 cudaGraphLaunch)
	C=$((C + 1))
	echo "  rec RUNTIME cbid=$1 start=$(us "$2") end=$(us "$3") processId=$P threadId=$P correlationId=$C" >>"$F"
}
kern() { # NAME START END [CALL_START CALL_END [STREAM [GPU_INDEX [CBID]]]]: a kernel, launched by a call
	#   (cudaLaunchKernel unless CBID) when one is given
	local corr=0 d=${7:-0}
	if [ -n "${4:-}" ]; then
		call "${8:-211}" "$4" "$5"
		corr=$C
	fi
	echo "  rec CONCURRENT_KERNEL start=$(us "$2") end=$(us "$3") deviceId=$((G + d)) contextId=$((d + 1))" \
		"streamId=${6:-7} correlationId=$corr name=\"$1\"" >>"$F"
}
copy() { # START END CALL_START CALL_END: a 1 MiB HtoD copy on stream 8 of the first GPU
	call 41 "$3" "$4"
	echo "  rec MEMCPY copyKind=1 srcKind=2 dstKind=3 bytes=1048576 start=$(us "$1") end=$(us "$2")" \
		"deviceId=$G contextId=1 streamId=8 correlationId=$C" >>"$F"
}
fill() { # START END CALL_START CALL_END: a 4 KiB memset on stream 8 of the first GPU
	call 51 "$3" "$4"
	echo "  rec MEMSET value=0 bytes=4096 start=$(us "$1") end=$(us "$2") deviceId=$G contextId=1 streamId=8" \
		"correlationId=$C memoryKind=3" >>"$F"
}
rng() { # NAME START END [DOMAIN]: a host range of the main thread
	R=$((R + 1))
	echo "  range ${4:--} \"$1\" start=$(us "$2") end=$(us "$3") thread=$P id=$R" >>"$F"
}
finish() { # [OUT]: write the dump of the description (default: beside it, .cdump)
	echo "end-buffer" >>"$F"
	proftool-gen cupti "$F" -o "${1:-${F%.cdtxt}.cdump}" || echo "proftool-gen failed on $F"
}
