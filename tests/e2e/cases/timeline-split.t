# No silent split, parts committed together (issue 26, issue 29 item 10):
# -o FILE writes FILE whatever its size; parts only with --split-mb N; a
# failed split leaves no part, no manifest and no temporary; a new split
# removes the parts of the same stem that an earlier run left.
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
proftool-gen "$SRC/testdata/ascend/sample.desc" -o "$T/long" --steps 300 >/dev/null 2>&1 || exit 1
proftool import long -o long.ptm 2>/dev/null
# FILE is FILE: no parts without --split-mb
run 'proftool timeline long.ptm -o t.json && ls t.* && ./chrome-check t.json | sed "s/=[0-9]*/=N/g"'
run 'proftool timeline long.ptm -o - | cmp - t.json && echo same'
# five parts, then a shorter split over them: parts 4 and 5 of the earlier run go
run 'proftool timeline long.ptm --split-mb 1 -o p.json && ls p.*'
run 'proftool timeline long.ptm --split-mb 2 -o p.json && ls p.* && jq -r ".parts[].file" p.parts.json'
# the other compression of the same stem goes too; other names stay
run 'touch p.part1.json p.partXYZ.json p.part001.json.bak && proftool timeline long.ptm --split-mb 2 --gzip -o p.json && ls p.*'
run './chrome-check p.part001.json.gz p.part002.json.gz p.part003.json.gz | sed "s/=[0-9]*/=N/g"'
# a part that cannot be put in place (its name is a directory): exit 1, no part, no manifest, no temporary
run 'rm -f p.*; mkdir q.part003.json; proftool timeline long.ptm --split-mb 1 -o q.json; echo "exit $?"; ls -d q.*'
# a write error (file size limit, as a full disk would): exit 1 and nothing left
run "(trap '' XFSZ; ulimit -f 256; proftool timeline long.ptm --split-mb 1 -o r.json); echo \"exit \$?\"; ls r.* 2>&1 | sed 's/^ls: //'"
# the same with one file
run "(trap '' XFSZ; ulimit -f 256; proftool timeline long.ptm -o s.json); echo \"exit \$?\"; ls s.* 2>&1 | sed 's/^ls: //'"
# standard output cannot split; a terminal refusal stays a usage error
run proftool timeline long.ptm --split-mb 1
run proftool timeline long.ptm --split-mb 1 -o -
