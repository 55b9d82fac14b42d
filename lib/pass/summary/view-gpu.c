/* GPU activity (summary.md §3.12): device activities with launch statistics. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

void sum_gacc_free(struct gacc *ga)
{
	if (!ga)
		return;
	sum_items_free(&ga->it);
	pt_vec_free(&ga->ls);
	for (size_t k = 0; k < ga->smp.n; k++)
		sum_durs_free(&ga->smp.v[k]);
	pt_vec_free(&ga->smp);
	pt_hashmap_free(&ga->tasks);
	free(ga->raw2item);
}

/* Add device activity i (member) to the gpu view's sums. */
static void gpu_add(const struct rank *r, struct gacc *ga, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint8_t k = ev->kind[i];
	int type = is_kernel(k) ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
	/* an item found before: a kernel or task by its raw name, an unnamed task by (track, task) */
	uint32_t *rslot = NULL;
	uint64_t *tslot = NULL;
	if (type == 0 && ev->name[i]) {
		if (!ga->raw2item) {
			ga->nraw = m->strings.n;
			ga->raw2item = pt_xcalloc(ga->nraw + 1, sizeof(*ga->raw2item));
		}
		rslot = ev->name[i] < ga->nraw ? &ga->raw2item[ev->name[i]] : NULL;
	} else if (k == PT_EV_TASK && !ev->name[i] && ev->task[i] <= UINT32_MAX) {
		tslot = pt_hashmap_put(&ga->tasks, (uint64_t)ev->track[i] << 32 | ev->task[i], 0, NULL);
	}
	uint64_t have = rslot ? *rslot : tslot ? *tslot : 0;
	struct item *x;
	if (have) {
		x = &ga->it.v.v[have - 1];
	} else {
		uint32_t nm = k == PT_EV_TASK && !ev->name[i] ? sum_task_name(g, i) : sum_act_name(g, i);
		x = sum_items_get(&ga->it, ((uint64_t)type << 32) | nm, nm);
		uint32_t id = (uint32_t)(x - ga->it.v.v) + 1;
		if (rslot)
			*rslot = id;
		if (tslot)
			*tslot = id;
	}
	if (!x->calls) {
		x->b = type;
		x->d = (int64_t)ga->ls.n;
		struct lstat z = { 0 };
		pt_vec_push(&ga->ls, z);
		struct sum_durs e = { 0 };
		pt_vec_push(&ga->smp, e);
		pt_vec_push(&ga->smp, e);
	}
	x->calls++;
	item_gpu(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	ga->den += ev->dur[i];
	if (type) {
		const struct pt_copy_info *ci = sum_copy_info(g, i);
		if (ci) {
			x->a += (int64_t)ci->bytes;
			x->c = 1;
		}
	}
	int64_t as, ae, ds = ev->start[i];
	if (!launch_of(r, i, &as, &ae))
		return;
	int64_t ld = ds - as;
	if (ld < 0)
		return; /* device record before its call (clock skew): left out */
	struct lstat *s = &ga->ls.v[x->d];
	int64_t q = ds - ae > 0 ? ds - ae : 0;
	s->n++;
	s->ld_sum += ld;
	if (ld > s->ld_max)
		s->ld_max = ld;
	s->q_sum += q;
	s->api_sum += ae - as;
	if (ae - as > s->api_max)
		s->api_max = ae - as;
	s->dout += q > g->o->queue_cutoff_ns;
	s->aout += ae - as > g->o->runtime_cutoff_ns;
	s->shrt += ev->dur[i] < ae - as;
	sum_durs_add(&ga->smp.v[2 * x->d], ld);
	sum_durs_add(&ga->smp.v[2 * x->d + 1], ae - as);
}

static void view_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct gacc own, *ga = &own;
	if (r->asc) {
		ga = r->asc->gpu; /* add() */
	} else {
		memset(&own, 0, sizeof(own));
		sum_items_init(&own.it);
		for (size_t i = 0; i < ev->n; i++)
			if (is_dev_activity(ev->kind[i]) && in_rank(r, i) && member(r, i))
				gpu_add(r, &own, i);
	}
	int64_t den = ga->den;
	/* nearest-rank percentiles per item: launch delay (kind 0), call duration (kind 1) */
	for (size_t d = 0; d < ga->ls.n; d++) {
		struct lstat *s = &ga->ls.v[d];
		for (int kind = 0; kind < 2; kind++) {
			struct sum_durs *sd = &ga->smp.v[2 * d + (size_t)kind];
			uint64_t n = sum_durs_count(sd);
			if (!n)
				continue;
			int64_t p50, p90;
			sum_durs_ranks(sd, (50 * n + 99) / 100 - 1, (90 * n + 99) / 100 - 1, &p50, &p90);
			if (kind) {
				s->api_p50 = p50;
				s->api_p90 = p90;
			} else {
				s->p50 = p50;
				s->p90 = p90;
			}
		}
	}
	sum_items_sort(g, ga->it.v.v, ga->it.v.n, VK_DEV);
	static const char *const tname[] = { "kernel", "memcpy", "memset" };
	struct pt_table *x = sum_stext(r, sum_view_gpu.name, NULL, true, multi);
	const char *heads[] = { "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Launch Avg", "Launch P90",
				"Queue Avg", "Outliers" };
	for (int c = 0; c < 10; c++)
		pt_table_add_text_col(x, heads[c], 0, true, false);
	pt_table_add_text_col(x, "Name", (size_t)sum_name_width(g, ga->it.v.v, ga->it.v.n), false, true);
	char cb[11][48];
	struct sum_pick pick = sum_pick(g, ga->it.v.v, ga->it.v.n);
	for (struct item *o; (o = sum_pick_next(&pick));) {
		const struct lstat *s = &ga->ls.v[o->d];
		const char *on = out_str(g, o->name);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, tname[o->b]);
		sum_setstr(t, row, 2, on);
		pt_table_set_int(t, row, 3, o->calls);
		pt_table_set_int(t, row, 4, o->gpu_total);
		pt_table_set_int(t, row, 5, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 6, o->gpu_min);
		pt_table_set_int(t, row, 7, o->gpu_max);
		pt_table_set_double(t, row, 8, pct(o->gpu_total, den));
		if (o->c)
			pt_table_set_int(t, row, 9, o->a);
		pt_table_set_int(t, row, 10, s->n);
		if (s->n) {
			pt_table_set_int(t, row, 11, ravg(s->ld_sum, s->n));
			pt_table_set_int(t, row, 12, s->p50);
			pt_table_set_int(t, row, 13, s->p90);
			pt_table_set_int(t, row, 14, s->ld_max);
			pt_table_set_int(t, row, 15, ravg(s->q_sum, s->n));
			pt_table_set_int(t, row, 16, ravg(s->api_sum, s->n));
			pt_table_set_int(t, row, 17, s->api_p50);
			pt_table_set_int(t, row, 18, s->api_p90);
			pt_table_set_int(t, row, 19, s->api_max);
			pt_table_set_int(t, row, 20, s->dout);
			pt_table_set_int(t, row, 21, s->aout);
			pt_table_set_int(t, row, 22, s->shrt);
		}
		sum_fpct(cb[0], o->gpu_total, den);
		sum_ftime(g, cb[1], o->gpu_total);
		sum_fnum(cb[2], o->calls);
		sum_favg(g, cb[3], o->gpu_total, o->calls);
		sum_ftime(g, cb[4], o->gpu_min);
		sum_ftime(g, cb[5], o->gpu_max);
		if (s->n) {
			sum_favg(g, cb[6], s->ld_sum, s->n);
			sum_ftime(g, cb[7], s->p90);
			sum_favg(g, cb[8], s->q_sum, s->n);
			sum_fnum(cb[9], s->dout);
		} else {
			for (int c = 6; c < 10; c++)
				strcpy(cb[c], "-");
		}
		const char *cells[11];
		for (int c = 0; c < 10; c++)
			cells[c] = cb[c];
		cells[10] = on;
		pt_table_add_text_row(x, cells);
	}
	if (ga == &own)
		sum_gacc_free(&own);
	char nb[200], cut[48];
	int64_t us = g->o->queue_cutoff_ns;
	if (us % 1000)
		snprintf(cut, sizeof(cut), "%" PRId64 ".%03" PRId64, us / 1000, us % 1000);
	else
		snprintf(cut, sizeof(cut), "%" PRId64, us / 1000);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Launch: device start minus the start of the launching API call. Queue: device start minus the end");
	snprintf(nb, sizeof(nb), "of that call (0 if negative). Outliers: launches whose queue delay exceeds %s us.", cut);
	pt_table_add_note(x, nb);
	*tx = x;
}

/* The gpu view's sums: the member device activities of an Ascend rank or a streamed GPU rank. */
static void add(struct rank *r, const struct sum_batch *b)
{
	for (size_t k = 0; k < b->n[SB_MEM]; k++)
		gpu_add(r, r->asc->gpu, b->v[SB_MEM][k]);
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "type", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "launches", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "launch_delay_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "launch_delay_p50", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "launch_delay_p90", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "launch_delay_max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "queue_delay_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "api_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "api_p50", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "api_p90", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "api_max", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "delay_outliers", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "api_outliers", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "short", PT_COL_INT, PT_ROLE_VALUE, 0);
}

const struct sum_view sum_view_gpu = {
	.id = PT_SV_GPU, .name = "gpu", .flags = SV_LAUNCH,
	.columns = columns, .emit = view_gpu, .add = add,
};
