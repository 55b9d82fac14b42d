/*
 * proftool summary: the item and merged views of summary.md §3.
 *
 * Ranks: one per Ascend device; one per traced process (CUPTI: the process's
 * CPU device and its GPUs, grouped by pid). Per rank the preparation of §2.1
 * (steps, disjoint windows, W, membership) runs once; GPU ranks also build
 * the host model of §2.2–§2.4: host ranges with types and parents, runtime
 * calls attached to ranges, device activities attributed through their
 * launching call, inclusive GPU sums. Each selected view then aggregates in
 * one pass over the events: items live in arrays indexed through hash maps
 * keyed by interned output names, never one allocation per event; sorting
 * happens over items only. Merged device quantities stream the union of the
 * per-track sorted events of the index (k-way merge) instead of building
 * per-event interval arrays; the C/M breakdown comes from the index.
 */
#define _GNU_SOURCE
#include "pass/pass-summary.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <demangle.h>

#include "model/hostcpu.h"
#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/interval.h"
#include "support/names.h"
#include "support/steppat.h"
#include "support/strtab.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "table/table.h"

const char *const pt_summary_view_names[] = { "device", "overview", "model",  "distributed", "operator",
					      "kernel", "memcpy",   "userdefined", "optype", "aicpu",
					      "gpu",    "api",      NULL };
const char *const pt_summary_keys[] = { "cpu-total", "cpu-avg", "cpu-max", "cpu-min", "gpu-total",
					"gpu-avg", "gpu-max", "gpu-min", "calls",   "name",    NULL };

void pt_summary_opts_init(struct pt_summary_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->views = PT_SUMMARY_VIEWS_DEFAULT;
	o->key = PT_SK_DEFAULT;
	o->top = -1;
	o->device = -1;
	o->win_a = INT64_MIN;
	o->win_b = INT64_MAX;
	o->queue_cutoff_ns = 100000;
	o->runtime_cutoff_ns = 50000;
}

/* ------------------------------------------------------------------ */
/* context                                                             */

/* Host range types of §1.1, in type order (Runtime is not a host range). */
enum htype {
	HT_STEP,
	HT_DATALOADER,
	HT_FORWARD,
	HT_BACKWARD,
	HT_OPTIM,
	HT_OPERATOR,
	HT_INNER,
	HT_USERDEF,
	HT_USERRANGE,
	HT_PYTHONOP,
	HT_COMM,
	HT_NTYPES,
};
static const char *const htype_names[HT_NTYPES] = { "ProfileStep", "Dataloader",  "Forward",   "Backward",
						    "Optimization", "Operator", "OperatorInner", "UserDefined",
						    "UserRange",   "PythonOp",  "Communication" };

static bool is_phase(int t)
{
	return t >= HT_DATALOADER && t <= HT_OPTIM;
}

/* A host range of a GPU rank (§2.2). */
struct hr {
	uint32_t ev;       /* event index */
	uint32_t parent;   /* hr index + 1, 0 = root */
	uint32_t depth;
	uint32_t track;
	uint32_t name;     /* output name id */
	uint8_t type;      /* enum htype */
	bool comm;         /* communication host range (§2.5) */
	bool comm_anc;     /* comm, or a descendant of one */
	bool phase_anc;    /* a phase range, or inside one */
	bool step_anc;     /* a step range, or inside one */
	bool outer;        /* a phase range with no phase ancestor */
	bool memname;      /* UserDefined/UserRange memory manipulation (§3.7a) */
	bool mem_anc;      /* memname, or inside such a range */
	bool has_bytes;
	int64_t s, e, ne;  /* start, end, nesting end */
	int64_t gpu;       /* inclusive device time (§2.6) */
	int64_t gpu_mem;   /* inclusive Memcpy/Memset time */
	int64_t bytes;     /* inclusive Memcpy/Memset bytes */
};

struct win {
	int64_t s, e;       /* disjoint window */
	int64_t fp, bp, end, sp; /* Ascend step points */
	uint32_t has;
	int64_t num;
	bool kept, first;
	int64_t gpu[4];     /* Ascend: member task time attributed to dataloader, forward, optimization, step */
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_summary_opts *o;
	enum pt_time_unit unit;
	struct pt_strtab names;   /* output names */
	uint32_t *raw2out;        /* raw string id -> output id + 1 */
	uint32_t *raw2api;        /* raw string id -> API output id + 1 */
	regex_t step_re;
	bool step_re_own;
	int64_t earliest;
	/*
	 * GPU ranks (NULL on Ascend-only models), per event: for a device
	 * activity the launching API event + 1; for an API call the attached
	 * host range (hr index of its rank) + 1; for a range its hr index + 1.
	 */
	uint32_t *link;
	uint8_t *cls;             /* GPU kernels: 1 computation, 2 communication (§2.5) */
	uint8_t *kname;           /* raw kernel name id -> 0 not matched yet, 1 computation, 2 communication */
	uint64_t violations;      /* nesting_violations (§2.2) */
	uint8_t *opcomm;          /* streaming: pt_index_op_comm() */
	struct scan *scan;        /* streaming (pt_summary_stream_*): what is known before the events; NULL in memory */
};

/*
 * What a streaming summary knows of the events before it sums them (every
 * array per device or per track index): from the file's TrackEvents, or else
 * from a first read of the events. It stands in for what a whole model would
 * give: the earliest event, each device's span, which streams run
 * framework-named tasks, and how early a track's later events can start (the
 * overview's release watermark).
 */
struct scan {
	int64_t earliest;
	int64_t *lo, *hi;   /* per device: first start and last end of its span events (rank_prepare) */
	uint64_t *left;     /* per track: events (a first read: counted; while summing: still to come) */
	int64_t *min, *last;/* per track: earliest start; start of the last event seen */
	uint8_t *sorted;    /* per track: events come in start order in the file */
	uint8_t *seen, *named;
};

struct rank {
	struct ctx *g;
	bool ascend;
	uint32_t dev;             /* Ascend device index */
	uint32_t pid;             /* GPU: the process */
	int64_t rank;
	const char *word;         /* GPU, NPU or Device */
	bool *devin;              /* GPU: device index -> in this rank */
	uint32_t *tracks;         /* stream tracks of the rank's devices */
	size_t ntracks;
	uint32_t *atracks;        /* every track of the rank's devices (a streamed GPU rank's API watermark) */
	size_t natracks;
	struct win *w;
	size_t nw;
	bool has_steps;           /* the rank has steps at all */
	bool filtered;
	struct pt_ivset W;
	int64_t Wlen;
	int64_t ta, tb;           /* --time-window T, absolute (INT64_MIN / INT64_MAX when open) */
	bool span;
	int64_t G;                /* Σ dur of member device activities (§2.6) */
	/* GPU host model */
	struct hr *hr;
	size_t nhr;
	uint32_t *by_depth;       /* hr indexes by depth ascending */
	uint32_t *kid_off, *kid;  /* children of each hr (CSR, §2.2 order) */
	uint32_t *act_off, *act;  /* activities launched by calls attached directly to each hr */
	bool local_cm;            /* the kernel classes differ from the index's: local C/M sets */
	struct pt_ivset *lc, *lm; /* per device index */
	struct asc *asc;          /* Ascend ranks: the per-event sums (see struct asc) */
};

static uint32_t out_intern(struct ctx *g, const char *s, size_t n)
{
	return pt_strtab_intern(&g->names, s, n);
}

static const char *out_str(struct ctx *g, uint32_t id)
{
	return pt_strtab_get(&g->names, id);
}

/* Output name of a raw string id: demangled, API suffix _vNNNN dropped (§1). */
static uint32_t out_name(struct ctx *g, uint32_t raw, bool api)
{
	uint32_t *cache = api ? g->raw2api : g->raw2out;
	if (cache[raw])
		return cache[raw] - 1;
	const char *s = pt_strtab_get(&g->m->strings, raw);
	size_t n = pt_strtab_len(&g->m->strings, raw);
	uint32_t id;
	char *dm = NULL;
	if (!g->o->no_demangle && n > 2 && s[0] == '_' && s[1] == 'Z')
		dm = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
	if (dm) {
		id = out_intern(g, dm, strlen(dm));
		free(dm);
	} else if (api) {
		id = out_intern(g, s, pt_api_name_len(s, n));
	} else {
		id = out_intern(g, s, n);
	}
	cache[raw] = id + 1;
	return id;
}

static uint32_t track_dev(const struct pt_model *m, size_t i)
{
	return m->tracks.v[m->events.track[i]].device;
}

static bool in_rank(const struct rank *r, size_t i)
{
	uint32_t d = track_dev(r->g->m, i);
	return r->ascend ? d == r->dev : r->devin[d];
}

static bool is_dev_activity(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET;
}

static bool is_kernel(uint8_t k)
{
	return k == PT_EV_TASK || k == PT_EV_KERNEL;
}

/* Launching API event + 1 of a device activity (GPU ranks), 0 = none. */
static uint32_t api_of(const struct rank *r, size_t i)
{
	return r->ascend || !r->g->link ? 0 : r->g->link[i];
}

/* Host range (hr index + 1) a device activity is attributed to (§2.4), 0 = none. */
static uint32_t hr_of_act(const struct rank *r, size_t i)
{
	uint32_t a = api_of(r, i);
	return a ? r->g->link[a - 1] : 0;
}

/* Anchor time of event i (§2.1). */
static int64_t anchor(const struct rank *r, size_t i)
{
	const struct pt_events *ev = &r->g->m->events;
	if (is_dev_activity(ev->kind[i])) {
		uint32_t a = api_of(r, i);
		if (a)
			return ev->start[a - 1];
	}
	return ev->start[i];
}

static bool member_at(const struct rank *r, int64_t t)
{
	return !r->filtered || pt_ivset_contains(&r->W, t);
}

static bool member(const struct rank *r, size_t i)
{
	return !r->filtered || pt_ivset_contains(&r->W, anchor(r, i));
}

/* Index of the window containing t, or -1. */
static ssize_t win_of(const struct rank *r, int64_t t)
{
	size_t lo = 0, hi = r->nw;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->w[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nw && r->w[lo].s <= t && t < r->w[lo].e ? (ssize_t)lo : -1;
}

static int64_t measure_W(const struct rank *r, const struct pt_ivset *s)
{
	int64_t t = 0;
	for (size_t k = 0; k < r->W.n; k++)
		t += pt_ivset_measure_in(s, r->W.v[k].s, r->W.v[k].e);
	return t;
}

/* Growable interval list that becomes an ivset (host ranges: few per rank). */
struct ivl {
	struct pt_ival *v;
	size_t n, cap;
	int64_t calls;
};

static void ivl_add(struct ivl *l, int64_t s, int64_t e)
{
	if (l->n == l->cap)
		pt_xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct pt_ival){ s, e };
}

/* |union(l) ∩ W|; frees l. Touching or zero-length intervals: union as §2.7. */
static int64_t ivl_measure(const struct rank *r, struct ivl *l)
{
	struct pt_ivset s = { 0 };
	pt_ivset_build(&s, l->v, l->n);
	int64_t t = measure_W(r, &s);
	pt_ivset_free(&s);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	return t;
}

/*
 * Streaming union (§2.7) of intervals that arrive sorted by start: the
 * current run [cs, ce) extends while the next start is <= ce; a closed run
 * adds |run ∩ W|. O(1) memory, no per-event array.
 */
struct urun {
	int64_t cs, ce, total, calls;
	bool open;
};

static void urun_add(const struct rank *r, struct urun *u, int64_t s, int64_t e)
{
	if (e <= s)
		return; /* empty intervals add nothing and bridge nothing (pt_ivset_build drops them) */
	if (u->open && s <= u->ce) {
		if (e > u->ce)
			u->ce = e;
		return;
	}
	if (u->open)
		u->total += pt_ivset_measure_in(&r->W, u->cs, u->ce);
	u->cs = s;
	u->ce = e;
	u->open = true;
}

static int64_t urun_end(const struct rank *r, struct urun *u)
{
	if (u->open)
		u->total += pt_ivset_measure_in(&r->W, u->cs, u->ce);
	u->open = false;
	return u->total;
}

static int cmp_win(const void *a, const void *b)
{
	const struct win *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

/* ------------------------------------------------------------------ */
/* GPU host model (§2.2–§2.5)                                          */

static bool name_has(const char *s, const char *const *pats)
{
	for (size_t i = 0; pats[i]; i++) {
		size_t l = strlen(pats[i]);
		for (const char *p = s; *p; p++)
			if (!strncasecmp(p, pats[i], l))
				return true;
	}
	return false;
}

static bool comm_op_name(const struct ctx *g, const char *s)
{
	static const char *const pats[] = { "allreduce",      "all_reduce", "allgather", "all_gather", "reducescatter",
					    "reduce_scatter", "alltoall",   "all_to_all", "broadcast", "rpc",
					    "hcom",           NULL };
	if (g->o->comm_re)
		return !regexec(g->o->comm_re, s, 0, NULL, 0);
	return name_has(s, pats);
}

static bool comm_kernel_name(const struct ctx *g, const char *s)
{
	static const char *const pats[] = { "nccl", "xccl", "rccl", "hccl", NULL };
	if (g->o->comm_re)
		return !regexec(g->o->comm_re, s, 0, NULL, 0);
	return name_has(s, pats);
}

static bool mem_name(const char *s)
{
	static const char *const pats[] = { "memcpy", "memorycopy", "memset", NULL };
	return name_has(s, pats);
}

/* Range info of event i (m->ranges is in event order), or NULL. */
static const struct pt_range_info *range_info(const struct pt_model *m, uint32_t i)
{
	size_t lo = 0, hi = m->ranges.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->ranges.v[mid].event < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ranges.n && m->ranges.v[lo].event == i ? &m->ranges.v[lo] : NULL;
}

/* Copy info of event i (m->copies is in event order), or NULL. */
static const struct pt_copy_info *copy_info(const struct pt_model *m, uint32_t i)
{
	size_t lo = 0, hi = m->copies.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->copies.v[mid].event < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->copies.n && m->copies.v[lo].event == i ? &m->copies.v[lo] : NULL;
}

static int type_of(const struct pt_model *m, const struct pt_range_info *ri)
{
	if (!ri || !ri->type)
		return HT_USERRANGE;
	const char *t = pt_strtab_get(&m->strings, ri->type);
	for (int k = 0; k < HT_NTYPES; k++)
		if (!strcmp(t, htype_names[k]))
			return k;
	return HT_USERRANGE;
}

static struct {
	const struct hr *hv;
	struct ctx *g;
} hr_sort;

/* §2.2 rule 2 order: start asc, end desc, type order, name. */
static int cmp_hr(const void *pa, const void *pb)
{
	const struct hr *a = &hr_sort.hv[*(const uint32_t *)pa], *b = &hr_sort.hv[*(const uint32_t *)pb];
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	int c = strcmp(out_str(hr_sort.g, a->name), out_str(hr_sort.g, b->name));
	if (c)
		return c;
	return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Is range h a candidate for a call starting at t (§2.3, nesting ends)? A zero-length range holds a call at its start. */
static bool hr_holds(const struct hr *h, int64_t t)
{
	return h->s <= t && (t < h->ne || (h->s == h->ne && t == h->s));
}

/* Is a better attachment than b for the same call (§2.3)? */
static bool hr_better(const struct hr *hv, uint32_t a, uint32_t b)
{
	const struct hr *x = &hv[a], *y = &hv[b];
	if (x->depth != y->depth)
		return x->depth > y->depth;
	if (x->s != y->s)
		return x->s > y->s;
	if (x->ne - x->s != y->ne - y->s)
		return x->ne - x->s < y->ne - y->s;
	return a < b;
}

/* Name of a copy or fill as nvprof names it (§3.7); [memcpy]/[memset] when the source records no kind. */
static uint32_t copy_name(struct ctx *g, size_t i)
{
	static const char *const kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					     "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
	const struct pt_model *m = g->m;
	bool set = m->events.kind[i] == PT_EV_MEMSET;
	const struct pt_copy_info *ci = copy_info(m, (uint32_t)i);
	if (!ci)
		return set ? out_intern(g, "[memset]", 8) : out_intern(g, "[memcpy]", 8);
	if (set)
		return out_intern(g, "[CUDA memset]", 13);
	unsigned k = ci->copy_kind < 11 ? ci->copy_kind : 0;
	if (ci->src_device >= 0 && ci->dst_device >= 0 && ci->src_device != ci->dst_device)
		k = 10;
	char b[48];
	int n = snprintf(b, sizeof(b), "[CUDA memcpy %s]", kinds[k]);
	return out_intern(g, b, (size_t)n);
}

static void build_csr(size_t n, size_t nitems, const uint32_t *owner, const uint32_t *val, uint32_t **off,
		      uint32_t **out)
{
	*off = pt_xcalloc(n + 2, sizeof(**off));
	*out = pt_xmalloc((nitems ? nitems : 1) * sizeof(**out));
	for (size_t k = 0; k < nitems; k++)
		(*off)[owner[k] + 1]++;
	for (size_t k = 0; k < n; k++)
		(*off)[k + 1] += (*off)[k];
	uint32_t *fill = pt_xmalloc((n + 1) * sizeof(*fill));
	memcpy(fill, *off, (n + 1) * sizeof(*fill));
	for (size_t k = 0; k < nitems; k++)
		(*out)[fill[owner[k]]++] = val[k];
	free(fill);
}

/* Is a GPU kernel of this raw name communication by its name (§2.5)? Decided once per name. */
static bool kname_comm(struct ctx *g, uint32_t raw)
{
	uint8_t *kn = &g->kname[raw < g->m->strings.n ? raw : 0];
	if (!*kn)
		*kn = comm_kernel_name(g, out_str(g, out_name(g, raw, false))) ? 2 : 1;
	return *kn == 2;
}

static void gpu_prepare(struct rank *r)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint32_t *link = g->link;
	/* 1. host ranges, per thread track in the order of §2.2 */
	PT_VEC(struct hr) hv = { 0 };
	PT_VEC(uint32_t) seg = { 0 }; /* track segment starts */
	for (uint32_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track *tk = &m->tracks.v[t];
		if (!r->devin[tk->device] || tk->kind != PT_TRACK_HOST_THREAD)
			continue;
		size_t n;
		const uint32_t *idx = pt_index_track_events(g->x, t, &n);
		size_t h0 = hv.n;
		for (size_t k = 0; k < n; k++) {
			uint32_t i = idx[k];
			if (ev->kind[i] != PT_EV_RANGE)
				continue;
			const struct pt_range_info *ri = range_info(m, i);
			if (ri && (ri->flags & PT_RANGE_INSTANT))
				continue;
			struct hr h = { .ev = i, .track = t, .s = ev->start[i], .e = ev->start[i] + ev->dur[i] };
			h.type = (uint8_t)type_of(m, ri);
			h.name = out_name(g, ri && ri->label ? ri->label : ev->name[i], false);
			if (h.type != HT_STEP &&
			    !regexec(&g->step_re, pt_strtab_get(&m->strings, ev->name[i]), 0, NULL, 0))
				h.type = HT_STEP;
			pt_vec_push(&hv, h);
		}
		if (hv.n > h0)
			pt_vec_push(&seg, (uint32_t)h0);
	}
	size_t nh = hv.n;
	pt_vec_push(&seg, (uint32_t)nh);
	/* sort each segment into §2.2 order (through a permutation) */
	uint32_t *perm = pt_xmalloc((nh ? nh : 1) * sizeof(*perm));
	for (size_t k = 0; k < nh; k++)
		perm[k] = (uint32_t)k;
	hr_sort.hv = hv.v;
	hr_sort.g = g;
	for (size_t s = 0; s + 1 < seg.n; s++)
		pt_sort(perm + seg.v[s], seg.v[s + 1] - seg.v[s], sizeof(*perm), cmp_hr);
	struct hr *H = pt_xmalloc((nh ? nh : 1) * sizeof(*H));
	for (size_t k = 0; k < nh; k++)
		H[k] = hv.v[perm[k]];
	pt_vec_free(&hv);
	for (size_t k = 0; k < nh; k++)
		link[H[k].ev] = (uint32_t)k + 1;
	/* 2. nesting: explicit parents as they are, otherwise the stack rule */
	uint32_t *stack = pt_xmalloc((nh + 1) * sizeof(*stack));
	for (size_t s = 0; s + 1 < seg.n; s++) {
		size_t sp = 0;
		for (uint32_t k = seg.v[s]; k < seg.v[s + 1]; k++) {
			struct hr *h = &H[k];
			while (sp && H[stack[sp - 1]].ne <= h->s)
				sp--;
			const struct pt_range_info *ri = range_info(m, h->ev);
			uint32_t xp = ri && ri->parent && ri->parent <= ev->n ? link[ri->parent - 1] : 0;
			h->ne = h->e;
			if (xp && xp - 1 != k && H[xp - 1].track == h->track) {
				h->parent = xp;
			} else if (sp) {
				const struct hr *top = &H[stack[sp - 1]];
				h->parent = stack[sp - 1] + 1;
				if (h->e > top->ne) {
					h->ne = top->ne;
					g->violations++;
				}
			}
			stack[sp++] = k;
		}
	}
	/* depth (explicit links may point forward or form a cycle: a cycle is cut) */
	uint8_t *st = pt_xcalloc(nh + 1, 1);
	for (size_t k = 0; k < nh; k++) {
		size_t sp = 0;
		uint32_t c = (uint32_t)k;
		while (st[c] != 2) {
			if (st[c] == 1) { /* cycle: cut the link of the node closing it */
				H[c].parent = 0;
				break;
			}
			st[c] = 1;
			stack[sp++] = c;
			if (!H[c].parent)
				break;
			c = H[c].parent - 1;
		}
		while (sp) {
			uint32_t y = stack[--sp];
			H[y].depth = H[y].parent && st[H[y].parent - 1] == 2 ? H[H[y].parent - 1].depth + 1 : 0;
			if (H[y].parent && st[H[y].parent - 1] != 2)
				H[y].parent = 0;
			st[y] = 2;
		}
	}
	free(st);
	/* depth order (counting sort) */
	uint32_t maxd = 0;
	for (size_t k = 0; k < nh; k++)
		if (H[k].depth > maxd)
			maxd = H[k].depth;
	uint32_t *cnt = pt_xcalloc((size_t)maxd + 2, sizeof(*cnt));
	for (size_t k = 0; k < nh; k++)
		cnt[H[k].depth + 1]++;
	for (uint32_t d = 0; d <= maxd; d++)
		cnt[d + 1] += cnt[d];
	r->by_depth = pt_xmalloc((nh ? nh : 1) * sizeof(*r->by_depth));
	for (size_t k = 0; k < nh; k++)
		r->by_depth[cnt[H[k].depth]++] = (uint32_t)k;
	free(cnt);
	/* flags, top-down */
	for (size_t q = 0; q < nh; q++) {
		struct hr *h = &H[r->by_depth[q]];
		const struct hr *p = h->parent ? &H[h->parent - 1] : NULL;
		const char *nm = out_str(g, h->name);
		h->comm = h->type == HT_COMM || (h->type == HT_OPERATOR && comm_op_name(g, nm));
		h->comm_anc = h->comm || (p && p->comm_anc);
		h->outer = is_phase(h->type) && !(p && p->phase_anc);
		h->phase_anc = is_phase(h->type) || (p && p->phase_anc);
		h->step_anc = h->type == HT_STEP || (p && p->step_anc);
		h->memname = (h->type == HT_USERDEF || h->type == HT_USERRANGE) && mem_name(nm);
		h->mem_anc = h->memname || (p && p->mem_anc);
	}
	/* 3. runtime calls -> host ranges (§2.3): sweep per thread with the active candidates */
	PT_VEC(uint32_t) active = { 0 };
	for (size_t s = 0; s + 1 < seg.n; s++) {
		uint32_t t = H[seg.v[s]].track;
		size_t n;
		const uint32_t *idx = pt_index_track_events(g->x, t, &n);
		uint32_t hi = seg.v[s], he = seg.v[s + 1];
		active.n = 0;
		for (size_t k = 0; k < n; k++) {
			uint32_t i = idx[k];
			if (ev->kind[i] != PT_EV_API)
				continue;
			int64_t at = ev->start[i];
			while (hi < he && H[hi].s <= at)
				pt_vec_push(&active, hi++);
			uint32_t best = UINT32_MAX;
			size_t w = 0;
			for (size_t a = 0; a < active.n; a++) {
				const struct hr *h = &H[active.v[a]];
				if (h->ne < at || (h->ne == at && h->s < h->ne))
					continue; /* ended before this call: never a candidate again */
				active.v[w++] = active.v[a];
				if (hr_holds(h, at) && (best == UINT32_MAX || hr_better(H, active.v[a], best)))
					best = active.v[a];
			}
			active.n = w;
			link[i] = best == UINT32_MAX ? 0 : best + 1;
		}
	}
	pt_vec_free(&active);
	free(stack);
	pt_vec_free(&seg);
	free(perm);
	/* 4. device activities -> launching call (cupti.md §6.3 links, else the correlation id) */
	if (m->links.n) {
		for (size_t k = 0; k < m->links.n; k++) {
			const struct pt_gpu_link *l = &m->links.v[k];
			/* the call in the same rank (the reader checks it: proftool-model(5)),
			 * so that link[api] is an index of this rank's host ranges */
			if (l->event < ev->n && l->api < ev->n && r->devin[track_dev(m, l->event)] &&
			    r->devin[track_dev(m, l->api)] && ev->kind[l->api] == PT_EV_API)
				link[l->event] = l->api + 1;
		}
	} else {
		struct pt_hashmap corr;
		pt_hashmap_init(&corr);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && ev->corr[i] && in_rank(r, i))
				*pt_hashmap_put(&corr, ev->corr[i], i + 1, NULL) = i + 1;
		for (size_t i = 0; i < ev->n; i++)
			if (is_dev_activity(ev->kind[i]) && ev->corr[i] && in_rank(r, i)) {
				uint64_t *a = pt_hashmap_get(&corr, ev->corr[i]);
				link[i] = a ? (uint32_t)*a : 0;
			}
		pt_hashmap_free(&corr);
	}
	/* 5. self sums, direct activity lists, kernel classes, then inclusive sums bottom-up */
	PT_VEC(uint32_t) own = { 0 }, val = { 0 };
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!is_dev_activity(k) || !in_rank(r, i))
			continue;
		uint32_t h = hr_of_act(r, i);
		if (h) {
			struct hr *x = &H[h - 1];
			x->gpu += ev->dur[i];
			if (k == PT_EV_MEMCPY || k == PT_EV_MEMSET) {
				x->gpu_mem += ev->dur[i];
				const struct pt_copy_info *ci = copy_info(m, (uint32_t)i);
				if (ci) {
					x->bytes += (int64_t)ci->bytes;
					x->has_bytes = true;
				}
			}
			pt_vec_push(&own, h - 1);
			pt_vec_push(&val, (uint32_t)i);
		}
		if (is_kernel(k)) {
			bool c = kname_comm(g, ev->name[i]) || (h && H[h - 1].comm_anc);
			g->cls[i] = c ? 2 : 1;
			if (c != pt_index_is_comm(g->x, i))
				r->local_cm = true;
		}
	}
	build_csr(nh, own.n, own.v, val.v, &r->act_off, &r->act);
	pt_vec_free(&own);
	pt_vec_free(&val);
	for (size_t q = nh; q-- > 0;) {
		const struct hr *h = &H[r->by_depth[q]];
		if (!h->parent)
			continue;
		struct hr *p = &H[h->parent - 1];
		p->gpu += h->gpu;
		p->gpu_mem += h->gpu_mem;
		p->bytes += h->bytes;
		p->has_bytes |= h->has_bytes;
	}
	/* children (CSR in §2.2 order) */
	uint32_t *po = pt_xmalloc((nh ? nh : 1) * sizeof(*po)), *pv = pt_xmalloc((nh ? nh : 1) * sizeof(*pv));
	size_t np = 0;
	for (size_t k = 0; k < nh; k++)
		if (H[k].parent) {
			po[np] = H[k].parent - 1;
			pv[np++] = (uint32_t)k;
		}
	build_csr(nh, np, po, pv, &r->kid_off, &r->kid);
	free(po);
	free(pv);
	r->hr = H;
	r->nhr = nh;
	/* local C/M sets when the classes differ from the index's (attribution rule, --comm-pattern) */
	if (r->local_cm) {
		r->lc = pt_xcalloc(m->devices.n + 1, sizeof(*r->lc));
		r->lm = pt_xcalloc(m->devices.n + 1, sizeof(*r->lm));
		for (uint32_t d = 0; d < m->devices.n; d++) {
			if (!r->devin[d] || m->devices.v[d].kind != PT_DEV_GPU)
				continue;
			struct ivl c = { 0 }, k = { 0 };
			for (size_t i = 0; i < ev->n; i++)
				if (is_kernel(ev->kind[i]) && track_dev(m, i) == d)
					ivl_add(g->cls[i] == 2 ? &k : &c, ev->start[i], ev->start[i] + ev->dur[i]);
			pt_ivset_build(&r->lc[d], c.v, c.n);
			pt_ivset_build(&r->lm[d], k.v, k.n);
			free(c.v);
			free(k.v);
		}
	}
}

/* Is kernel event i communication (§2.5)? */
static bool kcomm(const struct rank *r, size_t i)
{
	if (!r->ascend && r->g->cls)
		return r->g->cls[i] == 2;
	if (!r->ascend && !r->g->x) /* a streamed GPU rank: no host ranges, so by its name alone */
		return kname_comm(r->g, r->g->m->events.name[i]);
	if (r->g->x)
		return pt_index_is_comm(r->g->x, i);
	/* streaming (Ascend models only): the index's rule for tasks, ascend.md §3.8 */
	const struct pt_events *ev = &r->g->m->events;
	return ev->kind[i] == PT_EV_TASK &&
	       pt_index_task_class(r->g->opcomm, ev->op[i], r->g->scan->named[ev->track[i]]) == 2;
}

static const struct pt_ivset *rank_comp(struct rank *r, uint32_t d)
{
	return r->local_cm ? &r->lc[d] : pt_index_comp(r->g->x, d);
}

static const struct pt_ivset *rank_comm(struct rank *r, uint32_t d)
{
	return r->local_cm ? &r->lm[d] : pt_index_comm(r->g->x, d);
}

static void rank_breakdown(struct rank *r, uint32_t d, struct pt_breakdown *b)
{
	if (!r->local_cm) {
		pt_index_breakdown_set(r->g->x, d, &r->W, b);
		return;
	}
	struct pt_ivset u = { 0 };
	pt_ivset_union(&u, &r->lc[d], &r->lm[d]);
	memset(b, 0, sizeof(*b));
	int64_t total = 0, either = 0;
	for (size_t k = 0; k < r->W.n; k++) {
		int64_t a = r->W.v[k].s, e = r->W.v[k].e;
		total += e - a;
		b->computation += pt_ivset_measure_in(&r->lc[d], a, e);
		b->communication += pt_ivset_measure_in(&r->lm[d], a, e);
		either += pt_ivset_measure_in(&u, a, e);
	}
	pt_ivset_free(&u);
	b->overlapped = b->computation + b->communication - either;
	b->comm_not_overlapped = b->communication - b->overlapped;
	b->free = total - either;
}

static int rank_prepare(struct rank *r, struct pt_err **e)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	const struct pt_summary_opts *o = g->o;
	(void)e;
	/* stream tracks of the rank */
	r->tracks = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*r->tracks));
	r->atracks = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*r->atracks));
	for (uint32_t t = 0; t < m->tracks.n; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!(r->ascend ? d == r->dev : r->devin[d]))
			continue;
		r->atracks[r->natracks++] = t;
		if (m->tracks.v[t].kind == PT_TRACK_STREAM)
			r->tracks[r->ntracks++] = t;
	}
	PT_VEC(struct win) w = { 0 };
	if (r->ascend) {
		for (size_t i = 0; i < m->steps.n; i++) {
			const struct pt_step *s = &m->steps.v[i];
			if (s->device != r->dev || !(s->has & PT_STEP_HAS_START) || !(s->has & PT_STEP_HAS_END) ||
			    s->end < s->start)
				continue;
			struct win x = { .s = s->start, .e = s->end, .sp = s->start, .end = s->end, .fp = s->fp,
					 .bp = s->bp, .has = s->has, .num = s->step };
			pt_vec_push(&w, x);
		}
	} else {
		if (!g->scan) /* a streamed GPU rank has no host ranges, or no view reads them (gpu_streamable) */
			gpu_prepare(r);
		bool all_hash = true;
		for (size_t k = 0; k < r->nhr; k++) {
			const struct hr *h = &r->hr[k];
			if (h->type != HT_STEP)
				continue;
			const char *nm = pt_strtab_get(&m->strings, ev->name[h->ev]);
			struct win x = { .s = h->s, .e = h->e };
			const char *hs = strrchr(nm, '#');
			char *end = NULL;
			if (hs && isdigit((unsigned char)hs[1]))
				x.num = strtoll(hs + 1, &end, 10);
			if (!hs || !end || *end)
				all_hash = false;
			pt_vec_push(&w, x);
		}
		pt_sort(w.v, w.n, sizeof(*w.v), cmp_win);
		for (size_t k = 0; k < w.n && all_hash; k++)
			for (size_t j = 0; j < k && all_hash; j++)
				all_hash = w.v[j].num != w.v[k].num;
		for (size_t k = 0; k < w.n && !all_hash; k++)
			w.v[k].num = (int64_t)k + 1;
	}
	pt_sort(w.v, w.n, sizeof(*w.v), cmp_win);
	for (size_t k = 0; k + 1 < w.n; k++)
		if (w.v[k].e > w.v[k + 1].s)
			w.v[k].e = w.v[k + 1].s;
	if (w.n)
		w.v[0].first = true;
	r->w = w.v;
	r->nw = w.n;
	r->has_steps = w.n > 0;
	r->filtered = o->has_steps || o->has_window;
	int64_t ta = INT64_MIN, tb = INT64_MAX;
	if (o->has_window) {
		if (o->win_a != INT64_MIN)
			ta = g->earliest + o->win_a;
		if (o->win_b != INT64_MAX)
			tb = g->earliest + o->win_b;
	}
	r->ta = ta;
	r->tb = tb;
	struct ivl l = { 0 };
	if (r->has_steps) {
		for (size_t k = 0; k < r->nw; k++) {
			struct win *x = &r->w[k];
			x->kept = !o->has_steps || (x->num >= o->step_a && x->num <= o->step_b);
			if (x->kept)
				ivl_add(&l, x->s > ta ? x->s : ta, x->e < tb ? x->e : tb);
		}
	} else {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (uint32_t d = 0; g->scan && d < m->devices.n; d++) { /* streaming */
			if (r->ascend ? d != r->dev : !r->devin[d])
				continue;
			if (g->scan->lo[d] < lo)
				lo = g->scan->lo[d];
			if (g->scan->hi[d] > hi)
				hi = g->scan->hi[d];
		}
		for (size_t i = 0; i < ev->n && !g->scan; i++) {
			uint8_t k = ev->kind[i];
			if ((is_dev_activity(k) || k == PT_EV_API || k == PT_EV_RANGE || k == PT_EV_AICPU) &&
			    in_rank(r, i)) {
				if (k == PT_EV_RANGE && !r->ascend && g->link && !g->link[i])
					continue; /* instantaneous marker */
				if (ev->start[i] < lo)
					lo = ev->start[i];
				if (ev->start[i] + ev->dur[i] > hi)
					hi = ev->start[i] + ev->dur[i];
			}
		}
		if (lo <= hi)
			ivl_add(&l, lo > ta ? lo : ta, hi < tb ? hi : tb);
		r->span = true;
	}
	pt_ivset_build(&r->W, l.v, l.n);
	free(l.v);
	r->Wlen = pt_ivset_measure(&r->W);
	/* G: member device activities (GPU ranks in memory; the Ascend model view sums its own, and
	 * that of a streamed GPU rank prints nothing: it has no host ranges, so no phases) */
	for (size_t i = 0; i < ev->n && !r->ascend && !g->scan; i++)
		if (is_dev_activity(ev->kind[i]) && in_rank(r, i) && member(r, i))
			r->G += ev->dur[i];
	return 0;
}

static void rank_free(struct rank *r)
{
	free(r->w);
	free(r->tracks);
	free(r->atracks);
	pt_ivset_free(&r->W);
	free(r->devin);
	free(r->hr);
	free(r->by_depth);
	free(r->kid_off);
	free(r->kid);
	free(r->act_off);
	free(r->act);
	if (r->lc) {
		for (size_t d = 0; d < r->g->m->devices.n; d++) {
			pt_ivset_free(&r->lc[d]);
			pt_ivset_free(&r->lm[d]);
		}
		free(r->lc);
		free(r->lm);
	}
}

/* ------------------------------------------------------------------ */
/* items                                                               */

struct item {
	uint32_t name;  /* output name id */
	int64_t calls;
	bool has_cpu, has_gpu;
	int64_t cpu_total, cpu_max, cpu_min;
	int64_t gpu_total, gpu_max, gpu_min;
	int64_t first;
	int64_t a, b, c, d; /* view-specific extras */
	PT_VEC(struct item) sub;
};

struct items {
	PT_VEC(struct item) v;
	struct pt_hashmap map; /* key -> index */
};

static void items_init(struct items *it)
{
	memset(it, 0, sizeof(*it));
	pt_hashmap_init(&it->map);
}

static void item_free(struct item *x)
{
	for (size_t i = 0; i < x->sub.n; i++)
		item_free(&x->sub.v[i]);
	pt_vec_free(&x->sub);
}

static void items_free(struct items *it)
{
	for (size_t i = 0; i < it->v.n; i++)
		item_free(&it->v.v[i]);
	pt_vec_free(&it->v);
	pt_hashmap_free(&it->map);
}

static struct item *items_get(struct items *it, uint64_t key, uint32_t name)
{
	bool added = false;
	uint64_t *p = pt_hashmap_put(&it->map, key, it->v.n, &added);
	if (added) {
		struct item x = { 0 };
		x.name = name;
		x.first = INT64_MAX;
		pt_vec_push(&it->v, x);
	}
	return &it->v.v[*p];
}

static void item_cpu(struct item *x, int64_t d)
{
	if (!x->has_cpu) {
		x->has_cpu = true;
		x->cpu_max = x->cpu_min = d;
	}
	x->cpu_total += d;
	if (d > x->cpu_max)
		x->cpu_max = d;
	if (d < x->cpu_min)
		x->cpu_min = d;
}

static void item_gpu(struct item *x, int64_t d)
{
	if (!x->has_gpu) {
		x->has_gpu = true;
		x->gpu_max = x->gpu_min = d;
	}
	x->gpu_total += d;
	if (d > x->gpu_max)
		x->gpu_max = d;
	if (d < x->gpu_min)
		x->gpu_min = d;
}

/* sort (§4.2) */
enum vkind { VK_TWO, VK_DEV, VK_API };

static struct {
	struct ctx *g;
	enum pt_summary_key key;
	enum vkind kind;
	bool reverse;
} sort_ctx;

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_avg(int64_t ta, int64_t ca, int64_t tb, int64_t cb)
{
	__int128 x = (__int128)ta * (cb ? cb : 1), y = (__int128)tb * (ca ? ca : 1);
	return (x > y) - (x < y);
}

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	enum pt_summary_key k = sort_ctx.key;
	int c = 0, dir = -1; /* descending */
	bool cpu = k <= PT_SK_CPU_MIN;
	if (sort_ctx.kind == VK_DEV) {
		/* device-time rows: cpu keys fall back to the total, descending */
		if (cpu)
			k = PT_SK_GPU_TOTAL;
		cpu = false;
	} else if (sort_ctx.kind == VK_API) {
		/* host-time rows (api): gpu keys fall back to the total, descending */
		if (k >= PT_SK_GPU_TOTAL && k <= PT_SK_GPU_MIN)
			k = PT_SK_CPU_TOTAL;
		cpu = true;
	}
	switch (k) {
	case PT_SK_CPU_TOTAL:
	case PT_SK_GPU_TOTAL:
		c = cpu ? cmp_i64(a->cpu_total, b->cpu_total) : cmp_i64(a->gpu_total, b->gpu_total);
		break;
	case PT_SK_CPU_AVG:
	case PT_SK_GPU_AVG:
		c = cpu ? cmp_avg(a->cpu_total, a->calls, b->cpu_total, b->calls) :
			  cmp_avg(a->gpu_total, a->calls, b->gpu_total, b->calls);
		break;
	case PT_SK_CPU_MAX:
	case PT_SK_GPU_MAX:
		c = cpu ? cmp_i64(a->cpu_max, b->cpu_max) : cmp_i64(a->gpu_max, b->gpu_max);
		break;
	case PT_SK_CPU_MIN:
	case PT_SK_GPU_MIN:
		c = cpu ? cmp_i64(a->cpu_min, b->cpu_min) : cmp_i64(a->gpu_min, b->gpu_min);
		dir = 1;
		break;
	case PT_SK_CALLS:
		c = cmp_i64(a->calls, b->calls);
		break;
	default:
		dir = 1;
		break;
	}
	if (sort_ctx.reverse)
		dir = -dir;
	if (c)
		return dir * c;
	const struct pt_strtab *st = &sort_ctx.g->names;
	size_t la = pt_strtab_len(st, a->name), lb = pt_strtab_len(st, b->name);
	int n = memcmp(pt_strtab_get(st, a->name), pt_strtab_get(st, b->name), la < lb ? la : lb);
	if (k == PT_SK_NAME && sort_ctx.reverse)
		n = -n, la ^= lb, lb ^= la, la ^= lb;
	if (n)
		return n;
	if (la != lb)
		return la < lb ? -1 : 1;
	return cmp_i64(a->first, b->first);
}

static void items_sort(struct ctx *g, struct item *v, size_t n, enum vkind kind)
{
	enum pt_summary_key k = g->o->key;
	if (k == PT_SK_DEFAULT)
		k = PT_SK_CPU_TOTAL;
	sort_ctx.g = g;
	sort_ctx.key = k;
	sort_ctx.kind = kind;
	sort_ctx.reverse = g->o->reverse;
	pt_sort(v, n, sizeof(*v), cmp_item);
}

static int cmp_first(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c = cmp_i64(a->first, b->first);
	if (c)
		return c;
	return strcmp(out_str(sort_ctx.g, a->name), out_str(sort_ctx.g, b->name));
}

static bool name_ok(struct ctx *g, uint32_t name)
{
	return !g->o->name_re || !regexec(g->o->name_re, out_str(g, name), 0, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* formatting                                                          */

static void ftime(const struct ctx *g, char *b, int64_t ns)
{
	snprintf(b, 48, "%.2f", (double)ns / (double)pt_time_unit_div(g->unit));
}

static void favg(const struct ctx *g, char *b, int64_t total, int64_t calls)
{
	snprintf(b, 48, "%.2f", calls ? (double)total / (double)calls / (double)pt_time_unit_div(g->unit) : 0.0);
}

static double pct(int64_t num, int64_t den)
{
	return den ? (double)num / (double)den * 100.0 : 0.0;
}

static void fpct(char *b, int64_t num, int64_t den)
{
	snprintf(b, 48, "%.2f", pct(num, den));
}

/* "total / avg / max / min / ratio" or "- / - / - / - / -" */
static void fblock(const struct ctx *g, char *b, bool has, int64_t calls, int64_t total, int64_t max, int64_t min,
		   int64_t den)
{
	if (!has) {
		strcpy(b, "- / - / - / - / -");
		return;
	}
	char t[48], a[48], x[48], n[48], r[48];
	ftime(g, t, total);
	favg(g, a, total, calls);
	ftime(g, x, max);
	ftime(g, n, min);
	fpct(r, total, den);
	snprintf(b, 256, "%s / %s / %s / %s / %s", t, a, x, n, r);
}

static int64_t ravg(int64_t total, int64_t calls)
{
	if (!calls)
		return 0;
	/* (2·total + calls) / (2·calls), half away from zero */
	__int128 n = 2 * (__int128)total + (total >= 0 ? calls : -calls);
	return (int64_t)(n / (2 * (__int128)calls));
}

/* Data block: total, avg, max, min, ratio at columns c..c+4. */
static void dblock(struct pt_table *t, size_t row, size_t c, bool has, int64_t calls, int64_t total, int64_t max,
		   int64_t min, int64_t den)
{
	if (!has)
		return;
	pt_table_set_int(t, row, c, total);
	pt_table_set_int(t, row, c + 1, ravg(total, calls));
	pt_table_set_int(t, row, c + 2, max);
	pt_table_set_int(t, row, c + 3, min);
	pt_table_set_double(t, row, c + 4, pct(total, den));
}

static void add_block_cols(struct pt_table *t, const char *p)
{
	static const char *const f[] = { "total", "avg", "max", "min" };
	char b[64];
	for (int i = 0; i < 4; i++) {
		snprintf(b, sizeof(b), "%s_%s", p, f[i]);
		pt_table_add_col(t, b, PT_COL_TIME, PT_ROLE_VALUE, 0);
	}
	snprintf(b, sizeof(b), "%s_ratio", p);
	pt_table_add_col(t, b, PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
}

static size_t row0(struct pt_table *t, const struct rank *r)
{
	size_t row = pt_table_add_row(t);
	pt_table_set_int(t, row, 0, r->rank);
	return row;
}

static void setstr(struct pt_table *t, size_t row, size_t c, const char *s)
{
	pt_table_set_strdup(t, row, c, s, strlen(s));
}

static struct pt_table *stext(const struct rank *r, const char *title, bool unit, bool multi)
{
	char b[160];
	if (multi)
		snprintf(b, sizeof(b), "%s - Rank %" PRId64, title, r->rank);
	else
		snprintf(b, sizeof(b), "%s", title);
	return pt_table_new_boxed(b, b, unit ? pt_time_unit_name(r->g->unit) : NULL);
}

static const char *block_head(const struct rank *r, bool cpu, char *b)
{
	snprintf(b, 96, "%s Total / Avg / Max / Min / Ratio(%%)", cpu ? "CPU" : r->word);
	return b;
}

/* ------------------------------------------------------------------ */
/* Ascend step-trace ranges (§2.9)                                     */

/* Phase ranges of step k: 0 Dataloader, 1 Forward, 2 Optimization; false if absent. */
static bool phase(const struct win *x, int p, int64_t *s, int64_t *e)
{
	bool fp = x->has & PT_STEP_HAS_FP && x->fp, bp = x->has & PT_STEP_HAS_BP && x->bp;
	switch (p) {
	case 0:
		if (x->first || !fp || x->fp <= x->sp)
			return false;
		*s = x->sp, *e = x->fp;
		return true;
	case 1:
		if (!fp)
			return false;
		*s = x->fp, *e = bp ? x->bp : x->end;
		return *e >= *s;
	default:
		if (!bp || !fp)
			return false;
		*s = x->bp, *e = x->end;
		return *e >= *s;
	}
}

/* The phase (0..2) of step k containing t, or 3 for none. */
static int phase_of(const struct win *x, int64_t t)
{
	for (int p = 0; p < 3; p++) {
		int64_t s, e;
		if (phase(x, p, &s, &e) && s <= t && t < e)
			return p;
	}
	return 3;
}

/* ------------------------------------------------------------------ */
/* overview (§3.2)                                                     */

struct ovrow {
	const char *label;
	int64_t calls, time;
};

static int cmp_ov(const void *pa, const void *pb)
{
	const struct ovrow *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time > b->time ? -1 : 1;
	return strcmp(a->label, b->label);
}

static int cmp_ival(const void *pa, const void *pb)
{
	const struct pt_ival *a = pa, *b = pb;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return (a->e > b->e) - (a->e < b->e);
}

/* GPU part of the overview: Kernel, Memcpy, Memset, Communication, Unattributed, streamed. */
struct ovacc {
	struct rank *r;
	struct urun u[5];
	int64_t kernels; /* every kernel, member or not (the device view's count) */
	size_t wk; /* window cursor: starts arrive in ascending order */
};

/* Is t inside a window? Monotonic cursor over the sorted windows. */
static bool in_win_seq(const struct rank *r, size_t *k, int64_t t)
{
	while (*k < r->nw && r->w[*k].e <= t)
		(*k)++;
	return *k < r->nw && r->w[*k].s <= t;
}

enum { OV_CLASS = 3, OV_COMM = 4, OV_MEM = 8 };

/* Overview flags of device activity i: class (0 kernel, 1 memcpy, 2 memset), communication, member. */
static unsigned ov_flags(const struct rank *r, size_t i)
{
	uint8_t k = r->g->m->events.kind[i];
	unsigned f = is_kernel(k) ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
	if (is_kernel(k) && kcomm(r, i))
		f |= OV_COMM;
	if (member(r, i))
		f |= OV_MEM;
	return f;
}

/* One device activity [s, e) of the overview, in start order; unattr < 0: Ascend, by the windows. */
static void ov_add(struct ovacc *a, int64_t s, int64_t e, unsigned f, int unattr)
{
	struct rank *r = a->r;
	bool mem = f & OV_MEM;
	int c = (int)(f & OV_CLASS);
	urun_add(r, &a->u[c], s, e);
	a->u[c].calls += mem;
	a->kernels += c == 0;
	if (f & OV_COMM) {
		urun_add(r, &a->u[3], s, e);
		a->u[3].calls += mem;
	}
	if (unattr < 0)
		unattr = !in_win_seq(r, &a->wk, s);
	if (unattr) {
		urun_add(r, &a->u[4], s, e);
		a->u[4].calls += mem;
	}
}

static void ov_visit(void *arg, size_t i)
{
	struct ovacc *a = arg;
	struct rank *r = a->r;
	const struct pt_events *ev = &r->g->m->events;
	if (!is_dev_activity(ev->kind[i]))
		return;
	int64_t s = ev->start[i];
	ov_add(a, s, s + ev->dur[i], ov_flags(r, i), r->ascend ? -1 : !hr_of_act(r, i));
}

/* A device activity of a streamed rank waiting for its turn in start order. */
struct ov_ent {
	int64_t s, e;
	unsigned f; /* ov_flags(), or the class of the distributed view's sets */
};

/*
 * Activities waiting for their turn (pendq_add, pendq_pop): a queue sorted
 * by start, from v[ph] on, where most arrive, plus a min-heap for those that
 * arrive too late for the queue's tail.
 */
struct pendq {
	PT_VEC(struct ov_ent) q;
	size_t ph;
	PT_VEC(struct ov_ent) heap;
};

static void pendq_free(struct pendq *p)
{
	pt_vec_free(&p->q);
	pt_vec_free(&p->heap);
}

/* The distributed view's sets of a streamed rank (ascend.md §3.8): computation C, communication M, C ∪ M. */
struct dacc {
	struct urun c, m, cm;
	bool any_c, any_m;
	struct pendq pq;
};

/* One GPU of a streamed GPU rank: its kernels pending in start order (ov_ent.f: the class, 1
 * computation, 2 communication), their union (the device view) and the distributed view's sets. */
struct gdev {
	uint32_t *tracks; /* its stream tracks */
	size_t ntracks;
	struct pendq pq;
	struct urun u;
	int64_t kernels;  /* every kernel, zero-length ones too */
	struct dacc dist;
};

/*
 * Ascend ranks: what the overview, model, operator and kernel views need from
 * the events, summed in one pass over them (asc_event), over the whole model
 * or batch by batch when streaming. The sums do not depend on the order of
 * the events; only the overview's unions do, so a streamed rank keeps its
 * device activities pending (pendq_add) until no later one can start earlier
 * (asc_release). A streamed GPU rank keeps its sums here too (gpu_event), its
 * API calls pending the same way for the overview's CudaRuntime union.
 */
struct asc {
	int64_t G;                  /* Σ dur of member device activities (model view) */
	size_t hint;                /* window of the previous event */
	struct items op, kn, ty;    /* operator, kernel and op-type items */
	int64_t op_den, kn_den, ty_den;
	struct pt_hashmap ty_seen;  /* (type, op name) pairs: the op type view's distinct ops */
	struct gacc *gpu;           /* the gpu view's sums */
	uint32_t *op_raw, *kn_raw;  /* raw name id -> item + 1 */
	uint8_t *trk;               /* per track: a stream track of the rank */
	struct ovacc ov;            /* streaming: the overview's unions (in memory: the index's merge) */
	struct pendq pq;            /* streaming: the overview's pending activities */
	struct dacc dist;           /* streaming: the distributed view's sets */
	/* streamed GPU ranks (gpu_event): */
	struct gdev *gd;            /* per device index (GPU devices of the rank): device and distributed views */
	struct items api;           /* the api view's items */
	int64_t api_den;
	struct pendq apq;           /* the overview's CudaRuntime union: API calls pending in start order */
	struct urun api_u;
	int64_t api_calls;
};

/* The streamed distributed sets of device d of rank r: an Ascend rank's (one device), or the GPU's. */
static const struct dacc *rank_dacc(const struct rank *r, uint32_t d)
{
	return r->ascend ? &r->asc->dist : &r->asc->gd[d].dist;
}

static void view_overview(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct ovrow cpu[HT_NTYPES + 4];
	size_t nc = 0;
	const char *steplabel = r->span ? "Span" : "ProfileStep";
	int64_t stepcalls = 0;
	if (r->span)
		stepcalls = 1;
	else
		for (size_t k = 0; k < r->nw; k++)
			stepcalls += member_at(r, r->w[k].s);
	if (r->ascend) {
		static const char *const ph[] = { "Dataloader", "Forward", "Optimization" };
		for (int p = 0; p < 3; p++) {
			struct ivl l = { 0 };
			for (size_t k = 0; k < r->nw; k++) {
				int64_t s, e;
				if (!phase(&r->w[k], p, &s, &e))
					continue;
				ivl_add(&l, s, e);
				l.calls += member_at(r, s);
			}
			int64_t calls = l.calls;
			int64_t time = ivl_measure(r, &l);
			if (calls)
				cpu[nc++] = (struct ovrow){ ph[p], calls, time };
		}
	} else {
		struct ivl tl[HT_NTYPES], cl = { 0 }, api = { 0 };
		memset(tl, 0, sizeof(tl));
		PT_VEC(struct pt_ival) pairs = { 0 };
		for (size_t k = 0; k < r->nhr; k++) {
			const struct hr *h = &r->hr[k];
			if (h->type == HT_STEP)
				continue;
			bool mem = member_at(r, h->s);
			if (h->type != HT_COMM) {
				ivl_add(&tl[h->type], h->s, h->e);
				tl[h->type].calls += mem && (!is_phase(h->type) || h->outer);
			}
			if (h->comm) {
				ivl_add(&cl, h->s, h->e);
				if (mem)
					pt_vec_push(&pairs, ((struct pt_ival){ h->s, h->e }));
			}
		}
		int64_t ca, ta;
		if (r->asc) { /* streamed: gpu_event(), asc_release() */
			ca = r->asc->api_calls;
			ta = urun_end(r, &r->asc->api_u);
		} else {
			for (size_t i = 0; i < ev->n; i++)
				if (ev->kind[i] == PT_EV_API && in_rank(r, i)) {
					ivl_add(&api, ev->start[i], ev->start[i] + ev->dur[i]);
					api.calls += member(r, i);
				}
			ca = api.calls;
			ta = ivl_measure(r, &api);
		}
		for (int k = 0; k < HT_NTYPES; k++) {
			int64_t calls = tl[k].calls, time = ivl_measure(r, &tl[k]);
			if (calls)
				cpu[nc++] = (struct ovrow){ htype_names[k], calls, time };
		}
		if (ca)
			cpu[nc++] = (struct ovrow){ "CudaRuntime", ca, ta };
		pt_sort(pairs.v, pairs.n, sizeof(*pairs.v), cmp_ival);
		int64_t cc = 0;
		for (size_t k = 0; k < pairs.n; k++)
			cc += !k || pairs.v[k].s != pairs.v[k - 1].s || pairs.v[k].e != pairs.v[k - 1].e;
		pt_vec_free(&pairs);
		int64_t tc = ivl_measure(r, &cl);
		if (cc)
			cpu[nc++] = (struct ovrow){ "Communication", cc, tc };
	}
	pt_sort(cpu, nc, sizeof(*cpu), cmp_ov);
	struct ovacc acc = { .r = r };
	if (g->x)
		pt_index_merge(g->x, r->tracks, r->ntracks, ov_visit, &acc);
	else
		acc = r->asc->ov; /* streamed */
	static const char *const glab[] = { "Kernel", "Memcpy", "Memset", "Communication", "Unattributed" };
	struct pt_table *x = stext(r, "Overview Summary", true, multi);
	pt_table_add_text_col(x, "Event Type", 25, false, true);
	pt_table_add_text_col(x, "Calls", 25, true, false);
	pt_table_add_text_col(x, "CPU Time", 25, true, false);
	pt_table_add_text_col(x, "Ratio (%)", 25, true, false);
	char c1[64], c2[48], c3[48], c4[48];
	const char *cells[4] = { c1, c2, c3, c4 };
	/* step row */
	{
		size_t row = row0(t, r);
		setstr(t, row, 1, "cpu");
		setstr(t, row, 2, steplabel);
		pt_table_set_int(t, row, 3, stepcalls);
		pt_table_set_int(t, row, 4, r->Wlen);
		pt_table_set_double(t, row, 5, r->Wlen ? 100.0 : 0.0);
		snprintf(c1, sizeof(c1), "%s", steplabel);
		snprintf(c2, sizeof(c2), "%" PRId64, stepcalls);
		ftime(g, c3, r->Wlen);
		fpct(c4, r->Wlen, r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	for (size_t i = 0; i < nc; i++) {
		size_t row = row0(t, r);
		setstr(t, row, 1, "cpu");
		setstr(t, row, 2, cpu[i].label);
		pt_table_set_int(t, row, 3, cpu[i].calls);
		pt_table_set_int(t, row, 4, cpu[i].time);
		pt_table_set_double(t, row, 5, pct(cpu[i].time, r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", cpu[i].label);
		snprintf(c2, sizeof(c2), "%" PRId64, cpu[i].calls);
		ftime(g, c3, cpu[i].time);
		fpct(c4, cpu[i].time, r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	int64_t gcalls[5], gtime[5];
	bool any = false;
	for (int c = 0; c < 5; c++) {
		gcalls[c] = acc.u[c].calls;
		gtime[c] = urun_end(r, &acc.u[c]);
		any |= gcalls[c] > 0;
	}
	if (any) {
		/* second header inside the table */
		const char *h[4] = { "", "Calls", "GPU Time", "Ratio (%)" };
		char gh[32];
		snprintf(gh, sizeof(gh), "%s Time", r->word);
		h[2] = gh;
		pt_table_add_group(x, NULL);
		pt_table_add_text_row(x, h);
		pt_table_add_group(x, NULL);
	}
	for (int c = 0; c < 5; c++) {
		if (!gcalls[c])
			continue;
		size_t row = row0(t, r);
		setstr(t, row, 1, "gpu");
		setstr(t, row, 2, glab[c]);
		pt_table_set_int(t, row, 3, gcalls[c]);
		pt_table_set_int(t, row, 4, gtime[c]);
		pt_table_set_double(t, row, 5, pct(gtime[c], r->Wlen));
		snprintf(c1, sizeof(c1), "  %s", glab[c]);
		snprintf(c2, sizeof(c2), "%" PRId64, gcalls[c]);
		ftime(g, c3, gtime[c]);
		fpct(c4, gtime[c], r->Wlen);
		pt_table_add_text_row(x, cells);
	}
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Each row merges all events of one type before summing, so overlapping events of that type");
	pt_table_add_note(x, "(on several threads or streams) are counted once.");
	pt_table_add_note(x, "Host events give CPU time, device events give GPU time; every ratio is against the step window.");
	pt_table_add_note(x, "Types contain each other (an Operator contains its OperatorInner stages), so ratios do not add up to 100%.");
	if (gcalls[4])
		pt_table_add_note(x, "Unattributed: device activity whose launching call is unknown or lies outside every host range.");
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* model (§3.3)                                                        */

static void model_emit(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi, struct item *st,
		       struct item *ph, const char *const *lab, int nph, int64_t others_cpu, int64_t others_gpu,
		       int64_t G, int64_t unattr_n, int64_t unattr_t)
{
	struct ctx *g = r->g;
	struct pt_table *x = stext(r, "Model Summary", true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 15, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb2), 40, true, false);
	char c0[64], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	for (int p = -1; p < nph; p++) {
		struct item *it = p < 0 ? st : &ph[p];
		const char *name = p < 0 ? (r->span ? "Span" : "ProfileStep") : lab[p];
		if (p >= 0 && !it->calls)
			continue;
		size_t row = row0(t, r);
		setstr(t, row, 1, name);
		pt_table_set_int(t, row, 2, it->calls);
		dblock(t, row, 3, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		dblock(t, row, 8, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		snprintf(c0, sizeof(c0), "%s%s", p < 0 ? "" : "  ", name);
		snprintf(c1, sizeof(c1), "%" PRId64, it->calls);
		fblock(g, c2, it->has_cpu, it->calls, it->cpu_total, it->cpu_max, it->cpu_min, r->Wlen);
		fblock(g, c3, it->has_gpu, it->calls, it->gpu_total, it->gpu_max, it->gpu_min, G);
		pt_table_add_text_row(x, cells);
	}
	size_t row = row0(t, r);
	setstr(t, row, 1, "Others");
	pt_table_set_int(t, row, 3, others_cpu);
	pt_table_set_double(t, row, 7, pct(others_cpu, r->Wlen));
	pt_table_set_int(t, row, 8, others_gpu);
	pt_table_set_double(t, row, 12, pct(others_gpu, G));
	char a[48], b[48];
	snprintf(c0, sizeof(c0), "  Others");
	strcpy(c1, "-");
	ftime(g, a, others_cpu);
	fpct(b, others_cpu, r->Wlen);
	snprintf(c2, sizeof(c2), "%s / - / - / - / %s", a, b);
	ftime(g, a, others_gpu);
	fpct(b, others_gpu, G);
	snprintf(c3, sizeof(c3), "%s / - / - / - / %s", a, b);
	pt_table_add_text_row(x, cells);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "GPU time is the plain sum of all device activity (kernels, copies, fills) launched inside the phase;");
	pt_table_add_note(x, "activity on parallel streams is added, not merged.");
	pt_table_add_note(x, "Others: step time covered by no phase, and device time launched in a step outside every phase.");
	if (unattr_n) {
		char nb[200];
		ftime(g, a, unattr_t);
		snprintf(nb, sizeof(nb), "Unattributed device activity (no launching host range): %" PRId64
			 " activities, %s %s in total.", unattr_n, a, pt_time_unit_name(g->unit));
		pt_table_add_note(x, nb);
	}
	*tx = x;
}

static void view_model_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct item st = { 0 }, ph[4];
	memset(ph, 0, sizeof(ph));
	struct ivl cover = { 0 };
	bool any = false;
	for (size_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (!member_at(r, h->s))
			continue;
		if (h->type == HT_STEP) {
			st.calls++;
			item_cpu(&st, h->e - h->s);
			item_gpu(&st, h->gpu);
		} else if (h->outer) {
			struct item *it = &ph[h->type - HT_DATALOADER];
			it->calls++;
			item_cpu(it, h->e - h->s);
			item_gpu(it, h->gpu);
			ivl_add(&cover, h->s, h->e);
			any = true;
		}
	}
	if (!any) {
		free(cover.v);
		return;
	}
	int64_t others_cpu = r->Wlen - ivl_measure(r, &cover);
	int64_t others_gpu = 0, un_n = 0, un_t = 0;
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_dev_activity(ev->kind[i]) || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t h = hr_of_act(r, i);
		if (!h) {
			un_n++;
			un_t += ev->dur[i];
		} else if (r->hr[h - 1].step_anc && !r->hr[h - 1].phase_anc) {
			others_gpu += ev->dur[i];
		}
	}
	if (r->span) {
		st = (struct item){ .calls = 1 };
		item_cpu(&st, r->Wlen);
		item_gpu(&st, r->G);
	}
	static const char *const lab[] = { "Dataloader", "Forward", "Backward", "Optimization" };
	model_emit(r, t, tx, multi, &st, ph, lab, 4, others_cpu, others_gpu, r->G, un_n, un_t);
}

static void view_model(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	if (!r->ascend) {
		view_model_gpu(r, t, tx, multi);
		return;
	}
	int64_t G = r->asc->G; /* and r->w[k].gpu: asc_event() */
	struct item st = { 0 }, ph[3] = { { 0 } };
	struct ivl cover = { 0 };
	int64_t others_gpu = 0;
	for (size_t k = 0; k < r->nw; k++) {
		struct win *x = &r->w[k];
		if (member_at(r, x->s)) {
			st.calls++;
			item_cpu(&st, x->e - x->s);
			item_gpu(&st, x->gpu[3]);
			others_gpu += x->gpu[3] - x->gpu[0] - x->gpu[1] - x->gpu[2];
		}
		for (int p = 0; p < 3; p++) {
			int64_t s, e;
			if (!phase(x, p, &s, &e) || !member_at(r, s))
				continue;
			ph[p].calls++;
			item_cpu(&ph[p], e - s);
			item_gpu(&ph[p], x->gpu[p]);
			ivl_add(&cover, s, e);
		}
	}
	if (!ph[0].calls && !ph[1].calls && !ph[2].calls) {
		free(cover.v);
		return;
	}
	/* |W − union(phases)| */
	int64_t covered = ivl_measure(r, &cover);
	int64_t others_cpu = r->Wlen - covered;
	if (r->span) {
		st = (struct item){ .calls = 1 };
		item_cpu(&st, r->Wlen);
		item_gpu(&st, G);
	}
	static const char *const lab[] = { "Dataloader", "Forward", "Optimization" };
	model_emit(r, t, tx, multi, &st, ph, lab, 3, others_cpu, others_gpu, G, 0, 0);
}

/* ------------------------------------------------------------------ */
/* device (§3.1) and distributed (§3.4)                                */

static void rank_devices(const struct rank *r, uint32_t **out, size_t *n)
{
	const struct pt_model *m = r->g->m;
	*out = pt_xcalloc(m->devices.n + 1, sizeof(**out));
	*n = 0;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (r->ascend ? d != r->dev : dv->kind != PT_DEV_GPU || !r->devin[d])
			continue;
		(*out)[(*n)++] = d;
	}
	/* ascending device id */
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && m->devices.v[(*out)[j - 1]].id > m->devices.v[(*out)[j]].id; j--) {
			uint32_t tmp = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = tmp;
		}
}

static void dev_label(const struct pt_model *m, uint32_t d, char *b)
{
	snprintf(b, 32, "%s%" PRIu32, m->devices.v[d].kind == PT_DEV_NPU ? "NPU" : "GPU", m->devices.v[d].id);
}

struct kacc {
	struct rank *r;
	struct urun u;
};

static void kernel_visit(void *arg, size_t i)
{
	struct kacc *a = arg;
	const struct pt_events *ev = &a->r->g->m->events;
	if (is_kernel(ev->kind[i])) {
		urun_add(a->r, &a->u, ev->start[i], ev->start[i] + ev->dur[i]);
		a->u.calls++;
	}
}

/*
 * Host CPU samples of a rank (summary.md §3.1), summed per step window. The
 * samples, their placement in steps and every mean come from model/hostcpu.h,
 * the code `dataset` and `hints` read them through.
 */
struct host_rows {
	struct pt_hostcpu h;
	bool any;                  /* the rank has host CPU samples */
	bool steps;                /* step rows: a rule places samples and the rank has steps */
	bool placed;               /* some sample lies in a step */
	bool *row;                 /* window k is a kept row */
	struct pt_hostcpu_acc *in; /* per window: its samples (inside T under rule 1) */
	struct pt_hostcpu_acc out, all, kept;
};

static bool host_rows(struct rank *r, struct host_rows *hr)
{
	const struct pt_model *m = r->g->m;
	memset(hr, 0, sizeof(*hr));
	/* MindData files attach to an NPU device (ascend.md §1.4): Ascend ranks only */
	if (!r->ascend || !pt_hostcpu_load(m, r->dev, &hr->h) || !hr->h.host) {
		pt_hostcpu_free(&hr->h);
		return false;
	}
	hr->any = true;
	struct pt_hostcpu_step *st = pt_xcalloc(r->nw + 1, sizeof(*st));
	hr->row = pt_xcalloc(r->nw + 1, sizeof(*hr->row));
	hr->in = pt_xcalloc(r->nw + 1, sizeof(*hr->in));
	for (size_t k = 0; k < r->nw; k++) {
		const struct win *w = &r->w[k];
		st[k] = (struct pt_hostcpu_step){ w->num, w->s, w->e };
		int64_t a = w->s > r->ta ? w->s : r->ta, b = w->e < r->tb ? w->e : r->tb;
		hr->row[k] = w->kept && (!r->g->o->has_window || a < b);
	}
	struct pt_hostcpu_place pl;
	pt_hostcpu_place_init(&pl, m, r->dev, st, r->nw);
	hr->steps = pl.rule != PT_HC_RULE_NONE && r->has_steps;
	pt_hostcpu_total(&hr->h, &hr->all);
	for (int k = 0; k < PT_HC__N; k++) {
		const struct pt_hostcpu_series *se = &hr->h.s[k];
		for (size_t i = 0; i < se->n; i++) {
			int64_t w = pt_hostcpu_place_step(&pl, se->time[i]);
			if (w < 0) {
				pt_hostcpu_acc_add(&hr->out, k, se->value[i]);
				continue;
			}
			hr->placed = true;
			if (!hr->row[w])
				continue;
			if (pl.rule == PT_HC_RULE_OFFSET) {
				int64_t x = se->time[i] + pl.offset; /* no overflow: placed */
				if (x < r->ta || x >= r->tb)
					continue;
			}
			pt_hostcpu_acc_add(&hr->in[w], k, se->value[i]);
		}
	}
	for (size_t k = 0; k < r->nw; k++)
		if (hr->row[k])
			pt_hostcpu_acc_merge(&hr->kept, &hr->in[k]);
	pt_hostcpu_place_free(&pl);
	free(st);
	return true;
}

static void host_rows_free(struct host_rows *hr)
{
	pt_hostcpu_free(&hr->h);
	free(hr->row);
	free(hr->in);
}

/* One row of the Host CPU table: text cells and data columns 3 and 4, 8 to 14. */
static void host_row(struct rank *r, struct pt_table *t, struct pt_table *x, const char *label,
		     const struct pt_hostcpu_acc *a)
{
	static const int pcts[4] = { PT_HC_USER, PT_HC_SYS, PT_HC_IO, PT_HC_IDLE };
	static const int procs[2] = { PT_HC_PROC_USER, PT_HC_PROC_SYS };
	char cb[9][48];
	const char *cells[9];
	size_t row = row0(t, r);
	setstr(t, row, 1, "host");
	setstr(t, row, 3, label);
	int64_t n = pt_hostcpu_samples(a);
	pt_table_set_int(t, row, 4, n);
	snprintf(cb[0], sizeof(cb[0]), "%s", label);
	snprintf(cb[1], sizeof(cb[1]), "%" PRId64, n);
	for (int k = 0; k < 6; k++) {
		int metric = k < 4 ? pcts[k] : procs[k - 4];
		size_t col = k < 4 ? 8 + (size_t)k : 13 + (size_t)(k - 4);
		size_t c = k < 4 ? 2 + (size_t)k : 7 + (size_t)(k - 4);
		double v;
		cells[c] = NULL;
		if (pt_hostcpu_mean(a, metric, &v)) {
			pt_table_set_double(t, row, col, v);
			snprintf(cb[c], sizeof(cb[c]), "%.2f", v);
			cells[c] = cb[c];
		}
	}
	int64_t cs;
	cells[6] = NULL;
	if (pt_hostcpu_ctx_switches(a, &cs)) {
		pt_table_set_int(t, row, 12, cs);
		snprintf(cb[6], sizeof(cb[6]), "%" PRId64, cs);
		cells[6] = cb[6];
	}
	cells[0] = cb[0];
	cells[1] = cb[1];
	pt_table_add_text_row(x, cells);
}

/* CPU(Process) / CPU(System) row of the Device table, when the series exist. */
static bool host_cpu_row(struct rank *r, struct pt_table *t, struct pt_table *x, const struct host_rows *hr,
			 bool process)
{
	const struct pt_hostcpu_acc *all = &hr->all, *src = hr->placed ? &hr->kept : &hr->all;
	int m1 = process ? PT_HC_PROC_USER : PT_HC_IDLE, m2 = process ? PT_HC_PROC_SYS : PT_HC_IDLE;
	if (!all->n[m1] && !all->n[m2])
		return false;
	const char *lab = process ? "CPU(Process)" : "CPU(System)";
	size_t row = row0(t, r);
	setstr(t, row, 1, "device");
	setstr(t, row, 2, lab);
	pt_table_set_int(t, row, 4, src->n[m1] > src->n[m2] ? src->n[m1] : src->n[m2]);
	double v;
	char u[48] = "-";
	if (process ? pt_hostcpu_process_pct(src, &v) : pt_hostcpu_system_pct(src, &v)) {
		pt_table_set_double(t, row, 5, v);
		snprintf(u, sizeof(u), "%.2f", v);
	}
	const char *cells[2] = { lab, u };
	pt_table_add_text_row(x, cells);
	return true;
}

static void view_device(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	uint32_t *devs;
	size_t nd;
	rank_devices(r, &devs, &nd);
	struct host_rows hr;
	host_rows(r, &hr);
	struct pt_table *x = stext(r, "Device Summary", false, multi);
	pt_table_add_text_col(x, "Device", 30, false, true);
	pt_table_add_text_col(x, "Utilization (%)", 20, true, false);
	bool cpu_proc = hr.any && host_cpu_row(r, t, x, &hr, true);
	bool cpu_sys = hr.any && host_cpu_row(r, t, x, &hr, false);
	bool any = false;
	uint32_t *tr = pt_xmalloc((r->ntracks ? r->ntracks : 1) * sizeof(*tr));
	for (size_t k = 0; k < nd; k++) {
		size_t nt = 0;
		for (size_t j = 0; j < r->ntracks; j++)
			if (m->tracks.v[r->tracks[j]].device == devs[k])
				tr[nt++] = r->tracks[j];
		struct kacc acc = { .r = r };
		if (g->x) {
			pt_index_merge(g->x, tr, nt, kernel_visit, &acc);
		} else if (r->ascend) { /* streamed (one device, its stream tracks): the overview's kernel union */
			acc.u = r->asc->ov.u[0];
			acc.u.calls = r->asc->ov.kernels;
		} else { /* a streamed GPU rank: gpu_event(), asc_release() */
			acc.u = r->asc->gd[devs[k]].u;
			acc.u.calls = r->asc->gd[devs[k]].kernels;
		}
		if (!acc.u.calls)
			continue;
		int64_t busy = urun_end(r, &acc.u);
		char lab[32], u[48];
		dev_label(m, devs[k], lab);
		size_t row = row0(t, r);
		setstr(t, row, 1, "device");
		setstr(t, row, 2, lab);
		pt_table_set_double(t, row, 5, pct(busy, r->Wlen));
		pt_table_set_int(t, row, 6, busy);
		pt_table_set_int(t, row, 7, r->Wlen);
		fpct(u, busy, r->Wlen);
		const char *cells[2] = { lab, u };
		pt_table_add_text_row(x, cells);
		any = true;
	}
	free(tr);
	free(devs);
	struct pt_table *y = NULL;
	if (hr.any) {
		/* Host CPU table: kept steps, outside, all */
		y = stext(r, "Host CPU Summary", false, multi);
		size_t sw = 7;
		char lb[32];
		for (size_t k = 0; k < r->nw && hr.steps; k++) {
			size_t l = (size_t)snprintf(lb, sizeof(lb), "%" PRId64, r->w[k].num);
			if (hr.row[k] && l > sw)
				sw = l;
		}
		static const char *const heads[] = { "Samples", "User (%)", "System (%)", "IO Wait (%)", "Idle (%)",
						     "Ctx Switches", "Process User (%)", "Process System (%)" };
		pt_table_add_text_col(y, "Step", sw, false, false);
		for (int c = 0; c < 8; c++)
			pt_table_add_text_col(y, heads[c], 0, true, false);
		for (size_t k = 0; k < r->nw && hr.steps; k++) {
			if (!hr.row[k])
				continue;
			snprintf(lb, sizeof(lb), "%" PRId64, r->w[k].num);
			host_row(r, t, y, lb, &hr.in[k]);
		}
		if (hr.steps && !r->filtered)
			host_row(r, t, y, "outside", &hr.out);
		host_row(r, t, y, "all", &hr.all);
	}
	/* the note goes under the first table printed */
	struct pt_table *nx = cpu_proc || cpu_sys || any ? x : y;
	if (nx) {
		pt_table_add_note(nx, "Note:");
		if (cpu_proc)
			pt_table_add_note(nx, "CPU(Process): CPU time of the profiled process on all cores divided by wall time; "
					  "may exceed 100% on multi-core hosts.");
		if (cpu_sys)
			pt_table_add_note(nx, "CPU(System): share of time all host cores were busy, over the same interval.");
		if (any)
			pt_table_add_note(nx, "GPU<n>/NPU<n>: time during which at least one kernel ran on the device, divided by "
					  "the step window.");
		if (y)
			pt_table_add_note(nx, "Host CPU: means of the host's CPU samples taken during each step; context "
					  "switches are summed.");
	}
	host_rows_free(&hr);
	tx[0] = x;
	tx[1] = y;
}

static void view_distributed(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	uint32_t *devs;
	size_t nd;
	rank_devices(r, &devs, &nd);
	bool streamed = !g->x;
	bool comm = false;
	for (size_t k = 0; k < nd; k++)
		comm |= streamed ? rank_dacc(r, devs[k])->any_m : rank_comm(r, devs[k])->n > 0;
	if (!comm) {
		free(devs);
		return;
	}
	struct pt_table *x = stext(r, "Distribution Summary", true, multi);
	pt_table_add_text_col(x, "Name", 25, false, true);
	pt_table_add_text_col(x, "Total Time", 25, true, false);
	pt_table_add_text_col(x, "Ratio (%)", 25, true, false);
	for (size_t k = 0; k < nd; k++) {
		struct pt_breakdown b;
		if (streamed) {
			const struct dacc *dd = rank_dacc(r, devs[k]);
			if (!dd->any_c && !dd->any_m)
				continue;
			struct urun c = dd->c, mm = dd->m, cm = dd->cm;
			b.computation = urun_end(r, &c);
			b.communication = urun_end(r, &mm);
			int64_t either = urun_end(r, &cm);
			b.overlapped = b.computation + b.communication - either;
			b.comm_not_overlapped = b.communication - b.overlapped;
			b.free = r->Wlen - either;
		} else {
			if (!rank_comp(r, devs[k])->n && !rank_comm(r, devs[k])->n)
				continue;
			rank_breakdown(r, devs[k], &b);
		}
		char lab[32], grp[48];
		dev_label(m, devs[k], lab);
		snprintf(grp, sizeof(grp), "Device: %s", lab);
		pt_table_add_group(x, grp);
		const char *metric[] = { "window", "communication", "computation", "overlapped", "comm_not_overlapped",
					 "free" };
		const char *label[] = { r->span ? "Span" : "ProfileStep", "Communication", "Computation", "Overlapped",
					"Comm Not Overlapped", "Free" };
		int64_t v[] = { r->Wlen, b.communication, b.computation, b.overlapped, b.comm_not_overlapped, b.free };
		for (int i = 0; i < 6; i++) {
			size_t row = row0(t, r);
			pt_table_set_int(t, row, 1, m->devices.v[devs[k]].id);
			setstr(t, row, 2, metric[i]);
			pt_table_set_int(t, row, 3, v[i]);
			pt_table_set_double(t, row, 4, pct(v[i], r->Wlen));
			char c0[48], c1[48], c2[48];
			snprintf(c0, sizeof(c0), "%s%s", i ? "  " : "", label[i]);
			ftime(g, c1, v[i]);
			fpct(c2, v[i], r->Wlen);
			const char *cells[3] = { c0, c1, c2 };
			pt_table_add_text_row(x, cells);
		}
	}
	free(devs);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Per device, over the step window. Computation: time a computation kernel or task runs.");
	pt_table_add_note(x, "Communication: time a communication kernel or task, or a step-trace reduce interval, runs.");
	pt_table_add_note(x, "Overlapped: communication while computation runs. Comm Not Overlapped: communication alone.");
	pt_table_add_note(x, "Free: neither runs. Computation + Comm Not Overlapped + Free = the step window.");
	pt_table_add_note(x, "Host-side collective calls are not counted here; the Overview lists them as CPU Communication.");
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* operator (§3.5), kernel (§3.6), optype (§3.9)                       */

/* Output name of an unnamed Ascend task: "task <stream>_<task>". */
static uint32_t task_name(struct ctx *g, size_t i)
{
	const struct pt_model *m = g->m;
	char b[64];
	int n = snprintf(b, sizeof(b), "task %" PRId64 "_%" PRIu64, m->tracks.v[m->events.track[i]].stream,
			 m->events.task[i]);
	return out_intern(g, b, (size_t)n);
}

static uint64_t task_key(const struct pt_model *m, size_t i)
{
	return ((uint64_t)(uint32_t)m->tracks.v[m->events.track[i]].stream << 40) ^ m->events.task[i];
}

/* Emit --top / --name filtered device-time item rows into a single-group text table. */
static void view_operator_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi);

static void view_operator(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	if (!r->ascend) {
		view_operator_gpu(r, t, tx, multi);
		return;
	}
	struct items *it = &r->asc->op; /* asc_event() */
	int64_t den = r->asc->op_den;
	items_sort(g, it->v.v, it->v.n, VK_TWO);
	char lab[32], grp[48];
	dev_label(m, r->dev, lab);
	snprintf(grp, sizeof(grp), "Device: %s", lab);
	struct pt_table *x = stext(r, "Operator Summary", true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb2), 40, true, false);
	pt_table_add_group(x, grp);
	char c0[4096], c1[32], c2[256], c3[256];
	const char *cells[4] = { c0, c1, c2, c3 };
	int64_t shown = 0;
	for (size_t k = 0; k < it->v.n; k++) {
		struct item *o = &it->v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, lab);
		setstr(t, row, 2, "op");
		setstr(t, row, 3, on);
		setstr(t, row, 5, on);
		pt_table_set_int(t, row, 6, o->calls);
		dblock(t, row, 12, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c0, sizeof(c0), "%s", on);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, false, 0, 0, 0, 0, 0);
		fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		pt_table_add_text_row(x, cells);
		sort_ctx.g = g;
		pt_sort(o->sub.v, o->sub.n, sizeof(*o->sub.v), cmp_first);
		for (size_t j = 0; j < o->sub.n; j++) {
			struct item *s = &o->sub.v[j];
			const char *sn = out_str(g, s->name);
			row = row0(t, r);
			setstr(t, row, 1, lab);
			setstr(t, row, 2, "device");
			setstr(t, row, 3, on);
			setstr(t, row, 5, sn);
			pt_table_set_int(t, row, 6, s->calls);
			dblock(t, row, 12, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			snprintf(c0, sizeof(c0), "  %s", sn);
			snprintf(c1, sizeof(c1), "%" PRId64, s->calls);
			fblock(g, c3, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
			pt_table_add_text_row(x, cells);
		}
	}
	*tx = x;
}

/* Kernel view: add kernel i (member) to its item; raw2item: raw name id -> item + 1. */
static void kernel_add(struct rank *r, struct items *it, int64_t *den, uint32_t *raw2item, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct item *x;
	if (ev->name[i] && raw2item[ev->name[i]]) {
		x = &it->v.v[raw2item[ev->name[i]] - 1];
	} else if (ev->name[i]) {
		uint32_t nm = out_name(g, ev->name[i], false);
		x = items_get(it, nm, nm);
		raw2item[ev->name[i]] = (uint32_t)(x - it->v.v) + 1;
	} else if (r->ascend) {
		/* unnamed task: keyed by (stream, task); the name is made once per key */
		uint64_t key = task_key(m, i) | (1ull << 63);
		uint64_t *p = pt_hashmap_get(&it->map, key);
		x = p ? &it->v.v[*p] : items_get(it, key, task_name(g, i));
	} else {
		uint32_t nm = out_intern(g, "<unnamed>", 9);
		x = items_get(it, nm, nm);
	}
	x->calls++;
	item_gpu(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	*den += ev->dur[i];
}

static void view_kernel(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct items own, *it = &own;
	int64_t den = 0;
	if (r->asc) {
		it = &r->asc->kn; /* asc_event() */
		den = r->asc->kn_den;
	} else {
		items_init(&own);
		uint32_t *raw2item = pt_xcalloc(m->strings.n + 1, sizeof(*raw2item));
		for (size_t i = 0; i < ev->n; i++)
			if (is_kernel(ev->kind[i]) && in_rank(r, i) && member(r, i))
				kernel_add(r, &own, &den, raw2item, i);
		free(raw2item);
	}
	items_sort(g, it->v.v, it->v.n, VK_DEV);
	struct pt_table *x = stext(r, "Kernel Summary", true, multi);
	char hb[96];
	pt_table_add_text_col(x, "Name", 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb), 40, true, false);
	char c1[32], c2[256];
	int64_t shown = 0;
	for (size_t k = 0; k < it->v.n; k++) {
		struct item *o = &it->v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		dblock(t, row, 3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		/* template shortening (§3.6): cut after the last '>' followed by '(' with ')' after it */
		size_t len = strlen(on), cut = len;
		const char *lt = strchr(on, '<');
		if (lt && lt > on)
			for (size_t j = (size_t)(lt - on) + 1; j + 1 < len; j++)
				if (on[j] == '>' && on[j + 1] == '(' && strchr(on + j + 1, ')'))
					cut = j + 1;
		char *dn = pt_xstrndup(on, cut);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		const char *cells[3] = { dn, c1, c2 };
		pt_table_add_text_row(x, cells);
		free(dn);
	}
	if (it == &own)
		items_free(&own);
	*tx = x;
}

static void view_optype(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	if (!r->ascend)
		return;
	struct items *it = &r->asc->ty; /* asc_event() */
	int64_t den = r->asc->ty_den;
	items_sort(g, it->v.v, it->v.n, VK_DEV);
	struct pt_table *x = stext(r, "Operator Type Summary", true, multi);
	char hb[96];
	pt_table_add_text_col(x, "Op Type", 40, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, "Ops", 6, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb), 40, true, false);
	char c1[32], c2[32], c3[256];
	int64_t shown = 0;
	for (size_t k = 0; k < it->v.n; k++) {
		struct item *o = &it->v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->a);
		dblock(t, row, 4, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		snprintf(c2, sizeof(c2), "%" PRId64, o->a);
		fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		const char *cells[4] = { *on ? on : "<unknown>", c1, c2, c3 };
		pt_table_add_text_row(x, cells);
	}
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* aicpu (§3.10)                                                       */

static void view_aicpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	if (!r->ascend)
		return;
	struct items it;
	items_init(&it);
	int64_t den = 0, n = 0;
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		if (a->device != r->dev)
			continue;
		bool times = a->has & PT_AICPU_HAS_TIMES;
		if (r->filtered && (!times || !member_at(r, a->start)))
			continue;
		uint32_t nm = out_name(g, a->name, false);
		struct item *x = items_get(&it, nm, nm);
		x->calls++;
		item_gpu(x, a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0);
		if (times && a->start < x->first)
			x->first = a->start;
		x->a += a->has & PT_AICPU_HAS_DISPATCH ? a->dispatch_ns : 0;
		x->b += times ? a->end - a->start : 0;
		den += a->has & PT_AICPU_HAS_TOTAL ? a->total_ns : 0;
		n++;
	}
	items_sort(g, it.v.v, it.v.n, VK_DEV);
	struct pt_table *x = stext(r, "AI CPU Summary", true, multi);
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, "Total / Avg / Max / Min / Ratio(%)", 40, true, false);
	pt_table_add_text_col(x, "Dispatch Total / Avg", 20, true, false);
	pt_table_add_text_col(x, "Execution Total / Avg", 21, true, false);
	char c1[32], c2[256], c3[128], c4[128], a1[48], a2[48];
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->gpu_total);
		pt_table_set_int(t, row, 4, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 5, o->gpu_min);
		pt_table_set_int(t, row, 6, o->gpu_max);
		pt_table_set_double(t, row, 7, pct(o->gpu_total, den));
		pt_table_set_int(t, row, 8, o->a);
		pt_table_set_int(t, row, 9, ravg(o->a, o->calls));
		pt_table_set_int(t, row, 10, o->b);
		pt_table_set_int(t, row, 11, ravg(o->b, o->calls));
		snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
		fblock(g, c2, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, den);
		ftime(g, a1, o->a);
		favg(g, a2, o->a, o->calls);
		snprintf(c3, sizeof(c3), "%s / %s", a1, a2);
		ftime(g, a1, o->b);
		favg(g, a2, o->b, o->calls);
		snprintf(c4, sizeof(c4), "%s / %s", a1, a2);
		const char *cells[5] = { on, c1, c2, c3, c4 };
		pt_table_add_text_row(x, cells);
	}
	items_free(&it);
	char b[160], tb[48];
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Total: AI CPU time of each execution as the device records it, dispatch included.");
	ftime(g, tb, den);
	snprintf(b, sizeof(b), "AI CPU total time: %s %s in %" PRId64 " executions.", tb, pt_time_unit_name(g->unit), n);
	pt_table_add_note(x, b);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* thread groups of the operator and userdefined views (§3.5, §4.3)    */

struct grp {
	uint32_t track;
	int64_t first;
	int64_t tid;
	int64_t cpu_den, gpu_den;
	struct ivl cpu;  /* member ranges, for the CPU denominator */
};

struct groups {
	PT_VEC(struct grp) v;
	uint32_t *of_track; /* track -> group + 1 */
	uint32_t *order;    /* groups in print order */
};

static void groups_init(struct groups *gs, const struct rank *r)
{
	memset(gs, 0, sizeof(*gs));
	gs->of_track = pt_xcalloc(r->g->m->tracks.n + 1, sizeof(*gs->of_track));
	if (!r->g->o->thread_sep) {
		struct grp x = { .track = UINT32_MAX, .first = INT64_MAX, .tid = -1 };
		pt_vec_push(&gs->v, x);
	}
}

static uint32_t group_of(struct groups *gs, const struct rank *r, uint32_t track)
{
	if (!r->g->o->thread_sep)
		return 0;
	if (!gs->of_track[track]) {
		struct grp x = { .track = track, .first = INT64_MAX, .tid = r->g->m->tracks.v[track].stream };
		pt_vec_push(&gs->v, x);
		gs->of_track[track] = (uint32_t)gs->v.n;
	}
	return gs->of_track[track] - 1;
}

static struct groups *grp_sort_ctx;

static int cmp_grp(const void *pa, const void *pb)
{
	const struct grp *a = &grp_sort_ctx->v.v[*(const uint32_t *)pa], *b = &grp_sort_ctx->v.v[*(const uint32_t *)pb];
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static void groups_order(struct groups *gs)
{
	gs->order = pt_xmalloc((gs->v.n + 1) * sizeof(*gs->order));
	for (size_t k = 0; k < gs->v.n; k++)
		gs->order[k] = (uint32_t)k;
	grp_sort_ctx = gs;
	pt_sort(gs->order, gs->v.n, sizeof(*gs->order), cmp_grp);
}

static void groups_free(struct groups *gs)
{
	for (size_t k = 0; k < gs->v.n; k++)
		free(gs->v.v[k].cpu.v);
	pt_vec_free(&gs->v);
	free(gs->of_track);
	free(gs->order);
}

static void group_label(const struct rank *r, const struct grp *gr, char *title, char *key)
{
	if (!r->g->o->thread_sep) {
		strcpy(title, "Thread: All threads merged");
		strcpy(key, "all");
	} else {
		snprintf(title, 64, "Thread: %" PRId64, gr->tid);
		snprintf(key, 32, "%" PRId64, gr->tid);
	}
}

/* The sorted top-level items of group gi (shallow copies; sub vectors stay owned by `it`). */
static struct item *group_items(struct ctx *g, struct items *it, uint32_t gi, size_t *n, enum vkind kind)
{
	struct item *v = pt_xmalloc((it->v.n + 1) * sizeof(*v));
	*n = 0;
	for (size_t k = 0; k < it->v.n; k++)
		if ((uint32_t)it->v.v[k].d == gi)
			v[(*n)++] = it->v.v[k];
	items_sort(g, v, *n, kind);
	return v;
}

/* A sub item of x keyed by (name, kind b), created on first use. */
static struct item *sub_get(struct item *x, uint32_t name, int64_t b)
{
	for (size_t k = x->sub.n; k-- > 0;)
		if (x->sub.v[k].name == name && x->sub.v[k].b == b)
			return &x->sub.v[k];
	struct item y = { 0 };
	y.name = name;
	y.b = b;
	y.first = INT64_MAX;
	pt_vec_push(&x->sub, y);
	return &x->sub.v[x->sub.n - 1];
}

/* Output name of a device activity: kernel name, or the copy/fill kind (§3.7). */
static uint32_t act_name(struct ctx *g, size_t i)
{
	const struct pt_events *ev = &g->m->events;
	if (ev->kind[i] == PT_EV_MEMCPY || ev->kind[i] == PT_EV_MEMSET)
		return copy_name(g, i);
	if (!ev->name[i])
		return out_intern(g, "<unnamed>", 9);
	return out_name(g, ev->name[i], false);
}

static void act_rows(struct ctx *g, const struct rank *r, struct item *x, uint32_t h, int64_t kind)
{
	const struct pt_events *ev = &g->m->events;
	for (uint32_t q = r->act_off[h]; q < r->act_off[h + 1]; q++) {
		uint32_t i = r->act[q];
		struct item *s = sub_get(x, act_name(g, i), kind);
		s->calls++;
		item_gpu(s, ev->dur[i]);
		if (ev->start[i] < s->first)
			s->first = ev->start[i];
	}
}

static void view_operator_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct groups gs;
	groups_init(&gs, r);
	struct items it;
	items_init(&it);
	/* member operators, and which ranges lie in one (for the GPU denominator) */
	uint8_t *inop = pt_xcalloc(r->nhr + 1, 1);
	for (size_t q = 0; q < r->nhr; q++) {
		uint32_t k = r->by_depth[q];
		const struct hr *h = &r->hr[k];
		bool mo = h->type == HT_OPERATOR && member_at(r, h->s);
		inop[k] = mo || (h->parent && inop[h->parent - 1]);
	}
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (h->type != HT_OPERATOR || !member_at(r, h->s))
			continue;
		uint32_t gi = group_of(&gs, r, h->track);
		struct grp *gr = &gs.v.v[gi];
		if (h->s < gr->first)
			gr->first = h->s;
		ivl_add(&gr->cpu, h->s, h->e);
		struct item *x = items_get(&it, ((uint64_t)gi << 32) | h->name, h->name);
		x->d = gi;
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu);
		if (h->s < x->first)
			x->first = h->s;
		if (!g->o->op_detail)
			continue;
		for (uint32_t q = r->kid_off[k]; q < r->kid_off[k + 1]; q++) {
			uint32_t c = r->kid[q];
			const struct hr *ch = &r->hr[c];
			struct item *s = sub_get(x, ch->name, 0);
			s->calls++;
			item_cpu(s, ch->e - ch->s);
			item_gpu(s, ch->gpu);
			if (ch->s < s->first)
				s->first = ch->s;
			act_rows(g, r, s, c, 1);
		}
		act_rows(g, r, x, k, 1);
	}
	for (size_t i = 0; i < ev->n; i++) {
		if (!is_dev_activity(ev->kind[i]) || !in_rank(r, i))
			continue;
		uint32_t h = hr_of_act(r, i);
		if (h && inop[h - 1])
			gs.v.v[group_of(&gs, r, r->hr[h - 1].track)].gpu_den += ev->dur[i];
	}
	free(inop);
	groups_order(&gs);
	struct pt_table *x = stext(r, "Operator Summary", true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", 52, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb2), 40, true, false);
	char c0[4096], c1[32], c2[256], c3[256], title[64], key[32];
	const char *cells[4] = { c0, c1, c2, c3 };
	for (size_t gk = 0; gk < gs.v.n; gk++) {
		uint32_t gi = gs.order[gk];
		struct grp *gr = &gs.v.v[gi];
		struct pt_ivset u = { 0 };
		pt_ivset_build(&u, gr->cpu.v, gr->cpu.n);
		gr->cpu_den = pt_ivset_measure(&u);
		pt_ivset_free(&u);
		size_t n;
		struct item *v = group_items(g, &it, gi, &n, VK_TWO);
		group_label(r, gr, title, key);
		pt_table_add_group(x, title);
		int64_t shown = 0;
		for (size_t k = 0; k < n; k++) {
			struct item *o = &v[k];
			if (!name_ok(g, o->name))
				continue;
			if (g->o->top >= 0 && shown >= g->o->top)
				break;
			shown++;
			const char *on = out_str(g, o->name);
			size_t row = row0(t, r);
			setstr(t, row, 1, key);
			setstr(t, row, 2, "op");
			setstr(t, row, 3, on);
			setstr(t, row, 5, on);
			pt_table_set_int(t, row, 6, o->calls);
			dblock(t, row, 7, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, gr->cpu_den);
			dblock(t, row, 12, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, gr->gpu_den);
			snprintf(c0, sizeof(c0), "%s", on);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			fblock(g, c2, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, gr->cpu_den);
			fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, gr->gpu_den);
			pt_table_add_text_row(x, cells);
			sort_ctx.g = g;
			pt_sort(o->sub.v, o->sub.n, sizeof(*o->sub.v), cmp_first);
			/* children first, then the item's own device rows */
			for (int pass = 0; pass < 2; pass++)
				for (size_t j = 0; j < o->sub.n; j++) {
					struct item *s = &o->sub.v[j];
					if (s->b != pass)
						continue;
					const char *sn = out_str(g, s->name);
					row = row0(t, r);
					setstr(t, row, 1, key);
					setstr(t, row, 2, pass ? "device" : "child");
					setstr(t, row, 3, on);
					if (!pass)
						setstr(t, row, 4, sn);
					setstr(t, row, 5, sn);
					pt_table_set_int(t, row, 6, s->calls);
					if (!pass)
						dblock(t, row, 7, true, s->calls, s->cpu_total, s->cpu_max, s->cpu_min,
						       o->cpu_total);
					dblock(t, row, 12, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min,
					       o->gpu_total);
					snprintf(c0, sizeof(c0), "  %s", sn);
					snprintf(c1, sizeof(c1), "%" PRId64, s->calls);
					fblock(g, c2, !pass, s->calls, s->cpu_total, s->cpu_max, s->cpu_min, o->cpu_total);
					fblock(g, c3, true, s->calls, s->gpu_total, s->gpu_max, s->gpu_min, o->gpu_total);
					pt_table_add_text_row(x, cells);
					if (pass)
						continue;
					pt_sort(s->sub.v, s->sub.n, sizeof(*s->sub.v), cmp_first);
					for (size_t q = 0; q < s->sub.n; q++) {
						struct item *d = &s->sub.v[q];
						const char *dn = out_str(g, d->name);
						row = row0(t, r);
						setstr(t, row, 1, key);
						setstr(t, row, 2, "device");
						setstr(t, row, 3, on);
						setstr(t, row, 4, sn);
						setstr(t, row, 5, dn);
						pt_table_set_int(t, row, 6, d->calls);
						dblock(t, row, 12, true, d->calls, d->gpu_total, d->gpu_max, d->gpu_min,
						       s->gpu_total);
						snprintf(c0, sizeof(c0), "    %s", dn);
						snprintf(c1, sizeof(c1), "%" PRId64, d->calls);
						fblock(g, c2, false, 0, 0, 0, 0, 0);
						fblock(g, c3, true, d->calls, d->gpu_total, d->gpu_max, d->gpu_min,
						       s->gpu_total);
						pt_table_add_text_row(x, cells);
					}
				}
		}
		free(v);
	}
	items_free(&it);
	groups_free(&gs);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* userdefined (§3.8)                                                  */

static void view_userdefined(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	if (r->ascend)
		return;
	struct groups gs;
	groups_init(&gs, r);
	struct items it;
	items_init(&it);
	size_t longest = 4;
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (h->type != HT_USERRANGE || h->memname || !member_at(r, h->s))
			continue;
		uint32_t gi = group_of(&gs, r, h->track);
		if (h->s < gs.v.v[gi].first)
			gs.v.v[gi].first = h->s;
		struct item *x = items_get(&it, ((uint64_t)gi << 32) | h->name, h->name);
		x->d = gi;
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu);
		if (h->s < x->first)
			x->first = h->s;
		size_t l = strlen(out_str(g, h->name));
		if (l > longest)
			longest = l;
	}
	groups_order(&gs);
	struct pt_table *x = stext(r, "UserDefined Summary", true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", longest < 90 ? longest : 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb2), 40, true, false);
	char c1[32], c2[256], c3[256], title[64], key[32];
	for (size_t gk = 0; gk < gs.v.n; gk++) {
		uint32_t gi = gs.order[gk];
		size_t n;
		struct item *v = group_items(g, &it, gi, &n, VK_TWO);
		if (!n) {
			free(v);
			continue;
		}
		group_label(r, &gs.v.v[gi], title, key);
		pt_table_add_group(x, title);
		int64_t shown = 0;
		for (size_t k = 0; k < n; k++) {
			struct item *o = &v[k];
			if (!name_ok(g, o->name))
				continue;
			if (g->o->top >= 0 && shown >= g->o->top)
				break;
			shown++;
			const char *on = out_str(g, o->name);
			size_t row = row0(t, r);
			setstr(t, row, 1, key);
			setstr(t, row, 2, on);
			pt_table_set_int(t, row, 3, o->calls);
			dblock(t, row, 4, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			dblock(t, row, 9, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, r->G);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			fblock(g, c2, true, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, r->G);
			const char *cells[4] = { on, c1, c2, c3 };
			pt_table_add_text_row(x, cells);
		}
		free(v);
	}
	items_free(&it);
	groups_free(&gs);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* memcpy (§3.7): host calls and ranges, device copies and fills       */

static void fbw(char *b, bool has, int64_t bytes, int64_t ns)
{
	if (!has || !ns)
		strcpy(b, "-");
	else
		snprintf(b, 48, "%.2f", (double)bytes / (double)ns);
}

static void view_memcpy(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	if (r->ascend)
		return;
	struct items host, dev;
	items_init(&host);
	items_init(&dev);
	struct pt_hashmap api_gpu, api_bytes; /* API event -> copy time / bytes + 1 it launched */
	pt_hashmap_init(&api_gpu);
	pt_hashmap_init(&api_bytes);
	int64_t G = r->G;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if ((k != PT_EV_MEMCPY && k != PT_EV_MEMSET) || !in_rank(r, i))
			continue;
		const struct pt_copy_info *ci = copy_info(m, (uint32_t)i);
		uint32_t a = api_of(r, i);
		if (a) {
			*pt_hashmap_put(&api_gpu, a, 0, NULL) += (uint64_t)ev->dur[i];
			if (ci)
				*pt_hashmap_put(&api_bytes, a, 1, NULL) += ci->bytes;
		}
		if (!member(r, i))
			continue;
		uint32_t nm = copy_name(g, i);
		struct item *x = items_get(&dev, nm, nm);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		if (ci) {
			x->a += (int64_t)ci->bytes;
			x->c = 1;
		}
	}
	/* (a) memory-manipulation ranges */
	for (uint32_t k = 0; k < r->nhr; k++) {
		const struct hr *h = &r->hr[k];
		if (!h->memname || !member_at(r, h->s))
			continue;
		struct item *x = items_get(&host, h->name, h->name);
		x->calls++;
		item_cpu(x, h->e - h->s);
		item_gpu(x, h->gpu_mem);
		x->a += h->bytes;
		x->c |= h->has_bytes;
		if (h->s < x->first)
			x->first = h->s;
	}
	/* (b) runtime copy calls outside (a) ranges */
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !in_rank(r, i) || !member(r, i))
			continue;
		uint32_t nm = out_name(g, ev->name[i], true);
		const char *s = out_str(g, nm);
		if (!strcasestr(s, "memcpy") && !strcasestr(s, "memset"))
			continue;
		uint32_t h = g->link ? g->link[i] : 0;
		if (h && r->hr[h - 1].mem_anc)
			continue;
		struct item *x = items_get(&host, nm, nm);
		x->calls++;
		item_cpu(x, ev->dur[i]);
		uint64_t *gsum = pt_hashmap_get(&api_gpu, i + 1);
		item_gpu(x, gsum ? (int64_t)*gsum : 0);
		uint64_t *bs = pt_hashmap_get(&api_bytes, i + 1);
		if (bs) {
			x->a += (int64_t)(*bs - 1);
			x->c = 1;
		}
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
	}
	pt_hashmap_free(&api_gpu);
	pt_hashmap_free(&api_bytes);
	items_sort(g, host.v.v, host.v.n, VK_TWO);
	items_sort(g, dev.v.v, dev.v.n, VK_DEV);
	size_t longest = 4;
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? &dev : &host;
		for (size_t k = 0; k < it->v.n; k++) {
			size_t l = strlen(out_str(g, it->v.v[k].name));
			if (l > longest)
				longest = l;
		}
	}
	struct pt_table *x = stext(r, "Memory Manipulation Summary", true, multi);
	char hb1[96], hb2[96];
	pt_table_add_text_col(x, "Name", longest < 90 ? longest : 90, false, true);
	pt_table_add_text_col(x, "Calls", 6, true, false);
	pt_table_add_text_col(x, block_head(r, true, hb1), 40, true, false);
	pt_table_add_text_col(x, block_head(r, false, hb2), 40, true, false);
	pt_table_add_text_col(x, "Bytes", 0, true, false);
	pt_table_add_text_col(x, "Bandwidth (GB/s)", 0, true, false);
	char c1[32], c2[256], c3[256], c4[48], c5[48];
	for (int grp = 0; grp < 2; grp++) {
		struct items *it = grp ? &dev : &host;
		if (!it->v.n)
			continue;
		pt_table_add_group(x, grp ? "Device copies and fills" : "Host calls");
		int64_t shown = 0;
		for (size_t k = 0; k < it->v.n; k++) {
			struct item *o = &it->v.v[k];
			if (!name_ok(g, o->name))
				continue;
			if (g->o->top >= 0 && shown >= g->o->top)
				break;
			shown++;
			const char *on = out_str(g, o->name);
			size_t row = row0(t, r);
			setstr(t, row, 1, grp ? "device" : "host");
			setstr(t, row, 2, on);
			pt_table_set_int(t, row, 3, o->calls);
			dblock(t, row, 4, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			dblock(t, row, 9, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			if (o->c) {
				pt_table_set_int(t, row, 14, o->a);
				if (o->gpu_total)
					pt_table_set_double(t, row, 15, (double)o->a / (double)o->gpu_total);
				snprintf(c4, sizeof(c4), "%" PRId64, o->a);
			} else {
				strcpy(c4, "-");
			}
			fbw(c5, o->c, o->a, o->gpu_total);
			snprintf(c1, sizeof(c1), "%" PRId64, o->calls);
			fblock(g, c2, o->has_cpu, o->calls, o->cpu_total, o->cpu_max, o->cpu_min, r->Wlen);
			fblock(g, c3, true, o->calls, o->gpu_total, o->gpu_max, o->gpu_min, G);
			const char *cells[6] = { on, c1, c2, c3, c4, c5 };
			pt_table_add_text_row(x, cells);
		}
	}
	items_free(&host);
	items_free(&dev);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* gpu (§3.12): device activities with launch statistics               */

struct lstat {
	int64_t n, ld_sum, ld_max, q_sum, api_sum, api_max, dout, aout, shrt;
	int64_t p50, p90, api_p50, api_p90;
};

struct lpair {
	uint32_t item;
	int64_t ld; /* a launch delay, or a call duration */
};

static int cmp_lpair(const void *pa, const void *pb)
{
	const struct lpair *a = pa, *b = pb;
	if (a->item != b->item)
		return a->item < b->item ? -1 : 1;
	return (a->ld > b->ld) - (a->ld < b->ld);
}

static void fnum(char *b, int64_t v)
{
	snprintf(b, 48, "%" PRId64, v);
}

static int name_width(struct ctx *g, const struct item *v, size_t n)
{
	size_t longest = 4;
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(out_str(g, v[k].name));
		if (l > longest)
			longest = l;
	}
	return (int)(longest < 90 ? longest : 90);
}

/* The gpu view's sums: items by (type, name), launch statistics and the samples of their percentiles. */
struct gacc {
	struct items it;
	PT_VEC(struct lstat) ls;
	PT_VEC(struct lpair) lp, ap; /* launch delays, call durations */
	int64_t den;
	/* the item of an activity, found again without making its name: unnamed tasks by
	 * track << 32 | task id, named kernels and tasks by raw name id (-> item index + 1) */
	struct pt_hashmap tasks;
	uint32_t *raw2item;
	size_t nraw;
};

static void gacc_free(struct gacc *ga)
{
	if (!ga)
		return;
	items_free(&ga->it);
	pt_vec_free(&ga->ls);
	pt_vec_free(&ga->lp);
	pt_vec_free(&ga->ap);
	pt_hashmap_free(&ga->tasks);
	free(ga->raw2item);
}

/* Add device activity i (member) to the gpu view's sums. */
static void gpu_add(const struct rank *r, struct gacc *ga, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint8_t k = ev->kind[i];
	int type = is_kernel(k) ? 0 : k == PT_EV_MEMCPY ? 1 : 2;
	/* an item found before: a kernel or task by its raw name, an unnamed task by (track, task) */
	uint32_t *rslot = NULL;
	uint64_t *tslot = NULL;
	if (type == 0 && ev->name[i]) {
		if (!ga->raw2item) {
			ga->nraw = m->strings.n;
			ga->raw2item = pt_xcalloc(ga->nraw + 1, sizeof(*ga->raw2item));
		}
		rslot = ev->name[i] < ga->nraw ? &ga->raw2item[ev->name[i]] : NULL;
	} else if (k == PT_EV_TASK && !ev->name[i] && ev->task[i] <= UINT32_MAX) {
		tslot = pt_hashmap_put(&ga->tasks, (uint64_t)ev->track[i] << 32 | ev->task[i], 0, NULL);
	}
	uint64_t have = rslot ? *rslot : tslot ? *tslot : 0;
	struct item *x;
	if (have) {
		x = &ga->it.v.v[have - 1];
	} else {
		uint32_t nm = k == PT_EV_TASK && !ev->name[i] ? task_name(g, i) : act_name(g, i);
		x = items_get(&ga->it, ((uint64_t)type << 32) | nm, nm);
		uint32_t id = (uint32_t)(x - ga->it.v.v) + 1;
		if (rslot)
			*rslot = id;
		if (tslot)
			*tslot = id;
	}
	if (!x->calls) {
		x->b = type;
		x->d = (int64_t)ga->ls.n;
		struct lstat z = { 0 };
		pt_vec_push(&ga->ls, z);
	}
	x->calls++;
	item_gpu(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	ga->den += ev->dur[i];
	if (type) {
		const struct pt_copy_info *ci = copy_info(m, (uint32_t)i);
		if (ci) {
			x->a += (int64_t)ci->bytes;
			x->c = 1;
		}
	}
	uint32_t a = api_of(r, i);
	if (!a)
		return;
	int64_t as = ev->start[a - 1], ae = as + ev->dur[a - 1], ds = ev->start[i];
	int64_t ld = ds - as;
	if (ld < 0)
		return; /* device record before its call (clock skew): left out */
	struct lstat *s = &ga->ls.v[x->d];
	int64_t q = ds - ae > 0 ? ds - ae : 0;
	s->n++;
	s->ld_sum += ld;
	if (ld > s->ld_max)
		s->ld_max = ld;
	s->q_sum += q;
	s->api_sum += ae - as;
	if (ae - as > s->api_max)
		s->api_max = ae - as;
	s->dout += q > g->o->queue_cutoff_ns;
	s->aout += ae - as > g->o->runtime_cutoff_ns;
	s->shrt += ev->dur[i] < ae - as;
	struct lpair p = { (uint32_t)x->d, ld }, pa = { (uint32_t)x->d, ae - as };
	pt_vec_push(&ga->lp, p);
	pt_vec_push(&ga->ap, pa);
}

static void view_gpu(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	struct gacc own, *ga = &own;
	if (r->asc) {
		ga = r->asc->gpu; /* asc_event() */
	} else {
		memset(&own, 0, sizeof(own));
		items_init(&own.it);
		for (size_t i = 0; i < ev->n; i++)
			if (is_dev_activity(ev->kind[i]) && in_rank(r, i) && member(r, i))
				gpu_add(r, &own, i);
	}
	int64_t den = ga->den;
	/* nearest-rank percentiles per item: launch delay (pass 0), call duration (pass 1) */
	for (int pass = 0; pass < 2; pass++) {
		struct lpair *v = pass ? ga->ap.v : ga->lp.v;
		size_t nv = pass ? ga->ap.n : ga->lp.n;
		pt_sort(v, nv, sizeof(*v), cmp_lpair);
		for (size_t a = 0; a < nv;) {
			size_t b = a;
			while (b < nv && v[b].item == v[a].item)
				b++;
			int64_t n = (int64_t)(b - a);
			struct lstat *s = &ga->ls.v[v[a].item];
			int64_t p50 = v[a + (size_t)((50 * n + 99) / 100) - 1].ld;
			int64_t p90 = v[a + (size_t)((90 * n + 99) / 100) - 1].ld;
			if (pass) {
				s->api_p50 = p50;
				s->api_p90 = p90;
			} else {
				s->p50 = p50;
				s->p90 = p90;
			}
			a = b;
		}
	}
	items_sort(g, ga->it.v.v, ga->it.v.n, VK_DEV);
	static const char *const tname[] = { "kernel", "memcpy", "memset" };
	struct pt_table *x = stext(r, r->ascend ? "NPU Activity Summary" : "GPU Activity Summary", true, multi);
	const char *heads[] = { "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Launch Avg", "Launch P90",
				"Queue Avg", "Outliers" };
	for (int c = 0; c < 10; c++)
		pt_table_add_text_col(x, heads[c], 0, true, false);
	pt_table_add_text_col(x, "Name", (size_t)name_width(g, ga->it.v.v, ga->it.v.n), false, true);
	char cb[11][48];
	int64_t shown = 0;
	for (size_t k = 0; k < ga->it.v.n; k++) {
		struct item *o = &ga->it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const struct lstat *s = &ga->ls.v[o->d];
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, tname[o->b]);
		setstr(t, row, 2, on);
		pt_table_set_int(t, row, 3, o->calls);
		pt_table_set_int(t, row, 4, o->gpu_total);
		pt_table_set_int(t, row, 5, ravg(o->gpu_total, o->calls));
		pt_table_set_int(t, row, 6, o->gpu_min);
		pt_table_set_int(t, row, 7, o->gpu_max);
		pt_table_set_double(t, row, 8, pct(o->gpu_total, den));
		if (o->c)
			pt_table_set_int(t, row, 9, o->a);
		pt_table_set_int(t, row, 10, s->n);
		if (s->n) {
			pt_table_set_int(t, row, 11, ravg(s->ld_sum, s->n));
			pt_table_set_int(t, row, 12, s->p50);
			pt_table_set_int(t, row, 13, s->p90);
			pt_table_set_int(t, row, 14, s->ld_max);
			pt_table_set_int(t, row, 15, ravg(s->q_sum, s->n));
			pt_table_set_int(t, row, 16, ravg(s->api_sum, s->n));
			pt_table_set_int(t, row, 17, s->api_p50);
			pt_table_set_int(t, row, 18, s->api_p90);
			pt_table_set_int(t, row, 19, s->api_max);
			pt_table_set_int(t, row, 20, s->dout);
			pt_table_set_int(t, row, 21, s->aout);
			pt_table_set_int(t, row, 22, s->shrt);
		}
		fpct(cb[0], o->gpu_total, den);
		ftime(g, cb[1], o->gpu_total);
		fnum(cb[2], o->calls);
		favg(g, cb[3], o->gpu_total, o->calls);
		ftime(g, cb[4], o->gpu_min);
		ftime(g, cb[5], o->gpu_max);
		if (s->n) {
			favg(g, cb[6], s->ld_sum, s->n);
			ftime(g, cb[7], s->p90);
			favg(g, cb[8], s->q_sum, s->n);
			fnum(cb[9], s->dout);
		} else {
			for (int c = 6; c < 10; c++)
				strcpy(cb[c], "-");
		}
		const char *cells[11];
		for (int c = 0; c < 10; c++)
			cells[c] = cb[c];
		cells[10] = on;
		pt_table_add_text_row(x, cells);
	}
	if (ga == &own)
		gacc_free(&own);
	char nb[200], cut[48];
	int64_t us = g->o->queue_cutoff_ns;
	if (us % 1000)
		snprintf(cut, sizeof(cut), "%" PRId64 ".%03" PRId64, us / 1000, us % 1000);
	else
		snprintf(cut, sizeof(cut), "%" PRId64, us / 1000);
	pt_table_add_note(x, "Note:");
	pt_table_add_note(x, "Launch: device start minus the start of the launching API call. Queue: device start minus the end");
	snprintf(nb, sizeof(nb), "of that call (0 if negative). Outliers: launches whose queue delay exceeds %s us.", cut);
	pt_table_add_note(x, nb);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* api (§3.11): runtime and driver API calls by name                   */

/* API view: add call i (a member) to its item. */
static void api_add(struct ctx *g, struct items *it, int64_t *den, size_t i)
{
	const struct pt_events *ev = &g->m->events;
	uint32_t nm = out_name(g, ev->name[i], true);
	struct item *x = items_get(it, nm, nm);
	x->calls++;
	item_cpu(x, ev->dur[i]);
	if (ev->start[i] < x->first)
		x->first = ev->start[i];
	*den += ev->dur[i];
}

static void view_api(struct rank *r, struct pt_table *t, struct pt_table **tx, bool multi)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	if (r->ascend)
		return;
	struct items own, *itp = &own;
	int64_t den = 0;
	if (r->asc) { /* streamed: gpu_event() */
		itp = &r->asc->api;
		den = r->asc->api_den;
	} else {
		items_init(&own);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_API && in_rank(r, i) && member(r, i))
				api_add(g, &own, &den, i);
	}
	struct items it = *itp;
	items_sort(g, it.v.v, it.v.n, VK_API);
	struct pt_table *x = stext(r, "API Summary", true, multi);
	const char *heads[] = { "Time(%)", "Time", "Calls", "Avg", "Min", "Max" };
	for (int c = 0; c < 6; c++)
		pt_table_add_text_col(x, heads[c], 0, true, false);
	pt_table_add_text_col(x, "Name", (size_t)name_width(g, it.v.v, it.v.n), false, true);
	char cb[6][48];
	int64_t shown = 0;
	for (size_t k = 0; k < it.v.n; k++) {
		struct item *o = &it.v.v[k];
		if (!name_ok(g, o->name))
			continue;
		if (g->o->top >= 0 && shown >= g->o->top)
			break;
		shown++;
		const char *on = out_str(g, o->name);
		size_t row = row0(t, r);
		setstr(t, row, 1, on);
		pt_table_set_int(t, row, 2, o->calls);
		pt_table_set_int(t, row, 3, o->cpu_total);
		pt_table_set_int(t, row, 4, ravg(o->cpu_total, o->calls));
		pt_table_set_int(t, row, 5, o->cpu_min);
		pt_table_set_int(t, row, 6, o->cpu_max);
		pt_table_set_double(t, row, 7, pct(o->cpu_total, den));
		fpct(cb[0], o->cpu_total, den);
		ftime(g, cb[1], o->cpu_total);
		fnum(cb[2], o->calls);
		favg(g, cb[3], o->cpu_total, o->calls);
		ftime(g, cb[4], o->cpu_min);
		ftime(g, cb[5], o->cpu_max);
		const char *cells[7] = { cb[0], cb[1], cb[2], cb[3], cb[4], cb[5], on };
		pt_table_add_text_row(x, cells);
	}
	if (itp == &own)
		items_free(&own);
	*tx = x;
}

/* ------------------------------------------------------------------ */
/* data tables                                                          */

static struct pt_table *data_table(enum pt_summary_view v)
{
	struct pt_table *t = pt_table_new(pt_summary_view_names[v], pt_summary_view_names[v]);
	t->rows_apart = true; /* summary.md §6 */
	pt_table_add_col(t, "rank", PT_COL_INT, PT_ROLE_KEY, 0);
	switch (v) {
	case PT_SV_DEVICE: {
		pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "device", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "step", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "samples", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "utilization_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "busy", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "window", PT_COL_TIME, PT_ROLE_VALUE, 0);
		static const char *const rc[] = { "user_ratio", "system_ratio", "iowait_ratio", "idle_ratio" };
		for (int i = 0; i < 4; i++)
			pt_table_add_col(t, rc[i], PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "context_switches", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "process_user_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "process_system_ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	}
	case PT_SV_OVERVIEW:
		pt_table_add_col(t, "side", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "event_type", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	case PT_SV_MODEL:
		pt_table_add_col(t, "phase", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		break;
	case PT_SV_DISTRIBUTED:
		pt_table_add_col(t, "device", PT_COL_INT, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "metric", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "time", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	case PT_SV_OPERATOR:
		pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "row_kind", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "op_name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "child_name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
		break;
	case PT_SV_KERNEL:
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "gpu");
		break;
	case PT_SV_MEMCPY:
	case PT_SV_USERDEFINED:
		pt_table_add_col(t, "group", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "cpu");
		add_block_cols(t, "gpu");
		if (v == PT_SV_MEMCPY) {
			pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
			pt_table_add_col(t, "bandwidth_gbps", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		}
		break;
	case PT_SV_OPTYPE:
		pt_table_add_col(t, "op_type", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ops", PT_COL_INT, PT_ROLE_VALUE, 0);
		add_block_cols(t, "gpu");
		break;
	case PT_SV_AICPU:
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "dispatch_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "dispatch_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "exec_total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "exec_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		break;
	case PT_SV_GPU:
		pt_table_add_col(t, "type", PT_COL_STR, PT_ROLE_KEY, 0);
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "launches", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "launch_delay_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "launch_delay_p50", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "launch_delay_p90", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "launch_delay_max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "queue_delay_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "api_avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "api_p50", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "api_p90", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "api_max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "delay_outliers", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "api_outliers", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "short", PT_COL_INT, PT_ROLE_VALUE, 0);
		break;
	case PT_SV_API:
		pt_table_add_col(t, "name", PT_COL_STR, PT_ROLE_LABEL, 0);
		pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "min", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "max", PT_COL_TIME, PT_ROLE_VALUE, 0);
		pt_table_add_col(t, "ratio", PT_COL_DOUBLE, PT_ROLE_VALUE, 4);
		break;
	default:
		break;
	}
	return t;
}

/* ------------------------------------------------------------------ */
/* Ascend sums (struct asc), in memory or streamed                     */

static struct asc *asc_new(struct rank *r)
{
	const struct pt_model *m = r->g->m;
	struct asc *a = pt_xcalloc(1, sizeof(*a));
	items_init(&a->op);
	items_init(&a->kn);
	items_init(&a->ty);
	items_init(&a->api);
	pt_hashmap_init(&a->ty_seen);
	a->gpu = pt_xcalloc(1, sizeof(*a->gpu));
	items_init(&a->gpu->it);
	a->op_raw = pt_xcalloc(m->strings.n + 1, sizeof(*a->op_raw));
	a->kn_raw = pt_xcalloc(m->strings.n + 1, sizeof(*a->kn_raw));
	a->trk = pt_xcalloc(m->tracks.n + 1, 1);
	for (size_t k = 0; k < r->ntracks; k++)
		a->trk[r->tracks[k]] = 1;
	a->ov.r = r;
	if (!r->ascend) {
		a->gd = pt_xcalloc(m->devices.n + 1, sizeof(*a->gd));
		for (size_t k = 0; k < r->ntracks; k++) {
			struct gdev *d = &a->gd[m->tracks.v[r->tracks[k]].device];
			if (!d->tracks)
				d->tracks = pt_xmalloc(r->ntracks * sizeof(*d->tracks));
			d->tracks[d->ntracks++] = r->tracks[k];
		}
	}
	return a;
}

static void asc_free(struct asc *a, size_t ndev)
{
	if (!a)
		return;
	for (size_t d = 0; a->gd && d < ndev; d++) {
		free(a->gd[d].tracks);
		pendq_free(&a->gd[d].pq);
		pendq_free(&a->gd[d].dist.pq);
	}
	free(a->gd);
	items_free(&a->op);
	items_free(&a->kn);
	items_free(&a->ty);
	items_free(&a->api);
	pt_hashmap_free(&a->ty_seen);
	gacc_free(a->gpu);
	free(a->gpu);
	free(a->op_raw);
	free(a->kn_raw);
	free(a->trk);
	pendq_free(&a->pq);
	pendq_free(&a->dist.pq);
	pendq_free(&a->apq);
	free(a);
}

/*
 * A new pending activity: appended to the sorted queue when it starts no
 * earlier than the queue's last (most arrive so: a stream's tasks are in
 * start order and streams interleave in time), inserted when a few places
 * back, and otherwise kept in the heap.
 */
static void heap_push(struct pendq *p, struct ov_ent x)
{
	pt_vec_reserve(&p->heap, p->heap.n + 1);
	struct ov_ent *h = p->heap.v;
	size_t k = p->heap.n++;
	while (k && h[(k - 1) / 2].s > x.s) {
		h[k] = h[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	h[k] = x;
}

static struct ov_ent heap_pop(struct pendq *p)
{
	struct ov_ent *h = p->heap.v, top = h[0], x = h[--p->heap.n];
	size_t n = p->heap.n, k = 0;
	for (;;) {
		size_t c = 2 * k + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].s < h[c].s)
			c++;
		if (h[c].s >= x.s)
			break;
		h[k] = h[c];
		k = c;
	}
	if (n)
		h[k] = x;
	return top;
}

static inline void pendq_insert(struct pendq *p, struct ov_ent x)
{
	enum { BACK = 16 };
	size_t n = p->q.n;
	struct ov_ent *q = p->q.v;
	size_t k = n;
	while (k > p->ph && n - k < BACK && q[k - 1].s > x.s)
		k--;
	if (k > p->ph && q[k - 1].s > x.s) {
		heap_push(p, x);
		return;
	}
	pt_vec_reserve(&p->q, n + 1);
	q = p->q.v;
	memmove(q + k + 1, q + k, (n - k) * sizeof(*q));
	q[k] = x;
	p->q.n++;
}

static inline void pendq_add(struct pendq *p, struct ov_ent x)
{
	size_t n = p->q.n;
	if (n < p->q.cap && (n == p->ph || p->q.v[n - 1].s <= x.s)) /* the common case: an append */
		p->q.v[p->q.n++] = x;
	else
		pendq_insert(p, x);
}

/* The earliest pending activity if it starts at or before wm: true and *x. */
static inline bool pendq_pop(struct pendq *p, int64_t wm, struct ov_ent *x)
{
	struct ov_ent *q = p->q.v;
	bool fromq = p->ph < p->q.n && (!p->heap.n || q[p->ph].s <= p->heap.v[0].s);
	if (fromq && q[p->ph].s <= wm) {
		*x = q[p->ph++];
		return true;
	}
	if (!fromq && p->heap.n && p->heap.v[0].s <= wm) {
		*x = heap_pop(p);
		return true;
	}
	/* keep the queue's live part at the front once it is mostly consumed */
	if (p->ph == p->q.n) {
		p->ph = p->q.n = 0;
	} else if (p->ph > p->q.n / 2) {
		memmove(q, q + p->ph, (p->q.n - p->ph) * sizeof(*q));
		p->q.n -= p->ph;
		p->ph = 0;
	}
	return false;
}

/* One activity of class 1 (computation) or 2 (communication) of the distributed view's sets, in start order. */
static void dist_add(const struct rank *r, struct dacc *d, const struct ov_ent *x)
{
	if (x->f == 1) {
		urun_add(r, &d->c, x->s, x->e);
		d->any_c |= x->e > x->s;
	} else {
		urun_add(r, &d->m, x->s, x->e);
		d->any_m |= x->e > x->s;
	}
	urun_add(r, &d->cm, x->s, x->e);
}

/* The class of an event in the distributed view's sets (the index's rule for NPU models): 0 none. */
static unsigned dist_class(const struct rank *r, uint8_t kind, uint32_t op, uint32_t track)
{
	if (kind == PT_EV_AICPU)
		return 1;
	if (kind == PT_EV_TASK)
		return pt_index_task_class(r->g->opcomm, op, r->g->scan->named[track]);
	return 0;
}

/*
 * What the distributed sets get before the events: the communication spans
 * that are not events, and the events of the rank's other tracks (AI CPU
 * ops, which the importer appends after every task), which a first read
 * kept (struct deferred).
 */
struct deferred {
	int64_t s, e;
	uint32_t track, op;
	uint8_t kind;
};

static void dist_begin(struct rank *r, const struct deferred *dv, size_t nd)
{
	struct dacc *d = &r->asc->dist;
	const struct pt_model *m = r->g->m;
	struct pt_ival *k = NULL;
	size_t nk = pt_index_comm_spans(m, r->dev, &k);
	/* into the heap: in the queue, the latest of them would send every task after it to the heap */
	for (size_t j = 0; j < nk; j++)
		heap_push(&d->pq, (struct ov_ent){ k[j].s, k[j].e, 2 });
	free(k);
	for (size_t j = 0; j < nd; j++) {
		unsigned c = m->tracks.v[dv[j].track].device == r->dev ? dist_class(r, dv[j].kind, dv[j].op, dv[j].track) : 0;
		if (c)
			heap_push(&d->pq, (struct ov_ent){ dv[j].s, dv[j].e, c });
	}
}

/* The earliest start that tracks tr[0..n) can still deliver (INT64_MAX: none, or all): a track in
 * start order, its last start; otherwise its earliest start, until it is done. */
static int64_t watermark(const struct scan *sc, const uint32_t *tr, size_t n, bool all)
{
	int64_t wm = INT64_MAX;
	for (size_t k = 0; k < n && !all; k++) {
		uint32_t t = tr[k];
		if (!sc->left[t])
			continue;
		int64_t c = sc->sorted[t] && sc->seen[t] ? sc->last[t] : sc->min[t];
		if (c < wm)
			wm = c;
	}
	return wm;
}

/*
 * Feed the overview and the distributed sets the pending activities that no
 * later one can precede: those starting at or before the watermark of the
 * tracks that deliver them (the rank's stream tracks; a streamed GPU rank's
 * API calls: all its tracks; its device's kernels: that device's streams).
 * all: every pending one (the events are over).
 */
static void asc_release(struct rank *r, bool all)
{
	const struct scan *sc = r->g->scan;
	struct asc *a = r->asc;
	int64_t wm = watermark(sc, r->tracks, r->ntracks, all);
	struct ov_ent x;
	/* a streamed GPU rank has no host ranges: all its device activity is unattributed */
	while (pendq_pop(&a->pq, wm, &x))
		ov_add(&a->ov, x.s, x.e, x.f, r->ascend ? -1 : 1);
	while (pendq_pop(&a->dist.pq, wm, &x))
		dist_add(r, &a->dist, &x);
	if (r->ascend)
		return;
	wm = watermark(sc, r->atracks, r->natracks, all);
	while (pendq_pop(&a->apq, wm, &x))
		urun_add(r, &a->api_u, x.s, x.e);
	for (size_t d = 0; d < r->g->m->devices.n; d++) {
		struct gdev *gd = &a->gd[d];
		if (!gd->ntracks)
			continue;
		wm = watermark(sc, gd->tracks, gd->ntracks, all);
		while (pendq_pop(&gd->pq, wm, &x)) {
			urun_add(r, &gd->u, x.s, x.e);
			dist_add(r, &gd->dist, &x);
		}
	}
}

/* Add event i of an Ascend rank to the sums of the selected views. */
static void asc_event(struct rank *r, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_model *m = g->m;
	const struct pt_events *ev = &m->events;
	uint8_t kd = ev->kind[i];
	struct asc *a = r->asc;
	unsigned views = g->o->views;
	/* streamed distributed sets: the events of the stream tracks (the others came first, dist_begin()) */
	if (!g->x && (views & (1u << PT_SV_DISTRIBUTED)) && a->trk[ev->track[i]]) {
		unsigned c = dist_class(r, kd, ev->op[i], ev->track[i]);
		if (c)
			pendq_add(&a->dist.pq, (struct ov_ent){ ev->start[i], ev->start[i] + ev->dur[i], c });
	}
	if (!is_dev_activity(kd))
		return;
	if (!g->x && (views & ((1u << PT_SV_OVERVIEW) | (1u << PT_SV_DEVICE))) && a->trk[ev->track[i]])
		pendq_add(&a->pq, (struct ov_ent){ ev->start[i], ev->start[i] + ev->dur[i], ov_flags(r, i) });
	if (!member(r, i))
		return;
	if (views & (1u << PT_SV_MODEL)) {
		a->G += ev->dur[i];
		/* the window of the previous event is tried before a search */
		int64_t t0 = ev->start[i];
		ssize_t k;
		if (a->hint < r->nw && r->w[a->hint].s <= t0 && t0 < r->w[a->hint].e)
			k = (ssize_t)a->hint;
		else
			k = win_of(r, t0);
		if (k >= 0) {
			a->hint = (size_t)k;
			struct win *x = &r->w[k];
			x->gpu[3] += ev->dur[i];
			int p = phase_of(x, t0);
			if (p < 3)
				x->gpu[p] += ev->dur[i];
		}
	}
	if ((views & (1u << PT_SV_OPERATOR)) && kd == PT_EV_TASK && ev->op[i]) {
		struct item *x;
		if (a->op_raw[ev->name[i]]) {
			x = &a->op.v.v[a->op_raw[ev->name[i]] - 1];
		} else {
			uint32_t nm = out_name(g, ev->name[i], false);
			x = items_get(&a->op, nm, nm);
			a->op_raw[ev->name[i]] = (uint32_t)(x - a->op.v.v) + 1;
		}
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		a->op_den += ev->dur[i];
		if (g->o->op_detail) {
			/* task rows: few task keys per op, linear search from the last hit */
			uint64_t key = task_key(m, i);
			struct item *s = NULL;
			for (size_t k = x->sub.n; k-- > 0;)
				if ((uint64_t)x->sub.v[k].a == key) {
					s = &x->sub.v[k];
					break;
				}
			if (!s) {
				struct item y = { 0 };
				y.name = task_name(g, i);
				y.a = (int64_t)key;
				y.first = INT64_MAX;
				pt_vec_push(&x->sub, y);
				s = &x->sub.v[x->sub.n - 1];
			}
			s->calls++;
			item_gpu(s, ev->dur[i]);
			if (ev->start[i] < s->first)
				s->first = ev->start[i];
		}
	}
	if ((views & (1u << PT_SV_KERNEL)) && is_kernel(kd))
		kernel_add(r, &a->kn, &a->kn_den, a->kn_raw, i);
	if (views & (1u << PT_SV_GPU))
		gpu_add(r, a->gpu, i);
	if ((views & (1u << PT_SV_OPTYPE)) && kd == PT_EV_TASK && ev->op[i]) {
		uint32_t ty = out_name(g, m->ops.v[ev->op[i] - 1].type, false);
		struct item *x = items_get(&a->ty, ty, ty);
		x->calls++;
		item_gpu(x, ev->dur[i]);
		if (ev->start[i] < x->first)
			x->first = ev->start[i];
		a->ty_den += ev->dur[i];
		bool added = false;
		pt_hashmap_put(&a->ty_seen, ((uint64_t)ty << 32) | ev->name[i], 1, &added);
		x->a += added;
	}
}

/*
 * Add event i of a streamed GPU rank to the sums of the selected views. Such
 * a rank has no filter, so every event is a member, and no host ranges, or
 * only views that read none (gpu_streamable), so no activity is attributed
 * to a range: what is left of the views are the overview's unions, the
 * kernel and API items, and per GPU the union and the computation and
 * communication sets of its kernels (struct gdev).
 */
static void gpu_event(struct rank *r, size_t i)
{
	struct ctx *g = r->g;
	const struct pt_events *ev = &g->m->events;
	struct asc *a = r->asc;
	unsigned views = g->o->views;
	uint8_t kd = ev->kind[i];
	int64_t s = ev->start[i], e = s + ev->dur[i];
	if (kd == PT_EV_API) {
		if (views & (1u << PT_SV_OVERVIEW)) {
			pendq_add(&a->apq, (struct ov_ent){ s, e, 0 });
			a->api_calls += member(r, i);
		}
		if ((views & (1u << PT_SV_API)) && member(r, i))
			api_add(g, &a->api, &a->api_den, i);
		return;
	}
	if (!is_dev_activity(kd))
		return;
	if ((views & (1u << PT_SV_OVERVIEW)) && a->trk[ev->track[i]])
		pendq_add(&a->pq, (struct ov_ent){ s, e, ov_flags(r, i) });
	if ((views & (1u << PT_SV_KERNEL)) && is_kernel(kd) && member(r, i))
		kernel_add(r, &a->kn, &a->kn_den, a->kn_raw, i);
	if ((views & ((1u << PT_SV_DEVICE) | (1u << PT_SV_DISTRIBUTED))) && is_kernel(kd) && a->trk[ev->track[i]]) {
		struct gdev *gd = &a->gd[track_dev(g->m, i)];
		gd->kernels++;
		pendq_add(&gd->pq, (struct ov_ent){ s, e, kcomm(r, i) ? 2u : 1u });
	}
}

/* ------------------------------------------------------------------ */
/* driver                                                              */

typedef void (*view_fn)(struct rank *, struct pt_table *, struct pt_table **, bool);

static const view_fn view_fns[PT_SV_COUNT] = {
	[PT_SV_DEVICE] = view_device,
	[PT_SV_OVERVIEW] = view_overview,
	[PT_SV_MODEL] = view_model,
	[PT_SV_DISTRIBUTED] = view_distributed,
	[PT_SV_OPERATOR] = view_operator,
	[PT_SV_KERNEL] = view_kernel,
	[PT_SV_MEMCPY] = view_memcpy,
	[PT_SV_USERDEFINED] = view_userdefined,
	[PT_SV_OPTYPE] = view_optype,
	[PT_SV_AICPU] = view_aicpu,
	[PT_SV_GPU] = view_gpu,
	[PT_SV_API] = view_api,
};

typedef PT_VEC(struct rank) rank_vec;

/* One summary: its context, ranks and effective options (in memory or streamed). */
struct run {
	struct ctx g;
	rank_vec ranks;
	struct pt_summary_opts eff;
	const struct pt_summary_opts *o;
	uint32_t *dev_rank; /* streaming: device index -> Ascend rank + 1 */
};

/*
 * Context and ranks of model m: with its index x in memory, or streamed
 * (x NULL, sc the first read's scan). earliest: the earliest event start
 * (INT64_MAX: none).
 */
static int run_init(struct run *u, const struct pt_model *m, struct pt_index *x, struct scan *sc,
		    const struct pt_summary_opts *o, int64_t earliest, struct pt_err **e)
{
	struct ctx *gp = &u->g;
	memset(gp, 0, sizeof(*gp));
	gp->m = m;
	gp->x = x;
	gp->scan = sc;
	if (sc)
		gp->opcomm = pt_index_op_comm(m);
	gp->o = o;
	u->o = o;
	u->ranks.v = NULL;
	u->ranks.n = u->ranks.cap = 0;
	gp->unit = o->unit == PT_TU_DEFAULT ? PT_TU_MS : o->unit;
	pt_strtab_init(&gp->names);
	gp->raw2out = pt_xcalloc(m->strings.n + 1, sizeof(*gp->raw2out));
	gp->raw2api = pt_xcalloc(m->strings.n + 1, sizeof(*gp->raw2api));
	if (o->step_re) {
		gp->step_re = *o->step_re;
	} else {
		if (pt_step_pattern_compile(&gp->step_re, NULL, NULL, 0)) {
			free(gp->raw2out);
			free(gp->raw2api);
			free(gp->opcomm);
			pt_strtab_free(&gp->names);
			return pt_err(e, "cannot compile the step pattern");
		}
		gp->step_re_own = true;
	}
	gp->earliest = earliest == INT64_MAX ? 0 : earliest;
	/* ranks: one per NPU device (ascending id), then rank 0 for GPU/host data */
	bool gpu = false;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind != PT_DEV_NPU) {
			gpu |= dv->kind == PT_DEV_GPU || dv->kind == PT_DEV_CPU;
			continue;
		}
		if (o->device >= 0 && dv->id != (uint64_t)o->device)
			continue;
		struct rank r = { .g = gp, .ascend = true, .dev = d, .rank = dv->id, .word = "NPU" };
		pt_vec_push(&u->ranks, r);
	}
	for (size_t i = 1; i < u->ranks.n; i++)
		for (size_t j = i; j > 0 && u->ranks.v[j - 1].rank > u->ranks.v[j].rank; j--) {
			struct rank tmp = u->ranks.v[j];
			u->ranks.v[j] = u->ranks.v[j - 1];
			u->ranks.v[j - 1] = tmp;
		}
	/* GPU ranks: one per traced process (devices grouped by pid), numbered by the recorded rank, else in order */
	if (gpu) {
		if (!sc) { /* per event: in memory only */
			gp->link = pt_xcalloc(m->events.n + 1, sizeof(*gp->link));
			gp->cls = pt_xcalloc(m->events.n + 1, 1);
		}
		gp->kname = pt_xcalloc(m->strings.n + 1, 1);
		size_t first = u->ranks.n;
		for (uint32_t d = 0; d < m->devices.n; d++) {
			const struct pt_device *dv = &m->devices.v[d];
			if (dv->kind == PT_DEV_NPU)
				continue;
			struct rank *rk = NULL;
			for (size_t k = first; k < u->ranks.n; k++)
				if (u->ranks.v[k].pid == dv->pid)
					rk = &u->ranks.v[k];
			if (!rk) {
				struct rank r = { .g = gp, .ascend = false, .pid = dv->pid, .rank = -1, .word = "GPU" };
				r.devin = pt_xcalloc(m->devices.n + 1, sizeof(*r.devin));
				pt_vec_push(&u->ranks, r);
				rk = &u->ranks.v[u->ranks.n - 1];
			}
			if (dv->pid && dv->rank >= 0 && rk->rank < 0)
				rk->rank = dv->rank;
			if (dv->kind == PT_DEV_GPU && o->device >= 0 && dv->id != (uint64_t)o->device)
				continue;
			rk->devin[d] = true;
		}
		for (size_t k = first; k < u->ranks.n; k++)
			if (u->ranks.v[k].rank < 0)
				u->ranks.v[k].rank = (int64_t)(k - first);
		for (size_t i = first + 1; i < u->ranks.n; i++)
			for (size_t j = i; j > first && u->ranks.v[j - 1].rank > u->ranks.v[j].rank; j--) {
				struct rank tmp = u->ranks.v[j];
				u->ranks.v[j] = u->ranks.v[j - 1];
				u->ranks.v[j - 1] = tmp;
			}
	}
	u->eff = *o;
	if (u->eff.key == PT_SK_DEFAULT)
		u->eff.key = u->ranks.n && u->ranks.v[0].ascend ? PT_SK_GPU_TOTAL : PT_SK_CPU_TOTAL;
	gp->o = &u->eff;
	u->dev_rank = pt_xcalloc(m->devices.n + 1, sizeof(*u->dev_rank));
	for (size_t k = 0; k < u->ranks.n; k++) {
		struct rank *r = &u->ranks.v[k];
		rank_prepare(r, e);
		if (r->ascend) {
			r->asc = asc_new(r);
			u->dev_rank[r->dev] = (uint32_t)k + 1;
		} else if (sc) { /* a streamed GPU rank */
			r->asc = asc_new(r);
			for (uint32_t d = 0; d < m->devices.n; d++)
				if (r->devin[d])
					u->dev_rank[d] = (uint32_t)k + 1;
		}
	}
	return 0;
}

/* Per-event sums of events [0, n) of the model (whole, or the batch in m->events): Ascend ranks,
 * and streamed GPU ranks. */
static void run_events(struct run *u)
{
	const struct pt_model *m = u->g.m;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t k = u->dev_rank[m->tracks.v[ev->track[i]].device];
		if (!k)
			continue;
		struct rank *r = &u->ranks.v[k - 1];
		if (r->ascend)
			asc_event(r, i);
		else
			gpu_event(r, i);
	}
}

static void run_views(struct run *u, struct pt_summary *out)
{
	const struct pt_summary_opts *o = u->o;
	bool multi = u->ranks.n > 1;
	for (int v = 0; v < PT_SV_COUNT; v++) {
		if (!(o->views & (1u << v)))
			continue;
		struct pt_summary_view_out *vo = &out->v[out->n++];
		vo->view = (enum pt_summary_view)v;
		vo->data = data_table((enum pt_summary_view)v);
		/* two text tables per rank: the device view prints its Host CPU table second */
		vo->text = pt_xcalloc(2 * u->ranks.n + 1, sizeof(*vo->text));
		vo->ntext = 2 * u->ranks.n;
		if (!view_fns[v])
			continue;
		for (size_t k = 0; k < u->ranks.n; k++)
			view_fns[v](&u->ranks.v[k], vo->data, &vo->text[2 * k], multi);
	}
	out->nesting_violations = u->g.violations;
	for (size_t d = 0; d < u->g.m->devices.n; d++)
		out->device_kinds |= 1u << u->g.m->devices.v[d].kind;
}

static void run_free(struct run *u)
{
	struct ctx *g = &u->g;
	for (size_t k = 0; k < u->ranks.n; k++) {
		rank_free(&u->ranks.v[k]);
		asc_free(u->ranks.v[k].asc, g->m->devices.n);
	}
	pt_vec_free(&u->ranks);
	if (g->step_re_own)
		regfree(&g->step_re);
	free(g->link);
	free(g->cls);
	free(g->kname);
	free(g->raw2api);
	free(g->raw2out);
	free(g->opcomm);
	free(u->dev_rank);
	pt_strtab_free(&g->names);
}

int pt_pass_summary(const struct pt_model *m, struct pt_index *x, const struct pt_summary_opts *o,
		    struct pt_summary *out, struct pt_err **e)
{
	memset(out, 0, sizeof(*out));
	int64_t earliest = INT64_MAX;
	for (size_t i = 0; i < m->events.n; i++)
		if (m->events.start[i] < earliest)
			earliest = m->events.start[i];
	struct run u;
	if (run_init(&u, m, x, NULL, o, earliest, e))
		return -1;
	run_events(&u);
	run_views(&u, out);
	run_free(&u);
	return 0;
}

/* ------------------------------------------------------------------ */
/* streaming (pass-summary-stream.c reads the file)                    */

struct pt_summary_stream {
	const struct pt_summary_opts *o;
	struct scan sc;
	size_t ndev, ntrk;  /* sizes of the scan's arrays */
	enum { ST_NEW, ST_SCAN, ST_SUM } state;
	bool claimed;       /* the scan came from the file's TrackEvents: checked by _end() */
	size_t nmeta[5];    /* claimed: strings, devices, tracks, ops and steps when the sums began */
	struct pt_track_events *tev; /* per track, what the events turned out to be (a first read: its
					 scan; claimed: checked against the file's record by _end()) */
	int64_t *tev_last;
	uint32_t bad_track; /* claimed and wrong: the first such track + 1 */
	PT_VEC(struct deferred) deferred; /* distributed view: the first read's events off stream tracks */
	bool kernels;       /* the first read saw GPU-kind activities (their class needs the index) */
	struct run u;
	bool begun;
	bool once;          /* the input cannot be read again (pt_summary_stream_once) */
};

/* The views a GPU rank without host ranges sums through gpu_event() or that read no event of it
 * (the Ascend views optype and aicpu print nothing for it); memcpy and gpu need the launch links. */
#define GPU_STREAM_VIEWS (((1u << PT_SV_COUNT) - 1) & ~((1u << PT_SV_MEMCPY) | (1u << PT_SV_GPU)))

/*
 * Every view of an Ascend rank reads no event, or reads them through
 * asc_event(). A GPU rank streams only for the views of GPU_STREAM_VIEWS
 * (all but memcpy and gpu), without --steps or --time-window (membership
 * then needs each activity's launching call, which the file's links give
 * only after the events), and without host ranges unless only the kernel
 * and api views are asked for (gpu_streamable(), known once the tracks'
 * kinds are).
 */
bool pt_summary_can_stream(const struct pt_model *m, const struct pt_summary_opts *o)
{
	for (size_t d = 0; d < m->devices.n; d++)
		if (m->devices.v[d].kind == PT_DEV_GPU || m->devices.v[d].kind == PT_DEV_CPU)
			return !(o->views & ~GPU_STREAM_VIEWS) && !o->has_steps && !o->has_window;
	return true;
}

/* The views that read neither host ranges nor launch links when unfiltered: their items are sums
 * over every kernel or API call. */
#define GPU_FLAT_VIEWS ((1u << PT_SV_KERNEL) | (1u << PT_SV_API))

/* Can the GPU ranks of m stream these views: no GPU or host device of m has host ranges, or the
 * views do not read them (x: per track, its events' kinds)? */
static bool gpu_streamable(const struct pt_model *m, const struct pt_track_events *x, unsigned views)
{
	if (!(views & ~GPU_FLAT_VIEWS))
		return true;
	for (size_t t = 0; t < m->tracks.n; t++)
		if (m->devices.v[m->tracks.v[t].device].kind != PT_DEV_NPU && (x[t].kinds & (1u << PT_EV_RANGE)))
			return false;
	return true;
}

struct pt_summary_stream *pt_summary_stream_new(const struct pt_summary_opts *o)
{
	struct pt_summary_stream *s = pt_xcalloc(1, sizeof(*s));
	s->o = o;
	s->sc.earliest = INT64_MAX;
	return s;
}

/* Grow the scan's arrays to the model's devices and tracks. */
static void scan_fit(struct pt_summary_stream *s, const struct pt_model *m)
{
	struct scan *sc = &s->sc;
	if (m->devices.n > s->ndev) {
		sc->lo = pt_xrealloc(sc->lo, m->devices.n * sizeof(*sc->lo));
		sc->hi = pt_xrealloc(sc->hi, m->devices.n * sizeof(*sc->hi));
		for (size_t d = s->ndev; d < m->devices.n; d++) {
			sc->lo[d] = INT64_MAX;
			sc->hi[d] = INT64_MIN;
		}
		s->ndev = m->devices.n;
	}
	if (m->tracks.n > s->ntrk) {
		size_t n = m->tracks.n;
		sc->left = pt_xrealloc(sc->left, n * sizeof(*sc->left));
		sc->min = pt_xrealloc(sc->min, n * sizeof(*sc->min));
		sc->last = pt_xrealloc(sc->last, n * sizeof(*sc->last));
		sc->sorted = pt_xrealloc(sc->sorted, n);
		sc->seen = pt_xrealloc(sc->seen, n);
		sc->named = pt_xrealloc(sc->named, n);
		s->tev = pt_xrealloc(s->tev, n * sizeof(*s->tev));
		s->tev_last = pt_xrealloc(s->tev_last, n * sizeof(*s->tev_last));
		memset(s->tev + s->ntrk, 0, (n - s->ntrk) * sizeof(*s->tev));
		for (size_t t = s->ntrk; t < n; t++) {
			sc->left[t] = 0;
			sc->min[t] = INT64_MAX;
			sc->last[t] = INT64_MIN;
			sc->sorted[t] = 1;
			sc->seen[t] = sc->named[t] = 0;
		}
		s->ntrk = n;
	}
}

/* The event kinds of rank_prepare's span. */
#define SPAN_KINDS \
	((1u << PT_EV_TASK) | (1u << PT_EV_KERNEL) | (1u << PT_EV_MEMCPY) | (1u << PT_EV_MEMSET) | (1u << PT_EV_API) | \
	 (1u << PT_EV_RANGE) | (1u << PT_EV_AICPU))

/* The watermark's part of the scan, and the earliest event, from a record per track of m. */
static void scan_tracks(struct pt_summary_stream *s, const struct pt_model *m, const struct pt_track_events *x)
{
	struct scan *sc = &s->sc;
	for (size_t t = 0; t < m->tracks.n; t++) {
		if (!x[t].count)
			continue;
		sc->left[t] = x[t].count;
		sc->min[t] = x[t].min_start;
		sc->sorted[t] = (x[t].flags & PT_TRACKEV_IN_ORDER) != 0;
		if (x[t].min_start < sc->earliest)
			sc->earliest = x[t].min_start;
	}
}

/*
 * The scan from the file's TrackEvents, when it says all the summary needs:
 * false when absent, or when a track mixes span and other kinds, holds ops on
 * events other than tasks, or claims times beyond the model's range (then
 * only the events can tell; the claims are checked against them at the end).
 */
static bool scan_claims(struct pt_summary_stream *s, const struct pt_model *m)
{
	if (m->track_events.n != m->tracks.n)
		return false;
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track_events *x = &m->track_events.v[t];
		if (x->min_start < -PT_TIME_LIMIT || x->min_start > PT_TIME_LIMIT || x->max_end < -PT_TIME_LIMIT ||
		    x->max_end > PT_TIME_LIMIT)
			return false;
		if (x->count && (x->kinds & SPAN_KINDS) && (x->kinds & ~SPAN_KINDS))
			return false;
		if (x->with_op && x->kinds != 1u << PT_EV_TASK)
			return false;
	}
	scan_fit(s, m);
	struct scan *sc = &s->sc;
	scan_tracks(s, m, m->track_events.v);
	for (size_t t = 0; t < m->tracks.n; t++) {
		const struct pt_track_events *x = &m->track_events.v[t];
		if (!x->count)
			continue;
		uint32_t d = m->tracks.v[t].device;
		sc->named[t] = x->with_op > 0;
		if (x->kinds & SPAN_KINDS) {
			if (x->min_start < sc->lo[d])
				sc->lo[d] = x->min_start;
			if (x->max_end > sc->hi[d])
				sc->hi[d] = x->max_end;
		}
	}
	s->claimed = true;
	return true;
}

/* A first read's batch: the scan from the events themselves. */
static void scan_batch(struct pt_summary_stream *s, const struct pt_model *m)
{
	scan_fit(s, m);
	struct scan *sc = &s->sc;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		int64_t st = ev->start[i];
		uint32_t t = ev->track[i];
		uint8_t k = ev->kind[i];
		pt_track_events_add(&s->tev[t], &s->tev_last[t], k, st, ev->dur[i], ev->op[i]);
		if (k < 32 && (SPAN_KINDS >> k & 1)) {
			uint32_t d = m->tracks.v[t].device;
			if (st < sc->lo[d])
				sc->lo[d] = st;
			if (st + ev->dur[i] > sc->hi[d])
				sc->hi[d] = st + ev->dur[i];
		}
		if (k == PT_EV_TASK && ev->op[i])
			sc->named[t] = 1; /* the index's named_track */
		if ((s->o->views & (1u << PT_SV_DISTRIBUTED)) && m->tracks.v[t].kind != PT_TRACK_STREAM &&
		    (k == PT_EV_TASK || k == PT_EV_AICPU))
			pt_vec_push(&s->deferred, ((struct deferred){ st, st + ev->dur[i], t, ev->op[i], k }));
		s->kernels |= (k == PT_EV_KERNEL || k == PT_EV_MEMCPY || k == PT_EV_MEMSET) &&
			      m->devices.v[m->tracks.v[t].device].kind == PT_DEV_NPU;
	}
}

/* A batch to sum: the views' sums, then what is left of each track, then the overview's releases. */
static void sum_batch(struct pt_summary_stream *s)
{
	struct run *u = &s->u;
	const struct pt_model *m = u->g.m;
	const struct pt_events *ev = &m->events;
	struct scan *sc = &s->sc;
	run_events(u);
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t t = ev->track[i];
		if (s->claimed) {
			pt_track_events_add(&s->tev[t], &s->tev_last[t], ev->kind[i], ev->start[i], ev->dur[i],
					    ev->op[i]);
			/* a track that says otherwise would break the watermark: stop trusting it now */
			if (!s->bad_track && (!sc->left[t] || ev->start[i] < sc->min[t] ||
					      (sc->sorted[t] && sc->seen[t] && ev->start[i] < sc->last[t])))
				s->bad_track = t + 1;
		}
		if (sc->left[t])
			sc->left[t]--;
		sc->seen[t] = 1;
		sc->last[t] = ev->start[i];
	}
	for (size_t k = 0; k < u->ranks.n; k++)
		if (u->ranks.v[k].asc)
			asc_release(&u->ranks.v[k], false);
}

/* 0, PT_PTM_STOP (host ranges on a GPU rank), or -1 with *e set. */
static int begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	scan_fit(s, m);
	if (!gpu_streamable(m, s->claimed ? m->track_events.v : s->tev, s->o->views))
		return PT_PTM_STOP;
	if (!s->claimed)
		scan_tracks(s, m, s->tev); /* what the first read found */
	if (s->ntrk) /* a model without tracks has no array (memset(NULL, 0, 0) is undefined) */
		memset(s->sc.seen, 0, s->ntrk);
	if (run_init(&s->u, m, NULL, &s->sc, s->o, s->sc.earliest, e))
		return -1;
	s->begun = true;
	s->state = ST_SUM;
	if (s->o->views & (1u << PT_SV_DISTRIBUTED))
		for (size_t k = 0; k < s->u.ranks.n; k++)
			if (s->u.ranks.v[k].ascend) /* a GPU rank's sets are its devices' kernels alone */
				dist_begin(&s->u.ranks.v[k], s->deferred.v, s->deferred.n);
	return 0;
}

/* Strings, devices, tracks, ops and steps of m: what the sums size their tables by and read. */
static void meta_counts(const struct pt_model *m, size_t n[5])
{
	n[0] = m->strings.n;
	n[1] = m->devices.n;
	n[2] = m->tracks.n;
	n[3] = m->ops.n;
	n[4] = m->steps.n;
}

void pt_summary_stream_once(struct pt_summary_stream *s)
{
	s->once = true;
}

int pt_summary_stream_batch(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	if (s->state == ST_NEW) {
		if (!pt_summary_can_stream(m, s->o))
			return s->once ? PT_PTM_WHOLE : PT_PTM_STOP;
		s->state = ST_SCAN;
		/* the distributed view of an NPU needs its AI CPU ops before the tasks: a first read finds them */
		bool npu = false;
		for (size_t d = 0; d < m->devices.n; d++)
			npu |= m->devices.v[d].kind == PT_DEV_NPU;
		if (!(npu && (s->o->views & (1u << PT_SV_DISTRIBUTED))) && scan_claims(s, m)) {
			int rc = begin(s, m, e);
			if (rc == PT_PTM_STOP)
				return s->once ? PT_PTM_WHOLE : PT_PTM_STOP;
			if (rc)
				return -1;
			meta_counts(m, s->nmeta);
		} else if (s->once) {
			return PT_PTM_WHOLE; /* no second read: the caller takes the whole model */
		}
	}
	if (s->claimed) {
		/* a file that defines names, tracks, ops or steps after its first event batch (the
		 * writer never does) cannot be summed in one read: the caller reads it whole */
		size_t n[5];
		meta_counts(m, n);
		if (memcmp(n, s->nmeta, sizeof(n)))
			return PT_PTM_STOP;
	}
	if (s->state == ST_SCAN)
		scan_batch(s, m);
	else
		sum_batch(s);
	return 0;
}

bool pt_summary_stream_again(const struct pt_summary_stream *s)
{
	return s->state != ST_SUM;
}

int pt_summary_stream_begin(struct pt_summary_stream *s, const struct pt_model *m, struct pt_err **e)
{
	if (s->state == ST_NEW && !pt_summary_can_stream(m, s->o))
		return PT_PTM_STOP;
	/* GPU-kind activities on an NPU (never imported so) take the index's name rules in the distributed view */
	if (s->kernels && (s->o->views & (1u << PT_SV_DISTRIBUTED)))
		return PT_PTM_STOP;
	return begin(s, m, e);
}

int pt_summary_stream_end(struct pt_summary_stream *s, struct pt_summary *out)
{
	memset(out, 0, sizeof(*out));
	struct run *u = &s->u;
	if (s->claimed) {
		/* the file's TrackEvents must be what the events were */
		const struct pt_model *m = u->g.m;
		for (uint32_t t = 0; t < m->tracks.n && !s->bad_track; t++) {
			const struct pt_track_events *a = &s->tev[t], *c = &m->track_events.v[t];
			if (a->count != c->count || a->with_op != c->with_op || a->kinds != c->kinds ||
			    (a->count && (a->min_start != c->min_start || a->max_end != c->max_end ||
					  a->flags != c->flags)))
				s->bad_track = t + 1;
		}
		if (s->bad_track)
			return (int)s->bad_track;
	}
	for (size_t k = 0; k < u->ranks.n; k++)
		if (u->ranks.v[k].asc)
			asc_release(&u->ranks.v[k], true);
	/* the views read no event: m->events holds the last batch */
	run_views(u, out);
	return 0;
}

void pt_summary_stream_free(struct pt_summary_stream *s)
{
	if (!s)
		return;
	if (s->begun)
		run_free(&s->u);
	struct scan *sc = &s->sc;
	free(sc->lo);
	free(sc->hi);
	free(sc->left);
	free(sc->min);
	free(sc->last);
	free(sc->sorted);
	free(sc->seen);
	free(sc->named);
	free(s->tev);
	free(s->tev_last);
	pt_vec_free(&s->deferred);
	free(s);
}

void pt_summary_free(struct pt_summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		pt_table_free(s->v[i].data);
		for (size_t k = 0; k < s->v[i].ntext; k++)
			pt_table_free(s->v[i].text[k]);
		free(s->v[i].text);
	}
	s->n = 0;
}

struct pt_table **pt_summary_tables(const struct pt_summary *s, bool text, size_t *n)
{
	size_t cap = 1;
	for (size_t i = 0; i < s->n; i++)
		cap += text ? s->v[i].ntext : 1;
	struct pt_table **v = pt_xmalloc(cap * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!text) {
			v[(*n)++] = s->v[i].data;
			continue;
		}
		for (size_t r = 0; r < s->v[i].ntext; r++)
			if (s->v[i].text[r] && s->v[i].text[r]->nrows)
				v[(*n)++] = s->v[i].text[r];
	}
	return v;
}
