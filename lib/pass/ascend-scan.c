/* The first read of a streamed Ascend model (ascend-scan.h). */
#include "pass/ascend-scan.h"

#include <stdlib.h>
#include <string.h>

#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-steps.h"
#include "support/err.h"
#include "support/xalloc.h"

bool pt_ascan_streamable(const struct pt_model *m)
{
	for (size_t i = 0; i < m->devices.n; i++)
		if (m->devices.v[i].kind == PT_DEV_CPU || m->devices.v[i].kind == PT_DEV_GPU)
			return false;
	return !m->ranges.n && !m->links.n;
}

bool pt_ascan_mixed(const struct pt_model *m)
{
	bool npu = false;
	for (size_t i = 0; i < m->devices.n; i++) {
		int k = m->devices.v[i].kind;
		if (k != PT_DEV_NPU && k != PT_DEV_CPU && k != PT_DEV_GPU)
			return false;
		npu |= k == PT_DEV_NPU;
	}
	return npu;
}

int pt_ascan_first_rc(int rc, const struct pt_model *m, size_t nbatch, const struct pt_ptm_source *src,
		      struct pt_err **e)
{
	if (!rc && !pt_ascan_streamable(m)) /* known only after the events (or no event batch at all) */
		return nbatch ? PT_ASCAN_AGAIN : PT_PTM_WHOLE;
	if (rc == PT_PTM_STOP) /* side tables of a model that is not streamed */
		return pt_err(e, "'%s': unexpected CUPTI tables in an Ascend model", pt_ptm_source_name(src));
	return rc < 0 ? -1 : rc;
}

void pt_ascan_init(struct pt_ascan *a, unsigned what)
{
	memset(a, 0, sizeof(*a));
	a->what = what;
}

void pt_ascan_free(struct pt_ascan *a)
{
	free(a->trk);
	free(a->dev);
	free(a->rep);
	memset(a, 0, sizeof(*a));
}

void pt_ascan_fit(struct pt_ascan *a, const struct pt_model *m)
{
	if (m->tracks.n > a->ntrk) {
		size_t n = m->tracks.n, o = a->ntrk;
		a->trk = pt_xrealloc(a->trk, n * sizeof(*a->trk));
		memset(a->trk + o, 0, (n - o) * sizeof(*a->trk));
		if (a->what & PT_ASCAN_REPS) {
			a->rep = pt_xrealloc(a->rep, n * PT_ASCAN_NKIND * sizeof(*a->rep));
			memset(a->rep + o * PT_ASCAN_NKIND, 0, (n - o) * PT_ASCAN_NKIND * sizeof(*a->rep));
		}
		a->ntrk = n;
	}
	if ((a->what & PT_ASCAN_DEV) && m->devices.n > a->ndev) {
		a->dev = pt_xrealloc(a->dev, m->devices.n * sizeof(*a->dev));
		memset(a->dev + a->ndev, 0, (m->devices.n - a->ndev) * sizeof(*a->dev));
		a->ndev = m->devices.n;
	}
}

static void rep_add(struct pt_ascan_rep *r, int64_t s, int64_t d)
{
	if (!r->has) {
		r->has = true;
		for (int k = 0; k < 3; k++)
			r->s[k] = s, r->d[k] = d;
		return;
	}
	if (s < r->s[0])
		r->s[0] = s, r->d[0] = d;
	if (s > r->s[1])
		r->s[1] = s, r->d[1] = d;
	if (s + d > r->s[2] + r->d[2])
		r->s[2] = s, r->d[2] = d;
}

void pt_ascan_batch(struct pt_ascan *a, const struct pt_model *m)
{
	pt_ascan_fit(a, m);
	const struct pt_events *ev = &m->events;
	bool dev = a->what & PT_ASCAN_DEV, lag = a->what & PT_ASCAN_LAG, reps = a->what & PT_ASCAN_REPS;
	for (size_t i = 0; i < ev->n; i++) {
		uint32_t tr = ev->track[i];
		uint8_t k = ev->kind[i];
		int64_t st = ev->start[i], en = st + ev->dur[i];
		if (dev)
			pt_steps_devscan_add(&a->dev[m->tracks.v[tr].device], k, st, ev->dur[i]);
		if (!a->has_ev || st < a->ev_s)
			a->ev_s = st;
		if (!a->has_ev || en > a->ev_e)
			a->ev_e = en;
		a->has_ev = true;
		if (lag && pt_ascan_is_dev_task(k))
			pt_lag_add(&a->trk[tr].lag, st);
		if (k == PT_EV_TASK && ev->op[i])
			a->trk[tr].named = true;
		if (reps && k < PT_ASCAN_NKIND)
			rep_add(&a->rep[(size_t)tr * PT_ASCAN_NKIND + k], st, ev->dur[i]);
	}
	a->nev += ev->n;
}

struct pt_ascan_next *pt_ascan_next_new(const struct pt_ascan *a)
{
	struct pt_ascan_next *t = pt_xcalloc(a->ntrk ? a->ntrk : 1, sizeof(*t));
	for (size_t i = 0; i < a->ntrk; i++)
		t[i].left = a->trk[i].lag.count;
	return t;
}

int64_t pt_ascan_watermark(const struct pt_ascan *a, const struct pt_ascan_next *t, const uint32_t *trk, size_t n)
{
	int64_t w = INT64_MAX;
	for (size_t j = 0; j < n; j++) {
		const struct pt_ascan_next *x = &t[trk[j]];
		const struct pt_lag *lag = &a->trk[trk[j]].lag;
		if (!x->left)
			continue;
		int64_t v = pt_lag_floor(lag, x->seen, x->top);
		if (v < w)
			w = v;
	}
	return w;
}
