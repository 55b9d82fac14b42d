# proftool timeline (the viewer profile) streams the models whose kernels are communication by where
# they were launched in the shapes its first read cannot settle alone (proftool-timeline(1) MEMORY,
# summary.md §2.5), the same bytes as --in-memory: a range that only its range info makes
# communication (a record_param_comms operator with collective arguments: type Communication, a name
# that names no collective), whose launch links all come before it in the file (a read again takes its
# place and the links); launch links after the range infos (ptm-edit last:22); no launch links at all
# (the kernels join the first call of their correlation id); every activity linked twice, the second
# link naming another call (the last link wins: the output differs from the model linked once); two
# ranks without links. The traces are scaled (several batches of events, range infos and links).
ln -s "$SRC/testdata" td
cat td/kineto/train-current.ktdesc - >rc.ktdesc <<'DESC'
op "record_param_comms" 1600us 150us comm=allreduce:Float:1024:1024:2:0
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "vectorized_elementwise_kernel<add>" 1625us 3us 1735us 9us stream=30
DESC
sed -e 's/^op "record_param_comms" .*/op "c10d::allreduce_" 1600us 150us/' rc.ktdesc >kc.ktdesc
sed -e 's/^pid 4242/pid 4243/' -e 's/^rank 0 world 2/rank 1 world 2/' rc.ktdesc >rc1.ktdesc
E="$SRC/tests/e2e/ptm-edit"
run 'for d in rc kc; do proftool-gen kineto $d.ktdesc -o $d.json --scale 4M && proftool import $d.json -o $d.ptm 2>/dev/null || exit 1; done; proftool-gen kineto rc1.ktdesc -o rc1.json --scale 2M && proftool import rc.json rc1.json -o two.ptm 2>/dev/null && echo imported'
run "python3 \"$E\" rc.ptm last.ptm last:22 && python3 \"$E\" rc.ptm nolink.ptm drop:22 && python3 \"$E\" rc.ptm twice.ptm links-twice && python3 \"$E\" kc.ptm kctwice.ptm links-twice && python3 \"$E\" two.ptm twonolink.ptm drop:22 && echo edited"
run 'proftool info rc.ptm | grep -E "^events"; proftool dump rc.ptm | grep -c "^range-info.*type=\"Communication\""'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed file (and messages, exit status) and the in-memory one
m=$1; shift
proftool timeline $m "$@" -o a.json > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b.json > b.txt 2>&1; rb=$?
sed -i "s#a\.json#OUT#g" a.txt; sed -i "s#b\.json#OUT#g" b.txt
cmp -s a.json b.json && cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $m $* (exit $ra)" || echo "DIFFERS: $m $*"
SH
run "for m in rc last nolink twice kctwice two twonolink; do for v in '' '--steps 2-3' '--time-window 0.01s:0.05s'; do bash same.sh \$m.ptm \$v; done; done"
# each is streamed: six reads of the file (the first, the read again, then the streamed path's four),
# five where the first read took the links (kc, a name that names the collective), against one
term() { m=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$m': 100%"; }
run "for m in rc last nolink twice kctwice twonolink; do echo \"\$m: \$(term \$m.ptm timeline \$m.ptm -o s.json) reads, in memory \$(term \$m.ptm timeline --in-memory \$m.ptm -o w.json)\"; done"
# the attribution matters: the elementwise kernel under the range is communication (Pure Communication
# rows), none without the collective arguments; the second links change the classes
sed -e 's/ comm=allreduce:Float:1024:1024:2:0$//' rc.ktdesc >plain.ktdesc
run 'proftool-gen kineto plain.ktdesc -o plain.json --scale 4M && proftool import plain.json -o plain.ptm 2>/dev/null && echo imported'
run "proftool timeline rc.ptm -o r.json; proftool timeline plain.ptm -o p.json; grep -c '\"name\":\"Pure Communication\"' r.json p.json"
run "for m in rc kc; do proftool timeline \$m.ptm -o 1.json; proftool timeline \$( [ \$m = rc ] && echo twice || echo kctwice ).ptm -o 2.json; cmp -s 1.json 2.json && echo \"\$m: linked twice, the same\" || echo \"\$m: linked twice, other classes\"; done"
# malformed: the twice-linked model cut inside its second links, and one with a byte of them flipped:
# the error names the file, exit 1, no output file
run 'head -c $(( $(stat -c %s twice.ptm) - 2000 )) twice.ptm > cut.ptm; proftool timeline cut.ptm -o cut.json; echo "exit $?"; ls cut.json 2>&1 | sed "s/.*No such.*/no cut.json/"'
run 'python3 -c "d = bytearray(open(\"twice.ptm\", \"rb\").read()); d[len(d) - 2000] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o bad.json; echo "exit $?"; ls bad.json 2>&1 | sed "s/.*No such.*/no bad.json/"'
