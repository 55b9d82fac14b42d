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
 * the third read meets them. What it cannot say as the whole load does sends the
 * model to the whole load: a range that only its range info makes communication
 * (a label, the type Communication), launch links read before the first
 * candidate or none at all (the whole load then joins by correlation id), and
 * links that name an activity twice.
 */
#ifndef PT_PASS_TIMELINE_GCOMM_H
#define PT_PASS_TIMELINE_GCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
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
	PT_VEC(struct tl_glink) lk;   /* first read, once a candidate is seen */
	uint8_t *lseen;               /* first read: the activities the links name (bits) */
	size_t nlseen;
	bool links_dropped;           /* links read before any candidate */
	bool linked;                  /* the model has links */
	struct pt_ivset *cr;          /* per track: the union of its confirmed ranges (after the first read) */
	size_t ncr;
	uint8_t *in;                  /* second read: per event, a call inside its thread's union (bits) */
	size_t nin;
	uint32_t *ck;                 /* after the second read: the communication kernels, sorted */
	size_t nck;
};

/* First read: a host range (event ev) whose name is a communication operator's. */
void tl_gcomm_range(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start, int64_t dur);
/* First read: a batch of range infos (m->ranges); false where the model is to be read whole. */
bool tl_gcomm_infos(struct tl_gcomm *c, const struct pt_model *m);
/* First read: a chunk of launch links (m->links, emptied); false where the model is to be read whole. */
bool tl_gcomm_links(struct tl_gcomm *c, struct pt_model *m);
/* After the first read (nev events, ntracks tracks): the unions; false where the model is to be read whole. */
bool tl_gcomm_seal(struct tl_gcomm *c, uint64_t nev, size_t ntracks);
/* Does the second read mark calls? */
static inline bool tl_gcomm_on(const struct tl_gcomm *c)
{
	return c->in != NULL;
}
/* Second read: a runtime call (event ev). */
void tl_gcomm_call(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start);
/* After the second read: the communication kernels. */
void tl_gcomm_resolve(struct tl_gcomm *c);
/* Third read: is kernel ev communication by where it was launched? */
bool tl_gcomm_kernel(const struct tl_gcomm *c, uint64_t ev);
void tl_gcomm_free(struct tl_gcomm *c);

#endif
