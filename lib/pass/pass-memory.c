/*
 * `proftool memory` views (see pass-memory.h): Ascend memory-usage graphs
 * (ascend.md §3.13) and CUPTI GPU memory (cupti.md §6.11).
 */
#include "pass/pass-memory.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-memory.h"
#include "model/index.h"
#include "model/model.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					 "Array",   "Managed",  "Device Static", "Managed Static" };

static const char *mem_kind_name(unsigned k)
{
	return k < 8 ? mem_kinds[k] : "Unrecognized";
}

static const char *last_segment(const char *s)
{
	const char *p = strrchr(s, '/');
	return p ? p + 1 : s;
}

static bool keep_dev(const struct pt_model *m, uint32_t dev, int64_t device)
{
	return device < 0 || (int64_t)m->devices.v[dev].id == device;
}

static void col(struct pt_table *t, const char *name, enum pt_col_type type, enum pt_col_role role)
{
	pt_table_add_col(t, name, type, role, 0);
}

static void set_s(struct pt_table *t, size_t r, size_t c, const char *s)
{
	pt_table_set_str(t, r, c, s, strlen(s));
}

static void set_hex(struct pt_table *t, size_t r, size_t c, uint64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "0x%" PRIx64, v);
	pt_table_set_strdup(t, r, c, b, (size_t)n);
}


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
	int64_t *used;        /* the curve, nn points */
	int64_t peak;
	int64_t peak_node;    /* -1 without nodes */
	int64_t *src;         /* per tensor: source node position, -1 none */
	int64_t *src_out;     /* its output index */
};

static void agraph_free(struct agraph *ag)
{
	free(ag->nodes);
	free(ag->tens);
	free(ag->a);
	free(ag->b);
	free(ag->used);
	free(ag->src);
	free(ag->src_out);
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
	ag->used = pt_xcalloc(nn + 1, sizeof(int64_t));
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
		if (!nn)
			continue;
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
			continue; /* unknown: ignored */
		}
		if (a > b)
			continue; /* reversed: ignored */
		if (b > (int64_t)nn - 1)
			b = (int64_t)nn - 1;
		if (a > b)
			continue;
		ag->a[k] = a;
		ag->b[k] = b;
		ag->used[a] += pt_gmem_sat(t->size);
		ag->used[b + 1] -= pt_gmem_sat(t->size);
	}
	int64_t run = mg->static_mem;
	ag->peak = mg->static_mem;
	ag->peak_node = -1;
	for (size_t i = 0; i < nn; i++) {
		run += ag->used[i];
		ag->used[i] = run;
		if (ag->peak_node < 0 || run > ag->peak) {
			ag->peak = run;
			ag->peak_node = (int64_t)i;
		}
	}
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

static void ascend_views(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tv,
			 size_t *nt)
{
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
#define PUSH(t) do { *tv = pt_xrealloc(*tv, (*nt + 1) * sizeof(**tv)); (*tv)[(*nt)++] = (t); } while (0)
	if (by == PT_MEM_BY_POOL) {
		/* model (per device) */
		struct pt_table *t = pt_table_new("memory_model", "Memory usage per device (Ascend memory_usage)");
		col(t, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t, "capacity_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "static_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "graphs", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t, "releases", PT_COL_INT, PT_ROLE_VALUE);
		for (size_t d = 0; d < m->devices.n; d++) {
			bool any = false;
			int64_t st = 0, pk = 0, al = 0, ngr = 0;
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
			pt_table_set_int(t, r, 2, st);
			pt_table_set_int(t, r, 3, pk);
			pt_table_set_int(t, r, 4, ngr);
			pt_table_set_int(t, r, 5, al);
			pt_table_set_int(t, r, 6, al);
		}
		PUSH(t);
		t = pt_table_new("memory_graphs", "Memory usage per graph");
		col(t, "device", PT_COL_INT, PT_ROLE_KEY);
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
		t = pt_table_new("memory_holders", "Tensors holding memory at each graph's peak");
		col(t, "device", PT_COL_INT, PT_ROLE_KEY);
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
		for (size_t g = 0; g < ng; g++) {
			if (!keep[g] || ags[g].peak_node < 0)
				continue;
			const struct pt_mem_graph *mg = &m->mem_graphs.v[g];
			const struct agraph *ag = &ags[g];
			int64_t at = ag->peak_node;
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
	} else {
		bool op = by == PT_MEM_BY_OP;
		struct pt_table *t = op ? pt_table_new("memory_nodes", "Memory per node (execution order)")
					: pt_table_new("memory_curve", "Memory curve over execution order");
		col(t, "device", PT_COL_INT, PT_ROLE_KEY);
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
					pt_table_set_int(t, r, c++, ag->used[i] - (i ? ag->used[i - 1] : mg->static_mem));
					/* distinct ids among outputs and (deduplicated) workspaces */
					int64_t bytes = 0, cnt = 0;
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
					pt_table_set_int(t, r, c++, bytes);
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
}

/* ================================================================ GPU (cupti.md §6.11) */

/* ---- launching host calls ---- */

struct calls {
	uint32_t cpu;             /* CPU device index of the process, PT_NONE */
	struct pt_hashmap byc;    /* corr -> API event + 1 */
	struct pt_index *x;
};

static bool is_runtime(const char *s)
{
	return !strncmp(s, "cuda", 4);
}

static void calls_init(const struct pt_model *m, uint32_t dev, struct pt_index *x, struct calls *c)
{
	c->x = x;
	c->cpu = PT_NONE;
	pt_hashmap_init(&c->byc);
	uint32_t pid = m->devices.v[dev].pid;
	for (size_t d = 0; d < m->devices.n; d++)
		if (m->devices.v[d].kind == PT_DEV_CPU && m->devices.v[d].pid == pid && pid) {
			c->cpu = (uint32_t)d;
			break;
		}
	if (c->cpu == PT_NONE)
		return;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !ev->corr[i] || m->tracks.v[ev->track[i]].device != c->cpu)
			continue;
		bool added;
		uint64_t *v = pt_hashmap_put(&c->byc, ev->corr[i], i + 1, &added);
		if (!added && !is_runtime(pt_model_strget(m, ev->name[*v - 1])) &&
		    is_runtime(pt_model_strget(m, ev->name[i])))
			*v = i + 1;
	}
}

/* API event of a correlation id, or -1. */
static int64_t call_of(const struct calls *c, uint32_t corr)
{
	if (!corr)
		return -1;
	uint64_t *v = pt_hashmap_get(&c->byc, corr);
	return v ? (int64_t)*v - 1 : -1;
}

/* Innermost host range enclosing API event a, or -1. */
static int64_t range_of(const struct pt_model *m, const struct calls *c, size_t a)
{
	size_t n;
	const uint32_t *evs = pt_index_track_events(c->x, m->events.track[a], &n);
	int64_t s = m->events.start[a], e = s + m->events.dur[a];
	/* last event starting at or before s */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->events.start[evs[mid]] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k-- > 0;) {
		uint32_t i = evs[k];
		if (m->events.kind[i] != PT_EV_RANGE)
			continue;
		if (m->events.start[i] + m->events.dur[i] >= e)
			return i;
	}
	return -1;
}

/* Output name of an API call: the _vNNNN suffix dropped. */
static size_t api_len(const char *s)
{
	size_t n = strlen(s);
	size_t k = n;
	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k < n && k >= 2 && s[k - 1] == 'v' && s[k - 2] == '_')
		return k - 2;
	return n;
}

static const char *range_label(const struct pt_model *m, uint32_t ev)
{
	for (size_t i = 0; i < m->ranges.n; i++)
		if (m->ranges.v[i].event == ev && m->ranges.v[i].label)
			return pt_model_strget(m, m->ranges.v[i].label);
	return pt_model_strget(m, m->events.name[ev]);
}

/* Step number whose window contains t (ProfilerStep#N ranges of the process), or -1. */
static int64_t step_at(const struct pt_model *m, const struct calls *c, int64_t t)
{
	if (c->cpu == PT_NONE)
		return -1;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE || m->tracks.v[ev->track[i]].device != c->cpu)
			continue;
		const char *s = pt_model_strget(m, ev->name[i]);
		if (strncmp(s, "ProfilerStep#", 13) || !s[13])
			continue;
		char *end;
		long long v = strtoll(s + 13, &end, 10);
		if (*end)
			continue;
		if (ev->start[i] <= t && t < ev->start[i] + ev->dur[i])
			return v;
	}
	return -1;
}

static void set_call(const struct pt_model *m, const struct calls *c, struct pt_table *t, size_t r, size_t c0,
		     uint32_t corr, bool with_time)
{
	int64_t a = call_of(c, corr);
	if (a < 0) {
		set_s(t, r, c0, "<unknown>");
		return;
	}
	const char *nm = pt_model_strget(m, m->events.name[a]);
	pt_table_set_strdup(t, r, c0, nm, api_len(nm));
	size_t k = c0 + 1;
	if (with_time) {
		pt_table_set_int(t, r, k++, m->tracks.v[m->events.track[a]].stream);
		pt_table_set_int(t, r, k++, m->events.start[a]);
	}
	int64_t rg = range_of(m, c, (size_t)a);
	if (rg >= 0)
		set_s(t, r, k, range_label(m, (uint32_t)rg));
}

struct orow {
	uint32_t rec;
	uint64_t bytes, addr;
	int64_t time;
};

static int cmp_orow(const void *x, const void *y)
{
	const struct orow *a = x, *b = y;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

struct callagg {
	uint32_t api_name; /* string id of the API event name, UINT32_MAX = unknown */
	uint32_t range;    /* event + 1 */
	uint8_t group;
	int64_t allocs, bytes, max;
};

static int cmp_callagg(const void *x, const void *y)
{
	const struct callagg *a = x, *b = y;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->allocs != b->allocs)
		return a->allocs > b->allocs ? -1 : 1;
	if (a->api_name != b->api_name)
		return a->api_name < b->api_name ? -1 : 1;
	return a->range < b->range ? -1 : a->range > b->range;
}

static void gpu_views(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tv, size_t *nt)
{
	bool *has = pt_xcalloc(m->devices.n + 1, sizeof(*has));
	bool any = false;
	for (size_t i = 0; i < m->gpu_mem.n; i++)
		has[m->gpu_mem.v[i].device] = true;
	for (size_t i = 0; i < m->gpu_pools.n; i++)
		has[m->gpu_pools.v[i].device] = true;
	for (size_t d = 0; d < m->devices.n; d++) {
		has[d] = has[d] && keep_dev(m, (uint32_t)d, device);
		any |= has[d];
	}
	if (!any) {
		free(has);
		return;
	}
	struct pt_index *x = pt_index_new(m);
	struct pt_table *t0 = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;
	if (by == PT_MEM_BY_POOL) {
		t0 = pt_table_new("gpu_memory_peaks", "GPU memory per device and group (CUPTI MEMORY2)");
		col(t0, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t0, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t0, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t0, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "releases", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "peak_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t0, "peak_step", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "reserved_peak_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "reserved_peak_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t0, "live_at_end", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "live_bytes_at_end", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "release_unmatched", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "release_size_mismatch", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "alloc_over_open", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "without_api", PT_COL_INT, PT_ROLE_VALUE);
		t1 = pt_table_new("gpu_memory_outstanding", "Allocations outstanding at each peak");
		col(t1, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t1, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t1, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t1, "address", PT_COL_STR, PT_ROLE_KEY);
		col(t1, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "memory_kind", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "stream", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "pool", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "alloc_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "age", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "correlation", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "call", PT_COL_STR, PT_ROLE_LABEL);
		col(t1, "thread", PT_COL_INT, PT_ROLE_VALUE);
		col(t1, "call_start", PT_COL_TIME, PT_ROLE_VALUE);
		col(t1, "range", PT_COL_STR, PT_ROLE_LABEL);
		t2 = pt_table_new("gpu_memory_pools", "GPU memory pools");
		col(t2, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t2, "process", PT_COL_INT, PT_ROLE_KEY);
		col(t2, "pool", PT_COL_STR, PT_ROLE_KEY);
		col(t2, "type", PT_COL_STR, PT_ROLE_LABEL);
		col(t2, "created", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "destroyed", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "release_threshold", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "initial_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "max_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "max_time", PT_COL_TIME, PT_ROLE_VALUE);
		col(t2, "growths", PT_COL_INT, PT_ROLE_VALUE);
		col(t2, "trims", PT_COL_INT, PT_ROLE_VALUE);
		t3 = pt_table_new("gpu_memory_pool_events", "GPU memory pool creation, growth, trims, destruction");
		col(t3, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t3, "pool", PT_COL_STR, PT_ROLE_KEY);
		col(t3, "time", PT_COL_TIME, PT_ROLE_KEY);
		col(t3, "event", PT_COL_STR, PT_ROLE_LABEL);
		col(t3, "size_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t3, "utilized_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t3, "min_bytes_to_keep", PT_COL_INT, PT_ROLE_VALUE);
	} else if (by == PT_MEM_BY_TIME) {
		t0 = pt_table_new("gpu_memory_timeline", "GPU allocations and releases");
		col(t0, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t0, "time", PT_COL_TIME, PT_ROLE_KEY);
		col(t0, "operation", PT_COL_STR, PT_ROLE_LABEL);
		col(t0, "address", PT_COL_STR, PT_ROLE_LABEL);
		col(t0, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "memory_kind", PT_COL_STR, PT_ROLE_LABEL);
		col(t0, "group", PT_COL_STR, PT_ROLE_LABEL);
		col(t0, "stream", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "pool", PT_COL_STR, PT_ROLE_LABEL);
		col(t0, "allocated_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "reserved_bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "correlation", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "call", PT_COL_STR, PT_ROLE_LABEL);
	} else {
		t0 = pt_table_new("gpu_memory_calls", "GPU allocations per launching host call");
		col(t0, "device", PT_COL_INT, PT_ROLE_KEY);
		col(t0, "group", PT_COL_STR, PT_ROLE_KEY);
		col(t0, "call", PT_COL_STR, PT_ROLE_KEY);
		col(t0, "range", PT_COL_STR, PT_ROLE_KEY);
		col(t0, "allocations", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "bytes", PT_COL_INT, PT_ROLE_VALUE);
		col(t0, "max_bytes", PT_COL_INT, PT_ROLE_VALUE);
	}
	for (size_t d = 0; d < m->devices.n; d++) {
		if (!has[d])
			continue;
		const struct pt_device *dv = &m->devices.v[d];
		struct pt_gmem_state r;
		pt_gmem_state_init(m, (uint32_t)d, &r);
		pt_gmem_state_run(m, &r, true, 0, -1, NULL);
		struct calls c;
		calls_init(m, (uint32_t)d, x, &c);
		if (by == PT_MEM_BY_POOL) {
			for (int g = 0; g < PT_GMEM__N; g++) {
				if (!r.any[g])
					continue;
				struct pt_gmem_u32vec open = { 0 };
				if (r.has_peak[g]) {
					struct pt_gmem_state r2;
					pt_gmem_state_init(m, (uint32_t)d, &r2);
					pt_gmem_state_run(m, &r2, false, r.peak_pos[g], g, &open);
					pt_gmem_state_free(&r2);
				}
				int64_t without = 0;
				struct orow *os = pt_xmalloc((open.n + 1) * sizeof(*os));
				for (size_t i = 0; i < open.n; i++) {
					const struct pt_gpu_mem *rec = &m->gpu_mem.v[open.v[i]];
					os[i] = (struct orow){ open.v[i], rec->bytes, rec->address, rec->time };
				}
				pt_sort(os, open.n, sizeof(*os), cmp_orow);
				for (size_t i = 0; i < open.n; i++) {
					const struct pt_gpu_mem *rec = &m->gpu_mem.v[os[i].rec];
					size_t row = pt_table_add_row(t1);
					pt_table_set_int(t1, row, 0, dv->id);
					pt_table_set_int(t1, row, 1, rec->pid);
					set_s(t1, row, 2, pt_gmem_group_names[g]);
					set_hex(t1, row, 3, rec->address);
					pt_table_set_int(t1, row, 4, pt_gmem_sat(rec->bytes));
					set_s(t1, row, 5, mem_kind_name(rec->mem_kind));
					pt_table_set_int(t1, row, 6, rec->stream);
					if (rec->pool_type)
						set_hex(t1, row, 7, rec->pool_address);
					pt_table_set_int(t1, row, 8, rec->time);
					pt_table_set_int(t1, row, 9, r.peak_time[g] - rec->time);
					pt_table_set_int(t1, row, 10, rec->corr);
					set_call(m, &c, t1, row, 11, rec->corr, true);
					without += call_of(&c, rec->corr) < 0;
				}
				free(os);
				pt_vec_free(&open);
				size_t row = pt_table_add_row(t0);
				pt_table_set_int(t0, row, 0, dv->id);
				pt_table_set_int(t0, row, 1, dv->pid);
				set_s(t0, row, 2, pt_gmem_group_names[g]);
				pt_table_set_int(t0, row, 3, r.allocs[g]);
				pt_table_set_int(t0, row, 4, r.releases[g]);
				if (r.has_peak[g]) {
					pt_table_set_int(t0, row, 5, r.peak[g]);
					pt_table_set_int(t0, row, 6, r.peak_time[g]);
					int64_t st = step_at(m, &c, r.peak_time[g]);
					if (st >= 0)
						pt_table_set_int(t0, row, 7, st);
				}
				if (g == PT_GMEM_DEVICE && r.has_rpeak) {
					pt_table_set_int(t0, row, 8, r.rpeak);
					pt_table_set_int(t0, row, 9, r.rpeak_time);
				}
				pt_table_set_int(t0, row, 10, r.live_end[g]);
				pt_table_set_int(t0, row, 11, r.live_bytes_end[g]);
				pt_table_set_int(t0, row, 12, r.unmatched[g]);
				pt_table_set_int(t0, row, 13, r.mismatch[g]);
				pt_table_set_int(t0, row, 14, r.over_open[g]);
				pt_table_set_int(t0, row, 15, without);
			}
			for (size_t p = 0; p < r.pools.n; p++) {
				const struct pt_gmem_pool *pl = &r.pools.v[p];
				size_t row = pt_table_add_row(t2);
				pt_table_set_int(t2, row, 0, dv->id);
				pt_table_set_int(t2, row, 1, pl->pid);
				set_hex(t2, row, 2, pl->address);
				set_s(t2, row, 3, pl->type == 1 ? "LOCAL" : pl->type == 2 ? "IMPORTED" : "INVALID");
				if (pl->seen_created)
					pt_table_set_int(t2, row, 4, pl->created);
				if (pl->destroyed)
					pt_table_set_int(t2, row, 5, pl->destroyed_at);
				if (pl->seen_created)
					pt_table_set_int(t2, row, 6, pt_gmem_sat(pl->threshold));
				if (pl->has_size) {
					pt_table_set_int(t2, row, 7, pt_gmem_sat(pl->initial));
					pt_table_set_int(t2, row, 8, pt_gmem_sat(pl->max));
					pt_table_set_int(t2, row, 9, pl->max_time);
				}
				pt_table_set_int(t2, row, 10, pl->growths);
				pt_table_set_int(t2, row, 11, pl->trims);
			}
			for (size_t k = 0; k < r.pevs.n; k++) {
				const struct pt_gmem_pool_ev *pe = &r.pevs.v[k];
				size_t row = pt_table_add_row(t3);
				pt_table_set_int(t3, row, 0, dv->id);
				set_hex(t3, row, 1, r.pools.v[pe->pool].address);
				pt_table_set_int(t3, row, 2, pe->time);
				set_s(t3, row, 3, pt_gmem_pool_ev_names[pe->what]);
				if (pe->what != PT_GMEM_EV_DESTROYED) {
					pt_table_set_int(t3, row, 4, pt_gmem_sat(pe->size));
					pt_table_set_int(t3, row, 5, pt_gmem_sat(pe->utilized));
				}
				if (pe->what == PT_GMEM_EV_TRIM)
					pt_table_set_int(t3, row, 6, pt_gmem_sat(pe->min_keep));
			}
		} else if (by == PT_MEM_BY_TIME) {
			for (size_t k = 0; k < r.rows.n; k++) {
				const struct pt_gmem_row *gw = &r.rows.v[k];
				const struct pt_gpu_mem *rec = &m->gpu_mem.v[gw->rec];
				size_t row = pt_table_add_row(t0);
				pt_table_set_int(t0, row, 0, dv->id);
				pt_table_set_int(t0, row, 1, rec->time);
				set_s(t0, row, 2, gw->what == PT_GMEM_RS_ALLOC ? "allocation" : gw->what == PT_GMEM_RS_RELEASE ? "release"
														: "release (unmatched)");
				set_hex(t0, row, 3, rec->address);
				pt_table_set_int(t0, row, 4, pt_gmem_sat(rec->bytes));
				set_s(t0, row, 5, mem_kind_name(rec->mem_kind));
				set_s(t0, row, 6, pt_gmem_group_names[pt_gmem_group_of(rec->mem_kind)]);
				pt_table_set_int(t0, row, 7, rec->stream);
				if (rec->pool_type)
					set_hex(t0, row, 8, rec->pool_address);
				pt_table_set_int(t0, row, 9, gw->allocated);
				if (gw->reserved >= 0)
					pt_table_set_int(t0, row, 10, gw->reserved);
				pt_table_set_int(t0, row, 11, rec->corr);
				int64_t a = call_of(&c, rec->corr);
				if (a < 0) {
					set_s(t0, row, 12, "<unknown>");
				} else {
					const char *nm = pt_model_strget(m, m->events.name[a]);
					pt_table_set_strdup(t0, row, 12, nm, api_len(nm));
				}
			}
		} else {
			PT_VEC(struct callagg) ag = { 0 };
			struct pt_hashmap idx;
			pt_hashmap_init(&idx);
			for (size_t k = 0; k < r.rows.n; k++) {
				const struct pt_gmem_row *gw = &r.rows.v[k];
				if (gw->what != PT_GMEM_RS_ALLOC)
					continue;
				const struct pt_gpu_mem *rec = &m->gpu_mem.v[gw->rec];
				int64_t a = call_of(&c, rec->corr);
				uint32_t nm = a < 0 ? UINT32_MAX : m->events.name[a];
				int64_t rg = a < 0 ? -1 : range_of(m, &c, (size_t)a);
				uint8_t grp = (uint8_t)pt_gmem_group_of(rec->mem_kind);
				uint64_t key = pt_hash64(((uint64_t)nm << 32 | (uint32_t)(rg + 1)) ^ ((uint64_t)grp << 61));
				bool added;
				uint64_t *v = pt_hashmap_put(&idx, key, 0, &added);
				struct callagg *ca = NULL;
				if (!added) {
					ca = &ag.v[*v - 1];
					if (ca->api_name != nm || ca->range != (uint32_t)(rg + 1) || ca->group != grp)
						ca = NULL; /* hash collision: linear fallback below */
				}
				if (!ca)
					for (size_t q = 0; q < ag.n && !ca; q++)
						if (ag.v[q].api_name == nm && ag.v[q].range == (uint32_t)(rg + 1) &&
						    ag.v[q].group == grp)
							ca = &ag.v[q];
				if (!ca) {
					struct callagg z = { nm, (uint32_t)(rg + 1), grp, 0, 0, 0 };
					pt_vec_push(&ag, z);
					ca = &ag.v[ag.n - 1];
					*v = ag.n;
				}
				ca->allocs++;
				ca->bytes += pt_gmem_sat(rec->bytes);
				if (pt_gmem_sat(rec->bytes) > ca->max)
					ca->max = pt_gmem_sat(rec->bytes);
			}
			pt_sort(ag.v, ag.n, sizeof(*ag.v), cmp_callagg);
			for (size_t q = 0; q < ag.n; q++) {
				const struct callagg *ca = &ag.v[q];
				size_t row = pt_table_add_row(t0);
				pt_table_set_int(t0, row, 0, dv->id);
				set_s(t0, row, 1, pt_gmem_group_names[ca->group]);
				if (ca->api_name == UINT32_MAX) {
					set_s(t0, row, 2, "<unknown>");
				} else {
					const char *nm = pt_model_strget(m, ca->api_name);
					pt_table_set_strdup(t0, row, 2, nm, api_len(nm));
				}
				if (ca->range)
					set_s(t0, row, 3, range_label(m, ca->range - 1));
				pt_table_set_int(t0, row, 4, ca->allocs);
				pt_table_set_int(t0, row, 5, ca->bytes);
				pt_table_set_int(t0, row, 6, ca->max);
			}
			pt_hashmap_free(&idx);
			pt_vec_free(&ag);
		}
		pt_hashmap_free(&c.byc);
		pt_gmem_state_free(&r);
	}
	struct pt_table *all[4] = { t0, t1, t2, t3 };
	for (int i = 0; i < 4; i++)
		if (all[i])
			PUSH(all[i]);
	pt_index_free(x);
	free(has);
}

int pt_pass_memory(const struct pt_model *m, enum pt_mem_by by, int64_t device, struct pt_table ***tables,
		   size_t *ntables, struct pt_err **e)
{
	*tables = NULL;
	*ntables = 0;
	if (!m->mem_graphs.n && !m->gpu_mem.n && !m->gpu_pools.n)
		return pt_err(e, "no memory data in the model (Ascend memory_usage_<d>.pb or CUPTI MEMORY2/MEMORY_POOL "
				 "records)");
	ascend_views(m, by, device, tables, ntables);
	gpu_views(m, by, device, tables, ntables);
	if (!*ntables)
		return pt_err(e, "no memory data for device %" PRId64, device);
	return 0;
}
