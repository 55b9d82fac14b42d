# Kineto's device properties, per-SM kernel arguments and process names (cupti.md §7.1, §7.4,
# §7.5) in the kineto profile, grid/block and the host name in the viewer profile, against the
# values Kineto itself wrote for the same program (testdata/kineto/real-torch2.11-h200-loop, a
# torch 2.11 trace of the H200 loop that testdata/cupti/real-13.0-h200-torch-loop.cdump holds).
HTA="python3 \$SRC/tests/hta-check.py"
LOOP="\$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump"
KLOOP="\$SRC/testdata/kineto/real-torch2.11-h200-loop.pt.trace.json.gz"
# the per-SM columns of Kineto's own trace, as hta-check.py --sm prints them
cat >kineto-sm.py <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1], "rt"))
per = {}
for e in d["traceEvents"]:
    if e.get("cat") == "kernel":
        a = e["args"]
        k = (json.dumps(a["grid"]), json.dumps(a["block"]), a["registers per thread"], a["shared memory"],
             json.dumps(a["blocks per SM"]), float(a["warps per SM"]), a["est. achieved occupancy %"])
        per[k] = per.get(k, 0) + 1
for k in sorted(per, key=str):
    print("  sm,%s,%s,%d,%d,%s,%.6f,%d,%d" % (k + (per[k],)))
PY
cat >cmp.py <<'PY'
import sys
def load(p):
    out = {}
    for l in open(p):
        if l.startswith("  sm,"):
            f = l.strip().split(",")
            # launch: grid (3), block (3), registers, shared memory; per-SM: blocks, warps, occupancy
            out[tuple(f[1:9])] = tuple(f[9:12])
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
both = set(a) & set(b)
print("launch configurations: proftool %d, Kineto %d, in both %d, per-SM values differing %d"
      % (len(a), len(b), len(both), sum(a[k] != b[k] for k in both)))
PY
run "python3 kineto-sm.py $KLOOP >kineto.sm && wc -l <kineto.sm"
# a CUPTI dump: every key of deviceProperties that a DEVICE record gives, the process named as
# Kineto names it, the per-SM arguments of every kernel equal to Kineto's for the same launches
run "proftool timeline $LOOP --profile kineto -o k && sed -n 2p k/rank0.pt.trace.json"
run "grep '\"process_' k/rank0.pt.trace.json"
run "grep -m2 '\"cat\":\"kernel\"' k/rank0.pt.trace.json | grep -o '\"args\".*'"
run "$HTA k --backend ijson --sm >ours.sm && head -n 1 ours.sm && python3 cmp.py ours.sm kineto.sm"
# the same through a model file (Device fields 52-60) and its streamed viewer timeline
run "proftool import $LOOP -o loop.ptm && proftool dump loop.ptm | grep '^device'"
run "proftool timeline loop.ptm --profile kineto -o kp && cmp <(head -n -1 k/rank0.pt.trace.json) <(head -n -1 kp/rank0.pt.trace.json) && echo same but traceName"
# viewer: the host name as the host process's label, grid and block of each kernel (streamed and
# read whole alike)
run "proftool timeline loop.ptm -o v.json && grep '\"process_labels\"' v.json && grep -c '\"grid\":\[' v.json && grep -m1 '\"cat\":\"Kernel\"' v.json | grep -o '\"device\".*'"
run "proftool timeline loop.ptm --in-memory -o vm.json && cmp v.json vm.json && echo same"
# a Kineto trace: its deviceProperties come back with every key (sharedMemPerBlockOptin too), its
# per-SM arguments as Kineto wrote them
run "proftool timeline $KLOOP --profile kineto -o kk && sed -n 2p kk/rank0.pt.trace.json"
run "$HTA kk --backend ijson --sm >back.sm && python3 cmp.py back.sm kineto.sm"
# device properties the calculation cannot use: a compute capability it does not know, limits
# that are not numbers, negative or out of range: per-SM values where the SMs are known, no
# occupancy, no error
cat >odd.json <<'JSON'
{"schemaVersion": 1,
 "deviceProperties": [
  {"id": 0, "name": "future", "computeMajor": 13, "computeMinor": 0, "maxThreadsPerBlock": 1024,
   "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,
   "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 233472, "numSms": 100},
  {"id": 1, "name": "odd", "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": "1024",
   "maxThreadsPerMultiprocessor": -2048, "regsPerBlock": 1e40, "regsPerMultiprocessor": null, "warpSize": [32],
   "sharedMemPerBlock": {"x": 1}, "sharedMemPerMultiprocessor": 99999999999999999999, "numSms": -4}],
 "distributedInfo": {"rank": 0},
 "traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 1.000, "dur": 2.000, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k0", "pid": 0, "tid": 7, "ts": 5.000, "dur": 1.000, "args": {"device": 0, "stream": 7, "correlation": 1, "registers per thread": 32, "shared memory": 0, "grid": [200, 1, 1], "block": [128, 1, 1]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 3.000, "dur": 2.000, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 1, "tid": 7, "ts": 6.000, "dur": 1.000, "args": {"device": 1, "stream": 7, "correlation": 2, "registers per thread": 32, "shared memory": 0, "grid": [200, 1, 1], "block": [128, 1, 1]}}
 ]}
JSON
run "proftool timeline odd.json --profile kineto -o ko && sed -n 2p ko/rank0.pt.trace.json && grep '\"cat\":\"kernel\"' ko/rank0.pt.trace.json | grep -o '\"args\".*'"
