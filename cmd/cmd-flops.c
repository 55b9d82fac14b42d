/* proftool flops: FLOPs, achieved FLOPS and utilisation (ascend.md §3.9, cupti.md §6.12). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/pass-flops.h"
#include "support/out.h"
#include "table/table.h"

enum { OPT_BY = 100, OPT_SCOPE_DEPTH, OPT_PEAK, OPT_FFORMAT, OPT_IN_MEMORY };

static const char *const by_values[] = { "op", "type", "scope", "step", "model", NULL };
static const char *const fmt_values[] = { "table", "csv", "json", "jsonl", "folded", NULL };

static const struct pt_opt flops_opts[] = {
	{ "by", 0, "VIEW", OPT_BY, "what one row is: op (default), type, scope, step or model", by_values },
	{ "scope-depth", 0, "N", OPT_SCOPE_DEPTH, "keep N scope levels in --by scope and --format folded (default all)",
	  NULL },
	{ "peak", 0, "TFLOPS", OPT_PEAK, "peak FLOPS of every device, in TFLOPS (default: info.json or the GPU table)",
	  NULL },
	{ "in-memory", 0, NULL, OPT_IN_MEMORY,
	  "load a model file whole instead of reading it as a stream (same output, more memory)", NULL },
	{ 0 },
};

/* The shared output options, with a --format that also accepts folded. */
static const struct pt_opt out_opts[] = {
	{ "format", 0, "FMT", OPT_FFORMAT, "output format (folded: 'a;b;c VALUE' lines for flame graphs)", fmt_values },
	{ "output", 'o', "FILE", OPT_OUTPUT,
	  "write to FILE ('-': standard output); CSV: DIR/ writes DIR/<table>.csv for each table", NULL },
	{ "time-unit", 0, "U", OPT_TIME_UNIT,
	  "unit of time columns (default auto: each text table picks its own; CSV/JSON integer ns)",
	  (const char *const[]){ "auto", "s", "ms", "us", "ns", NULL } },
	{ "wide", 0, NULL, OPT_WIDE, "text tables: print every column, never shorten long names", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { flops_opts,    pt_filter_opts,  out_opts,
					       pt_table_opts, pt_rawpath_opts, NULL };

static struct pt_flops_opts fo;
static bool in_memory;

static int own(struct pt_common *c, int id, const char *arg)
{
	switch (id) {
	case OPT_BY:
		fo.by = !strcmp(arg, "op")    ? PT_FLOPS_BY_OP :
			!strcmp(arg, "type")  ? PT_FLOPS_BY_TYPE :
			!strcmp(arg, "scope") ? PT_FLOPS_BY_SCOPE :
			!strcmp(arg, "step")  ? PT_FLOPS_BY_STEP :
						PT_FLOPS_BY_MODEL;
		return 0;
	case OPT_SCOPE_DEPTH: {
		char *end;
		long v = strtol(arg, &end, 10);
		if (!*arg || *end || v < 1 || v > 1000)
			return pt_usage_error(c->cmd, "invalid scope depth '%s' (a number >= 1)", arg);
		fo.scope_depth = (int)v;
		return 0;
	}
	case OPT_PEAK: {
		char *end;
		double v = strtod(arg, &end);
		if (!*arg || *end || !isfinite(v) || v <= 0)
			return pt_usage_error(c->cmd, "invalid peak '%s' (TFLOPS, a number > 0)", arg);
		fo.peak = v * 1e12;
		return 0;
	}
	case OPT_IN_MEMORY:
		in_memory = true;
		return 0;
	case OPT_FFORMAT:
		if (!strcmp(arg, "folded")) {
			fo.folded = true;
			return 0;
		}
		fo.folded = false;
		return pt_common_opt(c, OPT_FORMAT, arg) < 0 ? -1 : 0;
	}
	return 0;
}

/* Folded stacks: one "stack VALUE" line per row of the folded table. */
static int emit_folded(struct pt_common *c, const struct pt_table *t, struct pt_err **e)
{
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct pt_cell *s = &t->cells[r * t->ncols];
		const struct pt_cell *v = &t->cells[r * t->ncols + 1];
		pt_out_write(&o, s->u.s, s->len);
		pt_out_putc(&o, ' ');
		if (v->kind == PT_CELL_INT)
			pt_out_i64(&o, v->u.i);
		else
			pt_out_printf(&o, "%.0f", v->u.d);
		pt_out_putc(&o, '\n');
	}
	return pt_out_commit(&o, e);
}

/*
 * A model file without FLOPs data says so in one streaming read, before a
 * load of all its events: without --steps, --time-window or --step-pattern
 * (whose checks need the steps, hence the events), and from a file (standard
 * input is read once, whole). 0: load it; else the error.
 */
static int probe(struct pt_common *c, const char *path, struct pt_err **e)
{
	if (fo.sel.steps_given || fo.sel.window_given || fo.sel.step_pattern || !pt_common_is_model_file(path))
		return 0;
	c->path = path; /* the error names it */
	struct pt_model *head = pt_model_new();
	bool may;
	int rc = pt_flops_probe(path, head, &may, e);
	if (!rc && !may) {
		pt_common_check_sel(c, head); /* --device: only the devices are looked at */
		rc = pt_flops_nodata(&fo, e);
	}
	pt_model_free(head);
	return rc;
}

/* After a pass that returned rc with tables t[0..*n): when it made them (rc 0, done), print them
 * (folded, or as the format says); free them either way. Returns the status. */
static int emit(struct pt_common *c, int rc, bool done, struct pt_table **t, size_t *n, struct pt_err **e)
{
	if (!rc && done)
		rc = fo.folded ? emit_folded(c, t[*n - 1], e) : pt_common_emit(c, t, *n, e);
	for (size_t i = 0; i < *n; i++)
		pt_table_free(t[i]);
	*n = 0;
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	memset(&fo, 0, sizeof(fo));
	in_memory = false;
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	fo.sel = c.sel;
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	bool streamed = false;
	int rc = 0;
	struct pt_table *t[2] = { NULL, NULL };
	size_t n = 0;
	bool file = !in_memory && pt_common_is_model_file(argv[first]);
	if (file) {
		/* an Ascend model file: streamed, its events never held */
		c.path = argv[first];
		c.sel_checked = true; /* the pass checks the selection against what it read */
		rc = pt_pass_flops_stream(argv[first], &fo, &m, t, &n, &streamed, &c.diag, &e);
		rc = emit(&c, rc, streamed, t, &n, &e);
		c.sel_checked = false;
	}
	if (!rc && !streamed && file &&
	    (fo.sel.steps_given || fo.sel.window_given || fo.sel.step_pattern)) {
		/* a GPU model file without FLOPs data: the steps of the selection streamed */
		c.sel_checked = true; /* the streamed read checks the selection itself */
		rc = pt_pass_flops_gsteps(argv[first], &fo, &m, t, &n, &streamed, &c.diag, &e);
		rc = emit(&c, rc, streamed, t, &n, &e);
		c.sel_checked = false;
		if (!rc && m && !streamed) /* its steps do not stream: read whole */
			pt_common_check_sel(&c, m);
	}
	if (!rc && !streamed && !m && file)
		rc = probe(&c, argv[first], &e);
	if (!rc && !streamed && !m && file) {
		/* a GPU model file with operator ranges: streamed */
		c.path = argv[first];
		c.sel_checked = true; /* the streamed steps check the selection */
		struct pt_model *whole = NULL;
		rc = pt_pass_flops_gstream(argv[first], &fo, &m, &whole, t, &n, &streamed, &c.diag, &e);
		rc = emit(&c, rc, streamed, t, &n, &e);
		c.sel_checked = false;
		if (!rc && whole) { /* its steps do not stream: read whole */
			m = whole;
			pt_common_check_sel(&c, m);
		} else if (whole) {
			pt_model_free(whole);
		}
	}
	if (!rc && !streamed && !m)
		rc = pt_common_load(&c, argv[first], &m, &e);
	if (!rc && !streamed) {
		struct pt_index *x = pt_index_new(m);
		rc = pt_pass_flops(m, x, &fo, t, &n, &c.diag, &e);
		rc = emit(&c, rc, true, t, &n, &e);
		pt_index_free(x);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_flops = {
	.name = "flops",
	.summary = "FLOPs, achieved FLOPS and utilisation per op, scope, step and model",
	.usage = "[options] MODEL|PATH",
	.description =
		"FLOPs of every op from the Ascend AI Core counters (aicore.data) or, where none exist, from the op\n"
		"type and tensor shapes (the analytical table of proftool-flops(1)); on GPU data from PyTorch's NVTX\n"
		"operator ranges. Rows per op (default), op type, scope level, step or model; --format folded prints\n"
		"'a;b;c FLOPS' stacks for flame-graph tools. Ops of unknown FLOPs are listed and counted, never taken\n"
		"as zero. An Ascend model file is read as a stream, its events never held; any other model file\n"
		"without FLOPs data is told so after one streaming read (with --steps, --time-window or\n"
		"--step-pattern, its steps are read as a stream too); a GPU model file with PyTorch operator ranges\n"
		"is read as a stream too (--in-memory loads it). See proftool-flops(1).",
	.groups = groups,
	.run = run,
};
