/*
 * Text tables of proftool summary in the layout of summary.md §5:
 *
 *   title line: (L - len) / 2 dashes, the text, dashes up to L
 *   "Time unit: <u>" (views with times)
 *   separator (per column w dashes + two spaces), header, separator
 *   rows: every cell padded to its width and followed by two spaces; numbers
 *         right-aligned, names left-aligned and cut to w - 3 code points +
 *         "..." unless wide; group title lines centred in dashes over L
 *   separator; the note lines and a closing rule of L dashes; two empty lines
 *
 * Widths count Unicode code points; a cut never splits a UTF-8 sequence.
 * Control bytes of names (ESC, tab, DEL, C1) are kept as "\xHH" text
 * (pt_text_escape): a name from a dump cannot drive the terminal.
 */
#include <stdlib.h>
#include <string.h>

#include "export/jsonw.h"
#include "pass/pass-summary.h"
#include "support/out.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "table/table.h"

#define MAX_COLS 24

struct st_col {
	char *head;
	size_t minw;
	bool right, name;
};

struct st_row {
	char **cells;  /* NULL for a group title line */
	char *group;
};

struct pt_stext {
	char *title;
	char *unit;
	struct st_col cols[MAX_COLS];
	size_t ncols;
	PT_VEC(struct st_row) rows;
	PT_VEC(char *) note;
	size_t nitems;
};

struct pt_stext *pt_stext_new(const char *title, const char *unit)
{
	struct pt_stext *t = pt_xcalloc(1, sizeof(*t));
	t->title = pt_xstrdup(title);
	t->unit = unit ? pt_xstrdup(unit) : NULL;
	return t;
}

void pt_stext_col(struct pt_stext *t, const char *head, size_t minw, bool right, bool name)
{
	if (t->ncols == MAX_COLS)
		return;
	t->cols[t->ncols++] = (struct st_col){ pt_xstrdup(head), minw, right, name };
}

void pt_stext_row(struct pt_stext *t, const char *const *cells)
{
	struct st_row r = { pt_xcalloc(t->ncols, sizeof(char *)), NULL };
	for (size_t c = 0; c < t->ncols; c++)
		r.cells[c] = cells[c] ? pt_text_escape(cells[c], strlen(cells[c]), NULL) : pt_xstrdup("-");
	pt_vec_push(&t->rows, r);
	t->nitems++;
}

void pt_stext_group(struct pt_stext *t, const char *title)
{
	struct st_row r = { NULL, title ? pt_text_escape(title, strlen(title), NULL) : NULL };
	pt_vec_push(&t->rows, r);
}

void pt_stext_note(struct pt_stext *t, const char *line)
{
	char *s = pt_text_escape(line, strlen(line), NULL);
	pt_vec_push(&t->note, s);
}

size_t pt_stext_nrows(const struct pt_stext *t)
{
	return t ? t->nitems : 0;
}

void pt_stext_free(struct pt_stext *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows.n; i++) {
		if (t->rows.v[i].cells) {
			for (size_t c = 0; c < t->ncols; c++)
				free(t->rows.v[i].cells[c]);
			free(t->rows.v[i].cells);
		}
		free(t->rows.v[i].group);
	}
	pt_vec_free(&t->rows);
	for (size_t i = 0; i < t->note.n; i++)
		free(t->note.v[i]);
	pt_vec_free(&t->note);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c].head);
	free(t->title);
	free(t->unit);
	free(t);
}

/* Number of code points of a UTF-8 string. */
static size_t ulen(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Byte length of the first k code points. */
static size_t ubytes(const char *s, size_t k)
{
	size_t i = 0;
	while (s[i] && k) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		k--;
	}
	return i;
}

static void rep(struct pt_out *o, char ch, size_t n)
{
	char buf[64];
	memset(buf, ch, sizeof(buf));
	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);
		pt_out_write(o, buf, k);
		n -= k;
	}
}

static void title_line(struct pt_out *o, const char *text, size_t L)
{
	size_t n = ulen(text);
	if (n >= L) {
		pt_out_puts(o, text);
		pt_out_putc(o, '\n');
		return;
	}
	size_t left = (L - n) / 2;
	rep(o, '-', left);
	pt_out_puts(o, text);
	rep(o, '-', L - n - left);
	pt_out_putc(o, '\n');
}

static void cell(struct pt_out *o, const char *s, size_t w, bool right, bool cut)
{
	size_t n = ulen(s);
	if (cut && n > w) {
		size_t keep = w > 3 ? w - 3 : 0;
		pt_out_write(o, s, ubytes(s, keep));
		rep(o, '.', w - keep);
	} else if (right) {
		rep(o, ' ', w > n ? w - n : 0);
		pt_out_puts(o, s);
	} else {
		pt_out_puts(o, s);
		rep(o, ' ', w > n ? w - n : 0);
	}
	pt_out_puts(o, "  ");
}

static void sep(struct pt_out *o, const size_t *w, size_t k)
{
	for (size_t c = 0; c < k; c++) {
		rep(o, '-', w[c]);
		pt_out_puts(o, "  ");
	}
	pt_out_putc(o, '\n');
}

void pt_stext_write(struct pt_out *o, const struct pt_stext *t, bool wide)
{
	size_t w[MAX_COLS];
	size_t L = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		const struct st_col *k = &t->cols[c];
		w[c] = k->minw;
		size_t h = ulen(k->head);
		if (h > w[c])
			w[c] = h;
		if (k->name && !wide)
			continue;
		for (size_t r = 0; r < t->rows.n; r++)
			if (t->rows.v[r].cells) {
				size_t n = ulen(t->rows.v[r].cells[c]);
				if (n > w[c])
					w[c] = n;
			}
	}
	for (size_t c = 0; c < t->ncols; c++)
		L += w[c] + 2;
	L = L >= 2 ? L - 2 : 0;
	title_line(o, t->title, L);
	if (t->unit)
		pt_out_printf(o, "Time unit: %s\n", t->unit);
	sep(o, w, t->ncols);
	for (size_t c = 0; c < t->ncols; c++)
		cell(o, t->cols[c].head, w[c], t->cols[c].right, false);
	pt_out_putc(o, '\n');
	sep(o, w, t->ncols);
	for (size_t r = 0; r < t->rows.n; r++) {
		const struct st_row *row = &t->rows.v[r];
		if (!row->cells) {
			if (row->group)
				title_line(o, row->group, L);
			else
				sep(o, w, t->ncols);
			continue;
		}
		for (size_t c = 0; c < t->ncols; c++)
			cell(o, row->cells[c], w[c], t->cols[c].right, t->cols[c].name && !wide);
		pt_out_putc(o, '\n');
	}
	sep(o, w, t->ncols);
	if (t->note.n) {
		for (size_t i = 0; i < t->note.n; i++) {
			pt_out_puts(o, t->note.v[i]);
			pt_out_putc(o, '\n');
		}
		rep(o, '-', L);
		pt_out_putc(o, '\n');
	}
	pt_out_puts(o, "\n\n");
}

void pt_summary_write_text(struct pt_out *o, const struct pt_summary *s, bool wide)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t r = 0; r < s->v[i].ntext; r++)
			if (pt_stext_nrows(s->v[i].text[r]))
				pt_stext_write(o, s->v[i].text[r], wide);
}

/* JSON of summary.md §6: a line break after "views":[ and after each "rows":[,
 * between rows and views, and before each "]}". */
static void json_row(struct pt_out *o, const struct pt_table *t, size_t r, enum pt_time_unit u, bool view_key)
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
		const struct pt_cell *cl = &t->cells[r * t->ncols + c];
		if (cl->kind == PT_CELL_NULL)
			pt_out_puts(o, "null");
		else if (cl->kind == PT_CELL_STR)
			pt_jsonw_str(o, cl->u.s, cl->len);
		else
			pt_out_write(o, vb, pt_export_cell_num(t, r, c, u, false, vb));
	}
	pt_out_putc(o, '}');
}

void pt_summary_write_json(struct pt_out *o, const struct pt_summary *s, const struct pt_export_opts *ex)
{
	enum pt_time_unit u = pt_export_unit(ex);
	char nb[128];
	if (ex->format == PT_FMT_JSONL) {
		for (size_t i = 0; i < s->n; i++)
			for (size_t r = 0; r < s->v[i].data->nrows; r++) {
				json_row(o, s->v[i].data, r, u, true);
				pt_out_putc(o, '\n');
			}
		return;
	}
	pt_out_puts(o, "{\"proftool\":\"" PT_VERSION "\",\"views\":[\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct pt_table *t = s->v[i].data;
		if (i)
			pt_out_puts(o, ",\n");
		pt_out_puts(o, "{\"name\":");
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
		pt_out_puts(o, "],\"rows\":[\n");
		for (size_t r = 0; r < t->nrows; r++) {
			if (r)
				pt_out_puts(o, ",\n");
			json_row(o, t, r, u, false);
			if (r + 1 == t->nrows)
				pt_out_putc(o, '\n');
		}
		pt_out_puts(o, "]}");
	}
	pt_out_puts(o, "\n]}\n");
}
