/* Shared FLOPs figures: see flops-common.h. */
#define _GNU_SOURCE /* qsort_r */
#include "pass/flops-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/sort.h"
#include "support/vec.h"
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

static int cmp_rng(const void *a, const void *b, void *arg)
{
	const struct pt_model *m = arg;
	const struct pt_flops_range *x = a, *y = b;
	uint32_t tx = m->events.track[x->ev], ty = m->events.track[y->ev];
	if (tx != ty)
		return tx < ty ? -1 : 1;
	int64_t sx = m->events.start[x->ev], sy = m->events.start[y->ev];
	if (sx != sy)
		return sx < sy ? -1 : 1;
	int64_t dx = m->events.dur[x->ev], dy = m->events.dur[y->ev];
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The position of event ev in v[n] (event << 32 | position, ascending). */
static bool find_ev(const uint64_t *v, size_t n, uint64_t ev, uint32_t *pos)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] >> 32 < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || v[lo] >> 32 != ev)
		return false;
	*pos = (uint32_t)v[lo];
	return true;
}

void pt_flops_range_figure(const struct pt_model *m, const char *text, uint32_t dims_key, uint32_t event,
			   const uint32_t *given, struct pt_flops_range *r)
{
	const char *opn;
	size_t opl, nin;
	int64_t *dims;
	size_t *off;
	int k = pt_flops_parse_nvtx(text, strlen(text), &opn, &opl, &dims, &off, &nin);
	uint32_t shapes = k || dims_key == UINT32_MAX ? UINT32_MAX : given ? *given : pt_model_event_arg(m, event, dims_key);
	r->shapes = shapes;
	if (shapes != UINT32_MAX) /* a Kineto cpu_op: the name is the op, its Input Dims the sizes */
		k = pt_flops_parse_sizes(pt_model_strget(m, shapes), pt_strtab_len(&m->strings, shapes), &dims, &off,
					 &nin);
	if (k == 1) {
		char opname[256];
		snprintf(opname, sizeof(opname), "%.*s", (int)(opl < 255 ? opl : 255), opn);
		struct pt_fm_tensor *in = pt_xcalloc(nin ? nin : 1, sizeof(*in));
		for (size_t j = 0; j < nin; j++) {
			in[j].present = true;
			in[j].shape = dims + off[j];
			in[j].nshape = (uint32_t)(off[j + 1] - off[j]);
		}
		struct pt_fm_op fo = { opname, in, nin, NULL, 0 };
		struct pt_fm_result res;
		pt_flops_model(&fo, &res);
		r->known = res.known;
		r->flops = res.flops;
		r->cls = res.cls;
		free(in);
		free(dims);
		free(off);
	} else if (k == 0) {
		/* no sizes: only the known zeros need none */
		char opname[256];
		snprintf(opname, sizeof(opname), "%.*s", (int)(opl < 255 ? opl : 255), opn);
		struct pt_fm_op fo = { opname, NULL, 0, NULL, 0 };
		struct pt_fm_result res;
		pt_flops_model(&fo, &res);
		r->known = res.known && res.flops == 0 && res.cls && !strcmp(res.cls, "data-movement");
		r->cls = res.cls;
	} else {
		r->malformed = true;
	}
}

struct pt_flops_range *pt_flops_gpu_ranges(const struct pt_model *m, size_t *n, uint32_t **kernel_range)
{
	*n = 0;
	if (kernel_range)
		*kernel_range = NULL;
	uint32_t op_type = pt_strtab_find(&m->strings, "Operator", 8);
	if (op_type == UINT32_MAX || !m->ranges.n)
		return NULL;
	uint32_t dims_key = pt_strtab_find(&m->strings, "Input Dims", 10); /* Kineto's shapes */
	PT_VEC(struct pt_flops_range) rs = { 0 };
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (ri->type != op_type || ri->domain)
			continue;
		struct pt_flops_range r;
		memset(&r, 0, sizeof(r));
		r.ev = ri->event;
		r.dev = PT_NONE;
		r.shapes = UINT32_MAX;
		const char *text = pt_model_strget(m, m->events.name[ri->event]);
		pt_flops_range_figure(m, text, dims_key, ri->event, NULL, &r);
		r.type = ri->label ? ri->label : m->events.name[ri->event];
		pt_vec_push(&rs, r);
	}
	if (!rs.n) {
		pt_vec_free(&rs);
		return NULL;
	}
	qsort_r(rs.v, rs.n, sizeof(*rs.v), cmp_rng, (void *)m);
	/* nesting by time on each track */
	uint32_t *stack = pt_xmalloc(rs.n * sizeof(*stack));
	size_t sp = 0;
	for (size_t i = 0; i < rs.n; i++) {
		const struct pt_events *ev = &m->events;
		size_t e = rs.v[i].ev;
		while (sp) {
			size_t p = rs.v[stack[sp - 1]].ev;
			if (ev->track[p] == ev->track[e] && ev->start[e] < ev->start[p] + ev->dur[p] &&
			    ev->start[e] + ev->dur[e] <= ev->start[p] + ev->dur[p])
				break;
			sp--;
		}
		rs.v[i].parent = sp ? stack[sp - 1] + 1 : 0;
		stack[sp++] = (uint32_t)i;
	}
	free(stack);
	for (size_t i = 0; i < rs.n; i++)
		if (rs.v[i].known && rs.v[i].flops)
			for (uint32_t p = rs.v[i].parent; p && !rs.v[p - 1].nonzero_desc; p = rs.v[p - 1].parent)
				rs.v[p - 1].nonzero_desc = true;
	/* inclusive kernel time through the innermost-range links */
	/* event index -> position in rs: (event << 32 | position), sorted, searched by halves
	 * (8 bytes a range; a hash map took 25 MiB for the 669 k operator ranges of a 1 GiB Kineto trace) */
	uint64_t *evr = pt_xmalloc(rs.n * sizeof(*evr));
	bool evr_sorted = true;
	for (size_t i = 0; i < rs.n; i++) {
		evr[i] = (uint64_t)rs.v[i].ev << 32 | (uint32_t)i;
		if (i && evr[i] < evr[i - 1])
			evr_sorted = false;
	}
	if (!evr_sorted)
		qsort(evr, rs.n, sizeof(*evr), pt_u64_cmp);
	uint32_t *kr = kernel_range ? pt_xcalloc(m->events.n ? m->events.n : 1, sizeof(*kr)) : NULL;
	for (size_t i = 0; i < m->links.n; i++) {
		const struct pt_gpu_link *l = &m->links.v[i];
		if (!l->range || l->event >= m->events.n || m->events.kind[l->event] != PT_EV_KERNEL)
			continue;
		uint32_t q;
		if (!find_ev(evr, rs.n, (uint64_t)l->range - 1, &q))
			continue;
		if (kr)
			kr[l->event] = q + 1;
		uint32_t kdev = m->tracks.v[m->events.track[l->event]].device;
		for (uint32_t p = q + 1; p; p = rs.v[p - 1].parent) {
			rs.v[p - 1].gpu += m->events.dur[l->event];
			if (rs.v[p - 1].dev == PT_NONE)
				rs.v[p - 1].dev = kdev;
		}
	}
	free(evr);
	if (kernel_range)
		*kernel_range = kr;
	*n = rs.n;
	return rs.v;
}
