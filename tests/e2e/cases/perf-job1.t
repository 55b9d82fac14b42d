# proftool perf on JOB1: reader cost = iteration interval (ascend.md §3.6, summary.md §10).
requires_shared
run proftool perf '$SHARED/fixtures/mindinsight/JOB1'
run proftool perf '$SHARED/fixtures/mindinsight/JOB1' --batch-size 32 --skip-steps 1
run proftool perf '$SHARED/fixtures/mindinsight/JOB1' --format csv
run proftool perf '$SHARED/fixtures/mindinsight/JOB1' --format json --steps 2-20
run proftool perf '$SHARED/fixtures/mindinsight/JOB1' --format jsonl --batch-size 256
