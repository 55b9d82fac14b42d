#!/bin/bash
# Nsight Systems SQLite import (issue #28) against Python's sqlite3 on the same file:
#   bench/nsys.sh BUILD [SCALE] [REPS]
# BUILD holds proftool, proftool-gen and bench/bench-sqlite (libsqlite3 alone: the ceiling). An export is generated from
# testdata/nsys/train.nsysdesc repeated SCALE times (default 60000: 4.3 M rows, 3.1 M events)
# into a temporary directory. Each command runs pinned to core 0; per command the median CPU
# seconds (user + sys) over REPS runs (default 3), the events imported per CPU second, and the
# peak RSS. The target (issue #28): the import at >= 5 M events per CPU second.
set -eu
b=$1 scale=${2:-60000} reps=${3:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d) log=$(mktemp)
trap 'rm -rf "$dir" "$log"' EXIT
"$b/proftool-gen" nsys "$src/testdata/nsys/train.nsysdesc" -o "$dir/t.sqlite" --scale "$scale"
"$b/proftool" import -j1 "$dir/t.sqlite" -o "$dir/t.ptm" 2>/dev/null
events=$("$b/proftool" info "$dir/t.ptm" --format csv | sed -n 's/^[0-9]*,nsys.imported_events,//p')
rows=$("$b/proftool" info "$dir/t.ptm" --format csv | sed -n 's/^[0-9]*,nsys.rows,//p')
run() { # label command...
	local l=$1
	shift
	for ((i = 0; i < reps; i++)); do
		/usr/bin/time -f "$l|%U|%S|%M" taskset -c 0 "$@" >/dev/null 2>>"$log" || echo "$l|fail" >>"$log"
	done
}
run "proftool import -j1" "$b/proftool" import -j1 "$dir/t.sqlite" -o "$dir/t.ptm"
run "proftool summary --view kernel" "$b/proftool" summary "$dir/t.sqlite" --view kernel --format csv
run "libsqlite3 alone, same queries" "$b/bench/bench-sqlite" "$dir/t.sqlite"
run "python3 nsys-stats.py kern (sqlite3)" python3 "$src/tests/nsys-stats.py" "$dir/t.sqlite" kern
echo "export: $(stat -c %s "$dir/t.sqlite") bytes, $rows rows, $events events imported"
printf '%-40s %8s %12s %9s\n' command cpu_s 'M events/s' rss_MiB
grep '|' "$log" | grep -v '|fail' | awk -F'|' -v ev="$events" '
	{ k = $1; c[k] = c[k] " " ($2 + $3); r[k] = $4; if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
	END {
		for (i = 0; i < n; i++) {
			k = order[i]; m = split(substr(c[k], 2), v, " ")
			for (a = 1; a <= m; a++) for (j = a + 1; j <= m; j++) if (v[j] < v[a]) { t = v[a]; v[a] = v[j]; v[j] = t }
			med = v[int((m + 1) / 2)]
			printf "%-40s %8.2f %12.2f %9.1f\n", k, med, (med > 0 ? ev / med / 1e6 : 0), r[k] / 1024
		}
	}'
grep -q '|fail' "$log" && { echo "a command failed" >&2; exit 1; }
exit 0
