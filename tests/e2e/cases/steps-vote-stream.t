# steps, perf, flops --steps, memory --steps, diff --by step and hints over a model file of GPU data from
# several traced processes, where some GPU devices record no traced process, read it as a stream
# (proftool-steps(1) MEMORY): one more read tallies, per such device, the activities whose correlation
# id each host's calls have, and the device goes to the host with most (the first of a tie), as the
# whole load's vote decides it; then the reads of the streamed steps, each host with its launch join.
# The same bytes, warnings and exit status as the whole load (standard input where no file can be made
# in TMPDIR, and hints' --in-memory). Four CUPTI processes of one model (vote-four.sh): A, B and C
# record no process id (B's device goes to B by the vote, A's and C's to A by a tie), D records its own.
ln -s "$SRC/testdata" td
run 'bash "$SRC/tests/e2e/cases/vote-four.sh" "$SRC"'
run 'proftool info four.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cat > same.sh <<'SH'
# same.sh CMD OPTIONS...: CMD on four.ptm streamed and loaded whole (a pipe that cannot be copied)
c=$1; shift
proftool $c four.ptm "$@" > a.txt 2>&1; ra=$?
cat four.ptm | TMPDIR=/nonexistent proftool $c - "$@" > b.txt 2>&1; rb=$?
sed -i "s#'four.ptm'#MODEL#g; s#four.ptm#MODEL#g; s#'-'#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $* (exit $ra, $(wc -l < a.txt) lines)" || echo "DIFFERS: $c $*"
SH
run "for v in '' '--format csv --wide' '--format json' '--steps 2-3' '--steps 150-160 --format csv' '--time-window 0.001s:0.002s --format csv' '--device 0' '--step-pattern Foo'; do bash same.sh steps \$v; done"
run "for v in '' '--format csv' '--format json' '--time-window 0.001s:' '--step-pattern Foo --format csv'; do bash same.sh perf \$v; done"
run "for v in '' '--format csv' '--by step --format csv'; do bash same.sh flops --steps 2-3 \$v; done"
run "for v in '' '--format csv' '--by time --format csv'; do bash same.sh memory --steps 2-3 \$v; done"
run "for v in '' '--format csv' '--steps 2-3' '--device 0 --format csv'; do bash same.sh diff four.ptm --by step \$v; done"
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" hsame.sh
run "for v in '' '--format csv' '--format json --show-suppressed' '--steps 2-3' '--device 0' '--step-pattern Foo'; do bash hsame.sh four.ptm \$v; done"
# it is read as a stream: two reads of the file reach its end (the scan, then the vote's, the calls' and
# the activities' reads replay the event batches the scan kept, this model being small), where a
# whole load after the scan made three
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'four.ptm': 100%"; }
run "term steps four.ptm -o s.txt; term hints four.ptm -o h.txt"
# the ranks (A, B, C, D in host order, no rank recorded by A, B, C): A with two devices (its own and
# C's), B with its own, C none, D its own
run 'proftool steps four.ptm --format csv | awk -F, "\$3 == \"avg\" || \$3 == \"outside\"" | cut -d, -f1-3,6,10,18-20'
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s four.ptm) * 2 / 3 )) four.ptm > cut.ptm; for c in steps perf "memory --steps 2-3" hints; do rm -f out.csv; proftool $c cut.ptm -o out.csv; echo "$c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done'
run 'python3 -c "d = bytearray(open(\"four.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool steps bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
