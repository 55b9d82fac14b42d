/*
 * The copy infos of a GPU .ptm file as the streamed pass's device read looks
 * them up (gstream.c: a memory operation's copy kind and bytes, as
 * pt_model_copy_info() finds them), taken from the steps' first read
 * (m->copies, 24 bytes a row) and held in 9 bytes a row: the event, the kind,
 * and the index of the row's byte count among the distinct counts (a copy
 * loop moves few sizes), those 8 bytes each.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "support/vec.h"
#include "support/xalloc.h"

void hx_gcopies_take(struct hx_gcopies *c, struct pt_model *m)
{
	memset(c, 0, sizeof(*c));
	size_t n = m->copies.n;
	c->n = n;
	c->ev = pt_xmalloc((n ? n : 1) * sizeof(*c->ev));
	c->kind = pt_xmalloc(n ? n : 1);
	c->at = pt_xmalloc((n ? n : 1) * sizeof(*c->at));
	struct pt_hashmap h;
	pt_hashmap_init(&h);
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pt_copy_info *ci = &m->copies.v[i];
		bool added;
		uint64_t *ix = pt_hashmap_put(&h, ci->bytes, c->nbytes, &added);
		if (added) {
			pt_xgrow((void **)&c->bytes, &cap, c->nbytes + 1, sizeof(*c->bytes));
			c->bytes[c->nbytes++] = ci->bytes;
		}
		c->ev[i] = ci->event;
		c->kind[i] = ci->copy_kind;
		c->at[i] = (uint32_t)*ix;
	}
	pt_hashmap_free(&h);
	pt_vec_free(&m->copies);
}

bool hx_gcopies_get(const struct hx_gcopies *c, uint32_t ev, uint8_t *kind, uint64_t *bytes)
{
	size_t lo = 0, hi = c->n; /* (the first row of the event, as pt_model_copy_info) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[mid] < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->n || c->ev[lo] != ev)
		return false;
	*kind = c->kind[lo];
	*bytes = c->bytes[c->at[lo]];
	return true;
}

void hx_gcopies_free(struct hx_gcopies *c)
{
	free(c->ev);
	free(c->kind);
	free(c->at);
	free(c->bytes);
	memset(c, 0, sizeof(*c));
}
