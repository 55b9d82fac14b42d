/*
 * pt_pass_hints(): the figures the rules read, measured once (per rank: the
 * step windows and host ranges; per covered device: the time breakdown over
 * the windows, the ops with known FLOPs, the launch pairs), then the rules
 * of each stage in the order of the rule table (hints-int.h).
 */
#define _GNU_SOURCE /* qsort_r */
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "pass/dataset-figures.h"
#include "support/err.h"
#include "support/progress.h"
#include "support/sort.h"
#include "support/xalloc.h"

/* The enabled rules of a stage, in table order. */
static void run_stage(struct ctx *c, struct hsite *s, enum hstage stage)
{
	s->stage = stage;
	for (int r = 0; r < PT_HR__N; r++)
		if ((pt_hint_rules[r].stages & HS(stage)) && hx_enabled(c, (enum pt_hint_rule)r))
			pt_hint_rules[r].fn(c, s);
}

/* Every enabled rule of the stages not evaluated, for one scope. */
static void not_eval_stages(struct ctx *c, unsigned stages, int64_t rank, const char *scope, const char *why)
{
	for (int r = 0; r < PT_HR__N; r++)
		if ((pt_hint_rules[r].stages & stages) && hx_enabled(c, (enum pt_hint_rule)r))
			hx_not_eval(c, (enum pt_hint_rule)r, rank, scope, "%s", why);
}

/* ---- per-rank figures ------------------------------------------------------------------ */

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

void hx_rd_init(struct ctx *c, const struct pt_rank_steps *r, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	if (!r->ascend && r->host != PT_NONE) /* the anchors the steps gathered, else its own */
		rd->am = r->am ? r->am : (rd->am_own = pt_anchor_map_new(m, r->host));
	rd->win = pt_xmalloc((r->n + 1) * sizeof(*rd->win));
	rd->winnum = pt_xmalloc((r->n + 1) * sizeof(*rd->winnum));
	/* device data over part of the steps: the ratios are over the covered steps (issue #25 point 7) */
	bool partial = pt_steps_partly_covered(r);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kept && r->v[i].has_win && r->v[i].e > r->v[i].s && (!partial || r->v[i].covered)) {
			rd->win[rd->nwin] = (struct pt_ival){ r->v[i].s, r->v[i].e };
			rd->winnum[rd->nwin++] = r->v[i].num;
		}
	rd->steps = rd->nwin > 0;
	if (!r->n && r->has_span && r->span_e > r->span_s) {
		rd->win[0] = (struct pt_ival){ r->span_s, r->span_e };
		rd->winnum[0] = -1;
		rd->nwin = 1;
	}
	rd->win_apart = true;
	for (size_t w = 1; w < rd->nwin && rd->win_apart; w++)
		rd->win_apart = rd->win[w - 1].e <= rd->win[w].s;
	struct pt_ival *tmp = pt_xmalloc((rd->nwin + 1) * sizeof(*tmp));
	memcpy(tmp, rd->win, rd->nwin * sizeof(*tmp));
	pt_ivset_build(&rd->W, tmp, rd->nwin);
	free(tmp);
	if (r->host == PT_NONE)
		return;
	const struct hx_srank *sr = hx_srank_of(c, r);
	if (sr) { /* streamed (gstream.c): measured as the ranges passed; the model holds no events */
		rd->has_loader = sr->has_loader;
		rd->loader_wall = sr->loader_wall;
		return;
	}
	struct pt_ival *d = NULL, *h = NULL;
	size_t nd = 0, cd = 0, nh = 0, ch = 0;
	/* the step ranges' events in index order, passed as i grows (not every step per range) */
	size_t *sev = pt_xmalloc((r->n + 1) * sizeof(*sev)), ns = 0, si = 0;
	for (size_t j = 0; j < r->n; j++)
		if (r->v[j].ev != SIZE_MAX)
			sev[ns++] = r->v[j].ev;
	pt_sort(sev, ns, sizeof(*sev), cmp_size);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("checking the hints", i, ev->n);
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
			continue;
		while (si < ns && sev[si] < i)
			si++;
		if (si < ns && sev[si] == i)
			continue; /* a step */
		struct pt_ival iv = { ev->start[i], ev->start[i] + ev->dur[i] };
		if (pt_steps_is_dataloader(pt_model_strget(m, ev->name[i]))) {
			pt_xgrow((void **)&d, &cd, nd + 1, sizeof(*d));
			d[nd++] = iv;
			if (pt_ivset_contains(&rd->W, ev->start[i])) {
				rd->has_loader = true;
				rd->loader_wall += ev->dur[i];
			}
		} else {
			pt_xgrow((void **)&h, &ch, nh + 1, sizeof(*h));
			h[nh++] = iv;
		}
	}
	free(sev);
	pt_ivset_build(&rd->D, d, nd);
	pt_ivset_build(&rd->H, h, nh);
	free(d);
	free(h);
}

void hx_rd_free(struct rankdata *rd)
{
	pt_anchor_map_free(rd->am_own);
	pt_ivset_free(&rd->W);
	pt_ivset_free(&rd->D);
	pt_ivset_free(&rd->H);
	free(rd->win);
	free(rd->winnum);
	free(rd->lu);
}

/* The first q with the start of event mj[q] >= t (mj by start). */
static size_t first_by_start(const struct pt_events *ev, const uint32_t *mj, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ev->start[mj[mid]] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t hx_win_after(const struct rankdata *rd, int64_t a)
{
	size_t lo = 0, hi = rd->nwin;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (rd->win[mid].e <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t hx_win_of(const struct rankdata *rd, int64_t a)
{
	if (!rd->win_apart) {
		for (size_t w = 0; w < rd->nwin; w++)
			if (a >= rd->win[w].s && a < rd->win[w].e)
				return w;
		return SIZE_MAX;
	}
	size_t lo = hx_win_after(rd, a);
	return lo < rd->nwin && a >= rd->win[lo].s ? lo : SIZE_MAX;
}

/*
 * STEP_GAP's measure of one rank; its metric (the mean step interval) is
 * also the input of RANK_STEP_GAP.
 */
static void gap_measure(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	size_t kept = 0;
	for (size_t i = 0; i < r->n; i++)
		kept += r->v[i].kept;
	/* GPU: the gaps are between the device work of the covered steps (the rank's windows); Ascend:
	 * between the step trace's points, which every kept step has */
	if (!r->ascend && pt_steps_partly_covered(r))
		kept = r->ncovered;
	rd->gap.kept = kept;
	if (kept < 2) {
		rd->gap.status = GAP_FEW_STEPS;
		return;
	}
	__int128 sum = 0;
	int64_t gaps = 0, maxg = -1, maxstep = 0;
	if (r->ascend) {
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *w = &r->v[i];
			if (!w->kept || i == r->first || !w->st)
				continue;
			uint32_t need = PT_STEP_HAS_START | PT_STEP_HAS_FP;
			if ((w->st->has & need) != need)
				continue;
			int64_t g = w->st->fp - w->st->start;
			sum += g;
			gaps++;
			if (g > maxg)
				maxg = g, maxstep = w->num;
		}
	} else {
		/* first member device start / last end per kept step (streamed: as the activities passed) */
		size_t nw = rd->nwin;
		int64_t *first = pt_xmalloc((nw + 1) * sizeof(*first)), *last = pt_xmalloc((nw + 1) * sizeof(*last));
		for (size_t w = 0; w < nw; w++)
			first[w] = INT64_MAX, last[w] = INT64_MIN;
		const struct hx_srank *sr = hx_srank_of(c, r);
		if (sr) {
			memcpy(first, sr->first, nw * sizeof(*first));
			memcpy(last, sr->last, nw * sizeof(*last));
		}
		const struct pt_events *ev = &m->events;
		for (size_t i = 0; i < ev->n && !sr; i++) {
			if (!hx_is_dev_activity(ev->kind[i]))
				continue;
			uint32_t dev = m->tracks.v[ev->track[i]].device;
			bool mine = false;
			for (size_t j = 0; j < r->ndevs && !mine; j++)
				mine = r->devs[j] == dev;
			if (!mine)
				continue;
			size_t w = hx_win_of(rd, hx_anchor(rd, m, i));
			if (w != SIZE_MAX) {
				if (ev->start[i] < first[w])
					first[w] = ev->start[i];
				if (ev->start[i] + ev->dur[i] > last[w])
					last[w] = ev->start[i] + ev->dur[i];
			}
		}
		for (size_t w = 1; w < nw && rd->steps; w++) {
			if (first[w] == INT64_MAX || last[w - 1] == INT64_MIN)
				continue;
			int64_t g = first[w] - last[w - 1];
			if (g < 0)
				g = 0;
			sum += g;
			gaps++;
			if (g > maxg)
				maxg = g, maxstep = rd->winnum[w];
		}
		free(first);
		free(last);
	}
	if (!gaps) {
		rd->gap.status = GAP_NONE;
		return;
	}
	double mean = (double)sum / (double)gaps;
	struct rk *rr = hx_rank_of(c, rank);
	rr->has_gap = true;
	rr->mean_gap = mean;
	rd->gap = (struct gapfig){ GAP_OK, kept, sum, gaps, maxg, maxstep };
}

/*
 * K of LOW_FLOPS_UTIL on one covered device (hints.md §3): its member
 * computation executions with known FLOPs, their FLOPs F and busy time B,
 * added to the rank's figures (RANK_FLOPS, PP_STAGE_FLOPS) whether or not
 * the rule itself is enabled: measured by the rule, else after the stage.
 */
void hx_flops_measure(struct ctx *c, struct rankdata *rd, struct devdata *dd)
{
	if (dd->flops_done)
		return;
	dd->flops_done = true;
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	int64_t rank = rd->r->rank;
	uint32_t dev = dd->dev;
	if (dd->sd) { /* measured from the stream */
		dd->nk = dd->sd->nk;
		dd->F = dd->sd->F;
		dd->B = dd->sd->B;
		if (dd->nk && dd->B) {
			struct rk *rr = hx_rank_of(c, rank);
			rr->has_flops = true;
			rr->flops += (double)dd->F;
			rr->flops_busy += dd->B;
		}
		return;
	}
	const uint32_t *acts = dd->acts;
	size_t nacts = dd->nacts;
	/* K: member computation executions with known FLOPs. Ascend: tasks of
	 * framework ops (counters, else analytical). CUDA: kernels whose
	 * innermost host range is a PyTorch Operator range that counts in
	 * `proftool flops` (known FLOPs from its NVTX sizes, no descendant with
	 * non-zero FLOPs); the range's FLOPs count once per device. */
	struct fexec *kx = NULL;
	size_t nk = 0, ck = 0;
	long double F = 0;
	bool gpu = m->devices.v[dev].kind == PT_DEV_GPU;
	uint8_t *rdone = gpu && c->ngr ? pt_xcalloc(c->ngr, 1) : NULL;
	for (size_t j = 0; j < nacts; j++) {
		size_t i = acts[j];
		if (pt_index_is_comm(c->x, i))
			continue;
		uint32_t type;
		uint64_t f;
		if (ev->kind[i] == PT_EV_TASK && ev->op[i]) {
			const struct pt_flops_opfig *fg = &c->fig[ev->op[i] - 1];
			if (!fg->known)
				continue;
			const struct pt_op *op = &m->ops.v[ev->op[i] - 1];
			type = op->type ? op->type : op->name;
			f = fg->flops;
		} else if (ev->kind[i] == PT_EV_KERNEL && c->kr && c->kr[i]) {
			uint32_t q = c->kr[i] - 1;
			const struct pt_flops_range *r = &c->gr[q];
			if (!r->known || r->nonzero_desc)
				continue;
			type = r->type;
			f = rdone[q] ? 0 : r->flops;
			rdone[q] = 1;
		} else {
			continue;
		}
		pt_xgrow((void **)&kx, &ck, nk + 1, sizeof(*kx));
		kx[nk++] = (struct fexec){ type, (uint32_t)i, f };
		F += (long double)f;
	}
	free(rdone);
	int64_t B = hx_busy_in(rd, m, kx, nk);
	if (nk && B) {
		struct rk *rr = hx_rank_of(c, rank);
		rr->has_flops = true;
		rr->flops += (double)F;
		rr->flops_busy += B;
	}
	dd->kx = kx;
	dd->nk = nk;
	dd->F = F;
	dd->B = B;
}

/* The member activities of a device, fed in start order by pt_index_merge:
 * their event indexes, 4 bytes each (no copy of their times, no sort). */
struct acts_acc {
	const struct rankdata *rd;
	const struct pt_model *m;
	uint32_t *v, *call; /* call: with anchors, each one's launching call + 1, 0 none */
	size_t n, cap, capc;
	bool has_mem;
};

static void acts_visit(void *arg, size_t i)
{
	struct acts_acc *a = arg;
	const struct pt_events *ev = &a->m->events;
	if (!hx_is_dev_activity(ev->kind[i]))
		return;
	size_t call = a->rd->am ? pt_anchor_call(a->rd->am, i) : SIZE_MAX;
	if (!pt_ivset_contains(&a->rd->W, call == SIZE_MAX ? ev->start[i] : ev->start[call]))
		return;
	pt_xgrow((void **)&a->v, &a->cap, a->n + 1, sizeof(*a->v));
	if (a->rd->am) {
		pt_xgrow((void **)&a->call, &a->capc, a->n + 1, sizeof(*a->call));
		a->call[a->n] = call == SIZE_MAX ? 0 : (uint32_t)call + 1;
	}
	a->v[a->n++] = (uint32_t)i;
	a->has_mem |= ev->kind[i] == PT_EV_MEMCPY || ev->kind[i] == PT_EV_MEMSET;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return a < b ? -1 : a > b;
}

/* The merge leaves equal starts of different tracks in no fixed order: put
 * each run of equal starts in event order, the order of a stable sort by
 * start of the events in model order. */
static void acts_fix_ties(const struct pt_events *ev, uint32_t *v, uint32_t *call, size_t n)
{
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && ev->start[v[b]] == ev->start[v[a]]; b++)
			;
		if (b - a < 2)
			continue;
		if (!call) {
			pt_sort(v + a, b - a, sizeof(*v), cmp_u32);
			continue;
		}
		uint64_t *p = pt_xmalloc((b - a) * sizeof(*p)); /* {event, call} pairs, sorted by event */
		for (size_t j = a; j < b; j++)
			p[j - a] = (uint64_t)v[j] << 32 | call[j];
		pt_sort(p, b - a, sizeof(*p), pt_u64_cmp);
		for (size_t j = a; j < b; j++)
			v[j] = (uint32_t)(p[j - a] >> 32), call[j] = (uint32_t)p[j - a];
		free(p);
	}
}

/*
 * The runtime calls R of a rank's host (hints.md §2.1: the runtime part of
 * the free time) read from the index's per-track lists, window by window:
 * no copy of the calls and no union of them all.
 */
struct htrack {
	const uint32_t *v; /* the track's events by start */
	size_t n, p;       /* p: the merge's position */
	int64_t amax;      /* the longest runtime call of the track */
};

struct hcalls {
	struct htrack *t;
	size_t nt;
};

static void hcalls_init(struct ctx *c, uint32_t host, struct hcalls *hc)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	memset(hc, 0, sizeof(*hc));
	if (host == PT_NONE)
		return;
	hc->t = pt_xcalloc(m->tracks.n ? m->tracks.n : 1, sizeof(*hc->t));
	for (size_t t = 0; t < m->tracks.n; t++) {
		if (m->tracks.v[t].device != host)
			continue;
		struct htrack *h = &hc->t[hc->nt];
		h->v = pt_index_track_events(c->x, (uint32_t)t, &h->n);
		bool any = false;
		for (size_t j = 0; j < h->n; j++)
			if (ev->kind[h->v[j]] == PT_EV_API) {
				any = true;
				if (ev->dur[h->v[j]] > h->amax)
					h->amax = ev->dur[h->v[j]];
			}
		hc->nt += any;
	}
}

static void hcalls_free(struct hcalls *hc)
{
	free(hc->t);
}

/* Move the part of t2 before time `to` (from its interval k, whose part
 * before *lo is gone) to rem. */
static void sweep_emit(const struct pt_ivset *t2, size_t *k, int64_t *lo, int64_t to, struct pt_ivset *rem)
{
	while (*k < t2->n) {
		int64_t a = t2->v[*k].s > *lo ? t2->v[*k].s : *lo, b = t2->v[*k].e;
		if (a >= to)
			return;
		if (b > to) {
			pt_ivset_append(rem, a, to);
			*lo = to;
			return;
		}
		pt_ivset_append(rem, a, b);
		++*k;
	}
}

/* One interval u = [us, ue) of R ∩ [s, e) (in order): the part of t2 before
 * it goes to rem, the part inside it counts; returns that count. */
static int64_t sweep_take(const struct pt_ivset *t2, size_t *k, int64_t *lo, int64_t us, int64_t ue,
			  struct pt_ivset *rem)
{
	sweep_emit(t2, k, lo, us, rem);
	int64_t in = 0;
	while (*k < t2->n) {
		int64_t a = t2->v[*k].s > *lo ? t2->v[*k].s : *lo, b = t2->v[*k].e;
		if (a >= ue)
			break;
		if (b > ue) {
			in += ue - a;
			*lo = ue;
			break;
		}
		in += b - a;
		++*k;
	}
	return in;
}

/*
 * |t2 ∩ R| over the window [s, e) (t2 lies in it), rem = t2 − R, and the
 * exposed time |t2 ∩ call| of each call added to its name's sum in apis:
 * the calls that can reach the window, merged by start over the host's
 * tracks, their union swept once against t2.
 */
static int64_t runtime_sweep(struct ctx *c, struct hcalls *hc, int64_t s, int64_t e, const struct pt_ivset *t2,
			     struct pt_ivset *rem, struct pt_hashmap *apis)
{
	const struct pt_events *ev = &c->m->events;
	rem->n = 0;
	for (size_t t = 0; t < hc->nt; t++) { /* the first call of each track that can end after s */
		struct htrack *h = &hc->t[t];
		size_t lo = 0, hi = h->n;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (ev->start[h->v[mid]] < s - h->amax)
				lo = mid + 1;
			else
				hi = mid;
		}
		h->p = lo;
	}
	size_t k = 0;
	int64_t lo = INT64_MIN, rt = 0, us = 0, ue = 0;
	bool open = false;
	for (;;) {
		struct htrack *best = NULL;
		int64_t bs = e;
		for (size_t t = 0; t < hc->nt; t++) {
			struct htrack *h = &hc->t[t];
			while (h->p < h->n && ev->kind[h->v[h->p]] != PT_EV_API)
				h->p++;
			if (h->p < h->n && ev->start[h->v[h->p]] < bs)
				best = h, bs = ev->start[h->v[h->p]];
		}
		if (!best)
			break;
		size_t i = best->v[best->p++];
		int64_t os = ev->start[i], oe = os + ev->dur[i];
		if (oe <= s || os >= e)
			continue;
		int64_t x = pt_ivset_measure_in(t2, os, oe);
		if (x)
			*pt_hashmap_put(apis, ev->name[i], 0, NULL) += (uint64_t)x;
		int64_t cs = os > s ? os : s, ce = oe < e ? oe : e;
		if (open && cs <= ue) {
			if (ce > ue)
				ue = ce;
			continue;
		}
		if (open)
			rt += sweep_take(t2, &k, &lo, us, ue, rem);
		us = cs, ue = ce, open = true;
	}
	if (open)
		rt += sweep_take(t2, &k, &lo, us, ue, rem);
	sweep_emit(t2, &k, &lo, INT64_MAX, rem);
	return rt;
}

/* The rank table's row of a device (RANK_SPREAD, PP_*). */
static void rt_row(struct ctx *c, int64_t rank, uint32_t did, const struct devacc *a, bool has_rv)
{
	int64_t steps = (int64_t)a->nsteps;
	pt_xgrow((void **)&c->rt, &c->capt, c->nrt + 1, sizeof(*c->rt));
	struct rt *row = &c->rt[c->nrt++];
	row->rank = rank;
	row->dev = did;
	int64_t cols[RT_NCOL] = { a->comp, a->comm, a->ovl, a->cno, a->free, a->bub, a->step - a->bub, a->cnox, a->prep };
	for (int i = 0; i < RT_NCOL; i++)
		row->col[i] = (double)cols[i] / (double)steps;
	row->has_rv = has_rv;
	row->rv_alone = a->rva;
	row->step = a->step;
	row->cnox = a->cnox;
	hx_rank_of(c, rank)->nsteps = a->nsteps;
}

/* device_measure() from the figures of a streamed read (stream.c). */
static bool device_streamed(struct ctx *c, struct rankdata *rd, uint32_t dev, struct devdata *dd)
{
	const struct hx_sdev *sd = &c->sdev[dev];
	int64_t rank = rd->r->rank;
	if (!sd->measured || !sd->nacts || !rd->nwin) {
		not_eval_stages(c, HS(HS_DEVICE) | HS(HS_LAUNCH), rank, dd->scope, "no device activity");
		return false;
	}
	dd->sd = sd;
	dd->nacts = sd->nacts;
	dd->a = sd->a;
	if (sd->gpu) { /* gstream.c: the memory operations and the exposed time per API, now the device's */
		struct hx_sdev *own = &c->sdev[dev];
		dd->has_mem = sd->has_mem;
		dd->mf = own->mf;
		dd->has_mf = true;
		dd->apis = own->apis;
		memset(&own->mf, 0, sizeof(own->mf));
		memset(&own->apis, 0, sizeof(own->apis));
	}
	dd->steps = (int64_t)sd->a.nsteps;
	rt_row(c, rank, dd->did, &sd->a, sd->has_rv);
	for (int q = 0; q < 2 && rd->nwin >= 2; q++)
		rd->last2[q] += sd->last2[q];
	return true;
}

/* A covered device measured for the DEVICE rules (and the rank table); false
 * when it has no member activity (its rules are then not evaluated). */
static bool device_measure(struct ctx *c, struct rankdata *rd, uint32_t dev, struct devdata *dd)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	uint32_t did = m->devices.v[dev].id;
	memset(dd, 0, sizeof(*dd));
	dd->dev = dev;
	dd->did = did;
	snprintf(dd->scope, sizeof(dd->scope), "device:%" PRIu32, did);
	if (c->sdev)
		return device_streamed(c, rd, dev, dd);
	/* member activities of the device, by (start, event index) */
	struct acts_acc aa = { .rd = rd, .m = m };
	size_t ntr = 0;
	uint32_t *tr = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*tr));
	for (size_t t = 0; t < m->tracks.n; t++)
		if (m->tracks.v[t].device == dev)
			tr[ntr++] = (uint32_t)t;
	pt_index_merge(c->x, tr, ntr, acts_visit, &aa);
	free(tr);
	acts_fix_ties(ev, aa.v, aa.call, aa.n);
	uint32_t *acts = aa.v;
	size_t nacts = aa.n;
	bool has_mem = aa.has_mem;
	if (!nacts || !rd->nwin) {
		not_eval_stages(c, HS(HS_DEVICE) | HS(HS_LAUNCH), rank, dd->scope, "no device activity");
		free(acts);
		free(aa.call);
		return false;
	}
	const struct pt_ivset *C = pt_index_comp(c->x, dev), *M = pt_index_comm(c->x, dev);
	const struct pt_ivset *Mc = pt_index_kind_set(c->x, dev, PT_EV_MEMCPY);
	const struct pt_ivset *Ms = pt_index_kind_set(c->x, dev, PT_EV_MEMSET);
	struct hcalls hc;
	hcalls_init(c, r->host, &hc);
	struct pt_hashmap apisum; /* exposed runtime time by name id, then by API output name in apis */
	pt_hashmap_init(&apisum);
	struct pt_ivset Wc = { 0 }, F = { 0 }, t1 = { 0 }, t2 = { 0 }, rem = { 0 }, clip = { 0 };
	const struct pt_ivset *CM = pt_index_comp_or_comm(c->x, dev);
	/* Rv: communication whose lower-cased name contains "receive" or "recv" (hints.md §2.4) */
	struct pt_ivset Rv = { 0 }, MRC = { 0 }, RvC = { 0 };
	{
		struct pt_ival *rv = NULL;
		size_t nrv = 0, crv = 0;
		for (size_t i = 0; i < ev->n; i++) {
			if (!hx_is_dev_activity(ev->kind[i]) || m->tracks.v[ev->track[i]].device != dev ||
			    !pt_index_is_comm(c->x, i) || !hx_recv_name(pt_model_strget(m, ev->name[i])))
				continue;
			pt_xgrow((void **)&rv, &crv, nrv + 1, sizeof(*rv));
			rv[nrv++] = (struct pt_ival){ ev->start[i], ev->start[i] + ev->dur[i] };
		}
		pt_ivset_build(&Rv, rv, nrv);
		free(rv);
		if (Rv.n) { /* else (M − Rv) − C is M − C, whose time the breakdown has */
			pt_ivset_diff(&t1, M, &Rv);
			pt_ivset_diff(&MRC, &t1, C);
			pt_ivset_diff(&RvC, &Rv, C);
		}
	}
	struct devacc a = { 0 };
	struct nlist apis = { 0 };
	/* memory ops exposed; mix[q]: the entry (index + 1) of mj[q], 0 none yet */
	struct memop *mops = NULL;
	size_t nmops = 0, cmops = 0;
	uint32_t *mix = NULL;
	/* the memory ops among acts (mj: their event indexes, by start) and the longest,
	 * so that a window visits only the ops that can overlap it */
	uint32_t *mj = NULL;
	size_t nmj = 0;
	int64_t mdur = 0;
	if (has_mem) {
		mj = pt_xmalloc(nacts * sizeof(*mj));
		for (size_t j = 0; j < nacts; j++) {
			size_t i = acts[j];
			if (ev->kind[i] != PT_EV_MEMCPY && ev->kind[i] != PT_EV_MEMSET)
				continue;
			mj[nmj++] = (uint32_t)i;
			if (ev->dur[i] > mdur)
				mdur = ev->dur[i];
		}
		mj = pt_xrealloc(mj, (nmj ? nmj : 1) * sizeof(*mj));
		mix = pt_xcalloc(nmj ? nmj : 1, sizeof(*mix));
	}
	for (size_t w = 0; w < rd->nwin; w++) {
		int64_t s = rd->win[w].s, e = rd->win[w].e;
		struct pt_breakdown bd;
		pt_index_breakdown(c->x, dev, s, e, &bd);
		a.step += e - s;
		a.comp += bd.computation;
		a.comm += bd.communication;
		a.ovl += bd.overlapped;
		a.cno += bd.comm_not_overlapped;
		a.free += bd.free;
		pt_ivset_clip(&Wc, CM, s, e);
		a.prep += Wc.n ? Wc.v[0].s - s : e - s;
		a.bub += pt_ivset_measure_in(&Rv, s, e);
		a.cnox += Rv.n ? pt_ivset_measure_in(&MRC, s, e) : bd.comm_not_overlapped;
		a.rva += pt_ivset_measure_in(&RvC, s, e);
		/* F = S − (C ∪ M) */
		struct pt_ival one = { s, e };
		struct pt_ivset S = { &one, 1, 1 };
		pt_ivset_diff(&F, &S, &Wc);
		/* memcpy_t */
		pt_ivset_clip(&clip, Mc, s, e);
		pt_ivset_inter(&t1, &F, &clip);
		int64_t mc = pt_ivset_measure(&t1);
		pt_ivset_diff(&rem, &F, &clip);
		/* exposed per memory op */
		if (has_mem)
			for (size_t q = first_by_start(ev, mj, nmj, s - mdur); q < nmj && ev->start[mj[q]] < e; q++) {
				size_t i = mj[q];
				int64_t os = ev->start[i], oe = ev->start[i] + ev->dur[i];
				if (oe <= s || os >= e)
					continue;
				int64_t x = ev->kind[i] == PT_EV_MEMCPY ? pt_ivset_measure_in(&F, os, oe)
									: pt_ivset_measure_in(&rem, os, oe);
				if (!mix[q]) {
					pt_xgrow((void **)&mops, &cmops, nmops + 1, sizeof(*mops));
					const struct pt_copy_info *ci = hx_copy_of(m, i);
					size_t call = rd->am ? pt_anchor_call(rd->am, i) : SIZE_MAX;
					mops[nmops++] = (struct memop){ i, 0,
									ev->kind[i] == PT_EV_MEMSET ? "memset"
									: ci ? hx_copy_kind_name(ci->copy_kind) : "other",
									ev->name[i], call != SIZE_MAX ? ev->name[call] : 0,
									call != SIZE_MAX, ev->kind[i] == PT_EV_MEMSET,
									ev->start[i], ev->dur[i], ci ? ci->bytes : 0 };
					mix[q] = (uint32_t)nmops;
				}
				mops[mix[q] - 1].exposed += x;
			}
		/* memset_t */
		pt_ivset_clip(&clip, Ms, s, e);
		pt_ivset_inter(&t1, &rem, &clip);
		int64_t ms = pt_ivset_measure(&t1);
		pt_ivset_diff(&t2, &rem, &clip);
		/* runtime_t, with the exposed time of each call; rem = t2 − R */
		int64_t rt = runtime_sweep(c, &hc, s, e, &t2, &rem, &apisum);
		/* dataloader_t */
		pt_ivset_clip(&clip, &rd->D, s, e);
		pt_ivset_inter(&t1, &rem, &clip);
		int64_t dl = pt_ivset_measure(&t1);
		pt_ivset_diff(&t2, &rem, &clip);
		/* cpu_exec_t, other_t */
		pt_ivset_clip(&clip, &rd->H, s, e);
		pt_ivset_inter(&t1, &t2, &clip);
		int64_t ce = pt_ivset_measure(&t1);
		int64_t ot = bd.free - mc - ms - rt - dl - ce;
		a.memcpy_t += mc;
		a.memset_t += ms;
		a.runtime_t += rt;
		a.dl_t += dl;
		a.cpu_t += ce;
		a.other_t += ot;
		double dp = hx_pct(dl, e - s);
		if (!a.has_worst || dp > a.worst_dl_pct) {
			a.has_worst = true;
			a.worst_dl_pct = dp;
			a.worst_dl_step = rd->winnum[w];
		}
		a.nsteps++;
	}
	int64_t steps = (int64_t)a.nsteps;
	for (size_t q = 0; q < apisum.cap; q++) /* the API list is sorted by a total order later */
		if (apisum.used[q])
			hx_nl_get_api(c, &apis, (uint32_t)apisum.keys[q])->a += (int64_t)apisum.vals[q];
	pt_hashmap_free(&apisum);

	rt_row(c, rank, did, &a, Rv.n > 0);
	dd->acts = acts;
	dd->call = aa.call;
	dd->nacts = nacts;
	/* TRUNCATED_LAST_STEP: member activities anchored in the last two windows */
	for (size_t j = 0; j < nacts && rd->nwin >= 2; j++) {
		int64_t an = dd->call && dd->call[j] ? ev->start[dd->call[j] - 1] : ev->start[acts[j]];
		for (int q = 0; q < 2; q++)
			if (an >= rd->win[rd->nwin - 2 + q].s && an < rd->win[rd->nwin - 2 + q].e)
				rd->last2[q]++;
	}
	dd->has_mem = has_mem;
	dd->M = M;
	dd->Mc = Mc;
	dd->Ms = Ms;
	dd->CM = CM;
	dd->a = a;
	dd->steps = steps;
	dd->apis = apis;
	dd->mops = mops;
	dd->nmops = nmops;
	free(mix);
	free(mj);
	hcalls_free(&hc);
	pt_ivset_free(&Rv);
	pt_ivset_free(&MRC);
	pt_ivset_free(&RvC);
	pt_ivset_free(&Wc);
	pt_ivset_free(&F);
	pt_ivset_free(&t1);
	pt_ivset_free(&t2);
	pt_ivset_free(&rem);
	pt_ivset_free(&clip);
	return true;

}

static void device_free(struct devdata *dd)
{
	hx_nl_free(&dd->apis);
	free(dd->mops);
	hx_mfold_free(&dd->mf);
	free(dd->acts);
	free(dd->call);
	free(dd->kx);
}

/*
 * The launch pairs of a device with member activity (hints.md §2.3): runtime
 * calls of hints.launch.apis and the device activities they launched. False
 * when there are none (the LAUNCH rules are then not evaluated). The
 * LAUNCH_BOUND record of the device gets the SHORT_KERNELS share.
 */
/* The p50, p99 and largest of v[0..n), sorted. */
static void quantiles(const int64_t *v, size_t n, int64_t q[3])
{
	q[0] = hx_pctile(v, n, 50);
	q[1] = hx_pctile(v, n, 99);
	q[2] = n ? v[n - 1] : 0;
}

static bool launch_measure(struct ctx *c, struct rankdata *rd, uint32_t dev, bool low_util, const uint64_t *lc,
			   size_t nlc, struct launchdata *lp)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	const struct pt_events *ev = &m->events;
	int64_t rank = rd->r->rank;
	uint32_t did = m->devices.v[dev].id;
	memset(lp, 0, sizeof(*lp));
	lp->dev = dev;
	lp->did = did;
	lp->low_util = low_util;
	snprintf(lp->scope, sizeof(lp->scope), "device:%" PRIu32, did);
	const char *scope = lp->scope;
	bool ok = true;
	int64_t qd_cut = (int64_t)llround(k->queue_delay_us * 1000), rt_cut = (int64_t)llround(k->runtime_us * 1000);
	int64_t *qd = NULL, *ld = NULL, *cpu = NULL;
	size_t n = 0, nld = 0, cap = 0, capl = 0, ncpu = 0, capc = 0;
	int64_t qd_out = 0, shortn = 0, short_cpu = 0, short_gpu = 0, calls = 0, rt_out = 0;
	struct nlist qk = { 0 }, sk = { 0 }, ra = { 0 };
	int64_t *callv = NULL; /* launching calls, for RUNTIME_OUTLIER (each once) */
	size_t ncall = 0, capcall = 0;
	int64_t qq[3][3] = { { 0 } }; /* the quantiles of qd, ld, cpu */
	bool streamed = false;
	if (c->sdev && c->sdev[dev].gpu) { /* measured as the stream passed (gstream.c): now the device's */
		struct launchdata *sl = &c->sdev[dev].l;
		streamed = true;
		memcpy(qq[0], sl->qd_q, sizeof(qq[0]));
		memcpy(qq[1], sl->ld_q, sizeof(qq[1]));
		memcpy(qq[2], sl->cpu_q, sizeof(qq[2]));
		qd = sl->qd, ld = sl->ld, cpu = sl->cpu;
		n = sl->n, nld = sl->nld, ncpu = sl->ncpu;
		qd_out = sl->qd_out, shortn = sl->shortn, short_cpu = sl->short_cpu, short_gpu = sl->short_gpu;
		calls = sl->calls, rt_out = sl->rt_out;
		qk = sl->qk, sk = sl->sk, ra = sl->ra;
		memset(sl, 0, sizeof(*sl));
		goto counted;
	}
	if (!rd->am)
		goto counted;
	for (size_t q = 0; q < nlc; q++) { /* the device's launched member activities, in event order */
		size_t d = (size_t)(lc[q] >> 32), r = (size_t)(uint32_t)lc[q];
		const char *an = pt_model_strget(m, ev->name[r]);
		if (!hx_in_list(k->launch_apis, an, hx_api_base_len(an)))
			continue;
		int64_t q = ev->start[d] - (ev->start[r] + ev->dur[r]);
		if (q < 0)
			q = 0;
		int64_t ldl = ev->start[d] - ev->start[r];
		pt_xgrow((void **)&qd, &cap, n + 1, sizeof(*qd));
		if (ldl >= 0) {
			qd[n++] = q;
			pt_xgrow((void **)&ld, &capl, nld + 1, sizeof(*ld));
			ld[nld++] = ldl;
			if (q > qd_cut) {
				qd_out++;
				hx_nl_get(&qk, ev->name[d])->a++;
			}
		}
		pt_xgrow((void **)&callv, &capcall, ncall + 1, sizeof(*callv));
		callv[ncall++] = (int64_t)r;
		if (ev->dur[r] <= rt_cut && ev->dur[d] < ev->dur[r]) {
			shortn++;
			short_cpu += ev->dur[r];
			short_gpu += ev->dur[d];
			hx_nl_get(&sk, ev->name[d])->a++;
		}
	}
	pt_sort(callv, ncall, sizeof(*callv), hx_cmp_i64);
	for (size_t i = 0; i < ncall; i++) {
		if (i && callv[i] == callv[i - 1])
			continue;
		size_t r = (size_t)callv[i];
		calls++;
		pt_xgrow((void **)&cpu, &capc, ncpu + 1, sizeof(*cpu));
		cpu[ncpu++] = ev->dur[r];
		if (ev->dur[r] > rt_cut) {
			rt_out++;
			hx_nl_get_api(c, &ra, ev->name[r])->a++;
		}
	}
	free(callv);
counted:;
	int64_t pairs = (int64_t)n;
	if (!calls) {
		not_eval_stages(c, HS(HS_LAUNCH), rank, scope, "no launch pairs");
		ok = false;
		goto out;
	}
	/* LAUNCH_BOUND's evidence ends with the SHORT_KERNELS share of the device (hints.md §3) */
	for (size_t i = 0; i < c->h->n && pairs; i++) {
		struct pt_hint *x = &c->h->v[i];
		if (x->rule == PT_HR_LAUNCH_BOUND && x->status == PT_HS_SHOWN && x->rank == rank &&
		    !strcmp(x->scope, scope))
			pt_hint_ev_dbl(x, "short_kernels_pct", hx_pct(shortn, pairs));
	}
	if (!streamed) { /* (a streamed device's values are gone: their quantiles came with it) */
		pt_sort(qd, n, sizeof(*qd), hx_cmp_i64);
		pt_sort(ld, nld, sizeof(*ld), hx_cmp_i64);
		pt_sort(cpu, ncpu, sizeof(*cpu), hx_cmp_i64);
		quantiles(qd, n, qq[0]);
		quantiles(ld, nld, qq[1]);
		quantiles(cpu, ncpu, qq[2]);
	}
out:
	memcpy(lp->qd_q, qq[0], sizeof(qq[0]));
	memcpy(lp->ld_q, qq[1], sizeof(qq[1]));
	memcpy(lp->cpu_q, qq[2], sizeof(qq[2]));
	lp->qd_cut = qd_cut;
	lp->rt_cut = rt_cut;
	lp->qd = qd;
	lp->ld = ld;
	lp->cpu = cpu;
	lp->n = n;
	lp->nld = nld;
	lp->ncpu = ncpu;
	lp->qd_out = qd_out;
	lp->shortn = shortn;
	lp->short_cpu = short_cpu;
	lp->short_gpu = short_gpu;
	lp->calls = calls;
	lp->rt_out = rt_out;
	lp->pairs = pairs;
	lp->qk = qk;
	lp->sk = sk;
	lp->ra = ra;
	return ok;
}

static void launch_free(struct launchdata *lp)
{
	free(lp->qd);
	free(lp->ld);
	free(lp->cpu);
	hx_nl_free(&lp->qk);
	hx_nl_free(&lp->sk);
	hx_nl_free(&lp->ra);
}

/* ---- the stages ------------------------------------------------------------------------ */

static void rank_run(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	struct hsite s = { .rd = rd };
	hx_rank_of(c, rank)->seen = true;
	if (hx_enabled(c, PT_HR_STEP_GAP) || hx_enabled(c, PT_HR_RANK_STEP_GAP))
		gap_measure(c, rd);
	run_stage(c, &s, HS_RANK_PRE);
	bool *active = pt_xcalloc(r->ndevs ? r->ndevs : 1, sizeof(*active));
	/* per device, for the launch pairs: its launched member activities {event << 32 | call}, by event */
	uint64_t **lc = pt_xcalloc(r->ndevs ? r->ndevs : 1, sizeof(*lc));
	size_t *nlc = pt_xcalloc(r->ndevs ? r->ndevs : 1, sizeof(*nlc));
	for (size_t j = 0; j < r->ndevs; j++) {
		struct devdata dd;
		active[j] = device_measure(c, rd, r->devs[j], &dd);
		if (!active[j])
			continue;
		s.dd = &dd;
		run_stage(c, &s, HS_DEVICE);
		hx_flops_measure(c, rd, &dd);
		s.dd = NULL;
		size_t n = 0;
		for (size_t q = 0; q < dd.nacts && dd.call; q++)
			n += dd.call[q] != 0;
		lc[j] = pt_xmalloc((n ? n : 1) * sizeof(**lc));
		for (size_t q = 0; q < dd.nacts && dd.call; q++)
			if (dd.call[q])
				lc[j][nlc[j]++] = (uint64_t)dd.acts[q] << 32 | (dd.call[q] - 1);
		pt_sort(lc[j], nlc[j], sizeof(**lc), pt_u64_cmp);
		device_free(&dd);
	}
	run_stage(c, &s, HS_RANK_DEVICES);
	for (size_t j = 0; j < r->ndevs; j++) {
		if (!active[j])
			continue; /* reported with the DEVICE rules */
		bool low = false;
		for (size_t i = 0; i < rd->nlu; i++)
			low |= rd->lu[i].dev == r->devs[j];
		struct launchdata ld;
		bool got = launch_measure(c, rd, r->devs[j], low, lc[j], nlc[j], &ld);
		free(lc[j]);
		lc[j] = NULL;
		if (got) {
			s.ld = &ld;
			run_stage(c, &s, HS_LAUNCH);
			s.ld = NULL;
		}
		launch_free(&ld);
	}
	for (size_t j = 0; j < r->ndevs; j++)
		free(lc[j]);
	free(lc);
	free(nlc);
	free(active);
	run_stage(c, &s, HS_RANK);
	/* HCCL links of the rank's devices (SLOW_LINK) */
	for (size_t j = 0; j < r->ndevs; j++)
		if (hx_has_hccl(m, r->devs[j])) {
			pt_hccl_links_add(m, r->devs[j], c->filtered ? &rd->W : NULL, &c->links, &c->nlinks, &c->caplinks);
			hx_rank_of(c, rank)->has_hccl = true;
		}
}

/* ---- driver ------------------------------------------------------------------------- */

/* Scopes in natural order: runs of digits compare as numbers (device:2 before
 * device:10, link:2-10/HCCS before link:10-2/HCCS), everything else byte by byte. */
static int cmp_scope(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			while (*a == '0' && a[1] >= '0' && a[1] <= '9')
				a++;
			while (*b == '0' && b[1] >= '0' && b[1] <= '9')
				b++;
			size_t la = 0, lb = 0;
			while (a[la] >= '0' && a[la] <= '9')
				la++;
			while (b[lb] >= '0' && b[lb] <= '9')
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(a, b, la);
			if (c)
				return c < 0 ? -1 : 1;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int cmp_hint(const void *pa, const void *pb)
{
	const struct pt_hint *a = pa, *b = pb;
	bool as = a->status == PT_HS_SHOWN, bs = b->status == PT_HS_SHOWN;
	/* shown hints first: comparing severities only among them keeps the order total */
	if (as != bs)
		return as ? -1 : 1;
	if (as && a->sev != b->sev)
		return a->sev > b->sev ? -1 : 1;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return cmp_scope(a->scope, b->scope);
}

int pt_pass_hints(const struct pt_model *m, struct pt_index *x, const struct pt_sel *sel,
		  const struct pt_hint_knobs *k, const struct pt_hints_opts *o, struct pt_hints *out,
		  struct pt_diag *d, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	struct pt_hints_opts dflt = { .unit = PT_TU_DEFAULT };
	struct ctx c = { .m = m, .x = x, .k = k, .o = o ? o : &dflt, .h = out, .sel_device = sel ? sel->device : -1 };
	struct pt_steps_info si;
	if (pt_steps_collect(m, sel, &si, d, e))
		return -1;
	c.fig = pt_flops_op_figs(m);
	c.gr = pt_flops_gpu_ranges(m, &c.ngr, &c.kr);
	pt_steps_coverage_note(&si, "ratios are over those", d);
	return hx_drive(&c, &si, e);
}

int hx_drive(struct ctx *cp, struct pt_steps_info *si, struct pt_err **e)
{
	struct ctx c = *cp;
	const struct pt_model *m = c.m;
	const struct pt_hint_knobs *k = c.k;
	struct pt_hints *out = c.h;
	c.si = si;
	c.filtered = si->filtered;
	for (size_t i = 0; i < si->n; i++) {
		struct rankdata rd;
		size_t first = out->n;
		hx_rd_init(&c, &si->r[i], &rd);
		rank_run(&c, &rd);
		hx_rd_free(&rd);
		if (!pt_steps_partly_covered(&si->r[i]))
			continue;
		/* the rank's hints say over which steps they were measured */
		for (size_t h = first; h < out->n; h++)
			if (out->v[h].status == PT_HS_SHOWN || out->v[h].status == PT_HS_SUPPRESSED) {
				pt_hint_ev_int(&out->v[h], "covered_steps", (int64_t)si->r[i].ncovered);
				pt_hint_ev_int(&out->v[h], "total_steps", (int64_t)si->r[i].nkept);
			}
	}
	/* Ascend devices with HCCL data and no steps or tasks: their links count for SLOW_LINK */
	for (uint32_t dev = 0; dev < m->devices.n; dev++) {
		const struct pt_device *dv = &m->devices.v[dev];
		if (dv->kind != PT_DEV_NPU || (c.sel_device >= 0 && dv->id != (uint64_t)c.sel_device) ||
		    !hx_has_hccl(m, dev))
			continue;
		bool ranked = false;
		for (size_t i = 0; i < si->n && !ranked; i++)
			for (size_t j = 0; j < si->r[i].ndevs && !ranked; j++)
				ranked = si->r[i].devs[j] == dev;
		if (!ranked) {
			pt_hccl_links_add(m, dev, NULL, &c.links, &c.nlinks, &c.caplinks);
			hx_rank_of(&c, dv->id)->has_hccl = true;
		}
	}
	/* across ranks */
	struct hsite cs = { 0 };
	for (size_t i = 0; i < c.nrt; i++)
		c.any_rv |= c.rt[i].has_rv;
	run_stage(&c, &cs, HS_CLUSTER);
	/* MindData */
	int rc = hx_md_prepare(&c, e);
	size_t first = out->n;
	run_stage(&c, &cs, HS_MINDDATA);
	if (!rc)
		hx_md_gates(&c, first);
	pt_dataset_figures_free(c.mdv, c.nmd);
	pt_steps_info_free(si);
	/* ranks known from MindData only: the other rules have no input there */
	for (size_t i = 0; i < c.nrk; i++) {
		if (c.rk[i].seen)
			continue;
		for (int r = 0; r < PT_HR__N; r++)
			if (hx_enabled(&c, (enum pt_hint_rule)r) && c.rk[i].st[r] == ST_NONE &&
			    !(pt_hint_rules[r].stages & HS(HS_MINDDATA)))
				hx_not_eval(&c, (enum pt_hint_rule)r, c.rk[i].rank, "rank", "no steps or device activity");
	}
	/* disabled rules: one entry per rank */
	for (size_t i = 0; i < c.nrk; i++)
		for (int r = 0; r < PT_HR__N; r++)
			if (k->disabled[r]) {
				c.rk[i].st[r] = ST_DIS;
				struct pt_hint *h = pt_hints_add(out, (enum pt_hint_rule)r, c.rk[i].rank, "rank");
				h->status = PT_HS_DISABLED;
				h->reason = pt_xstrdup("hints.disable");
			}
	for (size_t i = 0; i < c.nrk; i++)
		for (int r = 0; r < PT_HR__N; r++) {
			uint8_t s = c.rk[i].st[r];
			out->evaluated += s == ST_EVAL;
			out->not_evaluated += s == ST_NE;
			out->disabled += s == ST_DIS;
		}
	/* stable sort: (severity, rule, rank, scope), then the order found */
	struct pt_hint *tmp = pt_xmalloc((out->n ? out->n : 1) * sizeof(*tmp));
	size_t *ix = pt_xmalloc((out->n ? out->n : 1) * sizeof(*ix));
	for (size_t i = 0; i < out->n; i++)
		ix[i] = i;
	for (size_t a = 1; a < out->n; a++)
		for (size_t b = a; b > 0 && cmp_hint(&out->v[ix[b]], &out->v[ix[b - 1]]) < 0; b--) {
			size_t t = ix[b];
			ix[b] = ix[b - 1];
			ix[b - 1] = t;
		}
	for (size_t i = 0; i < out->n; i++)
		tmp[i] = out->v[ix[i]];
	if (out->n)
		memcpy(out->v, tmp, out->n * sizeof(*tmp));
	free(tmp);
	free(ix);
	free(c.rk);
	free(c.rt);
	free(c.fig);
	free(c.gr);
	free(c.kr);
	free(c.lr);
	free(c.links);
	if (c.dm)
		for (size_t i = 0; i < m->strings.n; i++)
			free(c.dm[i]);
	free(c.dm);
	free(c.dm_done);
	if (c.an)
		for (size_t i = 0; i < m->strings.n; i++)
			free(c.an[i]);
	free(c.an);
	return rc;
}
