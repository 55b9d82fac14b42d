# Helper of the streamed flops cases (flops-kineto-stream.t, mp-ops-stream.t; copied beside their models;
# not a case itself).
# MODEL OPTIONS...: the streamed output (and exit status) and that of --in-memory
m=$1; shift
proftool flops $m "$@" > a.txt 2>&1; ra=$?
proftool flops --in-memory $m "$@" > b.txt 2>&1; rb=$?
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $m $* ($(wc -l < a.txt) lines, exit $ra)" || echo "DIFFERS: $m $*"
