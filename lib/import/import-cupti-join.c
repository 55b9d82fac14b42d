/* The CUPTI importer's launch and range joins (see import-cupti-join.h). */
#include "import/import-cupti-join.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

#define DENSE_CORR (1u << 26) /* correlation ids below it have a slot in an array, the others a hash map */

/* An activity and its call (index + 1, 0 = none yet), until pt_cjoin_finish() makes it a link. */
struct act {
	uint32_t event, call;
};

/* An activity that had no call when it came (the acts with call 0, in their order). */
struct waiting {
	int64_t start;
	uint32_t corr, corr2;
	bool kernel;
};

#define FAR INT32_MIN /* an activity's start is not within int32 of its call's: see far */

struct pt_cjoin {
	struct pt_model *m;
	PT_VEC(struct act) act; /* the activities, in the order their links take */
	/* the calls, by call index */
	PT_VEC(int64_t) start;
	PT_VEC(uint32_t) event, track;
	/* corr -> call index + 1 of the latest call with it: [0] runtime, [1] driver */
	uint32_t *head[2];
	size_t cap[2];
	struct pt_hashmap sparse[2];
	/* calls whose correlation id another call has: call index -> (call index + 1 of the
	 * previous call of the same table and id, 0 none) | corr << 32; and a bit per call */
	struct pt_hashmap shared;
	PT_VEC(uint64_t) shared_bit;
	/* by act index: the activity's start less its call's start (the launch
	 * delay), or FAR and the start in `far`; and those that wait */
	PT_VEC(int32_t) delay;
	struct pt_hashmap far;
	PT_VEC(struct waiting) wait;
	uint64_t corr_dup;
};

struct pt_cjoin *pt_cjoin_new(struct pt_model *m)
{
	struct pt_cjoin *j = pt_xcalloc(1, sizeof(*j));
	j->m = m;
	pt_hashmap_init(&j->sparse[0]);
	pt_hashmap_init(&j->sparse[1]);
	pt_hashmap_init(&j->shared);
	pt_hashmap_init(&j->far);
	return j;
}

/* The head slot of corr in table drv (NULL when absent and !create). */
static uint32_t *head_slot(struct pt_cjoin *j, bool drv, uint32_t corr, bool create)
{
	if (corr < DENSE_CORR) {
		if (corr >= j->cap[drv]) {
			if (!create)
				return NULL;
			size_t nc = j->cap[drv] ? j->cap[drv] : 4096;
			while (nc <= corr)
				nc *= 2;
			/* fresh zero pages: only the ids in use ever take memory */
			uint32_t *h = pt_xcalloc(nc, sizeof(*h));
			if (j->cap[drv])
				memcpy(h, j->head[drv], j->cap[drv] * sizeof(*h));
			free(j->head[drv]);
			j->head[drv] = h;
			j->cap[drv] = nc;
		}
		return &j->head[drv][corr];
	}
	uint64_t *v = create ? pt_hashmap_put(&j->sparse[drv], corr, 0, NULL) : pt_hashmap_get(&j->sparse[drv], corr);
	return (uint32_t *)v; /* little-endian: the low half of the u64 */
}

static uint32_t head(struct pt_cjoin *j, bool drv, uint32_t corr)
{
	uint32_t *v = head_slot(j, drv, corr, false);
	return v ? *v : 0;
}

static bool is_shared(const struct pt_cjoin *j, uint32_t c)
{
	return (size_t)c / 64 < j->shared_bit.n && (j->shared_bit.v[c / 64] >> (c % 64) & 1);
}

/* Mark call c as sharing corr, its previous call of the same id being prev (call index + 1). */
static void share(struct pt_cjoin *j, uint32_t c, uint32_t corr, uint32_t prev)
{
	bool added;
	uint64_t *v = pt_hashmap_put(&j->shared, c, 0, &added);
	if (added)
		*v = (uint64_t)corr << 32 | prev;
	size_t w = c / 64;
	pt_vec_reserve(&j->shared_bit, w + 1);
	while (j->shared_bit.n <= w)
		j->shared_bit.v[j->shared_bit.n++] = 0;
	j->shared_bit.v[w] |= UINT64_C(1) << (c % 64);
}

void pt_cjoin_call(struct pt_cjoin *j, bool drv, uint32_t corr, uint32_t ev, uint32_t track, int64_t start)
{
	uint32_t c = (uint32_t)j->event.n;
	pt_vec_push(&j->start, start);
	pt_vec_push(&j->event, ev);
	pt_vec_push(&j->track, track);
	if (!corr)
		return;
	uint32_t *v = head_slot(j, drv, corr, true);
	if (*v) { /* a repeated id: both calls are joined again at the end */
		j->corr_dup++;
		share(j, *v - 1, corr, 0);
		share(j, c, corr, *v);
	} else if (!drv) { /* a runtime call wins the id of a driver call */
		uint32_t d = head(j, true, corr);
		if (d)
			share(j, d - 1, corr, 0);
	}
	*v = c + 1;
}

/* The latest call (index + 1) with corr: runtime calls first, as in cupti.md §6.3. */
static uint32_t latest(struct pt_cjoin *j, uint32_t corr)
{
	if (!corr)
		return 0;
	uint32_t a = head(j, false, corr);
	return a ? a : head(j, true, corr);
}

void pt_cjoin_activity(struct pt_cjoin *j, uint32_t ev, int64_t start, uint32_t corr, uint32_t corr2, bool kernel)
{
	/* corr2 counts only when corr has no call, which a later call could still change */
	uint32_t a = corr ? latest(j, corr) : latest(j, corr2);
	uint32_t slot = (uint32_t)j->act.n;
	struct act x = { ev, a };
	pt_vec_push(&j->act, x);
	int32_t d = 0;
	if (!a) {
		struct waiting w = { start, corr, corr2, kernel };
		pt_vec_push(&j->wait, w);
	} else if (start - j->start.v[a - 1] > INT32_MIN && start - j->start.v[a - 1] <= INT32_MAX) {
		d = (int32_t)(start - j->start.v[a - 1]); /* times are within 2^62 (model.h): no overflow */
	} else {
		d = FAR;
		*pt_hashmap_put(&j->far, slot, 0, NULL) = (uint64_t)start;
	}
	pt_vec_push(&j->delay, d);
}

/* The call (index + 1, 0 none) that launched an activity of id corr starting at gs (cupti.md §6.3). */
static uint32_t find_call(struct pt_cjoin *j, uint32_t corr, int64_t gs)
{
	uint32_t best = 0, first = 0;
	int64_t best_t = INT64_MIN, first_t = INT64_MAX;
	for (uint32_t e = latest(j, corr); e;) {
		int64_t s = j->start.v[e - 1];
		if (s <= gs && s >= best_t) {
			best = e;
			best_t = s;
		}
		if (s <= first_t) {
			first = e;
			first_t = s;
		}
		uint64_t *v = is_shared(j, e - 1) ? pt_hashmap_get(&j->shared, e - 1) : NULL;
		e = v ? (uint32_t)*v : 0;
	}
	return best ? best : first;
}

/* A call placed in the ranges: its start, track and index. */
struct query {
	int64_t t;
	uint32_t track, call;
};

static int cmp_query(const void *a, const void *b)
{
	const struct query *x = a, *y = b;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

/*
 * The innermost range enclosing each call that launched something: a sweep per
 * thread over that thread's ranges, then over the process-wide ones; the
 * innermost is the latest to start, then the shortest. Returns, by call
 * index, the range index + 1 (0 none). Frees the calls' starts and tracks.
 */
static uint32_t *place_calls(struct pt_cjoin *j, const struct pt_cjoin_range *rs, size_t nr)
{
	size_t ncalls = j->event.n;
	PT_VEC(uint64_t) used = { 0 };
	pt_vec_reserve(&used, ncalls / 64 + 1);
	memset(used.v, 0, (ncalls / 64 + 1) * sizeof(uint64_t));
	for (size_t i = 0; i < j->act.n; i++) {
		uint32_t c = j->act.v[i].call - 1;
		used.v[c / 64] |= UINT64_C(1) << (c % 64);
	}
	PT_VEC(struct query) q = { 0 };
	for (uint32_t c = 0; c < ncalls; c++)
		if (used.v[c / 64] >> (c % 64) & 1) {
			struct query x = { j->start.v[c], j->track.v[c], c };
			pt_vec_push(&q, x);
		}
	pt_vec_free(&used);
	pt_vec_free(&j->start);
	pt_vec_free(&j->track);
	pt_sort(q.v, q.n, sizeof(*q.v), cmp_query);
	uint32_t *best = pt_xcalloc(ncalls ? ncalls : 1, sizeof(*best));
	/* the ranges that can enclose a call, in rs order: on a thread, process-wide */
	uint32_t *v[2] = { pt_xmalloc((nr + 1) * sizeof(uint32_t)), pt_xmalloc((nr + 1) * sizeof(uint32_t)) };
	size_t nv[2] = { 0, 0 };
	for (size_t i = 0; i < nr; i++)
		if (!rs[i].instant)
			v[!rs[i].thread][nv[!rs[i].thread]++] = (uint32_t)i;
	uint32_t *stack = pt_xmalloc((nr + 1) * sizeof(*stack));
	for (int pass = 0; pass < 2; pass++) {
		const uint32_t *vv = v[pass];
		size_t n = nv[pass];
		if (!n)
			continue;
		for (size_t qi = 0; qi < q.n;) {
			size_t qe = qi;
			while (qe < q.n && q.v[qe].track == q.v[qi].track)
				qe++;
			uint32_t trk = q.v[qi].track;
			size_t sp = 0, ri = 0;
			for (size_t k = qi; k < qe; k++) {
				int64_t t = q.v[k].t;
				for (; ri < n && rs[vv[ri]].start <= t; ri++)
					if (pass || rs[vv[ri]].track == trk)
						stack[sp++] = vv[ri];
				while (sp && rs[stack[sp - 1]].end < t)
					sp--;
				if (!sp)
					continue;
				const struct pt_cjoin_range *r = &rs[stack[sp - 1]];
				uint32_t *b = &best[q.v[k].call];
				if (!*b || r->start > rs[*b - 1].start ||
				    (r->start == rs[*b - 1].start && r->end - r->start < rs[*b - 1].end - rs[*b - 1].start))
					*b = stack[sp - 1] + 1;
			}
			qi = qe;
		}
	}
	free(stack);
	free(v[0]);
	free(v[1]);
	pt_vec_free(&q);
	return best;
}

void pt_cjoin_finish(struct pt_cjoin *j, const struct pt_cjoin_range *rs, size_t nr, struct pt_cjoin_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->corr_dup = j->corr_dup;
	size_t out = 0, w = 0;
	for (size_t i = 0; i < j->act.n; i++) {
		struct act l = j->act.v[i];
		uint32_t a = l.call;
		int32_t d = j->delay.v[i];
		int64_t gs = !a ? j->wait.v[w].start
			     : d != FAR ? j->start.v[a - 1] + d : (int64_t)*pt_hashmap_get(&j->far, i);
		if (!a) {
			const struct waiting *x = &j->wait.v[w++];
			a = find_call(j, x->corr, gs);
			if (!a && x->corr2)
				a = find_call(j, x->corr2, gs);
			if (!a) {
				st->gpu_without_api++;
				if (x->kernel)
					st->kernels_without_launch++;
				continue;
			}
		} else if (is_shared(j, a - 1)) {
			a = find_call(j, (uint32_t)(*pt_hashmap_get(&j->shared, a - 1) >> 32), gs);
		}
		if (gs < j->start.v[a - 1])
			st->gpu_before_api++;
		l.call = a;
		j->act.v[out++] = l;
	}
	j->act.n = out;
	/* what the joins needed goes before the links take their room */
	pt_vec_free(&j->delay);
	pt_hashmap_free(&j->far);
	pt_vec_free(&j->wait);
	pt_hashmap_free(&j->shared);
	pt_vec_free(&j->shared_bit);
	for (int d = 0; d < 2; d++) {
		free(j->head[d]);
		j->head[d] = NULL;
		j->cap[d] = 0;
		pt_hashmap_free(&j->sparse[d]);
	}
	uint32_t *best = nr && out ? place_calls(j, rs, nr) : NULL;
	pt_vec_free(&j->start);
	pt_vec_free(&j->track);
	/* the links, from the last so that the first model's can grow over the activities in place */
	struct pt_model *m = j->m;
	size_t l0 = m->links.n;
	struct pt_gpu_link *lv;
	if (!l0 && !m->links.cap) {
		lv = pt_xrealloc(j->act.v, (out ? out : 1) * sizeof(*lv));
		j->act.v = NULL;
		m->links.cap = out ? out : 1;
	} else {
		pt_vec_reserve(&m->links, l0 + out);
		lv = m->links.v;
	}
	/* (through memcpy: the two kinds of record share the bytes) */
	const unsigned char *av = j->act.v ? (const unsigned char *)j->act.v : (const unsigned char *)lv;
	for (size_t i = out; i-- > 0;) {
		struct act x;
		memcpy(&x, av + i * sizeof(x), sizeof(x));
		uint32_t c = x.call - 1;
		struct pt_gpu_link l = { x.event, j->event.v[c], best && best[c] ? rs[best[c] - 1].event + 1 : 0 };
		memcpy(&lv[l0 + i], &l, sizeof(l));
	}
	m->links.v = lv;
	m->links.n = l0 + out;
	pt_vec_free(&j->act);
	free(best);
}

void pt_cjoin_free(struct pt_cjoin *j)
{
	if (!j)
		return;
	pt_vec_free(&j->start);
	pt_vec_free(&j->event);
	pt_vec_free(&j->track);
	for (int d = 0; d < 2; d++) {
		free(j->head[d]);
		pt_hashmap_free(&j->sparse[d]);
	}
	pt_hashmap_free(&j->shared);
	pt_vec_free(&j->shared_bit);
	pt_vec_free(&j->delay);
	pt_hashmap_free(&j->far);
	pt_vec_free(&j->wait);
	pt_vec_free(&j->act);
	free(j);
}
