/*
 * proftool diff (proftool-diff(1)): two runs side by side.
 *
 * The pass takes, per side, the per-item aggregates another pass made (the
 * summary's operator, kernel, op-type and API views, read from its data
 * tables by the command) and the per-step stage averages (the `steps` avg
 * rows), matches the items by name after a normalisation
 * (pt_diff_normalize), and makes typed tables: the item table, the stage
 * table, the step-time row and the verdict (a greedy cover of the step-time
 * change). It prints nothing.
 */
#ifndef PT_PASS_DIFF_H
#define PT_PASS_DIFF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_table;

/* One side's aggregate of one item; min and max are meaningless when calls is 0. */
struct pt_diff_item {
	uint32_t rank;
	const char *name; /* NUL-terminated, as the run names it */
	int64_t calls, total, min, max;
};

/* One side's average of one step stage (a `steps` avg-row column). */
struct pt_diff_stage {
	uint32_t rank;
	const char *name;
	int64_t avg;
};

struct pt_diff_side {
	const struct pt_diff_item *items;
	size_t nitems;
	const struct pt_diff_stage *stages;
	size_t nstages;
	int64_t step_count;   /* selected steps, 0 = no step windows */
	int64_t step_total;   /* sum of their windows (ns) */
};

enum pt_diff_by { PT_DB_OP, PT_DB_OPTYPE, PT_DB_KERNEL, PT_DB_API, PT_DB_STEP, PT_DB_SCOPE };
extern const char *const pt_diff_by_names[]; /* indexed by enum pt_diff_by, NULL-terminated */

enum pt_diff_key {
	PT_DK_DELTA,      /* |delta total|, descending (default) */
	PT_DK_DELTA_PCT,  /* |relative delta of total|, descending; added/removed first */
	PT_DK_DELTA_AVG,  /* |delta avg|, descending */
	PT_DK_BASE_TOTAL, /* descending */
	PT_DK_TEST_TOTAL, /* descending */
	PT_DK_CALLS,      /* |delta calls|, descending */
	PT_DK_NAME,       /* ascending */
};
extern const char *const pt_diff_keys[]; /* indexed by enum pt_diff_key, NULL-terminated */

struct pt_diff_opts {
	enum pt_diff_by by;
	enum pt_diff_key key;
	bool exact;       /* --match exact: names compared as recorded */
	int64_t top;      /* < 0: every item row */
	int verdict_max;  /* most verdict rows of the step-time direction (default 5) */
};

void pt_diff_opts_init(struct pt_diff_opts *o);

/*
 * The matching key of a name (malloc'd). Normalised (exact false): in every
 * '/'-separated part a trailing "-op<digits>" is removed (MindSpore numbers
 * its ops per graph build), and parts that are graph ids, "kernel_graph<N>",
 * "kernel_graph_<N>" or "graph_<N>" (any case), are dropped with their '/'.
 * Exact: the name itself.
 */
char *pt_diff_normalize(const char *name, bool exact);
/* The scope of a normalised key: the part before its last '/', or "" when it has none. */
char *pt_diff_scope(const char *key);

struct pt_diff {
	struct pt_table *items;   /* "diff" (empty with --by step) */
	struct pt_table *stages;  /* "diff_stages"; NULL when no side has stages, unless by is step */
	struct pt_table *steps;   /* "diff_step_time": one row */
	struct pt_table *verdict; /* "diff_verdict" */
	size_t matched, added, removed;
	size_t shown;             /* item rows kept after --top */
	bool has_step_time;       /* both sides have steps */
	int64_t base_step, test_step; /* mean step time (ns) */
	double step_pct;          /* (test - base) / base * 100 */
	int64_t explained;        /* sum of the verdict rows of the step-time direction (ns per step) */
};

/* Columns of the verdict table. */
enum {
	PT_DV_KIND,      /* "regression" | "improvement" */
	PT_DV_ROLE,      /* "cause" (same direction as the step time) | "offset" */
	PT_DV_RANK,
	PT_DV_NAME,
	PT_DV_PER_STEP,  /* change per step, ns */
	PT_DV_SHARE,     /* percent of the step-time change */
	PT_DV_BASE_CALLS,
	PT_DV_TEST_CALLS,
	PT_DV_BASE_AVG,
	PT_DV_TEST_AVG,
	PT_DV_BASE_TOTAL,
	PT_DV_TEST_TOTAL,
	PT_DV_NCOLS,
};

int pt_pass_diff(const struct pt_diff_side *base, const struct pt_diff_side *test, const struct pt_diff_opts *o,
		 struct pt_diff *out, struct pt_err **e);
void pt_diff_free(struct pt_diff *d);

#endif
