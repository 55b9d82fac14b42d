/*
 * Kernels that are communication by where they were launched (summary.md
 * §2.5), for a pass that reads a GPU model file as a stream: a kernel whose
 * launching call starts inside a communication host range of the call's
 * thread (a range of type "Communication", or an Operator range whose label,
 * else name, reads as communication; not an instant marker, not of zero
 * length) is communication, as the model index's classify_attributed() has
 * it on a loaded model. Two reads, no range held:
 *
 *  1. while the events are scanned, each range whose name reads as
 *     communication gets a bit (pt_cattr_name), and each thread's ranges and
 *     calls are checked to come in start order (pt_cattr_order); then the
 *     range infos (after the events in the file) give each communication
 *     range its bit (pt_cattr_infos): a bit per event each;
 *  2. after pt_cattr_seal(), the ranges and calls again in the file's order:
 *     per thread the latest end of its communication ranges so far
 *     (pt_cattr_range), so a call starts inside their union iff that end is
 *     after its start (a range that starts with the call but comes after it
 *     in the file still counts: the calls of the thread's latest start wait
 *     for it); pt_cattr_call() sets the caller's bit of the call (its join
 *     slot) when it is inside. A thread whose ranges and calls were out of
 *     start order in read 1 cannot be read so: where there is one and some
 *     communication range (pt_cattr_spans_wanted), a read between the two
 *     takes the communication ranges of those threads (pt_cattr_span, then
 *     pt_cattr_spans_end: their union per thread), and read 2 tests each of
 *     their calls against its thread's union, as the whole load does. A
 *     communication range met in read 2 on such a thread without that read
 *     sets `late`: the caller reads the model whole instead.
 *
 * Two cases join a kernel to its call otherwise (the whole load's join, not
 * the caller's per process):
 *  - a file without launch links of several traced processes: the call of a
 *    kernel is the first API call of its correlation id in the whole file,
 *    whichever process made it; read 2 offers each API call to every host's
 *    launch join that has its id (pt_cattr_first: a bit per join slot, set at
 *    the first call of the slot's id), and that first call sets the slot's
 *    bit when it is inside;
 *  - a file with launch links and a GPU device that records no traced process
 *    (its host by the vote of its launches, whose linked calls may be another
 *    host's): read 2 gives every API call a bit when it is inside
 *    (pt_cattr_kbits: a bit per event), and a read of the links then gives
 *    each kernel the bit of its last link's call (pt_cattr_links: a bit per
 *    event), as the whole load joins them.
 *
 * What grows with the input: two bits per event in read 1, one in read 2,
 * per thread a few words, and the communication ranges of the threads out of
 * start order (16 bytes each); in those two cases a bit per join slot, or two
 * bits per event.
 */
#ifndef PT_COMM_ATTR_H
#define PT_COMM_ATTR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/interval.h"
#include "support/vec.h"

struct pt_model;
struct pt_gpu_link;

#define PT_CATTR_CACHE 64

/* A call waiting for the ranges that start with it: its bit in bits. */
struct pt_cattr_wait {
	uint64_t *bits;
	size_t bit;
};

struct pt_cattr_trk {
	int64_t last;  /* read 1: the latest start of a range or call; read 2: of a call */
	bool seen;
	int64_t end;   /* read 2: the latest end of a communication range so far */
	bool has_end;
	bool bad;      /* read 1: its ranges and calls out of start order */
	PT_VEC(struct pt_cattr_wait) wait; /* read 2: the calls at `last` outside every range so far */
	PT_VEC(struct pt_ival) span; /* bad, between the reads: its communication ranges */
	struct pt_ivset u;           /* bad, read 2: their union */
};

struct pt_cattr {
	uint64_t *name;   /* read 1: per event, a range whose name reads as communication */
	uint64_t *comm;   /* per event: a communication range (its range info) */
	size_t nw;        /* the words of both */
	uint64_t nev;     /* read 1: the events seen */
	/* the marks of strings met last, by the string's id modulo PT_CATTR_CACHE (a type: 1 other, 2
	 * Communication, 3 Operator; a label: 1 no, 2 communication): a few types, not a byte per string */
	struct pt_cattr_mark { uint32_t id; uint8_t v; } tmark[PT_CATTR_CACHE], lmark[PT_CATTR_CACHE];
	struct pt_cattr_trk *t;
	size_t nt;
	bool any;         /* some communication range */
	bool no;          /* a range info read 1 cannot place (an event not seen yet) */
	bool spans;       /* the threads out of start order have their unions (pt_cattr_spans_end) */
	bool late;        /* read 2: a communication range on a thread out of start order (read it whole) */
	uint64_t **seen;  /* no links, several hosts: per host, per join slot, its id's first API call came */
	size_t nseen;
	uint64_t *ccall;  /* links and a device that votes: per event, an API call inside (read 2) */
	uint64_t *kbit;   /* then per event, a kernel whose last link names such a call */
	uint64_t nkb;     /* the events both cover */
};

/* Read 1: event g (an index in the file) is a range whose name reads as communication. */
void pt_cattr_name(struct pt_cattr *c, uint64_t g);
/* Read 1: a range or call on track tr starts at st (the events in the file's order). */
void pt_cattr_order(struct pt_cattr *c, uint32_t tr, int64_t st);
/* Read 1: the range infos m->ranges (of events before nev, the events seen so far). */
void pt_cattr_infos(struct pt_cattr *c, const struct pt_model *m, uint64_t nev);
/* After read 1: ready for read 2 (the name bits go). */
void pt_cattr_seal(struct pt_cattr *c);
/* After the seal: are there threads out of start order and communication ranges (a read for
 * pt_cattr_span, then pt_cattr_spans_end, before read 2)? */
bool pt_cattr_spans_wanted(const struct pt_cattr *c);
/* That read: range event g on track tr, [st, st + dur). */
void pt_cattr_span(struct pt_cattr *c, uint64_t g, uint32_t tr, int64_t st, int64_t dur);
void pt_cattr_spans_end(struct pt_cattr *c);
/* Read 2: range event g on track tr, [st, st + dur). */
void pt_cattr_range(struct pt_cattr *c, uint64_t g, uint32_t tr, int64_t st, int64_t dur);
/* Read 2: a launching call on track tr at st: bit `bit` of bits is set when it is inside a communication
 * range of its track (now, or once one that starts with it comes). */
void pt_cattr_call(struct pt_cattr *c, uint32_t tr, int64_t st, uint64_t *bits, size_t bit);
/* No links, several hosts: nh hosts, host h's launch join of nslot[h] slots. */
void pt_cattr_first_hosts(struct pt_cattr *c, size_t nh, const size_t *nslot);
/* Read 2: an API call whose id has slot `slot` in host h's join: true at the first such call of the file. */
bool pt_cattr_first(struct pt_cattr *c, size_t h, size_t slot);
/* Links and a device that votes: read 2 marks the API calls of nev events (pt_cattr_call with c->ccall). */
void pt_cattr_kbits(struct pt_cattr *c, uint64_t nev);
/* After read 2: links v[0..n) in the file's order, each kernel the bit of its last link's call. */
void pt_cattr_links(struct pt_cattr *c, const struct pt_gpu_link *v, size_t n);
/* After them: is event g a kernel launched inside a communication range? */
static inline bool pt_cattr_kernel(const struct pt_cattr *c, uint64_t g)
{
	return g < c->nkb && (c->kbit[g / 64] >> (g % 64) & 1);
}
void pt_cattr_free(struct pt_cattr *c);

#endif
