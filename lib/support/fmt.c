#include "fmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
	1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/* Decimal digits of v: from the bit length (about log10(2^bits)), corrected by one table look-up. */
static inline unsigned ndigits_u64(uint64_t v)
{
	v |= 1;
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + 1 - (v < pow10_u64[t]);
}

/* Straight into out: the length first, then two digits at a time from the end (no temporary copy). */
size_t pt_fmt_u64(char *out, uint64_t v)
{
	unsigned n = ndigits_u64(v);
	char *q = out + n;
	while (v >= 100) {
		uint64_t d = v / 100;
		q -= 2;
		memcpy(q, digits2 + 2 * (v - d * 100), 2);
		v = d;
	}
	if (v >= 10)
		memcpy(q - 2, digits2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return n;
}

size_t pt_fmt_i64(char *out, int64_t v)
{
	if (v < 0) {
		out[0] = '-';
		return 1 + pt_fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
	}
	return pt_fmt_u64(out, (uint64_t)v);
}

size_t pt_fmt_scaled(char *out, int64_t v, int64_t div, int decimals)
{
	uint64_t p10 = 1;
	for (int i = 0; i < decimals; i++)
		p10 *= 10;
	bool neg = v < 0;
	unsigned __int128 a = neg ? (unsigned __int128)(0 - (uint64_t)v) : (unsigned __int128)(uint64_t)v;
	/* a * p10 / div rounded half up on the magnitude */
	unsigned __int128 num = a * p10, d = (unsigned __int128)(uint64_t)div;
	unsigned __int128 q = num / d, r = num % d;
	if (r * 2 >= d)
		q++;
	uint64_t ip = (uint64_t)(q / p10), fp = (uint64_t)(q % p10);
	size_t n = 0;
	if (neg && q)
		out[n++] = '-';
	n += pt_fmt_u64(out + n, ip);
	if (decimals > 0) {
		out[n++] = '.';
		char tmp[24];
		size_t k = pt_fmt_u64(tmp, fp);
		for (size_t i = k; i < (size_t)decimals; i++)
			out[n++] = '0';
		memcpy(out + n, tmp, k);
		n += k;
	}
	return n;
}

size_t pt_fmt_milli(char *out, uint64_t v)
{
	uint64_t q = v / 1000;
	unsigned f = (unsigned)(v - q * 1000);
	size_t n = pt_fmt_u64(out, q);
	out[n] = '.';
	out[n + 1] = (char)('0' + f / 100);
	memcpy(out + n + 2, digits2 + 2 * (f % 100), 2);
	return n + 4;
}

static uint64_t bits_of(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u;
}

/*
 * C = M * 2^E exactly, so q = round(C * 10^n) = round(M * 10^n / 2^-E) with
 * n = 16 - floor(log10 C) in 128-bit integers, the decimal exponent taken
 * from the binary one and corrected by one step.
 */
size_t pt_fmt_dbl17(char *out, double C)
{
	uint64_t b = bits_of(C);
	int ex = (int)((b >> 52) & 0x7ff);
	uint64_t M = (b & ((1ull << 52) - 1)) | (ex ? 1ull << 52 : 0);
	int E = (ex ? ex : 1) - 1075; /* C = M * 2^E */
	int k = ((E + 52) * 1233) >> 12; /* about floor(log10 C), maybe one less */
	uint64_t q = 0;
	int n = 0;
	for (int tries = 0; tries < 3; tries++) {
		n = 16 - k;
		if (n < 3 || n > 22 || E >= 0 || E <= -128)
			break;
		unsigned __int128 prod = (unsigned __int128)M * pow10_u64[n > 19 ? 19 : n]; /* < 2^127 */
		for (int x = 19; x < n; x++)
			prod *= 10;
		int sh = -E;
		unsigned __int128 r = (prod + ((unsigned __int128)1 << (sh - 1))) >> sh;
		if (r >= pow10_u64[17]) {
			k++;
			continue;
		}
		if (r < pow10_u64[16]) {
			k--;
			continue;
		}
		q = (uint64_t)r;
		break;
	}
	if (!q) { /* out of the range above: the fewest digits from 3 decimals on that read back */
		char t[80];
		for (int dec = 3; dec < 40; dec++) {
			int m = snprintf(t, sizeof(t), "%.*f", dec, C);
			if (m > 0 && m < (int)sizeof(t) && strtod(t, NULL) == C) {
				memcpy(out, t, (size_t)m);
				return (size_t)m;
			}
		}
		return 0;
	}
	while (n > 3 && q % 10 == 0) {
		q /= 10;
		n--;
	}
	char d[24];
	unsigned nd = (unsigned)pt_fmt_u64(d, q);
	char *p = out;
	if ((unsigned)n >= nd) {
		memcpy(p, "0.", 2);
		p += 2;
		for (unsigned z = nd; z < (unsigned)n; z++)
			*p++ = '0';
		memcpy(p, d, nd);
		return (size_t)(p + nd - out);
	}
	memcpy(p, d, nd - (unsigned)n);
	p += nd - (unsigned)n;
	*p++ = '.';
	memcpy(p, d + nd - (unsigned)n, (unsigned)n);
	return (size_t)(p + n - out);
}
