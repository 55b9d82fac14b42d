# steps, perf, flops --steps, memory --steps and diff --by step over a model file of GPU data from
# several traced processes read it as a stream, one launch join per process (proftool-steps(1)
# MEMORY): the same bytes, warnings and exit status as the whole load (standard input where no file
# can be made in TMPDIR). Three CUPTI processes of one model, numbering their correlation ids alike:
# two under the iteration-boundary rule (the second shifted in time, so that a join across processes
# would move its launches), one with NVTX step ranges; their ranks (2, 0, 1) not in device order.
ln -s "$SRC/testdata" td
run 'bash "$SRC/tests/e2e/cases/mp-three.sh" "$SRC"'
run 'proftool info three.ptm --table devices --format csv | cut -d, -f1-3,13-14'
run 'proftool-gen cupti td/cupti/launch.cdtxt -o app.cdump && proftool import app.cdump -o one.ptm 2>/dev/null && echo imported'
cat > same.sh <<'SH'
# same.sh CMD OPTIONS...: CMD on three.ptm streamed and loaded whole (a pipe that cannot be copied)
c=$1; shift
proftool $c three.ptm "$@" > a.txt 2>&1; ra=$?
cat three.ptm | TMPDIR=/nonexistent proftool $c - "$@" > b.txt 2>&1; rb=$?
sed -i "s#'three.ptm'#MODEL#g; s#three.ptm#MODEL#g; s#'-'#MODEL#g; s#standard input#MODEL#g" a.txt b.txt
cmp -s a.txt b.txt && [ $ra = $rb ] && echo "same: $c $* (exit $ra, $(wc -l < a.txt) lines)" || echo "DIFFERS: $c $*"
SH
run "for v in '' '--format csv --wide' '--format json' '--steps 2-3' '--steps 150-160 --format csv' '--time-window 0.001s:0.002s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo' '--step-pattern ProfilerStep.* --format json'; do bash same.sh steps \$v; done"
run "for v in '' '--format csv' '--format json' '--batch-size 32 --skip-steps 1' '--time-window 0.001s:' '--step-pattern Foo --format csv'; do bash same.sh perf \$v; done"
run "for v in '' '--format csv' '--format json' '--by step --format csv'; do bash same.sh flops --steps 2-3 \$v; done"
run "for v in '' '--format csv' '--format json' '--by time --format csv' '--time-window 0.001s:0.5s'; do bash same.sh memory --steps 2-3 \$v; done"
cat > dsame.sh <<'SH'
# dsame.sh BASE TEST OPTIONS...: diff --by step streamed, then with BASE and TEST loaded whole in turn
a=$1 b=$2; shift 2
proftool diff $a $b --by step "$@" > f.txt 2>&1; rf=$?
cat $a | TMPDIR=/nonexistent proftool diff - $b --by step "$@" > x.txt 2>&1; rx=$?
cat $b | TMPDIR=/nonexistent proftool diff $a - --by step "$@" > y.txt 2>&1; ry=$?
sed -i "s#'-'#SIDE#g; s#'$a'#SIDE#g; s#'$b'#SIDE#g; s#standard input#SIDE#g" f.txt x.txt y.txt
cmp -s f.txt x.txt && cmp -s f.txt y.txt && [ $rf = $rx ] && [ $rf = $ry ] && echo "same: $a $b $* (exit $rf, $(wc -l < f.txt) lines)" || echo "DIFFERS: $a $b $*"
SH
run "for p in 'three.ptm three.ptm' 'one.ptm three.ptm' 'three.ptm one.ptm'; do for v in '' '--format csv' '--format json' '--steps 2-3' '--device 0 --format csv'; do bash dsame.sh \$p \$v; done; done"
# the streamed figures themselves: each rank by its own launches and ranges
run 'proftool steps three.ptm --format csv | awk -F, "\$1 != 1 || \$3 !~ /^[0-9]+\$/ || \$3 < 4" | cut -d, -f1-6,10-12,18-20'
run 'proftool perf three.ptm --format csv'
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; for c in steps perf "memory --steps 2-3" "diff three.ptm --by step"; do rm -f out.csv; proftool $c cut.ptm -o out.csv; echo "$c: exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"; done'
run 'python3 -c "d = bytearray(open(\"three.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool steps bad.ptm -o out.csv; echo "exit $?"; ls out.csv 2>&1 | sed "s/.*No such.*/no out.csv/"'
