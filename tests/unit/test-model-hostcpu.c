/*
 * lib/model/hostcpu: host CPU samples read back from the model, means,
 * sums, op CPU, the three placement rules of summary.md §3.1, and the device
 * view of `summary` built on them (rule 1 and --time-window, which no raw
 * input can exercise: no importer records a host-steady offset).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hostcpu.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/pass-dataset.h"
#include "pass/pass-summary.h"
#include "support/err.h"
#include "support/xalloc.h"
#include "table/table.h"

static uint32_t npu(struct pt_model *m)
{
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	if (!m->devices.v[d].clock)
		m->devices.v[d].clock = pt_xstrdup("ascend-device");
	return d;
}

static void series(struct pt_model *m, const char *name, int64_t stream, const int64_t *t, const double *v, size_t n)
{
	uint32_t tr = pt_model_track(m, npu(m), PT_TRACK_COUNTER, stream, name);
	for (size_t i = 0; i < n; i++)
		pt_model_add_counter_sample(m, tr, t[i], v[i]);
}

#define MS 1000000LL

/*
 * Four samples at 10, 20, 30, 40 ms.
 *   user 10 20 30 40 (mean 25), sys 1 2 3 (one sample lost: mean 2),
 *   io 5 5 5 5, idle 60 50 40 30 (mean 45), ctx 1.4 2.4 3.4 0 (Σ 7.2 -> 7),
 *   process user 100 200 300 400 (mean 250), process sys 10 30 (mean 20),
 *   op 7 user 10 20 30, sys 1 2 (paired: (11 + 22) / 2 = 16.5 over 2 samples),
 *   op 8 sys only 4 6 (mean 5), an unrelated counter track (ignored).
 */
static struct pt_model *samples_model(void)
{
	struct pt_model *m = pt_model_new();
	int64_t t[4] = { 10 * MS, 20 * MS, 30 * MS, 40 * MS };
	double user[4] = { 10, 20, 30, 40 }, sys[3] = { 1, 2, 3 }, io[4] = { 5, 5, 5, 5 }, idle[4] = { 60, 50, 40, 30 },
	       ctx[4] = { 1.4, 2.4, 3.4, 0 }, pu[4] = { 100, 200, 300, 400 }, ps[2] = { 10, 30 },
	       o7u[3] = { 10, 20, 30 }, o7s[2] = { 1, 2 }, o8s[2] = { 4, 6 }, other[1] = { 99 };
	series(m, "md_cpu:device.user", -100, t, user, 4);
	series(m, "md_cpu:device.sys", -101, t, sys, 3);
	series(m, "md_cpu:device.io", -102, t, io, 4);
	series(m, "md_cpu:device.idle", -103, t, idle, 4);
	series(m, "md_cpu:device.ctx_switch", -105, t, ctx, 4);
	series(m, "md_cpu:process.user", -110, t, pu, 4);
	series(m, "md_cpu:process.sys", -111, t, ps, 2);
	series(m, "md_cpu:op.7.user", -1014, t, o7u, 3);
	series(m, "md_cpu:op.7.sys", -1015, t, o7s, 2);
	series(m, "md_cpu:op.8.sys", -1017, t, o8s, 2);
	series(m, "other counter", 5, t, other, 1);
	return m;
}

static void test_means(void **state)
{
	(void)state;
	struct pt_model *m = samples_model();
	struct pt_hostcpu h;
	assert_true(pt_hostcpu_load(m, 0, &h));
	assert_int_equal(h.s[PT_HC_USER].n, 4);
	assert_int_equal(h.s[PT_HC_SYS].n, 3);
	assert_int_equal(h.s[PT_HC_RUNABLE].n, 0);
	assert_int_equal(h.s[PT_HC_USER].time[3], 40 * MS);
	assert_int_equal(h.nops, 2);
	struct pt_hostcpu_acc a;
	pt_hostcpu_total(&h, &a);
	assert_int_equal(pt_hostcpu_samples(&a), 4);
	double v;
	assert_true(pt_hostcpu_mean(&a, PT_HC_USER, &v));
	assert_true(v == 25.0);
	assert_true(pt_hostcpu_mean(&a, PT_HC_SYS, &v));
	assert_true(v == 2.0);
	assert_false(pt_hostcpu_mean(&a, PT_HC_RUNABLE, &v));
	int64_t cs;
	assert_true(pt_hostcpu_ctx_switches(&a, &cs));
	assert_int_equal(cs, 7);
	assert_true(pt_hostcpu_process_pct(&a, &v));
	assert_true(v == 270.0); /* 250 + 20 */
	assert_true(pt_hostcpu_system_pct(&a, &v));
	assert_true(v == 50.0); /* 100 - 45 - 5 */
	assert_true(pt_hostcpu_busy_pct(&a, &v));
	assert_true(v == 55.0); /* 100 - 45 */
	int64_t n;
	double pct, sum;
	assert_true(pt_hostcpu_op_cpu(&h, 7, &pct, &n, &sum));
	assert_int_equal(n, 2);
	assert_true(sum == 33.0 && pct == 16.5);
	assert_true(pt_hostcpu_op_cpu(&h, 8, &pct, &n, &sum));
	assert_true(n == 2 && pct == 5.0);
	assert_false(pt_hostcpu_op_cpu(&h, 9, &pct, &n, &sum));
	/* acc arithmetic */
	struct pt_hostcpu_acc b = { 0 };
	pt_hostcpu_acc_add(&b, PT_HC_IDLE, 100);
	pt_hostcpu_acc_merge(&b, &a);
	assert_true(pt_hostcpu_mean(&b, PT_HC_IDLE, &v));
	assert_true(v == 56.0); /* (180 + 100) / 5 */
	assert_false(pt_hostcpu_process_pct(&(struct pt_hostcpu_acc){ 0 }, &v));
	assert_false(pt_hostcpu_system_pct(&(struct pt_hostcpu_acc){ 0 }, &v));
	pt_hostcpu_free(&h);
	/* another device has nothing */
	uint32_t d1 = pt_model_device(m, PT_DEV_NPU, 1);
	assert_false(pt_hostcpu_load(m, d1, &h));
	pt_hostcpu_free(&h);
	pt_model_free(m);
}

static const struct pt_hostcpu_step steps3[3] = {
	{ 1, 1000, 2000 }, { 2, 2000, 3000 }, { 3, 3500, 4000 },
};

static void test_rule_offset(void **state)
{
	(void)state;
	struct pt_model *m = samples_model();
	/* direct: ascend-device = host steady + 990 */
	pt_model_add_clock_offset(m, 0, PT_CLOCK_HOST_STEADY, "ascend-device", 990);
	struct pt_hostcpu_place p;
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_OFFSET);
	assert_int_equal(p.offset, 990);
	assert_int_equal(pt_hostcpu_place_step(&p, 9), -1);    /* 999 */
	assert_int_equal(pt_hostcpu_place_step(&p, 10), 0);    /* 1000: window start */
	assert_int_equal(pt_hostcpu_place_step(&p, 1010), 1);  /* 2000: end of 1, start of 2 */
	assert_int_equal(pt_hostcpu_place_step(&p, 2009), 1);  /* 2999 */
	assert_int_equal(pt_hostcpu_place_step(&p, 2010), -1); /* 3000: the gap */
	assert_int_equal(pt_hostcpu_place_step(&p, 2510), 2);  /* 3500 */
	assert_int_equal(pt_hostcpu_place_step(&p, 3010), -1); /* 4000 */
	assert_int_equal(pt_hostcpu_place_step(&p, INT64_MAX), -1); /* no overflow */
	pt_hostcpu_place_free(&p);
	pt_model_free(m);

	/* reversed and through another domain: host-monotonic-raw = steady + 500, device = raw - 300 */
	m = samples_model();
	pt_model_add_clock_offset(m, 0, "ascend-device", "host-monotonic-raw", 300);
	pt_model_add_clock_offset(m, 0, "host-monotonic-raw", "unix", 123456);
	pt_model_add_clock_offset(m, 0, PT_CLOCK_HOST_STEADY, "host-monotonic-raw", 500);
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_OFFSET);
	assert_int_equal(p.offset, 200);
	assert_int_equal(pt_hostcpu_place_step(&p, 800), 0);
	pt_hostcpu_place_free(&p);
	/* unstamped samples: never placed */
	pt_model_stat_add(m, 0, "minddata.cpu.unstamped", 2);
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_NONE);
	assert_int_equal(pt_hostcpu_place_step(&p, 800), -1);
	pt_hostcpu_place_free(&p);
	pt_model_free(m);
}

static void record(struct pt_model *m, uint8_t file, uint8_t type, int64_t batch, int64_t time)
{
	struct pt_md_record r = { .device = 0, .file = file, .type = type, .extra = 64, .batch = batch, .value = 1,
				  .time = time };
	pt_model_add_md_record(m, &r);
}

static void test_rule_queue(void **state)
{
	(void)state;
	struct pt_model *m = samples_model();
	/* connector records at 100, 200 (batch 2, then batch 3 at the same time), 300 (batch 9, no step) */
	record(m, PT_MD_DEVICE_QUEUE, 1, 1, 100);
	record(m, PT_MD_DEVICE_QUEUE, 0, 1, 150); /* a time record: not used */
	record(m, PT_MD_DEVICE_QUEUE, 1, 9, 300);
	record(m, PT_MD_DEVICE_QUEUE, 1, 2, 200);
	record(m, PT_MD_DEVICE_QUEUE, 1, 3, 200);
	record(m, PT_MD_DEVICE_QUEUE, 1, 4, -1);  /* no timestamp: not used */
	record(m, PT_MD_ITERATOR, 1, 1, 0);       /* the iterator file: only without device-queue records */
	struct pt_hostcpu_place p;
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_QUEUE);
	assert_int_equal(p.nr, 4);
	assert_int_equal(pt_hostcpu_place_step(&p, 99), -1); /* before every record */
	assert_int_equal(pt_hostcpu_place_step(&p, 100), 0);
	assert_int_equal(pt_hostcpu_place_step(&p, 199), 0);
	assert_int_equal(pt_hostcpu_place_step(&p, 200), 2); /* the later of the two records at 200: batch 3 */
	assert_int_equal(pt_hostcpu_place_step(&p, 300), -1); /* batch 9: no such step */
	pt_hostcpu_place_free(&p);
	/* no steps at all */
	pt_hostcpu_place_init(&p, m, 0, NULL, 0);
	assert_int_equal(p.rule, PT_HC_RULE_QUEUE);
	assert_int_equal(pt_hostcpu_place_step(&p, 100), -1);
	pt_hostcpu_place_free(&p);
	pt_model_free(m);

	/* only the iterator file has records */
	m = samples_model();
	record(m, PT_MD_ITERATOR, 1, 2, 50);
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_QUEUE);
	assert_int_equal(pt_hostcpu_place_step(&p, 60), 1);
	pt_hostcpu_place_free(&p);
	pt_model_free(m);

	/* nothing to place with */
	m = samples_model();
	pt_hostcpu_place_init(&p, m, 0, steps3, 3);
	assert_int_equal(p.rule, PT_HC_RULE_NONE);
	assert_int_equal(pt_hostcpu_place_step(&p, 100), -1);
	pt_hostcpu_place_free(&p);
	pt_model_free(m);
}

/* ---- the device view of summary on rule 1 --------------------------------------------- */

static const struct pt_cell *cell(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	return &t->cells[r * t->ncols + (size_t)c];
}

static bool is_null(const struct pt_table *t, size_t r, const char *col)
{
	return cell(t, r, col)->kind == PT_CELL_NULL;
}

static const char *str(const struct pt_table *t, size_t r, const char *col)
{
	static char b[64];
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_STR);
	snprintf(b, sizeof(b), "%.*s", (int)c->len, c->u.s);
	return b;
}

static int64_t num(const struct pt_table *t, size_t r, const char *col)
{
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_INT);
	return c->u.i;
}

static double dbl(const struct pt_table *t, size_t r, const char *col)
{
	const struct pt_cell *c = cell(t, r, col);
	assert_int_equal(c->kind, PT_CELL_DOUBLE);
	return c->u.d;
}

/*
 * Steps 1 [1000, 2000), 2 [2000, 3000), 3 [3000, 4000) on NPU 0, one task
 * [1000, 1500). Host samples at steady 0, 1000, 2000, 3000 ns and the offset
 * ascend-device = steady + 500: they land at 500 (before step 1: outside),
 * 1500 (step 1), 2500 (step 2) and 3500 (step 3). Idle 10, 20, 30, 40;
 * process user 1, 2, 3, 4.
 */
static struct pt_model *offset_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = npu(m);
	for (uint32_t k = 1; k <= 3; k++) {
		struct pt_step s = { .device = d, .step = k, .has = PT_STEP_HAS_START | PT_STEP_HAS_END,
				     .start = 1000 * (int64_t)k, .end = 1000 * (int64_t)k + 1000 };
		pt_model_add_step(m, &s);
	}
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 0, "stream 0");
	pt_model_add_event(m, t, pt_model_str(m, "task"), PT_EV_TASK, 1000, 500, 0, PT_NONE, 1);
	/* (files give whole ms; the model takes any ns) */
	int64_t ts[4] = { 0, 1000, 2000, 3000 };
	double idle[4] = { 10, 20, 30, 40 }, pu[4] = { 1, 2, 3, 4 };
	series(m, "md_cpu:device.idle", -103, ts, idle, 4);
	series(m, "md_cpu:process.user", -110, ts, pu, 4);
	pt_model_add_clock_offset(m, d, PT_CLOCK_HOST_STEADY, "ascend-device", 500);
	return m;
}

static const struct pt_table *device_view(struct pt_model *m, struct pt_summary_opts *o, struct pt_summary *s)
{
	o->views = 1u << PT_SV_DEVICE;
	struct pt_index *x = pt_index_new(m);
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_summary(m, x, o, s, &e), 0);
	pt_index_free(x);
	assert_int_equal(s->n, 1);
	return s->v[0].data;
}

static void test_summary_offset(void **state)
{
	(void)state;
	struct pt_model *m = offset_model();
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	struct pt_summary s;
	const struct pt_table *t = device_view(m, &o, &s);
	/* CPU(Process), CPU(System), NPU0, steps 1-3, outside, all */
	assert_int_equal(t->nrows, 8);
	assert_string_equal(str(t, 0, "device_name"), "CPU(Process)");
	assert_int_equal(num(t, 0, "samples"), 3);
	assert_true(dbl(t, 0, "utilization_ratio") == 3.0); /* (2 + 3 + 4) / 3 */
	assert_string_equal(str(t, 1, "device_name"), "CPU(System)");
	assert_true(dbl(t, 1, "utilization_ratio") == 70.0); /* 100 - (20 + 30 + 40) / 3 */
	assert_string_equal(str(t, 2, "device_name"), "NPU0");
	for (size_t r = 3; r < 6; r++) {
		assert_string_equal(str(t, r, "row_kind"), "host");
		assert_int_equal(num(t, r, "samples"), 1);
		assert_true(dbl(t, r, "idle_ratio") == 10.0 * (double)(r - 1));
		assert_true(is_null(t, r, "user_ratio"));
		assert_true(is_null(t, r, "context_switches"));
	}
	assert_string_equal(str(t, 6, "step"), "outside");
	assert_true(dbl(t, 6, "idle_ratio") == 10.0);
	assert_string_equal(str(t, 7, "step"), "all");
	assert_int_equal(num(t, 7, "samples"), 4);
	assert_true(dbl(t, 7, "idle_ratio") == 25.0);
	assert_true(dbl(t, 7, "process_user_ratio") == 2.5);
	pt_summary_free(&s);

	/* --time-window 1700:3200 (earliest event 1000): T = [2700, 4200): steps 2 and 3 are rows; step 2's
	 * sample (2500) lies outside T, step 3's (3500) inside */
	pt_summary_opts_init(&o);
	o.sel.window_given = o.sel.win_has_a = o.sel.win_has_b = true;
	o.sel.win_a = 1700;
	o.sel.win_b = 3200;
	t = device_view(m, &o, &s);
	assert_int_equal(t->nrows, 6); /* CPU x2, NPU0, 2, 3, all */
	assert_int_equal(num(t, 0, "samples"), 1);
	assert_true(dbl(t, 0, "utilization_ratio") == 4.0);
	assert_string_equal(str(t, 3, "step"), "2");
	assert_int_equal(num(t, 3, "samples"), 0);
	assert_true(is_null(t, 3, "idle_ratio"));
	assert_string_equal(str(t, 4, "step"), "3");
	assert_int_equal(num(t, 4, "samples"), 1);
	assert_string_equal(str(t, 5, "step"), "all");
	pt_summary_free(&s);

	/* --steps 5-6: no row; samples exist in steps, so the CPU rows show nothing */
	pt_summary_opts_init(&o);
	o.sel.steps_given = true;
	o.sel.step_a = 5;
	o.sel.step_b = 6;
	t = device_view(m, &o, &s);
	assert_int_equal(t->nrows, 4); /* CPU x2, NPU0, all */
	assert_int_equal(num(t, 0, "samples"), 0);
	assert_true(is_null(t, 0, "utilization_ratio"));
	assert_string_equal(str(t, 3, "step"), "all");
	pt_summary_free(&s);
	pt_model_free(m);
}

/* The dataset pass reads the same figures: MD_CPU_BUSY's mean idle is the `all` row's. */
static void test_dataset_agrees(void **state)
{
	(void)state;
	struct pt_model *m = samples_model();
	struct pt_dataset_knobs k;
	pt_dataset_knobs_init(&k);
	k.cpu_busy_pct = 50; /* busy 55 > 50 */
	struct pt_table **ts = NULL, *t = NULL;
	size_t nt = 0;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_dataset(m, -1, &k, &ts, &nt, &e), 0);
	for (size_t i = 0; i < nt; i++)
		if (!strcmp(ts[i]->name, "hints"))
			t = ts[i];
	assert_non_null(t);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(str(t, 0, "rule_id"), "MD_CPU_BUSY");
	const char *ev = str(t, 0, "evidence");
	assert_non_null(strstr(ev, "mean_idle=45"));
	assert_non_null(strstr(ev, "samples=4"));
	for (size_t i = 0; i < nt; i++)
		pt_table_free(ts[i]);
	free(ts);
	struct pt_summary_opts o;
	pt_summary_opts_init(&o);
	struct pt_summary s;
	const struct pt_table *d = device_view(m, &o, &s);
	size_t last = d->nrows - 1;
	assert_string_equal(str(d, last, "step"), "all");
	assert_true(dbl(d, last, "idle_ratio") == 45.0);
	pt_summary_free(&s);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_means),
		cmocka_unit_test(test_rule_offset),
		cmocka_unit_test(test_rule_queue),
		cmocka_unit_test(test_summary_offset),
		cmocka_unit_test(test_dataset_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
