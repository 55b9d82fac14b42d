/*
 * The .ptm model file (man/proftool-model.5):
 *   magic "\x89PTM\r\n\x1a\n", u32 LE format version, u32 LE flags
 *   (bit 0: body is one zlib stream), then the body: Chunk messages of
 *   proto/proftool.proto, each preceded by its length as a base-128 varint.
 *   The last chunk is the Footer, with counts and a CRC-32 of the body.
 * This is the only code that packs or unpacks the model.
 */
#ifndef PT_PTM_H
#define PT_PTM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_out;

#define PT_PTM_MAGIC "\x89PTM\r\n\x1a\n"
#define PT_PTM_MAGIC_LEN 8
/* 2: correlation ids and the event indices of the CUPTI side tables are written
 * as differences within their batch (corr_delta, event_delta, ...); 1 is read too */
#define PT_PTM_VERSION 2
#define PT_PTM_FLAG_ZLIB 1u
#define PT_PTM_MAX_CHUNK (256u << 20) /* a larger length prefix is corrupt */
#define PT_PTM_EVENT_BATCH 4096

/* The compressed body is one zlib stream made of raw deflate blocks of this
 * many body bytes, each ended with a sync flush (support/pdeflate.h): the
 * file's bytes depend on it, never on the number of threads. */
#define PT_PTM_ZBLOCK (1u << 20)

/* Write m to o (already opened); compress with zlib level 1 unless !compress,
 * with jobs threads (<= 1: none; the bytes are the same for any number). */
int pt_ptm_write(const struct pt_model *m, struct pt_out *o, bool compress, int jobs, struct pt_err **e);
/* Does the file at path start with the .ptm magic? ("-" is never probed.) */
bool pt_ptm_probe(const char *path);
/* Read a model from path ("-" = standard input). */
int pt_ptm_read(const char *path, struct pt_model **m, struct pt_err **e);
/* Read from an open file descriptor; name is used in messages. */
int pt_ptm_read_fd(int fd, const char *name, struct pt_model **m, struct pt_err **e);

#endif
