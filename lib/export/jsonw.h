/* A small streaming JSON writer: strings escaped, invalid UTF-8 replaced by U+FFFD. */
#ifndef PT_JSONW_H
#define PT_JSONW_H
#include <stddef.h>

struct pt_out;

/* Write s (n bytes) as a JSON string literal, quotes included. */
void pt_jsonw_str(struct pt_out *o, const char *s, size_t n);

#endif
