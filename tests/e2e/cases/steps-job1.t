# proftool steps on MindInsight's JOB1 (ascend.md §3.6, §6): every format,
# the step filters, and the avg row (mean iteration interval 90353603 ns).
requires_shared
run proftool import '$SHARED/fixtures/mindinsight/JOB1' -o job1.ptm
run proftool steps job1.ptm
run proftool steps job1.ptm --format csv
run proftool steps job1.ptm --format json
run proftool steps job1.ptm --format jsonl --steps 19-20
run proftool steps job1.ptm --format csv --steps 1-1
run proftool steps job1.ptm --format csv --time-unit us --steps 2-3
run proftool steps job1.ptm --format csv --time-window 2.3s:2.6s
run proftool steps job1.ptm --format csv --time-window :500ms --device 0
run proftool steps '$SHARED/fixtures/mindinsight/JOB1' --format csv --steps 20-
