/* proftool import: raw dumps -> one model file (.ptm). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/out.h"
#include "support/parse.h"
#include "support/pdeflate.h"
#include "support/xalloc.h"

enum { OPT_NO_COMPRESS = 100, OPT_MINDDATA, OPT_JOBS, OPT_IN_MEMORY, OPT_KINETO_PYFUNC, OPT_FORMAT_DEPRECATED };

static const struct pt_opt import_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT, "write the model to FILE ('-' for standard output)", NULL },
	{ "input-format", 0, "FMT", OPT_IMPORT_FORMAT, "input format (default auto: found from the files)",
	  pt_import_formats },
	{ "format", 0, "FMT", OPT_FORMAT_DEPRECATED,
	  "deprecated synonym of --input-format (import writes only a model; --format never names an output "
	  "format here)",
	  pt_import_formats },
	{ "no-compress", 0, NULL, OPT_NO_COMPRESS, "store the model uncompressed", NULL },
	{ "jobs", 'j', "N", OPT_JOBS,
	  "compress with N threads (default: the CPUs it may run on, at most 16); same file for any N", NULL },
	{ "in-memory", 0, NULL, OPT_IN_MEMORY,
	  "keep every event in memory until the model is written (default: encode them as they come)", NULL },
	{ "minddata", 0, "DIR", OPT_MINDDATA, "also read MindData files (pipeline, queues, CPU) from DIR", NULL },
	{ "kineto-python-functions", 0, NULL, OPT_KINETO_PYFUNC,
	  "also import a Kineto trace's python_function events, as PythonOp host ranges (default: counted only)",
	  NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { import_opts, pt_rawpath_opts, NULL };

static bool compress = true;
static int jobs; /* 0: pt_pdeflate_default_threads() */
static bool in_memory;

static bool format_warned;

static int own(struct pt_common *c, int id, const char *arg)
{
	if (id == OPT_FORMAT_DEPRECATED) {
		if (!format_warned)
			fprintf(stderr, "proftool: warning: import --format is deprecated; use --input-format\n");
		format_warned = true;
		c->imp.format = arg;
	} else if (id == OPT_NO_COMPRESS) {
		compress = false;
	} else if (id == OPT_JOBS) {
		int64_t v;
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 1 || v > PT_PDEFLATE_MAX_THREADS)
			return pt_usage_error(c->cmd, "invalid --jobs '%s' (a number of threads from 1 to %d)", arg,
					      PT_PDEFLATE_MAX_THREADS);
		jobs = (int)v;
	} else if (id == OPT_IN_MEMORY) {
		in_memory = true;
	} else if (id == OPT_MINDDATA) {
		c->imp.minddata_dir = arg;
	} else if (id == OPT_KINETO_PYFUNC) {
		c->imp.kineto_python_functions = true;
	}
	return 0;
}

/* "<base name of the first PATH>.ptm" in the current directory. */
static char *default_output(const char *path)
{
	char *p = pt_xstrdup(path);
	size_t l = strlen(p);
	while (l > 1 && p[l - 1] == '/')
		p[--l] = 0;
	const char *b = strrchr(p, '/');
	char *r = pt_xasprintf("%s.ptm", b && b[1] ? b + 1 : p);
	free(p);
	return r;
}

/* Where the compressed events wait for the rest of the model: beside the
 * model file, or in $TMPDIR (else /tmp) when it is written to standard
 * output or onto something other than a file. */
static char *spill_dir(const char *out_path)
{
	struct stat st;
	if (strcmp(out_path, "-") && (stat(out_path, &st) || S_ISREG(st.st_mode))) {
		const char *sl = strrchr(out_path, '/');
		if (!sl)
			return pt_xstrdup(".");
		return sl == out_path ? pt_xstrdup("/") : pt_xstrndup(out_path, (size_t)(sl - out_path));
	}
	const char *t = getenv("TMPDIR");
	return pt_xstrdup(t && *t ? t : "/tmp");
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (first >= argc) {
		pt_usage_error(cmd, "no PATH to import");
		return 2;
	}
	char *out_path = c.output ? pt_xstrdup(c.output) : default_output(argv[first]);
	if (!strcmp(out_path, "-") && isatty(1)) {
		free(out_path);
		pt_usage_error(cmd, "refusing to write a binary model to a terminal; use -o FILE or a pipe");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = pt_model_new();
	c.imp.only_written = true;
	if (!in_memory) {
		pt_ptm_spill_start(m, PT_PTM_SPILL_WINDOW);
		if (compress) {
			pt_ptm_spill_compress(m, jobs ? jobs : pt_pdeflate_default_threads());
			char *dir = spill_dir(out_path);
			pt_ptm_spill_to_file(m, dir);
			free(dir);
		}
	}
	int rc = pt_import(m, (const char *const *)argv + first, argc - first, &c.imp, &c.diag, &e);
	if (rc) {
		if (argc - first > 1)
			pt_err(&e, "cannot import '%s' and %d more PATH%s", argv[first], argc - first - 1,
			       argc - first > 2 ? "s" : "");
		else
			pt_err(&e, "cannot import '%s'", argv[first]);
	} else {
		struct pt_out o;
		rc = pt_out_open(&o, out_path, &e);
		if (!rc) {
			rc = pt_ptm_write(m, &o, compress, jobs ? jobs : pt_pdeflate_default_threads(), &e);
			if (rc)
				pt_out_abort(&o);
			else
				rc = pt_out_commit(&o, &e);
		}
		if (!rc && strcmp(out_path, "-"))
			fprintf(stderr, "proftool: wrote '%s' (%zu devices, %zu ops, %zu events, %zu steps)\n", out_path,
				m->devices.n, m->ops.n, pt_events_total(&m->events), m->steps.n);
	}
	pt_model_free(m);
	free(out_path);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_import = {
	.name = "import",
	.summary = "import raw dumps into a model file (.ptm)",
	.usage = "[options] PATH...",
	.description = "PATH is an Ascend profiling job directory (files directly in it or in data/), a container\n"
		       "directory, or single raw files. Without -o the model is written to '<name of the first\n"
		       "PATH>.ptm' in the current directory. Nothing is written when the import fails.",
	.groups = groups,
	.run = run,
};
