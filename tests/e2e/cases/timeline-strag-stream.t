# proftool timeline over a GPU model whose events come far after their start in the file (CUPTI writes
# NVTX ranges after all the calls they enclose, a stream's syncs and copies apart from its kernels) reads
# it as a stream, those events held in columns of their own from the second read on (the rare fields:
# a length over 32 bits, a kineto profile's copy info, in a side table) and released to their rows in
# the rows' order (proftool-timeline(1) MEMORY): the same bytes, notes and exit status as the whole load
# (--in-memory), viewer and kineto profiles, with and without selections. Two processes over many event
# batches: NVTX ranges every one a straggler (pid 4242), and with pid 703 ranges of 5 s (a length that
# does not fit 32 bits) each written after its calls.
ln -s "$SRC/testdata" td
run 'sed "/^end\$/d" td/cupti/launch.cdtxt > nvtx.cdtxt && proftool-gen cupti nvtx.cdtxt -o n.cdump --scale 4M
sed -E "/^end\$/d; s/pid=4242/pid=703/; s/processId=4242/processId=703/g; s/objectId=4242,4242/objectId=703,703/g; s/thread=4242/thread=703/; s/^threads 4242=/threads 703=/; s/^process rank=0/process rank=1/" td/cupti/launch.cdtxt | sed -E "s/^(  range Forward .*)\$/\\1\\n  range Epoch \"Train\" start=1000000010 end=6000000000 thread=703 id=3 parent=0/" > long.cdtxt && proftool-gen cupti long.cdtxt -o l.cdump --scale 1M
proftool import n.cdump l.cdump -o two.ptm 2>/dev/null && proftool info two.ptm --table devices --format csv | cut -d, -f1-3'
run 'proftool info two.ptm | grep "^events"; proftool timeline two.ptm -o - --time-window 0s:6s | grep -c "\"Train\""'
cp "$SRC/tests/e2e/cases/timeline-stream-same.sh" same.sh # (the streamed and in-memory traces compared)
run "for v in '' '--no-flows' '--steps 2-3' '--steps 40-900' '--time-window 10s:20s' '--split-mb 1'; do M=two.ptm bash same.sh \$v; done"
run "for v in '' '--no-flows' '--steps 40-900' '--time-window 10s:20s' '--extra-tracks'; do M=two.ptm bash same.sh --profile kineto \$v; done"
# the benchmark's loop scaled down: each stream's syncs and copies held (the kineto profile's copy infos
# with them)
run 'proftool-gen cupti "$SRC/bench/torch-loop.cdtxt" -o s.cdump --scale 3M --id-stride 1 && proftool import s.cdump -o scaled.ptm 2>/dev/null && echo imported'
run "for v in '' '--steps 2-3' '--time-window 0.001s:0.002s'; do M=scaled.ptm bash same.sh \$v; M=scaled.ptm bash same.sh --profile kineto \$v; done"
# streamed (read more than once), not loaded whole
run "script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" timeline -o t.json two.ptm' /dev/null | tr '\\r' '\\n' | grep -c \"reading 'two.ptm': 100%\"; rm -f t.json"
# a truncated and a corrupt model: the error names the file and the offset, exit 1, no output file
run 'head -c $(( $(stat -c %s two.ptm) * 2 / 3 )) two.ptm > cut.ptm; proftool timeline cut.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
run 'python3 -c "d = bytearray(open(\"two.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; proftool timeline bad.ptm -o out.json; echo "exit $?"; ls out.json 2>&1 | sed "s/.*No such.*/no out.json/"'
