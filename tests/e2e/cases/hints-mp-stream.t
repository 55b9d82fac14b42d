# proftool hints over a model file of GPU data from several traced processes reads it as a stream, one
# launch join per process (proftool-hints(1) MEMORY): the same bytes and exit status as --in-memory and
# as standard input, which load the model whole, in every format, with selections and with thresholds
# moved so that every rule that reads the events fires. Three CUPTI processes of one model, numbering
# their correlation ids alike: two under the iteration-boundary rule (the second shifted in time, so
# that a join across processes would move its launches and calls), one with NVTX step ranges; their
# ranks (2, 0, 1) not in device order; each has its own launch calls, delays and exposed API time.
ln -s "$SRC/testdata" td
run 'bash "$SRC/tests/e2e/cases/mp-three.sh" "$SRC"'
run 'proftool info three.ptm --table devices --format csv | cut -d, -f1-3,13-14'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.comm.exposed_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.unexplained.moderate_pct=0 --hint hints.step_gap.ms=0 --hint hints.truncated.ratio=1 --hint hints.launch_bound.moderate_pct=0 --hint hints.launch.queue_delay_us=0 --hint hints.launch.queue_delay_warn_pct=0 --hint hints.launch.runtime_us=1 --hint hints.launch.runtime_warn_pct=0 --hint hints.short_kernels.pct=0 --hint hints.mem_ops.moderate_pct=0 --hint hints.unattributed.pct=0 --hint hints.memory.peak_pct=0 --hint hints.rank_spread.pct=0'
IDLE='--hint hints.idle.min_pct=0 --hint hints.idle.class_pct=0'
run "for v in '' '--format csv' '--format json --show-suppressed' '--format jsonl' '--steps 2-3' '--steps 150-160 --format csv' '--time-window 0.001s:0.5s --format csv' '--time-window 10000s:' '--device 0' '--device 5' '--step-pattern Foo' '--step-pattern ProfilerStep.* --format json' '--fail-on info'; do bash same.sh three.ptm \$v; done"
run "for v in '--format csv' '--format json --show-suppressed' '--steps 2-3 --format csv' '--time-window :0.3s --format csv' '--step-pattern Foo --format csv'; do bash same.sh three.ptm $FIRE \$v; done"
run "for g in 0 1000 1000000000; do bash same.sh three.ptm $IDLE --hint hints.idle.kernel_wait_gap_ns=\$g --format csv; done"
# the streamed figures themselves: each rank by its own launches, calls and ranges
run "proftool hints three.ptm $FIRE --format csv | cut -d, -f1-8 | grep -E 'LAUNCH|RUNTIME|SHORT|IDLE|STEP_GAP|UNATTR'"
# a truncated and a corrupt model: the error names the file and the offset, exit 1
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; proftool hints cut.ptm; echo "exit $?"'
run 'cp three.ptm bad.ptm; printf "\377\377\377\377\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s three.ptm) / 2 )) conv=notrunc 2>/dev/null; proftool hints bad.ptm > /dev/null; echo "exit $?"'
