/* Kernel (summary.md §3.6): device kernels and tasks by name. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

/* Kernel view: add kernel i (member) to its item; raw2item: raw name id -> item + 1. */
static void kernel_add(struct rank *r, struct items *it, int64_t *den, uint32_t *raw2item, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct item *x;
	if (ev->name[i] && raw2item[ev->name[i]]) {
		x = &it->v.v[raw2item[ev->name[i]] - 1];
	} else if (ev->name[i]) {
		uint32_t nm = sum_out_name(g, ev->name[i], false);
		x = sum_items_get(it, nm, nm);
		raw2item[ev->name[i]] = (uint32_t)(x - it->v.v) + 1;
	} else if (r->ascend) {
		/* unnamed task: keyed by (stream, task); the name is made once per key */
		uint64_t key = sum_task_key(m, i) | (1ull << 63);
		uint64_t *p = pt_hashmap_get(&it->map, key);
		x = p ? &it->v.v[*p] : sum_items_get(it, key, sum_task_name(g, i));
	} else {
		uint32_t nm = out_intern(g, "<unnamed>", 9);
		x = sum_items_get(it, nm, nm);
	}
	x->calls++;
	item_gpu(x, ev->dur[i]);
	sum_item_dur(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	*den += ev->dur[i];
}

static void view_kernel(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct items own, *it = &own;
	int64_t den = 0;
	if (r->asc) {
		it = &r->asc->kn; /* add() */
		den = r->asc->kn_den;
	} else {
		sum_items_init(&own);
		uint32_t *raw2item = pt_xcalloc(m->strings.n + 1, sizeof(*raw2item));
		for (size_t i = 0; i < ev->n; i++)
			if (is_kernel(ev->kind[i]) && in_rank(r, i) && member(r, i))
				kernel_add(r, &own, &den, raw2item, i);
		free(raw2item);
	}
	sum_items_sort(g, it->v.v, it->v.n, VK_DEV);
	struct pt_table *x = sum_stext(r, sum_view_kernel.name, NULL, true, multi);
	char hb[96];
	pt_table_add_text_col(x, "Name", 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb), 40, true, false);
	pt_table_add_text_col(x, "Median", 0, true, false);
	char c1[32], c2[256], c3[48];
	struct sum_pick pick = sum_pick(g, it->v.v, it->v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		int64_t med = sum_item_median(o);
		pt_table_set_int(t, row, 3, o->gpu_total);
		pt_table_set_int(t, row, 4, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 5, med);
		pt_table_set_int(t, row, 6, o->gpu_min);
		pt_table_set_int(t, row, 7, o->gpu_max);
		pt_table_set_double(t, row, 8, pct(o->gpu_total, den));
		/* the name as CSV and JSON give it: one name form in every format (issue #25 point 8; text
		 * shortens it only for width, unless --wide), so no template shortening (summary.md §3.6) */
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		sum_fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		sum_ftime(g, c3, med);
		const char *cells[4] = { on, c1, c2, c3 };
		pt_table_add_text_row(x, cells);
	}
	if (it == &own)
		sum_items_free(&own);
	*tx = x;
}

/* The kernel view's sums: the member kernels of an Ascend or a streamed GPU rank. */
static void add(struct rank *r, const struct sum_batch *b)
{
	const struct pt_events *ev = &r->g->m->events;
	struct asc *a = r->asc;
	for (size_t k = 0; k < b->n[SB_MEM]; k++)
		if (is_kernel(ev->kind[b->v[SB_MEM][k]]))
			kernel_add(r, &a->kn, &a->kn_den, a->kn_raw, b->v[SB_MEM][k]);
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	/* the block of the other views with the median after the mean */
	pt_table_add_col(t, "device_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_median", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_min", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

const struct sum_view sum_view_kernel = {
	.id = PT_SV_KERNEL, .name = "kernel", .flags = SV_DEFAULT | SV_FLAT,
	.columns = columns, .emit = view_kernel, .add = add,
};
