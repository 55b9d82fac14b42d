# proftool timeline over a model file of Ascend tasks reads it as a stream (proftool-timeline(1)
# MEMORY): the same bytes as the in-memory path (--in-memory), with every option; a CUPTI model
# takes the GPU stream (e2e/timeline-gpu-stream has its cases) and writes the same too ("same: ...").
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
# same.sh MODEL OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one
m=$1; shift
rm -rf a b; mkdir a b
proftool timeline $m "$@" -o a/t.json > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b/t.json > b.txt 2>&1; rb=$?
sed -i "s#a/t#OUT#g" a.txt; sed -i "s#b/t#OUT#g" b.txt
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files)" || echo "DIFFERS: $m $*"
SH
for m in sample.ptm binary.ptm JOB1.ptm JOB3.ptm JOB_AICPU.ptm cupti.ptm v1.ptm; do
	run "for v in '' '--scope-depth 3' '--steps 2-3' '--steps 900-901' '--time-window 0.001s:0.002s' '--time-window 10000s:' '--no-flows' '--no-overlap' '--gzip' '--split-mb 1' '--step-pattern Foo'; do bash same.sh $m \$v; done"
done
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c 3000 JOB3.ptm > cut.ptm; proftool timeline cut.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "import sys; d = bytearray(open(\"JOB3.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
