/* Raw tables of the model, for `proftool export --table T`. */
#ifndef PT_PASS_RAW_H
#define PT_PASS_RAW_H
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_table;

/* The names --table accepts, NULL-terminated. */
extern const char *const pt_raw_tables[];

/* Build raw table `name`; device: an Ascend/GPU device id to keep, -1 = all. */
int pt_pass_raw(const struct pt_model *m, const char *name, int64_t device, struct pt_table **out,
		struct pt_err **e);

#endif
