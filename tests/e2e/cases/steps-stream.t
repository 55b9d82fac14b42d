# proftool steps and perf over a model file of Ascend ranks read it as a stream (proftool-steps(1)
# MEMORY): the same bytes as the in-memory path, which standard input takes, with every option;
# a GPU model (CUPTI) streams its own way (steps-gpu-stream.t) and prints the same too ("same: ...").
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
ln -s "$SHARED/fixtures" fx
requires_shared
run 'proftool import "td/ascend/sample" -o sample.ptm 2>/dev/null && echo imported'
run 'proftool import "td/ascend/binary" -o binary.ptm 2>/dev/null && echo imported'
run 'for j in JOB1 JOB3 JOB_AICPU; do proftool import "fx/mindinsight/$j" -o $j.ptm 2>/dev/null || echo "no $j"; done'
run proftool-gen cupti 'td/cupti/launch.cdtxt' -o app.cdump
run 'proftool import app.cdump -o cupti.ptm 2>/dev/null && echo imported'
cp "td/compat/v1-ascend-sample.ptm" v1.ptm
cat > same.sh <<'SH'
# same.sh CMD MODEL OPTIONS...: the output (and exit status) of the file and of standard input
c=$1 m=$2; shift 2
proftool $c $m "$@" > a.txt 2>&1; ra=$?
proftool $c - "$@" < $m > b.txt 2>&1; rb=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $m $* (exit $ra)" || echo "DIFFERS: $c $m $*"
SH
for m in sample.ptm binary.ptm JOB1.ptm JOB3.ptm JOB_AICPU.ptm cupti.ptm v1.ptm; do
	run "for v in '' '--format csv' '--format json --wide' '--steps 2-3' '--steps 1 --format csv' '--steps 900-901' '--time-window 0.001s:0.002s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo'; do bash same.sh steps $m \$v; done"
	run "for v in '' '--format csv' '--format json --steps 2-3' '--batch-size 32 --skip-steps 1' '--time-window 0.001s:' '--device 5'; do bash same.sh perf $m \$v; done"
done
# the streamed figures themselves
run proftool steps sample.ptm --format csv
run proftool perf binary.ptm --format csv
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c 3000 JOB3.ptm > cut.ptm; proftool steps cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'proftool perf cut.ptm --format csv -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'python3 -c "import sys; d = bytearray(open(\"JOB3.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool steps bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
