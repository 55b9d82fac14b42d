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
