/*
 * --steps and --time-window on the streamed timeline of a GPU model
 * (pass-timeline-gstream.c): what the selection's notes (select.c,
 * pt_sel_check) need of the steps, gathered by the reads that stream the
 * model instead of from its events.
 *
 * The timeline pass keeps and drops the events itself (tl_step_keep: the
 * host step ranges the first read finds, the window); the notes count the
 * steps as `proftool steps` derives them (pt_steps_collect): the host's
 * ranges that match the step pattern, else the iteration-boundary rule over
 * the kernels' launches (summary.md §9.2). So the first read scans each
 * device's events (their span, pt_steps_devscan) and the host's step ranges;
 * with --steps and no step range on the host, the second read keeps each
 * kernel's launch folded per join slot (struct tl_glfold: its first kernel's
 * name, 2 bytes a slot, and a graph's further kernels apart, 8 bytes each,
 * until the read ends) and orders them by their calls' starts once the join
 * has them.
 *
 * A model of several traced processes (CPU devices) counts each rank's steps
 * as pt_steps_collect_ghosts() does (pass-steps-int.h): a GPU device is its
 * process's (by pid), a range its host's, and a host without step ranges
 * takes its own process's launches: the second read folds them one process
 * at a time (its calls and kernels together in the file, else the model is
 * read whole), its calls' starts per join slot beside the fold (8 bytes a
 * slot, reused by the next process: the processes' correlation ids are alike),
 * and keeps the few the boundary rule reads. Where a GPU device records no
 * host's process (its host is the one the vote of its launches gives it,
 * pass-steps-gvote.h), or a process has two hosts, the steps are made by the
 * streamed read of `proftool steps` (pt_steps_stream_read: the vote's read,
 * then each host's launch join; no event held) right after the timeline's
 * first read, and its si alone is kept (a model that read takes whole is
 * read whole). With --time-window alone no
 * steps are counted (the window's note is of the events' span).
 */
#ifndef PT_PASS_TIMELINE_GSEL_H
#define PT_PASS_TIMELINE_GSEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_events;
struct pt_ljoin;
struct pt_model;
struct pt_sel;
struct pt_sel_found;
struct tl_gsel;

/* The selection's state for a streamed read, or NULL when sel gives neither --steps nor --time-window. */
struct tl_gsel *tl_gsel_new(const struct pt_sel *sel);
void tl_gsel_free(struct tl_gsel *g);

/* First read: event i of ev (of a CPU or GPU device of m), the file's event gi; step: a host range whose
 * name the step pattern matches. */
void tl_gsel_event(struct tl_gsel *g, const struct pt_model *m, const struct pt_events *ev, size_t i, uint64_t gi,
		   bool step);
/* After the first read: can the model's steps be counted so (several traced processes: each GPU device's
 * recorded, one host each)? Also says whether the second read is to keep the kernels' launches. */
bool tl_gsel_streams(struct tl_gsel *g, const struct pt_model *m);
/* Several processes with --steps whose steps only their own read makes: a GPU device that records no
 * host's process (its host is the one the vote of its launches gives it, pass-steps-gvote.h) or a process
 * with two hosts. Then tl_gsel_read_steps() makes them, before the timeline's second read. */
bool tl_gsel_by_read(const struct tl_gsel *g);
/* The steps of the model file at path by the streamed read of `proftool steps` (pt_steps_stream_read,
 * no event held); *whole: it reads such a model whole (the timeline is then loaded whole too). */
int tl_gsel_read_steps(struct tl_gsel *g, const char *path, bool *whole, struct pt_err **e);
/* Second read: a kernel of device d (join j sealed) whose join key is corr, name its kernel name. */
void tl_gsel_kernel(struct tl_gsel *g, const struct pt_model *m, uint32_t d, uint64_t corr, uint32_t name,
		    const struct pt_ljoin *j);
/* Second read, several processes: a call of host d whose correlation id has join slot `slot` (j sealed). */
void tl_gsel_call(struct tl_gsel *g, const struct pt_model *m, uint32_t d, size_t slot, int64_t start,
		  const struct pt_ljoin *j);
/* After the second read (j holds the calls' starts): the steps, as pt_steps_collect() would make them;
 * false: the model is to be read whole (a process's calls and kernels not together in the file). */
bool tl_gsel_steps(struct tl_gsel *g, const struct pt_model *m, const struct pt_ljoin *j);
/* Do the steps need nothing of the second read (no kernels' launches)? tl_gsel_steps may then come before it. */
bool tl_gsel_no_launches(const struct tl_gsel *g);
/* The selection's notes into d, as pt_sel_check() gives them for the model read whole: rf, the host
 * ranges the first read found (pt_sel_found_range); span, the events' first start and last end (NULL:
 * no event). */
void tl_gsel_check(const struct tl_gsel *g, const struct pt_model *m, const struct pt_sel *sel,
		   const struct pt_sel_found *rf, const int64_t *span, struct pt_diag *d);

/*
 * The iteration-boundary rule (pass-steps.c, summary.md §9.2) reads the
 * launches in launch order (their call's start, then id, then file order): the
 * first one's kernel s, where s is launched again, the launch just before its
 * second launch (kernel e), and the first launch of e after the last of s.
 * Those few make the same windows as all the launches: found by passes over
 * v[0..n) (start: per join slot, its call's start, INT64_MIN: no call, the
 * launch is left out), without sorting them all (whose scratch would double
 * them). Returns their count, their indexes into v in launch order in *out
 * (malloc'd, NULL for none).
 */
struct tl_glaunch {
	uint32_t slot, name; /* its launch join slot, its kernel's name */
};
size_t tl_gsel_boundary(const struct tl_glaunch *v, size_t n, const int64_t *start, uint32_t **out);

/*
 * The launches of a read folded per join slot: launch k < nslot is slot k's
 * first launch in the file, its name (n16, or n32 once a name does not fit in
 * 16 bits) + 1, 0: the slot launched nothing; launch nslot + i is x[i], a
 * slot's further launches (a graph's kernels) in the file's order. The launch
 * order (start, slot, then k) is the file's within a slot, as for a plain
 * list (nslot 0).
 */
struct tl_glset {
	const struct tl_glaunch *x;
	size_t nx;
	const uint16_t *n16;
	const uint32_t *n32;
	size_t nslot;
};
struct tl_glfold {
	struct tl_glaunch *x;
	size_t nx, capx;
	uint16_t *n16;
	uint32_t *n32;
	size_t nslot;
};
/* A launch of slot (of nslot, the join's slots: fixed by the first launch) and kernel name, in file order. */
void tl_glfold_add(struct tl_glfold *f, size_t nslot, uint32_t slot, uint32_t name);
struct tl_glset tl_glfold_set(const struct tl_glfold *f);
void tl_glfold_free(struct tl_glfold *f);
/* Launch k of L (slot UINT32_MAX: none). */
struct tl_glaunch tl_glset_at(const struct tl_glset *L, size_t k);
/* tl_gsel_boundary() over L: indexes k of L. */
size_t tl_glset_boundary(const struct tl_glset *L, const int64_t *start, uint32_t **out);
#endif
