/*
 * The breakdown of fixed windows into computation, communication, overlap
 * and free time (index.h, struct pt_breakdown) for one device, from its
 * intervals fed one at a time in nearly start order: the streamed
 * counterpart of pt_index_breakdown() for a pass that reads a model as a
 * stream (the steps of `steps`; later a timeline or hints).
 *
 * The windows are known before the first interval (a rank's step windows,
 * say) and may overlap. The device's computation (class 1) and
 * communication (class 2) intervals come in any order within a bound the
 * caller knows (per track, the lag of a first read, support/lag.h): they
 * wait in a pending set until pt_bdstream_release() says no later interval
 * starts before a time, and are then swept into three unions (C, M, C ∪ M)
 * whose measure up to each window end point is all that is kept. So the
 * state is the windows and the pending intervals, never the unions.
 *
 * Marks count points (an execution's start) per window, [s, e) as
 * count_in() of the in-memory steps pass does: in any order, no lag needed.
 */
#ifndef PT_BREAKDOWN_STREAM_H
#define PT_BREAKDOWN_STREAM_H
#include <stddef.h>
#include <stdint.h>

#include "model/index.h"
#include "support/interval.h"

struct pt_bdstream;

/* The measures of one window: |C ∩ W|, |M ∩ W|, |(C ∪ M) ∩ W| and |W|; sums of several windows add up. */
struct pt_bdsums {
	int64_t comp, comm, either, total;
};

/* nwin windows [s, e) (copied; an empty or reversed one measures 0) and nmarks kinds of marks. */
struct pt_bdstream *pt_bdstream_new(const struct pt_ival *win, size_t nwin, size_t nmarks);
/* No windows: instead, each run of the three unions (k 0: C, 1: M, 2: C ∪ M) goes to run(arg, k, a, b)
 * once final, in start order per union, so that a caller with disjoint windows sums them itself (no
 * state per window here); no marks. */
struct pt_bdstream *pt_bdstream_new_runs(void (*run)(void *arg, int k, int64_t a, int64_t b), void *arg);
void pt_bdstream_free(struct pt_bdstream *s);
/* An interval of class 1 (computation) or 2 (communication); others are ignored. Its start must not
 * lie before the last pt_bdstream_release() bound. */
void pt_bdstream_add(struct pt_bdstream *s, int cls, int64_t start, int64_t end);
/* No interval added from now on starts before `below`: sweep the pending ones that do. */
void pt_bdstream_release(struct pt_bdstream *s, int64_t below);
/* A point of mark kind k (< nmarks) at time t. */
void pt_bdstream_mark(struct pt_bdstream *s, size_t k, int64_t t);
/* Every interval was added: sweep the rest. Then the queries below answer. */
void pt_bdstream_finish(struct pt_bdstream *s);
/* The measures of window i; its marks of kind k in [s, e); all marks of kind k. */
void pt_bdstream_window(const struct pt_bdstream *s, size_t i, struct pt_bdsums *out);
uint64_t pt_bdstream_count(const struct pt_bdstream *s, size_t i, size_t k);
uint64_t pt_bdstream_marks(const struct pt_bdstream *s, size_t k);
/* Intervals waiting now, and the most that ever waited at once. */
size_t pt_bdstream_pending(const struct pt_bdstream *s, size_t *peak);
/* The breakdown from (summed) measures, as pt_index_breakdown_set() gives it. */
void pt_bdsums_breakdown(const struct pt_bdsums *m, struct pt_breakdown *out);

#endif
