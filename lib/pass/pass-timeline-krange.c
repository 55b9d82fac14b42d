/*
 * The range infos and copy infos a streamed kineto profile reads, packed in
 * event order (pass-timeline-krange.h).
 */
#include "pass/pass-timeline-krange.h"

#include <stdlib.h>

#include "support/strtab.h"
#include "support/varint.h"
#include "support/xalloc.h"

/* Room for a row of up to `most` bytes at the pack's end. */
static uint8_t *row_room(struct tl_kpack *p, size_t most)
{
	pt_xgrow((void **)&p->b, &p->cap, p->n + most, 1);
	return p->b + p->n;
}

/*
 * The cursor moved on to the next row (false: at the pack's end). take reads a row's fields into arg from
 * its first varint h and *q (after h) on, and returns its event delta.
 */
static bool step(struct tl_kpack *p, uint32_t (*take)(void *arg, uint64_t h, const uint8_t **q), void *arg)
{
	if (p->at >= p->n)
		return false;
	const uint8_t *q = p->b + p->at;
	uint64_t h = pt_varint_take(&q);
	p->rev += take(arg, h, &q);
	p->at = (size_t)(q - p->b);
	p->rhas = true;
	return true;
}

/* The cursor moved on to the row of event ev, or past it: true where that row is ev's. */
static bool seek(struct tl_kpack *p, uint32_t ev, uint32_t (*take)(void *arg, uint64_t h, const uint8_t **q), void *arg)
{
	while ((!p->rhas || p->rev < ev) && step(p, take, arg))
		;
	return p->rhas && p->rev == ev;
}

void tl_kpack_fit(struct tl_kpack *p)
{
	if (p->n < p->cap) {
		p->b = pt_xrealloc(p->b, p->n ? p->n : 1);
		p->cap = p->n ? p->n : 1;
	}
}

static void rewind_pack(struct tl_kpack *p)
{
	p->at = 0;
	p->rhas = false;
	p->rev = 0;
}

void tl_kpack_free(struct tl_kpack *p)
{
	free(p->b);
	*p = (struct tl_kpack){ 0 };
}

/* Is string id t one of the types that are not user annotations (pass-timeline-gpuann.c)? */
static bool not_user(const uint32_t *nu, uint32_t t)
{
	return t == nu[0] || t == nu[1] || t == nu[2] || t == nu[3];
}

bool tl_krange_take(struct tl_krange *k, struct pt_model *m)
{
	uint32_t nu[4];
	tl_krange_types(m, nu);
	for (size_t i = 0; i < m->ranges.n && !k->bad; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (k->any && ri->event <= k->last_ev) {
			k->bad = true;
			break;
		}
		tl_krange_put(k, ri->event, tl_krange_kx(nu, ri->type), ri->id);
	}
	m->ranges.n = 0;
	return !k->bad;
}

void tl_krange_types(const struct pt_model *m, uint32_t nu[4])
{
	nu[0] = pt_strtab_find(&m->strings, "Operator", 8); /* (as tl_kext_init finds it) */
	nu[1] = pt_strtab_find(&m->strings, "OperatorInner", 13);
	nu[2] = pt_strtab_find(&m->strings, "PythonOp", 8);
	nu[3] = pt_strtab_find(&m->strings, "Communication", 13);
}

uint8_t tl_krange_kx(const uint32_t nu[4], uint32_t type)
{
	return (uint8_t)(TL_KX_INFO | (nu[0] != UINT32_MAX && type == nu[0] ? TL_KX_OP : 0) |
			 (!not_user(nu, type) ? TL_KX_USER : 0));
}

void tl_krange_put(struct tl_krange *k, uint32_t ev, uint8_t kx, uint64_t id)
{
	uint32_t d = k->any ? ev - k->last_ev : ev;
	uint8_t *q = row_room(&k->p, 20);
	q = pt_varint_put(q, (uint64_t)d << 2 | (uint64_t)((kx & TL_KX_USER) != 0) << 1 | ((kx & TL_KX_OP) != 0));
	q = pt_varint_put(q, pt_zigzag((int64_t)(id - k->last_id)));
	k->p.n = (size_t)(q - k->p.b);
	k->any = true;
	k->last_ev = ev;
	k->last_id = id;
}

void tl_krange_rewind(struct tl_krange *k)
{
	rewind_pack(&k->p);
	k->rid = 0;
}

/* (the Operator bit in h's low bit, the user annotation bit above it, the event delta above them) */
static uint32_t range_take(void *arg, uint64_t h, const uint8_t **q)
{
	struct tl_krange *k = arg;
	k->rop = h & 1;
	k->ruser = h >> 1 & 1;
	k->rid += (uint64_t)pt_unzigzag(pt_varint_take(q));
	return (uint32_t)(h >> 2);
}

uint8_t tl_krange_of(struct tl_krange *k, uint32_t ev, uint64_t *id)
{
	if (!seek(&k->p, ev, range_take, k))
		return 0;
	*id = k->rid;
	return TL_KX_INFO | (k->rop ? TL_KX_OP : 0) | (k->ruser ? TL_KX_USER : 0);
}

uint8_t tl_krange_next(struct tl_krange *k, uint32_t *ev, uint64_t *id)
{
	if (!step(&k->p, range_take, k))
		return 0;
	*ev = k->p.rev;
	*id = k->rid;
	return TL_KX_INFO | (k->rop ? TL_KX_OP : 0) | (k->ruser ? TL_KX_USER : 0);
}

bool tl_klink_take(struct tl_klink *k, const struct pt_model *m)
{
	for (size_t i = 0; i < m->links.n && !k->bad; i++) {
		const struct pt_gpu_link *l = &m->links.v[i];
		if (!l->range)
			continue;
		if (k->any && l->event <= k->last_ev) {
			k->bad = true;
			break;
		}
		tl_klink_put(k, l->event, l->range);
	}
	return !k->bad;
}

void tl_klink_put(struct tl_klink *k, uint32_t ev, uint32_t range)
{
	uint8_t *q = row_room(&k->p, 10);
	q = pt_varint_put(q, k->any ? ev - k->last_ev : ev);
	q = pt_varint_put(q, pt_zigzag((int64_t)range - (int64_t)k->last_range));
	k->p.n = (size_t)(q - k->p.b);
	k->any = true;
	k->last_ev = ev;
	k->last_range = range;
}

void tl_klink_rewind(struct tl_klink *k)
{
	rewind_pack(&k->p);
	k->rrange = 0;
}

static uint32_t link_take(void *arg, uint64_t h, const uint8_t **q)
{
	struct tl_klink *k = arg;
	k->rrange = (uint32_t)((int64_t)k->rrange + pt_unzigzag(pt_varint_take(q)));
	return (uint32_t)h;
}

uint32_t tl_klink_of(struct tl_klink *k, uint32_t ev)
{
	return seek(&k->p, ev, link_take, k) ? k->rrange : 0;
}

uint32_t tl_klink_more(struct tl_klink *k)
{
	const uint8_t *q = k->p.b + k->p.at;
	if (!k->p.rhas || k->p.at >= k->p.n || pt_varint_take(&q)) /* (a further row of one activity: delta 0) */
		return 0;
	link_take(k, 0, &q);
	k->p.at = (size_t)(q - k->p.b);
	return k->rrange;
}

uint32_t tl_klink_next(struct tl_klink *k)
{
	return step(&k->p, link_take, k) ? k->rrange : 0;
}

void tl_kcopy_take(struct tl_kcopy *k, struct pt_model *m)
{
	uint32_t last = 0;
	for (size_t i = 0; i < m->copies.n; i++) {
		const struct pt_copy_info *ci = &m->copies.v[i];
		uint8_t *q = row_room(&k->p, 18);
		q = pt_varint_put(q, ci->event - last); /* (ascending) */
		last = ci->event;
		*q++ = ci->copy_kind;
		*q++ = ci->src_kind;
		*q++ = ci->dst_kind;
		q = pt_varint_put(q, ci->bytes);
		k->p.n = (size_t)(q - k->p.b);
	}
	pt_vec_free(&m->copies);
	tl_kpack_fit(&k->p);
}

void tl_kcopy_rewind(struct tl_kcopy *k)
{
	rewind_pack(&k->p);
}

static uint32_t copy_take(void *arg, uint64_t h, const uint8_t **q)
{
	struct tl_kcopy *k = arg;
	const uint8_t *b = *q;
	k->rkinds = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
	*q = b + 3;
	k->rbytes = pt_varint_take(q);
	return (uint32_t)h;
}

uint8_t tl_kcopy_of(struct tl_kcopy *k, uint32_t ev, uint32_t *kinds, uint64_t *bytes)
{
	if (!seek(&k->p, ev, copy_take, k))
		return 0;
	*kinds = k->rkinds;
	*bytes = k->rbytes;
	return TL_KX_COPY;
}
