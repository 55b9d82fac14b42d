/*
 * The host model of a streamed GPU rank (summary.md §2.2–§2.4), for the
 * views that read host ranges (overview, model, operator; memcpy and userdefined:
 * stream-host-views.c; --op-detail: stream-host-detail.c) without the
 * model's events held. The reads of the file (stream-file.c):
 *
 *  1. the first read (stream.c): the scan, the launch join's wanted ids
 *     (stream-launch.c) and the range infos, kept here compact once it ends
 *     (sum_hs_open): a range's event as its difference from the range's
 *     before (a varint: a byte, mostly), its type (a byte) and its label (4
 *     bytes, from the first range with one);
 *  2. the read of the calls: each id's last call (the launch join), and each
 *     id's device time, the sum of its activities (4 bytes a slot; one
 *     beyond 32 bits in a table);
 *  3. the steps (24 bytes a ProfilerStep range), the launch span (coverage)
 *     and the span of the data: what the ranks' windows and W need;
 *  4. the host read: per host thread, its ranges and calls in start order
 *     (equal starts held back and sorted as §2.2 sorts them) through one
 *     nesting stack; each launching call adds its id's device time to the
 *     deepest range on the stack that holds it (§2.3), and a range's
 *     inclusive time is final when it leaves the stack: then it is summed
 *     into the operator items and the model view's steps and phases; every
 *     range waits in a queue for the threads' common start order, for the
 *     overview's unions and the operator groups' CPU denominators; each id
 *     keeps a byte (HS_*) of where its call was attached;
 *  5. the summing read (stream.c), each activity taking its id's byte: its
 *     class, its attribution (overview, model view).
 *
 * A model of several processes (a GPU rank each: its CPU device and GPUs, by
 * pid) takes the same reads: each host thread is its process's (struct
 * hs_trk rank), a call's unit is its process's (the launch join's id x ranks
 * + rank), and each rank has its own steps, launch span, data span
 * (struct hs_rspan), groups and queue, released by the watermark of its own
 * threads, so that one process's ranges never wait for another's.
 *
 * A host thread whose events are not in start order (a CUPTI dump holds its
 * NVTX ranges after its calls) has its ranges held from read 3 (32 bytes a
 * range) and put in order into read 4; where its calls too are out of order,
 * read 3 measures how far they fall behind and read 4 holds them in that
 * window (stream-host-order.c). Zero-length ranges of a thread with one
 * start are pushed with the first of them last, so that a call at that start
 * attaches to it as in the whole load (stream-host-order.c). Explicit
 * parents (NVTX typed domains) nest as they are where the stack holds the
 * parent when the child comes (stream-host-parent.c); what this does not
 * give as the whole load does sends the model to the whole load.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <ctype.h>
#include <string.h>

#include "pass/summary/view.h"
#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

/* Queue entry flags (ov_ent f): the type in the low 4 bits, then these, the group above QF_GSHIFT. */
enum { QF_COMM = 16, QF_MEM = 32, QF_OUTER = 64, QF_GSHIFT = 8 };
#define RT_INSTANT 0x80

#define HOST_VIEWS \
	((1u << PT_SV_OVERVIEW) | (1u << PT_SV_MODEL) | (1u << PT_SV_OPERATOR) | (1u << PT_SV_KERNEL) | \
	 (1u << PT_SV_API) | (1u << PT_SV_GPU) | (1u << PT_SV_DEVICE) | (1u << PT_SV_DISTRIBUTED) | \
	 (1u << PT_SV_OPTYPE) | (1u << PT_SV_AICPU) | (1u << PT_SV_MEMCPY) | (1u << PT_SV_USERDEFINED))

bool sum_hs_views(const struct pt_summary_opts *o)
{
	return !(o->views & ~HOST_VIEWS);
}

static int htype_of(const struct pt_model *m, uint32_t type)
{
	if (!type)
		return HT_USERRANGE;
	const char *t = pt_strtab_get(&m->strings, type);
	for (int k = 0; k < HT_NTYPES; k++)
		if (!strcmp(t, sum_htype_names[k]))
			return k;
	return HT_USERRANGE;
}

int sum_hs_init(struct sum_hs *h, const struct pt_model *m, const struct pt_summary_opts *o)
{
	memset(h, 0, sizeof(*h));
	char msg[128];
	if (pt_sel_step_re(&o->sel, &h->re, msg, sizeof(msg)))
		return -1; /* the whole load reports it */
	h->re_own = true;
	h->mc = o->views & (1u << PT_SV_MEMCPY);
	h->opd = o->op_detail && (o->views & (1u << PT_SV_OPERATOR));
	h->nstr = m->strings.n;
	h->mcache = h->mc ? pt_xcalloc(h->nstr + 1, 1) : NULL;
	h->tcache = pt_xcalloc(h->nstr + 1, 1);
	h->scache = pt_xcalloc(h->nstr + 1, 1);
	return 0;
}

void sum_hs_ranges(struct sum_hs *h, const struct pt_model *m)
{
	for (size_t k = 0; k < m->ranges.n; k++) {
		const struct pt_range_info *ri = &m->ranges.v[k];
		if (ri->parent)
			h->parents = true; /* explicit parents (stream-host-parent.c) */
		sum_hsp_range(h, ri);
		if (ri->label)
			sum_hsv_label(h, m, ri->label);
		uint32_t ty = ri->type < h->nstr ? ri->type : 0;
		if (!h->tcache[ty])
			h->tcache[ty] = (uint8_t)(htype_of(m, ty) + 1);
		size_t n = h->nr;
		pt_xgrow((void **)&h->rev, &h->crev, h->nrev + 5, 1);
		pt_xgrow((void **)&h->rtb, &h->crtb, n + 1, 1);
		if (ri->label || h->rlab) { /* labels (nsys): 4 bytes a range from the first, 0 before */
			size_t had = h->clab;
			pt_xgrow((void **)&h->rlab, &h->clab, n + 1, sizeof(*h->rlab));
			if (!had)
				memset(h->rlab, 0, n * sizeof(*h->rlab));
			h->rlab[n] = ri->label;
		}
		h->nrev = (size_t)(pt_varint_put(h->rev + h->nrev, pt_zigzag((int64_t)ri->event - h->rlast)) - h->rev);
		h->rlast = ri->event;
		h->rtb[n] = (uint8_t)((h->tcache[ty] - 1) | (ri->flags & PT_RANGE_INSTANT ? RT_INSTANT : 0));
		h->nr = n + 1;
	}
}

int sum_hs_open(struct sum_hs *h, const struct pt_model *m, const struct pt_lag *lag, const struct sum_lj *lj)
{
	h->keep = lj->keep;
	h->ndev = lj->ndev;
	h->rk = lj->rank;
	h->nrank = lj->nrank;
	h->rs = pt_xcalloc(h->nrank, sizeof(*h->rs));
	for (uint32_t q = 0; q < h->nrank; q++) {
		h->rs[q].lo = INT64_MAX;
		h->rs[q].hi = INT64_MIN;
	}
	h->ntrk = m->tracks.n;
	h->trk = pt_xcalloc(h->ntrk + 1, sizeof(*h->trk));
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track *tk = &m->tracks.v[t];
		if (tk->kind != PT_TRACK_HOST_THREAD || tk->device >= h->ndev || !h->keep[tk->device] || !lag[t].count)
			continue;
		h->trk[t].on = true;
		h->trk[t].rank = h->rk[tk->device];
		h->trk[t].left = lag[t].count;
		h->trk[t].t = lag[t].min;
		/* not in start order (a CUPTI dump holds its NVTX ranges after its calls): its ranges are
		 * held from the read of the steps, its calls in a window where they too are out of order */
		h->trk[t].win = lag[t].lag != 0 && sum_hso_window(h, t, &lag[t]);
		h->trk[t].late = lag[t].lag != 0 && !h->trk[t].win;
		if (h->trk[t].win)
			h->trk[t].cl.lag = lag[t].lag;
	}
	free(h->olag);
	h->olag = NULL;
	h->nolag = 0;
	/* the vectors' spare room back */
	h->rev = pt_xrealloc(h->rev, h->nrev + 1);
	h->rtb = pt_xrealloc(h->rtb, h->nr + 1);
	if (h->rlab)
		h->rlab = pt_xrealloc(h->rlab, (h->nr + 1) * sizeof(*h->rlab));
	if (h->rpar)
		h->rpar = pt_xrealloc(h->rpar, h->nrpar + 1);
	return 0;
}

/* The range info row of event g (the reads go in event order: a cursor), or SIZE_MAX. */
static size_t rinfo(struct sum_hs *h, uint64_t g)
{
	while (h->rcur < h->nr) {
		if (h->rdec <= h->rcur) { /* range rcur's event */
			const uint8_t *q = h->rev + h->roff;
			h->rval = (uint32_t)((int64_t)h->rval + pt_unzigzag(pt_varint_take(&q)));
			h->roff = (size_t)(q - h->rev);
			h->rdec++;
			if (h->rpar)
				sum_hsp_next(h);
		}
		if (h->rval >= g)
			break;
		h->rcur++;
	}
	return h->rcur < h->nr && h->rval == g ? h->rcur : SIZE_MAX;
}

static inline bool kept(const struct sum_hs *h, const struct pt_model *m, size_t i)
{
	uint32_t d = m->tracks.v[m->events.track[i]].device;
	return d < h->ndev && h->keep[d];
}

void sum_hs_seal(struct sum_hs *h, const struct sum_lj *lj)
{
	size_t n = lj->j.n;
	if (lj->links) { /* the calls the links name, sorted, once each */
		uint32_t *c = pt_xmalloc((lj->nlink + 1) * sizeof(*c));
		for (size_t k = 0; k < lj->nlink; k++)
			c[k] = lj->link[k].api;
		pt_sort(c, lj->nlink, sizeof(*c), pt_u32_cmp);
		n = 0;
		for (size_t k = 0; k < lj->nlink; k++)
			if (!n || c[k] != c[n - 1])
				c[n++] = c[k];
		h->capi = pt_xrealloc(c, (n + 1) * sizeof(*c));
		h->ncapi = n;
	}
	h->gpu = pt_xcalloc(n + 1, sizeof(*h->gpu));
	h->att = pt_xcalloc(n + 1, 1);
	if (h->opd)
		h->tgt = pt_xcalloc(n + 1, sizeof(*h->tgt));
	h->lj = lj;
	free(h->mcache);
	h->mcache = NULL;
}

/* The unit of call event g (links: its index in capi), or SIZE_MAX. */
static size_t call_unit(const struct sum_hs *h, uint64_t g)
{
	size_t lo = 0, hi = h->ncapi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->capi[mid] < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->ncapi && h->capi[lo] == g ? lo : SIZE_MAX;
}

/* The link of activity event g (the reads go in event order: the cursor h->lcur), or SIZE_MAX. */
static size_t link_of(struct sum_hs *h, const struct sum_lj *lj, uint64_t g)
{
	while (h->lcur < lj->nlink && lj->link[h->lcur].event < g)
		h->lcur++;
	return h->lcur < lj->nlink && lj->link[h->lcur].event == g ? h->lcur : SIZE_MAX;
}

/* The unit (links: capi index; ids: the slot) that activity i (g in the file) adds its time to, and
 * its launching call's start in *at when known; SIZE_MAX: none. */
static size_t act_unit(struct sum_hs *h, const struct sum_lj *lj, const struct pt_model *m, size_t i, uint64_t g,
		       int64_t *at, bool *called)
{
	*called = false;
	if (lj->links) {
		size_t k = link_of(h, lj, g);
		if (k == SIZE_MAX)
			return SIZE_MAX;
		int64_t s = sum_lj_call_start(lj, k);
		if (s != INT64_MIN) {
			*called = true;
			*at = s;
		}
		return call_unit(h, lj->link[k].api);
	}
	uint64_t corr = m->events.corr[i];
	size_t slot = corr ? pt_ljoin_slot(&lj->j, sum_lj_id(lj, m, i)) : SIZE_MAX;
	if (slot != SIZE_MAX && lj->key[slot]) {
		*called = true;
		*at = lj->j.start[slot];
	}
	return slot;
}

void sum_hs_acts(struct sum_hs *h, const struct sum_lj *lj, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint64_t g = h->base + i;
		if (!is_dev_activity(ev->kind[i]) || !kept(h, m, i))
			continue;
		int64_t at;
		bool called;
		size_t u = act_unit(h, lj, m, i, g, &at, &called);
		if (u != SIZE_MAX) {
			sum_u32_add(&h->gpu[u], &h->gpubig, u, ev->dur[i]);
			if (h->mc)
				sum_hsv_act(h, m, u, i, g);
		}
	}
	h->base += ev->n;
}

/* Is raw name id nm a step name (--step-pattern, ProfilerStep#N)? */
static bool step_name(struct sum_hs *h, const struct pt_model *m, uint32_t nm)
{
	uint8_t *c = &h->scache[nm < h->nstr ? nm : 0];
	if (!*c)
		*c = regexec(&h->re, pt_strtab_get(&m->strings, nm), 0, NULL, 0) ? 1 : 2;
	return *c == 2;
}

/* The type of range event i (g: its index in the file) and whether it is a host range of the rank;
 * its label and explicit parent event + 1 (0: none). */
static int range_type(struct sum_hs *h, const struct pt_model *m, size_t i, uint64_t g, uint32_t *label,
		      uint32_t *par)
{
	size_t k = rinfo(h, g);
	int ty = HT_USERRANGE;
	*label = 0;
	*par = 0;
	if (k != SIZE_MAX) {
		if (h->rtb[k] & RT_INSTANT)
			return -1;
		ty = h->rtb[k] & 15;
		*label = h->rlab ? h->rlab[k] : 0;
		*par = h->rpar ? h->rpcur : 0;
	}
	if (ty != HT_STEP && step_name(h, m, m->events.name[i]))
		ty = HT_STEP;
	return ty;
}

uint32_t sum_hs_rank(const struct sum_hs *h, const struct rank *r)
{
	const struct pt_model *m = r->g->m;
	for (size_t d = 0; d < m->devices.n && d < h->ndev; d++)
		if (m->devices.v[d].pid == r->pid && m->devices.v[d].kind != PT_DEV_NPU)
			return h->rk[d];
	return 0;
}

void sum_hs_steps(struct sum_hs *h, const struct sum_lj *lj, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		uint64_t g = h->base + i;
		int64_t s = ev->start[i], e = s + ev->dur[i];
		if (!kept(h, m, i))
			continue;
		uint32_t q = h->rk[m->tracks.v[ev->track[i]].device];
		struct hs_rspan *rs = &h->rs[q];
		struct hs_trk *tk = &h->trk[ev->track[i]];
		if (tk->late && k != PT_EV_RANGE && (k == PT_EV_API || is_dev_activity(k) || k == PT_EV_AICPU ||
						      k == PT_EV_TASK))
			pt_lag_add(&tk->cl, s); /* its calls out of start order too: held in a window (lag) */
		if (k == PT_EV_RANGE) {
			if (!tk->on)
				continue; /* not a host range: no step, and not in the span (ranks.c) */
			uint32_t label, par;
			int ty = range_type(h, m, i, g, &label, &par);
			if (ty < 0)
				continue; /* an instant marker */
			if (tk->late)
				sum_hsl_add(tk, &((struct hs_late){ s, e, (uint32_t)g, par, label ? label : ev->name[i],
								     (uint8_t)ty }));
			if (ty == HT_STEP)
				pt_vec_push(&h->steps, ((struct hs_step){ s, e, ev->name[i], q }));
		} else if (is_dev_activity(k)) {
			/* the launch span (ranks.c sum_gpu_prepare step 5) */
			int64_t la = s, lb = e, at;
			bool called;
			act_unit(h, lj, m, i, g, &at, &called);
			if (called)
				la = lb = at;
			if (!rs->has_span) {
				rs->has_span = true;
				rs->la = la;
				rs->lb = lb;
			}
			rs->la = la < rs->la ? la : rs->la;
			rs->lb = lb > rs->lb ? lb : rs->lb;
		} else if (k != PT_EV_API && k != PT_EV_AICPU) {
			continue;
		}
		rs->lo = s < rs->lo ? s : rs->lo;
		rs->hi = e > rs->hi ? e : rs->hi;
	}
	h->base += ev->n;
}

void sum_hs_rewind(struct sum_hs *h)
{
	h->base = 0;
	h->rcur = h->lcur = h->ucur = 0;
	h->rdec = h->roff = h->rpoff = 0;
	h->rval = h->rpcur = 0;
}

void sum_hs_begin(struct sum_hs *h, struct run *u)
{
	sum_hs_rewind(h);
	for (size_t t = 0; t < h->ntrk; t++)
		sum_hsl_seal(&h->trk[t]);
	sum_hsv_acts_end(h);
	h->rr = pt_xcalloc(h->nrank, sizeof(*h->rr));
	for (size_t k = 0; k < u->ranks.n; k++) {
		struct rank *r = &u->ranks.v[k];
		if (r->ascend)
			continue;
		h->rr[sum_hs_rank(h, r)] = r;
		r->hs = pt_xcalloc(1, sizeof(*r->hs));
		sum_items_init(&r->hs->op);
		sum_groups_init(&r->hs->gs, r);
		sum_items_init(&r->hs->mc);
		sum_items_init(&r->hs->ud);
		sum_groups_init(&r->hs->ugs, r);
	}
}

/* §2.2 order of ranges with one start: end desc, type, name, event. */
static int cmp_pend(const void *pa, const void *pb, void *arg)
{
	const struct hs_pend *a = pa, *b = pb;
	struct ctx *g = arg;
	if (a->call != b->call)
		return a->call ? 1 : -1; /* the calls after the ranges that start with them */
	if (a->call)
		return (a->ev > b->ev) - (a->ev < b->ev);
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	int c = a->type == HT_STEP ? sum_out_cmp_raw(g, a->name, b->name) /* a raw name: sum_hs_hosts */
				   : strcmp(out_str(g, a->name), out_str(g, b->name));
	if (c)
		return c;
	return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Range x leaves the stack of its thread: its sums are final. */
static void finish(struct rank *r, struct hs_trk *tk, const struct hs_node *x)
{
	struct hsres *hs = r->hs;
	struct hs_node *par = x->par ? &tk->st.v[x->par - 1] : NULL; /* under it (an explicit parent too) */
	if (par)
		par->gpu += x->gpu; /* inclusive (§2.6) */
	sum_hsv_finish(r, par, x);
	uint32_t oi = sum_hsd_finish(r, tk, x);
	if (!(x->fl & HN_MEM))
		return;
	if (x->type == HT_STEP) {
		hs->st.calls++;
		item_cpu(&hs->st, x->e - x->s);
		item_gpu(&hs->st, x->gpu);
	} else if (x->fl & HN_OUTER) {
		struct item *it = &hs->ph[x->type - HT_DATALOADER];
		it->calls++;
		item_cpu(it, x->e - x->s);
		item_gpu(it, x->gpu);
		sum_ivl_add(&hs->cover, x->s, x->e);
		hs->any = true;
	}
	if (x->type == HT_OPERATOR) {
		uint32_t gi = sum_group_of(&hs->gs, r, x->track);
		struct grp *gr = &hs->gs.v.v[gi];
		if (x->s < gr->first)
			gr->first = x->s;
		struct item *it = oi ? &hs->op.v.v[oi - 1]
					: sum_items_get(&hs->op, ((uint64_t)gi << 32) | x->name, x->name);
		it->d = gi;
		it->calls++;
		item_cpu(it, x->e - x->s);
		item_gpu(it, x->gpu);
		if (x->s < it->first)
			it->first = x->s;
	}
}

static void pop(struct rank *r, struct hs_trk *tk)
{
	struct hs_node x = tk->st.v[--tk->st.n];
	finish(r, tk, &x);
}

/* The range of tk's stack nearest the top that holds a call at `at`, SIZE_MAX: none (without explicit
 * parents the deepest: each range's parent is the one under it). */
static size_t top_holder(const struct hs_trk *tk, int64_t at)
{
	for (size_t k = tk->st.n; k-- > 0;) {
		const struct hs_node *x = &tk->st.v[k];
		if (at < x->ne || (x->s == x->ne && at == x->s))
			return k;
	}
	return SIZE_MAX;
}

/* The ranges and calls of thread t at start tk->t, in §2.2 order through the stack. */
static void flush(struct sum_hs *h, struct rank *r, uint32_t t)
{
	struct hs_trk *tk = &h->trk[t];
	struct ctx *g = r->g;
	if (!tk->buf.n)
		return;
	if (tk->buf.n > 1)
		sum_sort(tk->buf.v, tk->buf.n, sizeof(*tk->buf.v), cmp_pend, g);
	int64_t at = tk->t;
	if (h->parents)
		sum_hsp_zero(h, tk->buf.v, tk->buf.n, at);
	sum_hso_zero_last(tk->buf.v, tk->buf.n, at);
	for (size_t q = 0; q < tk->buf.n; q++) {
		const struct hs_pend *p = &tk->buf.v[q];
		if (!p->call) {
			while (tk->st.n && tk->st.v[tk->st.n - 1].ne <= at)
				pop(r, tk); /* (zero-length siblings at `at` too: sum_hso_zero_last) */
			bool xp;
			uint32_t pi = sum_hsp_parent(h, tk, p, &xp);
			const struct hs_node *par = pi ? &tk->st.v[pi - 1] : NULL;
			struct hs_node x = { .s = at, .e = p->e, .ne = p->e, .name = p->name, .track = t, .ev = (uint32_t)p->ev,
					     .par = pi, .depth = par ? par->depth + 1 : 0, .type = p->type };
			if (par && !xp && x.e > par->ne) {
				x.ne = par->ne;
				g->violations++;
			}
			bool comm = x.type == HT_COMM || (x.type == HT_OPERATOR && sum_comm_op_name(g, out_str(g, x.name)));
			bool mem = member_at(r, at);
			uint16_t pf = par ? par->fl : 0;
			x.fl = (uint16_t)((comm ? HN_COMM : 0) | (comm || (pf & HN_CANC) ? HN_CANC : 0) |
					 (is_phase(x.type) || (pf & HN_PANC) ? HN_PANC : 0) |
					 (is_phase(x.type) && !(pf & HN_PANC) ? HN_OUTER : 0) |
					 (x.type == HT_STEP || (pf & HN_SANC) ? HN_SANC : 0) |
					 ((x.type == HT_OPERATOR && mem) || (pf & HN_INOP) ? HN_INOP : 0) | (mem ? HN_MEM : 0));
			sum_hsv_push(r, &x, par);
			sum_hsd_push(h, r, tk, &x);
			pt_vec_push(&tk->st, x);
			if (x.type != HT_STEP || comm) {
				unsigned f = x.type | (comm ? QF_COMM : 0) | (mem ? QF_MEM : 0) |
					     (x.fl & HN_OUTER ? QF_OUTER : 0);
				if (x.type == HT_OPERATOR && mem)
					f |= sum_group_of(&r->hs->gs, r, t) << QF_GSHIFT;
				pendq_add(&r->hs->q, (struct ov_ent){ at, x.e, f });
			}
			continue;
		}
		/* a call that launches something (or copies: the memcpy view): the deepest range of the
		 * stack that holds it (§2.3) */
		size_t slot = p->corr == UINT64_MAX ? SIZE_MAX : (size_t)p->corr;
		/* (explicit parents: the deepest holder is not always the one nearest the top) */
		size_t k = h->parents ? sum_hsp_pick(tk, at) : top_holder(tk, at);
		if (k == SIZE_MAX)
			continue;
		struct hs_node *x = &tk->st.v[k];
		sum_hsv_attach(h, r, x, p, slot);
		if (slot == SIZE_MAX)
			continue;
		sum_hsd_attach(h, tk->rank, tk, k, slot);
		int64_t d = sum_u32_get(h->gpu[slot], &h->gpubig, slot);
		x->gpu += d;
		if (x->fl & HN_INOP)
			r->hs->gs.v.v[sum_group_of(&r->hs->gs, r, t)].gpu_den += d;
		h->att[slot] = (uint8_t)(HS_ATT | (x->fl & HN_CANC ? HS_COMM : 0) |
					 ((x->fl & HN_SANC) && !(x->fl & HN_PANC) ? HS_SNP : 0));
	}
	tk->buf.n = 0;
}

/* The queued ranges that start at or before wm, in start order: the overview's unions, the operator
 * groups' CPU denominators. */
static void release(struct rank *r, int64_t wm)
{
	struct hsres *hs = r->hs;
	struct ov_ent x;
	while (sum_pendq_pop(&hs->q, wm, &x)) {
		int ty = (int)(x.f & 15);
		bool mem = x.f & QF_MEM;
		if (ty != HT_STEP && ty != HT_COMM) {
			urun_add(r, &hs->tl[ty], x.s, x.e);
			hs->tl[ty].calls += mem && (!is_phase(ty) || (x.f & QF_OUTER));
		}
		if (x.f & QF_COMM) {
			urun_add(r, &hs->cl, x.s, x.e);
			if (mem) {
				if (!hs->pairs || x.s != hs->pair_s) {
					hs->pair_s = x.s;
					hs->pair_e.n = 0;
				}
				bool seen = false;
				for (size_t k = 0; k < hs->pair_e.n && !seen; k++)
					seen = hs->pair_e.v[k] == x.e;
				if (!seen) {
					pt_vec_push(&hs->pair_e, x.e);
					hs->pairs++;
				}
			}
		}
		if (ty == HT_OPERATOR && mem && x.e > x.s) {
			struct urun *cu = &hs->gs.v.v[x.f >> QF_GSHIFT].cpu;
			if (cu->open && x.s <= cu->ce) {
				cu->ce = x.e > cu->ce ? x.e : cu->ce;
				continue;
			}
			if (cu->open)
				cu->total += cu->ce - cu->cs;
			*cu = (struct urun){ .cs = x.s, .ce = x.e, .total = cu->total, .open = true };
		}
	}
}

/* The earliest start the host threads of rank q can still deliver. */
static int64_t watermark(const struct sum_hs *h, uint32_t q)
{
	int64_t wm = INT64_MAX;
	for (size_t t = 0; t < h->ntrk; t++) {
		const struct hs_trk *tk = &h->trk[t];
		if (tk->on && tk->rank == q && (tk->left || tk->buf.n) && tk->t < wm)
			wm = tk->t;
	}
	return wm;
}

/* The held ranges of late thread t that start at or before s, as if the file held them in order. */
static void late_upto(struct sum_hs *h, struct rank *r, uint32_t t, int64_t s)
{
	struct hs_trk *tk = &h->trk[t];
	struct hs_late y;
	while (sum_hsl_next(tk, s, &y)) { /* (stream-host-late.c) */
		const struct hs_late *x = &y;
		if (x->s > tk->t || !tk->any) {
			flush(h, r, t);
			tk->t = x->s;
			tk->any = true;
		}
		/* a step's name stays raw, as sum_hs_hosts gives it */
		uint32_t nm = x->type == HT_STEP ? x->name : sum_out_name(r->g, x->name, false);
		pt_vec_push(&tk->buf, ((struct hs_pend){ x->e, x->ev, x->par, nm, x->type, false, false }));
	}
}

void sum_hs_put(struct sum_hs *h, struct rank *r, uint32_t t, int64_t s, const struct hs_pend *p)
{
	struct hs_trk *tk = &h->trk[t];
	late_upto(h, r, t, s);
	if (s > tk->t || !tk->any) {
		flush(h, r, t);
		tk->t = s;
		tk->any = true;
	}
	pt_vec_push(&tk->buf, *p);
}

/* Range event i (g in the file): *p, unless it is an instant marker. */
static bool range_pend(struct sum_hs *h, struct run *u, const struct pt_model *m, size_t i, uint64_t g,
		       struct hs_pend *p)
{
	const struct pt_events *ev = &m->events;
	uint32_t label, par;
	int ty = range_type(h, m, i, g, &label, &par);
	if (ty < 0)
		return false;
	/* a step's name is not an output name: no row shows it (one a step, 167,383 in a 1 GiB Kineto
	 * trace, 8 MiB of output names) */
	uint32_t raw = label ? label : ev->name[i];
	uint32_t nm = ty == HT_STEP ? raw : sum_out_name(&u->g, raw, false);
	*p = (struct hs_pend){ ev->start[i] + ev->dur[i], g, par, nm, (uint8_t)ty, false, false };
	return true;
}

/* Call event i (g in the file) of rank r: *p when it launches something (its unit) or copies. */
static bool call_pend(struct sum_hs *h, struct rank *r, const struct sum_lj *lj, const struct pt_model *m, size_t i,
		      uint64_t g, struct hs_pend *p)
{
	const struct pt_events *ev = &m->events;
	/* its unit, when it is the launching call of some activity */
	size_t unit = SIZE_MAX;
	if (lj->links) {
		while (h->ucur < h->ncapi && h->capi[h->ucur] < g)
			h->ucur++;
		if (h->ucur < h->ncapi && h->capi[h->ucur] == g)
			unit = h->ucur;
	} else if (ev->corr[i]) {
		size_t slot = pt_ljoin_slot(&lj->j, sum_lj_id(lj, m, i));
		if (slot != SIZE_MAX && lj->key[slot] == g + 1)
			unit = slot; /* an id's activities take its last call */
	}
	bool copier = sum_hsv_copier(h, r, ev->name[i]);
	if (unit == SIZE_MAX && !copier)
		return false;
	*p = (struct hs_pend){ ev->start[i] + ev->dur[i], g, unit == SIZE_MAX ? UINT64_MAX : unit, 0, 0, true, copier };
	return true;
}

void sum_hs_hosts(struct sum_hs *h, struct run *u, const struct sum_lj *lj)
{
	const struct pt_model *m = u->g.m;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t t = ev->track[i];
		struct hs_trk *tk = &h->trk[t];
		uint8_t k = ev->kind[i];
		uint64_t g = h->base + i;
		struct rank *r = h->rr[tk->rank];
		if (!tk->on || !r || !(k == PT_EV_RANGE || k == PT_EV_API || is_dev_activity(k) || k == PT_EV_AICPU ||
				 k == PT_EV_TASK))
			continue;
		int64_t s = ev->start[i];
		if (tk->left)
			tk->left--;
		if (tk->win) { /* its ranges and calls held in one window */
			struct hs_pend p;
			bool put = k == PT_EV_RANGE ? range_pend(h, u, m, i, g, &p)
						    : k == PT_EV_API && call_pend(h, r, lj, m, i, g, &p);
			sum_hso_hold(h, r, t, s, put ? &p : NULL);
			continue;
		}
		if (tk->late) { /* its ranges come from lr, each before the events that start after it */
			if (k == PT_EV_RANGE)
				continue;
			if (tk->cl.lag) { /* its calls too: held until no later event can start before them */
				struct hs_pend p;
				bool put = k == PT_EV_API && call_pend(h, r, lj, m, i, g, &p);
				sum_hso_hold(h, r, t, s, put ? &p : NULL);
				continue;
			}
			late_upto(h, r, t, s);
		}
		if (s > tk->t || !tk->any) {
			flush(h, r, t);
			tk->t = s;
			tk->any = true;
		}
		if (k == PT_EV_RANGE) {
			struct hs_pend p;
			if (range_pend(h, u, m, i, g, &p))
				pt_vec_push(&tk->buf, p);
		} else if (k == PT_EV_API) {
			struct hs_pend p;
			if (call_pend(h, r, lj, m, i, g, &p))
				pt_vec_push(&tk->buf, p);
		}
	}
	h->base += ev->n;
	/* a thread whose events are over: its stack too */
	for (size_t t = 0; t < h->ntrk; t++) {
		struct hs_trk *tk = &h->trk[t];
		struct rank *r = tk->on ? h->rr[tk->rank] : NULL;
		if (r && !tk->left && (tk->buf.n || tk->st.n || sum_hsl_left(tk) || tk->hp.n)) {
			sum_hso_drain(h, r, (uint32_t)t);
			late_upto(h, r, (uint32_t)t, INT64_MAX);
			flush(h, r, (uint32_t)t);
			while (tk->st.n)
				pop(r, tk);
		}
	}
	for (uint32_t q = 0; q < h->nrank; q++) /* each rank's queue in its own threads' start order */
		if (h->rr[q])
			release(h->rr[q], watermark(h, q));
}

void sum_hs_hosts_end(struct sum_hs *h, struct run *u)
{
	(void)u;
	for (size_t t = 0; t < h->ntrk; t++) {
		struct hs_trk *tk = &h->trk[t];
		struct rank *r = tk->on ? h->rr[tk->rank] : NULL;
		tk->left = 0;
		if (r && (tk->buf.n || tk->st.n || sum_hsl_left(tk) || tk->hp.n)) {
			sum_hso_drain(h, r, (uint32_t)t);
			late_upto(h, r, (uint32_t)t, INT64_MAX);
			flush(h, r, (uint32_t)t);
			while (tk->st.n)
				pop(r, tk);
		}
		sum_hso_free(tk);
		pt_vec_free(&tk->buf);
		pt_vec_free(&tk->st);
		sum_hsl_free(tk);
		pt_vec_free(&tk->dst);
	}
	for (uint32_t q = 0; q < h->nrank; q++) {
		struct rank *r = h->rr[q];
		if (!r)
			continue;
		release(r, INT64_MAX);
		sum_hsv_end(r->hs);
		pt_vec_free(&r->hs->pair_e);
		sum_pendq_free(&r->hs->q);
	}
	/* the range infos and the device times are summed: room for the summing read */
	free(h->rev);
	free(h->rlab);
	free(h->rtb);
	free(h->rpar);
	h->rev = h->rtb = h->rpar = NULL;
	h->rlab = NULL;
	free(h->gpu);
	h->gpu = NULL;
	pt_hashmap_free(&h->gpubig);
	free(h->trk);
	h->trk = NULL;
	h->ntrk = 0;
}

bool sum_hs_call_copies(const struct sum_hs *h, const struct pt_model *m, size_t i, uint64_t g, int64_t *t,
			int64_t *b)
{
	const struct sum_lj *lj = h->lj;
	size_t u = SIZE_MAX;
	if (!lj) {
		return false;
	} else if (lj->links) {
		u = call_unit(h, g);
	} else if (m->events.corr[i]) {
		size_t slot = pt_ljoin_slot(&lj->j, sum_lj_id(lj, m, i));
		if (slot != SIZE_MAX && lj->key[slot] == g + 1)
			u = slot; /* an id's activities take its last call */
	}
	return u != SIZE_MAX && sum_hsv_copies(h, u, t, b);
}

const uint8_t *sum_hs_batch(struct sum_hs *h, const struct sum_lj *lj, const struct sum_launch *lk,
			    const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	pt_xgrow((void **)&h->hat, &h->hatcap, ev->n + 1, 1);
	for (size_t i = 0; i < ev->n; i++) {
		h->hat[i] = 0;
		if (!is_dev_activity(ev->kind[i]) || !kept(h, m, i))
			continue;
		if (lk) { /* the launch join's call (stream-launch.c) */
			size_t u = lk[i].key ? (lj->links ? call_unit(h, lk[i].key - 1) : pt_ljoin_slot(&lj->j, sum_lj_id(lj, m, i)))
					     : SIZE_MAX;
			if (u != SIZE_MAX) {
				h->hat[i] = h->att[u];
				sum_hsd_act(h, m, u, i);
			}
		}
	}
	return h->hat;
}

void sum_hs_free(struct sum_hs *h)
{
	if (!h)
		return;
	if (h->re_own)
		regfree(&h->re);
	free(h->rev);
	free(h->rlab);
	free(h->rtb);
	free(h->rpar);
	free(h->tcache);
	free(h->scache);
	free(h->mcache);
	free(h->gpu);
	pt_hashmap_free(&h->gpubig);
	free(h->att);
	free(h->mcopy);
	pt_hashmap_free(&h->mbig);
	free(h->capi);
	free(h->rs);
	free(h->rr);
	free(h->olag);
	pt_vec_free(&h->steps);
	for (size_t t = 0; h->trk && t < h->ntrk; t++) {
		pt_vec_free(&h->trk[t].buf);
		pt_vec_free(&h->trk[t].st);
		sum_hsl_free(&h->trk[t]);
		pt_vec_free(&h->trk[t].dst);
		sum_hso_free(&h->trk[t]);
	}
	free(h->trk);
	free(h->hat);
	free(h->tgt);
	pt_vec_free(&h->tg);
	pt_hashmap_free(&h->tgh);
	memset(h, 0, sizeof(*h));
}

void sum_hsres_free(struct hsres *x)
{
	if (!x)
		return;
	sum_items_free(&x->op);
	sum_groups_free(&x->gs);
	sum_items_free(&x->mc);
	sum_items_free(&x->ud);
	sum_groups_free(&x->ugs);
	pt_vec_free(&x->mcx);
	free(x->cover.v);
	pt_vec_free(&x->pair_e);
	sum_pendq_free(&x->q);
	free(x);
}
