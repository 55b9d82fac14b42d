# MEMORY_NEAR_CAPACITY on Ascend (hints.md §3, §6 case 11; ascend.md §3.13): the largest graph peak of
# memory_usage_<d>.pb against its total_mem (16 GiB). The peak node Add-op2 gives the time of the peak.
job() { # SIZE_OF_TENSOR_1 TOTAL_MEM: static 1 GiB, tensor 1 over both nodes, tensor 2 (1 GiB) at node 1
	cat <<DESC
device 0
steps 1
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
op Default/net/Add-op2 type Add stream 5 task 2 dur 5ms
mem-file total $2
mem-graph 1 static 1073741824
mem-node MatMul-op1 out 1
mem-node Add-op2 out 2
mem-tensor 1 $1 start 0 end 1
mem-tensor 2 1073741824 start 1 end 1
DESC
}
G16=17179869184
job 13958643712 $G16 >near.desc  # peak 15 GiB = 93.75% -> warn
job 12884901888 $G16 >ok.desc    # peak 14 GiB = 87.5% -> none
job 13958643712 0 >nocap.desc    # total_mem 0: not evaluated
for d in near ok nocap; do run proftool-gen $d.desc -o $d; done
OFF='--hint hints.disable=TOP_OPS,STEP_GAP'
run proftool hints near $OFF --format csv
run proftool hints near $OFF
run proftool hints near $OFF --format json
run proftool hints near $OFF --format jsonl
# the peak and its node are those of proftool memory; peak_ns is the first start of Add-op2
run 'proftool memory near --format csv --table memory_graphs 2>/dev/null'
run 'proftool memory near --by time --format csv 2>/dev/null'
run 'proftool hints ok --format csv 2>/dev/null | grep -c MEMORY_NEAR_CAPACITY'
run 'proftool hints near --hint hints.memory.peak_pct=95 --format csv 2>/dev/null | grep -c MEMORY_NEAR_CAPACITY'
run 'proftool hints near --hint hints.memory.peak_pct=93.7 --format csv 2>/dev/null | grep -c MEMORY_NEAR_CAPACITY'
run 'proftool hints nocap --format csv --show-suppressed -o hs/ 2>/dev/null && cat hs/hints.csv hs/hints_suppressed.csv | grep MEMORY_NEAR_CAPACITY'
# the memory file alone (no step trace, no tasks): the rule still runs, without a time of the peak
run 'mkdir alone && cp near/memory_usage_0.pb alone/'
run "proftool hints alone --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv"
run proftool hints --explain MEMORY_NEAR_CAPACITY --hint hints.memory.peak_pct=80
