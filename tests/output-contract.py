#!/usr/bin/env python3
"""Check proftool(1)'s output contract (OUTPUT) on every command x format.

usage: output-contract.py PROFTOOL NAME=MODEL... [--diff BASE TEST]

For every model and command (info, summary, steps, perf, dataset, flops, hints, memory, export of each
table, timeline, diff) and every format it has (table, csv, json, jsonl), runs the command as a user
would and checks:
  text   every line at most 120 columns, no trailing spaces, no tabs;
  csv    one rectangular table: Python's csv reads one header and rows of the same field count, no
         comment lines, no blank lines;
  json   one JSON document; jsonl one JSON document per line;
  pipe   `CMD | head -1` leaves the command's exit status 0 and on its stderr at most what a whole
         run prints (its notes), no message about the closed pipe;
  absent a command without its data exits 1 with nothing on stdout and one line on stderr,
         "proftool: error: <MODEL> has no <kind> data (import <what> to get it)".
Prints one line per (command, format) class with the number of runs, then every violation. Exit 0.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

FORMATS = ["table", "csv", "json", "jsonl"]
EXPORT_TABLES = ["ops", "tasks", "steps", "aicpu", "kernels", "api", "tensors"]
ABSENT = re.compile(r"^proftool: error: .* has no [a-zA-Z -]+ data \(import .+ to get it\)$")


def run(argv, pipe_head=False):
    env = dict(os.environ, COLUMNS="80")
    if pipe_head:
        sh = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv) + " | head -1 >/dev/null; exit ${PIPESTATUS[0]}"
        p = subprocess.run(["bash", "-c", sh], capture_output=True, env=env)
    else:
        p = subprocess.run(argv, capture_output=True, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check_text(out):
    bad = []
    for i, line in enumerate(out.split("\n"), 1):
        if len(line) > 120:
            bad.append("line %d is %d columns" % (i, len(line)))
        if line != line.rstrip(" "):
            bad.append("line %d ends in a space" % i)
        if "\t" in line:
            bad.append("line %d holds a tab" % i)
    return bad[:3]


def check_csv(out):
    if not out:
        return ["empty output (a CSV table has at least its header)"]
    lines = out.split("\n")
    if any(l.startswith("#") for l in lines):
        return ["comment lines"]
    rows = list(csv.reader(io.StringIO(out)))
    if not rows:
        return ["no header"]
    if any(not r for r in rows):
        return ["blank lines (several tables?)"]
    n = len(rows[0])
    odd = [i + 1 for i, r in enumerate(rows) if len(r) != n]
    if odd:
        return ["record %d has %d fields, the header %d" % (odd[0], len(rows[odd[0] - 1]), n)]
    try:
        import pandas  # noqa: F401 (when installed: as a data scientist reads it)
        pandas.read_csv(io.StringIO(out))
    except ImportError:
        pass
    except Exception as e:  # pragma: no cover
        return ["pandas: %s" % e]
    return []


def check_json(out, lines):
    try:
        if lines:
            for l in out.splitlines():
                json.loads(l)
        else:
            json.loads(out)
    except ValueError as e:
        return ["not JSON: %s" % e]
    return []


def main():
    prof = sys.argv[1]
    models, diff = [], None
    a = sys.argv[2:]
    while a:
        if a[0] == "--diff":
            diff = (a[1], a[2])
            a = a[3:]
        else:
            models.append(a[0].split("=", 1))
            a = a[1:]
    jobs = []
    for name, m in models:
        for c in ["info", "summary", "steps", "perf", "dataset", "flops", "hints", "memory"]:
            for f in FORMATS:
                jobs.append((name, c, f, [prof, c, m, "--format", f]))
        for t in EXPORT_TABLES:
            for f in FORMATS:
                jobs.append((name, "export " + t, f, [prof, "export", "--table", t, m, "--format", f]))
        jobs.append((name, "timeline", "json", [prof, "timeline", m, "-o", "-"]))
    if diff:
        for f in FORMATS:
            jobs.append(("diff", "diff", f, [prof, "diff", diff[0], diff[1], "--format", f]))
    stats, bad = {}, []
    for name, c, f, argv in jobs:
        rc, out, err = run(argv)
        key = (c.split()[0], f)
        s = stats.setdefault(key, [0, 0])
        s[0] += 1
        probs = []
        if rc == 1 and not out and ABSENT.match(err.strip()) and err.count("\n") == 1:
            s[1] += 1
            continue  # the data is absent, said the one way
        if rc != 0:
            probs.append("exit %d: %s" % (rc, err.strip().splitlines()[:1]))
        elif f == "table":
            probs += check_text(out)
        elif f == "csv":
            probs += check_csv(out)
        else:
            probs += check_json(out, f == "jsonl")
        if rc == 0:
            # the reader closing the pipe adds nothing: exit 0, and on stderr at most what a whole run
            # prints (its notes; a command the closed pipe ended early has not printed them yet)
            prc, _, perr = run(argv, pipe_head=True)
            if prc != 0 or perr not in ("", err):
                probs.append("| head -1: exit %d, stderr %r" % (prc, perr[:80]))
        for p in probs:
            bad.append("%s %s --format %s: %s" % (name, c, f, p))
    for (c, f), (n, absent) in sorted(stats.items()):
        print("%-8s %-5s %3d runs, %2d without their data" % (c, f, n, absent))
    print("%d violations" % len(bad))
    for b in bad:
        print("  " + b)


main()
