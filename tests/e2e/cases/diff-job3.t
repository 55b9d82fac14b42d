# proftool diff on the real JOB3 dump against itself: every item and stage matches
# and every delta is zero.
requires_shared
J='$SHARED/fixtures/mindinsight/JOB3'
run "proftool diff $J $J --format csv 2>/dev/null | awk -F, 'NR > 1 { n++; if (\$2 != \"matched\" || \$8 != 0 || \$12 != 0 || \$16 != 0 || \$20 != 0 || \$24 != 0) bad++ } END { printf \"%d items, %d not matched or with a delta\\n\", n, bad }'"
run "proftool diff $J $J --by kernel --format csv 2>/dev/null | awk -F, 'NR > 1 { n++; if (\$2 != \"matched\" || \$8 != 0 || \$12 != 0) bad++ } END { printf \"%d kernels, %d not matched or with a delta\\n\", n, bad }'"
run proftool diff $J $J --top 5
run proftool diff $J $J --by optype --top 5 --format csv
run proftool diff $J $J --by scope --top 5 --format csv
run proftool diff $J $J --by step --format csv
run "proftool diff $J $J --match exact --format csv | cut -d, -f2 | sort | uniq -c"
run proftool diff $J $J --fail-on-regression 0 --top 1 --format jsonl
