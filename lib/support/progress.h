/*
 * Progress of long work. The library reports through a hook that the
 * program installs (only when standard error is a terminal); with no hook
 * installed a report costs one pointer test. Readers report bytes of their
 * input, passes and writers the items (events, rows) of their main loops,
 * every 65,536th through pt_progress_tick().
 */
#ifndef PT_PROGRESS_H
#define PT_PROGRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pt_progress_unit {
	PT_PROGRESS_BYTES, /* what: the file being read */
	PT_PROGRESS_ITEMS, /* what: the work, e.g. "building the timeline" */
};

struct pt_progress_sink {
	/* done/total in the unit (total 0: unknown) */
	void (*update)(void *ctx, const char *what, enum pt_progress_unit unit, uint64_t done, uint64_t total);
	void (*end)(void *ctx);
	void *ctx;
};

extern const struct pt_progress_sink *pt_progress;

static inline void pt_progress_report(const char *what, uint64_t done, uint64_t total)
{
	if (pt_progress)
		pt_progress->update(pt_progress->ctx, what, PT_PROGRESS_BYTES, done, total);
}

static inline void pt_progress_items(const char *what, uint64_t done, uint64_t total)
{
	if (pt_progress)
		pt_progress->update(pt_progress->ctx, what, PT_PROGRESS_ITEMS, done, total);
}

/* Item i of n in a loop: reported when i is a multiple of 65,536. */
static inline void pt_progress_tick(const char *what, size_t i, size_t n)
{
	if (pt_progress && !(i & 0xffff))
		pt_progress->update(pt_progress->ctx, what, PT_PROGRESS_ITEMS, i, n);
}

static inline void pt_progress_end(void)
{
	if (pt_progress)
		pt_progress->end(pt_progress->ctx);
}

/*
 * The meter a terminal reporter keeps: the line is due once the command has
 * run for `delay` seconds (start: when it began), then at most five times a
 * second, or at every report when `every` is set.
 */
struct pt_progress_meter {
	double start, delay, last; /* seconds, any fixed origin */
	bool shown;                /* a line is on the terminal */
	bool every;                /* no limit on the redraws (PROFTOOL_PROGRESS_EVERY) */
};

/* At time t: whether a line is due; if so, its text (no control bytes; a
 * control byte of what is written '?') goes to buf[0, n) and *p notes it. */
bool pt_progress_meter_line(struct pt_progress_meter *p, double t, const char *what, enum pt_progress_unit unit,
			    uint64_t done, uint64_t total, char *buf, size_t n);

#endif
