/*
 * GPU memory replay (cupti.md §6.11): the MEMORY2 and MEMORY_POOL records of
 * a device in time order (releases before allocations at equal times), with
 * the allocated bytes per memory group, the reserved bytes, pools and peaks
 * after every record. Derived data shared by the memory pass and by the
 * CUPTI importer's memory counter tracks.
 */
#ifndef PT_GPU_MEMORY_H
#define PT_GPU_MEMORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "support/hashmap.h"

static inline int64_t pt_gmem_sat(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

enum pt_gmem_group { PT_GMEM_DEVICE = 0, PT_GMEM_MANAGED = 1, PT_GMEM_PINNED = 2, PT_GMEM_OTHER = 3, PT_GMEM__N };

/* Group of a CUpti_ActivityMemoryKind, and the groups' names. */
enum pt_gmem_group pt_gmem_group_of(unsigned mem_kind);
extern const char *const pt_gmem_group_names[PT_GMEM__N];

/*
 * One step of the GPU replay of a device (records by time, releases before
 * allocations at equal times, then dump order): after MEMORY2 record `rec`
 * (index into the model's MEMORY2 rows, gpu-mem-pack.h) the group's allocated bytes and, for the device
 * group, the reserved bytes.
 */
struct pt_gmem_point {
	uint32_t rec;
	enum pt_gmem_group group;
	int64_t time;
	int64_t allocated, reserved; /* reserved: -1 outside the device group */
};

/*
 * Replay the MEMORY2 and MEMORY_POOL records of GPU device index dev and call
 * fn for every MEMORY2 record that opens or closes a block (pool records
 * change the reserved bytes seen by the next call, without a call of their own).
 */
void pt_gmem_replay(const struct pt_model *m, uint32_t dev,
			  void (*fn)(void *ctx, const struct pt_gmem_point *p), void *ctx);


struct pt_gmem_item {
	int64_t time;
	uint8_t cls;   /* 0 release or pool record, 1 allocation */
	uint8_t pool;  /* 1 = MEMORY_POOL record */
	uint32_t idx;
};


struct pt_gmem_u32vec {
	uint32_t *v;
	size_t n, cap;
};

struct pt_gmem_block {
	uint32_t rec;
	bool open;
};

struct pt_gmem_pool {
	uint32_t pid;
	uint64_t address;
	uint8_t type;
	bool seen_created, destroyed;
	int64_t created, destroyed_at;
	uint64_t threshold, initial, size, max, utilized;
	int64_t max_time;
	int64_t growths, trims;
	bool has_size;
};

enum { PT_GMEM_EV_CREATED, PT_GMEM_EV_GROWTH, PT_GMEM_EV_TRIM, PT_GMEM_EV_DESTROYED };
extern const char *const pt_gmem_pool_ev_names[4];

struct pt_gmem_pool_ev {
	uint32_t pool;
	uint8_t what;
	int64_t time;
	uint64_t size, utilized, min_keep;
};

enum { PT_GMEM_RS_ALLOC, PT_GMEM_RS_RELEASE, PT_GMEM_RS_UNMATCHED, PT_GMEM_RS_IGNORED };

struct pt_gmem_row { /* one MEMORY2 record after replay */
	uint32_t rec;
	uint8_t what;       /* RS_* */
	int64_t allocated;  /* of the record's group, after it */
	int64_t reserved;   /* device group: after it; -1 otherwise */
	__int128 nonpool;   /* device group: bytes outside LOCAL pools after it, exact (sizes saturated
			     * to int64 each; allocated and reserved are clamped to int64) */
};

struct pt_gmem_state {
	uint32_t dev;
	struct pt_gmem_item *items;
	size_t nitems;
	bool items_borrowed; /* items are another state's (pt_gmem_state_init_like) */
	PT_VEC(struct pt_gmem_row) rows;
	PT_VEC(struct pt_gmem_pool) pools;
	PT_VEC(struct pt_gmem_pool_ev) pevs;
	int64_t allocs[PT_GMEM__N], releases[PT_GMEM__N];
	int64_t unmatched[PT_GMEM__N], mismatch[PT_GMEM__N], over_open[PT_GMEM__N];
	int64_t peak[PT_GMEM__N], peak_time[PT_GMEM__N];
	size_t peak_pos[PT_GMEM__N];  /* item position of the first record reaching the peak */
	bool has_peak[PT_GMEM__N];
	int64_t rpeak, rpeak_time;
	bool has_rpeak;
	int64_t live_end[PT_GMEM__N], live_bytes_end[PT_GMEM__N];
	bool any[PT_GMEM__N];
	/* when set, a full run hands each row to row_fn as it comes (rec: its
	 * record, valid during the call) instead of keeping it in rows */
	void (*row_fn)(void *ctx, const struct pt_gmem_row *row, const struct pt_gpu_mem *rec);
	void *row_ctx;
};


void pt_gmem_state_init(const struct pt_model *m, uint32_t dev, struct pt_gmem_state *r);
/* A state for another replay of the same device as r, sharing r's items
 * (r must outlive it): no second sort, no second copy. */
void pt_gmem_state_init_like(const struct pt_gmem_state *r, struct pt_gmem_state *out);
void pt_gmem_state_free(struct pt_gmem_state *r);
void pt_gmem_state_run(const struct pt_model *m, struct pt_gmem_state *r, bool full, size_t stop, int snap_group,
		       struct pt_gmem_u32vec *open_out);

/*
 * The same replay a few items at a time, for a caller that takes the rows
 * when it needs them (row_fn set): begin, then pt_gmem_run_some() (false
 * when no item is left), then end (snap_group and open_out as in
 * pt_gmem_state_run(), after the items run so far).
 */
struct pt_gmem_run {
	bool full;
	size_t pos;                 /* the next item */
	struct pt_hashmap open, pm; /* block keys -> blocks index + 1; pool keys -> pools index + 1 */
	PT_VEC(struct pt_gmem_block) blocks;
	struct pt_gpu_mem_cursor ic, bc; /* the records in item order, the blocks' records */
	__int128 alloc[PT_GMEM__N], nonpool, local_sum;
	__int128 peak[PT_GMEM__N], rpeak; /* exact values of r->peak and r->rpeak */
};
void pt_gmem_run_begin(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, bool full);
bool pt_gmem_run_some(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, size_t n);
void pt_gmem_run_end(const struct pt_model *m, struct pt_gmem_state *r, struct pt_gmem_run *x, int snap_group,
		     struct pt_gmem_u32vec *open_out);

#endif
