/* PLACEHOLDER: replaced by the real importer. */
#include "import/registry.h"

int pt_import_minddata(struct pt_model *m, const char *const *paths, int npaths, const struct pt_import_opts *o,
		 struct pt_diag *diag, struct pt_err **e)
{
	(void)m;
	(void)paths;
	(void)npaths;
	(void)o;
	(void)diag;
	(void)e;
	return 1; /* found nothing */
}
