# proftool hints and flops over a model file of two traced processes with PyTorch operator ranges (Kineto
# cpu_op, imported together: issue #30, proftool-hints(1) and proftool-flops(1) MEMORY) read it as a
# stream: the operator ranges of every process in one read (they nest on their own threads), one launch
# join per process; the same bytes and exit status as --in-memory (and, for hints, as standard input),
# which load the model whole, in every format, with selections and with thresholds moved so that
# TOP_OPS, LOW_FLOPS_UTIL and TENSOR_CORES_UNUSED fire. The ranks differ: rank 0 nests linear > addmm,
# has ops on a second thread, two ops that start and end together and sizes that do not fit; rank 1,
# shifted by 0.5 ms, runs a Tensor Core kernel under addmm and an mm on its autograd thread. Both number
# their threads alike (100, 101), so a thread's ranges are found by its process too. Scaled to 3 MB a
# rank: several batches of events, range infos and Input Dims.
cat > p0.ktdesc <<'KT'
dialect current
base 1790857026000000000
pid 100
rank 0 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 100 "python3"
thread 101 "pt_autograd_0"
steps 6 period 3ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512 types=float,float,float
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,- types=float,float,float,Scalar,Scalar
kernel "ampere_sgemm_64x32" 30us 5us 60us 100us stream=7
op "aten::mm" 400us 100us dims=128x256,256x64 types=c10::Half,c10::Half
kernel "ampere_sgemm_128x64" 410us 5us 420us 50us stream=7
op "aten::add" 600us 50us dims=32x64,64,5 types=float,float,Scalar tid=101
kernel "add_kernel" 610us 3us 620us 10us stream=20 tid=101
op "aten::bmm" 800us 100us dims=8x64x32,8x32x16 types=float,float tid=101
op "aten::bmm" 800us 100us dims=8x64x32,8x32x16 types=float,float tid=101
kernel "bmm_kernel" 810us 3us 820us 40us stream=20 tid=101
op "aten::mm" 1000us 20us dims=3x4,5x6 types=float,float
kernel "bad_mm_kernel" 1005us 3us 1010us 4us stream=7
op "aten::relu" 1050us 20us
kernel "relu_kernel" 1055us 3us 1060us 4us stream=7
memcpy HtoD Pinned Device 1048576 1200us 4us 1210us 80.333us stream=7
op "aten::empty" 1400us 10us
ann "Optimizer.step#SGD.step" 1600us 100us
kernel "multi_tensor_apply_kernel" 1610us 6us 1630us 30.999us stream=7
KT
cat > p1.ktdesc <<'KT'
dialect current
base 1790857026000500000
pid 200
rank 1 world 2 backend nccl
device 0 name "NVIDIA H100 80GB HBM3" sms 132 mem 85029158912 cc 9.0
thread 100 "python3"
thread 101 "pt_autograd_0"
steps 6 period 3ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,-
kernel "sm90_xmma_gemm_f16f16_f32" 30us 5.5us 60us 120.125us stream=7
op "aten::mm" 400us 100us dims=64x1024,1024x512
kernel "gemm_small" 410us 5us 450us 50us stream=7
op "aten::relu" 520us 40us dims=64x512
kernel "vectorized_elementwise_kernel" 530us 3us 600us 10.001us stream=7
op "aten::copy_" 640us 30us
kernel "copy_kernel" 645us 3us 700us 4us stream=7
op "autograd::engine::evaluate_function: MmBackward0" 900us 600us tid=101
op "aten::mm" 910us 300us tid=101 dims=512x64,64x1024
kernel "ampere_sgemm_128x64_nn" 920us 4.75us 960us 240.5us stream=20 tid=101
memset Device 4096 1300us 2us 1410us 1.25us stream=20 tid=101
KT
run 'for p in p0 p1; do proftool-gen kineto $p.ktdesc -o $p.json && proftool-gen kineto $p.ktdesc -o ${p}s.json --scale 3M || exit 1; done; proftool import p0.json p1.json -o two.ptm 2>/dev/null && proftool import p0s.json p1s.json -o twos.ptm 2>/dev/null && echo imported'
run 'proftool info twos.ptm --table devices --format csv | cut -d, -f1-2,5-6'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.launch.queue_delay_us=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.flops_util.min_coverage_pct=0'
for m in two.ptm twos.ptm; do
	run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--time-window 4ms:11ms --format csv' '--time-window 10000s:' '--device 0' '--step-pattern Foo'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--format json --show-suppressed' '--steps 2-4 --format csv' '--hint hints.tensor_cores.ops=aten::relu,aten::mm --format csv'; do bash same.sh $m $FIRE \$v; done"
done
# the calls of each process measured in a read of their own
run "PT_TEST_HINTS_CALLS_CAP=5 bash same.sh twos.ptm $FIRE --steps 2-40 --format csv"
# the streamed rules themselves, each rank by its own operator ranges: rank 1 ran a Tensor Core kernel
run "proftool hints twos.ptm $FIRE --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep -E 'TOP_OPS|LOW_FLOPS_UTIL|TENSOR_CORES_UNUSED' | cut -d, -f1-8"
cp "$SRC/tests/e2e/cases/flops-stream-same.sh" fsame.sh # (the streamed and whole flops outputs compared)
run "for v in '' '--format csv --wide' '--format json' '--by type' '--by scope --format json' '--by step --format csv' '--by model --format json' '--format folded' '--steps 2-3' '--steps 150- --by model --format csv' '--time-window 0.1s:0.2s --format csv' '--time-window 10000s:' '--device 0 --by type' '--step-pattern Foo'; do bash fsame.sh twos.ptm \$v; done"
# they are read as streams: hints three reads of the file and no index of the events (the whole load
# indexes them), flops five reads against one (the later reads replay the event batches the first kept
# in memory, this model's being small)
prog() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n'; }
run "for a in '' --in-memory; do echo \"hints \$a: \$(prog hints \$a twos.ptm -o h\$a.txt | grep -c \"reading 'twos.ptm': 100%\") reads, \$(prog hints \$a twos.ptm -o h\$a.txt | grep -c 'indexing the events') event indexes\"; done; cmp h.txt h--in-memory.txt && echo same"
run "for a in '' --in-memory; do echo \"flops \$a: \$(prog flops \$a twos.ptm -o f\$a.txt | grep -c \"reading 'twos.ptm': 100%\") reads\"; done; cmp f.txt f--in-memory.txt && echo same"
run proftool flops twos.ptm
# with all-reduce ranges on both ranks too (an elementwise kernel communication only by where it was
# launched): still streamed, the same bytes as the whole load
for p in p0 p1; do cat $p.ktdesc - >c$p.ktdesc <<'KT'
op "c10d::allreduce_" 1600us 150us
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL" 1610us 5us 1650us 80us stream=30
op "aten::add_" 1620us 20us
kernel "vectorized_elementwise_kernel" 1625us 3us 1735us 9us stream=30
KT
done
run 'for p in p0 p1; do proftool-gen kineto c$p.ktdesc -o c${p}s.json --scale 3M || exit 1; done; proftool import cp0s.json cp1s.json -o ctwos.ptm 2>/dev/null && echo imported'
run "for v in '' '--format json --show-suppressed' '--steps 2-3 --format csv'; do bash same.sh ctwos.ptm \$v; done; for v in '' '--by step --format csv' '--steps 2-3'; do bash fsame.sh ctwos.ptm \$v; done"
reads() { prog "$@" -o o.txt | grep -c "reading 'ctwos.ptm': 100%"; }
run "for c in hints flops; do echo \"\$c: \$(reads \$c ctwos.ptm) reads streamed, \$(reads \$c --in-memory ctwos.ptm) whole\"; done"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s twos.ptm) * 2 / 3 )) twos.ptm > cut.ptm; for c in hints flops; do proftool $c cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
run 'proftool import p0s.json p1s.json --no-compress -o p.ptm 2>/dev/null; n=$(stat -c %s p.ptm); cp p.ptm bad.ptm; printf "\377\377\377" | dd of=bad.ptm bs=1 seek=$(( n * 9 / 10 )) conv=notrunc 2>/dev/null; for c in hints flops; do proftool $c bad.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; done'
