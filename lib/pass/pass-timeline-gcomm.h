/*
 * The class of a kernel launched inside a communication host range (summary.md
 * §2.5, model/index.c's classify_attributed), for the viewer profile's
 * computation and communication unions, read as a stream
 * (pass-timeline-gstream.c): the first read keeps the host ranges whose name is
 * a communication operator's (the candidates), which the range infos, following
 * the events in the file, confirm (type Communication, or Operator with that
 * name or label), and, once a candidate is seen, the launch links (8 bytes
 * each); the second read marks each runtime call that starts inside its
 * thread's union of confirmed ranges (a bit an event); the kernels whose link
 * names a marked call are communication (4 bytes each, sorted), looked up as
 * the third read meets them. The cases the whole load decides from what the
 * first read cannot hold, as the whole load decides them:
 *  - a range that only its range info makes communication (its label, or the
 *    type Communication on a range whose name names no collective): a bit an
 *    event marks it in the first read, and a read again (tl_gcomm_reread,
 *    before the second read) takes its track, start and length;
 *  - launch links read before the first candidate (dropped then): that read
 *    again takes every link, in the file's order;
 *  - links that name an activity twice: the last link of the activity wins
 *    (the links walked from the end, a bit an event);
 *  - no link at all: each kernel joins the first runtime call of its
 *    correlation id in the file (index.c's join, over the whole model): the
 *    second read marks, per slot of the caller's launch join, whether that
 *    first call starts inside its thread's union (a bit a slot), and the third
 *    read looks the kernel's slot up; where the join's keys are not the plain
 *    ids (several ranks of the kineto profile) the model is read whole.
 */
#ifndef PT_PASS_TIMELINE_GCOMM_H
#define PT_PASS_TIMELINE_GCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "support/err.h"
#include "support/interval.h"
#include "support/vec.h"

struct tl_gcand {
	uint64_t ev;
	int64_t s, dur;
	uint32_t track;
	bool ok; /* a range info makes it communication */
};

struct tl_glink {
	uint32_t ev, api;
};

struct tl_gcomm {
	PT_VEC(struct tl_gcand) cand; /* first read, in file order */
	/* first read, once a candidate is seen: the links in file order, packed (per link the zigzag deltas of
	 * its activity's and its call's event indexes from the last link's, varints: about 2 bytes a link) */
	struct tl_glinks {
		uint8_t *b;
		size_t n, cap, nl;
		uint32_t ev, api;     /* the last link's */
	} lk;
	uint64_t *lseen;              /* the activities the links name (bits; till the resolve where one is twice) */
	size_t nlseen;
	bool dup;                     /* an activity linked twice */
	bool links_dropped;           /* links read before any candidate (taken again by tl_gcomm_reread) */
	bool linked;                  /* the model has links */
	uint64_t *xb;                 /* first read: the ranges that their range info alone makes communication */
	size_t nxw;
	bool xany;
	bool more, relink;            /* tl_gcomm_reread is needed; it takes every link */
	uint64_t rbase;               /* tl_gcomm_reread: the events read */
	uint64_t nev;                 /* from the seal: the events, the tracks, may the kernels join by id */
	size_t ntracks;
	bool corr_join;
	bool bycorr;                  /* no link: the kernels join the first call of their correlation id */
	uint64_t *cs;                 /* bycorr, second read: per join slot, its first call inside a union (bits) */
	size_t ncs;
	struct pt_ivset *cr;          /* per track: the union of its confirmed ranges (after the first read) */
	size_t ncr;
	uint8_t *in;                  /* second read: per event, a call inside its thread's union (bits) */
	size_t nin;
	uint32_t *ck;                 /* after the second read: the communication kernels, sorted */
	size_t nck;
};

/* First read: a host range (event ev) whose name is a communication operator's. */
void tl_gcomm_range(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start, int64_t dur);
/* First read: a batch of range infos (m->ranges). */
void tl_gcomm_infos(struct tl_gcomm *c, const struct pt_model *m);
/* First read: a chunk of launch links (m->links, emptied). */
void tl_gcomm_links(struct tl_gcomm *c, struct pt_model *m);
/* After the first read (nev events, ntracks tracks; corr_join: the caller's launch join is keyed by the plain
 * correlation ids): the unions, unless tl_gcomm_more() says a read again must come first; false where the
 * model is to be read whole. */
bool tl_gcomm_seal(struct tl_gcomm *c, uint64_t nev, size_t ntracks, bool corr_join);
static inline bool tl_gcomm_more(const struct tl_gcomm *c)
{
	return c->more;
}
/* The read again of path that tl_gcomm_more() asks for: 0, or -1 with *e set. */
int tl_gcomm_reread(struct tl_gcomm *c, const char *path, struct pt_err **e);
/* After tl_gcomm_reread: the unions; false where the model is to be read whole. */
bool tl_gcomm_build(struct tl_gcomm *c);
/* Does the second read mark calls? */
static inline bool tl_gcomm_on(const struct tl_gcomm *c)
{
	return c->in != NULL;
}
/* Second read: a runtime call (event ev). */
void tl_gcomm_call(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start);
/* Second read, bycorr: the first call of the correlation id of the caller's join slot `slot`. */
void tl_gcomm_first_call(struct tl_gcomm *c, size_t slot, uint32_t track, int64_t start);
/* After the second read: the communication kernels. */
void tl_gcomm_resolve(struct tl_gcomm *c);
/* Third read: is kernel ev communication by where it was launched? */
bool tl_gcomm_kernel(const struct tl_gcomm *c, uint64_t ev);
/* Third read, bycorr: is a kernel whose correlation id has join slot `slot` (SIZE_MAX: none) communication? */
bool tl_gcomm_kernel_slot(const struct tl_gcomm *c, size_t slot);
void tl_gcomm_free(struct tl_gcomm *c);

#endif
