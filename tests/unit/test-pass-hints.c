/* Unit tests of the hints pass (hints.md §6 acceptance cases on models built in the test). */
#define _GNU_SOURCE /* qsort_r of pass/hints/hints-int.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <regex.h>

#include "export/export.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/hints/hints-int.h"
#include "pass/pass-hints.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/out.h"
#include "support/vec.h"
#include "support/xalloc.h"

#define US 1000LL
#define MS 1000000LL

/* ---- model helpers ---- */

struct gm {
	struct pt_model *m;
	uint32_t cpu, gpu, host, s1, s2;
	uint64_t corr;
};

static void gm_init(struct gm *g)
{
	g->m = pt_model_new();
	g->cpu = pt_model_device(g->m, PT_DEV_CPU, 0);
	g->m->devices.v[g->cpu].pid = 42;
	g->gpu = pt_model_device(g->m, PT_DEV_GPU, 0);
	g->host = pt_model_track(g->m, g->cpu, PT_TRACK_HOST_THREAD, 1, "main");
	g->s1 = pt_model_track(g->m, g->gpu, PT_TRACK_STREAM, 7, "stream 7");
	g->s2 = pt_model_track(g->m, g->gpu, PT_TRACK_STREAM, 8, "stream 8");
	g->corr = 1;
}

static void range(struct gm *g, const char *name, int64_t s, int64_t e)
{
	pt_model_add_event(g->m, g->host, pt_model_str(g->m, name), PT_EV_RANGE, s, e - s, 0, PT_NONE, 0);
}

static size_t act(struct gm *g, uint32_t track, enum pt_event_kind k, const char *name, int64_t s, int64_t e,
		  int64_t call_s, int64_t call_e)
{
	uint64_t c = 0;
	if (call_e > call_s) {
		c = g->corr++;
		pt_model_add_event(g->m, g->host, pt_model_str(g->m, "cudaLaunchKernel_v7000"), PT_EV_API, call_s,
				   call_e - call_s, c, PT_NONE, 0);
	}
	size_t i = g->m->events.n;
	pt_model_add_event(g->m, track, pt_model_str(g->m, name), k, s, e - s, c, PT_NONE, 0);
	return i;
}

static char *run_hints(const struct pt_model *m, struct pt_hint_knobs *k, enum pt_format f, bool sup)
{
	struct pt_sel sel;
	memset(&sel, 0, sizeof(sel));
	sel.device = -1;
	struct pt_index *x = pt_index_new(m);
	struct pt_hints h;
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	struct pt_hints_opts o = { .unit = PT_TU_MS };
	assert_int_equal(pt_pass_hints(m, x, &sel, k, &o, &h, &d, &e), 0);
	FILE *fp = tmpfile();
	struct pt_out out;
	pt_out_init_fd(&out, fileno(fp), "tmp");
	if (f == PT_FMT_CSV && sup) {
		/* CSV is one table a stream: the two, one after the other, as -o DIR/ writes them */
		pt_export_hints_csv(&out, &h, false);
		pt_out_puts(&out, "--\n");
		pt_export_hints_csv(&out, &h, true);
	} else {
		pt_export_hints(&out, &h, f, sup, 0);
	}
	assert_int_equal(pt_out_flush(&out, NULL), 0);
	free(out.buf);
	free(out.name);
	rewind(fp);
	char *b = pt_xcalloc(1 << 20, 1);
	size_t n = fread(b, 1, (1 << 20) - 1, fp);
	b[n] = 0;
	fclose(fp);
	pt_hints_free(&h);
	pt_index_free(x);
	pt_diag_free(&d);
	return b;
}

static char *csv(const struct pt_model *m)
{
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	char *s = run_hints(m, &k, PT_FMT_CSV, false);
	pt_hint_knobs_free(&k);
	return s;
}

#define HAS(s, sub)                                                                                            \
	do {                                                                                                   \
		if (!strstr((s), (sub)))                                                                       \
			fail_msg("expected '%s' in:\n%s", (sub), (s));                                         \
	} while (0)
#define HASNOT(s, sub)                                                                                         \
	do {                                                                                                   \
		if (strstr((s), (sub)))                                                                        \
			fail_msg("did not expect '%s' in:\n%s", (sub), (s));                                   \
	} while (0)

/* ---- INPUT_BOUND (case 1) ---- */

static char *input_bound(int64_t loader_ms)
{
	struct gm g;
	gm_init(&g);
	for (int i = 0; i < 4; i++) {
		int64_t s = i * 100 * MS, e = s + 100 * MS;
		char nm[32];
		snprintf(nm, sizeof(nm), "ProfilerStep#%d", i + 1);
		range(&g, nm, s, e);
		range(&g, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", s, s + loader_ms * MS);
		act(&g, g.s1, PT_EV_KERNEL, "gemm", s + loader_ms * MS, e, s + loader_ms * MS, s + loader_ms * MS + 1);
	}
	char *r = csv(g.m);
	pt_model_free(g.m);
	return r;
}

static void test_input_bound(void **st)
{
	(void)st;
	char *s = input_bound(25);
	HAS(s, "INPUT_BOUND,crit,input_pct,25.0000,20.0000,pct");
	HAS(s, "dataloader_ns=100000000;step_ns=400000000;steps=4");
	free(s);
	s = input_bound(20);
	HAS(s, "INPUT_BOUND,crit,input_pct,20.0000");
	free(s);
	s = input_bound(10);
	HAS(s, "INPUT_BOUND,warn,input_pct,10.0000,5.0000");
	free(s);
	s = input_bound(5);
	HAS(s, "INPUT_BOUND,warn,input_pct,5.0000");
	free(s);
	s = input_bound(4);
	HASNOT(s, "INPUT_BOUND");
	free(s);
}

/* ---- STEP_GAP (cases 3, 17) ---- */

static char *step_gap(int64_t g2, int64_t g3, enum pt_format f)
{
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 10 * MS + g2 / 2);
	range(&g, "ProfilerStep#2", 10 * MS + g2 / 2, 20 * MS + g3 / 2);
	range(&g, "ProfilerStep#3", 20 * MS + g3 / 2, 30 * MS);
	act(&g, g.s1, PT_EV_KERNEL, "k", 0, 10 * MS, 0, 0);
	act(&g, g.s1, PT_EV_KERNEL, "k", 10 * MS + g2, 20 * MS, 0, 0);
	act(&g, g.s1, PT_EV_KERNEL, "k", 20 * MS + g3, 30 * MS, 0, 0);
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	pt_hint_knob_set(&k, "hints.disable", "UNEXPLAINED_TIME,DEVICE_IDLE,TOP_OPS,UNATTRIBUTED_DEVICE", NULL);
	char *r = run_hints(g.m, &k, f, false);
	pt_hint_knobs_free(&k);
	pt_model_free(g.m);
	return r;
}

static void test_step_gap(void **st)
{
	(void)st;
	char *s = step_gap(400 * US, 900 * US, PT_FMT_CSV);
	HAS(s, "0,rank,STEP_GAP,warn,mean_gap,650000,500000,ns,");
	HAS(s, ",mean_gap_ns=650000;max_gap_ns=900000;max_gap_step=3;gaps=2;steps=3\n");
	free(s);
	s = step_gap(400 * US, 900 * US, PT_FMT_JSON);
	HAS(s, "\"evidence\":{\"mean_gap_ns\":650000,\"max_gap_ns\":900000,\"max_gap_step\":3,\"gaps\":2,\"steps\":3}");
	free(s);
	s = step_gap(400 * US, 500 * US, PT_FMT_CSV);
	HASNOT(s, "STEP_GAP");
	free(s);
	s = step_gap(100 * US, 100 * US, PT_FMT_TABLE);
	HAS(s, "No hints to show.\n");
	HAS(s, "Hints: 0 shown, 0 suppressed; rules: ");
	HAS(s, " 4 disabled.");
	free(s);
}

/* ---- COMM_EXPOSED (case 9) ---- */

static void test_comm_exposed(void **st)
{
	(void)st;
	for (int hidden = 0; hidden < 2; hidden++) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 100 * US);
		act(&g, g.s1, PT_EV_KERNEL, "gemm", 0, 60 * US, 0, 0);
		if (hidden)
			act(&g, g.s2, PT_EV_KERNEL, "ncclKernel_AllReduce", 10 * US, 40 * US, 0, 0);
		else
			act(&g, g.s2, PT_EV_KERNEL, "ncclKernel_AllReduce", 50 * US, 80 * US, 0, 0);
		char *s = csv(g.m);
		if (hidden) {
			HASNOT(s, "COMM_EXPOSED");
		} else {
			HAS(s, "COMM_EXPOSED,warn,comm_pct,20.0000,10.0000,pct");
			HAS(s, "(high)");
			HAS(s, "comm_pct=20.0000;comm_not_overlapped_ns=20000;step_ns=100000;steps=1;collective_pct=30.0000");
		}
		free(s);
		pt_model_free(g.m);
	}
}

/* ---- DEVICE_IDLE (case 8) ---- */

static void test_device_idle(void **st)
{
	(void)st;
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 1000 * US);
	act(&g, g.s1, PT_EV_KERNEL, "k1", 0, 100 * US, 0, 1);
	act(&g, g.s1, PT_EV_KERNEL, "k2", 400 * US, 500 * US, 350 * US, 360 * US);
	act(&g, g.s1, PT_EV_KERNEL, "k3", 510 * US, 900 * US, 300 * US, 310 * US);
	char *s = csv(g.m);
	HAS(s, "DEVICE_IDLE,warn,class_share_pct,73.1707,50.0000");
	HAS(s, "idle 41.00% of the step window; 73.17% of that idle time the host had not yet submitted");
	HAS(s, "idle_ns=410000;window_ns=1000000;host_wait_ns=300000;kernel_wait_ns=10000;other_ns=100000");
	free(s);
	pt_model_free(g.m);
	/* busy device: not enough idle time */
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 1000 * US);
	act(&g, g.s1, PT_EV_KERNEL, "k1", 0, 950 * US, 0, 1);
	s = csv(g.m);
	HASNOT(s, "DEVICE_IDLE");
	HASNOT(s, "LOW_DEVICE_UTIL");
	free(s);
	pt_model_free(g.m);
}

/* ---- launch pairs (case 7) ---- */

static void test_launch(void **st)
{
	(void)st;
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 500 * US);
	act(&g, g.s1, PT_EV_KERNEL, "a", 150 * US, 160 * US, 0, 10 * US);
	act(&g, g.s1, PT_EV_KERNEL, "b", 300 * US, 301 * US, 200 * US, 260 * US);
	act(&g, g.s1, PT_EV_KERNEL, "c", 420 * US, 425 * US, 400 * US, 410 * US);
	char *s = csv(g.m);
	HAS(s, "LAUNCH_DELAY,warn,queue_delay_outliers,1,1,count"); /* idle device: G3 warn */
	HAS(s, "outliers=1;launches=3;share_pct=33.3333;queue_delay_cutoff_ns=100000;queue_delay_p50_ns=40000;queue_delay_p99_ns=140000;"
	       "queue_delay_max_ns=140000;launch_delay_p50_ns=100000;launch_delay_p99_ns=150000;kernels_1_name=a");
	HAS(s, "RUNTIME_OUTLIER,warn,runtime_outlier_pct,33.3333,5.0000");
	/* API names print as every view prints them: without the _vNNNN suffix (cupti.md §6.10) */
	HAS(s, "(max 0.060 ms, mostly cudaLaunchKernel).");
	HAS(s, "apis_1_name=cudaLaunchKernel;apis_1_outliers=1");
	HASNOT(s, "_v7000");
	HASNOT(s, "SHORT_KERNELS");
	HAS(s, "LOW_DEVICE_UTIL,warn,util_pct,3.2000,50.0000");
	free(s);
	/* with a disabled LOW_DEVICE_UTIL the outlier share alone gives info */
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	assert_int_equal(pt_hint_knob_set(&k, "hints.low_util.pct", "1", NULL), 0);
	s = run_hints(g.m, &k, PT_FMT_CSV, false);
	HAS(s, "LAUNCH_DELAY,info,");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(g.m);
}

/* SHORT_KERNELS: case 7 with a: [150,155), shorter than its 10 us call too -> 2 of 3 launches -> warn */
static void test_short_kernels(void **st)
{
	(void)st;
	for (int a_us = 5; a_us <= 10; a_us += 5) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 500 * US);
		act(&g, g.s1, PT_EV_KERNEL, "a", 150 * US, (150 + a_us) * US, 0, 10 * US);
		act(&g, g.s1, PT_EV_KERNEL, "b", 300 * US, 301 * US, 200 * US, 260 * US);
		act(&g, g.s1, PT_EV_KERNEL, "_Z1cv", 420 * US, 425 * US, 400 * US, 410 * US);
		char *s = csv(g.m);
		if (a_us == 5) {
			HAS(s, "0,device:0,SHORT_KERNELS,warn,short_pct,66.6667,50.0000,pct,66.67% of launched kernels (2) "
			       "run for less time than the host call that launched them");
			/* short kernels a and c (demangled): calls of 10 us, kernels of 5 us */
			HAS(s, ",short=2;launches=3;share_pct=66.6667;mean_cpu_dur_ns=10000;mean_device_dur_ns=5000;"
			       "kernels_1_name=a;kernels_1_short=1;kernels_2_name=c();kernels_2_short=1\n");
		} else {
			HASNOT(s, "SHORT_KERNELS"); /* 1 of 3 (spec case 7) */
		}
		free(s);
		/* a lower threshold makes case 7's 33.3% fire too */
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		assert_int_equal(pt_hint_knob_set(&k, "hints.short_kernels.pct", "30", NULL), 0);
		s = run_hints(g.m, &k, PT_FMT_CSV, false);
		HAS(s, a_us == 5 ? "SHORT_KERNELS,warn,short_pct,66.6667,30.0000"
				 : "SHORT_KERNELS,warn,short_pct,33.3333,30.0000");
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(g.m);
	}
}

/* ---- MEM_OPS_CRITICAL (case 14) ---- */

static char *memops(int64_t cs, int64_t ce, bool memset_op)
{
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 100 * US);
	act(&g, g.s1, PT_EV_KERNEL, "gemm", 0, 50 * US, 0, 0);
	size_t c = act(&g, g.s2, PT_EV_MEMCPY, "Memcpy HtoD", cs, ce, 0, 0);
	struct pt_copy_info ci = { (uint32_t)c, 1, 1, 2, 4096, -1, -1 };
	pt_vec_push(&g.m->copies, ci);
	if (memset_op) {
		size_t z = act(&g, g.s1, PT_EV_MEMSET, "Memset", 68 * US, 74 * US, 0, 0);
		struct pt_copy_info zi = { (uint32_t)z, 0, 0, 2, 256, -1, -1 };
		pt_vec_push(&g.m->copies, zi);
	}
	act(&g, g.s1, PT_EV_KERNEL, "ncclKernel", 80 * US, 90 * US, 0, 0);
	char *s = csv(g.m);
	pt_model_free(g.m);
	return s;
}

static void test_mem_ops(void **st)
{
	(void)st;
	char *s = memops(40 * US, 70 * US, true);
	HAS(s, "MEM_OPS_CRITICAL,warn,mem_pct,24.0000,15.0000");
	HAS(s, "HtoD accounts for 83.33% of that time");
	HAS(s, "memcpy_ns=20000;memset_ns=4000;step_ns=100000;steps=1;kind=HtoD");
	free(s);
	s = memops(50 * US, 58 * US, false);
	HAS(s, "MEM_OPS_CRITICAL,info,mem_pct,8.0000,5.0000");
	free(s);
	s = memops(10 * US, 40 * US, false);
	HASNOT(s, "MEM_OPS_CRITICAL");
	free(s);
}

/* ---- Ascend: TOP_OPS (case 13) and RANK_SPREAD (case 10) ---- */

static uint32_t add_op(struct pt_model *m, uint32_t dev, const char *name, const char *type)
{
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = dev;
	op.name = pt_model_str(m, name);
	op.type = pt_model_str(m, type);
	op.task_type = -1;
	return pt_model_add_op(m, &op);
}

static void npu_step(struct pt_model *m, uint32_t dev, uint32_t n, int64_t s, int64_t e)
{
	struct pt_step st;
	memset(&st, 0, sizeof(st));
	st.device = dev;
	st.step = n;
	st.has = PT_STEP_HAS_START | PT_STEP_HAS_END | PT_STEP_HAS_FP;
	st.start = s;
	st.fp = s;
	st.end = e;
	pt_model_add_step(m, &st);
}

static void test_top_ops(void **st)
{
	(void)st;
	for (int flat = 0; flat < 2; flat++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "stream 1");
		npu_step(m, d, 1, 0, 100 * MS);
		if (!flat) {
			static const struct {
				const char *n, *ty;
				int64_t ms;
			} v[] = { { "MatMul-op1", "MatMul", 40 }, { "MatMul-op2", "MatMul", 20 },
				  { "Add-op3", "Add", 25 }, { "Cast-op4", "Cast", 15 } };
			int64_t at = 0;
			for (int i = 0; i < 4; i++) {
				uint32_t op = add_op(m, d, v[i].n, v[i].ty);
				pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, at, v[i].ms * MS, 0, op, 0);
				at += v[i].ms * MS;
			}
		} else {
			static const char *const ty[] = { "A", "B", "C", "D", "E", "F" };
			for (int i = 0; i < 6; i++) {
				char nm[16];
				snprintf(nm, sizeof(nm), "%s-op%d", ty[i], i);
				uint32_t op = add_op(m, d, nm, ty[i]);
				pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, i * 10 * MS, 10 * MS, 0, op, 0);
			}
		}
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		char *s = run_hints(m, &k, PT_FMT_TABLE, false);
		if (!flat) {
			/* the message wraps at 100 columns with a hanging indent */
			HAS(s, "[info] TOP_OPS  rank 0  device:0\n  Op type MatMul takes 60.00% of device 0's op time "
			       "(60.000 ms of 100.000 ms; threshold 20.00%), and\n  the top 3 types take 100.00%.");
			HAS(s, "    type MatMul: 60.00% (60.000 ms, 2 calls).\n    type Add: 25.00% (25.000 ms, 1 calls).\n"
			       "    type Cast: 15.00% (15.000 ms, 1 calls).\n    op MatMul-op1: 40.00% (40.000 ms, 1 calls).\n"
			       "    op Add-op3: 25.00%");
		} else {
			HASNOT(s, "TOP_OPS");
		}
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(m);
	}
}

static void test_rank_spread(void **st)
{
	(void)st;
	struct pt_model *m = pt_model_new();
	static const int64_t comp[3] = { 100 * MS, 102 * MS, 108 * MS };
	static const int64_t fr[3] = { 10000 * US, 10200 * US, 10400 * US };
	for (uint32_t r = 0; r < 3; r++) {
		uint32_t d = pt_model_device(m, PT_DEV_NPU, r);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "s");
		npu_step(m, d, 1, 0, comp[r] + fr[r]);
		uint32_t op = add_op(m, d, "MatMul-op1", "MatMul");
		pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, fr[r], comp[r], 0, op, 0);
	}
	char *s = csv(m);
	HAS(s, "2,rank,RANK_SPREAD,warn,spread_pct,7.7419,5.0000,pct,\"computation differs by 7.74% across ranks "
	       "(max 108.000 ms on rank 2, min 100.000 ms on rank 0, mean 103.333 ms; threshold 5.00%): rank 2 is slower");
	HASNOT(s, "free differs");
	free(s);
	pt_model_free(m);
}

/*
 * RANK_STEP_GAP: two processes (ranks 0 and 1), three 10 ms steps each; the
 * device starts steps 2 and 3 gap0 (rank 0) or gap1 (rank 1) after the step
 * began. Both number their correlation ids from 1.
 */
static struct pt_model *two_ranks_gaps(int64_t gap0, int64_t gap1)
{
	struct pt_model *m = pt_model_new();
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 42 + r);
		m->devices.v[cpu].pid = 42 + r;
		m->devices.v[cpu].rank = (int32_t)r;
		uint32_t gpu = pt_model_device(m, PT_DEV_GPU, r);
		m->devices.v[gpu].pid = 42 + r;
		m->devices.v[gpu].rank = (int32_t)r;
		uint32_t host = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 42 + r, "main");
		uint32_t s = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "stream 7");
		int64_t gap = r ? gap1 : gap0;
		for (int i = 0; i < 3; i++) {
			int64_t t0 = i * 10 * MS;
			char nm[32];
			snprintf(nm, sizeof(nm), "ProfilerStep#%d", i + 1);
			pt_model_add_event(m, host, pt_model_str(m, nm), PT_EV_RANGE, t0, 10 * MS, 0, PT_NONE, 0);
			pt_model_add_event(m, host, pt_model_str(m, "cudaLaunchKernel_v7000"), PT_EV_API, t0, US,
					   (uint64_t)i + 1, PT_NONE, 0);
			int64_t ks = i ? t0 + gap : t0;
			pt_model_add_event(m, s, pt_model_str(m, "gemm"), PT_EV_KERNEL, ks, t0 + 10 * MS - ks,
					   (uint64_t)i + 1, PT_NONE, 0);
		}
	}
	return m;
}

static void test_rank_step_gap(void **st)
{
	(void)st;
	/* 1 and 2 ms: mean 1.5 ms, rank 1 waits 33.3% more -> warn */
	struct pt_model *m = two_ranks_gaps(MS, 2 * MS);
	char *s = csv(m);
	HAS(s, "1,rank,RANK_STEP_GAP,warn,excess_pct,33.3333,20.0000,pct,\"Rank 1 waits 2.000 ms between steps, 33.33% "
	       "more than the rank average: check its data pipeline.\",ranks_1_rank=0;ranks_1_mean_gap_ns=1000000;"
	       "ranks_2_rank=1;ranks_2_mean_gap_ns=2000000;mean_ns=1500000\n");
	free(s);
	/* the same with STEP_GAP turned off: RANK_STEP_GAP still measures the step intervals */
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	assert_int_equal(pt_hint_knob_set(&k, "hints.disable", "STEP_GAP", NULL), 0);
	s = run_hints(m, &k, PT_FMT_CSV, true);
	HAS(s, "1,rank,RANK_STEP_GAP,warn,excess_pct,33.3333,20.0000,pct,");
	HASNOT(s, ",STEP_GAP,warn");
	HASNOT(s, "RANK_STEP_GAP,not_evaluated");
	free(s);
	/* a 40% threshold is not reached */
	assert_int_equal(pt_hint_knob_set(&k, "hints.rank_step_gap.pct", "40", NULL), 0);
	s = run_hints(m, &k, PT_FMT_CSV, false);
	HASNOT(s, "RANK_STEP_GAP");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);
	/* 1 and 1.1 ms: 4.8% -> none */
	m = two_ranks_gaps(MS, 1100 * US);
	s = csv(m);
	HASNOT(s, "RANK_STEP_GAP");
	HAS(s, "0,rank,STEP_GAP,warn,mean_gap,1000000,500000,ns,");
	HAS(s, "1,rank,STEP_GAP,warn,mean_gap,1100000,500000,ns,");
	free(s);
	pt_model_free(m);
	/* one step per rank: no step interval, not evaluated with the reason */
	m = pt_model_new();
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 42 + r);
		m->devices.v[cpu].pid = 42 + r;
		uint32_t gpu = pt_model_device(m, PT_DEV_GPU, r);
		m->devices.v[gpu].pid = 42 + r;
		uint32_t host = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 42 + r, "main");
		uint32_t sx = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "stream 7");
		pt_model_add_event(m, host, pt_model_str(m, "ProfilerStep#1"), PT_EV_RANGE, 0, 10 * MS, 0, PT_NONE, 0);
		pt_model_add_event(m, host, pt_model_str(m, "cudaLaunchKernel"), PT_EV_API, 0, US, 1, PT_NONE, 0);
		pt_model_add_event(m, sx, pt_model_str(m, "gemm"), PT_EV_KERNEL, US, 5 * MS, 1, PT_NONE, 0);
	}
	pt_hint_knobs_init(&k);
	s = run_hints(m, &k, PT_FMT_CSV, true);
	HAS(s, "0,rank,RANK_STEP_GAP,not_evaluated,no step interval (fewer than 2 steps),,\n");
	HAS(s, "1,rank,RANK_STEP_GAP,not_evaluated,no step interval (fewer than 2 steps),,\n");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);
}

/*
 * Order within one rule and rank: by scope, numbers by value (hints.md
 * §1.1): a rank driving GPUs 10 and 2, both with unattributed kernels,
 * lists device:2 before device:10.
 */
static void test_scope_order(void **st)
{
	(void)st;
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 42);
	m->devices.v[cpu].pid = 42;
	uint32_t host = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 42, "main");
	pt_model_add_event(m, host, pt_model_str(m, "ProfilerStep#1"), PT_EV_RANGE, 0, 100 * US, 0, PT_NONE, 0);
	static const uint32_t ids[2] = { 10, 2 };
	for (int i = 0; i < 2; i++) {
		uint32_t gpu = pt_model_device(m, PT_DEV_GPU, ids[i]);
		m->devices.v[gpu].pid = 42;
		uint32_t sx = pt_model_track(m, gpu, PT_TRACK_STREAM, 7, "stream 7");
		uint64_t c = (uint64_t)i + 1;
		pt_model_add_event(m, host, pt_model_str(m, "cudaLaunchKernel"), PT_EV_API, 0, US, c, PT_NONE, 0);
		pt_model_add_event(m, sx, pt_model_str(m, "k"), PT_EV_KERNEL, US, 40 * US, c, PT_NONE, 0);
		pt_model_add_event(m, sx, pt_model_str(m, "k"), PT_EV_KERNEL, 50 * US, 40 * US, 0, PT_NONE, 0);
	}
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	char *s = run_hints(m, &k, PT_FMT_CSV, false);
	const char *d2 = strstr(s, "0,device:2,UNATTRIBUTED_DEVICE,");
	const char *d10 = strstr(s, "0,device:10,UNATTRIBUTED_DEVICE,");
	if (!d2 || !d10 || d2 > d10)
		fail_msg("expected device:2 before device:10 in:\n%s", s);
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);
}

/* ---- knobs, explain, suppressed ---- */

static void test_knobs(void **st)
{
	(void)st;
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	char *why = NULL;
	assert_int_equal(pt_hint_knob_set(&k, "hints.no_such_key", "1", &why), -1);
	assert_non_null(strstr(why, "'hints.no_such_key'"));
	free(why);
	assert_int_equal(pt_hint_knob_set(&k, "hints.comm.exposed_pct", "101", &why), -1);
	assert_non_null(strstr(why, "'hints.comm.exposed_pct'"));
	free(why);
	assert_int_equal(pt_hint_knob_set(&k, "hints.top_ops.n", "0", &why), -1);
	free(why);
	assert_int_equal(pt_hint_knob_set(&k, "hints.disable", "NOPE", &why), -1);
	free(why);
	assert_int_equal(pt_hint_knob_set(&k, "hints.md_pipeline.low", "0.5", &why), 0);
	assert_int_equal(pt_hint_knob_set(&k, "hints.gate.minddata", "off", &why), 0);
	assert_false(k.gate_minddata);
	char *x = pt_hint_explain("MD_PIPELINE", &k);
	assert_non_null(strstr(x, "hints.md_pipeline.low  default 0.6 (0.2 under 2020), in force 0.5"));
	free(x);
	assert_null(pt_hint_explain("NO_SUCH_RULE", &k));
	pt_hint_knobs_free(&k);
}

static void test_suppressed(void **st)
{
	(void)st;
	/* a model with only a host range: the device rules are not evaluated */
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 100 * US);
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	pt_hint_knob_set(&k, "hints.disable", "TOP_OPS", NULL);
	char *s = run_hints(g.m, &k, PT_FMT_CSV, true);
	HAS(s, "rank,scope,rule_id,severity,metric,value,threshold,unit,message,evidence\n"
	       "--\nrank,scope,rule_id,status,reason,severity,evidence\n");
	free(s);
	/* pt_export_hints' CSV is the first table alone */
	s = run_hints(g.m, &k, PT_FMT_CSV, false);
	assert_string_equal(s, "rank,scope,rule_id,severity,metric,value,threshold,unit,message,evidence\n");
	free(s);
	s = run_hints(g.m, &k, PT_FMT_CSV, true);
	HAS(s, "0,device:0,INPUT_BOUND,not_evaluated,no device activity,,\n");
	HAS(s, "0,rank,TOP_OPS,disabled,hints.disable,,\n");
	free(s);
	s = run_hints(g.m, &k, PT_FMT_JSON, true);
	HAS(s, "\"rows\":[]}");
	HAS(s, "{\"name\":\"hints_suppressed\"");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(g.m);
}

/* ---- LOW_FLOPS_UTIL (case 15), RANK_FLOPS, PP_RECEIVE ---- */

/* One NPU rank: a MatMul of `flops` FLOPs (AI Core counters) over [0, 10 ms), then
 * computation without FLOPs for other_ms; peak 2.62144e14 FLOP/s. */
static void npu_flops_rank(struct pt_model *m, uint32_t id, uint64_t flops, int64_t other_ms)
{
	uint32_t d = pt_model_device(m, PT_DEV_NPU, id);
	m->devices.v[d].peak_flops = 2.62144e14;
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "stream 1");
	npu_step(m, d, 1, 0, (14 + other_ms) * MS);
	uint32_t op = add_op(m, d, "MatMul-op1", "MatMul");
	pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, 0, 10 * MS, 0, op, 0);
	struct pt_aicore a;
	memset(&a, 0, sizeof(a));
	a.device = d;
	a.op = op + 1;
	a.pmu[0] = flops / 8192; /* cube fp16: 16^3 x 2 FLOPs each */
	pt_vec_push(&m->aicore, a);
	uint32_t op2 = add_op(m, d, "Custom-op2", "CustomThing");
	pt_model_add_event(m, t, m->ops.v[op2].name, PT_EV_TASK, 10 * MS, other_ms * MS, 0, op2, 0);
}

static void test_low_flops(void **st)
{
	(void)st;
	struct pt_model *m = pt_model_new();
	npu_flops_rank(m, 0, 131072000000ULL, 6);
	char *s = csv(m);
	HAS(s, "0,device:0,LOW_FLOPS_UTIL,warn,util_pct,5.0000,10.0000,pct,\"While device 0 runs ops with known FLOPs "
	       "it reaches 13.11 TFLOPS, 5.00% of its 262.14 TFLOPS peak (threshold 10.00%).");
	HAS(s, "util_pct=5.0000;flops=131072000000;busy_ns=10000000;achieved_tflops=13.1072;peak_flops=262144000000000;"
	       "peak_source=info.json;coverage_pct=62.5000;types_1_name=MatMul;types_1_busy_ns=10000000;"
	       "types_1_util_pct=5.0000");
	free(s);
	/* the peak from --hint: 13.1072 of 100 TFLOPS */
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	assert_int_equal(pt_hint_knob_set(&k, "hints.flops_util.peak_tflops", "200", NULL), 0);
	s = run_hints(m, &k, PT_FMT_CSV, false);
	HAS(s, "LOW_FLOPS_UTIL,warn,util_pct,6.5536,10.0000");
	HAS(s, "peak_source=hint");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);

	m = pt_model_new();
	npu_flops_rank(m, 0, 524288000000ULL, 6);
	s = csv(m);
	HASNOT(s, "LOW_FLOPS_UTIL");
	free(s);
	pt_model_free(m);

	m = pt_model_new();
	npu_flops_rank(m, 0, 131072000000ULL, 12);
	pt_hint_knobs_init(&k);
	s = run_hints(m, &k, PT_FMT_CSV, true);
	HAS(s, "0,device:0,LOW_FLOPS_UTIL,not_evaluated,ops with known FLOPs cover 45.45% of computation time "
	       "(below 50.00%),,");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);
}

static void test_rank_flops(void **st)
{
	(void)st;
	for (int bal = 0; bal < 2; bal++) {
		struct pt_model *m = pt_model_new();
		npu_flops_rank(m, 0, 524288000000ULL, 6);
		npu_flops_rank(m, 1, bal ? 524288000000ULL : 262144000000ULL, 6);
		char *s = csv(m);
		if (!bal) {
			/* 52.4288 and 26.2144 TFLOPS: mean 39.3216, rank 1 33.3% below */
			HAS(s, "1,rank,RANK_FLOPS,warn,shortfall_pct,33.3333,20.0000,pct,\"Rank 1 reaches 26214.40 GFLOPS, "
			       "33.33% below the rank average: check that device.\",ranks_1_rank=0;ranks_1_gflops=52428.8000;"
			       "ranks_2_rank=1;ranks_2_gflops=26214.4000;mean_gflops=39321.6000\n");
		} else {
			HASNOT(s, "RANK_FLOPS");
		}
		free(s);
		pt_model_free(m);
	}
}

/* RANK_FLOPS reads the FLOPs the driver measures for LOW_FLOPS_UTIL, also
 * when LOW_FLOPS_UTIL itself is disabled. */
static void test_rank_flops_alone(void **st)
{
	(void)st;
	struct pt_model *m = pt_model_new();
	npu_flops_rank(m, 0, 524288000000ULL, 6);
	npu_flops_rank(m, 1, 262144000000ULL, 6);
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	char *why = NULL;
	assert_int_equal(pt_hint_knob_set(&k, "hints.disable", "LOW_FLOPS_UTIL", &why), 0);
	char *s = run_hints(m, &k, PT_FMT_CSV, true);
	HAS(s, "1,rank,RANK_FLOPS,warn,shortfall_pct,33.3333,20.0000,pct,");
	HAS(s, "0,rank,LOW_FLOPS_UTIL,disabled,hints.disable,,\n");
	HASNOT(s, "LOW_FLOPS_UTIL,warn");
	free(s);
	pt_hint_knobs_free(&k);
	pt_model_free(m);
}

/* The rule table: one row per rule id, in id order, each with a function,
 * at least one stage, its doc, and knob keys that --explain knows. */
static void test_rule_table(void **st)
{
	(void)st;
	struct pt_hint_knobs k;
	pt_hint_knobs_init(&k);
	for (int r = 0; r < PT_HR__N; r++) {
		const struct hint_rule *d = &pt_hint_rules[r];
		assert_non_null(d->id);
		assert_int_equal(pt_hint_rule_find(d->id), r);
		assert_string_equal(pt_hint_rule_name((enum pt_hint_rule)r), d->id);
		assert_non_null(d->fn);
		assert_true(d->stages != 0 && d->stages < HS(HS_MINDDATA + 1));
		assert_non_null(d->source);
		assert_non_null(d->condition);
		assert_non_null(d->keys);
		char *x = pt_hint_explain(d->id, &k);
		assert_non_null(x);
		assert_null(strstr(x, "default ?")); /* every key of the row is a knob */
		free(x);
	}
	assert_int_equal(pt_hint_rule_find("NO_SUCH_RULE"), -1);
	assert_null(pt_hint_explain("NO_SUCH_RULE", &k));
	pt_hint_knobs_free(&k);
}

static void test_pp_receive(void **st)
{
	(void)st;
	for (int hidden = 0; hidden < 2; hidden++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "stream 1");
		uint32_t t2 = pt_model_track(m, d, PT_TRACK_STREAM, 2, "stream 2");
		npu_step(m, d, 1, 0, 100 * US);
		uint32_t op = add_op(m, d, "MatMul-op1", "MatMul");
		pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, 0, 50 * US, 0, op, 0);
		uint32_t rv = add_op(m, d, "Receive-op2", "Receive");
		/* receive [50, 70) alone, or [30, 50) under the MatMul */
		pt_model_add_event(m, t2, m->ops.v[rv].name, PT_EV_TASK, hidden ? 30 * US : 50 * US, 20 * US, 0, rv, 0);
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		char *s = run_hints(m, &k, PT_FMT_CSV, true);
		if (!hidden)
			HAS(s, "0,rank,PP_RECEIVE,warn,receive_pct,20.0000,10.0000,pct,Stage-to-stage receives leave the "
			       "device idle 20.00% of the time (threshold 10.00%): look at the timeline for the stage that "
			       "sends late.,receive_pct=20.0000;receive_alone_ns=20000;step_ns=100000;ranks_1_rank=0;"
			       "ranks_1_receive_alone_ns=20000;ranks_1_step_ns=100000\n");
		else
			HASNOT(s, "PP_RECEIVE,warn");
		HAS(s, "0,rank,PP_STAGE_COMM,not_evaluated,number of pipeline stages unknown (set hints.pp.stages),,");
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(m);
	}
}

/* PP_STAGE_COMM / PP_STAGE_FLOPS with hints.pp.stages = 2 over four NPU ranks */
static void test_pp_stages(void **st)
{
	(void)st;
	for (int v = 0; v < 2; v++) {
		struct pt_model *m = pt_model_new();
		for (uint32_t r = 0; r < 4; r++) {
			/* MatMul [0, 10 ms) with 6.5536e10 FLOPs (1.31072e11 in stage 2), Custom 6 ms */
			npu_flops_rank(m, r, r < 2 ? 65536000000ULL : 131072000000ULL, 6);
			uint32_t d = pt_model_find_device(m, PT_DEV_NPU, r);
			uint32_t t2 = pt_model_track(m, d, PT_TRACK_STREAM, 2, "stream 2");
			uint32_t rv = add_op(m, d, "Receive-op3", "Receive");
			pt_model_add_event(m, t2, m->ops.v[rv].name, PT_EV_TASK, 16 * MS, 1 * MS, 0, rv, 0);
			uint32_t ar = add_op(m, d, "AllReduce-op4", "HcomAllReduce");
			pt_model_add_event(m, t2, m->ops.v[ar].name, PT_EV_TASK, 17 * MS, (r < 2 ? 1 : 3) * MS, 0, ar, 0);
		}
		if (v) /* rank 3 without counters: FLOPs unknown there */
			m->aicore.n--;
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		assert_int_equal(pt_hint_knob_set(&k, "hints.pp.stages", "2", NULL), 0);
		char *s = run_hints(m, &k, PT_FMT_CSV, true);
		/* stage 2: 2 x 3 ms of 2 x 20 ms = 15% */
		HAS(s, "2,stage:2,PP_STAGE_COMM,warn,stage_comm_pct,15.0000,10.0000,pct,Communication inside stage 2 is "
		       "exposed 15.00% of the time");
		HAS(s, "stages_1_comm_ns=2000000;stages_1_step_ns=40000000;stages_1_comm_pct=5.0000;stages_1_ranks=0,1;");
		if (!v)
			HAS(s, "2,stage:2,PP_STAGE_FLOPS,warn,excess_pct,33.3333,20.0000,pct,\"Stage 2 computes 131072.00 MFLOPs "
			       "per device, 33.33% above the stage average");
		else
			HAS(s, "3,rank,PP_STAGE_FLOPS,not_evaluated,no FLOPs data on every rank,,");
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(m);
	}
}

/* SLOW_LINK over HCCL trace events (ascend.md §3.10) */
static void hccl(struct pt_model *m, uint32_t dev, uint32_t exec, uint32_t tid, int64_t ts, int64_t dur, uint32_t src,
		 uint32_t dst, const char *transport, const char *task, uint64_t size)
{
	struct pt_hccl_task t = { dev, pt_model_str(m, "allReduce_1"), exec, tid, ts, dur, src, dst,
				  pt_model_str(m, transport), pt_model_str(m, task), size };
	pt_vec_push(&m->hccl, t);
}

static void test_slow_link(void **st)
{
	(void)st;
	for (int v = 0; v < 2; v++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		/* RDMA 0->1: one transfer of 2 MB in 100 us (the LOCAL wait, written 1->0, joins it): 20000 KB/ms */
		hccl(m, d, 0, 1, 0, 40 * US, 0, 1, "RDMA", "RDMASend", 1000000);
		hccl(m, d, 0, 1, 40 * US, 40 * US, 0, 1, "RDMA", "RDMASend", 1000000);
		hccl(m, d, 0, 1, 80 * US, 20 * US, 1, 0, "LOCAL", "Notify Wait", 0);
		/* RDMA 0->2: the same, or (v = 1) a broken triple and then a whole one twice as slow */
		if (v) {
			hccl(m, d, 0, 2, 0, 40 * US, 0, 2, "RDMA", "RDMASend", 1000000);
			hccl(m, d, 0, 2, 40 * US, 40 * US, 0, 2, "RDMA", "Notify Record", 0);
		}
		hccl(m, d, 0, 2, 100 * US, (v ? 80 : 40) * US, 0, 2, "RDMA", "RDMASend", 1000000);
		hccl(m, d, 0, 2, 200 * US, (v ? 80 : 40) * US, 0, 2, "RDMA", "RDMASend", 1000000);
		hccl(m, d, 0, 2, 300 * US, (v ? 40 : 20) * US, 0, 2, "RDMA", "Notify Wait", 0);
		/* SDMA: Memcpy and Reduce Inline count, Notify Record does not; zero bytes everywhere: skipped */
		hccl(m, d, 1, 3, 0, 10 * US, 0, 1, "SDMA", "Memcpy", 0);
		hccl(m, d, 1, 3, 10 * US, 10 * US, 0, 2, "SDMA", "Reduce Inline", 0);
		hccl(m, d, 1, 3, 20 * US, 10 * US, 0, 2, "SDMA", "Notify Record", 4096);
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		char *s = run_hints(m, &k, PT_FMT_CSV, true);
		if (v) /* 20000 and 10000: mean 15000, 0->2 is 33.3% below */
			HAS(s, "0,link:0-2/RDMA,SLOW_LINK,warn,shortfall_pct,33.3333,20.0000,pct,\"Link 0\u21922 (RDMA) moves "
			       "10000.00 KB/ms, 33.33% below the RDMA average.\",shortfall_pct=33.3333;kb_per_ms=10000.0000;"
			       "mean_kb_per_ms=15000.0000;type=RDMA;links_1_src=0;links_1_dst=1;links_1_kb_per_ms=20000.0000;"
			       "links_1_size_bytes=2000000;links_1_time_ns=100000;links_2_src=0;links_2_dst=2;"
			       "links_2_kb_per_ms=10000.0000;links_2_size_bytes=2000000;links_2_time_ns=200000\n");
		else
			HASNOT(s, "SLOW_LINK");
		HASNOT(s, "SDMA");
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(m);
	}
}

/* ---- MEMORY_NEAR_CAPACITY (case 11) ---- */

static void test_memory(void **st)
{
	(void)st;
	for (int gib = 14; gib <= 15; gib++) {
		struct gm g;
		gm_init(&g);
		g.m->devices.v[g.gpu].mem_bytes = 16ULL << 30;
		range(&g, "ProfilerStep#1", 0, 100 * US);
		act(&g, g.s1, PT_EV_KERNEL, "k", 0, 100 * US, 0, 1);
		struct pt_gpu_mem a;
		memset(&a, 0, sizeof(a));
		a.device = g.gpu;
		a.op = PT_GMEM_ALLOC;
		a.mem_kind = 3;
		a.time = 10 * US;
		a.address = 0x1000;
		a.bytes = (uint64_t)gib << 30;
		pt_vec_push(&g.m->gpu_mem, a);
		char *s = csv(g.m);
		if (gib == 15)
			HAS(s, "0,device:0,MEMORY_NEAR_CAPACITY,warn,peak_pct,93.7500,90.0000,pct,\"Device 0 peaked at 15.00 GiB, "
			       "93.75% of its 16.00 GiB (threshold 90.00%).");
		else
			HASNOT(s, "MEMORY_NEAR_CAPACITY");
		if (gib == 15)
			HAS(s, "peak_pct=93.7500;peak_bytes=16106127360;capacity_bytes=17179869184;peak_ns=10000\n");
		free(s);
		pt_model_free(g.m);
	}
}

/* MEMORY_NEAR_CAPACITY on Ascend (ascend.md §3.13): the largest graph peak against total_mem */
static void mem_tensor(struct pt_model *m, uint32_t g, uint64_t id, uint64_t size, const char *life, uint64_t a,
		       uint64_t b)
{
	struct pt_mem_tensor t;
	memset(&t, 0, sizeof(t));
	t.graph = g;
	t.id = id;
	t.size = size;
	t.type = pt_model_str(m, "Common");
	t.life_long = pt_model_str(m, life);
	t.life_start = a;
	t.life_end = b;
	pt_vec_push(&m->mem_tensors, t);
}

static void test_memory_npu(void **st)
{
	(void)st;
	for (int v = 0; v < 3; v++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 3);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "s");
		npu_step(m, d, 1, 0, 100 * US);
		uint32_t op = add_op(m, d, "Default/MatMul-op1", "MatMul");
		pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, 40 * US, 10 * US, 0, op, 0);
		pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, 20 * US, 10 * US, 0, op, 0);
		/* graph 0: static 1 GiB + 10 GiB everywhere; graph 1: static 1 GiB, nodes 0..2 */
		for (uint32_t g = 0; g < 2; g++) {
			struct pt_mem_graph mg;
			memset(&mg, 0, sizeof(mg));
			mg.device = d;
			mg.graph_id = 7 + g;
			mg.static_mem = 1LL << 30;
			mg.total_mem = v == 2 ? 0 : 16ULL << 30;
			pt_vec_push(&m->mem_graphs, mg);
			static const char *const nn[3] = { "MatMul-op1", "Add-op2", "Cast-op3" };
			for (uint32_t i = 0; i < 3; i++) {
				struct pt_mem_node n;
				memset(&n, 0, sizeof(n));
				n.graph = g;
				n.name = pt_model_str(m, nn[i]);
				n.node_id = i;
				pt_vec_push(&m->mem_nodes, n);
			}
		}
		mem_tensor(m, 0, 1, 10ULL << 30, "LifeLongGraphAll", 0, 0);
		/* graph 1: 12 GiB at 0..1 (13 or 14 GiB with the second tensor at node 1), a reversed and an
		 * unknown-lifetime tensor that count nothing, and one cut at the last node */
		mem_tensor(m, 1, 1, 12ULL << 30, "LifeLongNone", 0, 1);
		mem_tensor(m, 1, 2, (v == 1 ? 1ULL : 2ULL) << 30, "LifeLongGraphStart", 0, 1);
		mem_tensor(m, 1, 3, 8ULL << 30, "LifeLongNone", 2, 1);
		mem_tensor(m, 1, 4, 8ULL << 30, "Unknown", 0, 2);
		mem_tensor(m, 1, 5, 1ULL << 30, "LifeLongNone", 2, 99);
		struct pt_hint_knobs k;
		pt_hint_knobs_init(&k);
		char *s = run_hints(m, &k, PT_FMT_CSV, true);
		if (v == 0)
			HAS(s, "3,device:3,MEMORY_NEAR_CAPACITY,warn,peak_pct,93.7500,90.0000,pct,\"Device 3 peaked at 15.00 GiB, "
			       "93.75% of its 16.00 GiB (threshold 90.00%).");
		else
			HASNOT(s, "MEMORY_NEAR_CAPACITY,warn");
		if (v == 0)
			HAS(s, "peak_pct=93.7500;peak_bytes=16106127360;capacity_bytes=17179869184;peak_ns=20000;graph_id=8;"
			       "peak_node_index=0;peak_node=MatMul-op1\n");
		if (v == 2)
			HAS(s, "3,device:3,MEMORY_NEAR_CAPACITY,not_evaluated,no device memory size (total_mem 0),,");
		free(s);
		pt_hint_knobs_free(&k);
		pt_model_free(m);
	}
}

/* ---- UNEXPLAINED_TIME (case 2), LAUNCH_BOUND, UNATTRIBUTED_DEVICE ---- */

static void test_unexplained(void **st)
{
	(void)st;
	for (int covered = 0; covered < 2; covered++) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 100 * MS);
		act(&g, g.s1, PT_EV_KERNEL, "k", 0, 50 * MS, 0, 1);
		range(&g, "python_code", 50 * MS, covered ? 98 * MS : 80 * MS);
		char *s = csv(g.m);
		if (!covered)
			HAS(s, "0,device:0,UNEXPLAINED_TIME,warn,other_pct,20.0000,15.0000,pct,");
		else
			HASNOT(s, "UNEXPLAINED_TIME");
		free(s);
		pt_model_free(g.m);
	}
}

static void test_launch_bound(void **st)
{
	(void)st;
	for (int call_us = 1; call_us <= 20; call_us += 9) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 100 * US);
		act(&g, g.s1, PT_EV_KERNEL, "k1", 0, 80 * US, 0, 1);
		act(&g, g.s1, PT_EV_KERNEL, "k2", 80 * US + call_us * US, 100 * US, 80 * US, 80 * US + call_us * US);
		char *s = csv(g.m);
		if (call_us == 1)
			HASNOT(s, "LAUNCH_BOUND");
		else if (call_us == 10)
			HAS(s, "0,device:0,LAUNCH_BOUND,warn,launch_pct,10.0000,3.0000,pct,");
		else
			HAS(s, "0,device:0,LAUNCH_BOUND,crit,launch_pct,19.0000,15.0000,pct,");
		if (call_us > 1) {
			/* after a 19 us call, k2 (1 us) runs shorter than it: 1 short launch of 2 */
			HAS(s, ";apis_1_name=cudaLaunchKernel;apis_1_exposed_ns=");
			HAS(s, call_us == 10 ? ";short_kernels_pct=0.0000" : ";short_kernels_pct=50.0000");
			HASNOT(s, "_v7000");
		}
		free(s);
		pt_model_free(g.m);
	}
}

static void test_unattributed(void **st)
{
	(void)st;
	for (int all = 0; all < 2; all++) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 100 * US);
		act(&g, g.s1, PT_EV_KERNEL, "k1", 0, 50 * US, 0, 1);
		act(&g, g.s1, PT_EV_KERNEL, "k2", 50 * US, 100 * US, all ? 40 * US : 0, all ? 41 * US : 0);
		char *s = csv(g.m);
		if (!all)
			HAS(s, "0,device:0,UNATTRIBUTED_DEVICE,info,unattributed_pct,50.0000,5.0000,pct,");
		else
			HASNOT(s, "UNATTRIBUTED_DEVICE");
		free(s);
		pt_model_free(g.m);
	}
}

/* ---- TRUNCATED_LAST_STEP, USE_DDP, DDP_WITHOUT_NCCL ---- */

static void test_truncated(void **st)
{
	(void)st;
	for (int last = 3; last <= 4; last++) {
		struct gm g;
		gm_init(&g);
		range(&g, "ProfilerStep#1", 0, 100 * US);
		range(&g, "ProfilerStep#2", 100 * US, 200 * US);
		for (int i = 0; i < 5; i++)
			act(&g, g.s1, PT_EV_KERNEL, "k", i * 20 * US, i * 20 * US + 10 * US, i * 20 * US, i * 20 * US + 1);
		for (int i = 0; i < last; i++)
			act(&g, g.s1, PT_EV_KERNEL, "k", 100 * US + i * 20 * US, 100 * US + i * 20 * US + 10 * US,
			    100 * US + i * 20 * US, 100 * US + i * 20 * US + 1);
		char *s = csv(g.m);
		if (last == 3)
			HAS(s, "0,rank,TRUNCATED_LAST_STEP,info,ratio,0.6000,0.8000,ratio,The last step has 3 device "
			       "activities against 5 in the step before");
		else
			HASNOT(s, "TRUNCATED_LAST_STEP");
		if (last == 3)
			HAS(s, "n_last=3;n_prev=5;last_step=2\n");
		free(s);
		pt_model_free(g.m);
	}
}

static void test_ddp(void **st)
{
	(void)st;
	for (int v = 0; v < 3; v++) {
		struct gm g;
		gm_init(&g);
		g.m->devices.v[g.gpu].cc_major = 8;
		range(&g, "ProfilerStep#1", 0, 100 * US);
		range(&g, v == 0 ? "DataParallel.forward" : "DistributedDataParallel.forward", 0, 50 * US);
		if (v == 2)
			range(&g, "nccl:all_reduce", 50 * US, 60 * US);
		act(&g, g.s1, PT_EV_KERNEL, "k", 0, 100 * US, 0, 1);
		if (v == 0) {
			uint32_t g2 = pt_model_device(g.m, PT_DEV_GPU, 1);
			g.m->devices.v[g2].cc_major = 8;
			uint32_t s3 = pt_model_track(g.m, g2, PT_TRACK_STREAM, 7, "stream 7");
			act(&g, s3, PT_EV_KERNEL, "k", 0, 100 * US, 0, 1);
		}
		char *s = csv(g.m);
		if (v == 0)
			HAS(s, "0,rank,USE_DDP,info,devices,2,1,count,The model runs single-process DataParallel on 2 devices");
		else
			HASNOT(s, "USE_DDP");
		if (v == 1)
			HAS(s, "0,rank,DDP_WITHOUT_NCCL,info,calls,1,1,count,DistributedDataParallel runs without NCCL "
			       "collectives on NCCL-capable GPUs; the NCCL backend is normally the fastest choice for GPU "
			       "training.,calls=1;cc=8.0\n");
		else
			HASNOT(s, "DDP_WITHOUT_NCCL");
		free(s);
		pt_model_free(g.m);
	}
}

/* ---- TENSOR_CORES_UNUSED ---- */

static void test_tensor_cores(void **st)
{
	(void)st;
	for (int v = 0; v < 3; v++) {
		struct gm g;
		gm_init(&g);
		g.m->devices.v[g.gpu].cc_major = v == 2 ? 6 : 8;
		range(&g, "ProfilerStep#1", 0, 100 * US);
		size_t op = g.m->events.n;
		range(&g, "aten::mm", 10 * US, 50 * US);
		struct pt_range_info ri;
		memset(&ri, 0, sizeof(ri));
		ri.event = (uint32_t)op;
		ri.type = pt_model_str(g.m, "Operator");
		pt_vec_push(&g.m->ranges, ri);
		size_t call = g.m->events.n;
		size_t k = act(&g, g.s1, PT_EV_KERNEL, v == 1 ? "volta_h884gemm_128x64" : "volta_sgemm_128x64_nn", 20 * US,
			       90 * US, 12 * US, 13 * US);
		struct pt_gpu_link l = { (uint32_t)k, (uint32_t)call, (uint32_t)op + 1 };
		pt_vec_push(&g.m->links, l);
		struct pt_hint_knobs kn;
		pt_hint_knobs_init(&kn);
		char *s = run_hints(g.m, &kn, PT_FMT_CSV, true);
		if (v == 0)
			HAS(s, "0,rank,TENSOR_CORES_UNUSED,info,eligible_pct,100.0000,0.0000,pct,\"Operators that could use "
			       "Tensor Cores launch 100.00% of operator kernel time, yet no Tensor Core kernel ran (compute "
			       "capability 8.0). Mixed precision (FP16/BF16) would let them.\",eligible_pct=100.0000;"
			       "tc_used_pct=0.0000;cc=8.0;eligible_ns=70000;operator_kernel_ns=70000\n");
		else
			HASNOT(s, "TENSOR_CORES_UNUSED,info");
		free(s);
		pt_hint_knobs_free(&kn);
		pt_model_free(g.m);
	}
}

/* RANK_SPREAD's receive columns (hints.md §2.4): bubble 10 and 20 us -> 66.7% */
static void test_rank_spread_bubble(void **st)
{
	(void)st;
	struct pt_model *m = pt_model_new();
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t d = pt_model_device(m, PT_DEV_NPU, r);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "s");
		uint32_t t2 = pt_model_track(m, d, PT_TRACK_STREAM, 2, "s2");
		npu_step(m, d, 1, 0, 100 * US);
		uint32_t op = add_op(m, d, "MatMul-op1", "MatMul");
		pt_model_add_event(m, t, m->ops.v[op].name, PT_EV_TASK, 0, 50 * US, 0, op, 0);
		uint32_t rv = add_op(m, d, "Receive-op2", "Receive");
		pt_model_add_event(m, t2, m->ops.v[rv].name, PT_EV_TASK, 50 * US, (10 + 10 * r) * US, 0, rv, 0);
	}
	char *s = csv(m);
	HAS(s, "1,rank,RANK_SPREAD,warn,spread_pct,66.6667,5.0000,pct,\"bubble differs by 66.67% across ranks (max 0.020 ms "
	       "on rank 1, min 0.010 ms on rank 0, mean 0.015 ms; threshold 5.00%): pipeline stages are unbalanced.\"");
	HAS(s, "\"stage differs by 11.76% across ranks (max 0.090 ms on rank 0");
	HASNOT(s, "comm_not_overlapped_excl_receive differs");
	free(s);
	pt_model_free(m);
}


/* --comm-pattern (summary.md §2.5) in the index: names and attribution to communication ranges */
static void test_comm_pattern(void **st)
{
	(void)st;
	struct gm g;
	gm_init(&g);
	range(&g, "ProfilerStep#1", 0, 100 * US);
	size_t k1 = act(&g, g.s1, PT_EV_KERNEL, "gemm", 0, 60 * US, 0, 1);
	size_t k2 = act(&g, g.s1, PT_EV_KERNEL, "_Z13ring_exchangePf", 60 * US, 80 * US, 50 * US, 52 * US);
	size_t k3 = act(&g, g.s1, PT_EV_KERNEL, "ncclKernel_AllReduce", 80 * US, 85 * US, 53 * US, 54 * US);
	size_t op = g.m->events.n;
	range(&g, "my_exchange", 85 * US, 95 * US);
	struct pt_range_info ri;
	memset(&ri, 0, sizeof(ri));
	ri.event = (uint32_t)op;
	ri.type = pt_model_str(g.m, "Operator");
	pt_vec_push(&g.m->ranges, ri);
	size_t k4 = act(&g, g.s1, PT_EV_KERNEL, "copy", 88 * US, 98 * US, 86 * US, 87 * US);
	regex_t re;
	assert_int_equal(regcomp(&re, "^RING_exchange|my_exchange", REG_EXTENDED | REG_ICASE | REG_NOSUB), 0);
	for (int v = 0; v < 3; v++) {
		struct pt_index *x = pt_index_new(g.m);
		if (v)
			pt_index_set_comm_pattern(x, &re, v == 1);
		assert_false(pt_index_is_comm(x, k1));
		assert_int_equal(pt_index_is_comm(x, k2), v == 1);  /* demangled name only */
		assert_int_equal(pt_index_is_comm(x, k3), v == 0);  /* the pattern replaces the list */
		assert_int_equal(pt_index_is_comm(x, k4), v != 0);  /* launched inside the Operator range */
		struct pt_breakdown b;
		pt_index_breakdown(x, g.gpu, 0, 100 * US, &b);
		assert_int_equal(b.comm_not_overlapped, v == 0 ? 5 * US : v == 1 ? 30 * US : 10 * US);
		pt_index_free(x);
	}
	regfree(&re);
	pt_model_free(g.m);
}

/* hx_permute_mops: the order an index array gives, in place, over cycles of every length */
static void test_permute_mops(void **st)
{
	(void)st;
	static const uint32_t order[] = { 3, 0, 4, 1, 2, 5, 7, 6 }; /* cycles (0 3 1) (2 4), 5 alone, (6 7) */
	size_t n = sizeof(order) / sizeof(*order);
	struct memop v[8];
	uint32_t ix[8];
	for (size_t i = 0; i < n; i++) {
		v[i] = (struct memop){ .ev = 100 + i, .start = (int64_t)i };
		ix[i] = order[i];
	}
	hx_permute_mops(v, ix, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i].ev, 100 + order[i]);
		assert_int_equal(v[i].start, order[i]);
		assert_int_equal(ix[i], i);
	}
	hx_permute_mops(NULL, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_bound), cmocka_unit_test(test_step_gap),
		cmocka_unit_test(test_comm_exposed), cmocka_unit_test(test_device_idle),
		cmocka_unit_test(test_launch), cmocka_unit_test(test_short_kernels), cmocka_unit_test(test_mem_ops),
		cmocka_unit_test(test_top_ops), cmocka_unit_test(test_rank_spread),
		cmocka_unit_test(test_rank_step_gap), cmocka_unit_test(test_scope_order),
		cmocka_unit_test(test_knobs), cmocka_unit_test(test_suppressed),
		cmocka_unit_test(test_low_flops), cmocka_unit_test(test_rank_flops),
		cmocka_unit_test(test_pp_receive), cmocka_unit_test(test_pp_stages), cmocka_unit_test(test_slow_link), cmocka_unit_test(test_memory), cmocka_unit_test(test_memory_npu),
		cmocka_unit_test(test_unexplained), cmocka_unit_test(test_launch_bound),
		cmocka_unit_test(test_unattributed), cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_ddp), cmocka_unit_test(test_tensor_cores),
		cmocka_unit_test(test_rank_spread_bubble), cmocka_unit_test(test_comm_pattern),
		cmocka_unit_test(test_rank_flops_alone), cmocka_unit_test(test_rule_table),
		cmocka_unit_test(test_permute_mops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
