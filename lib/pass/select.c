#include "pass/select.h"

#include <string.h>

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

bool pt_sel_window_abs(const struct pt_sel *s, int64_t t0, int64_t *a, int64_t *b)
{
	if (!s->window_given)
		return false;
	*a = s->win_has_a ? sat_add(t0, s->win_a) : INT64_MIN;
	*b = s->win_has_b ? sat_add(t0, s->win_b) : INT64_MAX;
	return true;
}

int pt_sel_step_re(const struct pt_sel *s, regex_t *re, char *msg, size_t n)
{
	return pt_step_pattern_compile(re, s ? s->step_pattern : NULL, msg, n);
}
