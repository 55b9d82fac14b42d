#include "model/hostcpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

static const char *const sys_names[PT_HC__N] = {
	"md_cpu:device.user",    "md_cpu:device.sys",        "md_cpu:device.io",       "md_cpu:device.idle",
	"md_cpu:device.runable", "md_cpu:device.ctx_switch", "md_cpu:process.user", "md_cpu:process.sys",
};

/* Metric of a track name, or -1; for "md_cpu:op.<id>.user|sys" *op_id and *which (0 user, 1 sys), -2. */
static int classify(const char *name, int64_t *op_id, int *which)
{
	for (int k = 0; k < PT_HC__N; k++)
		if (!strcmp(name, sys_names[k]))
			return k;
	if (strncmp(name, "md_cpu:op.", 10))
		return -1;
	char *end;
	long long id = strtoll(name + 10, &end, 10);
	if (end == name + 10 || *end != '.' || id < 0)
		return -1;
	if (!strcmp(end, ".user"))
		*which = 0;
	else if (!strcmp(end, ".sys"))
		*which = 1;
	else
		return -1;
	*op_id = id;
	return -2;
}

/* Series j of the ops: 2 * op index + 0 (user) or 1 (sys). */
static struct pt_hostcpu_series *op_series(struct pt_hostcpu *h, size_t j)
{
	return j % 2 ? &h->ops[j / 2].sys : &h->ops[j / 2].user;
}

static void series_alloc(struct pt_hostcpu_series *s)
{
	s->time = pt_xmalloc((s->n ? s->n : 1) * sizeof(*s->time));
	s->value = pt_xmalloc((s->n ? s->n : 1) * sizeof(*s->value));
	s->n = 0;
}

bool pt_hostcpu_load(const struct pt_model *m, uint32_t dev, struct pt_hostcpu *h)
{
	memset(h, 0, sizeof(*h));
	h->device = dev;
	size_t nt = m->tracks.n;
	/* track -> series: metric k as k + 1, op series as -(2 * op index + which) - 1, 0 none */
	int64_t *slot = pt_xcalloc(nt ? nt : 1, sizeof(*slot));
	PT_VEC(struct pt_hostcpu_op) ops = { 0 };
	for (size_t t = 0; t < nt; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		if (tr->device != dev || tr->kind != PT_TRACK_COUNTER)
			continue;
		int64_t id = 0;
		int which = 0;
		int k = classify(pt_model_strget(m, tr->name), &id, &which);
		if (k == -1)
			continue;
		h->any = true;
		if (k >= 0) {
			h->host = true;
			slot[t] = k + 1;
			continue;
		}
		size_t oi = 0;
		while (oi < ops.n && ops.v[oi].op_id != id)
			oi++;
		if (oi == ops.n) {
			struct pt_hostcpu_op o;
			memset(&o, 0, sizeof(o));
			o.op_id = id;
			pt_vec_push(&ops, o);
		}
		slot[t] = -(int64_t)(2 * oi + (size_t)which) - 1;
	}
	h->ops = ops.v;
	h->nops = ops.n;
	if (!h->any) {
		free(slot);
		return false;
	}
	/* two passes over the samples: count, then fill */
	const struct pt_counter_samples *cs = &m->counters;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < cs->n; i++) {
			uint32_t t = cs->track[i];
			if (t >= nt || !slot[t])
				continue;
			struct pt_hostcpu_series *s =
				slot[t] > 0 ? &h->s[slot[t] - 1] : op_series(h, (size_t)(-slot[t] - 1));
			if (pass) {
				s->time[s->n] = cs->time[i];
				s->value[s->n] = cs->value[i];
			}
			s->n++;
		}
		if (pass)
			break;
		for (int k = 0; k < PT_HC__N; k++)
			series_alloc(&h->s[k]);
		for (size_t j = 0; j < 2 * h->nops; j++)
			series_alloc(op_series(h, j));
	}
	free(slot);
	return true;
}

static void series_free(struct pt_hostcpu_series *s)
{
	free(s->time);
	free(s->value);
	memset(s, 0, sizeof(*s));
}

void pt_hostcpu_free(struct pt_hostcpu *h)
{
	for (int k = 0; k < PT_HC__N; k++)
		series_free(&h->s[k]);
	for (size_t i = 0; i < h->nops; i++) {
		series_free(&h->ops[i].user);
		series_free(&h->ops[i].sys);
	}
	free(h->ops);
	memset(h, 0, sizeof(*h));
}

void pt_hostcpu_acc_add(struct pt_hostcpu_acc *a, int metric, double v)
{
	a->n[metric]++;
	a->sum[metric] += v;
}

void pt_hostcpu_acc_merge(struct pt_hostcpu_acc *a, const struct pt_hostcpu_acc *b)
{
	for (int k = 0; k < PT_HC__N; k++) {
		a->n[k] += b->n[k];
		a->sum[k] += b->sum[k];
	}
}

void pt_hostcpu_total(const struct pt_hostcpu *h, struct pt_hostcpu_acc *a)
{
	memset(a, 0, sizeof(*a));
	for (int k = 0; k < PT_HC__N; k++)
		for (size_t i = 0; i < h->s[k].n; i++)
			pt_hostcpu_acc_add(a, k, h->s[k].value[i]);
}

int64_t pt_hostcpu_samples(const struct pt_hostcpu_acc *a)
{
	int64_t n = 0;
	for (int k = 0; k < PT_HC__N; k++)
		if (a->n[k] > n)
			n = a->n[k];
	return n;
}

bool pt_hostcpu_mean(const struct pt_hostcpu_acc *a, int metric, double *out)
{
	if (!a->n[metric])
		return false;
	*out = a->sum[metric] / (double)a->n[metric];
	return true;
}

bool pt_hostcpu_ctx_switches(const struct pt_hostcpu_acc *a, int64_t *out)
{
	if (!a->n[PT_HC_CTX])
		return false;
	double s = a->sum[PT_HC_CTX];
	*out = s >= 9.2e18 ? INT64_MAX : s <= -9.2e18 ? INT64_MIN : (int64_t)llround(s);
	return true;
}

bool pt_hostcpu_process_pct(const struct pt_hostcpu_acc *a, double *out)
{
	double u = 0, s = 0;
	bool hu = pt_hostcpu_mean(a, PT_HC_PROC_USER, &u), hs = pt_hostcpu_mean(a, PT_HC_PROC_SYS, &s);
	if (!hu && !hs)
		return false;
	*out = u + s;
	return true;
}

bool pt_hostcpu_system_pct(const struct pt_hostcpu_acc *a, double *out)
{
	double idle, io = 0;
	if (!pt_hostcpu_mean(a, PT_HC_IDLE, &idle))
		return false;
	pt_hostcpu_mean(a, PT_HC_IO, &io);
	*out = 100.0 - idle - io;
	return true;
}

bool pt_hostcpu_busy_pct(const struct pt_hostcpu_acc *a, double *out)
{
	double idle;
	if (!pt_hostcpu_mean(a, PT_HC_IDLE, &idle))
		return false;
	*out = 100.0 - idle;
	return true;
}

const struct pt_hostcpu_op *pt_hostcpu_find_op(const struct pt_hostcpu *h, int64_t op_id)
{
	for (size_t i = 0; i < h->nops; i++)
		if (h->ops[i].op_id == op_id)
			return &h->ops[i];
	return NULL;
}

size_t pt_hostcpu_op_samples(const struct pt_hostcpu_op *o)
{
	size_t nu = o->user.n, ns = o->sys.n;
	return nu && ns ? (nu < ns ? nu : ns) : nu + ns;
}

void pt_hostcpu_op_sample(const struct pt_hostcpu_op *o, size_t j, int64_t *t, bool *has_user, double *user,
			  bool *has_sys, double *sys)
{
	*has_user = j < o->user.n;
	*has_sys = j < o->sys.n;
	*user = *has_user ? o->user.value[j] : 0;
	*sys = *has_sys ? o->sys.value[j] : 0;
	*t = *has_user ? o->user.time[j] : *has_sys ? o->sys.time[j] : 0;
}

bool pt_hostcpu_op_cpu(const struct pt_hostcpu *h, int64_t op_id, double *pct, int64_t *samples, double *sum)
{
	const struct pt_hostcpu_op *o = pt_hostcpu_find_op(h, op_id);
	size_t n = o ? pt_hostcpu_op_samples(o) : 0;
	if (!n)
		return false;
	double s = 0;
	for (size_t j = 0; j < n; j++)
		s += (j < o->user.n ? o->user.value[j] : 0) + (j < o->sys.n ? o->sys.value[j] : 0);
	*pct = s / (double)n;
	*samples = (int64_t)n;
	*sum = s;
	return true;
}

/* ---- placement --------------------------------------------------------------------------- */

/* Offset from `from` to `to` through the device's recorded offsets (either direction). */
static bool find_offset(const struct pt_device *d, const char *from, const char *to, int64_t *off)
{
	size_t n = d->offsets.n;
	if (!strcmp(from, to)) {
		*off = 0;
		return true;
	}
	/* breadth-first over domain names; at most n + 1 distinct domains */
	const char **dom = pt_xmalloc((2 * n + 1) * sizeof(*dom));
	int64_t *acc = pt_xmalloc((2 * n + 1) * sizeof(*acc));
	size_t nd = 1, head = 0;
	dom[0] = from;
	acc[0] = 0;
	bool found = false;
	while (head < nd && !found) {
		const char *cur = dom[head];
		int64_t a = acc[head++];
		for (size_t i = 0; i < n && !found; i++) {
			const struct pt_clock_offset *o = &d->offsets.v[i];
			const char *next;
			int64_t na;
			/* a path whose sum leaves int64 (hostile offsets of a model file) is no path */
			if (o->from && o->to && !strcmp(o->from, cur)) {
				next = o->to;
				if (__builtin_add_overflow(a, o->offset_ns, &na))
					continue;
			} else if (o->from && o->to && !strcmp(o->to, cur)) {
				next = o->from;
				if (__builtin_sub_overflow(a, o->offset_ns, &na))
					continue;
			} else {
				continue;
			}
			bool seen = false;
			for (size_t k = 0; k < nd && !seen; k++)
				seen = !strcmp(dom[k], next);
			if (seen)
				continue;
			if (!strcmp(next, to)) {
				*off = na;
				found = true;
				break;
			}
			dom[nd] = next;
			acc[nd++] = na;
		}
	}
	free(dom);
	free(acc);
	return found;
}

struct rec {
	int64_t time, batch;
	size_t order;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_num(const void *a, const void *b)
{
	const struct pt_hostcpu_num *x = a, *y = b;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_step(const void *a, const void *b)
{
	const struct pt_hostcpu_step *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

size_t pt_hostcpu_ascend_steps(const struct pt_model *m, uint32_t dev, struct pt_hostcpu_step **out)
{
	PT_VEC(struct pt_hostcpu_step) w = { 0 };
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		if (s->device != dev || !(s->has & PT_STEP_HAS_START) || !(s->has & PT_STEP_HAS_END) || s->end < s->start)
			continue;
		struct pt_hostcpu_step x = { s->step, s->start, s->end };
		pt_vec_push(&w, x);
	}
	pt_sort(w.v, w.n, sizeof(*w.v), cmp_step);
	for (size_t k = 0; k + 1 < w.n; k++)
		if (w.v[k].e > w.v[k + 1].s)
			w.v[k].e = w.v[k + 1].s;
	*out = w.v;
	return w.n;
}

void pt_hostcpu_place_init(struct pt_hostcpu_place *p, const struct pt_model *m, uint32_t dev,
			   const struct pt_hostcpu_step *steps, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->steps = steps;
	p->nsteps = n;
	const struct pt_device *d = dev < m->devices.n ? &m->devices.v[dev] : NULL;
	/* samples placed at index × interval are not in the host steady clock */
	if (!d || pt_model_stat_get(m, (int32_t)dev, "minddata.cpu.unstamped", 0) > 0)
		return;
	if (d->clock && find_offset(d, PT_CLOCK_HOST_STEADY, d->clock, &p->offset)) {
		p->rule = PT_HC_RULE_OFFSET;
		return;
	}
	PT_VEC(struct rec) r = { 0 };
	for (int file = PT_MD_DEVICE_QUEUE; file <= PT_MD_ITERATOR && !r.n; file++)
		for (size_t i = 0; i < m->md_records.n; i++) {
			const struct pt_md_record *x = &m->md_records.v[i];
			if (x->device == dev && x->file == file && x->type == 1 && x->time >= 0) {
				struct rec y = { x->time, x->batch, i };
				pt_vec_push(&r, y);
			}
		}
	if (!r.n)
		return;
	pt_sort(r.v, r.n, sizeof(*r.v), cmp_rec);
	p->rule = PT_HC_RULE_QUEUE;
	p->nr = r.n;
	p->rt = pt_xmalloc(r.n * sizeof(*p->rt));
	p->rb = pt_xmalloc(r.n * sizeof(*p->rb));
	for (size_t i = 0; i < r.n; i++) {
		p->rt[i] = r.v[i].time;
		p->rb[i] = r.v[i].batch;
	}
	pt_vec_free(&r);
	p->by_num = pt_xmalloc((n ? n : 1) * sizeof(*p->by_num));
	for (size_t i = 0; i < n; i++)
		p->by_num[i] = (struct pt_hostcpu_num){ steps[i].num, i };
	pt_sort(p->by_num, n, sizeof(*p->by_num), cmp_num);
}

int64_t pt_hostcpu_place_step(const struct pt_hostcpu_place *p, int64_t t)
{
	if (p->rule == PT_HC_RULE_OFFSET) {
		/* t + offset without overflow */
		if ((p->offset > 0 && t > INT64_MAX - p->offset) || (p->offset < 0 && t < INT64_MIN - p->offset))
			return -1;
		int64_t x = t + p->offset;
		size_t lo = 0, hi = p->nsteps;
		while (lo < hi) { /* first window with e > x */
			size_t mid = lo + (hi - lo) / 2;
			if (p->steps[mid].e <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < p->nsteps && p->steps[lo].s <= x ? (int64_t)lo : -1;
	}
	if (p->rule != PT_HC_RULE_QUEUE)
		return -1;
	size_t lo = 0, hi = p->nr;
	while (lo < hi) { /* first record with time > t */
		size_t mid = lo + (hi - lo) / 2;
		if (p->rt[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	int64_t b = p->rb[lo - 1];
	lo = 0;
	hi = p->nsteps;
	while (lo < hi) { /* first step with number >= b */
		size_t mid = lo + (hi - lo) / 2;
		if (p->by_num[mid].num < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nsteps && p->by_num[lo].num == b ? (int64_t)p->by_num[lo].idx : -1;
}

void pt_hostcpu_place_free(struct pt_hostcpu_place *p)
{
	free(p->rt);
	free(p->rb);
	free(p->by_num);
	memset(p, 0, sizeof(*p));
}
