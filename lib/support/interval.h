/*
 * Interval algebra over half-open [s, e) int64 intervals (ascend.md §3.8,
 * summary.md §2.7). An ivset is sorted, disjoint and non-touching: union
 * joins touching intervals.
 */
#ifndef PT_INTERVAL_H
#define PT_INTERVAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_ival {
	int64_t s, e;
};

struct pt_ivset {
	struct pt_ival *v;
	size_t n, cap;
};

/* Sort iv (n intervals, reordered in place) by start and union them into out. Empty or reversed intervals are dropped. */
void pt_ivset_build(struct pt_ivset *out, struct pt_ival *iv, size_t n);
/*
 * Add [s, e) to x, whose starts so far are all <= s (intervals fed in start
 * order, e.g. by a merge): joins it to the last interval when they touch or
 * overlap; an empty or reversed interval is dropped, as pt_ivset_build does.
 */
void pt_ivset_append_grow(struct pt_ivset *x, int64_t s, int64_t e);
static inline void pt_ivset_append(struct pt_ivset *x, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (x->n && s <= x->v[x->n - 1].e) { /* touching or overlapping the last: join */
		if (e > x->v[x->n - 1].e)
			x->v[x->n - 1].e = e;
	} else if (x->n < x->cap) {
		x->v[x->n++] = (struct pt_ival){ s, e };
	} else {
		pt_ivset_append_grow(x, s, e);
	}
}
void pt_ivset_free(struct pt_ivset *x);
/* Does x contain t (some [s, e) of x with s <= t < e)? O(log n) */
bool pt_ivset_contains(const struct pt_ivset *x, int64_t t);
/* |x| */
int64_t pt_ivset_measure(const struct pt_ivset *x);
/* |x ∩ [s, e)|, O(log n + k) */
int64_t pt_ivset_measure_in(const struct pt_ivset *x, int64_t s, int64_t e);
/* |(x ∪ y) ∩ [a, b)| (x, y canonical) in one sweep of both within the window, without the union as a set. */
int64_t pt_ivset_union_measure_in(const struct pt_ivset *x, const struct pt_ivset *y, int64_t a, int64_t b);
/* out = a ∪ b, a ∩ b, a − b (out must be distinct from a and b) */
void pt_ivset_union(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b);
void pt_ivset_inter(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b);
void pt_ivset_diff(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b);
/* out = a ∩ [s, e) */
void pt_ivset_clip(struct pt_ivset *out, const struct pt_ivset *a, int64_t s, int64_t e);
/* Sort intervals by start (LSD radix sort; stable). */
void pt_ival_sort(struct pt_ival *iv, size_t n);
/* The same, reporting progress as items of what (support/progress.h) when what is not NULL. */
void pt_ival_sort_report(struct pt_ival *iv, size_t n, const char *what);

#endif
