# Hostile .ptm models whose CRC and footer are valid (issue 29, items 1, 3,
# 4 and 13), made by tests/e2e/ptm-edit from a real model or from scratch.
# Every one is refused with one message naming the file and what is wrong,
# exit 1, by the whole read (info, dump, summary --in-memory) and by the
# streaming one (summary), before any pass sees it, within a memory limit.
. "$SRC/tests/e2e/cases/limited.sh"
E=$SRC/tests/e2e/ptm-edit
proftool-gen cupti "$SRC/testdata/cupti/launch.cdtxt" -o launch.cdump >/dev/null
proftool import launch.cdump -o launch.ptm 2>/dev/null
# all of them: info, dump, summary streamed and whole, the device view, the
# kernel view (streamed without keeping the CUPTI side tables, which it checks)
every() {
	run proftool info "$1"
	run "proftool dump $1 >/dev/null"
	run proftool summary "$1"
	run proftool summary --in-memory "$1"
	run proftool summary --view device "$1"
	run proftool summary --view kernel "$1"
}

# 1. cross references (item 1). The CPU device of the process gets pid 4243
# while its GPU keeps 4242: the links join kernels to calls of another
# process (the summary read 56 bytes past a block, and printed garbage in a
# plain build).
run "'$E' launch.ptm pid.ptm 3:0:40=4243"
every pid.ptm
# the host thread track of the calls moved to the GPU device
run "'$E' launch.ptm track.ptm 4:0:1=1"
every track.ptm
# the device's own pid kept, the GPU's changed: the same join, seen from the other side
run "'$E' launch.ptm gpupid.ptm 3:1:40=1"
run proftool summary --in-memory gpupid.ptm
# a device kind and a track kind beyond their enums (the summary shifted a bit
# mask by the device kind: UBSan, found by the ptm fuzz target)
run "'$E' launch.ptm devkind.ptm 3:0:2=91; '$E' launch.ptm trkind.ptm 4:0:2=91"
every devkind.ptm
every trkind.ptm
# the untouched model still reads and sums
run "proftool summary launch.ptm >/dev/null"

# 2. a zlib bomb (item 3): one event batch of 50 M zero events, 250 MB of
# body in a file of about 240 KB; 4097 events; 4096 events (the limit: read)
run "'$E' --batch 50000000 bomb.ptm; '$E' --batch 4097 b4097.ptm; '$E' --batch 4096 b4096.ptm"
run 'test $(wc -c <bomb.ptm) -lt 300000 && echo small'
for f in bomb b4097; do
	run limited 65536 proftool info $f.ptm
	run limited 65536 proftool summary $f.ptm
done
run "limited 65536 proftool info b4096.ptm | grep '^events '"

# 3. a CPU bomb (item 4): a compressed body of 64 MiB of zero bytes (zero-length
# chunks, about 64 KB of file; the old reader took 10 s to find no footer),
# and chunks that hold nothing: 16 are read, 17 are refused
run "'$E' --zero-body 67108864 zero.ptm; '$E' --empty 16 6 empty16.ptm; '$E' --empty 17 6 empty17.ptm; '$E' --empty 1000000 5 empty-strings.ptm; '$E' --empty 1000000 99 empty-unknown.ptm"
run 'test $(wc -c <zero.ptm) -lt 70000 && echo small'
run proftool info zero.ptm
run "proftool info empty16.ptm | grep '^events '"
for f in empty17 empty-strings empty-unknown; do
	run proftool info $f.ptm
done

# 4. limits of strings and chunks (items 3 and 13): a NUL inside a string of
# the string table and inside a device name (both cut the name where C reads
# it), a string of 1 MiB + 1 bytes, a device record of 2 MB
run "'$E' launch.ptm nul.ptm 'str:3=ab\\x00cd'; '$E' launch.ptm devnul.ptm '3:0:3=s:ap\\x00p'"
every nul.ptm
run proftool info devnul.ptm
run "'$E' launch.ptm long.ptm str:3=@1048577; '$E' launch.ptm long-ok.ptm str:3=@1048576; '$E' launch.ptm big-device.ptm 3:0:3=s:@2000000"
run proftool info long.ptm
run "proftool info long-ok.ptm | grep '^strings '"
run limited 65536 proftool info big-device.ptm
