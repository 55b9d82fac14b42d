# Helper of the streamed summary cases (summary-stream-ranks.t, summary-dumps-stream.t; copied beside their
# models; not a case itself).
# summary-stream-same.sh MODEL FORMAT OPTIONS...: the streamed summary (within an address-space limit of
# $LIMIT KB, 40000 unless set; none in an ASan build, which reserves far more) and --in-memory alike
m=$1; f=$2; shift 2
lim() { if grep -q __asan_init "$PROFTOOL"; then "$@"; else (ulimit -v ${LIMIT:-40000}; "$@"); fi; }
one() { # one OUT OPTIONS...: the output (CSV: every table's file) and exit status
	o=$1; shift; rm -rf d; mkdir d
	if [ $f = csv ]; then "$@" --format csv -o d/ > $o 2>&1; echo "exit $?" >> $o; cat d/* >> $o 2>/dev/null
	else "$@" --format $f > $o 2>&1; echo "exit $?" >> $o; fi
}
one a.txt lim "$PROFTOOL" summary $m "$@"
one b.txt "$PROFTOOL" summary $m --in-memory "$@"
cmp -s a.txt b.txt && echo "same: $m $f $* ($(wc -l < a.txt) lines, $(grep -m1 '^exit' a.txt))" || { echo "DIFFERS: $m $f $*"; diff a.txt b.txt | head -5; }
