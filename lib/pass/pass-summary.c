/*
 * proftool summary: the item and merged views of summary.md §3.
 *
 * Per rank (Ascend: one NPU device; other models: rank 0 = every GPU and host
 * device), the preparation of §2.1 (steps, disjoint windows, W, membership)
 * runs once, then each selected view aggregates in one pass over the events:
 * items live in arrays indexed through hash maps keyed by interned output
 * names, never one allocation per event; sorting happens over items only.
 * Merged quantities use the interval sets of support/interval.h and the
 * C/M breakdown of the model index.
 */
#define _GNU_SOURCE
#include "pass/pass-summary.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <demangle.h>

#include "model/index.h"
#include "model/model.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/interval.h"
#include "support/strtab.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "table/table.h"

const char *const pt_summary_view_names[] = { "device", "overview", "model", "distributed", "operator", "kernel",
					      "memcpy", "userdefined", "optype", "aicpu", NULL };
const char *const pt_summary_keys[] = { "cpu-total", "cpu-avg", "cpu-max", "cpu-min", "gpu-total",
					"gpu-avg", "gpu-max", "gpu-min", "calls",   "name",    NULL };

void pt_summary_opts_init(struct pt_summary_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->views = PT_SUMMARY_VIEWS_DEFAULT;
	o->key = PT_SK_DEFAULT;
	o->top = -1;
	o->device = -1;
	o->win_a = INT64_MIN;
	o->win_b = INT64_MAX;
}

/* ------------------------------------------------------------------ */
/* context                                                             */

struct win {
	int64_t s, e;       /* disjoint window */
	int64_t fp, bp, end, sp; /* Ascend step points */
	uint32_t has;
	int64_t num;
	bool kept, first;
	int64_t gpu[4];     /* Ascend: member task time attributed to dataloader, forward, optimization, step */
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_summary_opts *o;
	enum pt_time_unit unit;
	struct pt_strtab names;   /* output names */
	uint32_t *raw2out;        /* raw string id -> output id + 1 */
	regex_t step_re;
	bool step_re_own;
	int64_t earliest;
};

struct rank {
	struct ctx *g;
	bool ascend;
	uint32_t dev;             /* Ascend device index */
	int64_t rank;
	const char *word;         /* GPU, NPU or Device */
	struct win *w;
	size_t nw;
	bool has_steps;           /* the rank has steps at all */
	bool filtered;
	struct pt_ivset W;
	int64_t Wlen;
	bool span;
	struct pt_hashmap corr;   /* GPU: corr -> API event index + 1 */
};

static uint32_t out_intern(struct ctx *g, const char *s, size_t n)
{
	return pt_strtab_intern(&g->names, s, n);
}

static const char *out_str(struct ctx *g, uint32_t id)
{
	return pt_strtab_get(&g->names, id);
}

/* Output name of a raw string id: demangled, API suffix _vNNNN dropped (§1). */
static uint32_t out_name(struct ctx *g, uint32_t raw, bool api)
{
	if (g->raw2out[raw])
		return g->raw2out[raw] - 1;
	const char *s = pt_strtab_get(&g->m->strings, raw);
	size_t n = pt_strtab_len(&g->m->strings, raw);
	uint32_t id;
	char *dm = NULL;
	if (!g->o->no_demangle && n > 2 && s[0] == '_' && s[1] == 'Z')
		dm = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
	if (dm) {
		id = out_intern(g, dm, strlen(dm));
		free(dm);
	} else if (api) {
		size_t k = n;
		while (k > 0 && isdigit((unsigned char)s[k - 1]))
			k--;
		if (n - k >= 4 && k >= 2 && s[k - 1] == 'v' && s[k - 2] == '_')
			n = k - 2;
		id = out_intern(g, s, n);
	} else {
		id = out_intern(g, s, n);
	}
	g->raw2out[raw] = id + 1;
	return id;
}

static uint32_t track_dev(const struct pt_model *m, size_t i)
{
	return m->tracks.v[m->events.track[i]].device;
}

static bool in_rank(const struct rank *r, size_t i)
{
	const struct pt_model *m = r->g->m;
	uint32_t d = track_dev(m, i);
	if (r->ascend)
		return d == r->dev;
	const struct pt_device *dv = &m->devices.v[d];
	if (dv->kind == PT_DEV_NPU)
		return false;
	if (dv->kind == PT_DEV_GPU && r->g->o->device >= 0 && dv->id != (uint64_t)r->g->o->device)
		return false;
	return true;
}

static bool is_dev_activity(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET;
}

static bool is_kernel(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL;
}

static bool in_set(const struct pt_ivset *s, int64_t t)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->v[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->v[lo].s <= t;
}

/* Anchor time of event i (§2.1). */
static int64_t anchor(const struct rank *r, size_t i)
{
	const struct pt_events *ev = &r->g->m->events;
	if (!r->ascend && ev->corr[i] && is_dev_activity(ev->kind[i])) {
		uint64_t *a = pt_hashmap_get(&r->corr, ev->corr[i]);
		if (a)
			return ev->start[*a - 1];
	}
	return ev->start[i];
}

static bool member_at(const struct rank *r, int64_t t)
{
	return !r->filtered || in_set(&r->W, t);
}

static bool member(const struct rank *r, size_t i)
{
	return !r->filtered || in_set(&r->W, anchor(r, i));
}

/* Index of the window containing t, or -1. */
static ssize_t win_of(const struct rank *r, int64_t t)
{
	size_t lo = 0, hi = r->nw;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->w[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nw && r->w[lo].s <= t && t < r->w[lo].e ? (ssize_t)lo : -1;
}

static int64_t measure_W(const struct rank *r, const struct pt_ivset *s)
{
	int64_t t = 0;
	for (size_t k = 0; k < r->W.n; k++)
		t += pt_ivset_measure_in(s, r->W.v[k].s, r->W.v[k].e);
	return t;
}

/* Growable interval list that becomes an ivset. */
struct ivl {
	struct pt_ival *v;
	size_t n, cap;
	int64_t calls;
};

static void ivl_add(struct ivl *l, int64_t s, int64_t e)
{
	if (l->n == l->cap)
		pt_xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct pt_ival){ s, e };
}

/* |union(l) ∩ W|; frees l. Touching or zero-length intervals: union as §2.7. */
static int64_t ivl_measure(const struct rank *r, struct ivl *l)
{
	struct pt_ivset s = { 0 };
	pt_ivset_build(&s, l->v, l->n);
	int64_t t = measure_W(r, &s);
	pt_ivset_free(&s);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	return t;
}

static int cmp_win(const void *a, const void *b)
{
	const struct win *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

static int rank_prepare(struct rank *r, struct pt_err **e)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	const struct pt_summary_opts *o = g->o;
	(void)e;
	PT_VEC(struct win) w = { 0 };
	if (r->ascend) {
		for (size_t i = 0; i < m->steps.n; i++) {
			const struct pt_step *s = &m->steps.v[i];
			if (s->device != r->dev || !(s->has & PT_STEP_HAS_START) || !(s->has & PT_STEP_HAS_END) ||
			    s->end < s->start)
				continue;
			struct win x = { .s = s->start, .e = s->end, .sp = s->start, .end = s->end, .fp = s->fp,
					 .bp = s->bp, .has = s->has, .num = s->step };
			pt_vec_push(&w, x);
		}
	} else {
		pt_hashmap_init(&r->corr);
		bool all_hash = true;
		for (size_t i = 0; i < ev->n; i++) {
			if (!in_rank(r, i))
				continue;
			if (ev->kind[i] == PT_EV_API && ev->corr[i])
				*pt_hashmap_put(&r->corr, ev->corr[i], i + 1, NULL) = i + 1;
			if (ev->kind[i] != PT_EV_RANGE)
				continue;
			const char *nm = pt_strtab_get(&m->strings, ev->name[i]);
			if (regexec(&g->step_re, nm, 0, NULL, 0))
				continue;
			struct win x = { .s = ev->start[i], .e = ev->start[i] + ev->dur[i] };
			const char *h = strrchr(nm, '#');
			char *end = NULL;
			if (h && isdigit((unsigned char)h[1]))
				x.num = strtoll(h + 1, &end, 10);
			if (!h || !end || *end)
				all_hash = false;
			pt_vec_push(&w, x);
		}
		if (w.n)
			qsort(w.v, w.n, sizeof(*w.v), cmp_win);
		for (size_t k = 0; k < w.n && all_hash; k++)
			for (size_t j = 0; j < k && all_hash; j++)
				all_hash = w.v[j].num != w.v[k].num;
		for (size_t k = 0; k < w.n && !all_hash; k++)
			w.v[k].num = (int64_t)k + 1;
	}
	if (w.n)
		qsort(w.v, w.n, sizeof(*w.v), cmp_win);
	for (size_t k = 0; k + 1 < w.n; k++)
		if (w.v[k].e > w.v[k + 1].s)
			w.v[k].e = w.v[k + 1].s;
	if (w.n)
		w.v[0].first = true;
	r->w = w.v;
	r->nw = w.n;
	r->has_steps = w.n > 0;
	r->filtered = o->has_steps || o->has_window;
	int64_t ta = INT64_MIN, tb = INT64_MAX;
	if (o->has_window) {
		if (o->win_a != INT64_MIN)
			ta = g->earliest + o->win_a;
		if (o->win_b != INT64_MAX)
			tb = g->earliest + o->win_b;
	}
	struct ivl l = { 0 };
	if (r->has_steps) {
		for (size_t k = 0; k < r->nw; k++) {
			struct win *x = &r->w[k];
			x->kept = !o->has_steps || (x->num >= o->step_a && x->num <= o->step_b);
			if (x->kept)
				ivl_add(&l, x->s > ta ? x->s : ta, x->e < tb ? x->e : tb);
		}
	} else {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t i = 0; i < ev->n; i++) {
			uint8_t k = ev->kind[i];
			if ((is_dev_activity(k) || k == PT_EV_API || k == PT_EV_RANGE || k == PT_EV_AICPU) &&
			    in_rank(r, i)) {
				if (ev->start[i] < lo)
					lo = ev->start[i];
				if (ev->start[i] + ev->dur[i] > hi)
					hi = ev->start[i] + ev->dur[i];
			}
		}
		if (lo <= hi)
			ivl_add(&l, lo > ta ? lo : ta, hi < tb ? hi : tb);
		r->span = true;
	}
	pt_ivset_build(&r->W, l.v, l.n);
	free(l.v);
	r->Wlen = pt_ivset_measure(&r->W);
	return 0;
}

static void rank_free(struct rank *r)
{
	free(r->w);
	pt_ivset_free(&r->W);
	if (!r->ascend)
		pt_hashmap_free(&r->corr);
}

/* ------------------------------------------------------------------ */
/* items                                                               */

struct item {
	uint32_t name;  /* output name id */
	int64_t calls;
	bool has_cpu, has_gpu;
	int64_t cpu_total, cpu_max, cpu_min;
	int64_t gpu_total, gpu_max, gpu_min;
	int64_t first;
	int64_t a, b, c, d; /* view-specific extras */
	PT_VEC(struct item) sub;
};

struct items {
	PT_VEC(struct item) v;
	struct pt_hashmap map; /* key -> index */
};

static void items_init(struct items *it)
{
	memset(it, 0, sizeof(*it));
	pt_hashmap_init(&it->map);
}

static void item_free(struct item *x)
{
	for (size_t i = 0; i < x->sub.n; i++)
		item_free(&x->sub.v[i]);
	pt_vec_free(&x->sub);
}

static void items_free(struct items *it)
{
	for (size_t i = 0; i < it->v.n; i++)
		item_free(&it->v.v[i]);
	pt_vec_free(&it->v);
	pt_hashmap_free(&it->map);
}

static struct item *items_get(struct items *it, uint64_t key, uint32_t name)
{
	bool added = false;
	uint64_t *p = pt_hashmap_put(&it->map, key, it->v.n, &added);
	if (added) {
		struct item x = { 0 };
		x.name = name;
		x.first = INT64_MAX;
		pt_vec_push(&it->v, x);
	}
	return &it->v.v[*p];
}

static void item_cpu(struct item *x, int64_t d)
{
	if (!x->has_cpu) {
		x->has_cpu = true;
		x->cpu_max = x->cpu_min = d;
	}
	x->cpu_total += d;
	if (d > x->cpu_max)
		x->cpu_max = d;
	if (d < x->cpu_min)
		x->cpu_min = d;
}

static void item_gpu(struct item *x, int64_t d)
{
	if (!x->has_gpu) {
		x->has_gpu = true;
		x->gpu_max = x->gpu_min = d;
	}
	x->gpu_total += d;
	if (d > x->gpu_max)
		x->gpu_max = d;
	if (d < x->gpu_min)
		x->gpu_min = d;
}

/* sort (§4.2) */
enum vkind { VK_TWO, VK_DEV };

static struct {
	struct ctx *g;
	enum pt_summary_key key;
	enum vkind kind;
	bool reverse;
} sort_ctx;

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_avg(int64_t ta, int64_t ca, int64_t tb, int64_t cb)
{
	__int128 x = (__int128)ta * (cb ? cb : 1), y = (__int128)tb * (ca ? ca : 1);
	return (x > y) - (x < y);
}

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	enum pt_summary_key k = sort_ctx.key;
	int c = 0, dir = -1; /* descending */
	bool cpu = k <= PT_SK_CPU_MIN;
	if (sort_ctx.kind == VK_DEV) {
		/* device-time rows: cpu keys fall back to the total, descending */
		if (cpu)
			k = PT_SK_GPU_TOTAL;
		cpu = false;
	}
	switch (k) {
	case PT_SK_CPU_TOTAL:
	case PT_SK_GPU_TOTAL:
		c = cpu ? cmp_i64(a->cpu_total, b->cpu_total) : cmp_i64(a->gpu_total, b->gpu_total);
		break;
	case PT_SK_CPU_AVG:
	case PT_SK_GPU_AVG:
		c = cpu ? cmp_avg(a->cpu_total, a->calls, b->cpu_total, b->calls) :
			  cmp_avg(a->gpu_total, a->calls, b->gpu_total, b->calls);
		break;
	case PT_SK_CPU_MAX:
	case PT_SK_GPU_MAX:
		c = cpu ? cmp_i64(a->cpu_max, b->cpu_max) : cmp_i64(a->gpu_max, b->gpu_max);
		break;
	case PT_SK_CPU_MIN:
	case PT_SK_GPU_MIN:
		c = cpu ? cmp_i64(a->cpu_min, b->cpu_min) : cmp_i64(a->gpu_min, b->gpu_min);
		dir = 1;
		break;
	case PT_SK_CALLS:
		c = cmp_i64(a->calls, b->calls);
		break;
	default:
		dir = 1;
		break;
	}
	if (sort_ctx.reverse)
		dir = -dir;
	if (c)
		return dir * c;
	const struct pt_strtab *st = &sort_ctx.g->names;
	size_t la = pt_strtab_len(st, a->name), lb = pt_strtab_len(st, b->name);
	int n = memcmp(pt_strtab_get(st, a->name), pt_strtab_get(st, b->name), la < lb ? la : lb);
	if (k == PT_SK_NAME && sort_ctx.reverse)
		n = -n, la ^= lb, lb ^= la, la ^= lb;
	if (n)
		return n;
	if (la != lb)
		return la < lb ? -1 : 1;
	return cmp_i64(a->first, b->first);
}

static void items_sort(struct ctx *g, struct item *v, size_t n, enum vkind kind)
{
	enum pt_summary_key k = g->o->key;
	if (k == PT_SK_DEFAULT)
		k = PT_SK_CPU_TOTAL;
	sort_ctx.g = g;
	sort_ctx.key = k;
	sort_ctx.kind = kind;
	sort_ctx.reverse = g->o->reverse;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_item);
}

static int cmp_first(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c = cmp_i64(a->first, b->first);
	if (c)
		return c;
	return strcmp(out_str(sort_ctx.g, a->name), out_str(sort_ctx.g, b->name));
}

static bool name_ok(struct ctx *g, uint32_t name)
{
	return !g->o->name_re || !regexec(g->o->name_re, out_str(g, name), 0, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* formatting                                                          */

static void ftime(const struct ctx *g, char *b, int64_t ns)
{
	snprintf(b, 48, "%.2f", (double)ns / (double)pt_time_unit_div(g->unit));
}

static void favg(const struct ctx *g, char *b, int64_t total, int64_t calls)
{
	snprintf(b, 48, "%.2f", calls ? (double)total / (double)calls / (double)pt_time_unit_div(g->unit) : 0.0);
}

static double pct(int64_t num, int64_t den)
{
	return den ? (double)num / (double)den * 100.0 : 0.0;
}

static void fpct(char *b, int64_t num, int64_t den)
{
	snprintf(b, 48, "%.2f", pct(num, den));
}

/* "total / avg / max / min / ratio" or "- / - / - / - / -" */
static void fblock(const struct ctx *g, char *b, bool has, int64_t calls, int64_t total, int64_t max, int64_t min,
		   int64_t den)
{
	if (!has) {
		strcpy(b, "- / - / - / - / -");
		return;
	}
	char t[48], a[48], x[48], n[48], r[48];
	ftime(g, t, total);
	favg(g, a, total, calls);
	ftime(g, x, max);
	ftime(g, n, min);
	fpct(r, total, den);
	snprintf(b, 256, "%s / %s / %s / %s / %s", t, a, x, n, r);
}

static int64_t ravg(int64_t total, int64_t calls)
{
	if (!calls)
		return 0;
	/* (2·total + calls) / (2·calls), half away from zero */
	__int128 n = 2 * (__int128)total + (total >= 0 ? calls : -calls);
	return (int64_t)(n / (2 * (__int128)calls));
}

/* Data block: total, avg, max, min, ratio at columns c..c+4. */
static void dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		   int64_t min, int64_t den)
{
	if (!has)
		return;
	pt_table_set_int(t, row, c, total);
	pt_table_set_int(t, row, c + 1, ravg(total, calls));
	pt_table_set_int(t, row, c + 2, max);
	pt_table_set_int(t, row, c + 3, min);
	pt_table_set_double(t, row, c + 4, pct(total, den));
}

static void add_block_cols(struct pt_table *t, const char *p)
{
	static const char *const f[] = { "total", "avg", "max", "min" };
	char b[64];
	for (int i = 0; i < 4; i++) {
		snprintf(b, sizeof(b), "%s_%s", p, f[i]);
		pt_table_add_col(t, b, PT_COL_TIME, PT_ROLE_VALUE, 0);
	}
	snprintf(b, sizeof(b), "%s_ratio", p);
	pt_table_add_col(t, b, PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

static size_t row0(struct pt_table *t, const struct rank *r)
{
	size_t row = pt_table_add_row(t);
	pt_table_set_int(t, row, 0, r->rank);
	return row;
}

static void setstr(struct pt_table *t, size_t row, size_t c, const char *s)
{
	pt_table_set_strdup(t, row, c, s, strlen(s));
}

static struct pt_stext *stext(const struct rank *r, const char *title, bool unit, bool multi)
{
	char b[160];
	if (multi)
		snprintf(b, sizeof(b), "%s - Rank %" PRId64, title, r->rank);
	else
		snprintf(b, sizeof(b), "%s", title);
	return pt_stext_new(b, unit ? pt_time_unit_name(r->g->unit) : NULL);
}

static const char *block_head(const struct rank *r, bool cpu, char *b)
{
	snprintf(b, 96, "%s Total / Avg / Max / Min / Ratio(%%)", cpu ? "CPU" : r->word);
	return b;
}

/* ------------------------------------------------------------------ */
/* Ascend step-trace ranges (§2.9)                                     */

/* Phase ranges of step k: 0 Dataloader, 1 Forward, 2 Optimization; false if absent. */
static bool phase(const struct win *x, int p, int64_t *s, int64_t *e)
{
	bool fp = x->has & PT_STEP_HAS_FP && x->fp, bp = x->has & PT_STEP_HAS_BP && x->bp;
	switch (p) {
	case 0:
		if (x->first || !fp || x->fp <= x->sp)
			return false;
		*s = x->sp, *e = x->fp;
		return true;
	case 1:
		if (!fp)
			return false;
		*s = x->fp, *e = bp ? x->bp : x->end;
		return *e >= *s;
	default:
		if (!bp || !fp)
			return false;
		*s = x->bp, *e = x->end;
		return *e >= *s;
	}
}

/* The phase (0..2) of step k containing t, or 3 for none. */
static int phase_of(const struct win *x, int64_t t)
{
	for (int p = 0; p < 3; p++) {
		int64_t s, e;
		if (phase(x, p, &s, &e) && s <= t && t < e)
			return p;
	}
	return 3;
}

/* ------------------------------------------------------------------ */
/* overview (§3.2)                                                     */

struct ovrow {
	const char *label;
	int64_t calls, time;
};

static int cmp_ov(const void *pa, const void *pb)
{
	const struct ovrow *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time > b->time ? -1 : 1;
	return strcmp(a->label, b->label);
}

static void view_overview(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct ovrow cpu[8];
	size_t nc = 0;
	const char *steplabel = r->span ? "Span" : "ProfileStep";
	int64_t stepcalls = 0;
	if (r->span)
		stepcalls = 1;
	else
		for (size_t k = 0; k < r->nw; k++)
			stepcalls += member_at(r, r->w[k].s);
	if (r->ascend) {
		static const char *const ph[] = { "Dataloader", "Forward", "Optimization" };
		for (int p = 0; p < 3; p++) {
			struct ivl l = { 0 };
			for (size_t k = 0; k < r->nw; k++) {
				int64_t s, e;
				if (!phase(&r->w[k], p, &s, &e))
					continue;
				ivl_add(&l, s, e);
				l.calls += member_at(r, s);
			}
			int64_t calls = l.calls;
			int64_t time = ivl_measure(r, &l);
			if (calls)
				cpu[nc++] = (struct ovrow){ ph[p], calls, time };
		}
	} else {
		struct ivl api = { 0 }, ur = { 0 };
		for (size_t i = 0; i < ev->n; i++) {
			uint8_t k = ev->kind[i];
			if ((k != PT_EV_API && k != PT_EV_RANGE) || !in_rank(r, i))
				continue;
			if (k == PT_EV_RANGE &&
			    !regexec(&g->step_re, pt_strtab_get(&m->strings, ev->name[i]), 0, NULL, 0))
				continue;
			struct ivl *l = k == PT_EV_API ? &api : &ur;
			ivl_add(l, ev->start[i], ev->start[i] + ev->dur[i]);
			l->calls += member(r, i);
		}
		int64_t ca = api.calls, cu = ur.calls;
		int64_t ta = ivl_measure(r, &api), tu = ivl_measure(r, &ur);
		if (ca)
			cpu[nc++] = (struct ovrow){ "CudaRuntime", ca, ta };
		if (cu)
			cpu[nc++] = (struct ovrow){ "UserRange", cu, tu };
	}
	qsort(cpu, nc, sizeof(*cpu), cmp_ov);
	/* GPU part: Kernel, Memcpy, Memset, Communication, Unattributed */
	struct ivl gl[5] = { { 0 } };
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!is_dev_activity(k) || !in_rank(r, i))
			continue;
		int64_t s = ev->start[i], e = s + ev->dur[i];
		bool mem = member(r, i);
		int c = is_kernel(k) ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
		ivl_add(&gl[c], s, e);
		gl[c].calls += mem;
		if (is_kernel(k) && pt_index_is_comm(g->x, i)) {
			ivl_add(&gl[3], s, e);
			gl[3].calls += mem;
		}
		bool unattr;
		if (r->ascend)
			unattr = win_of(r, s) < 0;
		else
			unattr = !ev->corr[i] || !pt_hashmap_get(&r->corr, ev->corr[i]);
		if (unattr) {
			ivl_add(&gl[4], s, e);
			gl[4].calls += mem;
		}
	}
	static const char *const glab[] = { "Kernel", "Memcpy", "Memset", "Communication", "Unattributed" };
	struct pt_stext *x = stext(r, "Overview Summary", true, multi);
	pt_stext_col(x, "Event Type", 25, false, true);
	pt_stext_col(x, "Calls", 25, true, false);
	pt_stext_col(x, "CPU Time", 25, true, false);
	pt_stext_col(x, "Ratio (%)", 25, true, false);
	char c1[64], c2[48], c3[48], c4[48];
	const char *cells[4] = { c1, c2, c3, c4 };
	/* step row */
	{
		size_t row = row0(t, r);
		setstr(t, row, 1, "cpu");
		setstr(t, row, 2, steplabel);
		pt_table_set_int(t, row, 3, stepcalls);
		pt_table_set_int(t, row, 4, r->Wlen);
		pt_table_set_double(t, row, 5, r->Wlen ? 100.0 : 0.0);
		snprintf(c1, sizeof(c1), "%s", steplabel);
		snprintf(c2, sizeof(c2), "%" PRId64, stepcalls);
		ftime(g, c3, r->Wlen);
		fpct(c4, r->Wlen, r->Wlen);
		pt_stext_row(x, cells);
	}
	for (size_t i = 0; i < nc; i++) {
		size_t row = row0(t, r);
		setstr(t, row, 1, "cpu");
		setstr(t, row, 2, cpu[i].label);
		pt_table_set_int(t, row, 3, cpu[i].calls);
		pt_table_set_int(t, row, 4, cpu[i].time);
		pt_table_set_double(t, row, 5, pct(cpu[i].time, r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", cpu[i].label);
		snprintf(c2, sizeof(c2), "%" PRId64, cpu[i].calls);
		ftime(g, c3, cpu[i].time);
		fpct(c4, cpu[i].time, r->Wlen);
		pt_stext_row(x, cells);
	}
	int64_t gcalls[5], gtime[5];
	bool any = false;
	for (int c = 0; c < 5; c++) {
		gcalls[c] = gl[c].calls;
		gtime[c] = ivl_measure(r, &gl[c]);
		any |= gcalls[c] > 0;
	}
	if (any) {
		/* second header inside the table */
		const char *h[4] = { "", "Calls", "GPU Time", "Ratio (%)" };
		char gh[32];
		snprintf(gh, sizeof(gh), "%s Time", r->word);
		h[2] = gh;
		pt_stext_group(x, NULL);
		pt_stext_row(x, h);
		pt_stext_group(x, NULL);
	}
	for (int c = 0; c < 5; c++) {
		if (!gcalls[c])
			continue;
		size_t row = row0(t, r);
		setstr(t, row, 1, "gpu");
		setstr(t, row, 2, glab[c]);
		pt_table_set_int(t, row, 3, gcalls[c]);
		pt_table_set_int(t, row, 4, gtime[c]);
		pt_table_set_double(t, row, 5, pct(gtime[c], r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", glab[c]);
		snprintf(c2, sizeof(c2), "%" PRId64, gcalls[c]);
		ftime(g, c3, gtime[c]);
		fpct(c4, gtime[c], r->Wlen);
		pt_stext_row(x, cells);
	}
	pt_stext_note(x, "Note:");
	pt_stext_note(x, "Each row merges all events of one type before summing, so overlapping events of that type");
	pt_stext_note(x, "(on several threads or streams) are counted once.");
	pt_stext_note(x, "Host events give CPU time, device events give GPU time; every ratio is against the step window.");
	pt_stext_note(x, "Types contain each other (an Operator contains its OperatorInner stages), so ratios do not add up to 100%.");
	if (gcalls[4])
		pt_stext_note(x, "Unattributed: device activity whose launching call is unknown or lies outside every host range.");
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* model (§3.3), Ascend step-trace phases                              */

static void view_model(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (!r->ascend)
		return; /* no phase ranges without host range types */
	int64_t G = 0;
	for (size_t k = 0; k < r->nw; k++)
		memset(r->w[k].gpu, 0, sizeof(r->w[k].gpu));
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_dev_activity(ev->kind[i]) || !in_rank(r, i) || !member(r, i))
			continue;
		G += ev->dur[i];
		ssize_t k = win_of(r, ev->start[i]);
		if (k < 0)
			continue;
		struct win *x = &r->w[k];
		x->gpu[3] += ev->dur[i];
		int p = phase_of(x, ev->start[i]);
		if (p < 3)
			x->gpu[p] += ev->dur[i];
	}
	struct item st = { 0 }, ph[3] = { { 0 } };
	struct ivl cover = { 0 };
	int64_t others_gpu = 0;
	for (size_t k = 0; k < r->nw; k++) {
		struct win *x = &r->w[k];
		if (member_at(r, x->s)) {
			st.calls++;
			item_cpu(&st, x->e - x->s);
			item_gpu(&st, x->gpu[3]);
			others_gpu += x->gpu[3] - x->gpu[0] - x->gpu[1] - x->gpu[2];
		}
		for (int p = 0; p < 3; p++) {
			int64_t s, e;
			if (!phase(x, p, &s, &e) || !member_at(r, s))
				continue;
			ph[p].calls++;
			item_cpu(&ph[p], e - s);
			item_gpu(&ph[p], x->gpu[p]);
			ivl_add(&cover, s, e);
		}
	}
	if (!ph[0].calls && !ph[1].calls && !ph[2].calls) {
		free(cover.v);
		return;
	}
	/* |W − union(phases)| */
	int64_t covered = ivl_measure(r, &cover);
	int64_t others_cpu = r->Wlen - covered;
	if (r->span) {
		st = (struct item){ .calls = 1 };
		item_cpu(&st, r->Wlen);
		item_gpu(&st, G);
	}
	struct pt_stext *x = stext(r, "Model Summary", true, multi);
	char hb1[96], hb2[96];
	pt_stext_col(x, "Name", 15, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, block_head(r, true, hb1), 40, true, false);
	pt_stext_col(x, block_head(r, false, hb2), 40, true, false);
	static const char *const lab[] = { "Dataloader", "Forward", "Optimization" };
	char c0[64], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	for (int p = -1; p < 3; p++) {
		struct item *it = p < 0 ? &st : &ph[p];
		const char *name = p < 0 ? (r->span ? "Span" : "ProfileStep") : lab[p];
		if (p >= 0 && !it->calls)
			continue;
		size_t row = row0(t, r);
		setstr(t, row, 1, name);
		pt_table_set_int(t, row, 2, it->calls);
		dblock(t, row, 3, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		dblock(t, row, 8, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		snprintf(c0, sizeof(c0), "%s%s", p < 0 ? "" : "  ", name);
		snprintf(c1, sizeof(c1), "%" PRId64, it->calls);
		fblock(g, c2, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		fblock(g, c3, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		pt_stext_row(x, cells);
	}
	size_t row = row0(t, r);
	setstr(t, row, 1, "Others");
	pt_table_set_int(t, row, 3, others_cpu);
	pt_table_set_double(t, row, 7, pct(others_cpu, r->Wlen));
	pt_table_set_int(t, row, 8, others_gpu);
	pt_table_set_double(t, row, 12, pct(others_gpu, G));
	char a[48], b[48];
	snprintf(c0, sizeof(c0), "  Others");
	strcpy(c1, "-");
	ftime(g, a, others_cpu);
	fpct(b, others_cpu, r->Wlen);
	snprintf(c2, sizeof(c2), "%s / - / - / - / %s", a, b);
	ftime(g, a, others_gpu);
	fpct(b, others_gpu, G);
	snprintf(c3, sizeof(c3), "%s / - / - / - / %s", a, b);
	pt_stext_row(x, cells);
	pt_stext_note(x, "Note:");
	pt_stext_note(x, "GPU time is the plain sum of all device activity (kernels, copies, fills) launched inside the phase;");
	pt_stext_note(x, "activity on parallel streams is added, not merged.");
	pt_stext_note(x, "Others: step time covered by no phase, and device time launched in a step outside every phase.");
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* device (§3.1) and distributed (§3.4)                                */

static void rank_devices(const struct rank *r, uint32_t **out, size_t *n)
{
	const struct pt_model *m = r->g->m;
	*out = pt_xcalloc(m->devices.n + 1, sizeof(**out));
	*n = 0;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (r->ascend ? d != r->dev : dv->kind != PT_DEV_GPU)
			continue;
		if (!r->ascend && r->g->o->device >= 0 && dv->id != (uint64_t)r->g->o->device)
			continue;
		(*out)[(*n)++] = d;
	}
	/* ascending device id */
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && m->devices.v[(*out)[j - 1]].id > m->devices.v[(*out)[j]].id; j--) {
			uint32_t tmp = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = tmp;
		}
}

static void dev_label(const struct pt_model *m, uint32_t d, char *b)
{
	snprintf(b, 32, "%s%" PRIu32, m->devices.v[d].kind == PT_DEV_NPU ? "NPU" : "GPU", m->devices.v[d].id);
}

static void view_device(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint32_t *devs;
	size_t nd;
	rank_devices(r, &devs, &nd);
	struct pt_stext *x = stext(r, "Device Summary", false, multi);
	pt_stext_col(x, "Device", 30, false, true);
	pt_stext_col(x, "Utilization (%)", 20, true, false);
	bool any = false;
	for (size_t k = 0; k < nd; k++) {
		struct ivl l = { 0 };
		for (size_t i = 0; i < ev->n; i++)
			if (is_kernel(ev->kind[i]) && track_dev(m, i) == devs[k])
				ivl_add(&l, ev->start[i], ev->start[i] + ev->dur[i]);
		if (!l.n)
			continue;
		int64_t busy = ivl_measure(r, &l);
		char lab[32], u[48];
		dev_label(m, devs[k], lab);
		size_t row = row0(t, r);
		setstr(t, row, 1, "device");
		setstr(t, row, 2, lab);
		pt_table_set_double(t, row, 5, pct(busy, r->Wlen));
		pt_table_set_int(t, row, 6, busy);
		pt_table_set_int(t, row, 7, r->Wlen);
		fpct(u, busy, r->Wlen);
		const char *cells[2] = { lab, u };
		pt_stext_row(x, cells);
		any = true;
	}
	free(devs);
	if (any) {
		pt_stext_note(x, "Note:");
		pt_stext_note(x, "GPU<n>/NPU<n>: time during which at least one kernel ran on the device, divided by the step window.");
	}
	*tx = x;
}

static void view_distributed(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	uint32_t *devs;
	size_t nd;
	rank_devices(r, &devs, &nd);
	bool comm = false;
	for (size_t k = 0; k < nd; k++)
		comm |= pt_index_comm(g->x, devs[k])->n > 0;
	if (!comm) {
		free(devs);
		return;
	}
	struct pt_stext *x = stext(r, "Distribution Summary", true, multi);
	pt_stext_col(x, "Name", 25, false, true);
	pt_stext_col(x, "Total Time", 25, true, false);
	pt_stext_col(x, "Ratio (%)", 25, true, false);
	for (size_t k = 0; k < nd; k++) {
		if (!pt_index_comp(g->x, devs[k])->n && !pt_index_comm(g->x, devs[k])->n)
			continue;
		struct pt_breakdown b;
		pt_index_breakdown_set(g->x, devs[k], &r->W, &b);
		char lab[32], grp[48];
		dev_label(m, devs[k], lab);
		snprintf(grp, sizeof(grp), "Device: %s", lab);
		pt_stext_group(x, grp);
		const char *metric[] = { "window", "communication", "computation", "overlapped", "comm_not_overlapped",
					 "free" };
		const char *label[] = { r->span ? "Span" : "ProfileStep", "Communication", "Computation", "Overlapped",
					"Comm Not Overlapped", "Free" };
		int64_t v[] = { r->Wlen, b.communication, b.computation, b.overlapped, b.comm_not_overlapped, b.free };
		for (int i = 0; i < 6; i++) {
			size_t row = row0(t, r);
			pt_table_set_int(t, row, 1, m->devices.v[devs[k]].id);
			setstr(t, row, 2, metric[i]);
			pt_table_set_int(t, row, 3, v[i]);
			pt_table_set_double(t, row, 4, pct(v[i], r->Wlen));
			char c0[48], c1[48], c2[48];
			snprintf(c0, sizeof(c0), "%s%s", i ? "  " : "", label[i]);
			ftime(g, c1, v[i]);
			fpct(c2, v[i], r->Wlen);
			const char *cells[3] = { c0, c1, c2 };
			pt_stext_row(x, cells);
		}
	}
	free(devs);
	pt_stext_note(x, "Note:");
	pt_stext_note(x, "Per device, over the step window. Computation: time a computation kernel or task runs.");
	pt_stext_note(x, "Communication: time a communication kernel or task, or a step-trace reduce interval, runs.");
	pt_stext_note(x, "Overlapped: communication while computation runs. Comm Not Overlapped: communication alone.");
	pt_stext_note(x, "Free: neither runs. Computation + Comm Not Overlapped + Free = the step window.");
	pt_stext_note(x, "Host-side collective calls are not counted here; the Overview lists them as CPU Communication.");
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* operator (§3.5), kernel (§3.6), optype (§3.9)                       */

/* Output name of an unnamed Ascend task: "task <stream>_<task>". */
static uint32_t task_name(struct ctx *g, size_t i)
{
	const struct pt_model *m = g->m;
	char b[64];
	int n = snprintf(b, sizeof(b), "task %" PRId64 "_%" PRIu64, m->tracks.v[m->events.track[i]].stream,
			 m->events.task[i]);
	return out_intern(g, b, (size_t)n);
}

static uint64_t task_key(const struct pt_model *m, size_t i)
{
	return ((uint64_t)(uint32_t)m->tracks.v[m->events.track[i]].stream << 40) ^ m->events.task[i];
}

/* Emit --top / --name filtered device-time item rows into a single-group text table. */
static void view_operator(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (!r->ascend)
		return; /* GPU operators need host range types (not in the model yet) */
	struct items it;
	items_init(&it);
	int64_t den = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_TASK || !ev->op[i] || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t nm = out_name(g, ev->name[i], false);
		struct item *x = items_get(&it, nm, nm);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		den += ev->dur[i];
		if (g->o->op_detail) {
			/* task rows: few task keys per op, linear search from the last hit */
			uint64_t key = task_key(m, i);
			struct item *s = NULL;
			for (size_t k = x->sub.n; k-- > 0;)
				if ((uint64_t)x->sub.v[k].a == key) {
					s = &x->sub.v[k];
					break;
				}
			if (!s) {
				struct item y = { 0 };
				y.name = task_name(g, i);
				y.a = (int64_t)key;
				y.first = INT64_MAX;
				pt_vec_push(&x->sub, y);
				s = &x->sub.v[x->sub.n - 1];
			}
			s->calls++;
			item_gpu(s, ev->dur[i]);
			if (ev->start[i] < s->first)
				s->first = ev->start[i];
		}
	}
	items_sort(g, it.v.v, it.v.n, VK_TWO);
	char lab[32], grp[48];
	dev_label(m, r->dev, lab);
	snprintf(grp, sizeof(grp), "Device: %s", lab);
	struct pt_stext *x = stext(r, "Operator Summary", true, multi);
	char hb1[96], hb2[96];
	pt_stext_col(x, "Name", 52, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, block_head(r, true, hb1), 40, true, false);
	pt_stext_col(x, block_head(r, false, hb2), 40, true, false);
	pt_stext_group(x, grp);
	char c0[4096], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, lab);
		setstr(t, row, 2, "op");
		setstr(t, row, 3, on);
		setstr(t, row, 5, on);
		pt_table_set_int(t, row, 6, o->calls);
		dblock(t, row, 12, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c0, sizeof(c0), "%s", on);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, false, 0, 0, 0, 0, 0);
		fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		pt_stext_row(x, cells);
		sort_ctx.g = g;
		if (o->sub.n > 1)
			qsort(o->sub.v, o->sub.n, sizeof(*o->sub.v), cmp_first);
		for (size_t j = 0; j < o->sub.n; j++) {
			struct item *s = &o->sub.v[j];
			const char *sn = out_str(g, s->name);
			row = row0(t, r);
			setstr(t, row, 1, lab);
			setstr(t, row, 2, "device");
			setstr(t, row, 3, on);
			setstr(t, row, 5, sn);
			pt_table_set_int(t, row, 6, s->calls);
			dblock(t, row, 12, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			snprintf(c0, sizeof(c0), "  %s", sn);
			snprintf(c1, sizeof(c1), "%" PRId64, s->calls);
			fblock(g, c3, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			pt_stext_row(x, cells);
		}
	}
	items_free(&it);
	*tx = x;
}

static void view_kernel(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct items it;
	items_init(&it);
	int64_t den = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_kernel(ev->kind[i]) || !in_rank(r, i) || !member(r, i))
			continue;
		struct item *x;
		if (ev->name[i]) {
			uint32_t nm = out_name(g, ev->name[i], false);
			x = items_get(&it, nm, nm);
		} else if (r->ascend) {
			/* unnamed task: keyed by (stream, task); the name is made once per key */
			uint64_t key = task_key(m, i) | (1ull << 63);
			uint64_t *p = pt_hashmap_get(&it.map, key);
			x = p ? &it.v.v[*p] : items_get(&it, key, task_name(g, i));
		} else {
			uint32_t nm = out_intern(g, "<unnamed>", 9);
			x = items_get(&it, nm, nm);
		}
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		den += ev->dur[i];
	}
	items_sort(g, it.v.v, it.v.n, VK_DEV);
	struct pt_stext *x = stext(r, "Kernel Summary", true, multi);
	char hb[96];
	pt_stext_col(x, "Name", 90, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, block_head(r, false, hb), 40, true, false);
	char c1[32], c2[256];
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		dblock(t, row, 3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		/* template shortening (§3.6): cut after the last '>' followed by '(' with ')' after it */
		size_t len = strlen(on), cut = len;
		const char *lt = strchr(on, '<');
		if (lt && lt > on)
			for (size_t j = (size_t)(lt - on) + 1; j + 1 < len; j++)
				if (on[j] == '>' && on[j + 1] == '(' && strchr(on + j + 1, ')'))
					cut = j + 1;
		char *dn = pt_xstrndup(on, cut);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		const char *cells[3] = { dn, c1, c2 };
		pt_stext_row(x, cells);
		free(dn);
	}
	items_free(&it);
	*tx = x;
}

static void view_optype(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (!r->ascend)
		return;
	struct items it;
	items_init(&it);
	struct pt_hashmap seen; /* (type, op name) pairs */
	pt_hashmap_init(&seen);
	int64_t den = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_TASK || !ev->op[i] || !in_rank(r, i) || !member(r, i))
			continue;
		const struct pt_op *op = &m->ops.v[ev->op[i] - 1];
		uint32_t ty = out_name(g, op->type, false);
		struct item *x = items_get(&it, ty, ty);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		den += ev->dur[i];
		bool added = false;
		pt_hashmap_put(&seen, ((uint64_t)ty << 32) | ev->name[i], 1, &added);
		x->a += added;
	}
	pt_hashmap_free(&seen);
	items_sort(g, it.v.v, it.v.n, VK_DEV);
	struct pt_stext *x = stext(r, "Operator Type Summary", true, multi);
	char hb[96];
	pt_stext_col(x, "Op Type", 40, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, "Ops", 6, true, false);
	pt_stext_col(x, block_head(r, false, hb), 40, true, false);
	char c1[32], c2[32], c3[256];
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->a);
		dblock(t, row, 4, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		snprintf(c2, sizeof(c2), "%" PRId64, o->a);
		fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		const char *cells[4] = { *on ? on : "<unknown>", c1, c2, c3 };
		pt_stext_row(x, cells);
	}
	items_free(&it);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* aicpu (§3.10)                                                       */

static void view_aicpu(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	if (!r->ascend)
		return;
	struct items it;
	items_init(&it);
	int64_t den = 0, n = 0;
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		if (a->device != r->dev)
			continue;
		bool times = a->has & PT_AICPU_HAS_TIMES;
		if (r->filtered && (!times || !member_at(r, a->start)))
			continue;
		uint32_t nm = out_name(g, a->name, false);
		struct item *x = items_get(&it, nm, nm);
		x->calls++;
		item_gpu(x, a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0);
		if (times && a->start < x->first)
			x->first = a->start;
		x->a += a->has & PT_AICPU_HAS_DISPATCH ? a->dispatch_ns : 0;
		x->b += times ? a->end - a->start : 0;
		den += a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0;
		n++;
	}
	items_sort(g, it.v.v, it.v.n, VK_DEV);
	struct pt_stext *x = stext(r, "AI CPU Summary", true, multi);
	pt_stext_col(x, "Name", 52, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, "Total / Avg / Max / Min / Ratio(%)", 40, true, false);
	pt_stext_col(x, "Dispatch Total / Avg", 20, true, false);
	pt_stext_col(x, "Execution Total / Avg", 21, true, false);
	char c1[32], c2[256], c3[128], c4[128], a1[48], a2[48];
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->gpu_total);
		pt_table_set_int(t, row, 4, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 5, o->gpu_min);
		pt_table_set_int(t, row, 6, o->gpu_max);
		pt_table_set_double(t, row, 7, pct(o->gpu_total, den));
		pt_table_set_int(t, row, 8, o->a);
		pt_table_set_int(t, row, 9, ravg(o->a, o->calls));
		pt_table_set_int(t, row, 10, o->b);
		pt_table_set_int(t, row, 11, ravg(o->b, o->calls));
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		ftime(g, a1, o->a);
		favg(g, a2, o->a, o->calls);
		snprintf(c3, sizeof(c3), "%s / %s", a1, a2);
		ftime(g, a1, o->b);
		favg(g, a2, o->b, o->calls);
		snprintf(c4, sizeof(c4), "%s / %s", a1, a2);
		const char *cells[5] = { on, c1, c2, c3, c4 };
		pt_stext_row(x, cells);
	}
	items_free(&it);
	char b[160], tb[48];
	pt_stext_note(x, "Note:");
	pt_stext_note(x, "Total: AI CPU time of each execution as the device records it, dispatch included.");
	ftime(g, tb, den);
	snprintf(b, sizeof(b), "AI CPU total time: %s %s in %" PRId64 " executions.", tb, pt_time_unit_name(g->unit), n);
	pt_stext_note(x, b);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* memcpy (§3.7): device copies and fills, host runtime copy calls     */

static void view_memcpy(struct rank *r, struct pt_table *t, struct pt_stext **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (r->ascend)
		return;
	struct items host, dev;
	items_init(&host);
	items_init(&dev);
	struct pt_hashmap api_gpu; /* API event -> copy time it launched */
	pt_hashmap_init(&api_gpu);
	int64_t G = 0;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!is_dev_activity(k) || !in_rank(r, i) || !member(r, i))
			continue;
		G += ev->dur[i];
		if (k != PT_EV_MEMCPY && k != PT_EV_MEMSET)
			continue;
		uint32_t nm = ev->name[i] ? out_name(g, ev->name[i], false) :
					    out_intern(g, k == PT_EV_MEMCPY ? "[memcpy]" : "[memset]", 8);
		struct item *x = items_get(&dev, nm, nm);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		uint64_t *a = ev->corr[i] ? pt_hashmap_get(&r->corr, ev->corr[i]) : NULL;
		if (a) {
			bool added;
			uint64_t *s = pt_hashmap_put(&api_gpu, *a, 0, &added);
			*s += (uint64_t)ev->dur[i];
		}
	}
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t nm = out_name(g, ev->name[i], true);
		const char *s = out_str(g, nm);
		if (!strcasestr(s, "memcpy") && !strcasestr(s, "memset"))
			continue;
		struct item *x = items_get(&host, nm, nm);
		x->calls++;
		item_cpu(x, ev->dur[i]);
		uint64_t *gsum = pt_hashmap_get(&api_gpu, i + 1);
		item_gpu(x, gsum ? (int64_t)*gsum : 0);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
	}
	pt_hashmap_free(&api_gpu);
	items_sort(g, host.v.v, host.v.n, VK_TWO);
	items_sort(g, dev.v.v, dev.v.n, VK_DEV);
	size_t longest = 4;
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? &dev : &host;
		for (size_t k = 0; k < it->v.n; k++) {
			size_t l = strlen(out_str(g, it->v.v[k].name));
			if (l > longest)
				longest = l;
		}
	}
	struct pt_stext *x = stext(r, "Memory Manipulation Summary", true, multi);
	char hb1[96], hb2[96];
	pt_stext_col(x, "Name", longest < 90 ? longest : 90, false, true);
	pt_stext_col(x, "Calls", 6, true, false);
	pt_stext_col(x, block_head(r, true, hb1), 40, true, false);
	pt_stext_col(x, block_head(r, false, hb2), 40, true, false);
	pt_stext_col(x, "Bytes", 0, true, false);
	pt_stext_col(x, "Bandwidth (GB/s)", 0, true, false);
	char c1[32], c2[256], c3[256];
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? &dev : &host;
		if (!it->v.n)
			continue;
		pt_stext_group(x, grp ? "Device copies and fills" : "Host calls");
		int64_t shown = 0;
		for (size_t k = 0; k < it->v.n; k++) {
			struct item *o = &it->v.v[k];
			if (!name_ok(g, o->name))
				continue;
			if (g->o->top >= 0 && shown >= g->o->top)
				break;
			shown++;
			const char *on = out_str(g, o->name);
			size_t row = row0(t, r);
			setstr(t, row, 1, grp ? "device" : "host");
			setstr(t, row, 2, on);
			pt_table_set_int(t, row, 3, o->calls);
			dblock(t, row, 4, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			dblock(t, row, 9, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			fblock(g, c2, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			const char *cells[6] = { on, c1, c2, c3, "-", "-" };
			pt_stext_row(x, cells);
		}
	}
	items_free(&host);
	items_free(&dev);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* data tables                                                          */

static struct pt_table *data_table(enum pt_summary_view v)
{
	struct pt_table *t = pt_table_new(pt_summary_view_names[v], pt_summary_view_names[v]);
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	switch (v) {
	case PT_SV_DEVICE: {
		pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "device", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "step", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "samples", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "utilization_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "busy", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "window", PT_COL_TIME, PT_ROLE_VALUE, 0);
		static const char *const rc[] = { "user_ratio", "system_ratio", "iowait_ratio", "idle_ratio" };
		for (int i = 0; i < 4; i++)
			pt_table_add_col(t, rc[i], PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "context_switches", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "process_user_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "process_system_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	}
	case PT_SV_OVERVIEW:
		pt_table_add_col(t, "side", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "event_type", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	case PT_SV_MODEL:
		pt_table_add_col(t, "phase", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		break;
	case PT_SV_DISTRIBUTED:
		pt_table_add_col(t, "device", PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "metric", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	case PT_SV_OPERATOR:
		pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "op_name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "child_name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
		break;
	case PT_SV_KERNEL:
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "gpu");
		break;
	case PT_SV_MEMCPY:
	case PT_SV_USERDEFINED:
		pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		if (v == PT_SV_MEMCPY) {
			pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "bandwidth_gbps", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		}
		break;
	case PT_SV_OPTYPE:
		pt_table_add_col(t, "op_type", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ops", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "gpu");
		break;
	case PT_SV_AICPU:
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "dispatch_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "dispatch_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "exec_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "exec_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		break;
	default:
		break;
	}
	return t;
}

typedef void (*view_fn)(struct rank *, struct pt_table *, struct pt_stext **, bool);

static const view_fn view_fns[PT_SV_COUNT] = {
	[PT_SV_DEVICE] = view_device,
	[PT_SV_OVERVIEW] = view_overview,
	[PT_SV_MODEL] = view_model,
	[PT_SV_DISTRIBUTED] = view_distributed,
	[PT_SV_OPERATOR] = view_operator,
	[PT_SV_KERNEL] = view_kernel,
	[PT_SV_MEMCPY] = view_memcpy,
	[PT_SV_USERDEFINED] = NULL, /* needs host range types (not in the model yet) */
	[PT_SV_OPTYPE] = view_optype,
	[PT_SV_AICPU] = view_aicpu,
};

int pt_pass_summary(const struct pt_model *m, struct pt_index *x, const struct pt_summary_opts *o,
		    struct pt_summary *out, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	struct ctx g = { .m = m, .x = x, .o = o };
	g.unit = o->unit == PT_TU_DEFAULT ? PT_TU_MS : o->unit;
	pt_strtab_init(&g.names);
	g.raw2out = pt_xcalloc(m->strings.n + 1, sizeof(*g.raw2out));
	if (o->step_re) {
		g.step_re = *o->step_re;
	} else {
		if (regcomp(&g.step_re, "^(ProfilerStep|ProfileStep)#[0-9]+$", REG_EXTENDED | REG_NOSUB)) {
			free(g.raw2out);
			pt_strtab_free(&g.names);
			return pt_err(e, "cannot compile the step pattern");
		}
		g.step_re_own = true;
	}
	g.earliest = INT64_MAX;
	for (size_t i = 0; i < m->events.n; i++)
		if (m->events.start[i] < g.earliest)
			g.earliest = m->events.start[i];
	if (g.earliest == INT64_MAX)
		g.earliest = 0;

	/* ranks: one per NPU device (ascending id), then rank 0 for GPU/host data */
	PT_VEC(struct rank) ranks = { 0 };
	bool gpu = false;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind != PT_DEV_NPU) {
			gpu |= dv->kind == PT_DEV_GPU || dv->kind == PT_DEV_CPU;
			continue;
		}
		if (o->device >= 0 && dv->id != (uint64_t)o->device)
			continue;
		struct rank r = { .g = &g, .ascend = true, .dev = d, .rank = dv->id, .word = "NPU" };
		pt_vec_push(&ranks, r);
	}
	for (size_t i = 1; i < ranks.n; i++)
		for (size_t j = i; j > 0 && ranks.v[j - 1].rank > ranks.v[j].rank; j--) {
			struct rank tmp = ranks.v[j];
			ranks.v[j] = ranks.v[j - 1];
			ranks.v[j - 1] = tmp;
		}
	if (gpu && !ranks.n) {
		struct rank r = { .g = &g, .ascend = false, .rank = 0, .word = "GPU" };
		pt_vec_push(&ranks, r);
	}
	bool multi = ranks.n > 1;
	struct pt_summary_opts eff = *o;
	if (eff.key == PT_SK_DEFAULT)
		eff.key = ranks.n && ranks.v[0].ascend ? PT_SK_GPU_TOTAL : PT_SK_CPU_TOTAL;
	g.o = &eff;
	for (size_t k = 0; k < ranks.n; k++)
		rank_prepare(&ranks.v[k], e);
	for (int v = 0; v < PT_SV_COUNT; v++) {
		if (!(o->views & (1u << v)))
			continue;
		struct pt_summary_view_out *vo = &out->v[out->n++];
		vo->view = (enum pt_summary_view)v;
		vo->data = data_table((enum pt_summary_view)v);
		vo->text = pt_xcalloc(ranks.n + 1, sizeof(*vo->text));
		vo->ntext = ranks.n;
		if (!view_fns[v])
			continue;
		for (size_t k = 0; k < ranks.n; k++)
			view_fns[v](&ranks.v[k], vo->data, &vo->text[k], multi);
	}
	for (size_t k = 0; k < ranks.n; k++)
		rank_free(&ranks.v[k]);
	pt_vec_free(&ranks);
	if (g.step_re_own)
		regfree(&g.step_re);
	free(g.raw2out);
	pt_strtab_free(&g.names);
	return 0;
}

void pt_summary_free(struct pt_summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		pt_table_free(s->v[i].data);
		for (size_t k = 0; k < s->v[i].ntext; k++)
			pt_stext_free(s->v[i].text[k]);
		free(s->v[i].text);
	}
	s->n = 0;
}
