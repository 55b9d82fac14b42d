/*
 * MindData pipeline and queue analysis (ascend.md §3.11; hints.md MD_*): the
 * views of the figures dataset-figures.c computes. See pass-dataset.h for
 * the views; man/proftool-dataset.1 for every column.
 */
#include "pass/pass-dataset.h"
#include "pass/select.h"
#include "pass/dataset-figures.h"
#include "pass/pass-hints.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hostcpu.h"
#include "model/ptm-picked.h"
#include "model/model.h"
#include "table/hints.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

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
				pt_ds_ev_d(&b, "max_child_usage", o->max_child);
			if (o->has_cpu) {
				pt_ds_ev_i(&b, "cpu_samples", o->cpu_samples);
				pt_ds_ev_d(&b, "cpu_sum", o->cpu_sum);
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
	pt_ds_ev_d(&b, "cpu_sum", a->sum);
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
					pt_ds_ev_d(&b, "threshold_pct", pt_dataset_queue_pct(k));
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

int pt_pass_dataset_pick(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e)
{
	(void)arg, (void)first, (void)e;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_GETNEXT)
			pt_ptm_pick_add(kept, ev, i);
	return 0;
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
