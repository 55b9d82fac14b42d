/* Unit tests of lib/support/pdeflate: parallel deflate into one zlib or gzip stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "support/err.h"
#include "support/pdeflate.h"

struct buf {
	uint8_t *p;
	size_t n, cap;
	int calls, fail_at; /* the sink fails on call fail_at (0: never) */
};

static int sink(void *ctx, const void *p, size_t n)
{
	struct buf *b = ctx;
	if (++b->calls == b->fail_at)
		return -1;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

static uint64_t rng = 88172645463325252u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

enum kind { RANDOM, REPEAT, TEXT };

static uint8_t *make(enum kind k, size_t n)
{
	uint8_t *p = malloc(n + 1);
	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		switch (k) {
		case RANDOM:
			p[i] = (uint8_t)next();
			break;
		case REPEAT: /* a 16 KiB random pattern, over and over */
			p[i] = (uint8_t)(i % 16384 * 2654435761u >> 13);
			break;
		case TEXT: /* compressible, but not trivially: short varints and names */
			p[i] = next() % 7 ? (uint8_t)"event kernel stream "[i % 20] : (uint8_t)(next() % 128);
			break;
		}
	}
	return p;
}

/* Compress data in pieces of `piece` bytes (0: all at once). */
static struct buf run(const uint8_t *d, size_t n, int level, int threads, size_t block, bool gzip, size_t piece)
{
	struct buf b = { 0 };
	struct pt_pdeflate_opts o = { .level = level, .threads = threads, .block = block, .gzip = gzip };
	struct pt_pdeflate *z = pt_pdeflate_open(&o, sink, &b);
	size_t at = 0;
	while (at < n) {
		size_t k = piece && piece < n - at ? piece : n - at;
		assert_int_equal(pt_pdeflate_write(z, d + at, k), 0);
		at += k;
	}
	struct pt_err *e = NULL;
	assert_int_equal(pt_pdeflate_finish(z, &e), 0);
	assert_null(e);
	return b;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Plain zlib gives the input back, and the trailer holds its checksums. */
static void check_inflates(const struct buf *b, const uint8_t *d, size_t n, bool gzip)
{
	uint8_t *back = malloc(n + 1);
	assert_non_null(back);
	if (!gzip) {
		uLongf got = n + 1;
		assert_int_equal(uncompress(back, &got, b->p, b->n), Z_OK);
		assert_int_equal(got, n);
		assert_int_equal(be32(b->p + b->n - 4), adler32(adler32(0, NULL, 0), d, (uInt)n));
	} else {
		z_stream s = { 0 };
		assert_int_equal(inflateInit2(&s, 15 + 16), Z_OK);
		s.next_in = b->p;
		s.avail_in = (uInt)b->n;
		s.next_out = back;
		s.avail_out = (uInt)(n + 1);
		assert_int_equal(inflate(&s, Z_FINISH), Z_STREAM_END);
		assert_int_equal(s.total_out, n);
		assert_int_equal(s.avail_in, 0);
		inflateEnd(&s);
		assert_int_equal(le32(b->p + b->n - 8), crc32(0, d, (uInt)n));
		assert_int_equal(le32(b->p + b->n - 4), (uint32_t)n);
	}
	assert_memory_equal(back, d, n);
	free(back);
}

/* Every size around the block boundaries, every kind of data, 1, 2 and 5
 * threads, whole or in pieces: the same bytes, and a stream zlib reads. */
static void test_identical(size_t block, const size_t *sizes, size_t nsizes, bool gzip)
{
	static const int threads[] = { 1, 2, 5 };
	static const size_t pieces[] = { 0, 1, 4093 };
	for (int k = RANDOM; k <= TEXT; k++) {
		for (size_t si = 0; si < nsizes; si++) {
			size_t n = sizes[si];
			uint8_t *d = make(k, n);
			struct buf ref = run(d, n, 1, 1, block, gzip, 0);
			check_inflates(&ref, d, n, gzip);
			for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
				for (size_t pi = 0; pi < sizeof(pieces) / sizeof(pieces[0]); pi++) {
					if (pieces[pi] == 1 && n > 300000)
						continue; /* byte by byte: small inputs only */
					struct buf b = run(d, n, 1, threads[t], block, gzip, pieces[pi]);
					assert_int_equal(b.n, ref.n);
					assert_memory_equal(b.p, ref.p, ref.n);
					free(b.p);
				}
			}
			free(ref.p);
			free(d);
		}
	}
}

static void test_zlib_sizes(void **state)
{
	(void)state;
	const size_t B = 65536;
	const size_t sizes[] = { 0, 1, 100, B - 1, B, B + 1, 2 * B, 7 * B + 123, 40 * B };
	test_identical(B, sizes, sizeof(sizes) / sizeof(sizes[0]), false);
}

/* Blocks smaller than the 32 KiB window: the dictionary spans several blocks. */
static void test_small_blocks(void **state)
{
	(void)state;
	const size_t sizes[] = { 999, 1000, 1001, 50000, 123457 };
	test_identical(1000, sizes, sizeof(sizes) / sizeof(sizes[0]), false);
}

/* The default block size (what the model writer uses). */
static void test_default_block(void **state)
{
	(void)state;
	const size_t M = PT_PDEFLATE_DEFAULT_BLOCK;
	const size_t sizes[] = { M, M + 1, 3 * M + 77 };
	test_identical(0, sizes, sizeof(sizes) / sizeof(sizes[0]), false);
}

static void test_gzip(void **state)
{
	(void)state;
	const size_t B = 65536;
	const size_t sizes[] = { 0, 1, B, B + 1, 9 * B + 5 };
	test_identical(B, sizes, sizeof(sizes) / sizeof(sizes[0]), true);
}

/* Without threads the blocks are streamed through one z_stream in pieces of
 * at most 64 KiB, not held whole: at every level (deflate_fast up to 3,
 * deflate_slow from 4), whatever pieces the input comes in, the bytes are
 * those of the threads, which compress each block given whole. */
static void test_streamed_levels(void **state)
{
	(void)state;
	static const int levels[] = { 1, 3, 4, 6, 9 };
	static const size_t pieces[] = { 0, 1, 4093, 32768, 40000, 65536 };
	const size_t B = 65536;
	const size_t sizes[] = { 2 * 32768 - 1, 2 * 32768 + 1, 3 * B + 777, 7 * B + 32768 };
	for (int k = REPEAT; k <= TEXT; k++) {
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			size_t n = sizes[si];
			uint8_t *d = make(k, n);
			for (size_t li = 0; li < sizeof(levels) / sizeof(levels[0]); li++) {
				struct buf ref = run(d, n, levels[li], 2, B, false, 0);
				check_inflates(&ref, d, n, false);
				for (size_t pi = 0; pi < sizeof(pieces) / sizeof(pieces[0]); pi++) {
					if (pieces[pi] == 1 && n > 100000)
						continue;
					struct buf b = run(d, n, levels[li], 1, B, false, pieces[pi]);
					assert_int_equal(b.n, ref.n);
					assert_memory_equal(b.p, ref.p, ref.n);
					free(b.p);
				}
				free(ref.p);
			}
			free(d);
		}
	}
}

/*
 * Around the window's slide: deflate moves its 64 KiB window by half once its
 * position reaches 64 KiB - 262, and a match reaches at most 32,506 bytes
 * back. Random bytes (no match but this one) with a copy of 258 bytes at
 * exactly that distance, ending there, written byte by byte and in pieces
 * that end at the slide point: the threads' bytes, at levels 1 and 9.
 */
static void test_streamed_slide(void **state)
{
	(void)state;
	size_t n = 100000;
	uint8_t *d = make(RANDOM, n);
	memcpy(d + 65274, d + 32768, 258);
	static const size_t pieces[] = { 1, 65535, 65274, 4093 };
	for (int level = 1; level <= 9; level += 8) {
		struct buf ref = run(d, n, level, 2, 0, false, 0);
		check_inflates(&ref, d, n, false);
		for (size_t pi = 0; pi < sizeof(pieces) / sizeof(pieces[0]); pi++) {
			struct buf b = run(d, n, level, 1, 0, false, pieces[pi]);
			assert_int_equal(b.n, ref.n);
			assert_memory_equal(b.p, ref.p, ref.n);
			free(b.p);
		}
		free(ref.p);
	}
	free(d);
}

/* The wrapper's header is the one zlib itself writes at each level. */
static void test_headers(void **state)
{
	(void)state;
	const uint8_t in[] = "proftool";
	for (int level = 1; level <= 9; level++) {
		uint8_t ref[64];
		uLongf rn = sizeof(ref);
		assert_int_equal(compress2(ref, &rn, in, sizeof(in), level), Z_OK);
		struct buf b = run(in, sizeof(in), level, 1, 0, false, 0);
		assert_memory_equal(b.p, ref, 2);
		check_inflates(&b, in, sizeof(in), false);
		free(b.p);
		/* gzip: deflateInit2's header (no name, no time) */
		z_stream s = { 0 };
		assert_int_equal(deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = (Bytef *)in;
		s.avail_in = sizeof(in);
		s.next_out = ref;
		s.avail_out = sizeof(ref);
		assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
		deflateEnd(&s);
		b = run(in, sizeof(in), level, 2, 0, true, 0);
		assert_memory_equal(b.p, ref, 10);
		free(b.p);
	}
	/* level 1, the model's: 78 01 */
	struct buf b = run(in, 0, 1, 1, 0, false, 0);
	assert_int_equal(b.p[0], 0x78);
	assert_int_equal(b.p[1], 0x01);
	free(b.p);
}

/* A block reaches back into the block before it: a 16 KiB random pattern
 * repeated over twenty 64 KiB blocks costs its bytes once (about 1 KiB per
 * block at level 1 after that), not once per block (over 320 KiB). */
static void test_dictionary(void **state)
{
	(void)state;
	size_t n = 20 * 65536;
	uint8_t *d = malloc(n);
	assert_non_null(d);
	uint8_t pat[16384];
	for (size_t i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)next();
	for (size_t i = 0; i < n; i++)
		d[i] = pat[i % sizeof(pat)];
	struct buf b = run(d, n, 1, 2, 65536, false, 0);
	check_inflates(&b, d, n, false);
	assert_true(b.n < 4 * sizeof(pat));
	free(b.p);
	free(d);
}

/* The sink says stop: writes fail from then on, finish reports it, and the
 * threads are stopped (under ASan and TSan: nothing leaks, nothing races). */
static void test_sink_failure(void **state)
{
	(void)state;
	size_t n = 30 * 65536;
	uint8_t *d = make(RANDOM, n);
	for (int fail_at = 1; fail_at <= 6; fail_at++) {
		for (int threads = 1; threads <= 3; threads++) {
			struct buf b = { .fail_at = fail_at };
			struct pt_pdeflate_opts o = { .level = 1, .threads = threads, .block = 65536 };
			struct pt_pdeflate *z = pt_pdeflate_open(&o, sink, &b);
			int rc = 0;
			for (size_t at = 0; at < n && !rc; at += 10000)
				rc = pt_pdeflate_write(z, d + at, n - at < 10000 ? n - at : 10000);
			assert_int_equal(rc, -1);
			struct pt_err *e = NULL;
			assert_int_equal(pt_pdeflate_finish(z, &e), -1);
			char *s = pt_err_str(e);
			assert_string_equal(s, "cannot write the compressed stream");
			free(s);
			pt_err_free(e);
			free(b.p);
		}
	}
	free(d);
}

/* Giving up midway, with blocks in flight, stops the threads and frees all. */
static void test_abort(void **state)
{
	(void)state;
	size_t n = 12 * 65536 + 5;
	uint8_t *d = make(TEXT, n);
	for (int threads = 1; threads <= 4; threads++) {
		struct buf b = { 0 };
		struct pt_pdeflate_opts o = { .level = 1, .threads = threads, .block = 65536 };
		struct pt_pdeflate *z = pt_pdeflate_open(&o, sink, &b);
		assert_int_equal(pt_pdeflate_write(z, d, n), 0);
		pt_pdeflate_abort(z);
		free(b.p);
	}
	pt_pdeflate_abort(NULL);
	free(d);
}

static void test_default_threads(void **state)
{
	(void)state;
	int n = pt_pdeflate_default_threads();
	assert_true(n >= 1 && n <= 16);
}

/* Raw parts: one ended by a sync flush, then one ended by the final block, framed by a zlib
 * header and the Adler-32 the two combine to, are one zlib stream of both inputs; the bytes of
 * a part depend on neither its threads nor where the sink changed. */
static void test_raw_parts(void **state)
{
	(void)state;
	size_t na = 300000, nb = 2500000;
	uint8_t *a = make(TEXT, na), *b = make(REPEAT, nb);
	struct buf ref = { 0 };
	for (int threads = 1; threads <= 3; threads++) {
		struct buf out = { 0 }, side = { 0 };
		uint8_t h[2];
		pt_pdeflate_zlib_header(1, h);
		sink(&out, h, 2);
		struct pt_pdeflate_opts o = { .level = 1, .threads = threads, .block = 65536, .raw = true };
		struct pt_pdeflate *z = pt_pdeflate_open(&o, sink, &out);
		assert_int_equal(pt_pdeflate_write(z, a, na), 0);
		unsigned long aa, ab;
		uint64_t la, lb;
		struct pt_err *e = NULL;
		assert_int_equal(pt_pdeflate_end(z, false, &aa, &la, &e), 0);
		assert_int_equal(la, na);
		/* the second part starts into another sink, then goes on into the first */
		z = pt_pdeflate_open(&o, sink, &side);
		assert_int_equal(pt_pdeflate_write(z, b, nb / 2), 0);
		sink(&out, side.p, side.n);
		pt_pdeflate_set_sink(z, sink, &out);
		assert_int_equal(pt_pdeflate_write(z, b + nb / 2, nb - nb / 2), 0);
		assert_int_equal(pt_pdeflate_end(z, true, &ab, &lb, &e), 0);
		assert_int_equal(lb, nb);
		unsigned long ad = adler32_combine(aa, ab, (z_off_t)lb);
		uint8_t t[4] = { (uint8_t)(ad >> 24), (uint8_t)(ad >> 16), (uint8_t)(ad >> 8), (uint8_t)ad };
		sink(&out, t, 4);
		uLongf got = (uLongf)(na + nb);
		uint8_t *plain = malloc(na + nb);
		assert_int_equal(uncompress(plain, &got, out.p, (uLong)out.n), Z_OK);
		assert_int_equal(got, na + nb);
		assert_memory_equal(plain, a, na);
		assert_memory_equal(plain + na, b, nb);
		free(plain);
		if (threads == 1) {
			ref = out;
		} else {
			assert_int_equal(out.n, ref.n);
			assert_memory_equal(out.p, ref.p, ref.n);
			free(out.p);
		}
		free(side.p);
	}
	free(ref.p);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zlib_sizes),   cmocka_unit_test(test_small_blocks),
		cmocka_unit_test(test_streamed_levels), cmocka_unit_test(test_streamed_slide),
		cmocka_unit_test(test_default_block), cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_headers),      cmocka_unit_test(test_dictionary),
		cmocka_unit_test(test_sink_failure), cmocka_unit_test(test_abort),
		cmocka_unit_test(test_default_threads), cmocka_unit_test(test_raw_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
