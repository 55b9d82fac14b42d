/*
 * Steps pass, part two: the launch anchors of GPU activities and the
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
#include "support/xalloc.h"

/* ------------------------------------------------------------------------
 * anchors: GPU activity -> launching API call (by correlation id)
 */

struct pt_anchor_map {
	const struct pt_model *m;
	struct pt_hashmap corr; /* corr -> API event index */
};

struct pt_anchor_map *pt_anchor_map_new(const struct pt_model *m, uint32_t host)
{
	struct pt_anchor_map *a = pt_xcalloc(1, sizeof(*a));
	a->m = m;
	pt_hashmap_init(&a->corr);
	if (host == PT_NONE)
		return a;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_API && ev->corr[i] && m->tracks.v[ev->track[i]].device == host)
			pt_hashmap_put(&a->corr, ev->corr[i], i, NULL); /* first call wins */
	return a;
}

size_t pt_anchor_call(const struct pt_anchor_map *a, size_t i)
{
	const struct pt_events *ev = &a->m->events;
	if (!ev->corr[i] || ev->kind[i] == PT_EV_API)
		return SIZE_MAX;
	uint64_t *v = pt_hashmap_get(&a->corr, ev->corr[i]);
	return v ? (size_t)*v : SIZE_MAX;
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
	pt_hashmap_free(&a->corr);
	free(a);
}

/* ------------------------------------------------------------------------
 * coverage
 */

static bool is_device_data(uint8_t k)
{
	return pt_steps_is_activity(k) || k == PT_EV_TASK || k == PT_EV_AICPU;
}

/* The span of each rank's device data, and the kept steps it meets. */
void pt_steps_cover(const struct pt_model *m, struct pt_rank_steps *rs, size_t n)
{
	if (!n)
		return;
	size_t nd = m->devices.n ? m->devices.n : 1;
	uint32_t *rank_of = pt_xmalloc(nd * sizeof(*rank_of));
	for (size_t i = 0; i < nd; i++)
		rank_of[i] = UINT32_MAX;
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < rs[r].ndevs; k++)
			rank_of[rs[r].devs[k]] = (uint32_t)r;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_device_data(ev->kind[i]))
			continue;
		uint32_t r = rank_of[m->tracks.v[ev->track[i]].device];
		/* Ascend ranks: their steps are device times. A GPU step is a host range whose kernels may
		 * run after it ends: its coverage would need the launches (not measured yet) */
		if (r == UINT32_MAX || !rs[r].ascend)
			continue;
		struct pt_rank_steps *x = &rs[r];
		int64_t a = ev->start[i], b = ev->start[i] + ev->dur[i];
		if (!x->has_dev) {
			x->has_dev = true;
			x->dev_s = a;
			x->dev_e = b;
		}
		x->dev_s = a < x->dev_s ? a : x->dev_s;
		x->dev_e = b > x->dev_e ? b : x->dev_e;
	}
	free(rank_of);
	for (size_t r = 0; r < n; r++) {
		struct pt_rank_steps *x = &rs[r];
		for (size_t i = 0; i < x->n; i++) {
			struct pt_stepwin *w = &x->v[i];
			/* a window meets [dev_s, dev_e]; an instant window counts when inside it */
			w->covered = x->has_dev && w->has_win &&
				     (w->e > w->s ? w->s < x->dev_e && w->e > x->dev_s
						  : w->s >= x->dev_s && w->s <= x->dev_e);
			x->nkept += w->kept;
			x->ncovered += w->kept && w->covered;
		}
	}
}

bool pt_steps_partly_covered(const struct pt_rank_steps *r)
{
	return r->has_dev && r->ncovered < r->nkept;
}

void pt_steps_coverage_line(struct pt_diag *d, const char *who, uint32_t rank, size_t covered, size_t kept,
			    int64_t lo, int64_t hi, bool runs, int64_t a, int64_t b, const char *then)
{
	char where[96] = "";
	if (covered && lo == hi)
		snprintf(where, sizeof(where), "step %" PRId64 "; ", lo);
	else if (covered)
		snprintf(where, sizeof(where), "steps %" PRId64 "-%" PRId64 "%s; ", lo, hi, runs ? "" : " in part");
	pt_diag_info(d, "%s %" PRIu32 ": device data covers %zu of %zu steps (%sit spans %" PRId64 "-%" PRId64
			" ns from the earliest event); %s",
		     who, rank, covered, kept, where, a, b, then);
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
		pt_steps_coverage_line(d, x->ascend ? "device" : "rank", x->rank, x->ncovered, x->nkept, lo, hi, runs,
				       x->dev_s - si->origin, x->dev_e - si->origin, then);
	}
	return n;
}
