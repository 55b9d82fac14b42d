# flops of a model of Ascend and GPU data together (an Ascend job imported with a Kineto trace whose
# PyTorch operator ranges have FLOPs, or with CUPTI dumps that have none) streams (proftool-flops(1)
# MEMORY): the steps' reads, two reads of the events for the Ascend items and the operator ranges'
# reads for the GPU ones, each kind as it streams alone. The same bytes, notes and exit status as
# --in-memory, on models of some 20,000 events (many event batches), and no index of the events is
# built (the whole load's). A truncated such model: the error names the file, and nothing is written.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --steps 200 >/dev/null && proftool-gen kineto "$SRC/testdata/kineto/train-current.ktdesc" -o k.json --scale 4M >/dev/null && proftool-gen cupti "$SRC/testdata/cupti/launch.cdtxt" -o app.cdump >/dev/null && echo generated'
run 'proftool import job k.json -o mixk.ptm 2>&1 | grep wrote; proftool import job app.cdump -o mix2.ptm 2>&1 | grep wrote'
run 'proftool info mixk.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cat > same.sh <<'SH'
# same.sh MODEL CMD OPTIONS...: CMD on MODEL streamed and loaded whole (--in-memory)
f=$1 c=$2; shift 2
"$PROFTOOL" $c $f "$@" > a.txt 2>&1; ra=$?
"$PROFTOOL" $c $f --in-memory "$@" > b.txt 2>&1; rb=$?
n=$(script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $c $f $* >/dev/null" /dev/null | tr '\r' '\n' | grep -c 'indexing the events')
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $f $c $* (exit $ra, $(wc -l < a.txt) lines, indexed $n)" || echo "DIFFERS: $f $c $*"
SH
run "for f in mixk.ptm mix2.ptm; do for v in '' '--by type' '--by scope' '--by step --format csv' '--by model' '--format json' '--format folded' '--steps 2-3' '--steps 5-9 --by step' '--time-window 0.001s:0.5s' '--device 0 --by model' '--device 1' '--step-pattern Foo' '--peak 100 --by model'; do bash same.sh \$f flops \$v; done; done"
# the figures themselves: the Ascend device's ops and the GPU's operator ranges, each device's model row
run 'proftool flops mixk.ptm | sed -n "1,6p;/aten::/p" | cut -c1-110; proftool flops mixk.ptm --by model --format csv'
run 'head -c $(( $(stat -c %s mixk.ptm) * 2 / 3 )) mixk.ptm > cut.ptm; rm -f out.csv; proftool flops cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
