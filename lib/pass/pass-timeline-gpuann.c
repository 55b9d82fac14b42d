/*
 * The kineto profile's gpu_user_annotation events (cupti.md §7.3): a user
 * annotation projected on each stream where GPU work it launched ran.
 *
 * As Kineto: a GPU activity belongs to the innermost user annotation that
 * encloses its launching call (PyTorch's user correlation, CUPTI's CUSTOM1
 * external correlation, is the top of a stack of user scopes), not to the
 * operators (cpu_op) inside it. A user annotation is a host range of any type
 * but Operator, OperatorInner, PythonOp and Communication (summary.md §1.1):
 * ProfilerStep#N, record_function scopes, NVTX ranges. Its event on a stream
 * spans the first start to the last end of its kept activities there (kernels,
 * copies and sets; Kineto's handling of synchronizations adds none), written
 * 1 ns earlier and 2 ns longer so that it encloses them in viewers, on the
 * stream's row (lane 0), without arguments. A process imported from a Kineto
 * trace gets them only when its trace had them (import fact
 * kineto.gpu_user_annotations_skipped): older Kineto versions wrote none, and
 * a round trip should be read as its original.
 *
 * Readers depend on them: HolisticTraceAnalysis counts these events (they
 * carry no "stream") as CPU events, so the last ProfilerStep it sees, and with
 * it the kernels it keeps, move with them.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "model/ptm.h"
#include "pass/launch-join.h"
#include "pass/pass-timeline-korder.h"
#include "pass/pass-timeline-krange.h"
#include "pass/pass-timeline-trace.h"
#include "support/hashmap.h"
#include "support/lag.h"
#include "support/sort.h"
#include "support/xalloc.h"

struct rng { /* a host range, for the nesting sweep */
	uint32_t track, ev;
	int64_t s, e;
	bool user;
};

static int rng_cmp(const void *pa, const void *pb)
{
	const struct rng *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1; /* the enclosing one first */
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

static int gann_cmp(const void *pa, const void *pb)
{
	const struct tl_gann *a = pa, *b = pb;
	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->range < b->range ? -1 : a->range > b->range;
}

static bool user_type(const char *t)
{
	return strcmp(t, "Operator") && strcmp(t, "OperatorInner") && strcmp(t, "PythonOp") &&
	       strcmp(t, "Communication");
}

/* Per host range event (key event + 1): its innermost user annotation + 1 (itself when it is one). */
static void user_ancestors(const struct pt_model *m, struct pt_hashmap *ua)
{
	size_t n = m->ranges.n;
	struct rng *v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (ri->event >= m->events.n)
			continue;
		uint32_t e = ri->event;
		v[k++] = (struct rng){ m->events.track[e], e, m->events.start[e], m->events.start[e] + m->events.dur[e],
				       user_type(pt_model_strget(m, ri->type)) };
	}
	pt_sort(v, k, sizeof(*v), rng_cmp);
	uint32_t *stack = pt_xmalloc((k ? k : 1) * sizeof(*stack)); /* indexes into v */
	uint64_t *up = pt_xmalloc((k ? k : 1) * sizeof(*up));       /* per v: its user annotation + 1, 0 = none */
	size_t sp = 0;
	for (size_t i = 0; i < k; i++) {
		if (i && v[i].track != v[i - 1].track)
			sp = 0;
		while (sp && v[stack[sp - 1]].e <= v[i].s)
			sp--;
		up[i] = v[i].user ? (uint64_t)v[i].ev + 1 : sp ? up[stack[sp - 1]] : 0;
		stack[sp++] = (uint32_t)i;
		if (up[i])
			*pt_hashmap_put(ua, (uint64_t)v[i].ev + 1, 0, NULL) = up[i];
	}
	free(up);
	free(stack);
	free(v);
}

bool tl_gpu_annotations_wanted(const struct pt_model *m, uint32_t dev)
{
	return pt_model_stat_get(m, (int32_t)dev, "kineto.events", -1) < 0 ||
	       pt_model_stat_get(m, (int32_t)dev, "kineto.gpu_user_annotations_skipped", 0);
}

/* Activity [s, e) of annotation range on row (or track) row into the spans v (at: (range, row) -> index + 1). */
static void span_add(struct pt_hashmap *at, struct tl_gann **v, size_t *n, size_t *cap, uint32_t range, uint32_t row,
		     int64_t s, int64_t e)
{
	bool added;
	uint64_t *p = pt_hashmap_put(at, (uint64_t)range << 32 | row, 0, &added);
	if (added) {
		pt_xgrow((void **)v, cap, *n + 1, sizeof(**v));
		(*v)[(*n)++] = (struct tl_gann){ range, row, s, e };
		*p = *n;
		return;
	}
	struct tl_gann *a = &(*v)[*p - 1];
	if (s < a->s)
		a->s = s;
	if (e > a->e)
		a->e = e;
}

/* Per track its stream row (lane 0), UINT32_MAX none. */
static uint32_t *stream_rows(const struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	uint32_t *row_of = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*row_of));
	memset(row_of, 0xff, (m->tracks.n ? m->tracks.n : 1) * sizeof(*row_of));
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->type == R_TRACK && !rw->host && !rw->lane && row_of[rw->track] == UINT32_MAX)
			row_of[rw->track] = (uint32_t)r;
	}
	return row_of;
}

static void build_streamed(struct tl_trace *c, struct tl_gast *g);

void tl_build_gpu_annotations(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	if (c->kineto && c->tl->gstream) {
		struct tl_gast *g = tl_gstream_gast(c->tl->gstream);
		if (g)
			build_streamed(c, g);
		return;
	}
	if (!c->kineto || !m->links.n || !m->ranges.n)
		return;
	uint32_t *row_of = stream_rows(c);
	int8_t *want = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1); /* per CPU device: 0 unknown, 1 yes, -1 no */
	struct pt_hashmap ua, at; /* at: (annotation, row) -> index into c->ganns + 1 */
	pt_hashmap_init(&ua);
	pt_hashmap_init(&at);
	user_ancestors(m, &ua);
	for (size_t l = 0; l < m->links.n; l++) {
		const struct pt_gpu_link *lk = &m->links.v[l];
		uint32_t g = lk->event;
		if (!lk->range || g >= m->events.n || !(c->tl->ev_keep[g] & 1))
			continue;
		uint8_t k = m->events.kind[g]; /* Kineto's GPU activities: not synchronizations */
		if (k != PT_EV_KERNEL && k != PT_EV_MEMCPY && k != PT_EV_MEMSET)
			continue;
		uint64_t *u = pt_hashmap_get(&ua, lk->range);
		uint32_t row = row_of[m->events.track[g]];
		if (!u || row == UINT32_MAX)
			continue;
		uint32_t dev = m->tracks.v[m->events.track[*u - 1]].device;
		if (!want[dev])
			want[dev] = tl_gpu_annotations_wanted(m, dev) ? 1 : -1;
		if (want[dev] < 0)
			continue;
		int64_t s = m->events.start[g];
		span_add(&at, &c->ganns.v, &c->ganns.n, &c->ganns.cap, (uint32_t)(*u - 1), row, s, s + m->events.dur[g]);
	}
	pt_hashmap_free(&at);
	pt_hashmap_free(&ua);
	free(want);
	free(row_of);
	pt_sort(c->ganns.v, c->ganns.n, sizeof(*c->ganns.v), gann_cmp);
}

void tl_gpu_annotation_sources(struct tl_trace *c)
{
	size_t n = c->ganns.n;
	if (!n)
		return;
	c->gann_idx = pt_xmalloc(n * sizeof(*c->gann_idx));
	for (size_t i = 0; i < n; i++)
		c->gann_idx[i] = (uint32_t)i;
	for (size_t i = 0; i < n;) {
		uint32_t row = c->ganns.v[i].row;
		size_t j = i;
		while (j < n && c->ganns.v[j].row == row)
			j++;
		struct src s = { .ph = PH_G, .pid = c->rows.v[row].pid, .tid = c->rows.v[row].tid, .ref = row,
				 .n = j - i, .items = c->gann_idx + i };
		pt_vec_push(&c->srcs, s);
		i = j;
	}
}

int64_t tl_gpu_annotation_ts(const struct tl_trace *c, uint32_t i)
{
	const struct tl_gann *a = &c->ganns.v[i];
	int64_t ts = a->s - 1 + c->rows.v[a->row].off - c->base;
	return ts < 0 ? 0 : ts;
}

uint32_t tl_gpu_annotation_event(const struct tl_trace *c, uint32_t i, struct pt_trace_ev *out)
{
	const struct tl_gann *a = &c->ganns.v[i];
	int64_t ts = a->s - 1 + c->rows.v[a->row].off - c->base;
	out->ph = PT_PH_X;
	out->row = a->row;
	out->ts = ts < 0 ? 0 : ts;
	out->dur = a->e - a->s + 2 + (ts < 0 ? ts : 0);
	return a->range;
}

/* ------------------------------------------------------------------ a streamed GPU model's */

/*
 * The same events of a GPU model read as a stream (pass-timeline-gstream.c,
 * proftool-timeline(1) MEMORY), without holding its ranges or its links:
 *  - its first read packs the links that name a host range (tl_klink, about
 *    2 bytes a link; held and sorted by activity where they leave its order,
 *    an activity linked twice: pass-timeline-korder.h) and, per track, how far
 *    its host ranges' starts fall back
 *    in the file (support/lag.h);
 *  - the ranges those links name become the keys of a join (launch-join.h:
 *    presence bits where they are dense, 1.5 bits an event of their span);
 *  - a read of its own nests each track's ranges that have a range info, in
 *    the sweep's order (start, longer first, event) through a queue released
 *    below the track's lag, and gives each named range its innermost user
 *    annotation: what the writer reads of it (struct gattr), made once an
 *    annotation that some named range has, held by the stack entry of the
 *    annotation while its inner ranges come;
 *  - the third read adds each kept kernel, copy and set whose link names a
 *    range with an annotation to that annotation's span on its track.
 * What grows with the input: the packed links, 4 bytes a named range, and the
 * annotations with work (32 bytes each) and their spans (24 bytes, plus the
 * hash map's slot, per annotation and stream), the events the profile writes.
 */

struct gattr { /* an annotation, as the writer reads it */
	uint32_t ev, name, dev, step;
	uint64_t xid; /* its range info's id */
	uint8_t is_step;
};

struct gq { /* a track's ranges with a range info not yet nested, in the sweep's order from h */
	struct grng {
		int64_t s, e;
		uint64_t xid;
		uint32_t ev, name;
		bool user;
	} *v;
	size_t h, n, cap;
};

struct gstk { /* a range open in the sweep */
	int64_t s, e;
	uint64_t xid;
	uint32_t ev, name;
	int32_t up;    /* the stack place of its innermost user annotation (itself where it is one), -1 none */
	uint32_t attr; /* a user annotation's gattr index + 1, once a named range has it */
};

struct tl_gast {
	struct tl_klink lk;
	struct tl_kls ls;   /* the links while out of activity order (pass-timeline-korder.h) */
	int8_t on;          /* the links are packed: 0 not known yet, 1 yes, -1 no (no process gets annotations) */
	struct pt_lag *rlag; /* per track: its range events' starts in file order (first read) */
	size_t nt;
	struct pt_ljoin named; /* the ranges the links name (event index + 1) */
	uint32_t *annv;     /* per named slot: its annotation's gattr index + 1, 0 none */
	PT_VEC(struct gattr) at;
	struct pt_hashmap acc; /* (gattr, track) -> index into g + 1 */
	PT_VEC(struct tl_gann) g; /* the spans (range: the gattr, then its index in event order; row: the track) */
	/* the nesting read */
	const struct pt_tl *tl;
	const regex_t *re;
	struct tl_krange kr;
	uint64_t base;
	struct gq *q;
	bool *seen;
	int64_t *top;
	PT_VEC(struct gstk) *stk;
	size_t *cur;
	int8_t *want;    /* per device: 0 unknown, 1 gets annotations, -1 not */
	uint8_t *isstep; /* per string: 0 unknown, 1 no step name, 2 a step name */
	bool bad;
};

struct tl_gast *tl_gast_new(void)
{
	struct tl_gast *g = pt_xcalloc(1, sizeof(*g));
	pt_ljoin_init(&g->named);
	pt_hashmap_init(&g->acc);
	return g;
}

void tl_gast_free(struct tl_gast *g)
{
	if (!g)
		return;
	tl_kpack_free(&g->lk.p);
	tl_kls_free(&g->ls);
	free(g->rlag);
	pt_ljoin_free(&g->named);
	free(g->annv);
	pt_vec_free(&g->at);
	pt_hashmap_free(&g->acc);
	pt_vec_free(&g->g);
	free(g);
}

void tl_gast_range(struct tl_gast *g, uint32_t track, int64_t start)
{
	if (track >= g->nt) {
		size_t nt = (size_t)track + 1;
		g->rlag = pt_xrealloc(g->rlag, nt * sizeof(*g->rlag));
		memset(g->rlag + g->nt, 0, (nt - g->nt) * sizeof(*g->rlag));
		g->nt = nt;
	}
	pt_lag_add(&g->rlag[track], start);
}

void tl_gast_links(struct tl_gast *g, const struct pt_model *m, bool wanted)
{
	if (!g->on)
		g->on = wanted ? 1 : -1;
	if (g->on > 0)
		tl_kls_take(&g->ls, &g->lk, m);
}

bool tl_gast_seal(struct tl_gast *g)
{
	if (g->on <= 0 || g->bad)
		return false;
	tl_kls_seal(&g->ls, &g->lk);
	tl_kpack_fit(&g->lk.p);
	tl_klink_rewind(&g->lk);
	for (uint32_t r; (r = tl_klink_next(&g->lk));)
		pt_ljoin_want(&g->named, r);
	tl_klink_rewind(&g->lk);
	pt_ljoin_seal(&g->named);
	free(g->named.start); /* (only the slots are read) */
	g->named.start = NULL;
	free(g->named.end);
	g->named.end = NULL;
	g->annv = pt_xcalloc(g->named.n ? g->named.n : 1, sizeof(*g->annv));
	return true;
}

/* (the sweep's order: start, longer first, event) */
static bool grng_before(const struct grng *a, const struct grng *b)
{
	if (a->s != b->s)
		return a->s < b->s;
	if (a->e != b->e)
		return a->e > b->e;
	return a->ev < b->ev;
}

static void gq_add(struct gq *q, const struct grng *r)
{
	if (q->h && q->n == q->cap) {
		memmove(q->v, q->v + q->h, (q->n - q->h) * sizeof(*q->v));
		q->n -= q->h;
		q->h = 0;
	}
	pt_xgrow((void **)&q->v, &q->cap, q->n + 1, sizeof(*q->v));
	size_t i = q->n++;
	while (i > q->h && grng_before(r, &q->v[i - 1])) {
		q->v[i] = q->v[i - 1];
		i--;
	}
	q->v[i] = *r;
}

/* The gattr of the annotation at stack place u of track tr (made on its first named range), 0 where its
 * process gets none. */
static uint32_t gattr_of(struct tl_gast *g, const struct pt_model *m, uint32_t tr, int32_t u)
{
	struct gstk *a = &g->stk[tr].v[u];
	if (a->attr)
		return a->attr;
	uint32_t dev = m->tracks.v[tr].device;
	if (!g->want[dev])
		g->want[dev] = tl_gpu_annotations_wanted(m, dev) ? 1 : -1;
	if (g->want[dev] < 0)
		return 0;
	uint32_t nm = a->name < m->strings.n ? a->name : 0;
	if (!g->isstep[nm])
		g->isstep[nm] = g->re && !regexec(g->re, pt_model_strget(m, nm), 0, NULL, 0) ? 2 : 1;
	size_t lo;
	bool keep;
	uint32_t step = tl_step_keep(g->tl, dev, a->s, a->s, a->e - a->s, &g->cur[tr], &lo, &keep);
	struct gattr x = { a->ev, a->name, dev, step, a->xid, g->isstep[nm] == 2 };
	pt_vec_push(&g->at, x);
	return a->attr = (uint32_t)g->at.n;
}

/* Track tr's queued ranges that start before below (all: every one) into the sweep. */
static void gq_release(struct tl_gast *g, const struct pt_model *m, uint32_t tr, bool all)
{
	struct gq *q = &g->q[tr];
	int64_t below = pt_lag_floor(&g->rlag[tr], g->seen[tr], g->top[tr]);
	while (q->h < q->n && (all || q->v[q->h].s < below)) {
		const struct grng *r = &q->v[q->h++];
		struct gstk *st = g->stk[tr].v;
		size_t sp = g->stk[tr].n;
		while (sp && st[sp - 1].e <= r->s)
			sp--;
		int32_t up = r->user ? (int32_t)sp : sp ? st[sp - 1].up : -1;
		g->stk[tr].n = sp;
		struct gstk x = { r->s, r->e, r->xid, r->ev, r->name, up, 0 };
		pt_vec_push(&g->stk[tr], x);
		size_t slot = up >= 0 ? pt_ljoin_slot(&g->named, (uint64_t)r->ev + 1) : SIZE_MAX;
		if (slot != SIZE_MAX)
			g->annv[slot] = gattr_of(g, m, tr, up);
	}
	if (q->h == q->n)
		q->h = q->n = 0;
}

static int gast_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct tl_gast *g = arg;
	const struct pt_events *ev = &m->events;
	if (m->tracks.n != g->nt)
		return 3; /* the file changed */
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t gi = (uint32_t)(g->base + i), tr = ev->track[i];
		uint64_t id = 0;
		uint8_t kx = tl_krange_of(&g->kr, gi, &id);
		if (ev->kind[i] != PT_EV_RANGE) {
			if (kx) { /* (a range info of another event: the nesting the whole load makes) */
				g->bad = true;
				return 3;
			}
			continue;
		}
		int64_t st = ev->start[i];
		if (!g->seen[tr] || st > g->top[tr])
			g->top[tr] = st;
		g->seen[tr] = true;
		if (kx) {
			struct grng r = { st, st + ev->dur[i], id, gi, ev->name[i], (kx & TL_KX_USER) != 0 };
			gq_add(&g->q[tr], &r);
		}
		gq_release(g, m, tr, false);
	}
	g->base += ev->n;
	return 0;
}

int tl_gast_nest(struct tl_gast *g, const char *path, struct pt_model *m, const struct pt_tl *tl,
		 const struct tl_krange *kr, const regex_t *re, uint32_t skip, struct pt_err **e)
{
	size_t nt = m->tracks.n;
	if (g->nt < nt) { /* (tracks without ranges) */
		g->rlag = pt_xrealloc(g->rlag, (nt ? nt : 1) * sizeof(*g->rlag));
		memset(g->rlag + g->nt, 0, (nt - g->nt) * sizeof(*g->rlag));
		g->nt = nt;
	}
	g->tl = tl;
	g->re = re;
	g->kr = *kr;
	tl_krange_rewind(&g->kr);
	g->q = pt_xcalloc(nt ? nt : 1, sizeof(*g->q));
	g->seen = pt_xcalloc(nt ? nt : 1, sizeof(*g->seen));
	g->top = pt_xcalloc(nt ? nt : 1, sizeof(*g->top));
	g->stk = pt_xcalloc(nt ? nt : 1, sizeof(*g->stk));
	g->cur = pt_xcalloc(nt ? nt : 1, sizeof(*g->cur));
	g->want = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1);
	g->isstep = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	struct pt_ptm_sink sink = { gast_batch, g, true, skip };
	int rc = pt_ptm_read_stream(path, m, &sink, e);
	if (!rc)
		for (uint32_t tr = 0; tr < nt; tr++)
			gq_release(g, m, tr, true);
	for (size_t tr = 0; tr < nt; tr++) {
		free(g->q[tr].v);
		pt_vec_free(&g->stk[tr]);
	}
	free(g->q);
	free(g->seen);
	free(g->top);
	free(g->stk);
	free(g->cur);
	free(g->want);
	free(g->isstep);
	g->q = NULL;
	g->stk = NULL;
	free(g->rlag);
	g->rlag = NULL;
	g->tl = NULL;
	tl_klink_rewind(&g->lk);
	m->events.n = 0;
	return g->bad ? 3 : rc;
}

void tl_gast_event(struct tl_gast *g, uint32_t gi, uint32_t track, uint8_t kind, int64_t start, int64_t dur,
		   bool keep)
{
	if (kind != PT_EV_KERNEL && kind != PT_EV_MEMCPY && kind != PT_EV_MEMSET)
		return;
	uint32_t r = tl_klink_of(&g->lk, gi);
	if (!r || !keep)
		return;
	for (; r; r = tl_klink_more(&g->lk)) { /* (an activity linked twice: each link's range, as the whole load) */
		size_t slot = pt_ljoin_slot(&g->named, r);
		uint32_t a = slot != SIZE_MAX ? g->annv[slot] : 0;
		if (a)
			span_add(&g->acc, &g->g.v, &g->g.n, &g->g.cap, a - 1, track, start, start + dur);
	}
}

static const struct gattr *sort_at;
static int attr_cmp(const void *pa, const void *pb)
{
	uint32_t a = sort_at[*(const uint32_t *)pa].ev, b = sort_at[*(const uint32_t *)pb].ev;
	return a < b ? -1 : a > b;
}

void tl_gast_finish(struct tl_gast *g)
{
	pt_hashmap_free(&g->acc);
	pt_ljoin_free(&g->named);
	free(g->annv);
	g->annv = NULL;
	tl_kpack_free(&g->lk.p);
	/* the annotations in event order (the spans' last key), the spans renumbered */
	size_t n = g->at.n;
	uint32_t *ix = pt_xmalloc((n ? n : 1) * sizeof(*ix)), *to = pt_xmalloc((n ? n : 1) * sizeof(*to));
	for (size_t i = 0; i < n; i++)
		ix[i] = (uint32_t)i;
	sort_at = g->at.v;
	pt_sort(ix, n, sizeof(*ix), attr_cmp);
	sort_at = NULL;
	struct gattr *v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		v[i] = g->at.v[ix[i]];
		to[ix[i]] = (uint32_t)i;
	}
	free(g->at.v);
	g->at.v = v;
	g->at.cap = n ? n : 1;
	for (size_t k = 0; k < g->g.n; k++)
		g->g.v[k].range = to[g->g.v[k].range];
	free(ix);
	free(to);
}

/* The spans on the trace's rows move to it (each stream's row is in one trace: the kineto profile of
 * several ranks writes one per rank; the rest stay for the others). */
static void build_streamed(struct tl_trace *c, struct tl_gast *g)
{
	if (!g->g.n)
		return;
	uint32_t *row_of = stream_rows(c);
	size_t k = 0, n = 0;
	for (size_t i = 0; i < g->g.n; i++)
		n += row_of[g->g.v[i].row] != UINT32_MAX;
	if (n == g->g.n) { /* (all of them: the vector itself) */
		c->ganns.v = g->g.v;
		c->ganns.n = g->g.n;
		c->ganns.cap = g->g.cap;
		memset(&g->g, 0, sizeof(g->g));
		for (size_t i = 0; i < c->ganns.n; i++)
			c->ganns.v[i].row = row_of[c->ganns.v[i].row];
	} else {
		for (size_t i = 0; i < g->g.n; i++) {
			struct tl_gann a = g->g.v[i];
			if (row_of[a.row] == UINT32_MAX) {
				g->g.v[k++] = a;
				continue;
			}
			a.row = row_of[a.row];
			pt_vec_push(&c->ganns, a);
		}
		g->g.n = k;
	}
	free(row_of);
	pt_sort(c->ganns.v, c->ganns.n, sizeof(*c->ganns.v), gann_cmp);
}

void tl_gpu_annotation_info(const struct tl_trace *c, uint32_t range, struct tl_gann_info *out)
{
	const struct tl_gast *g = c->tl->gstream ? tl_gstream_gast(c->tl->gstream) : NULL;
	*out = (struct tl_gann_info){ 0 };
	if (!g) {
		out->name = c->m->events.name[range];
		out->is_step = (c->tl->ev_keep[range] & 2) != 0;
		out->step = pt_tl_ev_step(c->tl, range);
		out->has_xid = tl_kext_external_id(c, range, &out->xid);
		return;
	}
	const struct gattr *a = &g->at.v[range];
	out->name = a->name;
	out->is_step = a->is_step;
	out->step = a->step;
	struct tl_sev v = { .task = a->xid, .kind = PT_EV_RANGE, .kx = TL_KX_INFO };
	out->has_xid = tl_kext_range_id(c, a->dev, &v, 0, &out->xid);
}
