# Generated Kineto traces in three dialect versions (testdata/kineto, issue #27): the kernel,
# copy, set and API tables and the steps agree with what proftool-gen knows (NAME.expect),
# and the three dialects of one loop give the same records.
K='$SRC/testdata/kineto'
cat >check.py <<'PY'
import csv, sys
exp, kern, mem, api, steps = sys.argv[1:6]
want = {}
nsteps = 0
for line in open(exp):
    if line.startswith('steps '):
        nsteps = int(line.split()[1])
    if '\t' in line:
        key, rest = line.rstrip('\n').split('\t')
        f = rest.split()
        want[key] = (int(f[1]), int(f[3]))
got = {}
for r in csv.DictReader(open(kern)):
    got['kernel ' + r['name']] = (int(r['calls']), int(r['device_total_ns']))
for r in csv.DictReader(open(api)):
    got['api ' + r['name']] = (int(r['calls']), int(r['total_ns']))
# the memcpy view groups by kind: compare the sums of copies and of sets
cp = [(int(r['calls']), int(r['device_total_ns'])) for r in csv.DictReader(open(mem)) if r['group'] == 'device']
def tot(rows): return (sum(c for c, _ in rows), sum(t for _, t in rows))
got['copies'] = tot(cp)
want['copies'] = tot([v for k, v in want.items() if k.startswith(('memcpy ', 'memset '))])
for k in [k for k in want if k.startswith(('memcpy ', 'memset '))]:
    del want[k]
bad = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
for k in bad:
    print('MISMATCH %s: expected %s, proftool %s' % (k[:60], want.get(k), got.get(k)))
n = sum(1 for r in csv.DictReader(open(steps)) if r['step'].isdigit())
print('steps %d of %d' % (n, nsteps))
if not bad:
    print('agree: %d names, %d calls, %d ns' % (len(want), sum(v[0] for v in want.values()), sum(v[1] for v in want.values())))
PY
for s in train-current.pt.trace.json train-end-base.pt.trace.json.gz legacy.pt.trace.json; do
	e=${s%%.pt.trace.json*}.expect
	run "proftool summary $K/$s --view kernel --format csv >k.csv && proftool summary $K/$s --view memcpy --format csv >m.csv && proftool summary $K/$s --view api --format csv >a.csv && proftool steps $K/$s --format csv >s.csv && python3 check.py $K/$e k.csv m.csv a.csv s.csv"
done
# the same loop in two dialects (base before or after the events, plain or gzipped): one dump
run "proftool dump $K/train-current.pt.trace.json | grep -v '^source' >cur.dump && proftool dump $K/train-end-base.pt.trace.json.gz | grep -v '^source' | cmp - cur.dump && echo same"
run proftool steps $K/train-current.pt.trace.json
run proftool summary $K/train-current.pt.trace.json --view operator --time-unit us
run proftool info $K/train-current.pt.trace.json
run proftool dump $K/legacy.pt.trace.json
# the generator regenerates the committed samples byte for byte
run "proftool-gen kineto $K/legacy.ktdesc -o l.json --print-expect l.expect && cmp l.json $K/legacy.pt.trace.json && cmp l.expect $K/legacy.expect && echo identical"
