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

/*
 * GPU: a PyTorch Operator range of the default NVTX domain (cupti.md §6.12)
 * with the analytical FLOPs of its sizes text. Ranges nest by time on each
 * thread; only a range without a descendant of non-zero known FLOPs counts
 * (!nonzero_desc): an enclosing op's FLOPs are its descendants'.
 */
struct pt_flops_range {
	size_t ev;           /* event index of the range */
	uint32_t parent;     /* index in the list + 1, 0 = none */
	bool known, nonzero_desc;
	bool malformed;      /* sizes text that does not parse (FLOPs unknown) */
	uint64_t flops;
	int64_t gpu;         /* inclusive kernel time (its kernels and its descendants', through the links) */
	uint32_t dev;        /* GPU device index of its first kernel, PT_NONE */
	uint32_t type;       /* op name string id */
	uint32_t shapes;     /* string id of its Input Dims (a Kineto cpu_op), UINT32_MAX: none */
	const char *cls;
};

/*
 * The Operator ranges of m in (thread, start, longest first, event) order;
 * *n entries (free() the array; NULL when none). When kernel_range is not
 * NULL it receives an array of m->events.n entries (free() it): for a kernel
 * linked to a listed range as its innermost host range, that range's index
 * + 1, else 0.
 */
struct pt_flops_range *pt_flops_gpu_ranges(const struct pt_model *m, size_t *n, uint32_t **kernel_range);

/*
 * known, flops, cls, malformed and shapes of r for an Operator range named text: FLOPs from the name's
 * NVTX sizes, else from its Input Dims argument (key dims_key, UINT32_MAX: none), which is *given when
 * given is not NULL (UINT32_MAX: none; a caller that read the arguments itself), else looked up for
 * event in m->event_args.
 */
void pt_flops_range_figure(const struct pt_model *m, const char *text, uint32_t dims_key, uint32_t event,
			   const uint32_t *given, struct pt_flops_range *r);

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
