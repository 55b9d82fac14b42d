#!/usr/bin/env python3
"""Baseline for bench/run: per-op device time from a raw Ascend job directory,
done the way the Python reference parsers do it (MindInsight/MindSpore
hwts_log_parser.py + OPComputeTimeParser: struct-decode every 64-byte HWTS
record, pair Start/End per (stream, task) in file order, join with the
text-era task_desc_info key rule, aggregate calls and total per op).

  baseline_hwts.py [--iter|--mindinsight] JOB_DIR

Default mode decodes record by record with struct.unpack on slices; --iter
uses struct.iter_unpack (the fastest pure-Python way) so the comparison also
covers a tuned Python; --mindinsight follows the reference's own flow: read
64 bytes at a time, take the type bits through bin() strings, unpack the
rest of the record, write one formatted text line per record to an
intermediate file, then read that file back, split lines and pair. Prints CSV: op,calls,total_ns,
avg_ns, sorted by total descending, then name. Frequency 100 MHz (the
generated benchmark inputs carry no info.json), time ns = cycles * 10.
"""
import glob
import os
import struct
import sys

REC = 64
CHUNK = REC * 16384


def task_keys(job):
	keys = {}
	for path in sorted(glob.glob(os.path.join(job, "Framework.host*task_desc_info*"))):
		with open(path, encoding="utf-8", errors="replace") as f:
			for line in f:
				parts = line.split()
				if len(parts) < 4:
					continue
				name, task, stream = parts[0], int(parts[2]), int(parts[3])
				key = str(task) if task >= 25000 else "%d_%d" % (stream, task)
				keys[key] = name
	return keys


def hwts_files(job):
	files = glob.glob(os.path.join(job, "hwts.log.data.45.dev.*")) + glob.glob(os.path.join(job, "hwts.data*"))
	files = [p for p in files if not p.endswith(".done")]

	def slice_no(p):
		tail = p.rsplit(".slice_", 1)
		return int(tail[1]) if len(tail) == 2 and tail[1].isdigit() else 0
	return sorted(files, key=lambda p: (p.rsplit(".slice_", 1)[0], slice_no(p)))


def mindinsight(job):
	import tempfile
	log_type = ["Start of task", "End of task", "Start of block", "End of block", "Block PMU"]
	fmt = ["QIIIIIIIIIIII", "QIIQIIIIIII", "IIIIQIIIIIIII"]
	with tempfile.NamedTemporaryFile("w+", suffix=".txt") as tmp:
		for path in hwts_files(job):
			with open(path, "rb") as data:
				lines = []
				while True:
					line = data.read(64)
					if len(line) < 64:
						break
					if not line.strip(b"\0"):
						continue
					first = struct.unpack("BBHHH", line[0:8])
					byte_first = bin(first[0]).replace("0b", "").zfill(8)
					ms_type = byte_first[-3:]
					cnt = int(byte_first[0:4], 2)
					core_id, blk_id, task_id = first[1], first[3], first[4]
					if ms_type in ["000", "001", "010"]:
						result = struct.unpack(fmt[0], line[8:])
						syscnt, stream_id = result[0], result[1]
					elif ms_type == "011":
						result = struct.unpack(fmt[1], line[8:])
						syscnt, stream_id = result[0], result[1]
					elif ms_type == "100":
						result = struct.unpack(fmt[2], line[8:])
						stream_id, syscnt = result[2], result[4]
					else:
						continue
					lines.append("%-14s %-4s %-8s %-9s %-8s %-15s %s\n" % (
						log_type[int(ms_type, 2)].replace(" ", "_"), cnt, core_id, blk_id, task_id, syscnt, stream_id))
				tmp.write("".join(lines))
		tmp.flush()
		tmp.seek(0)
		keys = task_keys(job)
		open_starts = {}
		per_op = {}
		for line in tmp:
			f = line.split()
			if f[0] not in ("Start_of_task", "End_of_task"):
				continue
			task, cyc, stream = int(f[4]), int(f[5]), int(f[6])
			key = str(task) if task >= 25000 else str(stream) + "_" + str(task)
			pair = str(stream) + "_" + str(task)  # pairing per (stream, task) as proftool (§3.3)
			if f[0] == "Start_of_task":
				open_starts[pair] = cyc
				continue
			s = open_starts.pop(pair, None)
			if s is None or cyc < s:
				continue
			per_op.setdefault(keys.get(key, ""), []).append((cyc - s) * 10)
	print("op,calls,total_ns,avg_ns")
	rows = [(n, len(v), sum(v)) for n, v in per_op.items()]
	for n, c, t in sorted(rows, key=lambda r: (-r[2], r[0])):
		print("%s,%d,%d,%d" % (n, c, t, t // c))


def main():
	args = sys.argv[1:]
	fast = "--iter" in args
	if "--mindinsight" in args:
		args = [a for a in args if a != "--mindinsight"]
		if len(args) != 1:
			sys.exit("usage: baseline_hwts.py [--iter|--mindinsight] JOB_DIR")
		return mindinsight(args[0])
	args = [a for a in args if a != "--iter"]
	if len(args) != 1:
		sys.exit("usage: baseline_hwts.py [--iter] JOB_DIR")
	job = args[0]
	keys = task_keys(job)
	open_starts = {}
	calls = {}
	total = {}
	head = struct.Struct("=BBHHHQI")  # type byte, core, const, block, task, syscnt, stream
	rest = b""
	for path in hwts_files(job):
		with open(path, "rb") as f:
			while True:
				buf = f.read(CHUNK)
				if not buf:
					break
				if rest:
					buf = rest + buf
				usable = len(buf) - len(buf) % REC
				rest = buf[usable:]
				if fast:
					recs = struct.iter_unpack("=BBHHHQI44x", memoryview(buf)[:usable])
				else:
					recs = (head.unpack(buf[o:o + 20]) for o in range(0, usable, REC))
				for t, _core, _c, _block, task, cyc, stream in recs:
					kind = t & 7
					if kind > 1:
						continue
					key = (stream, task)
					if kind == 0:
						open_starts[key] = cyc
						continue
					s = open_starts.pop(key, None)
					if s is None or cyc < s:
						continue
					k = str(task) if task >= 25000 else "%d_%d" % (stream, task)
					name = keys.get(k, "")
					calls[name] = calls.get(name, 0) + 1
					total[name] = total.get(name, 0) + (cyc - s) * 10
	out = sys.stdout
	out.write("op,calls,total_ns,avg_ns\n")
	for name in sorted(calls, key=lambda n: (-total[n], n)):
		out.write("%s,%d,%d,%d\n" % (name, calls[name], total[name], total[name] // calls[name]))


if __name__ == "__main__":
	main()
