# steps, perf, flops and diff --by step over a model file whose communication host ranges come after
# the calls they enclose (a thread's ranges and calls out of start order in the file, as real Kineto
# traces write operators at their end) read it as a stream (proftool-steps(1) MEMORY): a read between
# the scan and the calls' read takes the communication ranges of the threads out of order, and each of
# their calls is looked up in its thread's union, as the whole load does. The same bytes, warnings and
# exit status as the whole load (a pipe that cannot be copied). Scaled (several batches of 4,096 events).
ln -s "$SRC/testdata" td
cat td/kineto/train-current.ktdesc - >c.ktdesc <<'DESC'
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "add_kernel" 1625us 3us 1735us 9us stream=30
op "record_param_comms" 1800us 100us comm=allreduce:float:1024:1024:2:0
op "aten::copy_" 1810us 20us
kernel "copy_kernel" 1815us 3us 1900us 5us stream=30
DESC
cat > late.py <<'PY'
import json, sys
# the communication operator ranges moved to the end of the trace (after every call they enclose)
d = json.load(open(sys.argv[1]))
c = lambda e: e.get("cat") == "cpu_op" and e.get("name") in ("c10d::allreduce_", "record_param_comms")
d["traceEvents"] = [e for e in d["traceEvents"] if not c(e)] + [e for e in d["traceEvents"] if c(e)]
json.dump(d, open(sys.argv[2], "w"))
PY
sed -e 's/^op "c10d::allreduce_"/op "c10d::barrier_"/' -e 's/ comm=allreduce:float:1024:1024:2:0$//' c.ktdesc >n.ktdesc
run 'proftool-gen kineto c.ktdesc -o c.json --scale 4M && python3 late.py c.json l.json && proftool import l.json -o l.ptm 2>/dev/null && proftool-gen kineto n.ktdesc -o n.json --scale 4M && python3 late.py n.json nl.json && proftool import nl.json -o nl.ptm 2>/dev/null && echo imported'
# out of start order: a range starts before a call that the file holds before it
run 'proftool dump l.ptm | awk '"'"'/^event track=0 / && (/kind=range/ || /kind=api/) { match($0, /start=[0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6) + 0; if (n++ && s < top) back++; if (s > top) top = s } END { print (back > 0 ? "out of start order: " back " events" : "in start order") }'"'"
cat > same.sh <<'SH'
# same.sh CMD...: streamed and whole (standard input that cannot be copied) alike
proftool "$@" l.ptm > a.txt 2>&1; ra=$?
cat l.ptm | TMPDIR=/nonexistent proftool "$@" - > b.txt 2>&1; rb=$?
sed -i -e "s#standard input#l.ptm#g" -e "s#'-'#'l.ptm'#g" b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $* (exit $ra, $(wc -l < a.txt) lines)" || echo "DIFFERS: $*"
SH
run "for c in 'steps' 'steps --format csv --wide' 'steps --steps 2-3 --format json' 'perf' 'flops' 'flops --steps 2-3' 'diff l.ptm --by step'; do bash same.sh \$c; done"
# it is read as a stream (two reads reach the end of the file: the scan, and the calls and activities,
# the read between them and the later ones replaying the event batches the scan kept), not whole
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'l.ptm': 100%"; }
run "term steps l.ptm -o s.txt; term perf l.ptm -o p.txt"
# the attribution matters: the add and copy kernels are communication under the ranges (step, communication,
# computation ns), not without
run 'for f in l nl; do proftool steps $f.ptm --format csv --wide | sed -n 3p | cut -d, -f3,13,14; done'
# a truncated model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s l.ptm) * 9 / 10 )) l.ptm > cut.ptm; proftool steps cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
