#include "support/ivpack.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

static void put(struct pt_ivpack *p, uint64_t v)
{
	if (p->cap - p->n < 10)
		pt_xgrow((void **)&p->b, &p->cap, p->n + 10, 1);
	while (v >= 0x80) {
		p->b[p->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p->b[p->n++] = (uint8_t)v;
}

static void pack(struct pt_ivpack *p, int64_t s, int64_t e)
{
	/* the gap from the last end (negative only for a first start before 0), zigzag; then the length */
	uint64_t gap = (uint64_t)s - (uint64_t)p->last_e;
	put(p, (gap << 1) ^ (uint64_t)((int64_t)gap >> 63));
	put(p, (uint64_t)e - (uint64_t)s);
	p->last_e = e;
	p->count++;
}

void pt_ivpack_append(struct pt_ivpack *p, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (p->open && s <= p->tail.e) { /* touching or overlapping the last: join */
		if (e > p->tail.e)
			p->tail.e = e;
		return;
	}
	if (p->open)
		pack(p, p->tail.s, p->tail.e);
	p->tail = (struct pt_ival){ s, e };
	p->open = true;
}

void pt_ivpack_close(struct pt_ivpack *p)
{
	if (p->open)
		pack(p, p->tail.s, p->tail.e);
	p->open = false;
	if (p->n && p->cap > p->n) {
		p->b = pt_xrealloc(p->b, p->n);
		p->cap = p->n;
	}
}

void pt_ivpack_free(struct pt_ivpack *p)
{
	free(p->b);
	memset(p, 0, sizeof(*p));
}

static uint64_t get(const uint8_t *b, size_t *pos)
{
	uint64_t v = 0;
	for (unsigned sh = 0;; sh += 7) {
		uint8_t x = b[(*pos)++];
		v |= (uint64_t)(x & 0x7f) << sh;
		if (!(x & 0x80))
			return v;
	}
}

bool pt_ivpack_next(const struct pt_ivpack *p, struct pt_ivpack_cur *c, struct pt_ival *out)
{
	if (c->pos >= p->n)
		return false;
	uint64_t z = get(p->b, &c->pos);
	uint64_t gap = (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
	uint64_t len = get(p->b, &c->pos);
	out->s = (int64_t)((uint64_t)c->prev_e + gap);
	out->e = (int64_t)((uint64_t)out->s + len);
	c->prev_e = out->e;
	return true;
}
