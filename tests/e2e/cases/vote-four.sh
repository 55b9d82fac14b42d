# Helper of steps-vote-stream.t (not a case itself): bash vote-four.sh SRC writes four.ptm in the working
# directory, four CUPTI processes of one model numbering their correlation ids alike, three of them
# (A, B, C) with no process id recorded, so that their GPU devices record no traced process and go to
# the host whose calls have the ids of most of their activities: A (torch loop) and C (NVTX step
# ranges, few ids) tie between A and B and go to A, the first host; B (twice A's ids, shifted in time)
# goes to B; D (pid 702) records its own process.
SRC=$1
set -e -o pipefail
sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" > a.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=1/; s/^header cupti=130001 pid=664/header cupti=130001 pid=0/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > b.cdtxt
sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=2/; s/pid=4242/pid=0/; s/processId=4242/processId=0/g; s/objectId=4242,4242/objectId=0,0/g" "$SRC/testdata/cupti/launch.cdtxt" > c.cdtxt
sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=3/; s/pid=4242/pid=702/; s/processId=4242/processId=702/g; s/objectId=4242,4242/objectId=702,702/g" "$SRC/testdata/cupti/launch.cdtxt" > d.cdtxt
proftool-gen cupti a.cdtxt -o a.cdump --scale 1M --id-stride 1
proftool-gen cupti b.cdtxt -o b.cdump --scale 2M --id-stride 1
proftool-gen cupti c.cdtxt -o c.cdump --scale 256K
proftool-gen cupti d.cdtxt -o d.cdump --scale 256K
proftool import a.cdump b.cdump c.cdump d.cdump -o four.ptm
