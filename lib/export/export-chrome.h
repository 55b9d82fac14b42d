/*
 * Streaming Chrome Trace Event Format writer (chrome-trace.md): spells out
 * a trace laid out by the timeline pass (table/trace.h) in its profile,
 * `viewer` or `kineto`: one JSON object per file, one event per line, M
 * events first, then the events in the order the trace hands them out. The
 * JSON text is never held in memory. Times are written as microseconds
 * with three decimals from integer ns.
 */
#ifndef PT_EXPORT_CHROME_H
#define PT_EXPORT_CHROME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_trace;
struct pt_err;

/* The longest JSON text current browser viewers parse whole: V8's string limit, 2^29 - 24 (chrome-trace.md §9). */
#define PT_CHROME_VIEWER_MAX 536870888ull

struct pt_chrome_opts {
	const char *trace_name; /* MODEL or PATH as given (traceName) */
	bool gzip;              /* compress (RFC 1952) */
	int gzip_level;         /* 1..9, 0 = default 6 */
	int gzip_threads;       /* compressing threads (support/pdeflate.h); <= 1: none. Same bytes for any number */
	uint64_t part_limit;    /* L: bytes of uncompressed JSON per file, 0 = never split */
};

struct pt_chrome_stats {
	uint64_t events;            /* non-M events written, all parts */
	uint64_t meta_events;       /* M events per part */
	uint64_t bytes;             /* uncompressed bytes written, all parts */
	uint64_t overflow_events;   /* §5.3 */
	uint64_t dropped_flows;     /* §6 */
	uint64_t flows;             /* flows written */
	uint64_t unaligned_events;  /* §3 */
	size_t parts;               /* 1 = a single file */
	int64_t base_ns;
	uint64_t max_part_events;   /* events of the largest part */
};

/*
 * Write trace t to path ("-" = standard output). Output files are created
 * atomically; parts (when the trace exceeds part_limit) are
 * <stem>.partNNN.json[.gz] with a manifest <stem>.parts.json. Standard output
 * cannot split: a trace larger than part_limit fails before anything is
 * written.
 */
int pt_chrome_write(struct pt_trace *t, const struct pt_chrome_opts *o, const char *path, struct pt_chrome_stats *st,
		    struct pt_err **e);

/* rel ns as microseconds with exactly three decimals ("1234.567"); rel >= 0. Returns the length. */
size_t pt_chrome_fmt_us(char *out, int64_t rel);
/*
 * The dur text of an X event at rel lasting dur ns (both >= 0): the doubles
 * of the ts and dur texts add up (as JavaScript's ts + dur) to T(E), E being
 * the double of the end's text and T(E) = E with its last significand bit
 * cleared (E or the double below): exact three decimals when they already do,
 * else the nearest double that does, in 17 significant digits. T is
 * monotone and T(E) <= E, so no reader sees false nesting (chrome-trace.md
 * §3). Returns the length.
 */
size_t pt_chrome_fmt_dur(char *out, int64_t rel, int64_t dur);

/*
 * The part planner of chrome-trace.md §9.4: fed the events in output order
 * with their unit (0 = before the first step, k = step k) and serialized size;
 * header = fixed bytes per part (keys, M events, closing), limit = L.
 */
struct pt_chrome_planner;
struct pt_chrome_planner *pt_chrome_planner_new(uint64_t header, uint64_t limit);
void pt_chrome_planner_event(struct pt_chrome_planner *p, uint32_t unit, uint64_t bytes);
/* Number of parts; *cuts (n - 1 entries) = ordinals (from 0) of the first event of parts 2..n. */
size_t pt_chrome_planner_finish(struct pt_chrome_planner *p, const uint64_t **cuts);
void pt_chrome_planner_free(struct pt_chrome_planner *p);

#endif
