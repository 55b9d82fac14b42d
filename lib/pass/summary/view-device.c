/* Device utilisation per device and host CPU per step (summary.md §3.1). */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/hostcpu.h"
#include "pass/summary/view.h"
#include "support/xalloc.h"

struct kacc {
	struct rank *r;
	struct urun u;
};

static void kernel_visit(void *arg, size_t i)
{
	struct kacc *a = arg;
	const struct pt_events *ev = &a->r->g->m->events;
	if (is_kernel(ev->kind[i])) {
		urun_add(a->r, &a->u, ev->start[i], ev->start[i] + ev->dur[i]);
		a->u.calls++;
	}
}

/*
 * Host CPU samples of a rank (summary.md §3.1), summed per step window. The
 * samples, their placement in steps and every mean come from model/hostcpu.h,
 * the code `dataset` and `hints` read them through.
 */
struct host_rows {
	struct pt_hostcpu h;
	bool any;                  /* the rank has host CPU samples */
	bool steps;                /* step rows: a rule places samples and the rank has steps */
	bool placed;               /* some sample lies in a step */
	bool *row;                 /* window k is a kept row */
	struct pt_hostcpu_acc *in; /* per window: its samples (inside T under rule 1) */
	struct pt_hostcpu_acc out, all, kept;
};

static bool host_rows(struct rank *r, struct host_rows *hr)
{
	const struct pt_model *m = r->g->m;
	memset(hr, 0, sizeof(*hr));
	/* MindData files attach to an NPU device (ascend.md §1.4): Ascend ranks only */
	if (!r->ascend || !pt_hostcpu_load(m, r->dev, &hr->h) || !hr->h.host) {
		pt_hostcpu_free(&hr->h);
		return false;
	}
	hr->any = true;
	struct pt_hostcpu_step *st = pt_xcalloc(r->nw + 1, sizeof(*st));
	hr->row = pt_xcalloc(r->nw + 1, sizeof(*hr->row));
	hr->in = pt_xcalloc(r->nw + 1, sizeof(*hr->in));
	for (size_t k = 0; k < r->nw; k++) {
		const struct win *w = &r->w[k];
		st[k] = (struct pt_hostcpu_step){ w->num, w->s, w->e };
		int64_t a = w->s > r->ta ? w->s : r->ta, b = w->e < r->tb ? w->e : r->tb;
		hr->row[k] = w->kept && (!r->g->sel.window || a < b);
	}
	struct pt_hostcpu_place pl;
	pt_hostcpu_place_init(&pl, m, r->dev, st, r->nw);
	hr->steps = pl.rule != PT_HC_RULE_NONE && r->has_steps;
	pt_hostcpu_total(&hr->h, &hr->all);
	for (int k = 0; k < PT_HC__N; k++) {
		const struct pt_hostcpu_series *se = &hr->h.s[k];
		for (size_t i = 0; i < se->n; i++) {
			int64_t w = pt_hostcpu_place_step(&pl, se->time[i]);
			if (w < 0) {
				pt_hostcpu_acc_add(&hr->out, k, se->value[i]);
				continue;
			}
			hr->placed = true;
			if (!hr->row[w])
				continue;
			if (pl.rule == PT_HC_RULE_OFFSET) {
				int64_t x = se->time[i] + pl.offset; /* no overflow: placed */
				if (x < r->ta || x >= r->tb)
					continue;
			}
			pt_hostcpu_acc_add(&hr->in[w], k, se->value[i]);
		}
	}
	for (size_t k = 0; k < r->nw; k++)
		if (hr->row[k])
			pt_hostcpu_acc_merge(&hr->kept, &hr->in[k]);
	pt_hostcpu_place_free(&pl);
	free(st);
	return true;
}

static void host_rows_free(struct host_rows *hr)
{
	pt_hostcpu_free(&hr->h);
	free(hr->row);
	free(hr->in);
}

/* One row of the Host CPU table: text cells and data columns 3 and 4, 8 to 14. */
static void host_row(struct rank *r, struct pt_table *t, struct pt_table *x, const char *label,
		     const struct pt_hostcpu_acc *a)
{
	static const int pcts[4] = { PT_HC_USER, PT_HC_SYS, PT_HC_IO, PT_HC_IDLE };
	static const int procs[2] = { PT_HC_PROC_USER, PT_HC_PROC_SYS };
	char cb[9][48];
	const char *cells[9];
	size_t row = sum_row0(t, r);
	sum_setstr(t, row, 1, "host");
	sum_setstr(t, row, 3, label);
	int64_t n = pt_hostcpu_samples(a);
	pt_table_set_int(t, row, 4, n);
	snprintf(cb[0], sizeof(cb[0]), "%s", label);
	snprintf(cb[1], sizeof(cb[1]), "%" PRId64, n);
	for (int k = 0; k < 6; k++) {
		int metric = k < 4 ? pcts[k] : procs[k - 4];
		size_t col = k < 4 ? 8 + (size_t)k : 13 + (size_t)(k - 4);
		size_t c = k < 4 ? 2 + (size_t)k : 7 + (size_t)(k - 4);
		double v;
		cells[c] = NULL;
		if (pt_hostcpu_mean(a, metric, &v)) {
			pt_table_set_double(t, row, col, v);
			snprintf(cb[c], sizeof(cb[c]), "%.2f", v);
			cells[c] = cb[c];
		}
	}
	int64_t cs;
	cells[6] = NULL;
	if (pt_hostcpu_ctx_switches(a, &cs)) {
		pt_table_set_int(t, row, 12, cs);
		snprintf(cb[6], sizeof(cb[6]), "%" PRId64, cs);
		cells[6] = cb[6];
	}
	cells[0] = cb[0];
	cells[1] = cb[1];
	pt_table_add_text_row(x, cells);
}

/* CPU(Process) / CPU(System) row of the Device table, when the series exist. */
static bool host_cpu_row(struct rank *r, struct pt_table *t, struct pt_table *x, const struct host_rows *hr,
			 bool process)
{
	const struct pt_hostcpu_acc *all = &hr->all, *src = hr->placed ? &hr->kept : &hr->all;
	int m1 = process ? PT_HC_PROC_USER : PT_HC_IDLE, m2 = process ? PT_HC_PROC_SYS : PT_HC_IDLE;
	if (!all->n[m1] && !all->n[m2])
		return false;
	const char *lab = process ? "CPU(Process)" : "CPU(System)";
	size_t row = sum_row0(t, r);
	sum_setstr(t, row, 1, "device");
	sum_setstr(t, row, 2, lab);
	pt_table_set_int(t, row, 4, src->n[m1] > src->n[m2] ? src->n[m1] : src->n[m2]);
	double v;
	char u[48] = "-";
	if (process ? pt_hostcpu_process_pct(src, &v) : pt_hostcpu_system_pct(src, &v)) {
		pt_table_set_double(t, row, 5, v);
		snprintf(u, sizeof(u), "%.2f", v);
	}
	const char *cells[2] = { lab, u };
	pt_table_add_text_row(x, cells);
	return true;
}

/* CPU(Process) / CPU(System) row from the run metadata of a process of the rank (CUPTI ExtraInfo
 * markers): the recorded fraction × 100; the first device of the rank that has it. */
static bool meta_cpu_row(struct rank *r, struct pt_table *t, struct pt_table *x, bool process)
{
	const struct pt_model *m = r->g->m;
	if (r->ascend)
		return false;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (!r->devin[d] || !(process ? dv->has_cpu_process : dv->has_cpu_system))
			continue;
		double v = (process ? dv->cpu_process : dv->cpu_system) * 100.0;
		const char *lab = process ? "CPU(Process)" : "CPU(System)";
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, "device");
		sum_setstr(t, row, 2, lab);
		pt_table_set_double(t, row, 5, v);
		char u[48];
		snprintf(u, sizeof(u), "%.2f", v);
		const char *cells[2] = { lab, u };
		pt_table_add_text_row(x, cells);
		return true;
	}
	return false;
}

static void view_device(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	uint32_t *devs;
	size_t nd;
	sum_rank_devices(r, &devs, &nd);
	struct host_rows hr;
	host_rows(r, &hr);
	struct pt_table *x = sum_stext(r, sum_view_device.name, NULL, false, multi);
	pt_table_add_text_col(x, "Device", 30, false, true);
	pt_table_add_text_col(x, "Utilization (%)", 20, true, false);
	/* run metadata first (summary.md §3.1), else the host CPU samples */
	bool cpu_proc = meta_cpu_row(r, t, x, true) || (hr.any && host_cpu_row(r, t, x, &hr, true));
	bool cpu_sys = meta_cpu_row(r, t, x, false) || (hr.any && host_cpu_row(r, t, x, &hr, false));
	bool any = false;
	uint32_t *tr = pt_xmalloc((r->ntracks ? r->ntracks : 1) * sizeof(*tr));
	for (size_t k = 0; k < nd; k++) {
		size_t nt = 0;
		for (size_t j = 0; j < r->ntracks; j++)
			if (m->tracks.v[r->tracks[j]].device == devs[k])
				tr[nt++] = r->tracks[j];
		struct kacc acc = { .r = r };
		if (g->x) {
			pt_index_merge(g->x, tr, nt, kernel_visit, &acc);
		} else if (r->ascend) { /* streamed (one device, its stream tracks): the overview's kernel union */
			acc.u = r->asc->ov.u[0];
			acc.u.calls = r->asc->ov.kernels;
		} else { /* a streamed GPU rank: sum_shared_add(), sum_asc_release() */
			acc.u = r->asc->gd[devs[k]].u;
			acc.u.calls = r->asc->gd[devs[k]].kernels;
		}
		if (!acc.u.calls)
			continue;
		int64_t busy = sum_urun_end(r, &acc.u);
		char lab[32], u[48];
		sum_dev_label(m, devs[k], lab);
		size_t row = sum_row0(t, r);
		sum_setstr(t, row, 1, "device");
		sum_setstr(t, row, 2, lab);
		pt_table_set_double(t, row, 5, pct(busy, r->Wlen));
		pt_table_set_int(t, row, 6, busy);
		pt_table_set_int(t, row, 7, r->Wlen);
		sum_fpct(u, busy, r->Wlen);
		const char *cells[2] = { lab, u };
		pt_table_add_text_row(x, cells);
		any = true;
	}
	free(tr);
	free(devs);
	struct pt_table *y = NULL;
	if (hr.any) {
		/* Host CPU table: kept steps, outside, all */
		y = sum_stext(r, sum_view_device.name, "host CPU", false, multi);
		size_t sw = 7;
		char lb[32];
		for (size_t k = 0; k < r->nw && hr.steps; k++) {
			size_t l = (size_t)snprintf(lb, sizeof(lb), "%" PRId64, r->w[k].num);
			if (hr.row[k] && l > sw)
				sw = l;
		}
		static const char *const heads[] = { "Samples", "User (%)", "System (%)", "IO Wait (%)", "Idle (%)",
						     "Ctx Switches", "Process User (%)", "Process System (%)" };
		pt_table_add_text_col(y, "Step", sw, false, false);
		for (int c = 0; c < 8; c++)
			pt_table_add_text_col(y, heads[c], 0, true, false);
		for (size_t k = 0; k < r->nw && hr.steps; k++) {
			if (!hr.row[k])
				continue;
			snprintf(lb, sizeof(lb), "%" PRId64, r->w[k].num);
			host_row(r, t, y, lb, &hr.in[k]);
		}
		if (hr.steps && !r->filtered)
			host_row(r, t, y, "outside", &hr.out);
		host_row(r, t, y, "all", &hr.all);
	}
	/* the note goes under the first table printed */
	struct pt_table *nx = cpu_proc || cpu_sys || any ? x : y;
	if (nx) {
		pt_table_add_note(nx, "Note:");
		if (cpu_proc)
			pt_table_add_note(nx, "CPU(Process): CPU time of the profiled process on all cores divided by wall time; "
					  "may exceed 100% on multi-core hosts.");
		if (cpu_sys)
			pt_table_add_note(nx, "CPU(System): share of time all host cores were busy, over the same interval.");
		if (any)
			pt_table_add_note(nx, "GPU<n>/NPU<n>: time during which at least one kernel ran on the device, divided by "
					  "the step window.");
		if (y)
			pt_table_add_note(nx, "Host CPU: means of the host's CPU samples taken during each step; context "
					  "switches are summed.");
	}
	host_rows_free(&hr);
	tx[0] = x;
	tx[1] = y;
}

static void columns(struct pt_table *t)
{
	pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "device_name", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "step", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "samples", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "utilization_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "busy", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "window", PT_COL_TIME, PT_ROLE_VALUE, 0);
	static const char *const rc[] = { "user_ratio", "system_ratio", "iowait_ratio", "idle_ratio" };
	for (int i = 0; i < 4; i++)
		pt_table_add_col(t, rc[i], PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "context_switches", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "process_user_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "process_system_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

const struct sum_view sum_view_device = {
	.id = PT_SV_DEVICE, .name = "device", .flags = SV_UNION_NPU | SV_KERNELS,
	.columns = columns, .emit = view_device,
};
