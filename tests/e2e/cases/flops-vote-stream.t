# proftool flops over a model file of several traced processes where GPU devices record none of them
# (CUPTI dumps without a process id beside a Kineto trace with PyTorch operator ranges) reads it as a
# stream (proftool-flops(1) MEMORY): the steps as `proftool steps` streams them (each such device goes
# to the host whose calls have the ids of most of its activities, the first of a tie), then the
# operator ranges; the tables and messages are those of --in-memory. The trace (testdata/kineto/
# train-current.ktdesc, its addmm with sizes) is scaled over several event batches; the two dumps (the
# benchmark's loop, the second twice as long and shifted in time) number their correlation ids alike.
sed -e 's/^base .*/base 1795780314000000000/' -e 's/^steps 3 /steps 1500 /' \
	-e 's/^op "aten::addmm" 20us 200us$/& dims=512,64x1024,1024x512,-,- types=float,float,float,Scalar,Scalar/' \
	"$SRC/testdata/kineto/train-current.ktdesc" > f.ktdesc
run 'proftool-gen kineto f.ktdesc -o f.json --scale 512K >/dev/null
sed -E "s/^process rank=-?[0-9]+/process rank=1/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" > a.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=2/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > b.cdtxt
proftool-gen cupti a.cdtxt -o a.cdump --scale 1M --id-stride 1 && proftool-gen cupti b.cdtxt -o b.cdump --scale 2M --id-stride 1 && proftool import f.json a.cdump b.cdump -o v.ptm'
run 'proftool info v.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cp "$SRC/tests/e2e/cases/flops-stream-same.sh" same.sh # (the streamed and whole outputs compared)
run "for v in '' '--format csv --wide' '--by type' '--by step --format csv' '--by model' '--by model --format json' '--steps 2-3' '--steps 1490- --by model --format csv' '--steps 700-710 --by step' '--steps 900-901' '--time-window 0.5s:1s --format csv' '--device 0 --by type' '--step-pattern Foo'; do bash same.sh v.ptm \$v; done"
# it is read as a stream (the steps' reads, the vote's among them, then the tables and the ranges),
# where the whole load reads it once
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading 'v.ptm': 100%"; }
run "term flops v.ptm -o s.txt; term flops --in-memory v.ptm -o m.txt; cmp s.txt m.txt && echo same"
run 'proftool flops v.ptm --by step --steps 2-3 --format csv'
# truncated and corrupt models: an error naming the file, exit 1, no output file
run 'head -c $(( $(stat -c %s v.ptm) * 2 / 3 )) v.ptm > cut.ptm; proftool flops cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'python3 -c "d = bytearray(open(\"v.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool flops bad.ptm --steps 2-3 -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
