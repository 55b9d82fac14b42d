# proftool timeline on the generated Ascend sample: structure (checked by
# tests/chrome-check.c, built here with cc and jansson), rows, options, errors.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
proftool-gen "$SRC/testdata/ascend/sample.desc" -o "$T/job" >/dev/null 2>&1 || exit 1
run proftool import job -o job.ptm
run proftool timeline job.ptm -o tl.json --scope-depth 2
run ./chrome-check tl.json
run 'sed -n 1,6p tl.json | cut -c 1-300'
run "jq -r '.traceEvents[] | select(.ph==\"M\" and .name==\"thread_name\") | \"\(.pid) \(.tid) \(.args.name)\"' tl.json"
run "jq -r '[.traceEvents[] | select(.ph!=\"M\") | \"\(.ph) \(.cat)\"] | group_by(.) | map(\"\(.[0]) \(length)\") | .[]' tl.json"
run "grep -m2 '\"cat\":\"Kernel\"' tl.json; grep -m1 '\"cat\":\"Scope\"' tl.json; grep -m1 '\"cat\":\"Step\"' tl.json"
run 'tail -n 3 tl.json | cut -c 1-200'
# a raw PATH works as well and gives the same trace (apart from traceName)
run 'proftool timeline job -o raw.json --scope-depth 2 && diff <(sed \$d tl.json) <(sed \$d raw.json) && echo same'
# options
run 'proftool timeline job.ptm -o - --no-overlap --no-flows | ./chrome-check /dev/stdin'
run "proftool timeline job.ptm -o - --no-overlap | grep -c Overlap"
run 'proftool timeline job.ptm --gzip -o tl2.json && ls tl2.json* && ./chrome-check tl2.json.gz'
run 'proftool timeline job.ptm -o z.json.gz && gzip -dc z.json.gz | cmp - <(proftool timeline job.ptm -o - | sed "s#job.ptm#job.ptm#") && echo same'
run 'proftool timeline job.ptm --steps 2-3 -o - | jq -r "[.traceEvents[] | select(.cat==\"Step\") | .name] | join(\",\")"'
run 'proftool timeline job.ptm --time-window 1ms:2ms -o - | ./chrome-check /dev/stdin | sed "s/events=[0-9]*/events=N/"'
run 'proftool timeline job.ptm --split-mb 0 -o - | sed -n 1p | cut -c 1'
run 'proftool timeline job.ptm --split-mb 1 -o one.json && ls one*'
# a longer run splits into self-contained parts under 1 MiB, with a manifest
proftool-gen "$SRC/testdata/ascend/sample.desc" -o "$T/long" --steps 300 >/dev/null 2>&1 || exit 1
run 'proftool timeline long --split-mb 1 -o parts.json && ls parts* && ./chrome-check parts.part0*.json | sed "s/events=[0-9]*/events=N/;s/X=[0-9]*/X=N/;s/C=[0-9]*/C=N/"'
run "jq -c '.parts[] | [.file, .steps, .bytes <= 1048576]' parts.parts.json"
run "for f in parts.part0*.json; do jq -r '.proftool | \"\\(.part)/\\(.parts)\"' \$f; done"
run "jq '[.parts[].events] | add' parts.parts.json; proftool timeline long -o - | grep -c '^{\"ph\":\"[^M]'"
# --gzip compresses on a thread pool: the same .gz bytes for any -j, inflating to the plain trace
run 'proftool timeline long -o l1.json.gz -j 1 && proftool timeline long -o l3.json.gz -j 3 && cmp l1.json.gz l3.json.gz && gzip -t l1.json.gz && gzip -dc l1.json.gz | cmp - <(proftool timeline long -o -) && echo same'
run 'proftool timeline long --split-mb 1 --gzip -j 2 -o gz.json && ls gz* && ./chrome-check gz.part001.json.gz | sed "s/events=[0-9]*/events=N/;s/X=[0-9]*/X=N/;s/C=[0-9]*/C=N/"'
run "jq -c '.parts[] | [.file, .gzip_bytes > 0, .gzip_bytes < .bytes]' gz.parts.json"
# errors: usage (exit 2), bad input (exit 1, nothing written)
run proftool timeline job.ptm -o - -j 0
run proftool timeline job.ptm -o - --split-mb 1
# a device or a pipe is written in place as one stream: it cannot split, and nothing is created beside it
run proftool timeline long -o /dev/null --split-mb 1
run 'proftool timeline long -o /dev/null --gzip && ls /dev/null.gz /dev/null.part001.json 2>&1 | sed "s/^ls: //"'
run 'mkfifo fifo && { cat fifo > from-fifo.json & proftool timeline long --split-mb 0 -o fifo; wait; } && ./chrome-check from-fifo.json | sed "s/events=[0-9]*/events=N/;s/X=[0-9]*/X=N/;s/C=[0-9]*/C=N/" && ls fifo.* 2>&1 | sed "s/^ls: //"'
run proftool timeline long -o fifo --split-mb 1
run proftool timeline job.ptm --scope-depth x
run proftool timeline job.ptm --steps 3-1
run proftool timeline
run 'head -c 100 job.ptm > bad.ptm; proftool timeline bad.ptm -o bad.json; ls bad.json'
run 'proftool timeline /nonexistent -o x.json; ls x.json'
