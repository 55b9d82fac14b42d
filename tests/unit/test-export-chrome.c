/* Unit tests of the Chrome trace writer (chrome-trace.md §13): time text, escapes, nesting, flows, split, gzip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "chrome-check.h"
#include "export/export-chrome.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/pass-timeline.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/xalloc.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/pt-chrome-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = pt_xasprintf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);
	free(cmd);
	return rc;
}

struct run {
	struct chrome_check ck;
	struct pt_chrome_stats st;
	char *path;
	char *text;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = pt_xmalloc((size_t)n + 1);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = 0;
	fclose(f);
	return b;
}

/* What a test asks of the timeline pass's trace and of the writer. */
struct copts {
	const char *trace_name;
	bool flows, demangle, gzip;
	uint64_t part_limit;
};

/* The viewer trace of the timeline tl written to path. */
static int write_trace(const struct pt_model *m, struct pt_index *x, const struct pt_tl *tl, const struct copts *co,
		       const char *path, struct pt_diag *diag, struct pt_chrome_stats *st, struct pt_err **e)
{
	struct pt_tl_trace_opts to = { .trace_name = co->trace_name, .flows = co->flows, .demangle = co->demangle };
	struct pt_trace *t = NULL;
	if (pt_tl_trace_new(m, x, tl, &to, diag, &t, e))
		return -1;
	struct pt_chrome_opts wo = { .trace_name = co->trace_name, .gzip = co->gzip, .part_limit = co->part_limit };
	int rc = pt_chrome_write(t, &wo, path, st, e);
	pt_tl_trace_free(t);
	return rc;
}

/* Write m as a trace to tmpdir/name and check it. */
static void run_trace(struct run *r, struct pt_model *m, const struct pt_tl_opts *to, struct copts *co,
		      const char *name)
{
	memset(r, 0, sizeof(*r));
	r->path = pt_xasprintf("%s/%s", tmpdir, name);
	struct pt_index *x = pt_index_new(m);
	struct pt_tl *tl = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_timeline(m, x, to, &tl, &e), 0);
	struct pt_diag diag = { 0 };
	if (!co->trace_name)
		co->trace_name = "test";
	int rc = write_trace(m, x, tl, co, r->path, &diag, &r->st, &e);
	if (rc) {
		char *s = pt_err_str(e);
		fail_msg("write failed: %s", s);
	}
	pt_diag_free(&diag);
	pt_tl_free(tl);
	pt_index_free(x);
	if (r->st.parts == 1) {
		if (chrome_check_file(r->path, &r->ck, 1))
			fail_msg("check failed: %s", r->ck.err);
		if (!co->gzip)
			r->text = slurp(r->path);
	}
}

static void run_free(struct run *r)
{
	json_decref(r->ck.root);
	free(r->path);
	free(r->text);
}

static json_t *events(struct run *r)
{
	return json_object_get(r->ck.root, "traceEvents");
}

/* The first event with ph and name (NULL = any). */
static json_t *find(struct run *r, const char *ph, const char *name)
{
	json_t *a = events(r);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *ev = json_array_get(a, i);
		if (strcmp(json_string_value(json_object_get(ev, "ph")), ph))
			continue;
		if (name && (!json_string_value(json_object_get(ev, "name")) ||
			     strcmp(json_string_value(json_object_get(ev, "name")), name)))
			continue;
		return ev;
	}
	return NULL;
}

static size_t count(struct run *r, const char *ph)
{
	json_t *a = events(r);
	size_t n = 0;
	for (size_t i = 0; i < json_array_size(a); i++)
		n += !strcmp(json_string_value(json_object_get(json_array_get(a, i), "ph")), ph);
	return n;
}

/* thread_name of (pid, tid) */
static const char *thread_name(struct run *r, json_t *ev)
{
	json_t *a = events(r);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *m = json_array_get(a, i);
		if (strcmp(json_string_value(json_object_get(m, "ph")), "M") ||
		    strcmp(json_string_value(json_object_get(m, "name")), "thread_name"))
			continue;
		if (json_integer_value(json_object_get(m, "tid")) == json_integer_value(json_object_get(ev, "tid")))
			return json_string_value(json_object_get(json_object_get(m, "args"), "name"));
	}
	return NULL;
}

static void test_time_text(void **state)
{
	(void)state;
	static const struct {
		int64_t v;
		const char *s;
	} cases[] = { { 0, "0.000" }, { 1, "0.001" }, { 999, "0.999" }, { 1000, "1.000" }, { 1234567, "1234.567" },
		      { 9007199254740991, "9007199254740.991" } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char b[40];
		size_t n = pt_chrome_fmt_us(b, cases[i].v);
		b[n] = 0;
		assert_string_equal(b, cases[i].s);
	}
	/* the digit writer against printf: every value below 2 * 10^6 (every
	 * length of the short path and its leading zeros), each side of every
	 * power of ten, and a million pseudo-random values of every magnitude */
	char b[48], want[48];
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	for (uint64_t i = 0; i < 3000000; i++) {
		uint64_t v;
		if (i < 2000000) {
			v = i;
		} else if (i < 2000000 + 19 * 3) {
			uint64_t p10 = 10;
			for (uint64_t k = (i - 2000000) / 3; k; k--)
				p10 *= 10;
			v = p10 - 1 + (i - 2000000) % 3;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (x % 64);
		}
		v &= INT64_MAX;
		size_t n = pt_chrome_fmt_us(b, (int64_t)v);
		int wn = snprintf(want, sizeof(want), "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
		if (n != (size_t)wn || memcmp(b, want, n)) {
			b[n] = 0;
			fail_msg("%" PRIu64 ": got '%s', want '%s'", v, b, want);
		}
	}
}

/*
 * No false nesting (chrome-trace.md §3): for any start and duration, the
 * doubles of the ts and dur texts add up (in IEEE doubles, as JavaScript's
 * ts + dur) to T(E), the double of the end's text with its last significand
 * bit cleared (a monotone function of the end, never above it; a zero dur is
 * 0.000 and ends at ts), and dur still reads back as the integer ns. The first case is JOB3's step 1 of device 1, which overlapped
 * step 2 by one unit in the last place with three-decimal durations.
 */
static void check_dur(int64_t rel, int64_t dur)
{
	char ts[48], d[48], end[48];
	ts[pt_chrome_fmt_us(ts, rel)] = 0;
	d[pt_chrome_fmt_dur(d, rel, dur)] = 0;
	end[pt_chrome_fmt_us(end, rel + dur)] = 0;
	volatile double sum = strtod(ts, NULL) + strtod(d, NULL), e = strtod(end, NULL);
	uint64_t eb, sb;
	memcpy(&eb, (const double *)&e, 8);
	memcpy(&sb, (const double *)&sum, 8);
	if (!dur ? strcmp(d, "0.000") || sum != e : sum > e || sb != (eb & ~(uint64_t)1)) /* T(E): E with its last significand bit cleared */
		fail_msg("rel %" PRId64 " dur %" PRId64 ": %s + %s = %.17g, end %s", rel, dur, ts, d, sum, end);
	if (llround(strtod(d, NULL) * 1000.0) != dur)
		fail_msg("rel %" PRId64 " dur %" PRId64 ": dur text %s", rel, dur, d);
	if (strchr(d, 'e') || strchr(d, 'E') || !strchr(d, '.') || strlen(d) - (size_t)(strchr(d, '.') - d) < 4)
		fail_msg("dur text %s: not a plain decimal with at least three decimals", d);
}

static void test_dur_text(void **state)
{
	(void)state;
	char b[48];
	b[pt_chrome_fmt_dur(b, 51230322810, 209538950)] = 0; /* S + D overshoots the end with three decimals */
	assert_string_not_equal(b, "209538.950");
	check_dur(51230322810, 209538950);
	b[pt_chrome_fmt_dur(b, 1000, 2000)] = 0; /* exact values keep three decimals */
	assert_string_equal(b, "2.000");
	b[pt_chrome_fmt_dur(b, 0, 0)] = 0;
	assert_string_equal(b, "0.000");
	uint64_t x = 0x2545F4914F6CDD1DULL;
	size_t changed = 0;
	for (int i = 0; i < 2000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int64_t rel = (int64_t)((x >> 11) % ((uint64_t)1 << (20 + i % 23)));
		int64_t dur = (int64_t)((x >> 3) % ((uint64_t)1 << (1 + i % 40)));
		check_dur(rel, dur);
		char t[48];
		size_t n = pt_chrome_fmt_dur(b, rel, dur);
		changed += n != pt_chrome_fmt_us(t, dur) || memcmp(b, t, n);
	}
	assert_true(changed > 0); /* the adjustment is exercised */
	/* near 2^49 ns (6.5 days), where a unit in the last place is an eighth of a ns */
	for (int64_t k = 0; k < 100000; k++)
		check_dur(((int64_t)1 << 49) - 50000 + k * 7919, k % 3000);
}

/* §13.1: base and ts; GPU traces are in the unix clock */
static void test_base(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t k = pt_model_str(m, "k");
	pt_model_add_event(m, t, k, PT_EV_KERNEL, 1700000000000309779, 10, 0, PT_NONE, 0);
	pt_model_add_event(m, t, k, PT_EV_KERNEL, 1700000000001234567, 10, 0, PT_NONE, 0);
	struct pt_tl_opts to = { .overlap = true };
	struct copts co = { .flows = true, .demangle = true };
	struct run r;
	run_trace(&r, m, &to, &co, "base.json");
	json_t *root = r.ck.root;
	assert_int_equal(json_integer_value(json_object_get(root, "baseTimeNanoseconds")), 1700000000000309000);
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "proftool"), "clock")), "unix");
	assert_non_null(strstr(r.text, "\"ts\":925.567,"));
	assert_non_null(strstr(r.text, "\"ts\":0.779,"));
	/* §1: key order, each key on its own line; HTA's rank line is in distributedInfo */
	assert_int_equal(r.text[0], '{');
	const char *di = strstr(r.text, "\n\"distributedInfo\": {\"rank\": 0}");
	const char *pr = strstr(r.text, "\n\"proftool\": ");
	const char *bt = strstr(r.text, "\n\"baseTimeNanoseconds\": ");
	const char *te = strstr(r.text, "\n\"traceEvents\": [");
	const char *tn = strstr(r.text, "\n\"traceName\": \"test\"");
	assert_true(di && pr && bt && te && tn && di < pr && pr < bt && bt < te && te < tn);
	assert_true(strstr(r.text, "\"rank\": ") > di);
	/* overlap process of the GPU: a computation row */
	assert_non_null(find(&r, "X", "Computation"));
	run_free(&r);
	pt_model_free(m);
}

/*
 * Event ts texts in a row: the writer copies the leading digits (the
 * microseconds / 100) from the last ts when they are the same, so starts
 * on both sides of 100 us steps, below 100 us, with 8 leading digits (the
 * most it keeps) and with more.
 */
static void test_ts_runs(void **state)
{
	(void)state;
	static const int64_t starts[] = { 0,
					  5,
					  99999,
					  100000,
					  100500,
					  199999,
					  250000,
					  250001,
					  1234567800000,
					  1234567899999,
					  1234567900000,
					  8999999999900000,
					  8999999999950000,
					  9000000000000000,
					  9000000000000001 };
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	uint32_t k = pt_model_str(m, "k");
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		pt_model_add_event(m, t, k, PT_EV_KERNEL, starts[i], 1, 0, PT_NONE, 0);
	struct pt_tl_opts to = { 0 };
	struct copts co = { 0 };
	struct run r;
	run_trace(&r, m, &to, &co, "ts-runs.json");
	assert_int_equal(json_integer_value(json_object_get(r.ck.root, "baseTimeNanoseconds")), 0);
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "\"ts\":%" PRId64 ".%03" PRId64 ",\"dur\"", starts[i] / 1000, starts[i] % 1000);
		if (!strstr(r.text, want))
			fail_msg("no %s in the trace", want);
	}
	assert_int_equal(count(&r, "X"), sizeof(starts) / sizeof(starts[0]));
	run_free(&r);
	pt_model_free(m);
}

/*
 * The merge's 128-bit keys: over 1024 sources and a span of 2^52 ns do not
 * fit the 64-bit ones (ts << 11 bits), so this trace is merged with the wide
 * keys; its events still come in (ts, pid, tid) order.
 */
static void test_merge_wide(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t k = pt_model_str(m, "k");
	const int nstreams = 1100;
	for (int i = 0; i < nstreams; i++) {
		char name[32];
		snprintf(name, sizeof(name), "stream %d", i);
		uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, i, name);
		pt_model_add_event(m, t, k, PT_EV_KERNEL, (int64_t)((nstreams - i) % 9) << 49, 1000, 0, PT_NONE, 0);
	}
	struct pt_tl_opts to = { 0 };
	struct copts co = { 0 };
	struct run r;
	run_trace(&r, m, &to, &co, "merge-wide.json");
	json_t *a = events(&r);
	double lts = -1;
	json_int_t ltid = -1;
	size_t n = 0;
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *ev = json_array_get(a, i);
		if (strcmp(json_string_value(json_object_get(ev, "ph")), "X"))
			continue;
		double ts = json_number_value(json_object_get(ev, "ts"));
		json_int_t tid = json_integer_value(json_object_get(ev, "tid"));
		assert_true(ts > lts || (ts == lts && tid > ltid));
		lts = ts;
		ltid = tid;
		n++;
	}
	assert_int_equal(n, nstreams);
	assert_true(lts == 8.0 * (1ll << 49) / 1000);
	run_free(&r);
	pt_model_free(m);
}

/* §13.2: escapes */
static void test_escapes(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_CPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_HOST_THREAD, 3, "");
	pt_model_add_event(m, t, pt_model_str(m, "a\"b\\c\nd\te\001f\377g"), PT_EV_RANGE, 0, 10, 0, PT_NONE, 0);
	struct pt_tl_opts to = { .overlap = true };
	struct copts co = { .flows = true, .demangle = true };
	struct run r;
	run_trace(&r, m, &to, &co, "esc.json");
	assert_non_null(strstr(r.text, "\"name\":\"a\\\"b\\\\c\\nd\\te\\u0001f\\ufffdg\""));
	json_t *x = find(&r, "X", NULL);
	assert_non_null(x);
	assert_string_equal(json_string_value(json_object_get(x, "name")), "a\"b\\c\nd\te\001f\xef\xbf\xbdg");
	run_free(&r);
	pt_model_free(m);
}

/* §13.3: nesting overflow */
static void test_nesting(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_CPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_HOST_THREAD, 42, "");
	pt_model_add_event(m, t, pt_model_str(m, "A"), PT_EV_RANGE, 0, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "B"), PT_EV_RANGE, 50, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "C"), PT_EV_RANGE, 60, 10, 0, PT_NONE, 0);
	struct pt_tl_opts to = { .overlap = true };
	struct copts co = { .flows = true, .demangle = true };
	struct run r;
	run_trace(&r, m, &to, &co, "nest.json");
	assert_string_equal(thread_name(&r, find(&r, "X", "A")), "Thread 42");
	assert_string_equal(thread_name(&r, find(&r, "X", "B")), "Thread 42 #2");
	assert_string_equal(thread_name(&r, find(&r, "X", "C")), "Thread 42");
	assert_int_equal(r.st.overflow_events, 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r.ck.root, "proftool"), "overflow_events")), 1);
	run_free(&r);
	pt_model_free(m);
}

static struct pt_model *flow_model(void)
{
	struct pt_model *m = pt_model_new();
	uint32_t h = pt_model_device(m, PT_DEV_CPU, 0);
	uint32_t g = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t th = pt_model_track(m, h, PT_TRACK_HOST_THREAD, 9, "");
	uint32_t ts = pt_model_track(m, g, PT_TRACK_STREAM, 7, "stream 7");
	pt_model_add_event(m, th, pt_model_str(m, "cudaLaunchKernel_v7000"), PT_EV_API, 10, 10, 5, PT_NONE, 0);
	pt_model_add_event(m, ts, pt_model_str(m, "_Z6kernelPfi"), PT_EV_KERNEL, 40, 5, 5, PT_NONE, 0);
	pt_model_add_event(m, ts, 0, PT_EV_MEMCPY, 50, 5, 6, PT_NONE, 0); /* no launching call: no flow */
	uint32_t q = pt_model_track(m, g, PT_TRACK_QUEUE, -1, "get_next");
	pt_model_add_queue_sample(m, q, 20, 3, 8);
	pt_model_add_queue_sample(m, q, 30, 4, 8);
	return m;
}

/* §13.4: flows; names; counters */
static void test_flows(void **state)
{
	(void)state;
	struct pt_model *m = flow_model();
	struct pt_tl_opts to = { .overlap = true };
	struct copts co = { .flows = true, .demangle = true };
	struct run r;
	run_trace(&r, m, &to, &co, "flow.json");
	assert_int_equal(json_integer_value(json_object_get(r.ck.root, "baseTimeNanoseconds")), 0);
	assert_non_null(strstr(r.text, "{\"ph\":\"s\",\"id\":1,\"cat\":\"flow\",\"name\":\"launch\""));
	json_t *s = find(&r, "s", NULL), *f = find(&r, "f", NULL);
	assert_non_null(s);
	assert_non_null(f);
	assert_true(strstr(r.text, "\"ts\":0.015}") != NULL);
	assert_true(strstr(r.text, "\"ts\":0.042,\"bp\":\"e\"}") != NULL);
	assert_int_equal(json_integer_value(json_object_get(s, "id")), json_integer_value(json_object_get(f, "id")));
	assert_int_equal(count(&r, "s"), 1);
	json_t *api = find(&r, "X", "cudaLaunchKernel");
	assert_non_null(api);
	assert_string_equal(json_string_value(json_object_get(json_object_get(api, "args"), "raw_name")),
			    "cudaLaunchKernel_v7000");
	assert_int_equal(json_integer_value(json_object_get(s, "tid")), json_integer_value(json_object_get(api, "tid")));
	json_t *k = find(&r, "X", "kernel(float*, int)");
	assert_non_null(k);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(k, "args"), "correlation")), 5);
	assert_int_equal(json_integer_value(json_object_get(f, "tid")), json_integer_value(json_object_get(k, "tid")));
	assert_non_null(find(&r, "X", "[CUDA memcpy]"));
	/* counters: the queue of the GPU process */
	assert_int_equal(count(&r, "C"), 2);
	json_t *c = find(&r, "C", "Queue get_next");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "args"), "size")), 3);
	run_free(&r);
	/* --no-flows, --no-demangle */
	co.flows = false;
	co.demangle = false;
	run_trace(&r, m, &to, &co, "noflow.json");
	assert_int_equal(count(&r, "s") + count(&r, "f"), 0);
	assert_non_null(find(&r, "X", "_Z6kernelPfi"));
	run_free(&r);
	/* --no-overlap: no overlap process */
	to.overlap = false;
	run_trace(&r, m, &to, &co, "nooverlap.json");
	assert_null(find(&r, "X", "Computation"));
	assert_null(strstr(r.text, "Overlap"));
	run_free(&r);
	pt_model_free(m);
}

/* §13.12: --time-window keeps an X that intersects the window whole */
static void test_window(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_GPU, 0);
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 7, "stream 7");
	pt_model_add_event(m, t, pt_model_str(m, "first"), PT_EV_KERNEL, 0, 10, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "kept"), PT_EV_KERNEL, 50, 100, 0, PT_NONE, 0);
	pt_model_add_event(m, t, pt_model_str(m, "dropped"), PT_EV_KERNEL, 250, 50, 0, PT_NONE, 0);
	struct pt_tl_opts to = {
		.overlap = false,
		.sel = { .window_given = true, .win_has_a = true, .win_has_b = true, .win_a = 100, .win_b = 200 },
	};
	struct copts co = { .flows = true, .demangle = true };
	struct run r;
	run_trace(&r, m, &to, &co, "win.json");
	json_t *k = find(&r, "X", "kept");
	assert_non_null(k);
	/* [50, 150) ns: 0.05 + 0.1 is 0.15000000000000002 in doubles; dur is written so the sum is 0.15 */
	char want[64] = "\"ts\":0.050,\"dur\":";
	want[strlen(want) + pt_chrome_fmt_dur(want + strlen(want), 50, 100)] = 0;
	assert_string_not_equal(want, "\"ts\":0.050,\"dur\":0.100");
	assert_non_null(strstr(r.text, want));
	volatile double end = 0.05 + json_real_value(json_object_get(k, "dur"));
	assert_true(end <= 0.15 && end >= nextafter(0.15, 0));
	assert_null(find(&r, "X", "dropped"));
	assert_null(find(&r, "X", "first"));
	run_free(&r);
	pt_model_free(m);
}

/* §13.7: the part planner */
static void test_planner(void **state)
{
	(void)state;
	const uint64_t *cuts;
	/* L = 8000: steps 1-2 in part 1, step 3 in part 2 */
	struct pt_chrome_planner *p = pt_chrome_planner_new(1000, 8000);
	for (uint32_t s = 1; s <= 3; s++)
		for (int i = 0; i < (s == 3 ? 5 : 3); i++)
			pt_chrome_planner_event(p, s, 1000);
	assert_int_equal(pt_chrome_planner_finish(p, &cuts), 2);
	assert_int_equal(cuts[0], 6);
	pt_chrome_planner_free(p);
	/* L = 5000: step 1, step 2, then step 3 cut between events into two parts */
	p = pt_chrome_planner_new(1000, 5000);
	for (uint32_t s = 1; s <= 3; s++)
		for (int i = 0; i < (s == 3 ? 5 : 3); i++)
			pt_chrome_planner_event(p, s, 1000);
	assert_int_equal(pt_chrome_planner_finish(p, &cuts), 4);
	assert_int_equal(cuts[0], 3);
	assert_int_equal(cuts[1], 6);
	assert_int_equal(cuts[2], 10); /* 4 events (4000 + 1000 header) fit, the 5th would exceed */
	pt_chrome_planner_free(p);
}

static struct pt_model *ascend_model(int nsteps, int per_step)
{
	struct pt_model *m = pt_model_new();
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 2);
	m->devices.v[d].clock = pt_xstrdup("ascend-device");
	uint32_t t = pt_model_track(m, d, PT_TRACK_STREAM, 5, "stream 5");
	uint32_t tc = pt_model_track(m, d, PT_TRACK_STREAM, 6, "stream 6");
	struct pt_op op = { .device = d, .name = pt_model_str(m, "Default/net/Conv2D-op1"),
			    .type = pt_model_str(m, "Conv2D") };
	uint32_t oi = pt_model_add_op(m, &op);
	int64_t now = 1000;
	for (int s = 0; s < nsteps; s++) {
		int64_t st = now;
		for (int i = 0; i < per_step; i++) {
			pt_model_add_event(m, t, op.name, PT_EV_TASK, now, 50, 0, oi, (uint64_t)i);
			pt_model_add_event(m, tc, 0, PT_EV_TASK, now + 20, 60, 0, PT_NONE, (uint64_t)i + 100);
			now += 100;
		}
		struct pt_step sp = { .device = d, .step = (uint32_t)s + 1,
				      .has = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_BP | PT_STEP_HAS_END,
				      .start = st, .fp = st, .bp = now - 50, .end = now };
		struct pt_comm cm = { .stream = 6, .tag = 3, .start = st + 10, .end = st + 90,
				      .name = pt_model_str(m, "parallel") };
		pt_vec_push(&sp.comm, cm);
		pt_model_add_step(m, &sp);
	}
	return m;
}

/* Ascend rows: unnamed tasks, Communication, Steps; gzip */
static void test_ascend_gzip(void **state)
{
	(void)state;
	struct pt_model *m = ascend_model(3, 4);
	struct pt_tl_opts to = { .overlap = true, .scope_depth = 2 };
	struct copts co = { .flows = true, .demangle = true, .gzip = true };
	struct run r;
	run_trace(&r, m, &to, &co, "asc.json.gz");
	char *raw = slurp(r.path);
	assert_int_equal((unsigned char)raw[0], 0x1f);
	assert_int_equal((unsigned char)raw[1], 0x8b);
	free(raw);
	json_t *u = find(&r, "X", "task 6_100");
	assert_non_null(u);
	assert_string_equal(json_string_value(json_object_get(u, "cat")), "UnnamedTask");
	json_t *k = find(&r, "X", "Conv2D-op1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(k, "args"), "full_name")),
			    "Default/net/Conv2D-op1");
	assert_string_equal(thread_name(&r, k), "Stream 5");
	json_t *c = find(&r, "X", "parallel");
	assert_string_equal(json_string_value(json_object_get(c, "cat")), "Reduce");
	assert_string_equal(thread_name(&r, c), "Communication");
	assert_string_equal(thread_name(&r, find(&r, "X", "Step 2")), "Steps");
	assert_string_equal(thread_name(&r, find(&r, "X", "net")), "Scope L1");
	assert_string_equal(thread_name(&r, find(&r, "X", "Default")), "Scope L0");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r.ck.root, "distributedInfo"), "rank")), 2);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r.ck.root, "proftool"), "clock")),
			    "ascend-device");
	run_free(&r);
	pt_model_free(m);
}

/* §9.4: parts are self-contained, under the limit, and listed in the manifest */
static void test_split(void **state)
{
	(void)state;
	struct pt_model *m = ascend_model(40, 50);
	struct pt_tl_opts to = { .overlap = true };
	struct copts co = { .flows = true, .demangle = true, .part_limit = 200000 };
	struct run r;
	run_trace(&r, m, &to, &co, "split.json");
	assert_true(r.st.parts > 2);
	struct stat sb;
	assert_int_equal(stat(r.path, &sb), -1); /* no single file */
	uint64_t events = 0;
	for (size_t k = 1; k <= r.st.parts; k++) {
		char *p = pt_xasprintf("%s/split.part%03zu.json", tmpdir, k);
		struct chrome_check ck;
		if (chrome_check_file(p, &ck, 1))
			fail_msg("part %zu: %s", k, ck.err);
		assert_int_equal(stat(p, &sb), 0);
		assert_true((uint64_t)sb.st_size <= 200000);
		json_t *pt = json_object_get(ck.root, "proftool");
		assert_int_equal(json_integer_value(json_object_get(pt, "part")), (json_int_t)k);
		assert_int_equal(json_integer_value(json_object_get(pt, "parts")), (json_int_t)r.st.parts);
		events += ck.events - ck.m;
		json_decref(ck.root);
		free(p);
	}
	assert_int_equal(events, r.st.events);
	char *mp = pt_xasprintf("%s/split.parts.json", tmpdir);
	json_error_t je;
	json_t *man = json_load_file(mp, 0, &je);
	assert_non_null(man);
	assert_int_equal(json_array_size(json_object_get(man, "parts")), r.st.parts);
	json_t *p1 = json_array_get(json_object_get(man, "parts"), 0);
	assert_string_equal(json_string_value(json_object_get(p1, "file")), "split.part001.json");
	assert_true(json_is_array(json_object_get(p1, "steps")));
	json_decref(man);
	free(mp);
	/* the same without a limit: one file with the same number of events */
	struct run r1;
	co.part_limit = 0;
	run_trace(&r1, m, &to, &co, "whole.json");
	assert_int_equal(r1.st.parts, 1);
	assert_int_equal(r1.st.events, r.st.events);
	run_free(&r1);
	run_free(&r);
	/* a device cannot split: over the limit, an error and nothing created beside it; one
	 * stream without a limit */
	struct pt_index *x = pt_index_new(m);
	struct pt_tl *tl = NULL;
	struct pt_err *e = NULL;
	assert_int_equal(pt_pass_timeline(m, x, &to, &tl, &e), 0);
	struct pt_diag diag = { 0 };
	struct pt_chrome_stats st;
	co.part_limit = 200000;
	assert_int_not_equal(write_trace(m, x, tl, &co, "/dev/null", &diag, &st, &e), 0);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "not a regular file"));
	free(s);
	pt_err_free(e);
	e = NULL;
	bool made = stat("/dev/null.part001.json", &sb) == 0;
	if (made) { /* (a failure must not leave them) */
		for (int k = 1; k < 1000; k++) {
			char *p = pt_xasprintf("/dev/null.part%03d.json", k);
			int gone = unlink(p);
			free(p);
			if (gone)
				break;
		}
		unlink("/dev/null.parts.json");
	}
	assert_false(made);
	co.part_limit = 0;
	assert_int_equal(write_trace(m, x, tl, &co, "/dev/null", &diag, &st, &e), 0);
	assert_int_equal(st.parts, 1);
	assert_int_equal(st.events, r1.st.events);
	pt_diag_free(&diag);
	pt_tl_free(tl);
	pt_index_free(x);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_text), cmocka_unit_test(test_dur_text), cmocka_unit_test(test_base),    cmocka_unit_test(test_ts_runs), cmocka_unit_test(test_merge_wide), cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_nesting),   cmocka_unit_test(test_flows),   cmocka_unit_test(test_window),
		cmocka_unit_test(test_planner),   cmocka_unit_test(test_ascend_gzip), cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
