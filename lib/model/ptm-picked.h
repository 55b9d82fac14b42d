/*
 * A .ptm model read in one streaming pass (model/ptm.h) that keeps of its
 * events only those a caller picks, batch by batch: for the commands that
 * use a few of the events (dataset: the get_next records; memory on Ascend
 * data: the earliest execution of each task name) and every other part of
 * the model. The CUPTI side tables are checked, not applied (but for those
 * named in keep), since they refer to the file's event indices, which the
 * picked events no longer have.
 */
#ifndef PT_PTM_PICKED_H
#define PT_PTM_PICKED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_events;
struct pt_model;
struct pt_ptm_source;

struct pt_ptm_pick {
	/*
	 * m->events holds one batch, whose first event is the file's event
	 * `first`: append to *kept (pt_ptm_pick_add) or change there the events
	 * to keep. Returns 0, -1 with *e set, or, for the first batch only
	 * (first == 0), PT_PTM_WHOLE: the model is read whole instead (every
	 * event and table, as pt_ptm_read() reads it).
	 */
	int (*batch)(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e);
	void *arg;
	uint8_t keep; /* 0, or PT_PTM_SKIP_BUT_* bits: tables applied all the same */
};

/*
 * Read src keeping the picked events: 0 with *m the model (its events those
 * picked, *whole false; or the whole model, *whole true), or -1 with *e set
 * (*m NULL). A callback returning PT_PTM_WHOLE after the first batch is an
 * error.
 */
int pt_ptm_read_picked(const struct pt_ptm_source *src, const struct pt_ptm_pick *p, struct pt_model **m,
		       bool *whole, struct pt_err **e);
/*
 * A second read of src's event batches alone into m, which
 * pt_ptm_read_picked() filled from src (not whole): m's events become those
 * p picks now (first counts from 0 again; PT_PTM_WHOLE is an error). Every
 * check of the event batches and the footer runs again. 0, or -1 with *e
 * set (m's events then empty).
 */
int pt_ptm_repick(const struct pt_ptm_source *src, const struct pt_ptm_pick *p, struct pt_model *m,
		  struct pt_err **e);
/* Append event i of ev to kept (every column, the sparse ones included). */
void pt_ptm_pick_add(struct pt_events *kept, const struct pt_events *ev, size_t i);
/* Overwrite event k of kept with event i of ev. */
void pt_ptm_pick_set(struct pt_events *kept, size_t k, const struct pt_events *ev, size_t i);

#endif
