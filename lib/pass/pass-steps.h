/*
 * Training steps: the step windows of every rank (Ascend: step-trace marker
 * sets, ascend.md §3.6; GPU: ranges matching the step pattern or repeated
 * iteration boundaries, summary.md §2.1, §9.2) and the `steps` table
 * (ascend.md §3.6, summary.md §9).
 *
 * pt_steps_collect() is the step-window derivation shared with `perf`: it
 * belongs with the index's derived data and reads the model only.
 */
#ifndef PT_PASS_STEPS_H
#define PT_PASS_STEPS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/select.h"
#include "support/steppat.h"

struct pt_anchor_map;
struct pt_diag;
struct pt_err;
struct pt_index;
struct pt_ival;
struct pt_model;
struct pt_step;
struct pt_table;

/* One step of a rank. */
struct pt_stepwin {
	int64_t num;              /* step number */
	bool has_win;             /* its window [s, e) exists (made disjoint from the next) */
	int64_t s, e;
	bool kept;                /* selected by --steps / --time-window */
	bool covered;             /* its window meets the span of the rank's device data (dev_s, dev_e) */
	const struct pt_step *st; /* Ascend marker set; NULL on GPU data */
	size_t ev;                /* GPU: the step range's event index; SIZE_MAX otherwise */
};

/* The steps of one rank: an Ascend device, or a GPU process (a CPU device). */
struct pt_rank_steps {
	uint32_t rank;            /* Ascend: device id; GPU: the recorded ranks when distinct, else 0, 1, ... over the CPU devices */
	bool ascend;
	bool inference;           /* Ascend: no step has a BP point */
	uint32_t host;            /* GPU: CPU device index; PT_NONE otherwise */
	uint32_t *devs;           /* accelerator device indexes (ascending id) */
	size_t ndevs;
	struct pt_stepwin *v;     /* in step order */
	size_t n;
	size_t first;             /* index of the rank's first step (not averaged) */
	bool has_span;
	int64_t span_s, span_e;   /* [min start, max end) of the rank's events and windows */
	uint64_t overlapping;     /* windows cut to keep them disjoint */
	uint64_t reversed;        /* Ascend: steps that end before they start (no window) */
	bool has_dev;             /* device data (tasks, AI CPU ops, kernels, copies) of its devices */
	int64_t dev_s, dev_e;     /* Ascend: [first start, last end) of that data; GPU: [first, last] launch of it
				   * (an activity without a launch record: its own time) */
	size_t nkept, ncovered;   /* kept steps, and of them those covered */
	struct pt_anchor_map *am; /* GPU ranks: their anchors when a pass built them (owned), else NULL */
	struct pt_ival *dl;       /* GPU ranks of a streamed read: the host's Dataloader ranges in event order
				   * (owned); NULL: the model's events say */
	size_t ndl;
};

struct pt_steps_info {
	struct pt_rank_steps *r;  /* Ascend ranks first (device order), then GPU ranks */
	size_t n;
	int64_t origin;           /* the model's origin (pt_model_origin): --time-window is relative to it */
	bool filtered;            /* --steps or --time-window given */
};

/* Steps and windows of every rank. Fails only on a bad --step-pattern. */
int pt_steps_collect(const struct pt_model *m, const struct pt_sel *sel, struct pt_steps_info *out,
		     struct pt_diag *d, struct pt_err **e);
void pt_steps_info_free(struct pt_steps_info *s);

/*
 * Coverage (issue #25 point 7): a rank's device data that covers only part of
 * its kept steps (some or none of them; a rank with no device data at all is
 * not partly covered). A note for each such rank goes to d, ending in `then`
 * (what the command does about it):
 *   device 1: device data covers 15 of 322 steps (steps 1-15; it spans 0-53497947310 ns
 *   from the earliest event); ratios are over those
 * Returns the number of ranks partly covered.
 */
size_t pt_steps_coverage_note(const struct pt_steps_info *si, const char *then, struct pt_diag *d);
/* One such note: covered of kept steps, numbered lo..hi (runs: one after another), the device
 * data from a to b ns after the earliest event; who is "device" or "rank". */
void pt_steps_coverage_line(struct pt_diag *d, const char *who, uint32_t rank, size_t covered, size_t kept,
			    int64_t lo, int64_t hi, bool runs, int64_t a, int64_t b, const char *then);
/* The same note for a GPU rank: "rank N", and the span is of its launches ("its launches span"). */
void pt_steps_launch_coverage_line(struct pt_diag *d, uint32_t rank, size_t covered, size_t kept, int64_t lo,
				   int64_t hi, bool runs, int64_t a, int64_t b, const char *then);
/* Is rank r's device data partial: it has some, and covered < kept steps? */
bool pt_steps_partly_covered(const struct pt_rank_steps *r);
/* Does time t lie in the window of a kept step of r that r's device data does not cover
 * (r partly covered)? */
bool pt_steps_uncovered_at(const struct pt_rank_steps *r, int64_t t);

/*
 * What the events of one device show, for a model whose events are not held
 * (the streamed steps and perf, pass-steps-stream.c; the Ascend first
 * read, ascend-scan.h, that the streamed hints share): min and max, so that
 * the order of the events does not matter. Only for models without CPU or
 * GPU devices (Ascend ranks only).
 */
struct pt_steps_devscan {
	bool has_any;            /* some event: min_start (the model's origin) */
	int64_t min_start;
	bool has_task;           /* a task or an AI CPU op: the device is an Ascend rank */
	bool has_span;           /* tasks, AI CPU ops, kernels: [span_s, span_e) (an end before its start: the start) */
	int64_t span_s, span_e;
	bool has_dev;            /* device data (pass-steps-cover.c): [dev_s, dev_e) */
	int64_t dev_s, dev_e;
	bool has_all;            /* any event: [all_s, all_e) (an end before its start: the start) */
	int64_t all_s, all_e;
};
/* Add event (kind k, start, dur) of a device to its scan record. */
void pt_steps_devscan_add(struct pt_steps_devscan *x, uint8_t k, int64_t start, int64_t dur);

/* pt_steps_collect() with the events' figures of scan (per device of m) instead of m's events, or
 * NULL: m's events. */
int pt_steps_collect_scan(const struct pt_model *m, const struct pt_sel *sel, const struct pt_steps_devscan *scan,
			  struct pt_steps_info *out, struct pt_diag *d, struct pt_err **e);

/* Is a host range a data-loading ("Dataloader") range? (summary.md §1.1) */
bool pt_steps_is_dataloader(const char *name);

/* Anchor of event i (summary.md §2.1): the start of its launching API call
 * on host device `host` (by correlation id), else its own start. */
struct pt_anchor_map *pt_anchor_map_new(const struct pt_model *m, uint32_t host);
int64_t pt_anchor_of(const struct pt_anchor_map *a, size_t ev);
/* Event index of the API call that launched ev, or SIZE_MAX. */
size_t pt_anchor_call(const struct pt_anchor_map *a, size_t ev);
void pt_anchor_map_free(struct pt_anchor_map *a);

/* Mean of sum over count, rounded half away from zero. */
int64_t pt_steps_mean(__int128 sum, int64_t count);

/*
 * The `steps` view(s): one table for Ascend ranks, one for GPU ranks
 * (*nout is 0, 1 or 2). The tables are named "steps".
 */
int pt_pass_steps(const struct pt_model *m, struct pt_index *x, const struct pt_sel *sel,
		  struct pt_table **out, size_t *nout, struct pt_diag *d, struct pt_err **e);

/*
 * Streaming (pass-steps-stream.c): the steps of a .ptm file (src: a file, not
 * standard input) without holding its events, for a model whose ranks are
 * all Ascend ones (no CPU or GPU device, no host ranges, no launch links).
 * A first read fills *m with the model but its events and scans the events
 * (per device: spans, which hold tasks; per track: the lag of its device
 * tasks, whether it runs a framework-named task); the selection is checked
 * (pt_sel_check_scanned, notes in d) and the steps derived into *si, as
 * pt_steps_collect() would. With figs, a second read sums the device figures
 * of every Ascend rank's steps (breakdown-stream.h): *figs, one per rank of
 * *si. A model that cannot stream is read whole instead: *whole set, *m
 * NULL, 0 returned; the caller runs the in-memory pass on it (after
 * checking the selection). Errors (bad or truncated input, a file that
 * changed between the reads): -1, message in *e naming the file. A tape on
 * src (model/ptm.h, of the event batches alone) is left out of the first
 * read, which stops at a GPU model's first batch; the GPU steps' first read
 * keeps the batches on it (as in pt_steps_gstream_keep), the later ones
 * replay it, and it stays for the caller's reads.
 */
struct pt_ptm_source;
struct pt_steps_figs;
struct pt_gpu_figs;
struct pt_ljoin;
struct pt_lag;
int pt_steps_stream_read(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
			 struct pt_steps_info *si, struct pt_steps_figs **figs, struct pt_gpu_figs ***gfigs,
			 struct pt_model **whole, struct pt_diag *d, struct pt_err **e);
/*
 * What the streamed read of a GPU model keeps for a later pass that reads the
 * file again (`hints`, pass/hints/gstream.c), beside pt_steps_gstream_keep()'s
 * steps: per host (traced process; several only when the caller sets hosts)
 * its launch join filled with every launching call's start, end and name; per track the lag of its activities (GPU tracks) or of its API calls
 * (host tracks), and their counts; what the coverage of the steps needs
 * (pt_steps_gkeep_widen). mark_kernel (set by the caller) marks the devices
 * that run a kernel whose name it accepts (dev_mark, by device index).
 * Asking for it narrows what streams: a model with host ranges is read whole, unless host_ranges.
 */
/* A traced process kept for a later read: its CPU device (PT_NONE: none), its launch join, the calls
 * the links name (their first and last start). */
struct pt_steps_khost {
	uint32_t dev;
	struct pt_ljoin *j;
	bool has_lc;
	int64_t lc_s, lc_e;
};
struct pt_steps_gkeep {
	bool (*mark_kernel)(const char *name);
	/* after the first read, before the second: what the caller takes of the model's tables (its memory
	 * records, which it may then free) */
	void (*tables)(void *arg, struct pt_model *m);
	void *arg;
	/* set by the caller: it takes several hosts (processes), a launch join each */
	bool hosts;
	struct pt_steps_khost *h; /* the hosts, a launch join each (correlation ids are per process) */
	size_t nh;
	struct pt_lag *lag;   /* per track */
	size_t ntrk;
	uint8_t *dev_mark;    /* per device */
	uint64_t *linkbit;    /* per event of the file: an activity a launch link places (NULL: no links) */
	uint64_t nbit;
	/* set by the caller: its own reads take the host's ranges when host_ranges() says so, asked at the
	 * first range of the first read (m: the tables so far); then the ranges do not make the model read
	 * whole, and the lag of a host track (lag) is that of its API calls and ranges together */
	bool (*host_ranges)(void *arg, const struct pt_model *m);
	/* set by tables(): the model is read whole after all */
	bool whole;
	/* set by the caller: its own reads class the kernels launched inside communication host ranges
	 * (summary.md §2.5) through the launch links, or in a file without links of one host by correlation
	 * id; then such ranges do not make the model read whole, and comm says whether the first read met any
	 * (a range named or typed as one; the caller's scan may set it too) */
	bool comm_ranges;
	bool comm;
	/* set by the caller: each batch of the first read before it is taken (the events of the file from
	 * index base, or a batch of range infos with no events) */
	void (*scan)(void *arg, const struct pt_model *m, uint64_t base);
};
void pt_steps_gkeep_free(struct pt_steps_gkeep *k);
/* The host of rank r (its host's, else the first). */
const struct pt_steps_khost *pt_steps_gkeep_host(const struct pt_steps_gkeep *k, const struct pt_rank_steps *r);
/* The most uncompressed event batch bytes the first streamed read of a GPU model keeps on a tape for
 * the later ones (model/ptm.h, pt_ptm_tape, events_only); a caller that brings its own tape sets it. */
#define PT_STEPS_TAPE_MAX (16u << 20)
/* pt_steps_gstream_read() without the steps' figures, keeping *keep for one more read (GPU models:
 * *m set; anything else: *whole, as there). With a tape on src (model/ptm.h, pt_ptm_tape, of the
 * event batches alone), the reads after the first replay it, and it stays for the caller's reads. */
int pt_steps_gstream_keep(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
			  struct pt_steps_info *si, struct pt_steps_gkeep *keep, struct pt_model **whole,
			  struct pt_diag *d, struct pt_err **e);
/* The same of a model of Ascend and GPU data (`hints`): the Ascend ranks in *si as pt_steps_collect()
 * makes them, their coverage measured, their figures the caller's (pt_steps_gstream_mixed). */
int pt_steps_gstream_keep_mixed(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **m,
				struct pt_steps_info *si, struct pt_steps_gkeep *keep, struct pt_model **whole,
				struct pt_diag *d, struct pt_err **e);
/* The coverage of GPU rank r by activity `ev` (the file's event index) at [st, en), launched at call
 * start cs when found, as the streamed steps widen it; then pt_steps_gkeep_covered(r) once all passed. */
void pt_steps_gkeep_widen(const struct pt_steps_gkeep *k, struct pt_rank_steps *r, uint64_t ev, int64_t st,
			  int64_t en, bool found, int64_t cs);
void pt_steps_gkeep_start(const struct pt_steps_gkeep *k, struct pt_rank_steps *r);
void pt_steps_gkeep_covered(struct pt_rank_steps *r);
/* The `steps` view of such a file: pt_pass_steps() over pt_steps_stream_read(), or *whole. */
int pt_pass_steps_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_table **out,
			 size_t *nout, struct pt_model **whole, struct pt_diag *d, struct pt_err **e);

#endif
