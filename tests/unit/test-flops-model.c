/*
 * The FLOPs models (lib/pass/flops-model.c) op by op against hand-computed
 * values (ascend.md §3.9, cupti.md §6.12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pass/flops-model.h"

#define T(fmt, ...) { true, (const int64_t[]){ __VA_ARGS__ }, \
	(uint32_t)(sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)), fmt, "float16" }
#define SCALAR { true, NULL, 0, "ND", "float32" }
#define NONE { false, NULL, 0, NULL, NULL }

static struct pt_fm_result run1(const char *type, const struct pt_fm_tensor *in, size_t nin,
				const struct pt_fm_tensor *out, size_t nout)
{
	struct pt_fm_op op = { type, in, nin, out, nout };
	struct pt_fm_result r;
	pt_flops_model(&op, &r);
	return r;
}

#define KNOWN(r, v) do { assert_true((r).known); assert_int_equal((r).flops, (v)); } while (0)

static void test_counters(void **state)
{
	(void)state;
	uint64_t p[8] = { 1000, 10, 100, 1000, 10000, 1, 2, 99 };
	/* 1000·8192 + 10·16384 + 100·32 + 1000·128 + 10000·64 + 1·64 + 2·32 */
	assert_true(pt_flops_counters(p) == (unsigned __int128)9127168);
	uint64_t q[8] = { 0, 0, 0, 0, 0, 0, 0, 12345 }; /* the unused counter counts nothing */
	assert_true(pt_flops_counters(q) == 0);
	uint64_t big[8] = { UINT64_MAX, 0, 0, 0, 0, 0, 0, 0 };
	assert_true(pt_flops_counters(big) == (unsigned __int128)UINT64_MAX * 8192);
}

/* JOB3's MatMul-op74 and op119 (ascend.md §6) */
static void test_matmul_nz(void **state)
{
	(void)state;
	struct pt_fm_tensor in[2] = { T("FRACTAL_NZ", 156, 1000, 16, 16), T("FRACTAL_NZ", 64, 156, 16, 16) };
	struct pt_fm_tensor out[1] = { T("FRACTAL_NZ", 64, 1000, 16, 16) };
	struct pt_fm_result r = run1("MatMul", in, 2, out, 1);
	KNOWN(r, 81788928000ULL);
	assert_string_equal(r.cls, "matmul");
	struct pt_fm_tensor in2[2] = { T("FRACTAL_NZ", 8, 1000, 16, 16), T("FRACTAL_NZ", 1, 1000, 16, 16) };
	struct pt_fm_tensor out2[1] = { T("FRACTAL_NZ", 1, 8, 16, 16) };
	r = run1("MatMul", in2, 2, out2, 1);
	KNOWN(r, 65536000);
	/* input 1 does not check: unknown */
	struct pt_fm_tensor in3[2] = { T("FRACTAL_NZ", 8, 1000, 16, 16), T("FRACTAL_NZ", 2, 1000, 16, 16) };
	r = run1("MatMul", in3, 2, out2, 1);
	assert_false(r.known);
}

static void test_matmul_nd_batch_bias(void **state)
{
	(void)state;
	/* BatchMatMul (4, 8, 16) x (4, 16, 32) -> (4, 8, 32): 2·4·8·32·16 */
	struct pt_fm_tensor in[2] = { T("ND", 4, 8, 16), T("ND", 4, 16, 32) };
	struct pt_fm_tensor out[1] = { T("ND", 4, 8, 32) };
	KNOWN(run1("BatchMatMul", in, 2, out, 1), 32768);
	/* A stored transposed (16, 8): K = elems(A) / M still 16 */
	struct pt_fm_tensor in2[2] = { T("DefaultFormat", 16, 8), T("DefaultFormat", 16, 32) };
	struct pt_fm_tensor out2[1] = { T("DefaultFormat", 8, 32) };
	KNOWN(run1("MatMul", in2, 2, out2, 1), 2 * 8 * 32 * 16);
	/* Dense with a bias: + M·N */
	struct pt_fm_tensor in3[3] = { T("ND", 8, 16), T("ND", 16, 32), T("ND", 32) };
	KNOWN(run1("Dense", in3, 3, out2, 1), 2 * 8 * 32 * 16 + 8 * 32);
	/* MatMul ignores a third input */
	KNOWN(run1("MatMul", in3, 3, out2, 1), 2 * 8 * 32 * 16);
	/* unknown format */
	struct pt_fm_tensor in4[2] = { T("FracZ", 16, 8), T("ND", 16, 32) };
	assert_false(run1("MatMul", in4, 2, out2, 1).known);
}

static void test_conv(void **state)
{
	(void)state;
	/* x (2, 3, 32, 32), W (16, 3, 3, 3), y NCHW (2, 16, 30, 30): 2·432·2·900 */
	struct pt_fm_tensor in[2] = { T("NCHW", 2, 3, 32, 32), T("NCHW", 16, 3, 3, 3) };
	struct pt_fm_tensor out[1] = { T("NCHW", 2, 16, 30, 30) };
	KNOWN(run1("Conv2D", in, 2, out, 1), 2ULL * 432 * 2 * 900);
	/* with a bias: + elems(y) */
	struct pt_fm_tensor in3[3] = { T("NCHW", 2, 3, 32, 32), T("NCHW", 16, 3, 3, 3), T("ND", 16) };
	KNOWN(run1("Conv2D", in3, 3, out, 1), 2ULL * 432 * 2 * 900 + 2 * 16 * 900);
	/* NC1HWC0 output (2, 1, 30, 30, 16), FracZ weight (9, 1, 16, 16) = 2304 elements */
	struct pt_fm_tensor in5[2] = { T("NC1HWC0", 2, 1, 32, 32, 16), T("FracZ", 9, 1, 16, 16) };
	struct pt_fm_tensor out5[1] = { T("NC1HWC0", 2, 1, 30, 30, 16) };
	KNOWN(run1("Conv2D", in5, 2, out5, 1), 2ULL * 2304 * 2 * 900);
	/* input gradient: dy = input 0 (NHWC 2, 30, 30, 16), W input 1 */
	struct pt_fm_tensor dx[2] = { T("NHWC", 2, 30, 30, 16), T("NCHW", 16, 3, 3, 3) };
	struct pt_fm_tensor dxo[1] = { T("NHWC", 2, 32, 32, 3) };
	KNOWN(run1("Conv2DBackpropInput", dx, 2, dxo, 1), 2ULL * 432 * 2 * 900);
	/* weight gradient: dW = output 0 */
	struct pt_fm_tensor dw[2] = { T("NCHW", 2, 16, 30, 30), T("NCHW", 2, 3, 32, 32) };
	struct pt_fm_tensor dwo[1] = { T("NCHW", 16, 3, 3, 3) };
	KNOWN(run1("Conv2DBackpropFilter", dw, 2, dwo, 1), 2ULL * 432 * 2 * 900);
	/* 3-D */
	struct pt_fm_tensor c3[2] = { T("NCDHW", 1, 2, 8, 8, 8), T("NCDHW", 4, 2, 3, 3, 3) };
	struct pt_fm_tensor c3o[1] = { T("NCDHW", 1, 4, 6, 6, 6) };
	KNOWN(run1("Conv3D", c3, 2, c3o, 1), 2ULL * 216 * 1 * 216);
	/* output in an unknown format */
	struct pt_fm_tensor bad[1] = { T("HWCN", 30, 30, 16, 2) };
	assert_false(run1("Conv2D", in, 2, bad, 1).known);
}

static void test_attention(void **state)
{
	(void)state;
	/* q (2, 4, 128, 64), k (2, 4, 256, 64), v (2, 4, 256, 32) */
	struct pt_fm_tensor in[3] = { T("ND", 2, 4, 128, 64), T("ND", 2, 4, 256, 64), T("ND", 2, 4, 256, 32) };
	uint64_t base = 2ULL * 2 * 4 * 128 * 256;
	KNOWN(run1("FlashAttentionScore", in, 3, NULL, 0), base * (64 + 32));
	KNOWN(run1("FlashAttentionScoreGrad", in, 3, NULL, 0), base * (3 * 64 + 2 * 32));
	KNOWN(run1("aten::scaled_dot_product_attention", in, 3, NULL, 0), base * (64 + 32));
	struct pt_fm_tensor bw[4] = { T("ND", 2, 4, 128, 32), T("ND", 2, 4, 128, 64), T("ND", 2, 4, 256, 64),
				      T("ND", 2, 4, 256, 32) };
	KNOWN(run1("aten::_scaled_dot_product_flash_attention_backward", bw, 4, NULL, 0), base * (3 * 64 + 2 * 32));
	/* BSH layout (3-D): unknown */
	struct pt_fm_tensor bsh[3] = { T("ND", 2, 128, 256), T("ND", 2, 256, 256), T("ND", 2, 256, 256) };
	assert_false(run1("FlashAttentionScore", bsh, 3, NULL, 0).known);
}

static void test_elementwise_reduce_norm(void **state)
{
	(void)state;
	struct pt_fm_tensor x[2] = { T("ND", 16000, 1024), T("ND", 1024) };
	struct pt_fm_tensor y[1] = { T("ND", 16000, 1024) };
	KNOWN(run1("BiasAdd", x, 2, y, 1), 16384000); /* JOB3's BiasAdd-op77 */
	KNOWN(run1("ReLU", x, 1, y, 1), 16384000);
	struct pt_fm_tensor three[3] = { T("ND", 10, 10), T("ND", 10, 10), T("ND", 10, 10) };
	struct pt_fm_tensor o10[1] = { T("ND", 10, 10) };
	KNOWN(run1("AddN", three, 3, o10, 1), 200);
	KNOWN(run1("ReduceSum", x, 1, o10, 1), 16384000);
	KNOWN(run1("Softmax", x, 1, y, 1), 5ULL * 16384000);
	KNOWN(run1("SoftmaxGrad", x, 1, y, 1), 4ULL * 16384000);
	KNOWN(run1("LayerNorm", x, 2, y, 1), 5ULL * 16384000); /* with a scale input */
	KNOWN(run1("LayerNorm", x, 1, y, 1), 4ULL * 16384000);
	KNOWN(run1("BNInfer", x, 1, y, 1), 2ULL * 16384000);
	KNOWN(run1("BNTrainingReduce", x, 1, y, 1), 2ULL * 16384000);
	KNOWN(run1("BNTrainingUpdate", x, 1, y, 1), 3ULL * 16384000);
	KNOWN(run1("MaxPool", x, 1, y, 1), 16384000);
	struct pt_fm_tensor s[1] = { SCALAR };
	KNOWN(run1("Mul", s, 1, s, 1), 1); /* scalar: one element */
	/* known zeros and unknowns */
	struct pt_fm_result r = run1("GatherV2", x, 2, y, 1);
	KNOWN(r, 0);
	assert_string_equal(r.cls, "data-movement");
	KNOWN(run1("AllReduce", NULL, 0, NULL, 0), 0);
	KNOWN(run1("HcomAllGather", NULL, 0, NULL, 0), 0);
	r = run1("Adam", x, 2, y, 1);
	assert_false(r.known);
	assert_null(r.cls);
	assert_false(run1("SigmoidCrossEntropyWithLogits", x, 2, y, 1).known);
	/* element-wise without an output shape: unknown */
	assert_false(run1("Mul", x, 2, NULL, 0).known);
}

static void test_aten(void **state)
{
	(void)state;
	struct pt_fm_tensor mm[2] = { T("", 64, 1024), T("", 1024, 512) };
	KNOWN(run1("aten::mm", mm, 2, NULL, 0), 2ULL * 64 * 512 * 1024);
	/* addmm(C, A, B): + M·N for the bias (ascend.md §3.9) */
	struct pt_fm_tensor addmm[5] = { T("", 512), T("", 64, 1024), T("", 1024, 512), NONE, NONE };
	KNOWN(run1("aten::addmm", addmm, 5, NULL, 0), 2ULL * 64 * 512 * 1024 + 64 * 512);
	struct pt_fm_tensor bmm[2] = { T("", 8, 64, 32), T("", 8, 32, 16) };
	KNOWN(run1("aten::bmm", bmm, 2, NULL, 0), 2ULL * 8 * 64 * 16 * 32);
	/* matmul broadcasting (1, 64, 32) x (8, 32, 16) and vector forms */
	struct pt_fm_tensor mb[2] = { T("", 1, 64, 32), T("", 8, 32, 16) };
	KNOWN(run1("aten::matmul", mb, 2, NULL, 0), 2ULL * 8 * 64 * 16 * 32);
	struct pt_fm_tensor mv[2] = { T("", 64, 32), T("", 32) };
	KNOWN(run1("aten::matmul", mv, 2, NULL, 0), 2ULL * 64 * 32);
	/* linear(x (4, 10, 128), W (256, 128), b (256)) */
	struct pt_fm_tensor lin[3] = { T("", 4, 10, 128), T("", 256, 128), T("", 256) };
	KNOWN(run1("aten::linear", lin, 3, NULL, 0), 2ULL * 40 * 256 * 128 + 40 * 256);
	struct pt_fm_tensor lin2[3] = { T("", 4, 10, 128), T("", 256, 128), { true, NULL, 0, NULL, NULL } };
	KNOWN(run1("aten::linear", lin2, 3, NULL, 0), 2ULL * 40 * 256 * 128);
	/* element-wise: broadcast of the inputs; in-place forms */
	struct pt_fm_tensor add[3] = { T("", 4, 1, 8), T("", 3, 1), { true, NULL, 0, NULL, NULL } };
	KNOWN(run1("aten::add", add, 3, NULL, 0), 4 * 3 * 8);
	KNOWN(run1("aten::add_", add, 3, NULL, 0), 4 * 3 * 8);
	struct pt_fm_tensor badd[2] = { T("", 4, 2), T("", 3) };
	assert_false(run1("aten::mul", badd, 2, NULL, 0).known);
	struct pt_fm_tensor ln[5] = { T("", 8, 512), { true, NULL, 0, NULL, NULL }, T("", 512), T("", 512), NONE };
	KNOWN(run1("aten::layer_norm", ln, 5, NULL, 0), 5 * 8 * 512);
	ln[2].nshape = 0;
	KNOWN(run1("aten::layer_norm", ln, 5, NULL, 0), 4 * 8 * 512);
	KNOWN(run1("aten::view", NULL, 0, NULL, 0), 0);
	assert_false(run1("aten::conv2d", mm, 2, NULL, 0).known);
	assert_false(run1("aten::mm", bmm, 2, NULL, 0).known);
}

static void test_dtype_and_bytes(void **state)
{
	(void)state;
	assert_int_equal(pt_flops_dtype_size("NUMBER_TYPE_FLOAT16"), 2);
	assert_int_equal(pt_flops_dtype_size("DT_FLOAT"), 4);
	assert_int_equal(pt_flops_dtype_size("float64"), 8);
	assert_int_equal(pt_flops_dtype_size("bool"), 1);
	assert_int_equal(pt_flops_dtype_size("NUMBER_TYPE_INT32"), 4);
	assert_int_equal(pt_flops_dtype_size("UNKNOWN"), 0);
	assert_int_equal(pt_flops_dtype_size(NULL), 0);
	struct pt_fm_tensor in[2] = { T("ND", 8, 16), T("ND", 16, 32) };
	struct pt_fm_tensor out[1] = { T("ND", 8, 32) };
	struct pt_fm_result r = run1("MatMul", in, 2, out, 1);
	assert_true(r.has_bytes);
	assert_int_equal(r.bytes, 2 * (128 + 512 + 256));
	in[1].dtype = "weird";
	r = run1("MatMul", in, 2, out, 1);
	assert_false(r.has_bytes);
	assert_int_equal(pt_flops_peak_col("NUMBER_TYPE_FLOAT32"), PT_PEAK_FP32);
	assert_int_equal(pt_flops_peak_col("bfloat16"), PT_PEAK_BF16);
	assert_int_equal(pt_flops_peak_col(NULL), PT_PEAK_FP16);
}

static void test_gpu_peaks(void **state)
{
	(void)state;
	double f, bw;
	const char *row;
	assert_true(pt_flops_gpu_peak("NVIDIA H100 80GB HBM3", PT_PEAK_FP16, &f, &bw, &row));
	assert_string_equal(row, "H100 SXM");
	assert_true(f == 989.5e12 && bw == 3350e9);
	assert_true(pt_flops_gpu_peak("NVIDIA H100 PCIe", PT_PEAK_FP32, &f, &bw, &row));
	assert_string_equal(row, "H100 PCIe");
	assert_true(f == 51e12);
	assert_true(pt_flops_gpu_peak("NVIDIA A100-SXM4-40GB", PT_PEAK_FP64, &f, &bw, &row));
	assert_string_equal(row, "A100 SXM");
	assert_true(f == 9.7e12 && bw == 1555e9);
	assert_true(pt_flops_gpu_peak("NVIDIA A100 80GB PCIe", PT_PEAK_BF16, &f, &bw, &row));
	assert_string_equal(row, "A100 PCIe");
	assert_true(pt_flops_gpu_peak("Tesla V100-SXM2-16GB", PT_PEAK_FP16, &f, &bw, &row));
	assert_true(f == 125e12);
	assert_true(pt_flops_gpu_peak("NVIDIA H200", PT_PEAK_FP8, &f, &bw, &row));
	assert_true(f == 1979e12 && bw == 4800e9);
	assert_false(pt_flops_gpu_peak("NVIDIA H200 NVL", PT_PEAK_FP16, &f, &bw, &row));
	assert_true(pt_flops_gpu_peak("NVIDIA L40S", PT_PEAK_FP64, &f, &bw, &row));
	assert_true(f == 0); /* no FP64 figure */
	assert_false(pt_flops_gpu_peak("NVIDIA H100", PT_PEAK_FP16, &f, &bw, &row)); /* form factor unknown */
	assert_false(pt_flops_gpu_peak("Ascend 910", PT_PEAK_FP16, &f, &bw, &row));
}

static void test_nvtx(void **state)
{
	(void)state;
	const char *t = "aten::addmm, seq = 41, sizes = [[512], [64, 1024], [1024, 512], [], []]";
	const char *op;
	size_t ol, n, *off;
	int64_t *d;
	assert_int_equal(pt_flops_parse_nvtx(t, strlen(t), &op, &ol, &d, &off, &n), 1);
	assert_int_equal(ol, 11);
	assert_memory_equal(op, "aten::addmm", 11);
	assert_int_equal(n, 5);
	assert_int_equal(off[1] - off[0], 1);
	assert_int_equal(off[2] - off[1], 2);
	assert_int_equal(off[5] - off[4], 0);
	assert_int_equal(d[off[2]], 1024);
	assert_int_equal(d[off[2] + 1], 512);
	free(d);
	free(off);
	const char *u = "aten::relu, seq = 3";
	assert_int_equal(pt_flops_parse_nvtx(u, strlen(u), &op, &ol, &d, &off, &n), 0);
	assert_int_equal(ol, 10);
	const char *bad[] = { "aten::mm, sizes = [[1, 2], [3 4]]", "aten::mm, sizes = [[1,2]]",
			      "aten::mm, sizes = [[1, 2]", "aten::mm, sizes = [[-1]]", "aten::mm, sizes = [[1]]x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pt_flops_parse_nvtx(bad[i], strlen(bad[i]), &op, &ol, &d, &off, &n), -1);
	const char *tail = "aten::mm, sizes = [[2, 3], [3, 4]], input_op_ids = [1]";
	assert_int_equal(pt_flops_parse_nvtx(tail, strlen(tail), &op, &ol, &d, &off, &n), 1);
	assert_int_equal(n, 2);
	free(d);
	free(off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_matmul_nz),
		cmocka_unit_test(test_matmul_nd_batch_bias),
		cmocka_unit_test(test_conv),
		cmocka_unit_test(test_attention),
		cmocka_unit_test(test_elementwise_reduce_norm),
		cmocka_unit_test(test_aten),
		cmocka_unit_test(test_dtype_and_bytes),
		cmocka_unit_test(test_gpu_peaks),
		cmocka_unit_test(test_nvtx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
