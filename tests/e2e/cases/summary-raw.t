# proftool summary of a raw Ascend PATH imports it streaming and replays the encoded events into the
# streamed summary (proftool-summary(1) MEMORY); --in-memory imports and summarises in memory. The
# job has 216,283 events, so most of them are encoded while importing. Every way prints the same
# ("same: ..."), also for a CUPTI dump (its NVTX ranges keep it in memory) and
# a job whose memory file brought the events back.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --hwts-bytes 24M >/dev/null && echo generated'
run "for v in '' '--view all' '--view distributed --format csv' '--steps 2-40 --format json' '--time-window 1ms:5ms --view overview,kernel' '--device 0 --view optype,aicpu'; do proftool summary job \$v > a.txt 2>&1; proftool summary job --in-memory \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo \"same: job \$v\" || echo \"DIFFERS: job \$v\"; done"
run 'proftool import job -o job.ptm 2>/dev/null && proftool summary job.ptm --view all > c.txt && proftool summary job --view all 2>/dev/null | cmp - c.txt && echo "same as the model file"'
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run 'proftool summary app.cdump --view all > a.txt 2>&1; proftool summary app.cdump --view all --in-memory > b.txt 2>&1; cmp a.txt b.txt && echo "same: app.cdump"'
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o memjob --hwts-bytes 16M >/dev/null && echo generated'
run 'proftool summary memjob --view all > a.txt 2>&1; proftool summary memjob --view all --in-memory > b.txt 2>&1; cmp a.txt b.txt && echo "same: memjob"'
# a raw PATH that does not import is the same error either way
run proftool summary nosuchjob
run proftool summary --in-memory nosuchjob
