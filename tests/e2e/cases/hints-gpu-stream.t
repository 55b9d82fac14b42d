# proftool hints over a model file of GPU data from one process without host ranges reads it as a
# stream (proftool-hints(1) MEMORY): the same bytes as --in-memory and as standard input, which load
# the model whole, in every format, with selections and with thresholds moved so that every rule
# that reads the events fires, on CUPTI dumps (launch links, memcpy/memset, several streams and
# threads, sparse ids); models it cannot stream (host ranges: NVTX, Kineto, Nsight Systems) are
# read whole and print the same too ("same: ...").
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
ln -s "$SHARED/fixtures" fx
requires_shared
run proftool-gen cupti 'td/cupti/launch.cdtxt' -o app.cdump
run 'proftool import app.cdump -o launch.ptm 2>/dev/null && echo imported'
run 'for f in td/cupti/real-*.cdump; do b=${f##*/}; proftool import "$f" -o "${b%.cdump}.ptm" 2>/dev/null || echo "no $b"; done; ls real-*.ptm | wc -l'
run 'for f in td/kineto/real-*.json.gz fx/kineto/*.json.gz; do b=${f##*/}; b=${b%.json.gz}; proftool import "$f" -o "k-${b%.pt.trace}.ptm" 2>/dev/null || echo "no $b"; done; ls k-*.ptm | wc -l'
run 'for d in legacy train-current; do proftool-gen kineto td/kineto/$d.ktdesc -o $d.json && proftool import $d.json -o g-$d.ptm 2>/dev/null || echo "no $d"; done'
run 'proftool import fx/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite -o nsys.ptm 2>/dev/null && echo imported'
# the benchmark's dump scaled down: repetitions of a real loop, each stream's syncs and copies written
# apart from its kernels, several host threads, equal starts on a thread, sparse correlation ids
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the output (and exit status) of the file streamed, loaded whole and from standard input
m=$1; shift
proftool hints $m "$@" > a.txt 2>&1; ra=$?
proftool hints $m --in-memory "$@" > b.txt 2>&1; rb=$?
proftool hints - "$@" < $m > c.txt 2>&1; rc=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt c.txt
cmp -s a.txt b.txt && cmp -s a.txt c.txt && [ $ra = $rb ] && [ $ra = $rc ] && echo "same: $m $* (exit $ra)" ||
	echo "DIFFERS: $m $*"
SH
# every GPU rule that reads the events fires: utilisation, idle time, launch-bound time, launch delays,
# runtime outliers, short kernels, memory operations, communication, top ops, unattributed device time,
# the unexplained time, the step gap, the truncated last step, memory capacity
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.launch_bound.moderate_pct=0 --hint hints.launch.queue_delay_us=0 --hint hints.launch.queue_delay_warn_pct=0 --hint hints.launch.runtime_us=1 --hint hints.launch.runtime_warn_pct=0 --hint hints.short_kernels.pct=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.unattributed.pct=0 --hint hints.memory.peak_pct=0 --hint hints.rank_spread.pct=0'
IDLE='--hint hints.idle.min_pct=0 --hint hints.idle.class_pct=0'
for m in launch.ptm scaled.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 0.001s:0.002s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo' '--fail-on info'; do bash same.sh $m \$v; done"
	run "for v in '--format csv' '--format json --show-suppressed' '--steps 2-3 --format csv' '--device 0'; do bash same.sh $m $FIRE \$v; done"
	run "for g in 0 1000 1000000000; do bash same.sh $m $IDLE --hint hints.idle.kernel_wait_gap_ns=\$g --format csv; done"
done
# the host's calls measured in a read of their own (when too many wait for their windows in the device read)
for m in scaled.ptm real-13.0-h200-torch-loop.ptm real-13.0-h200-vecadd.ptm; do
	run "for v in '--format csv' '--steps 2-3 --format csv'; do PT_TEST_HINTS_CALLS_CAP=0 bash same.sh $m $FIRE \$v; done"
done
# the streamed hints themselves
run proftool hints real-13.0-h200-torch-loop.ptm $FIRE --format csv
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "d = bytearray(open(\"real-13.0-h200-torch-loop.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool hints bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
