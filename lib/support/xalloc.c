#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr, "proftool: fatal: out of memory (allocating %zu bytes)\n", n);
	exit(1);
}

void *pt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *pt_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *pt_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

void pt_xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c += c / 2 + 16;
	if (c > (size_t)-1 / elem)
		oom((size_t)-1);
	*p = pt_xrealloc(*p, c * elem);
	*cap = c;
}

char *pt_xstrdup(const char *s)
{
	return pt_xstrndup(s, strlen(s));
}

char *pt_xstrndup(const char *s, size_t n)
{
	char *d = pt_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *pt_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	char *s = pt_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
