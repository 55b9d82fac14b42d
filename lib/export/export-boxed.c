/*
 * Boxed text tables (PT_STYLE_BOXED): text cells made by a pass (summary,
 * diff). By default in the one text style of export-text.c (proftool(1)
 * OUTPUT, "Text"): the title, "Time unit: <u>" (tables with a unit), the
 * header, one rule, the rows (a group title as a line of its own), the notes
 * wrapped at the prose width. Unless --wide, a column with no value in any
 * row ("-", "- / - / - / - / -") is left out. A cut column is at most 60
 * columns wide and, when the table can fit PT_TEXT_FIT columns so, narrowed
 * further (down to 16) until it does;
 * longer cells are shortened in the middle (pt_text_shorten) unless --wide.
 * No line ends in spaces.
 *
 * A table marked paddle (`summary --layout paddle`) prints in the layout of
 * summary.md §5, byte for byte as Paddle's statistic tables:
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
#include "export/textline.h"
#include "support/fmt-text.h"
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

static void paddle(struct pt_out *o, const struct pt_table *t, bool wide, const char **txt);
static void plain(struct pt_out *o, const struct pt_table *t, bool wide, size_t width, const char **txt);

void pt_export_boxed(struct pt_out *o, const struct pt_table *t, bool wide, size_t width)
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
	if (t->paddle)
		paddle(o, t, wide, txt);
	else
		plain(o, t, wide, width, txt);
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	free(txt);
}

#define MAX_CUT 60
#define MIN_CUT 16

/* A text cell without a value: "-", or a block of them ("- / - / - / - / -"). */
static bool blank(const char *s)
{
	return s[strspn(s, "-/ ")] == 0;
}

static void plain(struct pt_out *o, const struct pt_table *t, bool wide, size_t width, const char **txt)
{
	size_t nc = t->ncols, nr = t->nrows;
	size_t *w = pt_xcalloc(nc ? nc : 1, sizeof(*w));
	bool *skip = pt_xcalloc(nc ? nc : 1, sizeof(*skip));
	size_t shown = nc;
	/* unless --wide, a column without a value in any row is left out (the CPU block of Ascend operators) */
	for (size_t c = 0; c < nc && nr && !wide; c++) {
		skip[c] = true;
		for (size_t r = 0; r < nr && skip[c]; r++)
			skip[c] = blank(txt[r * nc + c]);
		shown -= skip[c];
	}
	size_t total = shown ? 2 * (shown - 1) : 0;
	for (size_t c = 0; c < nc; c++) {
		if (skip[c])
			continue;
		w[c] = ulen(t->cols[c].name);
		for (size_t r = 0; r < nr; r++) {
			size_t n = ulen(txt[r * nc + c]);
			if (n > w[c])
				w[c] = n;
		}
		if (t->cols[c].cut && !wide && w[c] > MAX_CUT)
			w[c] = MAX_CUT > ulen(t->cols[c].name) ? MAX_CUT : ulen(t->cols[c].name);
		total += w[c];
	}
	/* narrow the widest cut column, again and again, until the table fits (when it can) */
	size_t least = total;
	for (size_t c = 0; c < nc; c++) {
		size_t floor = ulen(t->cols[c].name) > MIN_CUT ? ulen(t->cols[c].name) : MIN_CUT;
		if (!skip[c] && t->cols[c].cut && w[c] > floor)
			least -= w[c] - floor;
	}
	while (!wide && total > PT_TEXT_FIT && least <= PT_TEXT_FIT) {
		size_t best = nc;
		for (size_t c = 0; c < nc; c++) {
			size_t floor = ulen(t->cols[c].name) > MIN_CUT ? ulen(t->cols[c].name) : MIN_CUT;
			if (!skip[c] && t->cols[c].cut && w[c] > floor && (best == nc || w[c] > w[best]))
				best = c;
		}
		if (best == nc)
			break;
		size_t floor = ulen(t->cols[best].name) > MIN_CUT ? ulen(t->cols[best].name) : MIN_CUT;
		size_t cut = total - PT_TEXT_FIT < w[best] - floor ? total - PT_TEXT_FIT : w[best] - floor;
		w[best] -= cut;
		total -= cut;
	}
	struct pt_line l = { 0 };
	char *own;
	pt_line_puts(&l, esc(t->title, strlen(t->title), &own));
	free(own);
	pt_line_end(&l, o);
	if (t->unit) {
		pt_line_puts(&l, "Time unit: ");
		pt_line_puts(&l, t->unit);
		pt_line_end(&l, o);
	}
	bool first = true;
	for (size_t c = 0; c < nc; c++) {
		if (skip[c])
			continue;
		size_t n = ulen(t->cols[c].name);
		if (!first)
			pt_line_puts(&l, "  ");
		first = false;
		if (t->cols[c].right)
			pt_line_rep(&l, ' ', w[c] - n);
		pt_line_puts(&l, t->cols[c].name);
		if (!t->cols[c].right)
			pt_line_rep(&l, ' ', w[c] - n);
	}
	pt_line_end(&l, o);
	first = true;
	for (size_t c = 0; c < nc; c++) {
		if (skip[c])
			continue;
		if (!first)
			pt_line_puts(&l, "  ");
		first = false;
		pt_line_rep(&l, '-', w[c]);
	}
	pt_line_end(&l, o);
	if (!nr)
		pt_out_printf(o, "(no rows: %s)\n", t->empty ? t->empty : "none");
	size_t gi = 0;
	for (size_t r = 0; r < nr; r++) {
		for (; gi < t->ngroups && t->groups[gi].row == r; gi++)
			if (t->groups[gi].title) {
				pt_line_puts(&l, esc(t->groups[gi].title, strlen(t->groups[gi].title), &own));
				free(own);
				pt_line_end(&l, o);
			}
		first = true;
		for (size_t c = 0; c < nc; c++) {
			if (skip[c])
				continue;
			const char *s = txt[r * nc + c];
			size_t b = strlen(s), n = ulen(s);
			char *sh = NULL;
			if (n > w[c] && !wide && (sh = pt_text_shorten(s, b, w[c], &b))) {
				s = sh;
				n = ulen(s);
			}
			if (!first)
				pt_line_puts(&l, "  ");
			first = false;
			if (t->cols[c].right && n < w[c])
				pt_line_rep(&l, ' ', w[c] - n);
			pt_line_add(&l, s, b);
			if (!t->cols[c].right && n < w[c])
				pt_line_rep(&l, ' ', w[c] - n);
			free(sh);
		}
		pt_line_end(&l, o);
	}
	for (size_t i = 0; i < t->nnotes; i++) {
		char *x = pt_text_wrap(t->notes[i], strlen(t->notes[i]), width, 0, 2);
		pt_out_puts(o, x);
		pt_out_putc(o, '\n');
		free(x);
	}
	free(l.p);
	free(skip);
	free(w);
}

static void paddle(struct pt_out *o, const struct pt_table *t, bool wide, const char **txt)
{
	size_t nc = t->ncols, nr = t->nrows;
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
	free(w);
}
