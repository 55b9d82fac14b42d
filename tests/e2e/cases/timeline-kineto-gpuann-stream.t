# proftool timeline --profile kineto over a model whose GPU user annotations it writes (a launch link
# names a host range of a process that gets them: a CUPTI dump's NVTX ranges, a Kineto trace that had
# gpu_user_annotation events) reads it as a stream (proftool-timeline(1) MEMORY): the links packed, the
# ranges they name nested by a read of their own, each kernel, copy and set added to its annotation's
# span on its stream. The same rank files as --in-memory with every option, on models of several
# event batches: launch.cdtxt's NVTX ranges scaled (27,000 events, a range every six), a real dump with
# NVTX ranges, two ranks with NVTX ranges (one file per rank), a Kineto trace with user annotations and
# one gpu_user_annotation event (several processes with --steps or --time-window are read whole); the
# read count says the model was streamed. A truncated and a corrupt model fail as read whole.
ln -s "$SRC/testdata" td
grep -v '^end$\|^clock cupti=1000010000' td/cupti/launch.cdtxt >l.cdtxt
run 'proftool-gen cupti l.cdtxt -o n.cdump --scale 2M --id-stride 1 && proftool import n.cdump -o n.ptm 2>/dev/null && echo imported'
run 'proftool import td/cupti/real-13.0-h200-vecadd-nvtx.cdump -o real.ptm 2>/dev/null && echo imported'
mkdir -p job
for r in 0 1; do
	sed -e "s/^process rank=0 /process rank=$r world_size=2 /; s/4242/$((100 + r))/g" l.cdtxt >r$r.cdtxt
	proftool-gen cupti r$r.cdtxt -o job/cupti-host-$((100 + r)).cdump --scale 1M --id-stride 1 >/dev/null
done
run 'proftool import job -o job.ptm 2>/dev/null && echo imported'
proftool-gen kineto td/kineto/train-current.ktdesc -o k0.json --scale 2M >/dev/null
python3 - <<'PY'
with open("k0.json") as f, open("k.json", "w") as o:
    done = False
    for line in f:
        if not done and '"cat": "kernel"' in line:
            o.write(line.replace('"cat": "kernel"', '"cat": "gpu_user_annotation"', 1))
            done = True
        o.write(line)
PY
run 'proftool import k.json -o kga.ptm 2>/dev/null && proftool info kga.ptm | grep -c gpu_user_annotations_skipped'
cp "$SRC/tests/e2e/cases/timeline-kineto-same.sh" same.sh # (the streamed and in-memory files compared)
export COUNT='"cat": *"gpu_user_annotation"' WHAT='annotations'
for m in n.ptm real.ptm job.ptm kga.ptm; do
	run "for v in '' '--extra-tracks' '--no-flows' '--steps 2-3' '--time-window 0.001s:0.002s' '--step-pattern Forward'; do bash same.sh $m \$v; done"
done
# streamed: the model is read more than once (a whole load reads it once)
for m in n.ptm job.ptm kga.ptm; do
	run "script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" timeline --profile kineto -o t $m' /dev/null | tr '\r' '\n' | grep -c \"reading '$m': 100%\""
done
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(($(wc -c < n.ptm) / 2)) n.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "import sys; d = bytearray(open(\"n.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
