/*
 * AI CPU (text and binary), AICPUMI (get_next) and TDT readers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/ascend.h"
#include "support/xalloc.h"

struct fx {
	char dir[64];
	struct pt_model *m;
	struct pt_diag diag;
	struct pt_ascend_opts opts;
	struct pt_ascend_ctx ctx;
	struct pt_ascend_dev d;
	int nfiles;
	char *made[16]; /* files this test wrote (only these are removed) */
};

static int setup(void **state)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-aicpu-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	f->opts.device = -1;
	f->ctx.m = f->m;
	f->ctx.diag = &f->diag;
	f->ctx.opts = &f->opts;
	f->d.id = 0;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, 0);
	f->d.freq_khz = 100000;
	pt_hashmap_init(&f->d.task_op);
	pt_hashmap_init(&f->d.point_op);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	for (int i = 0; i < f->nfiles; i++) {
		unlink(f->made[i]);
		free(f->made[i]);
	}
	for (int k = 0; k < PT_AK__N; k++)
		pt_slices_free(&f->d.files[k]);
	rmdir(f->dir);
	pt_hashmap_free(&f->d.task_op);
	pt_hashmap_free(&f->d.point_op);
	pt_diag_free(&f->diag);
	pt_model_free(f->m);
	free(f);
	return 0;
}

/* Write a file into the temp dir and add it as the next slice of `kind`. */
static void add_file(struct fx *f, enum pt_ascend_kind kind, const void *data, size_t len)
{
	char path[128];
	assert_true(f->nfiles < 16);
	snprintf(path, sizeof(path), "%s/f%d.slice_%zu", f->dir, f->nfiles, f->d.files[kind].n);
	f->made[f->nfiles++] = pt_xstrdup(path);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	if (len)
		assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
	pt_slices_add(&f->d.files[kind], path);
}

static const struct pt_diag_entry *find_diag(const struct pt_diag *d, const char *what)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].what, what))
			return &d->v[i];
	return NULL;
}

static int64_t stat_of(struct fx *f, const char *key)
{
	return pt_model_stat_get(f->m, (int32_t)f->d.dev, key, -999);
}

static const char *aicpu_name(struct fx *f, size_t i)
{
	return pt_model_strget(f->m, f->m->aicpu.v[i].name);
}

static void run_aicpu(struct fx *f)
{
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicpu(&f->ctx, &f->d, &e), 0);
	assert_null(e);
}

#define NODE3 "[2292299556] Node:InitData, Run tart:2298200409, Run end:2298200538"
#define THREAD(d, t)                                                                                         \
	"Thread[ 1] process device[0]:aicpu[ 0] task end, tickDrvTopHalf=38753260078,tickDrvBottomHalf=1, " \
	"tickBeforeRun=2,tickAfterRun=3, dispatchTime=" d " us, totalTime=" t " us."
#define NODE6                                                                                                \
	"[1] Node:Default/TruncatedNormal-op0, Run tart:4098200409, compute start:4098200509, memcpy "       \
	"start:4098200600, memcpy end:4098200606,Run end:4098200538"

static void test_text_both_layouts(void **state)
{
	struct fx *f = *state;
	static const char in[] = NODE3 "\0" THREAD("100", "1567") "\n\0" NODE6 "\n\0" THREAD("105", "1566") "\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	struct pt_model *m = f->m;
	assert_int_equal(m->aicpu.n, 2);
	assert_string_equal(aicpu_name(f, 0), "InitData");
	assert_string_equal(aicpu_name(f, 1), "TruncatedNormal");
	const struct pt_aicpu *a = &m->aicpu.v[0];
	assert_int_equal(a->serial, 1);
	assert_int_equal(a->device, f->d.dev);
	assert_int_equal(a->has, PT_AICPU_HAS_TIMES | PT_AICPU_HAS_TOTAL | PT_AICPU_HAS_DISPATCH);
	assert_int_equal(a->start, 2298200409000LL);
	assert_int_equal(a->end, 2298200538000LL);
	assert_int_equal(a->total_ns, 1567000);
	assert_int_equal(a->dispatch_ns, 100000);
	assert_int_equal(m->aicpu.v[1].serial, 2);
	assert_int_equal(m->aicpu.v[1].start, 4098200409000LL);
	assert_int_equal(m->aicpu.v[1].end, 4098200538000LL);
	/* events */
	assert_int_equal(m->events.n, 2);
	assert_int_equal(a->event, 1);
	assert_int_equal(m->aicpu.v[1].event, 2);
	assert_int_equal(m->events.kind[0], PT_EV_AICPU);
	assert_int_equal(m->events.start[0], 2298200409000LL);
	assert_int_equal(m->events.dur[0], 129000);
	assert_int_equal(m->events.name[1], m->aicpu.v[1].name);
	const struct pt_track *t = &m->tracks.v[m->events.track[0]];
	assert_int_equal(t->kind, PT_TRACK_AICPU);
	assert_int_equal(t->stream, -1);
	assert_string_equal(pt_model_strget(m, t->name), "AI CPU");
	assert_int_equal(stat_of(f, "aicpu.records"), 4);
	assert_int_equal(stat_of(f, "aicpu.ops"), 2);
	assert_int_equal(stat_of(f, "aicpu.total_ns"), 3133000);
	assert_int_equal(stat_of(f, "aicpu.thread_without_node"), 0);
	assert_int_equal(stat_of(f, "aicpu.node_without_thread"), 0);
	assert_int_equal(stat_of(f, "aicpu.skipped"), 0);
	assert_int_equal(f->diag.n, 0);
}

static void test_text_cycles(void **state)
{
	struct fx *f = *state;
	f->d.freq_khz = 19200; /* 19.2 MHz */
	static const char in[] = "Node:A, Run start:5 96, Run end:10 192\0" THREAD("1.5", "2") "\0"
				 /* only one cycle token: µs for both */
				 "Node:B, Run start:5 96, Run end:10\0" THREAD("1", "2") "\0"
				 /* cycles beyond int64 ns: µs */
				 "Node:C, Run start:1 18446744073709551615, Run end:2 18446744073709551615\0"
				 THREAD("1", "2") "\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 3);
	assert_int_equal(f->m->aicpu.v[0].start, 5000);
	assert_int_equal(f->m->aicpu.v[0].end, 10000);
	assert_int_equal(f->m->aicpu.v[0].dispatch_ns, 1500);
	assert_int_equal(f->m->aicpu.v[1].start, 5000);
	assert_int_equal(f->m->aicpu.v[1].end, 10000);
	assert_int_equal(f->m->aicpu.v[2].start, 1000);
	assert_int_equal(f->m->aicpu.v[2].end, 2000);
	assert_int_equal(f->diag.n, 0);
}

static void test_text_cycles_preferred(void **state)
{
	struct fx *f = *state;
	/* cycles disagree with µs: cycles win (100 MHz: ×10) */
	static const char in[] = "Node:A, Run start:5 1000, Run end:10 1003\0" THREAD("1", "2") "\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.v[0].start, 10000);
	assert_int_equal(f->m->aicpu.v[0].end, 10030);
	assert_int_equal(f->m->events.dur[0], 30);
}

static void test_node_without_thread(void **state)
{
	struct fx *f = *state;
	static const char in[] = "Node:A, Run start:1, Run end:2\0"
				 "Node:B, Run start:3, Run end:4\0" THREAD("1", "2") "\0"
				 "Node:C, Run start:5, Run end:6\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 1);
	assert_string_equal(aicpu_name(f, 0), "B");
	assert_int_equal(stat_of(f, "aicpu.node_without_thread"), 2);
	assert_int_equal(stat_of(f, "aicpu.skipped"), 2);
	const struct pt_diag_entry *w = find_diag(&f->diag, "Node records without a Thread");
	assert_non_null(w);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->pos, PT_POS_OFFSET);
	assert_int_equal(w->first, 0);
	assert_string_equal(w->file, f->d.files[PT_AK_AICPU].paths[0]);
}

static void test_thread_without_node(void **state)
{
	struct fx *f = *state;
	static const char in[] = THREAD("1", "2") "\0" THREAD("3", "4") "\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 0);
	assert_int_equal(f->m->events.n, 0);
	assert_int_equal(stat_of(f, "aicpu.thread_without_node"), 2);
	assert_int_equal(stat_of(f, "aicpu.records"), 2);
	assert_int_equal(stat_of(f, "aicpu.ops"), 0);
	assert_int_equal(f->diag.n, 0); /* a count, not a warning */
}

static void test_bad_numbers(void **state)
{
	struct fx *f = *state;
	static const char in[] = "Node:A, Run start:abc, Run end:2\0" THREAD("1", "2") "\0"
				 "Node:B, Run start:1, Run end:2\0" THREAD("x1", "2") "\0"
				 "Node:C, Run start:1, Run end:2\0Thread[1] a, b, c\0"
				 "Node:D, Run start:1, x, Run end:2\0" THREAD("1", "2") "\0"
				 "Node:E, Run start:1 2 3, Run end:2\0" THREAD("1", "2") "\0"
				 "garbage\0"
				 "Node:F, Run start:1, Run end:2\0" THREAD("7", "8") "\0";
	add_file(f, PT_AK_AICPU, in, sizeof(in) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 1);
	assert_string_equal(aicpu_name(f, 0), "F");
	assert_int_equal(f->m->aicpu.v[0].serial, 1);
	assert_int_equal(stat_of(f, "aicpu.skipped"), 6);
	const struct pt_diag_entry *w = find_diag(&f->diag, "Node records with unparsable values");
	assert_non_null(w);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->first, 0);
	assert_non_null(find_diag(&f->diag, "Thread records with unparsable values"));
	assert_non_null(find_diag(&f->diag, "field count other than 7"));
	assert_non_null(find_diag(&f->diag, "unknown field count"));
	assert_non_null(find_diag(&f->diag, "neither Node nor Thread"));
}

static void test_empty(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_AICPU, "", 0);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 0);
	assert_int_equal(stat_of(f, "aicpu.records"), 0);
	assert_int_equal(stat_of(f, "aicpu.ops"), 0);
	assert_int_equal(f->diag.n, 0);
}

static void test_text_split_slices(void **state)
{
	struct fx *f = *state;
	static const char a[] = "Node:A, Run start:1, Run end:2\0Thread[ 1] process, t=1,";
	static const char b[] = " t=2, t=3, t=4, dispatchTime=5 us, totalTime=6 us.\0Node:Z\0";
	add_file(f, PT_AK_AICPU, a, sizeof(a) - 1);
	add_file(f, PT_AK_AICPU, b, sizeof(b) - 1);
	run_aicpu(f);
	assert_int_equal(f->m->aicpu.n, 1);
	assert_int_equal(f->m->aicpu.v[0].total_ns, 6000);
	assert_int_equal(f->m->aicpu.v[0].dispatch_ns, 5000);
	const struct pt_diag_entry *w = find_diag(&f->diag, "without a Thread");
	assert_non_null(w);
	assert_string_equal(w->file, f->d.files[PT_AK_AICPU].paths[1]);
	assert_int_equal(w->first, sizeof(b) - 1 - 7);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static void bin_rec(uint8_t *r, uint16_t stream, uint16_t task, uint64_t rs, uint64_t rsc, uint64_t re, uint64_t rec,
		    uint32_t disp, uint32_t total)
{
	memset(r, 0, 128);
	put16(r, 0x5A5A);
	put16(r + 4, stream);
	put16(r + 6, task);
	put64(r + 8, rs);
	put64(r + 16, rsc);
	put64(r + 48, re);
	put64(r + 56, rec);
	put32(r + 108, disp);
	put32(r + 112, total);
}

static void test_binary(void **state)
{
	struct fx *f = *state;
	struct pt_model *m = f->m;
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = f->d.dev;
	op.name = pt_model_str(m, "Default/network/GetNext-op1");
	op.task_type = -1;
	uint32_t oi = pt_model_add_op(m, &op);
	bool added;
	*pt_hashmap_put(&f->d.task_op, pt_ascend_task_key(PT_ERA_BINARY, 2, 30000), oi, &added) = oi;

	uint8_t buf[128 * 4 + 40];
	bin_rec(buf, 2, 30000, 10, 100, 20, 250, 7, 9);    /* known, counters */
	bin_rec(buf + 128, 3, 9, 10, 0, 20, 0, 1, 2);      /* unknown task, µs */
	memset(buf + 256, 0, 128);                         /* no magic */
	bin_rec(buf + 384, 2, 30000, 50, 0, 40, 0, 1, 1);  /* end before start */
	memset(buf + 512, 0x5A, 40);                       /* truncated */
	/* the stream straddles two slices */
	add_file(f, PT_AK_AICPU, buf, 200);
	add_file(f, PT_AK_AICPU, buf + 200, sizeof(buf) - 200);
	run_aicpu(f);

	assert_int_equal(m->aicpu.n, 3);
	assert_string_equal(aicpu_name(f, 0), "GetNext-op1");
	assert_int_equal(m->aicpu.v[0].start, 1000);
	assert_int_equal(m->aicpu.v[0].end, 2500);
	assert_int_equal(m->aicpu.v[0].dispatch_ns, 7000);
	assert_int_equal(m->aicpu.v[0].total_ns, 9000);
	assert_int_equal(m->events.op[0], oi + 1);
	assert_int_equal(m->events.task[0], 30000);
	assert_string_equal(aicpu_name(f, 1), "3_9");
	assert_int_equal(m->aicpu.v[1].start, 10000);
	assert_int_equal(m->aicpu.v[1].end, 20000);
	assert_int_equal(m->aicpu.v[2].has, PT_AICPU_HAS_TOTAL | PT_AICPU_HAS_DISPATCH);
	assert_int_equal(m->aicpu.v[2].event, 0);
	assert_int_equal(m->events.n, 2);
	assert_int_equal(stat_of(f, "aicpu.records"), 4);
	assert_int_equal(stat_of(f, "aicpu.ops"), 3);
	assert_int_equal(stat_of(f, "aicpu.no_magic"), 1);
	assert_int_equal(stat_of(f, "aicpu.unknown_tasks"), 1);
	assert_int_equal(stat_of(f, "aicpu.total_ns"), 12000);
	assert_int_equal(stat_of(f, "aicpu.binary"), 1);
	const struct pt_diag_entry *w = find_diag(&f->diag, "without magic");
	assert_non_null(w);
	assert_string_equal(w->file, f->d.files[PT_AK_AICPU].paths[1]);
	assert_int_equal(w->first, 256 - 200);
	w = find_diag(&f->diag, "truncated records of 40 bytes");
	assert_non_null(w);
	assert_int_equal(w->first, 512 - 200);
	assert_non_null(find_diag(&f->diag, "unknown to the framework"));
}

/* --- AICPUMI --------------------------------------------------------------- */

static void run_aicpumi(struct fx *f)
{
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicpumi(&f->ctx, &f->d, &e), 0);
	assert_null(e);
}

static void test_aicpumi_layouts(void **state)
{
	struct fx *f = *state;
	struct pt_model *m = f->m;
	static const char in[] = "Node:GetNext_dequeue_wait, Run start:100, Run end:150, queue size:3\0"
				 "Node:GetNext_dequeue_wait, queue size:0, Run start:200, Run end:260\n\0"
				 "Node:X, Run start:oops, Run end:1, queue size:1\0"
				 "Node:X, Run start:1\0"
				 "\0";
	add_file(f, PT_AK_AICPUMI, in, sizeof(in) - 1);
	run_aicpumi(f);
	assert_int_equal(m->events.n, 2);
	assert_int_equal(m->events.kind[0], PT_EV_GETNEXT);
	assert_string_equal(pt_model_strget(m, m->events.name[0]), "GetNext_dequeue_wait");
	assert_int_equal(m->events.start[0], 100000);
	assert_int_equal(m->events.dur[0], 50000);
	assert_int_equal(m->events.start[1], 200000);
	assert_int_equal(m->events.dur[1], 60000);
	const struct pt_track *t = &m->tracks.v[m->events.track[0]];
	assert_int_equal(t->kind, PT_TRACK_QUEUE);
	assert_int_equal(t->stream, -1);
	assert_string_equal(pt_model_strget(m, t->name), "get_next");
	assert_int_equal(m->queues.n, 2);
	assert_int_equal(m->queues.track[0], m->events.track[0]);
	assert_int_equal(m->queues.time[0], 150000);
	assert_int_equal(m->queues.size[0], 3);
	assert_int_equal(m->queues.capacity[0], -1);
	assert_int_equal(m->queues.time[1], 260000);
	assert_int_equal(m->queues.size[1], 0);
	assert_int_equal(stat_of(f, "aicpumi.records"), 4);
	assert_int_equal(stat_of(f, "aicpumi.skipped"), 2);
	const struct pt_diag_entry *w = find_diag(&f->diag, "records with unparsable values");
	assert_non_null(w);
	assert_int_equal(w->first, 137);
	assert_non_null(find_diag(&f->diag, "skipped unparsable records"));
}

static void test_aicpumi_empty(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_AICPUMI, "", 0);
	run_aicpumi(f);
	assert_int_equal(f->m->events.n, 0);
	assert_int_equal(stat_of(f, "aicpumi.records"), 0);
	assert_int_equal(f->diag.n, 0);
}

/* --- TDT ------------------------------------------------------------------- */

static void test_tdt(void **state)
{
	struct fx *f = *state;
	struct pt_err *e = NULL;
	static const char in[] = "[1] Enqueue data to dp, source:ab-cd, index:1, size:10\0"
				 "[2] Enqueue data to dp, source:ab-cd, index:2, size:32\0"
				 "[3] Enqueue data to dp, source:ab-cd, index:3, size:x\0";
	add_file(f, PT_AK_TDT, in, sizeof(in) - 1);
	assert_int_equal(pt_ascend_read_tdt(&f->ctx, &f->d, &e), 0);
	assert_int_equal(stat_of(f, "tdt.records"), 3);
	assert_int_equal(stat_of(f, "tdt.bytes"), 42);
	assert_int_equal(stat_of(f, "tdt.unparsable"), 1);
	assert_non_null(find_diag(&f->diag, "without a parsable size"));
}

/* --- fixtures -------------------------------------------------------------- */

/* A fixture file under $PT_SHARED, or ../shared beside the source dir; NULL when absent. */
static char *fixture(const char *rel)
{
	const char *sh = getenv("PT_SHARED");
	char *p;
	if (sh) {
		p = pt_xasprintf("%s/fixtures/mindinsight/%s", sh, rel);
	} else {
		const char *src = __FILE__, *cut = strstr(src, "tests/unit/");
		int n = cut ? (int)(cut - src) : 0;
		p = pt_xasprintf("%.*s../shared/fixtures/mindinsight/%s", n, src, rel);
	}
	if (access(p, R_OK)) {
		free(p);
		return NULL;
	}
	return p;
}

static void test_fixture_job_aicpu(void **state)
{
	struct fx *f = *state;
	char *p = fixture("JOB_AICPU/data/DATA_PREPROCESS.dev.AICPU.0.slice_0");
	if (!p)
		skip();
	pt_slices_add(&f->d.files[PT_AK_AICPU], p);
	free(p);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicpu(&f->ctx, &f->d, &e), 0);
	struct pt_model *m = f->m;
	assert_int_equal(m->aicpu.n, 3);
	static const char *names[] = { "InitData", "GetNext", "TruncatedNormal" };
	static const int64_t total[] = { 1567000, 989000, 1566000 };
	static const int64_t disp[] = { 100000, 87000, 105000 };
	static const int64_t rs[] = { 2298200409, 2302769932, 4098200409 };
	static const int64_t re[] = { 2298200538, 2302769980, 4098200538 };
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(aicpu_name(f, i), names[i]);
		assert_int_equal(m->aicpu.v[i].serial, i + 1);
		assert_int_equal(m->aicpu.v[i].total_ns, total[i]);
		assert_int_equal(m->aicpu.v[i].dispatch_ns, disp[i]);
		assert_int_equal(m->aicpu.v[i].start, rs[i] * 1000);
		assert_int_equal(m->aicpu.v[i].end, re[i] * 1000);
	}
	assert_int_equal(stat_of(f, "aicpu.total_ns"), 4122000);
	assert_int_equal(f->diag.n, 0);
}

static void test_fixture_job3(void **state)
{
	struct fx *f = *state;
	char *a = fixture("JOB3/DATA_PREPROCESS.dev.AICPU.1.slice_0");
	char *mi = fixture("JOB3/data/DATA_PREPROCESS.dev.AICPUMI.1.slice_0");
	char *t = fixture("JOB3/DATA_PREPROCESS.dev.TDT.1.slice_0");
	if (!a || !mi || !t) {
		free(a);
		free(mi);
		free(t);
		skip();
	}
	pt_slices_add(&f->d.files[PT_AK_AICPU], a);
	pt_slices_add(&f->d.files[PT_AK_AICPUMI], mi);
	pt_slices_add(&f->d.files[PT_AK_TDT], t);
	free(a);
	free(mi);
	free(t);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_aicpu(&f->ctx, &f->d, &e), 0);
	assert_int_equal(pt_ascend_read_aicpumi(&f->ctx, &f->d, &e), 0);
	assert_int_equal(pt_ascend_read_tdt(&f->ctx, &f->d, &e), 0);
	assert_int_equal(stat_of(f, "aicpu.records"), 323);
	assert_int_equal(stat_of(f, "aicpu.thread_without_node"), 323);
	assert_int_equal(stat_of(f, "aicpu.ops"), 0);
	assert_int_equal(f->m->aicpu.n, 0);
	assert_int_equal(stat_of(f, "aicpumi.records"), 0);
	assert_int_equal(stat_of(f, "tdt.records"), 966);
	assert_int_equal(stat_of(f, "tdt.bytes"), 98587);
	assert_int_equal(f->m->events.n, 0);
	assert_int_equal(f->diag.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_both_layouts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_cycles_preferred, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_without_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_without_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_split_slices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_binary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aicpumi_layouts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aicpumi_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tdt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_job_aicpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_job3, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
