/*
 * What the host read (stream-host.c) sums for the memcpy and userdefined
 * views of a streamed GPU rank, as ranks.c and the views sum them in memory:
 *
 *  - memcpy (summary.md §3.7), when the first read finds a range whose name
 *    may say memory manipulation: per launching call, the Memcpy/Memset time
 *    and bytes of its activities (the read of the calls); on the stack each
 *    range's inclusive sums of them, like its device time; a member
 *    memory-manipulation range (a UserDefined or UserRange range named so)
 *    is an item when it leaves the stack; a runtime call that copies or
 *    fills, attached to such a range or to a range inside one, is left out
 *    of the host calls (the summing read asks sum_hsv_left_out);
 *  - userdefined (§3.8): each member UserRange range that is not a memory
 *    manipulation, by thread group, with its inclusive device time.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "pass/summary/view.h"
#include "support/sort.h"

/* Can raw string id s name a memory-manipulation range (a mangled name may demangle to one)? */
static bool maybe_mem(struct sum_hs *h, const struct pt_model *m, uint32_t s)
{
	uint8_t *c = s < h->nstr ? &h->mcache[s] : NULL;
	if (c && *c)
		return *c == 2;
	const char *t = pt_strtab_get(&m->strings, s);
	bool yes = (t[0] == '_' && t[1] == 'Z') || sum_mem_name(t);
	if (c)
		*c = yes ? 2 : 1;
	return yes;
}

void sum_hsv_scan(struct sum_hs *h, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; h->mc && !h->memr && i < ev->n; i++)
		h->memr = ev->kind[i] == PT_EV_RANGE && maybe_mem(h, m, ev->name[i]);
}

void sum_hsv_label(struct sum_hs *h, const struct pt_model *m, uint32_t label)
{
	if (h->mc && !h->memr)
		h->memr = maybe_mem(h, m, label);
}

void sum_hsv_act(struct sum_hs *h, const struct pt_model *m, size_t u, size_t i, uint64_t g)
{
	uint8_t k = m->events.kind[i];
	if (k != PT_EV_MEMCPY && k != PT_EV_MEMSET)
		return;
	if (u >= UINT32_MAX) {
		h->unsure = true; /* a unit beyond 32 bits (never: a file's events are numbered in 32): read whole */
		return;
	}
	const struct pt_copy_info *ci = pt_model_copy_info(m, (uint32_t)g);
	struct hs_mcopy *x = h->nmcopy ? &h->mcopy[h->nmcopy - 1] : NULL;
	if (!x || x->unit != u) { /* a unit's copies come together, mostly: sorted and merged later */
		if (x && x->unit > u)
			h->mcopy_unordered = true;
		pt_xgrow((void **)&h->mcopy, &h->cmcopy, h->nmcopy + 1, sizeof(*h->mcopy));
		x = &h->mcopy[h->nmcopy++];
		*x = (struct hs_mcopy){ (uint32_t)u, 0, 0 };
	}
	sum_u32_add(&x->t, &h->mbig, x->unit, m->events.dur[i]);
	if (ci)
		x->b = (x->b ? x->b : 1) + (int64_t)ci->bytes;
}

static int cmp_mcopy(const void *a, const void *b)
{
	const struct hs_mcopy *x = a, *y = b;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

void sum_hsv_acts_end(struct sum_hs *h)
{
	if (h->mcopy_sorted)
		return;
	h->mcopy_sorted = true;
	/* by unit, one entry a unit; in unit order as they came, mostly (a launch's activities follow its
	 * call's order): no sort then, whose scratch copy of the entries (8 MiB for the 334,766 calls with
	 * copies of a 1 GiB Kineto trace) came on top of the host read's peak */
	if (h->mcopy_unordered)
		pt_sort(h->mcopy, h->nmcopy, sizeof(*h->mcopy), cmp_mcopy);
	size_t n = 0;
	for (size_t k = 0; k < h->nmcopy; k++) {
		const struct hs_mcopy *x = &h->mcopy[k];
		if (n && h->mcopy[n - 1].unit == x->unit) {
			struct hs_mcopy *y = &h->mcopy[n - 1];
			if (x->t != UINT32_MAX) {
				sum_u32_add(&y->t, &h->mbig, y->unit, x->t);
			} else if (y->t != UINT32_MAX) { /* the unit's sum in mbig holds x's: and y's now */
				int64_t t = y->t;
				y->t = UINT32_MAX;
				sum_u32_add(&y->t, &h->mbig, y->unit, t);
			}
			if (x->b)
				y->b = (y->b ? y->b : 1) + x->b - 1;
		} else {
			h->mcopy[n++] = *x;
		}
	}
	h->nmcopy = n;
	if (n < h->cmcopy) { /* the vector's spare room back */
		h->mcopy = pt_xrealloc(h->mcopy, (n + 1) * sizeof(*h->mcopy));
		h->cmcopy = n + 1;
	}
}

bool sum_hsv_copies(const struct sum_hs *h, size_t u, int64_t *t, int64_t *b)
{
	size_t lo = 0, hi = h->nmcopy;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->mcopy[mid].unit < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= h->nmcopy || h->mcopy[lo].unit != u)
		return false;
	const struct hs_mcopy *x = &h->mcopy[lo];
	*t = sum_u32_get(x->t, &h->mbig, x->unit);
	*b = x->b;
	return true;
}

bool sum_hsv_copier(struct sum_hs *h, struct rank *r, uint32_t raw)
{
	return h->mc && h->memr && r->asc && sum_mc_copier(r->g, r->asc->mc, raw);
}

void sum_hsv_push(struct rank *r, struct hs_node *x, const struct hs_node *par)
{
	bool mname = (x->type == HT_USERDEF || x->type == HT_USERRANGE) && sum_mem_name(out_str(r->g, x->name));
	x->fl |= (uint16_t)((mname ? HN_MNAME : 0) | (mname || (par && (par->fl & HN_MANC)) ? HN_MANC : 0));
}

void sum_hsv_attach(struct sum_hs *h, struct rank *r, struct hs_node *x, const struct hs_pend *p, size_t unit)
{
	int64_t t, b;
	if (unit != SIZE_MAX && h->memr && sum_hsv_copies(h, unit, &t, &b)) {
		x->mgpu += t;
		if (b) {
			x->mbytes += b - 1;
			x->fl |= HN_MHAS;
		}
	}
	if (p->copier && (x->fl & HN_MANC))
		pt_vec_push(&r->hs->mcx, p->ev);
}

void sum_hsv_finish(struct rank *r, struct hs_node *par, const struct hs_node *x)
{
	struct hsres *hs = r->hs;
	if (par) { /* inclusive, as the device time */
		par->mgpu += x->mgpu;
		par->mbytes += x->mbytes;
		par->fl |= x->fl & HN_MHAS;
	}
	if (!(x->fl & HN_MEM))
		return;
	struct item *it;
	if (x->fl & HN_MNAME) {
		it = sum_items_get(&hs->mc, x->name, x->name);
		it->calls++;
		item_cpu(it, x->e - x->s);
		item_gpu(it, x->mgpu);
		it->a += x->mbytes;
		it->c |= (x->fl & HN_MHAS) != 0;
	} else if (x->type == HT_USERRANGE) {
		uint32_t gi = sum_group_of(&hs->ugs, r, x->track);
		struct grp *gr = &hs->ugs.v.v[gi];
		if (x->s < gr->first)
			gr->first = x->s;
		it = sum_items_get(&hs->ud, ((uint64_t)gi << 32) | x->name, x->name);
		it->d = gi;
		it->calls++;
		item_cpu(it, x->e - x->s);
		item_gpu(it, x->gpu);
	} else {
		return;
	}
	if (x->s < it->first)
		it->first = x->s;
}

void sum_hsv_end(struct hsres *x)
{
	pt_sort(x->mcx.v, x->mcx.n, sizeof(*x->mcx.v), pt_u64_cmp);
	x->mcur = 0;
}

bool sum_hsv_left_out(struct hsres *x, uint64_t g)
{
	while (x->mcur < x->mcx.n && x->mcx.v[x->mcur] < g)
		x->mcur++;
	return x->mcur < x->mcx.n && x->mcx.v[x->mcur] == g;
}
