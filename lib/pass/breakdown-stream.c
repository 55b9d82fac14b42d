/*
 * Streamed window breakdown (breakdown-stream.h).
 *
 * The window end points, sorted and made unique, are the only times asked
 * about: F(p) = |U ∩ (-inf, p)| for each union U and point p, so that
 * |U ∩ [s, e)| = F(e) - F(s). A union is swept in start order: its current
 * run [cs, ce) grows while the next interval starts at or before ce; once one
 * starts after it, the run is final and the points up to its end are
 * answered. Marks: a mark at t counts for every point p > t (a difference
 * array, summed once at the end).
 */
#include "pass/breakdown-stream.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

struct sweep {
	bool has;
	int64_t cs, ce; /* the current run */
	int64_t cum;    /* measure of the final runs */
	size_t next;    /* first point not answered yet */
	int64_t *f;     /* per point */
};

/* Intervals of one class waiting to be swept, in the order they came. */
struct pendv {
	struct pt_ival *v;
	size_t n, cap;
};

struct pt_bdstream {
	size_t nwin, np, nmarks;
	size_t *wa, *wb; /* per window: point index of its start and end */
	bool *wok;       /* the window is not empty */
	int64_t *pts;
	struct sweep u[3]; /* C, M, C ∪ M */
	uint64_t *marks;   /* nmarks x (np + 1) differences, then prefix sums */
	uint64_t *nmark;
	struct pendv p[2]; /* per class, waiting */
	size_t peak;
	size_t mcur;       /* the point index of the last mark (marks come mostly in time order) */
	bool finished;
	void (*run)(void *arg, int k, int64_t a, int64_t b); /* pt_bdstream_new_runs() */
	void *run_arg;
};

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* First point index with pts[i] >= t (upper: > t). */
static size_t lower(const int64_t *p, size_t n, int64_t t, bool upper)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid] < t || (upper && p[mid] == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct pt_bdstream *pt_bdstream_new(const struct pt_ival *win, size_t nwin, size_t nmarks)
{
	struct pt_bdstream *s = pt_xcalloc(1, sizeof(*s));
	s->nwin = nwin;
	s->nmarks = nmarks;
	size_t n1 = nwin ? nwin : 1;
	s->wa = pt_xmalloc(n1 * sizeof(*s->wa));
	s->wb = pt_xmalloc(n1 * sizeof(*s->wb));
	s->wok = pt_xcalloc(n1, sizeof(*s->wok));
	s->pts = pt_xmalloc(2 * n1 * sizeof(*s->pts));
	size_t np = 0;
	for (size_t i = 0; i < nwin; i++)
		if (win[i].e > win[i].s) {
			s->pts[np++] = win[i].s;
			s->pts[np++] = win[i].e;
		}
	qsort(s->pts, np, sizeof(*s->pts), cmp_i64);
	size_t u = 0;
	for (size_t i = 0; i < np; i++)
		if (!u || s->pts[u - 1] != s->pts[i])
			s->pts[u++] = s->pts[i];
	s->np = u;
	for (size_t i = 0; i < nwin; i++) {
		s->wok[i] = win[i].e > win[i].s;
		s->wa[i] = s->wok[i] ? lower(s->pts, u, win[i].s, false) : 0;
		s->wb[i] = s->wok[i] ? lower(s->pts, u, win[i].e, false) : 0;
	}
	for (size_t k = 0; k < 3; k++)
		s->u[k].f = pt_xcalloc(u ? u : 1, sizeof(*s->u[k].f));
	s->marks = pt_xcalloc((nmarks ? nmarks : 1) * (u + 1), sizeof(*s->marks));
	s->nmark = pt_xcalloc(nmarks ? nmarks : 1, sizeof(*s->nmark));
	return s;
}

struct pt_bdstream *pt_bdstream_new_runs(void (*run)(void *arg, int k, int64_t a, int64_t b), void *arg)
{
	struct pt_bdstream *s = pt_bdstream_new(NULL, 0, 0);
	s->run = run;
	s->run_arg = arg;
	return s;
}

void pt_bdstream_free(struct pt_bdstream *s)
{
	if (!s)
		return;
	free(s->wa);
	free(s->wb);
	free(s->wok);
	free(s->pts);
	for (size_t k = 0; k < 3; k++)
		free(s->u[k].f);
	free(s->marks);
	free(s->nmark);
	free(s->p[0].v);
	free(s->p[1].v);
	free(s);
}

/* The run [a, b) of u is final: answer the points up to b. */
static void run_done(struct pt_bdstream *s, struct sweep *u, int64_t a, int64_t b)
{
	const int64_t *p = s->pts;
	if (s->run)
		s->run(s->run_arg, (int)(u - s->u), a, b);
	while (u->next < s->np && p[u->next] <= a)
		u->f[u->next++] = u->cum;
	while (u->next < s->np && p[u->next] < b) {
		u->f[u->next] = u->cum + (p[u->next] - a);
		u->next++;
	}
	u->cum += b - a;
}

static void sweep_add(struct pt_bdstream *s, struct sweep *u, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	if (u->has && a <= u->ce) {
		if (b > u->ce)
			u->ce = b;
		return;
	}
	if (u->has)
		run_done(s, u, u->cs, u->ce);
	u->has = true;
	u->cs = a;
	u->ce = b;
}

static void sweep_end(struct pt_bdstream *s, struct sweep *u)
{
	if (u->has)
		run_done(s, u, u->cs, u->ce);
	u->has = false;
	while (u->next < s->np)
		u->f[u->next++] = u->cum;
}

void pt_bdstream_add(struct pt_bdstream *s, int cls, int64_t start, int64_t end)
{
	if ((cls != 1 && cls != 2) || end <= start)
		return;
	struct pendv *p = &s->p[cls - 1];
	pt_xgrow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n++] = (struct pt_ival){ start, end };
	if (s->p[0].n + s->p[1].n > s->peak)
		s->peak = s->p[0].n + s->p[1].n;
}

static void sort_iv(struct pt_ival *v, size_t n)
{
	if (n > 32) {
		pt_ival_sort(v, n);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct pt_ival t = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1].s > t.s; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* Move the intervals of p starting before `below` to its front, sorted by start; their count. */
static size_t take_before(struct pendv *p, int64_t below)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].s < below) {
			struct pt_ival t = p->v[i];
			p->v[i] = p->v[k];
			p->v[k++] = t;
		}
	sort_iv(p->v, k);
	return k;
}

/* Sweep the first k0 of class 1 and k1 of class 2 (each sorted), in start order, and drop them. */
static void sweep_front(struct pt_bdstream *s, size_t k0, size_t k1)
{
	const struct pt_ival *a = s->p[0].v, *b = s->p[1].v;
	size_t i = 0, j = 0;
	while (i < k0 || j < k1) {
		if (j >= k1 || (i < k0 && a[i].s <= b[j].s)) {
			sweep_add(s, &s->u[0], a[i].s, a[i].e);
			sweep_add(s, &s->u[2], a[i].s, a[i].e);
			i++;
		} else {
			sweep_add(s, &s->u[1], b[j].s, b[j].e);
			sweep_add(s, &s->u[2], b[j].s, b[j].e);
			j++;
		}
	}
	for (int c = 0; c < 2; c++) {
		struct pendv *p = &s->p[c];
		size_t k = c ? k1 : k0;
		if (k && p->n > k)
			memmove(p->v, p->v + k, (p->n - k) * sizeof(*p->v));
		p->n -= k;
		/* a long pending list that emptied: give its memory back */
		if (!p->n && p->cap > 4096) {
			free(p->v);
			p->v = NULL;
			p->cap = 0;
		}
	}
}

void pt_bdstream_release(struct pt_bdstream *s, int64_t below)
{
	size_t k0 = take_before(&s->p[0], below), k1 = take_before(&s->p[1], below);
	sweep_front(s, k0, k1);
}

void pt_bdstream_mark(struct pt_bdstream *s, size_t k, int64_t t)
{
	if (k >= s->nmarks)
		return;
	s->nmark[k]++;
	/* the point index after t: the last one's when t still falls there */
	size_t p = s->mcur;
	if (!((p == 0 || s->pts[p - 1] <= t) && (p == s->np || t < s->pts[p])))
		p = s->mcur = lower(s->pts, s->np, t, true);
	s->marks[k * (s->np + 1) + p]++;
}

void pt_bdstream_finish(struct pt_bdstream *s)
{
	if (s->finished)
		return;
	pt_bdstream_release(s, INT64_MAX);
	for (size_t k = 0; k < 3; k++)
		sweep_end(s, &s->u[k]);
	for (size_t k = 0; k < s->nmarks; k++) {
		uint64_t *m = s->marks + k * (s->np + 1);
		for (size_t i = 1; i <= s->np; i++)
			m[i] += m[i - 1];
	}
	s->finished = true;
}

void pt_bdstream_window(const struct pt_bdstream *s, size_t i, struct pt_bdsums *out)
{
	memset(out, 0, sizeof(*out));
	if (i >= s->nwin || !s->wok[i])
		return;
	size_t a = s->wa[i], b = s->wb[i];
	out->comp = s->u[0].f[b] - s->u[0].f[a];
	out->comm = s->u[1].f[b] - s->u[1].f[a];
	out->either = s->u[2].f[b] - s->u[2].f[a];
	out->total = s->pts[b] - s->pts[a];
}

uint64_t pt_bdstream_count(const struct pt_bdstream *s, size_t i, size_t k)
{
	if (i >= s->nwin || k >= s->nmarks || !s->wok[i])
		return 0;
	const uint64_t *m = s->marks + k * (s->np + 1);
	/* marks before point p: the differences at 0 .. p */
	return m[s->wb[i]] - m[s->wa[i]];
}

uint64_t pt_bdstream_marks(const struct pt_bdstream *s, size_t k)
{
	return k < s->nmarks ? s->nmark[k] : 0;
}

size_t pt_bdstream_pending(const struct pt_bdstream *s, size_t *peak)
{
	if (peak)
		*peak = s->peak;
	return s->p[0].n + s->p[1].n;
}

void pt_bdsums_breakdown(const struct pt_bdsums *m, struct pt_breakdown *out)
{
	memset(out, 0, sizeof(*out));
	out->computation = m->comp;
	out->communication = m->comm;
	out->overlapped = m->comp + m->comm - m->either;
	out->comm_not_overlapped = m->comm - out->overlapped;
	out->free = m->total - m->either;
}
