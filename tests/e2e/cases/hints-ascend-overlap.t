# proftool hints streams an Ascend model whose step windows overlap or come out of start order
# (proftool-hints(1) MEMORY): a step trace whose end point goes back in time makes the next step's
# window start inside an earlier one. The same bytes as --in-memory and as standard input, in every
# format and with thresholds moved so that the rules that read the events fire, on generated jobs of
# several event batches; none is loaded whole (no "indexing the events" on a terminal); a truncated
# and a corrupt model of the shape.
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
# endback.py FILE STEP J: the end point of step STEP moves to the middle of step J + 1
cat >endback.py <<'PY'
import struct, sys
f, step, j = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(open(f, 'rb').read())
ends = [o for o in range(0, len(d) - 19, 20) if struct.unpack_from('<Q', d, o)[0] in (255, 65535)]
t = lambda k: struct.unpack_from('<Q', d, ends[k - 1] + 12)[0]
struct.pack_into('<Q', d, ends[step - 1] + 12, t(j) + (t(j + 1) - t(j)) // 2)
open(f, 'wb').write(d)
PY
job() { # DEVICE STEPS FP_AT
	cat <<D
device $1
era text backend vm
seed $((3 + $1))
jitter 3us
opgen 20 prefix Default/net/ types MatMul,Add,Cast,Mul,Adam,GatherV2,ReLU,TransData stream 3 task 30088 dur 3us-60us
unnamed streams 513-516 task 60000 count 12 dur 5us gap 1us offset 100us
steps $2 jobtag 10010 stream 519 task 1 fp-at $3
reduce stream 520 tags 3-4 offset 200us dur 100us
point 1 Default/net/MatMul-op1
point 2 Default/net/TransData-op20
D
}
# ov: step 120's end goes back into step 118: step 121's window starts inside step 118's (in start
# order still); two: device 0's step 60 ends inside step 21 (step 61's window comes out of start
# order), device 1 (a later first point per step) has step 30 end inside step 28
run 'job 1 200 20us >ov.desc && proftool-gen ov.desc -o ov && python3 endback.py ov/training_trace.*.1.slice_0 120 117 && proftool import ov -o ov.ptm 2>/dev/null && echo imported'
run 'job 0 100 20us >t0.desc && job 1 100 50us >t1.desc && proftool-gen t0.desc -o two && proftool-gen t1.desc -o two && python3 endback.py two/training_trace.*.0.slice_0 60 20 && python3 endback.py two/training_trace.*.1.slice_0 30 27 && proftool import two -o two.ptm 2>/dev/null && echo imported'
run 'proftool info ov.ptm | grep -E "^(events|steps)"'
run 'proftool steps ov.ptm --steps 116-122 --format csv'
run 'proftool steps two.ptm --steps 59-61 --format csv'
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.flops_util.low_pct=100 --hint hints.flops_util.min_coverage_pct=0 --hint hints.flops_util.peak_tflops=1000000 --hint hints.rank_spread.pct=0 --hint hints.rank_flops.pct=0 --hint hints.pp.stages=2 --hint hints.pp.stage_comm_pct=0 --hint hints.pp.stage_flops_pct=0'
IDLE='--hint hints.idle.min_pct=0 --hint hints.idle.class_pct=0'
for m in ov.ptm two.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 100-130' '--steps 1 --format csv' '--time-window 0.02s:0.05s --format csv' '--device 0' '--fail-on info'; do bash same.sh $m \$v; done"
	run "for v in '--format csv' '--format json --show-suppressed' '--steps 20-70 --format csv' '--steps 118-121 --format csv' '--device 1'; do bash same.sh $m $FIRE \$v; done"
	run "for g in 0 1000 1000000000; do bash same.sh $m $IDLE --hint hints.idle.kernel_wait_gap_ns=\$g --format csv; done"
	# streamed: the in-memory pass's progress (indexing the events) never shows
	run "script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" hints $m >/dev/null' /dev/null | tr '\r' '\n' | grep -c 'indexing the events' || true"
done
# the first busy point of each window (the rank table's preparing column) with windows out of order
run "proftool hints two.ptm --hint hints.rank_spread.pct=0 --format csv 2>/dev/null | grep column=preparing | sed 's/.*,//'"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c 40000 ov.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "import sys; d = bytearray(open(\"two.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool hints bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
