# proftool hints over a model file of Ascend ranks reads it as a stream (proftool-hints(1) MEMORY): the
# same bytes as --in-memory and as standard input, which loads the model whole, in every format and with
# thresholds moved so that the rules that read the events fire; a model it cannot stream (CUPTI: GPU
# ranks) is read whole and prints the same too ("same: ..."). recv.ptm runs a Receive op (PP_RECEIVE's Rv).
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
ln -s "$SHARED/fixtures" fx
requires_shared
rank() { # DEVICE CUBE_FP16 ALLREDUCE_DUR SECOND_TYPE STEPS
	cat <<D
device $1
info yes aic 1000 cores 32
steps $5
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
op Default/net/$4-op2 type $4 stream 6 task 2 dur 1ms
op Default/net/AllReduce-op3 type HcomAllReduce stream 7 task 3 dur $3
op Default/net/Cast-op4 type Cast stream 5 task 4 dur 30us
aicore Default/net/MatMul-op1 pmu $2,0,0,0,0,0,0
D
}
job() { # DIR SECOND_TYPE
	for d in 0 1 2 3; do
		rank $d $((16000000 * (d + 1))) $((d + 1))00us $2 $((3 + d)) >$1.$d.desc
		proftool-gen $1.$d.desc -o $1 || echo "proftool-gen failed"
	done
}
run 'job four Cast && proftool import four -o four.ptm 2>/dev/null && echo imported'
run 'job recv Receive && proftool import recv -o recv.ptm 2>/dev/null && echo imported'
run 'proftool import "td/ascend/sample" -o sample.ptm 2>/dev/null && echo imported'
run 'proftool import "td/ascend/binary" -o binary.ptm 2>/dev/null && echo imported'
run 'for j in JOB1 JOB2 JOB3 JOB4 JOB_AICPU; do proftool import "fx/mindinsight/$j" -o $j.ptm 2>/dev/null || echo "no $j"; done'
run proftool-gen cupti 'td/cupti/launch.cdtxt' -o app.cdump
run 'proftool import app.cdump -o cupti.ptm 2>/dev/null && echo imported'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
# every rule that reads the events fires: utilisation, idle time (each class), communication, top ops,
# FLOPs utilisation, the unexplained time, the step gap and the truncated last step
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.flops_util.low_pct=100 --hint hints.flops_util.min_coverage_pct=0 --hint hints.flops_util.peak_tflops=1000000 --hint hints.rank_spread.pct=0 --hint hints.rank_flops.pct=0 --hint hints.pp.stages=2 --hint hints.pp.stage_comm_pct=0 --hint hints.pp.stage_flops_pct=0 --hint hints.pp.receive_pct=0'
IDLE='--hint hints.idle.min_pct=0 --hint hints.idle.class_pct=0'
for m in four.ptm recv.ptm sample.ptm binary.ptm JOB1.ptm JOB2.ptm JOB3.ptm JOB4.ptm JOB_AICPU.ptm cupti.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 0.001s:0.002s --format csv' '--device 1' '--device 5' '--fail-on info'; do bash same.sh $m \$v; done"
	run "for v in '--format csv' '--format json --show-suppressed' '--steps 2-3 --format csv' '--device 0'; do bash same.sh $m $FIRE \$v; done"
	run "for g in 0 1000 1000000000; do bash same.sh $m $IDLE --hint hints.idle.kernel_wait_gap_ns=\$g --format csv; done"
done
# the streamed hints themselves
run proftool hints four.ptm $FIRE --format csv
run "proftool hints recv.ptm $FIRE --format csv | grep -E 'PP_|COMM_EXPOSED|RANK_SPREAD'"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c 3000 JOB3.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "import sys; d = bytearray(open(\"JOB3.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool hints bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
