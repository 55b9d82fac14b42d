#!/usr/bin/env python3
"""Check that CSV is one rectangular table: csv-check.py [FILE...] (standard input when none).

For each input, Python's csv module must read one header line of distinct, non-empty names
and rows with as many fields as the header; no comment line ('#...') and no blank line. When
pandas is importable, pandas.read_csv must read the same shape (rows x columns); without it
that part is skipped and the output is the same. Prints "NAME: R rows x C columns" per input
(or "NAME: ..." with the first problem, and exits 1).
"""
import csv
import io
import sys

try:
    import pandas
except ImportError:  # optional: Debian's python3-pandas
    pandas = None


def check(name, data):
    if not data:
        return False, "empty (no header line)"
    if not data.endswith("\n"):
        return False, "the last line has no line feed"
    rows = list(csv.reader(io.StringIO(data, newline="")))
    header = rows[0]
    if not header or any(not h for h in header):
        return False, "empty column name in the header: %r" % (header,)
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        return False, "duplicate column names: %s" % ", ".join(dup)
    if header[0].startswith("#"):
        return False, "a comment line first: %r" % (data.splitlines()[0],)
    for i, r in enumerate(rows[1:], 2):
        if not r:
            return False, "record %d: a blank line" % i
        if r[0].startswith("#") and len(r) != len(header):
            return False, "record %d: a comment line: %r" % (i, r)
        if len(r) != len(header):
            return False, "record %d: %d fields, the header has %d" % (i, len(r), len(header))
    if pandas is not None:
        # every column as text, no NA guessing: the shape is what is compared
        df = pandas.read_csv(io.StringIO(data), dtype=str, keep_default_na=False)
        if df.shape != (len(rows) - 1, len(header)) or list(df.columns) != header:
            return False, "pandas reads %d x %d (%s), csv %d x %d" % (
                df.shape[0], df.shape[1], ",".join(map(str, df.columns)), len(rows) - 1, len(header))
    return True, "%d rows x %d columns" % (len(rows) - 1, len(header))


def main(args):
    bad = 0
    inputs = args or ["-"]
    for a in inputs:
        if a == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(a, "rb") as f:
                data = f.read()
        ok, msg = check(a, data.decode("utf-8", "surrogateescape"))
        bad += not ok
        print("%s: %s%s" % ("stdin" if a == "-" else a, "" if ok else "NOT ONE TABLE: ", msg))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
