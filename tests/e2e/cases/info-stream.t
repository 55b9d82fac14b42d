# proftool info of a model file streams its events (proftool-info(1) MEMORY): the same bytes as the
# whole model read from standard input gives, in every format, for a Kineto trace with collectives
# (the second read that takes their events), a CUPTI dump, an Ascend job, MindData files and an
# Ascend job beside a CUPTI dump.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
cat >c.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
rank 1 world 2 backend nccl
device 0 name "NVIDIA A100-SXM4-40GB"
steps 3 period 2ms
op "aten::mm" 10us 100us dims=128x256,256x64 types=float,float
kernel "ampere_sgemm_128x64" 20us 5us 30us 50us
op "record_param_comms" 200us 50us comm=allreduce:Float:1048576:1048576:2:0
kernel "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)" 210us 5us 220us 400us stream=20 comm=allreduce:Float:1048576:1048576:2:0
DESC
run 'proftool-gen kineto c.ktdesc -o c.pt.trace.json && proftool import c.pt.trace.json -o kin.ptm 2>/dev/null; proftool import "td/cupti/real-13.0-h200-torch-loop.cdump" -o real.ptm 2>/dev/null; proftool import "td/ascend/sample" -o asc.ptm 2>/dev/null; proftool import "td/minddata/pipeline" -o md.ptm 2>/dev/null; proftool import "td/ascend/sample" "td/cupti/real-13.0-h200-vecadd.cdump" -o mix.ptm 2>/dev/null; echo imported'
run "for f in kin.ptm real.ptm asc.ptm md.ptm mix.ptm; do for fmt in table json; do proftool info \$f --wide --format \$fmt > a.out; proftool info - --wide --format \$fmt < \$f > b.out; cmp -s a.out b.out && echo \"same: \$f \$fmt \$(wc -l < a.out) lines\" || echo \"DIFFERS: \$f \$fmt\"; done; done"
run "proftool info kin.ptm --table collectives --format csv"
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real.ptm) / 2 )) real.ptm > cut.ptm; proftool info cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'cp real.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s real.ptm) / 2 )) conv=notrunc 2>/dev/null; proftool info bad.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
