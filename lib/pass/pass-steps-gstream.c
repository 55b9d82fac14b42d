/*
 * `steps` and `perf` of a GPU model (.ptm file) without holding its events
 * (pass-steps.h, pt_steps_stream_read; proftool-steps(1) MEMORY).
 *
 * For a model of CPU and GPU devices (no Ascend device, no step trace, no
 * Ascend work) whose host ranges name communication only where it can class
 * the kernels launched inside them (summary.md §2.5): the steps by their
 * launching calls' place in each thread's ranges (comm-attr.c), a caller of
 * pt_steps_gstream_keep that classes them itself (comm_ranges) when the file
 * has launch links; of one traced process (one CPU device) or of
 * several, a GPU device going to the host of the process it records, else
 * to the one the vote of its launches gives it (pass-steps-gvote.h: one
 * more read between reads 1 and 2; its linked calls widen that host's rank;
 * with communication host ranges, read whole). Each
 * process is a host (struct ghost) with its own launch join: correlation ids
 * are per process, and a GPU device's activities look up its host's calls,
 * as the in-memory pass's anchor map of its rank does. Up to three reads,
 * none holding events:
 *
 *  1. every chunk but the events is applied to the model (and the launch
 *     links, when the file has them); the events are scanned: per device the
 *     span of its events, per track of GPU activities their lag
 *     (support/lag.h), the hosts' ranges that match the step pattern (each
 *     with its host) and their Dataloader ranges, the activities' correlation
 *     ids (the keys of their host's launch join, launch-join.h) and which
 *     events are activities of the kept devices (a bit each, for the links);
 *  2. (`steps`, or no range of a host matched) the launching calls: each host
 *     API call whose id an activity has gives its start and end to its
 *     host's join; a call that a link names widens its rank's launch span
 *     (the coverage); under the iteration-boundary rule (no range of the host
 *     matched) each of its kernels' launch is kept, 8 bytes a kernel, and
 *     sorted into launch order for its rank's windows;
 *     where host ranges name communication (a kernel launched inside such a
 *     range counts as communication, summary.md §2.5) and the figures are
 *     asked for, each launching call (the link's, else the first of its id)
 *     gets a bit per join slot when it starts inside a communication range of
 *     its thread (comm-attr.h: the range infos that say which ranges are
 *     communication come after the events, so read 1 marks them, read 2 meets
 *     each thread's ranges and calls in start order; a communication range
 *     on a thread out of start order, or several hosts without launch links,
 *     leave the model to the whole read);
 *  3. (`steps` only; every GPU rank in the one read) each activity goes to its
 *     device's streamed breakdowns
 *     (breakdown-stream.h): computation/communication (a kernel by its name,
 *     or by its launch's bit), kernel/memcpy and
 *     memset/busy time per window, its launch (its call's start, or its own
 *     start) counted as a mark; the rank's launch span widens. When the step
 *     windows and the outside set's intervals do not meet (as the windows
 *     are made), the breakdowns hand over their unions' runs and each run's
 *     measure goes straight to the figures of the step that holds it (or to
 *     the outside set's sums), the launches to its counts: no state per
 *     window but the figures themselves.
 *
 * What grows with the input: the joins, 24 bytes an activity id (plus a bit
 * per id of their range), a bit per event (read 1: the activities; read 2:
 * the linked calls and activities), the links themselves (read 1 only, 12
 * bytes each, a chunk at a time), the launches (read 2), and per step its
 * window and figures; the host ranges' records are checked for
 * communication a batch at a time (PT_PTM_RANGES_BATCHWISE), none held (with
 * communication ranges: two bits an event in read 1, one in read 2, a bit per
 * join slot). For `hints` (pt_steps_gstream_keep) host ranges that name
 * communication are the caller's to class (keep->comm_ranges), but in a file
 * without launch links of several hosts, which goes to the whole read. Any
 * other model is read whole and passed to the in-memory pass, as before.
 */
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/breakdown-stream.h"
#include "pass/comm-attr.h"
#include "pass/launch-join.h"
#include "pass/pass-steps-gvote.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* a batch shows that the model cannot stream: read it whole */
#define AGAIN 3

struct gtrk {
	struct pt_lag lag; /* its activities, read 1; kept (pt_steps_gkeep): a host track's API calls, read 2 */
	uint64_t left;     /* read 4: activities still to come */
	bool seen;
	int64_t top;       /* the latest start among them so far */
};

struct lrec {
	uint32_t slot, name; /* a kernel's launch: its join slot, its name */
};

/* Read 4 over disjoint windows: the rank's non-empty step windows in start order (their indices), and
 * the outside set's intervals. */
struct dwins {
	const struct pt_stepwin *v; /* the rank's steps */
	uint32_t *step;
	size_t nstep;
	const struct pt_ival *o;
	size_t no;
};

/* What the runs of one streamed breakdown (q: 0 comp/comm, 1 kernel/memcpy, 2 memset/busy) of a device
 * add to its figures: per window, straight into them (pt_gpu_figs, the breakdown's fields holding the
 * measures of C, M and C ∪ M until the end); over the outside set, into out. */
struct dsum {
	const struct dwins *w;
	struct pt_gpu_figs *f;
	int q;
	size_t cs[3], co[3]; /* per union: the first step window, outside interval, its later runs can meet */
	int64_t out[3];
	uint64_t nmark[3]; /* q 0: the activities launched, per type */
	size_t mcur;       /* q 0: the step window after the last launch (launches come mostly in time order) */
	char *at[2];       /* per union C, M (and C ∪ M, q 0): step i's measure at at[k] + i * stride */
	char *at2;
	size_t stride;
};

/* A traced process (a CPU device; one without, in a model that has none): its launch join (correlation
 * ids are per process), the linked calls' span (read 2), its Dataloader ranges and kernel launches. */
struct ghost {
	uint32_t dev; /* its CPU device, PT_NONE */
	struct pt_ljoin j;
	bool has_lc;
	int64_t lc_s, lc_e; /* the linked calls' first and last start */
	bool launches;      /* the iteration-boundary rule: gather the kernels' launches */
	PT_VEC(struct lrec) l;
	PT_VEC(struct pt_ival) dl;
	size_t nr; /* its ranges that match the step pattern */
	uint64_t *cbit; /* read 2, host ranges that name communication: per join slot, its call inside one */
};

/* Read 4: a GPU rank, its device figures. */
struct grank {
	struct pt_rank_steps *r;
	struct ghost *h;       /* its host */
	struct pt_gpu_figs *f; /* per device of r */
	struct pt_ivset o;     /* the outside set (unfiltered) */
	struct dwins dw;       /* disjoint windows (dw.step set; else the breakdowns keep their own, per point) */
	int64_t ototal;        /* with dw.step: the outside set's measure */
	size_t nw;             /* without: the breakdowns' windows (the steps', then o's) */
	size_t p0;             /* its first device's position */
};

struct gst {
	const struct pt_sel *sel;
	uint64_t base; /* event index of the batch's first event */
	/* read 1 */
	struct pt_steps_devscan *dev;
	size_t ndev;
	struct gtrk *t;
	size_t ntrk;
	bool has_re;
	regex_t re;
	struct pt_sel_found rf;
	bool has_ev;
	int64_t ev_s, ev_e;
	uint32_t host; /* the first CPU device */
	struct ghost *h; /* the hosts, in device order (one at least) */
	size_t nh;
	uint32_t *hof;   /* per device: its host's position in h (a GPU device: by its process), PT_NONE */
	PT_VEC(struct pt_steps_grange) gr;
	PT_VEC(uint32_t) grh; /* per range of gr: its host (device index); with one host, none (grh_fill) */
	uint64_t *actbit; /* per event: an activity of a GPU device --device keeps (for the links) */
	size_t actw;      /* its words */
	bool no; /* something only the in-memory pass reads */
	uint8_t *sel_dev; /* per device: a GPU device --device keeps */
	/* read 2 */
	uint64_t *callbit, *linkbit; /* per event: a call linked from, an activity linked to (links) */
	size_t lbw;                  /* their words (read 1: they grow with the links' chunks) */
	uint64_t nbit;               /* their bits: the events of read 1 */
	/* read 4, of every GPU rank at once: their devices numbered in rank order (positions) */
	struct grank *rk;        /* the GPU ranks */
	size_t nrk;
	size_t npos;             /* the positions */
	uint32_t *pof;           /* per position: its rank in rk */
	uint32_t *dpos;          /* per device: its position + 1, 0: no GPU rank's */
	struct pt_bdstream **bd; /* per position: comp/comm, kernel/memcpy, memset/busy */
	struct dsum *ds;         /* per position, its rank's windows disjoint: per breakdown */
	uint8_t *kname;          /* per string: 0 not seen, 1 computation, 2 communication */
	size_t nstr;
	uint32_t **dtrk;         /* per position: its device's tracks with activities */
	size_t *ndtrk;
	/* kept for a later read (pt_steps_gstream_keep) */
	struct pt_steps_gkeep *keep;
	uint8_t *kmark; /* per string: 0 not seen, 1 no, 2 keep->mark_kernel() accepts it */
	size_t nkmark;
	uint8_t *rmark; /* per string, a range's name: 0 not seen, else RM_SEEN | RM_COMM | RM_DL | RM_STEP */
	size_t nrmark;
	bool hr_asked, hr_ok; /* keep->host_ranges() asked, its answer */
	/* host ranges that name communication (figures only; comm-attr.h): a kernel launched inside one */
	struct pt_cattr ca;
	bool comm; /* read 2 and 4: some, and figures asked for */
	/* several hosts: the GPU devices of no host's process, their vote (read 1, then the vote read) */
	struct pt_gvote gv;
	bool voted; /* some device went to a host by the vote */
	/* beside Ascend devices (pt_steps_gstream_mixed): their ranks are the caller's */
	bool mixed;
	size_t nstep_ok; /* the step records known to be on Ascend devices */
};

/* Bit i of b, which holds n bits (a file that grew between two reads has more events). */
static bool bit(const uint64_t *b, uint64_t n, uint64_t i)
{
	return b && i < n && (b[i / 64] >> (i % 64) & 1);
}

/* Can m's steps stream here (so far as its devices say)? GPU devices and hosts, no step trace. With
 * several hosts (processes), for a caller that keeps the joins only when it takes several
 * (keep->hosts); a GPU device belongs to the host of its recorded process, else to the one the vote
 * of its launches gives it (pass-steps-gvote.h). */
static bool streamable(struct gst *s, const struct pt_model *m)
{
	size_t ncpu = 0;
	for (size_t i = 0; i < m->devices.n; i++) {
		if (m->devices.v[i].kind == PT_DEV_CPU)
			ncpu++;
		else if (m->devices.v[i].kind != PT_DEV_GPU && !(s->mixed && m->devices.v[i].kind == PT_DEV_NPU))
			return false;
	}
	/* beside Ascend devices: their step trace (a GPU device's makes it a step-trace rank: whole) */
	for (; s->mixed && s->nstep_ok < m->steps.n; s->nstep_ok++)
		if (m->devices.v[m->steps.v[s->nstep_ok].device].kind != PT_DEV_NPU)
			return false;
	return (!m->steps.n || s->mixed) && !(ncpu > 1 && s->keep && !s->keep->hosts);
}

/* The hosts (new CPU devices come after the known ones: device indices only grow) and each device's:
 * its own position for a CPU device; for a GPU device, the host of its process, or with one host at
 * most, that one. An owner that changes once its work was joined leaves the model to the whole read. */
static void fit_hosts(struct gst *s, const struct pt_model *m)
{
	if (!s->nh) {
		s->h = pt_xcalloc(1, sizeof(*s->h));
		s->nh = 1;
		s->h[0].dev = PT_NONE;
		pt_ljoin_init(&s->h[0].j);
	}
	for (uint32_t i = 0; i < m->devices.n; i++) {
		if (m->devices.v[i].kind != PT_DEV_CPU)
			continue;
		bool known = false;
		for (size_t h = 0; h < s->nh && !known; h++)
			known = s->h[h].dev == i;
		if (known)
			continue;
		if (s->h[s->nh - 1].dev != PT_NONE) {
			s->h = pt_xrealloc(s->h, (s->nh + 1) * sizeof(*s->h));
			memset(&s->h[s->nh], 0, sizeof(*s->h));
			pt_ljoin_init(&s->h[s->nh].j);
			s->nh++;
		}
		s->h[s->nh - 1].dev = i;
	}
	size_t nd = m->devices.n ? m->devices.n : 1;
	uint32_t *hof = pt_xmalloc(nd * sizeof(*hof));
	for (uint32_t i = 0; i < m->devices.n; i++) {
		uint32_t d = m->devices.v[i].kind == PT_DEV_CPU ? i : PT_NONE;
		if (m->devices.v[i].kind == PT_DEV_GPU)
			d = s->nh > 1 ? pt_model_host_of_pid(m, m->devices.v[i].pid) : s->h[0].dev;
		hof[i] = PT_NONE;
		for (uint32_t h = 0; h < s->nh && hof[i] == PT_NONE && m->devices.v[i].kind != PT_DEV_NPU; h++)
			if (s->h[h].dev == d)
				hof[i] = h;
		if (i < s->ndev && s->hof && s->hof[i] != hof[i])
			s->no = true;
	}
	free(s->hof);
	s->hof = hof;
}

/* With several hosts: the host of every range of gr (those before the second host came: the first's). */
static void grh_fill(struct gst *s)
{
	while (s->nh > 1 && s->grh.n < s->gr.n)
		pt_vec_push(&s->grh, s->h[0].dev);
}

/* The host of device dv, or NULL. */
static struct ghost *ghost(const struct gst *s, uint32_t dv)
{
	return dv < s->ndev && s->hof[dv] != PT_NONE ? &s->h[s->hof[dv]] : NULL;
}

static void fit(struct gst *s, const struct pt_model *m)
{
	fit_hosts(s, m);
	if (m->devices.n > s->ndev) {
		s->dev = pt_xrealloc(s->dev, m->devices.n * sizeof(*s->dev));
		memset(s->dev + s->ndev, 0, (m->devices.n - s->ndev) * sizeof(*s->dev));
		if (s->keep) {
			s->keep->dev_mark = pt_xrealloc(s->keep->dev_mark, m->devices.n);
			memset(s->keep->dev_mark + s->ndev, 0, m->devices.n - s->ndev);
		}
		s->ndev = m->devices.n;
	}
	if (m->tracks.n > s->ntrk) {
		s->t = pt_xrealloc(s->t, m->tracks.n * sizeof(*s->t));
		memset(s->t + s->ntrk, 0, (m->tracks.n - s->ntrk) * sizeof(*s->t));
		s->ntrk = m->tracks.n;
	}
	s->host = PT_NONE;
	for (uint32_t i = 0; i < m->devices.n && s->host == PT_NONE; i++)
		if (m->devices.v[i].kind == PT_DEV_CPU)
			s->host = i;
	free(s->sel_dev);
	s->sel_dev = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1);
	for (size_t i = 0; i < m->devices.n; i++)
		s->sel_dev[i] = m->devices.v[i].kind == PT_DEV_GPU &&
				(s->sel->device < 0 || (int64_t)m->devices.v[i].id == s->sel->device);
}

/* Links v[0..n), of events before s->base: which activities of the kept GPU devices are placed by
 * them, at which calls (a bit each). */
static void link_bits(struct gst *s, const struct pt_gpu_link *v, size_t n)
{
	size_t words = (size_t)(s->base / 64 + 1);
	if (words > s->lbw) {
		size_t old = s->lbw, cap = s->lbw;
		pt_xgrow((void **)&s->callbit, &cap, words, sizeof(*s->callbit));
		pt_xgrow((void **)&s->linkbit, &s->lbw, words, sizeof(*s->linkbit));
		memset(s->callbit + old, 0, (s->lbw - old) * sizeof(*s->callbit));
		memset(s->linkbit + old, 0, (s->lbw - old) * sizeof(*s->linkbit));
	}
	for (size_t l = 0; l < n; l++) {
		uint32_t a = v[l].event, c = v[l].api;
		if (a >= s->base || c >= s->base || !bit(s->actbit, s->base, a))
			continue;
		s->linkbit[a / 64] |= UINT64_C(1) << (a % 64);
		if (!pt_gvote_link(&s->gv, a, c)) /* (a call an activity of a device that votes names: its own bits) */
			s->callbit[c / 64] |= UINT64_C(1) << (c % 64);
	}
}



/* The mark of string nm in *v, a byte per string of m (0: not seen yet), *n of them so far. */
static uint8_t *mark_at(uint8_t **v, size_t *n, const struct pt_model *m, uint32_t nm)
{
	if (nm >= *n) {
		size_t k = m->strings.n > nm ? m->strings.n : nm + 1;
		*v = pt_xrealloc(*v, k);
		memset(*v + *n, 0, k - *n);
		*n = k;
	}
	return &(*v)[nm];
}

enum { RM_SEEN = 1, RM_COMM = 2, RM_DL = 4, RM_STEP = 8 };

/* What a range's name nm is (communication, data loading, a step by the steps' pattern), found once
 * per name: a trace repeats a few names, and comparing each with the lists was a third of the first
 * read's time */
static uint8_t range_mark(struct gst *s, const struct pt_model *m, uint32_t nm, const char *name)
{
	uint8_t *k = mark_at(&s->rmark, &s->nrmark, m, nm);
	if (!*k)
		*k = RM_SEEN | (pt_index_comm_op_name(name) ? RM_COMM : 0) | (pt_steps_is_dataloader(name) ? RM_DL : 0) |
		     (s->has_re && !regexec(&s->re, name, 0, NULL, 0) ? RM_STEP : 0);
	return *k;
}

/* A communication host range (or a range named as one): the caller classes the kernels it launches
 * (keep->comm_ranges), else the model is read whole. */
static void comm_range(struct gst *s)
{
	if (s->keep && s->keep->comm_ranges)
		s->keep->comm = true;
	else
		s->no = true;
}

static int scan_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	if (!streamable(s, m))
		return AGAIN;
	if (m->links.n) { /* a chunk of links alone (PT_PTM_LINKS_BATCHWISE): to bits, none of them kept */
		link_bits(s, m->links.v, m->links.n);
		m->links.n = 0;
	}
	if (s->keep && s->keep->scan)
		s->keep->scan(s->keep->arg, m, s->base);
	if (m->ranges.n) { /* a batch of range infos (PT_PTM_RANGES_BATCHWISE): checked, none of them kept */
		if (s->keep) {
			if (pt_index_comm_ranges(m))
				comm_range(s);
		} else {
			pt_cattr_infos(&s->ca, m, s->base);
			if (s->ca.no)
				s->no = true;
		}
		m->ranges.n = 0;
		if (s->no)
			return AGAIN;
	}
	fit(s, m);
	const struct pt_events *ev = &m->events;
	size_t words = (size_t)((s->base + ev->n) / 64 + 1);
	if (words > s->actw) {
		size_t old = s->actw;
		pt_xgrow((void **)&s->actbit, &s->actw, words, sizeof(*s->actbit));
		memset(s->actbit + old, 0, (s->actw - old) * sizeof(*s->actbit));
	}
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i], dv = m->tracks.v[tr].device;
		uint8_t k = ev->kind[i];
		int64_t st = ev->start[i], en = st + ev->dur[i];
		pt_steps_devscan_add(&s->dev[dv], k, st, ev->dur[i]);
		if (!s->has_ev || st < s->ev_s)
			s->ev_s = st;
		if (!s->has_ev || en > s->ev_e)
			s->ev_e = en;
		s->has_ev = true;
		if (s->keep && k == PT_EV_KERNEL && s->keep->mark_kernel) {
			uint32_t nm = ev->name[i];
			uint8_t *km = mark_at(&s->kmark, &s->nkmark, m, nm);
			if (!*km)
				*km = s->keep->mark_kernel(pt_model_strget(m, nm)) ? 2 : 1;
			if (*km == 2)
				s->keep->dev_mark[dv] = 1;
		}
		if (k == PT_EV_RANGE) {
			const char *name = pt_model_strget(m, ev->name[i]);
			if (s->keep && !s->hr_asked) { /* host ranges: the caller's own reads take them, or whole */
				s->hr_asked = true;
				s->hr_ok = s->keep->host_ranges && s->keep->host_ranges(s->keep->arg, m);
			}
			if (s->keep && !s->hr_ok)
				s->no = true;
			if (s->has_re)
				pt_sel_found_range(&s->rf, &s->re, name);
			uint8_t mark = range_mark(s, m, ev->name[i], name);
			if ((mark & RM_COMM) && s->keep)
				comm_range(s);
			else if (mark & RM_COMM)
				pt_cattr_name(&s->ca, s->base + i);
			if (!s->keep)
				pt_cattr_order(&s->ca, tr, st);
			struct ghost *h = m->devices.v[dv].kind == PT_DEV_CPU ? ghost(s, dv) : NULL;
			if (!h)
				continue;
			if (mark & RM_STEP) {
				struct pt_steps_grange g = { st, en, pt_steps_name_number(name), s->base + i };
				grh_fill(s);
				pt_vec_push(&s->gr, g);
				if (s->nh > 1)
					pt_vec_push(&s->grh, dv);
				h->nr++;
			}
			if (mark & RM_DL) {
				struct pt_ival x = { st, en };
				pt_vec_push(&h->dl, x);
			}
		} else if (pt_steps_is_activity(k)) {
			if (s->mixed && m->devices.v[dv].kind == PT_DEV_NPU)
				s->no = true; /* kernels or copies of an Ascend device */
			pt_lag_add(&s->t[tr].lag, st);
			struct ghost *h = ghost(s, dv);
			if (h && h->dev != PT_NONE)
				pt_ljoin_want(&h->j, ev->corr[i]);
			else if (!h && s->nh > 1 && m->devices.v[dv].kind == PT_DEV_GPU)
				pt_gvote_want(&s->gv, dv, ev->corr[i]); /* (its host: by the vote) */
			if (s->sel_dev[dv]) {
				uint64_t g = s->base + i;
				if (!h && s->nh > 1)
					pt_gvote_act(&s->gv, dv, g);
				s->actbit[g / 64] |= UINT64_C(1) << (g % 64);
			}
		} else if (k == PT_EV_TASK || k == PT_EV_AICPU) {
			if (!s->mixed || m->devices.v[dv].kind != PT_DEV_NPU)
				s->no = true; /* Ascend work outside an Ascend device */
		} else if (k == PT_EV_API && !s->keep) {
			pt_cattr_order(&s->ca, tr, st);
		}
	}
	s->base += ev->n;
	return s->keep && s->no ? AGAIN : 0; /* kept for hints: no need to read on */
}

/* Between reads 1 and 2, where a thread is out of start order: its communication ranges (comm-attr.h). */
static int span_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_RANGE)
			pt_cattr_span(&s->ca, s->base + i, ev->track[i], ev->start[i], ev->dur[i]);
	s->base += ev->n;
	return 0;
}

/* The vote read: the activities of the GPU devices that vote, the API calls of every host. */
static int vote_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t dv = m->tracks.v[ev->track[i]].device;
		if (!ev->corr[i] || dv >= s->ndev)
			continue;
		uint8_t k = ev->kind[i];
		if (k == PT_EV_API && m->devices.v[dv].kind == PT_DEV_CPU && s->hof[dv] != PT_NONE) {
			pt_gvote_call(&s->gv, s->hof[dv], ev->corr[i]);
		} else if (pt_steps_is_activity(k) && s->hof[dv] == PT_NONE) {
			size_t p = pt_gvote_find(&s->gv, dv);
			if (p != SIZE_MAX)
				pt_gvote_activity(&s->gv, p, ev->corr[i]);
		}
	}
	s->base += ev->n;
	return 0;
}

/* A linked call at st widens the span of g's linked calls. */
static void lc_widen(struct ghost *g, int64_t st)
{
	if (!g->has_lc || st < g->lc_s)
		g->lc_s = st;
	if (!g->has_lc || st > g->lc_e)
		g->lc_e = st;
	g->has_lc = true;
}

static int call_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t dv = m->tracks.v[ev->track[i]].device;
		struct ghost *h = ghost(s, dv);
		if (ev->kind[i] == PT_EV_KERNEL && h && h->launches && s->sel_dev[dv]) {
			/* its launch, kept if its call comes (before or after it) */
			size_t slot = pt_ljoin_slot(&h->j, ev->corr[i]);
			if (slot != SIZE_MAX) {
				struct lrec x = { (uint32_t)slot, ev->name[i] };
				pt_vec_push(&h->l, x);
			}
			continue;
		}
		if (ev->kind[i] == PT_EV_RANGE && s->comm)
			pt_cattr_range(&s->ca, s->base + i, ev->track[i], ev->start[i], ev->dur[i]);
		if (ev->kind[i] == PT_EV_RANGE && s->keep && s->hr_ok && ev->track[i] < s->ntrk &&
		    m->devices.v[dv].kind == PT_DEV_CPU)
			pt_lag_add(&s->t[ev->track[i]].lag, ev->start[i]); /* with the track's calls */
		if (ev->kind[i] != PT_EV_API)
			continue;
		int64_t st = ev->start[i];
		bool host = m->devices.v[dv].kind == PT_DEV_CPU && h; /* (a call of a host: its join's) */
		if (s->comm && s->ca.kbit) { /* links and a device that votes: every call, its kernels by the links */
			pt_cattr_call(&s->ca, ev->track[i], st, s->ca.ccall, s->base + i);
		} else if (s->comm && !s->linkbit && s->nh > 1 && ev->corr[i]) {
			/* no links, several hosts: the first call of an id in the file, whichever host made it */
			for (size_t x = 0; x < s->nh; x++) {
				size_t q = pt_ljoin_slot(&s->h[x].j, ev->corr[i]);
				if (q != SIZE_MAX && pt_cattr_first(&s->ca, x, q))
					pt_cattr_call(&s->ca, ev->track[i], st, s->h[x].cbit, q);
			}
		}
		if (ev->corr[i] && host && s->comm && !s->ca.kbit && (s->linkbit || s->nh == 1)) {
			/* the launching call: the link's, else the first of its id */
			size_t slot = pt_ljoin_slot(&h->j, ev->corr[i]);
			bool first = slot != SIZE_MAX && h->j.start[slot] == INT64_MIN;
			pt_ljoin_call_named(&h->j, ev->corr[i], st, st + ev->dur[i], ev->name[i]);
			if (s->linkbit ? slot != SIZE_MAX && bit(s->callbit, s->nbit, s->base + i) : first)
				pt_cattr_call(&s->ca, ev->track[i], st, h->cbit, slot);
		} else if (ev->corr[i] && host) {
			pt_ljoin_call_named(&h->j, ev->corr[i], st, st + ev->dur[i], ev->name[i]);
		}
		if (s->keep && host && ev->track[i] < s->ntrk)
			pt_lag_add(&s->t[ev->track[i]].lag, st);
		/* a linked call widens its host's rank (a link stays inside its process); with one host, that
		 * host's wherever the call is */
		struct ghost *lh = host ? h : s->nh == 1 ? &s->h[0] : NULL;
		if (lh && bit(s->callbit, s->nbit, s->base + i))
			lc_widen(lh, st);
		/* a call that an activity of a device that voted names: the host the vote gave that device */
		for (size_t p = 0; p < s->gv.nd; p++)
			if (pt_gvote_linked(&s->gv, p, s->base + i))
				lc_widen(&s->h[s->hof[s->gv.d[p].dev]], st);
	}
	s->base += ev->n;
	return 0;
}

/* Launch order of the launch records: their calls' start, then id (slot order is id order). */
static const struct pt_ljoin *sort_join; /* the join the records being sorted index */

static int cmp_lrec(const void *a, const void *b)
{
	const struct lrec *x = a, *y = b;
	int64_t p = sort_join->start[x->slot], q = sort_join->start[y->slot];
	if (p != q)
		return p < q ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static uint32_t l_name(const void *a, size_t i)
{
	return ((const struct ghost *)a)->l.v[i].name;
}

static int64_t l_call_s(const void *a, size_t i)
{
	const struct ghost *h = a;
	return h->j.start[h->l.v[i].slot];
}

static int64_t l_call_e(const void *a, size_t i)
{
	const struct ghost *h = a;
	int64_t cs, ce = 0;
	pt_ljoin_get(&h->j, h->l.v[i].slot, &cs, &ce);
	return ce;
}

/* The earliest start an activity of the device at position d still to come can have (INT64_MAX: none). */
static int64_t watermark(const struct gst *s, size_t d)
{
	int64_t w = INT64_MAX;
	for (size_t j = 0; j < s->ndtrk[d]; j++) {
		const struct gtrk *t = &s->t[s->dtrk[d][j]];
		if (!t->left)
			continue;
		int64_t v = pt_lag_floor(&t->lag, t->seen, t->top);
		if (v < w)
			w = v;
	}
	return w;
}

/* The coverage: at the launch (its link's call, else its id's), else its own time. */
static void widen(const uint64_t *linkbit, uint64_t nbit, struct pt_rank_steps *r, uint64_t g, int64_t st, int64_t en,
		  bool found, int64_t cs)
{
	if (linkbit) {
		if (!bit(linkbit, nbit, g))
			pt_steps_widen(r, st, en);
	} else if (found) {
		pt_steps_widen(r, cs, cs);
	} else {
		pt_steps_widen(r, st, en);
	}
}

void pt_steps_gkeep_widen(const struct pt_steps_gkeep *k, struct pt_rank_steps *r, uint64_t ev, int64_t st,
			  int64_t en, bool found, int64_t cs)
{
	widen(k->linkbit, k->nbit, r, ev, st, en, found, cs);
}

const struct pt_steps_khost *pt_steps_gkeep_host(const struct pt_steps_gkeep *k, const struct pt_rank_steps *r)
{
	for (size_t h = 0; r->host != PT_NONE && h < k->nh; h++)
		if (k->h[h].dev == r->host)
			return &k->h[h];
	return &k->h[0];
}

void pt_steps_gkeep_start(const struct pt_steps_gkeep *k, struct pt_rank_steps *r)
{
	const struct pt_steps_khost *h = pt_steps_gkeep_host(k, r);
	if (h->has_lc) /* the calls the links name (read 2) */
		pt_steps_widen(r, h->lc_s, h->lc_e);
}

void pt_steps_gkeep_covered(struct pt_rank_steps *r)
{
	pt_steps_count_covered(r, 1);
}

void pt_steps_gkeep_free(struct pt_steps_gkeep *k)
{
	for (size_t h = 0; h < k->nh; h++) {
		if (k->h[h].j)
			pt_ljoin_free(k->h[h].j);
		free(k->h[h].j);
	}
	free(k->h);
	free(k->lag);
	free(k->dev_mark);
	free(k->linkbit);
	memset(k, 0, sizeof(*k));
}

static int64_t overlap(int64_t a, int64_t b, int64_t s, int64_t e)
{
	int64_t lo = a > s ? a : s, hi = b < e ? b : e;
	return hi > lo ? hi - lo : 0;
}

/* A final run [a, b) of union k: its measure in each window it meets. */
static void drun(void *arg, int k, int64_t a, int64_t b)
{
	struct dsum *x = arg;
	char *at = k < 2 ? x->at[k] : x->at2;
	if (!at)
		return; /* (C ∪ M of the kernel/memcpy and memset/busy breakdowns: not asked for) */
	const struct dwins *w = x->w;
	size_t c = x->cs[k];
	while (c < w->nstep && w->v[w->step[c]].e <= a)
		c++;
	x->cs[k] = c;
	for (size_t j = c; j < w->nstep && w->v[w->step[j]].s < b; j++) {
		const struct pt_stepwin *sw = &w->v[w->step[j]];
		*(int64_t *)(at + w->step[j] * x->stride) += overlap(a, b, sw->s, sw->e);
		if (sw->s <= a && b <= sw->e)
			return; /* within one step's window: in no other, nor in the outside set */
	}
	c = x->co[k];
	while (c < w->no && w->o[c].e <= a)
		c++;
	x->co[k] = c;
	for (size_t j = c; j < w->no && w->o[j].s < b; j++)
		x->out[k] += overlap(a, b, w->o[j].s, w->o[j].e);
}

/* A launch of type ty at t: counted in the step window that holds it, if any. */
static void dmark(struct dsum *x, size_t ty, int64_t t)
{
	const struct dwins *w = x->w;
	x->nmark[ty]++;
	size_t lo = x->mcur, hi = w->nstep; /* the first window starting after t: the last one's, if still */
	if (!((!lo || w->v[w->step[lo - 1]].s <= t) && (lo == hi || t < w->v[w->step[lo]].s))) {
		lo = 0;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (w->v[w->step[mid]].s <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		x->mcur = lo;
	}
	if (lo && t < w->v[w->step[lo - 1]].e)
		x->f->cnt[w->step[lo - 1]][ty]++;
}

/* The step windows of r and the intervals of o, when no two of them meet (w->step set); else false. */
static bool disjoint_windows(const struct pt_rank_steps *r, const struct pt_ivset *o, struct dwins *w)
{
	memset(w, 0, sizeof(*w));
	w->v = r->v;
	w->o = o->v;
	w->no = o->n;
	w->step = pt_xmalloc((r->n ? r->n : 1) * sizeof(*w->step));
	for (size_t i = 0; i < r->n && i < UINT32_MAX; i++) {
		if (r->v[i].e <= r->v[i].s)
			continue;
		if (w->nstep && r->v[i].s < r->v[w->step[w->nstep - 1]].e)
			goto no; /* out of start order, or meeting the one before */
		w->step[w->nstep++] = (uint32_t)i;
	}
	for (size_t i = 1; i < o->n; i++)
		if (o->v[i].s < o->v[i - 1].e)
			goto no;
	for (size_t i = 0, j = 0; i < w->nstep && j < o->n;) {
		const struct pt_stepwin *a = &r->v[w->step[i]];
		if (o->v[j].e <= o->v[j].s || o->v[j].e <= a->s)
			j++;
		else if (a->e <= o->v[j].s)
			i++;
		else
			goto no;
	}
	if (r->n < UINT32_MAX)
		return true;
no:
	free(w->step);
	w->step = NULL;
	return false;
}

static int act_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!pt_steps_is_activity(k))
			continue;
		uint32_t tr = ev->track[i];
		uint32_t dp = s->dpos[m->tracks.v[tr].device];
		if (!dp)
			continue;
		const struct grank *g = &s->rk[s->pof[dp - 1]];
		struct pt_rank_steps *r = g->r;
		struct gtrk *t = &s->t[tr];
		int64_t st = ev->start[i], en = st + ev->dur[i];
		if (t->left)
			t->left--;
		if (!t->seen || st > t->top)
			t->top = st;
		t->seen = true;
		int64_t at = st, cs;
		bool found = false;
		size_t slot = SIZE_MAX;
		if (ev->corr[i]) {
			const struct pt_ljoin *j = &g->h->j;
			slot = pt_ljoin_slot(j, ev->corr[i]);
			found = slot != SIZE_MAX && pt_ljoin_get(j, slot, &cs, NULL);
			if (found)
				at = cs;
		}
		widen(s->linkbit, s->nbit, r, s->base + i, st, en, found, cs);
		struct pt_bdstream **b = &s->bd[3 * (dp - 1)];
		size_t ty = k == PT_EV_KERNEL ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
		if (g->dw.step)
			dmark(&s->ds[3 * (dp - 1)], ty, at);
		else
			pt_bdstream_mark(b[0], ty, at);
		if (k == PT_EV_KERNEL) {
			uint8_t *kn = &s->kname[ev->name[i] < s->nstr ? ev->name[i] : 0];
			if (!*kn)
				*kn = pt_index_comm_kernel_name(pt_model_strget(m, ev->name[i])) ? 2 : 1;
			/* (or communication by its launch: its call, the link's where the model has links, inside a
			 * communication range) */
			bool ca = *kn == 1 && s->comm &&
				  (s->ca.kbit ? pt_cattr_kernel(&s->ca, s->base + i)
					      : slot != SIZE_MAX && (g->h->cbit[slot / 64] >> (slot % 64) & 1) &&
							(!s->linkbit || bit(s->linkbit, s->nbit, s->base + i)));
			pt_bdstream_add(b[0], ca ? 2 : *kn, st, en);
			pt_bdstream_add(b[1], 1, st, en);
		} else if (k == PT_EV_MEMCPY) {
			pt_bdstream_add(b[1], 2, st, en);
		} else {
			pt_bdstream_add(b[2], 1, st, en);
		}
		pt_bdstream_add(b[2], 2, st, en);
	}
	for (size_t d = 0; d < s->npos; d++) {
		int64_t w = watermark(s, d);
		for (size_t q = 0; q < 3; q++)
			pt_bdstream_release(s->bd[3 * d + q], w);
	}
	s->base += ev->n;
	return 0;
}

/* What read 4 holds. */
static void read4_free(struct gst *s)
{
	for (size_t i = 0; i < s->nrk; i++) {
		pt_ivset_free(&s->rk[i].o);
		free(s->rk[i].dw.step);
	}
	free(s->rk);
	free(s->pof);
	free(s->dpos);
	for (size_t i = 0; s->bd && i < 3 * s->npos; i++)
		pt_bdstream_free(s->bd[i]);
	free(s->bd);
	free(s->ds);
	free(s->kname);
	for (size_t d = 0; s->dtrk && d < s->npos; d++)
		free(s->dtrk[d]);
	free(s->dtrk);
	free(s->ndtrk);
}

static void gst_free(struct gst *s)
{
	free(s->dev);
	free(s->t);
	if (s->has_re)
		regfree(&s->re);
	pt_vec_free(&s->gr);
	pt_vec_free(&s->grh);
	for (size_t h = 0; h < s->nh; h++) {
		pt_ljoin_free(&s->h[h].j);
		pt_vec_free(&s->h[h].l);
		pt_vec_free(&s->h[h].dl);
		free(s->h[h].cbit);
	}
	free(s->h);
	free(s->hof);
	free(s->actbit);
	free(s->sel_dev);
	free(s->callbit);
	free(s->linkbit);
	read4_free(s);
	free(s->kmark);
	free(s->rmark);
	pt_cattr_free(&s->ca);
	pt_gvote_free(&s->gv);
}

/* One more read of src with batch(), which reads no column of skip (PT_PTM_NO_*: the first read checked
 * them); a file that ends early now changed since the first. */
static int again(const struct pt_ptm_source *src, struct pt_model *m, struct gst *s,
		 int (*batch)(void *, struct pt_model *, struct pt_err **), unsigned skip, struct pt_err **e)
{
	s->base = 0;
	struct pt_ptm_sink k = { batch, s, true, true };
	int rc = pt_ptm_source_read_cols(src, m, &k, skip, e);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

/* The launch links alone, in the file's order (comm-attr.h, pt_cattr_links). */
static int link_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gst *s = arg;
	pt_cattr_links(&s->ca, m->links.v, m->links.n);
	m->links.n = 0;
	return 0;
}

/* A read of the links (no tape: it keeps the events alone), after read 2 marked the calls. */
static int links_read(const struct pt_ptm_source *src, struct gst *s, struct pt_err **e)
{
	struct pt_ptm_source own = { .path = src->path };
	struct pt_model *mo = pt_model_new();
	struct pt_ptm_sink k = { link_batch, s, false, PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE };
	int rc = pt_ptm_source_read_cols(&own, mo, &k,
					 PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	pt_model_free(mo);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

/* Several hosts: each GPU device of no host's process goes to the host its vote gives it (a read of
 * the calls and those devices' activities, when they have ids), its ids wanted in that host's join.
 * 1: a count did not fit, read the model whole. */
static int vote(const struct pt_ptm_source *src, struct pt_model *m, struct gst *s, struct pt_err **e)
{
	if (s->nh < 2)
		return 0;
	int rc = 0;
	if (pt_gvote_seal(&s->gv, s->nh))
		rc = again(src, m, s, vote_batch, PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	if (!rc && s->gv.over)
		rc = 1;
	for (uint32_t dv = 0; !rc && dv < s->ndev && dv < m->devices.n; dv++) {
		if (m->devices.v[dv].kind != PT_DEV_GPU || s->hof[dv] != PT_NONE)
			continue;
		size_t p = pt_gvote_find(&s->gv, dv);
		s->hof[dv] = p == SIZE_MAX ? 0 : (uint32_t)pt_gvote_owner(&s->gv, p);
		s->voted = true;
		if (p != SIZE_MAX)
			pt_gvote_want_into(&s->gv, p, &s->h[s->hof[dv]].j);
	}
	pt_gvote_done(&s->gv);
	return rc;
}

/* The figures of a device of r from its sums ds[0..3) over disjoint windows (read 4), as the breakdowns'
 * windows give them: a step without device figures gets none; o: the outside set's measure. */
static void dfigs(const struct pt_rank_steps *r, bool filtered, const struct dsum *ds, int64_t o,
		  struct pt_gpu_figs *x)
{
	uint64_t inwin[3] = { 0, 0, 0 };
	for (size_t i = 0; i < r->n; i++) {
		const struct pt_stepwin *sw = &r->v[i];
		for (size_t k = 0; k < 3; k++)
			inwin[k] += x->cnt[i][k];
		if (!sw->kept || !(sw->covered || !pt_steps_partly_covered(r))) {
			memset(&x->b[i], 0, sizeof(x->b[i]));
			memset(x->m4[i], 0, sizeof(x->m4[i]));
			continue;
		}
		struct pt_bdsums a = { x->b[i].computation, x->b[i].communication, x->b[i].overlapped,
				       sw->e > sw->s ? sw->e - sw->s : 0 };
		pt_bdsums_breakdown(&a, &x->b[i]);
	}
	if (filtered)
		return;
	struct pt_bdsums a = { ds[0].out[0], ds[0].out[1], ds[0].out[2], o };
	pt_bdsums_breakdown(&a, &x->ob);
	int64_t m4[4] = { ds[2].out[1], ds[1].out[0], ds[1].out[1], ds[2].out[0] };
	memcpy(x->om4, m4, sizeof(m4));
	for (size_t k = 0; k < 3; k++)
		x->ocnt[k] = ds[0].nmark[k] - inwin[k];
}

/* Read 4, set up for GPU rank g (its devices at positions g->p0 on): its windows, its devices' streamed
 * breakdowns, its linked calls' span. */
static void rank_setup(struct gst *s, const struct pt_model *m, bool filtered, struct grank *g)
{
	struct pt_rank_steps *r = g->r;
	struct pt_gpu_figs *f = g->f;
	for (size_t d = 0; d < r->ndevs; d++) {
		s->dpos[r->devs[d]] = (uint32_t)(g->p0 + d) + 1;
		s->pof[g->p0 + d] = (uint32_t)(g - s->rk);
	}
	/* the windows: the steps', then the outside set's intervals */
	if (!filtered)
		pt_steps_outside_set(r, &g->o);
	/* disjoint (the steps' windows are made so): their measures go straight to the figures, the outside
	 * set's summed; else each breakdown keeps its measures per window end point */
	bool dj = disjoint_windows(r, &g->o, &g->dw);
	size_t nw = dj ? 0 : r->n + g->o.n;
	struct pt_ival *w = pt_xcalloc(nw ? nw : 1, sizeof(*w));
	for (size_t i = 0; i < nw && i < r->n; i++)
		w[i] = (struct pt_ival){ r->v[i].s, r->v[i].e };
	if (nw && g->o.n)
		memcpy(w + r->n, g->o.v, g->o.n * sizeof(*w));
	for (size_t i = 0; dj && i < g->o.n; i++)
		g->ototal += g->o.v[i].e > g->o.v[i].s ? g->o.v[i].e - g->o.v[i].s : 0;
	for (size_t d = 0; d < r->ndevs; d++) {
		size_t p = g->p0 + d;
		for (size_t q = 0; q < 3; q++) {
			if (!dj) {
				s->bd[3 * p + q] = pt_bdstream_new(w, nw, q ? 0 : 3);
				continue;
			}
			struct dsum *x = &s->ds[3 * p + q];
			x->w = &g->dw;
			x->f = &f[d];
			x->q = (int)q;
			if (q == 0) {
				x->at[0] = (char *)&f[d].b[0].computation;
				x->at[1] = (char *)&f[d].b[0].communication;
				x->at2 = (char *)&f[d].b[0].overlapped;
				x->stride = sizeof(*f[d].b);
			} else {
				x->at[0] = (char *)&f[d].m4[0][q == 1 ? 1 : 3];
				x->at[1] = (char *)&f[d].m4[0][q == 1 ? 2 : 0];
				x->stride = sizeof(*f[d].m4);
			}
			s->bd[3 * p + q] = pt_bdstream_new_runs(drun, x);
		}
		struct pt_ival *k = NULL;
		size_t nk = pt_index_comm_spans(m, r->devs[d], &k);
		for (size_t i = 0; i < nk; i++)
			pt_bdstream_add(s->bd[3 * p], 2, k[i].s, k[i].e);
		free(k);
	}
	free(w);
	if (g->h->has_lc) /* the calls the links name (read 2) */
		pt_steps_widen(r, g->h->lc_s, g->h->lc_e);
}

/* After read 4: the coverage of GPU rank g and its device figures. */
static void rank_finish(struct gst *s, bool filtered, struct grank *g)
{
	struct pt_rank_steps *r = g->r;
	pt_steps_count_covered(r, 1);
	for (size_t d = 0; d < r->ndevs; d++) {
		struct pt_bdstream **b = &s->bd[3 * (g->p0 + d)];
		for (size_t q = 0; q < 3; q++)
			pt_bdstream_finish(b[q]);
		struct pt_gpu_figs *x = &g->f[d];
		if (g->dw.step) {
			dfigs(r, filtered, &s->ds[3 * (g->p0 + d)], g->ototal, x);
			continue;
		}
		uint64_t inwin[3] = { 0, 0, 0 };
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *sw = &r->v[i];
			for (size_t k = 0; k < 3; k++) {
				x->cnt[i][k] = pt_bdstream_count(b[0], i, k);
				inwin[k] += x->cnt[i][k];
			}
			if (!sw->kept || !(sw->covered || !pt_steps_partly_covered(r)))
				continue;
			struct pt_bdsums a, kc, sb;
			pt_bdstream_window(b[0], i, &a);
			pt_bdstream_window(b[1], i, &kc);
			pt_bdstream_window(b[2], i, &sb);
			pt_bdsums_breakdown(&a, &x->b[i]);
			int64_t m4[4] = { sb.comm, kc.comp, kc.comm, sb.comp };
			memcpy(x->m4[i], m4, sizeof(m4));
		}
		if (!filtered) {
			struct pt_bdsums sum[3] = { { 0, 0, 0, 0 } };
			for (size_t j = 0; j < g->o.n; j++)
				for (size_t q = 0; q < 3; q++) {
					struct pt_bdsums one;
					pt_bdstream_window(b[q], r->n + j, &one);
					sum[q].comp += one.comp;
					sum[q].comm += one.comm;
					sum[q].either += one.either;
					sum[q].total += one.total;
				}
			pt_bdsums_breakdown(&sum[0], &x->ob);
			int64_t m4[4] = { sum[2].comm, sum[1].comp, sum[1].comm, sum[2].comp };
			memcpy(x->om4, m4, sizeof(m4));
			for (size_t k = 0; k < 3; k++)
				x->ocnt[k] = pt_bdstream_marks(b[0], k) - inwin[k];
		}
	}
}

/* Read 4: the device figures of every GPU rank of si (figs[i]: rank i's, per device), their coverage;
 * one read for all (a process's activities go to its rank's devices, its join). */
static int figs_read(const struct pt_ptm_source *src, struct pt_model *m, struct gst *s, struct pt_steps_info *si,
		     struct pt_gpu_figs **figs, struct pt_err **e)
{
	size_t nd = m->devices.n ? m->devices.n : 1;
	s->rk = pt_xcalloc(si->n ? si->n : 1, sizeof(*s->rk));
	size_t np = 0;
	for (size_t i = 0; i < si->n; i++) {
		struct pt_rank_steps *r = &si->r[i];
		if (r->ascend)
			continue;
		struct grank *g = &s->rk[s->nrk++];
		g->r = r;
		g->h = r->host != PT_NONE ? ghost(s, r->host) : &s->h[0];
		g->f = figs[i];
		g->p0 = np;
		np += r->ndevs;
	}
	s->npos = np;
	np = np ? np : 1;
	s->pof = pt_xcalloc(np, sizeof(*s->pof));
	s->dpos = pt_xcalloc(nd, sizeof(*s->dpos));
	s->bd = pt_xcalloc(3 * np, sizeof(*s->bd));
	s->ds = pt_xcalloc(3 * np, sizeof(*s->ds));
	s->dtrk = pt_xcalloc(np, sizeof(*s->dtrk));
	s->ndtrk = pt_xcalloc(np, sizeof(*s->ndtrk));
	s->nstr = m->strings.n;
	s->kname = pt_xcalloc(s->nstr ? s->nstr : 1, 1);
	for (size_t i = 0; i < s->nrk; i++)
		rank_setup(s, m, si->filtered, &s->rk[i]);
	for (size_t t = 0; t < s->ntrk; t++) {
		struct gtrk *x = &s->t[t];
		x->left = x->lag.count;
		x->seen = false;
		uint32_t dp = s->dpos[m->tracks.v[t].device];
		if (!x->left || !dp)
			continue;
		size_t d = dp - 1;
		s->dtrk[d] = pt_xrealloc(s->dtrk[d], (s->ndtrk[d] + 1) * sizeof(**s->dtrk));
		s->dtrk[d][s->ndtrk[d]++] = (uint32_t)t;
	}
	int rc = s->npos ? again(src, m, s, act_batch, PT_PTM_NO_OP | PT_PTM_NO_TASK, e) : 0;
	for (size_t i = 0; !rc && i < s->nrk; i++)
		rank_finish(s, si->filtered, &s->rk[i]);
	return rc;
}

void pt_steps_gfigs_free(const struct pt_steps_info *si, struct pt_gpu_figs **f)
{
	for (size_t ri = 0; f && ri < si->n; ri++) {
		size_t nd = si->r[ri].ndevs ? si->r[ri].ndevs : 1;
		for (size_t d = 0; f[ri] && d < nd; d++)
			pt_gpu_figs_free(&f[ri][d]);
		free(f[ri]);
	}
	free(f);
}

static int gstream(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **mout,
		   struct pt_steps_info *si, struct pt_gpu_figs ***figs, struct pt_steps_gkeep *keep, bool mixed,
		   struct pt_model **whole, struct pt_diag *d, struct pt_err **e)
{
	*mout = NULL;
	*whole = NULL;
	if (figs)
		*figs = NULL;
	memset(si, 0, sizeof(*si));
	if (pt_ptm_source_once(src)) /* read once only: whole */
		return pt_ptm_read(src->path, whole, e);
	/* the reads after the first (of the events alone) replay the event batches it kept, when small
	 * (PT_STEPS_TAPE_MAX); or the caller's tape keeps them, for its own reads after these */
	struct pt_ptm_tape tape = { .limit = PT_STEPS_TAPE_MAX, .events_only = true };
	struct pt_ptm_source own = { .path = src->path, .tap = src->tap, .tape = src->tape ? src->tape : &tape };
	src = &own;
	struct gst s;
	memset(&s, 0, sizeof(s));
	s.sel = sel;
	s.host = PT_NONE;
	s.keep = keep;
	s.mixed = mixed;
	pt_sel_found_init(&s.rf, sel);
	char msg[128];
	s.has_re = !pt_sel_step_re(sel, &s.re, msg, sizeof(msg));
	struct pt_model *m = pt_model_new();
	/* kept: also the memory records (packed) and the copy infos, which hints reads; the links go to
	 * bits a chunk at a time (not 12 bytes a link held, but two bits an event); the range infos are
	 * checked for communication a batch at a time (not 40 bytes a host range held) */
	struct pt_ptm_sink first = { scan_batch, &s, false,
				     PT_PTM_SKIP_BUT_LINKS | PT_PTM_SKIP_BUT_RANGES |
					     PT_PTM_LINKS_BATCHWISE | PT_PTM_RANGES_BATCHWISE |
					     (keep ? PT_PTM_SKIP_BUT_GPU_MEM | PT_PTM_PACK_GPU_MEM | PT_PTM_SKIP_BUT_COPIES : 0) };
	int rc = pt_ptm_source_read(src, m, &first, e);
	if (!rc && keep && keep->scan && m->ranges.n) { /* the last range infos */
		size_t n = m->events.n;
		m->events.n = 0;
		keep->scan(keep->arg, m, s.base);
		m->events.n = n;
	}
	if (!rc && !keep)
		pt_cattr_infos(&s.ca, m, s.base); /* the last range infos */
	if (!rc && keep && pt_index_comm_ranges(m))
		comm_range(&s);
	if (!rc && (s.no || !streamable(&s, m) || (!keep && s.ca.no)))
		rc = AGAIN;
	/* kernels communication by their launch (figures only): each thread's ranges and calls in start
	 * order; the calls the whole load joins them to (comm-attr.h: without links the first of their id in
	 * the file, whichever process made it; with links and a device that votes, each kernel's link read
	 * again) */
	s.comm = !rc && figs && s.ca.any;
	if (s.comm && s.host == PT_NONE)
		rc = AGAIN;
	if (!rc && keep && s.host == PT_NONE)
		rc = AGAIN; /* no launching calls to join */
	if (rc == PT_PTM_WHOLE || rc == AGAIN || rc == PT_PTM_STOP) {
		pt_model_free(m);
		gst_free(&s);
		pt_ptm_tape_free(&tape);
		if (keep)
			pt_steps_gkeep_free(keep);
		return pt_ptm_read(src->path, whole, e);
	}
	if (rc)
		goto fail;
	fit(&s, m);
	if (!s.hr_ok) /* (else the caller's tables() reads them first) */
		pt_vec_free(&m->ranges);
	s.rf.step_records = m->steps.n > 0;
	if (m->links.n) /* (a read that applied them all) */
		link_bits(&s, m->links.v, m->links.n);
	pt_vec_free(&m->links);
	if (s.linkbit) { /* the bits of every event of read 1 */
		link_bits(&s, NULL, 0);
		s.nbit = s.base;
	}
	free(s.actbit);
	s.actbit = NULL;
	if (keep && keep->tables)
		keep->tables(keep->arg, m);
	pt_vec_free(&m->ranges);
	if (keep && keep->whole) { /* the caller cannot stream what the tables hold */
		pt_model_free(m);
		gst_free(&s);
		pt_ptm_tape_free(&tape);
		pt_steps_gkeep_free(keep);
		return pt_ptm_read(src->path, whole, e);
	}
	if ((rc = vote(src, m, &s, e)) < 0)
		goto fail;
	if (rc) {
		pt_model_free(m);
		gst_free(&s);
		pt_ptm_tape_free(&tape);
		if (keep)
			pt_steps_gkeep_free(keep);
		return pt_ptm_read(src->path, whole, e);
	}
	if (keep) { /* read 2 measures the API calls' lag per host track: from zero */
		for (size_t h = 0; h < s.nh; h++) {
			pt_ljoin_keep_names(&s.h[h].j);
			pt_ljoin_compact(&s.h[h].j); /* read through pt_ljoin_get() and pt_ljoin_name() */
		}
		for (size_t t = 0; t < s.ntrk; t++)
			if (m->devices.v[m->tracks.v[t].device].kind == PT_DEV_CPU)
				memset(&s.t[t].lag, 0, sizeof(s.t[t].lag));
	}
	/* per host: no range matched, the iteration-boundary rule (its kernels' launches) */
	bool boundary = false;
	if (s.comm)
		pt_cattr_seal(&s.ca);
	for (size_t h = 0; h < s.nh; h++) {
		pt_ljoin_seal(&s.h[h].j);
		if (s.comm)
			s.h[h].cbit = pt_xcalloc(s.h[h].j.n / 64 + 1, sizeof(*s.h[h].cbit));
		s.h[h].launches = !s.h[h].nr && s.h[h].dev != PT_NONE;
		boundary |= s.h[h].launches;
	}
	if (s.comm && !s.linkbit && s.nh > 1) { /* (the first call of an id, per host's join slot) */
		size_t *ns = pt_xmalloc(s.nh * sizeof(*ns));
		for (size_t h = 0; h < s.nh; h++)
			ns[h] = s.h[h].j.n;
		pt_cattr_first_hosts(&s.ca, s.nh, ns);
		free(ns);
	}
	if (s.comm && s.linkbit && s.voted)
		pt_cattr_kbits(&s.ca, s.nbit);
	if (s.comm && pt_cattr_spans_wanted(&s.ca)) {
		if ((rc = again(src, m, &s, span_batch, PT_PTM_NO_NAME | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e)))
			goto fail;
		pt_cattr_spans_end(&s.ca);
	}
	/* (kept for hints: the calls' names too) */
	unsigned skip2 = PT_PTM_NO_OP | PT_PTM_NO_TASK | (boundary || keep ? 0 : PT_PTM_NO_NAME);
	if ((figs || boundary || keep) && s.host != PT_NONE && (rc = again(src, m, &s, call_batch, skip2, e)))
		goto fail;
	if (s.ca.late) { /* a communication range on a thread out of start order */
		pt_model_free(m);
		gst_free(&s);
		pt_ptm_tape_free(&tape);
		return pt_ptm_read(src->path, whole, e);
	}
	if (s.ca.kbit && (rc = links_read(src, &s, e))) /* each kernel its last link's call */
		goto fail;
	/* per device index: the launches of the host it is (several hosts) */
	struct pt_steps_lseq *lseq = pt_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*lseq));
	for (size_t h = 0; h < s.nh; h++) {
		struct ghost *g = &s.h[h];
		if (!g->launches)
			continue;
		/* the launches whose call came, in event order, then in launch order (a stable sort) */
		size_t k = 0;
		for (size_t i = 0; i < g->l.n; i++)
			if (g->j.start[g->l.v[i].slot] != INT64_MIN)
				g->l.v[k++] = g->l.v[i];
		g->l.n = k;
		sort_join = &g->j;
		if (g->l.n > 1)
			qsort(g->l.v, g->l.n, sizeof(*g->l.v), cmp_lrec);
		sort_join = NULL;
		lseq[g->dev] = (struct pt_steps_lseq){ g->l.n, g, l_name, l_call_s, l_call_e };
	}
	struct pt_steps_gscan gs = { s.dev, s.gr.v, s.gr.n, boundary ? &lseq[s.h[0].dev] : NULL };
	grh_fill(&s);
	uint32_t *vown = s.voted ? pt_xmalloc((m->devices.n ? m->devices.n : 1) * sizeof(*vown)) : NULL; /* (the vote's) */
	for (uint32_t dv = 0; vown && dv < m->devices.n; dv++)
		vown[dv] = dv < s.ndev && s.hof[dv] != PT_NONE ? s.h[s.hof[dv]].dev : PT_NONE;
	struct pt_steps_ghosts hs = { s.grh.v, lseq, vown };
	int64_t span[2] = { s.ev_s, s.ev_e };
	/* the selection's notes come before the pass's, as after a load */
	rc = s.nh > 1 ? pt_steps_collect_ghosts(m, sel, &gs, &hs, si, NULL, e)
		      : pt_steps_collect_gscan(m, sel, &gs, si, NULL, e);
	free(lseq);
	free(vown);
	if (rc) {
		pt_sel_check_scanned(m, sel, &s.rf, s.has_ev ? span : NULL, NULL, d);
		rc = -1;
		goto fail;
	}
	for (size_t h = 0; h < s.nh; h++)
		pt_vec_free(&s.h[h].l);
	pt_sel_check_scanned(m, sel, &s.rf, s.has_ev ? span : NULL, si, d);
	for (size_t i = 0; i < si->n; i++) {
		struct pt_rank_steps *r = &si->r[i];
		pt_steps_reversed_note(r, d);
		pt_steps_overlap_note(r, d);
		if (r->ascend) /* (beside Ascend devices) their coverage: the span of their tasks */
			pt_steps_cover(m, s.dev, r, 1);
		struct ghost *g = r->ascend || r->host == PT_NONE ? NULL : ghost(&s, r->host);
		if (!g)
			continue;
		r->dl = pt_xmalloc((g->dl.n ? g->dl.n : 1) * sizeof(*r->dl));
		if (g->dl.n)
			memcpy(r->dl, g->dl.v, g->dl.n * sizeof(*r->dl));
		r->ndl = g->dl.n;
	}
	for (size_t h = 0; h < s.nh; h++)
		pt_vec_free(&s.h[h].dl);
	pt_vec_free(&s.gr);
	pt_vec_free(&s.grh);
	if (figs) {
		*figs = pt_xcalloc(si->n ? si->n : 1, sizeof(**figs));
		for (size_t i = 0; i < si->n; i++) {
			struct pt_rank_steps *r = &si->r[i];
			size_t ndv = r->ndevs ? r->ndevs : 1;
			(*figs)[i] = pt_xcalloc(ndv, sizeof(***figs));
			for (size_t k = 0; k < ndv; k++)
				pt_gpu_figs_alloc(&(*figs)[i][k], r->n);
		}
		rc = figs_read(src, m, &s, si, *figs, e);
		if (rc) {
			pt_steps_gfigs_free(si, *figs);
			*figs = NULL;
			pt_steps_info_free(si);
			goto fail;
		}
	}
	if (keep) {
		keep->nh = s.nh;
		keep->h = pt_xcalloc(s.nh, sizeof(*keep->h));
		for (size_t h = 0; h < s.nh; h++) {
			struct pt_steps_khost *x = &keep->h[h];
			x->dev = s.h[h].dev;
			x->j = pt_xmalloc(sizeof(*x->j));
			*x->j = s.h[h].j;
			memset(&s.h[h].j, 0, sizeof(s.h[h].j));
			x->has_lc = s.h[h].has_lc;
			x->lc_s = s.h[h].lc_s;
			x->lc_e = s.h[h].lc_e;
		}
		keep->ntrk = s.ntrk;
		keep->lag = pt_xcalloc(s.ntrk ? s.ntrk : 1, sizeof(*keep->lag));
		for (size_t t = 0; t < s.ntrk; t++)
			keep->lag[t] = s.t[t].lag;
		keep->linkbit = s.linkbit;
		s.linkbit = NULL;
		keep->nbit = s.nbit;
	}
	gst_free(&s);
	pt_ptm_tape_free(&tape);
	*mout = m;
	return 0;
fail:
	gst_free(&s);
	pt_ptm_tape_free(&tape);
	pt_model_free(m);
	if (keep)
		pt_steps_gkeep_free(keep);
	return -1;
}

int pt_steps_gstream_read(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **mout,
			  struct pt_steps_info *si, struct pt_gpu_figs ***figs, struct pt_model **whole,
			  struct pt_diag *d, struct pt_err **e)
{
	return gstream(src, sel, mout, si, figs, NULL, false, whole, d, e);
}

int pt_steps_gstream_mixed(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **mout,
			   struct pt_steps_info *si, struct pt_gpu_figs ***figs, struct pt_model **whole,
			   struct pt_diag *d, struct pt_err **e)
{
	return gstream(src, sel, mout, si, figs, NULL, true, whole, d, e);
}

int pt_steps_gstream_keep(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
			  struct pt_steps_info *si, struct pt_steps_gkeep *keep, struct pt_model **whole,
			  struct pt_diag *d, struct pt_err **e)
{
	return gstream(src, sel, m, si, NULL, keep, false, whole, d, e);
}

int pt_steps_gstream_keep_mixed(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
				struct pt_steps_info *si, struct pt_steps_gkeep *keep, struct pt_model **whole,
				struct pt_diag *d, struct pt_err **e)
{
	return gstream(src, sel, m, si, NULL, keep, true, whole, d, e);
}
