# proftool summary of a GPU rank with host ranges read as a stream keeps a linked call's end as its
# 32-bit duration, each call's device time and each copy call's copy time in 32 bits, and the rare
# one that 32 bits do not hold (2^32 ns, 4.29 s, and more) in a table (proftool-summary(1) MEMORY):
# the same bytes as --in-memory, which loads the model whole, in every view that reads them (gpu:
# the calls' ends; overview, operator, model: the device time under ranges; memcpy: the copies'
# time), formats, steps and time windows, on a Kineto trace of 1,500 steps (three event batches)
# whose last step of 20 s holds a call of 5 s, a call whose three kernels take 3 + 3 + 1 s (its sum
# passes 32 bits at the second) and a copy call whose three copies take as long, in a
# memory-manipulation range. A truncated model fails as the whole load does.
cat > mk.sh <<'SH'
# mk.sh STEPS: the Kineto trace m.json, its last step of 20 s
ev() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 4, "tid": %s, "ts": %s, "dur": %s, "args": {%s}},\n' "$@"; }
gpu() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s%s}},\n' "$@"; }
{
	echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['
	for s in $(seq 1 $1); do
		b=$(( (s - 1) * 1000 )) c=$(( s * 10 ))
		ev user_annotation "ProfilerStep#$s" 10 $b 1000 ''
		ev cpu_op 'aten::mm' 10 $((b + 10)) 100 ''
		ev cuda_runtime cudaLaunchKernel 10 $((b + 20)) $((s % 7 + 4)) "\"correlation\": $c"
		ev user_annotation 'staging_memcpy' 10 $((b + 200)) 300 ''
		ev cuda_runtime cudaMemcpyAsync 10 $((b + 210)) 10 "\"correlation\": $((c + 1))"
		gpu kernel 'gemm_kernel' $((b + 40)) $((s % 5 + 20)) $c ''
		gpu gpu_memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 230)) 30 $((c + 1)) ', "bytes": 8192'
	done
	# the last step, 20 s: a call of 5 s (its end beyond 32 bits of ns), a call whose kernels take
	# 3 + 3 + 1 s, a copy call whose copies take 3 + 3 + 1 s
	b=$(( $1 * 1000 )) c=$(( ($1 + 1) * 10 ))
	ev user_annotation "ProfilerStep#$(($1 + 1))" 10 $b 20000000 ''
	ev cpu_op 'aten::long_mm' 10 $((b + 10)) 19000000 ''
	ev cuda_runtime cudaLaunchKernel 10 $((b + 20)) 5000000 "\"correlation\": $c"
	ev cuda_runtime cudaLaunchKernel 10 $((b + 5000100)) 10 "\"correlation\": $((c + 1))"
	ev user_annotation 'staging_memcpy' 10 $((b + 5000200)) 10000000 ''
	ev cuda_runtime cudaMemcpyAsync 10 $((b + 5000300)) 10 "\"correlation\": $((c + 2))"
	gpu kernel 'long_kernel' $((b + 5000050)) 100 $c ''
	gpu kernel 'long_kernel' $((b + 5000200)) 3000000 $((c + 1)) ''
	gpu kernel 'long_kernel' $((b + 8000300)) 3000000 $((c + 1)) ''
	gpu kernel 'long_kernel' $((b + 11000400)) 1000000 $((c + 1)) ''
	gpu gpu_memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 12000500)) 3000000 $((c + 2)) ', "bytes": 4096'
	gpu gpu_memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 15000600)) 3000000 $((c + 2)) ', "bytes": 4096'
	gpu gpu_memcpy 'Memcpy HtoD (Pageable -> Device)' $((b + 18000700)) 1000000 $((c + 2)) ', "bytes": 4096'
	echo '{"ph": "i", "s": "t", "name": "end", "pid": 4, "tid": 10, "ts": '$((b + 20000000))'}'
	echo ']}'
} >m.json
SH
run 'bash mk.sh 1500 && proftool import m.json -o m.ptm 2>/dev/null && echo imported'
run proftool summary m.ptm --view gpu,memcpy --steps 1500-1501 --time-unit ms
run proftool summary m.ptm --view operator --steps 1501 --time-unit ms
run "for w in gpu memcpy overview operator model all; do for v in '' '--format csv' '--format json' '--steps 1501' '--steps 2-3 --format csv' '--time-window 1.4s:' '--time-window 0:1.2s --format json'; do proftool summary m.ptm --view \$w \$v > a.txt 2>&1; ra=\$?; proftool summary m.ptm --in-memory --view \$w \$v > b.txt 2>&1; rb=\$?; cmp -s a.txt b.txt && [ \$ra = \$rb ] && echo \"same: \$w \$v (exit \$ra)\" || echo \"DIFFERS: \$w \$v\"; done; done"
# a truncated model: the error names the file and the offset, exit 1, as a full read's
run 'head -c $(( $(stat -c %s m.ptm) * 2 / 3 )) m.ptm > cut.ptm; for v in "--view gpu" "--view memcpy"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
