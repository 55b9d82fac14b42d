# SLOW_LINK (hints.md §3) on HCCL trace data (ascend.md §2.10, §3.10) generated beside Ascend jobs:
# hccl_info_<d>/<operator>/<execution>.json files, one directory per device, imported with the job.
rank() { # DEVICE, then hccl-link lines on stdin
	printf 'device %s\nsteps 1\nop Default/net/MatMul-op1 type MatMul stream 5 task 1 dur 1ms\nhccl-op allReduce_1\n' "$1"
	cat
}
# device 0 sends 1 MB to ranks 1 and 2 in 100 us (10000 KB/ms) and to rank 3 in 250 us (4000 KB/ms):
# mean 8000, link 0->3 is 50% below it. RDMA 0->1 and 1->0 (from device 1's data) both 20000 KB/ms.
rank 0 >slow.0.desc <<'L'
hccl-link 0 1 SDMA 1000000 100us at 100us
hccl-link 0 2 SDMA 1000000 100us
hccl-link 0 3 SDMA 1000000 250us
hccl-link 0 1 RDMA 2000000 100us
L
rank 1 >slow.1.desc <<'L'
hccl-link 1 0 RDMA 2000000 100us at 100us
hccl-link 1 1 SDMA 1000 1000us
L
# balanced: every SDMA link 10000 KB/ms
rank 0 >even.0.desc <<'L'
hccl-link 0 1 SDMA 1000000 100us at 100us
hccl-link 0 2 SDMA 1000000 100us
hccl-link 0 3 SDMA 1000000 100us
L
run 'proftool-gen slow.0.desc -o slow --print-expect=slow.0.expect && proftool-gen slow.1.desc -o slow --print-expect=slow.1.expect'
run 'grep -h hccl slow.0.expect slow.1.expect'
run proftool-gen even.0.desc -o even
run 'ls slow slow/hccl_info_0 slow/hccl_info_0/allReduce_1'
OFF=--hint=hints.disable=TOP_OPS,RANK_SPREAD,COMM_EXPOSED
run proftool hints slow $OFF --format csv
run proftool hints slow $OFF
run proftool hints slow $OFF --format json
run "proftool hints slow $OFF --hint hints.slow_link.pct=60 --format csv"
run proftool hints even $OFF
run proftool hints --explain SLOW_LINK --hint hints.slow_link.pct=30
# one device selected: only its own HCCL directory is read
run "proftool hints slow --device 1 $OFF --format csv --show-suppressed -o hs/ && cat hs/hints.csv hs/hints_suppressed.csv | grep SLOW_LINK"
# the model keeps every event as read; the model file round-trips them
run 'proftool dump slow 2>/dev/null | grep -E "^(hccl|stat device=. hccl)"'
run 'proftool import slow -o slow.ptm 2>/dev/null && proftool dump slow.ptm | grep -v "^source" | md5sum && proftool dump slow 2>/dev/null | grep -v "^source" | md5sum'
run 'proftool hints slow.ptm --format csv | grep SLOW_LINK | md5sum; proftool hints slow --format csv 2>/dev/null | grep SLOW_LINK | md5sum'
# the HCCL operator intervals are communication in the step breakdown (ascend.md §3.8)
run 'proftool steps slow --format csv 2>/dev/null'
# the HCCL directory alone (no step trace, no tasks) is enough for SLOW_LINK
run 'mkdir alone && cp -r slow/hccl_info_0 slow/hccl_info_1 alone/'
run proftool hints alone --format csv
# given as a PATH itself
run 'proftool dump slow/hccl_info_1 | grep -c "^hccl "'
# malformed files: not JSON, no traceEvents list, empty, bad events
bad() { mkdir -p bad/hccl_info_0/allReduce_1; printf '%s' "$1" >bad/hccl_info_0/allReduce_1/trace_0.json; }
run 'bad "{\"traceEvents\": [" && proftool dump bad'
run 'bad "{\"events\": []}" && proftool dump bad'
run 'bad "" && proftool dump bad'
run 'bad "[1, 2]" && proftool dump bad'
run 'bad "{\"traceEvents\": [7, {\"ts\": \"x\", \"dur\": 1}, {\"ts\": 1, \"dur\": -1}, {\"ts\": 1, \"dur\": 1, \"args\": {\"src rank\": -3}}, {\"ts\": 1, \"dur\": 1, \"args\": {\"size\": \"0xzz\"}}, {\"ts\": 1e300, \"dur\": 1}, {\"ts\": 2.5, \"dur\": 0.0015, \"tid\": 4, \"args\": {\"src rank\": \"3\", \"dst rank\": 4294967295, \"size\": \"ff\", \"transport type\": \"HCCS\", \"task type\": \"Memcpy\"}}]}" && proftool dump bad'
run 'rm -r bad && mkdir -p bad/hccl_info_0/op && echo "{\"traceEvents\": []}" >bad/hccl_info_0/op/notes.txt && proftool dump bad'
