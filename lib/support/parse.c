#include "support/parse.h"

bool pt_parse_u64(const char *s, size_t n, uint64_t *v)
{
	if (!n)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

bool pt_parse_i64(const char *s, size_t n, int64_t *v)
{
	bool neg = n && s[0] == '-';
	size_t k = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
	uint64_t u;
	if (!pt_parse_u64(s + k, n - k, &u))
		return false;
	if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
		return false;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return true;
}

bool pt_parse_mhz_khz(const char *s, size_t n, uint64_t *khz)
{
	size_t dot = n;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.') {
			dot = i;
			break;
		}
	uint64_t ip, fp = 0;
	if (!pt_parse_u64(s, dot, &ip) || ip > UINT64_MAX / 1000 / 2)
		return false;
	size_t nf = dot < n ? n - dot - 1 : 0;
	if (dot < n && (nf == 0 || nf > 3 || !pt_parse_u64(s + dot + 1, nf, &fp)))
		return false;
	for (size_t i = nf; i < 3; i++)
		fp *= 10;
	*khz = ip * 1000 + fp;
	return *khz > 0;
}
