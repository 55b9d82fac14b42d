#include "support/interval.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/progress.h"
#include "support/xalloc.h"

static void push(struct pt_ivset *x, int64_t s, int64_t e)
{
	if (x->n && s <= x->v[x->n - 1].e) { /* touching or overlapping: join */
		if (e > x->v[x->n - 1].e)
			x->v[x->n - 1].e = e;
		return;
	}
	pt_xgrow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v));
	x->v[x->n++] = (struct pt_ival){ s, e };
}

/* Empty out and give it room for n intervals at once (no growth by copies while filling). */
static void reset(struct pt_ivset *out, size_t n)
{
	out->n = 0;
	if (out->cap >= n)
		return;
	free(out->v);
	out->v = pt_xmalloc(n * sizeof(*out->v));
	out->cap = n;
}

/* Stable insertion sort of iv[0..n) by start; iv[0..k) already in order. */
static void insertion_sort(struct pt_ival *iv, size_t k, size_t n)
{
	for (size_t i = k ? k : 1; i < n; i++) {
		struct pt_ival t = iv[i];
		size_t j = i;
		while (j > 0 && iv[j - 1].s > t.s) {
			iv[j] = iv[j - 1];
			j--;
		}
		iv[j] = t;
	}
}

/* The sort key: the start as unsigned, relative to the smallest start lo. */
static inline uint64_t ival_key(const struct pt_ival *x, uint64_t lo)
{
	return ((uint64_t)x->s ^ (1ULL << 63)) - lo;
}

/*
 * Stable LSD radix sort of the n intervals at a (with b, as large, for room)
 * by the low `bits` bits of their key. Returns a or b: where the result is.
 */
static struct pt_ival *lsd_sort(struct pt_ival *a, struct pt_ival *b, size_t n, uint64_t lo, unsigned bits,
				size_t *cnt)
{
	unsigned passes = (bits + 10) / 11, d = (bits + passes - 1) / passes;
	size_t nd = (size_t)1 << d;
	struct pt_ival *src = a, *dst = b;
	for (unsigned shift = 0; shift < bits; shift += d) {
		memset(cnt, 0, nd * sizeof(*cnt));
		for (size_t i = 0; i < n; i++)
			cnt[ival_key(&src[i], lo) >> shift & (nd - 1)]++;
		if (cnt[ival_key(&src[0], lo) >> shift & (nd - 1)] == n)
			continue; /* every key has the same digit */
		size_t sum = 0;
		for (size_t k = 0; k < nd; k++) {
			size_t c = cnt[k];
			cnt[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[ival_key(&src[i], lo) >> shift & (nd - 1)]++] = src[i];
		struct pt_ival *t = src;
		src = dst;
		dst = t;
	}
	return src;
}

#define BLOCK ((size_t)65536)

/* Progress of a sort: what done of 4 n (three passes through memory, then
 * the buckets), reported before each block of 65,536 elements. */
static void sort_report(const char *what, uint64_t done, size_t n)
{
	if (what)
		pt_progress_items(what, done, 4 * (uint64_t)n);
}

void pt_ival_sort(struct pt_ival *iv, size_t n)
{
	pt_ival_sort_report(iv, n, NULL);
}

void pt_ival_sort_report(struct pt_ival *iv, size_t n, const char *what)
{
	size_t k = 1; /* already in order (often: one track's events): nothing to do, the sort is stable */
	while (k < n && iv[k - 1].s <= iv[k].s)
		k++;
	if (k >= n)
		return;
	if (n < 64) {
		insertion_sort(iv, k, n);
		return;
	}
	/*
	 * Radix sort on the key relative to the smallest start: first by its top
	 * (up to) 11 bits, in one pass through memory, into buckets that then
	 * mostly fit the caches; then each bucket by the remaining low bits,
	 * least significant digit first. Every step is stable.
	 */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t b = 0; b < n; b += BLOCK) {
		sort_report(what, b, n);
		for (size_t i = b, be = n - b < BLOCK ? n : b + BLOCK; i < be; i++) {
			uint64_t key = (uint64_t)iv[i].s ^ (1ULL << 63);
			if (key < lo)
				lo = key;
			if (key > hi)
				hi = key;
		}
	}
	unsigned bits = 64 - (unsigned)__builtin_clzll(hi - lo); /* hi > lo: not in order */
	unsigned top = bits < 11 ? bits : 11, low = bits - top;
	size_t nb = (size_t)1 << top;
	struct pt_ival *tmp = pt_xmalloc(n * sizeof(*tmp));
	size_t *start = pt_xcalloc(nb + 1, sizeof(*start)), *fill = pt_xmalloc(nb * sizeof(*fill));
	size_t *cnt = pt_xmalloc(2048 * sizeof(*cnt));
	for (size_t b = 0; b < n; b += BLOCK) {
		sort_report(what, n + b, n);
		for (size_t i = b, be = n - b < BLOCK ? n : b + BLOCK; i < be; i++)
			start[(ival_key(&iv[i], lo) >> low) + 1]++;
	}
	for (size_t d = 0; d < nb; d++)
		start[d + 1] += start[d];
	memcpy(fill, start, nb * sizeof(*fill));
	for (size_t b = 0; b < n; b += BLOCK) {
		sort_report(what, 2 * (uint64_t)n + b, n);
		for (size_t i = b, be = n - b < BLOCK ? n : b + BLOCK; i < be; i++)
			tmp[fill[ival_key(&iv[i], lo) >> low]++] = iv[i];
	}
	size_t next = 0; /* the next report in the buckets: at each 65,536 elements */
	for (size_t d = 0; d < nb; d++) {
		size_t a = start[d], m = start[d + 1] - a;
		if (!m)
			continue;
		if (a >= next) {
			sort_report(what, 3 * (uint64_t)n + a, n);
			next = a + BLOCK;
		}
		if (low && m >= 64) {
			if (lsd_sort(tmp + a, iv + a, m, lo, low, cnt) != iv + a)
				memcpy(iv + a, tmp + a, m * sizeof(*iv));
		} else {
			memcpy(iv + a, tmp + a, m * sizeof(*iv));
			if (low)
				insertion_sort(iv + a, 1, m);
		}
	}
	free(cnt);
	free(fill);
	free(start);
	free(tmp);
}

void pt_ivset_build(struct pt_ivset *out, struct pt_ival *iv, size_t n)
{
	reset(out, n);
	pt_ival_sort(iv, n);
	for (size_t i = 0; i < n; i++)
		if (iv[i].e > iv[i].s)
			push(out, iv[i].s, iv[i].e);
}

/* pt_ivset_append's slow path: no room left for a new interval. */
void pt_ivset_append_grow(struct pt_ivset *x, int64_t s, int64_t e)
{
	push(x, s, e);
}

void pt_ivset_free(struct pt_ivset *x)
{
	free(x->v);
	memset(x, 0, sizeof(*x));
}

int64_t pt_ivset_measure(const struct pt_ivset *x)
{
	int64_t t = 0;
	for (size_t i = 0; i < x->n; i++)
		t += x->v[i].e - x->v[i].s;
	return t;
}

/* First interval whose end is > s. */
static size_t lower(const struct pt_ivset *x, int64_t s)
{
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->v[mid].e <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t pt_ivset_measure_in(const struct pt_ivset *x, int64_t s, int64_t e)
{
	int64_t t = 0;
	for (size_t i = lower(x, s); i < x->n && x->v[i].s < e; i++) {
		int64_t a = x->v[i].s > s ? x->v[i].s : s;
		int64_t b = x->v[i].e < e ? x->v[i].e : e;
		if (b > a)
			t += b - a;
	}
	return t;
}

int64_t pt_ivset_union_measure_in(const struct pt_ivset *x, const struct pt_ivset *y, int64_t a, int64_t b)
{
	size_t i = lower(x, a), j = lower(y, a);
	int64_t total = 0, cs = 0, ce = 0;
	bool have = false;
	for (;;) {
		const struct pt_ival *p;
		if (i < x->n && x->v[i].s < b && (j >= y->n || y->v[j].s >= b || x->v[i].s <= y->v[j].s))
			p = &x->v[i++];
		else if (j < y->n && y->v[j].s < b)
			p = &y->v[j++];
		else
			break;
		int64_t s = p->s > a ? p->s : a, e = p->e < b ? p->e : b;
		if (e <= s)
			continue;
		if (have && s <= ce) {
			if (e > ce)
				ce = e;
		} else {
			if (have)
				total += ce - cs;
			cs = s;
			ce = e;
			have = true;
		}
	}
	return have ? total + (ce - cs) : 0;
}

void pt_ivset_clip(struct pt_ivset *out, const struct pt_ivset *a, int64_t s, int64_t e)
{
	out->n = 0;
	for (size_t i = lower(a, s); i < a->n && a->v[i].s < e; i++) {
		int64_t x = a->v[i].s > s ? a->v[i].s : s;
		int64_t y = a->v[i].e < e ? a->v[i].e : e;
		if (y > x)
			push(out, x, y);
	}
}

void pt_ivset_union(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b)
{
	reset(out, a->n + b->n);
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		const struct pt_ival *p = (j >= b->n || (i < a->n && a->v[i].s <= b->v[j].s)) ? &a->v[i++] : &b->v[j++];
		push(out, p->s, p->e);
	}
}

void pt_ivset_inter(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b)
{
	reset(out, a->n + b->n);
	size_t i = 0, j = 0;
	while (i < a->n && j < b->n) {
		int64_t s = a->v[i].s > b->v[j].s ? a->v[i].s : b->v[j].s;
		int64_t e = a->v[i].e < b->v[j].e ? a->v[i].e : b->v[j].e;
		if (e > s) {
			pt_xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = (struct pt_ival){ s, e };
		}
		if (a->v[i].e < b->v[j].e)
			i++;
		else
			j++;
	}
}

void pt_ivset_diff(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b)
{
	reset(out, a->n + b->n);
	size_t j = 0;
	for (size_t i = 0; i < a->n; i++) {
		int64_t s = a->v[i].s, e = a->v[i].e;
		while (j < b->n && b->v[j].e <= s)
			j++;
		size_t k = j;
		while (k < b->n && b->v[k].s < e) {
			if (b->v[k].s > s) {
				pt_xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
				out->v[out->n++] = (struct pt_ival){ s, b->v[k].s };
			}
			if (b->v[k].e > s)
				s = b->v[k].e;
			if (s >= e)
				break;
			k++;
		}
		if (s < e) {
			pt_xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = (struct pt_ival){ s, e };
		}
	}
}

bool pt_ivset_contains(const struct pt_ivset *x, int64_t t)
{
	size_t i = lower(x, t); /* the first interval ending after t */
	return i < x->n && x->v[i].s <= t;
}
