/* A small streaming JSON writer: strings escaped, invalid UTF-8 replaced by U+FFFD. */
#ifndef PT_JSONW_H
#define PT_JSONW_H
#include <stdbool.h>
#include <stddef.h>

struct pt_out;

/* Write s (n bytes) as a JSON string literal, quotes included. */
void pt_jsonw_str(struct pt_out *o, const char *s, size_t n);

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
size_t pt_jsonw_utf8_len(const unsigned char *s, size_t n);

/*
 * The JSON string literal of s (n bytes), quotes included, into out, which
 * has room for 6 n + 2 bytes; returns its length. Escapes as pt_jsonw_str,
 * except that with short_bf backspace and form feed are written \b and \f
 * (the Chrome trace writer's spelling) instead of \u0008 and \u000c.
 */
size_t pt_jsonw_quote(char *out, const char *s, size_t n, bool short_bf);

#endif
