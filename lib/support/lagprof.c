#include "support/lagprof.h"

#include <stdlib.h>

#include "support/xalloc.h"

/* Merge the blocks pairwise: twice the events per block, half the blocks. */
static void halve(struct pt_lagprof *p)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->n; i += 2) {
		struct pt_lagblk x = p->b[i];
		if (i + 1 < p->n) {
			if (p->b[i + 1].min < x.min)
				x.min = p->b[i + 1].min;
			if (p->b[i + 1].lag > x.lag)
				x.lag = p->b[i + 1].lag;
		}
		p->b[n++] = x;
	}
	p->n = n;
	p->k *= 2;
}

void pt_lagprof_add(struct pt_lagprof *p, int64_t st)
{
	if (!p->k)
		p->k = 1;
	uint64_t blk = p->count / p->k;
	if (blk == p->n) { /* the first event of a new block */
		if (p->n == PT_LAGPROF_CAP) {
			halve(p);
			blk = p->count / p->k;
		}
		if (blk == p->n) {
			if (p->n == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 4;
				if (p->cap > PT_LAGPROF_CAP)
					p->cap = PT_LAGPROF_CAP;
				p->b = pt_xrealloc(p->b, p->cap * sizeof(*p->b));
			}
			p->b[p->n++] = (struct pt_lagblk){ st, 0, 0 };
		}
	}
	struct pt_lagblk *b = &p->b[blk];
	if (st < b->min)
		b->min = st;
	if (p->count && st < p->top) {
		uint64_t back = (uint64_t)p->top - (uint64_t)st; /* unsigned: up to 2^64 - 1 ns exactly */
		if (back > b->lag)
			b->lag = back;
	} else {
		p->top = st;
	}
	p->count++;
}

void pt_lagprof_finish(struct pt_lagprof *p)
{
	int64_t rest = INT64_MAX;
	for (uint32_t i = p->n; i-- > 0;) {
		p->b[i].rest = rest;
		if (p->b[i].min < rest)
			rest = p->b[i].min;
	}
}

int64_t pt_lagprof_floor(const struct pt_lagprof *p, uint64_t j, int64_t top)
{
	if (j >= p->count)
		return INT64_MAX;
	const struct pt_lagblk *b = &p->b[j / p->k];
	int64_t c = b->min;
	/* every event left in the block starts at most lag behind the latest start before it, which is
	 * at least top */
	if (j) {
		__int128 x = (__int128)top - (__int128)b->lag;
		if (x > c)
			c = (int64_t)x;
	}
	return c < b->rest ? c : b->rest;
}

void pt_lagprof_free(struct pt_lagprof *p)
{
	free(p->b);
	*p = (struct pt_lagprof){ 0 };
}
