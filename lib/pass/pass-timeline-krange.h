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

#include <regex.h>
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
	struct tl_kpack p; /* per range info: (event delta << 2 | user annotation << 1 | Operator), varint zigzag (id delta) */
	bool any;          /* a range info was taken (last_ev, last_id hold the last one) */
	bool bad;          /* not in strictly ascending event order (the model is read whole) */
	uint32_t last_ev;
	uint64_t last_id;
	uint64_t rid;      /* a read's last row */
	bool rop, ruser;
};

/* Packs m->ranges (the first read's batch) and empties it; false where they leave event order. */
bool tl_krange_take(struct tl_krange *k, struct pt_model *m);
/*
 * Range event ev of a read in file order (asked in ascending order): its
 * range info's kx bits for tl_sev.kx (TL_KX_INFO: it has one, its id in *id;
 * TL_KX_OP: its type is Operator; TL_KX_USER: it is a user annotation, a type
 * but Operator, OperatorInner, PythonOp and Communication, pass-timeline-gpuann.c),
 * 0 where it has none.
 */
#define TL_KX_INFO 1
#define TL_KX_OP 2
#define TL_KX_USER 8
uint8_t tl_krange_of(struct tl_krange *k, uint32_t ev, uint64_t *id);
/* The row at the cursor's back, then the next ones in event order (0 at the pack's end): its kx, event, id. */
uint8_t tl_krange_next(struct tl_krange *k, uint32_t *ev, uint64_t *id);
/* The string ids of the types that are no user annotation (Operator first), UINT32_MAX where absent. */
void tl_krange_types(const struct pt_model *m, uint32_t nu[4]);
/* A range info's kx bits by its type (nu: tl_krange_types). */
uint8_t tl_krange_kx(const uint32_t nu[4], uint32_t type);
/* One more row (event ev after the last one's), its kx bits and id. */
void tl_krange_put(struct tl_krange *k, uint32_t ev, uint8_t kx, uint64_t id);

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

/*
 * The launch links that name a host range (the GPU user annotations' input,
 * pass-timeline-gpuann.c), packed the same way from the first read's chunks
 * (the file stores them after its events, in activity order): per link its
 * activity's event delta and its range (event index + 1) as a zigzag delta
 * from the last link's, about 2 bytes a link where the ranges enclose runs of
 * launches.
 */
struct tl_klink {
	struct tl_kpack p;
	bool any, bad;    /* bad: not in strictly ascending activity order (an activity linked twice) */
	uint32_t last_ev, last_range;
	uint32_t rrange;  /* a read's last row */
};
/* Packs a chunk of m->links (those with a range); false where they leave activity order. */
bool tl_klink_take(struct tl_klink *k, const struct pt_model *m);
/* Activity ev of a read (asked in ascending order): its link's range (event index + 1), 0 none. */
uint32_t tl_klink_of(struct tl_klink *k, uint32_t ev);
/* One more link (activity ev, from the last one's on; ev again: a further range of it). */
void tl_klink_put(struct tl_klink *k, uint32_t ev, uint32_t range);
/* After tl_klink_of found activity ev's range: its next one (a pack with ev twice), 0 none. */
uint32_t tl_klink_more(struct tl_klink *k);
/* The next link's range (event index + 1) in the pack's order, 0 at its end. */
uint32_t tl_klink_next(struct tl_klink *k);
void tl_klink_rewind(struct tl_klink *k);

/*
 * The GPU user annotations of such a model (pass-timeline-gpuann.c): the
 * first read offers each range event's start (tl_gast_range) and each chunk
 * of links (tl_gast_links; wanted: a process with host ranges gets
 * annotations, else they are not packed); tl_gast_seal after it (false: the
 * links were not packed or leave activity order); tl_gast_nest, a read of its
 * own once the pass knows its steps (3: the model is read whole: a range info
 * of an event that is no range); the third read offers each event
 * (tl_gast_event); tl_gast_finish after it.
 */
struct tl_gast;
struct pt_tl;
struct pt_err;
struct tl_gast *tl_gast_new(void);
void tl_gast_free(struct tl_gast *g);
void tl_gast_range(struct tl_gast *g, uint32_t track, int64_t start);
void tl_gast_links(struct tl_gast *g, const struct pt_model *m, bool wanted);
bool tl_gast_seal(struct tl_gast *g);
int tl_gast_nest(struct tl_gast *g, const char *path, struct pt_model *m, const struct pt_tl *tl,
		 const struct tl_krange *kr, const regex_t *re, uint32_t skip, struct pt_err **e);
void tl_gast_event(struct tl_gast *g, uint32_t gi, uint32_t track, uint8_t kind, int64_t start, int64_t dur,
		   bool keep);
void tl_gast_finish(struct tl_gast *g);

/* Before a read in file order. */
void tl_krange_rewind(struct tl_krange *k);
void tl_kcopy_rewind(struct tl_kcopy *k);
/* After the first read: the pack's room beyond its bytes given back. */
void tl_kpack_fit(struct tl_kpack *p);
void tl_kpack_free(struct tl_kpack *p);

#endif
