/*
 * proftool-gen back end for HCCL trace data (ascend.md §2.10), written from
 * the spec with its own JSON text (nothing from the importer or jansson):
 *
 *   hccl-dir [number N]                 the directory hccl_info_<N> (N: the `device`)
 *   hccl-op NAME                        start an operator subdirectory
 *   hccl-exec [file NAME]               start an execution file of the operator
 *                                       (default trace_<k>.json, k = 0, 1, ...)
 *   hccl-event AT DUR [tid N] [src R] [dst R] [transport T] [task T] [size B]
 *                                       one event: ts = the start of step 1 + AT,
 *                                       dur DUR (durations: ns, us, ms, s; written
 *                                       in µs with three decimals); R a rank or
 *                                       `local` (0xffffffff); B bytes, written as
 *                                       a hex string ("0x400")
 *   hccl-link SRC DST TYPE BYTES DUR [at AT] [tid N]
 *                                       one transfer on a link, laid out by the
 *                                       rules of §3.10: RDMA as RDMASend, RDMASend
 *                                       (half the bytes each) and a LOCAL Notify
 *                                       Wait (with the ranks swapped, as LOCAL
 *                                       events are written) splitting DUR
 *                                       40/40/20 %; any other type as one Memcpy
 *                                       event of BYTES over DUR. AT defaults to
 *                                       just after the previous event.
 *   hccl-raw TEXT                       the current file's whole content instead
 *   hccl-raw-event TEXT                 an element appended verbatim to the
 *                                       current file's traceEvents list
 *
 * hccl-exec is implied by the first event of an operator, hccl-op by the
 * first event of the directory ("allReduce_1").
 *
 * With --print-expect: `hccl.files N`, `hccl.events N` (events written;
 * raw elements and raw files not counted) and, per link of hccl-link,
 * `hccl.link SRC-DST TYPE size BYTES time_ns T` summed over its transfers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "support/vec.h"
#include "support/xalloc.h"

struct hev {
	int64_t at, dur;          /* ns after the start of step 1 */
	unsigned long long tid, src, dst, size;
	char *transport, *task;
	char *raw;                /* a raw element instead */
};

struct hfile {
	char *name;
	char *raw;                /* whole content instead */
	PT_VEC(struct hev) ev;
};

struct hop {
	char *name;
	PT_VEC(struct hfile) files;
};

struct hlink {
	unsigned long long src, dst;
	char *type;
	unsigned long long size;
	int64_t time;
};

static struct {
	bool on;
	long long number;
	bool number_set;
	PT_VEC(struct hop) ops;
	PT_VEC(struct hlink) links;
	int64_t next_at;
} hc;

static char *err_msg;

static int fail(const char *fmt, const char *a)
{
	free(err_msg);
	err_msg = pt_xasprintf(fmt, a);
	return -1;
}

const char *gen_hccl_error(void)
{
	return err_msg ? err_msg : "";
}

static bool unum(const char *s, unsigned long long *v)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !*end && !errno;
}

static bool rank(const char *s, unsigned long long *v)
{
	if (!strcmp(s, "local")) {
		*v = 0xffffffffULL;
		return true;
	}
	return unum(s, v) && *v <= 0xffffffffULL;
}

/* A duration: an integer with ns (default), us, ms or s. */
static bool dur(const char *s, int64_t *ns)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned long long mul = !*end || !strcmp(end, "ns") ? 1 : !strcmp(end, "us") ? 1000ULL :
				 !strcmp(end, "ms") ? 1000000ULL : !strcmp(end, "s") ? 1000000000ULL : 0;
	if (errno || !mul || v > (1ULL << 62) / mul)
		return false;
	*ns = (int64_t)(v * mul);
	return true;
}

static struct hop *cur_op(void)
{
	if (!hc.ops.n) {
		struct hop o = { pt_xstrdup("allReduce_1"), { 0 } };
		pt_vec_push(&hc.ops, o);
	}
	return &hc.ops.v[hc.ops.n - 1];
}

static struct hfile *cur_file(void)
{
	struct hop *o = cur_op();
	if (!o->files.n) {
		struct hfile f = { NULL, NULL, { 0 } };
		pt_vec_push(&o->files, f);
	}
	return &o->files.v[o->files.n - 1];
}

static void add_event(struct hev e)
{
	pt_vec_push(&cur_file()->ev, e);
	hc.next_at = e.at + e.dur + 1000;
}

/* 1 handled, 0 not an hccl directive, -1 error (gen_hccl_error()). */
int gen_hccl_directive(struct gen *g, char **tok, int n)
{
	(void)g;
	const char *d = tok[0];
	if (strncmp(d, "hccl-", 5))
		return 0;
	hc.on = true;
	if (!strcmp(d, "hccl-dir")) {
		for (int i = 1; i < n; i++) {
			unsigned long long v;
			if (!strcmp(tok[i], "number") && i + 1 < n && unum(tok[i + 1], &v) && v <= 999999999ULL) {
				hc.number = (long long)v;
				hc.number_set = true;
				i++;
			} else {
				return fail("hccl-dir: bad option '%s'", tok[i]);
			}
		}
		return 1;
	}
	if (!strcmp(d, "hccl-op")) {
		if (n != 2 || !*tok[1] || strchr(tok[1], '/'))
			return fail("%s NAME", d);
		struct hop o = { pt_xstrdup(tok[1]), { 0 } };
		pt_vec_push(&hc.ops, o);
		return 1;
	}
	if (!strcmp(d, "hccl-exec")) {
		struct hfile f = { NULL, NULL, { 0 } };
		if (n == 3 && !strcmp(tok[1], "file") && *tok[2] && !strchr(tok[2], '/'))
			f.name = pt_xstrdup(tok[2]);
		else if (n != 1)
			return fail("%s [file NAME]", d);
		pt_vec_push(&cur_op()->files, f);
		return 1;
	}
	if (!strcmp(d, "hccl-raw") || !strcmp(d, "hccl-raw-event")) {
		if (n != 2)
			return fail("%s TEXT", d);
		if (!strcmp(d, "hccl-raw")) {
			struct hfile *f = cur_file();
			free(f->raw);
			f->raw = pt_xstrdup(tok[1]);
		} else {
			struct hev e;
			memset(&e, 0, sizeof(e));
			e.raw = pt_xstrdup(tok[1]);
			pt_vec_push(&cur_file()->ev, e);
		}
		return 1;
	}
	if (!strcmp(d, "hccl-event")) {
		struct hev e;
		memset(&e, 0, sizeof(e));
		e.src = e.dst = 0xffffffffULL;
		if (n < 3 || !dur(tok[1], &e.at) || !dur(tok[2], &e.dur))
			return fail("%s AT DUR [tid N] [src R] [dst R] [transport T] [task T] [size B]", d);
		for (int i = 3; i < n; i++) {
			if (i + 1 >= n)
				return fail("hccl-event: '%s' needs a value", tok[i]);
			const char *k = tok[i], *v = tok[++i];
			if (!strcmp(k, "tid") && unum(v, &e.tid))
				;
			else if (!strcmp(k, "src") && rank(v, &e.src))
				;
			else if (!strcmp(k, "dst") && rank(v, &e.dst))
				;
			else if (!strcmp(k, "size") && unum(v, &e.size))
				;
			else if (!strcmp(k, "transport"))
				e.transport = pt_xstrdup(v);
			else if (!strcmp(k, "task"))
				e.task = pt_xstrdup(v);
			else
				return fail("hccl-event: bad option '%s'", k);
		}
		add_event(e);
		return 1;
	}
	if (!strcmp(d, "hccl-link")) {
		unsigned long long src, dst, size, tid = 0;
		int64_t total, at = hc.next_at;
		if (n < 6 || !rank(tok[1], &src) || !rank(tok[2], &dst) || !*tok[3] || !unum(tok[4], &size) ||
		    !dur(tok[5], &total))
			return fail("%s SRC DST TYPE BYTES DUR [at AT] [tid N]", d);
		for (int i = 6; i < n; i++) {
			if (i + 1 >= n)
				return fail("hccl-link: '%s' needs a value", tok[i]);
			const char *k = tok[i], *v = tok[++i];
			if (!strcmp(k, "at") && dur(v, &at))
				;
			else if (!strcmp(k, "tid") && unum(v, &tid))
				;
			else
				return fail("hccl-link: bad option '%s'", k);
		}
		const char *type = tok[3];
		int64_t used = 0;
		if (!strcmp(type, "RDMA")) {
			int64_t d1 = total * 2 / 5, d2 = total * 2 / 5, d3 = total - d1 - d2;
			unsigned long long s1 = size / 2, s2 = size - size / 2;
			struct hev a = { at, d1, tid, src, dst, s1, pt_xstrdup("RDMA"), pt_xstrdup("RDMASend"), NULL };
			struct hev b = { at + d1, d2, tid, src, dst, s2, pt_xstrdup("RDMA"), pt_xstrdup("RDMASend"), NULL };
			/* the wait is the receiver's, written as LOCAL with the ranks the other way round */
			struct hev c = { at + d1 + d2, d3, tid, dst, src, 0, pt_xstrdup("LOCAL"), pt_xstrdup("Notify Wait"),
					 NULL };
			add_event(a);
			add_event(b);
			add_event(c);
			used = d1 + d2 + d3;
		} else {
			struct hev a = { at, total, tid, src, dst, size, pt_xstrdup(type), pt_xstrdup("Memcpy"), NULL };
			add_event(a);
			used = total;
		}
		struct hlink *l = NULL;
		for (size_t i = 0; i < hc.links.n && !l; i++)
			if (hc.links.v[i].src == src && hc.links.v[i].dst == dst && !strcmp(hc.links.v[i].type, type))
				l = &hc.links.v[i];
		if (!l) {
			struct hlink nl = { src, dst, pt_xstrdup(type), 0, 0 };
			pt_vec_push(&hc.links, nl);
			l = &hc.links.v[hc.links.n - 1];
		}
		l->size += size;
		l->time += used;
		return 1;
	}
	return fail("unknown directive '%s'", d);
}

static void put_us(FILE *f, int64_t ns)
{
	fprintf(f, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

/* A JSON string: the text with '"' and '\' escaped. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void mkdir_or_die(const char *p)
{
	if (mkdir(p, 0777) && errno != EEXIST) {
		fprintf(stderr, "proftool-gen: error: cannot create '%s': %s\n", p, strerror(errno));
		exit(1);
	}
}

void gen_hccl(struct gen *g)
{
	if (!hc.on)
		return;
	int64_t t0 = (int64_t)gen_cyc_to_ns(g, g->start_cycles);
	long long number = hc.number_set ? hc.number : (long long)g->device;
	char *dir = pt_xasprintf("%s/hccl_info_%lld", g->outdir, number);
	mkdir_or_die(dir);
	uint64_t files = 0, events = 0;
	for (size_t oi = 0; oi < hc.ops.n; oi++) {
		const struct hop *o = &hc.ops.v[oi];
		char *od = pt_xasprintf("%s/%s", dir, o->name);
		mkdir_or_die(od);
		for (size_t fi = 0; fi < o->files.n; fi++) {
			const struct hfile *hf = &o->files.v[fi];
			char *path = hf->name ? pt_xasprintf("%s/%s", od, hf->name) : pt_xasprintf("%s/trace_%zu.json", od, fi);
			FILE *f = fopen(path, "w");
			if (!f) {
				fprintf(stderr, "proftool-gen: error: cannot write '%s'\n", path);
				exit(1);
			}
			if (hf->raw) {
				fputs(hf->raw, f);
			} else {
				files++;
				fputs("{\"traceEvents\":[", f);
				for (size_t i = 0; i < hf->ev.n; i++) {
					const struct hev *e = &hf->ev.v[i];
					if (i)
						fputs(",\n", f);
					if (e->raw) {
						fputs(e->raw, f);
						continue;
					}
					events++;
					fputs("{\"name\":", f);
					put_str(f, e->task ? e->task : "");
					fputs(",\"ph\":\"X\",\"pid\":", f);
					fprintf(f, "%lld", number);
					fprintf(f, ",\"tid\":%llu,\"ts\":", e->tid);
					put_us(f, t0 + e->at);
					fputs(",\"dur\":", f);
					put_us(f, e->dur);
					fprintf(f, ",\"args\":{\"src rank\":%llu,\"dst rank\":%llu", e->src, e->dst);
					if (e->transport) {
						fputs(",\"transport type\":", f);
						put_str(f, e->transport);
					}
					if (e->task) {
						fputs(",\"task type\":", f);
						put_str(f, e->task);
					}
					fprintf(f, ",\"size\":\"0x%llx\"}}", e->size);
				}
				fputs("]}\n", f);
			}
			if (fclose(f)) {
				fprintf(stderr, "proftool-gen: error: cannot write '%s'\n", path);
				exit(1);
			}
			free(path);
		}
		free(od);
	}
	gen_expect(g, "hccl.files %" PRIu64, files);
	gen_expect(g, "hccl.events %" PRIu64, events);
	for (size_t i = 0; i < hc.links.n; i++) {
		const struct hlink *l = &hc.links.v[i];
		gen_expect(g, "hccl.link %llu-%llu %s size %llu time_ns %" PRId64, l->src, l->dst, l->type, l->size, l->time);
	}
	free(dir);
}
