/* proftool summary: operator, kernel and overview tables (summary.md). */
#include <inttypes.h>
#include <regex.h>
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
#include "pass/pass-steps.h"
#include "pass/pass-summary.h"
#include "support/out.h"
#include "support/parse.h"
#include "table/table.h"

enum {
	OPT_VIEW = 100,
	OPT_SORTED_BY,
	OPT_REVERSE,
	OPT_TOP,
	OPT_NAME,
	OPT_OP_DETAIL,
	OPT_THREAD_SEP,
	OPT_NO_DEMANGLE,
	OPT_COMM_PATTERN,
	OPT_HINT,
	OPT_BATCH_SIZE,
	OPT_SKIP_STEPS,
	OPT_IN_MEMORY,
	OPT_LAYOUT,
};

static const struct pt_opt summary_opts[] = {
	{ "view", 0, "V[,V...]", OPT_VIEW,
	  "views to print: device (device utilisation; host CPU per step), overview, model, distributed, operator, "
	  "kernel, memcpy, userdefined, optype, aicpu, gpu, api, or all (default overview,model,operator,kernel)",
	  NULL },
	{ "sorted-by", 0, "KEY", OPT_SORTED_BY,
	  "sort key of the item views (default cpu-total; gpu-total on Ascend); gpu-* sort by device time, GPU or "
	  "NPU, and device-* are their synonyms",
	  pt_summary_key_names },
	{ "reverse", 0, NULL, OPT_REVERSE, "flip the primary sort direction", NULL },
	{ "top", 0, "N", OPT_TOP, "keep the first N top-level rows of each group", NULL },
	{ "name", 0, "REGEX", OPT_NAME, "only rows whose name matches REGEX (POSIX extended)", NULL },
	{ "op-detail", 0, NULL, OPT_OP_DETAIL, "list the children and tasks of each operator", NULL },
	{ "thread-sep", 0, NULL, OPT_THREAD_SEP, "one group per thread in the operator and userdefined views", NULL },
	{ "no-demangle", 0, NULL, OPT_NO_DEMANGLE, "show names as recorded", NULL },
	{ "comm-pattern", 0, "REGEX", OPT_COMM_PATTERN,
	  "communication operator and kernel names (POSIX extended, case-insensitive; replaces the built-in lists)",
	  NULL },
	{ "hint", 0, "KEY=VALUE", OPT_HINT,
	  "threshold (repeatable): hints.launch.queue_delay_us (default 100) and hints.launch.runtime_us (default "
	  "50) set the outlier cutoffs of the gpu view; other hints.* keys are accepted and ignored",
	  NULL },
	{ "in-memory", 0, NULL, OPT_IN_MEMORY,
	  "load the whole model first (by default Ascend data, and CUPTI data without host ranges, from a .ptm "
	  "file, standard input ('-') or a raw PATH (imported into a temporary model file), is summed one batch of events at a time; with --steps from "
	  "a .ptm file or standard input only, its memcpy and gpu views and --time-window from a .ptm file or "
	  "standard input, of several processes too (a pipe read again from a copy in $TMPDIR); GPU data with "
	  "host ranges, of one process or several, from a .ptm file for every view, --op-detail too: see MEMORY in "
	  "proftool-summary(1))",
	  NULL },
	{ "batch-size", 0, "N", OPT_BATCH_SIZE, "accepted for proftool perf; no effect here", NULL },
	{ "skip-steps", 0, "N", OPT_SKIP_STEPS, "accepted for proftool perf; no effect here", NULL },
	{ 0 },
};

/* The text layout of summary (the other output options: pt_output_opts). */
static const struct pt_opt summary_text_opts[] = {
	{ "layout", 0, "L", OPT_LAYOUT,
	  "text layout: plain (the one text style, default) or paddle (summary.md §5's tables, ms, 2 decimals)",
	  (const char *const[]){ "plain", "paddle", NULL } },
	{ 0 },
};

static const struct pt_opt *const groups[] = { summary_opts, pt_filter_opts, pt_output_opts, summary_text_opts,
					       pt_rawpath_opts, NULL };

static struct pt_summary_opts so;
static regex_t name_re, comm_re;
static bool name_re_set, comm_re_set;
static bool views_given;
static const char *name_arg; /* --name as given */
static bool in_memory; /* --in-memory */

static int parse_views(const struct pt_cmd *cmd, const char *arg)
{
	if (!views_given)
		so.views = 0;
	views_given = true;
	const char *p = arg;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		bool ok = false;
		if (n == 3 && !strncmp(p, "all", 3)) {
			so.views = (1u << PT_SV_COUNT) - 1;
			ok = true;
		}
		for (int v = 0; v < PT_SV_COUNT && !ok; v++)
			if (strlen(pt_summary_view_names[v]) == n && !strncmp(p, pt_summary_view_names[v], n)) {
				so.views |= 1u << v;
				ok = true;
			}
		if (!ok)
			return pt_usage_error(cmd,
					      "unknown view '%.*s' (accepted: device, overview, model, distributed, operator, "
					      "kernel, memcpy, userdefined, optype, aicpu, gpu, api, all)",
					      (int)n, p);
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Decimal microseconds "12", "0.5" -> exact ns; false when malformed. */
static bool parse_us(const char *s, int64_t *ns)
{
	const char *dot = strchr(s, '.');
	size_t il = dot ? (size_t)(dot - s) : strlen(s);
	int64_t ip = 0, fp = 0;
	if (il && !pt_parse_i64(s, il, &ip))
		return false;
	if (!il && !dot)
		return false;
	if (dot) {
		const char *f = dot + 1;
		size_t fl = strlen(f);
		if (!fl || fl > 3 || !pt_parse_i64(f, fl, &fp) || *f == '-' || *f == '+')
			return false;
		for (size_t k = fl; k < 3; k++)
			fp *= 10;
	}
	if (ip < 0 || ip > INT64_MAX / 1000 - 1)
		return false;
	*ns = ip * 1000 + fp;
	return true;
}

static int parse_hint(const struct pt_cmd *cmd, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || strncmp(arg, "hints.", 6))
		return pt_usage_error(cmd, "--hint takes hints.KEY=VALUE, not '%s'", arg);
	size_t kl = (size_t)(eq - arg);
	int64_t *dst = NULL;
	if (kl == strlen("hints.launch.queue_delay_us") && !strncmp(arg, "hints.launch.queue_delay_us", kl))
		dst = &so.queue_cutoff_ns;
	else if (kl == strlen("hints.launch.runtime_us") && !strncmp(arg, "hints.launch.runtime_us", kl))
		dst = &so.runtime_cutoff_ns;
	if (dst && !parse_us(eq + 1, dst))
		return pt_usage_error(cmd, "invalid value '%s' for %.*s (microseconds >= 0)", eq + 1, (int)kl, arg);
	return 0;
}

static int own(struct pt_common *c, int id, const char *arg)
{
	int64_t v;
	switch (id) {
	case OPT_VIEW:
		return parse_views(c->cmd, arg);
	case OPT_SORTED_BY:
		if (pt_summary_key_parse(arg) >= 0)
			so.key = (enum pt_summary_key)pt_summary_key_parse(arg);
		return 0;
	case OPT_REVERSE:
		so.reverse = true;
		return 0;
	case OPT_TOP:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0)
			return pt_usage_error(c->cmd, "invalid --top '%s' (a number >= 0)", arg);
		so.top = v;
		return 0;
	case OPT_NAME:
		if (name_re_set)
			regfree(&name_re);
		if (regcomp(&name_re, arg, REG_EXTENDED | REG_NOSUB))
			return pt_usage_error(c->cmd, "invalid regular expression '%s' for --name", arg);
		name_re_set = true;
		so.name_re = &name_re;
		name_arg = arg;
		return 0;
	case OPT_OP_DETAIL:
		so.op_detail = true;
		return 0;
	case OPT_COMM_PATTERN:
		if (comm_re_set)
			regfree(&comm_re);
		if (regcomp(&comm_re, arg, REG_EXTENDED | REG_ICASE | REG_NOSUB))
			return pt_usage_error(c->cmd, "invalid regular expression '%s' for --comm-pattern", arg);
		comm_re_set = true;
		so.comm_re = &comm_re;
		return 0;
	case OPT_HINT:
		return parse_hint(c->cmd, arg);
	case OPT_THREAD_SEP:
		so.thread_sep = true;
		return 0;
	case OPT_NO_DEMANGLE:
		so.no_demangle = true;
		return 0;
	case OPT_IN_MEMORY:
		in_memory = true;
		return 0;
	case OPT_LAYOUT:
		so.paddle = !strcmp(arg, "paddle");
		return 0;
	case OPT_BATCH_SIZE:
	case OPT_SKIP_STEPS:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0)
			return pt_usage_error(c->cmd, "invalid value '%s' (a number >= 0)", arg);
		return 0;
	default:
		return 0;
	}
}

/* Device data over part of the steps: the views' figures are over the covered ones. */
static void coverage_notes(struct pt_common *c, const struct pt_summary *s)
{
	for (size_t i = 0; i < s->ncov; i++) {
		const struct pt_summary_cov *v = &s->cov[i];
		if (v->gpu)
			pt_steps_launch_coverage_line(&c->diag, v->rank, v->covered, v->kept, v->lo, v->hi, v->runs,
						      v->a, v->b, "the views are over those");
		else
			pt_steps_coverage_line(&c->diag, "device", v->rank, v->covered, v->kept, v->lo, v->hi, v->runs,
					       v->a, v->b, "the views are over those");
	}
}

/* The data of each view, and what to import to get it (missing-data errors). */
static const char *const view_source[PT_SV_COUNT][2] = {
	[PT_SV_DEVICE] = { "device", "Ascend task logs or CUPTI kernel records" },
	[PT_SV_OVERVIEW] = { "event", "a profiler dump" },
	[PT_SV_MODEL] = { "step", "a step trace or step ranges" },
	[PT_SV_DISTRIBUTED] = { "communication", "HCCL files or NCCL kernel records" },
	[PT_SV_OPERATOR] = { "operator", "framework op files or PyTorch operator ranges" },
	[PT_SV_KERNEL] = { "kernel", "Ascend task logs or CUPTI kernel records" },
	[PT_SV_MEMCPY] = { "memory copy", "CUPTI memcpy records" },
	[PT_SV_USERDEFINED] = { "user-defined range", "NVTX or mstx ranges" },
	[PT_SV_OPTYPE] = { "op type", "framework op files" },
	[PT_SV_AICPU] = { "AI CPU", "Ascend aicpu.data files" },
	[PT_SV_GPU] = { "GPU", "CUPTI kernel and memcpy records" },
	[PT_SV_API] = { "runtime API", "CUPTI runtime and driver API records" },
};

/* --view given, no selection, and no selected view has a row: the model has none of their data. */
static int check_source(const struct pt_common *c, const struct pt_summary *s, struct pt_err **e)
{
	if (!views_given || c->sel.steps_given || c->sel.window_given || name_arg || !s->n)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].data->nrows)
			return 0;
	/* "AI CPU or kernel" data, "Ascend aicpu.data files, or Ascend task logs or ..." to import */
	char kind[256] = "", what[1024] = "";
	for (size_t i = 0; i < s->n; i++) {
		const char *const *src = view_source[s->v[i].view];
		size_t lk = strlen(kind), lw = strlen(what);
		snprintf(kind + lk, sizeof(kind) - lk, "%s%s", i ? (i + 1 < s->n ? ", " : " or ") : "", src[0]);
		if (!strstr(what, src[1]))
			snprintf(what + lw, sizeof(what) - lw, "%s%s", lw ? "; " : "", src[1]);
	}
	return pt_err_nodata(e, kind, c->sel.device, what);
}

static int emit(struct pt_common *c, const struct pt_summary *s, struct pt_err **e)
{
	size_t n, main = 0;
	if (check_source(c, s, e))
		return -1;
	bool any = false;
	for (size_t i = 0; i < s->n && !any; i++)
		any = s->v[i].data->nrows > 0;
	if (name_arg && !any && s->n)
		pt_diag_note(&c->diag, "--name '%s' matches no name in the view%s shown", name_arg, s->n > 1 ? "s" : "");
	struct pt_table **v = pt_summary_tables(s, c->ex.format == PT_FMT_TABLE, &n);
	/* CSV to a stream without --view: the operator view, the first of the item views */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i]->name, "operator")) {
			main = i;
			break;
		}
	int rc = pt_common_emit_chosen(c, v, n, main, views_given, "--view", e);
	free(v);
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	pt_summary_opts_init(&so);
	int first = pt_common_parse(&c, argc, argv, own);
	int rc = 2;
	if (first == -2) {
		rc = 0;
		goto out;
	}
	if (first < 0)
		goto out;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		goto out;
	}
	so.sel = c.sel;
	so.coverage = true;
	so.unit = c.ex.unit;

	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct pt_summary s;
	c.path = argv[first]; /* missing-data errors name it, also when streamed */
	c.sel_checked = true; /* the summary says itself what its steps selection found (s.found) */
	bool streamed = false;
	/* several views chosen for CSV to a stream: say so before the work */
	rc = views_given ? pt_common_check_csv_choice(&c, (size_t)__builtin_popcount(so.views), "--view", &e) : 0;
	bool csv_ok = !rc;
	/* a raw PATH: imported streaming, its events encoded as they come, and summarised from them replayed
	 * where the summary of one read takes them (pt_summary_can_stream: an Ascend job, the kernel and api
	 * views of CUPTI data), which costs no model file; otherwise its model is written to a temporary model
	 * file and streamed as a model file is (common.c); where no such file can be made, loaded whole */
	if (csv_ok && !in_memory && pt_common_is_raw(argv[first])) {
		if (!(rc = pt_common_load_spilled(&c, argv[first], &m, &e))) {
			rc = pt_summary_stream_import(m, &so, &s, &streamed, &e);
			if (!rc && !streamed && pt_common_raw_standin_from(&c, argv[first], &m))
				rc = pt_summary_stream_file(PT_PTM_SOURCE(argv[first]), &so, &s, &streamed, &m, &e);
			else if (!rc && !streamed)
				rc = pt_ptm_spill_undo(m, &e);
		}
	} else if (csv_ok && !in_memory) {
		rc = pt_summary_stream_file(PT_PTM_SOURCE(argv[first]), &so, &s, &streamed, &m, &e);
	}
	if (!rc && streamed) {
		if (s.nesting_violations) /* host ranges streamed (stream-host.c): as in memory */
			pt_diag_note(&c.diag,
				     "%" PRIu64 " host range(s) overlap their parent partially (nesting_violations); "
				     "they are nested up to the parent's end",
				     s.nesting_violations);
		pt_sel_report(&s.found, &c.diag); /* the selection, as the summary found it */
		coverage_notes(&c, &s);
		rc = emit(&c, &s, &e);
		pt_summary_free(&s);
	} else if (csv_ok && !rc && (m || !(rc = pt_common_load(&c, argv[first], &m, &e)))) {
		struct pt_index *x = pt_index_new(m);
		rc = pt_pass_summary(m, x, &so, &s, &e);
		if (!rc && s.nesting_violations)
			pt_diag_note(&c.diag,
				     "%" PRIu64 " host range(s) overlap their parent partially (nesting_violations); "
				     "they are nested up to the parent's end",
				     s.nesting_violations);
		if (!rc) {
			pt_sel_report(&s.found, &c.diag);
			coverage_notes(&c, &s);
		}
		if (!rc)
			rc = emit(&c, &s, &e);
		pt_summary_free(&s);
		pt_index_free(x);
	}
	pt_model_free(m);
	rc = pt_common_finish(&c, rc, e);
out:
	if (name_re_set)
		regfree(&name_re);
	if (comm_re_set)
		regfree(&comm_re);
	name_re_set = comm_re_set = views_given = in_memory = false;
	return rc;
}

const struct pt_cmd pt_cmd_summary = {
	.name = "summary",
	.summary = "operator, kernel and overview tables",
	.usage = "[options] MODEL|PATH",
	.description = "Views of summary.md: device, overview, model, distributed, operator, kernel, memcpy,\n"
		       "userdefined, optype, aicpu, gpu and api. The device view adds, when MindData\n"
		       "minddata_cpu_utilization files were imported, CPU(Process) and CPU(System) rows and a Host CPU\n"
		       "table (user, system, I/O wait, idle, context switches, process user/system) per kept step,\n"
		       "outside the steps and over all samples. Text tables in the one text style, each in its own time\n"
		       "unit (--time-unit auto), or in summary.md's layout with --layout paddle; CSV and JSON carry\n"
		       "integer ns columns unless --time-unit is given. See proftool-summary(1).",
	.groups = groups,
	.run = run,
};
