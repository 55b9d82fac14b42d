/*
 * The kineto profile's External ids of GPU activities and runtime calls
 * (pass-timeline-kext.c): per CPU device, correlation id -> the first
 * External id of kind CUSTOM0 (PyTorch's op id) that its process recorded
 * for it (ExtCorrBatch).
 *
 * The rows are packed first (struct tl_kxpack, in file order: a varint
 * correlation delta and External id delta each, about 3 bytes a row against
 * the model's 24), a streamed read's batch at a time
 * (PT_PTM_EXT_CORR_BATCHWISE), then made the map: where a device's ids are
 * dense (their range at most 4 n + 4096 ids), a presence bit per id of the
 * range and, per block of 64 ids, the least External id of the block, each
 * id's its distance from it in a byte (a block whose distances do not fit
 * holds them in 2 bytes each, or its ids whole, 8 bytes each): about 1.3
 * bytes an id against 8; the other devices' ids in a hash map
 * (support/idmap.h).
 */
#ifndef PT_PASS_TIMELINE_KXMAP_H
#define PT_PASS_TIMELINE_KXMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct tl_kxpack {
	uint8_t *b;
	size_t n, cap;
	uint32_t dev;      /* the last row's device, correlation id and External id */
	uint64_t corr, id;
};

/* The CUSTOM0 rows of m->ext_corr packed after the earlier ones (m is not changed). */
void tl_kxpack_add(struct tl_kxpack *x, const struct pt_model *m);
void tl_kxpack_free(struct tl_kxpack *x);

struct tl_kxmap;
/* The map of the rows of x (ndevices: the model's devices; rows of others are dropped), x freed; NULL
 * where x holds no row. */
struct tl_kxmap *tl_kxmap_build(struct tl_kxpack *x, size_t ndevices);
/* The External id of correlation id corr of CPU device dev: true and *id, false where it has none. */
bool tl_kxmap_get(const struct tl_kxmap *x, uint32_t dev, uint64_t corr, uint64_t *id);
void tl_kxmap_free(struct tl_kxmap *x);

#endif
