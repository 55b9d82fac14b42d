#!/bin/sh
# Steps benchmark (issue #5): a generated step trace of 100 000 steps (each
# with a job-id tag, fp, bp, end and two reduce pairs on two streams: 800 000
# 20-byte records, 16 MB), written by build/proftool-gen from the inline
# description below. Times `proftool steps` on the raw directory (import in
# memory included) and on the imported .ptm, CSV to /dev/null; one core when
# taskset exists, warm page cache, median of 3 runs; peak RSS from
# /usr/bin/time when present.
#   bench/bench-steps.sh [BUILD_DIR] [WORK_DIR] [STEPS]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
work=${2:-/tmp/proftool-bench}
steps=${3:-100000}
pt=$build/proftool
gen=$build/proftool-gen
mkdir -p "$work"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
desc=$work/steps.desc
cat >"$desc" <<'DESC'
# step trace only: fp, bp, end, job-id tag and two reduce pairs per step
device 0
era text backend vm
freq 100
seed 5
start-cycles 100000000000
steps 10 jobtag 10010 end-tag 65535 jobtag-at 2us fp-at 30us op-gap 1us tail 40us stream 5 task 1 order time
reduce stream 520 tags 3-4 offset 100us dur 12us spacing 16us
reduce stream 521 tags 5-6 offset 110us dur 12us spacing 16us
DESC
dir=$work/steps-$steps
model=$work/steps-$steps.ptm
[ -d "$dir" ] || "$gen" "$desc" --steps "$steps" -o "$dir" >/dev/null
[ -f "$model" ] || "$pt" import "$dir" -o "$model" 2>/dev/null
trace=$(ls "$dir"/training_trace.46.dev.* | grep -v '\.done$' | head -1)
echo "step trace: $trace ($(stat -c %s "$trace") bytes, $(( $(stat -c %s "$trace") / 20 )) records)"
rows=$("$pt" steps "$model" --format csv 2>/dev/null | wc -l)
echo "steps table: $rows lines (header, $steps steps, avg, outside)"
measure() {
	for i in 1 2 3; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%e %M" -o "$work/.t" $pin "$@" >/dev/null 2>"$work/.err" ||
				{ cat "$work/.err" >&2; exit 1; }
			cat "$work/.t"
		else
			s=$(date +%s.%N)
			$pin "$@" >/dev/null 2>"$work/.err" || { cat "$work/.err" >&2; exit 1; }
			e=$(date +%s.%N)
			echo "$(echo "$e - $s" | bc) -"
		fi
	done | sort -n | sed -n 2p
}
printf '%-40s %10s %10s\n' run seconds rss_KB
set -- $(measure "$pt" steps "$dir" --format csv)
printf '%-40s %10s %10s\n' "steps RAW_DIR --format csv" "$1" "$2"
set -- $(measure "$pt" steps "$model" --format csv)
printf '%-40s %10s %10s\n' "steps MODEL.ptm --format csv" "$1" "$2"
set -- $(measure "$pt" steps "$model")
printf '%-40s %10s %10s\n' "steps MODEL.ptm (text table)" "$1" "$2"
set -- $(measure "$pt" perf "$model")
printf '%-40s %10s %10s\n' "perf MODEL.ptm" "$1" "$2"
