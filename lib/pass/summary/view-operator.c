/* Operator (summary.md §3.5): framework ops (Ascend) or host operator ranges (GPU) with children and device rows. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void view_operator_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi);

static void view_operator(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	if (!r->ascend) {
		view_operator_gpu(r, t, tx, multi);
		return;
	}
	struct items *it = &r->asc->op; /* add() */
	int64_t den = r->asc->op_den;
	sum_items_sort(g, it->v.v, it->v.n, VK_TWO);
	char lab[32], grp[48];
	sum_dev_label(m, r->dev, lab);
	snprintf(grp, sizeof(grp), "Device: %s", lab);
	struct pt_table *x = sum_stext(r, sum_view_operator.name, NULL, true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb2), 40, true, false);
	pt_table_add_group(x, grp);
	char c0[4096], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	struct sum_pick pick = sum_pick(g, it->v.v, it->v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, lab);
		sum_setstr(t, row, 2, "op");
		sum_setstr(t, row, 3, on);
		sum_setstr(t, row, 5, on);
		pt_table_set_int(t, row, 6, o->calls);
		sum_dblock(t, row, 12, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c0, sizeof(c0), "%s", on);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		sum_fblock(g, c2, false, 0, 0, 0, 0, 0);
		sum_fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		pt_table_add_text_row(x, cells);
		sum_items_sort_first(g, o->sub.v, o->sub.n);
		for (size_t j = 0; j < o->sub.n; j++) {
			struct item *s = &o->sub.v[j];
			const char *sn = out_str(g, s->name);
			row = sum_row0(t, r);
			sum_setstr(t, row, 1, lab);
			sum_setstr(t, row, 2, "device");
			sum_setstr(t, row, 3, on);
			sum_setstr(t, row, 5, sn);
			pt_table_set_int(t, row, 6, s->calls);
			sum_dblock(t, row, 12, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			snprintf(c0, sizeof(c0), "  %s", sn);
			snprintf(c1, sizeof(c1), "%" PRId64, s->calls);
			sum_fblock(g, c3, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			pt_table_add_text_row(x, cells);
		}
	}
	*tx = x;
}

static void view_operator_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct groups gs;
	struct items it;
	if (r->hs) { /* streamed: the host read's items and groups (stream-host.c) */
		gs = r->hs->gs;
		it = r->hs->op;
		memset(&r->hs->gs, 0, sizeof(r->hs->gs));
		sum_items_init(&r->hs->op);
	} else {
		sum_groups_init(&gs, r);
		sum_items_init(&it);
	}
	/* member operators, and which ranges lie in one (for the GPU denominator) */
	uint8_t *inop = pt_xcalloc(r->nhr + 1, 1);
	for (size_t q = 0; q < r->nhr; q++) {
		uint32_t k = r->by_depth[q];
		const struct hr *h = &r->hr[k];
		bool mo = h->type == HT_OPERATOR && member_at(r, h->s);
		inop[k] = mo || (h->parent && inop[h->parent - 1]);
	}
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (h->type != HT_OPERATOR || !member_at(r, h->s))
			continue;
		uint32_t gi = sum_group_of(&gs, r, h->track);
		struct grp *gr = &gs.v.v[gi];
		if (h->s < gr->first)
			gr->first = h->s;
		struct item *x = sum_items_get(&it, ((uint64_t)gi << 32) | h->name, h->name);
		x->d = gi;
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu);
		if (h->s < x->first)
			x->first = h->s;
		if (!g->o->op_detail)
			continue;
		for (uint32_t q = r->kid_off[k]; q < r->kid_off[k + 1]; q++) {
			uint32_t c = r->kid[q];
			const struct hr *ch = &r->hr[c];
			struct item *s = sum_sub_get(x, ch->name, 0);
			s->calls++;
			item_cpu(s, ch->e - ch->s);
			item_gpu(s, ch->gpu);
			if (ch->s < s->first)
				s->first = ch->s;
			sum_act_rows(g, r, s, c, 1);
		}
		sum_act_rows(g, r, x, k, 1);
	}
	for (size_t i = 0; i < ev->n && !r->hs; i++) {
		if (!is_dev_activity(ev->kind[i]) || !in_rank(r, i))
			continue;
		uint32_t h = hr_of_act(r, i);
		if (h && inop[h - 1])
			gs.v.v[sum_group_of(&gs, r, r->hr[h - 1].track)].gpu_den += ev->dur[i];
	}
	free(inop);
	/* each group's CPU denominator: the union of its member operators, taken in start order */
	struct sruns hs;
	sum_sruns_ranges(&hs, r);
	for (uint32_t k; (k = sum_sruns_next_range(&hs, r->hr)) != UINT32_MAX;) {
		const struct hr *h = &r->hr[k];
		if (h->type != HT_OPERATOR || !member_at(r, h->s) || h->e <= h->s)
			continue; /* an empty range adds nothing and bridges nothing (pt_ivset_build) */
		struct urun *u = &gs.v.v[sum_group_of(&gs, r, h->track)].cpu;
		if (u->open && h->s <= u->ce) {
			u->ce = h->e > u->ce ? h->e : u->ce;
			continue;
		}
		if (u->open)
			u->total += u->ce - u->cs;
		*u = (struct urun){ .cs = h->s, .ce = h->e, .total = u->total, .open = true };
	}
	free(hs.v);
	sum_groups_order(&gs);
	struct pt_table *x = sum_stext(r, sum_view_operator.name, NULL, true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb2), 40, true, false);
	char c0[4096], c1[32], c2[256], c3[256], title[64], key[32];
	const char *cells[4] = { c0, c1, c2, c3 };
	for (size_t gk = 0; gk < gs.v.n; gk++) {
		uint32_t gi = gs.order[gk];
		struct grp *gr = &gs.v.v[gi];
		gr->cpu_den = gr->cpu.total + (gr->cpu.open ? gr->cpu.ce - gr->cpu.cs : 0);
		size_t n;
		struct item *v = sum_group_items(g, &it, gi, &n, VK_TWO);
		sum_group_label(r, gr, title, key);
		pt_table_add_group(x, title);
		struct sum_pick pick = sum_pick(g, v, n);
		for (struct item *o; (o = sum_pick_next(&pick));) {
			const char *on = out_str(g, o->name);
			size_t row = sum_row0(t, r);
			sum_setstr(t, row, 1, key);
			sum_setstr(t, row, 2, "op");
			sum_setstr(t, row, 3, on);
			sum_setstr(t, row, 5, on);
			pt_table_set_int(t, row, 6, o->calls);
			sum_dblock(t, row, 7, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, gr->cpu_den);
			sum_dblock(t, row, 12, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, gr->gpu_den);
			snprintf(c0, sizeof(c0), "%s", on);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			sum_fblock(g, c2, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, gr->cpu_den);
			sum_fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, gr->gpu_den);
			pt_table_add_text_row(x, cells);
			sum_items_sort_first(g, o->sub.v, o->sub.n);
			/* children first, then the item's own device rows */
			for (int pass = 0; pass < 2; pass++)
				for (size_t j = 0; j < o->sub.n; j++) {
					struct item *s = &o->sub.v[j];
					if (s->b != pass)
						continue;
					const char *sn = out_str(g, s->name);
					row = sum_row0(t, r);
					sum_setstr(t, row, 1, key);
					sum_setstr(t, row, 2, pass ? "device" : "child");
					sum_setstr(t, row, 3, on);
					if (!pass)
						sum_setstr(t, row, 4, sn);
					sum_setstr(t, row, 5, sn);
					pt_table_set_int(t, row, 6, s->calls);
					if (!pass)
						sum_dblock(t, row, 7, true, s->calls, s->cpu_total, s->cpu_max, s->cpu_min,
						       o->cpu_total);
					sum_dblock(t, row, 12, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min,
					       o->gpu_total);
					snprintf(c0, sizeof(c0), "  %s", sn);
					snprintf(c1, sizeof(c1), "%" PRId64, s->calls);
					sum_fblock(g, c2, !pass, s->calls, s->cpu_total, s->cpu_max, s->cpu_min, o->cpu_total);
					sum_fblock(g, c3, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
					pt_table_add_text_row(x, cells);
					if (pass)
						continue;
					sum_items_sort_first(g, s->sub.v, s->sub.n);
					for (size_t q = 0; q < s->sub.n; q++) {
						struct item *d = &s->sub.v[q];
						const char *dn = out_str(g, d->name);
						row = sum_row0(t, r);
						sum_setstr(t, row, 1, key);
						sum_setstr(t, row, 2, "device");
						sum_setstr(t, row, 3, on);
						sum_setstr(t, row, 4, sn);
						sum_setstr(t, row, 5, dn);
						pt_table_set_int(t, row, 6, d->calls);
						sum_dblock(t, row, 12, true, d->calls, d->gpu_total, d->gpu_max, d->gpu_min,
						       s->gpu_total);
						snprintf(c0, sizeof(c0), "    %s", dn);
						snprintf(c1, sizeof(c1), "%" PRId64, d->calls);
						sum_fblock(g, c2, false, 0, 0, 0, 0, 0);
						sum_fblock(g, c3, true, d->calls, d->gpu_total, d->gpu_max, d->gpu_min,
						       s->gpu_total);
						pt_table_add_text_row(x, cells);
					}
				}
		}
		free(v);
	}
	sum_items_free(&it);
	sum_groups_free(&gs);
	*tx = x;
}

/* The operator view's sums: the member tasks of an Ascend rank with a framework op, per op and
 * (--op-detail) per task. */
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
		struct item *x;
		if (a->op_raw[ev->name[i]]) {
			x = &a->op.v.v[a->op_raw[ev->name[i]] - 1];
		} else {
			uint32_t nm = sum_out_name(g, ev->name[i], false);
			x = sum_items_get(&a->op, nm, nm);
			a->op_raw[ev->name[i]] = (uint32_t)(x - a->op.v.v) + 1;
		}
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		a->op_den += ev->dur[i];
		if (g->o->op_detail) {
			/* task rows: few task keys per op, linear search from the last hit */
			uint64_t key = sum_task_key(m, i);
			struct item *s = NULL;
			for (size_t k = x->sub.n; k-- > 0;)
				if ((uint64_t)x->sub.v[k].a == key) {
					s = &x->sub.v[k];
					break;
				}
			if (!s) {
				struct item y = { 0 };
				y.name = sum_task_name(g, i);
				y.a = (int64_t)key;
				y.first = INT64_MAX;
				pt_vec_push(&x->sub, y);
				s = &x->sub.v[x->sub.n - 1];
			}
			s->calls++;
			item_gpu(s, ev->dur[i]);
			if (ev->start[i] < s->first)
				s->first = ev->start[i];
		}
	}
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "op_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "child_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	sum_add_block_cols(t, "cpu");
	sum_add_block_cols(t, "device");
	pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
}

const struct sum_view sum_view_operator = {
	.id = PT_SV_OPERATOR, .name = "operator", .flags = SV_DEFAULT,
	.columns = columns, .emit = view_operator, .add = add,
};
