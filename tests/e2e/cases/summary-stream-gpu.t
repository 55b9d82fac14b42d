# proftool summary of a CUPTI model whose process has no host ranges streams every view
# (proftool-summary(1) MEMORY): from the model file, from standard input and from the raw dump
# (memcpy, gpu, --steps and --time-window, which need the launching calls: from the file, in three
# reads; the other two read it whole). Every way prints what --in-memory prints ("same: ..."),
# also for a model with NVTX ranges.
run 'proftool-gen cupti "$SRC/tests/gen/cases/summary-stream-gpu.cdtxt" -o g.cdump --scale 3M && echo generated'
run 'proftool import g.cdump -o g.ptm 2>/dev/null && proftool info g.ptm | grep -E "^(events|devices)"'
run "for v in '' '--view api,kernel --top 2 --sorted-by calls' '--device 0 --op-detail --thread-sep --time-unit us' '--view overview --format json' '--view device,distributed,userdefined --format json' '--view kernel --format csv --comm-pattern gemm' '--view api --name Launch --no-demangle --reverse' '--view memcpy,gpu' '--steps 1-2' '--time-window 0:2ms' '--view all'; do proftool summary g.ptm \$v > a.txt 2>&1; proftool summary g.ptm --in-memory \$v > b.txt 2>&1; proftool summary - \$v < g.ptm > c.txt 2>&1; proftool summary g.cdump \$v > d.txt 2>&1; cmp -s a.txt b.txt && cmp -s a.txt c.txt && cmp -s a.txt d.txt && echo \"same: \$v\" || echo \"DIFFERS: \$v\"; done"
# an Ascend job and the CUPTI dump in one model: both kinds of rank stream side by side
run "proftool import \"\$SRC/testdata/ascend/sample\" g.cdump -o mix.ptm 2>/dev/null; for v in '' '--view all' '--view distributed --format csv' '--view kernel --top 3'; do proftool summary mix.ptm \$v > a.txt 2>&1; proftool summary mix.ptm --in-memory \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo \"same: mixed \$v\" || echo \"DIFFERS: mixed \$v\"; done"
# the unscaled process, summarised streaming
run 'proftool-gen cupti "$SRC/tests/gen/cases/summary-stream-gpu.cdtxt" -o one.cdump && proftool import one.cdump -o one.ptm 2>/dev/null && proftool summary one.ptm --time-unit ns'
# NVTX ranges: read whole (but for the kernel and api views, which stream), the same either way
run "proftool-gen cupti \"\$SRC/tests/gen/cases/summary-gpu.cdtxt\" -o r.cdump && proftool import r.cdump -o r.ptm 2>/dev/null; for v in '' '--view api --format csv'; do proftool summary r.ptm \$v > a.txt; proftool summary r.ptm --in-memory \$v > b.txt; cmp a.txt b.txt && echo \"same: with ranges \$v\"; done"
# a damaged model fails the streamed read as it fails a full one: named, with the offset, exit 1
run 'head -c $(( $(stat -c %s g.ptm) / 2 )) g.ptm > cut.ptm; proftool summary cut.ptm; echo "exit $?"; proftool summary cut.ptm --in-memory; echo "exit $?"'
run 'proftool import g.cdump -o plain.ptm --no-compress 2>/dev/null; cp plain.ptm bad.ptm; printf "\\377\\377\\377\\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s plain.ptm) - 300 )) conv=notrunc 2>/dev/null; proftool summary bad.ptm; echo "exit $?"; proftool summary bad.ptm --in-memory; echo "exit $?"'
