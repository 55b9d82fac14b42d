/*
 * The MindData rules (hints.md §3 MD_*): MD_QUEUE, MD_PIPELINE, MD_CPU_BUSY,
 * MD_OP_CPU, MD_OP_QUEUE, MD_BOTTLENECK_OP over the figures of
 * dataset-figures.c (dataset-figures.h), then the gates G1 and G2 of hints.md
 * §4. The same records, ungated, are the `hints` view of `proftool dataset`
 * (pt_hints_md).
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hostcpu.h"
#include "model/model.h"
#include "pass/dataset-figures.h"
#include "support/xalloc.h"

/* The evidence string of a rule (pt_ds_ev_* pairs) as the record's pairs:
 * <list>_<n>_<field> keys become list items; a value is a number when it
 * reads as one. */
static void parse_evidence(struct pt_hint *x, const char *s)
{
	size_t n = strlen(s);
	char *key = pt_xmalloc(n + 1), *val = pt_xmalloc(n + 1);
	while (*s) {
		size_t kl = 0, vl = 0;
		while (*s && *s != '=')
			key[kl++] = *s++;
		key[kl] = 0;
		if (*s != '=')
			break;
		s++;
		while (*s && *s != ';') {
			if (*s == '\\' && s[1])
				s++;
			val[vl++] = *s++;
		}
		val[vl] = 0;
		if (*s == ';')
			s++;
		char *end;
		bool num = vl && (strtod(val, &end), !*end) && !strpbrk(val, "nNxXiI");
		/* list items: <list>_<n>_<field> */
		char *u = strchr(key, '_');
		if (u && u[1] >= '1' && u[1] <= '9') {
			char *v;
			long idx = strtol(u + 1, &v, 10);
			if (*v == '_' && v[1]) {
				*u = 0;
				pt_hint_ev_item(x, key, (int)idx, v + 1, val, num);
				continue;
			}
		}
		pt_hint_ev_str(x, key, val);
		x->ev[x->nev - 1].num = num;
	}
	free(key);
	free(val);
}

/* A record of a rule on device d; takes msg and ev (left empty). */
static void record(struct pt_hints *h, const struct pt_ds_dev *d, const char *scope, enum pt_hint_rule rule,
		   const char *sev, const char *metric, double value, double thr, const char *unit, struct pt_ds_sb *msg,
		   struct pt_ds_sb *ev)
{
	struct pt_hint *x = pt_hints_add(h, rule, d->id, scope);
	x->sev = !strcmp(sev, "crit") ? PT_SEV_CRIT : !strcmp(sev, "warn") ? PT_SEV_WARN : PT_SEV_INFO;
	x->metric = pt_xstrdup(metric);
	x->unit = pt_xstrdup(unit);
	x->value = value;
	x->threshold = thr;
	x->message = msg->s ? msg->s : pt_xstrdup("");
	parse_evidence(x, ev->s ? ev->s : "");
	free(ev->s);
	memset(msg, 0, sizeof(*msg));
	memset(ev, 0, sizeof(*ev));
}

/* A fractional evidence value: the digits of every hint record (table/hints.h). */
static void ev_f(struct pt_ds_sb *b, const char *key, double v)
{
	char t[512];
	pt_hint_fmt_frac(t, sizeof(t), v);
	pt_ds_ev_s(b, key, t);
}

static void op_name(struct pt_ds_sb *b, const struct pt_ds_op *o)
{
	pt_ds_sb_printf(b, "%s_%" PRId64, o->type, o->md->op_id);
}

static void md_queue(struct pt_hints *h, const struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	if (!d->host.present)
		return;
	char scope[64];
	snprintf(scope, sizeof(scope), "stage:%s", d->verdict);
	struct pt_ds_sb msg = { 0 }, ev = { 0 };
	double pct = pt_dataset_queue_pct(k);
	int64_t rate = (100 * d->host.empty + d->host.samples - 1) / d->host.samples;
	const char *sev = "info";
	if (!strcmp(d->verdict, "data_processing")) {
		sev = "warn";
		pt_ds_sb_printf(&msg, "The host batch queue was empty in %" PRId64 "/%" PRId64 " samples (" PT_TEXT_FRAC
				"%%, threshold " PT_TEXT_FRAC "%%): the dataset pipeline cannot keep up with training.",
				d->host.empty, d->host.samples, 100.0 * (double)d->host.empty / (double)d->host.samples,
				pct);
	} else if (!strcmp(d->verdict, "host_to_device")) {
		sev = "warn";
		pt_ds_sb_printf(&msg, "The host queue stays filled (empty %" PRId64 "/%" PRId64 ") but the device-side queue "
				"ran empty %" PRId64 "/%" PRId64 " times: moving batches from host to device is the bottleneck.",
				d->host.empty, d->host.samples, d->gn.empty, d->gn.samples);
	} else if (!strcmp(d->verdict, "none")) {
		pt_ds_sb_printf(&msg, "Batch queues are healthy (host empty %" PRId64 "/%" PRId64 ", full %" PRId64 "/%" PRId64
				"; device empty %" PRId64 "/%" PRId64 "): data input is not what limits training.",
				d->host.empty, d->host.samples, d->host.full, d->host.samples, d->gn.empty, d->gn.samples);
	} else {
		pt_ds_sb_printf(&msg, "The host batch queue was empty in %" PRId64 "/%" PRId64 " samples (threshold "
				PT_TEXT_FRAC "%%), so "
				"the dataset pipeline keeps up; without device-side get_next samples the transfer to the "
				"device and the device fetch cannot be judged.", d->host.empty, d->host.samples, pct);
	}
	pt_ds_ev_i(&ev, "n_host", d->host.samples);
	pt_ds_ev_i(&ev, "empty_host", d->host.empty);
	pt_ds_ev_i(&ev, "full_host", d->host.full);
	if (d->gn.present) {
		pt_ds_ev_i(&ev, "n_dev", d->gn.samples);
		pt_ds_ev_i(&ev, "empty_dev", d->gn.empty);
	}
	pt_ds_ev_i(&ev, "rate", rate);
	record(h, d, scope, PT_HR_MD_QUEUE, sev, "host_empty_pct",
	       100.0 * (double)d->host.empty / (double)d->host.samples, pct, "pct", &msg, &ev);
}

static void md_pipeline(struct pt_hints *h, const struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	if (d->ops[d->root].queue_flag)
		return; /* nothing, or the root alone: the consumer is slow */
	const struct pt_ds_op *first = NULL;
	bool any_gap = false, any_leaf = false;
	/* flagged ops by ascending op id */
	size_t *ix = pt_xmalloc(d->nops * sizeof(*ix)), n = 0;
	for (size_t i = 0; i < d->nops; i++)
		if (d->ops[i].queue_flag)
			ix[n++] = i;
	if (!n) {
		free(ix);
		return;
	}
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && d->ops[ix[b]].md->op_id < d->ops[ix[b - 1]].md->op_id; b--) {
			size_t x = ix[b];
			ix[b] = ix[b - 1];
			ix[b - 1] = x;
		}
	first = &d->ops[ix[0]];
	double low = pt_dataset_pl_low(k);
	struct pt_ds_sb msg = { 0 }, ev = { 0 }, gap = { 0 }, leaf = { 0 }, all = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct pt_ds_op *o = &d->ops[ix[i]];
		bool g = !strcmp(o->queue_reason, "child_gap");
		struct pt_ds_sb *dst = g ? &gap : &leaf;
		if (dst->n)
			pt_ds_sb_printf(dst, ", ");
		op_name(dst, o);
		if (all.n)
			pt_ds_sb_printf(&all, ", ");
		op_name(&all, o);
		any_gap |= g;
		any_leaf |= !g;
	}
	if (k->pipeline_rules == PT_MD_RULES_CURRENT) {
		pt_ds_sb_printf(&msg, "The dataset pipeline is limited by %s.", all.s);
		if (any_gap)
			pt_ds_sb_printf(&msg, " %s: each consumes more slowly than its inputs produce, its output queue more "
					"than " PT_TEXT_FRAC " emptier than a queue feeding it.", gap.s, k->pl_delta);
		if (any_leaf)
			pt_ds_sb_printf(&msg, " %s: each is a source op that keeps its output queue below " PT_TEXT_FRAC " full, so it "
					"does not read fast enough to fill the pipeline.", leaf.s, low);
	} else if (!strcmp(first->queue_reason, "all_low")) {
		pt_ds_sb_printf(&msg, "Every dataset pipeline op keeps its output queue below " PT_TEXT_FRAC " full: "
				"the source ops %s do "
				"not read fast enough to fill the pipeline.", low, all.s);
	} else {
		pt_ds_sb_printf(&msg, "The dataset pipeline is limited by %s: each keeps its output queue below "
				PT_TEXT_FRAC " full while "
				"every queue feeding it is at least " PT_TEXT_FRAC " full, so it consumes more slowly than its inputs "
				"produce.", all.s, low, k->pl_high);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pt_ds_op *o = &d->ops[ix[i]];
		struct pt_ds_sb nm = { 0 };
		op_name(&nm, o);
		if (!o->kids.n)
			pt_ds_sb_printf(&msg, " %s: change num_parallel_workers (more for slow reading, fewer if CPUs are "
					"saturated).", nm.s);
		else if (pt_ds_disp_is(o, "Generator"))
			pt_ds_sb_printf(&msg, " %s: change num_parallel_workers, speed up the Python generator, or convert "
					"the data set to MindRecord.", nm.s);
		else if (pt_ds_disp_is(o, "Map"))
			pt_ds_sb_printf(&msg, " %s: change num_parallel_workers; if the map runs Python functions, make "
					"them faster.", nm.s);
		else if (pt_ds_disp_is(o, "Batch"))
			pt_ds_sb_printf(&msg, " %s: raise prefetch_size.", nm.s);
		free(nm.s);
	}
	pt_ds_ev_s(&ev, "rules", k->pipeline_rules == PT_MD_RULES_2020 ? "2020" : "current");
	ev_f(&ev, "high", k->pl_high);
	ev_f(&ev, "low", low);
	if (k->pipeline_rules == PT_MD_RULES_CURRENT)
		ev_f(&ev, "delta", k->pl_delta);
	for (size_t i = 0; i < n; i++) {
		const struct pt_ds_op *o = &d->ops[ix[i]];
		char key[64];
		struct pt_ds_sb nm = { 0 };
		op_name(&nm, o);
		snprintf(key, sizeof(key), "ops_%zu_name", i + 1);
		pt_ds_ev_s(&ev, key, nm.s);
		free(nm.s);
		snprintf(key, sizeof(key), "ops_%zu_reason", i + 1);
		pt_ds_ev_s(&ev, key, o->queue_reason);
		snprintf(key, sizeof(key), "ops_%zu_usage", i + 1);
		ev_f(&ev, key, o->usage);
		if (o->has_max_child) {
			snprintf(key, sizeof(key), "ops_%zu_max_child_usage", i + 1);
			ev_f(&ev, key, o->max_child);
		}
		snprintf(key, sizeof(key), "ops_%zu_workers", i + 1);
		pt_ds_ev_i(&ev, key, o->md->num_workers);
	}
	bool g = !strcmp(first->queue_reason, "child_gap");
	record(h, d, "rank", PT_HR_MD_PIPELINE, "warn", g ? "usage_gap" : "usage",
	       g ? first->max_child - first->usage : first->usage, g ? k->pl_delta : low, "fraction", &msg, &ev);
	free(gap.s);
	free(leaf.s);
	free(all.s);
	free(ix);
}

static void md_cpu_busy(struct pt_hints *h, const struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	double idle, busy;
	if (!pt_hostcpu_mean(&d->cpu, PT_HC_IDLE, &idle) || !pt_hostcpu_busy_pct(&d->cpu, &busy))
		return;
	if (!(busy > k->cpu_busy_pct))
		return;
	struct pt_ds_sb msg = { 0 }, ev = { 0 };
	pt_ds_sb_printf(&msg, "Host CPUs are " PT_TEXT_FRAC "%% busy on average (threshold " PT_TEXT_FRAC "%%): "
			"data-pipeline workers compete for CPU "
			"time; adding workers will not help, lighter preprocessing or fewer competing threads may.", busy,
			k->cpu_busy_pct);
	ev_f(&ev, "busy", busy);
	ev_f(&ev, "mean_idle", idle);
	pt_ds_ev_i(&ev, "samples", d->cpu.n[PT_HC_IDLE]);
	record(h, d, "rank", PT_HR_MD_CPU_BUSY, "warn", "busy", busy, k->cpu_busy_pct, "pct", &msg, &ev);
}

static void op_evidence(struct pt_ds_sb *ev, const struct pt_ds_dev *d, const struct pt_ds_op *o)
{
	if (o->has_cpw)
		ev_f(ev, "cpu_per_worker", o->cpw);
	pt_ds_ev_i(ev, "workers", o->md->num_workers);
	if (o->has_in)
		ev_f(ev, "input_usage_pct", o->in_usage * 100);
	if (o->has_usage)
		ev_f(ev, "output_usage_pct", o->usage * 100);
	if (o->kids.n) {
		const struct pt_ds_op *c = &d->ops[o->kids.v[0]];
		if (c->samples)
			ev_f(ev, "input_empty_pct", 100.0 * (double)c->empty / (double)c->samples);
	}
}

/* MD_OP_CPU (rule 0) or MD_OP_QUEUE (rule 1), per op in BFS order */
static void md_op(struct pt_hints *h, const struct pt_ds_dev *d, const struct pt_dataset_knobs *k, int rule)
{
	for (size_t q = 0; q < d->nbfs; q++) {
		const struct pt_ds_op *o = &d->ops[d->bfs[q]];
		if (pt_ds_is_exempt(o))
			continue;
		struct pt_ds_sb nm = { 0 }, msg = { 0 }, ev = { 0 };
		op_name(&nm, o);
		char scope[96];
		snprintf(scope, sizeof(scope), "op:%s", nm.s);
		const char *sev = "info", *metric = NULL;
		double v = 0, th = 0;
		if (rule == 0 && o->has_cpw) {
			if (o->cpw > k->op_cpu_high_pct) {
				pt_ds_sb_printf(&msg, "%s uses " PT_TEXT_FRAC "%% CPU per worker: it is CPU-bound; more than %" PRId64
						" workers may help", nm.s, o->cpw, o->md->num_workers);
				metric = "cpu_per_worker", v = o->cpw, th = k->op_cpu_high_pct;
			} else if (o->cpw < k->op_cpu_low_pct && o->md->num_workers > 1) {
				pt_ds_sb_printf(&msg, "%s uses only " PT_TEXT_FRAC "%% CPU per worker: its %" PRId64
						" workers are mostly idle", nm.s, o->cpw, o->md->num_workers);
				metric = "cpu_per_worker", v = o->cpw, th = k->op_cpu_low_pct;
			}
		} else if (rule == 1 && !pt_ds_disp_is(o, "Batch") && o != &d->ops[d->root]) {
			if (!o->kids.n && o->has_usage && o->usage * 100 < k->op_leaf_usage_pct) {
				pt_ds_sb_printf(&msg, "%s fills only " PT_TEXT_FRAC "%% of its output queue: reading is slow, more "
						"than %" PRId64 " workers may help", nm.s, o->usage * 100,
						o->md->num_workers);
				metric = "output_usage_pct", v = o->usage * 100, th = k->op_leaf_usage_pct;
			} else if (pt_ds_disp_is(o, "DeviceQueue") && o->kids.n &&
				   d->ops[o->kids.v[0]].samples) {
				const struct pt_ds_op *c = &d->ops[o->kids.v[0]];
				double ep = 100.0 * (double)c->empty / (double)c->samples;
				if (ep > k->op_devq_empty_pct) {
					sev = "warn";
					pt_ds_sb_printf(&msg, "%s: the host pipeline left the device queue empty " PT_TEXT_FRAC "%% of "
							"the time, and the device waits whenever it is empty", nm.s, ep);
					metric = "input_empty_pct", v = ep, th = k->op_devq_empty_pct;
				}
			} else if (o->has_in && o->has_usage &&
				   o->in_usage * 100 - o->usage * 100 > k->op_queue_gap_pts) {
				pt_ds_sb_printf(&msg, "%s: input queue " PT_TEXT_FRAC "%% full, output " PT_TEXT_FRAC "%%: the child produces "
						"faster than %s consumes; with low CPU use, try a larger prefetch_size "
						"or more workers", nm.s, o->in_usage * 100, o->usage * 100, nm.s);
				metric = "usage_gap_pts", v = o->in_usage * 100 - o->usage * 100;
				th = k->op_queue_gap_pts;
			}
		}
		if (metric) {
			op_evidence(&ev, d, o);
			record(h, d, scope, rule ? PT_HR_MD_OP_QUEUE : PT_HR_MD_OP_CPU, sev, metric, v, th,
			       "pct", &msg, &ev);
		}
		free(msg.s);
		free(ev.s);
		free(nm.s);
	}
}

/* MD_BOTTLENECK_OP, per op in BFS order */
static void md_bottleneck_op(struct pt_hints *h, const struct pt_ds_dev *d, const struct pt_dataset_knobs *k)
{
	for (size_t q = 0; q < d->nbfs; q++) {
		const struct pt_ds_op *o = &d->ops[d->bfs[q]];
		if (o->cpu_rule <= 0)
			continue;
		struct pt_ds_sb nm = { 0 }, msg = { 0 }, ev = { 0 };
		op_name(&nm, o);
		char scope[96];
		snprintf(scope, sizeof(scope), "op:%s", nm.s);
		bool high = !strcmp(o->cpu_reason, "cpu_high");
		if (high)
			pt_ds_sb_printf(&msg, "%s is the likely pipeline bottleneck: it uses " PT_TEXT_FRAC "%% CPU per worker; raise "
					"num_parallel_workers above %" PRId64 ".", nm.s, o->cpw, o->md->num_workers);
		else
			pt_ds_sb_printf(&msg, "%s is the likely pipeline bottleneck: low CPU use (" PT_TEXT_FRAC "%% per worker) with "
					"abnormal queue usage; try a larger prefetch_size.", nm.s, o->cpw);
		if (o->cpu_rule == 2)
			pt_ds_sb_printf(&msg, " (primary)");
		op_evidence(&ev, d, o);
		pt_ds_ev_i(&ev, "primary", o->cpu_rule == 2);
		record(h, d, scope, PT_HR_MD_BOTTLENECK_OP, "warn", "cpu_per_worker", o->cpw,
		       high ? k->op_cpu_high_pct : k->op_cpu_low_pct, "pct", &msg, &ev);
		free(nm.s);
	}
}


void pt_hints_md(const struct pt_ds_dev *d, const struct pt_dataset_knobs *k, int rule, struct pt_hints *out)
{
	if (rule < 0 || rule == PT_HR_MD_QUEUE)
		md_queue(out, d, k);
	if (d->has_pipeline && (rule < 0 || rule == PT_HR_MD_PIPELINE))
		md_pipeline(out, d, k);
	if (rule < 0 || rule == PT_HR_MD_CPU_BUSY)
		md_cpu_busy(out, d, k);
	if (!d->has_pipeline)
		return;
	if (rule < 0 || rule == PT_HR_MD_OP_CPU)
		md_op(out, d, k, 0);
	if (rule < 0 || rule == PT_HR_MD_OP_QUEUE)
		md_op(out, d, k, 1);
	if (rule < 0 || rule == PT_HR_MD_BOTTLENECK_OP)
		md_bottleneck_op(out, d, k);
}

/* ---- in `proftool hints` ------------------------------------------------------------ */

/* MD_PIPELINE: the per-op sentences become item lines. */
static void split_items(struct pt_hint *x)
{
	char *cut = NULL;
	for (size_t i = 0; i < x->nev; i++) {
		if (!x->ev[i].list || strcmp(x->ev[i].list, "ops") || strcmp(x->ev[i].field, "name"))
			continue;
		static const char *const verbs[] = { ": change", ": raise" };
		for (int v = 0; v < 2; v++) {
			char pat[512];
			snprintf(pat, sizeof(pat), " %s%s", x->ev[i].text, verbs[v]);
			char *p = strstr(x->message, pat);
			if (p && (!cut || p < cut))
				cut = p;
		}
	}
	if (!cut)
		return;
	char *rest = pt_xstrdup(cut + 1);
	*cut = 0;
	/* split rest at " <name>: " of each op, in order */
	char *p = rest;
	while (p && *p) {
		char *next = NULL;
		for (size_t i = 0; i < x->nev; i++) {
			if (!x->ev[i].list || strcmp(x->ev[i].list, "ops") || strcmp(x->ev[i].field, "name"))
				continue;
			char pat[512];
			snprintf(pat, sizeof(pat), " %s: ", x->ev[i].text);
			char *q = strstr(p + 1, pat);
			if (q && (!next || q < next))
				next = q;
		}
		if (next)
			*next = 0;
		pt_hint_item(x, "%s", p);
		p = next ? next + 1 : NULL;
	}
	free(rest);
}

static bool md_device(const struct pt_model *m, uint32_t dev)
{
	for (size_t i = 0; i < m->md_ops.n; i++)
		if (m->md_ops.v[i].device == dev)
			return true;
	for (size_t i = 0; i < m->tracks.n; i++) {
		const struct pt_track *t = &m->tracks.v[i];
		const char *n = pt_model_strget(m, t->name);
		if (t->device == dev && (!strncmp(n, "md_", 3) || !strcmp(n, "get_next")))
			return true;
	}
	return false;
}

/* Evaluated on devices with MindData or get_next data (the devices are ranks
 * here); the driver marks them before the stage, then reads the figures. */
int hx_md_prepare(struct ctx *c, struct pt_err **e)
{
	const struct pt_model *m = c->m;
	int64_t device = c->sel_device;
	for (size_t i = 0; i < m->devices.n; i++) {
		if (device >= 0 && m->devices.v[i].id != (uint64_t)device)
			continue;
		if (md_device(m, i))
			for (int r = 0; r < PT_HR__N; r++)
				if ((pt_hint_rules[r].stages & HS(HS_MINDDATA)) && hx_enabled(c, (enum pt_hint_rule)r))
					hx_mark_eval(c, (enum pt_hint_rule)r, m->devices.v[i].id);
	}
	c->md_nrk = c->nrk;
	int rc = pt_dataset_figures(m, device, &c->k->md, &c->mdv, &c->nmd, e);
	if (rc) {
		pt_dataset_figures_free(c->mdv, c->nmd);
		c->mdv = NULL;
		c->nmd = 0;
	}
	return rc;
}

/* One rule over every device; the ranks without MindData data are not evaluated. */
static void md_rule(struct ctx *c, enum pt_hint_rule rule)
{
	for (size_t i = 0; i < c->md_nrk; i++)
		if (c->rk[i].st[rule] == ST_NONE)
			hx_not_eval(c, rule, c->rk[i].rank, "rank", "no MindData data");
	size_t from = c->h->n;
	for (size_t i = 0; i < c->nmd; i++)
		pt_hints_md(&c->mdv[i], &c->k->md, (int)rule, c->h);
	for (size_t i = from; i < c->h->n; i++) {
		hx_rank_of(c, c->h->v[i].rank)->fired[rule] = true;
		if (rule == PT_HR_MD_PIPELINE)
			split_items(&c->h->v[i]);
	}
}

void pt_hr_md_queue(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_QUEUE);
}

void pt_hr_md_pipeline(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_PIPELINE);
}

void pt_hr_md_cpu_busy(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_CPU_BUSY);
}

void pt_hr_md_op_cpu(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_OP_CPU);
}

void pt_hr_md_op_queue(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_OP_QUEUE);
}

void pt_hr_md_bottleneck_op(struct ctx *c, const struct hsite *s)
{
	(void)s;
	md_rule(c, PT_HR_MD_BOTTLENECK_OP);
}

/* gates G1, G2 (hints.md §4) over the MindData records from first on */
void hx_md_gates(struct ctx *c, size_t first)
{
	if (!c->k->gate_minddata)
		return;
	for (size_t i = first; i < c->h->n; i++) {
		struct pt_hint *x = &c->h->v[i];
		if (x->status != PT_HS_SHOWN)
			continue; /* not evaluated */
		struct rk *rr = hx_rank_of(c, x->rank);
		bool g1 = x->rule == PT_HR_MD_PIPELINE || x->rule == PT_HR_MD_OP_CPU || x->rule == PT_HR_MD_OP_QUEUE ||
			  x->rule == PT_HR_MD_BOTTLENECK_OP;
		bool g2 = x->rule == PT_HR_MD_PIPELINE || x->rule == PT_HR_MD_BOTTLENECK_OP;
		bool h2d = false;
		for (size_t j = first; j < c->h->n; j++)
			h2d |= c->h->v[j].rule == PT_HR_MD_QUEUE && c->h->v[j].rank == x->rank &&
			       !strcmp(c->h->v[j].scope, "stage:host_to_device");
		if (g1 && !rr->fired[PT_HR_STEP_GAP] && !rr->fired[PT_HR_INPUT_BOUND]) {
			x->status = PT_HS_SUPPRESSED;
			x->reason = pt_xstrdup("G1: neither STEP_GAP nor INPUT_BOUND fired");
		} else if (g2 && h2d) {
			x->status = PT_HS_SUPPRESSED;
			x->reason = pt_xstrdup("G2: MD_QUEUE blames host_to_device");
		}
	}
}
