/* proftool dump: the stable text form of a whole model. */
#include "commands.h"
#include "common.h"
#include "model/dump.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/out.h"

static const struct pt_opt dump_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT, "write to FILE instead of standard output", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { dump_opts, pt_rawpath_opts, NULL };

static int on_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	pt_model_dump_events(m, &m->events, arg);
	return 0;
}

static int no_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)arg, (void)m, (void)e;
	return 0;
}

/*
 * A model file dumped without holding its events: a first read checks the
 * whole file and keeps all but the events (every table among them); a
 * second one writes the events batch by batch between what comes before
 * and after them. A damaged file fails in the first read, before any output.
 * The first read decodes of the events only what the side tables' checks
 * use (track, kind, start); the other columns are decoded, and checked
 * value by value, by the second read (their bytes are in the first read's
 * checksum): a second inflate and decode of every column cost 18 % more
 * instructions than the whole load at 64 MiB.
 */
static int dump_streamed(struct pt_common *c, const char *path, struct pt_err **e)
{
	c->path = path;
	const struct pt_ptm_source *src = PT_PTM_SOURCE(path);
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink first = { no_batch, NULL, false, 1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_PACK_GPU_MEM };
	unsigned nocols = PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK;
	int rc = pt_ptm_source_read_cols(src, m, &first, nocols, e);
	if (rc > 0) /* a skipping read never stops */
		rc = pt_err(e, "'%s': cannot be read as a stream", path);
	if (!rc)
		pt_common_check_sel(c, m);
	struct pt_out o;
	if (!rc)
		rc = pt_out_open(&o, c->output ? c->output : "-", e);
	if (!rc) {
		pt_model_dump_head(m, &o);
		struct pt_ptm_sink again = { on_batch, &o, true, 1 };
		rc = pt_ptm_source_read(src, m, &again, e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", path);
		if (!rc) {
			pt_model_dump_tail(m, &o);
			rc = pt_out_commit(&o, e);
		} else {
			pt_out_abort(&o);
		}
	}
	pt_model_free(m);
	return rc;
}

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
	if (pt_common_is_model_file(argv[first])) {
		int rc = dump_streamed(&c, argv[first], &e);
		return pt_common_finish(&c, rc, e);
	}
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
		       "identical dumps: it is the oracle of the importer tests. A model file's events are\n"
		       "streamed, never held (proftool-dump(1) MEMORY).",
	.groups = groups,
	.run = run,
};
