/*
 * A track's lag, block by block of its events in file order (pt_lag holds one
 * lag for the whole track). A first read adds each start; a second read then
 * asks how early the events it has not read yet can start. A real CUPTI dump
 * shows why one lag is not enough: the first copies of a process arrive a few
 * seconds behind the kernels recorded after them, and a single lag would hold
 * every later event back by those seconds for the rest of the file.
 *
 * Each block keeps the earliest start of its events and the largest distance
 * by which one of them falls behind the latest start before it. The blocks
 * double in size (pairs merged) when there would be more than PT_LAGPROF_CAP,
 * so the profile of any track stays within PT_LAGPROF_CAP * 24 bytes.
 */
#ifndef PT_LAGPROF_H
#define PT_LAGPROF_H
#include <stdbool.h>
#include <stdint.h>

#define PT_LAGPROF_CAP 1024

struct pt_lagblk {
	int64_t min;  /* the earliest start of the block's events */
	int64_t rest; /* after pt_lagprof_finish: the earliest start of every later block's events */
	uint64_t lag; /* the largest distance of a start behind the latest start before it */
};

struct pt_lagprof {
	uint64_t count; /* events added */
	uint64_t k;     /* events per block (a power of two) */
	int64_t top;    /* the latest start added */
	uint32_t n, cap;
	struct pt_lagblk *b;
};

void pt_lagprof_add(struct pt_lagprof *p, int64_t st);
/* After the last pt_lagprof_add: each block's rest. */
void pt_lagprof_finish(struct pt_lagprof *p);
/* The earliest start that events j.. of the track can have, where top is the latest start among
 * events 0..j-1 (ignored when j is 0); INT64_MAX when none is left. */
int64_t pt_lagprof_floor(const struct pt_lagprof *p, uint64_t j, int64_t top);
void pt_lagprof_free(struct pt_lagprof *p);

#endif
