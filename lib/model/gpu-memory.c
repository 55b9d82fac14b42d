#include "model/gpu-memory.h"

#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"

const char *const pt_gmem_group_names[PT_GMEM__N] = { "device", "managed", "pinned", "other" };

enum pt_gmem_group pt_gmem_group_of(unsigned k)
{
	switch (k) {
	case 3: /* DEVICE */
	case 6: /* DEVICE_STATIC */
		return PT_GMEM_DEVICE;
	case 5: /* MANAGED */
	case 7: /* MANAGED_STATIC */
		return PT_GMEM_MANAGED;
	case 2:
		return PT_GMEM_PINNED;
	default:
		return PT_GMEM_OTHER;
	}
}

const char *const pt_gmem_pool_ev_names[4] = { "created", "growth", "trim", "destroyed" };

static int cmp_item(const void *x, const void *y)
{
	const struct pt_gmem_item *a = x, *b = y;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->pool != b->pool)
		return a->pool < b->pool ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static uint64_t bkey(uint32_t pid, uint64_t addr)
{
	return pt_hash64(addr ^ ((uint64_t)pid << 40 | (uint64_t)pid >> 24) ^ 0x9e3779b97f4a7c15ull);
}

static uint32_t pool_find(struct pt_gmem_state *r, struct pt_hashmap *pm, uint32_t pid, uint64_t addr, uint8_t type)
{
	bool added;
	uint64_t *v = pt_hashmap_put(pm, bkey(pid, addr), 0, &added);
	if (!added) {
		struct pt_gmem_pool *p = &r->pools.v[*v - 1];
		if (p->pid == pid && p->address == addr)
			return (uint32_t)(*v - 1);
	}
	struct pt_gmem_pool np = { 0 };
	np.pid = pid;
	np.address = addr;
	np.type = type;
	pt_vec_push(&r->pools, np);
	*v = r->pools.n;
	return (uint32_t)(r->pools.n - 1);
}

/* The replay sums bytes in 128 bits (sizes reach 2^64 in a hostile dump: each
 * counts as pt_gmem_sat() of it) and clamps what it reports to int64. */
static int64_t clamp64(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* Observe a pool size; records growth events. */
static void pool_observe(struct pt_gmem_state *r, uint32_t pi, int64_t t, uint64_t size, uint64_t util,
			 __int128 *local_sum)
{
	struct pt_gmem_pool *p = &r->pools.v[pi];
	if (p->has_size && size > p->size) {
		p->growths++;
		struct pt_gmem_pool_ev e = { pi, PT_GMEM_EV_GROWTH, t, size, util, 0 };
		pt_vec_push(&r->pevs, e);
	}
	if (p->type == 1)
		*local_sum += (__int128)pt_gmem_sat(size) - pt_gmem_sat(p->has_size ? p->size : 0);
	if (!p->has_size)
		p->initial = size;
	if (!p->has_size || size > p->max) {
		p->max = size;
		p->max_time = t;
	}
	p->has_size = true;
	p->size = size;
	p->utilized = util;
}

void pt_gmem_run_begin(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, bool full)
{
	memset(x, 0, sizeof(*x));
	(void)r;
	x->full = full;
	pt_hashmap_init(&x->open);
	pt_hashmap_init(&x->pm);
	pt_gpu_mem_cursor_init(&x->ic, m->gpu_mem_pack);
	pt_gpu_mem_cursor_init(&x->bc, m->gpu_mem_pack);
}

/* Item x->pos of the replay, then x->pos + 1. */
static void run_item(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x)
{
	bool full = x->full;
	size_t pos = x->pos++;
	__int128 *alloc = x->alloc, *peak = x->peak;
	const struct pt_gmem_item *it = &r->items[pos];
	if (it->pool) {
		const struct pt_gpu_pool *pr = &m->gpu_pools.v[it->idx];
		uint32_t pi = pool_find(r, &x->pm, pr->pid, pr->address, pr->pool_type);
		struct pt_gmem_pool *p = &r->pools.v[pi];
		__int128 before = x->local_sum;
		if (pr->op == PT_GPOOL_CREATED) {
			p->seen_created = true;
			p->created = pr->time;
			p->threshold = pr->threshold;
			p->type = pr->pool_type;
			if (full) {
				struct pt_gmem_pool_ev e = { pi, PT_GMEM_EV_CREATED, pr->time, pr->size, pr->utilized, 0 };
				pt_vec_push(&r->pevs, e);
			}
			pool_observe(r, pi, pr->time, pr->size, pr->utilized, &x->local_sum);
		} else if (pr->op == PT_GPOOL_DESTROYED) {
			p = &r->pools.v[pi];
			p->destroyed = true;
			p->destroyed_at = pr->time;
			if (p->type == 1 && p->has_size)
				x->local_sum -= pt_gmem_sat(p->size);
			p->size = 0;
			if (full) {
				struct pt_gmem_pool_ev e = { pi, PT_GMEM_EV_DESTROYED, pr->time, 0, pr->utilized, 0 };
				pt_vec_push(&r->pevs, e);
			}
		} else if (pr->op == PT_GPOOL_TRIMMED) {
			p = &r->pools.v[pi];
			p->trims++;
			if (p->type == 1 && p->has_size)
				x->local_sum += (__int128)pt_gmem_sat(pr->size) - pt_gmem_sat(p->size);
			else if (p->type == 1)
				x->local_sum += pt_gmem_sat(pr->size);
			p->has_size = true;
			p->size = pr->size;
			p->utilized = pr->utilized;
			if (full) {
				struct pt_gmem_pool_ev e = { pi, PT_GMEM_EV_TRIM, pr->time, pr->size, pr->utilized, pr->min_keep };
				pt_vec_push(&r->pevs, e);
			}
		}
		if (full && x->local_sum != before) {
			__int128 res = x->nonpool + x->local_sum;
			if (!r->has_rpeak || res > x->rpeak) {
				x->rpeak = res;
				r->rpeak = clamp64(res);
				r->rpeak_time = pr->time;
				r->has_rpeak = true;
			}
		}
		return;
	}
	const struct pt_gpu_mem *g = pt_model_gpu_mem(m, &x->ic, it->idx);
	enum pt_gmem_group gr = pt_gmem_group_of(g->mem_kind);
	struct pt_gmem_row row = { it->idx, PT_GMEM_RS_IGNORED, 0, -1, 0 };
	if (g->pool_type == 1 && g->pool_address) {
		uint32_t pi = pool_find(r, &x->pm, g->pid, g->pool_address, 1);
		if (r->pools.v[pi].type == 0)
			r->pools.v[pi].type = 1;
		pool_observe(r, pi, g->time, g->pool_size, g->pool_utilized, &x->local_sum);
	}
	uint64_t key = bkey(g->pid, g->address);
	if (g->op == PT_GMEM_ALLOC) {
		bool added;
		uint64_t *v = pt_hashmap_put(&x->open, key, 0, &added);
		if (!added && x->blocks.v[*v - 1].open) {
			const struct pt_gpu_mem *old = pt_model_gpu_mem(m, &x->bc, x->blocks.v[*v - 1].rec);
			enum pt_gmem_group og = pt_gmem_group_of(old->mem_kind);
			alloc[og] -= pt_gmem_sat(old->bytes);
			if (og == PT_GMEM_DEVICE && !old->pool_type)
				x->nonpool -= pt_gmem_sat(old->bytes);
			x->blocks.v[*v - 1].open = false;
			r->over_open[gr]++;
		}
		struct pt_gmem_block b = { it->idx, true };
		pt_vec_push(&x->blocks, b);
		*v = x->blocks.n;
		alloc[gr] += pt_gmem_sat(g->bytes);
		if (gr == PT_GMEM_DEVICE && !g->pool_type)
			x->nonpool += pt_gmem_sat(g->bytes);
		r->allocs[gr]++;
		row.what = PT_GMEM_RS_ALLOC;
	} else if (g->op == PT_GMEM_RELEASE) {
		uint64_t *v = pt_hashmap_get(&x->open, key);
		if (!v || !x->blocks.v[*v - 1].open) {
			r->unmatched[gr]++;
			row.what = PT_GMEM_RS_UNMATCHED;
		} else {
			const struct pt_gpu_mem *old = pt_model_gpu_mem(m, &x->bc, x->blocks.v[*v - 1].rec);
			enum pt_gmem_group og = pt_gmem_group_of(old->mem_kind);
			if (old->bytes != g->bytes)
				r->mismatch[gr]++;
			alloc[og] -= pt_gmem_sat(old->bytes);
			if (og == PT_GMEM_DEVICE && !old->pool_type)
				x->nonpool -= pt_gmem_sat(old->bytes);
			x->blocks.v[*v - 1].open = false;
			r->releases[gr]++;
			row.what = PT_GMEM_RS_RELEASE;
			gr = og;
		}
	}
	row.allocated = clamp64(alloc[gr]);
	if (gr == PT_GMEM_DEVICE) {
		row.reserved = clamp64(x->nonpool + x->local_sum);
		row.nonpool = x->nonpool;
	}
	if (full) {
		r->any[gr] = true;
		if (row.what == PT_GMEM_RS_ALLOC || row.what == PT_GMEM_RS_RELEASE) {
			if (!r->has_peak[gr] || alloc[gr] > peak[gr]) {
				peak[gr] = alloc[gr];
				r->peak[gr] = row.allocated;
				r->peak_time[gr] = g->time;
				r->peak_pos[gr] = pos;
				r->has_peak[gr] = true;
			}
			if (gr == PT_GMEM_DEVICE && (!r->has_rpeak || x->nonpool + x->local_sum > x->rpeak)) {
				x->rpeak = x->nonpool + x->local_sum;
				r->rpeak = row.reserved;
				r->rpeak_time = g->time;
				r->has_rpeak = true;
			}
		}
		if (row.what != PT_GMEM_RS_IGNORED && r->row_fn)
			r->row_fn(r->row_ctx, &row, g);
		else if (row.what != PT_GMEM_RS_IGNORED)
			pt_vec_push(&r->rows, row);
	}
}

bool pt_gmem_run_some(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, size_t n)
{
	for (size_t k = 0; k < n && x->pos < r->nitems; k++)
		run_item(m, r, x);
	return x->pos < r->nitems;
}

void pt_gmem_run_end(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, int snap_group,
		     struct pt_gmem_u32vec *open_out)
{
	if (x->full) {
		__int128 live_bytes[PT_GMEM__N] = { 0 }; /* exact values of r->live_bytes_end */
		for (size_t i = 0; i < x->blocks.n; i++)
			if (x->blocks.v[i].open) {
				const struct pt_gpu_mem *g = pt_model_gpu_mem(m, &x->bc, x->blocks.v[i].rec);
				enum pt_gmem_group gr = pt_gmem_group_of(g->mem_kind);
				r->live_end[gr]++;
				live_bytes[gr] += pt_gmem_sat(g->bytes);
			}
		for (int gr = 0; gr < PT_GMEM__N; gr++)
			r->live_bytes_end[gr] = clamp64(live_bytes[gr]);
	}
	if (snap_group >= 0 && open_out)
		for (size_t i = 0; i < x->blocks.n; i++)
			if (x->blocks.v[i].open &&
			    (int)pt_gmem_group_of(pt_model_gpu_mem(m, &x->bc, x->blocks.v[i].rec)->mem_kind) == snap_group)
				pt_vec_push(open_out, x->blocks.v[i].rec);
	pt_vec_free(&x->blocks);
	pt_hashmap_free(&x->open);
	pt_hashmap_free(&x->pm);
	memset(x, 0, sizeof(*x));
}

/*
 * Replay device dev. stop/snap: when snap_group >= 0, stop after item
 * position `stop` and leave the open blocks of that group in *open_out.
 */
void pt_gmem_state_run(const struct pt_model *m, struct pt_gmem_state *r, bool full, size_t stop, int snap_group,
		       struct pt_gmem_u32vec *open_out)
{
	struct pt_gmem_run x;
	pt_gmem_run_begin(m, r, &x, full);
	pt_gmem_run_some(m, r, &x, snap_group >= 0 ? (stop < r->nitems ? stop + 1 : r->nitems) : r->nitems);
	pt_gmem_run_end(m, r, &x, snap_group, open_out);
}

void pt_gmem_state_init(const struct pt_model *m, uint32_t dev, struct pt_gmem_state *r)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	size_t n = 0;
	struct pt_gpu_mem_heads h; /* the packed rows after those of gpu_mem (gpu-mem-pack.h) */
	struct pt_gpu_mem_head x;
	for (size_t i = 0; i < m->gpu_mem.n; i++)
		n += m->gpu_mem.v[i].device == dev;
	pt_gpu_mem_heads_init(&h, m->gpu_mem_pack);
	while (pt_gpu_mem_heads_next(&h, &x))
		n += x.device == dev;
	for (size_t i = 0; i < m->gpu_pools.n; i++)
		n += m->gpu_pools.v[i].device == dev;
	r->items = pt_xmalloc((n + 1) * sizeof(*r->items));
	for (size_t i = 0; i < m->gpu_mem.n; i++)
		if (m->gpu_mem.v[i].device == dev)
			r->items[r->nitems++] = (struct pt_gmem_item){ m->gpu_mem.v[i].time,
							       m->gpu_mem.v[i].op == PT_GMEM_ALLOC, 0, (uint32_t)i };
	pt_gpu_mem_heads_init(&h, m->gpu_mem_pack);
	for (size_t i = m->gpu_mem.n; pt_gpu_mem_heads_next(&h, &x); i++)
		if (x.device == dev)
			r->items[r->nitems++] = (struct pt_gmem_item){ x.time, x.op == PT_GMEM_ALLOC, 0, (uint32_t)i };
	for (size_t i = 0; i < m->gpu_pools.n; i++)
		if (m->gpu_pools.v[i].device == dev)
			r->items[r->nitems++] = (struct pt_gmem_item){ m->gpu_pools.v[i].time, 0, 1, (uint32_t)i };
	pt_sort(r->items, r->nitems, sizeof(*r->items), cmp_item);
}

void pt_gmem_state_init_like(const struct pt_gmem_state *r, struct pt_gmem_state *out)
{
	memset(out, 0, sizeof(*out));
	out->dev = r->dev;
	out->items = r->items;
	out->nitems = r->nitems;
	out->items_borrowed = true;
}

void pt_gmem_state_free(struct pt_gmem_state *r)
{
	if (!r->items_borrowed)
		free(r->items);
	pt_vec_free(&r->rows);
	pt_vec_free(&r->pools);
	pt_vec_free(&r->pevs);
}

struct replay {
	void (*fn)(void *ctx, const struct pt_gmem_point *p);
	void *ctx;
};

static void replay_row(void *ctx, const struct pt_gmem_row *g, const struct pt_gpu_mem *rec)
{
	const struct replay *x = ctx;
	if (g->what != PT_GMEM_RS_ALLOC && g->what != PT_GMEM_RS_RELEASE)
		return;
	struct pt_gmem_point p = { g->rec, pt_gmem_group_of(rec->mem_kind), rec->time, g->allocated, g->reserved };
	x->fn(x->ctx, &p);
}

void pt_gmem_replay(const struct pt_model *m, uint32_t dev, void (*fn)(void *ctx, const struct pt_gmem_point *p),
			  void *ctx)
{
	struct pt_gmem_state r;
	pt_gmem_state_init(m, dev, &r);
	struct replay x = { fn, ctx };
	r.row_fn = replay_row; /* each row as it comes: none is kept */
	r.row_ctx = &x;
	pt_gmem_state_run(m, &r, true, 0, -1, NULL);
	pt_gmem_state_free(&r);
}
