/* `proftool memory`: the Ascend memory-usage views (ascend.md §3.13; see pass-memory-int.h). */
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
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/names.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

/* ================================================================ Ascend (§3.13) */

enum life { L_NONE, L_ALL, L_START, L_END, L_UNKNOWN };

static enum life life_of(const char *s)
{
	if (!strcmp(s, "LifeLongNone"))
		return L_NONE;
	if (!strcmp(s, "LifeLongGraphAll"))
		return L_ALL;
	if (!strcmp(s, "LifeLongGraphStart"))
		return L_START;
	if (!strcmp(s, "LifeLongGraphEnd"))
		return L_END;
	return L_UNKNOWN;
}

struct agraph {
	uint32_t g;
	size_t *nodes, nn;    /* mem_nodes indexes, execution order */
	size_t *tens, nt;     /* mem_tensors indexes, file order */
	int64_t *a, *b;       /* per tensor (parallel to tens): occupied index range, a > b = none */
	int64_t *used;        /* the curve, nn points (summed exactly, clamped to int64) */
	int64_t peak;
	int64_t peak_node;    /* -1 without nodes */
	int64_t *src;         /* per tensor: source node position, -1 none */
	int64_t *src_out;     /* its output index */
	uint8_t *note;        /* per tensor: enum range_note */
};

/* What §3.13's lifetime rules made of a tensor's range (export --table tensors, range_status). */
enum range_note { RN_OK, RN_CUT, RN_REVERSED, RN_PAST_END, RN_UNKNOWN_LIFE, RN_NO_NODES };
static const char *const range_notes[] = { "ok", "cut", "reversed", "past_end", "unknown_life_long", "no_nodes" };

static void agraph_free(struct agraph *ag)
{
	free(ag->nodes);
	free(ag->tens);
	free(ag->a);
	free(ag->b);
	free(ag->used);
	free(ag->src);
	free(ag->src_out);
	free(ag->note);
}

static void agraph_build(const struct pt_model *m, uint32_t g, struct agraph *ag)
{
	memset(ag, 0, sizeof(*ag));
	ag->g = g;
	const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
	for (size_t i = 0; i < m->mem_nodes.n; i++)
		if (m->mem_nodes.v[i].graph == g)
			ag->nn++;
	for (size_t i = 0; i < m->mem_tensors.n; i++)
		if (m->mem_tensors.v[i].graph == g)
			ag->nt++;
	ag->nodes = pt_xmalloc((ag->nn + 1) * sizeof(size_t));
	ag->tens = pt_xmalloc((ag->nt + 1) * sizeof(size_t));
	ag->nn = ag->nt = 0;
	for (size_t i = 0; i < m->mem_nodes.n; i++)
		if (m->mem_nodes.v[i].graph == g)
			ag->nodes[ag->nn++] = i;
	for (size_t i = 0; i < m->mem_tensors.n; i++)
		if (m->mem_tensors.v[i].graph == g)
			ag->tens[ag->nt++] = i;
	size_t nn = ag->nn, nt = ag->nt;
	ag->a = pt_xmalloc((nt + 1) * sizeof(int64_t));
	ag->b = pt_xmalloc((nt + 1) * sizeof(int64_t));
	ag->src = pt_xmalloc((nt + 1) * sizeof(int64_t));
	ag->src_out = pt_xmalloc((nt + 1) * sizeof(int64_t));
	ag->note = pt_xcalloc(nt + 1, 1);
	ag->used = pt_xcalloc(nn + 1, sizeof(int64_t));
	__int128 *diff = pt_xcalloc(nn + 1, sizeof(*diff)); /* the difference array, exact */
	/* tensor id -> tensor position (the last one, when ids repeat) */
	struct pt_hashmap byid;
	pt_hashmap_init(&byid);
	for (size_t k = 0; k < nt; k++) {
		const struct pt_mem_tensor *t = &m->mem_tensors.v[ag->tens[k]];
		bool added;
		*pt_hashmap_put(&byid, t->id, 0, &added) = k;
		ag->src[k] = ag->src_out[k] = -1;
		ag->a[k] = 1;
		ag->b[k] = 0;
		if (!nn) {
			ag->note[k] = RN_NO_NODES;
			continue;
		}
		int64_t a = (int64_t)(t->life_start > (uint64_t)INT64_MAX ? INT64_MAX : t->life_start);
		int64_t b = (int64_t)(t->life_end > (uint64_t)INT64_MAX ? INT64_MAX : t->life_end);
		switch (life_of(pt_model_strget(m, t->life_long))) {
		case L_ALL:
			a = 0;
			b = (int64_t)nn - 1;
			break;
		case L_START:
			a = 0;
			break;
		case L_END:
			b = (int64_t)nn - 1;
			break;
		case L_NONE:
			break;
		default:
			ag->note[k] = RN_UNKNOWN_LIFE;
			continue; /* unknown: ignored */
		}
		if (a > b) {
			ag->note[k] = RN_REVERSED;
			continue; /* reversed: ignored */
		}
		if (b > (int64_t)nn - 1) {
			b = (int64_t)nn - 1;
			ag->note[k] = RN_CUT;
		}
		if (a > b) {
			ag->note[k] = RN_PAST_END; /* the whole range lies past the last node */
			continue;
		}
		ag->a[k] = a;
		ag->b[k] = b;
		diff[a] += pt_gmem_sat(t->size);
		diff[b + 1] -= pt_gmem_sat(t->size);
	}
	__int128 run = mg->static_mem, peak = run;
	ag->peak_node = -1;
	for (size_t i = 0; i < nn; i++) {
		run += diff[i];
		ag->used[i] = clamp64(run);
		if (ag->peak_node < 0 || run > peak) {
			peak = run;
			ag->peak_node = (int64_t)i;
		}
	}
	ag->peak = clamp64(peak);
	free(diff);
	/* source nodes: the last node listing the tensor among its outputs */
	for (size_t i = 0; i < nn; i++) {
		const struct pt_mem_node *nd = &m->mem_nodes.v[ag->nodes[i]];
		for (uint32_t j = 0; j < nd->nout; j++) {
			uint64_t *k = pt_hashmap_get(&byid, m->mem_ids.v[nd->out0 + j]);
			if (k) {
				ag->src[*k] = (int64_t)i;
				ag->src_out[*k] = j;
			}
		}
	}
	pt_hashmap_free(&byid);
}

/* Per device: last name segment (string id) -> first op full name, and -> first execution start. */
struct adev {
	struct pt_hashmap full;  /* segment sid -> op name sid + 1 */
	struct pt_hashmap start; /* segment sid -> (start + offset) as u64, present = has one */
};

static void adev_build(const struct pt_model *m, uint32_t dev, struct adev *ad)
{
	pt_hashmap_init(&ad->full);
	pt_hashmap_init(&ad->start);
	for (size_t i = 0; i < m->ops.n; i++) {
		const struct pt_op *op = &m->ops.v[i];
		if (op->device != dev || !op->name)
			continue;
		const char *full = pt_model_strget(m, op->name);
		const char *ls = last_segment(full);
		if (ls == full)
			continue; /* "ends in /<node_name>" */
		uint32_t sid = pt_strtab_find(&m->strings, ls, strlen(ls));
		if (sid == UINT32_MAX)
			continue;
		bool added;
		uint64_t *v = pt_hashmap_put(&ad->full, sid, op->name + 1ull, &added);
		(void)v;
	}
	struct pt_hashmap seg;
	pt_hashmap_init(&seg);
	const struct pt_events *ev = &m->events;
	for (size_t k = 0; k < ev->n; k++) {
		if ((ev->kind[k] != PT_EV_TASK && ev->kind[k] != PT_EV_AICPU) || !ev->name[k])
			continue;
		if (m->tracks.v[ev->track[k]].device != dev)
			continue;
		bool added;
		uint64_t *sv = pt_hashmap_put(&seg, ev->name[k], 0, &added);
		if (added) {
			const char *ls = last_segment(pt_model_strget(m, ev->name[k]));
			uint32_t sid = pt_strtab_find(&m->strings, ls, strlen(ls));
			*sv = sid == UINT32_MAX ? 0 : sid + 1ull;
		}
		if (!*sv)
			continue;
		uint64_t *st = pt_hashmap_put(&ad->start, *sv - 1, (uint64_t)ev->start[k], &added);
		if (!added && (int64_t)*st > ev->start[k])
			*st = (uint64_t)ev->start[k];
	}
	pt_hashmap_free(&seg);
}

static void adev_free(struct adev *ad)
{
	pt_hashmap_free(&ad->full);
	pt_hashmap_free(&ad->start);
}

struct holder {
	size_t k; /* tensor position */
	uint64_t size, id;
};

static int cmp_holder(const void *x, const void *y)
{
	const struct holder *a = x, *b = y;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Position of node `at` in a graph (a decimal index, else the first node of that name), -1 when none. */
static int64_t node_at(const struct pt_model *m, const struct agraph *ag, const char *at)
{
	size_t n = strlen(at), k = 0;
	while (k < n && at[k] >= '0' && at[k] <= '9')
		k++;
	if (n && k == n) {
		uint64_t v = 0;
		for (k = 0; k < n; k++) {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(at[k] - '0');
		}
		return v < ag->nn ? (int64_t)v : -1;
	}
	for (size_t i = 0; i < ag->nn; i++)
		if (!strcmp(pt_model_strget(m, m->mem_nodes.v[ag->nodes[i]].name), at))
			return (int64_t)i;
	return -1;
}

/* The Ascend views; -1 when `at` names no node of a kept graph. */
int pt_mem_ascend_views(const struct pt_model *m, enum pt_mem_by by, int64_t device, const char *at_node,
			struct pt_table ***tv, size_t *nt, struct pt_err **e)
{
	int rc = 0;
	size_t ng = m->mem_graphs.n;
	struct agraph *ags = pt_xcalloc(ng + 1, sizeof(*ags));
	bool *keep = pt_xcalloc(ng + 1, sizeof(*keep));
	size_t nkeep = 0;
	for (size_t g = 0; g < ng; g++) {
		keep[g] = keep_dev(m, m->mem_graphs.v[g].device, device);
		if (keep[g]) {
			agraph_build(m, (uint32_t)g, &ags[g]);
			nkeep++;
		}
	}
	if (!nkeep)
		goto out;
	if (by == PT_MEM_BY_POOL) {
		/* model (per device) */
		struct pt_table *t = pt_table_new("memory_model", "Memory usage per device (Ascend memory_usage)");
		col(t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "capacity_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "static_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "graphs", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "releases", PT_COL_INT, PT_ROLE_VALUE);
		for (size_t d = 0; d < m->devices.n; d++) {
			bool any = false;
			int64_t pk = 0, al = 0, ngr = 0;
			__int128 st = 0;
			uint64_t cap = 0;
			for (size_t g = 0; g < ng; g++) {
				if (!keep[g] || m->mem_graphs.v[g].device != d)
					continue;
				const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
				if (!any || ags[g].peak > pk)
					pk = ags[g].peak;
				any = true;
				st += mg->static_mem;
				al += (int64_t)ags[g].nt;
				cap = mg->total_mem;
				ngr++;
			}
			if (!any)
				continue;
			size_t r = pt_table_add_row(t);
			pt_table_set_int(t, r, 0, m->devices.v[d].id);
			pt_table_set_int(t, r, 1, pt_gmem_sat(cap));
			pt_table_set_int(t, r, 2, clamp64(st));
			pt_table_set_int(t, r, 3, pk);
			pt_table_set_int(t, r, 4, ngr);
			pt_table_set_int(t, r, 5, al);
			pt_table_set_int(t, r, 6, al);
		}
		PUSH(t);
		t = pt_table_new("memory_graphs", "Memory usage per graph");
		col(t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "graph_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "capacity_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "static_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "peak_node_index", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "peak_node_name", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "releases", PT_COL_INT, PT_ROLE_VALUE);
		for (size_t g = 0; g < ng; g++) {
			if (!keep[g])
				continue;
			const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
			const struct agraph *ag = &ags[g];
			size_t r = pt_table_add_row(t);
			pt_table_set_int(t, r, 0, m->devices.v[mg->device].id);
			pt_table_set_int(t, r, 1, mg->graph_id);
			pt_table_set_int(t, r, 2, pt_gmem_sat(mg->total_mem));
			pt_table_set_int(t, r, 3, mg->static_mem);
			pt_table_set_int(t, r, 4, ag->peak);
			if (ag->peak_node >= 0) {
				pt_table_set_int(t, r, 5, ag->peak_node);
				set_s(t, r, 6, pt_model_strget(m, m->mem_nodes.v[ag->nodes[ag->peak_node]].name));
			}
			pt_table_set_int(t, r, 7, (int64_t)ag->nt);
			pt_table_set_int(t, r, 8, (int64_t)ag->nt);
		}
		PUSH(t);
		if (at_node) {
			char *title = pt_xasprintf("Tensors holding memory at node %s of each graph", at_node);
			t = pt_table_new("memory_holders", title);
			free(title);
		} else {
			t = pt_table_new("memory_holders", "Tensors holding memory at each graph's peak");
		}
		bool found = false;
		col(t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "graph_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "node_index", PT_COL_INT, PT_ROLE_KEY);
		col(t, "tensor_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "tensor_name", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "source_node", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "size_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "type", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "life_long", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "life_start", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "life_end", PT_COL_INT, PT_ROLE_VALUE);
		/* text without --wide: the tensor, its size and lifetime; the ids,
		 * the source node (the name's head) and the kinds are detail columns */
		static const char *const shown[] = { "device_id", "graph_id", "tensor_name", "size_bytes",
						     "life_start", "life_end", NULL };
		pt_table_set_default_cols(t, shown);
		for (size_t g = 0; g < ng; g++) {
			if (!keep[g])
				continue;
			const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
			const struct agraph *ag = &ags[g];
			int64_t at = at_node ? node_at(m, ag, at_node) : ag->peak_node;
			if (at < 0)
				continue;
			found = true;
			struct holder *hs = pt_xmalloc((ag->nt + 1) * sizeof(*hs));
			size_t nh = 0;
			for (size_t k = 0; k < ag->nt; k++)
				if (ag->a[k] <= at && at <= ag->b[k]) {
					const struct pt_mem_tensor *x = &m->mem_tensors.v[ag->tens[k]];
					hs[nh++] = (struct holder){ k, x->size, x->id };
				}
			pt_sort(hs, nh, sizeof(*hs), cmp_holder);
			for (size_t h = 0; h < nh; h++) {
				size_t k = hs[h].k;
				const struct pt_mem_tensor *x = &m->mem_tensors.v[ag->tens[k]];
				size_t r = pt_table_add_row(t);
				pt_table_set_int(t, r, 0, m->devices.v[mg->device].id);
				pt_table_set_int(t, r, 1, mg->graph_id);
				pt_table_set_int(t, r, 2, at);
				pt_table_set_int(t, r, 3, pt_gmem_sat(x->id));
				if (ag->src[k] >= 0) {
					const char *sn = pt_model_strget(m, m->mem_nodes.v[ag->nodes[ag->src[k]]].name);
					char *nm = pt_xasprintf("%s:%" PRId64, sn, ag->src_out[k]);
					pt_table_set_strdup(t, r, 4, nm, strlen(nm));
					free(nm);
					set_s(t, r, 5, sn);
				}
				pt_table_set_int(t, r, 6, pt_gmem_sat(x->size));
				set_s(t, r, 7, pt_model_strget(m, x->type));
				set_s(t, r, 8, pt_model_strget(m, x->life_long));
				pt_table_set_int(t, r, 9, pt_gmem_sat(x->life_start));
				pt_table_set_int(t, r, 10, pt_gmem_sat(x->life_end));
			}
			free(hs);
		}
		PUSH(t);
		if (at_node && !found)
			rc = pt_err(e, "no memory graph%s has a node '%s' (a node index or name)",
				    device >= 0 ? " of the device" : "", at_node);
	} else {
		bool op = by == PT_MEM_BY_OP;
		struct pt_table *t = op ? pt_table_new("memory_nodes", "Memory per node (execution order)")
					: pt_table_new("memory_curve", "Memory curve over execution order");
		col(t, "device_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "graph_id", PT_COL_INT, PT_ROLE_KEY);
		col(t, "node_index", PT_COL_INT, PT_ROLE_KEY);
		if (op)
			col(t, "node_id", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "node_name", PT_COL_STR, PT_ROLE_LABEL);
		if (op)
			col(t, "full_name", PT_COL_STR, PT_ROLE_LABEL);
		col(t, "used_bytes", PT_COL_INT, PT_ROLE_VALUE);
		if (op) {
			col(t, "change_bytes", PT_COL_INT, PT_ROLE_VALUE);
			col(t, "alloc_bytes", PT_COL_INT, PT_ROLE_VALUE);
			col(t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		} else {
			col(t, "start", PT_COL_TIME, PT_ROLE_VALUE);
		}
		/* text without --wide: the node and the memory it leaves in use; the
		 * ids, the full name and the allocation counts are detail columns */
		static const char *const shown[] = { "device_id", "graph_id", "node_index", "node_name",
						     "used_bytes", "change_bytes", "start", NULL };
		pt_table_set_default_cols(t, shown);
		uint32_t last_dev = PT_NONE;
		struct adev ad;
		bool have_ad = false;
		for (size_t g = 0; g < ng; g++) {
			if (!keep[g])
				continue;
			const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
			const struct agraph *ag = &ags[g];
			if (mg->device != last_dev) {
				if (have_ad)
					adev_free(&ad);
				adev_build(m, mg->device, &ad);
				have_ad = true;
				last_dev = mg->device;
			}
			/* tensor id -> size (the last one) for alloc_bytes */
			struct pt_hashmap sz;
			pt_hashmap_init(&sz);
			if (op)
				for (size_t k = 0; k < ag->nt; k++) {
					const struct pt_mem_tensor *x = &m->mem_tensors.v[ag->tens[k]];
					bool added;
					*pt_hashmap_put(&sz, x->id, 0, &added) = x->size;
				}
			for (size_t i = 0; i < ag->nn; i++) {
				const struct pt_mem_node *nd = &m->mem_nodes.v[ag->nodes[i]];
				size_t r = pt_table_add_row(t);
				size_t c = 0;
				pt_table_set_int(t, r, c++, m->devices.v[mg->device].id);
				pt_table_set_int(t, r, c++, mg->graph_id);
				pt_table_set_int(t, r, c++, (int64_t)i);
				if (op)
					pt_table_set_int(t, r, c++, pt_gmem_sat(nd->node_id));
				set_s(t, r, c++, pt_model_strget(m, nd->name));
				if (op) {
					uint64_t *fv = pt_hashmap_get(&ad.full, nd->name);
					if (fv)
						set_s(t, r, c, pt_model_strget(m, (uint32_t)(*fv - 1)));
					c++;
				}
				pt_table_set_int(t, r, c++, ag->used[i]);
				if (op) {
					pt_table_set_int(t, r, c++,
							 clamp64((__int128)ag->used[i] - (i ? ag->used[i - 1] : mg->static_mem)));
					/* distinct ids among outputs and (deduplicated) workspaces */
					__int128 bytes = 0;
					int64_t cnt = 0;
					uint32_t n = nd->nout + nd->nws;
					for (uint32_t j = 0; j < n; j++) {
						uint64_t id = j < nd->nout ? m->mem_ids.v[nd->out0 + j]
									   : m->mem_ids.v[nd->ws0 + j - nd->nout];
						bool dup = false;
						for (uint32_t q = 0; q < j && !dup; q++)
							dup = (q < nd->nout ? m->mem_ids.v[nd->out0 + q]
									    : m->mem_ids.v[nd->ws0 + q - nd->nout]) == id;
						if (dup)
							continue;
						cnt++;
						uint64_t *s = pt_hashmap_get(&sz, id);
						if (s)
							bytes += pt_gmem_sat(*s);
					}
					pt_table_set_int(t, r, c++, clamp64(bytes));
					pt_table_set_int(t, r, c++, cnt);
				} else {
					uint64_t *st = pt_hashmap_get(&ad.start, nd->name);
					if (st)
						pt_table_set_int(t, r, c, (int64_t)*st);
					c++;
				}
			}
			pt_hashmap_free(&sz);
		}
		if (have_ad)
			adev_free(&ad);
		PUSH(t);
	}
out:
	for (size_t g = 0; g < ng; g++)
		if (keep[g])
			agraph_free(&ags[g]);
	free(ags);
	free(keep);
	return rc;
}

/* `export --table tensors` (ascend.md §3.13): every tensor with its occupied index range. */
struct pt_table *pt_pass_memory_tensors(const struct pt_model *m, int64_t device)
{
	struct pt_table *t = pt_table_new("tensors", "Memory tensors and their index ranges");
	col(t, "device_id", PT_COL_INT, PT_ROLE_KEY);
	col(t, "graph_id", PT_COL_INT, PT_ROLE_KEY);
	col(t, "tensor_id", PT_COL_INT, PT_ROLE_KEY);
	col(t, "name", PT_COL_STR, PT_ROLE_LABEL);
	col(t, "source_node", PT_COL_STR, PT_ROLE_LABEL);
	col(t, "source_node_index", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "size_bytes", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "type", PT_COL_STR, PT_ROLE_LABEL);
	col(t, "life_long", PT_COL_STR, PT_ROLE_LABEL);
	col(t, "life_start", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "life_end", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "first_index", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "last_index", PT_COL_INT, PT_ROLE_VALUE);
	col(t, "range_status", PT_COL_STR, PT_ROLE_LABEL);
	/* text without --wide: the tensor, its size and index range */
	static const char *const shown[] = { "device_id", "graph_id", "name", "size_bytes", "first_index",
					     "last_index", NULL };
	pt_table_set_default_cols(t, shown);
	for (size_t g = 0; g < m->mem_graphs.n; g++) {
		const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
		if (!keep_dev(m, mg->device, device))
			continue;
		struct agraph ag;
		agraph_build(m, (uint32_t)g, &ag);
		for (size_t k = 0; k < ag.nt; k++) {
			const struct pt_mem_tensor *x = &m->mem_tensors.v[ag.tens[k]];
			size_t r = pt_table_add_row(t);
			pt_table_set_int(t, r, 0, m->devices.v[mg->device].id);
			pt_table_set_int(t, r, 1, mg->graph_id);
			pt_table_set_int(t, r, 2, pt_gmem_sat(x->id));
			if (ag.src[k] >= 0) {
				const char *sn = pt_model_strget(m, m->mem_nodes.v[ag.nodes[ag.src[k]]].name);
				char *nm = pt_xasprintf("%s:%" PRId64, sn, ag.src_out[k]);
				pt_table_set_strdup(t, r, 3, nm, strlen(nm));
				free(nm);
				set_s(t, r, 4, sn);
				pt_table_set_int(t, r, 5, ag.src[k]);
			}
			pt_table_set_int(t, r, 6, pt_gmem_sat(x->size));
			set_s(t, r, 7, pt_model_strget(m, x->type));
			set_s(t, r, 8, pt_model_strget(m, x->life_long));
			pt_table_set_int(t, r, 9, pt_gmem_sat(x->life_start));
			pt_table_set_int(t, r, 10, pt_gmem_sat(x->life_end));
			if (ag.a[k] <= ag.b[k]) {
				pt_table_set_int(t, r, 11, ag.a[k]);
				pt_table_set_int(t, r, 12, ag.b[k]);
			}
			set_s(t, r, 13, range_notes[ag.note[k]]);
		}
		agraph_free(&ag);
	}
	return t;
}
