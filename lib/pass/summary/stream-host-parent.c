/*
 * Explicit parents (NVTX typed domains, cupti.md §6.6) in the host read of a
 * streamed GPU rank (stream-host.c): summary.md §2.2 rule 1 uses such a link
 * as it is, the other ranges nest by time.
 *
 * The first read keeps each range's link beside its event (sum_hs ranges):
 * from the first range with one, a byte a range without one and the zigzag
 * varint of its event less its parent's for one with one (a byte or two),
 * read in order through the cursor of the range infos. The host read keeps
 * no range past its stack: a range whose parent is on its thread's stack
 * when it is pushed takes that parent (its depth, its flags; its sums go to
 * it when it leaves the stack, which is before the parent leaves: the parent
 * is under it), and its nesting end is its end (no clipping, no violation).
 * A call then attaches as §2.3 says, to the deepest range of the stack that
 * holds it (ties: the latest start, the shortest, the first pushed), which is
 * no longer the one nearest the top. A parent the stack does not hold (it
 * ended before its child starts, it comes later, a cycle, an instant marker)
 * and zero-length ranges with one start and an explicit parent among them
 * (pushed in another order than the whole load's) make the summary read the
 * model whole after all (sum_hs unsure): the same bytes, as the whole load
 * gives them.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/varint.h"
#include "support/xalloc.h"

void sum_hsp_range(struct sum_hs *h, const struct pt_range_info *ri)
{
	if (!ri->parent && !h->rpar)
		return;
	size_t n = h->nr; /* the ranges before this one */
	if (!h->rpar) { /* the first link: a 0 for each range before it */
		pt_xgrow((void **)&h->rpar, &h->crpar, n + 10, 1);
		memset(h->rpar, 0, n);
		h->nrpar = n;
	}
	pt_xgrow((void **)&h->rpar, &h->crpar, h->nrpar + 10, 1);
	uint64_t v = ri->parent ? pt_zigzag((int64_t)ri->event - (int64_t)(ri->parent - 1)) : 0;
	h->nrpar = (size_t)(pt_varint_put(h->rpar + h->nrpar, v) - h->rpar);
}

void sum_hsp_next(struct sum_hs *h)
{
	const uint8_t *q = h->rpar + h->rpoff;
	uint64_t v = pt_varint_take(&q);
	h->rpoff = (size_t)(q - h->rpar);
	h->rpcur = v ? (uint32_t)((int64_t)h->rval - pt_unzigzag(v)) + 1 : 0;
}

uint32_t sum_hsp_parent(struct sum_hs *h, const struct hs_trk *tk, const struct hs_pend *p, bool *xp)
{
	*xp = false;
	if (!p->corr)
		return (uint32_t)tk->st.n;
	for (size_t k = tk->st.n; k-- > 0;)
		if ((uint64_t)tk->st.v[k].ev + 1 == p->corr) {
			*xp = true;
			return (uint32_t)k + 1;
		}
	h->unsure = true; /* not on the stack: the whole load's nesting */
	return (uint32_t)tk->st.n;
}

/* Does range x hold a call at `at` (ranks.c hr_holds: nesting ends; a zero-length range at its start)? */
static bool holds(const struct hs_node *x, int64_t at)
{
	return x->s <= at && (at < x->ne || (x->s == x->ne && at == x->s));
}

size_t sum_hsp_pick(const struct hs_trk *tk, int64_t at)
{
	size_t best = SIZE_MAX;
	for (size_t k = 0; k < tk->st.n; k++) {
		const struct hs_node *x = &tk->st.v[k];
		if (!holds(x, at))
			continue;
		if (best != SIZE_MAX) { /* ranks.c hr_better; the first pushed wins a tie */
			const struct hs_node *y = &tk->st.v[best];
			if (x->depth != y->depth ? x->depth < y->depth
			    : x->s != y->s	 ? x->s < y->s
			    : x->ne - x->s != y->ne - y->s ? x->ne - x->s > y->ne - y->s
							   : true)
				continue;
		}
		best = k;
	}
	return best;
}

void sum_hsp_zero(struct sum_hs *h, const struct hs_pend *v, size_t n, int64_t at)
{
	size_t zero = 0;
	bool linked = false;
	for (size_t k = 0; k < n; k++)
		if (!v[k].call && v[k].e == at) {
			zero++;
			linked |= v[k].corr != 0;
		}
	if (zero > 1 && linked)
		h->unsure = true;
}
