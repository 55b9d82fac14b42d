/* A .ptm model read in one streaming pass keeping only the events a caller picks (see ptm-picked.h). */
#include "model/ptm-picked.h"

#include <string.h>

#include "model/model.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "support/err.h"

struct picking {
	const struct pt_ptm_pick *p;
	struct pt_events kept;
	uint64_t seen; /* events of the batches before this one */
	bool whole;
	bool again; /* pt_ptm_repick */
};

static int on_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct picking *s = arg;
	uint64_t first = s->seen;
	s->seen += m->events.n;
	int rc = s->p->batch(s->p->arg, m, first, &s->kept, e);
	if (rc == PT_PTM_WHOLE) {
		if (first || s->again)
			return pt_err(e, "a picking read asked for the whole model after its first event batch");
		s->whole = true;
	}
	return rc;
}

void pt_ptm_pick_set(struct pt_events *kept, size_t k, const struct pt_events *ev, size_t i)
{
	kept->track[k] = ev->track[i];
	kept->name[k] = ev->name[i];
	kept->kind[k] = ev->kind[i];
	kept->start[k] = ev->start[i];
	kept->dur[k] = ev->dur[i];
	/* the sparse columns: written once dense in either */
	if ((ev->dense & PT_EVCOL_CORR && ev->corr[i]) || (kept->dense & PT_EVCOL_CORR)) {
		kept->dense |= PT_EVCOL_CORR;
		kept->corr[k] = ev->corr[i];
	}
	if ((ev->dense & PT_EVCOL_OP && ev->op[i]) || (kept->dense & PT_EVCOL_OP)) {
		kept->dense |= PT_EVCOL_OP;
		kept->op[k] = ev->op[i];
	}
	if ((ev->dense & PT_EVCOL_TASK && ev->task[i]) || (kept->dense & PT_EVCOL_TASK)) {
		kept->dense |= PT_EVCOL_TASK;
		kept->task[k] = ev->task[i];
	}
}

void pt_ptm_pick_add(struct pt_events *kept, const struct pt_events *ev, size_t i)
{
	pt_events_reserve(kept, kept->n + 1);
	pt_ptm_pick_set(kept, kept->n++, ev, i);
}

int pt_ptm_read_picked(const struct pt_ptm_source *src, const struct pt_ptm_pick *p, struct pt_model **mp,
		       bool *whole, struct pt_err **e)
{
	struct picking s;
	memset(&s, 0, sizeof(s));
	s.p = p;
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink sink = { on_batch, &s, false, (uint8_t)(1 | p->keep) };
	int rc = pt_ptm_source_read(src, m, &sink, e);
	if (rc > 0 && rc != PT_PTM_WHOLE) /* a skipping read never stops */
		rc = pt_err(e, "'%s': cannot be read as a stream", pt_ptm_source_name(src));
	*whole = rc == PT_PTM_WHOLE;
	if (rc == PT_PTM_WHOLE) {
		rc = 0;
	} else if (!rc) {
		pt_events_free_columns(&m->events);
		m->events = s.kept;
		memset(&s.kept, 0, sizeof(s.kept));
	}
	pt_events_free_columns(&s.kept);
	if (rc) {
		pt_model_free(m);
		m = NULL;
		rc = -1;
	}
	*mp = m;
	return rc;
}

int pt_ptm_repick(const struct pt_ptm_source *src, const struct pt_ptm_pick *p, struct pt_model *m,
		  struct pt_err **e)
{
	struct picking s;
	memset(&s, 0, sizeof(s));
	s.p = p;
	s.again = true;
	pt_events_free_columns(&m->events);
	memset(&m->events, 0, sizeof(m->events));
	struct pt_ptm_sink sink = { on_batch, &s, true, 1 };
	int rc = pt_ptm_source_read(src, m, &sink, e);
	if (rc > 0) /* PT_PTM_STOP cannot come with skipped tables; a callback's value */
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	pt_events_free_columns(&m->events);
	memset(&m->events, 0, sizeof(m->events));
	if (!rc) {
		m->events = s.kept;
		memset(&s.kept, 0, sizeof(s.kept));
	}
	pt_events_free_columns(&s.kept);
	return rc ? -1 : 0;
}
