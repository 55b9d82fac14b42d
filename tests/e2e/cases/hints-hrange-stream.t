# proftool hints over a Kineto model whose host ranges are no PyTorch operators (user annotations, a
# Dataloader range) reads it as a stream (proftool-hints(1) MEMORY): the host's ranges wait with its
# runtime calls, and the Dataloader time (INPUT_BOUND, per step for its worst step) and the time under
# other ranges (UNEXPLAINED_TIME's rest) come from three unions fed in start order; the same bytes as
# --in-memory and as standard input, which load the model whole, in every format, with selections, with
# the calls measured in a read of their own (from the start, or given up after some windows went), and
# with thresholds moved so that the rules fire. A model with operator ranges prints the same too (it
# streams as well: hints-ops-stream). The trace: a launch inside the Dataloader range, a range of another thread over it and
# over the next annotation, copies and sets every step.
cat > hr.ktdesc <<'KT'
dialect current
base 1790857026000000000
pid 4242
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 4242 "python3"
thread 4250 "pt_autograd_0"
steps 6 period 3ms
ann "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__" 10us 900us
kernel "k_in_loader" 500us 50us 520us 7us stream=7
ann "outer" 800us 400us tid=4250
ann "dataloader_worker" 300us 1200us tid=4250
ann "forward" 950us 700us
kernel "ampere_sgemm_128x64_tn" 1000us 5.5us 1010us 120.125us stream=7
memcpy HtoD Pinned Device 1048576 1200us 4us 1300us 80.333us stream=7
kernel "vectorized_elementwise_kernel" 1400us 3us 1420us 10.001us stream=7
ann "backward" 1700us 600us tid=4250
kernel "ampere_sgemm_128x64_nn" 1720us 4.75us 1760us 240.5us stream=20 tid=4250
memset Device 4096 1900us 2us 2010us 1.25us stream=20 tid=4250
sync "Stream Sync" 2400us 300.5us stream=7
ann "Optimizer.step#SGD.step" 2500us 100us
kernel "multi_tensor_apply_kernel" 2510us 6us 2530us 30.999us stream=7
KT
run 'proftool-gen kineto hr.ktdesc -o hr.json && proftool import hr.json -o hr.ptm 2>/dev/null && echo imported'
run 'proftool-gen kineto hr.ktdesc -o hrs.json --scale 1M && proftool import hrs.json -o hrs.ptm 2>/dev/null && echo imported'
# the same trace with one PyTorch operator
run "sed 's/^ann \"forward\"/op \"aten::linear\"/' hr.ktdesc > op.ktdesc && proftool-gen kineto op.ktdesc -o op.json && proftool import op.json -o op.ptm 2>/dev/null && echo imported"
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.input_bound.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.launch_bound.moderate_pct=0 --hint hints.launch.queue_delay_us=0 --hint hints.launch.queue_delay_warn_pct=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.unattributed.pct=0'
for m in hr.ptm hrs.ptm op.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 1 --format csv' '--time-window 4ms:11ms --format csv' '--time-window 10000s:' '--device 0' '--step-pattern Foo'; do bash same.sh $m \$v; done"
	run "for v in '--format csv' '--format json --show-suppressed' '--steps 2-4 --format csv'; do bash same.sh $m $FIRE \$v; done"
done
# the host's calls and ranges measured in a read of their own: from the start (0), or given up by the
# device read after some windows were measured (5: it then runs again without them)
for cap in 0 5; do
	run "for v in '--format csv' '--steps 2-40 --format csv'; do PT_TEST_HINTS_CALLS_CAP=$cap bash same.sh hrs.ptm $FIRE \$v; done"
done
# the streamed hints themselves: the Dataloader time hidden by no launch, the rest under other ranges
run proftool hints hr.ptm
run proftool hints hrs.ptm $FIRE --steps 2-40 --format csv
# a truncated model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s hrs.ptm) * 2 / 3 )) hrs.ptm > cut.ptm; proftool hints cut.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
