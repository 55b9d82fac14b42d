/*
 * `proftool memory` views (see pass-memory.h): Ascend memory-usage graphs
 * (ascend.md §3.13, pass-memory-ascend.c) and CUPTI GPU memory (cupti.md
 * §6.11, pass-memory-gpu.c).
 */
#include "pass/pass-memory.h"
#include "pass/pass-memory-int.h"


#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-memory-series.h"
#include "model/gpu-memory.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm-picked.h"
#include "model/ptm.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/names.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

void pt_mem_opts_init(struct pt_mem_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->by = PT_MEM_BY_POOL;
	pt_sel_init(&o->sel);
}

int pt_pass_memory_ex(const struct pt_model *m, const struct pt_mem_opts *o, struct pt_table ***tables,
		      size_t *ntables, struct pt_err **e)
{
	*tables = NULL;
	*ntables = 0;
	if (!m->mem_graphs.n && !m->gpu_mem.n && !m->gpu_pools.n)
		return pt_err_nodata(e, "memory", -1,
				     "Ascend memory_usage_<d>.pb (--minddata DIR) or CUPTI MEMORY2/MEMORY_POOL records");
	if (o->at && !m->mem_graphs.n)
		return pt_err(e, "--at selects a node of an Ascend memory graph; the model has none");
	regex_t re;
	char msg[128];
	if (pt_sel_step_re(&o->sel, &re, msg, sizeof(msg)))
		return pt_err(e, "invalid step pattern '%s': %s", o->sel.step_pattern ? o->sel.step_pattern : "", msg);
	if ((o->sel.steps_given || o->sel.window_given) && m->mem_graphs.n && o->diag)
		pt_diag_note(o->diag, "--steps and --time-window do not apply to Ascend memory graphs (one allocation "
				      "plan per graph, the same in every step): their views are whole");
	int rc = pt_mem_ascend_views(m, o->by, o->sel.device, o->at, tables, ntables, e);
	if (!rc)
		pt_mem_gpu_views(m, o, &re, tables, ntables);
	regfree(&re);
	for (size_t i = 0; !rc && i < *ntables; i++)
		if (!(*tables)[i]->nrows) {
			char why[160];
			pt_table_set_empty((*tables)[i], pt_sel_empty_reason(&o->sel, "memory records", why, sizeof(why)));
		}
	if (!rc && !*ntables)
		rc = pt_err_nodata(e, "memory", o->sel.device,
				   "Ascend memory_usage_<d>.pb (--minddata DIR) or CUPTI MEMORY2/MEMORY_POOL records");
	if (rc) {
		for (size_t i = 0; i < *ntables; i++)
			pt_table_free((*tables)[i]);
		free(*tables);
		*tables = NULL;
		*ntables = 0;
	}
	return rc;
}

int pt_pass_memory_pick(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e)
{
	(void)e;
	struct pt_mem_pick *p = arg;
	if (!first)
		for (size_t d = 0; d < m->devices.n; d++)
			if (m->devices.v[d].kind == PT_DEV_GPU)
				return PT_PTM_WHOLE;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if ((ev->kind[i] != PT_EV_TASK && ev->kind[i] != PT_EV_AICPU) || !ev->name[i])
			continue;
		uint64_t key = (uint64_t)m->tracks.v[ev->track[i]].device << 32 | ev->name[i];
		bool added;
		uint64_t *k = pt_hashmap_put(p->at, key, kept->n, &added);
		if (added)
			pt_ptm_pick_add(kept, ev, i);
		else if (ev->start[i] < kept->start[*k])
			pt_ptm_pick_set(kept, (size_t)*k, ev, i);
	}
	return 0;
}

int pt_pass_memory(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tables,
		   size_t *ntables, struct pt_err **e)
{
	struct pt_mem_opts o;
	pt_mem_opts_init(&o);
	o.by = by;
	o.sel.device = device;
	return pt_pass_memory_ex(m, &o, tables, ntables, e);
}
