# proftool timeline --profile kineto over a GPU model of two Kineto ranks with launch links, operators and
# an allreduce range, imported together, reads it as a stream (proftool-timeline(1) MEMORY): the launch
# join keyed by rank with dense keys (each rank's ids after the other's), the arrows ordered and packed
# once and each rank's file taking its own, the External ids packed as the first read's chunks of them come
# and mapped in a byte an id (2 bytes, or whole, where a block of 64 ids does not fit: the ids here are
# spread so that all three occur). The same rank files as --in-memory with options, on ranks of several
# event batches and chunks of external correlations; the External ids the files write are those of the
# input traces, event for event. A truncated and a corrupt model fail as read whole.
cat > r0.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 4242
rank 0 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 3 period 2ms
op "aten::linear" 10us 300us
op "aten::addmm" 20us 200us
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7 grid=8,4,1 block=256,1,1 regs=128 smem=12288
memcpy HtoD Pinned Device 1048576 250us 4us 260us 80.333us stream=7
op "autograd::engine::evaluate_function: AddmmBackward0" 500us 600us tid=4250
kernel "ampere_sgemm_128x64_nn" 520us 4.75us 560us 240.5us stream=20 grid=8,4,1 block=256,1,1 regs=128 smem=12288 tid=4250
memset Device 4096 700us 2us 810us 1.25us stream=20 tid=4250
sync "Stream Sync" 1200us 300.5us stream=7
ann "Optimizer.step#SGD.step" 1500us 100us
kernel "void at::native::multi_tensor_apply_kernel<at::native::TensorListMetadata<2>>" 1510us 6us 1530us 30.999us stream=7 grid=4,1,1 block=512,1,1 regs=32
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30 grid=2,1,1 block=640,1,1 regs=96
DESC
sed 's/^pid 4242/pid 4243/; s/rank 0 world/rank 1 world/; s/^thread 4242/thread 4243/' r0.ktdesc > r1.ktdesc
# External id n becomes n * 1000, plus 10^12 in two of each three runs of 40 ids (in both ranks alike)
cat > spread.py <<'PY'
import re, sys
f = lambda m: '"External id": %d' % (int(m.group(1)) * 1000 + (int(m.group(1)) // 40 % 3) * 10**12)
with open(sys.argv[1]) as i, open(sys.argv[2], "w") as o:
    for line in i:
        o.write(re.sub(r'"External id": (\d+)', f, line))
PY
mkdir -p in
run 'for r in 0 1; do proftool-gen kineto r$r.ktdesc -o k$r.json --scale 3M >/dev/null && python3 spread.py k$r.json in/rank$r.pt.trace.json || exit 1; done; proftool import in/rank0.pt.trace.json in/rank1.pt.trace.json -o two.ptm 2>/dev/null && proftool import in/rank0.pt.trace.json -o one.ptm 2>/dev/null && proftool dump two.ptm | awk "{print \$1}" | sort | uniq -c | sort -rn | grep -w "event\|ext-corr\|gpu-link"'
cp "$SRC/tests/e2e/cases/timeline-kineto-same.sh" same.sh # (the streamed and in-memory files compared)
export COUNT='"ph":"s"' WHAT='arrows'
run "for v in '' '--steps 2-3' '--time-window 0.1s:0.2s' '--no-flows' '--extra-tracks'; do bash same.sh two.ptm \$v; bash same.sh one.ptm \$v; done"
# the External ids of the calls, kernels, copies and sets: those of the input traces, rank for rank
cat > ids.py <<'PY'
import json, sys
def ids(path):
    out = {}
    for e in json.load(open(path))["traceEvents"]:
        x = e.get("args", {}).get("External id")
        if x is not None and e.get("cat") in ("kernel", "cuda_runtime", "gpu_memcpy", "gpu_memset"):
            out.setdefault(e["cat"], []).append((e["ts"], x))
    return {k: sorted(v) for k, v in out.items()}
a, b = ids(sys.argv[1]), ids(sys.argv[2])
wide = sum(1 for v in a.values() for t, x in v if x >= 10**12)
print("%s: %s; %d of 10^12 or more: %s" % (sys.argv[2], ", ".join("%s %d" % (k, len(v)) for k, v in sorted(b.items())),
      wide, "the input's" if a.keys() == b.keys() and all([x for t, x in a[k]] == [x for t, x in b[k]] for k in a) else "DIFFER"))
PY
run 'proftool timeline two.ptm --profile kineto -o k && for r in 0 1; do python3 ids.py in/rank$r.pt.trace.json k/rank$r.pt.trace.json; done'
# read as a stream: three reads, then each rank's writing read, against once loaded whole
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '[a-z0-9]*.ptm': 100%"; }
run "for c in 'two.ptm --profile kineto -o k1' 'two.ptm --profile kineto --in-memory -o k2'; do echo \"\$(term timeline \$c) reads: \$c\"; done"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(( $(stat -c %s two.ptm) * 2 / 3 )) two.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "import sys; d = bytearray(open(\"two.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
