# Truncated records at every offset of the first record of each binary format:
# a truncated tail is a counted warning (ascend.md §0, cupti.md §1), a
# truncated header is fatal; never a crash, and no model file after a failure.
# Each line: bytes kept, exit status, stderr (lines joined with ' | ';
# the 'wrote' line and the default-frequency warning left out).
cat >text.desc <<'DESC'
device 0
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
steps 2 stream 3 task 9
DESC
cat >bin.desc <<'DESC'
device 0
era binary
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us in 2:1:"32,64" out 3:1:"32"
steps 2 stream 3 task 9
point 1 Default/A-op1
aicpu-format binary
aicpu
DESC
proftool-gen text.desc -o text >/dev/null
proftool-gen bin.desc -o bin >/dev/null
# cut FILE RECSIZE: import a job holding only the first N bytes of FILE, N = 1 .. RECSIZE-1
cut() {
	local f=$1 size=$2 n rc b
	b=$(basename "$f")
	for n in $(seq 1 $((size - 1))); do
		rm -rf j out.ptm && mkdir -p j/data
		case $f in */data/*) head -c "$n" "$f" >"j/data/$b" ;; *) head -c "$n" "$f" >"j/$b" ;; esac
		cp text/info.json.0 j/ 2>/dev/null
		proftool import j -o out.ptm >/dev/null 2>err
		rc=$?
		echo "$n: exit $rc: $(grep -v 'wrote\|hwts_frequency' err | paste -sd'|' | sed 's/|/ | /g')"
		[ $rc -ne 0 ] && [ -e out.ptm ] && echo "$n: partial output file left"
	done
	return 0
}
run cut text/hwts.log.data.45.dev.profiler_default_tag.0.slice_0 64
run cut text/training_trace.46.dev.profiler_default_tag.0.slice_0 20
run cut bin/data/Framework.task_desc_info.0.slice_0 256
run cut bin/data/Framework.tensor_data_info.0.slice_0 256
run cut bin/data/Framework.step_info.0.slice_0 64
run cut bin/DATA_PREPROCESS.dev.AICPU.0.slice_0 128
# CUPTIDMP: the 64-byte header and the first chunk
cat >app.cdtxt <<'DESC'
header cupti=130001 pid=100 flags=default-clock,rewritten,system-tids
kinds default
buffer
  rec RUNTIME cbid=211 start=5000000100 end=5000000300 processId=100 threadId=100 correlationId=3
end-buffer
end
DESC
proftool-gen cupti app.cdtxt -o app.cdump >/dev/null
cutc() {
	local n rc
	for n in $(seq 1 "$1"); do
		rm -rf j out.ptm && mkdir j
		head -c "$n" app.cdump >j/app.cdump
		proftool import j -o out.ptm >/dev/null 2>err
		rc=$?
		echo "$n: exit $rc: $(grep -v wrote err | paste -sd'|' | sed 's/|/ | /g')"
		[ $rc -ne 0 ] && [ -e out.ptm ] && echo "$n: partial output file left"
	done
	return 0
}
run cutc 96
# .ptm: the 16-byte header and the first chunks of an uncompressed model
proftool import --no-compress text -o m.ptm 2>/dev/null
cutm() {
	local n
	for n in $(seq 0 "$1"); do
		head -c "$n" m.ptm >t.ptm
		proftool info t.ptm >/dev/null 2>err
		echo "$n: exit $?: $(paste -sd'|' err | sed 's/|/ | /g')"
	done
}
run cutm 80
