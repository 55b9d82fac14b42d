# A selection that selects nothing warns the same whether the summary streams the model (the
# default for a .ptm) or holds it (--in-memory): same text on standard error, same exit status
# (proftool(1) OUTPUT, "Empty results"; issue #25 point 6). Each case runs both ways, then
# compares the two standard errors byte for byte.
run 'proftool import "$SRC/testdata/ascend/sample" -o s.ptm 2>/dev/null && echo imported'
run "proftool import $SRC/testdata/kineto/train-current.pt.trace.json -o k.ptm 2>/dev/null && echo imported"
# both ways: the stderr of each, its exit status, and whether they agree
both() {
	proftool summary "$@" >/dev/null 2>stream.err
	local a=$?
	proftool summary --in-memory "$@" >/dev/null 2>mem.err
	local b=$?
	cat stream.err
	echo "streamed: exit $a; in memory: exit $b"
	cmp -s stream.err mem.err && echo "same warnings"
}
export -f both
# --step-pattern naming no host range of a trace with no step records (the kernel view streams it)
run "both k.ptm --view kernel --step-pattern 'Foo#[0-9]+'"
run "both k.ptm --view kernel,api --step-pattern 'Foo#[0-9]+' --format csv -o out/"
# a pattern that names some range says nothing
run "both k.ptm --view kernel --step-pattern 'ProfilerStep#[0-9]+'"
# --steps and --time-window outside the data, --device naming no device
run "both s.ptm --steps 400-500"
run "both s.ptm --steps 0 --view overview"
run "both s.ptm --time-window 1000s:"
run "both s.ptm --time-window :0ns --view kernel"
run "both s.ptm --device 9"
# selections that select something say nothing
run "both s.ptm --steps 2-3 --time-window 1ms:2ms --device 0"
# from standard input the model streams in one read
run "proftool summary - --steps 400-500 < s.ptm >/dev/null"
# malformed input stays an input error on both paths
run "printf 'PTM\0garbage' > bad.ptm && both bad.ptm --steps 400-500"
