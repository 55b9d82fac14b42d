# CUPTI: damaged dumps (cupti.md §1.5, §2, §8.4): fatal header errors, warnings for the rest.
base='header cupti=130001 pid=7 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000 real=1000'
kern='  rec RUNTIME cbid=211 start=100 end=200 processId=7 threadId=7 correlationId=1
  rec CONCURRENT_KERNEL start=300 end=400 deviceId=0 contextId=1 streamId=7 correlationId=1 name="k1" gridX=1 gridY=1 gridZ=1 blockX=32 blockY=1 blockZ=1'
gen() { printf '%s\n' "$2" >"$1.cdtxt"; proftool-gen cupti "$1.cdtxt" -o "$1.cdump"; }
# header errors: fatal, no model written
gen major "header cupti=130001 major=2"
run proftool import major.cdump -o major.ptm
run test -e major.ptm
gen magic "header cupti=130001 magic=CUPTIDMX"
run proftool import magic.cdump -o magic.ptm
gen endian "header cupti=130001 endian=2"
run proftool import endian.cdump -o x.ptm
gen psize "header cupti=130001 pointer-size=4"
run proftool import psize.cdump -o x.ptm
gen hsize "header cupti=130001 header-size=40"
run proftool import hsize.cdump -o x.ptm
printf 'CUPTIDMP' >short.cdump
run proftool import short.cdump -o x.ptm
# among several named dumps the failing one is named, not the first PATH
gen good "$base"
run proftool import good.cdump short.cdump -o x.ptm
# truncation: readable up to the last complete chunk
gen trunc "$base
buffer
$kern
end-buffer
truncate-file 1990"
run proftool export trunc.cdump --table kernels
gen trunc2 "$base
buffer
$kern
end-buffer
truncate-file 1900"
run proftool export trunc2.cdump --table kernels
gen noend "$base
buffer
$kern
end-buffer
no-end"
run proftool export noend.cdump --table kernels
gen zero "$base
buffer
$kern
end-buffer
no-end
zero-fill 32"
run proftool export zero.cdump --table kernels
# malformed chunk payloads, one per chunk type
gen chunks "$base
chunk 1 10000000
chunk 2 0100
chunk 3 01000000ff000000
chunk 5 01000000ff000000
chunk 6 0200000001000000ff00000000000000
chunk 7 0100
chunk 8 01
chunk 9 05000000ff000000
chunk 4 000000000000000010000000
chunk 77 00
buffer
$kern
end-buffer
chunk 1 1000000000000000
chunk 4 000000000000000010000000
chunk 4476485 01
chunk 69 01"
run proftool export chunks.cdump --table kernels
run proftool export chunks.cdump --table api
# records: unknown kind, incomplete record, no layout, raw kind, untimed, start after end, missing launch
gen recs "$base
stride MEMCPY=104
buffer
$kern
  rec CONCURRENT_KERNEL start=0 end=400 deviceId=0 streamId=7 correlationId=2 name=\"untimed\"
  rec CONCURRENT_KERNEL start=500 end=450 deviceId=0 streamId=7 correlationId=3 name=\"backwards\"
  rec CONCURRENT_KERNEL start=600 end=700 deviceId=0 streamId=7 correlationId=99 name=@77
  rec CONCURRENT_KERNEL start=50 end=60 deviceId=0 streamId=7 correlationId=1 name=\"before-launch\"
  raw 0800000000000000
end-buffer
buffer
  raw 39000000
  raw 00000000
end-buffer
buffer
$kern
  cut 100
end-buffer
buffer
  raw 0100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
end-buffer
dropped 5,1,0,16"
run proftool export recs.cdump --table kernels
run proftool info recs.cdump
# no layout table for CUPTI 13.1 yet: every record is counted and skipped
z=$(printf '0%.0s' $(seq 440))
gen v131 "header cupti=130100
stride CONCURRENT_KERNEL=224 RUNTIME=40
clock cupti=1000 real=1000
buffer
  raw 0a000000$z
  raw 0a000000$z
end-buffer"
run proftool import v131.cdump -o v131.ptm
run proftool dump v131.ptm
# NVTX anomalies: END without START, START without END, END before START, a parent naming no range
gen nvtx "$base
buffer
$kern
  rec MARKER flags=4 id=5 timestamp=150 objectKind=2 objectId=7,7
  rec MARKER flags=2 id=6 timestamp=120 objectKind=2 objectId=7,7 name=\"open\"
  rec MARKER flags=2 id=8 timestamp=190 objectKind=2 objectId=7,7 name=\"backwards\"
  rec MARKER flags=4 id=8 timestamp=180 objectKind=2 objectId=7,7
  rec MARKER flags=1 id=9 timestamp=130 objectKind=2 objectId=7,7 name=\"mark\"
  range Backward \"bwd\" start=110 end=250 thread=7 id=10 parent=99
  range UserRange \"aten::mm, seq = 4, sizes = [[2, 3], [3, 4]]\" start=90 end=260 thread=7 id=11
end-buffer"
run proftool dump nvtx.cdump
# not a dump: nothing for the CUPTI importer
echo hello >notes.txt
run proftool import --input-format cupti notes.txt -o x.ptm
