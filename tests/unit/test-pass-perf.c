/* Unit tests of the perf pass (summary.md §10, §8.5, §7 P1-P3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/export.h"
#include "model/model.h"
#include "pass/pass-perf.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

static char *render(struct pt_table *t, int text)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	struct pt_out o;
	pt_out_init_fd(&o, fileno(fp), "tmp");
	if (text) {
		pt_export_perf_text(&o, t, PT_TU_DEFAULT);
	} else {
		struct pt_export_opts eo = { PT_FMT_CSV, PT_TU_DEFAULT, false, 0 };
		pt_export(&o, &t, 1, &eo);
	}
	assert_int_equal(pt_out_flush(&o, NULL), 0);
	free(o.buf);
	free(o.name);
	rewind(fp);
	char *b = NULL;
	size_t len = 0, cap = 0, k;
	do {
		pt_xgrow((void **)&b, &cap, len + 4097, 1);
		k = fread(b + len, 1, 4096, fp);
		len += k;
	} while (k);
	b[len] = 0;
	fclose(fp);
	return b;
}

/* §8.5: four steps, batch 8, 10, 12, 14 ms, reader 1, 1, 2, 2 ms. */
static struct pt_model *case85(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t host = pt_model_device(m, PT_DEV_CPU, 1);
	uint32_t thr = pt_model_track(m, host, PT_TRACK_HOST_THREAD, 1, "t1");
	static const int64_t batch[4] = { 8000000, 10000000, 12000000, 14000000 };
	static const int64_t reader[4] = { 1000000, 1000000, 2000000, 2000000 };
	int64_t t = 1000000000;
	for (int i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof(name), "ProfilerStep#%d", i + 1);
		pt_model_add_event(m, thr, pt_model_str(m, name), PT_EV_RANGE, t, batch[i], 0, PT_NONE, 0);
		pt_model_add_event(m, thr, pt_model_str(m, "Dataloader"), PT_EV_RANGE, t, reader[i], 0, PT_NONE, 0);
		/* a nested loader range is not counted twice */
		pt_model_add_event(m, thr, pt_model_str(m, "Dataloader::next"), PT_EV_RANGE, t + 10, reader[i] / 2, 0,
				   PT_NONE, 0);
		t += batch[i];
	}
	return m;
}

static struct pt_table *perf(const struct pt_model *m, int64_t batch_size, int64_t skip)
{
	struct pt_sel sel;
	memset(&sel, 0, sizeof(sel));
	sel.device = -1;
	struct pt_perf_opts o = { batch_size, skip };
	struct pt_table *t = NULL;
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_perf(m, &sel, &o, &t, &d, &e), 0);
	pt_diag_free(&d);
	return t;
}

static void test_case85(void **state)
{
	(void)state;
	struct pt_model *m = case85();
	struct pt_table *t = perf(m, 0, 0);
	char *s = render(t, 1);
	/* the one text style: the unit the costs pick (ms), three decimals for times, two for the rest */
	const char *want = "Perf Summary\n"
			   "Time unit: ms\n"
			   "Metric            avg    min     max\n"
			   "-------------  ------  -----  ------\n"
			   "reader_cost     1.500  1.000   2.000\n"
			   "batch_cost     11.000  8.000  14.000\n"
			   "ips (steps/s)   90.91  71.43  125.00\n"
			   "Reader ratio: 13.64% of the batch cost\n";
	assert_string_equal(s, want);
	free(s);
	s = render(t, 0);
	assert_string_equal(s, "rank,metric,unit,count,avg,min,max\n"
			       "0,reader_cost,ns,4,1500000,1000000,2000000\n"
			       "0,batch_cost,ns,4,11000000,8000000,14000000\n"
			       "0,ips,steps/s,4,90.90909,71.42857,125.00000\n"
			       "0,reader_ratio,pct,4,13.63636,,\n");
	free(s);
	pt_table_free(t);

	t = perf(m, 32, 0);
	s = render(t, 1);
	assert_non_null(strstr(s, "ips (samples/s)  2909.09  2285.71  4000.00\n"));
	free(s);
	pt_table_free(t);

	/* --skip-steps 2: steps 3 and 4 only */
	t = perf(m, 0, 2);
	s = render(t, 0);
	assert_non_null(strstr(s, "0,batch_cost,ns,2,13000000,12000000,14000000\n"));
	assert_non_null(strstr(s, "0,reader_cost,ns,2,2000000,2000000,2000000\n"));
	free(s);
	pt_table_free(t);
	pt_model_free(m);
}

/* P2: increasing values: min is the first value, never inf. */
static void test_monotonic(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t host = pt_model_device(m, PT_DEV_CPU, 1);
	uint32_t thr = pt_model_track(m, host, PT_TRACK_HOST_THREAD, 1, "t1");
	int64_t t = 0;
	for (int i = 1; i <= 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "ProfileStep#%d", i);
		pt_model_add_event(m, thr, pt_model_str(m, name), PT_EV_RANGE, t, i * 1000, 0, PT_NONE, 0);
		t += i * 1000;
	}
	struct pt_table *tb = perf(m, 0, 0);
	char *s = render(tb, 1);
	/* no loader ranges: no reader row and no ratio line */
	assert_null(strstr(s, "reader_cost"));
	assert_null(strstr(s, "Reader ratio"));
	/* costs of 1 to 3 us: microseconds */
	assert_non_null(strstr(s, "Time unit: us\n"));
	assert_non_null(strstr(s, "batch_cost         2.000      1.000       3.000\n"));
	free(s);
	s = render(tb, 0);
	assert_non_null(strstr(s, "0,batch_cost,ns,3,2000,1000,3000\n"));
	assert_non_null(strstr(s, "0,reader_cost,ns,0,,,\n"));
	assert_null(strstr(s, "inf"));
	free(s);
	pt_table_free(tb);
	pt_model_free(m);
}

/* Ascend: the reader cost is the iteration interval (0 for the first step). */
static void test_ascend(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t dev = pt_model_device(m, PT_DEV_NPU, 0);
	static const int64_t pts[3][4] = { { 100, 100, 150, 200 }, { 200, 230, 260, 300 }, { 300, 310, 350, 400 } };
	for (uint32_t i = 0; i < 3; i++) {
		struct pt_step s;
		memset(&s, 0, sizeof(s));
		s.device = dev;
		s.step = i + 1;
		s.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END;
		s.start = pts[i][0];
		s.fp = pts[i][1];
		s.bp = pts[i][2];
		s.end = pts[i][3];
		pt_model_add_step(m, &s);
	}
	struct pt_table *t = perf(m, 0, 0);
	char *s = render(t, 0);
	assert_non_null(strstr(s, "0,reader_cost,ns,3,13,0,30\n"));
	assert_non_null(strstr(s, "0,batch_cost,ns,3,100,100,100\n"));
	assert_non_null(strstr(s, "0,reader_ratio,pct,3,13.33333,,\n"));
	free(s);
	pt_table_free(t);
	pt_model_free(m);
}

static void test_empty(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	struct pt_sel sel;
	memset(&sel, 0, sizeof(sel));
	sel.device = -1;
	struct pt_perf_opts o = { 0, 0 };
	struct pt_table *t = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_perf(m, &sel, &o, &t, NULL, &e), -1);
	pt_err_free(e);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_case85),
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_ascend),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
