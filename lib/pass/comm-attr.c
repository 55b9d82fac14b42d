/* Kernels communication by their launch, over a stream: see comm-attr.h. */
#include "pass/comm-attr.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "support/bits.h"
#include "support/xalloc.h"

static void grow_bits(struct pt_cattr *c, uint64_t n)
{
	size_t cap = c->nw; /* (the two grow alike) */
	pt_bits_grow(&c->name, &cap, n);
	pt_bits_grow(&c->comm, &c->nw, n);
}

static void grow_trk(struct pt_cattr *c, size_t n)
{
	if (n <= c->nt)
		return;
	c->t = pt_xrealloc(c->t, n * sizeof(*c->t));
	memset(c->t + c->nt, 0, (n - c->nt) * sizeof(*c->t));
	c->nt = n;
}

void pt_cattr_name(struct pt_cattr *c, uint64_t g)
{
	grow_bits(c, g + 1);
	pt_bits_set(c->name, g);
}

void pt_cattr_order(struct pt_cattr *c, uint32_t tr, int64_t st)
{
	grow_trk(c, (size_t)tr + 1);
	struct pt_cattr_trk *t = &c->t[tr];
	if (t->seen && st < t->last)
		t->bad = true;
	if (!t->seen || st > t->last)
		t->last = st;
	t->seen = true;
}

/* The mark of string s (v 0: not met, or pushed out by another). */
static struct pt_cattr_mark *mark(struct pt_cattr_mark *cache, uint32_t s)
{
	struct pt_cattr_mark *x = &cache[s % PT_CATTR_CACHE];
	if (x->id != s || !x->v)
		*x = (struct pt_cattr_mark){ s, 0 };
	return x;
}

void pt_cattr_infos(struct pt_cattr *c, const struct pt_model *m, uint64_t nev)
{
	for (size_t k = 0; k < m->ranges.n; k++) {
		const struct pt_range_info *ri = &m->ranges.v[k];
		if (!ri->type || (ri->flags & PT_RANGE_INSTANT))
			continue;
		struct pt_cattr_mark *tm = mark(c->tmark, ri->type);
		if (!tm->v) {
			const char *t = pt_model_strget(m, ri->type);
			tm->v = !strcmp(t, "Communication") ? 2 : !strcmp(t, "Operator") ? 3 : 1;
		}
		if (tm->v == 1)
			continue;
		bool comm = tm->v == 2;
		if (!comm && ri->label) {
			struct pt_cattr_mark *lm = mark(c->lmark, ri->label);
			if (!lm->v)
				lm->v = pt_index_comm_op_name(pt_model_strget(m, ri->label)) ? 2 : 1;
			comm = lm->v == 2;
		} else if (!comm) {
			comm = (c->name && pt_bits_get(c->name, c->nw, ri->event));
		}
		if (!comm)
			continue;
		if (ri->event >= nev) {
			c->no = true; /* (its event's name and time are gone or still to come) */
			continue;
		}
		grow_bits(c, (uint64_t)ri->event + 1);
		pt_bits_set(c->comm, ri->event);
		c->any = true;
	}
}

void pt_cattr_seal(struct pt_cattr *c)
{
	free(c->name);
	c->name = NULL;
	for (size_t t = 0; t < c->nt; t++)
		c->t[t] = (struct pt_cattr_trk){ .bad = c->t[t].bad };
}

bool pt_cattr_spans_wanted(const struct pt_cattr *c)
{
	for (size_t t = 0; c->any && t < c->nt; t++)
		if (c->t[t].bad)
			return true;
	return false;
}

void pt_cattr_span(struct pt_cattr *c, uint64_t g, uint32_t tr, int64_t st, int64_t dur)
{
	if (dur > 0 && tr < c->nt && c->t[tr].bad && pt_bits_get(c->comm, c->nw, g))
		pt_vec_push(&c->t[tr].span, ((struct pt_ival){ st, st + dur }));
}

void pt_cattr_spans_end(struct pt_cattr *c)
{
	for (size_t t = 0; t < c->nt; t++) {
		struct pt_cattr_trk *k = &c->t[t];
		if (k->span.n)
			pt_ivset_build(&k->u, k->span.v, k->span.n);
		pt_vec_free(&k->span);
	}
	c->spans = true;
}

static void wake(struct pt_cattr_trk *t)
{
	for (size_t k = 0; k < t->wait.n; k++)
		pt_bits_set(t->wait.v[k].bits, t->wait.v[k].bit);
	t->wait.n = 0;
}

void pt_cattr_range(struct pt_cattr *c, uint64_t g, uint32_t tr, int64_t st, int64_t dur)
{
	if (dur <= 0 || !pt_bits_get(c->comm, c->nw, g))
		return;
	grow_trk(c, (size_t)tr + 1);
	struct pt_cattr_trk *t = &c->t[tr];
	if (t->bad) {
		c->late |= !c->spans; /* (with them, its calls look its union up) */
		return;
	}
	if (t->seen && st == t->last)
		wake(t); /* the calls that start with it are inside it */
	else
		t->wait.n = 0; /* (no later range can start with them) */
	int64_t e = st + dur;
	if (!t->has_end || e > t->end)
		t->end = e;
	t->has_end = true;
}

void pt_cattr_call(struct pt_cattr *c, uint32_t tr, int64_t st, uint64_t *bits, size_t b)
{
	grow_trk(c, (size_t)tr + 1);
	struct pt_cattr_trk *t = &c->t[tr];
	if (t->bad && c->spans) {
		if (t->u.n && pt_ivset_contains(&t->u, st))
			pt_bits_set(bits, b);
		return;
	}
	if (!t->seen || st > t->last) {
		t->wait.n = 0;
		t->last = st;
	}
	t->seen = true;
	if (t->has_end && t->end > st) {
		pt_bits_set(bits, b);
		return;
	}
	if (c->any)
		pt_vec_push(&t->wait, ((struct pt_cattr_wait){ bits, b }));
}

void pt_cattr_first_hosts(struct pt_cattr *c, size_t nh, const size_t *nslot)
{
	c->seen = pt_xcalloc(nh ? nh : 1, sizeof(*c->seen));
	c->nseen = nh;
	for (size_t h = 0; h < nh; h++)
		c->seen[h] = pt_xcalloc(nslot[h] / 64 + 1, sizeof(**c->seen));
}

bool pt_cattr_first(struct pt_cattr *c, size_t h, size_t slot)
{
	uint64_t *b = c->seen[h];
	if (b[slot / 64] >> (slot % 64) & 1)
		return false;
	pt_bits_set(b, slot);
	return true;
}

void pt_cattr_kbits(struct pt_cattr *c, uint64_t nev)
{
	c->nkb = nev;
	c->ccall = pt_xcalloc(nev / 64 + 1, sizeof(*c->ccall));
	c->kbit = pt_xcalloc(nev / 64 + 1, sizeof(*c->kbit));
}

void pt_cattr_links(struct pt_cattr *c, const struct pt_gpu_link *v, size_t n)
{
	for (size_t l = 0; l < n; l++) { /* (the last link of a kernel wins, as index.c joins them) */
		uint64_t a = v[l].event, k = v[l].api;
		if (a >= c->nkb || k >= c->nkb)
			continue;
		if (c->ccall[k / 64] >> (k % 64) & 1)
			pt_bits_set(c->kbit, a);
		else
			c->kbit[a / 64] &= ~(UINT64_C(1) << (a % 64));
	}
}

void pt_cattr_free(struct pt_cattr *c)
{
	free(c->name);
	free(c->comm);
	for (size_t h = 0; h < c->nseen; h++)
		free(c->seen[h]);
	free(c->seen);
	free(c->ccall);
	free(c->kbit);
	for (size_t t = 0; t < c->nt; t++) {
		pt_vec_free(&c->t[t].wait);
		pt_vec_free(&c->t[t].span);
		pt_ivset_free(&c->t[t].u);
	}
	free(c->t);
	memset(c, 0, sizeof(*c));
}
