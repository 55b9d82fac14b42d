/* Unit tests of the HWTS task-log reader (ascend.md §2.1, §3.3, §5). */
#include <setjmp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "import/ascend.h"
#include "support/xalloc.h"

/* ---- fixture helpers ---- */

struct fx {
	char dir[64];
	struct pt_model *m;
	struct pt_diag diag;
	struct pt_ascend_opts opts;
	struct pt_ascend_ctx c;
	struct pt_ascend_dev d;
	uint8_t *buf;
	size_t len, cap;
};

static struct fx *fx_new(enum pt_ascend_era era, bool dynamic)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-hwts-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	f->opts.device = -1;
	f->c.m = f->m;
	f->c.diag = &f->diag;
	f->c.opts = &f->opts;
	f->d.id = 3;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, 3);
	f->d.era = era;
	f->d.dynamic_shape = dynamic;
	f->d.freq_khz = 100000;
	pt_hashmap_init(&f->d.task_op);
	pt_hashmap_init(&f->d.point_op);
	return f;
}

static void fx_free(struct fx *f)
{
	for (int k = 0; k < PT_AK__N; k++) {
		for (size_t i = 0; i < f->d.files[k].n; i++)
			unlink(f->d.files[k].paths[i]);
		pt_slices_free(&f->d.files[k]);
	}
	rmdir(f->dir);
	pt_hashmap_free(&f->d.task_op);
	pt_hashmap_free(&f->d.point_op);
	pt_diag_free(&f->diag);
	pt_model_free(f->m);
	free(f->buf);
	free(f);
}

static void put(struct fx *f, const void *p, size_t n)
{
	pt_xgrow((void **)&f->buf, &f->cap, f->len + n, 1);
	memcpy(f->buf + f->len, p, n);
	f->len += n;
}

/* One HWTS record (little-endian host). */
static void rec(struct fx *f, unsigned type, unsigned flag, uint16_t task, uint32_t stream, uint64_t cyc)
{
	uint8_t r[64];
	memset(r, 0, sizeof(r));
	r[0] = (uint8_t)((5u << 4) | (flag << 3) | (type & 7u));
	r[1] = 2;
	uint16_t blk = 0;
	memcpy(r + 4, &blk, 2);
	memcpy(r + 6, &task, 2);
	memcpy(r + 8, &cyc, 8);
	memcpy(r + 16, &stream, 4);
	if (type == 4)
		memcpy(r + 24, &cyc, 8);
	put(f, r, sizeof(r));
}

static void zero_rec(struct fx *f)
{
	uint8_t r[64] = { 0 };
	put(f, r, sizeof(r));
}

/* Write the buffer [from, to) as slice `n` and add it to the HWTS slices. */
static void write_slice(struct fx *f, size_t from, size_t to, int n)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/hwts.log.data.45.dev.profiler_default_tag.3.slice_%d", f->dir, n);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	if (to > from)
		assert_int_equal(fwrite(f->buf + from, 1, to - from, fp), to - from);
	fclose(fp);
	pt_slices_add(&f->d.files[PT_AK_HWTS], path);
}

static int run(struct fx *f)
{
	struct pt_err *e = NULL;
	int rc = pt_ascend_read_hwts(&f->c, &f->d, &e);
	if (rc) {
		char *s = pt_err_str(e);
		print_message("error: %s\n", s);
		free(s);
		pt_err_free(e);
	}
	return rc;
}

static int64_t stat_of(struct fx *f, const char *key)
{
	return pt_model_stat_get(f->m, (int32_t)f->d.dev, key, -999);
}

static const struct pt_diag_entry *diag_find(struct fx *f, const char *what)
{
	for (size_t i = 0; i < f->diag.n; i++)
		if (strstr(f->diag.v[i].what, what))
			return &f->diag.v[i];
	return NULL;
}

static uint32_t add_op(struct fx *f, const char *name)
{
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = f->d.dev;
	op.name = pt_model_str(f->m, name);
	op.task_type = -1;
	return pt_model_add_op(f->m, &op);
}

static void map_task(struct fx *f, uint32_t stream, uint64_t task, uint32_t op)
{
	pt_hashmap_put(&f->d.task_op, pt_ascend_task_key(f->d.era, stream, task), op, NULL);
}

static const char *ev_name(struct fx *f, size_t i)
{
	return pt_model_strget(f->m, f->m->events.name[i]);
}

static const char *track_name(struct fx *f, size_t i)
{
	return pt_model_strget(f->m, f->m->tracks.v[f->m->events.track[i]].name);
}

/* ---- tests ---- */

static void test_pairing_interleaved(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	uint32_t op = add_op(f, "Default/Conv2D-op1");
	map_task(f, 7, 1, op);

	rec(f, 0, 0, 1, 7, 100);  /* Start s7 t1 */
	rec(f, 0, 0, 1, 8, 110);  /* Start s8 t1 */
	rec(f, 1, 0, 1, 7, 200);  /* End s7 t1 */
	rec(f, 1, 0, 1, 8, 305);  /* End s8 t1 */
	rec(f, 0, 0, 2, 7, 400);
	rec(f, 1, 0, 2, 7, 400);  /* zero duration kept */
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);

	struct pt_events *ev = &f->m->events;
	assert_int_equal(ev->n, 3);
	/* events in order of their End */
	assert_int_equal(ev->kind[0], PT_EV_TASK);
	assert_int_equal(ev->start[0], 1000);
	assert_int_equal(ev->dur[0], 1000);
	assert_int_equal(ev->op[0], op + 1);
	assert_int_equal(ev->task[0], 1);
	assert_int_equal(ev->corr[0], 0);
	assert_string_equal(ev_name(f, 0), "Default/Conv2D-op1");
	assert_string_equal(track_name(f, 0), "stream 7");
	assert_int_equal(f->m->tracks.v[ev->track[0]].stream, 7);
	assert_int_equal(f->m->tracks.v[ev->track[0]].kind, PT_TRACK_STREAM);
	assert_int_equal(f->m->tracks.v[ev->track[0]].device, f->d.dev);

	assert_int_equal(ev->start[1], 1100);
	assert_int_equal(ev->dur[1], 1950);
	assert_int_equal(ev->op[1], 0);
	assert_int_equal(ev->name[1], 0);
	assert_string_equal(track_name(f, 1), "stream 8");
	assert_int_equal(ev->dur[2], 0);
	assert_int_equal(ev->track[2], ev->track[0]);
	assert_int_equal(f->m->tracks.n, 2);

	assert_int_equal(stat_of(f, "hwts.records"), 6);
	assert_int_equal(stat_of(f, "hwts.task_start"), 3);
	assert_int_equal(stat_of(f, "hwts.task_end"), 3);
	assert_int_equal(stat_of(f, "hwts.executions"), 3);
	assert_int_equal(stat_of(f, "hwts.named_executions"), 1);
	assert_int_equal(stat_of(f, "hwts.unnamed_executions"), 2);
	assert_int_equal(stat_of(f, "hwts.unnamed_keys"), 2);
	assert_int_equal(stat_of(f, "hwts.orphan_starts"), 0);
	assert_int_equal(stat_of(f, "hwts.orphan_ends"), 0);
	assert_int_equal(stat_of(f, "hwts.negative_pairs"), 0);
	assert_int_equal(stat_of(f, "hwts.out_of_order"), 0);
	assert_int_equal(stat_of(f, "hwts.zero_records"), 0);
	assert_int_equal(stat_of(f, "hwts.invalid_type"), 0);
	assert_int_equal(stat_of(f, "hwts.streams_wrapped"), -999); /* static mode */
	assert_int_equal(f->diag.n, 0);
	fx_free(f);
}

static void test_orphans_and_negative(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	rec(f, 0, 0, 5, 1, 100);   /* replaced by the next Start: orphan */
	rec(f, 0, 0, 5, 1, 150);
	rec(f, 1, 0, 5, 1, 180);   /* pairs with 150 */
	rec(f, 1, 0, 6, 1, 190);   /* End with nothing open: orphan */
	rec(f, 0, 0, 7, 1, 500);   /* offset 256 */
	rec(f, 1, 0, 7, 1, 400);   /* offset 320: negative, and out of order */
	rec(f, 0, 0, 8, 1, 600);   /* left open: orphan */
	rec(f, 0, 0, 8, 2, 600);   /* another stream, left open */
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);

	assert_int_equal(f->m->events.n, 1);
	assert_int_equal(f->m->events.start[0], 1500);
	assert_int_equal(f->m->events.dur[0], 300);
	assert_int_equal(stat_of(f, "hwts.orphan_starts"), 3);
	assert_int_equal(stat_of(f, "hwts.orphan_ends"), 1);
	assert_int_equal(stat_of(f, "hwts.negative_pairs"), 1);
	assert_int_equal(stat_of(f, "hwts.out_of_order"), 1);
	assert_int_equal(stat_of(f, "hwts.out_of_order_first_offset"), 320);
	assert_int_equal(stat_of(f, "hwts.executions"), 1);

	const struct pt_diag_entry *w = diag_find(f, "negative-duration");
	assert_non_null(w);
	assert_int_equal(w->count, 1);
	assert_int_equal(w->pos, PT_POS_OFFSET);
	assert_int_equal(w->first, 320);                    /* the End */
	assert_non_null(strstr(w->what, "offset 256"));     /* its Start */
	assert_non_null(strstr(w->file, "slice_0"));
	fx_free(f);
}

static void test_malformed(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	zero_rec(f);                 /* 0 */
	rec(f, 0, 0, 1, 3, 100);     /* 64 */
	rec(f, 2, 0, 1, 3, 110);     /* block start */
	rec(f, 3, 0, 1, 3, 120);     /* block end */
	rec(f, 4, 0, 1, 3, 130);     /* block pmu */
	rec(f, 4, 1, 1, 3, 0);       /* block pmu without timestamp */
	rec(f, 5, 0, 1, 3, 140);     /* 384 invalid */
	rec(f, 6, 0, 1, 3, 140);     /* 448 */
	rec(f, 7, 0, 1, 3, 140);     /* 512 */
	rec(f, 5, 0, 1, 3, 140);     /* 576 */
	zero_rec(f);                 /* 640 */
	rec(f, 1, 0, 1, 3, 200);     /* 704 */
	rec(f, 1, 0, 1, 3, 0);       /* 768: a non-zero End with cycle 0 is a real record */
	uint8_t junk[17];
	memset(junk, 0xAB, sizeof(junk));
	put(f, junk, sizeof(junk));  /* 832: truncated */
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);

	assert_int_equal(f->m->events.n, 1);
	assert_int_equal(f->m->events.start[0], 1000);
	assert_int_equal(f->m->events.dur[0], 1000);
	assert_int_equal(stat_of(f, "hwts.records"), 13);
	assert_int_equal(stat_of(f, "hwts.zero_records"), 2);
	assert_int_equal(stat_of(f, "hwts.task_start"), 1);
	assert_int_equal(stat_of(f, "hwts.task_end"), 2);
	assert_int_equal(stat_of(f, "hwts.block_start"), 1);
	assert_int_equal(stat_of(f, "hwts.block_end"), 1);
	assert_int_equal(stat_of(f, "hwts.block_pmu"), 2);
	assert_int_equal(stat_of(f, "hwts.invalid_type"), 4);
	assert_int_equal(stat_of(f, "hwts.orphan_ends"), 1);

	const struct pt_diag_entry *w = diag_find(f, "all-zero");
	assert_non_null(w);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->first, 0);
	w = diag_find(f, "invalid log type 5");
	assert_non_null(w);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->first, 384);
	w = diag_find(f, "invalid log type 6");
	assert_non_null(w);
	assert_int_equal(w->count, 1);
	assert_int_equal(w->first, 448);
	w = diag_find(f, "invalid log type 7");
	assert_non_null(w);
	assert_int_equal(w->first, 512);
	w = diag_find(f, "truncated record of 17 bytes");
	assert_non_null(w);
	assert_int_equal(w->first, 832);
	fx_free(f);
}

static void test_empty_file(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_TEXT, false);
	write_slice(f, 0, 0, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->events.n, 0);
	assert_int_equal(stat_of(f, "hwts.records"), 0);
	assert_int_equal(stat_of(f, "hwts.executions"), 0);
	assert_int_equal(stat_of(f, "hwts.orphan_starts"), 0);
	assert_int_equal(f->diag.n, 0);
	fx_free(f);
}

static void test_no_file(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_TEXT, false);
	assert_int_equal(run(f), 0);
	assert_int_equal(stat_of(f, "hwts.records"), -999);
	fx_free(f);
}

static void test_missing_file_is_fatal(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_TEXT, false);
	pt_slices_add(&f->d.files[PT_AK_HWTS], "/nonexistent/hwts.log.data.45.dev.profiler_default_tag.0.slice_0");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_hwts(&f->c, &f->d, &e), -1);
	assert_non_null(e);
	pt_err_free(e);
	pt_slices_free(&f->d.files[PT_AK_HWTS]);
	fx_free(f);
}

/* Records straddle slices; diagnostics name the physical slice and offset. */
static void test_slices(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	rec(f, 0, 0, 1, 4, 100); /* 0 */
	zero_rec(f);             /* 64: slice 0 offset 64 */
	rec(f, 1, 0, 1, 4, 200); /* 128: straddles slices 0 and 1 */
	zero_rec(f);             /* 192: slice 1 offset 192 - 150 = 42 */
	rec(f, 0, 0, 2, 4, 300); /* 256 */
	rec(f, 0, 0, 2, 9, 300); /* 320: straddles slices 1 and 2 */
	rec(f, 1, 0, 2, 4, 350); /* 384 */
	zero_rec(f);             /* 448: slice 2 offset 448 - 330 = 118 */
	write_slice(f, 0, 150, 0);
	write_slice(f, 150, 330, 1);
	write_slice(f, 330, f->len, 2);
	assert_int_equal(run(f), 0);

	assert_int_equal(f->m->events.n, 2);
	assert_int_equal(f->m->events.start[0], 1000);
	assert_int_equal(f->m->events.dur[0], 1000);
	assert_int_equal(f->m->events.dur[1], 500);
	assert_int_equal(stat_of(f, "hwts.zero_records"), 3);
	assert_int_equal(stat_of(f, "hwts.orphan_starts"), 1);

	int seen = 0;
	for (size_t i = 0; i < f->diag.n; i++) {
		const struct pt_diag_entry *w = &f->diag.v[i];
		if (!strstr(w->what, "all-zero"))
			continue;
		assert_int_equal(w->count, 1);
		if (strstr(w->file, "slice_0")) {
			assert_int_equal(w->first, 64);
			seen |= 1;
		} else if (strstr(w->file, "slice_1")) {
			assert_int_equal(w->first, 42);
			seen |= 2;
		} else if (strstr(w->file, "slice_2")) {
			assert_int_equal(w->first, 118);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	fx_free(f);
}

/* Text era: ids >= 25000 join without their stream (§2.1). */
static void test_text_era_keys(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_TEXT, false);
	uint32_t a = add_op(f, "Default/Cast-op1");
	uint32_t b = add_op(f, "Default/Add-op2");
	map_task(f, 99, 51517, a); /* keyed "51517" */
	map_task(f, 3, 12, b);     /* keyed "3_12" */
	rec(f, 0, 0, 51517, 0, 10);
	rec(f, 1, 0, 51517, 0, 20);
	rec(f, 0, 0, 12, 3, 30);
	rec(f, 1, 0, 12, 3, 40);
	rec(f, 0, 0, 12, 4, 50);
	rec(f, 1, 0, 12, 4, 60);
	rec(f, 0, 0, 12, 4, 70);
	rec(f, 1, 0, 12, 4, 80);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->events.n, 4);
	assert_string_equal(ev_name(f, 0), "Default/Cast-op1");
	assert_int_equal(f->m->events.op[0], a + 1);
	assert_string_equal(ev_name(f, 1), "Default/Add-op2");
	assert_int_equal(f->m->events.op[2], 0);
	assert_int_equal(stat_of(f, "hwts.named_executions"), 2);
	assert_int_equal(stat_of(f, "hwts.unnamed_executions"), 2);
	assert_int_equal(stat_of(f, "hwts.unnamed_keys"), 1);
	fx_free(f);
}

static void test_frequency(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	f->d.freq_khz = 19200; /* 19.2 MHz */
	rec(f, 0, 0, 1, 1, 1);
	rec(f, 1, 0, 1, 1, 193);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	/* floor(1e6 / 19200) = 52; floor(193e6 / 19200) = 10052 */
	assert_int_equal(f->m->events.start[0], 52);
	assert_int_equal(f->m->events.dur[0], 10000);
	fx_free(f);
}

/* Dynamic shape: ids extended per stream across wraps (§2.1, Q14). */
static void test_dynamic_wrap(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, true);
	uint32_t op = add_op(f, "Default/MatMul-op3");
	map_task(f, 1, 65536, op); /* TASK_DESC lists the extended id (§2.1) */
	rec(f, 0, 0, 65534, 1, 10);
	rec(f, 1, 0, 65534, 1, 20);
	rec(f, 0, 0, 65535, 1, 30);
	rec(f, 0, 0, 0, 1, 40);     /* wraps: 65536 */
	rec(f, 1, 0, 65535, 1, 50); /* still the previous lap */
	rec(f, 1, 0, 0, 1, 60);
	rec(f, 0, 0, 5, 2, 70);     /* stream 2 never wraps */
	rec(f, 1, 0, 5, 2, 80);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	struct pt_events *ev = &f->m->events;
	assert_int_equal(ev->n, 4);
	assert_int_equal(ev->task[0], 65534);
	assert_int_equal(ev->task[1], 65535);
	assert_int_equal(ev->dur[1], 200);
	assert_int_equal(ev->task[2], 65536);
	assert_int_equal(ev->dur[2], 200);
	assert_int_equal(ev->op[2], op + 1);
	assert_int_equal(ev->task[3], 5);
	assert_int_equal(stat_of(f, "hwts.streams_wrapped"), 1);
	assert_int_equal(stat_of(f, "hwts.orphan_starts"), 0);
	assert_true(f->m->devices.v[f->d.dev].dynamic_shape);
	assert_null(diag_find(f, "wrapped"));
	fx_free(f);
}

static void test_dynamic_several_streams_wrap(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, true);
	for (uint32_t s = 1; s <= 2; s++) {
		rec(f, 0, 0, 65535, s, 10);
		rec(f, 1, 0, 65535, s, 20);
		rec(f, 0, 0, 0, s, 30);
		rec(f, 1, 0, 0, s, 40);
	}
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(stat_of(f, "hwts.streams_wrapped"), 2);
	assert_int_equal(f->m->events.task[1], 65536);
	assert_int_equal(f->m->events.task[3], 65536);
	assert_non_null(diag_find(f, "wrapped on 2 streams"));
	fx_free(f);
}

/* Static graphs reuse ids: no wrap is counted, pairs use the raw id. */
static void test_static_reuse(void **state)
{
	(void)state;
	struct fx *f = fx_new(PT_ERA_BINARY, false);
	for (int step = 0; step < 3; step++)
		for (uint16_t t = 0; t < 3; t++) {
			rec(f, 0, 0, t, 1, (uint64_t)(step * 100 + t * 10));
			rec(f, 1, 0, t, 1, (uint64_t)(step * 100 + t * 10 + 5));
		}
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->events.n, 9);
	assert_int_equal(f->m->events.task[8], 2);
	assert_int_equal(stat_of(f, "hwts.out_of_order"), 0);
	fx_free(f);
}

static const char *shared_dir(char *buf, size_t n)
{
	const char *s = getenv("PT_SHARED");
	if (s && *s) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	s = getenv("PT_SRC");
	if (s && *s) {
		snprintf(buf, n, "%s/../shared", s);
		return buf;
	}
	snprintf(buf, n, "%s", __FILE__);
	char *p = strstr(buf, "/tests/unit/");
	if (p)
		snprintf(p, n - (size_t)(p - buf), "/../shared");
	else
		snprintf(buf, n, "../shared");
	return buf;
}

/* JOB3: 62,847 records, 31,462 Starts and 31,385 Ends (ascend.md §6). */
static void test_job3(void **state)
{
	(void)state;
	char sh[512], path[1024];
	shared_dir(sh, sizeof(sh));
	snprintf(path, sizeof(path), "%s/fixtures/mindinsight/JOB3/hwts.log.data.45.dev.profiler_default_tag.1.slice_0",
		 sh);
	if (access(path, R_OK)) {
		print_message("skipping: %s not found\n", path);
		skip();
	}
	struct fx *f = fx_new(PT_ERA_TEXT, false);
	pt_slices_add(&f->d.files[PT_AK_HWTS], path);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_hwts(&f->c, &f->d, &e), 0);
	int64_t starts = stat_of(f, "hwts.task_start"), ends = stat_of(f, "hwts.task_end");
	assert_int_equal(stat_of(f, "hwts.records"), 62847);
	assert_int_equal(starts, 31462);
	assert_int_equal(ends, 31385);
	assert_int_equal(starts - ends, 77);
	assert_int_equal(stat_of(f, "hwts.zero_records"), 0);
	assert_int_equal(stat_of(f, "hwts.invalid_type"), 0);
	int64_t ex = stat_of(f, "hwts.executions"), neg = stat_of(f, "hwts.negative_pairs");
	assert_int_equal(ex, (int64_t)f->m->events.n);
	assert_int_equal(ex + neg + stat_of(f, "hwts.orphan_starts"), starts);
	assert_int_equal(ex + neg + stat_of(f, "hwts.orphan_ends"), ends);
	assert_int_equal(stat_of(f, "hwts.unnamed_executions"), ex); /* no framework data loaded */
	for (size_t i = 0; i < f->m->events.n; i++)
		assert_true(f->m->events.dur[i] >= 0);
	print_message("JOB3: %" PRId64 " executions, %" PRId64 " orphan starts, %" PRId64 " orphan ends, %" PRId64
		      " negative, %" PRId64 " out of order, %zu tracks\n",
		      ex, stat_of(f, "hwts.orphan_starts"), stat_of(f, "hwts.orphan_ends"), neg,
		      stat_of(f, "hwts.out_of_order"), f->m->tracks.n);
	pt_slices_free(&f->d.files[PT_AK_HWTS]);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairing_interleaved),
		cmocka_unit_test(test_orphans_and_negative),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_no_file),
		cmocka_unit_test(test_missing_file_is_fatal),
		cmocka_unit_test(test_slices),
		cmocka_unit_test(test_text_era_keys),
		cmocka_unit_test(test_frequency),
		cmocka_unit_test(test_dynamic_wrap),
		cmocka_unit_test(test_dynamic_several_streams_wrap),
		cmocka_unit_test(test_static_reuse),
		cmocka_unit_test(test_job3),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
