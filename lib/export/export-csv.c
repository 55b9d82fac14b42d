/*
 * CSV: a header row of snake_case names, then one line per row; fields are
 * quoted (by libcsv) only when they need it. Time columns carry integer ns
 * unless a unit is chosen. A CSV stream is one table (proftool(1) OUTPUT):
 * the commands hand one table per stream (cmd/common.c); several given here
 * are separated by one empty line, which no reader takes for one table.
 */
#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

static void field(struct pt_out *o, const char *s, size_t n, char **qbuf, size_t *qcap)
{
	/* four memchr() (vectorised in libc) instead of a loop testing each byte four ways: the
	 * fields of an ops export of the 64 MiB HWTS model cost 74 M instructions instead of 115 M */
	bool quote = n && (s[0] == ' ' || s[n - 1] == ' ' || memchr(s, ',', n) || memchr(s, '"', n) ||
			   memchr(s, '\n', n) || memchr(s, '\r', n));
	if (!quote) {
		pt_out_write(o, s, n);
		return;
	}
	pt_xgrow((void **)qbuf, qcap, 2 * n + 3, 1);
	size_t k = csv_write(*qbuf, *qcap, s, n);
	pt_out_write(o, *qbuf, k);
}

void pt_export_csv_field(struct pt_out *o, const char *s, size_t n)
{
	char *qbuf = NULL;
	size_t qcap = 0;
	field(o, s, n, &qbuf, &qcap);
	free(qbuf);
}

static void header(struct pt_out *o, const struct pt_table *t, enum pt_time_unit u, char **qbuf, size_t *qcap)
{
	char nb[128];
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			pt_out_putc(o, ',');
		const char *name = pt_export_col_name(t, c, u, nb);
		field(o, name, strlen(name), qbuf, qcap);
	}
	pt_out_putc(o, '\n');
}

static void row(struct pt_out *o, const struct pt_table *t, const struct pt_cell *cells, enum pt_time_unit u,
		char **qbuf, size_t *qcap)
{
	char vb[64];
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			pt_out_putc(o, ',');
		const struct pt_cell *cell = &cells[c];
		if (cell->kind == PT_CELL_STR)
			field(o, cell->u.s, cell->len, qbuf, qcap);
		else if (cell->kind != PT_CELL_NULL)
			pt_out_write(o, vb, pt_export_num(t, cell, c, u, false, vb));
	}
	pt_out_putc(o, '\n');
}

void pt_export_csv(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	enum pt_time_unit u = pt_export_unit(opts);
	char *qbuf = NULL;
	size_t qcap = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pt_table *t = tables[i];
		if (i)
			pt_out_putc(o, '\n');
		header(o, t, u, &qbuf, &qcap);
		for (size_t r = 0; r < t->nrows; r++)
			row(o, t, pt_table_row(t, r), u, &qbuf, &qcap);
	}
	free(qbuf);
}

void pt_export_csv_begin(struct pt_csv_writer *w, struct pt_out *o, const struct pt_table *t,
			 const struct pt_export_opts *opts)
{
	memset(w, 0, sizeof(*w));
	w->o = o;
	w->t = t;
	w->u = pt_export_unit(opts);
	header(o, t, w->u, &w->qbuf, &w->qcap);
}

void pt_export_csv_row(struct pt_csv_writer *w, const struct pt_cell *cells)
{
	row(w->o, w->t, cells, w->u, &w->qbuf, &w->qcap);
}

void pt_export_csv_end(struct pt_csv_writer *w)
{
	free(w->qbuf);
	w->qbuf = NULL;
}
