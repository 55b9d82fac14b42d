/* proftool steps: per-step stage breakdown (ascend.md §3.6, summary.md §9). */
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "pass/pass-steps.h"
#include "table/table.h"

static const struct pt_opt *const groups[] = { pt_filter_opts, pt_output_opts, pt_table_opts, pt_rawpath_opts, NULL };

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	int first = pt_common_parse(&c, argc, argv, NULL);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_sel sel = c.sel;
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc;
	if (pt_common_is_model_file(argv[first])) {
		/* a model file: streamed, unless it holds what only the in-memory pass reads (then *m) */
		struct pt_table *t[2] = { NULL, NULL };
		size_t n = 0;
		c.path = argv[first];
		c.sel_checked = true; /* the streamed read checks the selection itself */
		rc = pt_pass_steps_stream(PT_PTM_SOURCE(argv[first]), &sel, t, &n, &m, &c.diag, &e);
		if (!rc && !m)
			rc = pt_common_emit(&c, t, n, &e);
		for (size_t i = 0; i < n; i++)
			pt_table_free(t[i]);
		if (rc || !m)
			return pt_common_finish(&c, rc, e);
		c.sel_checked = false;
		pt_common_check_sel(&c, m);
	} else {
		rc = pt_common_load(&c, argv[first], &m, &e);
	}
	if (!rc) {
		struct pt_index *x = pt_index_new(m);
		struct pt_table *t[2] = { NULL, NULL };
		size_t n = 0;
		rc = pt_pass_steps(m, x, &sel, t, &n, &c.diag, &e);
		if (!rc)
			rc = pt_common_emit(&c, t, n, &e);
		for (size_t i = 0; i < n; i++)
			pt_table_free(t[i]);
		pt_index_free(x);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_steps = {
	.name = "steps",
	.summary = "per-step stage breakdown",
	.usage = "[options] MODEL|PATH",
	.description =
		"One row per training step, then the avg row (steps 2..n that are complete) and the outside row\n"
		"(what lies in no step; only without --steps and --time-window). Ascend: the step-trace stages,\n"
		"one column group per communication pair, the computation/communication breakdown and the\n"
		"execution counts (a leading device_id column when the model holds several devices). GPU: wall,\n"
		"busy, kernel, copy and fill time, the breakdown and activity counts. A .ptm file of Ascend devices\n"
		"is streamed (two reads, per-step state only), one of GPU data from one process or several too\n"
		"(three reads, a launch join of the activities' ids per process; a body of at most 16 MiB is read\n"
		"from the file once and kept for the later reads), one of both kinds too (each through its own\n"
		"reads); standard input too (a pipe from a copy in\n"
		"$TMPDIR); other input is loaded whole (proftool-steps(1) MEMORY).",
	.groups = groups,
	.run = run,
};
