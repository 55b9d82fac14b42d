#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "support/out.h"
#include "support/parse.h"
#include "table/table.h"

static const char *const formats[] = { "table", "csv", "json", "jsonl", NULL };
static const char *const units[] = { "s", "ms", "us", "ns", NULL };
static const char *const dtype_tables[] = { "old", "new", NULL };

const struct pt_opt pt_output_opts[] = {
	{ "format", 0, "FMT", OPT_FORMAT, "output format", formats },
	{ "output", 'o', "FILE", OPT_OUTPUT, "write to FILE instead of standard output", NULL },
	{ "time-unit", 0, "U", OPT_TIME_UNIT,
	  "unit of time columns (tables default to ms; CSV/JSON to integer ns)", units },
	{ "wide", 0, NULL, OPT_WIDE, "never cut long names in text tables", NULL },
	{ 0 },
};

const struct pt_opt pt_rawpath_opts[] = {
	{ "device", 0, "N", OPT_DEVICE, "only device N (of a raw PATH with several devices)", NULL },
	{ "hwts-freq", 0, "MHZ", OPT_HWTS_FREQ,
	  "Ascend device counter frequency (default: info.json's hwts_frequency, else 100)", NULL },
	{ "dtype-table", 0, "T", OPT_DTYPE_TABLE, "VM data-type numbering of text-era graph files", dtype_tables },
	{ 0 },
};

void pt_common_init(struct pt_common *c, const struct pt_cmd *cmd, enum pt_format dflt)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->ex.format = dflt;
	pt_import_opts_init(&c->imp);
}

int pt_common_opt(struct pt_common *c, int id, const char *arg)
{
	switch (id) {
	case OPT_FORMAT:
		c->format_given = true;
		c->ex.format = !strcmp(arg, "table") ? PT_FMT_TABLE :
			       !strcmp(arg, "csv")   ? PT_FMT_CSV :
			       !strcmp(arg, "json")  ? PT_FMT_JSON :
						       PT_FMT_JSONL;
		return 0;
	case OPT_OUTPUT:
		c->output = arg;
		return 0;
	case OPT_TIME_UNIT:
		c->ex.unit = !strcmp(arg, "s") ? PT_TU_S : !strcmp(arg, "ms") ? PT_TU_MS : !strcmp(arg, "us") ? PT_TU_US : PT_TU_NS;
		return 0;
	case OPT_WIDE:
		c->ex.wide = true;
		return 0;
	case OPT_DEVICE: {
		int64_t v;
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0 || v > UINT32_MAX)
			return pt_usage_error(c->cmd, "invalid device '%s' (a device id is a number >= 0)", arg);
		c->imp.ascend.device = v;
		return 0;
	}
	case OPT_HWTS_FREQ:
		if (!pt_parse_mhz_khz(arg, strlen(arg), &c->imp.ascend.hwts_freq_khz))
			return pt_usage_error(c->cmd, "invalid frequency '%s' (MHz, e.g. 100 or 19.2)", arg);
		return 0;
	case OPT_DTYPE_TABLE:
		c->imp.ascend.dtype_table = !strcmp(arg, "old") ? 1 : 2;
		return 0;
	case OPT_IMPORT_FORMAT:
		c->imp.format = arg;
		return 0;
	}
	return 1;
}

struct parse_ctx {
	struct pt_common *c;
	int (*own)(struct pt_common *, int, const char *);
};

static int dispatch(void *p, int id, const char *arg)
{
	struct parse_ctx *pc = p;
	int r = pt_common_opt(pc->c, id, arg);
	if (r <= 0)
		return r;
	return pc->own ? pc->own(pc->c, id, arg) : 0;
}

int pt_common_parse(struct pt_common *c, int argc, char **argv, int (*own)(struct pt_common *, int, const char *))
{
	struct parse_ctx pc = { c, own };
	return pt_opts_parse(c->cmd, argc, argv, dispatch, &pc);
}

int pt_common_load(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e)
{
	if (!strcmp(path, "-") || pt_ptm_probe(path))
		return pt_ptm_read(path, m, e);
	struct pt_model *nm = pt_model_new();
	const char *paths[1] = { path };
	if (pt_import(nm, paths, 1, &c->imp, &c->diag, e)) {
		pt_model_free(nm);
		return pt_err(e, "cannot import '%s'", path);
	}
	*m = nm;
	return 0;
}

int pt_common_emit(struct pt_common *c, struct pt_table *const *tables, size_t n, struct pt_err **e)
{
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	pt_export(&o, tables, n, &c->ex);
	return pt_out_commit(&o, e);
}

void pt_print_error(struct pt_err *e)
{
	char *s = pt_err_str(e);
	fprintf(stderr, "proftool: error: %s\n", s);
	free(s);
}

int pt_common_finish(struct pt_common *c, int rc, struct pt_err *e)
{
	pt_diag_print(&c->diag, stderr);
	pt_diag_free(&c->diag);
	if (rc) {
		pt_print_error(e);
		pt_err_free(e);
		return 1;
	}
	return 0;
}
