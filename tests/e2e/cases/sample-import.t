# The bundled generated sample: import, info, the whole dump, every raw table,
# and determinism (two imports and compressed/uncompressed give the same model).
run proftool import '$SRC/testdata/ascend/sample' -o s.ptm
run proftool info s.ptm
run proftool dump s.ptm
run proftool export s.ptm --table ops
run proftool export s.ptm --table tasks --format json
run proftool export s.ptm --table steps --time-unit us
run proftool export s.ptm --table aicpu --format table
run proftool import '$SRC/testdata/ascend/sample' -o s2.ptm
run cmp s.ptm s2.ptm
run proftool import --no-compress '$SRC/testdata/ascend/sample' -o s3.ptm
run 'proftool dump s3.ptm | cmp - <(proftool dump s.ptm) && echo same dump'
run 'proftool info --format csv '$SRC/testdata/ascend/sample' | sed -n 1,4p'
run 'cat s.ptm | proftool export - --table steps --format jsonl | sed -n 1,2p'
