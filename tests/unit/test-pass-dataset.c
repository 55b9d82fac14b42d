/*
 * proftool dataset pass: pipeline filters (hints.md §6 cases 4 and 5), CPU
 * rule, queue verdicts, batches, knobs, and the real samples of ascend.md §6
 * (JOB1 against MindInsight's minddata_pipeline_raw_0.csv; minddata).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/registry.h"
#include "model/model.h"
#include "pass/pass-dataset.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/xalloc.h"
#include "table/table.h"

/* ---- model building ---------------------------------------------------- */

static uint32_t dev0(struct pt_model *m)
{
	return pt_model_device(m, PT_DEV_NPU, 0);
}

/* An op with one queue sample of size `size` of capacity `cap` (cap < 0: no metrics). */
static void add_op(struct pt_model *m, int64_t id, const char *type, int64_t workers, int64_t cap,
		   const int64_t *sizes, size_t nsizes, const int64_t *kids, size_t nkids)
{
	struct pt_md_op op;
	memset(&op, 0, sizeof(op));
	op.device = dev0(m);
	op.op_id = id;
	op.type = pt_model_str(m, type);
	op.num_workers = workers;
	op.sampling_interval_ns = 10000000;
	op.queue_capacity = cap;
	op.queue_track = PT_NONE;
	if (cap >= 0) {
		char name[32];
		snprintf(name, sizeof(name), "md_op_queue:%lld", (long long)id);
		op.has_queue = true;
		op.queue_track = pt_model_track(m, op.device, PT_TRACK_QUEUE, id, name);
		for (size_t i = 0; i < nsizes; i++)
			pt_model_add_queue_sample(m, op.queue_track, (int64_t)i * 10000000, sizes[i], cap);
	}
	for (size_t i = 0; i < nkids; i++)
		pt_vec_push(&op.children, kids[i]);
	pt_model_add_md_op(m, &op);
}

/* Batch(0, root, no metrics) <- Map(1) <- Map(2) <- ImageFolder(3); usages in percent of 100. */
static struct pt_model *chain(int64_t u1, int64_t u2, int64_t u3)
{
	struct pt_model *m = pt_model_new();
	int64_t k1 = 1, k2 = 2, k3 = 3;
	add_op(m, 0, "BatchOp", 4, -1, NULL, 0, &k1, 1);
	add_op(m, 1, "MapOp", 4, 100, &u1, 1, &k2, 1);
	add_op(m, 2, "MapOp", 4, 100, &u2, 1, &k3, 1);
	add_op(m, 3, "ImageFolderOp", 4, 100, &u3, 1, NULL, 0);
	return m;
}

static struct pt_table *view(struct pt_table **t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i]->name, name))
			return t[i];
	return NULL;
}

static void free_views(struct pt_table **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pt_table_free(t[i]);
	free(t);
}

static const struct pt_cell *cell(struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	return pt_table_cell(t, r, (size_t)c);
}

static const char *cell_s(struct pt_table *t, size_t r, const char *col)
{
	static char buf[4096];
	const struct pt_cell *c = cell(t, r, col);
	if (c->kind != PT_CELL_STR)
		return "";
	snprintf(buf, sizeof(buf), "%.*s", (int)c->len, c->u.s);
	return buf;
}

/* The ops flagged by the queue-usage rule, as "1,3". */
static char *flagged(struct pt_model *m, const char *rules, const char *delta)
{
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	char *why = NULL;
	if (rules)
		assert_int_equal(pt_dataset_knob_set(&k, "hints.md_pipeline.rules", rules, &why), 0);
	if (delta)
		assert_int_equal(pt_dataset_knob_set(&k, "hints.md_pipeline.delta", delta, &why), 0);
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &t, &n, &e), 0);
	struct pt_table *ops = view(t, n, "ops");
	char out[64] = "";
	for (size_t r = 0; r < ops->nrows; r++)
		if (cell(ops, r, "queue_rule")->u.i)
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%lld", *out ? "," : "",
				 (long long)cell(ops, r, "op_id")->u.i);
	free_views(t, n);
	return pt_xstrdup(out);
}

static void expect_flags(int64_t u1, int64_t u2, int64_t u3, const char *cur, const char *old)
{
	struct pt_model *m = chain(u1, u2, u3);
	char *a = flagged(m, NULL, NULL), *b = flagged(m, "2020", NULL);
	if (strcmp(a, cur) || strcmp(b, old))
		fail_msg("u = %lld %lld %lld: current '%s' (want '%s'), 2020 '%s' (want '%s')", (long long)u1,
			 (long long)u2, (long long)u3, a, cur, b, old);
	free(a);
	free(b);
	pt_model_free(m);
}

/* hints.md §6 case 5 (the root alone is reported as op 0) */
static void test_pipeline_filter(void **state)
{
	(void)state;
	expect_flags(85, 40, 95, "2", "");
	expect_flags(85, 10, 95, "2", "2");
	expect_flags(50, 45, 30, "3", "");
	expect_flags(85, 90, 30, "3", "");
	expect_flags(85, 82, 99, "0", "0");
	expect_flags(90, 88, 95, "0", "0");
	expect_flags(10, 10, 10, "3", "3"); /* 2020: all low -> the leaves */
	struct pt_model *m = chain(85, 40, 95);
	char *a = flagged(m, NULL, "0.6");
	assert_string_equal(a, "");
	free(a);
	pt_model_free(m);
}

static void add_host(struct pt_model *m, const int64_t *sizes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pt_md_record r = { dev0(m), PT_MD_DEVICE_QUEUE, 1, 10, (int64_t)i + 1, sizes[i], -1 };
		pt_model_add_md_record(m, &r);
	}
}

static void add_getnext(struct pt_model *m, const int64_t *sizes, size_t n)
{
	uint32_t t = pt_model_track(m, dev0(m), PT_TRACK_QUEUE, -1, "get_next");
	uint32_t nm = pt_model_str(m, "GetNext_dequeue_wait");
	for (size_t i = 0; i < n; i++) {
		pt_model_add_event(m, t, nm, PT_EV_GETNEXT, (int64_t)i * 1000, 100 + (int64_t)i, 0, PT_NONE, 0);
		pt_model_add_queue_sample(m, t, (int64_t)i * 1000 + 100, sizes[i], -1);
	}
}

static void expect_verdict(const int64_t *host, size_t nh, const int64_t *dev, size_t nd, const char *rules,
			   const char *verdict, const char *s0, const char *s1, const char *s2)
{
	struct pt_model *m = pt_model_new();
	add_host(m, host, nh);
	if (dev)
		add_getnext(m, dev, nd);
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	char *why = NULL;
	if (rules)
		assert_int_equal(pt_dataset_knob_set(&k, "hints.md_queue.rules", rules, &why), 0);
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &t, &n, &e), 0);
	struct pt_table *st = view(t, n, "stages");
	assert_int_equal(st->nrows, 4);
	assert_string_equal(cell_s(st, 3, "status"), verdict);
	assert_string_equal(cell_s(st, 0, "status"), s0);
	assert_string_equal(cell_s(st, 1, "status"), s1);
	assert_string_equal(cell_s(st, 2, "status"), s2);
	free_views(t, n);
	pt_model_free(m);
}

/* hints.md §6 case 4, and the 2020 table of ascend.md §3.11 */
static void test_verdict(void **state)
{
	(void)state;
	int64_t h1[] = { 0, 0, 0, 0, 5, 6, 7, 8, 9, 10 }, h2[] = { 0, 0, 0, 5, 5, 5, 5, 5, 5, 5 };
	int64_t d2[] = { 3, 0, 2 }, d3[] = { 3, 2, 2 };
	expect_verdict(h1, 10, NULL, 0, NULL, "data_processing", "bottleneck", "not_judged", "not_judged");
	expect_verdict(h2, 10, d2, 3, NULL, "host_to_device", "ok", "bottleneck", "ok");
	expect_verdict(h2, 10, d3, 3, NULL, "none", "ok", "ok", "ok");
	expect_verdict(h2, 10, NULL, 0, NULL, "none_found", "ok", "not_judged", "not_judged");
	expect_verdict(h1, 10, NULL, 0, "2020", "none_found", "ok", "not_judged", "not_judged");
	int64_t h3[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1 };
	expect_verdict(h3, 10, d2, 3, "2020", "data_processing", "bottleneck", "not_judged", "not_judged");
	expect_verdict(h1, 10, d2, 3, "2020", "host_to_device", "ok", "bottleneck", "ok");
}

static void test_queues_and_batches(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	int64_t host[] = { 0, 10, 5 }, dev[] = { 3, 0, 2 };
	add_host(m, host, 3);
	add_getnext(m, dev, 3);
	/* batches 1..3: totals 4, 3, 4 ms -> avg over 2..3 = 3.5 ms */
	int64_t tot[] = { 4, 3, 4 };
	for (int b = 0; b < 3; b++) {
		struct pt_md_record r = { dev0(m), PT_MD_DEVICE_QUEUE, 0, 2, b + 1, tot[b] * 1000000, -1 };
		pt_model_add_md_record(m, &r);
	}
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &t, &n, &e), 0);
	struct pt_table *q = view(t, n, "queues");
	assert_int_equal(q->nrows, 2);
	assert_string_equal(cell_s(q, 0, "queue"), "host");
	assert_int_equal(cell(q, 0, "empty")->u.i, 1);
	assert_int_equal(cell(q, 0, "full")->u.i, 1);
	assert_string_equal(cell_s(q, 1, "queue"), "get_next");
	assert_int_equal(cell(q, 1, "empty")->u.i, 1);
	assert_int_equal(cell(q, 1, "full")->kind, PT_CELL_NULL);
	assert_int_equal(cell(q, 1, "mean_wait")->u.i, 101);
	assert_int_equal(cell(q, 1, "max_wait")->u.i, 102);
	struct pt_table *b = view(t, n, "batches");
	assert_non_null(b);
	assert_int_equal(b->nrows, 6);
	assert_int_equal(cell(b, 0, "warmup")->u.i, 1);
	assert_string_equal(cell_s(b, 3, "batch"), "avg");
	assert_int_equal(cell(b, 3, "total")->u.i, 3500000);
	assert_int_equal(cell(b, 4, "total")->u.i, 3000000);
	assert_int_equal(cell(b, 5, "total")->u.i, 4000000);
	assert_int_equal(cell(b, 3, "get")->kind, PT_CELL_NULL);
	free_views(t, n);
	pt_model_free(m);
}

static void test_knobs(void **state)
{
	(void)state;
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	char *why = NULL;
	assert_int_equal(pt_dataset_knob_set(&k, "hints.md_op.cpu_high_pct", "60", &why), 0);
	assert_true(k.op_cpu_high_pct == 60);
	assert_int_equal(pt_dataset_knob_set(&k, "hints.step_gap.ms", "1", &why), 1);
	assert_int_equal(pt_dataset_knob_set(&k, "hints.nope", "1", &why), -1);
	assert_non_null(strstr(why, "'hints.nope'"));
	free(why);
	assert_int_equal(pt_dataset_knob_set(&k, "hints.md_pipeline.low", "nan", &why), -1);
	free(why);
	assert_int_equal(pt_dataset_knob_set(&k, "hints.md_pipeline.low", "0.9", &why), 0);
	assert_int_equal(pt_dataset_knobs_check(&k, &why), -1);
	free(why);
	assert_int_equal(pt_dataset_display_len("BatchOp"), 5);
	assert_int_equal(pt_dataset_display_len("Batch"), 5);
	assert_int_equal(pt_dataset_display_len("Op"), 2);
}

static void test_not_a_tree(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	int64_t one = 1, zero = 0, s = 1;
	add_op(m, 0, "MapOp", 1, 10, &s, 1, &one, 1);
	add_op(m, 1, "MapOp", 1, 10, &s, 1, &zero, 1);
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &t, &n, &e), -1);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "no root"));
	free(msg);
	pt_err_free(e);
	pt_model_free(m);
	/* an empty model: a clear error, not empty output */
	m = pt_model_new();
	e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &t, &n, &e), -1);
	pt_err_free(e);
	pt_model_free(m);
}

/* ---- real samples -------------------------------------------------------- */

static char *fixture(const char *rel)
{
	const char *sh = getenv("PT_SHARED");
	char *p = sh ? pt_xasprintf("%s/fixtures/mindinsight/%s", sh, rel) : NULL;
	struct stat st;
	if (!p || stat(p, &st)) {
		free(p);
		return NULL;
	}
	return p;
}

static struct pt_table **import_views(const char *dir, size_t *n, int64_t device)
{
	struct pt_model *m = pt_model_new();
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	struct pt_diag diag = { 0 };
	struct pt_err *e = NULL;
	const char *paths[1] = { dir };
	assert_int_equal(pt_import(m, paths, 1, &o, &diag, &e), 0);
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	struct pt_table **t;
	assert_int_equal(pt_pass_dataset(m, device, &k, &t, n, &e), 0);
	pt_diag_free(&diag);
	pt_model_free(m);
	return t;
}

/* Split a CSV line (quotes, no escaped quotes needed here) into fields. */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		if (*p == '"') {
			f[n++] = ++p;
			p = strchr(p, '"');
			if (!p)
				return n;
			*p++ = 0;
		} else {
			f[n++] = p;
			p += strcspn(p, ",\r\n");
		}
		if (*p != ',') {
			*p = 0;
			break;
		}
		*p++ = 0;
	}
	return n;
}

/* One cell of ours in MindInsight's text, compared as a number when both parse as numbers. */
static void same_cell(const char *col, const char *ours, const char *theirs, int row)
{
	char *e1, *e2;
	double a = strtod(ours, &e1), b = strtod(theirs, &e2);
	if (*ours && *theirs && !*e1 && !*e2) {
		if (fabs(a - b) > 1e-9)
			fail_msg("row %d %s: %s vs MindInsight %s", row, col, ours, theirs);
		return;
	}
	if (strcmp(ours, theirs))
		fail_msg("row %d %s: '%s' vs MindInsight '%s'", row, col, ours, theirs);
}

static void cell_text(struct pt_table *t, size_t r, size_t c, char *buf, size_t n)
{
	const struct pt_cell *x = pt_table_cell(t, r, c);
	switch (x->kind) {
	case PT_CELL_INT:
		snprintf(buf, n, "%lld", (long long)x->u.i);
		break;
	case PT_CELL_DOUBLE:
		snprintf(buf, n, "%.*f", t->cols[c].decimals, x->u.d);
		break;
	case PT_CELL_STR:
		snprintf(buf, n, "%.*s", (int)x->len, x->u.s);
		break;
	default:
		buf[0] = 0;
	}
}

static void test_job1_vs_mindinsight(void **state)
{
	(void)state;
	char *dir = fixture("JOB1"), *csv = fixture("JOB1/expected/minddata_pipeline_raw_0.csv");
	if (!dir || !csv) {
		free(dir);
		free(csv);
		skip();
	}
	size_t n;
	struct pt_table **t = import_views(dir, &n, -1);
	struct pt_table *ops = view(t, n, "ops");
	FILE *f = fopen(csv, "r");
	assert_non_null(f);
	char line[1024];
	char *hdr[16], *fl[16];
	assert_non_null(fgets(line, sizeof(line), f));
	char hline[1024];
	strcpy(hline, line);
	int nh = split_csv(hline, hdr, 16);
	assert_int_equal(nh, 10);
	for (int c = 0; c < 10; c++)
		assert_string_equal(hdr[c], ops->cols[c].name);
	int row = 0;
	while (fgets(line, sizeof(line), f)) {
		int nf = split_csv(line, fl, 16);
		assert_int_equal(nf, 10);
		assert_true((size_t)row < ops->nrows);
		for (int c = 0; c < 10; c++) {
			char buf[256];
			cell_text(ops, (size_t)row, (size_t)c, buf, sizeof(buf));
			same_cell(hdr[c], buf, fl[c], row + 1);
		}
		row++;
	}
	fclose(f);
	assert_int_equal(row, ops->nrows);
	/* queue rule: TFReader 2 and 3 (ascend.md §6) */
	assert_int_equal(cell(ops, 2, "queue_rule")->u.i, 1);
	assert_int_equal(cell(ops, 3, "queue_rule")->u.i, 1);
	assert_int_equal(cell(ops, 1, "queue_rule")->u.i, 0);
	free_views(t, n);
	free(dir);
	free(csv);
}

static void test_minddata_sample(void **state)
{
	(void)state;
	char *dir = fixture("minddata");
	if (!dir)
		skip();
	size_t n;
	struct pt_table **t = import_views(dir, &n, 0);
	struct pt_table *ops = view(t, n, "ops");
	assert_int_equal(ops->nrows, 5);
	static const int64_t ids[] = { 4, 0, 1, 2, 3 };
	for (size_t r = 0; r < 5; r++)
		assert_int_equal(cell(ops, r, "op_id")->u.i, ids[r]);
	assert_true(cell(ops, 1, "output_queue_usage_rate")->u.d == 0.015625);
	assert_true(cell(ops, 1, "output_queue_empty_pct")->u.d == 50.0);
	assert_true(cell(ops, 2, "cpu_pct")->u.d == 40.0);
	assert_true(cell(ops, 2, "cpu_per_worker_pct")->u.d == 5.0);
	assert_string_equal(cell_s(ops, 2, "cpu_rule"), "primary");
	assert_int_equal(cell(ops, 3, "cpu_rule")->kind, PT_CELL_NULL);
	assert_int_equal(cell(ops, 4, "queue_rule")->u.i, 1);
	assert_int_equal(cell(ops, 0, "parent_id")->kind, PT_CELL_NULL);
	struct pt_table *st = view(t, n, "stages");
	assert_string_equal(cell_s(st, 3, "status"), "data_processing");
	struct pt_table *b = view(t, n, "batches");
	assert_non_null(b);
	assert_int_equal(cell(b, 0, "push")->u.i, 4000000);
	assert_int_equal(cell(b, 0, "get")->u.i, 0);
	assert_int_equal(cell(b, 1, "total")->kind, PT_CELL_NULL); /* avg: no batch >= 2 */
	free_views(t, n);
	t = import_views(dir, &n, 1);
	st = view(t, n, "stages");
	assert_string_equal(cell_s(st, 3, "status"), "none_found");
	assert_string_equal(cell_s(st, 0, "status"), "ok");
	assert_null(view(t, n, "batches"));
	free_views(t, n);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline_filter),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_queues_and_batches),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_not_a_tree),
		cmocka_unit_test(test_job1_vs_mindinsight),
		cmocka_unit_test(test_minddata_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
