# Real samples (ascend.md §6): the host CPU rows of `summary --view device` on
# minddata/minddata_cpu_utilization_0.json. The fixtures hold no MindInsight output for this file, so
# the figures are checked against what MindInsight's MinddataCpuUtilizationAnalyser computes from it
# (query(): avg_value = round(sum / len) per series; _get_minddata_cpu_utilization_steps_info():
# each sample goes to the batch of the device-queue connector record at or before it):
#   time_stamp 10, 20, 30 ms; device user/sys 10, 20, 30 -> 20 / 20; io and idle 10 -> 10 / 10;
#   context_switch_count 10, 20, 30 -> MindInsight's avg 20, proftool's sum 60 (summary.md §3.1);
#   process user/sys 10, 20, 30 -> 20 / 20; the one connector record `1 64 1 0 10` (batch 1 at 10 ms)
#   puts all three samples in step 1 (MindInsight's step_info ['1', '1', '1']).
# proftool: CPU(Process) 20 + 20 = 40.00, CPU(System) 100 - 10 - 10 = 80.00 (MindInsight shows no such
# figure); means to two decimals where MindInsight rounds to integers (summary.md §7 M2).
# The minddata folder alone has no step trace: only the `all` row. With JOB1 (device 0, 20 steps) the
# samples land in step 1 as MindInsight places them; the other 19 steps have none.
requires_shared
F='$SHARED/fixtures/mindinsight'
run proftool summary $F/minddata --view device
run proftool summary $F/minddata --view device --format csv
run proftool summary $F/minddata --view device --format json
run proftool import $F/JOB1 $F/minddata -o job1.ptm
run 'proftool summary job1.ptm --view device --format csv | grep -v ",0,,,,,,,,,,$"'
run proftool summary job1.ptm --view device --steps 1-2
run proftool summary job1.ptm --view device --steps 2-3 --format json
# the same mean idle feeds MD_CPU_BUSY: busy = 100 - 10 = 90 > 80 (ascend.md §6: "90 % busy")
run 'proftool dataset $SHARED/fixtures/mindinsight/minddata --format csv --table hints 2>/dev/null | grep MD_CPU_BUSY'
