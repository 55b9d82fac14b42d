#!/usr/bin/env python3
"""Baseline for bench/run: the summary users script over a Chrome trace
(json.load, then calls and total duration per complete-event name), the
Python twin of the jq one-liner in bench/run.

  baseline_chrome.py TRACE.json

Prints CSV name,calls,total_us sorted by total descending, then name.
"""
import json
import sys


def main():
	if len(sys.argv) != 2:
		sys.exit("usage: baseline_chrome.py TRACE.json")
	with open(sys.argv[1], encoding="utf-8") as f:
		doc = json.load(f)
	events = doc["traceEvents"] if isinstance(doc, dict) else doc
	calls = {}
	total = {}
	for e in events:
		if e.get("ph") != "X":
			continue
		n = e.get("name", "")
		calls[n] = calls.get(n, 0) + 1
		total[n] = total.get(n, 0.0) + float(e.get("dur", 0))
	print("name,calls,total_us")
	for n in sorted(calls, key=lambda k: (-total[k], k)):
		print("%s,%d,%.3f" % (n, calls[n], total[n]))


if __name__ == "__main__":
	main()
