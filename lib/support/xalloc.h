/* Allocation that never returns NULL: out of memory is the one place the library exits. */
#ifndef PT_XALLOC_H
#define PT_XALLOC_H
#include <stddef.h>

void *pt_xmalloc(size_t n);
void *pt_xcalloc(size_t n, size_t size);
void *pt_xrealloc(void *p, size_t n);
/* Grow *p (of *cap elements of size elem) so that it holds at least need elements. */
void pt_xgrow(void **p, size_t *cap, size_t need, size_t elem);
char *pt_xstrdup(const char *s);
char *pt_xstrndup(const char *s, size_t n);
char *pt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
