/* Per-rank Ascend inputs numbered by device (see numbered.h). */
#include "import/numbered.h"

#include <stdbool.h>
#include <stdlib.h>

#include "import/classify.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/xalloc.h"

int pt_numbered_read_all(struct pt_model *m, const struct pt_inputs *f, int64_t selected, const char *what,
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
