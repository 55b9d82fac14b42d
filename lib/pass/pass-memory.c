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

#include "model/gpu-mem-pack.h"
#include "model/gpu-memory-series.h"
#include "model/gpu-memory.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm-picked.h"
#include "model/ptm-source.h"
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
	if (!m->mem_graphs.n && !pt_model_gpu_mem_n(m) && !m->gpu_pools.n)
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

/* What the selection's checks read of one batch (struct pt_mem_pick's found). */
static void scan_sel(struct pt_mem_pick *p, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		int64_t s = ev->start[i], e = s + ev->dur[i];
		if (!p->has_ev || s < p->ev_s)
			p->ev_s = s;
		if (!p->has_ev || e > p->ev_e)
			p->ev_e = e;
		p->has_ev = true;
		if (ev->kind[i] == PT_EV_RANGE && p->re)
			pt_sel_found_range(p->found, p->re, pt_model_strget(m, ev->name[i]));
	}
}

int pt_pass_memory_pick(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e)
{
	(void)e;
	struct pt_mem_pick *p = arg;
	if (!p->at) {
		p->at = pt_xmalloc(sizeof(*p->at));
		pt_hashmap_init(p->at);
	}
	p->batches++;
	if (!first && !p->stage)
		for (size_t d = 0; d < m->devices.n; d++)
			p->gpu |= m->devices.v[d].kind == PT_DEV_GPU;
	if (p->gpu && p->once)
		return PT_PTM_WHOLE;
	if (p->found && !p->stage)
		scan_sel(p, m);
	if (p->gpu && !p->stage)
		return 0; /* the second read picks */
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (k == PT_EV_API && p->corr) {
			if (ev->corr[i] && pt_hashmap_get(p->corr, ev->corr[i]))
				pt_ptm_pick_add(kept, ev, i);
			continue;
		}
		if (k == PT_EV_RANGE && p->stage) {
			pt_xgrow((void **)&p->rfile, &p->rcap, p->nr + 1, sizeof(*p->rfile));
			p->rkept = pt_xrealloc(p->rkept, p->rcap * sizeof(*p->rkept));
			p->rfile[p->nr] = first + i;
			p->rkept[p->nr++] = (uint32_t)kept->n;
			pt_ptm_pick_add(kept, ev, i);
			continue;
		}
		if ((k != PT_EV_TASK && k != PT_EV_AICPU) || !ev->name[i])
			continue;
		uint64_t key = (uint64_t)m->tracks.v[ev->track[i]].device << 32 | ev->name[i];
		bool added;
		uint64_t *x = pt_hashmap_put(p->at, key, kept->n, &added);
		if (added)
			pt_ptm_pick_add(kept, ev, i);
		else if (ev->start[i] < kept->start[*x])
			pt_ptm_pick_set(kept, (size_t)*x, ev, i);
	}
	return 0;
}

bool pt_pass_memory_pick_again(struct pt_mem_pick *p, const struct pt_model *m)
{
	if (!p->gpu || !p->batches || (!m->mem_graphs.n && !pt_model_gpu_mem_n(m) && !m->gpu_pools.n))
		return false; /* every event read already, or none needed: no memory data, or no event */
	p->corr = pt_xmalloc(sizeof(*p->corr));
	pt_hashmap_init(p->corr);
	bool added;
	struct pt_model_gpu_mem_heads h;
	struct pt_gpu_mem_head x;
	pt_model_gpu_mem_heads_init(&h, m);
	while (pt_model_gpu_mem_heads_next(&h, &x))
		if (x.corr)
			pt_hashmap_put(p->corr, x.corr, 1, &added);
	for (size_t i = 0; i < m->gpu_pools.n; i++)
		if (m->gpu_pools.v[i].corr)
			pt_hashmap_put(p->corr, m->gpu_pools.v[i].corr, 1, &added);
	pt_hashmap_free(p->at);
	pt_hashmap_init(p->at);
	p->stage = 1;
	return true;
}

/* The kept index of the range event of file index f, or -1. */
static int64_t range_kept(const struct pt_mem_pick *p, uint64_t f)
{
	size_t lo = 0, hi = p->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->rfile[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nr && p->rfile[lo] == f ? (int64_t)p->rkept[lo] : -1;
}

void pt_pass_memory_pick_end(struct pt_mem_pick *p, struct pt_model *m)
{
	size_t n = 0;
	for (size_t i = 0; m && p->stage && i < m->ranges.n; i++) {
		struct pt_range_info r = m->ranges.v[i];
		int64_t k = range_kept(p, r.event);
		if (k < 0)
			continue;
		int64_t pk = r.parent ? range_kept(p, r.parent - 1) : -1;
		r.event = (uint32_t)k;
		r.parent = pk < 0 ? 0 : (uint32_t)pk + 1;
		m->ranges.v[n++] = r;
	}
	if (m)
		m->ranges.n = n;
	if (p->at)
		pt_hashmap_free(p->at);
	if (p->corr)
		pt_hashmap_free(p->corr);
	free(p->at);
	free(p->corr);
	free(p->rfile);
	free(p->rkept);
	memset(p, 0, sizeof(*p));
}

/* Every source of m a Kineto trace, whose importer writes no memory record. */
static bool kineto_only(const struct pt_model *m)
{
	for (size_t i = 0; i < m->sources.n; i++)
		if (!m->sources.v[i].importer || strcmp(m->sources.v[i].importer, "kineto"))
			return false;
	return m->sources.n > 0;
}

#define PROBE_STOP 3 /* (another model: the read stops at its first event batch) */

static int probe_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	int *state = arg;
	if (!*state)
		*state = kineto_only(m) ? 1 : 2;
	return *state == 1 ? 0 : PROBE_STOP;
}

int pt_pass_memory_probe(const struct pt_ptm_source *src, bool *none, struct pt_err **e)
{
	*none = false;
	int state = 0;
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink sink = { probe_batch, &state, false, PT_PTM_SKIP_BUT_GPU_MEM | PT_PTM_PACK_GPU_MEM };
	int rc = pt_ptm_source_read_cols(src, m, &sink, PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP |
								PT_PTM_NO_TASK, e);
	if (!rc && state != 2)
		*none = !m->mem_graphs.n && !pt_model_gpu_mem_n(m) && !m->gpu_pools.n;
	pt_model_free(m);
	return rc == PROBE_STOP ? 0 : rc < 0 ? -1 : rc;
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
