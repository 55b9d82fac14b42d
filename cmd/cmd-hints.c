/* proftool hints: bottleneck advice with its evidence (hints.md). */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "export/export.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "pass/pass-hints.h"
#include "pass/pass-steps.h"
#include "support/out.h"

enum { OPT_HINT = 100, OPT_EXPLAIN, OPT_SHOW_SUPPRESSED, OPT_FAIL_ON, OPT_NO_DEMANGLE, OPT_COMM_PATTERN, OPT_IN_MEMORY };

static const char *const fail_values[] = { "info", "warn", NULL };

static const struct pt_opt hints_opts[] = {
	{ "hint", 0, "KEY=VALUE", OPT_HINT,
	  "set a threshold (repeatable; the last value wins): any key of proftool-hints(1), e.g. "
	  "hints.comm.exposed_pct=10, hints.disable=TOP_OPS", NULL },
	{ "explain", 0, "ID", OPT_EXPLAIN, "print the rule ID, its thresholds and the values in force; needs no model",
	  NULL },
	{ "show-suppressed", 0, NULL, OPT_SHOW_SUPPRESSED,
	  "also list what was not shown: rules not evaluated, hints suppressed by a gate, disabled rules", NULL },
	{ "fail-on", 0, "LEVEL", OPT_FAIL_ON, "exit 3 when a hint at or above LEVEL is shown", fail_values },
	{ "no-demangle", 0, NULL, OPT_NO_DEMANGLE, "show C++ kernel names as recorded", NULL },
	{ "comm-pattern", 0, "REGEX", OPT_COMM_PATTERN,
	  "communication operator and kernel names (POSIX extended, case-insensitive; replaces the built-in lists)",
	  NULL },
	{ "in-memory", 0, NULL, OPT_IN_MEMORY,
	  "load a model file whole instead of reading it as a stream (same output, more memory)", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { hints_opts, pt_filter_opts, pt_output_opts, pt_rawpath_opts, NULL };

static struct pt_hint_knobs knobs;
static const char *explain;
static bool show_suppressed;
static int fail_on = -1;
static bool no_demangle;
static regex_t comm_re;
static bool comm_re_set;
static bool in_memory;

static int own(struct pt_common *c, int id, const char *arg)
{
	switch (id) {
	case OPT_HINT: {
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg)
			return pt_usage_error(c->cmd, "--hint takes KEY=VALUE, not '%s'", arg);
		char *key = strndup(arg, (size_t)(eq - arg));
		char *why = NULL;
		int rc = pt_hint_knob_set(&knobs, key, eq + 1, &why);
		free(key);
		if (rc < 0) {
			pt_usage_error(c->cmd, "%s", why);
			free(why);
			return -1;
		}
		return 0;
	}
	case OPT_EXPLAIN:
		explain = arg;
		return 0;
	case OPT_SHOW_SUPPRESSED:
		show_suppressed = true;
		return 0;
	case OPT_FAIL_ON:
		fail_on = !strcmp(arg, "info") ? PT_SEV_INFO : PT_SEV_WARN;
		return 0;
	case OPT_NO_DEMANGLE:
		no_demangle = true;
		return 0;
	case OPT_IN_MEMORY:
		in_memory = true;
		return 0;
	case OPT_COMM_PATTERN:
		if (comm_re_set)
			regfree(&comm_re);
		comm_re_set = false;
		if (regcomp(&comm_re, arg, REG_EXTENDED | REG_ICASE | REG_NOSUB))
			return pt_usage_error(c->cmd, "invalid regular expression '%s' for --comm-pattern", arg);
		comm_re_set = true;
		return 0;
	}
	return 0;
}

static int do_explain(const struct pt_cmd *cmd)
{
	char *s = pt_hint_explain(explain, &knobs);
	if (!s) {
		char list[2048] = "";
		for (int i = 0; i < PT_HR__N; i++) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "", pt_hint_rule_name((enum pt_hint_rule)i));
		}
		pt_usage_error(cmd, "unknown rule '%s'; rules: %s", explain, list);
		return 2;
	}
	fputs(s, stdout);
	free(s);
	return fflush(stdout) ? 1 : 0;
}

/* CSV is one table a stream: --show-suppressed adds hints_suppressed, and
 * both go only to -o DIR/ (DIR/hints.csv, DIR/hints_suppressed.csv). */
static int emit(struct pt_common *c, const struct pt_hints *h, struct pt_err **e)
{
	int dir = pt_common_csv_dir(c, e);
	if (dir < 0)
		return -1;
	if (c->ex.format == PT_FMT_CSV && show_suppressed && !dir)
		return pt_err(e, "CSV to %s is one table and --show-suppressed adds a second (hints_suppressed): give "
				 "-o DIR/ for one file per table",
			      c->output && strcmp(c->output, "-") ? c->output : "standard output");
	for (int k = 0; k < (dir && show_suppressed ? 2 : 1); k++) {
		char *path = dir ? pt_out_dir_file(c->output, k ? "hints_suppressed" : "hints", ".csv") : NULL;
		struct pt_out o;
		int rc = pt_out_open(&o, path ? path : c->output ? c->output : "-", e);
		free(path);
		if (rc)
			return -1;
		if (dir)
			pt_export_hints_csv(&o, h, k);
		else
			pt_export_hints(&o, h, c->ex.format, show_suppressed, c->ex.width);
		if (pt_out_commit(&o, e))
			return -1;
	}
	return 0;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	pt_hint_knobs_free(&knobs);
	pt_hint_knobs_init(&knobs);
	explain = NULL;
	show_suppressed = false;
	fail_on = -1;
	no_demangle = false;
	in_memory = false;
	int first = pt_common_parse(&c, argc, argv, own);
	int ret;
	if (first == -2) {
		ret = 0;
		goto done;
	}
	if (first < 0) {
		ret = 2;
		goto done;
	}
	char *why = NULL;
	if (pt_hint_knobs_check(&knobs, &why)) {
		pt_usage_error(cmd, "%s", why);
		free(why);
		ret = 2;
		goto done;
	}
	if (explain) {
		if (argc - first > 1) {
			pt_usage_error(cmd, "--explain takes no more than one MODEL or PATH");
			ret = 2;
			goto done;
		}
		ret = do_explain(cmd);
		goto done;
	}
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		ret = 2;
		goto done;
	}
	struct pt_sel sel = c.sel;
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct pt_hints h = { 0 };
	struct pt_hints_opts ho = { .unit = c.ex.unit, .no_demangle = no_demangle };
	int rc;
	bool streamed = false;
	if (comm_re_set)
		ho.comm_re = &comm_re;
	if (!in_memory && pt_common_is_model_file(argv[first])) {
		/* a model file: streamed, unless it holds what only the in-memory pass reads (then m) */
		c.path = argv[first];
		c.sel_checked = true; /* the streamed read checks the selection itself */
		rc = pt_pass_hints_stream(PT_PTM_SOURCE(argv[first]), &sel, &knobs, &ho, &h, &m, &c.diag, &e);
		streamed = !rc && !m;
		if (!rc && m) {
			c.sel_checked = false;
			pt_common_check_sel(&c, m);
		}
	} else {
		rc = pt_common_load(&c, argv[first], &m, &e);
	}
	if (!rc && !streamed) {
		struct pt_index *x = pt_index_new(m);
		if (comm_re_set)
			pt_index_set_comm_pattern(x, &comm_re, !no_demangle);
		rc = pt_pass_hints(m, x, &sel, &knobs, &ho, &h, &c.diag, &e);
		pt_index_free(x);
	}
	/* no rule could be evaluated, none was disabled, nothing was selected away: nothing to go on */
	if (!rc && !h.evaluated && !h.disabled && !sel.steps_given && !sel.window_given)
		rc = pt_err_nodata(&e, "step or device", sel.device,
				   "a step trace, device activity, host ranges or MindData files");
	if (!rc)
		rc = emit(&c, &h, &e);
	int maxsev = pt_hints_max_sev(&h);
	pt_hints_free(&h);
	pt_model_free(m);
	ret = pt_common_finish(&c, rc, e);
	if (!ret && fail_on >= 0 && maxsev >= fail_on)
		ret = 3;
done:
	pt_hint_knobs_free(&knobs);
	if (comm_re_set)
		regfree(&comm_re);
	comm_re_set = false;
	return ret;
}

const struct pt_cmd pt_cmd_hints = {
	.name = "hints",
	.summary = "bottleneck advice with its evidence",
	.usage = "[options] MODEL|PATH | --explain ID",
	.description =
		"Runs the bottleneck rules of proftool-hints(1) over the model: input pipeline (INPUT_BOUND,\n"
		"UNEXPLAINED_TIME, STEP_GAP, the MindData MD_* rules), device utilisation, launches and idle time,\n"
		"communication, pipeline stages, cluster spread and HCCL links, top operators, exposed memory\n"
		"operations, FLOPs utilisation and memory capacity. Each hint has a rule id, a severity (crit,\n"
		"warn, info), one line of advice and the evidence behind it. A run where no rule fires prints\n"
		"'No hints to show.' and exits 0. Exit 3 only under --fail-on. An Ascend model file is read as a\n"
		"stream (two reads, per-device, per-window and per-op state; its events never held), and so is a\n"
		"GPU one (a CUPTI dump, with or without NVTX ranges; Nsight Systems; Kineto, PyTorch operator\n"
		"ranges and communication ranges too, without launch links of one process: three reads, five with\n"
		"operator ranges, one more with communication ones, the launch join and per-window state; several\n"
		"processes too, a launch join each, with operator ranges too), with --comm-pattern too; standard\n"
		"input too (a pipe from a copy in $TMPDIR); other input and --in-memory load the model whole\n"
		"(proftool-hints(1) MEMORY).",
	.groups = groups,
	.run = run,
};
