/*
 * Growable bit arrays of 64-bit words, one bit per event of a file (the
 * streamed passes mark events as a read passes them and test them later).
 */
#ifndef PT_BITS_H
#define PT_BITS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "support/xalloc.h"

/* Room in *v (*nw words) for bit n - 1, the new words zeroed. */
static inline void pt_bits_grow(uint64_t **v, size_t *nw, uint64_t n)
{
	size_t words = (size_t)(n / 64 + 1);
	if (words <= *nw)
		return;
	size_t old = *nw;
	pt_xgrow((void **)v, nw, words, sizeof(**v));
	memset(*v + old, 0, (*nw - old) * sizeof(**v));
}

static inline void pt_bits_set(uint64_t *v, uint64_t i)
{
	v[i / 64] |= UINT64_C(1) << (i % 64);
}

/* Bit i of v (nw words; false past them). */
static inline bool pt_bits_get(const uint64_t *v, size_t nw, uint64_t i)
{
	return i / 64 < nw && (v[i / 64] >> (i % 64) & 1);
}
#endif
