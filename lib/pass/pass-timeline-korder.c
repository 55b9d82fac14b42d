/*
 * The streamed kineto profile's range infos and launch links where the file
 * does not hold them in event order (pass-timeline-korder.h).
 */
#include "pass/pass-timeline-korder.h"

#include <stdlib.h>

#include "support/sort.h"
#include "support/xalloc.h"

static void kro_push(struct tl_kro *o, uint32_t ev, uint8_t kx, uint64_t id)
{
	pt_xgrow((void **)&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	o->v[o->n++] = (struct tl_kro_row){ ev, kx, id };
}

void tl_kro_take(struct tl_kro *o, struct tl_krange *k, struct pt_model *m)
{
	if (!o->on) {
		bool any = k->any;
		uint32_t last = k->last_ev;
		size_t i = 0;
		for (; i < m->ranges.n; i++) {
			if (any && m->ranges.v[i].event <= last)
				break;
			any = true;
			last = m->ranges.v[i].event;
		}
		if (i == m->ranges.n) {
			tl_krange_take(k, m); /* (in order: true) */
			return;
		}
		o->on = true; /* the rows packed so far, back into rows */
		tl_krange_rewind(k);
		uint32_t ev;
		uint64_t id;
		for (uint8_t kx; (kx = tl_krange_next(k, &ev, &id));)
			kro_push(o, ev, kx, id);
		tl_kpack_free(&k->p);
		*k = (struct tl_krange){ 0 };
	}
	uint32_t nu[4];
	tl_krange_types(m, nu);
	for (size_t i = 0; i < m->ranges.n; i++)
		kro_push(o, m->ranges.v[i].event, tl_krange_kx(nu, m->ranges.v[i].type), m->ranges.v[i].id);
	m->ranges.n = 0;
}

/* The rows (all, or only those found) as keys event << 32 | row, sorted; their count in *n. */
static uint64_t *kro_keys(const struct tl_kro *o, bool all, size_t *n)
{
	uint64_t *x = pt_xmalloc((o->n ? o->n : 1) * sizeof(*x));
	size_t k = 0;
	for (size_t j = 0; j < o->n; j++)
		if (all || (o->found[j >> 3] >> (j & 7) & 1))
			x[k++] = (uint64_t)o->v[j].ev << 32 | j;
	pt_sort(x, k, sizeof(*x), pt_u64_cmp);
	*n = k;
	return x;
}

void tl_kro_seal(struct tl_kro *o, struct tl_krange *k)
{
	if (!o->on)
		return;
	o->found = pt_xcalloc(o->n / 8 + 1, 1);
	for (size_t j = 0; j < o->n; j++) { /* (the whole load's search, pt_model_range_info's, over the rows) */
		const struct tl_kro_row *r = pt_model_row_of_event(o->v, o->n, sizeof(*o->v), o->v[j].ev);
		size_t lo = r ? (size_t)(r - o->v) : 0;
		if (r)
			o->found[lo >> 3] |= (uint8_t)(1u << (lo & 7));
	}
	size_t n;
	uint64_t *x = kro_keys(o, false, &n); /* (one row an event: the search finds one row for each) */
	for (size_t i = 0; i < n; i++) {
		const struct tl_kro_row *r = &o->v[(uint32_t)x[i]];
		tl_krange_put(k, r->ev, r->kx, r->id);
	}
	free(x);
}

int tl_kro_nest(struct tl_kro *o, struct tl_krange *kn)
{
	if (!o->on)
		return 0;
	size_t n;
	uint64_t *x = kro_keys(o, true, &n);
	int rc = 0;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		uint32_t j = (uint32_t)x[i];
		bool f = o->found[j >> 3] >> (j & 7) & 1;
		if (i && x[i] >> 32 == x[i - 1] >> 32)
			rc = -1;
		else if (!f)
			rc = 1;
	}
	if (rc > 0)
		for (size_t i = 0; i < n; i++) {
			uint32_t j = (uint32_t)x[i];
			const struct tl_kro_row *r = &o->v[j];
			tl_krange_put(kn, r->ev, r->kx, o->found[j >> 3] >> (j & 7) & 1 ? r->id : 0);
		}
	free(x);
	tl_kro_free(o);
	return rc;
}

void tl_kro_free(struct tl_kro *o)
{
	free(o->v);
	free(o->found);
	*o = (struct tl_kro){ 0 };
}

/* ------------------------------------------------------------------ links */

static void kls_push(struct tl_kls *o, uint32_t ev, uint32_t range)
{
	pt_xgrow((void **)&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	o->v[o->n++] = (uint64_t)ev << 32 | range;
}

void tl_kls_take(struct tl_kls *o, struct tl_klink *lk, const struct pt_model *m)
{
	if (!o->on) {
		bool any = lk->any;
		uint32_t last = lk->last_ev;
		size_t i = 0;
		for (; i < m->links.n; i++) {
			const struct pt_gpu_link *l = &m->links.v[i];
			if (!l->range)
				continue;
			if (any && l->event <= last)
				break;
			any = true;
			last = l->event;
		}
		if (i == m->links.n) {
			tl_klink_take(lk, m); /* (in order: true) */
			return;
		}
		o->on = true; /* the links packed so far, back into keys */
		tl_klink_rewind(lk);
		for (uint32_t r; (r = tl_klink_next(lk));)
			kls_push(o, lk->p.rev, r);
		tl_kpack_free(&lk->p);
		*lk = (struct tl_klink){ 0 };
	}
	for (size_t i = 0; i < m->links.n; i++)
		if (m->links.v[i].range)
			kls_push(o, m->links.v[i].event, m->links.v[i].range);
}

void tl_kls_seal(struct tl_kls *o, struct tl_klink *lk)
{
	if (!o->on)
		return;
	pt_sort(o->v, o->n, sizeof(*o->v), pt_u64_cmp);
	for (size_t i = 0; i < o->n; i++)
		if (!i || o->v[i] != o->v[i - 1]) /* (a link repeated adds nothing: a span's bounds) */
			tl_klink_put(lk, (uint32_t)(o->v[i] >> 32), (uint32_t)o->v[i]);
	tl_kls_free(o);
}

void tl_kls_free(struct tl_kls *o)
{
	free(o->v);
	*o = (struct tl_kls){ 0 };
}
