/*
 * The overview's unions of a streamed GPU rank of several dumps that record
 * its pid (CUPTI dumps without a process id: pid 0). Such dumps lie one
 * after the other in the file, each with its own CPU device first, and each
 * starts back at its own time: one queue of the rank in start order (struct
 * asc pq, apq) would hold every event of the earlier dumps until the last
 * dump's tracks are over. Each dump (the devices imported with one CPU
 * device: those after it up to the next CPU device) has its own queues
 * instead, released by the watermark of its own tracks (its API calls by its
 * tracks that hold API calls), whose activities and API calls go into its own
 * runs of each union (struct drun: closed runs held as varints, about 4 bytes
 * a run, while the other dumps may still deliver earlier ones). The rank's
 * unions take the dumps' runs merged by start, as far as no dump can still
 * deliver an earlier run: the time is cut where the dumps' first and last
 * times divide it, a run where it crosses a cut, and each stretch merges the
 * runs of the dumps whose spans meet it alone into unions of its own (struct
 * dumps T), whose measures are summed at the end; so a dump whose time meets
 * another's only for a moment holds back only that moment's runs. A union of
 * the dumps' unions is the union of their intervals and a measure is the sum
 * of its stretches': the figures are the whole load's, ranks by pid. The
 * counts are summed as the activities are released.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

/* The dump device d was imported with: the CPU device at or before it, + 1 (0: none). The devices of
 * a dump follow its CPU device in the file, its events follow the dump's before it; a device of the
 * rank's pid after another pid's CPU device (a GPU that records no process, of the other's dump) is
 * one of its own. */
static uint32_t host_of(const struct pt_model *m, uint32_t d)
{
	for (uint32_t k = d + 1; k-- > 0;)
		if (m->devices.v[k].kind == PT_DEV_CPU)
			return k + 1;
	return 0;
}

static int cmp_i64p(const void *a, const void *b)
{
	return cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

/* The dumps' spans of time and the stretches between their ends. */
static void stretches(const struct rank *r, struct dumps *x, const uint32_t *of_dev)
{
	const struct pt_model *m = r->g->m;
	const struct scan *sc = r->g->scan;
	for (uint32_t k = 0; k < x->n; k++) {
		x->v[k].lo = INT64_MAX;
		x->v[k].hi = INT64_MIN;
	}
	for (uint32_t d = 0; d < m->devices.n; d++) {
		if (!r->devin[d] || sc->lo[d] > sc->hi[d])
			continue;
		struct dump *p = &x->v[of_dev[d]];
		p->lo = sc->lo[d] < p->lo ? sc->lo[d] : p->lo;
		p->hi = sc->hi[d] > p->hi ? sc->hi[d] : p->hi;
	}
	x->cut = pt_xmalloc((2 * x->n + 2) * sizeof(*x->cut));
	size_t n = 0;
	for (uint32_t k = 0; k < x->n; k++)
		if (x->v[k].lo <= x->v[k].hi) {
			x->cut[n++] = x->v[k].lo;
			x->cut[n++] = x->v[k].hi;
		}
	pt_sort(x->cut, n, sizeof(*x->cut), cmp_i64p);
	size_t u = 0;
	for (size_t k = 0; k < n; k++)
		if (!u || x->cut[k] != x->cut[u - 1])
			x->cut[u++] = x->cut[k];
	x->nseg = u > 1 ? (uint32_t)(u - 1) : 1;
	x->T = pt_xcalloc(x->nseg, sizeof(*x->T));
	for (uint32_t k = 0; k < x->n; k++)
		x->v[k].u = pt_xcalloc((size_t)x->nseg * DU_N, sizeof(*x->v[k].u));
}

/* Where stretch g starts and ends (the first and the last unbounded). */
static int64_t seg_lo(const struct dumps *x, uint32_t g)
{
	return g ? x->cut[g] : INT64_MIN;
}

static int64_t seg_hi(const struct dumps *x, uint32_t g)
{
	return g + 1 < x->nseg ? x->cut[g + 1] : INT64_MAX;
}

/* Can dump k still give a run that starts in stretch g: does its span meet it? */
static bool meets(const struct dumps *x, uint32_t k, uint32_t g)
{
	const struct dump *p = &x->v[k];
	return p->lo <= p->hi && p->lo < seg_hi(x, g) && p->hi > seg_lo(x, g);
}

struct dumps *sum_dumps_new(const struct rank *r)
{
	const struct pt_model *m = r->g->m;
	/* per device of the rank: its dump, numbered by its CPU device's place */
	uint32_t n = 0, last = UINT32_MAX;
	uint32_t *of_dev = pt_xmalloc((m->devices.n + 1) * sizeof(*of_dev));
	for (uint32_t d = 0; d < m->devices.n; d++) {
		if (!r->devin[d])
			continue;
		uint32_t h = host_of(m, d);
		if (h != last)
			n++;
		last = h;
		of_dev[d] = n - 1;
	}
	if (n < 2) {
		free(of_dev);
		return NULL;
	}
	struct dumps *x = pt_xcalloc(1, sizeof(*x));
	x->n = n;
	x->v = pt_xcalloc(n, sizeof(*x->v));
	x->of_trk = pt_xcalloc(m->tracks.n + 1, sizeof(*x->of_trk));
	for (size_t k = 0; k < r->natracks; k++) {
		uint32_t t = r->atracks[k];
		x->of_trk[t] = of_dev[m->tracks.v[t].device];
	}
	for (uint32_t k = 0; k < n; k++) {
		x->v[k].tr = pt_xmalloc((r->ntracks + 1) * sizeof(*x->v[k].tr));
		x->v[k].atr = pt_xmalloc((r->natracks + 1) * sizeof(*x->v[k].atr));
	}
	for (size_t k = 0; k < r->ntracks; k++) {
		struct dump *p = &x->v[x->of_trk[r->tracks[k]]];
		p->tr[p->ntr++] = r->tracks[k];
	}
	/* its API calls wait for its tracks that hold some, not for its GPUs' streams (a dump may hold its
	 * activities after its calls) */
	for (size_t k = 0; k < r->natracks; k++) {
		struct dump *p = &x->v[x->of_trk[r->atracks[k]]];
		if (r->g->scan->api[r->atracks[k]])
			p->atr[p->natr++] = r->atracks[k];
	}
	stretches(r, x, of_dev);
	free(of_dev);
	return x;
}

void sum_dumps_free(struct dumps *x)
{
	if (!x)
		return;
	for (uint32_t k = 0; k < x->n; k++) {
		struct dump *p = &x->v[k];
		free(p->tr);
		free(p->atr);
		sum_pendq_free(&p->pq);
		sum_pendq_free(&p->apq);
		for (size_t c = 0; p->u && c < (size_t)x->nseg * DU_N; c++)
			free(p->u[c].b);
		free(p->u);
	}
	free(x->v);
	free(x->of_trk);
	free(x->cut);
	free(x->T);
	free(x);
}

struct pendq *sum_dumps_q(struct dumps *x, uint32_t t, bool api)
{
	struct dump *p = &x->v[x->of_trk[t]];
	return api ? &p->apq : &p->pq;
}

/* Run [s, e) after the others of u. */
static void drun_put(struct drun *u, int64_t s, int64_t e)
{
	pt_xgrow((void **)&u->b, &u->cap, u->n + 20, 1);
	/* (differences taken unsigned: two times far apart wrap, and wrap back when read) */
	uint8_t *q = pt_varint_put(u->b + u->n, pt_zigzag((int64_t)((uint64_t)s - (uint64_t)u->wend)));
	q = pt_varint_put(q, (uint64_t)e - (uint64_t)s);
	u->n = (size_t)(q - u->b);
	u->wend = e;
	u->runs++;
}

/* The open run of union c of dump p closed: written, cut where it crosses a stretch's end. */
static void dump_close(const struct dumps *x, struct dump *p, int c)
{
	struct urun *o = &p->o[c];
	if (!o->open)
		return;
	int64_t s = o->cs;
	uint32_t g = p->g[c];
	while (g + 1 < x->nseg && s >= seg_hi(x, g))
		g++;
	for (;;) {
		int64_t e = o->ce < seg_hi(x, g) ? o->ce : seg_hi(x, g);
		drun_put(&p->u[(size_t)g * DU_N + c], s, e);
		if (e == o->ce)
			break;
		s = e;
		g++;
	}
	p->g[c] = g;
	o->open = false;
}

/* [s, e) into the runs of union c of dump p, in start order (urun_add's rule: empty intervals add
 * nothing, one that starts at or before the open run's end extends it). */
static void dump_add(const struct dumps *x, struct dump *p, int c, int64_t s, int64_t e)
{
	struct urun *o = &p->o[c];
	if (e <= s)
		return;
	if (o->open && s <= o->ce) {
		if (e > o->ce)
			o->ce = e;
		return;
	}
	dump_close(x, p, c);
	*o = (struct urun){ .cs = s, .ce = e, .open = true };
}

/* The next closed run of u (u->runs > 0): its start and end; take: past it. */
static void drun_peek(struct drun *u, int64_t *s, int64_t *e, bool take)
{
	const uint8_t *q = u->b + u->off;
	*s = (int64_t)((uint64_t)u->rend + (uint64_t)pt_unzigzag(pt_varint_take(&q)));
	*e = (int64_t)((uint64_t)*s + pt_varint_take(&q));
	if (take) {
		u->off = (size_t)(q - u->b);
		u->rend = *e;
		if (!--u->runs) { /* all read: its room back */
			free(u->b);
			u->b = NULL;
			u->n = u->cap = u->off = 0;
		} else if (u->off >= 65536 && u->off >= u->n / 2) {
			memmove(u->b, u->b + u->off, u->n - u->off);
			u->n -= u->off;
			u->off = 0;
			u->b = pt_xrealloc(u->b, u->n + 20);
			u->cap = u->n + 20;
		}
	}
}

/* The runs of union c of stretch g of every dump into T, by start, as far as no dump can still give
 * an earlier one (bound: per dump, the earliest start of a run it may still close). */
static void merge(const struct rank *r, struct dumps *x, uint32_t g, int c, const int64_t *bound, struct urun *T)
{
	for (;;) {
		uint32_t best = UINT32_MAX;
		int64_t bs = 0, be = 0;
		for (uint32_t k = 0; k < x->n; k++) {
			struct drun *u = &x->v[k].u[(size_t)g * DU_N + c];
			int64_t s, e;
			if (!u->runs)
				continue;
			drun_peek(u, &s, &e, false);
			if (best == UINT32_MAX || s < bs) {
				best = k;
				bs = s;
			}
		}
		if (best == UINT32_MAX)
			return;
		/* a dump whose span does not meet the stretch gives nothing to it; one that does, nothing
		 * before the stretch's start */
		for (uint32_t k = 0; k < x->n; k++)
			if (k != best && meets(x, k, g) && bound[k] < bs && seg_lo(x, g) < bs)
				return;
		drun_peek(&x->v[best].u[(size_t)g * DU_N + c], &bs, &be, true);
		urun_add(r, T, bs, be);
	}
}

void sum_dumps_release(struct rank *r, bool all)
{
	const struct scan *sc = r->g->scan;
	struct asc *a = r->asc;
	struct dumps *x = a->dm;
	int64_t *wd = pt_xmalloc(2 * x->n * sizeof(*wd)), *wa = wd + x->n;
	for (uint32_t k = 0; k < x->n; k++) {
		struct dump *p = &x->v[k];
		struct ov_ent y;
		wd[k] = sum_watermark(sc, p->tr, p->ntr, all);
		while (sum_pendq_pop(&p->pq, wd[k], &y)) {
			/* a streamed GPU rank: unattributed without a launching call in a host range */
			unsigned in = sum_ov_count(&a->ov, y.f, !(y.f & OV_ATTR));
			for (int c = 0; c < 5; c++)
				if (in & (1u << c))
					dump_add(x, p, c, y.s, y.e);
		}
		wa[k] = sum_watermark(sc, p->atr, p->natr, all);
		while (sum_pendq_pop(&p->apq, wa[k], &y))
			dump_add(x, p, DU_API, y.s, y.e);
	}
	int64_t *bound = pt_xmalloc(x->n * sizeof(*bound));
	for (int c = 0; c < DU_N; c++) {
		for (uint32_t k = 0; k < x->n; k++) {
			struct dump *p = &x->v[k];
			if (all)
				dump_close(x, p, c);
			/* a run it closes later starts at its open run's start, or at its watermark or after */
			bound[k] = all ? INT64_MAX : p->o[c].open ? p->o[c].cs : c == DU_API ? wa[k] : wd[k];
		}
		for (uint32_t g = 0; g < x->nseg; g++)
			merge(r, x, g, c, bound, &x->T[g][c]);
	}
	if (all) /* the rank's unions: the stretches' measures summed (the counts are there) */
		for (uint32_t g = 0; g < x->nseg; g++)
			for (int c = 0; c < DU_N; c++) {
				(c == DU_API ? &a->api_u : &a->ov.u[c])->total += sum_urun_end(r, &x->T[g][c]);
				x->T[g][c] = (struct urun){ 0 };
			}
	free(bound);
	free(wd);
}
