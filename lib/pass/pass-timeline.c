#include "pass/pass-timeline.h"
#include "pass/pass-timeline-trace.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/idmap.h"
#include "support/progress.h"
#include "support/xalloc.h"
#include "support/sort.h"

static const char *const scope_roots[] = { "Default", "Gradients", "recompute_Default", NULL };

bool pt_tl_scope_root(const char *name)
{
	if (!strncmp(name, "Default/InitDataSetQueue", 24))
		return false;
	const char *slash = strchr(name, '/');
	if (!slash)
		return false;
	size_t l = (size_t)(slash - name);
	for (size_t i = 0; scope_roots[i]; i++)
		if (strlen(scope_roots[i]) == l && !memcmp(scope_roots[i], name, l))
			return true;
	return false;
}

bool pt_tl_scope_segment(const char *name, uint32_t level, size_t *off, size_t *len)
{
	size_t o = 0;
	for (uint32_t i = 0; i < level; i++) {
		const char *s = strchr(name + o, '/');
		if (!s)
			return false;
		o = (size_t)(s - name) + 1;
	}
	const char *s = strchr(name + o, '/');
	if (!s) /* the last segment is the op itself */
		return false;
	*off = o;
	*len = (size_t)(s - name) - o;
	return true;
}

/* (start asc, end desc, name) */
static int scope_op_cmp(const void *pa, const void *pb)
{
	const struct pt_tl_scope_op *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return strcmp(a->name, b->name);
}

void pt_tl_scopes(struct pt_tl_scope_op *ops, size_t n, uint32_t depth, struct pt_tl_row *rows, uint64_t *skipped)
{
	/* keep only scope-bearing ops, then sort */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (pt_tl_scope_root(ops[i].name))
			ops[k++] = ops[i];
	n = k;
	pt_sort(ops, n, sizeof(*ops), scope_op_cmp);
	for (uint32_t d = 0; d < depth; d++) {
		bool open = false;
		struct pt_tl_slice cur = { 0 };
		const char *key = NULL;
		size_t keylen = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pt_tl_scope_op *op = &ops[i];
			size_t off, len;
			if (!pt_tl_scope_segment(op->name, d, &off, &len)) {
				if (open)
					pt_vec_push(&rows[d].s, cur);
				open = false;
				continue;
			}
			size_t kl = off + len;
			bool same = open && kl == keylen && !memcmp(op->name, key, kl);
			if (same && op->step == cur.step) {
				if (op->end > cur.end)
					cur.end = op->end;
				cur.count++;
				continue;
			}
			if (open && !same && op->start < cur.end) {
				(*skipped)++;
				continue;
			}
			if (open)
				pt_vec_push(&rows[d].s, cur);
			open = true;
			cur = (struct pt_tl_slice){ .start = op->start, .end = op->end, .name = op->name_id,
						    .count = 1, .step = op->step, .busy = -1 };
			key = op->name;
			keylen = kl;
		}
		if (open)
			pt_vec_push(&rows[d].s, cur);
	}
}

/* Number of windows of d with s <= t (the upper bound of t). */
static size_t win_upper(const struct pt_tl_device *d, int64_t t, size_t lo, size_t hi)
{
	while (lo < hi) { /* first window with s > t */
		size_t mid = (lo + hi) / 2;
		if (d->win.v[mid].s <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t pt_tl_step_at(const struct pt_tl_device *d, int64_t t)
{
	size_t lo = win_upper(d, t, 0, d->win.n);
	if (!lo)
		return 0;
	const struct pt_tl_win *w = &d->win.v[lo - 1];
	return t < w->e ? w->step : 0;
}

/*
 * win_upper() from a cursor: the events of one track come in start order, so
 * the answer is usually the previous one or a few windows further.
 */
static size_t win_upper_from(const struct pt_tl_device *d, int64_t t, size_t *cur)
{
	size_t c = *cur, n = d->win.n;
	const struct pt_tl_win *w = d->win.v;
	if (c && w[c - 1].s > t) {
		c = win_upper(d, t, 0, c - 1);
	} else {
		for (int k = 0; c < n && w[c].s <= t; k++, c++)
			if (k == 4) {
				c = win_upper(d, t, c, n);
				break;
			}
	}
	*cur = c;
	return c;
}

static int u32_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return a < b ? -1 : a > b;
}

static int win_cmp(const void *pa, const void *pb)
{
	const struct pt_tl_win *a = pa, *b = pb;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->step < b->step ? -1 : a->step > b->step;
}

static void sort_windows(struct pt_tl_device *d)
{
	pt_sort(d->win.v, d->win.n, sizeof(*d->win.v), win_cmp);
	for (size_t i = 0; i + 1 < d->win.n; i++)
		if (d->win.v[i].e > d->win.v[i + 1].s)
			d->win.v[i].e = d->win.v[i + 1].s;
}

/* Step number of a host range name: the decimal after the last '#', or 0 when there is none. */
static int64_t host_step_number(const char *s)
{
	const char *p = strrchr(s, '#');
	if (!p || !p[1])
		return 0;
	int64_t v = 0;
	for (p++; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000)
			return 0;
		v = v * 10 + (*p - '0');
	}
	return v;
}

static bool is_device_activity(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_AICPU || k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET ||
	       k == PT_EV_SYNC;
}

static int slice_cmp(const void *pa, const void *pb)
{
	const struct pt_tl_slice *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return a->aux < b->aux ? -1 : a->aux > b->aux;
}

/* Is every interval of a inside one of w (so that a ∩ w = a)? Both canonical. */
static bool covers(const struct pt_ivset *w, const struct pt_ivset *a)
{
	size_t j = 0;
	for (size_t i = 0; i < a->n; i++) {
		while (j < w->n && w->v[j].e <= a->v[i].s)
			j++;
		if (j == w->n || w->v[j].s > a->v[i].s || w->v[j].e < a->v[i].e)
			return false;
	}
	return true;
}

/* The intervals of a ∪ b in order, joined as pt_ivset_union() joins them (touching ones too). */

static void ivc_init(struct pt_tl_ivc *c, const struct pt_ivset *s, const struct pt_ivpack *p)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->p = p;
	if (p) {
		pt_ivpack_begin(&c->pc);
		c->has = pt_ivpack_next(p, &c->pc, &c->v);
	} else if (s->n) {
		c->has = true;
		c->v = s->v[0];
	}
}

static inline void ivc_next(struct pt_tl_ivc *c)
{
	if (c->p) {
		c->has = pt_ivpack_next(c->p, &c->pc, &c->v);
	} else if (++c->i < c->s->n) {
		c->v = c->s->v[c->i];
	} else {
		c->has = false;
	}
}

/* Which set holds the next interval: 0 = a, 1 = b (a first on equal starts), -1 = none left. */
static int union_side(const struct pt_tl_ovit *u)
{
	if (!u->b.has)
		return u->a.has ? 0 : -1;
	return u->a.has && u->a.v.s <= u->b.v.s ? 0 : 1;
}

static bool union_next(struct pt_tl_ovit *u, struct pt_ival *out)
{
	int k = union_side(u);
	if (k < 0)
		return false;
	struct pt_tl_ivc *c = k ? &u->b : &u->a;
	*out = c->v;
	ivc_next(c);
	while ((k = union_side(u)) >= 0) {
		c = k ? &u->b : &u->a;
		if (c->v.s > out->e)
			break;
		if (c->v.e > out->e)
			out->e = c->v.e;
		ivc_next(c);
	}
	return true;
}

void pt_tl_ovit_init(struct pt_tl_ovit *it, const struct pt_tl_ovsrc *src)
{
	memset(it, 0, sizeof(*it));
	it->src = *src;
	ivc_init(&it->a, src->a, src->pa);
	ivc_init(&it->b, src->b, src->pb);
	ivc_init(&it->w, src->w, src->pw);
	it->have = union_next(it, &it->cur);
}

/*
 * The next interval of w − (a ∪ b): each interval of w cut by the joined
 * intervals of a ∪ b met in one sweep (at most one piece per interval of w
 * and one before each interval of a ∪ b).
 */
bool pt_tl_ovit_next(struct pt_tl_ovit *it, struct pt_ival *out)
{
	while (it->w.has) {
		int64_t e = it->w.v.e;
		if (!it->in) {
			it->s = it->w.v.s;
			it->in = true;
			while (it->have && it->cur.e <= it->s)
				it->have = union_next(it, &it->cur);
		}
		if (it->have && it->cur.s < e) {
			int64_t gs = it->s, ge = it->cur.s;
			if (it->cur.e > it->s)
				it->s = it->cur.e;
			if (it->s >= e) {
				it->in = false;
				ivc_next(&it->w);
			} else {
				it->have = union_next(it, &it->cur);
			}
			if (ge > gs) {
				*out = (struct pt_ival){ gs, ge };
				return true;
			}
			continue;
		}
		int64_t s = it->s;
		it->in = false;
		ivc_next(&it->w);
		if (s < e) {
			*out = (struct pt_ival){ s, e };
			return true;
		}
	}
	return false;
}

void pt_tl_overlap_set(const struct pt_tl_ovsrc *src, struct pt_ivset *out)
{
	struct pt_tl_ovit it;
	struct pt_ival v;
	out->n = 0;
	pt_tl_ovit_init(&it, src);
	while (pt_tl_ovit_next(&it, &v)) {
		pt_xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n++] = v;
	}
}

static const struct pt_ivset no_intervals = { 0 };

static bool step_kept(const struct pt_sel_res *sr, uint32_t step)
{
	if (!sr->steps)
		return true;
	return step && pt_sel_res_step(sr, step);
}

/*
 * The pass in three steps (pass-timeline-trace.h, struct tl_pass), so that a
 * streamed read (pass-timeline-stream.c) feeds it the events batch by batch:
 * tl_pass_begin (step windows, codes, the selection), tl_pass_event for each
 * event in model order, tl_pass_finish (the synthetic rows, from each device's
 * C and M).
 */
static int pass_begin(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		      bool per_event, const struct tl_hrange *given, size_t ngiven, struct pt_err **e);

int tl_pass_begin(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		  bool per_event, struct pt_err **e)
{
	return pass_begin(p, m, o, origin, per_event, NULL, 0, e);
}

int tl_pass_begin_host(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		       const struct tl_hrange *host, size_t nhost, struct pt_err **e)
{
	return pass_begin(p, m, o, origin, false, host, nhost, e);
}

static int pass_begin(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		      bool per_event, const struct tl_hrange *given, size_t ngiven, struct pt_err **e)
{
	regex_t re;
	char msg[128];
	memset(p, 0, sizeof(*p));
	if (pt_sel_step_re(&o->sel, &re, msg, sizeof(msg)))
		return pt_err(e, "invalid step pattern '%s': %s", o->sel.step_pattern ? o->sel.step_pattern : "", msg);
	p->m = m;
	p->o = o;
	const struct pt_events *ev = &m->events;
	size_t nev = per_event ? ev->n : 0;
	struct pt_tl *t = pt_xcalloc(1, sizeof(*t));
	p->t = t;
	t->scope_depth = o->scope_depth;
	t->ndev = m->devices.n;
	t->dev = pt_xcalloc(t->ndev ? t->ndev : 1, sizeof(*t->dev));
	if (per_event)
		t->ev_keep = pt_xmalloc(nev ? nev : 1);
	for (size_t d = 0; d < t->ndev; d++) {
		t->dev[d].dev = (uint32_t)d;
		t->dev[d].scope = pt_xcalloc(o->scope_depth ? o->scope_depth : 1, sizeof(*t->dev[d].scope));
	}
	/* GPU memory counter groups (chrome-trace.md §7) of the devices with MEMORY2 / MEMORY_POOL records */
	size_t ngm = pt_model_gpu_mem_n(m); /* (packed in a streamed model) */
	if (ngm || m->gpu_pools.n) {
		bool *has = pt_xcalloc(t->ndev + 1, sizeof(*has));
		struct pt_gpu_mem_cursor gc;
		pt_gpu_mem_cursor_init(&gc, m->gpu_mem_pack);
		for (size_t i = 0; i < ngm; i++) {
			const struct pt_gpu_mem *g = pt_model_gpu_mem(m, &gc, i);
			if (g->device < t->ndev)
				has[g->device] = true;
		}
		for (size_t i = 0; i < m->gpu_pools.n; i++)
			if (m->gpu_pools.v[i].device < t->ndev)
				has[m->gpu_pools.v[i].device] = true;
		for (size_t d = 0; d < t->ndev; d++)
			if (has[d])
				pt_gms_build(m, (uint32_t)d, true, &t->dev[d].gmem);
		free(has);
	}

	/* step windows: Ascend step trace per device */
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		if (s->device >= t->ndev || !(s->has & PT_STEP_HAS_END) || !(s->has & (PT_STEP_HAS_START | PT_STEP_HAS_FP)))
			continue;
		int64_t st = (s->has & PT_STEP_HAS_START) ? s->start : s->fp;
		if (s->end <= st)
			continue;
		struct pt_tl_win w = { st, s->end, s->step, (uint32_t)i + 1 };
		pt_vec_push(&t->dev[s->device].win, w);
	}
	/* host step ranges (events of a model read whole; a streamed one has none): shared by every CPU and GPU
	 * device (one rank) */
	PT_VEC(struct pt_tl_win) host = { 0 };
	size_t host_win = SIZE_MAX; /* the device that holds the host step windows */
	p->is_step = per_event ? pt_xcalloc(nev ? nev : 1, 1) : NULL;
	bool numbered = true;
	for (size_t i = 0; i < nev; i++) {
		pt_progress_tick("building the timeline", i, ev->n);
		if (ev->kind[i] != PT_EV_RANGE)
			continue;
		const char *nm = pt_model_strget(m, ev->name[i]);
		if (regexec(&re, nm, 0, NULL, 0))
			continue;
		int64_t nr = host_step_number(nm);
		p->is_step[i] = 1;
		struct pt_tl_win w = { ev->start[i], ev->start[i] + ev->dur[i], (uint32_t)nr, 0 };
		pt_vec_push(&host, w);
	}
	for (size_t i = 0; i < ngiven; i++) { /* a streamed model's, found by its first read */
		struct pt_tl_win w = { given[i].s, given[i].e, (uint32_t)host_step_number(pt_model_strget(m, given[i].name)),
				       0 };
		pt_vec_push(&host, w);
	}
	if (host.n) {
		pt_sort(host.v, host.n, sizeof(*host.v), win_cmp);
		/* numbered: no number repeats and none but the last in start order is 0 */
		int64_t *nums = pt_xmalloc(host.n * sizeof(*nums));
		for (size_t i = 0; i < host.n; i++) {
			nums[i] = host.v[i].step;
			numbered = numbered && (host.v[i].step || i + 1 == host.n);
		}
		numbered = numbered && pt_i64_distinct(nums, host.n);
		free(nums);
		for (size_t i = 0; i < host.n; i++)
			if (!numbered)
				host.v[i].step = (uint32_t)i + 1;
		for (size_t d = 0; d < t->ndev; d++) {
			enum pt_device_kind k = m->devices.v[d].kind;
			if ((k != PT_DEV_GPU && k != PT_DEV_CPU) || t->dev[d].win.n)
				continue;
			/* one copy, the first such device's: the others share it (win_shared) once it is sorted */
			if (host_win == SIZE_MAX) {
				host_win = d;
				for (size_t i = 0; i < host.n; i++)
					pt_vec_push(&t->dev[d].win, host.v[i]);
				if (host.n) { /* (held to the end: the vector's room given back) */
					t->dev[d].win.v = pt_xrealloc(t->dev[d].win.v, host.n * sizeof(*host.v));
					t->dev[d].win.cap = host.n;
				}
			} else {
				t->dev[d].win_shared = true;
			}
		}
	}
	pt_vec_free(&host);
	regfree(&re);
	for (size_t d = 0; d < t->ndev; d++)
		if (!t->dev[d].win_shared)
			sort_windows(&t->dev[d]);
	for (size_t d = 0; d < t->ndev; d++)
		if (t->dev[d].win_shared)
			t->dev[d].win = t->dev[host_win].win;
	/* the distinct step numbers: per window its code, per event the code of its window */
	p->wcode = pt_xcalloc(t->ndev ? t->ndev : 1, sizeof(*p->wcode));
	if (per_event) {
		PT_VEC(uint32_t) nums = { 0 };
		uint32_t zero = 0;
		pt_vec_push(&nums, zero);
		for (size_t d = 0; d < t->ndev; d++)
			for (size_t w = 0; w < t->dev[d].win.n; w++)
				pt_vec_push(&nums, t->dev[d].win.v[w].step);
		pt_sort(nums.v, nums.n, sizeof(*nums.v), u32_cmp);
		size_t nu = 0;
		for (size_t k = 0; k < nums.n; k++)
			if (!nu || nums.v[k] != nums.v[nu - 1])
				nums.v[nu++] = nums.v[k];
		if (nu <= 65536) {
			t->step_code = pt_xmalloc(nu * sizeof(*t->step_code));
			memcpy(t->step_code, nums.v, nu * sizeof(*t->step_code));
			t->ev_code = pt_xcalloc(nev ? nev : 1, sizeof(*t->ev_code));
			for (size_t d = 0; d < t->ndev; d++) {
				size_t nw = t->dev[d].win.n;
				p->wcode[d] = pt_xmalloc((nw ? nw : 1) * sizeof(**p->wcode));
				for (size_t w = 0; w < nw; w++) {
					size_t lo = 0, hi = nu; /* nums.v[lo] == the step: it is there */
					while (hi - lo > 1) {
						size_t mid = lo + (hi - lo) / 2;
						if (nums.v[mid] <= t->dev[d].win.v[w].step)
							lo = mid;
						else
							hi = mid;
					}
					p->wcode[d][w] = (uint32_t)lo;
				}
			}
		} else {
			t->ev_step = pt_xcalloc(nev ? nev : 1, sizeof(*t->ev_step));
		}
		pt_vec_free(&nums);
	}

	/* launch anchors: correlation -> start of the runtime call */
	uint64_t clo, chi;
	size_t nc = per_event ? pt_events_corr_range(ev, PT_EV_API, &clo, &chi) : 0; /* 0 without correlation ids */
	p->has_api = nc > 0;
	if (p->has_api) {
		pt_idmap_init(&p->api, clo, chi, nc);
		for (size_t i = 0; i < ev->n; i++) {
			pt_progress_tick("building the timeline", i, ev->n);
			if (ev->kind[i] == PT_EV_API && ev->corr[i])
				pt_idmap_put(&p->api, ev->corr[i], (uint64_t)ev->start[i], NULL); /* the first call wins */
		}
	}
	pt_sel_resolve(&o->sel, origin, &t->sr);
	t->has_window = t->sr.window;
	t->win_s = t->sr.a;
	t->win_e = t->sr.b;
	/*
	 * Step and membership of every event, and per device the activity
	 * counts and spans per step window (Steps rows) and the scope ops. A
	 * window is accounted under the first window of its step number
	 * (acc.canon).
	 */
	p->acc = pt_xcalloc(t->ndev ? t->ndev : 1, sizeof(*p->acc));
	for (size_t d = 0; d < t->ndev; d++) {
		struct tl_dev_acc *a = &p->acc[d];
		const struct pt_tl_device *td = &t->dev[d];
		size_t nw = td->win.n;
		a->on = m->devices.v[d].kind != PT_DEV_CPU;
		a->span_s = INT64_MAX;
		a->span_e = INT64_MIN;
		if (!a->on)
			continue;
		a->mn = pt_xmalloc((nw ? nw : 1) * sizeof(*a->mn));
		a->mx = pt_xmalloc((nw ? nw : 1) * sizeof(*a->mx));
		a->cnt = pt_xcalloc(nw ? nw : 1, sizeof(*a->cnt));
		a->canon = pt_xmalloc((nw ? nw : 1) * sizeof(*a->canon));
		struct pt_hashmap widx; /* step number -> first window index + 1 */
		pt_hashmap_init(&widx);
		for (size_t w = 0; w < nw; w++)
			pt_hashmap_put(&widx, td->win.v[w].step, w + 1, NULL);
		for (size_t w = 0; w < nw; w++)
			a->canon[w] = (uint32_t)(*pt_hashmap_get(&widx, td->win.v[w].step) - 1);
		pt_hashmap_free(&widx);
	}
	p->has_corr = per_event && (ev->dense & PT_EVCOL_CORR); /* else the column is all zero: do not touch its pages */
	p->tcur = pt_xcalloc(m->tracks.n ? m->tracks.n : 1, sizeof(*p->tcur)); /* window cursor per track */
	p->ntcur = m->tracks.n;
	return 0;
}

uint32_t tl_step_keep(const struct pt_tl *t, uint32_t d, int64_t anchor, int64_t start, int64_t dur, size_t *cur,
		      size_t *win, bool *keep)
{
	const struct pt_tl_device *td = &t->dev[d];
	size_t lo = win_upper_from(td, anchor, cur);
	uint32_t step = lo && anchor < td->win.v[lo - 1].e ? td->win.v[lo - 1].step : 0;
	bool k = step_kept(&t->sr, step);
	if (k && t->sr.window) {
		int64_t e = start + (dur > 0 ? dur : 0);
		k = dur > 0 ? (start < t->sr.b && e > t->sr.a) : (start >= t->sr.a && start < t->sr.b);
	}
	*keep = k;
	*win = lo;
	return step;
}

bool tl_pass_event(struct tl_pass *p, const struct pt_events *ev, size_t i, size_t gi)
{
	int64_t anchor = ev->start[i];
	if (p->has_corr && p->has_api && ev->corr[i] && is_device_activity(ev->kind[i])) {
		uint64_t *a = pt_idmap_get(&p->api, ev->corr[i]);
		if (a)
			anchor = (int64_t)*a;
	}
	return tl_pass_event_at(p, ev, i, gi, anchor);
}

bool tl_pass_event_at(struct tl_pass *p, const struct pt_events *ev, size_t i, size_t gi, int64_t anchor)
{
	const struct pt_model *m = p->m;
	struct pt_tl *t = p->t;
	uint32_t tr = ev->track[i];
	uint32_t d = m->tracks.v[tr].device;
	uint8_t kind = ev->kind[i];
	size_t lo;
	bool keep;
	uint32_t step = tl_step_keep(t, d, anchor, ev->start[i], ev->dur[i], &p->tcur[tr], &lo, &keep);
	if (t->ev_code)
		t->ev_code[gi] = step ? (uint16_t)p->wcode[d][lo - 1] : 0;
	else if (t->ev_step)
		t->ev_step[gi] = step;
	if (t->ev_keep)
		t->ev_keep[gi] = (uint8_t)(keep | p->is_step[gi] << 1);
	struct tl_dev_acc *a = &p->acc[d];
	if (!keep || !a->on || !is_device_activity(kind))
		return keep;
	int64_t s = ev->start[i], e = s + ev->dur[i];
	if (s < a->span_s)
		a->span_s = s;
	if (e > a->span_e)
		a->span_e = e;
	if (step) {
		size_t w = a->canon[lo - 1];
		if (!a->cnt[w] || s < a->mn[w])
			a->mn[w] = s;
		if (!a->cnt[w] || e > a->mx[w])
			a->mx[w] = e;
		a->cnt[w]++;
	}
	if (p->o->scope_depth && ev->name[i] && (kind == PT_EV_TASK || kind == PT_EV_AICPU || kind == PT_EV_KERNEL)) {
		struct pt_tl_scope_op so = { s, e, pt_model_strget(m, ev->name[i]), ev->name[i], step };
		pt_vec_push(&a->sops, so);
	}
	return keep;
}

/*
 * The busy time of a step: pt_index_breakdown's computation +
 * comm_not_overlapped, which is |(C ∪ M) ∩ [a, b)|. For packed sets, the
 * windows come in start order, disjoint (sort_windows): cursors that only move
 * forward.
 */
struct busy_meas {
	struct pt_tl_ivc c, m;
};

static int64_t busy_in(const struct tl_sets *S, struct busy_meas *q, int64_t a, int64_t b)
{
	if (b <= a)
		return 0;
	if (!S->pC)
		return pt_ivset_union_measure_in(S->C, S->M, a, b);
	while (q->c.has && q->c.v.e <= a)
		ivc_next(&q->c);
	while (q->m.has && q->m.v.e <= a)
		ivc_next(&q->m);
	struct pt_tl_ivc c = q->c, m = q->m;
	int64_t total = 0, reach = a;
	for (;;) {
		bool hc = c.has && c.v.s < b, hm = m.has && m.v.s < b;
		if (!hc && !hm)
			break;
		struct pt_tl_ivc *k = hc && (!hm || c.v.s <= m.v.s) ? &c : &m;
		int64_t s0 = k->v.s > reach ? k->v.s : reach, e0 = k->v.e < b ? k->v.e : b;
		if (e0 > s0)
			total += e0 - s0;
		if (e0 > reach)
			reach = e0;
		ivc_next(k);
	}
	return total;
}

/* Is every interval of packed a inside one of w? */
static bool covers_packed(const struct pt_ivset *w, const struct pt_ivpack *a)
{
	struct pt_tl_ivc c;
	ivc_init(&c, NULL, a);
	size_t j = 0;
	for (; c.has; ivc_next(&c)) {
		while (j < w->n && w->v[j].e <= c.v.s)
			j++;
		if (j == w->n || w->v[j].s > c.v.s || w->v[j].e < c.v.e)
			return false;
	}
	return true;
}

/* out = a ∩ w, packed. */
static void inter_packed(struct pt_ivpack *out, const struct pt_ivpack *a, const struct pt_ivset *w)
{
	struct pt_tl_ivc c;
	ivc_init(&c, NULL, a);
	size_t j = 0;
	while (c.has && j < w->n) {
		int64_t s0 = c.v.s > w->v[j].s ? c.v.s : w->v[j].s, e0 = c.v.e < w->v[j].e ? c.v.e : w->v[j].e;
		if (s0 < e0)
			pt_ivpack_append(out, s0, e0);
		if (c.v.e < w->v[j].e)
			ivc_next(&c);
		else
			j++;
	}
	pt_ivpack_close(out);
}

struct pt_tl *tl_pass_finish(struct tl_pass *p, const struct tl_sets *sets)
{
	const struct pt_model *m = p->m;
	const struct pt_tl_opts *o = p->o;
	struct pt_tl *t = p->t;
	const struct pt_sel_res sr = t->sr;
	int64_t ws = sr.a, we = sr.b;
	/* per device: Steps, scope, Communication and overlap rows */
	for (size_t d = 0; d < t->ndev; d++) {
		struct pt_tl_device *td = &t->dev[d];
		struct tl_dev_acc *a = &p->acc[d];
		if (!a->on)
			continue;
		size_t nw = td->win.n;
		int64_t *mn = a->mn, *mx = a->mx;
		uint32_t *cnt = a->cnt;
		int64_t span_s = a->span_s, span_e = a->span_e;
		int64_t prev_end = INT64_MIN;
		const struct tl_sets *S = &sets[d];
		struct busy_meas bq;
		if (S->pC) {
			ivc_init(&bq.c, NULL, S->pC);
			ivc_init(&bq.m, NULL, S->pM);
		}
		for (size_t w = 0; w < nw; w++) {
			const struct pt_tl_win *win = &td->win.v[w];
			if (!step_kept(&sr, win->step))
				continue;
			int64_t s, e;
			if (win->model_step) {
				s = win->s;
				e = win->e;
			} else {
				if (!cnt[w])
					continue;
				s = mn[w];
				e = mx[w];
			}
			if (sr.window) {
				if (e <= ws || s >= we)
					continue;
			}
			if (s < prev_end)
				s = prev_end;
			if (e <= s)
				continue;
			prev_end = e;
			struct pt_tl_slice sl = { .start = s, .end = e, .count = cnt[w], .step = win->step,
						  .aux = (uint32_t)w + 1, .busy = busy_in(S, &bq, win->s, win->e) };
			pt_vec_push(&td->steps.s, sl);
		}
		/* Scope rows */
		if (o->scope_depth)
			pt_tl_scopes(a->sops.v, a->sops.n, o->scope_depth, td->scope, &t->scope_skipped);
		/* Communication row: step-trace reduce pairs */
		for (size_t i = 0; i < m->steps.n; i++) {
			const struct pt_step *st = &m->steps.v[i];
			if (st->device != d || !step_kept(&sr, st->step))
				continue;
			for (size_t j = 0; j < st->comm.n; j++) {
				const struct pt_comm *c = &st->comm.v[j];
				if (c->end < c->start)
					continue;
				if (sr.window && (c->start >= we || c->end <= ws))
					continue;
				struct pt_tl_slice sl = { .start = c->start, .end = c->end, .name = c->name,
							  .count = c->stream, .step = st->step, .aux = c->tag, .busy = -1 };
				pt_vec_push(&td->comm.s, sl);
			}
		}
		pt_sort(td->comm.s.v, td->comm.s.n, sizeof(*td->comm.s.v), slice_cmp);
		/* Overlap rows over W */
		if (!o->overlap)
			continue;
		const struct pt_ivset *Cd = S->C, *Md = S->M;
		if (S->pC ? !S->pC->count && !S->pM->count : !Cd->n && !Md->n)
			continue;
		struct pt_ival *wv = pt_xmalloc((nw ? nw : 1) * sizeof(*wv));
		size_t nwv = 0;
		for (size_t w = 0; w < nw; w++)
			if (step_kept(&sr, td->win.v[w].step))
				wv[nwv++] = (struct pt_ival){ td->win.v[w].s, td->win.v[w].e };
		if (!nw && span_s < span_e) {
			free(wv);
			wv = pt_xmalloc(sizeof(*wv));
			wv[0] = (struct pt_ival){ span_s, span_e };
			nwv = 1;
		}
		struct pt_ivset W0 = { 0 }, *W = &td->ovw;
		pt_ivset_build(&W0, wv, nwv);
		free(wv);
		if (sr.window)
			pt_ivset_clip(W, &W0, ws, we);
		else
			*W = W0, W0 = (struct pt_ivset){ 0 };
		/*
		 * Computation C ∩ W and communication M ∩ W (C and M themselves
		 * when W covers them), pure communication (M ∩ W) − C =
		 * (M − C) ∩ W, free time W − (C ∪ M), the last two made as the
		 * rows are read. Every set is canonical (disjoint, not
		 * touching), so equal sets are equal lists.
		 */
		if (S->pC) {
			const struct pt_ivpack *CW = S->pC, *MW = S->pM;
			if (!covers_packed(W, S->pC)) {
				inter_packed(&td->povl[0], S->pC, W);
				CW = &td->povl[0];
			}
			if (!covers_packed(W, S->pM)) {
				inter_packed(&td->povl[1], S->pM, W);
				MW = &td->povl[1];
			}
			const struct pt_ivset *no = &no_intervals;
			td->ov[PT_TL_OV_COMP] = (struct pt_tl_ovsrc){ no, no, no, CW, NULL, NULL };
			td->ov[PT_TL_OV_COMM] = (struct pt_tl_ovsrc){ no, no, no, MW, NULL, NULL };
			td->ov[PT_TL_OV_PURE_COMM] = (struct pt_tl_ovsrc){ no, no, no, MW, S->pC, NULL };
			td->ov[PT_TL_OV_FREE] = (struct pt_tl_ovsrc){ W, no, no, NULL, S->pC, S->pM };
			td->has_overlap = true;
			pt_ivset_free(&W0);
			continue;
		}
		const struct pt_ivset *CW = Cd, *MW = Md;
		if (!covers(W, Cd)) {
			pt_ivset_inter(&td->overlap[PT_TL_OV_COMP], Cd, W);
			CW = &td->overlap[PT_TL_OV_COMP];
		}
		if (!covers(W, Md)) {
			pt_ivset_inter(&td->overlap[PT_TL_OV_COMM], Md, W);
			MW = &td->overlap[PT_TL_OV_COMM];
		}
		td->ov[PT_TL_OV_COMP] = (struct pt_tl_ovsrc){ .w = CW, .a = &no_intervals, .b = &no_intervals };
		td->ov[PT_TL_OV_COMM] = (struct pt_tl_ovsrc){ .w = MW, .a = &no_intervals, .b = &no_intervals };
		td->ov[PT_TL_OV_PURE_COMM] = (struct pt_tl_ovsrc){ .w = MW, .a = Cd, .b = &no_intervals };
		td->ov[PT_TL_OV_FREE] = (struct pt_tl_ovsrc){ .w = W, .a = Cd, .b = Md };
		td->has_overlap = true;
		pt_ivset_free(&W0);
	}
	p->t = NULL;
	tl_pass_free(p);
	return t;
}

void tl_pass_free(struct tl_pass *p)
{
	if (p->acc)
		for (size_t d = 0; d < (p->t ? p->t->ndev : p->m->devices.n); d++) {
			free(p->acc[d].mn);
			free(p->acc[d].mx);
			free(p->acc[d].cnt);
			free(p->acc[d].canon);
			pt_vec_free(&p->acc[d].sops);
		}
	free(p->acc);
	p->acc = NULL;
	if (p->wcode)
		for (size_t d = 0; d < p->m->devices.n; d++)
			free(p->wcode[d]);
	free(p->wcode);
	p->wcode = NULL;
	free(p->tcur);
	p->tcur = NULL;
	free(p->is_step);
	p->is_step = NULL;
	if (p->has_api)
		pt_idmap_free(&p->api);
	p->has_api = false;
	pt_tl_free(p->t);
	p->t = NULL;
}

int pt_pass_timeline(const struct pt_model *m, struct pt_index *x, const struct pt_tl_opts *o, struct pt_tl **out,
		     struct pt_err **e)
{
	struct tl_pass p;
	if (tl_pass_begin(&p, m, o, pt_index_origin(x), true, e))
		return -1;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("building the timeline", i, ev->n);
		tl_pass_event(&p, ev, i, i);
	}
	free(p.tcur);
	p.tcur = NULL;
	free(p.is_step);
	p.is_step = NULL;
	if (p.has_api)
		pt_idmap_free(&p.api);
	p.has_api = false;
	/*
	 * The index's sets of every device the rows below read, built first, so
	 * that its per-track event lists (4 bytes an event, needed only to build
	 * them) are given back before the overlap rows are made.
	 */
	size_t nd = p.t->ndev;
	const struct pt_ivset **C = pt_xcalloc(nd ? nd : 1, sizeof(*C)), **M = pt_xcalloc(nd ? nd : 1, sizeof(*M));
	for (size_t d = 0; d < nd; d++)
		if (p.acc[d].on)
			(void)pt_index_comp(x, (uint32_t)d);
	pt_index_drop_event_lists(x);
	for (size_t d = 0; d < nd; d++)
		if (p.acc[d].on) {
			C[d] = pt_index_comp(x, (uint32_t)d);
			M[d] = pt_index_comm(x, (uint32_t)d);
		}
	struct tl_sets *S = pt_xcalloc(nd ? nd : 1, sizeof(*S));
	for (size_t d = 0; d < nd; d++) {
		S[d].C = C[d];
		S[d].M = M[d];
	}
	*out = tl_pass_finish(&p, S);
	free(S);
	free(C);
	free(M);
	return 0;
}

void pt_tl_free(struct pt_tl *t)
{
	if (!t)
		return;
	for (size_t d = 0; d < t->ndev; d++) {
		struct pt_tl_device *td = &t->dev[d];
		if (!td->win_shared)
			pt_vec_free(&td->win);
		pt_vec_free(&td->steps.s);
		pt_vec_free(&td->comm.s);
		for (uint32_t l = 0; l < t->scope_depth; l++)
			pt_vec_free(&td->scope[l].s);
		free(td->scope);
		for (int k = 0; k < PT_TL_OV_N; k++)
			pt_ivset_free(&td->overlap[k]);
		pt_ivpack_free(&td->povl[0]);
		pt_ivpack_free(&td->povl[1]);
		pt_ivset_free(&td->ovw);
		pt_gms_free(&td->gmem);
	}
	free(t->dev);
	free(t->ev_step);
	free(t->ev_code);
	free(t->step_code);
	free(t->ev_keep);
	pt_tl_stream_free(t->stream);
	pt_tl_gstream_free(t->gstream);
	free(t);
}
