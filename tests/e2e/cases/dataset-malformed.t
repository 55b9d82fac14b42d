# Malformed MindData inputs: clear fatal errors or counted warnings, never a crash.
mk() { rm -rf "$1"; mkdir -p "$1"; proftool-gen "$1.txt" -o "$1"; }
cat >bad-json.txt <<'D'
md-raw pipeline "{\"sampling_interval\": 10, \"op_info\": ["
D
cat >no-interval.txt <<'D'
md-raw pipeline "{\"op_info\": [{\"op_id\": 0, \"op_type\": \"Batch\", \"num_workers\": 1}]}"
D
cat >empty-ops.txt <<'D'
md-raw pipeline "{\"sampling_interval\": 10, \"op_info\": []}"
D
cat >cycle.txt <<'D'
md-op 0 BatchOp workers 1 queue 10 children 1 sizes 1
md-op 1 MapOp workers 1 queue 10 children 2 sizes 1
md-op 2 MapOp workers 1 queue 10 children 0 sizes 1
D
cat >shared-child.txt <<'D'
md-op 0 BatchOp workers 1 queue 10 children 1 sizes 1
md-op 1 MapOp workers 1 queue 10 children 2 sizes 1
md-op 2 MapOp workers 1 queue 10 children 1 sizes 1
md-op 3 DeviceQueueOp workers 1 queue 10 children 0 sizes 1
D
cat >self-child.txt <<'D'
md-op 0 BatchOp workers 1 queue 10 children 0 sizes 1
D
cat >two-roots.txt <<'D'
md-op 0 BatchOp workers 1 queue 10 sizes 1
md-op 1 MapOp workers 1 queue 10 sizes 1
D
cat >unknown.txt <<'D'
md-op 0 BatchOp workers 1 children 1,7 no-metrics
md-op 1 MapOp workers 2 queue 0 children 2 sizes 1,2
md-op 2 TFReaderOp workers 2 queue 10 sizes ""
md-raw cpu "{\"sampling_interval\": 10, \"op_info\": [{\"op_id\": 9, \"metrics\": {\"user_utilization\": [1, \"x\"], \"sys_utilization\": [1]}}, {\"metrics\": {}}]}"
md-raw devq "1 64 1 3 10\n0 0 2 x 20\n0 9 2 1 20\n"
D
cat >missing.txt <<'D'
md-raw pipeline "{\"sampling_interval\": 10, \"op_info\": [{\"op_id\": 0, \"metrics\": null, \"children\": [1]}, {\"op_id\": 1, \"op_type\": \"MapOp\", \"num_workers\": -3, \"metrics\": {\"output_queue\": {\"size\": [1, -1, \"a\", 3]}}}, {\"op_type\": \"X\"}]}"
md-raw iter "1 64 1 3\n\nbad line\n1 64 2 0 5 6\r\n1 64 3 64 7"
D
cat >bad-cpu.txt <<'D'
md-op 0 BatchOp workers 1 queue 10 sizes 1
md-raw cpu "[1, 2"
D
for c in bad-json no-interval empty-ops cycle shared-child self-child two-roots unknown missing bad-cpu; do mk $c >/dev/null; done
run proftool dataset bad-json
run proftool dataset no-interval
run proftool dataset empty-ops
run proftool dataset cycle
run proftool dataset shared-child --format csv
run proftool dataset self-child
run proftool dataset two-roots
run proftool dataset unknown --format csv
run proftool dataset missing --format csv
run proftool dataset bad-cpu
run proftool import bad-json -o x.ptm
run 'ls x.ptm 2>&1'
run proftool dataset unknown --hint hints.md_pipeline.low=0.9
run proftool dataset unknown --hint hints.no_such_key=1
run proftool dataset unknown --hint hints.md_queue.empty_pct=120
run proftool dataset unknown --hint hints.md_queue.rules=2019
run proftool dataset unknown --hint novalue
run proftool import unknown --minddata /nonexistent -o y.ptm
