/*
 * The .ptm writer's chunk encoder (private to ptm-write.c, which writes the
 * header, the model's core and its events, and ptm-write-tables.c, which
 * writes the side tables: samples, MindData, CUPTI, memory, HCCL, AI Core).
 */
#ifndef PT_MODEL_PTM_WRITER_H
#define PT_MODEL_PTM_WRITER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proftool.pb-c.h"

struct pt_err;
struct pt_model;
struct pt_out;
struct pt_pdeflate;

struct writer {
	struct pt_out *o;
	struct pt_pdeflate *pz; /* NULL: uncompressed; else the part of the body being written */
	unsigned long adler0;   /* of the first part (the chunks before the events) */
	int zerr;               /* a part failed (pt_pdeflate_end's error is in *ze) */
	struct pt_err **ze;
	uint8_t *pbuf; /* packed chunk */
	size_t pcap;
	uint8_t *cbuf; /* put_columns' encoded columns */
	size_t ccap;
	uint32_t crc;
	uint64_t len; /* bytes written, to o or pz */
	/* a spill's writer (struct pt_spill): chunks are kept in mem instead */
	bool to_mem;
	uint8_t *mem;
	size_t mlen, mcap;
};

/*
 * Column batches (events and the CUPTI side tables, the bulk of a model) are
 * encoded here directly: each column a packed repeated field, in field-number
 * order, empty columns and zero scalars left out -- the bytes protobuf-c's
 * generic packer gives for the same message (tests/unit/test-model.c checks
 * that), at a fraction of its cost.
 */
enum col_type { COL_U32, COL_U64, COL_S32, COL_S64, COL_SCALAR };

struct col {
	unsigned field;
	enum col_type type;
	const void *v; /* COL_SCALAR: NULL, the value in n */
	size_t n;
};

/* Write chunk c (its bytes counted in the file's CRC when count_crc). */
void pt_ptm_put_chunk(struct writer *w, const Proftool__Chunk *c, bool count_crc);
/* Write a batch chunk (Chunk field `body`) of the given columns, encoded straight from them. */
void pt_ptm_put_columns(struct writer *w, unsigned body, const struct col *cols, size_t ncols);

#define CHUNK(field, CASE, val) do { \
	Proftool__Chunk c_ = PROFTOOL__CHUNK__INIT; \
	c_.body_case = PROFTOOL__CHUNK__BODY_##CASE; \
	c_.field = (val); \
	pt_ptm_put_chunk(w, &c_, true); \
} while (0)

static inline char *s(const char *x)
{
	return (char *)(x ? x : "");
}

/* The differences of a 32-bit column from the previous value of the batch (see ptm-write.c). */
static inline void deltas32(const uint32_t *v, size_t n, int64_t *d)
{
	int64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		d[i] = (int64_t)v[i] - prev;
		prev = v[i];
	}
}

/* ptm-write-tables.c */
void pt_ptm_write_samples(struct writer *w, const struct pt_model *m);
void pt_ptm_write_minddata(struct writer *w, const struct pt_model *m);
void pt_ptm_write_cupti(struct writer *w, const struct pt_model *m);
void pt_ptm_write_memory(struct writer *w, const struct pt_model *m);
void pt_ptm_write_hccl(struct writer *w, const struct pt_model *m);
void pt_ptm_write_aicore(struct writer *w, const struct pt_model *m);

#endif
