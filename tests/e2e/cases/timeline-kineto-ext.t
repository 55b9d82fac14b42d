# What the kineto profile carries beyond times and launch keys (issue #27, cupti.md §7.4,
# chrome-trace.md §10-§11): "External id" on every event that has one, "cbid" on runtime and driver
# calls, distributedInfo with world_size (and backend when the model records one), Operator ranges as
# cpu_op, and the viewer's extra tracks only with --extra-tracks. tests/hta-check.py --ids reads the
# External id and cbid columns as HTA parses them (event_args_1.0.0.yaml).
HTA="python3 \$SRC/tests/hta-check.py"
# a CUPTI dump of rank 1 of 4: the calls' cbids, the CUSTOM0 external ids of the calls and their kernels
sed -e 's/^process rank=0 /process rank=1 world_size=4 /' "$SRC/testdata/cupti/launch.cdtxt" >w.cdtxt
run "proftool-gen cupti w.cdtxt -o w.cdump >/dev/null && proftool timeline w.cdump --profile kineto -o kw && ls kw"
run "grep -h distributedInfo kw/rank1.pt.trace.json; grep -o '\"cat\":\"[a-z_]*\",\"name\":\"[^\"]*\"\|\"args\":{\"External id\":[0-9]*\|\"cbid\":[0-9]*' kw/rank1.pt.trace.json | grep -B1 'External\|cbid'"
run "$HTA kw --ids"
# the viewer profile's one-rank file carries the same distributedInfo; --extra-tracks is the kineto
# profile's (a usage error here)
run "proftool timeline w.cdump -o v.json && grep -h distributedInfo v.json"
run proftool timeline w.cdump --extra-tracks -o v2.json
# --extra-tracks: the device's Steps and overlap rows, as the viewer profile writes them; without it none
run "proftool timeline w.cdump --profile kineto --extra-tracks -o ke && grep -c '\"cat\":\"\(Step\|Overlap\)\"' ke/rank1.pt.trace.json; grep -m2 '\"name\":\"\(Steps\|Free Time\)\"' ke/rank1.pt.trace.json"
run "grep -c '\"cat\":\"\(Step\|Overlap\)\"' kw/rank1.pt.trace.json"
# HTA still finds the same kernels and iterations with the extra tracks (host rows to it: no stream)
run "$HTA ke --kernels | cmp - <($HTA kw --kernels) && echo 'same kernels'"
# a Kineto trace with distributedInfo {backend, rank, world_size}: written back with all three
cat >c.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
rank 1 world 2 backend nccl
device 0 name "NVIDIA A100-SXM4-40GB"
steps 2 period 2ms
op "aten::mm" 10us 100us dims=128x256,256x64 types=float,float
kernel "ampere_sgemm_128x64" 20us 5us 30us 50us
DESC
mkdir -p oc
run "proftool-gen kineto c.ktdesc -o oc/rank1.pt.trace.json && proftool timeline oc/rank1.pt.trace.json --profile kineto -o rc && ls rc"
run "grep -h distributedInfo oc/rank1.pt.trace.json rc/rank1.pt.trace.json"
run "grep -m1 '\"cat\":\"cpu_op\"' rc/rank1.pt.trace.json; grep -m1 '\"cat\":\"cuda_runtime\"' rc/rank1.pt.trace.json"
run "$HTA oc --ids | tail -n +2 >a.txt; $HTA rc --ids | tail -n +2 | cmp - a.txt && cat a.txt"
# a real PyTorch 2.11 trace: HTA reads the same External ids (cpu_op, user_annotation, calls, kernels)
# and cbids from the original and from the round trip, under both of its JSON backends
TR=$SRC/testdata/kineto/real-torch2.11-h200-loop.pt.trace.json.gz
mkdir -p or
zcat "$TR" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["distributedInfo"]={"rank":0}; json.dump(d,open("or/rank0.pt.trace.json","w"))'
run "proftool timeline '$TR' --profile kineto -o rr && ls rr"
for be in json ijson; do
	run "$HTA or --backend $be --ids >a.txt; $HTA rr --backend $be --ids >b.txt; cmp a.txt b.txt && echo 'HTA reads the same ids ($be)'"
done
run "cat b.txt"
if [ ! -d "$SHARED/fixtures/kineto" ]; then
	echo "skipped: $SHARED/fixtures/kineto is absent"
	exit 77
fi
# HTA's test trace cut short of most calls: its kernels, copies and sets keep their own External ids
F=$SHARED/fixtures/kineto/trace_compare_base_base.json.gz
mkdir -p ot && cp "$F" ot/rank0.pt.trace.json.gz
run "proftool timeline \$SHARED/fixtures/kineto/trace_compare_base_base.json.gz --profile kineto -o rt && ls rt"
run "$HTA ot --ids | tail -n +2 >a.txt; $HTA rt --ids | tail -n +2 | cmp - a.txt && cat a.txt"
