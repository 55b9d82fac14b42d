/*
 * Per-rank inputs of an Ascend job that carry their device number in their
 * name (memory_usage_<d>.pb, hccl_info_<d>/): their attachment to the
 * model's devices (the path classifier, classify.c, finds them, one per
 * number).
 */
#ifndef PT_NUMBERED_H
#define PT_NUMBERED_H
#include <stddef.h>
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_model;
struct pt_inputs;

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
int pt_numbered_read_all(struct pt_model *m, const struct pt_inputs *f, int64_t selected, const char *what,
			 pt_numbered_read_fn read, struct pt_diag *diag, struct pt_err **e);

#endif
