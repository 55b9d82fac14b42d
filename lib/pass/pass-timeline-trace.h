/*
 * Inside the timeline pass's trace (table/trace.h): the layout
 * (pass-timeline-layout.c: clock, processes, rows, base; pass-timeline-flows.c:
 * flows and counters) and the event stream (pass-timeline-events.c: names, the k-way merge,
 * every event's fields in either profile). Not for other files.
 */
#ifndef PT_PASS_TIMELINE_TRACE_H
#define PT_PASS_TIMELINE_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/model.h"
#include "model/ptm-turns.h"
#include "pass/pass-timeline.h"
#include "support/idmap.h"
#include "support/ivpack.h"
#include "support/xalloc.h"
#include "support/interval.h"
#include "support/vec.h"
#include "table/trace.h"

#define TL_TID_BASE 100000000u
#define TL_MAX_REL ((int64_t)1 << 53)

enum { NM_RAW, NM_DEMANGLE, NM_API, NM_LAST, NM_N };

enum row_type { R_TRACK, R_SLICE, R_IV };

/* The fields of a model event that its viewer-profile trace event reads (a streamed row keeps these). */
struct tl_sev {
	int64_t start, dur;
	uint64_t task, corr;
	uint32_t name, op, step; /* step number, 0 none */
	uint8_t kind, keep;      /* keep: pt_tl.ev_keep's bits */
	uint8_t kx;              /* a streamed kineto profile's host range: TL_KX_* (pass-timeline-krange.h), its id in task */
	uint32_t ev;             /* its index in the model file (a sync event's arguments; 0 where never read) */
	uint32_t kconf;          /* a kernel's m->kernel_configs index + 1 ("grid", "block"), 0 = none */
};
enum sl_kind { SL_STEPS, SL_SCOPE, SL_COMM, SL_KSTEPS /* kineto: host-side ProfilerStep#<n> slices */ };

struct row {
	uint32_t pid;
	uint32_t tid;
	int32_t sort;
	uint32_t lane;
	int64_t order;     /* secondary order within equal sort (first event, stream id) */
	char *name;        /* thread name (lane suffix added) */
	uint8_t type, slkind;
	uint32_t level;    /* scope level / overlap kind */
	uint32_t dev;
	uint32_t track;
	int64_t off;       /* clock offset of the device to the export clock */
	uint32_t *idx;     /* items: event indexes (R_TRACK), slice indexes (R_SLICE); NULL for R_IV (item k = iv[k]) */
	size_t n;
	bool ranged;       /* lo, hi: min start and max end of the items (in the row's clock) */
	int64_t lo, hi;
	const struct pt_tl_slice *sl;
	struct ivgen *iv;  /* R_IV: the overlap row's intervals, made as read */
	bool host;
	/* a streamed track row (idx NULL): its events read and not yet written, a ring of qcap from qh */
	struct tl_sev *q;
	size_t qh, qn, qcap;
	int64_t qlast;     /* the start of the last one written (lo before the first) */
	char tname[32];    /* R_TRACK: "task <stream>_", the start of an unnamed task's name */
	uint8_t tname_len;
};

/* An overlap row's intervals made in order as the merge reads them (again from the first on a rewind). */
struct ivgen {
	struct pt_tl_ovsrc src;
	struct pt_tl_ovit it;
	size_t made;        /* intervals made so far */
	struct pt_ival cur; /* the last one made (index made - 1) */
};

/* Interval k of a generated row: k is the last one made, the next, or (after a rewind) an earlier one. */
static inline const struct pt_ival *tl_iv_at(struct ivgen *g, size_t k)
{
	if (g->made > k + 1) {
		pt_tl_ovit_init(&g->it, &g->src);
		g->made = 0;
	}
	while (g->made <= k) {
		pt_tl_ovit_next(&g->it, &g->cur);
		g->made++;
	}
	return &g->cur;
}

/* Item k of a row: an event index (R_TRACK), a slice index (R_SLICE) or an interval index (R_IV, k itself). */
static inline uint32_t tl_row_item(const struct row *r, size_t k)
{
	return r->type == R_IV ? (uint32_t)k : r->idx[k];
}

struct proc {
	uint32_t pid;
	char *name;
	char *labels;       /* its process_labels, NULL: none (kineto: "CPU" for a host process) */
	uint32_t first_tid; /* for counters */
	bool used;
	bool device;        /* kineto: a GPU/NPU process (labels, sort index 5000000 + id) */
	uint32_t devid;
};

/* A launch arrow while the arrows are made (c->flows). */
struct flow {
	uint32_t api, act; /* event indexes */
	uint32_t srow, frow;
	int64_t sts, fts;  /* rel */
};
/* A launch arrow as the trace holds it (c->arrows, after tl_flows_order): arrow k has the id k + 1. */
struct tl_arrow {
	uint32_t srow, frow;
	int64_t sts, fts; /* rel */
};
/* The same once the sources group the arrows by row (c->arrow_ts, after tl_build_sources): its two times. */
struct tl_arrow_ts {
	int64_t sts, fts; /* rel */
};
/*
 * The arrows' two times as tl_build_sources packs them (in place of the arrows, forward): per block of
 * TL_ATB consecutive ids, the first one's call time (base: the calls' times do not fall with the ids); per
 * arrow its call time after base (32 bits) and its activity's time from its call's (signed 32 bits), 8
 * bytes an arrow; a block whose times do not fit so has them whole in wide (wat: its place there, else
 * UINT32_MAX).
 */
#define TL_ATB_BITS 8
#define TL_ATB (1u << TL_ATB_BITS)
struct tl_arrow_dt {
	uint32_t ds;
	int32_t df;
};
struct tl_arrow_times {
	int64_t *base;          /* per block */
	uint32_t *wat;          /* per block */
	struct tl_arrow_dt *d;  /* per arrow */
	struct tl_arrow_ts *wide; /* TL_ATB per wide block */
	size_t nwide;
};
/* An arrow while tl_build_sources groups them by row: its rows and packed times (16 bytes). */
struct tl_arrow_rt {
	uint32_t srow, frow;
	struct tl_arrow_dt t;
};
/* Arrow id's call time (f: its activity's), its packed times d. */
static inline int64_t tl_arrow_time_at(const struct tl_arrow_times *at, uint32_t id, struct tl_arrow_dt d, bool f)
{
	uint32_t b = id >> TL_ATB_BITS, w = at->wat[b];
	if (w != UINT32_MAX) {
		const struct tl_arrow_ts *x = &at->wide[(size_t)w * TL_ATB + (id & (TL_ATB - 1))];
		return f ? x->fts : x->sts;
	}
	int64_t s = at->base[b] + (int64_t)d.ds;
	return f ? s + d.df : s;
}

struct csrc { /* a counter group: queue samples of one track */
	uint32_t track, pid, tid;
	int64_t off;
	uint32_t *idx;     /* sample indexes, time order */
	size_t n;
	char *name;
	bool queue;        /* series "size" (int) vs "value" (double) */
	bool carry0;       /* the first sample is the last one before the window, shown at its start */
	int64_t carry_t;
	const struct pt_gms_group *grp; /* a GPU memory group of the timeline pass: idx are its samples */
};

/* Time of sample k of a counter group (before the window carry). */
static inline int64_t csrc_time(const struct pt_model *m, const struct csrc *cs, size_t k)
{
	uint32_t i = cs->idx[k];
	return cs->grp ? cs->grp->time.v[i] : cs->queue ? m->queues.time[i] : m->counters.time[i];
}

/* Merge order of the phases at equal ts (PH_I is not written; PH_G: gpu_user_annotation, an X event). */
enum { PH_X, PH_G, PH_I, PH_C, PH_S, PH_F };

struct src {
	uint8_t ph;
	uint32_t pid, tid;
	uint32_t ref;      /* row / counter / flow-row index */
	size_t pos, n;
	uint32_t *items;   /* for flows: indexes into the flows */
	uint32_t key;      /* rank of (ph, pid, tid, source index) among the sources */
};

/*
 * The merge key of a source's current item: (rel ts << 32) | src->key, one
 * integer comparison for the order (ts, ph, pid, tid, source index). rel ts
 * is >= 0; DONE marks an exhausted source. Narrow keys: (rel ts << kbits) |
 * src->key in 64 bits, used when the sources and the span fit (nearly
 * always), which halves the cost of a comparison.
 */
typedef unsigned __int128 mkey;
#define MKEY_DONE (~(mkey)0)
#define NKEY_DONE UINT64_MAX

static inline mkey mkey_of(int64_t ts, uint32_t key)
{
	return (mkey)(uint64_t)ts << 32 | key;
}

/* A user annotation on a stream row (pass-timeline-gpuann.c): the span of its activities there. */
struct tl_gann {
	uint32_t range; /* the host range event */
	uint32_t row;
	int64_t s, e;   /* model time */
};

/* A derived name of a string id (NM_*): text and length, s NULL until made. */
struct dname {
	const char *s;
	uint32_t n;
};

/* The input and output shape texts of an op, made once. */
struct opshape {
	bool made;
	uint32_t in_off, in_len, out_off, out_len;
};

struct tl_ksm;
struct tl_trace {
	struct pt_trace pub; /* first: what the writer sees */
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_tl *tl;
	struct pt_tl_trace_opts o;
	const char *clock;
	int64_t *dev_off;
	uint8_t *dev_ok;
	uint32_t *dev_pid, *dev_ovpid, *dev_rank;
	int64_t base;
	PT_VEC(struct proc) procs;
	PT_VEC(struct row) rows;
	PT_VEC(struct flow) flows; /* while made (tl_build_flows) */
	struct tl_arrow *arrows;   /* then, in id order (tl_flows_order) */
	struct tl_arrow_times arrow_ts; /* then, their rows in the sources, their times in place (tl_build_sources) */
	size_t narrows;
	PT_VEC(struct csrc) counters;
	PT_VEC(struct src) srcs;
	PT_VEC(struct tl_gann) ganns; /* kineto: gpu_user_annotation events, in (row, start) order */
	uint32_t *gann_idx;           /* 0 .. ganns.n - 1: the sources' items */
	uint32_t *flow_s, *flow_f; /* flow indexes grouped per source */
	struct dname *names[NM_N]; /* per string id, made on first use */
	char **demangled;          /* per string id: cplus_demangle's text (freed at the end) */
	uint8_t *nflags;           /* per string id: NF_* */
	struct opshape *opshapes;  /* per op */
	uint8_t *op_given;         /* per op: its argument group was handed out since the last rewind */
	uint8_t *row_given;        /* per row: the same for its row group */
	PT_VEC(char) shapetext;
	bool has_corr;      /* the model has correlation ids (else that column is all zero and never read) */
	bool kineto;
	bool host_steps;       /* the model has host step ranges (CUPTI): no device Steps rows */
	uint32_t *copy_of;     /* per event: m->copies index + 1 (memcpy, memset) */
	uint32_t *kconf_of;    /* per event: m->kernel_configs index + 1 (kernels) */
	struct tl_kext *kext;  /* kineto: External id, cbid, cpu_op (pass-timeline-kext.c) */
	struct tl_ksm *ksm;    /* kineto: per kernel configuration, its per-SM arguments (pass-timeline-events.c) */
	uint32_t *step_first, *step_last; /* per device: first and last step of its Steps row, 0 = none */
	uint64_t overflow, unaligned, unanchored;
	PT_VEC(int64_t) bounds; /* step boundaries (rel), sorted */
	PT_VEC(uint32_t) bound_step;
	/* the k-way merge: a tournament tree of losers over the sources */
	mkey *leaf;         /* per source (padded to a power of two): the key of its current item */
	uint64_t *leafn;     /* narrow: the same as 64-bit keys (leaf unused) */
	bool narrow;
	unsigned kbits;     /* narrow: the bits of src->key */
	uint32_t *tree;     /* tree[0]: the winner; tree[1..nleaf-1]: the loser at each node */
	size_t nleaf;
	int64_t span;       /* the largest rel ts of the sources' items */
	bool started;       /* the winner tree[0] was handed out and is advanced by the next call */
	/* streamed (pass-timeline-stream.c): per track the latest start read, where shas */
	const int64_t *shead;
	const uint8_t *shas;
	char built[192];    /* a name made for the current event */
	/* what pub points to */
	struct pt_trace_proc *pprocs;
	struct pt_trace_row *prows;
	struct pt_trace_counter *pcounters;
	struct pt_trace_rank *pranks;
	struct pt_trace_devprop *pdevprops;
};

static inline const char *tl_str(const struct tl_trace *c, uint32_t id)
{
	return pt_model_strget(c->m, id);
}

/*
 * Nesting lanes (§5.3): items in order with [s, e); each goes to the first lane
 * where it nests inside (or after) the stack top. One lane set per row, fed
 * item by item.
 */
struct lane_stack {
	int64_t *v; /* ends */
	size_t n, cap;
};

struct lanes {
	struct lane_stack first;   /* lane 0 */
	struct lane_stack *stacks; /* lanes 1..255, once a second lane is needed */
	uint32_t nl;
	uint64_t overflow;         /* items not on lane 0 */
};

static inline struct lane_stack *lane_stack(struct lanes *L, uint32_t l)
{
	if (!l)
		return &L->first;
	if (!L->stacks)
		L->stacks = pt_xcalloc(256, sizeof(*L->stacks));
	return &L->stacks[l];
}

static inline uint8_t lane_next(struct lanes *L, int64_t s, int64_t e)
{
	uint32_t l = 0;
	struct lane_stack *st = &L->first;
	/* lane 0 first, without the lane table: the common case */
	while (st->n && st->v[st->n - 1] <= s)
		st->n--;
	if (!L->nl) {
		L->nl = 1;
	} else if (st->n && e > st->v[st->n - 1]) {
		for (l = 1;; l++) {
			if (l == 255)
				break;
			if (l == L->nl) {
				L->nl++;
				break;
			}
			st = lane_stack(L, l);
			while (st->n && st->v[st->n - 1] <= s)
				st->n--;
			if (!st->n || e <= st->v[st->n - 1])
				break;
		}
		if (l == 255 && L->nl < 256)
			L->nl = 256;
		st = lane_stack(L, l);
	}
	pt_vec_push(st, e);
	if (l)
		L->overflow++;
	return (uint8_t)l;
}

static inline void lanes_free(struct lanes *L)
{
	pt_vec_free(&L->first);
	if (L->stacks)
		for (int k = 0; k < 256; k++)
			pt_vec_free(&L->stacks[k]);
	free(L->stacks);
}

/*
 * Per track, what the layout needs of its kept events: count, span, lanes,
 * whether they hold a step range, whether they come in strictly increasing
 * start order in the model (else slow: sorted) and, when sorted or read whole,
 * the events (idx) and their lanes; streamed, the items per lane instead.
 */
struct tl_tscan {
	size_t n;
	int64_t last, lo, hi;
	bool slow, steps;
	struct lanes L;
	uint32_t *idx;
	uint8_t *lane;
	uint64_t *lane_n; /* streamed: items of each of the 256 lanes, once a second lane is used */
};

/* Is the timeline streamed (its rows filled as the events are read again)? */
static inline bool tl_streamed(const struct pt_tl *t)
{
	return t->stream || t->gstream;
}

/* pass-timeline.c: the pass in steps, for a model read whole or streamed */
struct tl_dev_acc {
	bool on;              /* a non-CPU device */
	int64_t *mn, *mx;     /* per window: span of its kept activities */
	uint32_t *cnt;        /* per window: kept activities */
	uint32_t *canon;      /* per window: the first window with the same step number */
	int64_t span_s, span_e;
	PT_VEC(struct pt_tl_scope_op) sops;
};
struct tl_pass {
	const struct pt_model *m;
	const struct pt_tl_opts *o;
	struct pt_tl *t;
	uint32_t **wcode;     /* per device, per window: its step's code */
	struct tl_dev_acc *acc;
	size_t *tcur;         /* per track: a window cursor */
	size_t ntcur;
	uint8_t *is_step;     /* per event: a host step range */
	struct pt_idmap api;  /* correlation id -> start of the launching call */
	bool has_api, has_corr;
};
/* per_event: m holds every event, and the per-event arrays of pt_tl are made; else m holds none yet. */
int tl_pass_begin(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		  bool per_event, struct pt_err **e);
/* Event i of ev, event gi of the model, in model order; is it kept? */
bool tl_pass_event(struct tl_pass *p, const struct pt_events *ev, size_t i, size_t gi);
/* The same with its anchor given (a device activity's launching call's start, else its own start). */
bool tl_pass_event_at(struct tl_pass *p, const struct pt_events *ev, size_t i, size_t gi, int64_t anchor);
/* A host range that matches the step pattern, for tl_pass_begin_host: its span and name. */
struct tl_hrange {
	int64_t s, e;
	uint32_t name;
};
/* tl_pass_begin of a streamed model (per_event false) whose host step ranges are given, in model order. */
int tl_pass_begin_host(struct tl_pass *p, const struct pt_model *m, const struct pt_tl_opts *o, int64_t origin,
		       const struct tl_hrange *host, size_t nhost, struct pt_err **e);
/* A device's computation and communication unions: plain (C, M), or packed (pC, pM set). */
struct tl_sets {
	const struct pt_ivset *C, *M;
	const struct pt_ivpack *pC, *pM;
};
/* The rows from each device's sets (entries of CPU devices unread); frees the pass. */
struct pt_tl *tl_pass_finish(struct tl_pass *p, const struct tl_sets *sets);
void tl_pass_free(struct tl_pass *p);
/* Step number of an event of device d anchored at `anchor` (0 none), *keep its membership, *win its window's
 * upper bound; cur: a cursor per track. */
uint32_t tl_step_keep(const struct pt_tl *t, uint32_t d, int64_t anchor, int64_t start, int64_t dur, size_t *cur,
		      size_t *win, bool *keep);

/* pass-timeline-layout.c */
uint32_t tl_device_rank(const struct pt_device *dv);
/* The clock a device's times are in (pass-timeline-layout.c): devices of one clock move alike in a trace. */
const char *tl_dev_clock(const struct pt_device *d);
/* Stable sort of the arrow indexes idx[0 .. n) by fts; tmp has room for n / 2 + 1. */
void tl_flow_sort_fts(const struct tl_arrow_times *at, const struct tl_arrow_rt *v, uint32_t *idx, size_t n,
		      uint32_t *tmp);

/* pass-timeline-flows.c: the flows (needs the rows and base) and the counter groups (needs the processes' rows) */
void tl_build_flows(struct tl_trace *c);
/* The flows made (c->flows): ordered in place by (API arrow start, API event, activity event), which numbers
 * them, then packed in place to c->arrows (arrow k has the id k + 1); no scratch beyond the flows.
 * tl_build_sources then groups them by row and packs them again, to c->arrow_ts. */
void tl_flows_order(struct tl_trace *c);
/* Flows v[0 .. n) in that order, in place (left as they are when already so). */
void tl_flows_sort(struct flow *v, size_t n);
void tl_build_counters(struct tl_trace *c);

/* pass-timeline-gpuann.c: the kineto profile's gpu_user_annotation events (needs the rows and ev_keep),
 * their sources (one per row, phase PH_G), an item's ts and event (returns the range event) */
void tl_build_gpu_annotations(struct tl_trace *c);
/* Does the process of CPU device dev get them (not a Kineto trace's that had none)? */
bool tl_gpu_annotations_wanted(const struct pt_model *m, uint32_t dev);
void tl_gpu_annotation_sources(struct tl_trace *c);
/* What an annotation's event writes of its host range (the item's range; a streamed model's from its read). */
struct tl_gann_info {
	uint32_t name, step; /* string id; its step (a host step range's) */
	bool is_step;        /* a host step range (the step pattern matches its name) */
	bool has_xid;
	uint64_t xid;        /* its External id */
};
void tl_gpu_annotation_info(const struct tl_trace *c, uint32_t range, struct tl_gann_info *out);
int64_t tl_gpu_annotation_ts(const struct tl_trace *c, uint32_t i);
uint32_t tl_gpu_annotation_event(const struct tl_trace *c, uint32_t i, struct pt_trace_ev *out);

/* pass-timeline-stream.c: a streamed model's rows, filled as the events are read again */
struct tl_tscan *tl_stream_scan(struct pt_tl_stream *s);
const uint64_t *tl_stream_nev(const struct pt_tl_stream *s);
void tl_stream_bind(struct tl_trace *c);

void tl_stream_row_pop(struct tl_trace *c, struct row *r);
void tl_stream_rewind(struct tl_trace *c);
/* The next item's start of a streamed row, or (none read yet) a lower bound of it, in model time. */
static inline int64_t tl_stream_row_ts(const struct tl_trace *c, const struct row *r)
{
	if (r->qn)
		return r->q[r->qh].start;
	int64_t b = r->qlast;
	if (c->shas[r->track] && c->shead[r->track] > b)
		b = c->shead[r->track];
	return b;
}
/* Is source w a streamed row with events still to write? Has it read the next one? */
static inline bool tl_stream_live(const struct tl_trace *c, uint32_t w)
{
	if (w >= c->srcs.n)
		return false;
	const struct src *sc = &c->srcs.v[w];
	if (sc->ph != PH_X || sc->pos >= sc->n)
		return false;
	const struct row *r = &c->rows.v[sc->ref];
	return r->type == R_TRACK && !r->idx;
}
static inline bool tl_stream_has(const struct tl_trace *c, uint32_t w)
{
	return c->rows.v[c->srcs.v[w].ref].qn > 0;
}
/* Read one more batch of events to the rows; nonzero: the read ended or failed while a row still waits
 * (pt_trace.failed says why). */
int tl_stream_pull(struct tl_trace *c);
void tl_stream_unbind(struct tl_trace *c);

/* pass-timeline-stream.c: a streamed row's next event, queued */
void tl_row_push(struct row *r, const struct tl_sev *v);

/* pass-timeline-stream.c: a streamed model's rows bound to the trace that writes them (the Ascend and the GPU
 * streams alike) */
struct tl_rowbind {
	struct tl_trace *c;  /* the trace bound, or NULL */
	size_t nt;           /* tracks */
	uint32_t **lane_row; /* per track: the row of each lane (NULL: none; UINT32_MAX: a lane without a row) */
	struct lanes *L;     /* per track: the writing read's lanes */
	int64_t *head;       /* per track: no later event starts before this (valid where has_head) */
	uint8_t *has_head;
	/* the read that feeds the writer, in a thread of its own; one of the two runs at a time (the caller sets
	 * its path, model and sink) */
	struct pt_ptm_turns rd;
	bool failed;         /* the read ended or failed while a row still waited */
	struct pt_err *ferr; /* why, where it failed */
};
/* Bind the trace c's track rows (their lanes' rows, their queues empty from their lo); failed: c's pt_trace.failed. */
void tl_rowbind_bind(struct tl_rowbind *b, struct tl_trace *c, size_t nt, int (*failed)(struct pt_trace *, struct pt_err **));
/* Stop the read, free the rows' queues and what bind made (nothing where b is not bound to c). */
void tl_rowbind_unbind(struct tl_rowbind *b, struct tl_trace *c);
/* Read again from the start: the rows' queues, the lanes and the heads emptied. */
void tl_rowbind_rewind(struct tl_rowbind *b);
/* The read's next batch to the rows: 0, or 1 where the read ended (its error, if any, kept in b); with
 * eof_told, its first clean end is answered 0 once (the end may have released the last events). */
int tl_rowbind_pull(struct tl_rowbind *b, bool *eof_told);
/* The same from the read rd (b->rd, or another read feeding b's rows). */
int tl_rowbind_pull_rd(struct tl_rowbind *b, struct pt_ptm_turns *rd, bool *eof_told);
/* pt_trace.failed: 0, or -1 with why in *e (the read's error, or path changed while it was read). */
int tl_rowbind_failed(struct tl_rowbind *b, const char *path, struct pt_err **e);

/* pass-timeline-gstream.c: the same as tl_stream_* for a streamed GPU model */
struct tl_tscan *tl_gstream_scan(struct pt_tl_gstream *g);
const uint64_t *tl_gstream_nev(const struct pt_tl_gstream *g);
/* Is a host step range kept (the kineto profile's Steps rows are then the host's)? */
bool tl_gstream_host_steps(const struct pt_tl_gstream *g);
/* The kineto profile's GPU user annotations of a streamed model (pass-timeline-gpuann.c), or NULL. */
struct tl_gast *tl_gstream_gast(const struct pt_tl_gstream *g);
/* The kineto profile: per device its correlation ids' External ids (pass-timeline-kxmap.h), the stream's. */
struct tl_kxmap *tl_gstream_ext(const struct pt_tl_gstream *g);
void tl_gstream_bind(struct tl_trace *c);
void tl_gstream_unbind(struct tl_trace *c);
void tl_gstream_rewind(struct tl_trace *c);
/* row: the track row that waits (a model of several processes: its process's read is pulled) */
int tl_gstream_pull(struct tl_trace *c, uint32_t row);
/* The launch arrows from what the third read kept: c->flows, unordered (false), or c->arrows, ordered and
 * packed (true: the third read ordered them, their calls being on one device, whose clock moves them alike). */
bool tl_gstream_flows(struct tl_trace *c);

/* pass-timeline-kext.c: the kineto profile's External id, cbid and cpu_op (made by init, for that profile) */
void tl_kext_init(struct tl_trace *c);
void tl_kext_free(struct tl_trace *c);
/* The External id of event i: true and *id, or false when it has none. */
bool tl_kext_external_id(const struct tl_trace *c, uint32_t i, uint64_t *id);
/* The same from its device, kind and correlation id (a streamed event; i is read for a host range only). */
bool tl_kext_external_id_of(const struct tl_trace *c, uint32_t dev, uint8_t kind, uint64_t corr, uint32_t i,
			    uint64_t *id);
/* The cbid of an API call named by string id `name`: true and *cbid, or false when unknown. */
bool tl_kext_cbid(const struct tl_trace *c, uint32_t name, uint32_t *cbid);
/* Is range event i (v: its fields) an Operator range (Kineto's cpu_op)? A streamed GPU model: from v->kx. */
bool tl_kext_cpu_op(const struct tl_trace *c, const struct tl_sev *v, uint32_t i);
/* The External id of range event i on device dev (v: its fields): a streamed GPU model's from v->kx and v->task. */
bool tl_kext_range_id(const struct tl_trace *c, uint32_t dev, const struct tl_sev *v, uint32_t i, uint64_t *id);
/* A streamed GPU model's copy or set v: its copy info (kinds and bytes) in *tmp, from v->kx, kconf, task; or NULL. */
const struct pt_copy_info *tl_kext_copy_sev(const struct tl_sev *v, struct pt_copy_info *tmp);
/* A streamed model's copy infos in event order (pt_model_copy_info finds an event's; the last of several). */
void tl_kext_copies_in_order(struct pt_model *m);

/* pass-timeline-events.c */
void tl_events_init(struct tl_trace *c);
void tl_events_free(struct tl_trace *c);
void tl_build_sources(struct tl_trace *c);

#endif
