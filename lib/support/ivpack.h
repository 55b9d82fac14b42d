/*
 * A canonical interval set (support/interval.h: disjoint, not touching, in
 * start order) packed as varints, for a set too large to hold at 16 bytes an
 * interval that is only ever read in order: each interval as its gap from the
 * previous one's end (the first: its start, zigzag-coded) and its length,
 * usually 3 to 6 bytes in all. Built by appending in start order (joined as
 * pt_ivset_append joins), read with a cursor from the first interval on.
 */
#ifndef PT_IVPACK_H
#define PT_IVPACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/interval.h"

struct pt_ivpack {
	uint8_t *b;
	size_t n, cap;       /* bytes */
	size_t count;        /* intervals packed */
	int64_t last_e;      /* the end of the last one packed (0 before the first) */
	bool open;           /* tail: the last interval, still open to a join */
	struct pt_ival tail;
};

/* Add [s, e) (s not before the previous start; an empty one adds nothing). */
void pt_ivpack_append(struct pt_ivpack *p, int64_t s, int64_t e);
/* No more appends: the open interval is packed, the slack given back. */
void pt_ivpack_close(struct pt_ivpack *p);
void pt_ivpack_free(struct pt_ivpack *p);

/* A cursor over a closed set. */
struct pt_ivpack_cur {
	size_t pos;
	int64_t prev_e;
};
static inline void pt_ivpack_begin(struct pt_ivpack_cur *c)
{
	c->pos = 0;
	c->prev_e = 0;
}
/* The next interval into *out; false at the end. */
bool pt_ivpack_next(const struct pt_ivpack *p, struct pt_ivpack_cur *c, struct pt_ival *out);

#endif
