# The bundled generated sample: executions, AI CPU ops and named reduce pairs.
run proftool steps '$SRC/testdata/ascend/sample' --format csv
run proftool steps '$SRC/testdata/ascend/sample' --wide
run proftool steps '$SRC/testdata/ascend/sample' --format json --steps 2-3
