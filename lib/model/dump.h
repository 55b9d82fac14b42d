/* The stable text form of a whole model: the oracle of importer tests. */
#ifndef PT_DUMP_H
#define PT_DUMP_H

struct pt_model;
struct pt_out;

void pt_model_dump(const struct pt_model *m, struct pt_out *o);

#endif
