# A real PyTorch trace imported and written back with `timeline --profile kineto` is read by
# HolisticTraceAnalysis like the original (issue #27): tests/hta-check.py applies HTA's parsing and
# filtering rules to both and prints the same kernels, totals, iterations, per-kernel breakdown and
# launch pairs, under both of HTA's JSON backends.
HTA="python3 $SRC/tests/hta-check.py"
# A real PyTorch 2.11 trace (testdata/kineto/README.md), which carries no distributedInfo: the copy HTA
# reads gets rank 0. Kineto projected its user annotations onto the stream (gpu_user_annotation); the
# round trip derives them again from the host ranges and the launches, to the nanosecond, and HTA, which
# counts them as host events, then keeps the same kernels.
TR=$SRC/testdata/kineto/real-torch2.11-h200-loop.pt.trace.json.gz
mkdir -p orig-real
run "zcat '$TR' | python3 -c 'import json,sys; d=json.load(sys.stdin); d[\"distributedInfo\"]={\"rank\":0}; json.dump(d,open(\"orig-real/rank0.pt.trace.json\",\"w\"))'"
run "proftool timeline '$TR' --profile kineto -o rt-real && ls rt-real"
GA='import json,sys
def ann(f):
    d = json.load(open(f))
    base = d.get("baseTimeNanoseconds", 0)
    return sorted((e["name"], e["pid"], e["tid"], base + round(float(e["ts"]) * 1000), round(float(e["dur"]) * 1000))
                  for e in d["traceEvents"] if e.get("cat") == "gpu_user_annotation")
a, b = ann(sys.argv[1]), ann(sys.argv[2])
print("gpu_user_annotation: %d in the original, %d derived, %s" % (len(a), len(b), "equal" if a == b else "DIFFERENT"))'
printf '%s\n' "$GA" >ga.py
run "python3 ga.py orig-real/rank0.pt.trace.json rt-real/rank0.pt.trace.json"
for be in json ijson; do
	run "$HTA orig-real --backend $be --kernels --launches >a.txt; $HTA rt-real --backend $be --kernels --launches >b.txt; head -1 b.txt; cmp a.txt b.txt && echo 'HTA reads both alike ($be)'"
done
if [ ! -d "$SHARED/fixtures/kineto" ]; then
	echo "skipped: $SHARED/fixtures/kineto is absent"
	exit 77
fi
for f in "$SHARED"/fixtures/kineto/*.json.gz; do
	b=$(basename "$f" .json.gz)
	mkdir -p "orig-$b" && cp "$f" "orig-$b/rank0.pt.trace.json.gz"
	rank=$(zcat "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("distributedInfo", {}).get("rank", 0))')
	[ "$rank" = 0 ] || mv "orig-$b/rank0.pt.trace.json.gz" "orig-$b/rank$rank.pt.trace.json.gz"
	run "proftool timeline \$SHARED/fixtures/kineto/$b.json.gz --profile kineto -o rt-$b && ls rt-$b"
	for be in json ijson; do
		run "$HTA orig-$b --backend $be --kernels --launches | sed 's/\\.json\\.gz:/.json:/' >a.txt; $HTA rt-$b --backend $be --kernels --launches >b.txt; head -1 b.txt; cmp a.txt b.txt && echo 'HTA reads both alike ($be)'"
	done
done
