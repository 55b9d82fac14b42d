/*
 * The per-event sums of Ascend ranks and of streamed GPU ranks (struct asc),
 * over the whole model or batch by batch when streaming: the overview's and
 * the device view's unions (in start order: activities wait in a pending
 * queue until no later one can start earlier), the distributed view's sets,
 * and the items of the views that sum events.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

/* Is t inside a window? Monotonic cursor over the sorted windows. */
bool sum_in_win_seq(const struct rank *r, size_t *k, int64_t t)
{
	while (*k < r->nw && r->w[*k].e <= t)
		(*k)++;
	return *k < r->nw && r->w[*k].s <= t;
}

/* Is kernel event i communication (§2.5)? */
static bool kcomm(const struct rank *r, size_t i)
{
	if (!r->ascend && r->g->cls)
		return r->g->cls[i] == 2;
	if (!r->ascend && !r->g->x) /* a streamed GPU rank: by its name, or its launching call's range */
		return sum_kname_comm(r->g, r->g->m->events.name[i]) || (r->g->hat && (r->g->hat[i] & HS_COMM));
	if (r->g->x)
		return pt_index_is_comm(r->g->x, i);
	/* streaming (Ascend models only): the index's rule for tasks, ascend.md §3.8 */
	const struct pt_events *ev = &r->g->m->events;
	return ev->kind[i] == PT_EV_TASK &&
	       pt_index_task_class(r->g->opcomm, ev->op[i], r->g->scan->named[ev->track[i]]) == 2;
}

/* Overview flags of device activity i: class (0 kernel, 1 memcpy, 2 memset), communication, member. */
unsigned sum_ov_flags(const struct rank *r, size_t i)
{
	uint8_t k = r->g->m->events.kind[i];
	unsigned f = is_kernel(k) ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
	if (is_kernel(k) && kcomm(r, i))
		f |= OV_COMM;
	if (member(r, i))
		f |= OV_MEM;
	if (r->g->hat && (r->g->hat[i] & HS_ATT))
		f |= OV_ATTR;
	return f;
}

/* One device activity [s, e) of the overview, in start order; unattr < 0: Ascend, by the windows. */
unsigned sum_ov_count(struct ovacc *a, unsigned f, bool unattr)
{
	bool mem = f & OV_MEM;
	int c = (int)(f & OV_CLASS);
	unsigned u = 1u << c;
	a->u[c].calls += mem;
	a->kernels += c == 0;
	if (f & OV_COMM) {
		u |= 1u << 3;
		a->u[3].calls += mem;
	}
	if (unattr) {
		u |= 1u << 4;
		a->u[4].calls += mem;
	}
	return u;
}

void sum_ov_add(struct ovacc *a, int64_t s, int64_t e, unsigned f, int unattr)
{
	struct rank *r = a->r;
	if (unattr < 0)
		unattr = !sum_in_win_seq(r, &a->wk, s);
	unsigned u = sum_ov_count(a, f, unattr);
	for (int c = 0; c < 5; c++)
		if (u & (1u << c))
			urun_add(r, &a->u[c], s, e);
}

void sum_ov_visit(void *arg, size_t i)
{
	struct ovacc *a = arg;
	struct rank *r = a->r;
	const struct pt_events *ev = &r->g->m->events;
	if (!is_dev_activity(ev->kind[i]))
		return;
	int64_t s = ev->start[i];
	sum_ov_add(a, s, s + ev->dur[i], sum_ov_flags(r, i), r->ascend ? -1 : !hr_of_act(r, i));
}

void sum_pendq_free(struct pendq *p)
{
	pt_vec_free(&p->q);
	pt_vec_free(&p->heap);
}

/* The streamed distributed sets of device d of rank r: an Ascend rank's (one device), or the GPU's. */
const struct dacc *sum_rank_dacc(const struct rank *r, uint32_t d)
{
	return r->ascend ? &r->asc->dist : &r->asc->gd[d].dist;
}

struct asc *sum_asc_new(struct rank *r)
{
	const struct pt_model *m = r->g->m;
	struct asc *a = pt_xcalloc(1, sizeof(*a));
	sum_items_init(&a->op);
	sum_items_init(&a->kn);
	sum_items_init(&a->ty);
	sum_items_init(&a->api);
	pt_hashmap_init(&a->ty_seen);
	a->gpu = pt_xcalloc(1, sizeof(*a->gpu));
	sum_items_init(&a->gpu->it);
	a->mc = pt_xcalloc(1, sizeof(*a->mc));
	sum_mcacc_init(a->mc);
	a->op_raw = pt_xcalloc(m->strings.n + 1, sizeof(*a->op_raw));
	a->kn_raw = pt_xcalloc(m->strings.n + 1, sizeof(*a->kn_raw));
	a->trk = pt_xcalloc(m->tracks.n + 1, 1);
	for (size_t k = 0; k < r->ntracks; k++)
		a->trk[r->tracks[k]] = 1;
	a->ov.r = r;
	if (!r->ascend) {
		a->gd = pt_xcalloc(m->devices.n + 1, sizeof(*a->gd));
		for (size_t k = 0; k < r->ntracks; k++) {
			struct gdev *d = &a->gd[m->tracks.v[r->tracks[k]].device];
			if (!d->tracks)
				d->tracks = pt_xmalloc(r->ntracks * sizeof(*d->tracks));
			d->tracks[d->ntracks++] = r->tracks[k];
		}
		/* the step trace's communication intervals of a device join its M as the index's do
		 * (pt_index_comm_spans), not its kernels' union: into the heap, as sum_dist_begin() */
		for (uint32_t d = 0; d < m->devices.n; d++) {
			if (!a->gd[d].ntracks)
				continue;
			struct pt_ival *k = NULL;
			size_t nk = pt_index_comm_spans(m, d, &k);
			for (size_t j = 0; j < nk; j++)
				sum_heap_push(&a->gd[d].pq, (struct ov_ent){ k[j].s, k[j].e, GD_SPAN });
			free(k);
		}
		a->dm = sum_dumps_new(r);
	}
	return a;
}

void sum_asc_free(struct asc *a, size_t ndev)
{
	if (!a)
		return;
	for (size_t d = 0; a->gd && d < ndev; d++) {
		free(a->gd[d].tracks);
		sum_pendq_free(&a->gd[d].pq);
		sum_pendq_free(&a->gd[d].dist.pq);
	}
	free(a->gd);
	sum_items_free(&a->op);
	sum_items_free(&a->kn);
	sum_items_free(&a->ty);
	sum_items_free(&a->api);
	pt_hashmap_free(&a->ty_seen);
	sum_gacc_free(a->gpu);
	free(a->gpu);
	sum_mcacc_free(a->mc);
	free(a->mc);
	free(a->op_raw);
	free(a->kn_raw);
	free(a->trk);
	sum_pendq_free(&a->pq);
	sum_pendq_free(&a->dist.pq);
	sum_pendq_free(&a->apq);
	sum_dumps_free(a->dm);
	free(a);
}

/*
 * A new pending activity: appended to the sorted queue when it starts no
 * earlier than the queue's last (most arrive so: a stream's tasks are in
 * start order and streams interleave in time), inserted when a few places
 * back, and otherwise kept in the heap.
 */
void sum_heap_push(struct pendq *p, struct ov_ent x)
{
	pt_vec_reserve(&p->heap, p->heap.n + 1);
	struct ov_ent *h = p->heap.v;
	size_t k = p->heap.n++;
	while (k && h[(k - 1) / 2].s > x.s) {
		h[k] = h[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	h[k] = x;
}

static struct ov_ent heap_pop(struct pendq *p)
{
	struct ov_ent *h = p->heap.v, top = h[0], x = h[--p->heap.n];
	size_t n = p->heap.n, k = 0;
	for (;;) {
		size_t c = 2 * k + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].s < h[c].s)
			c++;
		if (h[c].s >= x.s)
			break;
		h[k] = h[c];
		k = c;
	}
	if (n)
		h[k] = x;
	return top;
}

void sum_pendq_insert(struct pendq *p, struct ov_ent x)
{
	enum { BACK = 16 };
	size_t n = p->q.n;
	struct ov_ent *q = p->q.v;
	size_t k = n;
	while (k > p->ph && n - k < BACK && q[k - 1].s > x.s)
		k--;
	if (k > p->ph && q[k - 1].s > x.s) {
		sum_heap_push(p, x);
		return;
	}
	pt_vec_reserve(&p->q, n + 1);
	q = p->q.v;
	memmove(q + k + 1, q + k, (n - k) * sizeof(*q));
	q[k] = x;
	p->q.n++;
}

/* The earliest pending activity if it starts at or before wm: true and *x. */
static inline bool pendq_pop(struct pendq *p, int64_t wm, struct ov_ent *x)
{
	struct ov_ent *q = p->q.v;
	bool fromq = p->ph < p->q.n && (!p->heap.n || q[p->ph].s <= p->heap.v[0].s);
	if (fromq && q[p->ph].s <= wm) {
		*x = q[p->ph++];
		return true;
	}
	if (!fromq && p->heap.n && p->heap.v[0].s <= wm) {
		*x = heap_pop(p);
		return true;
	}
	/* keep the queue's live part at the front once it is mostly consumed */
	if (p->ph == p->q.n) {
		p->ph = p->q.n = 0;
	} else if (p->ph > p->q.n / 2) {
		memmove(q, q + p->ph, (p->q.n - p->ph) * sizeof(*q));
		p->q.n -= p->ph;
		p->ph = 0;
	}
	return false;
}

bool sum_pendq_pop(struct pendq *p, int64_t wm, struct ov_ent *x)
{
	return pendq_pop(p, wm, x);
}

/* One activity of class 1 (computation) or 2 (communication) of the distributed view's sets, in start order. */
void sum_dist_add(const struct rank *r, struct dacc *d, const struct ov_ent *x)
{
	if (x->f == 1) {
		urun_add(r, &d->c, x->s, x->e);
		d->any_c |= x->e > x->s;
	} else {
		urun_add(r, &d->m, x->s, x->e);
		d->any_m |= x->e > x->s;
	}
	urun_add(r, &d->cm, x->s, x->e);
}

/* The class of an event in the distributed view's sets (the index's rule for NPU models): 0 none. */
unsigned sum_dist_class(const struct rank *r, uint8_t kind, uint32_t op, uint32_t track)
{
	if (kind == PT_EV_AICPU)
		return 1;
	if (kind == PT_EV_TASK)
		return pt_index_task_class(r->g->opcomm, op, r->g->scan->named[track]);
	return 0;
}

void sum_dist_begin(struct rank *r, const struct deferred *dv, size_t nd)
{
	struct dacc *d = &r->asc->dist;
	const struct pt_model *m = r->g->m;
	struct pt_ival *k = NULL;
	size_t nk = pt_index_comm_spans(m, r->dev, &k);
	/* into the heap: in the queue, the latest of them would send every task after it to the heap */
	for (size_t j = 0; j < nk; j++)
		sum_heap_push(&d->pq, (struct ov_ent){ k[j].s, k[j].e, 2 });
	free(k);
	for (size_t j = 0; j < nd; j++) {
		unsigned c = m->tracks.v[dv[j].track].device == r->dev ? sum_dist_class(r, dv[j].kind, dv[j].op, dv[j].track) : 0;
		if (c)
			sum_heap_push(&d->pq, (struct ov_ent){ dv[j].s, dv[j].e, c });
	}
}

/* The earliest start that tracks tr[0..n) can still deliver (INT64_MAX: none, or all): a track
 * seen, the latest start so far less its lag (in start order: its last start); otherwise, or when
 * its lag is unknown, its earliest start, until it is done. */
int64_t sum_watermark(const struct scan *sc, const uint32_t *tr, size_t n, bool all)
{
	int64_t wm = INT64_MAX;
	for (size_t k = 0; k < n && !all; k++) {
		uint32_t t = tr[k];
		if (!sc->left[t])
			continue;
		int64_t c = sc->min[t];
		if (sc->prof && sc->prof[t].count >= sc->left[t]) /* where in the track the read is */
			c = pt_lagprof_floor(&sc->prof[t], sc->prof[t].count - sc->left[t], sc->last[t]);
		/* last - lag, never below min (a lag can reach 2^63: computed unsigned) */
		else if (sc->seen[t] && sc->lag[t] != SCAN_LAG_UNKNOWN && sc->lag[t] < (uint64_t)sc->last[t] - (uint64_t)c)
			c = (int64_t)((uint64_t)sc->last[t] - sc->lag[t]);
		if (c < wm)
			wm = c;
	}
	return wm;
}

/*
 * Feed the overview and the distributed sets the pending activities that no
 * later one can precede: those starting at or before the watermark of the
 * tracks that deliver them (the rank's stream tracks; a streamed GPU rank's
 * API calls: all its tracks; its device's kernels: that device's streams).
 * all: every pending one (the events are over).
 */
void sum_asc_release(struct rank *r, bool all)
{
	const struct scan *sc = r->g->scan;
	struct asc *a = r->asc;
	int64_t wm = sum_watermark(sc, r->tracks, r->ntracks, all);
	struct ov_ent x;
	if (a->dm) /* its dumps' unions, merged */
		sum_dumps_release(r, all);
	/* a streamed GPU rank without host ranges: all its device activity is unattributed */
	while (pendq_pop(&a->pq, wm, &x))
		sum_ov_add(&a->ov, x.s, x.e, x.f, r->ascend ? -1 : !(x.f & OV_ATTR));
	while (pendq_pop(&a->dist.pq, wm, &x))
		sum_dist_add(r, &a->dist, &x);
	if (r->ascend)
		return;
	wm = sum_watermark(sc, r->atracks, r->natracks, all);
	while (pendq_pop(&a->apq, wm, &x))
		urun_add(r, &a->api_u, x.s, x.e);
	for (size_t d = 0; d < r->g->m->devices.n; d++) {
		struct gdev *gd = &a->gd[d];
		if (!gd->ntracks)
			continue;
		wm = sum_watermark(sc, gd->tracks, gd->ntracks, all);
		while (pendq_pop(&gd->pq, wm, &x)) {
			if (x.f == GD_SPAN)
				x.f = 2; /* communication, not a kernel */
			else
				urun_add(r, &gd->u, x.s, x.e);
			sum_dist_add(r, &gd->dist, &x);
		}
	}
}

/*
 * The unions that several views read, from a batch of a streamed rank's
 * events (view.h: SV_UNION, SV_KERNELS): device activities of its stream
 * tracks pending in start order for the overview's unions (and an Ascend
 * rank's device view); per GPU of a streamed GPU rank, its kernels pending
 * for the device view's union and the distributed view's sets.
 */
void sum_shared_add(struct rank *r, const struct sum_batch *b, unsigned need)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct asc *a = r->asc;
	if (g->x)
		return; /* in memory: the index merges the tracks */
	for (size_t k = 0; k < b->n[SB_DEV]; k++) {
		uint32_t i = b->v[SB_DEV][k];
		uint8_t kd = ev->kind[i];
		if (!a->trk[ev->track[i]])
			continue;
		int64_t s = ev->start[i], e = s + ev->dur[i];
		if ((need & SV_UNION) || ((need & SV_UNION_NPU) && r->ascend))
			pendq_add(a->dm ? sum_dumps_q(a->dm, ev->track[i], false) : &a->pq,
				  (struct ov_ent){ s, e, sum_ov_flags(r, i) });
		if ((need & SV_KERNELS) && !r->ascend && is_kernel(kd)) {
			struct gdev *gd = &a->gd[track_dev(g->m, i)];
			gd->kernels++;
			pendq_add(&gd->pq, (struct ov_ent){ s, e, kcomm(r, i) ? 2u : 1u });
		}
	}
}
