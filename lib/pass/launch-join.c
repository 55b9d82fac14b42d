/*
 * The streamed launch join (launch-join.h): a sorted id table, found through
 * buckets of the ids' range (about eight ids a bucket) and a binary search in
 * the bucket, behind a presence bit per id of the range where that range is
 * at most 64 ids per wanted one (8 bytes a wanted id), so that the many calls
 * that launch nothing mostly miss on one bit. With those bits the table and
 * buckets go: a count of the bits set before each word of them finds a slot
 * (rank), one popcount away. Compact slots (pt_ljoin_compact) hold a call's
 * end as a 4-byte duration and its name in 2 bytes until one does not fit.
 */
#include "pass/launch-join.h"

#include <stdlib.h>
#include <string.h>

#include "support/interval.h"
#include "support/sort.h"
#include "support/xalloc.h"

/* The bucket of offset o (an id less lo). */
static size_t bucket_of(unsigned shift, uint64_t o)
{
	return shift >= 64 ? 0 : (size_t)(o >> shift);
}

void pt_ljoin_init(struct pt_ljoin *j)
{
	memset(j, 0, sizeof(*j));
}

void pt_ljoin_free(struct pt_ljoin *j)
{
	free(j->id);
	free(j->id32);
	free(j->start);
	free(j->end);
	free(j->name);
	free(j->bits);
	free(j->rank);
	free(j->bucket);
	free(j->dur);
	free(j->name16);
	memset(j, 0, sizeof(*j));
}

void pt_ljoin_want(struct pt_ljoin *j, uint64_t id)
{
	if (!id || j->sealed)
		return;
	if (!j->id && id > UINT32_MAX) { /* widen: 8 bytes an id from here */
		j->id = pt_xmalloc((j->cap ? j->cap : 1) * sizeof(*j->id));
		for (size_t i = 0; i < j->n; i++)
			j->id[i] = j->id32[i];
		free(j->id32);
		j->id32 = NULL;
	}
	/* an id repeated right away (the kernels of one graph launch) is kept once */
	if (j->n && (j->id ? j->id[j->n - 1] : j->id32[j->n - 1]) == id)
		return;
	if (j->id) {
		pt_xgrow((void **)&j->id, &j->cap, j->n + 1, sizeof(*j->id));
		j->id[j->n++] = id;
	} else {
		pt_xgrow((void **)&j->id32, &j->cap, j->n + 1, sizeof(*j->id32));
		j->id32[j->n++] = (uint32_t)id;
	}
}

void pt_ljoin_keep_names(struct pt_ljoin *j)
{
	if (!j->sealed)
		j->names = true;
}

void pt_ljoin_compact(struct pt_ljoin *j)
{
	if (!j->sealed)
		j->compact = true;
}

void pt_ljoin_seal(struct pt_ljoin *j)
{
	if (j->sealed)
		return;
	j->sealed = true;
	size_t u = 0;
	if (j->id32) { /* sorted and unique in their 4 bytes (8 only for a table without the presence bits) */
		if (j->n > 1)
			qsort(j->id32, j->n, sizeof(*j->id32), pt_u32_cmp);
		for (size_t i = 0; i < j->n; i++)
			if (!u || j->id32[u - 1] != j->id32[i])
				j->id32[u++] = j->id32[i];
		j->id32 = pt_xrealloc(j->id32, (u ? u : 1) * sizeof(*j->id32));
	} else {
		if (j->n > 1)
			qsort(j->id, j->n, sizeof(*j->id), pt_u64_cmp);
		for (size_t i = 0; i < j->n; i++)
			if (!u || j->id[u - 1] != j->id[i])
				j->id[u++] = j->id[i];
		j->id = pt_xrealloc(j->id, (u ? u : 1) * sizeof(*j->id));
	}
	j->n = u;
	j->cap = u;
	j->start = pt_xmalloc((u ? u : 1) * sizeof(*j->start));
	if (j->compact)
		j->dur = pt_xcalloc(u ? u : 1, sizeof(*j->dur));
	else
		j->end = pt_xmalloc((u ? u : 1) * sizeof(*j->end));
	for (size_t i = 0; i < u; i++)
		j->start[i] = INT64_MIN;
	if (j->names && j->compact)
		j->name16 = pt_xcalloc(u ? u : 1, sizeof(*j->name16));
	else if (j->names)
		j->name = pt_xcalloc(u ? u : 1, sizeof(*j->name));
	if (!u)
		return;
	j->lo = j->id32 ? j->id32[0] : j->id[0];
	j->hi = j->id32 ? j->id32[u - 1] : j->id[u - 1];
	uint64_t range = j->hi - j->lo; /* ids in the range, less one */
	if (range / 64 < u) {
		size_t words = (size_t)(range / 64) + 1;
		j->bits = pt_xcalloc(words, sizeof(*j->bits));
		for (size_t i = 0; i < u; i++) {
			uint64_t o = (j->id32 ? j->id32[i] : j->id[i]) - j->lo;
			j->bits[o / 64] |= UINT64_C(1) << (o % 64);
		}
		/* an id's slot is the count of the bits before its own: the ids and buckets go */
		j->rank = pt_xmalloc(words * sizeof(*j->rank));
		uint32_t before = 0;
		for (size_t w = 0; w < words; w++) {
			j->rank[w] = before;
			before += (uint32_t)__builtin_popcountll(j->bits[w]);
		}
		free(j->id);
		free(j->id32);
		j->id = NULL;
		j->id32 = NULL;
		j->cap = 0;
		return;
	}
	if (j->id32) { /* the table's ids: 8 bytes each */
		j->id = pt_xmalloc(u * sizeof(*j->id));
		for (size_t i = 0; i < u; i++)
			j->id[i] = j->id32[i];
		free(j->id32);
		j->id32 = NULL;
	}
	/* buckets: a power of two of them, about u / 8, over the range */
	size_t nb = 1;
	while (nb < u / 8 && nb < ((size_t)1 << 30))
		nb <<= 1;
	unsigned sh = 0;
	while (sh < 64 && (range >> sh) >= nb)
		sh++;
	j->shift = sh;
	j->nbucket = nb;
	j->bucket = pt_xmalloc((nb + 1) * sizeof(*j->bucket));
	size_t at = 0;
	for (size_t b = 0; b <= nb; b++) {
		while (at < u && bucket_of(sh, j->id[at] - j->lo) < b)
			at++;
		j->bucket[b] = (uint32_t)at;
	}
}

size_t pt_ljoin_slot(const struct pt_ljoin *j, uint64_t id)
{
	if (!j->n || id < j->lo || id > j->hi)
		return SIZE_MAX;
	uint64_t o = id - j->lo;
	if (j->bits && !(j->bits[o / 64] >> (o % 64) & 1))
		return SIZE_MAX;
	if (j->rank) /* the bits before it */
		return j->rank[o / 64] + (size_t)__builtin_popcountll(j->bits[o / 64] & ((UINT64_C(1) << (o % 64)) - 1));
	size_t b = bucket_of(j->shift, o);
	size_t lo = j->bucket[b], hi = j->bucket[b + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (j->id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->n && j->id[lo] == id ? lo : SIZE_MAX;
}

/* Compact slots: the durations as ends, for every slot (one that does not fit came). */
static void widen_ends(struct pt_ljoin *j)
{
	j->end = pt_xmalloc((j->n ? j->n : 1) * sizeof(*j->end));
	for (size_t i = 0; i < j->n; i++)
		j->end[i] = j->start[i] == INT64_MIN ? 0 : j->start[i] + (int64_t)j->dur[i];
	free(j->dur);
	j->dur = NULL;
}

static void widen_names(struct pt_ljoin *j)
{
	j->name = pt_xmalloc((j->n ? j->n : 1) * sizeof(*j->name));
	for (size_t i = 0; i < j->n; i++)
		j->name[i] = j->name16[i];
	free(j->name16);
	j->name16 = NULL;
}

/* Slot s's call (its start is set by the caller, after). */
static void put(struct pt_ljoin *j, size_t s, int64_t start, int64_t end, uint32_t name)
{
	if (j->dur && (end < start || (uint64_t)end - (uint64_t)start > UINT32_MAX))
		widen_ends(j);
	if (j->dur)
		j->dur[s] = (uint32_t)((uint64_t)end - (uint64_t)start);
	else if (j->end) /* (a caller that needs only the starts may free the ends after the seal) */
		j->end[s] = end;
	if (j->name16 && name > UINT16_MAX)
		widen_names(j);
	if (j->name16)
		j->name16[s] = (uint16_t)name;
	else if (j->name)
		j->name[s] = name;
}

void pt_ljoin_call_named(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end, uint32_t name)
{
	size_t s = pt_ljoin_slot(j, id);
	if (s == SIZE_MAX || j->start[s] != INT64_MIN)
		return;
	put(j, s, start, end, name);
	j->start[s] = start;
}

void pt_ljoin_call(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end)
{
	pt_ljoin_call_named(j, id, start, end, 0);
}

size_t pt_ljoin_call_last(struct pt_ljoin *j, uint64_t id, int64_t start, int64_t end)
{
	size_t s = pt_ljoin_slot(j, id);
	if (s != SIZE_MAX) {
		uint32_t name = j->name ? j->name[s] : j->name16 ? j->name16[s] : 0;
		put(j, s, start, end, name);
		j->start[s] = start;
	}
	return s;
}

size_t pt_ljoin_bytes(const struct pt_ljoin *j)
{
	size_t b = j->cap * (j->id32 ? sizeof(*j->id32) : sizeof(*j->id));
	if (j->sealed) {
		size_t n = j->n ? j->n : 1;
		b += n * sizeof(*j->start);
		b += j->end ? n * sizeof(*j->end) : j->dur ? n * sizeof(*j->dur) : 0;
		b += j->name ? n * sizeof(*j->name) : j->name16 ? n * sizeof(*j->name16) : 0;
		if (j->bucket)
			b += (j->nbucket + 1) * sizeof(*j->bucket);
		if (j->bits)
			b += (size_t)((j->hi - j->lo) / 64 + 1) * (sizeof(*j->bits) + (j->rank ? sizeof(*j->rank) : 0));
	}
	return b;
}
