/*
 * Text for people (proftool(1) OUTPUT, "Text"): display widths, long names
 * shortened in the middle, prose wrapped with a hanging indent, and the width
 * prose wraps at. Every text printer (lib/export) goes through these, so that
 * tables, hints and notes look alike.
 *
 * Widths count code points of UTF-8 text (a continuation byte adds nothing);
 * text handed to these functions has its control bytes escaped already
 * ("\xHH", pt_text_escape), and such an escape is never split.
 */
#ifndef PT_FMT_TEXT_H
#define PT_FMT_TEXT_H
#include <stddef.h>

/* The mark put where a shortened name lost its middle: U+2026, one column. */
#define PT_TEXT_ELLIPSIS "\xe2\x80\xa6"

/* Columns of the n bytes at s. */
size_t pt_text_width(const char *s, size_t n);

/*
 * s (n bytes, escaped) shortened to at most max columns (max >= 1): the start
 * and the distinguishing tail are kept, the middle becomes one "…". Cuts are
 * at '/' boundaries where the components fit ("a/b/…/y/op"), and the last
 * component (the op name) is kept whole when it fits with at least one
 * column of the start; otherwise the cut is by code points, half a side.
 * Returns a new string (its length in *len), or NULL when s fits as it is.
 */
char *pt_text_shorten(const char *s, size_t n, size_t max, size_t *len);

/*
 * Raw text s (n bytes; control bytes get escaped here) wrapped at `width`
 * columns: the first line continues a line already `col` columns long, the
 * next lines start with `indent` spaces. Lines break between words (runs of
 * spaces, kept as they are between the words of a line); a word longer than
 * a whole line is split. No line ends in a space.
 * Returns a new string with '\n' between lines and none at the end.
 */
char *pt_text_wrap(const char *s, size_t n, size_t width, size_t col, size_t indent);

/* The width prose wraps at when printed to fd: $COLUMNS (20 to 1000) when
 * fd is a terminal, else 100. */
size_t pt_text_line_width(int fd);

#endif
