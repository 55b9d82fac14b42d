# proftool summary of a CUPTI dump whose typed NVTX ranges name their parents (cupti.md §6.6,
# summary.md §2.2 rule 1) streams through the host read (proftool-summary(1) MEMORY): each child takes
# its parent from its thread's stack, where it is when the child comes; the same bytes as --in-memory
# (the whole load) and as standard input, in every format and view, with --op-detail, --steps,
# --time-window and --thread-sep, of one process and of two imported together. The description
# (tests/gen/cases/summary-nvpar.cdtxt) names aten::add_ a child of Backward while it lies inside
# aten::mm, and aten::copy_ a child of Optimizer.step that it outlives; scaled to about 4 batches of
# events. Parents that the stack cannot give (a cycle, a parent that ended before its child, one that
# comes after it, zero-length ranges with one start and a parent among them) read the model whole
# after all: the same bytes again; a parent that names no range of the thread (no id of any
# repetition: --scale shifts the ids by 31, the largest correlation id + 1) nests by time
# (cupti.nvtx_bad_parent) and streams.
run 'proftool-gen cupti "$SRC/tests/gen/cases/summary-nvpar.cdtxt" -o p.cdump --scale 2M >/dev/null && proftool import p.cdump -o p.ptm 2>/dev/null && proftool info p.ptm | grep -E "^events"'
run 'sed "s/4242/5252/g; s/4243/5253/g; s/rank=0/rank=1/" "$SRC/tests/gen/cases/summary-nvpar.cdtxt" > q.cdtxt && proftool-gen cupti q.cdtxt -o q.cdump --scale 1M >/dev/null && proftool import p.cdump q.cdump -o pq.ptm 2>/dev/null && proftool info pq.ptm | grep -E "^(sources|events)"'
# aten::add_ is Backward's child, not aten::mm's: its kernel is not in aten::mm's device time
run 'proftool summary p.ptm --view operator --op-detail --steps 2'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: summary of the file, --in-memory and standard input, alike (output and exit status)
m=$1; shift
"$PROFTOOL" summary $m "$@" > a.txt 2>&1; ra=$?
"$PROFTOOL" summary $m --in-memory "$@" > b.txt 2>&1; rb=$?
"$PROFTOOL" summary - "$@" < $m > c.txt 2>&1; rc=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt c.txt
cmp -s a.txt b.txt && cmp -s a.txt c.txt && [ $ra = $rb ] && [ $ra = $rc ] && echo "same: $m $* (exit $ra)" || echo "DIFFERS: $m $*"
SH
run "for m in p.ptm pq.ptm; do for v in '' '--format csv' '--format json' '--view all' '--view all --format json' '--thread-sep' '--view operator --thread-sep --op-detail' '--op-detail --view all --format csv' '--steps 2' '--steps 3-50' '--time-window 0:1.5ms' '--time-window 1ms:9ms --view all' '--view gpu,memcpy --layout paddle' '--view memcpy,userdefined --format csv' '--view model,operator --thread-sep --format csv'; do sh same.sh \$m \$v; done; done"
# read as a stream: the first read, the calls, the steps, the host read and the sums (five reads;
# the whole load reads once)
reads() { m=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" summary $m $* >/dev/null" /dev/null | tr '\r' '\n' | grep -c "reading '$m': 100%"; }
run "for v in '' '--view all' '--op-detail' '--steps 2-3'; do echo \"p.ptm \$v: \$(reads p.ptm \$v) reads; pq.ptm: \$(reads pq.ptm \$v)\"; done; echo \"--in-memory: \$(reads p.ptm --in-memory)\""
# malformed parents: each description's step with two more ranges (and a launch)
mk() {
	n=$1
	shift
	{
		sed '/^end-buffer$/,$d' "$SRC/tests/gen/cases/summary-nvpar.cdtxt"
		for l in "$@"; do echo "  $l"; done
		sed -n '/^end-buffer$/,$p' "$SRC/tests/gen/cases/summary-nvpar.cdtxt"
	} > $n.cdtxt
	proftool-gen cupti $n.cdtxt -o $n.cdump --scale 1M >/dev/null && proftool import $n.cdump -o $n.ptm 2>/dev/null
}
L='rec RUNTIME cbid=211 start=1000002150 end=1000002170 processId=4242 threadId=4242 correlationId=30'
K='rec CONCURRENT_KERNEL start=1000003400 end=1000003500 deviceId=0 contextId=1 streamId=7 correlationId=30 name="odd_kernel" gridX=8 blockX=128'
mk cycle 'range Operator "cyc_a" start=1000002100 end=1000002900 thread=4242 id=20 parent=21' 'range OperatorInner "cyc_b" start=1000002120 end=1000002800 thread=4242 id=21 parent=20' "$L" "$K"
mk ended 'range Operator "late_child" start=1000002100 end=1000002900 thread=4242 id=20 parent=3' "$L" "$K"
mk ahead 'range Operator "early_child" start=1000002100 end=1000002300 thread=4242 id=20 parent=21' 'range Operator "later_parent" start=1000002400 end=1000002900 thread=4242 id=21 parent=2' "$L" "$K"
mk zero 'range Operator "z1" start=1000002150 end=1000002150 thread=4242 id=20 parent=2' 'range Operator "z2" start=1000002150 end=1000002150 thread=4242 id=21' "$L" "$K"
mk noname 'range Operator "orphan" start=1000002100 end=1000002300 thread=4242 id=20 parent=28' 'range Operator "other_thread" start=1000002400 end=1000002600 thread=4242 id=21 parent=13' "$L" "$K"
run 'proftool info noname.ptm | grep nvtx_bad_parent'
run "for m in cycle ended ahead zero noname; do for v in '' '--view all' '--op-detail --view operator' '--steps 2-3' '--time-window 1ms:3ms'; do sh same.sh \$m.ptm \$v; done; echo \"\$m: \$(reads \$m.ptm) reads\"; done"
# the cycle: the whole load cuts both links (ranks.c), so cyc_a and cyc_b are roots, and the call inside
# them attaches to Forward, the deepest range that holds it: odd_kernel is in no operator's time
run 'proftool summary cycle.ptm --view operator --op-detail --steps 1'
