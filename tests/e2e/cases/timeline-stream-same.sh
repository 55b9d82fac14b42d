# Helper of the streamed timeline cases (timeline-gpu-procs.t, timeline-vote-stream.t; copied beside their
# models; not a case itself).
# same.sh OPTIONS...: the streamed trace (and messages, exit status) and the in-memory one; -o DIR
# (of $M, procs.ptm unless given)
m=${M:-procs.ptm}
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
