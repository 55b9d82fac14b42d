# A model of Ascend and GPU data together (an Ascend job and CUPTI dumps imported into one model):
# steps, perf, memory --steps, flops --steps, diff --by step and the summary views that read
# launching calls or host ranges (NVTX: the host read) stream (proftool-steps(1), proftool-summary(1) MEMORY), each device kind through
# its own reads of the file: the same bytes, notes and exit status as the whole load (standard
# input that cannot be copied), on a model of some 25,000 events (many event batches), and no index
# of the events is built (the whole load's). A truncated model: the error names the file.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --steps 200 >/dev/null && proftool-gen cupti "$SRC/testdata/cupti/launch.cdtxt" -o app.cdump >/dev/null && echo generated'
# (the dumps copied here: a model holds its inputs' paths, and the truncation's offset below must not
# depend on where the checkout is)
cp "$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump" "$SRC/testdata/cupti/real-13.0-h200-vecadd-nvtx.cdump" .
run 'proftool import job real-13.0-h200-torch-loop.cdump -o mix.ptm 2>&1 | grep wrote; proftool import job app.cdump -o mix2.ptm 2>&1 | grep wrote; proftool import job real-13.0-h200-vecadd-nvtx.cdump -o mix3.ptm 2>&1 | grep wrote'
run 'proftool info mix.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cat > same.sh <<'SH'
# same.sh MODEL CMD OPTIONS...: CMD on MODEL streamed and loaded whole (a pipe that cannot be copied)
f=$1 c=$2; shift 2
"$PROFTOOL" $c $f "$@" > a.txt 2>&1; ra=$?
cat $f | TMPDIR=/nonexistent "$PROFTOOL" $c - "$@" > b.txt 2>&1; rb=$?
sed -i "s#'$f'#MODEL#g; s#$f#MODEL#g; s#'-'#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
n=$(script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $c $f $* >/dev/null" /dev/null | tr '\r' '\n' | grep -c 'indexing the events')
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $f $c $* (exit $ra, $(wc -l < a.txt) lines, indexed $n)" || echo "DIFFERS: $f $c $*"
SH
run "for f in mix.ptm mix2.ptm; do for v in '' '--format csv --wide' '--format json' '--steps 2-3' '--time-window 0.001s:0.5s --format csv' '--device 0' '--step-pattern Foo'; do bash same.sh \$f steps \$v; done; done"
run "for f in mix.ptm mix2.ptm; do for c in perf 'perf --format csv' 'memory --steps 2-3' 'flops --steps 2-3' 'diff mix.ptm --by step' 'diff mix2.ptm --by step --format csv'; do bash same.sh \$f \$c; done; done"
run "for f in mix.ptm mix2.ptm mix3.ptm; do for v in '--view memcpy' '--view gpu' '--view all' '--view all --format csv' '--time-window 1s:3s' '--view all --device 0' '--view gpu --thread-sep' '--view distributed' '--steps 2-3 --view all' '--op-detail'; do bash same.sh \$f summary \$v; done; done"
# the figures themselves: the Ascend table's first steps, the GPU table's rows
run 'proftool steps mix2.ptm | sed -n "1,5p;/^avg/p;/^outside/p;/^rank/,\$p" | cut -c1-120'
run 'head -c $(( $(stat -c %s mix.ptm) * 2 / 3 )) mix.ptm > cut.ptm; for c in steps perf "summary --view memcpy"; do rm -f out.csv; proftool $c cut.ptm -o out.csv; echo "$c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done'
