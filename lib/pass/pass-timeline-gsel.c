/*
 * --steps and --time-window on the streamed GPU timeline: the steps the
 * selection's notes count (pass-timeline-gsel.h).
 */
#include "pass/pass-timeline-gsel.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "pass/launch-join.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "pass/select.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

struct tl_gsel {
	const struct pt_sel *sel;
	struct pt_steps_devscan *dev; /* per device: its events' span (first read) */
	size_t ndev;
	PT_VEC(struct pt_steps_grange) gr; /* the step ranges of the CPU devices, in the file's order */
	bool launches;                     /* the second read keeps the kernels' launches (lf) */
	struct tl_glfold lf;
	bool has_si;
	struct pt_steps_info si;
	bool no_steps; /* --time-window alone on several processes: no steps counted */
	bool by_read;  /* several processes whose steps need the events (a GPU device of no host's process, a
			* process of two hosts): the steps' own streamed read (tl_gsel_read_steps) */
	/*
	 * Several processes with --steps: the host (CPU device) of each range of gr once a second host has
	 * one (grh; those before it: host0's), and the second read's launches one process at a time, in
	 * the file's order of its calls and kernels (ps: its calls' starts per join slot; a process met
	 * again after another's leaves the model to the whole read, bad). Per device index of a host, the
	 * few launches the boundary rule reads (hl).
	 */
	bool multi, bad, has_cur;
	uint32_t host0, curpid;
	PT_VEC(uint32_t) grh;
	PT_VEC(uint32_t) done; /* the processes whose launches were taken */
	int64_t *ps;
	size_t nps;
	struct hlaunch {
		size_t n;
		uint32_t *name;
		int64_t *call_s;
	} *hl;
	size_t nhl;
};

struct tl_gsel *tl_gsel_new(const struct pt_sel *sel)
{
	if (!sel->steps_given && !sel->window_given)
		return NULL;
	struct tl_gsel *g = pt_xcalloc(1, sizeof(*g));
	g->sel = sel;
	return g;
}

void tl_glfold_free(struct tl_glfold *f)
{
	pt_xbig_free(f->n16, f->nslot * sizeof(*f->n16));
	pt_xbig_free(f->n32, f->nslot * sizeof(*f->n32));
	free(f->x);
	memset(f, 0, sizeof(*f));
}

void tl_glfold_add(struct tl_glfold *f, size_t nslot, uint32_t slot, uint32_t name)
{
	if (!f->n16 && !f->n32 && nslot) {
		f->n16 = pt_xbig_grow(NULL, 0, nslot * sizeof(*f->n16), false);
		f->nslot = nslot;
	}
	if (slot >= f->nslot)
		return;
	uint32_t had = f->n16 ? f->n16[slot] : f->n32[slot];
	if (had) { /* a further kernel of the slot's call (a graph's) */
		if (f->nx == f->capx) {
			f->capx = f->capx ? 2 * f->capx : 16;
			f->x = pt_xrealloc(f->x, f->capx * sizeof(*f->x));
		}
		f->x[f->nx++] = (struct tl_glaunch){ slot, name };
		return;
	}
	if (f->n16 && name >= UINT16_MAX) { /* a name that does not fit: every slot's widens */
		f->n32 = pt_xbig_grow(NULL, 0, f->nslot * sizeof(*f->n32), false);
		for (size_t k = 0; k < f->nslot; k++)
			f->n32[k] = f->n16[k];
		pt_xbig_free(f->n16, f->nslot * sizeof(*f->n16));
		f->n16 = NULL;
	}
	if (f->n16)
		f->n16[slot] = (uint16_t)(name + 1);
	else
		f->n32[slot] = name + 1;
}

struct tl_glset tl_glfold_set(const struct tl_glfold *f)
{
	return (struct tl_glset){ f->x, f->nx, f->n16, f->n32, f->nslot };
}

void tl_gsel_free(struct tl_gsel *g)
{
	if (!g)
		return;
	free(g->dev);
	pt_vec_free(&g->gr);
	tl_glfold_free(&g->lf);
	if (g->has_si)
		pt_steps_info_free(&g->si);
	pt_vec_free(&g->grh);
	pt_vec_free(&g->done);
	pt_xbig_free(g->ps, g->nps * sizeof(*g->ps));
	for (size_t d = 0; d < g->nhl; d++) {
		free(g->hl[d].name);
		free(g->hl[d].call_s);
	}
	free(g->hl);
	free(g);
}

static void fit(struct tl_gsel *g, const struct pt_model *m)
{
	if (m->devices.n <= g->ndev)
		return;
	g->dev = pt_xrealloc(g->dev, m->devices.n * sizeof(*g->dev));
	memset(g->dev + g->ndev, 0, (m->devices.n - g->ndev) * sizeof(*g->dev));
	g->ndev = m->devices.n;
}

/* Does --device keep GPU device d? */
static bool dev_kept(const struct tl_gsel *g, const struct pt_model *m, uint32_t d)
{
	return d < m->devices.n && m->devices.v[d].kind == PT_DEV_GPU &&
	       (g->sel->device < 0 || (int64_t)m->devices.v[d].id == g->sel->device);
}

void tl_gsel_event(struct tl_gsel *g, const struct pt_model *m, const struct pt_events *ev, size_t i, uint64_t gi,
		   bool step)
{
	uint32_t d = m->tracks.v[ev->track[i]].device;
	int64_t st = ev->start[i];
	if (d >= g->ndev)
		fit(g, m);
	pt_steps_devscan_add(&g->dev[d], ev->kind[i], st, ev->dur[i]);
	if (step && ev->kind[i] == PT_EV_RANGE && m->devices.v[d].kind == PT_DEV_CPU) {
		struct pt_steps_grange r = { st, st + ev->dur[i], pt_steps_name_number(pt_model_strget(m, ev->name[i])),
					     (size_t)gi };
		if (!g->gr.n)
			g->host0 = d;
		else if (d != g->host0 && !g->grh.n) /* a second host: the ranges so far are the first's */
			for (size_t k = 0; k < g->gr.n; k++)
				pt_vec_push(&g->grh, g->host0);
		if (g->grh.n || d != g->host0)
			pt_vec_push(&g->grh, d);
		pt_vec_push(&g->gr, r);
	}
}

/* Does host (CPU device) h have a step range? */
static bool has_range(const struct tl_gsel *g, uint32_t h)
{
	if (!g->grh.n)
		return g->gr.n && g->host0 == h;
	for (size_t k = 0; k < g->grh.n; k++)
		if (g->grh.v[k] == h)
			return true;
	return false;
}

/* Several processes: can each rank's steps be counted by process (every GPU device's process recorded
 * with a host of its own, no two hosts of one process)? Sets launches: a host without step ranges. */
static bool multi_streams(struct tl_gsel *g, const struct pt_model *m)
{
	g->launches = false;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *v = &m->devices.v[d];
		uint32_t h = pt_model_host_of_pid(m, v->pid);
		if (h == UINT32_MAX || (v->kind == PT_DEV_CPU && h != d))
			return false;
		if (v->kind == PT_DEV_CPU && !has_range(g, d))
			g->launches = true;
	}
	g->multi = true;
	return true;
}

bool tl_gsel_streams(struct tl_gsel *g, const struct pt_model *m)
{
	size_t ncpu = 0;
	for (size_t d = 0; d < m->devices.n; d++)
		ncpu += m->devices.v[d].kind == PT_DEV_CPU;
	fit(g, m);
	if (ncpu > 1 && g->sel->steps_given) {
		if (multi_streams(g, m))
			return true;
		/* a device's host by the vote of its launches, or a process of two hosts: not by process */
		g->by_read = true;
		g->launches = false;
		return true;
	}
	/* several processes, a window alone: its note is of the events' span, the steps are not counted */
	g->no_steps = ncpu > 1;
	/* no step range on the host: `steps` numbers the iterations of the kernels' launches, which
	 * only --steps counts (a window's note is of the data's span) */
	g->launches = ncpu && !g->gr.n && g->sel->steps_given;
	return true;
}

/* The launches of the process read so far, to its host's few (the boundary rule's), the fold and the
 * calls' starts made ready for the next. */
static void take_launches(struct tl_gsel *g, const struct pt_model *m)
{
	uint32_t h = pt_model_host_of_pid(m, g->curpid);
	pt_vec_push(&g->done, g->curpid);
	g->has_cur = false;
	if (h == UINT32_MAX || h >= g->nhl) { /* (a device the first read did not see) */
		g->bad = true;
		return;
	}
	struct tl_glset L = tl_glfold_set(&g->lf);
	uint32_t *k = NULL;
	size_t n = g->ps ? tl_glset_boundary(&L, g->ps, &k) : 0;
	struct hlaunch *x = &g->hl[h];
	free(x->name); /* (a process met again: bad, the model is read whole) */
	free(x->call_s);
	x->n = n;
	x->name = pt_xmalloc((n ? n : 1) * sizeof(*x->name));
	x->call_s = pt_xmalloc((n ? n : 1) * sizeof(*x->call_s));
	for (size_t i = 0; i < n; i++) {
		struct tl_glaunch a = tl_glset_at(&L, k[i]);
		x->name[i] = a.name;
		x->call_s[i] = g->ps[a.slot];
	}
	free(k);
	tl_glfold_free(&g->lf);
	for (size_t i = 0; i < g->nps; i++)
		g->ps[i] = INT64_MIN;
}

/* A call or kernel of process pid in the second read: the launches of the one before it are taken when it
 * changes. */
static void section(struct tl_gsel *g, const struct pt_model *m, uint32_t pid, const struct pt_ljoin *j)
{
	if (g->has_cur && pid == g->curpid)
		return;
	if (g->has_cur)
		take_launches(g, m);
	for (size_t k = 0; k < g->done.n; k++)
		if (g->done.v[k] == pid)
			g->bad = true; /* its calls and kernels are not together in the file */
	if (!g->hl) {
		g->nhl = m->devices.n;
		g->hl = pt_xcalloc(g->nhl ? g->nhl : 1, sizeof(*g->hl));
	}
	if (!g->ps && j->n) {
		g->nps = j->n;
		g->ps = pt_xbig_grow(NULL, 0, g->nps * sizeof(*g->ps), false);
		for (size_t i = 0; i < g->nps; i++)
			g->ps[i] = INT64_MIN;
	}
	g->curpid = pid;
	g->has_cur = true;
}

void tl_gsel_kernel(struct tl_gsel *g, const struct pt_model *m, uint32_t d, uint64_t corr, uint32_t name,
		    const struct pt_ljoin *j)
{
	if (!g->launches || !dev_kept(g, m, d))
		return;
	size_t slot = pt_ljoin_slot(j, corr);
	if (slot == SIZE_MAX)
		return;
	if (g->multi)
		section(g, m, m->devices.v[d].pid, j);
	tl_glfold_add(&g->lf, j->n, (uint32_t)slot, name);
}

void tl_gsel_call(struct tl_gsel *g, const struct pt_model *m, uint32_t d, size_t slot, int64_t start,
		  const struct pt_ljoin *j)
{
	if (!g || !g->multi || !g->launches || d >= m->devices.n)
		return;
	section(g, m, m->devices.v[d].pid, j);
	if (slot < g->nps && g->ps[slot] == INT64_MIN)
		g->ps[slot] = start;
}

/* Launch k of L (pass-timeline-gsel.h, struct tl_glset); name 0 and slot UINT32_MAX: none. */
static struct tl_glaunch at(const struct tl_glset *L, size_t k)
{
	if (k >= L->nslot)
		return L->x[k - L->nslot];
	uint32_t c = L->n16 ? L->n16[k] : L->n32[k];
	return c ? (struct tl_glaunch){ (uint32_t)k, c - 1 } : (struct tl_glaunch){ UINT32_MAX, 0 };
}

struct tl_glaunch tl_glset_at(const struct tl_glset *L, size_t k)
{
	return at(L, k);
}

/* The launch order (pass-timeline-gsel.h, tl_gsel_boundary): the call's start, then its slot (id order),
 * then the order of the launches (file order within a slot). */
struct order {
	const struct tl_glset *L;
	const int64_t *start;
};

/* Launch k's call's start, INT64_MIN: no call (or no launch). */
static int64_t call_of(const struct order *o, uint32_t k)
{
	uint32_t slot = at(o->L, k).slot;
	return slot == UINT32_MAX ? INT64_MIN : o->start[slot];
}

/* Does launch a come before launch b? */
static bool before(const struct order *o, uint32_t a, uint32_t b)
{
	int64_t p = call_of(o, a), q = call_of(o, b);
	if (p != q)
		return p < q;
	uint32_t x = at(o->L, a).slot, y = at(o->L, b).slot;
	if (x != y)
		return x < y;
	return a < b;
}

static const struct order *sort_o;
static int cmp_launch(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return before(sort_o, a, b) ? -1 : before(sort_o, b, a);
}

size_t tl_gsel_boundary(const struct tl_glaunch *v, size_t n, const int64_t *start, uint32_t **out)
{
	struct tl_glset L = { v, n, NULL, NULL, 0 };
	return tl_glset_boundary(&L, start, out);
}

size_t tl_glset_boundary(const struct tl_glset *L, const int64_t *start, uint32_t **out)
{
	const uint32_t none = UINT32_MAX;
	struct order o = { L, start };
	size_t n = L->nslot + L->nx;
	*out = NULL;
	uint32_t first = none;
	size_t ns = 0;
	for (uint32_t k = 0; k < n; k++)
		if (call_of(&o, k) != INT64_MIN && (first == none || before(&o, k, first)))
			first = k;
	if (first == none)
		return 0;
	uint32_t s = at(L, first).name;
	for (uint32_t k = 0; k < n; k++)
		ns += call_of(&o, k) != INT64_MIN && at(L, k).name == s;
	uint32_t *l = pt_xmalloc((ns + 2) * sizeof(*l));
	*out = l;
	size_t nl = 0;
	for (uint32_t k = 0; k < n; k++)
		if (call_of(&o, k) != INT64_MIN && at(L, k).name == s)
			l[nl++] = k;
	sort_o = &o;
	pt_sort(l, nl, sizeof(*l), cmp_launch); /* (the launches of s: one a step) */
	sort_o = NULL;
	if (nl < 2)
		return nl;
	/* the launch just before the second of s: the first of s, or one of another kernel (e) */
	uint32_t second = l[1], last = l[nl - 1], pred = first;
	for (uint32_t k = 0; k < n; k++)
		if (call_of(&o, k) != INT64_MIN && before(&o, k, second) && before(&o, pred, k))
			pred = k;
	/* the first launch of e after the last of s */
	uint32_t e = at(L, pred).name, after = none;
	for (uint32_t k = 0; k < n && e != s; k++)
		if (call_of(&o, k) != INT64_MIN && at(L, k).name == e && before(&o, last, k) &&
		    (after == none || before(&o, k, after)))
			after = k;
	if (pred != first) {
		memmove(l + 2, l + 1, (nl - 1) * sizeof(*l));
		l[1] = pred;
		nl++;
	}
	if (after != none)
		l[nl++] = after;
	return nl;
}

/* The launches tl_glset_boundary() chose, as pass-steps.c reads them. */
struct lseq {
	const struct tl_glset *L;
	const int64_t *start;
	const uint32_t *k;
};

static uint32_t seq_name(const void *a, size_t i)
{
	const struct lseq *l = a;
	return at(l->L, l->k[i]).name;
}

static int64_t seq_call_s(const void *a, size_t i)
{
	const struct lseq *l = a;
	return l->start[at(l->L, l->k[i]).slot];
}

/* (the join keeps no ends: the last window ends at its call's start, which no note reads) */
static int64_t seq_call_e(const void *a, size_t i)
{
	return seq_call_s(a, i);
}

static uint32_t hl_name(const void *a, size_t i)
{
	return ((const struct hlaunch *)a)->name[i];
}

static int64_t hl_call(const void *a, size_t i)
{
	return ((const struct hlaunch *)a)->call_s[i];
}

/* Several processes: each rank's steps from its host's ranges, else its launches. */
static bool multi_steps(struct tl_gsel *g, const struct pt_model *m)
{
	if (g->has_cur)
		take_launches(g, m);
	if (g->bad)
		return false;
	size_t nd = m->devices.n;
	struct pt_steps_lseq *lseq = pt_xcalloc(nd ? nd : 1, sizeof(*lseq));
	for (size_t d = 0; d < g->nhl && d < nd; d++)
		if (g->hl[d].name)
			lseq[d] = (struct pt_steps_lseq){ g->hl[d].n, &g->hl[d], hl_name, hl_call, hl_call };
	if (!g->grh.n)
		for (size_t k = 0; k < g->gr.n; k++)
			pt_vec_push(&g->grh, g->host0);
	struct pt_steps_gscan gs = { g->dev, g->gr.v, g->gr.n, NULL };
	struct pt_steps_ghosts hs = { g->grh.v, g->launches ? lseq : NULL, NULL };
	struct pt_err *e = NULL;
	g->has_si = !pt_steps_collect_ghosts(m, g->sel, &gs, &hs, &g->si, NULL, &e);
	pt_err_free(e); /* a bad --step-pattern: the pass says so itself */
	free(lseq);
	pt_vec_free(&g->gr);
	pt_vec_free(&g->grh);
	return true;
}

bool tl_gsel_no_launches(const struct tl_gsel *g)
{
	return !g->launches;
}

bool tl_gsel_by_read(const struct tl_gsel *g)
{
	return g && g->by_read;
}

int tl_gsel_read_steps(struct tl_gsel *g, const char *path, bool *whole, struct pt_err **e)
{
	struct pt_model *ms = NULL, *w = NULL;
	struct pt_diag quiet = { 0 }; /* the steps' own notes: pt_sel_check() makes none of them */
	struct pt_steps_info si;
	memset(&si, 0, sizeof(si));
	int rc = pt_steps_stream_read(PT_PTM_SOURCE(path), g->sel, &ms, &si, NULL, NULL, &w, &quiet, e);
	pt_diag_free(&quiet);
	pt_model_free(ms);
	*whole = !rc && w;
	pt_model_free(w); /* (the timeline's own whole load follows) */
	if (rc || *whole) {
		pt_steps_info_free(&si);
		return rc;
	}
	g->si = si;
	g->has_si = true;
	pt_xtrim(); /* what the steps' reads held, before the timeline's */
	return 0;
}

bool tl_gsel_steps(struct tl_gsel *g, const struct pt_model *m, const struct pt_ljoin *j)
{
	fit(g, m);
	if (g->by_read) { /* (tl_gsel_read_steps made them) */
		pt_vec_free(&g->gr);
		pt_vec_free(&g->grh);
		return true;
	}
	if (g->multi)
		return multi_steps(g, m);
	if (g->no_steps) { /* no steps, the model's origin */
		pt_vec_free(&g->gr);
		bool any = false;
		int64_t mn = 0;
		for (size_t d = 0; d < g->ndev; d++)
			if (g->dev[d].has_any && (!any || g->dev[d].min_start < mn)) {
				mn = g->dev[d].min_start;
				any = true;
			}
		memset(&g->si, 0, sizeof(g->si));
		g->si.origin = pt_model_origin(m, any ? &mn : NULL);
		g->si.filtered = true;
		g->has_si = true;
		return true;
	}
	struct tl_glset L = tl_glfold_set(&g->lf);
	struct lseq l = { &L, j->start, NULL };
	struct pt_steps_lseq q = { 0, &l, seq_name, seq_call_s, seq_call_e };
	uint32_t *k = NULL;
	if (g->launches)
		q.n = tl_glset_boundary(&L, j->start, &k);
	l.k = k;
	struct pt_steps_gscan gs = { g->dev, g->gr.v, g->gr.n, g->launches ? &q : NULL };
	struct pt_err *e = NULL;
	g->has_si = !pt_steps_collect_gscan(m, g->sel, &gs, &g->si, NULL, &e);
	pt_err_free(e); /* a bad --step-pattern: the pass says so itself */
	free(k);
	tl_glfold_free(&g->lf);
	pt_vec_free(&g->gr);
	return true;
}

void tl_gsel_check(const struct tl_gsel *g, const struct pt_model *m, const struct pt_sel *sel,
		   const struct pt_sel_found *rf, const int64_t *span, struct pt_diag *d)
{
	pt_sel_check_scanned(m, sel, rf, span, g && g->has_si ? &g->si : NULL, d);
}
