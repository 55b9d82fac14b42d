# proftool hints on generated MindData dumps: hints.md §6 cases 4 (MD_QUEUE), 5 (MD_PIPELINE) and 12 (gating).
pipeline() { # usages of ops 1, 2, 3 (percent of a queue of 100)
	cat <<D
md-pipeline interval 10
md-op 3 ImageFolderOp workers 8 queue 100 sizes $3,$3,$3
md-op 2 MapOp workers 4 queue 100 children 3 sizes $2,$2,$2
md-op 1 MapOp workers 4 queue 100 children 2 sizes $1,$1,$1
md-op 0 BatchOp workers 1 children 1 no-metrics
D
}
hostq() { local b=0; for s in "$@"; do b=$((b + 1)); echo "md-devq 1 64 $b $s"; done; }
# step trace with a 1 ms iteration interval: STEP_GAP fires, gate G1 passes
steps() { printf 'steps 3 fp-at 1ms\nop Default/MatMul-op1 type MatMul dur 100us task 1\n'; }
{ pipeline 85 40 95; hostq 0 0 0 5 5 5 5 5 5 5; } >gated.desc
{ pipeline 85 40 95; hostq 0 0 0 5 5 5 5 5 5 5; steps; } >open.desc
{ pipeline 85 10 95; hostq 0 0 0 0 5 6 7 8 9 10; steps; } >empty.desc
{ pipeline 90 88 95; hostq 5 5 5; steps; } >healthy.desc
for d in gated open empty healthy; do run proftool-gen $d.desc -o $d; done
# case 12: no STEP_GAP or INPUT_BOUND -> MD_PIPELINE suppressed by G1; MD_QUEUE outcome 4 (info)
run proftool hints gated --show-suppressed
run "proftool hints gated --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv"
run proftool hints gated --format json --show-suppressed
run proftool hints gated --format jsonl --show-suppressed
run proftool hints gated --format csv --fail-on warn
run proftool hints gated --format csv --fail-on info
run proftool hints gated --format csv --hint hints.gate.minddata=off
# case 5, first tree: Map_2 by child gap; 2020 and delta 0.6 flag nothing
run proftool hints open --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
run proftool hints open --format csv --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
run proftool hints open --format csv --hint hints.md_pipeline.rules=2020 --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
run proftool hints open --format csv --hint hints.md_pipeline.delta=0.6 --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
# case 4 outcome 1 (host queue empty 40%) with case 5's second tree
run proftool hints empty --format csv --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
# every op >= 0.8: the root alone, no MD_PIPELINE
run proftool hints healthy --format csv --hint hints.disable=UNEXPLAINED_TIME,LOW_DEVICE_UTIL,DEVICE_IDLE,TOP_OPS
run proftool hints open
