/* Unit tests of the step-trace reader (ascend.md §2.2, §3.6, §5, §6). */
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
	bool own_files;
};

static struct fx *fx_new(uint32_t devid)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-steptrace-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	f->opts.device = -1;
	f->c.m = f->m;
	f->c.diag = &f->diag;
	f->c.opts = &f->opts;
	pt_model_device(f->m, PT_DEV_NPU, 99); /* so that the index differs from the id */
	f->d.id = devid;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, devid);
	f->d.era = PT_ERA_TEXT;
	f->d.freq_khz = 100000;
	f->own_files = true;
	pt_hashmap_init(&f->d.task_op);
	pt_hashmap_init(&f->d.point_op);
	return f;
}

static void fx_free(struct fx *f)
{
	for (int k = 0; k < PT_AK__N; k++) {
		for (size_t i = 0; f->own_files && i < f->d.files[k].n; i++)
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

static void rec(struct fx *f, uint64_t tag, uint16_t stream, uint64_t cyc)
{
	uint8_t r[20];
	uint16_t task = 7;
	memcpy(r, &tag, 8);
	memcpy(r + 8, &task, 2);
	memcpy(r + 10, &stream, 2);
	memcpy(r + 12, &cyc, 8);
	put(f, r, sizeof(r));
}

static void write_slice(struct fx *f, size_t from, size_t to, int n)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/training_trace.46.dev.profiler_default_tag.%u.slice_%d", f->dir, f->d.id, n);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	if (to > from)
		assert_int_equal(fwrite(f->buf + from, 1, to - from, fp), to - from);
	fclose(fp);
	pt_slices_add(&f->d.files[PT_AK_STEP_TRACE], path);
}

static int run(struct fx *f)
{
	struct pt_err *e = NULL;
	int rc = pt_ascend_read_step_trace(&f->c, &f->d, &e);
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

static uint32_t add_op(struct fx *f, const char *name, const char *type)
{
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = f->d.dev;
	op.name = pt_model_str(f->m, name);
	op.type = type ? pt_model_str(f->m, type) : 0;
	op.task_type = -1;
	return pt_model_add_op(f->m, &op);
}

static const char *str(struct fx *f, uint32_t id)
{
	return pt_model_strget(f->m, id);
}

/* ---- synthetic tests ---- */

static void test_basic(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	/* step 1 */
	rec(f, 0, 0, 90);
	rec(f, 1, 0, 100);
	rec(f, 4, 5, 130);  /* closes before it opens in file order */
	rec(f, 3, 5, 120);
	rec(f, 3, 2, 115);
	rec(f, 4, 2, 125);
	rec(f, 2, 0, 200);
	rec(f, 255, 0, 300);
	/* step 2 */
	rec(f, 0, 0, 310);
	rec(f, 1, 0, 320);
	rec(f, 3, 5, 330);
	rec(f, 4, 5, 340);
	rec(f, 2, 0, 400);
	rec(f, 255, 0, 500);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);

	assert_int_equal(f->m->steps.n, 2);
	struct pt_step *s = &f->m->steps.v[0];
	assert_int_equal(s->device, f->d.dev);
	assert_int_equal(s->step, 1);
	assert_int_equal(s->has, PT_STEP_HAS_START | PT_STEP_HAS_START_TAG | PT_STEP_HAS_FP | PT_STEP_HAS_BP |
					 PT_STEP_HAS_END);
	assert_int_equal(s->start, 1000); /* first step: its own fp */
	assert_int_equal(s->start_tag, 900);
	assert_int_equal(s->fp, 1000);
	assert_int_equal(s->bp, 2000);
	assert_int_equal(s->end, 3000);
	assert_int_equal(s->comm.n, 2);
	assert_int_equal(s->comm.v[0].stream, 2);
	assert_int_equal(s->comm.v[0].tag, 3);
	assert_int_equal(s->comm.v[0].start, 1150);
	assert_int_equal(s->comm.v[0].end, 1250);
	assert_string_equal(str(f, s->comm.v[0].name), "parallel");
	assert_string_equal(str(f, s->comm.v[0].type), "parallel");
	assert_int_equal(s->comm.v[1].stream, 5);
	assert_int_equal(s->comm.v[1].start, 1200);
	assert_int_equal(s->comm.v[1].end, 1300);

	s = &f->m->steps.v[1];
	assert_int_equal(s->step, 2);
	assert_int_equal(s->start, 3000); /* previous end */
	assert_int_equal(s->start_tag, 3100);
	assert_int_equal(s->end, 5000);
	assert_int_equal(s->comm.n, 1);

	assert_int_equal(f->m->devices.v[f->d.dev].step_end_tag, 255);
	assert_int_equal(stat_of(f, "step_trace.records"), 14);
	assert_int_equal(stat_of(f, "step_trace.steps"), 2);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 0);
	assert_int_equal(stat_of(f, "step_trace.zero_records"), 0);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 255);
	assert_int_equal(stat_of(f, "step_trace.job_id"), 0);
	assert_int_equal(f->diag.n, 0);
	fx_free(f);
}

/* E = 65535: 255 and 300 are then reduce tags, not an end or a job id. */
static void test_end_tag_65535(void **state)
{
	(void)state;
	struct fx *f = fx_new(1);
	rec(f, 70000, 0, 10);
	rec(f, 1, 0, 20);
	rec(f, 255, 3, 30);
	rec(f, 256, 3, 40);
	rec(f, 2, 0, 50);
	rec(f, 65535, 0, 60);
	rec(f, 70000, 0, 70);
	rec(f, 1, 0, 80);
	rec(f, 2, 0, 90);
	rec(f, 65535, 0, 100);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->devices.v[f->d.dev].step_end_tag, 65535);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 65535);
	assert_int_equal(stat_of(f, "step_trace.job_id"), 70000);
	assert_int_equal(f->m->steps.n, 2);
	assert_int_equal(f->m->steps.v[0].comm.n, 1);
	assert_int_equal(f->m->steps.v[0].comm.v[0].tag, 255);
	assert_int_equal(f->m->steps.v[0].comm.v[0].start, 300);
	assert_int_equal(f->m->steps.v[1].start, 600);
	fx_free(f);
}

/* 65535 after the second tag 1: E stays 255 and 65535 is a job-id tag. */
static void test_end_tag_detection_late(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	rec(f, 1, 0, 20);
	rec(f, 2, 0, 30);
	rec(f, 255, 0, 40);
	rec(f, 1, 0, 50);
	rec(f, 65535, 0, 55);
	rec(f, 2, 0, 60);
	rec(f, 255, 0, 70);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 255);
	assert_int_equal(f->m->steps.n, 2);
	assert_int_equal(stat_of(f, "step_trace.job_id"), 65535);
	assert_int_equal(f->m->steps.v[1].start_tag, 550);
	fx_free(f);
}

/* Reduce edge cases: unmatched, even without odd, negative, duplicated. */
static void test_reduce_edges(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	rec(f, 0, 0, 5);
	rec(f, 1, 0, 10);
	rec(f, 5, 1, 20);   /* 40: lone odd */
	rec(f, 12, 1, 21);  /* 60: lone even */
	rec(f, 3, 1, 30);   /* 80: duplicated, the later wins */
	rec(f, 3, 1, 32);   /* 100 */
	rec(f, 4, 1, 40);
	rec(f, 9, 2, 50);   /* 140: negative pair */
	rec(f, 10, 2, 45);  /* 160 */
	rec(f, 7, 1, 60);
	rec(f, 8, 3, 63);   /* 200: closes before it opens in file order */
	rec(f, 7, 3, 62);   /* 220: stream 1's 7 has no partner there */
	rec(f, 2, 0, 70);
	rec(f, 255, 0, 80);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->steps.n, 1);
	struct pt_step *s = &f->m->steps.v[0];
	assert_int_equal(s->comm.n, 2);
	assert_int_equal(s->comm.v[0].stream, 1);
	assert_int_equal(s->comm.v[0].tag, 3);
	assert_int_equal(s->comm.v[0].start, 320);
	assert_int_equal(s->comm.v[0].end, 400);
	assert_int_equal(s->comm.v[1].stream, 3);
	assert_int_equal(s->comm.v[1].tag, 7);
	assert_int_equal(s->comm.v[1].start, 620);
	assert_int_equal(s->comm.v[1].end, 630);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 0);

	const struct pt_diag_entry *w = diag_find(f, "unmatched reduce points");
	assert_non_null(w);
	assert_int_equal(w->count, 3);
	assert_int_equal(w->first, 40);
	w = diag_find(f, "duplicated reduce points");
	assert_non_null(w);
	assert_int_equal(w->count, 1);
	assert_int_equal(w->first, 80);
	w = diag_find(f, "negative-duration reduce pairs");
	assert_non_null(w);
	assert_int_equal(w->count, 1);
	assert_int_equal(w->first, 160);
	fx_free(f);
}

static void test_malformed(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	uint8_t z[20] = { 0 };
	rec(f, 0, 0, 5);     /* 0 */
	rec(f, 1, 0, 10);    /* 20 */
	rec(f, 1, 0, 12);    /* 40: repeated fp */
	put(f, z, 20);       /* 60: all zero */
	rec(f, 2, 0, 20);    /* 80 */
	rec(f, 2, 0, 22);    /* 100: repeated bp */
	rec(f, 255, 0, 30);  /* 120 */
	rec(f, 300, 0, 5);   /* 140: differing job id */
	rec(f, 1, 0, 0);     /* 160: zero fp = missing */
	rec(f, 2, 0, 40);
	rec(f, 255, 0, 50);  /* 200 */
	rec(f, 0, 0, 55);
	rec(f, 1, 0, 60);
	rec(f, 2, 0, 70);
	rec(f, 255, 0, 80);
	rec(f, 1, 0, 90);    /* 300: unfinished step */
	put(f, z, 7);        /* 320: truncated */
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);

	assert_int_equal(f->m->steps.n, 3);
	struct pt_step *s = &f->m->steps.v[0];
	assert_int_equal(s->fp, 120);
	assert_int_equal(s->bp, 220);
	s = &f->m->steps.v[1];
	assert_int_equal(s->step, 2);
	assert_false(s->has & PT_STEP_HAS_FP);
	assert_true(s->has & PT_STEP_HAS_START);
	assert_int_equal(s->start, 300);
	assert_int_equal(s->start_tag, 50);
	assert_int_equal(f->m->steps.v[2].step, 3);
	assert_int_equal(stat_of(f, "step_trace.records"), 16);
	assert_int_equal(stat_of(f, "step_trace.zero_records"), 1);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 1);
	assert_int_equal(stat_of(f, "step_trace.steps"), 3);

	const struct pt_diag_entry *w = diag_find(f, "all-zero");
	assert_non_null(w);
	assert_int_equal(w->first, 60);
	w = diag_find(f, "repeated fp/bp");
	assert_non_null(w);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->first, 40);
	w = diag_find(f, "job-id");
	assert_non_null(w);
	assert_int_equal(w->first, 140);
	w = diag_find(f, "truncated record of 7 bytes");
	assert_non_null(w);
	assert_int_equal(w->first, 320);
	w = diag_find(f, "incomplete steps (");
	assert_non_null(w);
	assert_int_equal(w->first, 200);
	assert_non_null(diag_find(f, "incomplete steps: 2"));
	w = diag_find(f, "unfinished");
	assert_non_null(w);
	assert_int_equal(w->first, 300);
	fx_free(f);
}

/* Point-file names and types; dataset-sink mode drops the first step. */
static void test_points_and_sink(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	uint32_t ag = add_op(f, "Default/network/AllGather-op12", NULL);
	uint32_t rs = add_op(f, "Default/network/ReduceScatter-op13", "ReduceScatter");
	uint32_t noop = add_op(f, "Default/plain", NULL);
	add_op(f, "Default/InitDataSetQueue-op0", NULL);
	pt_hashmap_put(&f->d.point_op, 3, ag, NULL);
	pt_hashmap_put(&f->d.point_op, 5, rs, NULL);
	pt_hashmap_put(&f->d.point_op, 7, noop, NULL);
	for (uint64_t k = 0; k < 3; k++) {
		uint64_t b = 1000 * (k + 1);
		rec(f, 0, 0, b);
		rec(f, 1, 0, b + 10);
		rec(f, 3, 4, b + 20);
		rec(f, 4, 4, b + 30);
		rec(f, 5, 4, b + 40);
		rec(f, 6, 4, b + 50);
		rec(f, 7, 9, b + 60);
		rec(f, 8, 9, b + 70);
		rec(f, 11, 9, b + 60);
		rec(f, 12, 9, b + 70);
		rec(f, 2, 0, b + 80);
		rec(f, 255, 0, b + 90);
	}
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->steps.n, 2);
	assert_int_equal(stat_of(f, "step_trace.steps"), 2);
	struct pt_step *s = &f->m->steps.v[0];
	assert_int_equal(s->step, 1);
	assert_int_equal(s->start, 10900); /* the discarded step's end */
	assert_int_equal(s->comm.n, 4);
	assert_string_equal(str(f, s->comm.v[0].name), "Default/network/AllGather-op12");
	assert_string_equal(str(f, s->comm.v[0].type), "AllGather");
	assert_string_equal(str(f, s->comm.v[1].type), "ReduceScatter");
	assert_int_equal(s->comm.v[2].stream, 9);
	assert_int_equal(s->comm.v[2].tag, 7);
	assert_string_equal(str(f, s->comm.v[2].type), "plain");
	assert_int_equal(s->comm.v[3].tag, 11);
	assert_string_equal(str(f, s->comm.v[3].name), "parallel");
	fx_free(f);
}

/* Inference: no tag 2 anywhere, so a missing bp does not make a step incomplete. */
static void test_inference(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	rec(f, 1, 0, 10);
	rec(f, 255, 0, 20);
	rec(f, 1, 0, 30);
	rec(f, 255, 0, 40);
	write_slice(f, 0, f->len, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->steps.n, 2);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 0);
	assert_false(f->m->steps.v[0].has & PT_STEP_HAS_BP);
	assert_int_equal(stat_of(f, "step_trace.job_id"), -999);
	fx_free(f);
}

static void test_empty_and_slices(void **state)
{
	(void)state;
	struct fx *f = fx_new(0);
	write_slice(f, 0, 0, 0);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->steps.n, 0);
	assert_int_equal(stat_of(f, "step_trace.records"), 0);
	assert_int_equal(stat_of(f, "step_trace.steps"), 0);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 255);
	fx_free(f);

	/* a record straddling slices; a zero record in slice 1 */
	f = fx_new(0);
	uint8_t z[20] = { 0 };
	rec(f, 1, 0, 10);
	rec(f, 65535, 0, 15); /* in the first slice: E = 65535 */
	rec(f, 2, 0, 20);
	put(f, z, 20);        /* 60: slice 1 offset 60 - 50 = 10 */
	rec(f, 65535, 0, 30);
	write_slice(f, 0, 0, 0); /* an empty slice first */
	write_slice(f, 0, 30, 1);
	write_slice(f, 30, 50, 2);
	write_slice(f, 50, f->len, 3);
	assert_int_equal(run(f), 0);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 65535);
	assert_int_equal(f->m->steps.n, 2);
	const struct pt_diag_entry *w = diag_find(f, "all-zero");
	assert_non_null(w);
	assert_non_null(strstr(w->file, "slice_3"));
	assert_int_equal(w->first, 10);
	fx_free(f);
}

/* ---- fixtures: compare with MindInsight's step_trace_raw CSV ---- */

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

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *b = NULL;
	size_t len = 0, cap = 0, k;
	do {
		pt_xgrow((void **)&b, &cap, len + 4097, 1);
		k = fread(b + len, 1, 4096, fp);
		len += k;
	} while (k);
	fclose(fp);
	b[len] = 0;
	return b;
}

/* Split a line in place on ','; returns the number of cells. */
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

static const struct pt_comm *find_comm(const struct pt_step *s, uint32_t stream, uint32_t tag)
{
	for (size_t i = 0; i < s->comm.n; i++)
		if (s->comm.v[i].stream == stream && s->comm.v[i].tag == tag)
			return &s->comm.v[i];
	return NULL;
}

/* Tag of the k-th distinct start tag of a stream over the whole trace. */
static int64_t kth_tag(const struct pt_model *m, uint32_t stream, int k)
{
	uint32_t tags[64];
	int n = 0;
	for (size_t i = 0; i < m->steps.n; i++)
		for (size_t j = 0; j < m->steps.v[i].comm.n; j++) {
			const struct pt_comm *c = &m->steps.v[i].comm.v[j];
			if (c->stream != stream)
				continue;
			int seen = 0;
			for (int q = 0; q < n; q++)
				seen |= tags[q] == c->tag;
			if (!seen && n < 64)
				tags[n++] = c->tag;
		}
	/* ascending */
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (tags[b] < tags[a]) {
				uint32_t t = tags[a];
				tags[a] = tags[b];
				tags[b] = t;
			}
	return k < n ? (int64_t)tags[k] : -1;
}

static void compare_fixture(const char *job, uint32_t devid, int nsteps, int nreduce_steps)
{
	char sh[512], trace[1024], csv[1024];
	shared_dir(sh, sizeof(sh));
	snprintf(trace, sizeof(trace), "%s/fixtures/mindinsight/%s/training_trace.46.dev.profiler_default_tag.%u.slice_0",
		 sh, job, devid);
	snprintf(csv, sizeof(csv), "%s/fixtures/mindinsight/%s/expected/step_trace_raw_%u_detail_time.csv", sh, job,
		 devid);
	if (access(trace, R_OK) || access(csv, R_OK)) {
		print_message("skipping: %s not found\n", trace);
		skip();
	}
	struct fx *f = fx_new(devid);
	f->own_files = false;
	pt_slices_add(&f->d.files[PT_AK_STEP_TRACE], trace);
	assert_int_equal(run(f), 0);
	assert_int_equal(f->m->steps.n, (size_t)nsteps);
	assert_int_equal(stat_of(f, "step_trace.steps"), nsteps);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 0);
	assert_int_equal(stat_of(f, "step_trace.end_tag"), 255);
	assert_int_equal(f->diag.n, 0);

	char *text = slurp(csv);
	assert_non_null(text);
	char *save = NULL;
	char *line = strtok_r(text, "\n", &save);
	assert_non_null(line);
	char *hdr[128];
	int nh = split(line, hdr, 128);
	assert_string_equal(hdr[0], "step_num");
	assert_string_equal(hdr[1], "start_point");
	assert_string_equal(hdr[2], "end_point");
	assert_string_equal(hdr[4], "fp_point");
	assert_string_equal(hdr[5], "bp_point");

	int rows = 0, pairs = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *cell[128];
		int nc = split(line, cell, 128);
		if (!strcmp(cell[0], "-") || !*cell[0])
			continue; /* the average row */
		assert_int_equal(nc, nh);
		int num = atoi(cell[0]);
		assert_true(num >= 1 && num <= nsteps);
		const struct pt_step *s = &f->m->steps.v[num - 1];
		assert_int_equal(s->step, (uint32_t)num);
		assert_int_equal(s->device, f->d.dev);
		assert_int_equal(s->start, strtoll(cell[1], NULL, 10) * 10);
		assert_int_equal(s->end, strtoll(cell[2], NULL, 10) * 10);
		assert_int_equal(s->fp, strtoll(cell[4], NULL, 10) * 10);
		assert_int_equal(s->bp, strtoll(cell[5], NULL, 10) * 10);
		assert_int_equal(s->end - s->start, strtoll(cell[3], NULL, 10) * 10);
		rows++;

		size_t found = 0;
		for (int i = 9; i < nh; i++) {
			unsigned sid;
			int k, used = 0;
			if (sscanf(hdr[i], "stream_%u_parallel_%d_start_point%n", &sid, &k, &used) != 2 ||
			    hdr[i][used])
				continue;
			long long a = strtoll(cell[i], NULL, 10), b = strtoll(cell[i + 1], NULL, 10);
			int64_t tag = kth_tag(f->m, sid, k);
			const struct pt_comm *c = tag >= 0 ? find_comm(s, sid, (uint32_t)tag) : NULL;
			if (!a && !b) {
				assert_null(c); /* the reference's 0 means absent (Q19) */
				continue;
			}
			assert_non_null(c);
			assert_int_equal(c->start, a * 10);
			assert_int_equal(c->end, b * 10);
			assert_int_equal(c->end - c->start, strtoll(cell[i + 2], NULL, 10) * 10);
			assert_string_equal(str(f, c->name), "parallel");
			assert_string_equal(str(f, c->type), "parallel");
			found++;
			pairs++;
		}
		assert_int_equal(found, s->comm.n);
	}
	assert_int_equal(rows, nsteps);
	assert_int_equal(pairs, nreduce_steps * 4);
	print_message("%s: %d steps, %d reduce pairs matched\n", job, rows, pairs);
	free(text);
	fx_free(f);
}

static void test_job1(void **state)
{
	(void)state;
	compare_fixture("JOB1", 0, 20, 20);
}

static void test_error_job(void **state)
{
	(void)state;
	compare_fixture("ERROR_JOB", 10, 40, 20);
}

/* JOB3: 322 steps, 11 reduce pairs in each (ascend.md §6). */
static void test_job3(void **state)
{
	(void)state;
	char sh[512], trace[1024];
	shared_dir(sh, sizeof(sh));
	snprintf(trace, sizeof(trace),
		 "%s/fixtures/mindinsight/JOB3/data/training_trace.46.dev.profiler_default_tag.1.slice_0", sh);
	if (access(trace, R_OK)) {
		print_message("skipping: %s not found\n", trace);
		skip();
	}
	struct fx *f = fx_new(1);
	f->own_files = false;
	pt_slices_add(&f->d.files[PT_AK_STEP_TRACE], trace);
	assert_int_equal(run(f), 0);
	assert_int_equal(stat_of(f, "step_trace.records"), 8372);
	assert_int_equal(stat_of(f, "step_trace.steps"), 322);
	assert_int_equal(stat_of(f, "step_trace.incomplete_steps"), 0);
	assert_int_equal(stat_of(f, "step_trace.job_id"), 10010);
	assert_int_equal(f->m->steps.n, 322);
	for (size_t i = 0; i < f->m->steps.n; i++) {
		const struct pt_step *s = &f->m->steps.v[i];
		assert_int_equal(s->comm.n, 11);
		assert_true(s->has & PT_STEP_HAS_START_TAG);
		for (size_t j = 0; j < s->comm.n; j++) {
			assert_true(s->comm.v[j].end >= s->comm.v[j].start);
			assert_true(s->comm.v[j].stream >= 520 && s->comm.v[j].stream <= 540);
			if (j)
				assert_true(s->comm.v[j - 1].stream < s->comm.v[j].stream);
		}
		if (i)
			assert_int_equal(s->start, f->m->steps.v[i - 1].end);
	}
	assert_int_equal(f->diag.n, 0);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_end_tag_65535),
		cmocka_unit_test(test_end_tag_detection_late),
		cmocka_unit_test(test_reduce_edges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_points_and_sink),
		cmocka_unit_test(test_inference),
		cmocka_unit_test(test_empty_and_slices),
		cmocka_unit_test(test_job1),
		cmocka_unit_test(test_error_job),
		cmocka_unit_test(test_job3),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
