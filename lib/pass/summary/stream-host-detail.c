/*
 * The operator view's --op-detail rows (summary.md §3.5) of a streamed GPU rank
 * with host ranges (stream-host.c): under each member operator, its children
 * (summed by name) and the device rows of the activities its own calls launch,
 * and under each child row the device rows of the child's own calls.
 *
 * The host read holds no range past its stack: a range gets its operator item
 * and its row in its parent's item when it is pushed, its child row its sums
 * when it leaves the stack (its inclusive device time is final then), and the
 * unit of each call attached to it a target (4 bytes a unit): the item and
 * child row its activities go to, one of the few distinct pairs. The summing
 * read adds each activity to its unit's target by its name.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/xalloc.h"

void sum_hsd_push(struct sum_hs *h, struct rank *r, struct hs_trk *tk, const struct hs_node *x)
{
	if (!h->opd)
		return;
	struct hsres *hs = r->hs;
	struct hs_dnode d = { 0, 0, 0 };
	if (x->type == HT_OPERATOR && (x->fl & HN_MEM)) {
		uint32_t gi = sum_group_of(&hs->gs, r, x->track);
		struct item *it = sum_items_get(&hs->op, ((uint64_t)gi << 32) | x->name, x->name);
		it->d = gi;
		d.oi = (uint32_t)(it - hs->op.v.v) + 1;
	}
	uint32_t poi = x->par ? tk->dst.v[x->par - 1].oi : 0; /* its parent's (the range under it, or explicit) */
	if (poi) {
		struct item *p = &hs->op.v.v[poi - 1];
		/* (a step's name is raw: sum_hs_hosts) */
		uint32_t nm = x->type == HT_STEP ? sum_out_name(r->g, x->name, false) : x->name;
		d.ci = (uint32_t)(sum_sub_get(p, nm, 0) - p->sub.v) + 1;
	}
	pt_vec_push(&tk->dst, d);
}

/* The index + 1 of target t, added when new. */
static uint32_t target(struct sum_hs *h, struct hs_tgt t)
{
	uint64_t key = pt_hash64(((uint64_t)t.q << 32 | t.a) ^ pt_hash64((uint64_t)t.p << 32 | t.c));
	for (;; key++) {
		bool added;
		uint64_t *v = pt_hashmap_put(&h->tgh, key, h->tg.n + 1, &added);
		if (added) {
			pt_vec_push(&h->tg, t);
			return (uint32_t)*v;
		}
		if (!memcmp(&h->tg.v[*v - 1], &t, sizeof(t)))
			return (uint32_t)*v;
	}
}

void sum_hsd_attach(struct sum_hs *h, uint32_t q, struct hs_trk *tk, size_t k, size_t unit)
{
	if (!h->tgt)
		return;
	struct hs_dnode *x = &tk->dst.v[k];
	if (!x->tg)
		x->tg = x->oi || x->ci ? target(h, (struct hs_tgt){ q, x->oi, x->ci ? tk->dst.v[tk->st.v[k].par - 1].oi : 0,
								       x->ci })
				       : UINT32_MAX;
	h->tgt[unit] = x->tg == UINT32_MAX ? 0 : x->tg;
}

uint32_t sum_hsd_finish(struct rank *r, struct hs_trk *tk, const struct hs_node *x)
{
	if (!tk->dst.n)
		return 0; /* no --op-detail */
	struct hs_dnode d = tk->dst.v[--tk->dst.n];
	if (d.ci) {
		struct item *s = &r->hs->op.v.v[tk->dst.v[x->par - 1].oi - 1].sub.v[d.ci - 1];
		s->calls++;
		item_cpu(s, x->e - x->s);
		item_gpu(s, x->gpu);
		if (x->s < s->first)
			s->first = x->s;
	}
	return d.oi;
}

static void act_row(struct item *x, uint32_t name, int64_t s, int64_t d)
{
	struct item *y = sum_sub_get(x, name, 1);
	y->calls++;
	item_gpu(y, d);
	if (s < y->first)
		y->first = s;
}

void sum_hsd_act(struct sum_hs *h, const struct pt_model *m, size_t u, size_t i)
{
	uint32_t t = h->tgt ? h->tgt[u] : 0;
	if (!t)
		return;
	const struct hs_tgt *c = &h->tg.v[t - 1];
	struct rank *r = h->rr[c->q];
	uint32_t nm = sum_act_name(r->g, i);
	int64_t s = m->events.start[i], d = m->events.dur[i];
	if (c->a) /* first: item a may be item p (a child of its own name), whose rows move then */
		act_row(&r->hs->op.v.v[c->a - 1], nm, s, d);
	if (c->c)
		act_row(&r->hs->op.v.v[c->p - 1].sub.v[c->c - 1], nm, s, d);
}
