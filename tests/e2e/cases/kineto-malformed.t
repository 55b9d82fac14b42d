# Kineto traces that are damaged or not traces at all (issue #27): one-line errors naming the
# file and the byte offset (of the decompressed text for .gz), exit 1, no model written.
ev1='{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1.000, "dur": 2.5, "args": {"correlation": 5}}'
ev2='{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 4.25, "dur": 1.125, "args": {"device": 0, "stream": 7, "correlation": 5}}'
good="{\"schemaVersion\": 1, \"baseTimeNanoseconds\": 1000000000, \"traceEvents\": [
$ev1,
$ev2
]}"
printf '%s\n' "$good" >good.json
run proftool export good.json --table kernels
# truncated text, plain and gzipped; a damaged gzip stream
printf '%s' "$good" | head -c 200 >trunc.json
run proftool import trunc.json -o x.ptm
run test -e x.ptm
printf '%s' "$good" | gzip -n | head -c 120 >trunc.json.gz
run proftool import trunc.json.gz -o x.ptm
printf '%s' "$good" | head -c 200 | gzip -n >trunc2.json.gz
run proftool import trunc2.json.gz -o x.ptm
# bad ts: a string, not a number, out of range; dur missing; negative dur (skipped, counted)
printf '%s\n' "$good" | sed 's/"ts": 4.25/"ts": "4.25"/' >ts-string.json
run proftool import ts-string.json -o x.ptm
printf '%s\n' "$good" | sed 's/"ts": 4.25/"ts": 4.2.5/' >ts-lex.json
run proftool import ts-lex.json -o x.ptm
printf '%s\n' "$good" | sed 's/"ts": 4.25/"ts": 1e300/' >ts-big.json
run proftool import ts-big.json -o x.ptm
printf '%s\n' "$good" | sed 's/, "dur": 1.125//' >no-dur.json
run proftool import no-dur.json -o x.ptm
printf '%s\n' "$good" | sed 's/"dur": 1.125/"dur": -1.125/' >neg-dur.json
run "proftool export neg-dur.json --table kernels; proftool info neg-dur.json --format csv --table stats | grep kineto"
# wrong types: traceEvents an object, an event a number, baseTimeNanoseconds a string
printf '{"schemaVersion": 1, "traceEvents": {"a": 1}}' >events-object.json
run proftool import events-object.json -o x.ptm
printf '{"schemaVersion": 1, "traceEvents": [%s, 2]}' "$ev1" >event-number.json
run proftool import event-number.json -o x.ptm
printf '{"schemaVersion": 1, "baseTimeNanoseconds": "1", "traceEvents": [%s]}' "$ev1" >base-string.json
run proftool import base-string.json -o x.ptm
printf '{"schemaVersion": 1, "traceEvents": [%s], "baseTimeNanoseconds": 1.5}' "$ev1" >base-float.json
run proftool import base-float.json -o x.ptm
# non-trace JSON: not recognised (nothing importable), and named with --input-format kineto
printf '{"a": [1, 2, 3], "b": {"c": "d"}}\n' >other.json
run proftool import other.json -o x.ptm
run proftool import --input-format kineto other.json -o x.ptm
printf '[%s]\n' "$ev1" >array.json
run proftool import array.json -o x.ptm
# among several inputs, and in a directory, the failing file is named
run proftool import good.json ts-string.json -o x.ptm
run "mkdir d && cp good.json d/rank0.json && cp ts-string.json d/rank1.json && proftool import d -o x.ptm"
run test -e x.ptm
# a second process launching onto the GPUs of the first: its call is kept, never joined (a model's
# links may not cross processes), and the model reads back (a fuzz-kineto finding)
ev3='{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 11, "tid": 11, "ts": 6.000, "dur": 1.5, "args": {"correlation": 6}}'
ev4='{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 8.25, "dur": 1.125, "args": {"device": 0, "stream": 7, "correlation": 6}}'
printf '{"schemaVersion": 1, "traceEvents": [%s, %s, %s, %s]}\n' "$ev1" "$ev2" "$ev3" "$ev4" >two-pids.json
run "proftool import two-pids.json -o two.ptm && proftool export two.ptm --table kernels && proftool info two.ptm --format csv --table stats | grep kineto"
