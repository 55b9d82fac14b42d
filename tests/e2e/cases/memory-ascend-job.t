# An Ascend job with op executions and a memory file: full names, start_ns and the timeline's Memory counter
# (ascend.md §3.13 "Time", chrome-trace.md §7).
cat >j.txt <<'D'
op Default/net/Conv2D-op1 type Conv2D task 1 dur 10us
op Default/net/ReLU-op2 type ReLU task 2 dur 5us
op Default/net/Add-op3 type Add task 3 dur 5us
mem-file total 1000000
mem-graph 1 static 100
mem-node Conv2D-op1 out 1
mem-node ReLU-op2 out 3
mem-node Add-op3 out 4
mem-tensor 1 64 start 0 end 1
mem-tensor 3 128 start 1 end 2
mem-tensor 4 16 start 2 end 2
D
run proftool-gen j.txt -o job --steps 2
run proftool memory job --by time --format csv
run proftool memory job --by op --format csv
run proftool memory job --by op --format json
run 'proftool timeline job -o t.json && grep -o "{\"ph\":\"C\"[^}]*}}" t.json'
# memory_usage in MindSpore's profiler output directory, read with --minddata (as proftool import does)
grep -v '^mem-' j.txt >jobonly.txt
grep '^mem-' j.txt >mem.txt
run 'proftool-gen jobonly.txt -o job2 --steps 2 >/dev/null && proftool-gen mem.txt -o md >/dev/null && ls md'
run proftool memory job2 --by op --format csv
run proftool memory job2 --minddata md --by op --format csv
run 'proftool memory job2 --minddata md --format csv 2>/dev/null | md5sum; proftool memory job --format csv 2>/dev/null | md5sum'
