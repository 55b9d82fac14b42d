/*
 * `timeline` over a .ptm file without holding its events (pass-timeline.h,
 * pt_tl_stream_new): the model's tables are read, its events are read twice
 * (or three times) or more, and per event nothing is kept.
 *
 * Usually the first two reads below are one (a fold, fold_begin): the file's
 * TrackEvents, written before the events, give what the first read measures
 * but the device's lag in file order; a look-ahead of LOOKAHEAD tasks a
 * device stands for that, and the communication spans, which come after the
 * events, join the unions at the end. Where the file is not as its track
 * table says (checked as it is read: counts, earliest starts, framework ops;
 * a task that starts before one the look-ahead released), or has none (a
 * version 1 file), it is read again the long way; nothing is written before.
 *
 * First read: every chunk but the events is applied to the model; each event
 * batch is scanned: the earliest start (the model's origin), per track the
 * lag of its device tasks (support/lag.h), its count and whether it runs a
 * task of a framework op (an unnamed task on such a stream computes:
 * pt_index_task_class). A model that holds other events than Ascend tasks
 * (host ranges, runtime calls, kernels: GPU models), or correlation ids,
 * stops the read: it is read whole (PT_TL_NOSTREAM).
 *
 * Second read: each event goes through the pass (tl_pass_event: its step
 * and membership, the Steps rows' spans, the scope ops), the layout's scan
 * of its track (count, span, nesting lanes and the items of each lane) and,
 * classed as the index classes it (ascend.md §3.8), into its device's
 * computation or communication union, through a queue in start order that
 * releases, after each batch, what no later task of the device can start
 * before (per track: its latest start less its lag, or its first start while
 * none came; the device's latest start less the lag of all its tasks in file
 * order, where that is later). The
 * unions C and M of each device (packed: support/ivpack.h) are all that is
 * kept of the events, for the overlap rows and the steps' busy time; M gets
 * the device's communication spans (HCCL operators, reduce pairs), merged in
 * as the queue is released. A track whose kept events do not
 * come in strictly increasing start order (its rows would need sorting) makes
 * the model read whole (PT_TL_NOSTREAM).
 *
 * Writing (a third read, again for every rewind of the writer): the trace's
 * merge (pass-timeline-events.c) pulls event batches from a read running in a
 * second thread, one batch at a time and only while some row's next event is
 * not read yet; each kept event goes to the row of its track and lane, the
 * lanes made again as in the second read. A row whose next event is not read
 * takes part in the merge with a lower bound of its start (its last event's,
 * or the latest start read on its track). So only the events read and not yet
 * written are held: for files written in time order (the importers write
 * them so), those of a short stretch of time.
 */
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-turns.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "pass/pass-timeline-trace.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/xalloc.h"

#define NOT_STREAMABLE 3
#define STOPPED 5
#define RETRY 7 /* a fold found the file not as its track table said: read it the long way */
#define TL_SKIP (1 | PT_PTM_SKIP_BUT_TABLES)

struct pend {
	int64_t s, e;
	uint8_t cls;
};

struct trk {
	struct pt_lag lag; /* its device tasks, first read */
	uint64_t left;     /* second read: device tasks still to come */
	bool named;        /* runs a task of a framework op */
	bool seen;
	int64_t top;       /* second read: the latest start of its device tasks */
	/* a read that measures nothing first: what the file's TrackEvents said, checked at the end */
	uint64_t te_count;
	int64_t te_min;
	bool te_named;
	int64_t min2;      /* its earliest start as read */
	bool named2;
};

struct pt_tl_stream {
	char *path;
	struct pt_model *m;
	size_t nt, nd;
	struct trk *t;
	bool again;         /* the model cannot stream */
	const struct pt_tl_opts *opts;
	bool fold;          /* one read measures and passes: the track table stands for the first (below) */
	bool begun;         /* fold: the pass began (at the first batch) */
	bool retry;         /* fold: the file's order or track table did not hold; read it the long way */
	unsigned skip_cols; /* the columns the second read leaves undecoded */
	bool has_ev;
	int64_t evmin, evmax;   /* the events' first start and last end */
	struct pt_steps_devscan *dev; /* per device, for the selection's notes */
	struct pt_lag *dlag;  /* per device: the lag of its tasks in file order, all tracks together (first read) */
	int64_t *dtop;        /* per device: the latest start of its tasks so far (second read) */
	uint8_t *dseen;
	/* second read */
	struct tl_pass pass;
	uint8_t *op_comm;
	struct tl_tscan *scan;
	uint64_t *nev;      /* per device: kept events */
	/* per device: tasks not yet in the unions (in start order from h), and the communication spans (sorted) */
	struct pendq {
		struct pend *v;
		size_t h, n, cap;
		struct pt_ival *sp;
		size_t nsp, isp;
		int64_t out;  /* fold: the latest start released */
		bool any_out;
	} *pq;
	struct pt_ivpack *C, *M; /* per device: the unions, packed */
	/* writing (head: per track the latest start read) */
	struct tl_rowbind b;
	size_t *cur;
};

static bool is_task(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_AICPU;
}

static void fit_tracks(struct pt_tl_stream *s)
{
	size_t n = s->m->tracks.n;
	if (n > s->nt) {
		s->t = pt_xrealloc(s->t, n * sizeof(*s->t));
		memset(s->t + s->nt, 0, (n - s->nt) * sizeof(*s->t));
		s->nt = n;
	}
}

/* ------------------------------------------------------------------ first read */

static int scan1(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_tl_stream *s = arg;
	fit_tracks(s);
	const struct pt_events *ev = &m->events;
	if (ev->dense & PT_EVCOL_CORR) {
		s->again = true;
		return NOT_STREAMABLE;
	}
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!is_task(k) || ev->track[i] >= m->tracks.n) {
			s->again = true;
			return NOT_STREAMABLE;
		}
		struct trk *t = &s->t[ev->track[i]];
		int64_t st = ev->start[i], en = st + ev->dur[i];
		pt_lag_add(&t->lag, st);
		t->named |= k == PT_EV_TASK && ev->op[i];
		uint32_t d = m->tracks.v[ev->track[i]].device;
		if (d >= s->nd) {
			s->dev = pt_xrealloc(s->dev, m->devices.n * sizeof(*s->dev));
			memset(s->dev + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->dev));
			s->dlag = pt_xrealloc(s->dlag, m->devices.n * sizeof(*s->dlag));
			memset(s->dlag + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->dlag));
			s->nd = m->devices.n;
		}
		pt_steps_devscan_add(&s->dev[d], k, st, ev->dur[i]);
		pt_lag_add(&s->dlag[d], st);
		if (!s->has_ev || st < s->evmin)
			s->evmin = st;
		if (!s->has_ev || en > s->evmax)
			s->evmax = en;
		s->has_ev = true;
	}
	return 0;
}

/* ------------------------------------------------------------------ second read */

/* Device d's pending task: into its queue, kept in start order (the tasks come nearly in that order). False
 * where it starts before a task released already (only where no bound held it back: a read that folds). */
static bool pend_add(struct pt_tl_stream *s, uint32_t d, struct pend p)
{
	struct pendq *q = &s->pq[d];
	if (q->any_out && p.s < q->out)
		return false;
	if (q->h && q->n == q->cap) { /* room from the front first */
		memmove(q->v, q->v + q->h, (q->n - q->h) * sizeof(*q->v));
		q->n -= q->h;
		q->h = 0;
	}
	pt_xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	size_t i = q->n++;
	while (i > q->h && q->v[i - 1].s > p.s) {
		q->v[i] = q->v[i - 1];
		i--;
	}
	q->v[i] = p;
	return true;
}

static bool pending(const struct pt_tl_stream *s, size_t d)
{
	return s->pq[d].n > s->pq[d].h || s->pq[d].isp < s->pq[d].nsp;
}

/* Into the unions, in start order (pt_ivset_append joins them as the index's merge does), what starts before
 * `below` of the device's tasks and communication spans. */
static void release(struct pt_tl_stream *s, uint32_t d, int64_t below, bool all)
{
	struct pendq *q = &s->pq[d];
	for (;;) {
		bool he = q->h < q->n, hs = q->isp < q->nsp;
		if (!he && !hs)
			break;
		struct pend p;
		if (he && (!hs || q->v[q->h].s <= q->sp[q->isp].s)) {
			p = q->v[q->h];
			if (!all && p.s >= below)
				break;
			q->h++;
		} else {
			p = (struct pend){ q->sp[q->isp].s, q->sp[q->isp].e, 2 };
			if (!all && p.s >= below)
				break;
			q->isp++;
		}
		pt_ivpack_append(p.cls == 1 ? &s->C[d] : &s->M[d], p.s, p.e);
		q->out = p.s;
		q->any_out = true;
	}
	if (q->h == q->n)
		q->h = q->n = 0;
}

/* No later start of a run of starts (a track's, a device's) whose lag is g comes before this: its latest start
 * so far less the lag, or its earliest start while none came. */
static int64_t lag_bound(const struct pt_lag *g, bool seen, int64_t top)
{
	if (!seen)
		return g->min;
	int64_t b;
	if (g->lag > (uint64_t)INT64_MAX || __builtin_sub_overflow(top, (int64_t)g->lag, &b))
		return INT64_MIN;
	return b;
}

/* What the pass needs before the events, once the model's tables are read (either read). */
static int pass_begin(struct pt_tl_stream *s, struct pt_model *m, const struct pt_tl_opts *o, const int64_t *evmin,
		      struct pt_err **e)
{
	fit_tracks(s);
	if (m->devices.n > s->nd) {
		s->dev = pt_xrealloc(s->dev, m->devices.n * sizeof(*s->dev));
		memset(s->dev + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->dev));
		s->dlag = pt_xrealloc(s->dlag, m->devices.n * sizeof(*s->dlag));
		memset(s->dlag + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->dlag));
	}
	s->nd = m->devices.n;
	s->dtop = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->dtop));
	s->dseen = pt_xcalloc(s->nd ? s->nd : 1, 1);
	for (size_t t = 0; t < s->nt; t++)
		s->t[t].left = s->t[t].lag.count;
	int rc = tl_pass_begin(&s->pass, m, o, pt_model_origin(m, evmin), false, e);
	if (rc)
		return rc;
	s->op_comm = pt_index_op_comm(m);
	s->scan = pt_xcalloc(s->nt ? s->nt : 1, sizeof(*s->scan));
	s->nev = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->nev));
	s->pq = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->pq));
	s->C = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->C));
	s->M = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*s->M));
	return 0;
}

/*
 * A read that folds the first into the second, at its first batch: the file's
 * TrackEvents (written before the events) stand for what the first read
 * measures: per track its count, earliest start, whether it is in start
 * order and whether it runs a framework op's task; their earliest start is
 * the events'. What they cannot say (the device's lag in file order, the
 * communication spans that come after the events) is made up for below.
 */
static int fold_begin(struct pt_tl_stream *s, struct pt_model *m, struct pt_err **e)
{
	if (m->track_events.n != m->tracks.n)
		return RETRY;
	fit_tracks(s);
	const uint32_t task = 1u << PT_EV_TASK, aicpu = 1u << PT_EV_AICPU;
	bool any = false;
	int64_t lo = 0;
	for (size_t i = 0; i < s->nt; i++) {
		const struct pt_track_events *x = &m->track_events.v[i];
		struct trk *t = &s->t[i];
		if (!x->count)
			continue;
		if (x->kinds & ~(task | aicpu)) { /* other events than tasks: read whole (it would stop at them) */
			s->again = true;
			return NOT_STREAMABLE;
		}
		if ((x->kinds & aicpu) && (x->kinds & task) && x->with_op)
			return RETRY;
		t->te_count = x->count;
		t->te_min = x->min_start;
		t->te_named = (x->kinds & task) && x->with_op;
		t->named = t->te_named;
		t->lag = (struct pt_lag){ x->count, x->flags & PT_TRACKEV_IN_ORDER ? 0 : UINT64_MAX, x->min_start,
					  x->min_start };
		if (!any || x->min_start < lo)
			lo = x->min_start;
		any = true;
	}
	s->begun = true;
	return pass_begin(s, m, s->opts, any ? &lo : NULL, e);
}

/* A fold's look-ahead: the tasks of a device that LOOKAHEAD later ones of it were read after go to the unions,
 * whatever the tracks' bounds say (an idle track would hold them all back). */
#define LOOKAHEAD 32768

static int scan2(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct pt_tl_stream *s = arg;
	const struct pt_events *ev = &m->events;
	if (s->fold && !s->begun) {
		int rc = fold_begin(s, m, e);
		if (rc)
			return rc;
	}
	if (m->tracks.n != s->nt || (ev->dense & PT_EVCOL_CORR)) {
		s->again |= s->fold;
		return NOT_STREAMABLE; /* the file changed (or, folding, GPU events) */
	}
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i];
		uint8_t k = ev->kind[i];
		if (!is_task(k) || tr >= s->nt) {
			s->again |= s->fold;
			return NOT_STREAMABLE;
		}
		uint32_t d = m->tracks.v[tr].device;
		bool keep = tl_pass_event(&s->pass, ev, i, 0);
		int64_t st0 = ev->start[i], du = ev->dur[i];
		/* the union of its class (computation or communication), whatever its membership */
		struct trk *t = &s->t[tr];
		if (s->fold) {
			if (d >= s->nd)
				return RETRY;
			if (!t->seen || st0 < t->min2)
				t->min2 = st0;
			t->named2 |= k == PT_EV_TASK && ev->op[i];
			pt_steps_devscan_add(&s->dev[d], k, st0, du);
			int64_t en = st0 + du;
			if (!s->has_ev || st0 < s->evmin)
				s->evmin = st0;
			if (!s->has_ev || en > s->evmax)
				s->evmax = en;
			s->has_ev = true;
			if (!t->left)
				return RETRY; /* more than its count */
		}
		if (t->left)
			t->left--;
		if (!t->seen || st0 > t->top)
			t->top = st0;
		t->seen = true;
		if (!s->dseen[d] || st0 > s->dtop[d])
			s->dtop[d] = st0;
		s->dseen[d] = 1;
		uint8_t cls = k == PT_EV_AICPU ? 1 : pt_index_task_class(s->op_comm, ev->op[i], t->named);
		struct pend p = { st0, st0 + du, cls };
		if (!pend_add(s, d, p)) {
			s->retry = true;
			return RETRY;
		}
		if (!keep)
			continue;
		s->nev[d]++;
		if (du < 0)
			continue;
		struct tl_tscan *q = &s->scan[tr];
		int64_t en = st0 + du;
		if (q->n && st0 <= q->last) {
			s->again = true; /* its rows would need sorting */
			return NOT_STREAMABLE;
		}
		q->last = st0;
		if (!q->n || st0 < q->lo)
			q->lo = st0;
		if (!q->n || en > q->hi)
			q->hi = en;
		uint8_t l = lane_next(&q->L, st0, en);
		if (!q->lane_n && q->L.nl > 1) {
			q->lane_n = pt_xcalloc(256, sizeof(*q->lane_n));
			q->lane_n[0] = q->n;
		}
		if (q->lane_n)
			q->lane_n[l]++;
		q->n++;
	}
	/*
	 * Per device: what no later task can start before, by its tracks (the
	 * earliest of their bounds) or by the device's tasks all together in
	 * file order (a track idle for a while holds the first back, not the
	 * second): the later of the two holds. A fold has no measure of the
	 * second: it releases what a look-ahead of later tasks passed, and a
	 * task that comes to start before one released makes it read again the
	 * long way.
	 */
	for (size_t d = 0; d < s->nd; d++) {
		if (!pending(s, d))
			continue;
		int64_t below = INT64_MAX;
		bool any = false;
		for (size_t tr = 0; tr < s->nt; tr++) {
			if (m->tracks.v[tr].device != d || !s->t[tr].left)
				continue;
			int64_t b = lag_bound(&s->t[tr].lag, s->t[tr].seen, s->t[tr].top);
			if (b < below)
				below = b;
			any = true;
		}
		if (any && !s->fold) {
			int64_t b = lag_bound(&s->dlag[d], s->dseen[d], s->dtop[d]);
			if (b > below)
				below = b;
		}
		struct pendq *q = &s->pq[d];
		if (s->fold && q->n - q->h > LOOKAHEAD && q->v[q->n - LOOKAHEAD].s > below)
			below = q->v[q->n - LOOKAHEAD].s;
		release(s, (uint32_t)d, below, false);
	}
	return 0;
}

static void stream_free(struct pt_tl_stream *s);

/* The communication spans of device d merged into its closed union M, as the index joins them. */
static void merge_spans(struct pt_ivpack *M, struct pt_ival *sp, size_t nsp)
{
	if (!nsp)
		return;
	pt_ival_sort(sp, nsp);
	struct pt_ivpack out = { 0 };
	struct pt_ivpack_cur c;
	pt_ivpack_begin(&c);
	struct pt_ival v;
	bool has = pt_ivpack_next(M, &c, &v);
	size_t k = 0;
	while (has || k < nsp) {
		if (has && (k == nsp || v.s <= sp[k].s)) {
			pt_ivpack_append(&out, v.s, v.e);
			has = pt_ivpack_next(M, &c, &v);
		} else {
			pt_ivpack_append(&out, sp[k].s, sp[k].e);
			k++;
		}
	}
	pt_ivpack_close(&out);
	pt_ivpack_free(M);
	*M = out;
}

/* A fold's read, over: did the file hold what its track table said? */
static bool fold_held(const struct pt_tl_stream *s, const struct pt_model *m)
{
	if (!s->begun || s->retry || m->gpu_mem.n || m->gpu_pools.n)
		return false;
	int64_t lo = 0;
	bool any = false;
	for (size_t i = 0; i < s->nt; i++) {
		const struct trk *t = &s->t[i];
		if (t->left || (t->te_count && (t->min2 != t->te_min || t->named2 != t->te_named)))
			return false;
		if (t->te_count && (!any || t->te_min < lo))
			lo = t->te_min;
		any |= t->te_count > 0;
	}
	return any == s->has_ev && (!any || lo == s->evmin);
}

static int stream_new(const char *path, const struct pt_tl_opts *o, bool fold, struct pt_model **mp,
		      struct pt_tl **out, struct pt_err **e)
{
	*mp = NULL;
	*out = NULL;
	struct pt_tl_stream *s = pt_xcalloc(1, sizeof(*s));
	pt_ptm_turns_init(&s->b.rd);
	s->path = pt_xstrdup(path);
	s->opts = o;
	s->fold = fold;
	/* a second read decodes no task ids, nor names where no scope op is kept (the first checked them) */
	s->skip_cols = PT_PTM_NO_TASK | (o->scope_depth ? 0 : PT_PTM_NO_NAME);
	struct pt_model *m = s->m = pt_model_new();
	int rc;
	if (fold) {
		struct pt_ptm_sink one = { scan2, s, false, TL_SKIP };
		rc = pt_ptm_read_stream(path, m, &one, e);
		if (!rc && !s->again && !s->begun) /* no events: the tables alone */
			rc = fold_begin(s, m, e);
		if (rc == RETRY || (!rc && !s->again && !fold_held(s, m))) {
			rc = RETRY;
			goto out;
		}
		if (rc || s->again)
			goto out;
	} else {
		struct pt_ptm_sink first = { scan1, s, false, TL_SKIP };
		rc = pt_ptm_read_stream(path, m, &first, e);
		if (rc || s->again)
			goto out;
		rc = pass_begin(s, m, o, s->has_ev ? &s->evmin : NULL, e);
		if (rc)
			goto out;
		/* M holds the device's communication spans (HCCL operators, reduce pairs) too, as the index makes it */
		for (size_t d = 0; d < s->nd; d++) {
			s->pq[d].nsp = pt_index_comm_spans(m, (uint32_t)d, &s->pq[d].sp);
			pt_ival_sort(s->pq[d].sp, s->pq[d].nsp);
		}
		struct pt_ptm_sink again = { scan2, s, true, TL_SKIP };
		rc = pt_ptm_read_stream_cols(path, m, &again, s->skip_cols, e);
		if (rc > 0 && !s->again)
			rc = pt_err(e, "'%s' changed while it was read", path);
		if (rc || s->again)
			goto out;
	}
	m->events.n = 0; /* the last batch: not the model's events */
	free(s->op_comm);
	s->op_comm = NULL;
	/* the unions */
	static const struct pt_ivset none = { 0 };
	struct tl_sets *S = pt_xcalloc(s->nd ? s->nd : 1, sizeof(*S));
	for (size_t d = 0; d < s->nd; d++) {
		release(s, (uint32_t)d, 0, true);
		free(s->pq[d].v);
		free(s->pq[d].sp);
		memset(&s->pq[d], 0, sizeof(s->pq[d]));
		pt_ivpack_close(&s->C[d]);
		pt_ivpack_close(&s->M[d]);
		if (fold) { /* the spans come after the events: joined now */
			struct pt_ival *sp;
			size_t nsp = pt_index_comm_spans(m, (uint32_t)d, &sp);
			merge_spans(&s->M[d], sp, nsp);
			free(sp);
		}
		S[d] = (struct tl_sets){ &none, &none, &s->C[d], &s->M[d] };
	}
	free(s->pq);
	s->pq = NULL;
	struct pt_tl *t = tl_pass_finish(&s->pass, S);
	free(S);
	/* the lanes are made again as the events are written */
	for (size_t tr = 0; tr < s->nt; tr++) {
		struct lanes *L = &s->scan[tr].L;
		uint32_t nl = L->nl;
		uint64_t ov = L->overflow;
		lanes_free(L);
		memset(L, 0, sizeof(*L));
		L->nl = nl;
		L->overflow = ov;
	}
	t->stream = s;
	*mp = m;
	*out = t;
	return 0;
out:
	if (rc == NOT_STREAMABLE || (rc == 0 && s->again))
		rc = PT_TL_NOSTREAM;
	stream_free(s);
	pt_model_free(m);
	return rc < 0 ? -1 : rc;
}

int pt_tl_stream_new(const char *path, const struct pt_tl_opts *o, struct pt_model **mp, struct pt_tl **out,
		     struct pt_err **e)
{
	int rc = stream_new(path, o, true, mp, out, e);
	if (rc == RETRY)
		rc = stream_new(path, o, false, mp, out, e);
	return rc;
}

void pt_tl_stream_check_sel(const struct pt_tl *tl, const struct pt_model *m, const struct pt_sel *sel,
			    struct pt_diag *d)
{
	const struct pt_tl_stream *s = tl->stream;
	struct pt_sel_found rf;
	pt_sel_found_init(&rf, sel);
	rf.step_records = m->steps.n > 0; /* (a streamed model has no host ranges) */
	int64_t span[2] = { s->evmin, s->evmax };
	struct pt_steps_info chk;
	struct pt_err *ce = NULL;
	if (!pt_steps_collect_scan(m, sel, s->dev, &chk, NULL, &ce)) {
		pt_sel_check_scanned(m, sel, &rf, s->has_ev ? span : NULL, &chk, d);
		pt_steps_info_free(&chk);
	} else {
		pt_err_free(ce);
		pt_sel_check_scanned(m, sel, &rf, s->has_ev ? span : NULL, NULL, d);
	}
}

struct tl_tscan *tl_stream_scan(struct pt_tl_stream *s)
{
	return s->scan;
}

const uint64_t *tl_stream_nev(const struct pt_tl_stream *s)
{
	return s->nev;
}

/* ------------------------------------------------------------------ writing */

static void row_push(struct row *r, const struct tl_sev *v)
{
	if (r->qn == r->qcap) {
		size_t cap = r->qcap ? 2 * r->qcap : 64;
		struct tl_sev *q = pt_xmalloc(cap * sizeof(*q));
		for (size_t k = 0; k < r->qn; k++)
			q[k] = r->q[(r->qh + k) & (r->qcap - 1)];
		free(r->q);
		r->q = q;
		r->qh = 0;
		r->qcap = cap;
	}
	r->q[(r->qh + r->qn) & (r->qcap - 1)] = *v; /* qcap: a power of two */
	r->qn++;
}

void tl_row_push(struct row *r, const struct tl_sev *v)
{
	row_push(r, v);
}

/* In the read's thread, while the writer waits: the batch's kept events to their rows. */
static void route(struct pt_tl_stream *s, const struct pt_model *m)
{
	struct tl_trace *c = s->b.c;
	const struct pt_tl *tl = c->tl;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i];
		if (tr >= s->nt || !s->b.lane_row[tr])
			continue;
		uint32_t d = m->tracks.v[tr].device;
		int64_t st0 = ev->start[i], du = ev->dur[i];
		size_t lo;
		bool keep;
		uint32_t step = tl_step_keep(tl, d, st0, st0, du, &s->cur[tr], &lo, &keep);
		if (!keep || du < 0)
			continue;
		uint8_t l = lane_next(&s->b.L[tr], st0, st0 + du);
		struct tl_sev v = { .start = st0, .dur = du, .task = ev->task[i], .name = ev->name[i], .op = ev->op[i],
				    .step = step, .kind = ev->kind[i], .keep = 1 };
		uint32_t ri = s->b.lane_row[tr][l];
		if (ri == UINT32_MAX)
			continue; /* (a lane the second read did not make: the file changed; the row count tells) */
		row_push(&c->rows.v[ri], &v);
		s->b.head[tr] = st0;
		s->b.has_head[tr] = 1;
	}
}

static int feed(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_tl_stream *s = arg;
	if (m->tracks.n != s->nt || (m->events.dense & PT_EVCOL_CORR))
		return NOT_STREAMABLE;
	route(s, m);
	return pt_ptm_turns_yield(&s->b.rd) ? STOPPED : 0;
}

/* ------------------------------------------------------------------ rows bound to a trace */

void tl_rowbind_bind(struct tl_rowbind *b, struct tl_trace *c, size_t nt, int (*failed)(struct pt_trace *, struct pt_err **))
{
	b->c = c;
	b->nt = nt;
	b->lane_row = pt_xcalloc(nt ? nt : 1, sizeof(*b->lane_row));
	b->L = pt_xcalloc(nt ? nt : 1, sizeof(*b->L));
	b->head = pt_xcalloc(nt ? nt : 1, sizeof(*b->head));
	b->has_head = pt_xcalloc(nt ? nt : 1, 1);
	c->shead = b->head;
	c->shas = b->has_head;
	for (size_t r = 0; r < c->rows.n; r++) {
		struct row *rw = &c->rows.v[r];
		if (rw->type != R_TRACK)
			continue;
		uint32_t tr = rw->track;
		if (!b->lane_row[tr]) {
			b->lane_row[tr] = pt_xmalloc(256 * sizeof(**b->lane_row));
			memset(b->lane_row[tr], 0xff, 256 * sizeof(**b->lane_row));
		}
		b->lane_row[tr][rw->lane] = (uint32_t)r;
		rw->qlast = rw->lo;
	}
	c->pub.failed = failed;
}

void tl_rowbind_unbind(struct tl_rowbind *b, struct tl_trace *c)
{
	if (b->c != c)
		return;
	pt_ptm_turns_stop(&b->rd);
	for (size_t r = 0; r < c->rows.n; r++)
		free(c->rows.v[r].q);
	for (size_t tr = 0; tr < b->nt; tr++) {
		free(b->lane_row[tr]);
		lanes_free(&b->L[tr]);
	}
	free(b->lane_row);
	free(b->L);
	free(b->head);
	free(b->has_head);
	b->lane_row = NULL;
	b->L = NULL;
	b->head = NULL;
	b->has_head = NULL;
	pt_err_free(b->ferr);
	b->ferr = NULL;
	b->c = NULL;
}

void tl_rowbind_rewind(struct tl_rowbind *b)
{
	pt_ptm_turns_rewind(&b->rd);
	for (size_t r = 0; r < b->c->rows.n; r++) {
		struct row *rw = &b->c->rows.v[r];
		rw->qh = rw->qn = 0;
		rw->qlast = rw->lo;
	}
	for (size_t tr = 0; tr < b->nt; tr++) {
		lanes_free(&b->L[tr]);
		memset(&b->L[tr], 0, sizeof(b->L[tr]));
	}
	memset(b->has_head, 0, b->nt);
}

int tl_rowbind_pull(struct tl_rowbind *b, bool *eof_told)
{
	return tl_rowbind_pull_rd(b, &b->rd, eof_told);
}

int tl_rowbind_pull_rd(struct tl_rowbind *b, struct pt_ptm_turns *rd, bool *eof_told)
{
	if (!pt_ptm_turns_pull(rd))
		return 0;
	if (eof_told && !*eof_told && rd->rc == 0) {
		*eof_told = true;
		return 0;
	}
	b->failed = true;
	if (rd->rc < 0 && rd->rerr && !b->ferr) {
		b->ferr = rd->rerr;
		rd->rerr = NULL;
	}
	return 1;
}

int tl_rowbind_failed(struct tl_rowbind *b, const char *path, struct pt_err **e)
{
	if (!b->failed)
		return 0;
	if (b->ferr) {
		*e = b->ferr;
		b->ferr = NULL;
		return -1;
	}
	return pt_err(e, "'%s' changed while it was read", path);
}

/* ------------------------------------------------------------------ the Ascend stream's writing */

static int it_failed(struct pt_trace *t, struct pt_err **e)
{
	struct pt_tl_stream *s = ((struct tl_trace *)t)->tl->stream;
	return tl_rowbind_failed(&s->b, s->path, e);
}

void tl_stream_bind(struct tl_trace *c)
{
	struct pt_tl_stream *s = c->tl->stream;
	s->b.rd.path = s->path;
	s->b.rd.m = s->m;
	s->b.rd.sink = (struct pt_ptm_sink){ feed, s, true, TL_SKIP };
	s->cur = pt_xcalloc(s->nt ? s->nt : 1, sizeof(*s->cur));
	tl_rowbind_bind(&s->b, c, s->nt, it_failed);
}

void tl_stream_unbind(struct tl_trace *c)
{
	struct pt_tl_stream *s = c->tl ? c->tl->stream : NULL;
	if (!s || s->b.c != c)
		return;
	tl_rowbind_unbind(&s->b, c);
	free(s->cur);
	s->cur = NULL;
}

void tl_stream_rewind(struct tl_trace *c)
{
	struct pt_tl_stream *s = c->tl->stream;
	tl_rowbind_rewind(&s->b);
	memset(s->cur, 0, s->nt * sizeof(*s->cur));
}

void tl_stream_row_pop(struct tl_trace *c, struct row *r)
{
	(void)c;
	r->qlast = r->q[r->qh].start;
	r->qh = (r->qh + 1) & (r->qcap - 1);
	r->qn--;
}

int tl_stream_pull(struct tl_trace *c)
{
	/* nonzero: the read ended, and a row still waits for events */
	return tl_rowbind_pull(&c->tl->stream->b, NULL);
}

static void stream_free(struct pt_tl_stream *s)
{
	if (!s)
		return;
	pt_ptm_turns_destroy(&s->b.rd);
	if (s->pq)
		for (size_t d = 0; d < s->nd; d++) {
			free(s->pq[d].v);
			free(s->pq[d].sp);
		}
	free(s->pq);
	if (s->C)
		for (size_t d = 0; d < s->nd; d++) {
			pt_ivpack_free(&s->C[d]);
			pt_ivpack_free(&s->M[d]);
		}
	free(s->C);
	free(s->M);
	if (s->scan)
		for (size_t tr = 0; tr < s->nt; tr++) {
			lanes_free(&s->scan[tr].L);
			free(s->scan[tr].lane_n);
		}
	free(s->scan);
	free(s->nev);
	free(s->op_comm);
	if (s->pass.m)
		tl_pass_free(&s->pass);
	free(s->t);
	free(s->dev);
	free(s->dlag);
	free(s->dtop);
	free(s->dseen);
	free(s->path);
	pt_err_free(s->b.ferr);
	free(s);
}

void pt_tl_stream_free(struct pt_tl_stream *s)
{
	stream_free(s);
}
