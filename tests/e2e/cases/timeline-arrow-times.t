# proftool timeline packs the launch arrows' times while it writes them (a block of 256 arrows: the
# first call's time, then 4 bytes a time) and, streamed, the calls' starts that anchor the activities'
# steps (4 bytes a slot): a block whose times do not fit keeps them whole (proftool-timeline(1)
# MEMORY). A generated CUPTI dump of 3,000 launches (two event batches and more) with three
# ProfilerStep ranges, a kernel that starts 3 s after its launch and a 5 s pause between two
# launches: the streamed trace is the in-memory one with every selection, and the arrows of both
# blocks that do not fit keep their times.
cat > gen.py <<'PY'
out = ["header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids", "kinds default",
       "clock cupti=1000000000 real=1000000000", "process rank=0 exe=app comm=app", "threads 4242=app", "buffer",
       '  rec DEVICE id=0 name="NVIDIA H100 80GB HBM3" numMultiprocessors=132 globalMemorySize=85520809984 computeCapabilityMajor=9 computeCapabilityMinor=0',
       "  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7"]
n, t, steps = 3000, 1000000000, []
for i in range(n):
    if i % 1000 == 0:
        if steps:
            steps[-1][1] = t - 1
        steps.append([t, None])
    if i == 2100:
        t += 5000000000
    co = 100 + i
    out.append(f"  rec RUNTIME cbid=211 start={t} end={t + 1500} processId=4242 threadId=4242 correlationId={co}")
    ks = t + 2000 + (3000000000 if i == 1000 else 0)
    out.append(f'  rec CONCURRENT_KERNEL start={ks} end={ks + 4000} deviceId=0 contextId=1 streamId=7 correlationId={co} name="k{i % 5}" gridX=1 gridY=1 gridZ=1 blockX=32 blockY=1 blockZ=1 registersPerThread=16')
    t += 10000
steps[-1][1] = t + 3000000000
for k, (s, e) in enumerate(steps):
    out.append(f'  rec MARKER flags=2 id={k + 1} timestamp={s} objectKind=2 objectId=4242,4242 name="ProfilerStep#{k + 1}"')
    out.append(f"  rec MARKER flags=4 id={k + 1} timestamp={e} objectKind=2 objectId=4242,4242")
out += ["end-buffer", f"clock cupti={t + 3100000000} real={t + 3100000000} reason=2", "end"]
print("\n".join(out))
PY
run 'python3 gen.py > w.cdtxt && proftool-gen cupti w.cdtxt -o w.cdump && proftool import w.cdump -o w.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one
m=$1; shift
proftool timeline $m "$@" -o a.json > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b.json > b.txt 2>&1; rb=$?
sed -i "s#a.json#OUT#g" a.txt; sed -i "s#b.json#OUT#g" b.txt
cmp -s a.json b.json && cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $m $* (exit $ra, $(grep -o '"ph":"s"' a.json | wc -l) arrows)" || echo "DIFFERS: $m $*"
SH
run "for v in '' '--steps 2' '--steps 3' '--steps 2-3' '--time-window 1s:6s' '--no-flows'; do bash same.sh w.ptm \$v; done"
# the kernel 3 s after its launch (arrow 1001) and the launches before and after the pause (2100, 2101)
run "proftool timeline w.ptm -o t.json && grep -o '\"ph\":\"[sf]\",\"id\":\\(1001\\|2100\\|2101\\),[^}]*' t.json"
# the device's Step rows: the activities anchored at their launches' steps
run "proftool timeline w.ptm -o t.json && grep -o '\"name\":\"Step [0-9]*\",[^}]*}' t.json | sed 's/\"pid\".*\"args\"://'"
