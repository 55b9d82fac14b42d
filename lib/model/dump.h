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

#endif
