#include "fmt.h"

#include <stdbool.h>
#include <string.h>

static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

size_t pt_fmt_u64(char *out, uint64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	size_t n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out, p, n);
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
