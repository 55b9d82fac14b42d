/* Strict number parsing for options and text formats. */
#ifndef PT_PARSE_H
#define PT_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A decimal integer filling s[0, n) exactly (optional sign). */
bool pt_parse_i64(const char *s, size_t n, int64_t *v);
bool pt_parse_u64(const char *s, size_t n, uint64_t *v);
/* An exact decimal number of MHz ("100", "19.2", at most 3 decimals) as kHz; > 0. */
bool pt_parse_mhz_khz(const char *s, size_t n, uint64_t *khz);

#endif
