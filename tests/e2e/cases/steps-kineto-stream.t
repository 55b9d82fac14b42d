# proftool steps and perf over a generated Kineto trace scaled up (proftool-gen kineto --scale: some
# 2,000 ProfilerStep ranges among 12,000 host ranges, several batches of range infos, checked a batch
# at a time) read it as a stream (proftool-steps(1) MEMORY): the same bytes as the whole load of standard
# input, with every format and selection; the step rows are made when printed, the avg and outside
# rows from the same figures. A trace whose host ranges name communication is read whole.
ln -s "$SRC/testdata" td
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k.json --scale 12M && proftool import k.json -o k.ptm 2>/dev/null && echo imported'
run 'proftool info k.ptm --format csv --table devices | cut -d, -f1,2,5,6'
# an all-reduce operator range in every step: communication, so read whole (kernels inside it count as such)
sed -e 's/^op "aten::relu" 320us 40us$/op "c10d::allreduce_" 320us 40us/' td/kineto/train-current.ktdesc >comm.ktdesc
run 'proftool-gen kineto comm.ktdesc -o c.json --scale 300K && proftool import c.json -o comm.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh CMD MODEL OPTIONS...: the output (and exit status) of the file and of standard input
c=$1 m=$2; shift 2
proftool $c $m "$@" > a.txt 2>&1; ra=$?
proftool $c - "$@" < $m > b.txt 2>&1; rb=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $m $* ($(wc -l < a.txt) lines, exit $ra)" || echo "DIFFERS: $c $m $*"
SH
for m in k.ptm comm.ptm; do
	run "for v in '' '--format csv --wide' '--format json' '--time-unit us --wide' '--steps 2-3' '--steps 1990-' '--time-window 0.5s:1s --format csv' '--time-window 10000s:' '--device 0' '--step-pattern Foo' '--step-pattern ProfilerStep#1.* --format csv'; do bash same.sh steps $m \$v; done"
	run "for v in '' '--format csv' '--format json' '--batch-size 32 --skip-steps 1' '--steps 10-20' '--time-window 0.5s:' '--step-pattern Foo --format csv'; do bash same.sh perf $m \$v; done"
done
# the streamed figures themselves: the first steps, the avg and outside rows
run 'proftool steps k.ptm --format csv --wide | head -4; proftool steps k.ptm --format csv --wide | tail -2'
run proftool perf k.ptm
# a truncated model: the error names the file and the offset, exit 1
run 'head -c $(( $(stat -c %s k.ptm) * 2 / 3 )) k.ptm > cut.ptm; proftool steps cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
