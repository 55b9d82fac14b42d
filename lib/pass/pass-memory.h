/*
 * `proftool memory`: memory usage (ascend.md §3.13 for Ascend memory_usage
 * files, cupti.md §6.11 for CUPTI MEMORY2 / MEMORY_POOL records).
 *
 * Views by mode (Ascend views first, then GPU views; a view is left out when
 * the model holds no data for it):
 *  - PT_MEM_BY_POOL (default): memory_model (per device), memory_graphs
 *    (per graph: capacity, static, peak and its node, allocations, releases),
 *    memory_holders (the tensors holding memory at each graph's peak, or at
 *    the node of pt_mem_opts.at);
 *    gpu_memory_peaks (per device and group), gpu_memory_outstanding (the
 *    blocks open at each peak, with their launching host call),
 *    gpu_memory_pools (per pool) and gpu_memory_pool_events (creation,
 *    growths, trims, destruction).
 *  - PT_MEM_BY_OP: memory_nodes (one row per node) and gpu_memory_calls
 *    (allocations per launching host call).
 *  - PT_MEM_BY_TIME: memory_curve and gpu_memory_timeline.
 */
#ifndef PT_PASS_MEMORY_H
#define PT_PASS_MEMORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/gpu-memory.h"
#include "pass/select.h"

struct pt_err;
struct pt_model;
struct pt_table;

enum pt_mem_by { PT_MEM_BY_POOL = 0, PT_MEM_BY_OP = 1, PT_MEM_BY_TIME = 2 };

struct pt_diag;

struct pt_mem_opts {
	enum pt_mem_by by;
	/*
	 * Ascend, PT_MEM_BY_POOL: memory_holders at this node of every graph
	 * instead of at each graph's peak: a node index (decimal), else a node
	 * name (its first position in the graph). NULL = at the peak.
	 */
	const char *at;
	/*
	 * sel.device: a device id to keep, -1 = all.
	 * GPU views: keep what happens in a window of record times. --steps A-B
	 * (the host step ranges of the device's process, numbered by the digits
	 * after their last '#', matching sel.step_pattern; the window runs from the
	 * first kept step's start to the last one's end) and --time-window
	 * (ns relative to the model's origin, select.h); both: their intersection. The figures are those of the
	 * window: counts of its records, the peak over the value carried in at
	 * its start and the values after its records, the blocks open at its end.
	 * Ascend memory graphs are one allocation plan, the same in every step:
	 * the filters leave their views whole (a note in diag says so).
	 */
	struct pt_sel sel;        /* --device, --steps, --time-window, --step-pattern */
	struct pt_diag *diag;     /* notes; may be NULL */
	/*
	 * The model's origin (pt_model_origin) when has_origin, for a model
	 * whose events are not all held (a streamed read keeps some of them):
	 * else the origin of m's own events.
	 */
	bool has_origin;
	int64_t origin;
};

void pt_mem_opts_init(struct pt_mem_opts *o);

/* Build the views. Fails when the model holds no memory data, or --at names no node. */
int pt_pass_memory_ex(const struct pt_model *m, const struct pt_mem_opts *o, struct pt_table ***tables,
		      size_t *ntables, struct pt_err **e);
/* The same with the defaults of pt_mem_opts_init() but `by` and `device`. */
int pt_pass_memory(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tables,
		   size_t *ntables, struct pt_err **e);

/*
 * The events the views read (model/ptm-picked.h), for reads that keep no
 * other. The Ascend views read, per device and task name (PT_EV_TASK and
 * PT_EV_AICPU events with a name), the execution that starts first (as
 * pt_amem_node_start() does). The GPU views read the host calls that the
 * memory records name by correlation id and the host ranges (the steps and
 * the ranges around a call), but these records come after the events: a
 * model with a GPU device is read twice. The first read (stage 0) keeps no
 * event and the records (PT_PTM_SKIP_BUT_GPU_MEM, PT_PTM_SKIP_BUT_RANGES);
 * pt_pass_memory_pick_again() then says whether a second read
 * (pt_ptm_repick, stage 1) must take the events, and
 * pt_pass_memory_pick_end() renumbers the range infos after it. A source
 * read once (once) with a GPU device is read whole (PT_PTM_WHOLE).
 * arg: a struct pt_mem_pick, zeroed but for once.
 */
struct pt_events;
struct pt_mem_pick {
	bool once;              /* the source cannot be read twice */
	bool gpu;               /* the model has a GPU device (stage 0 found) */
	uint64_t batches;       /* event batches seen (none: no event was dropped) */
	int stage;
	struct pt_hashmap *at;  /* (device << 32 | name) -> index in the kept events */
	struct pt_hashmap *corr; /* stage 1: the correlation ids of the memory records */
	/* stage 1: the range events kept, file index and index in the kept events, ascending */
	uint64_t *rfile;
	uint32_t *rkept;
	size_t nr, rcap;
	/*
	 * What the selection's checks read of the events (pt_sel_check_scanned),
	 * gathered in the first read when found is set: every host range, in the
	 * file's order, through pt_sel_found_range(found, re) (re NULL: no valid
	 * pattern, no range is given), and the events' first start and last end.
	 */
	struct pt_sel_found *found;
	const regex_t *re;
	bool has_ev;
	int64_t ev_s, ev_e;
};
int pt_pass_memory_pick(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e);
/* After stage 0: does the model need a second read (then stage 1, for pt_ptm_repick)? */
bool pt_pass_memory_pick_again(struct pt_mem_pick *p, const struct pt_model *m);
/* After the read(s): the range infos renumbered to the kept events (without a second read, dropped); p freed. */
void pt_pass_memory_pick_end(struct pt_mem_pick *p, struct pt_model *m);

/*
 * Does the model file src surely hold no memory data (what pt_pass_memory_ex()
 * reads: Ascend memory graphs, CUPTI memory records or pools)? For a caller
 * about to make a costlier read first (the steps, for --steps). A model whose
 * every source is a Kineto trace (an importer that writes no memory record) is
 * read to its end keeping no event, and decoding of the events only the columns
 * every read checks (every check of a full read runs): *none where it holds no
 * such record; of any other model the read stops at the first event batch
 * (*none false: it may hold some). 0, or -1 with *e set. Not for a source read
 * once.
 */
struct pt_ptm_source;
int pt_pass_memory_probe(const struct pt_ptm_source *src, bool *none, struct pt_err **e);

/*
 * `proftool export --table tensors` (ascend.md §3.13): every tensor of every
 * Ascend memory graph (device id to keep, -1 = all) with its source node and
 * the node index range it occupies after the lifetime rules (first_index,
 * last_index; empty when the tensor occupies none, range_status says why).
 * The holders at index i are the rows with first_index <= i <= last_index.
 */
struct pt_table *pt_pass_memory_tensors(const struct pt_model *m, int64_t device);

#endif
