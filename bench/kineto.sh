#!/bin/bash
# Kineto trace import (issue #27) against Python's json.load on the same file:
#   bench/kineto.sh BUILD [SIZE] [REPS]
# BUILD holds proftool, proftool-gen and bench/bench-simdjson (simdjson alone: the ceiling; bench/bench-yajl too
# when it was built). A trace of SIZE bytes (default 1G) is
# generated from testdata/kineto/train-current.ktdesc (--scale) into a temporary
# directory, plain and gzipped. Each command runs pinned to core 0; per command
# the median CPU seconds (user + sys) over REPS runs (default 3), the MB/s of
# JSON text per CPU second, and the peak RSS as a fraction of the input.
set -eu
b=$1 size=${2:-1G} reps=${3:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d) log=$(mktemp)
trap 'rm -rf "$dir" "$log"' EXIT
"$b/proftool-gen" kineto "$src/testdata/kineto/train-current.ktdesc" -o "$dir/t.json" --scale "$size" \
	--print-expect "$dir/t.expect"
gzip -1 -c "$dir/t.json" >"$dir/t.json.gz"
bytes=$(stat -c %s "$dir/t.json")
run() { # label command...
	local l=$1
	shift
	for ((i = 0; i < reps; i++)); do
		/usr/bin/time -f "$l|%U|%S|%M" taskset -c 0 "$@" >/dev/null 2>>"$log" || echo "$l|fail" >>"$log"
	done
}
run "proftool import (plain)" "$b/proftool" import -j1 "$dir/t.json" -o "$dir/t.ptm"
run "proftool import (gzip)" "$b/proftool" import -j1 "$dir/t.json.gz" -o "$dir/g.ptm"
run "proftool summary --view kernel (plain)" "$b/proftool" summary "$dir/t.json" --view kernel --format csv
run "simdjson alone, every field read (in memory)" "$b/bench/bench-simdjson" "$dir/t.json"
if [ -x "$b/bench/bench-yajl" ]; then
	run "yajl alone, no-op callbacks (plain)" "$b/bench/bench-yajl" "$dir/t.json"
fi
run "python3 json.load (plain)" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/t.json"
"$b/proftool" dump "$dir/t.ptm" | grep -v '^source' | md5sum >"$dir/t.sum"
"$b/proftool" dump "$dir/g.ptm" | grep -v '^source' | md5sum | cmp -s - "$dir/t.sum" &&
	echo "plain and gzip give the same model (dumps but the source line)"
python3 - "$log" "$bytes" "$(grep -c . "$dir/t.expect")" "$(sed -n 's/^events //p' "$dir/t.expect")" <<'PY'
import statistics, sys
rows, order = {}, []
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('|')
    if len(f) != 4:
        continue  # the commands' own messages
    if f[0] not in rows:
        order.append(f[0])
    rows.setdefault(f[0], []).append((float(f[1]) + float(f[2]), int(f[3])))
n, ev = int(sys.argv[2]), int(sys.argv[4])
print("input: %d bytes of JSON, %d trace events" % (n, ev))
base = None
for k in order:
    c = statistics.median(x[0] for x in rows[k])
    kb = max(x[1] for x in rows[k])
    if k.startswith("python3"):
        base = c
    print("%-42s cpu %.2f s (runs %s), %.0f MB/s, %.2fM events/s; peak RSS %.0f MiB = %.3f x input" %
          (k, c, " ".join("%.2f" % x[0] for x in rows[k]), n / c / 1e6, ev / c / 1e6, kb / 1024, kb * 1024 / n))
if base:
    c = statistics.median(x[0] for x in rows[order[0]])
    print("python3 json.load / proftool import: %.1f x the CPU time" % (base / c))
PY
