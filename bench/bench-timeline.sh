#!/bin/sh
# Timeline benchmark (issue #7): a large JOB3-like Ascend job made by
# build/proftool-gen from tests/gen/bench-1g.desc in scale mode (HWTS log of
# SIZE bytes, default 256M: about 2 M paired tasks, plus steps and reduce
# pairs), imported once into a .ptm. Times `proftool timeline MODEL -o FILE`
# (model load + pass + writer, uncompressed, default options) and
# `proftool info MODEL` (model load alone, as an estimate of the load share),
# on one core when taskset exists, warm page cache, best of 3 runs. Reports
# CPU time (user + sys: shared machines make wall time noisy) and events/s for
# the whole command and for the part after the load. Writing the file's bytes
# (kernel copy into the page cache) is part of sys time.
#   bench/bench-timeline.sh [BUILD_DIR] [WORK_DIR] [SIZE]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
work=${2:-/tmp/proftool-bench}
size=${3:-256M}
pt=$build/proftool
gen=$build/proftool-gen
mkdir -p "$work"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
dir=$work/timeline-$size
model=$work/timeline-$size.ptm
out=$work/timeline-$size.json
[ -d "$dir" ] || "$gen" "$src/tests/gen/bench-1g.desc" --hwts-bytes "$size" -o "$dir" >/dev/null
[ -f "$model" ] || "$pt" import "$dir" -o "$model" 2>/dev/null
best() { # best of 3 runs of "$@": CPU seconds (user + sys, robust on a loaded machine) and wall seconds
	b=""
	for i in 1 2 3; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%U %S %e" -o "$work/.t" $pin "$@" >/dev/null 2>"$work/.err" ||
				{ cat "$work/.err" >&2; exit 1; }
			read -r u sy wall <"$work/.t"
			t=$(echo "$u + $sy" | bc)
		else
			s=$(date +%s.%N)
			$pin "$@" >/dev/null 2>"$work/.err" || { cat "$work/.err" >&2; exit 1; }
			e=$(date +%s.%N)
			t=$(echo "$e - $s" | bc)
			wall=$t
		fi
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; bw=$wall; fi
	done
	echo "$b $bw"
}
set -- $(best "$pt" timeline "$model" -o "$out" --split-mb 0)
tl=$1 tlw=$2
set -- $(best "$pt" timeline "$model" -o /dev/null --split-mb 0)
tln=$1 tlnw=$2
set -- $(best "$pt" info "$model")
load=$1 loadw=$2
events=$(grep -c '^{"ph":"[^M]' "$out")
bytes=$(stat -c %s "$out")
echo "model: $model ($(stat -c %s "$model") bytes)"
echo "trace: $events events, $bytes bytes"
echo "timeline (load + write): cpu ${tl}s (wall ${tlw}s): $(echo "$events / $tl" | bc) events/s, $(echo "$bytes / $tl / 1048576" | bc) MiB/s"
echo "same to /dev/null:       cpu ${tln}s (wall ${tlnw}s): $(echo "$events / $tln" | bc) events/s"
echo "model load (info):       cpu ${load}s (wall ${loadw}s)"
w=$(echo "$tln - $load" | bc)
echo "pass + writer (/dev/null minus load): cpu ${w}s: $(echo "$events / $w" | bc) events/s"
rm -f "$out"
