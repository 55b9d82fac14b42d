/*
 * `proftool dataset`: MindData pipeline and queue analysis (ascend.md §3.11,
 * hints.md MD_* rules). Views, in order: ops, queues, stages, batches (only
 * when per-batch time records exist), hints. Every view carries a `device`
 * column (the device id) before its `evidence` column.
 *
 * The figures (collapsed tree, queue usage, CPU per worker, the two
 * bottleneck filters, the queue verdict) are computed in one place,
 * pt_dataset_figures() (dataset-figures.h), which the MD_* hint rules
 * (lib/pass/hints/rules-md.c) read; the `hints` view is their records,
 * ungated. ascend.md §3.11 wants the figures in the model's index; moving
 * them there is left to the index owner (the functions are pure over the
 * model).
 */
#ifndef PT_PASS_DATASET_H
#define PT_PASS_DATASET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_table;

enum pt_md_rules { PT_MD_RULES_CURRENT = 0, PT_MD_RULES_2020 = 1 };

/* Thresholds, keys of hints.md §5. Percentages 0-100, fractions 0-1. */
struct pt_dataset_knobs {
	enum pt_md_rules queue_rules;    /* hints.md_queue.rules */
	double queue_empty_pct;          /* hints.md_queue.empty_pct (30; 70 under 2020) */
	bool queue_empty_set;
	enum pt_md_rules pipeline_rules; /* hints.md_pipeline.rules */
	double pl_high, pl_low, pl_delta;/* hints.md_pipeline.high/.low/.delta */
	bool pl_high_set, pl_low_set;
	double cpu_busy_pct;             /* hints.md_cpu.busy_pct */
	double op_cpu_high_pct, op_cpu_low_pct, op_leaf_usage_pct, op_devq_empty_pct, op_queue_gap_pts,
		op_in_usage_floor_pct;   /* hints.md_op.* */
};

void pt_dataset_knobs_init(struct pt_dataset_knobs *k);
/*
 * Set one `--hint KEY=VALUE`. Returns 0 when set, 1 for a valid key of
 * hints.md §5 that dataset does not read (accepted, ignored), -1 for an
 * unknown key or a bad value, with *why (malloc'd) saying which.
 */
int pt_dataset_knob_set(struct pt_dataset_knobs *k, const char *key, const char *value, char **why);
/* Check the knobs together (low > high is an error). 0 ok, -1 with *why. */
int pt_dataset_knobs_check(const struct pt_dataset_knobs *k, char **why);

/* Display name of an op type: the type minus a trailing "Op". */
size_t pt_dataset_display_len(const char *type);

/*
 * Build the views. device: a device id to keep, -1 = all. Fails when a
 * pipeline tree in the model is not a tree (a model not written by the
 * importer). *tables is malloc'd, each table freed with pt_table_free.
 */
/*
 * The events the views read (model/ptm-picked.h): the get_next records
 * (PT_EV_GETNEXT), in model order; a pt_ptm_pick batch callback (arg
 * unused) for a read that keeps no other event.
 */
struct pt_events;
int pt_pass_dataset_pick(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e);

int pt_pass_dataset(const struct pt_model *m, int64_t device, const struct pt_dataset_knobs *k,
		    struct pt_table ***tables, size_t *ntables, struct pt_err **e);

#endif
