/*
 * The launch pairs' delays and call durations of a streamed GPU device
 * (gstream.c), held for the order statistics LAUNCH_DELAY and
 * RUNTIME_OUTLIER print (hx_pctile's p50 and p99, and the largest): the
 * values come in runs of HX_QRUN, each sorted and kept as its first value and
 * the differences to the next (varints: a byte or two a value where the
 * values lie close), and the wanted ranks are taken by merging the runs.
 */
#define _GNU_SOURCE /* qsort_r (hints-int.h) */
#include "pass/hints/hints-int.h"

#include <stdlib.h>
#include <string.h>

#include "support/sort.h"
#include "support/varint.h"
#include "support/xalloc.h"

/* Values a run (the tests set PT_TEST_HINTS_QRUN to merge several runs on small models). */
#define HX_QRUN 16384

static size_t run_len(void)
{
	static size_t n;
	if (!n) {
		const char *t = getenv("PT_TEST_HINTS_QRUN");
		n = t && strtoull(t, NULL, 10) ? (size_t)strtoull(t, NULL, 10) : HX_QRUN;
	}
	return n;
}

/* The buffered values to a run. */
static void seal(struct hx_qvals *q)
{
	if (!q->nb)
		return;
	pt_sort(q->buf, q->nb, sizeof(*q->buf), pt_i64_cmp);
	pt_xgrow((void **)&q->run, &q->crun, q->nrun + 1, sizeof(*q->run));
	q->run[q->nrun++] = (struct hx_qrun){ q->nz, q->nb };
	pt_xgrow((void **)&q->z, &q->cz, q->nz + 10 * q->nb, 1);
	uint8_t *p = q->z + q->nz;
	int64_t prev = 0;
	for (size_t i = 0; i < q->nb; i++) {
		p = pt_varint_put(p, i ? (uint64_t)(q->buf[i] - prev) : pt_zigzag(q->buf[i]));
		prev = q->buf[i];
	}
	q->nz = (size_t)(p - q->z);
	q->nb = 0;
}

void hx_qvals_add(struct hx_qvals *q, int64_t v)
{
	if (!q->buf)
		q->buf = pt_xmalloc(run_len() * sizeof(*q->buf));
	q->buf[q->nb++] = v;
	q->n++;
	if (q->nb == run_len())
		seal(q);
}

/* A run being merged: its next value, where the one after it is, how many are left after it. */
struct cur {
	int64_t v;
	const uint8_t *p;
	size_t left;
};

static void sift(struct cur *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && h[l].v < h[m].v)
			m = l;
		if (l + 1 < n && h[l + 1].v < h[m].v)
			m = l + 1;
		if (m == i)
			return;
		struct cur t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

void hx_qvals_take(struct hx_qvals *q, int64_t out[3])
{
	memset(out, 0, 3 * sizeof(*out));
	seal(q);
	free(q->buf);
	q->buf = NULL;
	size_t n = q->n;
	if (n) {
		size_t want[3] = { (50 * n + 99) / 100, (99 * n + 99) / 100, n }; /* hx_pctile's ranks, the last */
		for (int k = 0; k < 2; k++)
			if (want[k] < 1)
				want[k] = 1;
		struct cur *h = pt_xmalloc(q->nrun * sizeof(*h));
		size_t nh = 0;
		for (size_t r = 0; r < q->nrun; r++) {
			const uint8_t *p = q->z + q->run[r].at;
			int64_t v = pt_unzigzag(pt_varint_take(&p));
			h[nh++] = (struct cur){ v, p, q->run[r].n - 1 };
		}
		for (size_t i = nh; i-- > 0;)
			sift(h, nh, i);
		int k = 0;
		for (size_t rank = 1; k < 3 && nh; rank++) {
			int64_t v = h[0].v;
			while (k < 3 && want[k] == rank)
				out[k++] = v;
			if (h[0].left) {
				h[0].v = v + (int64_t)pt_varint_take(&h[0].p);
				h[0].left--;
			} else {
				h[0] = h[--nh];
			}
			sift(h, nh, 0);
		}
		free(h);
	}
	hx_qvals_free(q);
}

void hx_qvals_free(struct hx_qvals *q)
{
	free(q->buf);
	free(q->z);
	free(q->run);
	memset(q, 0, sizeof(*q));
}
