/* The streamed GPU timeline's stragglers in columns (pass-timeline-gstrag.h). */
#include "pass/pass-timeline-gstrag.h"

#include <string.h>

#include "model/model.h"
#include "support/xalloc.h"

#define SG_KIND 0x0fu
#define SG_KEEP_SHIFT 4
#define SG_X 0x40u

#define GROW(col, n) ((col) = pt_xbig_grow((col), g->cap * sizeof(*(col)), (n) * sizeof(*(col)), true))

static void grow_to(struct tl_strags *g, size_t n)
{
	if (n <= g->cap)
		return;
	GROW(g->st, n);
	GROW(g->ev, n);
	GROW(g->name, n);
	GROW(g->du, n);
	GROW(g->corr, n);
	GROW(g->aux, n);
	GROW(g->fl, n);
	g->cap = n;
}

void tl_strags_reserve(struct tl_strags *g, size_t n)
{
	grow_to(g, n);
}

void tl_strags_push(struct tl_strags *g, const struct tl_sev *v, uint32_t tr)
{
	if (g->n == g->cap)
		grow_to(g, g->cap < 1024 ? 1024 : g->cap + g->cap / 2);
	size_t k = g->n++;
	g->st[k] = v->start;
	g->ev[k] = v->ev;
	g->name[k] = v->name;
	g->aux[k] = tr;
	g->fl[k] = (uint8_t)(v->kind & SG_KIND);
	bool fits = v->dur >= 0 && v->dur < UINT32_MAX && v->corr <= UINT32_MAX && !v->task && !v->op &&
		    !v->kconf && !v->kx;
	g->du[k] = fits ? (uint32_t)v->dur : 0;
	g->corr[k] = fits ? (uint32_t)v->corr : 0;
	if (fits)
		return;
	g->fl[k] |= SG_X;
	pt_xgrow((void **)&g->x, &g->xcap, g->nx + 1, sizeof(*g->x));
	g->x[g->nx++] = (struct tl_sgx){ v->task, v->corr, v->dur, (uint32_t)k, v->op, v->kconf, v->kx };
}

void tl_strags_set(struct tl_strags *g, size_t k, uint32_t step, uint8_t keep)
{
	g->aux[k] = step;
	g->fl[k] = (uint8_t)((g->fl[k] & ~(3u << SG_KEEP_SHIFT)) | (unsigned)(keep & 3) << SG_KEEP_SHIFT);
}

void tl_strags_get(const struct tl_strags *g, size_t k, struct tl_sev *v)
{
	uint8_t f = g->fl[k];
	*v = (struct tl_sev){ .start = g->st[k], .dur = g->du[k], .corr = g->corr[k], .name = g->name[k],
			      .step = g->aux[k], .kind = f & SG_KIND, .keep = (f >> SG_KEEP_SHIFT) & 3, .ev = g->ev[k] };
	if (!(f & SG_X))
		return;
	size_t lo = 0, hi = g->nx; /* (the side table is in straggler order) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->x[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct tl_sgx *x = &g->x[lo];
	v->task = x->task;
	v->corr = x->corr;
	v->dur = x->dur;
	v->op = x->op;
	v->kconf = x->kconf;
	v->kx = x->kx;
}

#define FREE(col) (pt_xbig_free((col), g->cap * sizeof(*(col))))

void tl_strags_free(struct tl_strags *g)
{
	FREE(g->st);
	FREE(g->ev);
	FREE(g->name);
	FREE(g->du);
	FREE(g->corr);
	FREE(g->aux);
	FREE(g->fl);
	free(g->x);
	memset(g, 0, sizeof(*g));
}
