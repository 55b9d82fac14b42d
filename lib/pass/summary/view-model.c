/* Model (summary.md §3.3): steps and their phases, CPU and device time. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void model_emit(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi, struct item *st,
		       struct item *ph, const char *const *lab, int nph, int64_t others_cpu, int64_t others_gpu,
		       int64_t G, int64_t unattr_n, int64_t unattr_t)
{
	struct ctx *g = r->g;
	struct pt_table *x = sum_stext(r, sum_view_model.name, NULL, true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 15, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, sum_block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, sum_block_head(r, false, hb2), 40, true, false);
	char c0[64], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	for (int p = -1; p < nph; p++) {
		struct item *it = p < 0 ? st : &ph[p];
		const char *name = p < 0 ? (r->span ? "Span" : "ProfileStep") : lab[p];
		if (p >= 0 && !it->calls)
			continue;
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, name);
		pt_table_set_int(t, row, 2, it->calls);
		sum_dblock(t, row, 3, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		sum_dblock(t, row, 8, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		snprintf(c0, sizeof(c0), "%s%s", p < 0 ? "" : "  ", name);
		snprintf(c1, sizeof(c1), "%" PRId64, it->calls);
		sum_fblock(g, c2, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		sum_fblock(g, c3, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		pt_table_add_text_row(x, cells);
	}
	size_t row = sum_row0(t, r);
	sum_setstr(t, row, 1, "Others");
	pt_table_set_int(t, row, 3, others_cpu);
	pt_table_set_double(t, row, 7, pct(others_cpu, r->Wlen));
	pt_table_set_int(t, row, 8, others_gpu);
	pt_table_set_double(t, row, 12, pct(others_gpu, G));
	char a[48], b[48];
	snprintf(c0, sizeof(c0), "  Others");
	strcpy(c1, "-");
	sum_ftime(g, a, others_cpu);
	sum_fpct(b, others_cpu, r->Wlen);
	snprintf(c2, sizeof(c2), "%s / - / - / - / %s", a, b);
	sum_ftime(g, a, others_gpu);
	sum_fpct(b, others_gpu, G);
	snprintf(c3, sizeof(c3), "%s / - / - / - / %s", a, b);
	pt_table_add_text_row(x, cells);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "GPU time is the plain sum of all device activity (kernels, copies, fills) launched inside the phase;");
	pt_table_add_note(x, "activity on parallel streams is added, not merged.");
	pt_table_add_note(x, "Others: step time covered by no phase, and device time launched in a step outside every phase.");
	if (unattr_n) {
		char nb[200];
		sum_ftime(g, a, unattr_t);
		snprintf(nb, sizeof(nb), "Unattributed device activity (no launching host range): %" PRId64
			 " activities, %s %s in total.", unattr_n, a, sum_unit_name(g));
		pt_table_add_note(x, nb);
	}
	*tx = x;
}

static void view_model_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct item st = { 0 }, ph[4];
	memset(ph, 0, sizeof(ph));
	struct ivl cover = { 0 };
	bool any = false;
	if (r->hs) { /* streamed: the host read's sums (stream-host.c) */
		st = r->hs->st;
		memcpy(ph, r->hs->ph, sizeof(ph));
		cover = r->hs->cover;
		r->hs->cover = (struct ivl){ 0 };
		any = r->hs->any;
	}
	for (size_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (!member_at(r, h->s))
			continue;
		if (h->type == HT_STEP) {
			st.calls++;
			item_cpu(&st, h->e - h->s);
			item_gpu(&st, h->gpu);
		} else if (h->outer) {
			struct item *it = &ph[h->type - HT_DATALOADER];
			it->calls++;
			item_cpu(it, h->e - h->s);
			item_gpu(it, h->gpu);
			sum_ivl_add(&cover, h->s, h->e);
			any = true;
		}
	}
	if (!any) {
		free(cover.v);
		return;
	}
	int64_t others_cpu = r->Wlen - sum_ivl_measure(r, &cover);
	int64_t others_gpu = 0, un_n = 0, un_t = 0;
	if (r->hs) { /* add() */
		others_gpu = r->hs->others_gpu;
		un_n = r->hs->un_n;
		un_t = r->hs->un_t;
	}
	for (size_t i = 0; i < ev->n && !r->hs; i++) {
		if (!is_dev_activity(ev->kind[i]) || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t h = hr_of_act(r, i);
		if (!h) {
			un_n++;
			un_t += ev->dur[i];
		} else if (r->hr[h - 1].step_anc && !r->hr[h - 1].phase_anc) {
			others_gpu += ev->dur[i];
		}
	}
	if (r->span) {
		st = (struct item){ .calls = 1 };
		item_cpu(&st, r->Wlen);
		item_gpu(&st, r->G);
	}
	static const char *const lab[] = { "Dataloader", "Forward", "Backward", "Optimization" };
	model_emit(r, t, tx, multi, &st, ph, lab, 4, others_cpu, others_gpu, r->G, un_n, un_t);
}

static void view_model(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	if (!r->ascend) {
		view_model_gpu(r, t, tx, multi);
		return;
	}
	int64_t G = r->asc->G; /* and r->wx[].gpu: add() */
	struct item st = { 0 }, ph[3] = { { 0 } };
	struct ivl cover = { 0 };
	int64_t others_gpu = 0;
	for (size_t k = 0; k < r->nw; k++) {
		const struct win *w = &r->w[k];
		const struct winx *x = &r->wx[w->x];
		if (member_at(r, w->s)) {
			st.calls++;
			item_cpu(&st, w->e - w->s);
			item_gpu(&st, x->gpu[3]);
			others_gpu += x->gpu[3] - x->gpu[0] - x->gpu[1] - x->gpu[2];
		}
		for (int p = 0; p < 3; p++) {
			int64_t s, e;
			if (!sum_phase(r, w, p, &s, &e) || !member_at(r, s))
				continue;
			ph[p].calls++;
			item_cpu(&ph[p], e - s);
			item_gpu(&ph[p], x->gpu[p]);
			sum_ivl_add(&cover, s, e);
		}
	}
	if (!ph[0].calls && !ph[1].calls && !ph[2].calls) {
		free(cover.v);
		return;
	}
	/* |W − union(phases)| */
	int64_t covered = sum_ivl_measure(r, &cover);
	int64_t others_cpu = r->Wlen - covered;
	if (r->span) {
		st = (struct item){ .calls = 1 };
		item_cpu(&st, r->Wlen);
		item_gpu(&st, G);
	}
	static const char *const lab[] = { "Dataloader", "Forward", "Optimization" };
	model_emit(r, t, tx, multi, &st, ph, lab, 3, others_cpu, others_gpu, G, 0, 0);
}

/* The model view's sums (Ascend ranks): the member device activities, in all and per step window
 * and phase (r->wx[r->w[k].x].gpu). */
static void add(struct rank *r, const struct sum_batch *b)
{
	const struct pt_events *ev = &r->g->m->events;
	struct asc *a = r->asc;
	if (!r->ascend) {
		/* a streamed GPU rank with host ranges: its member activities by their call's range */
		const uint8_t *hat = r->g->hat;
		for (size_t q = 0; r->hs && hat && q < b->n[SB_MEM]; q++) {
			uint32_t i = b->v[SB_MEM][q];
			if (!(hat[i] & HS_ATT)) {
				r->hs->un_n++;
				r->hs->un_t += ev->dur[i];
			} else if (hat[i] & HS_SNP) {
				r->hs->others_gpu += ev->dur[i];
			}
		}
		return;
	}
	for (size_t q = 0; q < b->n[SB_MEM]; q++) {
		uint32_t i = b->v[SB_MEM][q];
		a->G += ev->dur[i];
		/* the window of the previous event is tried before a search */
		int64_t t0 = ev->start[i];
		ssize_t k;
		if (a->hint < r->nw && r->w[a->hint].s <= t0 && t0 < r->w[a->hint].e)
			k = (ssize_t)a->hint;
		else
			k = sum_win_of(r, t0);
		if (k >= 0) {
			a->hint = (size_t)k;
			struct winx *x = &r->wx[r->w[k].x];
			x->gpu[3] += ev->dur[i];
			int p = sum_phase_of(r, &r->w[k], t0);
			if (p < 3)
				x->gpu[p] += ev->dur[i];
		}
	}
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "phase", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	sum_add_block_cols(t, "cpu");
	sum_add_block_cols(t, "device");
}

const struct sum_view sum_view_model = {
	.id = PT_SV_MODEL, .name = "model", .flags = SV_DEFAULT,
	.columns = columns, .emit = view_model, .add = add,
};
