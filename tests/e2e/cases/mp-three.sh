# Helper of the cases over GPU models of several processes (steps-mp-stream.t, hints-mp-stream.t; not a
# case itself): bash mp-three.sh SRC writes three.ptm in the working directory (td linked to SRC's
# testdata), three CUPTI processes of one model numbering their correlation ids alike: two under the
# iteration-boundary rule (the second shifted in time, so that a join across processes would move its
# launches), one with NVTX step ranges; their ranks (2, 0, 1) not in device order.
SRC=$1
set -o pipefail
sed -E "s/^process rank=-?[0-9]+/process rank=2/; s/^header cupti=130001 pid=664/header cupti=130001 pid=700/" "$SRC/bench/torch-loop.cdtxt" > p0.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=701/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > p1.cdtxt
sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=1/; s/pid=4242/pid=702/; s/processId=4242/processId=702/g; s/objectId=4242,4242/objectId=702,702/g" td/cupti/launch.cdtxt > p2.cdtxt
proftool-gen cupti p0.cdtxt -o p0.cdump --scale 2560K && proftool-gen cupti p1.cdtxt -o p1.cdump --scale 2M && proftool-gen cupti p2.cdtxt -o p2.cdump --scale 256K && proftool import p0.cdump p1.cdump p2.cdump -o three.ptm
