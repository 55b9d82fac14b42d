/*
 * qsort for the arrays of this project: an empty or one-element array is
 * left alone, so a NULL array with no elements (undefined behaviour for
 * qsort, reported by UBSan) never reaches the C library. Only for small
 * arrays and cold paths: hot paths sort integer keys with radix sorts
 * (support/interval.h).
 */
#ifndef PT_SORT_H
#define PT_SORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline void pt_sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

static inline int pt_i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static inline int pt_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static inline int pt_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/*
 * Do the n numbers v[] all differ? Sorts v (the caller's copy): n log n, not
 * every pair (which a trace of 167,383 steps spent tens of seconds on).
 */
static inline bool pt_i64_distinct(int64_t *v, size_t n)
{
	pt_sort(v, n, sizeof(*v), pt_i64_cmp);
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] == v[i])
			return false;
	return true;
}

#endif
