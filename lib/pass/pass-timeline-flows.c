/*
 * The timeline trace's flows (launch arrows, chrome-trace.md §6) and counter
 * groups (§7): which events and samples, on which rows, in which order.
 */
#include "pass/pass-timeline-trace.h"

#include <stdlib.h>
#include <string.h>

#include "support/idmap.h"
#include "support/progress.h"
#include "support/xalloc.h"

/* ------------------------------------------------------------------ flows and counters */

/*
 * Stable sort of the flow indexes idx[0 .. n) by their end's time (fts); tmp
 * has room for n / 2 + 1. A merge sort (DESIGN.md §8: no comparison sorts
 * with callbacks on hot paths) that merges only halves out of order: a row's
 * arrows come nearly in fts order already (they are numbered by their calls'
 * starts), so it costs about a pass over them, and its scratch is 4 bytes for
 * every two arrows (a radix sort of (fts, index) pairs took 32 bytes an arrow:
 * 37 MiB for the 1.15 million arrows of a 1 GiB CUPTI dump's stream).
 */
/* (the activity's time of arrow i of v) */
#define FTS(i) tl_arrow_time_at(at, (i), v[(i)].t, true)

void tl_flow_sort_fts(const struct tl_arrow_times *at, const struct tl_arrow_rt *v, uint32_t *idx, size_t n,
		      uint32_t *tmp)
{
	if (n < 24) {
		for (size_t i = 1; i < n; i++) {
			uint32_t x = idx[i];
			int64_t fx = FTS(x);
			size_t j = i;
			for (; j && FTS(idx[j - 1]) > fx; j--)
				idx[j] = idx[j - 1];
			idx[j] = x;
		}
		return;
	}
	size_t h = n / 2;
	tl_flow_sort_fts(at, v, idx, h, tmp);
	tl_flow_sort_fts(at, v, idx + h, n - h, tmp);
	if (FTS(idx[h - 1]) <= FTS(idx[h]))
		return; /* in order already */
	/* the left half out of the way, then merged in front of the right one (ties: the left first) */
	memcpy(tmp, idx, h * sizeof(*tmp));
	size_t a = 0, b = h, o = 0;
	while (a < h && b < n)
		idx[o++] = FTS(idx[b]) < FTS(tmp[a]) ? idx[b++] : tmp[a++];
	while (a < h)
		idx[o++] = tmp[a++];
}
#undef FTS

static int64_t row_time(const struct tl_trace *c, int64_t t, uint32_t dev)
{
	return t + c->dev_off[dev] - c->base;
}

/*
 * The flows, found by walking the rows' events (each event of a track is on
 * one row, and only those are linked), so that no per-event map from event
 * to row is needed. The join is keyed by the activities' correlation ids,
 * which are few next to the API calls' (most calls launch nothing): a map of
 * those ids to the best API call seen (first by start, then by model order,
 * with its row), and a bitmap of them over their range so that most calls
 * are passed over without a probe. Correlation ids are per process: in a
 * model of several processes (the CPU devices' pids; a GPU device is of the
 * process of its pid) each process is joined alone, so that no arrow joins
 * one process's call to another's activity where their ids are alike
 * (proftool-timeline(1)). The kineto profile joins the model as one.
 */
#define API_PACK(row, i) ((uint64_t)(row) << 32 | (uint64_t)(i))
#define API_NONE UINT64_MAX
struct act {
	uint64_t corr;
	uint32_t ev, row;
};

/* The process of row r's events (their device's pid), or UINT32_MAX when the row has none. */
static uint32_t row_pid(const struct tl_trace *c, const struct row *rw)
{
	if (rw->type != R_TRACK || rw->track >= c->m->tracks.n)
		return UINT32_MAX;
	return c->m->devices.v[c->m->tracks.v[rw->track].device].pid;
}

/* The flows of the rows of process pid (all: of every row), after the others' in c->flows. */
static void join_rows(struct tl_trace *c, uint32_t pid, bool all, size_t *done)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	/* the activities that may be linked, in row order, and the range of their ids */
	PT_VEC(struct act) acts = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->type != R_TRACK || (!all && row_pid(c, rw) != pid))
			continue;
		for (size_t k = 0; k < rw->n; k++) {
			pt_progress_tick("linking the launches", (*done)++, 2 * ev->n);
			uint32_t i = rw->idx[k];
			uint8_t kd = ev->kind[i];
			uint64_t co = ev->corr[i];
			if (!co || kd == PT_EV_API || kd == PT_EV_RANGE || ev->dur[i] < 1)
				continue;
			struct act a = { co, i, (uint32_t)r };
			pt_vec_push(&acts, a);
			if (co < lo)
				lo = co;
			if (co > hi)
				hi = co;
		}
	}
	if (!acts.n) {
		pt_vec_free(&acts);
		return;
	}
	struct pt_idmap api; /* activity correlation id -> best API call (API_PACK), API_NONE: none yet */
	pt_idmap_init(&api, lo, hi, acts.n);
	pt_idmap_filter(&api, lo, hi, (uint64_t)ev->n << 3); /* where small next to the calls' columns */
	for (size_t k = 0; k < acts.n; k++)
		pt_idmap_put(&api, acts.v[k].corr, API_NONE, NULL);
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->type != R_TRACK || (!all && row_pid(c, rw) != pid))
			continue;
		for (size_t k = 0; k < rw->n; k++) {
			pt_progress_tick("linking the launches", (*done)++, 2 * ev->n);
			uint32_t i = rw->idx[k];
			uint64_t co = ev->corr[i];
			if (ev->kind[i] != PT_EV_API || co < lo || co > hi || ev->dur[i] < 1)
				continue;
			uint64_t *v = pt_idmap_get(&api, co);
			if (!v)
				continue;
			uint32_t cur = (uint32_t)*v;
			if (*v == API_NONE || ev->start[i] < ev->start[cur] || (ev->start[i] == ev->start[cur] && i < cur))
				*v = API_PACK(r, i);
		}
	}
	for (size_t k = 0; k < acts.n; k++) {
		uint32_t i = acts.v[k].ev;
		uint64_t a = *pt_idmap_get(&api, acts.v[k].corr);
		if (a == API_NONE)
			continue;
		uint32_t ai = (uint32_t)a, arow = (uint32_t)(a >> 32);
		uint32_t ad = m->tracks.v[ev->track[ai]].device, dd = m->tracks.v[ev->track[i]].device;
		/* viewer: at the midpoints (§6); kineto: at the starts, as Kineto writes them (cupti.md §7.6) */
		int64_t sh = c->kineto ? 0 : ev->dur[ai] / 2, fh = c->kineto ? 0 : ev->dur[i] / 2;
		struct flow f = { ai, i, arow, acts.v[k].row, row_time(c, ev->start[ai] + sh, ad),
				  row_time(c, ev->start[i] + fh, dd) };
		pt_vec_push(&c->flows, f);
	}
	pt_idmap_free(&api);
	pt_vec_free(&acts);
}

void tl_build_flows(struct tl_trace *c)
{
	const struct pt_events *ev = &c->m->events;
	if (!c->o.flows || !(ev->dense & PT_EVCOL_CORR)) /* no correlation ids: no arrows */
		return;
	if (c->tl->gstream) { /* streamed: from what its reads kept (ordered and packed by them, or not yet) */
		if (!tl_gstream_flows(c))
			tl_flows_order(c);
		return;
	}
	/* the processes of the rows, each joined alone (tl_flows_order then orders all the arrows) */
	uint32_t first = UINT32_MAX;
	bool several = false;
	for (size_t r = 0; r < c->rows.n && !several; r++) {
		uint32_t p = row_pid(c, &c->rows.v[r]);
		if (p != UINT32_MAX && first == UINT32_MAX)
			first = p;
		several = p != UINT32_MAX && p != first;
	}
	size_t done = 0;
	if (!several || c->kineto) {
		join_rows(c, 0, true, &done);
	} else {
		PT_VEC(uint32_t) pids = { 0 };
		for (size_t r = 0; r < c->rows.n; r++) {
			uint32_t p = row_pid(c, &c->rows.v[r]);
			bool seen = p == UINT32_MAX;
			for (size_t k = 0; k < pids.n && !seen; k++)
				seen = pids.v[k] == p;
			if (!seen)
				pt_vec_push(&pids, p);
		}
		for (size_t k = 0; k < pids.n; k++)
			join_rows(c, pids.v[k], false, &done);
		pt_vec_free(&pids);
	}
	tl_flows_order(c);
}

/* (sts, api, act): every flow has its own activity, so no two flows tie and any sort gives one order */
static inline bool flow_less(const struct flow *a, const struct flow *b)
{
	if (a->sts != b->sts)
		return a->sts < b->sts;
	if (a->api != b->api)
		return a->api < b->api;
	return a->act < b->act;
}

static inline void flow_swap(struct flow *a, struct flow *b)
{
	struct flow t = *a;
	*a = *b;
	*b = t;
}

/* v[i] down its max-heap v[0 .. n) */
static void flow_sift(struct flow *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && flow_less(&v[c], &v[c + 1]))
			c++;
		if (!flow_less(&v[i], &v[c]))
			return;
		flow_swap(&v[i], &v[c]);
		i = c;
	}
}

/* v[0 .. n) as a max-heap, then in order: the introsort's bound on a bad run of pivots */
static void flow_heapsort(struct flow *v, size_t n)
{
	for (size_t k = n / 2; k-- > 0;)
		flow_sift(v, k, n);
	for (size_t e = n; e-- > 1;) {
		flow_swap(&v[0], &v[e]);
		flow_sift(v, 0, e);
	}
}

/* Introsort in place: median-of-three quicksort, the smaller side first by recursion, insertion sort below 16. */
static void flow_sort(struct flow *v, size_t n, unsigned depth)
{
	while (n > 16) {
		if (!depth--) {
			flow_heapsort(v, n);
			return;
		}
		size_t m = n / 2;
		if (flow_less(&v[m], &v[0]))
			flow_swap(&v[m], &v[0]);
		if (flow_less(&v[n - 1], &v[m])) {
			flow_swap(&v[n - 1], &v[m]);
			if (flow_less(&v[m], &v[0]))
				flow_swap(&v[m], &v[0]);
		}
		struct flow p = v[m];
		size_t i = 0, j = n - 1;
		for (;;) { /* Hoare partition around p: v[0] <= p <= v[n - 1] guard both scans */
			while (flow_less(&v[i], &p))
				i++;
			while (flow_less(&p, &v[j]))
				j--;
			if (i >= j)
				break;
			flow_swap(&v[i], &v[j]);
			i++;
			j--;
		}
		size_t left = j + 1; /* v[0 .. j] <= p <= v[j + 1 .. n) */
		if (left < n - left) {
			flow_sort(v, left, depth);
			v += left;
			n -= left;
		} else {
			flow_sort(v + left, n - left, depth);
			n = left;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct flow t = v[i];
		size_t j = i;
		while (j > 0 && flow_less(&t, &v[j - 1])) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
}

void tl_flows_sort(struct flow *v, size_t nf)
{
	size_t k = 1;
	while (k < nf && flow_less(&v[k - 1], &v[k]))
		k++;
	if (k < nf) {
		unsigned depth = 0;
		for (size_t x = nf; x; x >>= 1)
			depth += 2;
		flow_sort(v, nf, depth);
	}
}

void tl_flows_order(struct tl_trace *c)
{
	size_t nf = c->flows.n;
	tl_flows_sort(c->flows.v, nf);
	/* the event indexes served the order only: pack each flow to its arrow, in place, forward (arrow i ends
	 * at or before flow i + 1 starts) */
	struct tl_arrow *a = (struct tl_arrow *)(void *)c->flows.v;
	for (size_t i = 0; i < nf; i++) {
		struct flow f;
		memcpy(&f, (const char *)c->flows.v + i * sizeof(f), sizeof(f));
		struct tl_arrow w = { f.srow, f.frow, f.sts, f.fts };
		memcpy((char *)a + i * sizeof(w), &w, sizeof(w));
	}
	c->arrows = nf ? pt_xrealloc(a, nf * sizeof(*c->arrows)) : NULL;
	if (!nf)
		free(a);
	c->narrows = nf;
	c->flows.v = NULL;
	c->flows.n = c->flows.cap = 0;
}
#undef API_PACK
#undef API_NONE

/* --time-window: keep samples in the window, led by the last earlier one moved to the window start. */
static void window_samples(const struct tl_trace *c, struct csrc *cs, const int64_t *time)
{
	if (!c->tl->has_window)
		return;
	size_t k = 0;
	int64_t ws = c->tl->win_s, we = c->tl->win_e;
	size_t last_before = SIZE_MAX;
	for (size_t i = 0; i < cs->n; i++) {
		int64_t t = time[cs->idx[i]];
		if (t < ws)
			last_before = i;
	}
	if (last_before != SIZE_MAX && (last_before + 1 == cs->n || time[cs->idx[last_before + 1]] > ws)) {
		cs->idx[k++] = cs->idx[last_before];
		cs->carry0 = true;
		cs->carry_t = ws;
	}
	for (size_t i = 0; i < cs->n; i++) {
		int64_t t = time[cs->idx[i]];
		if (t >= ws && t < we)
			cs->idx[k++] = cs->idx[i];
	}
	cs->n = k;
}

/*
 * MindData series (model.h: tracks named md_...) are kept in the host-steady
 * clock or as sample index x interval; the model records no offset from them
 * to the device clock, so they are not exported (chrome-trace.md §7).
 */
static bool unanchored_track(const struct tl_trace *c, uint32_t t)
{
	return !strncmp(tl_str(c, c->m->tracks.v[t].name), "md_", 3);
}

void tl_build_counters(struct tl_trace *c)
{
	if (c->kineto) /* Kineto writes memory as its own instant events; no counters in this profile */
		return;
	const struct pt_model *m = c->m;
	const struct pt_queue_samples *q = &m->queues;
	size_t nt = m->tracks.n;
	uint32_t *cnt = pt_xcalloc(nt ? nt : 1, sizeof(*cnt));
	for (size_t i = 0; i < q->n; i++)
		cnt[q->track[i]]++;
	for (size_t t = 0; t < nt; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!cnt[t] || !c->dev_ok[d])
			continue;
		if (unanchored_track(c, (uint32_t)t)) {
			c->unanchored += cnt[t];
			continue;
		}
		struct csrc cs = { .track = (uint32_t)t, .pid = c->dev_pid[d], .off = c->dev_off[d], .queue = true };
		cs.idx = pt_xmalloc(cnt[t] * sizeof(*cs.idx));
		for (size_t i = 0; i < q->n; i++)
			if (q->track[i] == t)
				cs.idx[cs.n++] = (uint32_t)i;
		/* time order (stable) */
		for (size_t i = 1; i < cs.n; i++) {
			uint32_t v = cs.idx[i];
			size_t j = i;
			while (j > 0 && q->time[cs.idx[j - 1]] > q->time[v]) {
				cs.idx[j] = cs.idx[j - 1];
				j--;
			}
			cs.idx[j] = v;
		}
		window_samples(c, &cs, q->time);
		const char *tn = tl_str(c, m->tracks.v[t].name);
		cs.name = pt_xasprintf("Queue %s", *tn ? tn : "queue");
		pt_vec_push(&c->counters, cs);
	}
	memset(cnt, 0, (nt ? nt : 1) * sizeof(*cnt));
	const struct pt_counter_samples *cv = &m->counters;
	for (size_t i = 0; i < cv->n; i++)
		cnt[cv->track[i]]++;
	for (size_t t = 0; t < nt; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!cnt[t] || !c->dev_ok[d])
			continue;
		if (unanchored_track(c, (uint32_t)t)) {
			c->unanchored += cnt[t];
			continue;
		}
		/* the CUPTI importer's per-series memory tracks: the timeline pass's groups replace them */
		if (c->tl->dev[d].gmem.n && m->tracks.v[t].stream <= -20 && m->tracks.v[t].stream >= -30)
			continue;
		struct csrc cs = { .track = (uint32_t)t, .pid = c->dev_pid[d], .off = c->dev_off[d], .queue = false };
		cs.idx = pt_xmalloc(cnt[t] * sizeof(*cs.idx));
		for (size_t i = 0; i < cv->n; i++)
			if (cv->track[i] == t)
				cs.idx[cs.n++] = (uint32_t)i;
		for (size_t i = 1; i < cs.n; i++) {
			uint32_t v = cs.idx[i];
			size_t j = i;
			while (j > 0 && cv->time[cs.idx[j - 1]] > cv->time[v]) {
				cs.idx[j] = cs.idx[j - 1];
				j--;
			}
			cs.idx[j] = v;
		}
		window_samples(c, &cs, cv->time);
		const char *tn = tl_str(c, m->tracks.v[t].name);
		cs.name = pt_xstrdup(*tn ? tn : "Counter");
		pt_vec_push(&c->counters, cs);
	}
	free(cnt);
	/* GPU memory groups (chrome-trace.md §7): every sample carries all the group's series */
	for (size_t d = 0; d < m->devices.n && d < c->tl->ndev; d++) {
		const struct pt_gms *gs = &c->tl->dev[d].gmem;
		if (!c->dev_ok[d])
			continue;
		for (size_t k = 0; k < gs->n; k++) {
			const struct pt_gms_group *g = &gs->g[k];
			struct csrc cs = { .pid = c->dev_pid[d], .off = c->dev_off[d], .grp = g, .track = UINT32_MAX };
			cs.idx = pt_xmalloc((g->time.n ? g->time.n : 1) * sizeof(*cs.idx));
			for (size_t i = 0; i < g->time.n; i++)
				cs.idx[cs.n++] = (uint32_t)i;
			window_samples(c, &cs, g->time.v);
			cs.name = pt_xstrdup(g->name);
			pt_vec_push(&c->counters, cs);
		}
	}
	for (size_t i = 0; i < c->counters.n; i++) {
		struct csrc *cs = &c->counters.v[i];
		for (size_t p = 0; p < c->procs.n; p++)
			if (c->procs.v[p].pid == cs->pid)
				cs->tid = c->procs.v[p].first_tid;
		for (size_t j = 0; j < i && !cs->tid; j++) /* a process with counters only: one row for all of them */
			if (c->counters.v[j].pid == cs->pid)
				cs->tid = c->counters.v[j].tid;
		if (!cs->tid) /* the first counter of such a process: give it a row */
			cs->tid = TL_TID_BASE + (uint32_t)(c->rows.n + i);
	}
}

