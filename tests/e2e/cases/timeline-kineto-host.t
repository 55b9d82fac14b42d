# proftool timeline --profile kineto over a GPU model of one process with host ranges (Kineto traces)
# reads it as a stream (proftool-timeline(1) MEMORY): the operator ranges' cpu_op and "External id"
# (their range infos, which follow the events in the file, packed by the first read), the launch
# arrows, the host ProfilerStep rows, user annotations, several batches of events and range infos:
# the same files as the in-memory path (--in-memory) with every option. Read whole: a trace whose
# GPU user annotations the profile writes (every launch link and range), range infos out of event
# order. HTA reads the streamed files.
ln -s "$SRC/testdata" td
HTA="python3 \$SRC/tests/hta-check.py"
# the generated trace scaled up (some 2,000 ProfilerSteps, 12,000 host ranges on two threads), its
# operators given External ids as PyTorch writes them
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k0.json --scale 12M && echo generated'
python3 - <<'PY'
n = 0
with open("k0.json") as f, open("k.json", "w") as o:
    for line in f:
        if '"cat": "cpu_op"' in line and '"args": {}' in line:
            n += 1
            line = line.replace('"args": {}', '"args": {"External id": %d}' % (1000 + 3 * n))
        o.write(line)
PY
run 'proftool import k.json -o k.ptm 2>/dev/null && proftool dump k.ptm | awk "{print \$1}" | sort | uniq -c | sort -rn | grep -w "event\|range-info\|gpu-link"'
run 'for f in td/kineto/real-torch2.11-h200-beside-collector.pt.trace.json.gz td/kineto/real-torch2.11-h200-loop.pt.trace.json.gz; do b=${f##*/}; proftool import "$f" -o "${b%.pt.trace.json.gz}.ptm" 2>/dev/null || echo "no $b"; done; ls real-*.ptm | wc -l'
# range infos out of event order (the first one names the sixth one's range; the whole load then finds
# no range info for the ranges before it): read whole
run 'python3 "$SRC/tests/e2e/ptm-edit" k.ptm order.ptm "24:0:1=$(proftool dump k.ptm | grep range-info | sed -n "6s/.*event=\([0-9]*\).*/\1/p")" && proftool dump order.ptm | grep range-info | head -3'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the rank files, messages and exit status of both paths alike?
for p in a b; do
	rm -rf $p
	proftool timeline "$@" --profile kineto $([ $p = b ] && echo --in-memory) -o $p >$p.txt 2>&1
	echo "exit $?" >>$p.txt
done
diff -r a b >/dev/null && cmp -s a.txt b.txt && echo "same: $* ($(tail -n1 a.txt), $(ls a | wc -l) files)" || echo "DIFFERS: $*"
SH
run "for v in '' '--extra-tracks' '--gzip' '--no-flows' '--no-overlap' '--extra-tracks --no-overlap' '--no-demangle' '--scope-depth 2' '--steps 2-3' '--steps 1990-' '--extra-tracks --steps 2-3' '--time-window 0.5s:1s' '--time-window 1s:1.01s --extra-tracks' '--step-pattern Foo' '--step-pattern Optimizer.*'; do bash same.sh k.ptm \$v; done"
for m in real-*.ptm order.ptm; do
	run "for v in '' '--extra-tracks' '--no-flows' '--steps 1-1' '--time-window 0.001s:0.004s'; do bash same.sh $m \$v; done"
done
# what the streamed file carries: the operators' cpu_op with their External ids, the user annotations,
# the host ProfilerStep rows (no device Steps row), runtime calls with External id and cbid, the arrows
run "proftool timeline k.ptm --profile kineto -o kk && grep -o '\"cat\":\"[a-z_]*\"' kk/rank0.pt.trace.json | sort | uniq -c"
run "grep -m4 -o '\"cat\":\"\(cpu_op\|user_annotation\)\",\"name\":\"[^\"]*\",[^}]*}' kk/rank0.pt.trace.json; echo \"Steps rows: \$(grep -c '\"name\":\"Steps\"' kk/rank0.pt.trace.json)\""
run "$HTA kk --ids | head -n 12"
run "$HTA kk --kernels | tail -n 3"
# a truncated model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(( $(stat -c %s k.ptm) * 2 / 3 )) k.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
