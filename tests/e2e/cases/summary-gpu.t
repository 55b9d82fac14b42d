# proftool summary: the gpu, api and memcpy views (summary.md §3.11, §3.12, §8.7) on a generated CUPTI dump.
run proftool-gen cupti "'$SRC/tests/gen/cases/summary-gpu.cdtxt'" -o gpu.cdump
run proftool summary gpu.cdump --view gpu,api --time-unit ns
run "rm -rf v; proftool summary gpu.cdump --view device,overview,memcpy,gpu,api --format csv -o v/ && tail -n +1 v/*.csv"
run proftool summary gpu.cdump --view memcpy --time-unit ns
run proftool summary gpu.cdump --view gpu,api --no-demangle --format jsonl
# JSON documents of the gpu and api views (DESIGN §1: one document, every view)
run proftool summary gpu.cdump --view gpu,api --format json
run proftool summary gpu.cdump --view gpu --format json --time-unit us
# cutoff 0 us: every pair with a positive queue delay is an outlier (2, 1, 0, 1, 1)
run proftool summary gpu.cdump --view gpu --hint hints.launch.queue_delay_us=0 --hint hints.launch.runtime_us=0.015 --time-unit ns
run proftool summary gpu.cdump --view api --sorted-by cpu-min --time-unit ns
run proftool summary gpu.cdump --view gpu --sorted-by calls --name 'CUDA' --top 2 --format csv
run "rm -rf v; proftool summary gpu.cdump --view kernel,gpu,api --time-window 0:300ns --format csv -o v/ && tail -n +1 v/*.csv"
run proftool summary gpu.cdump --view api --hint hints.launch.queue_delay_us=x
run proftool summary gpu.cdump --view api --hint queue=1
run 'proftool summary gpu.cdump --comm-pattern "("'
# malformed and truncated dumps
run 'head -c 40 gpu.cdump > short.cdump; proftool summary short.cdump'
run 'head -c 900 gpu.cdump > cut.cdump; rm -rf v; proftool summary cut.cdump --view api,gpu --format csv -o v/ && tail -n +1 v/*.csv'
# launch statistics of the call durations (summary.md §3.12): one kernel launched 5 times with calls of
# 10, 50, 20, 40, 30 ns: api_avg 30, api_p50 = rank ceil(2.5) = 3rd = 30, api_p90 = rank ceil(4.5) = 5th
# = 50, api_max 50; launch delays 5 each (p50 = p90 = max = 5); hints.launch.runtime_us=0.035: the
# 40 and 50 ns calls are api_outliers (2). A memset without a call has no launch pair: every launch
# statistic is empty (JSON null, text -).
cat >api.cdtxt <<'D'
header cupti=130001 pid=1 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1 real=1
process rank=0 exe=app cmdline=app comm=app
cbid runtime 9001 cudaLaunchKernel_v7000
buffer
  rec DEVICE id=0 name="Test GPU" numMultiprocessors=80 globalMemorySize=17179869184 computeCapabilityMajor=8 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  range UserRange "ProfilerStep#1" start=1000000 end=1001000 thread=1 id=1
  rec RUNTIME cbid=9001 start=1000100 end=1000110 processId=1 threadId=1 correlationId=1
  rec CONCURRENT_KERNEL start=1000105 end=1000150 deviceId=0 contextId=1 streamId=7 correlationId=1 name="k"
  rec RUNTIME cbid=9001 start=1000200 end=1000250 processId=1 threadId=1 correlationId=2
  rec CONCURRENT_KERNEL start=1000205 end=1000300 deviceId=0 contextId=1 streamId=7 correlationId=2 name="k"
  rec RUNTIME cbid=9001 start=1000400 end=1000420 processId=1 threadId=1 correlationId=3
  rec CONCURRENT_KERNEL start=1000405 end=1000450 deviceId=0 contextId=1 streamId=7 correlationId=3 name="k"
  rec RUNTIME cbid=9001 start=1000500 end=1000540 processId=1 threadId=1 correlationId=4
  rec CONCURRENT_KERNEL start=1000505 end=1000560 deviceId=0 contextId=1 streamId=7 correlationId=4 name="k"
  rec RUNTIME cbid=9001 start=1000600 end=1000630 processId=1 threadId=1 correlationId=5
  rec CONCURRENT_KERNEL start=1000605 end=1000650 deviceId=0 contextId=1 streamId=7 correlationId=5 name="k"
  rec MEMSET value=0 bytes=500 start=1000700 end=1000710 deviceId=0 contextId=1 streamId=7 correlationId=0 memoryKind=3
end-buffer
clock cupti=1002000 real=1002000 reason=2
end
D
run proftool-gen cupti api.cdtxt -o api.cdump
run proftool summary api.cdump --view gpu --format csv --hint hints.launch.runtime_us=0.035
run proftool summary api.cdump --view gpu --format json
run proftool summary api.cdump --view gpu --time-unit ns
