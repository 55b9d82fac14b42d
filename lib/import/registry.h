/*
 * Import any supported raw input into one model: the PATHs are walked once
 * (classify.h) and every importer is given what belongs to it (an Ascend job
 * directory may also hold MindData files). Nothing importable under all PATHs
 * is fatal. Adding an input format: its importer, its rule in classify.c and
 * one row in registry.c.
 */
#ifndef PT_IMPORT_REGISTRY_H
#define PT_IMPORT_REGISTRY_H
#include "import/ascend.h"
#include "import/classify.h"

struct pt_import_opts {
	const char *format;       /* "auto" or one importer's name */
	const char *minddata_dir; /* --minddata DIR: an extra path for the MindData importer */
	bool kineto_python_functions; /* --kineto-python-functions: import python_function events */
	struct pt_ascend_opts ascend;
	bool only_written; /* the model is only written (`import`): tables may stay packed (model/gpu-mem-pack.h) */
};

/*
 * An importer reads the inputs its rule picked from the PATHs (classify.h):
 * returns 0 when it imported something, 1 when it found nothing of its format
 * (not an error), -1 on a fatal problem.
 */
typedef int (*pt_importer_fn)(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
			      struct pt_diag *diag, struct pt_err **e);

struct pt_importer {
	const char *name;        /* the --format that selects it */
	pt_classify_fn classify; /* its rule: which files under the PATHs are its inputs */
	pt_importer_fn run;      /* reads them; not called when the rule found nothing */
};

/* In the order they run: device data first, so that later importers attach to its devices. */
extern const struct pt_importer pt_importers[];

void pt_import_opts_init(struct pt_import_opts *o);
int pt_import(struct pt_model *m, const char *const *paths, int npaths, const struct pt_import_opts *o,
	      struct pt_diag *diag, struct pt_err **e);
/* The names --format accepts, NULL-terminated ("auto" first). */
extern const char *const pt_import_formats[];

/* The importers (one file each). */
int pt_import_ascend(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		     struct pt_diag *diag, struct pt_err **e);
int pt_import_cupti(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		    struct pt_diag *diag, struct pt_err **e);
int pt_import_kineto(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		     struct pt_diag *diag, struct pt_err **e);
int pt_import_nsys(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		   struct pt_diag *diag, struct pt_err **e);
/* Does the file start with SQLite's header (an Nsight Systems or nvprof export, checked when read)? */
bool pt_nsys_sniff_file(const char *path);
int pt_import_msgpu(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		    struct pt_diag *diag, struct pt_err **e);
int pt_import_minddata(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		       struct pt_diag *diag, struct pt_err **e);

#endif
