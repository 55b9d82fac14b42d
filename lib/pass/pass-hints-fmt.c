/* Number formatting of hint records (hints.md §1.2). */
#include "pass/pass-hints-fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool pt_hint_unit_is_int(const char *unit)
{
	return unit && (!strcmp(unit, "ns") || !strcmp(unit, "count"));
}

void pt_hint_fmt_value(char *buf, size_t n, const char *unit, double v)
{
	if (pt_hint_unit_is_int(unit))
		snprintf(buf, n, "%lld", (long long)llround(v));
	else
		pt_hint_fmt_frac(buf, n, v);
}

void pt_hint_fmt_frac(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.4f", v);
}
