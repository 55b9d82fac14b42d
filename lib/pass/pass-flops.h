/*
 * FLOPs, achieved FLOPS and utilisation (ascend.md §3.9, cupti.md §6.12):
 * per op, per op type, per scope level, per step and for the model.
 *
 * Ascend ops get their FLOPs from the AI Core counters (struct pt_aicore)
 * when records exist, and analytically from their type and tensors
 * (flops-model.h) otherwise; both are shown when both exist. GPU work gets
 * FLOPs from PyTorch operator ranges (NVTX shape text), with the nesting
 * rule of cupti.md §6.12, and their inclusive kernel time. Ops whose FLOPs
 * are unknown are listed and counted, never counted as zero.
 */
#ifndef PT_PASS_FLOPS_H
#define PT_PASS_FLOPS_H
#include <stdbool.h>
#include <stddef.h>

#include "pass/pass-steps.h"

struct pt_diag;
struct pt_err;
struct pt_index;
struct pt_model;
struct pt_table;

enum pt_flops_by { PT_FLOPS_BY_OP, PT_FLOPS_BY_TYPE, PT_FLOPS_BY_SCOPE, PT_FLOPS_BY_STEP, PT_FLOPS_BY_MODEL };

struct pt_flops_opts {
	enum pt_flops_by by;
	int scope_depth;          /* scope levels kept (--scope-depth), 0 = all */
	double peak;              /* --peak in FLOPS, 0 = the device's */
	bool folded;              /* also build the "folded" table (stack, flops) */
	struct pt_sel sel;   /* --device, --steps, --time-window, --step-pattern */
};

/*
 * Build the view chosen by o->by (one table, named "ops", "types",
 * "scopes", "steps" or "model"), plus, when o->folded, a two-column table
 * "folded" (stack, flops) in first-appearance order. *nout tables are
 * returned in out[] (room for 2).
 */
int pt_pass_flops(const struct pt_model *m, struct pt_index *x, const struct pt_flops_opts *o, struct pt_table **out,
		  size_t *nout, struct pt_diag *d, struct pt_err **e);

/*
 * pt_pass_flops() over the model file at path without holding its events,
 * when every device of the model is an Ascend NPU and its events are tasks,
 * AI CPU ops and get_next records: two streaming reads (model/ptm.h). The
 * first finds the streams that run framework-named tasks (the communication
 * class of an unnamed task) and, per stream and kind, the events of the
 * earliest start, the latest start and the latest end, which stand for all
 * of them in the step windows, their coverage, the origin and the selection
 * checks (pt_sel_check(), whose notes go to d); the second makes the items
 * and adds each execution to its figures. Same tables as pt_pass_flops() on
 * the loaded model. *streamed false (and 0 returned): the model is not one
 * that streams, load it. Else *mp: the model without its events, which the
 * tables refer to (free it after them).
 */
int pt_pass_flops_stream(const char *path, const struct pt_flops_opts *o, struct pt_model **mp,
			 struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d, struct pt_err **e);

/*
 * Can the .ptm at path hold FLOPs data at all? One streaming read that keeps
 * no events (model/ptm.h, side tables checked but not applied) looks for
 * what pt_pass_flops() makes its items of: an Ascend task or AI CPU op
 * (it stops at the first batch holding one), or a range event in a model
 * whose strings name the "Operator" range type (PyTorch operator ranges,
 * which refer to range events; it stops at the first such batch). *may is
 * false when the whole file holds neither: then pt_pass_flops() finds no
 * item whatever --device selects, and without --steps or --time-window
 * fails with "no FLOPs data". Returns 0, or -1 with *e set (a bad file:
 * every check of a full read ran up to where it stopped).
 */
int pt_flops_probe(const char *path, struct pt_model *m, bool *may, struct pt_err **e);
/* m: a new model, which the read fills but for its events (the caller frees it). */

/*
 * pt_pass_flops() over the model file at path with a selection (--steps,
 * --time-window, --step-pattern) when the file holds no FLOPs data
 * (pt_flops_probe): the steps and the selection's checks from a streamed
 * read (pt_steps_stream_read, no event held; the coverage measured for
 * --by step and --by model), then the same tables (the steps' rows, empty
 * tables that say why, or the "no FLOPs data" error) with *streamed set and
 * *whole the model without its events (free it after the tables). A file
 * that may hold FLOPs data: 0, *streamed false, the caller loads it; a model
 * whose steps do not stream: *whole, read whole for the caller.
 */
int pt_pass_flops_gsteps(const char *path, const struct pt_flops_opts *o, struct pt_model **whole,
			 struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d, struct pt_err **e);

/*
 * pt_pass_flops() over the model file at path without holding its events,
 * for a GPU model with PyTorch operator ranges (flops-gstream.h): a read of
 * its tables, the steps and the selection's checks from a streamed read
 * (pt_steps_stream_read, the steps' coverage measured), then the operator
 * ranges thread by thread through a stack, each range's item and figures
 * summed once its nesting is final. Same tables as pt_pass_flops() on the
 * loaded model, *streamed set, *mp the model without its events (free it
 * after the tables). 0 and *streamed false: the model has no operator range
 * or does not stream (load it); or *whole, read whole for the caller (its
 * steps do not stream).
 */
int pt_pass_flops_gstream(const char *path, const struct pt_flops_opts *o, struct pt_model **mp,
			  struct pt_model **whole, struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d,
			  struct pt_err **e);

/* The "no FLOPs data" error of pt_pass_flops() (pt_err_nodata()); returns -1. */
int pt_flops_nodata(const struct pt_flops_opts *o, struct pt_err **e);

/* The top scope of a full op name for Sankey labels (ascend.md §3.7), or NULL
 * when the name has no scopes. *nscopes: the number of scope segments. */
const char *pt_flops_top_scope(const char *name, size_t *nscopes);

#endif
