# A model on standard input through a pipe (proftool(1) MEMORY): a command that streams a model file
# copies the pipe to an unlinked file of $TMPDIR (else /tmp) and streams that, as it streams the file;
# standard input that is a regular file is read again from where it stands. Every way prints the same
# bytes as the whole load of standard input (TMPDIR where no file can be made: read once, whole, as
# before) and, but for the name of the input, as the model file does: models of one process (CUPTI),
# of two processes (two CUPTI ranks), an Ascend job and a Kineto trace.
ln -s "$SRC/testdata" td
run 'proftool-gen cupti td/cupti/launch.cdtxt -o app.cdump && proftool import app.cdump -o launch.ptm 2>/dev/null && echo imported'
run 'for r in 0 1; do sed -E "s/^process rank=-?[0-9]+/process rank=$r/; s/^header cupti=130001 pid=664/header cupti=130001 pid=$((700 + r))/" "$SRC/bench/torch-loop.cdtxt" > r$r.cdtxt && proftool-gen cupti r$r.cdtxt -o r$r.cdump --scale 1M >/dev/null; done; proftool import r0.cdump r1.cdump -o two.ptm 2>/dev/null && proftool info two.ptm --table devices --format csv'
run 'proftool import td/ascend/sample -o asc.ptm 2>/dev/null && cp launch.ptm base.ptm && echo imported'
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k.json && proftool import k.json -o kin.ptm 2>/dev/null && echo imported'
# each command three ways from standard input (p: a pipe, spooled; w: a pipe read once, whole; r: a
# regular file) and from the file (f, its name replaced by "-"): the same output, warnings and exit status
cat >cmds.txt <<'EOD'
summary
summary --view all
summary --view gpu --format csv
summary --steps 2-3
summary --time-window 0:100ms
steps
steps --format csv
perf
flops
info
memory
memory --steps 2-3
export --table kernels --format csv
export --table api --format csv
dump
hints
diff base.ptm
timeline -o out.json --split-mb 0
timeline --steps 2-3 -o out.json --split-mb 0
timeline --profile kineto -o out
EOD
cat >same.sh <<'EOD'
# same.sh MODEL CMD...: "same" when the four ways agree, else what differs
m=$1; shift
one() { # one TAG: the output (the -o file or folder too) into TAG.out
	rm -rf out.json out; "$@" > $tag.out 2>&1; echo "exit $?" >> $tag.out
	[ -e out.json ] && cat out.json >> $tag.out; [ -d out ] && cat out/* >> $tag.out; true
}
tag=p; cat $m | one proftool "$@" -
tag=w; cat $m | TMPDIR=/nonexistent one proftool "$@" -
tag=r; one proftool "$@" - < $m
tag=f; one proftool "$@" $m
sed -i -e "s#'$m'#'-'#g" -e "s#\"$m\"#\"-\"#g" -e "s#^proftool: error: $m has no #proftool: error: standard input has no #" f.out
for t in w r f; do cmp -s p.out $t.out || { echo "DIFFERS ($t): $m $*"; diff p.out $t.out | head -5; exit; }; done
echo "same: $m $* ($(wc -l < p.out) lines, $(tail -c 200 p.out | grep -c exit) exit)"
EOD
for m in launch.ptm two.ptm asc.ptm kin.ptm; do
	run "while read -r c; do bash same.sh $m \$c; done < cmds.txt"
done
# straight from an import, through a pipe
run 'proftool import r0.cdump r1.cdump -o - 2>/dev/null | proftool steps - --format csv | head -4'
# a truncated model and a corrupt one through a pipe: the error names standard input and the offset,
# exit 1, no -o file; the same error as the whole load of standard input
run 'head -c $(( $(stat -c %s two.ptm) * 3 / 4 )) two.ptm > cut.ptm; for c in steps hints "timeline -o out.json" "summary --view all" perf; do rm -f out.json; cat cut.ptm | proftool $c - > a.txt 2>&1; echo "$c: exit $?"; test -e out.json && echo "out.json written"; cat cut.ptm | TMPDIR=/nonexistent proftool $c - > b.txt 2>&1; cmp -s a.txt b.txt || echo "DIFFERS from the whole load: $c"; cat a.txt; done'
run 'cp two.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s two.ptm) / 2 )) conv=notrunc 2>/dev/null; cat bad.ptm | proftool timeline - -o out.json; echo "exit $?"; test -e out.json && echo "out.json written" || echo "no out.json"'
run 'echo garbage | proftool steps -; echo "exit $?"; proftool hints - < /dev/null; echo "exit $?"'
# TMPDIR cannot take the copy (a file size limit stands for a full disk): the error names TMPDIR and
# the byte, exit 1
run '(trap "" XFSZ; ulimit -f 64; cat two.ptm | TMPDIR=. proftool steps - 2>&1; echo "exit $?") | cat'
# the model of two processes through a pipe, streamed where it streams, against --in-memory
run 'for c in summary "summary --view all" "summary --view kernel --format csv" hints "timeline -o out.json"; do rm -f out.json; cat two.ptm | proftool $c - > a.txt 2>&1; test -e out.json && cat out.json >> a.txt; rm -f out.json; proftool $c --in-memory - < two.ptm > b.txt 2>&1; test -e out.json && cat out.json >> b.txt; cmp -s a.txt b.txt && echo "same: $c" || echo "DIFFERS: $c"; done'
