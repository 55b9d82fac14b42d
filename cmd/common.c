#include "common.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-picked.h"
#include "model/ptm-source.h"
#include "support/fmt-text.h"
#include "support/out.h"
#include "support/parse.h"
#include "support/progress.h"
#include "support/steppat.h"
#include "support/xalloc.h"
#include "table/table.h"

static const char *const formats[] = { "table", "csv", "json", "jsonl", NULL };
static const char *const units[] = { "auto", "s", "ms", "us", "ns", NULL };
static const char *const dtype_tables[] = { "old", "new", NULL };

const struct pt_opt pt_output_opts[] = {
	{ "format", 0, "FMT", OPT_FORMAT, "output format", formats },
	{ "output", 'o', "FILE", OPT_OUTPUT,
	  "write to FILE ('-': standard output); CSV: DIR/ writes DIR/<table>.csv for each table", NULL },
	{ "time-unit", 0, "U", OPT_TIME_UNIT,
	  "unit of time columns (default auto: each text table picks its own; CSV/JSON integer ns)", units },
	{ "wide", 0, NULL, OPT_WIDE, "text tables: print every column, never shorten long names", NULL },
	{ 0 },
};

const struct pt_opt pt_table_opts[] = {
	{ "table", 0, "T[,T...]", OPT_TABLES,
	  "print only the tables named (CSV to a stream: one; -o DIR/ for one file each)", NULL },
	{ 0 },
};

const struct pt_opt pt_rawpath_opts[] = {
	{ "device", 0, "N", OPT_DEVICE, "only device N (of a raw PATH with several devices)", NULL },
	{ "hwts-freq", 0, "MHZ", OPT_HWTS_FREQ,
	  "Ascend device counter frequency (default: info.json's hwts_frequency, else 100)", NULL },
	{ "dtype-table", 0, "T", OPT_DTYPE_TABLE, "VM data-type numbering of text-era graph files", dtype_tables },
	{ 0 },
};

static struct pt_common *cur; /* the command's, for the import of a raw PATH (pt_common_is_model_file) */

void pt_common_init(struct pt_common *c, const struct pt_cmd *cmd, enum pt_format dflt)
{
	cur = c;
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->ex.format = dflt;
	pt_import_opts_init(&c->imp);
	pt_sel_init(&c->sel);
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
	case OPT_TABLES:
		c->tables = arg;
		return 0;
	case OPT_TIME_UNIT:
		c->ex.unit = !strcmp(arg, "auto") ? PT_TU_DEFAULT :
			     !strcmp(arg, "s")    ? PT_TU_S :
			     !strcmp(arg, "ms")   ? PT_TU_MS :
			     !strcmp(arg, "us")   ? PT_TU_US :
						    PT_TU_NS;
		return 0;
	case OPT_WIDE:
		c->ex.wide = true;
		return 0;
	case OPT_DEVICE: {
		int64_t v;
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0 || v > UINT32_MAX)
			return pt_usage_error(c->cmd, "invalid device '%s' (a device id is a number >= 0)", arg);
		c->imp.ascend.device = v;
		c->sel.device = v;
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
	return pt_filter_opt(c->cmd, &c->sel, id, arg);
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
	int r = pt_opts_parse(c->cmd, argc, argv, dispatch, &pc);
	/* prose wraps at the terminal's width when text goes to one, else at 100 */
	c->ex.width = !c->output || !strcmp(c->output, "-") ? pt_text_line_width(STDOUT_FILENO) : 100;
	return r;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* $TMPDIR, else /tmp: where standard input and raw PATHs become files to read again */
static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

/* Standard input made readable again (pt_ptm_stdin_spool): a pipe copied to an unlinked file of $TMPDIR
 * (else /tmp); where no file can be made there, false (read once, whole); a failed copy ends the run. */
static bool stdin_again(void)
{
	const char *dir = tmp_dir();
	unsigned long long n;
	struct pt_err *e = NULL;
	int r = pt_ptm_stdin_spool(dir, &n, &e);
	if (r < 0) {
		pt_print_error(e);
		pt_err_free(e);
		exit(1);
	}
	return r > 0;
}

/* The raw PATHs tried (raw_standin): made into a model file (ok) or not, with the import's warnings. */
static struct raw {
	char *path;
	bool ok;
	struct pt_diag warns;
} *raws;
static size_t nraws;

static struct raw *raw_of(const char *path)
{
	for (size_t i = 0; i < nraws; i++)
		if (!strcmp(raws[i].path, path))
			return &raws[i];
	return NULL;
}

/* The warnings of from added to d as if made there (from kept): counted ones add up, notes once. */
static void diag_replay(struct pt_diag *d, const struct pt_diag *from)
{
	for (size_t i = 0; i < from->n; i++) {
		const struct pt_diag_entry *x = &from->v[i];
		if (x->note == 1)
			pt_diag_info(d, "%s", x->what);
		else if (x->note)
			pt_diag_once(d, "%s", x->what);
		else
			pt_diag_warn_n(d, x->file, x->what, x->pos, x->first, x->count);
	}
}

/* m written uncompressed to fd (an unnamed temporary model file): 0, else nonzero, the error dropped (the
 * caller falls back to the import in memory). */
static int write_standin(int fd, const struct pt_model *m)
{
	struct pt_err *e = NULL;
	struct pt_out o;
	pt_out_init_fd(&o, fd, "a temporary model file");
	int rc = pt_ptm_write(m, &o, false, 1, &e);
	if (!rc)
		rc = pt_out_commit(&o, &e);
	else
		pt_out_abort(&o);
	pt_err_free(e);
	return rc;
}

/*
 * A raw PATH imported as `proftool import` imports it (its events encoded as they come and spilled,
 * a window at a time, plain, to an unnamed file of $TMPDIR, else /tmp), then written uncompressed
 * (compressing costs more CPU than the reads of a file of the page cache) to a model file of its
 * own, unnamed there too, which path's reads then read (its stand-in, model/ptm-source.h): the
 * commands read it as they read a model file, and every message names path. The import's
 * warnings are the command's, as a load's are. True when made; false where no file can be made
 * there, the import fails or the model cannot be written there: nothing is left of the try, and
 * path is imported in memory as before (a failed import then fails again, with the error and
 * warnings a load gives).
 */
static bool raw_standin(struct pt_common *c, const char *path)
{
	const char *dir = tmp_dir();
	int fd = pt_ptm_standin_file(dir);
	if (fd < 0)
		return false;
	raws = pt_xrealloc(raws, (nraws + 1) * sizeof(*raws));
	struct raw *r = &raws[nraws++];
	*r = (struct raw){ .path = pt_xstrdup(path) };
	struct pt_model *m = pt_model_new();
	pt_ptm_spill_start(m, PT_PTM_SPILL_WINDOW);
	if (!pt_ptm_spill_to_plain_file(m, dir)) {
		pt_model_free(m);
		close(fd);
		return false;
	}
	struct pt_import_opts imp = c->imp;
	imp.only_written = true;
	struct pt_err *e = NULL;
	const char *paths[1] = { path };
	int rc = pt_import(m, paths, 1, &imp, &r->warns, &e);
	if (!rc)
		rc = write_standin(fd, m);
	pt_model_free(m);
	if (rc) {
		pt_err_free(e);
		pt_diag_free(&r->warns);
		close(fd);
		return false;
	}
	r->ok = true;
	diag_replay(&c->diag, &r->warns);
	pt_ptm_standin_set(path, fd);
	return true;
}

bool pt_common_raw_standin_from(struct pt_common *c, const char *path, struct pt_model **m)
{
	(void)c; /* (the import's warnings went to c's diagnostics when it was loaded) */
	int fd = pt_ptm_standin_file(tmp_dir());
	if (fd < 0)
		return false;
	if (write_standin(fd, *m)) {
		close(fd);
		return false;
	}
	raws = pt_xrealloc(raws, (nraws + 1) * sizeof(*raws));
	raws[nraws++] = (struct raw){ .path = pt_xstrdup(path), .ok = true };
	pt_model_free(*m);
	*m = NULL;
	pt_ptm_standin_set(path, fd);
	return true;
}

void pt_common_raw_again(struct pt_common *c, const char *path)
{
	const struct raw *r = raw_of(path);
	if (r && r->ok)
		diag_replay(&c->diag, &r->warns);
}

bool pt_common_is_model_file(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return stdin_again();
	const struct raw *r = raw_of(path);
	if (r)
		return r->ok;
	if (!pt_common_is_raw(path))
		return !stat(path, &st) && S_ISREG(st.st_mode);
	return cur && raw_standin(cur, path);
}

bool pt_common_is_raw(const char *path)
{
	/* a .ptm name is a model even when its magic is wrong: load() says so rather than "nothing importable" */
	return strcmp(path, "-") && !ends_with(path, ".ptm") && !pt_ptm_probe(path);
}

static int load(struct pt_common *c, const char *path, bool spill, struct pt_model **m, struct pt_err **e)
{
	c->path = path;
	if (!pt_common_is_raw(path)) /* (a raw PATH made into a model file too: its stand-in read whole) */
		return pt_ptm_read(path, m, e);
	struct pt_model *nm = pt_model_new();
	if (spill) { /* plain, in an unnamed file of $TMPDIR (else /tmp), read back a window at a time; where no
		      * file can be made there, in memory */
		pt_ptm_spill_start(nm, PT_PTM_SPILL_WINDOW);
		pt_ptm_spill_to_plain_file(nm, tmp_dir());
	}
	const char *paths[1] = { path };
	if (pt_import(nm, paths, 1, &c->imp, &c->diag, e)) {
		pt_model_free(nm);
		return pt_err(e, "cannot import '%s'", path);
	}
	*m = nm;
	return 0;
}

void pt_common_check_sel(struct pt_common *c, const struct pt_model *m)
{
	if (c->sel_checked)
		return;
	c->sel_checked = true;
	pt_sel_check(m, &c->sel, &c->diag);
}

int pt_common_load(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e)
{
	int rc = load(c, path, false, m, e);
	if (!rc)
		pt_common_check_sel(c, *m);
	return rc;
}

int pt_common_load_spilled(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e)
{
	return load(c, path, true, m, e);
}

int pt_common_load_picked(struct pt_common *c, const char *path, const struct pt_ptm_pick *pick, struct pt_model **m,
			  struct pt_err **e)
{
	if (strcmp(path, "-") && !pt_common_is_model_file(path))
		return pt_common_load(c, path, m, e);
	c->path = path;
	bool whole;
	int rc = pt_ptm_read_picked(PT_PTM_SOURCE(path), pick, m, &whole, e);
	if (!rc)
		pt_common_check_sel(c, *m);
	return rc;
}

static bool out_is_dir(const struct pt_common *c)
{
	return c->output && strcmp(c->output, "-") && pt_out_is_dir(c->output);
}

static const char *stream_name(const struct pt_common *c)
{
	return !c->output || !strcmp(c->output, "-") ? "standard output" : c->output;
}

static int several_chosen(struct pt_common *c, size_t n, const char *selector, const char *names, struct pt_err **e)
{
	return pt_err(e, "CSV to %s is one table and %s chose %zu%s%s%s: choose one, or give -o DIR/ for one file per "
			 "table",
		      stream_name(c), selector, n, names ? " (" : "", names ? names : "", names ? ")" : "");
}

bool pt_common_csv_stream_ok(const struct pt_common *c)
{
	return c->ex.format == PT_FMT_CSV && !c->tables && !out_is_dir(c);
}

int pt_common_check_csv_choice(struct pt_common *c, size_t nchosen, const char *selector, struct pt_err **e)
{
	if (c->ex.format != PT_FMT_CSV || nchosen < 2 || out_is_dir(c))
		return 0;
	return several_chosen(c, nchosen, selector, NULL, e);
}

int pt_common_csv_dir(struct pt_common *c, struct pt_err **e)
{
	if (!out_is_dir(c))
		return 0;
	if (c->ex.format != PT_FMT_CSV)
		return pt_err(e, "-o '%s' is a directory: it takes CSV, one file per table (--format csv); give -o FILE "
				 "for %s",
			      c->output, c->ex.format == PT_FMT_TABLE ? "text" : "JSON");
	return pt_out_make_dir(c->output, e) ? -1 : 1;
}

/* -o DIR/: DIR/<table>.csv for each table, each replaced atomically. */
static int emit_dir(struct pt_common *c, struct pt_table *const *tables, size_t n, struct pt_err **e)
{
	if (pt_common_csv_dir(c, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *path = pt_out_dir_file(c->output, tables[i]->name, ".csv");
		struct pt_out o;
		int rc = pt_out_open(&o, path, e);
		free(path);
		if (rc)
			return -1;
		pt_export_csv(&o, &tables[i], 1, &c->ex);
		if (pt_out_commit(&o, e))
			return -1;
	}
	return 0;
}

int pt_common_emit_chosen(struct pt_common *c, struct pt_table *const *tables, size_t n, size_t main, bool chosen,
			  const char *selector, struct pt_err **e)
{
	if (out_is_dir(c))
		return emit_dir(c, tables, n, e);
	if (c->ex.format == PT_FMT_CSV && n > 1) {
		char *others = pt_export_names(tables, n, chosen ? n : main);
		if (chosen) {
			several_chosen(c, n, selector, others, e);
			free(others);
			return -1;
		}
		fprintf(stderr, "proftool: note: also available: %s %s\n", selector, others);
		free(others);
		tables += main;
		n = 1;
	}
	struct pt_out o;
	if (pt_out_open(&o, c->output ? c->output : "-", e))
		return -1;
	pt_export(&o, tables, n, &c->ex);
	return pt_out_commit(&o, e);
}

int pt_common_emit(struct pt_common *c, struct pt_table *const *tables, size_t n, struct pt_err **e)
{
	return pt_common_emit_main(c, tables, n, 0, e);
}

int pt_common_emit_main(struct pt_common *c, struct pt_table *const *tables, size_t n, size_t main, struct pt_err **e)
{
	if (!c->tables)
		return pt_common_emit_chosen(c, tables, n, main, false, "--table", e);
	bool *sel = pt_xcalloc(n ? n : 1, sizeof(*sel));
	struct pt_table **v = pt_xcalloc(n ? n : 1, sizeof(*v));
	int k = pt_export_pick(tables, n, c->tables, sel, e);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (sel[i])
			v[m++] = tables[i];
	int rc = k < 0 ? -1 : pt_common_emit_chosen(c, v, m, 0, true, "--table", e);
	free(v);
	free(sel);
	return rc;
}

void pt_print_error(struct pt_err *e)
{
	char *s = pt_err_str(e);
	fprintf(stderr, "proftool: error: %s\n", s);
	free(s);
}

int pt_common_finish(struct pt_common *c, int rc, struct pt_err *e)
{
	pt_progress_end();
	pt_diag_print(&c->diag, stderr);
	pt_diag_free(&c->diag);
	if (rc && pt_err_is_nodata(e)) {
		/* one form for every command: "MODEL has no <kind> data (import <what> to get it)" */
		char *s = pt_err_str(e);
		const char *model = !c->path ? "the model" : strcmp(c->path, "-") ? c->path : "standard input";
		fprintf(stderr, "proftool: error: %s %s\n", model, s);
		free(s);
		pt_err_free(e);
		return 1;
	}
	if (rc) {
		pt_print_error(e);
		pt_err_free(e);
		return 1;
	}
	return 0;
}

/* --- step and time filters ------------------------------------------------ */

const struct pt_opt pt_filter_opts[] = {
	{ "steps", 0, "A-B", OPT_STEPS, "only steps numbered A to B (also A, A- or -B)", NULL },
	{ "time-window", 0, "START:END", OPT_TIME_WINDOW,
	  "only what starts in [START, END): ns or a number with ns/us/ms/s, from the model's earliest event or step "
	  "record; either end optional",
	  NULL },
	{ "step-pattern", 0, "REGEX", OPT_STEP_PATTERN,
	  "GPU data: ranges whose whole name matches REGEX (POSIX ERE) are steps (default ^(ProfilerStep|ProfileStep)#[0-9]+$)",
	  NULL },
	{ 0 },
};

bool pt_filter_parse_steps(const char *s, int64_t *a, int64_t *b)
{
	const char *dash = strchr(s, '-');
	size_t n = strlen(s);
	if (!n || !strcmp(s, "-"))
		return false;
	if (!dash) {
		if (!pt_parse_i64(s, n, a) || *a < 0)
			return false;
		*b = *a;
		return true;
	}
	size_t la = (size_t)(dash - s), lb = n - la - 1;
	*a = 0;
	*b = INT64_MAX;
	if (la && (!pt_parse_i64(s, la, a) || *a < 0 || s[0] == '+'))
		return false;
	if (lb && (!pt_parse_i64(dash + 1, lb, b) || *b < 0 || dash[1] == '+' || dash[1] == '-'))
		return false;
	return *a <= *b;
}

bool pt_filter_parse_time(const char *s, size_t n, int64_t *ns)
{
	static const struct {
		const char *suf;
		int64_t mul;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	int64_t mul = 1;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		size_t l = strlen(units[u].suf);
		if (n > l && !memcmp(s + n - l, units[u].suf, l) && (s[n - l - 1] >= '0' && s[n - l - 1] <= '9')) {
			mul = units[u].mul;
			n -= l;
			break;
		}
	}
	if (!n)
		return false;
	const char *dot = memchr(s, '.', n);
	size_t li = dot ? (size_t)(dot - s) : n;
	int64_t ip;
	if (!li || !pt_parse_i64(s, li, &ip) || s[0] == '+')
		return false;
	bool neg = s[0] == '-';
	if (ip > INT64_MAX / mul || ip < INT64_MIN / mul)
		return false;
	int64_t v = ip * mul, frac = 0, scale = mul;
	if (dot) {
		size_t lf = n - li - 1;
		if (!lf)
			return false;
		for (size_t i = 0; i < lf; i++) {
			char ch = dot[1 + i];
			if (ch < '0' || ch > '9')
				return false;
			if (scale % 10) {
				if (ch != '0')
					return false; /* finer than 1 ns */
				continue;
			}
			scale /= 10;
			frac += (ch - '0') * scale;
		}
	}
	*ns = neg ? v - frac : v + frac;
	return true;
}

static bool parse_window(const char *s, struct pt_sel *f)
{
	const char *colon = strchr(s, ':');
	if (!colon || strchr(colon + 1, ':'))
		return false;
	size_t la = (size_t)(colon - s), lb = strlen(colon + 1);
	f->win_has_a = la > 0;
	f->win_has_b = lb > 0;
	if (f->win_has_a && !pt_filter_parse_time(s, la, &f->win_a))
		return false;
	if (f->win_has_b && !pt_filter_parse_time(colon + 1, lb, &f->win_b))
		return false;
	return !(f->win_has_a && f->win_has_b && f->win_b < f->win_a);
}

int pt_filter_opt(const struct pt_cmd *cmd, struct pt_sel *f, int id, const char *arg)
{
	switch (id) {
	case OPT_STEPS:
		if (!pt_filter_parse_steps(arg, &f->step_a, &f->step_b))
			return pt_usage_error(cmd, "invalid --steps '%s' (A-B, A, A- or -B with step numbers A <= B)",
					      arg);
		f->steps_given = true;
		f->steps_arg = arg;
		return 0;
	case OPT_TIME_WINDOW:
		if (!parse_window(arg, f))
			return pt_usage_error(cmd,
					      "invalid --time-window '%s' (START:END, each ns or a number with ns, us, ms or s; either end optional)",
					      arg);
		f->window_given = true;
		f->window_arg = arg;
		return 0;
	case OPT_STEP_PATTERN: {
		regex_t re;
		char msg[128];
		if (pt_step_pattern_compile(&re, arg, msg, sizeof(msg)))
			return pt_usage_error(cmd, "invalid --step-pattern '%s': %s (a POSIX extended regular expression)",
					      arg, msg);
		regfree(&re);
		f->step_pattern = arg;
		return 0;
	}
	}
	return 1;
}
