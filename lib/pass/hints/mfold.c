/*
 * MEM_OPS_CRITICAL's figures of the member memory operations, folded one
 * operation at a time once its exposed time is final (rules-device.c reads
 * them): the operations with exposed time, per kind its exposed time and the
 * earliest place of an operation of it (the kinds are listed in that order),
 * and the three with the most exposed time (equal times by event). The
 * in-memory pass folds its list in its order; the streamed GPU read folds each
 * operation as the windows it meets are measured, placed by the first window
 * it meets, its start and its event, the order of the in-memory list.
 */
#define _GNU_SOURCE /* qsort_r (hints-int.h) */
#include "pass/hints/hints-int.h"

#include <stdlib.h>
#include <string.h>

#include "support/sort.h"
#include "support/xalloc.h"

static bool key_lt(const struct hx_mkey *a, const struct hx_mkey *b)
{
	if (a->w != b->w)
		return a->w < b->w;
	if (a->start != b->start)
		return a->start < b->start;
	return a->ev < b->ev;
}

/* a before b in MEM_OPS_CRITICAL's list: more exposed time, then the earlier event */
static bool top_lt(const struct memop *a, const struct memop *b)
{
	if (a->exposed != b->exposed)
		return a->exposed > b->exposed;
	return a->ev < b->ev;
}

void hx_mfold_add(struct hx_mfold *f, const struct memop *p, struct hx_mkey key)
{
	if (!p->exposed)
		return;
	f->nexp++;
	size_t q = 0;
	while (q < f->nk && strcmp(f->kinds[q].kind, p->kind))
		q++;
	if (q == f->nk) {
		pt_xgrow((void **)&f->kinds, &f->ck, f->nk + 1, sizeof(*f->kinds));
		f->kinds[f->nk++] = (struct hx_mkind){ p->kind, 0, key };
	}
	struct hx_mkind *k = &f->kinds[q];
	k->t += p->exposed;
	if (key_lt(&key, &k->first))
		k->first = key;
	size_t at = f->ntop;
	while (at > 0 && top_lt(p, &f->top[at - 1]))
		at--;
	if (at >= 3)
		return;
	if (f->ntop < 3)
		f->ntop++;
	memmove(&f->top[at + 1], &f->top[at], (f->ntop - 1 - at) * sizeof(*f->top));
	f->top[at] = *p;
}

void hx_mfold_list(struct hx_mfold *f, const struct memop *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hx_mfold_add(f, &v[i], (struct hx_mkey){ (uint64_t)i, 0, 0 });
}

static int cmp_kind(const void *pa, const void *pb)
{
	const struct hx_mkind *a = pa, *b = pb;
	return key_lt(&a->first, &b->first) ? -1 : key_lt(&b->first, &a->first);
}

void hx_mfold_order(struct hx_mfold *f)
{
	pt_sort(f->kinds, f->nk, sizeof(*f->kinds), cmp_kind);
}

void hx_mfold_free(struct hx_mfold *f)
{
	free(f->kinds);
	memset(f, 0, sizeof(*f));
}
