/*
 * Open-addressing hash map from uint64 keys to uint64 values. Iteration order
 * is never used for output (determinism): callers keep their own ordered lists.
 */
#ifndef PT_HASHMAP_H
#define PT_HASHMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_hashmap {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap; /* power of two */
	size_t n;
};

static inline uint64_t pt_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

void pt_hashmap_init(struct pt_hashmap *h);
void pt_hashmap_free(struct pt_hashmap *h);
/* Pointer to the value of key, or NULL. */
uint64_t *pt_hashmap_get(const struct pt_hashmap *h, uint64_t key);
/* Pointer to the value of key, inserting it with value `init` if absent; *added tells which. */
uint64_t *pt_hashmap_put(struct pt_hashmap *h, uint64_t key, uint64_t init, bool *added);
/* Size the table once for n keys, so that n puts never grow it (no old and new tables side by side). */
void pt_hashmap_reserve(struct pt_hashmap *h, size_t n);
/* Remove key; returns whether it was present. */
bool pt_hashmap_del(struct pt_hashmap *h, uint64_t key);

#endif
