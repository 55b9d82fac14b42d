# proftool timeline --profile kineto over a GPU model of two Kineto ranks imported together, with host
# ranges (operators, ProfilerStep#N, user annotations), reads it as a stream (proftool-timeline(1)
# MEMORY): each process's writing read has its own cursor in the packed range infos (cpu_op, External
# id) and copy infos, the processes' reads interleaving. The same rank files as --in-memory with every
# option; each rank is some 9,000 events, 3,000 range infos (several batches of each), its operators
# given External ids as PyTorch writes them. A truncated and a corrupt model fail as read whole.
cat > rank.sh <<'SH'
# rank.sh R: rank R's trace rR.json (pid 100+R), its operators given External ids (10000 R + 3 n)
cat > r$1.ktdesc <<DESC
dialect current
base 1790857026000000000
pid $((100 + $1))
rank $1 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread $((100 + $1)) "python3"
thread 150 "pt_autograd_0"
steps 3 period 2ms
op "aten::linear" 10us 300us
op "aten::addmm" 20us 200us
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7 grid=8,4,1 block=256,1,1 regs=128 smem=12288
memcpy HtoD Pinned Device 1048576 250us 4us 260us 80.333us stream=7
op "autograd::engine::evaluate_function: AddmmBackward0" 500us 600us tid=150
kernel "ampere_sgemm_128x64_nn" 520us 4.75us 560us 240.5us stream=20 grid=8,4,1 block=256,1,1 regs=128 smem=12288 tid=150
memset Device 4096 700us 2us 810us 1.25us stream=20 tid=150
sync "Stream Sync" 1200us 300.5us stream=7
ann "Optimizer.step#SGD.step" 1500us 100us
kernel "void at::native::multi_tensor_apply_kernel<at::native::TensorListMetadata<2>>" 1510us 6us 1530us 30.999us stream=7 grid=4,1,1 block=512,1,1 regs=32
DESC
proftool-gen kineto r$1.ktdesc -o k$1.json --scale 4M >/dev/null
python3 - $1 <<'PY'
import sys
r = int(sys.argv[1]); n = 0
with open("k%d.json" % r) as f, open("r%d.json" % r, "w") as o:
    for line in f:
        if '"cat": "cpu_op"' in line and '"args": {}' in line:
            n += 1
            line = line.replace('"args": {}', '"args": {"External id": %d}' % (10000 * r + 3 * n))
        o.write(line)
PY
SH
run 'bash rank.sh 0 && bash rank.sh 1 && proftool import r0.json r1.json -o two.ptm 2>/dev/null && proftool dump two.ptm | awk "{print \$1}" | sort | uniq -c | sort -rn | grep -w "event\|range-info\|gpu-link"'
run 'proftool import r0.json -o one.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh PROFILE MODEL OPTIONS...: the output (the rank files of kineto), messages and exit status of
# the streamed read and --in-memory alike?
p=$1 m=$2; shift 2
for w in a b; do
	rm -rf $w $w.json
	if [ $p = kineto ]; then
		proftool timeline $m --profile kineto "$@" $([ $w = b ] && echo --in-memory) -o $w >$w.txt 2>&1
	else
		proftool timeline $m "$@" $([ $w = b ] && echo --in-memory) -o $w.json >$w.txt 2>&1
	fi
	echo "exit $?" >>$w.txt
done
if [ $p = kineto ]; then diff -r a b >/dev/null; else cmp -s a.json b.json; fi && cmp -s a.txt b.txt &&
	echo "same: $p $m $* ($(tail -n1 a.txt))" || echo "DIFFERS: $p $m $*"
SH
for m in two.ptm one.ptm; do
	run "for v in '' '--steps 2-3'; do bash same.sh viewer $m \$v; done"
	run "for v in '' '--extra-tracks' '--steps 2-3' '--steps 2-3 --extra-tracks' '--time-window 0.5s:1s' '--time-window 0.5s:1s --extra-tracks' '--gzip' '--no-flows' '--no-demangle' '--step-pattern Optimizer.*'; do bash same.sh kineto $m \$v; done"
done
# read as a stream: the file read three times, then each rank's writing read up to its last event (the
# second's to the end), against once loaded whole
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '[a-z0-9]*.ptm': 100%"; }
run "for c in 'two.ptm --profile kineto -o k1' 'two.ptm --profile kineto --in-memory -o k2' 'two.ptm --profile kineto --steps 2-3 -o k3' 'one.ptm --profile kineto -o k4'; do echo \"\$(term timeline \$c) reads: \$c\"; done"
# what the streamed kineto files carry of each rank's host ranges: cpu_op with the rank's External ids,
# user annotations
run "proftool timeline two.ptm --profile kineto -o kk && for r in 0 1; do grep -o '\"cat\":\"[a-z_]*\",\"name\":\"[^\"]*\",\"pid\":[0-9]*' kk/rank\$r.pt.trace.json | grep 'cpu_op\\|user_annotation' | sed -e 's/ProfilerStep#[0-9]*/ProfilerStep#N/' | sort | uniq -c; grep -m3 -o '\"cat\":\"cpu_op\",\"name\":\"[^\"]*\",[^}]*}' kk/rank\$r.pt.trace.json; done"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s two.ptm) * 2 / 3 )) two.ptm > cut.ptm; proftool timeline cut.ptm -o cut.json; echo "exit $?"; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut.json cut/ 2>/dev/null | wc -l'
run 'python3 -c "import sys; d = bytearray(open(\"two.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o bad.json; echo "exit $?"; proftool timeline bad.ptm --profile kineto -o bad; echo "exit $?"; ls bad.json bad/ 2>/dev/null | wc -l'
