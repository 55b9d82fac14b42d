/*
 * `hints` over a GPU .ptm file without holding its events (pass-hints.h,
 * pt_pass_hints_stream, for a model of one traced process or of several): the reads of the streamed GPU steps, one more
 * (two when the host's calls cannot wait in it), then the rules of driver.c
 * over what they kept.
 *
 * Several traced processes (hosts: CPU devices, each GPU device recording the process of one) have a
 * launch join each, as the streamed steps keep them (correlation ids are per process): an activity
 * looks up its call in the join of its rank's host and widens its own rank's coverage; the calls and
 * ranges of each host are measured in read 4, once per host (its GPU rank), against t2 of that rank's
 * devices. The PyTorch Operator ranges (gops.c) are read once for every host: they nest on their own
 * threads, and a Tensor Core range counts for the kernels of its own host's ranks.
 *
 * Reads 1 and 2 are the streamed steps' (pass-steps-gstream.c,
 * pt_steps_gstream_keep): the scan, the step windows, the memory records
 * (packed) and copy infos, then the launch join filled with each launching
 * call's start, end and API name and per host track the lag of its calls.
 *
 * Read 3 (the device read): each activity of a covered device is looked up
 * in the join; an activity counts in the windows when its call (else it)
 * starts in W, as in-memory: the member activities are counted and summed
 * as they pass (TOP_OPS per kernel name, TRUNCATED_LAST_STEP, STEP_GAP's
 * first and last work per window, UNATTRIBUTED_DEVICE, TENSOR_CORES_UNUSED's
 * kernel time, the launch pairs of LAUNCH_DELAY, RUNTIME_OUTLIER and
 * SHORT_KERNELS with each call counted once by its join slot, the memory
 * operations of MEM_OPS_CRITICAL). Each activity goes to the device's
 * streamed breakdown (C and M by kernel name; with receive kernels a second
 * one takes C and Rv) and to a heap until no track of the device can still
 * deliver an earlier start; from there, in (start, event) order, it is swept
 * into the unions: C ∪ M, memcpy Mc and memset Ms clipped to each window
 * that is still open, the busy union C ∪ M ∪ Mc ∪ Ms (DEVICE_IDLE's gaps of
 * W, each classed by the first member activity that starts at or after its
 * end), M (COMM_EXPOSED), kernels (LOW_DEVICE_UTIL). A window whose end the
 * watermark passed is measured as device_measure() measures it: its free
 * time F, memcpy and memset time, each memory operation's exposed time, and
 * the rest t2 = F − Mc − Ms; its clipped sets are freed.
 *
 * The host's API calls that meet the windows wait in the same read (in a
 * heap, under the host tracks' lag) until their windows are measured and no
 * earlier call can come; then, in start order, each adds |t2 ∩ call| to its
 * name's exposed time (LAUNCH_BOUND) and, when it meets t2, joins the union
 * R of the calls, whose closed intervals measure the runtime time |t2 ∩ R|.
 * A window's t2 goes once no call can meet it. When the windows are not
 * apart, or more than MERGED_CAP calls wait, read 4 takes the calls instead,
 * every window measured (read 3 runs again without the calls when it gave
 * them up after some window's t2 went).
 *
 * The host's ranges (but the steps') wait with the calls, in the same order
 * (a host track's lag is that of its calls and ranges, read 2): the
 * in-memory pass takes from t2 − R the Dataloader ranges D, then the other
 * ranges H. Three unions fed in start order give the same: R, R ∪ D and
 * R ∪ D ∪ H, each closed interval measured against t2 (dataloader time
 * |t2 ∩ (R ∪ D)| − |t2 ∩ R| per window, for INPUT_BOUND's worst step, cpu
 * time the next difference). A Dataloader range that starts in W adds its
 * wall time (INPUT_BOUND). PyTorch Operator ranges (gops.c: two reads
 * between reads 2 and 3 when the string table holds "Operator") give a
 * member kernel its op type (TOP_OPS, through its first launch link with a
 * range), its LOW_FLOPS_UTIL execution (its last link to a default-domain
 * Operator range that counts: the range's FLOPs once per device, the busy
 * time per op type swept with the rest) and TENSOR_CORES_UNUSED's time (its
 * last link's range). The names USE_DDP and DDP_WITHOUT_NCCL count
 * (DataParallel.forward, DistributedDataParallel.forward, nccl:*) are counted
 * per host as the steps' first read passes them (gddp.c, its scan hook).
 * Communication host ranges (a kernel launched inside one is communication)
 * give the device read a bit per kernel (gcomm.c: what the first read's scan
 * hook kept, then one read of the events and the launch links, before read
 * 3); in a file without links, of one host, a bit per slot of its launch join
 * (the first API call of each id, as the whole load joins them); several hosts
 * without links are read whole by the steps' read. --comm-pattern (o->comm_re)
 * names the communication kernels and Operator ranges here as the index does.
 *
 * Beside Ascend devices (a model of Ascend and GPU data, stream.c: hx_beside), the steps' reads are
 * pt_steps_gstream_keep_mixed's (the Ascend ranks' steps as the whole load collects them), read 3 leaves
 * the Ascend ranks alone, and hx_beside's read measures them after the GPU ranks.
 *
 * Read 1 keeps the event batches of a model whose events take at most PT_STEPS_TAPE_MAX (a tape of the
 * events alone, model/ptm.h) and every later read replays them instead of inflating the file again.
 *
 * What grows: the join (28 bytes an activity id), the launch pairs' delays
 * and call durations (sorted runs of varint differences, qvals.c), the memory
 * operations whose windows are not all measured (then folded into
 * MEM_OPS_CRITICAL's figures, mfold.c), per kernel name its totals, with
 * windows apart the clipped sets of the open windows only and no per-window
 * breakdown state (its runs are measured against W), t2 of the windows calls can
 * still meet, the waiting activities, calls and ranges, 8 bytes a window and
 * device (its Dataloader time), 8 bytes a step range; gops.c's ranges (5
 * bytes each, 12 more for FLOPs that count) and kernel map (8 bytes a linked
 * kernel). If the coverage read 3 measures leaves steps uncovered, read 3
 * runs again over the covered windows.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/breakdown-stream.h"
#include "pass/launch-join.h"
#include "pass/pass-steps.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/lag.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* Read 3 holds at most this many calls waiting for their windows (24 bytes each); beyond, read 4
 * measures them (the tests set PT_TEST_HINTS_CALLS_CAP to take that path on small models). */
#define MERGED_CAP ((size_t)1 << 20)

enum { G_C = 1, G_M = 2, G_MC = 4, G_MS = 8, G_K = 16, G_MEMBER = 32, G_CALL = 64, G_FK = 128 };

/* The sets of one window clipped to it, until the watermark passes its end. */
struct gwin {
	struct pt_ivset cm, mc, ms;
	bool done;
};

struct gtr {
	uint64_t left; /* activities (calls) still to come */
	bool seen;
	int64_t top;
};

struct gap {
	int64_t a, b;
};

/* An op type of LOW_FLOPS_UTIL's executions on a device: the union of their times, its time in W, FLOPs. */
struct gktype {
	uint32_t type;
	struct hx_openu u;
	int64_t busy;
	long double f;
};

struct gdev {
	const struct pt_ljoin *j;    /* its host's launch join */
	struct pt_rank_steps *cr;    /* the rank its activities widen (the coverage) and whose host they look up */
	struct hx_sdev *out;
	struct hx_srank *sr;
	const struct rankdata *rd;
	struct pt_bdstream *bd, *rv;
	struct pt_bdsums bs[2];      /* windows apart: bd's and rv's measures summed over the windows (their runs) */
	bool may_rv, has_rv;
	struct hx_heap h;
	struct hx_openu cm, mc, ms, busy, mu, ku;
	struct gwin *w;       /* the windows' clipped sets: all, else (windows apart) w[i] is window w0 + i, from w0 <= wf */
	size_t w0, nw, cw;
	size_t wf;            /* windows before it are measured (windows apart) */
	struct pt_ivset *t2;  /* per window: F − Mc − Ms, until no call can meet the window */
	size_t t2f;           /* windows apart: those before it no call can meet any more (t2 freed) */
	int64_t mc_t, ms_t;
	size_t prep_w;        /* prep: the first window whose first C ∪ M point is unknown */
	/* DEVICE_IDLE */
	size_t wi;
	struct gap *pg;       /* gaps waiting for the next member activity */
	size_t pg0, npg, cpg;
	bool fm;              /* the first member activity at time fm_t */
	int64_t fm_t, fm_cs;
	uint32_t *trk;
	size_t ntrk, ctrk;
	uint64_t *called;     /* per join slot: its call counted (RUNTIME_OUTLIER) */
	struct hx_qvals dl[3];      /* queue and launch delays, call durations (launchdata's quantiles at the end) */
	size_t cap_mops;
	size_t mop0;                /* windows apart: the memory operations before it end before every window left */
	int64_t rt;                 /* the calls: |t2 ∩ R| */
	int64_t rd2, rd3;           /* the host ranges: |t2 ∩ (R ∪ D)|, |t2 ∩ (R ∪ D ∪ H)| */
	int64_t *wdl;               /* per window: |t2 ∩ (R ∪ D)| − |t2 ∩ R|, its Dataloader time (NULL: no D) */
	struct pt_hashmap apisum;   /* the calls: exposed time per call name id */
	/* LOW_FLOPS_UTIL: its executions' union, per op type (kt_at: type -> index), the Operator ranges
	 * whose FLOPs a kernel of the device carries already (a bit each) */
	struct hx_openu kk;
	struct gktype *kt;
	size_t nkt, ckt;
	struct pt_hashmap kt_at;
	uint64_t *rdone;
	const struct hx_gops *ops;
};

/* A host API call or range waiting until its windows' t2 is final and no earlier one can come. */
enum { GC_CALL, GC_LOADER, GC_RANGE };
struct gcall {
	int64_t s, e;
	uint32_t name;
	uint8_t kind; /* GC_*: a call, a Dataloader range (D), another range (H) */
};

/* The calls of one host thread that come in start order, waiting. */
struct gfifo {
	struct gcall *v;
	size_t h, n, cap; /* v[h..n) wait */
};

struct gs {
	struct ctx *c;
	const struct pt_model *m;
	struct pt_steps_gkeep kp;
	bool multi;       /* several hosts (processes): a launch join each, read 4 once per host */
	struct gtr *t;
	size_t ntrk;
	struct gdev **of; /* per device */
	struct pt_rank_steps *r;
	bool cover;       /* read 3 widens the coverage */
	uint8_t *kname;   /* per string: 0 not seen, 1 computation, 2 communication, 3 a receive among those,
			   * 4 computation named as a receive (communication when launched as such: comm) */
	struct hx_gcomm comm; /* the kernels launched inside communication ranges (gcomm.c), when kp.comm */
	struct hx_gcscan cscan; /* what the first read gives gcomm.c */
	struct hx_gddp ddp;     /* the host ranges' names of USE_DDP and DDP_WITHOUT_NCCL (gddp.c) */
	uint8_t *lapi;    /* per string: 0 not seen, 1 not a launch API, 2 one (hints.launch.apis) */
	size_t nstr;
	uint64_t base;
	int64_t kw;
	/* the host's calls (read 3, else read 4) */
	struct gcall *ch; /* the calls waiting: a min-heap by start (equal starts in any order: a union) */
	size_t nch, cch;  /* (nch: all that wait, in the heap or the queues) */
	bool ordered;     /* every host thread's calls come in start order (lag 0): a queue each, merged */
	struct gfifo *fq; /* per host track of htrk */
	uint32_t *fq_of;  /* per track: its queue */
	bool merged;      /* the host's calls are measured in read 3 (else in read 4) */
	bool no_merge;    /* read 3 leaves them to read 4 */
	bool lost;        /* read 3 left them to read 4 after windows' t2 went: read 3 again, no_merge */
	bool dev_done;    /* read 3 ended: every window measured */
	size_t cap;       /* MERGED_CAP */
	struct hx_openu ru, ru2, ru3; /* the unions R, R ∪ D, R ∪ D ∪ H */
	const struct rankdata *hrd;   /* the host's rank's windows */
	bool has_loader;              /* Dataloader ranges that start in W, their wall time */
	int64_t loader_wall;
	uint64_t *sev;                /* the step ranges' events (the file's indexes), sorted: in neither D nor H */
	size_t nsev;
	size_t ri;                    /* the host's rank in si */
	uint32_t host;
	struct gdev **hd; /* the devices whose t2 the calls meet */
	size_t nhd;
	int64_t lo, hi;   /* their windows' first start and last end */
	uint32_t *htrk;   /* the host's tracks with calls */
	size_t nhtrk;
	struct hx_mempeak *gmem; /* per device (take_tables) */
	struct hx_gops ops;      /* the PyTorch Operator ranges (gops.c), none when ops.n is 0 */
	struct hx_gcopies cp;    /* the copy infos (gcopy.c), taken from m after the steps' read */
	uint8_t *tcname;         /* per string: 0 not seen, 1 not a Tensor Core kernel, 2 one */
};

/* A kernel that may be a receive: communication by its name, or by where it was launched (gcomm.c). */
static bool recv_kernel(const char *name)
{
	return hx_recv_name(name);
}

struct gs;
static bool host_setup(struct gs *g, struct gdev *dv, const struct pt_rank_steps *r);
static void host_reset(struct gs *g);
static void host_end(struct gs *g);
static void host_event(struct gs *g, const struct pt_model *m, size_t i);
static void host_release(struct gs *g, int64_t below);

/* ---- windows -------------------------------------------------------------------------- */

/* Window w's clipped sets (not measured yet). Windows apart hold those from the first not measured to
 * the last an interval met, the measured ones dropped when they are as many as those held. */
static struct gwin *gw(struct gdev *d, size_t w)
{
	if (!d->rd->win_apart)
		return &d->w[w];
	if (w - d->w0 >= d->nw) {
		size_t from = d->wf < w ? d->wf : w; /* (win_pass counts w measured as it measures it) */
		size_t dead = from - d->w0;          /* measured: their sets are freed */
		if (dead && dead >= d->nw / 2) {
			if (dead > d->nw)
				dead = d->nw;
			memmove(d->w, d->w + dead, (d->nw - dead) * sizeof(*d->w));
			d->nw -= dead;
			d->w0 = from;
		}
		size_t need = w - d->w0 + 1;
		pt_xgrow((void **)&d->w, &d->cw, need, sizeof(*d->w));
		memset(d->w + d->nw, 0, (need - d->nw) * sizeof(*d->w));
		d->nw = need;
	}
	return &d->w[w - d->w0];
}

/* Each window not yet measured that [a, b) meets gets its part (sel: which set). */
static void to_windows(struct gdev *d, int sel, int64_t a, int64_t b)
{
	const struct rankdata *rd = d->rd;
	for (size_t w = rd->win_apart ? d->wf : 0; w < rd->nwin; w++) {
		int64_t s = rd->win[w].s, e = rd->win[w].e;
		if (rd->win_apart && s >= b)
			break;
		if ((!rd->win_apart && d->w[w].done) || e <= a || s >= b)
			continue;
		struct gwin *g = gw(d, w);
		struct pt_ivset *x = sel == 0 ? &g->cm : sel == 1 ? &g->mc : &g->ms;
		pt_ivset_append(x, a > s ? a : s, b < e ? b : e);
	}
}

/* Window w, every interval before its end swept: F, memcpy and memset time, each member memory
 * operation's exposed time, t2 (as device_measure). */
static void win_measure(struct gdev *d, size_t w)
{
	const struct rankdata *rd = d->rd;
	struct gwin *x = gw(d, w);
	int64_t s = rd->win[w].s, e = rd->win[w].e;
	/* the open intervals' parts before the end are final */
	if (d->cm.open)
		pt_ivset_append(&x->cm, d->cm.us > s ? d->cm.us : s, d->cm.ue < e ? d->cm.ue : e);
	if (d->mc.open)
		pt_ivset_append(&x->mc, d->mc.us > s ? d->mc.us : s, d->mc.ue < e ? d->mc.ue : e);
	if (d->ms.open)
		pt_ivset_append(&x->ms, d->ms.us > s ? d->ms.us : s, d->ms.ue < e ? d->ms.ue : e);
	struct pt_ival one = { s, e };
	struct pt_ivset S = { &one, 1, 1 }, F = { 0 }, t1 = { 0 }, rem = { 0 };
	/* (each set goes once the next is made: a window of many intervals holds two sets at a time, not six) */
	pt_ivset_diff(&F, &S, &x->cm);
	pt_ivset_free(&x->cm);
	pt_ivset_inter(&t1, &F, &x->mc);
	d->mc_t += pt_ivset_measure(&t1);
	pt_ivset_free(&t1);
	pt_ivset_diff(&rem, &F, &x->mc);
	pt_ivset_free(&x->mc);
	struct hx_sdev *o = d->out;
	/* windows apart are measured in order: the operations that end by the start meet no window still to
	 * measure (they come nearly in start order, so that each window visits few) */
	for (; rd->win_apart && d->mop0 < o->nmops && o->mops[d->mop0].start + o->mops[d->mop0].dur <= s; d->mop0++)
		;
	for (size_t q = rd->win_apart ? d->mop0 : 0; q < o->nmops; q++) {
		struct memop *p = &o->mops[q];
		int64_t oe = p->start + p->dur;
		if (oe <= s || p->start >= e)
			continue;
		p->exposed += p->set ? pt_ivset_measure_in(&rem, p->start, oe) : pt_ivset_measure_in(&F, p->start, oe);
	}
	pt_ivset_free(&F);
	pt_ivset_inter(&t1, &rem, &x->ms);
	d->ms_t += pt_ivset_measure(&t1);
	pt_ivset_free(&t1);
	pt_ivset_diff(&d->t2[w], &rem, &x->ms);
	pt_ivset_free(&rem);
	pt_ivset_free(&x->ms);
	struct pt_ivset *t2 = &d->t2[w]; /* held until no call can meet it: without the slack */
	if (t2->cap > t2->n) {
		t2->v = pt_xrealloc(t2->v, (t2->n ? t2->n : 1) * sizeof(*t2->v));
		t2->cap = t2->n ? t2->n : 1;
	}
	x->done = true;
}

/* The memory operations whose windows are all measured (all: every one) go to MEM_OPS_CRITICAL's figures, placed
 * as device_measure() lists them: by the first window they meet, then start and event. An operation comes after
 * the windows the watermark passed, so none meets a window measured before it came. */
static void mops_fold(struct gdev *d, bool all)
{
	const struct rankdata *rd = d->rd;
	struct hx_sdev *o = d->out;
	int64_t lim = all || d->wf >= rd->nwin ? INT64_MAX : rd->win[d->wf].s; /* windows apart: later ones start here on */
	size_t n = 0;
	for (size_t q = 0; q < o->nmops; q++) {
		struct memop *p = &o->mops[q];
		int64_t oe = p->start + p->dur;
		if (!all && oe > lim) {
			o->mops[n++] = *p;
			continue;
		}
		if (!p->exposed)
			continue;
		size_t w = 0;
		if (rd->win_apart) { /* the first window that ends after the start, if it meets the operation */
			w = hx_win_after(rd, p->start);
			if (w < rd->nwin && rd->win[w].s >= oe)
				w = rd->nwin;
		}
		while (w < rd->nwin && !(rd->win[w].e > p->start && rd->win[w].s < oe))
			w++;
		hx_mfold_add(&o->mf, p, (struct hx_mkey){ w, p->start, p->ev });
	}
	o->nmops = n;
	d->mop0 = 0;
	if (all) {
		free(o->mops);
		o->mops = NULL;
		d->cap_mops = 0;
	}
}

/* Every window that ends at or before `below` is measured. */
static void win_pass(struct gdev *d, int64_t below)
{
	const struct rankdata *rd = d->rd;
	if (rd->win_apart) {
		size_t wf = d->wf;
		while (d->wf < rd->nwin && rd->win[d->wf].e <= below)
			win_measure(d, d->wf++);
		if (d->wf != wf && d->out->nmops)
			mops_fold(d, false);
		return;
	}
	for (size_t w = 0; w < rd->nwin; w++)
		if (!d->w[w].done && rd->win[w].e <= below)
			win_measure(d, w);
}

/* ---- DEVICE_IDLE ------------------------------------------------------------------------ */

/* Gap [ga, gb) classed by the first member activity at or after gb (call: its call's start, when it has one). */
static void idle_class(struct gdev *d, int64_t kw, int64_t ga, int64_t gb, bool call, int64_t cs)
{
	struct hx_idle *f = &d->out->idle;
	int cl = 2;
	if (call && cs > ga)
		cl = 0;
	else if (gb - ga < kw)
		cl = 1;
	f->cls[cl] += gb - ga;
	f->cnt[cl]++;
}

static void idle_gap(struct gdev *d, int64_t kw, int64_t ga, int64_t gb)
{
	struct hx_idle *f = &d->out->idle;
	f->il += gb - ga;
	if (gb - ga > f->longest)
		f->longest = gb - ga;
	if (d->fm && d->fm_t >= gb) { /* a member activity at gb passed already (before the one that ended it) */
		idle_class(d, kw, ga, gb, d->fm_cs != INT64_MIN, d->fm_cs);
		return;
	}
	if (d->pg0 == d->npg)
		d->pg0 = d->npg = 0;
	pt_xgrow((void **)&d->pg, &d->cpg, d->npg + 1, sizeof(*d->pg));
	d->pg[d->npg++] = (struct gap){ ga, gb };
}

/* The idle parts of W in [lo, hi): complete where they end at an end of W, or at hi when `closed`. */
static void idle_emit(struct gdev *d, int64_t kw, int64_t lo, int64_t hi, bool closed)
{
	const struct pt_ivset *W = &d->rd->W;
	while (d->wi < W->n) {
		int64_t ws = W->v[d->wi].s, we = W->v[d->wi].e;
		if (we <= lo) {
			d->wi++;
			continue;
		}
		if (ws >= hi)
			break;
		int64_t ga = ws > lo ? ws : lo;
		if (we <= hi) {
			idle_gap(d, kw, ga, we);
			d->wi++;
			continue;
		}
		if (closed && ga < hi)
			idle_gap(d, kw, ga, hi);
		break;
	}
}

/* ---- the sweep ------------------------------------------------------------------------ */

/* A closed interval [a, b) of C ∪ M: to the windows' sets; the first busy point of the windows it meets (prep). */
static void cm_closed(struct gdev *d, int64_t a, int64_t b)
{
	to_windows(d, 0, a, b);
	const struct rankdata *rd = d->rd;
	while (d->prep_w < rd->nwin) {
		int64_t ws = rd->win[d->prep_w].s, we = rd->win[d->prep_w].e;
		if (we <= a) {
			d->out->a.prep += we - ws;
			d->prep_w++;
		} else if (ws < b) {
			d->out->a.prep += (a > ws ? a : ws) - ws;
			d->prep_w++;
		} else {
			break;
		}
	}
}

static void sweep(struct gdev *d, int64_t kw, const struct hx_item *it)
{
	const struct pt_ivset *W = &d->rd->W;
	int64_t a, b, s = it->s, e = it->e;
	/* DEVICE_IDLE: the idle time before s is final */
	if (!(d->busy.open && s <= d->busy.ue))
		idle_emit(d, kw, d->busy.open ? d->busy.ue : INT64_MIN, s, e > s);
	hx_u_add(&d->busy, s, e, &a, &b);
	if (it->fl & G_MEMBER) {
		bool call = it->fl & G_CALL;
		int64_t cs = call ? d->j->start[it->type] : INT64_MIN;
		for (; d->pg0 < d->npg; d->pg0++)
			idle_class(d, kw, d->pg[d->pg0].a, d->pg[d->pg0].b, call, cs);
		if (!d->fm || s > d->fm_t) {
			d->fm = true;
			d->fm_t = s;
			d->fm_cs = cs;
		}
	}
	if ((it->fl & (G_C | G_M)) && hx_u_add(&d->cm, s, e, &a, &b))
		cm_closed(d, a, b);
	if ((it->fl & G_MC) && hx_u_add(&d->mc, s, e, &a, &b))
		to_windows(d, 1, a, b);
	if ((it->fl & G_MS) && hx_u_add(&d->ms, s, e, &a, &b))
		to_windows(d, 2, a, b);
	if ((it->fl & G_M) && hx_u_add(&d->mu, s, e, &a, &b))
		d->out->mw += pt_ivset_measure_in(W, a, b);
	if ((it->fl & G_K) && hx_u_add(&d->ku, s, e, &a, &b))
		d->out->ku_busy += pt_ivset_measure_in(W, a, b);
	if (it->fl & G_FK) { /* LOW_FLOPS_UTIL: B, and per op type its busy time */
		if (hx_u_add(&d->kk, s, e, &a, &b))
			d->out->B += pt_ivset_measure_in(W, a, b);
		struct hx_kops ko;
		hx_gops_kernel(d->ops, it->g, &ko);
		struct gktype *t = &d->kt[*pt_hashmap_get(&d->kt_at, d->ops->type[ko.fl - 1])];
		if (hx_u_add(&t->u, s, e, &a, &b))
			t->busy += pt_ivset_measure_in(W, a, b);
	}
}

static void release(struct gdev *d, int64_t kw, int64_t below)
{
	pt_bdstream_release(d->bd, below);
	if (d->rv)
		pt_bdstream_release(d->rv, below);
	while (d->h.n && d->h.v[0].s < below) {
		struct hx_item it = hx_heap_pop(&d->h);
		sweep(d, kw, &it);
	}
	win_pass(d, below);
}

/* The earliest start an activity of a track of d still to come can have (INT64_MAX: none). */
static int64_t watermark(const struct gs *g, const uint32_t *trk, size_t n)
{
	int64_t w = INT64_MAX;
	for (size_t j = 0; j < n; j++) {
		const struct gtr *t = &g->t[trk[j]];
		if (!t->left)
			continue;
		int64_t v = pt_lag_floor(&g->kp.lag[trk[j]], t->seen, t->top);
		if (v < w)
			w = v;
	}
	return w;
}

/* The breakdown of windows apart from their runs (as hx_bd_sum from each window's: the measures add up). */
static void bd_run(struct pt_bdsums *m, const struct rankdata *rd, int k, int64_t a, int64_t b)
{
	int64_t x = pt_ivset_measure_in(&rd->W, a, b);
	if (k == 0)
		m->comp += x;
	else if (k == 1)
		m->comm += x;
	else
		m->either += x;
}

static void bd_run0(void *arg, int k, int64_t a, int64_t b)
{
	struct gdev *d = arg;
	bd_run(&d->bs[0], d->rd, k, a, b);
}

static void bd_run1(void *arg, int k, int64_t a, int64_t b)
{
	struct gdev *d = arg;
	bd_run(&d->bs[1], d->rd, k, a, b);
}

static void dev_finish(struct gdev *d, int64_t kw)
{
	release(d, kw, INT64_MAX);
	while (d->h.n) {
		struct hx_item it = hx_heap_pop(&d->h);
		sweep(d, kw, &it);
	}
	pt_bdstream_finish(d->bd);
	if (d->rv)
		pt_bdstream_finish(d->rv);
	const struct rankdata *rd = d->rd;
	const struct pt_ivset *W = &rd->W;
	int64_t a, b;
	idle_emit(d, kw, d->busy.open ? d->busy.ue : INT64_MIN, INT64_MAX, true);
	for (; d->pg0 < d->npg; d->pg0++)
		idle_class(d, kw, d->pg[d->pg0].a, d->pg[d->pg0].b, false, 0);
	if (hx_u_end(&d->cm, &a, &b))
		cm_closed(d, a, b);
	if (hx_u_end(&d->mc, &a, &b))
		to_windows(d, 1, a, b);
	if (hx_u_end(&d->ms, &a, &b))
		to_windows(d, 2, a, b);
	win_pass(d, INT64_MAX);
	if (hx_u_end(&d->mu, &a, &b))
		d->out->mw += pt_ivset_measure_in(W, a, b);
	if (hx_u_end(&d->ku, &a, &b))
		d->out->ku_busy += pt_ivset_measure_in(W, a, b);
	if (hx_u_end(&d->kk, &a, &b))
		d->out->B += pt_ivset_measure_in(W, a, b);
	d->out->tv = pt_xmalloc((d->nkt ? d->nkt : 1) * sizeof(*d->out->tv));
	for (size_t i = 0; i < d->nkt; i++) {
		if (hx_u_end(&d->kt[i].u, &a, &b))
			d->kt[i].busy += pt_ivset_measure_in(W, a, b);
		d->out->tv[i] = (struct hx_tfig){ d->kt[i].type, d->kt[i].busy, d->kt[i].f };
	}
	d->out->ntv = d->nkt;
	for (; d->prep_w < rd->nwin; d->prep_w++)
		d->out->a.prep += rd->win[d->prep_w].e - rd->win[d->prep_w].s;
	struct devacc *x = &d->out->a;
	if (rd->win_apart) { /* (the total |W| of bd's sums: that of the windows, as each window's adds up) */
		struct pt_bdsums m4 = d->bs[0];
		for (size_t w = 0; w < rd->nwin; w++)
			m4.total += rd->win[w].e > rd->win[w].s ? rd->win[w].e - rd->win[w].s : 0;
		hx_bd_sums(rd, &m4, &d->bs[1], d->has_rv, x);
	} else
		hx_bd_sum(rd, d->bd, d->rv, d->has_rv, x); /* other_t: the free time, until the calls take the rest */
	x->memcpy_t = d->mc_t;
	x->memset_t = d->ms_t;
	d->out->has_rv = d->has_rv;
	mops_fold(d, true);
}

static void gdev_free(struct gdev *d)
{
	pt_bdstream_free(d->bd);
	pt_bdstream_free(d->rv);
	free(d->h.v);
	if (d->w)
		for (size_t w = 0; w < (d->rd->win_apart ? d->nw : d->rd->nwin); w++) {
			pt_ivset_free(&d->w[w].cm);
			pt_ivset_free(&d->w[w].mc);
			pt_ivset_free(&d->w[w].ms);
		}
	free(d->w);
	if (d->t2)
		for (size_t w = 0; w < d->rd->nwin; w++)
			pt_ivset_free(&d->t2[w]);
	free(d->t2);
	free(d->pg);
	free(d->trk);
	free(d->called);
	free(d->kt);
	free(d->rdone);
	if (d->kt_at.cap)
		pt_hashmap_free(&d->kt_at);
	free(d->wdl);
	for (int k = 0; k < 3; k++) {
		hx_qvals_free(&d->dl[k]);
	}
}

/* ---- read 3: the device read ------------------------------------------------------------- */

/* A member computation kernel of d launched in Operator range q, which counts for FLOPs: an execution of
 * LOW_FLOPS_UTIL, which carries the range's FLOPs when it is the first on d to (the sum is the same in any
 * order). */
static uint8_t flops_exec(struct gdev *d, uint32_t q, const struct hx_gops *ops)
{
	if (!d->rdone) {
		d->rdone = pt_xcalloc(ops->n / 64 + 1, sizeof(*d->rdone));
		pt_hashmap_init(&d->kt_at);
		d->ops = ops;
	}
	bool added;
	uint64_t *ix = pt_hashmap_put(&d->kt_at, ops->type[q], d->nkt, &added);
	if (added) {
		pt_xgrow((void **)&d->kt, &d->ckt, d->nkt + 1, sizeof(*d->kt));
		d->kt[d->nkt++] = (struct gktype){ ops->type[q], { 0, 0, false }, 0, 0 };
	}
	uint64_t f = 0;
	if (!(d->rdone[q / 64] >> (q % 64) & 1)) {
		d->rdone[q / 64] |= UINT64_C(1) << (q % 64);
		f = hx_gops_flops(ops, q);
	}
	d->kt[*ix].f += (long double)f;
	d->out->F += (long double)f;
	d->out->nk++;
	return G_FK;
}

/* The launch pair of member activity (start st, duration du, name nm) and its call (slot). */
static void launch_pair(struct gs *g, struct gdev *d, size_t slot, int64_t st, int64_t du, uint32_t nm)
{
	const struct pt_hint_knobs *k = g->c->k;
	struct launchdata *l = &d->out->l;
	uint32_t an = pt_ljoin_name(d->j, slot);
	uint8_t *la = &g->lapi[an < g->nstr ? an : 0];
	if (!*la) {
		const char *s = pt_model_strget(g->m, an);
		*la = hx_in_list(k->launch_apis, s, hx_api_base_len(s)) ? 2 : 1;
	}
	if (*la != 2)
		return;
	int64_t cs = 0, ce = 0;
	pt_ljoin_get(d->j, slot, &cs, &ce);
	int64_t cd = ce - cs;
	int64_t q = st - ce;
	if (q < 0)
		q = 0;
	int64_t ldl = st - cs;
	if (ldl >= 0) {
		hx_qvals_add(&d->dl[0], q);
		hx_qvals_add(&d->dl[1], ldl);
		if (q > l->qd_cut) {
			l->qd_out++;
			hx_nl_get(&l->qk, nm)->a++;
		}
	}
	if (!(d->called[slot / 64] >> (slot % 64) & 1)) { /* each call once */
		d->called[slot / 64] |= UINT64_C(1) << (slot % 64);
		l->calls++;
		hx_qvals_add(&d->dl[2], cd);
		if (cd > l->rt_cut) {
			l->rt_out++;
			hx_nl_get_api(g->c, &l->ra, an)->a++;
		}
	}
	if (cd <= l->rt_cut && du < cd) {
		l->shortn++;
		l->short_cpu += cd;
		l->short_gpu += du;
		hx_nl_get(&l->sk, nm)->a++;
	}
}

static int dev_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gs *g = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (k != PT_EV_KERNEL && k != PT_EV_MEMCPY && k != PT_EV_MEMSET)
			continue;
		uint32_t tr = ev->track[i];
		struct gdev *d = g->of[m->tracks.v[tr].device];
		if (!d)
			continue;
		uint64_t gi = g->base + i;
		struct gtr *t = &g->t[tr];
		int64_t st = ev->start[i], du = ev->dur[i], en = st + du;
		if (t->left)
			t->left--;
		if (!t->seen || st > t->top)
			t->top = st;
		t->seen = true;
		d->out->active = true;
		size_t slot = SIZE_MAX;
		int64_t cs = INT64_MIN;
		bool found = false;
		if (ev->corr[i] && d->cr->host != PT_NONE) {
			slot = pt_ljoin_slot(d->j, ev->corr[i]);
			found = slot != SIZE_MAX && pt_ljoin_get(d->j, slot, &cs, NULL);
		}
		if (g->cover)
			pt_steps_gkeep_widen(&g->kp, d->cr, gi, st, en, found, cs);
		const struct rankdata *rd = d->rd;
		uint32_t nm = ev->name[i];
		uint8_t fl = 0;
		int cls = 0;
		if (k == PT_EV_KERNEL) {
			uint8_t *kn = &g->kname[nm < g->nstr ? nm : 0];
			if (!*kn) {
				const char *s = pt_model_strget(m, nm);
				*kn = hx_comm_kernel_name(g->c->o, s) ? (hx_recv_name(s) ? 3 : 2) : hx_recv_name(s) ? 4 : 1;
			}
			bool comm = *kn == 2 || *kn == 3 || hx_gcomm_kernel(&g->comm, d->j, gi, slot);
			bool recv = comm && (*kn == 3 || *kn == 4);
			cls = comm ? 2 : 1;
			fl = (uint8_t)((cls == 1 ? G_C : G_M) | G_K);
			pt_bdstream_add(d->bd, cls, st, en);
			if (d->rv && (cls == 1 || recv))
				pt_bdstream_add(d->rv, cls, st, en);
			d->has_rv |= recv && en > st;
		} else {
			fl = k == PT_EV_MEMCPY ? G_MC : G_MS;
		}
		int64_t an = found ? cs : st;
		if (found)
			fl |= G_CALL;
		if (rd->nwin && pt_ivset_contains(&rd->W, an)) { /* a member activity */
			struct hx_sdev *o = d->out;
			fl |= G_MEMBER;
			o->nacts++;
			for (int q = 0; q < 2 && rd->nwin >= 2; q++)
				if (an >= rd->win[rd->nwin - 2 + q].s && an < rd->win[rd->nwin - 2 + q].e)
					o->last2[q]++;
			size_t w = hx_win_of(rd, an);
			if (w != SIZE_MAX) { /* STEP_GAP */
				if (st < d->sr->first[w])
					d->sr->first[w] = st;
				if (en > d->sr->last[w])
					d->sr->last[w] = en;
			}
			o->tot += du;
			if (!found)
				o->un += du, o->uncnt++;
			if (k == PT_EV_KERNEL) {
				struct hx_kops ko;
				hx_gops_kernel(&g->ops, gi, &ko);
				/* TOP_OPS: the op type is that of the Operator range its launch is in */
				uint32_t ty = found && ko.top ? g->ops.type[ko.top - 1] : nm;
				struct named *a = hx_nl_get(&o->ops, nm), *b = hx_nl_get(&o->types, ty);
				a->a += du, a->b++;
				b->a += du, b->b++;
				o->T += du;
				struct hx_srank *sr = d->sr;
				sr->kern += du;
				sr->any_kern = true;
				uint8_t *tn = &g->tcname[nm < g->nstr ? nm : 0]; /* TENSOR_CORES_UNUSED */
				if (!*tn)
					*tn = hx_tc_kernel_name(g->c->k, pt_model_strget(m, nm)) ? 2 : 1;
				if (*tn == 2)
					sr->tc += du;
				if (ko.tc) {
					sr->ops = true;
					sr->by_op += du;
					if ((g->ops.fl[ko.tc - 1] & HX_OP_LEAF) &&
					    (!g->ops.host || g->ops.host[ko.tc - 1] == rd->r->host))
						sr->elig += du;
				}
				if (cls == 1 && ko.fl && (g->ops.fl[ko.fl - 1] & HX_OP_COUNT)) /* LOW_FLOPS_UTIL's K */
					fl |= flops_exec(d, ko.fl - 1, &g->ops);
			} else {
				o->has_mem = true;
				uint8_t ck = 0;
				uint64_t cb = 0;
				bool ci = hx_gcopies_get(&g->cp, (uint32_t)gi, &ck, &cb);
				pt_xgrow((void **)&o->mops, &d->cap_mops, o->nmops + 1, sizeof(*o->mops));
				o->mops[o->nmops++] = (struct memop){
					(size_t)gi, 0, k == PT_EV_MEMSET ? "memset" : ci ? hx_copy_kind_name(ck) : "other",
					nm, found ? pt_ljoin_name(d->j, slot) : 0, found, k == PT_EV_MEMSET, st, du, cb };
			}
			if (found)
				launch_pair(g, d, slot, st, du, nm);
		}
		struct hx_item it = { st, en, gi, found ? (uint32_t)slot : 0, fl };
		hx_heap_push(&d->h, &it);
	}
	for (size_t dv = 0; dv < g->m->devices.n; dv++)
		if (g->of[dv])
			release(g->of[dv], g->kw, watermark(g, g->of[dv]->trk, g->of[dv]->ntrk));
	if (g->merged) {
		for (size_t i = 0; i < ev->n; i++)
			host_event(g, m, i);
		host_release(g, watermark(g, g->htrk, g->nhtrk));
		if (g->nch > g->cap) { /* the windows are long next to the calls: read 4 takes them */
			/* t2 of the windows done with is gone: read 3 again, without the calls, for read 4 */
			for (size_t q = 0; q < g->nhd; q++)
				g->lost |= g->hd[q]->t2f > 0;
			g->merged = false;
			host_end(g);
		}
	}
	g->base += ev->n;
	return 0;
}

/* ---- read 4: the host read ------------------------------------------------------------- */

/* |t2 ∩ [a, b)| added to *sum and, per window, sign times it to wdl. */
static void t2_add(struct gdev *d, int64_t a, int64_t b, int64_t *sum, int sign)
{
	const struct rankdata *rd = d->rd;
	size_t w0 = rd->win_apart ? hx_win_after(rd, a) : 0;
	for (size_t w = w0; w < rd->nwin; w++) {
		if (rd->win_apart && rd->win[w].s >= b)
			break;
		if (rd->win[w].e <= a || rd->win[w].s >= b)
			continue;
		int64_t x = pt_ivset_measure_in(&d->t2[w], a, b);
		*sum += x;
		if (sign && d->wdl)
			d->wdl[w] += sign * x;
	}
}

/* |t2 ∩ [a, b)| over the windows [a, b) meets. */
static int64_t t2_in(struct gdev *d, int64_t a, int64_t b)
{
	int64_t x = 0;
	t2_add(d, a, b, &x, 0);
	return x;
}

/* A closed interval [a, b) of R (u 0), R ∪ D (1) or R ∪ D ∪ H (2). */
static void r_closed(struct gs *g, int u, int64_t a, int64_t b)
{
	for (size_t q = 0; q < g->nhd; q++) {
		struct gdev *d = g->hd[q];
		t2_add(d, a, b, u == 0 ? &d->rt : u == 1 ? &d->rd2 : &d->rd3, u == 0 ? -1 : u == 1 ? 1 : 0);
	}
}

static void heap_push(struct gs *g, int64_t s, int64_t e, uint32_t name, uint8_t kind)
{
	pt_xgrow((void **)&g->ch, &g->cch, g->nch + 1, sizeof(*g->ch));
	size_t i = g->nch++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (g->ch[p].s <= s)
			break;
		g->ch[i] = g->ch[p];
		i = p;
	}
	g->ch[i] = (struct gcall){ s, e, name, kind };
}

static struct gcall heap_pop(struct gs *g)
{
	struct gcall top = g->ch[0], last = g->ch[--g->nch];
	size_t i = 0, n = g->nch;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		if (l + 1 < n && g->ch[l + 1].s < g->ch[l].s)
			l++;
		if (g->ch[l].s >= last.s)
			break;
		g->ch[i] = g->ch[l];
		i = l;
	}
	if (n)
		g->ch[i] = last;
	return top;
}

/* A call of track tr waits: in its thread's queue (ordered), else in the heap. */
static void call_push(struct gs *g, uint32_t tr, int64_t s, int64_t e, uint32_t name, uint8_t kind)
{
	if (!g->ordered) {
		heap_push(g, s, e, name, kind);
		return;
	}
	struct gfifo *q = &g->fq[g->fq_of[tr]];
	if (q->h && q->h == q->n)
		q->h = q->n = 0;
	if (q->n == q->cap && q->h > q->n / 2) { /* the consumed half goes */
		memmove(q->v, q->v + q->h, (q->n - q->h) * sizeof(*q->v));
		q->n -= q->h;
		q->h = 0;
	}
	pt_xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	q->v[q->n++] = (struct gcall){ s, e, name, kind };
	g->nch++;
}

/* The waiting call with the earliest start (NULL: none); *qi its queue. */
static const struct gcall *call_top(const struct gs *g, size_t *qi)
{
	if (!g->ordered)
		return g->nch ? &g->ch[0] : NULL;
	const struct gcall *best = NULL;
	for (size_t k = 0; k < g->nhtrk; k++) {
		const struct gfifo *q = &g->fq[k];
		if (q->h < q->n && (!best || q->v[q->h].s < best->s))
			best = &q->v[q->h], *qi = k;
	}
	return best;
}

static struct gcall call_pop(struct gs *g, size_t qi)
{
	if (!g->ordered)
		return heap_pop(g);
	g->nch--;
	return g->fq[qi].v[g->fq[qi].h++];
}

/* Up to where t2 is final on every device of the host's rank (windows apart: measured in order). */
static int64_t t2_final(const struct gs *g)
{
	int64_t f = INT64_MAX;
	for (size_t q = 0; q < g->nhd && !g->dev_done; q++) {
		const struct gdev *d = g->hd[q];
		if (!d->rd->win_apart)
			return INT64_MIN;
		if (d->wf < d->rd->nwin && d->rd->win[d->wf].s < f)
			f = d->rd->win[d->wf].s;
	}
	return f;
}

/* The calls and ranges that start before `below` (none still to come starts earlier) and whose windows
 * are measured, in start order: each call's exposed time |t2 ∩ call| by its name (LAUNCH_BOUND), and the
 * union R of the calls that meet t2 (a call that meets none adds nothing to |t2 ∩ R|); the unions R ∪ D
 * and R ∪ D ∪ H with the Dataloader ranges D and the other ranges H: the in-memory pass's t2 − R, then
 * − D, measured by difference (|t2 ∩ D − R| = |t2 ∩ (R ∪ D)| − |t2 ∩ R|, and so on). */
static void host_release(struct gs *g, int64_t below)
{
	int64_t fin = t2_final(g);
	const struct gcall *top;
	size_t qi = 0;
	while ((top = call_top(g, &qi)) && top->s < below && top->e <= fin) {
		struct gcall c = call_pop(g, qi);
		bool meets = c.kind != GC_CALL;
		for (size_t q = 0; q < g->nhd && c.kind == GC_CALL; q++) {
			int64_t x = t2_in(g->hd[q], c.s, c.e);
			if (x)
				*pt_hashmap_put(&g->hd[q]->apisum, c.name, 0, NULL) += (uint64_t)x;
			meets |= x != 0;
		}
		int64_t a, b;
		if (!meets)
			continue;
		if (c.kind == GC_CALL && hx_u_add(&g->ru, c.s, c.e, &a, &b))
			r_closed(g, 0, a, b);
		if (c.kind != GC_RANGE && hx_u_add(&g->ru2, c.s, c.e, &a, &b))
			r_closed(g, 1, a, b);
		if (hx_u_add(&g->ru3, c.s, c.e, &a, &b))
			r_closed(g, 2, a, b);
	}
	/* no call still to come, waiting or in the open union reaches before `upto`: the windows that end
	 * there are done with (their t2 goes) */
	int64_t upto = below < fin ? below : fin;
	if ((top = call_top(g, &qi)) && top->s < upto)
		upto = top->s;
	if (g->ru.open && g->ru.us < upto)
		upto = g->ru.us;
	if (g->ru2.open && g->ru2.us < upto)
		upto = g->ru2.us;
	if (g->ru3.open && g->ru3.us < upto)
		upto = g->ru3.us;
	for (size_t q = 0; q < g->nhd; q++) {
		struct gdev *d = g->hd[q];
		const struct rankdata *rd = d->rd;
		for (; rd->win_apart && d->t2f < rd->nwin && rd->win[d->t2f].e <= upto; d->t2f++)
			pt_ivset_free(&d->t2[d->t2f]);
	}
}

static bool step_event(const struct gs *g, uint64_t gi)
{
	size_t lo = 0, hi = g->nsev;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (g->sev[mid] < gi)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nsev && g->sev[lo] == gi;
}

/* Event i of the batch, when it is a call or a range (not a step's) of the host that meets the windows;
 * a Dataloader range that starts in W counts for INPUT_BOUND (hx_rd_init in memory). */
static void host_event(struct gs *g, const struct pt_model *m, size_t i)
{
	const struct pt_events *ev = &m->events;
	uint32_t tr = ev->track[i];
	uint8_t k = ev->kind[i];
	if ((k != PT_EV_API && k != PT_EV_RANGE) || m->tracks.v[tr].device != g->host)
		return;
	struct gtr *t = &g->t[tr];
	int64_t os = ev->start[i], oe = os + ev->dur[i];
	if (t->left)
		t->left--;
	if (!t->seen || os > t->top)
		t->top = os;
	t->seen = true;
	uint8_t kind = GC_CALL;
	if (k == PT_EV_RANGE) {
		if (step_event(g, g->base + i))
			return;
		kind = pt_steps_is_dataloader(pt_model_strget(m, ev->name[i])) ? GC_LOADER : GC_RANGE;
		if (kind == GC_LOADER && pt_ivset_contains(&g->hrd->W, os)) {
			g->has_loader = true;
			g->loader_wall += ev->dur[i];
		}
	}
	if (oe > g->lo && os < g->hi && oe > os)
		call_push(g, tr, os, oe, ev->name[i], kind);
}

static int host_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct gs *g = arg;
	for (size_t i = 0; i < m->events.n; i++)
		host_event(g, m, i);
	host_release(g, watermark(g, g->htrk, g->nhtrk));
	g->base += m->events.n;
	return 0;
}

/* ---- the reads ---------------------------------------------------------------------- */

/* The first read's batches: the communication ranges (gcomm.c) and the names USE_DDP and DDP_WITHOUT_NCCL
 * count (gddp.c). */
static void comm_scan(void *arg, const struct pt_model *m, uint64_t base)
{
	struct gs *g = arg;
	hx_gcomm_scan(&g->cscan, m, base);
	g->kp.comm |= g->cscan.any; /* (--comm-pattern's Operator ranges) */
	hx_gddp_scan(&g->ddp, m);
}

/* The host's ranges: every one is read by the stream. */
static bool ranges_stream(void *arg, const struct pt_model *m)
{
	(void)arg;
	(void)m;
	return true;
}

/* After the first read: MEMORY_NEAR_CAPACITY's figures, then the memory records go (what the join
 * and the later reads hold comes after them). */
static void take_tables(void *arg, struct pt_model *m)
{
	struct gs *g = arg;
	if (g->kp.whole)
		return;
	g->gmem = pt_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*g->gmem));
	hx_gmem_measure(m, g->gmem);
	if (m->gpu_mem_pack) {
		pt_gpu_mem_pack_free(m->gpu_mem_pack);
		free(m->gpu_mem_pack);
		m->gpu_mem_pack = NULL;
	}
	pt_vec_free(&m->gpu_mem);
	pt_vec_free(&m->gpu_pools);
}

static int again(const struct pt_ptm_source *src, struct pt_model *m, struct gs *g,
		 int (*batch)(void *, struct pt_model *, struct pt_err **), unsigned skip_cols, struct pt_err **e)
{
	g->base = 0;
	struct pt_ptm_sink k = { batch, g, true, true };
	int rc = pt_ptm_source_read_cols(src, m, &k, skip_cols, e);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

/* Tracks: count what read 3 (activities of d's devices) or read 4 (the host's calls) will deliver. */
static void tracks_reset(struct gs *g)
{
	for (size_t t = 0; t < g->ntrk; t++)
		g->t[t] = (struct gtr){ g->kp.lag[t].count, false, 0 };
}

/* Read 3 over the windows of rds: the figures of every covered device (c->sdev, c->srank). */
static int dev_read(const struct pt_ptm_source *src, struct pt_model *m, struct gs *g, struct pt_steps_info *si,
		    struct rankdata *rds, struct gdev *dv, struct pt_err **e)
{
	struct ctx *c = g->c;
	size_t nd = m->devices.n;
	const struct pt_hint_knobs *k = c->k;
	for (size_t i = 0; i < si->n; i++) {
		const struct rankdata *rd = &rds[i];
		struct hx_srank *sr = &c->srank[i];
		sr->first = pt_xmalloc((rd->nwin + 1) * sizeof(*sr->first));
		sr->last = pt_xmalloc((rd->nwin + 1) * sizeof(*sr->last));
		for (size_t w = 0; w < rd->nwin; w++)
			sr->first[w] = INT64_MAX, sr->last[w] = INT64_MIN;
		for (size_t j = 0; j < si->r[i].ndevs && !si->r[i].ascend; j++) { /* (Ascend ranks: hx_beside) */
			uint32_t dev = si->r[i].devs[j];
			struct gdev *x = &dv[dev];
			x->out = &c->sdev[dev];
			x->out->measured = true;
			x->out->gpu = true;
			x->sr = sr;
			x->rd = rd;
			/* windows apart: no state per window in the breakdowns, their runs summed over W */
			x->bd = rd->win_apart ? pt_bdstream_new_runs(bd_run0, x) : pt_bdstream_new(rd->win, rd->nwin, 0);
			x->may_rv = g->kp.dev_mark && g->kp.dev_mark[dev];
			if (x->may_rv)
				x->rv = rd->win_apart ? pt_bdstream_new_runs(bd_run1, x) : pt_bdstream_new(rd->win, rd->nwin, 0);
			if (!rd->win_apart)
				x->w = pt_xcalloc(rd->nwin ? rd->nwin : 1, sizeof(*x->w));
			x->t2 = pt_xcalloc(rd->nwin ? rd->nwin : 1, sizeof(*x->t2));
			x->j = pt_steps_gkeep_host(&g->kp, &si->r[i])->j;
			x->cr = g->multi ? &si->r[i] : g->r;
			x->called = pt_xcalloc(x->j->n / 64 + 1, sizeof(*x->called));
			struct launchdata *l = &x->out->l;
			l->qd_cut = (int64_t)llround(k->queue_delay_us * 1000);
			l->rt_cut = (int64_t)llround(k->runtime_us * 1000);
			g->of[dev] = x;
		}
	}
	tracks_reset(g);
	for (size_t t = 0; t < g->ntrk; t++) {
		struct gdev *y = g->of[m->tracks.v[t].device];
		if (!g->t[t].left || !y || m->tracks.v[t].device == g->host)
			continue;
		pt_xgrow((void **)&y->trk, &y->ctrk, y->ntrk + 1, sizeof(*y->trk));
		y->trk[y->ntrk++] = (uint32_t)t;
	}
	/* the host's calls in the same read (read 4 takes them when their windows are not apart, or too
	 * many wait for their windows); the coverage may still make read 3 run again, without them */
	g->dev_done = false;
	g->merged = !g->no_merge && g->r && host_setup(g, dv, g->r);
	for (size_t q = 0; q < g->nhd && g->merged; q++)
		g->merged = g->hd[q]->rd->win_apart; /* else t2 is final only at the end */
	if (!g->merged)
		host_end(g);
	int rc = again(src, m, g, dev_batch, PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	for (size_t dev = 0; dev < nd && !rc; dev++)
		if (g->of[dev])
			dev_finish(g->of[dev], g->kw);
	g->dev_done = true;
	return rc;
}

/* The devices of the host's rank r whose t2 the host's calls meet, their windows' bounds, the host's
 * tracks; false when none has windows. */
static bool host_setup(struct gs *g, struct gdev *dv, const struct pt_rank_steps *r)
{
	g->hd = pt_xcalloc(r->ndevs ? r->ndevs : 1, sizeof(*g->hd));
	g->nhd = 0;
	for (size_t j = 0; j < r->ndevs; j++) {
		struct gdev *d = &dv[r->devs[j]];
		const struct rankdata *rd = d->rd;
		if (!rd || !rd->nwin)
			continue;
		for (size_t w = 0; w < rd->nwin; w++) {
			if ((!g->nhd && !w) || rd->win[w].s < g->lo)
				g->lo = rd->win[w].s;
			if ((!g->nhd && !w) || rd->win[w].e > g->hi)
				g->hi = rd->win[w].e;
		}
		pt_hashmap_init(&d->apisum);
		free(d->wdl); /* (without Dataloader ranges R ∪ D is R: every window's difference 0) */
		d->wdl = r->ndl ? pt_xcalloc(rd->nwin, sizeof(*d->wdl)) : NULL;
		g->hrd = rd;
		g->hd[g->nhd++] = d;
	}
	g->htrk = pt_xcalloc(g->ntrk ? g->ntrk : 1, sizeof(*g->htrk));
	g->fq_of = pt_xcalloc(g->ntrk ? g->ntrk : 1, sizeof(*g->fq_of));
	g->nhtrk = 0;
	g->ordered = true;
	for (size_t t = 0; t < g->ntrk; t++)
		if (g->m->tracks.v[t].device == g->host && g->kp.lag[t].count) {
			g->ordered &= g->kp.lag[t].lag == 0;
			g->fq_of[t] = (uint32_t)g->nhtrk;
			g->htrk[g->nhtrk++] = (uint32_t)t;
		}
	g->fq = pt_xcalloc(g->nhtrk ? g->nhtrk : 1, sizeof(*g->fq));
	host_reset(g);
	if (!g->nhd)
		host_end(g);
	return g->nhd > 0;
}

/* Start the calls' sums again (none measured yet). */
static void host_reset(struct gs *g)
{
	g->nch = 0;
	for (size_t k = 0; k < g->nhtrk; k++)
		g->fq[k].h = g->fq[k].n = 0;
	g->ru = g->ru2 = g->ru3 = (struct hx_openu){ 0, 0, false };
	g->has_loader = false;
	g->loader_wall = 0;
	for (size_t q = 0; q < g->nhd; q++) {
		struct gdev *d = g->hd[q];
		d->rt = d->rd2 = d->rd3 = 0;
		if (d->wdl)
			memset(d->wdl, 0, d->rd->nwin * sizeof(*d->wdl));
		pt_hashmap_free(&g->hd[q]->apisum);
		pt_hashmap_init(&g->hd[q]->apisum);
	}
}

/* Every call came (ok): the last ones, then each device's runtime time and exposed time per API. */
static void host_end_ok(struct gs *g)
{
	host_release(g, INT64_MAX);
	int64_t a, b;
	if (hx_u_end(&g->ru, &a, &b))
		r_closed(g, 0, a, b);
	if (hx_u_end(&g->ru2, &a, &b))
		r_closed(g, 1, a, b);
	if (hx_u_end(&g->ru3, &a, &b))
		r_closed(g, 2, a, b);
	struct hx_srank *sr = &g->c->srank[g->ri];
	sr->has_loader = g->has_loader;
	sr->loader_wall = g->loader_wall;
	for (size_t q = 0; q < g->nhd; q++) {
		struct gdev *d = g->hd[q];
		const struct rankdata *rd = d->rd;
		struct devacc *x = &d->out->a;
		x->runtime_t = d->rt;
		x->dl_t = d->rd2 - d->rt;
		x->cpu_t = d->rd3 - d->rd2;
		x->other_t -= x->memcpy_t + x->memset_t + x->runtime_t + x->dl_t + x->cpu_t;
		x->has_worst = false; /* the window with the largest share of Dataloader time, as in memory */
		for (size_t w = 0; w < rd->nwin; w++) {
			double dp = hx_pct(d->wdl ? d->wdl[w] : 0, rd->win[w].e - rd->win[w].s);
			if (!x->has_worst || dp > x->worst_dl_pct) {
				x->has_worst = true;
				x->worst_dl_pct = dp;
				x->worst_dl_step = rd->winnum[w];
			}
		}
		for (size_t k = 0; k < d->apisum.cap; k++) /* sorted by a total order later */
			if (d->apisum.used[k])
				hx_nl_get_api(g->c, &d->out->apis, (uint32_t)d->apisum.keys[k])->a += (int64_t)d->apisum.vals[k];
	}
}

static void host_end(struct gs *g)
{
	for (size_t q = 0; q < g->nhd; q++)
		pt_hashmap_free(&g->hd[q]->apisum);
	free(g->hd);
	g->hd = NULL;
	g->nhd = 0;
	for (size_t k = 0; g->fq && k < g->nhtrk; k++)
		free(g->fq[k].v);
	free(g->fq);
	g->fq = NULL;
	free(g->fq_of);
	g->fq_of = NULL;
	free(g->htrk);
	g->htrk = NULL;
	g->nhtrk = 0;
	g->nch = 0;
}

/* Read 4 (when read 3 did not take them): the host's calls against t2 of each device of the host's rank. */
static int host_read(const struct pt_ptm_source *src, struct pt_model *m, struct gs *g, struct gdev *dv,
		     const struct pt_rank_steps *r, struct pt_err **e)
{
	int rc = 0;
	if (!g->merged) {
		if (!host_setup(g, dv, r))
			return 0;
		tracks_reset(g);
		rc = again(src, m, g, host_batch, PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	}
	if (!rc)
		host_end_ok(g);
	host_end(g);
	return rc;
}

/* The host of GPU rank i of si, whose calls and ranges read 4 (or read 3) measures, and the events of its
 * step ranges (sorted), which count in neither D nor H. */
static void host_rank(struct gs *g, struct pt_steps_info *si, size_t i)
{
	g->r = &si->r[i];
	g->host = g->r->host;
	g->ri = i;
	g->sev = pt_xrealloc(g->sev, (g->r->n ? g->r->n : 1) * sizeof(*g->sev));
	g->nsev = 0;
	for (size_t j = 0; j < g->r->n; j++)
		if (g->r->v[j].ev != SIZE_MAX)
			g->sev[g->nsev++] = g->r->v[j].ev;
	qsort(g->sev, g->nsev, sizeof(*g->sev), pt_u64_cmp);
}

static void srank_free(struct hx_srank *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		free(s[i].first);
		free(s[i].last);
	}
	free(s);
}

int hx_gstream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_hint_knobs *k,
	       const struct pt_hints_opts *o, const struct hx_beside *ab, struct pt_hints *out, struct pt_model **whole,
	       struct pt_diag *d, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	*whole = NULL;
	pt_xmap_big(); /* the reads free large blocks (the first read's buffers, the memory records) */
	struct gs g;
	memset(&g, 0, sizeof(g));
	g.kp.mark_kernel = recv_kernel;
	g.kp.tables = take_tables;
	g.kp.host_ranges = ranges_stream;
	g.kp.comm_ranges = true; /* (gcomm.c) */
	g.kp.scan = comm_scan;
	g.kp.arg = &g;
	g.kp.hosts = true;
	g.cscan.re = o ? o->comm_re : NULL;
	g.cscan.demangle = o && !o->no_demangle;
	struct pt_model *m = NULL;
	struct pt_steps_info si;
	/* the reads after the first replay its event batches, when small (as steps' own tape would) */
	struct pt_ptm_tape tape = { .limit = PT_STEPS_TAPE_MAX, .events_only = true };
	struct pt_ptm_source own = { .path = src->path, .tap = src->tap, .tape = &tape };
	if (!pt_ptm_source_once(src))
		src = &own;
	if ((ab ? pt_steps_gstream_keep_mixed : pt_steps_gstream_keep)(src, sel, &m, &si, &g.kp, whole, d, e) ||
	    *whole) {
		free(g.gmem);
		hx_gcomm_scan_free(&g.cscan);
		hx_gddp_free(&g.ddp);
		pt_ptm_tape_free(&tape);
		return *whole ? 0 : -1;
	}
	pt_events_free_columns(&m->events);
	memset(&m->events, 0, sizeof(m->events));
	hx_gcopies_take(&g.cp, m);
	g.m = m;
	g.multi = g.kp.nh > 1;
	g.no_merge = g.multi; /* (read 4 takes each host's calls in turn) */
	g.ntrk = g.kp.ntrk;
	g.t = pt_xcalloc(g.ntrk ? g.ntrk : 1, sizeof(*g.t));
	g.nstr = m->strings.n;
	g.kname = pt_xcalloc(g.nstr ? g.nstr : 1, 1);
	g.tcname = pt_xcalloc(g.nstr ? g.nstr : 1, 1);
	g.lapi = pt_xcalloc(g.nstr ? g.nstr : 1, 1);
	g.kw = k->idle_kernel_wait_gap_ns;
	const char *cap = getenv("PT_TEST_HINTS_CALLS_CAP");
	g.cap = cap ? (size_t)strtoull(cap, NULL, 10) : MERGED_CAP;
	g.host = PT_NONE;
	/* the GPU ranks of a host: one host, its last such rank (hr[nhr - 1]); several, each in turn */
	size_t *hr = pt_xmalloc((si.n ? si.n : 1) * sizeof(*hr)), nhr = 0;
	for (size_t i = 0; i < si.n; i++)
		if (!si.r[i].ascend && si.r[i].host != PT_NONE)
			hr[nhr++] = i;
	size_t h0 = g.multi || !nhr ? 0 : nhr - 1;
	if (nhr)
		host_rank(&g, &si, hr[nhr - 1]);
	struct pt_hints_opts dflt = { .unit = PT_TU_DEFAULT };
	struct ctx c = { .m = m, .k = k, .o = o ? o : &dflt, .h = out, .sel_device = sel ? sel->device : -1 };
	g.c = &c;
	size_t nd = m->devices.n;
	c.fig = pt_flops_op_figs(m);
	c.gmem = g.gmem;
	/* the hosts whose Tensor Core ranges count: the one host's, or each GPU rank's */
	uint32_t *hosts = pt_xmalloc((nhr ? nhr : 1) * sizeof(*hosts));
	size_t nhosts = 0;
	for (size_t q = h0; q < nhr; q++)
		hosts[nhosts++] = si.r[hr[q]].host;
	qsort(hosts, nhosts, sizeof(*hosts), pt_u32_cmp);
	size_t nuh = 0;
	for (size_t q = 0; q < nhosts; q++)
		if (!nuh || hosts[nuh - 1] != hosts[q])
			hosts[nuh++] = hosts[q];
	int rc = g.host != PT_NONE ? hx_gops_read(src, m, k, hosts, nuh, &g.ops, e) : 0;
	free(hosts);
	const struct pt_ljoin **hj = pt_xmalloc((g.kp.nh ? g.kp.nh : 1) * sizeof(*hj)); /* (no links: the hosts' joins) */
	for (size_t h = 0; h < g.kp.nh; h++)
		hj[h] = g.kp.h[h].j;
	if (!rc && g.kp.comm)
		rc = hx_gcomm_read(src, m, &g.cscan, hj, g.kp.linkbit ? 0 : g.kp.nh, &g.comm, e);
	hx_gcomm_scan_free(&g.cscan);
	for (int pass = 0; !rc; pass++) {
		/* the first pass widens the coverage; when it leaves steps uncovered, the windows shrink: again;
		 * and again without the calls when read 3 gave them up too late (lost) */
		g.cover = pass == 0 && g.r;
		for (size_t q = h0; g.cover && q < nhr; q++)
			pt_steps_gkeep_start(&g.kp, &si.r[hr[q]]);
		struct rankdata *rds = pt_xcalloc(si.n ? si.n : 1, sizeof(*rds));
		for (size_t i = 0; i < si.n; i++)
			hx_rd_init(&c, &si.r[i], &rds[i]);
		g.of = pt_xcalloc(nd ? nd : 1, sizeof(*g.of));
		c.sdev = pt_xcalloc(nd ? nd : 1, sizeof(*c.sdev));
		c.srank = pt_xcalloc(si.n ? si.n : 1, sizeof(*c.srank));
		for (size_t i = 0; i < si.n; i++)
			hx_gddp_rank(&g.ddp, si.r[i].host, &c.srank[i]);
		struct gdev *dv = pt_xcalloc(nd ? nd : 1, sizeof(*dv));
		rc = dev_read(src, m, &g, &si, rds, dv, e);
		bool redo = false;
		for (size_t q = h0; !rc && g.cover && q < nhr; q++) {
			pt_steps_gkeep_covered(&si.r[hr[q]]);
			redo |= pt_steps_partly_covered(&si.r[hr[q]]);
		}
		if (!rc && g.lost) {
			redo = true;
			g.no_merge = true;
			g.lost = false;
		}
		if (!rc && !redo && g.r) { /* read 4 (unless read 3 measured the calls), without the join */
			for (size_t h = 0; h < g.kp.nh; h++)
				pt_ljoin_free(g.kp.h[h].j);
			hx_gcopies_free(&g.cp);
			free(g.kp.linkbit);
			g.kp.linkbit = NULL;
			for (size_t q = h0; q < nhr && !rc; q++) {
				if (g.multi)
					host_rank(&g, &si, hr[q]);
				rc = host_read(src, m, &g, dv, g.r, e);
			}
			for (size_t dev = 0; dev < nd && !rc; dev++) {
				struct launchdata *l = &c.sdev[dev].l;
				if (dv[dev].out) {
					l->n = dv[dev].dl[0].n;
					l->nld = dv[dev].dl[1].n;
					l->ncpu = dv[dev].dl[2].n;
					hx_qvals_take(&dv[dev].dl[0], l->qd_q);
					hx_qvals_take(&dv[dev].dl[1], l->ld_q);
					hx_qvals_take(&dv[dev].dl[2], l->cpu_q);
				}
			}
		} else {
			host_end(&g);
			g.merged = false;
		}
		for (size_t dev = 0; dev < nd; dev++)
			gdev_free(&dv[dev]);
		free(dv);
		free(g.of);
		g.of = NULL;
		for (size_t i = 0; i < si.n; i++)
			hx_rd_free(&rds[i]);
		free(rds);
		if (rc || !redo)
			break;
		for (size_t dev = 0; dev < nd; dev++)
			hx_sdev_free(&c.sdev[dev]);
		free(c.sdev);
		srank_free(c.srank, si.n);
	}
	if (!rc && ab) /* the Ascend ranks' figures (stream.c) */
		rc = ab->fn(ab->arg, src, m, &c, &si, e);
	size_t nsi = si.n;
	rc = hx_stream_end(&c, &si, c.sdev ? nd : 0, rc, d, e);
	srank_free(c.srank, nsi);
	free(hr);
	free(g.ch);
	free(g.sev);
	free(g.gmem);
	free(g.t);
	free(g.kname);
	free(g.tcname);
	free(g.lapi);
	hx_gops_free(&g.ops);
	hx_gcopies_free(&g.cp);
	hx_gcomm_free(&g.comm);
	free(hj);
	hx_gddp_free(&g.ddp);
	pt_steps_gkeep_free(&g.kp);
	pt_model_free(m);
	pt_ptm_tape_free(&tape);
	return rc;
}
