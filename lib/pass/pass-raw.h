/* Raw tables of the model, for `proftool export --table T`. */
#ifndef PT_PASS_RAW_H
#define PT_PASS_RAW_H
#include <stdbool.h>
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_cell;
struct pt_table;

/* The names --table accepts, NULL-terminated. */
extern const char *const pt_raw_tables[];

/* Build raw table `name`; device: an Ascend/GPU device id to keep, -1 = all. */
int pt_pass_raw(const struct pt_model *m, const char *name, int64_t device, struct pt_table **out,
		struct pt_err **e);

/* Per track of m, the rank of its stream among all tracks' streams (the event tables' row order
 * after device and start; for pt_pass_raw_stream); an array of m->tracks.n to free. */
uint32_t *pt_raw_stream_ranks(const struct pt_model *m);

/* The api or kernels table's columns, without rows (for pt_pass_raw_stream). */
struct pt_table *pt_raw_cupti_head(bool api);
/* The tasks or ops table's columns, without rows (for pt_pass_raw_stream). */
struct pt_table *pt_raw_tasks_head(bool ops_only);

/*
 * The api, kernels, tasks or ops table (device: as pt_pass_raw() takes it) of a .ptm
 * file (a source that can be read again) streamed: its rows, in the order
 * pt_pass_raw() gives them (device index, start, thread or stream, model
 * order), go to row() one at a time (cells valid during the call) without
 * the model's events being held. A first read checks the whole file,
 * measures each track's order and keeps the kernel infos before any row goes
 * out; then one read per device with rows. Rows wait in a heap only until no
 * track of their device can still deliver an earlier one. 0, or -1 with *e
 * set (then before any row, unless the file changed between the reads).
 * With d, a device that the model does not have is a warning in d (pt_sel_check).
 */
struct pt_ptm_source;
struct pt_diag;
int pt_pass_raw_stream(const struct pt_ptm_source *src, const char *table, int64_t device, struct pt_diag *d,
		       void (*row)(void *arg, const struct pt_cell *cells), void *arg, struct pt_err **e);

#endif
