# Ascend times near 2^63 ns, clock offsets out of range and MindData sample
# times beyond 2^62 ns (tests/fuzz/README.md, finding 8). The importers keep
# device times, sample times and clock offsets within ±2^62 ns (the model's
# time range, PT_TIME_LIMIT in lib/model/model.h) and count what they leave
# out, so timeline, summary and steps run on what remains with no overflow
# (the sanitizer build of this case reports none); `timeline` refuses a model
# whose times leave int64 once clock offsets are added, with one error and no
# output file.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
analyse() {
	run "proftool timeline $1 -o $1.json && ./chrome-check $1.json && jq -c '.proftool | [.clock, .base_ns]' $1.json"
	run "proftool summary $1 --format csv >$1.summary && head -n 3 $1.summary"
	run "proftool steps $1 --format csv >$1.steps && head -n 3 $1.steps"
}
sample() { rm -rf "$1" && cp -r "$SRC/testdata/ascend/sample" "$1" && rm -f "$1"/*.done; }

# 1. text-era job: an HWTS Start/End pair at syscnt 922337203685477000 (100 MHz:
# 9223372036854770000 ns, within int64 but beyond 2^62), a step-trace record
# with that sys_count, AI CPU and get_next runs at 9223372036854775 µs: the
# HWTS and step-trace records are skipped, the AI CPU op loses its times, the
# get_next record is skipped; each is a counted warning
sample big
python3 - <<'PY'
import glob, struct
p = glob.glob('big/hwts.log.*slice_0')[0]
b = bytearray(open(p, 'rb').read())
struct.pack_into('<Q', b, 8, 922337203685477000)       # Start of task 3
struct.pack_into('<Q', b, 64 + 8, 922337203685477000)  # its End
open(p, 'wb').write(b)
p = glob.glob('big/training_trace.*slice_0')[0]
b = bytearray(open(p, 'rb').read())
struct.pack_into('<Q', b, 20 * 1 + 12, 922337203685477000)
open(p, 'wb').write(b)
p = 'big/DATA_PREPROCESS.dev.AICPU.0.slice_0'
s = open(p, 'rb').read()
s = s.replace(b'Run start:1000000035, Run end:1000000075', b'Run start:9223372036854775, Run end:9223372036854775')
open(p, 'wb').write(s)
p = 'big/DATA_PREPROCESS.dev.AICPUMI.0.slice_0'
s = open(p, 'rb').read()
s = s.replace(b'Run start:1000001057, Run end:1000001072', b'Run start:9223372036854775, Run end:9223372036854775')
open(p, 'wb').write(s)
PY
run proftool import big -o big.ptm
run 'proftool dump big.ptm | grep -E "^stat device=0 (aicpu|aicpumi|hwts|step_trace)\.(records|skipped|events|executions)"'
analyse big.ptm

# 2. binary-era job: an AI CPU record whose Run start and end are
# 9223372036854775 µs (no cycle counts): the op is kept without its times
rm -rf bin && cp -r "$SRC/testdata/ascend/binary" bin && rm -f bin/*.done bin/data/*.done
python3 - <<'PY'
import struct
p = 'bin/DATA_PREPROCESS.dev.AICPU.1.slice_0'
b = bytearray(open(p, 'rb').read())
for o in (8, 48):
    struct.pack_into('<Q', b, o, 9223372036854775)
    struct.pack_into('<Q', b, o + 8, 0)
open(p, 'wb').write(b)
PY
run proftool import bin -o bin.ptm
analyse bin.ptm

# 3. the limit itself: syscnt 461168601842738790 is 2^62 - 4 ns (kept), one
# more cycle is beyond (skipped); kept, it puts the trace past 2^53 ns, which
# the timeline refuses (one error, no file), while summary and steps run
sample edge
python3 - <<'PY'
import glob, struct
p = glob.glob('edge/hwts.log.*slice_0')[0]
b = bytearray(open(p, 'rb').read())
struct.pack_into('<Q', b, 64 * 2 + 8, 461168601842738790)  # Start of task 4
struct.pack_into('<Q', b, 64 * 3 + 8, 461168601842738790)  # its End
struct.pack_into('<Q', b, 64 * 4 + 8, 461168601842738791)  # Start of task 5
open(p, 'wb').write(b)
PY
run proftool import edge -o edge.ptm
run 'proftool export edge.ptm --table tasks --format csv | grep -E "^(device|.*,4,)" | cut -d, -f1-8'
analyse edge.ptm
run 'ls edge.ptm.json'

# 4. clock offsets: a host clock_realtime of 2^63 - 1 makes an offset beyond
# 2^62 (ignored: the trace stays in the device clock); 2^63 - 1 with a
# monotonic clock of 2^62 - 1 and a device counter of 0 gives two offsets
# within 2^62 whose sum (2^63 - 1) puts every device time beyond int64 in the
# unix clock: the timeline refuses it, summary and steps do not need it
sample off1
printf '[Device0]\nclock_realtime: 9223372036854775807\nclock_monotonic_raw: 261003032627\n' >off1/host_start.log.0
run proftool import off1 -o off1.ptm
run 'proftool dump off1.ptm | grep -E "^ *clock-offset"'
analyse off1.ptm
sample off2
printf '[Device0]\nclock_realtime: 9223372036854775807\nclock_monotonic_raw: 4611686018427387903\n' >off2/host_start.log.0
printf '[Device0]\nclock_realtime: 9223372036854775807\ncntvct: 0\n' >off2/dev_start.log.0
run proftool import off2 -o off2.ptm
run 'proftool dump off2.ptm | grep -E "^ *clock-offset"'
analyse off2.ptm
run 'ls off2.ptm.json'

# 5. MindData times beyond 2^62 ns: pipeline queue and CPU samples at index ×
# the largest sampling interval accepted (9223372 ms) pass 2^62 ns after
# 500000 samples and are skipped from there; a device-queue timestamp beyond
# 2^62 ns is an unparsable line, one at the limit is kept
sample md
cp "$SRC"/testdata/minddata/pipeline/* md/
python3 - <<'PY'
import json
p = 'md/pipeline_profiling_0.json'
d = json.load(open(p))
d['sampling_interval'] = 9223372
q = [op for op in d['op_info'] if (op.get('metrics') or {}).get('output_queue')][0]
q['metrics']['output_queue']['size'] = [1] * 500010
json.dump(d, open(p, 'w'))
p = 'md/minddata_cpu_utilization_0.json'
d = json.load(open(p))
d['sampling_interval'] = 9223372
d['time_stamp'] = [4611686018427, 4611686018428]
d['device_info']['user_utilization'] = [1] * 500010
json.dump(d, open(p, 'w'))
open('md/device_queue_profiling_0.txt', 'a').write('1 64 11 0 4611686018427\n1 64 12 0 4611686018428\n')
PY
run proftool import md -o md.ptm
run 'proftool dump md.ptm | grep -E "^stat device=0 minddata\.(pipeline|cpu|device_queue)\."'
analyse md.ptm
run "proftool dataset md.ptm --format csv -o md/ && cat md/ops.csv md/queues.csv md/stages.csv md/batches.csv | cut -c 1-100 | grep -E '^(op_id|3,|queue,|host,)'"
