/*
 * `proftool memory` (private to its files): pass-memory.c runs the views,
 * pass-memory-ascend.c makes the Ascend memory-usage views (ascend.md §3.13),
 * pass-memory-gpu.c the CUPTI GPU memory views (cupti.md §6.11).
 */
#ifndef PT_PASS_MEMORY_INT_H
#define PT_PASS_MEMORY_INT_H
#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "pass/pass-memory.h"
#include "support/xalloc.h"
#include "table/table.h"

struct pt_err;

static inline const char *mem_kind_name(unsigned k)
{
	static const char *const kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					     "Array",   "Managed",  "Device Static", "Managed Static" };
	return k < 8 ? kinds[k] : "Unrecognized";
}

static inline const char *last_segment(const char *s)
{
	const char *p = strrchr(s, '/');
	return p ? p + 1 : s;
}

static inline bool keep_dev(const struct pt_model *m, uint32_t dev, int64_t device)
{
	return device < 0 || (int64_t)m->devices.v[dev].id == device;
}

static inline void col(struct pt_table *t, const char *name, enum pt_col_type type, enum pt_col_role role)
{
	pt_table_add_col(t, name, type, role, 0);
}

static inline void set_s(struct pt_table *t, size_t r, size_t c, const char *s)
{
	pt_table_set_str(t, r, c, s, strlen(s));
}

/* An exact 128-bit sum of memory sizes, clamped to int64 (as the importer's
 * counter curve, import-ascend-memory.c: sizes reach 2^64 and static memory ±2^63). */
static inline int64_t clamp64(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static inline void set_hex(struct pt_table *t, size_t r, size_t c, uint64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "0x%" PRIx64, v);
	pt_table_set_strdup(t, r, c, b, (size_t)n);
}


/* Append table t to the views (*tv)[0, *nt). */
#define PUSH(t) do { *tv = pt_xrealloc(*tv, (*nt + 1) * sizeof(**tv)); (*tv)[(*nt)++] = (t); } while (0)

/* The Ascend views; -1 when `at` names no node of a kept graph (pass-memory-ascend.c). */
int pt_mem_ascend_views(const struct pt_model *m, enum pt_mem_by by, int64_t device, const char *at_node,
			struct pt_table ***tv, size_t *nt, struct pt_err **e);
/* The GPU views (pass-memory-gpu.c), --time-window from the model's origin (pt_index_origin). */
void pt_mem_gpu_views(const struct pt_model *m, const struct pt_mem_opts *o, const regex_t *step_re,
		      struct pt_table ***tv, size_t *nt);

#endif
