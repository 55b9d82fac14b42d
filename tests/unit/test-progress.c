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

#include "model/model.h"
#include "model/ptm.h"
#include "support/err.h"
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
};

static void rec_update(void *ctx, const char *what, enum pt_progress_unit unit, uint64_t done, uint64_t total)
{
	struct rec *r = ctx;
	r->updates++;
	r->unit = unit;
	r->done = done;
	r->total = total;
	snprintf(r->what, sizeof(r->what), "%s", what);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(meter_timing),
		cmocka_unit_test(meter_text),
		cmocka_unit_test(ticks),
		cmocka_unit_test(ptm_read_reports_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
