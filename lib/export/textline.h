/*
 * One line of text output built before it is written, so that no line ends
 * in spaces (proftool(1) OUTPUT, "Text"): the text printers (export-text.c,
 * export-boxed.c, export-perf.c) pad cells into it and write it trimmed.
 */
#ifndef PT_EXPORT_TEXTLINE_H
#define PT_EXPORT_TEXTLINE_H
#include <stdlib.h>
#include <string.h>

#include "support/out.h"
#include "support/xalloc.h"

struct pt_line {
	char *p;
	size_t n, cap;
};

static inline void pt_line_add(struct pt_line *l, const char *s, size_t n)
{
	pt_xgrow((void **)&l->p, &l->cap, l->n + n + 1, 1);
	memcpy(l->p + l->n, s, n);
	l->n += n;
}

static inline void pt_line_puts(struct pt_line *l, const char *s)
{
	pt_line_add(l, s, strlen(s));
}

static inline void pt_line_rep(struct pt_line *l, char ch, size_t n)
{
	pt_xgrow((void **)&l->p, &l->cap, l->n + n + 1, 1);
	memset(l->p + l->n, ch, n);
	l->n += n;
}

/* Write the line without its trailing spaces, then '\n'; the line is emptied. */
static inline void pt_line_end(struct pt_line *l, struct pt_out *o)
{
	size_t n = l->n;
	while (n && l->p[n - 1] == ' ')
		n--;
	if (n)
		pt_out_write(o, l->p, n);
	pt_out_putc(o, '\n');
	l->n = 0;
}

#endif
