# bench/cdump-to-cdtxt.py: a proftool-gen cupti description derived record for record from a
# real dump (the benchmark's CUPTI input, bench/torch-loop.cdtxt, issue 30 item 4)
D='$SRC/testdata/cupti'
# the committed description is what the converter derives from the real PyTorch loop dump
run "python3 \$SRC/bench/cdump-to-cdtxt.py $D/real-13.0-h200-torch-loop.cdump -o loop.cdtxt && cmp loop.cdtxt \$SRC/bench/torch-loop.cdtxt && grep -c '^  rec' loop.cdtxt"
run "grep -o '^  rec [A-Z_0-9]*' loop.cdtxt | sort | uniq -c"
# generated back, it gives the real dump's model: every event, kernel grid/block, copy, memory
# record and counter, with the recorded times and correlation ids (only the source line differs)
run "proftool-gen cupti loop.cdtxt -o loop.cdump && proftool dump $D/real-13.0-h200-torch-loop.cdump | grep -v '^source' >a && proftool dump loop.cdump | grep -v '^source' >b && cmp a b && wc -l <a"
# the vector-add dump (copies both ways, events, two streams) round-trips too
run "python3 \$SRC/bench/cdump-to-cdtxt.py $D/real-13.0-h200-vecadd.cdump -o v.cdtxt && proftool-gen cupti v.cdtxt -o v.cdump && proftool dump $D/real-13.0-h200-vecadd.cdump | grep -v '^source' >a && proftool dump v.cdump | grep -v '^source' >b && cmp a b && wc -l <a"
# scaled as bench/run does: whole repetitions of the loop, ids shifted past the previous ones
run "proftool-gen cupti loop.cdtxt -o s.cdump --scale 3M --id-stride 1 && proftool info --format csv s.cdump | grep -E '^(events|counter_samples),'"
cat >top.py <<'PY'
import csv, sys
rows = list(csv.DictReader(sys.stdin))
print('%d kernel names, %d kernels' % (len(rows), sum(int(r['calls']) for r in rows)))
for r in rows[:3]:
    print(r['calls'], r['name'][:48])
PY
run "proftool summary s.cdump --view kernel --format csv | python3 top.py"
run "proftool export s.cdump --table api --format csv | python3 -c 'import csv, sys; ids = [int(r[\"correlation_id\"]) for r in csv.DictReader(sys.stdin)]; print(len(ids), len(set(ids)), min(ids), max(ids))'"
# bad input: a message naming the file and the byte offset, exit 1, no output file
run "head -c 100000 $D/real-13.0-h200-torch-loop.cdump >cut.cdump; python3 \$SRC/bench/cdump-to-cdtxt.py cut.cdump -o cut.cdtxt; echo rc \$?; ls cut.cdtxt*"
run "printf 'not a dump, just text; long enough to hold a 64-byte header...............' >t.cdump; python3 \$SRC/bench/cdump-to-cdtxt.py t.cdump"
run "python3 \$SRC/bench/cdump-to-cdtxt.py /dev/null"
