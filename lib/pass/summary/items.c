/*
 * Items of the item views (summary.md §3.5–§3.12) in arrays indexed through
 * hash maps, never one allocation per event; their order (§4.2: --sorted-by,
 * --reverse) with an explicit context; the rows a view prints (--name,
 * --top); the thread groups of the operator and userdefined views (§4.3).
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "support/xalloc.h"

void sum_items_init(struct items *it)
{
	memset(it, 0, sizeof(*it));
	pt_hashmap_init(&it->map);
}

void sum_item_free(struct item *x)
{
	for (size_t i = 0; i < x->sub.n; i++)
		sum_item_free(&x->sub.v[i]);
	pt_vec_free(&x->sub);
	if (x->durs) {
		sum_durs_free(x->durs);
		free(x->durs);
		x->durs = NULL;
	}
}

void sum_durs_free(struct sum_durs *s)
{
	pt_vec_free(&s->buf);
	pt_vec_free(&s->runs);
}

/* LSD radix sort of v[0, n) (durations; a negative one sorts first), 8 bits a pass, skipping
 * the passes whose digit is the same for all. */
static void sort_durs(int64_t *v, size_t n, int64_t *tmp)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = (uint64_t)v[i] ^ (1ull << 63);
		lo &= k;
		hi |= k;
	}
	uint64_t diff = lo ^ hi;
	int64_t *a = v, *b = tmp;
	for (int sh = 0; sh < 64; sh += 8) {
		if (!((diff >> sh) & 0xff))
			continue;
		size_t cnt[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			cnt[(((uint64_t)a[i] ^ (1ull << 63)) >> sh & 0xff) + 1]++;
		for (int d = 0; d < 256; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			b[cnt[((uint64_t)a[i] ^ (1ull << 63)) >> sh & 0xff]++] = a[i];
		int64_t *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, n * sizeof(*v));
}

/* Merge the buffered durations into the runs. */
static void durs_merge(struct sum_durs *s)
{
	size_t n = s->buf.n;
	if (!n)
		return;
	int64_t tmp[SUM_DURS_BUF];
	sort_durs(s->buf.v, n, tmp);
	size_t nr = s->runs.n / 2;
	int64_t *out = pt_xmalloc((nr + n) * 2 * sizeof(*out));
	size_t k = 0, i = 0, j = 0;
	while (i < nr || j < n) {
		int64_t d;
		int64_t c;
		if (j >= n || (i < nr && s->runs.v[2 * i] <= s->buf.v[j])) {
			d = s->runs.v[2 * i];
			c = s->runs.v[2 * i + 1];
			i++;
		} else {
			d = s->buf.v[j++];
			c = 1;
		}
		if (k && out[2 * k - 2] == d) {
			out[2 * k - 1] += c;
		} else {
			out[2 * k] = d;
			out[2 * k + 1] = c;
			k++;
		}
	}
	free(s->runs.v);
	s->runs.v = out;
	s->runs.n = 2 * k;
	s->runs.cap = (nr + n) * 2;
	s->buf.n = 0;
}

void sum_durs_add(struct sum_durs *s, int64_t d)
{
	pt_vec_push(&s->buf, d);
	if (s->buf.n == SUM_DURS_BUF)
		durs_merge(s);
}

uint64_t sum_durs_count(struct sum_durs *s)
{
	durs_merge(s);
	uint64_t total = 0;
	for (size_t i = 0; i < s->runs.n; i += 2)
		total += (uint64_t)s->runs.v[i + 1];
	return total;
}

void sum_durs_ranks(struct sum_durs *s, uint64_t lo, uint64_t hi, int64_t *a, int64_t *b)
{
	durs_merge(s);
	uint64_t seen = 0;
	*a = *b = 0;
	for (size_t i = 0; i < s->runs.n; i += 2) {
		uint64_t next = seen + (uint64_t)s->runs.v[i + 1];
		if (lo >= seen && lo < next)
			*a = s->runs.v[i];
		if (hi >= seen && hi < next) {
			*b = s->runs.v[i];
			break;
		}
		seen = next;
	}
}

void sum_item_dur(struct item *x, int64_t d)
{
	if (!x->durs)
		x->durs = pt_xcalloc(1, sizeof(*x->durs));
	sum_durs_add(x->durs, d);
}

int64_t sum_item_median(const struct item *x)
{
	if (!x->durs)
		return 0;
	uint64_t total = sum_durs_count(x->durs);
	if (!total)
		return 0;
	int64_t a, b;
	sum_durs_ranks(x->durs, (total - 1) / 2, total / 2, &a, &b);
	return ravg(a + b, 2);
}

void sum_items_free(struct items *it)
{
	for (size_t i = 0; i < it->v.n; i++)
		sum_item_free(&it->v.v[i]);
	pt_vec_free(&it->v);
	pt_hashmap_free(&it->map);
}

struct item *sum_items_get(struct items *it, uint64_t key, uint32_t name)
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

/* The context of the item order. */
struct item_order {
	struct ctx *g;
	enum pt_summary_key key;
	enum vkind kind;
	bool reverse;
};

static int cmp_avg(int64_t ta, int64_t ca, int64_t tb, int64_t cb)
{
	__int128 x = (__int128)ta * (cb ? cb : 1), y = (__int128)tb * (ca ? ca : 1);
	return (x > y) - (x < y);
}

static int cmp_item(const void *pa, const void *pb, void *arg)
{
	const struct item *a = pa, *b = pb;
	const struct item_order *sort_ctx = arg;
	enum pt_summary_key k = sort_ctx->key;
	int c = 0, dir = -1; /* descending */
	bool cpu = k <= PT_SK_CPU_MIN;
	if (sort_ctx->kind == VK_DEV) {
		/* device-time rows: cpu keys fall back to the total, descending */
		if (cpu)
			k = PT_SK_GPU_TOTAL;
		cpu = false;
	} else if (sort_ctx->kind == VK_API) {
		/* host-time rows (api): gpu keys fall back to the total, descending */
		if (k >= PT_SK_GPU_TOTAL && k <= PT_SK_GPU_MIN)
			k = PT_SK_CPU_TOTAL;
		cpu = true;
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
	if (sort_ctx->reverse)
		dir = -dir;
	if (c)
		return dir * c;
	const struct pt_strtab *st = &sort_ctx->g->names;
	size_t la = pt_strtab_len(st, a->name), lb = pt_strtab_len(st, b->name);
	int n = memcmp(pt_strtab_get(st, a->name), pt_strtab_get(st, b->name), la < lb ? la : lb);
	if (k == PT_SK_NAME && sort_ctx->reverse)
		n = -n, la ^= lb, lb ^= la, la ^= lb;
	if (n)
		return n;
	if (la != lb)
		return la < lb ? -1 : 1;
	return cmp_i64(a->first, b->first);
}

void sum_items_sort(struct ctx *g, struct item *v, size_t n, enum vkind kind)
{
	enum pt_summary_key k = g->o->key;
	if (k == PT_SK_DEFAULT)
		k = PT_SK_CPU_TOTAL;
	struct item_order ord = { g, k, kind, g->o->reverse };
	sum_sort(v, n, sizeof(*v), cmp_item, &ord);
}

static int cmp_first(const void *pa, const void *pb, void *arg)
{
	struct ctx *g = arg;
	const struct item *a = pa, *b = pb;
	int c = cmp_i64(a->first, b->first);
	if (c)
		return c;
	return strcmp(out_str(g, a->name), out_str(g, b->name));
}

void sum_items_sort_first(struct ctx *g, struct item *v, size_t n)
{
	sum_sort(v, n, sizeof(*v), cmp_first, g);
}

bool sum_name_ok(struct ctx *g, uint32_t name)
{
	return !g->o->name_re || !regexec(g->o->name_re, out_str(g, name), 0, NULL, 0);
}

struct sum_pick sum_pick(struct ctx *g, struct item *v, size_t n)
{
	return (struct sum_pick){ g, v, n, 0, 0 };
}

struct item *sum_pick_next(struct sum_pick *p)
{
	int64_t top = p->g->o->top;
	while (p->k < p->n) {
		struct item *o = &p->v[p->k++];
		if (!sum_name_ok(p->g, o->name))
			continue;
		if (top >= 0 && p->shown >= top)
			break;
		p->shown++;
		return o;
	}
	p->k = p->n;
	return NULL;
}

/* A sub item of x keyed by (name, kind b), created on first use. */
struct item *sum_sub_get(struct item *x, uint32_t name, int64_t b)
{
	for (size_t k = x->sub.n; k-- > 0;)
		if (x->sub.v[k].name == name && x->sub.v[k].b == b)
			return &x->sub.v[k];
	struct item y = { 0 };
	y.name = name;
	y.b = b;
	y.first = INT64_MAX;
	pt_vec_push(&x->sub, y);
	return &x->sub.v[x->sub.n - 1];
}

void sum_act_rows(struct ctx *g, const struct rank *r, struct item *x, uint32_t h, int64_t kind)
{
	const struct pt_events *ev = &g->m->events;
	for (uint32_t q = r->act_off[h]; q < r->act_off[h + 1]; q++) {
		uint32_t i = r->act[q];
		struct item *s = sum_sub_get(x, sum_act_name(g, i), kind);
		s->calls++;
		item_gpu(s, ev->dur[i]);
		if (ev->start[i] < s->first)
			s->first = ev->start[i];
	}
}

int sum_name_width(struct ctx *g, const struct item *v, size_t n)
{
	size_t longest = 4;
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(out_str(g, v[k].name));
		if (l > longest)
			longest = l;
	}
	return (int)(longest < 90 ? longest : 90);
}

void sum_groups_init(struct groups *gs, const struct rank *r)
{
	memset(gs, 0, sizeof(*gs));
	gs->of_track = pt_xcalloc(r->g->m->tracks.n + 1, sizeof(*gs->of_track));
	if (!r->g->o->thread_sep) {
		struct grp x = { .track = UINT32_MAX, .first = INT64_MAX, .tid = -1 };
		pt_vec_push(&gs->v, x);
	}
}

uint32_t sum_group_of(struct groups *gs, const struct rank *r, uint32_t track)
{
	if (!r->g->o->thread_sep)
		return 0;
	if (!gs->of_track[track]) {
		struct grp x = { .track = track, .first = INT64_MAX, .tid = r->g->m->tracks.v[track].stream };
		pt_vec_push(&gs->v, x);
		gs->of_track[track] = (uint32_t)gs->v.n;
	}
	return gs->of_track[track] - 1;
}

static int cmp_grp(const void *pa, const void *pb, void *arg)
{
	const struct groups *gs = arg;
	const struct grp *a = &gs->v.v[*(const uint32_t *)pa], *b = &gs->v.v[*(const uint32_t *)pb];
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

void sum_groups_order(struct groups *gs)
{
	gs->order = pt_xmalloc((gs->v.n + 1) * sizeof(*gs->order));
	for (size_t k = 0; k < gs->v.n; k++)
		gs->order[k] = (uint32_t)k;
	sum_sort(gs->order, gs->v.n, sizeof(*gs->order), cmp_grp, gs);
}

void sum_groups_free(struct groups *gs)
{
	pt_vec_free(&gs->v);
	free(gs->of_track);
	free(gs->order);
}

void sum_group_label(const struct rank *r, const struct grp *gr, char *title, char *key)
{
	if (!r->g->o->thread_sep) {
		strcpy(title, "Thread: All threads merged");
		strcpy(key, "all");
	} else {
		snprintf(title, 64, "Thread: %" PRId64, gr->tid);
		snprintf(key, 32, "%" PRId64, gr->tid);
	}
}

/* The sorted top-level items of group gi (shallow copies; sub vectors stay owned by `it`). */
struct item *sum_group_items(struct ctx *g, struct items *it, uint32_t gi, size_t *n, enum vkind kind)
{
	struct item *v = pt_xmalloc((it->v.n + 1) * sizeof(*v));
	*n = 0;
	for (size_t k = 0; k < it->v.n; k++)
		if ((uint32_t)it->v.v[k].d == gi)
			v[(*n)++] = it->v.v[k];
	sum_items_sort(g, v, *n, kind);
	return v;
}
