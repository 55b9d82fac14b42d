/*
 * The overview's unions of a streamed GPU rank of several dumps that record
 * its pid (CUPTI dumps without a process id: pid 0). Such dumps lie one
 * after the other in the file, each with its own CPU device first, and each
 * starts back at its own time: one queue of the rank in start order (struct
 * asc pq, apq) would hold every event of the earlier dumps until the last
 * dump's tracks are over. Each dump (the devices from a CPU device of the
 * pid up to its next one, as the streamed timeline takes them) has its own
 * queues instead, released by the watermark of its own tracks, whose
 * activities and API calls go into its own runs of each union (struct
 * drun: closed runs held as varints, 2 to 4 bytes a run, while the other
 * dumps may still deliver earlier ones); the rank's unions (struct ovacc u,
 * asc api_u) take the dumps' runs merged by start, as far as every dump's
 * next run can no longer start earlier; dumps whose spans of time do not
 * meet are merged apart and their measures summed. A union of the dumps'
 * unions is the union of their intervals: the figures are the whole load's,
 * ranks by pid.
 * The counts are summed as the activities are released.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

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

/* The dumps' spans: the time each dump's devices span (the first read's, over the events that wait in
 * the queues), the dumps whose spans meet in one. A dump read after another whose events it does not
 * meet in time (a dump of another day) then holds back none of the other's runs. */
static void spans(const struct rank *r, struct dumps *x, const uint32_t *of_dev)
{
	const struct pt_model *m = r->g->m;
	const struct scan *sc = r->g->scan;
	int64_t *lo = pt_xmalloc(2 * x->n * sizeof(*lo)), *hi = lo + x->n;
	for (uint32_t k = 0; k < x->n; k++) {
		lo[k] = INT64_MAX;
		hi[k] = INT64_MIN;
	}
	for (uint32_t d = 0; d < m->devices.n; d++) {
		if (!r->devin[d] || sc->lo[d] > sc->hi[d])
			continue;
		uint32_t k = of_dev[d];
		lo[k] = sc->lo[d] < lo[k] ? sc->lo[d] : lo[k];
		hi[k] = sc->hi[d] > hi[k] ? sc->hi[d] : hi[k];
	}
	/* each dump joins the span of the first dump before it whose time it meets, else one of its own
	 * (spans joined through a later dump merge into the earliest one's) */
	uint32_t *up = pt_xmalloc(x->n * sizeof(*up));
	for (uint32_t k = 0; k < x->n; k++) {
		up[k] = k;
		for (uint32_t j = 0; j < k; j++)
			if (lo[k] <= hi[j] && lo[j] <= hi[k]) {
				uint32_t a = up[j], b = up[k];
				while (up[a] != a)
					a = up[a];
				while (up[b] != b)
					b = up[b];
				up[a > b ? a : b] = a < b ? a : b;
			}
	}
	x->nspan = 0;
	for (uint32_t k = 0; k < x->n; k++) {
		uint32_t a = k;
		while (up[a] != a)
			a = up[a];
		if (a == k)
			x->v[k].span = x->nspan++;
		else
			x->v[k].span = x->v[a].span; /* (a < k: placed) */
	}
	x->T = pt_xcalloc(x->nspan, sizeof(*x->T));
	free(up);
	free(lo);
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
	spans(r, x, of_dev);
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
		for (int c = 0; c < DU_N; c++)
			free(p->u[c].b);
	}
	free(x->v);
	free(x->of_trk);
	free(x->T);
	free(x);
}

struct pendq *sum_dumps_q(struct dumps *x, uint32_t t, bool api)
{
	struct dump *p = &x->v[x->of_trk[t]];
	return api ? &p->apq : &p->pq;
}

/* The open run of u closed: written after the others. */
static void drun_close(struct drun *u)
{
	if (!u->o.open)
		return;
	pt_xgrow((void **)&u->b, &u->cap, u->n + 20, 1);
	/* (differences taken unsigned: two times far apart wrap, and wrap back when read) */
	uint8_t *q = pt_varint_put(u->b + u->n, pt_zigzag((int64_t)((uint64_t)u->o.cs - (uint64_t)u->wend)));
	q = pt_varint_put(q, (uint64_t)u->o.ce - (uint64_t)u->o.cs);
	u->n = (size_t)(q - u->b);
	u->wend = u->o.ce;
	u->runs++;
	u->o.open = false;
}

/* [s, e) into the runs of u, in start order (urun_add's rule: empty intervals add nothing, one that
 * starts at or before the open run's end extends it). */
static void drun_add(struct drun *u, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (u->o.open && s <= u->o.ce) {
		if (e > u->o.ce)
			u->o.ce = e;
		return;
	}
	drun_close(u);
	u->o = (struct urun){ .cs = s, .ce = e, .open = true };
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
		if (!--u->runs && !u->o.open) { /* all read: its room back */
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

/* The runs of union c of the dumps of span sp into T, by start, as far as no dump can still give an
 * earlier one (bound: per dump, the earliest start of a run it may still close). */
static void merge(const struct rank *r, struct dumps *x, uint32_t sp, int c, const int64_t *bound, struct urun *T)
{
	for (;;) {
		uint32_t best = UINT32_MAX;
		int64_t bs = 0, be = 0;
		for (uint32_t k = 0; k < x->n; k++) {
			struct drun *u = &x->v[k].u[c];
			int64_t s, e;
			if (!u->runs || x->v[k].span != sp)
				continue;
			drun_peek(u, &s, &e, false);
			if (best == UINT32_MAX || s < bs) {
				best = k;
				bs = s;
			}
		}
		if (best == UINT32_MAX)
			return;
		for (uint32_t k = 0; k < x->n; k++)
			if (k != best && x->v[k].span == sp && bound[k] < bs)
				return; /* dump k may still close a run that starts earlier */
		drun_peek(&x->v[best].u[c], &bs, &be, true);
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
					drun_add(&p->u[c], y.s, y.e);
		}
		wa[k] = sum_watermark(sc, p->atr, p->natr, all);
		while (sum_pendq_pop(&p->apq, wa[k], &y))
			drun_add(&p->u[DU_API], y.s, y.e);
	}
	int64_t *bound = pt_xmalloc(x->n * sizeof(*bound));
	for (int c = 0; c < DU_N; c++) {
		for (uint32_t k = 0; k < x->n; k++) {
			struct drun *u = &x->v[k].u[c];
			if (all)
				drun_close(u);
			/* a run it closes later starts at its open run's start, or at its watermark or after */
			bound[k] = all ? INT64_MAX : u->o.open ? u->o.cs : c == DU_API ? wa[k] : wd[k];
		}
		for (uint32_t sp = 0; sp < x->nspan; sp++)
			merge(r, x, sp, c, bound, &x->T[sp][c]);
	}
	if (all) /* the rank's unions: the spans' measures summed (the counts are there) */
		for (uint32_t sp = 0; sp < x->nspan; sp++)
			for (int c = 0; c < DU_N; c++) {
				(c == DU_API ? &a->api_u : &a->ov.u[c])->total += sum_urun_end(r, &x->T[sp][c]);
				x->T[sp][c] = (struct urun){ 0 };
			}
	free(bound);
	free(wd);
}
