/* API (summary.md §3.11): runtime and driver API calls by name. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

/* API view: add call i (a member) to its item. */
static void api_add(struct ctx *g, struct items *it, int64_t *den, size_t i)
{
	const struct pt_events *ev = &g->m->events;
	uint32_t nm = sum_out_name(g, ev->name[i], true);
	struct item *x = sum_items_get(it, nm, nm);
	x->calls++;
	item_cpu(x, ev->dur[i]);
	sum_item_dur(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	*den += ev->dur[i];
}

static void view_api(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	if (r->ascend)
		return;
	struct items own, *itp = &own;
	int64_t den = 0;
	if (r->asc) { /* streamed: add() */
		itp = &r->asc->api;
		den = r->asc->api_den;
	} else {
		sum_items_init(&own);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && in_rank(r, i) && member(r, i))
				api_add(g, &own, &den, i);
	}
	struct items it = *itp;
	sum_items_sort(g, it.v.v, it.v.n, VK_API);
	struct pt_table *x = sum_stext(r, sum_view_api.name, NULL, true, multi);
	const char *heads[] = { "Time(%)", "Time", "Calls", "Avg", "Median", "Min", "Max" };
	for (int c = 0; c < 7; c++)
		pt_table_add_text_col(x, heads[c], 0, true, false);
	pt_table_add_text_col(x, "Name", (size_t)sum_name_width(g, it.v.v, it.v.n), false, true);
	char cb[7][48];
	struct sum_pick pick = sum_pick(g, it.v.v, it.v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->cpu_total);
		pt_table_set_int(t, row, 4, ravg(o->cpu_total, o->calls));
		int64_t med = sum_item_median(o);
		pt_table_set_int(t, row, 5, med);
		pt_table_set_int(t, row, 6, o->cpu_min);
		pt_table_set_int(t, row, 7, o->cpu_max);
		pt_table_set_double(t, row, 8, pct(o->cpu_total, den));
		sum_fpct(cb[0], o->cpu_total, den);
		sum_ftime(g, cb[1], o->cpu_total);
		sum_fnum(cb[2], o->calls);
		sum_favg(g, cb[3], o->cpu_total, o->calls);
		sum_ftime(g, cb[4], med);
		sum_ftime(g, cb[5], o->cpu_min);
		sum_ftime(g, cb[6], o->cpu_max);
		const char *cells[8] = { cb[0], cb[1], cb[2], cb[3], cb[4], cb[5], cb[6], on };
		pt_table_add_text_row(x, cells);
	}
	if (itp == &own)
		sum_items_free(&own);
	*tx = x;
}

/* The api view's sums: the member API calls of a streamed GPU rank. */
static void add(struct rank *r, const struct sum_batch *b)
{
	struct asc *a = r->asc;
	if (r->ascend)
		return;
	for (size_t k = 0; k < b->n[SB_MAPI]; k++)
		api_add(r->g, &a->api, &a->api_den, b->v[SB_MAPI][k]);
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "median", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

const struct sum_view sum_view_api = {
	.id = PT_SV_API, .name = "api", .flags = SV_FLAT,
	.columns = columns, .emit = view_api, .add = add,
};
