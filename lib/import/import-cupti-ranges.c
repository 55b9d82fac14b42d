/*
 * CUPTI importer, pass 2 (see import-cupti.c): NVTX markers paired into
 * ranges, GPU work joined to its API call and enclosing range
 * (import-cupti-join.c), synchronization records joined to the event they
 * wait for (cupti.md §6.7), and the names of the host threads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import-cupti-dump.h"
#include "import/import-cupti-join.h"
#include "import/input.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "import/nvtx-range.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"

/* ---- pass 2 ------------------------------------------------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* longer first: the shorter is pushed later (innermost) */
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The run CPU utilisation marker kind of mk (cupti.md, domain ExtraInfo): 1 process, 2 system, else 0. */
static int extra_info_kind(const struct pt_model *m, const struct marker *mk)
{
	if (!(mk->flags & 1) || !mk->domain || strcmp(pt_model_strget(m, mk->domain), "ExtraInfo"))
		return 0;
	const char *n = pt_model_strget(m, mk->name);
	return !strcmp(n, "Process Cpu Utilization") ? 1 : !strcmp(n, "System Cpu Utilization") ? 2 : 0;
}

static int cmp_extra(const void *a, const void *b)
{
	const struct marker *x = *(const struct marker *const *)a, *y = *(const struct marker *const *)b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Store the run CPU utilisation markers (timestamp order, then file order: the last value of a name
 * wins) on the dump's host device. */
static void extra_info(struct pt_model *m, struct cf *f, const struct marker **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_extra);
	struct pt_device *d = &m->devices.v[f->cpu_dev];
	for (size_t i = 0; i < n; i++) {
		const uint64_t *bits = pt_hashmap_get(&f->mdata0, v[i]->id);
		double x;
		if (bits)
			memcpy(&x, bits, sizeof(x));
		if (!bits || !(x >= 0) || x > 1e300) { /* no double payload, negative, NaN or infinite */
			f->nvtx_bad_extra_info++;
			continue;
		}
		bool *has = extra_info_kind(m, v[i]) == 1 ? &d->has_cpu_process : &d->has_cpu_system;
		double *val = has == &d->has_cpu_process ? &d->cpu_process : &d->cpu_system;
		if (*has)
			f->nvtx_extra_info_repeated++;
		*has = true;
		*val = x;
	}
}

/* Pair markers into ranges and add their events; returns the ranges (sorted by start). */
struct range *pt_cupti_build_ranges(struct pt_model *m, struct cf *f, size_t *nr)
{
	size_t n = f->markers.n;
	*nr = 0;
	if (!n)
		return NULL;
	/* paired in file order (the order CUPTI delivered them), so that an END before its START is seen */
	struct range *rs = pt_xmalloc(n * sizeof(*rs));
	size_t k = 0;
	struct pt_hashmap open; /* id -> marker index + 1 */
	pt_hashmap_init(&open);
	PT_VEC(const struct marker *) extra = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct marker *mk = &f->markers.v[i];
		if (extra_info_kind(m, mk)) { /* run metadata, not a point event */
			pt_vec_push(&extra, mk);
			continue;
		}
		bool thread = mk->objkind == 2;
		uint32_t t = pt_cupti_track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, thread ? (int64_t)mk->tid : -1);
		if (mk->flags & 1) { /* instantaneous */
			rs[k++] = (struct range){ mk->ts, mk->ts, t, mk->name, mk->domain, PT_RANGE_INSTANT,
						  (uint32_t)i, mk->id, thread };
		} else if (mk->flags & 2) { /* start */
			bool added;
			uint64_t *v = pt_hashmap_put(&open, mk->id, i + 1, &added);
			if (!added) {
				f->nvtx_start_repeated++;
				*v = i + 1;
			}
		} else if (mk->flags & 4) { /* end */
			uint64_t *v = pt_hashmap_get(&open, mk->id);
			if (!v) {
				f->nvtx_end_without_start++;
				continue;
			}
			const struct marker *st = &f->markers.v[*v - 1];
			pt_hashmap_del(&open, mk->id);
			if (mk->ts < st->ts) {
				f->nvtx_end_before_start++;
				continue;
			}
			bool th = st->objkind == 2;
			uint32_t tt = pt_cupti_track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, th ? (int64_t)st->tid : -1);
			rs[k++] = (struct range){ st->ts, mk->ts, tt, st->name, st->domain, 0, (uint32_t)(*v - 1), st->id,
						  th };
		}
	}
	/* unterminated: closed at the last timestamp of the trace, in start order */
	for (size_t i = 0; i < n; i++) {
		const struct marker *st = &f->markers.v[i];
		uint64_t *v = pt_hashmap_get(&open, st->id);
		if (!v || *v != i + 1)
			continue;
		f->nvtx_unterminated++;
		bool th = st->objkind == 2;
		uint32_t tt = pt_cupti_track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, th ? (int64_t)st->tid : -1);
		rs[k++] = (struct range){ st->ts, f->max_time > st->ts ? f->max_time : st->ts, tt, st->name, st->domain,
					  PT_RANGE_UNTERMINATED, (uint32_t)i, st->id, th };
	}
	pt_hashmap_free(&open);
	if (extra.n)
		extra_info(m, f, extra.v, extra.n);
	pt_vec_free(&extra);
	pt_sort(rs, k, sizeof(*rs), cmp_range);
	/* events and range info; nvtx id -> range event for explicit parents */
	struct pt_hashmap byid;
	pt_hashmap_init(&byid);
	size_t r0 = m->ranges.n;
	for (size_t i = 0; i < k; i++) {
		struct range *r = &rs[i];
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, r->track, r->name, PT_EV_RANGE, r->start, r->end - r->start, 0, PT_NONE, 0);
		const char *name = pt_model_strget(m, r->name), *dom = r->domain ? pt_model_strget(m, r->domain) : NULL;
		size_t ol;
		const char *type = pt_nvtx_range_type(name, dom, &ol);
		uint32_t label = ol ? pt_strtab_intern(&m->strings, name, ol) : 0;
		struct pt_range_info ri = { ev, pt_model_str(m, type), label, r->domain, 0, r->id, r->flags };
		pt_model_add_range(m, &ri);
		if (!(r->flags & PT_RANGE_INSTANT))
			*pt_hashmap_put(&byid, r->id, 0, NULL) = i + 1;
		r->order = ev; /* from here on: the range's event index */
	}
	/* explicit parents (typed domains only) */
	for (size_t i = 0; i < k; i++) {
		struct range *r = &rs[i];
		struct pt_range_info *ri = &m->ranges.v[r0 + i];
		bool typed = r->domain && pt_nvtx_typed_domain(pt_model_strget(m, r->domain));
		uint64_t *pv = typed ? pt_hashmap_get(&f->mdata, r->id) : NULL;
		if (!pv || *pv == 1)
			continue;
		uint64_t *pr = pt_hashmap_get(&byid, *pv - 1);
		if (!pr || rs[*pr - 1].track != r->track || *pr - 1 == i)
			f->nvtx_bad_parent++;
		else
			ri->parent = rs[*pr - 1].order + 1;
	}
	pt_hashmap_free(&byid);
	*nr = k;
	return rs;
}

/* The launch and range joins (import-cupti-join.h) over the ranges of pt_cupti_build_ranges(). */
void pt_cupti_join_ranges(struct cf *f, const struct range *rs, size_t nr)
{
	struct pt_cjoin_range *jr = pt_xmalloc((nr ? nr : 1) * sizeof(*jr));
	for (size_t i = 0; i < nr; i++)
		jr[i] = (struct pt_cjoin_range){ rs[i].start, rs[i].end, rs[i].track, rs[i].order, rs[i].thread,
						 (rs[i].flags & PT_RANGE_INSTANT) != 0 };
	struct pt_cjoin_stats st;
	pt_cjoin_finish(f->join, jr, nr, &st);
	free(jr);
	f->gpu_before_api += st.gpu_before_api;
	f->gpu_without_api += st.gpu_without_api;
	f->kernels_without_launch += st.kernels_without_launch;
	f->corr_dup += st.corr_dup;
}

/* CUDA event records in (context, event id, correlation id, file order) order:
 * the candidates of one sync are then one run, searched by correlation id. */
static int cuda_event_cmp(const void *pa, const void *pb)
{
	const struct cuda_event *a = pa, *b = pb;
	if (a->ctx != b->ctx)
		return a->ctx < b->ctx ? -1 : 1;
	if (a->event_id != b->event_id)
		return a->event_id < b->event_id ? -1 : 1;
	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	return 0;
}

/*
 * The cudaEventRecord an Event Sync or Stream Wait Event waited for (cupti.md
 * §6.7): the record with the same non-zero cudaEventSyncId, else (Kineto's
 * rule) the last record of the same context and event id whose correlation id
 * is smaller than the sync's. NULL when none.
 */
static const struct cuda_event *sync_source(const struct cf *f, const struct pt_hashmap *by_sync, uint32_t ctx,
					    uint32_t event_id, uint32_t corr, uint64_t sync_id)
{
	if (sync_id) {
		uint64_t *v = pt_hashmap_get(by_sync, sync_id);
		return v ? &f->cuda_events.v[*v] : NULL;
	}
	const struct cuda_event *ce = f->cuda_events.v;
	size_t lo = 0, hi = f->cuda_events.n; /* first record not below (ctx, event_id, corr) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct cuda_event key = { ctx, event_id, 0, corr, 0 };
		if (cuda_event_cmp(&ce[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ce[lo - 1].ctx != ctx || ce[lo - 1].event_id != event_id)
		return NULL;
	return &ce[lo - 1];
}

void pt_cupti_emit_syncs(struct pt_model *m, struct cf *f)
{
	struct pt_hashmap by_sync;
	pt_hashmap_init(&by_sync);
	if (f->cuda_events.n) {
		pt_sort(f->cuda_events.v, f->cuda_events.n, sizeof(*f->cuda_events.v), cuda_event_cmp);
		for (size_t i = 0; i < f->cuda_events.n; i++)
			if (f->cuda_events.v[i].sync_id) {
				bool added;
				uint64_t *v = pt_hashmap_put(&by_sync, f->cuda_events.v[i].sync_id, i, &added);
				if (!added)
					*v = i; /* a repeated id: the last record in sort order */
			}
	}
	static const char *const names[] = { "Unknown Sync", "Event Sync", "Stream Wait Event", "Stream Sync",
					     "Context Sync" };
	uint32_t s = f->stride[PT_CK_SYNCHRONIZATION];
	const struct fo *o = f->fo[PT_CK_SYNCHRONIZATION];
	for (size_t off = 0; s && off + s <= f->pending_sync.n; off += s) {
		const uint8_t *r = f->pending_sync.v + off;
		int64_t start, dur;
		if (!pt_cupti_times(f, get(r, o[F_START]), get(r, o[F_END]), &start, &dur))
			continue;
		bool known;
		uint32_t dev = pt_cupti_ctx_device(f, (uint32_t)get(r, o[F_CONTEXT]), &known);
		if (!known) {
			f->unknown_context++;
			dev = UINT32_MAX;
		}
		uint32_t gd = pt_cupti_gpu_device(m, f, dev);
		uint32_t stream = (uint32_t)get(r, o[F_STREAM]);
		uint32_t t = pt_cupti_track(m, f, gd, PT_TRACK_STREAM, stream == UINT32_MAX ? -1 : (int64_t)stream);
		uint32_t ty = (uint32_t)get(r, o[F_TYPE]);
		uint32_t corr = (uint32_t)get(r, o[F_CORR]);
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, t, pt_model_str(m, ty < 5 ? names[ty] : "Unknown Sync"), PT_EV_SYNC, start, dur,
				   corr, PT_NONE, 0);
		pt_cjoin_activity(f->join, ev, start, corr, 0, false);
		uint32_t eid = (uint32_t)get(r, o[F_CUDAEVENTID]);
		struct pt_sync_info si = { ev, ty, eid == UINT32_MAX ? -1 : (int64_t)eid, -1, -1 };
		if (ty == 1 || ty == 2) { /* EVENT_SYNCHRONIZE, STREAM_WAIT_EVENT */
			const struct cuda_event *ce = sync_source(f, &by_sync, (uint32_t)get(r, o[F_CONTEXT]), eid,
								  corr, get(r, o[F_SYNCID]));
			if (ce) {
				si.wait_stream = ce->stream == UINT32_MAX ? -1 : (int64_t)ce->stream;
				si.wait_corr = ce->corr;
			} else {
				f->sync_unjoined++;
			}
		}
		pt_model_add_sync(m, &si);
	}
	pt_hashmap_free(&by_sync);
}

void pt_cupti_name_threads(struct pt_model *m, struct cf *f)
{
	for (size_t i = 0; i < f->thread_tracks.n; i++) {
		struct pt_track *t = &m->tracks.v[f->thread_tracks.v[i]];
		uint64_t *v = pt_hashmap_get(&f->nvtx_tnames, (uint64_t)t->stream);
		if (!v)
			v = pt_hashmap_get(&f->tnames, (uint64_t)t->stream);
		if (v)
			t->name = (uint32_t)(*v - 1);
	}
}
