/*
 * Ranks of the summary (summary.md §2.1): one per Ascend device; one per
 * traced process (CUPTI: the process's CPU device and its GPUs). Per rank the
 * preparation runs once: steps, disjoint windows, W, membership; GPU ranks
 * also build the host model of §2.2–§2.4: host ranges with types and
 * parents, runtime calls attached to ranges, device activities attributed
 * through their launching call, inclusive GPU sums, kernel classes (§2.5).
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"
#include "pass/summary/view.h"

#include <ctype.h>
#include <string.h>

#include "support/sort.h"
#include "support/xalloc.h"

static int cmp_win(const void *a, const void *b)
{
	const struct win *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

/* The windows in (start, end) order: a sort only when they are not (glibc's qsort would take a copy of
 * them, 32 bytes a step, even in order). */
static void sort_wins(struct win *v, size_t n)
{
	for (size_t k = 1; k < n; k++)
		if (cmp_win(&v[k - 1], &v[k]) > 0) {
			pt_sort(v, n, sizeof(*v), cmp_win);
			return;
		}
}

static int type_of(const struct pt_model *m, const struct pt_range_info *ri)
{
	if (!ri || !ri->type)
		return HT_USERRANGE;
	const char *t = pt_strtab_get(&m->strings, ri->type);
	for (int k = 0; k < HT_NTYPES; k++)
		if (!strcmp(t, sum_htype_names[k]))
			return k;
	return HT_USERRANGE;
}

/* The context of the §2.2 sort. */
struct hr_order {
	const struct hr *hv;
	struct ctx *g;
};

/* §2.2 rule 2 order: start asc, end desc, type order, name. */
static int cmp_hr(const void *pa, const void *pb, void *arg)
{
	const struct hr_order *hr_sort = arg;
	const struct hr *a = &hr_sort->hv[*(const uint32_t *)pa], *b = &hr_sort->hv[*(const uint32_t *)pb];
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	int c = strcmp(out_str(hr_sort->g, a->name), out_str(hr_sort->g, b->name));
	if (c)
		return c;
	return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Is range h a candidate for a call starting at t (§2.3, nesting ends)? A zero-length range holds a call at its start. */
static bool hr_holds(const struct hr *h, int64_t t)
{
	return h->s <= t && (t < h->ne || (h->s == h->ne && t == h->s));
}

/* Is a better attachment than b for the same call (§2.3)? */
static bool hr_better(const struct hr *hv, uint32_t a, uint32_t b)
{
	const struct hr *x = &hv[a], *y = &hv[b];
	if (x->depth != y->depth)
		return x->depth > y->depth;
	if (x->s != y->s)
		return x->s > y->s;
	if (x->ne - x->s != y->ne - y->s)
		return x->ne - x->s < y->ne - y->s;
	return a < b;
}

static void build_csr(size_t n, size_t nitems, const uint32_t *owner, const uint32_t *val, uint32_t **off,
		      uint32_t **out)
{
	*off = pt_xcalloc(n + 2, sizeof(**off));
	*out = pt_xmalloc((nitems ? nitems : 1) * sizeof(**out));
	for (size_t k = 0; k < nitems; k++)
		(*off)[owner[k] + 1]++;
	for (size_t k = 0; k < n; k++)
		(*off)[k + 1] += (*off)[k];
	uint32_t *fill = pt_xmalloc((n + 1) * sizeof(*fill));
	memcpy(fill, *off, (n + 1) * sizeof(*fill));
	for (size_t k = 0; k < nitems; k++)
		(*out)[fill[owner[k]]++] = val[k];
	free(fill);
}

/* Is a GPU kernel of this raw name communication by its name (§2.5)? Decided once per name. */
bool sum_kname_comm(struct ctx *g, uint32_t raw)
{
	uint8_t *kn = &g->kname[raw < g->m->strings.n ? raw : 0];
	if (!*kn)
		*kn = sum_comm_kernel_name(g, out_str(g, sum_out_name(g, raw, false))) ? 2 : 1;
	return *kn == 2;
}

void sum_gpu_prepare(struct rank *r)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint32_t *link = g->link;
	/* 1. host ranges, per thread track in the order of §2.2 */
	PT_VEC(struct hr) hv = { 0 };
	PT_VEC(uint32_t) seg = { 0 }; /* track segment starts */
	for (uint32_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track *tk = &m->tracks.v[t];
		if (!r->devin[tk->device] || tk->kind != PT_TRACK_HOST_THREAD)
			continue;
		size_t n;
		const uint32_t *idx = pt_index_track_events(g->x, t, &n);
		size_t h0 = hv.n;
		for (size_t k = 0; k < n; k++) {
			uint32_t i = idx[k];
			if (ev->kind[i] != PT_EV_RANGE)
				continue;
			const struct pt_range_info *ri = sum_range_info(m, i);
			if (ri && (ri->flags & PT_RANGE_INSTANT))
				continue;
			struct hr h = { .ev = i, .track = t, .s = ev->start[i], .e = ev->start[i] + ev->dur[i] };
			h.type = (uint8_t)type_of(m, ri);
			h.name = sum_out_name(g, ri && ri->label ? ri->label : ev->name[i], false);
			if (h.type != HT_STEP &&
			    !regexec(&g->step_re, pt_strtab_get(&m->strings, ev->name[i]), 0, NULL, 0))
				h.type = HT_STEP;
			pt_vec_push(&hv, h);
		}
		if (hv.n > h0)
			pt_vec_push(&seg, (uint32_t)h0);
	}
	size_t nh = hv.n;
	pt_vec_push(&seg, (uint32_t)nh);
	/* sort each segment into §2.2 order (through a permutation) */
	uint32_t *perm = pt_xmalloc((nh ? nh : 1) * sizeof(*perm));
	for (size_t k = 0; k < nh; k++)
		perm[k] = (uint32_t)k;
	struct hr_order hr_sort = { hv.v, g };
	for (size_t s = 0; s + 1 < seg.n; s++)
		sum_sort(perm + seg.v[s], seg.v[s + 1] - seg.v[s], sizeof(*perm), cmp_hr, &hr_sort);
	/* put the ranges in that order where they are (H[k] = the range perm[k] was), one cycle of the
	 * permutation at a time: no second array of them (on a 1 GiB Kineto trace, 80 MiB) */
	for (size_t k = 0; k < nh; k++) {
		if (perm[k] == k)
			continue;
		struct hr tmp = hv.v[k];
		size_t j = k;
		for (;;) {
			size_t p = perm[j];
			perm[j] = (uint32_t)j;
			if (p == k) {
				hv.v[j] = tmp;
				break;
			}
			hv.v[j] = hv.v[p];
			j = p;
		}
	}
	free(perm);
	struct hr *H = pt_xrealloc(hv.v, (nh ? nh : 1) * sizeof(*H)); /* the vector's spare room back */
	for (size_t k = 0; k < nh; k++)
		link[H[k].ev] = (uint32_t)k + 1;
	/* 2. nesting: explicit parents as they are, otherwise the stack rule */
	uint32_t *stack = pt_xmalloc((nh + 1) * sizeof(*stack));
	for (size_t s = 0; s + 1 < seg.n; s++) {
		size_t sp = 0;
		for (uint32_t k = seg.v[s]; k < seg.v[s + 1]; k++) {
			struct hr *h = &H[k];
			while (sp && H[stack[sp - 1]].ne <= h->s)
				sp--;
			const struct pt_range_info *ri = sum_range_info(m, h->ev);
			uint32_t xp = ri && ri->parent && ri->parent <= ev->n ? link[ri->parent - 1] : 0;
			h->ne = h->e;
			if (xp && xp - 1 != k && H[xp - 1].track == h->track) {
				h->parent = xp;
			} else if (sp) {
				const struct hr *top = &H[stack[sp - 1]];
				h->parent = stack[sp - 1] + 1;
				if (h->e > top->ne) {
					h->ne = top->ne;
					g->violations++;
				}
			}
			stack[sp++] = k;
		}
	}
	/* depth (explicit links may point forward or form a cycle: a cycle is cut) */
	uint8_t *st = pt_xcalloc(nh + 1, 1);
	for (size_t k = 0; k < nh; k++) {
		size_t sp = 0;
		uint32_t c = (uint32_t)k;
		while (st[c] != 2) {
			if (st[c] == 1) { /* cycle: cut the link of the node closing it */
				H[c].parent = 0;
				break;
			}
			st[c] = 1;
			stack[sp++] = c;
			if (!H[c].parent)
				break;
			c = H[c].parent - 1;
		}
		while (sp) {
			uint32_t y = stack[--sp];
			H[y].depth = H[y].parent && st[H[y].parent - 1] == 2 ? H[H[y].parent - 1].depth + 1 : 0;
			if (H[y].parent && st[H[y].parent - 1] != 2)
				H[y].parent = 0;
			st[y] = 2;
		}
	}
	free(st);
	/* depth order (counting sort) */
	uint32_t maxd = 0;
	for (size_t k = 0; k < nh; k++)
		if (H[k].depth > maxd)
			maxd = H[k].depth;
	uint32_t *cnt = pt_xcalloc((size_t)maxd + 2, sizeof(*cnt));
	for (size_t k = 0; k < nh; k++)
		cnt[H[k].depth + 1]++;
	for (uint32_t d = 0; d <= maxd; d++)
		cnt[d + 1] += cnt[d];
	r->by_depth = pt_xmalloc((nh ? nh : 1) * sizeof(*r->by_depth));
	for (size_t k = 0; k < nh; k++)
		r->by_depth[cnt[H[k].depth]++] = (uint32_t)k;
	free(cnt);
	/* flags, top-down */
	for (size_t q = 0; q < nh; q++) {
		struct hr *h = &H[r->by_depth[q]];
		const struct hr *p = h->parent ? &H[h->parent - 1] : NULL;
		const char *nm = out_str(g, h->name);
		h->comm = h->type == HT_COMM || (h->type == HT_OPERATOR && sum_comm_op_name(g, nm));
		h->comm_anc = h->comm || (p && p->comm_anc);
		h->outer = is_phase(h->type) && !(p && p->phase_anc);
		h->phase_anc = is_phase(h->type) || (p && p->phase_anc);
		h->step_anc = h->type == HT_STEP || (p && p->step_anc);
		h->memname = (h->type == HT_USERDEF || h->type == HT_USERRANGE) && sum_mem_name(nm);
		h->mem_anc = h->memname || (p && p->mem_anc);
	}
	/* 3. runtime calls -> host ranges (§2.3): sweep per thread with the active candidates */
	PT_VEC(uint32_t) active = { 0 };
	for (size_t s = 0; s + 1 < seg.n; s++) {
		uint32_t t = H[seg.v[s]].track;
		size_t n;
		const uint32_t *idx = pt_index_track_events(g->x, t, &n);
		uint32_t hi = seg.v[s], he = seg.v[s + 1];
		active.n = 0;
		for (size_t k = 0; k < n; k++) {
			uint32_t i = idx[k];
			if (ev->kind[i] != PT_EV_API)
				continue;
			int64_t at = ev->start[i];
			while (hi < he && H[hi].s <= at)
				pt_vec_push(&active, hi++);
			uint32_t best = UINT32_MAX;
			size_t w = 0;
			for (size_t a = 0; a < active.n; a++) {
				const struct hr *h = &H[active.v[a]];
				if (h->ne < at || (h->ne == at && h->s < h->ne))
					continue; /* ended before this call: never a candidate again */
				active.v[w++] = active.v[a];
				if (hr_holds(h, at) && (best == UINT32_MAX || hr_better(H, active.v[a], best)))
					best = active.v[a];
			}
			active.n = w;
			link[i] = best == UINT32_MAX ? 0 : best + 1;
		}
	}
	pt_vec_free(&active);
	free(stack);
	pt_vec_free(&seg);
	/* 4. device activities -> launching call (cupti.md §6.3 links, else the correlation id) */
	if (m->links.n) {
		for (size_t k = 0; k < m->links.n; k++) {
			const struct pt_gpu_link *l = &m->links.v[k];
			/* the call in the same rank (the reader checks it: proftool-model(5)),
			 * so that link[api] is an index of this rank's host ranges */
			if (l->event < ev->n && l->api < ev->n && r->devin[track_dev(m, l->event)] &&
			    r->devin[track_dev(m, l->api)] && ev->kind[l->api] == PT_EV_API)
				link[l->event] = l->api + 1;
		}
	} else {
		struct pt_hashmap corr;
		pt_hashmap_init(&corr);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && ev->corr[i] && in_rank(r, i))
				*pt_hashmap_put(&corr, ev->corr[i], i + 1, NULL) = i + 1;
		for (size_t i = 0; i < ev->n; i++)
			if (is_dev_activity(ev->kind[i]) && ev->corr[i] && in_rank(r, i)) {
				uint64_t *a = pt_hashmap_get(&corr, ev->corr[i]);
				link[i] = a ? (uint32_t)*a : 0;
			}
		pt_hashmap_free(&corr);
	}
	/* 5. self sums, direct activity lists, kernel classes, then inclusive sums bottom-up */
	PT_VEC(uint32_t) own = { 0 }, val = { 0 };
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!is_dev_activity(k) || !in_rank(r, i))
			continue;
		/* the rank's launch span (coverage): the launching call's start, else the activity's times */
		uint32_t api = api_of(r, i);
		int64_t la = api ? ev->start[api - 1] : ev->start[i], lb = api ? la : ev->start[i] + ev->dur[i];
		if (!r->has_launch_span) {
			r->has_launch_span = true;
			r->launch_a = la;
			r->launch_b = lb;
		}
		r->launch_a = la < r->launch_a ? la : r->launch_a;
		r->launch_b = lb > r->launch_b ? lb : r->launch_b;
		uint32_t h = hr_of_act(r, i);
		if (h) {
			struct hr *x = &H[h - 1];
			x->gpu += ev->dur[i];
			if (k == PT_EV_MEMCPY || k == PT_EV_MEMSET) {
				x->gpu_mem += ev->dur[i];
				const struct pt_copy_info *ci = sum_copy_info(g, i);
				if (ci) {
					x->bytes += (int64_t)ci->bytes;
					x->has_bytes = true;
				}
			}
			pt_vec_push(&own, h - 1);
			pt_vec_push(&val, (uint32_t)i);
		}
		if (is_kernel(k)) {
			bool c = sum_kname_comm(g, ev->name[i]) || (h && H[h - 1].comm_anc);
			g->cls[i] = c ? 2 : 1;
			if (c != pt_index_is_comm(g->x, i))
				r->local_cm = true;
		}
	}
	build_csr(nh, own.n, own.v, val.v, &r->act_off, &r->act);
	pt_vec_free(&own);
	pt_vec_free(&val);
	for (size_t q = nh; q-- > 0;) {
		const struct hr *h = &H[r->by_depth[q]];
		if (!h->parent)
			continue;
		struct hr *p = &H[h->parent - 1];
		p->gpu += h->gpu;
		p->gpu_mem += h->gpu_mem;
		p->bytes += h->bytes;
		p->has_bytes |= h->has_bytes;
	}
	/* children (CSR in §2.2 order) */
	uint32_t *po = pt_xmalloc((nh ? nh : 1) * sizeof(*po)), *pv = pt_xmalloc((nh ? nh : 1) * sizeof(*pv));
	size_t np = 0;
	for (size_t k = 0; k < nh; k++)
		if (H[k].parent) {
			po[np] = H[k].parent - 1;
			pv[np++] = (uint32_t)k;
		}
	build_csr(nh, np, po, pv, &r->kid_off, &r->kid);
	free(po);
	free(pv);
	r->hr = H;
	r->nhr = nh;
	/* local C/M sets when the classes differ from the index's (attribution rule, --comm-pattern) */
	if (r->local_cm) {
		r->lc = pt_xcalloc(m->devices.n + 1, sizeof(*r->lc));
		r->lm = pt_xcalloc(m->devices.n + 1, sizeof(*r->lm));
		for (uint32_t d = 0; d < m->devices.n; d++) {
			if (!r->devin[d] || m->devices.v[d].kind != PT_DEV_GPU)
				continue;
			struct ivl c = { 0 }, k = { 0 };
			for (size_t i = 0; i < ev->n; i++)
				if (is_kernel(ev->kind[i]) && track_dev(m, i) == d)
					sum_ivl_add(g->cls[i] == 2 ? &k : &c, ev->start[i], ev->start[i] + ev->dur[i]);
			pt_ivset_build(&r->lc[d], c.v, c.n);
			pt_ivset_build(&r->lm[d], k.v, k.n);
			free(c.v);
			free(k.v);
		}
	}
}

const struct pt_ivset *sum_rank_comp(struct rank *r, uint32_t d)
{
	return r->local_cm ? &r->lc[d] : pt_index_comp(r->g->x, d);
}

const struct pt_ivset *sum_rank_comm(struct rank *r, uint32_t d)
{
	return r->local_cm ? &r->lm[d] : pt_index_comm(r->g->x, d);
}

void sum_rank_breakdown(struct rank *r, uint32_t d, struct pt_breakdown *b)
{
	if (!r->local_cm) {
		pt_index_breakdown_set(r->g->x, d, &r->W, b);
		return;
	}
	struct pt_ivset u = { 0 };
	pt_ivset_union(&u, &r->lc[d], &r->lm[d]);
	memset(b, 0, sizeof(*b));
	int64_t total = 0, either = 0;
	for (size_t k = 0; k < r->W.n; k++) {
		int64_t a = r->W.v[k].s, e = r->W.v[k].e;
		total += e - a;
		b->computation += pt_ivset_measure_in(&r->lc[d], a, e);
		b->communication += pt_ivset_measure_in(&r->lm[d], a, e);
		either += pt_ivset_measure_in(&u, a, e);
	}
	pt_ivset_free(&u);
	b->overlapped = b->computation + b->communication - either;
	b->comm_not_overlapped = b->communication - b->overlapped;
	b->free = total - either;
}

/* Is event kind k one of the device's data (the streaming scan's span kinds)? */
static bool span_kind(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET || k == PT_EV_API ||
	       k == PT_EV_RANGE || k == PT_EV_AICPU;
}

/* A rank's coverage (proftool(1) Coverage): the kept steps that the span of the device's data
 * meets; when that is some, not all, of them, only those stay kept. A GPU rank's span is that of
 * its launches (pass-steps-cover.c, the same rule as steps, hints and flops), gathered by
 * sum_gpu_prepare() where the launch links are known: [first, last] launch, a closed span (a
 * launch is an instant); streamed, the host read's launch span (stream-host.c). A GPU rank streamed
 * without it has no host ranges, so no steps: it never comes here. */
static void coverage(struct rank *r)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	int64_t a = INT64_MAX, b = INT64_MIN;
	if (!r->ascend) {
		if (r->has_launch_span) {
			a = r->launch_a;
			b = r->launch_b;
		}
	} else if (g->scan) {
		a = g->scan->lo[r->dev];
		b = g->scan->hi[r->dev];
	} else {
		const struct pt_events *ev = &m->events;
		for (size_t i = 0; i < ev->n; i++)
			if (m->tracks.v[ev->track[i]].device == r->dev && span_kind(ev->kind[i])) {
				a = ev->start[i] < a ? ev->start[i] : a;
				b = ev->start[i] + ev->dur[i] > b ? ev->start[i] + ev->dur[i] : b;
			}
	}
	if (a > b)
		return; /* no device data at all: nothing partial */
	size_t kept = 0, cov = 0, first = SIZE_MAX, last = 0;
	bool *c = pt_xcalloc(r->nw ? r->nw : 1, sizeof(*c));
	for (size_t k = 0; k < r->nw; k++) {
		const struct win *x = &r->w[k];
		if (!x->kept)
			continue;
		kept++;
		c[k] = x->e > x->s ? (r->ascend ? x->s < b : x->s <= b) && x->e > a : x->s >= a && x->s <= b;
		if (!c[k])
			continue;
		if (!cov++)
			r->cov_lo = r->cov_hi = x->num;
		r->cov_lo = x->num < r->cov_lo ? x->num : r->cov_lo;
		r->cov_hi = x->num > r->cov_hi ? x->num : r->cov_hi;
		first = first == SIZE_MAX ? k : first;
		last = k;
	}
	r->cov_runs = true;
	for (size_t k = first; first != SIZE_MAX && k <= last; k++)
		r->cov_runs &= !r->w[k].kept || c[k];
	r->cov_kept = kept;
	r->cov_covered = cov;
	r->cov_a = a;
	r->cov_b = b;
	r->cov_partial = cov < kept;
	if (r->cov_partial)
		r->filtered = true; /* the views count what lies in the kept windows only */
	for (size_t k = 0; k < r->nw && r->cov_partial; k++)
		r->w[k].kept = r->w[k].kept && c[k];
	free(c);
}

int sum_rank_prepare(struct rank *r, struct pt_err **e)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	const struct pt_summary_opts *o = g->o;
	(void)e;
	/* stream tracks of the rank */
	r->tracks = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*r->tracks));
	r->atracks = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*r->atracks));
	for (uint32_t t = 0; t < m->tracks.n; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!(r->ascend ? d == r->dev : r->devin[d]))
			continue;
		r->atracks[r->natracks++] = t;
		if (m->tracks.v[t].kind == PT_TRACK_STREAM)
			r->tracks[r->ntracks++] = t;
	}
	PT_VEC(struct win) w = { 0 };
	PT_VEC(struct winx) wx = { 0 };
	if (r->ascend) {
		size_t mine = 0; /* no growth room for either vector */
		for (size_t i = 0; i < m->steps.n; i++)
			mine += m->steps.v[i].device == r->dev;
		if (mine) {
			pt_vec_reserve(&w, mine);
			pt_vec_reserve(&wx, mine);
		}
		for (size_t i = 0; i < m->steps.n; i++) {
			const struct pt_step *s = &m->steps.v[i];
			if (s->device != r->dev || !(s->has & PT_STEP_HAS_START) || !(s->has & PT_STEP_HAS_END) ||
			    s->end < s->start)
				continue;
			struct win x = { .s = s->start, .e = s->end, .num = s->step, .x = (uint32_t)wx.n };
			struct winx a = { .sp = s->start, .end = s->end, .fp = s->fp, .bp = s->bp, .has = s->has };
			pt_vec_push(&w, x);
			pt_vec_push(&wx, a);
		}
	} else {
		/* streamed: no view reads host ranges (gpu_streamable), or the host read sums them
		 * (stream-host.c), whose earlier reads found the steps and the launch span */
		struct sum_hs *hs = g->scan ? g->scan->hs : NULL;
		uint32_t q = hs ? sum_hs_rank(hs, r) : 0; /* streamed: the rank's steps and spans */
		if (!g->scan)
			sum_gpu_prepare(r);
		if (hs) {
			r->has_launch_span = hs->rs[q].has_span;
			r->launch_a = hs->rs[q].la;
			r->launch_b = hs->rs[q].lb;
		}
		bool all_hash = true;
		size_t nst = hs ? hs->steps.n : 0, mine = 0;
		for (size_t k = 0; k < nst; k++)
			mine += hs->steps.v[k].rank == q;
		if (mine) /* no growth room: 32 bytes a step, 167,383 steps in a 1 GiB Kineto trace */
			pt_vec_reserve(&w, mine);
		for (size_t k = 0; k < r->nhr + nst; k++) {
			struct win x = { 0 };
			uint32_t raw;
			if (k < r->nhr) {
				const struct hr *h = &r->hr[k];
				if (h->type != HT_STEP)
					continue;
				x.s = h->s;
				x.e = h->e;
				raw = ev->name[h->ev];
			} else {
				const struct hs_step *st = &hs->steps.v[k - r->nhr];
				if (st->rank != q)
					continue; /* another process's */
				x.s = st->s;
				x.e = st->e;
				raw = st->name;
			}
			const char *nm = pt_strtab_get(&m->strings, raw);
			const char *hs = strrchr(nm, '#');
			char *end = NULL;
			if (hs && isdigit((unsigned char)hs[1]))
				x.num = strtoll(hs + 1, &end, 10);
			if (!hs || !end || *end)
				all_hash = false;
			pt_vec_push(&w, x);
		}
		if (mine) { /* the rank's steps are its windows now: the host read's list lets them go, and
			     * is freed once every rank has taken its own, before W is built */
			size_t n = 0;
			for (size_t k = 0; k < nst; k++)
				if (hs->steps.v[k].rank != q)
					hs->steps.v[n++] = hs->steps.v[k];
			hs->steps.n = n;
			if (!n)
				pt_vec_free(&hs->steps);
		}
		sort_wins(w.v, w.n);
		if (all_hash && w.n > 1) { /* a number twice: all are renumbered */
			int64_t *nums = pt_xmalloc(w.n * sizeof(*nums));
			for (size_t k = 0; k < w.n; k++)
				nums[k] = w.v[k].num;
			all_hash = pt_i64_distinct(nums, w.n);
			free(nums);
		}
		for (size_t k = 0; k < w.n && !all_hash; k++)
			w.v[k].num = (int64_t)k + 1;
	}
	sort_wins(w.v, w.n);
	for (size_t k = 0; k + 1 < w.n; k++)
		if (w.v[k].e > w.v[k + 1].s)
			w.v[k].e = w.v[k + 1].s;
	if (w.n)
		w.v[0].first = true;
	r->w = pt_xrealloc(w.v, (w.n ? w.n : 1) * sizeof(*w.v)); /* the vector's spare room back */
	r->wx = wx.n ? pt_xrealloc(wx.v, wx.n * sizeof(*wx.v)) : NULL; /* the same */
	r->nw = w.n;
	r->has_steps = w.n > 0;
	r->filtered = g->sel.steps || g->sel.window;
	int64_t ta = g->sel.a, tb = g->sel.b;
	r->ta = ta;
	r->tb = tb;
	struct ivl l = { 0 };
	if (r->has_steps) {
		l.v = pt_xmalloc(r->nw * sizeof(*l.v)); /* no growth room: a window a step at most */
		l.cap = r->nw;
		for (size_t k = 0; k < r->nw; k++) {
			struct win *x = &r->w[k];
			x->kept = pt_sel_res_step(&g->sel, x->num);
		}
		/* a GPU rank: not when only the flat views (kernel, api) are asked, which stream, read no
		 * host ranges and so are over the whole data: in memory too, so that their figures do not
		 * depend on the path (a streamed GPU rank never has steps: stream.c) */
		if (o->coverage && (r->ascend || ((!g->scan || g->scan->hs) && (o->views & ~sum_views_with(SV_FLAT)))))
			coverage(r);
		for (size_t k = 0; k < r->nw; k++) {
			struct win *x = &r->w[k];
			if (x->kept)
				sum_ivl_add(&l, x->s > ta ? x->s : ta, x->e < tb ? x->e : tb);
		}
	} else {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		if (g->scan && g->scan->hs && !r->ascend) { /* the host read's span: host ranges, not markers */
			const struct hs_rspan *rs = &g->scan->hs->rs[sum_hs_rank(g->scan->hs, r)];
			lo = rs->lo;
			hi = rs->hi;
		}
		for (uint32_t d = 0; g->scan && !(g->scan->hs && !r->ascend) && d < m->devices.n; d++) { /* streaming */
			if (r->ascend ? d != r->dev : !r->devin[d])
				continue;
			if (g->scan->lo[d] < lo)
				lo = g->scan->lo[d];
			if (g->scan->hi[d] > hi)
				hi = g->scan->hi[d];
		}
		for (size_t i = 0; i < ev->n && !g->scan; i++) {
			uint8_t k = ev->kind[i];
			if ((is_dev_activity(k) || k == PT_EV_API || k == PT_EV_RANGE || k == PT_EV_AICPU) &&
			    in_rank(r, i)) {
				if (k == PT_EV_RANGE && !r->ascend && g->link && !g->link[i])
					continue; /* instantaneous marker */
				if (ev->start[i] < lo)
					lo = ev->start[i];
				if (ev->start[i] + ev->dur[i] > hi)
					hi = ev->start[i] + ev->dur[i];
			}
		}
		if (lo <= hi)
			sum_ivl_add(&l, lo > ta ? lo : ta, hi < tb ? hi : tb);
		r->span = true;
	}
	pt_ivset_build(&r->W, l.v, l.n);
	free(l.v);
	r->Wlen = pt_ivset_measure(&r->W);
	/* G: member device activities (GPU ranks in memory; the Ascend model view sums its own, and
	 * that of a streamed GPU rank prints nothing: it has no host ranges, so no phases) */
	for (size_t i = 0; i < ev->n && !r->ascend && !g->scan; i++)
		if (is_dev_activity(ev->kind[i]) && in_rank(r, i) && member(r, i))
			r->G += ev->dur[i];
	return 0;
}

void sum_rank_free(struct rank *r)
{
	free(r->w);
	free(r->wx);
	free(r->tracks);
	free(r->atracks);
	pt_ivset_free(&r->W);
	free(r->devin);
	free(r->hr);
	free(r->by_depth);
	free(r->kid_off);
	free(r->kid);
	free(r->act_off);
	free(r->act);
	sum_hsres_free(r->hs);
	if (r->lc) {
		for (size_t d = 0; d < r->g->m->devices.n; d++) {
			pt_ivset_free(&r->lc[d]);
			pt_ivset_free(&r->lm[d]);
		}
		free(r->lc);
		free(r->lm);
	}
}
