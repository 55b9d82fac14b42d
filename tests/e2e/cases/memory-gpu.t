# proftool memory on a generated CUPTI dump with MEMORY2 / MEMORY_POOL records (cupti.md §6.11), every format.
# Known answers: device peak 1050 B at t=1000000050 (step 2), outstanding 0x7f1000000000 (1000 B,
# cudaMallocAsync) and 0x7f0000001000 (50 B, cudaMalloc under aten::empty); one unmatched release;
# pool created 2 MiB, grown to 4 MiB, trimmed to 2 MiB; the timeline counters of chrome-trace.md §13.11.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
cat >g.cdtxt <<'D'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 exe=app cmdline=app comm=app
cbid 2 20 cudaMalloc_v3020
cbid 2 22 cudaFree_v3020
cbid 2 389 cudaMallocAsync_v11020
buffer
  rec DEVICE id=0 name="NVIDIA H100" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec MARKER flags=2 id=1 timestamp=1000000001 objectKind=2 objectId=4242,4242 name="ProfilerStep#1"
  rec MARKER flags=4 id=1 timestamp=1000000025 objectKind=2 objectId=4242,4242
  rec MARKER flags=2 id=2 timestamp=1000000025 objectKind=2 objectId=4242,4242 name="ProfilerStep#2"
  rec MARKER flags=4 id=2 timestamp=1000000100 objectKind=2 objectId=4242,4242
  range Operator "aten::empty" start=1000000005 end=1000000022 thread=4242 id=3
  rec RUNTIME cbid=20 start=1000000008 end=1000000012 processId=4242 threadId=4242 correlationId=21
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=21 address=0x7f0000000000 bytes=100 timestamp=1000000010 processId=4242 deviceId=0 contextId=1 streamId=7
  rec RUNTIME cbid=20 start=1000000018 end=1000000021 processId=4242 threadId=4242 correlationId=22
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=22 address=0x7f0000001000 bytes=50 timestamp=1000000020 processId=4242 deviceId=0 contextId=1 streamId=7
  rec RUNTIME cbid=22 start=1000000029 end=1000000031 processId=4242 threadId=4242 correlationId=23
  rec MEMORY2 memoryOperationType=2 memoryKind=3 correlationId=23 address=0x7f0000000000 bytes=100 timestamp=1000000030 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY_POOL memoryPoolOperationType=1 memoryPoolType=1 processId=4242 deviceId=0 address=0x7f1000000000 size=2097152 timestamp=1000000040
  rec RUNTIME cbid=389 start=1000000049 end=1000000052 processId=4242 threadId=4243 correlationId=24
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=24 address=0x7f1000000000 bytes=1000 timestamp=1000000050 processId=4242 deviceId=0 contextId=1 streamId=8 memoryPoolType=1 poolAddress=0x7f1000000000 pool=4194304 utilizedSize=1000
  rec MEMORY2 memoryOperationType=2 memoryKind=3 address=0x7f00000ff000 bytes=8 timestamp=1000000055 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY2 memoryOperationType=1 memoryKind=2 address=0x600000 bytes=4096 timestamp=1000000056 processId=4242 deviceId=0 contextId=1 streamId=7
  rec MEMORY_POOL memoryPoolOperationType=3 memoryPoolType=1 processId=4242 deviceId=0 address=0x7f1000000000 size=2097152 minBytesToKeep=1048576 timestamp=1000000060 utilizedSize=1000
  rec MEMORY2 memoryOperationType=1 memoryKind=3 correlationId=25 address=0x7f0000002000 bytes=0 timestamp=0 processId=4242 deviceId=0
end-buffer
clock cupti=1000010000 real=1000010000 reason=2
end
D
run proftool-gen cupti g.cdtxt -o g.cdump
run proftool memory g.cdump
run proftool memory g.cdump --format csv
run proftool memory g.cdump --format json
run proftool memory g.cdump --format jsonl
run proftool memory g.cdump --by time --format csv
run proftool memory g.cdump --by time --format csv --time-unit us
run proftool memory g.cdump --by op --format csv
run proftool memory g.cdump --device 1
run proftool import g.cdump -o g.ptm
run 'proftool dump g.ptm | grep -E "^gpu-"'
run 'proftool memory g.ptm --format csv | md5sum; proftool memory g.cdump --format csv | md5sum'
run 'proftool timeline g.ptm -o t.json && ./chrome-check t.json >/dev/null && grep -o "{\"ph\":\"C\"[^}]*}}" t.json'
