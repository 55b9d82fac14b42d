# PP_STAGE_COMM and PP_STAGE_FLOPS (hints.md §3) on generated four-device Ascend jobs: every rank runs a
# MatMul (AI Core counters give its FLOPs), a Receive (pipeline receive op) and an HcomAllReduce, one after
# another. With --hint hints.pp.stages=2, ranks 0,1 form stage 1 and ranks 2,3 stage 2.
rank() { # DEVICE CUBE_FP16 ALLREDUCE_DUR [RECEIVE_TYPE]
	cat <<D
device $1
info yes aic 1000 cores 32
steps 1
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
op Default/net/Receive-op2 type ${4:-Receive} stream 6 task 2 dur 1ms
op Default/net/AllReduce-op3 type HcomAllReduce stream 7 task 3 dur $3
aicore Default/net/MatMul-op1 pmu $2,0,0,0,0,0,0
D
}
job() { # DIR STAGE2_CUBE STAGE2_ALLREDUCE [RECEIVE_TYPE]
	for d in 0 1 2 3; do
		if [ $d -lt 2 ]; then rank $d 16000000 500us "${4:-Receive}"; else rank $d $2 $3 "${4:-Receive}"; fi >$1.$d.desc
		proftool-gen $1.$d.desc -o $1 || echo "proftool-gen failed"
	done
}
# stage 2: twice the FLOPs (1.31072e11 against 6.5536e10 per step) and 3 ms of exposed AllReduce
run job skew 32000000 3ms
# balanced: the same work on every rank
run job even 16000000 500us
# no receive op (the second op is a Cast): no pipeline parallelism
run job norecv 32000000 3ms Cast
OFF=--hint=hints.disable=COMM_EXPOSED,RANK_SPREAD,RANK_FLOPS,LOW_FLOPS_UTIL,TOP_OPS,PP_RECEIVE
run proftool hints skew $OFF --hint hints.pp.stages=2 --format csv
run proftool hints skew $OFF --hint hints.pp.stages=2
run proftool hints skew $OFF --hint hints.pp.stages=2 --format json
# stage 2's exposed communication: 6 ms of 28.026 ms = 21.4%; with the threshold at 25% it does not fire
run 'proftool hints skew --hint hints.pp.stages=2 --hint hints.pp.stage_comm_pct=25 --format csv 2>/dev/null | grep -c PP_STAGE_COMM'
# stage 2 computes 33.3% above the stage mean; 40% is not reached
run 'proftool hints skew --hint hints.pp.stages=2 --hint hints.pp.stage_flops_pct=40 --format csv 2>/dev/null | grep -c PP_STAGE_FLOPS'
# four stages of one rank each: the same excess for ranks 2 and 3, the first is reported
run 'proftool hints skew --hint hints.pp.stages=4 --format csv 2>/dev/null | grep PP_STAGE'
run 'proftool hints even --hint hints.pp.stages=2 --format csv 2>/dev/null | grep -c PP_STAGE'
# not evaluated: no stage count, a count that does not divide the ranks, one stage, no receive ops
for h in '' '--hint hints.pp.stages=3' '--hint hints.pp.stages=1'; do
	run "proftool hints skew $h --format csv --show-suppressed -o hs/ 2>/dev/null && cat hs/hints.csv hs/hints_suppressed.csv | grep 'PP_STAGE_COMM.*not_evaluated'"
done
run 'proftool hints norecv --hint hints.pp.stages=2 --format csv --show-suppressed -o hs/ 2>/dev/null && cat hs/hints.csv hs/hints_suppressed.csv | grep PP_STAGE'
run proftool hints skew --hint hints.pp.stages=0
run proftool hints --explain PP_STAGE_COMM --hint hints.pp.stages=2
run proftool hints --explain PP_STAGE_FLOPS
