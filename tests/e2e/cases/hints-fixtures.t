# proftool hints on the real MindInsight samples (hints.md §6 case 16).
requires_shared
J=$SHARED/fixtures/mindinsight
run proftool hints '$J/JOB1'
run "proftool hints \$J/JOB1 --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv"
run proftool hints '$J/JOB1' --format csv --hint hints.md_pipeline.rules=2020
run proftool hints '$J/JOB3' --format csv
run proftool hints '$J/JOB2' --format csv
run proftool hints '$J/JOB4' --format csv
