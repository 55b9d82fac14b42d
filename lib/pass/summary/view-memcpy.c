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

static void view_memcpy(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (r->ascend)
		return;
	struct items host, dev;
	sum_items_init(&host);
	sum_items_init(&dev);
	struct pt_hashmap api_gpu, api_bytes; /* API event -> copy time / bytes + 1 it launched */
	pt_hashmap_init(&api_gpu);
	pt_hashmap_init(&api_bytes);
	int64_t G = r->G;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if ((k != PT_EV_MEMCPY && k != PT_EV_MEMSET) || !in_rank(r, i))
			continue;
		const struct pt_copy_info *ci = sum_copy_info(m, (uint32_t)i);
		uint32_t a = api_of(r, i);
		if (a) {
			*pt_hashmap_put(&api_gpu, a, 0, NULL) += (uint64_t)ev->dur[i];
			if (ci)
				*pt_hashmap_put(&api_bytes, a, 1, NULL) += ci->bytes;
		}
		if (!member(r, i))
			continue;
		uint32_t nm = sum_copy_name(g, i);
		struct item *x = sum_items_get(&dev, nm, nm);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		if (ci) {
			x->a += (int64_t)ci->bytes;
			x->c = 1;
		}
	}
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
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t nm = sum_out_name(g, ev->name[i], true);
		const char *s = out_str(g, nm);
		if (!strcasestr(s, "memcpy") && !strcasestr(s, "memset"))
			continue;
		uint32_t h = g->link ? g->link[i] : 0;
		if (h && r->hr[h - 1].mem_anc)
			continue;
		struct item *x = sum_items_get(&host, nm, nm);
		x->calls++;
		item_cpu(x, ev->dur[i]);
		uint64_t *gsum = pt_hashmap_get(&api_gpu, i + 1);
		item_gpu(x, gsum ? (int64_t)*gsum : 0);
		uint64_t *bs = pt_hashmap_get(&api_bytes, i + 1);
		if (bs) {
			x->a += (int64_t)(*bs - 1);
			x->c = 1;
		}
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
	}
	pt_hashmap_free(&api_gpu);
	pt_hashmap_free(&api_bytes);
	sum_items_sort(g, host.v.v, host.v.n, VK_TWO);
	sum_items_sort(g, dev.v.v, dev.v.n, VK_DEV);
	size_t longest = 4;
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? &dev : &host;
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
		struct items *it = grp ? &dev : &host;
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
	sum_items_free(&dev);
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

const struct sum_view sum_view_memcpy = {
	.id = PT_SV_MEMCPY, .name = "memcpy", .flags = SV_LINKS,
	.columns = columns, .emit = view_memcpy,
};
