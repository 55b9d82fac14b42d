#!/usr/bin/env python3
"""Derive a `proftool-gen cupti` description (tests/gen/README.md) from a real
CUPTIDMP dump (man/proftool-cuptidmp.5), record for record:

  bench/cdump-to-cdtxt.py DUMP.cdump [-o OUT.cdtxt]

Every record of every BUFFER chunk becomes a `rec KIND field=value ...` line
with the fields the importer's layout table (lib/cupti/cupti-layouts.c, read
at run time) names for the kind, non-zero values only, string ids resolved to
their text: the real kernel names with their grid/block/registers, the
runtime AND driver calls with their callback ids, copies, sets, memory
records, synchronizations, overheads, the correlation ids and timestamps as
recorded (so the ids stay sparse and the launch jitter is the real one), the
threads and streams. The header, CLOCK_SYNC, PROCESS, THREAD_NAMES,
CBID_NAMES and DROPPED chunks become their directives; buffers stay buffers.
Generating the description back (`proftool-gen cupti OUT.cdtxt -o X.cdump`)
gives a dump whose `proftool dump` equals the original's but for the source
line (tests/e2e/cases/bench-cdtxt.t checks it); `--scale` then repeats it.

Bad input (not a CUPTIDMP file, a chunk or record running past the end, a
kind without a stride): a message naming the file and byte offset, exit 1.
"""
import argparse
import os
import re
import struct
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIND_NAMES = {1: "MEMCPY", 2: "MEMSET", 3: "KERNEL", 4: "DRIVER", 5: "RUNTIME", 8: "DEVICE", 9: "CONTEXT",
	      10: "CONCURRENT_KERNEL", 11: "NAME", 12: "MARKER", 13: "MARKER_DATA", 17: "OVERHEAD",
	      22: "MEMCPY2", 36: "CUDA_EVENT", 38: "SYNCHRONIZATION", 39: "EXTERNAL_CORRELATION",
	      48: "INTERNAL_LAUNCH_API", 49: "MEMORY2", 50: "MEMORY_POOL", 51: "GRAPH_TRACE"}
P_TAGS = {1: "exe", 2: "cmdline", 3: "host", 6: "comm", 4: "visible"}


class Bad(Exception):
	pass


def layouts():
	"""Field tables of lib/cupti/cupti-layouts.c: {kind: [(name, off, size, role, min_size)]}."""
	text = open(os.path.join(SRC, "lib/cupti/cupti-layouts.c")).read()
	macro = {"N": ("NUM", None), "I": ("NUM", None), "T": ("TIME", 8), "S": ("STR", 8), "B": ("BLOB", 8),
		 "Z": ("ZERO", 8), "O": ("OBJID", 12)}
	tables = {}
	for m in re.finditer(r"static const struct pt_cl_field (f_\w+)\[\] = \{(.*?)END,", text, re.S):
		fields = []
		for f in re.finditer(r'([NITSBZO])\("(\w+)", (\d+)(?:, (\d+))?\)|\{ "(\w+)", (\d+), (\d+), PT_CL_(\w+), (\d+)',
				     m.group(2)):
			if f.group(1):
				role, size = macro[f.group(1)]
				fields.append((f.group(2), int(f.group(3)), size or int(f.group(4)), role, 0))
			else:
				fields.append((f.group(5), int(f.group(6)), int(f.group(7)), f.group(8), int(f.group(9))))
		tables[m.group(1)] = fields
	kinds = {}
	sw = text[text.index("pt_cl_fields(uint32_t kind)"):]
	pending = []
	for m in re.finditer(r"case PT_CK_(\w+):(?: return (f_\w+);)?", sw[:sw.index("default:")]):
		pending.append(m.group(1))
		if m.group(2):
			for k in pending:
				num = [n for n, s in KIND_NAMES.items() if s == k]
				if num:
					kinds[num[0]] = tables[m.group(2)]
			pending = []
	if not kinds.get(10):
		sys.exit("cdump-to-cdtxt: cannot read the layout table of lib/cupti/cupti-layouts.c")
	return kinds


def q(s):
	return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def convert(path, out):
	b = open(path, "rb").read()
	fields = layouts()

	def need(off, n, what):
		if off + n > len(b):
			raise Bad("%s: byte %d: %s runs past the end of the file (%d bytes)" % (path, off, what, len(b)))

	need(0, 64, "file header")
	if b[:8] != b"CUPTIDMP":
		raise Bad("%s: byte 0: not a CUPTIDMP dump (magic %r)" % (path, b[:8]))
	hsize, = struct.unpack_from("<H", b, 12)
	version, = struct.unpack_from("<I", b, 16)
	pid, = struct.unpack_from("<I", b, 28)
	hflags, = struct.unpack_from("<Q", b, 40)
	flags = [n for bit, n in ((1, "default-clock"), (2, "rewritten"), (4, "system-tids")) if hflags & bit]
	w = out.write
	w("# derived from %s (%d bytes) by bench/cdump-to-cdtxt.py\n" % (os.path.basename(path), len(b)))
	w("header cupti=%d pid=%d flags=%s\n" % (version, pid, ",".join(flags)))
	strings, stride, buffers, body = {}, {}, 0, []
	cbids, used, cbid_at = {}, set(), None
	off = hsize
	while off < len(b):
		need(off, 16, "chunk header")
		t, _, n = struct.unpack_from("<IIQ", b, off)
		p = off + 16
		need(p, n, "chunk type %d (%d bytes)" % (t, n))
		if t == 1:  # KIND_TABLE
			es, ne = struct.unpack_from("<II", b, p)
			for i in range(ne):
				k, s, _, _ = struct.unpack_from("<IIII", b, p + 8 + i * es)
				stride[k] = s
			body.append("kinds default\n")
			for k in sorted(stride):
				if k in KIND_NAMES:
					body.append("stride %s=%d\n" % (KIND_NAMES[k], stride[k]))
		elif t == 2:  # CLOCK_SYNC
			c, r, m, u, why, _ = struct.unpack_from("<QQQQII", b, p)
			body.append("clock cupti=%d real=%d mono=%d uncertainty=%d reason=%d\n" % (c, r, m, u, why))
		elif t == 3:  # STRINGS
			s = p
			while s + 8 <= p + n:
				i, ln = struct.unpack_from("<II", b, s)
				if i == 0:
					break
				strings[i] = b[s + 8:s + 8 + ln].decode("utf-8", "replace")
				s += (8 + ln + 1 + 7) & ~7
		elif t == 6:  # CBID_NAMES
			s = p
			while s + 16 <= p + n:
				dom, cb, ln, _ = struct.unpack_from("<IIII", b, s)
				cbids[(dom, cb)] = b[s + 16:s + 16 + ln].decode("utf-8", "replace")
				s += (16 + ln + 1 + 7) & ~7
			cbid_at = len(body)
		elif t == 7:  # PROCESS
			ppid, rank, lrank, world, nt = struct.unpack_from("<IiiiI", b, p + 4)
			line = "process rank=%d local_rank=%d world_size=%d ppid=%d" % (rank, lrank, world, ppid)
			s = p + 24
			for _ in range(nt):
				tag, ln = struct.unpack_from("<II", b, s)
				v = b[s + 8:s + 8 + ln].decode("utf-8", "replace")
				if tag in P_TAGS and (tag != 2 or " " not in v):
					line += " %s=%s" % (P_TAGS[tag], q(v.rstrip("\0").replace("\0", " ")))
				s += (8 + ln + 1 + 7) & ~7
			body.append(line + "\n")
		elif t == 8:  # DROPPED
			d = struct.unpack_from("<QQQQ", b, p)
			if any(d):
				body.append("dropped %s\n" % ",".join(str(x) for x in d))
		elif t == 9:  # THREAD_NAMES
			s, names = p, []
			while s + 8 <= p + n:
				tid, ln = struct.unpack_from("<II", b, s)
				if ln == 0 and tid == 0:
					break
				names.append("%d=%s" % (tid, q(b[s + 8:s + 8 + ln].decode("utf-8", "replace"))))
				s += (8 + ln + 1 + 7) & ~7
			if names:
				body.append("threads " + " ".join(names) + "\n")
		elif t == 4:  # BUFFER
			_, valid, _, _, _ = struct.unpack_from("<QQIIQ", b, p)
			r, end = p + 32, p + 32 + valid
			need(r, valid, "BUFFER records")
			lines = ["buffer\n"]
			while r < end:
				k, = struct.unpack_from("<I", b, r)
				if not stride.get(k):
					raise Bad("%s: byte %d: record kind %d has no stride in the KIND_TABLE" % (path, r, k))
				if k not in fields or k not in KIND_NAMES:
					raise Bad("%s: byte %d: record kind %d has no known layout" % (path, r, k))
				need(r, stride[k], "record")
				rec = ["  rec", KIND_NAMES[k]]
				for name, fo, fs, role, mins in fields[k]:
					if name == "kind" or (mins or fo + fs) > stride[k] or role in ("ZERO", "BLOB"):
						continue
					if role == "OBJID":
						ids = struct.unpack_from("<III", b, r + fo)
						if any(ids):
							rec.append("%s=%s" % (name, ",".join(str(x) for x in ids)))
						continue
					if role == "BYTES":
						v = b[r + fo:r + fo + fs]
						if any(v):
							rec.append("%s=%s" % (name, v.hex()))
						continue
					v = int.from_bytes(b[r + fo:r + fo + fs], "little")
					if not v:
						continue
					if name == "cbid":
						used.add((1 if k == 4 else 2, v))
					if role == "STR":
						rec.append("%s=%s" % (name, q(strings[v]) if v in strings else "@%d" % v))
					else:
						rec.append("%s=%d" % (name, v))
				lines.append(" ".join(rec) + "\n")
				r += stride[k]
			lines.append("end-buffer\n")
			body.extend(lines)
			buffers += 1
		elif t == 0x00444E45:  # END
			pass
		off = p + ((n + 7) & ~7)
	# the callback names the API records use (the dump names every id CUPTI knows)
	if cbid_at is not None:
		body[cbid_at:cbid_at] = ["cbid %s %d %s\n" % ("driver" if d == 1 else "runtime", c, q(cbids[(d, c)]))
					 for d, c in sorted(used) if (d, c) in cbids]
	w("".join(body))


def main():
	ap = argparse.ArgumentParser(description="derive a proftool-gen cupti description from a CUPTIDMP dump")
	ap.add_argument("dump")
	ap.add_argument("-o", "--output", help="write here instead of standard output")
	a = ap.parse_args()
	try:
		if a.output:
			tmp = a.output + ".tmp"
			with open(tmp, "w") as f:
				convert(a.dump, f)
			os.rename(tmp, a.output)
		else:
			convert(a.dump, sys.stdout)
	except (Bad, struct.error, OSError) as e:
		if a.output and os.path.exists(a.output + ".tmp"):
			os.unlink(a.output + ".tmp")
		sys.exit("cdump-to-cdtxt: %s" % e)


if __name__ == "__main__":
	main()
