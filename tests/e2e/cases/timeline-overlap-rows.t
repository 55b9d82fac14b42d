# The overlap rows (chrome-trace.md §10) are made from C and M as the trace
# is read, not held (issue 30): a split, which reads the events twice, writes
# the same overlap events as one file; each row's intervals are disjoint and
# in order; --time-window clips them; a truncated model fails naming the
# file and offset, exit 1, and leaves no output file.
proftool-gen "$SRC/testdata/ascend/sample.desc" -o "$T/long" --steps 200 >/dev/null 2>&1 || exit 1
proftool import long -o long.ptm 2>/dev/null
ov='[.traceEvents[] | select(.cat=="Overlap")]'
count="$ov | group_by(.name) | map({(.[0].name): length}) | add"
disjoint="$ov | group_by(.name) | map(sort_by(.ts) | [range(1; length) as \$i | select(.[\$i - 1].ts + .[\$i - 1].dur > .[\$i].ts)] | length) | add"
run "proftool timeline long.ptm -o t.json && jq -c '$count' t.json && jq '$disjoint' t.json"
run "proftool timeline long.ptm --split-mb 1 -o p.json && ls p.* && jq -c '$ov[]' p.part0*.json | sort >parts.ov && jq -c '$ov[]' t.json | sort | cmp - parts.ov && echo same overlap events"
run "proftool timeline long.ptm --time-window 20ms:60ms -o w.json && jq -c '$count' w.json && jq '$disjoint' w.json"
run "proftool timeline long.ptm --steps 5-9 -o s.json && jq -c '$count' s.json"
head -c 20000 long.ptm >cut.ptm
run 'proftool timeline cut.ptm -o c.json; echo "exit $?"; ls c.json 2>&1 | sed "s/^ls: //"'
