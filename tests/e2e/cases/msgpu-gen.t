# MindSpore GPU profiler directories (testdata/msgpu, issue #28 point 2): the kernel view
# equals the per-kernel sums of activity_execute_timestamp_0.txt and `proftool steps`
# equals step_trace_profiling_0.txt, both as an independent Python reading of the files
# computes them (µs texts to ns by decimal arithmetic, rounded half up).
M='$SRC/testdata/msgpu'
cat >check.py <<'PY'
import csv, sys
from decimal import Decimal, ROUND_HALF_UP
d, kern, steps = sys.argv[1:4]
def ns(us):
    return int((Decimal(us) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
want = {}
for line in open(d + '/activity_execute_timestamp_0.txt'):
    if not line.strip():
        continue
    name, stream, start, dur = line.rstrip('\n').rsplit(';', 3)
    v = ns(dur)
    c, t, mx, mn = want.get(name, (0, 0, None, None))
    want[name] = (c + 1, t + v, v if mx is None or v > mx else mx, v if mn is None or v < mn else mn)
got = {}
for r in csv.DictReader(open(kern)):
    got[r['name']] = (int(r['calls']), int(r['device_total_ns']), int(r['device_max_ns']), int(r['device_min_ns']))
bad = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
for k in bad:
    print('KERNEL MISMATCH %s: file %s, proftool %s' % (k[:50], want.get(k), got.get(k)))
if not bad:
    print('kernels agree: %d names, %d calls, %d ns' % (len(want), sum(v[0] for v in want.values()),
                                                       sum(v[1] for v in want.values())))
# steps: graph mode (a line per point, pairs in 10 ns) or MindRT (a line per step, ns)
lines = [l.split() for l in open(d + '/step_trace_profiling_0.txt') if l.strip()]
exp = []
if ',' not in lines[0][0]:
    pts = [[[int(x) * 10 for x in p.split(',')] for p in l[1:]] for l in lines]
    for k in range(len(pts[0])):
        start = pts[0][0][0] if k == 0 else pts[2][k - 1][1]  # the end of the step before
        comm = [tuple(pts[j][k]) for j in range(3, len(pts))]
        exp.append((k + 1, start, pts[2][k][1], pts[0][k][0], pts[1][k][1], comm))
else:
    for k, l in enumerate(lines):
        t = [int(p.split(',')[1]) for p in l[:4]]
        comm = [tuple(int(x) for x in p.split(',')[1:3]) for p in l[4:]]
        exp.append((k + 1, t[0], t[3], t[1], t[2], comm))
rows = [r for r in csv.DictReader(open(steps)) if r['step'].isdigit()]
gotst = []
for r in rows:
    cs = sorted(c[:-len('_start_ns')] for c in r if c.startswith('stream_') and c.endswith('_start_ns'))
    comm = [(int(r[c + '_start_ns']), int(r[c + '_end_ns'])) for c in cs]
    gotst.append((int(r['step']), int(r['start_ns']), int(r['end_ns']), int(r['fp_ns']), int(r['bp_ns']), comm))
if gotst == exp:
    print('steps agree: %d steps, %d communication spans' % (len(exp), sum(len(e[5]) for e in exp)))
else:
    for a, b in zip(exp, gotst):
        if a != b:
            print('STEP MISMATCH file %s proftool %s' % (a, b))
    print('steps: file %d, proftool %d' % (len(exp), len(gotst)))
PY
for s in lenet lenet-mindrt; do
	run "proftool summary $M/$s --view kernel --format csv >k.csv && proftool steps $M/$s --format csv >s.csv && python3 check.py $M/$s k.csv s.csv"
done
run proftool info $M/lenet
run proftool steps $M/lenet --time-unit us
run proftool steps $M/lenet-mindrt --time-unit us
run proftool summary $M/lenet --view kernel --time-unit us
run proftool summary $M/lenet --view operator --time-unit us
run proftool dump $M/lenet-mindrt
# the model file round-trips: import, then the same kernel view from the .ptm
run "proftool import $M/lenet -o l.ptm && proftool summary l.ptm --view kernel --format csv | cmp - k.csv; echo \$?"
# the MindData files beside a GPU run attach to its GPU device: no NPU device appears
run "mkdir run && cp $M/lenet/* $SRC/testdata/minddata/pipeline/* run/ && proftool info run | sed -n '/^Devices/,/^\$/p' | cut -c1-40 && proftool dataset run --format csv | head -5"
run "proftool import --input-format msgpu $SRC/testdata/minddata/pipeline -o x.ptm; ls x.ptm"
# the generator regenerates the committed samples byte for byte
run "proftool-gen msgpu $M/lenet.msdesc g1 && diff -r g1 $M/lenet && proftool-gen msgpu $M/lenet-mindrt.msdesc g2 && diff -r g2 $M/lenet-mindrt && echo identical"
# two devices in one profiler directory (distributed runs write every rank's files there): a
# step-trace table row group per device, and --device keeps one
run "mkdir two && cp $M/lenet/* two/ && for f in $M/lenet-mindrt/*_0.*; do b=\${f##*/}; cp \$f two/\${b%_0.*}_1.\${b##*.}; done && proftool steps two --format csv | cut -d, -f1-6 && proftool info two --device 1 2>/dev/null | grep -c msgpu"
