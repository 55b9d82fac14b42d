/* UserDefined (summary.md §3.8): user ranges by thread group. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void view_userdefined(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	if (r->ascend)
		return;
	struct groups gs;
	struct items it;
	size_t longest = 4;
	if (r->hs) { /* streamed: the host read's items and groups (stream-host-views.c) */
		gs = r->hs->ugs;
		it = r->hs->ud;
		memset(&r->hs->ugs, 0, sizeof(r->hs->ugs));
		sum_items_init(&r->hs->ud);
		for (size_t k = 0; k < it.v.n; k++) {
			size_t l = strlen(out_str(g, it.v.v[k].name));
			if (l > longest)
				longest = l;
		}
	} else {
		sum_groups_init(&gs, r);
		sum_items_init(&it);
	}
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (h->type != HT_USERRANGE || h->memname || !member_at(r, h->s))
			continue;
		uint32_t gi = sum_group_of(&gs, r, h->track);
		if (h->s < gs.v.v[gi].first)
			gs.v.v[gi].first = h->s;
		struct item *x = sum_items_get(&it, ((uint64_t)gi << 32) | h->name, h->name);
		x->d = gi;
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu);
		if (h->s < x->first)
			x->first = h->s;
		size_t l = strlen(out_str(g, h->name));
		if (l > longest)
			longest = l;
	}
	sum_groups_order(&gs);
	struct pt_table *x = sum_stext(r, sum_view_userdefined.name, NULL, true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", longest < 90 ? longest : 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb2), 40, true, false);
	char c1[32], c2[256], c3[256], title[64], key[32];
	for (size_t gk = 0; gk < gs.v.n; gk++) {
		uint32_t gi = gs.order[gk];
		size_t n;
		struct item *v = sum_group_items(g, &it, gi, &n, VK_TWO);
		if (!n) {
			free(v);
			continue;
		}
		sum_group_label(r, &gs.v.v[gi], title, key);
		pt_table_add_group(x, title);
		struct sum_pick pick = sum_pick(g, v, n);
		for (struct item *o; (o = sum_pick_next(&pick));) {
			const char *on = out_str(g, o->name);
			size_t row = sum_row0(t, r);
			sum_setstr(t, row, 1, key);
			sum_setstr(t, row, 2, on);
			pt_table_set_int(t, row, 3, o->calls);
			sum_dblock(t, row, 4, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			sum_dblock(t, row, 9, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, r->G);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			sum_fblock(g, c2, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			sum_fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, r->G);
			const char *cells[4] = { on, c1, c2, c3 };
			pt_table_add_text_row(x, cells);
		}
		free(v);
	}
	sum_items_free(&it);
	sum_groups_free(&gs);
	*tx = x;
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	sum_add_block_cols(t, "cpu");
	sum_add_block_cols(t, "device");
}

const struct sum_view sum_view_userdefined = {
	.id = PT_SV_USERDEFINED, .name = "userdefined", .flags = 0,
	.columns = columns, .emit = view_userdefined,
};
