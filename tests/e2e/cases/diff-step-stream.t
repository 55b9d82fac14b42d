# proftool diff --by step over model files streams each side as `steps` and the summary stream
# it (proftool-diff(1) MEMORY): the same bytes as the whole load, which standard input takes,
# for BASE and for TEST, on pairs of Ascend jobs and of GPU models with different steps, with the
# selection options, the per-side steps and their warnings (of the options as given, BASE only).
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
ln -s "$SHARED/fixtures" fx
requires_shared
run 'proftool-gen "$SRC/tests/gen/cases/diff-pair.desc" -o base --perturbed test >/dev/null && proftool import base -o gb.ptm 2>/dev/null && proftool import test -o gt.ptm 2>/dev/null && echo imported'
run 'proftool import fx/mindinsight/JOB3 -o job3.ptm 2>/dev/null && proftool import td/ascend/sample -o sample.ptm 2>/dev/null && echo imported'
run 'proftool-gen cupti td/cupti/launch.cdtxt -o app.cdump && proftool import app.cdump -o launch.ptm 2>/dev/null && echo imported'
run 'for b in torch-loop vecadd torch-beside-profiler; do proftool import td/cupti/real-13.0-h200-$b.cdump -o c-$b.ptm 2>/dev/null || echo "no $b"; done; ls c-*.ptm | wc -l'
run 'for b in real-torch2.11-h200-loop real-torch2.11-h200-beside-collector; do proftool import td/kineto/$b.pt.trace.json.gz -o k-$b.ptm 2>/dev/null || echo "no $b"; done; ls k-*.ptm | wc -l'
run 'proftool import fx/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite -o nsys.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh BASE TEST OPTIONS...: diff --by step of the two files, against BASE and then TEST read
# from standard input (loaded whole): output and exit status
a=$1 b=$2; shift 2
proftool diff $a $b --by step "$@" > f.txt 2>&1; rf=$?
proftool diff - $b --by step "$@" < $a > x.txt 2>&1; rx=$?
proftool diff $a - --by step "$@" < $b > y.txt 2>&1; ry=$?
sed -i "s#'-'#SIDE#g; s#'$a'#SIDE#g; s#'$b'#SIDE#g; s#standard input#SIDE#g" f.txt x.txt y.txt
cmp -s f.txt x.txt && cmp -s f.txt y.txt && [ $rf = $rx ] && [ $rf = $ry ] && echo "same: $a $b $* (exit $rf)" || echo "DIFFERS: $a $b $*"
SH
for p in 'gb.ptm gt.ptm' 'gt.ptm job3.ptm' 'job3.ptm sample.ptm' 'launch.ptm c-torch-loop.ptm' 'c-vecadd.ptm c-torch-beside-profiler.ptm' 'k-real-torch2.11-h200-loop.ptm k-real-torch2.11-h200-beside-collector.ptm' 'c-torch-loop.ptm nsys.ptm'; do
	run "for v in '' '--format csv' '--format json' '--steps 2-3 --time-unit us' '--steps 400-500' '--base-steps 2-3 --test-steps 400-500 --format csv' '--steps 400-500 --test-steps 1-3' '--time-window 0.001s:' '--time-window 10000s:' '--device 0 --format jsonl' '--device 9' '--step-pattern Foo' '--fail-on-regression 0 --format csv'; do bash same.sh $p \$v; done"
done
# the streamed figures themselves, between models of different steps
run proftool diff gb.ptm gt.ptm --by step --format csv
run proftool diff c-vecadd.ptm c-torch-loop.ptm --by step --steps 2-4
run proftool diff gb.ptm job3.ptm --by step --base-steps 2-3 --test-steps 400-500
# a truncated model on either side: the error names the file and the offset in its body, exit 1
run 'head -c $(( $(stat -c %s job3.ptm) / 2 )) job3.ptm > cut.ptm; proftool diff cut.ptm job3.ptm --by step -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
run 'head -c $(( $(stat -c %s c-torch-loop.ptm) * 2 / 3 )) c-torch-loop.ptm > gcut.ptm; proftool diff c-torch-loop.ptm gcut.ptm --by step --format csv; echo "exit $?"'
