/* Unit tests of progress reporting: the terminal meter's timing and text, the
 * ticks of a loop, and the model reader's byte reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-summary.h"
#include "support/err.h"
#include "support/interval.h"
#include "support/out.h"
#include "support/progress.h"

static void meter_timing(void **state)
{
	(void)state;
	struct pt_progress_meter p = { .start = 100.0, .delay = 1.0 };
	char b[160];
	/* nothing in the first second */
	assert_false(pt_progress_meter_line(&p, 100.0, "x", PT_PROGRESS_ITEMS, 1, 10, b, sizeof(b)));
	assert_false(pt_progress_meter_line(&p, 100.99, "x", PT_PROGRESS_ITEMS, 1, 10, b, sizeof(b)));
	assert_false(p.shown);
	/* then a line, and at most five a second */
	assert_true(pt_progress_meter_line(&p, 101.0, "building the timeline", PT_PROGRESS_ITEMS, 45, 100, b,
					   sizeof(b)));
	assert_string_equal(b, "proftool: building the timeline:  45%");
	assert_true(p.shown);
	assert_false(pt_progress_meter_line(&p, 101.1, "x", PT_PROGRESS_ITEMS, 50, 100, b, sizeof(b)));
	assert_true(pt_progress_meter_line(&p, 101.2, "x", PT_PROGRESS_ITEMS, 100, 100, b, sizeof(b)));
	assert_string_equal(b, "proftool: x: 100%");
	/* a line erased (shown cleared by the reporter) is redrawn at once */
	p.shown = false;
	assert_true(pt_progress_meter_line(&p, 101.25, "y", PT_PROGRESS_ITEMS, 7, 0, b, sizeof(b)));
	assert_string_equal(b, "proftool: y: 7");
	/* delay 0: due at once */
	struct pt_progress_meter q = { .start = 5.0, .delay = 0 };
	assert_true(pt_progress_meter_line(&q, 5.0, "z", PT_PROGRESS_ITEMS, 0, 4, b, sizeof(b)));
	assert_string_equal(b, "proftool: z:   0%");
	/* every: each report redraws, however soon after the last */
	struct pt_progress_meter v = { .start = 0, .delay = 0, .every = true };
	assert_true(pt_progress_meter_line(&v, 1.0, "a", PT_PROGRESS_ITEMS, 1, 4, b, sizeof(b)));
	assert_true(pt_progress_meter_line(&v, 1.01, "b", PT_PROGRESS_ITEMS, 2, 4, b, sizeof(b)));
	assert_string_equal(b, "proftool: b:  50%");
	assert_true(pt_progress_meter_line(&v, 1.01, "b", PT_PROGRESS_ITEMS, 3, 4, b, sizeof(b)));
	assert_string_equal(b, "proftool: b:  75%");
}

static void meter_text(void **state)
{
	(void)state;
	struct pt_progress_meter p = { .start = 0, .delay = 0 };
	char b[160];
	/* bytes: the file's last component, MB of MB */
	assert_true(pt_progress_meter_line(&p, 1, "/data/job/hwts.log.data.45.dev.profiler_default_tag.slice_0",
					   PT_PROGRESS_BYTES, 480u << 20, 1074u << 20, b, sizeof(b)));
	assert_string_equal(b, "proftool: reading 'hwts.log.data.45.dev.profiler_default_tag.slice_0':  44% (480 of 1074 MB)");
	p.shown = false;
	assert_true(pt_progress_meter_line(&p, 1, "standard input", PT_PROGRESS_BYTES, 3u << 20, 0, b, sizeof(b)));
	assert_string_equal(b, "proftool: reading 'standard input': 3 MB");
	/* control bytes of a name never reach the terminal; at most 60 bytes of it */
	p.shown = false;
	assert_true(pt_progress_meter_line(&p, 1, "dir/evil\033]0;x\007.ptm", PT_PROGRESS_BYTES, 0, 10, b, sizeof(b)));
	assert_string_equal(b, "proftool: reading 'evil?]0;x?.ptm':   0% (0 of 0 MB)");
	p.shown = false;
	char longname[200];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_true(pt_progress_meter_line(&p, 1, longname, PT_PROGRESS_ITEMS, 1, 2, b, sizeof(b)));
	assert_int_equal(strlen(b), strlen("proftool: ") + 60 + strlen(":  50%"));
	/* done past total reads 100% */
	p.shown = false;
	assert_true(pt_progress_meter_line(&p, 1, "w", PT_PROGRESS_ITEMS, 12, 10, b, sizeof(b)));
	assert_string_equal(b, "proftool: w: 100%");
}

/* A sink that records what it is told. */
struct rec {
	int updates, ends;
	enum pt_progress_unit unit;
	uint64_t done, total;
	char what[64];
	char seen[512]; /* every label told, each once, after a '|' */
};

static void rec_update(void *ctx, const char *what, enum pt_progress_unit unit, uint64_t done, uint64_t total)
{
	struct rec *r = ctx;
	r->updates++;
	r->unit = unit;
	r->done = done;
	r->total = total;
	snprintf(r->what, sizeof(r->what), "%s", what);
	char key[80];
	snprintf(key, sizeof(key), "|%s|", what);
	size_t l = strlen(r->seen);
	if (!strstr(r->seen, key) && l + strlen(key) < sizeof(r->seen))
		snprintf(r->seen + l, sizeof(r->seen) - l, "%s", l ? key + 1 : key);
}

static void rec_end(void *ctx)
{
	((struct rec *)ctx)->ends++;
}

static void ticks(void **state)
{
	(void)state;
	/* no hook: reports are no-ops */
	pt_progress = NULL;
	for (size_t i = 0; i < 200000; i++)
		pt_progress_tick("loop", i, 200000);
	pt_progress_end();
	struct rec r = { 0 };
	const struct pt_progress_sink sink = { rec_update, rec_end, &r };
	pt_progress = &sink;
	for (size_t i = 0; i < 200000; i++)
		pt_progress_tick("loop", i, 200000);
	pt_progress_end();
	pt_progress = NULL;
	assert_int_equal(r.updates, 4); /* i = 0, 65536, 131072, 196608 */
	assert_int_equal(r.unit, PT_PROGRESS_ITEMS);
	assert_int_equal(r.done, 196608);
	assert_int_equal(r.total, 200000);
	assert_string_equal(r.what, "loop");
	assert_int_equal(r.ends, 1);
}

/* The model reader reports the bytes of the file it reads, up to its size, and ends. */
static void ptm_read_reports_bytes(void **state)
{
	(void)state;
	char path[] = "/tmp/pt-progress-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct pt_model *m = pt_model_new();
	struct pt_err *e = NULL;
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	pt_model_free(m);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	struct rec r = { 0 };
	const struct pt_progress_sink sink = { rec_update, rec_end, &r };
	pt_progress = &sink;
	m = NULL;
	int rc = pt_ptm_read(path, &m, &e);
	pt_progress = NULL;
	assert_int_equal(rc, 0);
	pt_model_free(m);
	unlink(path);
	assert_true(r.updates >= 1);
	assert_int_equal(r.unit, PT_PROGRESS_BYTES);
	assert_int_equal(r.done, (uint64_t)st.st_size);
	assert_int_equal(r.total, (uint64_t)st.st_size);
	assert_string_equal(r.what, path);
	assert_true(r.ends >= 1);
}

/* The radix sort with a label reports its passes, once a block of 65,536 (4 n in all), and sorts as
 * without one: stable, by start; without a label, or with no hook, it reports nothing. */
static void sort_reports(void **state)
{
	(void)state;
	struct rec r = { 0 };
	const struct pt_progress_sink sink = { rec_update, rec_end, &r };
	size_t n = 200000;
	struct pt_ival *v = malloc(n * sizeof(*v)), *w = malloc(n * sizeof(*w));
	assert_non_null(v);
	assert_non_null(w);
	for (size_t i = 0; i < n; i++) /* descending starts in pairs: ties keep their order */
		v[i] = w[i] = (struct pt_ival){ (int64_t)(n - i) / 2 * 1000, (int64_t)i };
	pt_progress = &sink;
	pt_ival_sort_report(v, n, "sorting things");
	pt_progress = NULL;
	assert_string_equal(r.seen, "|sorting things|");
	assert_int_equal(r.total, 4 * (uint64_t)n);
	assert_true(r.done >= 3 * (uint64_t)n && r.done < r.total);
	assert_true(r.updates >= 3 * 4); /* three passes of four blocks, then the buckets */
	for (size_t i = 1; i < n; i++)
		assert_true(v[i - 1].s < v[i].s || (v[i - 1].s == v[i].s && v[i - 1].e < v[i].e));
	memset(&r, 0, sizeof(r));
	pt_progress = &sink;
	pt_ival_sort(w, n);
	pt_progress = NULL;
	assert_int_equal(r.updates, 0);
	assert_memory_equal(v, w, n * sizeof(*v));
	free(v);
	free(w);
}

/* A device with two streams of n tasks each, interleaved in time; spilled from the start when spill. */
static struct pt_model *two_streams(size_t n, bool spill)
{
	struct pt_model *m = pt_model_new();
	if (spill)
		pt_ptm_spill_start(m, PT_PTM_EVENT_BATCH);
	uint32_t d = pt_model_device(m, PT_DEV_NPU, 0);
	uint32_t t[2] = { pt_model_track(m, d, PT_TRACK_STREAM, 1, "s1"), pt_model_track(m, d, PT_TRACK_STREAM, 2, "s2") };
	uint32_t nm = pt_model_str(m, "Task");
	for (size_t i = 0; i < 2 * n; i++)
		pt_model_add_event(m, t[i & 1], nm, PT_EV_TASK, (int64_t)i * 100, 50, 0, PT_NONE, 0);
	return m;
}

static int count_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	*(size_t *)arg += m->events.n;
	return 0;
}

/* The work after a model is read reports through the hook too, never prints: merging a device's tracks
 * (pt_index_merge: every 65,536th event of the merge), the in-memory summary's per-event sums, and the
 * replay of an import's spilled events (once a batch). */
static void passes_report(void **state)
{
	(void)state;
	struct rec r = { 0 };
	const struct pt_progress_sink sink = { rec_update, rec_end, &r };
	/* the merge: 140,000 events, ticks at 0, 65536, 131072 (the last one told) */
	struct pt_model *m = two_streams(70000, false);
	struct pt_index *x = pt_index_new(m);
	pt_progress = &sink;
	const struct pt_ivset *u = pt_index_kind_set(x, 0, PT_EV_TASK);
	pt_progress = NULL;
	assert_non_null(u);
	assert_string_equal(r.seen, "|indexing the events|merging the device tracks|"); /* its tracks first */
	assert_string_equal(r.what, "merging the device tracks");
	assert_int_equal(r.done, 131072);
	assert_int_equal(r.total, 140000);
	/* the summary in memory: its per-event sums */
	memset(&r, 0, sizeof(r));
	struct pt_summary_opts so;
	pt_summary_opts_init(&so);
	struct pt_summary s;
	struct pt_err *e = NULL;
	pt_progress = &sink;
	int rc = pt_pass_summary(m, x, &so, &s, &e);
	pt_progress = NULL;
	assert_int_equal(rc, 0);
	pt_summary_free(&s);
	assert_non_null(strstr(r.seen, "|summing the events|"));
	pt_index_free(x);
	pt_model_free(m);
	/* an import's events replayed: the bytes of the spilled batches, as far as the last one's start */
	m = two_streams(3 * PT_PTM_EVENT_BATCH, true);
	assert_true(m->events.base > 0); /* some are spilled */
	memset(&r, 0, sizeof(r));
	size_t seen = 0;
	const struct pt_ptm_sink count = { count_batch, &seen, false, false };
	pt_progress = &sink;
	rc = pt_ptm_spill_replay(m, &count, &e);
	pt_progress = NULL;
	assert_int_equal(rc, 0);
	assert_int_equal(seen, 6 * PT_PTM_EVENT_BATCH);
	assert_string_equal(r.seen, "|reading the imported events|");
	assert_true(r.updates >= 2);
	assert_true(r.done > 0 && r.done < r.total);
	pt_model_free(m);
	/* no hook: the same work reports nothing and goes as before */
	m = two_streams(70000, false);
	x = pt_index_new(m);
	assert_non_null(pt_index_kind_set(x, 0, PT_EV_TASK));
	pt_index_free(x);
	pt_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(meter_timing),
		cmocka_unit_test(meter_text),
		cmocka_unit_test(ticks),
		cmocka_unit_test(ptm_read_reports_bytes),
		cmocka_unit_test(passes_report),
		cmocka_unit_test(sort_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
