/*
 * The benchmark view (`proftool perf`, summary.md §10): per rank, over the
 * kept steps after --skip-steps, batch cost (the step's wall time), reader
 * cost (data wait: the Dataloader ranges anchored in the step on GPU data,
 * the iteration interval on Ascend data), throughput and the reader ratio.
 */
#ifndef PT_PASS_PERF_H
#define PT_PASS_PERF_H
#include <stdbool.h>
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_model;
struct pt_sel;
struct pt_table;

struct pt_perf_opts {
	int64_t batch_size; /* samples per step, 0 = unknown (steps mode) */
	int64_t skip_steps; /* kept steps skipped first */
};

/* Columns of the `perf` table. */
enum { PT_PERF_RANK, PT_PERF_METRIC, PT_PERF_UNIT, PT_PERF_COUNT, PT_PERF_AVG, PT_PERF_MIN, PT_PERF_MAX };

/*
 * The `perf` table: per rank the rows reader_cost and batch_cost (unit ns,
 * integer; avg rounded half away from zero), ips (steps/s or samples/s,
 * 5 decimals) and reader_ratio (pct, avg only). Cells that do not exist are
 * null.
 */
int pt_pass_perf(const struct pt_model *m, const struct pt_sel *sel, const struct pt_perf_opts *o,
		 struct pt_table **out, struct pt_diag *d, struct pt_err **e);
/*
 * The same over a .ptm file read as a stream (pt_steps_stream_read): one
 * read, no event held. A model it cannot stream is read whole into *whole
 * instead (0 returned, *out NULL): run pt_pass_perf() on it.
 */
struct pt_ptm_source;
int pt_pass_perf_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_perf_opts *o,
			struct pt_table **out, struct pt_model **whole, struct pt_diag *d, struct pt_err **e);

/* Its text layout (Paddle's timer) is printed by pt_export_perf_text(). */

#endif
