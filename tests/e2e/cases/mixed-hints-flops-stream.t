# hints and flops of a model of Ascend and GPU data together (an Ascend job imported with a Kineto
# trace whose PyTorch operator ranges flops reads, CUPTI dumps with and without NVTX ranges) stream
# (proftool-hints(1), proftool-flops(1) MEMORY), each kind as it streams alone. hints: one read scans
# the Ascend devices' events, the GPU stream's reads measure the GPU ranks (their steps give the Ascend
# ranks' too), one more read measures the Ascend ranks. flops: the steps' reads, two reads of the
# events for the Ascend items, the operator ranges' reads for the GPU ones. The same bytes, notes and
# exit status as --in-memory, on models of some 7,000 to 26,000 events (many event batches), and no
# index of the events is built (the whole load's). A truncated such model: the error names the file,
# and nothing is written.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --steps 200 >/dev/null && proftool-gen kineto "$SRC/testdata/kineto/train-current.ktdesc" -o k.json --scale 4M >/dev/null && proftool-gen cupti "$SRC/testdata/cupti/launch.cdtxt" -o app.cdump >/dev/null && echo generated'
# (the dumps copied here: a model holds its inputs' paths)
cp "$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump" "$SRC/testdata/cupti/real-13.0-h200-vecadd-nvtx.cdump" .
run 'proftool import job k.json -o mixk.ptm 2>&1 | grep wrote; proftool import job real-13.0-h200-torch-loop.cdump -o mix.ptm 2>&1 | grep wrote; proftool import job app.cdump -o mix2.ptm 2>&1 | grep wrote; proftool import job real-13.0-h200-vecadd-nvtx.cdump -o mix3.ptm 2>&1 | grep wrote'
run 'proftool info mixk.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cat > same.sh <<'SH'
# same.sh MODEL CMD OPTIONS...: CMD on MODEL streamed and loaded whole (--in-memory)
f=$1 c=$2; shift 2
"$PROFTOOL" $c $f "$@" > a.txt 2>&1; ra=$?
"$PROFTOOL" $c $f --in-memory "$@" > b.txt 2>&1; rb=$?
n=$(script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $c $f $* >/dev/null" /dev/null | tr '\r' '\n' | grep -c 'indexing the events')
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $f $c $* (exit $ra, $(wc -l < a.txt) lines, indexed $n)" || echo "DIFFERS: $f $c $*"
SH
run "for f in mixk.ptm mix.ptm mix2.ptm mix3.ptm; do for v in '' '--format json' '--format csv' '--steps 2-3' '--steps 5-9 --show-suppressed' '--time-window 0.001s:0.5s' '--device 0' '--device 1' '--step-pattern Foo' '--comm-pattern nccl|AllReduce' '--hint hints.disable=TOP_OPS --fail-on warn'; do bash same.sh \$f hints \$v; done; done"
# the hints themselves: the Ascend device's and the GPU's, each under its own device
run 'proftool hints mixk.ptm --format csv | cut -d, -f1-4'
run "for f in mixk.ptm mix2.ptm; do for v in '' '--by type' '--by scope' '--by step --format csv' '--by model' '--format json' '--format folded' '--steps 2-3' '--steps 5-9 --by step' '--time-window 0.001s:0.5s' '--device 0 --by model' '--device 1' '--step-pattern Foo' '--peak 100 --by model'; do bash same.sh \$f flops \$v; done; done"
# the figures themselves: the Ascend device's ops and the GPU's operator ranges, each device's model row
run 'proftool flops mixk.ptm | sed -n "1,6p;/aten::/p" | cut -c1-110; proftool flops mixk.ptm --by model --format csv'
# an Ascend job with a memory graph beside the GPU data: MEMORY_NEAR_CAPACITY's peak and the time of
# its node (the Ascend read's) as loaded whole
cat > near.desc <<'DESC'
device 0
steps 1
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
op Default/net/Add-op2 type Add stream 5 task 2 dur 5ms
mem-file total 17179869184
mem-graph 1 static 1073741824
mem-node MatMul-op1 out 1
mem-node Add-op2 out 2
mem-tensor 1 13958643712 start 0 end 1
mem-tensor 2 1073741824 start 1 end 1
DESC
run 'proftool-gen near.desc -o near >/dev/null && proftool import near k.json -o mixm.ptm 2>&1 | grep wrote'
run "for v in '' '--format csv' '--show-suppressed'; do bash same.sh mixm.ptm hints \$v; done; proftool hints mixm.ptm --format csv | grep MEMORY_NEAR | grep -o 'peak_pct=[^,]*'"
run 'head -c $(( $(stat -c %s mix.ptm) * 2 / 3 )) mix.ptm > cut.ptm; rm -f out.csv; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'head -c $(( $(stat -c %s mixk.ptm) * 2 / 3 )) mixk.ptm > cutk.ptm; rm -f out.csv; proftool flops cutk.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
