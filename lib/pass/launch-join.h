/*
 * The GPU launch join over a stream (summary.md §2.1): each device
 * activity's launching runtime/driver call, by correlation id, for a pass
 * that reads a model as a stream and cannot hold its calls.
 *
 * Keyed by the ids that may be looked up (the activities'), which are few
 * next to the calls' (most calls launch nothing): a first read gathers them
 * (pt_ljoin_want), pt_ljoin_seal() sorts them into a table of 8 bytes an id
 * plus a bit per id of their range when that range is small enough; a later
 * read offers every call (pt_ljoin_call: the first call of an id wins, as in
 * the model's event order) and keeps its start and end, 16 bytes an id; then
 * pt_ljoin_slot() finds an activity's id. The slots are in id order, so
 * comparing slots compares ids. The calls of one host only: the caller
 * filters them (correlation ids are per process).
 */
#ifndef PT_LAUNCH_JOIN_H
#define PT_LAUNCH_JOIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_ljoin {
	uint64_t *id;          /* the wanted ids; sorted and unique once sealed */
	size_t n, cap;
	int64_t *start, *end;  /* per slot, once sealed: its call; start INT64_MIN: none yet */
	uint64_t lo, hi;       /* the ids' range */
	uint64_t *bits;        /* presence bit per id of [lo, hi], or NULL */
	uint32_t *bucket;      /* first slot of each bucket of ids ((id - lo) >> shift) */
	unsigned shift;
	size_t nbucket;
	bool sealed;
};

void pt_ljoin_init(struct pt_ljoin *j);
void pt_ljoin_free(struct pt_ljoin *j);
/* Before the seal: id may be looked up (0 is never an id: ignored). */
void pt_ljoin_want(struct pt_ljoin *j, uint64_t id);
/* No more wants: sort them; the calls may come. */
void pt_ljoin_seal(struct pt_ljoin *j);
/* The slot of id, or SIZE_MAX when it was not wanted. */
size_t pt_ljoin_slot(const struct pt_ljoin *j, uint64_t id);
/* A call [start, end) with correlation id `id`: kept when wanted and the first of that id (its end only
 * while j->end is there: a caller that reads no ends may free it and set it NULL after the seal). */
void pt_ljoin_call(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end);
/* The call of slot s (from pt_ljoin_slot): false when none came. */
static inline bool pt_ljoin_get(const struct pt_ljoin *j, size_t s, int64_t *start, int64_t *end)
{
	if (s >= j->n || j->start[s] == INT64_MIN)
		return false;
	*start = j->start[s];
	if (end)
		*end = j->end[s];
	return true;
}
/* Bytes held (for tests and notes). */
size_t pt_ljoin_bytes(const struct pt_ljoin *j);

#endif
