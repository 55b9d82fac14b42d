/* Helpers of the hint rules: rule states, records, names, named lists. */
#define _GNU_SOURCE /* qsort_r */
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <demangle.h>

#include "model/model.h"
#include "support/names.h"
#include "support/sort.h"
#include "support/xalloc.h"

struct rk *hx_rank_of(struct ctx *c, int64_t rank)
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

void hx_mark_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank)
{
	hx_rank_of(c, rank)->st[rule] = ST_EVAL;
}

void hx_not_eval(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope, const char *fmt, ...)
{
	struct rk *r = hx_rank_of(c, rank);
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

bool hx_enabled(const struct ctx *c, enum pt_hint_rule rule)
{
	return !c->k->disabled[rule];
}

char *hx_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

const char *hx_ftime(const struct ctx *c, char *b, int64_t ns)
{
	return pt_time_text(b, ns, c->o->unit);
}

struct pt_hint *hx_fire(struct ctx *c, enum pt_hint_rule rule, int64_t rank, const char *scope,
			enum pt_hint_sev sev, const char *metric, const char *unit, double value, double thr)
{
	struct pt_hint *x = pt_hints_add(c->h, rule, rank, scope);
	x->sev = sev;
	x->metric = pt_xstrdup(metric);
	x->unit = pt_xstrdup(unit);
	x->value = value;
	x->threshold = thr;
	hx_rank_of(c, rank)->fired[rule] = true;
	return x;
}

double hx_pct(int64_t a, int64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

int64_t hx_mean_round(__int128 sum, int64_t n)
{
	return n ? pt_steps_mean(sum, n) : 0;
}

bool hx_is_dev_activity(uint8_t k)
{
	return k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET || k == PT_EV_TASK || k == PT_EV_AICPU;
}

/* Base name of a runtime API: without a trailing _v<digits>. */
size_t hx_api_base_len(const char *s)
{
	size_t l = strlen(s);
	size_t i = l;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i < l && i >= 2 && s[i - 1] == 'v' && s[i - 2] == '_')
		return i - 2;
	return l;
}

bool hx_in_list(const char *list, const char *s, size_t n)
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
const char *hx_dname(struct ctx *c, uint32_t id)
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
const char *hx_aname(struct ctx *c, uint32_t id)
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

struct hx_link_at {
	uint32_t ev, range, at; /* at: the link's place in the model */
};

static int cmp_link_at(const void *pa, const void *pb)
{
	const struct hx_link_at *a = pa, *b = pb;
	if (a->ev != b->ev)
		return a->ev < b->ev ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* The range (event index + 1) of the first link of event i that has one, 0
 * if none: one pass over the links for all events, not one per kernel; kept
 * as a list of the linked events by event (8 bytes per linked event, not 4
 * per event of the model), looked up by binary search. */
uint32_t hx_link_range(struct ctx *c, size_t i)
{
	const struct pt_model *m = c->m;
	size_t n = m->events.n;
	if (!c->lr_done) {
		c->lr_done = true;
		size_t k = 0;
		struct hx_link_at *v = pt_xmalloc((m->links.n ? m->links.n : 1) * sizeof(*v));
		bool sorted = true;
		for (size_t l = 0; l < m->links.n; l++) {
			const struct pt_gpu_link *lk = &m->links.v[l];
			if (lk->event >= n || !lk->range)
				continue;
			sorted &= !k || v[k - 1].ev <= lk->event;
			v[k++] = (struct hx_link_at){ (uint32_t)lk->event, lk->range, (uint32_t)l };
		}
		if (!sorted)
			pt_sort(v, k, sizeof(*v), cmp_link_at);
		c->lr = pt_xmalloc((k ? k : 1) * sizeof(*c->lr));
		for (size_t j = 0; j < k; j++)
			if (!c->nlr || c->lr[c->nlr - 1].ev != v[j].ev)
				c->lr[c->nlr++] = (struct hx_link){ v[j].ev, v[j].range };
		free(v);
	}
	size_t lo = 0, hi = c->nlr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->lr[mid].ev < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nlr && c->lr[lo].ev == i ? c->lr[lo].range : 0;
}

int hx_nest_cmp(const void *pa, const void *pb)
{
	const struct hx_nest *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* A pipeline receive (hints.md §2.4): lower-cased name contains "receive" or "recv". */
bool hx_recv_name(const char *s)
{
	for (const char *p = s; p && *p; p++)
		if (!strncasecmp(p, "recv", 4) || !strncasecmp(p, "receive", 7))
			return true;
	return false;
}

static struct named *hx_nl_add(struct nlist *l, uint32_t name)
{
	pt_xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n] = (struct named){ name, 0, 0 };
	return &l->v[l->n++];
}

struct named *hx_nl_get(struct nlist *l, uint32_t name)
{
	bool added;
	uint64_t *i = pt_hashmap_put(&l->at, name, l->n, &added);
	return added ? hx_nl_add(l, name) : &l->v[*i];
}

static uint64_t hx_str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* API lists: grouped and ordered by output name (aname). Every entry has a
 * name of its own, so the first entry of a name is the only one. */
struct named *hx_nl_get_api(struct ctx *c, struct nlist *l, uint32_t name)
{
	const char *s = hx_aname(c, name);
	bool added;
	uint64_t *i = pt_hashmap_put(&l->at, hx_str_hash(s), l->n, &added);
	if (added)
		return hx_nl_add(l, name);
	struct named *x = &l->v[*i];
	if (x->name == name || !strcmp(hx_aname(c, x->name), s))
		return x;
	for (size_t j = 0; j < l->n; j++) /* a hash collision */
		if (l->v[j].name == name || !strcmp(hx_aname(c, l->v[j].name), s))
			return &l->v[j];
	return hx_nl_add(l, name);
}

void hx_nl_free(struct nlist *l)
{
	free(l->v);
	pt_hashmap_free(&l->at);
}

/* Lists are ordered by their count or time, descending, then by the name as
 * printed (byte order): kernel and op names demangled (dname), API names
 * without their _vNNNN suffix (aname). The context is qsort_r's argument. */
static int cmp_named(const void *pa, const void *pb, void *arg)
{
	const struct named *a = pa, *b = pb;
	if (a->a != b->a)
		return a->a > b->a ? -1 : 1;
	return strcmp(hx_dname(arg, a->name), hx_dname(arg, b->name));
}

void hx_nl_sort(struct ctx *c, struct nlist *l)
{
	hx_sort_r(l->v, l->n, sizeof(*l->v), cmp_named, c);
}

static int cmp_named_api(const void *pa, const void *pb, void *arg)
{
	const struct named *a = pa, *b = pb;
	if (a->a != b->a)
		return a->a > b->a ? -1 : 1;
	return strcmp(hx_aname(arg, a->name), hx_aname(arg, b->name));
}

void hx_nl_sort_api(struct ctx *c, struct nlist *l)
{
	hx_sort_r(l->v, l->n, sizeof(*l->v), cmp_named_api, c);
}

void hx_ev_top3(struct ctx *c, struct pt_hint *x, const char *list, const struct nlist *l, bool api,
		const char *field)
{
	for (size_t i = 0; i < l->n && i < 3; i++) {
		char t[32];
		uint32_t nm = l->v[i].name;
		pt_hint_ev_item(x, list, (int)i + 1, "name", api ? hx_aname(c, nm) : hx_dname(c, nm), false);
		snprintf(t, sizeof(t), "%" PRId64, l->v[i].a);
		pt_hint_ev_item(x, list, (int)i + 1, field, t, true);
	}
}

int hx_cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Nearest-rank percentile of sorted v. */
int64_t hx_pctile(const int64_t *v, size_t n, int p)
{
	if (!n)
		return 0;
	size_t r = (size_t)((p * n + 99) / 100);
	if (r < 1)
		r = 1;
	return v[r - 1];
}

int64_t hx_anchor(const struct rankdata *rd, const struct pt_model *m, size_t i)
{
	return rd->am ? pt_anchor_of(rd->am, i) : m->events.start[i];
}

bool hx_member(const struct rankdata *rd, const struct pt_model *m, size_t i)
{
	return pt_ivset_contains(&rd->W, hx_anchor(rd, m, i));
}

const char *hx_copy_kind_name(uint8_t k)
{
	static const char *const n[] = { "other", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
					 "HtoH", "PtoP" };
	return k < sizeof(n) / sizeof(n[0]) ? n[k] : "other";
}

const struct pt_copy_info *hx_copy_of(const struct pt_model *m, size_t ev)
{
	return pt_model_copy_info(m, (uint32_t)ev);
}

const struct pt_range_info *hx_range_of(const struct pt_model *m, size_t ev)
{
	return pt_model_range_info(m, (uint32_t)ev);
}

const struct pt_ivset *hx_union_ref(const struct pt_ivset *a, const struct pt_ivset *b, struct pt_ivset *own)
{
	if (!b->n)
		return a;
	if (!a->n)
		return b;
	pt_ivset_union(own, a, b);
	return own;
}

/* |union of their times ∩ W| of a run of executions: joined as they come
 * when they come by start (the driver's K, a type's run of it), else sorted. */
int64_t hx_busy_in(const struct rankdata *rd, const struct pt_model *m, const struct fexec *v, size_t n)
{
	const struct pt_events *ev = &m->events;
	struct pt_ivset u = { 0 };
	bool by_start = true;
	for (size_t i = 1; i < n && by_start; i++)
		by_start = ev->start[v[i - 1].ev] <= ev->start[v[i].ev];
	if (by_start) {
		for (size_t i = 0; i < n; i++)
			pt_ivset_append(&u, ev->start[v[i].ev], ev->start[v[i].ev] + ev->dur[v[i].ev]);
	} else {
		struct pt_ival *iv = pt_xmalloc((n ? n : 1) * sizeof(*iv));
		for (size_t i = 0; i < n; i++)
			iv[i] = (struct pt_ival){ ev->start[v[i].ev], ev->start[v[i].ev] + ev->dur[v[i].ev] };
		pt_ivset_build(&u, iv, n);
		free(iv);
	}
	int64_t b = 0;
	for (size_t i = 0; i < u.n; i++)
		b += pt_ivset_measure_in(&rd->W, u.v[i].s, u.v[i].e);
	pt_ivset_free(&u);
	return b;
}

bool hx_has_hccl(const struct pt_model *m, uint32_t dev)
{
	for (size_t i = 0; i < m->hccl.n; i++)
		if (m->hccl.v[i].device == dev)
			return true;
	return false;
}

const struct hx_srank *hx_srank_of(const struct ctx *c, const struct pt_rank_steps *r)
{
	if (!c->srank || !c->si || r < c->si->r || r >= c->si->r + c->si->n)
		return NULL;
	return &c->srank[r - c->si->r];
}

const struct ddpfig *hx_ddp(struct ctx *c, struct rankdata *rd)
{
	struct ddpfig *f = &rd->ddp;
	if (f->done)
		return f;
	f->done = true;
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_rank_steps *r = rd->r;
	static const char *const nc[] = { "nccl:broadcast", "nccl:reduce", "nccl:all_reduce", "nccl:all_gather",
					  "nccl:reduce_scatter", NULL };
	const struct hx_srank *sr = hx_srank_of(c, r);
	if (sr) { /* streamed: counted as they passed (gddp.c); m holds no events (but a read's last batch) */
		f->dp = sr->ddp.dp;
		f->ddp = sr->ddp.ddp;
		f->nccl = sr->ddp.nccl;
	}
	for (size_t i = 0; i < ev->n && !sr; i++) {
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != r->host)
			continue;
		const char *s = pt_model_strget(m, ev->name[i]);
		f->dp += !strcmp(s, "DataParallel.forward");
		f->ddp += !strcmp(s, "DistributedDataParallel.forward");
		for (size_t q = 0; nc[q]; q++)
			f->nccl |= !strcmp(s, nc[q]);
	}
	for (size_t j = 0; j < r->ndevs; j++) {
		const struct pt_device *d = &m->devices.v[r->devs[j]];
		uint32_t v = d->cc_major * 10 + d->cc_minor;
		if (v > f->cc)
			f->cc = v;
		if (c->sdev && c->sdev[r->devs[j]].active) /* streamed: seen as it passed */
			f->active++;
		for (size_t i = 0; i < ev->n && !sr; i++)
			if (hx_is_dev_activity(ev->kind[i]) && m->tracks.v[ev->track[i]].device == r->devs[j]) {
				f->active++;
				break;
			}
	}
	return f;
}

void hx_permute_mops(struct memop *v, uint32_t *ix, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (ix[i] == i)
			continue;
		struct memop aside = v[i];
		size_t j = i;
		while (ix[j] != i) {
			size_t from = ix[j];
			v[j] = v[from];
			ix[j] = (uint32_t)j;
			j = from;
		}
		v[j] = aside;
		ix[j] = (uint32_t)j;
	}
}
