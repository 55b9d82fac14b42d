/*
 * The text layout of the `perf` table (summary.md §10): Paddle's benchmark
 * timer, one block per rank, times in seconds with "%.5f". The table is the
 * one pt_pass_perf() makes; its columns are found by name (rank, metric,
 * unit, count, avg, max, min: avg to min consecutive).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "support/out.h"
#include "table/table.h"

/* One cell: a space, s centred in 15 columns (extra space on the left), a space. */
static void cell(struct pt_out *o, const char *s)
{
	size_t n = strlen(s), w = 15;
	size_t pad = n < w ? w - n : 0;
	size_t left = pad - pad / 2, right = pad / 2;
	pt_out_putc(o, ' ');
	for (size_t i = 0; i < left; i++)
		pt_out_putc(o, ' ');
	pt_out_puts(o, s);
	for (size_t i = 0; i < right; i++)
		pt_out_putc(o, ' ');
	pt_out_putc(o, ' ');
}

static void value(const struct pt_table *t, size_t r, size_t c, bool seconds, char *buf, size_t len)
{
	const struct pt_cell *x = &t->cells[r * t->ncols + c];
	if (x->kind == PT_CELL_INT)
		snprintf(buf, len, "%.5f", seconds ? (double)x->u.i / 1e9 : (double)x->u.i);
	else if (x->kind == PT_CELL_DOUBLE)
		snprintf(buf, len, "%.5f", x->u.d);
	else
		snprintf(buf, len, "-");
}

/* Paddle's timer layout (summary.md §10), one block per rank. */
void pt_export_perf_text(struct pt_out *o, const struct pt_table *t)
{
	int ci[6] = { pt_table_col(t, "rank"), pt_table_col(t, "metric"), pt_table_col(t, "unit"),
		      pt_table_col(t, "count"), pt_table_col(t, "avg"), pt_table_col(t, "max") };
	for (int i = 0; i < 6; i++)
		if (ci[i] < 0)
			return; /* not a perf table */
	size_t c_rank = (size_t)ci[0], c_metric = (size_t)ci[1], c_unit = (size_t)ci[2], c_count = (size_t)ci[3],
	       c_avg = (size_t)ci[4], c_max = (size_t)ci[5];
	size_t nranks = 0;
	for (size_t r = 0; r < t->nrows; r += 4) {
		const char *ips_unit = t->cells[(r + 2) * t->ncols + c_unit].u.s;
		if (nranks++)
			pt_out_putc(o, '\n');
		char title[64];
		if (t->nrows > 4)
			snprintf(title, sizeof(title), " Perf Summary - Rank %" PRId64 " ",
				 t->cells[r * t->ncols + c_rank].u.i);
		else
			snprintf(title, sizeof(title), "Perf Summary");
		size_t tl = strlen(title), pad = tl < 100 ? 100 - tl : 0;
		for (size_t i = 0; i < pad - pad / 2; i++)
			pt_out_putc(o, '=');
		pt_out_puts(o, title);
		for (size_t i = 0; i < pad / 2; i++)
			pt_out_putc(o, '=');
		pt_out_putc(o, '\n');
		const struct pt_cell *ratio = &t->cells[(r + 3) * t->ncols + c_avg];
		bool has_reader = t->cells[r * t->ncols + c_count].u.i > 0;
		if (has_reader && ratio->kind == PT_CELL_DOUBLE)
			pt_out_printf(o, "Reader Ratio: %.3f%%\n", ratio->u.d);
		pt_out_printf(o, "Time Unit: s, IPS Unit: %s\n", ips_unit);
		static const char *const head[] = { "", "avg", "min", "max" }; /* min before max, as in CSV */
		pt_out_putc(o, '|');
		for (int i = 0; i < 4; i++) {
			cell(o, head[i]);
			pt_out_putc(o, '|');
		}
		pt_out_putc(o, '\n');
		for (size_t k = has_reader ? 0 : 1; k < 3; k++) {
			size_t row = r + k;
			pt_out_putc(o, '|');
			cell(o, t->cells[row * t->ncols + c_metric].u.s);
			pt_out_putc(o, '|');
			for (size_t c = c_avg; c <= c_max; c++) {
				char buf[64];
				value(t, row, c, k < 2, buf, sizeof(buf));
				cell(o, buf);
				pt_out_putc(o, '|');
			}
			pt_out_putc(o, '\n');
		}
	}
}
