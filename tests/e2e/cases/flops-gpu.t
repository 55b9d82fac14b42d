# proftool flops on a generated CUPTI dump with PyTorch NVTX operator ranges (cupti.md §6.12):
# aten::linear around aten::addmm (only the inner range counts), an unknown conv2d, the H100 peak.
cat >g.cdtxt <<'CD'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 exe=app cmdline="app" comm=app
threads 4242=app
buffer
  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec MARKER flags=2 id=1 timestamp=1000000050 objectKind=2 objectId=4242,4242 name="ProfilerStep#1"
  rec MARKER flags=2 id=2 timestamp=1000000060 objectKind=2 objectId=4242,4242 name="aten::linear, seq = 1, sizes = [[64, 1024], [512, 1024], [512]]"
  rec MARKER flags=2 id=3 timestamp=1000000070 objectKind=2 objectId=4242,4242 name="aten::addmm, seq = 2, sizes = [[512], [64, 1024], [1024, 512], [], []]"
  rec RUNTIME cbid=211 start=1000000100 end=1000001800 processId=4242 threadId=4242 correlationId=7
  rec MARKER flags=4 id=3 timestamp=1000001900 objectKind=2 objectId=4242,4242
  rec MARKER flags=4 id=2 timestamp=1000001950 objectKind=2 objectId=4242,4242
  rec MARKER flags=2 id=4 timestamp=1000002000 objectKind=2 objectId=4242,4242 name="aten::conv2d, seq = 3, sizes = [[1, 3, 8, 8], [4, 3, 3, 3]]"
  rec RUNTIME cbid=211 start=1000002100 end=1000002200 processId=4242 threadId=4242 correlationId=8
  rec MARKER flags=4 id=4 timestamp=1000002300 objectKind=2 objectId=4242,4242
  rec CONCURRENT_KERNEL start=1000002500 end=1000004500 deviceId=0 contextId=1 streamId=7 correlationId=7 name="gemm" gridX=64 gridY=1 gridZ=1 blockX=256 blockY=1 blockZ=1 registersPerThread=32 staticSharedMemory=0 dynamicSharedMemory=0
  rec CONCURRENT_KERNEL start=1000004600 end=1000005600 deviceId=0 contextId=1 streamId=7 correlationId=8 name="conv" gridX=8 gridY=1 gridZ=1 blockX=128 blockY=1 blockZ=1 registersPerThread=16
  rec MARKER flags=4 id=1 timestamp=1000009000 objectKind=2 objectId=4242,4242
end-buffer
clock cupti=1000010000 real=1000010000 reason=2
end
CD
run proftool-gen cupti g.cdtxt -o g.cdump
run proftool flops g.cdump
run proftool flops g.cdump --format csv
run proftool flops g.cdump --by model --format json
run proftool flops g.cdump --by step --format jsonl
run proftool flops g.cdump --by type --format csv
run proftool flops g.cdump --by model --peak 100 --format csv
