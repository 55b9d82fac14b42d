/* Per-rank Ascend inputs numbered by device (see numbered.h). */
#include "import/numbered.h"

#include <stdbool.h>
#include <stdlib.h>

#include "model/model.h"
#include "support/diag.h"
#include "support/xalloc.h"

void pt_numbered_add(struct pt_numbered_set *f, const char *path, uint32_t number, const char *dup_warning,
		     struct pt_diag *diag)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].number == number) {
			pt_diag_warn(diag, path, dup_warning, PT_POS_NONE, 0);
			return;
		}
	pt_xgrow((void **)&f->v, &f->cap, f->n + 1, sizeof(*f->v));
	f->v[f->n++] = (struct pt_numbered){ pt_xstrdup(path), number };
}

void pt_numbered_free(struct pt_numbered_set *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].path);
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

int pt_numbered_read_all(struct pt_model *m, const struct pt_numbered_set *f, int64_t selected, const char *what,
			 pt_numbered_read_fn read, struct pt_diag *diag, struct pt_err **e)
{
	uint32_t npu = pt_model_only_device(m, PT_DEV_NPU);
	bool attach = npu != PT_NONE && f->n == 1, any = false;
	int rc = 0;
	for (size_t i = 0; i < f->n && !rc; i++) {
		uint32_t dev;
		if (attach) {
			dev = npu;
			if (m->devices.v[npu].id != f->v[i].number)
				pt_diag_note(diag, "%s numbered %u attached to the only Ascend device, %u", what,
					     f->v[i].number, m->devices.v[npu].id);
		} else {
			if (selected >= 0 && f->v[i].number != (uint64_t)selected) {
				pt_diag_warn(diag, f->v[i].path, "skipped files of unselected devices", PT_POS_NONE, 0);
				continue;
			}
			dev = pt_model_device(m, PT_DEV_NPU, f->v[i].number);
		}
		rc = read(m, dev, f->v[i].path, diag, e);
		any |= !rc;
	}
	if (rc)
		return rc;
	return any ? 0 : 1;
}
