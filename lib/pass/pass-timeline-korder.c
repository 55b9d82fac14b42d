/*
 * The streamed kineto profile's range infos and launch links where the file
 * does not hold them in event order (pass-timeline-korder.h).
 */
#include "pass/pass-timeline-korder.h"

#include <stdlib.h>

#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

static void kro_push(struct tl_kro *o, uint32_t ev, uint8_t kx, uint64_t id)
{
	pt_xgrow((void **)&o->ev, &o->cap, o->n + 1, sizeof(*o->ev));
	o->ev[o->n++] = ev;
	pt_xgrow((void **)&o->p.b, &o->p.cap, o->p.n + 11, 1);
	uint8_t *q = o->p.b + o->p.n;
	*q++ = kx;
	q = pt_varint_put(q, pt_zigzag((int64_t)(id - o->last_id)));
	o->p.n = (size_t)(q - o->p.b);
	o->last_id = id;
}

/* The next info's bits and id in file order (from the pack's cursor, o->p.at and o->last_id). */
static uint8_t kro_next(struct tl_kro *o, uint64_t *id)
{
	const uint8_t *q = o->p.b + o->p.at;
	uint8_t kx = *q++;
	o->last_id += (uint64_t)pt_unzigzag(pt_varint_take(&q));
	o->p.at = (size_t)(q - o->p.b);
	*id = o->last_id;
	return kx;
}

static void kro_rewind(struct tl_kro *o)
{
	o->p.at = 0;
	o->last_id = 0;
}

static bool kro_found(const struct tl_kro *o, size_t j)
{
	return o->found[j >> 3] >> (j & 7) & 1;
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

struct kro_row {
	uint32_t ev;
	uint8_t kx;
	uint64_t id;
};

static int kro_row_cmp(const void *pa, const void *pb)
{
	const struct kro_row *a = pa, *b = pb;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

void tl_kro_seal(struct tl_kro *o, struct tl_krange *k)
{
	if (!o->on)
		return;
	o->found = pt_xcalloc(o->n / 8 + 1, 1);
	size_t nf = 0;
	for (size_t j = 0; j < o->n; j++) { /* (the whole load's search, pt_model_range_info's, over the events) */
		const uint32_t *r = pt_model_row_of_event(o->ev, o->n, sizeof(*o->ev), o->ev[j]);
		size_t lo = r ? (size_t)(r - o->ev) : 0;
		if (r && !kro_found(o, lo)) {
			o->found[lo >> 3] |= (uint8_t)(1u << (lo & 7));
			nf++;
		}
	}
	o->nf = nf;
	/* the rows found (one an event: the search finds one row for each) in event order */
	struct kro_row *f = pt_xmalloc((nf ? nf : 1) * sizeof(*f));
	size_t n = 0;
	kro_rewind(o);
	for (size_t j = 0; j < o->n; j++) {
		uint64_t id;
		uint8_t kx = kro_next(o, &id);
		if (kro_found(o, j))
			f[n++] = (struct kro_row){ o->ev[j], kx, id };
	}
	pt_sort(f, n, sizeof(*f), kro_row_cmp);
	for (size_t i = 0; i < n; i++)
		tl_krange_put(k, f[i].ev, f[i].kx, f[i].id);
	free(f);
}

int tl_kro_nest(struct tl_kro *o, struct tl_krange *kn)
{
	if (!o->on || o->nf == o->n) { /* (every info found: one an event, all in k) */
		tl_kro_free(o);
		return 0;
	}
	size_t n = o->n;
	uint64_t *x = pt_xmalloc(n * sizeof(*x)); /* event << 32 | row, sorted */
	for (size_t j = 0; j < n; j++)
		x[j] = (uint64_t)o->ev[j] << 32 | j;
	free(o->ev);
	o->ev = NULL;
	pt_sort(x, n, sizeof(*x), pt_u64_cmp);
	int rc = 1;
	for (size_t i = 1; i < n && rc > 0; i++)
		if (x[i] >> 32 == x[i - 1] >> 32)
			rc = -1;
	if (rc > 0) {
		uint8_t *kx = pt_xmalloc(n);
		uint64_t *id = pt_xmalloc(n * sizeof(*id));
		kro_rewind(o);
		for (size_t j = 0; j < n; j++)
			kx[j] = kro_next(o, &id[j]);
		tl_kpack_free(&o->p);
		for (size_t i = 0; i < n; i++) {
			uint32_t j = (uint32_t)x[i];
			tl_krange_put(kn, (uint32_t)(x[i] >> 32), kx[j], kro_found(o, j) ? id[j] : 0);
		}
		free(kx);
		free(id);
	}
	free(x);
	tl_kro_free(o);
	return rc;
}

void tl_kro_free(struct tl_kro *o)
{
	free(o->ev);
	tl_kpack_free(&o->p);
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
