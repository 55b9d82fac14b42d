/*
 * FLOPs models: counter formulas, the analytical table, element sizes, the
 * NVTX shape text and the GPU peak table (ascend.md §3.9, cupti.md §6.12).
 */
#include "pass/flops-model.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "support/vec.h"
#include "support/xalloc.h"

typedef unsigned __int128 u128;

/* ---- counters ---- */

u128 pt_flops_counters(const uint64_t p[8])
{
	u128 cube = (u128)p[0] * (16 * 16 * 16 * 2) + (u128)p[1] * (16 * 16 * 32 * 2);
	u128 vec = (u128)p[2] * 32 + (u128)p[3] * 128 + (u128)p[4] * 64 + (u128)p[5] * 64 + (u128)p[6] * 32;
	return cube + vec;
}

/* ---- data types ---- */

/* Upper-case copy of a dtype name without its prefix ("NUMBER_TYPE_", "DT_", "kNumberType", "torch."). */
static void norm_dtype(const char *d, char *buf, size_t cap)
{
	static const char *const pre[] = { "NUMBER_TYPE_", "DT_", "KNUMBERTYPE", "TORCH.", NULL };
	size_t n = 0;
	for (const char *p = d; *p && n + 1 < cap; p++)
		buf[n++] = (char)toupper((unsigned char)*p);
	buf[n] = 0;
	for (size_t i = 0; pre[i]; i++) {
		size_t l = strlen(pre[i]);
		if (!strncmp(buf, pre[i], l)) {
			memmove(buf, buf + l, strlen(buf + l) + 1);
			break;
		}
	}
}

unsigned pt_flops_dtype_size(const char *dtype)
{
	static const struct {
		const char *name;
		unsigned size;
	} t[] = {
		{ "FLOAT16", 2 }, { "HALF", 2 },   { "FP16", 2 },    { "BFLOAT16", 2 }, { "BF16", 2 },
		{ "FLOAT32", 4 }, { "FLOAT", 4 },  { "FP32", 4 },    { "FLOAT64", 8 },  { "DOUBLE", 8 },
		{ "FP64", 8 },    { "INT8", 1 },   { "UINT8", 1 },   { "BOOL", 1 },     { "BOOL_", 1 },
		{ "INT16", 2 },   { "UINT16", 2 }, { "INT32", 4 },   { "UINT32", 4 },   { "INT", 4 },
		{ "INT64", 8 },   { "UINT64", 8 },
	};
	if (!dtype || !*dtype)
		return 0;
	char b[64];
	norm_dtype(dtype, b, sizeof(b));
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(b, t[i].name))
			return t[i].size;
	return 0;
}

enum pt_peak_col pt_flops_peak_col(const char *dtype)
{
	if (!dtype || !*dtype)
		return PT_PEAK_FP16;
	char b[64];
	norm_dtype(dtype, b, sizeof(b));
	if (!strcmp(b, "BFLOAT16") || !strcmp(b, "BF16"))
		return PT_PEAK_BF16;
	if (!strncmp(b, "FLOAT8", 6) || !strncmp(b, "FP8", 3))
		return PT_PEAK_FP8;
	if (!strcmp(b, "INT8") || !strcmp(b, "UINT8"))
		return PT_PEAK_INT8;
	if (!strcmp(b, "FLOAT32") || !strcmp(b, "FLOAT") || !strcmp(b, "FP32"))
		return PT_PEAK_FP32;
	if (!strcmp(b, "FLOAT64") || !strcmp(b, "DOUBLE") || !strcmp(b, "FP64"))
		return PT_PEAK_FP64;
	return PT_PEAK_FP16;
}

const char *pt_flops_peak_col_name(enum pt_peak_col c)
{
	static const char *const n[PT_PEAK__N] = { "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8" };
	return c < PT_PEAK__N ? n[c] : "";
}

/* ---- GPU peaks (ascend.md §3.9; dense, TFLOPS / TOPS; -1 = no figure) ---- */

static bool has(const char *s, const char *sub)
{
	size_t l = strlen(sub);
	for (const char *p = s; *p; p++)
		if (!strncasecmp(p, sub, l))
			return true;
	return false;
}

bool pt_flops_gpu_peak(const char *name, enum pt_peak_col col, double *flops, double *bw, const char **row)
{
	static const struct {
		const char *row;
		double t[PT_PEAK__N];
		double gbs, gbs40;
	} rows[] = {
		{ "V100 SXM2", { 7.8, 15.7, -1, 125, -1, -1, -1 }, 900, 0 },
		{ "V100 PCIe", { 7, 14, -1, 112, -1, -1, -1 }, 900, 0 },
		{ "A100 SXM", { 9.7, 19.5, 156, 312, 312, -1, 624 }, 2039, 1555 },
		{ "A100 PCIe", { 9.7, 19.5, 156, 312, 312, -1, 624 }, 1935, 1555 },
		{ "H100 PCIe", { 26, 51, 378, 756.5, 756.5, 1513, 1513 }, 2000, 0 },
		{ "H100 SXM", { 34, 67, 494.5, 989.5, 989.5, 1979, 1979 }, 3350, 0 },
		{ "H200 SXM", { 34, 67, 494.5, 989.5, 989.5, 1979, 1979 }, 4800, 0 },
		{ "L40S", { -1, 91.6, 183, 362.05, 362.05, 733, 733 }, 864, 0 },
	};
	int r = -1;
	if (!name)
		return false;
	if (has(name, "V100-SXM"))
		r = 0;
	else if (has(name, "V100-PCIE"))
		r = 1;
	else if (has(name, "A100"))
		r = has(name, "SXM") ? 2 : 3;
	else if (has(name, "H100") && has(name, "PCIe"))
		r = 4;
	else if (has(name, "H100") && (has(name, "HBM3") || has(name, "SXM")))
		r = 5;
	else if (has(name, "H200") && !has(name, "NVL"))
		r = 6;
	else if (has(name, "L40S"))
		r = 7;
	if (r < 0)
		return false;
	double t = rows[r].t[col];
	*flops = t < 0 ? 0 : t * 1e12;
	double g = rows[r].gbs40 && has(name, "40GB") ? rows[r].gbs40 : rows[r].gbs;
	*bw = g * 1e9;
	*row = rows[r].row;
	return true;
}

/* ---- shapes ---- */

struct acc {
	u128 v;
	bool ok;
};

static void mul(struct acc *a, int64_t x)
{
	if (!a->ok)
		return;
	if (x < 0) {
		a->ok = false;
		return;
	}
	a->v *= (u128)(uint64_t)x;
	if (a->v > (u128)UINT64_MAX)
		a->ok = false;
}

static bool elems(const struct pt_fm_tensor *t, uint64_t *out)
{
	if (!t || !t->present)
		return false;
	struct acc a = { 1, true };
	for (uint32_t i = 0; i < t->nshape; i++)
		mul(&a, t->shape[i]);
	if (!a.ok)
		return false;
	*out = (uint64_t)a.v;
	return true;
}

static bool fmt_is(const char *f, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcasecmp(f, names[i]))
			return true;
	return false;
}

static const char *const plain_formats[] = { "DefaultFormat", "DEFAULT", "ND", "NCHW", "NHWC", "HWCN",
					     "NCDHW", "NDHWC", NULL };
static const char *const nz_formats[] = { "FRACTAL_NZ", "FRAC_NZ", NULL };

static bool is_plain(const char *f)
{
	return !f || !*f || fmt_is(f, plain_formats);
}

/* Logical (batch, rows, cols) of a matrix tensor. */
struct mat {
	uint64_t batch, rows, cols;
};

static bool logical_matrix(const struct pt_fm_tensor *t, struct mat *m)
{
	if (!t || !t->present)
		return false;
	uint32_t n = t->nshape;
	const int64_t *d = t->shape;
	struct acc b = { 1, true }, r = { 1, true }, c = { 1, true };
	if (t->format && fmt_is(t->format, nz_formats)) {
		if (n < 4)
			return false;
		for (uint32_t i = 0; i + 4 < n; i++)
			mul(&b, d[i]);
		mul(&r, d[n - 3]);
		mul(&r, d[n - 2]);
		mul(&c, d[n - 4]);
		mul(&c, d[n - 1]);
	} else if (is_plain(t->format)) {
		if (n < 2)
			return false;
		for (uint32_t i = 0; i + 2 < n; i++)
			mul(&b, d[i]);
		mul(&r, d[n - 2]);
		mul(&c, d[n - 1]);
	} else {
		return false;
	}
	if (!b.ok || !r.ok || !c.ok)
		return false;
	m->batch = (uint64_t)b.v;
	m->rows = (uint64_t)r.v;
	m->cols = (uint64_t)c.v;
	return true;
}

/* N and the product of spatial dims of an activation tensor in its format. */
static bool batch_spatial(const struct pt_fm_tensor *t, uint64_t *n, uint64_t *spatial)
{
	if (!t || !t->present)
		return false;
	const char *f = t->format && *t->format ? t->format : "ND";
	uint32_t k = t->nshape;
	const int64_t *d = t->shape;
	uint32_t s0, s1; /* spatial dims [s0, s1) */
	if (!strcasecmp(f, "NCHW") && k == 4) {
		s0 = 2, s1 = 4;
	} else if (!strcasecmp(f, "NHWC") && k == 4) {
		s0 = 1, s1 = 3;
	} else if (!strcasecmp(f, "NC1HWC0") && k == 5) {
		s0 = 2, s1 = 4;
	} else if (!strcasecmp(f, "NCDHW") && k == 5) {
		s0 = 2, s1 = 5;
	} else if (!strcasecmp(f, "NDHWC") && k == 5) {
		s0 = 1, s1 = 4;
	} else if (fmt_is(f, (const char *const[]){ "DefaultFormat", "DEFAULT", "ND", NULL }) && (k == 4 || k == 5)) {
		s0 = 2, s1 = k; /* MindSpore's default layouts: NCHW, NCDHW */
	} else {
		return false;
	}
	struct acc a = { 1, true };
	for (uint32_t i = s0; i < s1; i++)
		mul(&a, d[i]);
	if (!a.ok || d[0] < 0)
		return false;
	*n = (uint64_t)d[0];
	*spatial = (uint64_t)a.v;
	return true;
}

/* Broadcast element count of the tensor inputs (PyTorch); false when none or incompatible. */
static bool broadcast_elems(const struct pt_fm_op *op, uint64_t *out)
{
	int64_t dims[16];
	uint32_t nd = 0;
	bool any = false;
	for (size_t i = 0; i < op->nin; i++) {
		const struct pt_fm_tensor *t = &op->in[i];
		if (!t->present || !t->nshape)
			continue;
		if (t->nshape > 16)
			return false;
		any = true;
		if (t->nshape > nd) {
			memmove(dims + (t->nshape - nd), dims, nd * sizeof(*dims));
			for (uint32_t j = 0; j < t->nshape - nd; j++)
				dims[j] = 1;
			nd = t->nshape;
		}
		for (uint32_t j = 0; j < t->nshape; j++) {
			int64_t *d = &dims[nd - t->nshape + j];
			int64_t v = t->shape[j];
			if (v == *d || v == 1)
				continue;
			if (*d == 1)
				*d = v;
			else
				return false;
		}
	}
	if (!any)
		return false;
	struct acc a = { 1, true };
	for (uint32_t j = 0; j < nd; j++)
		mul(&a, dims[j]);
	if (!a.ok)
		return false;
	*out = (uint64_t)a.v;
	return true;
}

/* ---- the table ---- */

enum cls {
	C_NONE,
	C_MATMUL,      /* Ascend, from the output */
	C_FC,          /* Ascend FullyConnection / Dense: bias when input 2 */
	C_CONV,
	C_CONV_DX,
	C_CONV_DW,
	C_ATTN,
	C_ATTN_GRAD,
	C_ELEM,
	C_ADDN,
	C_REDUCE,
	C_SOFTMAX,
	C_SOFTMAX_GRAD,
	C_NORM,        /* 5 × with a scale input, 4 × without */
	C_BN_INFER,    /* 2 × */
	C_BN_REDUCE,   /* 2 × */
	C_BN_UPDATE,   /* 3 × */
	C_POOL,
	C_ZERO,
	/* PyTorch forms */
	C_A_MM,
	C_A_ADDMM,
	C_A_BMM,
	C_A_BADDBMM,
	C_A_MATMUL,
	C_A_LINEAR,
	C_A_ATTN,
	C_A_ATTN_GRAD,
	C_A_ELEM,
	C_A_NORM,
};

static const char *const cls_name[] = {
	[C_NONE] = NULL,
	[C_MATMUL] = "matmul",
	[C_FC] = "matmul",
	[C_CONV] = "conv",
	[C_CONV_DX] = "conv-input-grad",
	[C_CONV_DW] = "conv-weight-grad",
	[C_ATTN] = "attention",
	[C_ATTN_GRAD] = "attention-grad",
	[C_ELEM] = "elementwise",
	[C_ADDN] = "elementwise",
	[C_REDUCE] = "reduction",
	[C_SOFTMAX] = "softmax",
	[C_SOFTMAX_GRAD] = "softmax-grad",
	[C_NORM] = "norm",
	[C_BN_INFER] = "norm",
	[C_BN_REDUCE] = "norm",
	[C_BN_UPDATE] = "norm",
	[C_POOL] = "pooling",
	[C_ZERO] = "data-movement",
	[C_A_MM] = "matmul",
	[C_A_ADDMM] = "matmul",
	[C_A_BMM] = "matmul",
	[C_A_BADDBMM] = "matmul",
	[C_A_MATMUL] = "matmul",
	[C_A_LINEAR] = "matmul",
	[C_A_ATTN] = "attention",
	[C_A_ATTN_GRAD] = "attention-grad",
	[C_A_ELEM] = "elementwise",
	[C_A_NORM] = "norm",
};

struct entry {
	const char *type;
	enum cls cls;
	int arg; /* C_A_NORM: index of the scale input */
};

static const struct entry table[] = {
	/* Ascend */
	{ "MatMul", C_MATMUL, 0 }, { "MatMulV2", C_MATMUL, 0 }, { "BatchMatMul", C_MATMUL, 0 },
	{ "BatchMatMulV2", C_MATMUL, 0 }, { "FullyConnection", C_FC, 0 }, { "Dense", C_FC, 0 },
	{ "Conv2D", C_CONV, 0 }, { "DepthwiseConv2dNative", C_CONV, 0 }, { "Conv3D", C_CONV, 0 },
	{ "Conv2DBackpropInput", C_CONV_DX, 0 }, { "DepthwiseConv2dNativeBackpropInput", C_CONV_DX, 0 },
	{ "Conv3DBackpropInput", C_CONV_DX, 0 }, { "Conv2DBackpropFilter", C_CONV_DW, 0 },
	{ "DepthwiseConv2dNativeBackpropFilter", C_CONV_DW, 0 }, { "Conv3DBackpropFilter", C_CONV_DW, 0 },
	{ "FlashAttentionScore", C_ATTN, 0 }, { "FlashAttentionScoreGrad", C_ATTN_GRAD, 0 },
	{ "Add", C_ELEM, 0 }, { "AddV2", C_ELEM, 0 }, { "TensorAdd", C_ELEM, 0 }, { "Sub", C_ELEM, 0 },
	{ "Mul", C_ELEM, 0 }, { "Div", C_ELEM, 0 }, { "RealDiv", C_ELEM, 0 }, { "DivNoNan", C_ELEM, 0 },
	{ "FloorDiv", C_ELEM, 0 }, { "Maximum", C_ELEM, 0 }, { "Minimum", C_ELEM, 0 }, { "Neg", C_ELEM, 0 },
	{ "Abs", C_ELEM, 0 }, { "Square", C_ELEM, 0 }, { "Sqrt", C_ELEM, 0 }, { "Rsqrt", C_ELEM, 0 },
	{ "Reciprocal", C_ELEM, 0 }, { "Exp", C_ELEM, 0 }, { "Log", C_ELEM, 0 }, { "Pow", C_ELEM, 0 },
	{ "Sign", C_ELEM, 0 }, { "ReLU", C_ELEM, 0 }, { "ReLU6", C_ELEM, 0 }, { "ReLUV2", C_ELEM, 0 },
	{ "Elu", C_ELEM, 0 }, { "Sigmoid", C_ELEM, 0 }, { "Tanh", C_ELEM, 0 }, { "GeLU", C_ELEM, 0 },
	{ "Gelu", C_ELEM, 0 }, { "FastGelu", C_ELEM, 0 }, { "Swish", C_ELEM, 0 }, { "Erf", C_ELEM, 0 },
	{ "BiasAdd", C_ELEM, 0 }, { "AssignAdd", C_ELEM, 0 }, { "AssignSub", C_ELEM, 0 },
	{ "ReluGrad", C_ELEM, 0 }, { "ReluGradV2", C_ELEM, 0 }, { "GeLUGrad", C_ELEM, 0 },
	{ "FastGeluGrad", C_ELEM, 0 }, { "SigmoidGrad", C_ELEM, 0 }, { "TanhGrad", C_ELEM, 0 },
	{ "DropoutDoMask", C_ELEM, 0 }, { "Equal", C_ELEM, 0 }, { "NotEqual", C_ELEM, 0 }, { "Less", C_ELEM, 0 },
	{ "LessEqual", C_ELEM, 0 }, { "Greater", C_ELEM, 0 }, { "GreaterEqual", C_ELEM, 0 },
	{ "Select", C_ELEM, 0 }, { "LogicalAnd", C_ELEM, 0 }, { "LogicalOr", C_ELEM, 0 },
	{ "LogicalNot", C_ELEM, 0 }, { "AddN", C_ADDN, 0 },
	{ "ReduceSum", C_REDUCE, 0 }, { "ReduceMean", C_REDUCE, 0 }, { "ReduceMax", C_REDUCE, 0 },
	{ "ReduceMin", C_REDUCE, 0 }, { "ReduceProd", C_REDUCE, 0 }, { "ReduceAll", C_REDUCE, 0 },
	{ "ReduceAny", C_REDUCE, 0 }, { "ArgMaxWithValue", C_REDUCE, 0 }, { "ArgMinWithValue", C_REDUCE, 0 },
	{ "BiasAddGrad", C_REDUCE, 0 }, { "UnsortedSegmentSum", C_REDUCE, 0 },
	{ "Softmax", C_SOFTMAX, 0 }, { "SoftmaxV2", C_SOFTMAX, 0 }, { "LogSoftmax", C_SOFTMAX, 0 },
	{ "SoftmaxGrad", C_SOFTMAX_GRAD, 0 }, { "LogSoftmaxGrad", C_SOFTMAX_GRAD, 0 },
	{ "LayerNorm", C_NORM, 0 }, { "BatchNorm", C_NORM, 0 }, { "InstanceNorm", C_NORM, 0 },
	{ "GroupNorm", C_NORM, 0 }, { "BNInfer", C_BN_INFER, 0 }, { "BNTrainingReduce", C_BN_REDUCE, 0 },
	{ "BNTrainingUpdate", C_BN_UPDATE, 0 },
	{ "MaxPool", C_POOL, 0 }, { "AvgPool", C_POOL, 0 }, { "MaxPoolWithArgmax", C_POOL, 0 },
	{ "GatherV2", C_ZERO, 0 }, { "Gather", C_ZERO, 0 }, { "GatherNd", C_ZERO, 0 },
	{ "EmbeddingLookup", C_ZERO, 0 }, { "Cast", C_ZERO, 0 }, { "TransData", C_ZERO, 0 },
	{ "Transpose", C_ZERO, 0 }, { "Reshape", C_ZERO, 0 }, { "ExpandDims", C_ZERO, 0 },
	{ "Squeeze", C_ZERO, 0 }, { "Flatten", C_ZERO, 0 }, { "Concat", C_ZERO, 0 }, { "Split", C_ZERO, 0 },
	{ "SplitV", C_ZERO, 0 }, { "Slice", C_ZERO, 0 }, { "StridedSlice", C_ZERO, 0 },
	{ "StridedSliceGrad", C_ZERO, 0 }, { "Tile", C_ZERO, 0 }, { "BroadcastTo", C_ZERO, 0 },
	{ "Pad", C_ZERO, 0 }, { "Assign", C_ZERO, 0 }, { "AtomicAddrClean", C_ZERO, 0 },
	{ "MemCpyAsync", C_ZERO, 0 }, { "Identity", C_ZERO, 0 }, { "OneHot", C_ZERO, 0 },
	{ "ScatterNd", C_ZERO, 0 }, { "ScatterUpdate", C_ZERO, 0 }, { "DropoutGenMask", C_ZERO, 0 },
	{ "ZerosLike", C_ZERO, 0 }, { "OnesLike", C_ZERO, 0 }, { "Fill", C_ZERO, 0 },
	{ "TensorMove", C_ZERO, 0 },
	/* communication (ascend.md §3.8) */
	{ "AllReduce", C_ZERO, 0 }, { "AllGather", C_ZERO, 0 }, { "ReduceScatter", C_ZERO, 0 },
	{ "Broadcast", C_ZERO, 0 }, { "AllToAll", C_ZERO, 0 }, { "AllToAllv", C_ZERO, 0 }, { "Send", C_ZERO, 0 },
	{ "Receive", C_ZERO, 0 }, { "NeighborExchange", C_ZERO, 0 },
	/* PyTorch */
	{ "aten::mm", C_A_MM, 0 }, { "aten::addmm", C_A_ADDMM, 0 }, { "aten::bmm", C_A_BMM, 0 },
	{ "aten::baddbmm", C_A_BADDBMM, 0 }, { "aten::matmul", C_A_MATMUL, 0 }, { "aten::linear", C_A_LINEAR, 0 },
	{ "aten::scaled_dot_product_attention", C_A_ATTN, 0 },
	{ "aten::_scaled_dot_product_flash_attention", C_A_ATTN, 0 },
	{ "aten::_scaled_dot_product_efficient_attention", C_A_ATTN, 0 },
	{ "aten::_scaled_dot_product_flash_attention_backward", C_A_ATTN_GRAD, 0 },
	{ "aten::_scaled_dot_product_efficient_attention_backward", C_A_ATTN_GRAD, 0 },
	{ "aten::add", C_A_ELEM, 0 }, { "aten::sub", C_A_ELEM, 0 }, { "aten::mul", C_A_ELEM, 0 },
	{ "aten::div", C_A_ELEM, 0 }, { "aten::neg", C_A_ELEM, 0 }, { "aten::abs", C_A_ELEM, 0 },
	{ "aten::pow", C_A_ELEM, 0 }, { "aten::sqrt", C_A_ELEM, 0 }, { "aten::rsqrt", C_A_ELEM, 0 },
	{ "aten::exp", C_A_ELEM, 0 }, { "aten::log", C_A_ELEM, 0 }, { "aten::relu", C_A_ELEM, 0 },
	{ "aten::gelu", C_A_ELEM, 0 }, { "aten::silu", C_A_ELEM, 0 }, { "aten::sigmoid", C_A_ELEM, 0 },
	{ "aten::tanh", C_A_ELEM, 0 }, { "aten::threshold_backward", C_A_ELEM, 0 },
	{ "aten::gelu_backward", C_A_ELEM, 0 }, { "aten::where", C_A_ELEM, 0 }, { "aten::eq", C_A_ELEM, 0 },
	{ "aten::ne", C_A_ELEM, 0 }, { "aten::lt", C_A_ELEM, 0 }, { "aten::le", C_A_ELEM, 0 },
	{ "aten::gt", C_A_ELEM, 0 }, { "aten::ge", C_A_ELEM, 0 }, { "aten::dropout", C_A_ELEM, 0 },
	{ "aten::native_dropout", C_A_ELEM, 0 },
	{ "aten::sum", C_REDUCE, 0 }, { "aten::mean", C_REDUCE, 0 }, { "aten::amax", C_REDUCE, 0 },
	{ "aten::amin", C_REDUCE, 0 },
	{ "aten::softmax", C_SOFTMAX, 0 }, { "aten::_softmax", C_SOFTMAX, 0 }, { "aten::log_softmax", C_SOFTMAX, 0 },
	{ "aten::_log_softmax", C_SOFTMAX, 0 }, { "aten::_softmax_backward_data", C_SOFTMAX_GRAD, 0 },
	{ "aten::_log_softmax_backward_data", C_SOFTMAX_GRAD, 0 },
	{ "aten::layer_norm", C_A_NORM, 2 }, { "aten::native_layer_norm", C_A_NORM, 2 },
	{ "aten::batch_norm", C_A_NORM, 1 }, { "aten::native_batch_norm", C_A_NORM, 1 },
	{ "aten::group_norm", C_A_NORM, 2 }, { "aten::native_group_norm", C_A_NORM, 2 },
	{ "aten::instance_norm", C_A_NORM, 1 },
	{ "aten::max_pool1d", C_POOL, 0 }, { "aten::max_pool2d", C_POOL, 0 }, { "aten::max_pool3d", C_POOL, 0 },
	{ "aten::avg_pool1d", C_POOL, 0 }, { "aten::avg_pool2d", C_POOL, 0 }, { "aten::avg_pool3d", C_POOL, 0 },
	{ "aten::adaptive_avg_pool1d", C_POOL, 0 }, { "aten::adaptive_avg_pool2d", C_POOL, 0 },
	{ "aten::adaptive_avg_pool3d", C_POOL, 0 }, { "aten::adaptive_max_pool1d", C_POOL, 0 },
	{ "aten::adaptive_max_pool2d", C_POOL, 0 }, { "aten::adaptive_max_pool3d", C_POOL, 0 },
	{ "aten::embedding", C_ZERO, 0 }, { "aten::index_select", C_ZERO, 0 }, { "aten::gather", C_ZERO, 0 },
	{ "aten::index", C_ZERO, 0 }, { "aten::copy_", C_ZERO, 0 }, { "aten::to", C_ZERO, 0 },
	{ "aten::_to_copy", C_ZERO, 0 }, { "aten::cat", C_ZERO, 0 }, { "aten::stack", C_ZERO, 0 },
	{ "aten::slice", C_ZERO, 0 }, { "aten::select", C_ZERO, 0 }, { "aten::view", C_ZERO, 0 },
	{ "aten::reshape", C_ZERO, 0 }, { "aten::transpose", C_ZERO, 0 }, { "aten::permute", C_ZERO, 0 },
	{ "aten::t", C_ZERO, 0 }, { "aten::contiguous", C_ZERO, 0 }, { "aten::clone", C_ZERO, 0 },
	{ "aten::expand", C_ZERO, 0 }, { "aten::zeros", C_ZERO, 0 }, { "aten::empty", C_ZERO, 0 },
	{ "aten::fill_", C_ZERO, 0 }, { "aten::zero_", C_ZERO, 0 },
};

/* The entry of a type; aten in-place forms ("aten::add_") use their base entry. */
static const struct entry *lookup(const char *type)
{
	if (!type)
		return NULL;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(type, table[i].type))
			return &table[i];
	size_t l = strlen(type);
	if (!strncmp(type, "aten::", 6) && l > 7 && type[l - 1] == '_') {
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			if (table[i].cls == C_A_ELEM && strlen(table[i].type) == l - 1 &&
			    !strncmp(type, table[i].type, l - 1))
				return &table[i];
	}
	return NULL;
}

bool pt_flops_has_formula(const char *type)
{
	return lookup(type) != NULL || (type && !strncmp(type, "Hcom", 4));
}

static const struct pt_fm_tensor *in_at(const struct pt_fm_op *op, size_t i)
{
	return i < op->nin && op->in[i].present ? &op->in[i] : NULL;
}

static const struct pt_fm_tensor *out_at(const struct pt_fm_op *op, size_t i)
{
	return i < op->nout && op->out[i].present ? &op->out[i] : NULL;
}

static bool set(struct pt_fm_result *r, u128 v)
{
	if (v > (u128)UINT64_MAX) {
		r->why = "overflow";
		return false;
	}
	r->flops = (uint64_t)v;
	r->known = true;
	return true;
}

static bool fail(struct pt_fm_result *r, const char *why)
{
	r->known = false;
	r->why = why;
	return false;
}

/* Ascend matrix multiply from the output (ascend.md §3.9, "Matrix dimensions"). */
static bool ascend_matmul(const struct pt_fm_op *op, bool bias_allowed, struct pt_fm_result *r)
{
	struct mat o, a, b;
	uint64_t ea, eb;
	const struct pt_fm_tensor *A = in_at(op, 0), *B = in_at(op, 1);
	if (!logical_matrix(out_at(op, 0), &o) || !logical_matrix(A, &a) || !logical_matrix(B, &b) ||
	    !elems(A, &ea) || !elems(B, &eb))
		return fail(r, "shapes");
	u128 bam = (u128)a.batch * o.rows;
	if (!bam || ea % bam)
		return fail(r, "inconsistent shapes");
	u128 k = ea / bam;
	if (!b.batch || eb % b.batch || (u128)(eb / b.batch) != k * o.cols)
		return fail(r, "inconsistent shapes");
	u128 bmn = (u128)o.batch * o.rows * o.cols;
	u128 f = 2 * bmn * k;
	if (bias_allowed && in_at(op, 2))
		f += bmn;
	return set(r, f);
}

static bool conv(const struct pt_fm_op *op, enum cls c, struct pt_fm_result *r)
{
	uint64_t w, n, sp, eo;
	const struct pt_fm_tensor *act = c == C_CONV ? out_at(op, 0) : in_at(op, 0);
	const struct pt_fm_tensor *wt = c == C_CONV_DW ? out_at(op, 0) : in_at(op, 1);
	if (!elems(wt, &w) || !batch_spatial(act, &n, &sp))
		return fail(r, "shapes");
	u128 f = (u128)2 * w * n * sp;
	if (c == C_CONV && in_at(op, 2)) {
		if (!elems(out_at(op, 0), &eo))
			return fail(r, "shapes");
		f += eo;
	}
	return set(r, f);
}

/* q (B, H, Lq, D), k (B, H, Lk, D), v (B, H, Lk, Dv) at inputs i, i+1, i+2. */
static bool attention(const struct pt_fm_op *op, size_t i, bool grad, struct pt_fm_result *r)
{
	const struct pt_fm_tensor *q = in_at(op, i), *k = in_at(op, i + 1), *v = in_at(op, i + 2);
	if (!q || !k || !v || q->nshape != 4 || k->nshape != 4 || v->nshape != 4)
		return fail(r, "layout");
	for (int j = 0; j < 4; j++)
		if (q->shape[j] < 0 || k->shape[j] < 0 || v->shape[j] < 0)
			return fail(r, "shapes");
	if (q->shape[0] != k->shape[0] || q->shape[1] != k->shape[1] || q->shape[3] != k->shape[3] ||
	    v->shape[0] != k->shape[0] || v->shape[1] != k->shape[1] || v->shape[2] != k->shape[2])
		return fail(r, "inconsistent shapes");
	u128 base = (u128)2 * (uint64_t)q->shape[0] * (uint64_t)q->shape[1] * (uint64_t)q->shape[2] *
		    (uint64_t)k->shape[2];
	u128 d = (uint64_t)q->shape[3], dv = (uint64_t)v->shape[3];
	return set(r, base * (grad ? 3 * d + 2 * dv : d + dv));
}

static bool dims_ok(const struct pt_fm_tensor *t, uint32_t n)
{
	if (!t || t->nshape != n)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (t->shape[i] < 0)
			return false;
	return true;
}

/* PyTorch matrix forms (ascend.md §3.9, "From the inputs"). */
static bool aten_matmul(const struct pt_fm_op *op, enum cls c, struct pt_fm_result *r)
{
	size_t i0 = (c == C_A_ADDMM || c == C_A_BADDBMM) ? 1 : 0;
	const struct pt_fm_tensor *a = in_at(op, i0), *b = in_at(op, i0 + 1);
	u128 f;
	if (c == C_A_MM || c == C_A_ADDMM) {
		if (!dims_ok(a, 2) || !dims_ok(b, 2) || a->shape[1] != b->shape[0])
			return fail(r, "shapes");
		u128 mn = (u128)(uint64_t)a->shape[0] * (uint64_t)b->shape[1];
		f = 2 * mn * (uint64_t)a->shape[1];
		if (c == C_A_ADDMM)
			f += mn;
		return set(r, f);
	}
	if (c == C_A_BMM || c == C_A_BADDBMM) {
		if (!dims_ok(a, 3) || !dims_ok(b, 3) || a->shape[0] != b->shape[0] || a->shape[2] != b->shape[1])
			return fail(r, "shapes");
		u128 bmn = (u128)(uint64_t)a->shape[0] * (uint64_t)a->shape[1] * (uint64_t)b->shape[2];
		f = 2 * bmn * (uint64_t)a->shape[2];
		if (c == C_A_BADDBMM)
			f += bmn;
		return set(r, f);
	}
	if (c == C_A_LINEAR) {
		uint64_t ex;
		if (!a || !a->nshape || !dims_ok(b, 2) || !elems(a, &ex))
			return fail(r, "shapes");
		int64_t k = a->shape[a->nshape - 1];
		if (k <= 0 || b->shape[1] != k)
			return fail(r, "shapes");
		u128 bmn = (u128)(ex / (uint64_t)k) * (uint64_t)b->shape[0];
		f = 2 * bmn * (uint64_t)k;
		const struct pt_fm_tensor *bias = in_at(op, 2);
		if (bias && bias->nshape)
			f += bmn;
		return set(r, f);
	}
	/* aten::matmul: 1-D operands are vectors; batch dimensions broadcast */
	if (!a || !b || !a->nshape || !b->nshape || a->nshape > 8 || b->nshape > 8)
		return fail(r, "shapes");
	for (uint32_t i = 0; i < a->nshape; i++)
		if (a->shape[i] < 0)
			return fail(r, "shapes");
	for (uint32_t i = 0; i < b->nshape; i++)
		if (b->shape[i] < 0)
			return fail(r, "shapes");
	uint64_t m = a->nshape == 1 ? 1 : (uint64_t)a->shape[a->nshape - 2];
	uint64_t k = (uint64_t)a->shape[a->nshape - 1];
	uint64_t kb = b->nshape == 1 ? (uint64_t)b->shape[0] : (uint64_t)b->shape[b->nshape - 2];
	uint64_t n = b->nshape == 1 ? 1 : (uint64_t)b->shape[b->nshape - 1];
	if (k != kb)
		return fail(r, "shapes");
	uint32_t na = a->nshape > 2 ? a->nshape - 2 : 0, nb = b->nshape > 2 ? b->nshape - 2 : 0;
	uint32_t nd = na > nb ? na : nb;
	struct acc bt = { 1, true };
	for (uint32_t i = 0; i < nd; i++) {
		int64_t da = i + na >= nd ? a->shape[i + na - nd] : 1;
		int64_t db = i + nb >= nd ? b->shape[i + nb - nd] : 1;
		if (da != db && da != 1 && db != 1)
			return fail(r, "shapes");
		mul(&bt, da > db ? da : db);
	}
	if (!bt.ok)
		return fail(r, "overflow");
	return set(r, (u128)2 * bt.v * m * n * k);
}

static void bytes_of(const struct pt_fm_op *op, struct pt_fm_result *r)
{
	u128 sum = 0;
	bool any = false;
	for (int side = 0; side < 2; side++) {
		const struct pt_fm_tensor *v = side ? op->out : op->in;
		size_t n = side ? op->nout : op->nin;
		for (size_t i = 0; i < n; i++) {
			if (!v[i].present)
				continue;
			uint64_t e;
			unsigned sz = pt_flops_dtype_size(v[i].dtype);
			if (!sz || !elems(&v[i], &e))
				return;
			sum += (u128)e * sz;
			any = true;
		}
	}
	if (!any || sum > (u128)UINT64_MAX)
		return;
	r->has_bytes = true;
	r->bytes = (uint64_t)sum;
}

void pt_flops_model(const struct pt_fm_op *op, struct pt_fm_result *r)
{
	memset(r, 0, sizeof(*r));
	bytes_of(op, r);
	const struct entry *en = lookup(op->type);
	if (!en && op->type && !strncmp(op->type, "Hcom", 4)) {
		r->cls = "data-movement";
		set(r, 0);
		return;
	}
	if (!en) {
		fail(r, "no formula");
		return;
	}
	r->cls = cls_name[en->cls];
	uint64_t e = 0;
	switch (en->cls) {
	case C_NONE:
		fail(r, "no formula");
		return;
	case C_MATMUL:
		ascend_matmul(op, false, r);
		return;
	case C_FC:
		ascend_matmul(op, true, r);
		return;
	case C_CONV:
	case C_CONV_DX:
	case C_CONV_DW:
		conv(op, en->cls, r);
		return;
	case C_ATTN:
	case C_ATTN_GRAD:
		attention(op, 0, en->cls == C_ATTN_GRAD, r);
		return;
	case C_A_ATTN:
		attention(op, 0, false, r);
		return;
	case C_A_ATTN_GRAD:
		attention(op, 1, true, r);
		return;
	case C_ELEM:
		if (!elems(out_at(op, 0), &e)) {
			fail(r, "shapes");
			return;
		}
		set(r, e);
		return;
	case C_ADDN: {
		size_t n = 0;
		for (size_t i = 0; i < op->nin; i++)
			n += op->in[i].present;
		if (!n || !elems(out_at(op, 0), &e)) {
			fail(r, "shapes");
			return;
		}
		set(r, (u128)(n - 1) * e);
		return;
	}
	case C_A_ELEM:
		if (!broadcast_elems(op, &e)) {
			fail(r, "shapes");
			return;
		}
		set(r, e);
		return;
	case C_REDUCE:
	case C_POOL:
	case C_SOFTMAX:
	case C_SOFTMAX_GRAD:
	case C_BN_INFER:
	case C_BN_REDUCE:
	case C_BN_UPDATE:
	case C_NORM:
	case C_A_NORM: {
		const struct pt_fm_tensor *x = in_at(op, 0);
		if (!x || !elems(x, &e) || (!strncmp(op->type, "aten::", 6) && !x->nshape)) {
			fail(r, "shapes");
			return;
		}
		unsigned k = 1;
		if (en->cls == C_SOFTMAX)
			k = 5;
		else if (en->cls == C_SOFTMAX_GRAD)
			k = 4;
		else if (en->cls == C_BN_INFER || en->cls == C_BN_REDUCE)
			k = 2;
		else if (en->cls == C_BN_UPDATE)
			k = 3;
		else if (en->cls == C_NORM)
			k = in_at(op, 1) ? 5 : 4;
		else if (en->cls == C_A_NORM) {
			const struct pt_fm_tensor *s = in_at(op, (size_t)en->arg);
			k = s && s->nshape ? 5 : 4;
		}
		set(r, (u128)k * e);
		return;
	}
	case C_ZERO:
		set(r, 0);
		return;
	case C_A_MM:
	case C_A_ADDMM:
	case C_A_BMM:
	case C_A_BADDBMM:
	case C_A_MATMUL:
	case C_A_LINEAR:
		aten_matmul(op, en->cls, r);
		return;
	}
}

/* ---- NVTX text ---- */

static bool parse_int(const char **p, const char *end, int64_t *v)
{
	const char *q = *p;
	if (q >= end || !isdigit((unsigned char)*q))
		return false;
	int64_t x = 0;
	while (q < end && isdigit((unsigned char)*q)) {
		if (x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (*q - '0');
		q++;
	}
	*v = x;
	*p = q;
	return true;
}

/* The sizes list "[[d, ...], [], ...]" from s to end; rest: text may follow after ", ". */
static int sizes(const char *s, const char *end, bool rest, int64_t **dims, size_t **off, size_t *ninputs)
{
	PT_VEC(int64_t) d = { 0 };
	PT_VEC(size_t) o = { 0 };
	pt_vec_push(&o, (size_t)0);
	const char *p = s;
	if (p >= end || *p++ != '[')
		goto bad;
	if (p < end && *p == ']') {
		p++;
	} else {
		for (;;) {
			if (p >= end || *p++ != '[')
				goto bad;
			if (p < end && *p != ']') {
				for (;;) {
					int64_t v;
					if (!parse_int(&p, end, &v))
						goto bad;
					pt_vec_push(&d, v);
					if (p < end && *p == ']')
						break;
					if (end - p < 2 || p[0] != ',' || p[1] != ' ')
						goto bad;
					p += 2;
				}
			}
			if (p >= end || *p++ != ']')
				goto bad;
			pt_vec_push(&o, d.n);
			if (p < end && *p == ']') {
				p++;
				break;
			}
			if (end - p < 2 || p[0] != ',' || p[1] != ' ')
				goto bad;
			p += 2;
		}
	}
	if (p != end && !(rest && end - p >= 2 && p[0] == ',' && p[1] == ' '))
		goto bad;
	*dims = d.v ? d.v : pt_xmalloc(sizeof(int64_t));
	*off = o.v;
	*ninputs = o.n - 1;
	return 1;
bad:
	pt_vec_free(&d);
	pt_vec_free(&o);
	return -1;
}

int pt_flops_parse_nvtx(const char *text, size_t len, const char **op, size_t *oplen, int64_t **dims,
			size_t **off, size_t *ninputs)
{
	const char *end = text + len;
	const char *c = NULL;
	for (const char *p = text; p + 1 < end; p++)
		if (p[0] == ',' && p[1] == ' ') {
			c = p;
			break;
		}
	*op = text;
	*oplen = c ? (size_t)(c - text) : len;
	*dims = NULL;
	*off = NULL;
	*ninputs = 0;
	static const char key[] = ", sizes = ";
	const char *s = NULL;
	for (const char *p = text; p + sizeof(key) - 1 <= end; p++)
		if (!memcmp(p, key, sizeof(key) - 1)) {
			s = p + sizeof(key) - 1;
			break;
		}
	if (!s)
		return 0;
	return sizes(s, end, true, dims, off, ninputs);
}

int pt_flops_parse_sizes(const char *text, size_t len, int64_t **dims, size_t **off, size_t *ninputs)
{
	*dims = NULL;
	*off = NULL;
	*ninputs = 0;
	return sizes(text, text + len, false, dims, off, ninputs);
}
