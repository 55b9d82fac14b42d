# Every trace written from every real fixture and every bundled sample, in
# both profiles (viewer, and kineto: one file per rank), passes
# tests/chrome-check.c: strict JSON, names, flows, nesting per row, and no
# false nesting in the doubles a reader parses (ts + dur added in IEEE
# doubles, as JavaScript does; chrome-trace.md §3).
requires_shared
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
F='$SHARED/fixtures/mindinsight'
for job in JOB1 ERROR_JOB JOB3 JOB4 JOB_AICPU container; do
	run "proftool timeline $F/$job --scope-depth 3 -o $job.json 2>/dev/null; ./chrome-check $job.json"
	run "proftool timeline $F/$job --profile kineto -o k-$job 2>/dev/null; for f in k-$job/*; do ./chrome-check \$f; done"
done
run "proftool import $F/JOB1 $F/minddata -o md.ptm 2>/dev/null && proftool timeline md.ptm -o md.json; ./chrome-check md.json"
run "proftool timeline \$SRC/testdata/ascend/sample --scope-depth 2 -o sample.json; ./chrome-check sample.json"
run "proftool timeline \$SRC/testdata/ascend/binary -o binary.json 2>/dev/null; ./chrome-check binary.json"
run "proftool-gen cupti \$SRC/testdata/cupti/launch.cdtxt -o launch.cdump >/dev/null && proftool timeline launch.cdump -o launch.json; ./chrome-check launch.json"
for m in sample binary; do
	run "proftool timeline \$SRC/testdata/ascend/$m --profile kineto -o k-$m 2>/dev/null; for f in k-$m/*; do ./chrome-check \$f; done"
done
run "proftool timeline launch.cdump --profile kineto --gzip -o k-launch; ./chrome-check k-launch/*"
for m in "$SRC"/testdata/compat/*.ptm; do
	b=$(basename "$m" .ptm)
	run "proftool timeline \$SRC/testdata/compat/$b.ptm -o $b.json; ./chrome-check $b.json"
	run "proftool timeline \$SRC/testdata/compat/$b.ptm --profile kineto -o k-$b; ./chrome-check k-$b/*"
done
