# proftool summary's memcpy and gpu views, --steps and --time-window over a model file of GPU data
# from one process read it as a stream, each activity's launching call found by the launch reads
# (proftool-summary(1) MEMORY): the same bytes as --in-memory and as standard input (read whole), on
# every GPU testdata input and fixture (CUPTI dumps with launch links; Kineto and Nsight Systems
# models with host ranges, which are read whole); flops with a selection over a GPU model without
# FLOPs data takes its steps from the streamed steps read, the same as the whole load.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
ln -s "$SHARED/fixtures" fx
requires_shared
run 'proftool-gen cupti td/cupti/launch.cdtxt -o app.cdump && proftool import app.cdump -o launch.ptm 2>/dev/null && echo imported'
run 'for f in td/cupti/real-*.cdump; do b=${f##*/}; proftool import "$f" -o "${b%.cdump}.ptm" 2>/dev/null || echo "no $b"; done; ls real-*.ptm | wc -l'
run 'for f in td/kineto/real-*.json.gz fx/kineto/*.json.gz; do b=${f##*/}; b=${b%.json.gz}; proftool import "$f" -o "k-${b%.pt.trace}.ptm" 2>/dev/null || echo "no $b"; done; ls k-*.ptm | wc -l'
run 'proftool import fx/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite -o nsys.ptm 2>/dev/null && echo imported'
run 'proftool-gen cupti "$SRC/tests/gen/cases/summary-stream-gpu.cdtxt" -o g.cdump --scale 3M && proftool import g.cdump -o g.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: summary of the file, --in-memory and standard input, alike (output and exit status)
m=$1; shift
proftool summary $m "$@" > a.txt 2>&1; ra=$?
proftool summary $m --in-memory "$@" > b.txt 2>&1; rb=$?
proftool summary - "$@" < $m > c.txt 2>&1; rc=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt c.txt
cmp -s a.txt b.txt && cmp -s a.txt c.txt && [ $ra = $rb ] && [ $ra = $rc ] && echo "same: $m $* (exit $ra)" || echo "DIFFERS: $m $*"
SH
cat > fsame.sh <<'SH'
# fsame.sh MODEL OPTIONS...: flops of the file and of standard input (read whole), alike
m=$1; shift
proftool flops $m "$@" > a.txt 2>&1; ra=$?
proftool flops - "$@" < $m > c.txt 2>&1; rc=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt c.txt
cmp -s a.txt c.txt && [ $ra = $rc ] && echo "same: flops $m $* (exit $ra)" || echo "DIFFERS: flops $m $*"
SH
for m in launch.ptm real-*.ptm k-*.ptm nsys.ptm g.ptm; do
	run "for v in '--view memcpy' '--view gpu --format csv' '--view memcpy,gpu --format json --time-unit ns' '--view gpu --top 2 --sorted-by calls --hint hints.launch.queue_delay_us=1' '--steps 2-3' '--steps 900-901 --view all' '--time-window 0.001s:0.002s --view all --format csv' '--time-window 10000s:' '--time-window :1s --view memcpy,gpu,overview --device 0' '--view gpu --device 5' '--step-pattern Foo --view memcpy --name Memcpy' '--steps 1 --view kernel,api --format csv'; do bash same.sh $m \$v; done"
	run "for v in '--steps 2-3' '--steps 1- --by step --format csv' '--time-window 0.001s: --by model' '--step-pattern Foo --format json'; do bash fsame.sh $m \$v; done"
done
# the streamed figures themselves: a CUPTI run's copies and launches, within a window
run proftool summary real-13.0-h200-torch-loop.ptm --view memcpy,gpu --time-window 0:0.5s --time-unit us
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as a full read's
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; for v in "--view memcpy" "--view gpu" "--steps 2-3"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
run 'proftool flops cut.ptm --steps 2-3; echo "exit $?"'
run 'python3 -c "d = bytearray(open(\"real-13.0-h200-torch-loop.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; for v in "--view gpu" "--time-window 0:1s"; do proftool summary bad.ptm $v; echo "exit $?"; done; proftool flops bad.ptm --steps 2-3; echo "exit $?"'
