#!/bin/bash
# proftool diff of two 1 GiB HWTS jobs against one summary of each (issue 31):
#   bench/diff-1g.sh BUILD WORKDIR [REPS]
# Generates tests/gen/bench-1g.desc and a perturbed copy (one op 1.5x slower, one dropped, one
# renumbered) with proftool-gen --perturbed, imports both, then runs, pinned to core 0 and
# interleaved, `summary A.ptm`, `summary B.ptm` and `diff A.ptm B.ptm` (and the same on the raw
# jobs), REPS times each (default 3). Prints the median CPU seconds (user + sys), the median wall
# seconds and the peak RSS of each, and checks diff's deltas against the generator's DELTA file.
set -eu
build=$1 work=$2 reps=${3:-3}
pt=$build/proftool gen=$build/proftool-gen
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
desc=$work/diff-1g.desc
cp "$src/tests/gen/bench-1g.desc" "$desc"
cat >>"$desc" <<'DESC'
perturb scale Default/network-WideDeepModel/MatMul-op1 1.5
perturb drop Default/network-WideDeepModel/Cast-op3
perturb rename Default/network-WideDeepModel/Add-op2 Default/network-WideDeepModel/Add-op1002
DESC
if [ ! -f "$work/b/DELTA" ]; then
	rm -rf "$work/a" "$work/b"
	"$gen" "$desc" -o "$work/a" --perturbed "$work/b"
fi
for s in a b; do
	[ -f "$work/$s.ptm" ] || "$pt" import "$work/$s" -o "$work/$s.ptm" 2>/dev/null
done
ls -l "$work"/a/hwts.* "$work"/b/hwts.* "$work"/a.ptm "$work"/b.ptm
# correctness first: every op delta equals the generator's
"$pt" diff "$work/a.ptm" "$work/b.ptm" --format csv 2>/dev/null | awk -F, -v OFS=, '
	FNR == NR { if ($0 !~ /^#/) { split($0, f, "\t"); if (f[3] + f[4]) want[(f[1] == "-" ? "" : f[1]) "|" (f[2] == "-" ? "" : f[2])] = f[7] " " f[8] }; next }
	FNR > 1 { k = $4 "|" $5; n++; if (want[k] != $8 " " $12) { bad++; print "wrong: " k } }
	END { printf "%d ops compared with the generator'"'"'s deltas, %d wrong\n", n, bad; exit bad != 0 }' "$work/b/DELTA" -
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cat /proc/loadavg >&2
for ((i = 0; i < reps; i++)); do
	for way in "summary-A summary $work/a.ptm" "summary-B summary $work/b.ptm" "diff diff $work/a.ptm $work/b.ptm" \
		"summary-A-raw summary $work/a" "summary-B-raw summary $work/b" "diff-raw diff $work/a $work/b"; do
		set -- $way
		name=$1
		shift
		/usr/bin/time -f "$name %U %S %e %M" taskset -c 0 "$pt" "$@" >/dev/null 2>>"$out.err" || true
		tail -1 "$out.err" >>"$out"
	done
done
rm -f "$out.err"
cat /proc/loadavg >&2
python3 - "$out" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    way, u, s, e, kb = line.split()
    rows.setdefault(way, []).append((float(u) + float(s), float(e), int(kb)))
med = {}
for way, v in rows.items():
    med[way] = statistics.median(x[0] for x in v)
    print("%-14s cpu median %6.2f s (min %.2f, max %.2f), wall median %6.2f s, peak RSS %7.1f MiB" %
          (way, med[way], min(x[0] for x in v), max(x[0] for x in v), statistics.median(x[1] for x in v),
           max(x[2] for x in v) / 1024))
for suf in ("", "-raw"):
    if "diff" + suf in med:
        ref = med["summary-A" + suf] + med["summary-B" + suf]
        print("diff%s / (summary A + summary B) = %.2f (target <= 2)" % (suf, med["diff" + suf] / ref))
PY
