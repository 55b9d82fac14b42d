/*
 * Inside the steps pass: what pass-steps.c (the step windows and the
 * `steps` tables) and pass-steps-cover.c (launch anchors and coverage)
 * share. Not for other passes: they use pass-steps.h.
 */
#ifndef PT_PASS_STEPS_INT_H
#define PT_PASS_STEPS_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/index.h"
#include "model/model.h"
#include "pass/pass-steps.h"

/* A GPU activity: the device work a launch makes. */
static inline bool pt_steps_is_activity(uint8_t k)
{
	return k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET;
}

/* GPU devices without a recorded process (by_pid false): owner[dev] becomes the index into
 * hosts[0..nh) of the host whose API calls launched most of the device's activities (correlation
 * ids are per process: they vote only when the pid is unknown); ties keep the lower index. */
void pt_steps_vote_hosts(const struct pt_model *m, const uint32_t *hosts, size_t nh, const bool *by_pid,
			 uint32_t *owner);

/* A kernel launch, for the iteration-boundary rule (summary.md §9.2): its call's start and end. */
struct pt_steps_launch {
	int64_t call_s, call_e;
	uint64_t corr;
	uint32_t name;
};
/* The kernel launches of a rank in launch order (their calls' start, then correlation id;
 * ties in event order), through accessors: n of them, the i-th's kernel name and call. */
struct pt_steps_lseq {
	size_t n;
	const void *arg;
	uint32_t (*name)(const void *arg, size_t i);
	int64_t (*call_s)(const void *arg, size_t i);
	int64_t (*call_e)(const void *arg, size_t i);
};
/* The number after the last '#' of a step range's name, or -1. */
int64_t pt_steps_name_number(const char *s);
/* A host range that matches the step pattern: its window, the number after its last '#' (-1:
 * none), its event index. */
struct pt_steps_grange {
	int64_t s, e, num;
	size_t ev;
};
/*
 * What a streamed read of a GPU model (one host, else pt_steps_ghosts; no Ascend rank) gives the step
 * windows instead of the events: per device its scan (has_all: the span of all its events;
 * min_start: the origin), the host's ranges that match the step pattern in event order, and
 * when none does, the rank's kernel launches in launch order.
 */
struct pt_steps_gscan {
	const struct pt_steps_devscan *dev;
	const struct pt_steps_grange *ranges;
	size_t nranges;
	const struct pt_steps_lseq *launches; /* NULL: none */
};
/* Several hosts (processes) in one streamed read: per range of a gscan, its host (a CPU device
 * index); per device index, the launches of the rank whose host it is (n 0 for any other). */
struct pt_steps_ghosts {
	const uint32_t *range_host;
	const struct pt_steps_lseq *launches; /* NULL: none */
	/* per device index, the host (CPU device index) that a GPU device of no host's process goes to, as
	 * the streamed read's vote decided it (pass-steps-gvote.h); NULL: the first host */
	const uint32_t *owner;
};
/* pt_steps_collect() from gs: no coverage is measured (has_dev stays false; the caller widens
 * the ranks' spans, pt_steps_widen, then calls pt_steps_count_covered) and no note is made (d
 * is passed on; the windows' overlap notes: pt_steps_overlap_note). */
int pt_steps_collect_gscan(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_gscan *gs,
			   struct pt_steps_info *out, struct pt_diag *d, struct pt_err **e);
/* The same, each rank taking the ranges and launches that hs gives its host (gs->launches unread). */
int pt_steps_collect_ghosts(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_gscan *gs,
			    const struct pt_steps_ghosts *hs, struct pt_steps_info *out, struct pt_diag *d,
			    struct pt_err **e);
void pt_steps_widen(struct pt_rank_steps *x, int64_t a, int64_t b);
void pt_steps_count_covered(struct pt_rank_steps *rs, size_t n);
/* The note that r's windows overlap (some were cut), if they do. */
void pt_steps_overlap_note(const struct pt_rank_steps *r, struct pt_diag *d);
/* The note that some steps of an Ascend rank r end before they start (they have no window), if so. */
void pt_steps_reversed_note(const struct pt_rank_steps *r, struct pt_diag *d);

/* The device figures of one device of a GPU rank (or of a rank without devices: zeros). */
struct pt_gpu_figs {
	int64_t (*m4)[4];        /* per window: busy, kernel, memcpy, memset time in it */
	struct pt_breakdown *b;  /* per window */
	uint64_t (*cnt)[3];      /* per window: kernels, copies, fills launched in it */
	int64_t om4[4];          /* the same over the outside set (unfiltered only) */
	struct pt_breakdown ob;
	uint64_t ocnt[3];        /* launched in no window */
};
void pt_gpu_figs_alloc(struct pt_gpu_figs *f, size_t nwin);
void pt_gpu_figs_free(struct pt_gpu_figs *f);
/* The GPU steps table; figs[ri]: per rank of si, an array of max(ndevs, 1) (those of GPU ranks). */
struct pt_table *pt_steps_gpu_table(const struct pt_model *m, const struct pt_steps_info *si,
				    struct pt_gpu_figs *const *figs);

/*
 * The streamed read of a GPU model (pass-steps-gstream.c), as pt_steps_stream_read() gives it:
 * *m without its events, *si as pt_steps_collect() (the selection checked, notes in d); with
 * figs, *figs per rank of si, max(ndevs, 1) each, for pt_steps_gpu_table() (free with
 * pt_steps_gfigs_free), and the coverage measured. A model it cannot stream is read whole
 * into *whole (*m NULL, 0 returned).
 */
struct pt_ptm_source;
int pt_steps_gstream_read(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
			  struct pt_steps_info *si, struct pt_gpu_figs ***figs, struct pt_model **whole,
			  struct pt_diag *d, struct pt_err **e);
/* The same beside Ascend devices (a model of Ascend and GPU data): their ranks in *si as
 * pt_steps_collect() makes them, their coverage measured, without figures (the caller's); a
 * GPU device with step-trace records, or kernels or copies on an Ascend device: read whole. */
int pt_steps_gstream_mixed(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
			   struct pt_steps_info *si, struct pt_gpu_figs ***figs, struct pt_model **whole,
			   struct pt_diag *d, struct pt_err **e);
void pt_steps_gfigs_free(const struct pt_steps_info *si, struct pt_gpu_figs **f);

/* The span of each rank's device data, and the kept steps it meets
 * (after the steps are selected): has_dev, dev_s, dev_e, covered, nkept, ncovered.
 * With scan (Ascend ranks only), the span comes from it, not from m's events. */
void pt_steps_cover(const struct pt_model *m, const struct pt_steps_devscan *scan, struct pt_rank_steps *rs,
		    size_t n);

/* Does step w of r get device figures (a step the device data does not reach has none, not zero ones)? */
static inline bool pt_steps_dev_figs(const struct pt_rank_steps *r, const struct pt_stepwin *w)
{
	return w->has_win && (w->covered || !pt_steps_partly_covered(r));
}

/* The outside set O = span − ∪(windows) of a rank (to free). */
struct pt_ivset;
void pt_steps_outside_set(const struct pt_rank_steps *r, struct pt_ivset *o);

/* The device figures of an Ascend rank's steps table, from its events (in memory or streamed). */
struct pt_steps_figs {
	size_t *ce, *ca;        /* per step: executions (tasks, kernels) and AI CPU ops started in its window */
	struct pt_breakdown *b; /* per kept step with device figures (pt_steps_dev_figs) */
	size_t nex, nai;        /* all of them on the device */
	struct pt_breakdown out; /* over the outside set (unfiltered only) */
	int64_t out_total;      /* its measure */
};
void pt_steps_figs_free(struct pt_steps_figs *f);
/* The Ascend steps table; figs: per rank of si (those of Ascend ranks filled). */
struct pt_table *pt_steps_ascend_table(const struct pt_model *m, const struct pt_steps_info *si,
				       const struct pt_steps_figs *figs);

#endif
