/*
 * The streamed GPU timeline's stragglers (pass-timeline-gstream.c: events
 * that start far before an earlier one of their process in the file, CUPTI's
 * NVTX ranges and context syncs written after their calls), held from the
 * second read to the end in columns of their own: start (8 bytes), file
 * index, name, length, correlation id and, once the second read ends, step (4
 * bytes each) and kind and keep (1 byte), 29 bytes a straggler in file order,
 * the count taken from the first read (no room to spare); the rare fields
 * (a task, an op (its index + 1 in the events), a kernel's configuration, a kineto range or copy info, a
 * length that does not fit 32 bits, an id that does not fit 32 bits) in a
 * side table of the stragglers that have them, in file order, found by halves.
 * An event of them is made whole again (struct tl_sev) where the rows take it.
 */
#ifndef PT_PASS_TIMELINE_GSTRAG_H
#define PT_PASS_TIMELINE_GSTRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/pass-timeline-trace.h"

struct tl_strags {
	size_t n, cap;
	int64_t *st;
	uint32_t *ev;   /* its index in the model file (ascending) */
	uint32_t *name, *du, *corr;
	uint32_t *aux;  /* its track until tl_strags_set, then its step */
	uint8_t *fl;    /* kind (SG_KIND), keep bits (pt_tl.ev_keep's, << SG_KEEP_SHIFT), SG_X: in x */
	struct tl_sgx {
		uint64_t task, corr;
		int64_t dur;
		uint32_t k, op, kconf;
		uint8_t kx;
	} *x;
	size_t nx, xcap;
};

/* Room for n stragglers (the first read's count; a push beyond it grows the columns). */
void tl_strags_reserve(struct tl_strags *g, size_t n);
/* Straggler v of track tr (its step and keep not known yet), after those of lower file indexes. */
void tl_strags_push(struct tl_strags *g, const struct tl_sev *v, uint32_t tr);
/* Straggler k's track (before tl_strags_set). */
static inline uint32_t tl_strags_track(const struct tl_strags *g, size_t k)
{
	return g->aux[k];
}
/* Straggler k's step and keep bits, once the steps are known (its track is then no longer told). */
void tl_strags_set(struct tl_strags *g, size_t k, uint32_t step, uint8_t keep);
/* Straggler k whole. */
void tl_strags_get(const struct tl_strags *g, size_t k, struct tl_sev *v);
void tl_strags_free(struct tl_strags *g);

#endif
