# Real dumps from libproftool-cupti.so on an H200 (CUDA 13.0, PyTorch 2.11.0+cu130; how they
# were captured: testdata/cupti/README.md), beside torch.profiler traces of the same loop.
D='$SRC/testdata/cupti'
K='$SRC/testdata/kineto'
# the vector-add program (cupti.md §8.5): 3 iterations of 2 copies in, a memset, two kernels on
# two streams joined by an event, a copy out; every kernel joins its launch, every copy its call
run "proftool info --table stats --format csv $D/real-13.0-h200-vecadd.cdump | sed -n '/^device_id,key,value/,\$p'"
run proftool summary $D/real-13.0-h200-vecadd.cdump --view gpu --format csv
run proftool export $D/real-13.0-h200-vecadd.cdump --table kernels --format csv
# NVTX through CUPTI: the range gets the GPU time of the work launched inside it
run "proftool summary $D/real-13.0-h200-vecadd-nvtx.cdump --view userdefined --format csv | cut -d, -f2-4,10"
# PROFTOOL_CUPTI_PROFILE_FROM_START=off with cudaProfilerStart/Stop around the middle iteration
run proftool summary $D/real-13.0-h200-vecadd-region.cdump --view kernel --format csv
run "proftool summary $D/real-13.0-h200-vecadd-region.cdump --view api --format csv | cut -d, -f2-3"
cat >mix.py <<'PY'
# Per-step kernel mix: proftool's kernel view of a collector dump of N steps against the kernel
# events of torch.profiler's trace (its ProfilerStep#K ranges), read here with json alone.
import csv, gzip, json, sys
trace, table, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
ev = json.load(gzip.open(trace, 'rt'))['traceEvents']
nstep = sum(1 for e in ev if e.get('cat') == 'user_annotation' and e['name'].startswith('ProfilerStep#'))
want = {}
for e in ev:
    if e.get('cat') == 'kernel':
        want[e['name']] = want.get(e['name'], 0) + 1
got = {r['name']: int(r['calls']) for r in csv.DictReader(open(table))}
same = [n for n in want if got.get(n, 0) * nstep == want[n] * steps]
once = sorted(n for n in got if n not in want and got[n] == 1)
other = sorted((set(want) | set(got)) - set(same) - set(once))
print('torch.profiler steps %d, kernels %d; dump steps %d, kernels %d' % (nstep, sum(want.values()), steps, sum(got.values())))
print('names with the same calls per step: %d of %d' % (len(same), len(want)))
print('kernels once, outside the steps (the inputs\' random fill): %d' % len(once))
for n in other:
    print('MISMATCH %s: trace %s, dump %s' % (n[:60], want.get(n), got.get(n)))
PY
# the training loop alone (3 warm-up + 20 steps), against torch.profiler's 3 active steps
run "proftool summary $D/real-13.0-h200-torch-loop.cdump --view kernel --format csv >k.csv && python3 mix.py $K/real-torch2.11-h200-loop.pt.trace.json.gz k.csv 23"
# both at once: the collector, subscribed first, keeps every step (3 + 3 + 6 profiled + 3) ...
run "proftool summary $D/real-13.0-h200-torch-beside-profiler.cdump --view kernel --format csv >k.csv && python3 mix.py $K/real-torch2.11-h200-loop.pt.trace.json.gz k.csv 15"
# the loop under emit_nvtx(record_shapes=True), NVTX through CUPTI (3 warm-up + 6 steps, each in a
# ProfilerStep#K range): the same kernel mix, the ranges are the steps, the op ranges group by name
run "proftool summary $D/real-13.0-h200-torch-nvtx.cdump --view kernel --format csv >k.csv && python3 mix.py $K/real-torch2.11-h200-loop.pt.trace.json.gz k.csv 9"
run "proftool steps $D/real-13.0-h200-torch-nvtx.cdump --format csv | cut -d, -f1-3,6,8"
run "proftool summary $D/real-13.0-h200-torch-nvtx.cdump --view operator --format csv --top 4 | cut -d, -f4,7,13"
# ... and torch.profiler's trace of that run holds CPU events only (Kineto's CUPTI set-up failed)
run "proftool info --table devices --format csv $K/real-torch2.11-h200-beside-collector.pt.trace.json.gz | sed -n '/^device_id,kind/,/^\$/p' | cut -d, -f1-3"
run "proftool summary $K/real-torch2.11-h200-beside-collector.pt.trace.json.gz --view kernel --format csv"
run "proftool summary $K/real-torch2.11-h200-beside-collector.pt.trace.json.gz --view operator --format csv --top 3 | cut -d, -f1-4"
# the real torch.profiler trace itself (issue #27): per-kernel calls and exact totals equal the
# trace's own sums, and its ProfilerSteps are the steps
cat >sums.py <<'PY'
import csv, decimal, gzip, json, sys
ev = json.load(gzip.open(sys.argv[1], 'rt'), parse_float=decimal.Decimal)['traceEvents']
want = {}
for e in ev:
    if e.get('ph') == 'X' and e.get('cat') == 'kernel':
        n, t = want.get(e['name'], (0, 0))
        want[e['name']] = (n + 1, t + int(decimal.Decimal(e['dur']) * 1000))
got = {r['name']: (int(r['calls']), int(r['device_total_ns'])) for r in csv.DictReader(open(sys.argv[2]))}
print('kernel sums match: %d names, %d calls, %d ns' % (len(want), sum(v[0] for v in want.values()),
      sum(v[1] for v in want.values())) if got == want else 'MISMATCH: %s' % sorted(set(got.items()) ^ set(want.items())))
PY
run "proftool summary $K/real-torch2.11-h200-loop.pt.trace.json.gz --view kernel --format csv --wide >k.csv && python3 sums.py $K/real-torch2.11-h200-loop.pt.trace.json.gz k.csv"
run proftool steps $K/real-torch2.11-h200-loop.pt.trace.json.gz --format csv
