# proftool steps and perf over a model file of GPU data (one traced process) read it as a stream
# (proftool-steps(1) MEMORY): the same bytes as the in-memory path, which standard input takes,
# with every option, on CUPTI dumps (launch links), Kineto traces (step ranges, no links in one)
# and Nsight Systems exports; a model it cannot stream (two processes) is read whole, the same.
gpu_models
cat > same.sh <<'SH'
# same.sh CMD MODEL OPTIONS...: the output (and exit status) of the file and of standard input
c=$1 m=$2; shift 2
proftool $c $m "$@" > a.txt 2>&1; ra=$?
proftool $c - "$@" < $m > b.txt 2>&1; rb=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $m $* (exit $ra)" || echo "DIFFERS: $c $m $*"
SH
for m in launch.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm; do
	run "for v in '' '--format csv --wide' '--format json' '--steps 2-3' '--steps 900-901' '--time-window 0.001s:0.002s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo' '--step-pattern ProfilerStep.* --format csv'; do bash same.sh steps $m \$v; done"
	run "for v in '' '--format csv' '--batch-size 32 --skip-steps 1' '--time-window 0.001s:' '--step-pattern Foo --format csv'; do bash same.sh perf $m \$v; done"
done
# the streamed figures themselves: the iteration-boundary rule with launch links, step ranges
run proftool steps real-13.0-h200-vecadd.ptm --format csv
run proftool steps k-real-torch2.11-h200-loop.ptm --format csv --steps 1-2
run proftool perf k-real-torch2.11-h200-loop.ptm --format csv
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; proftool steps cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'proftool perf cut.ptm --format csv -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "d = bytearray(open(\"real-13.0-h200-torch-loop.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool steps bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
