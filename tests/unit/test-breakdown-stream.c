/* Unit tests of the streamed window breakdown (pass/breakdown-stream.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pass/breakdown-stream.h"
#include "support/interval.h"
#include "support/xalloc.h"

/* The same measures from whole unions (what pt_index_breakdown_set() does). */
static void reference(const struct pt_ival *iv, const int *cls, size_t n, const struct pt_ival *w,
		      struct pt_bdsums *out)
{
	struct pt_ival *a = pt_xmalloc((n ? n : 1) * sizeof(*a)), *b = pt_xmalloc((n ? n : 1) * sizeof(*b)),
		       *c = pt_xmalloc((n ? n : 1) * sizeof(*c));
	size_t na = 0, nb = 0, nc = 0;
	for (size_t i = 0; i < n; i++) {
		if (cls[i] == 1)
			a[na++] = iv[i];
		if (cls[i] == 2)
			b[nb++] = iv[i];
		if (cls[i] == 1 || cls[i] == 2)
			c[nc++] = iv[i];
	}
	struct pt_ivset sa = { 0 }, sb = { 0 }, sc = { 0 };
	pt_ivset_build(&sa, a, na);
	pt_ivset_build(&sb, b, nb);
	pt_ivset_build(&sc, c, nc);
	memset(out, 0, sizeof(*out));
	if (w->e > w->s) {
		out->comp = pt_ivset_measure_in(&sa, w->s, w->e);
		out->comm = pt_ivset_measure_in(&sb, w->s, w->e);
		out->either = pt_ivset_measure_in(&sc, w->s, w->e);
		out->total = w->e - w->s;
	}
	pt_ivset_free(&sa);
	pt_ivset_free(&sb);
	pt_ivset_free(&sc);
	free(a);
	free(b);
	free(c);
}

static void test_by_hand(void **state)
{
	(void)state;
	/* windows [0,10) [10,20) [5,15) (overlapping) and an empty one */
	struct pt_ival w[4] = { { 0, 10 }, { 10, 20 }, { 5, 15 }, { 7, 7 } };
	struct pt_bdstream *s = pt_bdstream_new(w, 4, 2);
	pt_bdstream_add(s, 1, 2, 6);   /* C */
	pt_bdstream_add(s, 2, 4, 12);  /* M, overlaps C on [4,6) */
	pt_bdstream_add(s, 0, 0, 100); /* no class: ignored */
	pt_bdstream_add(s, 1, 9, 9);   /* empty: ignored */
	pt_bdstream_release(s, 5);     /* sweeps [2,6) and [4,12) */
	pt_bdstream_add(s, 1, 14, 30);
	pt_bdstream_mark(s, 0, 0);
	pt_bdstream_mark(s, 0, 10);
	pt_bdstream_mark(s, 0, 19);
	pt_bdstream_mark(s, 1, 20);
	pt_bdstream_mark(s, 1, -3);
	pt_bdstream_finish(s);
	struct pt_bdsums m;
	pt_bdstream_window(s, 0, &m);
	assert_int_equal(m.comp, 4);
	assert_int_equal(m.comm, 6);
	assert_int_equal(m.either, 8);
	assert_int_equal(m.total, 10);
	struct pt_breakdown b;
	pt_bdsums_breakdown(&m, &b);
	assert_int_equal(b.overlapped, 2);
	assert_int_equal(b.comm_not_overlapped, 4);
	assert_int_equal(b.free, 2);
	pt_bdstream_window(s, 1, &m);
	assert_int_equal(m.comp, 6);
	assert_int_equal(m.comm, 2);
	assert_int_equal(m.either, 8);
	pt_bdstream_window(s, 2, &m);
	assert_int_equal(m.comp, 2);
	assert_int_equal(m.comm, 7);
	assert_int_equal(m.either, 8);
	pt_bdstream_window(s, 3, &m);
	assert_int_equal(m.total, 0);
	assert_int_equal(m.either, 0);
	assert_int_equal(pt_bdstream_count(s, 0, 0), 1);
	assert_int_equal(pt_bdstream_count(s, 1, 0), 2);
	assert_int_equal(pt_bdstream_count(s, 2, 0), 1);
	assert_int_equal(pt_bdstream_count(s, 1, 1), 0); /* [10,20) leaves 20 out */
	assert_int_equal(pt_bdstream_count(s, 3, 0), 0);
	assert_int_equal(pt_bdstream_marks(s, 0), 3);
	assert_int_equal(pt_bdstream_marks(s, 1), 2);
	assert_int_equal(pt_bdstream_pending(s, NULL), 0);
	pt_bdstream_free(s);
}

/* A tiny deterministic generator. */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Intervals that come out of start order by at most `lag`, released as a lag watermark allows:
 * the same measures as whole unions, and the pending set stays small. */
static void test_random_lagged(void **state)
{
	(void)state;
	uint64_t seed = 88172645463325252ull;
	for (int round = 0; round < 40; round++) {
		size_t n = 1 + rnd(&seed) % 3000, nw = 1 + rnd(&seed) % 40;
		int64_t lag = (int64_t)(rnd(&seed) % 50);
		struct pt_ival *iv = pt_xmalloc(n * sizeof(*iv));
		int *cls = pt_xmalloc(n * sizeof(*cls));
		int64_t *top = pt_xmalloc(n * sizeof(*top)); /* the latest "top" when interval i came */
		int64_t t = 0;
		for (size_t i = 0; i < n; i++) {
			t += (int64_t)(rnd(&seed) % 5);
			int64_t st = t - (lag ? (int64_t)(rnd(&seed) % (uint64_t)(lag + 1)) : 0);
			iv[i] = (struct pt_ival){ st, st + (int64_t)(rnd(&seed) % 30) };
			cls[i] = (int)(rnd(&seed) % 3);
			top[i] = t;
		}
		struct pt_ival *w = pt_xmalloc(nw * sizeof(*w));
		for (size_t i = 0; i < nw; i++) {
			int64_t a = (int64_t)(rnd(&seed) % (uint64_t)(t + 60)) - 30;
			w[i] = (struct pt_ival){ a, a + (int64_t)(rnd(&seed) % 400) - 20 };
		}
		struct pt_bdstream *s = pt_bdstream_new(w, nw, 1);
		size_t batch = 1 + rnd(&seed) % 200;
		for (size_t i = 0; i < n; i++) {
			pt_bdstream_add(s, cls[i], iv[i].s, iv[i].e);
			pt_bdstream_mark(s, 0, iv[i].s);
			if ((i + 1) % batch == 0)
				pt_bdstream_release(s, top[i] - lag); /* no later start comes before */
		}
		size_t peak;
		pt_bdstream_pending(s, &peak);
		assert_true(peak <= batch + 5 * (size_t)lag + 10);
		pt_bdstream_finish(s);
		for (size_t i = 0; i < nw; i++) {
			struct pt_bdsums got, want;
			pt_bdstream_window(s, i, &got);
			reference(iv, cls, n, &w[i], &want);
			assert_int_equal(got.comp, want.comp);
			assert_int_equal(got.comm, want.comm);
			assert_int_equal(got.either, want.either);
			assert_int_equal(got.total, want.total);
			uint64_t c = 0;
			for (size_t k = 0; k < n; k++)
				c += iv[k].s >= w[i].s && iv[k].s < w[i].e;
			assert_int_equal(pt_bdstream_count(s, i, 0), c);
		}
		pt_bdstream_free(s);
		free(iv);
		free(cls);
		free(top);
		free(w);
	}
}

/* pt_bdstream_new_runs(): each union's final runs, in start order, disjoint and apart; their
 * measure in any window is the one a breakdown over that window gives. */
struct runs {
	struct pt_ival *v[3];
	size_t n[3], cap[3];
};

static void take_run(void *arg, int k, int64_t a, int64_t b)
{
	struct runs *r = arg;
	assert_true(k >= 0 && k < 3 && a < b);
	if (r->n[k]) /* after the last one, not touching it (else they were one run) */
		assert_true(a > r->v[k][r->n[k] - 1].e);
	pt_xgrow((void **)&r->v[k], &r->cap[k], r->n[k] + 1, sizeof(**r->v));
	r->v[k][r->n[k]++] = (struct pt_ival){ a, b };
}

static int64_t runs_in(const struct runs *r, int k, int64_t s, int64_t e)
{
	int64_t m = 0;
	for (size_t i = 0; i < r->n[k]; i++) {
		int64_t lo = r->v[k][i].s > s ? r->v[k][i].s : s, hi = r->v[k][i].e < e ? r->v[k][i].e : e;
		m += hi > lo ? hi - lo : 0;
	}
	return m;
}

static void test_runs(void **state)
{
	(void)state;
	uint64_t seed = 7122334455667788ull;
	for (int round = 0; round < 30; round++) {
		size_t n = 1 + rnd(&seed) % 2000;
		int64_t lag = (int64_t)(rnd(&seed) % 40);
		struct pt_ival *iv = pt_xmalloc(n * sizeof(*iv));
		int *cls = pt_xmalloc(n * sizeof(*cls));
		struct runs r;
		memset(&r, 0, sizeof(r));
		struct pt_bdstream *s = pt_bdstream_new_runs(take_run, &r);
		int64_t t = 0;
		size_t batch = 1 + rnd(&seed) % 100;
		for (size_t i = 0; i < n; i++) {
			t += (int64_t)(rnd(&seed) % 6);
			int64_t st = t - (lag ? (int64_t)(rnd(&seed) % (uint64_t)(lag + 1)) : 0);
			iv[i] = (struct pt_ival){ st, st + (int64_t)(rnd(&seed) % 25) };
			cls[i] = (int)(rnd(&seed) % 3);
			pt_bdstream_add(s, cls[i], iv[i].s, iv[i].e);
			if ((i + 1) % batch == 0)
				pt_bdstream_release(s, t - lag);
		}
		pt_bdstream_finish(s);
		for (int k = 0; k < 20; k++) {
			int64_t a = (int64_t)(rnd(&seed) % (uint64_t)(t + 60)) - 30;
			struct pt_ival w = { a, a + (int64_t)(rnd(&seed) % 300) };
			struct pt_bdsums want;
			reference(iv, cls, n, &w, &want);
			assert_int_equal(runs_in(&r, 0, w.s, w.e), want.comp);
			assert_int_equal(runs_in(&r, 1, w.s, w.e), want.comm);
			assert_int_equal(runs_in(&r, 2, w.s, w.e), want.either);
		}
		pt_bdstream_free(s);
		for (int k = 0; k < 3; k++)
			free(r.v[k]);
		free(iv);
		free(cls);
	}
}

/* No window, no interval: nothing to answer, nothing to crash on. */
static void test_empty(void **state)
{
	(void)state;
	struct pt_bdstream *s = pt_bdstream_new(NULL, 0, 0);
	pt_bdstream_add(s, 1, 0, 5);
	pt_bdstream_mark(s, 0, 3); /* no mark kinds: ignored */
	pt_bdstream_finish(s);
	struct pt_bdsums m;
	pt_bdstream_window(s, 0, &m); /* out of range: zero */
	assert_int_equal(m.comp, 0);
	assert_int_equal(pt_bdstream_count(s, 0, 0), 0);
	assert_int_equal(pt_bdstream_marks(s, 0), 0);
	pt_bdstream_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random_lagged),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
