/*
 * proftool diff BASE TEST: what changed between two runs (proftool-diff(1)).
 *
 * Each side is summarised as `summary` does it (streamed where summary
 * streams, one side after the other): the model view gives the step count
 * and time, the operator, op-type, kernel or API view the items. With
 * --by step the `steps` pass gives the stage averages, streamed where `steps`
 * streams, the summary fed by the same reads (pass/summary-tap.h).
 * pass-diff matches and compares.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "export/export.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-diff.h"
#include "pass/pass-steps.h"
#include "pass/pass-summary.h"
#include "pass/summary-tap.h"
#include "support/fmt-text.h"
#include "support/fmt.h"
#include "support/out.h"
#include "support/parse.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "table/table.h"

enum {
	OPT_BY = 100,
	OPT_TOP,
	OPT_SORTED_BY,
	OPT_MATCH,
	OPT_BASE_STEPS,
	OPT_TEST_STEPS,
	OPT_FAIL_ON_REGRESSION,
};

static const char *const match_values[] = { "normalized", "exact", NULL };

static const struct pt_opt diff_opts[] = {
	{ "by", 0, "WHAT", OPT_BY,
	  "items to compare (default op; scope: ops summed per scope; step: the step stages instead of items)",
	  pt_diff_by_names },
	{ "top", 0, "N", OPT_TOP, "keep the first N item rows", NULL },
	{ "sorted-by", 0, "KEY", OPT_SORTED_BY,
	  "order of the item rows (default delta: the absolute change of total; calls: the absolute change of calls)",
	  pt_diff_keys },
	{ "match", 0, "M", OPT_MATCH,
	  "match names normalised (default: -op<N> suffixes, kernel_graph<N> and graph_<N> parts removed) or exactly",
	  match_values },
	{ "base-steps", 0, "A-B", OPT_BASE_STEPS, "only steps A to B of BASE (overrides --steps)", NULL },
	{ "test-steps", 0, "A-B", OPT_TEST_STEPS, "only steps A to B of TEST (overrides --steps)", NULL },
	{ "fail-on-regression", 0, "PCT", OPT_FAIL_ON_REGRESSION,
	  "exit 3 when the mean step time of TEST exceeds BASE's by more than PCT percent", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { diff_opts,     pt_filter_opts,  pt_output_opts,
					       pt_table_opts, pt_rawpath_opts, NULL };

static struct pt_diff_opts dopt;
static bool side_steps[2];
static int64_t side_a[2], side_b[2];
static bool fail_given;
static double fail_pct;

static int own(struct pt_common *c, int id, const char *arg)
{
	int64_t v;
	switch (id) {
	case OPT_BY:
		for (int k = 0; pt_diff_by_names[k]; k++)
			if (!strcmp(arg, pt_diff_by_names[k]))
				dopt.by = (enum pt_diff_by)k;
		return 0;
	case OPT_SORTED_BY:
		for (int k = 0; pt_diff_keys[k]; k++)
			if (!strcmp(arg, pt_diff_keys[k]))
				dopt.key = (enum pt_diff_key)k;
		return 0;
	case OPT_MATCH:
		dopt.exact = !strcmp(arg, "exact");
		return 0;
	case OPT_TOP:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0)
			return pt_usage_error(c->cmd, "invalid --top '%s' (a number >= 0)", arg);
		dopt.top = v;
		return 0;
	case OPT_BASE_STEPS:
	case OPT_TEST_STEPS: {
		int s = id == OPT_TEST_STEPS;
		if (!pt_filter_parse_steps(arg, &side_a[s], &side_b[s]))
			return pt_usage_error(c->cmd, "invalid --%s '%s' (A-B, A, A- or -B)", s ? "test-steps" : "base-steps",
					      arg);
		side_steps[s] = true;
		return 0;
	}
	case OPT_FAIL_ON_REGRESSION: {
		char *end;
		double d = strtod(arg, &end);
		if (!*arg || *end || !isfinite(d) || d < 0)
			return pt_usage_error(c->cmd, "invalid --fail-on-regression '%s' (a percentage >= 0)", arg);
		fail_given = true;
		fail_pct = d;
		return 0;
	}
	default:
		return 0;
	}
}

/* ---- one side ------------------------------------------------------------ */

struct side {
	const char *path;
	struct pt_summary s;
	bool have_s;
	struct pt_table *st[2];
	size_t nst;
	PT_VEC(struct pt_diff_item) items;
	PT_VEC(struct pt_diff_stage) stages;
	PT_VEC(char *) names; /* stage names made here */
	struct pt_diff_side d;
};

static enum pt_summary_view item_view(enum pt_diff_by by)
{
	switch (by) {
	case PT_DB_OPTYPE:
		return PT_SV_OPTYPE;
	case PT_DB_KERNEL:
		return PT_SV_KERNEL;
	case PT_DB_API:
		return PT_SV_API;
	default:
		return PT_SV_OPERATOR;
	}
}

static const struct pt_cell *cell(const struct pt_table *t, size_t r, int c)
{
	static const struct pt_cell null_cell;
	return c < 0 ? &null_cell : &pt_table_row(t, r)[c];
}

static bool cell_is(const struct pt_cell *x, const char *s)
{
	return x->kind == PT_CELL_STR && x->len == strlen(s) && !memcmp(x->u.s, s, x->len);
}

static int64_t cell_i(const struct pt_cell *x)
{
	return x->kind == PT_CELL_INT ? x->u.i : 0;
}

/* Steps and items from the summary's data tables. */
static void side_items(struct side *sd)
{
	enum pt_summary_view want = item_view(dopt.by);
	bool npu = sd->s.device_kinds & (1u << PT_DEV_NPU);
	for (size_t i = 0; i < sd->s.n; i++) {
		const struct pt_table *t = sd->s.v[i].data;
		int rank = pt_table_col(t, "rank");
		if (sd->s.v[i].view == PT_SV_MODEL) {
			int ph = pt_table_col(t, "phase"), ca = pt_table_col(t, "calls"),
			    to = pt_table_col(t, "cpu_total");
			for (size_t r = 0; r < t->nrows; r++)
				if (cell_is(cell(t, r, ph), "ProfileStep")) {
					sd->d.step_count += cell_i(cell(t, r, ca));
					sd->d.step_total += cell_i(cell(t, r, to));
				}
			continue;
		}
		if (sd->s.v[i].view != want || dopt.by == PT_DB_STEP)
			continue;
		const char *p = "device_";
		if (want == PT_SV_API)
			p = "";
		else if (want == PT_SV_OPERATOR && !npu)
			p = "cpu_";
		char b[64];
		snprintf(b, sizeof(b), "%stotal", p);
		int ctot = pt_table_col(t, b);
		snprintf(b, sizeof(b), "%smin", p);
		int cmin = pt_table_col(t, b);
		snprintf(b, sizeof(b), "%smax", p);
		int cmax = pt_table_col(t, b);
		int cname = pt_table_col(t, want == PT_SV_OPTYPE ? "op_type" : "name");
		int ccalls = pt_table_col(t, "calls"), kind = pt_table_col(t, "row_kind");
		for (size_t r = 0; r < t->nrows; r++) {
			if (kind >= 0 && !cell_is(cell(t, r, kind), "op"))
				continue;
			const struct pt_cell *n = cell(t, r, cname);
			struct pt_diff_item it = {
				.rank = (uint32_t)cell_i(cell(t, r, rank)),
				.name = n->kind == PT_CELL_STR && n->len ? n->u.s : "<unknown>",
				.calls = cell_i(cell(t, r, ccalls)),
				.total = cell_i(cell(t, r, ctot)),
				.min = cell_i(cell(t, r, cmin)),
				.max = cell_i(cell(t, r, cmax)),
			};
			pt_vec_push(&sd->items, it);
		}
	}
}

/* Stage averages: the avg row of every rank of the steps tables (GPU: of every device of a rank,
 * named "device N: STAGE"). */
static void side_stages(struct side *sd)
{
	for (size_t k = 0; k < sd->nst; k++) {
		const struct pt_table *t = sd->st[k];
		/* Ascend: one row set per device (device_id, the rank of the summary); GPU: rank and device_id */
		int step = pt_table_col(t, "step"), rank = pt_table_col(t, "rank"), dev = -1;
		if (rank < 0)
			rank = pt_table_col(t, "device_id");
		else
			dev = pt_table_col(t, "device_id");
		for (size_t r = 0; r < t->nrows; r++) {
			if (!cell_is(cell(t, r, step), "avg"))
				continue;
			for (size_t c = 0; c < t->ncols; c++) {
				const char *nm = t->cols[c].name;
				size_t l = strlen(nm);
				if (t->cols[c].type != PT_COL_TIME || !strcmp(nm, "start") || !strcmp(nm, "end") ||
				    !strcmp(nm, "fp") || !strcmp(nm, "bp") || (l > 6 && !strcmp(nm + l - 6, "_start")) ||
				    (l > 4 && !strcmp(nm + l - 4, "_end")))
					continue;
				const struct pt_cell *x = cell(t, r, (int)c);
				if (x->kind != PT_CELL_INT)
					continue;
				/* the name kept here: the steps tables are freed once read (side_load) */
				char *n = dev >= 0 ? pt_xasprintf("device %" PRId64 ": %s", cell_i(cell(t, r, dev)), nm)
						   : pt_xstrdup(nm);
				pt_vec_push(&sd->names, n);
				nm = n;
				struct pt_diff_stage s = { (uint32_t)cell_i(cell(t, r, rank)), nm, x->u.i };
				pt_vec_push(&sd->stages, s);
			}
		}
	}
}

/* The stage averages taken, the steps tables (a row a step) hold nothing more that the diff reads:
 * freed at once, so that the summary's own reads and the other side never hold them. */
static void side_take_stages(struct side *sd)
{
	side_stages(sd);
	for (size_t k = 0; k < sd->nst; k++)
		pt_table_free(sd->st[k]);
	sd->nst = 0;
}

/*
 * The steps tables of a model file, streamed where `steps` streams it (pt_pass_steps_stream), and
 * the summary so fed by the same reads (*summed set when it could be: pass/summary-tap.h); *whole
 * set (0 returned) where `steps` reads the model whole instead. The selection's warnings are those
 * a load gives (pt_common_load): of the options as given, against BASE only.
 */
static int side_steps_stream(struct pt_common *c, struct side *sd, struct pt_summary_opts *so, bool *summed,
			     struct pt_model **whole, struct pt_err **e)
{
	c->path = sd->path;
	so->sel.quiet = c->sel_checked;
	so->sel.warn_as = &c->sel;
	struct pt_ptm_tap tap;
	struct pt_summary_tap *t = pt_summary_tap_new(so, &tap);
	struct pt_ptm_source src = { .path = sd->path, .tap = &tap };
	int rc = pt_pass_steps_stream(&src, &so->sel, sd->st, &sd->nst, whole, &c->diag, e);
	so->sel.quiet = false;
	so->sel.warn_as = NULL;
	*summed = !rc && !*whole && pt_summary_tap_end(t, &sd->s);
	pt_summary_tap_free(t);
	if (!*whole)
		c->sel_checked = true;
	return rc;
}

static int side_load(struct pt_common *c, struct side *sd, int which, struct pt_err **e)
{
	struct pt_summary_opts so;
	pt_summary_opts_init(&so);
	so.views = (1u << PT_SV_MODEL);
	if (dopt.by != PT_DB_STEP)
		so.views |= 1u << item_view(dopt.by);
	so.sel = c->sel;
	if (side_steps[which]) { /* --base-steps / --test-steps override --steps */
		so.sel.steps_given = true;
		so.sel.step_a = side_a[which];
		so.sel.step_b = side_b[which];
	}

	if (which)
		pt_common_raw_again(c, sd->path); /* the same raw PATH on both sides: imported once, warned twice */
	struct pt_model *m = NULL;
	bool streamed = false, by_step = dopt.by == PT_DB_STEP, need_model = false;
	int rc = 0;
	if (by_step && pt_common_is_model_file(sd->path) && pt_summary_tap_probe(PT_PTM_SOURCE(sd->path), &so)) {
		/* the steps streamed, the summary's step figures from the same reads (or, where it needs
		 * others, streamed after them): one model at a time, per-step state only; where `steps`
		 * reads the model whole, both passes run on it, as they do where the summary would load
		 * it whole (the probe: streamed steps and a whole summary cost more than one load) */
		rc = side_steps_stream(c, sd, &so, &streamed, &m, e);
		if (!rc && !m)
			side_take_stages(sd); /* before the summary's own reads, where it needs them */
		if (!rc && m) {
			pt_common_check_sel(c, m);
			need_model = true;
		}
	} else if (by_step) {
		need_model = true; /* standard input, a raw PATH: loaded whole, as `steps` loads them */
	}
	/* not yet summarised by the steps' reads (and nothing failed): the summary's own stream */
	if (!streamed && !rc && !m && !need_model) {
		if (pt_common_is_model_file(sd->path) || !strcmp(sd->path, "-")) {
			rc = pt_summary_stream_file(PT_PTM_SOURCE(sd->path), &so, &sd->s, &streamed, &m, e);
		} else if (!(rc = pt_common_load_spilled(c, sd->path, &m, e))) {
			rc = pt_summary_stream_import(m, &so, &sd->s, &streamed, e);
			if (!rc && !streamed)
				rc = pt_ptm_spill_undo(m, e);
		}
	}
	if (!rc && streamed) {
		sd->have_s = true;
	} else if (!rc && (m || !(rc = pt_common_load(c, sd->path, &m, e)))) {
		struct pt_index *x = pt_index_new(m);
		rc = pt_pass_summary(m, x, &so, &sd->s, e);
		sd->have_s = !rc;
		if (!rc && need_model)
			rc = pt_pass_steps(m, x, &so.sel, sd->st, &sd->nst, &c->diag, e);
		pt_index_free(x);
	}
	pt_model_free(m);
	if (rc)
		return pt_err(e, "cannot read %s '%s'", which ? "TEST" : "BASE", sd->path);
	side_items(sd);
	side_take_stages(sd);
	sd->d.items = sd->items.v;
	sd->d.nitems = sd->items.n;
	sd->d.stages = sd->stages.v;
	sd->d.nstages = sd->stages.n;
	return 0;
}

static void side_free(struct side *sd)
{
	if (sd->have_s)
		pt_summary_free(&sd->s);
	for (size_t k = 0; k < sd->nst; k++)
		pt_table_free(sd->st[k]);
	pt_vec_free(&sd->items);
	pt_vec_free(&sd->stages);
	for (size_t i = 0; i < sd->names.n; i++)
		free(sd->names.v[i]);
	pt_vec_free(&sd->names);
}

static const char *kinds_name(unsigned k)
{
	if (k & (1u << PT_DEV_NPU))
		return k & (1u << PT_DEV_GPU) ? "NPU and GPU" : "NPU";
	if (k & (1u << PT_DEV_GPU))
		return "GPU";
	return "no accelerator";
}

/* ---- text ------------------------------------------------------------------ */

static void fcell(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, char *b)
{
	b[pt_export_cell_num(t, r, c, u, true, b)] = 0;
	if (!*b)
		strcpy(b, "-");
}

static void fsigned(const struct pt_table *t, size_t r, size_t c, enum pt_time_unit u, char *b)
{
	char v[64];
	v[pt_export_cell_num(t, r, c, u, true, v)] = 0;
	const struct pt_cell *x = &pt_table_row(t, r)[c];
	bool pos = (x->kind == PT_CELL_INT && x->u.i > 0) || (x->kind == PT_CELL_DOUBLE && x->u.d > 0);
	snprintf(b, 72, "%s%s", !*v ? "-" : pos ? "+" : "", v);
}

static void fnum_unit(char *b, size_t n, int64_t ns, enum pt_time_unit u, bool sign)
{
	char v[64];
	int64_t div = pt_time_unit_div(u);
	v[pt_fmt_scaled(v, ns, div, div == 1 ? 0 : 3)] = 0;
	snprintf(b, n, "%s%s %s", sign && ns > 0 ? "+" : "", v, pt_time_unit_name(u));
}

/* A name, control bytes escaped, shortened in the middle to w columns (pt_text_shorten) unless wide. */
static void short_name(char *b, size_t bn, const char *s, size_t len, size_t w, bool wide)
{
	size_t n;
	char *x = pt_text_escape(s, len, &n), *sh = wide ? NULL : pt_text_shorten(x, n, w, &n);
	snprintf(b, bn, "%.*s", (int)n, sh ? sh : x);
	free(sh);
	free(x);
}

static void write_items_text(struct pt_out *o, const struct pt_table *t, enum pt_time_unit u, bool wide)
{
	int cn = pt_table_col(t, "name"), cs = pt_table_col(t, "status");
	int bc = pt_table_col(t, "base_calls"), tc = pt_table_col(t, "test_calls");
	int bt = pt_table_col(t, "base_total"), tt = pt_table_col(t, "test_total");
	int dt = pt_table_col(t, "delta_total"), dp = pt_table_col(t, "delta_total_pct");
	int ba = pt_table_col(t, "base_avg"), ta = pt_table_col(t, "test_avg");
	/* the name column is shortened in the middle (export-boxed.c) to keep 120 columns */
	struct pt_table *x = pt_table_new_boxed("diff", "Diff", pt_time_unit_name(u));
	pt_table_add_text_col(x, "Name", 4, false, true);
	pt_table_add_text_col(x, "Status", 7, false, false);
	pt_table_add_text_col(x, "Calls", 11, true, false);
	pt_table_add_text_col(x, "Base total", 10, true, false);
	pt_table_add_text_col(x, "Test total", 10, true, false);
	pt_table_add_text_col(x, "Delta", 10, true, false);
	pt_table_add_text_col(x, "Delta %", 8, true, false);
	pt_table_add_text_col(x, "Base avg", 9, true, false);
	pt_table_add_text_col(x, "Test avg", 9, true, false);
	char c[9][4096];
	const char *cells[9];
	for (int k = 0; k < 9; k++)
		cells[k] = c[k];
	for (size_t r = 0; r < t->nrows; r++) {
		const struct pt_cell *row = pt_table_row(t, r);
		snprintf(c[0], sizeof(c[0]), "%.*s", (int)row[cn].len, row[cn].u.s);
		snprintf(c[1], sizeof(c[1]), "%.*s", (int)row[cs].len, row[cs].u.s);
		char b1[64], b2[64];
		fcell(t, r, (size_t)bc, u, b1);
		fcell(t, r, (size_t)tc, u, b2);
		snprintf(c[2], sizeof(c[2]), "%s -> %s", b1, b2);
		fcell(t, r, (size_t)bt, u, c[3]);
		fcell(t, r, (size_t)tt, u, c[4]);
		fsigned(t, r, (size_t)dt, u, c[5]);
		fsigned(t, r, (size_t)dp, u, c[6]);
		fcell(t, r, (size_t)ba, u, c[7]);
		fcell(t, r, (size_t)ta, u, c[8]);
		pt_table_add_text_row(x, cells);
	}
	pt_export_boxed(o, x, wide, 100);
	pt_table_free(x);
}

static void write_stages_text(struct pt_out *o, const struct pt_table *t, enum pt_time_unit u, bool wide)
{
	struct pt_table *x = pt_table_new_boxed("stages", "Step stages (averages)", pt_time_unit_name(u));
	pt_table_add_text_col(x, "Rank", 4, true, false);
	pt_table_add_text_col(x, "Stage", 36, false, true);
	pt_table_add_text_col(x, "Base avg", 10, true, false);
	pt_table_add_text_col(x, "Test avg", 10, true, false);
	pt_table_add_text_col(x, "Delta", 10, true, false);
	pt_table_add_text_col(x, "Delta %", 8, true, false);
	char c[6][512];
	const char *cells[6];
	for (int k = 0; k < 6; k++)
		cells[k] = c[k];
	for (size_t r = 0; r < t->nrows; r++) {
		const struct pt_cell *row = pt_table_row(t, r);
		fcell(t, r, 0, u, c[0]);
		snprintf(c[1], sizeof(c[1]), "%.*s", (int)row[1].len, row[1].u.s);
		fcell(t, r, 2, u, c[2]);
		fcell(t, r, 3, u, c[3]);
		fsigned(t, r, 4, u, c[4]);
		fsigned(t, r, 5, u, c[5]);
		pt_table_add_text_row(x, cells);
	}
	pt_export_boxed(o, x, wide, 100);
	pt_table_free(x);
}

/* u: the unit of the item table; su: the unit of the step times */
static void write_verdict(struct pt_out *o, const struct pt_diff *d, enum pt_time_unit u, enum pt_time_unit su,
			  bool wide)
{
	char a[96], b[96], c[96];
	if (!d->has_step_time) {
		pt_out_puts(o, "Verdict: none (a side has no training steps, so no step time to explain)\n");
		return;
	}
	fnum_unit(a, sizeof(a), d->base_step, su, false);
	fnum_unit(b, sizeof(b), d->test_step, su, false);
	fnum_unit(c, sizeof(c), d->test_step - d->base_step, su, true);
	if (d->test_step == d->base_step) {
		pt_out_printf(o, "Verdict: the mean step time is unchanged (%s)\n", a);
		return;
	}
	pt_out_printf(o, "Verdict: the mean step time %s from %s to %s (%s, %+.2f%%)\n",
		      d->test_step > d->base_step ? "grew" : "fell", a, b, c, d->step_pct);
	const struct pt_table *t = d->verdict;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct pt_cell *row = pt_table_row(t, r);
		char per[96], ba[64], ta[64];
		fnum_unit(per, sizeof(per), row[PT_DV_PER_STEP].u.i, u, true);
		fcell(t, r, PT_DV_BASE_AVG, u, ba);
		fcell(t, r, PT_DV_TEST_AVG, u, ta);
		bool cause = cell_is(&row[PT_DV_ROLE], "cause");
		char head[256], nm[4096];
		int hl = snprintf(head, sizeof(head), "  %-11.*s %s per step (" PT_TEXT_FRAC "%% of the change%s): ",
				  (int)row[PT_DV_KIND].len, row[PT_DV_KIND].u.s, per, row[PT_DV_SHARE].u.d,
				  cause ? "" : ", offsetting");
		size_t w = hl > 0 && hl < 100 ? 120 - (size_t)hl : 20;
		short_name(nm, sizeof(nm), row[PT_DV_NAME].u.s, row[PT_DV_NAME].len, w, wide);
		pt_out_printf(o, "%s%s\n", head, nm);
		int64_t bcalls = row[PT_DV_BASE_CALLS].u.i, tcalls = row[PT_DV_TEST_CALLS].u.i;
		if (!bcalls)
			pt_out_printf(o, "              evidence: added, %" PRId64 " calls, avg %s %s\n", tcalls, ta,
				      pt_time_unit_name(u));
		else if (!tcalls)
			pt_out_printf(o, "              evidence: removed, was %" PRId64 " calls, avg %s %s\n", bcalls, ba,
				      pt_time_unit_name(u));
		else
			pt_out_printf(o, "              evidence: avg %s -> %s %s, calls %" PRId64 " -> %" PRId64 "\n", ba,
				      ta, pt_time_unit_name(u), bcalls, tcalls);
	}
	if (!t->nrows) {
		pt_out_puts(o, "  no item changed per step (the change lies outside the compared items)\n");
	} else {
		int64_t delta = d->test_step - d->base_step;
		pt_out_printf(o, "  these explain " PT_TEXT_FRAC "%% of the change\n", (double)d->explained * 100.0 / (double)delta);
	}
}

static void write_text(struct pt_out *o, const struct pt_common *c, const struct side sd[2], const struct pt_diff *d)
{
	/* the tables' unit: the one asked for, or the pick of the main table */
	enum pt_time_unit u = pt_export_table_unit(dopt.by == PT_DB_STEP ? d->stages : d->items, &c->ex);
	/* the mean step times: the unit asked for, or the one they pick */
	int64_t steps[2] = { d->base_step, d->test_step };
	enum pt_time_unit su = c->ex.unit != PT_TU_DEFAULT ? c->ex.unit : pt_time_unit_pick(steps, 2);
	if (dopt.by == PT_DB_STEP)
		pt_out_puts(o, "Diff by step\n");
	else
		pt_out_printf(o, "Diff by %s (%s)\n", pt_diff_by_names[dopt.by],
			      dopt.exact ? "names compared as recorded"
					 : "names normalised: -op<N> suffixes and graph-id parts removed");
	for (int s = 0; s < 2; s++) {
		char t[96];
		const struct pt_diff_side *x = &sd[s].d;
		if (x->step_count > 0) {
			fnum_unit(t, sizeof(t), s ? d->test_step : d->base_step, su, false);
			pt_out_printf(o, "  %s: '%s', %" PRId64 " step%s, mean step time %s\n", s ? "test" : "base",
				      sd[s].path, x->step_count, x->step_count == 1 ? "" : "s", t);
		} else {
			pt_out_printf(o, "  %s: '%s', no training steps\n", s ? "test" : "base", sd[s].path);
		}
	}
	if (dopt.by != PT_DB_STEP) {
		pt_out_printf(o, "  items: %zu matched, %zu added, %zu removed", d->matched, d->added, d->removed);
		size_t all = d->matched + d->added + d->removed;
		if (d->shown < all)
			pt_out_printf(o, "; the first %zu shown (--top)", d->shown);
		pt_out_puts(o, "\n\n");
		if (!all) {
			pt_out_printf(o, "No %s items in either run (the summary's %s view has no rows).\n\n",
				      pt_diff_by_names[dopt.by], pt_summary_view_names[item_view(dopt.by)]);
			return;
		}
		write_items_text(o, d->items, u, c->ex.wide);
		pt_out_putc(o, '\n');
		write_verdict(o, d, u, su, c->ex.wide);
	} else {
		pt_out_puts(o, "\n");
		if (d->stages->nrows)
			write_stages_text(o, d->stages, u, c->ex.wide);
		else
			pt_out_puts(o, "No step stages on either side (no training steps).\n");
	}
}

/* ---- run ------------------------------------------------------------------- */

static int emit(struct pt_common *c, const struct side sd[2], struct pt_diff *d, struct pt_err **e)
{
	if (c->ex.format != PT_FMT_TABLE || c->tables || (c->output && pt_out_is_dir(c->output))) {
		/* CSV to a stream: the items (stages with --by step); --table picks */
		struct pt_table *tab = dopt.by == PT_DB_STEP ? d->stages : d->items;
		struct pt_table *all[3] = { d->steps, tab, d->verdict };
		return pt_common_emit_main(c, all, dopt.by == PT_DB_STEP ? 2 : 3, 1, e);
	}
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	write_text(&o, c, sd, d);
	return pt_out_commit(&o, e);
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	pt_diff_opts_init(&dopt);
	side_steps[0] = side_steps[1] = fail_given = false;
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 2) {
		pt_usage_error(cmd, "expected BASE and TEST (models or raw PATHs)");
		return 2;
	}
	if (!strcmp(argv[first], "-") && !strcmp(argv[first + 1], "-")) {
		pt_usage_error(cmd, "BASE and TEST cannot both be standard input");
		return 2;
	}
	struct side sd[2];
	memset(sd, 0, sizeof(sd));
	sd[0].path = argv[first];
	sd[1].path = argv[first + 1];
	struct pt_err *e = NULL;
	struct pt_diff d;
	memset(&d, 0, sizeof(d));
	int rc = side_load(&c, &sd[0], 0, &e);
	if (!rc)
		rc = side_load(&c, &sd[1], 1, &e);
	unsigned acc = (1u << PT_DEV_NPU) | (1u << PT_DEV_GPU);
	if (!rc && (sd[0].s.device_kinds & acc) != (sd[1].s.device_kinds & acc))
		rc = pt_err(&e, "BASE '%s' holds %s data and TEST '%s' %s data: diff compares runs of the same device kind",
			    sd[0].path, kinds_name(sd[0].s.device_kinds & acc), sd[1].path,
			    kinds_name(sd[1].s.device_kinds & acc));
	if (!rc)
		rc = pt_pass_diff(&sd[0].d, &sd[1].d, &dopt, &d, &e);
	if (!rc && fail_given && !d.has_step_time)
		rc = pt_err(&e, "--fail-on-regression needs the step time, and %s '%s' has no training steps",
			    sd[0].d.step_count > 0 ? "TEST" : "BASE", sd[0].d.step_count > 0 ? sd[1].path : sd[0].path);
	if (!rc)
		rc = emit(&c, sd, &d, &e);
	bool regressed = !rc && fail_given && d.has_step_time && d.test_step > d.base_step && d.step_pct > fail_pct;
	if (regressed)
		pt_diag_note(&c.diag,
			     "the mean step time grew by " PT_TEXT_FRAC "%%, more than --fail-on-regression " PT_TEXT_FRAC "%%",
			     d.step_pct, fail_pct);
	pt_diff_free(&d);
	side_free(&sd[0]);
	side_free(&sd[1]);
	rc = pt_common_finish(&c, rc, e);
	return rc ? rc : regressed ? 3 : 0;
}

const struct pt_cmd pt_cmd_diff = {
	.name = "diff",
	.summary = "what changed between two runs: items, step stages, verdict",
	.usage = "[options] BASE TEST",
	.description =
		"BASE and TEST are models or raw PATHs of the same device kind. Items (ops, op types, kernels, API\n"
		"calls or op scopes, as the summary views count them) are matched by normalised name; unmatched\n"
		"ones are listed as added or removed. Per item: calls, total, avg, min, max on both sides, their\n"
		"deltas (absolute and percent) and the share of the step time. --by step compares the step\n"
		"stages of `proftool steps`. Text output ends with the verdict: the items that explain most of\n"
		"the change of the mean step time. CSV is one table: the items, or the stages with --by step.\n"
		"One side is read at a time, streamed where `summary` streams it (--by step: where `steps`\n"
		"does; proftool-diff(1) MEMORY). See proftool-diff(1).",
	.groups = groups,
	.run = run,
};
