/*
 * proftool summary: the driver of the views (view.h). A run makes the
 * context and the ranks (ranks.c), sums the events of Ascend ranks in one
 * pass (sums.c), then has each selected view fill its tables per rank.
 * Merged device quantities stream the union of the per-track sorted events of
 * the index (k-way merge) instead of building per-event interval arrays; the
 * C/M breakdown comes from the index.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "pass/summary/view.h"
#include "support/err.h"
#include "support/progress.h"
#include "support/xalloc.h"

const char *const pt_summary_view_names[] = { "device", "overview", "model",  "distributed", "operator",
					      "kernel", "memcpy",   "userdefined", "optype", "aicpu",
					      "gpu",    "api",      NULL };
const char *const pt_summary_keys[] = { "cpu-total", "cpu-avg", "cpu-max", "cpu-min", "gpu-total",
					"gpu-avg", "gpu-max", "gpu-min", "calls",   "name",    NULL };
const char *const pt_summary_key_names[] = { "cpu-total",    "cpu-avg",    "cpu-max",    "cpu-min",
					     "gpu-total",    "gpu-avg",    "gpu-max",    "gpu-min",
					     "calls",        "name",       "device-total", "device-avg",
					     "device-min",   "device-max", NULL };

int pt_summary_key_parse(const char *s)
{
	static const struct {
		const char *name;
		enum pt_summary_key key;
	} syn[] = { { "device-total", PT_SK_GPU_TOTAL },
		    { "device-avg", PT_SK_GPU_AVG },
		    { "device-min", PT_SK_GPU_MIN },
		    { "device-max", PT_SK_GPU_MAX } };
	for (int k = 0; pt_summary_keys[k]; k++)
		if (!strcmp(s, pt_summary_keys[k]))
			return k;
	for (size_t i = 0; i < sizeof(syn) / sizeof(syn[0]); i++)
		if (!strcmp(s, syn[i].name))
			return (int)syn[i].key;
	return -1;
}

const struct sum_view *const sum_views[PT_SV_COUNT] = {
	[PT_SV_DEVICE] = &sum_view_device,
	[PT_SV_OVERVIEW] = &sum_view_overview,
	[PT_SV_MODEL] = &sum_view_model,
	[PT_SV_DISTRIBUTED] = &sum_view_distributed,
	[PT_SV_OPERATOR] = &sum_view_operator,
	[PT_SV_KERNEL] = &sum_view_kernel,
	[PT_SV_MEMCPY] = &sum_view_memcpy,
	[PT_SV_USERDEFINED] = &sum_view_userdefined,
	[PT_SV_OPTYPE] = &sum_view_optype,
	[PT_SV_AICPU] = &sum_view_aicpu,
	[PT_SV_GPU] = &sum_view_gpu,
	[PT_SV_API] = &sum_view_api,
};

/* Events per batch of the per-event sums. */
#define SUM_BATCH 1024

unsigned sum_views_with(unsigned flags)
{
	unsigned m = 0;
	for (int v = 0; v < PT_SV_COUNT; v++)
		if ((sum_views[v]->flags & flags) == flags)
			m |= 1u << v;
	return m;
}

void pt_summary_opts_init(struct pt_summary_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->views = sum_views_with(SV_DEFAULT);
	o->key = PT_SK_DEFAULT;
	o->top = -1;
	pt_sel_init(&o->sel);
	o->queue_cutoff_ns = 100000;
	o->runtime_cutoff_ns = 50000;
}

static struct pt_table *data_table(const struct sum_view *v)
{
	struct pt_table *t = pt_table_new(v->name, v->name);
	t->rows_apart = true; /* summary.md §6 */
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	v->columns(t);
	return t;
}

/*
 * Context and ranks of model m: with its index x in memory, or streamed
 * (x NULL, sc the first read's scan). origin: the model's origin
 * (pt_index_origin, pt_model_origin), of --time-window.
 */
int sum_run_init(struct run *u, const struct pt_model *m, struct pt_index *x, struct scan *sc,
		    const struct pt_summary_opts *o, int64_t origin, struct pt_err **e)
{
	struct ctx *gp = &u->g;
	memset(gp, 0, sizeof(*gp));
	gp->m = m;
	gp->x = x;
	gp->scan = sc;
	if (sc)
		gp->opcomm = pt_index_op_comm(m);
	gp->o = o;
	u->o = o;
	u->ranks.v = NULL;
	u->ranks.n = u->ranks.cap = 0;
	gp->unit = o->unit == PT_TU_DEFAULT && o->paddle ? PT_TU_MS : o->unit;
	pt_strtab_init(&gp->names);
	gp->raw2out = pt_xcalloc(m->strings.n + 1, sizeof(*gp->raw2out));
	gp->raw2api = pt_xcalloc(m->strings.n + 1, sizeof(*gp->raw2api));
	char msg[128];
	if (pt_sel_step_re(&o->sel, &gp->step_re, msg, sizeof(msg))) {
		free(gp->raw2out);
		free(gp->raw2api);
		free(gp->opcomm);
		pt_strtab_free(&gp->names);
		return pt_err(e, "invalid step pattern '%s': %s", o->sel.step_pattern ? o->sel.step_pattern : "", msg);
	}
	gp->step_re_own = true;
	gp->pend = pt_xcalloc(1, sizeof(*gp->pend));
	pt_sel_resolve(&o->sel, origin, &gp->sel);
	/* ranks: one per NPU device (ascending id), then rank 0 for GPU/host data */
	bool gpu = false;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind != PT_DEV_NPU) {
			gpu |= dv->kind == PT_DEV_GPU || dv->kind == PT_DEV_CPU;
			continue;
		}
		if (o->sel.device >= 0 && dv->id != (uint64_t)o->sel.device)
			continue;
		struct rank r = { .g = gp, .ascend = true, .dev = d, .rank = dv->id };
		pt_vec_push(&u->ranks, r);
	}
	for (size_t i = 1; i < u->ranks.n; i++)
		for (size_t j = i; j > 0 && u->ranks.v[j - 1].rank > u->ranks.v[j].rank; j--) {
			struct rank tmp = u->ranks.v[j];
			u->ranks.v[j] = u->ranks.v[j - 1];
			u->ranks.v[j - 1] = tmp;
		}
	/* GPU ranks: one per traced process (devices grouped by pid), numbered by the recorded rank, else in order */
	if (gpu) {
		if (!sc) { /* per event: in memory only */
			gp->link = pt_xcalloc(m->events.n + 1, sizeof(*gp->link));
			gp->cls = pt_xcalloc(m->events.n + 1, 1);
		}
		gp->kname = pt_xcalloc(m->strings.n + 1, 1);
		size_t first = u->ranks.n;
		for (uint32_t d = 0; d < m->devices.n; d++) {
			const struct pt_device *dv = &m->devices.v[d];
			if (dv->kind == PT_DEV_NPU)
				continue;
			struct rank *rk = NULL;
			for (size_t k = first; k < u->ranks.n; k++)
				if (u->ranks.v[k].pid == dv->pid)
					rk = &u->ranks.v[k];
			if (!rk) {
				struct rank r = { .g = gp, .ascend = false, .pid = dv->pid, .rank = -1 };
				r.devin = pt_xcalloc(m->devices.n + 1, sizeof(*r.devin));
				pt_vec_push(&u->ranks, r);
				rk = &u->ranks.v[u->ranks.n - 1];
			}
			if (dv->pid && dv->rank >= 0 && rk->rank < 0)
				rk->rank = dv->rank;
			if (dv->kind == PT_DEV_GPU && o->sel.device >= 0 && dv->id != (uint64_t)o->sel.device)
				continue;
			rk->devin[d] = true;
		}
		for (size_t k = first; k < u->ranks.n; k++)
			if (u->ranks.v[k].rank < 0)
				u->ranks.v[k].rank = (int64_t)(k - first);
		for (size_t i = first + 1; i < u->ranks.n; i++)
			for (size_t j = i; j > first && u->ranks.v[j - 1].rank > u->ranks.v[j].rank; j--) {
				struct rank tmp = u->ranks.v[j];
				u->ranks.v[j] = u->ranks.v[j - 1];
				u->ranks.v[j - 1] = tmp;
			}
	}
	u->eff = *o;
	if (u->eff.key == PT_SK_DEFAULT)
		u->eff.key = u->ranks.n && u->ranks.v[0].ascend ? PT_SK_GPU_TOTAL : PT_SK_CPU_TOTAL;
	gp->o = &u->eff;
	u->dev_rank = pt_xcalloc(m->devices.n + 1, sizeof(*u->dev_rank));
	for (size_t k = 0; k < u->ranks.n; k++) {
		struct rank *r = &u->ranks.v[k];
		sum_rank_prepare(r, e);
		if (r->ascend) {
			r->asc = sum_asc_new(r);
			u->dev_rank[r->dev] = (uint32_t)k + 1;
		} else if (sc) { /* a streamed GPU rank */
			r->asc = sum_asc_new(r);
			for (uint32_t d = 0; d < m->devices.n; d++)
				if (r->devin[d])
					u->dev_rank[d] = (uint32_t)k + 1;
		}
	}
	u->nacc = 0;
	u->need = 0;
	for (int v = 0; v < PT_SV_COUNT; v++)
		if (o->views & (1u << v)) {
			if (sum_views[v]->add)
				u->acc[u->nacc++] = sum_views[v];
			u->need |= sum_views[v]->flags;
		}
	size_t nr = u->ranks.n + 1;
	u->buf = pt_xmalloc(nr * SB__N * SUM_BATCH * sizeof(*u->buf));
	u->nbuf = pt_xcalloc(nr * SB__N, sizeof(*u->nbuf));
	u->seen = pt_xcalloc(nr, sizeof(*u->seen));
	pt_sel_found_init(&u->found, &o->sel);
	u->found.step_records = m->steps.n > 0;
	pt_sel_found_devices(&u->found, m);
	return 0;
}

/* Hand the batch of rank k to the per-event sums: the unions, then each selected view's. */
static void flush(struct run *u, size_t k)
{
	if (!u->seen[k])
		return;
	struct rank *r = &u->ranks.v[k];
	struct sum_batch b;
	for (int c = 0; c < SB__N; c++) {
		b.v[c] = u->buf + (k * SB__N + (size_t)c) * SUM_BATCH;
		b.n[c] = u->nbuf[k * SB__N + (size_t)c];
		u->nbuf[k * SB__N + (size_t)c] = 0;
	}
	u->seen[k] = 0;
	sum_shared_add(r, &b, u->need);
	for (size_t v = 0; v < u->nacc; v++)
		u->acc[v]->add(r, &b);
}

/* Per-event sums of the events of the model (whole, or the batch in m->events): Ascend ranks, and
 * streamed GPU ranks, a batch of each rank's events at a time. */
void sum_run_events(struct run *u)
{
	const struct pt_model *m = u->g.m;
	const struct pt_events *ev = &m->events;
	bool all = u->need & SV_ALL;
	/* the span of the data, for a --time-window (pt_sel_report), from every event as they come */
	if (u->o->sel.window_given) {
		int64_t o0 = u->g.sel.origin;
		for (size_t i = 0; i < ev->n; i++)
			pt_sel_found_span(&u->found, ev->start[i] - o0, ev->start[i] + ev->dur[i] - o0);
	}
	/* the host ranges a --step-pattern might name, of every device (pt_sel_report) */
	if (u->o->sel.step_pattern && !u->found.step_records)
		for (size_t i = 0; i < ev->n && !u->found.range_match; i++)
			if (ev->kind[i] == PT_EV_RANGE)
				pt_sel_found_range(&u->found, &u->g.step_re, pt_model_strget(m, ev->name[i]));
	bool whole = !u->g.scan; /* the model in memory; streamed, its reader reports the progress */
	for (size_t i = 0; i < ev->n; i++) {
		if (whole)
			pt_progress_tick("summing the events", i, ev->n);
		uint32_t k = u->dev_rank[m->tracks.v[ev->track[i]].device];
		if (!k)
			continue;
		struct rank *r = &u->ranks.v[--k];
		/* a streamed GPU rank without the launch reads (--steps alone, its window the span [lo, hi)
		 * of its data) takes an activity's own start for its call's: the same membership but for
		 * an event that starts at hi, zero-length, which may be the call (or the activity) */
		if (!r->ascend && u->g.scan && !u->g.lk && r->filtered && r->W.n &&
		    ev->start[i] >= r->W.v[r->W.n - 1].e && (ev->kind[i] == PT_EV_API || is_dev_activity(ev->kind[i])))
			u->unsure = true;
		uint32_t *buf = u->buf + k * SB__N * SUM_BATCH;
		size_t *n = u->nbuf + k * SB__N;
		uint8_t kd = ev->kind[i];
		if (all)
			buf[SB_ALL * SUM_BATCH + n[SB_ALL]++] = (uint32_t)i;
		if (is_dev_activity(kd)) {
			buf[SB_DEV * SUM_BATCH + n[SB_DEV]++] = (uint32_t)i;
			if (member(r, i)) {
				buf[SB_MEM * SUM_BATCH + n[SB_MEM]++] = (uint32_t)i;
				if (!r->ascend) /* a streamed GPU rank's G (in memory: sum_rank_prepare) */
					r->G += ev->dur[i];
			}
		} else if (kd == PT_EV_API) {
			buf[SB_API * SUM_BATCH + n[SB_API]++] = (uint32_t)i;
			if (member(r, i))
				buf[SB_MAPI * SUM_BATCH + n[SB_MAPI]++] = (uint32_t)i;
		}
		if (++u->seen[k] == SUM_BATCH)
			flush(u, k);
	}
	for (size_t k = 0; k < u->ranks.n; k++)
		flush(u, k);
}

/* What the rows of a view are, for its empty reason. */
static const char *view_what(const char *view)
{
	static const char *const what[][2] = {
		{ "aicpu", "AI CPU ops" },
		{ "api", "runtime API calls" },
		{ "device", "device activity" },
		{ "distributed", "communication" },
		{ "gpu", "GPU activity" },
		{ "kernel", "kernels" },
		{ "memcpy", "memory copies" },
		{ "model", "step data" },
		{ "operator", "operators" },
		{ "optype", "op types" },
		{ "overview", "events" },
		{ "userdefined", "user-defined ranges" },
	};
	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
		if (!strcmp(what[i][0], view))
			return what[i][1];
	return "rows";
}

void sum_run_views(struct run *u, struct pt_summary *out)
{
	const struct pt_summary_opts *o = u->o;
	bool multi = u->ranks.n > 1;
	for (int v = 0; v < PT_SV_COUNT; v++) {
		if (!(o->views & (1u << v)))
			continue;
		struct pt_summary_view_out *vo = &out->v[out->n++];
		vo->view = (enum pt_summary_view)v;
		vo->data = data_table(sum_views[v]);
		/* two text tables per rank: the device view prints its Host CPU table second */
		vo->text = pt_xcalloc(2 * u->ranks.n + 1, sizeof(*vo->text));
		vo->ntext = 2 * u->ranks.n;
		for (size_t k = 0; k < u->ranks.n; k++) {
			sum_views[v]->emit(&u->ranks.v[k], vo->data, &vo->text[2 * k], multi);
			sum_text_finish(&u->g, vo->text[2 * k]);
			sum_text_finish(&u->g, vo->text[2 * k + 1]);
			u->g.pend->n = 0;
		}
		/* an empty view says why (text "(no rows: ...)") */
		char why[160];
		pt_sel_empty_reason(&o->sel, !u->ranks.n ? "steps or device activity" : view_what(sum_views[v]->name),
				    why, sizeof(why));
		if (!vo->data->nrows)
			pt_table_set_empty(vo->data, why);
		for (size_t k = 0; k < vo->ntext; k++)
			if (vo->text[k] && !vo->text[k]->nrows)
				pt_table_set_empty(vo->text[k], why);
	}
	/* what the selection found: the steps of every rank, the span of the data */
	const struct ctx *g = &u->g;
	int64_t o0 = g->sel.origin;
	out->found = u->found;
	for (size_t k = 0; k < u->ranks.n; k++)
		for (size_t i = 0; i < u->ranks.v[k].nw; i++) {
			const struct win *w = &u->ranks.v[k].w[i];
			pt_sel_found_step(&out->found, w->num, true, w->s - o0);
			pt_sel_found_span(&out->found, w->s - o0, w->e - o0);
		}
	out->cov = pt_xcalloc(u->ranks.n + 1, sizeof(*out->cov));
	for (size_t k = 0; k < u->ranks.n; k++) {
		const struct rank *r = &u->ranks.v[k];
		if (r->cov_partial)
			out->cov[out->ncov++] = (struct pt_summary_cov){ (uint32_t)r->rank, r->cov_covered, r->cov_kept,
									 r->cov_lo, r->cov_hi, r->cov_runs,
									 r->cov_a - o0, r->cov_b - o0, !r->ascend };
	}
	out->nesting_violations = u->g.violations;
	for (size_t d = 0; d < u->g.m->devices.n; d++)
		out->device_kinds |= 1u << u->g.m->devices.v[d].kind;
}

void sum_run_free(struct run *u)
{
	struct ctx *g = &u->g;
	for (size_t k = 0; k < u->ranks.n; k++) {
		sum_rank_free(&u->ranks.v[k]);
		sum_asc_free(u->ranks.v[k].asc, g->m->devices.n);
	}
	pt_vec_free(&u->ranks);
	if (g->step_re_own)
		regfree(&g->step_re);
	free(g->link);
	free(g->cls);
	free(g->kname);
	free(g->raw2api);
	free(g->raw2out);
	free(g->opcomm);
	free(u->dev_rank);
	free(u->buf);
	free(u->nbuf);
	free(u->seen);
	pt_strtab_free(&g->names);
	if (g->pend)
		free(g->pend->v);
	free(g->pend);
}

int pt_pass_summary(const struct pt_model *m, struct pt_index *x, const struct pt_summary_opts *o,
		    struct pt_summary *out, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	struct run u;
	if (sum_run_init(&u, m, x, NULL, o, pt_index_origin(x), e))
		return -1;
	sum_run_events(&u);
	sum_run_views(&u, out);
	sum_run_free(&u);
	return 0;
}

void pt_summary_free(struct pt_summary *s)
{
	free(s->cov);
	s->cov = NULL;
	s->ncov = 0;
	for (size_t i = 0; i < s->n; i++) {
		pt_table_free(s->v[i].data);
		for (size_t k = 0; k < s->v[i].ntext; k++)
			pt_table_free(s->v[i].text[k]);
		free(s->v[i].text);
	}
	s->n = 0;
}

struct pt_table **pt_summary_tables(const struct pt_summary *s, bool text, size_t *n)
{
	size_t cap = 1;
	for (size_t i = 0; i < s->n; i++)
		cap += text ? s->v[i].ntext + 1 : 1;
	struct pt_table **v = pt_xmalloc(cap * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!text) {
			v[(*n)++] = s->v[i].data;
			continue;
		}
		size_t before = *n;
		for (size_t r = 0; r < s->v[i].ntext; r++)
			if (s->v[i].text[r] && s->v[i].text[r]->nrows)
				v[(*n)++] = s->v[i].text[r];
		/* a view with no rows at all prints its first table with "(no rows: <reason>)", or
		 * its data table when it has no text table: its key and label columns (the value
		 * columns, all empty, would only widen the line past 120 columns; --wide has them) */
		if (*n == before) {
			struct pt_table *t = s->v[i].data;
			for (size_t r = 0; r < s->v[i].ntext; r++)
				if (s->v[i].text[r]) {
					t = s->v[i].text[r];
					break;
				}
			if (t == s->v[i].data)
				for (size_t c = 0; c < t->ncols; c++)
					t->cols[c].detail |= t->cols[c].role == PT_ROLE_VALUE;
			v[(*n)++] = t;
		}
	}
	return v;
}
