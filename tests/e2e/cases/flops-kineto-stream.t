# proftool flops over a model file of a Kineto trace with PyTorch operator ranges (issue #30,
# proftool-flops(1) MEMORY) reads it as a stream: a read of its tables, the streamed steps, then each
# thread's operator ranges in start order through a stack. The trace is scaled (1,500 steps, 18,000
# operator ranges: several batches of events, range infos and Input Dims), with nested ops (linear >
# addmm > mm), a range of two ops that start and end together, ops on a second thread, ops without
# kernels and sizes that do not fit: the tables and messages are those of --in-memory, with every
# view, format and selection.
cat >f.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
rank 0 world 2 backend nccl
device 0 name "NVIDIA A100-SXM4-40GB"
thread 100 "python3"
thread 101 "pt_autograd_0"
steps 1500 period 2ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512 types=float,float,float
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,- types=float,float,float,Scalar,Scalar
kernel "ampere_sgemm_64x32" 30us 5us 60us 100us
op "aten::mm" 20us 100us dims=128x256,256x64 types=c10::Half,c10::Half
op "aten::mm" 400us 100us dims=128x256,256x64 types=c10::Half,c10::Half
kernel "ampere_sgemm_128x64" 410us 5us 420us 50us
op "aten::add" 600us 50us dims=32x64,64,5 types=float,float,Scalar tid=101
kernel "add_kernel" 610us 3us 620us 10us tid=101
op "aten::cat" 700us 40us dims=L2x3+4x3,- types=TensorList,Scalar
kernel "cat_kernel" 710us 3us 720us 5us
op "aten::bmm" 800us 100us dims=8x64x32,8x32x16 types=float,float tid=101
op "aten::bmm" 800us 100us dims=8x64x32,8x32x16 types=float,float tid=101
kernel "bmm_kernel" 810us 3us 820us 40us tid=101
op "aten::mm" 1000us 20us dims=3x4,5x6 types=float,float
kernel "bad_mm_kernel" 1005us 3us 1010us 4us
op "aten::relu" 1050us 20us
kernel "relu_kernel" 1055us 3us 1060us 4us
op "aten::empty" 1100us 10us
DESC
run 'proftool-gen kineto f.ktdesc -o f.json && proftool import f.json -o f.ptm 2>/dev/null && echo imported'
run 'proftool info f.ptm | grep -E "^events"'
cp "$SRC/tests/e2e/cases/flops-stream-same.sh" same.sh # (the streamed and whole outputs compared)
run "for v in '' '--format csv --wide' '--format json' '--by type' '--by type --format csv' '--by scope --format json' '--by step --format csv' '--by step --format json' '--by model' '--by model --format json' '--format folded' '--steps 2-3' '--steps 1490- --by model --format csv' '--steps 700-710 --by step' '--time-window 0.5s:1s --format csv' '--time-window 10000s:' '--device 0 --by type' '--device 7' '--step-pattern Foo' '--step-pattern ProfilerStep#1.* --by model --format csv' '--peak 100 --by model --format csv'; do bash same.sh f.ptm \$v; done"
# it is read as a stream: five reads of the file (the steps' four, the tables; the ranges replay the
# event batches the steps' first read kept in memory, this model's being small) against one
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'f.ptm': 100%"; }
run "term flops f.ptm -o s.txt; term flops --in-memory f.ptm -o m.txt; cmp s.txt m.txt && echo same"
run proftool flops f.ptm
# an operator range whose Input Dims do not parse: FLOPs unknown, warned once for all of them
sed -e 's/^op "aten::mm" 1000us 20us dims=3x4,5x6 /op "aten::mm" 1000us 20us dims=-3x4,4x6 /' f.ktdesc >bad.ktdesc
run 'proftool-gen kineto bad.ktdesc -o bad.json --scale 100K && proftool import bad.json -o bad.ptm 2>/dev/null && echo imported'
run "for v in '' '--by model --format csv'; do bash same.sh bad.ptm \$v; done; proftool flops bad.ptm --format csv 2>&1 | grep -E 'warning|-3'"
# an all-reduce operator range: its steps do not stream, the model is read whole
sed -e 's/^op "aten::relu" 1050us 20us$/op "c10d::allreduce_" 1050us 20us/' f.ktdesc >comm.ktdesc
run 'proftool-gen kineto comm.ktdesc -o c.json --scale 300K && proftool import c.json -o comm.ptm 2>/dev/null && echo imported'
run "for v in '' '--by step --format csv' '--steps 2-3 --by model'; do bash same.sh comm.ptm \$v; done"
# truncated and corrupt models: an error naming the file, exit 1, no output file
run 'head -c $(( $(stat -c %s f.ptm) * 2 / 3 )) f.ptm > cut.ptm; proftool flops cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'proftool import f.json --no-compress -o p.ptm 2>/dev/null; n=$(stat -c %s p.ptm); cp p.ptm bad2.ptm; printf "\377\377\377" | dd of=bad2.ptm bs=1 seek=$(( n * 9 / 10 )) conv=notrunc 2>/dev/null; proftool flops bad2.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
