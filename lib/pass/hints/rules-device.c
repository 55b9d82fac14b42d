/*
 * The rules of one covered device (hints.md §3): the time breakdown over the
 * step windows (INPUT_BOUND, UNEXPLAINED_TIME, LAUNCH_BOUND, COMM_EXPOSED,
 * MEM_OPS_CRITICAL, DEVICE_IDLE), device utilisation, ops and FLOPs, and the
 * launch pairs (LAUNCH_DELAY, RUNTIME_OUTLIER, SHORT_KERNELS). The driver
 * measures the device once (struct devdata, struct launchdata).
 */
#define _GNU_SOURCE /* qsort_r */
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "support/progress.h"
#include "support/sort.h"
#include "support/xalloc.h"

void pt_hr_input_bound(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	struct devacc a = s->dd->a;
	int64_t steps = s->dd->steps;
	if (!rd->steps)
		hx_not_eval(c, PT_HR_INPUT_BOUND, rank, scope, "no steps");
	else if (!rd->has_loader)
		hx_not_eval(c, PT_HR_INPUT_BOUND, rank, scope, "no Dataloader ranges");
	else {
		hx_mark_eval(c, PT_HR_INPUT_BOUND, rank);
		double p = hx_pct(a.dl_t, a.step);
		enum pt_hint_sev sev = PT_SEV_INFO;
		double thr = -1;
		if (p >= k->input_high_pct)
			sev = PT_SEV_CRIT, thr = k->input_high_pct;
		else if (p >= k->input_moderate_pct)
			sev = PT_SEV_WARN, thr = k->input_moderate_pct;
		if (thr >= 0) {
			struct pt_hint *x = hx_fire(c, PT_HR_INPUT_BOUND, rank, scope, sev, "input_pct", "pct", p, thr);
			x->message = hx_msg("Training waits for input: " PT_TEXT_FRAC "%% of step time is data loading that no "
					    "device or runtime work hides (threshold " PT_TEXT_FRAC "%%). Use more loader workers or "
					    "prefetching, move decoding and augmentation out of the step, or cache "
					    "preprocessed samples.", p, thr);
			pt_hint_ev_dbl(x, "input_pct", p);
			pt_hint_ev_int(x, "dataloader_ns", a.dl_t);
			pt_hint_ev_int(x, "step_ns", a.step);
			pt_hint_ev_int(x, "steps", steps);
			pt_hint_ev_int(x, "worst_step", a.worst_dl_step);
			pt_hint_ev_dbl(x, "worst_step_pct", a.worst_dl_pct);
			pt_hint_ev_int(x, "mean_loader_ns", hx_mean_round(rd->loader_wall, steps));
		}
	}
}

void pt_hr_unexplained_time(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	struct devacc a = s->dd->a;
	int64_t steps = s->dd->steps;
	hx_mark_eval(c, PT_HR_UNEXPLAINED_TIME, rank);
	double p = hx_pct(a.other_t, a.step);
	enum pt_hint_sev sev = PT_SEV_INFO;
	double thr = -1;
	if (p >= k->unexplained_high_pct)
		sev = PT_SEV_WARN, thr = k->unexplained_high_pct;
	else if (p >= k->unexplained_moderate_pct)
		thr = k->unexplained_moderate_pct;
	if (thr >= 0) {
		struct pt_hint *x = hx_fire(c, PT_HR_UNEXPLAINED_TIME, rank, scope, sev, "other_pct", "pct", p, thr);
		x->message = hx_msg(PT_TEXT_FRAC "%% of step time is not covered by any recorded host range or device activity "
				    "(threshold " PT_TEXT_FRAC "%%): unrecorded Python code, I/O or waiting. Add ranges (NVTX, mstx, "
				    "RecordEvent) around the step's host code to see where it goes.%s", p, thr,
				    hx_rank_of(c, rank)->fired[PT_HR_INPUT_BOUND] ? "" :
				    " Hidden input waits are one possible cause (potentially input-bound).");
		pt_hint_ev_dbl(x, "other_pct", p);
		pt_hint_ev_int(x, "other_ns", a.other_t);
		pt_hint_ev_int(x, "step_ns", a.step);
		pt_hint_ev_int(x, "steps", steps);
	}
}

/* LOW_DEVICE_UTIL: each device measured (HS_DEVICE), one hint per rank (HS_RANK_DEVICES). */
/* LOW_DEVICE_UTIL's busy time: the union of a device's kernels and tasks, fed in start order. */
struct ku_acc {
	const struct pt_model *m;
	const struct pt_ivset *W;
	int64_t us, ue, busy; /* the union's open interval [us, ue); busy: |closed part ∩ W| */
	bool open;
};

static void ku_visit(void *arg, size_t i)
{
	struct ku_acc *a = arg;
	const struct pt_events *ev = &a->m->events;
	if (ev->kind[i] != PT_EV_KERNEL && ev->kind[i] != PT_EV_TASK)
		return;
	int64_t s = ev->start[i], e = s + ev->dur[i];
	if (e <= s)
		return;
	if (a->open && s <= a->ue) {
		if (e > a->ue)
			a->ue = e;
		return;
	}
	if (a->open)
		a->busy += pt_ivset_measure_in(a->W, a->us, a->ue);
	a->us = s, a->ue = e, a->open = true;
}

static void low_util_device(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	uint32_t did = s->dd->did;
	uint32_t dev = s->dd->dev;
	hx_mark_eval(c, PT_HR_LOW_DEVICE_UTIL, rank);
	/* |(kernels ∪ tasks) ∩ W|: their union swept in start order over the device's tracks, not built */
	struct ku_acc ka = { .m = c->m, .W = &rd->W };
	if (s->dd->sd) {
		ka.busy = s->dd->sd->ku_busy; /* swept as the stream passed */
	} else {
		size_t ntr = 0;
		uint32_t *tr = pt_xmalloc((c->m->tracks.n ? c->m->tracks.n : 1) * sizeof(*tr));
		for (size_t t = 0; t < c->m->tracks.n; t++)
			if (c->m->tracks.v[t].device == dev)
				tr[ntr++] = (uint32_t)t;
		pt_index_merge(c->x, tr, ntr, ku_visit, &ka);
		free(tr);
		if (ka.open)
			ka.busy += pt_ivset_measure_in(ka.W, ka.us, ka.ue);
	}
	int64_t busy = ka.busy, win = 0;
	for (size_t w = 0; w < rd->W.n; w++)
		win += rd->W.v[w].e - rd->W.v[w].s;
	if (win && hx_pct(busy, win) < k->low_util_pct) {
		rd->lu = pt_xrealloc(rd->lu, (rd->nlu + 1) * sizeof(*rd->lu));
		rd->lu[rd->nlu++] = (struct lowutil){ dev, did, busy, win };
	}
}

void pt_hr_low_device_util(struct ctx *c, const struct hsite *s)
{
	if (s->stage == HS_DEVICE) {
		low_util_device(c, s);
		return;
	}
	if (!s->rd->nlu)
		return;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	struct pt_hint *x = hx_fire(c, PT_HR_LOW_DEVICE_UTIL, rank, "rank", PT_SEV_WARN, "util_pct", "pct",
				    hx_pct(rd->lu[0].busy, rd->lu[0].window), c->k->low_util_pct);
	char list[256] = "", utils[256] = "";
	for (size_t i = 0; i < rd->nlu; i++) {
		size_t l = strlen(list), u = strlen(utils);
		snprintf(list + l, sizeof(list) - l, "%s%" PRIu32, i ? ", " : "", rd->lu[i].id);
		snprintf(utils + u, sizeof(utils) - u, "%s" PT_TEXT_FRAC, i ? "%, " : "", hx_pct(rd->lu[i].busy, rd->lu[i].window));
		char t[32];
		int ix = (int)i + 1;
		snprintf(t, sizeof(t), "%" PRIu32, rd->lu[i].id);
		pt_hint_ev_item(x, "devices", ix, "device_id", t, true);
		snprintf(t, sizeof(t), "%" PRId64, rd->lu[i].busy);
		pt_hint_ev_item(x, "devices", ix, "busy_ns", t, true);
		snprintf(t, sizeof(t), "%" PRId64, rd->lu[i].window);
		pt_hint_ev_item(x, "devices", ix, "window_ns", t, true);
		snprintf(t, sizeof(t), "%.4f", hx_pct(rd->lu[i].busy, rd->lu[i].window));
		pt_hint_ev_item(x, "devices", ix, "util_pct", t, true);
	}
	x->message = hx_msg("Device %s ran kernels only %s%% of the step window (threshold " PT_TEXT_FRAC "%%). Remove host "
			    "stalls (see DEVICE_IDLE), overlap data movement, or give each step more work; a larger "
			    "batch can change convergence.", list, utils, c->k->low_util_pct);
}

void pt_hr_launch_bound(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	const struct pt_rank_steps *r = rd->r;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	struct devacc a = s->dd->a;
	int64_t steps = s->dd->steps;
	struct nlist apis = s->dd->apis;
	if (r->host == PT_NONE) {
		hx_not_eval(c, PT_HR_LAUNCH_BOUND, rank, scope, "no runtime calls");
	} else {
		hx_mark_eval(c, PT_HR_LAUNCH_BOUND, rank);
		double p = hx_pct(a.runtime_t, a.step);
		enum pt_hint_sev sev = PT_SEV_WARN;
		double thr = -1;
		if (p >= k->launch_bound_high_pct)
			sev = PT_SEV_CRIT, thr = k->launch_bound_high_pct;
		else if (p >= k->launch_bound_moderate_pct)
			thr = k->launch_bound_moderate_pct;
		if (thr >= 0) {
			struct pt_hint *x = hx_fire(c, PT_HR_LAUNCH_BOUND, rank, scope, sev, "launch_pct", "pct", p, thr);
			x->message = hx_msg(PT_TEXT_FRAC "%% of step time is spent in runtime/launch calls while the device is "
					    "idle (threshold " PT_TEXT_FRAC "%%). Fuse small kernels, capture repeated launch sequences "
					    "in graphs, and avoid synchronising API calls inside the step.", p, thr);
			pt_hint_ev_dbl(x, "launch_pct", p);
			pt_hint_ev_int(x, "runtime_ns", a.runtime_t);
			pt_hint_ev_int(x, "step_ns", a.step);
			pt_hint_ev_int(x, "steps", steps);
			hx_nl_sort_api(c, &apis);
			hx_ev_top3(c, x, "apis", &apis, true, "exposed_ns");
		}
	}
}

void pt_hr_comm_exposed(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	struct devacc a = s->dd->a;
	int64_t steps = s->dd->steps;
	const struct pt_ivset *M = s->dd->M;
	hx_mark_eval(c, PT_HR_COMM_EXPOSED, rank);
	double p = hx_pct(a.cno, a.step);
	if (p > k->comm_exposed_pct) {
		int64_t mw = 0, wl = 0;
		for (size_t w = 0; w < rd->W.n; w++) {
			if (M)
				mw += pt_ivset_measure_in(M, rd->W.v[w].s, rd->W.v[w].e);
			wl += rd->W.v[w].e - rd->W.v[w].s;
		}
		if (s->dd->sd)
			mw = s->dd->sd->mw;
		double cp = hx_pct(mw, wl);
		const char *cls = cp >= 15 ? "high" : cp >= 3 ? "moderate" : "low";
		struct pt_hint *x = hx_fire(c, PT_HR_COMM_EXPOSED, rank, scope, PT_SEV_WARN, "comm_pct", "pct", p,
					    k->comm_exposed_pct);
		x->message = hx_msg(PT_TEXT_FRAC "%% of step time is communication that no computation hides (threshold "
				    PT_TEXT_FRAC "%%); collectives run during " PT_TEXT_FRAC "%% of the window (%s). Overlap gradient reduction "
				    "with backward computation (bucketing, fusion), send less (compression, fewer "
				    "synchronisations through gradient accumulation, which raises the effective batch), "
				    "or give each device more work per step.", p, k->comm_exposed_pct, cp, cls);
		pt_hint_ev_dbl(x, "comm_pct", p);
		pt_hint_ev_int(x, "comm_not_overlapped_ns", a.cno);
		pt_hint_ev_int(x, "step_ns", a.step);
		pt_hint_ev_int(x, "steps", steps);
		pt_hint_ev_dbl(x, "collective_pct", cp);
	}
}

void pt_hr_mem_ops_critical(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	uint32_t did = s->dd->did;
	struct devacc a = s->dd->a;
	int64_t steps = s->dd->steps;
	bool has_mem = s->dd->has_mem;
	struct hx_mfold *f = &s->dd->mf;
	char b1[48];
	if (!has_mem) {
		hx_not_eval(c, PT_HR_MEM_OPS_CRITICAL, rank, scope, "no memcpy or memset activity");
	} else {
		hx_mark_eval(c, PT_HR_MEM_OPS_CRITICAL, rank);
		double p = hx_pct(a.memcpy_t + a.memset_t, a.step);
		double thr = -1;
		enum pt_hint_sev sev = PT_SEV_INFO;
		if (p >= k->mem_ops_high_pct)
			sev = PT_SEV_WARN, thr = k->mem_ops_high_pct;
		else if (p >= k->mem_ops_moderate_pct)
			thr = k->mem_ops_moderate_pct;
		if (thr >= 0) {
			/* exposed time per kind: union per kind inside the attribution (the first 16 kinds) */
			if (!s->dd->has_mf) {
				hx_mfold_list(f, s->dd->mops, s->dd->nmops);
				s->dd->has_mf = true;
			}
			hx_mfold_order(f);
			const struct hx_mkind *kinds = f->kinds;
			size_t nk = f->nk < 16 ? f->nk : 16;
			int64_t nexp = f->nexp;
			size_t best = 0;
			int64_t ksum = 0;
			for (size_t q = 0; q < nk; q++) {
				ksum += kinds[q].t;
				if (kinds[q].t > kinds[best].t ||
				    (kinds[q].t == kinds[best].t && strcmp(kinds[q].kind, kinds[best].kind) < 0))
					best = q;
			}
			double kp = nk ? hx_pct(kinds[best].t, ksum) : 0;
			struct pt_hint *x = hx_fire(c, PT_HR_MEM_OPS_CRITICAL, rank, scope, sev, "mem_pct", "pct", p, thr);
			x->message = hx_msg("Device %" PRIu32 " spends " PT_TEXT_FRAC "%% of step time (%s per step) only copying or "
					    "filling memory, with no computation or communication beside it (threshold "
					    PT_TEXT_FRAC "%%); %s accounts for " PT_TEXT_FRAC "%% of that time. Keep tensors on the device "
					    "between steps, copy from pinned host memory with asynchronous copies on their "
					    "own stream so that computation continues, and avoid reading device values back "
					    "to the host inside the step.", did, p,
					    hx_ftime(c, b1, hx_mean_round(a.memcpy_t + a.memset_t, steps)), thr,
					    nk ? kinds[best].kind : "none", kp);
			pt_hint_ev_dbl(x, "mem_pct", p);
			pt_hint_ev_int(x, "memcpy_ns", a.memcpy_t);
			pt_hint_ev_int(x, "memset_ns", a.memset_t);
			pt_hint_ev_int(x, "step_ns", a.step);
			pt_hint_ev_int(x, "steps", steps);
			pt_hint_ev_str(x, "kind", nk ? kinds[best].kind : "none");
			pt_hint_ev_dbl(x, "kind_pct", kp);
			for (size_t q = 0; q < nk; q++) {
				char key[64];
				snprintf(key, sizeof(key), "%s_exposed_ns", kinds[q].kind);
				for (char *p2 = key; *p2; p2++)
					if (*p2 >= 'A' && *p2 <= 'Z')
						*p2 = (char)(*p2 - 'A' + 'a');
				pt_hint_ev_int(x, key, kinds[q].t);
			}
			pt_hint_ev_int(x, "exposed_ops", nexp);
			const struct memop *mops = f->top;
			for (size_t i = 0; i < f->ntop; i++) {
				char t[48];
				int ix = (int)i + 1;
				pt_hint_ev_item(x, "top", ix, "name", hx_dname(c, mops[i].name), false);
				pt_hint_ev_item(x, "top", ix, "kind", mops[i].kind, false);
				snprintf(t, sizeof(t), "%" PRIu64, mops[i].bytes);
				pt_hint_ev_item(x, "top", ix, "bytes", t, true);
				snprintf(t, sizeof(t), "%" PRId64, mops[i].start);
				pt_hint_ev_item(x, "top", ix, "start_ns", t, true);
				snprintf(t, sizeof(t), "%" PRId64, mops[i].exposed);
				pt_hint_ev_item(x, "top", ix, "exposed_ns", t, true);
				pt_hint_ev_item(x, "top", ix, "call", mops[i].has_call ? hx_aname(c, mops[i].call) : "", false);
			}
		}
	}
}

/* DEVICE_IDLE's classes of the idle gaps, one gap at a time. */
struct idle_acc {
	struct ctx *c;
	const struct rankdata *rd;
	const uint32_t *acts, *call;
	size_t nacts;
	int64_t cls[3], cnt[3], longest, il;
};

static void idle_gap(struct idle_acc *a, int64_t ga, int64_t gb)
{
	const struct pt_events *ev = &a->c->m->events;
	a->il += gb - ga;
	if (gb - ga > a->longest)
		a->longest = gb - ga;
	/* first member activity starting at or after gb */
	size_t lo = 0, hi = a->nacts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ev->start[a->acts[mid]] < gb)
			lo = mid + 1;
		else
			hi = mid;
	}
	int cl = 2;
	size_t call = lo < a->nacts && a->call && a->call[lo] ? a->call[lo] - 1 : SIZE_MAX;
	if (call != SIZE_MAX && ev->start[call] > ga)
		cl = 0;
	else if (gb - ga < a->c->k->idle_kernel_wait_gap_ns)
		cl = 1;
	a->cls[cl] += gb - ga;
	a->cnt[cl]++;
}

void pt_hr_device_idle(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	uint32_t did = s->dd->did;
	const uint32_t *acts = s->dd->acts;
	size_t nacts = s->dd->nacts;
	const struct pt_ivset *Mc = s->dd->Mc;
	const struct pt_ivset *Ms = s->dd->Ms;
	char b1[48];
	hx_mark_eval(c, PT_HR_DEVICE_IDLE, rank);
	struct pt_ivset tmpo = { 0 }, busyo = { 0 };
	struct pt_ivset none = { 0 };
	const struct pt_ivset *busy = s->dd->sd ? &none : hx_union_ref(hx_union_ref(s->dd->CM, Mc, &tmpo), Ms, &busyo);
	struct idle_acc ia = { .c = c, .rd = rd, .acts = acts, .call = s->dd->call, .nacts = nacts };
	/* the idle gaps W − busy, in order (streamed: classified as the stream passed) */
	const struct pt_ivset *W = &rd->W;
	if (s->dd->sd) {
		const struct hx_idle *f = &s->dd->sd->idle;
		ia.il = f->il;
		ia.longest = f->longest;
		memcpy(ia.cls, f->cls, sizeof(ia.cls));
		memcpy(ia.cnt, f->cnt, sizeof(ia.cnt));
	}
	size_t bi = 0;
	for (size_t w = 0; w < W->n && !s->dd->sd; w++) {
		pt_progress_tick("checking the device's idle time", bi, busy->n);
		int64_t ws = W->v[w].s, we = W->v[w].e, pos = ws;
		while (bi < busy->n && busy->v[bi].e <= ws)
			bi++;
		for (; bi < busy->n && busy->v[bi].s < we; bi++) {
			if (busy->v[bi].s > pos)
				idle_gap(&ia, pos, busy->v[bi].s);
			if (busy->v[bi].e > pos)
				pos = busy->v[bi].e;
			if (busy->v[bi].e >= we)
				break; /* it may reach into the next window */
		}
		if (pos < we)
			idle_gap(&ia, pos, we);
	}
	int64_t wl = pt_ivset_measure(W), il = ia.il, longest = ia.longest;
	const int64_t *cls = ia.cls, *cnt = ia.cnt;
	double ip = hx_pct(il, wl);
	if (wl && ip >= k->idle_min_pct) {
		int big = 0;
		for (int q = 1; q < 3; q++)
			if (cls[q] > cls[big])
				big = q;
		double share = hx_pct(cls[big], il);
		bool w = share >= k->idle_class_pct;
		struct pt_hint *x = hx_fire(c, PT_HR_DEVICE_IDLE, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
					    w ? "class_share_pct" : "idle_pct", "pct", w ? share : ip,
					    w ? k->idle_class_pct : k->idle_min_pct);
		if (w && big == 0)
			x->message = hx_msg("Device %" PRIu32 " is idle " PT_TEXT_FRAC "%% of the step window; "
					    PT_TEXT_FRAC "%% of that idle "
					    "time the host had not yet submitted the next work: the host is the "
					    "bottleneck (framework overhead, data loading, synchronisation).", did, ip, share);
		else if (w && big == 1)
			x->message = hx_msg("Device %" PRIu32 " is idle " PT_TEXT_FRAC "%% of the step window, mostly in gaps "
					    "shorter than %s between back-to-back work: per-launch overhead dominates; "
					    "fuse kernels or use graphs.", did, ip, hx_ftime(c, b1, k->idle_kernel_wait_gap_ns));
		else if (w)
			x->message = hx_msg("Device %" PRIu32 " is idle " PT_TEXT_FRAC "%% of the step window while work was "
					    "already submitted: it waits on events, other streams or collectives.", did, ip);
		else
			x->message = hx_msg("Device %" PRIu32 " is idle " PT_TEXT_FRAC "%% of the step window: host_wait " PT_TEXT_FRAC "%%, "
					    "kernel_wait " PT_TEXT_FRAC "%%, other " PT_TEXT_FRAC "%% of the idle time.", did, ip,
					    hx_pct(cls[0], il), hx_pct(cls[1], il), hx_pct(cls[2], il));
		pt_hint_ev_dbl(x, "idle_pct", ip);
		pt_hint_ev_int(x, "idle_ns", il);
		pt_hint_ev_int(x, "window_ns", wl);
		pt_hint_ev_int(x, "host_wait_ns", cls[0]);
		pt_hint_ev_int(x, "kernel_wait_ns", cls[1]);
		pt_hint_ev_int(x, "other_ns", cls[2]);
		pt_hint_ev_int(x, "host_wait_gaps", cnt[0]);
		pt_hint_ev_int(x, "kernel_wait_gaps", cnt[1]);
		pt_hint_ev_int(x, "other_gaps", cnt[2]);
		pt_hint_ev_int(x, "longest_gap_ns", longest);
	}
	pt_ivset_free(&busyo);
	pt_ivset_free(&tmpo);
}

void pt_hr_top_ops(struct ctx *c, const struct hsite *s)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	const struct pt_events *ev = &m->events;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	uint32_t did = s->dd->did;
	const uint32_t *acts = s->dd->acts;
	size_t nacts = s->dd->nacts;
	char b1[48], b2[48], b3[48];
	struct nlist ops = { 0 }, types = { 0 };
	int64_t T = 0;
	const struct hx_sdev *sd = s->dd->sd;
	if (sd) { /* summed as the stream passed; sorted here, freed with the figures */
		ops = sd->ops;
		types = sd->types;
		T = sd->T;
	}
	for (size_t j = 0; j < nacts && !sd; j++) {
		size_t i = acts[j];
		uint32_t name = 0, type = 0;
		if (ev->kind[i] == PT_EV_TASK && ev->op[i]) {
			const struct pt_op *op = &m->ops.v[ev->op[i] - 1];
			name = op->name;
			type = op->type ? op->type : op->name;
		} else if (ev->kind[i] == PT_EV_KERNEL) {
			name = type = ev->name[i];
			if (s->dd->call && s->dd->call[j]) { /* launched by a call */
				uint32_t lr = hx_link_range(c, i);
				if (lr) {
					size_t re = lr - 1;
					const struct pt_range_info *ri = hx_range_of(m, re);
					if (ri && !strcmp(pt_model_strget(m, ri->type), "Operator"))
						type = ri->label ? ri->label : ev->name[re];
				}
			}
		} else {
			continue;
		}
		if (!name)
			continue;
		struct named *o = hx_nl_get(&ops, name), *t = hx_nl_get(&types, type);
		o->a += ev->dur[i], o->b++;
		t->a += ev->dur[i], t->b++;
		T += ev->dur[i];
	}
	if (!T) {
		hx_not_eval(c, PT_HR_TOP_OPS, rank, scope, "no operator time");
	} else {
		hx_mark_eval(c, PT_HR_TOP_OPS, rank);
		hx_nl_sort(c, &ops);
		hx_nl_sort(c, &types);
		double tp = hx_pct(types.v[0].a, T);
		if (tp >= k->top_ops_type_pct) {
			size_t n = (size_t)k->top_ops_n;
			int64_t topn = 0;
			for (size_t i = 0; i < types.n && i < n; i++)
				topn += types.v[i].a;
			double tnp = hx_pct(topn, T);
			struct pt_hint *x = hx_fire(c, PT_HR_TOP_OPS, rank, scope, PT_SEV_INFO, "top_type_pct", "pct", tp,
						    k->top_ops_type_pct);
			x->message = hx_msg("Op type %s takes " PT_TEXT_FRAC "%% of device %" PRIu32 "'s op time (%s of %s; threshold "
					    PT_TEXT_FRAC "%%), and the top %zu types take " PT_TEXT_FRAC "%%. Work on them first: check their "
					    "shapes, data types and memory formats, fuse small ops with their neighbours, and "
					    "look for a faster implementation of the slowest ones.",
					    hx_dname(c, types.v[0].name), tp, did, hx_ftime(c, b1, types.v[0].a),
					    hx_ftime(c, b2, T), k->top_ops_type_pct, n < types.n ? n : types.n, tnp);
			pt_hint_ev_int(x, "total_ns", T);
			pt_hint_ev_int(x, "n", (int64_t)n);
			pt_hint_ev_dbl(x, "top_type_pct", tp);
			pt_hint_ev_dbl(x, "top_n_pct", tnp);
			for (int l = 0; l < 2; l++) {
				struct nlist *L = l ? &ops : &types;
				for (size_t i = 0; i < L->n && i < n; i++) {
					const char *nm = hx_dname(c, L->v[i].name);
					double sh = hx_pct(L->v[i].a, T);
					pt_hint_item(x, "%s %s: " PT_TEXT_FRAC "%% (%s, %" PRId64 " calls).", l ? "op" : "type", nm,
						     sh, hx_ftime(c, b3, L->v[i].a), L->v[i].b);
					char t[48];
					const char *ln = l ? "ops" : "types";
					pt_hint_ev_item(x, ln, (int)i + 1, "name", nm, false);
					snprintf(t, sizeof(t), "%" PRId64, L->v[i].b);
					pt_hint_ev_item(x, ln, (int)i + 1, "calls", t, true);
					snprintf(t, sizeof(t), "%" PRId64, L->v[i].a);
					pt_hint_ev_item(x, ln, (int)i + 1, "time_ns", t, true);
					snprintf(t, sizeof(t), "%.4f", sh);
					pt_hint_ev_item(x, ln, (int)i + 1, "share", t, true);
				}
			}
		}
	}
	if (sd) { /* the sorted lists go back to the figures, which free them */
		((struct hx_sdev *)sd)->ops = ops;
		((struct hx_sdev *)sd)->types = types;
	} else {
		hx_nl_free(&ops);
		hx_nl_free(&types);
	}
}

/* By type, then start (arg: the events' starts). */
static int cmp_fexec(const void *pa, const void *pb, void *arg)
{
	const struct fexec *a = pa, *b = pb;
	const int64_t *start = arg;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	int64_t as = start[a->ev], bs = start[b->ev];
	return as < bs ? -1 : as > bs;
}

/*
 * LOW_FLOPS_UTIL on one covered device (hints.md §3): K, its FLOPs F and
 * busy time B are the driver's (hx_flops_measure; they also feed RANK_FLOPS
 * and PP_STAGE_FLOPS when this rule is disabled).
 */
void pt_hr_low_flops_util(struct ctx *c, const struct hsite *s)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rd = s->rd;
	struct devdata *dd = s->dd;
	hx_flops_measure(c, rd, dd);
	int64_t rank = rd->r->rank;
	uint32_t dev = dd->dev;
	const char *scope = dd->scope;
	struct fexec *kx = dd->kx;
	size_t nk = dd->nk;
	long double F = dd->F;
	int64_t B = dd->B, comp = dd->a.comp;
	bool gpu = m->devices.v[dev].kind == PT_DEV_GPU;
	struct pt_flops_peak pk;
	pt_flops_device_peak(m, dev, &pk);
	const char *psrc = pk.src == PT_PEAK_SRC_TABLE ? "table" : "info.json";
	if (k->flops_peak_tflops > 0) {
		pk.flops = k->flops_peak_tflops * 1e12;
		psrc = "hint";
	}
	if (!(pk.flops > 0)) {
		hx_not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "%s",
			    gpu ? "no device peak (the GPU is not in the peak table; set hints.flops_util.peak_tflops)"
				: "no device peak");
		return;
	}
	if (!nk || !B) {
		hx_not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "%s",
			    gpu ? "no kernel FLOPs known (no PyTorch operator ranges with input sizes)" : "no FLOPs data");
		return;
	}
	double cov = hx_pct(B, comp);
	if (cov < k->flops_min_coverage_pct) {
		hx_not_eval(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, "ops with known FLOPs cover " PT_TEXT_FRAC "%% of computation time "
			    "(below " PT_TEXT_FRAC "%%)", cov, k->flops_min_coverage_pct);
		return;
	}
	hx_mark_eval(c, PT_HR_LOW_FLOPS_UTIL, rank);
	double achieved = (double)(F / ((long double)B / 1e9L));
	double util = 100.0 * achieved / pk.flops;
	if (util < k->flops_low_pct) {
		char t[64];
		struct pt_hint *x = hx_fire(c, PT_HR_LOW_FLOPS_UTIL, rank, scope, PT_SEV_WARN, "util_pct", "pct", util,
					    k->flops_low_pct);
		x->message = hx_msg("While device %" PRIu32 " runs ops with known FLOPs it reaches " PT_TEXT_FRAC
				    " TFLOPS, " PT_TEXT_FRAC "%% of its "
				    PT_TEXT_FRAC " TFLOPS peak (threshold " PT_TEXT_FRAC "%%). Efficiency this low usually means small or badly "
				    "shaped operations, memory-bound element-wise work, or a data type the fast units do not "
				    "handle: use larger batches or fused ops, align dimensions to the hardware tile (16 on "
				    "Ascend, multiples of 8 for Tensor Cores), and compute in FP16/BF16 where accuracy allows.",
				    m->devices.v[dev].id, achieved / 1e12, util, pk.flops / 1e12, k->flops_low_pct);
		pt_hint_ev_dbl(x, "util_pct", util);
		snprintf(t, sizeof(t), "%.0Lf", F);
		pt_hint_ev_num(x, "flops", t);
		pt_hint_ev_int(x, "busy_ns", B);
		pt_hint_ev_dbl(x, "achieved_tflops", achieved / 1e12);
		snprintf(t, sizeof(t), "%.0f", pk.flops);
		pt_hint_ev_num(x, "peak_flops", t);
		pt_hint_ev_str(x, "peak_source", psrc);
		pt_hint_ev_dbl(x, "coverage_pct", cov);
		/* the three op types with the most time in K, each with its utilisation */
		struct tfig {
			uint32_t type;
			int64_t busy;
			long double f;
		} *tv = pt_xmalloc(nk * sizeof(*tv));
		size_t nt = 0;
		if (dd->sd) { /* per type as the stream passed */
			for (size_t i = 0; i < dd->sd->ntv; i++)
				tv[nt++] = (struct tfig){ dd->sd->tv[i].type, dd->sd->tv[i].busy, dd->sd->tv[i].f };
			nk = 0;
		} else {
			hx_sort_r(kx, nk, sizeof(*kx), cmp_fexec, (void *)m->events.start);
		}
		for (size_t i = 0; i < nk;) {
			size_t j = i;
			long double tf = 0;
			while (j < nk && kx[j].type == kx[i].type)
				tf += (long double)kx[j++].f;
			tv[nt++] = (struct tfig){ kx[i].type, hx_busy_in(rd, m, kx + i, j - i), tf };
			i = j;
		}
		/* by time descending, then name */
		for (size_t a = 1; a < nt; a++)
			for (size_t b = a; b > 0; b--) {
				struct tfig *p = &tv[b - 1], *q = &tv[b];
				bool sw = q->busy > p->busy ||
					  (q->busy == p->busy &&
					   strcmp(pt_model_strget(m, q->type), pt_model_strget(m, p->type)) < 0);
				if (!sw)
					break;
				struct tfig tmp = *p;
				*p = *q;
				*q = tmp;
			}
		for (size_t q = 0; q < nt && q < 3; q++) {
			int ix = (int)q + 1;
			pt_hint_ev_item(x, "types", ix, "name", pt_model_strget(m, tv[q].type), false);
			snprintf(t, sizeof(t), "%" PRId64, tv[q].busy);
			pt_hint_ev_item(x, "types", ix, "busy_ns", t, true);
			double tu = tv[q].busy ? (double)(tv[q].f / ((long double)tv[q].busy / 1e9L)) / pk.flops * 100 : 0;
			snprintf(t, sizeof(t), "%.4f", tu);
			pt_hint_ev_item(x, "types", ix, "util_pct", t, true);
		}
		free(tv);
	}
}
void pt_hr_unattributed_device(struct ctx *c, const struct hsite *s)
{
	const struct pt_model *m = c->m;
	const struct pt_hint_knobs *k = c->k;
	const struct pt_events *ev = &m->events;
	struct rankdata *rd = s->rd;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->dd->scope;
	const uint32_t *acts = s->dd->acts;
	size_t nacts = s->dd->nacts;
	char b1[48];
	if (!rd->am) {
		hx_not_eval(c, PT_HR_UNATTRIBUTED_DEVICE, rank, scope, "no runtime calls");
	} else {
		hx_mark_eval(c, PT_HR_UNATTRIBUTED_DEVICE, rank);
		int64_t un = 0, cnt = 0, tot = 0;
		if (s->dd->sd) /* summed as the stream passed */
			un = s->dd->sd->un, cnt = s->dd->sd->uncnt, tot = s->dd->sd->tot;
		for (size_t j = 0; j < nacts && !s->dd->sd; j++) {
			size_t i = acts[j];
			tot += ev->dur[i];
			if (!s->dd->call[j])
				un += ev->dur[i], cnt++;
		}
		double p = hx_pct(un, tot);
		if (tot && p > k->unattributed_pct) {
			struct pt_hint *x = hx_fire(c, PT_HR_UNATTRIBUTED_DEVICE, rank, scope, PT_SEV_INFO,
						    "unattributed_pct", "pct", p, k->unattributed_pct);
			x->message = hx_msg(PT_TEXT_FRAC "%% of device time (%s) has no launching host event, so per-operator and "
					    "per-phase views undercount it; the trace may lack runtime API records or "
					    "correlation ids.", p, hx_ftime(c, b1, un));
			pt_hint_ev_dbl(x, "unattributed_pct", p);
			pt_hint_ev_int(x, "unattributed_ns", un);
			pt_hint_ev_int(x, "unattributed_count", cnt);
			pt_hint_ev_int(x, "device_ns", tot);
		}
	}
}

/* ---- launch pairs (hints.md §2.3) ---------------------------------------------------- */

void pt_hr_launch_delay(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->ld->scope;
	const int64_t *qd = s->ld->qd_q, *ld = s->ld->ld_q; /* p50, p99, largest */
	int64_t qd_cut = s->ld->qd_cut;
	int64_t qd_out = s->ld->qd_out;
	int64_t pairs = s->ld->pairs;
	bool low_util = s->ld->low_util;
	struct nlist qk = s->ld->qk;
	char b1[48], b2[48], b3[48], b4[48];
	hx_mark_eval(c, PT_HR_LAUNCH_DELAY, rank);
	if (qd_out) {
		double share = hx_pct(qd_out, pairs);
		bool w = share >= k->queue_delay_warn_pct && low_util;
		struct pt_hint *x = hx_fire(c, PT_HR_LAUNCH_DELAY, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
					    "queue_delay_outliers", "count", (double)qd_out, 1); /* fires at >= 1 */
		x->message = hx_msg("%" PRId64 " of %" PRId64 " launches (" PT_TEXT_FRAC "%%) started on the device more than %s "
				    "after the launch call returned (p50 %s, p99 %s, max %s). With a busy device this "
				    "is queueing; with an idle one the work waited on a synchronisation, an event or "
				    "another stream.", qd_out, pairs, share, hx_ftime(c, b1, qd_cut),
				    hx_ftime(c, b2, qd[0]), hx_ftime(c, b3, qd[1]), hx_ftime(c, b4, qd[2]));
		pt_hint_ev_int(x, "outliers", qd_out);
		pt_hint_ev_int(x, "launches", pairs);
		pt_hint_ev_dbl(x, "share_pct", share);
		pt_hint_ev_int(x, "queue_delay_cutoff_ns", qd_cut); /* what makes an outlier */
		pt_hint_ev_int(x, "queue_delay_p50_ns", qd[0]);
		pt_hint_ev_int(x, "queue_delay_p99_ns", qd[1]);
		pt_hint_ev_int(x, "queue_delay_max_ns", qd[2]);
		pt_hint_ev_int(x, "launch_delay_p50_ns", ld[0]);
		pt_hint_ev_int(x, "launch_delay_p99_ns", ld[1]);
		hx_nl_sort(c, &qk);
		hx_ev_top3(c, x, "kernels", &qk, false, "outliers");
	}
}

void pt_hr_runtime_outlier(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->ld->scope;
	const int64_t *cpu = s->ld->cpu_q; /* p50, p99, largest */
	int64_t rt_cut = s->ld->rt_cut;
	int64_t calls = s->ld->calls;
	int64_t rt_out = s->ld->rt_out;
	struct nlist ra = s->ld->ra;
	char b1[48], b2[48];
	hx_mark_eval(c, PT_HR_RUNTIME_OUTLIER, rank);
	if (rt_out) {
		double share = hx_pct(rt_out, calls);
		bool w = share >= k->runtime_warn_pct;
		hx_nl_sort_api(c, &ra);
		struct pt_hint *x = hx_fire(c, PT_HR_RUNTIME_OUTLIER, rank, scope, w ? PT_SEV_WARN : PT_SEV_INFO,
					    "runtime_outlier_pct", "pct", share, k->runtime_warn_pct);
		x->message = hx_msg("%" PRId64 " launch calls (" PT_TEXT_FRAC "%%) took longer than %s on the host (max %s, mostly "
				    "%s). Slow launch calls usually hide implicit synchronisation, memory allocation or "
				    "lock contention inside the runtime.", rt_out, share, hx_ftime(c, b1, rt_cut),
				    hx_ftime(c, b2, cpu[2]), hx_aname(c, ra.v[0].name));
		pt_hint_ev_int(x, "outliers", rt_out);
		pt_hint_ev_int(x, "launches", calls);
		pt_hint_ev_dbl(x, "share_pct", share);
		pt_hint_ev_int(x, "cpu_dur_p50_ns", cpu[0]);
		pt_hint_ev_int(x, "cpu_dur_p99_ns", cpu[1]);
		pt_hint_ev_int(x, "cpu_dur_max_ns", cpu[2]);
		hx_ev_top3(c, x, "apis", &ra, true, "outliers");
	}
}

void pt_hr_short_kernels(struct ctx *c, const struct hsite *s)
{
	const struct pt_hint_knobs *k = c->k;
	int64_t rank = s->rd->r->rank;
	const char *scope = s->ld->scope;
	int64_t shortn = s->ld->shortn;
	int64_t short_cpu = s->ld->short_cpu;
	int64_t short_gpu = s->ld->short_gpu;
	int64_t pairs = s->ld->pairs;
	struct nlist sk = s->ld->sk;
	hx_mark_eval(c, PT_HR_SHORT_KERNELS, rank);
	double share = hx_pct(shortn, pairs);
	if (pairs && share >= k->short_kernels_pct) {
		hx_nl_sort(c, &sk);
		struct pt_hint *x = hx_fire(c, PT_HR_SHORT_KERNELS, rank, scope, PT_SEV_WARN, "short_pct", "pct", share,
					    k->short_kernels_pct);
		x->message = hx_msg(PT_TEXT_FRAC "%% of launched kernels (%" PRId64 ") run for less time than the host call "
				    "that launched them: the host cannot issue such small kernels fast enough to keep "
				    "the device busy. Fuse them or use graph capture.", share, shortn);
		pt_hint_ev_int(x, "short", shortn);
		pt_hint_ev_int(x, "launches", pairs);
		pt_hint_ev_dbl(x, "share_pct", share);
		pt_hint_ev_int(x, "mean_cpu_dur_ns", hx_mean_round(short_cpu, shortn));
		pt_hint_ev_int(x, "mean_device_dur_ns", hx_mean_round(short_gpu, shortn));
		hx_ev_top3(c, x, "kernels", &sk, false, "short");
	}
}
