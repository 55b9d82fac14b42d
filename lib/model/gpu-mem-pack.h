/*
 * MEMORY2 rows packed (issue 30): a byte of the row's length, then each field
 * of a struct pt_gpu_mem a varint, the time and the correlation id as
 * differences from the previous row's: some 26 bytes a row of a real trace
 * instead of the 96 of the struct. The
 * CUPTI importer packs the rows while it reads a dump; a model that is only
 * written (`proftool import`) keeps them packed in m->gpu_mem_pack, after the
 * rows of m->gpu_mem, and the writer and the GPU memory replay read them
 * through a cursor; so does a .ptm read given PT_PTM_PACK_GPU_MEM (model/ptm.h:
 * `proftool memory` and `dump`, whose views and dump read them the same way);
 * everywhere else they are unpacked into m->gpu_mem.
 */
#ifndef PT_GPU_MEM_PACK_H
#define PT_GPU_MEM_PACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Every PT_GMP_EVERY rows the pack notes where the next row begins and the
 * time and id it differs from, so that a row is found decoding fewer than
 * that many rows. */
#define PT_GMP_EVERY 8

struct pt_gmp_mark {
	uint64_t off;
	int64_t time;
	uint32_t corr;
};

struct pt_gpu_mem_pack {
	uint8_t *b;
	size_t len, cap, n;
	int64_t time; /* the last row's */
	uint32_t corr;
	PT_VEC(struct pt_gmp_mark) marks; /* before rows 0, PT_GMP_EVERY, 2 * PT_GMP_EVERY, ... */
};

void pt_gpu_mem_pack_add(struct pt_gpu_mem_pack *p, const struct pt_gpu_mem *g);
void pt_gpu_mem_pack_free(struct pt_gpu_mem_pack *p);

/* Reads rows of a pack: next row in a row or two varints' time, any row in
 * fewer than PT_GMP_EVERY rows' decoding. */
struct pt_gpu_mem_cursor {
	const struct pt_gpu_mem_pack *p;
	size_t i;      /* the row at off: i - 1 is in row, when i > 0 */
	size_t off;
	int64_t time;
	uint32_t corr;
	struct pt_gpu_mem row;
};
void pt_gpu_mem_cursor_init(struct pt_gpu_mem_cursor *c, const struct pt_gpu_mem_pack *p);
/* Row i < p->n of the pack, valid until the cursor's next call. */
const struct pt_gpu_mem *pt_gpu_mem_cursor_at(struct pt_gpu_mem_cursor *c, size_t i);

/* The device, operation and time of the rows, in order, without decoding the
 * rest of each row: the length byte skips it. */
struct pt_gpu_mem_heads {
	const struct pt_gpu_mem_pack *p;
	size_t i, off;
	int64_t time;
	uint32_t corr;
};
struct pt_gpu_mem_head {
	uint32_t device;
	uint8_t op;
	uint32_t corr;
	int64_t time;
};
void pt_gpu_mem_heads_init(struct pt_gpu_mem_heads *h, const struct pt_gpu_mem_pack *p);
/* The next row's head into *out: false after the last row. */
bool pt_gpu_mem_heads_next(struct pt_gpu_mem_heads *h, struct pt_gpu_mem_head *out);

/* The heads of every MEMORY2 row of m (those of m->gpu_mem, then those of
 * m->gpu_mem_pack), in order: pt_model_gpu_mem_heads_next() is false after the last. */
struct pt_model_gpu_mem_heads {
	const struct pt_model *m;
	size_t i;
	struct pt_gpu_mem_heads h;
};
void pt_model_gpu_mem_heads_init(struct pt_model_gpu_mem_heads *h, const struct pt_model *m);
bool pt_model_gpu_mem_heads_next(struct pt_model_gpu_mem_heads *h, struct pt_gpu_mem_head *out);

/* Append p's rows to m->gpu_mem and empty p. */
void pt_gpu_mem_unpack(struct pt_model *m, struct pt_gpu_mem_pack *p);
/* Append p's rows to m->gpu_mem_pack (p's buffer becomes it when there is none) and empty p. */
void pt_gpu_mem_keep_packed(struct pt_model *m, struct pt_gpu_mem_pack *p);

/* The MEMORY2 rows of m: those of m->gpu_mem, then those of m->gpu_mem_pack. */
static inline size_t pt_model_gpu_mem_n(const struct pt_model *m)
{
	return m->gpu_mem.n + (m->gpu_mem_pack ? m->gpu_mem_pack->n : 0);
}
/* Row i < pt_model_gpu_mem_n(m); c initialised on m->gpu_mem_pack (may be NULL
 * when m has none), the row valid until c's next call. */
static inline const struct pt_gpu_mem *pt_model_gpu_mem(const struct pt_model *m, struct pt_gpu_mem_cursor *c,
							size_t i)
{
	return i < m->gpu_mem.n ? &m->gpu_mem.v[i] : pt_gpu_mem_cursor_at(c, i - m->gpu_mem.n);
}

#endif
