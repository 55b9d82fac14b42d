/*
 * The kineto profile's correlation id -> External id map, packed
 * (pass-timeline-kxmap.h).
 */
#include "pass/pass-timeline-kxmap.h"

#include <stdlib.h>
#include <string.h>

#include "support/bits.h"
#include "support/idmap.h"
#include "support/varint.h"
#include "support/xalloc.h"

#define EXT_CUSTOM0 3 /* CUpti_ExternalCorrelationKind CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 */
#define XB 64         /* ids a block */
#define NARROW UINT32_MAX
#define W16 0x80000000u /* wat: a block of 2-byte distances (its place in w16, in blocks) */

/* A device's ids: dense (bits, base, d, wat, wide) or hashed (h). */
struct xdev {
	bool dense, hashed;
	uint64_t lo, span;
	uint64_t *bits;   /* per id of [lo, lo + span): it has an External id */
	uint64_t *base;   /* per block: its least External id */
	uint8_t *d;       /* per id: its External id less its block's base */
	uint32_t *wat;    /* per block: NARROW, W16 | its place in w16, or its place in wide (in blocks) */
	uint16_t *w16;    /* the distances of the blocks whose distances do not fit d, XB each */
	uint64_t *wide;   /* the External ids of the blocks whose distances do not fit w16, XB each */
	size_t n16, nwide;
	struct pt_idmap h;
};

struct tl_kxmap {
	size_t nd;
	struct xdev *dv;
};

/* (per row: zigzag(corr delta) << 1 | device changed, the device where it changed, zigzag(id delta)) */
void tl_kxpack_add(struct tl_kxpack *x, const struct pt_model *m)
{
	for (size_t i = 0; i < m->ext_corr.n; i++) {
		const struct pt_ext_corr *r = &m->ext_corr.v[i];
		if (r->kind != EXT_CUSTOM0)
			continue;
		pt_xgrow((void **)&x->b, &x->cap, x->n + 30, 1);
		uint8_t *q = x->b + x->n;
		bool dc = r->device != x->dev;
		q = pt_varint_put(q, pt_zigzag((int64_t)(r->corr - x->corr)) << 1 | dc);
		if (dc)
			q = pt_varint_put(q, r->device);
		q = pt_varint_put(q, pt_zigzag((int64_t)(r->id - x->id)));
		x->n = (size_t)(q - x->b);
		x->dev = r->device;
		x->corr = r->corr;
		x->id = r->id;
	}
}

void tl_kxpack_free(struct tl_kxpack *x)
{
	free(x->b);
	memset(x, 0, sizeof(*x));
}

/* A pack's reader: the row at *at into *r (dev, corr, id: the last row's before it) */
struct row {
	uint32_t dev;
	uint64_t corr, id;
};
static void row_next(const struct tl_kxpack *x, size_t *at, struct row *r)
{
	const uint8_t *q = x->b + *at;
	uint64_t h = pt_varint_take(&q);
	r->corr += (uint64_t)pt_unzigzag(h >> 1);
	if (h & 1)
		r->dev = (uint32_t)pt_varint_take(&q);
	r->id += (uint64_t)pt_unzigzag(pt_varint_take(&q));
	*at = (size_t)(q - x->b);
}

/* The External id of id o of a dense device (present). */
static uint64_t value_at(const struct xdev *v, uint64_t o)
{
	uint32_t w = v->wat[o / XB];
	if (w == NARROW)
		return v->base[o / XB] + v->d[o];
	if (w & W16)
		return v->base[o / XB] + v->w16[(size_t)(w & ~W16) * XB + o % XB];
	return v->wide[(size_t)w * XB + o % XB];
}

/* Block b of device v made of 2-byte distances (wide: of whole ids), its ids so far moved there. */
static void widen(struct xdev *v, uint64_t b, bool wide)
{
	uint64_t x[XB];
	size_t nw = (size_t)((v->span + 63) / 64);
	for (uint64_t k = 0; k < XB; k++) {
		uint64_t o = b * XB + k;
		x[k] = o < v->span && pt_bits_get(v->bits, nw, o) ? value_at(v, o) : v->base[b];
	}
	if (wide) {
		v->wide = pt_xrealloc(v->wide, (v->nwide + 1) * XB * sizeof(*v->wide));
		memcpy(v->wide + v->nwide * XB, x, sizeof(x));
		v->wat[b] = (uint32_t)v->nwide++;
	} else {
		v->w16 = pt_xrealloc(v->w16, (v->n16 + 1) * XB * sizeof(*v->w16));
		for (uint64_t k = 0; k < XB; k++)
			v->w16[v->n16 * XB + k] = (uint16_t)(x[k] - v->base[b]);
		v->wat[b] = W16 | (uint32_t)v->n16++;
	}
}

struct tl_kxmap *tl_kxmap_build(struct tl_kxpack *x, size_t nd)
{
	if (!x->n) {
		tl_kxpack_free(x);
		return NULL;
	}
	struct tl_kxmap *M = pt_xcalloc(1, sizeof(*M));
	M->nd = nd;
	M->dv = pt_xcalloc(nd ? nd : 1, sizeof(*M->dv));
	uint64_t *hi = pt_xcalloc(nd ? nd : 1, sizeof(*hi));
	size_t *cnt = pt_xcalloc(nd ? nd : 1, sizeof(*cnt));
	struct row r = { 0 };
	for (size_t at = 0; at < x->n;) { /* each device's range and count */
		row_next(x, &at, &r);
		if (r.dev >= nd)
			continue;
		struct xdev *v = &M->dv[r.dev];
		if (!cnt[r.dev]++)
			v->lo = hi[r.dev] = r.corr;
		v->lo = r.corr < v->lo ? r.corr : v->lo;
		hi[r.dev] = r.corr > hi[r.dev] ? r.corr : hi[r.dev];
	}
	for (size_t d = 0; d < nd; d++) {
		struct xdev *v = &M->dv[d];
		if (!cnt[d])
			continue;
		uint64_t range = hi[d] - v->lo; /* (as pt_idmap_init chooses its direct array) */
		if (range < (uint64_t)4 * cnt[d] + 4096) {
			v->dense = true;
			v->span = range + 1;
			uint64_t nb = (v->span + XB - 1) / XB;
			v->bits = pt_xcalloc((size_t)((v->span + 63) / 64), sizeof(*v->bits));
			v->base = pt_xmalloc((size_t)nb * sizeof(*v->base));
			v->wat = pt_xmalloc((size_t)nb * sizeof(*v->wat));
			v->d = pt_xmalloc((size_t)v->span * sizeof(*v->d));
			for (uint64_t b = 0; b < nb; b++) {
				v->base[b] = UINT64_MAX;
				v->wat[b] = NARROW;
			}
		} else {
			v->hashed = true;
			pt_idmap_init(&v->h, v->lo, hi[d], cnt[d]);
		}
	}
	free(hi);
	free(cnt);
	/* the blocks' least ids (of the first row of each correlation id: the one kept) */
	r = (struct row){ 0 };
	for (size_t at = 0; at < x->n;) {
		row_next(x, &at, &r);
		struct xdev *v = r.dev < nd ? &M->dv[r.dev] : NULL;
		if (!v || !v->dense)
			continue;
		uint64_t o = r.corr - v->lo;
		if (v->bits[o / 64] >> (o % 64) & 1)
			continue;
		pt_bits_set(v->bits, o);
		if (r.id < v->base[o / XB])
			v->base[o / XB] = r.id;
	}
	for (size_t d = 0; d < nd; d++)
		if (M->dv[d].dense)
			memset(M->dv[d].bits, 0, (size_t)((M->dv[d].span + 63) / 64) * sizeof(*M->dv[d].bits));
	r = (struct row){ 0 };
	for (size_t at = 0; at < x->n;) {
		row_next(x, &at, &r);
		struct xdev *v = r.dev < nd ? &M->dv[r.dev] : NULL;
		if (!v)
			continue;
		if (v->hashed) {
			pt_idmap_put(&v->h, r.corr, r.id, NULL); /* the first id of a correlation */
			continue;
		}
		uint64_t o = r.corr - v->lo, b = o / XB;
		if (v->bits[o / 64] >> (o % 64) & 1)
			continue;
		uint64_t dist = r.id - v->base[b];
		if (v->wat[b] == NARROW && dist > UINT8_MAX)
			widen(v, b, false);
		if (v->wat[b] != NARROW && (v->wat[b] & W16) && dist > UINT16_MAX)
			widen(v, b, true);
		pt_bits_set(v->bits, o);
		uint32_t w = v->wat[b];
		if (w == NARROW)
			v->d[o] = (uint8_t)dist;
		else if (w & W16)
			v->w16[(size_t)(w & ~W16) * XB + o % XB] = (uint16_t)dist;
		else
			v->wide[(size_t)w * XB + o % XB] = r.id;
	}
	tl_kxpack_free(x);
	return M;
}

bool tl_kxmap_get(const struct tl_kxmap *x, uint32_t dev, uint64_t corr, uint64_t *id)
{
	if (!x || dev >= x->nd)
		return false;
	const struct xdev *v = &x->dv[dev];
	if (v->hashed) {
		const uint64_t *p = pt_idmap_get(&v->h, corr);
		if (p)
			*id = *p;
		return p != NULL;
	}
	if (!v->dense || corr < v->lo || corr - v->lo >= v->span)
		return false;
	uint64_t o = corr - v->lo;
	if (!(v->bits[o / 64] >> (o % 64) & 1))
		return false;
	*id = value_at(v, o);
	return true;
}

void tl_kxmap_free(struct tl_kxmap *x)
{
	if (!x)
		return;
	for (size_t d = 0; d < x->nd; d++) {
		struct xdev *v = &x->dv[d];
		free(v->bits);
		free(v->base);
		free(v->d);
		free(v->wat);
		free(v->w16);
		free(v->wide);
		if (v->hashed)
			pt_idmap_free(&v->h);
	}
	free(x->dv);
	free(x);
}
