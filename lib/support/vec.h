/* Growable arrays: PT_VEC(T) is a struct { T *v; size_t n, cap; }. */
#ifndef PT_VEC_H
#define PT_VEC_H
#include "xalloc.h"

#define PT_VEC(T) struct { T *v; size_t n, cap; }

/* (the capacity is checked here: most reserves need no call) */
#define pt_vec_reserve(vec, need) do { \
	size_t pt_vec_need_ = (need); \
	if (pt_vec_need_ > (vec)->cap) \
		pt_xgrow((void **)&(vec)->v, &(vec)->cap, pt_vec_need_, sizeof(*(vec)->v)); \
} while (0)

#define pt_vec_push(vec, x) do { \
	pt_vec_reserve((vec), (vec)->n + 1); \
	(vec)->v[(vec)->n++] = (x); \
} while (0)

#define pt_vec_free(vec) do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

#endif
