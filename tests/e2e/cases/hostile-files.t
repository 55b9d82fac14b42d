# Inputs that are not plain files, or that shrink while they are read (issue 29
# items 5, 6 and 11): FIFOs, devices, dangling links and directories under an
# input's name are refused when named and skipped with a warning in a
# directory; a file truncated during the import (PT_TEST_SHRINK_TO, a test
# hook of lib/import/input.c) is an error naming it and the byte where it
# ended, with no output file. `timeout` turns a hang into exit 124.
tproftool() { timeout 60 "$PROFTOOL" "$@"; }
cat >j.desc <<'DESC'
device 0
info yes
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
steps 2 stream 3 task 9
DESC
proftool-gen j.desc -o j >/dev/null
hwts=$(cd j && ls hwts.log.*)
cat >app.cdtxt <<'DESC'
header cupti=130001 pid=100 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
buffer
  rec RUNTIME cbid=211 start=1000000100 end=1000000300 processId=100 threadId=100 correlationId=3
  rec CONCURRENT_KERNEL start=1000000400 end=1000000900 deviceId=0 contextId=1 streamId=7 correlationId=3 name="k"
end-buffer
DESC
proftool-gen cupti app.cdtxt -o app.cdump --scale 3M >/dev/null

# 1. a FIFO named as a dump, given as PATH, and inside a directory beside a real dump
mkfifo x.cdump
run tproftool import x.cdump -o x.ptm
mkdir c && cp app.cdump c/ && mkfifo c/y.cdump
run tproftool import c -o c.ptm
run 'ls *.ptm'
# a FIFO in a MindData directory and as an Ascend file in a job directory
mkdir md && cp "$SRC"/testdata/minddata/pipeline/* md/ && mkfifo md/minddata_cpu_utilization_9.json
run tproftool import md -o md.ptm
rm -rf f && cp -r j f && mkfifo f/DATA_PREPROCESS.dev.AICPU.0.slice_0
run tproftool import f -o f.ptm

# 2. an HWTS log that is a dangling link, a link to /dev/zero, a directory: warned, not silent
for kind in dangling zero dir; do
	rm -rf h && cp -r j h && rm "h/$hwts"
	case $kind in
	dangling) ln -s nowhere "h/$hwts" ;;
	zero) ln -s /dev/zero "h/$hwts" ;;
	dir) mkdir "h/$hwts" ;;
	esac
	run tproftool import h -o h.ptm
	run tproftool import "h/$hwts" -o h.ptm # named: an error
done
ln -s /dev/zero zero.cdump
run tproftool import zero.cdump -o z.ptm

# 3. files that shrink while they are read: an HWTS log (3 MiB, cut to 1.5 MB after its first
# window) and a CUPTI dump (cut after pass 0, where the mapping of old gave SIGBUS)
rm -rf s && proftool-gen j.desc -o s --hwts-bytes 3M >/dev/null
run PT_TEST_SHRINK_TO=1500000 tproftool import s -o s.ptm
run 'ls s.ptm* 2>&1; wc -c <s/hwts.log.*'
cp app.cdump t.cdump
run PT_TEST_SHRINK_TO=1000000 tproftool import t.cdump -o t.ptm
run 'ls t.ptm* 2>&1; wc -c <t.cdump'
# a dump cut before the import is a truncated dump, as before: a warning and its prefix
head -c 1000000 app.cdump >u.cdump
run tproftool import u.cdump -o u.ptm

# 4. correlation ids near 2^26 and 2^32 (issue 30 item 3): the join's memory follows the calls,
# not the largest id (a table sized by the id took 256 MiB here), so 100 MB of address space do
cat >ids.cdtxt <<'DESC'
header cupti=130001 pid=100 flags=default-clock,rewritten,system-tids
kinds default
clock cupti=1000000000 real=1000000000
buffer
  rec RUNTIME cbid=211 start=1000000100 end=1000000300 processId=100 threadId=100 correlationId=67107000
  rec CONCURRENT_KERNEL start=1000000400 end=1000000900 deviceId=0 contextId=1 streamId=7 correlationId=67107000 name="k"
  rec RUNTIME cbid=211 start=1000001100 end=1000001300 processId=100 threadId=100 correlationId=4294967000
  rec CONCURRENT_KERNEL start=1000001400 end=1000001900 deviceId=0 contextId=1 streamId=7 correlationId=4294967000 name="k"
end-buffer
end
DESC
proftool-gen cupti ids.cdtxt -o ids.cdump >/dev/null
. "$SRC/tests/e2e/cases/limited.sh"
run limited 100000 proftool import ids.cdump -o ids.ptm
run 'proftool dump ids.ptm | grep gpu-link'

# 4. Kineto traces: a FIFO named as a trace, given as PATH and inside a directory beside a real
# trace; a plain and a gzipped trace cut while they are read (read, never mapped: no SIGBUS)
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o k.pt.trace.json --scale 3M >/dev/null
mkfifo f.pt.trace.json
run tproftool import f.pt.trace.json -o f.ptm
mkdir kd && cp k.pt.trace.json kd/rank0.pt.trace.json && mkfifo kd/rank1.pt.trace.json
run tproftool import kd -o kd.ptm
cp k.pt.trace.json ks.pt.trace.json
run PT_TEST_SHRINK_TO=1500000 tproftool import ks.pt.trace.json -o ks.ptm
run 'ls ks.ptm* 2>&1; wc -c <ks.pt.trace.json'
proftool-gen kineto "$SRC"/testdata/kineto/train-current.ktdesc -o kz.pt.trace.json.gz --scale 12M >/dev/null
run 'PT_TEST_SHRINK_TO=$(($(wc -c <kz.pt.trace.json.gz) / 2)) tproftool import kz.pt.trace.json.gz -o kz.ptm; echo "exit $?"; ls kz.ptm* 2>&1'
