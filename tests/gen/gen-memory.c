/*
 * proftool-gen back end for MindSpore's memory-usage file (ascend.md §2.12),
 * written from the spec with its own protobuf encoder (nothing from the
 * importer or protoc-c):
 *
 *   mem-file [number N] [total BYTES]         memory_usage_<N>.pb (N: the `device`)
 *   mem-graph ID [static BYTES] [fp NAME] [bp NAME]   start a GraphMemProto
 *   mem-node NAME [id N] [in L] [out L] [ws L] [unpacked]
 *                                             a node (execution order); L = ids a,b,c;
 *                                             `id` defaults to the position;
 *                                             `unpacked` writes ids unpacked
 *   mem-tensor ID SIZE [type T] [start S] [end E] [life L]
 *                                             a tensor (type Common, life LifeLongNone)
 *   mem-raw HEX                               append raw bytes after the message
 *   mem-cut N                                 keep only the first N bytes of the file
 *
 * With --print-expect, per graph: `memory.graph <id> static S peak P
 * peak_node I peak_name NAME allocations A` and `memory.curve <id> U0,U1,...`,
 * computed from the described tensors with §3.13's rules.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/vec.h"
#include "support/xalloc.h"

struct mnode {
	char *name;
	long long id;
	bool id_set, unpacked;
	PT_VEC(unsigned long long) in, out, ws;
};

struct mtensor {
	unsigned long long id, size, start, end;
	char *type, *life;
};

struct mgraph {
	long long id, stat;
	char *fp, *bp;
	PT_VEC(struct mnode) nodes;
	PT_VEC(struct mtensor) tensors;
};

static struct {
	bool file;
	long long number;
	bool number_set;
	unsigned long long total;
	PT_VEC(struct mgraph) graphs;
	PT_VEC(unsigned char) raw;
	long long cut;
} mem = { .cut = -1 };

static char *err_msg;

static int fail(const char *fmt, const char *a)
{
	free(err_msg);
	err_msg = pt_xasprintf(fmt, a);
	return -1;
}

const char *gen_memory_error(void)
{
	return err_msg ? err_msg : "";
}

static bool num(const char *s, long long *v)
{
	char *end;
	*v = strtoll(s, &end, 0);
	return *s && !*end;
}

static bool unum(const char *s, unsigned long long *v)
{
	char *end;
	if (*s == '-')
		return false;
	*v = strtoull(s, &end, 0);
	return *s && !*end;
}

static bool ids(const char *s, void *vec)
{
	PT_VEC(unsigned long long) *v = vec;
	const char *p = s;
	if (!*p)
		return true;
	for (;;) {
		char *end;
		if (*p < '0' || *p > '9')
			return false;
		unsigned long long x = strtoull(p, &end, 10);
		pt_vec_push(v, x);
		if (!*end)
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
}

static struct mgraph *cur(void)
{
	return mem.graphs.n ? &mem.graphs.v[mem.graphs.n - 1] : NULL;
}

/* 1 handled, 0 not a memory directive, -1 error (gen_memory_error()). */
int gen_memory_directive(struct gen *g, char **tok, int n)
{
	(void)g;
	const char *d = tok[0];
	if (strncmp(d, "mem-", 4))
		return 0;
	mem.file = true;
	if (!strcmp(d, "mem-file")) {
		for (int i = 1; i < n; i++) {
			if (i + 1 >= n)
				return fail("mem-file: '%s' needs a value", tok[i]);
			if (!strcmp(tok[i], "number") && num(tok[i + 1], &mem.number))
				mem.number_set = true;
			else if (!strcmp(tok[i], "total") && unum(tok[i + 1], &mem.total))
				;
			else
				return fail("mem-file: bad option '%s'", tok[i]);
			i++;
		}
		return 1;
	}
	if (!strcmp(d, "mem-graph")) {
		struct mgraph gr = { 0 };
		if (n < 2 || !num(tok[1], &gr.id))
			return fail("%s ID [static BYTES] [fp NAME] [bp NAME]", d);
		for (int i = 2; i < n; i++) {
			if (i + 1 >= n)
				return fail("mem-graph: '%s' needs a value", tok[i]);
			const char *k = tok[i], *v = tok[++i];
			if (!strcmp(k, "static") && num(v, &gr.stat))
				;
			else if (!strcmp(k, "fp"))
				gr.fp = pt_xstrdup(v);
			else if (!strcmp(k, "bp"))
				gr.bp = pt_xstrdup(v);
			else
				return fail("mem-graph: bad option '%s'", k);
		}
		pt_vec_push(&mem.graphs, gr);
		return 1;
	}
	if (!strcmp(d, "mem-node")) {
		struct mgraph *gr = cur();
		if (!gr)
			return fail("%s: no mem-graph before it", d);
		if (n < 2)
			return fail("%s NAME [options]", d);
		struct mnode nd = { 0 };
		nd.name = pt_xstrdup(tok[1]);
		for (int i = 2; i < n; i++) {
			const char *k = tok[i];
			if (!strcmp(k, "unpacked")) {
				nd.unpacked = true;
				continue;
			}
			if (i + 1 >= n)
				return fail("mem-node: '%s' needs a value", k);
			const char *v = tok[++i];
			if (!strcmp(k, "id") && num(v, &nd.id))
				nd.id_set = true;
			else if (!strcmp(k, "in") && ids(v, &nd.in))
				;
			else if (!strcmp(k, "out") && ids(v, &nd.out))
				;
			else if (!strcmp(k, "ws") && ids(v, &nd.ws))
				;
			else
				return fail("mem-node: bad option '%s'", k);
		}
		if (!nd.id_set)
			nd.id = (long long)gr->nodes.n;
		pt_vec_push(&gr->nodes, nd);
		return 1;
	}
	if (!strcmp(d, "mem-tensor")) {
		struct mgraph *gr = cur();
		if (!gr)
			return fail("%s: no mem-graph before it", d);
		struct mtensor t = { 0 };
		if (n < 3 || !unum(tok[1], &t.id) || !unum(tok[2], &t.size))
			return fail("%s ID SIZE [type T] [start S] [end E] [life L]", d);
		t.type = pt_xstrdup("Common");
		t.life = pt_xstrdup("LifeLongNone");
		for (int i = 3; i < n; i++) {
			if (i + 1 >= n)
				return fail("mem-tensor: '%s' needs a value", tok[i]);
			const char *k = tok[i], *v = tok[++i];
			if (!strcmp(k, "type")) {
				free(t.type);
				t.type = pt_xstrdup(v);
			} else if (!strcmp(k, "life")) {
				free(t.life);
				t.life = pt_xstrdup(v);
			} else if (!strcmp(k, "start") && unum(v, &t.start)) {
				;
			} else if (!strcmp(k, "end") && unum(v, &t.end)) {
				;
			} else {
				return fail("mem-tensor: bad option '%s'", k);
			}
		}
		pt_vec_push(&gr->tensors, t);
		return 1;
	}
	if (!strcmp(d, "mem-raw")) {
		for (int i = 1; i < n; i++) {
			const char *h = tok[i];
			size_t l = strlen(h);
			if (l % 2)
				return fail("mem-raw: odd hex string '%s'", h);
			for (size_t k = 0; k < l; k += 2) {
				char b[3] = { h[k], h[k + 1], 0 };
				char *end;
				unsigned long v = strtoul(b, &end, 16);
				if (*end)
					return fail("mem-raw: bad hex '%s'", h);
				pt_vec_push(&mem.raw, (unsigned char)v);
			}
		}
		return 1;
	}
	if (!strcmp(d, "mem-cut")) {
		if (n != 2 || !num(tok[1], &mem.cut) || mem.cut < 0)
			return fail("%s N", d);
		return 1;
	}
	return fail("unknown memory directive '%s'", d);
}

/* ---- protobuf encoding ---- */

struct buf {
	unsigned char *v;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	pt_vec_reserve(b, b->n + n);
	memcpy(b->v + b->n, p, n);
	b->n += n;
}

static void varint(struct buf *b, unsigned long long v)
{
	unsigned char t[10];
	size_t k = 0;
	do {
		t[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, t, k);
}

static void key(struct buf *b, unsigned field, unsigned wt)
{
	varint(b, (unsigned long long)field << 3 | wt);
}

static void f_varint(struct buf *b, unsigned field, unsigned long long v)
{
	if (!v)
		return; /* proto3: defaults are not written */
	key(b, field, 0);
	varint(b, v);
}

static void f_bytes(struct buf *b, unsigned field, const void *p, size_t n)
{
	key(b, field, 2);
	varint(b, n);
	put(b, p, n);
}

static void f_str(struct buf *b, unsigned field, const char *s)
{
	if (s && *s)
		f_bytes(b, field, s, strlen(s));
}

static void f_ids(struct buf *b, unsigned field, const unsigned long long *v, size_t n, bool unpacked)
{
	if (!n)
		return;
	if (unpacked) {
		for (size_t i = 0; i < n; i++) {
			key(b, field, 0);
			varint(b, v[i]);
		}
		return;
	}
	struct buf p = { 0 };
	for (size_t i = 0; i < n; i++)
		varint(&p, v[i]);
	f_bytes(b, field, p.v, p.n);
	free(p.v);
}

static int life_kind(const char *s)
{
	if (!strcmp(s, "LifeLongNone"))
		return 0;
	if (!strcmp(s, "LifeLongGraphAll"))
		return 1;
	if (!strcmp(s, "LifeLongGraphStart"))
		return 2;
	if (!strcmp(s, "LifeLongGraphEnd"))
		return 3;
	return -1;
}

static void expect_graph(struct gen *g, const struct mgraph *gr)
{
	size_t nn = gr->nodes.n;
	/* sums in 128 bits (sizes beyond int64 saturated), the curve clamped to int64 */
	__int128 *acc = calloc(nn + 1, sizeof(*acc));
	long long *used = calloc(nn + 1, sizeof(*used));
	for (size_t i = 0; i < gr->tensors.n; i++) {
		const struct mtensor *t = &gr->tensors.v[i];
		int lk = life_kind(t->life);
		if (lk < 0 || !nn)
			continue;
		unsigned long long a = t->start, b = t->end;
		if (lk == 1) {
			a = 0;
			b = nn - 1;
		} else if (lk == 2) {
			a = 0;
		} else if (lk == 3) {
			b = nn - 1;
		}
		if (a > b)
			continue;
		if (b > nn - 1)
			b = nn - 1;
		if (a > b)
			continue;
		for (unsigned long long k = a; k <= b; k++)
			acc[k] += t->size > LLONG_MAX ? LLONG_MAX : (long long)t->size;
	}
	long long peak = gr->stat;
	long long pn = -1;
	for (size_t i = 0; i < nn; i++) {
		__int128 v = acc[i] + gr->stat;
		used[i] = v > LLONG_MAX ? LLONG_MAX : v < LLONG_MIN ? LLONG_MIN : (long long)v;
		if (pn < 0 || used[i] > peak) {
			peak = used[i];
			pn = (long long)i;
		}
	}
	gen_expect(g, "memory.graph %lld static %lld peak %lld peak_node %lld peak_name %s allocations %zu", gr->id,
		   gr->stat, peak, pn, pn >= 0 ? gr->nodes.v[pn].name : "-", gr->tensors.n);
	if (g->expect) {
		fprintf(g->expect, "memory.curve %lld ", gr->id);
		for (size_t i = 0; i < nn; i++)
			fprintf(g->expect, "%s%lld", i ? "," : "", used[i]);
		fputc('\n', g->expect);
	}
	free(acc);
	free(used);
}

void gen_memory(struct gen *g)
{
	if (!mem.file)
		return;
	struct buf top = { 0 };
	for (size_t gi = 0; gi < mem.graphs.n; gi++) {
		const struct mgraph *gr = &mem.graphs.v[gi];
		struct buf gb = { 0 };
		f_varint(&gb, 1, (unsigned long long)gr->id);
		f_varint(&gb, 2, (unsigned long long)gr->stat);
		for (size_t i = 0; i < gr->nodes.n; i++) {
			const struct mnode *nd = &gr->nodes.v[i];
			struct buf nb = { 0 };
			f_str(&nb, 1, nd->name);
			f_varint(&nb, 2, (unsigned long long)nd->id);
			f_ids(&nb, 3, nd->in.v, nd->in.n, nd->unpacked);
			f_ids(&nb, 4, nd->out.v, nd->out.n, nd->unpacked);
			f_ids(&nb, 5, nd->ws.v, nd->ws.n, nd->unpacked);
			f_bytes(&gb, 3, nb.v, nb.n);
			free(nb.v);
		}
		for (size_t i = 0; i < gr->tensors.n; i++) {
			const struct mtensor *t = &gr->tensors.v[i];
			struct buf tb = { 0 };
			f_varint(&tb, 1, t->id);
			f_varint(&tb, 2, t->size);
			f_str(&tb, 3, t->type);
			f_varint(&tb, 4, t->start);
			f_varint(&tb, 5, t->end);
			f_str(&tb, 6, t->life);
			f_bytes(&gb, 4, tb.v, tb.n);
			free(tb.v);
		}
		f_str(&gb, 5, gr->fp);
		f_str(&gb, 6, gr->bp);
		f_bytes(&top, 1, gb.v, gb.n);
		free(gb.v);
		expect_graph(g, gr);
	}
	f_varint(&top, 2, mem.total);
	if (mem.raw.n)
		put(&top, mem.raw.v, mem.raw.n);
	size_t len = top.n;
	if (mem.cut >= 0 && (size_t)mem.cut < len)
		len = (size_t)mem.cut;
	long long number = mem.number_set ? mem.number : (long long)g->device;
	char *path = pt_xasprintf("%s/memory_usage_%lld.pb", g->outdir, number);
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(top.v, 1, len, f) != len) || fclose(f)) {
		fprintf(stderr, "proftool-gen: error: cannot write '%s'\n", path);
		exit(1);
	}
	gen_expect(g, "memory.bytes %zu", len);
	free(path);
	free(top.v);
}
