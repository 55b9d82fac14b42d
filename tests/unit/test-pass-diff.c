/* Unit tests of the diff pass: the name normaliser, the matcher, the deltas, the verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pass/pass-diff.h"
#include "support/err.h"
#include "table/table.h"

static void norm_is(const char *in, bool exact, const char *want)
{
	char *s = pt_diff_normalize(in, exact);
	assert_string_equal(s, want);
	free(s);
}

static void test_normalize(void **state)
{
	(void)state;
	norm_is("Default/network-WithLossCell/conv1-Conv2d/Conv2D-op8", false,
		"Default/network-WithLossCell/conv1-Conv2d/Conv2D");
	/* every part loses its -op<N>; a part that only looks like one keeps it */
	norm_is("Default/Cast-op12/Inner-op3", false, "Default/Cast/Inner");
	norm_is("Default/Cast-op", false, "Default/Cast-op");
	norm_is("Default/Cast-opx12", false, "Default/Cast-opx12");
	norm_is("-op5", false, "-op5");
	norm_is("Default/Gather-op55_1", false, "Default/Gather-op55_1");
	/* graph-id parts go, with their separator */
	norm_is("Kernel_Graph3/Default/MatMul-op4", false, "Default/MatMul");
	norm_is("kernel_graph_12/Default/MatMul-op4", false, "Default/MatMul");
	norm_is("Default/graph_0/MatMul-op4", false, "Default/MatMul");
	norm_is("kernel_graph/Default/A", false, "kernel_graph/Default/A");
	norm_is("graph_x/A", false, "graph_x/A");
	norm_is("kernel_graph7", false, "");
	/* kernel names and other names pass unchanged */
	norm_is("void gemm<128>(float const*, float*)", false, "void gemm<128>(float const*, float*)");
	norm_is("a//b-op1", false, "a//b");
	norm_is("", false, "");
	/* exact: as recorded */
	norm_is("Default/Cast-op6", true, "Default/Cast-op6");

	char *s = pt_diff_scope("Default/net/conv1/Conv2D");
	assert_string_equal(s, "Default/net/conv1");
	free(s);
	s = pt_diff_scope("Conv2D");
	assert_string_equal(s, "");
	free(s);
}

/* Row r's cell of column name: its integer, or INT64_MIN when null. */
static int64_t iv(const struct pt_table *t, size_t r, const char *name)
{
	int c = pt_table_col(t, name);
	assert_true(c >= 0);
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	return x->kind == PT_CELL_INT ? x->u.i : INT64_MIN;
}

static const char *sv(const struct pt_table *t, size_t r, const char *name)
{
	static char b[4][256];
	static int k;
	int c = pt_table_col(t, name);
	assert_true(c >= 0);
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	char *o = b[k++ % 4];
	snprintf(o, 256, "%.*s", x->kind == PT_CELL_STR ? (int)x->len : 0, x->kind == PT_CELL_STR ? x->u.s : "");
	return o;
}

static double dv(const struct pt_table *t, size_t r, const char *name)
{
	int c = pt_table_col(t, name);
	assert_true(c >= 0);
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	assert_int_equal(x->kind, PT_CELL_DOUBLE);
	return x->u.d;
}

static size_t find(const struct pt_table *t, const char *name)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(sv(t, r, "name"), name))
			return r;
	fail_msg("no row '%s'", name);
	return 0;
}

static void test_match(void **state)
{
	(void)state;
	/* two ops of one scope renumbered between runs: matched in the natural order of their numbers */
	struct pt_diff_item b[] = {
		{ 0, "Default/Cast-op6", 10, 1000, 90, 110 },
		{ 0, "Default/Cast-op64", 10, 2000, 190, 210 },
		{ 0, "Default/ReLU-op9", 10, 500, 50, 50 },
		{ 0, "Default/Dup-op1", 2, 20, 10, 10 }, /* the same name twice: summed */
		{ 0, "Default/Dup-op1", 3, 60, 5, 30 },
		{ 1, "Default/ReLU-op9", 1, 5, 5, 5 },   /* another rank */
	};
	struct pt_diff_item t[] = {
		{ 0, "Default/Cast-op106", 10, 1500, 140, 160 },
		{ 0, "Default/Cast-op164", 12, 2400, 190, 210 },
		{ 0, "Default/GeLU-op10", 10, 700, 70, 70 },
		{ 0, "Default/Dup-op2", 5, 80, 10, 20 },
		{ 1, "Default/ReLU-op19", 1, 7, 7, 7 },
	};
	struct pt_diff_side bs = { b, 6, NULL, 0, 10, 100000 }, ts = { t, 5, NULL, 0, 10, 110000 };
	struct pt_diff_opts o;
	pt_diff_opts_init(&o);
	o.key = PT_DK_NAME;
	struct pt_diff d;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.matched, 4);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);
	const struct pt_table *x = d.items;
	assert_int_equal(x->nrows, 6);

	size_t r = find(x, "Default/Cast");
	assert_string_equal(sv(x, r, "status"), "matched");
	assert_string_equal(sv(x, r, "base_name"), "Default/Cast-op6");
	assert_string_equal(sv(x, r, "test_name"), "Default/Cast-op106");
	assert_int_equal(iv(x, r, "delta_total"), 500);
	assert_int_equal(iv(x, r, "base_avg"), 100);
	assert_int_equal(iv(x, r, "test_avg"), 150);
	assert_int_equal(iv(x, r, "delta_avg"), 50);
	assert_int_equal(iv(x, r, "delta_min"), 50);
	assert_int_equal(iv(x, r, "delta_max"), 50);
	assert_true(dv(x, r, "delta_total_pct") == 50.0);
	assert_true(dv(x, r, "base_step_share") == 1.0);
	r = find(x, "Default/Cast#2");
	assert_string_equal(sv(x, r, "base_name"), "Default/Cast-op64");
	assert_string_equal(sv(x, r, "test_name"), "Default/Cast-op164");
	assert_int_equal(iv(x, r, "delta_calls"), 2);
	assert_int_equal(iv(x, r, "delta_total"), 400);

	r = find(x, "Default/Dup");
	assert_int_equal(iv(x, r, "base_calls"), 5);
	assert_int_equal(iv(x, r, "base_total"), 80);
	assert_int_equal(iv(x, r, "base_min"), 5);
	assert_int_equal(iv(x, r, "base_max"), 30);
	assert_int_equal(iv(x, r, "delta_total"), 0);

	r = find(x, "Default/ReLU");
	assert_int_equal(iv(x, r, "rank"), 0);
	assert_string_equal(sv(x, r, "status"), "removed");
	assert_int_equal(iv(x, r, "delta_total"), -500);
	assert_int_equal(iv(x, r, "test_total"), INT64_MIN);
	assert_int_equal(iv(x, r, "delta_avg"), INT64_MIN);
	r = find(x, "Default/GeLU");
	assert_string_equal(sv(x, r, "status"), "added");
	assert_int_equal(iv(x, r, "delta_calls"), 10);
	assert_int_equal(iv(x, r, "delta_total"), 700);
	assert_int_equal(pt_table_row(x, r)[pt_table_col(x, "delta_total_pct")].kind, PT_CELL_NULL);

	/* the other rank's ReLU matches its own rank's */
	size_t n1 = 0;
	for (size_t k = 0; k < x->nrows; k++)
		if (iv(x, k, "rank") == 1) {
			n1++;
			assert_string_equal(sv(x, k, "status"), "matched");
			assert_int_equal(iv(x, k, "delta_total"), 2);
		}
	assert_int_equal(n1, 1);

	/* step time 10000 -> 11000 ns: the verdict covers it with the largest same-sign changes */
	assert_true(d.has_step_time);
	assert_int_equal(d.base_step, 10000);
	assert_int_equal(d.test_step, 11000);
	const struct pt_table *v = d.verdict;
	assert_true(v->nrows >= 2);
	assert_string_equal(sv(v, 0, "name"), "Default/GeLU");
	assert_string_equal(sv(v, 0, "kind"), "regression");
	assert_int_equal(iv(v, 0, "per_step"), 70);
	assert_string_equal(sv(v, 1, "name"), "Default/Cast");
	assert_int_equal(iv(v, 1, "per_step"), 50);
	pt_diff_free(&d);

	/* exact: the renumbered ops no longer match */
	o.exact = true;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.matched, 0);
	assert_int_equal(d.added, 5);
	assert_int_equal(d.removed, 5);
	pt_diff_free(&d);
}

static void test_sort_top_scope(void **state)
{
	(void)state;
	struct pt_diff_item b[] = {
		{ 0, "S/a/X-op1", 1, 100, 100, 100 },
		{ 0, "S/a/Y-op2", 1, 100, 100, 100 },
		{ 0, "S/b/Z-op3", 1, 1000, 1000, 1000 },
	};
	struct pt_diff_item t[] = {
		{ 0, "S/a/X-op1", 1, 400, 400, 400 },
		{ 0, "S/a/Y-op2", 1, 100, 100, 100 },
		{ 0, "S/b/Z-op3", 1, 800, 800, 800 },
	};
	struct pt_diff_side bs = { b, 3, NULL, 0, 0, 0 }, ts = { t, 3, NULL, 0, 0, 0 };
	struct pt_diff_opts o;
	pt_diff_opts_init(&o);
	struct pt_diff d;
	struct pt_err *e = NULL;
	/* default: |delta total| descending */
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_string_equal(sv(d.items, 0, "name"), "S/a/X");
	assert_string_equal(sv(d.items, 1, "name"), "S/b/Z");
	assert_string_equal(sv(d.items, 2, "name"), "S/a/Y");
	/* no steps: no shares, no step time, no verdict */
	assert_int_equal(pt_table_row(d.items, 0)[pt_table_col(d.items, "base_step_share")].kind, PT_CELL_NULL);
	assert_false(d.has_step_time);
	assert_int_equal(d.verdict->nrows, 0);
	pt_diff_free(&d);
	/* --top 1 --sorted-by delta-pct */
	o.top = 1;
	o.key = PT_DK_DELTA_PCT;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.items->nrows, 1);
	assert_int_equal(d.shown, 1);
	assert_string_equal(sv(d.items, 0, "name"), "S/a/X");
	pt_diff_free(&d);
	/* --by scope: ops summed per scope */
	o.top = -1;
	o.key = PT_DK_NAME;
	o.by = PT_DB_SCOPE;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.items->nrows, 2);
	assert_string_equal(sv(d.items, 0, "name"), "S/a");
	assert_int_equal(iv(d.items, 0, "base_calls"), 2);
	assert_int_equal(iv(d.items, 0, "delta_total"), 300);
	assert_int_equal(iv(d.items, 0, "test_max"), 400);
	assert_int_equal(iv(d.items, 0, "test_min"), 100);
	assert_string_equal(sv(d.items, 1, "name"), "S/b");
	pt_diff_free(&d);
}

static void test_stages(void **state)
{
	(void)state;
	struct pt_diff_stage b[] = { { 0, "total", 1000 }, { 0, "tail", 100 }, { 0, "stream_5_0_x_dur", 7 } };
	struct pt_diff_stage t[] = { { 0, "tail", 150 }, { 0, "total", 1100 }, { 0, "free", 3 } };
	struct pt_diff_side bs = { NULL, 0, b, 3, 4, 4000 }, ts = { NULL, 0, t, 3, 4, 4400 };
	struct pt_diff_opts o;
	pt_diff_opts_init(&o);
	o.by = PT_DB_STEP;
	struct pt_diff d;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	const struct pt_table *s = d.stages;
	assert_non_null(s);
	assert_int_equal(s->nrows, 4);
	assert_string_equal(sv(s, 0, "stage"), "total");
	assert_int_equal(iv(s, 0, "delta"), 100);
	assert_true(dv(s, 0, "delta_pct") == 10.0);
	assert_string_equal(sv(s, 1, "stage"), "tail");
	assert_int_equal(iv(s, 1, "delta"), 50);
	assert_string_equal(sv(s, 2, "stage"), "stream_5_0_x_dur");
	assert_int_equal(iv(s, 2, "test_avg"), INT64_MIN);
	assert_int_equal(iv(s, 2, "delta"), INT64_MIN);
	assert_string_equal(sv(s, 3, "stage"), "free");
	assert_int_equal(iv(s, 3, "base_avg"), INT64_MIN);
	assert_int_equal(iv(s, 3, "test_avg"), 3);
	assert_true(d.step_pct == 10.0);
	pt_diff_free(&d);
}

/* One key, several ops: equal names match first, the rest in natural order. */
static void test_match_group(void **state)
{
	(void)state;
	struct pt_diff_item b[] = { { 0, "S/Mul-op20", 1, 20, 20, 20 }, { 0, "S/Mul-op21", 1, 21, 21, 21 },
				    { 0, "S/Mul-op9", 1, 9, 9, 9 }, { 0, "S/Mul-op22", 1, 22, 22, 22 } };
	/* op20 dropped, op9 renumbered to op109 (after op22 in natural order), op21 and op22 kept */
	struct pt_diff_item t[] = { { 0, "S/Mul-op22", 1, 23, 23, 23 }, { 0, "S/Mul-op109", 1, 10, 10, 10 },
				    { 0, "S/Mul-op21", 1, 21, 21, 21 } };
	struct pt_diff_side bs = { b, 4, NULL, 0, 0, 0 }, ts = { t, 3, NULL, 0, 0, 0 };
	struct pt_diff_opts o;
	pt_diff_opts_init(&o);
	struct pt_diff d;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.matched, 3);
	assert_int_equal(d.removed, 1);
	assert_int_equal(d.added, 0);
	const struct pt_table *x = d.items;
	int seen = 0;
	for (size_t r = 0; r < x->nrows; r++) {
		const char *bn = sv(x, r, "base_name"), *tn = sv(x, r, "test_name");
		if (!strcmp(bn, "S/Mul-op21")) {
			assert_string_equal(tn, "S/Mul-op21");
			seen |= 1;
		} else if (!strcmp(bn, "S/Mul-op22")) {
			assert_string_equal(tn, "S/Mul-op22");
			assert_int_equal(iv(x, r, "delta_total"), 1);
			seen |= 2;
		} else if (!strcmp(bn, "S/Mul-op9")) {
			assert_string_equal(tn, "S/Mul-op109");
			seen |= 4;
		} else {
			assert_string_equal(bn, "S/Mul-op20");
			assert_string_equal(sv(x, r, "status"), "removed");
			seen |= 8;
		}
	}
	assert_int_equal(seen, 15);
	pt_diff_free(&d);
}

/* Offsetting items: the step time grew, one item got much faster. */
static void test_verdict_offset(void **state)
{
	(void)state;
	struct pt_diff_item b[] = { { 0, "A", 10, 1000, 100, 100 }, { 0, "B", 10, 1000, 100, 100 },
				    { 0, "C", 10, 1000, 100, 100 } };
	struct pt_diff_item t[] = { { 0, "A", 10, 4000, 400, 400 }, { 0, "B", 10, 500, 50, 50 },
				    { 0, "C", 10, 1010, 101, 101 } };
	struct pt_diff_side bs = { b, 3, NULL, 0, 10, 10000 }, ts = { t, 3, NULL, 0, 10, 12500 };
	struct pt_diff_opts o;
	pt_diff_opts_init(&o);
	struct pt_diff d;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	const struct pt_table *v = d.verdict;
	assert_int_equal(v->nrows, 2);
	assert_string_equal(sv(v, 0, "name"), "A");
	assert_string_equal(sv(v, 0, "role"), "cause");
	assert_int_equal(iv(v, 0, "per_step"), 300);
	assert_true(dv(v, 0, "share_pct") == 120.0);
	assert_string_equal(sv(v, 1, "name"), "B");
	assert_string_equal(sv(v, 1, "role"), "offset");
	assert_string_equal(sv(v, 1, "kind"), "improvement");
	assert_int_equal(d.explained, 300);
	pt_diff_free(&d);
	/* unchanged step time: no verdict rows */
	ts.step_total = 10000;
	assert_int_equal(pt_pass_diff(&bs, &ts, &o, &d, &e), 0);
	assert_int_equal(d.verdict->nrows, 0);
	pt_diff_free(&d);
	/* empty sides */
	struct pt_diff_side none = { 0 };
	assert_int_equal(pt_pass_diff(&none, &none, &o, &d, &e), 0);
	assert_int_equal(d.items->nrows, 0);
	assert_null(d.stages);
	pt_diff_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_sort_top_scope),
		cmocka_unit_test(test_match_group),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_verdict_offset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
