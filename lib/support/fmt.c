#include "fmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char pt_fmt_digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

const uint64_t pt_fmt_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
	1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};
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
/* 10^-6 .. 10^13 as doubles, for a first guess of floor(log10 C) (checked exactly below) */
static const double p10d[20] = { 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
				 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13 };

size_t pt_fmt_dbl17(char *out, double C)
{
	uint64_t b = bits_of(C);
	int ex = (int)((b >> 52) & 0x7ff);
	uint64_t M = (b & ((1ull << 52) - 1)) | (ex ? 1ull << 52 : 0);
	int E = (ex ? ex : 1) - 1075; /* C = M * 2^E */
	int k = ((E + 52) * 1233) >> 12; /* about floor(log10 C), maybe one less */
	if (k >= -6 && k < 13 && C >= p10d[k + 7])
		k++;
	uint64_t q = 0;
	int n = 0;
	for (int tries = 0; tries < 3; tries++) {
		n = 16 - k;
		if (n < 3 || n > 22 || E >= 0 || E <= -128)
			break;
		unsigned __int128 prod = (unsigned __int128)M * pt_fmt_pow10[n > 19 ? 19 : n]; /* < 2^127 */
		for (int x = 19; x < n; x++)
			prod *= 10;
		int sh = -E;
		unsigned __int128 r = (prod + ((unsigned __int128)1 << (sh - 1))) >> sh;
		if (r >= pt_fmt_pow10[17]) {
			k++;
			continue;
		}
		if (r < pt_fmt_pow10[16]) {
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
	int nd = 17; /* digits of q */
	while (n > 3 && q % 10 == 0) {
		q /= 10;
		n--;
		nd--;
	}
	/* q as 17 digits with leading zeros (three independent parts), its own nd digits at t */
	char tmp[48];
	uint64_t hi = q / 100000000u;
	pt_fmt_put8(tmp + 9, (uint32_t)(q - hi * 100000000u));
	uint64_t top = hi / 100000000u;
	pt_fmt_put8(tmp + 1, (uint32_t)(hi - top * 100000000u));
	tmp[0] = (char)('0' + top);
	memset(tmp + 17, '0', sizeof(tmp) - 17); /* read past the digits by the fixed-size copies below */
	const char *t = tmp + 17 - nd;
	int ni = nd > n ? nd - n : 0; /* digits before the '.' */
	char *e;
	if (ni) { /* d..d.d..d: two fixed-size copies, the second shifted past the '.' */
		memcpy(out, t, 16);
		memcpy(out + ni + 1, t + ni, 16);
		out[ni] = '.';
		e = out + nd + 1;
	} else { /* 0.0..0d..d */
		memcpy(out, "0.", 2);
		char *p = out + 2;
		for (int z = nd; z < n; z++)
			*p++ = '0';
		memcpy(p, t, 17);
		e = p + nd;
	}
	return (size_t)(e - out);
}
