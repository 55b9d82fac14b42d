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
# not JSON (every value is checked, read or not): a number in a field nobody reads, a number with a
# leading zero, a literal, a string escape, a control character and bad UTF-8 in a string, commas
printf '%s\n' "$good" | sed 's/"ph": "X", "cat": "kernel"/"ph": "X", "x": 0x1, "cat": "kernel"/' >num-hex.json
run proftool import num-hex.json -o x.ptm
printf '%s\n' "$good" | sed 's/"stream": 7/"stream": 07/' >num-zero.json
run proftool import num-zero.json -o x.ptm
printf '%s\n' "$good" | sed 's/"schemaVersion": 1/"schemaVersion": tru/' >literal.json
run proftool import literal.json -o x.ptm
printf '%s\n' "$good" | sed 's/"name": "k"/"name": "k\\q"/' >escape.json
run proftool import escape.json -o x.ptm
printf '%s\n' "$good" | sed 's/"name": "k"/"name": "k\t"/' >control.json
run proftool import control.json -o x.ptm
printf '%s\n' "$good" | sed 's/"name": "k"/"name": "k\xff"/' >utf8.json
run proftool import utf8.json -o x.ptm
printf '%s\n' "$good" | sed 's/"correlation": 5}},/"correlation": 5}} /' >no-comma.json
run proftool import no-comma.json -o x.ptm
printf '%s\n' "$good" | sed 's/"correlation": 5}}$/"correlation": 5}},/' >trailing-comma.json
run proftool import trailing-comma.json -o x.ptm
printf '%s\n' "$good" | sed 's/"schemaVersion": 1,/"schemaVersion": 1,,/' >member-comma.json
run proftool import member-comma.json -o x.ptm
# control characters outside strings that fail simdjson's first stage, which has no position of its
# own: the first one is named (a fuzz-kineto finding, kept as a seed)
run proftool import --input-format kineto $SRC/tests/fuzz/seeds/kineto/stage1-control.json -o x.ptm
# the structure cut short or closed wrong: inside an event, before the events' ']', before the
# object's '}'; a '}' closing the events; text after the object
printf '%s' "$good" | head -c 180 >in-event.json
run proftool import in-event.json -o x.ptm
printf '%s' "$good" | head -c $((${#good} - 2)) >no-bracket.json
run proftool import no-bracket.json -o x.ptm
printf '%s' "$good" | head -c $((${#good} - 1)) >no-brace.json
run proftool import no-brace.json -o x.ptm
printf '%s\n' "$good" | sed 's/^]}$/}}/' >brace.json
run proftool import brace.json -o x.ptm
printf '%s\n' "$good" | sed 's/^]}$/]} {}/' >after.json
run proftool import after.json -o x.ptm
# the text is read 1 MiB at a time: a string with escapes across the first boundary is read whole
# (plain and gzipped), and a text that ends inside it names where the string opens
python3 - <<'PY'
ev = '{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": %d.000, "dur": 1.000}'
t = '{"schemaVersion": 1, "traceEvents": ['
n = 0
while len(t) < (1 << 20) - 40:
    t += ev % n + ', '
    n += 1
long = '{"ph": "X", "cat": "cpu_op", "name": "' + 'a\\\\b\\"c' * 40 + '", "pid": 1, "tid": 1, "ts": 0.500, "dur": 1.000}'
t += long + ']}\n'
open('chunks.json', 'w').write(t)
cut = (1 << 20) + 100
open('chunk-cut.json', 'w').write(t[:cut])
PY
gzip -nk chunks.json
run "proftool import chunks.json -o c.ptm && proftool info c.ptm --format csv --table stats | grep kineto.events"
run "proftool import chunks.json.gz -o cz.ptm && proftool info cz.ptm --format csv --table stats | grep kineto.events"
run proftool import chunk-cut.json -o x.ptm
run test -e x.ptm
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
# the events' scanner on machines without AVX-512 (AVX2) or without AVX2 (SSE2 alone): the same
# message for every input above as the machine's best, and a control character in a string found
# in either 32-byte half of a block
python3 -c 'import sys; e=sys.argv[1]; print("{\"traceEvents\": [" + ",\n".join([e]*6) + "]}")' "$ev1" >long.json
for n in 1 2 3 4; do # the n-th name: bytes 64, 203, 342, 481 (0, 11, 22, 33 into a 64-byte block)
	python3 -c 'import sys; b=bytearray(open("long.json","rb").read()); i=-1
for _ in range(int(sys.argv[1])): i=b.index(b"cudaLaunchKernel", i + 1)
b[i+3]=9; open(sys.argv[2],"wb").write(b)' $n ctl$n.json
done
run 'for f in *.json *.json.gz; do a=$(proftool import "$f" -o y.ptm 2>&1); for s in SSE2 AVX2; do b=$(export PT_TEST_KINETO_$s=1; proftool import "$f" -o y.ptm 2>&1); [ "$a" = "$b" ] || echo "differs ($s): $f"; done; done; for n in 1 2 3 4; do proftool import ctl$n.json -o y.ptm; done'
# the event walker: keys written with escapes are read as their text (a known key too); values of
# known keys of another type than the expected string or number go to the general handlers; the
# keys and values it does not read are checked all the same, in a dropped event (a flow) too
printf '%s\n' "$good" | sed 's/"ph": "X", "cat": "kernel"/"p\\u0068": "X", "c\\u0061t": "kernel"/' >key-escaped.json
run proftool export key-escaped.json --table kernels
printf '%s\n' "$good" | sed 's/"correlation": 5}},/"correlation": 5}}, {"ph": "s", "id": 5, "a\\qb": 1},/' >flow-key.json
run proftool import flow-key.json -o x.ptm
printf '%s\n' "$good" | sed 's/"correlation": 5}},/"correlation": 5}}, {"ph": "s", "id": 5, "ts": 01},/' >flow-num.json
run proftool import flow-num.json -o x.ptm
printf '%s\n' "$good" | sed 's/"stream": 7/"str\\qam": 7/' >arg-key.json
run proftool import arg-key.json -o x.ptm
printf '%s\n' "$good" | sed 's/"ts": 4.25/"ts": -/' >ts-minus.json
run proftool import ts-minus.json -o x.ptm
printf '%s\n' "$good" | sed 's/"ph": "X", "cat": "kernel"/"ph": 1, "cat": "kernel"/; s/"name": "k"/"name": null/' >ph-number.json
run "proftool import ph-number.json -o p.ptm && proftool info p.ptm --format csv --table stats | grep kineto"
printf '%s\n' "$good" | sed 's/"args": {"device": 0, "stream": 7, "correlation": 5}/"args": [0, 7]/' >args-list.json
run "proftool import args-list.json -o a.ptm && proftool info a.ptm --format csv --table stats | grep kineto"
printf '%s\n' "$good" | sed 's/"dur": 1.125/"dur": 1125e-3/; s/"tid": 7/"tid": 7.0/' >num-forms.json
run proftool export num-forms.json --table kernels
# a call's "cbid" that is not a callback id (text, negative, beyond 32 bits, null) is not kept: the call
# has no cbid in the model nor in the kineto profile; a fraction is rounded, as for every integer
# argument (correlation, stream); a good one is kept
for v in '"211"' -1 211.5 4294967296 null 211; do
	printf '%s\n' "$good" | sed "s/\"args\": {\"correlation\": 5}/\"args\": {\"cbid\": $v, \"correlation\": 5}/" >cbid.json
	run "proftool import cbid.json -o c.ptm && proftool dump c.ptm | grep -c '^api-cbid'"
done
run "proftool timeline cbid.json --profile kineto -o kc && grep -o '\"cbid\":[0-9]*' kc/rank0.pt.trace.json"
# a distributedInfo world_size or backend of the wrong type is not kept; the rank still is
printf '%s\n' "$good" | sed 's/"baseTimeNanoseconds"/"distributedInfo": {"backend": 3, "rank": 2, "world_size": "8"}, "baseTimeNanoseconds"/' >dist.json
run "proftool timeline dist.json --profile kineto -o kd && grep -h distributedInfo kd/*.json"
