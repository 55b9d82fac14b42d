/* Format dispatch and the number rendering every exporter shares. */
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/err.h"
#include "support/fmt.h"
#include "support/xalloc.h"
#include "table/table.h"

void pt_export(struct pt_out *o, struct pt_table *const *tables, size_t n, const struct pt_export_opts *opts)
{
	switch (opts->format) {
	case PT_FMT_TABLE:
		pt_export_text(o, tables, n, opts);
		break;
	case PT_FMT_CSV:
		pt_export_csv(o, tables, n, opts);
		break;
	case PT_FMT_JSON:
	case PT_FMT_JSONL:
		pt_export_json(o, tables, n, opts);
		break;
	}
}

enum pt_time_unit pt_export_unit(const struct pt_export_opts *opts)
{
	if (opts->unit != PT_TU_DEFAULT)
		return opts->unit;
	return opts->format == PT_FMT_TABLE ? PT_TU_DEFAULT : PT_TU_NS;
}

enum pt_time_unit pt_export_table_unit(const struct pt_table *t, const struct pt_export_opts *opts)
{
	enum pt_time_unit u = pt_export_unit(opts);
	return u == PT_TU_DEFAULT ? pt_table_pick_unit(t) : u;
}

static int unit_digits(enum pt_time_unit u)
{
	switch (u) {
	case PT_TU_US:
		return 3;
	case PT_TU_MS:
		return 6;
	case PT_TU_S:
		return 9;
	default:
		return 0;
	}
}

const char *pt_export_col_name(const struct pt_table *t, size_t col, enum pt_time_unit u, char *buf)
{
	const struct pt_col *c = &t->cols[col];
	if (c->type != PT_COL_TIME)
		return c->name;
	snprintf(buf, 128, "%s_%s", c->name, pt_time_unit_name(u));
	return buf;
}

size_t pt_export_cell_num(const struct pt_table *t, size_t row, size_t col, enum pt_time_unit u, bool text,
			  char *buf)
{
	return pt_export_num(t, &pt_table_row(t, row)[col], col, u, text, buf);
}

size_t pt_export_num(const struct pt_table *t, const struct pt_cell *c, size_t col, enum pt_time_unit u, bool text,
		     char *buf)
{
	const struct pt_col *k = &t->cols[col];
	switch (c->kind) {
	case PT_CELL_INT:
		if (k->type == PT_COL_TIME && u != PT_TU_NS)
			/* text: PT_TEXT_TIME_DECIMALS, rounded; data formats: exact */
			return pt_fmt_scaled(buf, c->u.i, pt_time_unit_div(u), text ? PT_TEXT_TIME_DECIMALS : unit_digits(u));
		return pt_fmt_i64(buf, c->u.i);
	case PT_CELL_DOUBLE: {
		int n = snprintf(buf, 64, "%.*f", text ? PT_TEXT_DECIMALS : k->decimals, c->u.d);
		return n < 0 ? 0 : (size_t)n;
	}
	default:
		return 0;
	}
}

char *pt_export_names(struct pt_table *const *tables, size_t n, size_t skip)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(tables[i]->name) + 1;
	char *s = pt_xmalloc(len), *p = s;
	*p = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == skip)
			continue;
		p += sprintf(p, "%s%s", p == s ? "" : ",", tables[i]->name);
	}
	return s;
}

int pt_export_pick(struct pt_table *const *tables, size_t n, const char *names, bool *sel, struct pt_err **e)
{
	memset(sel, 0, n * sizeof(*sel));
	int k = 0;
	const char *p = names;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		size_t i = 0;
		while (i < n && (strlen(tables[i]->name) != l || memcmp(tables[i]->name, p, l)))
			i++;
		if (i == n) {
			char *all = pt_export_names(tables, n, n);
			if (l)
				pt_err(e, "no table named '%.*s' (there are: %s)", (int)l, p, all);
			else
				pt_err(e, "empty table name in '%s' (there are: %s)", names, all);
			free(all);
			return -1;
		}
		k += !sel[i];
		sel[i] = true;
		if (!c)
			return k;
		p = c + 1;
	}
}
