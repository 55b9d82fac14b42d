/* Text cells ("total / avg / min / max / ratio" blocks, times in the text unit) and data blocks of the summary. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

/*
 * Times of text cells. With a fixed unit (--time-unit, or summary.md §5's
 * layout) a time is written at once: three decimals (two in the Paddle
 * layout, as §5 has them; integers in ns). With the unit picked per table
 * the view writes a mark "\x01\x1f<index>\x1f" for each time (and "\x01\x1eu"
 * for the unit's name); sum_text_finish() picks the unit from the marked
 * times of the table (pt_time_unit_pick) and puts them in it. A mark whose
 * index is not one of the view's times (a dump name that holds those bytes)
 * stays as it is, and prints escaped.
 */
#define MARK "\x01\x1f"
#define MARK_UNIT "\x01\x1eu"

static int decimals(const struct ctx *g, enum pt_time_unit u)
{
	if (g->o->paddle)
		return 2;
	return u == PT_TU_NS ? 0 : PT_TEXT_TIME_DECIMALS;
}

static void ftime(const struct ctx *g, char *b, double ns)
{
	if (g->unit == PT_TU_DEFAULT) {
		struct sum_pend *p = g->pend;
		pt_xgrow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v));
		p->v[p->n] = ns;
		snprintf(b, 48, MARK "%zu\x1f", p->n++);
		return;
	}
	snprintf(b, 48, "%.*f", decimals(g, g->unit), ns / (double)pt_time_unit_div(g->unit));
}

void sum_ftime(const struct ctx *g, char *b, int64_t ns)
{
	ftime(g, b, (double)ns);
}

void sum_favg(const struct ctx *g, char *b, int64_t total, int64_t calls)
{
	ftime(g, b, calls ? (double)total / (double)calls : 0.0);
}

const char *sum_unit_name(const struct ctx *g)
{
	return g->unit == PT_TU_DEFAULT ? MARK_UNIT : pt_time_unit_name(g->unit);
}

/* s with its marks replaced (times in unit u), or NULL when it has none. */
static char *unmark(const struct ctx *g, const char *s, enum pt_time_unit u)
{
	if (!strchr(s, '\x01'))
		return NULL;
	size_t cap = strlen(s) + 64, n = 0;
	char *d = pt_xmalloc(cap);
	for (const char *p = s; *p;) {
		char num[64];
		const char *put = NULL;
		size_t k = 0, adv = 1;
		if (!strncmp(p, MARK_UNIT, 3)) {
			put = pt_time_unit_name(u);
			k = strlen(put);
			adv = 3;
		} else if (!strncmp(p, MARK, 2)) {
			char *end;
			unsigned long long i = strtoull(p + 2, &end, 10);
			if (end > p + 2 && *end == '\x1f' && i < g->pend->n) {
				int m = snprintf(num, sizeof(num), "%.*f", decimals(g, u),
						 g->pend->v[i] / (double)pt_time_unit_div(u));
				put = num;
				k = m > 0 ? (size_t)m : 0;
				adv = (size_t)(end + 1 - p);
			}
		}
		if (!put) {
			put = p;
			k = 1;
		}
		pt_xgrow((void **)&d, &cap, n + k + 1, 1);
		memcpy(d + n, put, k);
		n += k;
		p += adv;
	}
	d[n] = 0;
	return d;
}

/* The marked times of s, as integers, appended to v. */
static void marked(const struct ctx *g, const char *s, int64_t **v, size_t *n, size_t *cap)
{
	for (const char *p = s; (p = strstr(p, MARK));) {
		char *end;
		unsigned long long i = strtoull(p + 2, &end, 10);
		if (end > p + 2 && *end == '\x1f' && i < g->pend->n) {
			pt_xgrow((void **)v, cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = (int64_t)llround(g->pend->v[i]);
		}
		p += 2;
	}
}

void sum_text_finish(struct ctx *g, struct pt_table *x)
{
	if (g->unit != PT_TU_DEFAULT || !x)
		return;
	int64_t *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t r = 0; r < x->nrows; r++)
		for (size_t c = 0; c < x->ncols; c++) {
			const struct pt_cell *k = pt_table_cell(x, r, c);
			if (k->kind == PT_CELL_STR)
				marked(g, k->u.s, &v, &n, &cap);
		}
	for (size_t i = 0; i < x->nnotes; i++)
		marked(g, x->notes[i], &v, &n, &cap);
	enum pt_time_unit u = pt_time_unit_pick(v, n);
	free(v);
	for (size_t r = 0; r < x->nrows; r++)
		for (size_t c = 0; c < x->ncols; c++) {
			const struct pt_cell *k = pt_table_cell(x, r, c);
			char *d;
			if (k->kind == PT_CELL_STR && (d = unmark(g, k->u.s, u))) {
				pt_table_set_strdup(x, r, c, d, strlen(d));
				free(d);
			}
		}
	for (size_t i = 0; i < x->nnotes; i++) {
		char *d = unmark(g, x->notes[i], u);
		if (d) {
			free(x->notes[i]);
			x->notes[i] = d;
		}
	}
	for (size_t i = 0; i < x->ngroups; i++) {
		char *d = x->groups[i].title ? unmark(g, x->groups[i].title, u) : NULL;
		if (d) {
			free(x->groups[i].title);
			x->groups[i].title = d;
		}
	}
	if (x->unit) {
		free(x->unit);
		x->unit = pt_xstrdup(pt_time_unit_name(u));
	}
}

void sum_fpct(char *b, int64_t num, int64_t den)
{
	snprintf(b, 48, "%.2f", pct(num, den));
}

void sum_fnum(char *b, int64_t v)
{
	snprintf(b, 48, "%" PRId64, v);
}

/* "total / avg / min / max / ratio" or "- / - / - / - / -" (min before max, as in CSV) */
void sum_fblock(const struct ctx *g, char *b, bool has, int64_t calls, int64_t total, int64_t max, int64_t min,
		   int64_t den)
{
	if (!has) {
		strcpy(b, "- / - / - / - / -");
		return;
	}
	char t[48], a[48], x[48], n[48], r[48];
	sum_ftime(g, t, total);
	sum_favg(g, a, total, calls);
	sum_ftime(g, x, max);
	sum_ftime(g, n, min);
	sum_fpct(r, total, den);
	snprintf(b, 256, "%s / %s / %s / %s / %s", t, a, n, x, r);
}

/* Data block: total, avg, min, max, ratio at columns c..c+4. */
void sum_dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		   int64_t min, int64_t den)
{
	if (!has)
		return;
	pt_table_set_int(t, row, c, total);
	pt_table_set_int(t, row, c + 1, ravg(total, calls));
	pt_table_set_int(t, row, c + 2, min);
	pt_table_set_int(t, row, c + 3, max);
	pt_table_set_double(t, row, c + 4, pct(total, den));
}

void sum_add_block_cols(struct pt_table *t, const char *p)
{
	static const char *const f[] = { "total", "avg", "min", "max" };
	char b[64];
	for (int i = 0; i < 4; i++) {
		snprintf(b, sizeof(b), "%s_%s", p, f[i]);
		pt_table_add_col(t, b, PT_COL_TIME, PT_ROLE_VALUE, 0);
	}
	snprintf(b, sizeof(b), "%s_ratio", p);
	pt_table_add_col(t, b, PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

size_t sum_row0(struct pt_table *t, const struct rank *r)
{
	size_t row = pt_table_add_row(t);
	pt_table_set_int(t, row, 0, r->rank);
	return row;
}

void sum_setstr(struct pt_table *t, size_t row, size_t c, const char *s)
{
	pt_table_set_strdup(t, row, c, s, strlen(s));
}

/* The title is the view's name with its first letter in upper case (one rule for every view:
 * "kernel" -> "Kernel"), then ": <part>" for a view's second table, then " - Rank <r>". */
struct pt_table *sum_stext(const struct rank *r, const char *view, const char *part, bool unit, bool multi)
{
	char b[160];
	int n = snprintf(b, sizeof(b), "%s%s%s", view, part ? ": " : "", part ? part : "");
	if (multi && n > 0 && (size_t)n < sizeof(b))
		snprintf(b + n, sizeof(b) - (size_t)n, " - Rank %" PRId64, r->rank);
	struct pt_table *x = pt_table_new_boxed(b, b, unit ? sum_unit_name(r->g) : NULL);
	x->paddle = r->g->o->paddle;
	return x;
}

/* The header of a time block: "Device" for device time whatever the device kind (GPU, NPU or both). */
const char *sum_block_head(const struct rank *r, bool cpu, char *b)
{
	(void)r;
	snprintf(b, 96, "%s Total / Avg / Min / Max / Ratio(%%)", cpu ? "CPU" : "Device");
	return b;
}
