/*
 * Aligned text tables: a title line, a "Time unit:" line when the table has
 * time columns, the header, a rule of dashes, then rows. Numbers are right
 * aligned, strings left aligned and cut to 60 characters with "..." unless
 * --wide. Null cells print as "-". Detail columns (pt_col.detail) print only
 * with --wide; a table without rows prints "(no rows: <reason>)" under its
 * rule. Control bytes of strings (ESC, tab, newline, DEL, C1) print as "\xHH"
 * (pt_text_escape), so that a name from a dump cannot drive the terminal;
 * widths and cuts count the escaped text.
 * Boxed tables (summary, diff) print in their own layout (export-boxed.c).
 */
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

#define MAX_STR 60

/* A cell's text, its length as printed (cut to MAX_STR unless wide) in *n,
 * and its full length in *full, control bytes escaped (pt_text_escape). The
 * escaped text of a string with control bytes is made only when esc is not
 * NULL (the printing pass; the caller frees *esc): the width pass needs the
 * lengths alone. Rows made when read are read once per pass. */
static const char *cell_text(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, bool wide,
			     char *vb, size_t *n, size_t *full, char **esc)
{
	const struct pt_cell *cell = &pt_table_row(t, r)[c];
	if (cell->kind == PT_CELL_NULL) {
		*n = *full = 1;
		return "-";
	}
	if (cell->kind == PT_CELL_STR) {
		const char *s = cell->u.s;
		*full = pt_text_escaped_len(s, cell->len);
		if (*full != cell->len && esc)
			s = *esc = pt_text_escape(s, cell->len, NULL);
		*n = !wide && *full > MAX_STR ? MAX_STR : *full;
		return s;
	}
	*n = *full = pt_export_cell_num(t, r, c, u, true, vb);
	return vb;
}

/* Bytes of s kept before "..." when a cell of len bytes is cut to MAX_STR: an
 * escape "\xHH" is kept whole or left out. */
static size_t cut_at(const char *s, size_t len)
{
	size_t k = MAX_STR - 3;
	for (size_t b = k >= 3 ? k - 3 : 0; b < k; b++)
		if (s[b] == '\\' && b + 4 <= len && s[b + 1] == 'x' && b + 4 > k)
			return b;
	return k;
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
	size_t full;
	size_t *w = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
	size_t *col = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*col)); /* the columns printed */
	size_t nc = 0;
	bool has_time = false;
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->cols[c].detail && !wide)
			continue;
		col[nc++] = c;
		w[c] = strlen(t->cols[c].name);
		has_time |= t->cols[c].type == PT_COL_TIME;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 0; i < nc; i++) {
			size_t n, c = col[i];
			cell_text(t, r, c, u, wide, vb, &n, &full, NULL);
			if (n > w[c])
				w[c] = n;
		}
	pt_out_puts(o, t->title);
	pt_out_putc(o, '\n');
	if (has_time)
		pt_out_printf(o, "Time unit: %s\n", pt_time_unit_name(u));
	for (size_t i = 0; i < nc; i++) {
		size_t c = col[i];
		bool left = t->cols[c].type == PT_COL_STR;
		size_t n = strlen(t->cols[c].name);
		if (i)
			pt_out_puts(o, "  ");
		if (!left)
			pad(o, w[c] - n);
		pt_out_puts(o, t->cols[c].name);
		if (left && i + 1 < nc)
			pad(o, w[c] - n);
	}
	pt_out_putc(o, '\n');
	for (size_t i = 0; i < nc; i++) {
		if (i)
			pt_out_puts(o, "  ");
		for (size_t k = 0; k < w[col[i]]; k++)
			pt_out_putc(o, '-');
	}
	pt_out_putc(o, '\n');
	if (!t->nrows)
		pt_out_printf(o, "(no rows: %s)\n", t->empty ? t->empty : "none");
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t i = 0; i < nc; i++) {
			size_t c = col[i];
			const struct pt_cell *cell = &pt_table_row(t, r)[c];
			size_t n;
			char *esc = NULL;
			s = cell_text(t, r, c, u, wide, vb, &n, &full, &esc);
			bool left = t->cols[c].type == PT_COL_STR;
			bool cut = cell->kind == PT_CELL_STR && n < full;
			if (i)
				pt_out_puts(o, "  ");
			if (!left)
				pad(o, w[c] - n);
			if (cut) {
				size_t k = cut_at(s, full);
				pt_out_write(o, s, k);
				pt_out_puts(o, "...");
				if (i + 1 < nc)
					pad(o, MAX_STR - 3 - k); /* an escape left out */
			} else {
				pt_out_write(o, s, n);
			}
			if (left && i + 1 < nc)
				pad(o, w[c] - n);
			free(esc);
		}
		pt_out_putc(o, '\n');
	}
	free(col);
	free(w);
}

void pt_export_text(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	enum pt_time_unit u = pt_export_unit(opts);
	for (size_t i = 0; i < n; i++) {
		if (i && tables[i - 1]->style == PT_STYLE_PLAIN) /* a boxed table ends in empty lines */
			pt_out_putc(o, '\n');
		if (tables[i]->style == PT_STYLE_BOXED)
			pt_export_boxed(o, tables[i], opts->wide);
		else
			one(o, tables[i], u, opts->wide);
	}
}
