/*
 * pass-flops on models built with the builder API: counters vs analytical,
 * per-op rates and utilisation, unknown ops, scopes and folded stacks,
 * steps and model figures (ascend.md §3.9), GPU operator ranges with the
 * nesting rule and the peak table (cupti.md §6.12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "pass/pass-flops.h"
#include "support/diag.h"
#include "support/err.h"
#include "table/table.h"

static uint32_t add_op(struct pt_model *m, uint32_t dev, const char *name, const char *type)
{
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = dev;
	op.name = pt_model_str(m, name);
	op.type = pt_model_str(m, type);
	op.task_type = -1;
	op.has_graph = true;
	return pt_model_add_op(m, &op);
}

static void tensor(struct pt_model *m, uint32_t op, bool out, uint32_t idx, const char *fmt, const int64_t *s,
		   uint32_t n)
{
	pt_op_add_tensor(&m->ops.v[op], out, idx, pt_model_str(m, fmt), 40, pt_model_str(m, "NUMBER_TYPE_FLOAT32"),
			 s, n);
}

/*
 * One NPU device, peak 1e12 FLOPS (1 GFLOP per ms). Two steps of 1 ms with
 * FP at +100 us and BP at +900 us; in each step:
 *   MatMul (64x32)·(32x16) analytical 65536, and counters 2 records of
 *   cube_fp16 = 10 and 12 -> mean 11 · 8192 = 90112, 100 us
 *   Mul (1000 elements), 50 us; Adam (unknown), 20 us; an unnamed
 *   communication task (its own stream), 30 us.
 */
static struct pt_model *npu_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t dev = pt_model_device(m, PT_DEV_NPU, 3);
	m->devices.v[dev].peak_flops = 1e12;
	uint32_t mm = add_op(m, dev, "Default/net/fc/MatMul-op1", "MatMul");
	const int64_t a[] = { 64, 32 }, b[] = { 32, 16 }, c[] = { 64, 16 }, e[] = { 1000 };
	tensor(m, mm, false, 0, "ND", a, 2);
	tensor(m, mm, false, 1, "ND", b, 2);
	tensor(m, mm, true, 0, "ND", c, 2);
	uint32_t mul = add_op(m, dev, "Gradients/Default/net/gradMul/Mul-op2", "Mul");
	tensor(m, mul, false, 0, "ND", e, 1);
	tensor(m, mul, true, 0, "ND", e, 1);
	uint32_t adam = add_op(m, dev, "Default/optimizer/Adam-op3", "Adam");
	uint32_t tr = pt_model_track(m, dev, PT_TRACK_STREAM, 1, "stream 1");
	uint32_t tc = pt_model_track(m, dev, PT_TRACK_STREAM, 9, "stream 9");
	for (int s = 0; s < 2; s++) {
		int64_t t0 = 1000000 + s * 1000000;
		struct pt_step st;
		memset(&st, 0, sizeof(st));
		st.device = dev;
		st.step = (uint32_t)s + 1;
		st.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END;
		st.start = t0;
		st.fp = t0 + 100000;
		st.bp = t0 + 900000;
		st.end = t0 + 1000000;
		pt_model_add_step(m, &st);
		pt_model_add_event(m, tr, m->ops.v[mm].name, PT_EV_TASK, t0 + 100000, 100000, 0, mm, 1);
		pt_model_add_event(m, tr, m->ops.v[mul].name, PT_EV_TASK, t0 + 300000, 50000, 0, mul, 2);
		/* Adam after BP: in the step, outside FP..BP */
		pt_model_add_event(m, tr, m->ops.v[adam].name, PT_EV_TASK, t0 + 950000, 20000, 0, adam, 3);
		pt_model_add_event(m, tc, 0, PT_EV_TASK, t0 + 400000, 30000, 0, PT_NONE, 7);
		struct pt_aicore r = { dev, mm + 1, 1, 1, { (uint64_t)(10 + 2 * s), 0, 0, 0, 0, 0, 0, 0 } };
		pt_vec_push(&m->aicore, r);
	}
	return m;
}

static struct pt_table *view(struct pt_model *m, enum pt_flops_by by, int depth, bool folded, struct pt_table **fold)
{
	struct pt_index *x = pt_index_new(m);
	struct pt_flops_opts o;
	memset(&o, 0, sizeof(o));
	o.by = by;
	o.scope_depth = depth;
	o.folded = folded;
	o.sel.device = -1;
	struct pt_table *t[2] = { NULL, NULL };
	size_t n = 0;
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_flops(m, x, &o, t, &n, &d, &e), 0);
	assert_int_equal(n, folded ? 2 : 1);
	if (fold)
		*fold = t[1];
	pt_diag_free(&d);
	pt_index_free(x);
	return t[0];
}

static const struct pt_cell *cell(struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	return &pt_table_row(t, r)[c]; /* (the steps view's rows are made when read) */
}

static int64_t ival(struct pt_table *t, size_t r, const char *col)
{
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_INT);
	return c->u.i;
}

static double dval(struct pt_table *t, size_t r, const char *col)
{
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_DOUBLE);
	return c->u.d;
}

static void sval(struct pt_table *t, size_t r, const char *col, const char *want)
{
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_STR);
	assert_int_equal(c->len, strlen(want));
	assert_memory_equal(c->u.s, want, c->len);
}

static bool is_null(struct pt_table *t, size_t r, const char *col)
{
	return cell(t, r, col)->kind == PT_CELL_NULL;
}

static void test_ops(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_table *t = view(m, PT_FLOPS_BY_OP, 0, false, NULL);
	assert_int_equal(t->nrows, 4);
	/* first appearance: MatMul, Mul, unnamed communication, Adam */
	sval(t, 0, "type", "MatMul");
	sval(t, 0, "source", "counters");
	assert_int_equal(ival(t, 0, "flops"), 11 * 8192);
	assert_int_equal(ival(t, 0, "analytical_flops"), 2 * 64 * 16 * 32);
	assert_int_equal(ival(t, 0, "counter_records"), 2);
	assert_int_equal(ival(t, 0, "counter_spread"), 2 * 8192);
	assert_true(dval(t, 0, "counter_flops") == 90112.0);
	assert_int_equal(ival(t, 0, "calls"), 2);
	assert_int_equal(ival(t, 0, "total_flops"), 2 * 90112);
	/* GFLOPS = FLOPs per ns: 90112 / 100000; utilisation against 1000 GFLOPS */
	assert_true(fabs(dval(t, 0, "gflops") - 0.90112) < 1e-12);
	assert_true(fabs(dval(t, 0, "util_pct") - 0.090112) < 1e-12);
	sval(t, 0, "class", "matmul");
	assert_int_equal(ival(t, 0, "bytes"), 4 * (64 * 32 + 32 * 16 + 64 * 16));
	assert_true(is_null(t, 0, "bound")); /* Ascend: no bandwidth */
	sval(t, 1, "source", "analytical");
	assert_int_equal(ival(t, 1, "flops"), 1000);
	sval(t, 2, "op", "(unnamed communication tasks)");
	sval(t, 2, "source", "communication");
	assert_int_equal(ival(t, 2, "flops"), 0);
	sval(t, 3, "type", "Adam");
	sval(t, 3, "source", "unknown");
	assert_true(is_null(t, 3, "flops"));
	assert_true(is_null(t, 3, "gflops"));
	pt_table_free(t);
	pt_model_free(m);
}

static void test_steps_model(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_table *t = view(m, PT_FLOPS_BY_STEP, 0, false, NULL);
	assert_int_equal(t->nrows, 2);
	for (size_t r = 0; r < 2; r++) {
		assert_int_equal(ival(t, r, "device_id"), 3);
		assert_int_equal(ival(t, r, "flops"), 90112 + 1000);
		assert_int_equal(ival(t, r, "fpbp"), 800000);
		assert_int_equal(ival(t, r, "fpbp_flops"), 90112 + 1000);
		assert_true(fabs(dval(t, r, "gflops") - 91112.0 / 800000) < 1e-12);
		assert_true(fabs(dval(t, r, "mfu_pct") - 91112.0 / 800000 / 10) < 1e-12);
		assert_int_equal(ival(t, r, "unknown_calls"), 1);
		assert_int_equal(ival(t, r, "unknown_time"), 20000);
	}
	pt_table_free(t);
	t = view(m, PT_FLOPS_BY_MODEL, 0, false, NULL);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(ival(t, 0, "total_flops"), 2 * 91112);
	assert_int_equal(ival(t, 0, "steps"), 2);
	assert_int_equal(ival(t, 0, "fpbp"), 1600000);
	assert_int_equal(ival(t, 0, "fpbp_flops"), 2 * 91112);
	assert_true(fabs(dval(t, 0, "mfu_pct") - 91112.0 / 800000 / 10) < 1e-12);
	assert_true(dval(t, 0, "peak_tflops") == 1.0);
	sval(t, 0, "peak_source", "info.json");
	assert_int_equal(ival(t, 0, "known_ops"), 3);
	assert_int_equal(ival(t, 0, "unknown_ops"), 1);
	assert_int_equal(ival(t, 0, "unknown_calls"), 2);
	assert_int_equal(ival(t, 0, "unknown_time"), 40000);
	/* the reference summary: mean of op GFLOPS (MatMul, Mul) */
	double g = (90112.0 / 100000 + 1000.0 / 50000) / 2;
	assert_true(fabs(dval(t, 0, "op_mean_gflops") - g) < 1e-12);
	pt_table_free(t);
	pt_model_free(m);
}

static void test_scopes_folded(void **state)
{
	(void)state;
	struct pt_model *m = npu_model();
	struct pt_table *f = NULL;
	struct pt_table *t = view(m, PT_FLOPS_BY_SCOPE, 0, true, &f);
	/* Total, Default, Default/net, Default/net/fc, Gradients, Gradients/Default,
	 * Gradients/Default/net, Gradients/Default/net/gradMul, Default/optimizer */
	assert_int_equal(t->nrows, 9);
	sval(t, 0, "scope", "Total");
	assert_int_equal(ival(t, 0, "flops"), 2 * 91112);
	assert_int_equal(ival(t, 0, "ops"), 3);
	assert_int_equal(ival(t, 0, "unknown_ops"), 1);
	sval(t, 3, "scope", "Default/net/fc");
	sval(t, 3, "label", "fc(Default)");
	sval(t, 3, "parent", "Default/net");
	assert_int_equal(ival(t, 3, "depth"), 3);
	sval(t, 5, "scope", "Gradients/Default");
	sval(t, 5, "label", "Default(Gradients)");
	sval(t, 8, "scope", "Default/optimizer");
	assert_int_equal(ival(t, 8, "flops"), 0);
	assert_int_equal(ival(t, 8, "unknown_ops"), 1);
	assert_int_equal(f->nrows, 2);
	sval(f, 0, "stack", "Default;net;fc;MatMul-op1");
	assert_int_equal(ival(f, 0, "flops"), 2 * 90112);
	sval(f, 1, "stack", "Gradients;Default;net;gradMul;Mul-op2");
	pt_table_free(t);
	pt_table_free(f);
	t = view(m, PT_FLOPS_BY_SCOPE, 1, true, &f);
	assert_int_equal(t->nrows, 3);
	sval(f, 0, "stack", "Default");
	sval(f, 1, "stack", "Gradients");
	pt_table_free(t);
	pt_table_free(f);
	t = view(m, PT_FLOPS_BY_TYPE, 0, false, NULL);
	assert_int_equal(t->nrows, 4);
	sval(t, 3, "type", "Adam");
	assert_int_equal(ival(t, 3, "unknown_ops"), 1);
	assert_true(is_null(t, 3, "total_flops"));
	pt_table_free(t);
	pt_model_free(m);

	size_t ns;
	assert_string_equal(pt_flops_top_scope("Gradients/recompute_Default/a/Mul-op1", &ns), "recompute_Gradients");
	assert_int_equal(ns, 3);
	assert_null(pt_flops_top_scope("Default/InitDataSetQueue-op1", &ns));
	assert_null(pt_flops_top_scope("Other/a/b", &ns));
	assert_null(pt_flops_top_scope("MatMul-op1", &ns));
}

/* GPU: aten::matmul around aten::mm (counted), a conv2d (unknown), kernels linked to the mm range. */
static void test_gpu(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 1);
	m->devices.v[cpu].pid = 1;
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[gpu].pid = 1;
	m->devices.v[gpu].name = strdup("NVIDIA H100 80GB HBM3");
	uint32_t th = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 11, "thread 11");
	uint32_t st = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t op = pt_model_str(m, "Operator");
	const char *texts[] = { "aten::matmul, seq = 1, sizes = [[64, 128], [128, 32]]",
				"aten::mm, seq = 2, sizes = [[64, 128], [128, 32]]",
				"aten::conv2d, seq = 3, sizes = [[1, 3, 8, 8], [4, 3, 3, 3]]" };
	const char *labels[] = { "aten::matmul", "aten::mm", "aten::conv2d" };
	int64_t starts[] = { 1000, 1100, 5000 }, durs[] = { 2000, 1500, 1000 };
	for (int i = 0; i < 3; i++) {
		pt_model_add_event(m, th, pt_model_str(m, texts[i]), PT_EV_RANGE, starts[i], durs[i], 0, PT_NONE, 0);
		struct pt_range_info ri = { (uint32_t)i, op, pt_model_str(m, labels[i]), 0, 0, (uint64_t)i + 1, 0 };
		pt_vec_push(&m->ranges, ri);
	}
	/* launch API inside mm, two kernels of 300 and 200 ns */
	pt_model_add_event(m, th, pt_model_str(m, "cudaLaunchKernel"), PT_EV_API, 1200, 10, 77, PT_NONE, 0);
	pt_model_add_event(m, st, pt_model_str(m, "gemm"), PT_EV_KERNEL, 3000, 300, 77, PT_NONE, 0);
	pt_model_add_event(m, st, pt_model_str(m, "gemm2"), PT_EV_KERNEL, 3400, 200, 77, PT_NONE, 0);
	struct pt_gpu_link l1 = { 4, 3, 2 }, l2 = { 5, 3, 2 };
	pt_vec_push(&m->links, l1);
	pt_vec_push(&m->links, l2);
	/* a step range (event 6) around everything: pass-steps needs one on this model */
	pt_model_add_event(m, th, pt_model_str(m, "ProfilerStep#1"), PT_EV_RANGE, 500, 9500, 0, PT_NONE, 0);
	struct pt_table *t = view(m, PT_FLOPS_BY_OP, 0, false, NULL);
	assert_int_equal(t->nrows, 2);
	sval(t, 0, "type", "aten::mm");
	assert_int_equal(ival(t, 0, "device_id"), 0);
	assert_int_equal(ival(t, 0, "flops"), 2 * 64 * 32 * 128);
	assert_int_equal(ival(t, 0, "total"), 500);
	assert_true(fabs(dval(t, 0, "gflops") - 524288.0 / 500) < 1e-9);
	assert_true(fabs(dval(t, 0, "util_pct") - 524288.0 / 500 * 1e9 / 989.5e12 * 100) < 1e-9);
	sval(t, 1, "type", "aten::conv2d");
	sval(t, 1, "source", "unknown");
	pt_table_free(t);
	t = view(m, PT_FLOPS_BY_MODEL, 0, false, NULL);
	sval(t, 0, "peak_source", "table:H100 SXM fp16");
	assert_int_equal(ival(t, 0, "steps"), 1);
	assert_int_equal(ival(t, 0, "fpbp"), 9500); /* GPU: the step window */
	assert_int_equal(ival(t, 0, "fpbp_flops"), 2 * 64 * 32 * 128);
	pt_table_free(t);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_steps_model),
		cmocka_unit_test(test_scopes_folded),
		cmocka_unit_test(test_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
