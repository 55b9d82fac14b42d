/*
 * The table of known CUPTI record layouts (cupti.md §3.2-§3.6): for each
 * activity kind, the fields proftool knows with their offsets, sizes and
 * roles, and the struct sizes each version range writes. The importer, the
 * generator and the collector's pointer rewrite all read this one table; no
 * CUPTI header is involved.
 */
#ifndef PT_CUPTI_LAYOUTS_H
#define PT_CUPTI_LAYOUTS_H
#include <stdbool.h>
#include <stdint.h>

enum pt_cl_role {
	PT_CL_NUM = 0,  /* number or enum */
	PT_CL_TIME = 1, /* u64 ns timestamp */
	PT_CL_STR = 2,  /* pointer slot: string id */
	PT_CL_BLOB = 3, /* pointer slot: blob id */
	PT_CL_ZERO = 4, /* pointer slot: zeroed */
	PT_CL_OBJID = 5,/* 12-byte CUpti_ActivityObjectKindId */
	PT_CL_BYTES = 6,/* raw bytes (uuid) */
};

enum { PT_CL_F_13_ONLY = 1, PT_CL_F_SIGNED = 2 };

struct pt_cl_field {
	const char *name;
	uint16_t off;
	uint8_t size;     /* 1, 2, 4, 8, 12, 16 */
	uint8_t role;     /* enum pt_cl_role */
	uint16_t min_size;/* the field exists in structs of at least this size (0: off + size) */
	uint8_t flags;    /* PT_CL_F_* */
	uint16_t blob_len;/* PT_CL_BLOB: bytes behind the pointer */
};

enum pt_cl_range { PT_CL_R12 = 0, PT_CL_R13 = 1, PT_CL_R_NONE = -1 };

struct pt_cl_layout {
	uint32_t kind;
	int range;          /* enum pt_cl_range */
	uint32_t size;      /* the struct's sizeof = the stride */
	const char *strct;  /* CUPTI struct name without CUpti_Activity */
	uint32_t struct_version;
	uint32_t dflt_min, dflt_max; /* CUPTI versions for which the generator's `kinds default` picks it */
};

/* The kind's name as in cupti.md §3.3 ("CONCURRENT_KERNEL"), or NULL. */
const char *pt_cl_kind_name(uint32_t kind);
/* Kind value of a name (case-insensitive), or 0. */
uint32_t pt_cl_kind_by_name(const char *name);
/* The range of a CUPTI version (19-28 -> 12.x, 130000-130099 -> 13.0), or PT_CL_R_NONE. */
int pt_cl_range_of(uint32_t version);
/* Fields of a kind (NULL-name terminated), or NULL when the kind is not decoded. */
const struct pt_cl_field *pt_cl_fields(uint32_t kind);
/* Does the field exist in a struct of `size` bytes of `range`? */
bool pt_cl_field_in(const struct pt_cl_field *f, uint32_t size, int range);
/* A field of a kind by name, or NULL. */
const struct pt_cl_field *pt_cl_field(uint32_t kind, const char *name);
/*
 * The layout for (version, kind, stride). Returns NULL and sets *why to 1 when
 * no entry of the kind exists for the version, 2 when entries exist but none
 * has that size ("layout mismatch").
 */
const struct pt_cl_layout *pt_cl_find(uint32_t version, uint32_t kind, uint32_t stride, int *why);
/* The struct the generator's `kinds default` writes for (version, kind), or NULL. */
const struct pt_cl_layout *pt_cl_default(uint32_t version, uint32_t kind);
/* A layout of the kind's range by struct name ("Device5"), or NULL. */
const struct pt_cl_layout *pt_cl_by_struct(uint32_t version, uint32_t kind, const char *strct);
/* All layouts (terminated by kind 0) and the kinds decoded (terminated by 0). */
extern const struct pt_cl_layout pt_cl_layouts[];
extern const uint32_t pt_cl_decoded_kinds[];
/* Probed 13.0 strides of kinds not decoded (cupti.md §3.3), 0 = unknown. */
uint32_t pt_cl_other_stride(uint32_t kind);

#endif
