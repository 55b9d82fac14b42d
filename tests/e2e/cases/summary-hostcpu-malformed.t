# Malformed minddata_cpu_utilization files under `summary --view device`: a file that is not JSON or
# not an object is a fatal error naming the file; bad samples and series are skipped with counted
# warnings and the figures use what remains.
mk() { proftool-gen "$1.txt" -o "$1" >/dev/null; }
printf 'md-raw cpu "{\\"sampling_interval\\": 10, \\"time_stamp\\": [1, 2"\n' >truncated.txt
printf 'md-raw cpu "[1, 2, 3]"\n' >array.txt
printf 'md-raw cpu ""\n' >empty.txt
# user "x" and null are skipped: user mean (10 + 30) / 2 = 20 over 2 samples; samples = 3 (idle has 3)
# sys is not a list (ignored, warned); process_info is absent: no CPU(Process) row;
# CPU(System) = 100 - (50 + 60 + 70) / 3 - 0 (no io series) = 40.00
cat >bad-samples.txt <<'D'
md-raw cpu "{\"sampling_interval\": 10, \"time_stamp\": [1, 2, 3], \"device_info\": {\"user_utilization\": [10, \"x\", 30, null], \"sys_utilization\": 5, \"idle_utilization\": [50, 60, 70], \"context_switch_count\": [1.5, 1.5, 1]}}"
D
# neither time_stamp nor sampling_interval: samples at time 0 (warned), not placed: only `all`;
# CPU(Process) = (100 + 300) / 2 + 10 = 210.00, CPU(System) = 100 - (20 + 40) / 2 = 70.00
cat >no-time.txt <<'D'
md-raw cpu "{\"device_info\": {\"idle_utilization\": [20, 40]}, \"process_info\": {\"user_utilization\": [100, 300], \"sys_utilization\": [10]}}"
D
# op_info alone: no host series, so no CPU rows and no Host CPU table
cat >ops-only.txt <<'D'
md-raw cpu "{\"sampling_interval\": 10, \"op_info\": [{\"op_id\": 1, \"metrics\": {\"user_utilization\": [1], \"sys_utilization\": [2]}}]}"
D
for c in truncated array empty bad-samples no-time ops-only; do mk $c; done
run proftool summary truncated --view device
run proftool summary array --view device --format csv
run proftool summary empty --view device --format json
run proftool summary bad-samples --view device
run proftool summary bad-samples --view device --format csv
run proftool summary bad-samples --view device --format json
run proftool summary no-time --view device --format csv
run proftool summary ops-only --view device --format csv
run proftool summary ops-only --view device
run proftool import truncated -o t.ptm
run 'ls t.ptm 2>&1'
