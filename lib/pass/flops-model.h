/*
 * FLOPs models (ascend.md §3.9, cupti.md §6.12): the AI Core counter
 * formulas, the analytical table of op types (documented op by op in
 * proftool-flops(1)), element sizes, the PyTorch NVTX shape text and the
 * built-in table of GPU peaks. Pure functions: no model, no output.
 */
#ifndef PT_FLOPS_MODEL_H
#define PT_FLOPS_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One tensor of an op. A PyTorch input that is not a tensor has present = false. */
struct pt_fm_tensor {
	bool present;
	const int64_t *shape;
	uint32_t nshape;
	const char *format; /* NULL or "" = as is (ND) */
	const char *dtype;  /* NULL or "" = unknown */
};

/* An op: its type and tensors by index (absent indexes: present = false). */
struct pt_fm_op {
	const char *type;             /* "MatMul", "aten::mm" */
	const struct pt_fm_tensor *in;
	size_t nin;
	const struct pt_fm_tensor *out;
	size_t nout;
};

struct pt_fm_result {
	bool known;        /* flops is valid (0 is a known zero) */
	uint64_t flops;    /* per execution */
	const char *cls;   /* formula class ("matmul", "data-movement", ...), NULL = no formula */
	const char *why;   /* when !known: a short reason */
	bool has_bytes;    /* every tensor's element size known */
	uint64_t bytes;    /* Σ elems × element size over inputs and outputs */
};

/* Analytical FLOPs of one execution (ascend.md §3.9). Types starting with
 * "aten::" take PyTorch's conventions (shapes of inputs only). */
void pt_flops_model(const struct pt_fm_op *op, struct pt_fm_result *r);

/* Is the type in the formula table at all (including the known zeros)? */
bool pt_flops_has_formula(const char *type);

/* Element size in bytes of a data type name ("NUMBER_TYPE_FLOAT16",
 * "DT_FLOAT", "float32", ...), 0 when unknown. */
unsigned pt_flops_dtype_size(const char *dtype);

/* Counter-based FLOPs of one AI Core record (ascend.md §3.9):
 * cube = fp16 × 16³ × 2 + int8 × 16 × 16 × 32 × 2;
 * vector = fp32 × 32 + fp16_128 × 128 + fp16_64 × 64 + int32 × 64 + misc × 32. */
unsigned __int128 pt_flops_counters(const uint64_t pmu[8]);

/*
 * Parse PyTorch's NVTX operator text (cupti.md §6.12):
 *   "<op>[, seq = N][, op_id = N][, sizes = [[d, ...], [], ...]][, input_op_ids = ...]"
 * *op / *oplen: the op name. Shapes go to dims (flattened) with per-input
 * offsets: input i has dims[off[i] .. off[i+1]). Returns 1 with sizes, 0
 * without a sizes field, -1 when the sizes list is malformed. The arrays are
 * allocated (free them) when 1 is returned.
 */
/* The sizes list alone ("[[512], [64, 1024], []]", the text of a Kineto trace's
 * Input Dims as the importer keeps it): 1 parsed (arrays allocated), -1 malformed. */
int pt_flops_parse_sizes(const char *text, size_t len, int64_t **dims, size_t **off, size_t *ninputs);
int pt_flops_parse_nvtx(const char *text, size_t len, const char **op, size_t *oplen, int64_t **dims,
			size_t **off, size_t *ninputs);

/* Peak table columns (ascend.md §3.9). */
enum pt_peak_col {
	PT_PEAK_FP64,
	PT_PEAK_FP32,
	PT_PEAK_TF32,
	PT_PEAK_FP16,
	PT_PEAK_BF16,
	PT_PEAK_FP8,
	PT_PEAK_INT8,
	PT_PEAK__N
};

/* Column of a data type: FP16/BF16/FP8/INT8 -> tensor-core columns, FP32,
 * FP64; unknown -> FP16 (the documented default). */
enum pt_peak_col pt_flops_peak_col(const char *dtype);
const char *pt_flops_peak_col_name(enum pt_peak_col c);

/*
 * GPU peak of a device name (case-insensitive, first matching row wins).
 * Returns false when no row matches. *flops is 0 when the row has no figure
 * for the column. *bw: memory bandwidth in bytes/s, *row: the row's name.
 */
bool pt_flops_gpu_peak(const char *name, enum pt_peak_col col, double *flops, double *bw, const char **row);

#endif
