# Hostile inputs under a memory limit, and the importers hostile-inputs.t and
# hostile-truncated.t leave out (tests/fuzz/README.md): a tiny .ptm claiming
# a huge chunk (the reader's memory follows the bytes that arrive, not the
# claimed length), memory_usage files with gigantic length fields, AI Core
# data, memory files and binary-era framework files empty, random and cut
# inside their first record, and memory sizes and lifetimes near 2^64.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
cat >text.desc <<'DESC'
device 0
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
op Default/B-op2 type B stream 3 task 2 block 1 dur 5us
steps 2 stream 3 task 9
aicore Default/A-op1 pmu 1,2,3,4,5,6,7
mem-file total 4096
mem-graph 1 static 16
mem-node A-op1 out 1
mem-tensor 1 8 start 0 end 0
DESC
cat >bin.desc <<'DESC'
device 0
era binary
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us in 2:1:"32,64" out 3:1:"32"
op Default/VeryLongName-op2 type MatMul stream 3 task 2 dur 3us hashed
steps 2 stream 3 task 9
point 1 Default/A-op1
DESC
proftool-gen text.desc -o text >/dev/null
proftool-gen bin.desc -o bin >/dev/null
# imp DIR: import DIR into DIR.ptm; after a failure, DIR.ptm must not exist
imp() {
	rm -f "$1.ptm"
	proftool import "$1" -o "$1.ptm"
	local rc=$?
	[ $rc -ne 0 ] && [ -e "$1.ptm" ] && echo "partial output file left: $1.ptm"
	return $rc
}
. "$SRC/tests/e2e/cases/limited.sh"

# 1. .ptm files claiming a chunk of 256 MiB - 1 bytes under a 64 MiB limit
# (the reader used to allocate the claimed length, ~384 MiB, up front): a
# 25-byte raw file, the same compressed, a compressed file whose chunk
# inflates to 1 MiB and ends, and a real model whose first chunk length is
# replaced. Each is exit 1 naming the file and the body offset where it ends.
python3 - <<'PY'
import zlib
def varint(n):
    o = b''
    while True:
        x, n = n & 0x7f, n >> 7
        if not n:
            return o + bytes([x])
        o += bytes([x | 0x80])
raw = b'\x89PTM\r\n\x1a\n' + bytes([1, 0, 0, 0, 0, 0, 0, 0])
z = b'\x89PTM\r\n\x1a\n' + bytes([1, 0, 0, 0, 1, 0, 0, 0])
body = varint((256 << 20) - 1) + b'\x0a\x12abc'
open('tiny.ptm', 'wb').write(raw + body)
open('tiny-z.ptm', 'wb').write(z + zlib.compress(body))
open('inflate-1m.ptm', 'wb').write(z + zlib.compress(varint((256 << 20) - 1) + b'\0' * (1 << 20)))
PY
proftool import --no-compress text -o model.ptm 2>/dev/null
python3 - <<'PY'
b = open('model.ptm', 'rb').read()
i = 16
while b[i] & 0x80:
    i += 1
open('first-chunk.ptm', 'wb').write(b[:16] + b'\xff\xff\xff\x7f' + b[i + 1:])
PY
run 'wc -c tiny.ptm tiny-z.ptm inflate-1m.ptm'
for f in tiny tiny-z inflate-1m first-chunk; do
	run limited 65536 proftool info $f.ptm
done
run limited 65536 proftool summary tiny.ptm
# the limit is real: 100 MiB cannot be had under it
run '(ulimit -v 65536 && python3 -c "bytearray(100 << 20)" 2>&1 | tail -1)'

# 2. memory_usage files with gigantic length fields: the graph field of
# MemoryProto and a tensor inside a graph claim 2^62 bytes
python3 - <<'PY'
import os
def varint(n):
    o = b''
    while True:
        x, n = n & 0x7f, n >> 7
        if not n:
            return o + bytes([x])
        o += bytes([x | 0x80])
os.makedirs('big1', exist_ok=True)
os.makedirs('big2', exist_ok=True)
open('big1/memory_usage_0.pb', 'wb').write(b'\x0a' + varint(1 << 62) + b'\x08\x01')
graph = b'\x08\x01' + b'\x22' + varint(1 << 62) + b'\x08\x01'
open('big2/memory_usage_0.pb', 'wb').write(b'\x0a' + varint(len(graph)) + graph)
PY
run limited 65536 imp big1
run limited 65536 imp big2

# 3. empty files, random bytes (seeded, 3 KiB) and the first record cut at
# every offset, for AI Core data, the memory file and the binary-era
# framework files
rnd() { python3 -c "import random,sys; random.seed($1); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(3072)))"; }
i=0
for f in data/aicore.data.0.slice_0 memory_usage_0.pb; do
	i=$((i + 1))
	rm -rf e && cp -r text e && : >"e/$f"
	run imp e
	rm -rf r && cp -r text r && rnd $i >"r/$f"
	run imp r
done
for f in $(cd bin && ls data/Framework.*); do
	i=$((i + 1))
	rm -rf e && cp -r bin e && : >"e/$f"
	run imp e
	rm -rf r && cp -r bin r && rnd $i >"r/$f"
	run imp r
done
# cut FILE N: a job holding only info.json and the first n bytes of FILE, n = 1 .. N
cut() {
	local f=$1 n rc
	for n in $(seq 1 "$2"); do
		rm -rf j out.ptm && mkdir -p j/data
		head -c "$n" "text/$f" >"j/$f"
		cp text/info.json.0 j/
		proftool import j -o out.ptm >/dev/null 2>err
		rc=$?
		echo "$n: exit $rc: $(grep -v 'wrote' err | paste -sd'|' | sed 's/|/ | /g')"
		[ $rc -ne 0 ] && [ -e out.ptm ] && echo "$n: partial output file left"
	done
	return 0
}
run cut data/aicore.data.0.slice_0 127
run 'wc -c <text/memory_usage_0.pb'
run cut memory_usage_0.pb "$(($(wc -c <text/memory_usage_0.pb) - 1))"

# 4. memory sizes, static memory and lifetimes near 2^64: the counter
# samples of the curve stay defined (computed exactly, then clamped to int64)
cat >huge.desc <<'DESC'
device 0
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
op Default/B-op2 type B stream 3 task 2 block 1 dur 5us
steps 1 stream 3 task 9
mem-file total 0xffffffffffffffff
mem-graph 1 static 0x7fffffffffffffff
mem-node A-op1 out 1
mem-node B-op2 out 2
mem-tensor 1 0xffffffffffffffff start 0 end 1
mem-tensor 2 0x8000000000000000 start 1 end 0xffffffffffffffff
mem-tensor 3 0x7fffffffffffffff start 0xffffffffffffffff end 0xffffffffffffffff
mem-tensor 4 5 life LifeLongGraphEnd start 0xfffffffffffffffe
mem-graph 2 static -0x7fffffffffffffff
mem-node A-op1 out 1
mem-node B-op2 out 2
mem-tensor 1 0x8000000000000000 start 0 end 0
mem-tensor 2 0x8000000000000000 start 0 end 1
DESC
proftool-gen huge.desc -o huge >/dev/null
run proftool import huge -o huge.ptm
run 'proftool dump huge.ptm | grep -E "^(mem-|counter)"'

# 5. AI CPU and get_next times reversed, near 2^63 ns and beyond int64:
# reversed records lose their times or are skipped, times beyond the model's
# 2^62 ns lose their times (hostile-times.t has more), values beyond int64
# are unparsable; each is a counted warning naming the file and offset
rm -rf a && cp -r "$SRC/testdata/ascend/sample" a && rm -f a/*.done
python3 - <<'PY'
p = 'a/DATA_PREPROCESS.dev.AICPU.0.slice_0'
s = open(p, 'rb').read()
s = s.replace(b'Run tart:1000000031, Run end:1000000151', b'Run tart:1000000151, Run end:1000000031')
s = s.replace(b'Run start:1000000035, Run end:1000000075', b'Run start:9223372036854775, Run end:9223372036854775')
open(p, 'wb').write(s)
p = 'a/DATA_PREPROCESS.dev.AICPUMI.0.slice_0'
s = open(p, 'rb').read()
s = s.replace(b'Run start:1000000001, Run end:1000000016', b'Run start:1000000016, Run end:1000000001')
s = s.replace(b'Run start:1000001057, Run end:1000001072', b'Run start:9223372036854775807, Run end:18446744073709551615')
open(p, 'wb').write(s)
PY
run proftool import a -o a.ptm
run 'proftool dump a.ptm | grep -E "^stat device=0 (aicpu|aicpumi)\."'
run 'proftool summary a.ptm >/dev/null'

# 6. GPU memory sizes near 2^64 (CUPTI MEMORY2 and MEMORY_POOL records): the
# replay sums them exactly (a size beyond int64 counts as 2^63 - 1) and
# clamps what it reports to int64, in the importer's counter tracks, every
# memory view and the timeline's Memory counters (tests/fuzz/README.md,
# finding 7)
cat >gm.cdtxt <<'D'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 exe=app cmdline=app comm=app
cbid 2 20 cudaMalloc_v3020
cbid 2 22 cudaFree_v3020
buffer
  rec DEVICE id=0 name="NVIDIA H100" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec RUNTIME cbid=20 start=1000000008 end=1000000012 processId=4242 threadId=4242 correlationId=21
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=21 address=0x7f0000000000 bytes=18446744073709551615 timestamp=1000000010 processId=4242 deviceId=0 contextId=1 streamId=7
  rec RUNTIME cbid=20 start=1000000018 end=1000000021 processId=4242 threadId=4242 correlationId=22
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=22 address=0x7f0000001000 bytes=9223372036854775808 timestamp=1000000020 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY_POOL memoryPoolOperationType=1 memoryPoolType=1 processId=4242 deviceId=0 address=0x7f1000000000 size=18446744073709551615 timestamp=1000000040
  rec MEMORY2 memoryOperationType=1 memoryKind=3 address=0x7f1000000000 bytes=18446744073709551615 timestamp=1000000050 processId=4242 deviceId=0 contextId=1 streamId=8 memoryPoolType=1 poolAddress=0x7f1000000000 pool=18446744073709551615 utilizedSize=18446744073709551615
  rec MEMORY2 memoryOperationType=1 memoryKind=2 address=0x600000 bytes=18446744073709551615 timestamp=1000000056 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY2 memoryOperationType=1 memoryKind=2 address=0x700000 bytes=18446744073709551615 timestamp=1000000057 processId=4242 deviceId=0 contextId=1 streamId=7
  rec RUNTIME cbid=22 start=1000000059 end=1000000061 processId=4242 threadId=4242 correlationId=23
  rec MEMORY2 memoryOperationType=2 memoryKind=3 correlationId=23 address=0x7f0000000000 bytes=18446744073709551615 timestamp=1000000060 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY_POOL memoryPoolOperationType=3 memoryPoolType=1 processId=4242 deviceId=0 address=0x7f1000000000 size=0 timestamp=1000000070
end-buffer
clock cupti=1000010000 real=1000010000 reason=2
end
D
proftool-gen cupti gm.cdtxt -o gm.cdump >/dev/null
run proftool import gm.cdump -o gm.ptm
for by in op time pool; do
	run proftool memory gm.ptm --by $by --format csv
done
run 'proftool timeline gm.ptm -o gm.json && ./chrome-check gm.json >/dev/null && grep -o "{\"ph\":\"C\"[^}]*}}" gm.json'
