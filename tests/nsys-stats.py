#!/usr/bin/env python3
"""The reference for proftool's Nsight Systems importer: the statistics of
`nsys stats --report cuda_gpu_kern_sum` and `--report cuda_api_sum`,
computed here from the SQLite export with Python's sqlite3 module, following
the SQL of those reports (written independently of proftool's C code), and
compared with proftool's `summary --view kernel|api --format csv`.

  nsys-stats.py DB kern|api                 print the report (CSV)
  nsys-stats.py DB kern|api PROFTOOL.csv    compare; prints "... match" or the differences

The reports, as nsys writes their queries:
  cuda_gpu_kern_sum: CUPTI_ACTIVITY_KIND_KERNEL grouped by the kernel's
    demangledName string (shortName when it is NULL): count, sum, avg, median,
    min, max of end - start; median of an even count is the mean of the two
    middle durations.
  cuda_api_sum: CUPTI_ACTIVITY_KIND_RUNTIME grouped by nameId, the name with
    a trailing "_vNNNN" removed: the same statistics. One difference, which
    proftool's import(1) documents: rows of event classes other than 0
    (runtime) and 1 (driver) are left out. nsys 2022 exports with backtraces
    hold each call twice, the second time as event class 67 under the name
    without its version suffix, and the report counts both.
proftool's views print count, total, avg and median (each rounded to the ns,
half up: the mean, and of an even count the mean of the two middle values),
min and max; all six are compared.
"""
import csv
import sqlite3
import sys


def median(v):
    v = sorted(v)
    n = len(v)
    if n % 2:
        return float(v[n // 2])
    return (v[n // 2 - 1] + v[n // 2]) / 2.0


def table_cols(db, t):
    return {r[1] for r in db.execute('PRAGMA table_info("%s")' % t)}


def report(path, kind):
    db = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    names = dict(db.execute('SELECT id, value FROM StringIds'))
    groups = {}
    if kind == 'kern':
        cols = table_cols(db, 'CUPTI_ACTIVITY_KIND_KERNEL')
        if not cols:
            return []
        short = 'shortName' if 'shortName' in cols else 'NULL'
        q = 'SELECT coalesce(demangledName, %s), "end" - start FROM CUPTI_ACTIVITY_KIND_KERNEL' % short
        for nid, d in db.execute(q):
            groups.setdefault(nid, []).append(d)
    else:
        cols = table_cols(db, 'CUPTI_ACTIVITY_KIND_RUNTIME')
        if not cols:
            return []
        cls = 'eventClass' if 'eventClass' in cols else '0'
        q = 'SELECT nameId, "end" - start FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE %s IN (0, 1)' % cls
        for nid, d in db.execute(q):
            groups.setdefault(nid, []).append(d)
    rows = []
    for nid, v in groups.items():
        name = names.get(nid)
        if kind == 'api' and name is not None and len(name) >= 6 and name[-6:-4] == '_v':
            name = name[:-6]
        rows.append({'name': name, 'count': len(v), 'total': sum(v), 'avg': sum(v) / len(v),
                     'med': median(v), 'min': min(v), 'max': max(v)})
    rows.sort(key=lambda r: (-r['total'], r['name'] or ''))
    return rows


def main():
    path, kind = sys.argv[1], sys.argv[2]
    rows = report(path, kind)
    if len(sys.argv) < 4:
        w = csv.writer(sys.stdout, lineterminator='\n')
        w.writerow(['name', 'count', 'total_ns', 'avg_ns', 'med_ns', 'min_ns', 'max_ns'])
        for r in rows:
            w.writerow([r['name'], r['count'], r['total'], '%.1f' % r['avg'], '%.1f' % r['med'], r['min'], r['max']])
        return
    tot = 'device_total_ns' if kind == 'kern' else 'total_ns'
    pre = 'device_' if kind == 'kern' else ''
    got = {}
    for r in csv.DictReader(open(sys.argv[3])):
        got[r['name']] = (int(r['calls']), int(r[tot]), int(r[pre + 'avg_ns']), int(r[pre + 'median_ns']),
                          int(r[pre + 'min_ns']), int(r[pre + 'max_ns']))
    want = {}
    for r in rows:
        if r['name'] in want:
            print('reference: two name ids are named %r' % r['name'])
        want[r['name']] = (r['count'], r['total'], (2 * r['total'] + r['count']) // (2 * r['count']),
                           int(r['med'] * 2 + 1) // 2, r['min'], r['max'])
    if got == want:
        print('%s match: %d names, %d calls, %d ns (count, total, avg, median, min, max)' %
              (kind, len(want), sum(v[0] for v in want.values()), sum(v[1] for v in want.values())))
        return
    for k in sorted(set(got) | set(want), key=lambda x: x or ''):
        if got.get(k) != want.get(k):
            print('MISMATCH %r: nsys %s, proftool %s' % (k, want.get(k), got.get(k)))


if __name__ == '__main__':
    main()
