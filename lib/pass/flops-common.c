/* Shared FLOPs figures: see flops-common.h. */
#include "pass/flops-common.h"

#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "support/xalloc.h"

typedef unsigned __int128 u128;

void pt_flops_op_analytical(const struct pt_model *m, const struct pt_op *op, struct pt_fm_result *r)
{
	size_t nin = 0, nout = 0;
	for (size_t i = 0; i < op->tensors.n; i++) {
		const struct pt_tensor *t = &op->tensors.v[i];
		size_t *n = t->output ? &nout : &nin;
		if (t->index + 1 > *n && t->index < 64)
			*n = t->index + 1;
	}
	struct pt_fm_tensor in[64], out[64];
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	for (size_t i = 0; i < op->tensors.n; i++) {
		const struct pt_tensor *t = &op->tensors.v[i];
		if (t->index >= 64)
			continue;
		struct pt_fm_tensor *f = t->output ? &out[t->index] : &in[t->index];
		f->present = true;
		f->shape = t->shape;
		f->nshape = t->nshape;
		f->format = pt_model_strget(m, t->format);
		f->dtype = pt_model_strget(m, t->dtype);
	}
	struct pt_fm_op fo = { pt_model_strget(m, op->type), in, nin, out, nout };
	pt_flops_model(&fo, r);
}

struct pt_flops_opfig *pt_flops_op_figs(const struct pt_model *m)
{
	struct pt_flops_opfig *v = pt_xcalloc(m->ops.n ? m->ops.n : 1, sizeof(*v));
	for (size_t i = 0; i < m->aicore.n; i++) {
		const struct pt_aicore *a = &m->aicore.v[i];
		if (!a->op || a->op > m->ops.n)
			continue;
		struct pt_flops_opfig *f = &v[a->op - 1];
		u128 x = pt_flops_counters(a->pmu);
		if (!f->ctr_n || x < f->ctr_min)
			f->ctr_min = x;
		if (!f->ctr_n || x > f->ctr_max)
			f->ctr_max = x;
		f->ctr_sum += x;
		f->ctr_n++;
	}
	for (size_t i = 0; i < m->ops.n; i++) {
		struct pt_flops_opfig *f = &v[i];
		pt_flops_op_analytical(m, &m->ops.v[i], &f->an);
		if (f->ctr_n) {
			u128 mean = (f->ctr_sum + f->ctr_n / 2) / f->ctr_n;
			f->known = mean <= (u128)UINT64_MAX;
			f->flops = (uint64_t)mean;
			f->source = "counters";
		} else if (f->an.known) {
			f->known = true;
			f->flops = f->an.flops;
			f->source = "analytical";
		} else {
			f->source = "unknown";
		}
	}
	return v;
}

void pt_flops_device_peak(const struct pt_model *m, uint32_t dev, struct pt_flops_peak *p)
{
	memset(p, 0, sizeof(*p));
	if (dev >= m->devices.n)
		return;
	const struct pt_device *dv = &m->devices.v[dev];
	const char *row = NULL;
	double f = 0, bw = 0;
	if (dv->kind == PT_DEV_GPU && pt_flops_gpu_peak(dv->name, PT_PEAK_FP16, &f, &bw, &row)) {
		p->bw = dv->mem_bandwidth_kbs ? (double)dv->mem_bandwidth_kbs * 1e3 : bw;
		if (f > 0) {
			p->flops = f;
			p->src = PT_PEAK_SRC_TABLE;
			snprintf(p->text, sizeof(p->text), "table:%s %s", row, pt_flops_peak_col_name(PT_PEAK_FP16));
		}
	} else if (dv->kind == PT_DEV_NPU && dv->peak_flops > 0) {
		p->flops = dv->peak_flops;
		p->src = PT_PEAK_SRC_INFO_JSON;
		snprintf(p->text, sizeof(p->text), "info.json");
	}
}
