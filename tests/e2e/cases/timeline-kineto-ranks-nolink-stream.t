# proftool timeline --profile kineto --extra-tracks over a model of two Kineto ranks without launch links
# reads it as a stream (proftool-timeline(1) MEMORY): the kernels join their calls by correlation id for
# the computation and communication unions, and as the whole load's index does, by the id alone, the first
# call of the id in the file of any rank (the launch arrows stay each rank's own). Rank 1's allreduce
# range is renamed to no collective, so that its elementwise kernel is communication only by rank 0's call
# of the same id. The same rank files as --in-memory with options, on ranks of several event batches; the
# read count says the model was streamed. A truncated and a corrupt model fail as read whole.
sed -n '/^cat > cr.ktdesc/,/^KT$/p' "$SRC/tests/e2e/cases/hints-comm-stream.t" | sed '1d;$d' > cr.ktdesc
sed 's/^pid 4242/pid 4243/; s/rank 0 world/rank 1 world/; s/^thread 4242/thread 4243/; s/^op "c10d::allreduce_"/op "my_bucket"/' cr.ktdesc > r1.ktdesc
run 'grep -c "my_bucket" r1.ktdesc'
run 'proftool-gen kineto r1.ktdesc -o r1.json --scale 2M && proftool-gen kineto cr.ktdesc -o r0.json --scale 2M && proftool import r0.json r1.json -o two.ptm 2>/dev/null && echo imported'
run 'python3 "$SRC/tests/e2e/ptm-edit" two.ptm nl.ptm drop:22 && proftool dump nl.ptm | grep -c "^gpu-link"; proftool info nl.ptm | grep -E "^events"'
cp "$SRC/tests/e2e/cases/timeline-kineto-same.sh" same.sh # (the streamed and in-memory files compared)
export COUNT='"name": *"Communication"' WHAT='Communication rows'
run "for v in '--extra-tracks' '--extra-tracks --no-flows' '--extra-tracks --no-overlap' '--extra-tracks --steps 2-3' '--extra-tracks --time-window 0.001s:0.002s' ''; do bash same.sh nl.ptm \$v; done"
# rank 1's communication union holds its elementwise kernels (by rank 0's calls): the overlap rows' names
run 'proftool timeline nl.ptm --profile kineto --extra-tracks -o x && grep -o "\"name\": *\"[A-Za-z ]*Communication[A-Za-z ]*\"" x/rank1.pt.trace.json | sort | uniq -c'
# streamed: the model is read more than once and never indexed (a whole load reads it once and indexes it)
run "script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" timeline --profile kineto --extra-tracks -o t nl.ptm' /dev/null | tr '\r' '\n' | grep -c \"reading 'nl.ptm': 100%\\|indexing\""
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no rank file
run 'head -c $(($(wc -c < nl.ptm) / 2)) nl.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto --extra-tracks -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
run 'python3 -c "import sys; d = bytearray(open(\"nl.ptm\", \"rb\").read()); d[len(d) // 2] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm --profile kineto --extra-tracks -o bad; echo "exit $?"; ls bad/ 2>/dev/null | wc -l'
