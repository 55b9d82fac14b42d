/*
 * MindData importer: pipeline JSON, device-queue / iterator text, CPU JSON,
 * discovery, device attachment, fatal errors and warnings, .ptm round trip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import-minddata.h"
#include "import/registry.h"
#include "model/dump.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"
#include "support/xalloc.h"

struct fx {
	char dir[64];
	int nfiles;
	char *made[16];
	struct pt_model *m;
	struct pt_diag diag;
	struct pt_import_opts o;
	struct pt_err *e;
};

static int setup(void **state)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-md-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	pt_import_opts_init(&f->o);
	f->o.format = "minddata";
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	for (int i = 0; i < f->nfiles; i++) {
		unlink(f->made[i]);
		free(f->made[i]);
	}
	rmdir(f->dir);
	pt_model_free(f->m);
	pt_diag_free(&f->diag);
	pt_err_free(f->e);
	free(f);
	return 0;
}

static void put(struct fx *f, const char *name, const char *text)
{
	char *p = pt_xasprintf("%s/%s", f->dir, name);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	f->made[f->nfiles++] = p;
}

static int import(struct fx *f)
{
	const char *paths[1] = { f->dir };
	return pt_import(f->m, paths, 1, &f->o, &f->diag, &f->e);
}

static const char *err_text(struct fx *f)
{
	static char buf[1024];
	char *s = pt_err_str(f->e);
	snprintf(buf, sizeof(buf), "%s", s ? s : "");
	free(s);
	return buf;
}

static const char *pipeline =
	"{\"sampling_interval\": 10, \"op_info\": ["
	"{\"op_id\": 4, \"op_type\": \"TFReader\", \"num_workers\": 4, \"metrics\": null, \"children\": [3]},"
	"{\"op_id\": 3, \"op_type\": \"TFReader\", \"num_workers\": 4,"
	" \"metrics\": {\"output_queue\": {\"size\": [10, 20, 30], \"length\": 64}}, \"children\": null},"
	"{\"op_id\": 1, \"op_type\": \"Shuffle\", \"num_workers\": 1,"
	" \"metrics\": {\"output_queue\": {\"size\": [1, 0], \"length\": 64}}, \"children\": [4, 9]},"
	"{\"op_id\": 0, \"op_type\": \"Batch\", \"num_workers\": 4, \"metrics\": null, \"children\": [1]}]}";

static void test_kind_of(void **state)
{
	(void)state;
	uint32_t n = 99;
	assert_int_equal(pt_md_kind_of("pipeline_profiling_12.json", &n), PT_MDK_PIPELINE);
	assert_int_equal(n, 12);
	assert_int_equal(pt_md_kind_of("device_queue_profiling_0.txt", &n), PT_MDK_DEVICE_QUEUE);
	assert_int_equal(pt_md_kind_of("dataset_iterator_profiling_1.txt", &n), PT_MDK_ITERATOR);
	assert_int_equal(pt_md_kind_of("minddata_cpu_utilization_3.json", &n), PT_MDK_CPU);
	assert_int_equal(pt_md_kind_of("pipeline_profiling_.json", &n), -1);
	assert_int_equal(pt_md_kind_of("pipeline_profiling_0.json.done", &n), -1);
	assert_int_equal(pt_md_kind_of("minddata_pipeline_raw_0.csv", &n), -1);
}

static void test_pipeline(void **state)
{
	struct fx *f = *state;
	put(f, "pipeline_profiling_0.json", pipeline);
	assert_int_equal(import(f), 0);
	struct pt_model *m = f->m;
	assert_int_equal(m->md_ops.n, 4);
	const struct pt_md_op *op = &m->md_ops.v[2];
	assert_int_equal(op->op_id, 1);
	assert_string_equal(pt_model_strget(m, op->type), "Shuffle");
	assert_int_equal(op->num_workers, 1);
	assert_true(op->has_queue);
	assert_int_equal(op->queue_capacity, 64);
	assert_int_equal(op->children.n, 1); /* unknown child 9 dropped */
	assert_int_equal(op->children.v[0], 4);
	assert_int_equal(op->sampling_interval_ns, 10000000);
	assert_false(m->md_ops.v[0].has_queue);
	assert_int_equal(m->md_ops.v[0].queue_track, PT_NONE);
	/* samples of op 1: time = index x interval */
	size_t k = 0;
	for (size_t i = 0; i < m->queues.n; i++) {
		if (m->queues.track[i] != op->queue_track)
			continue;
		assert_int_equal(m->queues.time[i], (int64_t)k * 10000000);
		assert_int_equal(m->queues.capacity[i], 64);
		k++;
	}
	assert_int_equal(k, 2);
	assert_int_equal(m->tracks.v[op->queue_track].kind, PT_TRACK_QUEUE);
	assert_int_equal(pt_diag_total(&f->diag), 1); /* the unknown child */
}

static void test_fatal(void **state)
{
	struct fx *f = *state;
	static const struct {
		const char *json, *msg;
	} cases[] = {
		{ "{\"sampling_interval\": 10, \"op_info\": [", "invalid JSON at line 1" },
		{ "{\"op_info\": [{\"op_id\": 0}]}", "sampling_interval" },
		{ "{\"sampling_interval\": 10, \"op_info\": []}", "op_info" },
		{ "[1, 2]", "not a JSON object" },
		{ "{\"sampling_interval\": 1, \"op_info\": [{\"op_id\": 0, \"children\": [1]},"
		  "{\"op_id\": 1, \"children\": [0]}]}", "no root" },
		{ "{\"sampling_interval\": 1, \"op_info\": [{\"op_id\": 0}, {\"op_id\": 1}]}", "several roots (ops 0, 1)" },
		{ "{\"sampling_interval\": 1, \"op_info\": [{\"op_id\": 0, \"children\": [0]}]}", "lists itself" },
		{ "{\"sampling_interval\": 1, \"op_info\": [{\"op_id\": 2, \"children\": [1]}, {\"op_id\": 0, "
		  "\"children\": [1]}, {\"op_id\": 1, \"children\": [2]}]}", "cycle" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put(f, "pipeline_profiling_0.json", cases[i].json);
		pt_model_free(f->m);
		f->m = pt_model_new();
		pt_err_free(f->e);
		f->e = NULL;
		assert_int_equal(import(f), -1);
		const char *t = err_text(f);
		if (!strstr(t, cases[i].msg) || !strstr(t, "pipeline_profiling_0.json"))
			fail_msg("case %zu: error '%s' lacks '%s'", i, t, cases[i].msg);
		unlink(f->made[--f->nfiles]);
		free(f->made[f->nfiles]);
	}
}

static void test_queue_files(void **state)
{
	struct fx *f = *state;
	put(f, "device_queue_profiling_0.txt", "0 1 1 4 10\n0 2 1 4 10\r\n0 0 1 0 10\n1 64 1 0 10\n\nx y\n1 64 2 64 20");
	put(f, "dataset_iterator_profiling_0.txt", "1 64 1 3\n");
	assert_int_equal(import(f), 0);
	struct pt_model *m = f->m;
	assert_int_equal(m->md_records.n, 6);
	const struct pt_md_record *r = &m->md_records.v[1];
	assert_int_equal(r->file, PT_MD_DEVICE_QUEUE);
	assert_int_equal(r->type, 0);
	assert_int_equal(r->extra, 2);
	assert_int_equal(r->value, 4000000);
	assert_int_equal(r->time, 10000000);
	r = &m->md_records.v[5];
	assert_int_equal(r->file, PT_MD_ITERATOR);
	assert_int_equal(r->time, -1);
	assert_int_equal(r->value, 3);
	assert_int_equal(m->queues.n, 3); /* type-1 records: host queue samples */
	assert_int_equal(m->queues.capacity[1], 64);
	assert_int_equal(m->queues.size[1], 64);
	assert_int_equal(m->queues.time[2], 1); /* no timestamp: the batch number */
	assert_int_equal(pt_model_stat_get(m, 0, "minddata.device_queue.skipped", 0), 1);
	assert_int_equal(pt_diag_total(&f->diag), 1);
}

static void test_cpu_and_roundtrip(void **state)
{
	struct fx *f = *state;
	put(f, "pipeline_profiling_0.json", pipeline);
	put(f, "minddata_cpu_utilization_0.json",
	    "{\"sampling_interval\": 100, \"time_stamp\": [10, 20, 30],"
	    " \"device_info\": {\"user_utilization\": [1, 2, 3], \"idle_utilization\": [90, 80, \"x\"]},"
	    " \"op_info\": [{\"op_id\": -1, \"metrics\": {\"user_utilization\": [5]}},"
	    " {\"op_id\": 1, \"metrics\": {\"user_utilization\": [10, 20.5], \"sys_utilization\": [1, 2]}},"
	    " {\"op_id\": 7, \"metrics\": {\"user_utilization\": [1]}}]}");
	assert_int_equal(import(f), 0);
	struct pt_model *m = f->m;
	bool found = false;
	for (size_t t = 0; t < m->tracks.n; t++) {
		if (strcmp(pt_model_strget(m, m->tracks.v[t].name), "md_cpu:op.1.user"))
			continue;
		found = true;
		size_t k = 0;
		for (size_t i = 0; i < m->counters.n; i++)
			if (m->counters.track[i] == t) {
				assert_int_equal(m->counters.time[i], (int64_t)(k + 1) * 10000000);
				k++;
			}
		assert_int_equal(k, 2);
	}
	assert_true(found);
	/* .ptm round trip keeps every MindData row */
	char *path = pt_xasprintf("%s/m.ptm", f->dir);
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, path, &f->e), 0);
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &f->e), 0);
	assert_int_equal(pt_out_commit(&o, &f->e), 0);
	struct pt_model *m2 = NULL;
	assert_int_equal(pt_ptm_read(path, &m2, &f->e), 0);
	assert_int_equal(m2->md_ops.n, m->md_ops.n);
	for (size_t i = 0; i < m->md_ops.n; i++) {
		assert_int_equal(m2->md_ops.v[i].op_id, m->md_ops.v[i].op_id);
		assert_int_equal(m2->md_ops.v[i].queue_track, m->md_ops.v[i].queue_track);
		assert_int_equal(m2->md_ops.v[i].children.n, m->md_ops.v[i].children.n);
	}
	assert_int_equal(m2->counters.n, m->counters.n);
	pt_model_free(m2);
	unlink(path);
	free(path);
}

static void test_attach(void **state)
{
	struct fx *f = *state;
	/* one Ascend device (id 3) and files numbered 0: attached to device 3 */
	uint32_t d3 = pt_model_device(f->m, PT_DEV_NPU, 3);
	put(f, "pipeline_profiling_0.json", pipeline);
	put(f, "dataset_iterator_profiling_0.txt", "1 64 1 3\n");
	assert_int_equal(import(f), 0);
	assert_int_equal(f->m->devices.n, 1);
	assert_int_equal(f->m->md_ops.v[0].device, d3);
	assert_int_equal(f->m->md_records.v[0].device, d3);
	/* files of two numbers: each its own device */
	pt_model_free(f->m);
	f->m = pt_model_new();
	pt_model_device(f->m, PT_DEV_NPU, 3);
	put(f, "dataset_iterator_profiling_1.txt", "1 64 1 3\n");
	assert_int_equal(import(f), 0);
	assert_int_equal(f->m->devices.n, 3);
	/* --device 1: the files numbered 0 are skipped */
	pt_model_free(f->m);
	f->m = pt_model_new();
	f->o.ascend.device = 1;
	assert_int_equal(import(f), 0);
	assert_int_equal(f->m->md_ops.n, 0);
	assert_int_equal(f->m->md_records.n, 1);
	assert_int_equal(f->m->devices.v[f->m->md_records.v[0].device].id, 1);
}

static void test_nothing(void **state)
{
	struct fx *f = *state;
	put(f, "other.json", "{}");
	assert_int_equal(import(f), -1); /* nothing importable */
	assert_non_null(strstr(err_text(f), "no minddata input"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_of),
		cmocka_unit_test_setup_teardown(test_pipeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_and_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attach, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
