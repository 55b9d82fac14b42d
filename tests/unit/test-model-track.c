/*
 * pt_model_track: a track per (device, kind, stream), found again in constant
 * time (issue 29 item 7: a linear search made 200 k HWTS streams take 15 s).
 * The 1 M-track case runs in well under a second; a linear search would take
 * hours, past the test's timeout (tests/CMakeLists.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"

#define NT 1000000

static void test_many_tracks(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d0 = pt_model_device(m, PT_DEV_NPU, 0), d1 = pt_model_device(m, PT_DEV_NPU, 1);
	for (uint32_t i = 0; i < NT; i++) {
		/* streams spread over the whole int64 range, two devices, two kinds */
		int64_t s = (int64_t)(i / 4) * (i % 3 ? 1 : -7919) - (i % 5 == 0 ? INT64_C(1) << 40 : 0);
		uint32_t d = i % 2 ? d1 : d0;
		enum pt_track_kind k = i % 4 < 2 ? PT_TRACK_STREAM : PT_TRACK_QUEUE;
		uint32_t t = pt_model_track(m, d, k, s, "s");
		const struct pt_track *tr = &m->tracks.v[t];
		assert_int_equal(tr->device, d);
		assert_int_equal(tr->kind, k);
		assert_true(tr->stream == s);
		assert_int_equal(pt_model_track(m, d, k, s, "again"), t);
	}
	size_t n = m->tracks.n;
	assert_true(n > NT / 2 && n <= NT);
	/* every track is found at its own index */
	for (size_t i = 0; i < n; i++) {
		const struct pt_track *tr = &m->tracks.v[i];
		assert_int_equal(pt_model_track(m, tr->device, tr->kind, tr->stream, NULL), i);
	}
	assert_int_equal(m->tracks.n, n);
	pt_model_free(m);
}

/* A track appended to m->tracks directly (as a model reader does) is found too; of equal
 * tracks the first wins, as with the linear search before. */
static void test_appended_directly(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t a = pt_model_track(m, d, PT_TRACK_STREAM, 7, "seven");
	struct pt_track t = { d, PT_TRACK_STREAM, 8, pt_model_str(m, "eight") };
	pt_vec_push(&m->tracks, t);
	pt_vec_push(&m->tracks, t); /* a duplicate */
	assert_int_equal(pt_model_track(m, d, PT_TRACK_STREAM, 8, "x"), 1);
	assert_int_equal(pt_model_track(m, d, PT_TRACK_STREAM, 7, "x"), a);
	assert_int_equal(pt_model_track(m, d, PT_TRACK_STREAM, 9, "nine"), 3);
	assert_int_equal(m->tracks.n, 4);
	assert_string_equal(pt_model_strget(m, m->tracks.v[3].name), "nine");
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_tracks),
		cmocka_unit_test(test_appended_directly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
