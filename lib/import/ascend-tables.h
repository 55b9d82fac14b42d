/*
 * Code tables of the Ascend framework files (ascend.md §2.3, §2.4): VM data
 * types in the old (2020) and new (MindSpore >= 1.0, binary era) numbering,
 * GE data types and formats (text era, ge backend) and the binary-era
 * formats. Every lookup returns a static string, "UNKNOWN" for codes outside
 * the table.
 */
#ifndef PT_ASCEND_TABLES_H
#define PT_ASCEND_TABLES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/ascend.h"

enum { PT_DTYPE_TABLE_OLD = 1, PT_DTYPE_TABLE_NEW = 2 };

/* VM data type name of `code` in `table` (PT_DTYPE_TABLE_OLD or _NEW). */
const char *pt_ascend_vm_dtype(int code, int table);
/* GE data type name (DT_...). */
const char *pt_ascend_ge_dtype(int code);
/* GE format name (FORMAT_...). */
const char *pt_ascend_ge_format(int code);
/* Binary-era format name; `code` already reduced by 200 when >= 200. */
const char *pt_ascend_bin_format(int code);
/* Binary-era codes >= 200 have 200 subtracted. */
static inline int pt_ascend_bin_code(unsigned code)
{
	return (int)(code >= 200 ? code - 200 : code);
}

/*
 * Helpers shared by the two framework readers.
 */

/* Short op name (ascend.md §3.4): no subgraph (first segment Default or
 * Gradients): the full name; vm: the last '/' segment; ge: the last segment
 * of each part after "<subgraph>/", joined with '+'. Returns a string id. */
uint32_t pt_ascend_short_name(struct pt_model *m, const char *name, size_t len, bool ge);

/* Bind the task (stream, task) of `era` to op: d->task_op entry and the op's
 * key text. Returns true when the key named another op before (ambiguous
 * join): the last binding wins and the key leaves the other op's list. */
bool pt_ascend_bind_task(struct pt_model *m, struct pt_ascend_dev *d, enum pt_ascend_era era, uint32_t stream,
			 uint64_t task, uint32_t op);

/* Replace a device string field with a copy of v. */
void pt_ascend_set_str(char **field, const char *v);

/* Unsigned decimal of exactly n bytes (no sign, no spaces); false if not. */
bool pt_ascend_parse_u64(const char *s, size_t n, uint64_t *v);
/* Signed decimal of exactly n bytes; false if not. */
bool pt_ascend_parse_i64(const char *s, size_t n, int64_t *v);

#endif
