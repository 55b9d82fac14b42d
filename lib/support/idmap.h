/*
 * A map from uint64 ids to uint64 values for ids that are mostly dense, such
 * as CUPTI correlation ids (1, 2, 3, ... per process): ids in [lo, lo + span)
 * live in a direct array, any other id in a hash map. Lookups of dense ids
 * cost one array access instead of hash probes over three arrays, which
 * dominated the launch joins of large CUPTI models. Same contract as
 * pt_hashmap (support/hashmap.h): pointers stay valid until the next put.
 */
#ifndef PT_IDMAP_H
#define PT_IDMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/hashmap.h"

struct pt_idmap {
	uint64_t lo;    /* first id of the direct array */
	size_t span;    /* ids in the direct array, 0 = none */
	uint64_t *val;  /* span values */
	uint64_t *bits; /* span presence bits */
	struct pt_hashmap h; /* the other ids */
	uint64_t flo, fspan; /* pt_idmap_filter(): the hashed ids' range ... */
	uint64_t *filter;    /* ... and their presence bits, NULL = none */
};

/*
 * Expect about n ids within [lo, hi] (the caller's pre-scan): the direct
 * array is used when that range is at most 4 n + 4096 ids, else every id
 * goes to the hash map. Any id may be put whatever the hint.
 */
void pt_idmap_init(struct pt_idmap *m, uint64_t lo, uint64_t hi, size_t n);
void pt_idmap_free(struct pt_idmap *m);
/*
 * Before the first put of a map whose ids went to the hash map: when their
 * range [lo, hi] spans fewer than `most` ids, keep a bit per id of that
 * range, so that a get of an id never put misses without probing the hash
 * map (a join keyed by few ids and probed by many). A put outside the range
 * drops the bits; a direct map needs none.
 */
void pt_idmap_filter(struct pt_idmap *m, uint64_t lo, uint64_t hi, uint64_t most);
/* Pointer to the value of key, or NULL. */
uint64_t *pt_idmap_get(const struct pt_idmap *m, uint64_t key);
/* Pointer to the value of key, inserting it with value `init` if absent; *added (if not NULL) tells which. */
uint64_t *pt_idmap_put(struct pt_idmap *m, uint64_t key, uint64_t init, bool *added);

#endif
