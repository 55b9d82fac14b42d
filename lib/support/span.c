#include "support/span.h"

#include "support/parse.h"

struct pt_span pt_span_trim(struct pt_span s)
{
	while (s.n && pt_is_space(*s.p)) {
		s.p++;
		s.n--;
	}
	while (s.n && pt_is_space(s.p[s.n - 1]))
		s.n--;
	return s;
}

bool pt_span_contains(struct pt_span s, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= s.n; i++)
		if (!memcmp(s.p + i, needle, k))
			return true;
	return false;
}

size_t pt_span_split(struct pt_span s, char sep, struct pt_span *f, size_t max)
{
	size_t nf = 0;
	const char *p = s.p, *end = s.p + s.n;
	for (;;) {
		const char *q = memchr(p, sep, (size_t)(end - p));
		const char *fe = q ? q : end;
		if (nf < max)
			f[nf] = (struct pt_span){ p, (size_t)(fe - p) };
		nf++;
		if (!q)
			break;
		p = q + 1;
	}
	return nf;
}

struct pt_span pt_span_after_last(struct pt_span s, char ch)
{
	for (size_t i = s.n; i-- > 0;)
		if (s.p[i] == ch)
			return (struct pt_span){ s.p + i + 1, s.n - i - 1 };
	return s;
}

struct pt_span pt_span_token(struct pt_span *s)
{
	*s = pt_span_trim(*s);
	size_t i = 0;
	while (i < s->n && !pt_is_space(s->p[i]))
		i++;
	struct pt_span t = { s->p, i };
	s->p += i;
	s->n -= i;
	return t;
}

bool pt_span_u64(struct pt_span s, uint64_t *v)
{
	return pt_parse_u64(s.p, s.n, v);
}

bool pt_span_us_ns(struct pt_span s, int64_t *ns)
{
	uint64_t v = 0;
	int frac = -1;
	bool digits = false;
	for (size_t i = 0; i < s.n; i++) {
		char ch = s.p[i];
		if (ch >= '0' && ch <= '9') {
			if (frac >= 3) {
				if (ch != '0')
					return false;
				continue;
			}
			if (v > (UINT64_MAX / 2 - 9) / 10)
				return false;
			v = v * 10 + (uint64_t)(ch - '0');
			digits = true;
			if (frac >= 0)
				frac++;
		} else if (ch == '.' && frac < 0) {
			frac = 0;
		} else {
			return false;
		}
	}
	if (!digits)
		return false;
	for (int i = frac < 0 ? 0 : frac; i < 3; i++) {
		if (v > (uint64_t)INT64_MAX / 10)
			return false;
		v *= 10;
	}
	*ns = (int64_t)v;
	return true;
}
