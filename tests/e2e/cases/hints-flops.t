# proftool hints LOW_FLOPS_UTIL on generated Ascend jobs (hints.md §6 case 15): AI Core counters give
# the MatMul's FLOPs, info.json (aic 1000 MHz, 32 cores) the peak 2.62144e14 FLOP/s.
job() { # PMU_CUBE_FP16 OTHER_DUR
	cat <<DESC
device 0
info yes aic 1000 cores 32
steps 1
op Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 10ms
op Default/net/Custom-op2 type CustomThing stream 5 task 2 dur $2
aicore Default/net/MatMul-op1 pmu $1,0,0,0,0,0,0
DESC
}
# F = 16000000 x 16^3 x 2 = 1.31072e11 over 10 ms: 13.1072 TFLOPS = 5.0% of the peak; coverage 10/16 = 62.5%
job 16000000 6ms >low.desc
# F = 5.24288e11: 20.0%, no hint
job 64000000 6ms >ok.desc
# 12 ms without FLOPs: coverage 10/22 = 45.5% < 50, not evaluated
job 16000000 12ms >cov.desc
run proftool-gen low.desc -o low
run proftool-gen ok.desc -o ok
run proftool-gen cov.desc -o cov
run proftool hints low --format csv
run proftool hints low
run proftool hints low --format json
run proftool hints low --format csv --hint hints.flops_util.peak_tflops=100
run 'proftool hints ok --format csv | grep -c LOW_FLOPS_UTIL'
run 'proftool hints cov --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep LOW_FLOPS_UTIL'
run proftool hints --explain LOW_FLOPS_UTIL --hint hints.flops_util.low_pct=25
