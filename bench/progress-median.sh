#!/bin/bash
# Two builds side by side, interleaved and pinned to core 0 (bench/RESULTS.md,
# 2026-11-27): the cost of progress reporting and of the median column.
#   bench/progress-median.sh OLD_PROFTOOL NEW_PROFTOOL REPS CMD [ARGS...]
# runs "PROFTOOL CMD ARGS" REPS times with each build, standard output to
# /dev/null and standard error to a file (no progress hook), then REPS times
# under script(1)'s pseudo-terminal with PROFTOOL_PROGRESS_DELAY=0 (the hook
# installed and drawing); prints per way the median, minimum and maximum CPU
# seconds (user + sys) and the peak RSS.
set -eu
old=$1 new=$2 reps=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((i = 0; i < reps; i++)); do
	for way in old new; do
		pt=$old
		[ $way = new ] && pt=$new
		/usr/bin/time -o "$out" -a -f "$way %U %S %M" taskset -c 0 "$pt" "$@" >/dev/null 2>/dev/null
		# shellcheck disable=SC2145
		script -qec "PROFTOOL_PROGRESS_DELAY=0 /usr/bin/time -o $out -a -f '$way-tty %U %S %M' taskset -c 0 $pt $*" /dev/null >/dev/null
	done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    way, u, s, kb = line.split()
    rows.setdefault(way, []).append((float(u) + float(s), int(kb)))
for way in sorted(rows):
    v = rows[way]
    c = [x[0] for x in v]
    print("%-8s cpu median %.3f s (min %.3f, max %.3f), peak RSS %.1f MiB, %d runs" %
          (way, statistics.median(c), min(c), max(c), max(x[1] for x in v) / 1024, len(v)))
PY
