# proftool timeline --steps over a GPU model of several traced processes reads it as a stream (each
# rank's steps from its host's step ranges, else from its own launches: proftool-timeline(1) MEMORY):
# the same trace, notes and exit status as the in-memory path (--in-memory), the viewer profile and the
# kineto profile's file per rank. Three CUPTI processes of one model numbering their correlation ids
# alike, each over several event batches: two under the iteration-boundary rule (the second shifted in
# time, so that launches joined across processes would move its steps), one with NVTX step ranges
# (its clock moved to the others' day: a trace spans less than 2^53 ns).
ln -s "$SRC/testdata" td
run 'sed -E "s/^process rank=-?[0-9]+/process rank=2/; s/^header cupti=130001 pid=664/header cupti=130001 pid=700/" "$SRC/bench/torch-loop.cdtxt" > p0.cdtxt
sed -E "s/^process rank=-?[0-9]+/process rank=0/; s/^header cupti=130001 pid=664/header cupti=130001 pid=701/" "$SRC/bench/torch-loop.cdtxt" | perl -pe "s/\b(start|end|timestamp)=(\d+)/\$1.q(=).(\$2+123457)/ge" > p1.cdtxt
sed -E "/^end\$/d; s/^process rank=-?[0-9]+/process rank=1/; s/pid=4242/pid=702/; s/processId=4242/processId=702/g; s/objectId=4242,4242/objectId=702,702/g" td/cupti/launch.cdtxt | perl -pe "s/\breal=(\d+)/q(real=).(\$1+1795780320388000000)/ge" > p2.cdtxt
proftool-gen cupti p0.cdtxt -o p0.cdump --scale 2560K && proftool-gen cupti p1.cdtxt -o p1.cdump --scale 2M && proftool-gen cupti p2.cdtxt -o p2.cdump --scale 256K && proftool import p0.cdump p1.cdump p2.cdump -o three.ptm'
cat > same.sh <<'SH'
# same.sh OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one
m=three.ptm
rm -rf a b; mkdir a b
case " $* " in *" --profile kineto "*) oa=a/k ob=b/k ;; *) oa=a/t.json ob=b/t.json ;; esac
proftool timeline $m "$@" -o $oa > a.txt 2>&1; ra=$?
proftool timeline $m "$@" --in-memory -o $ob > b.txt 2>&1; rb=$?
sed -i "s#a/#OUT/#g" a.txt; sed -i "s#b/#OUT/#g" b.txt
(cd a && find . -type f | sort) > a.ls; (cd b && find . -type f | sort) > b.ls
ok=1
[ -s a.ls ] && cmp -s a.ls b.ls || ok=0
for f in $(cat a.ls); do cmp -s a/$f b/$f || ok=0; done
cmp -s a.txt b.txt && [ $ra = $rb ] && [ $ok = 1 ] && echo "same: $* (exit $ra, $(wc -l < a.ls) files, $(cat a/$(head -1 a.ls) | wc -c) bytes in the first)" || echo "DIFFERS: $*"
SH
run "for v in '--steps 2-3' '--steps 1' '--steps 150-160' '--steps 900-901' '--steps 2-3 --device 0' '--steps 2-3 --device 5' '--steps 2 --no-flows' '--steps 2-3 --step-pattern Foo' '--steps 1-2 --step-pattern ProfilerStep.*' '--steps 2-3 --time-window 0.001s:0.5s'; do bash same.sh \$v; bash same.sh --profile kineto \$v; done"
# the notes count each rank's steps by its own launches or ranges
run "proftool timeline three.ptm --steps 900-901 -o t.json; proftool timeline three.ptm --steps 2-3 --step-pattern Foo -o t.json"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; proftool timeline cut.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"three.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --steps 2-3 -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"; proftool timeline bad.ptm --steps 2-3 --profile kineto -o kd; echo "exit $?"; find kd -type f 2>/dev/null | wc -l'
