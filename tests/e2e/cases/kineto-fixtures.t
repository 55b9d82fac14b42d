# Real PyTorch profiler (Kineto) traces (issue #27): per-kernel counts and GPU totals of
# `summary --view kernel` equal the ones a separate reader computes from the trace text
# itself (exact ns from the decimal µs), and `steps` finds its ProfilerStep#N ranges.
if [ ! -d "$SHARED/fixtures/kineto" ]; then
	echo "skipped: $SHARED/fixtures/kineto is absent"
	exit 77
fi
F='$SHARED/fixtures/kineto'
cat >check.py <<'PY'
import csv, decimal, gzip, io, json, sys
trace, table, kind = sys.argv[1], sys.argv[2], sys.argv[3]
op = gzip.open if trace.endswith('.gz') else open
with op(trace, 'rt') as f:
    d = json.load(f, parse_float=decimal.Decimal)
if kind == 'steps':
    want = sorted(int(e['name'][13:]) for e in d['traceEvents']
                  if e.get('ph') == 'X' and str(e.get('name', '')).startswith('ProfilerStep#'))
    got = [int(r['step']) for r in csv.DictReader(open(table)) if r['step'].isdigit()]
    if not want:
        print('no ProfilerStep#N in the trace; proftool steps (iteration rule):', got)
    else:
        print('steps match:' if got == want else 'MISMATCH steps: trace %s, proftool' % want, got)
    sys.exit(0)
cats = {'kernel': ('kernel', 'Kernel'), 'memcpy': ('gpu_memcpy', 'Memcpy'), 'api': ('cuda_runtime', 'Runtime', 'cuda_driver')}[kind]
want = {}
for e in d['traceEvents']:
    if e.get('ph') == 'X' and e.get('cat') in cats:
        n, t = want.get(e['name'], (0, 0))
        want[e['name']] = (n + 1, t + int(decimal.Decimal(e['dur']) * 1000))
rows = list(csv.DictReader(io.StringIO(open(table).read())))
tot = 'device_total_ns' if kind != 'api' else 'total_ns'
got = {r['name']: (int(r['calls']), int(r[tot])) for r in rows}
if kind == 'memcpy':  # the memcpy view groups copies by kind; compare the totals only
    want = {'all': (sum(v[0] for v in want.values()), sum(v[1] for v in want.values()))}
    got = {'all': (sum(v[0] for r, v in got.items() if 'memcpy' in r), sum(v[1] for r, v in got.items() if 'memcpy' in r))}
if got == want:
    print('%s match: %d names, %d calls, %d ns' % (kind, len(want), sum(v[0] for v in want.values()), sum(v[1] for v in want.values())))
else:
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            print('MISMATCH %r: trace %s, proftool %s' % (k, want.get(k), got.get(k)))
PY
for t in critical_path_cuda_event_sync_event_sync_trace critical_path_simple_add_benchmark_result_493459_1694039959_trace \
	execution_trace_benchmark_simple_add_trace trace_compare_base_base; do
	run "proftool summary $F/$t.json.gz --view kernel --format csv >k.csv && python3 check.py $F/$t.json.gz k.csv kernel"
	run "proftool summary $F/$t.json.gz --view api --format csv >a.csv && python3 check.py $F/$t.json.gz a.csv api"
	run "proftool summary $F/$t.json.gz --view memcpy --format csv >m.csv && python3 check.py $F/$t.json.gz m.csv memcpy"
	run "proftool steps $F/$t.json.gz --format csv >s.csv && python3 check.py $F/$t.json.gz s.csv steps"
done
# the importer's facts, and a model written and read back gives the same kernel table
run "proftool info --table stats --format csv $F/critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz | sed -n '/^device_id,key,value/,\$p'"
run proftool steps $F/trace_compare_base_base.json.gz --format csv
run proftool import $F/trace_compare_base_base.json.gz -o base.ptm
run "proftool summary base.ptm --view kernel --format csv | cmp - k.csv && echo same"
run "proftool summary base.ptm --view operator --format csv | cut -d, -f1-5"
# the four traces as one directory: one model, a CPU and a GPU device per file
run "mkdir ranks && cp $F/*.json.gz ranks/ && proftool info --table devices ranks --format csv | sed -n '/^device_id,kind/,/^\$/p' | cut -d, -f1-3"
# beside another input: a CUPTI dump generated here
printf 'header cupti=130001 pid=7 flags=default-clock,rewritten,system-tids\nkinds default\nclock cupti=1000 real=1000\nbuffer\n  rec RUNTIME cbid=211 start=100 end=200 processId=7 threadId=7 correlationId=1\n  rec CONCURRENT_KERNEL start=300 end=400 deviceId=0 contextId=1 streamId=7 correlationId=1 name="k1"\nend-buffer\nend\n' >one.cdtxt
run "proftool-gen cupti one.cdtxt -o one.cdump && proftool import $F/trace_compare_base_base.json.gz one.cdump -o both.ptm && proftool summary both.ptm --view kernel --format csv | cut -d, -f1-4"
