# proftool timeline --profile kineto over a model file reads it as a stream where the viewer profile
# does (proftool-timeline(1) MEMORY): the same files as the in-memory path (--in-memory), with every
# option, on CUPTI dumps without host ranges (External ids, cbids, copies and sets, syncs, per-SM
# kernel arguments, launch arrows at the starts, two processes of one rank, the benchmark's loop
# scaled down), a Kineto trace's host ranges (also timeline-kineto-host.t), Ascend models (one and two
# ranks), NVTX ranges (their GPU user annotations, also timeline-kineto-gpuann-stream.t), several ranks of GPU data. --steps and --time-window are streamed too (also in
# timeline-gpu-sel.t). HTA reads the streamed files.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
HTA="python3 \$SRC/tests/hta-check.py"
# launch.cdtxt without its NVTX ranges, as rank 1 of 4 (External ids, world_size), and beside a second process
grep -v 'MARKER\|^  range' td/cupti/launch.cdtxt | sed -e 's/^process rank=0 /process rank=1 world_size=4 /' >nr.cdtxt
sed -e 's/pid=4242/pid=101/; s/processId=4242/processId=101/g; s/threads 4242=app/threads 101=app/' nr.cdtxt >nr2.cdtxt
mkdir -p two
run 'proftool-gen cupti nr.cdtxt -o nr.cdump && proftool import nr.cdump -o nr.ptm 2>/dev/null && echo imported'
run 'proftool-gen cupti nr.cdtxt -o two/cupti-host-100.cdump && proftool-gen cupti nr2.cdtxt -o two/cupti-host-101.cdump && proftool import two -o procs.ptm 2>/dev/null && echo imported'
run 'proftool-gen cupti td/cupti/launch.cdtxt -o nvtx.cdump && proftool import nvtx.cdump -o nvtx.ptm 2>/dev/null && echo imported'
run 'for f in td/cupti/real-13.0-h200-torch-loop.cdump td/cupti/real-13.0-h200-vecadd.cdump; do b=${f##*/}; proftool import "$f" -o "${b%.cdump}.ptm" 2>/dev/null || echo "no $b"; done; ls real-*.ptm | wc -l'
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M --id-stride 1 && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k.json && proftool import k.json -o kineto.ptm 2>/dev/null && echo imported'
run 'proftool import td/ascend/sample -o sample.ptm 2>/dev/null && proftool import td/ascend/sample td/ascend/binary -o ranks.ptm 2>/dev/null && echo imported'
# two ranks of GPU data: one file per rank, read whole
mkdir -p job
for r in 0 1; do
	sed -e "s/^process rank=1 world_size=4 /process rank=$r world_size=2 /" nr.cdtxt >r$r.cdtxt
	proftool-gen cupti r$r.cdtxt -o job/cupti-host-$((100 + r)).cdump >/dev/null
done
run 'proftool import job -o job.ptm 2>/dev/null && echo imported'
cp "$SRC/tests/e2e/cases/timeline-kineto-same.sh" same.sh # (the streamed and in-memory files compared)
for m in nr.ptm procs.ptm scaled.ptm real-*.ptm sample.ptm ranks.ptm nvtx.ptm kineto.ptm job.ptm; do
	run "for v in '' '--extra-tracks' '--gzip' '--extra-tracks --gzip' '--no-flows' '--no-overlap' '--extra-tracks --no-overlap' '--no-demangle' '--scope-depth 2' '--steps 2-3' '--time-window 0.001s:0.002s' '--step-pattern Foo'; do bash same.sh $m \$v; done"
done
# what the streamed files carry: External ids and cbids, the copies' names and sizes, per-SM args
run "proftool timeline nr.ptm --profile kineto -o kn && grep -o '\"cat\":\"[a-z_]*\",\"name\":\"[^\"]*\"\|\"External id\":[0-9]*\|\"cbid\":[0-9]*\|\"bytes\":[0-9]*\|\"blocks per SM\":[0-9.]*' kn/rank1.pt.trace.json"
run "$HTA kn --ids"
run "proftool timeline scaled.ptm --profile kineto -o ks && $HTA ks --kernels | tail -n 3"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c 40000 scaled.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "import sys; d = bytearray(open(\"scaled.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
