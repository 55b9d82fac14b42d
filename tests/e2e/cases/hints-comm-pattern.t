# proftool hints --comm-pattern (hints.md §1, summary.md §2.5): the pattern replaces the built-in names of
# communication kernels and Operator ranges; a kernel launched inside a communication range is communication.
# One 100 us step: gemm_kernel [0,60) us, ring_exchange(float*) [60,80) launched at 50 us, copy_kernel
# [88,98) launched at 86 us from inside the Operator range OPNAME [85,95).
desc() { # OPNAME
	local B=1000000000
	cat <<D
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=$B real=$B
process rank=0 exe=train cmdline="train" comm=train
threads 4242=train
buffer
  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec RUNTIME cbid=211 start=$B end=$((B + 2000)) processId=4242 threadId=4242 correlationId=1
  rec CONCURRENT_KERNEL start=$B end=$((B + 60000)) deviceId=0 contextId=1 streamId=7 correlationId=1 name="gemm_kernel"
  rec RUNTIME cbid=211 start=$((B + 50000)) end=$((B + 52000)) processId=4242 threadId=4242 correlationId=2
  rec CONCURRENT_KERNEL start=$((B + 60000)) end=$((B + 80000)) deviceId=0 contextId=1 streamId=7 correlationId=2 name="_Z13ring_exchangePf"
  range Operator "$1" start=$((B + 85000)) end=$((B + 95000)) thread=4242 id=2
  rec RUNTIME cbid=211 start=$((B + 86000)) end=$((B + 87000)) processId=4242 threadId=4242 correlationId=3
  rec CONCURRENT_KERNEL start=$((B + 88000)) end=$((B + 98000)) deviceId=0 contextId=1 streamId=7 correlationId=3 name="copy_kernel"
  range - "ProfilerStep#1" start=$B end=$((B + 100000)) thread=4242 id=1
end-buffer
D
}
desc my_exchange >ex.cdtxt
desc all_reduce_bucket >ar.cdtxt
run proftool-gen cupti ex.cdtxt -o ex.cdump
run proftool-gen cupti ar.cdtxt -o ar.cdump
OFF='--hint hints.disable=TOP_OPS,DEVICE_IDLE,LOW_DEVICE_UTIL,UNEXPLAINED_TIME'
# built-in names: no kernel is communication, COMM_EXPOSED does not fire
run proftool hints ex.cdump $OFF --format csv
# the pattern matches the demangled kernel name and the Operator range: 30 us of 100 exposed -> warn
run "proftool hints ex.cdump $OFF --comm-pattern '^ring_exchange|my_exchange' --format csv"
run "proftool hints ex.cdump $OFF --comm-pattern '^ring_exchange|my_exchange'"
run "proftool hints ex.cdump $OFF --comm-pattern '^ring_exchange|my_exchange' --format json"
# the same breakdown as the summary's distributed view with the same pattern
run "proftool summary ex.cdump --view distributed --comm-pattern '^ring_exchange|my_exchange' --format csv"
# case-insensitive
run "proftool hints ex.cdump $OFF --comm-pattern 'RING_EXCHANGE|MY_EXCHANGE' --format csv | grep -c COMM_EXPOSED"
# --no-demangle: the pattern sees the raw name _Z13ring_exchangePf, only copy_kernel is communication (10%)
run "proftool hints ex.cdump $OFF --comm-pattern '^ring_exchange|my_exchange' --no-demangle --format csv"
run "proftool hints ex.cdump $OFF --comm-pattern '^ring_exchange|my_exchange' --no-demangle --hint hints.comm.exposed_pct=5 --format csv"
# built-in Operator names: all_reduce_bucket makes copy_kernel communication; a pattern replaces the list
run proftool hints ar.cdump $OFF --hint hints.comm.exposed_pct=5 --format csv
run "proftool hints ar.cdump $OFF --hint hints.comm.exposed_pct=5 --comm-pattern ring_exchange --format csv"
run proftool steps ar.cdump --format csv
# usage errors
run "proftool hints ex.cdump --comm-pattern '(unclosed'"
run proftool hints ex.cdump --comm-pattern
