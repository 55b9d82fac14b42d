/*
 * Unsigned LEB128 varints (as protobuf writes them) and zigzag, for the
 * in-memory packs of this project (model/gpu-mem-pack.c, the streamed dump's
 * held rows). Writers leave room for 10 bytes a value; readers trust the pack.
 */
#ifndef PT_VARINT_H
#define PT_VARINT_H
#include <stdint.h>

/* v at q; returns the byte after it. */
static inline uint8_t *pt_varint_put(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	return q;
}

/* The value at *q, advancing *q. */
static inline uint64_t pt_varint_take(const uint8_t **q)
{
	if (!(**q & 0x80)) /* most values: one byte */
		return *(*q)++;
	uint64_t v = 0;
	for (unsigned sh = 0;; sh += 7) {
		uint8_t c = *(*q)++;
		v |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80))
			return v;
	}
}

static inline uint64_t pt_zigzag(int64_t d)
{
	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

static inline int64_t pt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
