/*
 * The api, kernels, tasks and ops tables of a .ptm file streamed (pass-raw.h): the rows
 * of pt_pass_raw() in the same order, made from the event batches of
 * streaming reads (model/ptm.h) instead of a whole model. Each row waits,
 * ordered as pass-raw.c orders them (start, rank of the thread or stream id,
 * model order), until no track of its device can still deliver an earlier
 * one: the first read measures, per track, its rows' count, earliest start
 * and lag (the most a start falls behind the latest one before it in the
 * file), so a track seen waits for its latest start less its lag. Rows that
 * come in order wait in their track's queue, merged through a heap of the
 * tracks (a few dozen), the rest in a heap of their own. The first read keeps
 * the kernel infos (the launch configurations), which the file stores after
 * the events, and decodes only the columns it measures.
 */
#include <demangle.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-raw.h"
#include "pass/select.h"
#include "support/err.h"
#include "support/lag.h"
#include "support/names.h"
#include "support/sort.h"
#include "support/xalloc.h"
#include "table/table.h"

/* the most uncompressed body bytes the first read keeps for the later ones (model/ptm.h, pt_ptm_tape): the
 * peak of the ops and tasks tables stays under their 1 GiB one (23 MiB) */
#define RAW_TAPE_MAX (8u << 20)

/* Per track, its API calls: how many are still to come, the earliest start, the latest start seen
 * and the lag. */
struct wtrack {
	struct pt_lag g; /* the first read's; top is then the latest start emitted */
	uint64_t left;
	bool seen;
};

struct row {
	int64_t start, dur;
	uint64_t idx, corr; /* corr: the task id of a task row */
	uint32_t srank, track, name, op;
};

/* A waiting row's place in the heap: its order key, the rest of it in the pool. */
struct hkey {
	int64_t start;
	uint32_t srank, slot;
};

/* A track in the tracks' heap: its queue's first row's order key. */
struct tkey {
	int64_t start;
	uint64_t idx;
	uint32_t srank, track;
};

struct rs {
	struct pt_model *m;
	struct wtrack *w;
	size_t nw;
	uint32_t *srank;  /* per track: rank of its stream (thread id) among all tracks' */
	uint64_t *ndev;   /* per device: its rows */
	size_t nd;
	uint64_t base;    /* model index of the batch's first event */
	uint32_t dev;     /* the device whose rows a read emits */
	/*
	 * The rows waiting, in two parts: per track, a queue of those that came
	 * in order (each at or after the one before it: most rows), merged
	 * through a heap of the tracks by their queue's first row; and a heap
	 * of the rest (a row that came before its track's latest), kept whole
	 * in a pool.
	 */
	struct tqueue { struct row *v; size_t cap, head, n; } *tq; /* a ring: cap a power of two */
	struct tkey *th;          /* heap of the tracks whose queue holds rows, by their first row */
	size_t nth;
	PT_VEC(struct hkey) heap; /* the rows out of their track's order, earliest first */
	PT_VEC(struct row) pool;  /* those rows, by slot */
	uint32_t *free;           /* slots of the pool free again */
	size_t nfree, free_cap;
	void (*row)(void *, const struct pt_cell *);
	void *arg;
	const char *name; /* the input's, in messages */
	bool api;         /* else the kernels table, or tasks */
	bool tasks;       /* the tasks or ops table */
	bool ops_only;    /* the ops table: tasks with an op */
	uint8_t kind;     /* of the rows' events */
	int64_t device;   /* kernels: the device id to keep, -1: all */
	struct kinfo { uint32_t event, info; } *ki; /* kernels: kernel info by event, ascending */
	size_t nki;
	char **demangled; /* kernels: output name by string id, made once per name */
	uint8_t *tried;
};

static bool keep_track(const struct rs *s, uint32_t t)
{
	const struct pt_model *m = s->m;
	return s->api || s->device < 0 || m->devices.v[m->tracks.v[t].device].id == (uint64_t)s->device;
}

/* Is event i of ev a row? (its track kept apart) */
static bool is_row(const struct rs *s, const struct pt_events *ev, size_t i)
{
	return ev->kind[i] == s->kind && (!s->ops_only || ev->op[i]);
}

static bool before(const struct rs *s, const struct hkey *a, const struct hkey *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if (a->srank != b->srank)
		return a->srank < b->srank;
	return s->pool.v[a->slot].idx < s->pool.v[b->slot].idx;
}

/* Sift moves a hole, not a swap at each level: the keys are 16 bytes, the rows stay in the pool. */
static void heap_push(struct rs *s, const struct row *r)
{
	uint32_t slot;
	if (s->nfree) {
		slot = s->free[--s->nfree];
	} else {
		pt_vec_reserve(&s->pool, s->pool.n + 1);
		slot = (uint32_t)s->pool.n++;
	}
	s->pool.v[slot] = *r;
	struct hkey k = { r->start, r->srank, slot };
	pt_vec_reserve(&s->heap, s->heap.n + 1);
	struct hkey *h = s->heap.v;
	size_t i = s->heap.n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(s, &k, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = k;
}

static struct row heap_pop(struct rs *s)
{
	struct hkey *h = s->heap.v, last = h[--s->heap.n];
	uint32_t slot = h[0].slot;
	size_t n = s->heap.n, i = 0;
	for (;;) {
		size_t l = 2 * i + 1, b = l;
		if (l >= n)
			break;
		if (l + 1 < n && before(s, &h[l + 1], &h[l]))
			b = l + 1;
		if (!before(s, &h[b], &last))
			break;
		h[i] = h[b];
		i = b;
	}
	if (n)
		h[i] = last;
	if (s->nfree == s->free_cap)
		pt_xgrow((void **)&s->free, &s->free_cap, s->nfree + 1, sizeof(*s->free));
	s->free[s->nfree++] = slot;
	return s->pool.v[slot];
}

/* The order key of a track's first row, as the tracks' heap holds it. */
static struct tkey tkey_of(const struct rs *s, uint32_t t)
{
	const struct row *r = &s->tq[t].v[s->tq[t].head];
	return (struct tkey){ r->start, r->idx, r->srank, t };
}

static bool tkey_before(const struct tkey *a, const struct tkey *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if (a->srank != b->srank)
		return a->srank < b->srank;
	return a->idx < b->idx;
}

/* Put k at th[i] or below, where it belongs (the entries below i are in order). */
static void th_down(struct rs *s, size_t i, struct tkey k)
{
	struct tkey *h = s->th;
	for (size_t n = s->nth;;) {
		size_t l = 2 * i + 1, b = l;
		if (l >= n)
			break;
		if (l + 1 < n && tkey_before(&h[l + 1], &h[l]))
			b = l + 1;
		if (!tkey_before(&h[b], &k))
			break;
		h[i] = h[b];
		i = b;
	}
	h[i] = k;
}

/* Append r to queue q, growing its ring when full. */
static void tq_push(struct tqueue *q, const struct row *r)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct row *v = pt_xmalloc(cap * sizeof(*v));
		for (size_t i = 0; i < q->n; i++)
			v[i] = q->v[(q->head + i) & (q->cap - 1)];
		free(q->v);
		q->v = v;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->n++) & (q->cap - 1)] = *r;
}

/* A row to wait: onto its track's queue when no earlier than the queue's last, else into the heap. */
static void wait_push(struct rs *s, const struct row *r)
{
	struct tqueue *q = &s->tq[r->track];
	if (!q->n) { /* an empty queue: the track joins the tracks' heap */
		tq_push(q, r);
		struct tkey k = tkey_of(s, r->track);
		size_t i = s->nth++;
		while (i > 0) {
			size_t p = (i - 1) / 2;
			if (!tkey_before(&k, &s->th[p]))
				break;
			s->th[i] = s->th[p];
			i = p;
		}
		s->th[i] = k;
		return;
	}
	if (r->start < q->v[(q->head + q->n - 1) & (q->cap - 1)].start) { /* same track: the start decides */
		heap_push(s, r);
		return;
	}
	tq_push(q, r);
}

/* Take the earliest waiting row out into *out if it starts before wm; false when it does not, or none waits. */
static bool wait_pop(struct rs *s, int64_t wm, struct row *out)
{
	const struct tkey *a = s->nth ? &s->th[0] : NULL;
	const struct row *b = s->heap.n ? &s->pool.v[s->heap.v[0].slot] : NULL;
	if (b && (!a || b->start < a->start ||
		  (b->start == a->start && (b->srank < a->srank || (b->srank == a->srank && b->idx < a->idx))))) {
		if (b->start >= wm)
			return false;
		*out = heap_pop(s);
		return true;
	}
	if (!a || a->start >= wm)
		return false;
	uint32_t t = a->track;
	struct tqueue *q = &s->tq[t];
	*out = q->v[q->head];
	q->head = (q->head + 1) & (q->cap - 1);
	if (--q->n) { /* the track's next row */
		th_down(s, 0, tkey_of(s, t));
	} else { /* the queue empty: the track leaves the heap */
		if (--s->nth)
			th_down(s, 0, s->th[s->nth]);
	}
	return true;
}

/* Grow the per-track and per-device arrays to m's. */
static void fit(struct rs *s)
{
	const struct pt_model *m = s->m;
	if (m->tracks.n > s->nw) {
		s->w = pt_xrealloc(s->w, m->tracks.n * sizeof(*s->w));
		memset(s->w + s->nw, 0, (m->tracks.n - s->nw) * sizeof(*s->w));
		s->tq = pt_xrealloc(s->tq, m->tracks.n * sizeof(*s->tq));
		memset(s->tq + s->nw, 0, (m->tracks.n - s->nw) * sizeof(*s->tq));
		s->th = pt_xrealloc(s->th, m->tracks.n * sizeof(*s->th));
		s->nw = m->tracks.n;
	}
	if (m->devices.n > s->nd) {
		s->ndev = pt_xrealloc(s->ndev, m->devices.n * sizeof(*s->ndev));
		memset(s->ndev + s->nd, 0, (m->devices.n - s->nd) * sizeof(*s->ndev));
		s->nd = m->devices.n;
	}
}

/* The first read: per track, what its rows' events are like; per device, how many. */
static int scan(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct rs *s = arg;
	fit(s);
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_row(s, ev, i) || !keep_track(s, ev->track[i]))
			continue;
		struct wtrack *w = &s->w[ev->track[i]];
		int64_t st = ev->start[i];
		s->ndev[m->tracks.v[ev->track[i]].device]++;
		pt_lag_add(&w->g, st);
	}
	return 0;
}

static void emit_kernel(struct rs *s, const struct row *r)
{
	const struct pt_model *m = s->m;
	const struct pt_track *tr = &m->tracks.v[r->track];
	const struct pt_device *dv = &m->devices.v[tr->device];
	struct pt_cell c[17];
	memset(c, 0, sizeof(c));
	c[0].kind = c[1].kind = c[2].kind = c[4].kind = c[5].kind = c[15].kind = PT_CELL_INT;
	c[0].u.i = (int64_t)dv->id;
	c[1].u.i = tr->stream;
	c[2].u.i = (int64_t)r->corr;
	const char *nm = pt_strtab_get(&m->strings, r->name);
	size_t len = pt_strtab_len(&m->strings, r->name);
	c[3].kind = PT_CELL_STR;
	c[3].u.s = nm;
	c[3].len = (uint32_t)len;
	if (len > 2 && nm[0] == '_' && nm[1] == 'Z' && r->name < m->strings.n) { /* as pass-raw.c's out_name() */
		if (!s->tried[r->name]) {
			s->tried[r->name] = 1;
			s->demangled[r->name] = cplus_demangle(nm, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
		}
		if (s->demangled[r->name]) {
			c[3].u.s = s->demangled[r->name];
			c[3].len = (uint32_t)strlen(s->demangled[r->name]);
		}
	}
	c[4].u.i = r->start;
	c[5].u.i = r->dur;
	/* the last kernel info of the event, as pass-raw.c's table keeps it */
	size_t lo = 0, hi = s->nki;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ki[mid].event <= r->idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && s->ki[lo - 1].event == r->idx) {
		const struct pt_kernel_config *k = pt_model_kernel_config(m, s->ki[lo - 1].info);
		const int64_t v[9] = { k->grid[0],  k->grid[1],	  k->grid[2],	      k->block[0],	k->block[1],
				       k->block[2], k->registers, k->static_smem, k->dynamic_smem };
		for (int j = 0; j < 9; j++) {
			c[6 + j].kind = PT_CELL_INT;
			c[6 + j].u.i = v[j];
		}
	}
	c[15].u.i = dv->pid;
	c[16].kind = PT_CELL_STR;
	c[16].u.s = nm;
	c[16].len = (uint32_t)len;
	s->row(s->arg, c);
}

/* A row of the tasks or ops table, as pass-raw.c's task_row(). */
static void emit_task(struct rs *s, const struct row *r)
{
	const struct pt_model *m = s->m;
	const struct pt_track *tr = &m->tracks.v[r->track];
	struct pt_cell c[7];
	memset(c, 0, sizeof(c));
	for (int k = 0; k < 7; k++)
		c[k].kind = PT_CELL_INT;
	c[0].u.i = (int64_t)m->devices.v[tr->device].id;
	c[1].u.i = tr->stream;
	c[2].u.i = (int64_t)r->corr;
	c[3].kind = c[4].kind = PT_CELL_STR;
	c[3].u.s = pt_strtab_get(&m->strings, r->name);
	c[3].len = (uint32_t)pt_strtab_len(&m->strings, r->name);
	c[4].u.s = "";
	if (r->op) {
		uint32_t ty = m->ops.v[r->op - 1].type;
		c[4].u.s = pt_strtab_get(&m->strings, ty);
		c[4].len = (uint32_t)pt_strtab_len(&m->strings, ty);
	}
	c[5].u.i = r->start;
	c[6].u.i = r->dur;
	s->row(s->arg, c);
}

static void emit(struct rs *s, const struct row *r)
{
	if (s->tasks) {
		emit_task(s, r);
		return;
	}
	if (!s->api) {
		emit_kernel(s, r);
		return;
	}
	const struct pt_model *m = s->m;
	const struct pt_track *tr = &m->tracks.v[r->track];
	const char *nm = pt_strtab_get(&m->strings, r->name);
	size_t len = pt_strtab_len(&m->strings, r->name);
	struct pt_cell c[7];
	memset(c, 0, sizeof(c));
	for (int k = 0; k < 7; k++)
		c[k].kind = PT_CELL_INT;
	c[0].u.i = tr->stream;
	c[1].u.i = (int64_t)r->corr;
	c[2].kind = PT_CELL_STR;
	c[2].u.s = nm;
	c[2].len = (uint32_t)pt_api_name_len(nm, len);
	c[3].u.i = r->start;
	c[4].u.i = r->dur;
	c[5].u.i = m->devices.v[tr->device].pid;
	c[6].kind = PT_CELL_STR;
	c[6].u.s = nm;
	c[6].len = (uint32_t)len;
	s->row(s->arg, c);
}

/* The earliest start that a track of the device can still deliver (INT64_MAX: none). */
static int64_t watermark(const struct rs *s)
{
	int64_t wm = INT64_MAX;
	for (size_t t = 0; t < s->m->tracks.n; t++) {
		const struct wtrack *w = &s->w[t];
		if (!w->left || s->m->tracks.v[t].device != s->dev)
			continue;
		int64_t c = w->g.min;
		/* top - lag, never below min (a lag can reach 2^63: computed unsigned) */
		if (w->seen && w->g.lag < (uint64_t)w->g.top - (uint64_t)w->g.min)
			c = (int64_t)((uint64_t)w->g.top - w->g.lag);
		if (c < wm)
			wm = c;
	}
	return wm;
}

/* A read's batch: its device's calls into the heap, then out of it what no call can precede. */
static int rows(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct rs *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t t = ev->track[i];
		if (!is_row(s, ev, i) || m->tracks.v[t].device != s->dev || !keep_track(s, t))
			continue;
		struct wtrack *w = &s->w[t];
		int64_t st = ev->start[i];
		/* the first read measured these very events: a call out of that is a changed file */
		if (!w->left || st < w->g.min ||
		    (w->seen && w->g.lag < (uint64_t)w->g.top - (uint64_t)w->g.min &&
		     st < (int64_t)((uint64_t)w->g.top - w->g.lag)))
			return pt_err(e, "'%s' changed while it was read", s->name);
		w->left--;
		if (!w->seen || st > w->g.top)
			w->g.top = st;
		w->seen = true;
		struct row r = { st, ev->dur[i], s->base + i, s->tasks ? ev->task[i] : ev->corr[i], s->srank[t], t,
				 ev->name[i], s->tasks ? ev->op[i] : 0 };
		wait_push(s, &r);
	}
	s->base += ev->n;
	int64_t wm = watermark(s);
	for (struct row x; wait_pop(s, wm, &x);)
		emit(s, &x);
	return 0;
}

static int cmp_kinfo(const void *a, const void *b)
{
	const struct kinfo *x = a, *y = b;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return x->info < y->info ? -1 : x->info > y->info;
}

int pt_pass_raw_stream(const struct pt_ptm_source *src, const char *table, int64_t device, struct pt_diag *d,
		       void (*row)(void *arg, const struct pt_cell *cells), void *arg, struct pt_err **e)
{
	struct rs s;
	memset(&s, 0, sizeof(s));
	s.api = !strcmp(table, "api");
	s.ops_only = !strcmp(table, "ops");
	s.tasks = s.ops_only || !strcmp(table, "tasks");
	if (!s.api && !s.tasks && strcmp(table, "kernels"))
		return pt_err(e, "the %s table is not streamed", table);
	s.kind = s.api ? PT_EV_API : s.tasks ? PT_EV_TASK : PT_EV_KERNEL;
	s.device = device;
	s.m = pt_model_new();
	s.row = row;
	s.arg = arg;
	const char *name = pt_ptm_source_name(src);
	s.name = name;
	/* the reads after the first replay the body it kept, when small (RAW_TAPE_MAX) */
	struct pt_ptm_tape tape = { .limit = RAW_TAPE_MAX };
	struct pt_ptm_source own = { .path = src->path, .tap = src->tap, .tape = &tape };
	if (!pt_ptm_source_once(src))
		src = &own;
	/* it measures the rows' starts per track: no name, duration, correlation or task id (checked by the
	 * reads that emit the rows), no op but for the ops table */
	struct pt_ptm_sink first = { scan, &s, false, s.api || s.tasks ? 1 : PT_PTM_SKIP_BUT_KERNELS };
	unsigned nocols = PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_TASK | (s.ops_only ? 0 : PT_PTM_NO_OP);
	int rc = pt_ptm_source_read_cols(src, s.m, &first, nocols, e);
	if (rc > 0) /* a skipping read never stops, and scan() never asks for more */
		rc = pt_err(e, "'%s': cannot be read as a stream", name);
	if (!rc && d && device >= 0) { /* a --device that names no device of the model says so */
		struct pt_sel sel;
		pt_sel_init(&sel);
		sel.device = device;
		pt_sel_check(s.m, &sel, d);
	}
	if (!rc) {
		fit(&s);
		/* the rank of each track's stream among all tracks' streams, as pass-raw.c ranks them */
		s.srank = pt_raw_stream_ranks(s.m);
		if (!s.api && !s.tasks) {
			s.nki = s.m->kernels.n;
			s.ki = pt_xmalloc((s.nki ? s.nki : 1) * sizeof(*s.ki));
			for (size_t i = 0; i < s.nki; i++)
				s.ki[i] = (struct kinfo){ s.m->kernels.v[i].event, (uint32_t)i };
			pt_sort(s.ki, s.nki, sizeof(*s.ki), cmp_kinfo);
			s.demangled = pt_xcalloc(s.m->strings.n ? s.m->strings.n : 1, sizeof(*s.demangled));
			s.tried = pt_xcalloc(s.m->strings.n ? s.m->strings.n : 1, 1);
		}
	}
	/* one read per device with calls, in device order */
	for (uint32_t d = 0; !rc && d < s.nd; d++) {
		if (!s.ndev[d])
			continue;
		s.dev = d;
		s.base = 0;
		for (size_t t = 0; t < s.nw; t++) {
			s.w[t].left = s.w[t].g.count;
			s.w[t].seen = false;
		}
		struct pt_ptm_sink again = { rows, &s, true, true };
		rc = pt_ptm_source_read(src, s.m, &again, e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", name);
		for (struct row x; !rc && wait_pop(&s, INT64_MAX, &x);)
			emit(&s, &x);
	}
	for (size_t t = 0; t < s.nw; t++)
		free(s.tq[t].v);
	free(s.tq);
	free(s.th);
	pt_vec_free(&s.heap);
	pt_vec_free(&s.pool);
	free(s.free);
	if (s.demangled)
		for (size_t i = 0; i < s.m->strings.n; i++)
			free(s.demangled[i]);
	free(s.demangled);
	free(s.tried);
	free(s.ki);
	free(s.w);
	free(s.srank);
	free(s.ndev);
	pt_model_free(s.m);
	pt_ptm_tape_free(&tape);
	return rc;
}
