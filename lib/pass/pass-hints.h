/*
 * `proftool hints` (hints.md): bottleneck rules over the model. The pass
 * reads the index (breakdown, C/M sets, per-track events), the step windows
 * of pt_steps_collect() and the MindData figures of pt_dataset_figures();
 * it calls no other pass's table builder.
 *
 * The rule table, the rules and their driver are in lib/pass/hints/ (see
 * hints-int.h). The records are table/hints.h; lib/export/export-hints.c
 * prints them.
 */
#ifndef PT_PASS_HINTS_H
#define PT_PASS_HINTS_H
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/pass-dataset.h"
#include "table/hints.h"
#include "table/table.h"

struct pt_diag;
struct pt_ds_dev;
struct pt_err;
struct pt_index;
struct pt_model;
struct pt_sel;

/* Rule ids in the order of hints.md §3 (the output order within a severity). */
enum pt_hint_rule {
	PT_HR_INPUT_BOUND,
	PT_HR_UNEXPLAINED_TIME,
	PT_HR_STEP_GAP,
	PT_HR_MD_QUEUE,
	PT_HR_MD_PIPELINE,
	PT_HR_MD_CPU_BUSY,
	PT_HR_MD_OP_CPU,
	PT_HR_MD_OP_QUEUE,
	PT_HR_MD_BOTTLENECK_OP,
	PT_HR_LOW_DEVICE_UTIL,
	PT_HR_LAUNCH_BOUND,
	PT_HR_LAUNCH_DELAY,
	PT_HR_RUNTIME_OUTLIER,
	PT_HR_SHORT_KERNELS,
	PT_HR_DEVICE_IDLE,
	PT_HR_COMM_EXPOSED,
	PT_HR_PP_RECEIVE,
	PT_HR_PP_STAGE_COMM,
	PT_HR_PP_STAGE_FLOPS,
	PT_HR_RANK_SPREAD,
	PT_HR_RANK_STEP_GAP,
	PT_HR_RANK_FLOPS,
	PT_HR_SLOW_LINK,
	PT_HR_TOP_OPS,
	PT_HR_MEM_OPS_CRITICAL,
	PT_HR_LOW_FLOPS_UTIL,
	PT_HR_MEMORY_NEAR_CAPACITY,
	PT_HR_TENSOR_CORES_UNUSED,
	PT_HR_USE_DDP,
	PT_HR_DDP_WITHOUT_NCCL,
	PT_HR_UNATTRIBUTED_DEVICE,
	PT_HR_TRUNCATED_LAST_STEP,
	PT_HR__N
};

const char *pt_hint_rule_name(enum pt_hint_rule r);
/* Rule of an id, or -1. */
int pt_hint_rule_find(const char *id);

/* Thresholds: every key of hints.md §5. Percentages 0-100. */
struct pt_hint_knobs {
	struct pt_dataset_knobs md;   /* hints.md_* */
	bool disabled[PT_HR__N];      /* hints.disable */
	double input_moderate_pct, input_high_pct;
	double unexplained_moderate_pct, unexplained_high_pct;
	double step_gap_ms;
	double low_util_pct;
	double launch_bound_moderate_pct, launch_bound_high_pct;
	char *launch_apis;            /* comma-separated */
	double queue_delay_us, runtime_us, queue_delay_warn_pct, runtime_warn_pct;
	double short_kernels_pct;
	double idle_min_pct, idle_class_pct;
	int64_t idle_kernel_wait_gap_ns;
	double comm_exposed_pct;
	double pp_receive_pct, pp_stage_comm_pct, pp_stage_flops_pct;
	int64_t pp_stages;            /* hints.pp.stages, 0 = not given */
	double rank_spread_pct, rank_step_gap_pct, rank_flops_pct, slow_link_pct;
	int64_t top_ops_n;
	double top_ops_type_pct;
	double mem_ops_moderate_pct, mem_ops_high_pct;
	double flops_low_pct, flops_min_coverage_pct, flops_peak_tflops;
	double memory_peak_pct;
	int64_t tc_min_cc;
	char *tc_kernel_patterns, *tc_op_names;
	double unattributed_pct;
	double truncated_ratio;
	bool gate_minddata;
	/* keys given with --hint, for --explain ("in force") */
	char *given;                  /* "\n"-separated "key=value" lines, NULL = none */
};

void pt_hint_knobs_init(struct pt_hint_knobs *k);
void pt_hint_knobs_free(struct pt_hint_knobs *k);
/* Set one key; 0 ok, -1 with *why (malloc'd; names the key in quotes). */
int pt_hint_knob_set(struct pt_hint_knobs *k, const char *key, const char *value, char **why);
int pt_hint_knobs_check(const struct pt_hint_knobs *k, char **why);
/* The --explain text of a rule (malloc'd), NULL for an unknown id. */
char *pt_hint_explain(const char *id, const struct pt_hint_knobs *k);

struct pt_hints_opts {
	enum pt_time_unit unit; /* of the times in messages (pt_time_text; PT_TU_DEFAULT: auto, per time) */
	bool no_demangle;      /* --no-demangle: C++ names as recorded */
	const regex_t *comm_re; /* --comm-pattern for the streamed pass (pt_pass_hints_stream), NULL: the name
				 * lists (the in-memory pass takes it through its index) */
};

/*
 * Evaluate every rule. Hints come back ordered (severity, rule, rank, scope
 * in natural order, then the order the rule found them); entries not shown
 * keep their status.
 */
int pt_pass_hints(const struct pt_model *m, struct pt_index *x, const struct pt_sel *sel,
		  const struct pt_hint_knobs *k, const struct pt_hints_opts *o, struct pt_hints *out,
		  struct pt_diag *d, struct pt_err **e);
/*
 * pt_pass_hints() over a .ptm file (src: a file, not standard input) in
 * streaming reads, its events never held: two for Ascend models
 * (pass/hints/stream.c), three for a GPU model of one process without host
 * ranges (pass/hints/gstream.c); the notes of the selection in d, the hints
 * in *out. A model that holds what only the in-memory pass reads (host
 * ranges, several processes, Ascend memory copies, ...) is read whole
 * instead: *whole set, *out empty, and the caller runs pt_pass_hints() over it.
 */
struct pt_ptm_source;
int pt_pass_hints_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_hint_knobs *k,
			 const struct pt_hints_opts *o, struct pt_hints *out, struct pt_model **whole, struct pt_diag *d,
			 struct pt_err **e);
/* The record of a rule (status shown), at the end of h: pt_hint_new() with
 * the rule's id and knob keys. Used by the rules and the tests. */
struct pt_hint *pt_hints_add(struct pt_hints *h, enum pt_hint_rule r, int64_t rank, const char *scope);

/* The MD_* records (hints.md §3, ungated) of one device's MindData figures
 * (dataset-figures.h), in the order the rules find them: rule is one MD rule,
 * or -1 for all. The `hints` view of `proftool dataset`. */
void pt_hints_md(const struct pt_ds_dev *d, const struct pt_dataset_knobs *k, int rule, struct pt_hints *out);

#endif
