/* Text cells ("total / avg / max / min / ratio" blocks, times in the text unit) and data blocks of the summary. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

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

/* "total / avg / max / min / ratio" or "- / - / - / - / -" */
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
	snprintf(b, 256, "%s / %s / %s / %s / %s", t, a, x, n, r);
}

/* Data block: total, avg, max, min, ratio at columns c..c+4. */
void sum_dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		   int64_t min, int64_t den)
{
	if (!has)
		return;
	pt_table_set_int(t, row, c, total);
	pt_table_set_int(t, row, c + 1, ravg(total, calls));
	pt_table_set_int(t, row, c + 2, max);
	pt_table_set_int(t, row, c + 3, min);
	pt_table_set_double(t, row, c + 4, pct(total, den));
}

void sum_add_block_cols(struct pt_table *t, const char *p)
{
	static const char *const f[] = { "total", "avg", "max", "min" };
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

struct pt_table *sum_stext(const struct rank *r, const char *title, bool unit, bool multi)
{
	char b[160];
	if (multi)
		snprintf(b, sizeof(b), "%s - Rank %" PRId64, title, r->rank);
	else
		snprintf(b, sizeof(b), "%s", title);
	return pt_table_new_boxed(b, b, unit ? pt_time_unit_name(r->g->unit) : NULL);
}

const char *sum_block_head(const struct rank *r, bool cpu, char *b)
{
	snprintf(b, 96, "%s Total / Avg / Max / Min / Ratio(%%)", cpu ? "CPU" : r->word);
	return b;
}
