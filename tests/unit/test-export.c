/* Unit tests of lib/table and lib/export: exact text, CSV, JSON and JSON-lines output. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/export.h"
#include "export/jsonw.h"
#include "support/err.h"
#include "support/out.h"
#include "table/table.h"

static struct pt_table *sample(void)
{
	struct pt_table *t = pt_table_new("ops", "Op executions");
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	size_t r = pt_table_add_row(t);
	pt_table_set_str(t, r, 0, "MatMul", 6);
	pt_table_set_int(t, r, 1, 3);
	pt_table_set_int(t, r, 2, 1500000);
	pt_table_set_double(t, r, 3, 12.345);
	r = pt_table_add_row(t);
	pt_table_set_strdup(t, r, 0, "a,\"b\"\n\x01\xff", 8);
	pt_table_set_int(t, r, 1, -1);
	/* total and ratio null */
	return t;
}

static char *render(struct pt_table *t, enum pt_format f, enum pt_time_unit u, bool wide)
{
	int fd = memfd_create("x", 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, "memfd");
	struct pt_export_opts opts = { f, u, wide, 0 };
	pt_export(&o, &t, 1, &opts);
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_flush(&o, &e), 0);
	pt_out_abort(&o);
	off_t n = lseek(fd, 0, SEEK_END);
	char *s = calloc(1, (size_t)n + 1);
	assert_int_equal(pread(fd, s, (size_t)n, 0), n);
	close(fd);
	return s;
}

static void test_csv(void **state)
{
	(void)state;
	struct pt_table *t = sample();
	char *s = render(t, PT_FMT_CSV, PT_TU_DEFAULT, false);
	assert_string_equal(s, "name,calls,total_ns,ratio\n"
			       "MatMul,3,1500000,12.35\n"
			       "\"a,\"\"b\"\"\n\x01\xff\",-1,,\n");
	free(s);
	s = render(t, PT_FMT_CSV, PT_TU_MS, false);
	assert_string_equal(s, "name,calls,total_ms,ratio\nMatMul,3,1.500000,12.35\n\"a,\"\"b\"\"\n\x01\xff\",-1,,\n");
	free(s);
	pt_table_free(t);
}

/* --table/--view: tables chosen by name; an unknown or empty name lists the tables there are. */
static void test_pick(void **state)
{
	(void)state;
	struct pt_table *t[3] = { pt_table_new("ops", "Ops"), pt_table_new("kernels", "Kernels"),
				  pt_table_new("op", "Op") };
	bool sel[3];
	struct pt_err *e = NULL;
	assert_int_equal(pt_export_pick(t, 3, "kernels", sel, &e), 1);
	assert_false(sel[0]);
	assert_true(sel[1]);
	assert_false(sel[2]);
	assert_int_equal(pt_export_pick(t, 3, "op,ops,op", sel, &e), 2);
	assert_true(sel[0] && sel[2] && !sel[1]);
	assert_int_equal(pt_export_pick(t, 3, "kernel", sel, &e), -1);
	char *m = pt_err_str(e);
	assert_string_equal(m, "no table named 'kernel' (there are: ops,kernels,op)");
	free(m);
	pt_err_free(e);
	e = NULL;
	assert_int_equal(pt_export_pick(t, 3, "ops,", sel, &e), -1);
	m = pt_err_str(e);
	assert_string_equal(m, "empty table name in 'ops,' (there are: ops,kernels,op)");
	free(m);
	pt_err_free(e);
	e = NULL;
	m = pt_export_names(t, 3, 1);
	assert_string_equal(m, "ops,op");
	free(m);
	m = pt_export_names(t, 1, 0);
	assert_string_equal(m, "");
	free(m);
	for (int i = 0; i < 3; i++)
		pt_table_free(t[i]);
}

static void test_json(void **state)
{
	(void)state;
	struct pt_table *t = sample();
	char *s = render(t, PT_FMT_JSON, PT_TU_DEFAULT, false);
	assert_string_equal(s, "{\"proftool\":\"" PT_VERSION "\",\"views\":[\n"
			       "{\"name\":\"ops\",\"unit\":\"ns\",\"columns\":[\"name\",\"calls\",\"total_ns\",\"ratio\"],\"rows\":[\n"
			       "{\"name\":\"MatMul\",\"calls\":3,\"total_ns\":1500000,\"ratio\":12.35},\n"
			       "{\"name\":\"a,\\\"b\\\"\\n\\u0001\\ufffd\",\"calls\":-1,\"total_ns\":null,\"ratio\":null}]}\n"
			       "]}\n");
	free(s);
	s = render(t, PT_FMT_JSONL, PT_TU_US, false);
	assert_string_equal(s, "{\"view\":\"ops\",\"name\":\"MatMul\",\"calls\":3,\"total_us\":1500.000,\"ratio\":12.35}\n"
			       "{\"view\":\"ops\",\"name\":\"a,\\\"b\\\"\\n\\u0001\\ufffd\",\"calls\":-1,\"total_us\":null,\"ratio\":null}\n");
	free(s);
	pt_table_free(t);
}

static void test_text(void **state)
{
	(void)state;
	struct pt_table *t = pt_table_new("k", "Kernels");
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	size_t r = pt_table_add_row(t);
	const char *lng = "Default/network-WideDeepModel/very/long/scope/name/that/goes/on/GatherV2-op33";
	pt_table_set_str(t, r, 0, lng, strlen(lng));
	pt_table_set_int(t, r, 1, 1999500);
	r = pt_table_add_row(t);
	pt_table_set_str(t, r, 0, "x", 1);
	char *s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, false);
	assert_string_equal(s, "Kernels\n"
			       "Time unit: ms\n"
			       "name                                                          total\n"
			       "------------------------------------------------------------  -----\n"
			       "Default/network-WideDeepModel/very/\xe2\x80\xa6/goes/on/GatherV2-op33    2.000\n"
			       "x                                                                 -\n");
	free(s);
	s = render(t, PT_FMT_TABLE, PT_TU_NS, true);
	assert_non_null(strstr(s, "GatherV2-op33  1999500\n"));
	free(s);
	/* auto: times of 2 ms, 1 s and 3 s, median 1 s: seconds */
	pt_table_set_int(t, 1, 1, 1000000000);
	pt_table_set_int(t, pt_table_add_row(t), 1, 3000000000);
	s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, false);
	assert_non_null(strstr(s, "Time unit: s\n"));
	assert_non_null(strstr(s, "GatherV2-op33    0.002\n"));
	assert_non_null(strstr(s, "  1.000\n-  "));
	assert_non_null(strstr(s, "  3.000\n"));
	free(s);
	pt_table_free(t);
}

/* A time in prose: three decimals in the given unit, or in the unit auto picks for that one time. */
static void test_time_text(void **state)
{
	(void)state;
	char b[PT_TIME_TEXT_MAX];
	assert_string_equal(pt_time_text(b, 90353603, PT_TU_DEFAULT), "90.354 ms");
	assert_string_equal(pt_time_text(b, 60000, PT_TU_DEFAULT), "60.000 us");
	assert_string_equal(pt_time_text(b, 99, PT_TU_DEFAULT), "99 ns");
	assert_string_equal(pt_time_text(b, 100, PT_TU_DEFAULT), "0.100 us");
	assert_string_equal(pt_time_text(b, 0, PT_TU_DEFAULT), "0.000 ms");
	assert_string_equal(pt_time_text(b, 2500000000, PT_TU_DEFAULT), "2.500 s");
	assert_string_equal(pt_time_text(b, -1500, PT_TU_DEFAULT), "-1.500 us");
	assert_string_equal(pt_time_text(b, 60000, PT_TU_MS), "0.060 ms");
	assert_string_equal(pt_time_text(b, 1234567, PT_TU_NS), "1234567 ns");
	assert_string_equal(pt_time_text(b, 1999500, PT_TU_MS), "2.000 ms"); /* half away from zero */
	/* the widest: INT64_MIN in ns, and in s */
	assert_string_equal(pt_time_text(b, INT64_MIN, PT_TU_NS), "-9223372036854775808 ns");
	assert_string_equal(pt_time_text(b, INT64_MIN, PT_TU_DEFAULT), "-9223372036.855 s");
	/* the fraction rule of prose */
	snprintf(b, sizeof(b), PT_TEXT_FRAC "%%", 28.75);
	assert_string_equal(b, "28.75%");
}

/* The auto unit: median of the non-zero times, the largest unit in which it is at least 0.100; ms with none. */
static void test_unit_pick(void **state)
{
	(void)state;
	int64_t v0[] = { 0, 0, 0 };
	assert_int_equal(pt_time_unit_pick(v0, 3), PT_TU_MS);
	assert_int_equal(pt_time_unit_pick(NULL, 0), PT_TU_MS);
	int64_t v1[] = { 99 };
	assert_int_equal(pt_time_unit_pick(v1, 1), PT_TU_NS);
	int64_t v2[] = { 100 };
	assert_int_equal(pt_time_unit_pick(v2, 1), PT_TU_US);
	int64_t v6[] = { 99999 };
	assert_int_equal(pt_time_unit_pick(v6, 1), PT_TU_US);
	int64_t v7[] = { 100000 };
	assert_int_equal(pt_time_unit_pick(v7, 1), PT_TU_MS);
	/* zeros do not count: the median of 5 us, 7 ms, 9 ms is 7 ms */
	int64_t v3[] = { 0, 9000000, 0, 5000, 7000000, 0, 0 };
	assert_int_equal(pt_time_unit_pick(v3, 7), PT_TU_MS);
	/* negative times (deltas) count by magnitude */
	int64_t v4[] = { -2000000000, INT64_MIN, 3000000000 };
	assert_int_equal(pt_time_unit_pick(v4, 3), PT_TU_S);
	int64_t v5[] = { 15000, 1, 2, 3000000 };
	assert_int_equal(pt_time_unit_pick(v5, 4), PT_TU_US);
	/* a table: its time cells only; no rows: ms */
	struct pt_table *t = pt_table_new("t", NULL);
	pt_table_add_col(t, "n", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "d", PT_COL_TIME, PT_ROLE_VALUE, 0);
	assert_int_equal(pt_table_pick_unit(t), PT_TU_MS);
	size_t r = pt_table_add_row(t);
	pt_table_set_int(t, r, 0, 1000000000);
	pt_table_set_int(t, r, 1, 42);
	assert_int_equal(pt_table_pick_unit(t), PT_TU_NS);
	pt_table_set_int(t, r, 1, 420000000);
	assert_int_equal(pt_table_pick_unit(t), PT_TU_S);
	pt_table_free(t);
	/* events: the durations pick, not the start times; start times alone pick for themselves */
	t = pt_table_new("t", NULL);
	pt_table_add_col(t, "start", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "dur", PT_COL_TIME, PT_ROLE_VALUE, 0);
	for (int i = 0; i < 3; i++) {
		r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, 1000000000000 + i);
		pt_table_set_int(t, r, 1, 50000);
	}
	assert_int_equal(pt_table_pick_unit(t), PT_TU_US);
	for (int i = 0; i < 3; i++)
		pt_table_cell(t, (size_t)i, 1)->kind = PT_CELL_NULL;
	assert_int_equal(pt_table_pick_unit(t), PT_TU_MS); /* no duration has a value: ms */
	pt_table_free(t);
}

/* No line of a text table ends in spaces, empty string cells last included; doubles have two decimals. */
static void test_text_trailing(void **state)
{
	(void)state;
	struct pt_table *t = pt_table_new("k", "Kernels");
	pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 5);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	size_t r = pt_table_add_row(t);
	pt_table_set_double(t, r, 0, 1.23456);
	pt_table_set_str(t, r, 1, "", 0);
	r = pt_table_add_row(t);
	pt_table_set_double(t, r, 0, 100);
	pt_table_set_str(t, r, 1, "a long name", 11);
	pt_table_add_note(t, "note");
	char *s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, false);
	assert_string_equal(s, "Kernels\n"
			       " ratio  name\n"
			       "------  -----------\n"
			       "  1.23\n"
			       "100.00  a long name\n"
			       "note\n");
	free(s);
	pt_table_free(t);
}

/* A table wider than 120 columns narrows its widest string columns (not below 16) to fit; --wide does not. */
static void test_text_fit(void **state)
{
	(void)state;
	struct pt_table *t = pt_table_new("k", "K");
	pt_table_add_col(t, "a", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "b", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "c", PT_COL_STR, PT_ROLE_LABEL, 0);
	char a[81], b[31];
	memset(a, 'a', 80);
	a[80] = 0;
	memset(b, 'b', 30);
	b[30] = 0;
	size_t r = pt_table_add_row(t);
	pt_table_set_str(t, r, 0, a, 80);
	pt_table_set_str(t, r, 1, b, 30);
	pt_table_set_str(t, r, 2, b, 30);
	char *s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, false);
	/* 60 + 30 + 30 + 4 = 124: the first column gives up 4 */
	const char *row = strstr(s, "------\n") + 7;
	assert_int_equal(strcspn(row, "\n"), 120 + 2); /* 120 columns, the mark three bytes */
	assert_true(strncmp(row, "aaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe2\x80\xa6", 31) == 0);
	free(s);
	s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, true);
	row = strstr(s, "------\n") + 7;
	assert_int_equal(strcspn(row, "\n"), 80 + 2 + 30 + 2 + 30);
	free(s);
	pt_table_free(t);
	/* a table that cannot fit with its names at 16 columns keeps them at 60 */
	t = pt_table_new("k", "K");
	pt_table_add_col(t, "a", PT_COL_STR, PT_ROLE_LABEL, 0);
	char wide_head[111];
	memset(wide_head, 'n', 110);
	wide_head[110] = 0;
	pt_table_add_col(t, wide_head, PT_COL_INT, PT_ROLE_VALUE, 0);
	r = pt_table_add_row(t);
	pt_table_set_str(t, r, 0, a, 80);
	pt_table_set_int(t, r, 1, 7);
	s = render(t, PT_FMT_TABLE, PT_TU_DEFAULT, false);
	row = strstr(s, "------\n") + 7;
	assert_int_equal(strcspn(row, "\n"), 60 + 2 + 110 + 2); /* the mark three bytes */
	free(s);
	pt_table_free(t);
}

/* Rows made when read (pt_table_set_rows) from the cells of another table,
 * counting how often each row is made. */
struct copy_rows {
	struct pt_table *src;
	size_t *made;
};

static void copy_row(void *arg, size_t r, struct pt_cell *cells)
{
	struct copy_rows *g = arg;
	for (size_t c = 0; c < g->src->ncols; c++)
		assert_int_equal(cells[c].kind, PT_CELL_NULL); /* a fresh row */
	memcpy(cells, &g->src->cells[r * g->src->ncols], g->src->ncols * sizeof(*cells));
	g->made[r]++;
}

static void copy_rows_free(void *arg)
{
	struct copy_rows *g = arg;
	pt_table_free(g->src);
	free(g->made);
	free(g);
}

/* Every format prints a table whose rows are made when read as it prints
 * the same table held as cells; data formats make each row once, text (widths
 * first) twice. */
static void test_rows_when_read(void **state)
{
	(void)state;
	static const enum pt_format fmts[] = { PT_FMT_CSV, PT_FMT_JSON, PT_FMT_JSONL, PT_FMT_TABLE };
	for (int f = 0; f < 4; f++) {
		struct pt_table *a = sample(), *b = pt_table_new("ops", "Op executions");
		for (size_t c = 0; c < a->ncols; c++)
			pt_table_add_col(b, a->cols[c].name, a->cols[c].type, a->cols[c].role, a->cols[c].decimals);
		struct copy_rows *g = calloc(1, sizeof(*g));
		g->src = sample();
		g->made = calloc(g->src->nrows, sizeof(*g->made));
		pt_table_set_rows(b, g->src->nrows, copy_row, g, copy_rows_free);
		assert_null(b->cells);
		for (int wide = 0; wide < 2; wide++) {
			char *sa = render(a, fmts[f], PT_TU_US, wide), *sb = render(b, fmts[f], PT_TU_US, wide);
			assert_string_equal(sa, sb);
			free(sa);
			free(sb);
		}
		for (size_t r = 0; r < g->src->nrows; r++)
			assert_int_equal(g->made[r], fmts[f] == PT_FMT_TABLE ? 4 : 2);
		pt_table_free(a);
		pt_table_free(b);
	}
}

/* pt_table_set_default_cols: text without --wide prints the named columns
 * only (a name the table lacks is passed over); --wide, CSV and JSON print
 * every column. */
static void test_default_cols(void **state)
{
	(void)state;
	struct pt_table *t = sample();
	static const char *const keep[] = { "total", "name", "no_such_column", NULL };
	pt_table_set_default_cols(t, keep);
	assert_false(t->cols[0].detail);
	assert_true(t->cols[1].detail);
	assert_false(t->cols[2].detail);
	assert_true(t->cols[3].detail);
	char *s = render(t, PT_FMT_TABLE, PT_TU_MS, false);
	assert_non_null(strstr(s, "Op executions\nTime unit: ms\nname            total\n"
				  "--------------  -----\nMatMul          1.500\n"));
	assert_null(strstr(s, "calls"));
	assert_null(strstr(s, "ratio"));
	assert_null(strstr(s, "12.35"));
	free(s);
	s = render(t, PT_FMT_TABLE, PT_TU_MS, true);
	assert_non_null(strstr(s, "name            calls  total  ratio\n"));
	free(s);
	s = render(t, PT_FMT_CSV, PT_TU_DEFAULT, false);
	assert_non_null(strstr(s, "name,calls,total_ns,ratio\n"));
	free(s);
	/* naming no column leaves text without columns: every one is a detail column */
	static const char *const none[] = { NULL };
	pt_table_set_default_cols(t, none);
	for (size_t c = 0; c < t->ncols; c++)
		assert_true(t->cols[c].detail);
	pt_table_free(t);
}

/* pt_jsonw_quote: escapes, invalid UTF-8 (a stray byte, a sequence cut at the end) as U+FFFD */
static void test_jsonw_quote(void **state)
{
	(void)state;
	static const char in[] = "a\"b\\\n\t\r\b\f\x01\xff\xc3\xa9z\xc3";
	char out[6 * sizeof(in) + 2];
	size_t n = pt_jsonw_quote(out, in, sizeof(in) - 1, true);
	out[n] = 0;
	assert_string_equal(out, "\"a\\\"b\\\\\\n\\t\\r\\b\\f\\u0001\\ufffd\xc3\xa9z\\ufffd\"");
	n = pt_jsonw_quote(out, in, sizeof(in) - 1, false);
	out[n] = 0;
	assert_string_equal(out, "\"a\\\"b\\\\\\n\\t\\r\\u0008\\u000c\\u0001\\ufffd\xc3\xa9z\\ufffd\"");
	n = pt_jsonw_quote(out, "", 0, true);
	assert_int_equal(n, 2);
	assert_memory_equal(out, "\"\"", 2);
	assert_int_equal(pt_jsonw_utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0); /* a surrogate */
	assert_int_equal(pt_jsonw_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_jsonw_quote),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_trailing),
		cmocka_unit_test(test_unit_pick),
		cmocka_unit_test(test_time_text),
		cmocka_unit_test(test_text_fit),
		cmocka_unit_test(test_rows_when_read),
		cmocka_unit_test(test_default_cols),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
