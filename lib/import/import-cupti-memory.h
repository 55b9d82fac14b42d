/*
 * Decoding CUPTI MEMORY2 and MEMORY_POOL records (cupti.md §3.4, §3.6) into
 * the model's memory rows; the CUPTI importer maps the time, the device and
 * the string ids and appends them.
 */
#ifndef PT_IMPORT_CUPTI_MEMORY_H
#define PT_IMPORT_CUPTI_MEMORY_H
#include <stdint.h>

#include "model/model.h"

struct pt_cl_layout;

struct pt_cupti_mem {
	uint32_t cuda_device;   /* deviceId as recorded */
	uint64_t ts;            /* raw timestamp, 0 = untimed */
	uint64_t name_id, source_id; /* MEMORY2 string ids, 0 = none */
	struct pt_gpu_mem mem;  /* kind MEMORY2: every field but device, time, name, source */
	struct pt_gpu_pool pool;/* kind MEMORY_POOL: every field but device, time */
};

/* Decode one record of kind 49 or 50 laid out as `lay` (CUPTI range `range`). */
void pt_cupti_mem_decode(uint32_t kind, const struct pt_cl_layout *lay, int range, const uint8_t *r,
			 struct pt_cupti_mem *out);


/*
 * Counter tracks of the GPU devices' memory (chrome-trace.md §7): per device
 * with MEMORY2 records, the PT_TRACK_COUNTER tracks "Memory#allocated_bytes"
 * and "Memory#reserved_bytes" (device group), "Managed memory#allocated_bytes"
 * and "Pinned memory#allocated_bytes" when such allocations exist; one sample
 * per change (cupti.md §6.11 replay). Devices that already have them are
 * left alone.
 */
void pt_cupti_mem_counters(struct pt_model *m);

#endif
