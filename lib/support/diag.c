#include "diag.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void pt_diag_warn_n(struct pt_diag *d, const char *file, const char *what, enum pt_pos kind,
		    uint64_t first, uint64_t count)
{
	if (!d || !count)
		return;
	for (size_t i = d->n; i-- > 0;) {
		struct pt_diag_entry *e = &d->v[i];
		if (!e->note && same(e->file, file) && !strcmp(e->what, what) && e->pos == kind) {
			if (first < e->first)
				e->first = first;
			e->count += count;
			return;
		}
	}
	pt_xgrow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v));
	struct pt_diag_entry *e = &d->v[d->n++];
	e->file = file ? pt_xstrdup(file) : NULL;
	e->what = pt_xstrdup(what);
	e->pos = kind;
	e->first = first;
	e->count = count;
	e->note = 0;
}

void pt_diag_warn(struct pt_diag *d, const char *file, const char *what, enum pt_pos kind, uint64_t pos)
{
	pt_diag_warn_n(d, file, what, kind, pos, 1);
}

void pt_diag_note(struct pt_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	pt_diag_warn(d, NULL, s, PT_POS_NONE, 0);
	free(s);
}

static void once(struct pt_diag *d, int note, const char *fmt, va_list ap)
{
	char *s = pt_xvasprintf(fmt, ap);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].note == note && !d->v[i].file && d->v[i].pos == PT_POS_NONE && !strcmp(d->v[i].what, s)) {
			free(s);
			return;
		}
	pt_diag_warn(d, NULL, s, PT_POS_NONE, 0);
	d->v[d->n - 1].note = note;
	free(s);
}

void pt_diag_info(struct pt_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	va_list ap;
	va_start(ap, fmt);
	once(d, 1, fmt, ap);
	va_end(ap);
}

void pt_diag_once(struct pt_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	va_list ap;
	va_start(ap, fmt);
	once(d, 2, fmt, ap);
	va_end(ap);
}

void pt_diag_print(const struct pt_diag *d, FILE *f)
{
	for (size_t i = 0; d && i < d->n; i++) {
		const struct pt_diag_entry *e = &d->v[i];
		fputs(e->note == 1 ? "proftool: note: " : "proftool: warning: ", f);
		if (e->file)
			fprintf(f, "'%s': ", e->file);
		if (e->pos == PT_POS_NONE) {
			fputs(e->what, f);
			if (e->count > 1)
				fprintf(f, " (%" PRIu64 " times)", e->count);
		} else {
			/* "skipped all-zero records" -> "skipped 3 all-zero records" */
			const char *sp = strchr(e->what, ' ');
			if (sp)
				fprintf(f, "%.*s %" PRIu64 "%s", (int)(sp - e->what), e->what, e->count, sp);
			else
				fprintf(f, "%s %" PRIu64, e->what, e->count);
			fprintf(f, " (%s %s %" PRIu64 ")", e->count > 1 ? "first at" : "at",
				e->pos == PT_POS_LINE ? "line" : "offset", e->first);
		}
		fputc('\n', f);
	}
}

uint64_t pt_diag_total(const struct pt_diag *d)
{
	uint64_t t = 0;
	for (size_t i = 0; d && i < d->n; i++)
		t += d->v[i].count;
	return t;
}

void pt_diag_append(struct pt_diag *d, struct pt_diag *from)
{
	for (size_t i = 0; i < from->n; i++) {
		struct pt_diag_entry *e = &from->v[i];
		if (!e->note) {
			pt_diag_warn_n(d, e->file, e->what, e->pos, e->first, e->count);
			continue;
		}
		pt_xgrow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v));
		d->v[d->n++] = *e;
		e->file = e->what = NULL;
	}
	pt_diag_free(from);
}

void pt_diag_free(struct pt_diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].what);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}
