/*
 * The vote of a GPU device of no traced process over a stream
 * (pass-steps-gvote.h).
 */
#include "pass/pass-steps-gvote.h"

#include <stdlib.h>
#include <string.h>

#include "support/bits.h"
#include "support/xalloc.h"

void pt_gvote_free(struct pt_gvote *v)
{
	pt_gvote_done(v);
	for (size_t p = 0; p < v->nd; p++)
		free(v->d[p].call);
	free(v->d);
	memset(v, 0, sizeof(*v));
}

size_t pt_gvote_find(const struct pt_gvote *v, uint32_t dev)
{
	for (size_t p = 0; p < v->nd; p++)
		if (v->d[p].dev == dev)
			return p;
	return SIZE_MAX;
}

size_t pt_gvote_add(struct pt_gvote *v, uint32_t dev)
{
	size_t p = pt_gvote_find(v, dev);
	if (p != SIZE_MAX)
		return p;
	v->d = pt_xrealloc(v->d, (v->nd + 1) * sizeof(*v->d));
	memset(&v->d[v->nd], 0, sizeof(*v->d));
	v->d[v->nd].dev = dev;
	pt_ljoin_init(&v->d[v->nd].j);
	return v->nd++;
}

void pt_gvote_want(struct pt_gvote *v, uint32_t dev, uint64_t id)
{
	size_t p = pt_gvote_add(v, dev); /* (v->d may move) */
	if (id)
		pt_ljoin_want(&v->d[p].j, id);
}

bool pt_gvote_seal(struct pt_gvote *v, size_t nh)
{
	v->nh = nh;
	bool any = false;
	for (size_t p = 0; p < v->nd; p++) {
		struct pt_gvote_dev *x = &v->d[p];
		pt_ljoin_seal(&x->j);
		free(x->j.start); /* (only the slots are looked up) */
		free(x->j.end);
		x->j.start = NULL;
		x->j.end = NULL;
		x->cnt = pt_xcalloc(x->j.n ? x->j.n : 1, sizeof(*x->cnt));
		x->mark = pt_xcalloc((x->j.n * nh) / 64 + 1, sizeof(*x->mark));
		any |= x->j.n > 0;
	}
	return any;
}

void pt_gvote_activity(struct pt_gvote *v, size_t p, uint64_t id)
{
	struct pt_gvote_dev *x = &v->d[p];
	size_t s = id ? pt_ljoin_slot(&x->j, id) : SIZE_MAX;
	if (s == SIZE_MAX)
		return;
	if (x->cnt[s] == UINT32_MAX)
		v->over = true;
	else
		x->cnt[s]++;
}

void pt_gvote_call(struct pt_gvote *v, size_t h, uint64_t id)
{
	for (size_t p = 0; id && p < v->nd; p++) {
		struct pt_gvote_dev *x = &v->d[p];
		size_t s = pt_ljoin_slot(&x->j, id);
		if (s != SIZE_MAX)
			pt_bits_set(x->mark, (uint64_t)s * v->nh + h);
	}
}

size_t pt_gvote_owner(const struct pt_gvote *v, size_t p)
{
	const struct pt_gvote_dev *x = &v->d[p];
	uint64_t *n = pt_xcalloc(v->nh ? v->nh : 1, sizeof(*n));
	for (size_t s = 0; s < x->j.n; s++)
		for (size_t h = 0; h < v->nh; h++)
			if (pt_bits_get(x->mark, (x->j.n * v->nh) / 64 + 1, (uint64_t)s * v->nh + h))
				n[h] += x->cnt[s];
	size_t best = 0;
	for (size_t h = 1; h < v->nh; h++)
		if (n[h] > n[best])
			best = h;
	free(n);
	return best;
}

void pt_gvote_want_into(const struct pt_gvote *v, size_t p, struct pt_ljoin *j)
{
	const struct pt_ljoin *x = &v->d[p].j;
	if (!x->bits) {
		for (size_t s = 0; s < x->n; s++)
			pt_ljoin_want(j, x->id[s]);
		return;
	}
	size_t words = (size_t)((x->hi - x->lo) / 64) + 1;
	for (size_t w = 0; w < words; w++)
		for (uint64_t b = x->bits[w]; b; b &= b - 1)
			pt_ljoin_want(j, x->lo + (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(b));
}

void pt_gvote_act(struct pt_gvote *v, uint32_t dev, uint64_t g)
{
	struct pt_gvote_dev *x = &v->d[pt_gvote_add(v, dev)];
	pt_bits_grow(&x->act, &x->actw, g + 1);
	pt_bits_set(x->act, g);
}

bool pt_gvote_link(struct pt_gvote *v, uint64_t a, uint64_t c)
{
	for (size_t p = 0; p < v->nd; p++) {
		struct pt_gvote_dev *x = &v->d[p];
		if (!pt_bits_get(x->act, x->actw, a))
			continue;
		pt_bits_grow(&x->call, &x->callw, c + 1);
		pt_bits_set(x->call, c);
		return true;
	}
	return false;
}

void pt_gvote_done(struct pt_gvote *v)
{
	for (size_t p = 0; p < v->nd; p++) {
		struct pt_gvote_dev *x = &v->d[p];
		pt_ljoin_free(&x->j);
		free(x->cnt);
		free(x->mark);
		free(x->act);
		x->cnt = NULL;
		x->mark = NULL;
		x->act = NULL;
		x->actw = 0;
	}
}
