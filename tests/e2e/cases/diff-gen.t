# proftool diff on a generated pair: tests/gen/cases/diff-pair.desc and its `perturb`
# changes (slower and faster ops, a removed and an added op, renumbered -op<N> names).
# The generator records the true per-op deltas (TEST/DELTA, from its own model of the
# HWTS records it wrote); every item diff reports must equal them exactly, and no
# item may be missing or extra.
run proftool-gen '$SRC/tests/gen/cases/diff-pair.desc' -o base --perturbed test
cat >truth.awk <<'AWK'
# DELTA (tab-separated) then diff's CSV: compare base/test calls and totals and their deltas
BEGIN { n = 0; bad = 0 }
FNR == NR {
	if ($0 ~ /^#/) next
	split($0, f, "\t")
	if (f[3] == 0 && f[4] == 0) next          # described, never run on either side
	k = (f[1] == "-" ? "" : f[1]) "|" (f[2] == "-" ? "" : f[2])
	want[k] = f[3] " " f[4] " " f[5] " " f[6] " " f[7] " " f[8]; n++
	next
}
FNR == 1 { next }
{
	k = $4 "|" $5
	bc = $6 == "" ? 0 : $6; tc = $7 == "" ? 0 : $7; bt = $10 == "" ? 0 : $10; tt = $11 == "" ? 0 : $11
	got = bc " " tc " " bt " " tt " " $8 " " $12
	st = ($4 != "" && $5 != "") ? "matched" : ($4 != "" ? "removed" : "added")
	if (!(k in want)) { print "extra item: " k " " got; bad++; next }
	if (want[k] != got) { print "wrong: " k ": diff says " got ", the generator " want[k]; bad++ }
	if ($2 != st) { print "wrong status: " k ": " $2; bad++ }
	seen[k] = 1
}
END {
	for (k in want) if (!(k in seen)) { print "missing item: " k; bad++ }
	printf "%d items checked against the generator's deltas, %d wrong\n", n, bad
	exit bad != 0
}
AWK
run "proftool diff base test --format csv >diff.csv 2>/dev/null && awk -F'\t' -f truth.awk test/DELTA FS=, diff.csv"
# the same check through models, and with the stage and verdict outputs
run "proftool import base -o base.ptm 2>/dev/null && proftool import test -o test.ptm 2>/dev/null && proftool diff base.ptm test.ptm --format csv >m.csv && awk -F'\t' -f truth.awk test/DELTA FS=, m.csv"
run "proftool diff base.ptm test.ptm --format csv --sorted-by name | cut -d, -f1-8,10-12"
run proftool diff base.ptm test.ptm
run proftool diff base.ptm test.ptm --top 3 --sorted-by delta-pct --time-unit us
run proftool diff base.ptm test.ptm --match exact --format csv --sorted-by name
run proftool diff base.ptm test.ptm --by step
run proftool diff base.ptm test.ptm --by step --format csv
run proftool diff base.ptm test.ptm --by scope --format csv
run proftool diff base.ptm test.ptm --by optype
run proftool diff base.ptm test.ptm --by kernel --top 2 --format json
run proftool diff base.ptm test.ptm --top 2 --format jsonl
run proftool diff base.ptm test.ptm --base-steps 2-3 --test-steps 4-5 --top 3
run proftool diff base.ptm test.ptm --steps 2-5 --by step --format csv
# CI gate: the step time grew by about 10 %
run proftool diff base.ptm test.ptm --fail-on-regression 5 --top 1 --format csv
run proftool diff base.ptm test.ptm --fail-on-regression 50 --top 1 --format csv
run proftool diff test.ptm base.ptm --fail-on-regression 0 --top 1 --format csv
# standard input on one side
run "proftool diff - test.ptm --top 2 --format csv <base.ptm"
# GPU data: a CUPTI dump against itself, every delta zero
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run proftool diff app.cdump app.cdump --by kernel --format csv
run proftool diff app.cdump app.cdump --by api
# GPU operators (host ranges, their cpu time) and the stages of a rank with two GPUs
run proftool-gen cupti '$SRC/tests/gen/cases/summary-case1.cdtxt' -o c1.cdump
run proftool diff c1.cdump c1.cdump --format csv
sed -e 's|^  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7|&\n  rec DEVICE id=1 name="Test GPU" numMultiprocessors=80\n  rec CONTEXT contextId=2 deviceId=1 nullStreamId=7|' \
	-e 's|start=1000095 end=1000155 deviceId=0 contextId=1|start=1000095 end=1000155 deviceId=1 contextId=2|' \
	"$SRC/tests/gen/cases/summary-case1.cdtxt" >two.cdtxt
run "proftool-gen cupti two.cdtxt -o two.cdump && proftool diff c1.cdump two.cdump --by step --format csv"
