/*
 * The path classifier (import/classify.h): one walk of the PATHs, the rule of
 * each format over it (names, content, entries that are not regular files),
 * and the errors of PATHs that cannot be read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/ascend.h"
#include "import/classify.h"
#include "import/import-minddata.h"
#include "import/registry.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/xalloc.h"

struct fx {
	char dir[64];
	char *made[32]; /* removed in reverse order (files before their directories) */
	int nmade;
	struct pt_import_opts o;
	struct pt_diag diag;
	struct pt_err *e;
};

static char *in_dir(struct fx *f, const char *name)
{
	return pt_xasprintf("%s/%s", f->dir, name);
}

static void file(struct fx *f, const char *name, const char *text)
{
	char *p = in_dir(f, name);
	FILE *o = fopen(p, "w");
	assert_non_null(o);
	fputs(text, o);
	fclose(o);
	f->made[f->nmade++] = p;
}

static void subdir(struct fx *f, const char *name)
{
	char *p = in_dir(f, name);
	assert_int_equal(mkdir(p, 0755), 0);
	f->made[f->nmade++] = p;
}

static void fifo(struct fx *f, const char *name)
{
	char *p = in_dir(f, name);
	assert_int_equal(mkfifo(p, 0600), 0);
	f->made[f->nmade++] = p;
}

static int setup(void **state)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-classify-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	pt_import_opts_init(&f->o);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	for (int i = f->nmade; i-- > 0;) {
		if (remove(f->made[i]))
			perror(f->made[i]);
		free(f->made[i]);
	}
	rmdir(f->dir);
	pt_diag_free(&f->diag);
	pt_err_free(f->e);
	free(f);
	return 0;
}

typedef int (*rule_fn)(struct pt_walk *, const struct pt_import_opts *, struct pt_inputs *, struct pt_diag *,
		       struct pt_err **);

static int run_rule(struct fx *f, struct pt_walk *w, rule_fn rule, struct pt_inputs *in)
{
	memset(in, 0, sizeof(*in));
	return rule(w, &f->o, in, &f->diag, &f->e);
}

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

/* One job directory holding inputs of every format: each rule takes its own, in its order. */
static void test_rules(void **state)
{
	struct fx *f = *state;
	file(f, "hwts.log.data.45.dev.profiler_default_tag.3.slice_1", "x");
	file(f, "hwts.log.data.45.dev.profiler_default_tag.3.slice_0", "x");
	fifo(f, "training_trace.46.dev.profiler_default_tag.3.slice_0"); /* an Ascend name, not a file */
	subdir(f, "data");
	file(f, "data/info.json.3", "{}");
	file(f, "pipeline_profiling_3.json", "{}");
	file(f, "device_queue_profiling_3.txt", "");
	file(f, "memory_usage_3.pb", "");
	subdir(f, "hccl_info_3");
	file(f, "b.cdump", "CUPTIDMP");
	file(f, "a.cdump", "");
	fifo(f, "c.cdump");
	file(f, "t.pt.trace.json", "{\"schemaVersion\": 1, \"traceEvents\": []}");
	file(f, "notes.json", "{\"traceEvents\": []}"); /* no Kineto mark: not a trace */
	fifo(f, "u.pt.trace.json");
	const char *paths[] = { f->dir };
	struct pt_walk *w = pt_walk_new(paths, 1);
	struct pt_inputs in;

	assert_int_equal(run_rule(f, w, pt_classify_ascend, &in), 0);
	assert_int_equal(in.n, 3); /* the two HWTS slices in name order, then data/'s info.json */
	assert_string_equal(base(in.v[0].path), "hwts.log.data.45.dev.profiler_default_tag.3.slice_0");
	assert_int_equal(in.v[0].kind, PT_AK_HWTS);
	assert_int_equal(in.v[0].number, 3);
	assert_int_equal(in.v[0].slice, 0);
	assert_int_equal(in.v[1].slice, 1);
	assert_int_equal(in.v[0].depth, 0);
	assert_int_equal(in.v[2].kind, PT_AK_INFO_JSON);
	assert_int_equal(in.v[2].depth, 1);
	pt_inputs_free(&in);
	assert_int_equal(pt_diag_total(&f->diag), 1); /* the FIFO named as step trace data */
	assert_non_null(strstr(f->diag.v[0].file, "training_trace"));
	assert_non_null(strstr(f->diag.v[0].what, "a FIFO"));

	assert_int_equal(run_rule(f, w, pt_classify_hccl, &in), 0);
	assert_int_equal(in.n, 1);
	assert_string_equal(base(in.v[0].path), "hccl_info_3");
	pt_inputs_free(&in);

	assert_int_equal(run_rule(f, w, pt_classify_minddata, &in), 0);
	assert_int_equal(in.n, 2); /* in name order */
	assert_int_equal(in.v[0].kind, PT_MDK_DEVICE_QUEUE);
	assert_int_equal(in.v[1].kind, PT_MDK_PIPELINE);
	assert_int_equal(in.v[1].number, 3);
	pt_inputs_free(&in);

	assert_int_equal(run_rule(f, w, pt_classify_memory, &in), 0);
	assert_int_equal(in.n, 1);
	assert_string_equal(base(in.v[0].path), "memory_usage_3.pb");
	pt_inputs_free(&in);

	/* by name in a directory: the FIFO is kept to be warned of, ahead of the files in name order */
	assert_int_equal(run_rule(f, w, pt_classify_cupti, &in), 0);
	assert_int_equal(in.n, 3);
	assert_string_equal(base(in.v[0].path), "c.cdump");
	assert_string_equal(in.v[0].skip, "a FIFO");
	assert_string_equal(base(in.v[1].path), "a.cdump");
	assert_null(in.v[1].skip);
	assert_false(in.v[1].named);
	assert_string_equal(base(in.v[2].path), "b.cdump");
	pt_inputs_free(&in);

	/* by content: notes.json has no Kineto mark */
	assert_int_equal(run_rule(f, w, pt_classify_kineto, &in), 0);
	assert_int_equal(in.n, 2);
	assert_string_equal(base(in.v[0].path), "u.pt.trace.json");
	assert_string_equal(in.v[0].skip, "a FIFO");
	assert_string_equal(base(in.v[1].path), "t.pt.trace.json");
	assert_null(in.v[1].skip);
	pt_inputs_free(&in);
	assert_int_equal(pt_diag_total(&f->diag), 1); /* CUPTI and Kineto leave their warnings to the importer */
	pt_walk_free(w);
}

/* A file PATH is classified by content where its name says nothing, and named when it is the only PATH. */
static void test_single_files(void **state)
{
	struct fx *f = *state;
	file(f, "dump.bin", "CUPTIDMP and more");
	file(f, "other.bin", "hello");
	char *p1 = in_dir(f, "dump.bin"), *p2 = in_dir(f, "other.bin");
	const char *one[] = { p1 };
	struct pt_walk *w = pt_walk_new(one, 1);
	struct pt_inputs in;
	assert_int_equal(run_rule(f, w, pt_classify_cupti, &in), 0);
	assert_int_equal(in.n, 1);
	assert_true(in.v[0].named);
	pt_inputs_free(&in);
	assert_int_equal(run_rule(f, w, pt_classify_kineto, &in), 0);
	assert_int_equal(in.n, 0);
	pt_inputs_free(&in);
	pt_walk_free(w);
	const char *two[] = { p2, p1 };
	w = pt_walk_new(two, 2);
	assert_int_equal(run_rule(f, w, pt_classify_cupti, &in), 0);
	assert_int_equal(in.n, 1); /* other.bin has no magic */
	assert_false(in.v[0].named); /* among several PATHs the failing one must be named */
	assert_int_equal(in.v[0].path_index, 1);
	pt_inputs_free(&in);
	pt_walk_free(w);
	free(p1);
	free(p2);
}

/* Each directory is read once: a file made after the walk began is not seen by any rule. */
static void test_walk_once(void **state)
{
	struct fx *f = *state;
	file(f, "memory_usage_0.pb", "");
	const char *paths[] = { f->dir };
	struct pt_walk *w = pt_walk_new(paths, 1);
	struct pt_dir *d = pt_walk_list(w, f->dir);
	assert_int_equal(d->err, 0);
	assert_int_equal(d->n, 1);
	file(f, "memory_usage_1.pb", "");
	file(f, "pipeline_profiling_1.json", "{}");
	struct pt_inputs in;
	assert_int_equal(run_rule(f, w, pt_classify_memory, &in), 0);
	assert_int_equal(in.n, 1);
	assert_int_equal(in.v[0].number, 0);
	pt_inputs_free(&in);
	assert_int_equal(run_rule(f, w, pt_classify_minddata, &in), 0);
	assert_int_equal(in.n, 0);
	pt_inputs_free(&in);
	assert_ptr_equal(pt_walk_list(w, f->dir), d);
	pt_walk_free(w);
}

/* PATHs that cannot be read: an error where the format always made one, else nothing found. */
static void test_unreadable(void **state)
{
	struct fx *f = *state;
	char *gone = in_dir(f, "missing");
	file(f, "plain.txt", "");
	char *plain = in_dir(f, "plain.txt");
	const char *paths[] = { gone };
	struct pt_walk *w = pt_walk_new(paths, 1);
	struct pt_inputs in;
	assert_int_equal(run_rule(f, w, pt_classify_ascend, &in), -1);
	char *msg = pt_err_str(f->e);
	assert_non_null(strstr(msg, "cannot open '"));
	assert_non_null(strstr(msg, "missing"));
	assert_non_null(strstr(msg, "No such file"));
	free(msg);
	pt_err_free(f->e);
	f->e = NULL;
	pt_inputs_free(&in);
	rule_fn quiet[] = { pt_classify_hccl, pt_classify_cupti, pt_classify_kineto, pt_classify_minddata,
			    pt_classify_memory };
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		assert_int_equal(run_rule(f, w, quiet[i], &in), 0);
		assert_int_equal(in.n, 0);
		pt_inputs_free(&in);
	}
	/* --minddata naming a file */
	f->o.minddata_dir = plain;
	assert_int_equal(run_rule(f, w, pt_classify_minddata, &in), -1);
	msg = pt_err_str(f->e);
	assert_non_null(strstr(msg, "--minddata: '"));
	assert_non_null(strstr(msg, "is not a directory"));
	free(msg);
	pt_inputs_free(&in);
	pt_walk_free(w);
	/* a directory entry read through pt_dir_read: a missing directory sets err */
	struct pt_dir d;
	pt_dir_read(gone, &d);
	assert_int_not_equal(d.err, 0);
	assert_int_equal(d.n, 0);
	pt_dir_free(&d);
	free(gone);
	free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
