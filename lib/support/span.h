/*
 * Byte spans of text records and the field rules the Ascend text formats
 * share: trimming, splitting on a separator, the text after the last ':',
 * whitespace tokens, exact decimal microseconds.
 */
#ifndef PT_SPAN_H
#define PT_SPAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pt_span {
	const char *p;
	size_t n;
};

static inline bool pt_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

struct pt_span pt_span_trim(struct pt_span s);
bool pt_span_contains(struct pt_span s, const char *needle);
/* Split on sep into f[0..max); returns the total number of fields (may exceed max). */
size_t pt_span_split(struct pt_span s, char sep, struct pt_span *f, size_t max);
/* The text after the last ch (all of s when there is none). */
struct pt_span pt_span_after_last(struct pt_span s, char ch);
/* The next whitespace-separated token of *s, consumed. */
struct pt_span pt_span_token(struct pt_span *s);
bool pt_span_u64(struct pt_span s, uint64_t *v);
/* Microseconds as an exact decimal ("1567", "0.5", at most 3 significant fraction digits) to ns. */
bool pt_span_us_ns(struct pt_span s, int64_t *ns);

#endif
