# proftool hints prints C++ kernel names demangled (hints.md §1.1), as recorded with --no-demangle.
B=1000000000
cat >k.cdtxt <<D
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=$B real=$B
process rank=0 exe=train cmdline="train" comm=train
threads 4242=train
buffer
  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec RUNTIME cbid=211 start=$B end=$((B + 20000)) processId=4242 threadId=4242 correlationId=1
  rec CONCURRENT_KERNEL start=$((B + 30000)) end=$((B + 900000)) deviceId=0 contextId=1 streamId=7 correlationId=1 name="_Z10add_kernelPfS_i"
  range - "ProfilerStep#1" start=$B end=$((B + 1000000)) thread=4242 id=1
end-buffer
D
run proftool-gen cupti k.cdtxt -o k.cdump
run 'proftool hints k.cdump | grep -E "type |op "'
run 'proftool hints k.cdump --no-demangle | grep -E "type |op "'
run 'proftool hints k.cdump --format csv | grep -o "types_1_name=[^;]*"'
