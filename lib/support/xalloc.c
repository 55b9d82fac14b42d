#define _GNU_SOURCE /* mremap */
#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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

void pt_xtrim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

void pt_xmap_big(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
#endif
}

void *pt_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

#if defined(__SANITIZE_ADDRESS__)
#define XBIG_MAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XBIG_MAP 0
#endif
#endif
#ifndef XBIG_MAP
#define XBIG_MAP 1
#endif

static bool mapped(size_t n)
{
	return XBIG_MAP && n >= PT_XBIG_MIN;
}

static size_t pages(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (n + pg - 1) / pg * pg;
}

#define THP_SIZE (2u << 20) /* a transparent huge page */

/*
 * A fresh zero mapping of n bytes. One of 2 MiB or more starts on a 2 MiB
 * boundary and asks for transparent huge pages (where the system grants
 * them to madvise'd memory): the kernel then faults a column in 2 MiB at a
 * time, which takes a model load about a fifth less time. At most the last,
 * partly used huge page of a block is memory not otherwise touched.
 */
static void *map(size_t n)
{
	size_t len = pages(n), extra = len >= THP_SIZE ? THP_SIZE : 0;
	char *q = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		oom(n);
	if (extra) {
		size_t head = (THP_SIZE - (uintptr_t)q % THP_SIZE) % THP_SIZE;
		if (head)
			munmap(q, head);
		if (extra - head)
			munmap(q + head + len, extra - head);
		q += head;
#ifdef MADV_HUGEPAGE
		madvise(q, len, MADV_HUGEPAGE); /* advice: refused, nothing changes */
#endif
	}
	return q;
}

void *pt_xbig_grow(void *p, size_t old, size_t n, bool keep)
{
	if (!mapped(n)) {
		if (keep)
			return pt_xrealloc(p, n);
		free(p);
		return pt_xcalloc(n, 1);
	}
	if (!mapped(old)) {
		void *q = map(n);
		if (keep && old)
			memcpy(q, p, old);
		free(p);
		return q;
	}
	if (!keep) {
		munmap(p, pages(old));
		return map(n);
	}
	if (pages(n) < THP_SIZE) {
		void *q = mremap(p, pages(old), pages(n), MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			oom(n);
		return q;
	}
	/* the pages move into a fresh aligned mapping (map) and its advice */
	void *q = map(n);
	if (mremap(p, pages(old), pages(n), MREMAP_MAYMOVE | MREMAP_FIXED, q) == MAP_FAILED)
		oom(n);
#ifdef MADV_HUGEPAGE
	madvise(q, pages(n), MADV_HUGEPAGE); /* the moved mapping keeps the old one's advice */
#endif
	return q;
}

void pt_xbig_free(void *p, size_t n)
{
	if (p && mapped(n))
		munmap(p, pages(n));
	else
		free(p);
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

char *pt_xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom(0);
	char *s = pt_xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *pt_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
