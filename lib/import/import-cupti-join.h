/*
 * The CUPTI importer's joins (cupti.md §6): each GPU activity to the API
 * call that launched it, through its correlation id, and each such call to
 * the innermost NVTX range enclosing it. They keep what they need of the
 * calls and activities beside the events, never the events themselves,
 * which the streaming import may already have encoded and dropped.
 *
 * An activity whose correlation id already has a call is joined at once; one
 * that comes before its call waits. A call whose correlation id another call
 * also has (a repeated id, or a runtime call after a driver call of the same
 * id, which wins) has its activities joined again at the end, by the rule of
 * cupti.md §6.3: the latest such call that started before the activity, else
 * the earliest; of calls that start together, the first in the dump. Those
 * calls are sorted once and searched, so an id repeated n times costs
 * O(n log n), not n^2. Memory follows the calls and activities, not the
 * range of their ids (see pt_cjoin in import-cupti-join.c).
 */
#ifndef PT_IMPORT_CUPTI_JOIN_H
#define PT_IMPORT_CUPTI_JOIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_model;
struct pt_cjoin;

/* An NVTX range as the join sees it. */
struct pt_cjoin_range {
	int64_t start, end;
	uint32_t track;
	uint32_t event;   /* its event index */
	bool thread;      /* on its thread's track (else process-wide) */
	bool instant;     /* a mark: encloses nothing */
};

struct pt_cjoin_stats {
	uint64_t gpu_before_api, gpu_without_api, kernels_without_launch, corr_dup;
};

/* A join for one dump: its links are m->links from m->links.n on. */
struct pt_cjoin *pt_cjoin_new(struct pt_model *m);
/*
 * A join that knows beforehand which correlation ids its activities carry
 * (the CUPTI importer reads a dump's activities once before its records):
 * after pt_cjoin_filter(), only the calls whose id pt_cjoin_want() named are
 * kept; the others, most calls of a real trace, are only counted (repeated
 * ids) and cost a bit in a bitmap of the ids, not 10 to 20 bytes each. An
 * activity whose id was not wanted then finds no call.
 */
void pt_cjoin_filter(struct pt_cjoin *j);
void pt_cjoin_want(struct pt_cjoin *j, uint32_t corr);
/* An API call: event index ev on host-thread track `track`; drv: a driver call. */
void pt_cjoin_call(struct pt_cjoin *j, bool drv, uint32_t corr, uint32_t ev, uint32_t track, int64_t start);
/* A GPU activity (event index ev): corr2 is its runtimeCorrelationId (copies), tried when corr has no call. */
void pt_cjoin_activity(struct pt_cjoin *j, uint32_t ev, int64_t start, uint32_t corr, uint32_t corr2, bool kernel);
/*
 * Join what waits, join again what shares its id, drop the activities
 * without a call, and set each link's range from rs[0, nr): the ranges
 * sorted by start, longer first, then in marker order. Counts go to *st.
 */
void pt_cjoin_finish(struct pt_cjoin *j, const struct pt_cjoin_range *rs, size_t nr, struct pt_cjoin_stats *st);
void pt_cjoin_free(struct pt_cjoin *j);

#endif
