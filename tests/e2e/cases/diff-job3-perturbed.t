# proftool diff of the real JOB3 dump against a copy whose HWTS log proftool-gen
# perturb-job rewrote: three ops with 14-15 executions each made 2x, 1.5x and
# 0.5x as long (End records moved, every other byte kept). The generator
# records the true per-op deltas (DELTA, from its own replay of the records it
# read and wrote); every op diff lists must equal them exactly (calls, totals,
# deltas), every other op's delta must be 0, and no op may be missing or extra.
# The step trace is copied unchanged, so step times (and the verdict) stay
# those of JOB3: only op and op-type times move.
requires_shared
J='$SHARED/fixtures/mindinsight/JOB3'
run proftool-gen perturb-job $J -o p --scale gradConcat/Slice-op58 2 --scale WideDeepModel/GatherV2-op33 1.5 --scale Default/TransData-op216 0.5
# the ops that changed, as the generator counted them
run "grep -v '	0\$' p/DELTA | cut -f1,3-"
# only End records of those ops differ: 8-byte syscnt fields at offset 8 of a 64-byte record
run "cmp -l $J/hwts.log.data.45.dev.profiler_default_tag.1.slice_0 p/hwts.log.data.45.dev.profiler_default_tag.1.slice_0 | awk '{ r = int((\$1 - 1) / 64); o = (\$1 - 1) % 64; if (o < 8 || o > 15) bad++; recs[r] = 1 } END { for (r in recs) n++; printf \"%d records differ, %d bytes outside syscnt\\n\", n, bad }'"
run "diff -r $J p | sed 's/ and .*//'"
cat >truth.awk <<'AWK'
# DELTA (tab-separated) then diff's CSV: compare base/test calls and totals and their deltas
BEGIN { n = 0; bad = 0; moved = 0 }
FNR == NR {
	if ($0 ~ /^#/) next
	split($0, f, "\t")
	k = f[1] "|" f[2]
	want[k] = f[3] " " f[4] " " f[5] " " f[6] " " f[7] " " f[8]; n++
	next
}
FNR == 1 { next }
{
	k = $4 "|" $5
	got = $6 " " $7 " " $10 " " $11 " " $8 " " $12
	if ($12 != 0) moved++
	if (!(k in want)) { print "extra item: " k " " got; bad++; next }
	if (want[k] != got) { print "wrong: " k ": diff says " got ", the generator " want[k]; bad++ }
	if ($2 != "matched") { print "wrong status: " k ": " $2; bad++ }
	seen[k] = 1
}
END {
	for (k in want) if (!(k in seen)) { print "missing item: " k; bad++ }
	printf "%d ops checked against the generator's deltas, %d wrong, %d with a nonzero delta\n", n, bad, moved
	exit bad != 0
}
AWK
run "proftool diff $J p --format csv >diff.csv 2>/dev/null && awk -F'\t' -f truth.awk p/DELTA FS=, diff.csv"
# the same through models
run "proftool import $J -o base.ptm 2>/dev/null && proftool import p -o test.ptm 2>/dev/null && proftool diff base.ptm test.ptm --format csv >m.csv && awk -F'\t' -f truth.awk p/DELTA FS=, m.csv"
# the top rows as a user sees them
run proftool diff base.ptm test.ptm --top 4
run proftool diff base.ptm test.ptm --by optype --top 3 --format csv
