# proftool hints on generated CUPTI dumps: hints.md §6 cases 3 and 17 (STEP_GAP, formats, exit status).
gapdesc() { # G2_US G3_US: three 10 ms steps; the device waits G2 before step 2 and G3 before step 3
	local g2=$1 g3=$2 B=1000000000
	local s2=$((B + 10010000)) s3=$((B + 20010000)) e3=$((B + 30000000))
	local k2=$((B + 10000000 + g2 * 1000)) k3=$((B + 20000000 + g3 * 1000))
	cat <<D
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=$B real=$B
process rank=0 exe=train cmdline="train" comm=train
threads 4242=train
buffer
  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec RUNTIME cbid=211 start=$B end=$((B + 20000)) processId=4242 threadId=4242 correlationId=1
  rec CONCURRENT_KERNEL start=$((B + 100000)) end=$((B + 10000000)) deviceId=0 contextId=1 streamId=7 correlationId=1 name="gemm_kernel"
  rec RUNTIME cbid=211 start=$((k2 - 60000)) end=$((k2 - 40000)) processId=4242 threadId=4242 correlationId=2
  rec CONCURRENT_KERNEL start=$k2 end=$((B + 20000000)) deviceId=0 contextId=1 streamId=7 correlationId=2 name="relu_kernel"
  rec RUNTIME cbid=211 start=$((k3 - 60000)) end=$((k3 - 40000)) processId=4242 threadId=4242 correlationId=3
  rec CONCURRENT_KERNEL start=$k3 end=$e3 deviceId=0 contextId=1 streamId=7 correlationId=3 name="add_kernel"
  range - "ProfilerStep#1" start=$B end=$s2 thread=4242 id=1
  range - "ProfilerStep#2" start=$s2 end=$s3 thread=4242 id=2
  range - "ProfilerStep#3" start=$s3 end=$e3 thread=4242 id=3
  range - "train_loop" start=$B end=$e3 thread=4242 id=4
end-buffer
D
}
gapdesc 400 900 >gap.cdtxt
gapdesc 100 100 >nogap.cdtxt
run proftool-gen cupti gap.cdtxt -o gap.cdump
run proftool-gen cupti nogap.cdtxt -o nogap.cdump
# the only hint is STEP_GAP (TOP_OPS turned off)
run proftool hints gap.cdump --hint hints.disable=TOP_OPS
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --format csv
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --format json
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --format jsonl
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --time-unit us
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --format csv --fail-on warn
run proftool hints gap.cdump --hint hints.disable=TOP_OPS --format csv --fail-on info
run proftool hints gap.cdump --hint hints.step_gap.ms=1 --hint hints.disable=TOP_OPS --format csv
run "proftool hints gap.cdump --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv"
run proftool hints gap.cdump --show-suppressed
# nothing fires
run proftool hints nogap.cdump --hint hints.disable=TOP_OPS --fail-on info
run proftool hints nogap.cdump --hint hints.disable=TOP_OPS --format csv --fail-on warn
run proftool hints nogap.cdump --hint hints.disable=TOP_OPS --format json
run proftool hints nogap.cdump --format csv
# the model file gives the same answer
run proftool import gap.cdump -o gap.ptm
run 'proftool hints gap.ptm --format csv | md5sum; proftool hints gap.cdump --format csv | md5sum'
# explain and usage errors
run proftool hints --explain STEP_GAP
run proftool hints --explain MD_PIPELINE --hint hints.md_pipeline.low=0.5
run proftool hints --explain NO_SUCH_RULE
run proftool hints gap.cdump --hint hints.no_such_key=1
run proftool hints gap.cdump --hint hints.comm.exposed_pct=101
run proftool hints gap.cdump --hint hints.disable=NOPE
run proftool hints gap.cdump --fail-on crit
run proftool hints
run proftool hints missing.cdump
