/*
 * What goes on which row of `proftool timeline` (chrome-trace.md §10):
 * the synthetic rows that are not model tracks. Per device: the `Steps` row,
 * the `Scope L<d>` rows (ascend.md §3.7, keyed by full path prefix, Q40), the
 * Ascend `Communication` row (step-trace reduce pairs) and the four overlap
 * rows, taken from the index's C and M (never recomputed here); and the GPU
 * memory counter groups (model/gpu-memory-series.h).
 *
 * From these and the model, pt_tl_trace_new() lays out the trace a writer
 * formats (table/trace.h): processes, rows, flows, counters, the clock and
 * its base, and a stream of finished events in output order.
 */
#ifndef PT_PASS_TIMELINE_H
#define PT_PASS_TIMELINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/gpu-memory-series.h"
#include "pass/select.h"
#include "support/interval.h"
#include "support/ivpack.h"
#include "support/vec.h"
#include "table/trace.h"

struct pt_model;
struct pt_index;
struct pt_err;
struct pt_diag;
struct pt_tl_stream;
struct pt_tl_gstream;

/* One slice of a synthetic row. The meaning of `name` and `aux` depends on the row. */
struct pt_tl_slice {
	int64_t start, end;
	uint32_t name;  /* string id: scope rows: the full name of the first op; comm: op name */
	uint32_t count; /* scope: ops in the slice; steps: activities; comm: stream id */
	uint32_t step;  /* step number, 0 = none */
	uint32_t aux;   /* comm: start tag; steps: index into model steps + 1 (0 = none) */
	int64_t busy;   /* steps: |union of the step's activities| (-1 unknown) */
};

struct pt_tl_row {
	PT_VEC(struct pt_tl_slice) s;
};

enum { PT_TL_OV_COMP, PT_TL_OV_COMM, PT_TL_OV_PURE_COMM, PT_TL_OV_FREE, PT_TL_OV_N };

/*
 * An overlap row as sets: w − (a ∪ b); a and b may be empty, none is NULL.
 * All canonical. Where pw, pa or pb is set, that set is the packed one
 * (support/ivpack.h, a streamed timeline's) instead of w, a or b.
 */
struct pt_tl_ovsrc {
	const struct pt_ivset *w, *a, *b;
	const struct pt_ivpack *pw, *pa, *pb;
};

/* A cursor over one set of an overlap row (plain or packed): its current interval v while has. */
struct pt_tl_ivc {
	const struct pt_ivset *s;
	const struct pt_ivpack *p;
	size_t i;
	struct pt_ivpack_cur pc;
	struct pt_ival v;
	bool has;
};

/* The intervals of an overlap row in order (pt_tl_ovit_init, then pt_tl_ovit_next until false). */
struct pt_tl_ovit {
	struct pt_tl_ovsrc src;
	struct pt_tl_ivc a, b, w; /* a ∪ b: the next intervals of a and b; w: the interval of w being cut */
	struct pt_ival cur;       /* a ∪ b: the current joined interval, if have */
	bool have;
	int64_t s;                /* the start of w's interval still to emit, if in */
	bool in;
};
void pt_tl_ovit_init(struct pt_tl_ovit *it, const struct pt_tl_ovsrc *src);
bool pt_tl_ovit_next(struct pt_tl_ovit *it, struct pt_ival *out);
/* An overlap row as a set (for tests and small callers); out is reset first. */
void pt_tl_overlap_set(const struct pt_tl_ovsrc *src, struct pt_ivset *out);

/* A step window [s, e) of a device, numbered `step`. */
struct pt_tl_win {
	int64_t s, e;
	uint32_t step;
	uint32_t model_step; /* index into model steps + 1, 0 = a host step range */
};

struct pt_tl_device {
	uint32_t dev;                /* device index */
	PT_VEC(struct pt_tl_win) win; /* disjoint step windows in start order (all steps) */
	bool win_shared;             /* win is another device's (the host step windows of one rank): not freed here */
	struct pt_tl_row steps;      /* `Steps` */
	struct pt_tl_row *scope;     /* `Scope L0` .. `Scope L<depth-1>` */
	struct pt_tl_row comm;       /* Ascend `Communication` (empty when no reduce pairs) */
	bool has_overlap;
	/*
	 * The overlap rows, made on demand (pt_tl_ovit_*) rather than held:
	 * row k is ov[k].w − (ov[k].a ∪ ov[k].b), of sets held here or the
	 * index's C and M (computation C ∩ W, communication M ∩ W, pure
	 * communication (M ∩ W) − C, free time W − (C ∪ M)).
	 */
	struct pt_tl_ovsrc ov[PT_TL_OV_N];
	struct pt_ivset overlap[PT_TL_OV_N];   /* storage: C ∩ W and M ∩ W where W does not cover them */
	struct pt_ivset ovw;                   /* storage: W */
	struct pt_ivpack povl[2];              /* streamed: C ∩ W and M ∩ W, packed, where W does not cover them */
	/*
	 * GPU devices with CUPTI memory records: the memory counter groups of
	 * chrome-trace.md §7 (Memory, Managed memory, Pinned memory, one per
	 * pool), samples at strictly increasing times, each with all the
	 * group's series. They replace the importer's per-series memory
	 * counter tracks of the device in the trace.
	 */
	struct pt_gms gmem;
};

struct pt_tl_opts {
	uint32_t scope_depth;      /* 0 = no scope rows */
	bool overlap;              /* compute the overlap rows */
	/*
	 * The trace will be the kineto profile: a streamed GPU model keeps what
	 * that profile reads beyond the viewer's (the copies' kinds and sizes, the
	 * arrows at the starts) and is read whole where the profile needs more of
	 * it (host ranges, several ranks).
	 */
	bool kineto;
	bool kineto_extra;         /* kineto: with the viewer's rows (--extra-tracks), which read the devices' unions */
	/*
	 * Kept time T (--time-window, relative to the model's origin, select.h),
	 * kept steps (--steps) and the step-name pattern (host ranges whose
	 * whole name matches it are steps). sel.device is not read: a raw
	 * PATH is narrowed to --device at import.
	 */
	struct pt_sel sel;
};

struct pt_tl {
	uint32_t scope_depth;
	size_t ndev;
	struct pt_tl_device *dev;    /* one per model device, same index */
	uint64_t scope_skipped;
	/*
	 * Per model event its step number (0 = none), read with pt_tl_ev_step():
	 * as a 16-bit code into step_code (the distinct step numbers of the
	 * windows, code 0 = none) when there are fewer than 65,536 of them, else
	 * in full in ev_step.
	 */
	uint16_t *ev_code;
	uint32_t *step_code;
	uint32_t *ev_step;
	uint8_t *ev_keep;            /* per model event: bit 0 kept (steps / window), bit 1 a host step range */
	bool has_window;             /* --time-window: [win_s, win_e) absolute */
	int64_t win_s, win_e;
	struct pt_sel_res sr;        /* the selection resolved against the model's origin */
	/* A streamed timeline (pt_tl_stream_new): the per-event arrays above are NULL. */
	struct pt_tl_stream *stream;
	/* A streamed timeline of a GPU model (pt_tl_gstream_new): the same. */
	struct pt_tl_gstream *gstream;
};

static inline uint32_t pt_tl_ev_step(const struct pt_tl *t, size_t i)
{
	return t->ev_code ? t->step_code[t->ev_code[i]] : t->ev_step[i];
}

/* 0, or -1 with *e set (a step pattern that does not compile). */
int pt_pass_timeline(const struct pt_model *m, struct pt_index *x, const struct pt_tl_opts *o, struct pt_tl **out,
		     struct pt_err **e);
void pt_tl_free(struct pt_tl *t);

struct pt_tl_trace_opts {
	const char *trace_name; /* MODEL or PATH as given (named in warnings) */
	/*
	 * PT_TRACE_KINETO: the dialect of PyTorch's profiler for HTA
	 * (chrome-trace.md §11, cupti.md §7) for the devices of one rank
	 * (`rank`); no synthetic rows but the Ascend steps (and, with
	 * extra_tracks, the viewer's), no counters.
	 */
	enum pt_trace_profile profile;
	uint32_t rank;
	bool flows;             /* launch arrows */
	bool demangle;          /* demangle C++ names */
	bool extra_tracks;      /* kineto: the viewer's synthetic rows too (Steps, scope, Communication, overlap) */
};

/*
 * The trace of m as data (table/trace.h; chrome-trace.md): the clock (a
 * device whose clock has no recorded offset to it is left out, with a note
 * in diag), rows laid out, flows and counters, and the event stream, which
 * reads m, x and tl: they must outlive the trace. 0, or -1 with *e set
 * (times beyond int64 or 2^53 ns apart in the export clock).
 */
int pt_tl_trace_new(const struct pt_model *m, struct pt_index *x, const struct pt_tl *tl,
		    const struct pt_tl_trace_opts *o, struct pt_diag *diag, struct pt_trace **out, struct pt_err **e);
void pt_tl_trace_free(struct pt_trace *t);

/*
 * The timeline of a .ptm file read as a stream (pass-timeline-stream.c):
 * its tables read into *m (no events), the pass run over its events in two
 * reads, and a pt_tl whose trace (pt_tl_trace_new, with no index) reads the
 * events a third time (again on each rewind, and for each rank's file of
 * the kineto profile) as the writer takes them. 0; PT_TL_NOSTREAM, nothing
 * made, when the model must be read whole (events other than Ascend tasks, correlation ids, a track
 * whose kept events are not in strictly increasing start order); -1 with *e
 * set (a file that cannot be read, or a bad step pattern).
 */
#define PT_TL_NOSTREAM 1
int pt_tl_stream_new(const char *path, const struct pt_tl_opts *o, struct pt_model **m, struct pt_tl **out,
		     struct pt_err **e);
void pt_tl_stream_free(struct pt_tl_stream *s);
/* The selection's notes (pt_sel_check) for a streamed timeline's model, from what its first read saw. */
void pt_tl_stream_check_sel(const struct pt_tl *tl, const struct pt_model *m, const struct pt_sel *sel,
			    struct pt_diag *d);

/*
 * The timeline of a GPU model file read as a stream (pass-timeline-gstream.c;
 * proftool-timeline(1) MEMORY): as pt_tl_stream_new, for a model of CPU and GPU
 * devices (host ranges, runtime calls, kernels, copies, syncs), in four reads
 * and again for each rewind of the writer; flows: the launch arrows will be
 * asked for (their ends are gathered as the events are read). PT_TL_NOSTREAM
 * where the model must be read whole (Ascend data, host ranges that make a
 * kernel communication, --steps on a model of several processes, whose notes
 * need the events, pass-timeline-gsel.h; with o->kineto also GPU user
 * annotations, which need every link and host range, range infos out of
 * event order, and host ranges of several processes). A model of several
 * processes is written by one read per process (each one's events follow the
 * other's in the file), the kineto profile's file of a rank by its
 * processes' reads.
 */
int pt_tl_gstream_new(const char *path, const struct pt_tl_opts *o, bool flows, struct pt_model **m,
		      struct pt_tl **out, struct pt_err **e);
void pt_tl_gstream_free(struct pt_tl_gstream *g);
/* The selection's notes for a streamed GPU timeline's model, from what its first two reads saw. */
void pt_tl_gstream_check_sel(const struct pt_tl *tl, const struct pt_model *m, const struct pt_sel *sel,
			     struct pt_diag *d);

/* The distinct ranks of the model's devices, ascending; *out is malloc'd. */
size_t pt_tl_ranks(const struct pt_model *m, uint32_t **out);

/* Step number of the window containing t, 0 = none. */
uint32_t pt_tl_step_at(const struct pt_tl_device *d, int64_t t);

/* Scope input op: one member device activity with a full name. */
struct pt_tl_scope_op {
	int64_t start, end;
	const char *name; /* full name */
	uint32_t name_id; /* copied into the slices */
	uint32_t step;    /* step number of the op, 0 = none */
};

/*
 * Scope rows of chrome-trace.md §10.2 over ops (reordered in place by
 * (start asc, end desc, name)). Ops whose first segment is not one of the
 * roots Default, Gradients, recompute_Default, or that start with
 * Default/InitDataSetQueue, are ignored. rows[0..depth-1] receive the slices;
 * *skipped counts ops not shown at a level (rule 3).
 */
void pt_tl_scopes(struct pt_tl_scope_op *ops, size_t n, uint32_t depth, struct pt_tl_row *rows, uint64_t *skipped);

/*
 * Segment `level` of a `/` path: *off and *len of the segment; the key (full
 * prefix) is name[0 .. *off + *len). Returns false when the name has no
 * scope segment at that level (the last segment is the op, not a scope).
 */
bool pt_tl_scope_segment(const char *name, uint32_t level, size_t *off, size_t *len);

/* Is this full op name a scope-bearing name (root Default/Gradients/recompute_Default)? */
bool pt_tl_scope_root(const char *name);

#endif
