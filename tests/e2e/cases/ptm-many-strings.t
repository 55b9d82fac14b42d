# A model with more strings than 16 string chunks hold (1,024 a chunk): a long Kineto run names
# every ProfilerStep#N apart. A read again of the file (events_only: dump's second read, the
# streamed steps) does not apply the strings, and counted each string chunk as one that adds
# nothing: "more than 16 empty chunks" after the 17th.
python3 -c 'import json
ev = []
for i in range(17000):
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 10, "tid": 10, "ts": i * 10.0, "dur": 9.0, "args": {}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "op_%d" % i, "pid": 10, "tid": 10, "ts": i * 10.0 + 1, "dur": 5.0, "args": {}})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open("many.json", "w"))'
run "proftool import many.json -o many.ptm && proftool info many.ptm | grep -E '^(events|strings) '"
run "proftool dump many.ptm | grep -c '\"ProfilerStep#'"
run "proftool steps many.ptm --format csv | tail -n 2"
