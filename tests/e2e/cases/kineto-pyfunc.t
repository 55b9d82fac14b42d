# python_function events of a Kineto trace (issue #27): counted by default, imported as PythonOp
# host ranges with --kineto-python-functions; the GPU figures are the same either way, and a
# malformed python_function is fatal only when it is imported.
K='$SRC/testdata/kineto'
run "proftool import $K/train-current.pt.trace.json -o off.ptm && proftool import --kineto-python-functions $K/train-current.pt.trace.json -o on.ptm"
run "for m in off on; do for t in devices stats; do proftool info \$m.ptm --format csv --table \$t; done | grep -E 'python|imported'; done"
run "proftool summary off.ptm --view overview | grep -c PythonOp; proftool summary on.ptm --view overview | grep PythonOp"
run "proftool dump on.ptm | grep -c PythonOp; proftool dump off.ptm | grep -c PythonOp"
# kernels, their operators and the steps: identical with and without the Python functions
run "for v in kernel operator; do proftool summary off.ptm --view \$v --format csv >a.csv && proftool summary on.ptm --view \$v --format csv >b.csv && cmp a.csv b.csv && echo \$v same; done"
run "proftool steps off.ptm --format csv >a.csv && proftool steps on.ptm --format csv >b.csv && cmp a.csv b.csv && echo steps same"
# a python_function whose ts is text: skipped unread by default, an error with the option
ev1='{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1.000, "dur": 2.5, "args": {"correlation": 5}}'
py='{"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 10, "tid": 10, "ts": "0.5", "dur": 4.0, "args": {"Python id": 3}}'
printf '{"schemaVersion": 1, "baseTimeNanoseconds": 1000000000, "traceEvents": [\n%s,\n%s\n]}\n' "$ev1" "$py" >bad-py.json
run "proftool import bad-py.json -o x.ptm && proftool info x.ptm --format csv --table stats | grep python"
run proftool import --kineto-python-functions bad-py.json -o y.ptm
run test -e y.ptm
sed 's/"ts": "0.5"/"ts": 0.5/' bad-py.json >good-py.json
run "proftool import --kineto-python-functions good-py.json -o z.ptm && proftool dump z.ptm | grep -E '^(event|range)'"
