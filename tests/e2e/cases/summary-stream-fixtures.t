# The streamed summary (proftool-summary(1) MEMORY) prints what the in-memory
# one prints on every real MindInsight sample, for the option combinations
# that stream; "same: JOB OPTIONS" per combination.
requires_shared
F='$SHARED/fixtures/mindinsight'
for job in JOB1 JOB3 JOB4 JOB_AICPU container; do
	run "proftool import '$F/$job' -o $job.ptm 2>/dev/null; for v in '' '--op-detail' '--steps 1-2' '--time-window 1ms:' '--format json' '--device 0' '--view kernel --top 3 --sorted-by calls' '--view optype,aicpu --format csv' '--view device,gpu,memcpy,userdefined,api --format json' '--view all --steps 1-3'; do proftool summary $job.ptm \$v > a.txt 2>&1; proftool summary $job.ptm --in-memory \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo \"same: $job \$v\" || echo \"DIFFERS: $job \$v\"; done"
done
