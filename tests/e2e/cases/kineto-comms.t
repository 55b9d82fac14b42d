# NCCL collectives of a Kineto trace (issue #27): distributedInfo's backend and the collective
# arguments of record_param_comms and of the NCCL kernels are kept in the model; `info` lists them
# per device, and the host calls are Communication ranges in the summary, as for CUPTI's NCCL ranges.
cat >c.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
rank 1 world 2 backend nccl
device 0 name "NVIDIA A100-SXM4-40GB"
steps 3 period 2ms
op "aten::mm" 10us 100us dims=128x256,256x64 types=float,float
kernel "ampere_sgemm_128x64" 20us 5us 30us 50us
op "record_param_comms" 200us 50us comm=allreduce:Float:1048576:1048576:2:0
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)" 210us 5us 220us 400us stream=20 comm=allreduce:Float:1048576:1048576:2:0
op "record_param_comms" 700us 30us comm=allgather:BFloat16:4096:8192:2:0
kernel "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)" 705us 5us 720us 100us stream=20 comm=allgather:BFloat16:4096:8192:2:0
DESC
run "proftool-gen kineto c.ktdesc -o c.pt.trace.json && proftool import c.pt.trace.json -o c.ptm"
run proftool info c.ptm --format csv
run "proftool summary c.ptm --view overview | grep -E 'Communication|Kernel|Operator'"
run "proftool dump c.ptm | grep -E '^event-arg event=(4|5) |comm_backend' | sed 's/ name=.* pid=/ ... pid=/'"
# the same figures from the trace itself (python): 3 steps x (1048576 + 4096) in, (1048576 + 8192) out
cat >sum.py <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for on in ('cpu_op', 'kernel'):
    ev = [e for e in t['traceEvents'] if e.get('cat') == on and 'Collective name' in e.get('args', {})]
    print(on, len(ev), sum(e['args']['In msg nelems'] for e in ev), sum(e['args']['Out msg nelems'] for e in ev),
          t['distributedInfo']['backend'])
PY
run python3 sum.py c.pt.trace.json
# malformed: a backend that is not a string, collective arguments of the wrong types (an object
# name is not kept; nelems that are not numbers are kept as text and not summed)
ev1='{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 1.0, "dur": 2.0, "args": {"Collective name": {"x": 1}, "In msg nelems": 8}}'
ev2='{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 4.0, "dur": 2.0, "args": {"Collective name": "broadcast", "In msg nelems": "many", "Out msg nelems": -3, "Group size": [2], "dtype": null}}'
printf '{"schemaVersion": 1, "distributedInfo": {"backend": 7, "rank": 0}, "traceEvents": [\n%s,\n%s\n]}\n' "$ev1" "$ev2" >bad-comm.json
run "proftool info --table collectives bad-comm.json --format csv | sed -n '/^device_id,rank/,\$p'; proftool dump bad-comm.json | grep -E '^(event-arg|range-info)'"
printf '{"schemaVersion": 1, "distributedInfo": {"backend": "gloo", "rank": 3}, "traceEvents": [\n%s\n]}\n' "$ev1" >gloo.json
run "proftool info --table collectives gloo.json --format csv | sed -n '/^device_id,rank/,\$p'"
