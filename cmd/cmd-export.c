/* proftool export: raw tables of a model (CSV by default). */
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "pass/pass-raw.h"
#include "table/table.h"

enum { OPT_TABLE = 100 };

static const struct pt_opt export_opts[] = {
	{ "table", 't', "T", OPT_TABLE, "the table to export (required)", pt_raw_tables },
	{ 0 },
};

static const struct pt_opt *const groups[] = { export_opts, pt_output_opts, pt_rawpath_opts, NULL };

static const char *table_name;

static int own(struct pt_common *c, int id, const char *arg)
{
	(void)c;
	if (id == OPT_TABLE)
		table_name = arg;
	return 0;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_CSV);
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (!table_name) {
		pt_usage_error(cmd, "--table is required");
		return 2;
	}
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc = pt_common_load(&c, argv[first], &m, &e);
	if (!rc) {
		struct pt_table *t = NULL;
		rc = pt_pass_raw(m, table_name, c.imp.ascend.device, &t, &e);
		if (!rc)
			rc = pt_common_emit(&c, &t, 1, &e);
		pt_table_free(t);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_export = {
	.name = "export",
	.summary = "export a raw table of a model: ops, tasks, steps, aicpu, kernels, api, tensors",
	.usage = "--table T [options] MODEL|PATH",
	.description = "ops: one row per paired op execution; tasks: every paired device task, also those without\n"
		       "a framework op (empty name); steps: one row per step marker set with its communication\n"
		       "pairs; aicpu: one row per AI CPU op; kernels and api: CUPTI kernels and runtime/driver calls;\n"
		       "tensors: every tensor of the Ascend memory graphs with its source node and the node index\n"
		       "range it occupies (the holders at node i are the rows with first_index <= i <= last_index).\n"
		       "Times are integer ns of the device clock, absolute, unless --time-unit is given. See\n"
		       "proftool-export(1) for every column.",
	.groups = groups,
	.run = run,
};
