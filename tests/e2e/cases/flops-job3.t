# proftool flops on JOB3 (no aicore.data): analytical FLOPs from the graph file's shapes
# (ascend.md §3.9 and the hand-derived table of §6).
requires_shared
run "proftool flops '$SHARED/fixtures/mindinsight/JOB3' --format csv | grep -E 'MatMul-op|GatherV2-op|BiasAdd-op77|Adam-op185|SigmoidCrossEntropyWithLogits-op107' | cut -d, -f2,4,7,11,12,16 | sed 's|^[^,]*/||'"
run proftool flops '$SHARED/fixtures/mindinsight/JOB3' --by model --format csv
run proftool flops '$SHARED/fixtures/mindinsight/JOB3' --by model --peak 256 --format json
run proftool flops '$SHARED/fixtures/mindinsight/JOB3' --by type --format csv
run "proftool flops '$SHARED/fixtures/mindinsight/JOB3' --by step --format csv | head -4"
run "proftool flops '$SHARED/fixtures/mindinsight/JOB3' --by scope --scope-depth 3 --format csv"
run "proftool flops '$SHARED/fixtures/mindinsight/JOB3' --format folded --scope-depth 4"
# one execution of each of the 15 MatMuls totals 311,623,680,000 FLOPs (ascend.md §6)
run "proftool flops '$SHARED/fixtures/mindinsight/JOB3' --format csv 2>/dev/null | awk -F, '\$3 == \"MatMul\" { n++; s += \$7 } END { printf \"%d %.0f\\n\", n, s }'"
