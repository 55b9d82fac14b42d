# proftool summary on the real JOB3 and JOB_AICPU samples (summary.md §8.9).
requires_shared
run proftool import '$SHARED/fixtures/mindinsight/JOB3' -o job3.ptm
run 'proftool summary job3.ptm --view overview,model,distributed,optype'
run 'proftool summary job3.ptm --view operator,kernel --top 5'
run 'proftool summary job3.ptm --view kernel --format csv | wc -l'
run proftool summary '$SHARED/fixtures/mindinsight/JOB_AICPU' --view aicpu --format csv
run proftool summary '$SHARED/fixtures/mindinsight/JOB_AICPU' --view aicpu
