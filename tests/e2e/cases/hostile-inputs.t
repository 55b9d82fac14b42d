# Hostile inputs with defined behaviour (tests/fuzz/README.md): empty files,
# random bytes under valid names, gigantic chunk lengths under a memory
# limit, huge and deeply nested JSON, non-UTF-8 names, timestamps near 2^64,
# duplicate step tags and a cycle in the MindData pipeline tree.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
cat >text.desc <<'DESC'
device 0
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
steps 2 stream 3 task 9
aicpu
aicpumi
tdt count 1
DESC
proftool-gen text.desc -o text >/dev/null
md=$SRC/testdata/minddata/pipeline
. "$SRC/tests/e2e/cases/limited.sh"

# 1. every kind as an empty file: "no records", exit 0 unless nothing at all is importable
for f in $(cd text && ls | grep -v '\.done$') pipeline_profiling_0.json device_queue_profiling_0.txt \
	minddata_cpu_utilization_0.json app.cdump; do
	rm -rf e && mkdir e && : >"e/$f"
	run proftool import e -o e.ptm
done
: >empty.ptm
run proftool info empty.ptm

# 2. random bytes under each valid name (seeded, 3 KiB)
rnd() { python3 -c "import random,sys; random.seed($1); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(3072)))"; }
i=0
for f in $(cd text && ls | grep -v '\.done$') pipeline_profiling_0.json device_queue_profiling_0.txt \
	minddata_cpu_utilization_0.json app.cdump x.ptm; do
	i=$((i + 1))
	rm -rf r && mkdir r && rnd $i >"r/$f"
	case $f in
	*.ptm) run proftool info r/x.ptm ;;
	*) run proftool import r -o r.ptm ;;
	esac
done
run 'ls *.ptm'

# 3. gigantic length fields in chunk framing, under a memory limit
proftool import --no-compress text -o raw.ptm 2>/dev/null
python3 - <<'PY'
b = open('raw.ptm', 'rb').read()
def varint(n):
    o = b''
    while True:
        x, n = n & 0x7f, n >> 7
        if not n:
            return o + bytes([x])
        o += bytes([x | 0x80])
i = 16
while b[i] & 0x80:
    i += 1
i += 1
open('len-max.ptm', 'wb').write(b[:16] + varint((256 << 20) - 1) + b[i:])
open('len-huge.ptm', 'wb').write(b[:16] + varint(1 << 62) + b[i:])
open('len-bad.ptm', 'wb').write(b[:16] + b'\xff' * 12)
PY
run limited 65536 proftool info len-max.ptm
run limited 65536 proftool info len-huge.ptm
run limited 65536 proftool info len-bad.ptm
cat >app.cdtxt <<'DESC'
header cupti=130001 pid=100 flags=default-clock,rewritten,system-tids
kinds default
buffer
  rec RUNTIME cbid=211 start=5000000100 end=5000000300 processId=100 threadId=100 correlationId=3
end-buffer
end
DESC
proftool-gen cupti app.cdtxt -o app.cdump >/dev/null
python3 - <<'PY'
b = bytearray(open('app.cdump', 'rb').read())
for name, val in (('len64', b'\xff' * 8), ('len32', b'\xff\xff\xff\x7f\0\0\0\0')):
    c = bytearray(b)
    c[72:80] = val          # the first chunk's u64 payload length
    open(name + '.cdump', 'wb').write(c)
PY
for f in len64 len32; do
	rm -rf c && mkdir c && cp $f.cdump c/
	run limited 200000 proftool import c -o c.ptm
done

# 4. huge and deeply nested JSON
rm -rf j && mkdir j && cp "$md"/* j/
python3 -c "print('[' * 100000 + ']' * 100000)" >j/pipeline_profiling_0.json
run limited 400000 proftool import j -o j.ptm
python3 -c "
import json
ops = [{'op_id': i, 'op_type': 'Map', 'num_workers': 1, 'children': [i + 1] if i < 19999 else None,
        'metrics': {'output_queue': {'size': [1] * 4, 'length': 8}}} for i in range(20000)]
json.dump({'sampling_interval': 10, 'op_info': ops}, open('j/pipeline_profiling_0.json', 'w'))"
run limited 900000 proftool import j -o j.ptm
run 'proftool dataset j.ptm --format csv -o j/ && cat j/*.csv | wc -l'
rm -rf k && cp -r text k && python3 -c "print('{\"DeviceInfo\": ' + '[' * 100000 + ']' * 100000 + '}')" >k/info.json.0
run limited 400000 proftool import k -o k.ptm

# 5. pipeline trees with cycles: a self-loop, 0 -> 1 -> 0 (no root), and a
# root beside the cycle 1 -> 2 -> 1
for kids in '[1] [0, 1]' '[1] [0]' '[] [2] [1]'; do
	rm -rf cyc && mkdir cyc && cp "$md"/device_queue_profiling_0.txt cyc/
	python3 - "$kids" <<'PY'
import json, sys
kids = [json.loads(k) for k in sys.argv[1].replace('] [', ']|[').split('|')]
ops = [{'op_id': i, 'op_type': 'Map', 'num_workers': 1, 'children': k,
        'metrics': {'output_queue': {'size': [1, 2], 'length': 4}}} for i, k in enumerate(kids)]
json.dump({'sampling_interval': 10, 'op_info': ops}, open('cyc/pipeline_profiling_0.json', 'w'))
PY
	run proftool import cyc -o cyc.ptm
done
run 'proftool dataset cyc --format csv'

# 6. non-UTF-8 and control bytes in op names: JSON and CSV output stay valid
rm -rf u && cp -r text u
python3 - <<'PY'
import glob
p = glob.glob('u/Framework.host.vm.task_desc_info.*')[0]
g = glob.glob('u/Framework.host.vm.graph_desc_info.*')[0]
for f in (p, g):
    b = open(f, 'rb').read().replace(b'Default/A-op1', b'Default/A\xff\xfe"\\\x01\xc3(-op1')
    open(f, 'wb').write(b)
PY
run proftool import u -o u.ptm
run 'proftool export u.ptm --table ops --format json | python3 -c "import json,sys; d=json.load(sys.stdin); print(repr(d[\"views\"][0][\"rows\"][0][\"name\"]))"'
run 'proftool export u.ptm --table ops --format csv | python3 -c "import csv,sys; r=list(csv.DictReader(sys.stdin)); print(len(r), repr(r[0][\"name\"]))"'
run 'proftool summary u.ptm --format json | python3 -c "import json,sys; json.load(sys.stdin); print(\"valid JSON\")"'
run 'proftool timeline u.ptm -o u.json && ./chrome-check u.json >/dev/null && python3 -c "import json,sys; json.load(sys.stdin); print(\"valid JSON\")" <u.json'

# 7. HWTS syscnt near 2^64, step-trace times near 2^64 and duplicate step tags
rm -rf h && cp -r text h
python3 - <<'PY'
import glob, struct
p = glob.glob('h/hwts.log.*slice_0')[0]
b = bytearray(open(p, 'rb').read())
struct.pack_into('<Q', b, 8, 2**64 - 5)     # Start record 0 near 2^64
struct.pack_into('<Q', b, 64 + 8, 2**64 - 1) # its End
struct.pack_into('<Q', b, 128 + 8, 2**63)   # the next Start beyond int64 ns
open(p, 'wb').write(b)
PY
run proftool import h -o h.ptm
run 'proftool export h.ptm --table tasks --format csv'
rm -rf s && cp -r text s
python3 - <<'PY'
import glob, struct
p = glob.glob('s/training_trace.*slice_0')[0]
b = bytearray(open(p, 'rb').read())
n = len(b) // 20
struct.pack_into('<Q', b, 20 * 1 + 12, 2**64 - 1)  # step 1 FP: sys_count 2^64-1
struct.pack_into('<Q', b, 20 * 2 + 12, 2**63)      # and the record after it
b += b[20 * (n - 1):]                              # the last record (end tag) twice
b += b[20 * 1:20 * 2]                              # and an FP after it
open(p, 'wb').write(b)
PY
run proftool import s -o s.ptm
run 'proftool steps s.ptm --format csv'
