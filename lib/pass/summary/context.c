/* The summary's context helpers: output names, ranges and copies of events, intervals over W, step phases. */
#define _GNU_SOURCE
#include "pass/summary/summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <demangle.h>

#include "support/names.h"
#include "support/xalloc.h"


const char *const sum_htype_names[HT_NTYPES] = { "ProfileStep", "Dataloader",  "Forward",   "Backward",
						 "Optimization", "Operator", "OperatorInner", "UserDefined",
						 "UserRange",   "PythonOp",  "Communication" };

/* The demangled form of raw string id raw (to free), or NULL when it is not a mangled name. */
static char *demangled(const struct ctx *g, uint32_t raw)
{
	const char *s = pt_strtab_get(&g->m->strings, raw);
	size_t n = pt_strtab_len(&g->m->strings, raw);
	if (!g->o->no_demangle && n > 2 && s[0] == '_' && s[1] == 'Z')
		return cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
	return NULL;
}

/* Output name of a raw string id: demangled, API suffix _vNNNN dropped (§1). */
uint32_t sum_out_name(struct ctx *g, uint32_t raw, bool api)
{
	uint32_t *cache = api ? g->raw2api : g->raw2out;
	if (cache[raw])
		return cache[raw] - 1;
	const char *s = pt_strtab_get(&g->m->strings, raw);
	size_t n = pt_strtab_len(&g->m->strings, raw);
	uint32_t id;
	char *dm = demangled(g, raw);
	if (dm) {
		id = out_intern(g, dm, strlen(dm));
		free(dm);
	} else if (api) {
		id = out_intern(g, s, pt_api_name_len(s, n));
	} else {
		id = out_intern(g, s, n);
	}
	cache[raw] = id + 1;
	return id;
}

/* The order of the output names (not an API's) of raw string ids a and b, as strcmp orders them,
 * without interning them (names that no output row shows: a step range's, one a step). */
int sum_out_cmp_raw(const struct ctx *g, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	char *da = demangled(g, a), *db = demangled(g, b);
	int c = strcmp(da ? da : pt_strtab_get(&g->m->strings, a), db ? db : pt_strtab_get(&g->m->strings, b));
	free(da);
	free(db);
	return c;
}

/* Index of the window containing t, or -1. */
ssize_t sum_win_of(const struct rank *r, int64_t t)
{
	size_t lo = 0, hi = r->nw;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->w[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nw && r->w[lo].s <= t && t < r->w[lo].e ? (ssize_t)lo : -1;
}

int64_t sum_measure_W(const struct rank *r, const struct pt_ivset *s)
{
	int64_t t = 0;
	for (size_t k = 0; k < r->W.n; k++)
		t += pt_ivset_measure_in(s, r->W.v[k].s, r->W.v[k].e);
	return t;
}

void sum_ivl_add(struct ivl *l, int64_t s, int64_t e)
{
	if (l->n == l->cap)
		pt_xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct pt_ival){ s, e };
}

/* |union(l) ∩ W|; frees l. Touching or zero-length intervals: union as §2.7. */
int64_t sum_ivl_measure(const struct rank *r, struct ivl *l)
{
	struct pt_ivset s = { 0 };
	pt_ivset_build(&s, l->v, l->n);
	int64_t t = sum_measure_W(r, &s);
	pt_ivset_free(&s);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	return t;
}

/* Runs in start order merged by start (summary.h: struct sruns). */
static void sruns_down(struct sruns *x, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < x->n && x->v[l].key < x->v[m].key)
			m = l;
		if (l + 1 < x->n && x->v[l + 1].key < x->v[m].key)
			m = l + 1;
		if (m == i)
			return;
		struct srun t = x->v[i];
		x->v[i] = x->v[m];
		x->v[m] = t;
		i = m;
	}
}

static void sruns_heapify(struct sruns *x)
{
	for (size_t i = x->n / 2; i-- > 0;)
		sruns_down(x, i);
}

void sum_sruns_ranges(struct sruns *x, const struct rank *r)
{
	const struct hr *H = r->hr;
	size_t runs = 0;
	for (size_t k = 0; k < r->nhr; k++)
		runs += !k || H[k].track != H[k - 1].track;
	x->v = pt_xmalloc((runs ? runs : 1) * sizeof(*x->v));
	x->n = 0;
	for (size_t k = 0; k < r->nhr; k++)
		if (!k || H[k].track != H[k - 1].track)
			x->v[x->n++] = (struct srun){ H[k].s, k, k + 1, NULL };
		else
			x->v[x->n - 1].end = k + 1;
	sruns_heapify(x);
}

uint32_t sum_sruns_next_range(struct sruns *x, const struct hr *H)
{
	if (!x->n)
		return UINT32_MAX;
	struct srun *t = &x->v[0];
	uint32_t k = (uint32_t)t->cur;
	if (++t->cur < t->end)
		t->key = H[t->cur].s;
	else
		x->v[0] = x->v[--x->n];
	sruns_down(x, 0);
	return k;
}

/* Skip run t to its next event of kind k; false: none left. */
static bool srun_seek(struct srun *t, const struct pt_events *ev, uint8_t k)
{
	while (t->cur < t->end && ev->kind[t->list[t->cur]] != k)
		t->cur++;
	if (t->cur == t->end)
		return false;
	t->key = ev->start[t->list[t->cur]];
	return true;
}

void sum_sruns_events(struct sruns *x, struct rank *r, uint8_t k)
{
	const struct pt_events *ev = &r->g->m->events;
	x->v = pt_xmalloc((r->natracks ? r->natracks : 1) * sizeof(*x->v));
	x->n = 0;
	for (size_t q = 0; q < r->natracks; q++) {
		size_t n;
		const uint32_t *l = pt_index_track_events(r->g->x, r->atracks[q], &n);
		struct srun t = { 0, 0, n, l };
		if (srun_seek(&t, ev, k))
			x->v[x->n++] = t;
	}
	sruns_heapify(x);
}

uint32_t sum_sruns_next_event(struct sruns *x, const struct pt_events *ev, uint8_t k)
{
	if (!x->n)
		return UINT32_MAX;
	struct srun *t = &x->v[0];
	uint32_t i = t->list[t->cur];
	t->cur++;
	if (!srun_seek(t, ev, k))
		x->v[0] = x->v[--x->n];
	sruns_down(x, 0);
	return i;
}

int64_t sum_urun_end(const struct rank *r, struct urun *u)
{
	if (u->open)
		u->total += pt_ivset_measure_in(&r->W, u->cs, u->ce);
	u->open = false;
	return u->total;
}

bool sum_comm_op_name(const struct ctx *g, const char *s)
{
	if (g->o->comm_re)
		return !regexec(g->o->comm_re, s, 0, NULL, 0);
	return pt_index_comm_op_name(s);
}

bool sum_comm_kernel_name(const struct ctx *g, const char *s)
{
	if (g->o->comm_re)
		return !regexec(g->o->comm_re, s, 0, NULL, 0);
	return pt_index_comm_kernel_name(s);
}

bool sum_mem_name(const char *s)
{
	static const char *const pats[] = { "memcpy", "memorycopy", "memset", NULL };
	return pt_name_has_any(s, pats);
}

/* The range info of event i, or NULL. */
const struct pt_range_info *sum_range_info(const struct pt_model *m, uint32_t i)
{
	return pt_model_range_info(m, i);
}

/* The copy info of event i (of the batch, when streamed), or NULL. */
const struct pt_copy_info *sum_copy_info(const struct ctx *g, size_t i)
{
	return pt_model_copy_info(g->m, (uint32_t)(g->base + i));
}

/* Name of a copy or fill as nvprof names it (§3.7); [memcpy]/[memset] when the source records no kind. */
uint32_t sum_copy_name(struct ctx *g, size_t i)
{
	static const char *const kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					     "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
	const struct pt_model *m = g->m;
	bool set = m->events.kind[i] == PT_EV_MEMSET;
	const struct pt_copy_info *ci = sum_copy_info(g, i);
	if (!ci)
		return set ? out_intern(g, "[memset]", 8) : out_intern(g, "[memcpy]", 8);
	if (set)
		return out_intern(g, "[CUDA memset]", 13);
	unsigned k = ci->copy_kind < 11 ? ci->copy_kind : 0;
	if (ci->src_device >= 0 && ci->dst_device >= 0 && ci->src_device != ci->dst_device)
		k = 10;
	char b[48];
	int n = snprintf(b, sizeof(b), "[CUDA memcpy %s]", kinds[k]);
	return out_intern(g, b, (size_t)n);
}

/* Output name of an unnamed Ascend task: "task <stream>_<task>". */
uint32_t sum_task_name(struct ctx *g, size_t i)
{
	const struct pt_model *m = g->m;
	char b[64];
	int n = snprintf(b, sizeof(b), "task %" PRId64 "_%" PRIu64, m->tracks.v[m->events.track[i]].stream,
			 m->events.task[i]);
	return out_intern(g, b, (size_t)n);
}

uint64_t sum_task_key(const struct pt_model *m, size_t i)
{
	return ((uint64_t)(uint32_t)m->tracks.v[m->events.track[i]].stream << 40) ^ m->events.task[i];
}

/* Output name of a device activity: kernel name, or the copy/fill kind (§3.7). */
uint32_t sum_act_name(struct ctx *g, size_t i)
{
	const struct pt_events *ev = &g->m->events;
	if (ev->kind[i] == PT_EV_MEMCPY || ev->kind[i] == PT_EV_MEMSET)
		return sum_copy_name(g, i);
	if (!ev->name[i])
		return out_intern(g, "<unnamed>", 9);
	return sum_out_name(g, ev->name[i], false);
}

void sum_rank_devices(const struct rank *r, uint32_t **out, size_t *n)
{
	const struct pt_model *m = r->g->m;
	*out = pt_xcalloc(m->devices.n + 1, sizeof(**out));
	*n = 0;
	for (uint32_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (r->ascend ? d != r->dev : dv->kind != PT_DEV_GPU || !r->devin[d])
			continue;
		(*out)[(*n)++] = d;
	}
	/* ascending device id */
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && m->devices.v[(*out)[j - 1]].id > m->devices.v[(*out)[j]].id; j--) {
			uint32_t tmp = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = tmp;
		}
}

void sum_dev_label(const struct pt_model *m, uint32_t d, char *b)
{
	snprintf(b, 32, "%s%" PRIu32, m->devices.v[d].kind == PT_DEV_NPU ? "NPU" : "GPU", m->devices.v[d].id);
}
