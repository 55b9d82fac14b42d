# import encodes the events as they come and keeps only a window of them (16,384) in memory
# (proftool-import(1), MEMORY); --in-memory keeps them all until the model is written. The job has
# 196,608 task executions (24 MiB of HWTS records), so the default import spills thirteen windows; the
# model must be the same file either way.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --hwts-bytes 24M >/dev/null && echo generated'
run proftool import job -o s.ptm
run proftool import --in-memory job -o m.ptm
run 'cmp s.ptm m.ptm && echo identical'
run 'proftool import --no-compress job -o su.ptm 2>/dev/null && proftool import --no-compress --in-memory job -o mu.ptm 2>/dev/null && cmp su.ptm mu.ptm && echo identical'
# AI CPU ops imported after spilled tasks refer to their own events by model index
cat >aicpu.awk <<'A'
/^aicpu/ { match($0, /event=[0-9]+/); ev = substr($0, RSTART + 6, RLENGTH - 6); match($0, / start=[0-9]+/)
	   want[ev] = substr($0, RSTART + 1, RLENGTH - 1); nw++ }
/^event/ { n++; if (n in want) { seen++; if (first == "") first = n; ok += $3 == "kind=aicpu" && $4 == want[n] } }
END { print nw, "AI CPU ops;", seen, "events found,", ok, "of them AI CPU events with the op's start; the first is event", first }
A
run 'proftool dump s.ptm | awk -f aicpu.awk'
# a model read back gives what the raw job gives
run 'proftool summary s.ptm --view kernel --top 3 --format csv | cmp - <(proftool summary job --view kernel --top 3 --format csv 2>/dev/null) && echo same summary'

# a CUPTI dump after the spilled tasks: its events are numbered after them
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o app.cdump
run 'proftool import job app.cdump -o sc.ptm 2>/dev/null && proftool import --in-memory job app.cdump -o mc.ptm 2>/dev/null && cmp sc.ptm mc.ptm && echo identical'
run 'proftool dump sc.ptm | grep -c "kind=kernel"'

# a CUPTI dump spills too: its joins keep what they need of every call and activity (start, thread,
# event index), never the events; 46,060 events, with repeated correlation ids, copies joined
# through runtimeCorrelationId, driver calls, activities without a call, syncs and NVTX ranges
run 'proftool-gen cupti "$SRC/tests/gen/cases/cupti-joins.cdtxt" -o joins.cdump --scale 6M && echo generated'
run 'proftool import joins.cdump -o sj.ptm 2>/dev/null && proftool import --in-memory joins.cdump -o mj.ptm 2>/dev/null && cmp sj.ptm mj.ptm && echo identical'
run 'proftool info sj.ptm | grep cupti'
run 'proftool dump sj.ptm | grep "^gpu-link" | sed -n "1,6p;19734,19740p"'
run 'proftool dump sj.ptm | grep -c "^gpu-link.*range=[0-9]"'

# a memory file places counters at task executions read before it: same again
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o memjob --hwts-bytes 16M >/dev/null && echo generated'
run 'proftool import memjob -o sm.ptm 2>/dev/null && proftool import --in-memory memjob -o mm.ptm 2>/dev/null && cmp sm.ptm mm.ptm && echo identical'
run 'proftool memory sm.ptm --by time --format csv | wc -l'

# a dump that fails after windows were spilled: exit 1 and no model file
head -c 8 app.cdump >bad.cdump
run proftool import job bad.cdump -o bad.ptm
run 'ls *.ptm'
