/* Distributed (summary.md §3.4): computation, communication and their overlap per device. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pass/summary/view.h"
#include "support/xalloc.h"

static void view_distributed(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	uint32_t *devs;
	size_t nd;
	sum_rank_devices(r, &devs, &nd);
	bool streamed = !g->x;
	bool comm = false;
	for (size_t k = 0; k < nd; k++)
		comm |= streamed ? sum_rank_dacc(r, devs[k])->any_m : sum_rank_comm(r, devs[k])->n > 0;
	if (!comm) {
		free(devs);
		return;
	}
	struct pt_table *x = sum_stext(r, sum_view_distributed.name, NULL, true, multi);
	pt_table_add_text_col(x, "Name", 25, false, true);
	pt_table_add_text_col(x, "Total Time", 25, true, false);
	pt_table_add_text_col(x, "Ratio (%)", 25, true, false);
	for (size_t k = 0; k < nd; k++) {
		struct pt_breakdown b;
		if (streamed) {
			const struct dacc *dd = sum_rank_dacc(r, devs[k]);
			if (!dd->any_c && !dd->any_m)
				continue;
			struct urun c = dd->c, mm = dd->m, cm = dd->cm;
			b.computation = sum_urun_end(r, &c);
			b.communication = sum_urun_end(r, &mm);
			int64_t either = sum_urun_end(r, &cm);
			b.overlapped = b.computation + b.communication - either;
			b.comm_not_overlapped = b.communication - b.overlapped;
			b.free = r->Wlen - either;
		} else {
			if (!sum_rank_comp(r, devs[k])->n && !sum_rank_comm(r, devs[k])->n)
				continue;
			sum_rank_breakdown(r, devs[k], &b);
		}
		char lab[32], grp[48];
		sum_dev_label(m, devs[k], lab);
		snprintf(grp, sizeof(grp), "Device: %s", lab);
		pt_table_add_group(x, grp);
		const char *metric[] = { "window", "communication", "computation", "overlapped", "comm_not_overlapped",
					 "free" };
		const char *label[] = { r->span ? "Span" : "ProfileStep", "Communication", "Computation", "Overlapped",
					"Comm Not Overlapped", "Free" };
		int64_t v[] = { r->Wlen, b.communication, b.computation, b.overlapped, b.comm_not_overlapped, b.free };
		for (int i = 0; i < 6; i++) {
			size_t row = sum_row0(t, r);
			pt_table_set_int(t, row, 1, m->devices.v[devs[k]].id);
			sum_setstr(t, row, 2, metric[i]);
			pt_table_set_int(t, row, 3, v[i]);
			pt_table_set_double(t, row, 4, pct(v[i], r->Wlen));
			char c0[48], c1[48], c2[48];
			snprintf(c0, sizeof(c0), "%s%s", i ? "  " : "", label[i]);
			sum_ftime(g, c1, v[i]);
			sum_fpct(c2, v[i], r->Wlen);
			const char *cells[3] = { c0, c1, c2 };
			pt_table_add_text_row(x, cells);
		}
	}
	free(devs);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Per device, over the step window. Computation: time a computation kernel or task runs.");
	pt_table_add_note(x, "Communication: time a communication kernel or task, or a step-trace reduce interval, runs.");
	pt_table_add_note(x, "Overlapped: communication while computation runs. Comm Not Overlapped: communication alone.");
	pt_table_add_note(x, "Free: neither runs. Computation + Comm Not Overlapped + Free = the step window.");
	pt_table_add_note(x, "Host-side collective calls are not counted here; the Overview lists them as CPU Communication.");
	*tx = x;
}

/* The distributed view's sets of a streamed Ascend rank: the events of its stream tracks in start order
 * (the others came first, sum_dist_begin(); a GPU rank's sets are its devices' kernels, SV_KERNELS). */
static void add(struct rank *r, const struct sum_batch *b)
{
	const struct pt_events *ev = &r->g->m->events;
	struct asc *a = r->asc;
	if (r->g->x || !r->ascend)
		return;
	for (size_t q = 0; q < b->n[SB_ALL]; q++) {
		uint32_t i = b->v[SB_ALL][q];
		if (!a->trk[ev->track[i]])
			continue;
		unsigned c = sum_dist_class(r, ev->kind[i], ev->op[i], ev->track[i]);
		if (c)
			pendq_add(&a->dist.pq, (struct ov_ent){ ev->start[i], ev->start[i] + ev->dur[i], c });
	}
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "metric", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

const struct sum_view sum_view_distributed = {
	.id = PT_SV_DISTRIBUTED, .name = "distributed", .flags = SV_KERNELS | SV_ALL,
	.columns = columns, .emit = view_distributed, .add = add,
};
