/*
 * The PyTorch Operator ranges of a GPU .ptm file as the hints rules read them
 * through the kernels' launch links (hints-int.h, struct hx_gops), for the
 * streamed pass (gstream.c), without holding the events, the links or the
 * range infos.
 *
 * The range infos, the links and the event arguments follow every event in
 * the file, in that order after the links. Two reads:
 *
 *  O. the side tables a chunk at a time (PT_PTM_TABLES_BATCHWISE), into a
 *     model of their own: a bit per event that is a kernel; each link to a
 *     kernel (its event and range, 8 bytes, in file order); each Operator
 *     range info (its event, label and Input Dims argument, 12 bytes; a bit
 *     per event of the file for the default domain). Then per
 *     linked kernel, from its links in file order, the Operator ranges the
 *     rules read (in memory: util.c hx_link_range, flops-common.c
 *     pt_flops_gpu_ranges' kernel_range, rules-rank.c TENSOR_CORES_UNUSED):
 *     the range of its first link that has one (TOP_OPS' op type), that of
 *     its last link to an Operator range of the default domain (LOW_FLOPS_UTIL),
 *     that of its last link (TENSOR_CORES_UNUSED). Where the three agree,
 *     the kernel and the range as varints of their differences to the
 *     previous kernel's (2 to 4 bytes a kernel: hx_gops.kz); else 16.
 *     Links out of event order are sorted by event, file order kept (12
 *     bytes a link while sorting).
 *  P. the events alone: each Operator range's name (its op type when it has
 *     no label), its FLOPs (pt_flops_range_figure: the name's NVTX sizes or
 *     its Input Dims), and its place (track, start, end) for the nesting:
 *     a default-domain range counts for FLOPs when no descendant among those
 *     has non-zero known FLOPs (as pt_flops_gpu_ranges nests them, sorted;
 *     here per track as they pass, a stack of the open ones, while each
 *     track's come in that order, else P again keeping the places to sort); a range
 *     on a host's threads (the CPU device of a GPU rank's process) whose op
 *     is in hints.tensor_cores.ops is a leaf when no other such range on its
 *     thread starts inside it. Ranges nest on their own thread only, so one
 *     read serves the hosts of several processes; with several, such a range
 *     keeps its host, as the in-memory rule counts a rank's kernels under
 *     the ranges of that rank's host alone.
 *
 * What stays for the device read: per Operator range its type (4 bytes)
 * and flags (1), the FLOPs of those that count with non-zero FLOPs (12), and
 * the kernel map; with several hosts, 4 bytes more a range (its host).
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "support/bits.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/varint.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* A link to a kernel, as the links hold it: its event << 32 | its range (event index + 1, 0 none). */
#define OL_EV(x) ((uint32_t)((x) >> 32))
#define OL_RANGE(x) ((uint32_t)(x))

/* A link while links out of event order are sorted: its event, range and place among the links. */
struct olink {
	uint32_t ev, range, at;
};

/* An Operator range info (its domain: ost.dbit). */
struct orng {
	uint32_t ev, label, shapes;
};

/* A track of read P: its open default-domain ranges (the ancestors of the next), its last one and its last
 * Tensor Core range (a leaf unless the next such on the track starts inside it). */
struct otr {
	PT_VEC(struct hx_nest) st;
	struct hx_nest last, tlast;
	bool has, thas;
};

struct ost {
	const struct pt_model *m;
	uint32_t op_type, dims_key;
	const uint32_t *hosts; /* the CPU devices whose threads' Tensor Core ranges count, sorted */
	size_t nhosts;
	uint64_t *kbit; /* per event of the file: a kernel */
	size_t kw;
	uint64_t *dbit; /* per event of the file: an Operator range of the default domain */
	size_t dw;
	uint64_t base;
	int64_t last_ri; /* the event of the last range info seen (the first of an event counts) */
	PT_VEC(uint64_t) l; /* the links to kernels (OL_EV, OL_RANGE), in file order */
	PT_VEC(struct orng) r;
	bool r_sorted, l_sorted;
	/* read P */
	size_t rp;
	struct otr *tr;  /* per track: the nesting as the ranges pass (when each track's come in nesting order) */
	size_t ntr;
	bool broken;     /* a track's ranges came out of that order: read P again, keeping the places */
	bool keep;
	PT_VEC(struct hx_nest) nf, nt; /* (keep) default-domain ranges (FLOPs), Tensor Core ranges of the host */
	size_t cfv;
	const struct pt_hint_knobs *k;
	struct hx_gops *o;
};

/* The Operator range of event ev (index + 1), 0 when it is none. */
static uint32_t op_of(const struct ost *s, uint32_t ev)
{
	size_t lo = 0, hi = s->r.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->r.v[mid].ev < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->r.n && s->r.v[lo].ev == ev ? (uint32_t)lo + 1 : 0;
}

/* Operator range q (index + 1) is of the default domain. */
static bool dom0(const struct ost *s, uint32_t q)
{
	return pt_bits_get(s->dbit, s->dw, s->r.v[q - 1].ev);
}

static int cmp_orng(const void *pa, const void *pb)
{
	const struct orng *a = pa, *b = pb;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

static int cmp_olink(const void *pa, const void *pb)
{
	const struct olink *a = pa, *b = pb;
	if (a->ev != b->ev)
		return a->ev < b->ev ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

static int o_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct ost *s = arg;
	const struct pt_events *ev = &m->events;
	if (ev->n) {
		pt_bits_grow(&s->kbit, &s->kw, s->base + ev->n);
		for (size_t i = 0; i < ev->n; i++)
			if (ev->kind[i] == PT_EV_KERNEL)
				pt_bits_set(s->kbit, s->base + i);
		s->base += ev->n;
	}
	for (size_t i = 0; i < m->links.n; i++) {
		const struct pt_gpu_link *lk = &m->links.v[i];
		if (!pt_bits_get(s->kbit, s->kw, lk->event))
			continue;
		if (s->l.n && OL_EV(s->l.v[s->l.n - 1]) > lk->event)
			s->l_sorted = false;
		pt_vec_push(&s->l, (uint64_t)lk->event << 32 | lk->range);
	}
	m->links.n = 0;
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		bool first = s->last_ri != (int64_t)ri->event; /* the first info of an event is its own (hx_range_of) */
		s->last_ri = ri->event;
		if (!first || ri->type != s->op_type)
			continue;
		struct orng x = { ri->event, ri->label, UINT32_MAX };
		if (s->r.n && s->r.v[s->r.n - 1].ev >= x.ev)
			s->r_sorted = false;
		pt_vec_push(&s->r, x);
		if (ri->domain == 0) {
			pt_bits_grow(&s->dbit, &s->dw, ri->event);
			pt_bits_set(s->dbit, ri->event);
		}
	}
	m->ranges.n = 0;
	if (m->event_args.n && !s->r_sorted) { /* (the arguments come after the range infos) */
		pt_sort(s->r.v, s->r.n, sizeof(*s->r.v), cmp_orng);
		s->r_sorted = true;
	}
	for (size_t i = 0; i < m->event_args.n && s->dims_key != UINT32_MAX; i++) {
		const struct pt_event_arg *a = &m->event_args.v[i];
		if (a->key != s->dims_key)
			continue;
		uint32_t q = op_of(s, a->event);
		if (q && s->r.v[q - 1].shapes == UINT32_MAX) /* the first, as pt_model_event_arg finds it */
			s->r.v[q - 1].shapes = a->value;
	}
	m->event_args.n = 0;
	return 0;
}

/* The links in event order, file order kept among those of an event (qsort is not stable: each with its
 * place, 12 bytes a link, while sorting). */
static void links_sort(struct ost *s)
{
	struct olink *t = pt_xmalloc((s->l.n ? s->l.n : 1) * sizeof(*t));
	for (size_t i = 0; i < s->l.n; i++)
		t[i] = (struct olink){ OL_EV(s->l.v[i]), OL_RANGE(s->l.v[i]), (uint32_t)i };
	pt_sort(t, s->l.n, sizeof(*t), cmp_olink);
	for (size_t i = 0; i < s->l.n; i++)
		s->l.v[i] = (uint64_t)t[i].ev << 32 | t[i].range;
	free(t);
}

#define HX_KBLK 16 /* kernels a block of hx_gops.kz */

/* The writing of hx_gops.kz: its bytes so far and room, the room of kb, the previous kernel and range. */
struct kzw {
	size_t len, cap, cb;
	uint32_t ev, q;
};

/* Kernel ev whose three ranges are q (after the previous one in event order), to o->kz. */
static void kz_put(struct hx_gops *o, struct kzw *w, uint32_t ev, uint32_t q)
{
	if (o->nk % HX_KBLK == 0) {
		pt_xgrow((void **)&o->kb, &w->cb, o->nkb + 1, sizeof(*o->kb));
		o->kb[o->nkb++] = (struct hx_kblk){ w->len, ev };
		w->ev = ev;
		w->q = 0;
	}
	pt_xgrow((void **)&o->kz, &w->cap, w->len + 20, 1);
	uint8_t *p = pt_varint_put(o->kz + w->len, ev - w->ev);
	p = pt_varint_put(p, pt_zigzag((int64_t)q - (int64_t)w->q));
	w->len = (size_t)(p - o->kz);
	w->ev = ev;
	w->q = q;
	o->nk++;
}

/* Per linked kernel its three ranges (read O's links, by event then file order). */
static void kernel_map(struct ost *s)
{
	struct hx_gops *o = s->o;
	if (!s->l_sorted)
		links_sort(s);
	size_t cx = 0;
	struct kzw w = { 0, 0, 0, 0, 0 };
	for (size_t i = 0; i < s->l.n;) {
		size_t j = i;
		uint32_t ev = OL_EV(s->l.v[i]), top = 0, fl = 0, tc = 0;
		bool has_top = false;
		for (; j < s->l.n && OL_EV(s->l.v[j]) == ev; j++) {
			uint32_t rg = OL_RANGE(s->l.v[j]);
			uint32_t q = rg ? op_of(s, rg - 1) : 0;
			if (rg && !has_top)
				has_top = true, top = q;
			if (q && dom0(s, q))
				fl = q;
			tc = q;
		}
		i = j;
		if (top == tc && fl == (top && dom0(s, top) ? top : 0)) {
			if (!top)
				continue;
			kz_put(o, &w, ev, top);
		} else {
			pt_xgrow((void **)&o->x, &cx, o->nx + 1, sizeof(*o->x));
			o->x[o->nx++] = (struct hx_kops){ ev, top, fl, tc };
		}
	}
	pt_vec_free(&s->l);
	if (w.cap > w.len) /* (the slack goes) */
		o->kz = pt_xrealloc(o->kz, w.len ? w.len : 1);
}

/* A default-domain range x as it passes: its ancestors on its track are the stack's ranges that hold it
 * (as nest() walks them, sorted); with non-zero FLOPs, they have such a descendant. */
static void nest_one(struct ost *s, const struct hx_nest *x)
{
	struct otr *t = &s->tr[x->track];
	if (t->has && hx_nest_cmp(&t->last, x) >= 0) {
		s->broken = true;
		return;
	}
	t->last = *x;
	t->has = true;
	uint8_t *fl = s->o->fl;
	while (t->st.n && !(x->s < t->st.v[t->st.n - 1].e && x->e <= t->st.v[t->st.n - 1].e))
		t->st.n--;
	if (fl[x->id] & HX_OP_NZ)
		for (size_t q = t->st.n; q > 0 && !(fl[t->st.v[q - 1].id] & HX_OP_DESC); q--)
			fl[t->st.v[q - 1].id] |= HX_OP_DESC;
	pt_vec_push(&t->st, *x);
}

/* A Tensor Core range x as it passes: the track's last one is a leaf unless x starts inside it. */
static void tc_one(struct ost *s, const struct hx_nest *x)
{
	struct otr *t = &s->tr[x->track];
	if (t->thas) {
		if (hx_nest_cmp(&t->tlast, x) >= 0) {
			s->broken = true;
			return;
		}
		if (!(x->s < t->tlast.e))
			s->o->fl[t->tlast.id] |= HX_OP_LEAF;
	}
	t->tlast = *x;
	t->thas = true;
}

static bool is_host(const struct ost *s, uint32_t dev)
{
	return s->nhosts && bsearch(&dev, s->hosts, s->nhosts, sizeof(*s->hosts), pt_u32_cmp);
}

static int p_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct ost *s = arg;
	const struct pt_events *ev = &m->events;
	struct hx_gops *o = s->o;
	for (size_t i = 0; i < ev->n && s->rp < s->r.n; i++) {
		uint64_t gi = s->base + i;
		while (s->rp < s->r.n && s->r.v[s->rp].ev < gi)
			s->rp++;
		if (s->rp == s->r.n || s->r.v[s->rp].ev != gi)
			continue;
		size_t q = s->rp;
		const struct orng *r = &s->r.v[q];
		o->type[q] = r->label ? r->label : ev->name[i];
		const char *text = pt_model_strget(m, ev->name[i]);
		struct hx_nest x = { ev->track[i], (uint32_t)q, ev->start[i], ev->start[i] + ev->dur[i] };
		if (o->fl[q] & HX_OP_DOM0) {
			struct pt_flops_range f;
			memset(&f, 0, sizeof(f));
			pt_flops_range_figure(m, text, s->dims_key, (uint32_t)gi, &r->shapes, &f);
			if (f.known)
				o->fl[q] |= HX_OP_KNOWN;
			if (f.known && f.flops) { /* (ranges in event order: the list stays sorted) */
				o->fl[q] |= HX_OP_NZ;
				pt_xgrow((void **)&o->fv, &s->cfv, o->nfv + 1, sizeof(*o->fv));
				o->fv[o->nfv++] = (struct hx_opflops){ (uint32_t)q, f.flops };
			}
			if (s->keep)
				pt_vec_push(&s->nf, x);
			else if (!s->broken)
				nest_one(s, &x);
		}
		if (ev->kind[i] == PT_EV_RANGE && is_host(s, m->tracks.v[ev->track[i]].device) &&
		    hx_tc_op_name(s->k, pt_model_strget(m, o->type[q]))) {
			if (s->keep)
				pt_vec_push(&s->nt, x);
			else if (!s->broken)
				tc_one(s, &x);
			if (o->host)
				o->host[q] = m->tracks.v[ev->track[i]].device;
		}
	}
	s->base += ev->n;
	return 0;
}

/* The order hx_nest_cmp puts v[0..n) in (ntr tracks). When each track's places come in that order already (a
 * trace writes each thread's ranges by start), the indexes grouped by track (a stable counting sort: 4 bytes a
 * place); else v is sorted in place (qsort's copy: 24 bytes a place) and NULL comes back. */
static uint32_t *nest_order(struct hx_nest *v, size_t n, size_t ntr)
{
	bool byt = n <= UINT32_MAX;
	uint32_t *at = pt_xmalloc((ntr ? ntr : 1) * sizeof(*at));
	memset(at, 0xff, (ntr ? ntr : 1) * sizeof(*at));
	for (size_t i = 0; i < n && byt; i++) {
		uint32_t t = v[i].track;
		byt = t < ntr && (at[t] == UINT32_MAX || hx_nest_cmp(&v[at[t]], &v[i]) < 0);
		if (byt)
			at[t] = (uint32_t)i;
	}
	if (!byt) {
		free(at);
		pt_sort(v, n, sizeof(*v), hx_nest_cmp);
		return NULL;
	}
	memset(at, 0, (ntr ? ntr : 1) * sizeof(*at));
	for (size_t i = 0; i < n; i++)
		at[v[i].track]++;
	uint32_t sum = 0;
	for (size_t t = 0; t < ntr; t++) {
		uint32_t c = at[t];
		at[t] = sum;
		sum += c;
	}
	uint32_t *ord = pt_xmalloc((n ? n : 1) * sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[at[v[i].track]++] = (uint32_t)i;
	free(at);
	return ord;
}

/* FLOPs: a range counts when known with no descendant of non-zero known FLOPs (the stack holds a
 * range's ancestors when it comes); Tensor Cores: a leaf when the next on its track starts after it. */
static void nest(struct ost *s)
{
	struct hx_gops *o = s->o;
	size_t ntr = s->m->tracks.n;
	uint32_t *ord = nest_order(s->nf.v, s->nf.n, ntr); /* (as pt_flops_gpu_ranges sorts them) */
	uint32_t *stack = pt_xmalloc((s->nf.n ? s->nf.n : 1) * sizeof(*stack));
	size_t sp = 0;
	for (size_t k = 0; k < s->nf.n; k++) {
		size_t i = ord ? ord[k] : k;
		const struct hx_nest *x = &s->nf.v[i];
		while (sp) {
			const struct hx_nest *p = &s->nf.v[stack[sp - 1]];
			if (p->track == x->track && x->s < p->e && x->e <= p->e)
				break;
			sp--;
		}
		if (o->fl[x->id] & HX_OP_NZ)
			for (size_t q = sp; q > 0 && !(o->fl[s->nf.v[stack[q - 1]].id] & HX_OP_DESC); q--)
				o->fl[s->nf.v[stack[q - 1]].id] |= HX_OP_DESC;
		stack[sp++] = (uint32_t)i;
	}
	free(stack);
	free(ord);
	pt_vec_free(&s->nf);
	ord = nest_order(s->nt.v, s->nt.n, ntr);
	for (size_t k = 0; k < s->nt.n; k++) {
		const struct hx_nest *x = &s->nt.v[ord ? ord[k] : k];
		const struct hx_nest *y = k + 1 < s->nt.n ? &s->nt.v[ord ? ord[k + 1] : k + 1] : NULL;
		if (!(y && y->track == x->track && y->s < x->e))
			o->fl[x->id] |= HX_OP_LEAF;
	}
	free(ord);
	pt_vec_free(&s->nt);
}

/* After the nesting: a range counts for FLOPs when known (a default-domain range read P saw) without a
 * descendant of non-zero FLOPs; the FLOPs of those that count, alone. */
static void count_end(struct hx_gops *o)
{
	for (size_t q = 0; q < o->n; q++)
		if ((o->fl[q] & (HX_OP_KNOWN | HX_OP_DESC)) == HX_OP_KNOWN)
			o->fl[q] |= HX_OP_COUNT;
	size_t n = 0;
	for (size_t i = 0; i < o->nfv; i++)
		if (o->fl[o->fv[i].op] & HX_OP_COUNT)
			o->fv[n++] = o->fv[i];
	o->nfv = n;
}

/* Read P: the events (keep: the places too, for nest()). */
static int read_p(const struct pt_ptm_source *src, struct pt_model *m, struct ost *s, bool keep, struct pt_err **e)
{
	struct hx_gops *o = s->o;
	for (size_t q = 0; q < o->n; q++)
		o->fl[q] = dom0(s, (uint32_t)q + 1) ? HX_OP_DOM0 : 0;
	o->nfv = 0;
	if (o->host)
		memset(o->host, 0xff, (o->n ? o->n : 1) * sizeof(*o->host));
	s->base = 0;
	s->rp = 0;
	s->keep = keep;
	s->broken = false;
	s->ntr = m->tracks.n;
	s->tr = pt_xcalloc(s->ntr ? s->ntr : 1, sizeof(*s->tr));
	struct pt_ptm_sink sp = { p_batch, s, true, true };
	int rc = pt_ptm_source_read_cols(src, m, &sp, PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	for (size_t t = 0; t < s->ntr; t++) {
		if (!rc && !keep && !s->broken && s->tr[t].thas)
			o->fl[s->tr[t].tlast.id] |= HX_OP_LEAF;
		pt_vec_free(&s->tr[t].st);
	}
	free(s->tr);
	s->tr = NULL;
	return rc;
}

int hx_gops_read(const struct pt_ptm_source *src, struct pt_model *m, const struct pt_hint_knobs *k,
		 const uint32_t *hosts, size_t nhosts, struct hx_gops *o, struct pt_err **e)
{
	memset(o, 0, sizeof(*o));
	struct ost s;
	memset(&s, 0, sizeof(s));
	s.m = m;
	s.k = k;
	s.o = o;
	s.hosts = hosts;
	s.nhosts = nhosts;
	s.op_type = pt_strtab_find(&m->strings, "Operator", 8);
	s.dims_key = pt_strtab_find(&m->strings, "Input Dims", 10);
	s.last_ri = -1;
	s.r_sorted = s.l_sorted = true;
	if (s.op_type == UINT32_MAX)
		return 0;
	/* read O: the side tables, a chunk at a time, into a model of their own (no tape: it keeps events) */
	struct pt_ptm_source own = { .path = src->path };
	struct pt_model *mo = pt_model_new();
	struct pt_ptm_sink so = { o_batch, &s, false,
				  1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_TABLES_BATCHWISE | PT_PTM_TABLES_NO_EXT_CORR |
					  PT_PTM_TABLES_NO_MEM_LINKS | PT_PTM_SKIP_BUT_LINKS |
					  PT_PTM_STRINGS_COUNTED }; /* (no memory records; m holds the strings) */
	int rc = pt_ptm_source_read_cols(&own, mo, &so, PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP |
							      PT_PTM_NO_TASK, e);
	pt_model_free(mo);
	free(s.kbit);
	s.kbit = NULL;
	if (!rc && !s.r_sorted)
		pt_sort(s.r.v, s.r.n, sizeof(*s.r.v), cmp_orng);
	if (!rc)
		kernel_map(&s);
	o->n = s.r.n;
	o->type = pt_xcalloc(o->n ? o->n : 1, sizeof(*o->type));
	o->fl = pt_xcalloc(o->n ? o->n : 1, sizeof(*o->fl));
	for (size_t q = 0; q < o->n; q++)
		o->fl[q] = dom0(&s, (uint32_t)q + 1) ? HX_OP_DOM0 : 0;
	if (nhosts > 1) /* a Tensor Core range counts for its own host's ranks only */
		o->host = pt_xmalloc((o->n ? o->n : 1) * sizeof(*o->host));
	/* read P: the events, for the ranges' names and places, nested per track as they pass; when a track's
	 * come out of the nesting order, again, keeping the places to sort */
	if (!rc && s.r.n) {
		rc = read_p(src, m, &s, false, e);
		if (!rc && s.broken)
			rc = read_p(src, m, &s, true, e);
	}
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	pt_vec_free(&s.r); /* (the nesting wants the places alone) */
	free(s.dbit);
	if (!rc && s.keep)
		nest(&s);
	if (!rc)
		count_end(o);
	pt_vec_free(&s.l);
	pt_vec_free(&s.nf);
	pt_vec_free(&s.nt);
	if (rc)
		hx_gops_free(o);
	return rc;
}

void hx_gops_kernel(const struct hx_gops *o, uint64_t ev, struct hx_kops *out)
{
	*out = (struct hx_kops){ (uint32_t)ev, 0, 0, 0 };
	if (!o || ev > UINT32_MAX)
		return;
	size_t lo = 0, hi = o->nkb; /* the last block that starts at or before ev */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->kb[mid].ev <= ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		size_t b = lo - 1, n = o->nk - b * HX_KBLK < HX_KBLK ? o->nk - b * HX_KBLK : HX_KBLK;
		const uint8_t *p = o->kz + o->kb[b].at;
		uint64_t e = o->kb[b].ev;
		int64_t q = 0;
		for (size_t i = 0; i < n && e <= ev; i++) {
			e += pt_varint_take(&p);
			q += pt_unzigzag(pt_varint_take(&p));
			if (e == ev) {
				out->top = out->tc = (uint32_t)q;
				out->fl = o->fl[q - 1] & HX_OP_DOM0 ? (uint32_t)q : 0;
				return;
			}
		}
	}
	lo = 0, hi = o->nx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->x[mid].ev < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < o->nx && o->x[lo].ev == ev)
		*out = o->x[lo];
}

uint64_t hx_gops_flops(const struct hx_gops *o, uint32_t q)
{
	size_t lo = 0, hi = o->nfv;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->fv[mid].op < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->nfv && o->fv[lo].op == q ? o->fv[lo].flops : 0;
}

void hx_gops_free(struct hx_gops *o)
{
	free(o->type);
	free(o->fl);
	free(o->host);
	free(o->fv);
	free(o->kz);
	free(o->kb);
	free(o->x);
	memset(o, 0, sizeof(*o));
}
