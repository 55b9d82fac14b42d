# Every command on every real MindInsight job of the shared fixtures (issue
# 29, item 2: `summary` of JOB4 and ERROR_JOB tripped UBSan only under the
# sanitizer build, which no case ran it in). Each job is imported once; then
# info, dump, summary (every view, streamed and --in-memory), steps, perf,
# dataset, flops (every --by), hints, memory (every --by), timeline and export
# of every table run on the model. A command may succeed or refuse (exit 1
# with one "proftool: error:" message); the line says which. Anything else
# (another status, a crash, a sanitizer report, an exit 1 without the
# message) is printed as BAD with the end of its stderr.
requires_shared
F=$SHARED/fixtures/mindinsight
# chk JOB CMD...: run proftool CMD on JOB.ptm, output discarded; one line
chk() {
	local job=$1 rc
	shift
	proftool "$@" >/dev/null 2>err.txt
	rc=$?
	if grep -qE 'runtime error|Sanitizer|LeakSanitizer' err.txt; then
		echo "BAD $job $*: sanitizer report (exit $rc)"
		grep -E 'runtime error|SUMMARY' err.txt | head -3
	elif [ $rc = 0 ]; then
		echo "ok $job $*"
	elif [ $rc = 1 ] && grep -q '^proftool: error: ' err.txt; then
		echo "refused $job $*"
	else
		echo "BAD $job $*: exit $rc"
		tail -3 err.txt
	fi
}
# sweep JOB: every command on JOB.ptm
sweep() {
	local job=$1 m=$1.ptm v c b t
	chk "$job" info $m
	chk "$job" dump $m
	for v in device overview model distributed operator kernel memcpy userdefined optype aicpu gpu api all; do
		chk "$job" summary $m --view $v
		chk "$job" summary $m --view $v --in-memory
	done
	chk "$job" summary $m --view device --format json --in-memory
	for c in steps perf dataset hints; do chk "$job" $c $m; done
	for b in op type scope step model; do chk "$job" flops $m --by $b; done
	for b in pool op time; do chk "$job" memory $m --by $b; done
	chk "$job" timeline $m -o t.json
	for t in ops tasks steps aicpu kernels api tensors; do chk "$job" export $m --table $t --format csv; done
}
for d in "$F"/*/; do
	job=$(basename "$d")
	run "proftool import '$d' -o $job.ptm >/dev/null 2>&1; echo import \$?"
	[ -f "$job.ptm" ] && run sweep "$job"
done
