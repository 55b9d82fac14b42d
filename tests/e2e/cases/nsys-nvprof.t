# nvprof's SQLite export (nvprof --export-profile: StringTable, _id_, cbid, processId/threadId,
# CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, MARKER), written by testdata/nsys/nvprof-sample.py in
# the layout of nvprof's schema version 9: the kernel view equals the per-name sums computed from
# the file by a separate reader; calls are named by their callback ids; markers pair into ranges.
run "python3 $SRC/testdata/nsys/nvprof-sample.py nv.sqlite"
cat >check.py <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = {}
for name, d in db.execute('SELECT s.value, k."end" - k.start FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL k '
                          'JOIN StringTable s ON s._id_ = k.name'):
    n, t = want.get(name, (0, 0))
    want[name] = (n + 1, t + d)
got = {r['name']: (int(r['calls']), int(r['device_total_ns'])) for r in csv.DictReader(open(sys.argv[2]))}
print('kernel match: %d names, %d calls' % (len(want), sum(v[0] for v in want.values())) if got == want
      else 'MISMATCH: nvprof %s, proftool %s' % (want, got))
PY
run "proftool summary nv.sqlite --view kernel --format csv >k.csv && python3 check.py nv.sqlite k.csv"
run proftool summary nv.sqlite --view api --format csv
run proftool summary nv.sqlite --view memcpy --format csv
run proftool steps nv.sqlite --format csv
run "for t in devices stats; do proftool info --table \$t nv.sqlite --format csv; done | sed -n '/^device_id,kind/,\$p'"
run "proftool dump nv.sqlite | grep -E '^(track|range-info|gpu-link|source)'"
# damaged: a kernel name StringTable lacks, a call table without its callback ids
run "cp nv.sqlite bad.sqlite && python3 -c 'import sqlite3; d = sqlite3.connect(\"bad.sqlite\"); d.execute(\"UPDATE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL SET name = 777 WHERE _id_ = 2\"); d.commit()' && proftool import bad.sqlite -o b.ptm"
run "cp nv.sqlite bad2.sqlite && python3 -c 'import sqlite3; d = sqlite3.connect(\"bad2.sqlite\"); d.execute(\"ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN cbid\"); d.commit()' && proftool import bad2.sqlite -o b.ptm"
