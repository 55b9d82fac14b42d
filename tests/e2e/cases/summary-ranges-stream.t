# proftool summary of a generated PyTorch (Kineto) run with host ranges, many steps and three ranks
# (one per-rank file each, imported as a directory): the kernel and api views stream, the others load
# the model whole (proftool-summary(1) MEMORY); every way prints what --in-memory prints ("same: ...").
# Rank 1 runs a longer GEMM than rank 0; rank 2's steps are numbered in tens.
run 'mkdir ranks && proftool-gen kineto "$SRC/testdata/kineto/train-current.ktdesc" -o ranks/r0.pt.trace.json --scale 1M && sed "s/^rank 0 world 2/rank 1 world 3/; s/4242/4343/g; s/ 120.125us / 150.5us /" "$SRC/testdata/kineto/train-current.ktdesc" > r1.ktdesc && proftool-gen kineto r1.ktdesc -o ranks/r1.pt.trace.json --scale 1M && sed "s/^rank 0 world 2/rank 2 world 3/; s/4242/4444/g" "$SRC/testdata/kineto/train-current.ktdesc" > r2.ktdesc && proftool-gen kineto r2.ktdesc -o r2.json --scale 1M && sed -E "s/\"ProfilerStep#([0-9]+)\"/\"ProfilerStep#\\10\"/" r2.json > ranks/r2.pt.trace.json && echo generated'
run 'proftool import ranks -o m.ptm 2>/dev/null && proftool info m.ptm | grep -E "^(sources|devices|events)"; grep -c "\"ProfilerStep#" ranks/r0.pt.trace.json'
run "for v in '--view kernel' '--view api' '--view kernel,api --format csv' '--view kernel --top 2 --sorted-by calls' '' '--view all' '--view all --format json' '--view operator --op-detail --thread-sep' '--steps 3-5' '--steps 30-50 --view overview' '--time-window 1ms:9ms --view all' '--view gpu,memcpy --layout paddle'; do proftool summary m.ptm \$v > a.txt 2>&1; proftool summary m.ptm --in-memory \$v > b.txt 2>&1; proftool summary - \$v < m.ptm > c.txt 2>&1; proftool summary ranks \$v > d.txt 2>&1; cmp -s a.txt b.txt && cmp -s a.txt c.txt && cmp -s a.txt d.txt && echo \"same: \$v\" || echo \"DIFFERS: \$v\"; done"
# the step selection by number: rank 2's steps 30-50 are its steps #30, #40 and #50 (3 steps), rank 0's
# are 21 steps
run 'proftool summary m.ptm --steps 30-50 --view overview | grep -E "^(overview|ProfileStep)"'
# a number that repeats (rank 2's #20 renamed #10): all its steps are numbered 1, 2, ... in start
# order (summary.md §2.1), so --steps 30-50 keeps 21 of them again
run 'sed "s/\"ProfilerStep#20\"/\"ProfilerStep#10\"/" ranks/r2.pt.trace.json > r2dup.json && rm ranks/r2.pt.trace.json && mv r2dup.json ranks/r2.pt.trace.json && proftool import ranks -o dup.ptm 2>/dev/null && proftool summary dup.ptm --steps 30-50 --view overview | grep -E "^(overview|ProfileStep)"; proftool summary dup.ptm --steps 30-50 --view overview --in-memory > a.txt; proftool summary dup.ptm --steps 30-50 --view overview > b.txt; cmp a.txt b.txt && echo same'
# the timeline numbers the steps by the same rule: rank 2 alone, in tens (Step 10 ... Step 1690), then
# with #20 renamed #10 (Step 1 ... Step 169)
run "sed -E 's/\"ProfilerStep#([0-9]+)\"/\"ProfilerStep#\\10\"/' r2.json > tens.json && sed 's/\"ProfilerStep#20\"/\"ProfilerStep#10\"/' tens.json > dup.json && for f in tens dup; do proftool timeline \$f.json -o \$f.tl 2>/dev/null && grep -o '\"name\":\"Step [0-9]*\"' \$f.tl | sort -u | sort -t' ' -k2n | sed -n '1p;\$p' | tr '\\n' ' ' && grep -o '\"name\":\"Step [0-9]*\"' \$f.tl | sort -u | wc -l; done"
