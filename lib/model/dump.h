/* The stable text form of a whole model: the oracle of importer tests. */
#ifndef PT_DUMP_H
#define PT_DUMP_H

struct pt_events;
struct pt_model;
struct pt_out;

void pt_model_dump(const struct pt_model *m, struct pt_out *o);
/* The same in three parts, for a dump that streams the events: what comes before the events
 * (sources to stats), the events of ev (a batch of m's), and what comes after them. */
void pt_model_dump_head(const struct pt_model *m, struct pt_out *o);
void pt_model_dump_events(const struct pt_model *m, const struct pt_events *ev, struct pt_out *o);
void pt_model_dump_tail(const struct pt_model *m, struct pt_out *o);
/* The CUPTI side tables that the tail begins with, in its order; pt_model_dump_side prints m's rows of
 * one (for a dump that streams them too: the tail then finds those tables empty). */
enum pt_dump_side {
	PT_DUMP_KERNELS,
	PT_DUMP_COPIES,
	PT_DUMP_LINKS,
	PT_DUMP_SYNCS,
	PT_DUMP_EXT_CORR,
	PT_DUMP_API_CBIDS,
	PT_DUMP_RANGES,
	PT_DUMP_ARGS,
	PT_DUMP_NSIDE
};
void pt_model_dump_side(const struct pt_model *m, enum pt_dump_side t, struct pt_out *o);

#endif
