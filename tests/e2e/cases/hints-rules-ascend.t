# proftool hints, rule by rule, on generated Ascend jobs (hints.md §3, §4 gate G2, §6 case 4): MD_QUEUE
# outcomes 2 and 3 with the gate they drive, and RANK_FLOPS; for each a job that fires it and one that
# does not, in every output format, with the rules not under test turned off (helpers: hints-rules.sh).
. "$SRC/tests/e2e/cases/hints-rules.sh"

# MD_QUEUE (case 4) with case 5's first tree (MD_PIPELINE flags Map_2) and three steps 1 ms apart (STEP_GAP
# fires, so gate G1 lets the pipeline hints through). Host queue 0 0 0 5 5 5 5 5 5 5: 3 empty of 10, not
# above 30%. The get_next queue of the device holds 0, 1, 2 batches in steps 1 to 3 (`h2d`: one empty
# sample) -> outcome 2, warn, stage:host_to_device, and G2 suppresses MD_PIPELINE and MD_BOTTLENECK_OP
# (MapOp_2, CPU-bound); or 3, 4, 5 (`fed`) -> outcome 3, info, stage:none, and both are shown.
mdjob() { # NAME GET_NEXT_FIRST_SIZE
	cat >$1.desc <<D
info yes
steps 3 fp-at 1ms
op Default/MatMul-op1 type MatMul dur 100us task 1
aicpumi queue $2
md-pipeline interval 10
md-op 3 ImageFolderOp workers 8 queue 100 sizes 95,95,95
md-op 2 MapOp workers 4 queue 100 children 3 sizes 40,40,40
md-op 1 MapOp workers 4 queue 100 children 2 sizes 85,85,85
md-op 0 BatchOp workers 1 children 1 no-metrics
md-cpu interval 100 stamps 100,200 device-idle 30,10 device-user 50,60 device-sys 10,20
md-cpu-op 2 user 300,320 sys 20,40
md-cpu-op 3 user 5,5 sys 1,1
D
	local b=0 s
	for s in 0 0 0 5 5 5 5 5 5 5; do
		b=$((b + 1))
		echo "md-devq 1 64 $b $s" >>$1.desc
	done
	proftool-gen $1.desc -o $1 || echo "proftool-gen failed on $1.desc"
}
mdjob h2d 0
mdjob fed 3
# the get_next samples the verdict reads
run "proftool dataset h2d --format csv --table queues | grep -E '^(queue|get_next|host),'"
run "proftool dataset fed --format csv --table queues | grep -E '^(queue|get_next|host),'"
formats h2d MD_QUEUE MD_PIPELINE MD_BOTTLENECK_OP STEP_GAP
formats fed MD_QUEUE MD_PIPELINE MD_BOTTLENECK_OP STEP_GAP
# G2 names itself under --show-suppressed; with the MindData gates off both are shown
run "proftool hints h2d --format csv --show-suppressed --hint hints.disable=\$(except MD_QUEUE MD_PIPELINE MD_BOTTLENECK_OP STEP_GAP) -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep -v ',disabled,'"
run "proftool hints h2d --show-suppressed --hint hints.disable=\$(except MD_QUEUE MD_PIPELINE MD_BOTTLENECK_OP STEP_GAP) | grep -v '^\[disabled\]'"
run "proftool hints h2d --format csv --hint hints.gate.minddata=off --hint hints.disable=\$(except MD_QUEUE MD_PIPELINE MD_BOTTLENECK_OP STEP_GAP)"
# within one rule and rank, hints go by scope (hints.md §1.1): MD_OP_CPU of op:ImageFolderOp_3 (8 idle
# workers) before op:MapOp_2 (CPU-bound), where proftool dataset lists the ops from the root down
run "proftool hints fed --format csv --hint hints.disable=\$(except MD_OP_CPU STEP_GAP) | cut -d, -f1-6"
run "proftool dataset fed --format csv --table hints | grep ',MD_OP_CPU,' | cut -d, -f1-6"
# proftool dataset shows the same MD_QUEUE row, ungated, with the same digits
run "proftool dataset h2d --format jsonl | grep '\"view\":\"hints\"'"
run "proftool dataset fed --format jsonl | grep '\"view\":\"hints\"'"

# RANK_FLOPS: two devices (ranks) run a 10 ms MatMul each step; the AI Core counters give rank 1 half the
# FLOPs of rank 0 -> rank 1 reaches 33.3% less than the mean -> warn; the same counters on both -> none.
fjob() { # NAME CUBE_FP16_RANK1
	local d cube
	for d in 0 1; do
		cube=16000000
		[ $d = 1 ] && cube=$2
		cat >$1.$d.desc <<D
device $d
info yes aic 1000 cores 32
steps 1
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
aicore Default/net/MatMul-op1 pmu $cube,0,0,0,0,0,0
D
		proftool-gen $1.$d.desc -o $1 || echo "proftool-gen failed on $1.$d.desc"
	done
}
fjob fslow 8000000
fjob feven 16000000
formats fslow RANK_FLOPS
formats feven RANK_FLOPS
# the FLOPS of each rank, as LOW_FLOPS_UTIL reports them
run "proftool hints fslow --format csv --hint hints.flops_util.low_pct=100 --hint hints.disable=\$(except LOW_FLOPS_UTIL) | cut -d, -f1-7"
