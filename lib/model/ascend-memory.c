#include "model/ascend-memory.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/xalloc.h"

static int64_t sat(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

void pt_amem_graph_peak(const struct pt_model *m, uint32_t g, struct pt_amem_peak *out)
{
	const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
	out->peak = mg->static_mem;
	out->peak_node = -1;
	out->node = UINT32_MAX;
	size_t nn = 0;
	for (size_t i = 0; i < m->mem_nodes.n; i++)
		nn += m->mem_nodes.v[i].graph == g;
	if (!nn)
		return;
	/* difference array in 128 bits: sizes up to 2^64 add up exactly; the curve is clamped to int64 */
	__int128 *diff = pt_xcalloc(nn + 1, sizeof(*diff));
	for (size_t k = 0; k < m->mem_tensors.n; k++) {
		const struct pt_mem_tensor *t = &m->mem_tensors.v[k];
		if (t->graph != g)
			continue;
		int64_t a = sat(t->life_start), b = sat(t->life_end);
		const char *ll = pt_model_strget(m, t->life_long);
		if (!strcmp(ll, "LifeLongGraphAll")) {
			a = 0;
			b = (int64_t)nn - 1;
		} else if (!strcmp(ll, "LifeLongGraphStart")) {
			a = 0;
		} else if (!strcmp(ll, "LifeLongGraphEnd")) {
			b = (int64_t)nn - 1;
		} else if (strcmp(ll, "LifeLongNone")) {
			continue; /* unknown life_long: ignored */
		}
		if (a > b)
			continue; /* reversed: ignored */
		if (b > (int64_t)nn - 1)
			b = (int64_t)nn - 1; /* past the last node: cut */
		if (a > b)
			continue;
		diff[a] += sat(t->size);
		diff[b + 1] -= sat(t->size);
	}
	__int128 run = mg->static_mem;
	size_t pos = 0;
	for (size_t i = 0; i < m->mem_nodes.n; i++) {
		if (m->mem_nodes.v[i].graph != g)
			continue;
		run += diff[pos];
		int64_t used = run > INT64_MAX ? INT64_MAX : run < INT64_MIN ? INT64_MIN : (int64_t)run;
		if (out->peak_node < 0 || used > out->peak) {
			out->peak = used;
			out->peak_node = (int64_t)pos;
			out->node = (uint32_t)i;
		}
		pos++;
	}
	free(diff);
}

static const char *last_segment(const char *s)
{
	const char *p = strrchr(s, '/');
	return p ? p + 1 : s;
}

bool pt_amem_node_is(const char *task_name, const char *node_name)
{
	return !strcmp(last_segment(task_name), node_name);
}

bool pt_amem_device_peak(const struct pt_model *m, uint32_t dev, struct pt_amem_peak *best, uint32_t *graph,
			 uint64_t *cap)
{
	bool any = false;
	*best = (struct pt_amem_peak){ 0, -1, UINT32_MAX };
	*graph = 0;
	*cap = 0;
	for (uint32_t g = 0; g < m->mem_graphs.n; g++) {
		if (m->mem_graphs.v[g].device != dev)
			continue;
		struct pt_amem_peak pk;
		pt_amem_graph_peak(m, g, &pk);
		if (!any || pk.peak > best->peak) {
			*best = pk;
			*graph = g;
		}
		if (m->mem_graphs.v[g].total_mem > *cap)
			*cap = m->mem_graphs.v[g].total_mem;
		any = true;
	}
	return any;
}

bool pt_amem_node_start(const struct pt_model *m, uint32_t dev, const char *node_name, int64_t *start)
{
	const struct pt_events *ev = &m->events;
	bool found = false;
	uint32_t last = 0;
	bool last_match = false;
	for (size_t k = 0; k < ev->n; k++) {
		if ((ev->kind[k] != PT_EV_TASK && ev->kind[k] != PT_EV_AICPU) || !ev->name[k] ||
		    m->tracks.v[ev->track[k]].device != dev)
			continue;
		if (ev->name[k] != last) {
			last = ev->name[k];
			last_match = pt_amem_node_is(pt_model_strget(m, last), node_name);
		}
		if (last_match && (!found || ev->start[k] < *start)) {
			*start = ev->start[k];
			found = true;
		}
	}
	return found;
}
