#include "table/table.h"

#include <stdlib.h>
#include <string.h>

#include "support/fmt.h"
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
	for (size_t i = 0; i < t->ngroups; i++)
		free(t->groups[i].title);
	free(t->groups);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t->empty);
	free(t->unit);
	free(t->name);
	free(t->title);
	free(t);
}

void pt_table_add_col(struct pt_table *t, const char *name, enum pt_col_type type, enum pt_col_role role,
		      int decimals)
{
	/* columns are fixed before the first row */
	t->cols = pt_xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	t->cols[t->ncols++] = (struct pt_col){ .name = pt_xstrdup(name), .type = type, .role = role, .decimals = decimals };
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

struct pt_table *pt_table_new_boxed(const char *name, const char *title, const char *unit)
{
	struct pt_table *t = pt_table_new(name, title);
	t->style = PT_STYLE_BOXED;
	t->unit = unit ? pt_xstrdup(unit) : NULL;
	return t;
}

void pt_table_add_text_col(struct pt_table *t, const char *head, size_t minw, bool right, bool cut)
{
	pt_table_add_col(t, head, PT_COL_STR, PT_ROLE_LABEL, 0);
	struct pt_col *c = &t->cols[t->ncols - 1];
	c->minw = minw;
	c->right = right;
	c->cut = cut;
}

void pt_table_add_text_row(struct pt_table *t, const char *const *cells)
{
	size_t r = pt_table_add_row(t);
	for (size_t c = 0; c < t->ncols; c++)
		if (cells[c])
			pt_table_set_strdup(t, r, c, cells[c], strlen(cells[c]));
}

void pt_table_add_group(struct pt_table *t, const char *title)
{
	pt_xgrow((void **)&t->groups, &t->cap_groups, t->ngroups + 1, sizeof(*t->groups));
	t->groups[t->ngroups++] = (struct pt_table_group){ t->nrows, title ? pt_xstrdup(title) : NULL };
}

void pt_table_add_note(struct pt_table *t, const char *line)
{
	pt_xgrow((void **)&t->notes, &t->cap_notes, t->nnotes + 1, sizeof(*t->notes));
	t->notes[t->nnotes++] = pt_xstrdup(line);
}

const char *pt_time_unit_name(enum pt_time_unit u)
{
	switch (u) {
	case PT_TU_US:
		return "us";
	case PT_TU_MS:
		return "ms";
	case PT_TU_S:
		return "s";
	default:
		return "ns";
	}
}

int64_t pt_time_unit_div(enum pt_time_unit u)
{
	switch (u) {
	case PT_TU_US:
		return 1000;
	case PT_TU_MS:
		return 1000000;
	case PT_TU_S:
		return 1000000000;
	default:
		return 1;
	}
}

void pt_table_set_empty(struct pt_table *t, const char *reason)
{
	free(t->empty);
	t->empty = pt_xstrdup(reason);
}

void pt_table_set_detail(struct pt_table *t, size_t col)
{
	t->cols[col].detail = true;
}

void pt_table_set_default_cols(struct pt_table *t, const char *const *names)
{
	for (size_t c = 0; c < t->ncols; c++) {
		bool keep = false;
		for (size_t i = 0; names[i] && !keep; i++)
			keep = strcmp(t->cols[c].name, names[i]) == 0;
		t->cols[c].detail = !keep;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

enum pt_time_unit pt_time_unit_pick(int64_t *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i])
			v[k++] = v[i] < 0 ? (v[i] == INT64_MIN ? INT64_MAX : -v[i]) : v[i];
	if (!k)
		return PT_TU_MS;
	qsort(v, k, sizeof(*v), cmp_i64);
	int64_t med = v[k / 2];
	static const enum pt_time_unit order[] = { PT_TU_S, PT_TU_MS, PT_TU_US };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (med >= pt_time_unit_div(order[i]) / 10) /* at least 0.100 of it */
			return order[i];
	return PT_TU_NS;
}

const char *pt_time_text(char *b, int64_t ns, enum pt_time_unit u)
{
	if (u == PT_TU_DEFAULT) {
		int64_t v = ns;
		u = pt_time_unit_pick(&v, 1);
	}
	size_t n = pt_fmt_scaled(b, ns, pt_time_unit_div(u), u == PT_TU_NS ? 0 : PT_TEXT_TIME_DECIMALS);
	b[n++] = ' ';
	strcpy(b + n, pt_time_unit_name(u));
	return b;
}

#define PICK_ROWS 100000

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

bool pt_col_is_instant(const struct pt_col *c)
{
	static const char *const names[] = { "start", "end", "first", "last", "ts" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(c->name, names[i]))
			return true;
	return ends_with(c->name, "_start") || ends_with(c->name, "_end");
}

enum pt_time_unit pt_table_pick_unit(const struct pt_table *t)
{
	size_t nr = t->nrows < PICK_ROWS ? t->nrows : PICK_ROWS, n = 0, cap = 0;
	int64_t *v = NULL;
	bool spans = false; /* a time column that is not a point in time */
	for (size_t c = 0; c < t->ncols; c++) {
		cap += t->cols[c].type == PT_COL_TIME;
		spans |= t->cols[c].type == PT_COL_TIME && !pt_col_is_instant(&t->cols[c]);
	}
	if (!cap || !nr)
		return PT_TU_MS;
	v = pt_xmalloc(cap * nr * sizeof(*v));
	for (size_t r = 0; r < nr; r++) {
		const struct pt_cell *row = pt_table_row(t, r);
		for (size_t c = 0; c < t->ncols; c++)
			if (t->cols[c].type == PT_COL_TIME && row[c].kind == PT_CELL_INT &&
			    !(spans && pt_col_is_instant(&t->cols[c])))
				v[n++] = row[c].u.i;
	}
	enum pt_time_unit u = pt_time_unit_pick(v, n);
	free(v);
	return u;
}
