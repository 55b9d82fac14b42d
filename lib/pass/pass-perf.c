/*
 * `proftool perf` (summary.md §10): Paddle's benchmark timer recomputed from
 * the trace, without its defects (§7 P1-P3): one step set for every metric,
 * avg = total / count, max and min compared independently from the first
 * value, ips.avg a rate over the whole interval.
 */
#include "pass/pass-perf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "pass/pass-steps.h"
#include "support/err.h"
#include "support/interval.h"
#include "support/xalloc.h"
#include "table/table.h"

struct stat {
	int64_t n;
	__int128 sum;
	int64_t max, min;
};

static void stat_add(struct stat *s, int64_t v)
{
	if (!s->n || v > s->max)
		s->max = v;
	if (!s->n || v < s->min)
		s->min = v;
	s->n++;
	s->sum += v;
}

/* Outermost Dataloader ranges of a GPU rank as (anchor = start, dur), sorted by start
 * (those of a streamed read, else from the model's events). */
static size_t outer_loaders(const struct pt_model *m, const struct pt_rank_steps *r, struct pt_ival **out)
{
	const struct pt_events *ev = &m->events;
	struct pt_ival *v = NULL;
	size_t n = 0, cap = 0;
	uint32_t host = r->host;
	if (r->dl) {
		v = pt_xmalloc((r->ndl ? r->ndl : 1) * sizeof(*v));
		memcpy(v, r->dl, r->ndl * sizeof(*v));
		n = r->ndl;
	} else if (host != PT_NONE)
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_RANGE && m->tracks.v[ev->track[i]].device == host &&
			    pt_steps_is_dataloader(pt_model_strget(m, ev->name[i]))) {
				pt_xgrow((void **)&v, &cap, n + 1, sizeof(*v));
				v[n++] = (struct pt_ival){ ev->start[i], ev->start[i] + ev->dur[i] };
			}
	pt_ival_sort(v, n); /* stable by start */
	/* a range inside the current outermost one is nested: drop it (ties: the longer comes first) */
	for (size_t i = 1; i < n; i++) /* longer first among equal starts */
		for (size_t j = i; j > 0 && v[j - 1].s == v[j].s && v[j - 1].e < v[j].e; j--) {
			struct pt_ival t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	size_t w = 0;
	int64_t cur_e = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (w && v[i].e <= cur_e)
			continue;
		cur_e = v[i].e;
		v[w++] = v[i];
	}
	*out = v;
	return w;
}

static void row_stat(struct pt_table *t, uint32_t rank, const char *metric, const char *unit, const struct stat *s)
{
	size_t r = pt_table_add_row(t);
	pt_table_set_int(t, r, PT_PERF_RANK, rank);
	pt_table_set_str(t, r, PT_PERF_METRIC, metric, strlen(metric));
	pt_table_set_str(t, r, PT_PERF_UNIT, unit, strlen(unit));
	pt_table_set_int(t, r, PT_PERF_COUNT, s->n);
	if (s->n) {
		pt_table_set_int(t, r, PT_PERF_AVG, pt_steps_mean(s->sum, s->n));
		pt_table_set_int(t, r, PT_PERF_MAX, s->max);
		pt_table_set_int(t, r, PT_PERF_MIN, s->min);
	}
}

/* The perf table of si's ranks (GPU ranks read m's events: their Dataloader ranges). */
static struct pt_table *perf_table(const struct pt_model *m, const struct pt_steps_info *si_,
				   const struct pt_perf_opts *o)
{
	const struct pt_steps_info si = *si_;
	struct pt_table *t = pt_table_new("perf", "Perf Summary");
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "metric", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "unit", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "count", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "avg", PT_COL_DOUBLE, PT_ROLE_VALUE, 5);
	pt_table_add_col(t, "min", PT_COL_DOUBLE, PT_ROLE_VALUE, 5);
	pt_table_add_col(t, "max", PT_COL_DOUBLE, PT_ROLE_VALUE, 5);
	const char *ips_unit = o->batch_size > 0 ? "samples/s" : "steps/s";
	double samples = o->batch_size > 0 ? (double)o->batch_size : 1.0;

	for (size_t ri = 0; ri < si.n; ri++) {
		const struct pt_rank_steps *r = &si.r[ri];
		struct pt_ival *dl = NULL;
		size_t ndl = r->ascend ? 0 : outer_loaders(m, r, &dl);
		struct stat batch = { 0 }, reader = { 0 };
		__int128 reader_sum0 = 0; /* missing reader counts 0 */
		double ips_max = 0, ips_min = 0;
		int64_t ips_n = 0;
		int64_t skipped = 0;
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *w = &r->v[i];
			if (!w->kept)
				continue;
			if (skipped < o->skip_steps) {
				skipped++;
				continue;
			}
			int64_t b;
			bool has_reader = false;
			int64_t rd = 0;
			if (r->ascend) {
				const struct pt_step *st = w->st;
				uint32_t need = PT_STEP_HAS_START | PT_STEP_HAS_END;
				if ((st->has & need) != need)
					continue; /* no batch cost: not a measured step */
				b = st->end - st->start;
				if ((st->has & PT_STEP_HAS_FP) && (st->has & PT_STEP_HAS_START)) {
					has_reader = true;
					rd = st->fp - st->start;
				}
			} else {
				b = w->e - w->s;
				/* loaders anchored (started) in the window */
				size_t lo = 0, hi = ndl;
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;
					if (dl[mid].s < w->s)
						lo = mid + 1;
					else
						hi = mid;
				}
				for (size_t k = lo; k < ndl && dl[k].s < w->e; k++) {
					has_reader = true;
					rd += dl[k].e - dl[k].s;
				}
			}
			stat_add(&batch, b);
			if (has_reader) {
				stat_add(&reader, rd);
				reader_sum0 += rd;
			}
			if (b > 0) {
				double v = samples * 1e9 / (double)b;
				if (!ips_n || v > ips_max)
					ips_max = v;
				if (!ips_n || v < ips_min)
					ips_min = v;
				ips_n++;
			}
		}
		free(dl);
		row_stat(t, r->rank, "reader_cost", "ns", &reader);
		row_stat(t, r->rank, "batch_cost", "ns", &batch);
		size_t row = pt_table_add_row(t);
		pt_table_set_int(t, row, PT_PERF_RANK, r->rank);
		pt_table_set_str(t, row, PT_PERF_METRIC, "ips", 3);
		pt_table_set_str(t, row, PT_PERF_UNIT, ips_unit, strlen(ips_unit));
		pt_table_set_int(t, row, PT_PERF_COUNT, batch.n);
		if (batch.sum > 0)
			pt_table_set_double(t, row, PT_PERF_AVG, samples * (double)batch.n * 1e9 / (double)batch.sum);
		if (ips_n) {
			pt_table_set_double(t, row, PT_PERF_MAX, ips_max);
			pt_table_set_double(t, row, PT_PERF_MIN, ips_min);
		}
		row = pt_table_add_row(t);
		pt_table_set_int(t, row, PT_PERF_RANK, r->rank);
		pt_table_set_str(t, row, PT_PERF_METRIC, "reader_ratio", 12);
		pt_table_set_str(t, row, PT_PERF_UNIT, "pct", 3);
		pt_table_set_int(t, row, PT_PERF_COUNT, batch.n);
		if (batch.sum > 0 && reader.n)
			pt_table_set_double(t, row, PT_PERF_AVG, (double)reader_sum0 * 100.0 / (double)batch.sum);
	}
	return t;
}

int pt_pass_perf(const struct pt_model *m, const struct pt_sel *sel, const struct pt_perf_opts *o,
		 struct pt_table **out, struct pt_diag *d, struct pt_err **e)
{
	struct pt_steps_info si;
	if (pt_steps_collect(m, sel, &si, d, e))
		return -1;
	if (!si.n) {
		pt_steps_info_free(&si);
		return pt_err_nodata(e, "step", sel->device, "a step trace or device activity (kernels, tasks)");
	}
	*out = perf_table(m, &si, o);
	pt_steps_info_free(&si);
	return 0;
}

int pt_pass_perf_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_perf_opts *o,
			struct pt_table **out, struct pt_model **whole, struct pt_diag *d, struct pt_err **e)
{
	*out = NULL;
	struct pt_model *m = NULL;
	struct pt_steps_info si;
	int rc = pt_steps_stream_read(src, sel, &m, &si, NULL, NULL, whole, d, e);
	if (rc || *whole)
		return rc;
	if (!si.n)
		rc = pt_err_nodata(e, "step", sel->device, "a step trace or device activity (kernels, tasks)");
	else
		*out = perf_table(m, &si, o);
	pt_steps_info_free(&si);
	pt_model_free(m);
	return rc;
}
