/* proftool export: raw tables of a model (CSV by default). */
#include <string.h>

#include "commands.h"
#include "common.h"
#include "export/export.h"
#include "model/model.h"
#include "model/ptm-picked.h"
#include "model/ptm-source.h"
#include "pass/pass-raw.h"
#include "support/err.h"
#include "support/out.h"
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

/* A streamed table's CSV: the output opened, and the header written, at the first row (or at the
 * end), so that an input that fails its first read leaves no output. */
struct csv_out {
	struct pt_common *c;
	struct pt_table *t;
	struct pt_out o;
	struct pt_csv_writer w;
	bool open, failed;
	struct pt_err *e;
};

static bool csv_open(struct csv_out *x)
{
	if (!x->open && !x->failed) {
		if (pt_out_open(&x->o, x->c->output ? x->c->output : "-", &x->e)) {
			x->failed = true;
			return false;
		}
		x->open = true;
		pt_export_csv_begin(&x->w, &x->o, x->t, &x->c->ex);
	}
	return x->open;
}

static void csv_row(void *arg, const struct pt_cell *cells)
{
	struct csv_out *x = arg;
	if (csv_open(x))
		pt_export_csv_row(&x->w, cells);
}

/* export --table api, kernels, tasks or ops of a .ptm file, streamed into the CSV rows (pass-raw.h). */
static int stream_table(struct pt_common *c, const char *path, struct pt_err **e)
{
	c->path = path;
	struct csv_out x;
	memset(&x, 0, sizeof(x));
	x.c = c;
	bool tasks = !strcmp(table_name, "tasks") || !strcmp(table_name, "ops");
	x.t = tasks ? pt_raw_tasks_head(!strcmp(table_name, "ops")) : pt_raw_cupti_head(!strcmp(table_name, "api"));
	int rc = pt_pass_raw_stream(PT_PTM_SOURCE(path), table_name, c->imp.ascend.device, &c->diag, csv_row, &x, e);
	c->sel_checked = true;
	if (!rc && !csv_open(&x)) { /* no rows: the header alone */
		*e = x.e;
		x.e = NULL;
		rc = -1;
	} else if (!rc && x.failed) {
		*e = x.e;
		x.e = NULL;
		rc = -1;
	}
	if (x.open) {
		pt_export_csv_end(&x.w);
		if (rc)
			pt_out_abort(&x.o);
		else
			rc = pt_out_commit(&x.o, e);
	}
	pt_err_free(x.e);
	pt_table_free(x.t);
	return rc;
}

/* A batch of a read that keeps no event: the steps, aicpu and tensors tables read none. */
static int pick_none(void *arg, struct pt_model *m, uint64_t first, struct pt_events *kept, struct pt_err **e)
{
	(void)arg, (void)m, (void)first, (void)kept, (void)e;
	return 0;
}

static bool is_table(const char *a, const char *b, const char *c)
{
	return !strcmp(table_name, a) || !strcmp(table_name, b) || (c && !strcmp(table_name, c));
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
	if ((is_table("api", "kernels", NULL) || is_table("tasks", "ops", NULL)) && pt_common_csv_stream_ok(&c) &&
	    pt_common_is_model_file(argv[first])) {
		int rc = stream_table(&c, argv[first], &e);
		return pt_common_finish(&c, rc, e);
	}
	struct pt_model *m = NULL;
	int rc;
	if (is_table("steps", "aicpu", "tensors")) {
		/* tables of no event: a model file read as a stream that keeps none */
		struct pt_ptm_pick pick = { pick_none, NULL, 0 };
		rc = pt_common_load_picked(&c, argv[first], &pick, &m, &e);
	} else {
		rc = pt_common_load(&c, argv[first], &m, &e);
	}
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
		       "Times are integer ns of the device clock, absolute, unless --time-unit is given. The api,\n"
		       "kernels, tasks and ops tables of a .ptm file in CSV are streamed into their rows without loading\n"
		       "the model; steps, aicpu and tensors read no event (proftool-export(1) MEMORY). See\n"
		       "proftool-export(1) for every column.",
	.groups = groups,
	.run = run,
};
