/*
 * The host of a GPU device that records no traced process, for the streamed
 * read of a GPU model of several processes (pass-steps-gstream.c): as the
 * in-memory pass decides it (pt_steps_vote_hosts, pass-steps-int.h), the host
 * whose API calls have the correlation ids of most of the device's
 * activities (correlation ids are per process: an id several hosts have
 * votes for each of them); ties keep the first host.
 *
 * The first read gathers each such device's activity ids (pt_gvote_want:
 * a launch join's wanted ids, 4 bytes an activity until sealed); one more
 * read (after pt_gvote_seal) offers every activity of those devices
 * (pt_gvote_activity: a count per id) and every API call of each host
 * (pt_gvote_call: a bit per id and host); then pt_gvote_owner() sums the
 * votes. What it holds: per id of those devices, the join's slot (8 bytes,
 * or 1.5 bits where the ids are dense), a 4-byte count and a bit per host;
 * per such device two bits an event of the file: its activities (read 1)
 * and the calls their launch links name (pt_gvote_link), which place them
 * in the coverage of the host the vote gives the device (the call may be
 * another host's: the in-memory pass widens the activity's rank by it).
 */
#ifndef PT_PASS_STEPS_GVOTE_H
#define PT_PASS_STEPS_GVOTE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/launch-join.h"

struct pt_gvote_dev {
	uint32_t dev;       /* its device index */
	struct pt_ljoin j;  /* its activities' ids (start and end freed once sealed) */
	uint32_t *cnt;      /* per slot: its activities with that id */
	uint64_t *mark;     /* per slot, nh bits: a call of host h has the id */
	uint64_t *act;      /* per event of read 1: its activity (one that --device keeps), until the vote */
	size_t actw;
	uint64_t *call;     /* per event: a call a launch link names from one of those activities */
	size_t callw;
};

struct pt_gvote {
	size_t nh;              /* the hosts */
	struct pt_gvote_dev *d; /* the devices that vote */
	size_t nd;
	bool over;              /* a count did not fit: the caller reads the model whole */
};

void pt_gvote_free(struct pt_gvote *v);
/* Device dev (a GPU device of no host's process) votes; its position in v->d. */
size_t pt_gvote_add(struct pt_gvote *v, uint32_t dev);
/* Its position in v->d, or SIZE_MAX. */
size_t pt_gvote_find(const struct pt_gvote *v, uint32_t dev);
/* Read 1: an activity of device dev (added) with correlation id id (0: none, ignored). */
void pt_gvote_want(struct pt_gvote *v, uint32_t dev, uint64_t id);
/* No more wants; nh hosts. Is there an id to look for (else every device goes to the first host)? */
bool pt_gvote_seal(struct pt_gvote *v, size_t nh);
/* Read 1: event g of the file is an activity of device dev (added) that --device keeps. */
void pt_gvote_act(struct pt_gvote *v, uint32_t dev, uint64_t g);
/* A launch link from event a (of read 1) to call c: true when a is an activity of a device that
 * votes (c marked for it). */
bool pt_gvote_link(struct pt_gvote *v, uint64_t a, uint64_t c);
/* Is call c named by a link from an activity of the device at position p? */
static inline bool pt_gvote_linked(const struct pt_gvote *v, size_t p, uint64_t c)
{
	const struct pt_gvote_dev *x = &v->d[p];
	return c / 64 < x->callw && (x->call[c / 64] >> (c % 64) & 1);
}
/* The vote read: an activity of the device at position p with id id. */
void pt_gvote_activity(struct pt_gvote *v, size_t p, uint64_t id);
/* The vote read: an API call of host h (its position) with id id. */
void pt_gvote_call(struct pt_gvote *v, size_t h, uint64_t id);
/* The host (position) of the device at position p: most votes, the first of a tie. */
size_t pt_gvote_owner(const struct pt_gvote *v, size_t p);
/* Every id of the device at position p wanted in j (its host's join, before its seal). */
void pt_gvote_want_into(const struct pt_gvote *v, size_t p, struct pt_ljoin *j);
/* After the vote: all but the devices and their linked calls' bits go. */
void pt_gvote_done(struct pt_gvote *v);

#endif
