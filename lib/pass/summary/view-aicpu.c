/* AI CPU (summary.md §3.10): AI CPU executions by name. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void view_aicpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	if (!r->ascend)
		return;
	struct items it;
	sum_items_init(&it);
	int64_t den = 0, n = 0;
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		if (a->device != r->dev)
			continue;
		bool times = a->has & PT_AICPU_HAS_TIMES;
		if (r->filtered && (!times || !member_at(r, a->start)))
			continue;
		uint32_t nm = sum_out_name(g, a->name, false);
		struct item *x = sum_items_get(&it, nm, nm);
		x->calls++;
		item_gpu(x, a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0);
		if (times && a->start < x->first)
			x->first = a->start;
		x->a += a->has & PT_AICPU_HAS_DISPATCH ? a->dispatch_ns : 0;
		x->b += times ? a->end - a->start : 0;
		den += a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0;
		n++;
	}
	sum_items_sort(g, it.v.v, it.v.n, VK_DEV);
	struct pt_table *x = sum_stext(r, sum_view_aicpu.name, NULL, true, multi);
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, "Total / Avg / Min / Max / Ratio(%)", 40, true, false);
	pt_table_add_text_col(x, "Dispatch Total / Avg", 20, true, false);
	pt_table_add_text_col(x, "Execution Total / Avg", 21, true, false);
	char c1[32], c2[256], c3[128], c4[128], a1[48], a2[48];
	struct sum_pick pick = sum_pick(g, it.v.v, it.v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->gpu_total);
		pt_table_set_int(t, row, 4, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 5, o->gpu_min);
		pt_table_set_int(t, row, 6, o->gpu_max);
		pt_table_set_double(t, row, 7, pct(o->gpu_total, den));
		pt_table_set_int(t, row, 8, o->a);
		pt_table_set_int(t, row, 9, ravg(o->a, o->calls));
		pt_table_set_int(t, row, 10, o->b);
		pt_table_set_int(t, row, 11, ravg(o->b, o->calls));
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		sum_fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		sum_ftime(g, a1, o->a);
		sum_favg(g, a2, o->a, o->calls);
		snprintf(c3, sizeof(c3), "%s / %s", a1, a2);
		sum_ftime(g, a1, o->b);
		sum_favg(g, a2, o->b, o->calls);
		snprintf(c4, sizeof(c4), "%s / %s", a1, a2);
		const char *cells[5] = { on, c1, c2, c3, c4 };
		pt_table_add_text_row(x, cells);
	}
	sum_items_free(&it);
	char b[160], tb[48];
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Total: AI CPU time of each execution as the device records it, dispatch included.");
	sum_ftime(g, tb, den);
	snprintf(b, sizeof(b), "AI CPU total time: %s %s in %" PRId64 " executions.", tb, sum_unit_name(g), n);
	pt_table_add_note(x, b);
	*tx = x;
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "dispatch_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "dispatch_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "exec_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "exec_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
}

const struct sum_view sum_view_aicpu = {
	.id = PT_SV_AICPU, .name = "aicpu", .flags = 0,
	.columns = columns, .emit = view_aicpu,
};
