/*
 * Raw tables:
 *   ops    one row per paired op execution (a device task with a framework op)
 *   tasks  every paired device task, with or without an op (name empty then)
 *   steps  one row per step marker set, with the communication pairs
 *   aicpu  one row per AI CPU op
 *   kernels, api  CUPTI kernels and runtime/driver calls
 *   tensors  every tensor of the Ascend memory graphs with its index range
 *          (built by pass-memory-ascend.c, which owns the lifetime rules of
 *          ascend.md §3.13)
 * Rows of ops/tasks are ordered by device, start, stream, then model order.
 */
#include "pass/pass-raw.h"
#include "pass/select.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

#include "model/model.h"
#include "pass/pass-memory.h"
#include "support/err.h"
#include "support/names.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

const char *const pt_raw_tables[] = { "ops", "tasks", "steps", "aicpu", "kernels", "api", "tensors", NULL };

/*
 * Row order of the event tables: device index, start, stream (or thread),
 * model order. The rows are counted into one run per device first, so a key
 * holds the start, the rank of its track's stream among all tracks' streams
 * (equal streams, equal ranks) and the event.
 */
struct ev_key {
	int64_t start;
	uint32_t srank;
	uint32_t idx;
};

static int cmp_ev(const void *a, const void *b)
{
	const struct ev_key *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->srank != y->srank)
		return x->srank < y->srank ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct track_stream {
	int64_t stream;
	uint32_t track;
};

static int cmp_track_stream(const void *a, const void *b)
{
	const struct track_stream *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

uint32_t *pt_raw_stream_ranks(const struct pt_model *m)
{
	size_t nt = m->tracks.n;
	struct track_stream *ts = pt_xmalloc((nt ? nt : 1) * sizeof(*ts));
	for (size_t t = 0; t < nt; t++)
		ts[t] = (struct track_stream){ m->tracks.v[t].stream, (uint32_t)t };
	pt_sort(ts, nt, sizeof(*ts), cmp_track_stream);
	uint32_t *srank = pt_xmalloc((nt ? nt : 1) * sizeof(*srank));
	for (size_t j = 0, rank = 0; j < nt; j++) {
		if (j && ts[j].stream != ts[j - 1].stream)
			rank++;
		srank[ts[j].track] = (uint32_t)rank;
	}
	free(ts);
	return srank;
}

static bool keep_dev(const struct pt_model *m, uint32_t dev, int64_t device)
{
	return device < 0 || m->devices.v[dev].id == (uint64_t)device;
}

static void str_id(struct pt_table *t, const struct pt_model *m, size_t r, size_t c, uint32_t id)
{
	pt_table_set_str(t, r, c, pt_strtab_get(&m->strings, id), pt_strtab_len(&m->strings, id));
}

static void cell_int(struct pt_cell *c, int64_t v)
{
	c->kind = PT_CELL_INT;
	c->u.i = v;
}

static void cell_str(struct pt_cell *c, const char *s, size_t n)
{
	c->kind = PT_CELL_STR;
	c->u.s = s;
	c->len = (uint32_t)n;
}

static void cell_str_id(struct pt_cell *c, const struct pt_model *m, uint32_t id)
{
	cell_str(c, pt_strtab_get(&m->strings, id), pt_strtab_len(&m->strings, id));
}

/*
 * The event tables (ops, tasks, kernels, api) have a row per event: their
 * rows are made when the exporter reads them (pt_table_set_rows), from the
 * events in row order, instead of being held as cells (16 bytes a cell, the
 * kernels table 17 of them per row).
 */
struct ev_rows {
	const struct pt_model *m;
	struct ev_key *k;     /* the rows' events in row order */
	uint32_t *info;       /* kernels: kernel info index + 1 by event */
	char **demangled;     /* kernels: output name by string id, made once per name */
	uint8_t *tried;       /* kernels: demangling tried for the string id */
};

static void ev_rows_free(void *arg)
{
	struct ev_rows *g = arg;
	if (g->demangled)
		for (size_t i = 0; i < g->m->strings.n; i++)
			free(g->demangled[i]);
	free(g->demangled);
	free(g->tried);
	free(g->info);
	free(g->k);
	free(g);
}

static void task_row(void *arg, size_t r, struct pt_cell *c)
{
	const struct ev_rows *g = arg;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	size_t i = g->k[r].idx;
	const struct pt_track *tr = &m->tracks.v[ev->track[i]];
	cell_int(&c[0], (int64_t)m->devices.v[tr->device].id);
	cell_int(&c[1], tr->stream);
	cell_int(&c[2], (int64_t)ev->task[i]);
	cell_str_id(&c[3], m, ev->name[i]);
	if (ev->op[i])
		cell_str_id(&c[4], m, m->ops.v[ev->op[i] - 1].type);
	else
		cell_str(&c[4], "", 0);
	cell_int(&c[5], ev->start[i]);
	cell_int(&c[6], ev->dur[i]);
}

/* Is event i a row: of the kind (ops_only: a task with an op), on a kept
 * device (any when !by_dev)? */
static bool row_event(const struct pt_model *m, size_t i, uint8_t kind, bool ops_only, bool by_dev, int64_t device)
{
	const struct pt_events *ev = &m->events;
	if (ev->kind[i] != kind || (ops_only && !ev->op[i]))
		return false;
	return !by_dev || keep_dev(m, m->tracks.v[ev->track[i]].device, device);
}

/* The rows' events, sorted into row order. */
static struct ev_rows *ev_rows_new(const struct pt_model *m, uint8_t kind, bool ops_only, bool by_dev, int64_t device,
				   size_t *n)
{
	const struct pt_events *ev = &m->events;
	struct ev_rows *g = pt_xcalloc(1, sizeof(*g));
	g->m = m;
	size_t nd = m->devices.n;
	uint32_t *srank = pt_raw_stream_ranks(m);
	/* rows per device, then each device's run sorted */
	size_t *at = pt_xcalloc(nd + 1, sizeof(*at));
	for (size_t i = 0; i < ev->n; i++)
		if (row_event(m, i, kind, ops_only, by_dev, device))
			at[m->tracks.v[ev->track[i]].device + 1]++;
	for (size_t d = 0; d < nd; d++)
		at[d + 1] += at[d];
	*n = at[nd];
	g->k = pt_xmalloc((*n ? *n : 1) * sizeof(*g->k));
	size_t *pos = pt_xmalloc((nd ? nd : 1) * sizeof(*pos));
	memcpy(pos, at, nd * sizeof(*pos));
	for (size_t i = 0; i < ev->n; i++)
		if (row_event(m, i, kind, ops_only, by_dev, device))
			g->k[pos[m->tracks.v[ev->track[i]].device]++] =
				(struct ev_key){ ev->start[i], srank[ev->track[i]], (uint32_t)i };
	for (size_t d = 0; d < nd; d++)
		pt_sort(g->k + at[d], at[d + 1] - at[d], sizeof(*g->k), cmp_ev);
	free(pos);
	free(at);
	free(srank);
	return g;
}

struct pt_table *pt_raw_tasks_head(bool ops_only)
{
	struct pt_table *t = pt_table_new(ops_only ? "ops" : "tasks",
					  ops_only ? "Op executions" : "Device tasks");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "stream_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "task_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "op_type", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "start", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "dur", PT_COL_TIME, PT_ROLE_VALUE, 0);
	/* text without --wide: the op type (the name's tail) is a detail column */
	pt_table_set_detail(t, 4);
	return t;
}

static struct pt_table *tasks_table(const struct pt_model *m, bool ops_only, int64_t device)
{
	struct pt_table *t = pt_raw_tasks_head(ops_only);
	size_t n;
	struct ev_rows *g = ev_rows_new(m, PT_EV_TASK, ops_only, true, device, &n);
	pt_table_set_rows(t, n, task_row, g, ev_rows_free);
	return t;
}

/* A communication column group: (stream, start tag) with its index k on the stream. */
struct group {
	uint32_t stream, tag, k;
	uint32_t type; /* string id of the first pair's type */
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

static struct pt_table *steps_table(const struct pt_model *m, int64_t device)
{
	struct group *g = NULL;
	size_t ng = 0;
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		if (!keep_dev(m, s->device, device))
			continue;
		for (size_t j = 0; j < s->comm.n; j++) {
			const struct pt_comm *c = &s->comm.v[j];
			bool seen = false;
			for (size_t x = 0; x < ng && !seen; x++)
				seen = g[x].stream == c->stream && g[x].tag == c->tag;
			if (!seen) {
				g = pt_xrealloc(g, (ng + 1) * sizeof(*g));
				g[ng++] = (struct group){ c->stream, c->tag, 0, c->type };
			}
		}
	}
	pt_sort(g, ng, sizeof(*g), cmp_group);
	for (size_t x = 0; x < ng; x++)
		g[x].k = (x && g[x - 1].stream == g[x].stream) ? g[x - 1].k + 1 : 0;

	struct pt_table *t = pt_table_new("steps", "Step markers");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "step", PT_COL_INT, PT_ROLE_KEY, 0);
	const char *pts[] = { "start", "start_tag", "fp", "bp", "end" };
	for (int i = 0; i < 5; i++)
		pt_table_add_col(t, pts[i], PT_COL_TIME, PT_ROLE_VALUE, 0);
	for (size_t x = 0; x < ng; x++) {
		char name[256];
		const char *ty = pt_strtab_get(&m->strings, g[x].type);
		static const char *suf[] = { "start", "end", "dur" };
		for (int s = 0; s < 3; s++) {
			snprintf(name, sizeof(name), "stream_%" PRIu32 "_%" PRIu32 "_%s_%s", g[x].stream, g[x].k,
				 ty, suf[s]);
			pt_table_add_col(t, name, PT_COL_TIME, PT_ROLE_VALUE, 0);
			pt_table_set_detail(t, t->ncols - 1); /* text: the stream columns only with --wide */
		}
	}
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		if (!keep_dev(m, s->device, device))
			continue;
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[s->device].id);
		pt_table_set_int(t, r, 1, s->step);
		const int64_t v[5] = { s->start, s->start_tag, s->fp, s->bp, s->end };
		for (int b = 0; b < 5; b++)
			if (s->has & (1u << b))
				pt_table_set_int(t, r, 2 + (size_t)b, v[b]);
		for (size_t j = 0; j < s->comm.n; j++) {
			const struct pt_comm *c = &s->comm.v[j];
			for (size_t x = 0; x < ng; x++)
				if (g[x].stream == c->stream && g[x].tag == c->tag) {
					size_t col = 7 + 3 * x;
					pt_table_set_int(t, r, col, c->start);
					pt_table_set_int(t, r, col + 1, c->end);
					pt_table_set_int(t, r, col + 2, c->end - c->start);
				}
		}
	}
	free(g);
	return t;
}

static struct pt_table *aicpu_table(const struct pt_model *m, int64_t device)
{
	struct pt_table *t = pt_table_new("aicpu", "AI CPU ops");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "serial", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "run_start", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "run_end", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "exec", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "dispatch", PT_COL_TIME, PT_ROLE_VALUE, 0);
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		if (!keep_dev(m, a->device, device))
			continue;
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[a->device].id);
		pt_table_set_int(t, r, 1, a->serial);
		str_id(t, m, r, 2, a->name);
		if (a->has & PT_AICPU_HAS_TIMES) {
			pt_table_set_int(t, r, 3, a->start);
			pt_table_set_int(t, r, 4, a->end);
			pt_table_set_int(t, r, 5, a->end - a->start);
		}
		if (a->has & PT_AICPU_HAS_TOTAL)
			pt_table_set_int(t, r, 6, a->total_ns);
		if (a->has & PT_AICPU_HAS_DISPATCH)
			pt_table_set_int(t, r, 7, a->dispatch_ns);
	}
	return t;
}

/*
 * CUPTI tables (cupti.md §6.10): kernels and api, ordered by device index,
 * start, stream/thread, model order. `name` is the output name (C++ names
 * demangled as c++filt does, API names without a trailing _vNNNN), `raw_name`
 * the name as recorded.
 */
static void out_name(struct ev_rows *g, struct pt_cell *c, uint32_t id, bool api)
{
	const struct pt_model *m = g->m;
	const char *s = pt_strtab_get(&m->strings, id);
	size_t n = pt_strtab_len(&m->strings, id);
	if (api) {
		cell_str(c, s, pt_api_name_len(s, n));
		return;
	}
	if (n > 2 && s[0] == '_' && s[1] == 'Z' && id < m->strings.n) {
		if (!g->tried[id]) {
			g->tried[id] = 1;
			g->demangled[id] = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
		}
		if (g->demangled[id]) {
			cell_str(c, g->demangled[id], strlen(g->demangled[id]));
			return;
		}
	}
	cell_str(c, s, n);
}

static void api_row(void *arg, size_t r, struct pt_cell *c)
{
	struct ev_rows *g = arg;
	const struct pt_events *ev = &g->m->events;
	size_t i = g->k[r].idx;
	const struct pt_track *tr = &g->m->tracks.v[ev->track[i]];
	cell_int(&c[0], tr->stream);
	cell_int(&c[1], (int64_t)ev->corr[i]);
	out_name(g, &c[2], ev->name[i], true);
	cell_int(&c[3], ev->start[i]);
	cell_int(&c[4], ev->dur[i]);
	cell_int(&c[5], g->m->devices.v[tr->device].pid);
	cell_str_id(&c[6], g->m, ev->name[i]);
}

static void kernel_row(void *arg, size_t r, struct pt_cell *c)
{
	struct ev_rows *g = arg;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	size_t i = g->k[r].idx;
	const struct pt_track *tr = &m->tracks.v[ev->track[i]];
	const struct pt_device *dv = &m->devices.v[tr->device];
	cell_int(&c[0], (int64_t)dv->id);
	cell_int(&c[1], tr->stream);
	cell_int(&c[2], (int64_t)ev->corr[i]);
	out_name(g, &c[3], ev->name[i], false);
	cell_int(&c[4], ev->start[i]);
	cell_int(&c[5], ev->dur[i]);
	if (g->info[i]) {
		const struct pt_kernel_config *ki = pt_model_kernel_config(m, g->info[i] - 1);
		const int64_t v[9] = { ki->grid[0],  ki->grid[1],  ki->grid[2],	      ki->block[0], ki->block[1],
				       ki->block[2], ki->registers, ki->static_smem, ki->dynamic_smem };
		for (int j = 0; j < 9; j++)
			cell_int(&c[6 + j], v[j]);
	}
	cell_int(&c[15], dv->pid);
	cell_str_id(&c[16], m, ev->name[i]);
}

/* The columns of the kernels or api table. */
static struct pt_table *cupti_head(bool api)
{
	struct pt_table *t = pt_table_new(api ? "api" : "kernels", api ? "CUDA API calls" : "GPU kernels");
	if (api) {
		pt_table_add_col(t, "thread_id", PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "correlation_id", PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "start", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "dur", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "process_id", PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "raw_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	} else {
		static const char *const cols[] = { "device_id", "stream_id", "correlation_id" };
		for (int i = 0; i < 3; i++)
			pt_table_add_col(t, cols[i], PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "start", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "dur", PT_COL_TIME, PT_ROLE_VALUE, 0);
		static const char *const dims[] = { "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
						    "registers_per_thread", "static_shared_memory",
						    "dynamic_shared_memory", "process_id" };
		for (int i = 0; i < 10; i++)
			pt_table_add_col(t, dims[i], PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "raw_name", PT_COL_STR, PT_ROLE_LABEL, 0);
	}
	/* text without --wide: what ran where and when; the correlation id, the
	 * launch configuration and the raw (mangled) name are detail columns */
	static const char *const shown_api[] = { "thread_id", "name", "start", "dur", "process_id", NULL };
	static const char *const shown_kernels[] = { "device_id", "stream_id", "name", "start", "dur", NULL };
	pt_table_set_default_cols(t, api ? shown_api : shown_kernels);
	return t;
}

struct pt_table *pt_raw_cupti_head(bool api)
{
	return cupti_head(api);
}

static struct pt_table *cupti_table(const struct pt_model *m, bool api, int64_t device)
{
	struct pt_table *t = cupti_head(api);
	size_t n;
	struct ev_rows *g = ev_rows_new(m, api ? PT_EV_API : PT_EV_KERNEL, false, !api, device, &n);
	if (!api) {
		const struct pt_events *ev = &m->events;
		g->info = pt_xcalloc(ev->n ? ev->n : 1, sizeof(*g->info));
		for (size_t i = 0; i < m->kernels.n; i++)
			if (m->kernels.v[i].event < ev->n)
				g->info[m->kernels.v[i].event] = (uint32_t)i + 1;
		g->demangled = pt_xcalloc(m->strings.n ? m->strings.n : 1, sizeof(*g->demangled));
		g->tried = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	}
	pt_table_set_rows(t, n, api ? api_row : kernel_row, g, ev_rows_free);
	return t;
}

int pt_pass_raw(const struct pt_model *m, const char *name, int64_t device, struct pt_table **out,
		struct pt_err **e)
{
	if (!strcmp(name, "ops"))
		*out = tasks_table(m, true, device);
	else if (!strcmp(name, "tasks"))
		*out = tasks_table(m, false, device);
	else if (!strcmp(name, "steps"))
		*out = steps_table(m, device);
	else if (!strcmp(name, "aicpu"))
		*out = aicpu_table(m, device);
	else if (!strcmp(name, "kernels"))
		*out = cupti_table(m, false, device);
	else if (!strcmp(name, "api"))
		*out = cupti_table(m, true, device);
	else if (!strcmp(name, "tensors"))
		*out = pt_pass_memory_tensors(m, device);
	else
		return pt_err(e, "unknown table '%s'", name);
	if (!(*out)->nrows) {
		static const char *const what[][2] = {
			{ "ops", "paired op executions" }, { "tasks", "paired device tasks" },
			{ "steps", "step markers" },      { "aicpu", "AI CPU ops" },
			{ "kernels", "CUPTI kernels" },    { "api", "CUPTI runtime or driver calls" },
			{ "tensors", "memory tensors" },
		};
		const char *w = "rows";
		for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
			if (!strcmp(what[i][0], name))
				w = what[i][1];
		struct pt_sel sel;
		pt_sel_init(&sel);
		sel.device = device;
		char why[128];
		pt_table_set_empty(*out, pt_sel_empty_reason(&sel, w, why, sizeof(why)));
	}
	return 0;
}
