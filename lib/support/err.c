#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static int push(struct pt_err **e, char *msg)
{
	struct pt_err *n = pt_xmalloc(sizeof(*n));
	n->msg = msg;
	n->cause = e ? *e : NULL;
	n->nodata = 0;
	if (e)
		*e = n;
	else
		pt_err_free(n);
	return -1;
}

int pt_err(struct pt_err **e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	return push(e, s);
}

int pt_err_errno(struct pt_err **e, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	char *t = pt_xasprintf("%s: %s", s, strerror(errnum));
	free(s);
	return push(e, t);
}

int pt_err_nodata(struct pt_err **e, const char *kind, long long device, const char *what)
{
	char *s = device >= 0 ? pt_xasprintf("has no %s data of device %lld (import %s to get it)", kind, device, what)
			      : pt_xasprintf("has no %s data (import %s to get it)", kind, what);
	push(e, s);
	if (e && *e)
		(*e)->nodata = 1;
	return -1;
}

int pt_err_is_nodata(const struct pt_err *e)
{
	return e && e->nodata;
}

char *pt_err_str(const struct pt_err *e)
{
	size_t len = 1;
	for (const struct pt_err *p = e; p; p = p->cause)
		len += strlen(p->msg) + 2;
	char *s = pt_xmalloc(len), *w = s;
	for (const struct pt_err *p = e; p; p = p->cause) {
		size_t l = strlen(p->msg);
		memcpy(w, p->msg, l);
		w += l;
		if (p->cause) {
			memcpy(w, ": ", 2);
			w += 2;
		}
	}
	*w = 0;
	return s;
}

void pt_err_free(struct pt_err *e)
{
	while (e) {
		struct pt_err *c = e->cause;
		free(e->msg);
		free(e);
		e = c;
	}
}
