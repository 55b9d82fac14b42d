/* Unit tests of lib/import/import-cupti-join.c against a direct reading of cupti.md §6.3 and §6.6. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "import/import-cupti-join.h"
#include "model/model.h"

struct op {
	bool call, drv, kernel;
	uint32_t corr, corr2, track;
	int64_t start;
};

static uint64_t rng = 88172645463325252ULL;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* The call (op index + 1) an activity of id corr starting at gs joins: every call of the id,
 * runtime ones first; the latest start <= gs (the earliest added among equals), else the earliest. */
static uint32_t ref_find(const struct op *ops, size_t n, uint32_t corr, int64_t gs)
{
	if (!corr)
		return 0;
	for (int drv = 0; drv < 2; drv++) {
		uint32_t best = 0, first = 0;
		for (size_t i = 0; i < n; i++) {
			if (!ops[i].call || ops[i].drv != drv || ops[i].corr != corr)
				continue;
			int64_t s = ops[i].start;
			if (s <= gs && (!best || s > ops[best - 1].start))
				best = (uint32_t)i + 1;
			if (!first || s < ops[first - 1].start)
				first = (uint32_t)i + 1;
		}
		if (first)
			return best ? best : first;
	}
	return 0;
}

/* ids 1 .. ncorr - 1 are drawn, and become id_base + id * id_stride (0 stays: no id) */
static uint32_t id_base, id_stride = 1;
/* the join told the activities' ids first (pt_cjoin_filter), as the CUPTI importer does */
static bool filtered;

/* n calls and activities of ncorr ids starting within span; op i is event ev[i], the events
 * between them (syncs, markers) are 0 to gap - 1 */
static void run_case_gaps(size_t n, uint32_t ncorr, int64_t span, uint32_t gap)
{
	struct op *ops = calloc(n, sizeof(*ops));
	uint32_t *ev = calloc(n, sizeof(*ev));
	for (size_t i = 0; i < n; i++)
		ev[i] = (i ? ev[i - 1] + 1 : 7) + rnd(gap);
	for (size_t i = 0; i < n; i++) {
		struct op *o = &ops[i];
		o->call = rnd(2);
		o->drv = rnd(3) == 0;
		o->corr = rnd(ncorr);
		o->corr2 = rnd(3) ? 0 : rnd(ncorr);
		o->corr = o->corr ? id_base + o->corr * id_stride : 0;
		o->corr2 = o->corr2 ? id_base + o->corr2 * id_stride : 0;
		o->kernel = rnd(2);
		o->track = rnd(3);
		o->start = (int64_t)rnd((uint32_t)span);
	}
	struct pt_model *m = pt_model_new();
	struct pt_cjoin *j = pt_cjoin_new(m);
	if (filtered) {
		pt_cjoin_filter(j);
		for (size_t i = 0; i < n; i++)
			if (!ops[i].call) {
				pt_cjoin_want(j, ops[i].corr);
				pt_cjoin_want(j, ops[i].corr2);
			}
	}
	for (size_t i = 0; i < n; i++) {
		const struct op *o = &ops[i];
		if (o->call)
			pt_cjoin_call(j, o->drv, o->corr, ev[i], o->track, o->start);
		else
			pt_cjoin_activity(j, ev[i], o->start, o->corr, o->corr2, o->kernel);
	}
	struct pt_cjoin_stats st;
	pt_cjoin_finish(j, NULL, 0, &st);
	pt_cjoin_free(j);
	/* the reference */
	struct pt_cjoin_stats want = { 0 };
	size_t nl = 0;
	for (size_t i = 0; i < n; i++) {
		const struct op *o = &ops[i];
		if (o->call) {
			for (size_t k = 0; k < i && o->corr; k++)
				if (ops[k].call && ops[k].drv == o->drv && ops[k].corr == o->corr) {
					want.corr_dup++;
					break;
				}
			continue;
		}
		uint32_t a = ref_find(ops, n, o->corr, o->start);
		if (!a && o->corr2)
			a = ref_find(ops, n, o->corr2, o->start);
		if (!a) {
			want.gpu_without_api++;
			want.kernels_without_launch += o->kernel;
			continue;
		}
		want.gpu_before_api += o->start < ops[a - 1].start;
		assert_true(nl < m->links.n);
		assert_int_equal(m->links.v[nl].event, ev[i]);
		assert_int_equal(m->links.v[nl].api, ev[a - 1]);
		assert_int_equal(m->links.v[nl].range, 0);
		nl++;
	}
	assert_int_equal(m->links.n, nl);
	assert_int_equal(st.gpu_before_api, want.gpu_before_api);
	assert_int_equal(st.gpu_without_api, want.gpu_without_api);
	assert_int_equal(st.kernels_without_launch, want.kernels_without_launch);
	assert_int_equal(st.corr_dup, want.corr_dup);
	pt_model_free(m);
	free(ops);
	free(ev);
}

static void run_case(size_t n, uint32_t ncorr, int64_t span)
{
	run_case_gaps(n, ncorr, span, 1);
}

/* Calls and activities in every order: repeated ids, driver and runtime calls of one id, copies
 * joined through their second id, activities before their calls and without any. */
/* big: the large cases run with n / big ops (1 = as written) */
static void launch_cases(int small, bool gaps, size_t big)
{
	for (int k = 0; k < small; k++)
		run_case(1 + rnd(60), 1 + rnd(8), 1 + rnd(50));
	run_case(5000 / big, 2000, 100000); /* mostly unique ids */
	run_case(3000 / big, 40000000, 1000); /* ids beyond the dense range */
	run_case(3000 / big, 30, 4000000000); /* launch delays and call starts beyond int32 */
	/* events between the calls and activities, far apart: the event maps' words and searches */
	if (gaps) {
		run_case_gaps(4000, 3000, 100000, 3);
		run_case_gaps(4000, 50, 100000, 300);
		run_case_gaps(20000, 20000, 1000000, 2);
	}
	/* sparse ids (issue 30 item 3): straddling 2^25 and 2^26, spread to 2^32, mixing the dense
	 * table with the hashed ids as the dense one grows over them */
	const uint32_t bases[] = { (1u << 25) - 1000, (1u << 26) - 1500, 0, 4000000000u, 70000 };
	const uint32_t strides[] = { 1, 1, 1000003, 3, 7 };
	for (size_t k = 0; k < sizeof(bases) / sizeof(bases[0]); k++) {
		id_base = bases[k];
		id_stride = strides[k];
		run_case(4000 / big, 2000, 100000);
		run_case(3000 / big, 50, 1000);
	}
	id_base = 0;
	id_stride = 1;
}

static void test_launch_join(void **state)
{
	(void)state;
	launch_cases(300, true, 1);
}

/* The same when the join keeps only the calls whose id an activity carries (and counts the
 * repeated ids of the others): the same links and counts. */
static void test_launch_join_filtered(void **state)
{
	(void)state;
	filtered = true;
	/* the event maps are the same: their cases once are enough; the others at half their size */
	launch_cases(100, false, 2);
	filtered = false;
}

/*
 * One id called again and again (issue 29 item 9: a dump whose one buffer repeats, 20 k times
 * took 52 s): each activity joins the latest call that starts at or before it, of calls that
 * start together the first; before them all, the earliest. Near-linear: a chain walk per
 * activity takes minutes here, past the test's timeout.
 */
static void test_repeated_ids(void **state)
{
	(void)state;
	const uint32_t n = 200000;
	struct pt_model *m = pt_model_new();
	struct pt_cjoin *j = pt_cjoin_new(m);
	uint32_t ev = 0;
	pt_cjoin_activity(j, ev++, 5, 1, 0, true); /* before every call: the earliest */
	for (uint32_t i = 0; i < n; i++) {
		/* calls start at 100 * (i / 2): two calls start together */
		pt_cjoin_call(j, false, 1, ev++, 0, 100 * (int64_t)(i / 2) + 10);
		pt_cjoin_activity(j, ev++, 100 * (int64_t)(i / 2) + 50, 1, 0, true);
	}
	struct pt_cjoin_stats st;
	pt_cjoin_finish(j, NULL, 0, &st);
	pt_cjoin_free(j);
	assert_int_equal(st.corr_dup, n - 1);
	assert_int_equal(st.gpu_before_api, 1);
	assert_int_equal(m->links.n, n + 1);
	assert_int_equal(m->links.v[0].api, 1); /* the first call */
	for (uint32_t i = 0; i < n; i++) {
		/* the activity of call i joins the first call of its pair: event 1 + 2 * (i & ~1) */
		assert_int_equal(m->links.v[i + 1].event, 2 + 2 * i);
		assert_int_equal(m->links.v[i + 1].api, 1 + 2 * (i & ~1u));
	}
	pt_model_free(m);
}

/* Each link gets the innermost range around its call: the call's thread ranges, then the
 * process-wide ones, the latest to start winning, then the shortest; marks enclose nothing. */
static void ranges_case(uint32_t t0)
{
	struct pt_model *m = pt_model_new();
	struct pt_cjoin *j = pt_cjoin_new(m);
	/* calls on tracks t0 + 1 and t0 + 2 */
	pt_cjoin_call(j, false, 1, 100, t0 + 1, 50);  /* in A (1) and B (1) -> B */
	pt_cjoin_call(j, false, 2, 101, t0 + 1, 150); /* in A only -> A; the process-wide P starts earlier */
	pt_cjoin_call(j, false, 3, 102, t0 + 2, 50);  /* track 2: only P -> P */
	pt_cjoin_call(j, false, 4, 103, t0 + 2, 300); /* nothing -> none */
	pt_cjoin_call(j, false, 5, 104, t0 + 1, 20);  /* in A, and in Q (process-wide, starts later) -> Q */
	for (uint32_t c = 1; c <= 5; c++)
		pt_cjoin_activity(j, 200 + c, 400, c, 0, true);
	pt_cjoin_activity(j, 210, 400, 1, 0, true); /* a second activity of call 1 */
	const struct pt_cjoin_range rs[] = {
		/* sorted by start, longer first */
		{ 0, 200, t0 + 1, 900, true, false },   /* A */
		{ 10, 120, t0 + 2, 901, false, false }, /* P, process-wide */
		{ 15, 25, t0 + 2, 905, false, false },  /* Q, process-wide */
		{ 40, 60, t0 + 1, 902, true, false },   /* B */
		{ 50, 50, t0 + 1, 903, true, true },    /* a mark */
		{ 140, 160, t0 + 2, 904, true, false }, /* on track 2: not around call 2 */
	};
	struct pt_cjoin_stats st;
	pt_cjoin_finish(j, rs, sizeof(rs) / sizeof(rs[0]), &st);
	pt_cjoin_free(j);
	const uint32_t want_api[] = { 100, 101, 102, 103, 104, 100 };
	const uint32_t want_range[] = { 903, 901, 902, 0, 906, 903 }; /* event + 1 */
	assert_int_equal(m->links.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(m->links.v[i].api, want_api[i]);
		assert_int_equal(m->links.v[i].range, want_range[i]);
	}
	pt_model_free(m);
}

/* The same with tracks 1 and 2 as model track ids up to 16 bits, and beyond. */
static void test_ranges(void **state)
{
	(void)state;
	ranges_case(0);
	ranges_case(65533); /* 65534 and 65535 */
	ranges_case(70000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_join),
		cmocka_unit_test(test_launch_join_filtered),
		cmocka_unit_test(test_repeated_ids),
		cmocka_unit_test(test_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
