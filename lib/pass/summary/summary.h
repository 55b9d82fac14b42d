/*
 * The summary pass's own header (lib/pass/summary/): the context of one run,
 * its ranks (summary.md §2.1: steps, windows, W, membership; GPU ranks: the
 * host model of §2.2–§2.5), the items the item views sum into, and the sums
 * that Ascend and streamed GPU ranks collect in one pass over the events.
 * The views themselves are descriptors (view.h), one file each.
 */
#ifndef PT_PASS_SUMMARY_INT_H
#define PT_PASS_SUMMARY_INT_H
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include "model/index.h"
#include "model/model.h"
#include "pass/launch-join.h"
#include "pass/pass-summary.h"
#include "support/hashmap.h"
#include "support/interval.h"
#include "support/lag.h"
#include "support/lagprof.h"
#include "support/strtab.h"
#include "support/vec.h"
#include "table/table.h"

/* Host range types of §1.1, in type order (Runtime is not a host range). */
enum htype {
	HT_STEP,
	HT_DATALOADER,
	HT_FORWARD,
	HT_BACKWARD,
	HT_OPTIM,
	HT_OPERATOR,
	HT_INNER,
	HT_USERDEF,
	HT_USERRANGE,
	HT_PYTHONOP,
	HT_COMM,
	HT_NTYPES,
};
extern const char *const sum_htype_names[HT_NTYPES];

/* A host range of a GPU rank (§2.2). */
struct hr {
	uint32_t ev;       /* event index */
	uint32_t parent;   /* hr index + 1, 0 = root */
	uint32_t depth;
	uint32_t track;
	uint32_t name;     /* output name id */
	uint8_t type;      /* enum htype */
	/* one bit each: a range takes 72 bytes, not 80 (a 1 GiB Kineto trace has a million) */
	bool comm : 1;      /* communication host range (§2.5) */
	bool comm_anc : 1;  /* comm, or a descendant of one */
	bool phase_anc : 1; /* a phase range, or inside one */
	bool step_anc : 1;  /* a step range, or inside one */
	bool outer : 1;     /* a phase range with no phase ancestor */
	bool memname : 1;   /* UserDefined/UserRange memory manipulation (§3.7a) */
	bool mem_anc : 1;   /* memname, or inside such a range */
	bool has_bytes : 1;
	int64_t s, e, ne;  /* start, end, nesting end */
	int64_t gpu;       /* inclusive device time (§2.6) */
	int64_t gpu_mem;   /* inclusive Memcpy/Memset time */
	int64_t bytes;     /* inclusive Memcpy/Memset bytes */
};

/* A step window: 32 bytes a step (167,383 steps in a 1 GiB Kineto trace); an Ascend step's points and
 * sums are apart, in the rank's wx[x], so that a GPU rank's steps do not carry them. */
struct win {
	int64_t s, e;       /* disjoint window */
	int64_t num;
	uint32_t x;         /* Ascend: the step's row in wx */
	bool kept, first;
};

struct winx {
	int64_t fp, bp, end, sp; /* Ascend step points */
	uint32_t has;
	int64_t gpu[4];     /* Ascend: member task time attributed to dataloader, forward, optimization, step */
};

/* Times of the text cells of one view's tables when the unit is picked per table (format.c). */
struct sum_pend {
	double *v; /* ns */
	size_t n, cap;
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_summary_opts *o;
	enum pt_time_unit unit;   /* PT_TU_DEFAULT: picked per text table (pend, sum_text_finish) */
	struct sum_pend *pend;
	struct pt_strtab names;   /* output names */
	uint32_t *raw2out;        /* raw string id -> output id + 1 */
	uint32_t *raw2api;        /* raw string id -> API output id + 1 */
	regex_t step_re;
	bool step_re_own;
	struct pt_sel_res sel;    /* o->sel made absolute by the model's origin (sel.origin, select.h) */
	/*
	 * GPU ranks (NULL on Ascend-only models), per event: for a device
	 * activity the launching API event + 1; for an API call the attached
	 * host range (hr index of its rank) + 1; for a range its hr index + 1.
	 */
	uint32_t *link;
	uint8_t *cls;             /* GPU kernels: 1 computation, 2 communication (§2.5) */
	uint8_t *kname;           /* raw kernel name id -> 0 not matched yet, 1 computation, 2 communication */
	uint64_t violations;      /* nesting_violations (§2.2) */
	uint8_t *opcomm;          /* streaming: pt_index_op_comm() */
	struct scan *scan;        /* streaming (pt_summary_stream_*): what is known before the events; NULL in memory */
	/* streaming with the launch reads (stream-launch.c): per event of the batch, its launching
	 * call; NULL otherwise (in memory: link) */
	const struct sum_launch *lk;
	uint64_t base;            /* streaming: the model's index of the batch's first event (0 in memory) */
	/* a streamed GPU rank with host ranges (stream-host.c): per event of the batch, for an activity
	 * the HS_* bits of its launching call's range; NULL otherwise */
	const uint8_t *hat;
};

/* A device activity's launching call, as a streamed GPU rank's launch reads find it: its start
 * and end, and its event index + 1 in the model (0: no launching call). */
struct sum_launch {
	int64_t s, e;
	uint64_t key;
};

/*
 * What a streaming summary knows of the events before it sums them (every
 * array per device or per track index): from the file's TrackEvents, or else
 * from a first read of the events. It stands in for what a whole model would
 * give: the earliest event, each device's span, which streams run
 * framework-named tasks, and how early a track's later events can start (the
 * overview's release watermark).
 */
#define SCAN_LAG_UNKNOWN UINT64_MAX
struct scan {
	int64_t earliest;
	int64_t *lo, *hi;   /* per device: first start and last end of its span events (rank_prepare) */
	uint64_t *left;     /* per track: events (a first read: counted; while summing: still to come) */
	int64_t *min, *last;/* per track: earliest start; latest start of the events seen */
	uint64_t *lag;      /* per track: how far a start can fall behind the latest before it
			       (0: in start order; SCAN_LAG_UNKNOWN: not known) */
	uint8_t *seen, *named;
	const struct pt_lagprof *prof; /* per track, a first read's lag block by block (NULL: lag alone) */
	uint8_t *api;       /* per track: it holds API calls (a claim, or the first read's) */
	struct sum_hs *hs;  /* a GPU rank whose host ranges are streamed (stream-host.c), else NULL */
};

struct rank {
	struct ctx *g;
	bool ascend;
	uint32_t dev;             /* Ascend device index */
	uint32_t pid;             /* GPU: the process */
	int64_t rank;
	bool *devin;              /* GPU: device index -> in this rank */
	uint32_t *tracks;         /* stream tracks of the rank's devices */
	size_t ntracks;
	uint32_t *atracks;        /* every track of the rank's devices (a streamed GPU rank's API watermark) */
	size_t natracks;
	struct win *w;
	size_t nw;
	struct winx *wx;          /* Ascend: the steps' points and sums (win x) */
	bool has_steps;           /* the rank has steps at all */
	/* coverage: the device data's span [cov_a, cov_b) (GPU ranks in memory: [cov_a, cov_b], each
	 * activity at the start of its launching call, or at its own times without one) meets
	 * cov_covered of the cov_kept selected steps (numbers cov_lo..cov_hi, cov_runs: one after
	 * another); when that is not all of them the others are left out of the kept steps */
	bool has_launch_span;     /* GPU rank in memory: launch_a..launch_b holds its activities */
	int64_t launch_a, launch_b;
	bool cov_partial, cov_runs;
	size_t cov_kept, cov_covered;
	int64_t cov_a, cov_b, cov_lo, cov_hi;
	bool filtered;
	struct pt_ivset W;
	int64_t Wlen;
	int64_t ta, tb;           /* --time-window T, absolute (INT64_MIN / INT64_MAX when open) */
	bool span;
	int64_t G;                /* Σ dur of member device activities (§2.6) */
	/* GPU host model */
	struct hr *hr;
	size_t nhr;
	uint32_t *by_depth;       /* hr indexes by depth ascending */
	uint32_t *kid_off, *kid;  /* children of each hr (CSR, §2.2 order) */
	uint32_t *act_off, *act;  /* activities launched by calls attached directly to each hr */
	bool local_cm;            /* the kernel classes differ from the index's: local C/M sets */
	struct pt_ivset *lc, *lm; /* per device index */
	struct asc *asc;          /* Ascend ranks: the per-event sums (see struct asc) */
	struct hsres *hs;         /* a streamed GPU rank with host ranges: what the host read summed */
};

/* Growable interval list that becomes an ivset (host ranges: few per rank). */
struct ivl {
	struct pt_ival *v;
	size_t n, cap;
	int64_t calls;
};

/*
 * Streaming union (§2.7) of intervals that arrive sorted by start: the
 * current run [cs, ce) extends while the next start is <= ce; a closed run
 * adds |run ∩ W|. O(1) memory, no per-event array.
 */
struct urun {
	int64_t cs, ce, total, calls;
	bool open;
};

/*
 * Runs in start order merged by start (a min-heap of their next items): the
 * threads' runs of a GPU rank's host ranges (r->hr holds each thread's
 * together, in start order: ranks.c), or the index's tracks (each in start
 * order), so that a union of them needs no copy of their intervals.
 */
struct srun {
	int64_t key;          /* the start of the run's next item */
	size_t cur, end;
	const uint32_t *list; /* a track's events (the items are list[cur]); NULL: host ranges */
};

struct sruns {
	struct srun *v;
	size_t n;
};

struct item {
	uint32_t name;  /* output name id */
	int64_t calls;
	bool has_cpu, has_gpu;
	int64_t cpu_total, cpu_max, cpu_min;
	int64_t gpu_total, gpu_max, gpu_min;
	int64_t first;
	int64_t a, b, c, d; /* view-specific extras */
	PT_VEC(struct item) sub;
	/* kernel and api views: the durations, for the exact median (items.c) */
	struct sum_durs *durs;
};

/* Durations of an item (the kernel and api views' medians), or the launch delays and call durations
 * of a gpu view item (its percentiles): the latest ones as they come (at most SUM_DURS_BUF), merged
 * now and then into sorted (value, count) runs, so that memory grows with the distinct values of a
 * name, not with its calls. */
#define SUM_DURS_BUF 512
struct sum_durs {
	PT_VEC(int64_t) buf;
	PT_VEC(int64_t) runs; /* duration, count, ... ascending by duration */
};

struct items {
	PT_VEC(struct item) v;
	struct pt_hashmap map; /* key -> index */
};

/* sort (§4.2) */
enum vkind { VK_TWO, VK_DEV, VK_API };

/* GPU part of the overview: Kernel, Memcpy, Memset, Communication, Unattributed, streamed. */
struct ovacc {
	struct rank *r;
	struct urun u[5];
	int64_t kernels; /* every kernel, member or not (the device view's count) */
	size_t wk; /* window cursor: starts arrive in ascending order */
};

enum { OV_CLASS = 3, OV_COMM = 4, OV_MEM = 8, OV_ATTR = 16 /* a streamed rank with host ranges: attributed */ };

/* A device activity of a streamed rank waiting for its turn in start order. */
struct ov_ent {
	int64_t s, e;
	unsigned f; /* sum_ov_flags(), or the class of the distributed view's sets */
};

/*
 * Activities waiting for their turn (pendq_add, pendq_pop): a queue sorted
 * by start, from v[ph] on, where most arrive, plus a min-heap for those that
 * arrive too late for the queue's tail.
 */
struct pendq {
	PT_VEC(struct ov_ent) q;
	size_t ph;
	PT_VEC(struct ov_ent) heap;
};

/* The distributed view's sets of a streamed rank (ascend.md §3.8): computation C, communication M, C ∪ M. */
struct dacc {
	struct urun c, m, cm;
	bool any_c, any_m;
	struct pendq pq;
};

/* One GPU of a streamed GPU rank: its kernels pending in start order (ov_ent.f: the class, 1
 * computation, 2 communication), their union (the device view) and the distributed view's sets. */
enum { GD_SPAN = 6 /* gdev.pq: a step communication interval (distributed view only) */ };
struct gdev {
	uint32_t *tracks; /* its stream tracks */
	size_t ntracks;
	struct pendq pq;  /* its kernels, and its step communication intervals (GD_SPAN) */
	struct urun u;
	int64_t kernels;  /* every kernel, zero-length ones too */
	struct dacc dist;
};

/*
 * Ranks with per-event sums (Ascend ranks; GPU ranks when streamed): what the
 * views need from the events, summed by their add() (view.h) and the shared
 * unions (sum_shared_add) batch by batch, over the whole model or as a
 * stream delivers it. The sums do not depend on the order of the events; only
 * the unions do, so a streamed rank keeps its device activities pending
 * (pendq_add) until no later one can start earlier (sum_asc_release); a
 * streamed GPU rank's API calls wait the same way for the overview's
 * CudaRuntime union.
 */
struct asc {
	int64_t G;                  /* Σ dur of member device activities (model view) */
	size_t hint;                /* window of the previous event */
	struct items op, kn, ty;    /* operator, kernel and op-type items */
	int64_t op_den, kn_den, ty_den;
	struct pt_hashmap ty_seen;  /* (type, op name) pairs: the op type view's distinct ops */
	struct gacc *gpu;           /* the gpu view's sums */
	struct mcacc *mc;           /* the memcpy view's sums (streamed GPU ranks) */
	uint32_t *op_raw, *kn_raw;  /* raw name id -> item + 1 */
	uint8_t *trk;               /* per track: a stream track of the rank */
	struct ovacc ov;            /* streaming: the overview's unions (in memory: the index's merge) */
	struct pendq pq;            /* streaming: the overview's pending activities */
	struct dacc dist;           /* streaming: the distributed view's sets */
	/* streamed GPU ranks: */
	struct gdev *gd;            /* per device index (GPU devices of the rank): device and distributed views */
	struct items api;           /* the api view's items */
	int64_t api_den;
	struct pendq apq;           /* the overview's CudaRuntime union: API calls pending in start order */
	struct urun api_u;
	int64_t api_calls;
	struct dumps *dm;           /* a rank of several dumps that record its pid (stream-dumps.c), else NULL */
};

/* A runtime call that copies or fills (the memcpy view's host calls): its event_key(), output name,
 * duration and start. */
struct mcall {
	uint64_t key;
	uint32_t name;
	int64_t dur, start;
};

/* The memcpy view's sums: the device items, per launching call (event_key) the time + 0 and bytes + 1
 * of the copies it launched, and the calls that may be host items, in model order. In memory the
 * calls come first and those sums are kept per call in sums (time, bytes + 1; 0: none), found by
 * key, not in the maps for every launching call. */
struct mcacc {
	struct items dev;
	struct pt_hashmap api_gpu, api_bytes;
	PT_VEC(struct mcall) calls;
	int64_t (*sums)[2];
	uint8_t *copier; /* per raw name id: 0 not seen, 1 a call that neither copies nor fills, 2 one that does */
	size_t nraw;
};

struct lstat {
	int64_t n, ld_sum, ld_max, q_sum, api_sum, api_max, dout, aout, shrt;
	int64_t p50, p90, api_p50, api_p90;
};

/* The gpu view's sums: items by (type, name), launch statistics and, per item, the samples of their
 * percentiles as runs (struct sum_durs) in smp[item * 2 + kind] (kind 0 launch delays, 1 call
 * durations). */
struct gacc {
	struct items it;
	PT_VEC(struct lstat) ls;
	PT_VEC(struct sum_durs) smp;
	int64_t den;
	/* the item of an activity, found again without making its name: unnamed tasks by
	 * track << 32 | task id, named kernels and tasks by raw name id (-> item index + 1) */
	struct pt_hashmap tasks;
	uint32_t *raw2item;
	size_t nraw;
};

struct grp {
	uint32_t track;
	int64_t first;
	int64_t tid;
	int64_t cpu_den, gpu_den;
	struct urun cpu; /* the union of its member operators, for the CPU denominator (W aside) */
};

struct groups {
	PT_VEC(struct grp) v;
	uint32_t *of_track; /* track -> group + 1 */
	uint32_t *order;    /* groups in print order */
};

/*
 * What the distributed sets get before the events: the communication spans
 * that are not events, and the events of the rank's other tracks (AI CPU
 * ops, which the importer appends after every task), which a first read
 * kept (struct deferred).
 */
struct deferred {
	int64_t s, e;
	uint32_t track, op;
	uint8_t kind;
};

typedef PT_VEC(struct rank) rank_vec;

/* One summary: its context, ranks and effective options (in memory or streamed). */
struct run {
	struct ctx g;
	rank_vec ranks;
	struct pt_summary_opts eff;
	const struct pt_summary_opts *o;
	uint32_t *dev_rank; /* device index -> rank + 1 of the ranks with per-event sums (r->asc) */
	/* the per-event sums: the selected views that have them, the unions they need, and per rank
	 * its batch of events being gathered (struct sum_batch) */
	const struct sum_view *acc[PT_SV_COUNT];
	size_t nacc;
	unsigned need;
	uint32_t *buf;    /* per rank, SB__N lists of SUM_BATCH */
	size_t *nbuf;     /* per rank, SB__N counts */
	size_t *seen;     /* per rank, events since its last batch */
	struct pt_sel_found found; /* the host ranges --step-pattern saw (sum_run_events), for out->found */
	bool unsure;      /* a streamed GPU rank's membership without the launch reads may differ (sum_run_events) */
};

/* ---- small helpers, inline (the per-event paths call them) ---- */

static inline bool is_phase(int t)
{
	return t >= HT_DATALOADER && t <= HT_OPTIM;
}

static inline uint32_t out_intern(struct ctx *g, const char *s, size_t n)
{
	return pt_strtab_intern(&g->names, s, n);
}

static inline const char *out_str(struct ctx *g, uint32_t id)
{
	return pt_strtab_get(&g->names, id);
}

static inline uint32_t track_dev(const struct pt_model *m, size_t i)
{
	return m->tracks.v[m->events.track[i]].device;
}

static inline bool in_rank(const struct rank *r, size_t i)
{
	uint32_t d = track_dev(r->g->m, i);
	return r->ascend ? d == r->dev : r->devin[d];
}

static inline bool is_dev_activity(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET;
}

static inline bool is_kernel(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL;
}

/* Launching API event + 1 of a device activity (GPU ranks), 0 = none. */
static inline uint32_t api_of(const struct rank *r, size_t i)
{
	return r->ascend || !r->g->link ? 0 : r->g->link[i];
}

/* Host range (hr index + 1) a device activity is attributed to (§2.4), 0 = none. */
static inline uint32_t hr_of_act(const struct rank *r, size_t i)
{
	uint32_t a = api_of(r, i);
	return a ? r->g->link[a - 1] : 0;
}

/* The key of event i in the model (its index + 1), also when streamed: a batch's event. */
static inline uint64_t event_key(const struct ctx *g, size_t i)
{
	return g->base + i + 1;
}

/* The launching call of device activity i of a GPU rank (in memory: link; streamed: lk): its
 * start and end in *s, *e, and its event_key(); 0: none. */
static inline uint64_t launch_of(const struct rank *r, size_t i, int64_t *s, int64_t *e)
{
	const struct ctx *g = r->g;
	if (r->ascend)
		return 0;
	if (g->lk) {
		if (!g->lk[i].key)
			return 0;
		*s = g->lk[i].s;
		*e = g->lk[i].e;
		return g->lk[i].key;
	}
	uint32_t a = api_of(r, i);
	if (!a)
		return 0;
	*s = g->m->events.start[a - 1];
	*e = *s + g->m->events.dur[a - 1];
	return a;
}

/* Anchor time of event i (§2.1). */
static inline int64_t anchor(const struct rank *r, size_t i)
{
	const struct pt_events *ev = &r->g->m->events;
	int64_t s, e;
	if (is_dev_activity(ev->kind[i]) && launch_of(r, i, &s, &e))
		return s;
	return ev->start[i];
}

static inline bool member_at(const struct rank *r, int64_t t)
{
	return !r->filtered || pt_ivset_contains(&r->W, t);
}

static inline bool member(const struct rank *r, size_t i)
{
	return !r->filtered || pt_ivset_contains(&r->W, anchor(r, i));
}

static inline void urun_add(const struct rank *r, struct urun *u, int64_t s, int64_t e)
{
	if (e <= s)
		return; /* empty intervals add nothing and bridge nothing (pt_ivset_build drops them) */
	if (u->open && s <= u->ce) {
		if (e > u->ce)
			u->ce = e;
		return;
	}
	if (u->open)
		u->total += pt_ivset_measure_in(&r->W, u->cs, u->ce);
	u->cs = s;
	u->ce = e;
	u->open = true;
}

static inline void item_cpu(struct item *x, int64_t d)
{
	if (!x->has_cpu) {
		x->has_cpu = true;
		x->cpu_max = x->cpu_min = d;
	}
	x->cpu_total += d;
	if (d > x->cpu_max)
		x->cpu_max = d;
	if (d < x->cpu_min)
		x->cpu_min = d;
}

static inline void item_gpu(struct item *x, int64_t d)
{
	if (!x->has_gpu) {
		x->has_gpu = true;
		x->gpu_max = x->gpu_min = d;
	}
	x->gpu_total += d;
	if (d > x->gpu_max)
		x->gpu_max = d;
	if (d < x->gpu_min)
		x->gpu_min = d;
}

static inline double pct(int64_t num, int64_t den)
{
	return den ? (double)num / (double)den * 100.0 : 0.0;
}

static inline int64_t ravg(int64_t total, int64_t calls)
{
	if (!calls)
		return 0;
	/* (2·total + calls) / (2·calls), half away from zero */
	__int128 n = 2 * (__int128)total + (total >= 0 ? calls : -calls);
	return (int64_t)(n / (2 * (__int128)calls));
}

static inline int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Phase ranges of step w of rank r: 0 Dataloader, 1 Forward, 2 Optimization; false if absent (always
 * on a GPU rank: no step points). */
static inline bool sum_phase(const struct rank *r, const struct win *w, int p, int64_t *s, int64_t *e)
{
	if (!r->wx)
		return false;
	const struct winx *x = &r->wx[w->x];
	bool fp = x->has & PT_STEP_HAS_FP && x->fp, bp = x->has & PT_STEP_HAS_BP && x->bp;
	switch (p) {
	case 0:
		if (w->first || !fp || x->fp <= x->sp)
			return false;
		*s = x->sp, *e = x->fp;
		return true;
	case 1:
		if (!fp)
			return false;
		*s = x->fp, *e = bp ? x->bp : x->end;
		return *e >= *s;
	default:
		if (!bp || !fp)
			return false;
		*s = x->bp, *e = x->end;
		return *e >= *s;
	}
}

/* The phase (0..2) of step k containing t, or 3 for none. */
static inline int sum_phase_of(const struct rank *r, const struct win *w, int64_t t)
{
	for (int p = 0; p < 3; p++) {
		int64_t s, e;
		if (sum_phase(r, w, p, &s, &e) && s <= t && t < e)
			return p;
	}
	return 3;
}

void sum_heap_push(struct pendq *p, struct ov_ent x);
void sum_pendq_insert(struct pendq *p, struct ov_ent x);
static inline void pendq_add(struct pendq *p, struct ov_ent x)
{
	size_t n = p->q.n;
	if (n < p->q.cap && (n == p->ph || p->q.v[n - 1].s <= x.s)) /* the common case: an append */
		p->q.v[p->q.n++] = x;
	else
		sum_pendq_insert(p, x);
}

/* qsort with an explicit context (glibc's qsort_r: the same algorithm as pt_sort's qsort). */
static inline void sum_sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(v, n, size, cmp, arg);
}

/* ---- context.c: names, ranges, intervals, step phases ---- */
uint32_t sum_out_name(struct ctx *g, uint32_t raw, bool api);
int sum_out_cmp_raw(const struct ctx *g, uint32_t a, uint32_t b);
ssize_t sum_win_of(const struct rank *r, int64_t t);
int64_t sum_measure_W(const struct rank *r, const struct pt_ivset *s);
void sum_ivl_add(struct ivl *l, int64_t s, int64_t e);
int64_t sum_ivl_measure(const struct rank *r, struct ivl *l);
int64_t sum_urun_end(const struct rank *r, struct urun *u);
/* The host ranges of GPU rank r in memory, one run per thread; the next of them by start
 * (UINT32_MAX: none left). */
void sum_sruns_ranges(struct sruns *x, const struct rank *r);
uint32_t sum_sruns_next_range(struct sruns *x, const struct hr *H);
/* The events of kind k on the tracks of rank r in memory (the index's tracks); the next of
 * them by start (UINT32_MAX: none left). */
void sum_sruns_events(struct sruns *x, struct rank *r, uint8_t k);
uint32_t sum_sruns_next_event(struct sruns *x, const struct pt_events *ev, uint8_t k);
bool sum_comm_op_name(const struct ctx *g, const char *s);
bool sum_comm_kernel_name(const struct ctx *g, const char *s);
bool sum_mem_name(const char *s);
const struct pt_range_info *sum_range_info(const struct pt_model *m, uint32_t i);
const struct pt_copy_info *sum_copy_info(const struct ctx *g, size_t i);
uint32_t sum_copy_name(struct ctx *g, size_t i);
uint32_t sum_task_name(struct ctx *g, size_t i);
uint64_t sum_task_key(const struct pt_model *m, size_t i);
uint32_t sum_act_name(struct ctx *g, size_t i);
void sum_rank_devices(const struct rank *r, uint32_t **out, size_t *n);
void sum_dev_label(const struct pt_model *m, uint32_t d, char *b);

/* ---- ranks.c: preparation of §2.1 and the GPU host model of §2.2–§2.5 ---- */
bool sum_kname_comm(struct ctx *g, uint32_t raw);
const struct pt_ivset *sum_rank_comp(struct rank *r, uint32_t d);
const struct pt_ivset *sum_rank_comm(struct rank *r, uint32_t d);
void sum_rank_breakdown(struct rank *r, uint32_t d, struct pt_breakdown *b);
int sum_rank_prepare(struct rank *r, struct pt_err **e);
void sum_rank_free(struct rank *r);

/* ---- items.c: items, their order (§4.2), the rows a view prints, thread groups ---- */
void sum_items_init(struct items *it);
void sum_item_free(struct item *x);
/* Count value d in s (buffered; merged into the runs when the buffer is full). */
void sum_durs_add(struct sum_durs *s, int64_t d);
/* The count of s's values (the buffer merged first). */
uint64_t sum_durs_count(struct sum_durs *s);
/* The values of 0-based ranks lo <= hi < sum_durs_count(s) in ascending order, in one walk of the
   runs: the median's two middle values, the gpu view's nearest-rank P50 and P90. */
void sum_durs_ranks(struct sum_durs *s, uint64_t lo, uint64_t hi, int64_t *a, int64_t *b);
void sum_durs_free(struct sum_durs *s);
/* Count duration d in x's duration histogram (the median's input). */
void sum_item_dur(struct item *x, int64_t d);
/* The median of x's durations: of an even count, the mean of the two middle
   ones rounded half away from zero as ravg() does; 0 with none. */
int64_t sum_item_median(const struct item *x);
void sum_items_free(struct items *it);
struct item *sum_items_get(struct items *it, uint64_t key, uint32_t name);
void sum_items_sort(struct ctx *g, struct item *v, size_t n, enum vkind kind);
/* Sub items in order of first start, then name. */
void sum_items_sort_first(struct ctx *g, struct item *v, size_t n);
bool sum_name_ok(struct ctx *g, uint32_t name);
/* The rows an item view prints from sorted items: those --name matches, up to --top. */
struct sum_pick {
	struct ctx *g;
	struct item *v;
	size_t n, k;
	int64_t shown;
};
struct sum_pick sum_pick(struct ctx *g, struct item *v, size_t n);
struct item *sum_pick_next(struct sum_pick *p);
struct item *sum_sub_get(struct item *x, uint32_t name, int64_t b);
void sum_act_rows(struct ctx *g, const struct rank *r, struct item *x, uint32_t h, int64_t kind);
int sum_name_width(struct ctx *g, const struct item *v, size_t n);
void sum_groups_init(struct groups *gs, const struct rank *r);
uint32_t sum_group_of(struct groups *gs, const struct rank *r, uint32_t track);
void sum_groups_order(struct groups *gs);
void sum_groups_free(struct groups *gs);
void sum_group_label(const struct rank *r, const struct grp *gr, char *title, char *key);
struct item *sum_group_items(struct ctx *g, struct items *it, uint32_t gi, size_t *n, enum vkind kind);

/* ---- format.c: text cells and data blocks ---- */
void sum_ftime(const struct ctx *g, char *b, int64_t ns);
void sum_favg(const struct ctx *g, char *b, int64_t total, int64_t calls);
void sum_fpct(char *b, int64_t num, int64_t den);
void sum_fnum(char *b, int64_t v);
void sum_fblock(const struct ctx *g, char *b, bool has, int64_t calls, int64_t total, int64_t max, int64_t min,
		int64_t den);
void sum_dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		int64_t min, int64_t den);
void sum_add_block_cols(struct pt_table *t, const char *p);
size_t sum_row0(struct pt_table *t, const struct rank *r);
void sum_setstr(struct pt_table *t, size_t row, size_t c, const char *s);
struct pt_table *sum_stext(const struct rank *r, const char *view, const char *part, bool unit, bool multi);
const char *sum_block_head(const struct rank *r, bool cpu, char *b);
/* The name of the text unit, as sum_ftime() and the notes write it. */
const char *sum_unit_name(const struct ctx *g);
/* With the unit picked per table: put the times of text table x (NULL: none) in
 * its unit (pt_time_unit_pick over them), then forget them. */
void sum_text_finish(struct ctx *g, struct pt_table *x);

/* ---- sums.c: the per-event sums of Ascend and streamed GPU ranks ---- */
unsigned sum_ov_flags(const struct rank *r, size_t i);
void sum_ov_add(struct ovacc *a, int64_t s, int64_t e, unsigned f, int unattr);
/* The counts of sum_ov_add(); returns the unions (ovacc u) the activity joins, a bit each. */
unsigned sum_ov_count(struct ovacc *a, unsigned f, bool unattr);
void sum_ov_visit(void *arg, size_t i);
const struct dacc *sum_rank_dacc(const struct rank *r, uint32_t d);
struct asc *sum_asc_new(struct rank *r);
void sum_asc_free(struct asc *a, size_t ndev);
void sum_pendq_free(struct pendq *p);
/* The earliest pending entry if it starts at or before wm: true and *x. */
bool sum_pendq_pop(struct pendq *p, int64_t wm, struct ov_ent *x);
void sum_dist_add(const struct rank *r, struct dacc *d, const struct ov_ent *x);
unsigned sum_dist_class(const struct rank *r, uint8_t kind, uint32_t op, uint32_t track);
void sum_dist_begin(struct rank *r, const struct deferred *dv, size_t nd);
/* The earliest start that tracks tr[0..n) can still deliver (INT64_MAX: none, or all). */
int64_t sum_watermark(const struct scan *sc, const uint32_t *tr, size_t n, bool all);
void sum_asc_release(struct rank *r, bool all);
/*
 * Events of one rank in model order, for the per-event sums of the views
 * (view.h), by class: device activities (dev) and the members among them
 * (mem, summary.md §2.1), API calls (api) and their members (mapi), and,
 * when a selected view asks for them (SV_ALL), every event of the rank (all).
 */
enum { SB_ALL, SB_DEV, SB_MEM, SB_API, SB_MAPI, SB__N };
struct sum_batch {
	const uint32_t *v[SB__N];
	size_t n[SB__N];
};
/* The unions several views read (view.h: need, the SV_UNION* and SV_KERNELS flags of the selected views). */
void sum_shared_add(struct rank *r, const struct sum_batch *b, unsigned need);
/* view-gpu.c: the gpu view's sums (struct asc holds them) */
void sum_gacc_free(struct gacc *ga);
/* view-memcpy.c: the memcpy view's sums */
void sum_mcacc_init(struct mcacc *a);
void sum_mcacc_free(struct mcacc *a);
/* Does the runtime call of raw name id raw copy or fill (its name says memcpy or memset)? */
bool sum_mc_copier(struct ctx *g, struct mcacc *a, uint32_t raw);

/* ---- stream-dumps.c: the overview's unions of a streamed GPU rank of several dumps of one pid ---- */
/* The unions of a dump (struct dump o): the overview's five device classes (struct ovacc u), its API calls. */
enum { DU_API = 5, DU_N = 6 };
/* One union's runs of a dump in one stretch of time, closed and waiting for the other dumps' (zigzag
 * varints: a run's start from the end of the run before, then its length). */
struct drun {
	uint8_t *b;
	size_t n, cap, off;   /* bytes written, room, the offset of the next run to read */
	int64_t wend, rend;   /* the end of the last run written, of the last run read */
	size_t runs;          /* written and not yet read */
};
/* A dump: the devices imported with one CPU device (the devices after it up to the next CPU device). */
struct dump {
	uint32_t *tr, *atr;   /* its stream tracks (the rank's tracks), its tracks that hold API calls */
	size_t ntr, natr;
	struct pendq pq, apq; /* its device activities and API calls pending in start order */
	struct urun o[DU_N];  /* each union's open run (o.total unused) */
	uint32_t g[DU_N];     /* the stretch of each union's last run written */
	struct drun *u;       /* per stretch (struct dumps cut) and union: u[g * DU_N + c] */
	int64_t lo, hi;       /* its span of time (the first read's, over the events the queues take) */
};
struct dumps {
	uint32_t n;
	uint32_t *of_trk;     /* per track: its dump */
	struct dump *v;
	/* the stretches of time between the dumps' first and last times (cut[g] .. cut[g + 1], the first
	 * and the last unbounded): a run is cut where it crosses one, and each stretch merges the runs of
	 * the dumps whose spans meet it alone, into its own unions (T), summed at the end */
	int64_t *cut;
	uint32_t nseg;
	struct urun (*T)[DU_N];
};
/* The dumps of streamed GPU rank r when it has several, else NULL. */
struct dumps *sum_dumps_new(const struct rank *r);
void sum_dumps_free(struct dumps *x);
/* The queue of device activities (api: API calls) of track t. */
struct pendq *sum_dumps_q(struct dumps *x, uint32_t t, bool api);
/* sum_asc_release() of the overview's unions: each dump's by its own tracks, merged by start. */
void sum_dumps_release(struct rank *r, bool all);

/* ---- stream-launch.c: the launching calls of a streamed GPU rank's activities ---- */
#define SUM_LJ_BLOCK 4096
struct sum_lj {
	uint8_t *keep;         /* per device: of a GPU rank (every device but a GPU --device leaves out) */
	uint32_t *rank;        /* per device: its GPU rank, by pid (the join by id is keyed by id and rank) */
	size_t ndev;
	uint32_t nrank;        /* the GPU ranks (1 at least) */
	bool idfail;           /* an id and rank beyond 64 bits, or a rank after the first id: by id, read whole */
	uint64_t nev;          /* the events of the first read */
	bool links;            /* by the file's launch links, else by correlation id */
	struct pt_ljoin j;     /* by id: the activities' ids; per slot the last call's start and end */
	uint64_t *key;         /* by id: per slot, the last call's event index + 1 */
	struct sum_link { uint32_t event, api; } *link; /* by link: the links, by activity */
	size_t nlink;
	int64_t **call;        /* by link: per block of SUM_LJ_BLOCK links, each one's call's start
				  (INT64_MIN: none of the rank), then (not starts) each one's duration,
				  32 bits (UINT32_MAX: in longc); a block is allocated at its first call
				  (NULL before: no call) */
	struct pt_hashmap longc; /* by link: link -> its call's end, for a duration beyond 32 bits */
	size_t nblk, freed;    /* the blocks; those the summing read has passed and freed */
	uint32_t **perm;       /* by link, the read of the calls: the links by call, in blocks of
				  SUM_LJ_BLOCK */
	size_t pfreed;         /* the blocks of perm the read of the calls has passed and freed */
	uint64_t base;         /* the summing read: the index of the batch's first event */
	size_t cur;            /* the summing read: the cursor into the links by activity */
	uint64_t cbase;        /* the calls: the index of the batch's first event */
	size_t ccur;           /* the calls: the cursor into the links by call */
	uint64_t *bend;        /* the first read: per event batch, the index of the event after it */
	size_t nb, cb;         /* its batches, their room */
	size_t nbatch;         /* the batches the read of calls and sums has taken */
	bool starts;           /* by link: the calls' starts alone (set before the seal: no view reads their
				  ends; sum_launch e is then the start) */
	bool ahead;            /* by link: every activity's call comes no later than the batch after the
				  activity's (sum_lj_seal): the summing read takes the calls a batch ahead */
	bool keep_perm;        /* by link: the read of the calls keeps the links by call (the calls are read
				  again: sum_lj_recall) */
	struct sum_launch *lk; /* the batch's launches (sum_lj_batch) */
	size_t lkcap;
};
void sum_lj_init(struct sum_lj *lj);
/* The start of link k's call (INT64_MIN: none, or its block not allocated). */
static inline int64_t sum_lj_call_start(const struct sum_lj *lj, size_t k)
{
	const int64_t *b = lj->call[k / SUM_LJ_BLOCK];
	return b ? b[k % SUM_LJ_BLOCK] : INT64_MIN;
}
void sum_lj_free(struct sum_lj *lj);
/* By link, a read of the calls a batch ahead of what reads them: the calls of the links whose
 * activities come before event g are not read again (their blocks freed). */
void sum_lj_pass(struct sum_lj *lj, uint64_t g);
/* By link, after such a read (keep_perm): every call's block freed, the calls to be read again by
 * the summing read, a batch ahead of its sums (pt_summary_stream_both). */
void sum_lj_recall(struct sum_lj *lj);
/* The launch reads take the GPU ranks of any model (one process or several, a rank each; NPU devices,
 * Ascend ranks, beside them take no part). */
/* One process (one GPU rank) and no NPU device. */
bool sum_lj_one_rank(const struct pt_model *m);
/* The first read's batch (m->events): the activities' ids; device: --device (-1: all). */
void sum_lj_scan(struct sum_lj *lj, const struct pt_model *m, int64_t device);
/* After the first read: the links (taken from m; an activity linked twice keeps its last) or the ids
 * sorted; -1: ids the join cannot key. */
int sum_lj_seal(struct sum_lj *lj, struct pt_model *m);
/* The same with the links given (v, n: taken over; none: by correlation id), not m's. */
int sum_lj_seal_with(struct sum_lj *lj, struct sum_link *v, size_t n);
/* The key of event i in the join by id: its correlation id and its rank (0: none, or beyond 64 bits). */
static inline uint64_t sum_lj_id(const struct sum_lj *lj, const struct pt_model *m, size_t i)
{
	uint64_t c = m->events.corr[i];
	uint32_t r = lj->rank[m->tracks.v[m->events.track[i]].device];
	return c > (UINT64_MAX - r) / lj->nrank ? 0 : c * lj->nrank + r;
}
/* Before the read of the calls and before the summing read (or the one read of both). */
void sum_lj_begin(struct sum_lj *lj);
/* A batch of the read of the calls: each wanted call's start and end. */
void sum_lj_calls(struct sum_lj *lj, const struct pt_model *m);
void sum_lj_calls_end(struct sum_lj *lj);
/* A batch of the summing read: per event its launch (key 0: none, or not an activity of the rank). */
const struct sum_launch *sum_lj_batch(struct sum_lj *lj, const struct pt_model *m);

/*
 * A sum kept in 32 bits (*x) where it fits: UINT32_MAX says it is key's in big (an int64, the sum of
 * every such value of key), for one that 32 bits do not hold (negative, or 2^32 - 1 and more).
 */
static inline void sum_u32_add(uint32_t *x, struct pt_hashmap *big, uint64_t key, int64_t d)
{
	bool added;
	if (*x != UINT32_MAX) {
		int64_t v = (int64_t)*x + d;
		if (v >= 0 && v < UINT32_MAX) {
			*x = (uint32_t)v;
			return;
		}
		d = v;
		*x = UINT32_MAX;
	}
	uint64_t *w = pt_hashmap_put(big, key, 0, &added);
	*w = (uint64_t)((int64_t)*w + d);
}

static inline int64_t sum_u32_get(uint32_t x, const struct pt_hashmap *big, uint64_t key)
{
	return x != UINT32_MAX ? (int64_t)x : (int64_t)*pt_hashmap_get(big, key);
}

/* ---- stream-host.c: the host model of a streamed GPU rank (summary.md §2.2–§2.4 without the events) ---- */
/* What an activity's launching call carries (struct ctx hat, struct sum_hs att): attached to a range,
 * under a communication range, under a step range but in no phase */
enum { HS_ATT = 1, HS_COMM = 2, HS_SNP = 4 };
/* A step range: its start, end, raw name and rank (the launch join's, sum_lj rank). */
struct hs_step {
	int64_t s, e;
	uint32_t name, rank;
};
/* Per rank (the launch join's): the launch span [la, lb] (coverage) and the span of its data [lo, hi]
 * (no steps), as the whole load finds them. */
struct hs_rspan {
	bool has_span;
	int64_t la, lb;
	int64_t lo, hi;
};
/* A range on a thread's nesting stack. */
struct hs_node {
	int64_t s, e, ne, gpu;
	int64_t mgpu, mbytes; /* the memcpy view: inclusive Memcpy/Memset time and bytes (stream-host-views.c) */
	uint32_t name, track;
	uint32_t ev;      /* its event in the file */
	uint32_t par;     /* its parent's index + 1 in the stack (0: a root): the range under it, or its
			   * explicit parent (stream-host-parent.c) */
	uint32_t depth;   /* its depth in the forest of summary.md §2.2 */
	uint8_t type;     /* enum htype */
	uint16_t fl;      /* HN_* */
};
/* --op-detail (stream-host-detail.c), beside each hs_node of the stack: its operator item + 1, its
 * child row + 1 in its parent's item, its calls' target + 1 (UINT32_MAX: none). */
struct hs_dnode {
	uint32_t oi, ci, tg;
};
/* --op-detail: where the activities of a call go: operator item a (its device rows) and child row c
 * of operator item p (the child's device rows), each + 1 (0: none), of rank q. */
struct hs_tgt {
	uint32_t q, a, p, c;
};
/* A range or call of a thread at the start its buffer holds. */
struct hs_pend {
	int64_t e;
	uint64_t ev, corr; /* corr: a call's unit (struct sum_hs); a range's explicit parent event + 1 (0: none) */
	uint32_t name;     /* output name id; a step range's: its raw string id (struct hs_node too) */
	uint8_t type;
	bool call;
	bool copier;       /* a call that copies or fills (the memcpy view's host calls) */
};
/* A range of a thread whose ranges the file holds out of start order, held from the read of the
 * steps for the host read. */
struct hs_late {
	int64_t s, e;
	uint32_t ev;
	uint32_t par;      /* its explicit parent event + 1 (0: none) */
	uint32_t name;     /* its raw label, else its raw name */
	uint8_t type;
};
/* The held ranges of a thread, packed while they come in (start, event) order (stream-host-late.c). */
struct hs_lpack {
	uint8_t *p;       /* the ranges, varints (n bytes of cap) */
	size_t n, cap, cnt; /* bytes, room, ranges */
	int64_t s;        /* the last range packed: its start and event */
	uint32_t ev;
	size_t off, took; /* the host read: the offset of the next range, the ranges taken */
	int64_t rs;       /* the last range unpacked: its start and event */
	uint32_t rev;
	struct hs_late c; /* the next range, unpacked when cur */
	bool cur;
	bool loose;       /* one came out of order: they are all in hs_trk lr, sorted by sum_hsl_seal */
};
struct hs_trk {
	bool on;         /* a host thread of the rank with ranges */
	bool any;        /* an event of it came */
	bool late;       /* its events are not in start order: its ranges are held (lr) */
	bool win;        /* not in start order, its calls too: its ranges and calls held in one window
			  * (cl.lag: the first read's lag of its events; stream-host-order.c) */
	uint32_t rank;   /* its rank (the launch join's) */
	int64_t t;       /* the start of the events in buf (the latest start seen) */
	struct pt_lag cl; /* late: its other events' starts in the read of the steps (lag: its calls too
			   * are out of start order, held in a window by the host read, stream-host-order.c) */
	struct pendq hq;  /* late with a lag: its calls held, by start (ov_ent f: an index of hp) */
	PT_VEC(struct hs_pend) hp;
	PT_VEC(uint32_t) hfree; /* the free entries of hp */
	int64_t htop;     /* the latest start of its other events in the host read */
	bool hseen;
	uint64_t left;   /* its span events still to come */
	PT_VEC(struct hs_pend) buf;
	PT_VEC(struct hs_node) st;
	PT_VEC(struct hs_late) lr; /* late: its ranges by start, lk the next to come (lp loose) */
	size_t lk;
	struct hs_lpack lp; /* late: its ranges packed (stream-host-late.c) */
	PT_VEC(struct hs_dnode) dst; /* --op-detail: beside st */
};
/* The host read's sums of a rank, for the views (overview, model, operator). */
struct hsres {
	struct urun tl[HT_NTYPES], cl; /* the overview's unions per type and of communication ranges */
	int64_t pairs, pair_s;         /* distinct member communication ranges; the start of pair_e */
	PT_VEC(int64_t) pair_e;        /* the ends seen at start pair_s */
	struct items op;               /* the operator view's items and thread groups */
	struct groups gs;
	struct item st, ph[4];         /* the model view: steps and outer phases */
	struct ivl cover;
	bool any;
	int64_t others_gpu, un_n, un_t; /* the summing read (view-model.c add()) */
	struct pendq q;                /* ranges pending in start order across threads */
	/* the memcpy and userdefined views (stream-host-views.c) */
	struct items mc;               /* the memcpy view's memory-manipulation ranges */
	PT_VEC(uint64_t) mcx;          /* copy calls inside such a range (events, sorted: left out) */
	size_t mcur;                   /* the summing read's cursor into mcx */
	struct items ud;               /* the userdefined view's items and thread groups */
	struct groups ugs;
};
/* A unit's copies (the memcpy view): their time, 32 bits (UINT32_MAX: the unit's in sum_hs mbig), and
 * 1 + their bytes (0: none known); 16 bytes */
struct hs_mcopy {
	uint32_t unit, t;
	int64_t b;
};
struct sum_hs {
	/* the range infos, compact, by event: event, label, type (bit 7: instant) */
	uint8_t *rev;         /* the events: each one's difference from the one before, zigzag varints (a
			         byte a range, mostly, not 4), read in order through the cursor */
	uint32_t *rlab;       /* NULL while every label is 0 (a Kineto trace's) */
	uint8_t *rtb;
	size_t nr, rcur, crev, crtb, clab;
	size_t nrev;          /* rev's bytes */
	uint32_t rlast;       /* the last event put into rev */
	size_t rdec, roff;    /* the cursor: the events read from rev, the offset of the next */
	uint32_t rval;        /* the cursor: the last event read (range rcur's when rdec > rcur) */
	bool parents;      /* a range info names an explicit parent */
	uint8_t *rpar;        /* from the first range with one: per range, its explicit parent, the
			         zigzag varint of its event less the parent's (0: none; stream-host-parent.c) */
	size_t nrpar, crpar, rpoff; /* rpar's bytes and room; the cursor's offset in it */
	uint32_t rpcur;       /* the cursor: range rcur's explicit parent event + 1 (0: none) */
	size_t nstr;       /* the model's strings (the caches' size) */
	uint8_t *tcache;   /* per raw string id: its htype + 1 (0: not looked up) */
	uint8_t *scache;   /* per raw string id: 1 not a step name, 2 a step name (0: not looked up) */
	regex_t re;
	bool re_own;
	/* a unit per launching call: by links, the calls they name (capi, sorted), else the launch
	 * join's slots (an id's last call) */
	uint32_t *capi;
	size_t ncapi, lcur, ucur; /* cursors: into the links by activity, into capi */
	uint32_t *gpu;     /* per unit: the device time of its activities; UINT32_MAX: one that 32 bits do not
			      hold (negative, or 2^32 - 1 ns and more), in gpubig (4 bytes a unit, not 8) */
	struct pt_hashmap gpubig; /* unit -> its device time (int64), for those */
	uint8_t *att;      /* per unit: HS_* of its launching call */
	PT_VEC(struct hs_step) steps; /* of every rank */
	uint32_t nrank;    /* the launch join's ranks: one per process */
	uint32_t *rk;      /* per device: its rank (sum_lj rank) */
	struct hs_rspan *rs; /* per rank */
	struct rank **rr;  /* per rank: the run's GPU rank (sum_hs_begin) */
	bool mc;           /* the memcpy view is asked for */
	bool memr;         /* and a range may be a memory manipulation (its name says so): the copy calls */
	uint8_t *mcache;   /* per raw string id: 1 not such a name, 2 maybe one (0: not looked up) */
	/* the memcpy view: per unit that launched a Memcpy/Memset, their time and bytes + 1 (0: none), by
	 * unit once the read of the calls is over (24 bytes a copying call, not 16 a unit) */
	struct hs_mcopy *mcopy;
	size_t nmcopy, cmcopy;
	bool mcopy_sorted;
	bool mcopy_unordered; /* a unit's entry came after a later unit's: the entries need a sort */
	struct pt_hashmap mbig; /* unit -> the time of its entries whose time 32 bits do not hold (int64) */
	const struct sum_lj *lj; /* the launch join (sum_hs_seal) */
	struct hs_trk *trk;
	size_t ntrk;
	uint64_t base;     /* the read's index of the batch's first event */
	uint8_t *hat;      /* the summing read's batch: per event, ctx hat */
	size_t hatcap;
	const uint8_t *keep; /* per device: of the rank (the launch join's) */
	size_t ndev;
	bool unsure;       /* a nesting the stack does not give as the whole load does: read it whole */
	struct pt_lag *olag; /* the first read: per track, the lag of its events other than ranges */
	size_t nolag;
	bool opd;          /* --op-detail with the operator view: children and device rows */
	uint32_t *tgt;     /* per unit: its call's target + 1 (hs_tgt, 0: none) */
	PT_VEC(struct hs_tgt) tg; /* the distinct targets */
	struct pt_hashmap tgh;    /* target hash -> index + 1 (probed on a clash) */
};
struct run;
/* Can the views and options of o take the host read? */
bool sum_hs_views(const struct pt_summary_opts *o);
/* Before the first read's events (m: its strings); -1: an invalid --step-pattern (the whole load says so). */
int sum_hs_init(struct sum_hs *h, const struct pt_model *m, const struct pt_summary_opts *o);
/* The first read's range infos (m->ranges, a few at a time), kept compact: 5 bytes a range (9 with labels). */
void sum_hs_ranges(struct sum_hs *h, const struct pt_model *m);
/* After the first read (lag: per track, its span events); 0. */
int sum_hs_open(struct sum_hs *h, const struct pt_model *m, const struct pt_lag *lag, const struct sum_lj *lj);
/* Before each read: its cursors at the first event. */
void sum_hs_rewind(struct sum_hs *h);
/* After the launch join's seal: a unit per launching call. */
void sum_hs_seal(struct sum_hs *h, const struct sum_lj *lj);
/* The read of the calls: each unit's device time. */
void sum_hs_acts(struct sum_hs *h, const struct sum_lj *lj, const struct pt_model *m);
/* The launch join's rank of GPU rank r (an index of h->rs). */
uint32_t sum_hs_rank(const struct sum_hs *h, const struct rank *r);
/* The read of the steps, the launch span and the data's span. */
void sum_hs_steps(struct sum_hs *h, const struct sum_lj *lj, const struct pt_model *m);
/* Before the host read: the ranks are prepared (u). */
void sum_hs_begin(struct sum_hs *h, struct run *u);
/* The host read. */
void sum_hs_hosts(struct sum_hs *h, struct run *u, const struct sum_lj *lj);
void sum_hs_hosts_end(struct sum_hs *h, struct run *u);
/* The host read: range or call p of thread t at start s, the thread's held ranges that start no later
 * before it, in start order (as the file would hold them in order). */
void sum_hs_put(struct sum_hs *h, struct rank *r, uint32_t t, int64_t s, const struct hs_pend *p);

/* ---- stream-host-parent.c: explicit parents (NVTX typed domains) in the host read ---- */
/* The first read: range info ri, the h->nr-th, its explicit parent kept (rpar). */
void sum_hsp_range(struct sum_hs *h, const struct pt_range_info *ri);
/* The cursor decoded the event of range rcur (h->rval): its explicit parent into h->rpcur. */
void sum_hsp_next(struct sum_hs *h);
/* The parent of range p about to be pushed on the stack of tk (the time parent on top): its index + 1
 * in the stack (0: a root); *xp: its explicit parent. One the stack does not hold: h->unsure. */
uint32_t sum_hsp_parent(struct sum_hs *h, const struct hs_trk *tk, const struct hs_pend *p, bool *xp);
/* The range of tk's stack that a call starting at `at` attaches to (summary.md §2.3), SIZE_MAX: none. */
size_t sum_hsp_pick(const struct hs_trk *tk, int64_t at);
/* One start's ranges and calls (v, n): zero-length ranges there with an explicit parent among them,
 * which the stack cannot order as the whole load does: h->unsure. */
void sum_hsp_zero(struct sum_hs *h, const struct hs_pend *v, size_t n, int64_t at);

/* ---- stream-host-late.c: the held ranges of a thread whose ranges come out of start order ---- */
/* The read of the steps: range x of late thread tk. */
void sum_hsl_add(struct hs_trk *tk, const struct hs_late *x);
/* Before the host read: the ranges in (start, event) order. */
void sum_hsl_seal(struct hs_trk *tk);
/* The host read: the next held range of tk if it starts at or before upto (taken into *x). */
bool sum_hsl_next(struct hs_trk *tk, int64_t upto, struct hs_late *x);
/* Are ranges of tk still held? */
bool sum_hsl_left(const struct hs_trk *tk);
void sum_hsl_free(struct hs_trk *tk);

/* ---- stream-host-order.c: the calls of a host thread out of start order, held in a window ---- */
/* The host read: event (range or not) of late thread t at start s whose calls are out of start order
 * (tk->cl.lag); p: the call to place, or NULL (an event that places nothing). Releases, in start
 * order, the held calls that no later event can precede. */
void sum_hso_hold(struct sum_hs *h, struct rank *r, uint32_t t, int64_t s, const struct hs_pend *p);
/* The thread's events are over: every held call, in start order. */
void sum_hso_drain(struct sum_hs *h, struct rank *r, uint32_t t);
void sum_hso_free(struct hs_trk *tk);
/* The first read's batch (m->events): per track, how far its events other than ranges fall behind. */
void sum_hso_scan(struct sum_hs *h, const struct pt_model *m);
/* After the first read: does host thread t out of start order (lag: its events') take one window for
 * its ranges and calls (its calls out of order about as far as its ranges), else its ranges held? */
bool sum_hso_window(const struct sum_hs *h, size_t t, const struct pt_lag *lag);
/* One start's ranges and calls (v, n) in §2.2 order: the first of its zero-length ranges moved after the
 * others, so that it is the one on the stack when the calls come. */
void sum_hso_zero_last(struct hs_pend *v, size_t n, int64_t at);
/* The Memcpy/Memset time and bytes + 1 of the activities that runtime call i (g in the file) launched;
 * false when it launched none (the memcpy view's host calls). */
bool sum_hs_call_copies(const struct sum_hs *h, const struct pt_model *m, size_t i, uint64_t g, int64_t *t,
			int64_t *b);
/* The summing read's batch: ctx hat. */
const uint8_t *sum_hs_batch(struct sum_hs *h, const struct sum_lj *lj, const struct sum_launch *lk,
			    const struct pt_model *m);
void sum_hs_free(struct sum_hs *h);
void sum_hsres_free(struct hsres *x);

/* ---- stream-host-views.c: what the host read sums for the memcpy and userdefined views ---- */
/* Node flags of the host read's stack (struct hs_node fl): those of stream-host.c, then the memcpy
 * view's: a memory-manipulation range, one or inside one, its copies have bytes. */
enum {
	HN_COMM = 1, HN_CANC = 2, HN_PANC = 4, HN_SANC = 8, HN_OUTER = 16, HN_INOP = 32, HN_MEM = 64,
	HN_MNAME = 128, HN_MANC = 256, HN_MHAS = 512
};
/* The first read's batch (m->events), and a range info's label: may a range be a memory manipulation? */
void sum_hsv_scan(struct sum_hs *h, const struct pt_model *m);
void sum_hsv_label(struct sum_hs *h, const struct pt_model *m, uint32_t label);
/* The read of the calls: activity i (g in the file) of unit u, its copy time and bytes. */
void sum_hsv_act(struct sum_hs *h, const struct pt_model *m, size_t u, size_t i, uint64_t g);
/* After the read of the calls: the units' copy sums by unit. */
void sum_hsv_acts_end(struct sum_hs *h);
/* The copy time and bytes + 1 of unit u; false when it launched no copy. */
bool sum_hsv_copies(const struct sum_hs *h, size_t u, int64_t *t, int64_t *b);
/* Is call event i of the batch one that copies or fills (the memcpy view asked for)? */
bool sum_hsv_copier(struct sum_hs *h, struct rank *r, uint32_t raw);
/* A range x pushed on the stack, under par (NULL: none): its memory-manipulation flags. */
void sum_hsv_push(struct rank *r, struct hs_node *x, const struct hs_node *par);
/* Call p attached to range x (unit: its unit, or SIZE_MAX). */
void sum_hsv_attach(struct sum_hs *h, struct rank *r, struct hs_node *x, const struct hs_pend *p, size_t unit);
/* Range x leaves the stack (parent: the range under it, or NULL): its sums to the parent and the views. */
void sum_hsv_finish(struct rank *r, struct hs_node *parent, const struct hs_node *x);
/* After the host read: the copy calls to leave out in order. */
void sum_hsv_end(struct hsres *x);
/* The summing read: is call event g (in the file) inside a memory-manipulation range? In event order. */
bool sum_hsv_left_out(struct hsres *x, uint64_t g);

/* ---- stream-host-detail.c: the operator view's --op-detail rows of the host read ---- */
/* Range x is about to be pushed on the stack of thread tk: its item and child row (tk->dst). */
void sum_hsd_push(struct sum_hs *h, struct rank *r, struct hs_trk *tk, const struct hs_node *x);
/* A call of unit `unit` (rank q) is attached to range k of the stack of thread tk. */
void sum_hsd_attach(struct sum_hs *h, uint32_t q, struct hs_trk *tk, size_t k, size_t unit);
/* Range x has left the stack of thread tk: its child row; its operator item + 1 (0: none). */
uint32_t sum_hsd_finish(struct rank *r, struct hs_trk *tk, const struct hs_node *x);
/* The summing read: activity i of the batch m, of unit u: its device rows. */
void sum_hsd_act(struct sum_hs *h, const struct pt_model *m, size_t u, size_t i);

/* ---- driver.c ---- */
int sum_run_init(struct run *u, const struct pt_model *m, struct pt_index *x, struct scan *sc,
		 const struct pt_summary_opts *o, int64_t origin, struct pt_err **e);
void sum_run_events(struct run *u);
void sum_run_views(struct run *u, struct pt_summary *out);
void sum_run_free(struct run *u);

#endif
