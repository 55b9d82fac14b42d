#!/bin/sh
# Import benchmark (issue #2): a ~1 GB generated HWTS log with its framework
# files, a 100 000-step trace and 200 000-op framework files.
# For each: "decode" = import in memory (proftool info, no model written),
# "import" = import and write the compressed model. One core (taskset -c 0),
# warm page cache, median of 3 runs; peak RSS from /usr/bin/time.
#   bench/bench-import.sh [BUILD_DIR] [WORK_DIR]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
work=${2:-/tmp/proftool-bench}
pt=$build/proftool
gen=$build/proftool-gen
mkdir -p "$work"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"

# median of 3 runs of "$@": prints "seconds maxrss_kb"
measure() {
	for i in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$work/.t" $pin "$@" >/dev/null 2>"$work/.err" || { cat "$work/.err" >&2; exit 1; }
		cat "$work/.t"
	done | sort -n | sed -n 2p
}

gen_once() { # desc dir
	[ -d "$2" ] || "$gen" "$1" -o "$2" >/dev/null
}

gen_once "$src/tests/gen/bench-1g.desc" "$work/hwts-1g"
gen_once "$src/tests/gen/bench-steptrace.desc" "$work/steptrace-100k"
gen_once "$src/bench/framework-big.desc" "$work/framework-200k"

printf '%-16s %-7s %12s %10s %10s %10s %12s\n' input stage bytes seconds MB/s rss_MB rss/input
for name in hwts-1g steptrace-100k framework-200k; do
	dir=$work/$name
	cat "$dir"/* >/dev/null 2>&1 || true
	bytes=$(du -sb "$dir" | cut -f1)
	case $name in
	hwts-1g) main=$(du -sb "$dir"/hwts.log.* | awk '{s+=$1} END {print s}') ;;
	steptrace-100k) main=$(du -sb "$dir"/training_trace.* | awk '{s+=$1} END {print s}') ;;
	*) main=$(du -sbc "$dir"/Framework.* | tail -1 | cut -f1) ;;
	esac
	set -- $(measure "$pt" info --format csv "$dir")
	printf '%-16s %-7s %12s %10s %10.0f %10.0f %12.3f\n' "$name" decode "$bytes" "$1" \
		"$(echo "$main / 1000000 / $1" | bc -l)" "$(echo "$2 / 1024" | bc -l)" "$(echo "$2 * 1024 / $bytes" | bc -l)"
	set -- $(measure "$pt" import "$dir" -o "$work/$name.ptm")
	printf '%-16s %-7s %12s %10s %10.0f %10.0f %12.3f\n' "$name" import "$bytes" "$1" \
		"$(echo "$main / 1000000 / $1" | bc -l)" "$(echo "$2 / 1024" | bc -l)" "$(echo "$2 * 1024 / $bytes" | bc -l)"
	printf '%-16s model   %12s bytes, %s events\n' "$name" "$(stat -c %s "$work/$name.ptm")" \
		"$("$pt" info --format csv "$work/$name.ptm" | awk -F, '$1=="events" {print $2}')"
done
echo "MB/s counts the main file kind (HWTS log, step trace, framework files); rss/input is peak RSS over all input bytes."
