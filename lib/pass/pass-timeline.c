#include "pass/pass-timeline.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "support/err.h"
#include "support/hashmap.h"
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

uint32_t pt_tl_step_at(const struct pt_tl_device *d, int64_t t)
{
	size_t lo = 0, hi = d->win.n;
	while (lo < hi) { /* first window with s > t */
		size_t mid = (lo + hi) / 2;
		if (d->win.v[mid].s <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	const struct pt_tl_win *w = &d->win.v[lo - 1];
	return t < w->e ? w->step : 0;
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

static bool step_kept(const struct pt_tl_opts *o, uint32_t step)
{
	if (!o->has_steps)
		return true;
	return step && (int64_t)step >= o->step_lo && (int64_t)step <= o->step_hi;
}

int pt_pass_timeline(const struct pt_model *m, struct pt_index *x, const struct pt_tl_opts *o, struct pt_tl **out,
		     struct pt_err **e)
{
	regex_t re;
	char *pat = pt_xasprintf("^(%s)$", o->step_pattern ? o->step_pattern : "(ProfilerStep|ProfileStep)#[0-9]+");
	int rerr = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
	free(pat);
	if (rerr)
		return pt_err(e, "invalid step pattern '%s'", o->step_pattern ? o->step_pattern : "");
	const struct pt_events *ev = &m->events;
	struct pt_tl *t = pt_xcalloc(1, sizeof(*t));
	t->scope_depth = o->scope_depth;
	t->ndev = m->devices.n;
	t->dev = pt_xcalloc(t->ndev ? t->ndev : 1, sizeof(*t->dev));
	t->ev_step = pt_xcalloc(ev->n ? ev->n : 1, sizeof(*t->ev_step));
	t->ev_keep = pt_xmalloc(ev->n ? ev->n : 1);
	t->t0 = 0;
	for (size_t i = 0; i < ev->n; i++)
		if (!i || ev->start[i] < t->t0)
			t->t0 = ev->start[i];
	for (size_t d = 0; d < t->ndev; d++) {
		t->dev[d].dev = (uint32_t)d;
		t->dev[d].scope = pt_xcalloc(o->scope_depth ? o->scope_depth : 1, sizeof(*t->dev[d].scope));
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
	/* host step ranges: shared by every CPU and GPU device (one rank) */
	PT_VEC(struct pt_tl_win) host = { 0 };
	uint8_t *is_step = pt_xcalloc(ev->n ? ev->n : 1, 1);
	bool numbered = true;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE)
			continue;
		const char *nm = pt_model_strget(m, ev->name[i]);
		if (regexec(&re, nm, 0, NULL, 0))
			continue;
		int64_t nr = host_step_number(nm);
		is_step[i] = 1;
		struct pt_tl_win w = { ev->start[i], ev->start[i] + ev->dur[i], (uint32_t)nr, 0 };
		pt_vec_push(&host, w);
	}
	if (host.n) {
		pt_sort(host.v, host.n, sizeof(*host.v), win_cmp);
		for (size_t i = 0; i < host.n && numbered; i++)
			for (size_t j = i + 1; j < host.n && numbered; j++)
				numbered = host.v[i].step != host.v[j].step && host.v[i].step;
		for (size_t i = 0; i < host.n; i++)
			if (!numbered)
				host.v[i].step = (uint32_t)i + 1;
		for (size_t d = 0; d < t->ndev; d++) {
			enum pt_device_kind k = m->devices.v[d].kind;
			if ((k != PT_DEV_GPU && k != PT_DEV_CPU) || t->dev[d].win.n)
				continue;
			for (size_t i = 0; i < host.n; i++)
				pt_vec_push(&t->dev[d].win, host.v[i]);
		}
	}
	pt_vec_free(&host);
	regfree(&re);
	for (size_t d = 0; d < t->ndev; d++)
		sort_windows(&t->dev[d]);

	/* launch anchors: correlation -> start of the runtime call */
	struct pt_hashmap api;
	pt_hashmap_init(&api);
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_API && ev->corr[i])
			pt_hashmap_put(&api, ev->corr[i], (uint64_t)ev->start[i], NULL);
	int64_t ws = INT64_MIN, we = INT64_MAX;
	if (o->has_window) {
		if (o->win_start != INT64_MIN)
			ws = t->t0 + o->win_start;
		if (o->win_end != INT64_MAX)
			we = t->t0 + o->win_end;
	}
	t->has_window = o->has_window;
	t->win_s = ws;
	t->win_e = we;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t d = m->tracks.v[ev->track[i]].device;
		int64_t anchor = ev->start[i];
		if (ev->corr[i] && is_device_activity(ev->kind[i])) {
			uint64_t *a = pt_hashmap_get(&api, ev->corr[i]);
			if (a)
				anchor = (int64_t)*a;
		}
		uint32_t step = pt_tl_step_at(&t->dev[d], anchor);
		t->ev_step[i] = step;
		bool keep = step_kept(o, step);
		if (keep && o->has_window) {
			int64_t e = ev->start[i] + (ev->dur[i] > 0 ? ev->dur[i] : 0);
			keep = ev->dur[i] > 0 ? (ev->start[i] < we && e > ws) : (ev->start[i] >= ws && ev->start[i] < we);
		}
		t->ev_keep[i] = (uint8_t)(keep | is_step[i] << 1);
	}
	free(is_step);
	pt_hashmap_free(&api);

	/* per device: activity counts and spans per step (for Steps rows), scope ops */
	for (size_t d = 0; d < t->ndev; d++) {
		struct pt_tl_device *td = &t->dev[d];
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind == PT_DEV_CPU)
			continue;
		/* Steps row */
		size_t nw = td->win.n;
		int64_t *mn = pt_xmalloc((nw ? nw : 1) * sizeof(*mn)), *mx = pt_xmalloc((nw ? nw : 1) * sizeof(*mx));
		uint32_t *cnt = pt_xcalloc(nw ? nw : 1, sizeof(*cnt));
		struct pt_hashmap widx; /* step number -> window index + 1 */
		pt_hashmap_init(&widx);
		for (size_t w = 0; w < nw; w++)
			pt_hashmap_put(&widx, td->win.v[w].step, w + 1, NULL);
		PT_VEC(struct pt_tl_scope_op) sops = { 0 };
		int64_t span_s = INT64_MAX, span_e = INT64_MIN;
		for (size_t i = 0; i < ev->n; i++) {
			if (m->tracks.v[ev->track[i]].device != d || !is_device_activity(ev->kind[i]))
				continue;
			int64_t s = ev->start[i], e = s + ev->dur[i];
			if (t->ev_keep[i] & 1) {
				if (s < span_s)
					span_s = s;
				if (e > span_e)
					span_e = e;
			}
			if (!(t->ev_keep[i] & 1))
				continue;
			if (t->ev_step[i]) {
				uint64_t *wi = pt_hashmap_get(&widx, t->ev_step[i]);
				if (wi) {
					size_t w = *wi - 1;
					if (!cnt[w] || s < mn[w])
						mn[w] = s;
					if (!cnt[w] || e > mx[w])
						mx[w] = e;
					cnt[w]++;
				}
			}
			if (o->scope_depth && ev->name[i] && pt_index_is_device_task(x, i)) {
				struct pt_tl_scope_op so = { s, e, pt_model_strget(m, ev->name[i]), ev->name[i], t->ev_step[i] };
				pt_vec_push(&sops, so);
			}
		}
		pt_hashmap_free(&widx);
		int64_t prev_end = INT64_MIN;
		for (size_t w = 0; w < nw; w++) {
			const struct pt_tl_win *win = &td->win.v[w];
			if (!step_kept(o, win->step))
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
			if (o->has_window) {
				if (e <= ws || s >= we)
					continue;
			}
			if (s < prev_end)
				s = prev_end;
			if (e <= s)
				continue;
			prev_end = e;
			struct pt_breakdown b;
			pt_index_breakdown(x, (uint32_t)d, win->s, win->e, &b);
			struct pt_tl_slice sl = { .start = s, .end = e, .count = cnt[w], .step = win->step,
						  .aux = (uint32_t)w + 1, .busy = b.computation + b.comm_not_overlapped };
			pt_vec_push(&td->steps.s, sl);
		}
		free(mn);
		free(mx);
		free(cnt);
		/* Scope rows */
		if (o->scope_depth)
			pt_tl_scopes(sops.v, sops.n, o->scope_depth, td->scope, &t->scope_skipped);
		pt_vec_free(&sops);
		/* Communication row: step-trace reduce pairs */
		for (size_t i = 0; i < m->steps.n; i++) {
			const struct pt_step *st = &m->steps.v[i];
			if (st->device != d || !step_kept(o, st->step))
				continue;
			for (size_t j = 0; j < st->comm.n; j++) {
				const struct pt_comm *c = &st->comm.v[j];
				if (c->end < c->start)
					continue;
				if (o->has_window && (c->start >= we || c->end <= ws))
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
		const struct pt_ivset *C = pt_index_comp(x, (uint32_t)d), *M = pt_index_comm(x, (uint32_t)d);
		if (!C->n && !M->n)
			continue;
		struct pt_ival *wv = pt_xmalloc((nw ? nw : 1) * sizeof(*wv));
		size_t nwv = 0;
		for (size_t w = 0; w < nw; w++)
			if (step_kept(o, td->win.v[w].step))
				wv[nwv++] = (struct pt_ival){ td->win.v[w].s, td->win.v[w].e };
		if (!nw && span_s < span_e) {
			free(wv);
			wv = pt_xmalloc(sizeof(*wv));
			wv[0] = (struct pt_ival){ span_s, span_e };
			nwv = 1;
		}
		struct pt_ivset W0 = { 0 }, W = { 0 }, cu = { 0 }, tmp = { 0 };
		pt_ivset_build(&W0, wv, nwv);
		free(wv);
		if (o->has_window)
			pt_ivset_clip(&W, &W0, ws, we);
		else
			W = W0, W0 = (struct pt_ivset){ 0 };
		pt_ivset_inter(&td->overlap[PT_TL_OV_COMP], C, &W);
		pt_ivset_inter(&td->overlap[PT_TL_OV_COMM], M, &W);
		pt_ivset_diff(&tmp, M, C);
		pt_ivset_inter(&td->overlap[PT_TL_OV_PURE_COMM], &tmp, &W);
		pt_ivset_union(&cu, C, M);
		pt_ivset_diff(&td->overlap[PT_TL_OV_FREE], &W, &cu);
		td->has_overlap = true;
		pt_ivset_free(&W0);
		pt_ivset_free(&W);
		pt_ivset_free(&cu);
		pt_ivset_free(&tmp);
	}
	*out = t;
	return 0;
}

void pt_tl_free(struct pt_tl *t)
{
	if (!t)
		return;
	for (size_t d = 0; d < t->ndev; d++) {
		struct pt_tl_device *td = &t->dev[d];
		pt_vec_free(&td->win);
		pt_vec_free(&td->steps.s);
		pt_vec_free(&td->comm.s);
		for (uint32_t l = 0; l < t->scope_depth; l++)
			pt_vec_free(&td->scope[l].s);
		free(td->scope);
		for (int k = 0; k < PT_TL_OV_N; k++)
			pt_ivset_free(&td->overlap[k]);
	}
	free(t->dev);
	free(t->ev_step);
	free(t->ev_keep);
	free(t);
}
