/*
 * JSON: one document per run,
 *   {"proftool": "<version>", "views": [{"name", "unit", "columns", "rows": [{...}]}]}
 * A table with rows_apart (summary.md §6) starts its closing "]}" on a line
 * of its own.
 * JSON lines: one object per row with a "view" key first.
 * Time columns carry integer ns ("_ns") unless a unit is chosen; null cells are null.
 */
#include <math.h>
#include <string.h>

#include "export/export.h"
#include "export/jsonw.h"
#include "support/out.h"
#include "table/table.h"

static void row(struct pt_out *o, const struct pt_table *t, size_t r, enum pt_time_unit u, bool view_key)
{
	char nb[128], vb[64];
	pt_out_putc(o, '{');
	if (view_key) {
		pt_out_puts(o, "\"view\":");
		pt_jsonw_str(o, t->name, strlen(t->name));
		if (t->ncols)
			pt_out_putc(o, ',');
	}
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			pt_out_putc(o, ',');
		const char *name = pt_export_col_name(t, c, u, nb);
		pt_jsonw_str(o, name, strlen(name));
		pt_out_putc(o, ':');
		const struct pt_cell *cell = &pt_table_row(t, r)[c];
		if (cell->kind == PT_CELL_NULL || (cell->kind == PT_CELL_DOUBLE && !isfinite(cell->u.d)))
			pt_out_puts(o, "null");
		else if (cell->kind == PT_CELL_STR)
			pt_jsonw_str(o, cell->u.s, cell->len);
		else
			pt_out_write(o, vb, pt_export_cell_num(t, r, c, u, false, vb));
	}
	pt_out_putc(o, '}');
}

void pt_export_json(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	enum pt_time_unit u = pt_export_unit(opts);
	char nb[128];
	if (opts->format == PT_FMT_JSONL) {
		for (size_t i = 0; i < n; i++)
			for (size_t r = 0; r < tables[i]->nrows; r++) {
				row(o, tables[i], r, u, true);
				pt_out_putc(o, '\n');
			}
		return;
	}
	pt_out_puts(o, "{\"proftool\":\"" PT_VERSION "\",\"views\":[");
	for (size_t i = 0; i < n; i++) {
		const struct pt_table *t = tables[i];
		if (i)
			pt_out_putc(o, ',');
		pt_out_puts(o, "\n{\"name\":");
		pt_jsonw_str(o, t->name, strlen(t->name));
		pt_out_puts(o, ",\"unit\":");
		const char *un = pt_time_unit_name(u);
		pt_jsonw_str(o, un, strlen(un));
		pt_out_puts(o, ",\"columns\":[");
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				pt_out_putc(o, ',');
			const char *name = pt_export_col_name(t, c, u, nb);
			pt_jsonw_str(o, name, strlen(name));
		}
		pt_out_puts(o, "],\"rows\":[");
		for (size_t r = 0; r < t->nrows; r++) {
			if (r)
				pt_out_putc(o, ',');
			pt_out_putc(o, '\n');
			row(o, t, r, u, false);
		}
		if (t->rows_apart)
			pt_out_putc(o, '\n');
		pt_out_puts(o, "]}");
	}
	pt_out_puts(o, "\n]}\n");
}
