# The device, distributed, memcpy, userdefined, optype and aicpu views of a GPU rank with host ranges
# read as a stream (proftool-summary(1) MEMORY, the host read), so --view all: the same bytes as
# --in-memory, which loads the model whole, in every format, with steps, time windows and thread
# groups. A generated Kineto trace of three event batches, and one made for these views' rules:
# memory-manipulation ranges (by name: memcpy, MemoryCopy) holding copies launched from inside them
# (nested ranges too) and copy calls that launch nothing, which leave the host calls; copy calls
# outside them; member and non-member ranges; user ranges nested in user ranges; a communication op
# whose elementwise kernel is communication by attribution. A truncated and a corrupt model fail as
# the whole load does.
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o k.pt.trace.json --scale 3M >/dev/null
run 'proftool import k.pt.trace.json -o k.ptm 2>/dev/null && echo imported'
ev() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 4, "tid": %s, "ts": %s, "dur": %s, "args": {%s}},\n' "$@"; }
kn() { printf '{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s}},\n' "$@"; }
cpy() { printf '{"ph": "X", "cat": "gpu_%s", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s, "bytes": %s}},\n' "$@"; }
{
	echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['
	ev user_annotation 'ProfilerStep#1' 10 0 1000 ''
	ev user_annotation 'copy_weights_memcpy' 10 50 400 ''
	ev cpu_op aten::copy_ 10 60 200 ''
	ev cuda_runtime cudaMemcpyAsync 10 70 10 '"correlation": 1'
	cpy memcpy 'Memcpy HtoD (Pageable -> Device)' 100 30 1 8192
	ev user_annotation 'inner' 10 300 100 ''
	ev cuda_runtime cudaMemsetAsync 10 310 5 '"correlation": 2'
	cpy memset 'Memset (Device)' 320 10 2 1024
	ev cuda_runtime cudaMemcpy 10 420 5 '"correlation": 3'
	ev cpu_op aten::mm 20 100 300 ''
	ev cuda_runtime cudaLaunchKernel 20 110 5 '"correlation": 4'
	kn k4 130 50 4
	ev cuda_runtime cudaMemcpyAsync 20 500 5 '"correlation": 5'
	cpy memcpy 'Memcpy DtoH (Device -> Pageable)' 510 20 5 2048
	ev user_annotation 'ProfilerStep#2' 10 1000 1000 ''
	ev user_annotation 'my_block' 20 1050 600 ''
	ev user_annotation 'my_inner' 20 1100 200 ''
	ev cuda_runtime cudaLaunchKernel 20 1110 5 '"correlation": 6'
	kn k6 1120 40 6
	ev cuda_runtime cudaMemsetAsync 20 1400 5 '"correlation": 7'
	cpy memset 'Memset (Device)' 1410 10 7 512
	ev user_annotation 'MemoryCopy staging' 10 1200 300 ''
	ev cuda_runtime cudaMemcpyAsync 10 1210 5 '"correlation": 8'
	cpy memcpy 'Memcpy HtoD (Pageable -> Device)' 1220 20 8 4096
	ev cpu_op 'c10d::allreduce_' 20 1700 250 ''
	ev cuda_runtime cudaLaunchKernel 20 1710 5 '"correlation": 12'
	kn ncclDevKernel_AllReduce_Sum_f32_RING_LL 1720 100 12
	ev cpu_op aten::add_ 20 1800 100 ''
	ev cuda_runtime cudaLaunchKernel 20 1810 5 '"correlation": 13'
	kn 'void at::native::vectorized_elementwise_kernel<4>' 1830 60 13
	ev user_annotation 'ProfilerStep#3' 10 2000 1000 ''
	ev user_annotation 'copy_weights_memcpy' 10 2100 100 ''
	ev cuda_runtime cudaMemcpy 10 2110 5 '"correlation": 9'
	ev user_annotation 'my_block' 20 2300 100 ''
	ev user_annotation 'copy_weights_memcpy' 10 3100 200 ''
	ev cuda_runtime cudaMemcpyAsync 10 3110 5 '"correlation": 10'
	cpy memcpy 'Memcpy HtoD (Pageable -> Device)' 3120 20 10 1024
	ev cuda_runtime cudaMemcpyAsync 20 3500 5 '"correlation": 11'
	cpy memcpy 'Memcpy HtoD (Pageable -> Device)' 3510 20 11 1024
	echo '{"ph": "i", "s": "t", "name": "end", "pid": 4, "tid": 10, "ts": 3999}'
	echo ']}'
} >m.json
run 'proftool import m.json -o m.ptm 2>/dev/null && echo imported'
run proftool summary m.ptm --view memcpy,userdefined,distributed
run proftool summary m.ptm --view memcpy --steps 2 --format csv
run "for f in k m; do for w in device distributed memcpy userdefined optype aicpu all; do for v in '' '--format csv' '--format json' '--thread-sep' '--steps 2' '--steps 1,3 --format csv' '--time-window 0:1.5ms' '--time-window 1ms:3ms --format json'; do proftool summary \$f.ptm --view \$w \$v > a.txt 2>&1; ra=\$?; proftool summary \$f.ptm --in-memory --view \$w \$v > b.txt 2>&1; rb=\$?; cmp -s a.txt b.txt && [ \$ra = \$rb ] && echo \"same: \$f \$w \$v (exit \$ra)\" || echo \"DIFFERS: \$f \$w \$v\"; done; done; done"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as a full read's
run 'head -c $(( $(stat -c %s k.ptm) * 2 / 3 )) k.ptm > cut.ptm; for v in "--view memcpy" "--view all" "--view userdefined --steps 2-3"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
run 'cp k.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s k.ptm) / 2 )) conv=notrunc 2>/dev/null; for v in "--view memcpy" "--view distributed"; do proftool summary bad.ptm $v > a.txt 2>&1; ra=$?; proftool summary bad.ptm --in-memory $v > b.txt 2>&1; rb=$?; cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $v (exit $ra)" || { echo "DIFFERS: $v"; cat a.txt b.txt; }; done'
