# Helper of the streamed hints cases (hints-stream.t, hints-gpu-stream.t, hints-hrange-stream.t,
# hints-ops-stream.t; copied beside their models as same.sh; not a case itself).
# same.sh MODEL OPTIONS...: the output (and exit status) of the file streamed, loaded whole and from standard input
m=$1; shift
proftool hints $m "$@" > a.txt 2>&1; ra=$?
proftool hints $m --in-memory "$@" > b.txt 2>&1; rb=$?
proftool hints - "$@" < $m > c.txt 2>&1; rc=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt c.txt
cmp -s a.txt b.txt && cmp -s a.txt c.txt && [ $ra = $rb ] && [ $ra = $rc ] && echo "same: $m $* (exit $ra)" ||
	echo "DIFFERS: $m $*"
