/*
 * The streamed kineto profile's side tables where the file does not hold
 * them in event order (pass-timeline-korder.c, proftool-timeline(1) MEMORY):
 *  - range infos out of event order (or two of one event): the whole load
 *    looks each range's info up by a binary search over the infos in file
 *    order (pt_model_range_info), which then finds some and misses others;
 *    the first read holds the infos (about 7 bytes each: the event, then the
 *    bits and id packed) and, once it ends, packs
 *    the very rows that search finds, in event order, as tl_krange packs
 *    infos in order;
 *  - launch links that name a host range out of activity order (an activity
 *    linked twice): the whole load adds each activity to the annotation of
 *    every link's range; the first read holds the links (8 bytes each) and,
 *    once it ends, packs them sorted by activity, an activity's ranges after
 *    each other (tl_klink_more reads the further ones).
 */
#ifndef PT_PASS_TIMELINE_KORDER_H
#define PT_PASS_TIMELINE_KORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "pass/pass-timeline-krange.h"

struct tl_kro {
	uint32_t *ev;        /* per info in file order: its event */
	size_t n, cap, nf;   /* nf: how many the whole load's search finds (tl_kro_seal) */
	struct tl_kpack p;   /* per info in file order: its kx bits (a byte), varint zigzag (id delta) */
	uint64_t last_id;    /* (the pack's last id, or a read's) */
	uint8_t *found;      /* per info: the whole load's search finds it (a bit each; tl_kro_seal) */
	bool on;             /* the infos left event order: held here (the pack's rows first) */
};
/* The first read's batch of range infos (m->ranges) into k, or into o from the first that leaves event order. */
void tl_kro_take(struct tl_kro *o, struct tl_krange *k, struct pt_model *m);
/* After the first read: where o holds the infos, k packs the rows the whole load's search finds. */
void tl_kro_seal(struct tl_kro *o, struct tl_krange *k);
/*
 * The nesting read's infos for the GPU user annotations (the whole load nests every info's range): -1 where
 * two infos name one event (the model is read whole), 0 where k's serve (every info is found), 1 where kn
 * holds every info in event order, the id 0 of one the search misses. o is freed.
 */
int tl_kro_nest(struct tl_kro *o, struct tl_krange *kn);
void tl_kro_free(struct tl_kro *o);

struct tl_kls {
	uint64_t *v; /* per link naming a range: activity << 32 | range (event index + 1) */
	size_t n, cap;
	bool on;
};
/* A chunk of links (m->links) into lk, or into o from the first that leaves activity order. */
void tl_kls_take(struct tl_kls *o, struct tl_klink *lk, const struct pt_model *m);
/* After the first read: where o holds the links, lk packs them by activity (ties by range, repeats once). */
void tl_kls_seal(struct tl_kls *o, struct tl_klink *lk);
void tl_kls_free(struct tl_kls *o);

#endif
