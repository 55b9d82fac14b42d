# proftool summary over a GPU model of several CUPTI dumps that record one pid (none: pid 0) streams
# (proftool-summary(1) MEMORY): the dumps lie one after the other in the file, each starting back at its
# own time, and the overview's unions of the rank of that pid (the device classes, the CudaRuntime
# calls) are each dump's, merged by start, so that no dump's events wait for a later dump's tracks.
# Four dumps over many event batches: A and B (the benchmark's loop; B longer and shifted in time, both
# pid 0), C (NVTX step ranges, pid 0; in four.ptm its clock moved into A's first second, in split.ptm
# left where it is, long before A) and D (pid 702). Every view, selection and format prints what
# --in-memory prints, within a 30 MB address-space limit that the summary did not fit when the rank's
# unions waited in one queue (an ASan build reserves far more address space: there the limit is left out).
ln -s "$SRC/testdata" td
run 'sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" > a.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=1/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > b.cdtxt
for x in c:2:0 d:3:702; do IFS=: read n r p <<< "$x"; sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=$r/; s/pid=4242/pid=$p/; s/processId=4242/processId=$p/g; s/objectId=4242,4242/objectId=$p,$p/g" td/cupti/launch.cdtxt > $n.cdtxt; perl -pe "s/\breal=(\d+)/q(real=).(\$1+1795780315000000000)/ge" $n.cdtxt > $n-day.cdtxt; done
proftool-gen cupti a.cdtxt -o a.cdump --scale 16M --id-stride 1 && proftool-gen cupti b.cdtxt -o b.cdump --scale 24M --id-stride 1 && for n in c d c-day d-day; do proftool-gen cupti $n.cdtxt -o $n.cdump --scale 2M || exit 1; done
proftool import a.cdump b.cdump c-day.cdump d-day.cdump -o four.ptm && proftool import a.cdump b.cdump c.cdump d.cdump -o split.ptm'
run 'proftool info four.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cp "$SRC/tests/e2e/cases/summary-stream-same.sh" same.sh; export LIMIT=30000 # (the streamed summary within the limit and --in-memory compared)
for m in four.ptm split.ptm; do
	run "for v in '' '--view overview --thread-sep' '--view all' '--op-detail' '--steps 2-3' '--time-window 1s:3s' '--time-window 0:1.2s' '--device 0' '--view device,distributed'; do bash same.sh $m table \$v; done"
	run "for f in csv json; do for v in '' '--view all'; do bash same.sh $m \$f \$v; done; done"
done
# the overview's figures themselves: the rank of pid 0 (A, B and C) and that of pid 702
run proftool summary four.ptm --view overview --time-unit us
# it is read as a stream: the summary's five reads (the whole load: one)
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'four.ptm': 100%"; }
run "term summary four.ptm; term summary four.ptm --in-memory"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as the whole load's
run 'head -c $(( $(stat -c %s four.ptm) * 2 / 3 )) four.ptm > cut.ptm; for v in "" "--view all"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
run 'python3 -c "d = bytearray(open(\"four.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool summary bad.ptm; echo "exit $?"; proftool summary bad.ptm --in-memory; echo "exit $?"'
