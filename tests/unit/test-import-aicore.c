/*
 * The AI Core PMU reader (ascend.md §2.9): record layout, task-key join,
 * padding, truncated tail, empty file, and the model side table through
 * .ptm write/read and dump.
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

#include "import/ascend.h"
#include "model/dump.h"
#include "model/ptm.h"
#include "support/out.h"
#include "support/xalloc.h"

struct fx {
	char dir[64];
	char path[128];
	struct pt_model *m;
	struct pt_diag diag;
	struct pt_ascend_opts opts;
	struct pt_ascend_ctx ctx;
	struct pt_ascend_dev d;
};

static int setup(void **state)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-aicore-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/aicore.data.0.slice_0", f->dir);
	f->m = pt_model_new();
	f->opts.device = -1;
	f->ctx.m = f->m;
	f->ctx.diag = &f->diag;
	f->ctx.opts = &f->opts;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, 0);
	f->d.era = PT_ERA_TEXT;
	pt_hashmap_init(&f->d.task_op);
	pt_hashmap_init(&f->d.point_op);
	/* op 0 has task key 5_1; op 1 key 30001 (>= 25000: no stream) */
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.name = pt_model_str(f->m, "Default/MatMul-op1");
	op.type = pt_model_str(f->m, "MatMul");
	pt_hashmap_put(&f->d.task_op, pt_ascend_task_key(PT_ERA_TEXT, 5, 1), pt_model_add_op(f->m, &op), NULL);
	memset(&op, 0, sizeof(op));
	op.name = pt_model_str(f->m, "Default/Mul-op2");
	op.type = pt_model_str(f->m, "Mul");
	pt_hashmap_put(&f->d.task_op, pt_ascend_task_key(PT_ERA_TEXT, 0, 30001), pt_model_add_op(f->m, &op), NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	unlink(f->path);
	rmdir(f->dir);
	pt_slices_free(&f->d.files[PT_AK_AICORE]);
	pt_hashmap_free(&f->d.task_op);
	pt_hashmap_free(&f->d.point_op);
	pt_diag_free(&f->diag);
	pt_model_free(f->m);
	free(f);
	return 0;
}

static void rec(unsigned char *p, uint32_t stream, uint16_t task, const uint64_t pmu[8])
{
	memset(p, 0, 128);
	p[0] = 0x11; /* unused leading bytes must not matter */
	p[6] = (unsigned char)task;
	p[7] = (unsigned char)(task >> 8);
	for (int k = 0; k < 8; k++)
		for (int b = 0; b < 8; b++)
			p[32 + 8 * k + b] = (unsigned char)(pmu[k] >> (8 * b));
	for (int b = 0; b < 4; b++)
		p[96 + b] = (unsigned char)(stream >> (8 * b));
}

static void write_file(struct fx *f, const unsigned char *p, size_t n)
{
	FILE *fp = fopen(f->path, "wb");
	assert_non_null(fp);
	if (n)
		assert_int_equal(fwrite(p, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
	pt_slices_add(&f->d.files[PT_AK_AICORE], f->path);
}

static void test_records(void **state)
{
	struct fx *f = *state;
	unsigned char buf[128 * 5 + 40];
	const uint64_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[8] = { 0x100000000ULL, 0, 0, 0, 0, 0, 0, 0 };
	rec(buf, 5, 1, a);
	rec(buf + 128, 7, 30001, b);     /* joined without its stream */
	memset(buf + 256, 0, 128);       /* padding */
	rec(buf + 384, 9, 77, a);        /* unknown task */
	rec(buf + 512, 6, 1, a);         /* key 6_1: unknown */
	memset(buf + 640, 0xEE, 40);     /* truncated tail */
	write_file(f, buf, sizeof(buf));
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicore(&f->ctx, &f->d, &e), 0);
	assert_int_equal(f->m->aicore.n, 4);
	const struct pt_aicore *r = f->m->aicore.v;
	assert_int_equal(r[0].op, 1);
	assert_int_equal(r[0].stream, 5);
	assert_int_equal(r[0].task, 1);
	for (int k = 0; k < 8; k++)
		assert_int_equal(r[0].pmu[k], a[k]);
	assert_int_equal(r[1].op, 2);
	assert_int_equal(r[1].pmu[0], 0x100000000ULL);
	assert_int_equal(r[2].op, 0);
	assert_int_equal(r[3].op, 0);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.records", -1), 4);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.joined", -1), 2);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.unknown_tasks", -1), 2);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.zero_records", -1), 1);
	/* two warnings: the padding at 256 and the tail at 640 */
	assert_int_equal(f->diag.n, 2);
	assert_int_equal(f->diag.v[0].first, 256);
	assert_int_equal(f->diag.v[1].first, 640);
	assert_non_null(strstr(f->diag.v[1].what, "40 bytes"));

	/* the side table survives .ptm write/read and shows in the dump */
	char mp[160];
	snprintf(mp, sizeof(mp), "%s/m.ptm", f->dir);
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, mp, &e), 0);
	assert_int_equal(pt_ptm_write(f->m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	struct pt_model *m2 = NULL;
	assert_int_equal(pt_ptm_read(mp, &m2, &e), 0);
	unlink(mp);
	assert_int_equal(m2->aicore.n, 4);
	assert_memory_equal(m2->aicore.v, f->m->aicore.v, 4 * sizeof(struct pt_aicore));
	char dp[160];
	snprintf(dp, sizeof(dp), "%s/dump", f->dir);
	assert_int_equal(pt_out_open(&o, dp, &e), 0);
	pt_model_dump(m2, &o);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	FILE *fp = fopen(dp, "r");
	char line[512];
	int found = 0;
	while (fgets(line, sizeof(line), fp))
		found += !strcmp(line, "aicore device=0 op=0 stream=5 task=1 pmu=1,2,3,4,5,6,7,8\n") ||
			 !strcmp(line, "aicore device=0 op=- stream=9 task=77 pmu=1,2,3,4,5,6,7,8\n");
	fclose(fp);
	unlink(dp);
	assert_int_equal(found, 2);
	pt_model_free(m2);
}

static void test_empty(void **state)
{
	struct fx *f = *state;
	write_file(f, NULL, 0);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicore(&f->ctx, &f->d, &e), 0);
	assert_int_equal(f->m->aicore.n, 0);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.records", -1), 0);
	assert_int_equal(pt_model_stat_get(f->m, 0, "aicore.files", -1), 1);
	assert_int_equal(f->diag.n, 0);
}

static void test_unreadable(void **state)
{
	struct fx *f = *state;
	pt_slices_add(&f->d.files[PT_AK_AICORE], "/nonexistent/aicore.data.0.slice_0");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicore(&f->ctx, &f->d, &e), -1);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "aicore.data.0.slice_0"));
	free(s);
	pt_err_free(e);
}

static void test_binary_era_key(void **state)
{
	struct fx *f = *state;
	/* binary era: the key always carries the stream (threshold 65536) */
	f->d.era = PT_ERA_BINARY;
	pt_hashmap_put(&f->d.task_op, pt_ascend_task_key(PT_ERA_BINARY, 7, 30001), 1, NULL);
	unsigned char buf[256];
	const uint64_t a[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	rec(buf, 7, 30001, a);
	rec(buf + 128, 8, 30001, a);
	write_file(f, buf, sizeof(buf));
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicore(&f->ctx, &f->d, &e), 0);
	assert_int_equal(f->m->aicore.v[0].op, 2);
	assert_int_equal(f->m->aicore.v[1].op, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_binary_era_key, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
