# The overview's and operator view's unions of a GPU rank's host ranges over several threads
# (summary.md §2.7): ranges of two threads that overlap, touch, nest across threads and have no
# length, and runtime calls of both threads that overlap, taken in start order. By hand, in us:
# Operator [100,400) ∪ [1200,1300) = 400 (aten::c on thread 20 lies across a and b, aten::f on
# thread 10 inside d, aten::z is empty); CudaRuntime [120,140) ∪ [1210,1215) = 25; per thread
# (--thread-sep) the operators of thread 10 cover 310, those of thread 20 200. The summary prints
# what --in-memory prints (the ranges of thread 20 are not in start order: the host read holds them
# and puts them in order).
ev() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 4, "tid": %s, "ts": %s, "dur": %s, "args": {%s}},\n' "$@"; }
kn() { printf '{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s}},\n' "$@"; }
{
	echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['
	ev user_annotation 'ProfilerStep#1' 10 0 1000 ''
	ev user_annotation 'ProfilerStep#2' 10 1000 1000 ''
	ev cpu_op aten::a 10 100 200 ''
	ev cuda_runtime cudaLaunchKernel 10 120 10 '"correlation": 1'
	ev cpu_op aten::c 20 250 100 ''
	ev cuda_runtime cudaLaunchKernel 20 125 15 '"correlation": 2'
	ev cpu_op aten::b 10 300 100 ''
	ev cpu_op aten::z 10 500 0 ''
	ev cpu_op aten::d 20 1200 100 ''
	ev cuda_runtime cudaLaunchKernel 20 1210 5 '"correlation": 3'
	ev cpu_op aten::f 10 1250 10 ''
	kn k1 150 50 1
	kn k2 210 30 2
	kn k3 1220 40 3
	echo '{"ph": "i", "s": "t", "name": "end", "pid": 4, "tid": 10, "ts": 1999}'
	echo ']}'
} >u.json
run proftool import u.json -o u.ptm
run proftool summary u.ptm --view overview
run proftool summary u.ptm --view operator
run proftool summary u.ptm --view operator --thread-sep --format csv
run "for v in '' '--view all' '--view all --format csv' '--view all --format json' '--view operator --thread-sep --op-detail' '--steps 2'; do proftool summary u.ptm \$v > a.txt 2>&1; proftool summary u.ptm --in-memory \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo \"same: \$v\" || echo \"DIFFERS: \$v\"; done"
