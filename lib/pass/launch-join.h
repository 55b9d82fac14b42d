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
 * filters them (correlation ids are per process; several processes, one join
 * each). A caller that needs each
 * call's API name too (`hints`: the launch pairs) asks for it before the
 * seal (pt_ljoin_keep_names: 4 more bytes a slot) and offers the calls with
 * pt_ljoin_call_named().
 *
 * The wanted ids are held in 4 bytes each until one does not fit (CUPTI's
 * are 32-bit). Where the ids are dense enough for the presence bits, the sorted ids and
 * their buckets go once sealed: an id's slot is the count of the bits before
 * its own (a count per word of bits, 4 bytes each), so the table holds 1.5
 * bits per id of the range instead of 8 bytes an id. A caller that reads the
 * calls only through pt_ljoin_get() and pt_ljoin_name() may ask for the
 * compact slots before the seal (pt_ljoin_compact): each call's end as a
 * 4-byte duration from its start and its name in 2 bytes, 10 bytes a slot
 * less with names (start stays the 8-byte j->start); a duration or name that
 * does not fit widens that column for every slot, as it was.
 */
#ifndef PT_LAUNCH_JOIN_H
#define PT_LAUNCH_JOIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_ljoin {
	uint64_t *id;          /* the wanted ids; sorted and unique once sealed */
	uint32_t *id32;        /* before the seal, while every wanted id fits in 4 bytes: them (id NULL) */
	size_t n, cap;
	int64_t *start, *end;  /* per slot, once sealed: its call; start INT64_MIN: none yet */
	uint32_t *name;        /* per slot, once sealed, when names are kept: its call's name (a string id) */
	bool names;            /* pt_ljoin_keep_names() */
	uint64_t lo, hi;       /* the ids' range */
	uint64_t *bits;        /* presence bit per id of [lo, hi], or NULL */
	uint32_t *rank;        /* with bits, once sealed: per word of bits, the bits set before it (id and bucket go) */
	uint32_t *bucket;      /* first slot of each bucket of ids ((id - lo) >> shift) */
	unsigned shift;
	size_t nbucket;
	bool sealed;
	bool compact;          /* pt_ljoin_compact() */
	uint32_t *dur;         /* compact, while every duration fits: per slot, its call's end less its start (end NULL) */
	uint16_t *name16;      /* compact names, while every name fits (name NULL) */
};

void pt_ljoin_init(struct pt_ljoin *j);
void pt_ljoin_free(struct pt_ljoin *j);
/* Before the seal: id may be looked up (0 is never an id: ignored). */
void pt_ljoin_want(struct pt_ljoin *j, uint64_t id);
/* Before the seal: keep each call's name too (pt_ljoin_call_named, pt_ljoin_name). */
void pt_ljoin_keep_names(struct pt_ljoin *j);
/* Before the seal: the compact slots (see above); the calls are then read through pt_ljoin_get() and
 * pt_ljoin_name() only. */
void pt_ljoin_compact(struct pt_ljoin *j);
/* No more wants: sort them; the calls may come. */
void pt_ljoin_seal(struct pt_ljoin *j);
/* The slot of id, or SIZE_MAX when it was not wanted. */
size_t pt_ljoin_slot(const struct pt_ljoin *j, uint64_t id);
/* A call [start, end) with correlation id `id`: kept when wanted and the first of that id (its end only
 * while j->end is there: a caller that reads no ends may free it and set it NULL after the seal). */
void pt_ljoin_call(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end);
/* The same, with the call's name (kept when pt_ljoin_keep_names() was asked for). */
void pt_ljoin_call_named(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end, uint32_t name);
/* A call that replaces any earlier one of its id (the last call of an id wins, as the summary's join
 * has it): its slot, or SIZE_MAX when the id was not wanted. */
size_t pt_ljoin_call_last(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end);
/* The name of slot s's call (0 when names are not kept or no call came). */
static inline uint32_t pt_ljoin_name(const struct pt_ljoin *j, size_t s)
{
	if (s >= j->n || j->start[s] == INT64_MIN)
		return 0;
	return j->name ? j->name[s] : j->name16 ? j->name16[s] : 0;
}
/* The call of slot s (from pt_ljoin_slot): false when none came. */
static inline bool pt_ljoin_get(const struct pt_ljoin *j, size_t s, int64_t *start, int64_t *end)
{
	if (s >= j->n || j->start[s] == INT64_MIN)
		return false;
	*start = j->start[s];
	if (end)
		*end = j->dur ? j->start[s] + (int64_t)j->dur[s] : j->end[s];
	return true;
}
/* Bytes held (for tests and notes). */
size_t pt_ljoin_bytes(const struct pt_ljoin *j);

#endif
