/*
 * The Kineto importer's JSON parser (kineto-json.cc, C++ over simdjson On-Demand), for the
 * C importer: import-kineto.c cuts the text into pieces that are each one JSON document
 * (a batch of traceEvents elements written as an array, or one top-level member written as
 * an object) and hands every value of a piece, in document order, to callbacks; a batch of
 * events is read by the event walker, which hands the values of known keys to the importer's
 * handlers directly and leaves only the unusual ones to the callbacks.
 */
#ifndef PT_IMPORT_KINETO_JSON_H
#define PT_IMPORT_KINETO_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A number's digits, as its check read them: its value, when `plain`, is ±mant × 10^-nfrac. */
struct pt_kt_json_num {
	uint64_t mant;  /* the integer and fraction digits as one integer (when plain) */
	uint32_t nfrac; /* digits after the '.' */
	bool neg;
	bool plain;     /* no exponent, at most 15 integer and 3 fraction digits */
};

/* The callbacks: each returns 1 to go on, 0 to stop the parse (the callee keeps the reason). */
struct pt_kt_json_cb {
	int (*null)(void *ctx);
	int (*boolean)(void *ctx, int b);
	/* the number's text, checked as JSON, and its digits */
	int (*number)(void *ctx, const char *s, size_t n, const struct pt_kt_json_num *d);
	int (*string)(void *ctx, const unsigned char *s, size_t n); /* unescaped */
	int (*start_map)(void *ctx);
	int (*map_key)(void *ctx, const unsigned char *s, size_t n); /* unescaped */
	int (*end_map)(void *ctx);
	int (*start_array)(void *ctx);
	int (*end_array)(void *ctx);
	/* Called before each value is handed over: 0 says the callbacks do not read it (and have
	 * moved past it themselves); it is then checked as JSON (numbers too), not handed over.
	 * -1, for a member's value: neither it nor the members after it in its object are read
	 * (checked, keys and values, not handed over; the object's end is). */
	int (*wanted)(void *ctx);
};

enum pt_kt_json_kind {
	PT_KT_JSON_ELEMENTS, /* buf is "[a, b, ...]": each element is handed over */
	PT_KT_JSON_MEMBER,   /* buf is "{...}" with one member: its key and value are handed over */
	/* buf is "[a, b, ...]" of traceEvents elements, ctx the importer's struct kt
	 * (kineto-internal.h): each element read by the event walker, which hands the values of
	 * known keys to its handlers directly and the rest, as the callbacks would, checked */
	PT_KT_JSON_EVENTS,
};

struct pt_kt_json;

struct pt_kt_json *pt_kt_json_new(void);
void pt_kt_json_free(struct pt_kt_json *p);
/* Bytes after a piece that the parser may read (their content does not matter). */
size_t pt_kt_json_padding(void);
/*
 * Parse buf[0 .. len) (cap: the bytes readable from buf, at least len + pt_kt_json_padding()).
 * base: the file offset of buf[0]; *pos is set to the file offset of each value before its
 * callback (of the '{' or '[' for a container). *nitems: the elements or members handed over.
 * Returns 0; 1 when a callback returned 0; -1 for text that is not JSON (msg: the reason,
 * *pos: the file offset of the offending byte or token).
 */
int pt_kt_json_parse(struct pt_kt_json *p, enum pt_kt_json_kind kind, const char *buf, size_t len, size_t cap,
		     const struct pt_kt_json_cb *cb, void *ctx, uint64_t base, uint64_t *pos, size_t *nitems,
		     char *msg, size_t msgn);
/* A JSON number's text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
int pt_kt_json_number(const char *s, size_t n);
/* The offset in s of the first byte that is not valid UTF-8 (n when there is none). */
size_t pt_kt_json_bad_utf8(const unsigned char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
