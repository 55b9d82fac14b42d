/* Unit tests of the timeline pass: scope rows (chrome-trace.md §10.2, §13.5), overlap rows (§10.3, §13.6), steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "export/export-chrome.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-timeline.h"
#include "pass/pass-timeline-trace.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"
#include "table/trace.h"

static void slice_is(const struct pt_model *m, const struct pt_tl_row *row, size_t k, uint32_t level, const char *seg,
		     const char *key, int64_t s, int64_t e)
{
	assert_true(k < row->s.n);
	const struct pt_tl_slice *sl = &row->s.v[k];
	const char *full = pt_model_strget(m, sl->name);
	size_t off, len;
	assert_true(pt_tl_scope_segment(full, level, &off, &len));
	char buf[256];
	snprintf(buf, sizeof(buf), "%.*s", (int)len, full + off);
	assert_string_equal(buf, seg);
	snprintf(buf, sizeof(buf), "%.*s", (int)(off + len), full);
	assert_string_equal(buf, key);
	assert_int_equal(sl->start, s);
	assert_int_equal(sl->end, e);
}

static struct pt_model *scope_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 5, "stream 5");
	static const struct {
		const char *n;
		int64_t s, e;
	} ops[] = {
		{ "Default/network/lenet5/Conv2D-op11", 0, 10 },
		{ "Default/network/lenet5/ReLU-op12", 10, 15 },
		{ "Default/network/loss/SoftmaxCrossEntropy-op13", 16, 20 },
		{ "Gradients/Default/network/lenet5/gradConv2D/Conv2DBackpropInput-op20", 22, 30 },
		{ "Default/optimizer/Momentum-op30", 31, 35 },
	};
	for (size_t i = 0; i < 5; i++)
		pt_model_add_event(m, t, pt_model_str(m, ops[i].n), PT_EV_TASK, ops[i].s, ops[i].e - ops[i].s, 0, PT_NONE,
				   i + 1);
	struct pt_step st = { .device = d, .step = 1, .has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_END,
			      .start = 0, .fp = 0, .end = 40 };
	pt_model_add_step(m, &st);
	return m;
}

/* §13.5 */
static void test_scope_depth3(void **state)
{
	(void)state;
	struct pt_model *m = scope_model();
	struct pt_index *x = pt_index_new(m);
	struct pt_tl_opts o = { .scope_depth = 3, .overlap = true };
	struct pt_tl *tl = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	const struct pt_tl_device *d = &tl->dev[0];
	assert_int_equal(d->scope[0].s.n, 3);
	slice_is(m, &d->scope[0], 0, 0, "Default", "Default", 0, 20);
	slice_is(m, &d->scope[0], 1, 0, "Gradients", "Gradients", 22, 30);
	slice_is(m, &d->scope[0], 2, 0, "Default", "Default", 31, 35);
	assert_int_equal(d->scope[0].s.v[0].count, 3);
	assert_int_equal(d->scope[1].s.n, 3);
	slice_is(m, &d->scope[1], 0, 1, "network", "Default/network", 0, 20);
	slice_is(m, &d->scope[1], 1, 1, "Default", "Gradients/Default", 22, 30);
	slice_is(m, &d->scope[1], 2, 1, "optimizer", "Default/optimizer", 31, 35);
	assert_int_equal(d->scope[2].s.n, 3);
	slice_is(m, &d->scope[2], 0, 2, "lenet5", "Default/network/lenet5", 0, 15);
	slice_is(m, &d->scope[2], 1, 2, "loss", "Default/network/loss", 16, 20);
	slice_is(m, &d->scope[2], 2, 2, "network", "Gradients/Default/network", 22, 30);
	assert_int_equal(tl->scope_skipped, 0);
	/* the step row */
	assert_int_equal(d->steps.s.n, 1);
	assert_int_equal(d->steps.s.v[0].start, 0);
	assert_int_equal(d->steps.s.v[0].end, 40);
	assert_int_equal(d->steps.s.v[0].count, 5);
	pt_tl_free(tl);
	pt_index_free(x);
	pt_model_free(m);
}

/* Q40: equal segment names under different parents stay apart; rule 3 skips overlapping ops. */
static void test_scope_prefix_and_skip(void **state)
{
	(void)state;
	struct pt_tl_scope_op ops[] = {
		{ 0, 10, "Default/a/x/Op-op1", 1, 1 },
		{ 10, 20, "Default/b/x/Op-op2", 2, 1 },
		{ 15, 18, "Default/c/y/Op-op3", 3, 1 }, /* starts inside the open b slice at level 1 */
		{ 30, 40, "Other/a/Op-op4", 4, 1 },     /* not a root: ignored */
		{ 50, 60, "Default/InitDataSetQueue/x/Op-op5", 5, 1 },
	};
	struct pt_tl_row rows[3];
	memset(rows, 0, sizeof(rows));
	uint64_t skipped = 0;
	pt_tl_scopes(ops, 5, 3, rows, &skipped);
	assert_int_equal(rows[0].s.n, 1); /* Default [0,20) */
	assert_int_equal(rows[0].s.v[0].end, 20);
	assert_int_equal(rows[0].s.v[0].count, 3);
	assert_int_equal(rows[1].s.n, 2); /* a, b; c skipped */
	assert_int_equal(rows[2].s.n, 2); /* x under a, x under b: two slices */
	assert_int_equal(rows[2].s.v[1].start, 10);
	assert_int_equal(skipped, 2);
	/* a step change closes a slice */
	struct pt_tl_scope_op ops2[] = {
		{ 0, 10, "Default/a/Op-op1", 1, 1 },
		{ 10, 20, "Default/a/Op-op2", 2, 2 },
	};
	struct pt_tl_row r2 = { 0 };
	pt_tl_scopes(ops2, 2, 1, &r2, &skipped);
	assert_int_equal(r2.s.n, 2);
	for (int i = 0; i < 3; i++)
		free(rows[i].s.v);
	free(r2.s.v);
}

/* §13.6 */
static void test_overlap(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t1 = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t t2 = pt_model_track(m, d, PT_TRACK_STREAM, 8, "stream 8");
	uint32_t k = pt_model_str(m, "gemm_kernel"), n = pt_model_str(m, "ncclKernel_AllReduce");
	pt_model_add_event(m, t1, k, PT_EV_KERNEL, 0, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t1, k, PT_EV_KERNEL, 150, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t2, n, PT_EV_KERNEL, 80, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t2, n, PT_EV_KERNEL, 300, 50, 0, PT_NONE, 0);
	/* W = [0, 400): one host step range */
	uint32_t h = pt_model_device(m, PT_DEV_CPU, 0);
	uint32_t th = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 11, "");
	pt_model_add_event(m, th, pt_model_str(m, "ProfilerStep#3"), PT_EV_RANGE, 0, 400, 0, PT_NONE, 0);
	struct pt_index *x = pt_index_new(m);
	struct pt_tl_opts o = { .overlap = true };
	struct pt_tl *tl = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	const struct pt_tl_device *td = &tl->dev[d];
	assert_true(td->has_overlap);
	struct pt_ivset rows[PT_TL_OV_N] = { { 0 } }; /* the rows, made from their sets */
	const struct pt_ivset *s[PT_TL_OV_N];
	for (int q = 0; q < PT_TL_OV_N; q++) {
		pt_tl_overlap_set(&td->ov[q], &rows[q]);
		s[q] = &rows[q];
	}
	static const int64_t want[PT_TL_OV_N][4] = {
		{ 0, 100, 150, 250 }, { 80, 180, 300, 350 }, { 100, 150, 300, 350 }, { 250, 300, 350, 400 }
	};
	for (int q = 0; q < PT_TL_OV_N; q++) {
		assert_int_equal(s[q]->n, 2);
		assert_int_equal(s[q]->v[0].s, want[q][0]);
		assert_int_equal(s[q]->v[0].e, want[q][1]);
		assert_int_equal(s[q]->v[1].s, want[q][2]);
		assert_int_equal(s[q]->v[1].e, want[q][3]);
	}
	int64_t sum = pt_ivset_measure(s[PT_TL_OV_COMP]) + pt_ivset_measure(s[PT_TL_OV_PURE_COMM]) +
		      pt_ivset_measure(s[PT_TL_OV_FREE]);
	assert_int_equal(sum, 400);
	for (int q = 0; q < PT_TL_OV_N; q++)
		pt_ivset_free(&rows[q]);
	/* the GPU Steps row spans the step's activities; events carry step 3 */
	assert_int_equal(td->steps.s.n, 1);
	assert_int_equal(td->steps.s.v[0].step, 3);
	assert_int_equal(td->steps.s.v[0].start, 0);
	assert_int_equal(td->steps.s.v[0].end, 350);
	assert_int_equal(pt_tl_ev_step(tl, 0), 3);
	assert_int_equal(tl->ev_keep[4], 3); /* kept, a step range */
	pt_tl_free(tl);
	/* --no-overlap */
	o.overlap = false;
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	assert_false(tl->dev[d].has_overlap);
	pt_tl_free(tl);
	/* --time-window 100:200 keeps events intersecting [100, 200) */
	o.sel.window_given = o.sel.win_has_a = o.sel.win_has_b = true;
	o.sel.win_a = 100;
	o.sel.win_b = 200;
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	assert_int_equal(tl->ev_keep[0] & 1, 0 == 1); /* [0,100) does not intersect */
	assert_int_equal(tl->ev_keep[1] & 1, 1);      /* [150,250) */
	assert_int_equal(tl->ev_keep[2] & 1, 1);      /* [80,180) */
	assert_int_equal(tl->ev_keep[3] & 1, 0);      /* [300,350) */
	pt_tl_free(tl);
	/* a bad step pattern */
	o.sel.step_pattern = "(";
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), -1);
	pt_err_free(e);
	pt_index_free(x);
	pt_model_free(m);
}

static void same_set(const struct pt_ivset *a, const struct pt_ivset *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].s, b->v[i].s);
		assert_int_equal(a->v[i].e, b->v[i].e);
	}
}

/*
 * The overlap rows against the set algebra of §10.3 computed directly:
 * C ∩ W, M ∩ W, (M − C) ∩ W, W − (C ∪ M), on random streams, step ranges
 * with gaps and random --time-window values.
 */
static void test_overlap_sets(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (int round = 0; round < 300; round++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t k = pt_model_str(m, "gemm_kernel"), n = pt_model_str(m, "ncclKernel_AllReduce");
		for (int st = 0; st < 3; st++) {
			uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7 + st, "stream");
			int64_t at = 0;
			for (int i = 0; i < 12; i++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				at += (int64_t)(seed >> 33) % 60;
				int64_t dur = 1 + (int64_t)(seed >> 45) % 50;
				pt_model_add_event(m, t, (seed >> 20) & 1 ? n : k, PT_EV_KERNEL, at, dur, 0, PT_NONE, 0);
				at += dur;
			}
		}
		uint32_t h = pt_model_device(m, PT_DEV_CPU, 0);
		uint32_t th = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 11, "");
		int64_t s0 = (int64_t)(seed >> 40) % 100;
		pt_model_add_event(m, th, pt_model_str(m, "ProfilerStep#1"), PT_EV_RANGE, s0, 250, 0, PT_NONE, 0);
		pt_model_add_event(m, th, pt_model_str(m, "ProfilerStep#2"), PT_EV_RANGE, s0 + 250 + (round & 3) * 20, 300, 0,
				   PT_NONE, 0);
		struct pt_index *x = pt_index_new(m);
		struct pt_tl_opts o = { .overlap = true };
		if (round % 3) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			o.sel.window_given = true;
			o.sel.win_has_a = round % 3 != 1;
			o.sel.win_a = (int64_t)(seed >> 35) % 300;
			o.sel.win_has_b = !o.sel.win_has_a || !((int64_t)(seed >> 50) % 2);
			o.sel.win_b = o.sel.win_has_a ? o.sel.win_a + 100 + (int64_t)(seed >> 40) % 400
						      : 200 + (int64_t)(seed >> 40) % 400;
		}
		struct pt_tl *tl = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
		const struct pt_tl_device *td = &tl->dev[d];
		const struct pt_ivset *C = pt_index_comp(x, d), *M = pt_index_comm(x, d);
		struct pt_ival wv[2];
		for (size_t w = 0; w < td->win.n; w++)
			wv[w] = (struct pt_ival){ td->win.v[w].s, td->win.v[w].e };
		struct pt_ivset W0 = { 0 }, W = { 0 }, want = { 0 }, tmp = { 0 }, got = { 0 };
		pt_ivset_build(&W0, wv, td->win.n);
		pt_ivset_clip(&W, &W0, tl->win_s, tl->win_e);
		if (!td->has_overlap) {
			assert_true(!C->n && !M->n);
		} else {
			pt_ivset_inter(&want, C, &W);
			pt_tl_overlap_set(&td->ov[PT_TL_OV_COMP], &got);
			same_set(&got, &want);
			pt_ivset_inter(&want, M, &W);
			pt_tl_overlap_set(&td->ov[PT_TL_OV_COMM], &got);
			same_set(&got, &want);
			pt_ivset_diff(&tmp, M, C);
			pt_ivset_inter(&want, &tmp, &W);
			pt_tl_overlap_set(&td->ov[PT_TL_OV_PURE_COMM], &got);
			same_set(&got, &want);
			pt_ivset_union(&tmp, C, M);
			pt_ivset_diff(&want, &W, &tmp);
			pt_tl_overlap_set(&td->ov[PT_TL_OV_FREE], &got);
			same_set(&got, &want);
		}
		/* the same rows from packed sets (a streamed timeline's unions) */
		struct pt_ivpack pc = { 0 }, pm = { 0 };
		for (size_t i = 0; i < C->n; i++)
			pt_ivpack_append(&pc, C->v[i].s, C->v[i].e);
		for (size_t i = 0; i < M->n; i++)
			pt_ivpack_append(&pm, M->v[i].s, M->v[i].e);
		pt_ivpack_close(&pc);
		pt_ivpack_close(&pm);
		const struct pt_ivset none = { 0 };
		struct pt_tl_ovsrc free_src = { .w = &W, .a = &none, .b = &none, .pa = &pc, .pb = &pm };
		pt_ivset_union(&tmp, C, M);
		pt_ivset_diff(&want, &W, &tmp);
		pt_tl_overlap_set(&free_src, &got);
		same_set(&got, &want);
		struct pt_tl_ovsrc pure_src = { .w = &none, .a = &none, .b = &none, .pw = &pm, .pa = &pc };
		pt_ivset_diff(&want, M, C);
		pt_tl_overlap_set(&pure_src, &got);
		same_set(&got, &want);
		pt_ivpack_free(&pc);
		pt_ivpack_free(&pm);
		pt_ivset_free(&W0);
		pt_ivset_free(&W);
		pt_ivset_free(&want);
		pt_ivset_free(&tmp);
		pt_ivset_free(&got);
		pt_tl_free(tl);
		pt_index_free(x);
		pt_model_free(m);
	}
}

/* One event as the trace hands it out, for comparing two runs. */
struct seen {
	uint8_t ph;
	uint32_t row;
	int64_t ts, dur;
	char name[64];
	uint8_t nargs;
};

static size_t drain(struct pt_trace *t, struct seen *v, size_t cap)
{
	struct pt_trace_ev ev;
	size_t n = 0;
	t->rewind(t);
	while (t->next(t, &ev)) {
		assert_true(n < cap);
		struct seen *s = &v[n++];
		memset(s, 0, sizeof(*s));
		s->ph = ev.ph;
		s->row = ev.row;
		s->ts = ev.ts;
		s->dur = ev.dur;
		s->nargs = ev.nargs;
		if (ev.ph == PT_PH_X || ev.ph == PT_PH_C)
			snprintf(s->name, sizeof(s->name), "%.*s", (int)ev.name.n, ev.name.s);
		/* output order: ts, then X before C before s before f */
		if (n > 1)
			assert_true(v[n - 2].ts < s->ts || (v[n - 2].ts == s->ts && v[n - 2].ph <= s->ph));
		if (ev.ph == PT_PH_C)
			assert_true(ev.row < t->ncounters);
		else
			assert_true(ev.row < t->nrows);
		if (ev.ph == PT_PH_S || ev.ph == PT_PH_F)
			assert_true(ev.flow < t->nflows);
		assert_true(ev.nargs <= PT_TRACE_MAX_ARGS && ev.gn <= ev.nargs);
	}
	return n;
}

static const struct pt_trace_row *row_named(const struct pt_trace *t, const char *name)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

/* The trace as data (table/trace.h): rows, processes, flows and the event stream in both profiles */
static void test_trace(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t1 = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t h = pt_model_device(m, PT_DEV_CPU, 0);
	uint32_t th = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 11, "main");
	uint32_t k = pt_model_str(m, "_Z6kernelPfi"), api = pt_model_str(m, "cudaLaunchKernel");
	pt_model_add_event(m, th, api, PT_EV_API, 1000, 50, 5, PT_NONE, 0);
	pt_model_add_event(m, t1, k, PT_EV_KERNEL, 1100, 100, 5, PT_NONE, 0);
	pt_model_add_event(m, t1, k, PT_EV_KERNEL, 1150, 100, 0, PT_NONE, 0); /* overlaps, not nested: a second lane */
	pt_model_add_event(m, th, pt_model_str(m, "ProfilerStep#3"), PT_EV_RANGE, 900, 500, 0, PT_NONE, 0);
	uint32_t tc = pt_model_track(m, d, PT_TRACK_COUNTER, -1, "power");
	pt_model_add_counter_sample(m, tc, 1000, 1.5);
	pt_model_add_counter_sample(m, tc, 1300, 2.0);
	struct pt_index *x = pt_index_new(m);
	struct pt_tl_opts o = { .overlap = true };
	struct pt_tl *tl = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	struct pt_tl_trace_opts to = { .trace_name = "t", .flows = true, .demangle = true };
	struct pt_diag diag = { 0 };
	struct pt_trace *t = NULL;
	assert_int_equal(pt_tl_trace_new(m, x, tl, &to, &diag, &t, &e), 0);
	assert_int_equal(t->profile, PT_TRACE_VIEWER);
	assert_string_equal(t->clock, "unix");
	assert_int_equal(t->base_ns, 0); /* the earliest start, 900, rounded down to the microsecond */
	assert_int_equal(t->nranks, 1);
	assert_int_equal(t->nflows, 1);
	assert_int_equal(t->ncounters, 1);
	assert_int_equal(t->overflow_events, 1);
	assert_non_null(row_named(t, "Stream 7"));
	assert_non_null(row_named(t, "Stream 7 #2"));
	assert_non_null(row_named(t, "Thread 11 (main)"));
	bool gpu = false;
	for (size_t p = 0; p < t->nprocs; p++)
		gpu |= t->procs[p].shown && !strcmp(t->procs[p].name, "Rank 0 GPU 0");
	assert_true(gpu);
	static struct seen a[64], b[64];
	size_t n = drain(t, a, 64);
	/* 4 model events, 2 samples, 1 flow (s, f), the GPU Steps slice and the overlap rows */
	assert_true(n >= 4 + 2 + 2 + 1);
	assert_int_equal(drain(t, b, 64), n); /* rewind: the same stream again */
	assert_memory_equal(a, b, n * sizeof(*a));
	bool kernel = false, sample = false;
	for (size_t i = 0; i < n; i++) {
		kernel |= a[i].ph == PT_PH_X && !strcmp(a[i].name, "kernel(float*, int)") && a[i].ts == 1100 && a[i].dur == 100;
		sample |= a[i].ph == PT_PH_C && !strcmp(a[i].name, "power") && a[i].ts == 1300;
	}
	assert_true(kernel && sample);
	/* a counter's last sample so far, shown again at a later time */
	struct pt_trace_ev ev;
	t->rewind(t);
	assert_false(t->counter_last(t, 0, 5000, &ev));
	while (t->next(t, &ev))
		;
	assert_true(t->counter_last(t, 0, 5000, &ev));
	assert_int_equal(ev.ts, 5000);
	assert_int_equal(ev.nargs, 1);
	assert_true(ev.a[0].v.d == 2.0);
	pt_tl_trace_free(t);
	/* kineto: Kineto's row names and categories, no counters */
	to.profile = PT_TRACE_KINETO;
	assert_int_equal(pt_tl_trace_new(m, x, tl, &to, &diag, &t, &e), 0);
	assert_non_null(row_named(t, "stream 7 "));
	assert_int_equal(t->ncounters, 0);
	n = drain(t, a, 64);
	bool cat = false;
	t->rewind(t);
	while (t->next(t, &ev))
		cat |= ev.ph == PT_PH_X && !strcmp(t->cats[ev.cat], "cuda_runtime");
	assert_true(cat);
	pt_tl_trace_free(t);
	pt_tl_free(tl);
	pt_index_free(x);
	pt_diag_free(&diag);
	pt_model_free(m);
	/* times more than 2^53 ns apart cannot be written as exact microseconds: an error, no trace */
	m = pt_model_new();
	d = pt_model_device(m, PT_DEV_GPU, 0);
	t1 = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	pt_model_add_event(m, t1, pt_model_str(m, "k"), PT_EV_KERNEL, 0, 10, 0, PT_NONE, 0);
	pt_model_add_event(m, t1, pt_model_str(m, "k"), PT_EV_KERNEL, (int64_t)1 << 60, 10, 0, PT_NONE, 0);
	x = pt_index_new(m);
	assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
	to.profile = PT_TRACE_VIEWER;
	t = (struct pt_trace *)&t; /* overwritten with NULL */
	assert_int_equal(pt_tl_trace_new(m, x, tl, &to, &diag, &t, &e), -1);
	assert_null(t);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "2^53"));
	free(msg);
	pt_err_free(e);
	pt_tl_free(tl);
	pt_index_free(x);
	pt_diag_free(&diag);
	pt_model_free(m);
}

/*
 * Every event's step, whether the pass keeps it as a 16-bit code (fewer than
 * 65,536 distinct step numbers) or in full: step numbers far apart and
 * beyond 16 bits, events between steps (0), on an NPU with one window per step.
 */
static void test_event_steps(void **state)
{
	(void)state;
	for (int round = 0; round < 2; round++) {
		size_t nsteps = round ? 70000 : 300;
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "s");
		for (size_t k = 0; k < nsteps; k++) {
			struct pt_step st = { .device = d, .step = (uint32_t)(k * 70001 + 5), .start = (int64_t)k * 100,
					      .end = (int64_t)k * 100 + 50, .has = PT_STEP_HAS_START | PT_STEP_HAS_END };
			pt_model_add_step(m, &st);
			pt_model_add_event(m, t, 0, PT_EV_TASK, (int64_t)k * 100 + 10, 5, 0, PT_NONE, 0);
			pt_model_add_event(m, t, 0, PT_EV_TASK, (int64_t)k * 100 + 60, 5, 0, PT_NONE, 0);
		}
		struct pt_index *x = pt_index_new(m);
		struct pt_tl_opts o = { .overlap = false };
		struct pt_tl *tl = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_pass_timeline(m, x, &o, &tl, &e), 0);
		assert_true(round ? tl->ev_code == NULL : tl->ev_code != NULL);
		for (size_t k = 0; k < nsteps; k++) {
			assert_int_equal(pt_tl_ev_step(tl, 2 * k), (uint32_t)(k * 70001 + 5));
			assert_int_equal(pt_tl_ev_step(tl, 2 * k + 1), 0);
		}
		pt_tl_free(tl);
		pt_index_free(x);
		pt_model_free(m);
	}
}

static void write_ptm(struct pt_model *m, const char *path)
{
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	pt_model_free(m);
}

/* An Ascend device with n tasks on one stream, 100 ns apart. */
static struct pt_model *npu_model(int n)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 3, "stream 3");
	uint32_t nm = pt_model_str(m, "Default/net/MatMul-op1");
	for (int i = 0; i < n; i++)
		pt_model_add_event(m, t, nm, PT_EV_TASK, 1000 + 100 * i, 50, 0, PT_NONE, (uint64_t)i);
	return m;
}

/*
 * A model file read as a stream (pt_tl_stream_new) is read again as the
 * trace is written: written unchanged, the trace is the in-memory one's; a
 * file that changed in between (fewer events) fails the writer, and no output
 * file is left.
 */
static void test_stream_changed(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-tls-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64], out[64], ref[64];
	snprintf(path, sizeof(path), "%s/m.ptm", dir);
	snprintf(out, sizeof(out), "%s/t.json", dir);
	snprintf(ref, sizeof(ref), "%s/r.json", dir);
	for (int change = 0; change < 2; change++) {
		unlink(out);
		write_ptm(npu_model(50), path);
		struct pt_tl_opts o = { .overlap = true };
		struct pt_model *m = NULL;
		struct pt_tl *tl = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_tl_stream_new(path, &o, &m, &tl, &e), 0);
		assert_non_null(tl->stream);
		assert_int_equal(m->events.n, 0);
		struct pt_diag diag = { 0 };
		struct pt_tl_trace_opts to = { .trace_name = "m", .flows = true, .demangle = true };
		struct pt_trace *t = NULL;
		assert_int_equal(pt_tl_trace_new(m, NULL, tl, &to, &diag, &t, &e), 0);
		if (change)
			write_ptm(npu_model(5), path);
		struct pt_chrome_opts co = { .trace_name = "m", .gzip_threads = 1 };
		struct pt_chrome_stats st;
		int rc = pt_chrome_write(t, &co, out, &st, &e);
		pt_tl_trace_free(t);
		pt_tl_free(tl);
		pt_model_free(m);
		struct stat sb;
		if (change) {
			assert_int_equal(rc, -1);
			assert_non_null(e);
			assert_non_null(strstr(e->msg, path)); /* the error names the file */
			assert_true(stat(out, &sb) < 0);
			pt_err_free(e);
		} else {
			assert_int_equal(rc, 0);
			/* the tasks (no framework op: communication), Merged and Pure Communication, Free Time */
			assert_int_equal(st.events, 50 + 50 + 50 + 49);
			/* the same bytes as the model read whole */
			struct pt_model *w = NULL;
			assert_int_equal(pt_ptm_read(path, &w, &e), 0);
			struct pt_index *x = pt_index_new(w);
			struct pt_tl *tw = NULL;
			assert_int_equal(pt_pass_timeline(w, x, &o, &tw, &e), 0);
			struct pt_trace *t2 = NULL;
			assert_int_equal(pt_tl_trace_new(w, x, tw, &to, &diag, &t2, &e), 0);
			assert_int_equal(pt_chrome_write(t2, &co, ref, &st, &e), 0);
			pt_tl_trace_free(t2);
			pt_tl_free(tw);
			pt_index_free(x);
			pt_model_free(w);
			FILE *fa = fopen(out, "rb"), *fb = fopen(ref, "rb");
			assert_non_null(fa);
			assert_non_null(fb);
			static char ba[1 << 16], bb[1 << 16];
			size_t na = fread(ba, 1, sizeof(ba), fa), nb = fread(bb, 1, sizeof(bb), fb);
			fclose(fa);
			fclose(fb);
			assert_true(na > 1000);
			assert_int_equal(na, nb);
			assert_memory_equal(ba, bb, na);
		}
		pt_diag_free(&diag);
	}
	unlink(path);
	unlink(out);
	unlink(ref);
	rmdir(dir);
}

/* The trace of the model file at path, streamed (which must stream) and read whole: the same bytes. */
static void same_streamed(const char *path, const char *out, const char *ref, size_t *events)
{
	struct pt_tl_opts o = { .overlap = true };
	struct pt_tl_trace_opts to = { .trace_name = "m", .flows = true, .demangle = true };
	struct pt_chrome_opts co = { .trace_name = "m", .gzip_threads = 1 };
	struct pt_chrome_stats st, st2;
	struct pt_diag diag = { 0 };
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct pt_tl *tl = NULL;
	assert_int_equal(pt_tl_stream_new(path, &o, &m, &tl, &e), 0);
	assert_non_null(tl->stream);
	struct pt_trace *t = NULL;
	assert_int_equal(pt_tl_trace_new(m, NULL, tl, &to, &diag, &t, &e), 0);
	assert_int_equal(pt_chrome_write(t, &co, out, &st, &e), 0);
	pt_tl_trace_free(t);
	pt_tl_free(tl);
	pt_model_free(m);
	struct pt_model *w = NULL;
	assert_int_equal(pt_ptm_read(path, &w, &e), 0);
	struct pt_index *x = pt_index_new(w);
	struct pt_tl *tw = NULL;
	assert_int_equal(pt_pass_timeline(w, x, &o, &tw, &e), 0);
	assert_int_equal(pt_tl_trace_new(w, x, tw, &to, &diag, &t, &e), 0);
	assert_int_equal(pt_chrome_write(t, &co, ref, &st2, &e), 0);
	pt_tl_trace_free(t);
	pt_tl_free(tw);
	pt_index_free(x);
	pt_model_free(w);
	pt_diag_free(&diag);
	assert_int_equal(st.events, st2.events);
	*events = st.events;
	FILE *fa = fopen(out, "rb"), *fb = fopen(ref, "rb");
	assert_non_null(fa);
	assert_non_null(fb);
	int a, b;
	do {
		a = getc(fa);
		b = getc(fb);
		assert_int_equal(a, b);
	} while (a != EOF);
	fclose(fa);
	fclose(fb);
}

/*
 * A file read once for its pass and layout (its TrackEvents stand for a first
 * read) whose device's tasks come, in file order, further out of start order
 * than the look-ahead reaches: stream 5's tasks (computation, as stream 3's),
 * written after 40,000 of stream 3's, start before most of them. The read
 * goes the long way: the trace is the in-memory one's, the computation union
 * (the Merged and Free Time rows) included.
 * The same file with stream 5's tasks where their start puts them reads in
 * one go, the same again.
 */
static void test_stream_fold_lookahead(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-tlf-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64], out[64], ref[64];
	snprintf(path, sizeof(path), "%s/m.ptm", dir);
	snprintf(out, sizeof(out), "%s/t.json", dir);
	snprintf(ref, sizeof(ref), "%s/r.json", dir);
	for (int late = 0; late < 2; late++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t t3 = pt_model_track(m, d, PT_TRACK_STREAM, 3, "stream 3");
		uint32_t t5 = pt_model_track(m, d, PT_TRACK_STREAM, 5, "stream 5");
		uint32_t nm = pt_model_str(m, "Default/net/MatMul-op1");
		struct pt_op po = { .device = d, .name = nm, .type = pt_model_str(m, "MatMul"), .task_type = -1 };
		uint32_t op = pt_model_add_op(m, &po);
		const int n = 40000;
		const int64_t b5[3] = { 1500, 2000050, 3999990 }; /* before, among and after stream 3's */
		int k5 = 0;
		for (int i = 0; i < n; i++) {
			int64_t st = 1000 + 100 * (int64_t)i;
			while (!late && k5 < 3 && b5[k5] <= st) {
				pt_model_add_event(m, t5, nm, PT_EV_TASK, b5[k5], 70, 0, op, (uint64_t)k5);
				k5++;
			}
			pt_model_add_event(m, t3, nm, PT_EV_TASK, st, 50, 0, op, (uint64_t)i);
		}
		for (; k5 < 3; k5++)
			pt_model_add_event(m, t5, nm, PT_EV_TASK, b5[k5], 70, 0, op, (uint64_t)k5);
		write_ptm(m, path);
		size_t events = 0;
		same_streamed(path, out, ref, &events);
		assert_true(events > (size_t)n);
	}
	unlink(path);
	unlink(out);
	unlink(ref);
	rmdir(dir);
}

static int flow_cmp(const void *pa, const void *pb)
{
	const struct flow *a = pa, *b = pb;
	int c = (a->sts > b->sts) - (a->sts < b->sts);
	c = c ? c : (a->api > b->api) - (a->api < b->api);
	return c ? c : (a->act > b->act) - (a->act < b->act);
}

/* tl_flows_order: (sts, api, act) order in place, packed to arrows, against qsort's order. */
static void test_flows_order(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 2, 16, 17, 100, 5000 };
	uint64_t x = 88172645463325252ull;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(*sizes); si++)
		for (int shape = 0; shape < 5; shape++) {
			size_t n = sizes[si];
			struct tl_trace *c = calloc(1, sizeof(*c));
			assert_non_null(c);
			struct flow *want = calloc(n ? n : 1, sizeof(*want));
			assert_non_null(want);
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				/* random with ties, sorted, reversed, one start (api and act decide), organ pipe */
				int64_t ts = shape == 0 ? (int64_t)(x % 50) :
					     shape == 1 ? (int64_t)i :
					     shape == 2 ? (int64_t)(n - i) :
					     shape == 3 ? 7 :
							  (int64_t)(i < n / 2 ? i : n - i);
				struct flow f = { (uint32_t)(x >> 40) % 8, (uint32_t)(n - i), (uint32_t)i, (uint32_t)(x % 1000),
						  ts, ts + (int64_t)(x % 9) };
				pt_vec_push(&c->flows, f);
				want[i] = f;
			}
			qsort(want, n, sizeof(*want), flow_cmp);
			tl_flows_order(c);
			assert_int_equal(c->narrows, n);
			assert_null(c->flows.v);
			for (size_t i = 0; i < n; i++) {
				assert_int_equal(c->arrows[i].srow, want[i].srow);
				assert_int_equal(c->arrows[i].frow, want[i].frow);
				assert_int_equal(c->arrows[i].sts, want[i].sts);
				assert_int_equal(c->arrows[i].fts, want[i].fts);
			}
			free(c->arrows);
			free(want);
			free(c);
		}
}

static const struct tl_arrow *fts_arrows;
static int fts_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t x = fts_arrows[a].fts, y = fts_arrows[b].fts;
	return x != y ? (x > y) - (x < y) : (a > b) - (a < b);
}

/* tl_flow_sort_fts: a stable sort by fts (ties in the given order) with half the run as scratch, against qsort. */
static void test_flow_sort_fts(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 2, 23, 24, 25, 100, 5000, 70001 };
	uint64_t x = 88172645463325252ull;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(*sizes); si++)
		for (int shape = 0; shape < 6; shape++) {
			size_t n = sizes[si];
			struct tl_arrow *v = calloc(n ? n : 1, sizeof(*v));
			uint32_t *idx = calloc(n ? n : 1, sizeof(*idx)), *want = calloc(n ? n : 1, sizeof(*want));
			uint32_t *tmp = calloc(n / 2 + 1, sizeof(*tmp));
			assert_true(v && idx && want && tmp);
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				/* random with ties, sorted, reversed, all equal, organ pipe, sorted with a few out of place */
				v[i].fts = shape == 0 ? (int64_t)(x % 50) :
					   shape == 1 ? (int64_t)i :
					   shape == 2 ? (int64_t)(n - i) :
					   shape == 3 ? 7 :
					   shape == 4 ? (int64_t)(i < n / 2 ? i : n - i) :
							(x % 97 ? (int64_t)i : (int64_t)(x % (n + 1)));
				idx[i] = want[i] = (uint32_t)(n - 1 - i); /* the given order: ties keep it */
			}
			fts_arrows = v;
			/* want: by (fts, position in the given order); positions map back to the indexes */
			uint32_t *pos = calloc(n ? n : 1, sizeof(*pos));
			assert_non_null(pos);
			for (size_t i = 0; i < n; i++)
				pos[i] = (uint32_t)i;
			struct tl_arrow *byp = calloc(n ? n : 1, sizeof(*byp));
			assert_non_null(byp);
			for (size_t i = 0; i < n; i++)
				byp[i] = v[idx[i]];
			fts_arrows = byp;
			qsort(pos, n, sizeof(*pos), fts_cmp);
			for (size_t i = 0; i < n; i++)
				want[i] = idx[pos[i]];
			/* the times as tl_build_sources packs them: odd shapes in wide blocks, even ones in 32 bits */
			size_t nb = n / TL_ATB + 1;
			struct tl_arrow_times at = { calloc(nb, sizeof(int64_t)), calloc(nb, sizeof(uint32_t)), NULL,
						     calloc(nb * TL_ATB, sizeof(struct tl_arrow_ts)), nb };
			struct tl_arrow_rt *rt = calloc(n ? n : 1, sizeof(*rt));
			assert_true(at.base && at.wat && at.wide && rt);
			for (size_t b = 0; b < nb; b++)
				at.wat[b] = shape % 2 ? (uint32_t)b : UINT32_MAX;
			for (size_t i = 0; i < n; i++) {
				rt[i].t.df = (int32_t)v[i].fts;
				at.wide[i].fts = v[i].fts;
			}
			tl_flow_sort_fts(&at, rt, idx, n, tmp);
			for (size_t i = 0; i < n; i++)
				assert_int_equal(idx[i], want[i]);
			free(at.base);
			free(at.wat);
			free(at.wide);
			free(rt);
			free(byp);
			free(pos);
			free(v);
			free(idx);
			free(want);
			free(tmp);
		}
}

/* tl_kext_copies_in_order: a streamed model's copies in event order, the last row of an event's several kept. */
static void test_copies_in_order(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	static const uint32_t ev[] = { 9, 3, 7, 3, 1, 9, 5 };
	for (size_t k = 0; k < sizeof(ev) / sizeof(*ev); k++) {
		struct pt_copy_info c = { ev[k], 1, 2, 3, 100 + k, -1, -1 };
		pt_vec_push(&m->copies, c);
	}
	tl_kext_copies_in_order(m);
	static const uint32_t want_ev[] = { 1, 3, 5, 7, 9 };
	static const uint64_t want_bytes[] = { 104, 103, 106, 102, 105 }; /* 3 and 9: their last rows */
	assert_int_equal(m->copies.n, 5);
	for (size_t k = 0; k < 5; k++) {
		assert_int_equal(m->copies.v[k].event, want_ev[k]);
		assert_int_equal(m->copies.v[k].bytes, want_bytes[k]);
		const struct pt_copy_info *ci = pt_model_copy_info(m, want_ev[k]);
		assert_non_null(ci);
		assert_int_equal(ci->bytes, want_bytes[k]);
	}
	assert_null(pt_model_copy_info(m, 4));
	/* in order already: left as it is */
	tl_kext_copies_in_order(m);
	assert_int_equal(m->copies.n, 5);
	assert_int_equal(m->copies.v[4].bytes, 105);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scope_depth3),
		cmocka_unit_test(test_scope_prefix_and_skip),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_event_steps),
		cmocka_unit_test(test_overlap_sets),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_stream_changed),
		cmocka_unit_test(test_stream_fold_lookahead),
		cmocka_unit_test(test_flows_order),
		cmocka_unit_test(test_flow_sort_fts),
		cmocka_unit_test(test_copies_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
