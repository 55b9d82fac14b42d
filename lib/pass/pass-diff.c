/*
 * proftool diff: match the items of two runs, their deltas, the stage
 * deltas and the verdict (pass-diff.h, proftool-diff(1)).
 *
 * Matching: every item gets a key (its normalised name; with --by scope the
 * scope of that name, and items of one scope are summed). Items of one side
 * with the same name are summed first. Within one (rank, key), items whose
 * names are equal as recorded match first; the others are then paired in
 * the natural order of their names (strverscmp: digit runs compare as
 * numbers), the k-th left of the base with the k-th left of the test (a
 * graph renumbered in order keeps its pairs). What is left over is removed
 * or added. Nothing is dropped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strverscmp */
#endif
#include "pass/pass-diff.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pass/pass-steps.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/xalloc.h"
#include "table/table.h"

const char *const pt_diff_by_names[] = { "op", "optype", "kernel", "api", "step", "scope", NULL };
const char *const pt_diff_keys[] = { "delta", "delta-pct", "delta-avg", "base-total", "test-total", "calls", "name",
				     NULL };

void pt_diff_opts_init(struct pt_diff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->by = PT_DB_OP;
	o->key = PT_DK_DELTA;
	o->top = -1;
	o->verdict_max = 5;
}

/* ------------------------------------------------------------------------
 * names
 */

/* Is [s, s+n) a graph-id part: kernel_graph<N>, kernel_graph_<N>, graph_<N>? */
static bool graph_part(const char *s, size_t n)
{
	size_t p;
	if (n > 12 && !strncasecmp(s, "kernel_graph", 12))
		p = 12;
	else if (n > 6 && !strncasecmp(s, "graph_", 6))
		p = 6;
	else
		return false;
	if (p == 12 && s[p] == '_')
		p++;
	if (p >= n)
		return false;
	for (; p < n; p++)
		if (!isdigit((unsigned char)s[p]))
			return false;
	return true;
}

char *pt_diff_normalize(const char *name, bool exact)
{
	if (exact)
		return pt_xstrdup(name);
	size_t len = strlen(name);
	char *out = pt_xmalloc(len + 1);
	size_t o = 0;
	const char *p = name;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (!graph_part(p, n)) {
			/* a trailing -op<digits> */
			size_t k = n;
			while (k && isdigit((unsigned char)p[k - 1]))
				k--;
			size_t keep = n;
			if (k < n && k >= 3 && !memcmp(p + k - 3, "-op", 3) && k > 3)
				keep = k - 3;
			if (o && out[o - 1] != '/')
				out[o++] = '/';
			memcpy(out + o, p, keep);
			o += keep;
			if (slash && !keep)
				out[o++] = '/'; /* an empty part stays empty: "a//b" */
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	out[o] = 0;
	return out;
}

char *pt_diff_scope(const char *key)
{
	const char *s = strrchr(key, '/');
	return s ? pt_xstrndup(key, (size_t)(s - key)) : pt_xstrdup("");
}

/* ------------------------------------------------------------------------
 * matching
 */

struct ent {
	uint32_t rank;
	char *key;        /* owned */
	const char *name; /* as recorded (the key for scopes) */
	int64_t calls, total, min, max;
	int side;         /* 0 base, 1 test */
};

static int cmp_side(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	int c = strcmp(a->key, b->key);
	if (c)
		return c;
	c = strverscmp(a->name, b->name);
	return c ? c : strcmp(a->name, b->name);
}

static void merge_into(struct ent *d, const struct ent *s)
{
	if (s->calls) {
		if (!d->calls || s->min < d->min)
			d->min = s->min;
		if (!d->calls || s->max > d->max)
			d->max = s->max;
	}
	d->calls += s->calls;
	d->total += s->total;
}

/* The side's entries, merged and numbered; appended to *v. */
static void side_ents(const struct pt_diff_side *sd, int side, const struct pt_diff_opts *o, struct ent **v,
		      size_t *n, size_t *cap)
{
	size_t first = *n;
	for (size_t i = 0; i < sd->nitems; i++) {
		const struct pt_diff_item *it = &sd->items[i];
		pt_xgrow((void **)v, cap, *n + 1, sizeof(**v));
		struct ent *x = &(*v)[(*n)++];
		x->rank = it->rank;
		x->key = pt_diff_normalize(it->name, o->exact);
		x->name = it->name;
		if (o->by == PT_DB_SCOPE) {
			char *sc = pt_diff_scope(x->key);
			free(x->key);
			x->key = sc;
			x->name = sc;
		}
		x->calls = it->calls;
		x->total = it->total;
		x->min = it->min;
		x->max = it->max;
		x->side = side;
	}
	struct ent *e = *v + first;
	size_t m = *n - first;
	pt_sort(e, m, sizeof(*e), cmp_side);
	/* merge equal names (equal keys for scopes) */
	size_t w = 0;
	for (size_t i = 0; i < m; i++) {
		if (w && e[w - 1].rank == e[i].rank && !strcmp(e[w - 1].name, e[i].name)) {
			merge_into(&e[w - 1], &e[i]);
			free(e[i].key);
			continue;
		}
		e[w++] = e[i];
	}
	*n = first + w;
}

struct row {
	const struct ent *b, *t; /* either may be NULL */
	uint32_t ord;            /* among the rows of its (rank, key) */
	int64_t sort_a;          /* primary magnitude */
	double sort_d;
};

static int64_t iabs(int64_t x)
{
	return x < 0 ? -x : x;
}

static const char *row_key(const struct row *r)
{
	return r->b ? r->b->key : r->t->key;
}

static uint32_t row_rank(const struct row *r)
{
	return r->b ? r->b->rank : r->t->rank;
}

static uint32_t row_ord(const struct row *r)
{
	return r->ord;
}

static int cmp_name(const struct row *a, const struct row *b)
{
	if (row_rank(a) != row_rank(b))
		return row_rank(a) < row_rank(b) ? -1 : 1;
	int c = strcmp(row_key(a), row_key(b));
	if (c)
		return c;
	return row_ord(a) < row_ord(b) ? -1 : row_ord(a) > row_ord(b);
}

static enum pt_diff_key sort_key;

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (sort_key == PT_DK_NAME)
		return cmp_name(a, b);
	if (sort_key == PT_DK_DELTA_PCT) {
		if (a->sort_d != b->sort_d)
			return a->sort_d > b->sort_d ? -1 : 1;
	} else if (a->sort_a != b->sort_a) {
		return a->sort_a > b->sort_a ? -1 : 1;
	}
	return cmp_name(a, b);
}

static int64_t calls_of(const struct ent *x)
{
	return x ? x->calls : 0;
}

static int64_t total_of(const struct ent *x)
{
	return x ? x->total : 0;
}

static void set_pct(struct pt_table *t, size_t row, size_t col, int64_t d, int64_t base)
{
	if (base)
		pt_table_set_double(t, row, col, (double)d * 100.0 / (double)base);
}

/* ------------------------------------------------------------------------
 * tables
 */

static const char *const fields[] = { "calls", "total", "avg", "min", "max" };

static struct pt_table *items_table(void)
{
	struct pt_table *t = pt_table_new("diff", "Diff");
	pt_table_set_empty(t, "no items in either run");
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "status", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "base_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "test_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	char b[64];
	for (int f = 0; f < 5; f++) {
		enum pt_col_type ty = f ? PT_COL_TIME : PT_COL_INT;
		snprintf(b, sizeof(b), "base_%s", fields[f]);
		pt_table_add_col(t, b, ty, PT_ROLE_VALUE, 0);
		snprintf(b, sizeof(b), "test_%s", fields[f]);
		pt_table_add_col(t, b, ty, PT_ROLE_VALUE, 0);
		snprintf(b, sizeof(b), "delta_%s", fields[f]);
		pt_table_add_col(t, b, ty, PT_ROLE_VALUE, 0);
		snprintf(b, sizeof(b), "delta_%s_pct", fields[f]);
		pt_table_add_col(t, b, PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	}
	pt_table_add_col(t, "base_step_share", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "test_step_share", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	pt_table_add_col(t, "delta_step_share", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
	return t;
}

/* Column of the items table: field f (0 calls .. 4 max), part p (0 base, 1 test, 2 delta, 3 pct). */
static size_t fcol(int f, int p)
{
	return 5 + (size_t)f * 4 + (size_t)p;
}

static double share(int64_t total, const struct pt_diff_side *s)
{
	return (double)total * 100.0 / (double)s->step_total;
}

static void item_row(struct pt_table *t, const struct row *r, const struct pt_diff_side *bs,
		     const struct pt_diff_side *ts)
{
	size_t row = pt_table_add_row(t);
	const struct ent *b = r->b, *x = r->t;
	pt_table_set_int(t, row, 0, row_rank(r));
	const char *st = b && x ? "matched" : b ? "removed" : "added";
	pt_table_set_str(t, row, 1, st, strlen(st));
	const char *key = row_key(r);
	uint32_t ord = row_ord(r);
	if (ord) {
		char *nm = pt_xasprintf("%s#%u", key, ord + 1);
		pt_table_set_strdup(t, row, 2, nm, strlen(nm));
		free(nm);
	} else {
		pt_table_set_strdup(t, row, 2, key, strlen(key));
	}
	if (b)
		pt_table_set_strdup(t, row, 3, b->name, strlen(b->name));
	if (x)
		pt_table_set_strdup(t, row, 4, x->name, strlen(x->name));
	for (int p = 0; p < 2; p++) {
		const struct ent *s = p ? x : b;
		if (!s)
			continue;
		pt_table_set_int(t, row, fcol(0, p), s->calls);
		pt_table_set_int(t, row, fcol(1, p), s->total);
		if (s->calls) {
			pt_table_set_int(t, row, fcol(2, p), pt_steps_mean(s->total, s->calls));
			pt_table_set_int(t, row, fcol(3, p), s->min);
			pt_table_set_int(t, row, fcol(4, p), s->max);
		}
	}
	/* calls and total: a missing side counts 0 */
	int64_t dc = calls_of(x) - calls_of(b), dt = total_of(x) - total_of(b);
	pt_table_set_int(t, row, fcol(0, 2), dc);
	pt_table_set_int(t, row, fcol(1, 2), dt);
	set_pct(t, row, fcol(0, 3), dc, calls_of(b));
	set_pct(t, row, fcol(1, 3), dt, total_of(b));
	if (b && x && b->calls && x->calls) {
		int64_t ab = pt_steps_mean(b->total, b->calls), at = pt_steps_mean(x->total, x->calls);
		int64_t v[3][2] = { { ab, at }, { b->min, x->min }, { b->max, x->max } };
		for (int f = 0; f < 3; f++) {
			pt_table_set_int(t, row, fcol(f + 2, 2), v[f][1] - v[f][0]);
			set_pct(t, row, fcol(f + 2, 3), v[f][1] - v[f][0], v[f][0]);
		}
	}
	size_t c0 = fcol(4, 3) + 1;
	if (b && bs->step_total > 0)
		pt_table_set_double(t, row, c0, share(b->total, bs));
	if (x && ts->step_total > 0)
		pt_table_set_double(t, row, c0 + 1, share(x->total, ts));
	if (bs->step_total > 0 && ts->step_total > 0)
		pt_table_set_double(t, row, c0 + 2, share(total_of(x), ts) - share(total_of(b), bs));
}

static struct pt_table *stages_table(const struct pt_diff_side *b, const struct pt_diff_side *x)
{
	struct pt_table *t = pt_table_new("diff_stages", "Step stages");
	pt_table_set_empty(t, "no step stages in either run");
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "stage", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "base_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "test_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "delta", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "delta_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	/* base order, then the stages only the test has */
	bool *used = pt_xcalloc(x->nstages + 1, sizeof(*used));
	for (size_t i = 0; i < b->nstages; i++) {
		const struct pt_diff_stage *s = &b->stages[i], *m = NULL;
		for (size_t j = 0; j < x->nstages && !m; j++)
			if (!used[j] && x->stages[j].rank == s->rank && !strcmp(x->stages[j].name, s->name)) {
				m = &x->stages[j];
				used[j] = true;
			}
		size_t row = pt_table_add_row(t);
		pt_table_set_int(t, row, 0, s->rank);
		pt_table_set_strdup(t, row, 1, s->name, strlen(s->name));
		pt_table_set_int(t, row, 2, s->avg);
		if (m) {
			pt_table_set_int(t, row, 3, m->avg);
			pt_table_set_int(t, row, 4, m->avg - s->avg);
			set_pct(t, row, 5, m->avg - s->avg, s->avg);
		}
	}
	for (size_t j = 0; j < x->nstages; j++) {
		if (used[j])
			continue;
		size_t row = pt_table_add_row(t);
		pt_table_set_int(t, row, 0, x->stages[j].rank);
		pt_table_set_strdup(t, row, 1, x->stages[j].name, strlen(x->stages[j].name));
		pt_table_set_int(t, row, 3, x->stages[j].avg);
	}
	free(used);
	return t;
}

static struct pt_table *steps_table(const struct pt_diff_side *b, const struct pt_diff_side *x, struct pt_diff *d)
{
	struct pt_table *t = pt_table_new("diff_step_time", "Step time");
	pt_table_set_empty(t, "no steps in either run");
	pt_table_add_col(t, "base_steps", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "test_steps", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "base_step", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "test_step", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "delta", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "delta_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "matched", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "added", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "removed", PT_COL_INT, PT_ROLE_VALUE, 0);
	size_t row = pt_table_add_row(t);
	pt_table_set_int(t, row, 0, b->step_count);
	pt_table_set_int(t, row, 1, x->step_count);
	if (b->step_count > 0)
		pt_table_set_int(t, row, 2, d->base_step);
	if (x->step_count > 0)
		pt_table_set_int(t, row, 3, d->test_step);
	if (d->has_step_time) {
		pt_table_set_int(t, row, 4, d->test_step - d->base_step);
		set_pct(t, row, 5, d->test_step - d->base_step, d->base_step);
	}
	pt_table_set_int(t, row, 6, (int64_t)d->matched);
	pt_table_set_int(t, row, 7, (int64_t)d->added);
	pt_table_set_int(t, row, 8, (int64_t)d->removed);
	return t;
}

static struct pt_table *verdict_table(void)
{
	static const char *const names[PT_DV_NCOLS] = { "kind",	    "role",	  "rank",      "name",
							"per_step",  "share_pct",  "base_calls", "test_calls",
							"base_avg",  "test_avg",	  "base_total", "test_total" };
	struct pt_table *t = pt_table_new("diff_verdict", "Verdict");
	for (int c = 0; c < PT_DV_NCOLS; c++) {
		enum pt_col_type ty = PT_COL_TIME;
		if (c == PT_DV_KIND || c == PT_DV_ROLE || c == PT_DV_NAME)
			ty = PT_COL_STR;
		else if (c == PT_DV_RANK || c == PT_DV_BASE_CALLS || c == PT_DV_TEST_CALLS)
			ty = PT_COL_INT;
		else if (c == PT_DV_SHARE)
			ty = PT_COL_DOUBLE;
		pt_table_add_col(t, names[c], ty, c <= PT_DV_NAME ? PT_ROLE_KEY : PT_ROLE_VALUE, 2);
	}
	return t;
}

/* Change per step of a row: mean per step on the test minus on the base. */
static int64_t per_step(const struct row *r, const struct pt_diff_side *b, const struct pt_diff_side *x)
{
	return pt_steps_mean(total_of(r->t), x->step_count) - pt_steps_mean(total_of(r->b), b->step_count);
}

struct vcand {
	size_t row;
	int64_t c;
};

static int cmp_vcand(const void *pa, const void *pb)
{
	const struct vcand *a = pa, *b = pb;
	if (iabs(a->c) != iabs(b->c))
		return iabs(a->c) > iabs(b->c) ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static void verdict_row(struct pt_table *t, const struct row *r, int64_t c, int64_t delta, bool cause)
{
	size_t row = pt_table_add_row(t);
	const char *kind = c > 0 ? "regression" : "improvement";
	const char *role = cause ? "cause" : "offset";
	pt_table_set_str(t, row, PT_DV_KIND, kind, strlen(kind));
	pt_table_set_str(t, row, PT_DV_ROLE, role, strlen(role));
	pt_table_set_int(t, row, PT_DV_RANK, row_rank(r));
	const char *key = row_key(r);
	if (row_ord(r)) {
		char *nm = pt_xasprintf("%s#%u", key, row_ord(r) + 1);
		pt_table_set_strdup(t, row, PT_DV_NAME, nm, strlen(nm));
		free(nm);
	} else {
		pt_table_set_strdup(t, row, PT_DV_NAME, key, strlen(key));
	}
	pt_table_set_int(t, row, PT_DV_PER_STEP, c);
	pt_table_set_double(t, row, PT_DV_SHARE, (double)c * 100.0 / (double)delta);
	pt_table_set_int(t, row, PT_DV_BASE_CALLS, calls_of(r->b));
	pt_table_set_int(t, row, PT_DV_TEST_CALLS, calls_of(r->t));
	if (r->b && r->b->calls)
		pt_table_set_int(t, row, PT_DV_BASE_AVG, pt_steps_mean(r->b->total, r->b->calls));
	if (r->t && r->t->calls)
		pt_table_set_int(t, row, PT_DV_TEST_AVG, pt_steps_mean(r->t->total, r->t->calls));
	pt_table_set_int(t, row, PT_DV_BASE_TOTAL, total_of(r->b));
	pt_table_set_int(t, row, PT_DV_TEST_TOTAL, total_of(r->t));
}

/*
 * The greedy cover: items whose change per step has the sign of the
 * step-time change, largest first, until they add up to 80 % of it (or
 * verdict_max rows); then up to 3 items of the other sign that offset 10 %
 * of it or more.
 */
static void verdict(struct pt_diff *d, const struct row *rows, size_t n, const struct pt_diff_side *b,
		    const struct pt_diff_side *x, const struct pt_diff_opts *o)
{
	if (!d->has_step_time)
		return;
	int64_t delta = d->test_step - d->base_step;
	if (!delta)
		return;
	struct vcand *v = pt_xmalloc((n + 1) * sizeof(*v));
	size_t nv = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t c = per_step(&rows[i], b, x);
		if (c)
			v[nv++] = (struct vcand){ i, c };
	}
	pt_sort(v, nv, sizeof(*v), cmp_vcand);
	int64_t acc = 0, goal = iabs(delta) - iabs(delta) / 5; /* 80 % */
	int shown = 0;
	for (size_t i = 0; i < nv && shown < o->verdict_max && acc < goal; i++) {
		if ((v[i].c > 0) != (delta > 0))
			continue;
		verdict_row(d->verdict, &rows[v[i].row], v[i].c, delta, true);
		acc += iabs(v[i].c);
		shown++;
	}
	d->explained = delta > 0 ? acc : -acc;
	int off = 0;
	for (size_t i = 0; i < nv && off < 3; i++) {
		if ((v[i].c > 0) == (delta > 0))
			continue;
		if (iabs(v[i].c) * 10 < iabs(delta))
			break;
		verdict_row(d->verdict, &rows[v[i].row], v[i].c, delta, false);
		off++;
	}
	free(v);
}

/* Does a come before b in (rank, key) order? 0: same group. */
static int cmp_group(const struct ent *a, const struct ent *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Match one (rank, key) group: b[0..nb) and t[0..nt), each in the order of cmp_side. */
static void match_group(const struct ent *b, size_t nb, const struct ent *t, size_t nt, struct row *rows,
			size_t *nr, struct pt_diff *d)
{
	size_t *pb = pt_xmalloc((nb + 1) * sizeof(*pb));
	bool *tused = pt_xcalloc(nt + 1, sizeof(*tused));
	/* equal names first: both lists are sorted alike, so a merge finds them */
	for (size_t i = 0, j = 0; i < nb; i++) {
		pb[i] = SIZE_MAX;
		while (j < nt && cmp_side(&t[j], &b[i]) < 0)
			j++;
		if (j < nt && !strcmp(t[j].name, b[i].name)) {
			pb[i] = j;
			tused[j++] = true;
		}
	}
	/* then the rest in order */
	size_t j = 0;
	for (size_t i = 0; i < nb; i++) {
		if (pb[i] != SIZE_MAX)
			continue;
		while (j < nt && tused[j])
			j++;
		if (j < nt) {
			pb[i] = j;
			tused[j++] = true;
		}
	}
	uint32_t ord = 0;
	for (size_t i = 0; i < nb; i++) {
		struct row *r = &rows[(*nr)++];
		r->b = &b[i];
		r->t = pb[i] != SIZE_MAX ? &t[pb[i]] : NULL;
		r->ord = ord++;
		if (r->t)
			d->matched++;
		else
			d->removed++;
	}
	for (size_t k = 0; k < nt; k++)
		if (!tused[k]) {
			struct row *r = &rows[(*nr)++];
			r->b = NULL;
			r->t = &t[k];
			r->ord = ord++;
			d->added++;
		}
	free(pb);
	free(tused);
}

/* Rows of every group of the two sides (each sorted by cmp_side). */
static void match(const struct ent *b, size_t nb, const struct ent *t, size_t nt, struct row *rows, size_t *nr,
		  struct pt_diff *d)
{
	size_t i = 0, j = 0;
	while (i < nb || j < nt) {
		int c = i == nb ? 1 : j == nt ? -1 : cmp_group(&b[i], &t[j]);
		size_t i2 = i, j2 = j;
		if (c <= 0)
			while (i2 < nb && !cmp_group(&b[i2], &b[i]))
				i2++;
		if (c >= 0)
			while (j2 < nt && !cmp_group(&t[j2], &t[j]))
				j2++;
		match_group(b + i, i2 - i, t + j, j2 - j, rows, nr, d);
		i = i2;
		j = j2;
	}
}

int pt_pass_diff(const struct pt_diff_side *base, const struct pt_diff_side *test, const struct pt_diff_opts *o,
		 struct pt_diff *out, struct pt_err **e)
{
	(void)e;
	memset(out, 0, sizeof(*out));
	struct ent *v = NULL;
	size_t n = 0, cap = 0;
	side_ents(base, 0, o, &v, &n, &cap);
	size_t nb = n;
	side_ents(test, 1, o, &v, &n, &cap);
	struct row *rows = pt_xmalloc((n + 1) * sizeof(*rows));
	size_t nr = 0;
	match(v, nb, v + nb, n - nb, rows, &nr, out);
	for (size_t i = 0; i < nr; i++) {
		struct row *r = &rows[i];
		int64_t dt = total_of(r->t) - total_of(r->b);
		r->sort_d = 0;
		switch (o->key) {
		case PT_DK_DELTA_PCT:
			r->sort_d = total_of(r->b) ? (double)iabs(dt) / (double)total_of(r->b) : 1e300;
			break;
		case PT_DK_DELTA_AVG: {
			int64_t ab = r->b && r->b->calls ? pt_steps_mean(r->b->total, r->b->calls) : 0;
			int64_t at = r->t && r->t->calls ? pt_steps_mean(r->t->total, r->t->calls) : 0;
			r->sort_a = iabs(at - ab);
			break;
		}
		case PT_DK_BASE_TOTAL:
			r->sort_a = total_of(r->b);
			break;
		case PT_DK_TEST_TOTAL:
			r->sort_a = total_of(r->t);
			break;
		case PT_DK_CALLS:
			r->sort_a = iabs(calls_of(r->t) - calls_of(r->b));
			break;
		default:
			r->sort_a = iabs(dt);
			break;
		}
	}
	sort_key = o->key;
	pt_sort(rows, nr, sizeof(*rows), cmp_row);

	if (base->step_count > 0)
		out->base_step = pt_steps_mean(base->step_total, base->step_count);
	if (test->step_count > 0)
		out->test_step = pt_steps_mean(test->step_total, test->step_count);
	out->has_step_time = base->step_count > 0 && test->step_count > 0;
	if (out->has_step_time && out->base_step)
		out->step_pct = (double)(out->test_step - out->base_step) * 100.0 / (double)out->base_step;

	out->items = items_table();
	for (size_t i = 0; i < nr && (o->top < 0 || (int64_t)i < o->top); i++) {
		item_row(out->items, &rows[i], base, test);
		out->shown++;
	}
	if (base->nstages || test->nstages || o->by == PT_DB_STEP)
		out->stages = stages_table(base, test);
	out->steps = steps_table(base, test, out);
	out->verdict = verdict_table();
	verdict(out, rows, nr, base, test, o);

	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
	free(rows);
	return 0;
}

void pt_diff_free(struct pt_diff *d)
{
	pt_table_free(d->items);
	pt_table_free(d->stages);
	pt_table_free(d->steps);
	pt_table_free(d->verdict);
	memset(d, 0, sizeof(*d));
}
