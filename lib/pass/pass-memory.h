/*
 * `proftool memory`: memory usage (ascend.md §3.13 for Ascend memory_usage
 * files, cupti.md §6.11 for CUPTI MEMORY2 / MEMORY_POOL records).
 *
 * Views by mode (Ascend views first, then GPU views; a view is left out when
 * the model holds no data for it):
 *  - PT_MEM_BY_POOL (default): memory_model (per device), memory_graphs
 *    (per graph: capacity, static, peak and its node, allocations, releases),
 *    memory_holders (the tensors holding memory at each graph's peak);
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
#include "model/gpu-memory.h"
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_table;

enum pt_mem_by { PT_MEM_BY_POOL = 0, PT_MEM_BY_OP = 1, PT_MEM_BY_TIME = 2 };

/* GPU memory groups (cupti.md §6.11). */
/* Build the views. device: a device id to keep, -1 = all. Fails when the model holds no memory data. */
int pt_pass_memory(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tables,
		   size_t *ntables, struct pt_err **e);

#endif
