# A model file streamed gives the bytes of its whole load (--in-memory) where the two once differed.
# summary's distributed view of a MindSpore GPU run: the step trace's reduce intervals are part of the
# device's communication M as the index takes them (pt_index_comm_spans), so the nccl kernel's 2 us
# before each of them count (0.491 ms, 50.28 %, not 0.483 ms). hints' MEMORY_NEAR_CAPACITY on Ascend
# memory data: peak_ns, the first start of the peak node (ascend.md §3.13), comes from the second read.
same() { # MODEL COMMAND OPTIONS...: the streamed and the whole output (and exit status) compared
	m=$1 c=$2; shift 2
	proftool $c $m "$@" > a.txt 2>&1; ra=$?
	proftool $c $m --in-memory "$@" > b.txt 2>&1; rb=$?
	if cmp -s a.txt b.txt && [ $ra = $rb ]; then echo "same: $c $m $* (exit $ra)"; else echo "DIFFERS: $c $m $*"; diff a.txt b.txt; fi
}
cp -r "$SRC/testdata/msgpu/lenet" lenet
run 'proftool import -o lenet.ptm lenet'
run 'proftool summary lenet.ptm --view distributed'
for v in '--view distributed' '--view distributed --format csv' '--view all' '--op-detail' '--view device'; do
	run "same lenet.ptm summary $v"
done
run 'cp -r "$SRC/testdata/msgpu/lenet-mindrt" mindrt && proftool import -o mindrt.ptm mindrt 2>/dev/null'
for v in '--view distributed --format csv' '--view all'; do
	run "same mindrt.ptm summary $v"
done
cp "$SRC/tests/e2e/cases/memory-near.desc" near.desc
run 'proftool-gen near.desc -o near && proftool import -o near.ptm near 2>/dev/null'
run 'proftool hints near.ptm --format csv 2>/dev/null | grep -o "peak_ns=[0-9]*"'
for v in '--format csv' '' '--format json' '--format jsonl --show-suppressed' '--hint hints.memory.peak_pct=95 --format csv'; do
	run "same near.ptm hints $v"
done
# every model of testdata and the fixtures (the Ascend jobs, MindSpore GPU runs, CUPTI dumps, Kineto
# traces, the Nsight Systems export): summary (each view, all, --op-detail), hints, timeline, flops
gpu_models
run 'for d in ascend/sample ascend/binary msgpu/lenet msgpu/lenet-mindrt; do proftool import td/$d -o a-${d#*/}.ptm 2>/dev/null || echo "no $d"; done; for j in JOB1 JOB2 JOB3 JOB4 JOB_AICPU container; do proftool import fx/mindinsight/$j -o mi-$j.ptm 2>/dev/null || echo "no $j"; done'
run 'for m in *.ptm; do for c in device overview model distributed operator kernel memcpy userdefined optype aicpu gpu api all; do same $m summary --view $c; done; same $m summary --op-detail; same $m summary --view all --steps 2-3; for c in "hints --format csv" "hints --steps 2-3 --format json" "timeline -o -" "flops"; do same $m $c; done; done | grep -v "^same:"; echo checked'
