/*
 * The step and time selection every analysis command shares (DESIGN.md §3):
 * --device, --steps A-B, --time-window START:END, --step-pattern REGEX.
 * cmd/common.c fills one struct pt_sel from the options; each pass takes it
 * (in its opts) and resolves it with the functions below, so that the
 * window's open ends and the step-name pattern are worked out in one place.
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
	int64_t win_a, win_b;     /* ns, relative to the model's earliest event */
	const char *step_pattern; /* --step-pattern: POSIX ERE matched against the whole name; NULL = the default */
};

/* Nothing selected: every device, step and time. */
void pt_sel_init(struct pt_sel *s);

/*
 * The --time-window relative to the model's earliest event as [*a, *b), an
 * open end INT64_MIN / INT64_MAX; returns window_given (*a, *b untouched
 * when false).
 */
bool pt_sel_window(const struct pt_sel *s, int64_t *a, int64_t *b);

/*
 * The --time-window made absolute by the model's earliest event t0, with the
 * open ends INT64_MIN / INT64_MAX and no overflow; returns window_given.
 */
bool pt_sel_window_abs(const struct pt_sel *s, int64_t t0, int64_t *a, int64_t *b);

/*
 * Compile the step-name pattern (s->step_pattern, NULL s or pattern: the
 * default) anchored to the whole name. 0, or regcomp's code with its text in
 * msg[0..n); re needs no regfree after a failure.
 */
int pt_sel_step_re(const struct pt_sel *s, regex_t *re, char *msg, size_t n);

#endif
