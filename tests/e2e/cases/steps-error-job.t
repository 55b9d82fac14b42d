# ERROR_JOB (device 10): steps 21-40 have no reduce points, so their pair
# cells are empty (not 0) and the pair averages cover steps 2-20 only (Q19, Q20).
requires_shared
run proftool steps '$SHARED/fixtures/mindinsight/ERROR_JOB' --format csv
run proftool steps '$SHARED/fixtures/mindinsight/ERROR_JOB' --device 10 --steps 19-22
run proftool steps '$SHARED/fixtures/mindinsight/ERROR_JOB' --device 3
