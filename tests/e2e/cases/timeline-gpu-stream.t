# proftool timeline over a model file of GPU data reads it as a stream (proftool-timeline(1) MEMORY):
# the same bytes as the in-memory path (--in-memory), with every option, on CUPTI dumps (launch
# arrows, memcpy/memset, syncs, several streams and threads), Kineto traces (host ranges, step
# ranges) and Nsight Systems exports; --steps and --time-window stream too (more of them: timeline-gpu-sel.t).
gpu_models
# the benchmark's dump scaled down: repetitions of a real loop, each stream's syncs and copies written
# apart from its kernels (held as stragglers), several host threads, equal starts on a thread
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M --id-stride 1 && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
# a dump with NVTX ranges scaled over several event batches: the importer writes the ranges after all
# the calls they enclose, so each one is read long after its start (every range a straggler)
run 'sed "/^end\$/d" td/cupti/launch.cdtxt > nvtx.cdtxt && proftool-gen cupti nvtx.cdtxt -o n.cdump --scale 1M && proftool import n.cdump -o nvtx.ptm 2>/dev/null && proftool info nvtx.ptm | grep "^events"'
# streamed (read more than once), not loaded whole: the comparisons below compare the two paths
run "script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" timeline -o t.json nvtx.ptm' /dev/null | tr '\\r' '\\n' | grep -c \"reading 'nvtx.ptm': 100%\"; rm -f t.json"
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one
m=$1; shift
rm -rf a b; mkdir a b
proftool timeline $m "$@" -o a/t.json > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b/t.json > b.txt 2>&1; rb=$?
sed -i "s#a/t#OUT#g" a.txt; sed -i "s#b/t#OUT#g" b.txt
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files)" || echo "DIFFERS: $m $*"
SH
for m in launch.ptm scaled.ptm nvtx.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm; do
	run "for v in '' '--scope-depth 2' '--steps 2-3' '--time-window 0.001s:0.002s' '--no-flows' '--no-overlap' '--no-demangle' '--gzip' '--split-mb 1' '--step-pattern Foo' '--step-pattern ProfilerStep.*'; do bash same.sh $m \$v; done"
done
# a Kineto operator that only its range info makes communication (a "Collective name" argument, a
# name without a collective's word): the first read, which takes the range infos one at a time, reads
# the model whole, its kernel's time communication
cat > comm.sed <<'SED'
22s/"args": {}/"args": {"Collective name": "send"}/
SED
run 'sed -f comm.sed td/kineto/train-current.pt.trace.json > comm.json && proftool import comm.json -o comm.ptm 2>/dev/null && echo imported'
run "for v in '' '--steps 2-3' '--no-flows' '--scope-depth 2'; do bash same.sh comm.ptm \$v; done; proftool timeline comm.ptm -o - | grep -c 'Pure Communication'"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; proftool timeline cut.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"real-13.0-h200-torch-loop.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
