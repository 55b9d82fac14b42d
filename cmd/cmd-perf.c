/* proftool perf: the benchmark view (summary.md §10). */
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "pass/pass-perf.h"
#include "pass/pass-steps.h"
#include "support/out.h"
#include "support/parse.h"
#include "table/table.h"

enum { OPT_BATCH_SIZE = 100, OPT_SKIP_STEPS };

static const struct pt_opt perf_opts[] = {
	{ "batch-size", 0, "N", OPT_BATCH_SIZE, "samples per step: ips in samples/s instead of steps/s", NULL },
	{ "skip-steps", 0, "N", OPT_SKIP_STEPS, "leave out the first N kept steps (default 0)", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { perf_opts, pt_filter_opts, pt_output_opts, pt_rawpath_opts, NULL };

static struct pt_perf_opts popts;

static int own(struct pt_common *c, int id, const char *arg)
{
	int64_t v;
	switch (id) {
	case OPT_BATCH_SIZE:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v <= 0)
			return pt_usage_error(c->cmd, "invalid --batch-size '%s' (a number > 0)", arg);
		popts.batch_size = v;
		return 0;
	case OPT_SKIP_STEPS:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0)
			return pt_usage_error(c->cmd, "invalid --skip-steps '%s' (a number >= 0)", arg);
		popts.skip_steps = v;
		return 0;
	}
	return 0;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	memset(&popts, 0, sizeof(popts));
	int first = pt_common_parse(&c, argc, argv, own);
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
	struct pt_table *t = NULL;
	int rc;
	if (pt_common_is_model_file(argv[first])) {
		/* a model file: streamed, unless it holds what only the in-memory pass reads (then *m) */
		c.path = argv[first];
		c.sel_checked = true; /* the streamed read checks the selection itself */
		rc = pt_pass_perf_stream(PT_PTM_SOURCE(argv[first]), &sel, &popts, &t, &m, &c.diag, &e);
		if (!rc && m) {
			c.sel_checked = false;
			pt_common_check_sel(&c, m);
			rc = pt_pass_perf(m, &sel, &popts, &t, &c.diag, &e);
		}
	} else {
		rc = pt_common_load(&c, argv[first], &m, &e);
		if (!rc)
			rc = pt_pass_perf(m, &sel, &popts, &t, &c.diag, &e);
	}
	if (!rc && c.ex.format == PT_FMT_TABLE) {
		struct pt_out o;
		rc = pt_out_open(&o, c.output ? c.output : "-", &e);
		if (!rc) {
			pt_export_perf_text(&o, t, c.ex.unit);
			rc = pt_out_commit(&o, &e);
		}
	} else if (!rc) {
		rc = pt_common_emit(&c, &t, 1, &e);
	}
	pt_table_free(t);
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_perf = {
	.name = "perf",
	.summary = "benchmark view: batch cost, reader cost, throughput",
	.usage = "[options] MODEL|PATH",
	.description =
		"Per rank over the kept steps: batch_cost (the step's wall time), reader_cost (data wait: the\n"
		"Dataloader ranges of the step on GPU data, the iteration interval on Ascend data), ips (steps/s,\n"
		"or samples/s with --batch-size) and the reader ratio. avg = total / count; ips avg is the rate\n"
		"over the whole interval. Text: one table per rank, times in the unit its costs pick (or\n"
		"--time-unit); CSV/JSON: integer ns. A .ptm file of Ascend devices, or of GPU data from one\n"
		"process or several, is streamed (no event held), on standard input too (a pipe from a copy in $TMPDIR);\n"
		"other input is loaded whole. See proftool-perf(1).",
	.groups = groups,
	.run = run,
};
