/*
 * MEMORY2 rows packed (model/gpu-mem-pack.h): every row reads back as packed,
 * in order, out of order and backwards; a model whose rows stay packed writes
 * the same .ptm bytes and replays the same memory counters as one whose rows
 * are in m->gpu_mem.
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

#include "model/gpu-mem-pack.h"
#include "model/gpu-memory.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/out.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Row i of a deterministic mix: small and extreme values, times going back and forth. */
static struct pt_gpu_mem row_of(size_t i, uint64_t *s)
{
	struct pt_gpu_mem g;
	memset(&g, 0, sizeof(g));
	uint64_t x = rnd(s);
	g.device = (uint32_t)(x % 3);
	g.op = (uint8_t)(x >> 8);
	g.mem_kind = (uint8_t)(x >> 16);
	g.pool_type = (uint8_t)(x >> 24);
	g.corr = i % 7 == 0 ? UINT32_MAX - (uint32_t)i : (uint32_t)(x >> 32);
	g.pid = (uint32_t)rnd(s);
	g.stream = (uint32_t)i;
	g.time = i % 11 == 0 ? INT64_MIN + (int64_t)i : i % 13 == 0 ? INT64_MAX - (int64_t)i : (int64_t)(rnd(s) % 1000000);
	g.address = rnd(s);
	g.bytes = i % 5 == 0 ? UINT64_MAX : rnd(s) >> (i % 64);
	g.pc = rnd(s);
	g.pool_address = i % 2 ? 0 : rnd(s);
	g.pool_threshold = rnd(s);
	g.pool_size = rnd(s) >> 20;
	g.pool_utilized = rnd(s) >> 30;
	g.name = (uint32_t)rnd(s);
	g.source = (uint32_t)i;
	return g;
}

static void assert_row(const struct pt_gpu_mem *a, const struct pt_gpu_mem *b)
{
	assert_int_equal(a->device, b->device);
	assert_int_equal(a->op, b->op);
	assert_int_equal(a->mem_kind, b->mem_kind);
	assert_int_equal(a->pool_type, b->pool_type);
	assert_int_equal(a->corr, b->corr);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->stream, b->stream);
	assert_true(a->time == b->time);
	assert_true(a->address == b->address);
	assert_true(a->bytes == b->bytes);
	assert_true(a->pc == b->pc);
	assert_true(a->pool_address == b->pool_address);
	assert_true(a->pool_threshold == b->pool_threshold);
	assert_true(a->pool_size == b->pool_size);
	assert_true(a->pool_utilized == b->pool_utilized);
	assert_int_equal(a->name, b->name);
	assert_int_equal(a->source, b->source);
}

static void test_cursor(void **state)
{
	(void)state;
	enum { N = 1000 };
	struct pt_gpu_mem *want = calloc(N, sizeof(*want));
	struct pt_gpu_mem_pack p = { 0 };
	uint64_t s = 88172645463325252ull;
	for (size_t i = 0; i < N; i++) {
		want[i] = row_of(i, &s);
		pt_gpu_mem_pack_add(&p, &want[i]);
	}
	assert_int_equal(p.n, N);
	assert_true(p.len < N * sizeof(struct pt_gpu_mem)); /* packed is smaller, even for this mix */
	struct pt_gpu_mem_cursor c;
	pt_gpu_mem_cursor_init(&c, &p);
	for (size_t i = 0; i < N; i++) /* in order */
		assert_row(pt_gpu_mem_cursor_at(&c, i), &want[i]);
	for (size_t i = N; i-- > 0;) /* backwards */
		assert_row(pt_gpu_mem_cursor_at(&c, i), &want[i]);
	for (size_t k = 0; k < 5000; k++) { /* anywhere, the same row twice included */
		size_t i = rnd(&s) % N;
		assert_row(pt_gpu_mem_cursor_at(&c, i), &want[i]);
		assert_row(pt_gpu_mem_cursor_at(&c, i), &want[i]);
	}
	/* the heads: device, operation and time of each row, in order */
	struct pt_gpu_mem_heads h;
	struct pt_gpu_mem_head x;
	pt_gpu_mem_heads_init(&h, &p);
	size_t nh = 0;
	while (pt_gpu_mem_heads_next(&h, &x)) {
		assert_int_equal(x.device, want[nh].device);
		assert_int_equal(x.op, want[nh].op);
		assert_true(x.time == want[nh].time);
		nh++;
	}
	assert_int_equal(nh, N);
	pt_gpu_mem_heads_init(&h, NULL); /* a model without packed rows has none */
	assert_false(pt_gpu_mem_heads_next(&h, &x));
	/* unpacked to a model: the same rows after those already there */
	struct pt_model *m = pt_model_new();
	pt_vec_push(&m->gpu_mem, want[N - 1]);
	pt_gpu_mem_unpack(m, &p);
	assert_int_equal(p.n, 0);
	assert_null(p.b);
	assert_int_equal(m->gpu_mem.n, N + 1);
	for (size_t i = 0; i < N; i++)
		assert_row(&m->gpu_mem.v[i + 1], &want[i]);
	pt_model_free(m);
	free(want);
}

static void test_keep_packed(void **state)
{
	(void)state;
	enum { A = 40, B = 37 };
	struct pt_gpu_mem want[A + B];
	uint64_t s = 2463534242ull;
	struct pt_gpu_mem_pack p = { 0 }, q = { 0 };
	for (size_t i = 0; i < A + B; i++) {
		want[i] = row_of(i, &s);
		pt_gpu_mem_pack_add(i < A ? &p : &q, &want[i]);
	}
	struct pt_model *m = pt_model_new();
	assert_int_equal(pt_model_gpu_mem_n(m), 0);
	pt_gpu_mem_keep_packed(m, &p); /* the first dump's pack becomes the model's */
	assert_int_equal(p.n, 0);
	pt_gpu_mem_keep_packed(m, &q); /* the next ones are appended */
	assert_int_equal(q.n, 0);
	assert_int_equal(m->gpu_mem.n, 0);
	assert_int_equal(pt_model_gpu_mem_n(m), A + B);
	struct pt_gpu_mem_cursor c;
	pt_gpu_mem_cursor_init(&c, m->gpu_mem_pack);
	for (size_t i = 0; i < A + B; i++)
		assert_row(pt_model_gpu_mem(m, &c, i), &want[i]);
	pt_model_free(m);
}

/* A GPU device's allocations and releases: over-opened blocks, an unmatched
 * release, a release in another group, equal times, a LOCAL pool. */
static void add_rows(struct pt_model *m, uint32_t gpu, struct pt_gpu_mem_pack *p)
{
	static const struct {
		uint8_t op, kind, pool;
		int64_t t;
		uint64_t addr, bytes;
	} r[] = {
		{ PT_GMEM_ALLOC, 3, 0, 10, 0x100, 100 },   { PT_GMEM_ALLOC, 3, 0, 20, 0x200, 50 },
		{ PT_GMEM_RELEASE, 3, 0, 30, 0x100, 100 }, { PT_GMEM_RELEASE, 3, 0, 40, 0x999, 1 },
		{ PT_GMEM_ALLOC, 3, 0, 30, 0x300, 70 },    { PT_GMEM_ALLOC, 5, 0, 35, 0x400, 1000 },
		{ PT_GMEM_ALLOC, 3, 0, 36, 0x200, 60 },    { PT_GMEM_RELEASE, 2, 0, 37, 0x400, 1000 },
		{ PT_GMEM_ALLOC, 2, 0, 38, 0x500, 8 },     { PT_GMEM_ALLOC, 3, 1, 39, 0x600, 4096 },
		{ PT_GMEM_RELEASE, 3, 1, 45, 0x600, 4096 }, { PT_GMEM_RELEASE, 3, 0, 5, 0x200, 50 },
	};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		struct pt_gpu_mem g = { 0 };
		g.device = gpu;
		g.pid = 4242;
		g.op = r[i].op;
		g.mem_kind = r[i].kind;
		g.pool_type = r[i].pool;
		g.pool_address = r[i].pool ? 0xa000 : 0;
		g.pool_size = r[i].pool ? 8192 : 0;
		g.time = r[i].t;
		g.address = r[i].addr;
		g.bytes = r[i].bytes;
		g.corr = (uint32_t)i + 1;
		if (p)
			pt_gpu_mem_pack_add(p, &g);
		else
			pt_vec_push(&m->gpu_mem, g);
	}
}

static struct pt_model *model(bool packed)
{
	struct pt_model *m = pt_model_new();
	uint32_t cpu = pt_model_device(m, PT_DEV_CPU, 4242);
	uint32_t gpu = pt_model_device(m, PT_DEV_GPU, 0);
	m->devices.v[cpu].pid = m->devices.v[gpu].pid = 4242;
	struct pt_gpu_mem_pack p = { 0 };
	add_rows(m, gpu, packed ? &p : NULL);
	if (packed)
		pt_gpu_mem_keep_packed(m, &p);
	struct pt_gpu_pool pl = { gpu, PT_GPOOL_CREATED, 1, false, 0, 4242, 1, 0xa000, 8192, 0, 0, 0 };
	pt_vec_push(&m->gpu_pools, pl);
	return m;
}

struct points {
	struct pt_gmem_point v[64];
	size_t n;
};

static void on_point(void *ctx, const struct pt_gmem_point *p)
{
	struct points *x = ctx;
	assert_true(x->n < 64);
	x->v[x->n++] = *p;
}

static void test_replay(void **state)
{
	(void)state;
	struct pt_model *a = model(false), *b = model(true);
	assert_int_equal(b->gpu_mem.n, 0);
	/* what the memory pass keeps: every row of the full run */
	struct pt_gmem_state r;
	pt_gmem_state_init(a, 1, &r);
	pt_gmem_state_run(a, &r, true, 0, -1, NULL);
	struct points want = { 0 };
	for (size_t i = 0; i < r.rows.n; i++) {
		const struct pt_gmem_row *g = &r.rows.v[i];
		if (g->what != PT_GMEM_RS_ALLOC && g->what != PT_GMEM_RS_RELEASE)
			continue;
		const struct pt_gpu_mem *rec = &a->gpu_mem.v[g->rec];
		want.v[want.n++] = (struct pt_gmem_point){ g->rec, pt_gmem_group_of(rec->mem_kind), rec->time,
							   g->allocated, g->reserved };
	}
	assert_int_equal(r.over_open[PT_GMEM_DEVICE], 1);
	assert_int_equal(r.unmatched[PT_GMEM_DEVICE], 2);
	pt_gmem_state_free(&r);
	assert_true(want.n >= 9);
	/* the replay's points, handed over as they come, from rows in memory and packed */
	for (int k = 0; k < 2; k++) {
		struct points got = { 0 };
		pt_gmem_replay(k ? b : a, 1, on_point, &got);
		assert_int_equal(got.n, want.n);
		for (size_t i = 0; i < want.n; i++) {
			assert_int_equal(got.v[i].rec, want.v[i].rec);
			assert_int_equal(got.v[i].group, want.v[i].group);
			assert_true(got.v[i].time == want.v[i].time);
			assert_true(got.v[i].allocated == want.v[i].allocated);
			assert_true(got.v[i].reserved == want.v[i].reserved);
		}
	}
	pt_model_free(a);
	pt_model_free(b);
}

static uint8_t *written(const struct pt_model *m, size_t *len)
{
	char path[] = "/tmp/pt-gmp-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, path);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	close(fd);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t *b = malloc(1 << 20);
	*len = fread(b, 1, 1 << 20, f);
	fclose(f);
	unlink(path);
	return b;
}

static void test_write(void **state)
{
	(void)state;
	struct pt_model *a = model(false), *b = model(true);
	size_t la, lb;
	uint8_t *x = written(a, &la), *y = written(b, &lb);
	assert_true(la > 0 && la < (1 << 20));
	assert_int_equal(la, lb);
	assert_memory_equal(x, y, la);
	/* and the rows read back are the packed ones */
	char path[] = "/tmp/pt-gmp-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, y, lb), (ssize_t)lb);
	close(fd);
	struct pt_model *r = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read(path, &r, &e), 0);
	unlink(path);
	assert_int_equal(r->gpu_mem.n, a->gpu_mem.n);
	for (size_t i = 0; i < a->gpu_mem.n; i++)
		assert_row(&r->gpu_mem.v[i], &a->gpu_mem.v[i]);
	pt_model_free(r);
	free(x);
	free(y);
	pt_model_free(a);
	pt_model_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_keep_packed),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
