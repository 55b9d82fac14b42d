/*
 * MindData importer: file names and device attachment (ascend.md §1.1, §1.4).
 *
 * The path classifier (classify.c) looks for the files in --minddata DIR
 * first, then in every PATH (a directory's own entries, or a single file). The
 * first file of a (kind, number) wins; later ones are skipped with a warning. Device: when the model
 * holds exactly one Ascend device and every MindData file carries one and the
 * same number, the files are attached to that device (warned when the numbers
 * differ); otherwise the number is the device id: the NPU device of that id,
 * else a GPU device of that id (a MindSpore GPU profiler directory), else a
 * new NPU device.
 */
#include "import/input.h"
#include "import/import-minddata.h"

#include <stdlib.h>
#include <string.h>

#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/xalloc.h"
#include "support/sort.h"

static const char *const prefixes[PT_MDK__N] = {
	"pipeline_profiling_",
	"device_queue_profiling_",
	"dataset_iterator_profiling_",
	"minddata_cpu_utilization_",
};
static const char *const exts[PT_MDK__N] = { ".json", ".txt", ".txt", ".json" };

int pt_md_kind_of(const char *base, uint32_t *number)
{
	for (int k = 0; k < PT_MDK__N; k++) {
		size_t pl = strlen(prefixes[k]);
		if (strncmp(base, prefixes[k], pl))
			continue;
		const char *p = base + pl;
		uint64_t v = 0;
		size_t nd = 0;
		while (p[nd] >= '0' && p[nd] <= '9' && nd < 10)
			v = v * 10 + (uint64_t)(p[nd++] - '0');
		if (!nd || v > UINT32_MAX || strcmp(p + nd, exts[k]))
			return -1;
		*number = (uint32_t)v;
		return k;
	}
	return -1;
}

int pt_import_minddata(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		       struct pt_diag *diag, struct pt_err **e)
{
	const struct pt_inputs *f = in;
	int rc = 0;
	/* attachment rule (ascend.md §1.4) */
	uint32_t npu = pt_model_only_device(m, PT_DEV_NPU);
	bool one_number = true;
	for (size_t i = 1; i < f->n; i++)
		one_number &= f->v[i].number == f->v[0].number;
	bool attach = npu != PT_NONE && one_number;
	if (attach && m->devices.v[npu].id != f->v[0].number)
		pt_diag_note(diag, "MindData files numbered %u attached to the only Ascend device, %u",
			     f->v[0].number, m->devices.v[npu].id);

	/* pipelines first: the CPU reader checks op ids against them */
	static const int order[PT_MDK__N] = { PT_MDK_PIPELINE, PT_MDK_DEVICE_QUEUE, PT_MDK_ITERATOR, PT_MDK_CPU };
	bool any = false;
	for (int oi = 0; oi < PT_MDK__N && !rc; oi++) {
		for (size_t i = 0; i < f->n && !rc; i++) {
			const struct pt_input *mf = &f->v[i];
			if (mf->kind != order[oi])
				continue;
			uint32_t dev;
			if (attach) {
				dev = npu;
			} else {
				if (o->ascend.device >= 0 && mf->number != (uint64_t)o->ascend.device) {
					pt_diag_warn(diag, mf->path, "skipped files of unselected devices", PT_POS_NONE, 0);
					continue;
				}
				/* beside a MindSpore GPU profiler run: the GPU device of that number */
				uint32_t g = pt_model_find_device(m, PT_DEV_NPU, mf->number) == PT_NONE
						     ? pt_model_find_device(m, PT_DEV_GPU, mf->number)
						     : PT_NONE;
				dev = g != PT_NONE ? g : pt_model_device(m, PT_DEV_NPU, mf->number);
			}
			switch (mf->kind) {
			case PT_MDK_PIPELINE:
				rc = pt_md_read_pipeline(m, dev, mf->path, diag, e);
				break;
			case PT_MDK_DEVICE_QUEUE:
				rc = pt_md_read_queue(m, dev, mf->path, 0, diag, e);
				break;
			case PT_MDK_ITERATOR:
				rc = pt_md_read_queue(m, dev, mf->path, 1, diag, e);
				break;
			default:
				rc = pt_md_read_cpu(m, dev, mf->path, diag, e);
				break;
			}
			any |= !rc;
		}
	}
	if (!rc && !any)
		rc = 1;
	return rc;
}
