/*
 * GPU memory counter series (cupti.md §6.11, chrome-trace.md §7): the values
 * of each counter group of a GPU device after every MEMORY2 or MEMORY_POOL
 * record that changes one of them, in the replay order of model/gpu-memory.h
 * (time, releases and pool records before allocations at equal times, then
 * dump order). Shared derived data: the memory counters of `proftool
 * timeline` and the reserved-bytes peak of `proftool memory` in a window.
 *
 * Groups, in this order (a group without a sample is left out):
 *  - PT_GMS_MEMORY "Memory": allocated_bytes (the device group's open blocks)
 *    and reserved_bytes (open device blocks from no pool plus the current
 *    size of every LOCAL pool of the device);
 *  - PT_GMS_MANAGED "Managed memory", PT_GMS_PINNED "Pinned memory":
 *    allocated_bytes;
 *  - PT_GMS_POOL "Memory pool 0x<address>" per pool (process, address), in
 *    first-seen order: size_bytes and utilized_bytes, from the pool's
 *    MEMORY_POOL records (creation, trims, destruction: 0 and 0) and the
 *    MEMORY2 records of blocks from it (memoryPoolConfig). A pool's first
 *    observation is always a sample.
 * Every sample carries all the series of its group. Allocated and reserved
 * bytes are the replay's own (struct pt_gmem_row); pool sizes follow the
 * replay's rules for LOCAL pools.
 */
#ifndef PT_GPU_MEMORY_SERIES_H
#define PT_GPU_MEMORY_SERIES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/vec.h"

struct pt_model;

enum pt_gms_kind { PT_GMS_MEMORY, PT_GMS_MANAGED, PT_GMS_PINNED, PT_GMS_POOL };

struct pt_gms_group {
	enum pt_gms_kind kind;
	uint32_t pid;           /* PT_GMS_POOL: the pool's process */
	uint64_t pool;          /* PT_GMS_POOL: the pool's address */
	size_t nseries;         /* 2 for Memory and pools, 1 otherwise */
	const char *series[2];  /* "allocated_bytes", "reserved_bytes", "size_bytes", "utilized_bytes" */
	char *name;             /* "Memory", "Managed memory", "Pinned memory", "Memory pool 0x7f10..." */
	PT_VEC(int64_t) time;   /* sample times */
	PT_VEC(int64_t) val;    /* nseries values per sample */
};

struct pt_gms {
	struct pt_gms_group *g;
	size_t n;
};

/*
 * Build the groups of GPU device index dev. coalesce: samples at equal times
 * are merged into one (the last values win) and a sample equal to the
 * previous one is dropped, so that times are strictly increasing per group
 * (chrome-trace.md §7); otherwise one sample per record that changes a value.
 */
void pt_gms_build(const struct pt_model *m, uint32_t dev, bool coalesce, struct pt_gms *out);
/*
 * The same without keeping the samples (coalesce false): each sample is
 * handed to fn as it comes, in time order per group (g: its group, valid
 * during the call; v: its g->nseries values); out's groups keep only their
 * last sample. What it holds: the replay's blocks (and the device's sorted
 * records, unless shared), no row or sample per record (memory's window peaks).
 */
typedef void pt_gms_sample_fn(void *ctx, const struct pt_gms_group *g, int64_t t, const int64_t *v);
struct pt_gmem_state;
/* like: NULL, or a replay state of device dev whose sorted records are shared (it must outlive the call) */
void pt_gms_build_fn(const struct pt_model *m, uint32_t dev, const struct pt_gmem_state *like, pt_gms_sample_fn *fn,
		     void *ctx, struct pt_gms *out);
void pt_gms_free(struct pt_gms *s);

#endif
