/* Unit tests of lib/model: builder, .ptm write/read round trip, determinism, corrupt files. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "model/dump.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/out.h"
#include "support/xalloc.h"

static struct pt_model *sample(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 3);
	m->devices.v[d].freq_khz = 19200;
	m->devices.v[d].freq_origin = PT_FREQ_INFO_JSON;
	m->devices.v[d].clock = strdup("ascend-device");
	m->devices.v[d].step_end_tag = 255;
	pt_model_add_clock_offset(m, d, "host-monotonic-raw", "unix", 1591183702781536113LL);
	pt_model_add_source(m, "JOB/hwts.log.data.45.dev.profiler_default_tag.3.slice_0", 4096, "ascend-hwts", (int32_t)d);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 519, "stream 519");
	uint32_t t2 = pt_model_track(m, d, PT_TRACK_AICPU, -1, "AI CPU");
	assert_int_equal(pt_model_track(m, d, PT_TRACK_STREAM, 519, "ignored"), t);
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = d;
	op.name = pt_model_str(m, "Default/network/MatMul-op1");
	op.short_name = pt_model_str(m, "MatMul-op1");
	op.type = pt_model_str(m, "MatMul");
	op.block_dim = 32;
	op.task_type = -1;
	op.has_graph = true;
	int64_t shape[] = { 32, 64 };
	pt_op_add_tensor(&op, false, 0, pt_model_str(m, "ND"), 43, pt_model_str(m, "NUMBER_TYPE_FLOAT32"), shape, 2);
	pt_op_add_tensor(&op, true, 0, pt_model_str(m, "ND"), 42, pt_model_str(m, "NUMBER_TYPE_FLOAT16"), NULL, 0);
	pt_op_add_task_key(&op, "519_7");
	pt_op_add_task_key(&op, "519_7");
	pt_op_add_task_key(&op, "30001");
	uint32_t oi = pt_model_add_op(m, &op);
	assert_int_equal(m->ops.v[oi].task_keys.n, 2);
	for (int i = 0; i < 10000; i++)
		pt_model_add_event(m, i % 3 ? t : t2, i % 2 ? m->ops.v[oi].name : 0, PT_EV_TASK,
				   1000000000LL + (int64_t)i * 1000 - (i % 7) * 300, 250 + i % 11, 0,
				   i % 2 ? oi : PT_NONE, (uint64_t)i);
	struct pt_step s;
	memset(&s, 0, sizeof(s));
	s.device = d;
	s.step = 1;
	s.has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_END;
	s.start = 1000;
	s.fp = 1000;
	s.end = 9000;
	struct pt_comm c = { 10, 3, 2000, 2500, pt_model_str(m, "parallel"), pt_model_str(m, "parallel") };
	pt_vec_push(&s.comm, c);
	pt_model_add_step(m, &s);
	struct pt_aicpu a = { d, 1, pt_model_str(m, "GetNext"), 7, 10, 20, 1567000, 100000, 0 };
	pt_model_add_aicpu(m, &a);
	pt_model_stat_add(m, (int32_t)d, "hwts.orphan_starts", 77);
	pt_model_stat_add(m, (int32_t)d, "hwts.orphan_starts", 1);
	pt_model_stat_set(m, -1, "model.note", -5);
	uint32_t q = pt_model_track(m, d, PT_TRACK_QUEUE, -1, "get_next");
	pt_model_add_queue_sample(m, q, 100, 2, -1);
	pt_model_add_counter_sample(m, q, 200, 0.25);
	assert_int_equal(pt_model_stat_get(m, (int32_t)d, "hwts.orphan_starts", 0), 78);
	assert_int_equal(pt_model_stat_get(m, 0, "nope", -9), -9);
	return m;
}

/* Whole file contents. */
static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)len + 1);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

static void spit(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static char *dump_str(const struct pt_model *m)
{
	int fd = memfd_create("dump", 0);
	assert_true(fd >= 0);
	struct pt_out o;
	pt_out_init_fd(&o, fd, "memfd");
	pt_model_dump(m, &o);
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_flush(&o, &e), 0);
	pt_out_abort(&o);
	off_t len = lseek(fd, 0, SEEK_END);
	char *s = malloc((size_t)len + 1);
	assert_int_equal(pread(fd, s, (size_t)len, 0), len);
	s[len] = 0;
	close(fd);
	return s;
}

static char dir[64];

static void write_model(const struct pt_model *m, const char *path, bool compress)
{
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, compress, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
}

static void check_canonical(const char *path);
static char *read_err(const char *path);

static void test_roundtrip(void **state)
{
	(void)state;
	struct pt_model *m = sample();
	char *want = dump_str(m);
	for (int compress = 0; compress < 2; compress++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/m%d.ptm", dir, compress);
		write_model(m, path, compress);
		assert_true(pt_ptm_probe(path));
		if (!compress)
			check_canonical(path);
		struct pt_model *r = NULL;
		struct pt_err *e = NULL;
		int rc = pt_ptm_read(path, &r, &e);
		if (rc) {
			char *s = pt_err_str(e);
			fail_msg("%s", s);
		}
		char *got = dump_str(r);
		assert_string_equal(got, want);
		assert_string_equal(r->producer, "proftool " PT_VERSION);
		free(got);
		pt_model_free(r);
	}
	/* identical inputs give byte-identical files */
	char p1[128], p2[128];
	snprintf(p1, sizeof(p1), "%s/a.ptm", dir);
	snprintf(p2, sizeof(p2), "%s/b.ptm", dir);
	write_model(m, p1, true);
	write_model(m, p2, true);
	size_t n1, n2;
	uint8_t *b1 = slurp(p1, &n1), *b2 = slurp(p2, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(b1, b2, n1);
	free(b1);
	free(b2);
	free(want);
	pt_model_free(m);
}

/* Starts and durations at the limits of the model's time range survive the
 * quantum and delta coding; beyond them (up to the int64 limits, which the
 * delta coding carries) the reader rejects the model. */
static void test_extreme_times(void **state)
{
	(void)state;
	for (int quantum = 0; quantum < 2; quantum++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		int64_t v[] = { -PT_TIME_LIMIT, PT_TIME_LIMIT, 0, -10, 10, -PT_TIME_LIMIT + 10, PT_TIME_LIMIT - 7,
				1000000000000000000LL };
		size_t n = sizeof(v) / sizeof(v[0]);
		for (size_t i = 0; i < n; i++) {
			int64_t s = quantum ? (v[i] / 10) * 10 : v[i];
			pt_model_add_event(m, t, 0, PT_EV_KERNEL, s, quantum ? 30 : (int64_t)i * 7 + 1, i, PT_NONE, 0);
		}
		char path[128];
		snprintf(path, sizeof(path), "%s/x%d.ptm", dir, quantum);
		write_model(m, path, true);
		struct pt_model *r = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_ptm_read(path, &r, &e), 0);
		assert_int_equal(r->events.n, n);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(r->events.start[i], m->events.start[i]);
			assert_int_equal(r->events.dur[i], m->events.dur[i]);
			assert_int_equal(r->events.corr[i], i);
			assert_int_equal(r->events.op[i], 0);
		}
		pt_model_free(r);
		pt_model_free(m);
	}
	for (int k = 0; k < 4; k++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		int64_t s = k == 0 ? INT64_MIN : k == 1 ? PT_TIME_LIMIT + 1 : 0;
		int64_t du = k == 2 ? INT64_MAX : k == 3 ? -PT_TIME_LIMIT - 1 : 1;
		pt_model_add_event(m, t, 0, PT_EV_KERNEL, 0, 1, 0, PT_NONE, 0);
		pt_model_add_event(m, t, 0, PT_EV_KERNEL, s, du, 0, PT_NONE, 0);
		char path[128];
		snprintf(path, sizeof(path), "%s/far%d.ptm", dir, k);
		write_model(m, path, true);
		char *err = read_err(path);
		assert_non_null(err);
		assert_non_null(strstr(err, "invalid event time (beyond 2^62 ns)"));
		free(err);
		pt_model_free(m);
	}
	/* a batch with both faults: the first bad event names its own */
	for (int k = 0; k < 2; k++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		pt_model_add_event(m, t, 0, PT_EV_KERNEL, 0, 1, 0, PT_NONE, 0);
		pt_model_add_event(m, t, k ? 1000 : 0, PT_EV_KERNEL, k ? 5 : PT_TIME_LIMIT + 1, 1, 0, PT_NONE, 0);
		pt_model_add_event(m, t, 0, PT_EV_KERNEL, 9, 1, 0, PT_NONE, 0);
		pt_model_add_event(m, t, k ? 0 : 1000, PT_EV_KERNEL, k ? -PT_TIME_LIMIT - 10 : 5, 1, 0, PT_NONE, 0);
		char path[128];
		snprintf(path, sizeof(path), "%s/both%d.ptm", dir, k);
		write_model(m, path, false);
		char *err = read_err(path);
		assert_non_null(err);
		assert_non_null(strstr(err, k ? "invalid event in the chunk" : "invalid event time (beyond 2^62 ns)"));
		free(err);
		pt_model_free(m);
	}
}

/* The writer divides by a batch's quantum with a multiply by its inverse: odd,
 * even and mixed quanta, negative multiples, a quantum that shrinks as the
 * batch goes on, and -2^62 all come back exactly. */
static void test_quantum_division(void **state)
{
	(void)state;
	static const int64_t sets[][6] = {
		{ 168 * 5, -168 * 11, 168, 168 * 1000000007LL, -168, 0 },           /* 2^3 * 3 * 7 */
		{ 3000000000LL, -9000000000LL, 3, 300000000000000000LL, 6, 9 },      /* odd 3 */
		{ -(INT64_C(1) << 62), INT64_C(1) << 61, -(INT64_C(1) << 40), 1 << 20, 0, 1 << 20 }, /* 2^20 */
		{ 1000, 700, 35, -14, 21, 49 },                                     /* 100, 35, 7 */
		{ PT_TIME_LIMIT, PT_TIME_LIMIT - 1, 1, -PT_TIME_LIMIT + 1, -1, 0 },    /* 1 */
	};
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		for (size_t i = 0; i + 1 < 6; i += 2)
			pt_model_add_event(m, t, 0, PT_EV_KERNEL, sets[k][i], sets[k][i + 1], 0, PT_NONE, 0);
		char path[128];
		snprintf(path, sizeof(path), "%s/q%zu.ptm", dir, k);
		write_model(m, path, false);
		check_canonical(path);
		struct pt_model *r = NULL;
		struct pt_err *e = NULL;
		assert_int_equal(pt_ptm_read(path, &r, &e), 0);
		assert_int_equal(r->events.n, 3);
		for (size_t i = 0; i < 3; i++) {
			assert_int_equal(r->events.start[i], sets[k][2 * i]);
			assert_int_equal(r->events.dur[i], sets[k][2 * i + 1]);
		}
		pt_model_free(r);
		pt_model_free(m);
	}
}

/* A batch whose times share a huge quantum (here 2^61 ns) stores it as one
 * scalar; the writer once took it for a column length (found by fuzz-cupti). */
static void test_huge_quantum(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
	pt_model_add_event(m, t, 0, PT_EV_KERNEL, INT64_C(1) << 61, INT64_C(1) << 61, 5, PT_NONE, 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/quantum.ptm", dir);
	write_model(m, path, false);
	check_canonical(path);
	struct pt_model *r = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read(path, &r, &e), 0);
	assert_int_equal(r->events.start[0], INT64_C(1) << 61);
	assert_int_equal(r->events.dur[0], INT64_C(1) << 61);
	pt_model_free(r);
	pt_model_free(m);
}

/* PT_PTM_LINKS_BATCHWISE: the links of one chunk at a time, the events emptied */
struct link_seen {
	const struct pt_model *ref;
	size_t links, events, link_calls;
	bool mixed; /* a call that held both events and links */
};

static int link_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct link_seen *c = arg;
	if (m->links.n && m->events.n)
		c->mixed = true;
	if (m->links.n) {
		c->link_calls++;
		assert_true(m->links.n <= PT_PTM_EVENT_BATCH);
		for (size_t j = 0; j < m->links.n; j++)
			assert_memory_equal(&m->links.v[j], &c->ref->links.v[c->links + j], sizeof(m->links.v[j]));
		c->links += m->links.n;
		m->links.n = 0; /* taken */
	}
	c->events += m->events.n;
	return 0;
}

static void check_links_batchwise(const struct pt_model *ref, const char *path, uint16_t flags, size_t want_calls)
{
	struct link_seen c = { ref, 0, 0, 0, false };
	struct pt_ptm_sink sink = { link_batch, &c, false, flags };
	struct pt_model *r = pt_model_new();
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read_stream(path, r, &sink, &e), 0);
	assert_false(c.mixed);
	assert_int_equal(c.events, ref->events.n);
	assert_int_equal(c.link_calls, want_calls);
	assert_int_equal(c.links, want_calls ? ref->links.n : 0);
	if (!want_calls) /* without the flag they are applied whole, as before */
		assert_int_equal(r->links.n, ref->links.n);
	pt_model_free(r);
}

/* PT_PTM_SKIP_LAUNCH_TABLES: the links and copy infos are checked, not applied; the other tables are */
static int count_events(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	*(size_t *)arg += m->events.n;
	return 0;
}

/* PT_PTM_TABLES_BATCHWISE: one side table's chunk at a time, the others and the events empty */
struct side_seen {
	const struct pt_model *ref;
	size_t rows[4]; /* kernels, copies, links, external correlations so far */
	size_t events, calls;
	bool mixed;     /* a call that held rows of two tables, or events and rows */
};

static int side_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct side_seen *c = arg;
	size_t n[4] = { m->kernels.n, m->copies.n, m->links.n, m->ext_corr.n };
	int tables = 0;
	for (int k = 0; k < 4; k++) {
		if (!n[k])
			continue;
		tables++;
		assert_true(n[k] <= PT_PTM_EVENT_BATCH);
		if (k == 0)
			for (size_t j = 0; j < n[k]; j++)
				assert_int_equal(m->kernels.v[j].event, c->ref->kernels.v[c->rows[0] + j].event);
		if (k == 3)
			for (size_t j = 0; j < n[k]; j++)
				assert_true(m->ext_corr.v[j].corr == c->ref->ext_corr.v[c->rows[3] + j].corr);
		c->rows[k] += n[k];
	}
	if (tables > 1 || (tables && m->events.n))
		c->mixed = true;
	c->calls += (size_t)tables;
	c->events += m->events.n;
	return 0;
}

/* A streamed read with PT_PTM_SKIP_BUT_TABLES | PT_PTM_SKIP_LAUNCH_TABLES: 0, or its error's text in *err. */
static int read_no_launch(const char *path, struct pt_model **out, size_t *events, char **err)
{
	*events = 0;
	*err = NULL;
	struct pt_ptm_sink sink = { count_events, events, false, PT_PTM_SKIP_BUT_TABLES | PT_PTM_SKIP_LAUNCH_TABLES };
	struct pt_model *r = pt_model_new();
	struct pt_err *e = NULL;
	int rc = pt_ptm_read_stream(path, r, &sink, &e);
	if (rc) {
		*err = pt_err_str(e);
		pt_err_free(e);
		pt_model_free(r);
		r = NULL;
	}
	*out = r;
	return rc;
}

/* Format 2 writes correlation ids and the CUPTI side tables' event indices as
 * differences within a batch: values that go down, wrap or sit at the limits
 * must come back exactly, across batch boundaries. */
static void test_delta_columns(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	/* a process: its host (the API calls and a range) and its GPU (the
	 * kernels, then the copies), as the links require (proftool-model(5)) */
	uint32_t h = pt_model_device(m, PT_DEV_CPU, 0), d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t th = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 1, "t");
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
	const uint64_t corr[] = { UINT64_MAX, 0, 1, UINT64_MAX - 5, UINT64_C(1) << 63, 42, 41, 0 };
	size_t n = PT_PTM_EVENT_BATCH + 100, nc = sizeof(corr) / sizeof(corr[0]), nall = n + n / 2 + 1;
	for (size_t i = 0; i < n; i++)
		pt_model_add_event(m, i % 2 ? t : th, 0, i % 2 ? PT_EV_KERNEL : PT_EV_API, (int64_t)i * 10, 5,
				   i < nc ? corr[i] : i * 977, PT_NONE, 0);
	for (size_t i = n; i < nall - 1; i++)
		pt_model_add_event(m, t, 0, PT_EV_MEMCPY, (int64_t)i * 10, 5, i * 977, PT_NONE, 0);
	pt_model_add_event(m, th, 0, PT_EV_RANGE, 0, (int64_t)nall * 10, 0, PT_NONE, 0);
	for (size_t j = 0; j < n / 2; j++) {
		/* kernels in a scrambled order: deltas of both signs */
		uint32_t ev = (uint32_t)((j * 7919) % (n / 2)) * 2 + 1;
		struct pt_kernel_config k = { { 1, 2, 3 }, { 4, 5, -6 }, 7, 8, 9, (uint32_t)(j % 5) };
		pt_model_add_kernel(m, ev, &k);
		struct pt_copy_info c = { (uint32_t)(n + (j * 7919) % (n / 2)), 1, 2, 3, UINT64_MAX - j, -1, (int32_t)j };
		pt_vec_push(&m->copies, c);
		struct pt_gpu_link l = { ev, ev - 1, j % 3 ? 0 : (uint32_t)nall };
		pt_vec_push(&m->links, l);
	}
	for (size_t j = 0; j < PT_PTM_EVENT_BATCH + 7; j++) { /* two chunks */
		struct pt_ext_corr x = { h, 3, j * 977, j % 11 };
		pt_vec_push(&m->ext_corr, x);
	}
	char path[128];
	snprintf(path, sizeof(path), "%s/delta-raw.ptm", dir);
	write_model(m, path, false);
	check_canonical(path);
	snprintf(path, sizeof(path), "%s/delta.ptm", dir);
	write_model(m, path, true);
	struct pt_model *r = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read(path, &r, &e), 0);
	assert_int_equal(r->events.n, nall);
	for (size_t i = 0; i < nall; i++)
		assert_true(r->events.corr[i] == m->events.corr[i]);
	assert_int_equal(r->kernels.n, m->kernels.n);
	assert_int_equal(r->kernel_configs.n, 5);
	assert_int_equal(m->kernel_configs.n, 5);
	assert_int_equal(r->copies.n, m->copies.n);
	assert_int_equal(r->links.n, m->links.n);
	for (size_t j = 0; j < m->kernels.n; j++) {
		assert_int_equal(r->kernels.v[j].event, m->kernels.v[j].event);
		assert_memory_equal(pt_model_kernel_config(r, j), pt_model_kernel_config(m, j),
				    sizeof(struct pt_kernel_config));
		assert_int_equal(r->copies.v[j].event, m->copies.v[j].event);
		assert_true(r->copies.v[j].bytes == m->copies.v[j].bytes);
		assert_int_equal(r->copies.v[j].dst_device, m->copies.v[j].dst_device);
		assert_memory_equal(&r->links.v[j], &m->links.v[j], sizeof(m->links.v[j]));
	}
	/* streamed with the links a chunk at a time (n / 2 links: one chunk), and without */
	check_links_batchwise(m, path, PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE, 1);
	check_links_batchwise(m, path, PT_PTM_SKIP_BUT_LINKS, 0);
	/* streamed without the launch tables: every event, the kernel infos, no links, no copies */
	struct pt_model *s = NULL;
	size_t nev;
	char *err;
	assert_int_equal(read_no_launch(path, &s, &nev, &err), 0);
	assert_int_equal(nev, nall);
	assert_int_equal(s->kernels.n, m->kernels.n);
	assert_int_equal(s->kernel_configs.n, 5);
	assert_int_equal(s->links.n, 0);
	assert_int_equal(s->copies.n, 0);
	pt_model_free(s);
	/* every table, and every table but the links (and the memory records) */
	for (int no = 0; no < 2; no++) {
		struct link_seen c = { m, 0, 0, 0, false };
		uint16_t flags = 1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_PACK_GPU_MEM | (no ? PT_PTM_TABLES_NO_MEM_LINKS : 0);
		struct pt_ptm_sink sink = { link_batch, &c, false, flags };
		struct pt_model *t = pt_model_new();
		assert_int_equal(pt_ptm_read_stream(path, t, &sink, &e), 0);
		assert_int_equal(c.events, m->events.n);
		assert_int_equal(t->links.n, no ? 0 : m->links.n);
		assert_int_equal(t->copies.n, m->copies.n);
		assert_int_equal(t->kernels.n, m->kernels.n);
		pt_model_free(t);
	}
	/* every table but the external correlations */
	{
		size_t nev = 0;
		struct pt_ptm_sink sink = { count_events, &nev, false,
					    1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_TABLES_NO_EXT_CORR };
		struct pt_model *t = pt_model_new();
		assert_int_equal(pt_ptm_read_stream(path, t, &sink, &e), 0);
		assert_int_equal(nev, nall);
		assert_int_equal(t->ext_corr.n, 0);
		assert_int_equal(t->links.n, m->links.n);
		assert_int_equal(t->kernels.n, m->kernels.n);
		pt_model_free(t);
	}
	/* the side tables a chunk at a time (PT_PTM_TABLES_BATCHWISE), each alone, in the file's order */
	{
		struct side_seen c = { m, { 0 }, 0, 0, false };
		struct pt_ptm_sink sink = { side_batch, &c, false, 1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_TABLES_BATCHWISE };
		struct pt_model *t = pt_model_new();
		assert_int_equal(pt_ptm_read_stream(path, t, &sink, &e), 0);
		assert_false(c.mixed);
		assert_int_equal(c.events, nall);
		assert_int_equal(c.rows[0], m->kernels.n);
		assert_int_equal(c.rows[1], m->copies.n);
		assert_int_equal(c.rows[2], m->links.n);
		assert_int_equal(c.rows[3], m->ext_corr.n);
		assert_int_equal(c.calls, 1 + 1 + 1 + 2); /* (n / 2 rows: one chunk; the external ids: two) */
		assert_int_equal(t->kernel_configs.n, 5);
		pt_model_free(t);
	}
	pt_model_free(r);
	pt_model_free(m);
}

/* References that agree with each other (proftool-model(5) "Ids"): a model
 * that breaks one of them is refused by the reader with the chunk named. */
static void test_cross_references(void **state)
{
	(void)state;
	static const char *const what[] = { NULL,         "GPU link",   "GPU link",   "GPU link", "copy info",
					    "range info", "range info", "event",      "AI Core record" };
	for (int bad = 0; bad < (int)(sizeof(what) / sizeof(what[0])); bad++) {
		struct pt_model *m = pt_model_new();
		uint32_t h = pt_model_device(m, PT_DEV_CPU, 0), g = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t h2 = pt_model_device(m, PT_DEV_CPU, 1);
		m->devices.v[h].pid = m->devices.v[g].pid = 7;
		m->devices.v[h2].pid = bad == 3 ? 7 : 8; /* 3: the range on another CPU device of the process */
		uint32_t t0 = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 1, "t0");
		uint32_t t1 = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 2, "t1");
		uint32_t ts = pt_model_track(m, g, PT_TRACK_STREAM, 7, "s");
		uint32_t tx = pt_model_track(m, h2, PT_TRACK_HOST_THREAD, 3, "x");
		struct pt_op op;
		memset(&op, 0, sizeof(op));
		op.device = g;
		pt_model_add_op(m, &op);
		/* 0 range, 1 call, 2 kernel, 3 copy, 4 range on t1, 5 range nested in 0, 6 call on another process */
		pt_model_add_event(m, t0, 0, PT_EV_RANGE, 0, 100, 0, PT_NONE, 0);
		pt_model_add_event(m, t0, 0, PT_EV_API, 10, 5, 1, PT_NONE, 0);
		pt_model_add_event(m, ts, 0, PT_EV_KERNEL, 20, 5, 1, bad == 7 ? PT_NONE : 0, 0);
		pt_model_add_event(m, ts, 0, PT_EV_MEMCPY, 30, 5, 2, PT_NONE, 0);
		pt_model_add_event(m, t1, 0, PT_EV_RANGE, 0, 50, 0, PT_NONE, 0);
		pt_model_add_event(m, t0, 0, PT_EV_RANGE, 5, 50, 0, PT_NONE, 0);
		pt_model_add_event(m, tx, 0, bad == 3 ? PT_EV_RANGE : PT_EV_API, 10, 5, 3, bad == 7 ? 0 : PT_NONE, 0);
		struct pt_gpu_link l = { 2, bad == 1 ? 6 : bad == 2 ? 2 : 1, bad == 3 ? 7 : 1 };
		pt_vec_push(&m->links, l);
		struct pt_copy_info c = { bad == 4 ? 2 : 3, 1, 2, 3, 64, -1, -1 };
		pt_vec_push(&m->copies, c);
		/* 5: a range its own parent */
		struct pt_range_info r0 = { 0, 0, 0, 0, 0, 1, 0 }, r5 = { 5, 0, 0, 0, bad == 5 ? 6 : 1, 2, 0 };
		if (bad == 6)
			r5.parent = 4 + 1; /* a range of another thread */
		pt_vec_push(&m->ranges, r0);
		pt_vec_push(&m->ranges, r5);
		struct pt_aicore a = { bad == 8 ? h : g, 1, 0, 0, { 0 } };
		pt_vec_push(&m->aicore, a);
		char path[128];
		snprintf(path, sizeof(path), "%s/xref%d.ptm", dir, bad);
		write_model(m, path, false);
		char *err = read_err(path);
		if (what[bad]) {
			assert_non_null(err);
			assert_non_null(strstr(err, what[bad]));
		} else {
			assert_null(err);
		}
		free(err);
		/* a read that does not apply the launch tables still checks them */
		struct pt_model *s = NULL;
		size_t nev;
		int rc = read_no_launch(path, &s, &nev, &err);
		if (what[bad]) {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, what[bad]));
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(nev, m->events.n);
			assert_int_equal(s->links.n + s->copies.n, 0);
			assert_int_equal(s->ranges.n, 2);
		}
		free(err);
		pt_model_free(s);
		pt_model_free(m);
	}
}

/* Synchronization joins round-trip across batches with their -1s and extreme
 * values; a join that names an event that is not a sync, or that goes back in
 * event order (the lookup of pt_model_sync_info needs it sorted), is corrupt. */
static void test_sync_info(void **state)
{
	(void)state;
	for (int bad = 0; bad < 3; bad++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		size_t n = PT_PTM_EVENT_BATCH + 50;
		for (size_t i = 0; i < 2 * n; i++)
			pt_model_add_event(m, t, 0, i % 2 ? PT_EV_SYNC : PT_EV_KERNEL, (int64_t)i, 1, i + 1, PT_NONE, 0);
		for (size_t j = 0; j < n; j++) {
			struct pt_sync_info si = { (uint32_t)(2 * j + 1), (uint32_t)(j % 5), j % 3 ? (int64_t)j : -1,
						   j % 4 ? INT64_MAX - (int64_t)j : -1, j % 7 ? (int64_t)UINT32_MAX : -1 };
			pt_vec_push(&m->syncs, si);
		}
		if (bad == 1)
			m->syncs.v[10].event = 20; /* a kernel */
		if (bad == 2)
			m->syncs.v[n - 1].event = 1; /* back to the first sync */
		char path[128];
		snprintf(path, sizeof(path), "%s/sync%d.ptm", dir, bad);
		write_model(m, path, false);
		check_canonical(path);
		if (bad) {
			char *err = read_err(path);
			assert_non_null(err);
			assert_non_null(strstr(err, "synchronization info"));
			free(err);
		} else {
			struct pt_model *r = NULL;
			struct pt_err *e = NULL;
			assert_int_equal(pt_ptm_read(path, &r, &e), 0);
			assert_int_equal(r->syncs.n, n);
			for (size_t j = 0; j < n; j++)
				assert_memory_equal(&r->syncs.v[j], &m->syncs.v[j], sizeof(m->syncs.v[j]));
			assert_ptr_equal(pt_model_sync_info(r, 2 * 77 + 1), &r->syncs.v[77]);
			assert_null(pt_model_sync_info(r, 2 * 77));
			assert_null(pt_model_sync_info(r, (uint32_t)(2 * n + 5)));
			pt_model_free(r);
		}
		pt_model_free(m);
	}
}

/* Event arguments (EventArgBatch): a round trip over more than one batch, the lookup,
 * the backend of a device, and the reader's checks (an event beyond the model, a key
 * beyond the strings, events out of order). */
static void test_event_args(void **state)
{
	(void)state;
	for (int bad = 0; bad < 4; bad++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
		m->devices.v[d].comm_backend = pt_xstrdup("nccl");
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "s");
		size_t n = PT_PTM_EVENT_BATCH + 50;
		for (size_t i = 0; i < n; i++)
			pt_model_add_event(m, t, 0, PT_EV_KERNEL, (int64_t)i, 1, i + 1, PT_NONE, 0);
		uint32_t k1 = pt_model_str(m, "Input Dims"), k2 = pt_model_str(m, "dtype");
		for (size_t i = 0; i < n; i += 2) {
			char v[32];
			snprintf(v, sizeof(v), "[[%zu]]", i);
			struct pt_event_arg a = { (uint32_t)i, k1, pt_model_str(m, v) };
			pt_vec_push(&m->event_args, a);
			struct pt_event_arg b = { (uint32_t)i, k2, pt_model_str(m, "Float") };
			pt_vec_push(&m->event_args, b);
		}
		if (bad == 1)
			m->event_args.v[7].event = (uint32_t)n; /* no such event */
		if (bad == 2)
			m->event_args.v[m->event_args.n - 1].key = (uint32_t)m->strings.n + 3;
		if (bad == 3)
			m->event_args.v[m->event_args.n - 1].event = 0; /* back to the first event */
		char path[128];
		snprintf(path, sizeof(path), "%s/args%d.ptm", dir, bad);
		write_model(m, path, false);
		check_canonical(path);
		if (bad) {
			char *err = read_err(path);
			assert_non_null(err);
			assert_non_null(strstr(err, "event argument"));
			free(err);
		} else {
			struct pt_model *r = NULL;
			struct pt_err *e = NULL;
			assert_int_equal(pt_ptm_read(path, &r, &e), 0);
			assert_int_equal(r->event_args.n, m->event_args.n);
			for (size_t j = 0; j < m->event_args.n; j++)
				assert_memory_equal(&r->event_args.v[j], &m->event_args.v[j], sizeof(m->event_args.v[j]));
			assert_string_equal(r->devices.v[d].comm_backend, "nccl");
			uint32_t v = pt_model_event_arg(r, 4096, k1);
			assert_int_not_equal(v, UINT32_MAX);
			assert_string_equal(pt_model_strget(r, v), "[[4096]]");
			assert_string_equal(pt_model_strget(r, pt_model_event_arg(r, 4096, k2)), "Float");
			assert_int_equal(pt_model_event_arg(r, 4097, k1), UINT32_MAX);
			assert_int_equal(pt_model_event_arg(r, (uint32_t)n + 9, k1), UINT32_MAX);
			pt_model_free(r);
		}
		pt_model_free(m);
	}
}

/* API cbids (ApiCbidBatch) and a device's world size: a round trip over more than one batch, and the reader's
 * check (a name beyond the strings). */
static void test_api_cbids(void **state)
{
	(void)state;
	for (int bad = 0; bad < 2; bad++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_CPU, 100);
		m->devices.v[d].world_size = 8;
		size_t n = PT_PTM_EVENT_BATCH + 7;
		for (size_t i = 0; i < n; i++) {
			char nm[32];
			snprintf(nm, sizeof(nm), "cudaApi%zu", i);
			pt_model_add_api_cbid(m, pt_model_str(m, nm), (uint32_t)(i * 3 + 1));
		}
		if (bad)
			m->api_cbids.v[n - 1].name = (uint32_t)m->strings.n + 2;
		char path[128];
		snprintf(path, sizeof(path), "%s/cbids%d.ptm", dir, bad);
		write_model(m, path, false);
		check_canonical(path);
		if (bad) {
			char *err = read_err(path);
			assert_non_null(err);
			assert_non_null(strstr(err, "API cbid"));
			free(err);
		} else {
			struct pt_model *r = NULL;
			struct pt_err *e = NULL;
			assert_int_equal(pt_ptm_read(path, &r, &e), 0);
			assert_int_equal(r->api_cbids.n, n);
			for (size_t j = 0; j < n; j++)
				assert_memory_equal(&r->api_cbids.v[j], &m->api_cbids.v[j], sizeof(m->api_cbids.v[j]));
			assert_int_equal(r->devices.v[d].world_size, 8);
			pt_model_free(r);
		}
		pt_model_free(m);
	}
}

/* The writer encodes column batches itself: every chunk of an uncompressed
 * model must be exactly what protobuf-c packs for the message it decodes to. */
static void check_canonical(const char *path)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	size_t off = 16, chunks = 0;
	while (off < n) {
		uint64_t len = 0;
		int sh = 0;
		while (b[off] & 0x80)
			len |= (uint64_t)(b[off++] & 0x7f) << sh, sh += 7;
		len |= (uint64_t)b[off++] << sh;
		assert_true(off + len <= n);
		Proftool__Chunk *c = proftool__chunk__unpack(NULL, len, b + off);
		assert_non_null(c);
		size_t pn = proftool__chunk__get_packed_size(c);
		assert_int_equal(pn, len);
		uint8_t *re = malloc(pn ? pn : 1);
		proftool__chunk__pack(c, re);
		assert_memory_equal(re, b + off, len);
		free(re);
		proftool__chunk__free_unpacked(c, NULL);
		off += len;
		chunks++;
	}
	assert_true(chunks > 4);
	free(b);
}

static char *read_err(const char *path)
{
	struct pt_model *r = NULL;
	struct pt_err *e = NULL;
	if (!pt_ptm_read(path, &r, &e)) {
		pt_model_free(r);
		return NULL;
	}
	assert_null(r);
	char *s = pt_err_str(e);
	pt_err_free(e);
	return s;
}

static void test_corrupt(void **state)
{
	(void)state;
	struct pt_model *m = sample();
	char good[128], bad[128];
	snprintf(bad, sizeof(bad), "%s/bad.ptm", dir);
	for (int compress = 0; compress < 2; compress++) {
		snprintf(good, sizeof(good), "%s/good%d.ptm", dir, compress);
		write_model(m, good, compress);
		size_t n;
		uint8_t *b = slurp(good, &n);
		/* every truncation is an error, never a model */
		for (size_t cut = 0; cut < n; cut += (cut < 64 ? 1 : 97)) {
			spit(bad, b, cut);
			char *s = read_err(bad);
			assert_non_null(s);
			free(s);
		}
		/* bad magic */
		uint8_t *c = malloc(n);
		memcpy(c, b, n);
		c[1] = 'X';
		spit(bad, c, n);
		char *s = read_err(bad);
		assert_non_null(strstr(s, "not a proftool model (bad magic at offset 0)"));
		free(s);
		/* a newer format version */
		memcpy(c, b, n);
		c[8] = 9;
		spit(bad, c, n);
		s = read_err(bad);
		assert_non_null(strstr(s, "model format version 9 is newer"));
		free(s);
		/* flipped bytes in the body: checksum, corrupt chunk or zlib error. A flip
		 * may only be accepted when the content read is exactly the original
		 * (e.g. a change in an unused part of a deflate Huffman table header). */
		char *want = dump_str(m);
		for (size_t at = 16; at < n; at += 13) {
			memcpy(c, b, n);
			c[at] ^= 0x5a;
			spit(bad, c, n);
			s = read_err(bad);
			if (!s) {
				struct pt_model *r = NULL;
				struct pt_err *e = NULL;
				assert_int_equal(pt_ptm_read(bad, &r, &e), 0);
				char *got = dump_str(r);
				assert_string_equal(got, want);
				free(got);
				pt_model_free(r);
			}
			free(s);
		}
		free(want);
		/* data after the footer */
		uint8_t *d = malloc(n + 1);
		memcpy(d, b, n);
		d[n] = 0;
		if (!compress) {
			spit(bad, d, n + 1);
			s = read_err(bad);
			assert_non_null(strstr(s, "after the footer"));
			free(s);
		}
		free(d);
		free(c);
		free(b);
	}
	/* a gigantic chunk length right after the header */
	uint8_t g[32] = { 0x89, 'P', 'T', 'M', '\r', '\n', 0x1a, '\n', 1, 0, 0, 0, 0, 0, 0, 0,
			  0xff, 0xff, 0xff, 0xff, 0x0f };
	spit(bad, g, 21);
	char *s = read_err(bad);
	assert_non_null(strstr(s, "exceeds the limit"));
	free(s);
	/* an empty file */
	spit(bad, g, 0);
	s = read_err(bad);
	assert_non_null(strstr(s, "bad magic"));
	free(s);
	unlink(bad);
	pt_model_free(m);
}

/* A compressed model's zlib body made again from plain: the 16-byte header, then zlib's compress(). */
static void spit_zlib(const char *path, const uint8_t *hdr, const uint8_t *plain, size_t n)
{
	uLongf zn = compressBound(n);
	uint8_t *z = malloc(16 + zn);
	memcpy(z, hdr, 16);
	assert_int_equal(compress2(z + 16, &zn, plain, n, 6), Z_OK);
	spit(path, z, 16 + zn);
	free(z);
}

static int count_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	*(size_t *)arg += m->events.n;
	return 0;
}

/*
 * The compressed body's faults, each named with its place: a deflate block of the reserved type, a
 * distance before the start, an Adler-32 that is not the body's, a zlib header that is not one, and a
 * good zlib stream of a body whose CRC-32 (the footer's) is not its own. A read of the events again
 * (events_only) checks the CRC-32 alone. Read a byte at a time from a pipe, a good file reads whole.
 */
static void test_inflate_faults(void **state)
{
	(void)state;
	struct pt_model *m = sample();
	char good[128], bad[128];
	snprintf(good, sizeof(good), "%s/zgood.ptm", dir);
	snprintf(bad, sizeof(bad), "%s/zbad.ptm", dir);
	write_model(m, good, true);
	size_t n;
	uint8_t *b = slurp(good, &n);
	assert_true(n > 40 && b[16] == 0x78);
	/* the body, inflated by zlib */
	size_t pn = 16u << 20;
	uint8_t *plain = malloc(pn);
	uLongf pl = pn;
	assert_int_equal(uncompress(plain, &pl, b + 16, n - 16), Z_OK);
	uint8_t *c = malloc(n + 64);
	static const struct {
		size_t at;      /* from the end when negative */
		long long xor_or_set;
		const char *want;
	} cases[] = {
		{ 18, -0x07, "corrupt compressed data near body offset 0 (invalid block)" }, /* final, type 3 */
		{ 17, 0x01, "corrupt compressed data near body offset 0 (incorrect header check)" },
		{ 16, -0x79, "corrupt compressed data near body offset 0 (unknown compression method)" },
		{ 16, -0x88, "corrupt compressed data near body offset 0 (invalid window size)" },
		{ 17, -0xbb, "corrupt compressed data near body offset 0 (needs a preset dictionary)" },
		{ (size_t)-1, 0x10, "(incorrect data check)" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memcpy(c, b, n);
		size_t at = (ptrdiff_t)cases[k].at < 0 ? n + (size_t)cases[k].at : cases[k].at;
		if (cases[k].xor_or_set < 0)
			c[at] = (uint8_t)-cases[k].xor_or_set;
		else
			c[at] ^= (uint8_t)cases[k].xor_or_set;
		spit(bad, c, n);
		char *s = read_err(bad);
		assert_non_null(s);
		if (!strstr(s, cases[k].want))
			fail_msg("case %zu: '%s' lacks '%s'", k, s, cases[k].want);
		assert_non_null(strstr(s, "zbad.ptm"));
		free(s);
	}
	/* a stored block whose length check fails; a fixed-Huffman block whose first match reaches back
	 * before the start (length 3, distance 1, as its first symbol) */
	const uint8_t stored[] = { 0x78, 0x9c, 0x01, 0x05, 0x00, 0x05, 0x00, 'h', 'e', 'l', 'l', 'o' };
	const uint8_t far[] = { 0x78, 0x9c, 0x03, 0x02, 0x00, 0x00 };
	const struct { const uint8_t *z; size_t n; const char *want; } raw[] = {
		{ stored, sizeof(stored), "(invalid block)" },
		{ far, sizeof(far), "(invalid distance too far back)" },
	};
	for (size_t k = 0; k < 2; k++) {
		memcpy(c, b, 16);
		memcpy(c + 16, raw[k].z, raw[k].n);
		spit(bad, c, 16 + raw[k].n);
		char *s = read_err(bad);
		assert_non_null(s);
		if (!strstr(s, raw[k].want))
			fail_msg("raw %zu: '%s' lacks '%s'", k, s, raw[k].want);
		free(s);
	}
	/* a good zlib stream, a body whose bytes are not the ones its CRC-32 was made of */
	uint8_t *hit = memmem(plain, pl, "ascend-device", 13);
	assert_non_null(hit);
	hit[12] ^= 1;
	spit_zlib(bad, b, plain, pl);
	hit[12] ^= 1;
	char *s = read_err(bad);
	assert_non_null(s);
	assert_non_null(strstr(s, "checksum mismatch"));
	free(s);
	/* the events read again: the Adler-32 is not checked, the CRC-32 is */
	struct pt_model *first = pt_model_new();
	size_t events = 0;
	struct pt_ptm_sink all = { count_batch, &events, false, false };
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read_stream(good, first, &all, &e), 0);
	assert_int_equal(events, m->events.n);
	struct pt_ptm_sink again = { count_batch, &events, true, false };
	events = 0;
	assert_int_equal(pt_ptm_read_stream(bad, first, &again, &e), -1); /* the CRC-32 */
	s = pt_err_str(e);
	assert_non_null(strstr(s, "checksum mismatch"));
	free(s);
	pt_err_free(e);
	e = NULL;
	memcpy(c, b, n);
	c[n - 1] ^= 0x10;
	spit(bad, c, n);
	events = 0;
	assert_int_equal(pt_ptm_read_stream(bad, first, &again, &e), 0); /* the Adler-32 */
	assert_int_equal(events, m->events.n);
	pt_model_free(first);
	/* a pipe that gives a byte at a time at first (the zlib header split across reads), then the rest */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		for (size_t i = 0; i < 40; i++) {
			if (write(fds[1], b + i, 1) != 1)
				_exit(1);
			usleep(2000);
		}
		_exit(write(fds[1], b + 40, n - 40) == (ssize_t)(n - 40) ? 0 : 1);
	}
	close(fds[1]);
	struct pt_model *r = NULL;
	assert_int_equal(pt_ptm_read_fd(fds[0], "pipe", &r, &e), 0);
	close(fds[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && !WEXITSTATUS(st));
	char *want = dump_str(m), *got = dump_str(r);
	assert_string_equal(got, want);
	free(want);
	free(got);
	pt_model_free(r);
	unlink(bad);
	free(c);
	free(plain);
	free(b);
	pt_model_free(m);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pt-model-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Sparse event columns (model.h): corr/op/task stay zero-filled, untouched
 * arrays until a non-zero value arrives, across every growth of the arrays,
 * and read back identically from a .ptm. */
static void check_sparse(const struct pt_model *m, size_t n)
{
	const struct pt_events *ev = &m->events;
	assert_int_equal(ev->n, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev->start[i], (int64_t)i * 10);
		assert_int_equal(ev->corr[i], i >= 3000 && i % 2 ? i : 0);
		assert_int_equal(ev->op[i], 0);
		assert_int_equal(ev->task[i], i >= 4000 ? 7 : 0);
	}
}

static void ivset_equal(const struct pt_ivset *a, const struct pt_ivset *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].s, b->v[i].s);
		assert_int_equal(a->v[i].e, b->v[i].e);
	}
}

/*
 * The index's unions (C, M, per-kind sets) are merged from the per-track
 * sorted events; they must equal a plain sort-and-union of the same events:
 * events in random model order, ties, empty intervals, nesting, several
 * devices, and M's extra spans from the step trace.
 */
static void test_index_unions(void **state)
{
	(void)state;
	uint64_t r = 12345;
	for (int round = 0; round < 20; round++) {
		struct pt_model *m = pt_model_new();
		uint32_t gpu[2] = { pt_model_device(m, PT_DEV_GPU, 0), pt_model_device(m, PT_DEV_GPU, 1) };
		uint32_t npu = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t tr[7];
		for (int k = 0; k < 6; k++)
			tr[k] = pt_model_track(m, gpu[k % 2], PT_TRACK_STREAM, k, "s");
		tr[6] = pt_model_track(m, npu, PT_TRACK_STREAM, 9, "n");
		uint32_t names[2] = { pt_model_str(m, "gemm"), pt_model_str(m, "ncclAllReduce") };
		size_t n = 1 + (size_t)round * 97;
		for (size_t i = 0; i < n; i++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			uint32_t t = tr[(r >> 33) % 7];
			int64_t s = (int64_t)((r >> 20) % 5000), d = (int64_t)((r >> 8) % 40);
			if (!(r & 0xf0))
				d = 0;
			enum pt_event_kind k = t == tr[6] ? PT_EV_TASK : (r >> 4) % 3 ? PT_EV_KERNEL : PT_EV_MEMCPY;
			pt_model_add_event(m, t, names[(r >> 2) & 1], k, s, d, 0, PT_NONE, 0);
		}
		struct pt_step st = { .device = npu, .step = 1 };
		for (int j = 0; j < 3; j++) {
			struct pt_comm c = { .stream = 9, .tag = 3, .start = 1000 * j + 7, .end = 1000 * j + 300 };
			pt_vec_push(&st.comm, c);
		}
		pt_model_add_step(m, &st);
		struct pt_index *x = pt_index_new(m);
		const struct pt_events *ev = &m->events;
		for (uint32_t dev = 0; dev < m->devices.n; dev++) {
			struct pt_ival *iv[3] = { 0 };
			size_t ni[3] = { 0 };
			for (int c = 0; c < 3; c++)
				iv[c] = malloc((n + 3) * sizeof(*iv[c]));
			for (size_t i = 0; i < ev->n; i++) {
				if (m->tracks.v[ev->track[i]].device != dev)
					continue;
				struct pt_ival v = { ev->start[i], ev->start[i] + ev->dur[i] };
				if (ev->kind[i] == PT_EV_MEMCPY)
					iv[2][ni[2]++] = v;
				else if (ev->kind[i] == PT_EV_TASK || ev->name[i] == names[1])
					iv[1][ni[1]++] = v; /* unnamed Ascend tasks and nccl kernels: communication */
				else
					iv[0][ni[0]++] = v;
			}
			if (dev == npu)
				for (size_t j = 0; j < m->steps.v[0].comm.n; j++)
					iv[1][ni[1]++] = (struct pt_ival){ m->steps.v[0].comm.v[j].start, m->steps.v[0].comm.v[j].end };
			struct pt_ivset want[3] = { { 0 } };
			for (int c = 0; c < 3; c++)
				pt_ivset_build(&want[c], iv[c], ni[c]);
			ivset_equal(pt_index_comp(x, dev), &want[0]);
			ivset_equal(pt_index_comm(x, dev), &want[1]);
			ivset_equal(pt_index_kind_set(x, dev, PT_EV_MEMCPY), &want[2]);
			/*
			 * What the timeline gives back (the event lists and classes) is
			 * made again on demand: the same breakdown after the drop, and
			 * the next device (built after it) still checks against want.
			 */
			struct pt_breakdown b0, b1;
			pt_index_breakdown(x, dev, 100, 4000, &b0);
			{ /* |C ∪ M| in the window, from a plain union */
				struct pt_ivset u = { 0 };
				pt_ivset_union(&u, &want[0], &want[1]);
				int64_t either = pt_ivset_measure_in(&u, 100, 4000);
				assert_int_equal(b0.computation, pt_ivset_measure_in(&want[0], 100, 4000));
				assert_int_equal(b0.communication, pt_ivset_measure_in(&want[1], 100, 4000));
				assert_int_equal(b0.overlapped, b0.computation + b0.communication - either);
				assert_int_equal(b0.free, 3900 - either);
				pt_ivset_free(&u);
			}
			size_t nl0;
			const uint32_t *l0 = pt_index_track_events(x, tr[dev % 7], &nl0);
			uint32_t *keep = malloc((nl0 + 1) * sizeof(*keep));
			memcpy(keep, l0, nl0 * sizeof(*keep));
			pt_index_drop_event_lists(x);
			pt_index_breakdown(x, dev, 100, 4000, &b1);
			assert_memory_equal(&b0, &b1, sizeof(b0));
			size_t nl1;
			const uint32_t *l1 = pt_index_track_events(x, tr[dev % 7], &nl1);
			assert_int_equal(nl0, nl1);
			assert_memory_equal(keep, l1, nl0 * sizeof(*keep));
			free(keep);
			pt_index_drop_event_lists(x);
			for (int c = 0; c < 3; c++) {
				free(iv[c]);
				pt_ivset_free(&want[c]);
			}
		}
		pt_index_free(x);
		pt_model_free(m);
	}
}

static void test_sparse_columns(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "Stream 1");
	size_t n = 9000;
	for (size_t i = 0; i < n; i++) {
		if (i == 2999)
			assert_int_equal(m->events.dense, 0);
		pt_model_add_event(m, t, 0, PT_EV_TASK, (int64_t)i * 10, 5, i >= 3000 && i % 2 ? i : 0, PT_NONE,
				   i >= 4000 ? 7 : 0);
	}
	assert_int_equal(m->events.dense, PT_EVCOL_CORR | PT_EVCOL_TASK);
	check_sparse(m, n);
	char path[128];
	snprintf(path, sizeof(path), "%s/sparse.ptm", dir);
	write_model(m, path, true);
	struct pt_model *r = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ptm_read(path, &r, &e), 0);
	check_sparse(r, n);
	assert_int_equal(r->events.dense & PT_EVCOL_OP, 0);
	pt_model_free(r);
	pt_model_free(m);
}

/* A reader that knows how many events come (TrackEvents) sizes the columns to exactly that
 * many, once the events held are within 16 times of it; a false claim is not taken early. */
static void test_events_expect(void **state)
{
	(void)state;
	for (int claim = 0; claim < 3; claim++) {
		struct pt_model *m = pt_model_new();
		uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 1, "Stream 1");
		size_t n = 100000;
		m->events.expect = claim == 0 ? n : claim == 1 ? 1000000000 : 0;
		for (size_t i = 0; i < n; i++) {
			pt_model_add_event(m, t, 0, PT_EV_TASK, (int64_t)i * 10, 5, 0, PT_NONE, 0);
			if (i + 1 < n / 16)
				assert_true(m->events.cap < n / 8); /* growth as usual until then */
		}
		if (claim == 0)
			assert_int_equal(m->events.cap, n);
		else
			assert_true(m->events.cap > n && m->events.cap < 2 * n); /* the claim was not taken */
		if (claim == 0) {
			char path[128];
			snprintf(path, sizeof(path), "%s/expect.ptm", dir);
			m->events.expect = 0;
			write_model(m, path, true);
			struct pt_model *r = NULL;
			struct pt_err *e = NULL;
			assert_int_equal(pt_ptm_read(path, &r, &e), 0);
			assert_int_equal(r->events.n, n);
			assert_int_equal(r->events.cap, n); /* from the file's TrackEvents */
			assert_int_equal(r->events.expect, 0);
			pt_model_free(r);
		}
		pt_model_free(m);
	}
}

/*
 * The streaming import (ptm.h): events spilled window by window are written
 * as the same file as a model that kept them, whatever the window; an undo,
 * midway or at the end, gives the same model back. The events make every
 * sparse column dense in one part only, a track appears after the first
 * spill, and starts go back now and then (TrackEvents' order flag).
 */
static struct pt_model *spill_model(size_t window, long undo_at, size_t n, int zjobs)
{
	struct pt_model *m = pt_model_new();
	if (window)
		pt_ptm_spill_start(m, window);
	if (window && zjobs > 0) /* the spilled batches compressed as they come */
		pt_ptm_spill_compress(m, zjobs);
	if (window && zjobs < 0) { /* plain, to an unnamed file in dir; -2: in a directory that is not there */
		char sd[128];
		snprintf(sd, sizeof(sd), "%s%s", dir, zjobs == -2 ? "/no-such-dir" : "");
		assert_int_equal(pt_ptm_spill_to_plain_file(m, sd), zjobs == -1);
	}
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t0 = pt_model_track(m, d, PT_TRACK_STREAM, 1, "stream 1"), t1 = PT_NONE;
	uint32_t nm = pt_model_str(m, "Task");
	struct pt_op op;
	memset(&op, 0, sizeof(op));
	op.device = d;
	op.name = pt_model_str(m, "Default/MatMul-op1");
	op.task_type = -1;
	uint32_t oi = pt_model_add_op(m, &op);
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < n; i++) {
		if (i == n / 3)
			t1 = pt_model_track(m, d, PT_TRACK_STREAM, 2, "stream 2");
		if (undo_at >= 0 && i == (size_t)undo_at) {
			struct pt_err *e = NULL;
			assert_int_equal(pt_ptm_spill_undo(m, &e), 0);
			assert_null(m->events.spill);
			assert_int_equal(m->events.base, 0);
			assert_int_equal(m->events.n, i);
		}
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint32_t t = t1 != PT_NONE && (x & 1) ? t1 : t0;
		int64_t start = ((int64_t)i * 100 - (int64_t)(x >> 58)) * 10;
		uint64_t corr = i >= n / 4 && i < n / 2 ? i : 0;
		uint32_t o = i > 2 * n / 3 && (x & 2) ? oi : PT_NONE;
		uint64_t task = i < n / 2 && (i & 1) ? x >> 20 : 0;
		pt_model_add_event(m, t, (x >> 8) & 1 ? nm : 0, PT_EV_TASK, start, (int64_t)((x >> 40) & 1023) * 10, corr,
				   o, task);
		if (window && undo_at < 0)
			assert_true(m->events.n <= (window < PT_PTM_EVENT_BATCH ? PT_PTM_EVENT_BATCH : window) * 3 / 2);
	}
	assert_int_equal(pt_events_total(&m->events), n);
	return m;
}

static uint8_t *spill_bytes(const struct pt_model *m, bool compress, size_t *len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/spill.ptm", dir);
	write_model(m, path, compress);
	return slurp(path, len);
}

static void test_spill(void **state)
{
	(void)state;
	size_t n = 50000;
	struct pt_model *ref = spill_model(0, -1, n, 0);
	char *ref_dump = dump_str(ref);
	/* written plain or compressed, from a plain spill or a compressing one (1 or 2 threads) */
	for (int mode = 0; mode < 4; mode++) {
		bool compress = mode & 1;
		size_t rl;
		uint8_t *rb = spill_bytes(ref, compress, &rl);
		static const size_t windows[] = { 1, PT_PTM_EVENT_BATCH, 3 * PT_PTM_EVENT_BATCH + 5, 1u << 20 };
		for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
			int zjobs = mode & 2 ? 1 + (int)(w % 2) : 0;
			struct pt_model *m = spill_model(windows[w], -1, n, zjobs);
			if (windows[w] < n)
				assert_true(m->events.base > 0 && m->events.base % PT_PTM_EVENT_BATCH == 0);
			size_t l;
			struct pt_model *once = spill_model(windows[w], -1, n, zjobs);
			uint8_t *b = spill_bytes(once, compress, &l);
			assert_int_equal(l, rl);
			assert_memory_equal(b, rb, l);
			free(b);
			if (zjobs && compress && windows[w] < n) { /* the compressor was taken over: one write only */
				char *err = NULL;
				char path[128];
				snprintf(path, sizeof(path), "%s/again.ptm", dir);
				struct pt_out o;
				struct pt_err *e = NULL;
				assert_int_equal(pt_out_open(&o, path, &e), 0);
				assert_int_equal(pt_ptm_write(once, &o, compress, 1, &e), -1);
				pt_out_abort(&o);
				err = pt_err_str(e);
				assert_non_null(strstr(err, "written once"));
				free(err);
				pt_err_free(e);
			}
			pt_model_free(once);
			/* an undo at the end, and one midway with more events after it */
			static const long at[] = { -2, 20011 };
			for (int u = 0; u < 2; u++) {
				struct pt_model *v = at[u] == -2 ? m : spill_model(windows[w], at[u], n, zjobs);
				if (at[u] == -2) {
					struct pt_err *e = NULL;
					assert_int_equal(pt_ptm_spill_undo(v, &e), 0);
				}
				char *dv = dump_str(v);
				assert_string_equal(dv, ref_dump);
				free(dv);
				b = spill_bytes(v, compress, &l);
				assert_int_equal(l, rl);
				assert_memory_equal(b, rb, l);
				free(b);
				if (v != m)
					pt_model_free(v);
			}
			pt_model_free(m);
		}
		free(rb);
	}
	free(ref_dump);
	pt_model_free(ref);
}

/* pt_ptm_spill_replay feeds the spilled and the held events in model order. */
struct replay_check {
	const struct pt_model *ref;
	size_t next, batches;
};

static int replay_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct replay_check *c = arg;
	const struct pt_events *a = &m->events, *r = &c->ref->events;
	assert_true(a->n > 0 && a->n <= PT_PTM_EVENT_BATCH && c->next + a->n <= r->n);
	for (size_t i = 0; i < a->n; i++) {
		size_t j = c->next + i;
		assert_int_equal(a->track[i], r->track[j]);
		assert_int_equal(a->name[i], r->name[j]);
		assert_int_equal(a->kind[i], r->kind[j]);
		assert_int_equal(a->start[i], r->start[j]);
		assert_int_equal(a->dur[i], r->dur[j]);
		assert_int_equal(a->corr[i], r->corr[j]);
		assert_int_equal(a->op[i], r->op[j]);
		assert_int_equal(a->task[i], r->task[j]);
	}
	c->next += a->n;
	c->batches++;
	return 0;
}

static void test_spill_replay(void **state)
{
	(void)state;
	size_t n = 50000;
	struct pt_model *ref = spill_model(0, -1, n, 0);
	struct pt_track_events *want = pt_ptm_track_events(ref);
	/* a plain spill in a file (-1), in memory where the file's directory is not there (-2), in memory (0),
	 * and compressing ones (sealed by the first replay, inflated a batch at a time) */
	for (int zjobs = -2; zjobs <= 2; zjobs++) {
		for (int compress = 0; compress < 2; compress++) {
			struct pt_model *m = spill_model(3 * PT_PTM_EVENT_BATCH, -1, n, zjobs);
			size_t base = m->events.base, held = m->events.n;
			assert_true(base > 0 && held > 0);
			for (int round = 0; round < 2; round++) { /* repeatable */
				struct replay_check c = { ref, 0, 0 };
				struct pt_ptm_sink sink = { replay_batch, &c, false, false };
				struct pt_err *e = NULL;
				assert_int_equal(pt_ptm_spill_replay(m, &sink, &e), 0);
				assert_int_equal(c.next, n);
				assert_int_equal(m->events.base, base);
				assert_int_equal(m->events.n, held);
				assert_int_equal(m->track_events.n, m->tracks.n);
				for (size_t t = 0; t < m->tracks.n; t++)
					assert_memory_equal(&m->track_events.v[t], &want[t], sizeof(want[t]));
			}
			size_t zl;
			uint64_t plain;
			assert_true((pt_ptm_spill_zbytes(m->events.spill, &zl, &plain) != NULL) == (zjobs > 0));
			assert_true(pt_ptm_spill_plain_file(m->events.spill, &plain) == (zjobs == -1));
			if (zjobs == -1) { /* every spilled batch on file, none in memory */
				pt_ptm_spill_bytes(m->events.spill, &zl);
				assert_int_equal(zl, 0);
				assert_true(plain > 0);
			}
			/* and the model is still written as the in-memory one, plain or compressed */
			size_t la, lb;
			uint8_t *a = spill_bytes(ref, compress, &la), *b = spill_bytes(m, compress, &lb);
			assert_int_equal(la, lb);
			assert_memory_equal(a, b, la);
			free(a);
			free(b);
			pt_model_free(m);
		}
	}
	free(want);
	pt_model_free(ref);
}

static int fail_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)arg;
	(void)m;
	return pt_err(e, "stopped");
}

/* A tape (ptm.h): the first streaming read keeps the file's body, the later ones replay it, the file gone, with
 * the same batches and the footer's checks passed; a body over the limit, or a read that fails, keeps nothing,
 * and the later reads read the file. */
static void test_tape(void **state)
{
	(void)state;
	size_t n = 3 * PT_PTM_EVENT_BATCH + 17;
	struct pt_model *ref = spill_model(0, -1, n, 0);
	for (int compress = 0; compress < 2; compress++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/tape%d.ptm", dir, compress);
		write_model(ref, path, compress);
		size_t fsize;
		uint8_t *file = slurp(path, &fsize);
		struct pt_err *e = NULL;
		/* a read that fails */
		struct pt_ptm_tape t = { .limit = 64u << 20 };
		struct pt_model *m = pt_model_new();
		struct pt_ptm_sink stop = { fail_batch, NULL, false, true };
		assert_int_equal(pt_ptm_read_stream_tape(path, m, &stop, 0, &t, &e), -1);
		pt_err_free(e);
		e = NULL;
		assert_true(t.over && !t.whole && !t.v && !t.n);
		pt_model_free(m);
		/* the body's size, from a tape that keeps it */
		t = (struct pt_ptm_tape){ .limit = 64u << 20 };
		m = pt_model_new();
		struct pt_ptm_sink count = { replay_batch, &(struct replay_check){ ref, 0, 0 }, false, true };
		assert_int_equal(pt_ptm_read_stream_tape(path, m, &count, 0, &t, &e), 0);
		size_t body = t.n;
		assert_true(t.whole && body > 2000);
		if (!compress) { /* the file's bytes after the header */
			assert_int_equal(body, fsize - 16);
			assert_memory_equal(t.v, file + 16, body);
		}
		pt_ptm_tape_free(&t);
		pt_model_free(m);
		/* limits: 1,000 bytes (the file is larger: nothing kept from the start), one byte short of the
		 * body (dropped as the read goes on), the body's size (kept) */
		size_t limits[3] = { 1000, body - 1, body };
		for (int l = 0; l < 3; l++) {
			bool keep = l == 2;
			t = (struct pt_ptm_tape){ .limit = limits[l] };
			m = pt_model_new();
			struct replay_check c = { ref, 0, 0 };
			struct pt_ptm_sink first = { replay_batch, &c, false, true };
			assert_int_equal(pt_ptm_read_stream_tape(path, m, &first, 0, &t, &e), 0);
			assert_int_equal(c.next, n);
			assert_true(t.whole == keep && t.over == !keep && (t.v != NULL) == keep);
			if (keep) /* the replays do not read the file */
				assert_int_equal(unlink(path), 0);
			for (int round = 0; round < 2; round++) {
				struct replay_check c2 = { ref, 0, 0 };
				struct pt_ptm_sink again = { replay_batch, &c2, true, true };
				assert_int_equal(pt_ptm_read_stream_tape(path, m, &again, 0, &t, &e), 0);
				assert_int_equal(c2.next, n);
				assert_int_equal(c2.batches, c.batches);
			}
			pt_ptm_tape_free(&t);
			assert_true(!t.v && !t.whole);
			pt_model_free(m);
		}
		free(file);
	}
	pt_model_free(ref);
}

/* A tape of the event batches alone (pt_ptm_tape.events_only): it keeps less than the body, only what a read
 * of the events alone takes, and such reads replay it, the file gone; its limit counts what it keeps; a read
 * that is not of the events alone reads the file and leaves the tape as it was; a read that fails keeps
 * nothing. */
static void test_tape_events_only(void **state)
{
	(void)state;
	size_t n = 3 * PT_PTM_EVENT_BATCH + 17;
	struct pt_model *ref = spill_model(0, -1, n, 0);
	for (int compress = 0; compress < 2; compress++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/tapev%d.ptm", dir, compress);
		write_model(ref, path, compress);
		struct pt_err *e = NULL;
		/* the whole body's size */
		struct pt_ptm_tape t = { .limit = 64u << 20 };
		struct pt_model *m = pt_model_new();
		struct pt_ptm_sink count = { replay_batch, &(struct replay_check){ ref, 0, 0 }, false, true };
		assert_int_equal(pt_ptm_read_stream_tape(path, m, &count, 0, &t, &e), 0);
		size_t body = t.n;
		pt_ptm_tape_free(&t);
		pt_model_free(m);
		/* a read that fails keeps nothing */
		t = (struct pt_ptm_tape){ .limit = 64u << 20, .events_only = true };
		m = pt_model_new();
		struct pt_ptm_sink stop = { fail_batch, NULL, false, true };
		assert_int_equal(pt_ptm_read_stream_tape(path, m, &stop, 0, &t, &e), -1);
		pt_err_free(e);
		e = NULL;
		assert_true(t.over && !t.whole && !t.v && !t.n);
		pt_model_free(m);
		/* the event batches: less than the body */
		t = (struct pt_ptm_tape){ .limit = 64u << 20, .events_only = true };
		m = pt_model_new();
		struct replay_check c = { ref, 0, 0 };
		struct pt_ptm_sink first = { replay_batch, &c, false, true };
		assert_int_equal(pt_ptm_read_stream_tape(path, m, &first, 0, &t, &e), 0);
		size_t kept = t.n;
		assert_true(t.whole && kept > 1000 && kept < body);
		pt_ptm_tape_free(&t);
		pt_model_free(m);
		/* limits: one byte short of what it keeps (dropped), that much (kept) */
		for (int l = 0; l < 2; l++) {
			t = (struct pt_ptm_tape){ .limit = kept - 1 + (size_t)l, .events_only = true };
			m = pt_model_new();
			c = (struct replay_check){ ref, 0, 0 };
			assert_int_equal(pt_ptm_read_stream_tape(path, m, &first, 0, &t, &e), 0);
			assert_int_equal(c.next, n);
			assert_true(t.whole == (l == 1) && t.over == (l == 0));
			/* a read that is not of the events alone: from the file, the tape as it was */
			struct pt_model *m2 = pt_model_new();
			struct replay_check c3 = { ref, 0, 0 };
			struct pt_ptm_sink full = { replay_batch, &c3, false, true };
			assert_int_equal(pt_ptm_read_stream_tape(path, m2, &full, 0, &t, &e), 0);
			assert_int_equal(c3.next, n);
			assert_int_equal(m2->strings.n, ref->strings.n);
			assert_int_equal(m2->tracks.n, ref->tracks.n);
			assert_int_equal(t.n, l ? kept : 0);
			pt_model_free(m2);
			if (l) { /* the replays do not read the file */
				char moved[160];
				snprintf(moved, sizeof(moved), "%s.moved", path);
				assert_int_equal(rename(path, moved), 0);
				for (int round = 0; round < 2; round++) {
					struct replay_check c2 = { ref, 0, 0 };
					struct pt_ptm_sink again = { replay_batch, &c2, true, true };
					assert_int_equal(pt_ptm_read_stream_tape(path, m, &again, 0, &t, &e), 0);
					assert_int_equal(c2.next, n);
					assert_int_equal(c2.batches, c.batches);
				}
				/* nor can a full read come from it */
				m2 = pt_model_new();
				assert_int_equal(pt_ptm_read_stream_tape(path, m2, &full, 0, &t, &e), -1);
				pt_err_free(e);
				e = NULL;
				pt_model_free(m2);
				assert_int_equal(rename(moved, path), 0);
			}
			pt_ptm_tape_free(&t);
			pt_model_free(m);
		}
		unlink(path);
	}
	pt_model_free(ref);
}

/* A plain file spill whose file cannot take the events (a file size limit here): the replay says so, naming
 * the directory, and so does an undo. */
static void test_spill_file_full(void **state)
{
	(void)state;
	struct rlimit old;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	struct rlimit small = { 4096, old.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	struct pt_model *m = spill_model(PT_PTM_EVENT_BATCH, -1, 20000, -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	struct replay_check c = { NULL, 0, 0 };
	struct pt_ptm_sink sink = { replay_batch, &c, false, false };
	for (int undo = 0; undo < 2; undo++) {
		struct pt_err *e = NULL;
		assert_int_equal(undo ? pt_ptm_spill_undo(m, &e) : pt_ptm_spill_replay(m, &sink, &e), -1);
		char *err = pt_err_str(e);
		assert_non_null(strstr(err, "cannot write the temporary file of the model's events in"));
		assert_non_null(strstr(err, dir));
		free(err);
		pt_err_free(e);
	}
	assert_int_equal(c.batches, 0);
	pt_model_free(m);
}

/* Kernels launched alike share one configuration, found again across the index's growth. */
static void test_kernel_configs(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	enum { NCFG = 3000, NK = 20000 };
	for (uint32_t i = 0; i < NK; i++) {
		uint32_t c = i < NCFG ? i : (i * 7919u) % NCFG; /* every one first, then in a scrambled order */
		struct pt_kernel_config k = { { (int32_t)c, 1, 1 }, { 128, 1, 1 }, 32, 0, (int32_t)(c % 7), c % 3 };
		pt_model_add_kernel(m, i, &k);
		if (i % 2) /* a repeat of the last one */
			pt_model_add_kernel(m, i, &k);
	}
	assert_int_equal(m->kernel_configs.n, NCFG);
	assert_int_equal(m->kernels.n, NK + NK / 2);
	/* three configurations in turn, then two alternating: found again from the two last ones */
	for (uint32_t i = 0; i < 12; i++) {
		uint32_t c = i < 6 ? i % 3 : 5 + i % 2;
		struct pt_kernel_config k = { { (int32_t)c, 1, 1 }, { 128, 1, 1 }, 32, 0, (int32_t)(c % 7), c % 3 };
		pt_model_add_kernel(m, NK + i, &k);
		assert_int_equal(m->kernels.v[m->kernels.n - 1].config, c);
		m->kernels.n--;
	}
	for (size_t j = 0; j < m->kernels.n; j++) {
		const struct pt_kernel_config *k = pt_model_kernel_config(m, j);
		uint32_t i = m->kernels.v[j].event, c = i < NCFG ? i : (i * 7919u) % NCFG;
		assert_int_equal(k->grid[0], c);
		assert_int_equal(k->dynamic_smem, c % 7);
		assert_int_equal(k->graph_id, c % 3);
		assert_int_equal(m->kernels.v[j].config, c); /* in order of first use */
	}
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_sparse_columns),
		cmocka_unit_test(test_events_expect),
		cmocka_unit_test(test_spill),
		cmocka_unit_test(test_spill_replay),
		cmocka_unit_test(test_spill_file_full),
		cmocka_unit_test(test_tape),
		cmocka_unit_test(test_tape_events_only),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_inflate_faults),
		cmocka_unit_test(test_extreme_times),
		cmocka_unit_test(test_delta_columns),
		cmocka_unit_test(test_huge_quantum),
		cmocka_unit_test(test_quantum_division),
		cmocka_unit_test(test_sync_info),
		cmocka_unit_test(test_event_args),
		cmocka_unit_test(test_api_cbids),
		cmocka_unit_test(test_cross_references),
		cmocka_unit_test(test_kernel_configs),
		cmocka_unit_test(test_index_unions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
