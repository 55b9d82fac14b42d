/*
 * proftool-gen's Kineto back end: PyTorch profiler (Kineto) Chrome-trace JSON
 * from a small text description (language in tests/gen/README.md, "Kineto
 * traces"), in three dialect versions:
 *  - current:  three-decimal µs relative to baseTimeNanoseconds, written
 *              before traceEvents (Kineto's writer since 2024);
 *  - end-base: the same, baseTimeNanoseconds written after traceEvents
 *              (Kineto's writer of 2023);
 *  - legacy:   integer absolute µs, no base, the old categories (Operator,
 *              Runtime, Kernel, Memcpy, Memset) and "stream N" tids.
 * Written from the dialect as Kineto's writer emits it (libkineto/src/
 * output_json.cpp), never from proftool's importer, so importer bugs show.
 * `--print-expect FILE` writes what a reader must find: per kernel, copy and
 * API name the calls and exact total ns, the steps, the event count.
 * `--scale SIZE` repeats the iterations until the file has SIZE bytes (the
 * benchmark's 1 GB trace). Same description, same bytes (gzip: zlib's
 * header carries no time).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gen.h"
#include "support/xalloc.h"

enum dialect { D_CURRENT, D_END_BASE, D_LEGACY };
enum bk { B_OP, B_ANN, B_KERNEL, B_MEMCPY, B_MEMSET, B_SYNC, B_PYFUNC };

struct body {
	enum bk kind;
	char *name;         /* op/annotation/kernel/sync/python name; copy: kind "HtoD" */
	char *src, *dst;    /* copy memory kinds; memset: dst */
	int64_t api_t, api_dur, t, dur, bytes;
	int64_t tid, stream, device;
	int32_t grid[3], block[3];
	int64_t regs, smem;
	char *xargs;        /* more args: Input Dims / Input type (op), collective args (op, kernel) */
};

struct devp {
	int64_t id, sms, mem;
	int ccmaj, ccmin;
	char *name;
};

struct thr {
	int64_t tid;
	char *name;
};

/* A name's expected totals (--print-expect). */
struct tot {
	char *key; /* "kernel NAME", "api NAME", ... */
	uint64_t calls;
	int64_t ns;
};

struct kg {
	const char *file;
	int line;
	enum dialect dialect;
	int64_t base, pid, period, steps;
	int64_t rank, world;
	char *backend;
	bool step_ranges, flows;
	PT_VEC(struct devp) devs;
	PT_VEC(struct thr) threads;
	PT_VEC(struct body) body;
	/* output */
	gzFile gz;
	FILE *f;
	uint64_t bytes, events;
	bool first_event;
	int64_t corr;
	PT_VEC(struct tot) tots;
	int64_t nsteps;
};

static void __attribute__((noreturn, format(printf, 2, 3))) die(const struct kg *k, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "proftool-gen: error: ");
	if (k && k->line)
		fprintf(stderr, "'%s' line %d: ", k->file, k->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- description ------------------------------------------------------------------------- */

static int tokenize(struct kg *k, char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == '\n')
			break;
		if (n == max)
			die(k, "too many tokens");
		if (*p == '"') {
			char *o = ++p;
			tok[n++] = o;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				*o++ = *p++;
			}
			if (*p != '"')
				die(k, "unterminated quote");
			p++;
			*o = 0;
			continue;
		}
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
	}
	return n;
}

/* A number with an optional unit: ns (default), us, ms, s; decimals allowed when the
 * result is a whole number of ns ("5.5us"). */
static int64_t num(struct kg *k, const char *s)
{
	char *end;
	if (!strncmp(s, "0x", 2)) {
		long long v = strtoll(s, &end, 16);
		if (*end)
			die(k, "'%s' is not a number", s);
		return v;
	}
	long long whole = strtoll(s, &end, 10);
	if (end == s)
		die(k, "'%s' is not a number", s);
	int64_t frac = 0, fscale = 1;
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (fscale > INT64_C(100000000000))
				die(k, "'%s': too many decimals", s);
			frac = frac * 10 + (*end - '0');
			fscale *= 10;
		}
	}
	int64_t m = 1;
	if (!strcmp(end, "us"))
		m = 1000;
	else if (!strcmp(end, "ms"))
		m = 1000000;
	else if (!strcmp(end, "s"))
		m = 1000000000;
	else if (*end && strcmp(end, "ns"))
		die(k, "'%s': unknown unit", s);
	if ((frac * m) % fscale)
		die(k, "'%s' is not a whole number of ns", s);
	return (int64_t)whole * m + frac * m / fscale;
}

static void triple(struct kg *k, const char *s, int32_t *v)
{
	if (sscanf(s, "%d,%d,%d", &v[0], &v[1], &v[2]) != 3)
		die(k, "'%s' is not x,y,z", s);
}

/* key=value options after the positional tokens of a body line */
static void xarg(struct body *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void xarg(struct body *b, const char *fmt, ...)
{
	char t[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	char *o = b->xargs;
	b->xargs = pt_xasprintf("%s%s%s", o ? o : "", o ? ", " : "", t);
	free(o);
}

/* dims=2x3,3,-,L2x3+4x3: Kineto's "Input Dims": [[2, 3], [3], [], [[2, 3], [4, 3]]] */
static void dims_arg(struct kg *k, struct body *b, const char *v)
{
	char out[1024] = "[";
	size_t o = 1;
	char *dup = pt_xstrdup(v), *save = NULL;
	for (char *in = strtok_r(dup, ",", &save); in; in = strtok_r(NULL, ",", &save)) {
		if (o > 1)
			o += (size_t)snprintf(out + o, sizeof(out) - o, ", ");
		bool list = in[0] == 'L';
		if (list) {
			in++;
			o += (size_t)snprintf(out + o, sizeof(out) - o, "[");
		}
		char *s2 = NULL;
		int nt = 0;
		for (char *t = strtok_r(in, "+", &s2); t; t = strtok_r(NULL, "+", &s2)) {
			o += (size_t)snprintf(out + o, sizeof(out) - o, "%s[", nt++ ? ", " : "");
			if (strcmp(t, "-")) {
				int nd = 0;
				for (char *d = t; *d;) {
					char *end;
					long long x = strtoll(d, &end, 10);
					if (end == d || (*end && *end != 'x'))
						die(k, "dims: bad shape '%s'", v);
					o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%lld", nd++ ? ", " : "", x);
					d = *end ? end + 1 : end;
				}
			}
			o += (size_t)snprintf(out + o, sizeof(out) - o, "]");
		}
		if (list)
			o += (size_t)snprintf(out + o, sizeof(out) - o, "]");
		if (o >= sizeof(out) - 8)
			die(k, "dims: too long");
	}
	snprintf(out + o, sizeof(out) - o, "]");
	free(dup);
	xarg(b, "\"Input Dims\": %s", out);
}

/* types=float,Scalar: "Input type": ["float", "Scalar"] */
static void types_arg(struct body *b, const char *v)
{
	char out[1024] = "[";
	size_t o = 1;
	char *dup = pt_xstrdup(v), *save = NULL;
	for (char *t = strtok_r(dup, ",", &save); t && o < sizeof(out) - 64; t = strtok_r(NULL, ",", &save))
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s\"%s\"", o > 1 ? ", " : "", strcmp(t, "-") ? t : "");
	snprintf(out + o, sizeof(out) - o, "]");
	free(dup);
	xarg(b, "\"Input type\": %s", out);
}

/* comm=NAME:DTYPE:IN:OUT:GROUP:PG: the collective arguments of PyTorch's record_param_comms */
static void comm_args(struct kg *k, struct body *b, const char *v)
{
	char name[64], dtype[64], pg[64];
	long long in, out, group;
	if (sscanf(v, "%63[^:]:%63[^:]:%lld:%lld:%lld:%63s", name, dtype, &in, &out, &group, pg) != 6)
		die(k, "comm=NAME:DTYPE:IN:OUT:GROUP:PG expected");
	xarg(b, "\"Collective name\": \"%s\", \"dtype\": \"%s\", \"In msg nelems\": %lld, \"Out msg nelems\": %lld, "
		"\"In split size\": \"[]\", \"Out split size\": \"[]\", \"Group size\": %lld, "
		"\"Process Group Name\": \"%s\", \"Process Group Description\": \"default_pg\"",
	     name, dtype, in, out, group, pg);
}

static void body_opts(struct kg *k, struct body *b, char **tok, int from, int n)
{
	for (int i = from; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		if (!eq)
			die(k, "'%s': expected key=value", tok[i]);
		*eq = 0;
		const char *key = tok[i], *v = eq + 1;
		if (!strcmp(key, "tid"))
			b->tid = num(k, v);
		else if (!strcmp(key, "stream"))
			b->stream = num(k, v);
		else if (!strcmp(key, "device"))
			b->device = num(k, v);
		else if (!strcmp(key, "grid"))
			triple(k, v, b->grid);
		else if (!strcmp(key, "block"))
			triple(k, v, b->block);
		else if (!strcmp(key, "regs"))
			b->regs = num(k, v);
		else if (!strcmp(key, "smem"))
			b->smem = num(k, v);
		else if (!strcmp(key, "dims"))
			dims_arg(k, b, v);
		else if (!strcmp(key, "types"))
			types_arg(b, v);
		else if (!strcmp(key, "comm"))
			comm_args(k, b, v);
		else
			die(k, "unknown option '%s'", key);
	}
}

static void parse(struct kg *k, FILE *in)
{
	char line[4096];
	char *tok[32];
	while (fgets(line, sizeof(line), in)) {
		k->line++;
		int n = tokenize(k, line, tok, 32);
		if (!n)
			continue;
		const char *d = tok[0];
		struct body b;
		memset(&b, 0, sizeof(b));
		b.tid = -1;
		b.stream = 7;
		if (!strcmp(d, "dialect") && n == 2) {
			k->dialect = !strcmp(tok[1], "current")    ? D_CURRENT
				     : !strcmp(tok[1], "end-base") ? D_END_BASE
				     : !strcmp(tok[1], "legacy")   ? D_LEGACY
								   : (die(k, "unknown dialect '%s'", tok[1]), D_CURRENT);
		} else if (!strcmp(d, "base") && n == 2) {
			k->base = num(k, tok[1]);
		} else if (!strcmp(d, "pid") && n == 2) {
			k->pid = num(k, tok[1]);
		} else if (!strcmp(d, "rank") && n >= 2) {
			k->rank = num(k, tok[1]);
			for (int i = 2; i + 1 < n; i += 2) {
				if (!strcmp(tok[i], "world"))
					k->world = num(k, tok[i + 1]);
				else if (!strcmp(tok[i], "backend"))
					k->backend = pt_xstrdup(tok[i + 1]);
				else
					die(k, "rank: unknown '%s'", tok[i]);
			}
		} else if (!strcmp(d, "device") && n >= 2) {
			struct devp p = { num(k, tok[1]), 108, 42297524224, 8, 0, pt_xstrdup("NVIDIA A100-SXM4-40GB") };
			for (int i = 2; i + 1 < n; i += 2) {
				if (!strcmp(tok[i], "name")) {
					free(p.name);
					p.name = pt_xstrdup(tok[i + 1]);
				} else if (!strcmp(tok[i], "sms")) {
					p.sms = num(k, tok[i + 1]);
				} else if (!strcmp(tok[i], "mem")) {
					p.mem = num(k, tok[i + 1]);
				} else if (!strcmp(tok[i], "cc")) {
					if (sscanf(tok[i + 1], "%d.%d", &p.ccmaj, &p.ccmin) != 2)
						die(k, "cc: expected MAJOR.MINOR");
				} else {
					die(k, "device: unknown '%s'", tok[i]);
				}
			}
			pt_vec_push(&k->devs, p);
		} else if (!strcmp(d, "thread") && n == 3) {
			struct thr t = { num(k, tok[1]), pt_xstrdup(tok[2]) };
			pt_vec_push(&k->threads, t);
		} else if (!strcmp(d, "steps") && n >= 2) {
			k->steps = num(k, tok[1]);
			if (n == 4 && !strcmp(tok[2], "period"))
				k->period = num(k, tok[3]);
			else if (n != 2)
				die(k, "steps N [period T]");
		} else if (!strcmp(d, "step-ranges") && n == 2) {
			k->step_ranges = !strcmp(tok[1], "yes");
		} else if (!strcmp(d, "flows") && n == 2) {
			k->flows = !strcmp(tok[1], "yes");
		} else if ((!strcmp(d, "op") || !strcmp(d, "ann") || !strcmp(d, "pyfunc")) && n >= 4) {
			b.kind = d[0] == 'o' ? B_OP : d[0] == 'a' ? B_ANN : B_PYFUNC;
			b.name = pt_xstrdup(tok[1]);
			b.t = num(k, tok[2]);
			b.dur = num(k, tok[3]);
			body_opts(k, &b, tok, 4, n);
			pt_vec_push(&k->body, b);
		} else if (!strcmp(d, "kernel") && n >= 6) {
			b.kind = B_KERNEL;
			b.name = pt_xstrdup(tok[1]);
			b.api_t = num(k, tok[2]);
			b.api_dur = num(k, tok[3]);
			b.t = num(k, tok[4]);
			b.dur = num(k, tok[5]);
			body_opts(k, &b, tok, 6, n);
			pt_vec_push(&k->body, b);
		} else if (!strcmp(d, "memcpy") && n >= 9) {
			b.kind = B_MEMCPY;
			b.name = pt_xstrdup(tok[1]);
			b.src = pt_xstrdup(tok[2]);
			b.dst = pt_xstrdup(tok[3]);
			b.bytes = num(k, tok[4]);
			b.api_t = num(k, tok[5]);
			b.api_dur = num(k, tok[6]);
			b.t = num(k, tok[7]);
			b.dur = num(k, tok[8]);
			body_opts(k, &b, tok, 9, n);
			pt_vec_push(&k->body, b);
		} else if (!strcmp(d, "memset") && n >= 7) {
			b.kind = B_MEMSET;
			b.dst = pt_xstrdup(tok[1]);
			b.bytes = num(k, tok[2]);
			b.api_t = num(k, tok[3]);
			b.api_dur = num(k, tok[4]);
			b.t = num(k, tok[5]);
			b.dur = num(k, tok[6]);
			body_opts(k, &b, tok, 7, n);
			pt_vec_push(&k->body, b);
		} else if (!strcmp(d, "sync") && n >= 4) {
			b.kind = B_SYNC;
			b.name = pt_xstrdup(tok[1]);
			b.t = num(k, tok[2]);
			b.dur = num(k, tok[3]);
			body_opts(k, &b, tok, 4, n);
			pt_vec_push(&k->body, b);
		} else {
			die(k, "unknown or incomplete directive '%s'", d);
		}
	}
	k->line = 0;
}

/* ---- output ------------------------------------------------------------------------------ */

static void out(struct kg *k, const char *s, size_t n)
{
	if (k->gz ? gzwrite(k->gz, s, (unsigned)n) != (int)n : fwrite(s, 1, n, k->f) != n)
		die(k, "write error");
	k->bytes += n;
}

static void outf(struct kg *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(struct kg *k, const char *fmt, ...)
{
	char b[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(b))
		die(k, "line too long");
	out(k, b, (size_t)n);
}

/* A time in the dialect's text: "µs.nnn" relative to the base, or integer absolute µs. */
static const char *ts(struct kg *k, int64_t rel_ns, char *b)
{
	if (k->dialect == D_LEGACY) {
		int64_t abs = k->base + rel_ns;
		if (abs % 1000)
			die(k, "the legacy dialect writes whole µs: %" PRId64 " ns is not one", abs);
		sprintf(b, "%" PRId64, abs / 1000);
	} else {
		sprintf(b, "%" PRId64 ".%03" PRId64, rel_ns / 1000, rel_ns % 1000);
	}
	return b;
}

static const char *dur(struct kg *k, int64_t ns, char *b)
{
	if (k->dialect == D_LEGACY) {
		if (ns % 1000)
			die(k, "the legacy dialect writes whole µs: a duration of %" PRId64 " ns is not one", ns);
		sprintf(b, "%" PRId64, ns / 1000);
	} else {
		sprintf(b, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
	}
	return b;
}

static void ev_sep(struct kg *k)
{
	out(k, k->first_event ? "\n  " : ",\n  ", k->first_event ? 3 : 4);
	k->first_event = false;
	k->events++;
}

static void tally(struct kg *k, const char *what, const char *name, int64_t ns)
{
	char key[2048];
	snprintf(key, sizeof(key), "%s %s", what, name);
	for (size_t i = k->tots.n; i-- > 0;)
		if (!strcmp(k->tots.v[i].key, key)) {
			k->tots.v[i].calls++;
			k->tots.v[i].ns += ns;
			return;
		}
	struct tot t = { pt_xstrdup(key), 1, ns };
	pt_vec_push(&k->tots, t);
}

static const char *cat(struct kg *k, const char *cur, const char *legacy)
{
	return k->dialect == D_LEGACY ? legacy : cur;
}

static void host_x(struct kg *k, const char *c, const char *name, int64_t tid, int64_t t, int64_t d, const char *args)
{
	char a[32], b[32];
	ev_sep(k);
	outf(k, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %" PRId64 ", \"tid\": %" PRId64
		", \"ts\": %s, \"dur\": %s, \"args\": {%s}}",
	     c, name, k->pid, tid, ts(k, t, a), dur(k, d, b), args);
}

static void iteration(struct kg *k, int64_t i0)
{
	char a[32], b[32], args[4096], tidtext[48];
	int64_t off = i0 * k->period;
	if (k->step_ranges) {
		char nm[48];
		snprintf(nm, sizeof(nm), "ProfilerStep#%" PRId64, i0 + 1);
		host_x(k, "user_annotation", nm, k->pid, off, k->period - 1000, "");
		k->nsteps++;
	}
	for (size_t j = 0; j < k->body.n; j++) {
		const struct body *bd = &k->body.v[j];
		int64_t tid = bd->tid >= 0 ? bd->tid : k->pid;
		switch (bd->kind) {
		case B_OP:
		case B_ANN:
		case B_PYFUNC:
			host_x(k, bd->kind == B_OP ? cat(k, "cpu_op", "Operator") : bd->kind == B_ANN ? "user_annotation"
											      : "python_function",
			       bd->name, tid, off + bd->t, bd->dur, bd->xargs ? bd->xargs : "");
			break;
		case B_SYNC:
			ev_sep(k);
			outf(k, "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"%s\", \"pid\": %" PRId64 ", \"tid\": %" PRId64
				", \"ts\": %s, \"dur\": %s, \"args\": {\"cuda_sync_kind\": \"%s\", \"stream\": %" PRId64
				", \"device\": %" PRId64 ", \"context\": 1}}",
			     bd->name, bd->device, bd->stream, ts(k, off + bd->t, a), dur(k, bd->dur, b), bd->name,
			     bd->stream, bd->device);
			break;
		case B_KERNEL:
		case B_MEMCPY:
		case B_MEMSET: {
			int64_t corr = ++k->corr;
			const char *api = bd->kind == B_KERNEL ? "cudaLaunchKernel"
					  : bd->kind == B_MEMCPY ? "cudaMemcpyAsync"
								 : "cudaMemsetAsync";
			int cbid = bd->kind == B_KERNEL ? 211 : bd->kind == B_MEMCPY ? 41 : 51;
			snprintf(args, sizeof(args), "\"External id\": %" PRId64 ", \"cbid\": %d, \"correlation\": %" PRId64,
				 corr, cbid, corr);
			host_x(k, cat(k, "cuda_runtime", "Runtime"), api, tid, off + bd->api_t, bd->api_dur, args);
			tally(k, "api", api, bd->api_dur);
			if (k->flows) {
				ev_sep(k);
				outf(k, "{\"ph\": \"s\", \"id\": %" PRId64 ", \"pid\": %" PRId64 ", \"tid\": %" PRId64
					", \"ts\": %s, \"cat\": \"ac2g\", \"name\": \"ac2g\"}",
				     corr, k->pid, tid, ts(k, off + bd->api_t, a));
			}
			if (k->dialect == D_LEGACY)
				snprintf(tidtext, sizeof(tidtext), "\"stream %" PRId64 "\"", bd->stream);
			else
				snprintf(tidtext, sizeof(tidtext), "%" PRId64, bd->stream);
			char name[1024];
			if (bd->kind == B_KERNEL) {
				snprintf(name, sizeof(name), "%s", bd->name);
				snprintf(args, sizeof(args),
					 "\"External id\": %" PRId64 ", \"queued\": 0, \"device\": %" PRId64
					 ", \"context\": 1, \"stream\": %" PRId64 ", \"correlation\": %" PRId64
					 ", \"registers per thread\": %" PRId64 ", \"shared memory\": %" PRId64
					 ", \"blocks per SM\": 0.5, \"warps per SM\": 2, \"grid\": [%d, %d, %d], \"block\": [%d, %d, %d],"
					 " \"est. achieved occupancy %%\": 3%s%s",
					 corr, bd->device, bd->stream, corr, bd->regs, bd->smem, bd->grid[0], bd->grid[1],
					 bd->grid[2], bd->block[0], bd->block[1], bd->block[2], bd->xargs ? ", " : "",
					 bd->xargs ? bd->xargs : "");
				tally(k, "kernel", name, bd->dur);
			} else {
				if (bd->kind == B_MEMCPY)
					snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", bd->name, bd->src, bd->dst);
				else
					snprintf(name, sizeof(name), "Memset (%s)", bd->dst);
				snprintf(args, sizeof(args),
					 "\"External id\": %" PRId64 ", \"device\": %" PRId64 ", \"context\": 1, \"stream\": %" PRId64
					 ", \"correlation\": %" PRId64 ", \"bytes\": %" PRId64 ", \"memory bandwidth (GB/s)\": %.6g",
					 corr, bd->device, bd->stream, corr, bd->bytes,
					 bd->dur ? (double)bd->bytes / (double)bd->dur : 0.0);
				tally(k, bd->kind == B_MEMCPY ? "memcpy" : "memset", name, bd->dur);
			}
			const char *c = bd->kind == B_KERNEL ? cat(k, "kernel", "Kernel")
					: bd->kind == B_MEMCPY ? cat(k, "gpu_memcpy", "Memcpy")
							       : cat(k, "gpu_memset", "Memset");
			ev_sep(k);
			outf(k, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %" PRId64 ", \"tid\": %s"
				", \"ts\": %s, \"dur\": %s, \"args\": {%s}}",
			     c, name, bd->device, tidtext, ts(k, off + bd->t, a), dur(k, bd->dur, b), args);
			if (k->flows) {
				ev_sep(k);
				outf(k, "{\"ph\": \"f\", \"id\": %" PRId64 ", \"pid\": %" PRId64 ", \"tid\": %s"
					", \"ts\": %s, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
				     corr, bd->device, tidtext, ts(k, off + bd->t, a));
			}
			break;
		}
		}
	}
}

static void header(struct kg *k)
{
	if (k->dialect == D_LEGACY) {
		outf(k, "{\n  \"traceEvents\": [");
		return;
	}
	outf(k, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
	for (size_t i = 0; i < k->devs.n; i++) {
		const struct devp *p = &k->devs.v[i];
		outf(k,
		     "%s\n    {\n      \"id\": %" PRId64 ", \"name\": \"%s\", \"totalGlobalMem\": %" PRId64 ",\n"
		     "      \"computeMajor\": %d, \"computeMinor\": %d,\n"
		     "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
		     "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32,\n"
		     "      \"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 167936,\n"
		     "      \"numSms\": %" PRId64 ", \"sharedMemPerBlockOptin\": 166912\n    }",
		     i ? "," : "", p->id, p->name, p->mem, p->ccmaj, p->ccmin, p->sms);
	}
	outf(k, "\n  ],\n");
	if (k->rank >= 0) {
		outf(k, "  \"distributedInfo\": {");
		if (k->backend)
			outf(k, "\"backend\": \"%s\", ", k->backend);
		outf(k, "\"rank\": %" PRId64, k->rank);
		if (k->world >= 0)
			outf(k, ", \"world_size\": %" PRId64, k->world);
		outf(k, "},\n");
	}
	if (k->dialect == D_CURRENT)
		outf(k, "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": %" PRId64 ",\n", k->base);
	out(k, "  \"traceEvents\": [", 18);
}

static void metadata(struct kg *k)
{
	char a[32];
	ev_sep(k);
	outf(k, "{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": %s, \"pid\": %" PRId64
		", \"tid\": 0, \"args\": {\"name\": \"python3\"}}",
	     ts(k, 0, a), k->pid);
	for (size_t i = 0; i < k->threads.n; i++) {
		ev_sep(k);
		outf(k, "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": %s, \"pid\": %" PRId64 ", \"tid\": %" PRId64
			", \"args\": {\"name\": \"%s\"}}",
		     ts(k, 0, a), k->pid, k->threads.v[i].tid, k->threads.v[i].name);
	}
}

static void trailer(struct kg *k)
{
	char a[32];
	/* the span Kineto writes last: a Trace event with string pid/tid, and a global instant */
	ev_sep(k);
	outf(k, "{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": %s, \"dur\": 1.000, \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\","
		" \"name\": \"PyTorch Profiler (0)\", \"args\": {\"Op count\": 0}}",
	     ts(k, 0, a));
	out(k, "\n  ]", 4);
	if (k->dialect == D_LEGACY) {
		out(k, "\n}\n", 3);
		return;
	}
	outf(k, ",\n  \"traceName\": \"gen.pt.trace.json\"");
	if (k->dialect == D_END_BASE)
		outf(k, ",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": %" PRId64, k->base);
	out(k, "\n}\n", 3);
}

static int cmp_tot(const void *a, const void *b)
{
	return strcmp(((const struct tot *)a)->key, ((const struct tot *)b)->key);
}

static const char *usage =
	"usage: proftool-gen kineto DESC -o OUT.json|OUT.json.gz [--print-expect FILE] [--scale SIZE]\n"
	"Writes a PyTorch profiler (Kineto) trace described by DESC (tests/gen/README.md);\n"
	"OUT ending in .gz is gzip-compressed. --scale repeats the iterations until OUT holds\n"
	"SIZE bytes of JSON (suffixes K, M, G).\n";

int gen_kineto_main(int argc, char **argv)
{
	const char *desc = NULL, *outp = NULL, *expect = NULL;
	uint64_t scale = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outp = argv[++i];
		} else if (!strcmp(argv[i], "--print-expect") && i + 1 < argc) {
			expect = argv[++i];
		} else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
			char *end;
			scale = strtoull(argv[++i], &end, 10);
			scale <<= *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
		} else if (!desc && argv[i][0] != '-') {
			desc = argv[i];
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!desc || !outp) {
		fputs(usage, stderr);
		return 2;
	}
	struct kg k;
	memset(&k, 0, sizeof(k));
	k.file = desc;
	k.base = INT64_C(1700000000000000000);
	k.pid = 4242;
	k.period = 1000000;
	k.steps = 1;
	k.rank = -1;
	k.world = -1;
	k.step_ranges = true;
	k.flows = true;
	FILE *in = fopen(desc, "r");
	if (!in)
		die(NULL, "cannot open '%s'", desc);
	parse(&k, in);
	fclose(in);
	size_t ol = strlen(outp);
	if (ol > 3 && !strcmp(outp + ol - 3, ".gz")) {
		k.gz = gzopen(outp, "wb6");
		if (!k.gz)
			die(NULL, "cannot write '%s'", outp);
		gzbuffer(k.gz, 1u << 20);
	} else {
		k.f = fopen(outp, "w");
		if (!k.f)
			die(NULL, "cannot write '%s'", outp);
	}
	k.first_event = true;
	header(&k);
	metadata(&k);
	for (int64_t i = 0; scale ? k.bytes < scale : i < k.steps; i++)
		iteration(&k, i);
	trailer(&k);
	if (k.gz ? gzclose(k.gz) != Z_OK : fclose(k.f) != 0)
		die(NULL, "cannot write '%s'", outp);
	if (expect) {
		FILE *e = fopen(expect, "w");
		if (!e)
			die(NULL, "cannot write '%s'", expect);
		qsort(k.tots.v, k.tots.n, sizeof(*k.tots.v), cmp_tot);
		fprintf(e, "events %" PRIu64 "\nbytes %" PRIu64 "\nsteps %" PRId64 "\n", k.events, k.bytes, k.nsteps);
		for (size_t i = 0; i < k.tots.n; i++)
			fprintf(e, "%s\tcalls %" PRIu64 " total_ns %" PRId64 "\n", k.tots.v[i].key, k.tots.v[i].calls,
				k.tots.v[i].ns);
		if (fclose(e))
			die(NULL, "cannot write '%s'", expect);
	}
	for (size_t i = 0; i < k.tots.n; i++)
		free(k.tots.v[i].key);
	pt_vec_free(&k.tots);
	for (size_t i = 0; i < k.body.n; i++) {
		free(k.body.v[i].name);
		free(k.body.v[i].xargs);
		free(k.body.v[i].src);
		free(k.body.v[i].dst);
	}
	pt_vec_free(&k.body);
	for (size_t i = 0; i < k.devs.n; i++)
		free(k.devs.v[i].name);
	pt_vec_free(&k.devs);
	for (size_t i = 0; i < k.threads.n; i++)
		free(k.threads.v[i].name);
	pt_vec_free(&k.threads);
	free(k.backend);
	return 0;
}
