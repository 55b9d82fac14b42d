# Widths (issue 25, point 1): the default text output of steps, info, flops
# (every --by), dataset, memory (every --by) and export (every table, --format
# table) fits 120 columns on the real jobs of the shared fixtures (MindInsight
# JOB1, JOB3, JOB_AICPU and the minddata files, every Kineto trace) and on the
# CUPTI sample of testdata;
# --wide brings the detail columns back; CSV keeps every column.
# One line per run: "ok", "refused" (exit 1 with one "proftool: error:"
# message: the model lacks that data), or WIDE with the width and the
# longest line's start, or BAD with the exit status.
requires_shared
F=$SHARED/fixtures
# fit NAME CMD...: run proftool CMD (text) and check its longest line
fit() {
	local name=$1 rc w what
	shift
	what="$name $1${3:+ ${*:3}}" # the command and its options, not the model
	proftool "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q '^proftool: error: ' err.txt; then
		echo "refused $what"
		return
	fi
	[ $rc = 0 ] || { echo "BAD $what: exit $rc"; return; }
	w=$(awk '{ if (length($0) > w) { w = length($0); l = $0 } } END { print w + 0 }' out.txt)
	if [ "$w" -gt 120 ]; then
		echo "WIDE $what: $w columns"
		awk -v w="$w" 'length($0) == w { print "  " substr($0, 1, 100); exit }' out.txt
	else
		echo "ok $what"
	fi
}
# sweep NAME MODEL: every command of the widths contract on MODEL
sweep() {
	local name=$1 m=$2 b t
	fit "$name" info "$m"
	fit "$name" steps "$m"
	for b in op type scope step model; do fit "$name" flops "$m" --by $b; done
	fit "$name" dataset "$m"
	for b in pool op time; do fit "$name" memory "$m" --by $b; done
	for t in ops tasks steps aicpu kernels api tensors; do fit "$name" export "$m" --table $t --format table; done
}
for j in JOB1 JOB3 JOB_AICPU; do
	run "proftool import '$F/mindinsight/$j' -o $j.ptm >/dev/null 2>&1; echo import \$?"
	run sweep "$j" "$j.ptm"
done
for d in 0 1; do run fit minddata dataset "'$F/mindinsight/minddata'" --device $d; done
for k in "$F"/kineto/*.json.gz; do
	b=$(basename "$k" .json.gz)
	run "proftool import '$k' -o '$b.ptm' >/dev/null 2>&1; echo import \$?"
	run sweep "$b" "$b.ptm"
done
run "proftool import '$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump' -o loop.ptm >/dev/null 2>&1; echo import \$?"
run sweep torch-loop loop.ptm
# --wide: the detail columns come back (header lines); CSV holds them without it
run "proftool steps JOB1.ptm | sed -n 3p"
run "proftool steps JOB1.ptm --wide | sed -n 3p"
run "proftool steps JOB1.ptm --format csv | head -1"
run "proftool info JOB3.ptm | sed -n '/^Devices/,/^\$/p'"
run "proftool info JOB3.ptm --wide | sed -n '/^Devices/,/^\$/p'"
run "proftool flops JOB3.ptm --by model"
run "proftool flops JOB3.ptm --by model --wide"
run "proftool dataset JOB1.ptm --wide | sed -n '/^Dataset hints/,\$p'"
run "proftool memory loop.ptm --by time --wide | sed -n 3p"
run "proftool export JOB3.ptm --table steps --format table --wide | sed -n 3p | cut -c1-150"
