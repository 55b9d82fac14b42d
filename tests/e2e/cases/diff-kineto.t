# proftool diff on a pair of real PyTorch profiler traces (two runs of a simple-add benchmark): per
# kernel name, the calls, totals, min and max of both sides and their deltas equal the ones a
# separate reader computes from the traces' own kernel events (exact ns from the decimal µs), and
# kernels present on one side only are listed as added or removed.
if [ ! -d "$SHARED/fixtures/kineto" ]; then
	echo "skipped: $SHARED/fixtures/kineto is absent"
	exit 77
fi
F='$SHARED/fixtures/kineto'
cat >check.py <<'PY'
import csv, decimal, gzip, json, sys
def kernels(path):
    with gzip.open(path, 'rt') as f:
        d = json.load(f, parse_float=decimal.Decimal)
    k = {}
    for e in d['traceEvents']:
        if e.get('ph') == 'X' and e.get('cat') in ('kernel', 'Kernel'):
            k.setdefault(e['name'], []).append(int(decimal.Decimal(e['dur']) * 1000))
    return k
base, test = kernels(sys.argv[1]), kernels(sys.argv[2])
rows = {r['name']: r for r in csv.DictReader(open(sys.argv[3]))}
bad = 0
for name in sorted(set(base) | set(test)):
    b, t = base.get(name), test.get(name)
    r = rows.pop(name, None)
    status = 'matched' if b and t else 'added' if t else 'removed'
    def side(v):
        return (str(len(v)), str(sum(v)), str(min(v)), str(max(v))) if v else ('', '', '', '')
    want = (status,) + side(b) + side(t)
    want += (str(sum(t) - sum(b)),) if b and t else (str(sum(t)),) if t else (str(-sum(b)),)
    got = None if r is None else (r['status'], r['base_calls'], r['base_total_ns'], r['base_min_ns'],
                                  r['base_max_ns'], r['test_calls'], r['test_total_ns'], r['test_min_ns'],
                                  r['test_max_ns'], r['delta_total_ns'])
    if got != want:
        bad += 1
        print('MISMATCH', name[:60], 'trace', want, 'diff', got)
print('%d kernel names (%d matched, %d added, %d removed), %d mismatched, %d rows not in the traces'
      % (len(set(base) | set(test)), len(set(base) & set(test)), len(set(test) - set(base)),
         len(set(base) - set(test)), bad, len(rows)))
PY
A="$F/execution_trace_benchmark_simple_add_trace.json.gz"
B="$F/critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz"
run "proftool diff $A $B --by kernel --format csv >d.csv && python3 check.py $A $B d.csv"
run "proftool diff $B $A --by kernel --format csv >r.csv && python3 check.py $B $A r.csv"
run proftool diff $A $B --by kernel --top 4
