# --step-pattern in summary and diff matches the whole range name, as in steps, timeline and memory
# (DESIGN §3 filters; the option's help). Ranges on one thread: "Step#1" [1000000, 1001000) with kernel
# k1, "Step#2" [1001000, 1002000) with k2, "warmupStep#3" [1002000, 1003000) with k3. The pattern
# 'Step#[0-9]+' makes Step#1 and Step#2 steps; warmupStep#3 only contains a match, so it is no step and
# --steps 3 selects nothing (k3 is in no row), while --steps 2 keeps k2.
cat >sp.cdtxt <<'D'
header cupti=130001 pid=1 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1 real=1
process rank=0 exe=app cmdline=app comm=app
cbid runtime 9001 cudaLaunchKernel_v7000
buffer
  rec DEVICE id=0 name="Test GPU" numMultiprocessors=80 globalMemorySize=17179869184 computeCapabilityMajor=8 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  range UserRange "Step#1" start=1000000 end=1001000 thread=1 id=1
  rec RUNTIME cbid=9001 start=1000100 end=1000110 processId=1 threadId=1 correlationId=1
  rec CONCURRENT_KERNEL start=1000105 end=1000150 deviceId=0 contextId=1 streamId=7 correlationId=1 name="k1"
  range UserRange "Step#2" start=1001000 end=1002000 thread=1 id=2
  rec RUNTIME cbid=9001 start=1001100 end=1001110 processId=1 threadId=1 correlationId=2
  rec CONCURRENT_KERNEL start=1001105 end=1001160 deviceId=0 contextId=1 streamId=7 correlationId=2 name="k2"
  range UserRange "warmupStep#3" start=1002000 end=1003000 thread=1 id=3
  rec RUNTIME cbid=9001 start=1002100 end=1002110 processId=1 threadId=1 correlationId=3
  rec CONCURRENT_KERNEL start=1002105 end=1002170 deviceId=0 contextId=1 streamId=7 correlationId=3 name="k3"
end-buffer
clock cupti=1003000 real=1003000 reason=2
end
D
run proftool-gen cupti sp.cdtxt -o sp.cdump
# steps: the reference, two steps
run proftool steps sp.cdump --step-pattern "'Step#[0-9]+'" --format csv
run proftool summary sp.cdump --view kernel --step-pattern "'Step#[0-9]+'" --steps 3 --format csv
run proftool summary sp.cdump --view kernel --step-pattern "'Step#[0-9]+'" --steps 2 --format csv
run proftool summary sp.cdump --view overview --step-pattern "'Step#[0-9]+'" --format csv
# the same through an imported model (the streamed summary)
run "proftool import sp.cdump -o sp.ptm && proftool summary sp.ptm --view kernel --step-pattern 'Step#[0-9]+' --steps 3 --format csv"
# an anchored pattern that names the warm-up range makes it step 3
run proftool summary sp.cdump --view kernel --step-pattern "'(warmup)?Step#[0-9]+'" --steps 3 --format csv
run proftool diff sp.cdump sp.cdump --by kernel --step-pattern "'Step#[0-9]+'" --steps 3 --format csv
run proftool diff sp.cdump sp.cdump --by kernel --step-pattern "'Step#[0-9]+'" --steps 2 --format csv
# a malformed pattern: a usage error naming the option
run proftool summary sp.cdump --step-pattern "'Step#('"
run proftool diff sp.cdump sp.cdump --step-pattern "'('"
