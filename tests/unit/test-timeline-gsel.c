/* Unit tests of the streamed timeline's iteration-boundary launches (pass/pass-timeline-gsel.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pass/pass-timeline-gsel.h"
#include "support/xalloc.h"

/* A window of the rule: from one launch's call start to another's (the last: to its call's start here). */
struct win {
	int64_t s, e;
};

/* The rule over the launches k[0..n) in launch order, as pass-steps.c's boundaries() makes it. */
static size_t windows(const struct tl_glaunch *v, const int64_t *start, const uint32_t *k, size_t n, struct win *w)
{
	size_t nw = 0;
	if (!n)
		return 0;
	uint32_t s = v[k[0]].name;
	size_t second = SIZE_MAX;
	for (size_t i = 1; i < n && second == SIZE_MAX; i++)
		if (v[k[i]].name == s)
			second = i;
	if (second == SIZE_MAX)
		return 0;
	uint32_t e = v[k[second - 1]].name;
	size_t prev = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (v[k[i]].name != s)
			continue;
		if (prev != SIZE_MAX)
			w[nw++] = (struct win){ start[v[k[prev]].slot], start[v[k[i]].slot] };
		prev = i;
	}
	for (size_t i = prev + 1; i < n; i++)
		if (v[k[i]].name == e) {
			w[nw++] = (struct win){ start[v[k[prev]].slot], start[v[k[i]].slot] };
			break;
		}
	return nw;
}

static const struct tl_glaunch *ref_v;
static const int64_t *ref_start;
static int ref_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t p = ref_start[ref_v[a].slot], q = ref_start[ref_v[b].slot];
	if (p != q)
		return p < q ? -1 : 1;
	if (ref_v[a].slot != ref_v[b].slot)
		return ref_v[a].slot < ref_v[b].slot ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The windows of every launch sorted, against those of the few tl_gsel_boundary() keeps. */
static void check(const struct tl_glaunch *v, size_t n, const int64_t *start)
{
	uint32_t *all = pt_xmalloc((n ? n : 1) * sizeof(*all));
	size_t na = 0;
	for (uint32_t i = 0; i < n; i++)
		if (start[v[i].slot] != INT64_MIN)
			all[na++] = i;
	ref_v = v;
	ref_start = start;
	if (na > 1)
		qsort(all, na, sizeof(*all), ref_cmp);
	struct win *wa = pt_xmalloc((n + 1) * sizeof(*wa)), *wb = pt_xmalloc((n + 1) * sizeof(*wb));
	size_t nwa = windows(v, start, all, na, wa);
	uint32_t *few = NULL;
	size_t nf = tl_gsel_boundary(v, n, start, &few);
	assert_true(nf <= na);
	for (size_t i = 1; i < nf; i++) /* in launch order */
		assert_true(ref_cmp(&few[i - 1], &few[i]) < 0);
	size_t nwb = windows(v, start, few, nf, wb);
	assert_int_equal(nwa, nwb);
	for (size_t i = 0; i < nwa; i++) {
		assert_int_equal(wa[i].s, wb[i].s);
		assert_int_equal(wa[i].e, wb[i].e);
	}
	free(few);
	/* the same launches folded per slot, as the second read keeps them: the same windows */
	struct tl_glfold f = { 0 };
	size_t nslot = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].slot + 1 > nslot)
			nslot = v[i].slot + 1;
	for (size_t i = 0; i < n; i++)
		tl_glfold_add(&f, nslot, v[i].slot, v[i].name);
	struct tl_glset L = tl_glfold_set(&f);
	nf = tl_glset_boundary(&L, start, &few);
	assert_true(nf <= na);
	struct tl_glaunch *r = pt_xmalloc((nf + 1) * sizeof(*r));
	uint32_t *id = pt_xmalloc((nf + 1) * sizeof(*id));
	for (size_t i = 0; i < nf; i++) {
		r[i] = tl_glset_at(&L, few[i]);
		id[i] = (uint32_t)i;
		assert_true(r[i].slot != UINT32_MAX);
		if (i) /* in launch order */
			assert_true(start[r[i - 1].slot] < start[r[i].slot] ||
				    (start[r[i - 1].slot] == start[r[i].slot] && r[i - 1].slot <= r[i].slot));
	}
	nwb = windows(r, start, id, nf, wb);
	assert_int_equal(nwa, nwb);
	for (size_t i = 0; i < nwa; i++) {
		assert_int_equal(wa[i].s, wb[i].s);
		assert_int_equal(wa[i].e, wb[i].e);
	}
	free(r);
	free(id);
	free(few);
	tl_glfold_free(&f);
	free(all);
	free(wa);
	free(wb);
}

static void test_by_hand(void **state)
{
	(void)state;
	/* a loop A B C, three times, written out of launch order; slot 9 has no call */
	int64_t start[10] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, INT64_MIN };
	struct tl_glaunch v[] = { { 3, 1 }, { 0, 1 }, { 1, 2 }, { 9, 1 }, { 2, 3 }, { 4, 2 },
				  { 6, 1 }, { 5, 3 }, { 7, 2 }, { 8, 3 } };
	check(v, sizeof(v) / sizeof(*v), start);
	uint32_t *k = NULL;
	size_t n = tl_gsel_boundary(v, sizeof(v) / sizeof(*v), start, &k);
	/* A at 10, C at 30 (just before A's second launch), A at 40 and 70, C at 90 after the last A */
	assert_int_equal(n, 5);
	assert_int_equal(k[0], 1);
	assert_int_equal(k[1], 4);
	assert_int_equal(k[2], 0);
	assert_int_equal(k[3], 6);
	assert_int_equal(k[4], 9);
	free(k);
	/* one launch of the first kernel only: no window; nothing with a call: nothing */
	struct tl_glaunch one[] = { { 0, 1 }, { 1, 2 } };
	check(one, 2, start);
	struct tl_glaunch nocall[] = { { 9, 1 }, { 9, 1 } };
	assert_int_equal(tl_gsel_boundary(nocall, 2, start, &k), 0);
	assert_null(k);
	check(nocall, 2, start);
	check(NULL, 0, start);
	/* the first kernel launched twice in a row: e is s, no window after the last */
	struct tl_glaunch rep[] = { { 0, 1 }, { 1, 1 }, { 2, 2 }, { 3, 1 } };
	check(rep, 4, start);
}

/* Random launches with ties: equal starts, a graph's kernels on one slot (one call), calls missing. */
static void test_random(void **state)
{
	(void)state;
	srand(7);
	for (int round = 0; round < 3000; round++) {
		size_t nslot = 1 + (size_t)(rand() % 24), n = (size_t)(rand() % 60);
		int64_t *start = pt_xmalloc(nslot * sizeof(*start));
		for (size_t i = 0; i < nslot; i++)
			start[i] = rand() % 8 == 0 ? INT64_MIN : (int64_t)(rand() % (1 + round % 30));
		struct tl_glaunch *v = pt_xmalloc((n ? n : 1) * sizeof(*v));
		uint32_t names = 1 + (uint32_t)(rand() % 5);
		/* now and then names past 16 bits: the folded slots widen */
		uint32_t base = round % 7 == 0 ? UINT16_MAX - 3 : 0;
		for (size_t i = 0; i < n; i++)
			v[i] = (struct tl_glaunch){ (uint32_t)(rand() % (int)nslot),
						    base + (uint32_t)(rand() % (int)names) };
		check(v, n, start);
		free(v);
		free(start);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
