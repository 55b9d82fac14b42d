# proftool hints reads a model file as a stream with --comm-pattern, and with communication host ranges
# in a file without launch links (proftool-hints(1) MEMORY): the pattern replaces the built-in names of
# communication kernels and Operator ranges in the streamed reads as in the index (summary.md §2.5), and
# without links the launching call of a kernel is the first API call of its correlation id in the file,
# as the whole load joins them (with several traced processes whichever made it: steps-comm-vote-stream.t).
# The same bytes as --in-memory and standard input, on traces of several event batches,
# with selections, thresholds that make the rules fire and patterns that match kernels, Operator ranges,
# nothing or mangled names. The trace is that of hints-comm-stream.t (an allreduce range launching an
# NCCL kernel and, from inside it, an elementwise kernel: communication by its launch; a kernel of
# another thread launched at the same time: not; a receive kernel launched inside a Communication
# range; an annotation of a communication name: not) and an Operator range my_exchange launching a
# kernel ring_exchange(float*), mangled.
sed -n '/^cat > cr.ktdesc/,/^KT$/p' "$SRC/tests/e2e/cases/hints-comm-stream.t" | sed '1d;$d' |
	sed 's/^sync "Stream Sync"/op "my_exchange" 1700us 50us\nkernel "_Z13ring_exchangePf" 1710us 2us 1800us 40us stream=30\n&/' > cr.ktdesc
run 'grep -c -E "^(op \"(c10d::allreduce_|my_exchange)\"|kernel \"_Z13ring_exchangePf\")" cr.ktdesc'
sed 's/^pid 4242/pid 4243/; s/rank 0 world/rank 1 world/; s/^thread 4242/thread 4243/; s/unpack_recv_buffer" 910us 4us 1000us 30us/unpack_recv_buffer" 910us 4us 1000us 60us/' cr.ktdesc > r1.ktdesc
run 'proftool-gen kineto cr.ktdesc -o crs.json --scale 4M && proftool import crs.json -o crs.ptm 2>/dev/null && echo imported'
run 'proftool-gen kineto r1.ktdesc -o r1.json --scale 2M && proftool-gen kineto cr.ktdesc -o r0.json --scale 2M && proftool import r0.json r1.json -o two.ptm 2>/dev/null && echo imported'
# the same models without their launch links (a writer that wrote none): several event batches of 4096
run 'for m in crs two; do python3 "$SRC/tests/e2e/ptm-edit" $m.ptm $m-nl.ptm drop:22 || exit 1; proftool dump $m.ptm | grep -c "^gpu-link"; proftool dump $m-nl.ptm | grep -c "^gpu-link"; done; proftool info crs-nl.ptm | grep -E "^events"'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.launch.queue_delay_us=0 --hint hints.comm.exposed_pct=0 --hint hints.rank_spread.pct=0 --hint hints.pp.receive_pct=0'
for m in crs-nl.ptm two-nl.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--steps 2-3' '--time-window 4ms:11ms --format csv' '--device 0 --format csv'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--steps 2-40 --format csv'; do bash same.sh $m $FIRE \$v; done"
done
for m in crs.ptm crs-nl.ptm two.ptm two-nl.ptm; do
	run "for p in 'nccl|allreduce' 'gemm|my_exchange' '^ring_exchange' '^zzz' 'RING_EXCHANGE|_Z13'; do bash same.sh $m $FIRE --format csv --comm-pattern \"\$p\"; bash same.sh $m --comm-pattern \"\$p\" --no-demangle --steps 2-9; done"
done
# an Ascend model streams with the pattern too (its tasks keep ascend.md §3.8; a kernel goes by the pattern)
run 'proftool import "$SRC/testdata/ascend/sample" -o sample.ptm 2>/dev/null && echo imported'
run "for p in 'MatMul|Cast' 'hcom' '^zzz'; do bash same.sh sample.ptm --comm-pattern \"\$p\" --format csv; done"
# the calls measured in a read of their own
run "PT_TEST_HINTS_CALLS_CAP=5 bash same.sh crs-nl.ptm $FIRE --comm-pattern 'nccl|my_exchange' --steps 2-40 --format csv"
# the streamed rules themselves: without links the elementwise kernel launched inside the allreduce range
# and the receive are communication as with them; a pattern that names the Operator range my_exchange
# makes the ring kernel communication by its launch, one that names the ring kernel (demangled) by its name
run "for m in crs crs-nl; do proftool hints \$m.ptm $FIRE --format csv | cut -d, -f1-6 | grep -E 'COMM_EXPOSED|PP_RECEIVE'; done"
run "for p in '^zzz' 'my_exchange' '^ring_exchange' 'ring_exchange' ; do proftool hints crs-nl.ptm $FIRE --format csv --comm-pattern \"\$p\" | cut -d, -f1-6 | grep -E 'COMM_EXPOSED'; done"
# a truncated and a corrupt model without links: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s crs-nl.ptm) * 9 / 10 )) crs-nl.ptm > cut.ptm; proftool hints cut.ptm --comm-pattern nccl -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'cp crs-nl.ptm bad.ptm; printf "\377\377\377\377\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s crs-nl.ptm) * 3 / 4 )) conv=notrunc 2>/dev/null; proftool hints bad.ptm > /dev/null; echo "exit $?"'
