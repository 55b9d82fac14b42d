/*
 * The kineto profile's gpu_user_annotation events (cupti.md §7.3): a user
 * annotation projected on each stream where GPU work it launched ran.
 *
 * As Kineto: a GPU activity belongs to the innermost user annotation that
 * encloses its launching call (PyTorch's user correlation, CUPTI's CUSTOM1
 * external correlation, is the top of a stack of user scopes), not to the
 * operators (cpu_op) inside it. A user annotation is a host range of any type
 * but Operator, OperatorInner, PythonOp and Communication (summary.md §1.1):
 * ProfilerStep#N, record_function scopes, NVTX ranges. Its event on a stream
 * spans the first start to the last end of its kept activities there (kernels,
 * copies and sets; Kineto's handling of synchronizations adds none), written
 * 1 ns earlier and 2 ns longer so that it encloses them in viewers, on the
 * stream's row (lane 0), without arguments. A process imported from a Kineto
 * trace gets them only when its trace had them (import fact
 * kineto.gpu_user_annotations_skipped): older Kineto versions wrote none, and
 * a round trip should be read as its original.
 *
 * Readers depend on them: HolisticTraceAnalysis counts these events (they
 * carry no "stream") as CPU events, so the last ProfilerStep it sees, and with
 * it the kernels it keeps, move with them.
 */
#include <stdlib.h>
#include <string.h>

#include "pass/pass-timeline-trace.h"
#include "support/hashmap.h"
#include "support/sort.h"
#include "support/xalloc.h"

struct rng { /* a host range, for the nesting sweep */
	uint32_t track, ev;
	int64_t s, e;
	bool user;
};

static int rng_cmp(const void *pa, const void *pb)
{
	const struct rng *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1; /* the enclosing one first */
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

static int gann_cmp(const void *pa, const void *pb)
{
	const struct tl_gann *a = pa, *b = pb;
	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->range < b->range ? -1 : a->range > b->range;
}

static bool user_type(const char *t)
{
	return strcmp(t, "Operator") && strcmp(t, "OperatorInner") && strcmp(t, "PythonOp") &&
	       strcmp(t, "Communication");
}

/* Per host range event (key event + 1): its innermost user annotation + 1 (itself when it is one). */
static void user_ancestors(const struct pt_model *m, struct pt_hashmap *ua)
{
	size_t n = m->ranges.n;
	struct rng *v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pt_range_info *ri = &m->ranges.v[i];
		if (ri->event >= m->events.n)
			continue;
		uint32_t e = ri->event;
		v[k++] = (struct rng){ m->events.track[e], e, m->events.start[e], m->events.start[e] + m->events.dur[e],
				       user_type(pt_model_strget(m, ri->type)) };
	}
	pt_sort(v, k, sizeof(*v), rng_cmp);
	uint32_t *stack = pt_xmalloc((k ? k : 1) * sizeof(*stack)); /* indexes into v */
	uint64_t *up = pt_xmalloc((k ? k : 1) * sizeof(*up));       /* per v: its user annotation + 1, 0 = none */
	size_t sp = 0;
	for (size_t i = 0; i < k; i++) {
		if (i && v[i].track != v[i - 1].track)
			sp = 0;
		while (sp && v[stack[sp - 1]].e <= v[i].s)
			sp--;
		up[i] = v[i].user ? (uint64_t)v[i].ev + 1 : sp ? up[stack[sp - 1]] : 0;
		stack[sp++] = (uint32_t)i;
		if (up[i])
			*pt_hashmap_put(ua, (uint64_t)v[i].ev + 1, 0, NULL) = up[i];
	}
	free(up);
	free(stack);
	free(v);
}

bool tl_gpu_annotations_wanted(const struct pt_model *m, uint32_t dev)
{
	return pt_model_stat_get(m, (int32_t)dev, "kineto.events", -1) < 0 ||
	       pt_model_stat_get(m, (int32_t)dev, "kineto.gpu_user_annotations_skipped", 0);
}

void tl_build_gpu_annotations(struct tl_trace *c)
{
	const struct pt_model *m = c->m;
	if (!c->kineto || !m->links.n || !m->ranges.n)
		return;
	uint32_t *row_of = pt_xmalloc((m->tracks.n ? m->tracks.n : 1) * sizeof(*row_of));
	memset(row_of, 0xff, (m->tracks.n ? m->tracks.n : 1) * sizeof(*row_of));
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->type == R_TRACK && !rw->host && !rw->lane && row_of[rw->track] == UINT32_MAX)
			row_of[rw->track] = (uint32_t)r;
	}
	int8_t *want = pt_xcalloc(m->devices.n ? m->devices.n : 1, 1); /* per CPU device: 0 unknown, 1 yes, -1 no */
	struct pt_hashmap ua, at; /* at: (annotation, row) -> index into c->ganns + 1 */
	pt_hashmap_init(&ua);
	pt_hashmap_init(&at);
	user_ancestors(m, &ua);
	for (size_t l = 0; l < m->links.n; l++) {
		const struct pt_gpu_link *lk = &m->links.v[l];
		uint32_t g = lk->event;
		if (!lk->range || g >= m->events.n || !(c->tl->ev_keep[g] & 1))
			continue;
		uint8_t k = m->events.kind[g]; /* Kineto's GPU activities: not synchronizations */
		if (k != PT_EV_KERNEL && k != PT_EV_MEMCPY && k != PT_EV_MEMSET)
			continue;
		uint64_t *u = pt_hashmap_get(&ua, lk->range);
		uint32_t row = row_of[m->events.track[g]];
		if (!u || row == UINT32_MAX)
			continue;
		uint32_t dev = m->tracks.v[m->events.track[*u - 1]].device;
		if (!want[dev])
			want[dev] = tl_gpu_annotations_wanted(m, dev) ? 1 : -1;
		if (want[dev] < 0)
			continue;
		int64_t s = m->events.start[g], e = s + m->events.dur[g];
		bool added;
		uint64_t *p = pt_hashmap_put(&at, (*u - 1) << 32 | row, 0, &added);
		if (added) {
			struct tl_gann a = { (uint32_t)(*u - 1), row, s, e };
			pt_vec_push(&c->ganns, a);
			*p = c->ganns.n;
			continue;
		}
		struct tl_gann *a = &c->ganns.v[*p - 1];
		if (s < a->s)
			a->s = s;
		if (e > a->e)
			a->e = e;
	}
	pt_hashmap_free(&at);
	pt_hashmap_free(&ua);
	free(want);
	free(row_of);
	pt_sort(c->ganns.v, c->ganns.n, sizeof(*c->ganns.v), gann_cmp);
}

void tl_gpu_annotation_sources(struct tl_trace *c)
{
	size_t n = c->ganns.n;
	if (!n)
		return;
	c->gann_idx = pt_xmalloc(n * sizeof(*c->gann_idx));
	for (size_t i = 0; i < n; i++)
		c->gann_idx[i] = (uint32_t)i;
	for (size_t i = 0; i < n;) {
		uint32_t row = c->ganns.v[i].row;
		size_t j = i;
		while (j < n && c->ganns.v[j].row == row)
			j++;
		struct src s = { .ph = PH_G, .pid = c->rows.v[row].pid, .tid = c->rows.v[row].tid, .ref = row,
				 .n = j - i, .items = c->gann_idx + i };
		pt_vec_push(&c->srcs, s);
		i = j;
	}
}

int64_t tl_gpu_annotation_ts(const struct tl_trace *c, uint32_t i)
{
	const struct tl_gann *a = &c->ganns.v[i];
	int64_t ts = a->s - 1 + c->rows.v[a->row].off - c->base;
	return ts < 0 ? 0 : ts;
}

uint32_t tl_gpu_annotation_event(const struct tl_trace *c, uint32_t i, struct pt_trace_ev *out)
{
	const struct tl_gann *a = &c->ganns.v[i];
	int64_t ts = a->s - 1 + c->rows.v[a->row].off - c->base;
	out->ph = PT_PH_X;
	out->row = a->row;
	out->ts = ts < 0 ? 0 : ts;
	out->dur = a->e - a->s + 2 + (ts < 0 ? ts : 0);
	return a->range;
}
