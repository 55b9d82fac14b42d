# The summary of GPU ranks with host ranges whose launching calls come no later than the event batch
# after their activities' (a Kineto trace's order): the read of the calls keeps none of them, the read
# of the steps and the summing read take them a batch ahead, each holding a few blocks of calls, not
# all (proftool-summary(1) MEMORY). The same bytes as --in-memory, which loads the model whole, in
# every format, for every view, with --op-detail, steps, time windows and thread groups: one process
# (a trace of 13 event batches and five blocks of 4096 calls) and two (two such traces imported
# together, each process's calls its own).
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o a.pt.trace.json --scale 16M >/dev/null
sed 's/^pid 4242$/pid 4243/; s/^rank 0 world 2/rank 1 world 2/; s/^thread 4242 /thread 4243 /' \
	"$SRC"/testdata/kineto/train-current.ktdesc >b.ktdesc
proftool-gen kineto b.ktdesc -o b.pt.trace.json --scale 8M >/dev/null
run 'proftool import a.pt.trace.json -o a.ptm 2>/dev/null && proftool import a.pt.trace.json b.pt.trace.json -o r2.ptm 2>/dev/null && echo imported'
run 'proftool info a.ptm | grep -E "^(events|launch links)"'
run 'proftool summary a.ptm --view gpu --top 3'
run "for f in a r2; do for v in '--view all' '--view all --format csv' '--view all --format json' '--op-detail --view all' '--op-detail --view operator,device --format csv' '--view gpu,memcpy --steps 2-40' '--view all --time-window 1ms:30ms' '--view operator,userdefined --thread-sep --format json'; do proftool summary \$f.ptm \$v > s.txt 2>&1; echo \"exit \$?\" >> s.txt; proftool summary \$f.ptm --in-memory \$v > w.txt 2>&1; echo \"exit \$?\" >> w.txt; cmp -s s.txt w.txt && echo \"same: \$f \$v\" || echo \"DIFFERS: \$f \$v\"; done; done"
