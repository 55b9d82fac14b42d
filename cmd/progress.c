/*
 * "proftool: reading 'hwts...slice_0': 45% (480 of 1074 MB)" redrawn in place
 * at most five times a second, once the work has run for a second; erased
 * when the work ends. Only installed when standard error is a terminal.
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/progress.h"

struct state {
	double start, last;
	int shown;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void update(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct state *s = ctx;
	double t = now();
	if (s->start == 0)
		s->start = t;
	if (t - s->start < 1.0 || t - s->last < 0.2)
		return;
	s->last = t;
	const char *base = strrchr(what, '/');
	base = base ? base + 1 : what;
	if (total)
		fprintf(stderr, "\rproftool: reading '%.60s': %3d%% (%llu of %llu MB)\033[K", base,
			(int)(done * 100 / total), (unsigned long long)(done >> 20), (unsigned long long)(total >> 20));
	else
		fprintf(stderr, "\rproftool: reading '%.60s': %llu MB\033[K", base, (unsigned long long)(done >> 20));
	s->shown = 1;
}

static void end(void *ctx)
{
	struct state *s = ctx;
	if (s->shown)
		fputs("\r\033[K", stderr);
	s->shown = 0;
	s->start = s->last = 0;
}

void pt_cmd_progress_install(void)
{
	static struct state st;
	static const struct pt_progress_sink sink = { update, end, &st };
	if (isatty(2))
		pt_progress = &sink;
}
