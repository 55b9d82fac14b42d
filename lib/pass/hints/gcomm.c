/*
 * The kernels of a GPU .ptm file that are communication by where they were
 * launched (summary.md §2.5; in memory: model/index.c classify_attributed),
 * for the streamed pass (gstream.c), without holding the events, the links
 * or the range infos: a kernel whose launching call (its last launch link's;
 * in a file without links the first API call of its correlation id)
 * starts inside a communication host range of the call's thread (a range of
 * type Communication, or an Operator range whose label, else name, is a
 * communication name, by the name list or --comm-pattern; neither instant nor
 * empty). The range infos, the links and the event arguments follow every
 * event in the file.
 *
 *  1. (the steps' first read, pt_steps_gkeep's scan: hx_gcomm_scan) each
 *     non-empty range named as communication (its event, thread, start and
 *     end: a candidate); then each range info of type Communication, or
 *     Operator, confirms the candidate of its event (an Operator range without
 *     a label takes its name) or, when its event is none, keeps the event for
 *     read 1b;
 *  1b. (only for those events) the events alone, for their thread, start and end;
 *  2. the events and the launch links, a batch at a time: a bit per event that
 *     starts inside the communication ranges of its thread (their union per
 *     thread), then per link in file order its kernel's bit, which the last
 *     link of a kernel sets or clears; in a file without links (the whole
 *     load joins every call by id alone, across processes), the events
 *     alone: per slot of each host's launch join (the kernels' ids) whether
 *     the first API call of its id in the file came, whichever process made
 *     it, and whether it starts inside the communication ranges of its thread.
 *
 * What stays for the device read: a bit per event (with links) or per slot
 * of each host's join (without). What the reads hold: the candidates (32 bytes each), the
 * ranges' unions per thread, and two bits per event (or join slot) during
 * read 2.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/launch-join.h"
#include "support/err.h"
#include "support/bits.h"
#include "support/interval.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* A range named as communication. */
struct hx_gcand {
	uint64_t ev;
	int64_t s, e;
	uint32_t track;
	bool ok; /* a range info made it communication */
};

struct cst {
	const struct pt_model *m; /* the kept model: its tracks */
	uint64_t base;
	struct hx_gcscan *sc;
	size_t xp;
	PT_VEC(struct pt_ival) *iv; /* per track: its communication ranges */
	struct pt_ivset *cr;        /* per track: their union */
	uint64_t *cbit;             /* read 2: per event, it starts inside the ranges of its track */
	size_t cw;
	uint64_t **seen;            /* read 2 without links: per host's join, per slot: its first call came */
	struct hx_gcomm *o;
};

bool hx_comm_kernel_name(const struct pt_hints_opts *o, const char *s)
{
	return o && o->comm_re ? pt_index_comm_re_match(o->comm_re, !o->no_demangle, s) : pt_index_comm_kernel_name(s);
}

static bool comm_name(struct hx_gcscan *sc, const struct pt_model *m, uint32_t nm)
{
	if (nm >= sc->nnm && nm < m->strings.n) {
		size_t k = m->strings.n;
		sc->nmark = pt_xrealloc(sc->nmark, k);
		memset(sc->nmark + sc->nnm, 0, k - sc->nnm);
		sc->nnm = k;
	}
	uint8_t one = 0, *k = nm < sc->nnm ? &sc->nmark[nm] : &one;
	if (!*k)
		*k = (sc->re ? pt_index_comm_re_match(sc->re, sc->demangle, pt_model_strget(m, nm))
			     : pt_index_comm_op_name(pt_model_strget(m, nm)))
			     ? 2
			     : 1;
	return *k == 2;
}

static int cand_cmp(const void *key, const void *elem)
{
	uint64_t a = *(const uint64_t *)key, b = ((const struct hx_gcand *)elem)->ev;
	return (a > b) - (a < b);
}

static struct hx_gcand *cand_of(struct hx_gcscan *sc, uint64_t ev)
{
	return sc->nc ? bsearch(&ev, sc->c, sc->nc, sizeof(*sc->c), cand_cmp) : NULL;
}

static void info(struct hx_gcscan *sc, const struct pt_model *m, const struct pt_range_info *ri, uint32_t t_comm,
		 uint32_t t_op)
{
	if (!ri->type || (ri->flags & PT_RANGE_INSTANT) || (ri->type != t_comm && ri->type != t_op))
		return;
	struct hx_gcand *c = cand_of(sc, ri->event);
	if (ri->type == t_op && !ri->label) { /* its name: a candidate when a communication name */
		if (c)
			c->ok = sc->any = true;
		return;
	}
	if (ri->type == t_op && !comm_name(sc, m, ri->label))
		return;
	sc->any = true;
	if (c) {
		c->ok = true;
	} else {
		pt_xgrow((void **)&sc->x, &sc->cx, sc->nx + 1, sizeof(*sc->x));
		sc->x[sc->nx++] = ri->event;
	}
}

void hx_gcomm_scan(struct hx_gcscan *sc, const struct pt_model *m, uint64_t base)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_RANGE && ev->dur[i] && comm_name(sc, m, ev->name[i])) {
			pt_xgrow((void **)&sc->c, &sc->cc, sc->nc + 1, sizeof(*sc->c));
			sc->c[sc->nc++] = (struct hx_gcand){ base + i, ev->start[i], ev->start[i] + ev->dur[i], ev->track[i],
							     false };
		}
	if (!m->ranges.n)
		return;
	uint32_t t_comm = pt_strtab_find(&m->strings, "Communication", 13), t_op = pt_strtab_find(&m->strings, "Operator", 8);
	for (size_t k = 0; k < m->ranges.n; k++)
		info(sc, m, &m->ranges.v[k], t_comm, t_op);
}

void hx_gcomm_scan_free(struct hx_gcscan *sc)
{
	free(sc->nmark);
	free(sc->c);
	free(sc->x);
	memset(sc, 0, sizeof(*sc));
}

static void add_range(struct cst *s, uint32_t track, int64_t a, int64_t b)
{
	if (track >= s->m->tracks.n)
		return;
	struct pt_ival x = { a, b };
	pt_vec_push(&s->iv[track], x);
}

/* Read 1b: the ranges of the events in x. */
static int r1b_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct cst *s = arg;
	const struct pt_events *ev = &m->events;
	const struct hx_gcscan *sc = s->sc;
	for (size_t i = 0; i < ev->n && s->xp < sc->nx; i++) {
		uint64_t gi = s->base + i;
		while (s->xp < sc->nx && sc->x[s->xp] < gi)
			s->xp++;
		if (s->xp < sc->nx && sc->x[s->xp] == gi && ev->kind[i] == PT_EV_RANGE && ev->dur[i])
			add_range(s, ev->track[i], ev->start[i], ev->start[i] + ev->dur[i]);
	}
	s->base += ev->n;
	return 0;
}

static int r2_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct cst *s = arg;
	const struct pt_events *ev = &m->events;
	if (ev->n) {
		pt_bits_grow(&s->cbit, &s->cw, s->base + ev->n);
		for (size_t i = 0; i < ev->n; i++) {
			uint32_t tr = ev->track[i];
			uint64_t gi = s->base + i;
			if (tr < s->m->tracks.n && s->cr[tr].n && pt_ivset_contains(&s->cr[tr], ev->start[i]))
				pt_bits_set(s->cbit, gi);
		}
		s->base += ev->n;
	}
	struct hx_gcomm *o = s->o;
	if (m->links.n && !o->kbit) { /* the links follow the events */
		o->n = s->base;
		o->kbit = pt_xcalloc(o->n / 64 + 1, sizeof(*o->kbit));
	}
	for (size_t l = 0; l < m->links.n; l++) { /* a kernel's last link wins */
		const struct pt_gpu_link *lk = &m->links.v[l];
		if (lk->event >= o->n || lk->api >= o->n)
			continue;
		if (pt_bits_get(s->cbit, s->cw, lk->api))
			pt_bits_set(o->kbit, lk->event);
		else
			o->kbit[lk->event / 64] &= ~(UINT64_C(1) << (lk->event % 64));
	}
	m->links.n = 0;
	return 0;
}

/* Read 2 without launch links: the call of an id is the first API call with that id in the file, as the
 * whole load joins them, whichever process made it (each host's launch join that has the id: its slot). */
static int r2n_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct cst *s = arg;
	const struct pt_events *ev = &m->events;
	struct hx_gcomm *o = s->o;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !ev->corr[i])
			continue;
		int in = -1; /* (found once per call) */
		for (size_t k = 0; k < o->nj; k++) {
			size_t q = pt_ljoin_slot(o->js[k], ev->corr[i]);
			if (q >= o->ns[k] || pt_bits_get(s->seen[k], o->ns[k] / 64 + 1, q))
				continue;
			pt_bits_set(s->seen[k], q);
			if (in < 0) {
				uint32_t tr = ev->track[i];
				in = tr < s->m->tracks.n && s->cr[tr].n && pt_ivset_contains(&s->cr[tr], ev->start[i]);
			}
			if (in)
				pt_bits_set(o->sbit[k], q);
		}
	}
	return 0;
}

static int read_fresh(const struct pt_ptm_source *src, const struct pt_ptm_sink *k, unsigned skip_cols,
		      struct pt_err **e)
{
	struct pt_ptm_source own = { .path = src->path }; /* (no tape: it takes the links too) */
	struct pt_model *mo = pt_model_new();
	int rc = pt_ptm_source_read_cols(&own, mo, k, skip_cols, e);
	pt_model_free(mo);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

static void cst_free(struct cst *s)
{
	size_t nt = s->m->tracks.n;
	for (size_t t = 0; s->iv && t < nt; t++)
		pt_vec_free(&s->iv[t]);
	free(s->iv);
	for (size_t t = 0; s->cr && t < nt; t++)
		pt_ivset_free(&s->cr[t]);
	free(s->cr);
	free(s->cbit);
	for (size_t k = 0; s->seen && k < s->o->nj; k++)
		free(s->seen[k]);
	free(s->seen);
}

int hx_gcomm_read(const struct pt_ptm_source *src, struct pt_model *m, struct hx_gcscan *sc,
		  const struct pt_ljoin *const *js, size_t nj, struct hx_gcomm *o, struct pt_err **e)
{
	memset(o, 0, sizeof(*o));
	struct cst s;
	memset(&s, 0, sizeof(s));
	s.m = m;
	s.o = o;
	s.sc = sc;
	size_t nt = m->tracks.n;
	int rc = 0;
	s.iv = pt_xcalloc(nt ? nt : 1, sizeof(*s.iv));
	for (size_t q = 0; q < sc->nc; q++)
		if (sc->c[q].ok)
			add_range(&s, sc->c[q].track, sc->c[q].s, sc->c[q].e);
	free(sc->c);
	sc->c = NULL;
	sc->nc = sc->cc = 0;
	if (sc->nx) { /* read 1b: the other communication ranges */
		pt_sort(sc->x, sc->nx, sizeof(*sc->x), pt_u64_cmp);
		struct pt_ptm_sink k = { r1b_batch, &s, true, true };
		rc = pt_ptm_source_read_cols(src, m, &k, PT_PTM_NO_NAME | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	}
	s.cr = pt_xcalloc(nt ? nt : 1, sizeof(*s.cr));
	bool any = false;
	for (size_t t = 0; t < nt; t++) {
		pt_ivset_build(&s.cr[t], s.iv[t].v, s.iv[t].n);
		pt_vec_free(&s.iv[t]);
		any |= s.cr[t].n > 0;
	}
	/* read 2 without links: per activity id of the join, its first call's place */
	if (!rc && any && nj) {
		o->js = js;
		o->nj = nj;
		o->ns = pt_xmalloc(nj * sizeof(*o->ns));
		o->sbit = pt_xmalloc(nj * sizeof(*o->sbit));
		s.seen = pt_xmalloc(nj * sizeof(*s.seen));
		for (size_t k = 0; k < nj; k++) {
			o->ns[k] = js[k]->n;
			o->sbit[k] = pt_xcalloc(js[k]->n / 64 + 1, sizeof(**o->sbit));
			s.seen[k] = pt_xcalloc(js[k]->n / 64 + 1, sizeof(**s.seen));
		}
		struct pt_ptm_sink k2 = { r2n_batch, &s, true, true };
		rc = pt_ptm_source_read_cols(src, m, &k2, PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_OP | PT_PTM_NO_TASK,
					     e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	}
	/* read 2: the calls inside them, the kernels the links launch from there */
	else if (!rc && any) {
		s.base = 0;
		struct pt_ptm_sink k2 = { r2_batch, &s, false,
					  PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE | PT_PTM_STRINGS_COUNTED };
		rc = read_fresh(src, &k2, PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK,
				e);
	}
	cst_free(&s);
	if (rc)
		hx_gcomm_free(o);
	return rc;
}

void hx_gcomm_free(struct hx_gcomm *o)
{
	free(o->kbit);
	for (size_t k = 0; o->sbit && k < o->nj; k++)
		free(o->sbit[k]);
	free(o->sbit);
	free(o->ns);
	memset(o, 0, sizeof(*o));
}
