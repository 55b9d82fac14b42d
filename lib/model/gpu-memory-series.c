/* GPU memory counter series (see gpu-memory-series.h). */
#include "model/gpu-memory-series.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/gpu-memory.h"
#include "model/model.h"
#include "support/hashmap.h"
#include "support/xalloc.h"

/* Sums in 128 bits with sizes saturated to int64, clamped to int64 when sampled,
 * as the replay does (gpu-memory.c): hostile sizes near 2^64 stay defined. */
static int64_t clamp64(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

struct spool { /* a pool as the replay sees it */
	uint32_t pid;
	uint64_t address;
	uint8_t type;
	bool has_size;
	uint64_t size, utilized;
	size_t group; /* index into the groups + 1, 0 = none yet */
};

struct spools {
	struct spool *v;
	size_t n, cap;
};

struct builder {
	PT_VEC(struct pt_gms_group) g;
	size_t fixed[3]; /* group index + 1 of Memory, Managed, Pinned */
	bool coalesce;
	/* pt_gms_build_fn: each sample handed to fn, a group keeping only its last */
	pt_gms_sample_fn *fn;
	void *ctx;
};

static size_t new_group(struct builder *b, enum pt_gms_kind k, uint32_t pid, uint64_t pool)
{
	struct pt_gms_group g;
	memset(&g, 0, sizeof(g));
	g.kind = k;
	g.pid = pid;
	g.pool = pool;
	switch (k) {
	case PT_GMS_MEMORY:
		g.nseries = 2;
		g.series[0] = "allocated_bytes";
		g.series[1] = "reserved_bytes";
		g.name = pt_xstrdup("Memory");
		break;
	case PT_GMS_MANAGED:
	case PT_GMS_PINNED:
		g.nseries = 1;
		g.series[0] = "allocated_bytes";
		g.name = pt_xstrdup(k == PT_GMS_MANAGED ? "Managed memory" : "Pinned memory");
		break;
	case PT_GMS_POOL:
		g.nseries = 2;
		g.series[0] = "size_bytes";
		g.series[1] = "utilized_bytes";
		g.name = pt_xasprintf("Memory pool 0x%" PRIx64, pool);
		break;
	}
	pt_vec_push(&b->g, g);
	return b->g.n;
}

/* Add a sample (v has g->nseries values); `always`: even when equal to the previous one. */
static void sample(struct builder *b, size_t gi, int64_t t, const int64_t *v, bool always)
{
	struct pt_gms_group *g = &b->g.v[gi - 1];
	size_t ns = g->nseries, n = g->time.n;
	int64_t *last = n ? &g->val.v[(n - 1) * ns] : NULL;
	if (last && !memcmp(last, v, ns * sizeof(*v)))
		return; /* no change */
	if (!last && !always) {
		bool zero = true;
		for (size_t k = 0; k < ns; k++)
			zero &= !v[k];
		if (zero)
			return; /* no change from the implicit 0 before the first record */
	}
	if (b->fn) {
		b->fn(b->ctx, g, t, v);
		if (!last) {
			pt_vec_push(&g->time, t);
			for (size_t k = 0; k < ns; k++)
				pt_vec_push(&g->val, v[k]);
		} else {
			g->time.v[0] = t;
			memcpy(last, v, ns * sizeof(*v));
		}
		return;
	}
	if (b->coalesce && last && g->time.v[n - 1] == t) {
		memcpy(last, v, ns * sizeof(*v)); /* equal times: the last value wins */
		if (n >= 2 && !memcmp(&g->val.v[(n - 2) * ns], last, ns * sizeof(*v))) {
			g->time.n--; /* back to the previous values: no change after all */
			g->val.n -= ns;
		}
		return;
	}
	pt_vec_push(&g->time, t);
	for (size_t k = 0; k < ns; k++)
		pt_vec_push(&g->val, v[k]);
}

static int64_t sat(uint64_t v)
{
	return pt_gmem_sat(v);
}

static uint64_t pkey(uint32_t pid, uint64_t addr)
{
	return pt_hash64(addr ^ ((uint64_t)pid << 40 | (uint64_t)pid >> 24) ^ 0x2545f4914f6cdd1dull);
}

static size_t pool_find(struct spools *pools, struct pt_hashmap *pm, uint32_t pid, uint64_t addr,
			uint8_t type)
{
	bool added;
	uint64_t *v = pt_hashmap_put(pm, pkey(pid, addr), 0, &added);
	if (!added) {
		struct spool *p = &pools->v[*v - 1];
		if (p->pid == pid && p->address == addr)
			return (size_t)(*v - 1);
		for (size_t i = 0; i < pools->n; i++) /* hash collision: a linear search */
			if (pools->v[i].pid == pid && pools->v[i].address == addr)
				return i;
	}
	struct spool np;
	memset(&np, 0, sizeof(np));
	np.pid = pid;
	np.address = addr;
	np.type = type;
	pt_vec_push(pools, np);
	*v = pools->n;
	return pools->n - 1;
}

/* An observed pool size (the replay's pool_observe): LOCAL pools move the reserved bytes. */
static void observe(struct spool *p, uint64_t size, uint64_t util, __int128 *local_sum)
{
	if (p->type == 1)
		*local_sum += (__int128)sat(size) - sat(p->has_size ? p->size : 0);
	p->has_size = true;
	p->size = size;
	p->utilized = util;
}

static void pool_sample(struct builder *b, struct spool *p, int64_t t)
{
	bool first = !p->group;
	if (first)
		p->group = new_group(b, PT_GMS_POOL, p->pid, p->address);
	int64_t v[2] = { sat(p->size), sat(p->utilized) };
	sample(b, p->group, t, v, first);
}

/* The replay's row of the item just run (pt_gmem_run_some, one item at a time). */
struct itemrow {
	bool has;
	struct pt_gmem_row row;
};

static void take_row(void *ctx, const struct pt_gmem_row *row, const struct pt_gpu_mem *rec)
{
	(void)rec;
	struct itemrow *x = ctx;
	x->has = true;
	x->row = *row;
}

static void build(const struct pt_model *m, uint32_t dev, const struct pt_gmem_state *like, struct builder *bp,
		  struct pt_gms *out)
{
	memset(out, 0, sizeof(*out));
	struct builder b = *bp;
	/* the replay runs beside the samples, an item at a time, its rows taken as they come:
	 * no row is kept */
	struct pt_gmem_state r;
	if (like)
		pt_gmem_state_init_like(like, &r);
	else
		pt_gmem_state_init(m, dev, &r);
	struct itemrow cur_row = { false, { 0 } };
	r.row_fn = take_row;
	r.row_ctx = &cur_row;
	struct pt_gmem_run run;
	pt_gmem_run_begin(m, &r, &run, true);
	struct pt_gpu_mem_cursor cur;
	pt_gpu_mem_cursor_init(&cur, m->gpu_mem_pack);
	/* the fixed groups first, so that they precede the pools; empty ones are dropped below */
	b.fixed[0] = new_group(&b, PT_GMS_MEMORY, 0, 0);
	b.fixed[1] = new_group(&b, PT_GMS_MANAGED, 0, 0);
	b.fixed[2] = new_group(&b, PT_GMS_PINNED, 0, 0);
	struct spools pools = { 0 };
	struct pt_hashmap pm;
	pt_hashmap_init(&pm);
	int64_t alloc[PT_GMEM__N] = { 0 };
	__int128 nonpool = 0, local_sum = 0;
	for (size_t pos = 0; pos < r.nitems; pos++) {
		const struct pt_gmem_item *it = &r.items[pos];
		cur_row.has = false;
		pt_gmem_run_some(m, &r, &run, 1);
		int64_t t = it->time;
		struct spool *touched = NULL;
		if (it->pool) {
			const struct pt_gpu_pool *pr = &m->gpu_pools.v[it->idx];
			size_t pi = pool_find(&pools, &pm, pr->pid, pr->address, pr->pool_type);
			struct spool *p = &pools.v[pi];
			if (pr->op == PT_GPOOL_CREATED) {
				p->type = pr->pool_type;
				observe(p, pr->size, pr->utilized, &local_sum);
				touched = p;
			} else if (pr->op == PT_GPOOL_DESTROYED) {
				if (p->type == 1 && p->has_size)
					local_sum -= sat(p->size);
				p->size = 0;
				p->utilized = 0;
				touched = p;
			} else if (pr->op == PT_GPOOL_TRIMMED) {
				if (p->type == 1)
					local_sum += (__int128)sat(pr->size) - sat(p->has_size ? p->size : 0);
				p->has_size = true;
				p->size = pr->size;
				p->utilized = pr->utilized;
				touched = p;
			}
		} else {
			const struct pt_gpu_mem *g = pt_model_gpu_mem(m, &cur, it->idx);
			if (g->pool_type == 1 && g->pool_address) {
				size_t pi = pool_find(&pools, &pm, g->pid, g->pool_address, 1);
				struct spool *p = &pools.v[pi];
				if (p->type == 0)
					p->type = 1;
				observe(p, g->pool_size, g->pool_utilized, &local_sum);
				touched = p;
			}
			const struct pt_gmem_row *row = cur_row.has && cur_row.row.rec == it->idx ? &cur_row.row : NULL;
			if (row && (row->what == PT_GMEM_RS_ALLOC || row->what == PT_GMEM_RS_RELEASE)) {
				enum pt_gmem_group gr = pt_gmem_group_of(g->mem_kind);
				alloc[gr] = row->allocated;
				if (gr == PT_GMEM_DEVICE && row->reserved >= 0)
					nonpool = row->nonpool;
			}
		}
		if (touched)
			pool_sample(&b, touched, t);
		int64_t mv[2] = { alloc[PT_GMEM_DEVICE], clamp64(nonpool + local_sum) };
		sample(&b, b.fixed[0], t, mv, false);
		sample(&b, b.fixed[1], t, &alloc[PT_GMEM_MANAGED], false);
		sample(&b, b.fixed[2], t, &alloc[PT_GMEM_PINNED], false);
	}
	pt_hashmap_free(&pm);
	/* pools of one address in several processes: name them apart */
	for (size_t i = 0; i < b.g.n; i++) {
		struct pt_gms_group *g = &b.g.v[i];
		if (g->kind != PT_GMS_POOL)
			continue;
		bool twin = false;
		for (size_t j = 0; j < b.g.n && !twin; j++)
			twin = j != i && b.g.v[j].kind == PT_GMS_POOL && b.g.v[j].pool == g->pool;
		if (twin) {
			free(g->name);
			g->name = pt_xasprintf("Memory pool 0x%" PRIx64 " (process %" PRIu32 ")", g->pool, g->pid);
		}
	}
	/* keep the groups with samples */
	size_t k = 0;
	for (size_t i = 0; i < b.g.n; i++) {
		if (b.g.v[i].time.n) {
			b.g.v[k++] = b.g.v[i];
			continue;
		}
		free(b.g.v[i].name);
		pt_vec_free(&b.g.v[i].time);
		pt_vec_free(&b.g.v[i].val);
	}
	out->g = b.g.v;
	out->n = k;
	if (!k) {
		free(b.g.v);
		out->g = NULL;
	}
	pt_vec_free(&pools);
	pt_gmem_run_end(m, &r, &run, -1, NULL);
	pt_gmem_state_free(&r);
}

void pt_gms_build(const struct pt_model *m, uint32_t dev, bool coalesce, struct pt_gms *out)
{
	struct builder b;
	memset(&b, 0, sizeof(b));
	b.coalesce = coalesce;
	build(m, dev, NULL, &b, out);
}

void pt_gms_build_fn(const struct pt_model *m, uint32_t dev, const struct pt_gmem_state *like, pt_gms_sample_fn *fn,
		     void *ctx, struct pt_gms *out)
{
	struct builder b;
	memset(&b, 0, sizeof(b));
	b.fn = fn;
	b.ctx = ctx;
	build(m, dev, like, &b, out);
}

void pt_gms_free(struct pt_gms *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->g[i].name);
		pt_vec_free(&s->g[i].time);
		pt_vec_free(&s->g[i].val);
	}
	free(s->g);
	memset(s, 0, sizeof(*s));
}
