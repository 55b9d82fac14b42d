#include "pass/select.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/steppat.h"

void pt_sel_init(struct pt_sel *s)
{
	memset(s, 0, sizeof(*s));
	s->device = -1;
}

bool pt_sel_window(const struct pt_sel *s, int64_t *a, int64_t *b)
{
	if (!s->window_given)
		return false;
	*a = s->win_has_a ? s->win_a : INT64_MIN;
	*b = s->win_has_b ? s->win_b : INT64_MAX;
	return true;
}

static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

void pt_sel_resolve(const struct pt_sel *s, int64_t origin, struct pt_sel_res *r)
{
	*r = (struct pt_sel_res){ .origin = origin, .a = INT64_MIN, .b = INT64_MAX, .step_a = INT64_MIN,
				  .step_b = INT64_MAX, .device = s ? s->device : -1 };
	if (!s)
		return;
	if (s->window_given) {
		r->window = true;
		if (s->win_has_a)
			r->a = sat_add(origin, s->win_a);
		if (s->win_has_b)
			r->b = sat_add(origin, s->win_b);
	}
	if (s->steps_given) {
		r->steps = true;
		r->step_a = s->step_a;
		r->step_b = s->step_b;
	}
}

int pt_sel_step_re(const struct pt_sel *s, regex_t *re, char *msg, size_t n)
{
	return pt_step_pattern_compile(re, s ? s->step_pattern : NULL, msg, n);
}

/* "0, 1, 2" (at most 8 ids, then "..."), into b[n] */
static void device_list(const struct pt_model *m, char *b, size_t n)
{
	size_t l = 0;
	b[0] = 0;
	for (size_t i = 0; i < m->devices.n && l < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = m->devices.v[j].id == m->devices.v[i].id;
		if (seen)
			continue;
		l += (size_t)snprintf(b + l, n - l, i < 8 ? "%s%" PRIu32 : "%s...", l ? ", " : "",
				      m->devices.v[i].id);
		if (i >= 8)
			break;
	}
}

const char *pt_sel_empty_reason(const struct pt_sel *s, const char *what, char *buf, size_t n)
{
	size_t l = (size_t)snprintf(buf, n, "no %s", what);
	bool any = false;
	if (s && s->steps_given && l < n) {
		if (s->step_a == s->step_b)
			l += (size_t)snprintf(buf + l, n - l, " in step %" PRId64, s->step_a);
		else
			l += (size_t)snprintf(buf + l, n - l, " in steps %s", s->steps_arg ? s->steps_arg : "selected");
		any = true;
	}
	if (s && s->window_given && l < n) {
		l += (size_t)snprintf(buf + l, n - l, " in --time-window %s", s->window_arg ? s->window_arg : "");
		any = true;
	}
	if (s && s->device >= 0 && l < n) {
		l += (size_t)snprintf(buf + l, n - l, " on device %" PRId64, s->device);
		any = true;
	}
	if (!any && l < n)
		snprintf(buf + l, n - l, " in the model");
	return buf;
}

void pt_sel_found_init(struct pt_sel_found *f, const struct pt_sel *sel)
{
	memset(f, 0, sizeof(*f));
	f->sel = sel;
}

void pt_sel_found_step(struct pt_sel_found *f, int64_t num, bool has_win, int64_t start)
{
	const struct pt_sel *s = f->sel;
	f->step_lo = !f->steps || num < f->step_lo ? num : f->step_lo;
	f->step_hi = !f->steps || num > f->step_hi ? num : f->step_hi;
	f->steps++;
	if (has_win) {
		f->start_lo = !f->has_starts || start < f->start_lo ? start : f->start_lo;
		f->start_hi = !f->has_starts || start > f->start_hi ? start : f->start_hi;
		f->has_starts = true;
	}
	f->kept_steps += !s->steps_given || (num >= s->step_a && num <= s->step_b);
}

void pt_sel_found_span(struct pt_sel_found *f, int64_t a, int64_t b)
{
	f->span_a = !f->has_span || a < f->span_a ? a : f->span_a;
	f->span_b = !f->has_span || b > f->span_b ? b : f->span_b;
	f->has_span = true;
}

void pt_sel_found_devices(struct pt_sel_found *f, const struct pt_model *m)
{
	const struct pt_sel *s = f->sel;
	f->no_device = false;
	if (s->device < 0)
		return;
	for (size_t i = 0; i < m->devices.n; i++)
		if ((int64_t)m->devices.v[i].id == s->device)
			return;
	f->no_device = true;
	device_list(m, f->devices, sizeof(f->devices));
}

/* --device naming no device: one note with the model's. True when it said so. */
static bool device_report(const struct pt_sel_found *f, struct pt_diag *d)
{
	if (!f->no_device)
		return false;
	const char *list = f->devices;
	if (*list)
		pt_diag_note(d, "--device %" PRId64 " selects no device (the model has device%s %s)", f->sel->device,
			     strchr(list, ',') ? "s" : "", list);
	else
		pt_diag_note(d, "--device %" PRId64 " selects no device (the model has none)", f->sel->device);
	return true;
}

void pt_sel_found_range(struct pt_sel_found *f, const regex_t *re, const char *name)
{
	if (!f->sel->step_pattern || f->step_records || f->range_match)
		return;
	if (!regexec(re, name, 0, NULL, 0)) {
		f->range_match = true;
		return;
	}
	char *eg = f->range_eg;
	size_t l = strlen(eg);
	if (f->ranges < 3 && !strstr(eg, name) && l + strlen(name) + 5 < sizeof(f->range_eg))
		snprintf(eg + l, sizeof(f->range_eg) - l, "%s'%s'", l ? ", " : "", name);
	f->ranges++;
}

/* A --step-pattern that names none of the host ranges, on a model that has some and no step
 * records of its own (a step trace): one note with up to three range names. True when it said so. */
static bool range_report(const struct pt_sel_found *f, struct pt_diag *d)
{
	if (!f->sel->step_pattern || f->step_records || f->range_match || !f->ranges)
		return false;
	pt_diag_note(d, "--step-pattern '%s' matches no range (the model has %zu host ranges, e.g. %s)",
		     f->sel->step_pattern, f->ranges, f->range_eg);
	return true;
}

void pt_sel_report(const struct pt_sel_found *f, struct pt_diag *d)
{
	const struct pt_sel *s = f->sel;
	if (device_report(f, d) || range_report(f, d))
		return;
	/* a window is a time range of the data (some commands keep events, not steps, by it): it
	 * selects nothing only outside the data */
	if (s->window_given && f->has_span) {
		int64_t a, b;
		pt_sel_window(s, &a, &b);
		/* what starts in [a, b): nothing when the window ends before the data or starts after it */
		if (b <= f->span_a || a > f->span_b)
			pt_diag_note(d, "--time-window %s lies outside the data (span %" PRId64 "-%" PRId64 " ns)",
				     s->window_arg ? s->window_arg : "", f->span_a, f->span_b);
	}
	if (!s->steps_given || f->kept_steps)
		return;
	const char *sa = s->steps_arg ? s->steps_arg : "";
	if (!f->steps)
		pt_diag_note(d, "--steps %s selects no step (the model has no steps)", sa);
	else if (f->step_lo == f->step_hi)
		pt_diag_note(d, "--steps %s selects no step (the model has step %" PRId64 ")", sa, f->step_lo);
	else
		pt_diag_note(d, "--steps %s selects no step (the model has steps %" PRId64 "-%" PRId64 ")", sa,
			     f->step_lo, f->step_hi);
}

/* pt_sel_found_range() over the model's host ranges, and its warning. True when it warned. */
static bool step_pattern_unmatched(const struct pt_model *m, const struct pt_sel *s, struct pt_diag *d)
{
	regex_t re;
	char msg[128];
	if (pt_sel_step_re(s, &re, msg, sizeof(msg)))
		return false; /* a bad pattern: the command says so itself */
	struct pt_sel_found f;
	pt_sel_found_init(&f, s);
	f.step_records = m->steps.n > 0;
	for (size_t i = 0; i < m->events.n && !f.step_records && !f.range_match; i++)
		if (m->events.kind[i] == PT_EV_RANGE)
			pt_sel_found_range(&f, &re, pt_model_strget(m, m->events.name[i]));
	regfree(&re);
	return range_report(&f, d);
}

/* pt_sel_check() with what the events say given: rf, the host ranges (pt_sel_found_range, NULL:
 * the model's events); span, the events' first start and last end (NULL: the model's events, or
 * none when rf is given); si, the steps (NULL: pt_steps_collect() on m). */
static void check(const struct pt_model *m, const struct pt_sel *s, const struct pt_sel_found *rf,
		  const int64_t *span, const struct pt_steps_info *given, struct pt_diag *d)
{
	if (s->quiet)
		return;
	if (s->warn_as) /* the steps of given are numbered and placed alike whatever --steps keeps */
		s = s->warn_as;
	struct pt_sel_found dev;
	pt_sel_found_init(&dev, s);
	pt_sel_found_devices(&dev, m);
	if (device_report(&dev, d))
		return;
	if (s->step_pattern && (rf ? range_report(rf, d) : step_pattern_unmatched(m, s, d)))
		return;
	if (!s->steps_given && !s->window_given)
		return;
	struct pt_steps_info own;
	const struct pt_steps_info *si = given;
	struct pt_err *e = NULL;
	if (!si) {
		if (pt_steps_collect(m, s, &own, NULL, &e)) {
			pt_err_free(e); /* a bad --step-pattern: the command says so itself */
			return;
		}
		si = &own;
	}
	struct pt_sel_found f;
	pt_sel_found_init(&f, s);
	int64_t o = si->origin;
	for (size_t r = 0; r < si->n; r++) {
		for (size_t i = 0; i < si->r[r].n; i++) {
			const struct pt_stepwin *w = &si->r[r].v[i];
			pt_sel_found_step(&f, w->num, w->has_win, w->s - o);
		}
		if (si->r[r].has_span)
			pt_sel_found_span(&f, si->r[r].span_s - o, si->r[r].span_e - o);
	}
	if (span)
		pt_sel_found_span(&f, span[0] - o, span[1] - o);
	for (size_t i = 0; !rf && i < m->events.n; i++)
		pt_sel_found_span(&f, m->events.start[i] - o, m->events.start[i] + m->events.dur[i] - o);
	if (!given)
		pt_steps_info_free(&own);
	pt_sel_report(&f, d);
}

void pt_sel_check(const struct pt_model *m, const struct pt_sel *s, struct pt_diag *d)
{
	check(m, s, NULL, NULL, NULL, d);
}

void pt_sel_check_scanned(const struct pt_model *m, const struct pt_sel *s, const struct pt_sel_found *ranges,
			  const int64_t *span, const struct pt_steps_info *si, struct pt_diag *d)
{
	check(m, s, ranges, span, si, d);
}
