#!/bin/bash
# Passes over a model with many distinct op names (issue 29.8: hints was
# quadratic in them), pinned to core 0:
#   bench/hints-names.sh PROFTOOL_GEN PROFTOOL NAMES [OLD_PROFTOOL] [REPS] [COMMANDS]
# Generates bench/hints-names.desc with NAMES ops (each its own name, at
# most 24 999 per stream) into a temporary directory, imports it, then runs each command of COMMANDS
# (default "info hints summary flops steps perf"; memory and dataset only
# say that the model has no such data) REPS times
# (default 3) with PROFTOOL and, if given, OLD_PROFTOOL (interleaved; "" to
# skip). OLD_CPU_LIMIT=S stops an old run after S CPU seconds (old hints is
# quadratic). Prints per command and binary the median CPU seconds (user +
# sys) and the peak RSS, and checks that both binaries print the same bytes.
set -eu
gen=$1 pt=$2 names=$3 old=${4:-} reps=${5:-3}
cmds=${6:-info hints summary flops steps perf}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/hints-names.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cp "$here/hints-names.desc" "$dir/names.desc"
for ((left = names, s = 2; left > 0; left -= 24999, s++)); do
	echo "opgen $((left < 24999 ? left : 24999)) prefix Default/network-Big/ types MatMul,Add,Cast,Mul,Conv2D,ReLU stream $s task 1 dur 3us-6us"
done >>"$dir/names.desc"
/usr/bin/time -f "generate %e s wall, peak RSS %M KB" "$gen" "$dir/names.desc" -o "$dir/job" >/dev/null
/usr/bin/time -f "import %e s wall, peak RSS %M KB" "$pt" import "$dir/job" -o "$dir/m.ptm" 2>&1 | grep -v '^proftool:'
rm -rf "$dir/job"
log=$dir/log
for c in $cmds; do
	for ((i = 0; i < reps; i++)); do
		/usr/bin/time -f "$c new %U %S %M" taskset -c 0 "$pt" "$c" "$dir/m.ptm" >"$dir/new.out" 2>>"$log" ||
			echo "$c: exit status $?"
		if [ -n "$old" ]; then
			if (ulimit -t "${OLD_CPU_LIMIT:-unlimited}"
			    exec /usr/bin/time -f "$c old %U %S %M" taskset -c 0 "$old" "$c" "$dir/m.ptm") >"$dir/old.out" 2>>"$log"; then
				cmp -s "$dir/new.out" "$dir/old.out" || echo "$c: the outputs differ"
			else
				echo "$c: old stopped (CPU limit ${OLD_CPU_LIMIT:-none} s)"
				echo "stopped $c" >>"$log"
			fi
		fi
	done
done
python3 - "$log" "$names" <<'PY'
import statistics, sys
rows, stopped = {}, set()
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 2 and f[0] == "stopped":
        stopped.add(f[1])
    if len(f) != 5 or f[1] not in ("new", "old"):
        continue  # proftool's own warnings
    rows.setdefault((f[0], f[1]), []).append((float(f[2]) + float(f[3]), int(f[4])))
for (c, way), v in rows.items():
    cpu = [x[0] for x in v]
    print("%s names: %-8s %s cpu median %.2f s (min %.2f, max %.2f), peak RSS %.0f MiB%s" %
          (sys.argv[2], c, way, statistics.median(cpu), min(cpu), max(cpu), max(x[1] for x in v) / 1024,
           " (stopped at the CPU limit)" if way == "old" and c in stopped else ""))
PY
