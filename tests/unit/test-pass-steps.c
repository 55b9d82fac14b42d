/* Unit tests of the steps pass (ascend.md §3.6, §3.8; summary.md §2.1, §9, §8.8). */
#include <setjmp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/export.h"
#include "import/registry.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/launch-join.h"
#include "pass/pass-perf.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/interval.h"
#include "support/out.h"
#include "support/xalloc.h"
#include "table/table.h"

/* ---- helpers ---- */

static char *slurp_fp(FILE *fp)
{
	rewind(fp);
	char *b = NULL;
	size_t len = 0, cap = 0, k;
	do {
		pt_xgrow((void **)&b, &cap, len + 4097, 1);
		k = fread(b + len, 1, 4096, fp);
		len += k;
	} while (k);
	b[len] = 0;
	return b;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *b = slurp_fp(fp);
	fclose(fp);
	return b;
}

static char *render(struct pt_table *const *t, size_t n, enum pt_format f)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	struct pt_out o;
	pt_out_init_fd(&o, fileno(fp), "tmp");
	struct pt_export_opts eo = { f, PT_TU_DEFAULT, false, 0 };
	pt_export(&o, t, n, &eo);
	assert_int_equal(pt_out_flush(&o, NULL), 0);
	free(o.buf);
	free(o.name);
	char *s = slurp_fp(fp);
	fclose(fp);
	return s;
}

static void sel_init(struct pt_sel *s)
{
	pt_sel_init(s);
}

static struct pt_table *steps1(const struct pt_model *m, const struct pt_sel *sel)
{
	struct pt_index *x = pt_index_new(m);
	struct pt_table *t[2] = { NULL, NULL };
	size_t n = 0;
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_steps(m, x, sel, t, &n, &d, &e), 0);
	assert_int_equal(n, 1);
	pt_diag_free(&d);
	pt_index_free(x);
	return t[0];
}

static int64_t cell_i(struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	if (c < 0)
		fail_msg("no column '%s'", col);
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	if (x->kind != PT_CELL_INT)
		fail_msg("row %zu column '%s' is not an integer", r, col);
	return x->u.i;
}

static bool cell_null(struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	return pt_table_row(t, r)[c].kind == PT_CELL_NULL;
}

static bool row_is(struct pt_table *t, size_t r, const char *label)
{
	int c = pt_table_col(t, "step");
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	return x->kind == PT_CELL_STR && !strcmp(x->u.s, label);
}

/* ---- GPU: summary.md §8.8 ---- */

struct gpu_fx {
	struct pt_model *m;
	uint32_t host, thr, gpu, s7, s8;
};

static void gpu_api(struct gpu_fx *g, const char *name, int64_t s, int64_t e, uint64_t corr)
{
	pt_model_add_event(g->m, g->thr, pt_model_str(g->m, name), PT_EV_API, s, e - s, corr, PT_NONE, 0);
}

static void gpu_act(struct gpu_fx *g, enum pt_event_kind k, const char *name, int64_t s, int64_t e, uint32_t tr,
		    uint64_t corr)
{
	pt_model_add_event(g->m, tr, name ? pt_model_str(g->m, name) : 0, k, s, e - s, corr, PT_NONE, 0);
}

static void gpu_range(struct gpu_fx *g, const char *name, int64_t s, int64_t e)
{
	pt_model_add_event(g->m, g->thr, pt_model_str(g->m, name), PT_EV_RANGE, s, e - s, 0, PT_NONE, 0);
}

static struct gpu_fx gpu_model(bool step_ranges)
{
	struct gpu_fx g;
	g.m = pt_model_new();
	g.host = pt_model_device(g.m, PT_DEV_CPU, 1);
	g.gpu = pt_model_device(g.m, PT_DEV_GPU, 0);
	g.thr = pt_model_track(g.m, g.host, PT_TRACK_HOST_THREAD, 1, "thread 1");
	g.s7 = pt_model_track(g.m, g.gpu, PT_TRACK_STREAM, 7, "stream 7");
	g.s8 = pt_model_track(g.m, g.gpu, PT_TRACK_STREAM, 8, "stream 8");
	if (step_ranges) {
		gpu_range(&g, "ProfilerStep#1", 1000, 2000);
		gpu_range(&g, "ProfilerStep#2", 2000, 3000);
		gpu_range(&g, "ProfilerStep#3", 3000, 4000);
	}
	gpu_range(&g, "Dataloader", 1000, 1200);
	gpu_range(&g, "Dataloader", 2000, 2100);
	gpu_range(&g, "Dataloader", 3000, 3300);
	gpu_api(&g, "cudaMemcpyAsync", 500, 510, 10);
	gpu_api(&g, "cudaLaunchKernel", 1300, 1310, 11);
	gpu_api(&g, "cudaLaunchKernel", 1900, 1910, 12);
	gpu_api(&g, "cudaLaunchKernel", 2200, 2210, 13);
	gpu_api(&g, "cudaMemcpyAsync", 2700, 2710, 14);
	gpu_api(&g, "cudaLaunchKernel", 3400, 3410, 15);
	gpu_api(&g, "cudaLaunchKernel", 3500, 3510, 16);
	gpu_api(&g, "cudaMemsetAsync", 4100, 4110, 17);
	gpu_act(&g, PT_EV_MEMCPY, NULL, 600, 700, g.s7, 10);
	gpu_act(&g, PT_EV_KERNEL, "gemm", 1400, 1900, g.s7, 11);
	gpu_act(&g, PT_EV_KERNEL, "nccl_allreduce", 1950, 2250, g.s8, 12);
	gpu_act(&g, PT_EV_KERNEL, "gemm", 2300, 2700, g.s7, 13);
	gpu_act(&g, PT_EV_MEMCPY, NULL, 2750, 2850, g.s7, 14);
	gpu_act(&g, PT_EV_KERNEL, "gemm", 3500, 3800, g.s7, 15);
	gpu_act(&g, PT_EV_KERNEL, "nccl_allreduce", 3600, 3900, g.s8, 16);
	gpu_act(&g, PT_EV_MEMSET, NULL, 4150, 4200, g.s7, 17);
	return g;
}

static void test_gpu_case_88(void **state)
{
	(void)state;
	struct gpu_fx g = gpu_model(true);
	struct pt_sel sel;
	sel_init(&sel);
	struct pt_table *t = steps1(g.m, &sel);
	char *csv = render(&t, 1, PT_FMT_CSV);
	const char *want =
		"rank,device_id,step,start_ns,end_ns,total_ns,dataloader_ns,busy_ns,idle_ns,kernel_ns,memcpy_ns,memset_ns,communication_ns,computation_ns,overlapped_ns,comm_not_overlapped_ns,free_ns,kernel_count,memcpy_count,memset_count\n"
		"0,0,1,1000,2000,1000,200,550,450,550,0,0,50,500,0,50,450,2,0,0\n"
		"0,0,2,2000,3000,1000,100,750,250,650,100,0,250,400,0,250,350,1,1,0\n"
		"0,0,3,3000,4000,1000,300,400,600,400,0,0,300,300,200,100,600,2,0,0\n"
		"0,0,avg,,,1000,200,575,425,525,50,0,275,350,100,175,475,2,1,0\n"
		"0,0,outside,,,700,0,150,550,0,100,50,0,0,0,0,700,0,1,1\n";
	assert_string_equal(csv, want);
	free(csv);
	/* nothing is lost: step rows + outside = the span's figures */
	int64_t kernel = 0, kc = 0, mc = 0, sc = 0, total = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (row_is(t, r, "avg"))
			continue;
		kernel += cell_i(t, r, "kernel");
		total += cell_i(t, r, "total");
		kc += cell_i(t, r, "kernel_count");
		mc += cell_i(t, r, "memcpy_count");
		sc += cell_i(t, r, "memset_count");
	}
	assert_int_equal(kernel, 1600);
	assert_int_equal(total, 4200 - 500);
	assert_int_equal(kc, 5);
	assert_int_equal(mc, 2);
	assert_int_equal(sc, 1);
	pt_table_free(t);

	/* --steps 2-3: no outside row, the avg of steps 2 and 3 */
	sel.steps_given = true;
	sel.step_a = 2;
	sel.step_b = 3;
	t = steps1(g.m, &sel);
	assert_int_equal(t->nrows, 3);
	assert_true(row_is(t, 2, "avg"));
	assert_int_equal(cell_i(t, 2, "busy"), 575);
	pt_table_free(t);

	/* --time-window 1500: (relative to the earliest event, 500): steps starting at >= 2000 */
	sel_init(&sel);
	sel.window_given = sel.win_has_a = true;
	sel.win_a = 1500;
	t = steps1(g.m, &sel);
	assert_int_equal(t->nrows, 3);
	assert_int_equal(cell_i(t, 0, "step"), 2);
	pt_table_free(t);
	pt_model_free(g.m);
}

static void test_gpu_boundaries(void **state)
{
	(void)state;
	struct gpu_fx g = gpu_model(false);
	struct pt_sel sel;
	sel_init(&sel);
	struct pt_table *t = steps1(g.m, &sel);
	assert_int_equal(t->nrows, 5);
	static const int64_t want[3][2] = { { 1300, 2200 }, { 2200, 3400 }, { 3400, 3510 } };
	for (size_t r = 0; r < 3; r++) {
		assert_int_equal(cell_i(t, r, "step"), (int64_t)r + 1);
		assert_int_equal(cell_i(t, r, "start"), want[r][0]);
		assert_int_equal(cell_i(t, r, "end"), want[r][1]);
	}
	pt_table_free(t);
	pt_model_free(g.m);
}

static void test_gpu_pattern(void **state)
{
	(void)state;
	struct gpu_fx g = gpu_model(true);
	struct pt_sel sel;
	sel_init(&sel);
	sel.step_pattern = "Data.*";
	struct pt_table *t = steps1(g.m, &sel);
	/* the Dataloader ranges are the steps now: numbered 1..3 (no '#') */
	assert_int_equal(cell_i(t, 0, "start"), 1000);
	assert_int_equal(cell_i(t, 0, "end"), 1200);
	assert_int_equal(cell_i(t, 2, "step"), 3);
	pt_table_free(t);
	sel.step_pattern = "(";
	struct pt_index *x = pt_index_new(g.m);
	struct pt_table *tt[2];
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_steps(g.m, x, &sel, tt, &n, NULL, &e), -1);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "invalid step pattern"));
	free(s);
	pt_err_free(e);
	pt_index_free(x);
	pt_model_free(g.m);
}

/*
 * Several traced processes (one CUPTI dump per rank): each numbers its
 * correlation ids from 1, so the ids of two ranks collide. A GPU belongs to
 * the host of its own process; correlation votes decide only for a GPU
 * whose process is unknown. Ranks are the recorded ones, in rank order.
 */
struct proc_fx {
	uint32_t cpu, thr, gpu, stream;
};

static struct proc_fx add_proc(struct pt_model *m, uint32_t pid, int32_t rank, uint32_t gpu_id)
{
	struct proc_fx p;
	p.cpu = pt_model_device(m, PT_DEV_CPU, pid);
	m->devices.v[p.cpu].pid = pid;
	m->devices.v[p.cpu].rank = rank;
	p.thr = pt_model_track(m, p.cpu, PT_TRACK_HOST_THREAD, pid, "main");
	p.gpu = pt_model_device(m, PT_DEV_GPU, gpu_id);
	m->devices.v[p.gpu].pid = pid;
	m->devices.v[p.gpu].rank = rank;
	p.stream = pt_model_track(m, p.gpu, PT_TRACK_STREAM, 7, "stream 7");
	return p;
}

static void proc_work(struct pt_model *m, const struct proc_fx *p, int64_t t0, uint64_t corr)
{
	pt_model_add_event(m, p->thr, pt_model_str(m, "ProfilerStep#1"), PT_EV_RANGE, t0, 1000, 0, PT_NONE, 0);
	pt_model_add_event(m, p->thr, pt_model_str(m, "cudaLaunchKernel"), PT_EV_API, t0 + 10, 10, corr, PT_NONE, 0);
	pt_model_add_event(m, p->stream, pt_model_str(m, "gemm"), PT_EV_KERNEL, t0 + 100, 500, corr, PT_NONE, 0);
}

static void test_gpu_ranks_by_pid(void **state)
{
	(void)state;
	for (int reversed = 0; reversed < 2; reversed++) {
		struct pt_model *m = pt_model_new();
		/* the process of rank 1 comes first in the model when reversed */
		struct proc_fx a = add_proc(m, 4242, reversed ? 1 : 0, reversed ? 1 : 0);
		struct proc_fx b = add_proc(m, 4243, reversed ? 0 : 1, reversed ? 0 : 1);
		proc_work(m, &a, 1000, 1);
		proc_work(m, &b, 1000, 1); /* the same correlation id */
		/* a GPU of no known process, launched by b's call 5 alone */
		uint32_t g = pt_model_device(m, PT_DEV_GPU, 7);
		uint32_t gs = pt_model_track(m, g, PT_TRACK_STREAM, 7, "stream 7");
		pt_model_add_event(m, b.thr, pt_model_str(m, "cudaLaunchKernel"), PT_EV_API, 1200, 10, 5, PT_NONE, 0);
		pt_model_add_event(m, gs, pt_model_str(m, "gemm"), PT_EV_KERNEL, 1300, 100, 5, PT_NONE, 0);
		struct pt_sel sel;
		sel_init(&sel);
		struct pt_steps_info si;
		struct pt_err *e = NULL;
		assert_int_equal(pt_steps_collect(m, &sel, &si, NULL, &e), 0);
		assert_int_equal(si.n, 2);
		assert_int_equal(si.r[0].rank, 0);
		assert_int_equal(si.r[1].rank, 1);
		const struct pt_rank_steps *ra = &si.r[reversed ? 1 : 0], *rb = &si.r[reversed ? 0 : 1];
		assert_int_equal(ra->host, a.cpu);
		assert_int_equal(ra->ndevs, 1);
		assert_int_equal(ra->devs[0], a.gpu);
		/* b's own GPU, then the GPU of no known process, which b's calls launched */
		assert_int_equal(rb->host, b.cpu);
		assert_int_equal(rb->ndevs, 2);
		assert_int_equal(rb->devs[0], b.gpu);
		assert_int_equal(rb->devs[1], g);
		pt_steps_info_free(&si);

		/* the steps table: one row set per rank, each with its own GPU */
		struct pt_table *t = steps1(m, &sel);
		char *csv = render(&t, 1, PT_FMT_CSV);
		/* rank r drives GPU r: rows "rank,device_id,step,..." */
		if (!strstr(csv, "\n0,0,1,1000,2000,1000,") || !strstr(csv, "\n1,1,1,1000,2000,1000,"))
			fail_msg("ranks and GPUs do not match:\n%s", csv);
		free(csv);
		pt_table_free(t);
		pt_model_free(m);
	}
}

/* ---- Ascend: synthetic model with executions inside and outside the steps ---- */

static void add_step(struct pt_model *m, uint32_t dev, uint32_t num, uint32_t has, int64_t start, int64_t fp, int64_t bp,
		     int64_t end)
{
	struct pt_step s;
	memset(&s, 0, sizeof(s));
	s.device = dev;
	s.step = num;
	s.has = has;
	s.start = start;
	s.fp = fp;
	s.bp = bp;
	s.end = end;
	pt_model_add_step(m, &s);
}

static void add_step_comm(struct pt_model *m, uint32_t dev, uint32_t num, int64_t start, int64_t fp, int64_t bp,
			  int64_t end, uint32_t stream, int64_t cs, int64_t ce)
{
	struct pt_step s;
	memset(&s, 0, sizeof(s));
	s.device = dev;
	s.step = num;
	s.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END;
	s.start = start;
	s.fp = fp;
	s.bp = bp;
	s.end = end;
	struct pt_comm c = { stream, 3, cs, ce, pt_model_str(m, "parallel"), pt_model_str(m, "parallel") };
	pt_vec_push(&s.comm, c);
	pt_model_add_step(m, &s);
}

#define ALL (PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END)

static void test_ascend_sums(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t dev = pt_model_device(m, PT_DEV_NPU, 3);
	uint32_t s5 = pt_model_track(m, dev, PT_TRACK_STREAM, 5, "stream 5");
	uint32_t s9 = pt_model_track(m, dev, PT_TRACK_STREAM, 9, "stream 9");
	uint32_t ac = pt_model_track(m, dev, PT_TRACK_AICPU, -1, "aicpu");
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = dev;
	op.name = pt_model_str(m, "Default/Conv2D-op1");
	op.type = pt_model_str(m, "Conv2D");
	uint32_t conv = pt_model_add_op(m, &op);
	/* steps: 1 [100, 200), 2 [200, 300) with a reduce pair, 3 lacks bp, 4 [400, 500) */
	add_step(m, dev, 1, ALL, 100, 100, 150, 200);
	add_step_comm(m, dev, 2, 200, 220, 260, 300, 9, 240, 270);
	add_step(m, dev, 3, ALL & ~PT_STEP_HAS_BP, 300, 320, 0, 400);
	add_step(m, dev, 4, ALL, 400, 430, 460, 500);
	/* executions: one before the first step, one crossing 1|2, comm on stream 9, one after */
	pt_model_add_event(m, s5, op.name, PT_EV_TASK, 50, 20, 0, conv, 1);   /* outside */
	pt_model_add_event(m, s5, op.name, PT_EV_TASK, 180, 40, 0, conv, 1);  /* step 1, runs into 2 */
	pt_model_add_event(m, s9, 0, PT_EV_TASK, 250, 30, 0, PT_NONE, 77);    /* comm (unnamed stream) */
	pt_model_add_event(m, s5, op.name, PT_EV_TASK, 330, 10, 0, conv, 1);  /* step 3 */
	pt_model_add_event(m, s5, op.name, PT_EV_TASK, 440, 10, 0, conv, 1);  /* step 4 */
	pt_model_add_event(m, s5, op.name, PT_EV_TASK, 520, 30, 0, conv, 1);  /* outside */
	pt_model_add_event(m, ac, pt_model_str(m, "GetNext"), PT_EV_AICPU, 410, 5, 0, PT_NONE, 0);
	pt_model_add_event(m, ac, pt_model_str(m, "GetNext"), PT_EV_AICPU, 600, 5, 0, PT_NONE, 0);

	struct pt_sel sel;
	sel_init(&sel);
	struct pt_table *t = steps1(m, &sel);
	/* rows: 4 steps, avg, outside; one device: no device_id column */
	assert_int_equal(t->nrows, 6);
	assert_int_equal(pt_table_col(t, "device_id"), -1);
	assert_true(row_is(t, 4, "avg"));
	assert_true(row_is(t, 5, "outside"));
	/* step 1 */
	assert_int_equal(cell_i(t, 0, "iteration_interval"), 0);
	assert_int_equal(cell_i(t, 0, "exec_count"), 1);
	assert_int_equal(cell_i(t, 0, "computation"), 20);
	/* step 2: the tail of the crossing execution, the reduce pair */
	assert_int_equal(cell_i(t, 1, "computation"), 20);
	assert_int_equal(cell_i(t, 1, "exec_count"), 1);
	assert_int_equal(cell_i(t, 1, "stream_9_0_parallel_dur"), 30);
	assert_true(cell_null(t, 0, "stream_9_0_parallel_dur"));
	/* M in step 2 = [240, 280): exposed 40, free 100 − 20 − 40 */
	assert_int_equal(cell_i(t, 1, "comm_not_overlapped"), 40);
	assert_int_equal(cell_i(t, 1, "free"), 40);
	/* step 3: no bp -> fp_and_bp, tail empty; window kept */
	assert_true(cell_null(t, 2, "bp"));
	assert_true(cell_null(t, 2, "fp_and_bp"));
	assert_true(cell_null(t, 2, "tail"));
	assert_int_equal(cell_i(t, 2, "iteration_interval"), 20);
	assert_int_equal(cell_i(t, 2, "total"), 100);
	/* avg: steps 2 and 4 (3 is incomplete, 1 is the first) */
	assert_int_equal(cell_i(t, 4, "iteration_interval"), 25);
	assert_int_equal(cell_i(t, 4, "fp_and_bp"), 35); /* (40 + 30) / 2 */
	assert_int_equal(cell_i(t, 4, "stream_9_0_parallel_dur"), 30);
	assert_int_equal(cell_i(t, 4, "exec_count"), 1);
	assert_int_equal(cell_i(t, 4, "aicpu_count"), 1); /* (0 + 1) / 2 = 0.5 -> 1 */
	assert_true(cell_null(t, 4, "start"));
	/* outside: [50, 100) and [500, 605) */
	assert_int_equal(cell_i(t, 5, "total"), 50 + 105);
	assert_int_equal(cell_i(t, 5, "exec_count"), 2);
	assert_int_equal(cell_i(t, 5, "aicpu_count"), 1);
	assert_int_equal(cell_i(t, 5, "computation"), 20 + 30 + 5);
	assert_true(cell_null(t, 5, "start"));
	assert_true(cell_null(t, 5, "iteration_interval"));
	/* sums over steps + outside: total and breakdown over the span [50, 605) */
	struct pt_index *x = pt_index_new(m);
	struct pt_breakdown b;
	pt_index_breakdown(x, dev, 50, 605, &b);
	static const char *const cols[] = { "total", "computation", "overlapped", "comm_not_overlapped", "free" };
	int64_t want[5] = { 555, b.computation, b.overlapped, b.comm_not_overlapped, b.free };
	for (size_t c = 0; c < 5; c++) {
		int64_t sum = 0;
		for (size_t r = 0; r < t->nrows; r++)
			if (!row_is(t, r, "avg"))
				sum += cell_i(t, r, cols[c]);
		assert_int_equal(sum, want[c]);
	}
	int64_t ne = 0, na = 0;
	for (size_t r = 0; r < t->nrows; r++)
		if (!row_is(t, r, "avg")) {
			ne += cell_i(t, r, "exec_count");
			na += cell_i(t, r, "aicpu_count");
		}
	assert_int_equal(ne, 6);
	assert_int_equal(na, 2);
	pt_index_free(x);
	pt_table_free(t);

	/* a missing end: the row stays with empty derived cells, the time goes to outside */
	pt_model_free(m);
	m = pt_model_new();
	dev = pt_model_device(m, PT_DEV_NPU, 0);
	add_step(m, dev, 1, ALL, 100, 100, 150, 200);
	add_step(m, dev, 2, ALL & ~PT_STEP_HAS_END, 200, 220, 260, 0);
	add_step(m, dev, 3, ALL & ~PT_STEP_HAS_START, 0, 320, 360, 400);
	add_step(m, dev, 4, ALL, 400, 430, 460, 500);
	t = steps1(m, &sel);
	assert_int_equal(t->nrows, 6);
	assert_true(cell_null(t, 1, "total"));
	assert_true(cell_null(t, 1, "tail"));
	assert_int_equal(cell_i(t, 1, "fp_and_bp"), 40);
	assert_true(cell_null(t, 1, "computation"));
	assert_true(cell_null(t, 2, "iteration_interval"));
	assert_int_equal(cell_i(t, 4, "total"), 100); /* only step 4 */
	assert_int_equal(cell_i(t, 5, "total"), 200); /* [200, 400) */
	pt_table_free(t);

	/* inference: no bp anywhere: fp_and_bp = end − fp, tail empty, steps complete */
	pt_model_free(m);
	m = pt_model_new();
	dev = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t inf = ALL & ~PT_STEP_HAS_BP;
	add_step(m, dev, 1, inf, 100, 100, 0, 200);
	add_step(m, dev, 2, inf, 200, 210, 0, 300);
	add_step(m, dev, 3, inf, 300, 330, 0, 400);
	t = steps1(m, &sel);
	assert_int_equal(cell_i(t, 1, "fp_and_bp"), 90);
	assert_true(cell_null(t, 1, "tail"));
	assert_true(cell_null(t, 1, "bp"));
	assert_int_equal(cell_i(t, 3, "fp_and_bp"), 80); /* (90 + 70) / 2 */
	assert_int_equal(cell_i(t, 3, "iteration_interval"), 20);
	pt_table_free(t);

	/* exactly one step: the avg row repeats it */
	pt_model_free(m);
	m = pt_model_new();
	dev = pt_model_device(m, PT_DEV_NPU, 0);
	add_step(m, dev, 1, ALL, 100, 100, 150, 201);
	t = steps1(m, &sel);
	assert_true(row_is(t, 1, "avg"));
	assert_int_equal(cell_i(t, 1, "total"), 101);
	assert_int_equal(cell_i(t, 1, "tail"), 51);
	pt_table_free(t);
	pt_model_free(m);
}

static void test_ascend_multi_device(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d7 = pt_model_device(m, PT_DEV_NPU, 7);
	uint32_t d2 = pt_model_device(m, PT_DEV_NPU, 2);
	add_step(m, d7, 1, ALL, 100, 100, 150, 200);
	add_step(m, d2, 1, ALL, 1000, 1000, 1500, 2000);
	add_step(m, d2, 2, ALL, 2000, 2100, 2500, 3000);
	struct pt_sel sel;
	sel_init(&sel);
	struct pt_table *t = steps1(m, &sel);
	assert_int_equal(pt_table_col(t, "device_id"), 0);
	/* device 2 first: 2 steps, avg, outside; then device 7 */
	assert_int_equal(t->nrows, 7);
	assert_int_equal(cell_i(t, 0, "device_id"), 2);
	assert_int_equal(cell_i(t, 4, "device_id"), 7);
	assert_int_equal(cell_i(t, 2, "total"), 1000);
	pt_table_free(t);
	sel.device = 7;
	t = steps1(m, &sel);
	assert_int_equal(pt_table_col(t, "device_id"), -1);
	assert_int_equal(t->nrows, 3);
	pt_table_free(t);
	pt_model_free(m);
}

static void test_mean(void **state)
{
	(void)state;
	assert_int_equal(pt_steps_mean(3, 2), 2);
	assert_int_equal(pt_steps_mean(-3, 2), -2);
	assert_int_equal(pt_steps_mean(1716718460, 19), 90353603);
	assert_int_equal(pt_steps_mean(5, 4), 1);
	assert_int_equal(pt_steps_mean(0, 0), 0);
}

/* ---- fixtures: MindInsight's step_trace_raw CSVs (ascend.md §6) ---- */

static char *fixture(const char *rel)
{
	const char *s = getenv("PT_SHARED");
	char *p;
	if (s && *s)
		p = pt_xasprintf("%s/fixtures/mindinsight/%s", s, rel);
	else if (getenv("PT_SRC"))
		p = pt_xasprintf("%s/../shared/fixtures/mindinsight/%s", getenv("PT_SRC"), rel);
	else
		p = pt_xasprintf("../shared/fixtures/mindinsight/%s", rel);
	if (access(p, R_OK)) {
		free(p);
		return NULL;
	}
	return p;
}

static int split(char *line, char **cells, int max)
{
	int n = 0;
	char *p = line;
	size_t l = strlen(line);
	if (l && line[l - 1] == '\r')
		line[l - 1] = 0;
	while (n < max) {
		cells[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	return n;
}

/* MindInsight column name -> proftool column name (without _ns). */
static char *map_col(const char *mi)
{
	static const char *const fixed[][2] = {
		{ "start_point", "start" }, { "end_point", "end" }, { "total", "total" }, { "fp_point", "fp" },
		{ "bp_point", "bp" }, { "iteration_interval", "iteration_interval" }, { "fp_and_bp", "fp_and_bp" },
		{ "tail", "tail" },
	};
	for (size_t i = 0; i < 8; i++)
		if (!strcmp(mi, fixed[i][0]))
			return pt_xstrdup(fixed[i][1]);
	unsigned sid, k;
	int used = 0;
	if (sscanf(mi, "stream_%u_parallel_%u%n", &sid, &k, &used) == 2) {
		const char *rest = mi + used;
		const char *suf = !*rest ? "dur" : !strcmp(rest, "_start_point") ? "start" : "end";
		return pt_xasprintf("stream_%u_%u_parallel_%s", sid, k, suf);
	}
	return NULL;
}

static void check_fixture(const char *job, const char *csvname, int64_t want_ii_avg)
{
	char *dir = fixture(job);
	char *rel = pt_xasprintf("%s/expected/%s", job, csvname);
	char *csvpath = fixture(rel);
	free(rel);
	if (!dir || !csvpath) {
		free(dir);
		free(csvpath);
		skip();
	}
	struct pt_model *m = pt_model_new();
	struct pt_import_opts io;
	pt_import_opts_init(&io);
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	const char *paths[1] = { dir };
	assert_int_equal(pt_import(m, paths, 1, &io, &d, &e), 0);
	pt_diag_free(&d);
	struct pt_sel sel;
	sel_init(&sel);
	struct pt_table *t = steps1(m, &sel);

	char *csv = slurp(csvpath);
	assert_non_null(csv);
	char *save = NULL;
	char *line = strtok_r(csv, "\n", &save);
	char *head[64];
	int nh = split(line, head, 64);
	int cols[64];
	__int128 sum[64] = { 0 };
	int64_t cnt[64] = { 0 };
	for (int i = 1; i < nh; i++) {
		char *name = map_col(head[i]);
		if (!name)
			fail_msg("unexpected column '%s'", head[i]);
		cols[i] = pt_table_col(t, name);
		if (cols[i] < 0)
			fail_msg("no column '%s' for '%s'", name, head[i]);
		free(name);
	}
	size_t rows = 0, values = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *cell[64];
		int n = split(line, cell, 64);
		assert_int_equal(n, nh);
		if (!strcmp(cell[0], "-")) {
			/* the average row: exact means over steps 2..n (reduce pairs: where they
			 * exist, Q20), within 6 ns of the reference's (Q21); absolute cells empty */
			size_t ar = rows;
			assert_true(row_is(t, ar, "avg"));
			if (want_ii_avg)
				assert_int_equal(cell_i(t, ar, "iteration_interval"), want_ii_avg);
			for (int i = 1; i < nh; i++) {
				struct pt_cell *c = pt_table_cell(t, ar, (size_t)cols[i]);
				if (strstr(head[i], "point")) {
					assert_int_equal(c->kind, PT_CELL_NULL);
					continue;
				}
				assert_int_equal(c->kind, PT_CELL_INT);
				assert_int_equal(c->u.i, pt_steps_mean(sum[i], cnt[i]));
				if (strncmp(head[i], "stream_", 7)) {
					int64_t ref = strtoll(cell[i], NULL, 10) * 10;
					int64_t diff = c->u.i - ref;
					if (diff < -5 || diff > 5)
						fail_msg("avg '%s': %" PRId64 " vs reference %" PRId64, head[i], c->u.i, ref);
				}
			}
			continue;
		}
		int64_t step = strtoll(cell[0], NULL, 10);
		assert_int_equal(cell_i(t, rows, "step"), step);
		for (int i = 1; i < nh; i++) {
			struct pt_cell *c = pt_table_cell(t, rows, (size_t)cols[i]);
			int64_t ref = strtoll(cell[i], NULL, 10) * 10;
			if (!strncmp(head[i], "stream_", 7) && ref == 0) {
				/* Q19: an absent pair is empty, not 0 */
				assert_int_equal(c->kind, PT_CELL_NULL);
				continue;
			}
			if (c->kind != PT_CELL_INT || c->u.i != ref)
				fail_msg("step %" PRId64 " '%s': proftool %" PRId64 " (kind %d), reference %" PRId64 " ns",
					 step, head[i], c->u.i, c->kind, ref);
			values++;
			if (step >= 2) {
				sum[i] += ref;
				cnt[i]++;
			}
		}
		rows++;
	}
	assert_int_equal(rows, m->steps.n);
	assert_true(values > 0);
	/* after avg comes outside */
	assert_true(row_is(t, rows + 1, "outside"));
	assert_int_equal(t->nrows, rows + 2);
	free(csv);
	free(csvpath);
	free(dir);
	pt_table_free(t);
	pt_model_free(m);
}

static void test_fixture_job1(void **state)
{
	(void)state;
	check_fixture("JOB1", "step_trace_raw_0_detail_time.csv", 90353603);
}

static void test_fixture_error_job(void **state)
{
	(void)state;
	check_fixture("ERROR_JOB", "step_trace_raw_10_detail_time.csv", 0);
}

/* The shared selection (pass/select.h): window ends, their origin, the step-name pattern. */
static char *diag_text(const struct pt_diag *d)
{
	static char buf[2048];
	buf[0] = 0;
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	pt_diag_print(d, f);
	fclose(f);
	return buf;
}

/* what a selection found: steps outside the model's, a window outside the data, a device not there */
static void test_select_nothing(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t dev = pt_model_device(m, PT_DEV_NPU, 3);
	uint32_t s5 = pt_model_track(m, dev, PT_TRACK_STREAM, 5, "stream 5");
	for (int k = 1; k <= 4; k++)
		add_step(m, dev, k, ALL, 100 * k, 100 * k + 10, 100 * k + 50, 100 * k + 100);
	pt_model_add_event(m, s5, pt_model_str(m, "t"), PT_EV_TASK, 120, 10, 0, PT_NONE, 1);
	struct pt_sel s;
	struct pt_diag d = { 0 };
	/* nothing asked, or a selection that keeps something: silent */
	sel_init(&s);
	pt_sel_check(m, &s, &d);
	s.steps_given = true, s.step_a = 2, s.step_b = 9, s.steps_arg = "2-9";
	pt_sel_check(m, &s, &d);
	assert_int_equal(d.n, 0);
	s.step_a = 7, s.step_b = 9, s.steps_arg = "7-9";
	pt_sel_check(m, &s, &d);
	assert_string_equal(diag_text(&d), "proftool: warning: --steps 7-9 selects no step (the model has steps 1-4)\n");
	pt_diag_free(&d);
	/* a window after the data (origin: the first step's start, 100) */
	sel_init(&s);
	s.window_given = s.win_has_a = true, s.win_a = 1000, s.window_arg = "1000ns:";
	pt_sel_check(m, &s, &d);
	assert_string_equal(diag_text(&d),
			    "proftool: warning: --time-window 1000ns: lies outside the data (span 0-400 ns)\n");
	pt_diag_free(&d);
	/* a window inside the data that no step starts in selects its events: silent */
	s.win_a = 5, s.win_has_b = true, s.win_b = 8, s.window_arg = "5ns:8ns";
	pt_sel_check(m, &s, &d);
	assert_int_equal(d.n, 0);
	/* a device the model does not have */
	sel_init(&s);
	s.device = 7;
	pt_sel_check(m, &s, &d);
	assert_string_equal(diag_text(&d), "proftool: warning: --device 7 selects no device (the model has device 3)\n");
	pt_diag_free(&d);
	/* the reasons of empty tables */
	char b[128];
	sel_init(&s);
	assert_string_equal(pt_sel_empty_reason(&s, "kernels", b, sizeof(b)), "no kernels in the model");
	assert_string_equal(pt_sel_empty_reason(NULL, "kernels", b, sizeof(b)), "no kernels in the model");
	s.steps_given = true, s.step_a = 400, s.step_b = 500, s.steps_arg = "400-500", s.device = 2;
	assert_string_equal(pt_sel_empty_reason(&s, "kernels", b, sizeof(b)), "no kernels in steps 400-500 on device 2");
	s.step_b = 400;
	assert_string_equal(pt_sel_empty_reason(&s, "ops", b, sizeof(b)), "no ops in step 400 on device 2");
	assert_string_equal(pt_sel_empty_reason(&s, "ops", b, 8), "no ops "); /* cut, terminated */
	pt_model_free(m);
}

/* device data over part of the steps: covered steps, the note, null device figures in the others */
static void test_coverage(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t dev = pt_model_device(m, PT_DEV_NPU, 1);
	uint32_t s5 = pt_model_track(m, dev, PT_TRACK_STREAM, 5, "stream 5");
	for (int k = 1; k <= 5; k++)
		add_step(m, dev, k, ALL, 100 * k, 100 * k + 10, 100 * k + 50, 100 * k + 100);
	/* tasks in steps 1 and 2 only, the last one ends in step 3 */
	pt_model_add_event(m, s5, pt_model_str(m, "t"), PT_EV_TASK, 120, 10, 0, PT_NONE, 1);
	pt_model_add_event(m, s5, pt_model_str(m, "t"), PT_EV_TASK, 250, 60, 0, PT_NONE, 1);
	struct pt_sel s;
	sel_init(&s);
	struct pt_steps_info si;
	struct pt_err *e = NULL;
	assert_int_equal(pt_steps_collect(m, &s, &si, NULL, &e), 0);
	assert_int_equal(si.n, 1);
	const struct pt_rank_steps *r = &si.r[0];
	assert_true(r->has_dev);
	assert_int_equal(r->nkept, 5);
	assert_int_equal(r->ncovered, 3);
	assert_true(r->v[0].covered && r->v[1].covered && r->v[2].covered);
	assert_false(r->v[3].covered || r->v[4].covered);
	assert_true(pt_steps_partly_covered(r));
	struct pt_diag d = { 0 };
	assert_int_equal(pt_steps_coverage_note(&si, "ratios are over those", &d), 1);
	assert_string_equal(diag_text(&d), "proftool: note: device 1: device data covers 3 of 5 steps (steps 1-3; it "
					   "spans 20-210 ns from the model's origin); ratios are over those\n");
	pt_diag_free(&d);
	pt_steps_info_free(&si);
	/* the steps table: device figures only in covered steps */
	struct pt_table *t = steps1(m, &s);
	assert_false(cell_null(t, 0, "computation"));
	assert_true(cell_null(t, 3, "computation"));
	assert_true(cell_null(t, 4, "free"));
	pt_table_free(t);
	/* steps 2-3 are all covered: no longer partial */
	s.steps_given = true, s.step_a = 2, s.step_b = 3;
	assert_int_equal(pt_steps_collect(m, &s, &si, NULL, &e), 0);
	assert_false(pt_steps_partly_covered(&si.r[0]));
	assert_int_equal(pt_steps_coverage_note(&si, "x", &d), 0);
	pt_steps_info_free(&si);
	pt_model_free(m);
}

/* GPU ranks: the device data placed at launch time, through the correlation ids or the links */
static void test_gpu_coverage(void **state)
{
	(void)state;
	struct gpu_fx g;
	g.m = pt_model_new();
	g.host = pt_model_device(g.m, PT_DEV_CPU, 1);
	g.gpu = pt_model_device(g.m, PT_DEV_GPU, 0);
	g.thr = pt_model_track(g.m, g.host, PT_TRACK_HOST_THREAD, 1, "thread 1");
	g.s7 = pt_model_track(g.m, g.gpu, PT_TRACK_STREAM, 7, "stream 7");
	/* an activity met before its launch (event 0), launched in step 1, run in step 2 */
	gpu_act(&g, PT_EV_KERNEL, "k1", 2500, 2600, g.s7, 1);
	for (int k = 1; k <= 5; k++) {
		char name[32];
		snprintf(name, sizeof(name), "ProfilerStep#%d", k);
		gpu_range(&g, name, 1000 * k, 1000 * k + 1000);
	}
	gpu_api(&g, "cudaLaunchKernel", 1100, 1110, 1);
	/* step 2: none of its own (covered: between two launches); step 3 launches k2 */
	gpu_api(&g, "cudaLaunchKernel", 3100, 3110, 2);
	gpu_act(&g, PT_EV_KERNEL, "k2", 3200, 3300, g.s7, 2);
	/* correlation 4 names no call: the kernel's own time, in step 4 */
	gpu_act(&g, PT_EV_KERNEL, "k4", 4500, 4550, g.s7, 4);
	/* step 5: a launch whose correlation names no activity, and a call-less range */
	gpu_api(&g, "cudaLaunchKernel", 5100, 5110, 3);
	struct pt_sel s;
	sel_init(&s);
	struct pt_steps_info si;
	struct pt_err *e = NULL;
	assert_int_equal(pt_steps_collect(g.m, &s, &si, NULL, &e), 0);
	assert_int_equal(si.n, 1);
	const struct pt_rank_steps *r = &si.r[0];
	assert_true(r->has_dev);
	assert_int_equal(r->dev_s, 1100);
	assert_int_equal(r->dev_e, 4550);
	assert_int_equal(r->ncovered, 4);
	assert_false(r->v[4].covered);
	assert_true(pt_steps_partly_covered(r));
	assert_true(pt_steps_uncovered_at(r, 5500));
	assert_false(pt_steps_uncovered_at(r, 2500));
	assert_false(pt_steps_uncovered_at(r, 6500)); /* in no window */
	assert_false(pt_steps_uncovered_at(r, 500));
	assert_non_null(r->am); /* gathered in the same pass, kept for the table and hints */
	struct pt_diag d = { 0 };
	assert_int_equal(pt_steps_coverage_note(&si, "ratios are over those", &d), 1);
	assert_string_equal(diag_text(&d), "proftool: note: rank 0: device data covers 4 of 5 steps (steps 1-4; its "
					   "launches span 100-3550 ns from the model's origin); ratios are over those\n");
	pt_diag_free(&d);
	/* summary's note of a GPU rank: the same words */
	pt_steps_launch_coverage_line(&d, 0, 4, 5, 1, 4, true, 100, 3550, "ratios are over those");
	assert_string_equal(diag_text(&d), "proftool: note: rank 0: device data covers 4 of 5 steps (steps 1-4; its "
					   "launches span 100-3550 ns from the model's origin); ratios are over those\n");
	pt_diag_free(&d);
	pt_steps_info_free(&si);
	/* the table: no device figures in step 5, and none counted there */
	struct pt_table *t = steps1(g.m, &s);
	assert_int_equal(cell_i(t, 0, "kernel_count"), 1);
	assert_false(cell_null(t, 3, "busy"));
	assert_true(cell_null(t, 4, "busy"));
	assert_true(cell_null(t, 4, "kernel_count"));
	assert_int_equal(cell_i(t, 4, "total"), 1000);
	pt_table_free(t);

	/* links (a CUPTI import): they place the linked activities; the others keep their own time,
	 * whatever their correlation id says. k2 (event 8) linked to the call of step 5 (event 10). */
	struct pt_gpu_link *l = pt_model_reserve_links(g.m, 1, NULL);
	*l = (struct pt_gpu_link){ 8, 10, 0 };
	pt_model_commit_links(g.m, 1);
	assert_int_equal(g.m->events.kind[8], PT_EV_KERNEL);
	assert_int_equal(g.m->events.start[10], 5100);
	assert_int_equal(pt_steps_collect(g.m, &s, &si, NULL, &e), 0);
	r = &si.r[0];
	assert_int_equal(r->dev_s, 2500);
	assert_int_equal(r->dev_e, 5100);
	assert_int_equal(r->ncovered, 4); /* steps 2-5 */
	assert_false(r->v[0].covered);
	assert_null(r->am);
	pt_steps_info_free(&si);
	pt_model_free(g.m);
}

static void test_select(void **state)
{
	(void)state;
	struct pt_sel s;
	pt_sel_init(&s);
	assert_int_equal(s.device, -1);
	assert_false(s.steps_given || s.window_given);
	int64_t a = 7, b = 7;
	assert_false(pt_sel_window(&s, &a, &b));
	assert_int_equal(a, 7); /* untouched without a window */
	assert_int_equal(b, 7);

	/* --time-window 100: (open end); its resolution against an origin: test-select.c */
	s.window_given = s.win_has_a = true;
	s.win_a = 100;
	assert_true(pt_sel_window(&s, &a, &b));
	assert_int_equal(a, 100);
	assert_true(b == INT64_MAX);

	/* the step-name pattern: the default, a given one, both anchored; a malformed one fails with a message */
	regex_t re;
	char msg[128];
	assert_int_equal(pt_sel_step_re(NULL, &re, msg, sizeof(msg)), 0);
	assert_int_equal(regexec(&re, "ProfilerStep#12", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "xProfilerStep#12", 0, NULL, 0), 0);
	regfree(&re);
	s.step_pattern = "iter[0-9]+";
	assert_int_equal(pt_sel_step_re(&s, &re, msg, sizeof(msg)), 0);
	assert_int_equal(regexec(&re, "iter3", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "iter3 end", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "ProfilerStep#1", 0, NULL, 0), 0);
	regfree(&re);
	s.step_pattern = "(";
	msg[0] = 0;
	assert_int_not_equal(pt_sel_step_re(&s, &re, msg, sizeof(msg)), 0);
	assert_true(msg[0] != 0);
}

/* ---- the streamed launch join (launch-join.h) ---- */

static void test_ljoin(void **state)
{
	(void)state;
	/* dense ids (a bit per id of the range), wanted out of order and twice; 0 is no id */
	struct pt_ljoin j;
	pt_ljoin_init(&j);
	static const uint64_t want[] = { 40, 12, 12, 0, 99, 13, 40 };
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++)
		pt_ljoin_want(&j, want[i]);
	pt_ljoin_seal(&j);
	assert_int_equal(j.n, 4);
	assert_non_null(j.bits);
	/* slots in id order */
	assert_int_equal(pt_ljoin_slot(&j, 12), 0);
	assert_int_equal(pt_ljoin_slot(&j, 13), 1);
	assert_int_equal(pt_ljoin_slot(&j, 40), 2);
	assert_int_equal(pt_ljoin_slot(&j, 99), 3);
	assert_int_equal(pt_ljoin_slot(&j, 0), SIZE_MAX);
	assert_int_equal(pt_ljoin_slot(&j, 11), SIZE_MAX);
	assert_int_equal(pt_ljoin_slot(&j, 41), SIZE_MAX);
	assert_int_equal(pt_ljoin_slot(&j, 100), SIZE_MAX);
	/* the first call of an id wins; calls nobody wants are dropped */
	pt_ljoin_call(&j, 40, 500, 510);
	pt_ljoin_call(&j, 40, 400, 410);
	pt_ljoin_call(&j, 41, 1, 2);
	pt_ljoin_call(&j, 12, -7, -3); /* a negative time is a time */
	int64_t s = 0, e = 0;
	assert_true(pt_ljoin_get(&j, pt_ljoin_slot(&j, 40), &s, &e));
	assert_int_equal(s, 500);
	assert_int_equal(e, 510);
	assert_true(pt_ljoin_get(&j, 0, &s, NULL));
	assert_int_equal(s, -7);
	assert_false(pt_ljoin_get(&j, pt_ljoin_slot(&j, 13), &s, &e));
	assert_false(pt_ljoin_get(&j, SIZE_MAX, &s, &e));
	assert_true(pt_ljoin_bytes(&j) > 0);
	pt_ljoin_free(&j);

	/* sparse ids over the whole 64-bit range: no bits, one bucket; the wants in 4 bytes each until one
	 * does not fit there (the first few do) */
	pt_ljoin_init(&j);
	for (uint64_t i = 0; i < 1000; i++) {
		pt_ljoin_want(&j, i * 7919 * 1000003 + 1);
		if (i == 0)
			assert_int_equal(pt_ljoin_bytes(&j), j.cap * sizeof(uint32_t));
	}
	assert_null(j.id32);
	assert_int_equal(pt_ljoin_bytes(&j), j.cap * sizeof(uint64_t));
	pt_ljoin_want(&j, UINT64_MAX);
	pt_ljoin_seal(&j);
	assert_null(j.bits);
	assert_int_equal(j.n, 1001);
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t id = i * 7919 * 1000003 + 1;
		assert_int_equal(pt_ljoin_slot(&j, id), (size_t)i);
		assert_int_equal(pt_ljoin_slot(&j, id + 1), SIZE_MAX);
	}
	assert_int_equal(pt_ljoin_slot(&j, UINT64_MAX), 1000);
	pt_ljoin_call(&j, UINT64_MAX, 1, 2);
	assert_true(pt_ljoin_get(&j, 1000, &s, &e));
	pt_ljoin_free(&j);

	/* the calls' names, when asked for before the seal: the first call of an id wins, as for its times */
	pt_ljoin_init(&j);
	pt_ljoin_want(&j, 7);
	pt_ljoin_want(&j, 9);
	pt_ljoin_want(&j, 8);
	size_t plain = 0;
	{
		struct pt_ljoin k;
		pt_ljoin_init(&k);
		pt_ljoin_want(&k, 7);
		pt_ljoin_want(&k, 9);
		pt_ljoin_want(&k, 8);
		pt_ljoin_seal(&k);
		plain = pt_ljoin_bytes(&k);
		pt_ljoin_call(&k, 7, 1, 2);
		assert_int_equal(pt_ljoin_name(&k, 0), 0); /* names not kept */
		pt_ljoin_free(&k);
	}
	pt_ljoin_keep_names(&j);
	pt_ljoin_seal(&j);
	assert_int_equal(pt_ljoin_bytes(&j), plain + 3 * sizeof(uint32_t));
	pt_ljoin_call_named(&j, 9, 30, 31, 44);
	pt_ljoin_call_named(&j, 9, 20, 21, 55);
	pt_ljoin_call(&j, 7, 10, 11); /* no name: 0 */
	assert_int_equal(pt_ljoin_name(&j, pt_ljoin_slot(&j, 9)), 44);
	assert_true(pt_ljoin_get(&j, pt_ljoin_slot(&j, 9), &s, &e));
	assert_int_equal(s, 30);
	assert_int_equal(pt_ljoin_name(&j, pt_ljoin_slot(&j, 7)), 0);
	assert_int_equal(pt_ljoin_name(&j, pt_ljoin_slot(&j, 8)), 0); /* no call came */
	assert_int_equal(pt_ljoin_name(&j, SIZE_MAX), 0);
	pt_ljoin_free(&j);

	/* dense ids: the slots are the counts of the bits before them, over several words of bits; the
	 * sorted ids and buckets go */
	pt_ljoin_init(&j);
	for (uint64_t i = 0; i < 300; i++)
		pt_ljoin_want(&j, 1000 + 3 * i);
	pt_ljoin_seal(&j);
	assert_non_null(j.bits);
	assert_non_null(j.rank);
	assert_null(j.id);
	assert_null(j.bucket);
	for (uint64_t i = 0; i < 300; i++) {
		assert_int_equal(pt_ljoin_slot(&j, 1000 + 3 * i), (size_t)i);
		assert_int_equal(pt_ljoin_slot(&j, 1001 + 3 * i), SIZE_MAX);
	}
	assert_int_equal(pt_ljoin_slot(&j, 999), SIZE_MAX);
	assert_int_equal(pt_ljoin_bytes(&j), 300 * 2 * sizeof(int64_t) + ((897 / 64) + 1) * (8 + 4));
	pt_ljoin_free(&j);

	/* compact slots: a 4-byte duration and a 2-byte name, the same calls as the plain slots; a name or
	 * a duration that does not fit widens its column, every slot kept */
	for (int wide = 0; wide < 3; wide++) {
		struct pt_ljoin c;
		pt_ljoin_init(&c);
		for (uint64_t i = 1; i <= 5; i++)
			pt_ljoin_want(&c, i);
		pt_ljoin_keep_names(&c);
		pt_ljoin_compact(&c);
		pt_ljoin_seal(&c);
		assert_int_equal(pt_ljoin_bytes(&c), 5 * (8 + 4 + 2) + 8 + 4);
		pt_ljoin_call_named(&c, 1, -50, -40, 7);
		pt_ljoin_call_named(&c, 2, 100, 100 + (int64_t)UINT32_MAX, UINT16_MAX);
		pt_ljoin_call_named(&c, 2, 1, 2, 3); /* the first call wins */
		if (wide == 1)
			pt_ljoin_call_named(&c, 3, 10, 10 + (int64_t)UINT32_MAX + 1, 9);
		if (wide == 2)
			pt_ljoin_call_named(&c, 3, 10, 20, UINT16_MAX + 1);
		assert_true(c.dur != NULL || wide == 1);
		assert_true(c.name16 != NULL || wide == 2);
		pt_ljoin_call_named(&c, 4, 5, 5, 1);
		assert_true(pt_ljoin_get(&c, 0, &s, &e));
		assert_int_equal(s, -50);
		assert_int_equal(e, -40);
		assert_int_equal(pt_ljoin_name(&c, 0), 7);
		assert_true(pt_ljoin_get(&c, 1, &s, &e));
		assert_int_equal(s, 100);
		assert_int_equal(e, 100 + (int64_t)UINT32_MAX);
		assert_int_equal(pt_ljoin_name(&c, 1), UINT16_MAX);
		if (wide) {
			assert_true(pt_ljoin_get(&c, 2, &s, &e));
			assert_int_equal(e, wide == 1 ? 10 + (int64_t)UINT32_MAX + 1 : 20);
			assert_int_equal(pt_ljoin_name(&c, 2), wide == 1 ? 9 : UINT16_MAX + 1);
		} else {
			assert_false(pt_ljoin_get(&c, 2, &s, &e));
		}
		assert_true(pt_ljoin_get(&c, 3, &s, &e));
		assert_int_equal(e, 5);
		assert_false(pt_ljoin_get(&c, 4, &s, &e));
		assert_int_equal(pt_ljoin_name(&c, 4), 0);
		/* the last call of an id wins there, its name kept */
		assert_int_equal(pt_ljoin_call_last(&c, 1, 60, 61), 0);
		assert_true(pt_ljoin_get(&c, 0, &s, &e));
		assert_int_equal(s, 60);
		assert_int_equal(e, 61);
		assert_int_equal(pt_ljoin_name(&c, 0), 7);
		pt_ljoin_free(&c);
	}

	/* nothing wanted: every id misses */
	pt_ljoin_init(&j);
	pt_ljoin_seal(&j);
	assert_int_equal(pt_ljoin_slot(&j, 1), SIZE_MAX);
	pt_ljoin_call(&j, 1, 1, 2);
	pt_ljoin_free(&j);
}

/* ---- GPU models read as a stream: the same tables as in memory, or read whole ---- */

static char *write_ptm(const struct pt_model *m, const char *name)
{
	char *path = pt_xasprintf("%s/pt-gstream-%ld-%s.ptm", P_tmpdir, (long)getpid(), name);
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	return path;
}

/* The steps and perf CSV of model file path, streamed (asserting it streamed when `streams`). */
static char *stream_csv(const char *path, const struct pt_sel *sel, bool streams)
{
	struct pt_table *t[2] = { NULL, NULL };
	size_t n = 0;
	struct pt_model *whole = NULL;
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_steps_stream(PT_PTM_SOURCE(path), sel, t, &n, &whole, &d, &e), 0);
	if (!streams) {
		assert_non_null(whole);
		pt_model_free(whole);
		pt_diag_free(&d);
		return NULL;
	}
	assert_null(whole);
	struct pt_perf_opts po = { 0, 0 };
	assert_int_equal(pt_pass_perf_stream(PT_PTM_SOURCE(path), sel, &po, &t[n], &whole, &d, &e), 0);
	assert_null(whole);
	char *csv = render(t, n + 1, PT_FMT_CSV);
	for (size_t i = 0; i <= n; i++)
		pt_table_free(t[i]);
	pt_diag_free(&d);
	return csv;
}

static char *memory_csv(const struct pt_model *m, const struct pt_sel *sel)
{
	struct pt_table *t[3] = { steps1(m, sel), NULL, NULL };
	struct pt_perf_opts po = { 0, 0 };
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_perf(m, sel, &po, &t[1], &d, &e), 0);
	char *csv = render(t, 2, PT_FMT_CSV);
	pt_table_free(t[0]);
	pt_table_free(t[1]);
	pt_diag_free(&d);
	return csv;
}

static void test_gpu_stream(void **state)
{
	(void)state;
	for (int ranges = 0; ranges < 2; ranges++) {
		struct gpu_fx g = gpu_model(ranges);
		/* a kernel launched by a call that comes after it, one whose id names no call, one with none */
		gpu_act(&g, PT_EV_KERNEL, "gemm", 3910, 3950, g.s7, 30);
		gpu_api(&g, "cudaLaunchKernel", 3905, 3908, 30);
		gpu_act(&g, PT_EV_KERNEL, "gemm", 3960, 3970, g.s8, 31);
		gpu_act(&g, PT_EV_MEMSET, NULL, 3980, 3990, g.s8, 0);
		char *path = write_ptm(g.m, ranges ? "ranges" : "boundaries");
		struct pt_sel sel;
		for (int v = 0; v < 3; v++) {
			sel_init(&sel);
			if (v == 1) { /* --steps 2-3 */
				sel.steps_given = true;
				sel.step_a = 2;
				sel.step_b = 3;
			} else if (v == 2) { /* --time-window 1500: */
				sel.window_given = sel.win_has_a = true;
				sel.win_a = 1500;
			}
			char *a = stream_csv(path, &sel, true), *b = memory_csv(g.m, &sel);
			assert_string_equal(a, b);
			free(a);
			free(b);
		}
		unlink(path);
		free(path);
		pt_model_free(g.m);
	}
	/* a second process and a GPU device that records none: its host by the vote of its launches,
	 * streamed as in memory */
	struct gpu_fx g = gpu_model(true);
	uint32_t h2 = pt_model_device(g.m, PT_DEV_CPU, 2);
	pt_model_track(g.m, h2, PT_TRACK_HOST_THREAD, 2, "thread 2");
	char *path = write_ptm(g.m, "two-hosts");
	struct pt_sel sel;
	sel_init(&sel);
	char *a = stream_csv(path, &sel, true), *b = memory_csv(g.m, &sel);
	assert_string_equal(a, b);
	free(a);
	free(b);
	unlink(path);
	free(path);
	pt_model_free(g.m);
	/* what only the in-memory pass reads: a communication range */
	/* a range that names communication but has no range record: no communication range, streamed */
	g = gpu_model(true);
	gpu_range(&g, "nccl:all_reduce", 3400, 3420);
	path = write_ptm(g.m, "comm-name");
	a = stream_csv(path, &sel, true);
	b = memory_csv(g.m, &sel);
	assert_string_equal(a, b);
	free(a);
	free(b);
	unlink(path);
	free(path);
	pt_model_free(g.m);
	/* an Operator range of a communication name on a second thread (its record after the events): the
	 * kernel whose call starts with it (and comes before it in the file) is communication, streamed as
	 * in memory (the first thread's events are not in start order: no matter); that thread out of
	 * start order too (its communication ranges taken by a read of their own, comm-attr.h) */
	for (int late = 0; late < 2; late++) {
		g = gpu_model(true);
		uint32_t t2 = pt_model_track(g.m, g.host, PT_TRACK_HOST_THREAD, 2, "thread 2");
		uint32_t launch = pt_model_str(g.m, "cudaLaunchKernel");
		pt_model_add_event(g.m, t2, launch, PT_EV_API, 3600, 5, 50, PT_NONE, 0);
		gpu_act(&g, PT_EV_KERNEL, "allreduce_add", 3700, 3710, g.s8, 50);
		if (late)
			pt_model_add_event(g.m, t2, launch, PT_EV_API, 3100, 5, 51, PT_NONE, 0);
		pt_model_add_event(g.m, t2, pt_model_str(g.m, "c10d::allreduce_"), PT_EV_RANGE, 3600, 20, 0, PT_NONE, 0);
		struct pt_range_info ri = { (uint32_t)(g.m->events.n - 1), pt_model_str(g.m, "Operator"), 0, 0, 0, 0, 0 };
		pt_model_add_range(g.m, &ri);
		path = write_ptm(g.m, "comm-range");
		a = stream_csv(path, &sel, true);
		b = memory_csv(g.m, &sel);
		assert_string_equal(a, b);
		/* step 3: communication 300 ns with the kernel of id 50 (290 without), computation 300 */
		assert_non_null(strstr(a, "\n0,0,3,3000,4000,1000,300,400,600,400,0,0,300,300,"));
		free(a);
		free(b);
		unlink(path);
		free(path);
		pt_model_free(g.m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_select_nothing),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_gpu_coverage),
		cmocka_unit_test(test_gpu_case_88),
		cmocka_unit_test(test_gpu_boundaries),
		cmocka_unit_test(test_gpu_pattern),
		cmocka_unit_test(test_ljoin),
		cmocka_unit_test(test_gpu_stream),
		cmocka_unit_test(test_gpu_ranks_by_pid),
		cmocka_unit_test(test_ascend_sums),
		cmocka_unit_test(test_ascend_multi_device),
		cmocka_unit_test(test_fixture_job1),
		cmocka_unit_test(test_fixture_error_job),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
