/* Memcpy (summary.md §3.7): host copy calls and ranges, device copies and fills. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void fbw(char *b, bool has, int64_t bytes, int64_t ns)
{
	if (!has || !ns)
		strcpy(b, "-");
	else
		snprintf(b, 48, "%.2f", (double)bytes / (double)ns);
}

/* A device copy or fill i of the rank: its time and bytes to its launching call's sums, and when a
 * member to its item. */
static void copy_add(struct rank *r, struct mcacc *a, size_t i, bool mem)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	const struct pt_copy_info *ci = sum_copy_info(g, i);
	int64_t s, e;
	uint64_t k = launch_of(r, i, &s, &e);
	if (k && a->sums) {
		size_t lo = 0, hi = a->calls.n; /* the calls in key order */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (a->calls.v[mid].key < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < a->calls.n && a->calls.v[lo].key == k) {
			a->sums[lo][0] += ev->dur[i];
			if (ci)
				a->sums[lo][1] = (a->sums[lo][1] ? a->sums[lo][1] : 1) + (int64_t)ci->bytes;
		}
	} else if (k && !(r->hs && g->scan && g->scan->hs)) { /* (with the host read: call_add) */
		*pt_hashmap_put(&a->api_gpu, k, 0, NULL) += (uint64_t)ev->dur[i];
		if (ci)
			*pt_hashmap_put(&a->api_bytes, k, 1, NULL) += ci->bytes;
	}
	if (!mem)
		return;
	uint32_t nm = sum_copy_name(g, i);
	struct item *x = sum_items_get(&a->dev, nm, nm);
	x->calls++;
	item_gpu(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	if (ci) {
		x->a += (int64_t)ci->bytes;
		x->c = 1;
	}
}

bool sum_mc_copier(struct ctx *g, struct mcacc *a, uint32_t raw)
{
	if (!a->copier) {
		a->nraw = g->m->strings.n;
		a->copier = pt_xcalloc(a->nraw + 1, 1);
	}
	uint8_t *c = raw < a->nraw ? &a->copier[raw] : NULL;
	if (c && *c)
		return *c == 2;
	const char *s = out_str(g, sum_out_name(g, raw, true));
	bool yes = strcasestr(s, "memcpy") || strcasestr(s, "memset");
	if (c)
		*c = yes ? 2 : 1;
	return yes;
}

/* A member runtime call i of the rank: kept when it copies or fills and lies in no memory range. */
static void call_add(struct rank *r, struct mcacc *a, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	uint32_t raw = ev->name[i];
	uint32_t nm = sum_out_name(g, raw, true);
	if (!sum_mc_copier(g, a, raw))
		return;
	uint32_t h = g->link ? g->link[i] : 0;
	if (h && r->hr[h - 1].mem_anc)
		return;
	if (r->hs && sum_hsv_left_out(r->hs, g->base + i)) /* streamed: the host read's attachment */
		return;
	if (r->hs && g->scan && g->scan->hs) {
		/* streamed with the host read: the read of the calls summed the copies of each call (its
		 * unit's), so the call is a host item now, after the ranges' (the order view_memcpy adds
		 * them in), and no call waits for its copies */
		struct item *x = sum_items_get(&r->hs->mc, nm, nm);
		int64_t t = 0, b = 0;
		sum_hs_call_copies(g->scan->hs, g->m, i, g->base + i, &t, &b);
		x->calls++;
		item_cpu(x, ev->dur[i]);
		item_gpu(x, t);
		if (b) {
			x->a += b - 1;
			x->c = 1;
		}
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		return;
	}
	struct mcall x = { event_key(g, i), nm, ev->dur[i], ev->start[i] };
	pt_vec_push(&a->calls, x);
}

void sum_mcacc_free(struct mcacc *a)
{
	if (!a)
		return;
	sum_items_free(&a->dev);
	pt_hashmap_free(&a->api_gpu);
	pt_hashmap_free(&a->api_bytes);
	pt_vec_free(&a->calls);
	free(a->sums);
	free(a->copier);
}

void sum_mcacc_init(struct mcacc *a)
{
	memset(a, 0, sizeof(*a));
	sum_items_init(&a->dev);
	pt_hashmap_init(&a->api_gpu);
	pt_hashmap_init(&a->api_bytes);
}

static void view_memcpy(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (r->ascend)
		return;
	struct mcacc own, *a = &own;
	if (r->asc) {
		a = r->asc->mc; /* add() */
	} else {
		/* the calls first (in model order: by key), then the copies' sums into theirs */
		sum_mcacc_init(&own);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && in_rank(r, i) && member(r, i))
				call_add(r, &own, i);
		own.sums = pt_xcalloc(own.calls.n + 1, sizeof(*own.sums));
		for (size_t i = 0; i < ev->n; i++) {
			uint8_t k = ev->kind[i];
			if ((k == PT_EV_MEMCPY || k == PT_EV_MEMSET) && in_rank(r, i))
				copy_add(r, &own, i, member(r, i));
		}
	}
	struct items host, *dev = &a->dev;
	if (r->hs) { /* streamed: the host read's memory-manipulation ranges (stream-host-views.c) */
		host = r->hs->mc;
		sum_items_init(&r->hs->mc);
	} else {
		sum_items_init(&host);
	}
	int64_t G = r->G;
	/* (a) memory-manipulation ranges */
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (!h->memname || !member_at(r, h->s))
			continue;
		struct item *x = sum_items_get(&host, h->name, h->name);
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu_mem);
		x->a += h->bytes;
		x->c |= h->has_bytes;
		if (h->s < x->first)
			x->first = h->s;
	}
	/* (b) runtime copy calls outside (a) ranges */
	for (size_t k = 0; k < a->calls.n; k++) {
		const struct mcall *c = &a->calls.v[k];
		struct item *x = sum_items_get(&host, c->name, c->name);
		x->calls++;
		item_cpu(x, c->dur);
		if (a->sums) {
			item_gpu(x, a->sums[k][0]);
			if (a->sums[k][1]) {
				x->a += a->sums[k][1] - 1;
				x->c = 1;
			}
		} else {
			uint64_t *gsum = pt_hashmap_get(&a->api_gpu, c->key);
			item_gpu(x, gsum ? (int64_t)*gsum : 0);
			uint64_t *bs = pt_hashmap_get(&a->api_bytes, c->key);
			if (bs) {
				x->a += (int64_t)(*bs - 1);
				x->c = 1;
			}
		}
		if (c->start < x->first)
			x->first = c->start;
	}
	sum_items_sort(g, host.v.v, host.v.n, VK_TWO);
	sum_items_sort(g, dev->v.v, dev->v.n, VK_DEV);
	size_t longest = 4;
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? dev : &host;
		for (size_t k = 0; k < it->v.n; k++) {
			size_t l = strlen(out_str(g, it->v.v[k].name));
			if (l > longest)
				longest = l;
		}
	}
	struct pt_table *x = sum_stext(r, sum_view_memcpy.name, NULL, true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", longest < 90 ? longest : 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb2), 40, true, false);
	pt_table_add_text_col(x, "Bytes", 0, true, false);
	pt_table_add_text_col(x, "Bandwidth (GB/s)", 0, true, false);
	char c1[32], c2[256], c3[256], c4[48], c5[48];
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? dev : &host;
		if (!it->v.n)
			continue;
		pt_table_add_group(x, grp ? "Device copies and fills" : "Host calls");
		struct sum_pick pick = sum_pick(g, it->v.v, it->v.n);
		for (struct item *o; (o = sum_pick_next(&pick));) {
			const char *on = out_str(g, o->name);
			size_t row = sum_row0(t, r);
			sum_setstr(t, row, 1, grp ? "device" : "host");
			sum_setstr(t, row, 2, on);
			pt_table_set_int(t, row, 3, o->calls);
			sum_dblock(t, row, 4, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			sum_dblock(t, row, 9, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			if (o->c) {
				pt_table_set_int(t, row, 14, o->a);
				if (o->gpu_total)
					pt_table_set_double(t, row, 15, (double)o->a / (double)o->gpu_total);
				snprintf(c4, sizeof(c4), "%" PRId64, o->a);
			} else {
				strcpy(c4, "-");
			}
			fbw(c5, o->c, o->a, o->gpu_total);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			sum_fblock(g, c2, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			sum_fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			const char *cells[6] = { on, c1, c2, c3, c4, c5 };
			pt_table_add_text_row(x, cells);
		}
	}
	sum_items_free(&host);
	if (a == &own)
		sum_mcacc_free(&own);
	*tx = x;
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	sum_add_block_cols(t, "cpu");
	sum_add_block_cols(t, "device");
	pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "bandwidth_gbps", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

/* The memcpy view's sums: the device copies and fills and the member runtime calls of a streamed GPU rank. */
static void add(struct rank *r, const struct sum_batch *b)
{
	if (r->ascend)
		return;
	const struct pt_events *ev = &r->g->m->events;
	/* every copy of the rank goes to its call's sums; SB_MEM lists the members among SB_DEV, in order */
	for (size_t k = 0, j = 0; k < b->n[SB_DEV]; k++) {
		uint32_t i = b->v[SB_DEV][k];
		bool mem = j < b->n[SB_MEM] && b->v[SB_MEM][j] == i;
		j += mem;
		if (ev->kind[i] == PT_EV_MEMCPY || ev->kind[i] == PT_EV_MEMSET)
			copy_add(r, r->asc->mc, i, mem);
	}
	for (size_t k = 0; k < b->n[SB_MAPI]; k++)
		call_add(r, r->asc->mc, b->v[SB_MAPI][k]);
}

const struct sum_view sum_view_memcpy = {
	.id = PT_SV_MEMCPY, .name = "memcpy", .flags = SV_LAUNCH,
	.columns = columns, .emit = view_memcpy, .add = add,
};
