#include "model/index.h"

#include <stdlib.h>
#include <string.h>

#include <demangle.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "support/names.h"
#include "support/progress.h"
#include "support/xalloc.h"

struct dev_sets {
	bool built, cm_built;
	struct pt_ivset comp, comm;
	struct pt_ivset comp_or_comm; /* built on request (pt_index_comp_or_comm) */
};

#define PT_INDEX_NKINDS 10 /* enum pt_event_kind values */

struct pt_index {
	const struct pt_model *m;
	struct pt_ivset *kind_sets; /* devices x kinds, built on demand */
	uint8_t *kind_built;
	/* per track sorted events: built all at once on first use */
	uint32_t *track_ev;   /* event indexes grouped by track */
	size_t *track_off;    /* ntracks + 1 offsets */
	/* classification: 0 unknown yet, 1 computation, 2 communication */
	uint8_t *cls;
	bool classified;
	struct dev_sets *dev;
	const regex_t *comm_re; /* --comm-pattern, NULL = the name lists */
	bool comm_demangle;
	bool has_origin;
	int64_t origin;
};

struct pt_index *pt_index_new(const struct pt_model *m)
{
	struct pt_index *x = pt_xcalloc(1, sizeof(*x));
	x->m = m;
	x->dev = pt_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*x->dev));
	return x;
}

void pt_index_set_comm_pattern(struct pt_index *x, const regex_t *re, bool demangle)
{
	x->comm_re = re;
	x->comm_demangle = demangle;
}

void pt_index_free(struct pt_index *x)
{
	if (!x)
		return;
	free(x->track_ev);
	free(x->track_off);
	free(x->cls);
	for (size_t i = 0; i < x->m->devices.n; i++) {
		pt_ivset_free(&x->dev[i].comp);
		pt_ivset_free(&x->dev[i].comm);
		pt_ivset_free(&x->dev[i].comp_or_comm);
	}
	free(x->dev);
	if (x->kind_sets)
		for (size_t i = 0; i < x->m->devices.n * PT_INDEX_NKINDS; i++)
			pt_ivset_free(&x->kind_sets[i]);
	free(x->kind_sets);
	free(x->kind_built);
	free(x);
}

/* o := min(o, v), have: o holds a time */
static void take(int64_t *o, bool *have, int64_t v)
{
	if (!*have || v < *o)
		*o = v;
	*have = true;
}

int64_t pt_model_origin(const struct pt_model *m, const int64_t *events_min)
{
	int64_t o = 0;
	bool have = false;
	if (events_min && *events_min != INT64_MAX)
		take(&o, &have, *events_min);
	for (size_t i = 0; !events_min && i < m->events.n; i++)
		take(&o, &have, m->events.start[i]);
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *s = &m->steps.v[i];
		if (s->has & PT_STEP_HAS_START)
			take(&o, &have, s->start);
		if (s->has & PT_STEP_HAS_FP)
			take(&o, &have, s->fp);
		if (s->has & PT_STEP_HAS_BP)
			take(&o, &have, s->bp);
		if (s->has & PT_STEP_HAS_END)
			take(&o, &have, s->end);
		for (size_t j = 0; j < s->comm.n; j++)
			take(&o, &have, s->comm.v[j].start);
	}
	return o;
}

int64_t pt_index_origin(struct pt_index *x)
{
	if (!x->has_origin) {
		x->origin = pt_model_origin(x->m, NULL);
		x->has_origin = true;
	}
	return x->origin;
}

static void build_tracks(struct pt_index *x);

/*
 * A k-way merge of the tracks' sorted event lists: a tournament tree of
 * losers keyed by start (one comparison per level for each event). Times are
 * within ±2^62 (model.h), so INT64_MAX marks a finished track.
 */
void pt_index_merge(struct pt_index *x, const uint32_t *tracks, size_t nt, pt_index_visit fn, void *arg)
{
	const struct pt_events *ev = &x->m->events;
	if (!x->track_off)
		build_tracks(x);
	const uint32_t *te = x->track_ev;
	size_t nl = 1;
	while (nl < nt)
		nl *= 2;
	int64_t *key = pt_xmalloc(nl * sizeof(*key));
	size_t *pos = pt_xmalloc(nl * sizeof(*pos)), *end = pt_xmalloc(nl * sizeof(*end));
	uint32_t *loser = pt_xmalloc(nl * sizeof(*loser)); /* inner nodes 1 .. nl-1 */
	size_t total = 0, done = 0;
	for (size_t l = 0; l < nl; l++) {
		pos[l] = end[l] = 0;
		if (l < nt) {
			pos[l] = x->track_off[tracks[l]];
			end[l] = x->track_off[tracks[l] + 1];
		}
		key[l] = pos[l] < end[l] ? ev->start[te[pos[l]]] : INT64_MAX;
		total += end[l] - pos[l];
	}
	/* build bottom-up: each node keeps the loser of its subtree's match and passes the winner up */
	uint32_t w = 0;
	if (nl > 1) {
		uint32_t *up = pt_xmalloc(2 * nl * sizeof(*up));
		for (size_t i = 0; i < nl; i++)
			up[nl + i] = (uint32_t)i;
		for (size_t i = nl - 1; i >= 1; i--) {
			uint32_t a = up[2 * i], b = up[2 * i + 1];
			up[i] = key[b] < key[a] ? b : a;
			loser[i] = key[b] < key[a] ? a : b;
		}
		w = up[1];
		free(up);
	}
	while (key[w] != INT64_MAX) {
		pt_progress_tick("merging the device tracks", done++, total);
		fn(arg, te[pos[w]]);
		size_t p = ++pos[w];
		int64_t kw = key[w] = p < end[w] ? ev->start[te[p]] : INT64_MAX;
		for (size_t node = (w + nl) >> 1; node; node >>= 1) {
			uint32_t o = loser[node];
			if (key[o] < kw) {
				loser[node] = w;
				w = o;
				kw = key[o];
			}
		}
	}
	free(key);
	free(pos);
	free(end);
	free(loser);
}

/* The tracks of device dev, in track order; *n of them (free the result). */
static uint32_t *dev_tracks(const struct pt_model *m, uint32_t dev, size_t *n)
{
	uint32_t *t = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*t));
	*n = 0;
	for (size_t i = 0; i < m->tracks.n; i++)
		if (m->tracks.v[i].device == dev)
			t[(*n)++] = (uint32_t)i;
	return t;
}

/* Unions fed in start order by pt_index_merge: class 1 into out[0], class 2 into out[1]. */
struct union_acc {
	const struct pt_index *x;
	int kind; /* < 0: the computation / communication classes; else class 1 = of this kind */
	struct pt_ivset *out[2];
};

static void union_visit(void *arg, size_t i)
{
	struct union_acc *a = arg;
	const struct pt_events *ev = &a->x->m->events;
	int c = a->kind < 0 ? a->x->cls[i] : ev->kind[i] == a->kind;
	if (c)
		pt_ivset_append(a->out[c - 1], ev->start[i], ev->start[i] + ev->dur[i]);
}

/* Union the events of device dev by class (see union_acc), without copying or sorting them. */
static void dev_unions(struct pt_index *x, uint32_t dev, int kind, struct pt_ivset *out0, struct pt_ivset *out1)
{
	size_t nt;
	uint32_t *tr = dev_tracks(x->m, dev, &nt);
	struct union_acc a = { x, kind, { out0, out1 } };
	out0->n = out1->n = 0;
	pt_index_merge(x, tr, nt, union_visit, &a);
	free(tr);
}

const struct pt_ivset *pt_index_kind_set(struct pt_index *x, uint32_t dev, int kind)
{
	const struct pt_model *m = x->m;
	if (!x->kind_sets) {
		size_t n = (m->devices.n ? m->devices.n : 1) * PT_INDEX_NKINDS;
		x->kind_sets = pt_xcalloc(n, sizeof(*x->kind_sets));
		x->kind_built = pt_xcalloc(n, 1);
	}
	size_t slot = (size_t)dev * PT_INDEX_NKINDS + (size_t)(kind >= 0 && kind < PT_INDEX_NKINDS ? kind : 0);
	struct pt_ivset *s = &x->kind_sets[slot];
	if (x->kind_built[slot])
		return s;
	if (kind >= 0 && kind < PT_INDEX_NKINDS) /* else no event has that kind: empty */
		dev_unions(x, dev, kind, s, s);
	x->kind_built[slot] = 1;
	return s;
}

static void build_tracks(struct pt_index *x)
{
	const struct pt_model *m = x->m;
	const struct pt_events *ev = &m->events;
	size_t nt = m->tracks.n;
	x->track_off = pt_xcalloc(nt + 1, sizeof(*x->track_off));
	x->track_ev = pt_xmalloc((ev->n ? ev->n : 1) * sizeof(*x->track_ev));
	/* count, and find the tracks whose events are not in start order already
	 * (one sequential pass, not a gather through each track's indexes) */
	int64_t *last = pt_xmalloc((nt ? nt : 1) * sizeof(*last));
	uint8_t *unsorted = pt_xcalloc(nt ? nt : 1, 1);
	for (size_t t = 0; t < nt; t++)
		last[t] = INT64_MIN;
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("indexing the events", i, ev->n);
		uint32_t t = ev->track[i];
		x->track_off[t + 1]++;
		unsorted[t] |= ev->start[i] < last[t];
		last[t] = ev->start[i];
	}
	free(last);
	for (size_t t = 0; t < nt; t++)
		x->track_off[t + 1] += x->track_off[t];
	size_t *fill = pt_xmalloc((nt ? nt : 1) * sizeof(*fill));
	memcpy(fill, x->track_off, nt * sizeof(*fill));
	for (size_t i = 0; i < ev->n; i++)
		x->track_ev[fill[ev->track[i]]++] = (uint32_t)i;
	free(fill);
	/* sort each track by start: radix sort via (start, index) intervals */
	for (size_t t = 0; t < nt; t++) {
		size_t a = x->track_off[t], n = x->track_off[t + 1] - a;
		if (!unsorted[t])
			continue;
		struct pt_ival *iv = pt_xmalloc(n * sizeof(*iv));
		for (size_t k = 0; k < n; k++)
			iv[k] = (struct pt_ival){ ev->start[x->track_ev[a + k]], (int64_t)x->track_ev[a + k] };
		pt_ival_sort(iv, n); /* stable: ties keep model order */
		for (size_t k = 0; k < n; k++)
			x->track_ev[a + k] = (uint32_t)iv[k].e;
		free(iv);
	}
	free(unsorted);
}

const uint32_t *pt_index_track_events(struct pt_index *x, uint32_t track, size_t *n)
{
	if (!x->track_off)
		build_tracks(x);
	*n = x->track_off[track + 1] - x->track_off[track];
	return x->track_ev + x->track_off[track];
}

bool pt_index_is_device_task(const struct pt_index *x, size_t i)
{
	uint8_t k = x->m->events.kind[i];
	return k == PT_EV_TASK || k == PT_EV_AICPU || k == PT_EV_KERNEL;
}

static bool comm_type(const char *t)
{
	static const char *const names[] = { "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AllToAll",
					     "AllToAllv", "Send", "Receive", "NeighborExchange", NULL };
	if (!strncmp(t, "Hcom", 4))
		return true;
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(t, names[i]))
			return true;
	return false;
}

bool pt_index_comm_re_match(const regex_t *re, bool demangle, const char *s)
{
	char *dm = NULL;
	if (demangle && s[0] == '_' && s[1] == 'Z')
		dm = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
	bool r = !regexec(re, dm ? dm : s, 0, NULL, 0);
	free(dm);
	return r;
}

/* Does --comm-pattern match the output name of s (demangled unless --no-demangle)? */
static bool comm_re_match(const struct pt_index *x, const char *s)
{
	return pt_index_comm_re_match(x->comm_re, x->comm_demangle, s);
}

bool pt_index_comm_kernel_name(const char *s)
{
	static const char *const pats[] = { "nccl", "xccl", "rccl", "hccl", NULL };
	return pt_name_has_any(s, pats);
}

/* A communication kernel by its name (summary.md §2.5). */
static bool comm_kernel_name(const struct pt_index *x, const char *s)
{
	return x->comm_re ? comm_re_match(x, s) : pt_index_comm_kernel_name(s);
}

bool pt_index_comm_op_name(const char *s)
{
	static const char *const pats[] = { "allreduce",      "all_reduce", "allgather", "all_gather", "reducescatter",
					    "reduce_scatter", "alltoall",   "all_to_all", "broadcast", "rpc",
					    "hcom",           NULL };
	return pt_name_has_any(s, pats);
}

bool pt_index_comm_ranges(const struct pt_model *m)
{
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (!ri->type)
			continue;
		const char *t = pt_model_strget(m, ri->type);
		if (!strcmp(t, "Communication") ||
		    (!strcmp(t, "Operator") && ri->label && pt_index_comm_op_name(pt_model_strget(m, ri->label))))
			return true;
	}
	return false;
}

/* An Operator range with a communication name (summary.md §2.5). */
static bool comm_op_name(const struct pt_index *x, const char *s)
{
	return x->comm_re ? comm_re_match(x, s) : pt_index_comm_op_name(s);
}

/*
 * Kernels launched from inside a communication host range (summary.md §2.5:
 * attributed to such a range or to a descendant of one). With ranges nested
 * on a thread (§2.2), the ancestors of the deepest range holding a call are
 * exactly the ranges holding it, so a call is inside a communication range
 * iff its start lies in the union of that thread's communication ranges.
 * The launching call: the importer's link, else the API call with the same
 * correlation id (first wins).
 */
static void classify_attributed(struct pt_index *x)
{
	const struct pt_model *m = x->m;
	const struct pt_events *ev = &m->events;
	size_t nt = m->tracks.n;
	struct pt_ival **iv = NULL;
	size_t *niv = NULL, *civ = NULL;
	bool any = false;
	for (size_t k = 0; k < m->ranges.n; k++) {
		const struct pt_range_info *ri = &m->ranges.v[k];
		size_t i = ri->event;
		if (i >= ev->n || ev->kind[i] != PT_EV_RANGE || !ri->type || (ri->flags & PT_RANGE_INSTANT) || !ev->dur[i])
			continue;
		const char *t = pt_strtab_get(&m->strings, ri->type);
		bool c = !strcmp(t, "Communication") ||
			 (!strcmp(t, "Operator") &&
			  comm_op_name(x, pt_strtab_get(&m->strings, ri->label ? ri->label : ev->name[i])));
		if (!c)
			continue;
		if (!iv) {
			iv = pt_xcalloc(nt ? nt : 1, sizeof(*iv));
			niv = pt_xcalloc(nt ? nt : 1, sizeof(*niv));
			civ = pt_xcalloc(nt ? nt : 1, sizeof(*civ));
		}
		uint32_t tr = ev->track[i];
		pt_xgrow((void **)&iv[tr], &civ[tr], niv[tr] + 1, sizeof(**iv));
		iv[tr][niv[tr]++] = (struct pt_ival){ ev->start[i], ev->start[i] + ev->dur[i] };
		any = true;
	}
	if (!any)
		return;
	struct pt_ivset *cr = pt_xcalloc(nt, sizeof(*cr));
	for (size_t t = 0; t < nt; t++) {
		pt_ivset_build(&cr[t], iv[t], niv[t]);
		free(iv[t]);
	}
	free(iv);
	free(niv);
	free(civ);
	/* launching call of each kernel */
	uint32_t *call = pt_xcalloc(ev->n ? ev->n : 1, sizeof(*call)); /* event index + 1 */
	if (m->links.n) {
		for (size_t l = 0; l < m->links.n; l++)
			if (m->links.v[l].event < ev->n && m->links.v[l].api < ev->n)
				call[m->links.v[l].event] = m->links.v[l].api + 1;
	} else {
		struct pt_hashmap corr;
		pt_hashmap_init(&corr);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && ev->corr[i])
				pt_hashmap_put(&corr, ev->corr[i], i, NULL);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_KERNEL && ev->corr[i]) {
				uint64_t *a = pt_hashmap_get(&corr, ev->corr[i]);
				if (a)
					call[i] = (uint32_t)*a + 1;
			}
		pt_hashmap_free(&corr);
	}
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("indexing the events", i, ev->n);
		if (ev->kind[i] != PT_EV_KERNEL || x->cls[i] == 2 || !call[i])
			continue;
		size_t r = call[i] - 1;
		if (pt_ivset_contains(&cr[ev->track[r]], ev->start[r]))
			x->cls[i] = 2;
	}
	free(call);
	for (size_t t = 0; t < nt; t++)
		pt_ivset_free(&cr[t]);
	free(cr);
}

uint8_t *pt_index_op_comm(const struct pt_model *m)
{
	/* ops of a communication type, or named at a point tag >= 3 (the step comm names) */
	uint8_t *op_comm = pt_xcalloc(m->ops.n ? m->ops.n : 1, 1);
	struct pt_hashmap comm_names;
	pt_hashmap_init(&comm_names);
	for (size_t i = 0; i < m->steps.n; i++)
		for (size_t j = 0; j < m->steps.v[i].comm.n; j++)
			pt_hashmap_put(&comm_names, m->steps.v[i].comm.v[j].name, 1, NULL);
	for (size_t i = 0; i < m->ops.n; i++) {
		const struct pt_op *op = &m->ops.v[i];
		op_comm[i] = comm_type(pt_strtab_get(&m->strings, op->type)) ||
			     pt_hashmap_get(&comm_names, op->name) != NULL;
	}
	pt_hashmap_free(&comm_names);
	return op_comm;
}

static void classify(struct pt_index *x)
{
	const struct pt_model *m = x->m;
	const struct pt_events *ev = &m->events;
	x->cls = pt_xcalloc(ev->n ? ev->n : 1, 1);
	uint8_t *op_comm = pt_index_op_comm(m);
	/* streams (tracks) that run a framework-named task */
	uint8_t *named_track = pt_xcalloc(m->tracks.n ? m->tracks.n : 1, 1);
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_TASK && ev->op[i])
			named_track[ev->track[i]] = 1;
	/* kernel names are matched once per name, not once per kernel: 0 not seen, 1 computation, 2 communication */
	uint8_t *kname = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("indexing the events", i, ev->n);
		switch (ev->kind[i]) {
		case PT_EV_TASK:
			x->cls[i] = pt_index_task_class(op_comm, ev->op[i], named_track[ev->track[i]]);
			break;
		case PT_EV_AICPU:
			x->cls[i] = 1;
			break;
		case PT_EV_KERNEL: {
			uint8_t *k = &kname[ev->name[i] < m->strings.n ? ev->name[i] : 0];
			if (!*k)
				*k = comm_kernel_name(x, pt_strtab_get(&m->strings, ev->name[i])) ? 2 : 1;
			x->cls[i] = *k;
			break;
		}
		default:
			x->cls[i] = 0;
		}
	}
	free(op_comm);
	free(named_track);
	free(kname);
	classify_attributed(x);
	x->classified = true;
}

bool pt_index_is_comm(struct pt_index *x, size_t i)
{
	if (!x->classified)
		classify(x);
	return x->cls[i] == 2;
}

static void build_dev(struct pt_index *x, uint32_t dev)
{
	struct dev_sets *d = &x->dev[dev];
	if (d->built)
		return;
	if (!x->classified)
		classify(x);
	const struct pt_model *m = x->m;
	struct pt_ivset comm_ev = { 0 };
	dev_unions(x, dev, -1, &d->comp, &comm_ev); /* computation and communication events */
	struct pt_ival *k = NULL;
	size_t nk = pt_index_comm_spans(m, dev, &k);
	if (nk) {
		struct pt_ivset spans = { 0 };
		pt_ivset_build(&spans, k, nk);
		pt_ivset_union(&d->comm, &comm_ev, &spans);
		pt_ivset_free(&spans);
		pt_ivset_free(&comm_ev);
	} else {
		d->comm = comm_ev;
	}
	/* the unions grew by doubling: give back the slack, the sets live as long as the index */
	if (d->comp.n && d->comp.cap > d->comp.n) {
		d->comp.v = pt_xrealloc(d->comp.v, d->comp.n * sizeof(*d->comp.v));
		d->comp.cap = d->comp.n;
	}
	free(k);
	d->built = true;
}

void pt_index_drop_event_lists(struct pt_index *x)
{
	free(x->track_ev);
	free(x->track_off);
	x->track_ev = NULL;
	x->track_off = NULL;
	free(x->cls); /* classify() makes them again for a device still to build */
	x->cls = NULL;
	x->classified = false;
}

size_t pt_index_comm_spans(const struct pt_model *m, uint32_t dev, struct pt_ival **out)
{
	struct pt_ival *k = NULL;
	size_t nk = 0, ck = 0;
	/* HCCL operator intervals (ascend.md §3.8): one per execution file, first start to last end */
	for (size_t a = 0, b; a < m->hccl.n; a = b) {
		const struct pt_hccl_task *h = m->hccl.v;
		int64_t s = h[a].ts, e = h[a].ts + h[a].dur;
		for (b = a + 1; b < m->hccl.n && h[b].device == h[a].device && h[b].op == h[a].op && h[b].exec == h[a].exec;
		     b++) {
			if (h[b].ts < s)
				s = h[b].ts;
			if (h[b].ts + h[b].dur > e)
				e = h[b].ts + h[b].dur;
		}
		if (h[a].device != dev)
			continue;
		pt_xgrow((void **)&k, &ck, nk + 1, sizeof(*k));
		k[nk++] = (struct pt_ival){ s, e };
	}
	for (size_t i = 0; i < m->steps.n; i++) {
		if (m->steps.v[i].device != dev)
			continue;
		for (size_t j = 0; j < m->steps.v[i].comm.n; j++) {
			const struct pt_comm *cm = &m->steps.v[i].comm.v[j];
			pt_xgrow((void **)&k, &ck, nk + 1, sizeof(*k));
			k[nk++] = (struct pt_ival){ cm->start, cm->end };
		}
	}
	*out = k;
	return nk;
}

const struct pt_ivset *pt_index_comp(struct pt_index *x, uint32_t dev)
{
	build_dev(x, dev);
	return &x->dev[dev].comp;
}

const struct pt_ivset *pt_index_comm(struct pt_index *x, uint32_t dev)
{
	build_dev(x, dev);
	return &x->dev[dev].comm;
}

const struct pt_ivset *pt_index_comp_or_comm(struct pt_index *x, uint32_t dev)
{
	build_dev(x, dev);
	struct dev_sets *d = &x->dev[dev];
	if (!d->cm_built) {
		pt_ivset_union(&d->comp_or_comm, &d->comp, &d->comm);
		d->cm_built = true;
	}
	return &d->comp_or_comm;
}

void pt_index_breakdown_set(struct pt_index *x, uint32_t dev, const struct pt_ivset *s, struct pt_breakdown *out)
{
	build_dev(x, dev);
	struct dev_sets *d = &x->dev[dev];
	memset(out, 0, sizeof(*out));
	int64_t total = 0, either = 0;
	for (size_t w = 0; w < s->n; w++) {
		int64_t a = s->v[w].s, b = s->v[w].e;
		total += b - a;
		out->computation += pt_ivset_measure_in(&d->comp, a, b);
		out->communication += pt_ivset_measure_in(&d->comm, a, b);
		either += pt_ivset_union_measure_in(&d->comp, &d->comm, a, b);
	}
	/* |C ∩ M| = |C| + |M| − |C ∪ M| within the window */
	out->overlapped = out->computation + out->communication - either;
	out->comm_not_overlapped = out->communication - out->overlapped;
	out->free = total - either;
}

void pt_index_breakdown(struct pt_index *x, uint32_t dev, int64_t a, int64_t b, struct pt_breakdown *out)
{
	struct pt_ival iv = { a, b };
	struct pt_ivset s = { &iv, b > a ? 1 : 0, 1 };
	pt_index_breakdown_set(x, dev, &s, out);
}
