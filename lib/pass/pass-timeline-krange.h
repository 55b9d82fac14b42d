/*
 * The kineto profile of a GPU model of one process with host ranges, read as
 * a stream (pass-timeline-gstream.c, pass-timeline-krange.c): what the
 * profile reads of each host range's range info (its "External id" and
 * whether it is an Operator range, Kineto's cpu_op; pass-timeline-kext.c),
 * which follow the events in the file: taken from the first read's batches
 * of range infos, packed (varints, about 2 bytes a range where the ids are
 * dense or absent), and handed to each range event as a later read meets it
 * in file order.
 */
#ifndef PT_PASS_TIMELINE_KRANGE_H
#define PT_PASS_TIMELINE_KRANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Rows in event order, each a varint event delta (the first from 0) and its fields; a read's cursor. */
struct tl_kpack {
	uint8_t *b;
	size_t n, cap, at;
	bool rhas;    /* rev is the row at the cursor's back */
	uint32_t rev;
};

struct tl_krange {
	struct tl_kpack p; /* per range info: (event delta << 1 | Operator), varint zigzag (id delta) */
	bool any;          /* a range info was taken (last_ev, last_id hold the last one) */
	bool bad;          /* not in strictly ascending event order (the model is read whole) */
	uint32_t last_ev;
	uint64_t last_id;
	uint64_t rid;      /* a read's last row */
	bool rop;
};

/* Packs m->ranges (the first read's batch) and empties it; false where they leave event order. */
bool tl_krange_take(struct tl_krange *k, struct pt_model *m);
/*
 * Range event ev of a read in file order (asked in ascending order): its
 * range info's kx bits for tl_sev.kx (TL_KX_INFO: it has one, its id in *id;
 * TL_KX_OP: its type is Operator), 0 where it has none.
 */
#define TL_KX_INFO 1
#define TL_KX_OP 2
uint8_t tl_krange_of(struct tl_krange *k, uint32_t ev, uint64_t *id);

/*
 * The copy infos the profile reads (kinds and bytes of each copy and set; the
 * first read's m->copies in event order, tl_kext_copies_in_order), packed the
 * same way (about 7 bytes a copy against 24), handed to each copy or set in
 * file order: TL_KX_COPY in tl_sev.kx, the bytes in task, the kinds in kconf
 * (copy_kind | src_kind << 8 | dst_kind << 16).
 */
#define TL_KX_COPY 4
struct tl_kcopy {
	struct tl_kpack p; /* per copy info: event delta, copy_kind, src_kind, dst_kind (a byte each), varint bytes */
	uint32_t rkinds;   /* a read's last row */
	uint64_t rbytes;
};
/* Packs m->copies (in event order, one row an event) and frees them. */
void tl_kcopy_take(struct tl_kcopy *k, struct pt_model *m);
/* Copy or set event ev of a read (asked in ascending order): TL_KX_COPY and *kinds, *bytes, or 0. */
uint8_t tl_kcopy_of(struct tl_kcopy *k, uint32_t ev, uint32_t *kinds, uint64_t *bytes);

/* Before a read in file order. */
void tl_krange_rewind(struct tl_krange *k);
void tl_kcopy_rewind(struct tl_kcopy *k);
/* After the first read: the pack's room beyond its bytes given back. */
void tl_kpack_fit(struct tl_kpack *p);
void tl_kpack_free(struct tl_kpack *p);

#endif
