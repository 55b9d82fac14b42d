# Damaged and foreign SQLite files given to the Nsight Systems importer (issue #28): each is a
# clear error naming the file (and the table and row where there is one), exit 1, no model
# written, and the input is never modified (no journal, WAL or lock file beside it).
D='$SRC/testdata/nsys/train.nsysdesc'
run "proftool-gen nsys $D -o good.sqlite && md5sum good.sqlite >sum && ls"
# cut short: the pages past the cut are missing
run "head -c 20480 good.sqlite >cut.sqlite && proftool import cut.sqlite -o cut.ptm || { rc=\$?; ls cut.ptm 2>&1; exit \$rc; }"
# bytes overwritten inside a table: the table and the last good row are named
run "proftool-gen nsys $D -o m.sqlite --scale 50 && printf '%0100d' 0 | dd of=m.sqlite bs=1 seek=60000 conv=notrunc 2>/dev/null && proftool import m.sqlite -o m.ptm"
# the SQLite header and then garbage
run "{ printf 'SQLite format 3\\000'; head -c 8000 /dev/zero | tr '\\000' 'x'; } >junk.sqlite && proftool summary junk.sqlite --view kernel"
# an SQLite database of another program
cat >mk.py <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
if sys.argv[2] == 'other':
    db.execute('CREATE TABLE users (id INTEGER, name TEXT)')
    db.execute("INSERT INTO users VALUES (1, 'a')")
elif sys.argv[2] == 'nullstart':
    db.execute('CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)')
    db.execute("INSERT INTO StringIds VALUES (1, 'k')")
    db.execute('CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, "end" INTEGER, demangledName INTEGER)')
    db.execute('INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 1)')
    db.execute('INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (NULL, 2, 1)')
elif sys.argv[2] == 'empty':
    db.execute('CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)')
    db.execute('CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER)')
db.commit()
PY
run "python3 mk.py other.sqlite other && proftool import other.sqlite -o o.ptm"
run "python3 mk.py nullstart.sqlite nullstart && proftool summary nullstart.sqlite --view kernel"
run "python3 mk.py empty.sqlite empty && proftool info empty.sqlite --format csv"
# a table without a column the importer needs, a name id StringIds lacks, text in a number column
for dmg in "omit CUPTI_ACTIVITY_KIND_RUNTIME.nameId" "omit CUPTI_ACTIVITY_KIND_KERNEL.start" \
	"sql \"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 999 WHERE rowid = 3\"" \
	"sql \"UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = -5 WHERE rowid = 2\"" \
	"sql \"UPDATE NVTX_EVENTS SET textId = 12345, text = NULL WHERE rowid = 4\"" \
	"sql \"UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = 'soon' WHERE rowid = 1\"" \
	"sql \"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = 1.5 WHERE rowid = 2\"" \
	"sql \"DELETE FROM StringIds\""; do
	{ cat "$SRC/testdata/nsys/train.nsysdesc"; echo "$dmg"; } >bad.nsysdesc
	run "proftool-gen nsys bad.nsysdesc -o bad.sqlite && proftool import bad.sqlite -o bad.ptm || { rc=\$?; ls bad.ptm 2>&1; exit \$rc; }"
done
# rows nsys may hold that are skipped and counted: negative durations, times out of range
{ cat "$SRC/testdata/nsys/train.nsysdesc"; echo 'sql "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = start - 5 WHERE rowid = 1"';
  echo 'sql "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 9000000000000000000 WHERE rowid = 2"';
  echo 'sql "UPDATE NVTX_EVENTS SET \"end\" = NULL WHERE rowid = 2"';
  echo 'sql "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -4541967255183346666, \"end\" = 1600000000001128000 WHERE rowid = 3"'; } >skip.nsysdesc
run "proftool-gen nsys skip.nsysdesc -o skip.sqlite && proftool info --table stats skip.sqlite --format csv | sed -n '/^device_id,key/,\$p'"
# (the last: both ends in the model's range, but longer than a duration may be; the model reads back)
run "proftool import skip.sqlite -o skip.ptm && proftool info skip.ptm --format csv | grep -E '^(events|devices),'"
# in a directory walk another program's database is skipped with a warning, a damaged one names
# the file; among several paths the failing file is named
run "mkdir d && cp good.sqlite d/a.sqlite && cp other.sqlite d/b.sqlite && : >d/empty.sqlite && proftool import d -o d.ptm"
run "cp cut.sqlite d/c.sqlite && proftool import d -o d2.ptm"
run "proftool import good.sqlite other.sqlite -o two.ptm"
# nothing was written beside the inputs, and the good file is unchanged
run "md5sum -c sum && ls | grep -E 'journal|wal|shm|d2.ptm|bad.ptm|cut.ptm' || echo 'no journal, no model'"
