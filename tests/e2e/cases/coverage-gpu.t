# Coverage on GPU ranks (proftool(1) OUTPUT "Coverage", issue #25 point 7): a step is covered when
# its window meets the span of the rank's device data placed at launch time. A CUPTI dump (the
# activities joined to their launches by the import's links) and a Kineto trace (joined by
# correlation id) whose device data stops before the last steps: a note on stderr, ratios over
# the covered steps, the coverage in the hints' evidence, the same figures as --steps naming them.
run proftool-gen cupti "'$SRC/tests/gen/cases/coverage-gpu.cdtxt'" -o g.cdump
cat >col.sh <<'X'
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(step|busy_ns|kernel_ns|kernel_count)$/) c[++n] = i }
	 { s = ""; for (k = 1; k <= n; k++) s = s (k > 1 ? "," : "") $c[k]; print s }'
X
# steps 5 and 6 have no device figures (step 5's window still sees the kernel launched in step 4
# run: that is step 4's work); the avg row is over steps 2-4 (the first step is never averaged)
run 'proftool steps g.cdump --format csv | sh col.sh'
# LOW_DEVICE_UTIL: kernels 71000 ns over 4 windows of 90000 ns = 19.7% (over all 6: 13.1%)
run 'proftool hints g.cdump --format csv | grep -E "^rank|LOW_DEVICE_UTIL"'
# every hint of the rank carries the coverage; otherwise the hints are those of --steps 1-4
run 'proftool hints g.cdump --format csv 2>/dev/null >h.csv; sed "s/;covered_steps=4;total_steps=6\$//" h.csv >a.csv; proftool hints g.cdump --steps 1-4 --format csv >b.csv; cmp a.csv b.csv && echo "hints: $(grep -c ";covered_steps=4;total_steps=6\$" h.csv) of $(($(wc -l <b.csv) - 1)) carry the coverage; without it, the same as --steps 1-4"'
# a selection inside the covered steps covers them all: no note; one outside: none covered
run 'proftool steps g.cdump --steps 2-3 --format csv >/dev/null'
run 'proftool steps g.cdump --steps 5-6 --format csv | sh col.sh'
# summary: the same note, and every view over the covered steps, as --steps 1-4 naming them gives
# it (the default views, the overview, the per-step device view and the item views, text and CSV
# (CSV to standard output is one view);
# an empty table's reason names the selection, so it is left out of the comparison). The kernels'
# 71000 ns are 19.72 % of the 4 steps' 360000 ns, as in hints.
run 'proftool summary g.cdump --view overview --format csv'
cat >sum.sh <<'X'
f=$1 s=$2; shift 2
for v in "" "$@"; do
	for fmt in table csv; do
		case $v in *,*) [ $fmt = csv ] && continue ;; esac
		a="--format $fmt${v:+ --view $v}"
		proftool summary "$f" $a 2>/dev/null | grep -v "(no rows:" >a.out
		proftool summary "$f" --steps "$s" $a | grep -v "(no rows:" >b.out
		cmp a.out b.out && [ -s a.out ] && echo "summary $a: as --steps $s"
	done
done
X
run 'bash sum.sh g.cdump 1-4 overview device memcpy gpu overview,kernel,api'
# the kernel and api views alone read no host ranges (they stream): no steps, no note, the whole data
# (4 launches; 3 in steps 1-4), in memory too
run 'proftool summary g.cdump --view api --format csv; proftool summary g.cdump --view api --format csv --in-memory | cmp - <(proftool summary g.cdump --view api --format csv) && echo same in memory'
# a selection inside the covered steps: no note
run 'proftool summary g.cdump --steps 2-3 --view overview --format csv >/dev/null'
# an activity without a launch record (correlation id 99 names no call) counts at its own time,
# here inside step 5's window: step 5 is covered
sed 's|^end-buffer|  rec CONCURRENT_KERNEL start=1450000 end=1460000 deviceId=0 contextId=1 streamId=7 correlationId=99 name="orphan"\nend-buffer|' \
	"$SRC/tests/gen/cases/coverage-gpu.cdtxt" >o.cdtxt
run proftool-gen cupti o.cdtxt -o o.cdump
run 'proftool steps o.cdump --format csv 2>&1 >/dev/null | grep note'
# without steps 5 and 6 every step is covered: no note, no coverage in the evidence
sed 's/ProfilerStep#[56]/other/' "$SRC/tests/gen/cases/coverage-gpu.cdtxt" >f.cdtxt
run 'proftool-gen cupti f.cdtxt -o f.cdump && proftool hints f.cdump --format csv 2>&1 | echo "notes and evidence: $(grep -cE "covered_steps|data covers")"'

# Kineto: five steps whose GPU side (kernels, flows' ends) is cut from step 4 on; their launches
# stay, with correlation ids that name nothing
cat >k.ktdesc <<'DESC'
dialect current
base 1790857026000000000
pid 100
device 0 name "NVIDIA A100-SXM4-40GB"
steps 5 period 2ms
op "aten::linear" 10us 300us dims=64x1024,512x1024,512 types=float,float,float
op "aten::addmm" 20us 200us dims=512,64x1024,1024x512,-,- types=float,float,float,Scalar,Scalar
kernel "ampere_sgemm_64x32" 30us 5us 60us 100us
op "aten::relu" 1050us 20us
kernel "relu_kernel" 1055us 3us 1060us 4us
DESC
cat >cut.py <<'PY'
import json, sys
src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(src))
t0 = [e['ts'] for e in d['traceEvents'] if e.get('name') == 'ProfilerStep#%d' % n][0]
gpu = ('kernel', 'gpu_memcpy', 'gpu_memset')
d['traceEvents'] = [e for e in d['traceEvents']
                    if not ((e.get('cat') in gpu or (e.get('cat') == 'ac2g' and e.get('ph') == 'f')) and e['ts'] >= t0)]
json.dump(d, open(dst, 'w'))
PY
run 'proftool-gen kineto k.ktdesc -o k.json && python3 cut.py k.json 4 c.json'
run 'proftool steps c.json --format csv | sh col.sh'
run 'proftool hints c.json --format csv | grep -E "^rank|LOW_DEVICE_UTIL"'
run 'proftool hints c.json --format csv 2>/dev/null | sed "s/;covered_steps=3;total_steps=5\$//" >a.csv; proftool hints c.json --steps 1-3 --format csv >b.csv; cmp a.csv b.csv && echo "hints: same as --steps 1-3"'
# flops: the model's steps and the operators are those of the covered steps (the ranges of steps
# 4-5 would have FLOPs and no device time), as with --steps 1-3; the whole trace counts 5 steps
run 'proftool flops c.json --by model --format csv'
run 'proftool summary c.json --view overview --format csv'
run 'bash sum.sh c.json 1-3 overview device gpu overview,kernel,api'
run 'proftool flops c.json --by model --format csv 2>/dev/null >a.csv; proftool flops c.json --by model --steps 1-3 --format csv >b.csv; cmp a.csv b.csv && echo "flops: same as --steps 1-3"'
run 'proftool flops c.json --format csv | python3 -c "import csv, sys; [print(\",\".join(r[k] for k in (\"type\", \"calls\", \"total_ns\", \"total_flops\", \"gflops\"))) for r in csv.DictReader(sys.stdin)]"'
run 'proftool flops k.json --by model --format csv'
