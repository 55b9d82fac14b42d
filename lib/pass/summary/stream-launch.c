/*
 * The launch reads of the streaming summary (stream.c): each device activity
 * of a streamed GPU rank gets its launching call (struct sum_launch) without
 * the model's events held, for what reads it (view.h SV_LAUNCH: the memcpy
 * and gpu views; membership under --steps and --time-window, whose anchor is
 * the launching call's start, summary.md §2.1). The rule is the in-memory
 * one (ranks.c, sum_gpu_prepare step 4), for a model of one process or of
 * several (a rank each: its CPU device and its GPUs, by pid):
 *
 *  - a file with launch links: an activity's link names its call (links to
 *    or from events outside the rank are dropped: the model reader rejects
 *    a link whose call is not on the CPU device of the activity's process,
 *    proftool-model(5), so no link of a file crosses ranks, and a GPU that
 *    --device leaves out has no activity here);
 *  - otherwise the correlation id: the last call of the rank with the
 *    activity's id, in model order (each process numbers its own: the join
 *    is keyed by id and rank, id x ranks + rank, the id itself for one
 *    process).
 *
 * The first read (the scan) gathers the activities' ids (launch-join.h) and
 * applies the links (12 bytes a link; the file stores them after its events);
 * sum_lj_seal() keeps of them the activity and the call (8 bytes) sorted by
 * activity, or sorts the ids into the join; a read of the calls
 * (sum_lj_calls, the links by call through 4 bytes each) gives each wanted
 * call its start and end (a link: 8 bytes for the start, 4 for the duration,
 * where a view reads the ends, the rare one beyond 32 bits in a table; an
 * id: 16 bytes, plus 8 for its call);
 * the summing read then finds each activity's call (sum_lj_batch) in event
 * order, and frees the links' calls, a block at a time, as it passes them
 * (the gpu view's samples grow as they go). Of the links that name one activity the last in the file
 * holds, as in memory (sum_lj_seal sorts the links stably and keeps that one).
 *
 * The file is read twice, not three times, where every link's call comes no
 * later than the batch after its activity's (a CUPTI import writes each
 * activity right before its call): the read of the calls is then the summing
 * read itself, a batch ahead (sum_lj_calls on a batch, then the sums of the
 * batch before it, pt_summary_stream_both), and a block of calls lives only
 * from its first call to the summing read's passing it.
 */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <string.h>

#include "support/xalloc.h"

/* Link k's call starts at s and ends at e: its block allocated at its first call (starts, then the
 * durations but for lj->starts: 12 bytes a link, not 16); not kept for a block the summing read has
 * passed (never, for the calls it takes a batch ahead: sum_lj_seal checked that). */
static void call_set(struct sum_lj *lj, size_t k, int64_t s, int64_t e)
{
	size_t b = k / SUM_LJ_BLOCK, i = k % SUM_LJ_BLOCK;
	if (b < lj->freed)
		return;
	if (!lj->call[b]) {
		lj->call[b] = pt_xmalloc(SUM_LJ_BLOCK * (sizeof(**lj->call) + (lj->starts ? 0 : sizeof(uint32_t))));
		for (size_t j = 0; j < SUM_LJ_BLOCK; j++)
			lj->call[b][j] = INT64_MIN; /* no call of the rank (yet) */
	}
	lj->call[b][i] = s;
	if (lj->starts)
		return;
	uint32_t *d = (uint32_t *)(lj->call[b] + SUM_LJ_BLOCK);
	bool added;
	if (e >= s && e - s < UINT32_MAX) {
		d[i] = (uint32_t)(e - s);
		if (lj->longc.n)
			pt_hashmap_del(&lj->longc, k); /* a later call of the link's (never in a file) */
	} else {
		d[i] = UINT32_MAX;
		*pt_hashmap_put(&lj->longc, k, 0, &added) = (uint64_t)e;
	}
}

/* The end of link k's call, whose start s its block holds. */
static int64_t call_end(const struct sum_lj *lj, size_t k, int64_t s)
{
	if (lj->starts)
		return s;
	uint32_t d = ((const uint32_t *)(lj->call[k / SUM_LJ_BLOCK] + SUM_LJ_BLOCK))[k % SUM_LJ_BLOCK];
	return d != UINT32_MAX ? s + d : (int64_t)*pt_hashmap_get(&lj->longc, k);
}

void sum_lj_init(struct sum_lj *lj)
{
	memset(lj, 0, sizeof(*lj));
	pt_ljoin_init(&lj->j);
}

void sum_lj_free(struct sum_lj *lj)
{
	pt_ljoin_free(&lj->j);
	free(lj->key);
	free(lj->link);
	for (size_t b = 0; b < lj->nblk; b++)
		free(lj->call[b]);
	free(lj->call);
	pt_hashmap_free(&lj->longc);
	sum_lj_calls_end(lj);
	free(lj->keep);
	free(lj->rank);
	free(lj->lk);
	free(lj->bend);
	memset(lj, 0, sizeof(*lj));
}

/* The devices of the GPU ranks: every device but an NPU (an Ascend rank's, which launches nothing) or a
 * GPU that --device leaves out;
 * each one's rank, by pid in the order of the devices (ids by rank: a rank that appears after the
 * first wanted id would renumber them, so the join by id is then given up). */
static void fit(struct sum_lj *lj, const struct pt_model *m, int64_t device)
{
	if (lj->ndev == m->devices.n && lj->keep)
		return;
	free(lj->keep);
	free(lj->rank);
	lj->ndev = m->devices.n;
	lj->keep = pt_xcalloc(lj->ndev + 1, 1);
	lj->rank = pt_xcalloc(lj->ndev + 1, sizeof(*lj->rank));
	uint32_t nrank = 0;
	for (size_t d = 0; d < lj->ndev; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		lj->keep[d] = dv->kind != PT_DEV_NPU &&
			      !(dv->kind == PT_DEV_GPU && device >= 0 && dv->id != (uint64_t)device);
		size_t f = 0;
		while (f < d && m->devices.v[f].pid != dv->pid)
			f++;
		lj->rank[d] = f < d ? lj->rank[f] : nrank++;
	}
	nrank = nrank ? nrank : 1;
	if (lj->nrank && nrank != lj->nrank && lj->j.n)
		lj->idfail = true;
	lj->nrank = nrank;
}

bool sum_lj_one_rank(const struct pt_model *m)
{
	for (size_t d = 0; d < m->devices.n; d++)
		if (m->devices.v[d].pid != m->devices.v[0].pid || m->devices.v[d].kind == PT_DEV_NPU)
			return false;
	return true;
}

static inline bool kept(const struct sum_lj *lj, const struct pt_model *m, size_t i)
{
	uint32_t d = m->tracks.v[m->events.track[i]].device;
	return d < lj->ndev && lj->keep[d];
}

void sum_lj_scan(struct sum_lj *lj, const struct pt_model *m, int64_t device)
{
	fit(lj, m, device);
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++)
		if (is_dev_activity(ev->kind[i]) && ev->corr[i] && kept(lj, m, i)) {
			uint64_t id = sum_lj_id(lj, m, i);
			if (!id)
				lj->idfail = true;
			pt_ljoin_want(&lj->j, id);
		}
	lj->nev += ev->n;
	pt_xgrow((void **)&lj->bend, &lj->cb, lj->nb + 1, sizeof(*lj->bend));
	lj->bend[lj->nb++] = lj->nev;
}

/* The links by activity, links of one activity in their order (the file's): an LSD radix sort, 8 bits
 * a pass, skipping the passes whose digit is the same for all (tmp: room for n links). */
static void sort_links(struct sum_link *v, size_t n, struct sum_link *tmp)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		lo &= v[i].event;
		hi |= v[i].event;
	}
	struct sum_link *a = v, *b = tmp;
	for (int sh = 0; sh < 32; sh += 8) {
		if (!(((lo ^ hi) >> sh) & 0xff))
			continue;
		size_t cnt[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			cnt[(a[i].event >> sh & 0xff) + 1]++;
		for (int d = 0; d < 256; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			b[cnt[a[i].event >> sh & 0xff]++] = a[i];
		struct sum_link *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, n * sizeof(*v));
}

/* The order of link indexes by call (context: the links). */
static int cmp_perm(const void *a, const void *b, void *arg)
{
	const struct sum_link *l = arg;
	uint32_t x = l[*(const uint32_t *)a].api, y = l[*(const uint32_t *)b].api;
	return (x > y) - (x < y);
}

static int seal_links(struct sum_lj *lj);

int sum_lj_seal(struct sum_lj *lj, struct pt_model *m)
{
	lj->links = m->links.n > 0;
	if (!lj->links) {
		if (lj->idfail)
			return -1;
		pt_ljoin_seal(&lj->j);
		lj->key = pt_xcalloc(lj->j.n + 1, sizeof(*lj->key));
		return 0;
	}
	pt_ljoin_free(&lj->j); /* the links say it all */
	/* the links that name events of the file, by activity; the model no longer holds them */
	size_t n = 0;
	for (size_t k = 0; k < m->links.n; k++)
		n += m->links.v[k].event < lj->nev && m->links.v[k].api < lj->nev;
	lj->link = pt_xmalloc((n ? n : 1) * sizeof(*lj->link));
	n = 0;
	for (size_t k = 0; k < m->links.n; k++)
		if (m->links.v[k].event < lj->nev && m->links.v[k].api < lj->nev)
			lj->link[n++] = (struct sum_link){ m->links.v[k].event, m->links.v[k].api };
	lj->nlink = n;
	pt_vec_free(&m->links);
	return seal_links(lj);
}

int sum_lj_seal_with(struct sum_lj *lj, struct sum_link *v, size_t n)
{
	if (!n) {
		free(v);
		lj->links = false;
		if (lj->idfail)
			return -1;
		pt_ljoin_seal(&lj->j);
		lj->key = pt_xcalloc(lj->j.n + 1, sizeof(*lj->key));
		return 0;
	}
	lj->links = true;
	pt_ljoin_free(&lj->j);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].event < lj->nev && v[i].api < lj->nev)
			v[k++] = v[i];
	lj->link = pt_xrealloc(v, (k ? k : 1) * sizeof(*v)); /* the vector's spare room back */
	lj->nlink = k;
	return seal_links(lj);
}

/* The links by activity (lj->link) sorted and checked, then by call, in blocks. */
static int seal_links(struct sum_lj *lj)
{
	size_t n = lj->nlink;
	if (n > 1) {
		struct sum_link *tmp = pt_xmalloc(n * sizeof(*tmp));
		sort_links(lj->link, n, tmp);
		free(tmp);
	}
	/* an activity linked twice takes its last link, as in memory (ranks.c: each link that holds, in
	 * the file's order, overwrites the one before; every link kept here holds) */
	size_t w = 0;
	for (size_t k = 0; k < n; k++)
		if (k + 1 == n || lj->link[k + 1].event != lj->link[k].event)
			lj->link[w++] = lj->link[k];
	if (w < n) {
		lj->link = pt_xrealloc(lj->link, w * sizeof(*lj->link));
		n = lj->nlink = w;
	}
	/* a call no later than the batch after its activity's, for every link: the summing read can take
	 * the calls a batch ahead (b: the batch of the link's activity) */
	lj->ahead = true;
	for (size_t k = 0, b = 0; k < n && lj->ahead; k++) {
		while (lj->bend[b] <= lj->link[k].event)
			b++;
		lj->ahead = lj->link[k].api < lj->bend[b + 1 < lj->nb ? b + 1 : b];
	}
	lj->nblk = (n + SUM_LJ_BLOCK - 1) / SUM_LJ_BLOCK;
	lj->call = pt_xcalloc(lj->nblk + 1, sizeof(*lj->call));
	uint32_t *perm = pt_xmalloc((n ? n : 1) * sizeof(*perm));
	for (size_t k = 0; k < n; k++)
		perm[k] = (uint32_t)k;
	sum_sort(perm, n, sizeof(*perm), cmp_perm, lj->link);
	/* in blocks, which the read of the calls frees as it passes them */
	lj->perm = pt_xcalloc(lj->nblk + 1, sizeof(*lj->perm));
	for (size_t b = 0; b < lj->nblk; b++) {
		size_t k = b * SUM_LJ_BLOCK, nk = n - k < SUM_LJ_BLOCK ? n - k : SUM_LJ_BLOCK;
		lj->perm[b] = pt_xmalloc(nk * sizeof(**lj->perm));
		memcpy(lj->perm[b], perm + k, nk * sizeof(**lj->perm));
	}
	free(perm);
	return 0;
}

void sum_lj_begin(struct sum_lj *lj)
{
	lj->base = lj->cbase = 0;
	lj->cur = lj->ccur = 0;
	lj->nbatch = 0;
}

/* The link of the k-th call in call order. */
static inline uint32_t perm_at(const struct sum_lj *lj, size_t k)
{
	return lj->perm[k / SUM_LJ_BLOCK][k % SUM_LJ_BLOCK];
}

void sum_lj_calls(struct sum_lj *lj, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->kind[i] != PT_EV_API || !kept(lj, m, i))
			continue;
		uint64_t g = lj->cbase + i;
		int64_t s = ev->start[i], e = s + ev->dur[i];
		if (lj->links) {
			while (lj->ccur < lj->nlink && lj->link[perm_at(lj, lj->ccur)].api < g)
				lj->ccur++;
			for (; !lj->keep_perm && lj->pfreed < lj->ccur / SUM_LJ_BLOCK; lj->pfreed++) {
				free(lj->perm[lj->pfreed]);
				lj->perm[lj->pfreed] = NULL;
			}
			for (size_t k = lj->ccur; k < lj->nlink && lj->link[perm_at(lj, k)].api == g; k++)
				call_set(lj, perm_at(lj, k), s, e);
		} else if (ev->corr[i]) {
			size_t slot = pt_ljoin_call_last(&lj->j, sum_lj_id(lj, m, i), s, e);
			if (slot != SIZE_MAX)
				lj->key[slot] = g + 1;
		}
	}
	lj->cbase += ev->n;
}

void sum_lj_calls_end(struct sum_lj *lj)
{
	for (size_t b = 0; lj->perm && b < lj->nblk; b++)
		free(lj->perm[b]);
	free(lj->perm);
	lj->perm = NULL;
	lj->pfreed = 0;
}

/* The links whose activities come before event g are passed: the calls of their blocks are not read
 * again (the blocks freed). */
static inline void pass_to(struct sum_lj *lj, uint64_t g)
{
	while (lj->cur < lj->nlink && lj->link[lj->cur].event < g)
		lj->cur++;
	for (; lj->freed < lj->cur / SUM_LJ_BLOCK; lj->freed++) {
		free(lj->call[lj->freed]);
		lj->call[lj->freed] = NULL;
	}
}

void sum_lj_pass(struct sum_lj *lj, uint64_t g)
{
	pass_to(lj, g);
}

void sum_lj_recall(struct sum_lj *lj)
{
	for (size_t b = 0; b < lj->nblk; b++) {
		free(lj->call[b]);
		lj->call[b] = NULL;
	}
	lj->freed = 0;
	lj->keep_perm = false;
	sum_lj_begin(lj);
}

const struct sum_launch *sum_lj_batch(struct sum_lj *lj, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	pt_xgrow((void **)&lj->lk, &lj->lkcap, ev->n + 1, sizeof(*lj->lk));
	for (size_t i = 0; i < ev->n; i++) {
		struct sum_launch *x = &lj->lk[i];
		x->key = 0;
		if (!is_dev_activity(ev->kind[i]) || !kept(lj, m, i))
			continue;
		uint64_t g = lj->base + i;
		if (lj->links) {
			pass_to(lj, g);
			size_t k = lj->cur;
			int64_t cs = k < lj->nlink && lj->link[k].event == g ? sum_lj_call_start(lj, k) : INT64_MIN;
			if (cs != INT64_MIN) {
				x->s = cs;
				x->e = call_end(lj, k, cs);
				x->key = (uint64_t)lj->link[k].api + 1;
			}
		} else if (ev->corr[i]) {
			size_t slot = pt_ljoin_slot(&lj->j, sum_lj_id(lj, m, i));
			if (slot != SIZE_MAX && lj->key[slot]) {
				x->s = lj->j.start[slot];
				x->e = lj->j.end[slot];
				x->key = lj->key[slot];
			}
		}
	}
	lj->base += ev->n;
	return lj->lk;
}
