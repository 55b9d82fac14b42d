/*
 * Progress of long work. The library reports through a hook that the
 * program installs (only when standard error is a terminal); with no hook
 * installed a report costs one pointer test.
 */
#ifndef PT_PROGRESS_H
#define PT_PROGRESS_H
#include <stdint.h>

struct pt_progress_sink {
	/* what: e.g. the file being read; done/total in bytes (total 0: unknown) */
	void (*update)(void *ctx, const char *what, uint64_t done, uint64_t total);
	void (*end)(void *ctx);
	void *ctx;
};

extern const struct pt_progress_sink *pt_progress;

static inline void pt_progress_report(const char *what, uint64_t done, uint64_t total)
{
	if (pt_progress)
		pt_progress->update(pt_progress->ctx, what, done, total);
}

static inline void pt_progress_end(void)
{
	if (pt_progress)
		pt_progress->end(pt_progress->ctx);
}

#endif
