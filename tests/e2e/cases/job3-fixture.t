# The real JOB3 sample: import, info, and op executions exported as CSV.
requires_shared
run proftool import '$SHARED/fixtures/mindinsight/JOB3' -o job3.ptm
run proftool info job3.ptm
run 'proftool export job3.ptm --table ops | sed -n 1,5p'
run 'proftool export job3.ptm --table ops | wc -l'
run 'proftool export job3.ptm --table tasks | wc -l'
run 'proftool export job3.ptm --table steps --format json | cut -c 1-600 | sed -n 1,3p'
