# Real samples: JOB1 against MindInsight's minddata_pipeline_raw_0.csv, JOB2 and minddata (ascend.md §6).
requires_shared
F='$SHARED/fixtures/mindinsight'
# (the number-by-number comparison with expected/minddata_pipeline_raw_0.csv is in tests/unit/test-pass-dataset.c)
run proftool dataset $F/JOB1 --format csv
run proftool dataset $F/JOB1 --format csv --hint hints.md_pipeline.rules=2020
run proftool dataset $F/JOB2 --format csv
run proftool dataset $F/minddata --format csv
run proftool dataset $F/minddata --device 1
run proftool import $F/JOB1 --minddata $F/minddata -o merged.ptm
run 'proftool dump merged.ptm | grep -E "^(source|md-op|md-record|device)"'
