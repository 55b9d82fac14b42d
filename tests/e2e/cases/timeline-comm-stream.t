# proftool timeline over a model file of a Kineto trace whose host ranges make kernels communication
# (summary.md §2.5: a kernel launched inside a "c10d::allreduce_" operator range, or a descendant of
# one, is communication by attribution, whatever its name): the kineto profile, which without
# --extra-tracks reads no kernel's class, reads it as a stream (proftool-timeline(1) MEMORY), the same
# files as --in-memory; with --steps and --time-window too. The trace is scaled (several batches of
# events, range infos and launch links), the communication ranges crossing the batches.
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
# same.sh MODEL OPTIONS...: the streamed files (and messages, exit status) and the in-memory ones
m=$1; shift
rm -rf a b
proftool timeline $m "$@" -o a > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b > b.txt 2>&1; rb=$?
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files)" || echo "DIFFERS: $m $*"
SH
run "for v in '' '--extra-tracks' '--steps 2-3' '--time-window 0.01s:0.05s' '--no-flows' '--step-pattern Foo'; do bash same.sh kc.ptm --profile kineto \$v; done"
# it is read as a stream: four reads of the file and more, against one
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'kc.ptm': 100%"; }
run "term timeline --profile kineto kc.ptm -o ks; term timeline --profile kineto --in-memory kc.ptm -o km"
# the kernels under the all-reduce range are communication in the overlap rows of --extra-tracks
run "proftool timeline kc.ptm --profile kineto --extra-tracks -o kx && grep -c 'Pure Communication' kx/*.json"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(( $(stat -c %s kc.ptm) * 2 / 3 )) kc.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "d = bytearray(open(\"kc.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
