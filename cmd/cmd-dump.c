/* proftool dump: the stable text form of a whole model. */
#include "commands.h"
#include "common.h"
#include "model/dump.h"
#include "model/model.h"
#include "support/out.h"

static const struct pt_opt dump_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT, "write to FILE instead of standard output", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { dump_opts, pt_rawpath_opts, NULL };

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
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc = pt_common_load(&c, argv[first], &m, &e);
	if (!rc) {
		struct pt_out o;
		rc = pt_out_open(&o, c.output ? c.output : "-", &e);
		if (!rc) {
			pt_model_dump(m, &o);
			rc = pt_out_commit(&o, &e);
		}
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_dump = {
	.name = "dump",
	.summary = "print the whole model in a stable text form",
	.usage = "[options] MODEL|PATH",
	.description = "One line per source, device, track, op (with its tensors), step (with its communication\n"
		       "intervals), AI CPU op, stat, event and sample, in model order. Identical models give\n"
		       "identical dumps: it is the oracle of the importer tests.",
	.groups = groups,
	.run = run,
};
