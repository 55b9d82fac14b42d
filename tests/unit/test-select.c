/*
 * Unit tests of the selection's resolution (pass/select.h pt_sel_resolve) and
 * of its origin (model/index.h pt_index_origin, pt_model_origin): one origin
 * for every command, the earliest time of the model, events and step
 * records alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/index.h"
#include "model/model.h"
#include "pass/pass-steps.h"
#include "pass/select.h"
#include "support/diag.h"
#include "support/err.h"

static void test_resolve_nothing(void **state)
{
	(void)state;
	struct pt_sel s;
	pt_sel_init(&s);
	struct pt_sel_res r;
	pt_sel_resolve(&s, 1000, &r);
	assert_false(r.window);
	assert_false(r.steps);
	assert_int_equal(r.origin, 1000);
	assert_int_equal(r.device, -1);
	assert_true(r.a == INT64_MIN && r.b == INT64_MAX);
	assert_true(pt_sel_res_at(&r, INT64_MIN));
	assert_true(pt_sel_res_at(&r, -5));
	assert_true(pt_sel_res_step(&r, 0));
	assert_true(pt_sel_res_step(&r, INT64_MAX));
	/* NULL: nothing selected either */
	pt_sel_resolve(NULL, 7, &r);
	assert_false(r.window || r.steps);
	assert_int_equal(r.device, -1);
	assert_true(pt_sel_res_at(&r, 123));
}

static void test_resolve_window(void **state)
{
	(void)state;
	struct pt_sel s;
	pt_sel_init(&s);
	struct pt_sel_res r;
	/* 100:300 from origin 1000: [1100, 1300) */
	s.window_given = s.win_has_a = s.win_has_b = true;
	s.win_a = 100;
	s.win_b = 300;
	pt_sel_resolve(&s, 1000, &r);
	assert_true(r.window);
	assert_int_equal(r.a, 1100);
	assert_int_equal(r.b, 1300);
	assert_false(pt_sel_res_at(&r, 1099));
	assert_true(pt_sel_res_at(&r, 1100));
	assert_true(pt_sel_res_at(&r, 1299));
	assert_false(pt_sel_res_at(&r, 1300));
	/* open ends: 100: and :300 */
	s.win_has_b = false;
	pt_sel_resolve(&s, 1000, &r);
	assert_int_equal(r.a, 1100);
	assert_true(r.b == INT64_MAX);
	s.win_has_a = false;
	s.win_has_b = true;
	pt_sel_resolve(&s, 1000, &r);
	assert_true(r.a == INT64_MIN);
	assert_int_equal(r.b, 1300);
	/* ":" alone: a window with both ends open keeps everything */
	s.win_has_b = false;
	pt_sel_resolve(&s, 1000, &r);
	assert_true(r.window);
	assert_true(r.a == INT64_MIN && r.b == INT64_MAX);
	/* a negative origin (times before the clock's zero) */
	s.win_has_a = s.win_has_b = true;
	pt_sel_resolve(&s, -1000, &r);
	assert_int_equal(r.a, -900);
	assert_int_equal(r.b, -700);
}

static void test_resolve_overflow(void **state)
{
	(void)state;
	struct pt_sel s;
	pt_sel_init(&s);
	struct pt_sel_res r;
	s.window_given = s.win_has_a = s.win_has_b = true;
	/* an end past the clock saturates rather than wrapping: an open end */
	s.win_a = 0;
	s.win_b = INT64_MAX - 5;
	pt_sel_resolve(&s, 1000, &r);
	assert_int_equal(r.a, 1000);
	assert_true(r.b == INT64_MAX);
	assert_true(pt_sel_res_at(&r, INT64_MAX - 1));
	pt_sel_resolve(&s, -1000, &r);
	assert_true(r.b == INT64_MAX - 1005);
	/* a start past the clock keeps nothing */
	s.win_a = INT64_MAX;
	s.win_b = INT64_MAX;
	pt_sel_resolve(&s, 1, &r);
	assert_true(r.a == INT64_MAX);
	assert_false(pt_sel_res_at(&r, INT64_MAX - 1));
	/* an origin far below zero saturates the other way */
	s.win_a = INT64_MIN + 10;
	pt_sel_resolve(&s, -100, &r);
	assert_true(r.a == INT64_MIN);
}

static void test_resolve_steps(void **state)
{
	(void)state;
	struct pt_sel s;
	pt_sel_init(&s);
	s.steps_given = true;
	s.step_a = 3;
	s.step_b = 5;
	s.device = 2;
	struct pt_sel_res r;
	pt_sel_resolve(&s, 0, &r);
	assert_true(r.steps);
	assert_false(r.window);
	assert_int_equal(r.device, 2);
	assert_false(pt_sel_res_step(&r, 2));
	assert_true(pt_sel_res_step(&r, 3));
	assert_true(pt_sel_res_step(&r, 5));
	assert_false(pt_sel_res_step(&r, 6));
	/* an open end as cmd/common.c fills it: 4- */
	s.step_a = 4;
	s.step_b = INT64_MAX;
	pt_sel_resolve(&s, 0, &r);
	assert_false(pt_sel_res_step(&r, 3));
	assert_true(pt_sel_res_step(&r, INT64_MAX));
}

/* An Ascend model: a step trace whose first step starts at 400, before the first task at 1000. */
static struct pt_model *step_first_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "stream 1");
	pt_model_add_event(m, t, pt_model_str(m, "k1"), PT_EV_TASK, 1000, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "k2"), PT_EV_TASK, 2500, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "k3"), PT_EV_TASK, 3500, 100, 0, PT_NONE, 0);
	int64_t st[3][2] = { { 400, 2000 }, { 2000, 3000 }, { 3000, 4000 } };
	for (uint32_t i = 0; i < 3; i++) {
		struct pt_step s;
		memset(&s, 0, sizeof(s));
		s.device = d;
		s.step = i + 1;
		s.has = PT_STEP_HAS_START | PT_STEP_HAS_END;
		s.start = st[i][0];
		s.end = st[i][1];
		pt_model_add_step(m, &s);
	}
	return m;
}

static void test_origin(void **state)
{
	(void)state;
	/* an empty model: 0 */
	struct pt_model *m = pt_model_new();
	assert_int_equal(pt_model_origin(m, NULL), 0);
	int64_t none = INT64_MAX;
	assert_int_equal(pt_model_origin(m, &none), 0);
	struct pt_index *x = pt_index_new(m);
	assert_int_equal(pt_index_origin(x), 0);
	pt_index_free(x);
	pt_model_free(m);

	/* the step record at 400 comes before every event (1000) */
	m = step_first_model();
	assert_int_equal(pt_model_origin(m, NULL), 400);
	x = pt_index_new(m);
	assert_int_equal(pt_index_origin(x), 400);
	assert_int_equal(pt_index_origin(x), 400); /* the second call: the same */
	pt_index_free(x);
	/* the streamed summary's form: the earliest event from its scan, the steps from m */
	int64_t ev_min = 1000;
	assert_int_equal(pt_model_origin(m, &ev_min), 400);
	ev_min = 100; /* an event before the steps */
	assert_int_equal(pt_model_origin(m, &ev_min), 100);
	assert_int_equal(pt_model_origin(m, &none), 400); /* no event: the steps alone */
	/* a reduce pair's start, an FP time: step records too */
	struct pt_step s;
	memset(&s, 0, sizeof(s));
	s.device = 0;
	s.step = 4;
	s.has = PT_STEP_HAS_FP;
	s.fp = 350;
	struct pt_comm c = { 1, 3, 300, 310, pt_model_str(m, "r"), pt_model_str(m, "r") };
	pt_vec_push(&s.comm, c);
	pt_model_add_step(m, &s);
	assert_int_equal(pt_model_origin(m, NULL), 300);
	pt_model_free(m);

	/* events only: the earliest start, whatever the order */
	m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	pt_model_add_event(m, t, pt_model_str(m, "a"), PT_EV_KERNEL, 900, 10, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "b"), PT_EV_KERNEL, -20, 10, 0, PT_NONE, 0);
	assert_int_equal(pt_model_origin(m, NULL), -20);
	pt_model_free(m);
}

/* The steps pass counts --time-window from the step record at 400: 1600: keeps steps 2 and 3
 * (starts 2000 and 3000); from the first event (1000) it would keep step 3 alone. */
static void test_origin_steps_pass(void **state)
{
	(void)state;
	struct pt_model *m = step_first_model();
	struct pt_sel s;
	pt_sel_init(&s);
	s.window_given = s.win_has_a = true;
	s.win_a = 1600;
	struct pt_steps_info si;
	struct pt_err *e = NULL;
	assert_int_equal(pt_steps_collect(m, &s, &si, NULL, &e), 0);
	assert_int_equal(si.origin, 400);
	assert_int_equal(si.n, 1);
	assert_int_equal(si.r[0].n, 3);
	assert_false(si.r[0].v[0].kept);
	assert_true(si.r[0].v[1].kept);
	assert_true(si.r[0].v[2].kept);
	pt_steps_info_free(&si);
	pt_model_free(m);
}

/* The warnings a selection gives: its own; none when quiet; those of warn_as, against the steps of
 * the selection itself (diff: --base-steps replaces --steps, the warnings are of --steps). */
static void test_check_warn_as(void **state)
{
	(void)state;
	struct pt_model *m = step_first_model(); /* steps 1-3 */
	struct pt_sel given, side;
	pt_sel_init(&given);
	given.steps_given = true;
	given.step_a = 400;
	given.step_b = 500;
	given.steps_arg = "400-500";
	side = given;
	side.step_a = 2;
	side.step_b = 3; /* keeps steps: no warning of its own */
	struct pt_diag d;
	memset(&d, 0, sizeof(d));
	pt_sel_check(m, &side, &d);
	assert_int_equal(d.n, 0);
	side.warn_as = &given;
	pt_sel_check(m, &side, &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].what, "--steps 400-500 selects no step (the model has steps 1-3)");
	pt_diag_free(&d);
	memset(&d, 0, sizeof(d));
	side.quiet = true;
	pt_sel_check(m, &side, &d);
	given.quiet = true;
	pt_sel_check(m, &given, &d);
	assert_int_equal(d.n, 0);
	pt_diag_free(&d);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_nothing),
		cmocka_unit_test(test_resolve_window),
		cmocka_unit_test(test_resolve_overflow),
		cmocka_unit_test(test_resolve_steps),
		cmocka_unit_test(test_origin),
		cmocka_unit_test(test_origin_steps_pass),
		cmocka_unit_test(test_check_warn_as),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
