#!/usr/bin/env bash
# CUPTI import throughput: generate a synthetic CUPTIDMP dump of SIZE (default
# 1G) with proftool-gen (a launch mix: cudaLaunchKernel + kernel, cudaMemcpyAsync
# + memcpy, an NVTX-free PyTorch-like stream), then time `proftool import`.
# usage: bench/bench-cupti.sh BUILD_DIR [SIZE]   (target: >= 500 MB/s on one core)
set -eu
B=${1:?usage: bench-cupti.sh BUILD_DIR [SIZE]}
SIZE=${2:-1G}
T=$(mktemp -d "${TMPDIR:-/tmp}/pt-bench-cupti.XXXXXX")
trap 'rm -rf "$T"' EXIT
cat >"$T/mix.cdtxt" <<'EOD'
header cupti=130001 pid=1000 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 comm=bench
buffer
  rec RUNTIME cbid=211 start=1000000100 end=1000000900 processId=1000 threadId=1000 correlationId=1
  rec CONCURRENT_KERNEL start=1000001000 end=1000003000 deviceId=0 contextId=1 streamId=7 correlationId=1 name="_Z10gemm_kernelILi128EEvPKfS1_Pfiii" gridX=128 gridY=4 gridZ=1 blockX=256 blockY=1 blockZ=1 registersPerThread=64
  rec RUNTIME cbid=211 start=1000001000 end=1000001500 processId=1000 threadId=1000 correlationId=2
  rec CONCURRENT_KERNEL start=1000003000 end=1000003500 deviceId=0 contextId=1 streamId=7 correlationId=2 name="relu_kernel" gridX=64 gridY=1 gridZ=1 blockX=128 blockY=1 blockZ=1 registersPerThread=16
  rec RUNTIME cbid=41 start=1000001600 end=1000001900 processId=1000 threadId=1000 correlationId=3
  rec MEMCPY copyKind=2 srcKind=3 dstKind=2 bytes=65536 start=1000003600 end=1000004000 deviceId=0 contextId=1 streamId=7 correlationId=3
end-buffer
end
EOD
# `end` is written after the scaled buffers: drop it from the description for --scale
sed -i '/^end$/d' "$T/mix.cdtxt"
"$B/proftool-gen" cupti "$T/mix.cdtxt" -o "$T/big.cdump" --scale "$SIZE"
bytes=$(stat -c %s "$T/big.cdump")
cat "$T/big.cdump" >/dev/null # warm the page cache: measure the importer, not the disk
/usr/bin/time -f '%e %U %S %M' -o "$T/t1" "$B/proftool" import "$T/big.cdump" -o /dev/null --no-compress 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
/usr/bin/time -f '%e %U %S %M' -o "$T/t2" "$B/proftool" import "$T/big.cdump" -o "$T/big.ptm" 2>/dev/null
# CPU seconds (user + sys) of the single-threaded import: wall time is printed too, but on a
# loaded machine only the CPU time says what one core achieves
awk -v b="$bytes" '
	NR == FNR { w1 = $1; c1 = $2 + $3; rss = $4; next }
	{ w2 = $1; c2 = $2 + $3 }
	END {
		printf "cupti import (model uncompressed): %.0f MB in %.2f s CPU = %.0f MB/s per core (wall %.2f s, peak RSS %.0f MB)\n",
			b / 1e6, c1, b / 1e6 / c1, w1, rss / 1024
		printf "cupti import + compressed .ptm:    %.2f s CPU = %.0f MB/s per core (wall %.2f s)\n", c2, b / 1e6 / c2, w2
	}' "$T/t1" "$T/t2"
