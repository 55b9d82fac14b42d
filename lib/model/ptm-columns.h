/*
 * The reader's fast path for the bulk of a model (ptm-read.c): a chunk that
 * is exactly one batch message of integer columns (the event batches and the
 * CUPTI side tables: kernels, copies, links, syncs, ...) is decoded straight
 * into reusable arrays, without protobuf-c's generic unpack, and handed to
 * the reader as an ordinary Proftool__Chunk, so validation and error
 * messages are those of the generic path.
 */
#ifndef PT_PTM_COLUMNS_H
#define PT_PTM_COLUMNS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proftool.pb-c.h"

#define PT_COLS_MAX 16 /* fields of the largest batch message decoded */

struct pt_cols {
	uint64_t *col[PT_COLS_MAX]; /* values of the field with that descriptor index */
	size_t cap[PT_COLS_MAX];
	uint32_t *c32[PT_COLS_MAX]; /* its 32-bit form */
	size_t cap32[PT_COLS_MAX];
	_Alignas(max_align_t) unsigned char msg[512]; /* the batch message */
};

/*
 * Decode the chunk buf[0, len) into *c (its batch message lives in cols,
 * valid until the next call). False when the chunk is not such a batch, or
 * its encoding is anything but the writer's: one field of the chunk, the
 * batch's fields each at most once, repeated ones packed, no unknown field,
 * no varint longer than protobuf allows. Then protobuf-c's unpack decides.
 */
bool pt_cols_chunk(const uint8_t *buf, size_t len, struct pt_cols *cols, Proftool__Chunk *c);
/*
 * The same, but the packed fields whose descriptor index has its bit in skip
 * are only counted, not decoded: their values pointer is NULL and their
 * count that of the bytes that end a varint (the last byte must end one;
 * an overlong varint is not noticed). For a read that does not use them.
 */
bool pt_cols_chunk_some(const uint8_t *buf, size_t len, struct pt_cols *cols, Proftool__Chunk *c, uint32_t skip);
void pt_cols_free(struct pt_cols *cols);
/* Bytes cols holds for decoded values; a reader frees them past PT_COLS_KEEP. */
size_t pt_cols_bytes(const struct pt_cols *cols);
#define PT_COLS_KEEP (16u << 20)

/* One varint at *pp (< end), advancing *pp; false when truncated or longer than 64 bits. */
bool pt_cols_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v);

#endif
