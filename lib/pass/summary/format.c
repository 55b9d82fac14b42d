/* Text cells ("total / avg / min / max / ratio" blocks, times in the text unit) and data blocks of the summary. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void sum_ftime(const struct ctx *g, char *b, int64_t ns)
{
	snprintf(b, 48, "%.2f", (double)ns / (double)pt_time_unit_div(g->unit));
}

void sum_favg(const struct ctx *g, char *b, int64_t total, int64_t calls)
{
	snprintf(b, 48, "%.2f", calls ? (double)total / (double)calls / (double)pt_time_unit_div(g->unit) : 0.0);
}

void sum_fpct(char *b, int64_t num, int64_t den)
{
	snprintf(b, 48, "%.2f", pct(num, den));
}

void sum_fnum(char *b, int64_t v)
{
	snprintf(b, 48, "%" PRId64, v);
}

/* "total / avg / min / max / ratio" or "- / - / - / - / -" (min before max, as in CSV) */
void sum_fblock(const struct ctx *g, char *b, bool has, int64_t calls, int64_t total, int64_t max, int64_t min,
		   int64_t den)
{
	if (!has) {
		strcpy(b, "- / - / - / - / -");
		return;
	}
	char t[48], a[48], x[48], n[48], r[48];
	sum_ftime(g, t, total);
	sum_favg(g, a, total, calls);
	sum_ftime(g, x, max);
	sum_ftime(g, n, min);
	sum_fpct(r, total, den);
	snprintf(b, 256, "%s / %s / %s / %s / %s", t, a, n, x, r);
}

/* Data block: total, avg, min, max, ratio at columns c..c+4. */
void sum_dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		   int64_t min, int64_t den)
{
	if (!has)
		return;
	pt_table_set_int(t, row, c, total);
	pt_table_set_int(t, row, c + 1, ravg(total, calls));
	pt_table_set_int(t, row, c + 2, min);
	pt_table_set_int(t, row, c + 3, max);
	pt_table_set_double(t, row, c + 4, pct(total, den));
}

void sum_add_block_cols(struct pt_table *t, const char *p)
{
	static const char *const f[] = { "total", "avg", "min", "max" };
	char b[64];
	for (int i = 0; i < 4; i++) {
		snprintf(b, sizeof(b), "%s_%s", p, f[i]);
		pt_table_add_col(t, b, PT_COL_TIME, PT_ROLE_VALUE, 0);
	}
	snprintf(b, sizeof(b), "%s_ratio", p);
	pt_table_add_col(t, b, PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

size_t sum_row0(struct pt_table *t, const struct rank *r)
{
	size_t row = pt_table_add_row(t);
	pt_table_set_int(t, row, 0, r->rank);
	return row;
}

void sum_setstr(struct pt_table *t, size_t row, size_t c, const char *s)
{
	pt_table_set_strdup(t, row, c, s, strlen(s));
}

/* The title is the view's name with its first letter in upper case (one rule for every view:
 * "kernel" -> "Kernel"), then ": <part>" for a view's second table, then " - Rank <r>". */
struct pt_table *sum_stext(const struct rank *r, const char *view, const char *part, bool unit, bool multi)
{
	char b[160];
	int n = snprintf(b, sizeof(b), "%c%s%s%s", toupper((unsigned char)view[0]), view + 1, part ? ": " : "",
			 part ? part : "");
	if (multi && n > 0 && (size_t)n < sizeof(b))
		snprintf(b + n, sizeof(b) - (size_t)n, " - Rank %" PRId64, r->rank);
	return pt_table_new_boxed(b, b, unit ? pt_time_unit_name(r->g->unit) : NULL);
}

/* The header of a time block: "Device" for device time whatever the device kind (GPU, NPU or both). */
const char *sum_block_head(const struct rank *r, bool cpu, char *b)
{
	(void)r;
	snprintf(b, 96, "%s Total / Avg / Min / Max / Ratio(%%)", cpu ? "CPU" : "Device");
	return b;
}
