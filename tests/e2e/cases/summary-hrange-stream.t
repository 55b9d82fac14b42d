# The summary of a GPU rank with host ranges read as a stream (proftool-summary(1) MEMORY, the host
# read): the same bytes as --in-memory, which loads the model whole, in every format, with steps,
# time windows and thread groups. A generated Kineto trace (ProfilerSteps, operators nested on two
# threads, copies and fills) and one made for the host read's rules: ranges with one start sorted by
# end, a zero-length range holding the call at its start, a range that outlives its parent (clipped:
# nesting_violations, noted as in memory), a call at a range's end (the parent holds it), a
# communication op launching a collective kernel, a user range, activities launched outside every
# range and without a call. Two zero-length ranges of a thread with one start print the same too (the
# call there attaches to the first, as in the whole load); and so does a thread whose ranges are not in
# start order (held, and put in order into the host read).
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o k.pt.trace.json --scale 3M >/dev/null
run 'proftool import k.pt.trace.json -o k.ptm 2>/dev/null && echo imported'
ev() { printf '{"ph": "X", "cat": "%s", "name": "%s", "pid": 4, "tid": %s, "ts": %s, "dur": %s, "args": {%s}},\n' "$@"; }
kn() { printf '{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s, "args": {"device": 0, "stream": 7, "correlation": %s}},\n' "$@"; }
jhead() { echo '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": ['; }
jtail() { echo '{"ph": "i", "s": "t", "name": "end", "pid": 4, "tid": 10, "ts": 3999}'; echo ']}'; }
{
	jhead
	ev user_annotation 'ProfilerStep#1' 10 0 1000 ''
	ev cpu_op aten::c 10 100 100 ''
	ev cuda_runtime cudaLaunchKernel 10 100 10 '"correlation": 1'
	ev cpu_op aten::b 10 100 300 ''
	ev cpu_op aten::a 10 100 300 ''
	kn k1 150 50 1
	ev cpu_op aten::z 10 200 0 ''
	ev cuda_runtime cudaLaunchKernel 10 200 5 '"correlation": 2'
	kn k2 210 30 2
	ev cpu_op aten::long 10 350 900 ''
	ev cuda_runtime cudaLaunchKernel 10 400 5 '"correlation": 3'
	kn k3 420 40 3
	ev cpu_op record_param_comms 20 500 200 '"Collective name": "allreduce"'
	ev cuda_runtime cudaLaunchKernel 20 510 5 '"correlation": 4'
	kn ncclDevKernel_AllReduce_Sum 520 100 4
	ev user_annotation 'ProfilerStep#2' 10 1000 1000 ''
	ev cpu_op aten::d 20 1100 300 ''
	ev cuda_runtime cudaLaunchKernel 20 1100 5 '"correlation": 5'
	kn k5 1110 40 5
	ev cuda_runtime cudaMemcpyAsync 20 1400 5 '"correlation": 6'
	printf '{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1410, "dur": 20, "args": {"device": 0, "stream": 7, "correlation": 6, "bytes": 4096}},\n'
	ev user_annotation 'ProfilerStep#3' 10 2000 1000 ''
	ev user_annotation 'my_region' 10 2100 500 ''
	ev cpu_op aten::e 10 2100 100 ''
	ev cuda_runtime cudaLaunchKernel 10 2150 5 '"correlation": 7'
	kn k7 2160 40 7
	ev cuda_runtime cudaLaunchKernel 10 2700 5 '"correlation": 8'
	kn k8 2710 40 8
	ev cuda_runtime cudaLaunchKernel 10 3500 5 '"correlation": 9'
	kn k9 3510 40 9
	kn k10 3600 40 10
	jtail
} >h.json
{ # two zero-length ranges with one start, and a call there: the whole load attaches it to the first
	jhead
	ev user_annotation 'ProfilerStep#1' 10 0 1000 ''
	ev cpu_op aten::p 10 100 0 ''
	ev cpu_op aten::q 10 100 0 ''
	ev cuda_runtime cudaLaunchKernel 10 100 5 '"correlation": 1'
	kn k1 150 50 1
	jtail
} >z.json
{ # a thread out of start order
	jhead
	ev user_annotation 'ProfilerStep#2' 10 1000 1000 ''
	ev user_annotation 'ProfilerStep#1' 10 0 1000 ''
	ev cpu_op aten::a 10 100 300 ''
	ev cuda_runtime cudaLaunchKernel 10 120 5 '"correlation": 1'
	kn k1 150 50 1
	jtail
} >o.json
run 'for f in h z o; do proftool import $f.json -o $f.ptm 2>/dev/null; done; echo imported'
run proftool summary h.ptm
run proftool summary h.ptm --view operator --thread-sep --format csv
run proftool summary z.ptm --view operator
run "for f in k h z o; do for v in '' '--format csv' '--format json' '--view all' '--thread-sep' '--view operator --thread-sep --op-detail' '--steps 2' '--steps 1,3' '--time-window 0:1.5ms' '--view overview,model,operator,kernel,api,gpu --format json' '--view model,operator --thread-sep --format csv'; do proftool summary \$f.ptm \$v > a.txt 2>&1; proftool summary \$f.ptm --in-memory \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo \"same: \$f \$v\" || echo \"DIFFERS: \$f \$v\"; done; done"
