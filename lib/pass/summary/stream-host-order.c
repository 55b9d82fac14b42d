/*
 * The host read (stream-host.c) of a host thread whose calls, not only its
 * ranges, the file holds out of start order (a writer's reordering). The
 * host read holds each call that the stack takes (one that launches
 * something, or copies) in a queue by start, and releases, in start order,
 * the calls that start no later than the latest start seen less the lag: no
 * later event of the thread can start before them. Each released call comes
 * after the ranges that start no later (sum_hs_put), so that the stack sees
 * the thread's ranges and calls in start order, as the whole load does
 * (ranks.c: the calls by start, one start in the file's order; the stack's
 * buffer sorts one start's calls by event). What is held is the calls of the
 * window: 60 bytes a call (its pending entry, its queue entry, a free slot).
 * The lag: where the calls are out of order about as far as the thread's
 * events (sum_hso_window), the first read's lag of its events, its ranges
 * held in the same window; otherwise its ranges are held from the read of
 * the steps, as those of any thread out of order, and that read measures the
 * lag of its other events (calls, and whatever else of the span kinds).
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/xalloc.h"

/* The held calls of thread t that start at or before wm, in start order, onto the stack's buffer. */
static void release(struct sum_hs *h, struct rank *r, uint32_t t, int64_t wm)
{
	struct hs_trk *tk = &h->trk[t];
	struct ov_ent x;
	while (sum_pendq_pop(&tk->hq, wm, &x)) {
		sum_hs_put(h, r, t, x.s, &tk->hp.v[x.f]);
		pt_vec_push(&tk->hfree, x.f);
	}
	if (tk->hfree.n == tk->hp.n) /* none held: the slots start again */
		tk->hp.n = tk->hfree.n = 0;
}

void sum_hso_hold(struct sum_hs *h, struct rank *r, uint32_t t, int64_t s, const struct hs_pend *p)
{
	struct hs_trk *tk = &h->trk[t];
	if (p) {
		uint32_t k;
		if (tk->hfree.n) {
			k = tk->hfree.v[--tk->hfree.n];
			tk->hp.v[k] = *p;
		} else {
			k = (uint32_t)tk->hp.n;
			pt_vec_push(&tk->hp, *p);
		}
		pendq_add(&tk->hq, (struct ov_ent){ s, p->e, k });
	}
	if (!tk->hseen || s > tk->htop)
		tk->htop = s;
	tk->hseen = true;
	release(h, r, t, pt_lag_floor(&tk->cl, true, tk->htop));
}

void sum_hso_drain(struct sum_hs *h, struct rank *r, uint32_t t)
{
	if (h->trk[t].hp.n)
		release(h, r, t, INT64_MAX);
}

void sum_hso_free(struct hs_trk *tk)
{
	sum_pendq_free(&tk->hq);
	pt_vec_free(&tk->hp);
	pt_vec_free(&tk->hfree);
}

/*
 * Zero-length ranges with one start: in §2.2 order they come after that
 * start's other ranges, and each leaves the stack when the next is pushed
 * (the stack rule nests none in another), so that they are siblings. A call
 * at that start is held by all of them; the whole load attaches it to the
 * first in §2.2 order (ranks.c hr_better: one depth, one start, one length),
 * which the stack has passed. Pushed with that first one last, it is the one
 * on the stack when the calls come; the others take no call either way (a
 * call holds a zero-length range only at its start), and their sums do not
 * depend on the order they leave the stack in.
 */
void sum_hso_zero_last(struct hs_pend *v, size_t n, int64_t at)
{
	size_t a = 0;
	while (a < n && !v[a].call && v[a].e != at)
		a++;
	size_t b = a;
	while (b < n && !v[b].call && v[b].e == at)
		b++;
	if (b - a < 2)
		return;
	struct hs_pend first = v[a];
	memmove(v + a, v + a + 1, (b - a - 1) * sizeof(*v));
	v[b - 1] = first;
}

/*
 * A thread whose calls are out of start order about as far as its events
 * are (its ranges in order among them, or out of order no farther) takes one
 * window for its ranges and calls, the first read's lag of its events: what
 * is held is the events of that window, not every range of the thread. One
 * whose ranges come much later than its calls (a CUPTI dump's NVTX ranges
 * after its calls) has its ranges held, its calls in their own window.
 */
void sum_hso_scan(struct sum_hs *h, const struct pt_model *m)
{
	if (m->tracks.n > h->nolag) {
		h->olag = pt_xrealloc(h->olag, m->tracks.n * sizeof(*h->olag));
		memset(h->olag + h->nolag, 0, (m->tracks.n - h->nolag) * sizeof(*h->olag));
		h->nolag = m->tracks.n;
	}
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (k == PT_EV_API || is_dev_activity(k) || k == PT_EV_AICPU || k == PT_EV_TASK)
			pt_lag_add(&h->olag[ev->track[i]], ev->start[i]);
	}
}

bool sum_hso_window(const struct sum_hs *h, size_t t, const struct pt_lag *lag)
{
	if (t >= h->nolag || !h->olag[t].lag)
		return false;
	return lag->lag / 2 <= h->olag[t].lag;
}
