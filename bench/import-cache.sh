#!/bin/bash
# CUPTI (or any) import in both page-cache states, old build against new,
# interleaved and pinned to one core (issue 30: "the claim holds only on a
# cold page cache"):
#   bench/import-cache.sh INPUT REPS PROFTOOL_A PROFTOOL_B...
# Per round and build: "cold" drops the page cache first (echo 1 >
# /proc/sys/vm/drop_caches; else dd iflag=nocache, which only advises), "hot"
# reads the input once just before (as right after it was written). Each
# import writes a compressed model with -j1 under /usr/bin/time -v; prints
# per build and state the median CPU seconds (user + sys), MB/s per CPU
# second and the largest peak RSS, also as a fraction of the input.
set -eu
in=$1 reps=$2
shift 2
core=${CORE:-1}
out=$(mktemp) dir=$(mktemp -d)
trap 'rm -rf "$out" "$dir"' EXIT
bytes=$(stat -c %s "$in")
cold() {
	sync
	if ! (echo 1 >/proc/sys/vm/drop_caches) 2>/dev/null; then
		dd if="$in" of=/dev/null iflag=nocache bs=1M status=none
	fi
}
hot() { cat "$in" >/dev/null; }
for ((i = 0; i < reps; i++)); do
	for state in cold hot; do
		k=0
		for pt in "$@"; do
			k=$((k + 1))
			$state
			/usr/bin/time -v taskset -c "$core" "$pt" import -j1 "$in" -o "$dir/m$k.ptm" 2>"$dir/t" >/dev/null
			u=$(sed -n 's/.*User time (seconds): //p' "$dir/t")
			s=$(sed -n 's/.*System time (seconds): //p' "$dir/t")
			r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/t")
			echo "$k $state $u $s $r" >>"$out"
		done
		[ $# -lt 2 ] || cmp "$dir/m1.ptm" "$dir/m2.ptm"
	done
done
python3 - "$out" "$bytes" "$@" <<'PY'
import statistics, sys
n = int(sys.argv[2]); names = sys.argv[3:]
rows = {}
for line in open(sys.argv[1]):
    k, st, u, s, r = line.split()
    rows.setdefault((int(k), st), []).append((float(u) + float(s), int(r)))
for (k, st), v in sorted(rows.items()):
    c = statistics.median(x[0] for x in v)
    kb = max(x[1] for x in v)
    print("%-40s %-4s cpu median %.2f s (%d runs), %.0f MB/s; peak RSS %.1f MiB = %.3f x input (%d bytes)" %
          (names[k - 1], st, c, len(v), n / c / 1e6, kb / 1024, kb * 1024 / n, n))
PY
