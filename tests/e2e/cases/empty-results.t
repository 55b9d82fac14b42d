# Empty results, selections that select nothing and missing data (proftool(1) OUTPUT "Empty
# results", issue #25 point 6), on the Ascend sample: a table with no rows prints its header and
# "(no rows: <reason>)" in text, the header alone in CSV, "rows":[] in JSON; a selection that
# selects nothing warns with what the model has; a command whose data is absent fails with
# "MODEL has no <kind> data (import <what> to get it)".
run 'proftool import "$SRC/testdata/ascend/sample" -o s.ptm 2>/dev/null && echo imported'
# empty tables, in each format
run proftool steps s.ptm --steps 400-500
run proftool steps s.ptm --steps 400-500 --format csv
run proftool steps s.ptm --steps 400-500 --format json
run proftool summary s.ptm --view kernel,aicpu --steps 400-500
run proftool summary s.ptm --view kernel --steps 400-500 --format json
run proftool flops s.ptm --by step --time-window 1000s:
run proftool export --table kernels s.ptm --format table
run proftool dataset s.ptm --format csv
# selections that select nothing, with what there is
run proftool steps s.ptm --steps 11-
run proftool steps s.ptm --steps 0
run proftool hints s.ptm --steps 50 --format csv
run proftool summary s.ptm --time-window 1s:2s --view overview
run proftool steps s.ptm --time-window :0ns
run proftool steps s.ptm --device 9
# a selection that selects something says nothing
run 'proftool steps s.ptm --steps 2-3 --format csv >/dev/null'
# missing data: one error for every command, exit 1
run proftool memory s.ptm
run proftool summary s.ptm --view api
run proftool summary s.ptm --view api,memcpy
run proftool summary s.ptm --view memcpy --in-memory
run 'proftool memory - < s.ptm'
run 'proftool import "$SRC/testdata/cupti/real-13.0-h200-vecadd.cdump" -o v.ptm 2>/dev/null && echo imported'
run proftool dataset v.ptm
# a --step-pattern that names no range says what ranges there are; a --name that matches nothing says so
run "proftool steps $SRC/testdata/kineto/train-current.pt.trace.json --step-pattern 'Foo#[0-9]+' >/dev/null"
run "proftool steps $SRC/testdata/kineto/train-current.pt.trace.json --step-pattern 'ProfilerStep#[0-9]+' >/dev/null"
run "proftool summary v.ptm --view kernel --name 'no-such-kernel'"
run proftool memory v.ptm --device 3
# a model with no steps and no device activity: steps, perf and hints have nothing to go on
run 'proftool import "$SRC/testdata/minddata/pipeline" -o md.ptm 2>&1 | tail -1'
run proftool steps md.ptm
run proftool perf md.ptm
# malformed input stays an input error, not a missing-data one
run 'printf "PTM\0garbage" > bad.ptm && proftool memory bad.ptm'
