/*
 * FLOPs figures shared by the passes that read them (`proftool flops`,
 * `proftool hints`): the per-execution FLOPs of each framework op
 * (ascend.md §3.9: AI Core counters when the op has records, otherwise the
 * analytical table) and the peak of a device (info.json on Ascend, the GPU
 * peak table on CUDA). Model in, figures out: no tables, no output.
 */
#ifndef PT_FLOPS_COMMON_H
#define PT_FLOPS_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/flops-model.h"

struct pt_model;
struct pt_op;

struct pt_flops_opfig {
	bool known;                 /* flops is valid */
	uint64_t flops;             /* per execution */
	const char *source;         /* "counters", "analytical" or "unknown" */
	uint64_t ctr_n;             /* AI Core records of the op (all of them) */
	unsigned __int128 ctr_sum, ctr_min, ctr_max;
	struct pt_fm_result an;     /* the analytical figure */
};

/* The analytical FLOPs of one framework op from its type and tensors. */
void pt_flops_op_analytical(const struct pt_model *m, const struct pt_op *op, struct pt_fm_result *r);

/* Figures of every op of m (m->ops.n entries, in op order; free() the array).
 * Counters: the rounded mean over the op's AI Core records. */
struct pt_flops_opfig *pt_flops_op_figs(const struct pt_model *m);

enum pt_peak_src { PT_PEAK_SRC_NONE, PT_PEAK_SRC_INFO_JSON, PT_PEAK_SRC_TABLE };

struct pt_flops_peak {
	double flops;               /* FLOP/s, 0 = unknown */
	double bw;                  /* bytes/s, 0 = unknown */
	enum pt_peak_src src;
	char text[64];              /* "info.json", "table:<row> FP16", "" */
};

/* The peak of device index dev (ascend.md §3.9). */
void pt_flops_device_peak(const struct pt_model *m, uint32_t dev, struct pt_flops_peak *p);

#endif
