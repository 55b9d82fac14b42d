/*
 * The step and time selection every analysis command shares (DESIGN.md §3):
 * --device, --steps A-B, --time-window START:END, --step-pattern REGEX.
 * cmd/common.c fills one struct pt_sel from the options; each pass takes it
 * (in its opts) and resolves it once with pt_sel_resolve() against the
 * model's origin, so that the window's origin, its open ends and the
 * step-name pattern are worked out in one place.
 *
 * The origin of --time-window, for every command, is the earliest time of
 * the model, event starts and step records alike (pt_index_origin(),
 * model/index.h): a step record before the first event is at a time >= 0.
 */
#ifndef PT_PASS_SELECT_H
#define PT_PASS_SELECT_H
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_sel {
	int64_t device;           /* device id to keep, -1 = all */
	bool steps_given;         /* --steps */
	int64_t step_a, step_b;   /* inclusive step numbers; 0 / INT64_MAX for an open end */
	bool window_given;        /* --time-window */
	bool win_has_a, win_has_b;
	int64_t win_a, win_b;     /* ns, relative to the model's origin (above) */
	const char *step_pattern; /* --step-pattern: POSIX ERE matched against the whole name; NULL = the default */
	const char *steps_arg;    /* --steps and --time-window as given (for messages), or NULL */
	const char *window_arg;
	/* the warnings of pt_sel_check() and pt_sel_check_scanned(): none when quiet (the caller gave
	 * them), else those of warn_as when set (diff: a side's --base-steps replaces --steps, the
	 * warnings are of the options as given), else this selection's */
	bool quiet;
	const struct pt_sel *warn_as;
};

/* Nothing selected: every device, step and time. */
void pt_sel_init(struct pt_sel *s);

/*
 * The --time-window relative to the model's origin as [*a, *b), an
 * open end INT64_MIN / INT64_MAX; returns window_given (*a, *b untouched
 * when false).
 */
bool pt_sel_window(const struct pt_sel *s, int64_t *a, int64_t *b);

/* A selection resolved against a model: what the passes keep. */
struct pt_sel_res {
	int64_t origin;          /* the model's origin (pt_index_origin) */
	bool window;             /* --time-window given */
	int64_t a, b;            /* the window, absolute ns [a, b); INT64_MIN / INT64_MAX for an open end,
				    and both without a window */
	bool steps;              /* --steps given */
	int64_t step_a, step_b;  /* inclusive step numbers; INT64_MIN / INT64_MAX without --steps */
	int64_t device;          /* device id to keep, -1 = all */
};

/*
 * s (NULL: nothing selected) made absolute by the model's origin (its
 * index's pt_index_origin(), or pt_model_origin() without an index), with
 * no overflow: a window end beyond the time range is an open end.
 */
void pt_sel_resolve(const struct pt_sel *s, int64_t origin, struct pt_sel_res *r);

/* Does the window keep time t (an instant, or a start)? */
static inline bool pt_sel_res_at(const struct pt_sel_res *r, int64_t t)
{
	return t >= r->a && t < r->b;
}

/* Does --steps keep step number n? */
static inline bool pt_sel_res_step(const struct pt_sel_res *r, int64_t n)
{
	return n >= r->step_a && n <= r->step_b;
}

/*
 * Compile the step-name pattern (s->step_pattern, NULL s or pattern: the
 * default) anchored to the whole name. 0, or regcomp's code with its text in
 * msg[0..n); re needs no regfree after a failure.
 */
int pt_sel_step_re(const struct pt_sel *s, regex_t *re, char *msg, size_t n);

struct pt_diag;
struct pt_model;

/*
 * What a selection finds in a model, gathered step by step by whoever knows
 * the steps (pt_sel_check, the summary pass), for pt_sel_report(). Times are
 * ns from the model's origin, as --time-window takes them.
 */
struct pt_sel_found {
	const struct pt_sel *sel;
	bool no_device;              /* --device names no device of the model (pt_sel_found_devices) */
	char devices[160];           /* then the model's device ids: "0, 1" */
	size_t steps, kept_steps;    /* steps of the selected devices; of them with a number in --steps */
	int64_t step_lo, step_hi;    /* their numbers */
	bool has_starts;
	int64_t start_lo, start_hi;  /* where they start */
	bool has_span;
	int64_t span_a, span_b;      /* the data's first start and last end */
	/* --step-pattern on a model with no step records of its own (pt_sel_found_range) */
	bool step_records;           /* the model has step records: the pattern names no range */
	size_t ranges;               /* host ranges seen before the first that matches */
	bool range_match;            /* one matches */
	char range_eg[160];          /* up to three names of those that do not, quoted */
};
void pt_sel_found_init(struct pt_sel_found *f, const struct pt_sel *sel);
/* The model's devices, for a --device that names none of them. */
void pt_sel_found_devices(struct pt_sel_found *f, const struct pt_model *m);
/* A step: its number, and its window's start when it has one (has_win). */
void pt_sel_found_step(struct pt_sel_found *f, int64_t num, bool has_win, int64_t start);
/* Data from a to b. */
void pt_sel_found_span(struct pt_sel_found *f, int64_t a, int64_t b);
/*
 * A host range called name, in the order of the model's events, for a
 * --step-pattern compiled into re (pt_sel_step_re): nothing once one matched,
 * or when the selection has no pattern or the model step records.
 */
void pt_sel_found_range(struct pt_sel_found *f, const regex_t *re, const char *name);
/*
 * A selection that selects nothing: one warning in d saying what there is:
 *   --device 3 selects no device (the model has devices 0, 1)
 *   --step-pattern 'Foo#[0-9]+' matches no range (the model has 18 host ranges, e.g. ...)
 *   --steps 400-500 selects no step (the model has steps 1-322)
 *   --time-window 1000s: lies outside the data (span 0-66209589790 ns)
 * (a window inside the data selects its events, whether or not a step starts there;
 * a device or a pattern that selects nothing is the only warning, as what it selects is nothing).
 */
void pt_sel_report(const struct pt_sel_found *f, struct pt_diag *d);

/*
 * Why a table of `what` (a plural: "kernels") has no rows, for
 * pt_table_set_empty(), in buf[n]: "no kernels in steps 400-500", "no kernels
 * in --time-window 10s:", "no kernels on device 3", "no kernels in steps 4-5
 * on device 3", or, with no selection, "no kernels in the model".
 */
const char *pt_sel_empty_reason(const struct pt_sel *s, const char *what, char *buf, size_t n);

/*
 * pt_sel_report() for the steps of pt_steps_collect() and the model's events,
 * and --device N naming no device of the model:
 *   --device 3 selects no device (the model has devices 0, 1)
 *   --device 3 selects no device (the model has devices 0, 1)
 *   --step-pattern 'Foo#[0-9]+' matches no range (the model has 522 host ranges, e.g. ...)
 */
void pt_sel_check(const struct pt_model *m, const struct pt_sel *s, struct pt_diag *d);
/*
 * The same for a model whose events are not held (a streamed read): ranges,
 * what pt_sel_found_range() found of its host ranges in the order of its
 * events; span, its events' first start and last end (NULL: no event); si,
 * the steps pt_steps_collect() would derive from the model and its events.
 */
struct pt_steps_info;
void pt_sel_check_scanned(const struct pt_model *m, const struct pt_sel *s, const struct pt_sel_found *ranges,
			  const int64_t *span, const struct pt_steps_info *si, struct pt_diag *d);

#endif
