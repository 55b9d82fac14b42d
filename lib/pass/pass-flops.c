/*
 * proftool flops: FLOPs per op, type, scope, step and model (ascend.md §3.9,
 * cupti.md §6.12). See pass-flops.h and proftool-flops(1).
 *
 * Items are what the `ops` view lists: on Ascend one per framework op, one
 * per AI CPU op name and two per device for unnamed tasks (communication:
 * a known 0; other: unknown); on GPU one per distinct PyTorch operator range
 * text that counts (the innermost ranges with a formula). Executions are the
 * events of the items; step and model figures sum them by start time.
 */
#define _GNU_SOURCE /* qsort_r */
#include "pass/pass-flops.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/ascend-scan.h"
#include "pass/flops-common.h"
#include "pass/flops-gstream.h"
#include "pass/flops-model.h"
#include "pass/pass-steps-int.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/progress.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "support/sort.h"
#include "pass/select.h"
#include "table/table.h"

typedef unsigned __int128 u128;

enum { IT_OP, IT_UNNAMED_COMM, IT_UNNAMED, IT_AICPU, IT_RANGE };

struct item {
	uint32_t dev;        /* accelerator device index */
	uint32_t name;       /* string id; 0: `label` */
	const char *label;   /* name of an item without a string id */
	char *own;           /* label when allocated (a Kineto op with its sizes) */
	uint32_t type;       /* string id, 0 = none */
	uint32_t op;         /* op index, PT_NONE */
	int kind;
	uint64_t calls;
	int64_t total;       /* Σ durations */
	int64_t first;       /* first execution start */
	size_t first_ev;
	uint32_t first_trk;  /* GPU streamed: its first range's track and duration (the ranges' order) */
	int64_t first_dur;
	struct pt_fm_result an; /* analytical */
	bool has_an;
	uint64_t ctr_n;      /* AI Core records */
	u128 ctr_sum, ctr_min, ctr_max;
	bool known;          /* FLOPs per execution known */
	uint64_t flops;      /* the figure used */
	const char *source;  /* "counters", "analytical", "communication", "unknown" */
};

/*
 * The step figures of one rank without keeping its executions: the times
 * that bound its step and FP+BP windows, sorted and distinct, cut its time
 * into buckets (bucket k: [t[k], t[k+1]), the last one open), and each
 * execution adds to the bucket of its start. A window [a, b) sums the
 * buckets from a's to b's: the executions that start in it, exactly as a
 * scan of the executions sorted by start would, in memory per step.
 */
struct bucket {
	u128 flops;          /* known FLOPs */
	uint64_t ucalls;     /* executions of unknown FLOPs */
	int64_t utime;       /* and their time */
};

/* Time windows [s, e). */
struct win {
	int64_t s, e;
};

struct kept {
	struct win *v;
	size_t n;
};

struct rank_buckets {
	int64_t *t;          /* bounds, ascending, distinct */
	struct bucket *b;    /* nt buckets, then prefix sums (b[k]: the buckets before k) */
	size_t nt;
};

struct peak {
	double flops, bw;    /* 0 = unknown */
	const char *source;  /* "option", "info.json", "table:<row> <col>", NULL */
	char buf[64];
};

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_flops_opts *o;
	struct pt_diag *d;
	struct pt_steps_info si;
	struct pt_sel_res sr; /* the selection made absolute */
	uint32_t *dev_rank;   /* device index -> rank index, UINT32_MAX */
	PT_VEC(struct item) items;
	struct rank_buckets *rb; /* per rank, for --by step and --by model; NULL otherwise */
	struct kept *kept;       /* per rank, with --steps: the union of the kept steps' windows */
	/* Ascend items (ascend_event): the figures of the ops, the item of each op, the other items */
	struct pt_flops_opfig *fig;
	uint32_t *op_item;
	struct pt_hashmap other;  /* (dev, kind, name) -> item */
	/* a streamed read has no index: a task's class from its op and its stream (pt_index_task_class) */
	const uint8_t *op_comm;   /* per op */
	const uint8_t *named_track; /* per track: it runs a framework-named task */
	struct peak *peaks;   /* per device index */
	size_t uncovered;     /* GPU operator ranges left out: in steps their rank's device data does not cover */
};

/* ---- helpers ---- */

static const char *str(const struct pt_model *m, uint32_t id)
{
	return pt_strtab_get(&m->strings, id);
}

static void set_u128(struct pt_table *t, size_t r, size_t c, u128 v)
{
	if (v <= (u128)INT64_MAX)
		pt_table_set_int(t, r, c, (int64_t)v);
	else
		pt_table_set_double(t, r, c, (double)v);
}

const char *pt_flops_top_scope(const char *name, size_t *nscopes)
{
	*nscopes = 0;
	const char *slash = strchr(name, '/');
	if (!slash)
		return NULL;
	size_t l = (size_t)(slash - name);
	bool top = (l == 7 && !strncmp(name, "Default", 7)) || (l == 9 && !strncmp(name, "Gradients", 9)) ||
		   (l == 17 && !strncmp(name, "recompute_Default", 17));
	if (!top || !strncmp(name, "Default/InitDataSetQueue", 24))
		return NULL;
	for (const char *p = name; *p; p++)
		*nscopes += *p == '/';
	if (!strncmp(name, "Gradients/recompute_Default", 27))
		return "recompute_Gradients";
	if (l == 7)
		return "Default";
	return l == 9 ? "Gradients" : "recompute_Default";
}

/* ---- peaks ---- */

static void device_peaks(struct ctx *c)
{
	const struct pt_model *m = c->m;
	c->peaks = pt_xcalloc(m->devices.n ? m->devices.n : 1, sizeof(*c->peaks));
	for (size_t i = 0; i < m->devices.n; i++) {
		struct peak *p = &c->peaks[i];
		struct pt_flops_peak dp;
		pt_flops_device_peak(m, (uint32_t)i, &dp);
		p->bw = dp.bw;
		if (dp.src != PT_PEAK_SRC_NONE) {
			p->flops = dp.flops;
			snprintf(p->buf, sizeof(p->buf), "%s", dp.text);
			p->source = p->buf;
		}
		if (c->o->peak > 0) {
			p->flops = c->o->peak;
			p->source = "option";
		}
	}
}

/* ---- items ---- */

/* A new item whose first execution is event ev of the model, starting at start. */
static uint32_t new_item(struct ctx *c, uint32_t dev, uint32_t name, uint32_t type, uint32_t op, int kind, int64_t start,
			 size_t ev)
{
	struct item it;
	memset(&it, 0, sizeof(it));
	it.dev = dev;
	it.name = name;
	it.type = type;
	it.op = op;
	it.kind = kind;
	it.first = start;
	it.first_ev = ev;
	pt_vec_push(&c->items, it);
	return (uint32_t)(c->items.n - 1);
}

/* Is an execution on device `dev` starting at `start` selected by --device, --steps, --time-window? */
static bool selected(struct ctx *c, uint32_t dev, int64_t start, uint32_t *rank_out)
{
	uint32_t r = c->dev_rank[dev];
	*rank_out = r;
	if (c->sr.device >= 0 && c->m->devices.v[dev].id != (uint32_t)c->sr.device)
		return false;
	if (!pt_sel_res_at(&c->sr, start))
		return false;
	if (c->sr.steps) {
		if (r == UINT32_MAX)
			return false;
		/* in a kept step's window: the last interval of their union that starts at or before start */
		const struct kept *k = &c->kept[r];
		size_t lo = 0, hi = k->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (k->v[mid].s <= start)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo && start < k->v[lo - 1].e;
	}
	return true;
}

static int cmp_win(const void *a, const void *b)
{
	const struct win *x = a, *y = b;
	return x->s < y->s ? -1 : x->s > y->s;
}

/* --steps: per rank, the union of its kept steps' windows, sorted and disjoint. */
static void make_kept(struct ctx *c)
{
	c->kept = pt_xcalloc(c->si.n ? c->si.n : 1, sizeof(*c->kept));
	for (uint32_t r = 0; r < c->si.n; r++) {
		const struct pt_rank_steps *rs = &c->si.r[r];
		struct kept *k = &c->kept[r];
		k->v = pt_xmalloc((rs->n ? rs->n : 1) * sizeof(*k->v));
		size_t n = 0;
		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].kept && rs->v[i].has_win && rs->v[i].s < rs->v[i].e)
				k->v[n++] = (struct win){ rs->v[i].s, rs->v[i].e };
		pt_sort(k->v, n, sizeof(*k->v), cmp_win);
		size_t u = 0;
		for (size_t i = 0; i < n; i++) {
			if (u && k->v[i].s <= k->v[u - 1].e) {
				if (k->v[i].e > k->v[u - 1].e)
					k->v[u - 1].e = k->v[i].e;
			} else {
				k->v[u++] = k->v[i];
			}
		}
		k->n = u;
	}
}

/* An execution of item (its figure already set) on rank at start, dur long. */
static void add_exec(struct ctx *c, uint32_t item, uint32_t rank, int64_t start, int64_t dur)
{
	struct item *it = &c->items.v[item];
	it->calls++;
	it->total += dur;
	if (!c->rb || rank == UINT32_MAX)
		return;
	const struct rank_buckets *r = &c->rb[rank];
	size_t lo = 0, hi = r->nt; /* the first bound above start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->t[mid] <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return; /* before every window */
	struct bucket *b = &r->b[lo - 1];
	if (it->known) {
		b->flops += it->flops;
	} else {
		b->ucalls++;
		b->utime += dur;
	}
}

/* The figure of an Ascend item, when it is made; comm: is its first execution communication? */
static void ascend_figure(struct item *it, const struct pt_flops_opfig *fig, bool comm)
{
	switch (it->kind) {
	case IT_OP: {
		const struct pt_flops_opfig *f = &fig[it->op];
		it->an = f->an;
		it->has_an = true;
		it->ctr_n = f->ctr_n;
		it->ctr_sum = f->ctr_sum;
		it->ctr_min = f->ctr_min;
		it->ctr_max = f->ctr_max;
		if (f->known || f->ctr_n) {
			it->known = f->known;
			it->flops = f->flops;
			it->source = f->source;
		} else if (comm) {
			it->known = true;
			it->flops = 0;
			it->source = "communication";
		} else {
			it->source = "unknown";
		}
		break;
	}
	case IT_UNNAMED_COMM:
		it->known = true;
		it->source = "communication";
		break;
	default:
		it->source = "unknown";
		break;
	}
}

/* Is event i (of kind k, on track, op + 1) communication? i: in the model (c->x), else in its batch. */
static bool ev_comm(struct ctx *c, size_t i, int k, uint32_t track, uint32_t op1)
{
	if (c->x)
		return pt_index_is_comm(c->x, i);
	return k == PT_EV_TASK && pt_index_task_class(c->op_comm, op1, c->named_track[track]) == 2;
}

static void ascend_begin(struct ctx *c)
{
	const struct pt_model *m = c->m;
	c->op_item = pt_xmalloc((m->ops.n ? m->ops.n : 1) * sizeof(*c->op_item));
	for (size_t i = 0; i < m->ops.n; i++)
		c->op_item[i] = UINT32_MAX;
	pt_hashmap_init(&c->other);
	/* per-execution FLOPs of the ops (counters over all records: they are per task, not per window) */
	c->fig = pt_flops_op_figs(m);
}

static void ascend_end(struct ctx *c)
{
	free(c->fig);
	free(c->op_item);
	pt_hashmap_free(&c->other);
	c->fig = NULL;
	c->op_item = NULL;
}

/* Event i of ev (gi in the model): a framework op's task, an unnamed task or an AI CPU op. */
static void ascend_event(struct ctx *c, const struct pt_events *ev, size_t i, size_t gi)
{
	const struct pt_model *m = c->m;
	int k = ev->kind[i];
	if (k != PT_EV_TASK && k != PT_EV_AICPU)
		return;
	uint32_t dev = m->tracks.v[ev->track[i]].device;
	uint32_t rank;
	if (!selected(c, dev, ev->start[i], &rank))
		return;
	uint32_t it;
	if (k == PT_EV_TASK && ev->op[i]) {
		uint32_t op = ev->op[i] - 1;
		if (c->op_item[op] == UINT32_MAX) {
			const struct pt_op *p = &m->ops.v[op];
			c->op_item[op] = new_item(c, dev, p->name, p->type, op, IT_OP, ev->start[i], gi);
			const struct pt_flops_opfig *f = &c->fig[op];
			bool comm = !f->known && !f->ctr_n && ev_comm(c, i, k, ev->track[i], ev->op[i]);
			ascend_figure(&c->items.v[c->op_item[op]], c->fig, comm);
		}
		it = c->op_item[op];
	} else {
		int kind = k == PT_EV_AICPU		       ? IT_AICPU :
			   ev_comm(c, i, k, ev->track[i], 0) ? IT_UNNAMED_COMM :
								 IT_UNNAMED;
		uint32_t name = kind == IT_AICPU ? ev->name[i] : 0;
		uint64_t key = (uint64_t)dev << 36 | (uint64_t)kind << 32 | name;
		bool added;
		uint64_t *v = pt_hashmap_put(&c->other, key, 0, &added);
		if (added) {
			*v = new_item(c, dev, name, 0, PT_NONE, kind, ev->start[i], gi);
			if (kind != IT_AICPU)
				c->items.v[*v].label = kind == IT_UNNAMED_COMM ? "(unnamed communication tasks)"
									       : "(unnamed tasks)";
			ascend_figure(&c->items.v[*v], c->fig, false);
		}
		it = (uint32_t)*v;
	}
	add_exec(c, it, rank, ev->start[i], ev->dur[i]);
}

/* Ascend: framework ops, unnamed tasks and AI CPU ops of the model's events. */
static void ascend_items(struct ctx *c)
{
	const struct pt_events *ev = &c->m->events;
	ascend_begin(c);
	for (size_t i = 0; i < ev->n; i++) {
		pt_progress_tick("computing the FLOPs", i, ev->n);
		ascend_event(c, ev, i, i);
	}
	ascend_end(c);
}

static void begin(struct ctx *c, int64_t origin);
static void ctx_free(struct ctx *c);
static int finish(struct ctx *cp, struct pt_table **out, size_t *nout, struct pt_err **e);

/* ---- GPU: PyTorch operator ranges (cupti.md §6.12) ---- */

/*
 * The item of operator range r (its event on track trk, named name, starting
 * at start), made when new, with the rank its execution counts in; false when
 * it does not count (left out by the selection, or in a step its rank's
 * device data does not cover). key_item: (device, name or pair) -> item;
 * pairs: (name, Input Dims) -> pair id.
 */
static bool range_item(struct ctx *c, const struct pt_flops_range *r, uint32_t trk, uint32_t name, int64_t start,
		       struct pt_hashmap *key_item, struct pt_hashmap *pairs, uint32_t *item, uint32_t *rank_out)
{
	const struct pt_model *m = c->m;
	uint32_t dev = r->dev;
	if (dev == PT_NONE) {
		/* no kernel: the process's first GPU, else the host device */
		uint32_t host = m->tracks.v[trk].device;
		dev = host;
		for (uint32_t k = 0; k < m->devices.n; k++)
			if (m->devices.v[k].kind == PT_DEV_GPU && m->devices.v[k].pid &&
			    m->devices.v[k].pid == m->devices.v[host].pid) {
				dev = k;
				break;
			}
	}
	uint32_t rank;
	if (!selected(c, dev, start, &rank))
		return false; /* GPU ranks are keyed by their host device */
	uint32_t host = m->tracks.v[trk].device;
	rank = c->dev_rank[host];
	/* a step whose device work the data lacks: its ranges' FLOPs would have no device time */
	if (rank != UINT32_MAX && pt_steps_uncovered_at(&c->si.r[rank], start)) {
		c->uncovered++;
		return false;
	}
	uint64_t key = (uint64_t)dev << 32 | name;
	if (r->shapes != UINT32_MAX) {
		uint64_t *pr = pt_hashmap_put(pairs, (uint64_t)name << 32 | r->shapes, m->strings.n + pairs->n, NULL);
		key = (uint64_t)dev << 32 | (uint32_t)*pr; /* above every string id */
	}
	bool added;
	uint64_t *v = pt_hashmap_put(key_item, key, 0, &added);
	if (added) {
		*v = new_item(c, dev, name, r->type, PT_NONE, IT_RANGE, start, r->ev);
		struct item *it = &c->items.v[*v];
		if (r->shapes != UINT32_MAX) {
			it->own = pt_xasprintf("%s, sizes = %s", str(m, name), str(m, r->shapes));
			it->label = it->own;
		}
		it->known = r->known;
		it->flops = r->flops;
		it->has_an = true;
		it->an.known = r->known;
		it->an.flops = r->flops;
		it->an.cls = r->cls;
		it->source = r->known ? "analytical" : "unknown";
	}
	*item = (uint32_t)*v;
	*rank_out = rank;
	return true;
}

static void gpu_items(struct ctx *c)
{
	const struct pt_model *m = c->m;
	size_t nrs;
	struct pt_flops_range *rsv = pt_flops_gpu_ranges(m, &nrs, NULL);
	struct {
		struct pt_flops_range *v;
		size_t n;
	} rs = { rsv, nrs };
	for (size_t i = 0; i < rs.n; i++)
		if (rs.v[i].malformed)
			pt_diag_warn(c->d, NULL, "operator ranges with malformed sizes text (FLOPs unknown)", PT_POS_NONE, 0);
	if (!rs.n) {
		free(rsv);
		return;
	}
	/* items: counted ranges (known, no non-zero descendant) and unknown ranges without one */
	struct pt_hashmap key_item;
	pt_hashmap_init(&key_item);
	/* a Kineto op is one item per (name, Input Dims), as CUPTI's NVTX text holds both: pair ids */
	struct pt_hashmap pairs;
	pt_hashmap_init(&pairs);
	/* items in event order */
	uint32_t *ord = pt_xmalloc(rs.n * sizeof(*ord));
	for (size_t i = 0; i < rs.n; i++)
		ord[i] = (uint32_t)i;
	for (size_t i = 0; i < rs.n; i++) {
		const struct pt_flops_range *r = &rs.v[ord[i]];
		if (r->nonzero_desc)
			continue; /* its FLOPs are its descendants' (inclusive) */
		uint32_t item, rank;
		if (!range_item(c, r, m->events.track[r->ev], m->events.name[r->ev], m->events.start[r->ev], &key_item, &pairs,
				&item, &rank))
			continue;
		add_exec(c, item, rank, m->events.start[r->ev], r->gpu);
	}
	free(ord);
	pt_hashmap_free(&key_item);
	pt_hashmap_free(&pairs);
	free(rsv);
}

/* ---- GPU, streamed: the operator ranges of a model file (flops-gstream.h) ---- */

struct gitems {
	struct ctx *c;
	struct pt_hashmap key_item, pairs;
	uint64_t malformed;
};

/* Does range g come before the first range of item it in the loaded model's order of the ranges
 * (track, start, longest first, event)? */
static bool range_before(const struct pt_flops_grange *g, const struct item *it)
{
	if (g->track != it->first_trk)
		return g->track < it->first_trk;
	if (g->start != it->first)
		return g->start < it->first;
	if (g->dur != it->first_dur)
		return g->dur > it->first_dur;
	return g->r.ev < it->first_ev;
}

/* A final operator range (they come in no set order): as gpu_items() takes it, its item's first
 * range the first in the ranges' order (its figure is the same for every range of the item) */
static void grange(void *arg, const struct pt_flops_grange *g)
{
	struct gitems *x = arg;
	struct ctx *c = x->c;
	const struct pt_flops_range *r = &g->r;
	if (r->malformed)
		x->malformed++;
	if (r->nonzero_desc)
		return;
	uint32_t item, rank;
	if (!range_item(c, r, g->track, g->name, g->start, &x->key_item, &x->pairs, &item, &rank))
		return;
	struct item *it = &c->items.v[item];
	if (!it->calls || range_before(g, it)) {
		it->first = g->start;
		it->first_ev = r->ev;
		it->first_trk = g->track;
		it->first_dur = g->dur;
		it->type = r->type;
	}
	add_exec(c, item, rank, g->start, r->gpu);
}

static int ascend_beside(struct ctx *c, const struct pt_ptm_source *src, struct pt_model *m, struct pt_err **e);

int pt_pass_flops_gstream(const char *path, const struct pt_flops_opts *o, struct pt_model **mp,
			  struct pt_model **whole, struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d,
			  struct pt_err **e)
{
	*mp = *whole = NULL;
	*nout = 0;
	*streamed = false;
	/* the steps' first read keeps the event batches on a tape when small (PT_STEPS_TAPE_MAX): the
	 * steps' later reads and the ranges' read replay it instead of reading the file again */
	struct pt_ptm_tape tape = { .limit = PT_STEPS_TAPE_MAX, .events_only = true };
	const struct pt_ptm_source *src = &(const struct pt_ptm_source){ .path = path, .tape = &tape };
	struct pt_model *m = NULL;
	struct pt_steps_info si;
	struct pt_gpu_figs **gf = NULL;
	/* the steps' coverage (pt_steps_uncovered_at) is measured with their figures; their notes wait
	 * in d0 until the ranges are known to stream (else the whole load makes them) */
	struct pt_diag d0 = { 0 };
	int rc = pt_steps_stream_read(src, &o->sel, &m, &si, NULL, &gf, whole, &d0, e);
	if (rc || *whole) {
		if (rc)
			pt_diag_append(d, &d0);
		pt_diag_free(&d0);
		pt_ptm_tape_free(&tape);
		return rc;
	}
	pt_steps_gfigs_free(&si, gf);
	pt_xtrim(); /* what the steps' reads held, before the reads of the ranges */
	bool npu = false; /* Ascend devices beside the GPU data (only such a model has them here) */
	for (size_t i = 0; i < m->devices.n; i++)
		npu |= m->devices.v[i].kind == PT_DEV_NPU;
	struct pt_flops_gstream *gs = NULL;
	bool none = true;
	/* beside Ascend devices, no string "Operator" (the ranges' type): no operator range, no read of them */
	if (!npu || pt_strtab_find(&m->strings, "Operator", 8) != UINT32_MAX)
		rc = pt_flops_gstream_open(src, &gs, &none, e);
	if (rc || (!gs && !(npu && none))) { /* an error, or the ranges do not stream: read whole */
		pt_steps_info_free(&si);
		pt_model_free(m);
		if (rc)
			pt_diag_append(d, &d0);
		pt_diag_free(&d0);
		pt_ptm_tape_free(&tape);
		return rc ? rc : pt_ptm_read(path, whole, e);
	}
	pt_diag_append(d, &d0);
	pt_xtrim(); /* the kernels, the links and the tables' model */
	*streamed = true;
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.o = o;
	c.d = d;
	c.si = si;
	begin(&c, c.si.origin);
	struct gitems x = { &c, { 0 }, { 0 }, 0 };
	pt_hashmap_init(&x.key_item);
	pt_hashmap_init(&x.pairs);
	rc = npu ? ascend_beside(&c, src, m, e) : 0;
	if (!rc && gs)
		rc = pt_flops_gstream_ranges(gs, src, m, grange, &x, e);
	pt_flops_gstream_free(gs);
	pt_ptm_tape_free(&tape);
	pt_hashmap_free(&x.key_item);
	pt_hashmap_free(&x.pairs);
	pt_diag_warn_n(d, NULL, "operator ranges with malformed sizes text (FLOPs unknown)", PT_POS_NONE, 0, x.malformed);
	if (rc)
		ctx_free(&c);
	else
		rc = finish(&c, out, nout, e);
	if (rc)
		pt_model_free(m);
	else
		*mp = m;
	return rc;
}

static int cmp_item(const void *a, const void *b, void *arg)
{
	const struct item *v = arg;
	const struct item *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->first_ev < y->first_ev ? -1 : x->first_ev > y->first_ev;
}

/* Sort items by (device, first start, first event). */
static void order_items(struct ctx *c)
{
	size_t n = c->items.n;
	if (!n)
		return;
	uint32_t *ord = pt_xmalloc(n * sizeof(*ord)), *pos = pt_xmalloc(n * sizeof(*pos));
	for (size_t i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	qsort_r(ord, n, sizeof(*ord), cmp_item, c->items.v);
	struct item *tmp = pt_xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++) {
		tmp[i] = c->items.v[ord[i]];
		pos[ord[i]] = (uint32_t)i;
	}
	memcpy(c->items.v, tmp, n * sizeof(*tmp));
	free(tmp);
	free(ord);
	free(pos);
}

/* ---- views ---- */

static const char *item_type(const struct ctx *c, const struct item *it)
{
	if (it->kind == IT_AICPU)
		return "AI_CPU";
	if (it->kind == IT_UNNAMED_COMM || it->kind == IT_UNNAMED)
		return "(unnamed)";
	return str(c->m, it->type);
}

static bool multi_device(struct ctx *c)
{
	for (size_t i = 1; i < c->items.n; i++)
		if (c->items.v[i].dev != c->items.v[0].dev)
			return true;
	return false;
}

/* GFLOPS (FLOP per ns) of flops over ns; false when ns is 0. */
static bool rate(u128 flops, int64_t ns, double *g)
{
	if (ns <= 0)
		return false;
	*g = (double)flops / (double)ns;
	return true;
}

static struct pt_table *ops_view(struct ctx *c)
{
	const struct pt_model *m = c->m;
	struct pt_table *t = pt_table_new("ops", "FLOPs per op");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "op", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "type", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "avg", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "gflops", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "util_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "source", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "analytical_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "counter_flops", PT_COL_DOUBLE, PT_ROLE_VALUE, 1);
	pt_table_add_col(t, "counter_records", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "counter_spread", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "class", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "bytes", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "bound", PT_COL_STR, PT_ROLE_LABEL, 0);
	/* text without --wide: the op, its time and the rate it reached; the
	 * counts, the sources of the figure and the roofline are detail columns */
	static const char *const shown[] = { "device_id", "op", "calls", "total", "gflops", "util_pct", NULL };
	pt_table_set_default_cols(t, shown);
	bool zero_warned = false;
	for (size_t i = 0; i < c->items.n; i++) {
		const struct item *it = &c->items.v[i];
		const struct peak *pk = &c->peaks[it->dev];
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[it->dev].id);
		const char *nm = it->label ? it->label : str(m, it->name);
		if (it->own) /* freed with the items, before the table is written */
			pt_table_set_strdup(t, r, 1, nm, strlen(nm));
		else
			pt_table_set_str(t, r, 1, nm, (uint32_t)strlen(nm));
		const char *ty = item_type(c, it);
		pt_table_set_str(t, r, 2, ty, (uint32_t)strlen(ty));
		pt_table_set_int(t, r, 3, (int64_t)it->calls);
		pt_table_set_int(t, r, 4, it->total);
		if (it->calls)
			pt_table_set_int(t, r, 5, pt_steps_mean(it->total, (int64_t)it->calls));
		if (it->known) {
			pt_table_set_int(t, r, 6, (int64_t)it->flops);
			set_u128(t, r, 7, (u128)it->flops * it->calls);
			double g;
			if (it->flops && rate((u128)it->flops * it->calls, it->total, &g)) {
				pt_table_set_double(t, r, 8, g);
				if (pk->flops > 0)
					pt_table_set_double(t, r, 9, g * 1e9 / pk->flops * 100);
			} else if (it->flops && !zero_warned) {
				pt_diag_warn(c->d, NULL, "ops with FLOPs but a zero average time have no rate",
					     PT_POS_NONE, 0);
				zero_warned = true;
			}
		}
		pt_table_set_str(t, r, 10, it->source, (uint32_t)strlen(it->source));
		if (it->has_an && it->an.known)
			pt_table_set_int(t, r, 11, (int64_t)it->an.flops);
		if (it->ctr_n) {
			pt_table_set_double(t, r, 12, (double)it->ctr_sum / (double)it->ctr_n);
			pt_table_set_int(t, r, 13, (int64_t)it->ctr_n);
			set_u128(t, r, 14, it->ctr_max - it->ctr_min);
		}
		if (it->has_an && it->an.cls)
			pt_table_set_str(t, r, 15, it->an.cls, (uint32_t)strlen(it->an.cls));
		if (it->has_an && it->an.has_bytes) {
			pt_table_set_int(t, r, 16, (int64_t)it->an.bytes);
			if (it->known && it->an.bytes && pk->flops > 0 && pk->bw > 0) {
				bool compute = (double)it->flops / (double)it->an.bytes >= pk->flops / pk->bw;
				pt_table_set_str(t, r, 17, compute ? "compute" : "memory", compute ? 7 : 6);
			}
		}
	}
	return t;
}

static struct pt_table *types_view(struct ctx *c)
{
	const struct pt_model *m = c->m;
	struct pt_table *t = pt_table_new("types", "FLOPs per op type");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "type", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "total_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "known_time", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "gflops", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "util_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "unknown_ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_time", PT_COL_TIME, PT_ROLE_VALUE, 0);
	/* text without --wide: the type, its time and the rate it reached */
	static const char *const shown[] = { "device_id", "type", "ops", "calls", "total", "gflops", "util_pct", NULL };
	pt_table_set_default_cols(t, shown);
	/* groups in first-appearance order: type string (AI CPU: "AI_CPU") */
	struct grp {
		uint32_t dev;
		const char *type;
		uint64_t ops, calls, uops, ucalls;
		int64_t total, known_time, utime;
		u128 flops;
	};
	PT_VEC(struct grp) g = { 0 };
	for (size_t i = 0; i < c->items.n; i++) {
		const struct item *it = &c->items.v[i];
		const char *ty = item_type(c, it);
		size_t j;
		for (j = 0; j < g.n; j++)
			if (g.v[j].dev == it->dev && !strcmp(g.v[j].type, ty))
				break;
		if (j == g.n) {
			struct grp z;
			memset(&z, 0, sizeof(z));
			z.dev = it->dev;
			z.type = ty;
			pt_vec_push(&g, z);
		}
		struct grp *p = &g.v[j];
		p->ops++;
		p->calls += it->calls;
		p->total += it->total;
		if (it->known) {
			p->flops += (u128)it->flops * it->calls;
			p->known_time += it->total;
		} else {
			p->uops++;
			p->ucalls += it->calls;
			p->utime += it->total;
		}
	}
	for (size_t j = 0; j < g.n; j++) {
		const struct grp *p = &g.v[j];
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[p->dev].id);
		pt_table_set_str(t, r, 1, p->type, (uint32_t)strlen(p->type));
		pt_table_set_int(t, r, 2, (int64_t)p->ops);
		pt_table_set_int(t, r, 3, (int64_t)p->calls);
		pt_table_set_int(t, r, 4, p->total);
		if (p->ops > p->uops) {
			set_u128(t, r, 5, p->flops);
			pt_table_set_int(t, r, 6, p->known_time);
			double gf;
			if (p->flops && rate(p->flops, p->known_time, &gf)) {
				pt_table_set_double(t, r, 7, gf);
				if (c->peaks[p->dev].flops > 0)
					pt_table_set_double(t, r, 8, gf * 1e9 / c->peaks[p->dev].flops * 100);
			}
		}
		pt_table_set_int(t, r, 9, (int64_t)p->uops);
		pt_table_set_int(t, r, 10, (int64_t)p->ucalls);
		pt_table_set_int(t, r, 11, p->utime);
	}
	pt_vec_free(&g);
	return t;
}

/* Scope nodes keyed by (device, full path prefix), first-appearance order. */
struct node {
	uint32_t dev;
	char *path;     /* "" = Total */
	int depth;      /* 0 Total, 1 top scope, ... */
	size_t parent;  /* node index, SIZE_MAX for Total */
	char *label;
	u128 flops;
	uint64_t ops, uops;
};

struct nodes {
	struct node *v;
	size_t n, cap;
};

static size_t find_node(const struct nodes *v, uint32_t dev, const char *path, size_t plen)
{
	for (size_t i = v->n; i-- > 0;)
		if (v->v[i].dev == dev && strlen(v->v[i].path) == plen && !memcmp(v->v[i].path, path, plen))
			return i;
	return SIZE_MAX;
}

static struct pt_table *scopes_view(struct ctx *c)
{
	const struct pt_model *m = c->m;
	struct pt_table *t = pt_table_new("scopes", "FLOPs per scope");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "depth", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "scope", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "label", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "parent", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	/* text without --wide: the scope path tells label and parent */
	static const char *const shown[] = { "device_id", "depth", "scope", "flops", "ops", "unknown_ops", NULL };
	pt_table_set_default_cols(t, shown);
	struct nodes v = { 0 };
	int maxd = 0;
	for (size_t i = 0; i < c->items.n; i++) {
		const struct item *it = &c->items.v[i];
		if (it->kind != IT_OP)
			continue;
		const char *name = str(m, it->name);
		size_t ns;
		const char *top = pt_flops_top_scope(name, &ns);
		if (c->o->scope_depth > 0 && ns > (size_t)c->o->scope_depth)
			ns = (size_t)c->o->scope_depth;
		size_t cur = find_node(&v, it->dev, "", 0);
		if (cur == SIZE_MAX) {
			struct node z = { it->dev, pt_xstrdup(""), 0, SIZE_MAX, pt_xstrdup("Total"), 0, 0, 0 };
			pt_vec_push(&v, z);
			cur = v.n - 1;
		}
		size_t chain[256];
		size_t nc = 0;
		chain[nc++] = cur;
		const char *p = name;
		for (size_t k = 0; k < ns && k < 255; k++) {
			const char *s = strchr(p, '/');
			size_t plen = (size_t)(s - name);
			size_t nd = find_node(&v, it->dev, name, plen);
			if (nd == SIZE_MAX) {
				char *label;
				if (k == 0)
					label = pt_xasprintf("%.*s", (int)(s - p), p);
				else
					label = pt_xasprintf("%.*s(%s)", (int)(s - p), p, top);
				struct node z = { it->dev, pt_xasprintf("%.*s", (int)plen, name), (int)k + 1, cur, label,
						  0, 0, 0 };
				pt_vec_push(&v, z);
				nd = v.n - 1;
			}
			if ((int)k + 1 > maxd)
				maxd = (int)k + 1;
			cur = nd;
			chain[nc++] = nd;
			p = s + 1;
		}
		for (size_t k = 0; k < nc; k++) {
			struct node *nd = &v.v[chain[k]];
			nd->ops++;
			if (it->known)
				nd->flops += (u128)it->flops * it->calls;
			else
				nd->uops++;
		}
	}
	for (size_t i = 0; i < v.n; i++) {
		const struct node *nd = &v.v[i];
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[nd->dev].id);
		pt_table_set_int(t, r, 1, nd->depth);
		pt_table_set_strdup(t, r, 2, nd->depth ? nd->path : "Total", nd->depth ? strlen(nd->path) : 5);
		pt_table_set_strdup(t, r, 3, nd->label, strlen(nd->label));
		if (nd->parent != SIZE_MAX) {
			const struct node *pp = &v.v[nd->parent];
			const char *ps = pp->depth ? pp->path : "Total";
			pt_table_set_strdup(t, r, 4, ps, strlen(ps));
		}
		set_u128(t, r, 5, nd->flops);
		pt_table_set_int(t, r, 6, (int64_t)nd->ops);
		pt_table_set_int(t, r, 7, (int64_t)nd->uops);
	}
	for (size_t i = 0; i < v.n; i++) {
		free(v.v[i].path);
		free(v.v[i].label);
	}
	pt_vec_free(&v);
	(void)maxd;
	return t;
}

/* Folded stacks "a;b;c VALUE": scope segments (up to --scope-depth), then the op. */
static struct pt_table *folded_view(struct ctx *c)
{
	const struct pt_model *m = c->m;
	struct pt_table *t = pt_table_new("folded", "FLOPs as folded stacks");
	pt_table_add_col(t, "stack", PT_COL_STR, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	bool multi = multi_device(c);
	PT_VEC(char *) keys = { 0 };
	PT_VEC(u128) vals = { 0 };
	struct pt_hashmap idx; /* hash of key -> first index (collisions resolved by scan) */
	pt_hashmap_init(&idx);
	for (size_t i = 0; i < c->items.n; i++) {
		const struct item *it = &c->items.v[i];
		if (!it->known || !it->flops || !it->calls)
			continue;
		const char *name = str(m, it->name);
		size_t ns;
		pt_flops_top_scope(name, &ns);
		bool cut = c->o->scope_depth > 0 && ns > (size_t)c->o->scope_depth;
		size_t keep = cut ? (size_t)c->o->scope_depth : ns;
		/* prefix of `keep` segments, then the leaf */
		const char *p = name;
		size_t plen = 0;
		for (size_t k = 0; k < keep; k++) {
			const char *s = strchr(p, '/');
			plen = (size_t)(s - name);
			p = s + 1;
		}
		const char *leaf = ns ? strrchr(name, '/') + 1 : name;
		char *key;
		char devp[32] = "";
		if (multi)
			snprintf(devp, sizeof(devp), "device %" PRIu32 ";", m->devices.v[it->dev].id);
		if (cut)
			key = pt_xasprintf("%s%.*s", devp, (int)plen, name);
		else if (keep)
			key = pt_xasprintf("%s%.*s/%s", devp, (int)plen, name, leaf);
		else
			key = pt_xasprintf("%s%s", devp, leaf);
		for (char *q = key + strlen(devp); *q; q++)
			if (*q == '/')
				*q = ';';
			else if (*q == ' ' || *q == '\n' || *q == '\t')
				*q = '_'; /* folded format: the value follows the last space */
		uint64_t h = 1469598103934665603ULL;
		for (const char *q = key; *q; q++)
			h = (h ^ (unsigned char)*q) * 1099511628211ULL;
		uint64_t *slot = pt_hashmap_get(&idx, h);
		size_t j = SIZE_MAX;
		if (slot && !strcmp(keys.v[*slot], key))
			j = *slot;
		else if (slot)
			for (size_t k = 0; k < keys.n; k++)
				if (!strcmp(keys.v[k], key))
					j = k;
		u128 f = (u128)it->flops * it->calls;
		if (j == SIZE_MAX) {
			if (!slot)
				pt_hashmap_put(&idx, h, keys.n, NULL);
			pt_vec_push(&keys, key);
			pt_vec_push(&vals, f);
		} else {
			vals.v[j] += f;
			free(key);
		}
	}
	for (size_t k = 0; k < keys.n; k++) {
		size_t r = pt_table_add_row(t);
		pt_table_set_strdup(t, r, 0, keys.v[k], strlen(keys.v[k]));
		set_u128(t, r, 1, vals.v[k]);
		free(keys.v[k]);
	}
	pt_vec_free(&keys);
	pt_vec_free(&vals);
	pt_hashmap_free(&idx);
	return t;
}

/* Per-step figures of one rank's step. */
struct stepfig {
	u128 flops, fpbp_flops;
	int64_t fpbp;          /* -1 = no FP+BP window */
	uint64_t ucalls;
	int64_t utime;
	bool has_fpbp;
};

static void step_window(const struct pt_rank_steps *rs, const struct pt_stepwin *w, int64_t *a, int64_t *b, bool *ok)
{
	*ok = false;
	if (rs->ascend) {
		const struct pt_step *st = w->st;
		if (st && (st->has & PT_STEP_HAS_FP) && (st->has & PT_STEP_HAS_BP) && st->bp > st->fp) {
			*a = st->fp;
			*b = st->bp;
			*ok = true;
		}
	} else if (w->has_win && w->e > w->s) {
		*a = w->s; /* GPU: no FP/BP points; the step window */
		*b = w->e;
		*ok = true;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The buckets of every rank: bounds from its steps' windows and FP+BP windows. */
static void make_buckets(struct ctx *c)
{
	c->rb = pt_xcalloc(c->si.n ? c->si.n : 1, sizeof(*c->rb));
	for (uint32_t rk = 0; rk < c->si.n; rk++) {
		const struct pt_rank_steps *rs = &c->si.r[rk];
		struct rank_buckets *r = &c->rb[rk];
		r->t = pt_xmalloc((4 * rs->n + 1) * sizeof(*r->t));
		size_t n = 0;
		for (size_t s = 0; s < rs->n; s++) {
			const struct pt_stepwin *w = &rs->v[s];
			if (!w->has_win)
				continue;
			r->t[n++] = w->s;
			r->t[n++] = w->e;
			int64_t a, b;
			bool ok;
			step_window(rs, w, &a, &b, &ok);
			if (ok) {
				r->t[n++] = a;
				r->t[n++] = b;
			}
		}
		pt_sort(r->t, n, sizeof(*r->t), cmp_i64);
		size_t u = 0;
		for (size_t i = 0; i < n; i++)
			if (!u || r->t[i] != r->t[u - 1])
				r->t[u++] = r->t[i];
		r->nt = u;
		r->b = pt_xcalloc(u + 1, sizeof(*r->b));
	}
}

/* After the executions: each rank's buckets become prefix sums (b[k]: the buckets before bound k). */
static void sum_buckets(struct ctx *c)
{
	for (uint32_t rk = 0; rk < c->si.n; rk++) {
		struct rank_buckets *r = &c->rb[rk];
		struct bucket acc = { 0, 0, 0 };
		for (size_t k = 0; k <= r->nt; k++) {
			struct bucket x = r->b[k];
			r->b[k] = acc;
			acc.flops += x.flops;
			acc.ucalls += x.ucalls;
			acc.utime += x.utime;
		}
	}
}

static void free_buckets(struct ctx *c)
{
	for (uint32_t rk = 0; c->rb && rk < c->si.n; rk++) {
		free(c->rb[rk].t);
		free(c->rb[rk].b);
	}
	free(c->rb);
}

/* Index of bound t of rank r (one of its bounds). */
static size_t bound_at(const struct rank_buckets *r, int64_t t)
{
	size_t lo = 0, hi = r->nt;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->t[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void step_figs(struct ctx *c, uint32_t rank, size_t si, struct stepfig *f)
{
	const struct pt_rank_steps *rs = &c->si.r[rank];
	const struct pt_stepwin *w = &rs->v[si];
	memset(f, 0, sizeof(*f));
	int64_t a = 0, b = 0;
	step_window(rs, w, &a, &b, &f->has_fpbp);
	if (f->has_fpbp)
		f->fpbp = b - a;
	if (!w->has_win)
		return;
	const struct rank_buckets *r = &c->rb[rank];
	size_t i = bound_at(r, w->s), j = bound_at(r, w->e);
	if (i < j) {
		f->flops = r->b[j].flops - r->b[i].flops;
		f->ucalls = r->b[j].ucalls - r->b[i].ucalls;
		f->utime = r->b[j].utime - r->b[i].utime;
	}
	/* the FP+BP window within the step's */
	int64_t lo = a > w->s ? a : w->s, hi = b < w->e ? b : w->e;
	if (f->has_fpbp && lo < hi)
		f->fpbp_flops = r->b[bound_at(r, hi)].flops - r->b[bound_at(r, lo)].flops;
}

static double rank_peak(struct ctx *c, uint32_t rank)
{
	const struct pt_rank_steps *rs = &c->si.r[rank];
	for (size_t i = 0; i < rs->ndevs; i++)
		if (c->peaks[rs->devs[i]].flops > 0)
			return c->peaks[rs->devs[i]].flops;
	return 0;
}

static uint32_t rank_dev_id(struct ctx *c, uint32_t rank)
{
	const struct pt_rank_steps *rs = &c->si.r[rank];
	return rs->ndevs ? c->m->devices.v[rs->devs[0]].id : rs->rank;
}

/* Row r of the steps view into t: step s of rank rk. */
static void step_row(struct ctx *c, struct pt_table *t, size_t r, uint32_t rk, size_t s)
{
	const struct pt_rank_steps *rs = &c->si.r[rk];
	double peak = rank_peak(c, rk);
	struct stepfig f;
	step_figs(c, rk, s, &f);
	pt_table_set_int(t, r, 0, rank_dev_id(c, rk));
	pt_table_set_int(t, r, 1, rs->v[s].num);
	if (rs->v[s].has_win)
		set_u128(t, r, 2, f.flops);
	if (f.has_fpbp) {
		pt_table_set_int(t, r, 3, f.fpbp);
		set_u128(t, r, 4, f.fpbp_flops);
		double g;
		if (rate(f.fpbp_flops, f.fpbp, &g)) {
			pt_table_set_double(t, r, 5, g);
			if (peak > 0)
				pt_table_set_double(t, r, 6, g * 1e9 / peak * 100);
		}
	}
	pt_table_set_int(t, r, 7, (int64_t)f.ucalls);
	pt_table_set_int(t, r, 8, f.utime);
}

/* The steps view's rows, made when read (pt_table_set_rows; a row of 9 cells a kept step held
 * otherwise): from the buckets, the steps and the peaks, taken over from the pass. */
struct srows {
	struct ctx c;            /* m (which outlives the table), si, rb, peaks */
	uint32_t *rank, *step;   /* per row */
	struct pt_table *one;    /* one row of the view's columns */
};

static void srows_row(void *arg, size_t r, struct pt_cell *cells)
{
	struct srows *g = arg;
	memset(g->one->cells, 0, g->one->ncols * sizeof(*cells));
	step_row(&g->c, g->one, 0, g->rank[r], g->step[r]);
	memcpy(cells, g->one->cells, g->one->ncols * sizeof(*cells));
}

static void srows_free(void *arg)
{
	struct srows *g = arg;
	free_buckets(&g->c);
	free(g->c.peaks);
	pt_steps_info_free(&g->c.si);
	free(g->rank);
	free(g->step);
	pt_table_free(g->one);
	free(g);
}

static struct pt_table *steps_view(struct ctx *c)
{
	static const char *const names[] = { "device_id", "step", "flops", "fpbp", "fpbp_flops",
					     "gflops", "mfu_pct", "unknown_calls", "unknown_time" };
	static const enum pt_col_type types[] = { PT_COL_INT, PT_COL_INT, PT_COL_INT, PT_COL_TIME, PT_COL_INT,
						  PT_COL_DOUBLE, PT_COL_DOUBLE, PT_COL_INT, PT_COL_TIME };
	static const int prec[] = { 0, 0, 0, 0, 0, 3, 2, 0, 0 };
	struct pt_table *t = pt_table_new("steps", "FLOPs per step");
	struct srows *g = pt_xcalloc(1, sizeof(*g));
	g->one = pt_table_new("steps", NULL);
	for (size_t k = 0; k < 9; k++) {
		enum pt_col_role role = k < 2 ? PT_ROLE_KEY : PT_ROLE_VALUE;
		pt_table_add_col(t, names[k], types[k], role, prec[k]);
		pt_table_add_col(g->one, names[k], types[k], role, prec[k]);
	}
	pt_table_add_row(g->one);
	size_t n = 0;
	for (uint32_t rk = 0; rk < c->si.n; rk++)
		for (size_t s = 0; s < c->si.r[rk].n; s++)
			n += c->si.r[rk].v[s].kept;
	g->rank = pt_xmalloc((n ? n : 1) * sizeof(*g->rank));
	g->step = pt_xmalloc((n ? n : 1) * sizeof(*g->step));
	n = 0;
	for (uint32_t rk = 0; rk < c->si.n; rk++)
		for (size_t s = 0; s < c->si.r[rk].n; s++)
			if (c->si.r[rk].v[s].kept) {
				g->rank[n] = rk;
				g->step[n++] = (uint32_t)s;
			}
	/* the steps, buckets and a copy of the peaks go with the table */
	g->c.m = c->m;
	g->c.si = c->si;
	g->c.rb = c->rb;
	size_t np = c->m->devices.n ? c->m->devices.n : 1;
	g->c.peaks = pt_xmalloc(np * sizeof(*g->c.peaks));
	memcpy(g->c.peaks, c->peaks, np * sizeof(*g->c.peaks));
	for (size_t i = 0; i < c->m->devices.n; i++)
		if (c->peaks[i].source == c->peaks[i].buf)
			g->c.peaks[i].source = g->c.peaks[i].buf;
	for (uint32_t r = 0; c->kept && r < c->si.n; r++)
		free(c->kept[r].v);
	free(c->kept);
	c->kept = NULL;
	memset(&c->si, 0, sizeof(c->si));
	c->rb = NULL;
	pt_table_set_rows(t, n, srows_row, g, srows_free);
	return t;
}

static struct pt_table *model_view(struct ctx *c)
{
	const struct pt_model *m = c->m;
	struct pt_table *t = pt_table_new("model", "FLOPs of the model");
	pt_table_add_col(t, "device_id", PT_COL_INT, PT_ROLE_KEY, 0);
	pt_table_add_col(t, "total_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "steps", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "step_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "fpbp", PT_COL_TIME, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "fpbp_flops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "gflops", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "mfu_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 2);
	pt_table_add_col(t, "peak_tflops", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "peak_source", PT_COL_STR, PT_ROLE_LABEL, 0);
	pt_table_add_col(t, "op_mean_gflops", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "op_mean_util_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "step_mean_util_pct", PT_COL_DOUBLE, PT_ROLE_VALUE, 3);
	pt_table_add_col(t, "known_ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_ops", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_calls", PT_COL_INT, PT_ROLE_VALUE, 0);
	pt_table_add_col(t, "unknown_time", PT_COL_TIME, PT_ROLE_VALUE, 0);
	/* text without --wide: the totals, the rate against the peak and what is
	 * unknown; the per-step figures and the means are detail columns */
	static const char *const shown[] = { "device_id", "total_flops", "steps", "gflops", "mfu_pct", "peak_tflops",
					     "peak_source", "unknown_ops", "unknown_time", NULL };
	pt_table_set_default_cols(t, shown);
	/* one row per device that has items, in device order */
	for (uint32_t dv = 0; dv < m->devices.n; dv++) {
		u128 total = 0;
		uint64_t kops = 0, uops = 0, ucalls = 0, nrate = 0, nutil = 0;
		int64_t utime = 0;
		double sum_g = 0, sum_u = 0;
		const struct peak *pk = &c->peaks[dv];
		bool any = false;
		for (size_t i = 0; i < c->items.n; i++) {
			const struct item *it = &c->items.v[i];
			if (it->dev != dv)
				continue;
			any = true;
			if (!it->known) {
				uops++;
				ucalls += it->calls;
				utime += it->total;
				continue;
			}
			kops++;
			total += (u128)it->flops * it->calls;
			double g;
			if (it->flops && it->kind != IT_UNNAMED_COMM && rate((u128)it->flops * it->calls, it->total, &g)) {
				sum_g += g;
				nrate++;
				if (pk->flops > 0) {
					sum_u += g * 1e9 / pk->flops * 100;
					nutil++;
				}
			}
		}
		if (!any)
			continue;
		size_t r = pt_table_add_row(t);
		pt_table_set_int(t, r, 0, m->devices.v[dv].id);
		set_u128(t, r, 1, total);
		uint32_t rk = c->dev_rank[dv];
		if (rk != UINT32_MAX) {
			const struct pt_rank_steps *rs = &c->si.r[rk];
			u128 sf = 0, ff = 0;
			int64_t fpbp = 0, nsteps = 0, nfpbp = 0, nsu = 0;
			double su = 0;
			bool partial = pt_steps_partly_covered(rs); /* then over the steps the device data covers */
			for (size_t s = 0; s < rs->n; s++) {
				if (!rs->v[s].kept || (partial && !rs->v[s].covered))
					continue;
				struct stepfig f;
				step_figs(c, rk, s, &f);
				nsteps++;
				sf += f.flops;
				if (f.has_fpbp) {
					nfpbp++;
					fpbp += f.fpbp;
					ff += f.fpbp_flops;
					double g;
					if (pk->flops > 0 && rate(f.fpbp_flops, f.fpbp, &g)) {
						su += g * 1e9 / pk->flops * 100;
						nsu++;
					}
				}
			}
			pt_table_set_int(t, r, 2, nsteps);
			if (nsteps)
				set_u128(t, r, 3, sf);
			if (nfpbp) {
				pt_table_set_int(t, r, 4, fpbp);
				set_u128(t, r, 5, ff);
				double g;
				if (rate(ff, fpbp, &g)) {
					pt_table_set_double(t, r, 6, g);
					if (pk->flops > 0)
						pt_table_set_double(t, r, 7, g * 1e9 / pk->flops * 100);
				}
			}
			if (nsu)
				pt_table_set_double(t, r, 12, su / (double)nsu);
		} else {
			pt_table_set_int(t, r, 2, 0);
		}
		if (pk->flops > 0) {
			pt_table_set_double(t, r, 8, pk->flops / 1e12);
			pt_table_set_strdup(t, r, 9, pk->source, strlen(pk->source));
		}
		if (nrate)
			pt_table_set_double(t, r, 10, sum_g / (double)nrate);
		if (nutil)
			pt_table_set_double(t, r, 11, sum_u / (double)nutil);
		pt_table_set_int(t, r, 13, (int64_t)kops);
		pt_table_set_int(t, r, 14, (int64_t)uops);
		pt_table_set_int(t, r, 15, (int64_t)ucalls);
		pt_table_set_int(t, r, 16, utime);
	}
	return t;
}

/* ---- the probe: can a .ptm hold FLOPs data? ---- */

#define PROBE_FOUND 3 /* a batch callback's value: stop, there may be data */

struct probe {
	bool ranges; /* a range event was read */
};

static int probe_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct probe *p = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (k == PT_EV_TASK || k == PT_EV_AICPU)
			return PROBE_FOUND;
		if (k == PT_EV_RANGE) {
			p->ranges = true;
			if (pt_strtab_find(&m->strings, "Operator", 8) != UINT32_MAX)
				return PROBE_FOUND;
		}
	}
	return 0;
}

int pt_flops_nodata(const struct pt_flops_opts *o, struct pt_err **e)
{
	return pt_err_nodata(e, "FLOPs", o->sel.device,
			     "Ascend aicore.data or framework op shapes, or GPU PyTorch operator NVTX ranges");
}

int pt_flops_probe(const char *path, struct pt_model *m, bool *may, struct pt_err **e)
{
	*may = true;
	struct probe p = { false };
	struct pt_ptm_sink sink = { probe_batch, &p, false, true };
	int rc = pt_ptm_read_stream(path, m, &sink, e);
	if (rc == PROBE_FOUND || rc == PT_PTM_STOP) {
		rc = 0;
	} else if (!rc) {
		/* the strings may name the type after the last range event */
		*may = p.ranges && pt_strtab_find(&m->strings, "Operator", 8) != UINT32_MAX;
	}
	return rc < 0 ? -1 : 0;
}

int pt_pass_flops(const struct pt_model *m, struct pt_index *x, const struct pt_flops_opts *o, struct pt_table **out,
		  size_t *nout, struct pt_diag *d, struct pt_err **e)
{
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.x = x;
	c.o = o;
	c.d = d;
	*nout = 0;
	if (pt_steps_collect(m, &o->sel, &c.si, d, e))
		return -1;
	begin(&c, pt_index_origin(x));
	ascend_items(&c);
	gpu_items(&c);
	return finish(&c, out, nout, e);
}

/* The tables of a model without FLOPs data: no item, the steps of si (taken over, freed). */
static int noitems(const struct pt_model *m, struct pt_steps_info *si, const struct pt_flops_opts *o,
		   struct pt_table **out, size_t *nout, struct pt_diag *d, struct pt_err **e)
{
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.o = o;
	c.d = d;
	*nout = 0;
	c.si = *si;
	memset(si, 0, sizeof(*si));
	begin(&c, c.si.origin);
	return finish(&c, out, nout, e);
}

int pt_pass_flops_gsteps(const char *path, const struct pt_flops_opts *o, struct pt_model **whole,
			 struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d, struct pt_err **e)
{
	*whole = NULL;
	*nout = 0;
	*streamed = false;
	struct pt_model *head = pt_model_new();
	bool may;
	int rc = pt_flops_probe(path, head, &may, e);
	pt_model_free(head);
	if (rc || may)
		return rc; /* FLOPs data, maybe: the caller loads the model */
	/* the coverage (pt_steps_partly_covered) is read by the steps and model views only */
	bool cover = o->by == PT_FLOPS_BY_STEP || o->by == PT_FLOPS_BY_MODEL;
	struct pt_model *m = NULL;
	struct pt_steps_info si;
	struct pt_gpu_figs **gf = NULL;
	rc = pt_steps_stream_read(PT_PTM_SOURCE(path), &o->sel, &m, &si, NULL, cover ? &gf : NULL, whole, d, e);
	if (rc || *whole)
		return rc;
	pt_steps_gfigs_free(&si, gf);
	*streamed = true;
	rc = noitems(m, &si, o, out, nout, d, e);
	if (rc)
		pt_model_free(m);
	else
		*whole = m; /* the tables' rows refer to it: free it after them */
	return rc;
}

/* After pt_steps_collect(): the selection, the ranks, the peaks and the buckets. */
static void begin(struct ctx *c, int64_t origin)
{
	const struct pt_model *m = c->m;
	pt_sel_resolve(&c->o->sel, origin, &c->sr);
	c->dev_rank = pt_xmalloc((m->devices.n ? m->devices.n : 1) * sizeof(*c->dev_rank));
	for (size_t i = 0; i < m->devices.n; i++)
		c->dev_rank[i] = UINT32_MAX;
	for (uint32_t r = 0; r < c->si.n; r++) {
		for (size_t j = 0; j < c->si.r[r].ndevs; j++)
			c->dev_rank[c->si.r[r].devs[j]] = r;
		if (c->si.r[r].host != PT_NONE)
			c->dev_rank[c->si.r[r].host] = r;
	}
	device_peaks(c);
	if (c->o->by == PT_FLOPS_BY_STEP || c->o->by == PT_FLOPS_BY_MODEL)
		make_buckets(c);
	if (c->sr.steps)
		make_kept(c);
}

/* After the items: the views, and everything c holds freed. */
static int finish(struct ctx *cp, struct pt_table **out, size_t *nout, struct pt_err **e)
{
	struct ctx c = *cp;
	const struct pt_flops_opts *o = c.o;
	struct pt_diag *d = c.d;
	order_items(&c);
	if (c.rb)
		sum_buckets(&c);

	int rc = 0;
	if (o->by == PT_FLOPS_BY_MODEL)
		pt_steps_coverage_note(&c.si, "the model's step figures are over those", d);
	else if (c.uncovered) /* GPU: the operator ranges of the other steps were left out */
		pt_steps_coverage_note(&c.si, "the operators' FLOPs are over those", d);
	if (!c.items.n && !c.sr.steps && !c.sr.window) { /* else: empty tables that say why */
		rc = pt_flops_nodata(o, e);
		goto done;
	}
	switch (o->by) {
	case PT_FLOPS_BY_OP:
		out[(*nout)++] = ops_view(&c);
		break;
	case PT_FLOPS_BY_TYPE:
		out[(*nout)++] = types_view(&c);
		break;
	case PT_FLOPS_BY_SCOPE:
		out[(*nout)++] = scopes_view(&c);
		break;
	case PT_FLOPS_BY_STEP:
		out[(*nout)++] = steps_view(&c);
		break;
	case PT_FLOPS_BY_MODEL:
		out[(*nout)++] = model_view(&c);
		break;
	}
	if (o->folded)
		out[(*nout)++] = folded_view(&c);
	for (size_t i = 0; i < *nout; i++)
		if (!out[i]->nrows) {
			static const char *const what[] = { [PT_FLOPS_BY_OP] = "ops", [PT_FLOPS_BY_TYPE] = "op types",
							    [PT_FLOPS_BY_SCOPE] = "scopes", [PT_FLOPS_BY_STEP] = "steps",
							    [PT_FLOPS_BY_MODEL] = "devices with ops" };
			char why[160];
			pt_table_set_empty(out[i], pt_sel_empty_reason(&o->sel, what[o->by], why, sizeof(why)));
		}
done:
	ctx_free(&c);
	return rc;
}

/* Everything c holds. */
static void ctx_free(struct ctx *c)
{
	for (size_t i = 0; i < c->items.n; i++)
		free(c->items.v[i].own);
	pt_vec_free(&c->items);
	free_buckets(c);
	for (uint32_t r = 0; c->kept && r < c->si.n; r++)
		free(c->kept[r].v);
	free(c->kept);
	free(c->peaks);
	free(c->dev_rank);
	pt_steps_info_free(&c->si);
}

/* ---- the streamed pass over an Ascend model file ---- */

#define NOT_STREAMED 4            /* a callback's value: the model is not one that streams */

/*
 * What the step windows, their coverage, the origin and the selection
 * checks read of the events of a model whose devices are all Ascend NPUs
 * is, per device and kind, whether there is an event, the earliest start,
 * the latest start and the latest end (pt_steps_collect(), pt_sel_check()).
 * So the events that hold those, per track and kind, stand for all of them
 * there: three an (track, kind) pair.
 */
struct stream {
	struct ctx *c;
	struct pt_ascan a; /* the first read: per track whether it runs framework-named tasks, the bounding events */
	size_t nev;        /* events read so far */
};

/* The first read: the tracks that run framework-named tasks and the bounding events. */
static int scan_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct stream *st = arg;
	for (size_t i = 0; i < m->devices.n; i++)
		if (m->devices.v[i].kind != PT_DEV_NPU) /* (known before its events: no need to read them) */
			return NOT_STREAMED;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if ((k != PT_EV_TASK && k != PT_EV_AICPU && k != PT_EV_GETNEXT) ||
		    m->devices.v[m->tracks.v[ev->track[i]].device].kind != PT_DEV_NPU)
			return NOT_STREAMED;
	}
	pt_ascan_batch(&st->a, m);
	st->nev += ev->n;
	return 0;
}

/* The second read: the items and their executions, as ascend_items() makes them. */
static int item_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct stream *st = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		ascend_event(st->c, ev, i, st->nev + i);
	st->nev += ev->n;
	return 0;
}

/* A model of Ascend and GPU data (pt_pass_flops_gstream, after the streamed steps): the first read of
 * the Ascend items, the tracks that run framework-named tasks (pt_ascan_batch scans every event). */
static int named_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct stream *st = arg;
	pt_ascan_batch(&st->a, m);
	return 0;
}

/* The Ascend items of a model of Ascend and GPU data, into c (its steps, selection and buckets begun):
 * two reads of the events into m (the tables read), as pt_pass_flops_stream() makes them of an
 * Ascend model; the GPU items are the operator ranges' (flops-gstream.h), on devices of their own. */
static int ascend_beside(struct ctx *c, const struct pt_ptm_source *src, struct pt_model *m, struct pt_err **e)
{
	struct stream st = { c, { 0 }, 0 };
	pt_ascan_init(&st.a, 0);
	struct pt_ptm_sink scan = { named_batch, &st, true, true };
	int rc = pt_ptm_source_read(src, m, &scan, e);
	uint8_t *named = NULL, *op_comm = NULL;
	if (!rc) {
		named = pt_xcalloc(m->tracks.n ? m->tracks.n : 1, 1);
		for (size_t t = 0; t < st.a.ntrk && t < m->tracks.n; t++)
			named[t] = st.a.trk[t].named;
		op_comm = pt_index_op_comm(m);
		c->named_track = named;
		c->op_comm = op_comm;
		ascend_begin(c);
		st.nev = 0;
		struct pt_ptm_sink items = { item_batch, &st, true, true };
		rc = pt_ptm_source_read(src, m, &items, e);
		ascend_end(c);
		c->named_track = c->op_comm = NULL;
	}
	if (rc > 0) /* the steps' reads would have stopped there */
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	free(named);
	free(op_comm);
	pt_ascan_free(&st.a);
	return rc;
}

int pt_pass_flops_stream(const char *path, const struct pt_flops_opts *o, struct pt_model **mp,
			 struct pt_table **out, size_t *nout, bool *streamed, struct pt_diag *d, struct pt_err **e)
{
	*mp = NULL;
	*nout = 0;
	*streamed = false;
	struct pt_model *m = pt_model_new();
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.o = o;
	c.d = d;
	struct stream st = { &c, { 0 }, 0 };
	pt_ascan_init(&st.a, PT_ASCAN_REPS);
	uint8_t *named = NULL;
	struct pt_ptm_sink scan = { scan_batch, &st, false, true };
	int rc = pt_ptm_read_stream(path, m, &scan, e);
	bool ascend = !rc;
	for (size_t i = 0; ascend && i < m->devices.n; i++)
		ascend = m->devices.v[i].kind == PT_DEV_NPU;
	if (!ascend) {
		rc = rc < 0 ? -1 : 0; /* not streamed (NOT_STREAMED, PT_PTM_STOP): the caller loads it */
		goto out;
	}
	/* the bounding events stand for the events in the steps' derivation and the selection's checks */
	m->events.n = 0;
	for (size_t t = 0; t < st.a.ntrk; t++)
		for (uint8_t k = 0; k < PT_ASCAN_NKIND; k++) {
			const struct pt_ascan_rep *r = &st.a.rep[t * PT_ASCAN_NKIND + k];
			for (int j = 0; r->has && j < 3; j++)
				pt_model_add_event(m, (uint32_t)t, 0, (enum pt_event_kind)k, r->s[j], r->d[j], 0, PT_NONE, 0);
		}
	pt_sel_check(m, &o->sel, d);
	if (pt_steps_collect(m, &o->sel, &c.si, d, e)) {
		rc = -1;
		goto out;
	}
	*streamed = true;
	begin(&c, c.si.origin);
	uint8_t *op_comm = pt_index_op_comm(m);
	c.op_comm = op_comm;
	named = pt_xcalloc(m->tracks.n ? m->tracks.n : 1, 1);
	for (size_t t = 0; t < st.a.ntrk && t < m->tracks.n; t++)
		named[t] = st.a.trk[t].named;
	c.named_track = named;
	ascend_begin(&c);
	st.nev = 0;
	struct pt_ptm_sink items = { item_batch, &st, true, true };
	rc = pt_ptm_read_stream(path, m, &items, e);
	if (rc > 0) /* the first read would have stopped there */
		rc = pt_err(e, "'%s' changed while it was read", path);
	ascend_end(&c);
	free(op_comm);
	if (rc)
		ctx_free(&c);
	else
		rc = finish(&c, out, nout, e);
out:
	free(named);
	pt_ascan_free(&st.a);
	if (rc || !*streamed)
		pt_model_free(m);
	else
		*mp = m;
	return rc;
}
