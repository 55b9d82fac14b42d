# proftool summary - reads the model from standard input (proftool-summary(1) MEMORY): an Ascend
# model with TrackEvents is summed in one streamed read; what one read cannot sum (the distributed
# view, a model written before TrackEvents, a CUPTI model with NVTX ranges) is read whole. Every way prints what the
# summary of the same model file prints ("same: ...").
run 'proftool import "$SRC/testdata/ascend/sample" -o s.ptm 2>/dev/null && echo imported'
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run 'proftool import app.cdump -o c.ptm 2>/dev/null && echo imported'
cp "$SRC/testdata/compat/v1-ascend-sample.ptm" v1.ptm
# (a missing-data error names the model as given, a path or standard input: the comparison reads MODEL)
for m in s.ptm c.ptm v1.ptm; do
	run "for v in '' '--view all' '--view distributed --format csv' '--steps 2-3 --format json' '--in-memory'; do proftool summary $m \$v > a.txt 2>&1; proftool summary - \$v < $m > b.txt 2>&1; cat $m | proftool summary - \$v > c.txt 2>&1; sed -i 's/^proftool: error: .* has no /proftool: error: MODEL has no /' a.txt b.txt c.txt; cmp -s a.txt b.txt && cmp -s a.txt c.txt && echo \"same: $m \$v\" || echo \"DIFFERS: $m \$v\"; done"
done
# straight from an import
run 'proftool import "$SRC/testdata/ascend/sample" -o - 2>/dev/null | proftool summary - --view kernel --top 3 --format csv'
# not a model, nothing at all
run 'echo garbage | proftool summary -'
run 'proftool summary - </dev/null'
