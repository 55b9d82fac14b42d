/*
 * Plain text tables, in the one text style (proftool(1) OUTPUT, "Text"): a
 * title line, a "Time unit:" line when the table has time columns, the
 * header, one rule of dashes, the rows, then the notes, wrapped. Numbers are
 * right aligned, strings left aligned. Times print in the table's unit
 * (pt_export_table_unit: the one asked for, or the table's pick) with three
 * decimals, other fractions with two (export.h). Unless --wide, a string
 * longer than 60 columns is shortened in the middle (pt_text_shorten), and,
 * when the table can fit PT_TEXT_FIT columns so, the widest string columns
 * are narrowed further, down to 16 columns, until it fits. Null cells print
 * as "-". Detail columns (pt_col.detail) print only with --wide; a table
 * without rows prints
 * "(no rows: <reason>)" under its rule. Control bytes of strings (ESC, tab,
 * newline, DEL, C1) print as "\xHH" (pt_text_escape), so that a name from a
 * dump cannot drive the terminal; widths count the escaped text's code
 * points. No line ends in spaces.
 * Boxed tables (summary, diff) print through export-boxed.c.
 */
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/textline.h"
#include "support/fmt-text.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

#define MAX_STR 60
#define MIN_STR 16

/* A cell's text and its width in *n, control bytes of strings escaped (a
 * copy in *esc when needed; the caller frees it). Rows made when read are
 * read once per pass. */
static const char *cell_text(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, char *vb,
			     size_t *bytes, size_t *n, char **esc)
{
	const struct pt_cell *cell = &pt_table_row(t, r)[c];
	*esc = NULL;
	if (cell->kind == PT_CELL_NULL) {
		*n = *bytes = 1;
		return "-";
	}
	if (cell->kind == PT_CELL_STR) {
		const char *s = cell->u.s;
		size_t len = cell->len;
		if (pt_text_escaped_len(s, len) != len)
			s = *esc = pt_text_escape(s, len, &len);
		*bytes = len;
		*n = pt_text_width(s, len);
		return s;
	}
	*n = *bytes = pt_export_cell_num(t, r, c, u, true, vb);
	return vb;
}

/* Narrow the widest string columns (not below MIN_STR nor their header) until the printed columns fit;
 * a table that cannot fit so keeps its widths. */
static void fit(const struct pt_table *t, const size_t *col, size_t nc, size_t *w)
{
	size_t least = nc ? 2 * (nc - 1) : 0;
	for (size_t i = 0; i < nc; i++) {
		size_t c = col[i], floor = strlen(t->cols[c].name);
		if (floor < MIN_STR)
			floor = MIN_STR;
		least += t->cols[c].type == PT_COL_STR && w[c] > floor ? floor : w[c];
	}
	if (least > PT_TEXT_FIT)
		return;
	for (;;) {
		size_t total = nc ? 2 * (nc - 1) : 0;
		for (size_t i = 0; i < nc; i++)
			total += w[col[i]];
		if (total <= PT_TEXT_FIT)
			return;
		size_t best = nc;
		for (size_t i = 0; i < nc; i++) {
			size_t c = col[i], floor = strlen(t->cols[c].name);
			if (floor < MIN_STR)
				floor = MIN_STR;
			if (t->cols[c].type == PT_COL_STR && w[c] > floor && (best == nc || w[c] > w[col[best]]))
				best = i;
		}
		if (best == nc)
			return;
		size_t c = col[best], floor = strlen(t->cols[c].name), over = total - PT_TEXT_FIT;
		if (floor < MIN_STR)
			floor = MIN_STR;
		/* down to the next widest string column at most, so that the cut is shared */
		size_t next = floor;
		for (size_t i = 0; i < nc; i++)
			if (i != best && t->cols[col[i]].type == PT_COL_STR && w[col[i]] > next && w[col[i]] < w[c])
				next = w[col[i]];
		size_t cut = w[c] - next;
		w[c] -= cut < over ? cut : over;
	}
}

/* Notes under the rows, wrapped with a hanging indent of two. */
static void notes(struct pt_out *o, const struct pt_table *t, size_t width)
{
	for (size_t i = 0; i < t->nnotes; i++) {
		char *x = pt_text_wrap(t->notes[i], strlen(t->notes[i]), width, 0, 2);
		pt_out_puts(o, x);
		pt_out_putc(o, '\n');
		free(x);
	}
}

static void one(struct pt_out *o, const struct pt_table *t, enum pt_time_unit u, bool wide, size_t width)
{
	char vb[64];
	size_t *w = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
	size_t *col = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*col)); /* the columns printed */
	size_t nc = 0;
	bool has_time = false;
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->cols[c].detail && !wide)
			continue;
		col[nc++] = c;
		w[c] = pt_text_width(t->cols[c].name, strlen(t->cols[c].name));
		has_time |= t->cols[c].type == PT_COL_TIME;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 0; i < nc; i++) {
			size_t n, b, c = col[i];
			char *esc;
			cell_text(t, r, c, u, vb, &b, &n, &esc);
			free(esc);
			if (!wide && t->cols[c].type == PT_COL_STR && n > MAX_STR)
				n = MAX_STR;
			if (n > w[c])
				w[c] = n;
		}
	if (!wide)
		fit(t, col, nc, w);
	struct pt_line l = { 0 };
	pt_line_puts(&l, t->title);
	pt_line_end(&l, o);
	if (has_time) {
		pt_line_puts(&l, "Time unit: ");
		pt_line_puts(&l, pt_time_unit_name(u));
		pt_line_end(&l, o);
	}
	for (size_t i = 0; i < nc; i++) {
		size_t c = col[i];
		bool left = t->cols[c].type == PT_COL_STR;
		size_t n = pt_text_width(t->cols[c].name, strlen(t->cols[c].name));
		if (i)
			pt_line_puts(&l, "  ");
		if (!left)
			pt_line_rep(&l, ' ', w[c] - n);
		pt_line_puts(&l, t->cols[c].name);
		if (left)
			pt_line_rep(&l, ' ', w[c] - n);
	}
	pt_line_end(&l, o);
	for (size_t i = 0; i < nc; i++) {
		if (i)
			pt_line_puts(&l, "  ");
		pt_line_rep(&l, '-', w[col[i]]);
	}
	pt_line_end(&l, o);
	if (!t->nrows)
		pt_out_printf(o, "(no rows: %s)\n", t->empty ? t->empty : "none");
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t i = 0; i < nc; i++) {
			size_t c = col[i], n, b;
			char *esc, *sh = NULL;
			const char *s = cell_text(t, r, c, u, vb, &b, &n, &esc);
			bool left = t->cols[c].type == PT_COL_STR;
			if (n > w[c] && (sh = pt_text_shorten(s, b, w[c], &b))) {
				s = sh;
				n = pt_text_width(s, b);
			}
			if (i)
				pt_line_puts(&l, "  ");
			if (!left && n < w[c])
				pt_line_rep(&l, ' ', w[c] - n);
			pt_line_add(&l, s, b);
			if (left && n < w[c])
				pt_line_rep(&l, ' ', w[c] - n);
			free(sh);
			free(esc);
		}
		pt_line_end(&l, o);
	}
	notes(o, t, width);
	free(l.p);
	free(col);
	free(w);
}

void pt_export_text(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	size_t width = opts->width ? opts->width : 100;
	for (size_t i = 0; i < n; i++) {
		/* one empty line between tables (a Paddle-layout table ends in its own) */
		if (i && !(tables[i - 1]->style == PT_STYLE_BOXED && tables[i - 1]->paddle))
			pt_out_putc(o, '\n');
		if (tables[i]->style == PT_STYLE_BOXED)
			pt_export_boxed(o, tables[i], opts->wide, width);
		else
			one(o, tables[i], pt_export_table_unit(tables[i], opts), opts->wide, width);
	}
}
