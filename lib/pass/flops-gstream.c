/* The operator ranges of a GPU model file, streamed: see flops-gstream.h. */
#include "pass/flops-gstream.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

#define NOT_STREAMED 3 /* a callback's value: the model does not stream */

/* A launch link that names a kernel: the kernel's place among the kernels, the event of its range. */
struct lnk {
	uint32_t k, rev;
};

/* An operator range waiting for its start's ties (buf) or open on its thread's stack (st). */
struct node {
	struct pt_flops_grange g;
	uint32_t ord; /* the link order of its first kernel (its own and its descendants'), UINT32_MAX: none */
};

/* A figure of an operator range (pt_flops_range_figure): the same for every range of one name and sizes. */
struct fig {
	bool known, malformed;
	uint32_t shapes;
	uint64_t flops;
	const char *cls;
};

struct trk {
	PT_VEC(struct node) st, buf;
	int64_t t; /* the start of buf's ranges */
	bool any;
};

struct pt_flops_gstream {
	uint64_t base;            /* events read so far */
	/* read 1 */
	uint32_t op_type, dims_key;
	PT_VEC(uint64_t) kbit;    /* a bit an event: a kernel */
	uint32_t *krank;          /* per word of kbit: the kernels before it */
	PT_VEC(int64_t) kdur;     /* per kernel, in event order */
	PT_VEC(uint32_t) kdev;
	PT_VEC(struct lnk) links; /* in link order */
	PT_VEC(int64_t) rlast;    /* per track: the latest start of a range event, INT64_MIN: none yet */
	bool no, args_seen;
	int64_t last_arg;
	size_t acur;
	/* per operator range, in event order */
	PT_VEC(uint32_t) ev;
	PT_VEC(uint32_t) label;
	uint32_t *shapes, *ord, *dev;
	int64_t *gpu;
	/* read 2 */
	struct trk *trk;
	size_t ntrk, rcur;
	uint32_t dims2; /* the Input Dims key in the model of read 2 */
	struct pt_hashmap fig_at; /* (name << 32 | sizes) -> place in figs + 1 */
	PT_VEC(struct fig) figs;
	void (*fn)(void *arg, const struct pt_flops_grange *r);
	void *arg;
};

/* ---- read 1 ---- */

static void r1_events(struct pt_flops_gstream *s, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	if (s->krank || s->ev.n || s->args_seen) {
		s->no = true; /* events after the tables */
		return;
	}
	pt_vec_reserve(&s->kbit, (s->base + ev->n) / 64 + 1);
	while (s->kbit.n < (s->base + ev->n) / 64 + 1)
		s->kbit.v[s->kbit.n++] = 0;
	while (s->rlast.n < m->tracks.n)
		pt_vec_push(&s->rlast, INT64_MIN);
	for (size_t i = 0; i < ev->n; i++) {
		uint64_t g = s->base + i;
		uint8_t k = ev->kind[i];
		if (k == PT_EV_KERNEL) {
			s->kbit.v[g / 64] |= 1ull << (g % 64);
			pt_vec_push(&s->kdur, ev->dur[i]);
			pt_vec_push(&s->kdev, m->tracks.v[ev->track[i]].device);
		} else if (k == PT_EV_RANGE) {
			int64_t *l = &s->rlast.v[ev->track[i]];
			if (ev->start[i] < *l)
				s->no = true; /* a thread's ranges out of start order */
			*l = ev->start[i];
		}
	}
	s->base += ev->n;
}

/* The place of kernel event g among the kernels, or UINT32_MAX when g is no kernel. */
static uint32_t kernel_at(const struct pt_flops_gstream *s, uint64_t g)
{
	if (g >= s->base)
		return UINT32_MAX;
	uint64_t w = s->kbit.v[g / 64], bit = 1ull << (g % 64);
	if (!(w & bit))
		return UINT32_MAX;
	return s->krank[g / 64] + (uint32_t)__builtin_popcountll(w & (bit - 1));
}

static void r1_links(struct pt_flops_gstream *s, const struct pt_model *m)
{
	if (!s->krank) {
		s->krank = pt_xmalloc((s->kbit.n + 1) * sizeof(*s->krank));
		uint32_t c = 0;
		for (size_t w = 0; w < s->kbit.n; w++) {
			s->krank[w] = c;
			c += (uint32_t)__builtin_popcountll(s->kbit.v[w]);
		}
	}
	for (size_t i = 0; i < m->links.n; i++) {
		const struct pt_gpu_link *l = &m->links.v[i];
		uint32_t k = l->range ? kernel_at(s, l->event) : UINT32_MAX;
		if (k != UINT32_MAX)
			pt_vec_push(&s->links, ((struct lnk){ k, l->range - 1 }));
	}
}

static void r1_ranges(struct pt_flops_gstream *s, const struct pt_model *m)
{
	if (s->op_type == UINT32_MAX)
		s->op_type = pt_strtab_find(&m->strings, "Operator", 8);
	if (s->args_seen)
		s->no = true; /* range infos after the arguments */
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (ri->type != s->op_type || ri->domain)
			continue;
		if (s->ev.n && ri->event <= s->ev.v[s->ev.n - 1])
			s->no = true; /* not in event order, or two of one event */
		pt_vec_push(&s->ev, ri->event);
		pt_vec_push(&s->label, ri->label);
	}
}

static void r1_args(struct pt_flops_gstream *s, const struct pt_model *m)
{
	if (!s->args_seen) {
		s->args_seen = true;
		s->shapes = pt_xmalloc((s->ev.n + 1) * sizeof(*s->shapes));
		memset(s->shapes, 0xff, (s->ev.n + 1) * sizeof(*s->shapes));
	}
	if (s->dims_key == UINT32_MAX)
		s->dims_key = pt_strtab_find(&m->strings, "Input Dims", 10); /* Kineto's shapes */
	for (size_t i = 0; i < m->event_args.n; i++) {
		const struct pt_event_arg *a = &m->event_args.v[i];
		if ((int64_t)a->event < s->last_arg)
			s->no = true; /* the loaded model's look-up needs them in event order */
		s->last_arg = a->event;
		if (a->key != s->dims_key)
			continue;
		while (s->acur < s->ev.n && s->ev.v[s->acur] < a->event)
			s->acur++;
		if (s->acur < s->ev.n && s->ev.v[s->acur] == a->event && s->shapes[s->acur] == UINT32_MAX)
			s->shapes[s->acur] = a->value; /* its first */
	}
}

static int r1_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_flops_gstream *s = arg;
	if (m->events.n)
		r1_events(s, m);
	if (m->links.n)
		r1_links(s, m);
	if (m->ranges.n)
		r1_ranges(s, m);
	if (m->event_args.n)
		r1_args(s, m);
	return s->no ? NOT_STREAMED : 0;
}

static size_t find_ev(const struct pt_flops_gstream *s, uint32_t ev)
{
	size_t lo = 0, hi = s->ev.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ev.v[mid] < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ev.n && s->ev.v[lo] == ev ? lo : SIZE_MAX;
}

int pt_flops_gstream_open(const struct pt_ptm_source *src, struct pt_flops_gstream **gsp, bool *none, struct pt_err **e)
{
	*gsp = NULL;
	if (none)
		*none = false;
	if (pt_ptm_source_once(src))
		return 0;
	struct pt_flops_gstream *s = pt_xcalloc(1, sizeof(*s));
	s->op_type = s->dims_key = UINT32_MAX;
	s->last_arg = INT64_MIN;
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink sink = { r1_batch, s, false,
				    PT_PTM_SKIP_BUT_TABLES | PT_PTM_TABLES_BATCHWISE | PT_PTM_PACK_GPU_MEM |
					    PT_PTM_TABLES_NO_EXT_CORR };
	int rc = pt_ptm_source_read_cols(src, m, &sink, PT_PTM_NO_NAME | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK,
					 e);
	pt_model_free(m);
	if (!rc && !s->args_seen) {
		s->shapes = pt_xmalloc((s->ev.n + 1) * sizeof(*s->shapes));
		memset(s->shapes, 0xff, (s->ev.n + 1) * sizeof(*s->shapes));
	}
	if (rc || s->no || !s->ev.n) {
		if (none)
			*none = !rc && !s->no;
		pt_flops_gstream_free(s);
		return rc == NOT_STREAMED ? 0 : rc < 0 ? -1 : rc ? pt_err(e, "'%s': unexpected read end", src->path) : 0;
	}
	/* each range's own kernel time and its first kernel, in link order */
	size_t n = s->ev.n;
	s->gpu = pt_xcalloc(n, sizeof(*s->gpu));
	s->ord = pt_xmalloc(n * sizeof(*s->ord));
	s->dev = pt_xmalloc(n * sizeof(*s->dev));
	memset(s->ord, 0xff, n * sizeof(*s->ord));
	memset(s->dev, 0xff, n * sizeof(*s->dev)); /* PT_NONE */
	for (size_t j = 0; j < s->links.n; j++) {
		size_t q = find_ev(s, s->links.v[j].rev);
		if (q == SIZE_MAX)
			continue;
		uint32_t k = s->links.v[j].k;
		s->gpu[q] += s->kdur.v[k];
		if (s->ord[q] == UINT32_MAX) {
			s->ord[q] = (uint32_t)j;
			s->dev[q] = s->kdev.v[k];
		}
	}
	pt_vec_free(&s->links);
	pt_vec_free(&s->kdur);
	pt_vec_free(&s->kdev);
	pt_vec_free(&s->kbit);
	pt_vec_free(&s->rlast);
	free(s->krank);
	s->krank = NULL;
	s->label.v = pt_xrealloc(s->label.v, n * sizeof(*s->label.v));
	s->ev.v = pt_xrealloc(s->ev.v, n * sizeof(*s->ev.v));
	s->label.cap = s->ev.cap = n;
	*gsp = s;
	return 0;
}

/* ---- read 2 ---- */

static int cmp_tie(const void *a, const void *b)
{
	const struct node *x = a, *y = b;
	if (x->g.dur != y->g.dur)
		return x->g.dur > y->g.dur ? -1 : 1; /* longest first */
	return x->g.r.ev < y->g.r.ev ? -1 : x->g.r.ev > y->g.r.ev;
}

/* The top of tk's stack leaves it: its sums go to its parent, and it is final. */
static void pop(struct pt_flops_gstream *s, struct trk *tk)
{
	struct node x = tk->st.v[--tk->st.n];
	if (tk->st.n) {
		struct node *p = &tk->st.v[tk->st.n - 1];
		p->g.r.gpu += x.g.r.gpu;
		if (x.ord < p->ord) {
			p->ord = x.ord;
			p->g.r.dev = x.g.r.dev;
		}
		if (x.g.r.nonzero_desc || (x.g.r.known && x.g.r.flops))
			p->g.r.nonzero_desc = true;
	}
	s->fn(s->arg, &x.g);
}

/* The ranges of tk that start at tk->t, in (longest first, event) order, through the stack. */
static void flush(struct pt_flops_gstream *s, struct trk *tk)
{
	if (tk->buf.n > 1)
		pt_sort(tk->buf.v, tk->buf.n, sizeof(*tk->buf.v), cmp_tie);
	for (size_t q = 0; q < tk->buf.n; q++) {
		const struct node *x = &tk->buf.v[q];
		int64_t xe = x->g.start + x->g.dur;
		while (tk->st.n) {
			const struct node *p = &tk->st.v[tk->st.n - 1];
			int64_t pe = p->g.start + p->g.dur;
			if (x->g.start < pe && xe <= pe)
				break;
			pop(s, tk);
		}
		pt_vec_push(&tk->st, *x);
	}
	tk->buf.n = 0;
}

/* r's figure, found once per (name, sizes): parsing the sizes and the model's table is most of a range's
 * cost, and a trace repeats the same few ops */
static void figure(struct pt_flops_gstream *s, const struct pt_model *m, uint32_t name, uint32_t ev,
		   const uint32_t *shapes, struct pt_flops_range *r)
{
	bool added;
	uint64_t *at = pt_hashmap_put(&s->fig_at, (uint64_t)name << 32 | *shapes, 0, &added);
	if (!added) {
		const struct fig *f = &s->figs.v[*at - 1];
		r->known = f->known;
		r->malformed = f->malformed;
		r->shapes = f->shapes;
		r->flops = f->flops;
		r->cls = f->cls;
		return;
	}
	pt_flops_range_figure(m, pt_model_strget(m, name), s->dims2, ev, shapes, r);
	pt_vec_push(&s->figs, ((struct fig){ r->known, r->malformed, r->shapes, r->flops, r->cls }));
	*at = s->figs.n;
}

static int r2_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct pt_flops_gstream *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_RANGE)
			continue;
		uint64_t g = s->base + i;
		while (s->rcur < s->ev.n && s->ev.v[s->rcur] < g)
			s->rcur++;
		if (s->rcur == s->ev.n || s->ev.v[s->rcur] != g)
			continue;
		size_t q = s->rcur;
		uint32_t t = ev->track[i];
		if (t >= s->ntrk)
			return NOT_STREAMED;
		struct trk *tk = &s->trk[t];
		int64_t st = ev->start[i];
		if (tk->any && st < tk->t)
			return NOT_STREAMED; /* (read 1 saw them in order) */
		if (!tk->any || st > tk->t) {
			flush(s, tk);
			tk->t = st;
			tk->any = true;
		}
		struct node x;
		memset(&x, 0, sizeof(x));
		x.g.track = t;
		x.g.name = ev->name[i];
		x.g.start = st;
		x.g.dur = ev->dur[i];
		x.ord = s->ord[q];
		struct pt_flops_range *r = &x.g.r;
		r->ev = g;
		r->dev = s->dev[q];
		r->gpu = s->gpu[q];
		r->type = s->label.v[q] ? s->label.v[q] : x.g.name;
		figure(s, m, x.g.name, (uint32_t)g, &s->shapes[q], r);
		pt_vec_push(&tk->buf, x);
	}
	s->base += ev->n;
	return 0;
}

int pt_flops_gstream_ranges(struct pt_flops_gstream *s, const struct pt_ptm_source *src, struct pt_model *m,
			    void (*fn)(void *arg, const struct pt_flops_grange *r), void *arg, struct pt_err **e)
{
	s->fn = fn;
	s->arg = arg;
	s->base = 0;
	s->rcur = 0;
	s->ntrk = m->tracks.n;
	s->dims2 = pt_strtab_find(&m->strings, "Input Dims", 10);
	s->trk = pt_xcalloc(s->ntrk + 1, sizeof(*s->trk));
	pt_hashmap_init(&s->fig_at);
	struct pt_ptm_sink k = { r2_batch, s, true, true };
	int rc = pt_ptm_source_read_cols(src, m, &k, PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	for (size_t t = 0; !rc && t < s->ntrk; t++) {
		struct trk *tk = &s->trk[t];
		flush(s, tk);
		while (tk->st.n)
			pop(s, tk);
	}
	return rc;
}

void pt_flops_gstream_free(struct pt_flops_gstream *s)
{
	if (!s)
		return;
	pt_vec_free(&s->kbit);
	free(s->krank);
	pt_vec_free(&s->kdur);
	pt_vec_free(&s->kdev);
	pt_vec_free(&s->links);
	pt_vec_free(&s->rlast);
	pt_vec_free(&s->ev);
	pt_vec_free(&s->label);
	free(s->shapes);
	free(s->ord);
	free(s->dev);
	free(s->gpu);
	for (size_t t = 0; s->trk && t < s->ntrk; t++) {
		pt_vec_free(&s->trk[t].st);
		pt_vec_free(&s->trk[t].buf);
	}
	free(s->trk);
	pt_hashmap_free(&s->fig_at);
	pt_vec_free(&s->figs);
	free(s);
}
