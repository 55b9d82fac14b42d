/*
 * proftool memory pass (ascend.md §3.13, cupti.md §6.11) over models built
 * with the builder: curve, peak node, holders, per-node figures, lifetime
 * rules; GPU pairing, peak, outstanding set with launching calls, pools;
 * and the model round trip (.ptm write/read) of the memory tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-memory.h"
#include "support/err.h"
#include "support/out.h"
#include "table/table.h"

static void node(struct pt_model *m, uint32_t g, const char *name, const uint64_t *out, uint32_t nout,
		 const uint64_t *ws, uint32_t nws)
{
	struct pt_mem_node nd = { g, pt_model_str(m, name), m->mem_nodes.n, (uint32_t)m->mem_ids.n, nout, 0, nws };
	for (uint32_t i = 0; i < nout; i++)
		pt_vec_push(&m->mem_ids, out[i]);
	nd.ws0 = (uint32_t)m->mem_ids.n;
	for (uint32_t i = 0; i < nws; i++)
		pt_vec_push(&m->mem_ids, ws[i]);
	pt_vec_push(&m->mem_nodes, nd);
}

static void tensor(struct pt_model *m, uint32_t g, uint64_t id, uint64_t size, uint64_t a, uint64_t b,
		   const char *life)
{
	struct pt_mem_tensor t = { g, id, size, pt_model_str(m, "Common"), a, b, pt_model_str(m, life) };
	pt_vec_push(&m->mem_tensors, t);
}

static struct pt_model *ascend_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	struct pt_mem_graph g = { d, 7, 1000, 1 << 20, 0, 0 };
	pt_vec_push(&m->mem_graphs, g);
	uint64_t o1[] = { 1 }, w1[] = { 2 }, o2[] = { 3 }, o3[] = { 4 };
	node(m, 0, "A-op1", o1, 1, w1, 1);
	node(m, 0, "B-op2", o2, 1, NULL, 0);
	node(m, 0, "C-op3", o3, 1, NULL, 0);
	tensor(m, 0, 1, 100, 0, 1, "LifeLongNone");
	tensor(m, 0, 2, 10, 0, 0, "LifeLongNone");
	tensor(m, 0, 3, 300, 1, 2, "LifeLongNone");
	tensor(m, 0, 4, 5, 2, 9, "LifeLongNone");       /* overlong: cut at 2 */
	tensor(m, 0, 5, 1, 0, 0, "LifeLongGraphAll");   /* every index */
	tensor(m, 0, 6, 7, 0, 1, "LifeLongGraphEnd");   /* 0..2 from life_start 0 */
	tensor(m, 0, 7, 50, 2, 1, "LifeLongNone");      /* reversed: ignored */
	tensor(m, 0, 8, 60, 0, 0, "Bogus");             /* unknown: ignored */
	return m;
}

static const struct pt_table *find(struct pt_table **t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i]->name, name))
			return t[i];
	fail_msg("no view %s", name);
	return NULL;
}

static int64_t ival(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	const struct pt_cell *x = &pt_table_row(t, r)[c]; /* rows made when read too */
	assert_int_equal(x->kind, PT_CELL_INT);
	return x->u.i;
}

static const char *sval(const struct pt_table *t, size_t r, const char *col)
{
	int c = pt_table_col(t, col);
	assert_true(c >= 0);
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	return x->kind == PT_CELL_STR ? x->u.s : NULL;
}

static void free_tables(struct pt_table **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pt_table_free(t[i]);
	free(t);
}

static void check_ascend(const struct pt_model *m)
{
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	/* used = 1000 + [100+10+1+7, 100+300+1+7, 300+5+1+7] = 1118, 1408, 1313 */
	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_TIME, -1, &t, &n, &e), 0);
	const struct pt_table *c = find(t, n, "memory_curve");
	assert_int_equal(c->nrows, 3);
	assert_int_equal(ival(c, 0, "used_bytes"), 1118);
	assert_int_equal(ival(c, 1, "used_bytes"), 1408);
	assert_int_equal(ival(c, 2, "used_bytes"), 1313);
	free_tables(t, n);

	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_POOL, -1, &t, &n, &e), 0);
	const struct pt_table *g = find(t, n, "memory_graphs");
	assert_int_equal(ival(g, 0, "peak_bytes"), 1408);
	assert_int_equal(ival(g, 0, "peak_node_index"), 1);
	assert_string_equal(sval(g, 0, "peak_node_name"), "B-op2");
	assert_int_equal(ival(g, 0, "allocations"), 8);
	const struct pt_table *h = find(t, n, "memory_holders");
	assert_int_equal(h->nrows, 4); /* 3 (300), 1 (100), 6 (7), 5 (1) */
	assert_int_equal(ival(h, 0, "tensor_id"), 3);
	assert_string_equal(sval(h, 0, "tensor_name"), "B-op2:0");
	assert_int_equal(ival(h, 1, "tensor_id"), 1);
	assert_int_equal(ival(h, 2, "tensor_id"), 6);
	assert_null(sval(h, 2, "tensor_name"));
	assert_int_equal(ival(h, 3, "tensor_id"), 5);
	free_tables(t, n);

	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_OP, -1, &t, &n, &e), 0);
	const struct pt_table *o = find(t, n, "memory_nodes");
	assert_int_equal(ival(o, 0, "change_bytes"), 118);
	assert_int_equal(ival(o, 0, "alloc_bytes"), 110);
	assert_int_equal(ival(o, 0, "allocations"), 2);
	assert_int_equal(ival(o, 2, "change_bytes"), -95);
	free_tables(t, n);
}

static void test_ascend(void **state)
{
	(void)state;
	struct pt_model *m = ascend_model();
	check_ascend(m);
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_POOL, 3, &t, &n, &e), -1); /* no device 3 */
	pt_err_free(e);
	free_tables(t, n);
	pt_model_free(m);
}

static void test_no_memory(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_POOL, -1, &t, &n, &e), -1);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "no memory data"));
	free(s);
	pt_err_free(e);
	pt_model_free(m);
}

/* GPU: chrome-trace.md §13.11's dump plus an API call, an unmatched release and a pool. */
static struct pt_model *gpu_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 4242);
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 4242;
	uint32_t tr = pt_model_track(m, cpu, PT_TRACK_HOST_THREAD, 4242, "t");
	pt_model_add_event(m, tr, pt_model_str(m, "ProfilerStep#5"), PT_EV_RANGE, 0, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, tr, pt_model_str(m, "aten::empty"), PT_EV_RANGE, 15, 10, 0, PT_NONE, 0);
	pt_model_add_event(m, tr, pt_model_str(m, "cudaMalloc_v3020"), PT_EV_API, 18, 3, 22, PT_NONE, 0);
	struct pt_gpu_mem r = { 0 };
	r.device = gpu;
	r.pid = 4242;
	r.mem_kind = 3;
	r.op = PT_GMEM_ALLOC, r.time = 10, r.address = 0x100, r.bytes = 100, r.corr = 21;
	pt_vec_push(&m->gpu_mem, r);
	r.op = PT_GMEM_ALLOC, r.time = 20, r.address = 0x200, r.bytes = 50, r.corr = 22;
	pt_vec_push(&m->gpu_mem, r);
	r.op = PT_GMEM_RELEASE, r.time = 30, r.address = 0x100, r.bytes = 100, r.corr = 0;
	pt_vec_push(&m->gpu_mem, r);
	r.op = PT_GMEM_RELEASE, r.time = 40, r.address = 0x999, r.bytes = 1, r.corr = 0; /* unmatched */
	pt_vec_push(&m->gpu_mem, r);
	r.op = PT_GMEM_ALLOC, r.time = 30, r.address = 0x300, r.bytes = 70, r.corr = 0; /* after the release at 30 */
	pt_vec_push(&m->gpu_mem, r);
	struct pt_gpu_pool p = { gpu, PT_GPOOL_CREATED, 1, false, 0, 4242, 5, 0xa000, 1000, 0, 0, 0 };
	pt_vec_push(&m->gpu_pools, p);
	p.op = PT_GPOOL_TRIMMED, p.time = 50, p.size = 400, p.min_keep = 300;
	pt_vec_push(&m->gpu_pools, p);
	return m;
}

static void check_gpu(const struct pt_model *m)
{
	struct pt_table **t;
	size_t n;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_POOL, -1, &t, &n, &e), 0);
	const struct pt_table *pk = find(t, n, "gpu_memory_peaks");
	assert_int_equal(pk->nrows, 1);
	assert_int_equal(ival(pk, 0, "peak_bytes"), 150);
	assert_int_equal(ival(pk, 0, "peak_time"), 20);
	assert_int_equal(ival(pk, 0, "peak_step"), 5);
	assert_int_equal(ival(pk, 0, "reserved_peak_bytes"), 1150);
	assert_int_equal(ival(pk, 0, "release_unmatched"), 1);
	assert_int_equal(ival(pk, 0, "live_at_end"), 2);
	assert_int_equal(ival(pk, 0, "live_bytes_at_end"), 120);
	const struct pt_table *os = find(t, n, "gpu_memory_outstanding");
	assert_int_equal(os->nrows, 2);
	assert_string_equal(sval(os, 0, "address"), "0x100");
	assert_string_equal(sval(os, 0, "call"), "<unknown>");
	assert_string_equal(sval(os, 1, "address"), "0x200");
	assert_string_equal(sval(os, 1, "call"), "cudaMalloc");
	assert_string_equal(sval(os, 1, "range"), "aten::empty");
	assert_int_equal(ival(os, 0, "age"), 10);
	const struct pt_table *pl = find(t, n, "gpu_memory_pools");
	assert_int_equal(ival(pl, 0, "trims"), 1);
	assert_int_equal(ival(pl, 0, "max_bytes"), 1000);
	free_tables(t, n);

	assert_int_equal(pt_pass_memory(m, PT_MEM_BY_TIME, -1, &t, &n, &e), 0);
	const struct pt_table *tl = find(t, n, "gpu_memory_timeline");
	assert_int_equal(tl->nrows, 5);
	/* at t=30 the release comes before the allocation */
	assert_string_equal(sval(tl, 2, "operation"), "release");
	assert_int_equal(ival(tl, 2, "allocated_bytes"), 50);
	assert_int_equal(ival(tl, 3, "allocated_bytes"), 120);
	assert_int_equal(ival(tl, 3, "reserved_bytes"), 1120);
	assert_string_equal(sval(tl, 4, "operation"), "release (unmatched)");
	/* the timeline's rows are made when read: an earlier row again replays from the start */
	assert_int_equal(ival(tl, 3, "allocated_bytes"), 120);
	assert_string_equal(sval(tl, 2, "operation"), "release");
	assert_int_equal(ival(tl, 2, "allocated_bytes"), 50);
	assert_string_equal(sval(tl, 4, "operation"), "release (unmatched)");
	assert_int_equal(ival(tl, 3, "reserved_bytes"), 1120);
	free_tables(t, n);
}

static void test_gpu(void **state)
{
	(void)state;
	struct pt_model *m = gpu_model();
	check_gpu(m);
	pt_model_free(m);
}

/* Round trip through a .ptm file: the same figures. */
static struct pt_model *roundtrip(const struct pt_model *m)
{
	char path[] = "/tmp/pt-mem-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, path);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	close(fd);
	struct pt_model *r = NULL;
	assert_int_equal(pt_ptm_read(path, &r, &e), 0);
	unlink(path);
	return r;
}

static void test_roundtrip(void **state)
{
	(void)state;
	struct pt_model *m = ascend_model();
	struct pt_model *r = roundtrip(m);
	assert_int_equal(r->mem_graphs.n, 1);
	assert_int_equal(r->mem_nodes.n, 3);
	assert_int_equal(r->mem_tensors.n, 8);
	assert_int_equal(r->mem_ids.n, m->mem_ids.n);
	check_ascend(r);
	pt_model_free(r);
	pt_model_free(m);
	m = gpu_model();
	r = roundtrip(m);
	assert_int_equal(r->gpu_mem.n, 5);
	assert_int_equal(r->gpu_pools.n, 2);
	assert_int_equal(r->gpu_mem.v[1].address, 0x200);
	assert_int_equal(r->gpu_pools.v[1].min_keep, 300);
	check_gpu(r);
	pt_model_free(r);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascend),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_gpu),
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
