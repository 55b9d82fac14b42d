/*
 * The PyTorch operator ranges of a GPU model file (cupti.md §6.12) without
 * holding its events, for `proftool flops` (pass-flops.c): each range with
 * what pt_flops_gpu_ranges() gives it on the loaded model (its figure, its
 * nesting rule, its inclusive kernel time and device), handed over once its
 * nesting on its thread is final. Two reads:
 *
 *  1. a read of the tables into a model of its own: per kernel event its
 *     duration and device (12 bytes a kernel), the launch links that name a
 *     kernel (8 bytes a link, a chunk at a time), the operator ranges' events
 *     and labels and the Input Dims of their events, and whether each
 *     thread's ranges are in start order; then each operator range's own
 *     kernel time and the device of its first linked kernel (28 bytes a range
 *     in all), the kernels and links dropped;
 *  2. the events alone (into the model a first read of the file filled): each
 *     thread's operator ranges in (start, longest first, event) order through
 *     a stack, one record per range still open; a range leaving the stack adds
 *     its kernel time, its first kernel and its non-zero FLOPs to its parent's.
 */
#ifndef PT_FLOPS_GSTREAM_H
#define PT_FLOPS_GSTREAM_H
#include <stdbool.h>
#include <stdint.h>

#include "pass/flops-common.h"

struct pt_err;
struct pt_model;
struct pt_ptm_source;

/* A final operator range: r as pt_flops_gpu_ranges() makes it (r.ev the file's event index, r.parent 0). */
struct pt_flops_grange {
	struct pt_flops_range r;
	uint32_t track, name;  /* its event's track and name */
	int64_t start, dur;
};

struct pt_flops_gstream;

/*
 * Read 1 of src (a file that can be read again). *gs NULL (0 returned): the
 * model holds no operator range (then *none, where none is not NULL, is true:
 * a caller with FLOPs data of another kind goes on without them), or does not
 * stream (a thread's ranges out of start order, range infos or event
 * arguments out of event order); load it.
 */
int pt_flops_gstream_open(const struct pt_ptm_source *src, struct pt_flops_gstream **gs, bool *none, struct pt_err **e);
/* Read 2, into m (filled by a first streaming read of src, its events alone read): fn gets each range. */
int pt_flops_gstream_ranges(struct pt_flops_gstream *gs, const struct pt_ptm_source *src, struct pt_model *m,
			    void (*fn)(void *arg, const struct pt_flops_grange *r), void *arg, struct pt_err **e);
void pt_flops_gstream_free(struct pt_flops_gstream *gs);

#endif
