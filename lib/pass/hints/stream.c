/*
 * `hints` over a .ptm file without holding its events (pass-hints.h,
 * pt_pass_hints_stream): two reads, then the rules of driver.c over what they
 * kept.
 *
 * First read: every chunk but the events is applied to the model; each event
 * batch is scanned by the Ascend first read that steps, perf and flops share
 * (ascend-scan.h: per device its span and device data, the events' first
 * start and last end, per track the lag of its device tasks and whether it
 * runs a task of a framework op), plus what only hints reads: the
 * --step-pattern ranges, the get_next records, the devices that may run a
 * receive op. The step windows follow (pt_steps_collect_scan), as the
 * in-memory pass derives them.
 *
 * Second read: each device task of a covered device is classed as the index
 * classes it (ascend.md §3.8) and goes to the device's streamed breakdown
 * (breakdown-stream.h, the windows of the rank) and to a pending heap; the
 * member activities (those that start in W) are counted and summed where
 * they pass (TOP_OPS per op name and type, TRUNCATED_LAST_STEP, the FLOPs of
 * K). After each batch, what no later task of the device can start before
 * (per track: its latest start less its lag, or its first start while none
 * came) leaves the heap in start order and is swept into the unions the
 * rules measure: C ∪ M (the first busy point of each window, and the idle
 * gaps W − (C ∪ M) of DEVICE_IDLE, classed one by one), M (COMM_EXPOSED),
 * kernels ∪ tasks (LOW_DEVICE_UTIL), K and K per op type (LOW_FLOPS_UTIL).
 * On a device that runs tasks named as a receive, a second streamed
 * breakdown takes C and the receive ops Rv (PP_RECEIVE, the bubble and the
 * exposed communication without receives: Rv ⊆ M, so their measures follow
 * from the unions' measures).
 * A union keeps only its open interval. So the state is per device, per
 * window, per track and per op name, and the tasks waiting within the lag.
 * The MindData get_next records, which the queue verdicts pair with the
 * queue's samples, are kept (a few per step) and become the model's events
 * for the MindData rules.
 *
 * Step windows may overlap or come out of start order (a step trace whose
 * end point goes back in time): the breakdown and the rules' windows are
 * measured per window as in-memory, the unions over W (their union), and the
 * first busy point of each window is found with the windows taken by start.
 *
 * Only pure Ascend models stream here, and only when nothing the in-memory
 * pass reads from the events remains: a model with memory copies or sets
 * (MEM_OPS_CRITICAL) is read again whole (pt_ptm_read) and goes to the
 * in-memory pass. (Its ranks are its NPU devices, one each, so no device
 * is in two ranks; ranks_fit checks it all the same.) A model with
 * a CPU or GPU device, host ranges or launch links goes to the GPU stream
 * (gstream.c), which streams a GPU model of one process or of several (a
 * launch join each) and reads any other whole.
 *
 * A model of Ascend and GPU data (Ascend devices beside CPU and GPU ones, a
 * file that can be read again): the first read scans every event as above
 * (memory copies or sets of an Ascend device: read whole), then the GPU
 * stream runs (hx_gstream with hx_beside): its steps' reads give every
 * rank's steps, the Ascend ranks' as the in-memory collection makes them,
 * and its reads measure the GPU ranks; then the second read above
 * (sum_read, into the GPU stream's model) measures the Ascend ranks, and
 * the rules run over both kinds' figures, each device as it streams alone.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <inttypes.h>
#include <regex.h>
#include <string.h>

#include "model/ascend-memory.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-picked.h"
#include "model/ptm-source.h"
#include "pass/ascend-scan.h"
#include "pass/breakdown-stream.h"
#include "pass/pass-steps.h"
#include "pass/select.h"
#include "support/err.h"
#include "support/xalloc.h"

/* ---- unions swept in start order (hx_openu), the heap of intervals waiting (hx_heap) ------ */

static bool item_before(const struct hx_item *a, const struct hx_item *b)
{
	return a->s < b->s || (a->s == b->s && a->g < b->g);
}

void hx_heap_push(struct hx_heap *h, const struct hx_item *it)
{
	pt_xgrow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v));
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!item_before(it, &h->v[p]))
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = *it;
}

struct hx_item hx_heap_pop(struct hx_heap *h)
{
	struct hx_item top = h->v[0], last = h->v[--h->n];
	size_t i = 0, n = h->n;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		if (l + 1 < n && item_before(&h->v[l + 1], &h->v[l]))
			l++;
		if (!item_before(&h->v[l], &last))
			break;
		h->v[i] = h->v[l];
		i = l;
	}
	if (n)
		h->v[i] = last;
	return top;
}

/* ---- per device ------------------------------------------------------------------------ */

enum { F_C = 1, F_M = 2, F_KT = 4, F_K = 8 };

struct ktype {
	uint32_t type;
	struct hx_openu u;
	int64_t busy;
	long double f;
};

struct sdv {
	struct hx_sdev *out;
	const struct rankdata *rd;
	struct pt_bdstream *bd;
	struct pt_bdstream *rv; /* C and Rv, the receive ops among M (hints.md §2.4), when the device may have any */
	bool has_rv;
	struct hx_heap h; /* by start */
	struct hx_openu cm, mu, ku, kk;
	size_t wi;      /* idle gaps: the window of W, and the time up to which it is measured */
	int64_t pos;
	size_t pw;      /* the first window (in ord) whose first busy point is unknown */
	const uint32_t *ord; /* the windows of rd by start (windows apart: NULL, their own order) */
	struct ktype *kt;
	size_t nkt, ckt;
	struct pt_hashmap kt_at; /* type string id -> index in kt */
	uint32_t *trk;  /* its tracks with device tasks */
	size_t ntrk, ctrk;
};

/* An idle gap [ga, gb) of W − (C ∪ M): DEVICE_IDLE's classes without launch calls (idle_gap, rules-device.c). */
static void idle_gap(struct sdv *d, int64_t kw, int64_t ga, int64_t gb)
{
	struct hx_idle *f = &d->out->idle;
	f->il += gb - ga;
	if (gb - ga > f->longest)
		f->longest = gb - ga;
	int cl = gb - ga < kw ? 1 : 2;
	f->cls[cl] += gb - ga;
	f->cnt[cl]++;
}

/* A closed interval [a, b) of C ∪ M, in order: the first busy point of the windows it meets (prep), the
 * idle gaps of W before it. */
static void cm_closed(struct sdv *d, int64_t kw, int64_t a, int64_t b)
{
	const struct rankdata *rd = d->rd;
	while (d->pw < rd->nwin) { /* by start: a window that ends before a, after one that did not, has none */
		size_t w = d->ord ? d->ord[d->pw] : d->pw;
		int64_t ws = rd->win[w].s, we = rd->win[w].e;
		if (we <= a) {
			d->out->a.prep += we - ws; /* no busy point in it */
			d->pw++;
		} else if (ws < b) {
			d->out->a.prep += (a > ws ? a : ws) - ws;
			d->pw++;
		} else {
			break;
		}
	}
	const struct pt_ivset *W = &rd->W;
	while (d->wi < W->n) {
		int64_t ws = W->v[d->wi].s, we = W->v[d->wi].e;
		if (b <= ws)
			return;
		if (a >= we) { /* the window ends before it */
			if (d->pos < we)
				idle_gap(d, kw, d->pos, we);
			if (++d->wi < W->n)
				d->pos = W->v[d->wi].s;
			continue;
		}
		if (a > d->pos)
			idle_gap(d, kw, d->pos, a);
		if (b > d->pos)
			d->pos = b;
		if (b < we)
			return;
		if (++d->wi < W->n) /* it reaches the next window */
			d->pos = W->v[d->wi].s;
	}
}

static void sweep(struct sdv *d, int64_t kw, const struct hx_item *it)
{
	const struct pt_ivset *W = &d->rd->W;
	int64_t a, b;
	if ((it->fl & (F_C | F_M)) && hx_u_add(&d->cm, it->s, it->e, &a, &b))
		cm_closed(d, kw, a, b);
	if ((it->fl & F_M) && hx_u_add(&d->mu, it->s, it->e, &a, &b))
		d->out->mw += pt_ivset_measure_in(W, a, b);
	if ((it->fl & F_KT) && hx_u_add(&d->ku, it->s, it->e, &a, &b))
		d->out->ku_busy += pt_ivset_measure_in(W, a, b);
	if (it->fl & F_K) {
		if (hx_u_add(&d->kk, it->s, it->e, &a, &b))
			d->out->B += pt_ivset_measure_in(W, a, b);
		struct ktype *t = &d->kt[it->type];
		if (hx_u_add(&t->u, it->s, it->e, &a, &b))
			t->busy += pt_ivset_measure_in(W, a, b);
	}
}

static void release(struct sdv *d, int64_t kw, int64_t below)
{
	pt_bdstream_release(d->bd, below);
	if (d->rv)
		pt_bdstream_release(d->rv, below);
	while (d->h.n && d->h.v[0].s < below) {
		struct hx_item it = hx_heap_pop(&d->h);
		sweep(d, kw, &it);
	}
}

/* The measures of windows (m4: bd's, r4: rv's when has_rv) added to x's breakdown (they add up). */
static void bd_add(struct devacc *x, const struct pt_bdsums *m4, const struct pt_bdsums *r4, bool has_rv)
{
	struct pt_breakdown b;
	pt_bdsums_breakdown(m4, &b);
	x->comp += b.computation;
	x->comm += b.communication;
	x->ovl += b.overlapped;
	x->cno += b.comm_not_overlapped;
	x->free += b.free;
	if (has_rv) { /* Rv ⊆ M: |(M − Rv) − C| = |C ∪ M| − |C ∪ Rv|, |Rv − C| = |C ∪ Rv| − |C| */
		x->bub += r4->comm;
		x->cnox += m4->either - r4->either;
		x->rva += r4->either - r4->comp;
	} else {
		x->cnox += b.comm_not_overlapped;
	}
	x->other_t += b.free;
}

/* The windows' steps and time (no Dataloader ranges: the worst step is the first). */
static void bd_steps(const struct rankdata *rd, struct devacc *x)
{
	for (size_t w = 0; w < rd->nwin; w++) {
		int64_t s = rd->win[w].s, e = rd->win[w].e;
		x->step += e - s;
		double dp = hx_pct(0, e - s); /* no Dataloader ranges */
		if (!x->has_worst || dp > x->worst_dl_pct) {
			x->has_worst = true;
			x->worst_dl_pct = dp;
			x->worst_dl_step = rd->winnum[w];
		}
		x->nsteps++;
	}
}

void hx_bd_sum(const struct rankdata *rd, const struct pt_bdstream *bd, const struct pt_bdstream *rv, bool has_rv,
	       struct devacc *x)
{
	for (size_t w = 0; w < rd->nwin; w++) {
		struct pt_bdsums m4, r4 = { 0 };
		pt_bdstream_window(bd, w, &m4);
		if (has_rv)
			pt_bdstream_window(rv, w, &r4);
		bd_add(x, &m4, &r4, has_rv);
	}
	bd_steps(rd, x);
}

void hx_bd_sums(const struct rankdata *rd, const struct pt_bdsums *m4, const struct pt_bdsums *r4, bool has_rv,
		struct devacc *x)
{
	bd_add(x, m4, r4, has_rv);
	bd_steps(rd, x);
}

/* Every interval came: sweep the rest, close the unions, the windows and the idle gaps. */
static void finish(struct sdv *d, int64_t kw)
{
	release(d, kw, INT64_MAX);
	while (d->h.n) { /* starts at INT64_MAX */
		struct hx_item it = hx_heap_pop(&d->h);
		sweep(d, kw, &it);
	}
	pt_bdstream_finish(d->bd);
	if (d->rv)
		pt_bdstream_finish(d->rv);
	const struct pt_ivset *W = &d->rd->W;
	int64_t a, b;
	if (hx_u_end(&d->cm, &a, &b))
		cm_closed(d, kw, a, b);
	if (hx_u_end(&d->mu, &a, &b))
		d->out->mw += pt_ivset_measure_in(W, a, b);
	if (hx_u_end(&d->ku, &a, &b))
		d->out->ku_busy += pt_ivset_measure_in(W, a, b);
	if (hx_u_end(&d->kk, &a, &b))
		d->out->B += pt_ivset_measure_in(W, a, b);
	for (size_t i = 0; i < d->nkt; i++)
		if (hx_u_end(&d->kt[i].u, &a, &b))
			d->kt[i].busy += pt_ivset_measure_in(W, a, b);
	const struct rankdata *rd = d->rd;
	for (; d->pw < rd->nwin; d->pw++) {
		size_t w = d->ord ? d->ord[d->pw] : d->pw;
		d->out->a.prep += rd->win[w].e - rd->win[w].s;
	}
	for (; d->wi < W->n;) {
		if (d->pos < W->v[d->wi].e)
			idle_gap(d, kw, d->pos, W->v[d->wi].e);
		if (++d->wi < W->n)
			d->pos = W->v[d->wi].s;
	}
	/* the breakdown over the windows, as device_measure() sums it (no host: no runtime, loader or CPU time) */
	hx_bd_sum(rd, d->bd, d->rv, d->has_rv, &d->out->a);
	d->out->tv = pt_xmalloc((d->nkt ? d->nkt : 1) * sizeof(*d->out->tv));
	for (size_t i = 0; i < d->nkt; i++)
		d->out->tv[i] = (struct hx_tfig){ d->kt[i].type, d->kt[i].busy, d->kt[i].f };
	d->out->ntv = d->nkt;
	d->out->has_rv = d->has_rv;
}

static void sdv_free(struct sdv *d)
{
	pt_bdstream_free(d->bd);
	pt_bdstream_free(d->rv);
	free(d->h.v);
	free(d->kt);
	pt_hashmap_free(&d->kt_at);
	free(d->trk);
}

int hx_stream_end(struct ctx *c, struct pt_steps_info *si, size_t nd, int rc, struct pt_diag *d, struct pt_err **e)
{
	if (!rc) {
		pt_steps_coverage_note(si, "ratios are over those", d);
		rc = hx_drive(c, si, e);
	} else {
		free(c->fig);
		free(c->rk);
		pt_steps_info_free(si);
	}
	for (size_t dev = 0; dev < nd; dev++)
		hx_sdev_free(&c->sdev[dev]);
	free(c->sdev);
	c->sdev = NULL;
	return rc;
}

void hx_sdev_free(struct hx_sdev *sd)
{
	hx_nl_free(&sd->ops);
	hx_nl_free(&sd->types);
	free(sd->tv);
	free(sd->mops);
	hx_mfold_free(&sd->mf);
	hx_nl_free(&sd->apis);
	free(sd->l.qd);
	free(sd->l.ld);
	free(sd->l.cpu);
	hx_nl_free(&sd->l.qk);
	hx_nl_free(&sd->l.sk);
	hx_nl_free(&sd->l.ra);
}

/* ---- the reads ------------------------------------------------------------------------- */

struct hst {
	/* first read */
	size_t nbatch;
	bool mixed_ok; /* the file can be read again: a model of Ascend and GPU data streams (hx_beside) */
	bool mixed;    /* such a model: the first read scans every event */
	struct pt_ascan a; /* per device its scan, per track its lag and whether it runs framework tasks */
	uint8_t *dev_recv; /* per device: a task named as a receive */
	size_t ndev;
	bool has_re;
	regex_t re;
	struct pt_sel_found rf;
	uint8_t *recv; /* per string: 0 not seen, 1 no, 2 a receive name */
	size_t nrecv;
	struct pt_events gn; /* the get_next records (dataset-figures.c pairs the queue's samples with them) */
	/* second read */
	struct ctx *c;
	struct pt_ascan_next *t; /* per track of a.trk */
	uint8_t *op_comm;
	uint8_t *kname; /* per string: 0 not seen, 1 computation, 2 communication */
	size_t nstr;
	struct sdv **of; /* per device: its figures' state, NULL not covered */
	int64_t kw;      /* hints.idle.kernel_wait_gap_ns */
	/* MEMORY_NEAR_CAPACITY's time of the peak: per device its peak node (an index into anode, -1 none),
	 * per string the node its last segment is (0 not seen, 1 none, 2 + index) */
	const char **anode;
	size_t nanode;
	int32_t *adev;
	uint32_t *amatch;
	struct hx_amem *amem; /* per device */
};

/* The peak node of every device with memory graphs (rules-rank.c takes the same), before the second read. */
static void amem_begin(struct hst *s, const struct pt_model *m)
{
	size_t nd = m->devices.n;
	s->adev = pt_xmalloc((nd ? nd : 1) * sizeof(*s->adev));
	s->amem = pt_xcalloc(nd ? nd : 1, sizeof(*s->amem));
	s->anode = pt_xcalloc(nd ? nd : 1, sizeof(*s->anode));
	for (uint32_t dev = 0; dev < nd; dev++) {
		struct pt_amem_peak pk;
		uint32_t g;
		uint64_t cap;
		s->adev[dev] = -1;
		if (!pt_amem_device_peak(m, dev, &pk, &g, &cap) || pk.node == UINT32_MAX)
			continue;
		const char *node = pt_model_strget(m, m->mem_nodes.v[pk.node].name);
		size_t j = 0;
		while (j < s->nanode && strcmp(s->anode[j], node))
			j++;
		if (j == s->nanode)
			s->anode[s->nanode++] = node;
		s->adev[dev] = (int32_t)j;
	}
	if (s->nanode)
		s->amatch = pt_xcalloc(s->nstr ? s->nstr : 1, sizeof(*s->amatch));
}

/* An execution i (a task or an AI CPU op) of the second read: the earliest of its device's peak node. */
static void amem_add(struct hst *s, const struct pt_model *m, size_t i, uint32_t dev)
{
	const struct pt_events *ev = &m->events;
	uint32_t nm = ev->name[i];
	if (!s->amatch || dev >= m->devices.n || s->adev[dev] < 0 || !nm)
		return;
	uint32_t mt = 0;
	if (nm < s->nstr)
		mt = s->amatch[nm];
	if (!mt) {
		const char *name = pt_model_strget(m, nm);
		mt = 1;
		for (size_t j = 0; j < s->nanode && mt == 1; j++)
			if (pt_amem_node_is(name, s->anode[j]))
				mt = (uint32_t)j + 2;
		if (nm < s->nstr)
			s->amatch[nm] = mt;
	}
	struct hx_amem *a = &s->amem[dev];
	if (mt == (uint32_t)s->adev[dev] + 2 && (!a->found || ev->start[i] < a->t)) {
		a->t = ev->start[i];
		a->found = true;
	}
}

static void fit(struct hst *s, const struct pt_model *m)
{
	pt_ascan_fit(&s->a, m);
	if (m->devices.n > s->ndev) {
		s->dev_recv = pt_xrealloc(s->dev_recv, m->devices.n);
		memset(s->dev_recv + s->ndev, 0, m->devices.n - s->ndev);
		s->ndev = m->devices.n;
	}
	if (m->strings.n > s->nrecv) {
		s->recv = pt_xrealloc(s->recv, m->strings.n);
		memset(s->recv + s->nrecv, 0, m->strings.n - s->nrecv);
		s->nrecv = m->strings.n;
	}
}

static int scan_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct hst *s = arg;
	if (!s->mixed && !pt_ascan_streamable(m)) {
		if (!s->mixed_ok || !pt_ascan_mixed(m))
			return PT_ASCAN_AGAIN;
		s->mixed = true; /* Ascend devices beside GPU data: the GPU stream, then this one's (hx_beside) */
	}
	s->nbatch++;
	fit(s, m);
	/* what hints reads beyond the shared scan: memory operations (read whole), get_next records, the
	 * devices that may run a receive op, the --step-pattern ranges */
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if ((k == PT_EV_MEMCPY || k == PT_EV_MEMSET) &&
		    (!s->mixed || m->devices.v[m->tracks.v[ev->track[i]].device].kind == PT_DEV_NPU))
			return PT_ASCAN_AGAIN; /* (an Ascend device's: GPU ones are the GPU stream's) */
		if (k == PT_EV_GETNEXT) /* MindData's get_next records: kept, in file order */
			pt_ptm_pick_add(&s->gn, ev, i);
		if (pt_ascan_is_dev_task(k)) {
			uint32_t nm = ev->name[i];
			uint8_t *r = &s->recv[nm < s->nrecv ? nm : 0];
			if (!*r)
				*r = hx_recv_name(pt_model_strget(m, nm)) ? 2 : 1;
			if (*r == 2) /* a receive op may run there (PP_RECEIVE's Rv) */
				s->dev_recv[m->tracks.v[ev->track[i]].device] = 1;
		}
		if (k == PT_EV_RANGE && s->has_re && !s->mixed) /* (mixed: the GPU steps' reads find them) */
			pt_sel_found_range(&s->rf, &s->re, pt_model_strget(m, ev->name[i]));
	}
	pt_ascan_batch(&s->a, m);
	return 0;
}

static int sum_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct hst *s = arg;
	struct ctx *c = s->c;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!pt_ascan_is_dev_task(k))
			continue;
		uint32_t tr = ev->track[i];
		int64_t st = ev->start[i], en = st + ev->dur[i];
		pt_ascan_next_add(&s->t[tr], st);
		if (k == PT_EV_TASK || k == PT_EV_AICPU)
			amem_add(s, m, i, m->tracks.v[tr].device);
		struct sdv *d = s->of[m->tracks.v[tr].device];
		if (!d)
			continue;
		uint32_t op = ev->op[i];
		int cls = 1;
		if (k == PT_EV_TASK) {
			cls = pt_index_task_class(s->op_comm, op, s->a.trk[tr].named);
		} else if (k == PT_EV_KERNEL) {
			uint8_t *kn = &s->kname[ev->name[i] < s->nstr ? ev->name[i] : 0];
			if (!*kn)
				*kn = hx_comm_kernel_name(s->c->o, pt_model_strget(m, ev->name[i])) ? 2 : 1;
			cls = *kn;
		}
		pt_bdstream_add(d->bd, cls, st, en);
		if (d->rv) {
			uint32_t nm = ev->name[i];
			bool rcv = cls == 2 && s->recv[nm < s->nrecv ? nm : 0] == 2;
			if (cls == 1 || rcv)
				pt_bdstream_add(d->rv, cls, st, en);
			d->has_rv |= rcv && en > st;
		}
		struct hx_item it = { st, en, 0, 0, (uint8_t)((cls == 2 ? F_M : F_C) | (k != PT_EV_AICPU ? F_KT : 0)) };
		const struct rankdata *rd = d->rd;
		struct hx_sdev *o = d->out;
		if (pt_ivset_contains(&rd->W, st)) { /* a member activity */
			o->nacts++;
			for (int q = 0; q < 2 && rd->nwin >= 2; q++)
				if (st >= rd->win[rd->nwin - 2 + q].s && st < rd->win[rd->nwin - 2 + q].e)
					o->last2[q]++;
			uint32_t name = 0, type = 0;
			if (k == PT_EV_TASK && op) {
				const struct pt_op *p = &m->ops.v[op - 1];
				name = p->name;
				type = p->type ? p->type : p->name;
			} else if (k == PT_EV_KERNEL) {
				name = type = ev->name[i];
			}
			if (name) { /* TOP_OPS */
				struct named *a = hx_nl_get(&o->ops, name), *b = hx_nl_get(&o->types, type);
				a->a += ev->dur[i], a->b++;
				b->a += ev->dur[i], b->b++;
				o->T += ev->dur[i];
			}
			if (k == PT_EV_TASK && op && cls != 2 && c->fig[op - 1].known) { /* K of LOW_FLOPS_UTIL */
				bool added;
				uint64_t *ix = pt_hashmap_put(&d->kt_at, type, d->nkt, &added);
				if (added) {
					pt_xgrow((void **)&d->kt, &d->ckt, d->nkt + 1, sizeof(*d->kt));
					d->kt[d->nkt++] = (struct ktype){ type, { 0, 0, false }, 0, 0 };
				}
				uint64_t f = c->fig[op - 1].flops;
				d->kt[*ix].f += (long double)f;
				o->F += (long double)f;
				o->nk++;
				it.fl |= F_K;
				it.type = (uint32_t)*ix;
			}
		}
		hx_heap_push(&d->h, &it);
	}
	for (uint32_t dv = 0; dv < s->ndev && dv < m->devices.n; dv++)
		if (s->of[dv])
			release(s->of[dv], s->kw, pt_ascan_watermark(&s->a, s->t, s->of[dv]->trk, s->of[dv]->ntrk));
	return 0;
}

static void hst_free(struct hst *s)
{
	pt_events_free_columns(&s->gn);
	free(s->dev_recv);
	free(s->t);
	pt_ascan_free(&s->a);
	free(s->recv);
	if (s->has_re)
		regfree(&s->re);
	free(s->op_comm);
	free(s->kname);
	free(s->anode);
	free(s->adev);
	free(s->amatch);
	free(s->amem);
	free(s->of);
}

/* Can the ranks of si be measured from a stream (see the top)? */
static bool ranks_fit(const struct pt_model *m, const struct pt_steps_info *si)
{
	uint8_t *used = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1);
	bool ok = true;
	for (size_t i = 0; i < si->n && ok; i++) {
		ok = si->r[i].ascend;
		for (size_t j = 0; j < si->r[i].ndevs && ok; j++)
			ok = !used[si->r[i].devs[j]]++;
	}
	free(used);
	return ok;
}

/* Windows that overlap or come out of start order (step order is not time order when a step's points
 * are lost or wrong): their indexes by start, for the first busy point of each (cm_closed); NULL when
 * they are apart, in order. */
static uint32_t *win_order(const struct rankdata *rd)
{
	if (rd->win_apart)
		return NULL;
	struct pt_ival *v = pt_xmalloc(rd->nwin * sizeof(*v));
	for (size_t w = 0; w < rd->nwin; w++)
		v[w] = (struct pt_ival){ rd->win[w].s, (int64_t)w };
	pt_ival_sort(v, rd->nwin); /* stable */
	uint32_t *o = pt_xmalloc(rd->nwin * sizeof(*o));
	for (size_t w = 0; w < rd->nwin; w++)
		o[w] = (uint32_t)v[w].e;
	free(v);
	return o;
}

/* The second read (its first done into m, with s): the figures of every covered device of the Ascend
 * ranks of si into c->sdev (allocated here when NULL), the events read into m. */
static int sum_read(struct hst *s, const struct pt_ptm_source *src, struct pt_model *m, struct ctx *c,
		    const struct pt_steps_info *si, struct pt_err **e)
{
	const struct pt_hint_knobs *k = c->k;
	struct rankdata *rds = pt_xcalloc(si->n ? si->n : 1, sizeof(*rds));
	uint32_t **ord = pt_xcalloc(si->n ? si->n : 1, sizeof(*ord));
	for (size_t i = 0; i < si->n; i++) {
		if (!si->r[i].ascend) /* (beside GPU data: those are measured by gstream.c) */
			continue;
		hx_rd_init(c, &si->r[i], &rds[i]);
		ord[i] = win_order(&rds[i]);
	}
	size_t nd = m->devices.n;
	s->c = c;
	s->kw = k->idle_kernel_wait_gap_ns;
	s->op_comm = pt_index_op_comm(m);
	s->nstr = m->strings.n;
	s->kname = pt_xcalloc(s->nstr ? s->nstr : 1, 1);
	amem_begin(s, m);
	c->amem = s->amem;
	s->of = pt_xcalloc(nd ? nd : 1, sizeof(*s->of));
	if (!c->sdev)
		c->sdev = pt_xcalloc(nd ? nd : 1, sizeof(*c->sdev));
	struct sdv *dv = pt_xcalloc(nd ? nd : 1, sizeof(*dv));
	for (size_t i = 0; i < si->n; i++) {
		const struct rankdata *rd = &rds[i];
		if (!si->r[i].ascend || !rd->nwin)
			continue;
		for (size_t j = 0; j < si->r[i].ndevs; j++) {
			uint32_t dev = si->r[i].devs[j];
			struct sdv *x = &dv[dev];
			x->out = &c->sdev[dev];
			x->out->measured = true;
			x->rd = rd;
			x->ord = ord[i];
			x->bd = pt_bdstream_new(rd->win, rd->nwin, 0);
			if (s->dev_recv[dev])
				x->rv = pt_bdstream_new(rd->win, rd->nwin, 0);
			pt_hashmap_init(&x->kt_at);
			if (rd->W.n)
				x->pos = rd->W.v[0].s;
			struct pt_ival *sp = NULL;
			size_t nsp = pt_index_comm_spans(m, dev, &sp);
			for (size_t q = 0; q < nsp; q++) {
				pt_bdstream_add(x->bd, 2, sp[q].s, sp[q].e);
				struct hx_item it = { sp[q].s, sp[q].e, 0, 0, F_M };
				hx_heap_push(&x->h, &it);
			}
			free(sp);
			s->of[dev] = x;
		}
	}
	s->t = pt_ascan_next_new(&s->a);
	for (size_t t = 0; t < s->a.ntrk; t++) {
		struct sdv *y = s->of[m->tracks.v[t].device];
		if (!s->t[t].left || !y)
			continue;
		pt_xgrow((void **)&y->trk, &y->ctrk, y->ntrk + 1, sizeof(*y->trk));
		y->trk[y->ntrk++] = (uint32_t)t;
	}
	struct pt_ptm_sink again = { sum_batch, s, true, true };
	int rc = pt_ptm_source_read(src, m, &again, e);
	if (rc > 0) /* the first read would have stopped there */
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	for (size_t dev = 0; dev < nd; dev++) {
		if (!rc && s->of[dev])
			finish(&dv[dev], s->kw);
		sdv_free(&dv[dev]);
	}
	free(dv);
	for (size_t i = 0; i < si->n; i++) {
		hx_rd_free(&rds[i]);
		free(ord[i]);
	}
	free(rds);
	free(ord);
	return rc;
}

/* The events the MindData rules read (the get_next records the first read kept) become m's. */
static void take_gn(struct hst *s, struct pt_model *m)
{
	pt_events_free_columns(&m->events);
	m->events = s->gn;
	memset(&s->gn, 0, sizeof(s->gn));
}

/* hx_beside (arg: the first read's state): the Ascend ranks' figures, after the GPU ones (gstream.c),
 * the events read into the GPU stream's model (the file's tables, as the first read had them). */
static int beside_figs(void *arg, const struct pt_ptm_source *src, struct pt_model *m, struct ctx *c,
		       const struct pt_steps_info *si, struct pt_err **e)
{
	struct hst *s = arg;
	int rc = sum_read(s, src, m, c, si, e);
	if (!rc)
		take_gn(s, m);
	return rc;
}

int pt_pass_hints_stream(const struct pt_ptm_source *src, const struct pt_sel *sel, const struct pt_hint_knobs *k,
			 const struct pt_hints_opts *o, struct pt_hints *out, struct pt_model **whole, struct pt_diag *d,
			 struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	*whole = NULL;
	struct hst s;
	memset(&s, 0, sizeof(s));
	pt_ascan_init(&s.a, PT_ASCAN_DEV | PT_ASCAN_LAG);
	pt_sel_found_init(&s.rf, sel);
	char msg[128];
	s.has_re = sel->step_pattern && !pt_sel_step_re(sel, &s.re, msg, sizeof(msg));
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink first = { scan_batch, &s, false, true };
	s.mixed_ok = !pt_ptm_source_once(src);
	int rc = pt_ptm_source_read(src, m, &first, e);
	if (s.mixed && rc >= 0) { /* Ascend and GPU data: the GPU stream, the Ascend figures beside it */
		fit(&s, m);
		pt_model_free(m); /* (the GPU stream reads the tables again) */
		const struct hx_beside ab = { beside_figs, &s };
		rc = rc == PT_ASCAN_AGAIN ? pt_ptm_read(src->path, whole, e) /* an Ascend device's memory operations */
					  : hx_gstream(src, sel, k, o, &ab, out, whole, d, e);
		hst_free(&s);
		return rc;
	}
	rc = pt_ascan_first_rc(rc, m, s.nbatch, src, e);
	if (rc == PT_PTM_WHOLE) { /* no event: m is the whole model */
		*whole = m;
		hst_free(&s);
		return 0;
	}
	if (rc == PT_ASCAN_AGAIN) { /* a GPU model streams its own way (gstream.c), or is read whole */
		pt_model_free(m);
		hst_free(&s);
		return hx_gstream(src, sel, k, o, NULL, out, whole, d, e);
	}
	if (rc) {
		hst_free(&s);
		pt_model_free(m);
		return -1;
	}
	fit(&s, m);
	s.rf.step_records = m->steps.n > 0;
	int64_t span[2] = { s.a.ev_s, s.a.ev_e };
	/* can its ranks stream? (before any note: a model read again whole gets the in-memory pass's) */
	struct pt_hints_opts dflt = { .unit = PT_TU_DEFAULT };
	struct ctx c = { .m = m, .k = k, .o = o ? o : &dflt, .h = out, .sel_device = sel ? sel->device : -1 };
	struct pt_steps_info si;
	struct pt_err *ce = NULL;
	bool have = !pt_steps_collect_scan(m, sel, s.a.dev, &si, NULL, &ce);
	pt_err_free(ce);
	if (have) {
		bool fits = ranks_fit(m, &si);
		if (!fits) {
			pt_steps_info_free(&si);
			hst_free(&s);
			pt_model_free(m);
			return pt_ptm_read(src->path, whole, e);
		}
	}
	/* the selection's notes come before the pass's, as after a load */
	pt_sel_check_scanned(m, sel, &s.rf, s.a.has_ev ? span : NULL, have ? &si : NULL, d);
	if (have)
		pt_steps_info_free(&si);
	if (pt_steps_collect_scan(m, sel, s.a.dev, &si, d, e)) {
		hst_free(&s);
		pt_model_free(m);
		return -1;
	}
	c.fig = pt_flops_op_figs(m);
	size_t nd = m->devices.n;
	rc = sum_read(&s, src, m, &c, &si, e);
	if (!rc) /* the model's events are now its get_next records alone: what the MindData rules read of them */
		take_gn(&s, m);
	rc = hx_stream_end(&c, &si, nd, rc, d, e);
	hst_free(&s);
	pt_model_free(m);
	return rc;
}
