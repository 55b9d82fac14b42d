/*
 * The rules of hints.md §3 over the model index, the step windows of
 * pt_steps_collect() and the MindData rows of pt_dataset_md_hints().
 */
#define _GNU_SOURCE /* memmem */
#include "pass/pass-hints.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <demangle.h>

#include "model/ascend-memory.h"
#include "model/hccl-links.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/flops-common.h"
#include "model/gpu-memory.h"
#include "pass/pass-steps.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/interval.h"
#include "support/names.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

enum { ST_NONE = 0, ST_EVAL = 1, ST_NE = 2, ST_DIS = 3 };
enum { RT_NCOL = 9 };

struct rk {
	int64_t rank;
	uint8_t st[PT_HR__N];
	bool fired[PT_HR__N];
	bool has_gap;
	double mean_gap; /* STEP_GAP metric, for RANK_STEP_GAP */
	bool seen;       /* a rank of the step windows (not MindData only) */
	double flops;    /* Σ FLOPs of K over its devices (LOW_FLOPS_UTIL), for RANK_FLOPS and PP_STAGE_FLOPS */
	int64_t flops_busy;
	bool has_flops;
	size_t nsteps;   /* windows evaluated (kept steps, or the span) */
	bool has_hccl;   /* HCCL trace events on one of its devices (SLOW_LINK) */
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_hint_knobs *k;
	const struct pt_hints_opts *o;
	struct pt_hints *h;
	struct rk *rk;
	size_t nrk;
	struct pt_flops_opfig *fig; /* per-execution FLOPs of the ops */
	struct pt_flops_range *gr;  /* GPU: PyTorch operator ranges with their FLOPs */
	size_t ngr;
	uint32_t *kr;               /* per event: the range (index + 1) a kernel's innermost range is, 0 none */
	uint32_t *lr;               /* per event: the range of its first link that has one (link_range), lazily */
	bool filtered;              /* --steps or --time-window: HCCL executions count when they start in W */
	struct pt_hccl_link *links; /* HCCL links of every device (ascend.md §3.10) */
	size_t nlinks, caplinks;
	char **dm;                  /* demangled names by string id (lazy; dm_done marks computed) */
	uint8_t *dm_done;
	char **an;                  /* API output names by string id (lazy; NULL: the name as recorded) */
	/* rank table rows (RANK_SPREAD): per covered (rank, device) */
	struct rt {
		int64_t rank;
		uint32_t dev;
		double col[RT_NCOL];
		bool has_rv;          /* receive ops on the device */
		int64_t rv_alone;     /* Σ |(Rv − C) ∩ S| (PP_RECEIVE) */
		int64_t cnox;         /* Σ comm_not_overlapped_excl_receive (PP_STAGE_COMM) */
		int64_t step;         /* Σ |S| */
	} *rt;
	size_t nrt, capt;
};

static const char *const rt_cols[RT_NCOL] = { "computation", "communication", "overlapped", "comm_not_overlapped",
					      "free", "bubble", "stage", "comm_not_overlapped_excl_receive",
					      "preparing" };

/* ---- helpers --------------------------------------------------------------- */

static struct rk *rank_of(struct ctx *c, int64_t rank)
{
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].rank == rank)
			return &c->rk[i];
	c->rk = pt_xrealloc(c->rk, (c->nrk + 1) * sizeof(*c->rk));
	struct rk *r = &c->rk[c->nrk++];
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	return r;
}

static void mark_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank)
{
	rank_of(c, rank)->st[rule] = ST_EVAL;
}

static void not_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void not_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope, const char *fmt, ...)
{
	struct rk *r = rank_of(c, rank);
	if (r->st[rule] == ST_NONE)
		r->st[rule] = ST_NE;
	struct pt_hint *x = pt_hints_add(c->h, rule, rank, scope);
	x->status = PT_HS_NOT_EVALUATED;
	va_list ap;
	va_start(ap, fmt);
	char buf[512];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	x->reason = pt_xstrdup(buf);
}

static bool enabled(struct ctx *c, enum pt_hint_rule rule)
{
	return !c->k->disabled[rule];
}

static char *msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = pt_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* A time in the message unit, two decimals: "0.65 ms". */
static const char *ftime(const struct ctx *c, char *b, int64_t ns)
{
	snprintf(b, 48, "%.2f %s", (double)ns / (double)c->o->unit_div, c->o->unit_name);
	return b;
}

static struct pt_hint *fire(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope,
			    enum pt_hint_sev sev, const char *metric, const char *unit, double value, double thr)
{
	struct pt_hint *x = pt_hints_add(c->h, rule, rank, scope);
	x->sev = sev;
	x->metric = pt_xstrdup(metric);
	x->unit = pt_xstrdup(unit);
	x->value = value;
	x->threshold = thr;
	rank_of(c, rank)->fired[rule] = true;
	return x;
}

static double pct(int64_t a, int64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static int64_t mean_round(__int128 sum, int64_t n)
{
	return n ? pt_steps_mean(sum, n) : 0;
}

static bool is_dev_activity(uint8_t k)
{
	return k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET || k == PT_EV_TASK || k == PT_EV_AICPU;
}

/* Base name of a runtime API: without a trailing _v<digits>. */
static size_t api_base_len(const char *s)
{
	size_t l = strlen(s);
	size_t i = l;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i < l && i >= 2 && s[i - 1] == 'v' && s[i - 2] == '_')
		return i - 2;
	return l;
}

static bool in_list(const char *list, const char *s, size_t n)
{
	for (const char *p = list; p && *p;) {
		const char *q = strchr(p, ',');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l == n && !strncmp(p, s, n))
			return true;
		if (!q)
			break;
		p = q + 1;
	}
	return false;
}

/* A name as hint text shows it: C++ names demangled unless --no-demangle. */
static const char *dname(struct ctx *c, uint32_t id)
{
	const char *s = pt_model_strget(c->m, id);
	if (c->o->no_demangle || !s || s[0] != '_' || s[1] != 'Z' || id >= c->m->strings.n)
		return s;
	if (!c->dm) {
		c->dm = pt_xcalloc(c->m->strings.n, sizeof(*c->dm));
		c->dm_done = pt_xcalloc(c->m->strings.n, 1);
	}
	if (!c->dm_done[id]) {
		c->dm_done[id] = 1;
		c->dm[id] = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
	}
	return c->dm[id] ? c->dm[id] : s;
}

/* An API name as every view prints it (cupti.md §6.10): without a trailing _v and four or more digits. */
static const char *aname(struct ctx *c, uint32_t id)
{
	const char *s = pt_model_strget(c->m, id);
	if (!s || id >= c->m->strings.n)
		return s;
	size_t n = strlen(s), k = pt_api_name_len(s, n);
	if (k == n)
		return s;
	if (!c->an)
		c->an = pt_xcalloc(c->m->strings.n, sizeof(*c->an));
	if (!c->an[id])
		c->an[id] = pt_xstrndup(s, k);
	return c->an[id];
}

/* The range (event index + 1) of the first link of event i that has one, 0
 * if none: one pass over the links for all events, not one per kernel. */
static uint32_t link_range(struct ctx *c, size_t i)
{
	const struct pt_model *m = c->m;
	size_t n = m->events.n;
	if (!c->lr) {
		c->lr = pt_xcalloc(n ? n : 1, sizeof(*c->lr));
		for (size_t l = 0; l < m->links.n; l++)
			if (m->links.v[l].event < n && !c->lr[m->links.v[l].event])
				c->lr[m->links.v[l].event] = m->links.v[l].range;
	}
	return i < n ? c->lr[i] : 0;
}

/* A pipeline receive (hints.md §2.4): lower-cased name contains "receive" or "recv". */
static bool recv_name(const char *s)
{
	for (const char *p = s; p && *p; p++)
		if (!strncasecmp(p, "recv", 4) || !strncasecmp(p, "receive", 7))
			return true;
	return false;
}

/* Named totals, kept in first-seen order then sorted for output. `at` finds
 * an entry in constant time (a model may have millions of distinct names):
 * nl_get keys it by the name's string id, nl_get_api by a hash of the API
 * output name (the first entry of that hash; another name of the same hash
 * is searched for). A list is used with one of the two only. */
struct named {
	uint32_t name;
	int64_t a, b; /* time / count */
};

struct nlist {
	struct named *v;
	size_t n, cap;
	struct pt_hashmap at; /* key -> index in v */
};

static struct named *nl_add(struct nlist *l, uint32_t name)
{
	pt_xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n] = (struct named){ name, 0, 0 };
	return &l->v[l->n++];
}

static struct named *nl_get(struct nlist *l, uint32_t name)
{
	bool added;
	uint64_t *i = pt_hashmap_put(&l->at, name, l->n, &added);
	return added ? nl_add(l, name) : &l->v[*i];
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* API lists: grouped and ordered by output name (aname). Every entry has a
 * name of its own, so the first entry of a name is the only one. */
static struct named *nl_get_api(struct ctx *c, struct nlist *l, uint32_t name)
{
	const char *s = aname(c, name);
	bool added;
	uint64_t *i = pt_hashmap_put(&l->at, str_hash(s), l->n, &added);
	if (added)
		return nl_add(l, name);
	struct named *x = &l->v[*i];
	if (x->name == name || !strcmp(aname(c, x->name), s))
		return x;
	for (size_t j = 0; j < l->n; j++) /* a hash collision */
		if (l->v[j].name == name || !strcmp(aname(c, l->v[j].name), s))
			return &l->v[j];
	return nl_add(l, name);
}

static void nl_free(struct nlist *l)
{
	free(l->v);
	pt_hashmap_free(&l->at);
}

/* Lists are ordered by their count or time, descending, then by the name as
 * printed (byte order): kernel and op names demangled (dname), API names
 * without their _vNNNN suffix (aname). */
static struct ctx *sort_c;
static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	if (a->a != b->a)
		return a->a > b->a ? -1 : 1;
	return strcmp(dname(sort_c, a->name), dname(sort_c, b->name));
}

static void nl_sort(struct ctx *c, struct nlist *l)
{
	sort_c = c;
	pt_sort(l->v, l->n, sizeof(*l->v), cmp_named);
}

static int cmp_named_api(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	if (a->a != b->a)
		return a->a > b->a ? -1 : 1;
	return strcmp(aname(sort_c, a->name), aname(sort_c, b->name));
}

static void nl_sort_api(struct ctx *c, struct nlist *l)
{
	sort_c = c;
	pt_sort(l->v, l->n, sizeof(*l->v), cmp_named_api);
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Nearest-rank percentile of sorted v. */
static int64_t pctile(const int64_t *v, size_t n, int p)
{
	if (!n)
		return 0;
	size_t r = (size_t)((p * n + 99) / 100);
	if (r < 1)
		r = 1;
	return v[r - 1];
}

/* ---- per-rank data -------------------------------------------------------------- */

struct rankdata {
	const struct pt_rank_steps *r;
	struct pt_anchor_map *am;   /* GPU ranks */
	struct pt_ivset W;
	struct pt_ival *win;        /* windows evaluated (kept steps, or the span) */
	int64_t *winnum;            /* their step numbers (-1 for the span) */
	size_t nwin;
	bool steps;                 /* windows are steps */
	struct pt_ivset D, H;       /* Dataloader ranges, other host ranges */
	int64_t loader_wall;        /* Σ wall time of member Dataloader ranges */
	bool has_loader;
};

static int64_t anchor(const struct rankdata *rd, const struct pt_model *m, size_t i)
{
	return rd->am ? pt_anchor_of(rd->am, i) : m->events.start[i];
}

static bool member(const struct rankdata *rd, const struct pt_model *m, size_t i)
{
	return pt_ivset_contains(&rd->W, anchor(rd, m, i));
}

static void rd_init(struct ctx *c, const struct pt_rank_steps *r, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	if (!r->ascend && r->host != PT_NONE)
		rd->am = pt_anchor_map_new(m, r->host);
	rd->win = pt_xmalloc((r->n + 1) * sizeof(*rd->win));
	rd->winnum = pt_xmalloc((r->n + 1) * sizeof(*rd->winnum));
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kept && r->v[i].has_win && r->v[i].e > r->v[i].s) {
			rd->win[rd->nwin] = (struct pt_ival){ r->v[i].s, r->v[i].e };
			rd->winnum[rd->nwin++] = r->v[i].num;
		}
	rd->steps = rd->nwin > 0;
	if (!r->n && r->has_span && r->span_e > r->span_s) {
		rd->win[0] = (struct pt_ival){ r->span_s, r->span_e };
		rd->winnum[0] = -1;
		rd->nwin = 1;
	}
	struct pt_ival *tmp = pt_xmalloc((rd->nwin + 1) * sizeof(*tmp));
	memcpy(tmp, rd->win, rd->nwin * sizeof(*tmp));
	pt_ivset_build(&rd->W, tmp, rd->nwin);
	free(tmp);
	if (r->host == PT_NONE)
		return;
	struct pt_ival *d = NULL, *h = NULL;
	size_t nd = 0, cd = 0, nh = 0, ch = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
			continue;
		bool step = false;
		for (size_t j = 0; j < r->n && !step; j++)
			step = r->v[j].ev == i;
		if (step)
			continue;
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
	pt_ivset_build(&rd->D, d, nd);
	pt_ivset_build(&rd->H, h, nh);
	free(d);
	free(h);
}

static void rd_free(struct rankdata *rd)
{
	if (rd->am)
		pt_anchor_map_free(rd->am);
	pt_ivset_free(&rd->W);
	pt_ivset_free(&rd->D);
	pt_ivset_free(&rd->H);
	free(rd->win);
	free(rd->winnum);
}

/* ---- STEP_GAP -------------------------------------------------------------------- */

/*
 * STEP_GAP of one rank. Its metric (the mean step interval) is also the
 * input of RANK_STEP_GAP, so it is measured whether or not STEP_GAP itself
 * is enabled (emit).
 */
static void rule_step_gap(struct ctx *c, struct rankdata *rd, bool emit)
{
	const struct pt_model *m = c->m;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	size_t kept = 0;
	for (size_t i = 0; i < r->n; i++)
		kept += r->v[i].kept;
	if (kept < 2) {
		if (emit)
			not_eval(c, PT_HR_STEP_GAP, rank, "rank", "fewer than 2 steps");
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
		/* first member device start / last end per kept step */
		size_t nw = rd->nwin;
		int64_t *first = pt_xmalloc((nw + 1) * sizeof(*first)), *last = pt_xmalloc((nw + 1) * sizeof(*last));
		for (size_t w = 0; w < nw; w++)
			first[w] = INT64_MAX, last[w] = INT64_MIN;
		const struct pt_events *ev = &m->events;
		for (size_t i = 0; i < ev->n; i++) {
			if (!is_dev_activity(ev->kind[i]))
				continue;
			uint32_t dev = m->tracks.v[ev->track[i]].device;
			bool mine = false;
			for (size_t j = 0; j < r->ndevs && !mine; j++)
				mine = r->devs[j] == dev;
			if (!mine)
				continue;
			int64_t a = anchor(rd, m, i);
			for (size_t w = 0; w < nw; w++)
				if (a >= rd->win[w].s && a < rd->win[w].e) {
					if (ev->start[i] < first[w])
						first[w] = ev->start[i];
					if (ev->start[i] + ev->dur[i] > last[w])
						last[w] = ev->start[i] + ev->dur[i];
					break;
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
		if (emit)
			not_eval(c, PT_HR_STEP_GAP, rank, "rank", "no step interval can be measured");
		return;
	}
	double mean = (double)sum / (double)gaps;
	struct rk *rr = rank_of(c, rank);
	rr->has_gap = true;
	rr->mean_gap = mean;
	if (!emit)
		return;
	mark_eval(c, PT_HR_STEP_GAP, rank);
	double thr = c->k->step_gap_ms * 1e6;
	if (!(mean > thr))
		return;
	int64_t mr = mean_round(sum, gaps);
	struct pt_hint *x = fire(c, PT_HR_STEP_GAP, rank, "rank", PT_SEV_WARN, "mean_gap", "ns", (double)mr,
				 round(thr));
	char b1[48], b2[48];
	x->message = msg("Devices wait %s on average between the end of one step and the start of the next "
			 "(threshold %s): time spent bringing the next batch to the device. See the MindData hints; "
			 "with graph mode, dataset sink mode removes most of this gap.",
			 ftime(c, b1, mr), ftime(c, b2, (int64_t)round(thr)));
	pt_hint_ev_int(x, "mean_gap_ns", mr);
	pt_hint_ev_int(x, "max_gap_ns", maxg);
	pt_hint_ev_int(x, "max_gap_step", maxstep);
	pt_hint_ev_int(x, "gaps", gaps);
	pt_hint_ev_int(x, "steps", (int64_t)kept);
}

/* ---- device rules ------------------------------------------------------------------- */

static const char *copy_kind_name(uint8_t k)
{
	static const char *const n[] = { "other", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
					 "HtoH", "PtoP" };
	return k < sizeof(n) / sizeof(n[0]) ? n[k] : "other";
}

static const struct pt_copy_info *copy_of(const struct pt_model *m, size_t ev)
{
	size_t lo = 0, hi = m->copies.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->copies.v[mid].event < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->copies.n && m->copies.v[lo].event == ev ? &m->copies.v[lo] : NULL;
}

static const struct pt_range_info *range_of(const struct pt_model *m, size_t ev)
{
	size_t lo = 0, hi = m->ranges.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->ranges.v[mid].event < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ranges.n && m->ranges.v[lo].event == ev ? &m->ranges.v[lo] : NULL;
}

struct memop {
	size_t ev;
	int64_t exposed;
	const char *kind;
};

static int cmp_memop(const void *pa, const void *pb)
{
	const struct memop *a = pa, *b = pb;
	if (a->exposed != b->exposed)
		return a->exposed > b->exposed ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

struct devacc {
	int64_t step, comp, comm, ovl, cno, free, prep;
	int64_t bub, cnox, rva; /* bubble, comm_not_overlapped_excl_receive, |(Rv − C) ∩ S| */
	int64_t memcpy_t, memset_t, runtime_t, dl_t, cpu_t, other_t;
	int64_t worst_dl_step;
	double worst_dl_pct;
	bool has_worst;
	size_t nsteps;
};

static void ne_device(struct ctx *c, int64_t rank, const char *scope, const char *why)
{
	static const enum pt_hint_rule rules[] = { PT_HR_INPUT_BOUND, PT_HR_UNEXPLAINED_TIME, PT_HR_LOW_DEVICE_UTIL,
						   PT_HR_LAUNCH_BOUND, PT_HR_LAUNCH_DELAY, PT_HR_RUNTIME_OUTLIER,
						   PT_HR_SHORT_KERNELS, PT_HR_DEVICE_IDLE, PT_HR_COMM_EXPOSED,
						   PT_HR_TOP_OPS, PT_HR_MEM_OPS_CRITICAL, PT_HR_LOW_FLOPS_UTIL,
						   PT_HR_UNATTRIBUTED_DEVICE };
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (enabled(c, rules[i]))
			not_eval(c, rules[i], rank, scope, "%s", why);
}

struct lowutil {
	uint32_t dev, id;
	int64_t busy, window;
};

struct fexec {
	uint32_t type;
	struct pt_ival iv;
	long double f; /* FLOPs it contributes (GPU: a range's, on its first kernel) */
};

static int cmp_fexec(const void *pa, const void *pb)
{
	const struct fexec *a = pa, *b = pb;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return a->iv.s < b->iv.s ? -1 : a->iv.s > b->iv.s;
}

/* |union(iv) ∩ W| of a run of executions. */
static int64_t busy_in(const struct rankdata *rd, const struct fexec *v, size_t n)
{
	struct pt_ival *iv = pt_xmalloc((n ? n : 1) * sizeof(*iv));
	for (size_t i = 0; i < n; i++)
		iv[i] = v[i].iv;
	struct pt_ivset u = { 0 }, x = { 0 };
	pt_ivset_build(&u, iv, n);
	pt_ivset_inter(&x, &u, &rd->W);
	int64_t b = pt_ivset_measure(&x);
	pt_ivset_free(&u);
	pt_ivset_free(&x);
	free(iv);
	return b;
}

/*
 * LOW_FLOPS_UTIL on one covered device (hints.md §3): acts = its member
 * activities. The FLOPs of K are added to the rank's figures (RANK_FLOPS,
 * PP_STAGE_FLOPS) whether or not the rule itself is enabled (emit).
 */
static void rule_flops(struct ctx *c, struct rankdata *rd, uint32_t dev, const char *scope, const struct pt_ival *acts,
		       size_t nacts, int64_t comp, bool emit)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = rd->r->rank;
	struct pt_flops_peak pk;
	pt_flops_device_peak(m, dev, &pk);
	const char *psrc = pk.src == PT_PEAK_SRC_TABLE ? "table" : "info.json";
	if (k->flops_peak_tflops > 0) {
		pk.flops = k->flops_peak_tflops * 1e12;
		psrc = "hint";
	}
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
		size_t i = (size_t)acts[j].e;
		if (pt_index_is_comm(c->x, i))
			continue;
		uint32_t type;
		long double f;
		if (ev->kind[i] == PT_EV_TASK && ev->op[i]) {
			const struct pt_flops_opfig *fg = &c->fig[ev->op[i] - 1];
			if (!fg->known)
				continue;
			const struct pt_op *op = &m->ops.v[ev->op[i] - 1];
			type = op->type ? op->type : op->name;
			f = (long double)fg->flops;
		} else if (ev->kind[i] == PT_EV_KERNEL && c->kr && c->kr[i]) {
			uint32_t q = c->kr[i] - 1;
			const struct pt_flops_range *r = &c->gr[q];
			if (!r->known || r->nonzero_desc)
				continue;
			type = r->type;
			f = rdone[q] ? 0 : (long double)r->flops;
			rdone[q] = 1;
		} else {
			continue;
		}
		pt_xgrow((void **)&kx, &ck, nk + 1, sizeof(*kx));
		kx[nk++] = (struct fexec){ type, { ev->start[i], ev->start[i] + ev->dur[i] }, f };
		F += f;
	}
	free(rdone);
	int64_t B = busy_in(rd, kx, nk);
	if (nk && B) {
		struct rk *rr = rank_of(c, rank);
		rr->has_flops = true;
		rr->flops += (double)F;
		rr->flops_busy += B;
	}
	if (!emit) {
		free(kx);
		return;
	}
	if (!(pk.flops > 0)) {
		not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "%s",
			 gpu ? "no device peak (the GPU is not in the peak table; set hints.flops_util.peak_tflops)"
			     : "no device peak");
		free(kx);
		return;
	}
	if (!nk || !B) {
		not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "%s",
			 gpu ? "no kernel FLOPs known (no PyTorch operator ranges with input sizes)" : "no FLOPs data");
		free(kx);
		return;
	}
	double cov = pct(B, comp);
	if (cov < k->flops_min_coverage_pct) {
		not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "ops with known FLOPs cover %.1f%% of computation time "
			 "(below %.1f%%)", cov, k->flops_min_coverage_pct);
		free(kx);
		return;
	}
	mark_eval(c, PT_HR_LOW_FLOPS_UTIL, rank);
	double achieved = (double)(F / ((long double)B / 1e9L));
	double util = 100.0 * achieved / pk.flops;
	if (util < k->flops_low_pct) {
		char t[64];
		struct pt_hint *x = fire(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, PT_SEV_WARN, "util_pct", "pct", util,
					 k->flops_low_pct);
		x->message = msg("While device %" PRIu32 " runs ops with known FLOPs it reaches %.2f TFLOPS, %.1f%% of its "
				 "%.2f TFLOPS peak (threshold %.1f%%). Efficiency this low usually means small or badly "
				 "shaped operations, memory-bound element-wise work, or a data type the fast units do not "
				 "handle: use larger batches or fused ops, align dimensions to the hardware tile (16 on "
				 "Ascend, multiples of 8 for Tensor Cores), and compute in FP16/BF16 where accuracy allows.",
				 m->devices.v[dev].id, achieved / 1e12, util, pk.flops / 1e12, k->flops_low_pct);
		pt_hint_ev_dbl(x, "util_pct", util);
		snprintf(t, sizeof(t), "%.0Lf", F);
		pt_hint_ev_num(x, "flops", t);
		pt_hint_ev_int(x, "busy_ns", B);
		pt_hint_ev_dbl(x, "achieved_tflops", achieved / 1e12);
		snprintf(t, sizeof(t), "%.0f", pk.flops);
		pt_hint_ev_num(x, "peak_flops", t);
		pt_hint_ev_str(x, "peak_source", psrc);
		pt_hint_ev_dbl(x, "coverage_pct", cov);
		/* the three op types with the most time in K, each with its utilisation */
		pt_sort(kx, nk, sizeof(*kx), cmp_fexec);
		struct tfig {
			uint32_t type;
			int64_t busy;
			long double f;
		} *tv = pt_xmalloc(nk * sizeof(*tv));
		size_t nt = 0;
		for (size_t i = 0; i < nk;) {
			size_t j = i;
			long double tf = 0;
			while (j < nk && kx[j].type == kx[i].type)
				tf += kx[j++].f;
			tv[nt++] = (struct tfig){ kx[i].type, busy_in(rd, kx + i, j - i), tf };
			i = j;
		}
		/* by time descending, then name */
		for (size_t a = 1; a < nt; a++)
			for (size_t b = a; b > 0; b--) {
				struct tfig *p = &tv[b - 1], *q = &tv[b];
				bool sw = q->busy > p->busy ||
					  (q->busy == p->busy &&
					   strcmp(pt_model_strget(m, q->type), pt_model_strget(m, p->type)) < 0);
				if (!sw)
					break;
				struct tfig tmp = *p;
				*p = *q;
				*q = tmp;
			}
		for (size_t q = 0; q < nt && q < 3; q++) {
			int ix = (int)q + 1;
			pt_hint_ev_item(x, "types", ix, "name", pt_model_strget(m, tv[q].type), false);
			snprintf(t, sizeof(t), "%" PRId64, tv[q].busy);
			pt_hint_ev_item(x, "types", ix, "busy_ns", t, true);
			double tu = tv[q].busy ? (double)(tv[q].f / ((long double)tv[q].busy / 1e9L)) / pk.flops * 100 : 0;
			snprintf(t, sizeof(t), "%.4f", tu);
			pt_hint_ev_item(x, "types", ix, "util_pct", t, true);
		}
		free(tv);
	}
	free(kx);
}

static void device_rules(struct ctx *c, struct rankdata *rd, uint32_t dev, struct lowutil **lu, size_t *nlu)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	uint32_t did = m->devices.v[dev].id;
	char scope[48];
	snprintf(scope, sizeof(scope), "device:%" PRIu32, did);
	/* member activities of the device, by start */
	struct pt_ival *acts = NULL;
	size_t nacts = 0, cacts = 0;
	bool has_mem = false;
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_dev_activity(ev->kind[i]) || m->tracks.v[ev->track[i]].device != dev || !member(rd, m, i))
			continue;
		pt_xgrow((void **)&acts, &cacts, nacts + 1, sizeof(*acts));
		acts[nacts++] = (struct pt_ival){ ev->start[i], (int64_t)i };
		has_mem |= ev->kind[i] == PT_EV_MEMCPY || ev->kind[i] == PT_EV_MEMSET;
	}
	if (!nacts || !rd->nwin) {
		ne_device(c, rank, scope, "no device activity");
		free(acts);
		return;
	}
	pt_ival_sort(acts, nacts);
	const struct pt_ivset *C = pt_index_comp(c->x, dev), *M = pt_index_comm(c->x, dev);
	const struct pt_ivset *Mc = pt_index_kind_set(c->x, dev, PT_EV_MEMCPY);
	const struct pt_ivset *Ms = pt_index_kind_set(c->x, dev, PT_EV_MEMSET);
	struct pt_ivset empty = { 0 };
	const struct pt_ivset *R = r->host != PT_NONE ? pt_index_kind_set(c->x, r->host, PT_EV_API) : &empty;
	struct pt_ivset CM = { 0 }, Wc = { 0 }, F = { 0 }, t1 = { 0 }, t2 = { 0 }, rem = { 0 }, clip = { 0 };
	pt_ivset_union(&CM, C, M);
	/* Rv: communication whose lower-cased name contains "receive" or "recv" (hints.md §2.4) */
	struct pt_ivset Rv = { 0 }, MRC = { 0 }, RvC = { 0 };
	{
		struct pt_ival *rv = NULL;
		size_t nrv = 0, crv = 0;
		for (size_t i = 0; i < ev->n; i++) {
			if (!is_dev_activity(ev->kind[i]) || m->tracks.v[ev->track[i]].device != dev ||
			    !pt_index_is_comm(c->x, i) || !recv_name(pt_model_strget(m, ev->name[i])))
				continue;
			pt_xgrow((void **)&rv, &crv, nrv + 1, sizeof(*rv));
			rv[nrv++] = (struct pt_ival){ ev->start[i], ev->start[i] + ev->dur[i] };
		}
		pt_ivset_build(&Rv, rv, nrv);
		free(rv);
		pt_ivset_diff(&t1, M, &Rv);
		pt_ivset_diff(&MRC, &t1, C);
		pt_ivset_diff(&RvC, &Rv, C);
	}
	struct devacc a = { 0 };
	struct nlist apis = { 0 };
	/* memory ops exposed */
	struct memop *mops = NULL;
	size_t nmops = 0, cmops = 0;
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
		pt_ivset_clip(&Wc, &CM, s, e);
		a.prep += Wc.n ? Wc.v[0].s - s : e - s;
		a.bub += pt_ivset_measure_in(&Rv, s, e);
		a.cnox += pt_ivset_measure_in(&MRC, s, e);
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
			for (size_t j = 0; j < nacts; j++) {
				size_t i = (size_t)acts[j].e;
				if (ev->kind[i] != PT_EV_MEMCPY && ev->kind[i] != PT_EV_MEMSET)
					continue;
				int64_t os = ev->start[i], oe = ev->start[i] + ev->dur[i];
				if (oe <= s || os >= e)
					continue;
				int64_t x = ev->kind[i] == PT_EV_MEMCPY ? pt_ivset_measure_in(&F, os, oe)
									: pt_ivset_measure_in(&rem, os, oe);
				size_t q = 0;
				while (q < nmops && mops[q].ev != i)
					q++;
				if (q == nmops) {
					pt_xgrow((void **)&mops, &cmops, nmops + 1, sizeof(*mops));
					const struct pt_copy_info *ci = copy_of(m, i);
					mops[nmops++] = (struct memop){ i, 0,
									ev->kind[i] == PT_EV_MEMSET ? "memset"
									: ci ? copy_kind_name(ci->copy_kind) : "other" };
				}
				mops[q].exposed += x;
			}
		/* memset_t */
		pt_ivset_clip(&clip, Ms, s, e);
		pt_ivset_inter(&t1, &rem, &clip);
		int64_t ms = pt_ivset_measure(&t1);
		pt_ivset_diff(&t2, &rem, &clip);
		/* runtime_t, with the exposed time of each call */
		pt_ivset_clip(&clip, R, s, e);
		pt_ivset_inter(&t1, &t2, &clip);
		int64_t rt = pt_ivset_measure(&t1);
		if (rt && r->host != PT_NONE) {
			for (size_t i = 0; i < ev->n; i++) {
				if (ev->kind[i] != PT_EV_API || m->tracks.v[ev->track[i]].device != r->host)
					continue;
				int64_t os = ev->start[i], oe = ev->start[i] + ev->dur[i];
				if (oe <= s || os >= e)
					continue;
				int64_t x = pt_ivset_measure_in(&t2, os, oe);
				if (x)
					nl_get_api(c, &apis, ev->name[i])->a += x;
			}
		}
		pt_ivset_diff(&rem, &t2, &clip);
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
		double dp = pct(dl, e - s);
		if (!a.has_worst || dp > a.worst_dl_pct) {
			a.has_worst = true;
			a.worst_dl_pct = dp;
			a.worst_dl_step = rd->winnum[w];
		}
		a.nsteps++;
	}
	int64_t steps = (int64_t)a.nsteps;
	char b1[48], b2[48], b3[48];

	/* rank table row */
	pt_xgrow((void **)&c->rt, &c->capt, c->nrt + 1, sizeof(*c->rt));
	struct rt *row = &c->rt[c->nrt++];
	row->rank = rank;
	row->dev = did;
	int64_t cols[RT_NCOL] = { a.comp, a.comm, a.ovl, a.cno, a.free, a.bub, a.step - a.bub, a.cnox, a.prep };
	for (int i = 0; i < RT_NCOL; i++)
		row->col[i] = (double)cols[i] / (double)steps;
	row->has_rv = Rv.n > 0;
	row->rv_alone = a.rva;
	row->step = a.step;
	row->cnox = a.cnox;
	rank_of(c, rank)->nsteps = a.nsteps;

	/* INPUT_BOUND */
	if (enabled(c, PT_HR_INPUT_BOUND)) {
		if (!rd->steps)
			not_eval(c, PT_HR_INPUT_BOUND, rank, scope, "no steps");
		else if (!rd->has_loader)
			not_eval(c, PT_HR_INPUT_BOUND, rank, scope, "no Dataloader ranges");
		else {
			mark_eval(c, PT_HR_INPUT_BOUND, rank);
			double p = pct(a.dl_t, a.step);
			enum pt_hint_sev sev = PT_SEV_INFO;
			double thr = -1;
			if (p >= k->input_high_pct)
				sev = PT_SEV_CRIT, thr = k->input_high_pct;
			else if (p >= k->input_moderate_pct)
				sev = PT_SEV_WARN, thr = k->input_moderate_pct;
			if (thr >= 0) {
				struct pt_hint *x = fire(c, PT_HR_INPUT_BOUND, rank, scope, sev, "input_pct", "pct", p, thr);
				x->message = msg("Training waits for input: %.1f%% of step time is data loading that no "
						 "device or runtime work hides (threshold %.1f%%). Use more loader workers or "
						 "prefetching, move decoding and augmentation out of the step, or cache "
						 "preprocessed samples.", p, thr);
				pt_hint_ev_dbl(x, "input_pct", p);
				pt_hint_ev_int(x, "dataloader_ns", a.dl_t);
				pt_hint_ev_int(x, "step_ns", a.step);
				pt_hint_ev_int(x, "steps", steps);
				pt_hint_ev_int(x, "worst_step", a.worst_dl_step);
				pt_hint_ev_dbl(x, "worst_step_pct", a.worst_dl_pct);
				pt_hint_ev_int(x, "mean_loader_ns", mean_round(rd->loader_wall, steps));
			}
		}
	}
	/* UNEXPLAINED_TIME */
	if (enabled(c, PT_HR_UNEXPLAINED_TIME)) {
		mark_eval(c, PT_HR_UNEXPLAINED_TIME, rank);
		double p = pct(a.other_t, a.step);
		enum pt_hint_sev sev = PT_SEV_INFO;
		double thr = -1;
		if (p >= k->unexplained_high_pct)
			sev = PT_SEV_WARN, thr = k->unexplained_high_pct;
		else if (p >= k->unexplained_moderate_pct)
			thr = k->unexplained_moderate_pct;
		if (thr >= 0) {
			struct pt_hint *x = fire(c, PT_HR_UNEXPLAINED_TIME, rank, scope, sev, "other_pct", "pct", p, thr);
			x->message = msg("%.1f%% of step time is not covered by any recorded host range or device activity "
					 "(threshold %.1f%%): unrecorded Python code, I/O or waiting. Add ranges (NVTX, mstx, "
					 "RecordEvent) around the step's host code to see where it goes.%s", p, thr,
					 rank_of(c, rank)->fired[PT_HR_INPUT_BOUND] ? "" :
					 " Hidden input waits are one possible cause (potentially input-bound).");
			pt_hint_ev_dbl(x, "other_pct", p);
			pt_hint_ev_int(x, "other_ns", a.other_t);
			pt_hint_ev_int(x, "step_ns", a.step);
			pt_hint_ev_int(x, "steps", steps);
		}
	}
	/* LOW_DEVICE_UTIL (collected; one hint per rank) */
	if (enabled(c, PT_HR_LOW_DEVICE_UTIL)) {
		mark_eval(c, PT_HR_LOW_DEVICE_UTIL, rank);
		struct pt_ivset KU = { 0 };
		pt_ivset_union(&KU, pt_index_kind_set(c->x, dev, PT_EV_KERNEL), pt_index_kind_set(c->x, dev, PT_EV_TASK));
		int64_t busy = 0, win = 0;
		for (size_t w = 0; w < rd->W.n; w++) {
			busy += pt_ivset_measure_in(&KU, rd->W.v[w].s, rd->W.v[w].e);
			win += rd->W.v[w].e - rd->W.v[w].s;
		}
		pt_ivset_free(&KU);
		if (win && pct(busy, win) < k->low_util_pct) {
			*lu = pt_xrealloc(*lu, (*nlu + 1) * sizeof(**lu));
			(*lu)[(*nlu)++] = (struct lowutil){ dev, did, busy, win };
		}
	}
	/* LAUNCH_BOUND */
	if (enabled(c, PT_HR_LAUNCH_BOUND)) {
		if (r->host == PT_NONE) {
			not_eval(c, PT_HR_LAUNCH_BOUND, rank, scope, "no runtime calls");
		} else {
			mark_eval(c, PT_HR_LAUNCH_BOUND, rank);
			double p = pct(a.runtime_t, a.step);
			enum pt_hint_sev sev = PT_SEV_WARN;
			double thr = -1;
			if (p >= k->launch_bound_high_pct)
				sev = PT_SEV_CRIT, thr = k->launch_bound_high_pct;
			else if (p >= k->launch_bound_moderate_pct)
				thr = k->launch_bound_moderate_pct;
			if (thr >= 0) {
				struct pt_hint *x = fire(c, PT_HR_LAUNCH_BOUND, rank, scope, sev, "launch_pct", "pct", p, thr);
				x->message = msg("%.1f%% of step time is spent in runtime/launch calls while the device is "
						 "idle (threshold %.1f%%). Fuse small kernels, capture repeated launch sequences "
						 "in graphs, and avoid synchronising API calls inside the step.", p, thr);
				pt_hint_ev_dbl(x, "launch_pct", p);
				pt_hint_ev_int(x, "runtime_ns", a.runtime_t);
				pt_hint_ev_int(x, "step_ns", a.step);
				pt_hint_ev_int(x, "steps", steps);
				nl_sort_api(c, &apis);
				for (size_t i = 0; i < apis.n && i < 3; i++) {
					char t[32];
					pt_hint_ev_item(x, "apis", (int)i + 1, "name", aname(c, apis.v[i].name), false);
					snprintf(t, sizeof(t), "%" PRId64, apis.v[i].a);
					pt_hint_ev_item(x, "apis", (int)i + 1, "exposed_ns", t, true);
				}
			}
		}
	}
	/* COMM_EXPOSED */
	if (enabled(c, PT_HR_COMM_EXPOSED)) {
		mark_eval(c, PT_HR_COMM_EXPOSED, rank);
		double p = pct(a.cno, a.step);
		if (p > k->comm_exposed_pct) {
			int64_t mw = 0, wl = 0;
			for (size_t w = 0; w < rd->W.n; w++) {
				mw += pt_ivset_measure_in(M, rd->W.v[w].s, rd->W.v[w].e);
				wl += rd->W.v[w].e - rd->W.v[w].s;
			}
			double cp = pct(mw, wl);
			const char *cls = cp >= 15 ? "high" : cp >= 3 ? "moderate" : "low";
			struct pt_hint *x = fire(c, PT_HR_COMM_EXPOSED, rank, scope, PT_SEV_WARN, "comm_pct", "pct", p,
						 k->comm_exposed_pct);
			x->message = msg("%.1f%% of step time is communication that no computation hides (threshold "
					 "%.1f%%); collectives run during %.1f%% of the window (%s). Overlap gradient reduction "
					 "with backward computation (bucketing, fusion), send less (compression, fewer "
					 "synchronisations through gradient accumulation, which raises the effective batch), "
					 "or give each device more work per step.", p, k->comm_exposed_pct, cp, cls);
			pt_hint_ev_dbl(x, "comm_pct", p);
			pt_hint_ev_int(x, "comm_not_overlapped_ns", a.cno);
			pt_hint_ev_int(x, "step_ns", a.step);
			pt_hint_ev_int(x, "steps", steps);
			pt_hint_ev_dbl(x, "collective_pct", cp);
		}
	}
	/* MEM_OPS_CRITICAL */
	if (enabled(c, PT_HR_MEM_OPS_CRITICAL)) {
		if (!has_mem) {
			not_eval(c, PT_HR_MEM_OPS_CRITICAL, rank, scope, "no memcpy or memset activity");
		} else {
			mark_eval(c, PT_HR_MEM_OPS_CRITICAL, rank);
			double p = pct(a.memcpy_t + a.memset_t, a.step);
			double thr = -1;
			enum pt_hint_sev sev = PT_SEV_INFO;
			if (p >= k->mem_ops_high_pct)
				sev = PT_SEV_WARN, thr = k->mem_ops_high_pct;
			else if (p >= k->mem_ops_moderate_pct)
				thr = k->mem_ops_moderate_pct;
			if (thr >= 0) {
				/* exposed time per kind: union per kind inside the attribution */
				struct kt {
					const char *kind;
					int64_t t;
				} kinds[16];
				size_t nk = 0;
				int64_t nexp = 0;
				for (size_t i = 0; i < nmops; i++) {
					if (!mops[i].exposed)
						continue;
					nexp++;
					size_t q = 0;
					while (q < nk && strcmp(kinds[q].kind, mops[i].kind))
						q++;
					if (q == nk && nk < 16)
						kinds[nk++] = (struct kt){ mops[i].kind, 0 };
					if (q < nk)
						kinds[q].t += mops[i].exposed;
				}
				size_t best = 0;
				int64_t ksum = 0;
				for (size_t q = 0; q < nk; q++) {
					ksum += kinds[q].t;
					if (kinds[q].t > kinds[best].t ||
					    (kinds[q].t == kinds[best].t && strcmp(kinds[q].kind, kinds[best].kind) < 0))
						best = q;
				}
				double kp = nk ? pct(kinds[best].t, ksum) : 0;
				struct pt_hint *x = fire(c, PT_HR_MEM_OPS_CRITICAL, rank, scope, sev, "mem_pct", "pct", p, thr);
				x->message = msg("Device %" PRIu32 " spends %.1f%% of step time (%s per step) only copying or "
						 "filling memory, with no computation or communication beside it (threshold "
						 "%.1f%%); %s accounts for %.1f%% of that time. Keep tensors on the device "
						 "between steps, copy from pinned host memory with asynchronous copies on their "
						 "own stream so that computation continues, and avoid reading device values back "
						 "to the host inside the step.", did, p,
						 ftime(c, b1, mean_round(a.memcpy_t + a.memset_t, steps)), thr,
						 nk ? kinds[best].kind : "none", kp);
				pt_hint_ev_dbl(x, "mem_pct", p);
				pt_hint_ev_int(x, "memcpy_ns", a.memcpy_t);
				pt_hint_ev_int(x, "memset_ns", a.memset_t);
				pt_hint_ev_int(x, "step_ns", a.step);
				pt_hint_ev_int(x, "steps", steps);
				pt_hint_ev_str(x, "kind", nk ? kinds[best].kind : "none");
				pt_hint_ev_dbl(x, "kind_pct", kp);
				for (size_t q = 0; q < nk; q++) {
					char key[64];
					snprintf(key, sizeof(key), "%s_exposed_ns", kinds[q].kind);
					for (char *p2 = key; *p2; p2++)
						if (*p2 >= 'A' && *p2 <= 'Z')
							*p2 = (char)(*p2 - 'A' + 'a');
					pt_hint_ev_int(x, key, kinds[q].t);
				}
				pt_hint_ev_int(x, "exposed_ops", nexp);
				pt_sort(mops, nmops, sizeof(*mops), cmp_memop);
				for (size_t i = 0; i < nmops && i < 3 && mops[i].exposed; i++) {
					size_t e = mops[i].ev;
					const struct pt_copy_info *ci = copy_of(m, e);
					char t[48];
					int ix = (int)i + 1;
					pt_hint_ev_item(x, "top", ix, "name", dname(c, ev->name[e]), false);
					pt_hint_ev_item(x, "top", ix, "kind", mops[i].kind, false);
					snprintf(t, sizeof(t), "%" PRIu64, ci ? ci->bytes : 0);
					pt_hint_ev_item(x, "top", ix, "bytes", t, true);
					snprintf(t, sizeof(t), "%" PRId64, ev->start[e]);
					pt_hint_ev_item(x, "top", ix, "start_ns", t, true);
					snprintf(t, sizeof(t), "%" PRId64, mops[i].exposed);
					pt_hint_ev_item(x, "top", ix, "exposed_ns", t, true);
					size_t call = rd->am ? pt_anchor_call(rd->am, e) : SIZE_MAX;
					const char *cn = call != SIZE_MAX ? aname(c, ev->name[call]) : "";
					pt_hint_ev_item(x, "top", ix, "call", cn, false);
				}
			}
		}
	}
	/* DEVICE_IDLE */
	if (enabled(c, PT_HR_DEVICE_IDLE)) {
		mark_eval(c, PT_HR_DEVICE_IDLE, rank);
		struct pt_ivset busy = { 0 }, tmpb = { 0 }, idle = { 0 };
		pt_ivset_union(&tmpb, &CM, Mc);
		pt_ivset_union(&busy, &tmpb, Ms);
		pt_ivset_diff(&idle, &rd->W, &busy);
		int64_t wl = pt_ivset_measure(&rd->W), il = pt_ivset_measure(&idle);
		int64_t cls[3] = { 0, 0, 0 }, cnt[3] = { 0, 0, 0 }, longest = 0;
		for (size_t g = 0; g < idle.n; g++) {
			int64_t ga = idle.v[g].s, gb = idle.v[g].e;
			if (gb - ga > longest)
				longest = gb - ga;
			/* first member activity starting at or after gb */
			size_t lo = 0, hi = nacts;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (acts[mid].s < gb)
					lo = mid + 1;
				else
					hi = mid;
			}
			int cl = 2;
			size_t call = lo < nacts && rd->am ? pt_anchor_call(rd->am, (size_t)acts[lo].e) : SIZE_MAX;
			if (call != SIZE_MAX && ev->start[call] > ga)
				cl = 0;
			else if (gb - ga < k->idle_kernel_wait_gap_ns)
				cl = 1;
			cls[cl] += gb - ga;
			cnt[cl]++;
		}
		double ip = pct(il, wl);
		if (wl && ip >= k->idle_min_pct) {
			int big = 0;
			for (int q = 1; q < 3; q++)
				if (cls[q] > cls[big])
					big = q;
			double share = pct(cls[big], il);
			bool w = share >= k->idle_class_pct;
			struct pt_hint *x = fire(c, PT_HR_DEVICE_IDLE, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
						 w ? "class_share_pct" : "idle_pct", "pct", w ? share : ip,
						 w ? k->idle_class_pct : k->idle_min_pct);
			if (w && big == 0)
				x->message = msg("Device %" PRIu32 " is idle %.1f%% of the step window; %.1f%% of that idle "
						 "time the host had not yet submitted the next work: the host is the "
						 "bottleneck (framework overhead, data loading, synchronisation).", did, ip, share);
			else if (w && big == 1)
				x->message = msg("Device %" PRIu32 " is idle %.1f%% of the step window, mostly in gaps "
						 "shorter than %s between back-to-back work: per-launch overhead dominates; "
						 "fuse kernels or use graphs.", did, ip, ftime(c, b1, k->idle_kernel_wait_gap_ns));
			else if (w)
				x->message = msg("Device %" PRIu32 " is idle %.1f%% of the step window while work was "
						 "already submitted: it waits on events, other streams or collectives.", did, ip);
			else
				x->message = msg("Device %" PRIu32 " is idle %.1f%% of the step window: host_wait %.1f%%, "
						 "kernel_wait %.1f%%, other %.1f%% of the idle time.", did, ip,
						 pct(cls[0], il), pct(cls[1], il), pct(cls[2], il));
			pt_hint_ev_dbl(x, "idle_pct", ip);
			pt_hint_ev_int(x, "idle_ns", il);
			pt_hint_ev_int(x, "window_ns", wl);
			pt_hint_ev_int(x, "host_wait_ns", cls[0]);
			pt_hint_ev_int(x, "kernel_wait_ns", cls[1]);
			pt_hint_ev_int(x, "other_ns", cls[2]);
			pt_hint_ev_int(x, "host_wait_gaps", cnt[0]);
			pt_hint_ev_int(x, "kernel_wait_gaps", cnt[1]);
			pt_hint_ev_int(x, "other_gaps", cnt[2]);
			pt_hint_ev_int(x, "longest_gap_ns", longest);
		}
		pt_ivset_free(&busy);
		pt_ivset_free(&tmpb);
		pt_ivset_free(&idle);
	}
	/* TOP_OPS */
	if (enabled(c, PT_HR_TOP_OPS)) {
		struct nlist ops = { 0 }, types = { 0 };
		int64_t T = 0;
		for (size_t j = 0; j < nacts; j++) {
			size_t i = (size_t)acts[j].e;
			uint32_t name = 0, type = 0;
			if (ev->kind[i] == PT_EV_TASK && ev->op[i]) {
				const struct pt_op *op = &m->ops.v[ev->op[i] - 1];
				name = op->name;
				type = op->type ? op->type : op->name;
			} else if (ev->kind[i] == PT_EV_KERNEL) {
				name = type = ev->name[i];
				size_t call = rd->am ? pt_anchor_call(rd->am, i) : SIZE_MAX;
				if (call != SIZE_MAX) {
					uint32_t lr = link_range(c, i);
					if (lr) {
						size_t re = lr - 1;
						const struct pt_range_info *ri = range_of(m, re);
						if (ri && !strcmp(pt_model_strget(m, ri->type), "Operator"))
							type = ri->label ? ri->label : ev->name[re];
					}
				}
			} else {
				continue;
			}
			if (!name)
				continue;
			struct named *o = nl_get(&ops, name), *t = nl_get(&types, type);
			o->a += ev->dur[i], o->b++;
			t->a += ev->dur[i], t->b++;
			T += ev->dur[i];
		}
		if (!T) {
			not_eval(c, PT_HR_TOP_OPS, rank, scope, "no operator time");
		} else {
			mark_eval(c, PT_HR_TOP_OPS, rank);
			nl_sort(c, &ops);
			nl_sort(c, &types);
			double tp = pct(types.v[0].a, T);
			if (tp >= k->top_ops_type_pct) {
				size_t n = (size_t)k->top_ops_n;
				int64_t topn = 0;
				for (size_t i = 0; i < types.n && i < n; i++)
					topn += types.v[i].a;
				double tnp = pct(topn, T);
				struct pt_hint *x = fire(c, PT_HR_TOP_OPS, rank, scope, PT_SEV_INFO, "top_type_pct", "pct", tp,
							 k->top_ops_type_pct);
				x->message = msg("Op type %s takes %.1f%% of device %" PRIu32 "'s op time (%s of %s; threshold "
						 "%.1f%%), and the top %zu types take %.1f%%. Work on them first: check their "
						 "shapes, data types and memory formats, fuse small ops with their neighbours, and "
						 "look for a faster implementation of the slowest ones.",
						 dname(c, types.v[0].name), tp, did, ftime(c, b1, types.v[0].a),
						 ftime(c, b2, T), k->top_ops_type_pct, n < types.n ? n : types.n, tnp);
				pt_hint_ev_int(x, "total_ns", T);
				pt_hint_ev_int(x, "n", (int64_t)n);
				pt_hint_ev_dbl(x, "top_type_pct", tp);
				pt_hint_ev_dbl(x, "top_n_pct", tnp);
				for (int l = 0; l < 2; l++) {
					struct nlist *L = l ? &ops : &types;
					for (size_t i = 0; i < L->n && i < n; i++) {
						const char *nm = dname(c, L->v[i].name);
						double sh = pct(L->v[i].a, T);
						pt_hint_item(x, "%s %s: %.1f%% (%s, %" PRId64 " calls).", l ? "op" : "type", nm,
							     sh, ftime(c, b3, L->v[i].a), L->v[i].b);
						char t[48];
						const char *ln = l ? "ops" : "types";
						pt_hint_ev_item(x, ln, (int)i + 1, "name", nm, false);
						snprintf(t, sizeof(t), "%" PRId64, L->v[i].b);
						pt_hint_ev_item(x, ln, (int)i + 1, "calls", t, true);
						snprintf(t, sizeof(t), "%" PRId64, L->v[i].a);
						pt_hint_ev_item(x, ln, (int)i + 1, "time_ns", t, true);
						snprintf(t, sizeof(t), "%.4f", sh);
						pt_hint_ev_item(x, ln, (int)i + 1, "share", t, true);
					}
				}
			}
		}
		nl_free(&ops);
		nl_free(&types);
	}
	/* LOW_FLOPS_UTIL (and the FLOPs of RANK_FLOPS, PP_STAGE_FLOPS) */
	rule_flops(c, rd, dev, scope, acts, nacts, a.comp, enabled(c, PT_HR_LOW_FLOPS_UTIL));
	/* UNATTRIBUTED_DEVICE */
	if (enabled(c, PT_HR_UNATTRIBUTED_DEVICE)) {
		if (!rd->am) {
			not_eval(c, PT_HR_UNATTRIBUTED_DEVICE, rank, scope, "no runtime calls");
		} else {
			mark_eval(c, PT_HR_UNATTRIBUTED_DEVICE, rank);
			int64_t un = 0, cnt = 0, tot = 0;
			for (size_t j = 0; j < nacts; j++) {
				size_t i = (size_t)acts[j].e;
				tot += ev->dur[i];
				if (pt_anchor_call(rd->am, i) == SIZE_MAX)
					un += ev->dur[i], cnt++;
			}
			double p = pct(un, tot);
			if (tot && p > k->unattributed_pct) {
				struct pt_hint *x = fire(c, PT_HR_UNATTRIBUTED_DEVICE, rank, scope, PT_SEV_INFO,
							 "unattributed_pct", "pct", p, k->unattributed_pct);
				x->message = msg("%.1f%% of device time (%s) has no launching host event, so per-operator and "
						 "per-phase views undercount it; the trace may lack runtime API records or "
						 "correlation ids.", p, ftime(c, b1, un));
				pt_hint_ev_dbl(x, "unattributed_pct", p);
				pt_hint_ev_int(x, "unattributed_ns", un);
				pt_hint_ev_int(x, "unattributed_count", cnt);
				pt_hint_ev_int(x, "device_ns", tot);
			}
		}
	}
	/* launch pairs: LAUNCH_DELAY, RUNTIME_OUTLIER, SHORT_KERNELS (after LOW_DEVICE_UTIL: see rank_rules) */
	nl_free(&apis);
	free(mops);
	free(acts);
	pt_ivset_free(&CM);
	pt_ivset_free(&Rv);
	pt_ivset_free(&MRC);
	pt_ivset_free(&RvC);
	pt_ivset_free(&Wc);
	pt_ivset_free(&F);
	pt_ivset_free(&t1);
	pt_ivset_free(&t2);
	pt_ivset_free(&rem);
	pt_ivset_free(&clip);
}

/* LAUNCH_DELAY, RUNTIME_OUTLIER, SHORT_KERNELS for one device (hints.md §2.3). */
static void launch_rules(struct ctx *c, struct rankdata *rd, uint32_t dev, bool low_util)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	const struct pt_events *ev = &m->events;
	int64_t rank = rd->r->rank;
	uint32_t did = m->devices.v[dev].id;
	char scope[48], b1[48], b2[48], b3[48], b4[48];
	snprintf(scope, sizeof(scope), "device:%" PRIu32, did);
	bool any_act = false;
	for (size_t i = 0; i < ev->n && !any_act; i++)
		any_act = is_dev_activity(ev->kind[i]) && m->tracks.v[ev->track[i]].device == dev && member(rd, m, i);
	if (!any_act)
		return; /* reported by device_rules */
	int64_t qd_cut = (int64_t)llround(k->queue_delay_us * 1000), rt_cut = (int64_t)llround(k->runtime_us * 1000);
	int64_t *qd = NULL, *ld = NULL, *cpu = NULL;
	size_t n = 0, nld = 0, cap = 0, capl = 0, ncpu = 0, capc = 0;
	int64_t qd_out = 0, shortn = 0, short_cpu = 0, short_gpu = 0, calls = 0, rt_out = 0;
	struct nlist qk = { 0 }, sk = { 0 }, ra = { 0 };
	int64_t *callv = NULL; /* launching calls, for RUNTIME_OUTLIER (each once) */
	size_t ncall = 0, capcall = 0;
	if (!rd->am)
		goto counted;
	for (size_t d = 0; d < ev->n; d++) {
		if (!is_dev_activity(ev->kind[d]) || m->tracks.v[ev->track[d]].device != dev || !member(rd, m, d))
			continue;
		size_t r = pt_anchor_call(rd->am, d);
		if (r == SIZE_MAX)
			continue;
		const char *an = pt_model_strget(m, ev->name[r]);
		if (!in_list(k->launch_apis, an, api_base_len(an)))
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
				nl_get(&qk, ev->name[d])->a++;
			}
		}
		pt_xgrow((void **)&callv, &capcall, ncall + 1, sizeof(*callv));
		callv[ncall++] = (int64_t)r;
		if (ev->dur[r] <= rt_cut && ev->dur[d] < ev->dur[r]) {
			shortn++;
			short_cpu += ev->dur[r];
			short_gpu += ev->dur[d];
			nl_get(&sk, ev->name[d])->a++;
		}
	}
	pt_sort(callv, ncall, sizeof(*callv), cmp_i64);
	for (size_t i = 0; i < ncall; i++) {
		if (i && callv[i] == callv[i - 1])
			continue;
		size_t r = (size_t)callv[i];
		calls++;
		pt_xgrow((void **)&cpu, &capc, ncpu + 1, sizeof(*cpu));
		cpu[ncpu++] = ev->dur[r];
		if (ev->dur[r] > rt_cut) {
			rt_out++;
			nl_get_api(c, &ra, ev->name[r])->a++;
		}
	}
	free(callv);
counted:;
	int64_t pairs = (int64_t)n;
	if (!calls) {
		if (enabled(c, PT_HR_LAUNCH_DELAY))
			not_eval(c, PT_HR_LAUNCH_DELAY, rank, scope, "no launch pairs");
		if (enabled(c, PT_HR_RUNTIME_OUTLIER))
			not_eval(c, PT_HR_RUNTIME_OUTLIER, rank, scope, "no launch pairs");
		if (enabled(c, PT_HR_SHORT_KERNELS))
			not_eval(c, PT_HR_SHORT_KERNELS, rank, scope, "no launch pairs");
		goto out;
	}
	/* LAUNCH_BOUND's evidence ends with the SHORT_KERNELS share of the device (hints.md §3) */
	for (size_t i = 0; i < c->h->n && pairs; i++) {
		struct pt_hint *x = &c->h->v[i];
		if (x->rule == PT_HR_LAUNCH_BOUND && x->status == PT_HS_SHOWN && x->rank == rank &&
		    !strcmp(x->scope, scope))
			pt_hint_ev_dbl(x, "short_kernels_pct", pct(shortn, pairs));
	}
	pt_sort(qd, n, sizeof(*qd), cmp_i64);
	pt_sort(ld, nld, sizeof(*ld), cmp_i64);
	pt_sort(cpu, ncpu, sizeof(*cpu), cmp_i64);
	if (enabled(c, PT_HR_LAUNCH_DELAY)) {
		mark_eval(c, PT_HR_LAUNCH_DELAY, rank);
		if (qd_out) {
			double share = pct(qd_out, pairs);
			bool w = share >= k->queue_delay_warn_pct && low_util;
			struct pt_hint *x = fire(c, PT_HR_LAUNCH_DELAY, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
						 "queue_delay_outliers", "count", (double)qd_out, 1); /* fires at >= 1 */
			x->message = msg("%" PRId64 " of %" PRId64 " launches (%.1f%%) started on the device more than %s "
					 "after the launch call returned (p50 %s, p99 %s, max %s). With a busy device this "
					 "is queueing; with an idle one the work waited on a synchronisation, an event or "
					 "another stream.", qd_out, pairs, share, ftime(c, b1, qd_cut),
					 ftime(c, b2, pctile(qd, n, 50)), ftime(c, b3, pctile(qd, n, 99)),
					 ftime(c, b4, qd[n - 1]));
			pt_hint_ev_int(x, "outliers", qd_out);
			pt_hint_ev_int(x, "launches", pairs);
			pt_hint_ev_dbl(x, "share_pct", share);
			pt_hint_ev_int(x, "queue_delay_cutoff_ns", qd_cut); /* what makes an outlier */
			pt_hint_ev_int(x, "queue_delay_p50_ns", pctile(qd, n, 50));
			pt_hint_ev_int(x, "queue_delay_p99_ns", pctile(qd, n, 99));
			pt_hint_ev_int(x, "queue_delay_max_ns", qd[n - 1]);
			pt_hint_ev_int(x, "launch_delay_p50_ns", pctile(ld, nld, 50));
			pt_hint_ev_int(x, "launch_delay_p99_ns", pctile(ld, nld, 99));
			nl_sort(c, &qk);
			for (size_t i = 0; i < qk.n && i < 3; i++) {
				char t[32];
				pt_hint_ev_item(x, "kernels", (int)i + 1, "name", dname(c, qk.v[i].name), false);
				snprintf(t, sizeof(t), "%" PRId64, qk.v[i].a);
				pt_hint_ev_item(x, "kernels", (int)i + 1, "outliers", t, true);
			}
		}
	}
	if (enabled(c, PT_HR_RUNTIME_OUTLIER)) {
		mark_eval(c, PT_HR_RUNTIME_OUTLIER, rank);
		if (rt_out) {
			double share = pct(rt_out, calls);
			bool w = share >= k->runtime_warn_pct;
			nl_sort_api(c, &ra);
			struct pt_hint *x = fire(c, PT_HR_RUNTIME_OUTLIER, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
						 "runtime_outlier_pct", "pct", share, k->runtime_warn_pct);
			x->message = msg("%" PRId64 " launch calls (%.1f%%) took longer than %s on the host (max %s, mostly "
					 "%s). Slow launch calls usually hide implicit synchronisation, memory allocation or "
					 "lock contention inside the runtime.", rt_out, share, ftime(c, b1, rt_cut),
					 ftime(c, b2, cpu[ncpu - 1]), aname(c, ra.v[0].name));
			pt_hint_ev_int(x, "outliers", rt_out);
			pt_hint_ev_int(x, "launches", calls);
			pt_hint_ev_dbl(x, "share_pct", share);
			pt_hint_ev_int(x, "cpu_dur_p50_ns", pctile(cpu, ncpu, 50));
			pt_hint_ev_int(x, "cpu_dur_p99_ns", pctile(cpu, ncpu, 99));
			pt_hint_ev_int(x, "cpu_dur_max_ns", cpu[ncpu - 1]);
			for (size_t i = 0; i < ra.n && i < 3; i++) {
				char t[32];
				pt_hint_ev_item(x, "apis", (int)i + 1, "name", aname(c, ra.v[i].name), false);
				snprintf(t, sizeof(t), "%" PRId64, ra.v[i].a);
				pt_hint_ev_item(x, "apis", (int)i + 1, "outliers", t, true);
			}
		}
	}
	if (enabled(c, PT_HR_SHORT_KERNELS)) {
		mark_eval(c, PT_HR_SHORT_KERNELS, rank);
		double share = pct(shortn, pairs);
		if (pairs && share >= k->short_kernels_pct) {
			nl_sort(c, &sk);
			struct pt_hint *x = fire(c, PT_HR_SHORT_KERNELS, rank, scope, PT_SEV_WARN, "short_pct", "pct", share,
						 k->short_kernels_pct);
			x->message = msg("%.1f%% of launched kernels (%" PRId64 ") run for less time than the host call "
					 "that launched them: the host cannot issue such small kernels fast enough to keep "
					 "the device busy. Fuse them or use graph capture.", share, shortn);
			pt_hint_ev_int(x, "short", shortn);
			pt_hint_ev_int(x, "launches", pairs);
			pt_hint_ev_dbl(x, "share_pct", share);
			pt_hint_ev_int(x, "mean_cpu_dur_ns", mean_round(short_cpu, shortn));
			pt_hint_ev_int(x, "mean_gpu_dur_ns", mean_round(short_gpu, shortn));
			for (size_t i = 0; i < sk.n && i < 3; i++) {
				char t[32];
				pt_hint_ev_item(x, "kernels", (int)i + 1, "name", dname(c, sk.v[i].name), false);
				snprintf(t, sizeof(t), "%" PRId64, sk.v[i].a);
				pt_hint_ev_item(x, "kernels", (int)i + 1, "short", t, true);
			}
		}
	}
out:
	free(qd);
	free(ld);
	free(cpu);
	nl_free(&qk);
	nl_free(&sk);
	nl_free(&ra);
}

/* ---- rank rules -------------------------------------------------------------------- */

/* The TensorBoard plugin's lists (tensor_core.py), used when the knobs are left empty. */
static const char tc_kernels_dflt[] = "h884,s884,h1688,s1688,hmma,i8816,16816,dgrad_1x1_stride_2x2,"
				      "first_layer_wgrad_kernel,conv1x1,conv2d_c1_k1,direct_group,xmma_implicit_gemm,"
				      "xmma_sparse_conv,xmma_warp_specialized_implicit_gemm,xmma_gemm,xmma_sparse_gemm,"
				      "c1688";
static const char tc_ops_dflt[] =
	"aten::_convolution,aten::_convolution_nogroup,aten::conv1d,aten::conv2d,aten::conv3d,aten::conv_tbc,"
	"aten::conv_transpose1d,aten::conv_transpose2d,aten::conv_transpose3d,aten::convolution,"
	"aten::cudnn_convolution,aten::cudnn_convolution_transpose,aten::prelu,aten::addmm,aten::addmv,aten::addr,"
	"aten::matmul,aten::mm,aten::mv,aten::linear,aten::addbmm,aten::baddbmm,aten::bmm,aten::chain_matmul,"
	"aten::linalg_multi_dot,aten::_thnn_fused_lstm_cell,aten::_thnn_fused_gru_cell,aten::lstm_cell,"
	"aten::gru_cell,aten::rnn_tanh_cell,aten::rnn_relu_cell,CudnnConvolutionBackward,BmmBackward0,"
	"aten::cudnn_convolution_transpose_backward,CudnnConvolutionTransposeBackward,MmBackward,"
	"aten::cudnn_convolution_backward_weight,aten::addmm_,AddmvBackward,MvBackward,"
	"aten::cudnn_convolution_transpose_backward_weight,aten::cudnn_convolution_transpose_backward_input,"
	"AddmmBackward,aten::cudnn_convolution_backward_input,AddbmmBackward,aten::cudnn_convolution_backward";

/* Does s contain one of the comma-separated patterns? */
static bool has_pattern(const char *list, const char *s)
{
	for (const char *p = list; *p;) {
		const char *q = strchr(p, ',');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l && memmem(s, strlen(s), p, l))
			return true;
		if (!q)
			break;
		p = q + 1;
	}
	return false;
}

struct tcr {
	uint32_t track;
	int64_t s, e;
	size_t ev;
};

static int cmp_tcr(const void *pa, const void *pb)
{
	const struct tcr *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

/* The display name of an Operator range (its op), or NULL for another range. */
static const char *operator_name(const struct pt_model *m, size_t re)
{
	const struct pt_range_info *ri = range_of(m, re);
	if (!ri || strcmp(pt_model_strget(m, ri->type), "Operator"))
		return NULL;
	return pt_model_strget(m, ri->label ? ri->label : m->events.name[re]);
}

/* TENSOR_CORES_UNUSED (hints.md §3, the TensorBoard plugin's tensor_cores rule) for one rank. */
static void rule_tensor_cores(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = r->rank;
	if (r->ascend || !r->ndevs) {
		not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "not a CUDA device");
		return;
	}
	const char *kp = k->tc_kernel_patterns && *k->tc_kernel_patterns ? k->tc_kernel_patterns : tc_kernels_dflt;
	const char *on = k->tc_op_names && *k->tc_op_names ? k->tc_op_names : tc_ops_dflt;
	/* the innermost host range of each kernel's launch */
	uint32_t *lr = pt_xcalloc(ev->n ? ev->n : 1, sizeof(*lr));
	for (size_t l = 0; l < m->links.n; l++)
		if (m->links.v[l].event < ev->n)
			lr[m->links.v[l].event] = m->links.v[l].range;
	/* eligible Operator ranges, and which of them have an eligible descendant */
	struct tcr *er = NULL;
	size_t ner = 0, cer = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
			continue;
		const char *nm = operator_name(m, i);
		if (!nm || !in_list(on, nm, strlen(nm)))
			continue;
		pt_xgrow((void **)&er, &cer, ner + 1, sizeof(*er));
		er[ner++] = (struct tcr){ ev->track[i], ev->start[i], ev->start[i] + ev->dur[i], i };
	}
	pt_sort(er, ner, sizeof(*er), cmp_tcr);
	uint8_t *leaf = pt_xcalloc(ev->n ? ev->n : 1, 1); /* eligible with no eligible descendant */
	for (size_t i = 0; i < ner; i++)
		leaf[er[i].ev] = !(i + 1 < ner && er[i + 1].track == er[i].track && er[i + 1].s < er[i].e);
	free(er);
	int64_t all = 0, tc = 0, by_op = 0, elig = 0;
	bool ops = false;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_KERNEL || !member(rd, m, i))
			continue;
		uint32_t dev = m->tracks.v[ev->track[i]].device;
		bool mine = false;
		for (size_t j = 0; j < r->ndevs && !mine; j++)
			mine = r->devs[j] == dev;
		if (!mine)
			continue;
		all += ev->dur[i];
		if (has_pattern(kp, pt_model_strget(m, ev->name[i])))
			tc += ev->dur[i];
		if (lr[i] && operator_name(m, lr[i] - 1)) {
			ops = true;
			by_op += ev->dur[i];
			if (leaf[lr[i] - 1])
				elig += ev->dur[i];
		}
	}
	free(lr);
	free(leaf);
	const struct pt_device *d0 = &m->devices.v[r->devs[0]];
	if (!all) {
		not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "no kernels");
		return;
	}
	if (!ops) {
		not_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", "no operator ranges");
		return;
	}
	mark_eval(c, PT_HR_TENSOR_CORES_UNUSED, rank);
	double tcp = pct(tc, all), ep = pct(elig, by_op);
	if ((int64_t)d0->cc_major >= k->tc_min_cc && tc == 0 && elig > 0) {
		struct pt_hint *x = fire(c, PT_HR_TENSOR_CORES_UNUSED, rank, "rank", PT_SEV_INFO, "eligible_pct", "pct", ep,
					 0);
		x->message = msg("Operators that could use Tensor Cores launch %.1f%% of operator kernel time, yet no "
				 "Tensor Core kernel ran (compute capability %u.%u). Mixed precision (FP16/BF16) would let "
				 "them.", ep, d0->cc_major, d0->cc_minor);
		pt_hint_ev_dbl(x, "eligible_pct", ep);
		pt_hint_ev_dbl(x, "tc_used_pct", tcp);
		char t[24];
		snprintf(t, sizeof(t), "%u.%u", d0->cc_major, d0->cc_minor);
		pt_hint_ev_str(x, "cc", t);
		pt_hint_ev_int(x, "eligible_ns", elig);
		pt_hint_ev_int(x, "operator_kernel_ns", by_op);
	}
}

struct mempeak {
	int64_t peak, time;
	bool any;
};

static void mem_point(void *ctx, const struct pt_gmem_point *p)
{
	struct mempeak *mp = ctx;
	if (p->group != PT_GMEM_DEVICE)
		return;
	if (!mp->any || p->allocated > mp->peak) {
		mp->peak = p->allocated;
		mp->time = p->time;
	}
	mp->any = true;
}

static void memory_hint(struct ctx *c, int64_t rank, const char *scope, uint32_t did, int64_t peak, uint64_t cap)
{
	double p = 100.0 * (double)peak / (double)cap;
	if (!(p > c->k->memory_peak_pct))
		return;
	struct pt_hint *x = fire(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, PT_SEV_WARN, "peak_pct", "pct", p,
				 c->k->memory_peak_pct);
	double gib = 1024.0 * 1024.0 * 1024.0;
	x->message = msg("Device %" PRIu32 " peaked at %.2f GiB, %.1f%% of its %.2f GiB (threshold %.1f%%). "
			 "Activation checkpointing or mixed precision frees memory for larger batches; this "
			 "close to capacity, allocator retries and out-of-memory failures become likely.",
			 did, (double)peak / gib, p, (double)cap / gib, c->k->memory_peak_pct);
	pt_hint_ev_dbl(x, "peak_pct", p);
	pt_hint_ev_int(x, "peak_bytes", peak);
	char t[32];
	snprintf(t, sizeof(t), "%" PRIu64, cap);
	pt_hint_ev_num(x, "capacity_bytes", t);
}

/*
 * MEMORY_NEAR_CAPACITY on an Ascend device (ascend.md §3.13): the largest
 * graph peak of its memory_usage file against the file's total_mem (the
 * device memory available to the framework); the time of the peak is the
 * first execution of the peak node, when one ran.
 */
static void memory_npu(struct ctx *c, int64_t rank, uint32_t dev)
{
	const struct pt_model *m = c->m;
	uint32_t did = m->devices.v[dev].id;
	char scope[48];
	snprintf(scope, sizeof(scope), "device:%" PRIu32, did);
	bool any = false;
	struct pt_amem_peak best = { 0, -1, UINT32_MAX };
	uint32_t bg = 0;
	uint64_t cap = 0;
	for (uint32_t g = 0; g < m->mem_graphs.n; g++) {
		if (m->mem_graphs.v[g].device != dev)
			continue;
		struct pt_amem_peak pk;
		pt_amem_graph_peak(m, g, &pk);
		if (!any || pk.peak > best.peak) {
			best = pk;
			bg = g;
		}
		if (m->mem_graphs.v[g].total_mem > cap)
			cap = m->mem_graphs.v[g].total_mem;
		any = true;
	}
	if (!any) {
		not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no memory records");
		return;
	}
	if (!cap) {
		not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no device memory size (total_mem 0)");
		return;
	}
	mark_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank);
	size_t before = c->h->n;
	memory_hint(c, rank, scope, did, best.peak, cap);
	if (c->h->n == before)
		return;
	struct pt_hint *x = &c->h->v[c->h->n - 1];
	const char *node = best.node != UINT32_MAX ? pt_model_strget(m, m->mem_nodes.v[best.node].name) : NULL;
	int64_t t;
	if (node && pt_amem_node_start(m, dev, node, &t))
		pt_hint_ev_int(x, "peak_ns", t);
	pt_hint_ev_int(x, "graph_id", m->mem_graphs.v[bg].graph_id);
	if (node) {
		pt_hint_ev_int(x, "peak_node_index", best.peak_node);
		pt_hint_ev_str(x, "peak_node", node);
	}
}

/* MEMORY_NEAR_CAPACITY per device of the rank: on a GPU the peak allocated
 * device memory (the MEMORY2 replay of cupti.md §6.11) against
 * totalGlobalMem; on Ascend memory_npu(). */
static void rule_memory(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	bool any = false;
	for (size_t j = 0; j < r->ndevs; j++) {
		uint32_t dev = r->devs[j];
		const struct pt_device *dv = &m->devices.v[dev];
		char scope[48];
		snprintf(scope, sizeof(scope), "device:%" PRIu32, dv->id);
		if (dv->kind == PT_DEV_NPU) {
			memory_npu(c, rank, dev);
			any = true;
			continue;
		}
		if (dv->kind != PT_DEV_GPU)
			continue;
		bool recs = false;
		for (size_t i = 0; i < m->gpu_mem.n && !recs; i++)
			recs = m->gpu_mem.v[i].device == dev;
		if (!recs) {
			not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no memory records");
			any = true;
			continue;
		}
		if (!dv->mem_bytes) {
			not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, scope, "no device memory size");
			any = true;
			continue;
		}
		struct mempeak mp = { 0, 0, false };
		pt_gmem_replay(m, dev, mem_point, &mp);
		any = true;
		mark_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank);
		size_t before = c->h->n;
		if (mp.any)
			memory_hint(c, rank, scope, dv->id, mp.peak, dv->mem_bytes);
		if (c->h->n > before)
			pt_hint_ev_int(&c->h->v[c->h->n - 1], "peak_ns", mp.time);
	}
	if (!any)
		not_eval(c, PT_HR_MEMORY_NEAR_CAPACITY, rank, "rank", "no memory records");
}

static bool has_hccl(const struct pt_model *m, uint32_t dev)
{
	for (size_t i = 0; i < m->hccl.n; i++)
		if (m->hccl.v[i].device == dev)
			return true;
	return false;
}

static void rank_rules(struct ctx *c, struct rankdata *rd)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = r->rank;
	rank_of(c, rank)->seen = true;
	if (enabled(c, PT_HR_STEP_GAP) || enabled(c, PT_HR_RANK_STEP_GAP))
		rule_step_gap(c, rd, enabled(c, PT_HR_STEP_GAP));
	struct lowutil *lu = NULL;
	size_t nlu = 0;
	for (size_t j = 0; j < r->ndevs; j++)
		device_rules(c, rd, r->devs[j], &lu, &nlu);
	if (nlu) {
		struct pt_hint *x = fire(c, PT_HR_LOW_DEVICE_UTIL, rank, "rank", PT_SEV_WARN, "util_pct", "pct",
					 pct(lu[0].busy, lu[0].window), c->k->low_util_pct);
		char list[256] = "", utils[256] = "";
		for (size_t i = 0; i < nlu; i++) {
			size_t l = strlen(list), u = strlen(utils);
			snprintf(list + l, sizeof(list) - l, "%s%" PRIu32, i ? ", " : "", lu[i].id);
			snprintf(utils + u, sizeof(utils) - u, "%s%.1f", i ? "%, " : "", pct(lu[i].busy, lu[i].window));
			char t[32];
			int ix = (int)i + 1;
			snprintf(t, sizeof(t), "%" PRIu32, lu[i].id);
			pt_hint_ev_item(x, "devices", ix, "device", t, true);
			snprintf(t, sizeof(t), "%" PRId64, lu[i].busy);
			pt_hint_ev_item(x, "devices", ix, "busy_ns", t, true);
			snprintf(t, sizeof(t), "%" PRId64, lu[i].window);
			pt_hint_ev_item(x, "devices", ix, "window_ns", t, true);
			snprintf(t, sizeof(t), "%.4f", pct(lu[i].busy, lu[i].window));
			pt_hint_ev_item(x, "devices", ix, "util_pct", t, true);
		}
		x->message = msg("Device %s ran kernels only %s%% of the step window (threshold %.1f%%). Remove host "
				 "stalls (see DEVICE_IDLE), overlap data movement, or give each step more work; a larger "
				 "batch can change convergence.", list, utils, c->k->low_util_pct);
	}
	for (size_t j = 0; j < r->ndevs; j++) {
		bool low = false;
		for (size_t i = 0; i < nlu; i++)
			low |= lu[i].dev == r->devs[j];
		launch_rules(c, rd, r->devs[j], low);
	}
	free(lu);
	/* TRUNCATED_LAST_STEP */
	if (enabled(c, PT_HR_TRUNCATED_LAST_STEP)) {
		if (!rd->steps || rd->nwin < 2) {
			not_eval(c, PT_HR_TRUNCATED_LAST_STEP, rank, "rank", "fewer than 2 steps");
		} else {
			mark_eval(c, PT_HR_TRUNCATED_LAST_STEP, rank);
			size_t nw = rd->nwin;
			int64_t cnt[2] = { 0, 0 };
			for (size_t i = 0; i < ev->n; i++) {
				if (!is_dev_activity(ev->kind[i]))
					continue;
				uint32_t dev = m->tracks.v[ev->track[i]].device;
				bool mine = false;
				for (size_t j = 0; j < r->ndevs && !mine; j++)
					mine = r->devs[j] == dev;
				if (!mine)
					continue;
				int64_t a = anchor(rd, m, i);
				for (int q = 0; q < 2; q++)
					if (a >= rd->win[nw - 2 + q].s && a < rd->win[nw - 2 + q].e)
						cnt[q]++;
			}
			if ((double)cnt[1] < c->k->truncated_ratio * (double)cnt[0]) {
				struct pt_hint *x = fire(c, PT_HR_TRUNCATED_LAST_STEP, rank, "rank", PT_SEV_INFO, "ratio",
							 "ratio", cnt[0] ? (double)cnt[1] / (double)cnt[0] : 0,
							 c->k->truncated_ratio);
				x->message = msg("The last step has %" PRId64 " device activities against %" PRId64 " in the "
						 "step before: its device work was probably cut off when tracing stopped; "
						 "exclude it with `--steps`.", cnt[1], cnt[0]);
				pt_hint_ev_int(x, "n_last", cnt[1]);
				pt_hint_ev_int(x, "n_prev", cnt[0]);
				pt_hint_ev_int(x, "last_step", rd->winnum[nw - 1]);
			}
		}
	}
	/* USE_DDP, DDP_WITHOUT_NCCL: host range names */
	if (r->host == PT_NONE) {
		if (enabled(c, PT_HR_USE_DDP))
			not_eval(c, PT_HR_USE_DDP, rank, "rank", "no host ranges");
		if (enabled(c, PT_HR_DDP_WITHOUT_NCCL))
			not_eval(c, PT_HR_DDP_WITHOUT_NCCL, rank, "rank", "no host ranges");
	} else {
		int64_t dp = 0, ddp = 0;
		bool nccl = false;
		static const char *const nc[] = { "nccl:broadcast", "nccl:reduce", "nccl:all_reduce", "nccl:all_gather",
						  "nccl:reduce_scatter", NULL };
		for (size_t i = 0; i < ev->n; i++) {
			if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
				continue;
			const char *s = pt_model_strget(m, ev->name[i]);
			dp += !strcmp(s, "DataParallel.forward");
			ddp += !strcmp(s, "DistributedDataParallel.forward");
			for (size_t q = 0; nc[q]; q++)
				nccl |= !strcmp(s, nc[q]);
		}
		int64_t active = 0;
		uint32_t cc = 0;
		for (size_t j = 0; j < r->ndevs; j++) {
			const struct pt_device *d = &m->devices.v[r->devs[j]];
			uint32_t v = d->cc_major * 10 + d->cc_minor;
			if (v > cc)
				cc = v;
			for (size_t i = 0; i < ev->n; i++)
				if (is_dev_activity(ev->kind[i]) && m->tracks.v[ev->track[i]].device == r->devs[j]) {
					active++;
					break;
				}
		}
		if (enabled(c, PT_HR_USE_DDP)) {
			mark_eval(c, PT_HR_USE_DDP, rank);
			if (dp && active > 1) {
				struct pt_hint *x = fire(c, PT_HR_USE_DDP, rank, "rank", PT_SEV_INFO, "devices", "count",
							 (double)active, 1);
				x->message = msg("The model runs single-process DataParallel on %" PRId64 " devices; one "
						 "process per device (DistributedDataParallel) avoids the per-step scatter and "
						 "gather and the Python contention.", active);
				pt_hint_ev_int(x, "devices", active);
			}
		}
		if (enabled(c, PT_HR_DDP_WITHOUT_NCCL)) {
			mark_eval(c, PT_HR_DDP_WITHOUT_NCCL, rank);
			if (ddp && !nccl && cc >= 35) {
				struct pt_hint *x = fire(c, PT_HR_DDP_WITHOUT_NCCL, rank, "rank", PT_SEV_INFO, "calls", "count",
							 (double)ddp, 1);
				x->message = msg("DistributedDataParallel runs without NCCL collectives on NCCL-capable GPUs; "
						 "the NCCL backend is normally the fastest choice for GPU training.");
				pt_hint_ev_int(x, "calls", ddp);
				char t[16];
				snprintf(t, sizeof(t), "%u.%u", cc / 10, cc % 10);
				pt_hint_ev_str(x, "cc", t);
			}
		}
	}
	/* rules whose inputs the model does not carry */
	if (enabled(c, PT_HR_MEMORY_NEAR_CAPACITY))
		rule_memory(c, rd);
	if (enabled(c, PT_HR_TENSOR_CORES_UNUSED))
		rule_tensor_cores(c, rd);
	/* HCCL links of the rank's devices (SLOW_LINK in cluster_rules) */
	for (size_t j = 0; j < r->ndevs; j++)
		if (has_hccl(m, r->devs[j])) {
			pt_hccl_links_add(m, r->devs[j], c->filtered ? &rd->W : NULL, &c->links, &c->nlinks, &c->caplinks);
			rank_of(c, rank)->has_hccl = true;
		}
	/* PP_RECEIVE, PP_STAGE_COMM, PP_STAGE_FLOPS: cluster_rules */
}

/* Ranks of a pipeline stage, as evidence text: "0,1". */
static void stage_ranks(const int64_t *rk, size_t nr, size_t per, size_t st, char *b, size_t n)
{
	b[0] = 0;
	for (size_t i = st * per; i < (st + 1) * per && i < nr; i++) {
		size_t l = strlen(b);
		snprintf(b + l, n - l, "%s%lld", l ? "," : "", (long long)rk[i]);
	}
}

/*
 * PP_STAGE_COMM, PP_STAGE_FLOPS (hints.md §3, MindInsight's parallel
 * proposer): with receive ops present and hints.pp.stages = S, the ranks of
 * the rank table in ascending order, the i-th (from 0) in stage
 * i ÷ (ranks ÷ S) + 1.
 */
static void stage_rules(struct ctx *c, bool any_rv)
{
	const struct pt_hint_knobs *k = c->k;
	bool ec = enabled(c, PT_HR_PP_STAGE_COMM), ef = enabled(c, PT_HR_PP_STAGE_FLOPS);
	if (!ec && !ef)
		return;
	int64_t *rk = pt_xmalloc((c->nrt + 1) * sizeof(*rk));
	size_t nr = 0;
	for (size_t i = 0; i < c->nrt; i++) {
		bool dup = false;
		for (size_t j = 0; j < nr && !dup; j++)
			dup = rk[j] == c->rt[i].rank;
		if (!dup)
			rk[nr++] = c->rt[i].rank;
	}
	pt_sort(rk, nr, sizeof(*rk), cmp_i64);
	size_t S = (size_t)k->pp_stages;
	char why[160] = "";
	if (!S)
		snprintf(why, sizeof(why), "number of pipeline stages unknown (set hints.pp.stages)");
	else if (!any_rv)
		snprintf(why, sizeof(why), "no receive ops");
	else if (S < 2)
		snprintf(why, sizeof(why), "one pipeline stage");
	else if (nr < S || nr % S)
		snprintf(why, sizeof(why), "%zu ranks are not a multiple of %zu pipeline stages", nr, S);
	if (why[0] || !nr) {
		for (size_t i = 0; i < c->nrk; i++) {
			if (!c->rk[i].seen)
				continue;
			if (ec)
				not_eval(c, PT_HR_PP_STAGE_COMM, c->rk[i].rank, "rank", "%s", why[0] ? why : "no device activity");
			if (ef)
				not_eval(c, PT_HR_PP_STAGE_FLOPS, c->rk[i].rank, "rank", "%s", why[0] ? why : "no device activity");
		}
		free(rk);
		return;
	}
	size_t per = nr / S;
	char t[256];
	/* PP_STAGE_COMM: Σ comm_not_overlapped_excl_receive ÷ Σ step time over the stage's ranks */
	if (ec) {
		int64_t *cn = pt_xcalloc(S, sizeof(*cn)), *st = pt_xcalloc(S, sizeof(*st));
		for (size_t i = 0; i < c->nrt; i++) {
			size_t pos = 0;
			while (rk[pos] != c->rt[i].rank)
				pos++;
			cn[pos / per] += c->rt[i].cnox;
			st[pos / per] += c->rt[i].step;
		}
		size_t worst = 0;
		for (size_t q = 0; q < S; q++)
			if (pct(cn[q], st[q]) > pct(cn[worst], st[worst]))
				worst = q;
		for (size_t i = 0; i < nr; i++)
			mark_eval(c, PT_HR_PP_STAGE_COMM, rk[i]);
		double rate = pct(cn[worst], st[worst]);
		if (rate > k->pp_stage_comm_pct) {
			char scope[32];
			snprintf(scope, sizeof(scope), "stage:%zu", worst + 1);
			struct pt_hint *x = fire(c, PT_HR_PP_STAGE_COMM, rk[worst * per], scope, PT_SEV_WARN, "stage_comm_pct",
						 "pct", rate, k->pp_stage_comm_pct);
			x->message = msg("Communication inside stage %zu is exposed %.1f%% of the time (threshold %.1f%%): "
					 "revisit the sharding inside the stage.", worst + 1, rate, k->pp_stage_comm_pct);
			pt_hint_ev_dbl(x, "stage_comm_pct", rate);
			pt_hint_ev_int(x, "n_stages", (int64_t)S);
			for (size_t q = 0; q < S; q++) {
				int ix = (int)q + 1;
				snprintf(t, sizeof(t), "%zu", q + 1);
				pt_hint_ev_item(x, "stages", ix, "stage", t, true);
				snprintf(t, sizeof(t), "%" PRId64, cn[q]);
				pt_hint_ev_item(x, "stages", ix, "comm_ns", t, true);
				snprintf(t, sizeof(t), "%" PRId64, st[q]);
				pt_hint_ev_item(x, "stages", ix, "step_ns", t, true);
				snprintf(t, sizeof(t), "%.4f", pct(cn[q], st[q]));
				pt_hint_ev_item(x, "stages", ix, "comm_pct", t, true);
				stage_ranks(rk, nr, per, q, t, sizeof(t));
				pt_hint_ev_item(x, "stages", ix, "ranks", t, false);
			}
		}
		free(cn);
		free(st);
	}
	/* PP_STAGE_FLOPS: per rank FLOPs per step, stage = mean over its ranks */
	if (ef) {
		bool all = true;
		for (size_t i = 0; i < nr && all; i++)
			all = rank_of(c, rk[i])->has_flops;
		if (!all) {
			for (size_t i = 0; i < nr; i++)
				not_eval(c, PT_HR_PP_STAGE_FLOPS, rk[i], "rank", "no FLOPs data on every rank");
		} else {
			double *sf = pt_xcalloc(S, sizeof(*sf));
			double mean = 0;
			for (size_t i = 0; i < nr; i++) {
				const struct rk *r = rank_of(c, rk[i]);
				sf[i / per] += r->flops / (double)(r->nsteps ? r->nsteps : 1) / (double)per;
				mark_eval(c, PT_HR_PP_STAGE_FLOPS, rk[i]);
			}
			for (size_t q = 0; q < S; q++)
				mean += sf[q] / (double)S;
			size_t big = 0;
			for (size_t q = 1; q < S; q++)
				if (sf[q] > sf[big])
					big = q;
			double ex = mean > 0 ? (sf[big] / mean - 1) * 100 : 0;
			if (mean > 0 && ex > k->pp_stage_flops_pct) {
				char scope[32];
				snprintf(scope, sizeof(scope), "stage:%zu", big + 1);
				struct pt_hint *x = fire(c, PT_HR_PP_STAGE_FLOPS, rk[big * per], scope, PT_SEV_WARN, "excess_pct",
							 "pct", ex, k->pp_stage_flops_pct);
				x->message = msg("Stage %zu computes %.2f MFLOPs per device, %.1f%% above the stage average: "
						 "rebalance layers across stages.", big + 1, sf[big] / 1e6, ex);
				pt_hint_ev_dbl(x, "excess_pct", ex);
				pt_hint_ev_dbl(x, "mean_mflops", mean / 1e6);
				pt_hint_ev_int(x, "n_stages", (int64_t)S);
				for (size_t q = 0; q < S; q++) {
					int ix = (int)q + 1;
					snprintf(t, sizeof(t), "%zu", q + 1);
					pt_hint_ev_item(x, "stages", ix, "stage", t, true);
					snprintf(t, sizeof(t), "%.4f", sf[q] / 1e6);
					pt_hint_ev_item(x, "stages", ix, "mflops", t, true);
					stage_ranks(rk, nr, per, q, t, sizeof(t));
					pt_hint_ev_item(x, "stages", ix, "ranks", t, false);
				}
			}
			free(sf);
		}
	}
	/* ranks seen without a covered device */
	for (size_t i = 0; i < c->nrk; i++) {
		if (!c->rk[i].seen)
			continue;
		if (ec && c->rk[i].st[PT_HR_PP_STAGE_COMM] == ST_NONE)
			not_eval(c, PT_HR_PP_STAGE_COMM, c->rk[i].rank, "rank", "no device activity");
		if (ef && c->rk[i].st[PT_HR_PP_STAGE_FLOPS] == ST_NONE)
			not_eval(c, PT_HR_PP_STAGE_FLOPS, c->rk[i].rank, "rank", "no device activity");
	}
	free(rk);
}

/* ---- cluster rules ------------------------------------------------------------------- */

static const struct pt_model *link_m;
static int cmp_link(const void *pa, const void *pb)
{
	const struct pt_hccl_link *a = pa, *b = pb;
	if (a->type != b->type) {
		int t = strcmp(pt_model_strget(link_m, a->type), pt_model_strget(link_m, b->type));
		if (t)
			return t;
	}
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return a->dst < b->dst ? -1 : a->dst > b->dst;
}

/*
 * SLOW_LINK (hints.md §3, MindInsight's parallel proposer): per transport
 * type, over the links with src != dst of every device's HCCL data, the link
 * whose bandwidth falls furthest below the type's mean, when by more than
 * slow_link_pct. One hint per type, on the link's source rank.
 */
static void rule_slow_link(struct ctx *c)
{
	const struct pt_model *m = c->m;
	link_m = m;
	pt_sort(c->links, c->nlinks, sizeof(*c->links), cmp_link);
	for (size_t i = 0; i < c->nrk; i++) {
		if (c->rk[i].has_hccl)
			mark_eval(c, PT_HR_SLOW_LINK, c->rk[i].rank);
		else if (c->rk[i].seen)
			not_eval(c, PT_HR_SLOW_LINK, c->rk[i].rank, "rank", "no HCCL link data");
	}
	for (size_t a = 0, b; a < c->nlinks; a = b) {
		for (b = a; b < c->nlinks && c->links[b].type == c->links[a].type; b++)
			;
		const char *type = pt_model_strget(m, c->links[a].type);
		double sum = 0;
		size_t nl = 0;
		for (size_t i = a; i < b; i++)
			if (c->links[i].src != c->links[i].dst) {
				sum += pt_hccl_link_kb_per_ms(&c->links[i]);
				nl++;
			}
		if (!nl || !(sum > 0))
			continue; /* zero averages skip the rule */
		double mean = sum / (double)nl, worst = -1;
		size_t wi = a;
		for (size_t i = a; i < b; i++) {
			if (c->links[i].src == c->links[i].dst)
				continue;
			double v = (mean - pt_hccl_link_kb_per_ms(&c->links[i])) / mean;
			if (v > worst)
				worst = v, wi = i;
		}
		if (!(worst * 100 > c->k->slow_link_pct))
			continue;
		const struct pt_hccl_link *w = &c->links[wi];
		double bw = pt_hccl_link_kb_per_ms(w);
		char scope[96], t[48];
		snprintf(scope, sizeof(scope), "link:%" PRIu32 "-%" PRIu32 "/%s", w->src, w->dst, type);
		struct pt_hint *x = fire(c, PT_HR_SLOW_LINK, w->src, scope, PT_SEV_WARN, "shortfall_pct", "pct", worst * 100,
					 c->k->slow_link_pct);
		x->message = msg("Link %" PRIu32 "\u2192%" PRIu32 " (%s) moves %.2f KB/ms, %.1f%% below the %s average.", w->src,
				 w->dst, type, bw, worst * 100, type);
		pt_hint_ev_dbl(x, "shortfall_pct", worst * 100);
		pt_hint_ev_dbl(x, "kb_per_ms", bw);
		pt_hint_ev_dbl(x, "mean_kb_per_ms", mean);
		pt_hint_ev_str(x, "type", type);
		int ix = 0;
		for (size_t i = a; i < b; i++) {
			const struct pt_hccl_link *l = &c->links[i];
			if (l->src == l->dst)
				continue;
			ix++;
			snprintf(t, sizeof(t), "%" PRIu32, l->src);
			pt_hint_ev_item(x, "links", ix, "src", t, true);
			snprintf(t, sizeof(t), "%" PRIu32, l->dst);
			pt_hint_ev_item(x, "links", ix, "dst", t, true);
			snprintf(t, sizeof(t), "%.4f", pt_hccl_link_kb_per_ms(l));
			pt_hint_ev_item(x, "links", ix, "kb_per_ms", t, true);
			snprintf(t, sizeof(t), "%" PRIu64, l->size);
			pt_hint_ev_item(x, "links", ix, "size_bytes", t, true);
			snprintf(t, sizeof(t), "%" PRId64, l->time_ns);
			pt_hint_ev_item(x, "links", ix, "time_ns", t, true);
		}
	}
}

static void cluster_rules(struct ctx *c)
{
	const struct pt_hint_knobs *k = c->k;
	char b1[48], b2[48], b3[48];
	/* bubble, stage and comm_not_overlapped_excl_receive only with pipeline receives
	 * (without them they repeat step time and comm_not_overlapped) */
	bool any_rv = false;
	for (size_t i = 0; i < c->nrt; i++)
		any_rv |= c->rt[i].has_rv;
	if (enabled(c, PT_HR_RANK_SPREAD) && c->nrt >= 2) {
		for (size_t i = 0; i < c->nrt; i++)
			mark_eval(c, PT_HR_RANK_SPREAD, c->rt[i].rank);
		for (int col = 0; col < RT_NCOL; col++) {
			if (!any_rv && col >= 5 && col <= 7)
				continue;
			double mx = -1, mn = 0, sum = 0;
			size_t imx = 0, imn = 0;
			for (size_t i = 0; i < c->nrt; i++) {
				double v = c->rt[i].col[col];
				sum += v;
				if (i == 0 || v > mx)
					mx = v, imx = i;
				if (i == 0 || v < mn)
					mn = v, imn = i;
			}
			double mean = sum / (double)c->nrt;
			if (!(mean > 0))
				continue;
			double sp = (mx - mn) / mean * 100;
			if (!(sp > k->rank_spread_pct))
				continue;
			const char *why = col == 0 ? "rank %lld is slower or has more work" :
					  (col == 4 || col == 8) ? "rank %lld is held up by its host" :
					  (col == 5 || col == 6) ? "pipeline stages are unbalanced" :
					  "a slow link, or ranks waiting for a straggler";
			char tail[96];
			snprintf(tail, sizeof(tail), why, (long long)c->rt[imx].rank);
			struct pt_hint *x = fire(c, PT_HR_RANK_SPREAD, c->rt[imx].rank, "rank", PT_SEV_WARN, "spread_pct",
						 "pct", sp, k->rank_spread_pct);
			x->message = msg("%s differs by %.1f%% across ranks (max %s on rank %lld, min %s on rank %lld, mean "
					 "%s; threshold %.1f%%): %s.", rt_cols[col], sp, ftime(c, b1, llround(mx)),
					 (long long)c->rt[imx].rank, ftime(c, b2, llround(mn)), (long long)c->rt[imn].rank,
					 ftime(c, b3, llround(mean)), k->rank_spread_pct, tail);
			pt_hint_ev_str(x, "column", rt_cols[col]);
			for (size_t i = 0; i < c->nrt; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%" PRIu32, c->rt[i].dev);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "device", t, true);
				snprintf(t, sizeof(t), "%lld", llround(c->rt[i].col[col]));
				pt_hint_ev_item(x, "ranks", (int)i + 1, "mean_ns", t, true);
			}
			pt_hint_ev_int(x, "max_ns", llround(mx));
			pt_hint_ev_int(x, "min_ns", llround(mn));
			pt_hint_ev_int(x, "mean_ns", llround(mean));
			pt_hint_ev_dbl(x, "spread_pct", sp);
		}
	}
	/* RANK_STEP_GAP */
	size_t ng = 0;
	double gsum = 0;
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].has_gap)
			ng++, gsum += c->rk[i].mean_gap;
	if (enabled(c, PT_HR_RANK_STEP_GAP) && ng >= 2 && gsum > 0) {
		double mean = gsum / (double)ng, best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < c->nrk; i++)
			if (c->rk[i].has_gap) {
				mark_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank);
				double v = c->rk[i].mean_gap / mean - 1;
				if (v > best)
					best = v, bi = i;
			}
		if (best * 100 > k->rank_step_gap_pct) {
			struct pt_hint *x = fire(c, PT_HR_RANK_STEP_GAP, c->rk[bi].rank, "rank", PT_SEV_WARN, "excess_pct",
						 "pct", best * 100, k->rank_step_gap_pct);
			x->message = msg("Rank %lld waits %s between steps, %.1f%% more than the rank average: check its "
					 "data pipeline.", (long long)c->rk[bi].rank,
					 ftime(c, b1, llround(c->rk[bi].mean_gap)), best * 100);
			int ix = 0;
			for (size_t i = 0; i < c->nrk; i++)
				if (c->rk[i].has_gap) {
					char t[48];
					ix++;
					snprintf(t, sizeof(t), "%lld", (long long)c->rk[i].rank);
					pt_hint_ev_item(x, "ranks", ix, "rank", t, true);
					snprintf(t, sizeof(t), "%lld", llround(c->rk[i].mean_gap));
					pt_hint_ev_item(x, "ranks", ix, "mean_gap_ns", t, true);
				}
			pt_hint_ev_int(x, "mean_ns", llround(mean));
		}
	}
	/* RANK_FLOPS: achieved FLOPS per rank (F / B of LOW_FLOPS_UTIL) */
	size_t nf = 0;
	double fsum = 0;
	for (size_t i = 0; i < c->nrk; i++)
		if (c->rk[i].has_flops && c->rk[i].flops_busy > 0)
			nf++, fsum += c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9);
	bool all_f = nf == c->nrk;
	if (enabled(c, PT_HR_RANK_FLOPS) && nf >= 2 && all_f && fsum > 0) {
		double mean = fsum / (double)nf, best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < c->nrk; i++) {
			mark_eval(c, PT_HR_RANK_FLOPS, c->rk[i].rank);
			double f = c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9);
			double v = (mean - f) / mean;
			if (v > best)
				best = v, bi = i;
		}
		if (best * 100 > k->rank_flops_pct) {
			double f = c->rk[bi].flops / ((double)c->rk[bi].flops_busy / 1e9);
			struct pt_hint *x = fire(c, PT_HR_RANK_FLOPS, c->rk[bi].rank, "rank", PT_SEV_WARN, "shortfall_pct",
						 "pct", best * 100, k->rank_flops_pct);
			x->message = msg("Rank %lld reaches %.2f GFLOPS, %.1f%% below the rank average: check that device.",
					 (long long)c->rk[bi].rank, f / 1e9, best * 100);
			for (size_t i = 0; i < c->nrk; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rk[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%.4f", c->rk[i].flops / ((double)c->rk[i].flops_busy / 1e9) / 1e9);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "gflops", t, true);
			}
			pt_hint_ev_dbl(x, "mean_gflops", mean / 1e9);
		}
	}
	/* PP_RECEIVE: receive time not hidden by computation over all ranks (hints.md §3) */
	if (enabled(c, PT_HR_PP_RECEIVE) && any_rv) {
		int64_t rv = 0, st = 0;
		for (size_t i = 0; i < c->nrt; i++) {
			rv += c->rt[i].rv_alone;
			st += c->rt[i].step;
			mark_eval(c, PT_HR_PP_RECEIVE, c->rt[i].rank);
		}
		double p = pct(rv, st);
		if (p > k->pp_receive_pct) {
			struct pt_hint *x = fire(c, PT_HR_PP_RECEIVE, c->rt[0].rank, "rank", PT_SEV_WARN, "receive_pct",
						 "pct", p, k->pp_receive_pct);
			x->message = msg("Stage-to-stage receives leave the device idle %.1f%% of the time (threshold "
					 "%.1f%%): look at the timeline for the stage that sends late.", p, k->pp_receive_pct);
			pt_hint_ev_dbl(x, "receive_pct", p);
			pt_hint_ev_int(x, "receive_alone_ns", rv);
			pt_hint_ev_int(x, "step_ns", st);
			for (size_t i = 0; i < c->nrt; i++) {
				char t[48];
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rank);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "rank", t, true);
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].rv_alone);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "receive_alone_ns", t, true);
				snprintf(t, sizeof(t), "%lld", (long long)c->rt[i].step);
				pt_hint_ev_item(x, "ranks", (int)i + 1, "step_ns", t, true);
			}
		}
	}
	stage_rules(c, any_rv);
	for (size_t i = 0; i < c->nrk; i++) {
		if (c->nrk < 2) {
			if (enabled(c, PT_HR_RANK_SPREAD))
				not_eval(c, PT_HR_RANK_SPREAD, c->rk[i].rank, "rank", "fewer than 2 ranks");
			if (enabled(c, PT_HR_RANK_STEP_GAP))
				not_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank, "rank", "fewer than 2 ranks");
		} else if (c->rk[i].seen) {
			/* several ranks, but this one (or the others) lack the rule's input */
			if (enabled(c, PT_HR_RANK_SPREAD) && c->rk[i].st[PT_HR_RANK_SPREAD] == ST_NONE)
				not_eval(c, PT_HR_RANK_SPREAD, c->rk[i].rank, "rank", "%s",
					 c->nrt < 2 ? "fewer than 2 ranks with device activity" : "no device activity");
			if (enabled(c, PT_HR_RANK_STEP_GAP) && c->rk[i].st[PT_HR_RANK_STEP_GAP] == ST_NONE) {
				const char *why = !c->rk[i].has_gap ? "no step interval (fewer than 2 steps)" :
						  ng < 2 ? "fewer than 2 ranks with a step interval" :
						  "mean step interval is 0";
				not_eval(c, PT_HR_RANK_STEP_GAP, c->rk[i].rank, "rank", "%s", why);
			}
		}
		if (enabled(c, PT_HR_RANK_FLOPS) && c->rk[i].st[PT_HR_RANK_FLOPS] == ST_NONE)
			not_eval(c, PT_HR_RANK_FLOPS, c->rk[i].rank, "rank",
				 c->nrk < 2 ? "fewer than 2 ranks" : "no FLOPs data on every rank");
		if (enabled(c, PT_HR_PP_RECEIVE) && c->rk[i].st[PT_HR_PP_RECEIVE] == ST_NONE && c->rk[i].seen)
			not_eval(c, PT_HR_PP_RECEIVE, c->rk[i].rank, "rank", "no receive ops");
	}
	if (enabled(c, PT_HR_SLOW_LINK))
		rule_slow_link(c);
}

/* ---- MindData rules (pass-dataset's figures) ------------------------------------------ */

static bool parse_evidence(struct pt_hint *x, const char *s)
{
	while (*s) {
		char key[128], val[1024];
		size_t kl = 0, vl = 0;
		while (*s && *s != '=' && kl + 1 < sizeof(key))
			key[kl++] = *s++;
		key[kl] = 0;
		if (*s != '=')
			return false;
		s++;
		while (*s && *s != ';' && vl + 1 < sizeof(val)) {
			if (*s == '\\' && s[1])
				s++;
			val[vl++] = *s++;
		}
		val[vl] = 0;
		if (*s == ';')
			s++;
		char *end;
		bool num = vl && (strtod(val, &end), !*end) && !strpbrk(val, "nNxXiI");
		/* list items: <list>_<n>_<field> */
		char *u = strchr(key, '_');
		if (u && u[1] >= '1' && u[1] <= '9') {
			char *v;
			long idx = strtol(u + 1, &v, 10);
			if (*v == '_' && v[1]) {
				*u = 0;
				pt_hint_ev_item(x, key, (int)idx, v + 1, val, num);
				continue;
			}
		}
		if (num)
			pt_hint_ev_str(x, key, val), x->ev[x->nev - 1].num = true;
		else
			pt_hint_ev_str(x, key, val);
	}
	return true;
}

static const char *cellstr(struct pt_table *t, size_t r, size_t col)
{
	const struct pt_cell *c = pt_table_cell(t, r, col);
	return c->kind == PT_CELL_STR ? c->u.s : "";
}

/* MD_PIPELINE: the per-op sentences become item lines. */
static void split_items(struct pt_hint *x)
{
	char *cut = NULL;
	for (size_t i = 0; i < x->nev; i++) {
		if (!x->ev[i].list || strcmp(x->ev[i].list, "ops") || strcmp(x->ev[i].field, "name"))
			continue;
		static const char *const verbs[] = { ": change", ": raise" };
		for (int v = 0; v < 2; v++) {
			char pat[512];
			snprintf(pat, sizeof(pat), " %s%s", x->ev[i].text, verbs[v]);
			char *p = strstr(x->message, pat);
			if (p && (!cut || p < cut))
				cut = p;
		}
	}
	if (!cut)
		return;
	char *rest = pt_xstrdup(cut + 1);
	*cut = 0;
	/* split rest at " <name>: " of each op, in order */
	char *p = rest;
	while (p && *p) {
		char *next = NULL;
		for (size_t i = 0; i < x->nev; i++) {
			if (!x->ev[i].list || strcmp(x->ev[i].list, "ops") || strcmp(x->ev[i].field, "name"))
				continue;
			char pat[512];
			snprintf(pat, sizeof(pat), " %s: ", x->ev[i].text);
			char *q = strstr(p + 1, pat);
			if (q && (!next || q < next))
				next = q;
		}
		if (next)
			*next = 0;
		pt_hint_item(x, "%s", p);
		p = next ? next + 1 : NULL;
	}
	free(rest);
}

static bool md_device(const struct pt_model *m, uint32_t dev)
{
	for (size_t i = 0; i < m->md_ops.n; i++)
		if (m->md_ops.v[i].device == dev)
			return true;
	for (size_t i = 0; i < m->tracks.n; i++) {
		const struct pt_track *t = &m->tracks.v[i];
		const char *n = pt_model_strget(m, t->name);
		if (t->device == dev && (!strncmp(n, "md_", 3) || !strcmp(n, "get_next")))
			return true;
	}
	return false;
}

static int md_rules(struct ctx *c, int64_t device, struct pt_err **e)
{
	const struct pt_model *m = c->m;
	static const enum pt_hint_rule md[] = { PT_HR_MD_QUEUE, PT_HR_MD_PIPELINE, PT_HR_MD_CPU_BUSY,
						PT_HR_MD_OP_CPU, PT_HR_MD_OP_QUEUE, PT_HR_MD_BOTTLENECK_OP };
	/* evaluated on devices with MindData or get_next data; not evaluated on the other ranks */
	for (size_t i = 0; i < m->devices.n; i++) {
		if (device >= 0 && m->devices.v[i].id != (uint64_t)device)
			continue;
		if (md_device(m, i))
			for (size_t j = 0; j < 6; j++)
				if (enabled(c, md[j]))
					mark_eval(c, md[j], m->devices.v[i].id);
	}
	for (size_t i = 0; i < c->nrk; i++)
		for (size_t j = 0; j < 6; j++)
			if (enabled(c, md[j]) && c->rk[i].st[md[j]] == ST_NONE)
				not_eval(c, md[j], c->rk[i].rank, "rank", "no MindData data");
	struct pt_table *t = NULL;
	if (pt_dataset_md_hints(m, device, &c->k->md, &t, e))
		return -1;
	size_t first = c->h->n;
	for (size_t r = 0; r < t->nrows; r++) {
		int rule = pt_hint_rule_find(cellstr(t, r, 2));
		if (rule < 0 || !enabled(c, (enum pt_hint_rule)rule))
			continue;
		int64_t rank = pt_table_cell(t, r, 0)->u.i;
		const char *sev = cellstr(t, r, 3);
		struct pt_hint *x = fire(c, (enum pt_hint_rule)rule, rank, cellstr(t, r, 1),
					 !strcmp(sev, "crit") ? PT_SEV_CRIT : !strcmp(sev, "warn") ? PT_SEV_WARN : PT_SEV_INFO,
					 cellstr(t, r, 4), cellstr(t, r, 7), strtod(cellstr(t, r, 5), NULL),
					 strtod(cellstr(t, r, 6), NULL));
		x->message = pt_xstrdup(cellstr(t, r, 8));
		parse_evidence(x, cellstr(t, r, 9));
		if (rule == PT_HR_MD_PIPELINE)
			split_items(x);
	}
	pt_table_free(t);
	/* gates G1, G2 (hints.md §4) */
	if (!c->k->gate_minddata)
		return 0;
	for (size_t i = first; i < c->h->n; i++) {
		struct pt_hint *x = &c->h->v[i];
		struct rk *rr = rank_of(c, x->rank);
		bool g1 = x->rule == PT_HR_MD_PIPELINE || x->rule == PT_HR_MD_OP_CPU || x->rule == PT_HR_MD_OP_QUEUE ||
			  x->rule == PT_HR_MD_BOTTLENECK_OP;
		bool g2 = x->rule == PT_HR_MD_PIPELINE || x->rule == PT_HR_MD_BOTTLENECK_OP;
		bool h2d = false;
		for (size_t j = first; j < c->h->n; j++)
			h2d |= c->h->v[j].rule == PT_HR_MD_QUEUE && c->h->v[j].rank == x->rank &&
			       !strcmp(c->h->v[j].scope, "stage:host_to_device");
		if (g1 && !rr->fired[PT_HR_STEP_GAP] && !rr->fired[PT_HR_INPUT_BOUND]) {
			x->status = PT_HS_SUPPRESSED;
			x->reason = pt_xstrdup("G1: neither STEP_GAP nor INPUT_BOUND fired");
		} else if (g2 && h2d) {
			x->status = PT_HS_SUPPRESSED;
			x->reason = pt_xstrdup("G2: MD_QUEUE blames host_to_device");
		}
	}
	return 0;
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
	struct pt_hints_opts dflt = { .unit_div = 1000000, .unit_name = "ms" };
	struct ctx c = { .m = m, .x = x, .k = k, .o = o ? o : &dflt, .h = out };
	struct pt_steps_info si;
	if (pt_steps_collect(m, sel, &si, d, e))
		return -1;
	c.fig = pt_flops_op_figs(m);
	c.gr = pt_flops_gpu_ranges(m, &c.ngr, &c.kr);
	c.filtered = si.filtered;
	for (size_t i = 0; i < si.n; i++) {
		struct rankdata rd;
		rd_init(&c, &si.r[i], &rd);
		rank_rules(&c, &rd);
		rd_free(&rd);
	}
	/* Ascend devices with HCCL data and no steps or tasks: their links count for SLOW_LINK */
	for (uint32_t dev = 0; dev < m->devices.n; dev++) {
		const struct pt_device *dv = &m->devices.v[dev];
		if (dv->kind != PT_DEV_NPU || (sel && sel->device >= 0 && dv->id != (uint64_t)sel->device) ||
		    !has_hccl(m, dev))
			continue;
		bool ranked = false;
		for (size_t i = 0; i < si.n && !ranked; i++)
			for (size_t j = 0; j < si.r[i].ndevs && !ranked; j++)
				ranked = si.r[i].devs[j] == dev;
		if (!ranked) {
			pt_hccl_links_add(m, dev, NULL, &c.links, &c.nlinks, &c.caplinks);
			rank_of(&c, dv->id)->has_hccl = true;
		}
	}
	cluster_rules(&c);
	/* Ascend devices with a memory file and nothing else (no steps, no tasks): MEMORY_NEAR_CAPACITY only */
	if (enabled(&c, PT_HR_MEMORY_NEAR_CAPACITY))
		for (uint32_t dev = 0; dev < m->devices.n; dev++) {
			const struct pt_device *dv = &m->devices.v[dev];
			if (dv->kind != PT_DEV_NPU || (sel && sel->device >= 0 && dv->id != (uint64_t)sel->device))
				continue;
			bool graphs = false, ranked = false;
			for (size_t g = 0; g < m->mem_graphs.n && !graphs; g++)
				graphs = m->mem_graphs.v[g].device == dev;
			for (size_t i = 0; i < si.n && !ranked; i++)
				for (size_t j = 0; j < si.r[i].ndevs && !ranked; j++)
					ranked = si.r[i].devs[j] == dev;
			if (graphs && !ranked)
				memory_npu(&c, dv->id, dev);
		}
	int rc = md_rules(&c, sel ? sel->device : -1, e);
	pt_steps_info_free(&si);
	/* ranks known from MindData only: the other rules have no input there */
	for (size_t i = 0; i < c.nrk; i++) {
		if (c.rk[i].seen)
			continue;
		for (int r = 0; r < PT_HR__N; r++)
			if (enabled(&c, (enum pt_hint_rule)r) && c.rk[i].st[r] == ST_NONE &&
			    (r < PT_HR_MD_QUEUE || r > PT_HR_MD_BOTTLENECK_OP))
				not_eval(&c, (enum pt_hint_rule)r, c.rk[i].rank, "rank", "no steps or device activity");
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
