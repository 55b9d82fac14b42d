# GPU memory counters of proftool timeline (chrome-trace.md §7, cupti.md §6.11) on the generated dump
# tests/gen/cases/memory-pools.cdtxt (its header lists the expected values). Every sample of a group
# carries all its series (Memory: allocated_bytes and reserved_bytes); one group per pool (size_bytes,
# utilized_bytes); a trim, a pool creation and a destruction give Memory samples (reserved bytes);
# the IMPORTED pool's creation does not (not LOCAL); samples at one time are merged (t = 30: 250, not
# 50 then 250) and a merged sample equal to the previous one is dropped (t = 80); all counters of the
# device process share its one row (tid). The trace validates with tests/chrome-check.c.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
run proftool-gen cupti "'$SRC/tests/gen/cases/memory-pools.cdtxt'" -o p.cdump
run 'proftool timeline p.cdump -o t.json && ./chrome-check t.json'
run 'grep -o "{\"ph\":\"C\"[^}]*}}" t.json'
# strictly increasing ts per group, every sample with all the group's series
run "jq -r '[.traceEvents[] | select(.ph==\"C\")] | group_by(.name)[] | \"\(.[0].name) samples=\(length) increasing=\([.[].ts] | . == (sort | unique)) series=\([.[].args | keys | join(\",\")] | unique | join(\";\"))\"' t.json"
run "jq -r '[.traceEvents[] | select(.ph==\"M\" and .name==\"thread_name\") | \"\(.pid) \(.tid) \(.args.name)\"] | .[]' t.json"
# a window carries the last earlier sample of each group to its start (50 ns after the earliest
# event, 1000000001: [1000000051, 1000000081))
run 'proftool timeline p.cdump --time-window 50ns:80ns -o w.json && ./chrome-check w.json && grep -o "{\"ph\":\"C\"[^}]*}}" w.json'
# the importer's per-series tracks stay in the model; the trace writes the groups instead
run 'proftool import p.cdump -o p.ptm && proftool dump p.ptm | grep -E "^track.*(Memory|memory)"'
run 'proftool timeline p.ptm -o m.json && cmp <(grep -o "{\"ph\":\"C\"[^}]*}}" m.json) <(grep -o "{\"ph\":\"C\"[^}]*}}" t.json) && echo same counters'
