# Every real MindInsight sample imports without error (issue #2), with the
# facts proftool info reports about each.
requires_shared
F='$SHARED/fixtures/mindinsight'
for job in JOB1 ERROR_JOB JOB3 JOB4 JOB_AICPU container info; do
	run proftool import "$F/$job" -o $job.ptm
	run "proftool info --format csv --table stats $job.ptm | sed -n '/^device_id,key,value/,\$p' | grep -E 'orphan|unnamed|steps|ops|framework.tasks|aicpu.total|end_tag|records' || true"
done
run "proftool export JOB_AICPU.ptm --table aicpu --time-unit ms"
run "proftool export JOB4.ptm --table ops; proftool info --format csv --table stats JOB4.ptm | grep -c task"
