/*
 * The `steps` view (ascend.md §3.6, §3.8; summary.md §2.1, §9).
 *
 * Step windows:
 *  - Ascend: one step per step-trace marker set, window [start_point, end)
 *    when both points exist; numbers as the importer gave them. A GPU device
 *    with step-trace rows (MindSpore's GPU profiler) is such a rank too, its
 *    kernels counted as executions; it leaves its host's GPU rank.
 *  - GPU: per rank (a CPU device and the GPU devices of the same process;
 *    a GPU device without a recorded process goes to the host whose API
 *    calls launched most of its activities), the host ranges whose whole
 *    name matches the step pattern, else the repeated iteration boundaries
 *    of summary.md §9.2.
 *  Windows are made disjoint in start order (an overlap is cut and counted).
 *
 * Rows: one per step, then `avg` (steps 2..n that are complete, exact mean
 * rounded half away from zero), then `outside` (everything of the rank's
 * span that lies in no window; only without --steps / --time-window).
 * Counts follow the anchor (an event's start, or on GPU its launching call's
 * start), times follow the clock (clipped to each window).
 */
#include "pass/pass-steps.h"
#include "pass/pass-steps-int.h"

#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/index.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/interval.h"
#include "support/progress.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

/* ------------------------------------------------------------------------
 * small helpers
 */

int64_t pt_steps_mean(__int128 sum, int64_t count)
{
	if (count <= 0)
		return 0;
	bool neg = sum < 0;
	__int128 a = neg ? -sum : sum;
	__int128 q = (2 * a + count) / (2 * (__int128)count);
	return (int64_t)(neg ? -q : q);
}

bool pt_steps_is_dataloader(const char *name)
{
	static const char pat[] = "dataloader";
	size_t l = sizeof(pat) - 1;
	for (const char *p = name; *p; p++)
		if (!strncasecmp(p, pat, l))
			return true;
	return false;
}

/* Number of sorted values in [a, b). */
static size_t count_in(const int64_t *v, size_t n, int64_t a, int64_t b)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t first = lo;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - first;
}

/* A growable array of int64 that is sorted once at the end. */
struct i64v {
	int64_t *v;
	size_t n, cap;
};

static void i64_push(struct i64v *a, int64_t x)
{
	pt_xgrow((void **)&a->v, &a->cap, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = x;
}

static void i64_sort(struct i64v *a)
{
	bool sorted = true;
	for (size_t i = 1; i < a->n && sorted; i++)
		sorted = a->v[i - 1] <= a->v[i];
	if (sorted)
		return;
	struct pt_ival *iv = pt_xmalloc(a->n * sizeof(*iv));
	for (size_t i = 0; i < a->n; i++)
		iv[i] = (struct pt_ival){ a->v[i], 0 };
	pt_ival_sort_report(iv, a->n, "sorting the executions");
	for (size_t i = 0; i < a->n; i++)
		a->v[i] = iv[i].s;
	free(iv);
}

struct ivv {
	struct pt_ival *v;
	size_t n, cap;
};

static void iv_push(struct ivv *a, int64_t s, int64_t e)
{
	pt_xgrow((void **)&a->v, &a->cap, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = (struct pt_ival){ s, e };
}

static void span_add(struct pt_rank_steps *r, int64_t s, int64_t e)
{
	if (e < s)
		e = s;
	if (!r->has_span) {
		r->has_span = true;
		r->span_s = s;
		r->span_e = e;
		return;
	}
	if (s < r->span_s)
		r->span_s = s;
	if (e > r->span_e)
		r->span_e = e;
}

/* ------------------------------------------------------------------------
 * step windows
 */

/* Cut overlapping windows (in start order) and count the cuts. */
static void make_disjoint(struct pt_rank_steps *r, struct pt_diag *d)
{
	/* the steps are in start order for GPU ranks and in step order for
	 * Ascend ranks (which is time order); only windows that exist count */
	struct pt_stepwin *prev = NULL;
	for (size_t i = 0; i < r->n; i++) {
		struct pt_stepwin *w = &r->v[i];
		if (!w->has_win)
			continue;
		if (prev && prev->e > w->s) {
			r->overlapping++;
			prev->e = w->s > prev->s ? w->s : prev->s;
		}
		prev = w;
	}
	pt_steps_overlap_note(r, d);
}

void pt_steps_overlap_note(const struct pt_rank_steps *r, struct pt_diag *d)
{
	if (r->overlapping && d)
		pt_diag_note(d, "rank %" PRIu32 ": %" PRIu64 " step windows overlap the next one; cut at its start",
			     r->rank, r->overlapping);
}

void pt_steps_reversed_note(const struct pt_rank_steps *r, struct pt_diag *d)
{
	if (r->reversed && d)
		pt_diag_note(d, "device %" PRIu32 ": %" PRIu64 " steps end before they start; they have no window",
			     r->rank, r->reversed);
}

static void ascend_rank(const struct pt_model *m, uint32_t dev, const struct pt_steps_devscan *scan,
			struct pt_rank_steps *r, struct pt_diag *d)
{
	r->ascend = true;
	r->rank = m->devices.v[dev].id;
	r->host = PT_NONE;
	r->devs = pt_xmalloc(sizeof(*r->devs));
	r->devs[0] = dev;
	r->ndevs = 1;
	r->inference = true;
	size_t n = 0;
	for (size_t i = 0; i < m->steps.n; i++)
		if (m->steps.v[i].device == dev) {
			n++;
			if (m->steps.v[i].has & PT_STEP_HAS_BP)
				r->inference = false;
		}
	r->v = pt_xcalloc(n ? n : 1, sizeof(*r->v));
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *st = &m->steps.v[i];
		if (st->device != dev)
			continue;
		struct pt_stepwin *w = &r->v[r->n++];
		w->num = st->step;
		w->st = st;
		w->ev = SIZE_MAX;
		uint32_t need = PT_STEP_HAS_START | PT_STEP_HAS_END;
		if ((st->has & need) == need) {
			if (st->end >= st->start) {
				w->has_win = true;
				w->s = st->start;
				w->e = st->end;
			} else {
				r->reversed++;
			}
		}
		for (size_t j = 0; j < st->comm.n; j++)
			span_add(r, st->comm.v[j].start, st->comm.v[j].end);
	}
	pt_steps_reversed_note(r, d);
	make_disjoint(r, d);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].has_win)
			span_add(r, r->v[i].s, r->v[i].e);
	if (scan) { /* the events' span from a streamed read: a min and a max, as below */
		if (scan[dev].has_span)
			span_add(r, scan[dev].span_s, scan[dev].span_e);
		return;
	}
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("finding the steps", i, ev->n);
		if ((ev->kind[i] == PT_EV_TASK || ev->kind[i] == PT_EV_AICPU || ev->kind[i] == PT_EV_KERNEL) &&
		    m->tracks.v[ev->track[i]].device == dev)
			span_add(r, ev->start[i], ev->start[i] + ev->dur[i]);
	}
}

/* Number of the step named s: the decimal after the last '#', or -1. */
int64_t pt_steps_name_number(const char *s)
{
	const char *h = strrchr(s, '#');
	if (!h || !h[1])
		return -1;
	int64_t v = 0;
	for (const char *p = h + 1; *p; p++) {
		if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

struct gstep {
	int64_t s, e;
	size_t ev;
	int64_t num; /* a range's number after its last '#', -1: none */
};

static int cmp_gstep(const void *a, const void *b)
{
	const struct gstep *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_launch(const void *a, const void *b)
{
	const struct pt_steps_launch *x = a, *y = b;
	if (x->call_s != y->call_s)
		return x->call_s < y->call_s ? -1 : 1;
	return x->corr < y->corr ? -1 : x->corr > y->corr;
}

static size_t boundaries(const struct pt_steps_lseq *l, struct gstep **out);

static uint32_t arr_name(const void *a, size_t i)
{
	return ((const struct pt_steps_launch *)a)[i].name;
}

static int64_t arr_call_s(const void *a, size_t i)
{
	return ((const struct pt_steps_launch *)a)[i].call_s;
}

static int64_t arr_call_e(const void *a, size_t i)
{
	return ((const struct pt_steps_launch *)a)[i].call_e;
}

/* summary.md §9.2: steps from the recurrence of the first launched kernel. */
static size_t boundary_steps(const struct pt_model *m, const struct pt_rank_steps *r,
			     const struct pt_anchor_map *am, struct gstep **out)
{
	const struct pt_events *ev = &m->events;
	struct pt_steps_launch *l = NULL;
	size_t nl = 0, cl = 0;
	uint8_t *in_rank = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1);
	for (size_t k = 0; k < r->ndevs; k++)
		in_rank[r->devs[k]] = 1;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("computing the steps", i, ev->n);
		if (ev->kind[i] != PT_EV_KERNEL || !in_rank[m->tracks.v[ev->track[i]].device])
			continue;
		size_t c = pt_anchor_call(am, i);
		if (c == SIZE_MAX)
			continue;
		pt_xgrow((void **)&l, &cl, nl + 1, sizeof(*l));
		l[nl++] = (struct pt_steps_launch){ ev->start[c], ev->start[c] + ev->dur[c], ev->corr[i], ev->name[i] };
	}
	free(in_rank);
	pt_sort(l, nl, sizeof(*l), cmp_launch);
	struct pt_steps_lseq q = { nl, l, arr_name, arr_call_s, arr_call_e };
	size_t n = boundaries(&q, out);
	free(l);
	return n;
}

/* The windows of the launches l (in launch order): the recurrences of the first one's kernel. */
static size_t boundaries(const struct pt_steps_lseq *l, struct gstep **out)
{
	size_t n = 0, nl = l->n;
	const void *a = l->arg;
	*out = NULL;
	if (nl) {
		uint32_t s = l->name(a, 0);
		size_t second = SIZE_MAX;
		for (size_t i = 1; i < nl && second == SIZE_MAX; i++)
			if (l->name(a, i) == s)
				second = i;
		if (second != SIZE_MAX) {
			uint32_t e = l->name(a, second - 1);
			struct gstep *g = NULL;
			size_t cg = 0;
			size_t prev = SIZE_MAX;
			for (size_t i = 0; i < nl; i++) {
				if (l->name(a, i) != s)
					continue;
				if (prev != SIZE_MAX) {
					pt_xgrow((void **)&g, &cg, n + 1, sizeof(*g));
					g[n++] = (struct gstep){ l->call_s(a, prev), l->call_s(a, i), SIZE_MAX, -1 };
				}
				prev = i;
			}
			/* the last launch of s: up to the end of the call launching the next e */
			for (size_t i = prev + 1; i < nl; i++)
				if (l->name(a, i) == e) {
					pt_xgrow((void **)&g, &cg, n + 1, sizeof(*g));
					g[n++] = (struct gstep){ l->call_s(a, prev), l->call_e(a, i), SIZE_MAX, -1 };
					break;
				}
			*out = g;
		}
	}
	return n;
}

static void gpu_rank(const struct pt_model *m, struct pt_rank_steps *r, const regex_t *re,
		     const struct pt_steps_gscan *gs, const struct pt_steps_ghosts *hs, struct pt_diag *d)
{
	const struct pt_events *ev = &m->events;
	struct gstep *g = NULL;
	size_t ng = 0, cg = 0;
	if (gs && r->host != PT_NONE) {
		g = pt_xmalloc((gs->nranges ? gs->nranges : 1) * sizeof(*g));
		for (size_t i = 0; i < gs->nranges; i++) {
			const struct pt_steps_grange *x = &gs->ranges[i];
			if (!hs || hs->range_host[i] == r->host)
				g[ng++] = (struct gstep){ x->s, x->e, x->ev, x->num };
		}
	} else if (r->host != PT_NONE)
		for (size_t i = 0; i < ev->n; i++) {
			pt_progress_tick("computing the steps", i, ev->n);
			if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
				continue;
			if (regexec(re, pt_model_strget(m, ev->name[i]), 0, NULL, 0))
				continue;
			pt_xgrow((void **)&g, &cg, ng + 1, sizeof(*g));
			g[ng++] = (struct gstep){ ev->start[i], ev->start[i] + ev->dur[i], i,
						  pt_steps_name_number(pt_model_strget(m, ev->name[i])) };
		}
	bool from_ranges = ng > 0;
	if (!from_ranges && gs) {
		free(g);
		g = NULL;
		const struct pt_steps_lseq *l = hs ? (hs->launches ? &hs->launches[r->host] : NULL) : gs->launches;
		if (l)
			ng = boundaries(l, &g);
	} else if (!from_ranges) {
		r->am = pt_anchor_map_new(m, r->host); /* kept for the coverage and the table */
		ng = boundary_steps(m, r, r->am, &g);
	}
	pt_sort(g, ng, sizeof(*g), cmp_gstep);
	r->v = pt_xcalloc(ng ? ng : 1, sizeof(*r->v));
	r->n = ng;
	/* numbers: after the last '#' when every name has a distinct one */
	bool named = from_ranges;
	int64_t *nums = pt_xmalloc((ng ? ng : 1) * sizeof(*nums));
	for (size_t i = 0; i < ng && named; i++) {
		nums[i] = g[i].num;
		named = nums[i] >= 0;
	}
	if (named && ng > 1) {
		int64_t *sorted = pt_xmalloc(ng * sizeof(*sorted));
		memcpy(sorted, nums, ng * sizeof(*sorted));
		pt_sort(sorted, ng, sizeof(*sorted), cmp_i64);
		for (size_t i = 1; i < ng && named; i++)
			named = sorted[i] != sorted[i - 1];
		free(sorted);
	}
	for (size_t i = 0; i < ng; i++) {
		struct pt_stepwin *w = &r->v[i];
		w->num = named ? nums[i] : (int64_t)i + 1;
		w->has_win = true;
		w->s = g[i].s;
		w->e = g[i].e < g[i].s ? g[i].s : g[i].e;
		w->ev = g[i].ev;
	}
	free(nums);
	free(g);
	make_disjoint(r, d);
	for (size_t i = 0; i < r->n; i++)
		span_add(r, r->v[i].s, r->v[i].e);
	uint8_t *in_rank = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1);
	for (size_t k = 0; k < r->ndevs; k++)
		in_rank[r->devs[k]] = 1;
	if (r->host != PT_NONE)
		in_rank[r->host] = 1;
	for (size_t i = 0; gs && i < m->devices.n; i++) /* the devices' spans: a min and a max, as below */
		if (in_rank[i] && gs->dev[i].has_all)
			span_add(r, gs->dev[i].all_s, gs->dev[i].all_e);
	for (size_t i = 0; !gs && i < ev->n; i++) {
		pt_progress_tick("finding the steps", i, ev->n);
		if (in_rank[m->tracks.v[ev->track[i]].device])
			span_add(r, ev->start[i], ev->start[i] + ev->dur[i]);
	}
	free(in_rank);
}

static void sort_devs(const struct pt_model *m, uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) { /* few devices: insertion sort by id */
		uint32_t t = v[i];
		size_t j = i;
		while (j > 0 && m->devices.v[v[j - 1]].id > m->devices.v[t].id) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
}

static bool dev_selected(const struct pt_model *m, uint32_t dev, int64_t device)
{
	return device < 0 || (int64_t)m->devices.v[dev].id == device;
}

static void select_steps(struct pt_rank_steps *r, const struct pt_sel_res *sr)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pt_stepwin *w = &r->v[i];
		w->kept = pt_sel_res_step(sr, w->num) && (!sr->window || (w->has_win && pt_sel_res_at(sr, w->s)));
	}
}

int pt_steps_collect(const struct pt_model *m, const struct pt_sel *sel, struct pt_steps_info *out,
		     struct pt_diag *d, struct pt_err **e)
{
	return pt_steps_collect_scan(m, sel, NULL, out, d, e);
}

static int collect(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_devscan *scan,
		   const struct pt_steps_gscan *gs, const struct pt_steps_ghosts *hs, struct pt_steps_info *out,
		   struct pt_diag *d, struct pt_err **e);

int pt_steps_collect_scan(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_devscan *scan,
			  struct pt_steps_info *out, struct pt_diag *d, struct pt_err **e)
{
	return collect(m, sel, scan, NULL, NULL, out, d, e);
}

int pt_steps_collect_gscan(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_gscan *gs,
			   struct pt_steps_info *out, struct pt_diag *d, struct pt_err **e)
{
	return collect(m, sel, gs->dev, gs, NULL, out, d, e);
}

int pt_steps_collect_ghosts(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_gscan *gs,
			    const struct pt_steps_ghosts *hs, struct pt_steps_info *out, struct pt_diag *d,
			    struct pt_err **e)
{
	return collect(m, sel, gs->dev, gs, hs, out, d, e);
}

static int collect(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_devscan *scan,
		   const struct pt_steps_gscan *gs, const struct pt_steps_ghosts *hs, struct pt_steps_info *out,
		   struct pt_diag *d, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	regex_t re;
	char msg[128];
	if (pt_sel_step_re(sel, &re, msg, sizeof(msg)))
		return pt_err(e, "invalid step pattern '%s': %s",
			      sel->step_pattern ? sel->step_pattern : PT_STEP_PATTERN_DEFAULT, msg);
	int64_t emin = INT64_MAX;
	for (size_t i = 0; scan && i < m->devices.n; i++)
		if (scan[i].has_any && scan[i].min_start < emin)
			emin = scan[i].min_start;
	out->origin = pt_model_origin(m, scan ? &emin : NULL);
	struct pt_sel_res sr;
	pt_sel_resolve(sel, out->origin, &sr);
	out->filtered = sel->steps_given || sel->window_given;
	size_t nd = m->devices.n;
	PT_VEC(struct pt_rank_steps) rs = { 0 };

	/* Ascend ranks: NPU devices with steps or device tasks */
	uint8_t *has_data = pt_xcalloc(nd ? nd : 1, 1);
	for (size_t i = 0; i < m->steps.n; i++)
		has_data[m->steps.v[i].device] = 1;
	for (size_t i = 0; scan && i < nd; i++)
		has_data[i] |= scan[i].has_task;
	for (size_t i = 0; !scan && i < m->events.n; i++) {
		pt_progress_tick("finding the steps", i, m->events.n);
		if (m->events.kind[i] == PT_EV_TASK || m->events.kind[i] == PT_EV_AICPU)
			has_data[m->tracks.v[m->events.track[i]].device] = 1;
	}
	uint32_t *order = pt_xmalloc((nd ? nd : 1) * sizeof(*order));
	size_t no = 0;
	/* a GPU device with step-trace rows (a MindSpore GPU run) is a step-trace rank too */
	uint8_t *gpu_st = pt_xcalloc(nd ? nd : 1, 1);
	bool any_st = false;
	for (size_t i = 0; i < m->steps.n; i++)
		if (m->devices.v[m->steps.v[i].device].kind == PT_DEV_GPU)
			gpu_st[m->steps.v[i].device] = 1, any_st = true;
	for (uint32_t i = 0; i < nd; i++)
		if (((m->devices.v[i].kind == PT_DEV_NPU && has_data[i]) || gpu_st[i]) &&
		    dev_selected(m, i, sel->device))
			order[no++] = i;
	sort_devs(m, order, no);
	for (size_t i = 0; i < no; i++) {
		struct pt_rank_steps r;
		memset(&r, 0, sizeof(r));
		ascend_rank(m, order[i], scan, &r, d);
		pt_vec_push(&rs, r);
	}
	free(has_data);

	/* GPU ranks: one per CPU device (a traced process). A GPU device whose
	 * process is recorded belongs to the CPU device of the same pid; any
	 * other GPU device joins the host whose API calls launched most of its
	 * activities (correlation ids are per process, so they vote only when
	 * the pid is unknown). */
	uint32_t *hosts = pt_xmalloc((nd ? nd : 1) * sizeof(*hosts));
	size_t nh = 0, ngpu = 0;
	for (uint32_t i = 0; i < nd; i++) {
		if (m->devices.v[i].kind == PT_DEV_CPU)
			hosts[nh++] = i;
		ngpu += m->devices.v[i].kind == PT_DEV_GPU;
	}
	if (nh || ngpu) {
		uint32_t *owner = pt_xmalloc((nd ? nd : 1) * sizeof(*owner));
		bool *by_pid = pt_xcalloc(nd ? nd : 1, sizeof(*by_pid));
		size_t nvote = 0;
		for (size_t i = 0; i < nd; i++) {
			owner[i] = nh ? 0 : PT_NONE; /* index into hosts; default: the first */
			const struct pt_device *dv = &m->devices.v[i];
			if (dv->kind != PT_DEV_GPU)
				continue;
			for (size_t h = 0; h < nh && dv->pid && !by_pid[i]; h++)
				if (m->devices.v[hosts[h]].pid == dv->pid) {
					owner[i] = (uint32_t)h;
					by_pid[i] = true;
				}
			nvote += !by_pid[i];
		}
		if (nh > 1 && nvote && hs && hs->owner) { /* a streamed read (no events here): its vote */
			for (size_t i = 0; i < nd; i++)
				for (uint32_t h = 0; h < nh && !by_pid[i]; h++)
					if (hosts[h] == hs->owner[i])
						owner[i] = h;
		} else if (nh > 1 && nvote)
			pt_steps_vote_hosts(m, hosts, nh, by_pid, owner);
		/* rank numbers (summary.md §1): the ranks the processes record when
		 * every host has a distinct one, else the order of the hosts */
		size_t nr = nh ? nh : 1;
		uint32_t *num = pt_xmalloc(nr * sizeof(*num));
		size_t *ord = pt_xmalloc(nr * sizeof(*ord));
		bool recorded = nh > 0;
		for (size_t h = 0; h < nh && recorded; h++) {
			const struct pt_device *hd = &m->devices.v[hosts[h]];
			recorded = hd->pid && hd->rank >= 0;
			for (size_t q = 0; q < h && recorded; q++)
				recorded = m->devices.v[hosts[q]].rank != hd->rank;
		}
		for (size_t h = 0; h < nr; h++) {
			num[h] = recorded ? (uint32_t)m->devices.v[hosts[h]].rank : (uint32_t)h;
			size_t j = h;
			for (; j > 0 && num[ord[j - 1]] > num[h]; j--)
				ord[j] = ord[j - 1];
			ord[j] = h;
		}
		for (size_t oi = 0; oi < nr; oi++) {
			size_t h = ord[oi];
			struct pt_rank_steps r;
			memset(&r, 0, sizeof(r));
			r.rank = num[h];
			r.host = nh ? hosts[h] : PT_NONE;
			r.devs = pt_xmalloc((nd ? nd : 1) * sizeof(*r.devs));
			for (uint32_t dv = 0; dv < nd; dv++)
				if (m->devices.v[dv].kind == PT_DEV_GPU && (nh ? owner[dv] == h : true) &&
				    dev_selected(m, dv, sel->device) && !gpu_st[dv])
					r.devs[r.ndevs++] = dv;
			/* step-trace GPU devices are ranks of their own: their hosts have none left */
			if ((sel->device >= 0 || any_st) && !r.ndevs) {
				free(r.devs);
				continue;
			}
			sort_devs(m, r.devs, r.ndevs);
			gpu_rank(m, &r, &re, gs, hs, d);
			pt_vec_push(&rs, r);
		}
		free(num);
		free(ord);
		free(by_pid);
		free(owner);
	}
	free(hosts);
	free(order);
	free(gpu_st);
	regfree(&re);

	for (size_t i = 0; i < rs.n; i++) {
		select_steps(&rs.v[i], &sr);
		rs.v[i].first = 0;
	}
	if (!gs) /* a streamed GPU read measures the coverage in its read of the activities */
		pt_steps_cover(m, scan, rs.v, rs.n);
	out->r = rs.v;
	out->n = rs.n;
	return 0;
}

void pt_steps_info_free(struct pt_steps_info *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->r[i].v);
		free(s->r[i].devs);
		free(s->r[i].dl);
		pt_anchor_map_free(s->r[i].am);
	}
	free(s->r);
	memset(s, 0, sizeof(*s));
}

/* The outside set O = span − ∪(windows) of a rank. */
void pt_steps_outside_set(const struct pt_rank_steps *r, struct pt_ivset *o)
{
	memset(o, 0, sizeof(*o));
	if (!r->has_span)
		return;
	struct pt_ival span = { r->span_s, r->span_e };
	struct pt_ivset sp = { &span, span.e > span.s ? 1 : 0, 1 };
	struct pt_ival *w = pt_xmalloc((r->n ? r->n : 1) * sizeof(*w));
	size_t nw = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].has_win)
			w[nw++] = (struct pt_ival){ r->v[i].s, r->v[i].e };
	struct pt_ivset ws = { 0 };
	pt_ivset_build(&ws, w, nw);
	pt_ivset_diff(o, &sp, &ws);
	pt_ivset_free(&ws);
	free(w);
}

/* ------------------------------------------------------------------------
 * the averaged columns
 */

struct acc {
	__int128 sum;
	int64_t n;
};

static void acc_add(struct acc *a, const struct pt_cell *c)
{
	if (c->kind != PT_CELL_INT)
		return;
	a->sum += c->u.i;
	a->n++;
}

/* Average the marked columns of rows [r0, r1) (those with avg[row] set) into row ar. */
static void avg_row(struct pt_table *t, size_t r0, size_t r1, const bool *use, const bool *avgcol, size_t ar)
{
	struct acc *a = pt_xcalloc(t->ncols, sizeof(*a));
	for (size_t r = r0; r < r1; r++) {
		if (!use[r - r0])
			continue;
		for (size_t c = 0; c < t->ncols; c++)
			if (avgcol[c])
				acc_add(&a[c], pt_table_cell(t, r, c));
	}
	for (size_t c = 0; c < t->ncols; c++)
		if (avgcol[c] && a[c].n)
			pt_table_set_int(t, ar, c, pt_steps_mean(a[c].sum, a[c].n));
	free(a);
}

/* Which step rows the avg row takes: kept complete steps but the rank's
 * first; with exactly one kept step, that step if complete. */
static void avg_use(const struct pt_rank_steps *r, const size_t *rowstep, size_t nrows, const bool *complete,
		    bool *use)
{
	size_t ncomplete = 0;
	for (size_t k = 0; k < nrows; k++) {
		use[k] = complete[k] && rowstep[k] != r->first;
		ncomplete += use[k];
	}
	if (nrows == 1 && !ncomplete)
		use[0] = complete[0];
}

/* ------------------------------------------------------------------------
 * Ascend table
 */

struct group {
	uint32_t stream, tag, k;
	uint32_t type;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The device figures of an Ascend rank from the model's events and the index. */
static void ascend_figs_mem(const struct pt_model *m, struct pt_index *x, const struct pt_rank_steps *r,
			    bool filtered, struct pt_steps_figs *f)
{
	const struct pt_events *ev = &m->events;
	uint32_t dev = r->devs[0];
	/* starts of executions and AI CPU ops, sorted */
	struct i64v ex = { 0 }, ai = { 0 };
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("computing the steps", i, ev->n);
		if (m->tracks.v[ev->track[i]].device != dev)
			continue;
		if (ev->kind[i] == PT_EV_TASK || ev->kind[i] == PT_EV_KERNEL)
			i64_push(&ex, ev->start[i]);
		else if (ev->kind[i] == PT_EV_AICPU)
			i64_push(&ai, ev->start[i]);
	}
	i64_sort(&ex);
	i64_sort(&ai);
	size_t n1 = r->n ? r->n : 1;
	f->ce = pt_xcalloc(n1, sizeof(*f->ce));
	f->ca = pt_xcalloc(n1, sizeof(*f->ca));
	f->b = pt_xcalloc(n1, sizeof(*f->b));
	for (size_t i = 0; i < r->n; i++) {
		const struct pt_stepwin *w = &r->v[i];
		f->ce[i] = w->has_win ? count_in(ex.v, ex.n, w->s, w->e) : 0;
		f->ca[i] = w->has_win ? count_in(ai.v, ai.n, w->s, w->e) : 0;
		if (w->kept && pt_steps_dev_figs(r, w))
			pt_index_breakdown(x, dev, w->s, w->e, &f->b[i]);
	}
	f->nex = ex.n;
	f->nai = ai.n;
	if (!filtered) {
		struct pt_ivset o;
		pt_steps_outside_set(r, &o);
		pt_index_breakdown_set(x, dev, &o, &f->out);
		f->out_total = pt_ivset_measure(&o);
		pt_ivset_free(&o);
	}
	free(ex.v);
	free(ai.v);
}

void pt_steps_figs_free(struct pt_steps_figs *f)
{
	free(f->ce);
	free(f->ca);
	free(f->b);
	memset(f, 0, sizeof(*f));
}

struct pt_table *pt_steps_ascend_table(const struct pt_model *m, const struct pt_steps_info *si,
				       const struct pt_steps_figs *figs)
{
	/* communication groups: union over every step of the kept devices */
	struct pt_hashmap gmap;
	pt_hashmap_init(&gmap);
	struct group *g = NULL;
	size_t ng = 0, cg = 0;
	size_t nranks = 0;
	for (size_t ri = 0; ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (!r->ascend)
			continue;
		nranks++;
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_step *st = r->v[i].st;
			for (size_t j = 0; j < st->comm.n; j++) {
				const struct pt_comm *c = &st->comm.v[j];
				bool added;
				pt_hashmap_put(&gmap, ((uint64_t)c->stream << 32) | c->tag, 0, &added);
				if (added) {
					pt_xgrow((void **)&g, &cg, ng + 1, sizeof(*g));
					g[ng++] = (struct group){ c->stream, c->tag, 0, c->type };
				}
			}
		}
	}
	pt_sort(g, ng, sizeof(*g), cmp_group);
	for (size_t i = 0; i < ng; i++) {
		g[i].k = (i && g[i - 1].stream == g[i].stream) ? g[i - 1].k + 1 : 0;
		*pt_hashmap_get(&gmap, ((uint64_t)g[i].stream << 32) | g[i].tag) = i;
	}

	struct pt_table *t = pt_table_new("steps", "Step Summary");
	bool devcol = nranks > 1;
	if (devcol)
		pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	size_t c0 = devcol ? 1 : 0;
	pt_table_add_col(t, "step", PT_COL_INT, PT_ROLE_KEY, 0);
	static const char *const fixed[] = { "start", "end", "total", "fp", "bp", "iteration_interval", "fp_and_bp",
					     "tail" };
	for (size_t i = 0; i < 8; i++)
		pt_table_add_col(t, fixed[i], PT_COL_TIME, PT_ROLE_VALUE, 0);
	size_t cg0 = c0 + 9;
	for (size_t i = 0; i < ng; i++) {
		static const char *const suf[] = { "start", "end", "dur" };
		const char *ty = pt_model_strget(m, g[i].type);
		for (int s = 0; s < 3; s++) {
			char *name = pt_xasprintf("stream_%" PRIu32 "_%" PRIu32 "_%s_%s", g[i].stream, g[i].k, ty,
						  suf[s]);
			pt_table_add_col(t, name, PT_COL_TIME, PT_ROLE_VALUE, 0);
			free(name);
		}
	}
	size_t cb0 = cg0 + 3 * ng;
	pt_table_add_col(t, "computation", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "overlapped", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "comm_not_overlapped", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "free", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "exec_count", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "aicpu_count", PT_COL_INT, PT_ROLE_VALUE, 0);

	/* text without --wide: the stages and the breakdown; the absolute times,
	 * the per-stream columns and the counts are detail columns */
	static const char *const shown[] = { "device_id", "step", "total", "iteration_interval", "fp_and_bp", "tail",
					     "computation", "comm_not_overlapped", "free", NULL };
	pt_table_set_default_cols(t, shown);

	bool *avgcol = pt_xcalloc(t->ncols, sizeof(*avgcol));
	avgcol[c0 + 3] = avgcol[c0 + 6] = avgcol[c0 + 7] = avgcol[c0 + 8] = true; /* total, ii, fp_and_bp, tail */
	for (size_t i = 0; i < ng; i++)
		avgcol[cg0 + 3 * i + 2] = true;
	for (size_t c = cb0; c < t->ncols; c++)
		avgcol[c] = true;

	for (size_t ri = 0; ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (!r->ascend)
			continue;
		const struct pt_steps_figs *f = &figs[ri];
		size_t in_ex = 0, in_ai = 0;
		size_t r0 = t->nrows;
		size_t *rowstep = pt_xmalloc((r->n ? r->n : 1) * sizeof(*rowstep));
		bool *complete = pt_xcalloc(r->n ? r->n : 1, sizeof(*complete));
		size_t nrows = 0;
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *w = &r->v[i];
			size_t ce = f->ce[i], ca = f->ca[i];
			in_ex += ce;
			in_ai += ca;
			if (!w->kept)
				continue;
			const struct pt_step *st = w->st;
			size_t row = pt_table_add_row(t);
			rowstep[nrows] = i;
			if (devcol)
				pt_table_set_int(t, row, 0, r->rank);
			pt_table_set_int(t, row, c0, w->num);
			uint32_t h = st->has;
			bool S = h & PT_STEP_HAS_START, F = h & PT_STEP_HAS_FP, B = h & PT_STEP_HAS_BP,
			     E = h & PT_STEP_HAS_END;
			if (S)
				pt_table_set_int(t, row, c0 + 1, st->start);
			if (E)
				pt_table_set_int(t, row, c0 + 2, st->end);
			if (S && E)
				pt_table_set_int(t, row, c0 + 3, st->end - st->start);
			if (F)
				pt_table_set_int(t, row, c0 + 4, st->fp);
			if (B)
				pt_table_set_int(t, row, c0 + 5, st->bp);
			if (S && F)
				pt_table_set_int(t, row, c0 + 6, st->fp - st->start);
			if (r->inference) {
				if (F && E)
					pt_table_set_int(t, row, c0 + 7, st->end - st->fp);
			} else {
				if (F && B)
					pt_table_set_int(t, row, c0 + 7, st->bp - st->fp);
				if (B && E)
					pt_table_set_int(t, row, c0 + 8, st->end - st->bp);
			}
			for (size_t j = 0; j < st->comm.n; j++) {
				const struct pt_comm *c = &st->comm.v[j];
				size_t gi = (size_t)*pt_hashmap_get(&gmap, ((uint64_t)c->stream << 32) | c->tag);
				size_t col = cg0 + 3 * gi;
				pt_table_set_int(t, row, col, c->start);
				pt_table_set_int(t, row, col + 1, c->end);
				pt_table_set_int(t, row, col + 2, c->end - c->start);
			}
			/* a step the device data does not reach has no device figures (not zero ones) */
			if (pt_steps_dev_figs(r, w)) {
				const struct pt_breakdown b = f->b[i];
				pt_table_set_int(t, row, cb0, b.computation);
				pt_table_set_int(t, row, cb0 + 1, b.overlapped);
				pt_table_set_int(t, row, cb0 + 2, b.comm_not_overlapped);
				pt_table_set_int(t, row, cb0 + 3, b.free);
				pt_table_set_int(t, row, cb0 + 4, (int64_t)ce);
				pt_table_set_int(t, row, cb0 + 5, (int64_t)ca);
			}
			complete[nrows] = S && F && E && (B || r->inference) && w->has_win;
			nrows++;
		}
		if (nrows) {
			bool *use = pt_xcalloc(nrows, sizeof(*use));
			avg_use(r, rowstep, nrows, complete, use);
			size_t ar = pt_table_add_row(t);
			if (devcol)
				pt_table_set_int(t, ar, 0, r->rank);
			pt_table_set_str(t, ar, c0, "avg", 3);
			avg_row(t, r0, r0 + nrows, use, avgcol, ar);
			free(use);
		}
		if (!si->filtered) {
			const struct pt_breakdown b = f->out;
			size_t orow = pt_table_add_row(t);
			if (devcol)
				pt_table_set_int(t, orow, 0, r->rank);
			pt_table_set_str(t, orow, c0, "outside", 7);
			pt_table_set_int(t, orow, c0 + 3, f->out_total);
			pt_table_set_int(t, orow, cb0, b.computation);
			pt_table_set_int(t, orow, cb0 + 1, b.overlapped);
			pt_table_set_int(t, orow, cb0 + 2, b.comm_not_overlapped);
			pt_table_set_int(t, orow, cb0 + 3, b.free);
			pt_table_set_int(t, orow, cb0 + 4, (int64_t)(f->nex - in_ex));
			pt_table_set_int(t, orow, cb0 + 5, (int64_t)(f->nai - in_ai));
		}
		free(rowstep);
		free(complete);
	}
	free(avgcol);
	free(g);
	pt_hashmap_free(&gmap);
	return t;
}

/* ------------------------------------------------------------------------
 * GPU table (summary.md §9.3)
 */

enum {
	G_RANK, G_DEVICE, G_STEP, G_START, G_END, G_TOTAL, G_DATALOADER, G_BUSY, G_IDLE, G_KERNEL, G_MEMCPY,
	G_MEMSET, G_COMM, G_COMP, G_OVERLAP, G_CNO, G_FREE, G_NKERNEL, G_NMEMCPY, G_NMEMSET, G_NCOLS
};

void pt_gpu_figs_alloc(struct pt_gpu_figs *f, size_t nwin)
{
	memset(f, 0, sizeof(*f));
	size_t n1 = nwin ? nwin : 1;
	f->m4 = pt_xcalloc(n1, sizeof(*f->m4));
	f->b = pt_xcalloc(n1, sizeof(*f->b));
	f->cnt = pt_xcalloc(n1, sizeof(*f->cnt));
}

void pt_gpu_figs_free(struct pt_gpu_figs *f)
{
	free(f->m4);
	free(f->b);
	free(f->cnt);
	memset(f, 0, sizeof(*f));
}

/* Time figures of one set of windows; only the host ones (total, dataloader) without dev_figs. */
static void gpu_times(struct pt_table *t, size_t row, const struct pt_ivset *win, const struct pt_ivset *dl,
		      bool has_dl, const int64_t m4[4], const struct pt_breakdown *b, bool has_dev, bool dev_figs)
{
	int64_t total = pt_ivset_measure(win);
	pt_table_set_int(t, row, G_TOTAL, total);
	if (has_dl) {
		int64_t v = 0;
		for (size_t i = 0; i < win->n; i++)
			v += pt_ivset_measure_in(dl, win->v[i].s, win->v[i].e);
		pt_table_set_int(t, row, G_DATALOADER, v);
	}
	if (!dev_figs)
		return;
	pt_table_set_int(t, row, G_BUSY, m4[0]);
	pt_table_set_int(t, row, G_IDLE, total - m4[0]);
	pt_table_set_int(t, row, G_KERNEL, m4[1]);
	pt_table_set_int(t, row, G_MEMCPY, m4[2]);
	pt_table_set_int(t, row, G_MEMSET, m4[3]);
	pt_table_set_int(t, row, G_COMM, b->communication);
	pt_table_set_int(t, row, G_COMP, b->computation);
	pt_table_set_int(t, row, G_OVERLAP, b->overlapped);
	pt_table_set_int(t, row, G_CNO, b->comm_not_overlapped);
	pt_table_set_int(t, row, G_FREE, has_dev ? b->free : 0);
}

/* Busy, kernel, memcpy and memset time of sets within ws, and its breakdown from the index. */
static void mem_times(struct pt_index *x, uint32_t dev, const struct pt_ivset *ws, const struct pt_ivset *sets,
		      int64_t m4[4], struct pt_breakdown *b)
{
	for (size_t k = 0; k < 4; k++) {
		m4[k] = 0;
		for (size_t i = 0; i < ws->n; i++)
			m4[k] += pt_ivset_measure_in(&sets[k], ws->v[i].s, ws->v[i].e);
	}
	pt_index_breakdown_set(x, dev, ws, b);
}

/* The device figures of device dev of GPU rank r from the model's events and the index. */
static void gpu_figs_mem(const struct pt_model *m, struct pt_index *x, const struct pt_rank_steps *r, uint32_t dev,
			 const struct pt_anchor_map *am, const struct pt_ivset *o, bool filtered, struct pt_gpu_figs *f)
{
	const struct pt_events *ev = &m->events;
	pt_gpu_figs_alloc(f, r->n);
	/* busy, kernel, memcpy, memset unions and anchors per type */
	struct ivv iv[4] = { { 0 } };
	struct i64v anc[3] = { { 0 } };
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!pt_steps_is_activity(k) || m->tracks.v[ev->track[i]].device != dev)
			continue;
		size_t ty = k == PT_EV_KERNEL ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
		iv_push(&iv[0], ev->start[i], ev->start[i] + ev->dur[i]);
		iv_push(&iv[1 + ty], ev->start[i], ev->start[i] + ev->dur[i]);
		i64_push(&anc[ty], pt_anchor_of(am, i));
	}
	struct pt_ivset sets[4] = { { 0 } };
	for (size_t k = 0; k < 4; k++) {
		pt_ivset_build(&sets[k], iv[k].v, iv[k].n);
		free(iv[k].v);
	}
	for (size_t k = 0; k < 3; k++)
		i64_sort(&anc[k]);
	uint64_t inwin[3] = { 0, 0, 0 };
	for (size_t i = 0; i < r->n; i++) {
		const struct pt_stepwin *w = &r->v[i];
		for (size_t k = 0; k < 3; k++) {
			f->cnt[i][k] = count_in(anc[k].v, anc[k].n, w->s, w->e);
			inwin[k] += f->cnt[i][k];
		}
		if (!w->kept || !(w->covered || !pt_steps_partly_covered(r)))
			continue;
		struct pt_ival one = { w->s, w->e };
		struct pt_ivset win = { &one, w->e > w->s ? 1 : 0, 1 };
		mem_times(x, dev, &win, sets, f->m4[i], &f->b[i]);
	}
	if (!filtered) {
		mem_times(x, dev, o, sets, f->om4, &f->ob);
		for (size_t k = 0; k < 3; k++)
			f->ocnt[k] = anc[k].n - inwin[k];
	}
	for (size_t k = 0; k < 4; k++)
		pt_ivset_free(&sets[k]);
	for (size_t k = 0; k < 3; k++)
		free(anc[k].v);
}

/* The Dataloader ranges of a GPU rank's host, as a set: from the streamed read or the events. */
static bool rank_loaders(const struct pt_model *m, const struct pt_rank_steps *r, struct pt_ivset *dl)
{
	const struct pt_events *ev = &m->events;
	struct ivv dlv = { 0 };
	if (r->dl) {
		for (size_t i = 0; i < r->ndl; i++)
			iv_push(&dlv, r->dl[i].s, r->dl[i].e);
	} else if (r->host != PT_NONE) {
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_RANGE && m->tracks.v[ev->track[i]].device == r->host &&
			    pt_steps_is_dataloader(pt_model_strget(m, ev->name[i])))
				iv_push(&dlv, ev->start[i], ev->start[i] + ev->dur[i]);
	}
	bool has_dl = dlv.n > 0;
	memset(dl, 0, sizeof(*dl));
	pt_ivset_build(dl, dlv.v, dlv.n);
	free(dlv.v);
	return has_dl;
}

/* A step of a GPU rank as its rows read it. */
struct gsrow {
	int64_t num, s, e;
	bool dev_figs; /* it gets device figures */
};

/* The rows of one device of a GPU rank (or of a rank without devices): its kept steps' rows, then
 * the avg row (has_avg), then the outside row (has_out). */
struct gblk {
	size_t r0, nrows;             /* its first row; its step rows */
	size_t rank;                  /* in gtab's ranks */
	bool has_dev;
	int64_t rank_num, dev_id;
	struct pt_gpu_figs f;         /* per step of the rank (taken from the caller) */
	uint32_t *rowstep;            /* per step row: the step */
	bool has_avg, has_out;
	struct pt_cell avg[G_NCOLS], out[G_NCOLS];
};

/* Per GPU rank: its steps and its Dataloader ranges. */
struct grank {
	struct gsrow *v;
	struct pt_ivset dl;
	bool has_dl;
};

/* The GPU table's rows, made when read (pt_table_set_rows): what they need, never the model. */
struct gtab {
	struct grank *r;
	size_t nr;
	struct gblk *b;
	size_t nb;
	struct pt_table *one; /* one row of the table's columns, filled by the code that fills a table */
};

static void gtab_free(void *arg)
{
	struct gtab *g = arg;
	for (size_t i = 0; i < g->nr; i++) {
		free(g->r[i].v);
		pt_ivset_free(&g->r[i].dl);
	}
	for (size_t i = 0; i < g->nb; i++) {
		pt_gpu_figs_free(&g->b[i].f);
		free(g->b[i].rowstep);
	}
	free(g->r);
	free(g->b);
	pt_table_free(g->one);
	free(g);
}

/* Step row k of block b into g->one's row (all null before). */
static void gsrow_fill(struct gtab *g, const struct gblk *b, size_t k)
{
	struct pt_table *t = g->one;
	const struct grank *gr = &g->r[b->rank];
	size_t i = b->rowstep[k];
	const struct gsrow *w = &gr->v[i];
	const struct pt_gpu_figs *f = &b->f;
	pt_table_set_int(t, 0, G_RANK, b->rank_num);
	if (b->has_dev)
		pt_table_set_int(t, 0, G_DEVICE, b->dev_id);
	pt_table_set_int(t, 0, G_STEP, w->num);
	pt_table_set_int(t, 0, G_START, w->s);
	pt_table_set_int(t, 0, G_END, w->e);
	struct pt_ival one = { w->s, w->e };
	struct pt_ivset win = { &one, w->e > w->s ? 1 : 0, 1 };
	gpu_times(t, 0, &win, &gr->dl, gr->has_dl, f->m4[i], &f->b[i], b->has_dev, w->dev_figs);
	for (size_t c = 0; c < 3 && w->dev_figs; c++)
		pt_table_set_int(t, 0, G_NKERNEL + c, (int64_t)f->cnt[i][c]);
}

static void gtab_row(void *arg, size_t r, struct pt_cell *cells)
{
	struct gtab *g = arg;
	size_t lo = 0, hi = g->nb; /* the last block starting at or before r */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->b[mid].r0 <= r)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct gblk *b = &g->b[lo - 1];
	size_t k = r - b->r0;
	if (k < b->nrows) {
		memset(g->one->cells, 0, G_NCOLS * sizeof(*cells));
		gsrow_fill(g, b, k);
		memcpy(cells, g->one->cells, G_NCOLS * sizeof(*cells));
	} else {
		memcpy(cells, k == b->nrows && b->has_avg ? b->avg : b->out, G_NCOLS * sizeof(*cells));
	}
}

/* The GPU steps table. Its rows are made when read, from the figures, which it takes (figs' arrays are
 * left empty), and from copies of what it needs of si and m. */
struct pt_table *pt_steps_gpu_table(const struct pt_model *m, const struct pt_steps_info *si,
				    struct pt_gpu_figs *const *figs)
{
	static const char *const names[G_NCOLS] = {
		"rank", "device_id", "step", "start", "end", "total", "dataloader", "busy", "idle", "kernel",
		"memcpy", "memset", "communication", "computation", "overlapped", "comm_not_overlapped", "free",
		"kernel_count", "memcpy_count", "memset_count",
	};
	struct pt_table *t = pt_table_new("steps", "Step Summary");
	struct gtab *g = pt_xcalloc(1, sizeof(*g));
	g->one = pt_table_new("steps", NULL);
	for (size_t c = 0; c < G_NCOLS; c++) {
		enum pt_col_type ty = c <= G_STEP || c >= G_NKERNEL ? PT_COL_INT : PT_COL_TIME;
		pt_table_add_col(t, names[c], ty, c <= G_STEP ? PT_ROLE_KEY : PT_ROLE_VALUE, 0);
		pt_table_add_col(g->one, names[c], ty, c <= G_STEP ? PT_ROLE_KEY : PT_ROLE_VALUE, 0);
	}
	pt_table_add_row(g->one);
	/* text without --wide: wall, busy and idle time and what the busy time
	 * was; the absolute times, the breakdown and the counts are detail columns */
	static const char *const shown[] = { "rank", "device_id", "step", "total", "dataloader", "busy", "idle",
					     "kernel", "memcpy", "memset", "communication", NULL };
	pt_table_set_default_cols(t, shown);
	bool avgcol[G_NCOLS] = { 0 };
	for (size_t c = G_TOTAL; c < G_NCOLS; c++)
		avgcol[c] = true;

	g->r = pt_xcalloc(si->n ? si->n : 1, sizeof(*g->r));
	size_t nblk = 0;
	for (size_t ri = 0; ri < si->n; ri++)
		nblk += si->r[ri].ascend ? 0 : si->r[ri].ndevs ? si->r[ri].ndevs : 1;
	g->b = pt_xcalloc(nblk ? nblk : 1, sizeof(*g->b));
	size_t nrows = 0;
	struct pt_table *one = g->one;
	for (size_t ri = 0; ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (r->ascend)
			continue;
		struct grank *gr = &g->r[g->nr++];
		gr->has_dl = rank_loaders(m, r, &gr->dl);
		gr->v = pt_xmalloc((r->n ? r->n : 1) * sizeof(*gr->v));
		size_t nkept = 0;
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *w = &r->v[i];
			/* device data over part of the steps: a step it does not reach has no device
			 * figures (not zero ones), and the avg row takes the covered ones */
			gr->v[i] = (struct gsrow){ w->num, w->s, w->e, w->covered || !pt_steps_partly_covered(r) };
			nkept += w->kept;
		}
		struct pt_ivset o = { 0 };
		if (!si->filtered)
			pt_steps_outside_set(r, &o);

		size_t ndev = r->ndevs ? r->ndevs : 1;
		for (size_t di = 0; di < ndev; di++) {
			struct gblk *b = &g->b[g->nb++];
			b->rank = g->nr - 1;
			b->has_dev = r->ndevs > 0;
			b->rank_num = r->rank;
			uint32_t dev = b->has_dev ? r->devs[di] : 0;
			b->dev_id = b->has_dev ? (int64_t)m->devices.v[dev].id : 0;
			b->f = figs[ri][di];
			memset(&figs[ri][di], 0, sizeof(figs[ri][di]));
			b->r0 = nrows;
			b->rowstep = pt_xmalloc((nkept ? nkept : 1) * sizeof(*b->rowstep));
			bool *complete = pt_xcalloc(nkept ? nkept : 1, sizeof(*complete));
			size_t *rowstep = pt_xmalloc((nkept ? nkept : 1) * sizeof(*rowstep));
			for (size_t i = 0; i < r->n; i++) {
				if (!r->v[i].kept)
					continue;
				rowstep[b->nrows] = i;
				b->rowstep[b->nrows] = (uint32_t)i;
				complete[b->nrows++] = gr->v[i].dev_figs;
			}
			nrows += b->nrows;
			if (b->nrows) {
				/* the avg row over the step rows it takes, read as the table reads them */
				bool *use = pt_xcalloc(b->nrows, sizeof(*use));
				avg_use(r, rowstep, b->nrows, complete, use);
				struct acc a[G_NCOLS];
				memset(a, 0, sizeof(a));
				for (size_t k = 0; k < b->nrows; k++) {
					if (!use[k])
						continue;
					memset(one->cells, 0, G_NCOLS * sizeof(*one->cells));
					gsrow_fill(g, b, k);
					for (size_t c = 0; c < G_NCOLS; c++)
						if (avgcol[c])
							acc_add(&a[c], pt_table_cell(one, 0, c));
				}
				memset(one->cells, 0, G_NCOLS * sizeof(*one->cells));
				pt_table_set_int(one, 0, G_RANK, r->rank);
				if (b->has_dev)
					pt_table_set_int(one, 0, G_DEVICE, b->dev_id);
				pt_table_set_str(one, 0, G_STEP, "avg", 3);
				for (size_t c = 0; c < G_NCOLS; c++)
					if (avgcol[c] && a[c].n)
						pt_table_set_int(one, 0, c, pt_steps_mean(a[c].sum, a[c].n));
				memcpy(b->avg, one->cells, sizeof(b->avg));
				b->has_avg = true;
				nrows++;
				free(use);
			}
			if (!si->filtered) {
				memset(one->cells, 0, G_NCOLS * sizeof(*one->cells));
				pt_table_set_int(one, 0, G_RANK, r->rank);
				if (b->has_dev)
					pt_table_set_int(one, 0, G_DEVICE, b->dev_id);
				pt_table_set_str(one, 0, G_STEP, "outside", 7);
				gpu_times(one, 0, &o, &gr->dl, gr->has_dl, b->f.om4, &b->f.ob, b->has_dev, true);
				for (size_t k = 0; k < 3; k++)
					pt_table_set_int(one, 0, G_NKERNEL + k, (int64_t)b->f.ocnt[k]);
				memcpy(b->out, one->cells, sizeof(b->out));
				b->has_out = true;
				nrows++;
			}
			free(rowstep);
			free(complete);
		}
		pt_ivset_free(&o);
	}
	pt_table_set_rows(t, nrows, gtab_row, g, gtab_free);
	return t;
}

static struct pt_table *gpu_table(const struct pt_model *m, struct pt_index *x, const struct pt_steps_info *si)
{
	struct pt_gpu_figs **figs = pt_xcalloc(si->n ? si->n : 1, sizeof(*figs));
	for (size_t ri = 0; ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (r->ascend)
			continue;
		size_t ndev = r->ndevs ? r->ndevs : 1;
		figs[ri] = pt_xcalloc(ndev, sizeof(**figs));
		struct pt_anchor_map *own = r->am ? NULL : pt_anchor_map_new(m, r->host);
		const struct pt_anchor_map *am = r->am ? r->am : own;
		struct pt_ivset o = { 0 };
		if (!si->filtered)
			pt_steps_outside_set(r, &o);
		for (size_t di = 0; di < ndev; di++) {
			if (r->ndevs)
				gpu_figs_mem(m, x, r, r->devs[di], am, &o, si->filtered, &figs[ri][di]);
			else
				pt_gpu_figs_alloc(&figs[ri][di], r->n);
		}
		pt_ivset_free(&o);
		pt_anchor_map_free(own);
	}
	struct pt_table *t = pt_steps_gpu_table(m, si, figs);
	for (size_t ri = 0; ri < si->n; ri++) {
		size_t ndev = si->r[ri].ndevs ? si->r[ri].ndevs : 1;
		for (size_t di = 0; figs[ri] && di < ndev; di++)
			pt_gpu_figs_free(&figs[ri][di]);
		free(figs[ri]);
	}
	free(figs);
	return t;
}

int pt_pass_steps(const struct pt_model *m, struct pt_index *x, const struct pt_sel *sel,
		  struct pt_table **out, size_t *nout, struct pt_diag *d, struct pt_err **e)
{
	struct pt_steps_info si;
	*nout = 0;
	if (pt_steps_collect(m, sel, &si, d, e))
		return -1;
	pt_steps_coverage_note(&si, "the avg row's device figures are over those", d);
	bool asc = false, gpu = false;
	for (size_t i = 0; i < si.n; i++) {
		asc |= si.r[i].ascend;
		gpu |= !si.r[i].ascend;
	}
	if (asc) {
		struct pt_steps_figs *f = pt_xcalloc(si.n, sizeof(*f));
		for (size_t i = 0; i < si.n; i++)
			if (si.r[i].ascend)
				ascend_figs_mem(m, x, &si.r[i], si.filtered, &f[i]);
		out[(*nout)++] = pt_steps_ascend_table(m, &si, f);
		for (size_t i = 0; i < si.n; i++)
			pt_steps_figs_free(&f[i]);
		free(f);
	}
	if (gpu)
		out[(*nout)++] = gpu_table(m, x, &si);
	for (size_t i = 0; i < *nout; i++)
		if (!out[i]->nrows) {
			char why[160];
			pt_table_set_empty(out[i], pt_sel_empty_reason(sel, "steps", why, sizeof(why)));
		}
	pt_steps_info_free(&si);
	if (!*nout) {
		return pt_err_nodata(e, "step", sel->device, "a step trace or device activity (kernels, tasks)");
	}
	return 0;
}
