/*
 * Per-rank inputs of an Ascend job that carry their device number in their
 * name (memory_usage_<d>.pb, hccl_info_<d>/): the set found under the import
 * paths, and their attachment to the model's devices.
 */
#ifndef PT_NUMBERED_H
#define PT_NUMBERED_H
#include <stddef.h>
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_model;

struct pt_numbered {
	char *path;
	uint32_t number;
};

struct pt_numbered_set {
	struct pt_numbered *v;
	size_t n, cap;
};

/* Add path with its number; a second path of the same number is skipped with
 * the warning `dup_warning`. */
void pt_numbered_add(struct pt_numbered_set *f, const char *path, uint32_t number, const char *dup_warning,
		     struct pt_diag *diag);
void pt_numbered_free(struct pt_numbered_set *f);

typedef int (*pt_numbered_read_fn)(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag,
				   struct pt_err **e);

/*
 * Read every entry of f into its device: when the model has exactly one
 * Ascend device and f one entry, into that device whatever its number (a note
 * says so when the numbers differ; `what` names the input in it); otherwise
 * into the NPU device of the entry's number, skipping (with a warning) entries
 * of a device other than `selected` (>= 0). Returns 0 when at least one entry
 * was read, 1 when none was (nothing importable), -1 on an error in *e.
 */
int pt_numbered_read_all(struct pt_model *m, const struct pt_numbered_set *f, int64_t selected, const char *what,
			 pt_numbered_read_fn read, struct pt_diag *diag, struct pt_err **e);

#endif
