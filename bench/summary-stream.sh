#!/bin/bash
# The streamed summary against the in-memory one, interleaved and pinned to
# core 0 (bench/RESULTS.md, third session):
#   bench/summary-stream.sh PROFTOOL MODEL [MODEL_WITHOUT_TRACKEVENTS] [REPS]
# MODEL_WITHOUT_TRACKEVENTS: the same model written by a proftool older than
# the TrackEvents chunk (read twice); "" to skip. Prints per way the median,
# minimum and maximum CPU seconds (user + sys) and the peak RSS.
set -eu
pt=$1 model=$2 old=${3:-} reps=${4:-7}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((i = 0; i < reps; i++)); do
	/usr/bin/time -f "streamed %U %S %M" taskset -c 0 "$pt" summary "$model" >/dev/null 2>>"$out"
	if [ -n "$old" ]; then
		/usr/bin/time -f "two-reads %U %S %M" taskset -c 0 "$pt" summary "$old" >/dev/null 2>>"$out"
	fi
	/usr/bin/time -f "in-memory %U %S %M" taskset -c 0 "$pt" summary --in-memory "$model" >/dev/null 2>>"$out"
done
python3 - "$out" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    way, u, s, kb = line.split()
    rows.setdefault(way, []).append((float(u) + float(s), int(kb)))
for way, v in rows.items():
    c = [x[0] for x in v]
    print("%-10s cpu median %.2f s (min %.2f, max %.2f), peak RSS %.1f MiB" %
          (way, statistics.median(c), min(c), max(c), max(x[1] for x in v) / 1024))
PY
