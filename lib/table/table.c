#include "table/table.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

struct pt_table_rows {
	pt_table_row_fn fn;
	void *arg;
	void (*free_arg)(void *);
	struct pt_cell *buf; /* row `at`, or none yet */
	size_t at;
	bool made;
};

struct pt_table *pt_table_new(const char *name, const char *title)
{
	struct pt_table *t = pt_xcalloc(1, sizeof(*t));
	t->name = pt_xstrdup(name);
	t->title = pt_xstrdup(title ? title : name);
	return t;
}

void pt_table_free(struct pt_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	free(t->cols);
	free(t->cells);
	for (size_t i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	if (t->rows) {
		if (t->rows->free_arg)
			t->rows->free_arg(t->rows->arg);
		free(t->rows->buf);
		free(t->rows);
	}
	free(t->name);
	free(t->title);
	free(t);
}

void pt_table_add_col(struct pt_table *t, const char *name, enum pt_col_type type, enum pt_col_role role,
		      int decimals)
{
	/* columns are fixed before the first row */
	t->cols = pt_xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	t->cols[t->ncols++] = (struct pt_col){ pt_xstrdup(name), type, role, decimals };
}

size_t pt_table_add_row(struct pt_table *t)
{
	if (t->nrows == t->cap_rows) {
		size_t cap = t->cap_rows ? t->cap_rows * 2 : 64;
		t->cells = pt_xrealloc(t->cells, cap * t->ncols * sizeof(*t->cells));
		t->cap_rows = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

void pt_table_set_int(struct pt_table *t, size_t row, size_t col, int64_t v)
{
	struct pt_cell *c = pt_table_cell(t, row, col);
	c->kind = PT_CELL_INT;
	c->u.i = v;
}

void pt_table_set_double(struct pt_table *t, size_t row, size_t col, double v)
{
	struct pt_cell *c = pt_table_cell(t, row, col);
	c->kind = PT_CELL_DOUBLE;
	c->u.d = v;
}

void pt_table_set_str(struct pt_table *t, size_t row, size_t col, const char *s, size_t len)
{
	struct pt_cell *c = pt_table_cell(t, row, col);
	c->kind = PT_CELL_STR;
	c->u.s = s;
	c->len = (uint32_t)len;
}

void pt_table_set_strdup(struct pt_table *t, size_t row, size_t col, const char *s, size_t len)
{
	char *d = pt_xstrndup(s, len);
	pt_xgrow((void **)&t->owned, &t->cap_owned, t->nowned + 1, sizeof(*t->owned));
	t->owned[t->nowned++] = d;
	pt_table_set_str(t, row, col, d, len);
}

int pt_table_col(const struct pt_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].name, name))
			return (int)i;
	return -1;
}

void pt_table_set_rows(struct pt_table *t, size_t nrows, pt_table_row_fn fn, void *arg, void (*free_arg)(void *))
{
	struct pt_table_rows *g = pt_xcalloc(1, sizeof(*g));
	g->fn = fn;
	g->arg = arg;
	g->free_arg = free_arg;
	g->buf = pt_xcalloc(t->ncols ? t->ncols : 1, sizeof(*g->buf));
	t->rows = g;
	t->nrows = nrows;
}

const struct pt_cell *pt_table_row(const struct pt_table *t, size_t r)
{
	struct pt_table_rows *g = t->rows;
	if (!g)
		return &t->cells[r * t->ncols];
	if (!g->made || g->at != r) {
		memset(g->buf, 0, t->ncols * sizeof(*g->buf));
		g->fn(g->arg, r, g->buf);
		g->at = r;
		g->made = true;
	}
	return g->buf;
}
