/* Unit tests of the kineto profile's correlation id -> External id map (pass/pass-timeline-kxmap.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "pass/pass-timeline-kxmap.h"
#include "support/xalloc.h"

/* The map's answer for (dev, corr) as a plain scan of the rows gives it: the first CUSTOM0 row's id. */
static bool first_id(const struct pt_model *m, uint32_t dev, uint64_t corr, uint64_t *id)
{
	for (size_t i = 0; i < m->ext_corr.n; i++) {
		const struct pt_ext_corr *x = &m->ext_corr.v[i];
		if (x->kind == 3 && x->device == dev && x->corr == corr) {
			*id = x->id;
			return true;
		}
	}
	return false;
}

/* Every (dev, corr) of [0, ndev) x [lo, hi] answered as first_id answers, the rows packed in nparts parts. */
static void check(struct pt_model *m, size_t ndev, uint64_t lo, uint64_t hi, size_t nparts)
{
	struct tl_kxpack x = { 0 };
	size_t n = m->ext_corr.n, at = 0;
	struct pt_ext_corr *all = pt_xmalloc((n ? n : 1) * sizeof(*all));
	if (n)
		memcpy(all, m->ext_corr.v, n * sizeof(*all));
	for (size_t p = 0; p < nparts; p++) { /* (as a streamed read's batches come) */
		size_t to = p + 1 == nparts ? n : n * (p + 1) / nparts;
		m->ext_corr.n = 0;
		for (size_t i = at; i < to; i++)
			pt_model_add_ext_corr(m, &all[i]);
		tl_kxpack_add(&x, m);
		at = to;
	}
	m->ext_corr.n = 0;
	for (size_t i = 0; i < n; i++)
		pt_model_add_ext_corr(m, &all[i]);
	free(all);
	struct tl_kxmap *map = tl_kxmap_build(&x, ndev);
	assert_true(!n || map);
	for (uint32_t d = 0; d < ndev + 1; d++)
		for (uint64_t c = lo; c <= hi; c++) {
			uint64_t a = 0, b = 0;
			bool ha = tl_kxmap_get(map, d, c, &a), hb = first_id(m, d, c, &b);
			assert_int_equal(ha, hb);
			if (ha)
				assert_int_equal(a, b);
		}
	tl_kxmap_free(map);
}

static void add(struct pt_model *m, uint32_t dev, uint32_t kind, uint64_t corr, uint64_t id)
{
	struct pt_ext_corr x = { dev, kind, corr, id };
	pt_model_add_ext_corr(m, &x);
}

static void test_by_hand(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	check(m, 2, 0, 10, 1); /* (no row: no map, no id) */
	/* one block: distances of a byte, then one past a byte, then one past 2 bytes (the block widens twice,
	 * its ids so far kept); a correlation's second row and another kind are not its id */
	add(m, 0, 3, 100, 5000);
	add(m, 0, 3, 101, 5003);
	add(m, 0, 3, 101, 7);
	add(m, 0, 1, 102, 9);
	add(m, 0, 3, 103, 5000 + 300);
	add(m, 0, 3, 104, 4999);
	add(m, 0, 3, 105, 5000 + 70000);
	add(m, 0, 3, 106, UINT64_MAX);
	add(m, 0, 3, 170, 1);          /* the next block */
	add(m, 1, 3, 100, 42);         /* another device, the same correlation id */
	add(m, 1, 3, 1000000000, 43);  /* its ids sparse: hashed */
	add(m, 5, 3, 100, 44);         /* a device the model does not have: dropped */
	check(m, 2, 95, 175, 1);
	check(m, 2, 95, 175, 3);
	uint64_t id;
	struct tl_kxpack x = { 0 };
	tl_kxpack_add(&x, m);
	struct tl_kxmap *map = tl_kxmap_build(&x, 2);
	assert_true(tl_kxmap_get(map, 1, 1000000000, &id));
	assert_int_equal(id, 43);
	assert_false(tl_kxmap_get(map, 1, 999999999, &id));
	assert_true(tl_kxmap_get(map, 0, 106, &id));
	assert_true(id == UINT64_MAX);
	assert_false(tl_kxmap_get(map, 5, 100, &id));
	tl_kxmap_free(map);
	pt_model_free(m);
}

static void test_random(void **state)
{
	(void)state;
	srand(11);
	for (int round = 0; round < 300; round++) {
		struct pt_model *m = pt_model_new();
		size_t n = (size_t)(rand() % 400);
		uint64_t lo = (uint64_t)(rand() % 1000), span = 1 + (uint64_t)(rand() % (round % 3 ? 300 : 9000));
		uint64_t idbase = round % 5 == 0 ? UINT64_MAX - 100000 : (uint64_t)rand();
		for (size_t i = 0; i < n; i++) {
			uint64_t spread = round % 4 == 0 ? 10 : round % 4 == 1 ? 1000 : round % 4 == 2 ? 200000 : UINT64_MAX / 4;
			add(m, (uint32_t)(rand() % 3), rand() % 9 ? 3 : 2, lo + (uint64_t)rand() % span,
			    idbase + (uint64_t)rand() % spread);
		}
		check(m, 3, lo, lo + span, 1 + (size_t)(rand() % 4));
		pt_model_free(m);
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
