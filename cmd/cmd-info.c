/* proftool info: what a model holds — sources, devices, counts, span, import facts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "support/xalloc.h"
#include "table/table.h"

static const struct pt_opt *const groups[] = { pt_output_opts, pt_table_opts, pt_rawpath_opts, NULL };

static void kv_row(struct pt_table *t, const char *k, int64_t v)
{
	size_t r = pt_table_add_row(t);
	pt_table_set_str(t, r, 0, k, strlen(k));
	pt_table_set_int(t, r, 1, v);
}

static void set_s(struct pt_table *t, size_t r, size_t c, const char *s)
{
	if (s)
		pt_table_set_strdup(t, r, c, s, strlen(s));
}

/* One row of the collectives table: what is equal across the events it counts, and their sums. */
struct coll {
	uint32_t dev;                          /* device index */
	uint32_t name, dtype, group, pg, kind; /* string ids (UINT32_MAX: none); kind: the event kind */
	int64_t calls, in, out;
};

static uint32_t find_str(const struct pt_model *m, const char *s)
{
	return pt_strtab_find(&m->strings, s, strlen(s));
}

static bool num_text(const struct pt_model *m, uint32_t id, int64_t *v)
{
	if (id == UINT32_MAX)
		return false;
	const char *s = pt_strtab_get(&m->strings, id);
	char *end;
	long long x = strtoll(s, &end, 10);
	if (end == s || *end || x < 0)
		return false;
	*v = x;
	return true;
}

/*
 * The events the collectives table reads (those with a "Collective name"
 * argument), ascending, with their track and kind: filled from the model's
 * events, or from a streamed read of them.
 */
struct coll_events {
	uint32_t *ev, *track;
	uint8_t *kind;
	size_t n, at; /* at: the next one a streamed read looks for */
	bool *found;
};

static void coll_events_init(struct coll_events *c, const struct pt_model *m)
{
	memset(c, 0, sizeof(*c));
	uint32_t kname = find_str(m, "Collective name");
	if (kname == UINT32_MAX)
		return;
	size_t cap = 0;
	for (size_t i = 0; i < m->event_args.n; i++) {
		const struct pt_event_arg *a = &m->event_args.v[i];
		if (a->key != kname || (c->n && c->ev[c->n - 1] == a->event))
			continue; /* in event order: a repeat follows its first */
		pt_xgrow((void **)&c->ev, &cap, c->n + 1, sizeof(*c->ev));
		c->ev[c->n++] = a->event;
	}
	c->track = pt_xcalloc(c->n ? c->n : 1, sizeof(*c->track));
	c->kind = pt_xcalloc(c->n ? c->n : 1, sizeof(*c->kind));
	c->found = pt_xcalloc(c->n ? c->n : 1, sizeof(*c->found));
}

/* The events [first, first + ev->n) of the model: take those the table reads. */
static void coll_events_take(struct coll_events *c, const struct pt_events *ev, uint64_t first)
{
	while (c->at < c->n && c->ev[c->at] < first + ev->n) {
		if (c->ev[c->at] >= first) {
			size_t i = (size_t)(c->ev[c->at] - first);
			c->track[c->at] = ev->track[i];
			c->kind[c->at] = ev->kind[i];
			c->found[c->at] = true;
		}
		c->at++;
	}
}

/* Index of event e in c, or -1. */
static ptrdiff_t coll_events_find(const struct coll_events *c, uint32_t e)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[mid] < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->ev[lo] == e && c->found[lo] ? (ptrdiff_t)lo : -1;
}

static void coll_events_free(struct coll_events *c)
{
	free(c->ev);
	free(c->track);
	free(c->kind);
	free(c->found);
}

/*
 * Distributed runs: each device's communication backend and the collectives
 * its events record (Kineto's NCCL arguments, on the host's collective call and
 * on the NCCL kernel: one row per device, event kind, collective, dtype, group
 * size and process group). NULL when the model has neither.
 */
static struct pt_table *comm_table(const struct pt_model *m, const struct coll_events *ce)
{
	enum { K_NAME, K_DTYPE, K_IN, K_OUT, K_GROUP, K_PG, K__N };
	static const char *const keys[K__N] = { "Collective name", "dtype",      "In msg nelems",
						"Out msg nelems",  "Group size", "Process Group Name" };
	uint32_t kid[K__N];
	for (int i = 0; i < K__N; i++)
		kid[i] = find_str(m, keys[i]);
	PT_VEC(struct coll) rows = { 0 };
	for (size_t i = 0; i < m->event_args.n;) {
		uint32_t e = m->event_args.v[i].event;
		uint32_t val[K__N];
		for (int k = 0; k < K__N; k++)
			val[k] = UINT32_MAX;
		for (; i < m->event_args.n && m->event_args.v[i].event == e; i++)
			for (int k = 0; k < K__N; k++)
				if (kid[k] != UINT32_MAX && m->event_args.v[i].key == kid[k])
					val[k] = m->event_args.v[i].value;
		ptrdiff_t x = val[K_NAME] == UINT32_MAX ? -1 : coll_events_find(ce, e);
		if (x < 0)
			continue;
		struct coll c = { m->tracks.v[ce->track[x]].device, val[K_NAME], val[K_DTYPE], val[K_GROUP], val[K_PG],
				  ce->kind[x], 0, 0, 0 };
		size_t r = 0;
		while (r < rows.n && (rows.v[r].dev != c.dev || rows.v[r].name != c.name || rows.v[r].dtype != c.dtype ||
				      rows.v[r].group != c.group || rows.v[r].pg != c.pg || rows.v[r].kind != c.kind))
			r++;
		if (r == rows.n)
			pt_vec_push(&rows, c);
		int64_t v;
		rows.v[r].calls++;
		if (num_text(m, val[K_IN], &v))
			rows.v[r].in += v;
		if (num_text(m, val[K_OUT], &v))
			rows.v[r].out += v;
	}
	bool any = rows.n > 0;
	for (size_t d = 0; d < m->devices.n; d++)
		any |= m->devices.v[d].comm_backend != NULL;
	if (!any) {
		pt_vec_free(&rows);
		return NULL;
	}
	struct pt_table *t = pt_table_new("collectives", "Communication");
	pt_table_set_empty(t, "no collective communication in the model");
	const char *cols[] = { "device_id", "rank",       "backend",       "on",    "collective", "dtype",
			       "group_size", "process_group", "calls", "in_nelems",  "out_nelems" };
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		pt_table_add_col(t, cols[i], i == 0 || i == 1 || i >= 8 ? PT_COL_INT : PT_COL_STR,
				 i < 8 ? PT_ROLE_KEY : PT_ROLE_VALUE, 0);
	for (size_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		bool has = false;
		for (size_t r = 0; r < rows.n; r++)
			has |= rows.v[r].dev == d;
		if (!has && !dv->comm_backend)
			continue;
		for (size_t r = 0; r < rows.n || !has; r++) {
			const struct coll *c = has ? &rows.v[r] : NULL;
			if (c && c->dev != d)
				continue;
			size_t row = pt_table_add_row(t);
			pt_table_set_int(t, row, 0, dv->id);
			if (dv->pid && dv->rank >= 0)
				pt_table_set_int(t, row, 1, dv->rank);
			set_s(t, row, 2, dv->comm_backend);
			if (!c) {
				pt_table_set_int(t, row, 8, 0);
				break;
			}
			set_s(t, row, 3, c->kind == PT_EV_KERNEL ? "kernel" : c->kind == PT_EV_RANGE ? "host range" : "event");
			const uint32_t ids[] = { c->name, c->dtype, c->group, c->pg };
			for (int k = 0; k < 4; k++)
				if (ids[k] != UINT32_MAX)
					set_s(t, row, 4 + (size_t)k, pt_strtab_get(&m->strings, ids[k]));
			pt_table_set_int(t, row, 8, c->calls);
			pt_table_set_int(t, row, 9, c->in);
			pt_table_set_int(t, row, 10, c->out);
		}
	}
	pt_vec_free(&rows);
	return t;
}

/* What info counts of the events: their number, per device their number and span. */
struct counts {
	uint64_t events;
	int64_t (*agg)[6]; /* per device: tracks, events, ops, steps, first start, last end */
	size_t nagg;
};

/* Room for nd devices in k->agg. */
static void counts_fit(struct counts *k, size_t nd)
{
	if (nd <= k->nagg && k->agg)
		return;
	size_t n = nd > k->nagg ? nd : k->nagg;
	k->agg = pt_xrealloc(k->agg, (n ? n : 1) * sizeof(*k->agg));
	for (size_t i = k->nagg; i < (n ? n : 1); i++) {
		memset(k->agg[i], 0, sizeof(k->agg[i]));
		k->agg[i][4] = INT64_MAX;
		k->agg[i][5] = INT64_MIN;
	}
	k->nagg = n ? n : 1;
}

static void count_events(struct counts *k, const struct pt_model *m, const struct pt_events *ev)
{
	counts_fit(k, m->devices.n);
	k->events += ev->n;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t d = m->tracks.v[ev->track[i]].device;
		k->agg[d][1]++;
		if (ev->start[i] < k->agg[d][4])
			k->agg[d][4] = ev->start[i];
		if (ev->start[i] + ev->dur[i] > k->agg[d][5])
			k->agg[d][5] = ev->start[i] + ev->dur[i];
	}
}

struct streamed {
	struct counts *k;
	struct coll_events *ce;
	uint64_t seen;
};

static int on_count(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct streamed *s = arg;
	count_events(s->k, m, &m->events);
	return 0;
}

static int on_coll(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct streamed *s = arg;
	coll_events_take(s->ce, &m->events, s->seen);
	s->seen += m->events.n;
	return s->ce->at < s->ce->n ? 0 : PT_PTM_STOP; /* nothing more to take */
}

/*
 * A model file read as a stream: one read counts the events and keeps every
 * other part of the model, the event arguments among them (the CUPTI side
 * tables are checked, not kept); when some events carry a collective, a
 * second read takes their track and kind. Standard input that cannot be read
 * again (pt_common_is_model_file: no file in $TMPDIR) is read whole.
 */
static int read_streamed(const struct pt_ptm_source *src, struct pt_model **mp, struct counts *k,
			 struct coll_events *ce, struct pt_err **e)
{
	struct pt_model *m = pt_model_new();
	*mp = m;
	struct streamed s = { k, ce, 0 };
	if (pt_ptm_source_once(src)) {
		struct pt_model *w = NULL;
		int rc = pt_ptm_read(src->path, &w, e);
		if (!rc) {
			pt_model_free(m);
			*mp = w;
			count_events(k, w, &w->events);
			coll_events_init(ce, w);
			coll_events_take(ce, &w->events, 0);
		}
		return rc;
	}
	struct pt_ptm_sink first = { on_count, &s, false, PT_PTM_SKIP_BUT_ARGS };
	int rc = pt_ptm_source_read(src, m, &first, e);
	if (rc > 0) /* a sink that never stops */
		rc = pt_err(e, "'%s': the streamed read stopped early", pt_ptm_source_name(src));
	if (rc)
		return rc;
	coll_events_init(ce, m);
	if (!ce->n)
		return 0;
	/* the events of the collectives, by index: a read of the event batches alone, stopped once they are seen */
	struct pt_ptm_sink again = { on_coll, &s, true, true };
	rc = pt_ptm_source_read(src, m, &again, e);
	if (rc == PT_PTM_STOP)
		rc = 0;
	if (!rc && ce->at < ce->n)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	int first = pt_common_parse(&c, argc, argv, NULL);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct counts cnt;
	memset(&cnt, 0, sizeof(cnt));
	struct coll_events ce;
	memset(&ce, 0, sizeof(ce));
	int rc;
	if (pt_common_is_model_file(argv[first])) {
		/* a model file: its events streamed, never held */
		c.path = argv[first];
		rc = read_streamed(PT_PTM_SOURCE(argv[first]), &m, &cnt, &ce, &e);
		if (!rc)
			pt_common_check_sel(&c, m);
	} else {
		rc = pt_common_load(&c, argv[first], &m, &e);
		if (!rc) {
			count_events(&cnt, m, &m->events);
			coll_events_init(&ce, m);
			coll_events_take(&ce, &m->events, 0);
		}
	}
	if (rc) {
		pt_model_free(m);
		free(cnt.agg);
		coll_events_free(&ce);
		return pt_common_finish(&c, rc, e);
	}

	/* per device: tracks, events, ops, steps, span */
	size_t nd = m->devices.n;
	counts_fit(&cnt, nd);
	int64_t(*agg)[6] = cnt.agg;
	for (size_t i = 0; i < m->tracks.n; i++)
		agg[m->tracks.v[i].device][0]++;
	for (size_t i = 0; i < m->ops.n; i++)
		agg[m->ops.v[i].device][2]++;
	for (size_t i = 0; i < m->steps.n; i++)
		agg[m->steps.v[i].device][3]++;

	struct pt_table *tm = pt_table_new("model", "Model");
	pt_table_add_col(tm, "item", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(tm, "count", PT_COL_INT, PT_ROLE_VALUE, 0);
	kv_row(tm, "sources", (int64_t)m->sources.n);
	kv_row(tm, "devices", (int64_t)m->devices.n);
	kv_row(tm, "tracks", (int64_t)m->tracks.n);
	kv_row(tm, "ops", (int64_t)m->ops.n);
	kv_row(tm, "events", (int64_t)cnt.events);
	kv_row(tm, "steps", (int64_t)m->steps.n);
	kv_row(tm, "aicpu_ops", (int64_t)m->aicpu.n);
	kv_row(tm, "queue_samples", (int64_t)m->queues.n);
	kv_row(tm, "counter_samples", (int64_t)m->counters.n);
	kv_row(tm, "strings", (int64_t)m->strings.n);

	struct pt_table *td = pt_table_new("devices", "Devices");
	pt_table_set_empty(td, "no devices in the model");
	const char *dcols[] = { "device_id", "kind", "name", "freq_khz", "freq_origin", "clock", "framework_era",
				"framework_backend", "dtype_table", "dtype_table_origin", "dynamic_shape",
				"step_end_tag", "tracks", "events", "ops", "steps", "first", "last" };
	for (size_t i = 0; i < sizeof(dcols) / sizeof(dcols[0]); i++) {
		enum pt_col_type ty = (i == 1 || i == 2 || i == 4 || (i >= 5 && i <= 9)) ? PT_COL_STR :
				      i >= 16 ? PT_COL_TIME : PT_COL_INT;
		pt_table_add_col(td, dcols[i], ty, i == 0 ? PT_ROLE_KEY : PT_ROLE_VALUE, 0);
	}
	/* text without --wide: which device, what it holds and its span; the
	 * clock, framework and data-type facts are detail columns */
	static const char *const dshown[] = { "device_id", "kind", "name", "freq_khz", "tracks",
					      "events", "ops", "steps", "first", "last", NULL };
	pt_table_set_default_cols(td, dshown);
	for (size_t i = 0; i < nd; i++) {
		const struct pt_device *d = &m->devices.v[i];
		size_t r = pt_table_add_row(td);
		pt_table_set_int(td, r, 0, d->id);
		set_s(td, r, 1, pt_device_kind_name(d->kind));
		set_s(td, r, 2, d->name);
		if (d->freq_khz)
			pt_table_set_int(td, r, 3, (int64_t)d->freq_khz);
		set_s(td, r, 4, pt_freq_origin_name(d->freq_origin));
		set_s(td, r, 5, d->clock);
		set_s(td, r, 6, d->framework_era);
		set_s(td, r, 7, d->framework_backend);
		set_s(td, r, 8, d->dtype_table);
		set_s(td, r, 9, d->dtype_table_origin);
		pt_table_set_int(td, r, 10, d->dynamic_shape);
		if (d->step_end_tag)
			pt_table_set_int(td, r, 11, d->step_end_tag);
		for (int k = 0; k < 4; k++)
			pt_table_set_int(td, r, 12 + (size_t)k, agg[i][k]);
		if (agg[i][1]) {
			pt_table_set_int(td, r, 16, agg[i][4]);
			pt_table_set_int(td, r, 17, agg[i][5]);
		}
	}

	struct pt_table *ts = pt_table_new("stats", "Import facts");
	pt_table_set_empty(ts, "the import recorded no facts");
	pt_table_add_col(ts, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(ts, "key", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(ts, "value", PT_COL_INT, PT_ROLE_VALUE, 0);
	for (size_t i = 0; i < m->stats.n; i++) {
		const struct pt_stat *s = &m->stats.v[i];
		size_t r = pt_table_add_row(ts);
		if (s->device >= 0 && (size_t)s->device < nd)
			pt_table_set_int(ts, r, 0, m->devices.v[s->device].id);
		set_s(ts, r, 1, s->key);
		pt_table_set_int(ts, r, 2, s->value);
	}

	struct pt_table *tables[] = { tm, td, ts, comm_table(m, &ce) };
	int nt = tables[3] ? 4 : 3;
	rc = pt_common_emit(&c, tables, (size_t)nt, &e);
	for (int i = 0; i < nt; i++)
		pt_table_free(tables[i]);
	free(agg);
	coll_events_free(&ce);
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_info = {
	.name = "info",
	.summary = "what a model holds: sources, devices, counts, span, import facts",
	.usage = "[options] MODEL|PATH",
	.description = "Three tables: the model's counts; one row per device (clock frequency and where it came\n"
		       "from, framework era and data-type table, counts, first and last event time); and the\n"
		       "import facts each importer recorded (records read, skipped, orphan Start/End records,\n"
		       "executions without a framework op, ...). A fourth for distributed runs: each device's\n"
		       "communication backend and the collectives its events record (Kineto's NCCL arguments).\n"
		       "A model file's events are streamed, never held. See proftool-info(1) for every key.",
	.groups = groups,
	.run = run,
};
