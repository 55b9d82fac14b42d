/*
 * info.json and host_start/dev_start readers.
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
	strcpy(f->dir, "/tmp/pt-clocks-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	f->opts.device = -1;
	f->ctx.m = f->m;
	f->ctx.diag = &f->diag;
	f->ctx.opts = &f->opts;
	f->d.id = 1;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, 1);
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

static void add_file(struct fx *f, enum pt_ascend_kind kind, const char *name, const char *text)
{
	char path[160];
	assert_true(f->nfiles < 16);
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	f->made[f->nfiles++] = pt_xstrdup(path);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	fputs(text, fp);
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

static const struct pt_clock_offset *find_offset(const struct pt_device *dev, const char *from, const char *to)
{
	for (size_t i = 0; i < dev->offsets.n; i++)
		if (!strcmp(dev->offsets.v[i].from, from) && !strcmp(dev->offsets.v[i].to, to))
			return &dev->offsets.v[i];
	return NULL;
}

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

/* --- info.json ------------------------------------------------------------- */

static void test_info_fractional(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_INFO_JSON, "info.json.1",
		 "{\"DeviceInfo\":[{\"hwts_frequency\":\"19.2\",\"aic_frequency\":\" 1000.5\",\"ai_core_num\":2}]}");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), 0);
	assert_null(e);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_int_equal(f->d.freq_khz, 19200);
	assert_int_equal(dev->aic_freq_khz, 1000500);
	assert_int_equal(dev->ai_core_num, 2);
	assert_true(dev->peak_flops == 1000500.0 * 1000.0 * 2 * 4096 * 2);
	assert_int_equal(pt_model_stat_get(f->m, (int32_t)f->d.dev, "info.hwts_freq_khz", 0), 19200);
	assert_int_equal(f->diag.n, 0);
}

static void test_info_garbage(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_INFO_JSON, "info.json.1",
		 "{\"DeviceInfo\":[{\"hwts_frequency\":\"100MHz\",\"aic_frequency\":\"0\",\"ai_core_num\":\"32\"}]}");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_int_equal(f->d.freq_khz, 0);
	assert_int_equal(dev->aic_freq_khz, 0);
	assert_int_equal(dev->ai_core_num, 0);
	assert_true(dev->peak_flops == 0);
	assert_non_null(find_diag(&f->diag, "invalid hwts_frequency"));
	assert_non_null(find_diag(&f->diag, "invalid aic_frequency"));
	assert_non_null(find_diag(&f->diag, "invalid ai_core_num"));
}

static void test_info_more_values(void **state)
{
	struct fx *f = *state;
	/* more precision than 1 kHz is rejected; trailing zeros are fine */
	add_file(f, PT_AK_INFO_JSON, "info.json.1",
		 "{\"DeviceInfo\":[{\"hwts_frequency\":\"49.0000\",\"aic_frequency\":\"1.0001\"}]}");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), 0);
	assert_int_equal(f->d.freq_khz, 49000);
	assert_int_equal(f->m->devices.v[f->d.dev].aic_freq_khz, 0);
	assert_true(f->m->devices.v[f->d.dev].peak_flops == 0);
	assert_non_null(find_diag(&f->diag, "invalid aic_frequency"));
}

static void test_info_no_deviceinfo(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_INFO_JSON, "info.json.1", "{\"jobInfo\":\"NA\"}");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), 0);
	assert_int_equal(f->d.freq_khz, 0);
	assert_non_null(find_diag(&f->diag, "without DeviceInfo"));
}

static void test_info_invalid(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_INFO_JSON, "info.json.1", "{\"DeviceInfo\":[{\"hwts_frequency\":\"100\",}]}");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), -1);
	assert_non_null(e);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "info.json.1"));
	assert_non_null(strstr(s, "at byte"));
	free(s);
	pt_err_free(e);
	assert_int_equal(f->d.freq_khz, 0);
}

static void test_info_empty(void **state)
{
	struct fx *f = *state;
	add_file(f, PT_AK_INFO_JSON, "info.json.1", "");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), -1);
	assert_non_null(e);
	pt_err_free(e);
}

static void test_info_fixture(void **state)
{
	struct fx *f = *state;
	char *p = fixture("info/info.json.0");
	if (!p)
		skip();
	pt_slices_add(&f->d.files[PT_AK_INFO_JSON], p);
	free(p);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_info_json(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_int_equal(f->d.freq_khz, 100000);
	assert_int_equal(dev->aic_freq_khz, 1000000);
	assert_int_equal(dev->ai_core_num, 32);
	assert_true(dev->peak_flops == 2.62144e14);
	assert_int_equal(f->diag.n, 0);
}

/* --- host_start / dev_start ------------------------------------------------ */

static void test_host_start_mismatch(void **state)
{
	struct fx *f = *state;
	f->d.freq_khz = 100000;
	add_file(f, PT_AK_HOST_START, "host_start.log.1",
		 "[Device0]\nclock_realtime: 1591183963784568740\nclock_monotonic_raw: 261003032627\n");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_clocks(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_string_equal(dev->clock, "ascend-device");
	assert_int_equal(dev->offsets.n, 1);
	const struct pt_clock_offset *o = find_offset(dev, "host-monotonic-raw", "unix");
	assert_non_null(o);
	assert_int_equal(o->offset_ns, 1591183963784568740LL - 261003032627LL);
	const struct pt_diag_entry *w = find_diag(&f->diag, "another device");
	assert_non_null(w);
	assert_int_equal(w->pos, PT_POS_LINE);
	assert_int_equal(w->first, 1);
	assert_int_equal(f->diag.n, 1);
}

static void test_host_and_dev_start(void **state)
{
	struct fx *f = *state;
	f->d.freq_khz = 50000; /* 50 MHz: 20 ns per cycle */
	add_file(f, PT_AK_HOST_START, "host_start.log.1",
		 "[Device1]\r\nclock_realtime: 2000000000\r\nclock_monotonic_raw: 5000000\r\n");
	add_file(f, PT_AK_DEV_START, "dev_start.log.1", "[Device1]\nclock_realtime: 1999999999\ncntvct: 1000\n");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_clocks(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_int_equal(dev->offsets.n, 2);
	const struct pt_clock_offset *o = find_offset(dev, "host-monotonic-raw", "unix");
	assert_non_null(o);
	assert_int_equal(o->offset_ns, 1995000000);
	o = find_offset(dev, "ascend-device", "host-monotonic-raw");
	assert_non_null(o);
	assert_int_equal(o->offset_ns, 5000000 - 20000);
	assert_int_equal(f->diag.n, 0);
}

static void test_unparsable_lines(void **state)
{
	struct fx *f = *state;
	f->d.freq_khz = 100000;
	add_file(f, PT_AK_HOST_START, "host_start.log.1",
		 "[Device1]\nclock_realtime: 12x\nclock_monotonic_raw: 100\nrubbish\n");
	add_file(f, PT_AK_DEV_START, "dev_start.log.1", "[Device1]\nclock_realtime: 1\n");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_clocks(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	/* no realtime, no counter: no offsets */
	assert_int_equal(dev->offsets.n, 0);
	const struct pt_diag_entry *w = find_diag(&f->diag, "unparsable lines");
	assert_non_null(w);
	assert_int_equal(w->pos, PT_POS_LINE);
	assert_int_equal(w->first, 2);
	assert_int_equal(w->count, 2);
	assert_non_null(find_diag(&f->diag, "without a counter line"));
}

static void test_no_clock_files(void **state)
{
	struct fx *f = *state;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_clocks(&f->ctx, &f->d, &e), 0);
	assert_string_equal(f->m->devices.v[f->d.dev].clock, "ascend-device");
	assert_int_equal(f->m->devices.v[f->d.dev].offsets.n, 0);
}

static void test_host_start_fixture(void **state)
{
	struct fx *f = *state;
	char *p = fixture("JOB3/host_start.log.1");
	if (!p)
		skip();
	pt_slices_add(&f->d.files[PT_AK_HOST_START], p);
	free(p);
	f->d.freq_khz = 100000;
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_clocks(&f->ctx, &f->d, &e), 0);
	const struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_int_equal(dev->offsets.n, 1); /* no dev_start: no device offset */
	assert_int_equal(dev->offsets.v[0].offset_ns, 1591183963784568740LL - 261003032627LL);
	assert_non_null(find_diag(&f->diag, "another device"));
	assert_int_equal(f->diag.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info_fractional, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_more_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_no_deviceinfo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_info_fixture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_start_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_and_dev_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unparsable_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_clock_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_start_fixture, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
