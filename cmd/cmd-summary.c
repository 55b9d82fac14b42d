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
	{ "sorted-by", 0, "KEY", OPT_SORTED_BY, "sort key of the item views (default cpu-total; gpu-total on Ascend)",
	  pt_summary_keys },
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
	  "load the whole model first (by default Ascend data, and CUPTI data for the views that do not need "
	  "launch links, from a .ptm file, standard input ('-') or a raw PATH, is summed one batch of events at a "
	  "time: see MEMORY in proftool-summary(1))",
	  NULL },
	{ "batch-size", 0, "N", OPT_BATCH_SIZE, "accepted for proftool perf; no effect here", NULL },
	{ "skip-steps", 0, "N", OPT_SKIP_STEPS, "accepted for proftool perf; no effect here", NULL },
	{ 0 },
};

/*
 * pt_output_opts with the -o of summary: with several views in CSV it is a
 * PREFIX (PREFIX.<view>.csv), see emit_csv(). Same ids, so pt_common_opt
 * handles them.
 */
static const char *const out_formats[] = { "table", "csv", "json", "jsonl", NULL };
static const char *const out_units[] = { "auto", "s", "ms", "us", "ns", NULL };
static const struct pt_opt summary_output_opts[] = {
	{ "format", 0, "FMT", OPT_FORMAT, "output format", out_formats },
	{ "output", 'o', "FILE|PREFIX", OPT_OUTPUT,
	  "write to FILE instead of standard output; CSV of several views: one file PREFIX.<view>.csv per view",
	  NULL },
	{ "time-unit", 0, "U", OPT_TIME_UNIT, "unit of time columns (default auto: each text table picks its own; CSV/JSON integer ns)",
	  out_units },
	{ "wide", 0, NULL, OPT_WIDE, "never shorten long names in text tables", NULL },
	{ "layout", 0, "L", OPT_LAYOUT,
	  "text layout: plain (the one text style, default) or paddle (summary.md §5's tables, ms, 2 decimals)",
	  (const char *const[]){ "plain", "paddle", NULL } },
	{ 0 },
};

static const struct pt_opt *const groups[] = { summary_opts, pt_filter_opts, summary_output_opts, pt_rawpath_opts,
					       NULL };

static struct pt_summary_opts so;
static regex_t name_re, step_re, comm_re;
static bool name_re_set, step_re_set, comm_re_set;
static bool views_given;
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
		for (int k = 0; pt_summary_keys[k]; k++)
			if (!strcmp(arg, pt_summary_keys[k]))
				so.key = (enum pt_summary_key)k;
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

/* CSV: one table alone; several: "# view: <name>" before each, or -o PREFIX.<name>.csv files. */
static int emit_csv(struct pt_common *c, const struct pt_summary *s, struct pt_err **e)
{
	if (s->n > 1 && c->output) {
		for (size_t i = 0; i < s->n; i++) {
			char *path = pt_xasprintf("%s.%s.csv", c->output, s->v[i].data->name);
			struct pt_out o;
			int rc = pt_out_open(&o, path, e);
			free(path);
			if (rc)
				return -1;
			pt_export_csv(&o, &s->v[i].data, 1, &c->ex);
			if (pt_out_commit(&o, e))
				return -1;
		}
		return 0;
	}
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		if (s->n > 1)
			pt_out_printf(&o, "# view: %s\n", s->v[i].data->name);
		pt_export_csv(&o, &s->v[i].data, 1, &c->ex);
	}
	return pt_out_commit(&o, e);
}

static int emit(struct pt_common *c, const struct pt_summary *s, struct pt_err **e)
{
	if (c->ex.format == PT_FMT_CSV)
		return emit_csv(c, s, e);
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	size_t n;
	struct pt_table **v = pt_summary_tables(s, c->ex.format == PT_FMT_TABLE, &n);
	pt_export(&o, v, n, &c->ex);
	free(v);
	return pt_out_commit(&o, e);
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
	if (c.sel.step_pattern) {
		if (regcomp(&step_re, c.sel.step_pattern, REG_EXTENDED | REG_NOSUB)) {
			pt_usage_error(cmd, "invalid regular expression '%s' for --step-pattern", c.sel.step_pattern);
			goto out;
		}
		step_re_set = true;
		so.step_re = &step_re;
	}
	so.sel = c.sel;
	so.unit = c.ex.unit;

	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct pt_summary s;
	bool streamed = false;
	rc = 0;
	if (!in_memory && (pt_common_is_model_file(argv[first]) || !strcmp(argv[first], "-"))) {
		rc = pt_summary_stream_file(PT_PTM_SOURCE(argv[first]), &so, &s, &streamed, &m, &e);
	} else if (!in_memory && !(rc = pt_common_load_spilled(&c, argv[first], &m, &e))) {
		/* a raw PATH: the import keeps its events encoded, and the summary replays them */
		rc = pt_summary_stream_import(m, &so, &s, &streamed, &e);
		if (!rc && !streamed)
			rc = pt_ptm_spill_undo(m, &e);
	}
	if (!rc && streamed) {
		rc = emit(&c, &s, &e);
		pt_summary_free(&s);
	} else if (!rc && (m || !(rc = pt_common_load(&c, argv[first], &m, &e)))) {
		struct pt_index *x = pt_index_new(m);
		rc = pt_pass_summary(m, x, &so, &s, &e);
		if (!rc && s.nesting_violations)
			pt_diag_note(&c.diag,
				     "%" PRIu64 " host range(s) overlap their parent partially (nesting_violations); "
				     "they are nested up to the parent's end",
				     s.nesting_violations);
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
	if (step_re_set)
		regfree(&step_re);
	if (comm_re_set)
		regfree(&comm_re);
	name_re_set = step_re_set = comm_re_set = views_given = in_memory = false;
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
