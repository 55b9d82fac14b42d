/* Kernels communication by where they were launched, streamed (pass-timeline-gcomm.h). */
#include "pass/pass-timeline-gcomm.h"

#include <stdlib.h>
#include <string.h>

#include "model/index.h"
#include "support/sort.h"
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

bool tl_gcomm_infos(struct tl_gcomm *c, const struct pt_model *m)
{
	for (size_t k = 0; k < m->ranges.n; k++) {
		const struct pt_range_info *ri = &m->ranges.v[k];
		if (!ri->type)
			continue;
		const char *t = pt_model_strget(m, ri->type);
		bool op = !strcmp(t, "Operator");
		if (strcmp(t, "Communication") && !op)
			continue;
		struct tl_gcand *x = cand_of(c, ri->event);
		if (op && (ri->label ? !pt_index_comm_op_name(pt_model_strget(m, ri->label)) : !x))
			continue; /* an operator that its label, else its name, does not make communication */
		if (!x)
			return false; /* communication by its type or label alone */
		if (!(ri->flags & PT_RANGE_INSTANT))
			x->ok = true;
	}
	return true;
}

bool tl_gcomm_links(struct tl_gcomm *c, struct pt_model *m)
{
	c->linked |= m->links.n > 0;
	if (!c->cand.n) {
		c->links_dropped |= m->links.n > 0;
		m->links.n = 0;
		return true;
	}
	if (c->links_dropped)
		return false;
	for (size_t l = 0; l < m->links.n; l++) {
		uint32_t ev = m->links.v[l].event;
		if ((size_t)ev / 8 >= c->nlseen) {
			size_t n = c->nlseen ? c->nlseen : 4096;
			while (n <= (size_t)ev / 8)
				n *= 2;
			c->lseen = pt_xrealloc(c->lseen, n);
			memset(c->lseen + c->nlseen, 0, n - c->nlseen);
			c->nlseen = n;
		}
		if (c->lseen[ev / 8] & (1u << (ev % 8)))
			return false; /* an activity linked twice: the whole load takes the last link */
		c->lseen[ev / 8] |= (uint8_t)(1u << (ev % 8));
		struct tl_glink x = { ev, m->links.v[l].api };
		pt_vec_push(&c->lk, x);
	}
	m->links.n = 0;
	return true;
}

bool tl_gcomm_seal(struct tl_gcomm *c, uint64_t nev, size_t ntracks)
{
	free(c->lseen);
	c->lseen = NULL;
	c->nlseen = 0;
	size_t nok = 0;
	for (size_t k = 0; k < c->cand.n; k++)
		nok += c->cand.v[k].ok && c->cand.v[k].dur && c->cand.v[k].track < ntracks;
	if (!nok) { /* no kernel is communication by where it was launched */
		pt_vec_free(&c->cand);
		pt_vec_free(&c->lk);
		return true;
	}
	if (c->links_dropped || !c->linked)
		return false; /* (without links the whole load joins by correlation id) */
	/* per track its ranges, then their union */
	size_t *off = pt_xcalloc(ntracks + 1, sizeof(*off));
	for (size_t k = 0; k < c->cand.n; k++) {
		const struct tl_gcand *x = &c->cand.v[k];
		if (x->ok && x->dur && x->track < ntracks)
			off[x->track + 1]++;
	}
	for (size_t t = 0; t < ntracks; t++)
		off[t + 1] += off[t];
	struct pt_ival *iv = pt_xmalloc(nok * sizeof(*iv));
	size_t *fill = pt_xmalloc((ntracks ? ntracks : 1) * sizeof(*fill));
	memcpy(fill, off, ntracks * sizeof(*fill));
	for (size_t k = 0; k < c->cand.n; k++) {
		const struct tl_gcand *x = &c->cand.v[k];
		if (x->ok && x->dur && x->track < ntracks)
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
	c->nin = (size_t)(nev / 8 + 1);
	c->in = pt_xcalloc(c->nin, 1);
	return true;
}

void tl_gcomm_call(struct tl_gcomm *c, uint64_t ev, uint32_t track, int64_t start)
{
	if (track < c->ncr && c->cr[track].n && ev / 8 < c->nin && pt_ivset_contains(&c->cr[track], start))
		c->in[ev / 8] |= (uint8_t)(1u << (ev % 8));
}

void tl_gcomm_resolve(struct tl_gcomm *c)
{
	if (!c->in)
		return;
	size_t n = 0;
	for (size_t l = 0; l < c->lk.n; l++) {
		uint32_t a = c->lk.v[l].api;
		if (a / 8 < c->nin && (c->in[a / 8] & (1u << (a % 8))))
			n++;
	}
	c->ck = pt_xmalloc((n ? n : 1) * sizeof(*c->ck));
	for (size_t l = 0; l < c->lk.n; l++) {
		uint32_t a = c->lk.v[l].api;
		if (a / 8 < c->nin && (c->in[a / 8] & (1u << (a % 8))))
			c->ck[c->nck++] = c->lk.v[l].ev;
	}
	pt_sort(c->ck, c->nck, sizeof(*c->ck), pt_u32_cmp);
	pt_vec_free(&c->lk);
	free(c->in);
	c->in = NULL;
	c->nin = 0;
	for (size_t t = 0; t < c->ncr; t++)
		pt_ivset_free(&c->cr[t]);
	free(c->cr);
	c->cr = NULL;
	c->ncr = 0;
}

bool tl_gcomm_kernel(const struct tl_gcomm *c, uint64_t ev)
{
	uint32_t k = (uint32_t)ev;
	return c->nck && k == ev && bsearch(&k, c->ck, c->nck, sizeof(*c->ck), pt_u32_cmp);
}

void tl_gcomm_free(struct tl_gcomm *c)
{
	pt_vec_free(&c->cand);
	pt_vec_free(&c->lk);
	free(c->lseen);
	free(c->in);
	for (size_t t = 0; t < c->ncr; t++)
		pt_ivset_free(&c->cr[t]);
	free(c->cr);
	free(c->ck);
	memset(c, 0, sizeof(*c));
}
