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

#include "model/model.h"
#include "pass/pass-timeline.h"
#include "support/interval.h"
#include "support/vec.h"
#include "table/trace.h"

#define TL_TID_BASE 100000000u
#define TL_MAX_REL ((int64_t)1 << 53)

enum { NM_RAW, NM_DEMANGLE, NM_API, NM_LAST, NM_N };

enum row_type { R_TRACK, R_SLICE, R_IV };
enum sl_kind { SL_STEPS, SL_SCOPE, SL_COMM };

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
	uint32_t first_tid; /* for counters */
	bool used;
	bool device;        /* kineto: a GPU/NPU process (labels, sort index 5000000 + id) */
	uint32_t devid;
};

struct flow {
	uint32_t api, act; /* event indexes */
	uint32_t id;
	uint32_t srow, frow;
	int64_t sts, fts;  /* rel */
};

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
	PT_VEC(struct flow) flows;
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

/* pass-timeline-layout.c */
uint32_t tl_device_rank(const struct pt_device *dv);
/* Stable sort of the flow indexes idx[0 .. n) by key k (FK_*); tmp has room for n. */
enum { FK_API, FK_STS, FK_SROW, FK_FTS, FK_FROW, FK_ACT };
void tl_flow_sort_by(const struct flow *v, uint32_t *idx, size_t n, int k, struct pt_ival *tmp);

/* pass-timeline-flows.c: the flows (needs the rows and base) and the counter groups (needs the processes' rows) */
void tl_build_flows(struct tl_trace *c);
void tl_build_counters(struct tl_trace *c);

/* pass-timeline-gpuann.c: the kineto profile's gpu_user_annotation events (needs the rows and ev_keep),
 * their sources (one per row, phase PH_G), an item's ts and event (returns the range event) */
void tl_build_gpu_annotations(struct tl_trace *c);
void tl_gpu_annotation_sources(struct tl_trace *c);
int64_t tl_gpu_annotation_ts(const struct tl_trace *c, uint32_t i);
uint32_t tl_gpu_annotation_event(const struct tl_trace *c, uint32_t i, struct pt_trace_ev *out);

/* pass-timeline-events.c */
void tl_events_init(struct tl_trace *c);
void tl_events_free(struct tl_trace *c);
void tl_build_sources(struct tl_trace *c);

#endif
