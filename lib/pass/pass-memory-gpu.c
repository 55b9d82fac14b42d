/* `proftool memory`: the CUPTI GPU memory views (cupti.md §6.11; see pass-memory-int.h). */
#include "pass/pass-memory-int.h"


#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/gpu-memory-series.h"
#include "model/gpu-memory.h"
#include "model/index.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/names.h"
#include "support/progress.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

/* ================================================================ GPU (cupti.md §6.11) */

/* ---- launching host calls ---- */

struct swin {
	int64_t s, e, num; /* a host step range [s, e) and its number */
};

struct swins {
	struct swin *v;
	size_t n, cap;
};

struct calls {
	uint32_t cpu;             /* CPU device index of the process, PT_NONE */
	struct pt_hashmap byc;    /* corr -> API event + 1 */
	struct pt_index *x;
	struct swins steps;       /* the process's host step ranges, start order */
};

static int cmp_swin(const void *x, const void *y)
{
	const struct swin *a = x, *b = y;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->e < b->e ? -1 : a->e > b->e;
}

/*
 * Host step ranges of the process (whole name matching re), numbered by the
 * digits after their last '#' when every one has such a number and no two
 * share it, else 1, 2, ... in start order (as summary.md §2.1 numbers them).
 */
static void calls_steps(const struct pt_model *m, struct calls *c, const regex_t *re)
{
	if (c->cpu == PT_NONE)
		return;
	const struct pt_events *ev = &m->events;
	bool numbered = true;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("computing the memory use", i, ev->n);
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != c->cpu)
			continue;
		const char *nm = pt_model_strget(m, ev->name[i]);
		if (regexec(re, nm, 0, NULL, 0))
			continue;
		const char *h = strrchr(nm, '#');
		char *end = NULL;
		long long v = -1;
		if (h && h[1] >= '0' && h[1] <= '9')
			v = strtoll(h + 1, &end, 10);
		if (!end || *end || v < 0)
			numbered = false;
		struct swin w = { ev->start[i], ev->start[i] + ev->dur[i], v };
		pt_vec_push(&c->steps, w);
	}
	pt_sort(c->steps.v, c->steps.n, sizeof(*c->steps.v), cmp_swin);
	if (numbered && c->steps.n > 1) { /* a number twice: all are renumbered */
		int64_t *nums = pt_xmalloc(c->steps.n * sizeof(*nums));
		for (size_t i = 0; i < c->steps.n; i++)
			nums[i] = c->steps.v[i].num;
		numbered = pt_i64_distinct(nums, c->steps.n);
		free(nums);
	}
	for (size_t i = 0; i < c->steps.n && !numbered; i++)
		c->steps.v[i].num = (int64_t)i + 1;
}

static bool is_runtime(const char *s)
{
	return !strncmp(s, "cuda", 4);
}

static void calls_init(const struct pt_model *m, uint32_t dev, struct pt_index *x, struct calls *c)
{
	memset(c, 0, sizeof(*c));
	c->x = x;
	c->cpu = PT_NONE;
	pt_hashmap_init(&c->byc);
	uint32_t pid = m->devices.v[dev].pid;
	for (size_t d = 0; d < m->devices.n; d++)
		if (m->devices.v[d].kind == PT_DEV_CPU && m->devices.v[d].pid == pid && pid) {
			c->cpu = (uint32_t)d;
			break;
		}
	if (c->cpu == PT_NONE)
		return;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("computing the memory use", i, ev->n);
		if (ev->kind[i] != PT_EV_API || !ev->corr[i] || m->tracks.v[ev->track[i]].device != c->cpu)
			continue;
		bool added;
		uint64_t *v = pt_hashmap_put(&c->byc, ev->corr[i], i + 1, &added);
		if (!added && !is_runtime(pt_model_strget(m, ev->name[*v - 1])) &&
		    is_runtime(pt_model_strget(m, ev->name[i])))
			*v = i + 1;
	}
}

/* API event of a correlation id, or -1. */
static int64_t call_of(const struct calls *c, uint32_t corr)
{
	if (!corr)
		return -1;
	uint64_t *v = pt_hashmap_get(&c->byc, corr);
	return v ? (int64_t)*v - 1 : -1;
}

/* Innermost host range enclosing API event a, or -1. */
static int64_t range_of(const struct pt_model *m, const struct calls *c, size_t a)
{
	size_t n;
	const uint32_t *evs = pt_index_track_events(c->x, m->events.track[a], &n);
	int64_t s = m->events.start[a], e = s + m->events.dur[a];
	/* last event starting at or before s */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->events.start[evs[mid]] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k-- > 0;) {
		uint32_t i = evs[k];
		if (m->events.kind[i] != PT_EV_RANGE)
			continue;
		if (m->events.start[i] + m->events.dur[i] >= e)
			return i;
	}
	return -1;
}

/* Output name of an API call (cupti.md §6.10). */
static size_t api_len(const char *s)
{
	return pt_api_name_len(s, strlen(s));
}

static const char *range_label(const struct pt_model *m, uint32_t ev)
{
	for (size_t i = 0; i < m->ranges.n; i++)
		if (m->ranges.v[i].event == ev && m->ranges.v[i].label)
			return pt_model_strget(m, m->ranges.v[i].label);
	return pt_model_strget(m, m->events.name[ev]);
}

/* Number of the (first) step of the process whose range contains t, or -1. */
static int64_t step_at(const struct calls *c, int64_t t)
{
	for (size_t i = 0; i < c->steps.n; i++)
		if (c->steps.v[i].s <= t && t < c->steps.v[i].e)
			return c->steps.v[i].num;
	return -1;
}

static void set_call(const struct pt_model *m, const struct calls *c, struct pt_table *t, size_t r, size_t c0,
		     uint32_t corr, bool with_time)
{
	int64_t a = call_of(c, corr);
	if (a < 0) {
		set_s(t, r, c0, "<unknown>");
		return;
	}
	const char *nm = pt_model_strget(m, m->events.name[a]);
	pt_table_set_strdup(t, r, c0, nm, api_len(nm));
	size_t k = c0 + 1;
	if (with_time) {
		pt_table_set_int(t, r, k++, m->tracks.v[m->events.track[a]].stream);
		pt_table_set_int(t, r, k++, m->events.start[a]);
	}
	int64_t rg = range_of(m, c, (size_t)a);
	if (rg >= 0)
		set_s(t, r, k, range_label(m, (uint32_t)rg));
}

struct orow {
	uint32_t rec;
	uint64_t bytes, addr;
	int64_t time;
};

static int cmp_orow(const void *x, const void *y)
{
	const struct orow *a = x, *b = y;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

struct callagg {
	uint32_t api_name; /* string id of the API event name, UINT32_MAX = unknown */
	uint32_t range;    /* event + 1 */
	uint8_t group;
	int64_t allocs, bytes, max;
};

static int cmp_callagg(const void *x, const void *y)
{
	const struct callagg *a = x, *b = y;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->allocs != b->allocs)
		return a->allocs > b->allocs ? -1 : 1;
	if (a->api_name != b->api_name)
		return a->api_name < b->api_name ? -1 : 1;
	return a->range < b->range ? -1 : a->range > b->range;
}

/* A window of record times [s, e) of one device; `on` when a filter asked for one. */
struct gwin {
	bool on;
	int64_t s, e;
};

static bool in_win(const struct gwin *w, int64_t t)
{
	return !w->on || (t >= w->s && t < w->e);
}

static struct gwin window_of(const struct pt_sel_res *sr, const struct calls *c)
{
	struct gwin w = { sr->steps || sr->window, sr->a, sr->b };
	if (sr->steps) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t i = 0; i < c->steps.n; i++) {
			const struct swin *sw = &c->steps.v[i];
			if (!pt_sel_res_step(sr, sw->num))
				continue;
			if (sw->s < lo)
				lo = sw->s;
			if (sw->e > hi)
				hi = sw->e;
		}
		if (lo > hi)
			lo = hi = 0; /* no step kept: an empty window */
		if (lo > w.s)
			w.s = lo;
		if (hi < w.e)
			w.e = hi;
	}
	if (w.e < w.s)
		w.e = w.s;
	return w;
}

/* Number of replay items (time order) before time t. */
static size_t items_before(const struct pt_gmem_state *r, int64_t t)
{
	size_t lo = 0, hi = r->nitems;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->items[mid].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The replay's counters after its first n items, and the blocks of group g open then (open may be NULL). */
struct gcounts {
	int64_t allocs[PT_GMEM__N], releases[PT_GMEM__N], unmatched[PT_GMEM__N], mismatch[PT_GMEM__N],
		over_open[PT_GMEM__N];
};

static void replay_prefix(const struct pt_model *m, const struct pt_gmem_state *full, size_t n, int g,
			  struct gcounts *out, struct pt_gmem_u32vec *open)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	struct pt_gmem_state r;
	pt_gmem_state_init_like(full, &r);
	pt_gmem_state_run(m, &r, false, n - 1, g, open);
	memcpy(out->allocs, r.allocs, sizeof(r.allocs));
	memcpy(out->releases, r.releases, sizeof(r.releases));
	memcpy(out->unmatched, r.unmatched, sizeof(r.unmatched));
	memcpy(out->mismatch, r.mismatch, sizeof(r.mismatch));
	memcpy(out->over_open, r.over_open, sizeof(r.over_open));
	pt_gmem_state_free(&r);
}

/* Peak of one series of a group in a window: the value carried in at its start, then its samples. */
struct wpeak {
	bool has, at_start;
	int64_t v, t;
};

/*
 * The window's peaks of the series memory reads, taken as the samples come
 * (pt_gms_build_fn): reserved_bytes of the Memory group, size_bytes of each
 * pool. A series' peak: the value carried in at the window's start, then its
 * samples in the window.
 */
struct wpool {
	uint32_t pid;
	uint64_t pool;
	struct wpeak p;
};

struct wpeaks {
	const struct gwin *w;
	struct wpeak mem; /* Memory: reserved_bytes */
	PT_VEC(struct wpool) pools;
};

static void wpeak_take(struct wpeak *p, const struct gwin *w, int64_t t, int64_t v)
{
	if (t < w->s)
		*p = (struct wpeak){ true, true, v, w->s };
	else if (t < w->e && (!p->has || v > p->v))
		*p = (struct wpeak){ true, false, v, t };
}

static struct wpool *wpool_find(struct wpeaks *x, uint32_t pid, uint64_t pool)
{
	for (size_t i = 0; i < x->pools.n; i++)
		if (x->pools.v[i].pid == pid && x->pools.v[i].pool == pool)
			return &x->pools.v[i];
	return NULL;
}

static void wpeak_sample(void *ctx, const struct pt_gms_group *g, int64_t t, const int64_t *v)
{
	struct wpeaks *x = ctx;
	if (g->kind == PT_GMS_MEMORY) {
		wpeak_take(&x->mem, x->w, t, v[1]);
	} else if (g->kind == PT_GMS_POOL) {
		struct wpool *p = wpool_find(x, g->pid, g->pool);
		if (!p) {
			struct wpool np = { g->pid, g->pool, { 0 } };
			pt_vec_push(&x->pools, np);
			p = &x->pools.v[x->pools.n - 1];
		}
		wpeak_take(&p->p, x->w, t, v[0]);
	}
}

struct callaggs {
	struct callagg *v;
	size_t n, cap;
};

/* What the views make of the replay's rows as they come (pt_gmem_state.row_fn). */
struct rowview {
	const struct pt_model *m;
	enum pt_mem_by by;
	const struct pt_device *dv;
	const struct calls *c;
	const struct gwin *w;
	size_t nrows;                   /* --by time: the timeline's rows in the window (counted apart) */
	struct wpeak p[PT_GMEM__N];      /* --by pool in a window: each group's peak */
	uint32_t prec[PT_GMEM__N];       /* and the record reaching it, UINT32_MAX: none */
	struct callaggs ag;              /* --by op: the launching calls */
	struct pt_hashmap idx;           /* their hashes -> index + 1 */
};

static void op_row(struct rowview *v, const struct pt_gpu_mem *rec)
{
	const struct pt_model *m = v->m;
	int64_t a = call_of(v->c, rec->corr);
	uint32_t nm = a < 0 ? UINT32_MAX : m->events.name[a];
	int64_t rg = a < 0 ? -1 : range_of(m, v->c, (size_t)a);
	uint8_t grp = (uint8_t)pt_gmem_group_of(rec->mem_kind);
	uint64_t key = pt_hash64(((uint64_t)nm << 32 | (uint32_t)(rg + 1)) ^ ((uint64_t)grp << 61));
	bool added;
	uint64_t *x = pt_hashmap_put(&v->idx, key, 0, &added);
	struct callagg *ca = NULL;
	if (!added) {
		ca = &v->ag.v[*x - 1];
		if (ca->api_name != nm || ca->range != (uint32_t)(rg + 1) || ca->group != grp)
			ca = NULL; /* hash collision: linear fallback below */
	}
	if (!ca)
		for (size_t q = 0; q < v->ag.n && !ca; q++)
			if (v->ag.v[q].api_name == nm && v->ag.v[q].range == (uint32_t)(rg + 1) && v->ag.v[q].group == grp)
				ca = &v->ag.v[q];
	if (!ca) {
		struct callagg z = { nm, (uint32_t)(rg + 1), grp, 0, 0, 0 };
		pt_vec_push(&v->ag, z);
		ca = &v->ag.v[v->ag.n - 1];
		*x = v->ag.n;
	}
	ca->allocs++;
	if (__builtin_add_overflow(ca->bytes, pt_gmem_sat(rec->bytes), &ca->bytes))
		ca->bytes = INT64_MAX; /* sizes near 2^64 (hostile): saturated */
	if (pt_gmem_sat(rec->bytes) > ca->max)
		ca->max = pt_gmem_sat(rec->bytes);
}

static void view_row(void *ctx, const struct pt_gmem_row *gw, const struct pt_gpu_mem *rec)
{
	struct rowview *v = ctx;
	const struct gwin *w = v->w;
	if (v->by == PT_MEM_BY_OP) {
		if (gw->what == PT_GMEM_RS_ALLOC && in_win(w, rec->time))
			op_row(v, rec);
	} else if (w->on && (gw->what == PT_GMEM_RS_ALLOC || gw->what == PT_GMEM_RS_RELEASE)) {
		/* each group's peak in the window: the value carried in at its start, then its records */
		int g = (int)pt_gmem_group_of(rec->mem_kind);
		struct wpeak *p = &v->p[g];
		if (rec->time < w->s) {
			*p = (struct wpeak){ true, true, gw->allocated, w->s };
		} else if (rec->time < w->e && (!p->has || gw->allocated > p->v)) {
			*p = (struct wpeak){ true, false, gw->allocated, rec->time };
			v->prec[g] = gw->rec;
		}
	}
}

/*
 * --by time: the timeline's rows are made when the exporter reads them
 * (pt_table_set_rows), by a replay of each device run a record at a time,
 * begun again when a row before the last one is asked for. As many rows as
 * there are records, never held.
 */
struct trows {
	const struct pt_model *m;
	size_t ndev;
	uint32_t *dev;        /* the devices with rows, in order */
	struct calls *calls;  /* theirs */
	struct gwin *win;
	size_t di, made;      /* the device replayed; rows made so far */
	bool running, got;
	struct pt_gmem_state items; /* device kdev's sorted items, kept for the next pass */
	size_t kdev;
	struct pt_gmem_state r;
	struct pt_gmem_run x;
	struct pt_gmem_row row; /* the last row made, of record rec */
	struct pt_gpu_mem rec;
	char addr[24], pool[24];
};

static void trows_row(void *ctx, const struct pt_gmem_row *gw, const struct pt_gpu_mem *rec)
{
	struct trows *g = ctx;
	if (!in_win(&g->win[g->di], rec->time))
		return;
	g->got = true;
	g->row = *gw;
	g->rec = *rec;
}

static void trows_stop(struct trows *g)
{
	if (!g->running)
		return;
	pt_gmem_run_end(g->m, &g->r, &g->x, -1, NULL);
	pt_gmem_state_free(&g->r);
	g->running = false;
}

/* The next row of the window into g->row and g->rec; false after the last. */
static bool trows_next(struct trows *g)
{
	g->got = false;
	while (g->di < g->ndev) {
		if (!g->running) {
			if (!g->items.items || g->kdev != g->di) {
				pt_gmem_state_free(&g->items);
				pt_gmem_state_init(g->m, g->dev[g->di], &g->items);
				g->kdev = g->di;
			}
			pt_gmem_state_init_like(&g->items, &g->r);
			g->r.row_fn = trows_row;
			g->r.row_ctx = g;
			pt_gmem_run_begin(g->m, &g->r, &g->x, true);
			g->running = true;
		}
		while (!g->got && pt_gmem_run_some(g->m, &g->r, &g->x, 1))
			;
		if (g->got)
			return true;
		trows_stop(g);
		g->di++;
	}
	return false;
}

static void hex_cell(struct pt_cell *c, char *b, uint64_t v)
{
	int n = snprintf(b, 24, "0x%" PRIx64, v);
	*c = (struct pt_cell){ .kind = PT_CELL_STR, .len = (uint32_t)n, .u.s = b };
}

static void str_cell(struct pt_cell *c, const char *s, size_t n)
{
	*c = (struct pt_cell){ .kind = PT_CELL_STR, .len = (uint32_t)n, .u.s = s };
}

static void int_cell(struct pt_cell *c, int64_t v)
{
	*c = (struct pt_cell){ .kind = PT_CELL_INT, .u.i = v };
}

static void trows_cells(void *arg, size_t r, struct pt_cell *cells)
{
	struct trows *g = arg;
	if (r + 1 < g->made || (r + 1 == g->made && !g->got)) { /* an earlier row: replay again */
		trows_stop(g);
		g->di = 0;
		g->made = 0;
	}
	while (g->made <= r) {
		if (!trows_next(g))
			return; /* past the last row: cannot happen, the rows were counted */
		g->made++;
	}
	const struct pt_model *m = g->m;
	const struct pt_gmem_row *gw = &g->row;
	const struct pt_gpu_mem *rec = &g->rec;
	const char *what = gw->what == PT_GMEM_RS_ALLOC ? "allocation" : gw->what == PT_GMEM_RS_RELEASE ? "release"
												: "release (unmatched)";
	const char *kind = mem_kind_name(rec->mem_kind), *group = pt_gmem_group_names[pt_gmem_group_of(rec->mem_kind)];
	int_cell(&cells[0], m->devices.v[g->dev[g->di]].id);
	int_cell(&cells[1], rec->time);
	str_cell(&cells[2], what, strlen(what));
	hex_cell(&cells[3], g->addr, rec->address);
	int_cell(&cells[4], pt_gmem_sat(rec->bytes));
	str_cell(&cells[5], kind, strlen(kind));
	str_cell(&cells[6], group, strlen(group));
	int_cell(&cells[7], rec->stream);
	if (rec->pool_type)
		hex_cell(&cells[8], g->pool, rec->pool_address);
	int_cell(&cells[9], gw->allocated);
	if (gw->reserved >= 0)
		int_cell(&cells[10], gw->reserved);
	int_cell(&cells[11], rec->corr);
	int64_t a = call_of(&g->calls[g->di], rec->corr);
	if (a < 0) {
		str_cell(&cells[12], "<unknown>", 9);
	} else {
		const char *nm = pt_model_strget(m, m->events.name[a]);
		str_cell(&cells[12], nm, api_len(nm));
	}
}

static void trows_free(void *arg)
{
	struct trows *g = arg;
	trows_stop(g);
	pt_gmem_state_free(&g->items);
	for (size_t i = 0; i < g->ndev; i++) {
		pt_hashmap_free(&g->calls[i].byc);
		pt_vec_free(&g->calls[i].steps);
	}
	free(g->dev);
	free(g->calls);
	free(g->win);
	free(g);
}

void pt_mem_gpu_views(const struct pt_model *m, const struct pt_mem_opts *o, const regex_t *step_re,
		      struct pt_table ***tv, size_t *nt)
{
	enum pt_mem_by by = o->by;
	bool *has = pt_xcalloc(m->devices.n + 1, sizeof(*has));
	bool any = false;
	struct pt_gpu_mem_cursor cur; /* the records are packed in a streamed model (gpu-mem-pack.h) */
	pt_gpu_mem_cursor_init(&cur, m->gpu_mem_pack);
	struct pt_model_gpu_mem_heads hd;
	struct pt_gpu_mem_head h;
	pt_model_gpu_mem_heads_init(&hd, m);
	while (pt_model_gpu_mem_heads_next(&hd, &h))
		has[h.device] = true;
	for (size_t i = 0; i < m->gpu_pools.n; i++)
		has[m->gpu_pools.v[i].device] = true;
	for (size_t d = 0; d < m->devices.n; d++) {
		has[d] = has[d] && keep_dev(m, (uint32_t)d, o->sel.device);
		any |= has[d];
	}
	if (!any) {
		free(has);
		return;
	}
	struct pt_index *x = pt_index_new(m);
	struct pt_sel_res sr;
	pt_sel_resolve(&o->sel, o->has_origin ? o->origin : pt_index_origin(x), &sr);
	struct pt_table *t0t = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;
	if (by == PT_MEM_BY_POOL) {
		t0t = pt_table_new("gpu_memory_peaks", "GPU memory per device and group (CUPTI MEMORY2)");
		col(t0t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t0t, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t0t, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t0t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "releases", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "peak_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t0t, "peak_step", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "reserved_peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "reserved_peak_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t0t, "live_at_end", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "live_bytes_at_end", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "release_unmatched", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "release_size_mismatch", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "alloc_over_open", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "without_api", PT_COL_INT, PT_ROLE_VALUE);
		t1 = pt_table_new("gpu_memory_outstanding", "Allocations outstanding at each peak");
		col(t1, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t1, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t1, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t1, "address", PT_COL_STR, PT_ROLE_KEY);
		col(t1, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "memory_kind", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "stream", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "pool", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "alloc_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "age", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "correlation", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "call", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "thread", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "call_start", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "range", PT_COL_STR, PT_ROLE_LABEL);
		t2 = pt_table_new("gpu_memory_pools", "GPU memory pools");
		col(t2, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t2, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t2, "pool", PT_COL_STR, PT_ROLE_KEY);
		col(t2, "type", PT_COL_STR, PT_ROLE_LABEL);
		col(t2, "created", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "destroyed", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "release_threshold", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "initial_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "max_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "max_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "growths", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "trims", PT_COL_INT, PT_ROLE_VALUE);
		t3 = pt_table_new("gpu_memory_pool_events", "GPU memory pool creation, growth, trims, destruction");
		col(t3, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t3, "pool", PT_COL_STR, PT_ROLE_KEY);
		col(t3, "time", PT_COL_TIME, PT_ROLE_KEY);
		col(t3, "event", PT_COL_STR, PT_ROLE_LABEL);
		col(t3, "size_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t3, "utilized_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t3, "min_bytes_to_keep", PT_COL_INT, PT_ROLE_VALUE);
		/* text without --wide: the peaks and what holds them; the reserved
		 * (caching allocator) peak, the bookkeeping counts, the calls' threads
		 * and times are detail columns */
		static const char *const shown0[] = { "device_id", "process", "group", "allocations", "releases",
						      "peak_bytes", "peak_time", "peak_step", "live_bytes_at_end", NULL };
		static const char *const shown1[] = { "device_id", "process", "group", "address", "bytes",
						      "memory_kind", "age", "call", "range", NULL };
		static const char *const shown2[] = { "device_id", "process", "pool", "type", "created",
						      "release_threshold", "initial_bytes", "max_bytes", "growths",
						      "trims", NULL };
		pt_table_set_default_cols(t0t, shown0);
		pt_table_set_default_cols(t1, shown1);
		pt_table_set_default_cols(t2, shown2);
	} else if (by == PT_MEM_BY_TIME) {
		t0t = pt_table_new("gpu_memory_timeline", "GPU allocations and releases");
		col(t0t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t0t, "time", PT_COL_TIME, PT_ROLE_KEY);
		col(t0t, "operation", PT_COL_STR, PT_ROLE_LABEL);
		col(t0t, "address", PT_COL_STR, PT_ROLE_LABEL);
		col(t0t, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "memory_kind", PT_COL_STR, PT_ROLE_LABEL);
		col(t0t, "group", PT_COL_STR, PT_ROLE_LABEL);
		col(t0t, "stream", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "pool", PT_COL_STR, PT_ROLE_LABEL);
		col(t0t, "allocated_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "reserved_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "correlation", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "call", PT_COL_STR, PT_ROLE_LABEL);
		/* text without --wide: what happened when and the live total */
		static const char *const shown[] = { "device_id", "time", "operation", "address",
						     "bytes", "group", "allocated_bytes", "call", NULL };
		pt_table_set_default_cols(t0t, shown);
	} else {
		t0t = pt_table_new("gpu_memory_calls", "GPU allocations per launching host call");
		col(t0t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t0t, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t0t, "call", PT_COL_STR, PT_ROLE_KEY);
		col(t0t, "range", PT_COL_STR, PT_ROLE_KEY);
		col(t0t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0t, "max_bytes", PT_COL_INT, PT_ROLE_VALUE);
	}
	struct trows *tr = NULL;
	size_t trn = 0;
	if (by == PT_MEM_BY_TIME) {
		tr = pt_xcalloc(1, sizeof(*tr));
		tr->m = m;
		tr->dev = pt_xcalloc(m->devices.n, sizeof(*tr->dev));
		tr->calls = pt_xcalloc(m->devices.n, sizeof(*tr->calls));
		tr->win = pt_xcalloc(m->devices.n, sizeof(*tr->win));
	}
	for (size_t d = 0; d < m->devices.n; d++) {
		if (!has[d])
			continue;
		const struct pt_device *dv = &m->devices.v[d];
		struct calls c;
		calls_init(m, (uint32_t)d, x, &c);
		calls_steps(m, &c, step_re);
		struct gwin w = window_of(&sr, &c);
		/* the replay's rows go to the view as they come, none is kept */
		struct rowview rv;
		memset(&rv, 0, sizeof(rv));
		rv.m = m;
		rv.by = by;
		rv.dv = dv;
		rv.c = &c;
		rv.w = &w;
		for (int g = 0; g < PT_GMEM__N; g++)
			rv.prec[g] = UINT32_MAX;
		pt_hashmap_init(&rv.idx);
		struct pt_gmem_state r;
		memset(&r, 0, sizeof(r));
		if (by != PT_MEM_BY_TIME) {
			pt_gmem_state_init(m, (uint32_t)d, &r);
			r.row_fn = view_row;
			r.row_ctx = &rv;
			pt_gmem_state_run(m, &r, true, 0, -1, NULL);
		} else { /* a row for each allocation and release record: counted, made when read */
			pt_model_gpu_mem_heads_init(&hd, m);
			while (pt_model_gpu_mem_heads_next(&hd, &h))
				rv.nrows += h.device == d && (h.op == PT_GMEM_ALLOC || h.op == PT_GMEM_RELEASE) &&
					    in_win(&w, h.time);
		}
		if (by == PT_MEM_BY_POOL) {
			/* a window: the counters of its records, the series it crosses (model/gpu-memory-series.h) */
			struct gcounts ca, cb;
			struct pt_gms gs = { 0 };
			struct wpeaks wp;
			memset(&wp, 0, sizeof(wp));
			wp.w = &w;
			size_t ns = 0, ne = 0;
			if (w.on) {
				ns = items_before(&r, w.s);
				ne = items_before(&r, w.e);
				replay_prefix(m, &r, ns, 0, &ca, NULL);
				replay_prefix(m, &r, ne, 0, &cb, NULL);
				pt_gms_build_fn(m, (uint32_t)d, &r, wpeak_sample, &wp, &gs);
			}
			for (int g = 0; g < PT_GMEM__N; g++) {
				if (!r.any[g])
					continue;
				bool has_peak = r.has_peak[g];
				int64_t peak = r.peak[g], peak_time = r.peak_time[g];
				int64_t allocs = r.allocs[g], releases = r.releases[g], unmatched = r.unmatched[g],
					mismatch = r.mismatch[g], over_open = r.over_open[g];
				int64_t live = r.live_end[g], live_bytes = r.live_bytes_end[g];
				struct pt_gmem_u32vec open = { 0 };
				if (!w.on) {
					if (has_peak) {
						struct pt_gmem_state r2;
						pt_gmem_state_init_like(&r, &r2);
						pt_gmem_state_run(m, &r2, false, r.peak_pos[g], g, &open);
						pt_gmem_state_free(&r2);
					}
				} else {
					allocs = cb.allocs[g] - ca.allocs[g];
					releases = cb.releases[g] - ca.releases[g];
					unmatched = cb.unmatched[g] - ca.unmatched[g];
					mismatch = cb.mismatch[g] - ca.mismatch[g];
					over_open = cb.over_open[g] - ca.over_open[g];
					/* the blocks open at the window's end */
					struct pt_gmem_u32vec end = { 0 };
					struct gcounts tmp;
					replay_prefix(m, &r, ne, g, &tmp, &end);
					live = (int64_t)end.n;
					__int128 lb = 0; /* exact: hostile sizes reach 2^64 */
					for (size_t i = 0; i < end.n; i++)
						lb += pt_gmem_sat(pt_model_gpu_mem(m, &cur, end.v[i])->bytes);
					live_bytes = clamp64(lb);
					pt_vec_free(&end);
					/* the peak: the value carried in at the start, then the records of the window (view_row) */
					struct wpeak p = rv.p[g];
					uint32_t prec = rv.prec[g];
					has_peak = p.has;
					peak = p.v;
					peak_time = p.t;
					if (p.has && p.at_start) {
						replay_prefix(m, &r, ns, g, &tmp, &open);
					} else if (p.has) {
						size_t pos = 0;
						while (pos < r.nitems && (r.items[pos].pool || r.items[pos].idx != prec))
							pos++;
						replay_prefix(m, &r, pos + 1, g, &tmp, &open);
					}
				}
				if (w.on && !has_peak && !allocs && !releases && !unmatched && !live) {
					pt_vec_free(&open);
					continue; /* nothing of the group in or before the window */
				}
				int64_t without = 0;
				struct orow *os = pt_xmalloc((open.n + 1) * sizeof(*os));
				for (size_t i = 0; i < open.n; i++) {
					const struct pt_gpu_mem *rec = pt_model_gpu_mem(m, &cur, open.v[i]);
					os[i] = (struct orow){ open.v[i], rec->bytes, rec->address, rec->time };
				}
				pt_sort(os, open.n, sizeof(*os), cmp_orow);
				for (size_t i = 0; i < open.n; i++) {
					const struct pt_gpu_mem *rec = pt_model_gpu_mem(m, &cur, os[i].rec);
					size_t row = pt_table_add_row(t1);
					pt_table_set_int(t1, row, 0, dv->id);
					pt_table_set_int(t1, row, 1, rec->pid);
					set_s(t1, row, 2, pt_gmem_group_names[g]);
					set_hex(t1, row, 3, rec->address);
					pt_table_set_int(t1, row, 4, pt_gmem_sat(rec->bytes));
					set_s(t1, row, 5, mem_kind_name(rec->mem_kind));
					pt_table_set_int(t1, row, 6, rec->stream);
					if (rec->pool_type)
						set_hex(t1, row, 7, rec->pool_address);
					pt_table_set_int(t1, row, 8, rec->time);
					pt_table_set_int(t1, row, 9, peak_time - rec->time);
					pt_table_set_int(t1, row, 10, rec->corr);
					set_call(m, &c, t1, row, 11, rec->corr, true);
					without += call_of(&c, rec->corr) < 0;
				}
				free(os);
				pt_vec_free(&open);
				size_t row = pt_table_add_row(t0t);
				pt_table_set_int(t0t, row, 0, dv->id);
				pt_table_set_int(t0t, row, 1, dv->pid);
				set_s(t0t, row, 2, pt_gmem_group_names[g]);
				pt_table_set_int(t0t, row, 3, allocs);
				pt_table_set_int(t0t, row, 4, releases);
				if (has_peak) {
					pt_table_set_int(t0t, row, 5, peak);
					pt_table_set_int(t0t, row, 6, peak_time);
					int64_t st = step_at(&c, peak_time);
					if (st >= 0)
						pt_table_set_int(t0t, row, 7, st);
				}
				if (g == PT_GMEM_DEVICE && !w.on && r.has_rpeak) {
					pt_table_set_int(t0t, row, 8, r.rpeak);
					pt_table_set_int(t0t, row, 9, r.rpeak_time);
				} else if (g == PT_GMEM_DEVICE && w.on) {
					struct wpeak rp = wp.mem;
					if (rp.has) {
						pt_table_set_int(t0t, row, 8, rp.v);
						pt_table_set_int(t0t, row, 9, rp.t);
					}
				}
				pt_table_set_int(t0t, row, 10, live);
				pt_table_set_int(t0t, row, 11, live_bytes);
				pt_table_set_int(t0t, row, 12, unmatched);
				pt_table_set_int(t0t, row, 13, mismatch);
				pt_table_set_int(t0t, row, 14, over_open);
				pt_table_set_int(t0t, row, 15, without);
			}
			for (size_t p = 0; p < r.pools.n; p++) {
				const struct pt_gmem_pool *pl = &r.pools.v[p];
				if (w.on && ((pl->seen_created && pl->created >= w.e) || (pl->destroyed && pl->destroyed_at < w.s)))
					continue; /* the pool did not exist in the window */
				size_t row = pt_table_add_row(t2);
				pt_table_set_int(t2, row, 0, dv->id);
				pt_table_set_int(t2, row, 1, pl->pid);
				set_hex(t2, row, 2, pl->address);
				set_s(t2, row, 3, pl->type == 1 ? "LOCAL" : pl->type == 2 ? "IMPORTED" : "INVALID");
				if (pl->seen_created)
					pt_table_set_int(t2, row, 4, pl->created);
				if (pl->destroyed)
					pt_table_set_int(t2, row, 5, pl->destroyed_at);
				if (pl->seen_created)
					pt_table_set_int(t2, row, 6, pt_gmem_sat(pl->threshold));
				int64_t growths = pl->growths, trims = pl->trims;
				if (!w.on) {
					if (pl->has_size) {
						pt_table_set_int(t2, row, 7, pt_gmem_sat(pl->initial));
						pt_table_set_int(t2, row, 8, pt_gmem_sat(pl->max));
						pt_table_set_int(t2, row, 9, pl->max_time);
					}
				} else {
					if (pl->has_size)
						pt_table_set_int(t2, row, 7, pt_gmem_sat(pl->initial));
					const struct wpool *pg = wpool_find(&wp, pl->pid, pl->address);
					struct wpeak mp = pg ? pg->p : (struct wpeak){ 0 };
					if (mp.has) {
						pt_table_set_int(t2, row, 8, mp.v);
						pt_table_set_int(t2, row, 9, mp.t);
					}
					growths = trims = 0;
					for (size_t k = 0; k < r.pevs.n; k++) {
						const struct pt_gmem_pool_ev *pe = &r.pevs.v[k];
						if (pe->pool != p || !in_win(&w, pe->time))
							continue;
						growths += pe->what == PT_GMEM_EV_GROWTH;
						trims += pe->what == PT_GMEM_EV_TRIM;
					}
				}
				pt_table_set_int(t2, row, 10, growths);
				pt_table_set_int(t2, row, 11, trims);
			}
			for (size_t k = 0; k < r.pevs.n; k++) {
				const struct pt_gmem_pool_ev *pe = &r.pevs.v[k];
				if (!in_win(&w, pe->time))
					continue;
				size_t row = pt_table_add_row(t3);
				pt_table_set_int(t3, row, 0, dv->id);
				set_hex(t3, row, 1, r.pools.v[pe->pool].address);
				pt_table_set_int(t3, row, 2, pe->time);
				set_s(t3, row, 3, pt_gmem_pool_ev_names[pe->what]);
				if (pe->what != PT_GMEM_EV_DESTROYED) {
					pt_table_set_int(t3, row, 4, pt_gmem_sat(pe->size));
					pt_table_set_int(t3, row, 5, pt_gmem_sat(pe->utilized));
				}
				if (pe->what == PT_GMEM_EV_TRIM)
					pt_table_set_int(t3, row, 6, pt_gmem_sat(pe->min_keep));
			}
			pt_gms_free(&gs);
			pt_vec_free(&wp.pools);
		} else if (by == PT_MEM_BY_OP) {
			struct callaggs ag = rv.ag;
			pt_sort(ag.v, ag.n, sizeof(*ag.v), cmp_callagg);
			for (size_t q = 0; q < ag.n; q++) {
				const struct callagg *ca = &ag.v[q];
				size_t row = pt_table_add_row(t0t);
				pt_table_set_int(t0t, row, 0, dv->id);
				set_s(t0t, row, 1, pt_gmem_group_names[ca->group]);
				if (ca->api_name == UINT32_MAX) {
					set_s(t0t, row, 2, "<unknown>");
				} else {
					const char *nm = pt_model_strget(m, ca->api_name);
					pt_table_set_strdup(t0t, row, 2, nm, api_len(nm));
				}
				if (ca->range)
					set_s(t0t, row, 3, range_label(m, ca->range - 1));
				pt_table_set_int(t0t, row, 4, ca->allocs);
				pt_table_set_int(t0t, row, 5, ca->bytes);
				pt_table_set_int(t0t, row, 6, ca->max);
			}
			pt_vec_free(&ag);
		}
		pt_hashmap_free(&rv.idx);
		pt_gmem_state_free(&r);
		if (tr && rv.nrows) { /* the rows are made again when read */
			tr->dev[tr->ndev] = (uint32_t)d;
			tr->calls[tr->ndev] = c;
			tr->win[tr->ndev++] = w;
			trn += rv.nrows;
			continue;
		}
		pt_hashmap_free(&c.byc);
		pt_vec_free(&c.steps);
	}
	if (tr)
		pt_table_set_rows(t0t, trn, trows_cells, tr, trows_free);
	struct pt_table *all[4] = { t0t, t1, t2, t3 };
	for (int i = 0; i < 4; i++)
		if (all[i])
			PUSH(all[i]);
	pt_index_free(x);
	free(has);
}
