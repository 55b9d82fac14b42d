/*
 * The views of proftool summary (summary.md §3), one descriptor each, one
 * file each (view-<name>.c). A view fills, per rank, rows of its data table
 * (the CSV/JSON columns after "rank", which columns() adds) and its boxed
 * text tables, from the rank's host model (ranks.c), the index, or the sums
 * its add() made over the events. Adding a view: its file with its descriptor, a row in
 * driver.c's sum_views[], and its enum pt_summary_view value and name in
 * pass-summary.h / driver.c.
 */
#ifndef PT_PASS_SUMMARY_VIEW_H
#define PT_PASS_SUMMARY_VIEW_H
#include "pass/summary/summary.h"

enum {
	SV_DEFAULT = 1u, /* printed when --view is not given */
	SV_LAUNCH = 2u,  /* reads the launching call of GPU device activities: streamed, the launch reads
			    (stream-launch.c) find them */
	SV_FLAT = 4u,    /* reads neither host ranges nor launch links: a GPU rank with host ranges streams it */
	/* the unions of streamed ranks it reads, which sums.c sums for every view that asks (sum_shared_add) */
	SV_UNION = 8u,      /* device activities of the stream tracks, in start order (struct asc: pq, ov) */
	SV_UNION_NPU = 16u, /* the same, of Ascend ranks only */
	SV_KERNELS = 32u,   /* per GPU of a streamed GPU rank, its kernels in start order (struct gdev) */
	SV_ALL = 64u,       /* its add() reads every event of the rank (struct sum_batch: all) */
};

struct sum_view {
	enum pt_summary_view id;
	const char *name;
	unsigned flags;
	/* the data table's columns after "rank" */
	void (*columns)(struct pt_table *t);
	/* rank r's rows of the data table t and its text tables tx[0] (and tx[1]); multi: several ranks */
	void (*emit)(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi);
	/* its per-event sums (NULL: none) over a batch of the events of a rank with sums (Ascend ranks, and
	 * GPU ranks when streamed: r->asc), in model order; emit() reads them */
	void (*add)(struct rank *r, const struct sum_batch *b);
};

extern const struct sum_view *const sum_views[PT_SV_COUNT];
/* The views (bit per enum pt_summary_view) with every flag of `flags`. */
unsigned sum_views_with(unsigned flags);

extern const struct sum_view sum_view_device, sum_view_overview, sum_view_model, sum_view_distributed,
	sum_view_operator, sum_view_kernel, sum_view_memcpy, sum_view_userdefined, sum_view_optype, sum_view_aicpu,
	sum_view_gpu, sum_view_api;

#endif
