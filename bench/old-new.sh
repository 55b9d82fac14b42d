#!/bin/bash
# Two builds running one command, interleaved and pinned to core 0
# (bench/RESULTS.md):
#   bench/old-new.sh OLD_PROFTOOL NEW_PROFTOOL REPS COMMAND [ARGS...]
# e.g. bench/old-new.sh /tmp/old/proftool build/proftool 3 summary k1G.ptm
# Checks that both write the same bytes to standard output, then prints per
# build the median, minimum and maximum CPU seconds (user + sys) and the peak RSS.
set -eu
old=$1 new=$2 reps=$3
shift 3
out=$(mktemp) a=$(mktemp) b=$(mktemp)
trap 'rm -f "$out" "$a" "$b"' EXIT
for ((i = 0; i < reps; i++)); do
	/usr/bin/time -f "old %U %S %M" taskset -c 0 "$old" "$@" >"$a" 2>>"$out"
	/usr/bin/time -f "new %U %S %M" taskset -c 0 "$new" "$@" >"$b" 2>>"$out"
	cmp -s "$a" "$b" || { echo "outputs differ: $*" >&2; exit 1; }
done
python3 - "$out" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 4 or f[0] not in ("old", "new"):
        continue
    rows.setdefault(f[0], []).append((float(f[1]) + float(f[2]), int(f[3])))
for way, v in rows.items():
    c = [x[0] for x in v]
    print("%-4s cpu median %.2f s (min %.2f, max %.2f), peak RSS %.1f MiB" %
          (way, statistics.median(c), min(c), max(c), max(x[1] for x in v) / 1024))
PY
