/* Ascend HCCL trace data (ascend.md §2.10): discovery and reading. */
#ifndef PT_IMPORT_ASCEND_HCCL_H
#define PT_IMPORT_ASCEND_HCCL_H
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_import_opts;
struct pt_inputs;
struct pt_model;

/* 0 and the number when base is "hccl_info_<d>", else -1. */
int pt_hccl_dir_number(const char *base, uint32_t *number);
/* Read one hccl_info_<d> directory into device index dev. A file that is not an HCCL trace is fatal. */
int pt_hccl_read_dir(struct pt_model *m, uint32_t dev, const char *dir, struct pt_diag *diag, struct pt_err **e);
/* The importer (registered after the Ascend job importer, format "ascend"). */
int pt_import_ascend_hccl(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
			  struct pt_diag *diag, struct pt_err **e);

#endif
