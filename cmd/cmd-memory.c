/* proftool memory: peak, curve and what holds memory (Ascend memory_usage, CUPTI MEMORY2/MEMORY_POOL). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "model/ptm-picked.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "pass/pass-memory.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/xalloc.h"
#include "table/table.h"

enum { OPT_BY = 100, OPT_AT, OPT_MINDDATA, OPT_NO_DEMANGLE };

static const char *const by_values[] = { "pool", "op", "time", NULL };

static const struct pt_opt memory_opts[] = {
	{ "by", 0, "VIEW", OPT_BY,
	  "pool: peaks, what holds memory at the peak, pools (default); op: per node / per launching call; "
	  "time: the memory curve / allocation timeline",
	  by_values },
	{ "at", 0, "NODE", OPT_AT,
	  "Ascend, --by pool: the tensors holding memory at node NODE of each graph (a node index of the curve, "
	  "else a node name) instead of at the peak",
	  NULL },
	{ "minddata", 0, "DIR", OPT_MINDDATA,
	  "raw PATH: also read MindData files, memory_usage_<d>.pb among them, from DIR", NULL },
	{ "no-demangle", 0, NULL, OPT_NO_DEMANGLE,
	  "accepted for every analysis command; memory prints no C++ symbol names, so it changes nothing", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { memory_opts,   pt_filter_opts,  pt_output_opts,
					       pt_table_opts, pt_rawpath_opts, NULL };

static struct pt_mem_opts mo;

static int own(struct pt_common *c, int id, const char *arg)
{
	switch (id) {
	case OPT_BY:
		mo.by = !strcmp(arg, "op") ? PT_MEM_BY_OP : !strcmp(arg, "time") ? PT_MEM_BY_TIME : PT_MEM_BY_POOL;
		return 0;
	case OPT_AT:
		if (!*arg)
			return pt_usage_error(c->cmd, "--at takes a node index or a node name");
		mo.at = arg;
		return 0;
	case OPT_MINDDATA:
		c->imp.minddata_dir = arg;
		return 0;
	default:
		return 0;
	}
}

/*
 * A model file or standard input: read as a stream keeping only the events
 * the views read (pt_pass_memory_pick), so that a model without memory data
 * is found so without holding its events; a model with a GPU device and
 * memory data is read twice (standard input that cannot be read again:
 * whole; proftool(1) MEMORY). With --steps or
 * --time-window a model file is first read for its step windows and origin
 * (pt_steps_stream_read, no event held; a model that cannot stream so is read
 * whole there and used whole), and the selection's checks take what the
 * memory reads saw of the events (pt_sel_check_scanned). Standard input that
 * cannot be read again with a selection, and raw paths, are loaded whole.
 */
static int load(struct pt_common *c, const char *path, struct pt_model **m, struct pt_err **e)
{
	bool by_steps = c->sel.steps_given || c->sel.window_given;
	bool filters = by_steps || c->sel.step_pattern;
	bool model = pt_common_is_model_file(path); /* standard input: made readable again where it can be */
	bool stdin_ = !strcmp(path, "-") && !model;
	if ((filters && stdin_) || (!stdin_ && !model))
		return pt_common_load(c, path, m, e);
	c->path = path;
	/* the reads free large blocks (the steps read's windows and buffers before the memory reads, the
	 * first read's host calls): mapped, they go back at once, not held beside what comes after them */
	pt_xmap_big();
	const struct pt_ptm_source *src = PT_PTM_SOURCE(path);
	regex_t re;
	char msg[128];
	bool pattern_ok = !pt_sel_step_re(&c->sel, &re, msg, sizeof(msg));
	struct pt_sel_found rf;
	pt_sel_found_init(&rf, &c->sel);
	struct pt_steps_info si;
	memset(&si, 0, sizeof(si));
	bool have_si = false;
	int rc = 0;
	if (pattern_ok && !pt_ptm_source_once(src)) {
		/* a model that its tables show to hold no memory data is found so before its steps are made, or
		 * its host ranges kept for them (the pass says so) */
		bool none;
		if ((rc = pt_pass_memory_probe(src, &none, e)) || none) {
			regfree(&re);
			if (!rc)
				*m = pt_model_new();
			return rc;
		}
	}
	if (by_steps && pattern_ok) { /* a bad pattern: the pass says so, as after a load */
		struct pt_model *ms = NULL, *whole = NULL;
		struct pt_diag quiet = { 0 }; /* the steps' own notes: not memory's */
		rc = pt_steps_stream_read(src, &c->sel, &ms, &si, NULL, NULL, &whole, &quiet, e);
		pt_diag_free(&quiet);
		if (!rc && whole) { /* it cannot stream (or has no event): used whole, as loaded */
			regfree(&re);
			*m = whole;
			pt_common_check_sel(c, *m);
			return 0;
		}
		if (rc) {
			regfree(&re);
			pt_steps_info_free(&si);
			return rc;
		}
		pt_model_free(ms);
		have_si = true;
		mo.has_origin = true;
		mo.origin = si.origin;
	}
	struct pt_mem_pick mp;
	memset(&mp, 0, sizeof(mp));
	mp.once = pt_ptm_source_once(src);
	if (filters) {
		mp.found = &rf;
		mp.re = pattern_ok && c->sel.step_pattern ? &re : NULL;
	}
	struct pt_ptm_pick pick = { pt_pass_memory_pick, &mp,
				    PT_PTM_SKIP_BUT_GPU_MEM | PT_PTM_SKIP_BUT_RANGES | PT_PTM_PACK_GPU_MEM };
	bool whole;
	rc = pt_ptm_read_picked(src, &pick, m, &whole, e);
	if (!rc && !whole && !mp.gpu && mp.batches && (pt_model_gpu_mem_n(*m) || (*m)->gpu_pools.n)) {
		/* GPU memory records on no GPU device: the GPU views read every event */
		pt_pass_memory_pick_end(&mp, *m);
		pt_model_free(*m);
		*m = NULL;
		if (pattern_ok)
			regfree(&re);
		pt_steps_info_free(&si);
		if (mp.once)
			return pt_err(e, "standard input holds GPU memory records on a device that is not a GPU: "
					 "their views read every event, and it cannot be read again; give a model file");
		return pt_common_load(c, path, m, e);
	}
	if (!rc && !whole && pt_pass_memory_pick_again(&mp, *m))
		rc = pt_ptm_repick(src, &pick, *m, e);
	int64_t span[2] = { mp.ev_s, mp.ev_e };
	bool has_ev = mp.has_ev;
	if (!rc && !whole)
		pt_pass_memory_pick_end(&mp, *m);
	else
		pt_pass_memory_pick_end(&mp, NULL);
	if (rc) {
		pt_model_free(*m);
		*m = NULL;
	} else if (filters && !whole) {
		/* the selection's notes from what the reads saw, as pt_sel_check() on the whole model */
		rf.step_records = (*m)->steps.n > 0;
		c->sel_checked = true;
		pt_sel_check_scanned(*m, &c->sel, &rf, has_ev ? span : NULL, have_si ? &si : NULL, &c->diag);
	} else {
		pt_common_check_sel(c, *m);
	}
	if (pattern_ok)
		regfree(&re);
	pt_steps_info_free(&si);
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	pt_mem_opts_init(&mo);
	int first = pt_common_parse(&c, argc, argv, own);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	if (mo.at && mo.by != PT_MEM_BY_POOL) {
		pt_usage_error(cmd, "--at selects the holders of --by pool; --by op and --by time list every node");
		return 2;
	}
	mo.sel = c.sel;
	mo.diag = &c.diag;
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	int rc = load(&c, argv[first], &m, &e);
	if (!rc) {
		struct pt_table **t = NULL;
		size_t n = 0;
		rc = pt_pass_memory_ex(m, &mo, &t, &n, &e);
		if (!rc)
			rc = pt_common_emit(&c, t, n, &e);
		for (size_t i = 0; i < n; i++)
			pt_table_free(t[i]);
		free(t);
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_memory = {
	.name = "memory",
	.summary = "memory usage: peak, curve and what holds memory",
	.usage = "[options] MODEL|PATH",
	.description = "Ascend (MindSpore memory_usage_<d>.pb): per graph capacity, static memory, peak and the tensors\n"
		       "holding memory at the peak or at --at NODE (--by pool), per node usage (--by op), the curve over\n"
		       "execution order (--by time); proftool export --table tensors lists every tensor with its index\n"
		       "range. GPU (CUPTI MEMORY2/MEMORY_POOL): peak per device and memory group with the allocations\n"
		       "outstanding at the peak and their launching host call, pools, growths and trims (--by pool),\n"
		       "allocations per launching call (--by op), the allocation timeline (--by time); --steps and\n"
		       "--time-window keep a window of the GPU records (Ascend graphs are one plan for every step and\n"
		       "stay whole). A model file is streamed, keeping of the events only those the views read\n"
		       "(twice with a GPU device; with --steps or --time-window a first read takes the step windows).\n"
		       "See proftool-memory(1).",
	.groups = groups,
	.run = run,
};
