/*
 * The `perf` table (summary.md §10, pass-perf.h) as text, in the one text
 * style (proftool(1) OUTPUT, "Text"): per rank a title, the unit line, a
 * header, one rule, the reader cost, batch cost and ips rows (avg, min, max),
 * and the reader ratio as a note. Times print in the unit asked for, or the
 * one pt_time_unit_pick() chooses from the block's costs, with three
 * decimals; ips and the ratio with two. The columns are found by name (rank,
 * metric, unit, count, avg, min, max: avg to max consecutive).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/textline.h"
#include "support/fmt.h"
#include "support/out.h"
#include "table/table.h"

static size_t value(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, char *buf)
{
	const struct pt_cell *x = &t->cells[r * t->ncols + c];
	if (x->kind == PT_CELL_INT)
		return u == PT_TU_NS ? pt_fmt_i64(buf, x->u.i)
				     : pt_fmt_scaled(buf, x->u.i, pt_time_unit_div(u), PT_TEXT_TIME_DECIMALS);
	if (x->kind == PT_CELL_DOUBLE) {
		int n = snprintf(buf, 64, "%.*f", PT_TEXT_DECIMALS, x->u.d);
		return n > 0 ? (size_t)n : 0;
	}
	buf[0] = '-';
	return 1;
}

void pt_export_perf_text(struct pt_out *o, const struct pt_table *t, enum pt_time_unit unit)
{
	int ci[6] = { pt_table_col(t, "rank"), pt_table_col(t, "metric"), pt_table_col(t, "unit"),
		      pt_table_col(t, "count"), pt_table_col(t, "avg"), pt_table_col(t, "max") };
	for (int i = 0; i < 6; i++)
		if (ci[i] < 0)
			return; /* not a perf table */
	size_t c_rank = (size_t)ci[0], c_metric = (size_t)ci[1], c_unit = (size_t)ci[2], c_count = (size_t)ci[3],
	       c_avg = (size_t)ci[4], c_max = (size_t)ci[5];
	struct pt_line l = { 0 };
	for (size_t r = 0; r + 3 < t->nrows; r += 4) {
		if (r)
			pt_out_putc(o, '\n');
		if (t->nrows > 4)
			pt_out_printf(o, "Perf Summary - Rank %" PRId64 "\n", t->cells[r * t->ncols + c_rank].u.i);
		else
			pt_out_puts(o, "Perf Summary\n");
		bool has_reader = t->cells[r * t->ncols + c_count].u.i > 0;
		enum pt_time_unit u = unit;
		if (u == PT_TU_DEFAULT) {
			int64_t v[6];
			size_t n = 0;
			for (size_t k = has_reader ? 0 : 1; k < 2; k++)
				for (size_t c = c_avg; c <= c_max; c++)
					if (t->cells[(r + k) * t->ncols + c].kind == PT_CELL_INT)
						v[n++] = t->cells[(r + k) * t->ncols + c].u.i;
			u = pt_time_unit_pick(v, n);
		}
		pt_out_printf(o, "Time unit: %s\n", pt_time_unit_name(u));
		/* the cells, then the widths */
		char cell[3][4][128];
		char ips[112];
		snprintf(ips, sizeof(ips), "ips (%.100s)", t->cells[(r + 2) * t->ncols + c_unit].u.s);
		size_t w[4] = { strlen("Metric"), 3, 3, 3 };
		size_t k0 = has_reader ? 0 : 1;
		for (size_t k = k0; k < 3; k++) {
			size_t row = r + k;
			snprintf(cell[k][0], sizeof(cell[k][0]), "%s", k == 2 ? ips : t->cells[row * t->ncols + c_metric].u.s);
			for (size_t c = c_avg; c <= c_max; c++) {
				char *b = cell[k][1 + c - c_avg];
				b[value(t, row, c, k < 2 ? u : PT_TU_NS, b)] = 0;
			}
			for (int i = 0; i < 4; i++)
				if (strlen(cell[k][i]) > w[i])
					w[i] = strlen(cell[k][i]);
		}
		static const char *const head[] = { "Metric", "avg", "min", "max" }; /* min before max, as in CSV */
		for (int i = 0; i < 4; i++) {
			if (i) {
				pt_line_puts(&l, "  ");
				pt_line_rep(&l, ' ', w[i] - strlen(head[i]));
			}
			pt_line_puts(&l, head[i]);
			if (!i)
				pt_line_rep(&l, ' ', w[i] - strlen(head[i]));
		}
		pt_line_end(&l, o);
		for (int i = 0; i < 4; i++) {
			if (i)
				pt_line_puts(&l, "  ");
			pt_line_rep(&l, '-', w[i]);
		}
		pt_line_end(&l, o);
		for (size_t k = k0; k < 3; k++) {
			for (int i = 0; i < 4; i++) {
				if (i) {
					pt_line_puts(&l, "  ");
					pt_line_rep(&l, ' ', w[i] - strlen(cell[k][i]));
				}
				pt_line_puts(&l, cell[k][i]);
				if (!i)
					pt_line_rep(&l, ' ', w[i] - strlen(cell[k][i]));
			}
			pt_line_end(&l, o);
		}
		const struct pt_cell *ratio = &t->cells[(r + 3) * t->ncols + c_avg];
		if (has_reader && ratio->kind == PT_CELL_DOUBLE)
			pt_out_printf(o, "Reader ratio: %.*f%% of the batch cost\n", PT_TEXT_DECIMALS, ratio->u.d);
	}
	free(l.p);
}
