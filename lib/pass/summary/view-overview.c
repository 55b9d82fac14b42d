/* Overview (summary.md §3.2): CPU and device time per event type, each type merged before summing. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/sort.h"
#include "support/xalloc.h"

struct ovrow {
	const char *label;
	int64_t calls, time;
};

static int cmp_ov(const void *pa, const void *pb)
{
	const struct ovrow *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time > b->time ? -1 : 1;
	return strcmp(a->label, b->label);
}

static int cmp_ival(const void *pa, const void *pb)
{
	const struct pt_ival *a = pa, *b = pb;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return (a->e > b->e) - (a->e < b->e);
}

static void view_overview(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct ovrow cpu[HT_NTYPES + 4];
	size_t nc = 0;
	const char *steplabel = r->span ? "Span" : "ProfileStep";
	int64_t stepcalls = 0;
	if (r->span)
		stepcalls = 1;
	else
		for (size_t k = 0; k < r->nw; k++)
			stepcalls += member_at(r, r->w[k].s);
	if (r->ascend) {
		static const char *const ph[] = { "Dataloader", "Forward", "Optimization" };
		for (int p = 0; p < 3; p++) {
			struct ivl l = { 0 };
			for (size_t k = 0; k < r->nw; k++) {
				int64_t s, e;
				if (!sum_phase(r, &r->w[k], p, &s, &e))
					continue;
				sum_ivl_add(&l, s, e);
				l.calls += member_at(r, s);
			}
			int64_t calls = l.calls;
			int64_t time = sum_ivl_measure(r, &l);
			if (calls)
				cpu[nc++] = (struct ovrow){ ph[p], calls, time };
		}
	} else {
		/* each type's union from the ranges in start order: the threads' runs of r->hr merged */
		struct urun tl[HT_NTYPES], cl = { 0 };
		memset(tl, 0, sizeof(tl));
		PT_VEC(struct pt_ival) pairs = { 0 };
		int64_t cc = 0;
		if (r->hs) { /* streamed: the host read's unions (stream-host.c) */
			memcpy(tl, r->hs->tl, sizeof(tl));
			cl = r->hs->cl;
			cc = r->hs->pairs;
		}
		struct sruns hs;
		sum_sruns_ranges(&hs, r);
		for (uint32_t k; (k = sum_sruns_next_range(&hs, r->hr)) != UINT32_MAX;) {
			const struct hr *h = &r->hr[k];
			if (h->type == HT_STEP)
				continue;
			bool mem = member_at(r, h->s);
			if (h->type != HT_COMM) {
				urun_add(r, &tl[h->type], h->s, h->e);
				tl[h->type].calls += mem && (!is_phase(h->type) || h->outer);
			}
			if (h->comm) {
				urun_add(r, &cl, h->s, h->e);
				if (mem)
					pt_vec_push(&pairs, ((struct pt_ival){ h->s, h->e }));
			}
		}
		free(hs.v);
		int64_t ca, ta;
		if (r->asc) { /* streamed: add(), sum_asc_release() */
			ca = r->asc->api_calls;
			ta = sum_urun_end(r, &r->asc->api_u);
		} else {
			struct urun api = { 0 };
			struct sruns as;
			sum_sruns_events(&as, r, PT_EV_API);
			for (uint32_t i; (i = sum_sruns_next_event(&as, ev, PT_EV_API)) != UINT32_MAX;) {
				urun_add(r, &api, ev->start[i], ev->start[i] + ev->dur[i]);
				api.calls += member(r, i);
			}
			free(as.v);
			ca = api.calls;
			ta = sum_urun_end(r, &api);
		}
		for (int k = 0; k < HT_NTYPES; k++) {
			int64_t calls = tl[k].calls, time = sum_urun_end(r, &tl[k]);
			if (calls)
				cpu[nc++] = (struct ovrow){ sum_htype_names[k], calls, time };
		}
		if (ca)
			cpu[nc++] = (struct ovrow){ "CudaRuntime", ca, ta };
		pt_sort(pairs.v, pairs.n, sizeof(*pairs.v), cmp_ival);
		for (size_t k = 0; k < pairs.n; k++)
			cc += !k || pairs.v[k].s != pairs.v[k - 1].s || pairs.v[k].e != pairs.v[k - 1].e;
		pt_vec_free(&pairs);
		int64_t tc = sum_urun_end(r, &cl);
		if (cc)
			cpu[nc++] = (struct ovrow){ "Communication", cc, tc };
	}
	pt_sort(cpu, nc, sizeof(*cpu), cmp_ov);
	struct ovacc acc = { .r = r };
	if (g->x)
		pt_index_merge(g->x, r->tracks, r->ntracks, sum_ov_visit, &acc);
	else
		acc = r->asc->ov; /* streamed */
	static const char *const glab[] = { "Kernel", "Memcpy", "Memset", "Communication", "Unattributed" };
	struct pt_table *x = sum_stext(r, sum_view_overview.name, NULL, true, multi);
	pt_table_add_text_col(x, "Event Type", 25, false, true);
	pt_table_add_text_col(x, "Calls", 25, true, false);
	pt_table_add_text_col(x, "CPU Time", 25, true, false);
	pt_table_add_text_col(x, "Ratio (%)", 25, true, false);
	char c1[64], c2[48], c3[48], c4[48];
	const char *cells[4] = { c1, c2, c3, c4 };
	/* step row */
	{
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, "cpu");
		sum_setstr(t, row, 2, steplabel);
		pt_table_set_int(t, row, 3, stepcalls);
		pt_table_set_int(t, row, 4, r->Wlen);
		pt_table_set_double(t, row, 5, r->Wlen ? 100.0 : 0.0);
		snprintf(c1, sizeof(c1), "%s", steplabel);
		snprintf(c2, sizeof(c2), "%" PRId64, stepcalls);
		sum_ftime(g, c3, r->Wlen);
		sum_fpct(c4, r->Wlen, r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	for (size_t i = 0; i < nc; i++) {
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, "cpu");
		sum_setstr(t, row, 2, cpu[i].label);
		pt_table_set_int(t, row, 3, cpu[i].calls);
		pt_table_set_int(t, row, 4, cpu[i].time);
		pt_table_set_double(t, row, 5, pct(cpu[i].time, r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", cpu[i].label);
		snprintf(c2, sizeof(c2), "%" PRId64, cpu[i].calls);
		sum_ftime(g, c3, cpu[i].time);
		sum_fpct(c4, cpu[i].time, r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	int64_t gcalls[5], gtime[5];
	bool any = false;
	for (int c = 0; c < 5; c++) {
		gcalls[c] = acc.u[c].calls;
		gtime[c] = sum_urun_end(r, &acc.u[c]);
		any |= gcalls[c] > 0;
	}
	if (any) {
		/* second header inside the table */
		const char *h[4] = { "", "Calls", "Device Time", "Ratio (%)" };
		pt_table_add_group(x, NULL);
		pt_table_add_text_row(x, h);
		pt_table_add_group(x, NULL);
	}
	for (int c = 0; c < 5; c++) {
		if (!gcalls[c])
			continue;
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, "device");
		sum_setstr(t, row, 2, glab[c]);
		pt_table_set_int(t, row, 3, gcalls[c]);
		pt_table_set_int(t, row, 4, gtime[c]);
		pt_table_set_double(t, row, 5, pct(gtime[c], r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", glab[c]);
		snprintf(c2, sizeof(c2), "%" PRId64, gcalls[c]);
		sum_ftime(g, c3, gtime[c]);
		sum_fpct(c4, gtime[c], r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Each row merges all events of one type before summing, so overlapping events of that type");
	pt_table_add_note(x, "(on several threads or streams) are counted once.");
	pt_table_add_note(x, "Host events give CPU time, device events give GPU time; every ratio is against the step window.");
	pt_table_add_note(x, "Types contain each other (an Operator contains its OperatorInner stages), so ratios do not add up to 100%.");
	if (gcalls[4])
		pt_table_add_note(x, "Unattributed: device activity whose launching call is unknown or lies outside every host range.");
	*tx = x;
}

/* The overview's CudaRuntime union of a streamed GPU rank: its API calls pending in start order
 * (the device activities: SV_UNION). */
static void add(struct rank *r, const struct sum_batch *b)
{
	const struct pt_events *ev = &r->g->m->events;
	struct asc *a = r->asc;
	if (r->ascend)
		return;
	for (size_t q = 0; q < b->n[SB_API]; q++) {
		uint32_t i = b->v[SB_API][q];
		pendq_add(a->dm ? sum_dumps_q(a->dm, ev->track[i], true) : &a->apq,
			  (struct ov_ent){ ev->start[i], ev->start[i] + ev->dur[i], 0 });
		a->api_calls += member(r, i);
	}
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "side", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "event_type", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

const struct sum_view sum_view_overview = {
	.id = PT_SV_OVERVIEW, .name = "overview", .flags = SV_DEFAULT | SV_UNION,
	.columns = columns, .emit = view_overview, .add = add,
};
