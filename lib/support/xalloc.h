/* Allocation that never returns NULL: out of memory is the one place the library exits. */
#ifndef PT_XALLOC_H
#define PT_XALLOC_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

void *pt_xmalloc(size_t n);
void *pt_xcalloc(size_t n, size_t size);
void *pt_xrealloc(void *p, size_t n);
/* Grow *p (of *cap elements of size elem) so that it holds at least need elements. */
void pt_xgrow(void **p, size_t *cap, size_t need, size_t elem);
/*
 * Large growable blocks (the model's event columns). A block of at least
 * PT_XBIG_MIN bytes lives in an anonymous mapping of its own: growing it
 * moves its pages (mremap) instead of copying them, a block that need not
 * keep its contents is a fresh zero mapping (no page touched until written),
 * and freeing it returns its pages at once. Through malloc, the old blocks of
 * copied growth stay resident once glibc's mmap threshold has risen, and a
 * calloc'd block may be cleared page by page. A mapping of 2 MiB or more
 * starts on a 2 MiB boundary and asks for transparent huge pages. Smaller blocks, and every
 * block under AddressSanitizer (so that it still sees overruns), are malloc'd.
 * pt_xbig_grow: p is the block of old bytes (NULL, 0 for none); returns one of
 * n >= old bytes holding p's bytes (keep) or only zeros (!keep).
 */
#define PT_XBIG_MIN (256u << 10)
void *pt_xbig_grow(void *p, size_t old, size_t n, bool keep);
void pt_xbig_free(void *p, size_t n);
/*
 * The heap's free pages back to the system (glibc's malloc_trim; elsewhere
 * nothing): for a pass that has just freed what one read held (blocks grown
 * through malloc stay resident in the heap once freed) before the next reads
 * allocate theirs, which would otherwise come on top of them.
 */
void pt_xtrim(void);
/*
 * From here on, every block of 128 KiB or more is a mapping of its own, given back when freed (glibc's
 * mallopt M_MMAP_THRESHOLD, its default made fixed; elsewhere nothing): for a pass that frees a large
 * block (a read's buffers, a table it has taken in) and then grows many arrays. Otherwise glibc raises
 * the threshold to the size of each mapping freed (up to 32 MiB), and the arrays that grow after it do
 * so in the heap, whose freed pieces stay resident between them.
 */
void pt_xmap_big(void);
char *pt_xstrdup(const char *s);
char *pt_xstrndup(const char *s, size_t n);
char *pt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list (ap is left as vsnprintf leaves it). */
char *pt_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
