# proftool timeline on the real JOB3 sample (chrome-trace.md §13.10): one X per
# paired op execution with the model's start and duration, every task on its
# stream row, the step trace's reduce pairs on the Communication row, scope rows.
requires_shared
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
run proftool import '$SHARED/fixtures/mindinsight/JOB3' -o job3.ptm
run proftool timeline job3.ptm -o j3.json --scope-depth 2
run ./chrome-check j3.json
run 'sed -n 1,5p j3.json'
run "jq -r '[.traceEvents[] | select(.ph!=\"M\") | \"\(.ph) \(.cat)\"] | group_by(.) | map(\"\(.[0]) \(length)\") | .[]' j3.json"
# every op execution of `export --table ops` is one Kernel X with the same stream, task, start and duration
run "proftool export job3.ptm --table ops | sed 1d | cut -d, -f2,3,6,7 | sort > ops.txt; wc -l < ops.txt"
run "jq -r '.baseTimeNanoseconds as \$b | .traceEvents[] | select(.cat==\"Kernel\") | \"\(.args.stream_id),\(.args.task_id),\(\$b + (.ts*1000|round)),\(.dur*1000|round)\"' j3.json | sort > x.txt; wc -l < x.txt; cmp ops.txt x.txt && echo same"
# every paired task (named or not) is on its stream row
run "proftool export job3.ptm --table tasks | sed 1d | wc -l; jq '[.traceEvents[] | select(.cat==\"Kernel\" or .cat==\"UnnamedTask\")] | length' j3.json"
# the step trace's reduce pairs: one X per pair, same spans as `export --table steps`
run "jq -r '.traceEvents[] | select(.cat==\"Reduce\") | \"\(.args.step) \(.args.stream) \(.name)\"' j3.json | sed -n 1,11p"
run "jq '[.traceEvents[] | select(.cat==\"Reduce\")] | length' j3.json"
run "jq -r '.traceEvents[] | select(.cat==\"Scope\") | \"\(.tid) \(.name) \(.args.scope) \(.args.ops)\"' j3.json | sed -n 1,12p"
run "jq -r '.traceEvents[] | select(.cat==\"Step\") | \"\(.name) \(.dur)\"' j3.json | sed -n 1,3p"
# per step: Computation + Pure Communication + Free = step length (ns)
run "jq -r '.traceEvents[] | select(.cat==\"Overlap\" and .name!=\"Communication\") | (.dur*1000|round)' j3.json | paste -sd+ | bc; jq -r '.traceEvents[] | select(.cat==\"Step\") | (.dur*1000|round)' j3.json | paste -sd+ | bc"
