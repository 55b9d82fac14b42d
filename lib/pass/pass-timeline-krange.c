/*
 * The range infos and copy infos a streamed kineto profile reads, packed in
 * event order (pass-timeline-krange.h).
 */
#include "pass/pass-timeline-krange.h"

#include <stdlib.h>

#include "support/strtab.h"
#include "support/varint.h"
#include "support/xalloc.h"

bool tl_krange_take(struct tl_krange *k, struct pt_model *m)
{
	uint32_t op = pt_strtab_find(&m->strings, "Operator", 8); /* (as tl_kext_init finds it) */
	for (size_t i = 0; i < m->ranges.n && !k->bad; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (k->any && ri->event <= k->last_ev) {
			k->bad = true;
			break;
		}
		uint32_t d = k->any ? ri->event - k->last_ev : ri->event;
		pt_xgrow((void **)&k->b, &k->cap, k->n + 20, 1);
		uint8_t *q = k->b + k->n;
		q = pt_varint_put(q, (uint64_t)d << 1 | (op != UINT32_MAX && ri->type == op));
		q = pt_varint_put(q, pt_zigzag((int64_t)(ri->id - k->last_id)));
		k->n = (size_t)(q - k->b);
		k->any = true;
		k->last_ev = ri->event;
		k->last_id = ri->id;
	}
	m->ranges.n = 0;
	return !k->bad;
}

void tl_krange_fit(struct tl_krange *k)
{
	if (k->n < k->cap) {
		k->b = pt_xrealloc(k->b, k->n ? k->n : 1);
		k->cap = k->n ? k->n : 1;
	}
}

void tl_krange_rewind(struct tl_krange *k)
{
	k->at = 0;
	k->rhas = false;
	k->rev = 0;
	k->rid = 0;
	k->rop = false;
}

/* The next range info into rev, rid, rop; false at the end. */
static bool next_info(struct tl_krange *k)
{
	if (k->at >= k->n)
		return false;
	const uint8_t *q = k->b + k->at;
	uint64_t h = pt_varint_take(&q);
	uint32_t d = (uint32_t)(h >> 1);
	k->rev += d; /* (the first: from 0) */
	k->rop = h & 1;
	k->rid += (uint64_t)pt_unzigzag(pt_varint_take(&q));
	k->at = (size_t)(q - k->b);
	k->rhas = true;
	return true;
}

uint8_t tl_krange_of(struct tl_krange *k, uint32_t ev, uint64_t *id)
{
	while ((!k->rhas || k->rev < ev) && next_info(k))
		;
	if (!k->rhas || k->rev != ev)
		return 0;
	*id = k->rid;
	return TL_KX_INFO | (k->rop ? TL_KX_OP : 0);
}

void tl_krange_free(struct tl_krange *k)
{
	free(k->b);
	*k = (struct tl_krange){ 0 };
}

void tl_kcopy_take(struct tl_kcopy *k, struct pt_model *m)
{
	size_t n = m->copies.n;
	k->b = pt_xmalloc(n * 18 + 1);
	uint8_t *q = k->b;
	uint32_t last = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pt_copy_info *ci = &m->copies.v[i];
		q = pt_varint_put(q, ci->event - last); /* (ascending: the first from 0) */
		last = ci->event;
		*q++ = ci->copy_kind;
		*q++ = ci->src_kind;
		*q++ = ci->dst_kind;
		q = pt_varint_put(q, ci->bytes);
	}
	k->n = (size_t)(q - k->b);
	k->b = pt_xrealloc(k->b, k->n ? k->n : 1);
	pt_vec_free(&m->copies);
	tl_kcopy_rewind(k);
}

void tl_kcopy_rewind(struct tl_kcopy *k)
{
	k->at = 0;
	k->rhas = false;
	k->rev = 0;
}

uint8_t tl_kcopy_of(struct tl_kcopy *k, uint32_t ev, uint32_t *kinds, uint64_t *bytes)
{
	while ((!k->rhas || k->rev < ev) && k->at < k->n) {
		const uint8_t *q = k->b + k->at;
		k->rev += (uint32_t)pt_varint_take(&q);
		k->rkinds = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16;
		q += 3;
		k->rbytes = pt_varint_take(&q);
		k->at = (size_t)(q - k->b);
		k->rhas = true;
	}
	if (!k->rhas || k->rev != ev)
		return 0;
	*kinds = k->rkinds;
	*bytes = k->rbytes;
	return TL_KX_COPY;
}

void tl_kcopy_free(struct tl_kcopy *k)
{
	free(k->b);
	*k = (struct tl_kcopy){ 0 };
}
