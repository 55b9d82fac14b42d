/*
 * host_start.log.<dev> and dev_start.log.<dev> (ascend.md §2.5, §3.1): the
 * offsets between the host clocks and the device clock.
 *
 *   [Device0]
 *   clock_realtime: 1591183963784568740
 *   clock_monotonic_raw: 261003032627       (dev_start: <name>: <cntvct>)
 */
#include <stdlib.h>
#include <string.h>

#include "import/ascend.h"
#include "support/parse.h"
#include "support/span.h"
#include "support/xalloc.h"

struct start_log {
	bool has_device, has_realtime, has_third;
	uint32_t device;
	int64_t realtime;
	int64_t third; /* host: clock_monotonic_raw; dev: the counter (cycles) */
};

static void trim(const char **p, size_t *n)
{
	while (*n && pt_is_space(**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n && pt_is_space((*p)[*n - 1]))
		(*n)--;
}

static bool key_is(const char *k, size_t kn, const char *want)
{
	return kn == strlen(want) && !memcmp(k, want, kn);
}

/*
 * Read one start log. host: the third value is named clock_monotonic_raw;
 * dev: the third non-empty line is the counter, whatever its name.
 */
static int read_start_log(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_slices *s, bool host,
			  struct start_log *out, struct pt_err **e)
{
	char *buf;
	size_t len;
	memset(out, 0, sizeof(*out));
	if (pt_slices_read_all(s, &buf, &len, e))
		return -1;

	struct pt_textiter it;
	const char *rec;
	size_t n, file;
	uint64_t line;
	unsigned nonempty = 0;
	pt_textiter_init(&it, s, buf, len, '\n');
	while (pt_textiter_next(&it, &rec, &n, &file, &line)) {
		trim(&rec, &n);
		if (!n)
			continue;
		nonempty++;
		const char *path = s->paths[file];
		uint64_t v;
		if (rec[0] == '[') {
			/* [Device<N>] */
			if (n > 8 && !memcmp(rec, "[Device", 7) && rec[n - 1] == ']' &&
			    pt_parse_u64(rec + 7, n - 8, &v) && v <= UINT32_MAX) {
				out->has_device = true;
				out->device = (uint32_t)v;
				if (out->device != d->id)
					pt_diag_warn(c->diag, path,
						     "ignored [DeviceN] lines naming another device than the file name",
						     PT_POS_LINE, line);
			} else {
				pt_diag_warn(c->diag, path, "skipped unparsable lines", PT_POS_LINE, line);
			}
			continue;
		}
		const char *colon = memchr(rec, ':', n);
		if (!colon) {
			pt_diag_warn(c->diag, path, "skipped unparsable lines", PT_POS_LINE, line);
			continue;
		}
		const char *k = rec, *val = colon + 1;
		size_t kn = (size_t)(colon - rec), vn = n - kn - 1;
		trim(&k, &kn);
		trim(&val, &vn);
		if (!pt_parse_u64(val, vn, &v) || v > INT64_MAX) {
			pt_diag_warn(c->diag, path, "skipped unparsable lines", PT_POS_LINE, line);
			continue;
		}
		if (key_is(k, kn, "clock_realtime")) {
			out->has_realtime = true;
			out->realtime = (int64_t)v;
		} else if (host ? key_is(k, kn, "clock_monotonic_raw") : nonempty == 3) {
			out->has_third = true;
			out->third = (int64_t)v;
		} else {
			pt_diag_warn(c->diag, path, "ignored unknown lines", PT_POS_LINE, line);
		}
	}
	free(buf);
	return 0;
}

/* Offsets are kept within the model's time range, like times (model/model.h). */
static bool off_fits(int64_t off)
{
	return off >= -PT_TIME_LIMIT && off <= PT_TIME_LIMIT;
}

int pt_ascend_read_clocks(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_model *m = c->m;
	struct pt_device *dev = &m->devices.v[d->dev];
	struct pt_slices *hs = &d->files[PT_AK_HOST_START], *ds = &d->files[PT_AK_DEV_START];
	struct start_log host, devl;

	if (!dev->clock)
		dev->clock = pt_xstrdup("ascend-device");
	if (!hs->n && !ds->n)
		return 0;

	bool have_host = false, have_dev = false;
	if (hs->n) {
		if (read_start_log(c, d, hs, true, &host, e))
			return -1;
		if (host.has_third) {
			have_host = true;
			pt_model_stat_set(m, (int32_t)d->dev, "clocks.host_monotonic_raw_ns", host.third);
			if (host.has_realtime) {
				pt_model_stat_set(m, (int32_t)d->dev, "clocks.host_realtime_ns", host.realtime);
				/* both in [0, INT64_MAX]: the difference fits */
				int64_t off = host.realtime - host.third;
				if (off_fits(off))
					pt_model_add_clock_offset(m, d->dev, "host-monotonic-raw", "unix", off);
				else
					pt_diag_warn(c->diag, hs->paths[0], "ignored clock offsets beyond 2^62 ns",
						     PT_POS_NONE, 0);
			}
		} else {
			pt_diag_warn(c->diag, hs->paths[0], "ignored host_start.log files without clock_monotonic_raw",
				     PT_POS_NONE, 0);
		}
	}
	if (ds->n) {
		if (read_start_log(c, d, ds, false, &devl, e))
			return -1;
		if (devl.has_third) {
			have_dev = true;
			pt_model_stat_set(m, (int32_t)d->dev, "clocks.dev_cntvct", devl.third);
		} else {
			pt_diag_warn(c->diag, ds->paths[0], "ignored dev_start.log files without a counter line",
				     PT_POS_NONE, 0);
		}
	}
	/* §3.1: host_ns = host_monotonic + ns(syscnt) - ns(dev_cntvct) */
	if (have_host && have_dev && d->freq_khz) {
		/* only when ns(counter) is within the model's time range (then the
		 * difference fits) */
		if (!pt_ascend_cycles_fit((uint64_t)devl.third, d->freq_khz)) {
			pt_diag_warn(c->diag, ds->paths[0], "ignored device counters out of range", PT_POS_NONE, 0);
		} else {
			int64_t off = host.third - pt_ascend_cycles_to_ns((uint64_t)devl.third, d->freq_khz);
			if (off_fits(off))
				pt_model_add_clock_offset(m, d->dev, "ascend-device", "host-monotonic-raw", off);
			else
				pt_diag_warn(c->diag, ds->paths[0], "ignored clock offsets beyond 2^62 ns", PT_POS_NONE,
					     0);
		}
	}
	return 0;
}
