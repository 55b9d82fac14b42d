# CUPTI synchronization joins (cupti.md §6.7): a Stream Wait Event and an Event
# Sync find the cudaEventRecord they waited for, by cudaEventSyncId when the
# record has one, else as the last record of the same (context, event id) with
# a smaller correlation id (the id wins over a later record of the same event
# id); a record later in the dump still joins; a sync whose event was never
# recorded keeps -1 and is counted. The joins reach the
# model (dump), its file (a .ptm round trip) and the Chrome trace args.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
cat >sync.cdtxt <<'DESC'
header cupti=130001 pid=4242 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
process rank=0 comm=app
buffer
  rec DEVICE id=0 name="GPU" numMultiprocessors=4 globalMemorySize=1073741824 computeCapabilityMajor=9 computeCapabilityMinor=0
  rec CONTEXT contextId=1 deviceId=0 nullStreamId=7
  rec CUDA_EVENT correlationId=20 contextId=1 streamId=7 eventId=5 deviceId=0
  rec SYNCHRONIZATION type=2 start=1000001000 end=1000001100 correlationId=22 contextId=1 streamId=8 cudaEventId=5
  rec CUDA_EVENT correlationId=24 contextId=1 streamId=9 eventId=5 deviceId=0
  rec SYNCHRONIZATION type=1 start=1000002000 end=1000002500 correlationId=26 contextId=1 streamId=0xffffffff cudaEventId=5
  rec SYNCHRONIZATION type=1 start=1000003000 end=1000003200 correlationId=31 contextId=1 streamId=0xffffffff cudaEventId=6 cudaEventSyncId=77
  rec SYNCHRONIZATION type=2 start=1000004000 end=1000004100 correlationId=33 contextId=1 streamId=8 cudaEventId=9
  rec SYNCHRONIZATION type=3 start=1000005000 end=1000005400 correlationId=35 contextId=1 streamId=8 cudaEventId=0xffffffff
  rec CUDA_EVENT correlationId=28 contextId=1 streamId=11 eventId=6 deviceId=0 cudaEventSyncId=77
  rec CUDA_EVENT correlationId=29 contextId=1 streamId=12 eventId=6 deviceId=0
end-buffer
clock cupti=1000010000 real=1000010000 reason=2
end
DESC
run proftool-gen cupti sync.cdtxt -o sync.cdump
run proftool import sync.cdump -o sync.ptm
run "proftool dump sync.ptm | grep -E '^(sync-info|event)'"
run "proftool info sync.ptm | grep -E 'sync'"
run "proftool dump sync.cdump | grep -c '^sync-info'"
run "proftool timeline sync.ptm -o - | grep -o '\"name\":\"[A-Za-z ]*Sync[A-Za-z ]*\".*'"
run "proftool timeline sync.ptm -o sync.json && ./chrome-check sync.json && python3 -c 'import json; t = json.load(open(\"sync.json\")); print(sum(1 for e in t[\"traceEvents\"] if \"wait_on_stream\" in e.get(\"args\", {})))'"
