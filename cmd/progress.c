/*
 * "proftool: reading 'hwts...slice_0': 45% (480 of 1074 MB)" or
 * "proftool: building the timeline:  45%" redrawn in place at most five times
 * a second once the command has run for a second (PROFTOOL_PROGRESS_DELAY
 * seconds if set; at every report with PROFTOOL_PROGRESS_EVERY=1); erased
 * when the work ends and before output. Only installed when standard error
 * is a terminal.
 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/progress.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void update(void *ctx, const char *what, enum pt_progress_unit unit, uint64_t done, uint64_t total)
{
	char line[160];
	if (pt_progress_meter_line(ctx, now(), what, unit, done, total, line, sizeof(line)))
		fprintf(stderr, "\r%s\033[K", line);
}

static void end(void *ctx)
{
	struct pt_progress_meter *p = ctx;
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

void pt_cmd_progress_install(void)
{
	static struct pt_progress_meter meter;
	static const struct pt_progress_sink sink = { update, end, &meter };
	if (!isatty(2))
		return;
	meter.start = now();
	meter.delay = 1.0;
	const char *d = getenv("PROFTOOL_PROGRESS_DELAY");
	if (d && *d) {
		char *rest;
		double v = strtod(d, &rest);
		if (!*rest && v >= 0 && v < 1e9)
			meter.delay = v;
	}
	const char *every = getenv("PROFTOOL_PROGRESS_EVERY");
	meter.every = every && !strcmp(every, "1");
	pt_progress = &sink;
}
