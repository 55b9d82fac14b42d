/* Unit tests of lib/support: errors, warnings, hash map, strings, formatting, parsing, intervals, output,
 * big blocks. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/diag.h"
#include "support/err.h"
#include "support/fmt-text.h"
#include "support/fmt.h"
#include "support/hashmap.h"
#include "support/idmap.h"
#include "support/interval.h"
#include "support/ivpack.h"
#include "support/lagprof.h"
#include "support/steppat.h"
#include "support/out.h"
#include "support/parse.h"
#include "support/strtab.h"
#include "support/xalloc.h"

static void test_err_chain(void **state)
{
	(void)state;
	struct pt_err *e = NULL;
	assert_int_equal(pt_err(&e, "truncated record at byte %d", 167440), -1);
	pt_err(&e, "step trace '%s'", "x.slice_0");
	pt_err(&e, "cannot import '%s'", "JOB3");
	char *s = pt_err_str(e);
	assert_string_equal(s, "cannot import 'JOB3': step trace 'x.slice_0': truncated record at byte 167440");
	free(s);
	pt_err_free(e);
}

static void test_diag_counts(void **state)
{
	(void)state;
	struct pt_diag d = { 0 };
	pt_diag_warn(&d, "f", "skipped all-zero records", PT_POS_OFFSET, 256);
	pt_diag_warn(&d, "f", "skipped all-zero records", PT_POS_OFFSET, 128);
	pt_diag_warn(&d, "f", "skipped all-zero records", PT_POS_OFFSET, 512);
	pt_diag_warn(&d, "g", "skipped unparsable lines", PT_POS_LINE, 7);
	pt_diag_note(&d, "assumed %d MHz", 100);
	pt_diag_note(&d, "assumed %d MHz", 100);
	assert_int_equal(d.n, 3);
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	pt_diag_print(&d, f);
	fclose(f);
	assert_string_equal(buf, "proftool: warning: 'f': skipped 3 all-zero records (first at offset 128)\n"
				 "proftool: warning: 'g': skipped 1 unparsable lines (at line 7)\n"
				 "proftool: warning: assumed 100 MHz (2 times)\n");
	assert_int_equal(pt_diag_total(&d), 6);
	pt_diag_free(&d);
}

/* pt_diag_info / pt_diag_once print once without a count; pt_err_nodata marks its error */
static void test_diag_once_nodata(void **state)
{
	(void)state;
	struct pt_diag d = { 0 };
	pt_diag_info(&d, "device %d: covered %d of %d", 1, 15, 322);
	pt_diag_info(&d, "device %d: covered %d of %d", 1, 15, 322);
	pt_diag_once(&d, "J: %d dropped", 323);
	pt_diag_once(&d, "J: %d dropped", 323);
	pt_diag_note(&d, "J: %d dropped", 323); /* a plain note of the same text is its own entry */
	pt_diag_info(NULL, "ignored");
	assert_int_equal(d.n, 3);
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	pt_diag_print(&d, f);
	fclose(f);
	assert_string_equal(buf, "proftool: note: device 1: covered 15 of 322\n"
				 "proftool: warning: J: 323 dropped\n"
				 "proftool: warning: J: 323 dropped\n");
	pt_diag_free(&d);

	struct pt_err *e = NULL;
	assert_int_equal(pt_err_nodata(&e, "memory", -1, "memory_usage_<d>.pb"), -1);
	assert_true(pt_err_is_nodata(e));
	char *m = pt_err_str(e);
	assert_string_equal(m, "has no memory data (import memory_usage_<d>.pb to get it)");
	free(m);
	pt_err(&e, "context"); /* an error pushed on top is an ordinary one */
	assert_false(pt_err_is_nodata(e));
	pt_err_free(e);
	e = NULL;
	pt_err_nodata(&e, "step", 3, "a step trace");
	m = pt_err_str(e);
	assert_string_equal(m, "has no step data of device 3 (import a step trace to get it)");
	free(m);
	pt_err_free(e);
	assert_false(pt_err_is_nodata(NULL));
	assert_int_equal(pt_err_nodata(NULL, "x", -1, "y"), -1);
}

static void test_hashmap(void **state)
{
	(void)state;
	struct pt_hashmap h;
	pt_hashmap_init(&h);
	for (uint64_t k = 0; k < 10000; k++) {
		bool added;
		*pt_hashmap_put(&h, k * 7919, k, &added) += 1;
		assert_true(added);
	}
	assert_int_equal(h.n, 10000);
	for (uint64_t k = 0; k < 10000; k += 2)
		assert_true(pt_hashmap_del(&h, k * 7919));
	assert_false(pt_hashmap_del(&h, 0));
	for (uint64_t k = 0; k < 10000; k++) {
		uint64_t *v = pt_hashmap_get(&h, k * 7919);
		if (k % 2)
			assert_int_equal(*v, k + 1);
		else
			assert_null(v);
	}
	pt_hashmap_free(&h);
	/* reserved: keys already there are kept, and the reserved count of puts never grows the table */
	pt_hashmap_init(&h);
	*pt_hashmap_put(&h, 5, 50, NULL) += 1;
	pt_hashmap_reserve(&h, 1000);
	size_t cap = h.cap;
	assert_true(cap >= 1000);
	assert_int_equal(*pt_hashmap_get(&h, 5), 51);
	for (uint64_t k = 1; k < 1000; k++)
		pt_hashmap_put(&h, k * 7919, k, NULL);
	assert_int_equal(h.n, 1000);
	assert_int_equal(h.cap, cap);
	pt_hashmap_reserve(&h, 10); /* never shrinks */
	assert_int_equal(h.cap, cap);
	for (uint64_t k = 1; k < 1000; k++)
		assert_int_equal(*pt_hashmap_get(&h, k * 7919), k);
	pt_hashmap_free(&h);
}

static void test_strtab(void **state)
{
	(void)state;
	struct pt_strtab t;
	pt_strtab_init(&t);
	assert_int_equal(pt_strtab_add(&t, ""), 0);
	uint32_t a = pt_strtab_add(&t, "MatMul");
	assert_int_equal(pt_strtab_add(&t, "MatMul"), a);
	char name[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "op-%d", i);
		assert_int_equal(pt_strtab_add(&t, name), (uint32_t)(i + 2));
	}
	assert_string_equal(pt_strtab_get(&t, a), "MatMul");
	/* interning a string of the table itself survives the table growing */
	for (int i = 0; i < 2000; i++) {
		const char *s = pt_strtab_get(&t, (uint32_t)(i + 2));
		uint32_t id = pt_strtab_intern(&t, s, 3); /* "op-" prefix */
		assert_string_equal(pt_strtab_get(&t, id), "op-");
	}
	/* embedded NUL bytes are part of a string */
	uint32_t z = pt_strtab_intern(&t, "a\0b", 3);
	assert_int_equal(pt_strtab_len(&t, z), 3);
	assert_int_not_equal(z, pt_strtab_add(&t, "a"));
	assert_int_equal(pt_strtab_find(&t, "nope", 4), UINT32_MAX);
	/* a table of text (a model's names) cuts a string at its first NUL */
	struct pt_strtab x;
	pt_strtab_init(&x);
	x.text = true;
	uint32_t c = pt_strtab_intern(&x, "ab\0cd", 5);
	assert_int_equal(pt_strtab_len(&x, c), 2);
	assert_int_equal(pt_strtab_add(&x, "ab"), c);
	assert_int_equal(pt_strtab_intern(&x, "\0x", 2), 0);
	pt_strtab_free(&x);
	pt_strtab_free(&t);
}

static void test_fmt(void **state)
{
	(void)state;
	char b[64], p[64];
	int64_t vals[] = { 0, 1, -1, 9, 10, 99, 100, 12345678901234LL, INT64_MAX, INT64_MIN };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		size_t n = pt_fmt_i64(b, vals[i]);
		snprintf(p, sizeof(p), "%lld", (long long)vals[i]);
		assert_int_equal(n, strlen(p));
		assert_memory_equal(b, p, n);
	}
	b[pt_fmt_scaled(b, 1500000, 1000000, 3)] = 0;
	assert_string_equal(b, "1.500");
	b[pt_fmt_scaled(b, 1234567, 1000, 3)] = 0;
	assert_string_equal(b, "1234.567");
	b[pt_fmt_scaled(b, 1999500, 1000000, 3)] = 0; /* 1.9995 -> 2.000 (half away from zero) */
	assert_string_equal(b, "2.000");
	b[pt_fmt_scaled(b, -1999500, 1000000, 3)] = 0;
	assert_string_equal(b, "-2.000");
	b[pt_fmt_scaled(b, -400, 1000000, 3)] = 0; /* rounds to zero: no minus sign */
	assert_string_equal(b, "0.000");
	b[pt_fmt_scaled(b, 5, 1000000, 6)] = 0;
	assert_string_equal(b, "0.000005");
	b[pt_fmt_scaled(b, INT64_MIN, 1000000000, 9)] = 0;
	assert_string_equal(b, "-9223372036.854775808");
	/* every digit count, the one- and two-digit look-up and the eight-digit parts */
	for (uint64_t v = 1, k = 0; k < 20; k++, v *= 10) {
		uint64_t near[] = { v - 1, v, v + 1 };
		for (int j = 0; j < 3; j++) {
			size_t n = pt_fmt_u64(b, near[j]);
			snprintf(p, sizeof(p), "%llu", (unsigned long long)near[j]);
			assert_int_equal(n, strlen(p));
			assert_memory_equal(b, p, n);
		}
	}
	for (uint64_t v = 0; v < 200000; v += v < 1000 ? 1 : 7) { /* every short number, then a sample */
		uint64_t w[] = { v, v * 1000003, v * 1000000007ull, UINT64_MAX - v };
		for (int j = 0; j < 4; j++) {
			size_t n = pt_fmt_u64(b, w[j]);
			snprintf(p, sizeof(p), "%llu", (unsigned long long)w[j]);
			assert_int_equal(n, strlen(p));
			assert_memory_equal(b, p, n);
		}
	}
	pt_fmt_put8(b, 1234);
	assert_memory_equal(b, "00001234", 8);
	pt_fmt_put8(b, 99999999);
	assert_memory_equal(b, "99999999", 8);
	b[pt_fmt_u64(b, UINT64_MAX)] = 0;
	assert_string_equal(b, "18446744073709551615");
	b[pt_fmt_milli(b, 0)] = 0;
	assert_string_equal(b, "0.000");
	b[pt_fmt_milli(b, 1234567)] = 0;
	assert_string_equal(b, "1234.567");
	b[pt_fmt_milli(b, 5)] = 0;
	assert_string_equal(b, "0.005");
	/* 17 significant digits that read back, trailing zeros dropped down to three decimals */
	double ds[] = { 7.7800000000000011, 0.1, 1.0 / 3.0, 123456.789, 0.0012345678901234567, 9999999999999.998,
			5e-6, 1.5 };
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		char *end;
		size_t n = pt_fmt_dbl17(b, ds[i]);
		b[n] = 0;
		assert_true(strtod(b, &end) == ds[i] && *end == 0);
		const char *dot = strchr(b, '.');
		assert_non_null(dot);
		assert_true(strlen(dot + 1) >= 3);
	}
	b[pt_fmt_dbl17(b, 7.7800000000000011)] = 0;
	assert_string_equal(b, "7.7800000000000011");
	b[pt_fmt_dbl17(b, 1.5)] = 0;
	assert_string_equal(b, "1.500");
	b[pt_fmt_dbl17(b, 1.0 / 3.0)] = 0;
	assert_string_equal(b, "0.33333333333333331");
	b[pt_fmt_dbl17(b, 5e-6)] = 0;
	assert_string_equal(b, "0.0000050000000000000004");
}

static void test_parse(void **state)
{
	(void)state;
	int64_t v;
	uint64_t u;
	assert_true(pt_parse_i64("-42", 3, &v) && v == -42);
	assert_true(pt_parse_i64("9223372036854775807", 19, &v) && v == INT64_MAX);
	assert_false(pt_parse_i64("9223372036854775808", 19, &v));
	assert_true(pt_parse_i64("-9223372036854775808", 20, &v) && v == INT64_MIN);
	assert_false(pt_parse_u64("", 0, &u));
	assert_false(pt_parse_u64("12a", 3, &u));
	assert_false(pt_parse_u64("18446744073709551616", 20, &u));
	assert_true(pt_parse_mhz_khz("100", 3, &u) && u == 100000);
	assert_true(pt_parse_mhz_khz("19.2", 4, &u) && u == 19200);
	assert_true(pt_parse_mhz_khz("0.001", 5, &u) && u == 1);
	assert_false(pt_parse_mhz_khz("0", 1, &u));
	assert_false(pt_parse_mhz_khz("1.2345", 6, &u));
	assert_false(pt_parse_mhz_khz("1.", 2, &u));
	assert_false(pt_parse_mhz_khz("x", 1, &u));
}

/* The step pattern matches whole names only; a bad pattern reports regerror's text. */
static void test_step_pattern(void **state)
{
	(void)state;
	regex_t re;
	char msg[128];
	assert_int_equal(pt_step_pattern_compile(&re, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(regexec(&re, "ProfilerStep#12", 0, NULL, 0), 0);
	assert_int_equal(regexec(&re, "ProfileStep#3", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "xProfilerStep#1", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "ProfilerStep#1 ", 0, NULL, 0), 0);
	regfree(&re);
	assert_int_equal(pt_step_pattern_compile(&re, "step|iter", msg, sizeof(msg)), 0);
	assert_int_equal(regexec(&re, "iter", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&re, "step1", 0, NULL, 0), 0);
	regfree(&re);
	msg[0] = 0;
	assert_int_not_equal(pt_step_pattern_compile(&re, "(unclosed", msg, sizeof(msg)), 0);
	assert_true(msg[0] != 0);
}

static void test_intervals(void **state)
{
	(void)state;
	struct pt_ival iv[] = { { 10, 20 }, { 0, 5 }, { 5, 7 }, { 15, 30 }, { 40, 40 }, { 50, 45 }, { 35, 38 } };
	struct pt_ivset a = { 0 }, b = { 0 }, r = { 0 };
	pt_ivset_build(&a, iv, 7);
	/* touching [0,5) and [5,7) join; empty and reversed ones vanish */
	assert_int_equal(a.n, 3);
	assert_true(a.v[0].s == 0 && a.v[0].e == 7);
	assert_true(a.v[1].s == 10 && a.v[1].e == 30);
	assert_true(a.v[2].s == 35 && a.v[2].e == 38);
	assert_int_equal(pt_ivset_measure(&a), 7 + 20 + 3);
	assert_int_equal(pt_ivset_measure_in(&a, 3, 12), 4 + 2);
	assert_int_equal(pt_ivset_measure_in(&a, 100, 200), 0);
	/* membership: half-open, gaps and both ends of the set */
	static const int64_t in[] = { 0, 6, 10, 29, 35, 37 }, out[] = { -1, 7, 9, 30, 34, 38, INT64_MIN, INT64_MAX };
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_true(pt_ivset_contains(&a, in[i]));
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		assert_false(pt_ivset_contains(&a, out[i]));
	struct pt_ivset none = { 0 };
	assert_false(pt_ivset_contains(&none, 0));
	struct pt_ival jv[] = { { 6, 11 }, { 25, 36 } };
	pt_ivset_build(&b, jv, 2);
	pt_ivset_inter(&r, &a, &b);
	assert_int_equal(pt_ivset_measure(&r), 1 + 1 + 5 + 1);
	pt_ivset_diff(&r, &a, &b);
	assert_int_equal(pt_ivset_measure(&r), 6 + 14 + 2);
	pt_ivset_union(&r, &a, &b);
	assert_int_equal(r.n, 1);
	assert_true(r.v[0].s == 0 && r.v[0].e == 38);
	pt_ivset_clip(&r, &a, 4, 36);
	assert_int_equal(pt_ivset_measure(&r), 3 + 20 + 1);
	/* the radix sort agrees with a simple check on many random intervals */
	size_t n = 100000;
	struct pt_ival *big = malloc(n * sizeof(*big));
	uint64_t x = 88172645463325252ULL;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int64_t s = (int64_t)(x % 2000000000ULL) - 1000000000;
		big[i] = (struct pt_ival){ s, s + (int64_t)(x % 1000) };
	}
	pt_ival_sort(big, n);
	for (size_t i = 1; i < n; i++)
		assert_true(big[i - 1].s <= big[i].s);
	free(big);
	pt_ivset_free(&a);
	pt_ivset_free(&b);
	pt_ivset_free(&r);
}

/* (start, original position) */
static int ival_ref_cmp(const void *pa, const void *pb)
{
	const struct pt_ival *a = pa, *b = pb;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->e < b->e ? -1 : a->e > b->e;
}

/* pt_ival_sort is a stable sort by start: every shape of key range, duplicates, sorted runs. */
static void test_ival_sort_stable(void **state)
{
	(void)state;
	static const size_t sizes[] = { 2, 63, 64, 65, 1000, 5000, 70000 };
	static const uint64_t spans[] = { 2, 1000, 1ull << 20, 1ull << 37, 1ull << 50, 0 /* full 64 bits */ };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(*sizes); si++)
		for (size_t pi = 0; pi < sizeof(spans) / sizeof(*spans); pi++)
			for (int shape = 0; shape < 4; shape++) {
				size_t n = sizes[si];
				struct pt_ival *v = malloc(n * sizeof(*v)), *w = malloc(n * sizeof(*w));
				int64_t base = shape == 2 ? INT64_MIN / 2 : 1000000000000;
				for (size_t i = 0; i < n; i++) {
					x ^= x << 13;
					x ^= x >> 7;
					x ^= x << 17;
					uint64_t r = spans[pi] ? x % spans[pi] : x;
					if (shape == 1) /* interleaved sorted runs, as events of several tracks */
						r = (spans[pi] ? (i * 37) % spans[pi] : i * 37) + (x & 3);
					if (shape == 3) /* skewed: one far key, the rest close together (large buckets) */
						r = i == n / 2 ? (spans[pi] ? spans[pi] - 1 : UINT64_MAX) : x % 100000;
					v[i] = (struct pt_ival){ spans[pi] ? base + (int64_t)r : (int64_t)r, (int64_t)i };
				}
				memcpy(w, v, n * sizeof(*v));
				qsort(w, n, sizeof(*w), ival_ref_cmp);
				pt_ival_sort(v, n);
				for (size_t i = 0; i < n; i++) {
					assert_int_equal(v[i].s, w[i].s);
					assert_int_equal(v[i].e, w[i].e);
				}
				free(v);
				free(w);
			}
}

static void test_out_errors(void **state)
{
	(void)state;
	struct pt_err *e = NULL;
	/* a full device is a reported error */
	int fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		struct pt_out o;
		pt_out_init_fd(&o, fd, "/dev/full");
		for (int i = 0; i < 100000; i++)
			pt_out_puts(&o, "0123456789");
		assert_int_equal(pt_out_flush(&o, &e), -1);
		char *s = pt_err_str(e);
		assert_non_null(strstr(s, "No space left"));
		free(s);
		pt_err_free(e);
		e = NULL;
		pt_out_abort(&o);
		close(fd);
	}
	/* atomic files: nothing at the target until commit; abort leaves nothing */
	char dir[] = "/tmp/pt-out-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	pt_out_puts(&o, "hello");
	pt_out_i64(&o, -5);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	char buf[32] = "";
	FILE *f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "hello-5");
	unlink(path);
	assert_int_equal(pt_out_open(&o, path, &e), 0);
	pt_out_puts(&o, "partial");
	pt_out_abort(&o);
	assert_int_equal(access(path, F_OK), -1);
	rmdir(dir);
	/* a directory that does not exist */
	assert_int_equal(pt_out_open(&o, "/nonexistent-dir/x", &e), -1);
	pt_err_free(e);
}

static void put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void read_file(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	buf[0] = 0;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
}

/* Control bytes of names become "\xHH" text; everything else is kept. */
static void test_text_escape(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} cases[] = {
#define C(in, out) { in, sizeof(in) - 1, out }
		C("plain/name-op1", "plain/name-op1"),
		C("a\033[2Jb", "a\\x1b[2Jb"),
		C("t\tn\nr\r\a\177", "t\\x09n\\x0ar\\x0d\\x07\\x7f"),
		C("nul\0x", "nul\\x00x"),
		C("csi\302\233m", "csi\\xc2\\x9bm"), /* U+009B, the 8-bit CSI */
		C("nbsp\302\240 \303\251", "nbsp\302\240 \303\251"), /* U+00A0, é: kept */
		C("back\\slash", "back\\slash"),
		C("lone\302", "lone\302"), /* a cut sequence: kept */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *s = pt_text_escape(cases[i].in, cases[i].n, &len);
		assert_string_equal(s, cases[i].out);
		assert_int_equal(len, strlen(cases[i].out));
		assert_int_equal(pt_text_escaped_len(cases[i].in, cases[i].n), len);
		free(s);
	}
#undef C
}

/* -o onto a symbolic link writes the link's target and keeps the link; a
 * file replaced keeps its mode; a dangling link creates its target. */
/* s shortened to max columns (s itself when it fits), as a string to compare. */
static char *shortened(const char *s, size_t max)
{
	size_t n;
	char *d = pt_text_shorten(s, strlen(s), max, &n);
	if (!d)
		return strdup(s);
	assert_int_equal(n, strlen(d));
	assert_true(pt_text_width(d, n) <= max);
	return d;
}

#define ELL "\xe2\x80\xa6"

static void expect_short(const char *s, size_t max, const char *want)
{
	char *d = shortened(s, max);
	assert_string_equal(d, want);
	free(d);
}

/* Middle-shortening: '/' boundaries, the op name whole, code points when there is no '/', UTF-8 and escapes whole. */
static void test_text_shorten(void **state)
{
	(void)state;
	const char *g = "Gradients/Default/network-TrainStepWrap/network-VirtualDatasetCell/network-WithLossCell/"
			"_backbone-ResNet/conv1/Conv2D-op5";
	expect_short(g, 200, g);
	/* the tail grows first, then the start, a component at a time */
	expect_short(g, 60, "Gradients/Default/" ELL "/_backbone-ResNet/conv1/Conv2D-op5");
	expect_short(g, 40, "Gradients/Default/" ELL "/conv1/Conv2D-op5");
	expect_short(g, 24, "Gradients/" ELL "/Conv2D-op5");
	/* the first component does not fit beside the op name: the start by code points */
	expect_short(g, 18, "Gradie" ELL "/Conv2D-op5");
	/* the op name does not fit with a column of the start: half and half */
	expect_short(g, 11, "Gradi" ELL "D-op5");
	/* no '/' */
	expect_short("abcdefghijklmnopqrstuvwxyz", 10, "abcde" ELL "wxyz");
	expect_short("abcdefghij", 10, "abcdefghij");
	expect_short("abcdefghijk", 1, ELL);
	/* one '/': the start by code points, then the op name */
	expect_short("Default/MatMul-op123456", 20, "Def" ELL "/MatMul-op123456");
	/* UTF-8: widths in code points, a sequence never split */
	expect_short("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5, "\xc3\xa9\xc3\xa9" ELL "\xc3\xa9\xc3\xa9");
	/* escapes "\xHH" are four columns and kept whole or left out */
	expect_short("ab\\x1bcdefgh", 8, "ab" ELL "fgh");
	expect_short("abcdefg\\x1b", 9, "abcd" ELL "\\x1b");
}

/* Wrapping: words whole, a hanging indent, no trailing spaces, long words split, control bytes escaped. */
static void test_text_wrap(void **state)
{
	(void)state;
	char *w = pt_text_wrap("aaa bbb ccc ddd", 15, 8, 0, 2);
	assert_string_equal(w, "aaa bbb\n  ccc\n  ddd");
	free(w);
	w = pt_text_wrap("aaa  bbb ccc", 12, 100, 0, 2);
	assert_string_equal(w, "aaa  bbb ccc");
	free(w);
	/* the first line continues one 4 columns long */
	w = pt_text_wrap("aaa bbb ccc", 11, 10, 4, 6);
	assert_string_equal(w, "aaa\n      bbb\n      ccc");
	free(w);
	/* a word longer than a line is split, only then */
	w = pt_text_wrap("x abcdefghijkl y", 16, 6, 0, 2);
	assert_string_equal(w, "x\n  abcd\n  efgh\n  ijkl\n  y");
	free(w);
	/* trailing and leading spaces go; a control byte prints as \xHH and is not split */
	w = pt_text_wrap("  a\x1b b  ", 8, 100, 0, 2);
	assert_string_equal(w, "a\\x1b b");
	free(w);
	w = pt_text_wrap("", 0, 10, 0, 2);
	assert_string_equal(w, "");
	free(w);
	/* UTF-8 counts code points */
	w = pt_text_wrap("\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 11, 6, 0, 0);
	assert_string_equal(w, "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9");
	free(w);
	/* not a terminal: 100 */
	int fd = open("/dev/null", O_WRONLY);
	assert_int_equal(pt_text_line_width(fd), 100);
	close(fd);
}

static void test_out_link_mode(void **state)
{
	(void)state;
	struct pt_err *e = NULL;
	char dir[] = "/tmp/pt-out-XXXXXX", p[256], q[256], l[256], buf[64];
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/target", dir);
	snprintf(l, sizeof(l), "%s/link", dir);
	put_file(p, "old", 0600);
	assert_int_equal(symlink("target", l), 0);
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, l, &e), 0);
	pt_out_puts(&o, "new");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	struct stat st;
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	read_file(p, buf, sizeof(buf));
	assert_string_equal(buf, "new");
	/* a plain file: 0640 stays 0640 */
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(pt_out_open(&o, p, &e), 0);
	pt_out_puts(&o, "again");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* a dangling link: its target is created, the link stays a link */
	snprintf(q, sizeof(q), "%s/made", dir);
	unlink(l);
	assert_int_equal(symlink("made", l), 0);
	assert_int_equal(pt_out_open(&o, l, &e), 0);
	pt_out_puts(&o, "made");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	read_file(q, buf, sizeof(buf));
	assert_string_equal(buf, "made");
	/* a link loop is an error, not a hang */
	unlink(l);
	assert_int_equal(symlink("link", l), 0);
	assert_int_equal(pt_out_open(&o, l, &e), -1);
	pt_err_free(e);
	e = NULL;
	unlink(l);
	unlink(p);
	unlink(q);
	assert_int_equal(rmdir(dir), 0);
}

/* A name of one of our descriptors (/dev/fd/N, /proc/self/fd/N, a link to
 * one: /dev/stdout) is written in place, a regular file behind it included,
 * at its offset: nothing is created or renamed beside it. -o DIR/ helpers. */
static void test_out_fd_and_dir(void **state)
{
	(void)state;
	struct pt_err *e = NULL;
	char dir[] = "/tmp/pt-out-XXXXXX", p[256], l[256], fdp[64], buf[64];
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/captured", dir);
	put_file(p, "", 0644);
	int fd = open(p, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "pre,", 4), 4);
	snprintf(fdp, sizeof(fdp), "/dev/fd/%d", fd);
	assert_true(pt_out_is_stream(fdp));
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, fdp, &e), 0);
	pt_out_puts(&o, "a");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", fd);
	assert_int_equal(pt_out_open(&o, fdp, &e), 0);
	pt_out_puts(&o, "b");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	/* a link to such a name, as /dev/stdout is */
	snprintf(l, sizeof(l), "%s/out", dir);
	assert_int_equal(symlink(fdp, l), 0);
	assert_int_equal(pt_out_open(&o, l, &e), 0);
	pt_out_puts(&o, "c");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	/* still our descriptor: the file was appended to, never replaced */
	assert_int_equal(write(fd, ",post", 5), 5);
	read_file(p, buf, sizeof(buf));
	assert_string_equal(buf, "pre,abc,post");
	close(fd);
	/* a descriptor not open is an error, and creates nothing */
	assert_int_equal(pt_out_open(&o, fdp, &e), -1);
	pt_err_free(e);
	e = NULL;
	struct stat st;
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(l);
	unlink(p);

	/* directories for -o DIR/ */
	assert_true(pt_out_is_dir(dir));
	assert_true(pt_out_is_dir("no-such-dir/"));
	assert_false(pt_out_is_dir("no-such-file"));
	char *f = pt_out_dir_file("d/", "t", ".csv");
	assert_string_equal(f, "d/t.csv");
	free(f);
	f = pt_out_dir_file("d//", "t", ".csv");
	assert_string_equal(f, "d/t.csv");
	free(f);
	f = pt_out_dir_file("/", "t", ".csv");
	assert_string_equal(f, "/t.csv");
	free(f);
	snprintf(p, sizeof(p), "%s/sub/", dir);
	assert_int_equal(pt_out_make_dir(p, &e), 0);
	assert_int_equal(pt_out_make_dir(p, &e), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	rmdir(p);
	snprintf(p, sizeof(p), "%s/file", dir);
	put_file(p, "x", 0644);
	assert_int_equal(pt_out_make_dir(p, &e), -1);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "not a directory"));
	free(msg);
	pt_err_free(e);
	e = NULL;
	snprintf(p, sizeof(p), "%s/missing/deeper/", dir);
	assert_int_equal(pt_out_make_dir(p, &e), -1);
	pt_err_free(e);
	e = NULL;
	snprintf(p, sizeof(p), "%s/file", dir);
	unlink(p);
	assert_int_equal(rmdir(dir), 0);
}

/* Temporaries left by processes that no longer exist are removed when the
 * same output is written again; those of live processes are kept, and so is
 * anything that is not a regular file. */
static void test_out_stale(void **state)
{
	(void)state;
	struct pt_err *e = NULL;
	char dir[] = "/tmp/pt-out-XXXXXX", p[256], dead[300], live[300], odd[300], other[300];
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/x.txt", dir);
	pid_t child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	snprintf(dead, sizeof(dead), "%s.tmp.%ld", p, (long)child); /* reaped: its pid is free */
	snprintf(live, sizeof(live), "%s.tmp.%ld", p, (long)getppid());
	snprintf(odd, sizeof(odd), "%s.tmp.2147483600", p);
	snprintf(other, sizeof(other), "%s/y.txt.tmp.2147483601", dir);
	put_file(dead, "stale", 0644);
	put_file(live, "busy", 0644);
	assert_int_equal(mkdir(odd, 0755), 0);
	put_file(other, "another output", 0644);
	struct pt_out o;
	assert_int_equal(pt_out_open(&o, p, &e), 0);
	pt_out_puts(&o, "x");
	assert_int_equal(pt_out_commit(&o, &e), 0);
	assert_int_equal(access(dead, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	assert_int_equal(access(odd, F_OK), 0);
	assert_int_equal(access(other, F_OK), 0);
	unlink(p);
	unlink(live);
	unlink(other);
	rmdir(odd);
	assert_int_equal(rmdir(dir), 0);
}

/* A fatal signal while outputs are being written removes their temporaries,
 * and the process dies of that signal. The child tells the parent through a
 * pipe once its temporaries exist, then waits: no timing is involved. */
static void test_out_signals(void **state)
{
	(void)state;
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGQUIT };
	for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++) {
		char dir[] = "/tmp/pt-out-XXXXXX", a[256], b[256], ta[300], tb[300];
		assert_non_null(mkdtemp(dir));
		snprintf(a, sizeof(a), "%s/a.txt", dir);
		snprintf(b, sizeof(b), "%s/b.txt", dir);
		int ready[2];
		assert_int_equal(pipe(ready), 0);
		pid_t child = fork();
		assert_true(child >= 0);
		if (!child) {
			close(ready[0]);
			pt_out_cleanup_on_signals();
			struct pt_err *e = NULL;
			struct pt_out o1, o2, o3;
			/* one committed and one aborted before: their entries must not matter */
			if (pt_out_open(&o1, a, &e) || pt_out_commit(&o1, &e) || pt_out_open(&o1, b, &e))
				_exit(2);
			pt_out_abort(&o1);
			if (pt_out_open(&o2, a, &e) || pt_out_open(&o3, b, &e))
				_exit(2);
			pt_out_puts(&o2, "partial");
			pt_out_flush(&o2, &e);
			if (write(ready[1], "r", 1) != 1)
				_exit(2);
			for (;;)
				pause();
		}
		close(ready[1]);
		char c;
		assert_int_equal(read(ready[0], &c, 1), 1);
		close(ready[0]);
		snprintf(ta, sizeof(ta), "%s.tmp.%ld", a, (long)child);
		snprintf(tb, sizeof(tb), "%s.tmp.%ld", b, (long)child);
		assert_int_equal(access(ta, F_OK), 0);
		assert_int_equal(access(tb, F_OK), 0);
		assert_int_equal(kill(child, sigs[k]), 0);
		int st;
		assert_int_equal(waitpid(child, &st, 0), child);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), sigs[k]);
		assert_int_equal(access(ta, F_OK), -1);
		assert_int_equal(access(tb, F_OK), -1);
		assert_int_equal(access(b, F_OK), -1);
		assert_int_equal(unlink(a), 0); /* the one committed before */
		assert_int_equal(rmdir(dir), 0);
	}
}

/* pt_idmap behaves as pt_hashmap for every key, dense hint or not, in range or not, filtered or not. */
/*
 * Big blocks (pt_xbig_grow) across the mapping threshold, both ways of a
 * build (mapped, or malloc'd under AddressSanitizer): kept bytes survive
 * every growth, and a block grown without keep is all zeros.
 */
static void test_xbig(void **state)
{
	(void)state;
	/* below and above the mapping threshold and the 2 MiB of huge pages */
	size_t sizes[] = { 1000, 4096, PT_XBIG_MIN - 8, PT_XBIG_MIN, 3 * PT_XBIG_MIN + 5, (2u << 20) - 4096,
			   2u << 20, (5u << 20) + 3, 40u << 20 };
	uint8_t *p = NULL, *z = NULL;
	size_t old = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		size_t n = sizes[k];
		p = pt_xbig_grow(p, old, n, true);
		for (size_t i = 0; i < old; i++)
			if (p[i] != (uint8_t)(i * 7 + 3))
				fail_msg("byte %zu lost growing from %zu to %zu", i, old, n);
		for (size_t i = old; i < n; i++)
			p[i] = (uint8_t)(i * 7 + 3);
		z = pt_xbig_grow(z, old, n, false);
		for (size_t i = 0; i < n; i += 509)
			assert_int_equal(z[i], 0);
		assert_int_equal(z[n - 1], 0);
		memset(z, 0xa5, n); /* the next growth must not keep this */
		old = n;
	}
	pt_xbig_free(p, old);
	pt_xbig_free(z, old);
	pt_xbig_free(NULL, 0);
}

static void test_idmap(void **state)
{
	(void)state;
	for (int hint = 0; hint < 5; hint++) {
		struct pt_idmap m;
		struct pt_hashmap ref;
		pt_hashmap_init(&ref);
		/* 0: dense [100, 1100]; 1: too sparse for the array; 2: no ids expected; 3: hashed with a
		 * filter over [90, 1200], every key in it; 4: the same filter, keys outside it too (dropped) */
		if (hint == 0)
			pt_idmap_init(&m, 100, 1100, 1000);
		else if (hint == 1 || hint >= 3)
			pt_idmap_init(&m, 0, UINT64_MAX, 10);
		else
			pt_idmap_init(&m, UINT64_MAX, 0, 0);
		if (hint >= 3) {
			pt_idmap_filter(&m, 90, 1200, 1u << 20);
			assert_non_null(m.filter);
		}
		assert_int_equal(hint == 0, m.span != 0);
		uint64_t r = 99;
		for (int i = 0; i < 5000; i++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t key = i % 7 == 0 ? (r >> 1) : i % 11 == 0 ? 99 : 100 + (r >> 40) % 1001; /* out of range too */
			if (i % 13 == 0)
				key = 1100 + (uint64_t)(i % 3); /* the last id, and just past it */
			if (hint == 3 && (key < 90 || key > 1200))
				key = 90 + key % 1111;
			bool a1, a2;
			uint64_t *v1 = pt_idmap_put(&m, key, (uint64_t)i, &a1);
			uint64_t *v2 = pt_hashmap_put(&ref, key, (uint64_t)i, &a2);
			assert_int_equal(a1, a2);
			assert_int_equal(*v1, *v2);
			if (i % 5 == 0) /* overwrite through the pointer, as callers do */
				*v1 = *v2 = (uint64_t)i * 3;
			uint64_t probe = (r >> 3) % 2000;
			uint64_t *g1 = pt_idmap_get(&m, probe), *g2 = pt_hashmap_get(&ref, probe);
			assert_int_equal(g1 != NULL, g2 != NULL);
			if (g1)
				assert_int_equal(*g1, *g2);
		}
		assert_null(pt_idmap_get(&m, UINT64_MAX - 5));
		if (hint >= 3)
			assert_int_equal(m.filter != NULL, hint == 3);
		pt_idmap_free(&m);
		pt_hashmap_free(&ref);
	}
}

/* A packed set reads back as the plain set built by the same appends (joins, a negative start, wide gaps). */
static void test_ivpack(void **state)
{
	(void)state;
	struct pt_ivpack p = { 0 };
	struct pt_ivset x = { 0 };
	const int64_t big = (int64_t)1 << 62;
	const struct pt_ival in[] = { { -big, -big + 5 }, { -big + 3, -big + 9 }, { -7, -7 }, { -7, -2 }, { -2, 4 },
				      { 0, 3 },       { 10, 11 },           { 11, 12 }, { 20, 20 }, { 21, 1000 },
				      { 5000, 4000 }, { big - 10, big } };
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		pt_ivpack_append(&p, in[i].s, in[i].e);
		pt_ivset_append(&x, in[i].s, in[i].e);
	}
	pt_ivpack_close(&p);
	assert_int_equal(p.count, x.n);
	assert_int_equal(x.n, 5); /* [-2^62, -2^62+9) [-7, 4) [10, 12) [21, 1000) [2^62-10, 2^62) */
	struct pt_ivpack_cur c;
	struct pt_ival v;
	pt_ivpack_begin(&c);
	for (size_t i = 0; i < x.n; i++) {
		assert_true(pt_ivpack_next(&p, &c, &v));
		assert_int_equal(v.s, x.v[i].s);
		assert_int_equal(v.e, x.v[i].e);
	}
	assert_false(pt_ivpack_next(&p, &c, &v));
	pt_ivpack_free(&p);
	pt_ivset_free(&x);
	/* an empty set */
	pt_ivpack_close(&p);
	pt_ivpack_begin(&c);
	assert_false(pt_ivpack_next(&p, &c, &v));
	assert_int_equal(p.count, 0);
}

/* The lag profile's floor is never above a start still to come, and where the events come in order
 * it is exact at each block's end: random tracks of every shape (in order, bursts that come late,
 * jitter), sizes across the blocks' doubling. */
static void test_lagprof(void **state)
{
	(void)state;
	uint64_t seed = 42;
	for (int round = 0; round < 60; round++) {
		size_t n = round < 20 ? (size_t)round * 7 + 1 : (size_t)(round * round * 97) % 20000 + 1;
		int64_t *st = pt_xmalloc(n * sizeof(*st));
		int64_t t = 1000;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			unsigned r = (unsigned)(seed >> 33);
			t += r % 100;
			st[i] = t;
			if (round % 3 == 1 && r % 50 == 0)
				st[i] = t - (int64_t)(r % 5000); /* jitter */
			if (round % 3 == 2 && i % 997 == 500)
				st[i] = 0; /* an early event that comes late */
		}
		struct pt_lagprof p = { 0 };
		for (size_t i = 0; i < n; i++)
			pt_lagprof_add(&p, st[i]);
		pt_lagprof_finish(&p);
		assert_true(p.n <= PT_LAGPROF_CAP);
		assert_int_equal(p.count, n);
		int64_t top = INT64_MIN, rest = INT64_MAX;
		int64_t *sufmin = pt_xmalloc((n + 1) * sizeof(*sufmin));
		sufmin[n] = INT64_MAX;
		for (size_t i = n; i-- > 0;)
			sufmin[i] = (rest = st[i] < rest ? st[i] : rest);
		for (size_t j = 0; j <= n; j++) {
			int64_t f = pt_lagprof_floor(&p, j, top);
			assert_true(f <= sufmin[j]);
			if (round % 3 == 0 && j < n && j % p.k == 0)
				assert_true(f == sufmin[j]); /* in order: exact where a block begins */
			if (j < n && st[j] > top)
				top = st[j];
		}
		assert_true(pt_lagprof_floor(&p, n, top) == INT64_MAX);
		free(sufmin);
		free(st);
		pt_lagprof_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_chain), cmocka_unit_test(test_diag_counts),
		cmocka_unit_test(test_hashmap),   cmocka_unit_test(test_idmap), cmocka_unit_test(test_strtab),
		cmocka_unit_test(test_fmt),       cmocka_unit_test(test_parse),
		cmocka_unit_test(test_step_pattern), cmocka_unit_test(test_intervals), cmocka_unit_test(test_ivpack), cmocka_unit_test(test_out_errors),
		cmocka_unit_test(test_text_escape), cmocka_unit_test(test_text_shorten), cmocka_unit_test(test_text_wrap),
		cmocka_unit_test(test_out_link_mode), cmocka_unit_test(test_out_fd_and_dir), cmocka_unit_test(test_out_stale),
		cmocka_unit_test(test_out_signals),
		cmocka_unit_test(test_ival_sort_stable), cmocka_unit_test(test_xbig), cmocka_unit_test(test_lagprof),
		cmocka_unit_test(test_diag_once_nodata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
