/*
 * The timeline trace's layout (chrome-trace.md §3-§5, §10; cupti.md §7.5
 * for the kineto profile): the export clock and each device's offset to it,
 * processes, rows (model tracks split into nesting lanes, the synthetic rows
 * of pass-timeline.c) with their ids, names and order, the base, and what
 * table/trace.h publishes of them. The events themselves: pass-timeline-events.c.
 */
#include "pass/pass-timeline-trace.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/progress.h"
#include "support/sort.h"
#include "support/xalloc.h"

uint32_t tl_device_rank(const struct pt_device *dv)
{
	return dv->kind == PT_DEV_NPU ? dv->id : dv->pid && dv->rank >= 0 ? (uint32_t)dv->rank : 0;
}

size_t pt_tl_ranks(const struct pt_model *m, uint32_t **out)
{
	uint32_t *v = pt_xmalloc((m->devices.n ? m->devices.n : 1) * sizeof(*v));
	size_t n = 0;
	for (size_t d = 0; d < m->devices.n; d++) {
		uint32_t r = tl_device_rank(&m->devices.v[d]);
		size_t j = n;
		bool seen = false;
		for (size_t k = 0; k < n; k++)
			seen |= v[k] == r;
		if (seen)
			continue;
		while (j > 0 && v[j - 1] > r) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = r;
		n++;
	}
	*out = v;
	return n;
}

/* ------------------------------------------------------------------ clocks */

struct edge {
	const char *from, *to;
	int64_t off;
};

/* Offset from clock a to clock b through recorded offsets; false when unreachable. */
static bool clock_path(const struct pt_model *m, const char *a, const char *b, int64_t *off)
{
	if (!strcmp(a, b)) {
		*off = 0;
		return true;
	}
	PT_VEC(struct edge) ed = { 0 };
	for (size_t d = 0; d < m->devices.n; d++)
		for (size_t i = 0; i < m->devices.v[d].offsets.n; i++) {
			const struct pt_clock_offset *co = &m->devices.v[d].offsets.v[i];
			struct edge e1 = { co->from, co->to, co->offset_ns }, e2 = { co->to, co->from, 0 };
			pt_vec_push(&ed, e1);
			if (!__builtin_sub_overflow(0, co->offset_ns, &e2.off))
				pt_vec_push(&ed, e2);
		}
	/* breadth-first over names (tiny graphs) */
	PT_VEC(const char *) q = { 0 };
	PT_VEC(int64_t) qo = { 0 };
	pt_vec_push(&q, a);
	pt_vec_push(&qo, 0);
	bool found = false;
	for (size_t h = 0; h < q.n && !found; h++) {
		for (size_t i = 0; i < ed.n; i++) {
			if (strcmp(ed.v[i].from, q.v[h]))
				continue;
			bool seen = false;
			for (size_t k = 0; k < q.n; k++)
				seen |= !strcmp(q.v[k], ed.v[i].to);
			int64_t o;
			if (seen || __builtin_add_overflow(qo.v[h], ed.v[i].off, &o))
				continue; /* a sum beyond int64 (hostile offsets) is no path */
			pt_vec_push(&q, ed.v[i].to);
			pt_vec_push(&qo, o);
			if (!strcmp(ed.v[i].to, b)) {
				*off = qo.v[qo.n - 1];
				found = true;
				break;
			}
		}
	}
	pt_vec_free(&ed);
	pt_vec_free(&q);
	pt_vec_free(&qo);
	return found;
}

const char *tl_dev_clock(const struct pt_device *d)
{
	if (d->clock && *d->clock)
		return d->clock;
	return d->kind == PT_DEV_GPU || d->kind == PT_DEV_CPU ? "unix" : "unknown";
}

static void choose_clock(struct tl_trace *c, struct pt_diag *diag)
{
	const struct pt_model *m = c->m;
	size_t nd = m->devices.n;
	uint64_t *nev = pt_xcalloc(nd ? nd : 1, sizeof(*nev));
	if (c->tl->stream)
		memcpy(nev, tl_stream_nev(c->tl->stream), nd * sizeof(*nev));
	else if (c->tl->gstream)
		memcpy(nev, tl_gstream_nev(c->tl->gstream), nd * sizeof(*nev));
	for (size_t i = 0; i < m->events.n && !tl_streamed(c->tl); i++) {
		pt_progress_tick("laying out the timeline", i, m->events.n);
		if (c->tl->ev_keep[i] & 1)
			nev[m->tracks.v[m->events.track[i]].device]++;
	}
	for (size_t d = 0; d < nd; d++)
		if (c->kineto && c->dev_rank[d] != c->o.rank)
			nev[d] = 0; /* another rank's file */
	bool all_unix = true;
	int64_t off;
	for (size_t d = 0; d < nd; d++)
		if (nev[d] && !clock_path(m, tl_dev_clock(&m->devices.v[d]), "unix", &off))
			all_unix = false;
	c->clock = "unix";
	if (!all_unix) {
		c->clock = NULL;
		/* the native domain of the first source: lowest rank, then lowest device id */
		uint32_t best = PT_NONE;
		for (size_t d = 0; d < nd; d++)
			if (nev[d] && (best == PT_NONE || c->dev_rank[d] < c->dev_rank[best] ||
				       (c->dev_rank[d] == c->dev_rank[best] && m->devices.v[d].id < m->devices.v[best].id)))
				best = (uint32_t)d;
		c->clock = best == PT_NONE ? "unknown" : tl_dev_clock(&m->devices.v[best]);
	}
	for (size_t d = 0; d < nd; d++) {
		c->dev_ok[d] = clock_path(m, tl_dev_clock(&m->devices.v[d]), c->clock, &c->dev_off[d]);
		if (!c->dev_ok[d] && nev[d]) {
			c->unaligned += nev[d];
			char *w = pt_xasprintf("'%s': clock '%s' has no recorded offset to '%s': %llu events not exported",
					       c->o.trace_name ? c->o.trace_name : "", tl_dev_clock(&m->devices.v[d]), c->clock,
					       (unsigned long long)nev[d]);
			pt_diag_note(diag, "%s", w);
			free(w);
		}
		if (c->kineto && c->dev_rank[d] != c->o.rank)
			c->dev_ok[d] = 0;
	}
	free(nev);
}

/* ------------------------------------------------------------------ rows */

static int64_t ev_end(const struct pt_events *ev, size_t i)
{
	return ev->start[i] + (ev->dur[i] > 0 ? ev->dur[i] : 0);
}

/*
 * Sort idx (already by start; s[i] its starts) by (start asc, dur desc, name)
 * within equal starts; e (the ends) is permuted along.
 */
static void fix_ties(const struct tl_trace *c, uint32_t *idx, const int64_t *s, int64_t *e, size_t n)
{
	const struct pt_events *ev = &c->m->events;
	for (size_t i = 1; i < n; i++) {
		if (s[i] != s[i - 1])
			continue;
		uint32_t v = idx[i];
		int64_t ve = e[i];
		size_t j = i;
		while (j > 0 && s[j - 1] == s[i]) {
			uint32_t u = idx[j - 1];
			bool less = ev->dur[v] > ev->dur[u] ||
				    (ev->dur[v] == ev->dur[u] && strcmp(tl_str(c, ev->name[v]), tl_str(c, ev->name[u])) < 0);
			if (!less)
				break;
			idx[j] = u;
			e[j] = e[j - 1];
			j--;
		}
		idx[j] = v;
		e[j] = ve;
	}
}

/* Returns lanes used; lane[i] set. */
static uint32_t assign_lanes(const int64_t *s, const int64_t *e, size_t n, uint8_t *lane, uint64_t *overflow)
{
	struct lanes L = { 0 };
	for (size_t i = 0; i < n; i++)
		lane[i] = lane_next(&L, s[i], e[i]);
	*overflow += L.overflow;
	uint32_t nl = L.nl;
	lanes_free(&L);
	return nl;
}

static uint32_t add_proc(struct tl_trace *c, uint32_t pid, char *name)
{
	for (size_t i = 0; i < c->procs.n; i++)
		if (c->procs.v[i].pid == pid) {
			free(name);
			return (uint32_t)i;
		}
	struct proc p = { pid, name, NULL, 0, false, false, 0 };
	pt_vec_push(&c->procs, p);
	return (uint32_t)c->procs.n - 1;
}

static void lane_rows(struct tl_trace *c, struct row proto, uint32_t *items, const uint8_t *lane, uint32_t nl, size_t n);

/* Split items (with starts/ends) into lanes and add one row per lane. */
static void add_rows(struct tl_trace *c, struct row proto, uint32_t *items, const int64_t *s, const int64_t *e, size_t n)
{
	if (!n) {
		free(items);
		return;
	}
	proto.ranged = true;
	proto.lo = INT64_MAX;
	proto.hi = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < proto.lo)
			proto.lo = s[i];
		if (e[i] > proto.hi)
			proto.hi = e[i];
	}
	uint8_t *lane = pt_xmalloc(n);
	uint32_t nl = assign_lanes(s, e, n, lane, &c->overflow);
	lane_rows(c, proto, items, lane, nl, n);
	free(lane);
}

/* One row per lane (lane[i] of items[i], nl lanes); takes items and proto.name. */
static void lane_rows(struct tl_trace *c, struct row proto, uint32_t *items, const uint8_t *lane, uint32_t nl, size_t n)
{
	if (nl <= 1) {
		proto.idx = items;
		proto.n = n;
		proto.lane = 0;
		pt_vec_push(&c->rows, proto);
		return;
	}
	for (uint32_t l = 0; l < nl; l++) {
		struct row r = proto;
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			k += lane[i] == l;
		if (!k)
			continue;
		r.idx = pt_xmalloc(k * sizeof(*r.idx));
		r.n = 0;
		for (size_t i = 0; i < n; i++)
			if (lane[i] == l)
				r.idx[r.n++] = items[i];
		r.lane = l;
		r.name = l ? pt_xasprintf("%s #%u", proto.name, l + 1) : pt_xstrdup(proto.name);
		pt_vec_push(&c->rows, r);
	}
	free(proto.name);
	free(items);
}

static void add_slice_row(struct tl_trace *c, uint32_t dev, uint8_t kind, uint32_t level, const struct pt_tl_row *tr,
			  int32_t sort, char *name)
{
	size_t n = tr->s.n;
	if (!n) {
		free(name);
		return;
	}
	/* order (start asc, dur desc): the pass writes slices by start; stable fix of ties */
	uint32_t *idx = pt_xmalloc(n * sizeof(*idx));
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	for (size_t i = 1; i < n; i++) {
		uint32_t v = idx[i];
		size_t j = i;
		while (j > 0) {
			const struct pt_tl_slice *a = &tr->s.v[idx[j - 1]], *b = &tr->s.v[v];
			if (a->start < b->start || (a->start == b->start && a->end >= b->end))
				break;
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	int64_t *s = pt_xmalloc(n * sizeof(*s)), *e = pt_xmalloc(n * sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		s[i] = tr->s.v[idx[i]].start;
		e[i] = tr->s.v[idx[i]].end;
	}
	struct row r = { .pid = c->dev_pid[dev], .sort = sort, .name = name, .type = R_SLICE, .slkind = kind,
			 .level = level, .dev = dev, .off = c->dev_off[dev], .sl = tr->s.v };
	add_rows(c, r, idx, s, e, n);
	free(s);
	free(e);
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->sort != b->sort)
		return a->sort < b->sort ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return a->lane < b->lane ? -1 : a->lane > b->lane;
}

static int stream_cmp_ctx_sort(const void *pa, const void *pb)
{
	const int64_t *a = pa, *b = pb; /* pairs (stream, track) */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static const char *kind_word(enum pt_device_kind k)
{
	return k == PT_DEV_NPU ? "NPU" : k == PT_DEV_GPU ? "GPU" : "Device";
}

/* The name of the process a CUPTI or Kineto device belongs to (its CPU device's), NULL when unknown. */
static const char *process_name(const struct pt_model *m, const struct pt_device *dv)
{
	if (!dv->pid)
		return NULL;
	for (size_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *h = &m->devices.v[d];
		if (h->kind == PT_DEV_CPU && h->pid == dv->pid && h->rank == dv->rank && h->name && *h->name)
			return h->name;
	}
	return NULL;
}

/*
 * Kineto's pid/tid scheme and row names (cupti.md §7.5): device rows pid =
 * device id, tid = stream id, named "stream <id> " (with the trailing
 * space); host rows pid = OS pid, tid = OS tid, "thread <tid> (<name>)".
 * Rows without such an id (overflow rows of a thread, the Ascend Steps row)
 * keep their file-unique tid from TL_TID_BASE.
 */
static void kineto_row(struct tl_trace *c, struct row *r)
{
	const struct pt_model *m = c->m;
	const struct pt_device *dv = &m->devices.v[r->dev];
	bool host = dv->kind == PT_DEV_CPU;
	r->pid = host ? (dv->pid ? dv->pid : dv->id) : dv->id;
	if (r->type == R_TRACK) {
		const struct pt_track *tr = &m->tracks.v[r->track];
		bool own = !r->lane && tr->stream >= 0 && tr->stream < (int64_t)TL_TID_BASE &&
			   (tr->kind == PT_TRACK_STREAM || tr->kind == PT_TRACK_HOST_THREAD);
		char *base;
		if (tr->kind == PT_TRACK_STREAM) {
			base = pt_xasprintf("stream %lld ", (long long)tr->stream);
		} else if (tr->kind == PT_TRACK_HOST_THREAD) {
			const char *tn = tl_str(c, tr->name);
			base = *tn && strncmp(tn, "thread ", 7) ? pt_xasprintf("thread %lld (%s)", (long long)tr->stream, tn) :
								  pt_xasprintf("thread %lld", (long long)tr->stream);
		} else {
			base = pt_xstrdup(r->name);
			const char *hash = strstr(base, " #");
			if (r->lane && hash)
				base[hash - base] = 0;
		}
		free(r->name);
		r->name = r->lane ? pt_xasprintf("%s #%u", base, r->lane + 1) : pt_xstrdup(base);
		free(base);
		if (own) {
			r->tid = (uint32_t)tr->stream;
			r->sort = (int32_t)tr->stream;
		} else {
			r->sort = tr->stream >= 0 && tr->stream < INT32_MAX ? (int32_t)tr->stream : INT32_MAX;
		}
	} else {
		r->sort = -1;
	}
	/* named after the traced process, as Kineto names its host and device processes; labels "CPU" or
	 * "GPU <n>" */
	const char *pn = process_name(m, dv);
	uint32_t p = add_proc(c, r->pid, pn ? pt_xstrdup(pn) : host ? pt_xasprintf("Host %u", r->pid) :
								  pt_xasprintf("%s %u", kind_word(dv->kind), dv->id));
	c->procs.v[p].device = !host;
	c->procs.v[p].devid = dv->id;
	if (!host && !c->procs.v[p].labels)
		c->procs.v[p].labels = pt_xasprintf("%s %u", kind_word(dv->kind), dv->id);
}

/*
 * A device's entry of "deviceProperties" (chrome-trace.md §11, cupti.md §7.1): the keys known, in
 * Kineto's order; computeMinor with computeMajor (0 is a minor version).
 */
static void devprop_of(const struct pt_device *dv, struct pt_trace_devprop *p)
{
	const struct pt_gpu_limits *l = &dv->lim;
	const struct {
		const char *key;
		uint64_t v;
		bool known;
	} kv[] = {
		{ "totalGlobalMem", dv->mem_bytes, dv->mem_bytes > 0 },
		{ "computeMajor", dv->cc_major, dv->cc_major > 0 },
		{ "computeMinor", dv->cc_minor, dv->cc_major > 0 },
		{ "maxThreadsPerBlock", l->max_threads_per_block, l->max_threads_per_block > 0 },
		{ "maxThreadsPerMultiprocessor", l->max_threads_per_sm, l->max_threads_per_sm > 0 },
		{ "regsPerBlock", l->regs_per_block, l->regs_per_block > 0 },
		{ "warpSize", l->warp_size, l->warp_size > 0 },
		{ "sharedMemPerBlock", l->smem_per_block, l->smem_per_block > 0 },
		{ "numSms", dv->sm_count, dv->sm_count > 0 },
		{ "regsPerMultiprocessor", l->regs_per_sm, l->regs_per_sm > 0 },
		{ "sharedMemPerBlockOptin", l->smem_per_block_optin, l->smem_per_block_optin > 0 },
		{ "sharedMemPerMultiprocessor", l->smem_per_sm, l->smem_per_sm > 0 },
	};
	_Static_assert(sizeof(kv) / sizeof(kv[0]) <= PT_TRACE_DEVPROP_KEYS, "deviceProperties keys");
	memset(p, 0, sizeof(*p));
	p->id = dv->id;
	p->name = dv->name;
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		if (kv[i].known) {
			p->key[p->nkeys] = kv[i].key;
			p->v[p->nkeys++] = kv[i].v;
		}
}

/* The per-track scan of a model read whole: its kept events, in model order. */
static struct tl_tscan *tl_scan_model(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_tl *tl = c->tl;
	size_t nt = m->tracks.n;
	struct tl_tscan *ts = pt_xcalloc(nt ? nt : 1, sizeof(*ts));
	uint8_t *lane_of = pt_xmalloc(ev->n ? ev->n : 1);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("laying out the timeline", i, ev->n);
		int64_t du = ev->dur[i];
		uint8_t keep = tl->ev_keep[i];
		if (!(keep & 1) || du < 0 || (c->kineto && ev->kind[i] == PT_EV_GETNEXT)) /* Kineto has no get_next */
			continue;
		struct tl_tscan *q = &ts[ev->track[i]];
		int64_t st0 = ev->start[i], en = st0 + du;
		if (q->n && st0 <= q->last)
			q->slow = true;
		q->last = st0;
		if (!q->n || st0 < q->lo)
			q->lo = st0;
		if (!q->n || en > q->hi)
			q->hi = en;
		q->steps |= (keep & 2) != 0;
		q->n++;
		if (!q->slow)
			lane_of[i] = lane_next(&q->L, st0, en);
	}
	for (size_t t = 0; t < nt; t++) {
		struct tl_tscan *q = &ts[t];
		if (!q->n || !c->dev_ok[m->tracks.v[t].device])
			continue;
		q->idx = pt_xmalloc(q->n * sizeof(*q->idx));
		if (!q->slow && q->L.nl > 1)
			q->lane = pt_xmalloc(q->n);
		q->n = 0;
	}
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("laying out the timeline", i, ev->n);
		struct tl_tscan *q = &ts[ev->track[i]];
		if (!q->idx || !(tl->ev_keep[i] & 1) || ev->dur[i] < 0 || (c->kineto && ev->kind[i] == PT_EV_GETNEXT))
			continue;
		if (q->lane)
			q->lane[q->n] = lane_of[i];
		q->idx[q->n++] = (uint32_t)i;
	}
	free(lane_of);
	return ts;
}

static void build_layout(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_tl *tl = c->tl;
	size_t nd = m->devices.n;
	/* processes */
	uint32_t host_slot = 0;
	for (size_t d = 0; d < nd; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		uint32_t r = c->dev_rank[d];
		if (dv->kind == PT_DEV_CPU) {
			c->dev_pid[d] = (r + 1) * 1000 + host_slot++;
			uint32_t p = add_proc(c, c->dev_pid[d], pt_xasprintf("Rank %u Host %u", r, dv->id));
			if (dv->host && *dv->host && !c->procs.v[p].labels) /* chrome-trace.md §5.2 */
				c->procs.v[p].labels = pt_xstrdup(dv->host);
		} else {
			c->dev_pid[d] = (r + 1) * 1000 + 100 + (dv->id % 400);
			c->dev_ovpid[d] = (r + 1) * 1000 + 500 + (dv->id % 400);
			add_proc(c, c->dev_pid[d], pt_xasprintf("Rank %u %s %u", r, kind_word(dv->kind), dv->id));
		}
	}
	/* model tracks */
	size_t nt = m->tracks.n;
	int64_t *st = NULL;
	size_t nst = 0, cst = 0;
	for (size_t t = 0; t < nt; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		if (tr->kind == PT_TRACK_STREAM) {
			pt_xgrow((void **)&st, &cst, 2 * (nst + 1), sizeof(*st));
			st[2 * nst] = tr->stream;
			st[2 * nst + 1] = (int64_t)t;
			nst++;
		}
	}
	pt_sort(st, nst, 2 * sizeof(*st), stream_cmp_ctx_sort);
	int32_t *stream_rank = pt_xcalloc(nt ? nt : 1, sizeof(*stream_rank));
	{
		/* rank in stream-id order within each device */
		uint32_t *per_dev = pt_xcalloc(nd ? nd : 1, sizeof(*per_dev));
		for (size_t i = 0; i < nst; i++) {
			uint32_t t = (uint32_t)st[2 * i + 1];
			stream_rank[t] = (int32_t)per_dev[m->tracks.v[t].device]++;
		}
		free(per_dev);
	}
	free(st);
	/*
	 * One pass over the events in model order: per track the kept events,
	 * their span, lanes and whether they hold a step range. A track whose
	 * kept events come in strictly increasing start order in the model (the
	 * usual case: importers write each track in time order) is then done:
	 * that is its (start, dur desc, name) order. Any other track (equal or
	 * decreasing starts) takes the index's sorted list and fix_ties().
	 */
	struct tl_tscan *ts = c->tl->stream ? tl_stream_scan(c->tl->stream) :
			      c->tl->gstream ? tl_gstream_scan(c->tl->gstream) : NULL;
	bool own_scan = !ts;
	if (!ts)
		ts = tl_scan_model(c);
	int64_t *s = NULL, *e = NULL; /* scratch starts and ends for the other tracks */
	size_t scap = 0;
	for (size_t t = 0; t < nt; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		struct tl_tscan *q = &ts[t];
		uint32_t d = tr->device;
		if (!c->dev_ok[d] || !q->n) {
			if (own_scan)
				lanes_free(&q->L);
			continue;
		}
		uint32_t *idx = q->idx;
		size_t k = q->n;
		if (q->slow) {
			/* its kept events in (start, model order): a stable sort by start of the model order */
			struct pt_ival *iv = pt_xmalloc(k * sizeof(*iv));
			for (size_t i = 0; i < k; i++)
				iv[i] = (struct pt_ival){ ev->start[idx[i]], (int64_t)idx[i] };
			pt_ival_sort(iv, k);
			if (k > scap) {
				scap = k;
				s = pt_xrealloc(s, scap * sizeof(*s));
				e = pt_xrealloc(e, scap * sizeof(*e));
			}
			for (size_t i = 0; i < k; i++) {
				uint32_t j = (uint32_t)iv[i].e;
				idx[i] = j;
				s[i] = ev->start[j];
				e[i] = s[i] + ev->dur[j];
			}
			free(iv);
			fix_ties(c, idx, s, e, k);
		}
		struct row r = { .pid = c->dev_pid[d], .type = R_TRACK, .dev = d, .track = (uint32_t)t, .off = c->dev_off[d] };
		const char *tn = tl_str(c, tr->name);
		switch (tr->kind) {
		case PT_TRACK_STREAM:
			r.sort = 100 + stream_rank[t];
			r.name = pt_xasprintf("Stream %lld", (long long)tr->stream);
			break;
		case PT_TRACK_HOST_THREAD:
			r.sort = q->steps ? 0 : 1;
			r.order = q->lo; /* = s[0] of a sorted slow track */
			r.host = true;
			r.name = *tn && strcmp(tn, "") ? pt_xasprintf("Thread %lld (%s)", (long long)tr->stream, tn) :
							 pt_xasprintf("Thread %lld", (long long)tr->stream);
			if (*tn && !strncmp(tn, "thread ", 7))
				r.name = (free(r.name), pt_xasprintf("Thread %lld", (long long)tr->stream));
			break;
		case PT_TRACK_AICPU:
			r.sort = 100000;
			r.name = pt_xstrdup("AI CPU");
			break;
		default:
			r.sort = 100001;
			r.order = (int64_t)t;
			r.name = pt_xstrdup(*tn ? tn : "Track");
		}
		if (!q->slow && !own_scan) {
			/* streamed: no items, their count per lane (pass-timeline-stream.c fills the rows as it reads) */
			r.ranged = true;
			r.lo = q->lo;
			r.hi = q->hi;
			c->overflow += q->L.overflow;
			for (uint32_t l = 0; l < (q->L.nl > 1 ? q->L.nl : 1); l++) {
				struct row rl = r;
				rl.n = q->L.nl > 1 ? q->lane_n[l] : k;
				if (!rl.n)
					continue;
				rl.lane = l;
				rl.name = l ? pt_xasprintf("%s #%u", r.name, l + 1) : pt_xstrdup(r.name);
				pt_vec_push(&c->rows, rl);
			}
			free(r.name);
		} else if (!q->slow) {
			r.ranged = true;
			r.lo = q->lo;
			r.hi = q->hi;
			c->overflow += q->L.overflow;
			lane_rows(c, r, idx, q->lane, q->L.nl, k);
			free(q->lane);
		} else {
			add_rows(c, r, idx, s, e, k);
		}
		if (own_scan)
			lanes_free(&q->L);
	}
	free(s);
	free(e);
	if (own_scan)
		free(ts);
	free(stream_rank);
	/* synthetic rows */
	for (size_t d = 0; d < nd; d++) {
		const struct pt_tl_device *td = &tl->dev[d];
		if (!c->dev_ok[d] || m->devices.v[d].kind == PT_DEV_CPU)
			continue;
		if (c->kineto) {
			/* ProfilerStep#<n> rows: the host step ranges where the model has them, else the device's steps */
			if (!c->host_steps && td->steps.s.n) {
				c->step_first[d] = td->steps.s.v[0].step;
				c->step_last[d] = td->steps.s.v[td->steps.s.n - 1].step;
				add_slice_row(c, (uint32_t)d, SL_KSTEPS, 0, &td->steps, 0, pt_xstrdup("Steps"));
			}
			if (!c->o.extra_tracks)
				continue;
		}
		add_slice_row(c, (uint32_t)d, SL_STEPS, 0, &td->steps, 0, pt_xstrdup("Steps"));
		for (uint32_t l = 0; l < tl->scope_depth; l++)
			add_slice_row(c, (uint32_t)d, SL_SCOPE, l, &td->scope[l], 1 + (int32_t)l, pt_xasprintf("Scope L%u", l));
		add_slice_row(c, (uint32_t)d, SL_COMM, 0, &td->comm, 1 + (int32_t)tl->scope_depth,
			      pt_xstrdup("Communication"));
		if (!td->has_overlap)
			continue;
		static const char *const ovn[] = { "Merged Computation Op", "Merged Communication Op",
						   "Pure Communication Op", "Free Time" };
		bool any = false;
		for (int k = 0; k < PT_TL_OV_N; k++) {
			/* count the row's intervals and their span; they are made again as the merge reads them */
			struct ivgen *g = pt_xcalloc(1, sizeof(*g));
			g->src = td->ov[k];
			pt_tl_ovit_init(&g->it, &g->src);
			size_t n = 0;
			struct pt_ival v;
			int64_t lo = 0, hi = 0;
			while (pt_tl_ovit_next(&g->it, &v)) {
				if (!n++)
					lo = v.s;
				hi = v.e; /* disjoint, in order: the last ends last */
			}
			if (!n) {
				free(g);
				continue;
			}
			pt_tl_ovit_init(&g->it, &g->src);
			any = true;
			/* no idx: item k is interval k (tl_row_item) */
			struct row r = { .pid = c->dev_ovpid[d], .sort = k, .name = pt_xstrdup(ovn[k]), .type = R_IV,
					 .level = (uint32_t)k, .dev = (uint32_t)d, .off = c->dev_off[d], .iv = g,
					 .n = n, .ranged = true, .lo = lo, .hi = hi };
			pt_vec_push(&c->rows, r);
		}
		if (any)
			add_proc(c, c->dev_ovpid[d], pt_xasprintf("Rank %u %s %u Overlap", c->dev_rank[d],
								  kind_word(m->devices.v[d].kind), m->devices.v[d].id));
	}
	pt_sort(c->rows.v, c->rows.n, sizeof(*c->rows.v), row_cmp);
	if (c->kineto) { /* processes by Kineto's pids (cupti.md §7.5) */
		for (size_t i = 0; i < c->procs.n; i++)
			free(c->procs.v[i].name), free(c->procs.v[i].labels);
		c->procs.n = 0;
	}
	for (size_t i = 0; i < c->rows.n; i++) {
		struct row *r = &c->rows.v[i];
		r->tid = TL_TID_BASE + (uint32_t)i;
		if (c->kineto)
			kineto_row(c, r);
		for (size_t p = 0; p < c->procs.n; p++)
			if (c->procs.v[p].pid == r->pid && !c->procs.v[p].used) {
				c->procs.v[p].used = true;
				c->procs.v[p].first_tid = r->tid;
			}
	}
}

/* Absolute (export clock) min start and max end over everything exported, in
 * 128 bits (a time plus its clock offset may leave int64); a > b when empty. */
static void time_range(const struct tl_trace *c, __int128 *lo, __int128 *hi)
{
	const struct pt_model *m = c->m;
	__int128 a = (__int128)INT64_MAX + 1, b = (__int128)INT64_MIN - 1;
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->ranged) {
			if ((__int128)rw->lo + rw->off < a)
				a = (__int128)rw->lo + rw->off;
			if ((__int128)rw->hi + rw->off > b)
				b = (__int128)rw->hi + rw->off;
			continue;
		}
		for (size_t k = 0; k < rw->n; k++) {
			uint32_t i = tl_row_item(rw, k);
			int64_t s, e;
			if (rw->type == R_TRACK) {
				s = m->events.start[i];
				e = ev_end(&m->events, i);
			} else if (rw->type == R_SLICE) {
				s = rw->sl[i].start;
				e = rw->sl[i].end;
			} else {
				s = tl_iv_at(rw->iv, i)->s;
				e = tl_iv_at(rw->iv, i)->e;
			}
			if ((__int128)s + rw->off < a)
				a = (__int128)s + rw->off;
			if ((__int128)e + rw->off > b)
				b = (__int128)e + rw->off;
		}
	}
	for (size_t q = 0; q < c->counters.n; q++) {
		const struct csrc *cs = &c->counters.v[q];
		for (size_t k = 0; k < cs->n; k++) {
			__int128 t = (__int128)csrc_time(m, cs, k) + cs->off;
			if (!k && cs->carry0)
				t = (__int128)cs->carry_t + cs->off;
			if (t < a)
				a = t;
			if (t > b)
				b = t;
		}
	}
	*lo = a;
	*hi = b;
}


/* ------------------------------------------------------------------ the trace */

static void publish(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	struct pt_trace *t = &c->pub;
	t->profile = c->kineto ? PT_TRACE_KINETO : PT_TRACE_VIEWER;
	t->rank = c->o.rank;
	t->clock = c->clock;
	t->base_ns = c->base;
	t->overflow_events = c->overflow;
	t->unaligned_events = c->unaligned;
	t->unanchored_samples = c->unanchored;
	t->scope_skipped = c->tl->scope_skipped;
	/* ranks: ascending, each with the offset of its first aligned device */
	size_t nd = m->devices.n;
	c->pranks = pt_xcalloc(nd ? nd : 1, sizeof(*c->pranks));
	for (size_t d = 0; d < nd; d++) {
		bool seen = false;
		for (size_t i = 0; i < t->nranks; i++)
			seen |= c->pranks[i].rank == c->dev_rank[d];
		if (!seen)
			c->pranks[t->nranks++].rank = c->dev_rank[d];
	}
	for (size_t i = 1; i < t->nranks; i++)
		for (size_t j = i; j > 0 && c->pranks[j - 1].rank > c->pranks[j].rank; j--) {
			struct pt_trace_rank x = c->pranks[j];
			c->pranks[j] = c->pranks[j - 1];
			c->pranks[j - 1] = x;
		}
	for (size_t i = 0; i < t->nranks; i++)
		for (size_t d = 0; d < nd; d++)
			if (c->dev_rank[d] == c->pranks[i].rank && c->dev_ok[d]) {
				c->pranks[i].offset_ns = c->dev_off[d];
				break;
			}
	t->ranks = c->pranks;
	/* distributedInfo: the first world size and backend that a device of the file's rank records */
	for (size_t d = 0; d < nd; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (c->kineto ? c->dev_rank[d] != c->o.rank : t->nranks != 1)
			continue;
		if (!t->world_size && dv->world_size > 0)
			t->world_size = dv->world_size;
		if (!t->backend && dv->comm_backend && *dv->comm_backend)
			t->backend = dv->comm_backend;
	}
	/* device properties: the devices (kineto: of the file's rank) */
	c->pdevprops = pt_xcalloc(nd ? nd : 1, sizeof(*c->pdevprops));
	for (size_t d = 0; d < nd; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind == PT_DEV_CPU || (c->kineto && c->dev_rank[d] != c->o.rank))
			continue;
		devprop_of(dv, &c->pdevprops[t->ndevprops++]);
	}
	t->devprops = c->pdevprops;
	/* processes: viewer: those with rows or counters; kineto: those with rows */
	c->pprocs = pt_xcalloc(c->procs.n ? c->procs.n : 1, sizeof(*c->pprocs));
	for (size_t p = 0; p < c->procs.n; p++) {
		const struct proc *pr = &c->procs.v[p];
		bool shown = pr->used;
		for (size_t i = 0; i < c->counters.n && !shown && !c->kineto; i++)
			shown = c->counters.v[i].pid == pr->pid;
		c->pprocs[p] = (struct pt_trace_proc){ .pid = pr->pid, .name = pr->name, .labels = pr->labels,
						       .shown = shown, .device = pr->device,
						       .sort_index = c->kineto && pr->device ? 5000000u + pr->devid : pr->pid };
	}
	t->nprocs = c->procs.n;
	t->procs = c->pprocs;
	c->prows = pt_xcalloc(c->rows.n ? c->rows.n : 1, sizeof(*c->prows));
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct row *r = &c->rows.v[i];
		c->prows[i] = (struct pt_trace_row){ r->pid, r->tid, r->sort, r->name };
	}
	t->nrows = c->rows.n;
	t->rows = c->prows;
	c->pcounters = pt_xcalloc(c->counters.n ? c->counters.n : 1, sizeof(*c->pcounters));
	for (size_t i = 0; i < c->counters.n; i++) {
		const struct csrc *cs = &c->counters.v[i];
		bool own = cs->tid >= TL_TID_BASE + c->rows.n;
		for (size_t j = 0; j < i && own; j++) /* the counters of one process share its row */
			own = c->counters.v[j].tid != cs->tid;
		c->pcounters[i] = (struct pt_trace_counter){ cs->pid, cs->tid, own };
	}
	t->ncounters = c->counters.n;
	t->counters = c->pcounters;
	t->nflows = c->narrows;
	t->nbounds = c->bounds.n;
	t->bounds = c->bounds.v;
	t->bound_step = c->bound_step.v;
}

/* Step boundaries (rel) for a writer that splits: starts of the Steps slices, each time once. */
static void build_bounds(struct tl_trace *c)
{
	PT_VEC(struct pt_ival) b = { 0 };
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->type != R_SLICE || rw->slkind != SL_STEPS)
			continue;
		for (size_t k = 0; k < rw->n; k++) {
			struct pt_ival iv = { rw->sl[rw->idx[k]].start + rw->off - c->base, rw->sl[rw->idx[k]].step };
			pt_vec_push(&b, iv);
		}
	}
	pt_ival_sort(b.v, b.n);
	for (size_t i = 0; i < b.n; i++) {
		if (c->bounds.n && c->bounds.v[c->bounds.n - 1] == b.v[i].s)
			continue;
		pt_vec_push(&c->bounds, b.v[i].s);
		pt_vec_push(&c->bound_step, (uint32_t)b.v[i].e);
	}
	pt_vec_free(&b);
}

int pt_tl_trace_new(const struct pt_model *m, struct pt_index *x, const struct pt_tl *tl,
		    const struct pt_tl_trace_opts *o, struct pt_diag *diag, struct pt_trace **out, struct pt_err **e)
{
	struct tl_trace *c = pt_xcalloc(1, sizeof(*c));
	*out = NULL;
	c->m = m;
	c->x = x;
	c->tl = tl;
	c->o = *o;
	size_t nd = m->devices.n ? m->devices.n : 1;
	c->dev_off = pt_xcalloc(nd, sizeof(*c->dev_off));
	c->dev_ok = pt_xcalloc(nd, 1);
	c->dev_pid = pt_xcalloc(nd, sizeof(*c->dev_pid));
	c->dev_ovpid = pt_xcalloc(nd, sizeof(*c->dev_ovpid));
	c->dev_rank = pt_xcalloc(nd, sizeof(*c->dev_rank));
	for (size_t d = 0; d < m->devices.n; d++)
		c->dev_rank[d] = tl_device_rank(&m->devices.v[d]);
	c->has_corr = m->events.dense & PT_EVCOL_CORR;
	c->kineto = o->profile == PT_TRACE_KINETO;
	c->step_first = pt_xcalloc(nd, sizeof(*c->step_first));
	c->step_last = pt_xcalloc(nd, sizeof(*c->step_last));
	if (c->kineto && !tl_streamed(tl)) { /* (a streamed model: no host step ranges; its events carry the rest) */
		for (size_t i = 0; i < m->events.n && !c->host_steps; i++)
			c->host_steps = (tl->ev_keep[i] & 3) == 3;
		if (m->copies.n) {
			c->copy_of = pt_xcalloc(m->events.n ? m->events.n : 1, sizeof(*c->copy_of));
			for (size_t k = 0; k < m->copies.n; k++)
				if (m->copies.v[k].event < m->events.n)
					c->copy_of[m->copies.v[k].event] = (uint32_t)k + 1;
		}
		if (m->kernels.n) {
			c->kconf_of = pt_xcalloc(m->events.n ? m->events.n : 1, sizeof(*c->kconf_of));
			for (size_t k = 0; k < m->kernels.n; k++)
				if (m->kernels.v[k].event < m->events.n && m->kernels.v[k].config < m->kernel_configs.n)
					c->kconf_of[m->kernels.v[k].event] = m->kernels.v[k].config + 1;
		}
	}
	if (c->kineto && tl->gstream) /* (streamed with host ranges: its third read saw them) */
		c->host_steps = tl_gstream_host_steps(tl->gstream);
	if (c->kineto)
		tl_kext_init(c);
	tl_events_init(c);
	choose_clock(c, diag);
	build_layout(c);
	if (tl->stream)
		tl_stream_bind(c);
	else if (tl->gstream)
		tl_gstream_bind(c);
	tl_build_counters(c);
	__int128 lo, hi;
	time_range(c, &lo, &hi);
	if (lo > hi)
		lo = hi = 0;
	if (lo < INT64_MIN + 1000 || hi > INT64_MAX) {
		/* only a model whose clock offsets break the model's time range (2^62 ns) */
		pt_err(e, "event times leave the int64 ns range in clock '%s' (clock offsets out of range)", c->clock);
		pt_tl_trace_free(&c->pub);
		return -1;
	}
	c->base = lo >= 0 ? (int64_t)lo / 1000 * 1000 : -((-(int64_t)lo + 999) / 1000 * 1000);
	if (hi - c->base >= TL_MAX_REL) {
		pt_err(e, "trace spans %llu ns, more than 2^53 ns: cannot write microseconds exactly",
		       (unsigned long long)(hi - c->base));
		pt_tl_trace_free(&c->pub);
		return -1;
	}
	c->span = hi > c->base ? (int64_t)(hi - c->base) : 0;
	tl_build_flows(c);
	tl_build_gpu_annotations(c);
	tl_build_sources(c);
	build_bounds(c);
	publish(c);
	c->pub.rewind(&c->pub);
	*out = &c->pub;
	return 0;
}

void pt_tl_trace_free(struct pt_trace *t)
{
	if (!t)
		return;
	struct tl_trace *c = (struct tl_trace *)t;
	tl_stream_unbind(c);
	tl_gstream_unbind(c);
	for (size_t i = 0; i < c->procs.n; i++)
		free(c->procs.v[i].name), free(c->procs.v[i].labels);
	pt_vec_free(&c->procs);
	for (size_t i = 0; i < c->rows.n; i++) {
		free(c->rows.v[i].name);
		free(c->rows.v[i].idx);
		free(c->rows.v[i].iv);
	}
	pt_vec_free(&c->rows);
	pt_vec_free(&c->flows);
	free(c->arrows);
	free(c->arrow_ts.base);
	free(c->arrow_ts.wat);
	free(c->arrow_ts.d);
	free(c->arrow_ts.wide);
	for (size_t i = 0; i < c->counters.n; i++) {
		free(c->counters.v[i].idx);
		free(c->counters.v[i].name);
	}
	pt_vec_free(&c->counters);
	pt_vec_free(&c->srcs);
	pt_vec_free(&c->ganns);
	free(c->gann_idx);
	free(c->flow_s);
	free(c->flow_f);
	tl_events_free(c);
	pt_vec_free(&c->bounds);
	pt_vec_free(&c->bound_step);
	free(c->dev_off);
	free(c->dev_ok);
	free(c->dev_pid);
	free(c->dev_ovpid);
	free(c->dev_rank);
	free(c->copy_of);
	free(c->kconf_of);
	tl_kext_free(c);
	free(c->step_first);
	free(c->step_last);
	free(c->pprocs);
	free(c->prows);
	free(c->pcounters);
	free(c->pranks);
	free(c->pdevprops);
	free(c);
}
