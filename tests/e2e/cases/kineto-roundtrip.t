# A real PyTorch trace imported and written back with `timeline --profile kineto` is read by
# HolisticTraceAnalysis like the original (issue #27): tests/hta-check.py applies HTA's parsing and
# filtering rules to both and prints the same kernels, totals, iterations, per-kernel breakdown and
# launch pairs, under both of HTA's JSON backends.
if [ ! -d "$SHARED/fixtures/kineto" ]; then
	echo "skipped: $SHARED/fixtures/kineto is absent"
	exit 77
fi
HTA="python3 $SRC/tests/hta-check.py"
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
