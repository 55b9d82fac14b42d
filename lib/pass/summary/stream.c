/*
 * The streaming summary (pass-summary.h): the views of a model summed one
 * batch of events at a time, from what the file's TrackEvents or a first read
 * (the scan) say of the events before they are summed.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "model/ptm.h"
#include "pass/summary/view.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/lagprof.h"
#include "support/xalloc.h"

/* What a first read finds of the span events of a track: their count, earliest start, latest start
 * and lag (the most a start falls behind the latest start before it in the file). */
struct pt_summary_stream {
	const struct pt_summary_opts *o;
	struct scan sc;
	size_t ndev, ntrk;  /* sizes of the scan's arrays */
	enum { ST_NEW, ST_SCAN, ST_SUM } state;
	bool claimed;       /* the scan came from the file's TrackEvents: checked by _end() */
	size_t nmeta[5];    /* claimed: strings, devices, tracks, ops and steps when the sums began */
	struct pt_track_events *tev; /* per track, what the events turned out to be (a first read: its
					 scan; claimed: checked against the file's record by _end()) */
	int64_t *tev_last;
	struct pt_lag *wt; /* a first read: per track, what its span events turned out to be */
	struct pt_lagprof *wp; /* the same, block by block (the watermark's, sum_watermark) */
	uint32_t bad_track; /* claimed and wrong: the first such track + 1 */
	PT_VEC(struct deferred) deferred; /* distributed view: the first read's events off stream tracks */
	bool kernels;       /* the first read saw GPU-kind activities (their class needs the index) */
	struct run u;
	bool begun;
	bool once;          /* the input cannot be read again (pt_summary_stream_once) */
	bool rereads;       /* the input can be read as often as needed (pt_summary_stream_rereads) */
	bool launch;        /* a GPU rank takes the launch reads (stream-launch.c) */
	struct sum_lj lj;
	uint64_t sumbase;   /* the summing read: the index of the batch's first event */
	struct pt_events held; /* the read of calls and sums (pt_summary_stream_both): the batch before */
	bool holding;
	bool hostcand;      /* the first read gathers what the host read needs (stream-host.c) */
	bool host;          /* a GPU rank with host ranges takes the host read */
	bool hahead;        /* and its calls come a batch ahead (sum_lj ahead): the read of the steps and the
			       summing read take them so, each keeping a few blocks of them, not all */
	bool hosts_known;   /* a file without TrackEvents that a first read found host ranges in */
	bool rescan;        /* such a file, its first read without what the host read needs */
	PT_VEC(struct sum_link) links; /* the first read's launch links, a chunk at a time (hostcand) */
	struct sum_hs hs;
};

/* The views a GPU rank without host ranges sums through their add() or that read no event of it
 * (the Ascend views optype and aicpu print nothing for it), without the launch reads: all but memcpy
 * and gpu, which read the launching calls. */
#define GPU_STREAM_VIEWS (((1u << PT_SV_COUNT) - 1) & ~sum_views_with(SV_LAUNCH))

/* Do a GPU rank's sums need each activity's launching call: the views that read it, or membership
 * under --time-window (an activity's anchor is its call's start, summary.md §2.1)? Under --steps
 * alone a streamed GPU rank has no steps: its window is the span of its data, which holds every
 * call's start but one that starts where the span ends (sum_run_events: then read whole). */
static bool needs_launch(const struct pt_summary_opts *o)
{
	return (o->views & ~GPU_STREAM_VIEWS) || o->sel.window_given;
}

static bool has_gpu(const struct pt_model *m)
{
	for (size_t d = 0; d < m->devices.n; d++)
		if (m->devices.v[d].kind == PT_DEV_GPU || m->devices.v[d].kind == PT_DEV_CPU)
			return true;
	return false;
}

/*
 * Every view of an Ascend rank reads no event, or reads them through
 * their add() (view.h). A GPU rank streams in one or two reads for the
 * views of GPU_STREAM_VIEWS (all but memcpy and gpu) without --steps or
 * --time-window; from an input that can be read again
 * (pt_summary_stream_rereads) also with --steps; otherwise (needs_launch)
 * only from such an input, of one process or several, with Ascend devices
 * beside them or not (the launch reads, stream-launch.c, and the host read,
 * each process's threads by its own ids; the Ascend ranks sum as alone). Either way
 * without host ranges unless only the kernel and api views are asked for
 * without a selection (gpu_streamable(), known once the tracks' kinds are),
 * or the host read takes them (stream-host.c: from such an input, for the
 * views of sum_hs_views, when the file's TrackEvents tell of host ranges).
 */
bool pt_summary_can_stream(const struct pt_model *m, const struct pt_summary_opts *o)
{
	return !has_gpu(m) || (!needs_launch(o) && !o->sel.steps_given);
}

static bool can_stream(const struct pt_summary_stream *s, const struct pt_model *m)
{
	return pt_summary_can_stream(m, s->o) || s->rereads;
}

/* The views that read neither host ranges nor launch links when unfiltered: their items are sums
 * over every kernel or API call. A streamed GPU rank reads no host ranges, so it has no steps: no
 * streamed GPU case computes anything over steps, and the coverage (proftool(1) Coverage, which a
 * GPU rank in memory takes from its launches) never applies to one. */
#define GPU_FLAT_VIEWS sum_views_with(SV_FLAT)

/* Can the GPU ranks of m stream these views: no GPU or host device of m has host ranges, or
 * nothing reads them (x: per track, its events' kinds): flat views without a selection (whose
 * windows a GPU rank's steps, its host ranges, would make)? */
static bool gpu_streamable(const struct pt_model *m, const struct pt_track_events *x, const struct pt_summary_opts *o)
{
	if (!(o->views & ~GPU_FLAT_VIEWS) && !o->sel.steps_given && !o->sel.window_given)
		return true;
	for (size_t t = 0; t < m->tracks.n; t++)
		if (m->devices.v[m->tracks.v[t].device].kind != PT_DEV_NPU && (x[t].kinds & (1u << PT_EV_RANGE)))
			return false;
	return true;
}

/* Do the file's TrackEvents say that a host thread of a GPU or host device has ranges (the views
 * read them: the host read may stream them)? */
static bool host_claimed(const struct pt_model *m)
{
	if (m->track_events.n != m->tracks.n)
		return false;
	for (size_t t = 0; t < m->tracks.n; t++)
		if (m->tracks.v[t].kind == PT_TRACK_HOST_THREAD &&
		    m->devices.v[m->tracks.v[t].device].kind != PT_DEV_NPU &&
		    (m->track_events.v[t].kinds & (1u << PT_EV_RANGE)))
			return true;
	return false;
}

/* May the host read take the model's host ranges: an input read again, views that read host ranges
 * (or a selection: the steps are host ranges), no Ascend device? */
static bool host_reads(const struct pt_summary_stream *s, const struct pt_model *m)
{
	return s->rereads && has_gpu(m) && sum_hs_views(s->o) &&
	       ((s->o->views & ~GPU_FLAT_VIEWS) || s->o->sel.steps_given || s->o->sel.window_given);
}

bool pt_summary_stream_rescan(const struct pt_summary_stream *s)
{
	return s->rescan;
}

void pt_summary_stream_hosts_known(struct pt_summary_stream *s)
{
	s->hosts_known = true;
}

struct pt_summary_stream *pt_summary_stream_new(const struct pt_summary_opts *o)
{
	struct pt_summary_stream *s = pt_xcalloc(1, sizeof(*s));
	s->o = o;
	sum_lj_init(&s->lj);
	s->sc.earliest = INT64_MAX;
	return s;
}

/* Grow the scan's arrays to the model's devices and tracks. */
static void scan_fit(struct pt_summary_stream *s, const struct pt_model *m)
{
	struct scan *sc = &s->sc;
	if (m->devices.n > s->ndev) {
		sc->lo = pt_xrealloc(sc->lo, m->devices.n * sizeof(*sc->lo));
		sc->hi = pt_xrealloc(sc->hi, m->devices.n * sizeof(*sc->hi));
		for (size_t d = s->ndev; d < m->devices.n; d++) {
			sc->lo[d] = INT64_MAX;
			sc->hi[d] = INT64_MIN;
		}
		s->ndev = m->devices.n;
	}
	if (m->tracks.n > s->ntrk) {
		size_t n = m->tracks.n;
		sc->left = pt_xrealloc(sc->left, n * sizeof(*sc->left));
		sc->min = pt_xrealloc(sc->min, n * sizeof(*sc->min));
		sc->last = pt_xrealloc(sc->last, n * sizeof(*sc->last));
		sc->lag = pt_xrealloc(sc->lag, n * sizeof(*sc->lag));
		sc->seen = pt_xrealloc(sc->seen, n);
		sc->named = pt_xrealloc(sc->named, n);
		sc->api = pt_xrealloc(sc->api, n);
		s->tev = pt_xrealloc(s->tev, n * sizeof(*s->tev));
		s->tev_last = pt_xrealloc(s->tev_last, n * sizeof(*s->tev_last));
		s->wt = pt_xrealloc(s->wt, n * sizeof(*s->wt));
		s->wp = pt_xrealloc(s->wp, n * sizeof(*s->wp));
		memset(s->tev + s->ntrk, 0, (n - s->ntrk) * sizeof(*s->tev));
		memset(s->wt + s->ntrk, 0, (n - s->ntrk) * sizeof(*s->wt));
		memset(s->wp + s->ntrk, 0, (n - s->ntrk) * sizeof(*s->wp));
		if (sc->prof)
			sc->prof = s->wp;
		for (size_t t = s->ntrk; t < n; t++) {
			sc->left[t] = 0;
			sc->min[t] = INT64_MAX;
			sc->last[t] = INT64_MIN;
			sc->lag[t] = 0;
			sc->seen[t] = sc->named[t] = sc->api[t] = 0;
		}
		s->ntrk = n;
	}
}

/* The event kinds of rank_prepare's span. */
#define SPAN_KINDS \
	((1u << PT_EV_TASK) | (1u << PT_EV_KERNEL) | (1u << PT_EV_MEMCPY) | (1u << PT_EV_MEMSET) | (1u << PT_EV_API) | \
	 (1u << PT_EV_RANGE) | (1u << PT_EV_AICPU))

/* Does an event of kind k wait in the watermark's queues, or hold them back (sum_watermark)? Only
 * events of the span kinds are queued; the others (synchronizations, get_next records, ...) are
 * summed at once, wherever in the file they come (a CUPTI import stores synchronizations last). */
static inline bool waits(uint8_t k)
{
	return k < 32 && (SPAN_KINDS >> k & 1);
}

/* The earliest event, from a record per track of m. */
static void scan_earliest(struct pt_summary_stream *s, const struct pt_model *m, const struct pt_track_events *x)
{
	for (size_t t = 0; t < m->tracks.n; t++)
		if (x[t].count && x[t].min_start < s->sc.earliest)
			s->sc.earliest = x[t].min_start;
}

/* The watermark's part of the scan from the file's TrackEvents: a track of span events waits until
 * done (in start order: for its last start; otherwise for its earliest one); a track of other
 * kinds holds nothing back (scan_claims() takes no track of both). */
static void scan_tracks(struct pt_summary_stream *s, const struct pt_model *m, const struct pt_track_events *x)
{
	struct scan *sc = &s->sc;
	for (size_t t = 0; t < m->tracks.n; t++) {
		if (!x[t].count || !(x[t].kinds & SPAN_KINDS))
			continue;
		sc->left[t] = x[t].count;
		sc->min[t] = x[t].min_start;
		sc->lag[t] = x[t].flags & PT_TRACKEV_IN_ORDER ? 0 : SCAN_LAG_UNKNOWN;
	}
	scan_earliest(s, m, x);
}

/* The same from what a first read found: the span events of each track, the lag they showed. */
static void scan_waits(struct pt_summary_stream *s, const struct pt_model *m)
{
	struct scan *sc = &s->sc;
	for (size_t t = 0; t < m->tracks.n; t++) {
		if (!s->wt[t].count)
			continue;
		sc->left[t] = s->wt[t].count;
		sc->min[t] = s->wt[t].min;
		sc->lag[t] = s->wt[t].lag;
		pt_lagprof_finish(&s->wp[t]);
	}
	sc->prof = s->wp;
	scan_earliest(s, m, s->tev);
}

/*
 * The scan from the file's TrackEvents, when it says all the summary needs:
 * false when absent, or when a track mixes span and other kinds, holds ops on
 * events other than tasks, or claims times beyond the model's range (then
 * only the events can tell; the claims are checked against them at the end).
 */
static bool scan_claims(struct pt_summary_stream *s, const struct pt_model *m)
{
	if (m->track_events.n != m->tracks.n)
		return false;
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track_events *x = &m->track_events.v[t];
		if (x->min_start < -PT_TIME_LIMIT || x->min_start > PT_TIME_LIMIT || x->max_end < -PT_TIME_LIMIT ||
		    x->max_end > PT_TIME_LIMIT)
			return false;
		if (x->count && (x->kinds & SPAN_KINDS) && (x->kinds & ~SPAN_KINDS))
			return false;
		if (x->with_op && x->kinds != 1u << PT_EV_TASK)
			return false;
	}
	scan_fit(s, m);
	struct scan *sc = &s->sc;
	scan_tracks(s, m, m->track_events.v);
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track_events *x = &m->track_events.v[t];
		if (!x->count)
			continue;
		uint32_t d = m->tracks.v[t].device;
		sc->named[t] = x->with_op > 0;
		sc->api[t] = (x->kinds >> PT_EV_API) & 1;
		if (x->kinds & SPAN_KINDS) {
			if (x->min_start < sc->lo[d])
				sc->lo[d] = x->min_start;
			if (x->max_end > sc->hi[d])
				sc->hi[d] = x->max_end;
		}
	}
	s->claimed = true;
	return true;
}

/* A first read's batch: the scan from the events themselves. */
static void scan_batch(struct pt_summary_stream *s, const struct pt_model *m)
{
	if (!m->events.n) { /* a chunk of links or a batch of range infos (PT_PTM_*_BATCHWISE) */
		struct pt_model *w = (struct pt_model *)m;
		if (!s->hostcand) {
			w->ranges.n = 0; /* (the reader leaves range infos to the sink to empty) */
			return;
		}
		/* taken: the reader empties the links only before a chunk of them (a chunk at a time unless
		 * the launch reads keep them whole: pt_summary_stream_skip), the range infos never */
		if (!needs_launch(s->o)) {
			for (size_t k = 0; k < m->links.n; k++)
				pt_vec_push(&s->links, ((struct sum_link){ m->links.v[k].event, m->links.v[k].api }));
			w->links.n = 0;
		}
		sum_hs_ranges(&s->hs, m);
		w->ranges.n = 0;
		return;
	}
	scan_fit(s, m);
	if (s->launch || s->hostcand)
		sum_lj_scan(&s->lj, m, s->o->sel.device);
	if (s->hostcand) {
		sum_hsv_scan(&s->hs, m);
		sum_hso_scan(&s->hs, m);
	}
	struct scan *sc = &s->sc;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		int64_t st = ev->start[i];
		uint32_t t = ev->track[i];
		uint8_t k = ev->kind[i];
		pt_track_events_add(&s->tev[t], &s->tev_last[t], k, st, ev->dur[i], ev->op[i]);
		if (waits(k)) {
			pt_lag_add(&s->wt[t], st);
			pt_lagprof_add(&s->wp[t], st);
			uint32_t d = m->tracks.v[t].device;
			if (st < sc->lo[d])
				sc->lo[d] = st;
			if (st + ev->dur[i] > sc->hi[d])
				sc->hi[d] = st + ev->dur[i];
		}
		if (k == PT_EV_TASK && ev->op[i])
			sc->named[t] = 1; /* the index's named_track */
		sc->api[t] |= k == PT_EV_API;
		if ((s->o->views & (1u << PT_SV_DISTRIBUTED)) && m->tracks.v[t].kind != PT_TRACK_STREAM &&
		    (k == PT_EV_TASK || k == PT_EV_AICPU))
			pt_vec_push(&s->deferred, ((struct deferred){ st, st + ev->dur[i], t, ev->op[i], k }));
		s->kernels |= (k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET) &&
			      m->devices.v[m->tracks.v[t].device].kind == PT_DEV_NPU;
	}
}

/* A batch to sum: the views' sums, then what is left of each track, then the overview's releases. */
static void sum_batch(struct pt_summary_stream *s)
{
	struct run *u = &s->u;
	const struct pt_model *m = u->g.m;
	const struct pt_events *ev = &m->events;
	struct scan *sc = &s->sc;
	u->g.base = s->sumbase;
	if (s->launch)
		u->g.lk = sum_lj_batch(&s->lj, m);
	if (s->host)
		u->g.hat = sum_hs_batch(&s->hs, &s->lj, u->g.lk, m);
	sum_run_events(u);
	u->g.lk = NULL;
	u->g.hat = NULL;
	s->sumbase += ev->n;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t t = ev->track[i];
		if (s->claimed)
			pt_track_events_add(&s->tev[t], &s->tev_last[t], ev->kind[i], ev->start[i], ev->dur[i],
					    ev->op[i]);
		if (!waits(ev->kind[i]))
			continue; /* never queued: the end compares the track's other events with its claim */
		/* a claim that the events contradict would break the watermark: stop trusting it now (a
		 * first read's scan holds by construction; a file changed in between fails its footer) */
		if (s->claimed && !s->bad_track && (!sc->left[t] || ev->start[i] < sc->min[t] ||
				      (sc->seen[t] && sc->lag[t] != SCAN_LAG_UNKNOWN &&
				       ev->start[i] < sc->last[t] - (int64_t)sc->lag[t])))
			s->bad_track = t + 1;
		if (sc->left[t])
			sc->left[t]--;
		if (!sc->seen[t] || ev->start[i] > sc->last[t])
			sc->last[t] = ev->start[i];
		sc->seen[t] = 1;
	}
	for (size_t k = 0; k < u->ranks.n; k++)
		if (u->ranks.v[k].asc)
			sum_asc_release(&u->ranks.v[k], false);
}

/* 0, PT_PTM_STOP (host ranges on a GPU rank), or -1 with *e set. */
/* The distributed view of the Ascend ranks: the first read's AI CPU ops and tasks off stream tracks. */
static void dist_begin(struct pt_summary_stream *s)
{
	if (s->o->views & (1u << PT_SV_DISTRIBUTED))
		for (size_t k = 0; k < s->u.ranks.n; k++)
			if (s->u.ranks.v[k].ascend) /* a GPU rank's sets are its devices' kernels alone */
				sum_dist_begin(&s->u.ranks.v[k], s->deferred.v, s->deferred.n);
}

static int begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	if (s->hostcand && m->ranges.n) { /* the read's last range infos (PT_PTM_RANGES_BATCHWISE) */
		sum_hs_ranges(&s->hs, m);
		((struct pt_model *)m)->ranges.n = 0;
	}
	scan_fit(s, m);
	if (!gpu_streamable(m, s->claimed ? m->track_events.v : s->tev, s->o)) {
		/* host ranges: the host read (stream-host.c), where it gives what the whole load gives (of one
		 * process or several: each thread's ranges and calls are its process's, joined by its ids) */
		if (!s->hostcand && !s->claimed && !s->hosts_known && m->track_events.n != m->tracks.n &&
		    host_reads(s, m)) {
			s->rescan = true; /* a file without TrackEvents: its first read again, gathering it */
			return PT_PTM_STOP;
		}
		if (!s->hostcand || s->claimed || sum_hs_open(&s->hs, m, s->wt, &s->lj))
			return PT_PTM_STOP;
		s->host = true;
		s->launch = true;
		return 0;
	}
	pt_vec_free(&s->links);
	if (s->hostcand && !s->launch) { /* the wanted ids are not needed */
		sum_lj_free(&s->lj);
		sum_lj_init(&s->lj);
	}
	s->sumbase = 0;
	if (!s->claimed)
		scan_waits(s, m); /* what the first read found */
	if (s->ntrk) /* a model without tracks has no array (memset(NULL, 0, 0) is undefined) */
		memset(s->sc.seen, 0, s->ntrk);
	/* the origin: m holds every step record (a .ptm file defines them before its first event
	 * batch; a claimed scan stops at a later one), the scan the earliest event */
	if (sum_run_init(&s->u, m, NULL, &s->sc, s->o, pt_model_origin(m, &s->sc.earliest), e))
		return -1;
	s->begun = true;
	s->state = ST_SUM;
	dist_begin(s);
	return 0;
}

/* Strings, devices, tracks, ops and steps of m: what the sums size their tables by and read. */
static void meta_counts(const struct pt_model *m, size_t n[5])
{
	n[0] = m->strings.n;
	n[1] = m->devices.n;
	n[2] = m->tracks.n;
	n[3] = m->ops.n;
	n[4] = m->steps.n;
}

void pt_summary_stream_once(struct pt_summary_stream *s)
{
	s->once = true;
}

void pt_summary_stream_rereads(struct pt_summary_stream *s)
{
	s->rereads = true;
}

unsigned pt_summary_stream_skip(const struct pt_summary_stream *s)
{
	/* the launch reads take the links and the copies' bytes and kinds from the first read */
	unsigned k = s->rereads && needs_launch(s->o) ? 1u | PT_PTM_SKIP_BUT_LINKS | PT_PTM_SKIP_BUT_COPIES : 1u;
	/* the host read (stream-host.c) takes the range infos and the links: a chunk of them at a time,
	 * kept where it may take place (the launch reads keep them all themselves) */
	if (s->rereads && sum_hs_views(s->o)) {
		k |= PT_PTM_SKIP_BUT_RANGES | PT_PTM_RANGES_BATCHWISE;
		if (!needs_launch(s->o))
			k |= PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE;
		if (s->o->op_detail) /* the device rows name the copies by their kinds */
			k |= PT_PTM_SKIP_BUT_COPIES;
	}
	return k;
}

bool pt_summary_stream_copies_unused(const struct pt_summary_stream *s)
{
	return s->state != ST_NEW && s->o->op_detail && !needs_launch(s->o) && !s->hostcand;
}

int pt_summary_stream_seal(struct pt_summary_stream *s, struct pt_model *m, bool *calls)
{
	*calls = s->launch;
	if (!s->launch)
		return 0;
	/* the host read: the calls' ends for the gpu view alone (launch_of; the memcpy view takes a
	 * copy's call by its key, membership by the call's start) */
	s->lj.starts = s->host && !(s->o->views & (1u << PT_SV_GPU));
	if (s->host && !needs_launch(s->o)) { /* the links the first read kept (sum_lj_seal_with takes them) */
		int rc = sum_lj_seal_with(&s->lj, s->links.v, s->links.n);
		memset(&s->links, 0, sizeof(s->links));
		if (rc)
			return PT_PTM_STOP;
	} else if (sum_lj_seal(&s->lj, m)) {
		return PT_PTM_STOP;
	}
	/* the host read: with the calls a batch ahead, the read of the calls keeps none (it sums the
	 * activities' device time alone); the read of the steps and the summing read take them */
	s->hahead = s->host && s->lj.links && s->lj.ahead;
	s->lj.keep_perm = s->hahead;
	sum_lj_begin(&s->lj);
	if (s->host)
		sum_hs_seal(&s->hs, &s->lj);
	return 0;
}

int pt_summary_stream_calls(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	(void)e;
	if (!s->hahead)
		sum_lj_calls(&s->lj, m);
	if (s->host)
		sum_hs_acts(&s->hs, &s->lj, m);
	return 0;
}

unsigned pt_summary_stream_calls_skip(const struct pt_summary_stream *s)
{
	return PT_PTM_NO_NAME | PT_PTM_NO_OP | PT_PTM_NO_TASK | (s->lj.links ? PT_PTM_NO_CORR : 0);
}

void pt_summary_stream_calls_end(struct pt_summary_stream *s)
{
	if (!s->hahead) /* (else the links by call are kept for the reads to come) */
		sum_lj_calls_end(&s->lj);
	sum_lj_begin(&s->lj);
	if (s->host)
		sum_hs_rewind(&s->hs);
}

bool pt_summary_stream_calls_ahead(const struct pt_summary_stream *s)
{
	return s->launch && s->lj.links && s->lj.ahead && !s->host;
}

/* What a read that takes the calls a batch ahead does with the batch before: the sums, or the steps. */
typedef int held_fn(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);

/* f on the batch held (none: 0), m->events standing for it meanwhile. */
static int held_do(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e, held_fn *f)
{
	if (!s->holding)
		return 0;
	struct pt_events cur = m->events;
	m->events = s->held;
	int rc = f(s, m, e);
	s->held = m->events;
	m->events = cur;
	return rc;
}

/* A batch of a read that takes the calls a batch ahead of f. */
static int ahead(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e, held_fn *f)
{
	struct sum_lj *lj = &s->lj;
	/* the batches of the first read, whose ends sum_lj_seal() checked the links against */
	size_t b = lj->nbatch;
	if (b >= lj->nb || m->events.n != lj->bend[b] - (b ? lj->bend[b - 1] : 0))
		return PT_PTM_STOP;
	lj->nbatch++;
	sum_lj_calls(lj, m);
	int rc = held_do(s, m, e, f);
	if (rc)
		return rc;
	/* this batch waits for the next one's calls; the reader fills the columns of the one summed */
	struct pt_events done = s->held;
	s->held = m->events;
	s->holding = true;
	m->events = done;
	m->events.n = 0;
	return 0;
}

/* After the last batch of such a read: f on the batch held. */
static int ahead_end(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e, held_fn *f)
{
	if (s->lj.nbatch != s->lj.nb)
		return PT_PTM_STOP;
	int rc = held_do(s, m, e, f);
	s->holding = false;
	pt_events_free_columns(&s->held);
	memset(&s->held, 0, sizeof(s->held));
	return rc;
}

int pt_summary_stream_both(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e)
{
	return ahead(s, m, e, pt_summary_stream_batch);
}

int pt_summary_stream_both_end(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e)
{
	int rc = ahead_end(s, m, e, pt_summary_stream_batch);
	sum_lj_calls_end(&s->lj);
	return rc;
}

int pt_summary_stream_batch(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	if (s->state == ST_NEW) {
		if (!can_stream(s, m))
			return s->once ? PT_PTM_WHOLE : PT_PTM_STOP;
		s->state = ST_SCAN;
		/* the launch reads: the first read scans (the file's TrackEvents would skip it) */
		s->launch = has_gpu(m) && needs_launch(s->o);
		/* the host read may take place: views that read host ranges (or a selection: the steps are
		 * host ranges), a file's TrackEvents that say there are some */
		s->hostcand = host_reads(s, m) && (host_claimed(m) || s->hosts_known) && !sum_hs_init(&s->hs, m, s->o);
		/* several processes with host ranges that the views read, as the file's TrackEvents say, and
		 * no host read (a view or option it does not take): read whole at once (the scan would find
		 * them) */
		if (s->launch && !s->hostcand && !sum_lj_one_rank(m) && m->track_events.n == m->tracks.n &&
		    !gpu_streamable(m, m->track_events.v, s->o))
			return s->once ? PT_PTM_WHOLE : PT_PTM_STOP;
		/* the distributed view of an NPU needs its AI CPU ops before the tasks: a first read finds them */
		bool npu = false;
		for (size_t d = 0; d < m->devices.n; d++)
			npu |= m->devices.v[d].kind == PT_DEV_NPU;
		if (!(npu && (s->o->views & (1u << PT_SV_DISTRIBUTED))) && !s->launch && !s->hostcand && scan_claims(s, m)) {
			int rc = begin(s, m, e);
			if (rc == PT_PTM_STOP)
				return s->once ? PT_PTM_WHOLE : PT_PTM_STOP;
			if (rc)
				return -1;
			meta_counts(m, s->nmeta);
		} else if (s->once) {
			return PT_PTM_WHOLE; /* no second read: the caller takes the whole model */
		}
	}
	if (s->claimed) {
		/* a file that defines names, tracks, ops or steps after its first event batch (the
		 * writer never does) cannot be summed in one read: the caller reads it whole */
		size_t n[5];
		meta_counts(m, n);
		if (memcmp(n, s->nmeta, sizeof(n)))
			return PT_PTM_STOP;
	}
	if (s->state == ST_SCAN)
		scan_batch(s, m);
	else
		sum_batch(s);
	return 0;
}

bool pt_summary_stream_unsure(const struct pt_summary_stream *s)
{
	return s->u.unsure || s->hs.unsure;
}

bool pt_summary_stream_hosts(const struct pt_summary_stream *s)
{
	return s->host;
}

bool pt_summary_stream_hosts_ahead(const struct pt_summary_stream *s)
{
	return s->hahead;
}

/* The steps of a batch whose activities' calls are known; with the calls a batch ahead, those of
 * the activities passed are not read again. */
static int steps_of(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	(void)e;
	sum_hs_steps(&s->hs, &s->lj, m);
	if (s->hahead)
		sum_lj_pass(&s->lj, s->hs.base);
	return 0;
}

int pt_summary_stream_steps(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e)
{
	return s->hahead ? ahead(s, m, e, steps_of) : steps_of(s, m, e);
}

int pt_summary_stream_steps_end(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e)
{
	if (!s->hahead)
		return 0;
	int rc = ahead_end(s, m, e, steps_of);
	sum_lj_recall(&s->lj); /* the summing read takes the calls again, a batch ahead */
	return rc;
}

int pt_summary_stream_host_begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	s->sumbase = 0;
	scan_waits(s, m);
	if (s->ntrk)
		memset(s->sc.seen, 0, s->ntrk);
	s->sc.hs = &s->hs;
	if (sum_run_init(&s->u, m, NULL, &s->sc, s->o, pt_model_origin(m, &s->sc.earliest), e))
		return -1;
	s->begun = true;
	s->state = ST_SUM;
	pt_vec_free(&s->hs.steps); /* the ranks' windows hold them */
	dist_begin(s); /* (Ascend ranks beside the GPU ones) */
	sum_hs_begin(&s->hs, &s->u);
	return 0;
}

int pt_summary_stream_hosts_batch(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	(void)e;
	(void)m;
	sum_hs_hosts(&s->hs, &s->u, &s->lj);
	return 0;
}

void pt_summary_stream_hosts_end(struct pt_summary_stream *s)
{
	sum_hs_hosts_end(&s->hs, &s->u);
}

bool pt_summary_stream_again(const struct pt_summary_stream *s)
{
	return s->state != ST_SUM;
}

int pt_summary_stream_begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	if (s->state == ST_NEW && !can_stream(s, m))
		return PT_PTM_STOP;
	/* GPU-kind activities on an NPU (never imported so) take the index's name rules in the distributed view */
	if (s->kernels && (s->o->views & (1u << PT_SV_DISTRIBUTED)))
		return PT_PTM_STOP;
	return begin(s, m, e);
}

int pt_summary_stream_end(struct pt_summary_stream *s, struct pt_summary *out)
{
	memset(out, 0, sizeof(*out));
	struct run *u = &s->u;
	if (s->claimed) {
		/* the file's TrackEvents must be what the events were */
		const struct pt_model *m = u->g.m;
		for (uint32_t t = 0; t < m->tracks.n && !s->bad_track; t++) {
			const struct pt_track_events *a = &s->tev[t], *c = &m->track_events.v[t];
			if (a->count != c->count || a->with_op != c->with_op || a->kinds != c->kinds ||
			    (a->count && (a->min_start != c->min_start || a->max_end != c->max_end ||
					  a->flags != c->flags)))
				s->bad_track = t + 1;
		}
		if (s->bad_track)
			return (int)s->bad_track;
	}
	for (size_t k = 0; k < u->ranks.n; k++)
		if (u->ranks.v[k].asc)
			sum_asc_release(&u->ranks.v[k], true);
	sum_lj_free(&s->lj); /* the launches are summed: room for the views' sorts */
	/* the views read no event: m->events holds the last batch */
	sum_run_views(u, out);
	return 0;
}

void pt_summary_stream_free(struct pt_summary_stream *s)
{
	if (!s)
		return;
	if (s->begun)
		sum_run_free(&s->u);
	struct scan *sc = &s->sc;
	free(sc->lo);
	free(sc->hi);
	free(sc->left);
	free(sc->min);
	free(sc->last);
	free(sc->lag);
	free(sc->seen);
	free(sc->named);
	free(sc->api);
	free(s->tev);
	free(s->tev_last);
	free(s->wt);
	for (size_t t = 0; t < s->ntrk; t++)
		pt_lagprof_free(&s->wp[t]);
	free(s->wp);
	pt_events_free_columns(&s->held);
	pt_vec_free(&s->deferred);
	sum_lj_free(&s->lj);
	sum_hs_free(&s->hs);
	pt_vec_free(&s->links);
	free(s);
}
