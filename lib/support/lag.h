/*
 * How far the starts of one track's events fall behind its latest start, as a
 * first read of a model file sees them: a second read releases what comes
 * before "the latest start less the lag" (the streamed summary, the streamed
 * export). Unsigned differences: a lag up to 2^64 - 1 ns is held exactly.
 */
#ifndef PT_LAG_H
#define PT_LAG_H
#include <stdbool.h>
#include <stdint.h>

struct pt_lag {
	uint64_t count, lag; /* events seen; the largest distance back from the latest start */
	int64_t min, top;    /* the earliest and the latest start */
};

static inline void pt_lag_add(struct pt_lag *w, int64_t st)
{
	if (!w->count++) {
		w->min = w->top = st;
		return;
	}
	if (st < w->min)
		w->min = st;
	if (st < w->top) {
		uint64_t back = (uint64_t)w->top - (uint64_t)st;
		if (back > w->lag)
			w->lag = back;
	} else {
		w->top = st;
	}
}

/* The earliest start the track's next event can have, when `seen` of its events came and `top` is
 * the latest start among them (its earliest start while none came). */
static inline int64_t pt_lag_floor(const struct pt_lag *w, bool seen, int64_t top)
{
	if (!seen)
		return w->min;
	__int128 x = (__int128)top - (__int128)w->lag;
	return x < INT64_MIN ? INT64_MIN : (int64_t)x;
}

#endif
