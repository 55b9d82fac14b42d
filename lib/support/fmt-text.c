/* Display widths, middle-shortening and wrapping of text for people (fmt-text.h). */
#include "support/fmt-text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/out.h"
#include "support/xalloc.h"

static bool hexd(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Bytes of the unit at s[i]: an escape "\xHH" (4 columns), or one code point (1 column). */
static size_t unit(const char *s, size_t i, size_t n, size_t *w)
{
	if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && hexd(s[i + 2]) && hexd(s[i + 3])) {
		*w = 4;
		return 4;
	}
	size_t k = 1;
	while (i + k < n && ((unsigned char)s[i + k] & 0xc0) == 0x80)
		k++;
	*w = 1;
	return k;
}

size_t pt_text_width(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The units of s: byte offset at[j] of unit j (at[k] = n) and the columns before it, cw[j]. */
struct units {
	size_t *at, *cw, k;
};

static void units_of(struct units *u, const char *s, size_t n)
{
	u->at = pt_xmalloc((n + 1) * sizeof(*u->at));
	u->cw = pt_xmalloc((n + 1) * sizeof(*u->cw));
	u->k = 0;
	size_t w = 0;
	for (size_t i = 0; i < n;) {
		size_t uw, b = unit(s, i, n, &uw);
		u->at[u->k] = i;
		u->cw[u->k++] = w;
		w += uw;
		i += b;
	}
	u->at[u->k] = n;
	u->cw[u->k] = w;
}

char *pt_text_shorten(const char *s, size_t n, size_t max, size_t *len)
{
	if (pt_text_width(s, n) <= max)
		return NULL;
	struct units u;
	units_of(&u, s, n);
	size_t k = u.k, W = u.cw[k];
	if (W <= max) { /* escapes are wider than their code points; here they fit */
		free(u.at);
		free(u.cw);
		return NULL;
	}
	size_t budget = max ? max - 1 : 0; /* one column for the mark */
	size_t h = 0, t = k;               /* keep units [0, h) and [t, k) */
	size_t fs = k, ls = k;             /* first and last '/' */
	for (size_t j = 0; j < k; j++)
		if (s[u.at[j]] == '/') {
			if (fs == k)
				fs = j;
			ls = j;
		}
	bool done = false;
	if (ls < k && ls + 1 < k && W - u.cw[ls] + 1 <= budget) {
		size_t tailw = W - u.cw[ls];
		t = ls;
		if (fs < ls && u.cw[fs + 1] + tailw <= budget) {
			/* whole components: grow the tail and the head in turn while they fit */
			h = fs + 1;
			for (bool more = true; more;) {
				more = false;
				size_t p = t;
				while (p > h && s[u.at[p - 1]] != '/')
					p--;
				if (p > h && u.cw[h] + (W - u.cw[p - 1]) <= budget) {
					t = p - 1;
					more = true;
				}
				size_t q = h;
				while (q < t && s[u.at[q]] != '/')
					q++;
				if (q < t && u.cw[q + 1] + (W - u.cw[t]) <= budget) {
					h = q + 1;
					more = true;
				}
			}
		} else {
			while (h < t && u.cw[h + 1] + tailw <= budget)
				h++;
		}
		done = true;
	}
	if (!done) { /* by code points: the start gets the odd column */
		size_t tw = budget / 2, hw = budget - tw;
		while (h < k && u.cw[h + 1] <= hw)
			h++;
		while (t > h && W - u.cw[t - 1] <= tw)
			t--;
	}
	size_t hb = u.at[h], tb = u.at[t];
	size_t m = hb + strlen(PT_TEXT_ELLIPSIS) + (n - tb);
	char *d = pt_xmalloc(m + 1);
	memcpy(d, s, hb);
	memcpy(d + hb, PT_TEXT_ELLIPSIS, strlen(PT_TEXT_ELLIPSIS));
	memcpy(d + hb + strlen(PT_TEXT_ELLIPSIS), s + tb, n - tb);
	d[m] = 0;
	if (len)
		*len = m;
	free(u.at);
	free(u.cw);
	return d;
}

struct sbuf {
	char *p;
	size_t n, cap;
};

static void put(struct sbuf *b, const char *s, size_t n)
{
	pt_xgrow((void **)&b->p, &b->cap, b->n + n + 1, 1);
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void newline(struct sbuf *b, size_t indent)
{
	put(b, "\n", 1);
	for (size_t i = 0; i < indent; i++)
		put(b, " ", 1);
}

char *pt_text_wrap(const char *raw, size_t rn, size_t width, size_t col, size_t indent)
{
	size_t n;
	char *s = pt_text_escape(raw, rn, &n);
	struct sbuf b = { 0 };
	put(&b, "", 0);
	size_t c = col;   /* columns on the current line */
	bool any = false; /* a word on the current line */
	for (size_t i = 0; i < n;) {
		size_t gap = 0; /* the spaces before the word, kept between words on a line */
		while (i < n && s[i] == ' ') {
			i++;
			gap++;
		}
		if (i == n)
			break;
		size_t e = i;
		while (e < n && s[e] != ' ')
			e++;
		size_t ww = pt_text_width(s + i, e - i);
		if (any && c + gap + ww <= width) {
			for (size_t k = 0; k < gap; k++)
				put(&b, " ", 1);
			put(&b, s + i, e - i);
			c += gap + ww;
			i = e;
			continue;
		}
		if (any) {
			newline(&b, indent);
			c = indent;
			any = false;
		}
		/* the word starts a line: whole if it fits, else as much as fits (one unit at least) */
		while (i < e) {
			size_t j = i, w = 0;
			while (j < e) {
				size_t uw, k = unit(s, j, e, &uw);
				if (j > i && c + w + uw > width)
					break;
				w += uw;
				j += k;
			}
			put(&b, s + i, j - i);
			c += w;
			i = j;
			if (i < e) {
				newline(&b, indent);
				c = indent;
			}
		}
		any = true;
	}
	free(s);
	return b.p;
}

size_t pt_text_line_width(int fd)
{
	if (!isatty(fd))
		return 100;
	const char *e = getenv("COLUMNS");
	if (!e || !*e)
		return 100;
	char *end;
	long v = strtol(e, &end, 10);
	if (*end || v < 20 || v > 1000)
		return 100;
	return (size_t)v;
}
