/*
 * Inside the Chrome trace writer (export-chrome.c: events, header and
 * metadata, the single file; export-chrome-parts.c: the part planner, parts
 * and their manifest). Not for other files.
 */
#ifndef PT_EXPORT_CHROME_INT_H
#define PT_EXPORT_CHROME_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/export-chrome.h"
#include "table/trace.h"

struct pt_out;
struct pt_pdeflate;

/* Output bytes, buffered, optionally gzip-compressed; o NULL: count only. */
struct sink {
	char *buf;
	size_t len, cap;
	uint64_t total;   /* uncompressed bytes */
	struct pt_out *o; /* NULL: count only */
	bool gz;
	struct pt_pdeflate *pz; /* gzip on a thread pool (support/pdeflate.h) while open */
	uint64_t zbytes;
	bool zerr;
};

void sink_init(struct sink *s, struct pt_out *o, bool gz, int level, int threads);
void sink_flush(struct sink *s);
void sink_finish(struct sink *s);
void sink_free(struct sink *s);
void sink_write(struct sink *s, const void *p, size_t n);
void sink_puts(struct sink *s, const char *str);
void sink_i64(struct sink *s, int64_t v);
void sink_grow(struct sink *s, size_t n);

static inline char *sink_reserve(struct sink *s, size_t n)
{
	if (s->len + n > s->cap) {
		sink_flush(s);
		if (n > s->cap)
			sink_grow(s, n);
	}
	return s->buf + s->len;
}

static inline uint64_t sink_pos(const struct sink *s)
{
	return s->total + s->len;
}

struct arena {
	char *v;
	size_t n, cap;
};

/* A JSON text made once: offset into the arena and length + 1 (0 = not made). */
struct frag {
	uint32_t len1;
	uint64_t off;
};

/* The fixed start of an X event up to "name", per category, padded for a fixed-size copy. */
struct xhead {
	char s[56];
	uint8_t n;
};

struct rowpfx {
	char s[48]; /* ,"pid":P,"tid":T,"ts": */
	uint8_t n;
};

/* Part statistics for the manifest. */
struct part_info {
	int64_t first_ts, end_ts;
	uint32_t unit_lo, unit_hi;
	uint64_t events, bytes, gzip_bytes, dropped;
	char *file;
};

struct hdr {
	size_t part, parts;
	uint64_t dropped;
};

struct wctx;

/*
 * The event loop. mode 0: write everything to sk (single file); mode 1:
 * planning (count only, feed the planner); mode 2: write parts.
 */
struct loop {
	int mode;
	struct sink *sk;
	struct pt_chrome_planner *pl;
	/* mode 2 */
	size_t part;             /* current part index (0-based) */
	int (*next_part)(struct wctx *, struct loop *, int64_t ts);
	struct part_info *pi;
	void *user;
	int err;
};

struct wctx {
	struct pt_trace *t;
	const struct pt_chrome_opts *o;
	struct pt_err **err;    /* where run_loop reports events that ended early (pt_trace.failed) */
	bool kineto;
	struct arena arena, tmp;
	struct frag *cache;     /* per pt_trace_str key */
	struct xhead *heads;    /* per category */
	size_t *catlen;         /* per category */
	struct rowpfx *rows;    /* per row */
	/* rendering state */
	bool first_event;
	/* ts_h != 0: the text of the last ts's whole microseconds / 100 (ts_n digits, at most 8) */
	uint64_t ts_h;
	uint64_t ts_txt;
	size_t ts_n;
	uint64_t ord;
	/* split */
	const uint64_t *cuts;
	size_t ncuts;
	uint64_t *flow_ord; /* 2 per flow: ordinal of s and f */
	bool record_flow_ord;
	uint8_t *flow_drop;
	uint64_t dropped;
	bool abort_over;    /* stop when the output exceeds limit */
	uint64_t limit;
};

void sink_jstr(struct sink *s, struct arena *tmp, const char *str, size_t n);
void emit_header(struct wctx *c, struct sink *sk, const struct hdr *h);
void emit_footer(struct wctx *c, struct sink *sk);
int run_loop(struct wctx *c, struct loop *L);
uint32_t unit_of(const struct wctx *c, int64_t ts);

/* export-chrome-parts.c: the trace in parts beside path, with their manifest */
int write_parts(struct wctx *c, const char *path, struct pt_chrome_stats *st, struct pt_err **e);

#endif
