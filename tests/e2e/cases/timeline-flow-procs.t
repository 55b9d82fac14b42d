# proftool timeline's launch arrows in a GPU model of two traced processes whose correlation ids are
# alike (two CUPTI ranks of the same loop, their clocks a little apart): each arrow joins a call and an
# activity of one process (proftool-timeline(1) "Launch arrows"), streamed and in memory (--in-memory)
# the same bytes. The ranks' dumps are about twenty event batches each, of different lengths.
cat > rank.sh <<'SH'
# rank.sh SRC R REAL SCALE: rank R's dump, pid 800+R, its CUPTI clock at REAL
src=$1; shift
sed -E -e "s/^(process )rank=-?[0-9]+ local_rank=-?[0-9]+ world_size=-?[0-9]+/\1rank=$1 local_rank=$1 world_size=2/" \
	-e "s/^(header .*)pid=664/\1pid=$((800 + $1))/" -e "s/real=1795780314720567446/real=$2/" "$src/bench/torch-loop.cdtxt" > r$1.cdtxt
proftool-gen cupti r$1.cdtxt -o r$1.cdump --scale $3 > /dev/null
SH
cat > xflows.py <<'PY'
# xflows.py TRACE.json: the arrows, and those whose two ends are in different processes (the process of
# a trace pid: its process_name's "Rank N")
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
proc = {e["pid"]: " ".join(e["args"]["name"].split()[:2]) for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
s = {e["id"]: proc[e["pid"]] for e in ev if e.get("ph") == "s"}
f = {e["id"]: proc[e["pid"]] for e in ev if e.get("ph") == "f"}
print("arrows %d, ends %d, across processes %d" % (len(s), len(f), sum(1 for k in s if k in f and f[k] != s[k])))
PY
run 'bash rank.sh "$SRC" 0 1795780314720567446 2M && bash rank.sh "$SRC" 1 1795780314721801013 3M && proftool import r0.cdump r1.cdump -o two.ptm 2>/dev/null && proftool info two.ptm | grep -E "^ +(80[0-9]|0) "'
# streamed and in memory: the same bytes, no arrow across the processes
run 'proftool timeline two.ptm -o a.json && proftool timeline two.ptm --in-memory -o b.json && cmp a.json b.json && echo same && python3 xflows.py a.json'
run 'proftool timeline two.ptm --time-window 5s:9s -o a.json && proftool timeline two.ptm --time-window 5s:9s --in-memory -o b.json && cmp a.json b.json && echo same && python3 xflows.py a.json'
# each rank alone: the same arrows as in the model of both
run 'proftool import r0.cdump -o r0.ptm 2>/dev/null && proftool import r1.cdump -o r1.ptm 2>/dev/null && proftool timeline r0.ptm -o 0.json && proftool timeline r1.ptm -o 1.json && python3 xflows.py 0.json && python3 xflows.py 1.json'
