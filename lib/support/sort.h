/*
 * qsort for the arrays of this project: an empty or one-element array is
 * left alone, so a NULL array with no elements (undefined behaviour for
 * qsort, reported by UBSan) never reaches the C library. Only for small
 * arrays and cold paths: hot paths sort integer keys with radix sorts
 * (support/interval.h).
 */
#ifndef PT_SORT_H
#define PT_SORT_H
#include <stddef.h>
#include <stdlib.h>

static inline void pt_sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

#endif
