/*
 * --steps and --time-window on the streamed GPU timeline: the steps the
 * selection's notes count (pass-timeline-gsel.h).
 */
#include "pass/pass-timeline-gsel.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "pass/launch-join.h"
#include "pass/pass-steps-int.h"
#include "pass/pass-steps.h"
#include "pass/select.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* A kernel's launch: its join slot, its name. */
struct lrec {
	uint32_t slot, name;
};

struct tl_gsel {
	const struct pt_sel *sel;
	struct pt_steps_devscan *dev; /* per device: its events' span (first read) */
	size_t ndev;
	PT_VEC(struct pt_steps_grange) gr; /* the step ranges of the CPU devices, in the file's order */
	uint64_t nk;                       /* the first read's kernels of the devices --device keeps */
	bool launches;                     /* the second read keeps the kernels' launches (lr, nk of them) */
	struct lrec *lr;                   /* in the file's order (pt_xbig_grow: its pages go back when freed) */
	size_t nlr, caplr;
	bool has_si;
	struct pt_steps_info si;
};

struct tl_gsel *tl_gsel_new(const struct pt_sel *sel)
{
	if (!sel->steps_given && !sel->window_given)
		return NULL;
	struct tl_gsel *g = pt_xcalloc(1, sizeof(*g));
	g->sel = sel;
	return g;
}

static void lr_free(struct tl_gsel *g)
{
	pt_xbig_free(g->lr, g->caplr * sizeof(*g->lr));
	g->lr = NULL;
	g->nlr = g->caplr = 0;
}

/* Room for n launches (the second read may find more kernels than the first, in a file that grew). */
static void lr_fit(struct tl_gsel *g, size_t n)
{
	if (n <= g->caplr)
		return;
	size_t cap = g->caplr ? 2 * g->caplr : n;
	g->lr = pt_xbig_grow(g->lr, g->caplr * sizeof(*g->lr), (cap > n ? cap : n) * sizeof(*g->lr), true);
	g->caplr = cap > n ? cap : n;
}

void tl_gsel_free(struct tl_gsel *g)
{
	if (!g)
		return;
	free(g->dev);
	pt_vec_free(&g->gr);
	lr_free(g);
	if (g->has_si)
		pt_steps_info_free(&g->si);
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
	if (ev->kind[i] == PT_EV_KERNEL && dev_kept(g, m, d))
		g->nk++;
	if (step && ev->kind[i] == PT_EV_RANGE && m->devices.v[d].kind == PT_DEV_CPU) {
		struct pt_steps_grange r = { st, st + ev->dur[i], pt_steps_name_number(pt_model_strget(m, ev->name[i])),
					     (size_t)gi };
		pt_vec_push(&g->gr, r);
	}
}

bool tl_gsel_streams(struct tl_gsel *g, const struct pt_model *m)
{
	size_t ncpu = 0;
	for (size_t d = 0; d < m->devices.n; d++)
		ncpu += m->devices.v[d].kind == PT_DEV_CPU;
	if (ncpu > 1)
		return false;
	fit(g, m);
	/* no step range on the host: `steps` numbers the iterations of the kernels' launches, which
	 * only --steps counts (a window's note is of the data's span) */
	g->launches = ncpu && !g->gr.n && g->sel->steps_given;
	if (g->launches && g->nk)
		lr_fit(g, g->nk);
	return true;
}

void tl_gsel_kernel(struct tl_gsel *g, const struct pt_model *m, uint32_t d, uint64_t corr, uint32_t name,
		    const struct pt_ljoin *j)
{
	if (!g->launches || !dev_kept(g, m, d))
		return;
	size_t slot = pt_ljoin_slot(j, corr);
	if (slot == SIZE_MAX)
		return;
	lr_fit(g, g->nlr + 1);
	g->lr[g->nlr++] = (struct lrec){ (uint32_t)slot, name };
}

/*
 * The iteration-boundary rule (pass-steps.c, boundaries()) reads the launches
 * in launch order: the first one's kernel s, where it is launched again, the
 * launch just before its second launch (kernel e), and the first launch of e
 * after the last of s. Those few launches, in order, make the same windows as
 * all of them: found in a few passes over the launches, with no sort of them
 * (whose scratch would double them). Launch order: the call's start, then its
 * id (slot order is id order), then the file's order.
 */
struct lseq {
	const struct tl_gsel *g;
	const struct pt_ljoin *j;
	uint32_t *v; /* indexes into g->lr */
};

static int64_t call_of(const struct tl_gsel *g, const struct pt_ljoin *j, uint32_t k)
{
	return j->start[g->lr[k].slot];
}

/* Does launch a come before launch b? */
static bool before(const struct tl_gsel *g, const struct pt_ljoin *j, uint32_t a, uint32_t b)
{
	int64_t p = call_of(g, j, a), q = call_of(g, j, b);
	if (p != q)
		return p < q;
	if (g->lr[a].slot != g->lr[b].slot)
		return g->lr[a].slot < g->lr[b].slot;
	return a < b;
}

static uint32_t seq_name(const void *a, size_t i)
{
	const struct lseq *l = a;
	return l->g->lr[l->v[i]].name;
}

static int64_t seq_call_s(const void *a, size_t i)
{
	const struct lseq *l = a;
	return call_of(l->g, l->j, l->v[i]);
}

/* (the join keeps no ends: the last window ends at its call's start, which no note reads) */
static int64_t seq_call_e(const void *a, size_t i)
{
	return seq_call_s(a, i);
}

static const struct tl_gsel *sort_g;
static const struct pt_ljoin *sort_j;
static int cmp_launch(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return before(sort_g, sort_j, a, b) ? -1 : before(sort_g, sort_j, b, a);
}

/* The launches that make the rule's windows, in launch order, into l->v[0..return). */
static size_t boundary_launches(const struct tl_gsel *g, const struct pt_ljoin *j, struct lseq *l)
{
	const uint32_t none = UINT32_MAX;
	uint32_t first = none;
	size_t ns = 0;
	for (uint32_t k = 0; k < g->nlr; k++)
		if (call_of(g, j, k) != INT64_MIN && (first == none || before(g, j, k, first)))
			first = k;
	if (first == none)
		return 0;
	uint32_t s = g->lr[first].name;
	for (uint32_t k = 0; k < g->nlr; k++)
		ns += call_of(g, j, k) != INT64_MIN && g->lr[k].name == s;
	l->v = pt_xmalloc((ns + 2) * sizeof(*l->v));
	size_t n = 0;
	for (uint32_t k = 0; k < g->nlr; k++)
		if (call_of(g, j, k) != INT64_MIN && g->lr[k].name == s)
			l->v[n++] = k;
	sort_g = g;
	sort_j = j;
	pt_sort(l->v, n, sizeof(*l->v), cmp_launch); /* (the launches of s: one a step) */
	sort_g = NULL;
	sort_j = NULL;
	if (n < 2)
		return n;
	/* the launch just before the second of s (the first of s, or one of another kernel) */
	uint32_t second = l->v[1], last = l->v[n - 1], pred = first;
	for (uint32_t k = 0; k < g->nlr; k++)
		if (call_of(g, j, k) != INT64_MIN && before(g, j, k, second) && before(g, j, pred, k))
			pred = k;
	uint32_t e = g->lr[pred].name, after = none;
	for (uint32_t k = 0; k < g->nlr && e != s; k++)
		if (call_of(g, j, k) != INT64_MIN && g->lr[k].name == e && before(g, j, last, k) &&
		    (after == none || before(g, j, k, after)))
			after = k;
	if (pred != first) {
		memmove(l->v + 2, l->v + 1, (n - 1) * sizeof(*l->v));
		l->v[1] = pred;
		n++;
	}
	if (after != none)
		l->v[n++] = after;
	return n;
}

void tl_gsel_steps(struct tl_gsel *g, const struct pt_model *m, const struct pt_ljoin *j)
{
	fit(g, m);
	struct lseq l = { g, j, NULL };
	struct pt_steps_lseq q = { 0, &l, seq_name, seq_call_s, seq_call_e };
	if (g->launches)
		q.n = boundary_launches(g, j, &l);
	struct pt_steps_gscan gs = { g->dev, g->gr.v, g->gr.n, g->launches ? &q : NULL };
	struct pt_err *e = NULL;
	g->has_si = !pt_steps_collect_gscan(m, g->sel, &gs, &g->si, NULL, &e);
	pt_err_free(e); /* a bad --step-pattern: the pass says so itself */
	free(l.v);
	lr_free(g);
	pt_vec_free(&g->gr);
}

void tl_gsel_check(const struct tl_gsel *g, const struct pt_model *m, const struct pt_sel *sel,
		   const struct pt_sel_found *rf, const int64_t *span, struct pt_diag *d)
{
	pt_sel_check_scanned(m, sel, rf, span, g && g->has_si ? &g->si : NULL, d);
}
