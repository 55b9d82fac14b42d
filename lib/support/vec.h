/* Growable arrays: PT_VEC(T) is a struct { T *v; size_t n, cap; }. */
#ifndef PT_VEC_H
#define PT_VEC_H
#include "xalloc.h"

#define PT_VEC(T) struct { T *v; size_t n, cap; }

#define pt_vec_reserve(vec, need) \
	pt_xgrow((void **)&(vec)->v, &(vec)->cap, (need), sizeof(*(vec)->v))

#define pt_vec_push(vec, x) do { \
	pt_vec_reserve((vec), (vec)->n + 1); \
	(vec)->v[(vec)->n++] = (x); \
} while (0)

#define pt_vec_free(vec) do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

#endif
