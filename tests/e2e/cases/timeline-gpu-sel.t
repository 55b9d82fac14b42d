# proftool timeline --steps and --time-window over a model file of GPU data read as a stream
# (pass-timeline-gsel.h, proftool-timeline(1) MEMORY): the same trace, messages and exit status as the
# in-memory path (--in-memory), on CUPTI dumps (steps by the iteration-boundary rule: no step range),
# Kineto traces and generated ones (ProfilerStep#N ranges) and an Nsight Systems export, for step
# ranges, open ends, a step pattern, a window, both, --device, and selections that select nothing
# (the notes: steps not found, a window outside the data, a pattern or device that names nothing).
# A model of two traced processes is read whole with a selection, the same. The kineto profile
# (--profile kineto, with and without --extra-tracks) likewise.
gpu_models
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M --id-stride 1 && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
run 'proftool import td/cupti/real-13.0-h200-vecadd.cdump td/cupti/real-13.0-h200-torch-loop.cdump -o two.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh MODEL OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one
m=$1; shift
rm -rf a b; mkdir a b
proftool timeline $m "$@" -o a/t.json > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o b/t.json > b.txt 2>&1; rb=$?
sed -i "s#a/t#OUT#g" a.txt; sed -i "s#b/t#OUT#g" b.txt
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files, $(grep -c warning a.txt) warnings)" || echo "DIFFERS: $m $*"
SH
for m in launch.ptm scaled.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm two.ptm; do
	run "for v in '--steps 2-3' '--steps 1' '--steps 2-' '--steps 900-901' '--time-window 0.001s:0.002s' '--time-window 10000s:' '--time-window :1us' '--steps 1-2 --time-window 0.0005s:' '--step-pattern ProfilerStep#[0-9]+ --steps 1-2' '--step-pattern Foo --steps 1' '--device 0 --steps 1' '--device 9 --steps 1-2' '--steps 2-3 --no-flows --split-mb 1'; do bash same.sh $m \$v; done"
done
# the kineto profile (one file per rank) with a selection, streamed the same way
cat > samek.sh <<'SH'
m=$1; shift
rm -rf a b
proftool timeline $m --profile kineto "$@" -o a > a.txt 2>&1; ra=$?
proftool timeline $m --profile kineto "$@" --in-memory -o b > b.txt 2>&1; rb=$?
ok=1
for f in a/* b/*; do [ -e a/${f#*/} ] && [ -e b/${f#*/} ] && cmp -s a/${f#*/} b/${f#*/} || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $m $* (exit $ra, $(ls a | wc -l) files, $(grep -c warning a.txt) warnings)" || echo "DIFFERS: $m $*"
SH
for m in launch.ptm scaled.ptm real-*.ptm k-*.ptm g-*.ptm nsys.ptm two.ptm; do
	run "for v in '--steps 2-3' '--steps 2-' '--steps 900-901' '--time-window 0.001s:0.002s' '--time-window 10000s:' '--steps 1-2 --time-window 0.0005s:' '--step-pattern Foo --steps 1' '--device 9 --steps 1-2' '--steps 2-3 --extra-tracks' '--time-window 0.001s:0.002s --extra-tracks --no-flows'; do bash samek.sh $m \$v; done"
done
# what the notes say, streamed: steps of the iteration-boundary rule, of step ranges, a window outside
run 'proftool timeline scaled.ptm --steps 900-901 -o t.json; echo "exit $?"'
run 'proftool timeline k-real-torch2.11-h200-loop.ptm --steps 900 -o t.json; echo "exit $?"'
run 'proftool timeline g-train-current.ptm --time-window 10000s: -o t.json; echo "exit $?"'
run 'proftool timeline g-train-current.ptm --step-pattern "Foo#[0-9]+" --steps 1 -o t.json; echo "exit $?"'
# the kept events of a step range, streamed
run "proftool timeline k-real-torch2.11-h200-loop.ptm --steps 2-3 -o t.json && jq -r '[.traceEvents[] | select(.ph==\"X\")] | \"\(length) X events, steps \([.[].args.step // empty] | unique | join(\",\"))\"' t.json"
# a truncated model with a selection: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s real-13.0-h200-torch-loop.ptm) * 2 / 3 )) real-13.0-h200-torch-loop.ptm > cut.ptm; proftool timeline cut.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
