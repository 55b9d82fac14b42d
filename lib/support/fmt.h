/* Locale-independent integer formatting; exactly what printf("%lld"/"%llu") writes. */
#ifndef PT_FMT_H
#define PT_FMT_H
#include <stddef.h>
#include <stdint.h>

#include <string.h>

extern const char pt_fmt_digits2[201];     /* "00" "01" .. "99" */
extern const uint64_t pt_fmt_pow10[20];    /* 10^0 .. 10^19 */

/* Decimal digits of v: from the bit length (about log10(2^bits)), corrected by one table look-up. */
static inline unsigned pt_fmt_ndigits(uint64_t v)
{
	v |= 1;
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + 1 - (v < pt_fmt_pow10[t]);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * v < 10^8 as eight digit values (0..9, not yet ASCII), leading zeros
 * included, the first digit in the lowest byte: the halves, the pairs and the
 * digits split in parallel lanes of one 64-bit integer, each division a
 * multiplication by a reciprocal that is exact over its lane's range (x < 10^4:
 * x * 10486 >> 20 = x / 100; y < 100: y * 103 >> 10 = y / 10).
 */
static inline uint64_t pt_fmt_bcd8(uint32_t v)
{
	uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t q = ((x * 10486) >> 20) & 0x0000007f0000007full;
	uint64_t y = q | (x - q * 100) << 16;
	uint64_t t = ((y * 103) >> 10) & 0x000f000f000f000full;
	return t | (y - t * 10) << 8;
}

/* v < 10^8 in its digits; writes 8 bytes at out */
static inline size_t pt_fmt_u64_lt8(char *out, uint32_t v)
{
	uint64_t d = pt_fmt_bcd8(v);
	unsigned lz = d ? (unsigned)__builtin_ctzll(d) >> 3 : 7; /* leading zero digits */
	d = (d + 0x3030303030303030ull) >> (8 * lz);
	memcpy(out, &d, 8);
	return 8 - lz;
}

/* v < 10^8 as exactly eight digits */
static inline void pt_fmt_put8(char *out, uint32_t v)
{
	uint64_t d = pt_fmt_bcd8(v) + 0x3030303030303030ull;
	memcpy(out, &d, 8);
}

/*
 * Write the decimal form of v to out (at least 21 bytes); returns its length. No NUL.
 * Eight digits at a time (pt_fmt_bcd8), the first part without its leading zeros;
 * the bytes after the length (within the 21) may be overwritten.
 */
static inline size_t pt_fmt_u64(char *out, uint64_t v)
{
	if (v < 100) { /* one or two digits (steps, ids): a table look-up */
		memcpy(out, pt_fmt_digits2 + 2 * v + (v < 10), 2);
		return 1 + (v >= 10);
	}
	if (v < 100000000u)
		return pt_fmt_u64_lt8(out, (uint32_t)v);
	uint64_t hi = v / 100000000u;
	uint32_t lo = (uint32_t)(v - hi * 100000000u);
	size_t n;
	if (hi < 100000000u) {
		n = pt_fmt_u64_lt8(out, (uint32_t)hi);
	} else {
		uint64_t top = hi / 100000000u; /* < 1845 */
		n = pt_fmt_u64_lt8(out, (uint32_t)top);
		pt_fmt_put8(out + n, (uint32_t)(hi - top * 100000000u));
		n += 8;
	}
	pt_fmt_put8(out + n, lo);
	return n + 8;
}
#else
/* v < 10^8 as exactly eight digits */
static inline void pt_fmt_put8(char *out, uint32_t v)
{
	for (int i = 7; i >= 0; i--) {
		out[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

/*
 * Write the decimal form of v to out (at least 21 bytes); returns its length. No NUL.
 * Straight into out: the length first, then two digits at a time from the end.
 */
static inline size_t pt_fmt_u64(char *out, uint64_t v)
{
	unsigned n = pt_fmt_ndigits(v);
	char *q = out + n;
	while (v >= 100) {
		uint64_t d = v / 100;
		q -= 2;
		memcpy(q, pt_fmt_digits2 + 2 * (v - d * 100), 2);
		v = d;
	}
	if (v >= 10)
		memcpy(q - 2, pt_fmt_digits2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return n;
}
#endif

static inline size_t pt_fmt_i64(char *out, int64_t v)
{
	if (v < 0) {
		out[0] = '-';
		return 1 + pt_fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
	}
	return pt_fmt_u64(out, (uint64_t)v);
}

/* v / 1000 with exactly three decimals ("1234.567"), from integers (at least 25 bytes). */
static inline size_t pt_fmt_milli(char *out, uint64_t v)
{
	uint64_t q = v / 1000;
	unsigned f = (unsigned)(v - q * 1000);
	size_t n = pt_fmt_u64(out, q);
	out[n] = '.';
	out[n + 1] = (char)('0' + f / 100);
	memcpy(out + n + 2, pt_fmt_digits2 + 2 * (f % 100), 2);
	return n + 4;
}

/*
 * A positive double (1e-6 <= C < 1e13 exactly; others through printf) as a
 * plain decimal with 17 significant digits, which always read back as C,
 * trailing zeros dropped down to 3 decimals (at least 80 bytes).
 */
size_t pt_fmt_dbl17(char *out, double C);

#endif

#ifndef PT_FMT_SCALED
#define PT_FMT_SCALED
/*
 * v / div printed with `decimals` fraction digits, rounded half away from
 * zero, computed in integers (div a power of ten, decimals <= 9). Exact when
 * 10^decimals >= div. Returns the length written to out (at least 32 bytes).
 */
size_t pt_fmt_scaled(char *out, int64_t v, int64_t div, int decimals);
#endif
