/*
 * MindData pipeline and queue analysis (ascend.md §3.11; hints.md MD_*).
 * See pass-dataset.h for the views; man/proftool-dataset.1 for every column.
 */
#include "pass/pass-dataset.h"
#include "pass/select.h"
#include "pass/dataset-figures.h"
#include "pass/pass-hints.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hostcpu.h"
#include "model/model.h"
#include "table/hints.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

/* ---- knobs ---------------------------------------------------------------- */

void pt_dataset_knobs_init(struct pt_dataset_knobs *k)
{
	memset(k, 0, sizeof(*k));
	k->queue_rules = PT_MD_RULES_CURRENT;
	k->queue_empty_pct = 30;
	k->pipeline_rules = PT_MD_RULES_CURRENT;
	k->pl_high = 0.8;
	k->pl_low = 0.6;
	k->pl_delta = 0.1;
	k->cpu_busy_pct = 80;
	k->op_cpu_high_pct = 75;
	k->op_cpu_low_pct = 20;
	k->op_leaf_usage_pct = 50;
	k->op_devq_empty_pct = 60;
	k->op_queue_gap_pts = 50;
	k->op_in_usage_floor_pct = 10;
}

/* Keys of hints.md §5 that other commands read: accepted and ignored here. */
static const char *const other_keys[] = {
	"hints.disable", "hints.input_bound.moderate_pct", "hints.input_bound.high_pct",
	"hints.unexplained.moderate_pct", "hints.unexplained.high_pct", "hints.step_gap.ms", "hints.low_util.pct",
	"hints.launch_bound.moderate_pct", "hints.launch_bound.high_pct", "hints.launch.apis",
	"hints.launch.queue_delay_us", "hints.launch.runtime_us", "hints.launch.queue_delay_warn_pct",
	"hints.launch.runtime_warn_pct", "hints.short_kernels.pct", "hints.idle.min_pct", "hints.idle.class_pct",
	"hints.idle.kernel_wait_gap_ns", "hints.comm.exposed_pct", "hints.pp.receive_pct",
	"hints.pp.stage_comm_pct", "hints.pp.stage_flops_pct", "hints.rank_spread.pct", "hints.rank_step_gap.pct",
	"hints.rank_flops.pct", "hints.slow_link.pct", "hints.top_ops.n", "hints.top_ops.type_pct",
	"hints.mem_ops.moderate_pct", "hints.mem_ops.high_pct", "hints.flops_util.low_pct",
	"hints.flops_util.min_coverage_pct", "hints.flops_util.peak_tflops", "hints.memory.peak_pct",
	"hints.tensor_cores.min_cc", "hints.tensor_cores.kernel_patterns", "hints.tensor_cores.op_names",
	"hints.unattributed.pct", "hints.truncated.ratio", "hints.gate.minddata", NULL,
};

static bool parse_num(const char *s, double *v)
{
	char *end;
	if (!*s || strchr(s, 'n') || strchr(s, 'N') || strchr(s, 'x') || strchr(s, 'X'))
		return false; /* no nan, inf, hex */
	*v = strtod(s, &end);
	return *end == 0 && isfinite(*v);
}

int pt_dataset_knob_set(struct pt_dataset_knobs *k, const char *key, const char *value, char **why)
{
	struct {
		const char *key;
		double *v;
		double max;
		bool *set;
	} nums[] = {
		{ "hints.md_queue.empty_pct", &k->queue_empty_pct, 100, &k->queue_empty_set },
		{ "hints.md_pipeline.high", &k->pl_high, 1, &k->pl_high_set },
		{ "hints.md_pipeline.low", &k->pl_low, 1, &k->pl_low_set },
		{ "hints.md_pipeline.delta", &k->pl_delta, 1, NULL },
		{ "hints.md_cpu.busy_pct", &k->cpu_busy_pct, 100, NULL },
		{ "hints.md_op.cpu_high_pct", &k->op_cpu_high_pct, 100, NULL },
		{ "hints.md_op.cpu_low_pct", &k->op_cpu_low_pct, 100, NULL },
		{ "hints.md_op.leaf_usage_pct", &k->op_leaf_usage_pct, 100, NULL },
		{ "hints.md_op.devq_empty_pct", &k->op_devq_empty_pct, 100, NULL },
		{ "hints.md_op.queue_gap_pts", &k->op_queue_gap_pts, 100, NULL },
		{ "hints.md_op.in_usage_floor_pct", &k->op_in_usage_floor_pct, 100, NULL },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strcmp(key, nums[i].key))
			continue;
		double v;
		if (!parse_num(value, &v) || v < 0 || v > nums[i].max) {
			*why = pt_xasprintf("invalid value '%s' for '%s' (a number from 0 to %g)", value, key,
					    nums[i].max);
			return -1;
		}
		*nums[i].v = v;
		if (nums[i].set)
			*nums[i].set = true;
		return 0;
	}
	if (!strcmp(key, "hints.md_queue.rules") || !strcmp(key, "hints.md_pipeline.rules")) {
		enum pt_md_rules r;
		if (!strcmp(value, "current"))
			r = PT_MD_RULES_CURRENT;
		else if (!strcmp(value, "2020"))
			r = PT_MD_RULES_2020;
		else {
			*why = pt_xasprintf("invalid value '%s' for '%s' (current or 2020)", value, key);
			return -1;
		}
		if (key[9] == 'q')
			k->queue_rules = r;
		else
			k->pipeline_rules = r;
		return 0;
	}
	for (size_t i = 0; other_keys[i]; i++)
		if (!strcmp(key, other_keys[i]))
			return 1;
	*why = pt_xasprintf("unknown hint key '%s'", key);
	return -1;
}

/* Effective thresholds of the selected rule sets. */
double pt_dataset_pl_low(const struct pt_dataset_knobs *k)
{
	return k->pl_low_set ? k->pl_low : k->pipeline_rules == PT_MD_RULES_2020 ? 0.2 : 0.6;
}

double pt_dataset_queue_pct(const struct pt_dataset_knobs *k)
{
	return k->queue_empty_set ? k->queue_empty_pct : k->queue_rules == PT_MD_RULES_2020 ? 70 : 30;
}

int pt_dataset_knobs_check(const struct pt_dataset_knobs *k, char **why)
{
	if (pt_dataset_pl_low(k) > k->pl_high) {
		*why = pt_xasprintf("'hints.md_pipeline.low' (%g) is above 'hints.md_pipeline.high' (%g)",
				    pt_dataset_pl_low(k), k->pl_high);
		return -1;
	}
	return 0;
}

size_t pt_dataset_display_len(const char *type)
{
	size_t l = strlen(type);
	return l > 2 && !strcmp(type + l - 2, "Op") ? l - 2 : l;
}

/* ---- small string builder ------------------------------------------------- */


void pt_ds_sb_printf(struct pt_ds_sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	pt_xgrow((void **)&b->s, &b->cap, b->n + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

static void ev_sep(struct pt_ds_sb *b)
{
	if (b->n)
		pt_ds_sb_printf(b, ";");
}

void pt_ds_ev_i(struct pt_ds_sb *b, const char *key, int64_t v)
{
	ev_sep(b);
	pt_ds_sb_printf(b, "%s=%" PRId64, key, v);
}

static void ev_d(struct pt_ds_sb *b, const char *key, double v)
{
	ev_sep(b);
	if (v == floor(v) && fabs(v) < 9e15)
		pt_ds_sb_printf(b, "%s=%" PRId64, key, (int64_t)v);
	else
		pt_ds_sb_printf(b, "%s=%.4f", key, v);
}

void pt_ds_ev_s(struct pt_ds_sb *b, const char *key, const char *v)
{
	ev_sep(b);
	pt_ds_sb_printf(b, "%s=", key);
	size_t len = strlen(v);
	pt_xgrow((void **)&b->s, &b->cap, b->n + 2 * len + 1, 1); /* every char escaped, NUL */
	for (const char *p = v; *p; p++) {
		if (*p == ';' || *p == '=' || *p == '\\')
			b->s[b->n++] = '\\';
		b->s[b->n++] = *p;
	}
	b->s[b->n] = 0;
}

static void set_sb(struct pt_table *t, size_t r, size_t c, struct pt_ds_sb *b)
{
	pt_table_set_strdup(t, r, c, b->s ? b->s : "", b->n);
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static int64_t div_round(int64_t sum, int64_t n) /* half away from zero */
{
	if (sum >= 0)
		return (sum + n / 2) / n;
	return -((-sum + n / 2) / n);
}

/* ---- figures per device --------------------------------------------------- */

static const char *const exempt[] = { "Barrier", "Concat", "EpochCtrl", "Rename", "Repeat",
				      "Shuffle", "Skip", "Take", "Zip", NULL };

bool pt_ds_disp_is(const struct pt_ds_op *o, const char *name)
{
	return strlen(name) == o->disp_len && !strncmp(o->type, name, o->disp_len);
}

bool pt_ds_is_exempt(const struct pt_ds_op *o)
{
	for (size_t i = 0; exempt[i]; i++)
		if (pt_ds_disp_is(o, exempt[i]))
			return true;
	return false;
}

static size_t find_op(const struct pt_ds_dev *d, int64_t id)
{
	for (size_t i = 0; i < d->nops; i++)
		if (d->ops[i].md->op_id == id)
			return i;
	return SIZE_MAX;
}

/* Append the kept descendants that replace child c (collapsing, in place). */
static int collect_kept(struct pt_ds_dev *d, size_t c, struct pt_ds_op *parent, size_t depth, struct pt_err **e)
{
	if (depth > d->nops)
		return pt_err(e, "the pipeline of device %" PRIu32 " has a cycle", d->id);
	if (d->ops[c].kept) {
		pt_vec_push(&parent->kids, c);
		return 0;
	}
	for (size_t k = 0; k < d->ops[c].md->children.n; k++) {
		size_t g = find_op(d, d->ops[c].md->children.v[k]);
		if (g == SIZE_MAX)
			continue;
		if (collect_kept(d, g, parent, depth + 1, e))
			return -1;
	}
	return 0;
}

static int build_tree(struct pt_ds_dev *d, struct pt_err **e)
{
	size_t n = d->nops;
	bool *is_child = pt_xcalloc(n, sizeof(*is_child));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d->ops[i].md->children.n; k++) {
			size_t c = find_op(d, d->ops[i].md->children.v[k]);
			if (c != SIZE_MAX)
				is_child[c] = true;
		}
	size_t nroots = 0;
	for (size_t i = 0; i < n; i++)
		if (!is_child[i]) {
			d->root = i;
			nroots++;
		}
	free(is_child);
	if (nroots != 1)
		return pt_err(e, "the pipeline of device %" PRIu32 " has %s", d->id, nroots ? "several roots" : "no root");
	for (size_t i = 0; i < n; i++)
		d->ops[i].kept = d->ops[i].md->has_queue || i == d->root;
	for (size_t i = 0; i < n; i++) {
		if (!d->ops[i].kept)
			continue;
		for (size_t k = 0; k < d->ops[i].md->children.n; k++) {
			size_t c = find_op(d, d->ops[i].md->children.v[k]);
			if (c != SIZE_MAX && collect_kept(d, c, &d->ops[i], 0, e))
				return -1;
		}
	}
	/* breadth-first from the root; a revisit means the model is not a tree */
	bool *seen = pt_xcalloc(n, sizeof(*seen));
	d->bfs = pt_xmalloc(n * sizeof(*d->bfs));
	d->nbfs = 0;
	d->bfs[d->nbfs++] = d->root;
	seen[d->root] = true;
	int rc = 0;
	for (size_t h = 0; h < d->nbfs && !rc; h++) {
		struct pt_ds_op *o = &d->ops[d->bfs[h]];
		for (size_t k = 0; k < o->kids.n; k++) {
			size_t c = o->kids.v[k];
			if (seen[c]) {
				rc = pt_err(e, "the pipeline of device %" PRIu32 " is not a tree (op %" PRId64
					       " is reached twice)", d->id, d->ops[c].md->op_id);
				break;
			}
			seen[c] = true;
			d->ops[c].parent = d->bfs[h] + 1;
			d->bfs[d->nbfs++] = c;
		}
	}
	free(seen);
	return rc;
}

static void pipeline_filter(struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	double high = k->pl_high, low = pt_dataset_pl_low(k), delta = k->pl_delta;
	size_t judged = 0, nhigh = 0, nlow = 0;
	for (size_t h = 1; h < d->nbfs; h++) {
		struct pt_ds_op *o = &d->ops[d->bfs[h]];
		for (size_t c = 0; c < o->kids.n; c++) {
			struct pt_ds_op *ch = &d->ops[o->kids.v[c]];
			if (ch->has_usage && (!o->has_max_child || ch->usage > o->max_child)) {
				o->max_child = ch->usage;
				o->has_max_child = true;
			}
		}
		if (!o->has_usage)
			continue;
		judged++;
		nhigh += o->usage >= high;
		nlow += o->usage < low;
	}
	if (!judged)
		return;
	if (nhigh == judged) {
		d->ops[d->root].queue_flag = true;
		d->ops[d->root].queue_reason = "all_high";
		return;
	}
	for (size_t h = 1; h < d->nbfs; h++) {
		struct pt_ds_op *o = &d->ops[d->bfs[h]];
		if (!o->has_usage)
			continue;
		if (k->pipeline_rules == PT_MD_RULES_CURRENT) {
			if (o->kids.n && o->has_max_child && o->max_child - o->usage > delta) {
				o->queue_flag = true;
				o->queue_reason = "child_gap";
			} else if (!o->kids.n && o->usage < low) {
				o->queue_flag = true;
				o->queue_reason = "low_leaf";
			}
		} else if (nlow == judged) {
			if (!o->kids.n) {
				o->queue_flag = true;
				o->queue_reason = "all_low";
			}
		} else if (o->kids.n && o->usage < low && o->has_max_child) {
			bool all = true;
			for (size_t c = 0; c < o->kids.n; c++) {
				struct pt_ds_op *ch = &d->ops[o->kids.v[c]];
				if (ch->has_usage && ch->usage < high)
					all = false;
			}
			if (all) {
				o->queue_flag = true;
				o->queue_reason = "bottleneck";
			}
		}
	}
}

static void cpu_rule(struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	int64_t best = INT64_MAX;
	size_t besti = SIZE_MAX;
	for (size_t h = 0; h < d->nbfs; h++) {
		struct pt_ds_op *o = &d->ops[d->bfs[h]];
		o->cpu_rule = -1;
		if (!o->has_cpu)
			continue;
		o->cpu_rule = 0;
		if (pt_ds_is_exempt(o) || pt_ds_disp_is(o, "DeviceQueue") || !o->has_cpw)
			continue;
		bool q = false;
		if (o->cpw > k->op_cpu_high_pct) {
			q = true;
			o->cpu_reason = "cpu_high";
		} else if (o->cpw < k->op_cpu_low_pct && o->kids.n && o->has_in) {
			double in = o->in_usage * 100, out = o->has_usage ? o->usage * 100 : NAN;
			if (in < k->op_in_usage_floor_pct || (o->has_usage && out - in > k->op_queue_gap_pts)) {
				q = true;
				o->cpu_reason = "cpu_low_queue";
			}
		}
		if (q) {
			o->cpu_rule = 1;
			if (o->md->op_id < best) {
				best = o->md->op_id;
				besti = d->bfs[h];
			}
		}
	}
	if (besti != SIZE_MAX)
		d->ops[besti].cpu_rule = 2;
}

/*
 * Host and per-op CPU figures (ascend.md §3.11), read through model/hostcpu.h:
 * the code the device view of `summary` uses, so the numbers agree.
 */
static void cpu_figures(const struct pt_model *m, struct pt_ds_dev *d)
{
	struct pt_hostcpu h;
	if (!pt_hostcpu_load(m, d->index, &h)) {
		pt_hostcpu_free(&h);
		return;
	}
	pt_hostcpu_total(&h, &d->cpu);
	d->has_idle = d->cpu.n[PT_HC_IDLE] > 0;
	for (size_t i = 0; i < d->nops; i++) {
		struct pt_ds_op *o = &d->ops[i];
		if (!pt_hostcpu_op_cpu(&h, o->md->op_id, &o->cpu_pct, &o->cpu_samples, &o->cpu_sum))
			continue;
		o->has_cpu = true;
		if (o->md->num_workers > 0) {
			o->has_cpw = true;
			o->cpw = o->cpu_pct / (double)o->md->num_workers;
		}
	}
	pt_hostcpu_free(&h);
}

static void queue_figures(const struct pt_model *m, struct pt_ds_dev *d)
{
	size_t nt = m->tracks.n;
	size_t *op_of = pt_xmalloc((nt ? nt : 1) * sizeof(*op_of)); /* op index + 1 */
	memset(op_of, 0, (nt ? nt : 1) * sizeof(*op_of));
	for (size_t i = 0; i < d->nops; i++)
		if (d->ops[i].md->has_queue && d->ops[i].md->queue_track < nt)
			op_of[d->ops[i].md->queue_track] = i + 1;
	const struct pt_queue_samples *q = &m->queues;
	for (size_t i = 0; i < q->n; i++) {
		if (q->track[i] >= nt || !op_of[q->track[i]])
			continue;
		struct pt_ds_op *o = &d->ops[op_of[q->track[i]] - 1];
		pt_ds_sb_printf(&o->sizes, "%s%" PRId64, o->samples ? ", " : "[", q->size[i]);
		o->samples++;
		o->size_sum += q->size[i];
		o->empty += q->size[i] == 0;
	}
	free(op_of);
	for (size_t i = 0; i < d->nops; i++) {
		struct pt_ds_op *o = &d->ops[i];
		if (!o->md->has_queue)
			continue;
		pt_ds_sb_printf(&o->sizes, "%s", o->samples ? "]" : "[]");
		if (o->samples) {
			o->avg = (double)o->size_sum / (double)o->samples;
			if (o->md->queue_capacity > 0) {
				o->has_usage = true;
				o->usage = o->avg / (double)o->md->queue_capacity;
			}
		}
	}
	for (size_t i = 0; i < d->nops; i++) {
		struct pt_ds_op *o = &d->ops[i];
		if (o->kept && o->kids.n && d->ops[o->kids.v[0]].has_usage) {
			o->has_in = true;
			o->in_usage = d->ops[o->kids.v[0]].usage;
		}
	}
}

static void host_figures(const struct pt_model *m, struct pt_ds_dev *d)
{
	/* the device-queue file, else the iterator file */
	for (int src = 0; src < 2 && !d->host.present; src++) {
		for (size_t i = 0; i < m->md_records.n; i++) {
			const struct pt_md_record *r = &m->md_records.v[i];
			if (r->device != d->index || r->file != src || r->type != 1)
				continue;
			d->host.present = true;
			d->host.source = src;
			d->host.samples++;
			d->host.empty += r->value == 0;
			d->host.full += r->value == r->extra;
			d->host.capacity = r->extra;
		}
	}
	/* get_next: the AICPUMI track; GetNext_dequeue_wait records */
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		if (tr->device != d->index || tr->kind != PT_TRACK_QUEUE ||
		    strcmp(pt_model_strget(m, tr->name), "get_next"))
			continue;
		/* events and samples of the track were added pairwise, in order */
		size_t ne = 0, nq = 0;
		for (size_t i = 0; i < m->events.n; i++)
			ne += m->events.track[i] == t && m->events.kind[i] == PT_EV_GETNEXT;
		for (size_t i = 0; i < m->queues.n; i++)
			nq += m->queues.track[i] == t;
		bool paired = ne == nq;
		size_t qi = 0, ei = 0;
		for (;;) {
			while (qi < m->queues.n && m->queues.track[qi] != t)
				qi++;
			if (qi >= m->queues.n)
				break;
			bool take = true;
			int64_t wait = -1;
			if (paired) {
				while (ei < m->events.n &&
				       !(m->events.track[ei] == t && m->events.kind[ei] == PT_EV_GETNEXT))
					ei++;
				take = !strcmp(pt_model_strget(m, m->events.name[ei]), "GetNext_dequeue_wait");
				wait = m->events.dur[ei];
				ei++;
			}
			if (take) {
				d->gn.present = true;
				d->gn.samples++;
				d->gn.empty += m->queues.size[qi] == 0;
				if (wait >= 0) {
					d->gn.waits++;
					d->gn.wait_sum += wait;
					if (wait > d->gn.wait_max)
						d->gn.wait_max = wait;
				}
			}
			qi++;
		}
	}
}

static void verdict(struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	static const char *nj = "not_judged";
	d->mi[0] = d->mi[1] = d->mi[2] = d->mi[3] = NULL;
	if (!d->host.present) {
		d->st[0] = d->st[1] = d->st[2] = nj;
		d->verdict = nj;
		return;
	}
	double pct = pt_dataset_queue_pct(k);
	bool host_empty = 100.0 * (double)d->host.empty > pct * (double)d->host.samples;
	if (k->queue_rules == PT_MD_RULES_CURRENT) {
		d->mi[0] = "data_process=normal";
		d->mi[1] = "data_transmission=normal";
		d->mi[2] = "get_next=normal";
		if (host_empty) {
			d->st[0] = "bottleneck", d->st[1] = d->st[2] = nj;
			d->verdict = "data_processing";
			d->mi[0] = "data_process=warning";
			d->mi[3] = "data_process=warning";
		} else if (d->gn.present && d->gn.empty) {
			d->st[0] = "ok", d->st[1] = "bottleneck", d->st[2] = "ok";
			d->verdict = "host_to_device";
			d->mi[1] = "data_transmission=warning";
			d->mi[3] = "data_transmission=warning";
		} else if (d->gn.present) {
			d->st[0] = d->st[1] = d->st[2] = "ok";
			d->verdict = "none";
			d->mi[3] = "device_queue_warning=warning";
		} else {
			d->st[0] = "ok", d->st[1] = d->st[2] = nj;
			d->verdict = "none_found";
			d->mi[3] = "device_queue_warning=warning";
		}
		return;
	}
	d->mi[0] = "data_process=normal";
	d->mi[1] = "tdt=normal;device_queue_op=normal";
	d->mi[2] = "get_next=normal";
	if (host_empty && (!d->gn.present || d->gn.empty)) {
		d->st[0] = "bottleneck", d->st[1] = d->st[2] = nj;
		d->verdict = "data_processing";
		d->mi[0] = d->mi[3] = "data_process=warning";
	} else if (d->gn.present && d->gn.empty) {
		d->st[0] = "ok", d->st[1] = "bottleneck", d->st[2] = "ok";
		d->verdict = "host_to_device";
		d->mi[1] = d->mi[3] = "tdt=warning;device_queue_op=warning";
	} else if (d->gn.present) {
		d->st[0] = d->st[1] = d->st[2] = "ok";
		d->verdict = "none";
		d->mi[3] = "fpbp=normal";
	} else {
		d->st[0] = "ok", d->st[1] = d->st[2] = nj;
		d->verdict = "none_found";
		d->mi[3] = "fpbp=normal";
	}
}

void pt_ds_dev_free(struct pt_ds_dev *d)
{
	for (size_t i = 0; i < d->nops; i++) {
		pt_vec_free(&d->ops[i].kids);
		free(d->ops[i].sizes.s);
	}
	free(d->ops);
	free(d->bfs);
}

static int dev_figures(const struct pt_model *m, uint32_t index, const struct pt_dataset_knobs *k, struct pt_ds_dev *d,
		       struct pt_err **e)
{
	memset(d, 0, sizeof(*d));
	d->index = index;
	d->id = m->devices.v[index].id;
	for (size_t i = 0; i < m->md_ops.n; i++)
		d->nops += m->md_ops.v[i].device == index;
	d->ops = pt_xcalloc(d->nops ? d->nops : 1, sizeof(*d->ops));
	size_t j = 0;
	for (size_t i = 0; i < m->md_ops.n; i++) {
		if (m->md_ops.v[i].device != index)
			continue;
		struct pt_ds_op *o = &d->ops[j++];
		o->md = &m->md_ops.v[i];
		o->type = pt_model_strget(m, o->md->type);
		o->disp_len = pt_dataset_display_len(o->type);
	}
	if (d->nops) {
		d->has_pipeline = true;
		for (size_t a = 0; a < d->nops; a++)
			for (size_t b = a + 1; b < d->nops; b++)
				if (d->ops[a].md->op_id == d->ops[b].md->op_id)
					return pt_err(e, "the pipeline of device %" PRIu32 " has op id %" PRId64 " twice",
						      d->id, d->ops[a].md->op_id);
		if (build_tree(d, e))
			return -1;
		queue_figures(m, d);
		cpu_figures(m, d);
		pipeline_filter(d, k);
		cpu_rule(d, k);
	} else {
		cpu_figures(m, d);
	}
	host_figures(m, d);
	verdict(d, k);
	return 0;
}

/* ---- views ----------------------------------------------------------------- */

static void set_s(struct pt_table *t, size_t r, size_t c, const char *s)
{
	pt_table_set_str(t, r, c, s, strlen(s));
}

/* The evidence column (key=value pairs for programs) is a detail column:
 * text prints it only with --wide. */
static void evidence_detail(struct pt_table *t)
{
	int c = pt_table_col(t, "evidence");
	if (c >= 0)
		pt_table_set_detail(t, (size_t)c);
}

static struct pt_table *ops_view(struct pt_ds_dev *devs, size_t nd)
{
	struct pt_table *t = pt_table_new("ops", "Dataset pipeline ops");
	static const struct {
		const char *name;
		enum pt_col_type type;
		int dec;
	} cols[] = {
		{ "op_id", PT_COL_INT, 0 },
		{ "op_type", PT_COL_STR, 0 },
		{ "num_workers", PT_COL_INT, 0 },
		{ "output_queue_size", PT_COL_STR, 0 },
		{ "output_queue_average_size", PT_COL_DOUBLE, 6 },
		{ "output_queue_length", PT_COL_INT, 0 },
		{ "output_queue_usage_rate", PT_COL_DOUBLE, 6 },
		{ "sample_interval", PT_COL_INT, 0 },
		{ "parent_id", PT_COL_INT, 0 },
		{ "children_id", PT_COL_STR, 0 },
		{ "output_queue_usage_pct", PT_COL_DOUBLE, 2 },
		{ "output_queue_empty_pct", PT_COL_DOUBLE, 2 },
		{ "input_queue_usage_pct", PT_COL_DOUBLE, 2 },
		{ "cpu_pct", PT_COL_DOUBLE, 2 },
		{ "cpu_per_worker_pct", PT_COL_DOUBLE, 2 },
		{ "queue_rule", PT_COL_INT, 0 },
		{ "cpu_rule", PT_COL_STR, 0 },
		{ "device_id", PT_COL_INT, 0 },
		{ "evidence", PT_COL_STR, 0 },
	};
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		pt_table_add_col(t, cols[c].name, cols[c].type, c < 2 ? PT_ROLE_KEY : PT_ROLE_VALUE, cols[c].dec);
	/* text without --wide: the op, its place in the pipeline and the usage
	 * figures the rules judge; MindInsight's raw queue columns, the rule
	 * flags and the evidence are detail columns */
	static const char *const shown[] = { "op_id", "op_type", "parent_id", "num_workers", "output_queue_usage_pct",
					     "input_queue_usage_pct", "cpu_pct", "device_id", NULL };
	pt_table_set_default_cols(t, shown);
	for (size_t di = 0; di < nd; di++) {
		struct pt_ds_dev *d = &devs[di];
		for (size_t h = 0; h < d->nbfs; h++) {
			struct pt_ds_op *o = &d->ops[d->bfs[h]];
			size_t r = pt_table_add_row(t);
			pt_table_set_int(t, r, 0, o->md->op_id);
			set_s(t, r, 1, o->type);
			if (o->md->num_workers >= 0)
				pt_table_set_int(t, r, 2, o->md->num_workers);
			if (o->md->has_queue) {
				pt_table_set_strdup(t, r, 3, o->sizes.s, o->sizes.n);
				if (o->samples)
					pt_table_set_double(t, r, 4, o->avg);
				if (o->md->queue_capacity >= 0)
					pt_table_set_int(t, r, 5, o->md->queue_capacity);
				if (o->has_usage) {
					pt_table_set_double(t, r, 6, o->usage);
					pt_table_set_double(t, r, 10, o->usage * 100);
				}
				if (o->samples)
					pt_table_set_double(t, r, 11, 100.0 * (double)o->empty / (double)o->samples);
			}
			pt_table_set_int(t, r, 7, o->md->sampling_interval_ns / 1000000);
			if (o->parent)
				pt_table_set_int(t, r, 8, d->ops[o->parent - 1].md->op_id);
			if (o->kids.n) {
				struct pt_ds_sb b = { 0 };
				for (size_t c = 0; c < o->kids.n; c++)
					pt_ds_sb_printf(&b, "%s%" PRId64, c ? ", " : "[", d->ops[o->kids.v[c]].md->op_id);
				pt_ds_sb_printf(&b, "]");
				set_sb(t, r, 9, &b);
			}
			if (o->has_in)
				pt_table_set_double(t, r, 12, o->in_usage * 100);
			if (o->has_cpu) {
				pt_table_set_double(t, r, 13, o->cpu_pct);
				if (o->has_cpw)
					pt_table_set_double(t, r, 14, o->cpw);
			}
			pt_table_set_int(t, r, 15, o->queue_flag);
			if (o->cpu_rule >= 0)
				set_s(t, r, 16, o->cpu_rule == 2 ? "primary" : o->cpu_rule == 1 ? "yes" : "no");
			pt_table_set_int(t, r, 17, d->id);
			struct pt_ds_sb b = { 0 };
			if (o->md->has_queue) {
				pt_ds_ev_i(&b, "samples", o->samples);
				pt_ds_ev_i(&b, "size_sum", o->size_sum);
				if (o->md->queue_capacity >= 0)
					pt_ds_ev_i(&b, "length", o->md->queue_capacity);
				pt_ds_ev_i(&b, "empty", o->empty);
			}
			if (o->queue_flag)
				pt_ds_ev_s(&b, "queue_reason", o->queue_reason);
			if (o->has_max_child)
				ev_d(&b, "max_child_usage", o->max_child);
			if (o->has_cpu) {
				pt_ds_ev_i(&b, "cpu_samples", o->cpu_samples);
				ev_d(&b, "cpu_sum", o->cpu_sum);
			}
			if (o->cpu_rule > 0)
				pt_ds_ev_s(&b, "cpu_reason", o->cpu_reason);
			set_sb(t, r, 18, &b);
		}
	}
	return t;
}

/*
 * `op_cpu`: the CPU of each pipeline op per step window, placed by the rules
 * of model/hostcpu.h (the Host CPU table of `summary --view device`): one row
 * per step of the device, then `outside` and `all`. Only devices whose
 * samples a rule places and that have steps; NULL when there is none.
 */
struct opcpu_acc {
	int64_t n, nu, ns;
	double sum, su, ss;
};

static void opcpu_row(struct pt_table *t, const struct pt_ds_dev *d, const struct pt_ds_op *o, const char *step,
		      const struct opcpu_acc *a, const char *rule, const struct pt_hostcpu_step *w)
{
	size_t r = pt_table_add_row(t);
	pt_table_set_int(t, r, 0, o->md->op_id);
	set_s(t, r, 1, o->type);
	if (o->md->num_workers >= 0)
		pt_table_set_int(t, r, 2, o->md->num_workers);
	pt_table_set_strdup(t, r, 3, step, strlen(step));
	pt_table_set_int(t, r, 4, a->n);
	if (a->nu)
		pt_table_set_double(t, r, 5, a->su / (double)a->nu);
	if (a->ns)
		pt_table_set_double(t, r, 6, a->ss / (double)a->ns);
	if (a->n) {
		double pct = a->sum / (double)a->n;
		pt_table_set_double(t, r, 7, pct);
		if (o->md->num_workers > 0)
			pt_table_set_double(t, r, 8, pct / (double)o->md->num_workers);
	}
	pt_table_set_int(t, r, 9, d->id);
	struct pt_ds_sb b = { 0 };
	if (rule)
		pt_ds_ev_s(&b, "rule", rule);
	if (w) {
		pt_ds_ev_i(&b, "window_start_ns", w->s);
		pt_ds_ev_i(&b, "window_end_ns", w->e);
	}
	ev_d(&b, "cpu_sum", a->sum);
	set_sb(t, r, 10, &b);
}

static struct pt_table *op_cpu_view(const struct pt_model *m, struct pt_ds_dev *devs, size_t nd)
{
	struct pt_table *t = NULL;
	for (size_t di = 0; di < nd; di++) {
		struct pt_ds_dev *d = &devs[di];
		struct pt_hostcpu h;
		struct pt_hostcpu_step *st = NULL;
		size_t nst = 0;
		bool any_cpu = false;
		for (size_t i = 0; i < d->nops; i++)
			any_cpu |= d->ops[i].has_cpu;
		if (!any_cpu || !pt_hostcpu_load(m, d->index, &h)) {
			if (any_cpu)
				pt_hostcpu_free(&h);
			continue;
		}
		nst = pt_hostcpu_ascend_steps(m, d->index, &st);
		struct pt_hostcpu_place pl;
		pt_hostcpu_place_init(&pl, m, d->index, st, nst);
		if (!nst || pl.rule == PT_HC_RULE_NONE) {
			pt_hostcpu_place_free(&pl);
			free(st);
			pt_hostcpu_free(&h);
			continue;
		}
		const char *rule = pl.rule == PT_HC_RULE_OFFSET ? "offset" : "queue";
		if (!t) {
			t = pt_table_new("op_cpu", "Dataset pipeline op CPU per step");
			static const struct {
				const char *name;
				enum pt_col_type type;
				int dec;
			} cols[] = {
				{ "op_id", PT_COL_INT, 0 },	   { "op_type", PT_COL_STR, 0 },
				{ "num_workers", PT_COL_INT, 0 },  { "step", PT_COL_STR, 0 },
				{ "samples", PT_COL_INT, 0 },	   { "user_pct", PT_COL_DOUBLE, 2 },
				{ "sys_pct", PT_COL_DOUBLE, 2 },   { "cpu_pct", PT_COL_DOUBLE, 2 },
				{ "cpu_per_worker_pct", PT_COL_DOUBLE, 2 }, { "device_id", PT_COL_INT, 0 },
				{ "evidence", PT_COL_STR, 0 },
			};
			for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				pt_table_add_col(t, cols[c].name, cols[c].type, c < 2 || c == 3 ? PT_ROLE_KEY : PT_ROLE_VALUE,
						 cols[c].dec);
			evidence_detail(t);
		}
		struct opcpu_acc *acc = pt_xcalloc(nst + 2, sizeof(*acc)); /* steps, outside, all */
		for (size_t hb = 0; hb < d->nbfs; hb++) {
			const struct pt_ds_op *o = &d->ops[d->bfs[hb]];
			const struct pt_hostcpu_op *co = o->has_cpu ? pt_hostcpu_find_op(&h, o->md->op_id) : NULL;
			if (!co)
				continue;
			memset(acc, 0, (nst + 2) * sizeof(*acc));
			size_t n = pt_hostcpu_op_samples(co);
			for (size_t j = 0; j < n; j++) {
				int64_t ts;
				bool hu, hs;
				double u, sy;
				pt_hostcpu_op_sample(co, j, &ts, &hu, &u, &hs, &sy);
				int64_t w = pt_hostcpu_place_step(&pl, ts);
				struct opcpu_acc *as[2] = { &acc[w < 0 ? nst : (size_t)w], &acc[nst + 1] };
				for (int k = 0; k < 2; k++) {
					as[k]->n++;
					as[k]->sum += u + sy;
					as[k]->nu += hu;
					as[k]->su += u;
					as[k]->ns += hs;
					as[k]->ss += sy;
				}
			}
			char lb[32];
			for (size_t k = 0; k < nst; k++) {
				snprintf(lb, sizeof(lb), "%" PRId64, st[k].num);
				opcpu_row(t, d, o, lb, &acc[k], rule, &st[k]);
			}
			opcpu_row(t, d, o, "outside", &acc[nst], rule, NULL);
			opcpu_row(t, d, o, "all", &acc[nst + 1], NULL, NULL);
		}
		free(acc);
		pt_hostcpu_place_free(&pl);
		free(st);
		pt_hostcpu_free(&h);
	}
	return t;
}

static struct pt_table *queues_view(struct pt_ds_dev *devs, size_t nd)
{
	struct pt_table *t = pt_table_new("queues", "Batch queues");
	pt_table_add_col(t, "queue", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "source", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "samples", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "empty", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "full", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "empty_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "full_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "capacity", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "mean_wait", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "max_wait", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "evidence", PT_COL_STR, PT_ROLE_LABEL, 0);
	evidence_detail(t);
	for (size_t di = 0; di < nd; di++) {
		struct pt_ds_dev *d = &devs[di];
		if (d->host.present) {
			size_t r = pt_table_add_row(t);
			set_s(t, r, 0, "host");
			set_s(t, r, 1, d->host.source == PT_MD_DEVICE_QUEUE ? "device_queue" : "dataset_iterator");
			pt_table_set_int(t, r, 2, d->host.samples);
			pt_table_set_int(t, r, 3, d->host.empty);
			pt_table_set_int(t, r, 4, d->host.full);
			pt_table_set_double(t, r, 5, 100.0 * (double)d->host.empty / (double)d->host.samples);
			pt_table_set_double(t, r, 6, 100.0 * (double)d->host.full / (double)d->host.samples);
			pt_table_set_int(t, r, 7, d->host.capacity);
			pt_table_set_int(t, r, 10, d->id);
			struct pt_ds_sb b = { 0 };
			pt_ds_ev_i(&b, "samples", d->host.samples);
			pt_ds_ev_i(&b, "empty", d->host.empty);
			pt_ds_ev_i(&b, "full", d->host.full);
			pt_ds_ev_i(&b, "capacity", d->host.capacity);
			set_sb(t, r, 11, &b);
		}
		if (d->gn.present) {
			size_t r = pt_table_add_row(t);
			set_s(t, r, 0, "get_next");
			set_s(t, r, 1, "aicpumi");
			pt_table_set_int(t, r, 2, d->gn.samples);
			pt_table_set_int(t, r, 3, d->gn.empty);
			pt_table_set_double(t, r, 5, 100.0 * (double)d->gn.empty / (double)d->gn.samples);
			if (d->gn.waits) {
				pt_table_set_int(t, r, 8, div_round(d->gn.wait_sum, d->gn.waits));
				pt_table_set_int(t, r, 9, d->gn.wait_max);
			}
			pt_table_set_int(t, r, 10, d->id);
			struct pt_ds_sb b = { 0 };
			pt_ds_ev_i(&b, "samples", d->gn.samples);
			pt_ds_ev_i(&b, "empty", d->gn.empty);
			if (d->gn.waits) {
				pt_ds_ev_i(&b, "wait_sum_ns", d->gn.wait_sum);
				pt_ds_ev_i(&b, "waits", d->gn.waits);
				pt_ds_ev_i(&b, "max_wait_ns", d->gn.wait_max);
			}
			set_sb(t, r, 11, &b);
		}
	}
	return t;
}

static struct pt_table *stages_view(struct pt_ds_dev *devs, size_t nd, const struct pt_dataset_knobs *k)
{
	static const char *const names[] = { "data_processing", "host_to_device", "device_fetch", "verdict" };
	struct pt_table *t = pt_table_new("stages", "Input stages");
	pt_table_add_col(t, "stage", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "status", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "rule_set", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "mindinsight_status", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "evidence", PT_COL_STR, PT_ROLE_LABEL, 0);
	evidence_detail(t);
	for (size_t di = 0; di < nd; di++) {
		struct pt_ds_dev *d = &devs[di];
		if (!d->host.present && !d->gn.present && !d->has_pipeline)
			continue;
		for (int s = 0; s < 4; s++) {
			size_t r = pt_table_add_row(t);
			set_s(t, r, 0, names[s]);
			set_s(t, r, 1, s < 3 ? d->st[s] : d->verdict);
			set_s(t, r, 2, k->queue_rules == PT_MD_RULES_2020 ? "2020" : "current");
			if (d->mi[s])
				set_s(t, r, 3, d->mi[s]);
			pt_table_set_int(t, r, 4, d->id);
			struct pt_ds_sb b = { 0 };
			if (s != 2 && d->host.present) {
				pt_ds_ev_i(&b, "host_empty", d->host.empty);
				pt_ds_ev_i(&b, "host_samples", d->host.samples);
				if (s == 3 || s == 0)
					ev_d(&b, "threshold_pct", pt_dataset_queue_pct(k));
			}
			if (s != 0 && d->gn.present) {
				pt_ds_ev_i(&b, "dev_empty", d->gn.empty);
				pt_ds_ev_i(&b, "dev_samples", d->gn.samples);
				if (s == 2 && d->gn.waits) {
					pt_ds_ev_i(&b, "mean_wait_ns", div_round(d->gn.wait_sum, d->gn.waits));
					pt_ds_ev_i(&b, "max_wait_ns", d->gn.wait_max);
				}
			}
			set_sb(t, r, 5, &b);
		}
	}
	return t;
}

struct batch {
	int64_t batch;
	int64_t v[3];
	bool has[3];
	int64_t records;
};

static int cmp_batch(const void *a, const void *b)
{
	const struct batch *x = a, *y = b;
	return x->batch < y->batch ? -1 : x->batch > y->batch;
}

/* Batches of one device; NULL-free: returns the count. src: the file used. */
static size_t dev_batches(const struct pt_model *m, const struct pt_ds_dev *d, struct batch **out, int *src)
{
	PT_VEC(struct batch) v = { 0 };
	*src = -1;
	for (size_t i = 0; i < m->md_records.n; i++) {
		const struct pt_md_record *r = &m->md_records.v[i];
		if (r->device == d->index && r->file == PT_MD_DEVICE_QUEUE && r->type == 0 && r->extra >= 0 &&
		    r->extra <= 2)
			*src = PT_MD_DEVICE_QUEUE;
	}
	if (*src < 0) {
		for (size_t i = 0; i < m->md_records.n; i++) {
			const struct pt_md_record *r = &m->md_records.v[i];
			if (r->device == d->index && r->file == PT_MD_ITERATOR && r->time >= 0)
				*src = PT_MD_ITERATOR;
		}
	}
	if (*src < 0) {
		*out = NULL;
		return 0;
	}
	int64_t prev = -1;
	struct pt_hashmap at; /* batch number -> index in v */
	pt_hashmap_init(&at);
	for (size_t i = 0; i < m->md_records.n; i++) {
		const struct pt_md_record *r = &m->md_records.v[i];
		if (r->device != d->index || r->file != *src)
			continue;
		int col;
		int64_t val;
		if (*src == PT_MD_DEVICE_QUEUE) {
			if (r->type != 0 || r->extra < 0 || r->extra > 2)
				continue;
			col = r->extra == 0 ? 0 : r->extra == 1 ? 1 : 2;
			val = r->value;
		} else {
			if (r->time < 0)
				continue;
			int64_t p = prev;
			prev = r->time;
			if (p < 0)
				continue;
			col = 2;
			val = r->time - p;
		}
		bool added;
		size_t j = (size_t)*pt_hashmap_put(&at, (uint64_t)r->batch, v.n, &added);
		if (added) {
			struct batch nb = { r->batch, { 0, 0, 0 }, { false, false, false }, 0 };
			pt_vec_push(&v, nb);
		}
		v.v[j].v[col] = val;
		v.v[j].has[col] = true;
		v.v[j].records++;
	}
	pt_hashmap_free(&at);
	pt_sort(v.v, v.n, sizeof(*v.v), cmp_batch);
	*out = v.v;
	return v.n;
}

static struct pt_table *batches_view(const struct pt_model *m, struct pt_ds_dev *devs, size_t nd)
{
	struct pt_table *t = NULL;
	for (size_t di = 0; di < nd; di++) {
		struct batch *b;
		int src;
		size_t n = dev_batches(m, &devs[di], &b, &src);
		if (!n) {
			free(b);
			continue;
		}
		if (!t) {
			t = pt_table_new("batches", "Per-batch times");
			pt_table_add_col(t, "batch", PT_COL_STR, PT_ROLE_KEY, 0);
			pt_table_add_col(t, "get", PT_COL_TIME, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "push", PT_COL_TIME, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "warmup", PT_COL_INT, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "evidence", PT_COL_STR, PT_ROLE_LABEL, 0);
			evidence_detail(t);
		}
		int64_t sum[3] = { 0, 0, 0 }, mn[3], mx[3], cnt[3] = { 0, 0, 0 };
		for (size_t i = 0; i < n; i++) {
			size_t r = pt_table_add_row(t);
			char nb[32];
			int l = snprintf(nb, sizeof(nb), "%" PRId64, b[i].batch);
			pt_table_set_strdup(t, r, 0, nb, (size_t)l);
			for (int c = 0; c < 3; c++)
				if (b[i].has[c])
					pt_table_set_int(t, r, 1 + c, b[i].v[c]);
			bool warm = b[i].batch < 2;
			pt_table_set_int(t, r, 4, warm);
			pt_table_set_int(t, r, 5, devs[di].id);
			struct pt_ds_sb e = { 0 };
			pt_ds_ev_i(&e, "records", b[i].records);
			pt_ds_ev_s(&e, "source", src == PT_MD_DEVICE_QUEUE ? "device_queue" : "dataset_iterator");
			set_sb(t, r, 6, &e);
			if (warm)
				continue;
			for (int c = 0; c < 3; c++) {
				if (!b[i].has[c])
					continue;
				if (!cnt[c] || b[i].v[c] < mn[c])
					mn[c] = b[i].v[c];
				if (!cnt[c] || b[i].v[c] > mx[c])
					mx[c] = b[i].v[c];
				sum[c] += b[i].v[c];
				cnt[c]++;
			}
		}
		static const char *const agg[] = { "avg", "min", "max" };
		for (int a = 0; a < 3; a++) {
			size_t r = pt_table_add_row(t);
			set_s(t, r, 0, agg[a]);
			struct pt_ds_sb e = { 0 };
			for (int c = 0; c < 3; c++) {
				if (!cnt[c])
					continue;
				pt_table_set_int(t, r, 1 + c,
						 a == 0 ? div_round(sum[c], cnt[c]) : a == 1 ? mn[c] : mx[c]);
				static const char *const k[] = { "get", "push", "total" };
				char key[32];
				if (a == 0) {
					snprintf(key, sizeof(key), "%s_sum_ns", k[c]);
					pt_ds_ev_i(&e, key, sum[c]);
					snprintf(key, sizeof(key), "%s_batches", k[c]);
					pt_ds_ev_i(&e, key, cnt[c]);
				}
			}
			pt_table_set_int(t, r, 5, devs[di].id);
			set_sb(t, r, 6, &e);
		}
		free(b);
	}
	return t;
}

/* ---- hints (hints.md MD_* rules, ungated) ------------------------------------- */

/* The evidence of a record as one cell: key=value pairs, ';'-separated, values escaped (\ ; =). */
static void evidence_cell(struct pt_table *t, size_t r, size_t c, const struct pt_hint *x)
{
	struct pt_ds_sb b = { 0 };
	for (size_t i = 0; i < x->nev; i++)
		pt_ds_ev_s(&b, x->ev[i].key, x->ev[i].text);
	set_sb(t, r, c, &b);
}

/*
 * The records of the MD_* rules (lib/pass/hints/rules-md.c) as rows: warn
 * before info, then the rules' order, then device order. Value and threshold
 * print as `proftool hints` prints them (table/hints.h).
 */
static struct pt_table *hints_view(struct pt_ds_dev *devs, size_t nd, const struct pt_dataset_knobs *k)
{
	struct pt_table *t = pt_table_new("hints", "Dataset hints");
	static const char *const cols[] = { "rank", "scope", "rule_id", "severity", "metric", "value",
					    "threshold", "unit", "message", "evidence" };
	for (int c = 0; c < 10; c++)
		pt_table_add_col(t, cols[c], c == 0 ? PT_COL_INT : PT_COL_STR, c < 3 ? PT_ROLE_KEY : PT_ROLE_LABEL, 0);
	/* text without --wide: who, which rule, how bad and the message (which
	 * names the figure); the figure's own columns and the evidence are detail */
	static const char *const shown[] = { "rank", "scope", "rule_id", "severity", "message", NULL };
	pt_table_set_default_cols(t, shown);
	struct pt_hints h = { 0 };
	for (size_t di = 0; di < nd; di++)
		pt_hints_md(&devs[di], k, -1, &h);
	for (int warn = 1; warn >= 0; warn--)
		for (int rule = PT_HR_MD_QUEUE; rule <= PT_HR_MD_BOTTLENECK_OP; rule++)
			for (size_t i = 0; i < h.n; i++) {
				const struct pt_hint *x = &h.v[i];
				if (x->rule != rule || (x->sev == PT_SEV_WARN) != warn)
					continue;
				char b[512]; /* %.4f of any double fits */
				size_t r = pt_table_add_row(t);
				pt_table_set_int(t, r, 0, x->rank);
				pt_table_set_strdup(t, r, 1, x->scope, strlen(x->scope));
				set_s(t, r, 2, x->id);
				set_s(t, r, 3, pt_hint_sev_name(x->sev));
				pt_table_set_strdup(t, r, 4, x->metric, strlen(x->metric));
				pt_hint_fmt_value(b, sizeof(b), x->unit, x->value);
				pt_table_set_strdup(t, r, 5, b, strlen(b));
				pt_hint_fmt_value(b, sizeof(b), x->unit, x->threshold);
				pt_table_set_strdup(t, r, 6, b, strlen(b));
				pt_table_set_strdup(t, r, 7, x->unit, strlen(x->unit));
				pt_table_set_strdup(t, r, 8, x->message, strlen(x->message));
				evidence_cell(t, r, 9, x);
			}
	pt_hints_free(&h);
	return t;
}

int pt_dataset_figures(const struct pt_model *m, int64_t device, const struct pt_dataset_knobs *k,
		       struct pt_ds_dev **out, size_t *nout, struct pt_err **e)
{
	/* devices with MindData or get_next data, in device-id order */
	struct pt_ds_dev *devs = pt_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*devs));
	size_t nd = 0;
	int rc = 0;
	uint32_t *order = pt_xmalloc((m->devices.n ? m->devices.n : 1) * sizeof(*order));
	for (size_t i = 0; i < m->devices.n; i++) {
		size_t j = i;
		while (j > 0 && m->devices.v[order[j - 1]].id > m->devices.v[i].id) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = (uint32_t)i;
	}
	for (size_t oi = 0; oi < m->devices.n && !rc; oi++) {
		uint32_t i = order[oi];
		if (device >= 0 && m->devices.v[i].id != (uint64_t)device)
			continue;
		struct pt_ds_dev d;
		if (dev_figures(m, i, k, &d, e)) {
			pt_ds_dev_free(&d);
			rc = -1;
			break;
		}
		if (!d.has_pipeline && !d.host.present && !d.gn.present && !d.has_idle) {
			pt_ds_dev_free(&d);
			continue;
		}
		devs[nd++] = d;
	}
	free(order);
	*out = devs;
	*nout = nd;
	return rc;
}

void pt_dataset_figures_free(struct pt_ds_dev *devs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pt_ds_dev_free(&devs[i]);
	free(devs);
}

int pt_pass_dataset(const struct pt_model *m, int64_t device, const struct pt_dataset_knobs *k,
		    struct pt_table ***tables, size_t *ntables, struct pt_err **e)
{
	*tables = NULL;
	*ntables = 0;
	struct pt_ds_dev *devs = NULL;
	size_t nd = 0;
	int rc = pt_dataset_figures(m, device, k, &devs, &nd, e);
	if (!rc && !nd) {
		rc = pt_err_nodata(e, "dataset", device, "MindData files or get_next records");
	}
	if (!rc) {
		struct pt_table **t = pt_xcalloc(6, sizeof(*t));
		size_t n = 0;
		t[n++] = ops_view(devs, nd);
		struct pt_table *oc = op_cpu_view(m, devs, nd);
		if (oc)
			t[n++] = oc;
		t[n++] = queues_view(devs, nd);
		t[n++] = stages_view(devs, nd, k);
		struct pt_table *b = batches_view(m, devs, nd);
		if (b)
			t[n++] = b;
		t[n++] = hints_view(devs, nd, k);
		for (size_t i = 0; i < n; i++)
			if (!t[i]->nrows) {
				struct pt_sel sel;
				pt_sel_init(&sel);
				sel.device = device;
				char why[160];
				static const char *const what[][2] = {
					{ "ops", "pipeline ops" },     { "op_cpu", "op CPU samples in steps" },
					{ "queues", "queue records" }, { "stages", "stage figures" },
					{ "batches", "batch records" }, { "hints", "dataset hints" },
				};
				const char *w = "rows";
				for (size_t j = 0; j < sizeof(what) / sizeof(what[0]); j++)
					if (!strcmp(what[j][0], t[i]->name))
						w = what[j][1];
				pt_table_set_empty(t[i], pt_sel_empty_reason(&sel, w, why, sizeof(why)));
			}
		*tables = t;
		*ntables = n;
	}
	pt_dataset_figures_free(devs, nd);
	return rc;
}
