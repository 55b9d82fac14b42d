# A raw PATH given to a command that streams a model file (proftool(1), PATH): imported as `proftool
# import` imports it into an unnamed model file of $TMPDIR (else /tmp), which the command then streams
# as it streams a model file, every message naming the raw PATH. Each command prints the same bytes,
# warnings and exit status as the import in memory (--in-memory, and TMPDIR where no file can be made,
# which imports in memory as before) and as its model file (but for the name), on inputs that cross
# many batches: an Ascend job of 24 MiB of HWTS records (196,608 task executions), a CUPTI dump of two
# ranks' worth of launches (4 MiB) and a Kineto trace of 16 MiB.
ln -s "$SRC/testdata" td
run 'proftool-gen td/ascend/sample.desc -o job --hwts-bytes 24M >/dev/null && echo generated'
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o app.cdump --scale 4M >/dev/null && echo generated'
run 'proftool-gen kineto td/kineto/train-current.ktdesc -o k.json --scale 16M >/dev/null && echo generated'
run 'for p in job app.cdump k.json; do proftool import $p -o $p.ptm 2>/dev/null || echo "no $p"; done; ls *.ptm | wc -l'
cat >cmds.txt <<'EOD'
summary
summary --view all
summary --view kernel --format csv
steps
steps --format csv --steps 2-3
hints
hints --format json
perf
flops
memory
memory --steps 2-3
info
dump
export --table kernels --format csv
export --table tasks --format csv
export --table steps --format csv
diff @
diff --by step @
timeline -o out.json --split-mb 0
timeline --steps 2-3 -o out.json --split-mb 0
timeline --profile kineto -o out
EOD
cat >same.sh <<'EOD'
# same.sh PATH CMD...: "same" when the raw PATH streamed (s), imported in memory where no temporary
# file can be made (w), imported in memory by --in-memory where the command has it (m) and its model
# file where there is one (f, its name replaced by PATH's) agree; else what differs. No file is left in $TMPDIR.
p=$1; shift
args=("${@//@/$p}")
one() { # one TAG CMD...: the output (the -o file or folder too) into TAG.out
	local t=$1; shift
	rm -rf out.json out; "$@" > $t.out 2>&1; echo "exit $?" >> $t.out
	[ -e out.json ] && cat out.json >> $t.out; [ -d out ] && cat out/* >> $t.out; true
}
rm -rf tmp; mkdir tmp
TMPDIR=$PWD/tmp one s "$PROFTOOL" "${args[@]}" $p
[ -z "$(ls -A tmp)" ] || echo "left in TMPDIR: $(ls -A tmp)"
TMPDIR=/nonexistent one w "$PROFTOOL" "${args[@]}" $p
cp w.out m.out
case $1 in summary|hints|flops|timeline) one m "$PROFTOOL" "${args[@]}" --in-memory $p ;; esac
cp s.out f.out
if [ -e $p.ptm ]; then
	fargs=("${@//@/$p.ptm}")
	one f "$PROFTOOL" "${fargs[@]}" $p.ptm
	sed -i -e "s#$p\.ptm#$p#g" f.out
fi
for t in w m f; do cmp -s s.out $t.out || { echo "DIFFERS ($t): $p $*"; diff s.out $t.out | head -5; exit; }; done
echo "same: $p $* ($(wc -l < s.out) lines, $(grep -c '^proftool: warning' s.out) warnings, $(tail -1 s.out))"
EOD
for p in job app.cdump k.json; do
	run "while read -r c; do bash same.sh $p \$c; done < cmds.txt"
done
# the real dumps of testdata and the fixtures, raw against their model files
run 'for p in td/ascend/sample td/cupti/real-13.0-h200-torch-loop.cdump td/kineto/real-torch2.11-h200-loop.pt.trace.json.gz td/msgpu/lenet-mindrt; do b=${p##*/}; cp -r $p $b; proftool import $b -o $b.ptm 2>/dev/null; for c in steps hints "timeline -o out.json --split-mb 0" "memory" "flops"; do bash same.sh $b $c; done; done'
# an Ascend job with memory data (hints-memory.t's "near"): hints streamed gives MEMORY_NEAR_CAPACITY its
# peak_ns as in memory; the MindSpore GPU runs: summary streamed from the model file, the step trace's
# reduce intervals in the distributed view
cp "$SRC/tests/e2e/cases/memory-near.desc" near.desc
run 'proftool-gen near.desc -o near >/dev/null && for c in "hints --format csv" "hints --format json" "summary --view all"; do bash same.sh near $c; done; proftool hints near --format csv 2>/dev/null | grep -o "peak_ns=[0-9]*"'
run 'for p in td/msgpu/lenet td/msgpu/lenet-mindrt; do b=${p##*/}; cp -r $p $b; proftool import $b -o $b.ptm 2>/dev/null; for c in "summary --view all" "summary --view distributed --format csv" "summary --op-detail" hints; do bash same.sh $b $c; done; done'
# a truncated raw dump: the import's error names the raw file and the byte, exit 1, no -o file, the
# same error as the import in memory; nothing is left in $TMPDIR
run 'head -c 3000000 k.json > cut.json; for c in steps hints "timeline -o out.json" "summary --view all" perf flops memory info dump "diff cut.json"; do rm -rf out.json tmp; mkdir tmp; TMPDIR=$PWD/tmp proftool $c cut.json -o out.json > a.txt 2>&1; echo "$c: exit $?"; test -e out.json && echo "out.json written"; test -z "$(ls -A tmp)" || echo "left in TMPDIR"; TMPDIR=/nonexistent proftool $c cut.json -o out.json > b.txt 2>&1; cmp -s a.txt b.txt || echo "DIFFERS from the import in memory: $c"; cat a.txt; done'
# a CUPTI dump cut inside a record: a warning of the import (its tail is dropped), printed once, as in memory
run 'head -c $(( $(stat -c %s app.cdump) / 2 + 7 )) app.cdump > cut.cdump; for c in steps hints "timeline -o out.json --split-mb 0" "summary --view all" memory; do bash same.sh cut.cdump $c; done; proftool steps cut.cdump 2>&1 >/dev/null'
# TMPDIR is a file, not a directory: no file can be made there; imported in memory, the same output
run 'echo x > plain; TMPDIR=$PWD/plain proftool steps app.cdump > a.txt 2>&1; proftool steps app.cdump > b.txt 2>&1; cmp a.txt b.txt && echo same'
