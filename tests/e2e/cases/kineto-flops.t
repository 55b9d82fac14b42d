# FLOPs of a Kineto trace (issue #27): the Input Dims and Input type of cpu_op events give the
# shapes that PyTorch's NVTX text gives a CUPTI dump (cupti.md §6.12), so `proftool flops` counts
# them; the expected FLOPs are computed here from the description, independently of proftool.
cat >f.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
rank 0 world 2 backend nccl
device 0 name "NVIDIA A100-SXM4-40GB"
steps 2 period 2ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512 types=float,float,float
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,- types=float,float,float,Scalar,Scalar
kernel "ampere_sgemm_64x32" 30us 5us 60us 100us
op "aten::mm" 400us 100us dims=128x256,256x64 types=c10::Half,c10::Half
kernel "ampere_sgemm_128x64" 410us 5us 420us 50us
op "aten::add" 600us 50us dims=32x64,64,5 types=float,float,Scalar
kernel "add_kernel" 610us 3us 620us 10us
op "aten::cat" 700us 40us dims=L2x3+4x3,- types=TensorList,Scalar
kernel "cat_kernel" 710us 3us 720us 5us
op "aten::bmm" 800us 100us dims=8x64x32,8x32x16 types=float,float
kernel "bmm_kernel" 810us 3us 820us 40us
op "aten::mm" 1000us 20us dims=3x4,5x6 types=float,float
kernel "bad_mm_kernel" 1005us 3us 1010us 4us
op "aten::relu" 1050us 20us
kernel "relu_kernel" 1055us 3us 1060us 4us
DESC
cat >check.py <<'PY'
import csv, json, sys
# expected: from the description's dims= and types= (a Scalar/TensorList input has no shape)
want = {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f or f[0] != 'op':
        continue
    op = f[1].strip('"')
    opts = dict(x.split('=', 1) for x in f[4:])
    if 'dims' not in opts:
        want[(op, None)] = None
        continue
    types = opts.get('types', '').split(',')
    shapes = []
    for i, d in enumerate(opts['dims'].split(',')):
        if d == '-' or d.startswith('L') or (i < len(types) and types[i] in ('Scalar', 'TensorList')):
            shapes.append([])
        else:
            shapes.append([int(x) for x in d.split('x')])
    def bc(ss):  # broadcast of the tensor inputs
        out = []
        for s in ss:
            if not s:
                continue
            n = max(len(out), len(s))
            a, b = [1] * (n - len(out)) + out, [1] * (n - len(s)) + s
            out = [max(x, y) for x, y in zip(a, b)]
        p = 1
        for x in out:
            p *= x
        return p
    if op == 'aten::mm':
        (m, k), (k2, n) = shapes[0], shapes[1]
        fl = 2 * m * n * k if k == k2 else None
    elif op == 'aten::addmm':
        (m, k), (k2, n) = shapes[1], shapes[2]
        fl = 2 * m * n * k + m * n
    elif op == 'aten::bmm':
        (b, m, k), (b2, k2, n) = shapes[0], shapes[1]
        fl = 2 * b * m * n * k
    elif op == 'aten::add':
        fl = bc(shapes)
    elif op == 'aten::cat':
        fl = 0
    else:
        continue  # aten::linear: its FLOPs are its addmm's (inclusive)
    want[(op, json.dumps(shapes))] = fl
got = {}
for r in csv.DictReader(open(sys.argv[2])):
    op, _, sizes = r['op'].partition(', sizes = ')
    got[(op, json.dumps(json.loads(sizes)) if sizes else None)] = int(r['flops']) if r['flops'] else None
bad = [k for k in sorted(set(want) | set(got), key=str) if want.get(k, 'absent') != got.get(k, 'absent')]
for k in bad:
    print('MISMATCH', k, 'expected', want.get(k, 'absent'), 'proftool', got.get(k, 'absent'))
if not bad:
    print('agree: %d ops, %d FLOPs known, %d unknown' % (len(want), sum(v for v in want.values() if v), sum(v is None for v in want.values())))
PY
run "proftool-gen kineto f.ktdesc -o f.pt.trace.json && proftool flops f.pt.trace.json --format csv >f.csv && python3 check.py f.ktdesc f.csv"
run proftool flops f.pt.trace.json
run "proftool import f.pt.trace.json -o f.ptm && proftool dump f.ptm | grep '^event-arg' | head -4"
# malformed Input Dims and Input type: the shapes are not kept (a string, an object, a number in the
# list) or are kept and do not parse (a negative size): FLOPs unknown, never a crash
ev() { printf '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": %s, "dur": 1.0, "args": {%s}}' "$1" "$2"; }
{
	printf '{"schemaVersion": 1, "traceEvents": [\n'
	ev 1 '"Input Dims": [["a", 2], [2, 3]]'; printf ',\n'
	ev 3 '"Input Dims": [{"x": 1}, [2, 3]]'; printf ',\n'
	ev 5 '"Input Dims": [4, [2, 3]]'; printf ',\n'
	ev 7 '"Input Dims": "[[2, 2], [2, 3]]"'; printf ',\n'
	ev 9 '"Input Dims": [[-2, 2], [2, 3]], "Input type": "float"'; printf ',\n'
	ev 11 '"Input Dims": [[2, 2], [2, 3]], "Input type": [["float"], 7, null]'; printf ',\n'
	ev 13 '"Input Dims": [[[[2]]], [2, 3]], "Input type": []'
	printf '\n]}\n'
} >bad-dims.json
cat >cols.py <<'PY'
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r['op'], '|', r['calls'], '|', r['flops'] or '-', '|', r['source'])
PY
run "proftool flops bad-dims.json --format csv | python3 cols.py; proftool dump bad-dims.json | grep '^event-arg'"
