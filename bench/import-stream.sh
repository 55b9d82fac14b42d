#!/bin/bash
# The streaming import against the in-memory one, interleaved and pinned to
# core 0 (bench/RESULTS.md, fourth session):
#   bench/import-stream.sh PROFTOOL INPUT [REPS] [IMPORT OPTIONS...]
# Each way writes a compressed model to a temporary file (one thread, -j1,
# so that CPU time is the import's own); the two files must be identical.
# Prints per way the median, minimum and maximum CPU seconds (user + sys)
# and the peak RSS, also as a fraction of the input's size.
set -eu
pt=$1 in=$2 reps=${3:-5}
shift $(($# < 3 ? $# : 3))
out=$(mktemp) dir=$(mktemp -d)
trap 'rm -rf "$out" "$dir"' EXIT
bytes=$(du -sb --apparent-size "$in" | cut -f1)
for ((i = 0; i < reps; i++)); do
	/usr/bin/time -f "streamed %U %S %M" taskset -c 0 "$pt" import -j1 "$@" "$in" -o "$dir/s.ptm" 2>>"$out"
	/usr/bin/time -f "in-memory %U %S %M" taskset -c 0 "$pt" import -j1 --in-memory "$@" "$in" -o "$dir/m.ptm" 2>>"$out"
	cmp "$dir/s.ptm" "$dir/m.ptm"
done
python3 - "$out" "$bytes" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 4 or f[0] not in ("streamed", "in-memory"):
        continue  # the import's own messages
    rows.setdefault(f[0], []).append((float(f[1]) + float(f[2]), int(f[3])))
n = int(sys.argv[2])
for way, v in rows.items():
    c = [x[0] for x in v]
    kb = max(x[1] for x in v)
    print("%-10s cpu median %.2f s (min %.2f, max %.2f), %.0f MB/s; peak RSS %.1f MiB = %.3f x input (%d bytes)" %
          (way, statistics.median(c), min(c), max(c), n / statistics.median(c) / 1e6, kb / 1024, kb * 1024 / n, n))
PY
