/*
 * `steps` and `perf` over a .ptm file without holding its events
 * (pass-steps.h, pt_steps_stream_read).
 *
 * First read: every chunk but the events is applied to the model; each event
 * batch is scanned: per device its span, its device data and whether it runs
 * tasks (struct pt_steps_devscan), per track the lag of its device tasks
 * (support/lag.h) and whether it runs a task of a framework op (an unnamed
 * task on such a stream computes: pt_index_task_class), the host ranges for
 * --step-pattern's warning, the events' first start and last end. That is
 * all the step windows, the coverage and perf need.
 *
 * Second read (the steps table's device figures): each device task is
 * classed as the index classes it (ascend.md §3.8) and goes to its rank's
 * streamed breakdown (breakdown-stream.h) with the rank's step windows and
 * outside set; after each batch, what no later task of the device can start
 * before (per track: its latest start less its lag, or its first start while
 * none came) is swept. Executions and AI CPU ops are counted per window as
 * marks. The device's communication spans (HCCL operators, reduce pairs)
 * are side tables, added before the first event.
 *
 * Only Ascend ranks stream: a model with a CPU or GPU device (GPU ranks read
 * host ranges and launch calls by correlation id), host range records or
 * launch links is read again whole (pt_ptm_read) from the batch that shows
 * it, normally the first: not turned whole in the streaming read, which
 * would keep its buffers and decode slower than the plain read.
 */
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/ascend-scan.h"
#include "pass/breakdown-stream.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/xalloc.h"
#include "table/table.h"

struct sst {
	const struct pt_sel *sel;
	bool once;
	size_t nbatch;
	/* first read */
	struct pt_ascan a; /* per device its scan, per track its lag and whether it runs framework tasks */
	bool has_re;
	regex_t re;
	struct pt_sel_found rf;
	/* second read */
	struct pt_ascan_next *t; /* per track of a.trk */
	/* second read */
	uint8_t *op_comm;
	uint8_t *kname;        /* per string: 0 not seen, 1 computation, 2 communication */
	size_t nstr;
	uint32_t *rank_of;     /* per device: rank index + 1, 0 none */
	struct pt_bdstream **bd; /* per rank */
	uint32_t **dtrk;       /* per device: its tracks with device tasks */
	size_t *ndtrk;
	/* Ascend devices beside CPU or GPU ones (mixed_read) */
	bool mixed_ok; /* the caller takes the GPU ranks' figures or no figures, and the file can be read again */
	bool mixed;    /* such a model: with figures the first read goes on over every event, else it stops */
	bool figs;     /* the Ascend figures are asked for (the second read's lags: the scan's) */
};

static int scan_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct sst *s = arg;
	if (!s->mixed && !pt_ascan_streamable(m)) { /* read again: what came before the first batch is small */
		if (!s->mixed_ok || !pt_ascan_mixed(m))
			return PT_ASCAN_AGAIN;
		s->mixed = true; /* Ascend and GPU data: mixed_read */
		if (!s->figs) /* the windows alone: the GPU reads scan every device */
			return PT_ASCAN_AGAIN;
	}
	s->nbatch++;
	pt_ascan_batch(&s->a, m);
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; s->has_re && i < ev->n; i++)
		if (ev->kind[i] == PT_EV_RANGE)
			pt_sel_found_range(&s->rf, &s->re, pt_model_strget(m, ev->name[i]));
	return 0;
}

static int sum_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct sst *s = arg;
	(void)e;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!pt_ascan_is_dev_task(k))
			continue;
		uint32_t tr = ev->track[i];
		int64_t st = ev->start[i];
		pt_ascan_next_add(&s->t[tr], st);
		uint32_t r = s->rank_of[m->tracks.v[tr].device];
		if (!r)
			continue;
		struct pt_bdstream *b = s->bd[r - 1];
		pt_bdstream_mark(b, k == PT_EV_AICPU, st);
		int cls = 1;
		if (k == PT_EV_TASK) {
			cls = pt_index_task_class(s->op_comm, ev->op[i], s->a.trk[tr].named);
		} else if (k == PT_EV_KERNEL) {
			uint8_t *kn = &s->kname[ev->name[i] < s->nstr ? ev->name[i] : 0];
			if (!*kn)
				*kn = pt_index_comm_kernel_name(pt_model_strget(m, ev->name[i])) ? 2 : 1;
			cls = *kn;
		}
		pt_bdstream_add(b, cls, st, st + ev->dur[i]);
	}
	for (uint32_t d = 0; d < s->a.ndev; d++)
		if (s->rank_of[d])
			pt_bdstream_release(s->bd[s->rank_of[d] - 1],
					    pt_ascan_watermark(&s->a, s->t, s->dtrk[d], s->ndtrk[d]));
	return 0;
}

static void sst_free(struct sst *s, size_t nranks)
{
	free(s->t);
	if (s->has_re)
		regfree(&s->re);
	free(s->op_comm);
	free(s->kname);
	free(s->rank_of);
	for (size_t r = 0; s->bd && r < nranks; r++)
		pt_bdstream_free(s->bd[r]);
	free(s->bd);
	for (size_t d = 0; s->dtrk && d < s->a.ndev; d++)
		free(s->dtrk[d]);
	free(s->dtrk);
	pt_ascan_free(&s->a); /* after the arrays sized by it */
	free(s->ndtrk);
}

/* The second read: the device figures of si's Ascend ranks. */
static int sum_figs(const struct pt_ptm_source *src, struct pt_model *m, struct sst *s, const struct pt_steps_info *si,
		    struct pt_steps_figs *f, struct pt_err **e)
{
	size_t nd = m->devices.n;
	s->op_comm = pt_index_op_comm(m);
	s->nstr = m->strings.n;
	s->kname = pt_xcalloc(s->nstr ? s->nstr : 1, 1);
	s->rank_of = pt_xcalloc(nd ? nd : 1, sizeof(*s->rank_of));
	s->bd = pt_xcalloc(si->n ? si->n : 1, sizeof(*s->bd));
	s->dtrk = pt_xcalloc(nd ? nd : 1, sizeof(*s->dtrk));
	s->ndtrk = pt_xcalloc(nd ? nd : 1, sizeof(*s->ndtrk));
	s->t = pt_ascan_next_new(&s->a);
	for (size_t t = 0; t < s->a.ntrk; t++) {
		if (!s->t[t].left)
			continue;
		uint32_t d = m->tracks.v[t].device;
		s->dtrk[d] = pt_xrealloc(s->dtrk[d], (s->ndtrk[d] + 1) * sizeof(**s->dtrk));
		s->dtrk[d][s->ndtrk[d]++] = (uint32_t)t;
	}
	struct pt_ivset *outs = pt_xcalloc(si->n ? si->n : 1, sizeof(*outs));
	for (size_t ri = 0; ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (!r->ascend)
			continue;
		/* the step windows, then the intervals of the outside set */
		if (!si->filtered)
			pt_steps_outside_set(r, &outs[ri]);
		size_t nw = r->n + outs[ri].n;
		struct pt_ival *w = pt_xcalloc(nw ? nw : 1, sizeof(*w));
		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].has_win)
				w[i] = (struct pt_ival){ r->v[i].s, r->v[i].e };
		if (outs[ri].n)
			memcpy(w + r->n, outs[ri].v, outs[ri].n * sizeof(*w));
		s->bd[ri] = pt_bdstream_new(w, nw, 2);
		free(w);
		uint32_t dev = r->devs[0];
		s->rank_of[dev] = (uint32_t)ri + 1;
		struct pt_ival *k = NULL;
		size_t nk = pt_index_comm_spans(m, dev, &k);
		for (size_t i = 0; i < nk; i++)
			pt_bdstream_add(s->bd[ri], 2, k[i].s, k[i].e);
		free(k);
	}
	struct pt_ptm_sink again = { sum_batch, s, true, true };
	int rc = pt_ptm_source_read(src, m, &again, e);
	if (rc > 0) /* the first read would have stopped there */
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	for (size_t ri = 0; !rc && ri < si->n; ri++) {
		const struct pt_rank_steps *r = &si->r[ri];
		if (!r->ascend)
			continue;
		struct pt_bdstream *b = s->bd[ri];
		struct pt_steps_figs *x = &f[ri];
		pt_bdstream_finish(b);
		size_t n1 = r->n ? r->n : 1;
		x->ce = pt_xcalloc(n1, sizeof(*x->ce));
		x->ca = pt_xcalloc(n1, sizeof(*x->ca));
		x->b = pt_xcalloc(n1, sizeof(*x->b));
		for (size_t i = 0; i < r->n; i++) {
			const struct pt_stepwin *w = &r->v[i];
			x->ce[i] = (size_t)pt_bdstream_count(b, i, 0);
			x->ca[i] = (size_t)pt_bdstream_count(b, i, 1);
			if (w->kept && pt_steps_dev_figs(r, w)) {
				struct pt_bdsums m4;
				pt_bdstream_window(b, i, &m4);
				pt_bdsums_breakdown(&m4, &x->b[i]);
			}
		}
		x->nex = (size_t)pt_bdstream_marks(b, 0);
		x->nai = (size_t)pt_bdstream_marks(b, 1);
		if (!si->filtered) {
			struct pt_bdsums sum = { 0, 0, 0, 0 };
			for (size_t j = 0; j < outs[ri].n; j++) {
				struct pt_bdsums one;
				pt_bdstream_window(b, r->n + j, &one);
				sum.comp += one.comp;
				sum.comm += one.comm;
				sum.either += one.either;
				sum.total += one.total;
			}
			pt_bdsums_breakdown(&sum, &x->out);
			x->out_total = sum.total;
		}
	}
	for (size_t ri = 0; ri < si->n; ri++)
		pt_ivset_free(&outs[ri]);
	free(outs);
	return rc;
}

/* A model of Ascend and GPU data, its first read done (with figs: every event scanned, m without
 * them; else stopped at the first batch): the GPU ranks' reads (pt_steps_gstream_mixed) give every
 * rank's steps and coverage, as the whole load's collection makes them, and the GPU ranks' figures;
 * the Ascend ranks take their figures from one more read (sum_figs), each kind as it streams alone. */
static int mixed_read(const struct pt_ptm_source *src, struct pt_model *m, struct sst *s, const struct pt_sel *sel,
		      struct pt_model **mout, struct pt_steps_info *si, struct pt_steps_figs **figs,
		      struct pt_gpu_figs ***gfigs, struct pt_model **whole, struct pt_diag *d, struct pt_err **e)
{
	pt_ascan_fit(&s->a, m);
	bool ok = pt_ascan_mixed(m); /* (without figs, as far as the first batch tells: the GPU reads check on) */
	pt_model_free(m);
	struct pt_model *g = NULL;
	int rc = ok ? pt_steps_gstream_mixed(src, sel, &g, si, gfigs, whole, d, e) : pt_ptm_read(src->path, whole, e);
	if (rc || *whole) {
		sst_free(s, 0);
		return rc ? -1 : 0;
	}
	if (figs) {
		*figs = pt_xcalloc(si->n ? si->n : 1, sizeof(**figs));
		rc = sum_figs(src, g, s, si, *figs, e);
	}
	sst_free(s, si->n);
	if (rc) { /* (figs: the read of the Ascend figures) */
		for (size_t i = 0; i < si->n; i++)
			pt_steps_figs_free(&(*figs)[i]);
		free(*figs);
		*figs = NULL;
		pt_steps_gfigs_free(si, *gfigs);
		*gfigs = NULL;
		pt_steps_info_free(si);
		pt_model_free(g);
		return -1;
	}
	*mout = g;
	return 0;
}

int pt_steps_stream_read(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_model **mout,
			 struct pt_steps_info *si, struct pt_steps_figs **figs, struct pt_gpu_figs ***gfigs,
			 struct pt_model **whole, struct pt_diag *d, struct pt_err **e)
{
	*mout = NULL;
	*whole = NULL;
	if (figs)
		*figs = NULL;
	if (gfigs)
		*gfigs = NULL;
	memset(si, 0, sizeof(*si));
	struct sst s;
	memset(&s, 0, sizeof(s));
	s.sel = sel;
	pt_ascan_init(&s.a, PT_ASCAN_DEV | PT_ASCAN_LAG);
	/* (steps: both kinds' figures; flops: the GPU ranks', their coverage; perf and memory: the windows alone) */
	s.mixed_ok = (gfigs || !figs) && !pt_ptm_source_once(src);
	s.figs = figs;
	pt_sel_found_init(&s.rf, sel);
	char msg[128];
	s.has_re = sel->step_pattern && !pt_sel_step_re(sel, &s.re, msg, sizeof(msg));
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink first = { scan_batch, &s, false, true };
	/* without the caller's tape: this read stops at a GPU model's first batch, which would end the
	 * tape before the GPU steps' own first read could keep it (model/ptm.h) */
	const struct pt_ptm_source *first_src = &(const struct pt_ptm_source){ .path = src->path, .tap = src->tap };
	int rc = pt_ptm_source_read(first_src, m, &first, e);
	if (s.mixed && rc >= 0)
		return mixed_read(src, m, &s, sel, mout, si, figs, gfigs, whole, d, e);
	rc = pt_ascan_first_rc(rc, m, s.nbatch, src, e);
	if (rc == PT_PTM_WHOLE) { /* no event: m is the whole model */
		*whole = m;
		sst_free(&s, 0);
		return 0;
	}
	if (rc == PT_ASCAN_AGAIN) { /* a GPU model streams its own way (pass-steps-gstream.c), or is read whole */
		pt_model_free(m);
		sst_free(&s, 0);
		if (!figs || gfigs)
			return pt_steps_gstream_read(src, sel, mout, si, gfigs, whole, d, e);
		return pt_ptm_read(src->path, whole, e);
	}
	if (rc)
		goto fail;
	pt_ascan_fit(&s.a, m);
	s.rf.step_records = m->steps.n > 0;
	int64_t span[2] = { s.a.ev_s, s.a.ev_e };
	/* the selection's notes come before the pass's, as after a load */
	struct pt_steps_info chk;
	struct pt_err *ce = NULL;
	if (!pt_steps_collect_scan(m, sel, s.a.dev, &chk, NULL, &ce)) {
		pt_sel_check_scanned(m, sel, &s.rf, s.a.has_ev ? span : NULL, &chk, d);
		pt_steps_info_free(&chk);
	} else {
		pt_err_free(ce);
		pt_sel_check_scanned(m, sel, &s.rf, s.a.has_ev ? span : NULL, NULL, d);
	}
	if (pt_steps_collect_scan(m, sel, s.a.dev, si, d, e)) {
		rc = -1;
		goto fail;
	}
	if (figs) {
		*figs = pt_xcalloc(si->n ? si->n : 1, sizeof(**figs));
		rc = sum_figs(src, m, &s, si, *figs, e);
		if (rc) {
			for (size_t i = 0; i < si->n; i++)
				pt_steps_figs_free(&(*figs)[i]);
			free(*figs);
			*figs = NULL;
			sst_free(&s, si->n);
			pt_steps_info_free(si);
			pt_model_free(m);
			return -1;
		}
	}
	sst_free(&s, si->n);
	*mout = m;
	return 0;
fail:
	sst_free(&s, si->n);
	pt_model_free(m);
	return -1;
}

int pt_pass_steps_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, struct pt_table **out,
			 size_t *nout, struct pt_model **whole, struct pt_diag *d, struct pt_err **e)
{
	*nout = 0;
	struct pt_model *m = NULL;
	struct pt_steps_info si;
	struct pt_steps_figs *f = NULL;
	struct pt_gpu_figs **g = NULL;
	if (pt_steps_stream_read(src, sel, &m, &si, &f, &g, whole, d, e))
		return -1;
	if (*whole)
		return 0;
	pt_steps_coverage_note(&si, "the avg row's device figures are over those", d);
	bool asc = false, gpu = false;
	for (size_t i = 0; i < si.n; i++) {
		asc |= si.r[i].ascend;
		gpu |= !si.r[i].ascend;
	}
	if (asc)
		out[(*nout)++] = pt_steps_ascend_table(m, &si, f);
	if (gpu)
		out[(*nout)++] = pt_steps_gpu_table(m, &si, g);
	for (size_t i = 0; i < *nout; i++)
		if (!out[i]->nrows) {
			char why[160];
			pt_table_set_empty(out[i], pt_sel_empty_reason(sel, "steps", why, sizeof(why)));
		}
	for (size_t i = 0; f && i < si.n; i++)
		pt_steps_figs_free(&f[i]);
	free(f);
	pt_steps_gfigs_free(&si, g);
	pt_steps_info_free(&si);
	pt_model_free(m);
	if (!*nout)
		return pt_err_nodata(e, "step", sel->device, "a step trace or device activity (kernels, tasks)");
	return 0;
}
