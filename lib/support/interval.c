#include "support/interval.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

void pt_ival_sort(struct pt_ival *iv, size_t n)
{
	if (n < 64) { /* insertion sort */
		for (size_t i = 1; i < n; i++) {
			struct pt_ival t = iv[i];
			size_t j = i;
			while (j > 0 && iv[j - 1].s > t.s) {
				iv[j] = iv[j - 1];
				j--;
			}
			iv[j] = t;
		}
		return;
	}
	struct pt_ival *tmp = pt_xmalloc(n * sizeof(*tmp));
	struct pt_ival *src = iv, *dst = tmp;
	size_t count[2048];
	for (int pass = 0; pass < 6; pass++) {
		int shift = pass * 11;
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(((uint64_t)src[i].s ^ (1ULL << 63)) >> shift) & 2047]++;
		/* skip a pass where every key has the same digit */
		bool trivial = false;
		for (size_t d = 0; d < 2048; d++)
			if (count[d]) {
				trivial = count[d] == n;
				break;
			}
		if (trivial)
			continue;
		size_t sum = 0;
		for (size_t d = 0; d < 2048; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(((uint64_t)src[i].s ^ (1ULL << 63)) >> shift) & 2047]++] = src[i];
		struct pt_ival *t = src;
		src = dst;
		dst = t;
	}
	if (src != iv)
		memcpy(iv, src, n * sizeof(*iv));
	free(tmp);
}

void pt_ivset_build(struct pt_ivset *out, struct pt_ival *iv, size_t n)
{
	out->n = 0;
	pt_ival_sort(iv, n);
	for (size_t i = 0; i < n; i++)
		if (iv[i].e > iv[i].s)
			push(out, iv[i].s, iv[i].e);
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
	out->n = 0;
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		const struct pt_ival *p = (j >= b->n || (i < a->n && a->v[i].s <= b->v[j].s)) ? &a->v[i++] : &b->v[j++];
		push(out, p->s, p->e);
	}
}

void pt_ivset_inter(struct pt_ivset *out, const struct pt_ivset *a, const struct pt_ivset *b)
{
	out->n = 0;
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
	out->n = 0;
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
