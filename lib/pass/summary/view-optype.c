/* Operator type (summary.md §3.9): Ascend tasks by the type of their op. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void view_optype(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	if (!r->ascend)
		return;
	struct items *it = &r->asc->ty; /* add() */
	int64_t den = r->asc->ty_den;
	sum_items_sort(g, it->v.v, it->v.n, VK_DEV);
	struct pt_table *x = sum_stext(r, sum_view_optype.name, NULL, true, multi);
	char hb[96];
	pt_table_add_text_col(x, "Op Type", 40, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, "Ops", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb), 40, true, false);
	char c1[32], c2[32], c3[256];
	struct sum_pick pick = sum_pick(g, it->v.v, it->v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->a);
		sum_dblock(t, row, 4, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		snprintf(c2, sizeof(c2), "%" PRId64, o->a);
		sum_fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		const char *cells[4] = { *on ? on : "<unknown>", c1, c2, c3 };
		pt_table_add_text_row(x, cells);
	}
	*tx = x;
}

/* The optype view's sums: the member tasks of an Ascend rank with a framework op, per op type. */
static void add(struct rank *r, const struct sum_batch *b)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct asc *a = r->asc;
	if (!r->ascend)
		return;
	for (size_t q = 0; q < b->n[SB_MEM]; q++) {
		uint32_t i = b->v[SB_MEM][q];
		if (ev->kind[i] != PT_EV_TASK || !ev->op[i])
			continue;
		uint32_t ty = sum_out_name(g, m->ops.v[ev->op[i] - 1].type, false);
		struct item *x = sum_items_get(&a->ty, ty, ty);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		a->ty_den += ev->dur[i];
		bool added = false;
		pt_hashmap_put(&a->ty_seen, ((uint64_t)ty << 32) | ev->name[i], 1, &added);
		x->a += added;
	}
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "op_type", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	sum_add_block_cols(t, "device");
}

const struct sum_view sum_view_optype = {
	.id = PT_SV_OPTYPE, .name = "optype", .flags = 0,
	.columns = columns, .emit = view_optype, .add = add,
};
