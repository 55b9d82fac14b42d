/*
 * Steps pass, part two: the launch anchors of GPU activities (and the host
 * a GPU device without a recorded process goes to, by its launches), and the
 * coverage of the kept steps by each rank's device data (issue #25 point 7;
 * proftool(1) OUTPUT, Coverage), with the notes that say it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/hashmap.h"
#include "support/idmap.h"
#include "support/progress.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* ------------------------------------------------------------------------
 * anchors: GPU activity -> launching API call (by correlation id)
 */

/*
 * Keyed by the correlation ids of the events that may be looked up (the
 * device activities: any non-call with an id), which are few next to the
 * calls' (most calls launch nothing): a first pass gathers those ids and
 * sizes the map once, a second puts a call only when its id is wanted,
 * passing most calls over by the map's filter (pt_idmap_filter).
 */
#define ANCHOR_NONE UINT64_MAX

struct pt_anchor_map {
	const struct pt_model *m;
	struct pt_idmap corr; /* activity corr -> first API call's event index, ANCHOR_NONE: none */
};

static bool anchor_wanted(const struct pt_events *ev, size_t i)
{
	return ev->corr[i] && ev->kind[i] != PT_EV_API;
}

struct pt_anchor_map *pt_anchor_map_new(const struct pt_model *m, uint32_t host)
{
	struct pt_anchor_map *a = pt_xcalloc(1, sizeof(*a));
	a->m = m;
	pt_idmap_init(&a->corr, 1, 0, 0);
	if (host == PT_NONE)
		return a;
	const struct pt_events *ev = &m->events;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n = 0;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("finding the steps", i, 2 * ev->n);
		if (!anchor_wanted(ev, i))
			continue;
		n++;
		if (ev->corr[i] < lo)
			lo = ev->corr[i];
		if (ev->corr[i] > hi)
			hi = ev->corr[i];
	}
	if (!n)
		return a;
	pt_idmap_init(&a->corr, lo, hi, n);
	if (!a->corr.span) /* every id in the hash map: sized once for them all */
		pt_hashmap_reserve(&a->corr.h, n);
	pt_idmap_filter(&a->corr, lo, hi, (uint64_t)ev->n << 3); /* where small next to the events' columns */
	for (size_t i = 0; i < ev->n; i++)
		if (anchor_wanted(ev, i))
			pt_idmap_put(&a->corr, ev->corr[i], ANCHOR_NONE, NULL);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("finding the steps", ev->n + i, 2 * ev->n);
		uint64_t co = ev->corr[i];
		if (ev->kind[i] != PT_EV_API || co < lo || co > hi)
			continue;
		if (m->tracks.v[ev->track[i]].device != host)
			continue;
		uint64_t *v = pt_idmap_get(&a->corr, co);
		if (v && *v == ANCHOR_NONE)
			*v = i; /* first call wins */
	}
	return a;
}

size_t pt_anchor_call(const struct pt_anchor_map *a, size_t i)
{
	const struct pt_events *ev = &a->m->events;
	if (!anchor_wanted(ev, i))
		return SIZE_MAX;
	uint64_t *v = pt_idmap_get(&a->corr, ev->corr[i]);
	return v && *v != ANCHOR_NONE ? (size_t)*v : SIZE_MAX;
}

int64_t pt_anchor_of(const struct pt_anchor_map *a, size_t i)
{
	size_t c = pt_anchor_call(a, i);
	return c == SIZE_MAX ? a->m->events.start[i] : a->m->events.start[c];
}

void pt_anchor_map_free(struct pt_anchor_map *a)
{
	if (!a)
		return;
	pt_idmap_free(&a->corr);
	free(a);
}

void pt_steps_vote_hosts(const struct pt_model *m, const uint32_t *hosts, size_t nh, const bool *by_pid,
			 uint32_t *owner)
{
	size_t nd = m->devices.n;
	struct pt_anchor_map **am = pt_xcalloc(nh, sizeof(*am));
	for (size_t h = 0; h < nh; h++)
		am[h] = pt_anchor_map_new(m, hosts[h]);
	uint64_t *votes = pt_xcalloc(nd * nh, sizeof(*votes));
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("finding the steps", i, ev->n);
		if (!pt_steps_is_activity(ev->kind[i]) || !ev->corr[i])
			continue;
		uint32_t dv = m->tracks.v[ev->track[i]].device;
		for (size_t h = 0; h < nh; h++)
			if (pt_anchor_call(am[h], i) != SIZE_MAX)
				votes[dv * nh + h]++;
	}
	for (size_t dv = 0; dv < nd; dv++)
		for (size_t h = 1; h < nh && !by_pid[dv]; h++)
			if (votes[dv * nh + h] > votes[dv * nh + owner[dv]])
				owner[dv] = (uint32_t)h;
	free(votes);
	for (size_t h = 0; h < nh; h++)
		pt_anchor_map_free(am[h]);
	free(am);
}

/* ------------------------------------------------------------------------
 * coverage
 */

static bool is_device_data(uint8_t k)
{
	return pt_steps_is_activity(k) || k == PT_EV_TASK || k == PT_EV_AICPU;
}

/*
 * The coverage rule (proftool(1) OUTPUT, Coverage).
 *
 * Ascend ranks (and MindSpore GPU devices with a step trace): the steps are
 * device times; the rank's device data (tasks, AI CPU ops, kernels, copies)
 * spans [first start, last end), and a step is covered when its window
 * meets that span.
 *
 * GPU ranks: a step is a host range (ProfilerStep#N, an NVTX range, the
 * iteration boundaries), and the kernels launched in it may run after it
 * ends. So the device data is placed at launch time: each activity (kernel,
 * memcpy, memset) at the start of the runtime/driver call that launched it,
 * through the model's links (CUPTI dumps) or else its correlation id (Kineto,
 * Nsight Systems); an activity without a launch record (no correlation id,
 * or one that names no call) at its own device time. The rank's device data
 * spans [first launch, last launch], and a step is covered when its window
 * meets that span. A span, not "a step with a launch of its own": a
 * CPU-only step between two launching ones is data saying the device
 * idled, and ratios must count it; what the device data cannot speak for is
 * the steps before it starts or after it stops (a trace that enabled the
 * activities late, a buffer that filled up).
 *
 * One pass over the events. Without links, the rank's anchors (correlation
 * id -> launching call) are gathered in the same pass, an activity met
 * before its call waits in a list, and the map is kept on the rank for the
 * passes that need the anchors again (the steps table, hints).
 */

void pt_steps_widen(struct pt_rank_steps *x, int64_t a, int64_t b)
{
	if (!x->has_dev) {
		x->has_dev = true;
		x->dev_s = a;
		x->dev_e = b;
	}
	x->dev_s = a < x->dev_s ? a : x->dev_s;
	x->dev_e = b > x->dev_e ? b : x->dev_e;
}

/* Links (CUPTI): each linked activity of a GPU rank at its call's start; *linked marks them. */
static void cover_links(const struct pt_model *m, struct pt_rank_steps *rs, const uint32_t *rank_of,
			uint64_t **linked)
{
	const struct pt_events *ev = &m->events;
	*linked = pt_xcalloc(ev->n / 64 + 1, sizeof(**linked));
	for (size_t l = 0; l < m->links.n; l++) {
		size_t a = m->links.v[l].event, c = m->links.v[l].api;
		if (a >= ev->n || c >= ev->n || !pt_steps_is_activity(ev->kind[a]))
			continue;
		uint32_t r = rank_of[m->tracks.v[ev->track[a]].device];
		if (r == UINT32_MAX || rs[r].ascend)
			continue;
		pt_steps_widen(&rs[r], ev->start[c], ev->start[c]);
		(*linked)[a / 64] |= UINT64_C(1) << (a % 64);
	}
}

void pt_steps_devscan_add(struct pt_steps_devscan *x, uint8_t k, int64_t start, int64_t dur)
{
	int64_t end = start + dur;
	if (!x->has_any || start < x->min_start)
		x->min_start = start;
	int64_t ce = end < start ? start : end;
	if (!x->has_all || start < x->all_s)
		x->all_s = start;
	if (!x->has_all || ce > x->all_e)
		x->all_e = ce;
	x->has_all = true;
	x->has_any = true;
	if (k == PT_EV_TASK || k == PT_EV_AICPU)
		x->has_task = true;
	if (k == PT_EV_TASK || k == PT_EV_AICPU || k == PT_EV_KERNEL) {
		int64_t e = end < start ? start : end;
		if (!x->has_span || start < x->span_s)
			x->span_s = start;
		if (!x->has_span || e > x->span_e)
			x->span_e = e;
		x->has_span = true;
	}
	if (is_device_data(k)) {
		if (!x->has_dev || start < x->dev_s)
			x->dev_s = start;
		if (!x->has_dev || end > x->dev_e)
			x->dev_e = end;
		x->has_dev = true;
	}
}

/* Which kept steps the device data covers. */
void pt_steps_count_covered(struct pt_rank_steps *rs, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		struct pt_rank_steps *x = &rs[r];
		for (size_t i = 0; i < x->n; i++) {
			struct pt_stepwin *w = &x->v[i];
			/* a window meets the span, [dev_s, dev_e) on Ascend ranks and [dev_s, dev_e] on GPU ones
			 * (a launch is an instant); an instant window counts when inside it */
			w->covered = x->has_dev && w->has_win &&
				     (w->e > w->s ? (x->ascend ? w->s < x->dev_e : w->s <= x->dev_e) && w->e > x->dev_s
						  : w->s >= x->dev_s && w->s <= x->dev_e);
			x->nkept += w->kept;
			x->ncovered += w->kept && w->covered;
		}
	}
}

/* The coverage spans of Ascend ranks from a streamed read's scan. */
static void cover_scan(const struct pt_steps_devscan *scan, struct pt_rank_steps *rs, size_t n)
{
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < rs[r].ndevs; k++) {
			const struct pt_steps_devscan *x = &scan[rs[r].devs[k]];
			if (x->has_dev)
				pt_steps_widen(&rs[r], x->dev_s, x->dev_e);
		}
}

void pt_steps_cover(const struct pt_model *m, const struct pt_steps_devscan *scan, struct pt_rank_steps *rs, size_t n)
{
	if (!n)
		return;
	if (scan) {
		cover_scan(scan, rs, n);
		pt_steps_count_covered(rs, n);
		return;
	}
	size_t nd = m->devices.n ? m->devices.n : 1;
	uint32_t *rank_of = pt_xmalloc(nd * sizeof(*rank_of));
	for (size_t i = 0; i < nd; i++)
		rank_of[i] = UINT32_MAX;
	for (size_t r = 0; r < n; r++) {
		for (size_t k = 0; k < rs[r].ndevs; k++)
			rank_of[rs[r].devs[k]] = (uint32_t)r;
		/* a host is a CPU device: never one of the devices above */
		if (!rs[r].ascend && rs[r].ndevs && rs[r].host != PT_NONE && !m->links.n && !rs[r].am) {
			rank_of[rs[r].host] = (uint32_t)r;
			rs[r].am = pt_anchor_map_new(m, rs[r].host); /* keyed by the activities' ids only */
		}
	}
	const struct pt_events *ev = &m->events;
	uint64_t *linked = NULL;
	if (m->links.n)
		cover_links(m, rs, rank_of, &linked);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("measuring the steps' coverage", i, ev->n);
		uint8_t k = ev->kind[i];
		if (k != PT_EV_API && !is_device_data(k))
			continue;
		uint32_t r = rank_of[m->tracks.v[ev->track[i]].device];
		if (r == UINT32_MAX)
			continue;
		struct pt_rank_steps *x = &rs[r];
		if (k == PT_EV_API) /* the calls: through the rank's anchor map */
			continue;
		if (!x->ascend && !pt_steps_is_activity(k))
			continue; /* tasks, AI CPU ops: Ascend device data */
		if (!x->ascend && linked && (linked[i / 64] >> (i % 64) & 1))
			continue; /* placed by its link */
		if (!x->ascend && !linked && x->am) {
			size_t c = pt_anchor_call(x->am, i);
			if (c != SIZE_MAX) {
				pt_steps_widen(x, ev->start[c], ev->start[c]);
				continue;
			}
		}
		/* Ascend device data; a GPU activity without a launch record or whose id names no call */
		pt_steps_widen(x, ev->start[i], ev->start[i] + ev->dur[i]);
	}
	free(linked);
	free(rank_of);
	pt_steps_count_covered(rs, n);
}

bool pt_steps_partly_covered(const struct pt_rank_steps *r)
{
	return r->has_dev && r->ncovered < r->nkept;
}

bool pt_steps_uncovered_at(const struct pt_rank_steps *r, int64_t t)
{
	if (!pt_steps_partly_covered(r))
		return false;
	size_t at = SIZE_MAX;
	if (!r->ascend) {
		/* GPU windows all exist, disjoint, in start order: the last one starting at or before t */
		size_t lo = 0, hi = r->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (r->v[mid].s <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		at = lo ? lo - 1 : SIZE_MAX;
	} else {
		for (size_t i = 0; i < r->n && at == SIZE_MAX; i++)
			if (r->v[i].has_win && t >= r->v[i].s && t < r->v[i].e)
				at = i;
	}
	if (at == SIZE_MAX)
		return false;
	const struct pt_stepwin *w = &r->v[at];
	return w->has_win && w->kept && !w->covered && t >= w->s && t < w->e;
}

/* One note; `spans` says what the span is of ("it spans", "its launches span"). */
static void coverage_line(struct pt_diag *d, const char *who, uint32_t rank, size_t covered, size_t kept, int64_t lo,
			  int64_t hi, bool runs, const char *spans, int64_t a, int64_t b, const char *then)
{
	char where[96] = "";
	if (covered && lo == hi)
		snprintf(where, sizeof(where), "step %" PRId64 "; ", lo);
	else if (covered)
		snprintf(where, sizeof(where), "steps %" PRId64 "-%" PRId64 "%s; ", lo, hi, runs ? "" : " in part");
	pt_diag_info(d, "%s %" PRIu32 ": device data covers %zu of %zu steps (%s%s %" PRId64 "-%" PRId64
			" ns from the model's origin); %s",
		     who, rank, covered, kept, where, spans, a, b, then);
}

void pt_steps_coverage_line(struct pt_diag *d, const char *who, uint32_t rank, size_t covered, size_t kept,
			    int64_t lo, int64_t hi, bool runs, int64_t a, int64_t b, const char *then)
{
	coverage_line(d, who, rank, covered, kept, lo, hi, runs, "it spans", a, b, then);
}

void pt_steps_launch_coverage_line(struct pt_diag *d, uint32_t rank, size_t covered, size_t kept, int64_t lo,
				   int64_t hi, bool runs, int64_t a, int64_t b, const char *then)
{
	coverage_line(d, "rank", rank, covered, kept, lo, hi, runs, "its launches span", a, b, then);
}

size_t pt_steps_coverage_note(const struct pt_steps_info *si, const char *then, struct pt_diag *d)
{
	size_t n = 0;
	for (size_t r = 0; r < si->n; r++) {
		const struct pt_rank_steps *x = &si->r[r];
		if (!pt_steps_partly_covered(x))
			continue;
		n++;
		/* the covered steps: "steps 3-19" when they follow one another, else "steps 3-19 in part" */
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		size_t first = SIZE_MAX, last = 0;
		for (size_t i = 0; i < x->n; i++)
			if (x->v[i].kept && x->v[i].covered) {
				lo = x->v[i].num < lo ? x->v[i].num : lo;
				hi = x->v[i].num > hi ? x->v[i].num : hi;
				first = first == SIZE_MAX ? i : first;
				last = i;
			}
		bool runs = true;
		for (size_t i = first; first != SIZE_MAX && i <= last && runs; i++)
			runs = !x->v[i].kept || x->v[i].covered;
		/* GPU ranks: the span is of the launches */
		coverage_line(d, x->ascend ? "device" : "rank", x->rank, x->ncovered, x->nkept, lo, hi, runs,
			      x->ascend ? "it spans" : "its launches span", x->dev_s - si->origin, x->dev_e - si->origin,
			      then);
	}
	return n;
}
