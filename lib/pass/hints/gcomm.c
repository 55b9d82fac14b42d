/*
 * The kernels of a GPU .ptm file that are communication by where they were
 * launched (summary.md §2.5; in memory: model/index.c classify_attributed),
 * for the streamed pass (gstream.c), without holding the events, the links
 * or the range infos: a kernel whose launching call (its last launch link's)
 * starts inside a communication host range of the call's thread (a range of
 * type Communication, or an Operator range whose label, else name, is a
 * communication name; neither instant nor empty). The range infos, the links
 * and the event arguments follow every event in the file. Two reads, a third
 * when a range info makes a range communication that is not named as one:
 *
 *  1. the events and the range infos, a batch at a time: each non-empty range
 *     named as communication (its event, thread, start and end: a candidate);
 *     then each range info of type Communication, or Operator, confirms the
 *     candidate of its event (an Operator range without a label takes its name)
 *     or, when its event is none, keeps the event for read 1b;
 *  1b. (those events only) the events alone, for their thread, start and end;
 *  2. the events and the launch links, a batch at a time: a bit per event that
 *     starts inside the communication ranges of its thread (the union per
 *     thread), then per link in file order its kernel's bit, which the last
 *     link of a kernel sets.
 *
 * What stays for the device read: a bit per event. What the reads hold: the
 * candidates (32 bytes each) and the ranges' unions per thread, two bits per
 * event during read 2.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <string.h>

#include "model/index.h"
#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "support/err.h"
#include "support/interval.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

/* A range named as communication. */
struct cand {
	uint64_t ev;
	int64_t s, e;
	uint32_t track;
	bool ok; /* a range info made it communication */
};

struct cst {
	const struct pt_model *m; /* the kept model: its strings, its tracks */
	uint32_t t_comm, t_op;    /* the string ids of the types Communication and Operator (UINT32_MAX: none) */
	uint8_t *nmark;           /* per string: 0 not seen, 1 not a communication name, 2 one */
	uint64_t base;
	PT_VEC(struct cand) c;    /* in event order */
	PT_VEC(uint64_t) x;       /* events a range info makes communication that are no candidate */
	size_t xp;
	PT_VEC(struct pt_ival) *iv; /* per track: its communication ranges (read 1b) */
	struct pt_ivset *cr;        /* per track: their union */
	uint64_t *cbit;             /* read 2: per event, it starts inside the ranges of its track */
	size_t cw;
	struct hx_gcomm *o;
};

static bool comm_name(struct cst *s, const struct pt_model *m, uint32_t nm)
{
	uint8_t one = 0, *k = nm < s->m->strings.n ? &s->nmark[nm] : &one;
	if (!*k)
		*k = pt_index_comm_op_name(pt_model_strget(m, nm)) ? 2 : 1;
	return *k == 2;
}

static struct cand *cand_of(struct cst *s, uint64_t ev)
{
	size_t lo = 0, hi = s->c.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->c.v[mid].ev < ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->c.n && s->c.v[lo].ev == ev ? &s->c.v[lo] : NULL;
}

static void info(struct cst *s, const struct pt_model *m, const struct pt_range_info *ri)
{
	if (!ri->type || (ri->flags & PT_RANGE_INSTANT) || (ri->type != s->t_comm && ri->type != s->t_op))
		return;
	struct cand *c = cand_of(s, ri->event);
	if (ri->type == s->t_op && !ri->label) { /* its name: a candidate when a communication name */
		if (c)
			c->ok = true;
		return;
	}
	if (ri->type == s->t_op && !comm_name(s, m, ri->label))
		return;
	if (c)
		c->ok = true;
	else
		pt_vec_push(&s->x, (uint64_t)ri->event);
}

static int r1_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct cst *s = arg;
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_RANGE && ev->dur[i] && comm_name(s, m, ev->name[i])) {
			struct cand c = { s->base + i, ev->start[i], ev->start[i] + ev->dur[i], ev->track[i], false };
			pt_vec_push(&s->c, c);
		}
	s->base += ev->n;
	for (size_t k = 0; k < m->ranges.n; k++)
		info(s, m, &m->ranges.v[k]);
	m->ranges.n = 0;
	return 0;
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
	for (size_t i = 0; i < ev->n && s->xp < s->x.n; i++) {
		uint64_t gi = s->base + i;
		while (s->xp < s->x.n && s->x.v[s->xp] < gi)
			s->xp++;
		if (s->xp < s->x.n && s->x.v[s->xp] == gi && ev->kind[i] == PT_EV_RANGE && ev->dur[i])
			add_range(s, ev->track[i], ev->start[i], ev->start[i] + ev->dur[i]);
	}
	s->base += ev->n;
	return 0;
}

static bool bit(const uint64_t *v, uint64_t n, uint64_t i)
{
	return i < n && (v[i / 64] >> (i % 64) & 1);
}

static int r2_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct cst *s = arg;
	const struct pt_events *ev = &m->events;
	if (ev->n) {
		size_t words = (size_t)((s->base + ev->n) / 64 + 1);
		if (words > s->cw) {
			size_t old = s->cw;
			pt_xgrow((void **)&s->cbit, &s->cw, words, sizeof(*s->cbit));
			memset(s->cbit + old, 0, (s->cw - old) * sizeof(*s->cbit));
		}
		for (size_t i = 0; i < ev->n; i++) {
			uint32_t tr = ev->track[i];
			uint64_t gi = s->base + i;
			if (tr < s->m->tracks.n && s->cr[tr].n && pt_ivset_contains(&s->cr[tr], ev->start[i]))
				s->cbit[gi / 64] |= UINT64_C(1) << (gi % 64);
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
		if (bit(s->cbit, s->base, lk->api))
			o->kbit[lk->event / 64] |= UINT64_C(1) << (lk->event % 64);
		else
			o->kbit[lk->event / 64] &= ~(UINT64_C(1) << (lk->event % 64));
	}
	m->links.n = 0;
	return 0;
}

static int read_fresh(const struct pt_ptm_source *src, const struct pt_ptm_sink *k, unsigned skip_cols,
		      struct pt_err **e)
{
	struct pt_ptm_source own = { .path = src->path }; /* (no tape: these reads take tables too) */
	struct pt_model *mo = pt_model_new();
	int rc = pt_ptm_source_read_cols(&own, mo, k, skip_cols, e);
	if (!rc) { /* the last range infos stay in the model (PT_PTM_RANGES_BATCHWISE) */
		mo->events.n = 0;
		rc = k->batch(k->arg, mo, e);
	}
	pt_model_free(mo);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	return rc;
}

static void cst_free(struct cst *s)
{
	size_t nt = s->m->tracks.n;
	free(s->nmark);
	pt_vec_free(&s->c);
	pt_vec_free(&s->x);
	for (size_t t = 0; s->iv && t < nt; t++)
		pt_vec_free(&s->iv[t]);
	free(s->iv);
	for (size_t t = 0; s->cr && t < nt; t++)
		pt_ivset_free(&s->cr[t]);
	free(s->cr);
	free(s->cbit);
}

int hx_gcomm_read(const struct pt_ptm_source *src, struct pt_model *m, struct hx_gcomm *o, struct pt_err **e)
{
	memset(o, 0, sizeof(*o));
	struct cst s;
	memset(&s, 0, sizeof(s));
	s.m = m;
	s.o = o;
	s.t_comm = pt_strtab_find(&m->strings, "Communication", 13);
	s.t_op = pt_strtab_find(&m->strings, "Operator", 8);
	s.nmark = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	size_t nt = m->tracks.n;
	/* read 1: the ranges named as communication, the range infos */
	struct pt_ptm_sink k1 = { r1_batch, &s, false, PT_PTM_SKIP_BUT_RANGES | PT_PTM_RANGES_BATCHWISE };
	int rc = read_fresh(src, &k1, PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
	s.iv = pt_xcalloc(nt ? nt : 1, sizeof(*s.iv));
	for (size_t q = 0; !rc && q < s.c.n; q++)
		if (s.c.v[q].ok)
			add_range(&s, s.c.v[q].track, s.c.v[q].s, s.c.v[q].e);
	pt_vec_free(&s.c);
	if (!rc && s.x.n) { /* read 1b: the other communication ranges */
		pt_sort(s.x.v, s.x.n, sizeof(*s.x.v), pt_u64_cmp);
		s.base = 0;
		struct pt_ptm_sink k = { r1b_batch, &s, true, true };
		rc = pt_ptm_source_read_cols(src, m, &k, PT_PTM_NO_NAME | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", pt_ptm_source_name(src));
	}
	pt_vec_free(&s.x);
	s.cr = pt_xcalloc(nt ? nt : 1, sizeof(*s.cr));
	bool any = false;
	for (size_t t = 0; t < nt; t++) {
		pt_ivset_build(&s.cr[t], s.iv[t].v, s.iv[t].n);
		pt_vec_free(&s.iv[t]);
		any |= s.cr[t].n > 0;
	}
	/* read 2: the calls inside them, the kernels the links launch from there */
	if (!rc && any) {
		s.base = 0;
		struct pt_ptm_sink k2 = { r2_batch, &s, false, PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE };
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
	memset(o, 0, sizeof(*o));
}
