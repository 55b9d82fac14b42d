# steps, perf, flops (and --steps), and diff --by step over a model file of a Kineto trace whose host
# ranges name communication read it as a stream (proftool-steps(1), proftool-flops(1) MEMORY): a
# kernel launched inside a communication range of its thread counts as communication (summary.md
# §2.5), found by a read of each thread's ranges and calls in start order. The same bytes, warnings
# and exit status as the whole load (a pipe that cannot be copied; flops: --in-memory). In each step:
# a long c10d::allreduce_ operator range (a communication name) whose add, mul and div kernels are
# communication by their launch alone, a launch that starts with it but comes before it in the file,
# an autograd thread's kernel at the same time (computation: another thread), and a
# record_param_comms range (type Communication by its collective arguments, not by its name) around
# a copy. Scaled to 3,000 steps, several batches of 4,096 events: some launches are in another batch
# than their communication range.
cat >c.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 4242
rank 0 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 3 period 2ms
op "aten::linear" 10us 300us
op "aten::addmm" 20us 200us
kernel "ampere_sgemm_128x64_tn" 30us 5.5us 60us 120.125us stream=7
kernel "ncclDevKernel_Broadcast_RING_LL" 400us 4us 420us 30us stream=30
op "c10d::allreduce_" 400us 1000us
op "aten::add_" 600us 20us
kernel "add_kernel" 605us 3us 700us 9us stream=30
op "aten::mul_" 800us 20us
kernel "mul_kernel" 805us 3us 900us 12us stream=30
op "aten::div_" 1000us 20us
kernel "div_kernel" 1005us 3us 1100us 7us stream=30
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL" 1200us 5us 1250us 80us stream=30
op "autograd::engine::evaluate_function: AddmmBackward0" 500us 600us tid=4250
kernel "ampere_sgemm_128x64_nn" 520us 4.75us 560us 240.5us stream=20 tid=4250
op "record_param_comms" 1500us 100us comm=allreduce:float:1024:1024:2:0
op "aten::copy_" 1510us 20us
kernel "copy_kernel" 1515us 3us 1600us 5us stream=30
op "aten::relu" 1700us 40us
kernel "relu_kernel" 1710us 3us 1750us 10us stream=7
DESC
run 'proftool-gen kineto c.ktdesc -o c.json --scale 3M && proftool import c.json -o c.ptm 2>/dev/null && echo imported'
cat > straddle.awk <<'AWK'
# the launches inside a communication range whose event is in another batch of 4,096 events than the range's
/^event/ { i = n++; t = $2; k = $3; s = substr($4, 7); s = substr(s, length(s) - 11) + 0; d = substr($5, 5) + 0
  if (k == "kind=range" && (index($0, "c10d::allreduce_") || index($0, "record_param_comms"))) { rs[t] = s; re[t] = s + d; rb[t] = int(i / 4096) }
  else if (k == "kind=api" && (t in rs) && s >= rs[t] && s < re[t] && int(i / 4096) != rb[t]) c++ }
END { print n, "events;", c + 0, "launches in another batch than their communication range" }
AWK
run 'proftool dump c.ptm | awk -f straddle.awk'
cat > same.sh <<'SH'
# [M=MODEL] same.sh CMD OPTIONS...: CMD on MODEL (c.ptm) streamed and loaded whole (a pipe that cannot be copied)
c=$1 m=${M:-c.ptm}; shift
proftool $c $m "$@" > a.txt 2>&1; ra=$?
cat $m | TMPDIR=/nonexistent proftool $c - "$@" > b.txt 2>&1; rb=$?
sed -i "s#'$m'#MODEL#g; s#$m#MODEL#g; s#'-'#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $* (exit $ra, $(wc -l < a.txt) lines)" || echo "DIFFERS: $c $*"
SH
run "for v in '' '--format csv --wide' '--format json' '--steps 2-3' '--steps 2990-' '--time-window 0.5s:1s --format csv' '--time-window 10000s:' '--device 0' '--step-pattern Foo' '--step-pattern ProfilerStep#1.* --format csv'; do bash same.sh steps \$v; done"
run "for v in '' '--format csv' '--format json' '--batch-size 32 --skip-steps 1' '--steps 10-20' '--time-window 0.5s:' '--step-pattern Foo --format csv'; do bash same.sh perf \$v; done"
run "for v in '' '--format csv' '--format json' '--by step --format csv' '--steps 2-3' '--steps 2-3 --by model --format json' '--time-window 0.5s:1s --by step'; do bash same.sh flops \$v; proftool flops c.ptm \$v > a.txt 2>&1; proftool flops --in-memory c.ptm \$v > b.txt 2>&1; cmp -s a.txt b.txt && echo 'same as --in-memory' || echo 'DIFFERS from --in-memory'; done"
run "for v in '' '--format csv' '--format json' '--steps 2-3'; do bash same.sh diff c.ptm --by step \$v; done"
# it is read as a stream: two reads of the file reach its end (the scan, and the calls and activities,
# whose later reads replay the event batches the scan kept, this model being small), where a whole load
# after the scan made three
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'c.ptm': 100%"; }
run "term steps c.ptm -o s.txt"
# the figures: per step 143 us of communication (the two NCCL kernels, add, mul, div, copy), the
# autograd thread's GEMM computation though it runs inside the all-reduce range's time
run 'proftool steps c.ptm --format csv --wide | head -3 | cut -d, -f1-3,6,8,10,13-16'
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s c.ptm) * 9 / 10 )) c.ptm > cut.ptm; for c in steps perf "flops --steps 2-3" "diff c.ptm --by step"; do rm -f out.csv; proftool $c cut.ptm -o out.csv; echo "$c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done'
# range infos edited (ptm-edit): the record_param_comms range's info (type Communication) moved onto
# the step's aten::linear range (its GEMM then communication, the copy not), the same figures
# streamed as loaded whole; one that names an event past the last, an error either way
run 'python3 "$SRC/tests/e2e/ptm-edit" c.ptm moved.ptm 24:8:1=1 && M=moved.ptm bash same.sh steps --format csv --wide && M=moved.ptm bash same.sh perf && proftool steps moved.ptm --format csv --wide | head -3 | cut -d, -f1-3,13-16'
run 'python3 "$SRC/tests/e2e/ptm-edit" c.ptm far.ptm 24:5:1=99999999 && for c in steps perf "flops --steps 2-3"; do proftool $c far.ptm -o out.csv; echo "$c: exit $?"; cat far.ptm | TMPDIR=/nonexistent proftool $c - -o out.csv; echo "$c whole: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done'
run 'proftool import c.json --no-compress -o p.ptm 2>/dev/null; python3 -c "d = bytearray(open(\"p.ptm\", \"rb\").read()); d[len(d) * 90 // 100] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool steps bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
