# proftool summary streams two model shapes it used to read whole (proftool-summary(1) MEMORY), the
# same bytes and exit status as --in-memory: a file whose launch links name each activity twice, the
# second link naming another call (ptm-edit links-twice: the last link holds), of a CUPTI dump (the
# launch reads: memcpy, gpu, --time-window) and of a Kineto trace (the host read); and host threads
# whose runtime calls the file holds out of start order (each run of four calls of a thread written
# in reverse: the first read measures how far they fall behind, the host read holds the ranges and
# calls of that window), of one process and of two in one model; and zero-length operators of a
# thread with one start, a call there (each call with two such operators before it at its start, every
# fifth with three: the call attaches to the first in §2.2 order, which the host read pushes last),
# with calls in order and out of order; and these models without their TrackEvents (as written before
# TrackEvents existed: ptm-edit drop:13), whose first read finds the host ranges and is done again to
# gather what the host read needs (six reads). The models are scaled (several batches of events, range
# infos and links).
E="$SRC/tests/e2e/ptm-edit"
cat > rev.py <<'PY'
# rev.py IN OUT: each run of four runtime calls of a thread (in the file's order) written in reverse
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
pos = {}
for i, e in enumerate(ev):
    if e.get('ph') == 'X' and e.get('cat') == 'cuda_runtime':
        pos.setdefault((e['pid'], e['tid']), []).append(i)
for p in pos.values():
    for k in range(0, len(p), 4):
        b = p[k:k + 4]
        for i, v in zip(b, [ev[i] for i in b][::-1]):
            ev[i] = v
json.dump(d, open(sys.argv[2], 'w'))
PY
cat > zeros.py <<'PY'
# zeros.py IN OUT: before each runtime call, zero-length operators of its thread at its start
import json, sys
d = json.load(open(sys.argv[1]))
out, n = [], 0
for e in d['traceEvents']:
    if e.get('ph') == 'X' and e.get('cat') == 'cuda_runtime':
        n += 1
        for nm in ['aten::zq', 'aten::zp'] + (['aten::zr'] if n % 5 == 0 else []):
            out.append({'ph': 'X', 'cat': 'cpu_op', 'name': nm, 'pid': e['pid'], 'tid': e['tid'], 'ts': e['ts'], 'dur': 0, 'args': {}})
    out.append(e)
d['traceEvents'] = out
json.dump(d, open(sys.argv[2], 'w'))
PY
sed -e 's/^pid 4242/pid 4243/' -e 's/^rank 0 world 2/rank 1 world 2/' "$SRC/testdata/kineto/train-current.ktdesc" >k1.ktdesc
run 'proftool-gen kineto "$SRC/testdata/kineto/train-current.ktdesc" -o k.json --scale 4M >/dev/null && proftool-gen kineto k1.ktdesc -o k1.json --scale 3M >/dev/null && proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o c.cdump --scale 4M --id-stride 1 >/dev/null && echo generated'
run 'python3 rev.py k.json kr.json && python3 rev.py k1.json k1r.json && proftool import k.json -o k.ptm 2>/dev/null && proftool import kr.json -o kr.ptm 2>/dev/null && proftool import kr.json k1r.json -o kr2.ptm 2>/dev/null && proftool import c.cdump -o c.ptm 2>/dev/null && echo imported'
run 'python3 zeros.py k.json kz.json && python3 zeros.py kr.json kzr.json && proftool import kz.json -o kz.ptm 2>/dev/null && proftool import kzr.json -o kzr.ptm 2>/dev/null && echo imported'
run "python3 \"$E\" c.ptm ctw.ptm links-twice && python3 \"$E\" k.ptm ktw.ptm links-twice && echo edited"
run "for m in c k ktw kzr kr2; do python3 \"$E\" \$m.ptm \${m}nt.ptm drop:13 || exit 1; done; echo edited"
run 'for m in c k kr kr2 kz; do echo "$m: $(proftool info $m.ptm | grep -E "^events")"; done'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed summary (and messages, exit status) and the in-memory one
m=$1; shift
"$PROFTOOL" summary $m "$@" > a.txt 2>&1; ra=$?
"$PROFTOOL" summary $m --in-memory "$@" > b.txt 2>&1; rb=$?
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $m $* (exit $ra, $(wc -l < a.txt) lines)" || { echo "DIFFERS: $m $*"; diff a.txt b.txt | head -5; }
SH
run "for v in '--view memcpy' '--view gpu' '--time-window 0.01s:0.05s' '--view all' '--view gpu --format csv' '--view memcpy,gpu --format json' '--steps 2-3 --view gpu'; do bash same.sh ctw.ptm \$v; done"
run "for m in ktw kr kr2 kz kzr; do for v in '' '--view all' '--view memcpy' '--view gpu --format csv' '--steps 2-3' '--time-window 0.01s:0.05s' '--thread-sep' '--view operator --op-detail' '--view overview,model,operator --format json'; do bash same.sh \$m.ptm \$v; done; done"
run "for m in cnt knt ktwnt kzrnt kr2nt; do for v in '' '--view all' '--view gpu' '--steps 2-3 --thread-sep' '--view operator --op-detail --format csv'; do bash same.sh \$m.ptm \$v; done; done"
# each is streamed: the launch reads (three: the calls of the second links come after the first
# links' batches), the host read's five (six without TrackEvents; two for the CUPTI dump without host
# ranges, as before), against the one read of the whole load
term() { m=$1; shift; script -qec "PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" $*" /dev/null | tr '\r' '\n' | grep -c "reading '$m': 100%"; }
run "echo \"ctw: \$(term ctw.ptm summary ctw.ptm --view gpu) reads, in memory \$(term ctw.ptm summary --in-memory ctw.ptm --view gpu)\"; for m in ktw kr kr2 kz kzr cnt knt ktwnt kzrnt kr2nt; do echo \"\$m: \$(term \$m.ptm summary \$m.ptm --view all) reads, in memory \$(term \$m.ptm summary --in-memory \$m.ptm --view all)\"; done"
# the second links launch other activities than the first (the gpu view's launch delays, the
# operators' device time): the models linked once differ; the calls' order in the file changes nothing
# (taken in the file's order they would attach to other ranges): the model in order prints the same
run "proftool summary c.ptm --view gpu > 1.txt; proftool summary ctw.ptm --view gpu > 2.txt; cmp -s 1.txt 2.txt && echo 'c, ctw: the same' || echo 'c, ctw: linked twice, other launches'"
run "proftool summary k.ptm --view operator > 1.txt; proftool summary ktw.ptm --view operator > 2.txt; cmp -s 1.txt 2.txt && echo 'k, ktw: the same' || echo 'k, ktw: linked twice, other sums'"
run "for v in '--view all' '--view operator --op-detail --thread-sep'; do proftool summary k.ptm \$v > 1.txt; proftool summary kr.ptm \$v > 3.txt; cmp -s 1.txt 3.txt && echo \"k, kr \$v: the same\" || echo \"k, kr \$v: DIFFER\"; done"
run proftool summary kr.ptm --view operator --top 5 --sorted-by gpu-total
# each call's device time goes to aten::zp (first in §2.2 order), none to aten::zq and aten::zr
run proftool summary kz.ptm --view operator --name 'aten::z' --time-unit us
# malformed: the twice-linked models cut inside their second links and with a byte of them flipped,
# the model of calls out of order cut: the error names the file, exit 1, as the whole load's
run 'for m in ctw ktw; do head -c $(( $(stat -c %s $m.ptm) - 700 )) $m.ptm > cut-$m.ptm; python3 -c "import sys; d = bytearray(open(sys.argv[1], \"rb\").read()); d[len(d) - 700] ^= 0xff; open(sys.argv[2], \"wb\").write(d)" $m.ptm bad-$m.ptm; done; for m in kr kzrnt; do head -c $(( $(stat -c %s $m.ptm) * 2 / 3 )) $m.ptm > cut-$m.ptm; done; echo made'
run "for m in cut-ctw bad-ctw; do bash same.sh \$m.ptm --view gpu; proftool summary \$m.ptm --view gpu; echo \"exit \$?\"; done"
run "for m in cut-ktw bad-ktw cut-kr cut-kzrnt; do bash same.sh \$m.ptm --view all; proftool summary \$m.ptm; echo \"exit \$?\"; done"
