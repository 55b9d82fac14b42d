/* proftool timeline: Chrome trace JSON for Perfetto and chrome://tracing (chrome-trace.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "export/export-chrome.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/pass-timeline.h"
#include "support/out.h"
#include "support/parse.h"
#include "support/pdeflate.h"
#include "support/xalloc.h"

enum {
	OPT_SCOPE_DEPTH = 100,
	OPT_GZIP,
	OPT_GZIP_LEVEL,
	OPT_SPLIT_MB,
	OPT_NO_OVERLAP,
	OPT_NO_FLOWS,
	OPT_NO_DEMANGLE,
	OPT_JOBS,
	OPT_PROFILE,
	OPT_IN_MEMORY,
	OPT_EXTRA_TRACKS,
};

static const struct pt_opt timeline_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT,
	  "write to FILE (\"-\" = standard output; default standard output unless it is a terminal); kineto: a directory",
	  NULL },
	{ "profile", 0, "P", OPT_PROFILE,
	  "viewer (default: one file for Perfetto and chrome://tracing) or kineto (DIR/rank<r>.pt.trace.json per rank, "
	  "PyTorch's dialect for HolisticTraceAnalysis)",
	  NULL },
	{ "scope-depth", 0, "N", OPT_SCOPE_DEPTH, "N rows of MindSpore name scopes per device (default 0 = none)", NULL },
	{ "gzip", 0, NULL, OPT_GZIP, "compress with gzip (also when FILE ends in .gz)", NULL },
	{ "gzip-level", 0, "N", OPT_GZIP_LEVEL, "gzip level 1-9 (default 6)", NULL },
	{ "jobs", 'j', "N", OPT_JOBS,
	  "gzip with N threads (default: the CPUs it may run on, at most 16); same bytes for any N", NULL },
	{ "split-mb", 0, "N", OPT_SPLIT_MB,
	  "write parts of at most N MiB of JSON beside FILE instead of FILE (default 0: never split)", NULL },
	{ "extra-tracks", 0, NULL, OPT_EXTRA_TRACKS,
	  "kineto: also the viewer profile's Steps, scope, Communication and overlap rows on each device (the viewer "
	  "profile always has them)",
	  NULL },
	{ "no-overlap", 0, NULL, OPT_NO_OVERLAP, "no overlap-analysis processes", NULL },
	{ "no-flows", 0, NULL, OPT_NO_FLOWS, "no launch arrows (s/f events)", NULL },
	{ "no-demangle", 0, NULL, OPT_NO_DEMANGLE, "keep C++ names mangled", NULL },
	{ "in-memory", 0, NULL, OPT_IN_MEMORY,
	  "read a model file whole instead of as a stream (same output; memory grows with the events)", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { timeline_opts, pt_filter_opts, pt_rawpath_opts, NULL };

static struct {
	uint32_t scope_depth;
	bool gzip, no_overlap, no_flows, no_demangle, kineto, in_memory, extra_tracks;
	int gzip_level;
	int jobs; /* 0: pt_pdeflate_default_threads() */
	uint64_t split_mb;
} opt;

static int own(struct pt_common *c, int id, const char *arg)
{
	int64_t v;
	switch (id) {
	case OPT_PROFILE:
		if (!strcmp(arg, "viewer") || !strcmp(arg, "kineto")) {
			opt.kineto = arg[0] == 'k';
			return 0;
		}
		return pt_usage_error(c->cmd, "invalid --profile '%s' (viewer or kineto)", arg);
	case OPT_SCOPE_DEPTH:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0 || v > 64)
			return pt_usage_error(c->cmd, "invalid --scope-depth '%s' (a number from 0 to 64)", arg);
		opt.scope_depth = (uint32_t)v;
		return 0;
	case OPT_GZIP:
		opt.gzip = true;
		return 0;
	case OPT_GZIP_LEVEL:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 1 || v > 9)
			return pt_usage_error(c->cmd, "invalid --gzip-level '%s' (1 to 9)", arg);
		opt.gzip_level = (int)v;
		return 0;
	case OPT_JOBS:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 1 || v > PT_PDEFLATE_MAX_THREADS)
			return pt_usage_error(c->cmd, "invalid --jobs '%s' (a number of threads from 1 to %d)", arg,
					      PT_PDEFLATE_MAX_THREADS);
		opt.jobs = (int)v;
		return 0;
	case OPT_SPLIT_MB:
		if (!pt_parse_i64(arg, strlen(arg), &v) || v < 0 || v > 1000000)
			return pt_usage_error(c->cmd, "invalid --split-mb '%s' (MiB, 0 = never split)", arg);
		opt.split_mb = (uint64_t)v;
		return 0;
	case OPT_NO_OVERLAP:
		opt.no_overlap = true;
		return 0;
	case OPT_NO_FLOWS:
		opt.no_flows = true;
		return 0;
	case OPT_NO_DEMANGLE:
		opt.no_demangle = true;
		return 0;
	case OPT_IN_MEMORY:
		opt.in_memory = true;
		return 0;
	case OPT_EXTRA_TRACKS:
		opt.extra_tracks = true;
		return 0;
	}
	return 0;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/*
 * The kineto profile: DIR/rank<r>.pt.trace.json[.gz] for every rank of the
 * model (chrome-trace.md §11), each file created atomically. DIR is created
 * when missing (its parent must exist).
 */
static int write_kineto(const struct pt_model *m, struct pt_index *x, const struct pt_tl *tl,
			const struct pt_tl_trace_opts *to, const struct pt_chrome_opts *base, const char *dir,
			struct pt_diag *diag, struct pt_err **e)
{
	struct stat sb;
	if (stat(dir, &sb) < 0) {
		if (errno != ENOENT || mkdir(dir, 0777) < 0)
			return pt_err_errno(e, errno, "cannot create directory '%s'", dir);
	} else if (!S_ISDIR(sb.st_mode)) {
		return pt_err(e, "'%s' is not a directory: --profile kineto writes one file per rank into -o DIR", dir);
	}
	uint32_t *ranks = NULL;
	size_t n = pt_tl_ranks(m, &ranks);
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		struct pt_tl_trace_opts ko = *to;
		ko.profile = PT_TRACE_KINETO;
		ko.rank = ranks[k];
		struct pt_chrome_opts o = *base;
		o.part_limit = 0;
		struct pt_trace *t = NULL;
		rc = pt_tl_trace_new(m, x, tl, &ko, diag, &t, e);
		if (rc)
			break;
		char *p = pt_xasprintf("%s/rank%u.pt.trace.json%s", dir, ranks[k], o.gzip ? ".gz" : "");
		struct pt_chrome_stats st;
		rc = pt_chrome_write(t, &o, p, &st, e);
		free(p);
		pt_tl_trace_free(t);
	}
	free(ranks);
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	memset(&opt, 0, sizeof(opt));
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	const char *out = c.output;
	if (opt.kineto && (!out || !strcmp(out, "-") || pt_out_is_stream(out))) {
		pt_usage_error(cmd, "--profile kineto writes one file per rank into a directory: use -o DIR");
		return 2;
	}
	if (!opt.kineto && opt.extra_tracks) {
		pt_usage_error(cmd, "--extra-tracks is for --profile kineto: the viewer profile always writes the extra tracks");
		return 2;
	}
	if (opt.kineto && opt.split_mb > 0) {
		pt_usage_error(cmd, "--profile kineto writes one file per rank and does not split: drop --split-mb");
		return 2;
	}
	if ((!out || pt_out_is_stream(out)) && opt.split_mb > 0) {
		if (!out || !strcmp(out, "-"))
			pt_usage_error(cmd, "standard output cannot be split: use -o FILE with --split-mb, or --split-mb 0");
		else
			pt_usage_error(cmd, "'%s' is not a regular file and cannot be split: use -o FILE with --split-mb, or --split-mb 0",
				       out);
		return 2;
	}
	if (!out && isatty(1)) {
		fprintf(stderr, "proftool: error: refusing to write trace JSON to a terminal; use -o FILE (or -o - to "
				"force standard output)\n");
		return 2;
	}
	char *path = pt_xstrdup(out ? out : "-");
	bool gz = opt.gzip || (!opt.kineto && ends_with(path, ".gz"));
	if (gz && !opt.kineto && !pt_out_is_stream(path) && !ends_with(path, ".gz")) { /* (not /dev/null.gz) */
		char *p2 = pt_xasprintf("%s.gz", path);
		free(path);
		path = p2;
	}

	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	struct pt_index *x = NULL;
	struct pt_tl *tl = NULL;
	struct pt_tl_opts to = { .scope_depth = opt.scope_depth, .overlap = !opt.no_overlap };
	to.sel = c.sel;
	to.kineto = opt.kineto;
	to.kineto_extra = opt.kineto && opt.extra_tracks;
	/*
	 * a model file: read as a stream where the model allows (pass-timeline.h; in the kineto profile a GPU
	 * model only of one rank and without host ranges)
	 */
	int rc = PT_TL_NOSTREAM;
	if (!opt.in_memory && pt_common_is_model_file(argv[first])) {
		c.path = argv[first];
		rc = pt_tl_stream_new(argv[first], &to, &m, &tl, &e);
		if (!rc) {
			pt_tl_stream_check_sel(tl, m, &c.sel, &c.diag);
			c.sel_checked = true;
		}
		if (rc == PT_TL_NOSTREAM) { /* a GPU model */
			rc = pt_tl_gstream_new(argv[first], &to, !opt.no_flows, &m, &tl, &e);
			if (!rc) {
				pt_tl_gstream_check_sel(tl, m, &c.sel, &c.diag);
				c.sel_checked = true;
			}
		}
	}
	if (rc == PT_TL_NOSTREAM) {
		rc = pt_common_load(&c, argv[first], &m, &e);
		if (!rc) {
			x = pt_index_new(m);
			rc = pt_pass_timeline(m, x, &to, &tl, &e);
		}
	}
	if (!rc) {
		{
			struct pt_tl_trace_opts tro = {
				.trace_name = argv[first],
				.profile = PT_TRACE_VIEWER,
				.flows = !opt.no_flows,
				.demangle = !opt.no_demangle,
				.extra_tracks = opt.extra_tracks,
			};
			struct pt_chrome_opts co = {
				.trace_name = argv[first],
				.gzip = gz,
				.gzip_level = opt.gzip_level,
				.gzip_threads = opt.jobs ? opt.jobs : pt_pdeflate_default_threads(),
				.part_limit = opt.split_mb << 20,
			};
			struct pt_chrome_stats st;
			if (opt.kineto) {
				rc = write_kineto(m, x, tl, &tro, &co, path, &c.diag, &e);
			} else {
				struct pt_trace *t = NULL;
				rc = pt_tl_trace_new(m, x, tl, &tro, &c.diag, &t, &e);
				if (!rc)
					rc = pt_chrome_write(t, &co, path, &st, &e);
				pt_tl_trace_free(t);
			}
			if (!rc && !opt.kineto) {
				if (st.max_part_events > 1000000)
					pt_diag_note(&c.diag,
						     "a trace file holds %llu events: viewers become sluggish above about 1000000 "
						     "(use --steps, --time-window or --split-mb)",
						     (unsigned long long)st.max_part_events);
				if (st.parts == 1 && st.bytes > PT_CHROME_VIEWER_MAX)
					pt_diag_note(&c.diag,
						     "'%s' has %llu bytes of JSON: browser viewers (Perfetto UI, chrome://tracing) load at most "
						     "%llu; write less with --steps A-B, --time-window START:END or --no-flows, or parts with "
						     "--split-mb 500",
						     path, (unsigned long long)st.bytes, (unsigned long long)PT_CHROME_VIEWER_MAX);
			}
		}
	}
	pt_tl_free(tl);
	if (x)
		pt_index_free(x);
	free(path);
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_timeline = {
	.name = "timeline",
	.summary = "Chrome trace JSON for Perfetto, chrome://tracing and HTA (kineto)",
	.usage = "[options] MODEL|PATH",
	.description =
		"Writes the model as Chrome Trace Event Format JSON (object form, one event per line): one process\n"
		"per device and per host, one row per stream or thread, step rows, the Ascend Communication row,\n"
		"optional scope rows and the overlap-analysis process per device, launch arrows and counters.\n"
		"Times are microseconds with three decimals relative to baseTimeNanoseconds. --profile kineto writes\n"
		"one file per rank in PyTorch's dialect for HolisticTraceAnalysis. See proftool-timeline(1).",
	.groups = groups,
	.run = run,
};
