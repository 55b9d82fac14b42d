#include "import/registry.h"

#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "import/import-ascend-hccl.h"
#include "import/import-ascend-memory.h"
#include "import/input.h"
#include "model/model.h"
#include "model/ptm.h"

const struct pt_importer pt_importers[] = {
	{ "ascend", pt_classify_ascend, pt_import_ascend },
	{ "ascend", pt_classify_hccl, pt_import_ascend_hccl }, /* hccl_info_<d> directories (after the devices they attach to) */
	{ "cupti", pt_classify_cupti, pt_import_cupti },
	{ "kineto", pt_classify_kineto, pt_import_kineto }, /* PyTorch profiler traces (.json, .json.gz) */
	{ "nsys", pt_classify_nsys, pt_import_nsys },       /* Nsight Systems and nvprof SQLite exports (import-nsys.c) */
	{ "msgpu", pt_classify_msgpu, pt_import_msgpu },   /* MindSpore GPU profiler directories (before their MindData files) */
	{ "minddata", pt_classify_minddata, pt_import_minddata },
	{ "minddata", pt_classify_memory, pt_import_ascend_memory }, /* memory_usage_<d>.pb beside the MindData files */
	{ NULL, NULL, NULL },
};

const char *const pt_import_formats[] = { "auto", "ascend", "cupti", "kineto", "nsys", "msgpu", "minddata", NULL };

void pt_import_opts_init(struct pt_import_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = "auto";
	o->ascend.device = -1;
}

/*
 * Records an importer drops without a per-record warning, counted in a model
 * stat (kept in info): one warning line per reason once the import is done.
 */
static const struct {
	const char *stat, *what, *why;
} dropped[] = {
	{ "aicpu.thread_without_node", "AI CPU records", "no framework node for the thread" },
};

static void warn_dropped(const struct pt_model *m, const char *path, struct pt_diag *diag)
{
	for (size_t k = 0; k < sizeof(dropped) / sizeof(dropped[0]); k++) {
		int64_t n = 0;
		for (size_t i = 0; i < m->stats.n; i++)
			if (!strcmp(m->stats.v[i].key, dropped[k].stat))
				n += m->stats.v[i].value;
		if (n > 0)
			pt_diag_once(diag, "%s: %" PRId64 " %s dropped (%s: %s)", path, n, dropped[k].what,
				     dropped[k].stat, dropped[k].why);
	}
}

int pt_import(struct pt_model *m, const char *const *paths, int npaths, const struct pt_import_opts *o,
	      struct pt_diag *diag, struct pt_err **e)
{
	if (!npaths)
		return pt_err(e, "nothing to import");
	for (int i = 0; i < npaths; i++) {
		if (!strcmp(paths[i], "-"))
			continue;
		/* a FIFO or device given as PATH is refused: reading it could block or never end */
		struct stat st;
		if (!stat(paths[i], &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			const char *what = pt_input_not_regular(paths[i]);
			return pt_err(e, "'%s' is not a regular file or a directory: %s", paths[i],
				      what ? what : "it changed");
		}
		if (pt_ptm_probe(paths[i]))
			return pt_err(e, "'%s' is a proftool model, not a raw dump", paths[i]);
	}
	bool any = false;
	struct pt_walk *w = pt_walk_new(paths, npaths);
	for (const struct pt_importer *imp = pt_importers; imp->name; imp++) {
		if (strcmp(o->format, "auto") && strcmp(o->format, imp->name))
			continue;
		/* each rule at its importer's turn: what it reports comes in the order it always did */
		struct pt_inputs in = { 0 };
		int rc = imp->classify(w, o, &in, diag, e);
		if (!rc)
			rc = in.n ? imp->run(m, &in, o, diag, e) : 1;
		pt_inputs_free(&in);
		if (rc < 0) {
			pt_walk_free(w);
			return -1;
		}
		any |= rc == 0;
	}
	pt_walk_free(w);
	if (!any) {
		if (strcmp(o->format, "auto"))
			return pt_err(e, "no %s input found under '%s'", o->format, paths[0]);
		return pt_err(e, "nothing importable under '%s'%s", paths[0], npaths > 1 ? " and the other paths" : "");
	}
	warn_dropped(m, paths[0], diag);
	return 0;
}
