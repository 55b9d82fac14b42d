/* Unit tests of lib/pass/pass-summary: models built with the builder, and the JOB3 fixture. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "proftool.pb-c.h"

#include "export/export.h"
#include "import/registry.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-raw.h"
#include "pass/pass-summary.h"
#include "pass/summary-tap.h"
#include "pass/summary/summary.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"
#include "table/table.h"

/* An Ascend-style model: NPU 0, two steps, ops A (type Conv) and B (type Add), one unnamed task. */
static struct pt_model *npu_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 5, "stream 5");
	uint32_t t9 = pt_model_track(m, d, PT_TRACK_STREAM, 9, "stream 9");
	const char *names[] = { "Default/A-op1", "Default/B-op2" };
	const char *types[] = { "Conv", "Add" };
	uint32_t op[2];
	for (int i = 0; i < 2; i++) {
		struct pt_op o;
		memset(&o, 0, sizeof(o));
		o.device = d;
		o.name = pt_model_str(m, names[i]);
		o.type = pt_model_str(m, types[i]);
		o.task_type = -1;
		op[i] = pt_model_add_op(m, &o);
	}
	/* step 1 [1000, 2000): fp 1000, bp 1800; step 2 [2000, 3000): fp 2100, bp 2900 */
	struct pt_step s1 = { .device = d, .step = 1, .has = 31, .start = 1000, .fp = 1000, .bp = 1800, .end = 2000 };
	struct pt_step s2 = { .device = d, .step = 2, .has = 31, .start = 2000, .fp = 2100, .bp = 2900, .end = 3000 };
	pt_model_add_step(m, &s1);
	pt_model_add_step(m, &s2);
	uint32_t na = m->ops.v[op[0]].name, nb = m->ops.v[op[1]].name;
	pt_model_add_event(m, t, na, PT_EV_TASK, 1100, 300, 0, op[0], 1);
	pt_model_add_event(m, t, nb, PT_EV_TASK, 1400, 100, 0, op[1], 2);
	pt_model_add_event(m, t, na, PT_EV_TASK, 2200, 500, 0, op[0], 1);
	pt_model_add_event(m, t, nb, PT_EV_TASK, 2950, 40, 0, op[1], 2);
	pt_model_add_event(m, t9, 0, PT_EV_TASK, 1500, 200, 0, PT_NONE, 7); /* comm: unnamed on a stream without ops */
	struct pt_aicpu a = { .device = d, .serial = 1, .name = pt_model_str(m, "GetNext"),
			      .has = PT_AICPU_HAS_TIMES | PT_AICPU_HAS_TOTAL | PT_AICPU_HAS_DISPATCH,
			      .start = 1200, .end = 1250, .total_ns = 80, .dispatch_ns = 10 };
	pt_model_add_aicpu(m, &a);
	return m;
}

static struct pt_summary run(struct pt_model *m, struct pt_summary_opts *o)
{
	struct pt_index *x = pt_index_new(m);
	struct pt_summary s;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_summary(m, x, o, &s, &e), 0);
	pt_index_free(x);
	return s;
}

static const struct pt_table *view(const struct pt_summary *s, enum pt_summary_view v)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].view == v)
			return s->v[i].data;
	fail_msg("view %d missing", (int)v);
	return NULL;
}

static int64_t I(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	const struct pt_cell *cl = &pt_table_row(t, r)[c];
	assert_int_equal(cl->kind, PT_CELL_INT);
	return cl->u.i;
}

static double D(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	return pt_table_row(t, r)[c].u.d;
}

static const char *S(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	const struct pt_cell *cl = &pt_table_row(t, r)[c];
	if (cl->kind != PT_CELL_STR)
		return NULL;
	return cl->u.s;
}

static bool is_null(const struct pt_table *t, size_t r, const char *col)
{
	return t->cells[r * t->ncols + (size_t)pt_table_col(t, col)].kind == PT_CELL_NULL;
}

static void test_npu_operator_kernel(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OPERATOR) | (1u << PT_SV_KERNEL) | (1u << PT_SV_OPTYPE) | (1u << PT_SV_AICPU);
	o.op_detail = true;
	struct pt_summary s = run(m, &o);
	const struct pt_table *op = view(&s, PT_SV_OPERATOR);
	/* default key on Ascend: gpu-total; A 800 (2 calls), then its task row, then B 140 */
	assert_int_equal(op->nrows, 4);
	assert_string_equal(S(op, 0, "name"), "Default/A-op1");
	assert_string_equal(S(op, 0, "row_kind"), "op");
	assert_int_equal(I(op, 0, "calls"), 2);
	assert_int_equal(I(op, 0, "device_total"), 800);
	assert_int_equal(I(op, 0, "device_avg"), 400);
	assert_int_equal(I(op, 0, "device_max"), 500);
	assert_int_equal(I(op, 0, "device_min"), 300);
	assert_true(is_null(op, 0, "cpu_total"));
	assert_true(D(op, 0, "device_ratio") > 85.10 && D(op, 0, "device_ratio") < 85.11); /* 800 / 940 */
	assert_string_equal(S(op, 1, "row_kind"), "device");
	assert_string_equal(S(op, 1, "name"), "task 5_1");
	assert_true(D(op, 1, "device_ratio") == 100.0);
	assert_string_equal(S(op, 2, "name"), "Default/B-op2");
	assert_int_equal(I(op, 2, "device_avg"), 70);
	const struct pt_table *k = view(&s, PT_SV_KERNEL);
	assert_int_equal(k->nrows, 3);
	assert_string_equal(S(k, 1, "name"), "task 9_7");
	assert_int_equal(I(k, 1, "device_total"), 200);
	int64_t sum = 0;
	for (size_t r = 0; r < k->nrows; r++)
		sum += I(k, r, "device_total");
	assert_int_equal(sum, 1140);
	const struct pt_table *ty = view(&s, PT_SV_OPTYPE);
	assert_int_equal(ty->nrows, 2);
	assert_string_equal(S(ty, 0, "op_type"), "Conv");
	assert_int_equal(I(ty, 0, "ops"), 1);
	const struct pt_table *ai = view(&s, PT_SV_AICPU);
	assert_int_equal(ai->nrows, 1);
	assert_int_equal(I(ai, 0, "total"), 80);
	assert_int_equal(I(ai, 0, "exec_total"), 50);
	assert_int_equal(I(ai, 0, "dispatch_avg"), 10);
	pt_summary_free(&s);

	/* sort keys, --top and --name */
	pt_summary_opts_init(&o);
	o.views = 1u << PT_SV_KERNEL;
	o.key = PT_SK_GPU_MIN;
	s = run(m, &o);
	k = view(&s, PT_SV_KERNEL);
	assert_string_equal(S(k, 0, "name"), "Default/B-op2"); /* min 40, ascending */
	pt_summary_free(&s);
	o.key = PT_SK_NAME;
	o.top = 2;
	s = run(m, &o);
	k = view(&s, PT_SV_KERNEL);
	assert_int_equal(k->nrows, 2);
	assert_string_equal(S(k, 0, "name"), "Default/A-op1");
	assert_string_equal(S(k, 1, "name"), "Default/B-op2");
	pt_summary_free(&s);
	regex_t re;
	assert_int_equal(regcomp(&re, "^task", REG_EXTENDED | REG_NOSUB), 0);
	o.top = -1;
	o.name_re = &re;
	s = run(m, &o);
	k = view(&s, PT_SV_KERNEL);
	assert_int_equal(k->nrows, 1);
	/* --name hides rows but keeps the denominators */
	assert_true(D(k, 0, "device_ratio") > 17.54 && D(k, 0, "device_ratio") < 17.55); /* 200 / 1140 */
	pt_summary_free(&s);
	regfree(&re);
	pt_model_free(m);
}

/* One vocabulary (issue #25 point 8): device_* blocks with min before max, in the data table and the
 * text; text headers say "Device"; titles are the view names; the --sorted-by synonyms. */
static void test_vocabulary(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OPERATOR) | (1u << PT_SV_KERNEL) | (1u << PT_SV_AICPU) | (1u << PT_SV_DISTRIBUTED);
	o.unit = PT_TU_NS;
	struct pt_summary s = run(m, &o);
	const struct pt_table *op = view(&s, PT_SV_OPERATOR);
	static const char *const block[] = { "device_total", "device_avg", "device_min", "device_max", "device_ratio" };
	int c0 = pt_table_col(op, "device_total");
	assert_true(c0 > 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(pt_table_col(op, block[i]), c0 + i);
	assert_int_equal(pt_table_col(op, "cpu_min") + 1, pt_table_col(op, "cpu_max"));
	assert_int_equal(pt_table_col(op, "gpu_total"), -1);
	const struct pt_table *ai = view(&s, PT_SV_AICPU);
	assert_int_equal(pt_table_col(ai, "min") + 1, pt_table_col(ai, "max"));
	const struct pt_table *di = view(&s, PT_SV_DISTRIBUTED);
	assert_true(pt_table_col(di, "device_id") >= 0);
	assert_int_equal(pt_table_col(di, "device"), -1);
	/* text: titles from the view names, "Device" headers, min before max (A: min 300, max 500) */
	const char *titles[PT_SV_COUNT] = { 0 };
	titles[PT_SV_OPERATOR] = "operator";
	titles[PT_SV_KERNEL] = "kernel";
	titles[PT_SV_AICPU] = "aicpu";
	titles[PT_SV_DISTRIBUTED] = "distributed";
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.v[i].ntext > 0);
		assert_string_equal(s.v[i].text[0]->title, titles[s.v[i].view]);
	}
	for (size_t i = 0; i < s.n; i++) {
		if (s.v[i].view != PT_SV_OPERATOR)
			continue;
		const struct pt_table *x = s.v[i].text[0];
		bool head = false, row = false;
		for (size_t c = 0; c < x->ncols; c++)
			head |= !strcmp(x->cols[c].name, "Device Total / Avg / Min / Max / Ratio(%)");
		for (size_t r = 0; r < x->nrows; r++)
			for (size_t c = 0; c < x->ncols; c++) {
				const struct pt_cell *cl = &x->cells[r * x->ncols + c];
				row |= cl->kind == PT_CELL_STR && strstr(cl->u.s, "800 / 400 / 300 / 500 / ") == cl->u.s;
			}
		assert_true(head);
		assert_true(row);
	}
	pt_summary_free(&s);
	/* --sorted-by: device-* are the gpu-* keys; unknown keys are refused */
	assert_int_equal(pt_summary_key_parse("device-total"), PT_SK_GPU_TOTAL);
	assert_int_equal(pt_summary_key_parse("device-avg"), PT_SK_GPU_AVG);
	assert_int_equal(pt_summary_key_parse("device-min"), PT_SK_GPU_MIN);
	assert_int_equal(pt_summary_key_parse("device-max"), PT_SK_GPU_MAX);
	assert_int_equal(pt_summary_key_parse("gpu-total"), PT_SK_GPU_TOTAL);
	assert_int_equal(pt_summary_key_parse("name"), PT_SK_NAME);
	assert_int_equal(pt_summary_key_parse("device"), -1);
	assert_int_equal(pt_summary_key_parse(""), -1);
	for (int k = 0; pt_summary_key_names[k]; k++)
		assert_true(pt_summary_key_parse(pt_summary_key_names[k]) >= 0);
	pt_model_free(m);
}

static void test_npu_overview_model_steps(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OVERVIEW) | (1u << PT_SV_MODEL) | (1u << PT_SV_DISTRIBUTED) | (1u << PT_SV_DEVICE);
	struct pt_summary s = run(m, &o);
	const struct pt_table *ov = view(&s, PT_SV_OVERVIEW);
	assert_string_equal(S(ov, 0, "event_type"), "ProfileStep");
	assert_int_equal(I(ov, 0, "calls"), 2);
	assert_int_equal(I(ov, 0, "time"), 2000);
	/* Forward [1000,1800) + [2100,2900) = 1600 */
	assert_string_equal(S(ov, 1, "event_type"), "Forward");
	assert_int_equal(I(ov, 1, "time"), 1600);
	const struct pt_table *md = view(&s, PT_SV_MODEL);
	/* ProfileStep, Dataloader (step 2 only), Forward, Optimization, Others */
	assert_int_equal(md->nrows, 5);
	assert_string_equal(S(md, 1, "phase"), "Dataloader");
	assert_int_equal(I(md, 1, "calls"), 1);
	assert_int_equal(I(md, 1, "cpu_total"), 100);
	assert_int_equal(I(md, 0, "device_total"), 1140);
	/* Forward: A 300, B 100, task 200 in step 1; A 500 in step 2 */
	assert_int_equal(I(md, 2, "device_total"), 1100);
	/* Optimization: B at 2950 */
	assert_int_equal(I(md, 3, "device_total"), 40);
	assert_string_equal(S(md, 4, "phase"), "Others");
	assert_int_equal(I(md, 4, "cpu_total"), 0);
	assert_true(is_null(md, 4, "calls"));
	const struct pt_table *di = view(&s, PT_SV_DISTRIBUTED);
	assert_int_equal(di->nrows, 6);
	int64_t comp = I(di, 2, "time"), cno = I(di, 4, "time"), fr = I(di, 5, "time");
	assert_int_equal(comp + cno + fr, 2000);
	assert_int_equal(I(di, 1, "time"), 200);
	const struct pt_table *dv = view(&s, PT_SV_DEVICE);
	assert_string_equal(S(dv, 0, "device_name"), "NPU0");
	assert_int_equal(I(dv, 0, "busy"), 1140); /* [1100,1700) + [2200,2700) + [2950,2990) */
	pt_summary_free(&s);

	/* --steps 2-2: only step 2's members; W = [2000, 3000) */
	o.views = (1u << PT_SV_KERNEL) | (1u << PT_SV_OVERVIEW);
	o.sel.steps_given = true;
	o.sel.step_a = o.sel.step_b = 2;
	s = run(m, &o);
	const struct pt_table *k = view(&s, PT_SV_KERNEL);
	assert_int_equal(k->nrows, 2);
	assert_int_equal(I(k, 0, "device_total"), 500);
	ov = view(&s, PT_SV_OVERVIEW);
	assert_int_equal(I(ov, 0, "calls"), 1);
	assert_int_equal(I(ov, 0, "time"), 1000);
	pt_summary_free(&s);
	pt_model_free(m);
}

/* GPU data: kernels launched by API calls (corr), one kernel without a call. No steps: W is the span. */
static void test_gpu_kernel_unattributed(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 10);
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 10, "t10");
	uint32_t s10 = pt_model_track(m, gpu, PT_TRACK_STREAM, 10, "s10");
	uint32_t s11 = pt_model_track(m, gpu, PT_TRACK_STREAM, 11, "s11");
	uint32_t launch = pt_model_str(m, "cudaLaunchKernel_v7000");
	pt_model_add_event(m, th, launch, PT_EV_API, 15000, 2000, 1, PT_NONE, 0);
	pt_model_add_event(m, th, launch, PT_EV_API, 25000, 10000, 2, PT_NONE, 0);
	pt_model_add_event(m, th, pt_model_str(m, "cudaMemcpy"), PT_EV_API, 18000, 1000, 4, PT_NONE, 0);
	pt_model_add_event(m, s10, pt_model_str(m, "_Z7kernelAPf"), PT_EV_KERNEL, 40000, 15000, 1, PT_NONE, 0);
	pt_model_add_event(m, s10, pt_model_str(m, "kernel2"), PT_EV_KERNEL, 70000, 25000, 2, PT_NONE, 0);
	pt_model_add_event(m, s11, pt_model_str(m, "kernel2"), PT_EV_KERNEL, 60000, 5000, 99, PT_NONE, 0);
	pt_model_add_event(m, s10, 0, PT_EV_MEMCPY, 56000, 3000, 4, PT_NONE, 0);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OVERVIEW) | (1u << PT_SV_KERNEL) | (1u << PT_SV_MEMCPY) | (1u << PT_SV_DEVICE);
	struct pt_summary s = run(m, &o);
	const struct pt_table *k = view(&s, PT_SV_KERNEL);
	assert_int_equal(k->nrows, 2);
	assert_string_equal(S(k, 0, "name"), "kernel2"); /* 30000 */
	assert_int_equal(I(k, 0, "calls"), 2);
	assert_string_equal(S(k, 1, "name"), "kernelA(float*)"); /* demangled */
	const struct pt_table *ov = view(&s, PT_SV_OVERVIEW);
	assert_string_equal(S(ov, 0, "event_type"), "Span");
	assert_int_equal(I(ov, 0, "time"), 80000); /* [15000, 95000) */
	assert_string_equal(S(ov, 1, "event_type"), "CudaRuntime");
	assert_int_equal(I(ov, 1, "calls"), 3);
	size_t last = ov->nrows - 1;
	/* no host range: every activity is unattributed (§2.4), launched or not */
	assert_string_equal(S(ov, last, "event_type"), "Unattributed");
	assert_int_equal(I(ov, last, "calls"), 4);
	assert_int_equal(I(ov, last, "time"), 48000);
	const struct pt_table *mc = view(&s, PT_SV_MEMCPY);
	assert_int_equal(mc->nrows, 2);
	assert_string_equal(S(mc, 0, "group"), "host");
	assert_string_equal(S(mc, 0, "name"), "cudaMemcpy");
	assert_int_equal(I(mc, 0, "device_total"), 3000);
	assert_string_equal(S(mc, 1, "name"), "[memcpy]");
	const struct pt_table *dv = view(&s, PT_SV_DEVICE);
	assert_int_equal(I(dv, 0, "busy"), 45000);
	pt_summary_free(&s);
	pt_model_free(m);
}


/* Adds a host range with range info (type, explicit parent event + 1). */
static uint32_t add_range(struct pt_model *m, uint32_t th, const char *name, const char *type, int64_t s, int64_t e,
			  uint32_t parent)
{
	uint32_t ev = (uint32_t)m->events.n;
	pt_model_add_event(m, th, pt_model_str(m, name), PT_EV_RANGE, s, e - s, 0, PT_NONE, 0);
	struct pt_range_info ri = { ev, pt_model_str(m, type), 0, 0, parent, ev + 1, 0 };
	pt_vec_push(&m->ranges, ri);
	return ev;
}

/*
 * GPU host model (§2.2-§2.4) from a built model: explicit parents, nesting by time with a partial
 * overlap (nesting_violations), attachment by the deepest then latest range, links of the importer
 * (pt_gpu_link) preferred to correlation ids, an explicit parent cycle cut, two processes = two ranks.
 */
/* A GPU rank's coverage (proftool(1) Coverage): its activities placed at their launches' starts
 * (by correlation id here), one without a launch at its own times; the kept steps its launch span
 * meets. Steps 3 and 4 launch nothing: the note's figures, and none without device data. */
static void test_gpu_coverage(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 10);
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 7;
	uint32_t th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 10, "t10");
	uint32_t st = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "s7");
	for (int k = 0; k < 4; k++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "ProfilerStep#%d", k + 1);
		add_range(m, th, nm, "ProfileStep", 1000 * k, 1000 * k + 1000, 0);
	}
	uint32_t launch = pt_model_str(m, "cudaLaunchKernel"), gemm = pt_model_str(m, "gemm");
	/* launched in step 1, run in step 3's window: at 100 */
	pt_model_add_event(m, th, launch, PT_EV_API, 100, 10, 1, PT_NONE, 0);
	pt_model_add_event(m, st, gemm, PT_EV_KERNEL, 2500, 100, 1, PT_NONE, 0);
	pt_model_add_event(m, th, launch, PT_EV_API, 1100, 10, 2, PT_NONE, 0);
	pt_model_add_event(m, st, gemm, PT_EV_KERNEL, 1200, 100, 2, PT_NONE, 0);
	/* correlation 9 names no call: its own times, 1800-1900 */
	pt_model_add_event(m, st, gemm, PT_EV_KERNEL, 1800, 100, 9, PT_NONE, 0);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OVERVIEW) | (1u << PT_SV_KERNEL);
	o.coverage = true;
	struct pt_summary s = run(m, &o);
	assert_int_equal(s.ncov, 1);
	assert_true(s.cov[0].gpu);
	assert_int_equal(s.cov[0].covered, 2);
	assert_int_equal(s.cov[0].kept, 4);
	assert_int_equal(s.cov[0].lo, 1);
	assert_int_equal(s.cov[0].hi, 2);
	assert_true(s.cov[0].runs);
	assert_int_equal(s.cov[0].a, 100);
	assert_int_equal(s.cov[0].b, 1900);
	/* the kernel view counts the kernels launched in steps 1-2 (all three) over those steps */
	const struct pt_table *k = view(&s, PT_SV_KERNEL);
	assert_int_equal(I(k, 0, "device_total"), 300);
	pt_summary_free(&s);
	/* a selection inside the covered steps: no note */
	o.sel.steps_given = true, o.sel.step_a = 1, o.sel.step_b = 2, o.sel.steps_arg = "1-2";
	s = run(m, &o);
	assert_int_equal(s.ncov, 0);
	pt_summary_free(&s);
	/* coverage off (diff): nothing measured */
	pt_summary_opts_init(&o);
	o.views = 1u << PT_SV_OVERVIEW;
	s = run(m, &o);
	assert_int_equal(s.ncov, 0);
	pt_summary_free(&s);
	pt_model_free(m);
	/* a GPU rank without device activities: no span, no note */
	m = pt_model_new();
	cpu = pt_model_device(m, PT_DEV_CPU, 10);
	gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 7;
	th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 10, "t10");
	add_range(m, th, "ProfilerStep#1", "ProfileStep", 0, 1000, 0);
	add_range(m, th, "ProfilerStep#2", "ProfileStep", 1000, 2000, 0);
	pt_summary_opts_init(&o);
	o.views = 1u << PT_SV_OVERVIEW;
	o.coverage = true;
	s = run(m, &o);
	assert_int_equal(s.ncov, 0);
	pt_summary_free(&s);
	pt_model_free(m);
}

static void test_gpu_host_model(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 10);
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 7;
	m->devices.v[cpu].rank = m->devices.v[gpu].rank = 1;
	uint32_t cpu2 = pt_model_device(m, PT_DEV_CPU, 11);
	m->devices.v[cpu2].pid = 8;
	uint32_t th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 10, "t10");
	uint32_t th2 = pt_model_track(m, cpu2, PT_TRACK_HOST_THREAD, 11, "t11");
	uint32_t st = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "s7");
	uint32_t step = add_range(m, th, "ProfilerStep#1", "ProfileStep", 0, 1000, 0);
	uint32_t fw = add_range(m, th, "fw", "Forward", 0, 500, step + 1);
	add_range(m, th, "matmul", "Operator", 100, 300, fw + 1);
	/* nested by time in matmul, overlapping its end: a nesting violation, nesting end 300 */
	add_range(m, th, "late", "UserRange", 250, 350, 0);
	uint32_t a1 = (uint32_t)m->events.n;
	pt_model_add_event(m, th, pt_model_str(m, "cudaLaunchKernel_v7000"), PT_EV_API, 260, 10, 5, PT_NONE, 0);
	uint32_t a2 = (uint32_t)m->events.n;
	pt_model_add_event(m, th, pt_model_str(m, "cudaLaunchKernel_v7000"), PT_EV_API, 320, 10, 6, PT_NONE, 0);
	uint32_t k1 = (uint32_t)m->events.n;
	pt_model_add_event(m, st, pt_model_str(m, "gemm"), PT_EV_KERNEL, 400, 100, 99, PT_NONE, 0);
	uint32_t k2 = (uint32_t)m->events.n;
	pt_model_add_event(m, st, pt_model_str(m, "gemm"), PT_EV_KERNEL, 600, 50, 6, PT_NONE, 0);
	/* the importer's links win over correlation ids (k1's corr 99 matches nothing) */
	struct pt_gpu_link l1 = { k1, a1, 0 }, l2 = { k2, a2, 0 };
	pt_vec_push(&m->links, l1);
	pt_vec_push(&m->links, l2);
	/* second process: two operators whose explicit parents form a cycle */
	uint32_t c1 = (uint32_t)m->events.n;
	add_range(m, th2, "x", "Operator", 0, 100, c1 + 2);
	add_range(m, th2, "y", "Operator", 0, 100, c1 + 1);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OPERATOR) | (1u << PT_SV_MODEL) | (1u << PT_SV_USERDEFINED) | (1u << PT_SV_GPU) |
		  (1u << PT_SV_API);
	o.op_detail = true;
	struct pt_summary s = run(m, &o);
	assert_int_equal(s.nesting_violations, 1);
	const struct pt_table *opv = view(&s, PT_SV_OPERATOR);
	/* rank 0 (pid 8: x, y), then rank 1 (pid 7: matmul) */
	assert_int_equal(I(opv, 0, "rank"), 0);
	assert_int_equal(I(opv, 2, "rank"), 1);
	assert_string_equal(S(opv, 2, "name"), "matmul");
	/* a1 (t=260) is attached to "late" (deeper), a2 (t=320) to nothing below fw: matmul GPU = 100 */
	assert_int_equal(I(opv, 2, "device_total"), 100);
	assert_string_equal(S(opv, 3, "row_kind"), "child");
	assert_string_equal(S(opv, 3, "name"), "late");
	assert_string_equal(S(opv, 4, "row_kind"), "device");
	assert_string_equal(S(opv, 4, "child_name"), "late");
	assert_string_equal(S(opv, 4, "name"), "gemm");
	const struct pt_table *ud = view(&s, PT_SV_USERDEFINED);
	assert_int_equal(ud->nrows, 1);
	assert_int_equal(I(ud, 0, "device_total"), 100);
	const struct pt_table *md = view(&s, PT_SV_MODEL);
	assert_string_equal(S(md, 1, "phase"), "Forward");
	assert_int_equal(I(md, 1, "device_total"), 150); /* both launches start inside fw */
	const struct pt_table *gv = view(&s, PT_SV_GPU);
	assert_int_equal(gv->nrows, 1);
	assert_int_equal(I(gv, 0, "launches"), 2);
	assert_int_equal(I(gv, 0, "launch_delay_max"), 280);
	const struct pt_table *av = view(&s, PT_SV_API);
	assert_int_equal(I(av, 0, "calls"), 2);
	assert_string_equal(S(av, 0, "name"), "cudaLaunchKernel");
	pt_summary_free(&s);
	pt_model_free(m);
}

/* What an exporter printed into a temporary file. */
static char *exported(struct pt_table *const *v, size_t n, enum pt_format f, bool wide)
{
	char path[] = "/tmp/pt-sum-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, path);
	struct pt_export_opts ex = { f, PT_TU_DEFAULT, wide, 0 };
	pt_export(&o, v, n, &ex);
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_commit(&o, &e), 0);
	close(fd);
	FILE *fp = fopen(path, "r");
	static char buf[8192];
	size_t k = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[k] = 0;
	fclose(fp);
	unlink(path);
	return strdup(buf);
}

/* A boxed table's presentation: group lines, notes, null cells, control bytes escaped in cells, groups and
 * notes; one empty line between tables (none in the Paddle layout, whose tables end in two). */
static void test_boxed_presentation(void **state)
{
	(void)state;
	struct pt_table *t = pt_table_new_boxed("x", "T", NULL);
	pt_table_add_text_col(t, "Name", 4, false, true);
	pt_table_add_text_col(t, "N", 3, true, false);
	pt_table_add_group(t, "G\x1b");
	const char *r1[] = { "a\tb", NULL };
	pt_table_add_text_row(t, r1);
	pt_table_add_group(t, NULL);
	const char *r2[] = { "c", "12" };
	pt_table_add_text_row(t, r2);
	pt_table_add_note(t, "n\x7f");
	struct pt_table *v[2] = { t, t };
	char *s = exported(v, 2, PT_FMT_TABLE, false);
	assert_string_equal(s, "T\n"
			       "Name     N\n"
			       "------  --\n"
			       "G\\x1b\n"
			       "a\\x09b   -\n"
			       "c       12\n"
			       "n\\x7f\n"
			       "\n"
			       "T\n"
			       "Name     N\n"
			       "------  --\n"
			       "G\\x1b\n"
			       "a\\x09b   -\n"
			       "c       12\n"
			       "n\\x7f\n");
	free(s);
	t->paddle = true;
	s = exported(v, 2, PT_FMT_TABLE, false);
	const char *one = "----T----\n"
			  "----  ---  \n"
			  "Name    N  \n"
			  "----  ---  \n"
			  "--G\\x1b--\n"
			  "a...    -  \n"
			  "----  ---  \n"
			  "c      12  \n"
			  "----  ---  \n"
			  "n\\x7f\n"
			  "---------\n"
			  "\n\n";
	char want[1024];
	snprintf(want, sizeof(want), "%s%s", one, one);
	assert_string_equal(s, want);
	free(s);
	pt_table_free(t);
}

/* JSON of tables with rows_apart (summary.md §6): the closing "]}" on a line of its own, rows or none. */
static void test_json_rows_apart(void **state)
{
	(void)state;
	struct pt_table *a = pt_table_new("a", NULL), *b = pt_table_new("b", NULL);
	a->rows_apart = b->rows_apart = true;
	pt_table_add_col(a, "n", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(b, "n", PT_COL_INT, PT_ROLE_VALUE, 0);
	for (int k = 0; k < 2; k++)
		pt_table_set_int(a, pt_table_add_row(a), 0, k);
	struct pt_table *v[2] = { a, b };
	char *s = exported(v, 2, PT_FMT_JSON, false);
	const char *want = "{\"proftool\":\"" PT_VERSION "\",\"views\":[\n"
			   "{\"name\":\"a\",\"unit\":\"ns\",\"columns\":[\"n\"],\"rows\":[\n"
			   "{\"n\":0},\n"
			   "{\"n\":1}\n"
			   "]},\n"
			   "{\"name\":\"b\",\"unit\":\"ns\",\"columns\":[\"n\"],\"rows\":[\n"
			   "]}\n"
			   "]}\n";
	assert_string_equal(s, want);
	free(s);
	pt_table_free(a);
	pt_table_free(b);
}

/* A boxed table printed as text (export-boxed.c). */
static char *boxed_text(const struct pt_table *t, bool wide)
{
	char path[] = "/tmp/pt-sum-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, path);
	pt_export_boxed(&o, t, wide, 40);
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_commit(&o, &e), 0);
	close(fd);
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 4096);
	size_t n = fread(buf, 1, 4095, f);
	buf[n] = 0;
	fclose(f);
	unlink(path);
	return buf;
}

static struct pt_table *kernel_table(void)
{
	struct pt_table *t = pt_table_new_boxed("kernel", "Kernel Summary", "ns");
	pt_table_add_text_col(t, "Name", 10, false, true);
	pt_table_add_text_col(t, "Calls", 6, true, false);
	const char *r1[] = { "abcdefghijklmnop", "1" };
	const char *r2[] = { "\xc3\xa9t\xc3\xa9", "12" };
	pt_table_add_text_row(t, r1);
	pt_table_add_text_row(t, r2);
	return t;
}

/* `summary --layout paddle`, the layout of §5: title line, unit line, right-aligned numbers, name cut, two
 * trailing spaces. */
static void test_text_layout_paddle(void **state)
{
	(void)state;
	struct pt_table *t = kernel_table();
	t->paddle = true;
	char *buf = boxed_text(t, false);
	const char *want = "--Kernel Summary--\n"
			   "Time unit: ns\n"
			   "----------  ------  \n"
			   "Name         Calls  \n"
			   "----------  ------  \n"
			   "abcdefg...       1  \n"
			   "\xc3\xa9t\xc3\xa9" "             12  \n"
			   "----------  ------  \n"
			   "\n\n";
	assert_string_equal(buf, want);
	free(buf);
	pt_table_free(t);
}

/* The one text style: title, unit, header, one rule, rows, notes wrapped at the width; no trailing spaces;
 * a name longer than the table allows is shortened in the middle, whole with --wide. */
static void test_text_layout(void **state)
{
	(void)state;
	struct pt_table *t = kernel_table();
	const char *r3[] = { "Default/network-TrainStepWrap/network-VirtualDatasetCellNewWithLongName/"
			     "network-WithLossCell/conv1/Conv2D-op5", "3" };
	pt_table_add_text_row(t, r3);
	pt_table_add_group(t, "Group two");
	const char *r4[] = { "x", NULL };
	pt_table_add_text_row(t, r4);
	pt_table_add_note(t, "Note: a note that is longer than forty columns wraps with a hanging indent.");
	char *buf = boxed_text(t, false);
	const char *want = "Kernel Summary\n"
			   "Time unit: ns\n"
			   "Name                                                          Calls\n"
			   "------------------------------------------------------------  -----\n"
			   "abcdefghijklmnop                                                  1\n"
			   "\xc3\xa9t\xc3\xa9                                                              12\n"
			   "Default/network-TrainStepWrap/\xe2\x80\xa6/conv1/Conv2D-op5                  3\n"
			   "Group two\n"
			   "x                                                                 -\n"
			   "Note: a note that is longer than forty\n"
			   "  columns wraps with a hanging indent.\n";
	assert_string_equal(buf, want);
	free(buf);
	buf = boxed_text(t, true);
	assert_non_null(strstr(buf, "network-VirtualDatasetCellNewWithLongName/network-WithLossCell/conv1/Conv2D-op5      3\n"));
	free(buf);
	pt_table_free(t);
}

/* JOB3 (summary.md §8.9): operator totals equal the ops table, kernel totals the tasks table. */
static void test_job3_fixture(void **state)
{
	(void)state;
	const char *sh = getenv("PT_SHARED");
	char path[4096];
	snprintf(path, sizeof(path), "%s/fixtures/mindinsight/JOB3", sh ? sh : "../shared");
	struct stat st;
	if (stat(path, &st)) {
		printf("skipped: %s is absent\n", path);
		skip();
	}
	struct pt_model *m = pt_model_new();
	struct pt_import_opts io;
	pt_import_opts_init(&io);
	struct pt_diag dg;
	memset(&dg, 0, sizeof(dg));
	struct pt_err *e = NULL;
	const char *paths[] = { path };
	assert_int_equal(pt_import(m, paths, 1, &io, &dg, &e), 0);
	pt_diag_free(&dg);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	o.views = (1u << PT_SV_OPERATOR) | (1u << PT_SV_KERNEL) | (1u << PT_SV_OPTYPE);
	struct pt_summary s = run(m, &o);
	struct pt_table *ops = NULL, *tasks = NULL;
	assert_int_equal(pt_pass_raw(m, "ops", -1, &ops, &e), 0);
	assert_int_equal(pt_pass_raw(m, "tasks", -1, &tasks, &e), 0);
	const struct pt_table *op = view(&s, PT_SV_OPERATOR);
	double rsum = 0;
	int64_t optotal = 0;
	for (size_t r = 0; r < op->nrows; r++) {
		const char *name = S(op, r, "name");
		int64_t calls = 0, tot = 0;
		for (size_t j = 0; j < ops->nrows; j++)
			if (!strcmp(S(ops, j, "name"), name)) {
				calls++;
				tot += I(ops, j, "dur");
			}
		assert_int_equal(I(op, r, "calls"), calls);
		assert_int_equal(I(op, r, "device_total"), tot);
		rsum += D(op, r, "device_ratio");
		optotal += tot;
	}
	assert_true(rsum > 100.0 - 0.0001 * (double)op->nrows && rsum < 100.0 + 0.0001 * (double)op->nrows);
	int64_t all = 0, ktot = 0;
	for (size_t j = 0; j < ops->nrows; j++)
		all += I(ops, j, "dur");
	assert_int_equal(all, optotal);
	const struct pt_table *k = view(&s, PT_SV_KERNEL);
	rsum = 0;
	for (size_t r = 0; r < k->nrows; r++) {
		ktot += I(k, r, "device_total");
		rsum += D(k, r, "device_ratio");
	}
	int64_t tall = 0;
	for (size_t j = 0; j < tasks->nrows; j++)
		tall += I(tasks, j, "dur");
	assert_int_equal(ktot, tall);
	assert_true(rsum > 100.0 - 0.0001 * (double)k->nrows && rsum < 100.0 + 0.0001 * (double)k->nrows);
	const struct pt_table *ty = view(&s, PT_SV_OPTYPE);
	int64_t ttot = 0;
	for (size_t r = 0; r < ty->nrows; r++)
		ttot += I(ty, r, "device_total");
	assert_int_equal(ttot, optotal);
	pt_table_free(ops);
	pt_table_free(tasks);
	pt_summary_free(&s);
	pt_model_free(m);
}

/* ---- the streaming summary gives what the in-memory one gives ---- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33) % n;
}

/*
 * A random Ascend model: 1-3 NPUs, a few streams each (some only unnamed
 * tasks, some whose tasks come out of start order in the file), steps or
 * none, AI CPU ops, overlapping and zero-length tasks; the streams'
 * events interleave in the file in random runs.
 */
static struct pt_model *random_npu_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t ndev = 1 + rnd(3);
	PT_VEC(uint32_t) ops = { 0 };
	enum { MAXT = 16 };
	uint32_t trk[MAXT], ntrk = 0;
	int64_t next[MAXT];
	bool unsorted[MAXT], nameless[MAXT];
	uint32_t dev_of[MAXT];
	for (uint32_t d = 0; d < ndev; d++) {
		uint32_t di = pt_model_device(m, PT_DEV_NPU, d * 2 + rnd(2));
		static const char *const types[] = { "Conv2D", "MatMul", "AllReduce", "HcomBroadcast", "Add" };
		for (int k = 0; k < 6; k++) {
			char nm[64];
			snprintf(nm, sizeof(nm), "Default/net/op%d-%u", k, d);
			struct pt_op o;
			memset(&o, 0, sizeof(o));
			o.device = di;
			o.name = pt_model_str(m, nm);
			o.type = pt_model_str(m, types[rnd(5)]);
			o.task_type = -1;
			pt_vec_push(&ops, pt_model_add_op(m, &o));
		}
		uint32_t nst = 1 + rnd(4);
		for (uint32_t k = 0; k < nst && ntrk < MAXT; k++) {
			char nm[32];
			snprintf(nm, sizeof(nm), "stream %u", k);
			trk[ntrk] = pt_model_track(m, di, PT_TRACK_STREAM, k, nm);
			next[ntrk] = 1000 + rnd(500);
			unsorted[ntrk] = !rnd(4);
			nameless[ntrk] = !rnd(4);
			dev_of[ntrk] = di;
			ntrk++;
		}
		if (rnd(3)) {
			int64_t t = 900 + rnd(300);
			for (uint32_t k = 1; k <= 1 + rnd(5); k++) {
				int64_t len = 200 + rnd(800);
				struct pt_step st = { .device = di, .step = k, .has = 31, .start = t,
						      .fp = t + rnd(100), .bp = t + len / 2 + rnd(100), .end = t + len };
				if (rnd(2)) { /* a step-trace reduce pair: communication that is not an event */
					struct pt_comm cm = { 0, 3, t + rnd(200), t + 200 + rnd(300), 0, 0 };
					pt_vec_push(&st.comm, cm);
				}
				pt_model_add_step(m, &st);
				t += len + rnd(50);
			}
		}
		for (uint32_t k = 0; k < rnd(3); k++) { /* HCCL operator executions */
			struct pt_hccl_task h = { .device = di, .op = pt_model_str(m, "allReduce_1"), .exec = k,
						  .ts = 1000 + rnd(3000), .dur = rnd(200) };
			pt_vec_push(&m->hccl, h);
			h.ts += rnd(100);
			pt_vec_push(&m->hccl, h);
		}
		uint32_t at = pt_model_track(m, di, PT_TRACK_AICPU, -1, "AI CPU");
		for (int k = 0; k < 3; k++) {
			int64_t st = 800 + rnd(3000), du = rnd(100);
			pt_model_add_event(m, at, pt_model_str(m, "GetNext"), PT_EV_AICPU, st, du, 0, PT_NONE, 0);
			struct pt_aicpu a = { .device = di, .serial = (uint32_t)k + 1,
					      .name = pt_model_str(m, k ? "GetNext" : "Cast"), .has = 7, .start = st,
					      .end = st + du, .total_ns = du + 5, .dispatch_ns = 5,
					      .event = (uint32_t)m->events.n };
			pt_model_add_aicpu(m, &a);
		}
	}
	uint32_t n = 2000 + rnd(14000); /* up to 4 batches of the writer */
	for (uint32_t i = 0; i < n;) {
		uint32_t k = rnd(ntrk), run = 1 + rnd(6);
		for (uint32_t j = 0; j < run && i < n; j++, i++) {
			int64_t dur = rnd(5) ? 1 + rnd(120) : 0;
			int64_t start = next[k];
			if (unsorted[k] && !rnd(3))
				start -= rnd(400); /* out of start order within the track */
			else
				next[k] += (rnd(3) ? dur : 0) + rnd(60); /* some overlap their successor */
			uint32_t op = PT_NONE, name = 0;
			if (!nameless[k] && rnd(6)) {
				uint32_t di = dev_of[k];
				op = ops.v[di * 6 + rnd(6)];
				name = m->ops.v[op].name;
			}
			pt_model_add_event(m, trk[k], name, PT_EV_TASK, start, dur, 0, op, 1 + rnd(40));
		}
	}
	pt_vec_free(&ops);
	return m;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[4 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strdup(buf);
}

/* Text and CSV of a summary, concatenated. */
static char *render(const struct pt_summary *s, const char *tmp)
{
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, tmp, &e), 0);
	{
		struct pt_export_opts tx = { PT_FMT_TABLE, PT_TU_DEFAULT, true, 0 };
		size_t nt;
		struct pt_table **tv = pt_summary_tables(s, true, &nt);
		pt_export_text(&o, tv, nt, &tx);
		free(tv);
	}
	struct pt_export_opts ex;
	memset(&ex, 0, sizeof(ex));
	ex.format = PT_FMT_CSV;
	for (size_t i = 0; i < s->n; i++)
		pt_export_csv(&o, &s->v[i].data, 1, &ex);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	return slurp(tmp);
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/*
 * Rewrite the uncompressed .ptm at path: its TrackEvents chunk dropped
 * (mode 0, as an older writer), claiming every track in start order
 * (mode 1), or kept with one more string defined after the first event batch
 * (mode 2, legal but never written); the footer follows the new body.
 */
static void rewrite_track_events(const char *path, int mode)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size_t n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *in = malloc(n), *out = malloc(2 * n + 64);
	assert_int_equal(fread(in, 1, n, f), n);
	fclose(f);
	assert_int_equal(in[12] & 1, 0); /* not compressed */
	memcpy(out, in, 16);
	size_t p = 16, q = 16;
	uint32_t crc = (uint32_t)crc32(0, NULL, 0);
	bool batch_seen = false;
	while (p < n) {
		uint64_t len = 0;
		int sh = 0;
		while (in[p] & 0x80)
			len |= (uint64_t)(in[p++] & 0x7f) << (sh += 7, sh - 7);
		len |= (uint64_t)in[p++] << sh;
		Proftool__Chunk *c = proftool__chunk__unpack(NULL, len, in + p);
		assert_non_null(c);
		if (c->body_case == PROFTOOL__CHUNK__BODY_TRACK_EVENTS && mode == 0) {
			/* dropped */
		} else if (c->body_case == PROFTOOL__CHUNK__BODY_TRACK_EVENTS ||
			   c->body_case == PROFTOOL__CHUNK__BODY_FOOTER) {
			if (c->body_case == PROFTOOL__CHUNK__BODY_FOOTER) {
				c->footer->n_strings += mode == 2;
				c->footer->crc32 = crc;
			} else if (mode != 2)
				for (size_t t = 0; t < c->track_events->n_flags; t++)
					c->track_events->flags[t] |= 1;
			size_t sz = proftool__chunk__get_packed_size(c), h = put_varint(out + q, sz);
			proftool__chunk__pack(c, out + q + h);
			if (c->body_case != PROFTOOL__CHUNK__BODY_FOOTER)
				crc = (uint32_t)crc32(crc, out + q, (uInt)(h + sz));
			q += h + sz;
		} else {
			size_t h = put_varint(out + q, len);
			memcpy(out + q + h, in + p, len);
			crc = (uint32_t)crc32(crc, out + q, (uInt)(h + len));
			q += h + len;
		}
		if (mode == 2 && c->body_case == PROFTOOL__CHUNK__BODY_EVENTS && !batch_seen) {
			batch_seen = true;
			Proftool__StringPiece sp = PROFTOOL__STRING_PIECE__INIT;
			ProtobufCBinaryData late = { 4, (uint8_t *)"late" };
			sp.n_s = 1;
			sp.s = &late;
			Proftool__Chunk lc = PROFTOOL__CHUNK__INIT;
			lc.body_case = PROFTOOL__CHUNK__BODY_STRINGS;
			lc.strings = &sp;
			size_t sz = proftool__chunk__get_packed_size(&lc), h = put_varint(out + q, sz);
			proftool__chunk__pack(&lc, out + q + h);
			crc = (uint32_t)crc32(crc, out + q, (uInt)(h + sz));
			q += h + sz;
		}
		proftool__chunk__free_unpacked(c, NULL);
		p += len;
	}
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(out, 1, q, f), q);
	fclose(f);
	free(in);
	free(out);
}

/* A fresh directory from the template dir, and in it the paths ptm (m.ptm) and txt (out.txt) of 256 bytes. */
static void scratch_open(char *dir, char *ptm, char *txt)
{
	assert_non_null(mkdtemp(dir));
	snprintf(ptm, 256, "%s/m.ptm", dir);
	snprintf(txt, 256, "%s/out.txt", dir);
}

static void scratch_close(const char *dir, const char *ptm, const char *txt)
{
	unlink(ptm);
	unlink(txt);
	rmdir(dir);
}

/* Write m to the .ptm file at ptm. */
static void write_ptm(const struct pt_model *m, const char *ptm, bool compress)
{
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, ptm, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, compress, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
}

static void test_stream_matches_memory(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-stream-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	regex_t re;
	assert_int_equal(regcomp(&re, "op[0-3]|task", REG_EXTENDED | REG_NOSUB), 0);
	int streamed_runs = 0;
	for (int round = 0; round < 20; round++) {
		rng_state = 0x5eed0000u + (uint64_t)round;
		struct pt_model *m = random_npu_model();
		struct pt_err *e = NULL;
		write_ptm(m, ptm, round % 4 == 0);
		struct pt_model *back = NULL;
		assert_int_equal(pt_ptm_read(ptm, &back, &e), 0);
		/* odd rounds: a file without TrackEvents, read twice */
		if (round % 2)
			rewrite_track_events(ptm, 0);
		for (int v = 0; v < 8; v++) {
			struct pt_summary_opts so;
			pt_summary_opts_init(&so);
			so.op_detail = v == 1;
			if (v == 2) {
				so.sel.steps_given = true;
				so.sel.step_a = 2;
				so.sel.step_b = 3;
			}
			if (v == 3) {
				so.sel.window_given = true;
				so.sel.win_has_a = true;
				so.sel.win_a = 100;
				so.sel.win_has_b = true;
				so.sel.win_b = 1500;
			}
			if (v == 4) {
				so.views = 1u << PT_SV_OVERVIEW;
				so.top = 2;
				so.name_re = &re;
			}
			if (v == 5) {
				so.sel.device = 2;
				so.views |= (1u << PT_SV_DEVICE) | (1u << PT_SV_GPU) | (1u << PT_SV_DISTRIBUTED);
			}
			if (v == 6) {
				so.views = (1u << PT_SV_OPTYPE) | (1u << PT_SV_AICPU) | (1u << PT_SV_MEMCPY) |
					   (1u << PT_SV_USERDEFINED) | (1u << PT_SV_API) | (1u << PT_SV_KERNEL) |
					   (1u << PT_SV_DEVICE) | (1u << PT_SV_GPU) | (1u << PT_SV_DISTRIBUTED);
				so.sel.window_given = true;
				so.sel.win_has_a = true;
				so.sel.win_a = 300;
			}
			if (v == 7) {
				so.views = 1u << PT_SV_DISTRIBUTED;
				so.sel.steps_given = true;
				so.sel.step_a = 1;
				so.sel.step_b = 2;
			}
			struct pt_summary a = run(back, &so), b;
			bool streamed = false;
			struct pt_model *whole = NULL;
			assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
			assert_true(streamed);
			streamed_runs++;
			char *ta = render(&a, txt), *tb = render(&b, txt);
			if (strcmp(ta, tb))
				fail_msg("round %d variant %d: in memory:\n%s\nstreamed:\n%s", round, v, ta, tb);
			free(ta);
			free(tb);
			pt_summary_free(&a);
			pt_summary_free(&b);
		}
		pt_model_free(back);
		pt_model_free(m);
	}
	assert_int_equal(streamed_runs, 160);
	/* not streamable: the distributed view of an NPU model with GPU-kind activities (their class is
	 * the index's name rule); a model with a GPU device beside the NPUs asking for a view that reads
	 * launching calls streams (the launch reads take its GPU ranks), the same as in memory */
	struct pt_model *g = random_npu_model();
	pt_model_add_event(g, 0, pt_model_str(g, "ncclKernel"), PT_EV_KERNEL, 5000, 10, 0, PT_NONE, 0);
	struct pt_err *e = NULL;
	write_ptm(g, ptm, true);
	pt_model_free(g);
	struct pt_summary_opts so;
	pt_summary_opts_init(&so);
	so.views = 1u << PT_SV_DISTRIBUTED;
	struct pt_summary b;
	bool streamed = true;
	struct pt_model *whole = NULL;
	assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	assert_false(streamed);
	assert_null(whole); /* a file: the caller reads it */
	g = random_npu_model();
	pt_model_device(g, PT_DEV_GPU, 0);
	write_ptm(g, ptm, true);
	pt_summary_opts_init(&so);
	so.views |= 1u << PT_SV_MEMCPY;
	streamed = false;
	assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	assert_true(streamed);
	struct pt_model *gback = NULL;
	assert_int_equal(pt_ptm_read(ptm, &gback, &e), 0);
	struct pt_summary ga = run(gback, &so);
	char *gta = render(&ga, txt), *gtb = render(&b, txt);
	assert_string_equal(gta, gtb);
	free(gta);
	free(gtb);
	pt_summary_free(&ga);
	pt_summary_free(&b);
	pt_model_free(gback);
	pt_model_free(g);
	/* a model without events: streamed (a second read finds none) and the same as in memory */
	g = pt_model_new();
	uint32_t d0 = pt_model_device(g, PT_DEV_NPU, 0);
	pt_model_track(g, d0, PT_TRACK_STREAM, 1, "s");
	struct pt_step st0 = { .device = d0, .step = 1, .has = 31, .start = 10, .fp = 20, .bp = 30, .end = 40 };
	pt_model_add_step(g, &st0);
	write_ptm(g, ptm, true);
	pt_summary_opts_init(&so);
	struct pt_summary a0 = run(g, &so);
	assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	assert_true(streamed);
	char *ta = render(&a0, txt), *tb = render(&b, txt);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	pt_summary_free(&a0);
	pt_summary_free(&b);
	pt_model_free(g);
	/* TrackEvents that the events contradict: an error, never a summary */
	g = pt_model_new();
	uint32_t d = pt_model_device(g, PT_DEV_NPU, 0), t = pt_model_track(g, d, PT_TRACK_STREAM, 1, "s");
	pt_model_add_event(g, t, 0, PT_EV_TASK, 5000, 10, 0, PT_NONE, 1);
	pt_model_add_event(g, t, 0, PT_EV_TASK, 1000, 10, 0, PT_NONE, 2);
	write_ptm(g, ptm, false);
	pt_model_free(g);
	assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	assert_true(streamed);
	pt_summary_free(&b);
	rewrite_track_events(ptm, 1);
	assert_int_not_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	char *why = pt_err_str(e);
	assert_non_null(strstr(why, "track 0"));
	free(why);
	pt_err_free(e);
	e = NULL;
	/* a name defined after the first event batch: read whole instead, not streamed */
	g = random_npu_model();
	write_ptm(g, ptm, false);
	pt_model_free(g);
	rewrite_track_events(ptm, 2);
	assert_int_equal(pt_ptm_read(ptm, &g, &e), 0);
	pt_model_free(g);
	streamed = true;
	assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	assert_false(streamed);
	/* a corrupt file is an error naming it, as a full read gives */
	g = random_npu_model();
	write_ptm(g, ptm, false);
	pt_model_free(g);
	FILE *f = fopen(ptm, "r+b");
	assert_non_null(f);
	fseek(f, -3, SEEK_END);
	fputc('x', f);
	fclose(f);
	assert_int_not_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, ptm));
	free(msg);
	pt_err_free(e);
	regfree(&re);
	scratch_close(dir, ptm, txt);
}

/* A model of one process (pid 7): its host thread *th, its GPU's stream *st, the names of a kernel
 * *k and of a launching call *api; no event yet. */
static struct pt_model *one_process(uint32_t *th, uint32_t *st, uint32_t *k, uint32_t *api)
{
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 7), gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 7;
	*th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 1, "t");
	*st = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "s");
	*k = pt_model_str(m, "gemm_kernel");
	*api = pt_model_str(m, "cudaLaunchKernel");
	return m;
}

/*
 * The gpu view's launch figures, streamed (the launch reads) and in memory:
 * launch delays and call durations past 2^32 ns in their percentiles (the
 * runs of struct sum_durs); by correlation id, the last call of an id
 * launches its activities, also when it comes after them in the file; a
 * kernel whose id no call has is not launched. And with the kernel linked
 * twice, streamed, the last link holds, as in memory. Under --steps alone (no launch reads,
 * the window the span of the data), a zero-length call where the span ends
 * whose kernel ran before it: the kernel is no member, and the file is
 * summarised whole; the call a little longer: streamed, the same.
 */
static void test_stream_gpu_launch(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-slaunch-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	for (int links = 0; links < 2; links++) {
		uint32_t th, st, k, api;
		struct pt_model *m = one_process(&th, &st, &k, &api);
		const int64_t G = INT64_C(1) << 32; /* 4.29 s */
		/* kernels first (as a CUPTI import writes them), then their calls: delays 100, 2G + 100,
		 * 300; call durations 10, G + 5, 20 */
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 1100, 50, 1, PT_NONE, 0);
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 2 * G + 2000, 50, 2, PT_NONE, 0);
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 3 * G, 50, 3, PT_NONE, 0);
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 3 * G + 500, 50, 9, PT_NONE, 0); /* no call */
		pt_model_add_event(m, th, api, PT_EV_API, 1000, 10, 1, PT_NONE, 0);
		pt_model_add_event(m, th, api, PT_EV_API, 1900, G + 5, 2, PT_NONE, 0);
		pt_model_add_event(m, th, api, PT_EV_API, 3 * G - 1000, 7, 3, PT_NONE, 0);
		pt_model_add_event(m, th, api, PT_EV_API, 3 * G - 300, 20, 3, PT_NONE, 0); /* id 3's last call */
		if (links) {
			static const uint32_t l[][2] = { { 0, 4 }, { 1, 5 }, { 2, 7 } };
			for (size_t i = 0; i < 3; i++) {
				struct pt_gpu_link x = { l[i][0], l[i][1], 0 };
				pt_vec_push(&m->links, x);
			}
		}
		write_ptm(m, ptm, links == 1);
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		so.views = 1u << PT_SV_GPU;
		struct pt_summary a = run(m, &so), b;
		bool streamed = false;
		struct pt_model *whole = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
		assert_true(streamed);
		const struct pt_table *t = view(&b, PT_SV_GPU);
		assert_int_equal(t->nrows, 1);
		assert_int_equal(I(t, 0, "calls"), 4);
		assert_int_equal(I(t, 0, "launches"), 3);
		assert_int_equal(I(t, 0, "launch_delay_p50"), 300);
		assert_int_equal(I(t, 0, "launch_delay_p90"), 2 * G + 100);
		assert_int_equal(I(t, 0, "launch_delay_max"), 2 * G + 100);
		assert_int_equal(I(t, 0, "api_p50"), 20);
		assert_int_equal(I(t, 0, "api_p90"), G + 5);
		char *ta = render(&a, txt), *tb = render(&b, txt), *once = tb;
		assert_string_equal(ta, tb);
		free(ta);
		pt_summary_free(&a);
		pt_summary_free(&b);
		if (links) { /* kernel 0 linked twice: streamed, its last link holds as in memory */
			struct pt_gpu_link x = { 0, 6, 0 };
			pt_vec_push(&m->links, x);
			write_ptm(m, ptm, false);
			a = run(m, &so);
			streamed = false;
			assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
			assert_true(streamed);
			assert_null(whole);
			ta = render(&a, txt);
			tb = render(&b, txt);
			assert_string_equal(ta, tb);
			/* kernel 0 (at 1100) launched by call 6 (at 3G - 1000), no longer by call 4 (at 1000) */
			assert_string_not_equal(tb, once);
			free(ta);
			free(tb);
			pt_summary_free(&a);
			pt_summary_free(&b);
		}
		free(once);
		pt_model_free(m);
	}
	for (int64_t d = 0; d < 2; d++) {
		uint32_t th, st, k, api;
		struct pt_model *m = one_process(&th, &st, &k, &api);
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 70, 20, 2, PT_NONE, 0);
		pt_model_add_event(m, st, k, PT_EV_KERNEL, 100, 50, 1, PT_NONE, 0);
		pt_model_add_event(m, th, api, PT_EV_API, 50, 10, 2, PT_NONE, 0);
		pt_model_add_event(m, th, api, PT_EV_API, 200, 5 * d, 1, PT_NONE, 0);
		write_ptm(m, ptm, true);
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		so.views = (1u << PT_SV_KERNEL) | (1u << PT_SV_OVERVIEW);
		so.sel.steps_given = true;
		so.sel.step_a = 1;
		so.sel.step_b = 2;
		struct pt_summary a = run(m, &so), b;
		assert_int_equal(I(view(&a, PT_SV_KERNEL), 0, "calls"), 2 - !d);
		bool streamed = d == 0;
		struct pt_model *whole = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
		assert_int_equal(streamed, d == 1);
		assert_null(whole);
		if (streamed) {
			char *ta = render(&a, txt), *tb = render(&b, txt);
			assert_string_equal(ta, tb);
			free(ta);
			free(tb);
			pt_summary_free(&b);
		}
		pt_summary_free(&a);
		pt_model_free(m);
	}
	scratch_close(dir, ptm, txt);
}

/* A tap that counts the reads of its source (and takes none of their batches); at the read numbered
 * redo, it first writes model *redo_m over the file. */
struct read_count {
	int n, redo;
	const struct pt_model *redo_m;
	const char *ptm;
};

static bool count_begin(void *arg, struct pt_model *m, bool events_only)
{
	(void)m;
	(void)events_only;
	struct read_count *c = arg;
	if (++c->n == c->redo)
		write_ptm(c->redo_m, c->ptm, true);
	return false;
}

/* One process with n kernels and their n calls, each linked: the kernels first in the file, then the
 * calls (layout 0), the calls first (1), or each kernel right before its call (2, as a CUPTI import
 * stores them). */
static struct pt_model *kernels_then_calls(size_t n, int layout)
{
	uint32_t th, st, k, api;
	struct pt_model *m = one_process(&th, &st, &k, &api);
	uint32_t k2 = pt_model_str(m, "relu_kernel");
	for (size_t j = 0; j < 2 * n; j++) {
		/* event j: kernel or call i */
		size_t i = layout == 2 ? j / 2 : j % n;
		bool kernel = layout == 2 ? !(j & 1) : (j < n) == (layout == 0);
		int64_t t = 1000 * (int64_t)i;
		if (kernel)
			pt_model_add_event(m, st, i % 3 ? k : k2, PT_EV_KERNEL, t + 300 + (int64_t)(i % 7) * 20,
					   50 + (int64_t)(i % 5), i + 1, PT_NONE, 0);
		else
			pt_model_add_event(m, th, api, PT_EV_API, t, 10 + (int64_t)(i % 11), i + 1, PT_NONE, 0);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t kev = (uint32_t)(layout == 2 ? 2 * i : layout == 0 ? i : n + i);
		uint32_t cev = (uint32_t)(layout == 2 ? 2 * i + 1 : layout == 0 ? n + i : i);
		struct pt_gpu_link x = { kev, cev, 0 };
		pt_vec_push(&m->links, x);
	}
	return m;
}

/*
 * The launch reads by link in two reads, not three, where each activity's call comes no later than
 * the event batch after the activity's: the calls a batch ahead of the sums in one read (kernels
 * first, their calls from the same batch into the next; the calls first; each kernel before its
 * call); three where a call
 * comes two batches after its kernel. The same figures as in memory either way. A file that
 * changes between the reads (other batches) is an error, not a summary.
 */
static void test_stream_calls_ahead(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-sahead-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	static const struct { size_t n; int layout, reads; } c[] = {
		{ 3000, 0, 2 }, /* kernel i's call is event 3000 + i: batch 0 or 1 */
		{ 3000, 1, 2 },
		{ 10000, 2, 2 }, /* kernel 4095's call is event 4096: the next batch; several blocks of links */
		{ 6000, 0, 3 }, /* kernel 4095's call is event 10095, in batch 2 */
	};
	for (size_t ci = 0; ci < sizeof(c) / sizeof(c[0]); ci++) {
		struct pt_model *m = kernels_then_calls(c[ci].n, c[ci].layout);
		write_ptm(m, ptm, true);
		for (int win = 0; win < 2; win++) {
			struct pt_summary_opts so;
			pt_summary_opts_init(&so);
			so.views = (1u << PT_SV_GPU) | (1u << PT_SV_KERNEL) | (1u << PT_SV_API) | (1u << PT_SV_OVERVIEW);
			if (win) { /* membership by the call's start */
				so.sel.window_given = so.sel.win_has_a = so.sel.win_has_b = true;
				so.sel.win_a = 500000;
				so.sel.win_b = 2000000;
			}
			struct pt_summary a = run(m, &so), b;
			struct read_count rc = { 0, 0, NULL, ptm };
			struct pt_ptm_tap tap = { count_begin, NULL, NULL, &rc };
			struct pt_ptm_source src = { .path = ptm, .tap = &tap };
			bool streamed = false;
			struct pt_model *whole = NULL;
			struct pt_err *e = NULL;
			assert_int_equal(pt_summary_stream_file(&src, &so, &b, &streamed, &whole, &e), 0);
			assert_true(streamed);
			assert_int_equal(rc.n, c[ci].reads);
			const struct pt_table *t = view(&b, PT_SV_GPU);
			int64_t launches = 0;
			for (size_t r = 0; r < t->nrows; r++)
				launches += I(t, r, "launches");
			assert_int_equal(launches, win ? 1500 : (int64_t)c[ci].n);
			char *ta = render(&a, txt), *tb = render(&b, txt);
			assert_string_equal(ta, tb);
			free(ta);
			free(tb);
			pt_summary_free(&a);
			pt_summary_free(&b);
		}
		pt_model_free(m);
	}
	/* the file changes before the read of calls and sums: its second batch is not the first read's */
	struct pt_model *m = kernels_then_calls(3000, 0), *m2 = kernels_then_calls(3001, 0);
	write_ptm(m, ptm, true);
	struct pt_summary_opts so;
	pt_summary_opts_init(&so);
	so.views = 1u << PT_SV_GPU;
	struct read_count rc = { 0, 2, m2, ptm };
	struct pt_ptm_tap tap = { count_begin, NULL, NULL, &rc };
	struct pt_ptm_source src = { .path = ptm, .tap = &tap };
	struct pt_summary b;
	bool streamed = false;
	struct pt_model *whole = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_summary_stream_file(&src, &so, &b, &streamed, &whole, &e), -1);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "changed while it was read"));
	free(msg);
	pt_err_free(e);
	pt_model_free(m);
	pt_model_free(m2);
	scratch_close(dir, ptm, txt);
}

/* pt_summary_stream_file("-"): the model comes on standard input, which cannot be read twice. */
static int stream_stdin(const char *ptm, const struct pt_summary_opts *so, struct pt_summary *b, bool *streamed,
			struct pt_model **whole, struct pt_err **e)
{
	int saved = dup(0), fd = open(ptm, O_RDONLY);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	int rc = pt_summary_stream_file(PT_PTM_SOURCE("-"), so, b, streamed, whole, e);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	return rc;
}

/*
 * From a pipe: one read sums what it can (an NPU model with TrackEvents);
 * a model it cannot sum in one read (without TrackEvents, the distributed
 * view, a GPU model asking for the memcpy view, no event at all) comes back
 * whole for the in-memory summary, and a model defining names after its
 * first batch is an error.
 */
static void test_stream_stdin(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-stdin-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	for (int c = 0; c < 6; c++) {
		rng_state = 0x51d10000u + (uint64_t)c;
		struct pt_model *m = c == 4 ? pt_model_new() : random_npu_model();
		if (c == 3)
			pt_model_device(m, PT_DEV_GPU, 0);
		if (c == 4)
			pt_model_track(m, pt_model_device(m, PT_DEV_NPU, 0), PT_TRACK_STREAM, 1, "s");
		write_ptm(m, ptm, c == 1);
		if (c == 2 || c == 5)
			rewrite_track_events(ptm, c == 2 ? 0 : 2);
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		if (c == 1)
			so.views = (1u << PT_SV_DISTRIBUTED) | (1u << PT_SV_OVERVIEW);
		if (c == 3)
			so.views |= 1u << PT_SV_MEMCPY;
		struct pt_summary a = run(m, &so), b;
		bool streamed = false;
		struct pt_model *whole = NULL;
		struct pt_err *e = NULL;
		int rc = stream_stdin(ptm, &so, &b, &streamed, &whole, &e);
		if (c == 5) {
			assert_int_not_equal(rc, 0);
			char *msg = pt_err_str(e);
			assert_non_null(strstr(msg, "'standard input': this model cannot be summarised in one read"));
			free(msg);
			pt_err_free(e);
			assert_false(streamed);
			assert_null(whole);
			pt_summary_free(&a);
			pt_model_free(m);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(streamed, c == 0);
		assert_true((whole != NULL) == (c != 0));
		if (whole) {
			/* the whole model: what a full read of the file gives */
			struct pt_model *full = NULL;
			assert_int_equal(pt_ptm_read(ptm, &full, &e), 0);
			assert_int_equal(whole->events.n, full->events.n);
			assert_int_equal(whole->strings.n, full->strings.n);
			struct pt_index *x = pt_index_new(whole);
			assert_int_equal(pt_pass_summary(whole, x, &so, &b, &e), 0);
			pt_index_free(x);
			pt_model_free(full);
			pt_model_free(whole);
		}
		char *ta = render(&a, txt), *tb = render(&b, txt);
		assert_string_equal(ta, tb);
		free(ta);
		free(tb);
		pt_summary_free(&a);
		pt_summary_free(&b);
		pt_model_free(m);
	}
	scratch_close(dir, ptm, txt);
}

/*
 * A random CUPTI-like model: 1-3 processes (ranks recorded or not), each a
 * CPU device with 1-2 host threads of API calls and 1-2 GPUs with 1-3
 * streams of kernels (communication names among them), copies and fills;
 * zero-length and overlapping activities, threads and streams whose events
 * come out of start order, the CUPTI side tables (kernels, copies, links),
 * synchronization events on the threads (sync), host ranges (ranges: one
 * NVTX range on a thread, which keeps every GPU rank from streaming).
 */
static struct pt_model *random_gpu_model(bool sync, bool ranges)
{
	struct pt_model *m = pt_model_new();
	enum { MAXT = 24 };
	uint32_t thr[MAXT], str[MAXT], nthr = 0, nstr = 0, thr_proc[MAXT], str_proc[MAXT];
	int64_t tnext[MAXT], snext[MAXT];
	bool tuns[MAXT], suns[MAXT];
	uint32_t nproc = 1 + rnd(3);
	for (uint32_t p = 0; p < nproc; p++) {
		struct pt_device d;
		memset(&d, 0, sizeof(d));
		d.id = 100 + p;
		d.kind = PT_DEV_CPU;
		d.pid = 100 + p;
		d.rank = rnd(2) ? (int32_t)(nproc - p) : -1;
		pt_vec_push(&m->devices, d);
		uint32_t cpu = (uint32_t)m->devices.n - 1;
		for (uint32_t k = 0, n = 1 + rnd(2); k < n; k++) {
			thr[nthr] = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 1000 + k, "thread");
			thr_proc[nthr] = p;
			tnext[nthr] = 1000 + rnd(300);
			tuns[nthr] = !rnd(4);
			nthr++;
		}
		for (uint32_t gi = 0, ng = 1 + rnd(2); gi < ng; gi++) {
			d.id = gi;
			d.kind = PT_DEV_GPU;
			pt_vec_push(&m->devices, d);
			uint32_t gd = (uint32_t)m->devices.n - 1;
			for (uint32_t k = 0, n = 1 + rnd(3); k < n; k++) {
				str[nstr] = pt_model_track(m, gd, PT_TRACK_STREAM, 7 + k, "stream");
				str_proc[nstr] = p;
				snext[nstr] = 1100 + rnd(300);
				suns[nstr] = !rnd(4);
				nstr++;
			}
		}
	}
	static const char *const apis[] = { "cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020", "cuMemcpyHtoD_v2",
					     "cudaStreamSynchronize_v3020" };
	static const char *const kernels[] = { "gemm_kernel", "relu_kernel", "ncclKernel_AllReduce_RING_LL_Sum_float",
					       "_Z3addPfS_i" };
	uint64_t corr = 1;
	uint32_t n = 2000 + rnd(14000); /* up to 4 batches of the writer */
	for (uint32_t i = 0; i < n; corr++) {
		uint32_t t = rnd(nthr);
		int64_t dur = rnd(5) ? 1 + rnd(40) : 0;
		int64_t st = tnext[t];
		if (tuns[t] && !rnd(3))
			st -= rnd(200); /* out of start order within the thread */
		else
			tnext[t] += dur + rnd(20);
		uint32_t api = (uint32_t)m->events.n;
		pt_model_add_event(m, thr[t], pt_model_str(m, apis[rnd(4)]), PT_EV_API, st, dur, corr, PT_NONE, 0);
		i++;
		if (sync && !rnd(8)) {
			pt_model_add_event(m, thr[t], pt_model_str(m, "sync"), PT_EV_SYNC, st + dur, 3, 0, PT_NONE, 0);
			i++;
		}
		if (!rnd(4))
			continue;
		/* an activity this call launched, on a stream of the same process */
		uint32_t k;
		do
			k = rnd(nstr);
		while (str_proc[k] != thr_proc[t]);
		int64_t d2 = rnd(6) ? 1 + rnd(120) : 0, s2 = snext[k];
		if (suns[k] && !rnd(3))
			s2 -= rnd(300);
		else
			snext[k] += (rnd(3) ? d2 : 0) + rnd(50); /* some overlap their successor */
		uint32_t ev = (uint32_t)m->events.n, r = rnd(6);
		enum pt_event_kind kd = r < 4 ? PT_EV_KERNEL : r == 4 ? PT_EV_MEMCPY : PT_EV_MEMSET;
		uint32_t nm = kd == PT_EV_KERNEL ? pt_model_str(m, kernels[rnd(4)]) : 0;
		pt_model_add_event(m, str[k], nm, kd, s2, d2, corr, PT_NONE, 0);
		i++;
		if (kd == PT_EV_KERNEL) {
			struct pt_kernel_config c = { { 1 + rnd(4), 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 0 };
			pt_model_add_kernel(m, ev, &c);
		} else {
			struct pt_copy_info ci = { ev, kd == PT_EV_MEMCPY ? (uint8_t)(1 + rnd(8)) : 0, 0, 0, 4096, -1, -1 };
			pt_vec_push(&m->copies, ci);
		}
		if (rnd(5)) {
			struct pt_gpu_link l = { ev, api, 0 };
			pt_vec_push(&m->links, l);
		}
	}
	if (ranges) {
		uint32_t ev = (uint32_t)m->events.n;
		pt_model_add_event(m, thr[rnd(nthr)], pt_model_str(m, "forward"), PT_EV_RANGE, 900, 100000, 0, PT_NONE, 0);
		struct pt_range_info ri = { ev, pt_model_str(m, "Forward"), 0, 0, 0, 1, 0 };
		pt_vec_push(&m->ranges, ri);
	}
	return m;
}

/* Does a call or an activity of some process of m start where the span of that process's data ends
 * (zero-length there)? Then --steps alone without the launch reads cannot tell its membership. */
static bool zero_at_end(const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t c = 0; c < m->devices.n; c++) {
		if (m->devices.v[c].kind != PT_DEV_CPU)
			continue;
		uint32_t pid = m->devices.v[c].pid;
		int64_t hi = INT64_MIN;
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < ev->n; i++) {
				uint8_t k = ev->kind[i];
				if (m->devices.v[m->tracks.v[ev->track[i]].device].pid != pid ||
				    (k != PT_EV_API && k != PT_EV_KERNEL && k != PT_EV_MEMCPY && k != PT_EV_MEMSET))
					continue;
				if (!pass && ev->start[i] + ev->dur[i] > hi)
					hi = ev->start[i] + ev->dur[i];
				if (pass && ev->start[i] >= hi)
					return true;
			}
	}
	return false;
}

/*
 * GPU models without host ranges stream for every view but memcpy and gpu,
 * with every other option but --steps and --time-window, and print what the
 * in-memory summary prints; the CUPTI side tables are checked but not kept.
 * A model of one process or several also streams memcpy, gpu, --steps and
 * --time-window (the launch reads: by the launch links, or by correlation
 * id in the rounds whose links are dropped, the ids of each process its
 * own). With host ranges only the kernel and api
 * views stream, without a selection. Standard input brings back whole what
 * one read cannot sum.
 */
static void test_stream_gpu(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-sgpu-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	regex_t re;
	assert_int_equal(regcomp(&re, "gemm|nccl|Launch", REG_EXTENDED | REG_NOSUB), 0);
	int streamed_runs = 0, memory_runs = 0, nlaunch = 0, ncorr = 0, nzero = 0, nmulti = 0, nmcorr = 0, nhost = 0;
	for (int round = 0; round < 16; round++) {
		rng_state = 0x69b00000u + (uint64_t)round;
		bool ranges = round % 4 == 3, sync = round % 3 == 1;
		struct pt_model *m = random_gpu_model(sync, ranges);
		if (round % 8 >= 4) /* by correlation id */
			m->links.n = 0;
		size_t ncpu = 0;
		for (size_t d = 0; d < m->devices.n; d++)
			ncpu += m->devices.v[d].kind == PT_DEV_CPU;
		bool launch = true; /* the launch reads: one process or several */
		nlaunch += launch && !ranges;
		ncorr += launch && !ranges && !m->links.n;
		nmulti += ncpu > 1 && !ranges;
		nmcorr += ncpu > 1 && !ranges && !m->links.n;
		struct pt_err *e = NULL;
		write_ptm(m, ptm, round % 4 == 0);
		struct pt_model *back = NULL;
		assert_int_equal(pt_ptm_read(ptm, &back, &e), 0);
		if (round % 2) /* a file without TrackEvents: read twice */
			rewrite_track_events(ptm, 0);
		for (int v = 0; v < 15; v++) {
			struct pt_summary_opts so;
			pt_summary_opts_init(&so);
			bool streams = true;
			if (v == 1) {
				so.views = (1u << PT_SV_API) | (1u << PT_SV_KERNEL) | (1u << PT_SV_OVERVIEW);
				so.top = 2;
				so.name_re = &re;
				so.key = PT_SK_CALLS;
			}
			if (v == 2) {
				so.sel.device = 1;
				so.op_detail = so.thread_sep = true;
				so.key = PT_SK_GPU_AVG;
				so.reverse = true;
			}
			if (v == 3) {
				so.views = 1u << PT_SV_API;
				so.no_demangle = true;
				so.key = PT_SK_NAME;
				so.unit = PT_TU_US;
			}
			if (v == 4) {
				so.views = (1u << PT_SV_KERNEL) | (1u << PT_SV_OVERVIEW);
				so.comm_re = &re;
			}
			if (v == 5) {
				so.views |= 1u << PT_SV_MEMCPY;
				streams = launch;
			}
			if (v == 6) { /* --steps alone: no launch reads, any number of processes */
				so.sel.steps_given = true;
				so.sel.step_a = 1;
				so.sel.step_b = 2;
				streams = !zero_at_end(m);
				nzero += !streams && !ranges;
			}
			if (v == 7) {
				so.sel.window_given = true;
				so.sel.win_has_a = true;
				so.sel.win_a = 100;
				so.sel.win_has_b = true;
				so.sel.win_b = 1500;
				streams = launch;
			}
			if (v == 8) {
				so.views = (1u << PT_SV_GPU) | (1u << PT_SV_DEVICE);
				streams = launch;
			}
			if (v == 12) { /* the launches' figures where few calls are members */
				so.views = (1u << PT_SV_GPU) | (1u << PT_SV_MEMCPY) | (1u << PT_SV_OVERVIEW);
				so.sel.window_given = true;
				so.sel.win_has_a = true;
				so.sel.win_a = 200;
				so.sel.win_has_b = true;
				so.sel.win_b = 900;
				so.sel.device = 1;
				streams = launch;
			}
			if (v == 13) {
				so.views = (1u << PT_SV_COUNT) - 1;
				so.sel.steps_given = true;
				so.sel.step_a = 3;
				so.sel.step_b = 3;
				streams = launch;
			}
			if (v == 14) {
				so.views = (1u << PT_SV_KERNEL) | (1u << PT_SV_API);
				so.sel.window_given = true;
				so.sel.win_has_b = true;
				so.sel.win_b = 2000;
				streams = launch;
			}
			if (v == 9) {
				so.views = 1u << PT_SV_KERNEL;
				so.key = PT_SK_NAME;
				so.top = 3;
			}
			if (v == 10) {
				so.views = (1u << PT_SV_DEVICE) | (1u << PT_SV_DISTRIBUTED) | (1u << PT_SV_USERDEFINED);
				so.op_detail = true;
			}
			if (v == 11) {
				so.views = (1u << PT_SV_COUNT) - 1;
				so.views &= ~((1u << PT_SV_MEMCPY) | (1u << PT_SV_GPU));
				so.comm_re = &re;
				so.sel.device = 0;
			}
			/* host ranges (the rounds without TrackEvents): the views that read none of them stream
			 * without a selection; the others where the host read takes the model (its first read
			 * done again), the same as in memory */
			bool either = ranges && ((so.views & ~((1u << PT_SV_KERNEL) | (1u << PT_SV_API))) ||
						 so.sel.steps_given || so.sel.window_given);
			if (either)
				streams = false;
			struct pt_summary a = run(back, &so), b;
			bool streamed = !streams;
			struct pt_model *whole = NULL;
			assert_int_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
			assert_null(whole);
			if (streamed != streams && !either)
				fail_msg("round %d variant %d: streamed %d", round, v, streamed);
			nhost += either && streamed;
			if (!streamed) {
				memory_runs++;
				pt_summary_free(&a);
				continue;
			}
			streamed_runs++;
			char *ta = render(&a, txt), *tb = render(&b, txt);
			if (strcmp(ta, tb))
				fail_msg("round %d variant %d: in memory:\n%s\nstreamed:\n%s", round, v, ta, tb);
			free(ta);
			free(tb);
			pt_summary_free(&a);
			pt_summary_free(&b);
		}
		/* standard input: streamed when one read can (TrackEvents that claim it), else whole */
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		struct pt_summary b;
		bool streamed = false;
		struct pt_model *whole = NULL;
		assert_int_equal(stream_stdin(ptm, &so, &b, &streamed, &whole, &e), 0);
		assert_int_equal(streamed, !ranges && round % 2 == 0 && !sync);
		assert_true((whole != NULL) == !streamed);
		if (streamed)
			pt_summary_free(&b);
		pt_model_free(whole);
		pt_model_free(back);
		pt_model_free(m);
	}
	/* the rounds without ranges: both joins among them, of one process and of several */
	assert_int_equal(nlaunch, 12);
	assert_true(nmulti > 0 && nmulti < nlaunch && nmcorr > 0 && nmcorr < nmulti);
	assert_true(nzero > 0 && nzero < 12); /* both ways of --steps alone */
	assert_true(ncorr > 0 && ncorr < nlaunch);
	assert_int_equal(nhost, 4 * 13); /* every one: the random ranges name no explicit parent */
	assert_int_equal(streamed_runs, 12 * 9 + 4 * 2 + 6 * nlaunch - nzero + nhost);
	assert_int_equal(memory_runs, 12 * 6 + 4 * 13 - 6 * nlaunch + nzero - nhost);
	/* a side table that points past the events, or at an event of the wrong kind, fails the
	 * streamed read as it fails a full one */
	static const char *const whats[] = { "invalid GPU link in the chunk", "invalid copy info in the chunk at body offset",
					     "invalid kernel info in the chunk", "invalid synchronization info" };
	for (int c = 0; c < 4; c++) {
		rng_state = 0x69b0ff00u + (uint64_t)c;
		struct pt_model *m = random_gpu_model(c == 3, false);
		struct pt_gpu_link bad = { (uint32_t)m->events.n + 3, 0, 0 };
		struct pt_copy_info badc = { (uint32_t)m->events.n, 1, 0, 0, 1, -1, -1 };
		struct pt_kernel_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 0, 0, 0 };
		struct pt_sync_info bads = { 0, 3, -1, -1, -1 }; /* event 0: an API call */
		if (c == 0)
			pt_vec_push(&m->links, bad);
		else if (c == 1)
			pt_vec_push(&m->copies, badc);
		else if (c == 2)
			pt_model_add_kernel(m, 0, &cfg); /* event 0: an API call */
		else
			pt_vec_push(&m->syncs, bads);
		write_ptm(m, ptm, c == 1);
		pt_model_free(m);
		const char *what = whats[c];
		struct pt_err *e = NULL;
		struct pt_model *back = NULL;
		assert_int_not_equal(pt_ptm_read(ptm, &back, &e), 0);
		char *msg = pt_err_str(e);
		assert_non_null(strstr(msg, what));
		free(msg);
		pt_err_free(e);
		e = NULL;
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		struct pt_summary b;
		bool streamed = true;
		struct pt_model *whole = NULL;
		assert_int_not_equal(pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e), 0);
		assert_false(streamed);
		msg = pt_err_str(e);
		assert_non_null(strstr(msg, what));
		free(msg);
		pt_err_free(e);
	}
	regfree(&re);
	scratch_close(dir, ptm, txt);
}

/* The release watermark: a track seen waits for its latest start less its lag, one whose lag is
 * unknown for its earliest start, a done track for nothing. */
static void test_watermark_lag(void **state)
{
	(void)state;
	uint64_t left[3] = { 1, 1, 0 }, lag[3] = { 30, SCAN_LAG_UNKNOWN, 0 };
	int64_t min[3] = { 10, 50, 0 }, last[3] = { 100, 400, 900 };
	uint8_t seen[3] = { 1, 1, 1 };
	struct scan sc = { .left = left, .lag = lag, .min = min, .last = last, .seen = seen };
	const uint32_t tr[3] = { 0, 1, 2 };
	assert_int_equal(sum_watermark(&sc, tr, 3, false), 50);
	left[1] = 0;
	assert_int_equal(sum_watermark(&sc, tr, 3, false), 70);
	seen[0] = 0;
	assert_int_equal(sum_watermark(&sc, tr, 3, false), 10);
	seen[0] = 1;
	lag[0] = 0;
	assert_int_equal(sum_watermark(&sc, tr, 3, false), 100);
	left[2] = 1;
	assert_int_equal(sum_watermark(&sc, tr, 3, false), 100);
	assert_int_equal(sum_watermark(&sc, tr, 3, true), INT64_MAX);
	left[0] = 0;
	assert_int_equal(sum_watermark(&sc, tr, 2, false), INT64_MAX);
	/* the widest lag the times allow: the earliest start, without overflow */
	left[0] = 1;
	min[0] = -PT_TIME_LIMIT;
	last[0] = PT_TIME_LIMIT;
	lag[0] = (uint64_t)PT_TIME_LIMIT * 2;
	assert_int_equal(sum_watermark(&sc, tr, 1, false), -PT_TIME_LIMIT);
	lag[0] = (uint64_t)PT_TIME_LIMIT * 2 - 5;
	assert_int_equal(sum_watermark(&sc, tr, 1, false), -PT_TIME_LIMIT + 5);
}

/*
 * A model shaped as the CUPTI importer stores a long run: copies that start
 * before the kernels stored ahead of them on their stream, each stream's
 * synchronizations after every other event, and more (kind, track) pairs than
 * fit a byte (300 streams). The streamed summary prints what the in-memory one
 * prints, and a side table that points at an event of the wrong kind fails it.
 */
static struct pt_model *cupti_like_model(void)
{
	struct pt_model *m = pt_model_new();
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = 100;
	d.kind = PT_DEV_CPU;
	d.pid = 100;
	pt_vec_push(&m->devices, d);
	d.id = 0;
	d.kind = PT_DEV_GPU;
	pt_vec_push(&m->devices, d);
	enum { NS = 300, REPS = 40 };
	uint32_t thr = pt_model_track(m, 0, PT_TRACK_HOST_THREAD, 7, "thread"), str[NS];
	for (uint32_t k = 0; k < NS; k++)
		str[k] = pt_model_track(m, 1, PT_TRACK_STREAM, 7 + k, "stream");
	uint32_t launch = pt_model_str(m, "cudaLaunchKernel_v7000"), gemm = pt_model_str(m, "gemm_kernel");
	uint64_t corr = 1;
	for (int64_t r = 0; r < REPS; r++) {
		int64_t t0 = 1000 + r * 100000;
		for (uint32_t k = 0; k < NS; k++, corr++) {
			int64_t st = t0 + 300 * k;
			uint32_t api = (uint32_t)m->events.n;
			pt_model_add_event(m, thr, launch, PT_EV_API, st, 20, corr, PT_NONE, 0);
			uint32_t ev = (uint32_t)m->events.n;
			pt_model_add_event(m, str[k], gemm, PT_EV_KERNEL, st + 50, 100 + (int64_t)(k % 7), corr, PT_NONE, 0);
			struct pt_kernel_config c = { { 1 + k % 3, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 0 };
			pt_model_add_kernel(m, ev, &c);
			struct pt_gpu_link l = { ev, api, 0 };
			pt_vec_push(&m->links, l);
		}
		/* a copy stored after the kernels it ran before */
		uint32_t ev = (uint32_t)m->events.n;
		pt_model_add_event(m, str[0], 0, PT_EV_MEMCPY, t0 + 10, 60, corr++, PT_NONE, 0);
		struct pt_copy_info ci = { ev, 1, 0, 0, 4096, -1, -1 };
		pt_vec_push(&m->copies, ci);
	}
	for (int64_t r = 0; r < REPS; r++)
		for (uint32_t k = 0; k < NS; k += 3)
			pt_model_add_event(m, str[k], pt_model_str(m, "Stream Sync"), PT_EV_SYNC, 1000 + r * 100000 + 400 * k,
					   5, 0, PT_NONE, 0);
	return m;
}

static void test_stream_gpu_lag(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-slag-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	for (int bad = 0; bad < 2; bad++) {
		struct pt_model *m = cupti_like_model();
		if (bad) { /* a kernel configuration on a synchronization */
			struct pt_kernel_config c = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 0, 0, 0 };
			pt_model_add_kernel(m, (uint32_t)m->events.n - 1, &c);
		}
		write_ptm(m, ptm, true);
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		struct pt_summary b;
		bool streamed = false;
		struct pt_model *whole = NULL;
		struct pt_err *e = NULL;
		int rc = pt_summary_stream_file(PT_PTM_SOURCE(ptm), &so, &b, &streamed, &whole, &e);
		assert_null(whole);
		if (bad) {
			assert_int_not_equal(rc, 0);
			assert_false(streamed);
			char *msg = pt_err_str(e);
			assert_non_null(strstr(msg, "invalid kernel info"));
			free(msg);
			pt_err_free(e);
			pt_model_free(m);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_true(streamed);
		struct pt_model *back = NULL;
		assert_int_equal(pt_ptm_read(ptm, &back, &e), 0);
		struct pt_summary a = run(back, &so);
		char *ta = render(&a, txt), *tb = render(&b, txt);
		assert_string_equal(ta, tb);
		assert_non_null(strstr(ta, "gemm_kernel"));
		free(ta);
		free(tb);
		pt_summary_free(&a);
		pt_summary_free(&b);
		pt_model_free(back);
		pt_model_free(m);
	}
	scratch_close(dir, ptm, txt);
}

/* Cells of a row as text, appended to *buf (for comparing rows made two ways). */
static void cells_text(char **buf, size_t *len, const struct pt_cell *c, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char cell[512];
		int w = c[k].kind == PT_CELL_STR ? snprintf(cell, sizeof(cell), "%.*s|", (int)c[k].len, c[k].u.s)
		      : c[k].kind == PT_CELL_INT ? snprintf(cell, sizeof(cell), "%" PRId64 "|", c[k].u.i)
						 : snprintf(cell, sizeof(cell), "-|");
		*buf = realloc(*buf, *len + (size_t)w + 2);
		memcpy(*buf + *len, cell, (size_t)w);
		*len += (size_t)w;
	}
	(*buf)[(*len)++] = '\n';
	(*buf)[*len] = 0;
}

struct text_rows {
	char *buf;
	size_t len;
	size_t n;
};

static size_t rows_ncols = 7;

static void collect_row(void *arg, const struct pt_cell *c)
{
	struct text_rows *r = arg;
	cells_text(&r->buf, &r->len, c, rows_ncols);
	r->n++;
}

/* The streamed api and kernels tables give pt_pass_raw()'s rows in its order, also for tracks
 * whose events the file holds out of start order; a damaged file fails before any row. */
/* A pass reading a file for itself, with a tap on its source (pass/summary-tap.h): reads[] says what
 * each read is, 'F' a first read, 'S' a first read its sink stops at the first batch, 'E' a read of
 * the events alone (the steps streams: a first read, then one or two of the events). */
static int tap_keep(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)arg;
	(void)m;
	(void)e;
	return 0;
}

static int tap_stop(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)arg;
	(void)m;
	(void)e;
	return PT_PTM_STOP;
}

static bool tap_reads(const char *ptm, const struct pt_summary_opts *so, const char *reads, struct pt_summary *out)
{
	struct pt_ptm_tap tap;
	struct pt_summary_tap *t = pt_summary_tap_new(so, &tap);
	struct pt_ptm_source src = { .path = ptm, .tap = &tap };
	struct pt_model *m = NULL;
	for (const char *r = reads; *r; r++) {
		struct pt_err *e = NULL;
		if (*r != 'E') {
			pt_model_free(m);
			m = pt_model_new();
		}
		struct pt_ptm_sink k = { *r == 'S' ? tap_stop : tap_keep, NULL, *r == 'E', true };
		int rc = pt_ptm_source_read(&src, m, &k, &e);
		assert_int_equal(rc, *r == 'S' ? PT_PTM_STOP : 0);
		pt_err_free(e);
	}
	pt_model_free(m);
	bool done = pt_summary_tap_end(t, out);
	pt_summary_tap_free(t);
	return done;
}

/* The summary fed by another pass's reads is the one it makes by itself; a first read that stops
 * is forgotten; reads that end before it has what it needs leave it to the caller. */
static void test_summary_tap(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-tap-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	for (int round = 0; round < 8; round++) {
		rng_state = 0x7a900000u + (uint64_t)round;
		struct pt_model *m = random_npu_model();
		struct pt_err *e = NULL;
		write_ptm(m, ptm, round % 4 == 0);
		bool twice = round % 2; /* without TrackEvents: the summary needs a second read */
		if (twice)
			rewrite_track_events(ptm, 0);
		struct pt_model *back = NULL;
		assert_int_equal(pt_ptm_read(ptm, &back, &e), 0);
		struct pt_summary_opts so;
		pt_summary_opts_init(&so);
		so.views = (1u << PT_SV_MODEL) | (1u << PT_SV_OPERATOR);
		struct pt_summary a = run(back, &so);
		char *ta = render(&a, txt);
		static const char *const ok[] = { "FE", "FEE", "SFE", "SSFEE" };
		for (size_t k = 0; k < sizeof(ok) / sizeof(*ok); k++) {
			struct pt_summary b;
			assert_true(tap_reads(ptm, &so, ok[k], &b));
			char *tb = render(&b, txt);
			if (strcmp(ta, tb))
				fail_msg("round %d reads %s: in memory:\n%s\ntapped:\n%s", round, ok[k], ta, tb);
			free(tb);
			pt_summary_free(&b);
		}
		struct pt_summary b;
		memset(&b, 0, sizeof(b));
		if (tap_reads(ptm, &so, "F", &b)) { /* one read: enough only with TrackEvents */
			assert_false(twice);
			pt_summary_free(&b);
		} else {
			assert_true(twice);
		}
		assert_false(tap_reads(ptm, &so, "S", &b));
		/* a first read again instead of the events: what the first gave */
		bool fs = tap_reads(ptm, &so, "FS", &b);
		assert_true(fs == !twice);
		if (fs)
			pt_summary_free(&b);
		assert_true(pt_summary_tap_probe(PT_PTM_SOURCE(ptm), &so));
		free(ta);
		pt_summary_free(&a);
		pt_model_free(back);
		pt_model_free(m);
	}
	/* the probe: a GPU device with --steps is summarised whole, without it streamed */
	struct pt_model *g = random_npu_model();
	pt_model_device(g, PT_DEV_GPU, 0);
	write_ptm(g, ptm, true);
	pt_model_free(g);
	struct pt_summary_opts so;
	pt_summary_opts_init(&so);
	so.views = 1u << PT_SV_MODEL;
	assert_true(pt_summary_tap_probe(PT_PTM_SOURCE(ptm), &so));
	so.sel.steps_given = true;
	so.sel.step_a = 2;
	so.sel.step_b = 3;
	assert_false(pt_summary_tap_probe(PT_PTM_SOURCE(ptm), &so));
	scratch_close(dir, ptm, txt);
}

static void test_raw_stream_api(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-rawapi-XXXXXX";
	char ptm[256], txt[256];
	scratch_open(dir, ptm, txt);
	for (int round = 0; round < 8; round++) {
		rng_state = 0x5a5a0000u + (uint64_t)round;
		struct pt_model *m = random_gpu_model(round % 2, round % 4 == 3);
		write_ptm(m, ptm, round % 3 != 0);
		struct pt_model *back = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_ptm_read(ptm, &back, &e), 0);
		for (int k = 0; k < 3; k++) { /* api; kernels of every GPU; kernels of GPU 1 */
			const char *tn = k ? "kernels" : "api";
			int64_t dev = k == 2 ? 1 : -1;
			struct pt_table *t = NULL;
			assert_int_equal(pt_pass_raw(back, tn, dev, &t, &e), 0);
			struct text_rows a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
			for (size_t r = 0; r < t->nrows; r++) {
				cells_text(&a.buf, &a.len, pt_table_row(t, r), t->ncols);
				a.n++;
			}
			rows_ncols = t->ncols;
			assert_int_equal(pt_pass_raw_stream(PT_PTM_SOURCE(ptm), tn, dev, NULL, collect_row, &b, &e), 0);
			assert_true(k == 2 || a.n > 200);
			assert_int_equal(a.n, b.n);
			if (a.n)
				assert_string_equal(a.buf, b.buf);
			free(a.buf);
			free(b.buf);
			pt_table_free(t);
		}
		pt_model_free(back);
		pt_model_free(m);
	}
	/* cut in half: an error naming the file, and no row */
	struct stat st;
	assert_int_equal(stat(ptm, &st), 0);
	assert_int_equal(truncate(ptm, st.st_size / 2), 0);
	struct text_rows b = { NULL, 0, 0 };
	struct pt_err *e = NULL;
	rows_ncols = 7;
	assert_int_not_equal(pt_pass_raw_stream(PT_PTM_SOURCE(ptm), "api", -1, NULL, collect_row, &b, &e), 0);
	assert_int_equal(b.n, 0);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "truncated model"));
	free(msg);
	pt_err_free(e);
	scratch_close(dir, ptm, txt);
}

/* The event tables' row order: device index, start, stream, model order. */
static void test_raw_order(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d0 = pt_model_device(m, PT_DEV_NPU, 5), d1 = pt_model_device(m, PT_DEV_NPU, 2);
	uint32_t s7 = pt_model_track(m, d0, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t s3 = pt_model_track(m, d0, PT_TRACK_STREAM, 3, "stream 3");
	uint32_t t1 = pt_model_track(m, d1, PT_TRACK_STREAM, 1, "stream 1");
	/* (track, start, task): rows come out as the task numbers say */
	static const struct {
		int track;
		int64_t start;
		uint64_t task;
	} evs[] = { { 2, 10, 7 }, { 0, 300, 5 }, { 1, 300, 4 }, { 0, 100, 1 }, { 1, 100, 2 },
		    { 1, 100, 3 }, { 2, 5, 6 }, { 0, 50, 0 + 100 } };
	const uint32_t tk[3] = { s7, s3, t1 };
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		pt_model_add_event(m, tk[evs[i].track], 0, PT_EV_TASK, evs[i].start, 1, 0, PT_NONE, evs[i].task);
	struct pt_table *t = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_raw(m, "tasks", -1, &t, &e), 0);
	static const int64_t want[][3] = { { 5, 7, 100 }, { 5, 3, 2 }, { 5, 3, 3 }, { 5, 7, 1 },
					   { 5, 3, 4 }, { 5, 7, 5 }, { 2, 1, 6 },  { 2, 1, 7 } };
	assert_int_equal(t->nrows, 8);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_int_equal(I(t, r, "device_id"), want[r][0]);
		assert_int_equal(I(t, r, "stream_id"), want[r][1]);
		assert_int_equal(I(t, r, "task_id"), want[r][2]);
	}
	pt_table_free(t);
	assert_int_equal(pt_pass_raw(m, "tasks", 2, &t, &e), 0); /* --device 2 */
	assert_int_equal(t->nrows, 2);
	assert_int_equal(I(t, 0, "task_id"), 6);
	pt_table_free(t);
	pt_model_free(m);
}

static int cmp_ll(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median of the kernel and api views (issue #28): exact through the buffered, merged runs, for
 * counts below, at and past the buffer (SUM_DURS_BUF) and several merges, odd and even, with
 * repeats, negative and large durations; of an even count the mean of the middle two, half up. */
static void test_item_median(void **state)
{
	(void)state;
	static const size_t counts[] = { 1, 2, 3, 511, 512, 513, 1024, 2000, 5001 };
	uint64_t seed = 7;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		size_t n = counts[c];
		int64_t *v = malloc(n * sizeof(*v));
		struct item x = { 0 };
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			int64_t d = (int64_t)(seed >> 40) % 3000; /* many repeats */
			if (i % 97 == 5)
				d = -d; /* never from a model, but sorted right */
			if (i % 389 == 7)
				d = (int64_t)1 << 50;
			v[i] = d;
			sum_item_dur(&x, d);
		}
		qsort(v, n, sizeof(*v), cmp_ll);
		int64_t a = v[(n - 1) / 2], b = v[n / 2];
		int64_t want = (a + b) >= 0 ? (a + b + 1) / 2 : -((-(a + b) + 1) / 2);
		assert_int_equal(sum_item_median(&x), want);
		/* asking again (the buffer already merged) gives the same */
		assert_int_equal(sum_item_median(&x), want);
		sum_item_free(&x);
		free(v);
	}
	struct item none = { 0 };
	assert_int_equal(sum_item_median(&none), 0);
	/* 10 and 5: 7.5 rounds to 8, as avg does */
	struct item two = { 0 };
	sum_item_dur(&two, 10);
	sum_item_dur(&two, 5);
	assert_int_equal(sum_item_median(&two), 8);
	sum_item_free(&two);
}

/* The gpu view's percentiles from the run form (struct sum_durs, issue #30): the values at two ranks
 * in one walk equal the sorted samples' nearest-rank P50 and P90, for counts below, at and past the
 * buffer, one value repeated, values past 2^32 ns and negative ones; the count merges the buffer. */
static void test_durs_ranks(void **state)
{
	(void)state;
	static const size_t counts[] = { 1, 2, 9, 10, 511, 512, 513, 3000 };
	uint64_t seed = 11;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		for (int same = 0; same < 2; same++) {
			size_t n = counts[c];
			int64_t *v = malloc(n * sizeof(*v));
			struct sum_durs s = { 0 };
			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				int64_t d = same ? 4242 : (int64_t)(seed >> 44) % 700;
				if (!same && i % 53 == 3)
					d += INT64_C(5) << 32; /* past 2^32 ns */
				if (!same && i % 71 == 9)
					d = -d;
				v[i] = d;
				sum_durs_add(&s, d);
			}
			qsort(v, n, sizeof(*v), cmp_ll);
			assert_int_equal(sum_durs_count(&s), n);
			uint64_t r50 = (50 * n + 99) / 100 - 1, r90 = (90 * n + 99) / 100 - 1;
			int64_t a = -1, b = -1;
			sum_durs_ranks(&s, r50, r90, &a, &b);
			assert_int_equal(a, v[r50]);
			assert_int_equal(b, v[r90]);
			/* the same rank twice, and the ends */
			sum_durs_ranks(&s, r90, r90, &a, &b);
			assert_int_equal(a, v[r90]);
			assert_int_equal(b, v[r90]);
			sum_durs_ranks(&s, 0, n - 1, &a, &b);
			assert_int_equal(a, v[0]);
			assert_int_equal(b, v[n - 1]);
			/* memory with the distinct values: one run for a value repeated */
			if (same)
				assert_int_equal(s.runs.n, 2);
			sum_durs_free(&s);
			free(v);
		}
	}
	struct sum_durs none = { 0 };
	assert_int_equal(sum_durs_count(&none), 0);
	sum_durs_free(&none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_npu_operator_kernel),
		cmocka_unit_test(test_vocabulary),
		cmocka_unit_test(test_npu_overview_model_steps),
		cmocka_unit_test(test_gpu_kernel_unattributed),
		cmocka_unit_test(test_gpu_host_model),
		cmocka_unit_test(test_text_layout),
		cmocka_unit_test(test_text_layout_paddle),
		cmocka_unit_test(test_boxed_presentation),
		cmocka_unit_test(test_json_rows_apart),
		cmocka_unit_test(test_job3_fixture),
		cmocka_unit_test(test_stream_matches_memory),
		cmocka_unit_test(test_summary_tap),
		cmocka_unit_test(test_stream_stdin),
		cmocka_unit_test(test_stream_gpu),
		cmocka_unit_test(test_stream_gpu_launch),
		cmocka_unit_test(test_stream_calls_ahead),
		cmocka_unit_test(test_watermark_lag),
		cmocka_unit_test(test_stream_gpu_lag),
		cmocka_unit_test(test_raw_stream_api),
		cmocka_unit_test(test_raw_order),
		cmocka_unit_test(test_item_median),
		cmocka_unit_test(test_durs_ranks),
		cmocka_unit_test(test_gpu_coverage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
