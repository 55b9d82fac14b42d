/* proftool dataset: MindData pipeline, queues and the input bottleneck. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "model/ptm-picked.h"
#include "pass/pass-dataset.h"
#include "table/table.h"

enum { OPT_HINT = 100 };

static const struct pt_opt dataset_opts[] = {
	{ "hint", 0, "KEY=VALUE", OPT_HINT,
	  "set a threshold (repeatable): hints.md_queue.*, hints.md_pipeline.*, hints.md_cpu.*, hints.md_op.*",
	  NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { dataset_opts, pt_output_opts, pt_table_opts, pt_rawpath_opts, NULL };

static struct pt_dataset_knobs knobs;

static int own(struct pt_common *c, int id, const char *arg)
{
	if (id != OPT_HINT)
		return 0;
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return pt_usage_error(c->cmd, "--hint takes KEY=VALUE, not '%s'", arg);
	char *key = strndup(arg, (size_t)(eq - arg));
	char *why = NULL;
	int r = pt_dataset_knob_set(&knobs, key, eq + 1, &why);
	free(key);
	if (r < 0) {
		pt_usage_error(c->cmd, "%s", why);
		free(why);
		return -1;
	}
	return 0;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	pt_dataset_knobs_init(&knobs);
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	char *why = NULL;
	if (pt_dataset_knobs_check(&knobs, &why)) {
		pt_usage_error(cmd, "%s", why);
		free(why);
		return 2;
	}
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc;
	/* a model file: a stream keeping only the events the views read, the get_next records */
	struct pt_ptm_pick pick = { pt_pass_dataset_pick, NULL, 0 };
	rc = pt_common_load_picked(&c, argv[first], &pick, &m, &e);
	if (!rc) {
		struct pt_table **t = NULL;
		size_t n = 0;
		rc = pt_pass_dataset(m, c.imp.ascend.device, &knobs, &t, &n, &e);
		if (!rc)
			rc = pt_common_emit(&c, t, n, &e);
		for (size_t i = 0; i < n; i++)
			pt_table_free(t[i]);
		free(t);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_dataset = {
	.name = "dataset",
	.summary = "dataset pipeline queues and the input bottleneck",
	.usage = "[options] MODEL|PATH",
	.description = "Views: ops (one row per pipeline op, breadth-first from the root; the first ten columns are\n"
		       "MindInsight's minddata_pipeline_raw CSV), op_cpu (each op's CPU per step window, when the\n"
		       "CPU samples can be placed in steps), queues (host device queue and device get_next),\n"
		       "stages (which of data processing, host-to-device transfer and device fetch is the\n"
		       "bottleneck), batches (per-batch get/push/total times, when recorded) and hints (the MD_*\n"
		       "rules of proftool-hints, ungated). Every row ends with the raw evidence. A model file is\n"
		       "streamed, keeping only its get_next records. See proftool-dataset(1).",
	.groups = groups,
	.run = run,
};
