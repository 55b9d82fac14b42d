# proftool flops on a generated job with AI Core counters (ascend.md §2.9, §3.9):
# counter formulas, analytical beside them, every view and format, malformed aicore.data.
cat >a.desc <<'DESC'
device 0
info yes aic 1000 cores 32
steps 3
op Default/net/dense1/MatMul-op1 type MatMul stream 5 task 1 dur 100us in FRACTAL_NZ:39:"4,8,16,16" in FRACTAL_NZ:39:"2,4,16,16" out FRACTAL_NZ:40:"2,8,16,16"
op Default/net/dense1/BiasAdd-op2 type BiasAdd stream 5 task 2 dur 10us in DefaultFormat:40:"128,32" in DefaultFormat:40:"32" out DefaultFormat:40:"128,32"
op Gradients/Default/net/dense1/gradMatMul/MatMul-op3 type MatMul stream 5 task 3 dur 200us in FRACTAL_NZ:39:"4,8,16,16" in FRACTAL_NZ:39:"2,8,16,16" out FRACTAL_NZ:40:"2,4,16,16"
op Default/net/Adam-op4 type Adam stream 5 task 4 dur 20us
op Default/net/Cast-op5 type Cast stream 5 task 5 dur 5us in DefaultFormat:40:"128,32" out DefaultFormat:39:"128,32"
aicore Default/net/dense1/MatMul-op1 pmu 1000,10,100,1000,10000,1,2
aicore Gradients/Default/net/dense1/gradMatMul/MatMul-op3 pmu 3,0,0,0,0,0,0,7
aicore-task 9 77 pmu 1,1,1,1,1,1,1
DESC
run proftool-gen a.desc -o j --print-expect
run 'grep aicore j/EXPECT'
run proftool import j -o j.ptm --dtype-table old
run "proftool dump j.ptm | grep -E '^aicore|aicore\\.'"
run proftool flops j.ptm
run proftool flops j.ptm --format csv
run proftool flops j.ptm --format json --by model
run proftool flops j.ptm --format jsonl --by step
run proftool flops j.ptm --by type --format csv --time-unit us
run proftool flops j.ptm --by scope
run proftool flops j.ptm --by scope --scope-depth 2 --format csv
run proftool flops j.ptm --format folded
run proftool flops j.ptm --format folded --scope-depth 2
run proftool flops j.ptm --by model --peak 100 --format csv
run proftool flops j.ptm --by step --steps 2-3 --format csv
run proftool flops j --dtype-table old --by model --format csv
# malformed aicore.data: all-zero records and a truncated tail are warnings; an empty file is no records
cp a.desc b.desc
echo 'aicore-file zero 2 tail 100' >>b.desc
run proftool-gen b.desc -o jb
run "proftool dump jb --dtype-table old | grep -E '^stat.*aicore'"
cp a.desc c.desc
echo 'aicore-file empty' >>c.desc
run proftool-gen c.desc -o jc
run "proftool flops jc --dtype-table old --format csv | cut -d, -f2,7,11-14"
# usage errors
run proftool flops j.ptm --by nothing
run proftool flops j.ptm --peak -3
run proftool flops j.ptm --scope-depth 0
run proftool flops
