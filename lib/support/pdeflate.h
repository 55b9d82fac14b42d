/*
 * Parallel deflate, pigz-style: one zlib (RFC 1950) or gzip (RFC 1952)
 * stream compressed by a small pool of threads.
 *
 * The input is cut into fixed-size blocks at byte offsets that depend only on
 * the block size. Each block is compressed on its own as raw deflate with the
 * 32 KiB of input before it as dictionary, and ends with a sync flush (the
 * last one with the final block), so the concatenation is one valid deflate
 * stream; the wrapper's checksum is combined from per-block checksums. The
 * bytes written depend on the input, the level and the block size only, never
 * on the number of threads (1 = no threads at all).
 *
 * Compressed blocks go to the sink in order, from the calling thread only; at
 * most threads + 1 blocks are in flight (one per thread and the one being
 * filled: about 2 MiB each), and the buffers of written blocks
 * are reused most recent first, so memory follows the blocks really in flight
 * (a few, when the caller produces input slower than the threads compress).
 * Without threads (threads <= 1) no block is held: the input streams through
 * one z_stream in pieces that end where deflate would refill its window from
 * a whole block, with 192 KiB of buffers, and the bytes are the same.
 * Threads start when a second block begins, so a stream of one block starts
 * none.
 */
#ifndef PT_PDEFLATE_H
#define PT_PDEFLATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_pdeflate;

/* Receives compressed bytes in stream order; returns 0, or nonzero to stop
 * (the caller knows why; pt_pdeflate_finish then fails). */
typedef int (*pt_pdeflate_sink)(void *ctx, const void *p, size_t n);

#define PT_PDEFLATE_MAX_THREADS 64
#define PT_PDEFLATE_DEFAULT_BLOCK (1u << 20)

struct pt_pdeflate_opts {
	int level;    /* zlib level 1-9; 0 means 6 */
	int threads;  /* compressing threads; <= 1: none, compress in the caller */
	size_t block; /* uncompressed bytes per block; 0: PT_PDEFLATE_DEFAULT_BLOCK */
	bool gzip;    /* gzip wrapper instead of zlib */
	bool raw;     /* no wrapper: raw deflate only (pt_pdeflate_end gives its Adler-32 and length) */
};

/* Threads to use when the user says nothing: the online CPUs, at most 16. */
int pt_pdeflate_default_threads(void);

/* Never fails (out of memory exits); a thread that cannot be started only
 * means fewer threads. */
struct pt_pdeflate *pt_pdeflate_open(const struct pt_pdeflate_opts *o, pt_pdeflate_sink sink, void *ctx);
/* Append n bytes. Returns 0, or -1 once compression or the sink failed (the
 * error is reported by pt_pdeflate_finish). */
int pt_pdeflate_write(struct pt_pdeflate *z, const void *p, size_t n);
/* Compress what is left, write the trailer, stop the threads and free z.
 * Returns 0, or -1 with the reason pushed onto *e. */
int pt_pdeflate_finish(struct pt_pdeflate *z, struct pt_err **e);
/*
 * The same, with a choice: final false ends the stream with a sync flush
 * instead of deflate's final block, so that more raw deflate may follow it
 * (opened with raw: a stream of several parts). *adler and *len (either may be
 * NULL) get the Adler-32 and the length of everything written to z.
 */
int pt_pdeflate_end(struct pt_pdeflate *z, bool final, unsigned long *adler, uint64_t *len, struct pt_err **e);
/* Send the compressed bytes from now on to another sink. */
void pt_pdeflate_set_sink(struct pt_pdeflate *z, pt_pdeflate_sink sink, void *ctx);
/* The two header bytes zlib writes at that level (deflateInit). */
void pt_pdeflate_zlib_header(int level, uint8_t b[2]);
/* Give up: stop the threads and free z without writing more (NULL is fine). */
void pt_pdeflate_abort(struct pt_pdeflate *z);

#endif
