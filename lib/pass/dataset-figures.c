/*
 * The MindData figures per device (ascend.md §3.11; dataset-figures.h): the
 * knobs of hints.md §5 that set their thresholds, the evidence strings, the
 * collapsed pipeline tree, queue usage, CPU per worker, the two bottleneck
 * filters and the queue verdict. `proftool dataset` (pass-dataset.c) turns
 * them into views; the MD_* hint rules (hints/rules-md.c) read them.
 */
#include "pass/dataset-figures.h"
#include "pass/pass-dataset.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hostcpu.h"
#include "model/model.h"
#include "support/err.h"
#include "support/xalloc.h"

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

void pt_ds_ev_d(struct pt_ds_sb *b, const char *key, double v)
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
