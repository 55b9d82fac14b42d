/*
 * The held ranges of a host thread whose ranges the file holds out of start
 * order (a CUPTI dump stores its NVTX ranges after every call; stream-host.c):
 * the read of the steps gives them, the host read takes them in (start,
 * event) order, each before the events that start after it.
 *
 * A CUPTI import stores them in that order already. As long as they come so,
 * each is packed after the one before it: its start and event as differences
 * from that one's, its length, its explicit parent (stream-host-parent.c) as
 * its event less the parent's, its name and type (varints: about 9 bytes a
 * range, not 32), and the host read unpacks them in order; no sort, no copy
 * of them. A range that comes out of that order unpacks those before it into
 * the vector of 32 bytes a range, which is sorted before the host read.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

/* The range after (*s, *ev) at *q (advanced), which becomes the last. */
static void unpack(const uint8_t **q, int64_t *s, uint32_t *ev, struct hs_late *x)
{
	x->s = *s + pt_unzigzag(pt_varint_take(q));
	x->e = x->s + pt_unzigzag(pt_varint_take(q));
	x->ev = (uint32_t)((int64_t)*ev + pt_unzigzag(pt_varint_take(q)));
	uint64_t p = pt_varint_take(q);
	x->par = p ? (uint32_t)((int64_t)x->ev - pt_unzigzag(p)) + 1 : 0;
	uint64_t nt = pt_varint_take(q);
	x->name = (uint32_t)(nt >> 4);
	x->type = (uint8_t)(nt & 15);
	*s = x->s;
	*ev = x->ev;
}

/* Out of order: every packed range into lr, then x. */
static void loosen(struct hs_trk *tk)
{
	struct hs_lpack *l = &tk->lp;
	const uint8_t *q = l->p;
	int64_t s = 0;
	uint32_t ev = 0;
	pt_vec_reserve(&tk->lr, l->cnt + 1);
	for (size_t k = 0; k < l->cnt; k++) {
		struct hs_late x;
		unpack(&q, &s, &ev, &x);
		pt_vec_push(&tk->lr, x);
	}
	free(l->p);
	l->p = NULL;
	l->n = l->cap = l->cnt = 0;
	l->loose = true;
}

void sum_hsl_add(struct hs_trk *tk, const struct hs_late *x)
{
	struct hs_lpack *l = &tk->lp;
	if (!l->loose && l->cnt && (x->s < l->s || (x->s == l->s && x->ev < l->ev)))
		loosen(tk);
	if (l->loose) {
		pt_vec_push(&tk->lr, *x);
		return;
	}
	pt_xgrow((void **)&l->p, &l->cap, l->n + 50, 1);
	uint8_t *q = l->p + l->n;
	q = pt_varint_put(q, pt_zigzag(x->s - (l->cnt ? l->s : 0)));
	q = pt_varint_put(q, pt_zigzag(x->e - x->s));
	q = pt_varint_put(q, pt_zigzag((int64_t)x->ev - (int64_t)(l->cnt ? l->ev : 0)));
	q = pt_varint_put(q, x->par ? pt_zigzag((int64_t)x->ev - (int64_t)(x->par - 1)) : 0);
	q = pt_varint_put(q, (uint64_t)x->name << 4 | (x->type & 15));
	l->n = (size_t)(q - l->p);
	l->s = x->s;
	l->ev = x->ev;
	l->cnt++;
}

static int cmp_late(const void *pa, const void *pb)
{
	const struct hs_late *a = pa, *b = pb;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return (a->ev > b->ev) - (a->ev < b->ev);
}

void sum_hsl_seal(struct hs_trk *tk)
{
	struct hs_lpack *l = &tk->lp;
	if (l->loose) {
		if (tk->lr.n > 1)
			pt_sort(tk->lr.v, tk->lr.n, sizeof(*tk->lr.v), cmp_late);
		return;
	}
	if (l->p) /* the spare room back */
		l->p = pt_xrealloc(l->p, l->n + 1);
	l->off = l->took = 0;
	l->rs = 0;
	l->rev = 0;
	l->cur = false;
}

bool sum_hsl_left(const struct hs_trk *tk)
{
	return tk->lp.loose ? tk->lk < tk->lr.n : tk->lp.took < tk->lp.cnt;
}

bool sum_hsl_next(struct hs_trk *tk, int64_t upto, struct hs_late *x)
{
	struct hs_lpack *l = &tk->lp;
	if (l->loose) {
		if (tk->lk < tk->lr.n && tk->lr.v[tk->lk].s <= upto) {
			*x = tk->lr.v[tk->lk++];
			return true;
		}
		if (tk->lk == tk->lr.n && tk->lr.v)
			pt_vec_free(&tk->lr);
		return false;
	}
	if (!l->cur && l->took < l->cnt) {
		const uint8_t *q = l->p + l->off;
		unpack(&q, &l->rs, &l->rev, &l->c);
		l->off = (size_t)(q - l->p);
		l->cur = true;
	}
	if (l->cur && l->c.s <= upto) {
		*x = l->c;
		l->cur = false;
		l->took++;
		return true;
	}
	if (l->took == l->cnt && l->p) {
		free(l->p);
		l->p = NULL;
		l->n = l->cap = 0;
	}
	return false;
}

void sum_hsl_free(struct hs_trk *tk)
{
	pt_vec_free(&tk->lr);
	free(tk->lp.p);
	memset(&tk->lp, 0, sizeof(tk->lp));
}
