/* Kernels communication by where they were launched, streamed (pass-timeline-gcomm.h). */
#include "pass/pass-timeline-gcomm.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "model/ptm.h"
#include "support/bits.h"
#include "support/err.h"
#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

void tl_gcomm_range(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start, int64_t dur)
{
	struct tl_gcand x = { ev, start, dur, track, false };
	pt_vec_push(&c->cand, x);
}

/* The candidate of event ev (their ev, the first field, ascending in file order). */
static struct tl_gcand *cand_of(struct tl_gcomm *c, uint64_t ev)
{
	return c->cand.n ? bsearch(&ev, c->cand.v, c->cand.n, sizeof(*c->cand.v), pt_u64_cmp) : NULL;
}

void tl_gcomm_infos(struct tl_gcomm *c, const struct pt_model *m)
{
	for (size_t k = 0; k < m->ranges.n; k++) {
		const struct pt_range_info *ri = &m->ranges.v[k];
		if (!ri->type || (ri->flags & PT_RANGE_INSTANT))
			continue; /* (index.c reads no instant marker) */
		const char *t = pt_model_strget(m, ri->type);
		bool op = !strcmp(t, "Operator");
		if (strcmp(t, "Communication") && !op)
			continue;
		struct tl_gcand *x = cand_of(c, ri->event);
		if (op && (ri->label ? !pt_index_comm_op_name(pt_model_strget(m, ri->label)) : !x))
			continue; /* an operator that its label, else its name, does not make communication */
		if (x) {
			x->ok = true;
		} else { /* communication by its type or label alone: its place and time come with a read again */
			pt_bits_grow(&c->xb, &c->nxw, (uint64_t)ri->event + 1);
			pt_bits_set(c->xb, ri->event);
			c->xany = true;
		}
	}
}

static void lk_push(struct tl_glinks *k, uint32_t ev, uint32_t api)
{
	pt_xgrow((void **)&k->b, &k->cap, k->n + 20, 1);
	uint8_t *q = pt_varint_put(k->b + k->n, pt_zigzag((int64_t)ev - (int64_t)k->ev));
	q = pt_varint_put(q, pt_zigzag((int64_t)api - (int64_t)k->api));
	k->n = (size_t)(q - k->b);
	k->nl++;
	k->ev = ev;
	k->api = api;
}

/* The link at *at (the last one read in *x), advancing *at. */
static void lk_next(const struct tl_glinks *k, size_t *at, struct tl_glink *x)
{
	const uint8_t *q = k->b + *at;
	x->ev = (uint32_t)((int64_t)x->ev + pt_unzigzag(pt_varint_take(&q)));
	x->api = (uint32_t)((int64_t)x->api + pt_unzigzag(pt_varint_take(&q)));
	*at = (size_t)(q - k->b);
}

static void lk_free(struct tl_glinks *k)
{
	free(k->b);
	memset(k, 0, sizeof(*k));
}

void tl_gcomm_links(struct tl_gcomm *c, struct pt_model *m)
{
	c->linked |= m->links.n > 0;
	if (!c->relink && (!c->cand.n || c->links_dropped)) { /* (a read again takes them all, if need be) */
		c->links_dropped |= m->links.n > 0;
		m->links.n = 0;
		return;
	}
	for (size_t l = 0; l < m->links.n; l++) {
		uint32_t ev = m->links.v[l].event;
		pt_bits_grow(&c->lseen, &c->nlseen, (uint64_t)ev + 1);
		if (pt_bits_get(c->lseen, c->nlseen, ev))
			c->dup = true; /* an activity linked twice: the last link wins (tl_gcomm_resolve) */
		pt_bits_set(c->lseen, ev);
		lk_push(&c->lk, ev, m->links.v[l].api);
	}
	m->links.n = 0;
}

/* The confirmed candidates on a track (of ntracks) with a length. */
static bool counts(const struct tl_gcand *x, size_t ntracks)
{
	return x->ok && x->dur && x->track < ntracks;
}

bool tl_gcomm_seal(struct tl_gcomm *c, uint64_t nev, size_t ntracks, bool corr_join)
{
	c->nev = nev;
	c->ntracks = ntracks;
	c->corr_join = corr_join;
	bool any = c->xany;
	for (size_t k = 0; k < c->cand.n && !any; k++)
		any = counts(&c->cand.v[k], ntracks);
	if (any && (c->xany || c->links_dropped)) {
		c->more = true; /* tl_gcomm_reread, then tl_gcomm_build */
		return true;
	}
	return tl_gcomm_build(c);
}

/* The read again (tl_gcomm_reread): the places and times of the ranges that their range info alone makes
 * communication, and every launch link where some were dropped. */
static int reread(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct tl_gcomm *c = arg;
	if (m->links.n)
		tl_gcomm_links(c, m);
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; c->xany && i < ev->n; i++)
		if (ev->kind[i] == PT_EV_RANGE && pt_bits_get(c->xb, c->nxw, c->rbase + i)) {
			struct tl_gcand x = { c->rbase + i, ev->start[i], ev->dur[i], ev->track[i], true };
			pt_vec_push(&c->cand, x);
		}
	c->rbase += ev->n;
	return 0;
}

int tl_gcomm_reread(struct tl_gcomm *c, const char *path, struct pt_err **e)
{
	c->relink = c->links_dropped;
	if (c->relink) { /* every link again, in the file's order */
		c->lk.n = c->lk.nl = 0;
		c->lk.ev = c->lk.api = 0;
		c->dup = false;
		if (c->lseen)
			memset(c->lseen, 0, c->nlseen * sizeof(*c->lseen));
	}
	c->rbase = 0;
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink sink = { reread, c, false,
				    1 | (c->relink ? PT_PTM_SKIP_BUT_LINKS | PT_PTM_LINKS_BATCHWISE : 0) };
	int rc = pt_ptm_read_stream(path, m, &sink, e);
	pt_model_free(m);
	if (rc > 0)
		return pt_err(e, "'%s' changed while it was read", path);
	if (!rc && c->rbase != c->nev)
		return pt_err(e, "'%s' changed while it was read", path);
	c->links_dropped = false;
	c->relink = false;
	free(c->xb);
	c->xb = NULL;
	c->nxw = 0;
	c->xany = false;
	c->more = false;
	return rc;
}

bool tl_gcomm_build(struct tl_gcomm *c)
{
	size_t ntracks = c->ntracks;
	if (!c->dup) {
		free(c->lseen);
		c->lseen = NULL;
		c->nlseen = 0;
	}
	size_t nok = 0;
	for (size_t k = 0; k < c->cand.n; k++)
		nok += counts(&c->cand.v[k], ntracks);
	if (!nok) { /* no kernel is communication by where it was launched */
		pt_vec_free(&c->cand);
		lk_free(&c->lk);
		return true;
	}
	if (c->links_dropped)
		return false; /* (tl_gcomm_reread takes them) */
	if (!c->linked) { /* the kernels join their calls by correlation id, the first call of an id */
		if (!c->corr_join)
			return false;
		c->bycorr = true;
	}
	/* per track its ranges, then their union */
	size_t *off = pt_xcalloc(ntracks + 1, sizeof(*off));
	for (size_t k = 0; k < c->cand.n; k++) {
		const struct tl_gcand *x = &c->cand.v[k];
		if (counts(x, ntracks))
			off[x->track + 1]++;
	}
	for (size_t t = 0; t < ntracks; t++)
		off[t + 1] += off[t];
	struct pt_ival *iv = pt_xmalloc(nok * sizeof(*iv));
	size_t *fill = pt_xmalloc((ntracks ? ntracks : 1) * sizeof(*fill));
	memcpy(fill, off, ntracks * sizeof(*fill));
	for (size_t k = 0; k < c->cand.n; k++) {
		const struct tl_gcand *x = &c->cand.v[k];
		if (counts(x, ntracks))
			iv[fill[x->track]++] = (struct pt_ival){ x->s, x->s + x->dur };
	}
	free(fill);
	pt_vec_free(&c->cand);
	c->ncr = ntracks;
	c->cr = pt_xcalloc(ntracks ? ntracks : 1, sizeof(*c->cr));
	for (size_t t = 0; t < ntracks; t++)
		if (off[t + 1] > off[t])
			pt_ivset_build(&c->cr[t], iv + off[t], off[t + 1] - off[t]);
	free(iv);
	free(off);
	if (!c->bycorr) {
		c->nin = (size_t)(c->nev / 8 + 1);
		c->in = pt_xcalloc(c->nin, 1);
	}
	return true;
}

/* Does a call on track at start start inside its thread's union? */
static bool inside(const struct tl_gcomm *c, uint32_t track, int64_t start)
{
	return track < c->ncr && c->cr[track].n && pt_ivset_contains(&c->cr[track], start);
}

void tl_gcomm_call(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start)
{
	if (ev / 8 < c->nin && inside(c, track, start))
		c->in[ev / 8] |= (uint8_t)(1u << (ev % 8));
}

void tl_gcomm_first_call(struct tl_gcomm *c, size_t slot, uint32_t track, int64_t start)
{
	if (inside(c, track, start)) {
		pt_bits_grow(&c->cs, &c->ncs, (uint64_t)slot + 1);
		pt_bits_set(c->cs, slot);
	}
}

/* Does a link to call a name a marked call? */
static bool marked(const struct tl_gcomm *c, uint32_t a)
{
	return a / 8 < c->nin && (c->in[a / 8] & (1u << (a % 8)));
}

/* The kernels whose link names a marked call (into ck where not NULL): how many. With an activity linked
 * twice, the last link of each wins, as the whole load's join has it: the links from the end. */
static size_t walk(struct tl_gcomm *c, uint32_t *ck)
{
	size_t n = 0;
	struct tl_glink x = { 0, 0 };
	size_t at = 0;
	if (!c->dup) {
		for (size_t l = 0; l < c->lk.nl; l++) {
			lk_next(&c->lk, &at, &x);
			if (marked(c, x.api)) {
				if (ck)
					ck[n] = x.ev;
				n++;
			}
		}
		return n;
	}
	struct tl_glink *v = pt_xmalloc((c->lk.nl ? c->lk.nl : 1) * sizeof(*v)); /* (from the end: unpacked) */
	for (size_t l = 0; l < c->lk.nl; l++) {
		lk_next(&c->lk, &at, &x);
		v[l] = x;
	}
	memset(c->lseen, 0, c->nlseen * sizeof(*c->lseen));
	for (size_t l = c->lk.nl; l-- > 0;) {
		uint32_t ev = v[l].ev;
		if (pt_bits_get(c->lseen, c->nlseen, ev))
			continue;
		pt_bits_set(c->lseen, ev);
		if (marked(c, v[l].api)) {
			if (ck)
				ck[n] = ev;
			n++;
		}
	}
	free(v);
	return n;
}

void tl_gcomm_resolve(struct tl_gcomm *c)
{
	for (size_t t = 0; t < c->ncr; t++)
		pt_ivset_free(&c->cr[t]);
	free(c->cr);
	c->cr = NULL;
	c->ncr = 0;
	if (!c->in)
		return;
	size_t n = walk(c, NULL);
	c->ck = pt_xmalloc((n ? n : 1) * sizeof(*c->ck));
	c->nck = walk(c, c->ck);
	pt_sort(c->ck, c->nck, sizeof(*c->ck), pt_u32_cmp);
	lk_free(&c->lk);
	free(c->lseen);
	c->lseen = NULL;
	c->nlseen = 0;
	free(c->in);
	c->in = NULL;
	c->nin = 0;
}

bool tl_gcomm_kernel(const struct tl_gcomm *c, uint64_t ev)
{
	uint32_t k = (uint32_t)ev;
	return c->nck && k == ev && bsearch(&k, c->ck, c->nck, sizeof(*c->ck), pt_u32_cmp);
}

bool tl_gcomm_kernel_slot(const struct tl_gcomm *c, size_t slot)
{
	return pt_bits_get(c->cs, c->ncs, slot);
}

void tl_gcomm_free(struct tl_gcomm *c)
{
	pt_vec_free(&c->cand);
	lk_free(&c->lk);
	free(c->lseen);
	free(c->xb);
	free(c->in);
	for (size_t t = 0; t < c->ncr; t++)
		pt_ivset_free(&c->cr[t]);
	free(c->cr);
	free(c->ck);
	free(c->cs);
	memset(c, 0, sizeof(*c));
}
