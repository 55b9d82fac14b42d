# proftool perf on the bundled sample, and its usage errors.
run proftool perf '$SRC/testdata/ascend/sample'
run proftool perf '$SRC/testdata/ascend/sample' --format csv --batch-size 32
run proftool perf '$SRC/testdata/ascend/sample' --batch-size 0
run proftool perf '$SRC/testdata/ascend/sample' --skip-steps -1
run proftool perf /nonexistent/job
run 'mkdir empty && proftool perf empty'
