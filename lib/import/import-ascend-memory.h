/* Ascend memory-usage files (ascend.md §2.12): discovery and reading. */
#ifndef PT_IMPORT_ASCEND_MEMORY_H
#define PT_IMPORT_ASCEND_MEMORY_H
#include <stdint.h>

struct pt_diag;
struct pt_err;
struct pt_import_opts;
struct pt_inputs;
struct pt_model;

/* Stream (track key) of the "Memory" counter track of a device. */
#define PT_MEMORY_COUNTER_STREAM (-10)

/* 0 and the number when base is "memory_usage_<d>.pb", else -1. */
int pt_memory_file_number(const char *base, uint32_t *number);
/* Read one file into device index dev. A file that does not parse is fatal. */
int pt_memory_read_file(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag, struct pt_err **e);
/* The importer (registered beside the MindData importer, format "minddata"). */
int pt_import_ascend_memory(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
			    struct pt_diag *diag, struct pt_err **e);

#endif
