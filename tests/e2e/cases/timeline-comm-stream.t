# proftool timeline over a model file of a Kineto trace whose host ranges make kernels communication
# (summary.md §2.5: a kernel launched inside a "c10d::allreduce_" operator range, or a descendant of
# one, is communication by attribution, whatever its name) reads it as a stream
# (proftool-timeline(1) MEMORY): the viewer profile and the kineto profile with --extra-tracks take
# the kernels' classes from the ranges, their range infos and the launch links; the kineto profile
# without them reads no class. The same files as --in-memory, with --steps and --time-window too. The
# trace is scaled (several batches of events, range infos and launch links), the communication
# ranges crossing the batches; what the stream cannot classify as the whole load does is read whole.
ln -s "$SRC/testdata" td
cat td/kineto/train-current.ktdesc - >kc.ktdesc <<'DESC'
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "vectorized_elementwise_kernel<add>" 1625us 3us 1735us 9us stream=30
DESC
run 'proftool-gen kineto kc.ktdesc -o kc.json --scale 4M && proftool import kc.json -o kc.ptm 2>/dev/null && echo imported'
run 'proftool info kc.ptm | grep -E "^events"'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed files (and messages, exit status) and the in-memory ones (the
# kineto profile: a folder; the viewer profile: OUT/t.json)
m=$1; shift
rm -rf a b
case " $* " in *" --profile kineto "*) oa=a ob=b ;; *) mkdir a b; oa=a/t.json ob=b/t.json ;; esac
proftool timeline $m "$@" -o $oa > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o $ob > b.txt 2>&1; rb=$?
sed -i "s#a/t#OUT#g" a.txt; sed -i "s#b/t#OUT#g" b.txt
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files)" || echo "DIFFERS: $m $*"
SH
run "for v in '' '--steps 2-3' '--time-window 0.01s:0.05s' '--no-flows' '--scope-depth 2' '--step-pattern Foo'; do bash same.sh kc.ptm \$v; done"
run "for v in '' '--extra-tracks' '--steps 2-3' '--time-window 0.01s:0.05s' '--extra-tracks --steps 2-3' '--no-flows' '--step-pattern Foo'; do bash same.sh kc.ptm --profile kineto \$v; done"
# it is read as a stream: four reads of the file and more, against one
term() { m=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$m': 100%"; }
run "term kc.ptm timeline kc.ptm -o s.json; term kc.ptm timeline --in-memory kc.ptm -o m.json; term kc.ptm timeline --profile kineto kc.ptm -o ks; term kc.ptm timeline --profile kineto --extra-tracks kc.ptm -o kx"
# two ranks with all-reduce ranges in one model: both profiles stream (the kineto profile a file per
# rank, each process's range infos by its own cursor), the same bytes as the whole load
sed -e 's/^pid 4242/pid 4243/' -e 's/^rank 0 world 2/rank 1 world 2/' kc.ktdesc >kc1.ktdesc
run 'proftool-gen kineto kc1.ktdesc -o kc1.json --scale 2M && proftool import kc.json kc1.json -o two.ptm 2>/dev/null && echo imported'
run "for v in '' '--steps 2-3' '--time-window 0.01s:0.05s'; do bash same.sh two.ptm \$v; bash same.sh two.ptm --profile kineto \$v; done"
run "term two.ptm timeline two.ptm -o s2.json; term two.ptm timeline --profile kineto two.ptm -o k2; term two.ptm timeline --in-memory two.ptm -o m2.json"
# the elementwise kernel launched under the all-reduce range is communication: the overlap rows differ
# from those of the same trace with the range renamed
sed -e 's/^op "c10d::allreduce_"/op "c10d::barrier_"/' kc.ktdesc >nc.ktdesc
run 'proftool-gen kineto nc.ktdesc -o nc.json --scale 4M && proftool import nc.json -o nc.ptm 2>/dev/null && echo imported'
run "proftool timeline kc.ptm -o tk.json; proftool timeline nc.ptm -o tn.json; grep -c '\"name\":\"Pure Communication\"' tk.json tn.json"
# a range that only its range info makes communication (a Communication range whose name names no
# collective) is streamed by the viewer profile too, the same bytes (six reads: the first, one more for
# that range's place and time, and the launch links dropped before it); the kineto profile, which reads
# no class, streams it (five)
cat > label.py <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("name") == "aten::add_" and e.get("cat") == "cpu_op":
        e.setdefault("args", {})["Collective name"] = "send"
json.dump(d, open(sys.argv[2], "w"))
PY
run 'python3 label.py nc.json lb.json && proftool import lb.json -o lb.ptm 2>/dev/null && echo imported'
run "for v in '' '--steps 2-3'; do bash same.sh lb.ptm \$v; done; term lb.ptm timeline lb.ptm -o l.json; term lb.ptm timeline --profile kineto lb.ptm -o lk"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(( $(stat -c %s kc.ptm) * 2 / 3 )) kc.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "d = bytearray(open(\"kc.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
# the viewer profile over the same truncated and corrupt models, and one cut inside the tables after
# the events (range infos, launch links, which its first read now takes): exit 1, no output file
run 'for f in cut bad; do proftool timeline $f.ptm -o $f.json; echo "exit $?"; ls $f.json 2>&1 | sed "s/.*No such.*/no $f.json/"; done'
run 'head -c $(( $(stat -c %s kc.ptm) - 3000 )) kc.ptm > end.ptm; proftool timeline end.ptm -o end.json; echo "exit $?"; ls end.json 2>&1 | sed "s/.*No such.*/no end.json/"'
run 'python3 -c "d = bytearray(open(\"kc.ptm\", \"rb\").read()); d[len(d) - 3000] ^= 0xff; open(\"bad2.ptm\", \"wb\").write(d)"; proftool timeline bad2.ptm -o bad2.json; echo "exit $?"; ls bad2.json 2>&1 | sed "s/.*No such.*/no bad2.json/"'
