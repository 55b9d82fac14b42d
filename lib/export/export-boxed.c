/*
 * Boxed text tables (PT_STYLE_BOXED), the layout of summary.md §5:
 *
 *   title line: (L - len) / 2 dashes, the text, dashes up to L
 *   "Time unit: <u>" (tables with a unit)
 *   separator (per column w dashes + two spaces), header, separator
 *   rows: every cell padded to its width and followed by two spaces; right-
 *         aligned columns to the right, the others to the left; a cut column
 *         cut to w - 3 code points + "..." unless wide; group title lines
 *         centred in dashes over L, or separators
 *   separator; the note lines and a closing rule of L dashes; two empty lines
 *
 * Widths count Unicode code points; a cut never splits a UTF-8 sequence.
 * Control bytes of cells, titles and notes (ESC, tab, DEL, C1) print as
 * "\xHH" text (pt_text_escape): a name from a dump cannot drive the terminal.
 */
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

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

/* s (NUL-terminated) with its control bytes escaped: s itself, or a copy kept in *own. */
static const char *esc(const char *s, size_t n, char **own)
{
	*own = NULL;
	if (pt_text_escaped_len(s, n) == n)
		return s;
	return *own = pt_text_escape(s, n, NULL);
}

static void title_line(struct pt_out *o, const char *raw, size_t L)
{
	char *own;
	const char *text = esc(raw, strlen(raw), &own);
	size_t n = ulen(text);
	if (n >= L) {
		pt_out_puts(o, text);
		pt_out_putc(o, '\n');
	} else {
		size_t left = (L - n) / 2;
		rep(o, '-', left);
		pt_out_puts(o, text);
		rep(o, '-', L - n - left);
		pt_out_putc(o, '\n');
	}
	free(own);
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

void pt_export_boxed(struct pt_out *o, const struct pt_table *t, bool wide)
{
	size_t nc = t->ncols, nr = t->nrows;
	/* the text of every cell, escaped: "-" for a null cell; copies in own */
	size_t ncells = nr * nc + 1;
	const char **txt = pt_xmalloc(ncells * sizeof(*txt));
	char **own = pt_xmalloc(ncells * sizeof(*own));
	size_t nown = 0;
	for (size_t r = 0; r < nr; r++) {
		const struct pt_cell *row = pt_table_row(t, r);
		for (size_t c = 0; c < nc; c++) {
			const char **x = &txt[r * nc + c];
			if (row[c].kind != PT_CELL_STR) {
				*x = "-";
				continue;
			}
			*x = esc(row[c].u.s, row[c].len, &own[nown]);
			nown += own[nown] != NULL;
		}
	}
	size_t *w = pt_xcalloc(nc ? nc : 1, sizeof(*w));
	size_t L = 0;
	for (size_t c = 0; c < nc; c++) {
		const struct pt_col *k = &t->cols[c];
		w[c] = k->minw;
		size_t h = ulen(k->name);
		if (h > w[c])
			w[c] = h;
		if (k->cut && !wide)
			continue;
		for (size_t r = 0; r < nr; r++) {
			size_t n = ulen(txt[r * nc + c]);
			if (n > w[c])
				w[c] = n;
		}
	}
	for (size_t c = 0; c < nc; c++)
		L += w[c] + 2;
	L = L >= 2 ? L - 2 : 0;
	title_line(o, t->title, L);
	if (t->unit)
		pt_out_printf(o, "Time unit: %s\n", t->unit);
	sep(o, w, nc);
	for (size_t c = 0; c < nc; c++)
		cell(o, t->cols[c].name, w[c], t->cols[c].right, false);
	pt_out_putc(o, '\n');
	sep(o, w, nc);
	size_t gi = 0;
	for (size_t r = 0; r <= nr; r++) {
		for (; gi < t->ngroups && t->groups[gi].row == r; gi++) {
			if (t->groups[gi].title)
				title_line(o, t->groups[gi].title, L);
			else
				sep(o, w, nc);
		}
		if (r == nr) {
			if (!nr) /* an empty table says why, under its group titles */
				pt_out_printf(o, "(no rows: %s)\n", t->empty ? t->empty : "none");
			break;
		}
		for (size_t c = 0; c < nc; c++)
			cell(o, txt[r * nc + c], w[c], t->cols[c].right, t->cols[c].cut && !wide);
		pt_out_putc(o, '\n');
	}
	sep(o, w, nc);
	if (t->nnotes) {
		for (size_t i = 0; i < t->nnotes; i++) {
			char *ow;
			pt_out_puts(o, esc(t->notes[i], strlen(t->notes[i]), &ow));
			free(ow);
			pt_out_putc(o, '\n');
		}
		rep(o, '-', L);
		pt_out_putc(o, '\n');
	}
	pt_out_puts(o, "\n\n");
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(txt);
	free(w);
}
