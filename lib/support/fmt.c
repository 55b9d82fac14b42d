#include "fmt.h"

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
