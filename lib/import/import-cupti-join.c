/* The CUPTI importer's launch and range joins (see import-cupti-join.h). */
#include "import/import-cupti-join.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "support/sort.h"
#include "support/vec.h"
#include "support/xalloc.h"

#define DENSE_MIN 65536 /* the dense table may always cover the ids below this */
#define BLOCK 256               /* calls per start base */
#define FAR INT32_MIN           /* a time not within int32 of its base: see the far maps */
#define WIDE UINT16_MAX         /* a call's track beyond 16 bits: see wide */

/* An activity that had no call when it came (the activities of call 0, in their order): 16 bytes,
 * whether it is a kernel a bit apart (wkern). */
struct waiting {
	int64_t start;
	uint32_t corr, corr2;
};

/*
 * The events of the dump come in order, so a call's or an activity's event
 * index is a bit in a bitmap of the events from the first one joined, and
 * the n-th call's event is the n-th set bit of its map (rank below). The
 * rest takes 6 bytes a call and 8 an activity: the 64 MiB dumps of
 * bench/run import within a quarter of their size.
 */
struct bits {
	PT_VEC(uint64_t) w;
	uint32_t *rank; /* by word: the set bits before it (pt_cjoin_finish) */
};

/*
 * A set of correlation ids: a bitmap over the ids below cap, grown (to twice
 * the id) only while it stays within 32 ids a member (4 bytes a member), the
 * other ids in an open-addressing table of 4-byte slots at most three
 * quarters full. Memory follows the members, not the largest id.
 */
struct idset {
	uint64_t *bits;
	size_t cap, n; /* cap: ids the bitmap covers (a multiple of 64); n: members */
	uint32_t *s;   /* the others; 0 = empty (0 is never a member) */
	size_t scap, sn;
};

struct pt_cjoin {
	struct pt_model *m;
	uint32_t ev0, evn; /* the first event joined, and the events from it seen so far */
	struct bits callbit, actbit;
	/* by activity: its call (index + 1, 0 = none yet), until pt_cjoin_finish() makes it a link */
	PT_VEC(uint32_t) act;
	/* the calls, by call index: start less its block's base (or FAR and the start in cfar), track */
	PT_VEC(int64_t) base;
	PT_VEC(int32_t) cstart;
	struct pt_hashmap cfar;
	PT_VEC(uint16_t) track;
	struct pt_hashmap wide;
	size_t ncalls;
	/*
	 * corr -> call index + 1 of the latest call with it: [0] runtime, [1] driver.
	 * Ids below cap have a slot in head (4 bytes an id); the table grows only
	 * while it stays a quarter full (ids up to 4 times those seen), so that its
	 * memory follows the calls, not the largest id. Others go to `sparse`.
	 */
	uint32_t *head[2];
	size_t cap[2], nids[2];
	struct ctab {
		uint32_t (*s)[2]; /* {corr, call index + 1}; corr 0 = empty (0 never has a call) */
		size_t cap, n;    /* cap a power of two, or 0 */
	} sparse[2];
	/* the calls whose ids repeat, of the table that wins their id, by (corr, start, call): pt_cjoin_finish */
	struct rep {
		int64_t start;
		uint32_t corr, call;
	} *reps;
	size_t nreps;
	/* calls whose correlation id another call has: call index -> (call index + 1 of the
	 * previous call of the same table and id, 0 none) | corr << 32; and a bit per call */
	struct pt_hashmap shared;
	PT_VEC(uint64_t) shared_bit;
	/* by activity: its start less its call's start (the launch delay), or FAR
	 * and the start in `far`; and those that wait */
	PT_VEC(int32_t) delay;
	struct pt_hashmap far;
	PT_VEC(struct waiting) wait;
	PT_VEC(uint64_t) wkern; /* a bit per waiting activity: a kernel */
	uint64_t corr_dup;
	/* pt_cjoin_filter(): only the calls whose id is in `want` are kept; `seen`
	 * holds the id of every call (runtime, driver) to count the repeated ones */
	bool filter;
	struct idset want, seen[2];
};

#define IDSET_MIN (1u << 20) /* the bitmap may always cover the ids below this (128 KiB) */

static inline size_t id_hash(uint32_t id, size_t cap)
{
	return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static bool idset_has(const struct idset *t, uint32_t id)
{
	if (id < t->cap)
		return t->bits[id / 64] >> (id % 64) & 1;
	if (!t->scap)
		return false;
	for (size_t i = id_hash(id, t->scap);; i = (i + 1) & (t->scap - 1)) {
		if (t->s[i] == id)
			return true;
		if (!t->s[i])
			return false;
	}
}

/* Put id (not a member, not below cap) in the table. */
static void idset_put(struct idset *t, uint32_t id)
{
	if ((t->sn + 1) * 4 > t->scap * 3) {
		size_t nc = t->scap ? t->scap * 2 : 1024;
		uint32_t *ns = pt_xcalloc(nc, sizeof(*ns));
		for (size_t i = 0; i < t->scap; i++)
			if (t->s[i]) {
				size_t k = id_hash(t->s[i], nc);
				while (ns[k])
					k = (k + 1) & (nc - 1);
				ns[k] = t->s[i];
			}
		free(t->s);
		t->s = ns;
		t->scap = nc;
	}
	size_t k = id_hash(id, t->scap);
	while (t->s[k])
		k = (k + 1) & (t->scap - 1);
	t->s[k] = id;
	t->sn++;
}

/* Add id (!= 0) to t; true when it was a member already. */
static bool idset_add(struct idset *t, uint32_t id)
{
	if (idset_has(t, id))
		return true;
	t->n++;
	if (id >= t->cap && (uint64_t)id < 32 * (uint64_t)t->n + IDSET_MIN) {
		size_t nc = t->cap ? t->cap : 4096;
		while (nc <= id)
			nc *= 2;
		uint64_t *b = pt_xcalloc(nc / 64, sizeof(*b));
		if (t->cap)
			memcpy(b, t->bits, t->cap / 8);
		free(t->bits);
		t->bits = b;
		t->cap = nc;
		if (t->sn) { /* the table's ids that the bitmap now covers move to it */
			uint32_t *os = t->s;
			size_t oc = t->scap;
			t->s = NULL;
			t->scap = t->sn = 0;
			for (size_t i = 0; i < oc; i++) {
				uint32_t x = os[i];
				if (x && x < nc)
					b[x / 64] |= UINT64_C(1) << (x % 64);
				else if (x)
					idset_put(t, x);
			}
			free(os);
		}
	}
	if (id < t->cap)
		t->bits[id / 64] |= UINT64_C(1) << (id % 64);
	else
		idset_put(t, id);
	return false;
}

static void idset_free(struct idset *t)
{
	free(t->bits);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

static void grow(struct bits *b, size_t n)
{
	pt_vec_reserve(&b->w, n);
	while (b->w.n < n)
		b->w.v[b->w.n++] = 0;
}

/* Event ev is the next of its kind: a bit in b (events come in order, ev0 first). */
static inline void mark(struct pt_cjoin *j, struct bits *b, uint32_t ev)
{
	if (!j->evn)
		j->ev0 = ev;
	assert(ev >= j->ev0 && (!j->evn || ev - j->ev0 >= j->evn));
	uint32_t i = ev - j->ev0;
	j->evn = i + 1;
	size_t w = i / 64;
	if (w >= j->callbit.w.n) { /* the two maps grow together */
		grow(&j->callbit, w + 1);
		grow(&j->actbit, w + 1);
	}
	b->w.v[w] |= UINT64_C(1) << (i % 64);
}

static void rank_build(struct bits *b)
{
	b->rank = pt_xmalloc((b->w.n + 1) * sizeof(*b->rank));
	uint32_t r = 0;
	for (size_t i = 0; i < b->w.n; i++) {
		b->rank[i] = r;
		r += (uint32_t)__builtin_popcountll(b->w.v[i]);
	}
}

/* The event offset of the k-th set bit of b (rank_build first). */
static size_t select_bit(const struct bits *b, uint32_t k)
{
	size_t lo = 0, hi = b->w.n; /* the last word whose rank is <= k */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->rank[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	uint64_t x = b->w.v[lo];
	for (uint32_t r = k - b->rank[lo]; r; r--)
		x &= x - 1;
	return lo * 64 + (size_t)__builtin_ctzll(x);
}

static void bits_free(struct bits *b)
{
	pt_vec_free(&b->w);
	free(b->rank);
	b->rank = NULL;
}

static int64_t call_start(const struct pt_cjoin *j, uint32_t c)
{
	int32_t d = j->cstart.v[c];
	return d != FAR ? j->base.v[c / BLOCK] + d : (int64_t)*pt_hashmap_get(&j->cfar, c);
}

static uint32_t call_track(const struct pt_cjoin *j, uint32_t c)
{
	uint16_t t = j->track.v[c];
	return t != WIDE ? t : (uint32_t)*pt_hashmap_get(&j->wide, c);
}

/* t - base as the int32 of a delay or call start, or FAR */
static int32_t near(int64_t t, int64_t base)
{
	/* times are within 2^62 (model.h): no overflow */
	return t - base > INT32_MIN && t - base <= INT32_MAX ? (int32_t)(t - base) : FAR;
}

struct pt_cjoin *pt_cjoin_new(struct pt_model *m)
{
	struct pt_cjoin *j = pt_xcalloc(1, sizeof(*j));
	j->m = m;
	pt_hashmap_init(&j->shared);
	pt_hashmap_init(&j->far);
	pt_hashmap_init(&j->cfar);
	pt_hashmap_init(&j->wide);
	return j;
}

static inline size_t ctab_hash(uint32_t corr, size_t cap)
{
	return (size_t)((corr * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* The value slot of corr (!= 0) in t: NULL when absent and !create. */
static uint32_t *ctab_slot(struct ctab *t, uint32_t corr, bool create)
{
	if (t->cap) {
		for (size_t i = ctab_hash(corr, t->cap);; i = (i + 1) & (t->cap - 1)) {
			if (t->s[i][0] == corr)
				return &t->s[i][1];
			if (!t->s[i][0])
				break;
		}
	}
	if (!create)
		return NULL;
	if ((t->n + 1) * 4 > t->cap * 3) { /* at most three quarters full: 8 bytes a slot */
		size_t nc = t->cap ? t->cap * 2 : 1024;
		uint32_t (*ns)[2] = pt_xcalloc(nc, sizeof(*ns));
		for (size_t i = 0; i < t->cap; i++)
			if (t->s[i][0]) {
				size_t k = ctab_hash(t->s[i][0], nc);
				while (ns[k][0])
					k = (k + 1) & (nc - 1);
				ns[k][0] = t->s[i][0];
				ns[k][1] = t->s[i][1];
			}
		free(t->s);
		t->s = ns;
		t->cap = nc;
	}
	size_t i = ctab_hash(corr, t->cap);
	while (t->s[i][0])
		i = (i + 1) & (t->cap - 1);
	t->s[i][0] = corr;
	t->s[i][1] = 0;
	t->n++;
	return &t->s[i][1];
}

static void ctab_free(struct ctab *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

/* The head slot of corr in table drv (NULL when absent and !create). */
static uint32_t *head_slot(struct pt_cjoin *j, bool drv, uint32_t corr, bool create)
{
	if (corr >= j->cap[drv] && create && corr < 4 * (j->nids[drv] + 1) + DENSE_MIN) {
		/* the dense table grows, to twice the id; fresh zero pages: only the ids in use take memory */
		size_t nc = j->cap[drv] ? j->cap[drv] : 4096;
		while (nc <= corr)
			nc *= 2;
		uint32_t *h = pt_xcalloc(nc, sizeof(*h));
		if (j->cap[drv])
			memcpy(h, j->head[drv], j->cap[drv] * sizeof(*h));
		free(j->head[drv]);
		j->head[drv] = h;
		/* the ids of the sparse table that the dense one now covers stay where they are */
		j->cap[drv] = nc;
		if (j->sparse[drv].n) { /* move them: an id has one slot */
			struct ctab o = j->sparse[drv];
			memset(&j->sparse[drv], 0, sizeof(o));
			for (size_t i = 0; i < o.cap; i++) {
				uint32_t c = o.s[i][0];
				if (!c)
					continue;
				if (c < nc)
					h[c] = o.s[i][1];
				else
					*ctab_slot(&j->sparse[drv], c, true) = o.s[i][1];
			}
			free(o.s);
		}
	}
	if (corr < j->cap[drv]) {
		if (create && !j->head[drv][corr])
			j->nids[drv]++;
		return &j->head[drv][corr];
	}
	uint32_t *v = ctab_slot(&j->sparse[drv], corr, create);
	if (create && v && !*v)
		j->nids[drv]++;
	return v;
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

void pt_cjoin_filter(struct pt_cjoin *j)
{
	j->filter = true;
}

void pt_cjoin_want(struct pt_cjoin *j, uint32_t corr)
{
	if (corr)
		idset_add(&j->want, corr);
}

void pt_cjoin_call(struct pt_cjoin *j, bool drv, uint32_t corr, uint32_t ev, uint32_t track, int64_t start)
{
	if (j->filter) { /* a call that no activity names is only counted */
		if (!corr)
			return;
		if (idset_add(&j->seen[drv], corr))
			j->corr_dup++;
		if (!idset_has(&j->want, corr))
			return;
	}
	uint32_t c = (uint32_t)j->ncalls++;
	mark(j, &j->callbit, ev);
	if (c % BLOCK == 0)
		pt_vec_push(&j->base, start);
	int32_t d = near(start, j->base.v[c / BLOCK]);
	pt_vec_push(&j->cstart, d);
	if (d == FAR)
		*pt_hashmap_put(&j->cfar, c, 0, NULL) = (uint64_t)start;
	pt_vec_push(&j->track, track < WIDE ? (uint16_t)track : WIDE);
	if (track >= WIDE)
		*pt_hashmap_put(&j->wide, c, 0, NULL) = track;
	if (!corr)
		return;
	uint32_t *v = head_slot(j, drv, corr, true);
	if (*v) { /* a repeated id: both calls are joined again at the end */
		j->corr_dup += !j->filter; /* (else counted above) */
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
	mark(j, &j->actbit, ev);
	pt_vec_push(&j->act, a);
	int32_t d = 0;
	if (!a) {
		struct waiting w = { start, corr, corr2 };
		if (j->wait.n % 64 == 0)
			pt_vec_push(&j->wkern, 0);
		if (kernel)
			j->wkern.v[j->wait.n / 64] |= UINT64_C(1) << (j->wait.n % 64);
		pt_vec_push(&j->wait, w);
	} else if ((d = near(start, call_start(j, a - 1))) == FAR) {
		*pt_hashmap_put(&j->far, slot, 0, NULL) = (uint64_t)start;
	}
	pt_vec_push(&j->delay, d);
}

static int cmp_rep(const void *a, const void *b)
{
	const struct rep *x = a, *y = b;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

/*
 * The calls whose ids repeat, in j->reps by (corr, start, call): of each such id,
 * the calls of the table that wins it (runtime over driver), each chain walked
 * once from its head.
 */
static void build_reps(struct pt_cjoin *j)
{
	PT_VEC(struct rep) v = { 0 };
	for (size_t w = 0; w < j->shared_bit.n; w++)
		for (uint64_t x = j->shared_bit.v[w]; x; x &= x - 1) {
			uint32_t c = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
			uint32_t corr = (uint32_t)(*pt_hashmap_get(&j->shared, c) >> 32);
			if (latest(j, corr) != c + 1)
				continue; /* not the head of the winning chain of its id */
			for (uint32_t e = c + 1; e;) {
				struct rep r = { call_start(j, e - 1), corr, e - 1 };
				pt_vec_push(&v, r);
				uint64_t *p = is_shared(j, e - 1) ? pt_hashmap_get(&j->shared, e - 1) : NULL;
				e = p ? (uint32_t)*p : 0;
			}
		}
	pt_sort(v.v, v.n, sizeof(*v.v), cmp_rep);
	j->reps = v.v;
	j->nreps = v.n;
}

/*
 * The call (index + 1, 0 none) that launched an activity of id corr starting at gs (cupti.md §6.3):
 * of the calls with that id (runtime calls if any, else driver calls), the latest to start at or
 * before gs, else the earliest; of calls that start together, the first in the dump. A binary
 * search in j->reps (build_reps) when the id repeats.
 */
static uint32_t find_call(struct pt_cjoin *j, uint32_t corr, int64_t gs)
{
	uint32_t e = latest(j, corr);
	if (!e || !is_shared(j, e - 1))
		return e;
	const struct rep *r = j->reps;
	size_t lo = 0, hi = j->nreps; /* the first of corr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t first = lo;
	hi = j->nreps; /* the first of corr starting after gs */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].corr == corr && r[mid].start <= gs)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first)
		return r[first].call + 1;
	int64_t t = r[lo - 1].start; /* the latest start at or before gs: the first call of that start */
	hi = lo - 1;
	lo = first;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return r[lo].call + 1;
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
 * index, the range index + 1 (0 none).
 */
static uint32_t *place_calls(struct pt_cjoin *j, const struct pt_cjoin_range *rs, size_t nr)
{
	size_t ncalls = j->ncalls;
	PT_VEC(uint64_t) used = { 0 };
	pt_vec_reserve(&used, ncalls / 64 + 1);
	memset(used.v, 0, (ncalls / 64 + 1) * sizeof(uint64_t));
	for (size_t i = 0; i < j->act.n; i++) {
		uint32_t c = j->act.v[i] - 1;
		used.v[c / 64] |= UINT64_C(1) << (c % 64);
	}
	PT_VEC(struct query) q = { 0 };
	for (uint32_t c = 0; c < ncalls; c++)
		if (used.v[c / 64] >> (c % 64) & 1) {
			struct query x = { call_start(j, c), call_track(j, c), c };
			pt_vec_push(&q, x);
		}
	pt_vec_free(&used);
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

/* The next set bit of b from event offset *i on (there is one); *i moves past it. */
static uint32_t next_bit(const struct bits *b, size_t *i)
{
	size_t w = *i / 64;
	uint64_t x = b->w.v[w] & (~UINT64_C(0) << (*i % 64));
	while (!x)
		x = b->w.v[++w];
	size_t at = w * 64 + (size_t)__builtin_ctzll(x);
	*i = at + 1;
	return (uint32_t)at;
}

/* The previous set bit of b before event offset *i (there is one); *i moves to it. */
static uint32_t prev_bit(const struct bits *b, size_t *i)
{
	size_t w = (*i - 1) / 64;
	unsigned sh = (unsigned)((*i - 1) % 64);
	uint64_t x = b->w.v[w] & (sh == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (sh + 1)) - 1);
	while (!x)
		x = b->w.v[--w];
	size_t at = w * 64 + 63 - (size_t)__builtin_clzll(x);
	*i = at;
	return (uint32_t)at;
}

void pt_cjoin_finish(struct pt_cjoin *j, const struct pt_cjoin_range *rs, size_t nr, struct pt_cjoin_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->corr_dup = j->corr_dup;
	idset_free(&j->want);
	idset_free(&j->seen[0]);
	idset_free(&j->seen[1]);
	build_reps(j);
	/* each activity's call; one without a call leaves the activity map */
	size_t out = 0, w = 0, at = 0;
	for (size_t i = 0; i < j->act.n; i++) {
		uint32_t a = j->act.v[i];
		int32_t d = j->delay.v[i];
		uint32_t bit = next_bit(&j->actbit, &at);
		int64_t gs = !a ? j->wait.v[w].start
			     : d != FAR ? call_start(j, a - 1) + d : (int64_t)*pt_hashmap_get(&j->far, i);
		if (!a) {
			bool kernel = j->wkern.v[w / 64] >> (w % 64) & 1;
			const struct waiting *x = &j->wait.v[w++];
			a = find_call(j, x->corr, gs);
			if (!a && x->corr2)
				a = find_call(j, x->corr2, gs);
			if (!a) {
				st->gpu_without_api++;
				if (kernel)
					st->kernels_without_launch++;
				j->actbit.w.v[bit / 64] &= ~(UINT64_C(1) << (bit % 64));
				continue;
			}
		} else if (is_shared(j, a - 1)) {
			a = find_call(j, (uint32_t)(*pt_hashmap_get(&j->shared, a - 1) >> 32), gs);
		}
		if (gs < call_start(j, a - 1))
			st->gpu_before_api++;
		j->act.v[out++] = a;
	}
	j->act.n = out;
	/* what the joins needed goes before the links take their room */
	pt_vec_free(&j->delay);
	pt_hashmap_free(&j->far);
	pt_vec_free(&j->wait);
	pt_vec_free(&j->wkern);
	pt_hashmap_free(&j->shared);
	pt_vec_free(&j->shared_bit);
	free(j->reps);
	j->reps = NULL;
	j->nreps = 0;
	for (int d = 0; d < 2; d++) {
		free(j->head[d]);
		j->head[d] = NULL;
		j->cap[d] = 0;
		ctab_free(&j->sparse[d]);
	}
	uint32_t *best = nr && out ? place_calls(j, rs, nr) : NULL;
	pt_vec_free(&j->base);
	pt_vec_free(&j->cstart);
	pt_hashmap_free(&j->cfar);
	pt_vec_free(&j->track);
	pt_hashmap_free(&j->wide);
	rank_build(&j->callbit);
	/* the links, from the last so that the first model's can grow over the activities in place */
	struct pt_model *m = j->m;
	void *spare = j->act.v;
	struct pt_gpu_link *lv = pt_model_reserve_links(m, out, &spare);
	j->act.v = spare;
	/* (through memcpy: the two kinds of record share the bytes) */
	const unsigned char *av = j->act.v ? (const unsigned char *)j->act.v : (const unsigned char *)lv;
	at = j->evn;
	uint32_t cc = 0;  /* the call at offset cpos of the call map, when cpos is */
	size_t cpos = SIZE_MAX;
	for (size_t i = out; i-- > 0;) {
		uint32_t c;
		memcpy(&c, av + i * sizeof(c), sizeof(c));
		c--;
		/* the calls mostly come in order: steps from the last one, else a search */
		if (cpos == SIZE_MAX || c > cc + 8 || c + 8 < cc) {
			cpos = select_bit(&j->callbit, c);
			cc = c;
		}
		for (; cc > c; cc--)
			prev_bit(&j->callbit, &cpos);
		for (; cc < c; cc++) {
			size_t from = cpos + 1;
			cpos = next_bit(&j->callbit, &from);
		}
		struct pt_gpu_link l = { j->ev0 + prev_bit(&j->actbit, &at), j->ev0 + (uint32_t)cpos,
					 best && best[c] ? rs[best[c] - 1].event + 1 : 0 };
		memcpy(&lv[i], &l, sizeof(l));
	}
	pt_model_commit_links(m, out);
	pt_vec_free(&j->act);
	bits_free(&j->callbit);
	bits_free(&j->actbit);
	free(best);
}

void pt_cjoin_free(struct pt_cjoin *j)
{
	if (!j)
		return;
	bits_free(&j->callbit);
	bits_free(&j->actbit);
	pt_vec_free(&j->base);
	pt_vec_free(&j->cstart);
	pt_hashmap_free(&j->cfar);
	pt_vec_free(&j->track);
	pt_hashmap_free(&j->wide);
	for (int d = 0; d < 2; d++) {
		free(j->head[d]);
		ctab_free(&j->sparse[d]);
	}
	free(j->reps);
	pt_hashmap_free(&j->shared);
	pt_vec_free(&j->shared_bit);
	pt_vec_free(&j->delay);
	pt_hashmap_free(&j->far);
	pt_vec_free(&j->wait);
	pt_vec_free(&j->wkern);
	pt_vec_free(&j->act);
	idset_free(&j->want);
	idset_free(&j->seen[0]);
	idset_free(&j->seen[1]);
	free(j);
}
