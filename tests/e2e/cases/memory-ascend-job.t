# An Ascend job with op executions and a memory file: full names, start_ns and the timeline's Memory counter
# (ascend.md §3.13 "Time", chrome-trace.md §7).
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
run proftool-gen '$SRC/tests/gen/cases/memory-job.desc' -o job --steps 2
run proftool memory job --by time --format csv
run proftool memory job --by op --format csv
run proftool memory job --by op --format json
run 'proftool timeline job -o t.json && ./chrome-check t.json >/dev/null && grep -o "{\"ph\":\"C\"[^}]*}}" t.json'
# memory_usage in MindSpore's profiler output directory, read with --minddata (as proftool import does)
grep -v '^mem-' "$SRC/tests/gen/cases/memory-job.desc" >jobonly.txt
grep '^mem-' "$SRC/tests/gen/cases/memory-job.desc" >mem.txt
run 'proftool-gen jobonly.txt -o job2 --steps 2 >/dev/null && proftool-gen mem.txt -o md >/dev/null && ls md'
run proftool memory job2 --by op --format csv
run proftool memory job2 --minddata md --by op --format csv
run 'proftool memory job2 --minddata md --format csv 2>/dev/null | md5sum; proftool memory job --format csv 2>/dev/null | md5sum'
