/*
 * proftool summary (summary.md): the views device, overview, model,
 * distributed, operator, kernel, memcpy, userdefined, optype, aicpu, gpu
 * and api.
 *
 * The pass builds, per selected view, one data table (the CSV/JSON columns of
 * summary.md §3, with a `rank` column) and one text table per rank in the
 * Paddle style of §5 (title line, right-aligned numbers, blocks
 * "total / avg / max / min / ratio", group title lines and notes).
 */
#ifndef PT_PASS_SUMMARY_H
#define PT_PASS_SUMMARY_H
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pass/select.h"
#include "table/table.h"

struct pt_model;
struct pt_index;
struct pt_err;
struct pt_ptm_source;

/* Views in print order (summary.md §3). */
enum pt_summary_view {
	PT_SV_DEVICE,
	PT_SV_OVERVIEW,
	PT_SV_MODEL,
	PT_SV_DISTRIBUTED,
	PT_SV_OPERATOR,
	PT_SV_KERNEL,
	PT_SV_MEMCPY,
	PT_SV_USERDEFINED,
	PT_SV_OPTYPE,
	PT_SV_AICPU,
	PT_SV_GPU,
	PT_SV_API,
	PT_SV_COUNT,
};
extern const char *const pt_summary_view_names[]; /* indexed by enum pt_summary_view, NULL-terminated */

enum pt_summary_key {
	PT_SK_CPU_TOTAL,
	PT_SK_CPU_AVG,
	PT_SK_CPU_MAX,
	PT_SK_CPU_MIN,
	PT_SK_GPU_TOTAL,
	PT_SK_GPU_AVG,
	PT_SK_GPU_MAX,
	PT_SK_GPU_MIN,
	PT_SK_CALLS,
	PT_SK_NAME,
	PT_SK_DEFAULT, /* cpu-total, gpu-total on Ascend models */
};
extern const char *const pt_summary_keys[]; /* indexed by enum pt_summary_key, NULL-terminated */
/* The --sorted-by values: pt_summary_keys, then the synonyms device-total, device-avg, device-min and
 * device-max of the gpu-* keys (device time of GPU and NPU alike), NULL-terminated. */
extern const char *const pt_summary_key_names[];
/* The key a --sorted-by value names, or -1. */
int pt_summary_key_parse(const char *s);

struct pt_summary_opts {
	unsigned views;              /* bit per enum pt_summary_view */
	enum pt_summary_key key;
	bool reverse;
	int64_t top;                 /* < 0: all rows */
	const regex_t *name_re;      /* --name, NULL = all */
	const regex_t *comm_re;      /* --comm-pattern (case-insensitive), NULL = the name lists of §2.5 */
	int64_t queue_cutoff_ns;     /* hints.launch.queue_delay_us (default 100 us) */
	int64_t runtime_cutoff_ns;   /* hints.launch.runtime_us (default 50 us) */
	bool op_detail, thread_sep, no_demangle;
	enum pt_time_unit unit;      /* text time unit (PT_TU_DEFAULT: auto, each text table picks its own) */
	bool paddle;                 /* text tables in summary.md §5's layout (ms unless unit; 2 decimals) */
	struct pt_sel sel;           /* --device (< 0 = all), --steps, --time-window, --step-pattern */
	bool coverage;               /* ranks whose device data covers part of the kept steps: only the
				      * covered steps stay kept (proftool(1) Coverage; summary, not diff) */
};

void pt_summary_opts_init(struct pt_summary_opts *o);

struct pt_summary_view_out {
	enum pt_summary_view view;
	struct pt_table *data;       /* CSV/JSON rows of every rank */
	struct pt_table **text;      /* two boxed text tables per rank, in print order (NULL or no rows: not
					printed); only the device view fills the second ("device: host CPU") */
	size_t ntext;
};

struct pt_summary {
	struct pt_summary_view_out v[PT_SV_COUNT];
	size_t n;                    /* selected views, in print order */
	uint64_t nesting_violations; /* GPU host ranges that overlap their parent partially (§2.2) */
	unsigned device_kinds;       /* bit per enum pt_device_kind of the model's devices */
	struct pt_sel_found found;   /* what --steps / --time-window found (pt_sel_report) */
	struct pt_summary_cov {      /* ranks whose device data covers part of the kept steps */
		uint32_t rank;
		size_t covered, kept;
		int64_t lo, hi;          /* the covered steps' numbers */
		bool runs;               /* one after another */
		int64_t a, b;            /* the device data, ns after the model's origin (select.h) */
		bool gpu;                /* a GPU rank: [a, b] is the span of its launches */
	} *cov;
	size_t ncov;
};

int pt_pass_summary(const struct pt_model *m, struct pt_index *x, const struct pt_summary_opts *o,
		    struct pt_summary *out, struct pt_err **e);
/*
 * The tables to print, in print order: text, the boxed text tables with rows
 * of every selected view (summary.md §5); otherwise the data table of each
 * (CSV/JSON, §6). *n: their count; free() the array.
 */
struct pt_table **pt_summary_tables(const struct pt_summary *s, bool text, size_t *n);
void pt_summary_free(struct pt_summary *s);

/*
 * The streaming summary (the low-memory path; pt_summary_stream_file() drives
 * it over a .ptm input). It gives the output pt_pass_summary() gives, holding
 * one batch of events at a time: for models with no GPU or host device,
 * every view; for the others, every view but memcpy and gpu, without
 * --steps or --time-window (pt_summary_can_stream), and from an input read
 * as often as needed (pt_summary_stream_rereads) of one process without
 * Ascend devices, also memcpy, gpu, --steps and --time-window (the launch
 * reads: each activity's launching call); all when no
 * GPU or host device has host ranges or only the kernel and api views are
 * asked for without a selection (known at _begin, or at the first batch
 * from TrackEvents: PT_PTM_STOP otherwise), and with host ranges from such an
 * input whose TrackEvents say so, the views the host read sums
 * (stream-host.c; pt_summary_stream_hosts). pt_summary_stream_batch() sees every
 * batch of a streaming read (m->events holds the batch). When the file's
 * TrackEvents say what the summary needs before the first batch (and the
 * distributed view of a model with NPUs, which needs the AI CPU ops first,
 * is not asked for), one
 * read sums them; otherwise the first read only scans them,
 * pt_summary_stream_again() says so, and after pt_summary_stream_begin() a
 * second read (events only) sums them. With the launch reads, the first read
 * always scans, and a read of the calls (pt_summary_stream_seal, then each
 * batch to pt_summary_stream_calls) comes before the summing read, unless
 * the calls can come a batch ahead of the sums in one read
 * (pt_summary_stream_calls_ahead, pt_summary_stream_both). _end()
 * writes the views into out.
 */
struct pt_summary_stream;
bool pt_summary_can_stream(const struct pt_model *m, const struct pt_summary_opts *o);
struct pt_summary_stream *pt_summary_stream_new(const struct pt_summary_opts *o);
/* 0, PT_PTM_STOP when the model cannot be streamed (known at the first batch), -1 with *e set. */
int pt_summary_stream_batch(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);
bool pt_summary_stream_again(const struct pt_summary_stream *s);
/* The input cannot be read twice (a pipe): at the first batch, a model that
 * one read cannot sum makes pt_summary_stream_batch() return PT_PTM_WHOLE
 * instead of asking for a second read or stopping. */
void pt_summary_stream_once(struct pt_summary_stream *s);
/* The input can be read as often as needed (a file): a GPU model may take the launch reads. */
void pt_summary_stream_rereads(struct pt_summary_stream *s);
/* After pt_summary_stream_begin() returned PT_PTM_STOP: a file without TrackEvents whose first read
 * found host ranges that the host read can take, had it gathered what it needs: read it first again,
 * into a new model, with a new stream told so (pt_summary_stream_hosts_known). */
bool pt_summary_stream_rescan(const struct pt_summary_stream *s);
void pt_summary_stream_hosts_known(struct pt_summary_stream *s);
/* The first read's pt_ptm_sink.skip_tables (the launch reads keep the links and copy infos). */
unsigned pt_summary_stream_skip(const struct pt_summary_stream *s);
/* During the first read: are the copy infos the first read keeps for --op-detail's device rows
 * (the host read's) of no use, there being no host read (the caller drops them batch by batch)? */
bool pt_summary_stream_copies_unused(const struct pt_summary_stream *s);
/* After _begin: *calls when a read of the calls must come (the launch reads; m's links are taken);
 * 0, or PT_PTM_STOP when the model cannot stream after all (an activity linked twice). */
int pt_summary_stream_seal(struct pt_summary_stream *s, struct pt_model *m, bool *calls);
/* A batch of the read of the calls (events only); then _calls_end() before the summing read. */
int pt_summary_stream_calls(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);
void pt_summary_stream_calls_end(struct pt_summary_stream *s);
/* The event columns the read of the calls leaves undecoded (PT_PTM_NO_* bits). */
unsigned pt_summary_stream_calls_skip(const struct pt_summary_stream *s);
/* After _seal with *calls: can one read take the calls and the sums (each activity's launching
 * call comes, by the file's launch links, no later than the event batch after the activity's)?
 * Then each batch of that read (events only) goes to _both(), which takes its calls and sums the
 * batch before it (m->events then holds other columns: the reader refills them), and
 * _both_end() after it sums the last. Both return 0, PT_PTM_STOP when the batches are not those
 * of the first read (the file changed), or -1 with *e set. */
bool pt_summary_stream_calls_ahead(const struct pt_summary_stream *s);
int pt_summary_stream_both(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e);
int pt_summary_stream_both_end(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e);
/* 0, PT_PTM_STOP (not streamable; or the distributed view of GPU-kind activities on an NPU, whose
 * classes need the index), or -1 with *e set. */
int pt_summary_stream_begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);
/* After the sums, before _end: under --steps without the launch reads, did a GPU rank's event
 * start where its window ends (then an activity's launching call may be there, out of the window:
 * the caller summarises the model whole)? */
bool pt_summary_stream_unsure(const struct pt_summary_stream *s);
/* A GPU rank with host ranges streamed (stream-host.c): after the read of the calls, a read of the
 * steps (pt_summary_stream_steps, then _steps_end), then _host_begin(), the host read (_hosts_batch,
 * _hosts_end), then the summing read. Where the calls come a batch ahead (_hosts_ahead), the read
 * of the calls keeps none of them: the read of the steps takes them a batch ahead of its own use
 * (m->events holds other columns meanwhile, as with _both), and the summing read is _both's. */
bool pt_summary_stream_hosts(const struct pt_summary_stream *s);
bool pt_summary_stream_hosts_ahead(const struct pt_summary_stream *s);
int pt_summary_stream_steps(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e);
int pt_summary_stream_steps_end(struct pt_summary_stream *s, struct pt_model *m, struct pt_err **e);
int pt_summary_stream_host_begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);
int pt_summary_stream_hosts_batch(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e);
void pt_summary_stream_hosts_end(struct pt_summary_stream *s);
/* 0, or track index + 1 of a track whose TrackEvents the events contradict (then out is empty). */
int pt_summary_stream_end(struct pt_summary_stream *s, struct pt_summary *out);
void pt_summary_stream_free(struct pt_summary_stream *s);
/*
 * Summarise the .ptm input src (a file, or standard input: model/ptm-source.h)
 * by streaming.
 * *streamed false (and 0 returned): the model cannot be streamed; then
 * *whole is the model read whole when the input could not be read again
 * (standard input), else NULL and the caller reads it; either way
 * pt_pass_summary() does the rest. Errors name the input, as a full read does.
 */
int pt_summary_stream_file(const struct pt_ptm_source *src, const struct pt_summary_opts *o, struct pt_summary *out,
			   bool *streamed, struct pt_model **whole, struct pt_err **e);
/*
 * Summarise the model of a streaming import (pt_ptm_spill_start() before
 * pt_import(): a raw PATH) by replaying its events (pt_ptm_spill_replay).
 * *streamed false (and 0 returned): it cannot be streamed; undo the spill
 * (pt_ptm_spill_undo) and call pt_pass_summary() instead.
 */
int pt_summary_stream_import(struct pt_model *m, const struct pt_summary_opts *o, struct pt_summary *out,
			     bool *streamed, struct pt_err **e);

#endif
