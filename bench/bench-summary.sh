#!/bin/sh
# Summary benchmark (issue #6): a generated ~10-million-event Ascend model
# (tests/gen/bench-1g.desc scaled to a 1.28 GB HWTS log: 20 M records, 10 M
# paired executions), imported once to a .ptm; then `proftool summary` with
# the default views, --view all and --view kernel --format csv, model loading
# included. One core (taskset -c 0), warm page cache, median of 3 runs; peak
# RSS from /usr/bin/time. Also prints the model's in-memory event bytes
# (45 bytes per event: the columnar arrays) for the memory ratio.
#   bench/bench-summary.sh [BUILD_DIR] [WORK_DIR] [HWTS_BYTES]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
work=${2:-/tmp/proftool-bench}
size=${3:-1280M}
pt=$build/proftool
gen=$build/proftool-gen
mkdir -p "$work"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
measure() {
	for i in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$work/.t" $pin "$@" >/dev/null 2>"$work/.err" || { cat "$work/.err" >&2; exit 1; }
		cat "$work/.t"
	done | sort -n | sed -n 2p
}
dir=$work/summary-$size
model=$work/summary-$size.ptm
[ -d "$dir" ] || "$gen" "$src/tests/gen/bench-1g.desc" --hwts-bytes "$size" -o "$dir" >/dev/null
[ -f "$model" ] || "$pt" import "$dir" -o "$model" 2>/dev/null
events=$("$pt" info "$model" 2>/dev/null | awk '/events/ {for (i=1;i<=NF;i++) if ($i ~ /^[0-9]+$/) {print $i; exit}}')
events=${events:-0}
ptm=$(stat -c %s "$model")
mem=$((events * 45))
echo "model: $model ($ptm bytes on disk, $events events, ~$mem bytes of event columns in memory)"
printf '%-34s %10s %10s %14s\n' run seconds rss_MB rss/event_mem
for args in "" "--view all" "--view kernel --format csv" "info"; do
	case $args in
	info) set -- "$pt" info "$model" ;;
	*) set -- "$pt" summary "$model" $args ;;
	esac
	r=$(measure "$@")
	s=${r% *}
	kb=${r#* }
	printf '%-34s %10s %10.1f %14.3f\n' "${args:-(default views)}" "$s" "$(echo "$kb / 1024" | bc -l)" \
		"$(echo "$kb * 1024 / ($mem + 1)" | bc -l)"
done
