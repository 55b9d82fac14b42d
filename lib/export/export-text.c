/*
 * Aligned text tables: a title line, a "Time unit:" line when the table has
 * time columns, the header, a rule of dashes, then rows. Numbers are right
 * aligned, strings left aligned and cut to 60 characters with "..." unless
 * --wide. Null cells print as "-".
 */
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

#define MAX_STR 60

static size_t cell_text(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, bool wide,
			char *vb, const char **s)
{
	const struct pt_cell *cell = &pt_table_row(t, r)[c];
	if (cell->kind == PT_CELL_NULL) {
		*s = "-";
		return 1;
	}
	if (cell->kind == PT_CELL_STR) {
		*s = cell->u.s;
		return !wide && cell->len > MAX_STR ? MAX_STR : cell->len;
	}
	*s = vb;
	return pt_export_cell_num(t, r, c, u, true, vb);
}

static void pad(struct pt_out *o, size_t n)
{
	static const char sp[] = "                                ";
	while (n > 0) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;
		pt_out_write(o, sp, k);
		n -= k;
	}
}

static void one(struct pt_out *o, const struct pt_table *t, enum pt_time_unit u, bool wide)
{
	char vb[64];
	const char *s;
	size_t *w = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
	bool has_time = false;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->cols[c].name);
		has_time |= t->cols[c].type == PT_COL_TIME;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t n = cell_text(t, r, c, u, wide, vb, &s);
			if (n > w[c])
				w[c] = n;
		}
	pt_out_puts(o, t->title);
	pt_out_putc(o, '\n');
	if (has_time)
		pt_out_printf(o, "Time unit: %s\n", pt_time_unit_name(u));
	for (size_t c = 0; c < t->ncols; c++) {
		bool left = t->cols[c].type == PT_COL_STR;
		size_t n = strlen(t->cols[c].name);
		if (c)
			pt_out_puts(o, "  ");
		if (!left)
			pad(o, w[c] - n);
		pt_out_puts(o, t->cols[c].name);
		if (left && c + 1 < t->ncols)
			pad(o, w[c] - n);
	}
	pt_out_putc(o, '\n');
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			pt_out_puts(o, "  ");
		for (size_t i = 0; i < w[c]; i++)
			pt_out_putc(o, '-');
	}
	pt_out_putc(o, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const struct pt_cell *cell = &pt_table_row(t, r)[c];
			size_t n = cell_text(t, r, c, u, wide, vb, &s);
			bool left = t->cols[c].type == PT_COL_STR;
			bool cut = cell->kind == PT_CELL_STR && n < cell->len;
			if (c)
				pt_out_puts(o, "  ");
			if (!left)
				pad(o, w[c] - n);
			if (cut) {
				pt_out_write(o, s, n - 3);
				pt_out_puts(o, "...");
			} else {
				pt_out_write(o, s, n);
			}
			if (left && c + 1 < t->ncols)
				pad(o, w[c] - n);
		}
		pt_out_putc(o, '\n');
	}
	free(w);
}

void pt_export_text(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	enum pt_time_unit u = pt_export_unit(opts);
	for (size_t i = 0; i < n; i++) {
		if (i)
			pt_out_putc(o, '\n');
		one(o, tables[i], u, opts->wide);
	}
}
