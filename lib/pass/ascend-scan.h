/*
 * The first read of an Ascend model that a pass streams (`steps` and `perf`:
 * pass-steps-stream.c; `hints`: hints/stream.c; `flops`: pass-flops.c): what the events of each batch
 * say about their tracks and devices, kept as a fixed amount of state per
 * track and device, so that the step windows, the selection's checks and a
 * second read's lag watermark follow without the events.
 *
 * Per track: whether it runs a task of a framework op (an unnamed task on
 * such a stream computes, pt_index_task_class) and, with PT_ASCAN_LAG, how
 * far its device tasks' starts (tasks, AI CPU ops, kernels) fall behind the
 * latest one (support/lag.h); per device, with PT_ASCAN_DEV, its scan
 * (struct pt_steps_devscan: spans, whether it runs tasks); per track and
 * kind below PT_ASCAN_NKIND, with PT_ASCAN_REPS, the events that hold its
 * earliest start, latest start and latest end (they stand for the events in
 * pt_steps_collect() and pt_sel_check()); and the events' first start and
 * last end. The caller's sink decides first whether a batch can stream
 * (pt_ascan_streamable).
 *
 * The second read's watermark: per track, the device tasks still to come
 * and the latest start so far (struct pt_ascan_next); the earliest start a
 * task of a device still to come can have follows from its tracks' lags
 * (pt_ascan_watermark).
 */
#ifndef PT_ASCEND_SCAN_H
#define PT_ASCEND_SCAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "support/lag.h"

struct pt_steps_devscan;

#define PT_ASCAN_DEV 1u
#define PT_ASCAN_LAG 2u
#define PT_ASCAN_REPS 4u
#define PT_ASCAN_NKIND (PT_EV_GETNEXT + 1) /* the kinds of a streamed Ascend model's events */

struct pt_ascan_trk {
	bool named;        /* runs a task of a framework op */
	struct pt_lag lag; /* its device tasks' starts (PT_ASCAN_LAG) */
};

/* Events that stand for a (track, kind) pair's: earliest start, latest start, latest end (start, dur). */
struct pt_ascan_rep {
	bool has;
	int64_t s[3], d[3];
};

struct pt_ascan {
	unsigned what;                /* PT_ASCAN_* bits */
	struct pt_ascan_trk *trk;     /* per track */
	size_t ntrk;
	struct pt_steps_devscan *dev; /* per device (PT_ASCAN_DEV) */
	size_t ndev;
	struct pt_ascan_rep *rep;     /* per track x PT_ASCAN_NKIND (PT_ASCAN_REPS) */
	bool has_ev;
	int64_t ev_s, ev_e;           /* first start, last end (start + dur) */
	uint64_t nev;                 /* events scanned */
};

/* A device task: a task, an AI CPU op or a kernel (the events whose starts the lag follows). */
static inline bool pt_ascan_is_dev_task(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_AICPU || k == PT_EV_KERNEL;
}

/* Can the events of m stream as an Ascend model's: no CPU or GPU device, no host range records, no
 * launch links (GPU ranks join launches by correlation id)? */
bool pt_ascan_streamable(const struct pt_model *m);
/* Has m Ascend devices beside CPU and GPU ones, and no other kind (a model of Ascend and GPU data)? */
bool pt_ascan_mixed(const struct pt_model *m);

/* What a first read's sink returns for a batch that shows the model cannot stream (a batch for which
 * pt_ascan_streamable is false): the caller reads it again whole. */
#define PT_ASCAN_AGAIN 3

struct pt_ptm_source;
struct pt_err;
/* The outcome of a first read (pt_ptm_source_read) that returned rc after nbatch streamable event
 * batches into m: 0, stream it; PT_PTM_WHOLE, no event batch came and m is the whole model;
 * PT_ASCAN_AGAIN, read it again whole; -1 with *e set: a bad or truncated input, or CUPTI side tables
 * in a model whose events stream as an Ascend model's. */
int pt_ascan_first_rc(int rc, const struct pt_model *m, size_t nbatch, const struct pt_ptm_source *src,
		      struct pt_err **e);

void pt_ascan_init(struct pt_ascan *a, unsigned what);
/* Size the arrays to m's tracks and devices (a batch does it itself). */
void pt_ascan_fit(struct pt_ascan *a, const struct pt_model *m);
/* Scan m's events (one batch of a streaming read). */
void pt_ascan_batch(struct pt_ascan *a, const struct pt_model *m);
void pt_ascan_free(struct pt_ascan *a);

/* A track in the second read (PT_ASCAN_LAG): its device tasks still to come, the latest start so far. */
struct pt_ascan_next {
	uint64_t left;
	bool seen;
	int64_t top;
};
/* Per track of a (a->ntrk of them, to free): none seen, every device task still to come. */
struct pt_ascan_next *pt_ascan_next_new(const struct pt_ascan *a);
/* A device task of the track starts at st. */
static inline void pt_ascan_next_add(struct pt_ascan_next *t, int64_t st)
{
	if (t->left)
		t->left--;
	if (!t->seen || st > t->top)
		t->top = st;
	t->seen = true;
}
/* The earliest start a device task still to come on tracks trk[0..n) can have (per track: its latest
 * start less its lag, or its first start while none came; INT64_MAX: none comes). */
int64_t pt_ascan_watermark(const struct pt_ascan *a, const struct pt_ascan_next *t, const uint32_t *trk, size_t n);

#endif
