#include "export/export-chrome.h"

#include <demangle.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/jsonw.h"
#include "model/index.h"
#include "model/model.h"
#include "pass/pass-timeline.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/fmt.h"
#include "support/hashmap.h"
#include "support/idmap.h"
#include "support/names.h"
#include "support/out.h"
#include "support/pdeflate.h"
#include "support/vec.h"
#include "support/xalloc.h"
#include "support/sort.h"

#define TID_BASE 100000000u
#define MAX_REL ((int64_t)1 << 53)

/* ------------------------------------------------------------------ numbers */

static inline char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
#define PUTL(p, lit) put((p), (lit), sizeof(lit) - 1)

static inline char *put_u64(char *p, uint64_t v)
{
	return p + pt_fmt_u64(p, v);
}

static inline char *put_i64(char *p, int64_t v)
{
	return p + pt_fmt_i64(p, v);
}

/* rel ns (>= 0) as microseconds with exactly three decimals */
static inline char *put_us(char *p, int64_t rel)
{
	return p + pt_fmt_milli(p, (uint64_t)rel);
}

size_t pt_chrome_fmt_us(char *out, int64_t rel)
{
	return (size_t)(put_us(out, rel) - out);
}

/*
 * The dur of an X event starting at rel, so that a reader adding the parsed
 * doubles, as JavaScript does (ts + dur), never sees false nesting
 * (chrome-trace.md §3). S, D and E are the doubles nearest to rel/1000,
 * dur/1000 and (rel+dur)/1000: what strtod makes of the exact three-decimal
 * texts (IEEE division of the exact integer by 1000.0 gives the same double).
 * S + D is often one unit in the last place off E, either way: an event then
 * ends after the next one on its row starts, or after its parent ends.
 *
 * So the sum a reader computes is made a function of the end alone:
 * T(E) = E when the last bit of E's significand is 0, else the double below
 * E. T is monotone and T(E) <= E, hence a.end <= b.start in ns gives
 * T(E_a) <= E_a <= S_b, and child.end <= parent.end gives T(E_c) <= T(E_p).
 * T(E) is always reachable as S + C: where the exact sums near E are a whole
 * unit apart they round to every double, and where they fall on halfway
 * points they round to the even ones, which T picks. A zero dur stays 0.000
 * and ends at S: in ns it lies after an event ending there and before or on
 * the next start, and S <= T(E) of any parent that contains it.
 *
 * When S + D == T(E), dur is the exact three-decimal text. Otherwise it is
 * the double C nearest to D with S + C == T(E), written with 17 significant
 * digits (trailing zeros dropped), which read back as C: it differs from dur/1000
 * by about two units in the last place of E, below half a ns while the end
 * is below 2^49 ns (6.5 days after the base), so a reader that rounds
 * dur x 1000 gets dur (one that truncates may get dur - 1); beyond that,
 * up to the 2^53 ns limit, dur may read 1 or 2 ns off, the order still holds.
 */
static double dbl_of(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

static uint64_t bits_of(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u;
}

static double end_target(double E)
{
	return E > 0 && (bits_of(E) & 1) ? dbl_of(bits_of(E) - 1) : E;
}

/* The valid C next to D by bisection of the bit patterns (the general case; S + C grows with C). */
static double dur_bisect(double S, double D, double T)
{
	double c = T - S;
	for (int k = 0; k < 6 && S + c != T; k++)
		c = nextafter(c, S + c < T ? INFINITY : -INFINITY);
	if (S + c != T || c < 0)
		return D;
	uint64_t bad = bits_of(D), good = bits_of(c);
	while (bad + 1 != good && good + 1 != bad) {
		uint64_t mid = bad < good ? bad + (good - bad) / 2 : good + (bad - good) / 2;
		if (S + dbl_of(mid) == T)
			good = mid;
		else
			bad = mid;
	}
	return dbl_of(good);
}

static double dur_double(int64_t rel, int64_t dur)
{
	double S = (double)rel / 1000.0, D = (double)dur / 1000.0, T = end_target((double)(rel + dur) / 1000.0);
	if (S + D == T || !dur) /* a zero dur ends at ts: after a parent ending there, before or on the next start */
		return D;
	/*
	 * The usual case, T/2 <= S <= T: c0 = T - S is exact (Sterbenz), and
	 * since T is even, S + x rounds to T for every real x within half the
	 * gap to T's neighbours around c0: the valid C are the doubles of
	 * [c0 - gl/2, c0 + gu/2]. Clamp D into it (checked; else bisect).
	 */
	if (S >= T * 0.5 && S <= T) {
		double c0 = T - S, gl = T - dbl_of(bits_of(T) - 1), gu = dbl_of(bits_of(T) + 1) - T; /* T > 0 here */
		double lo = c0 - gl * 0.5, hi = c0 + gu * 0.5;
		if (S + lo != T)
			lo = c0;
		if (S + hi != T)
			hi = c0;
		double C = D < lo ? lo : D > hi ? hi : D;
		if (S + C == T && C >= 0)
			return C;
	}
	return dur_bisect(S, D, T);
}

static char *put_dur(char *p, int64_t rel, int64_t dur)
{
	double C = dur_double(rel, dur);
	if (C == (double)dur / 1000.0)
		return put_us(p, dur);
	return p + pt_fmt_dbl17(p, C);
}

size_t pt_chrome_fmt_dur(char *out, int64_t rel, int64_t dur)
{
	return (size_t)(put_dur(out, rel, dur) - out);
}

/* ------------------------------------------------------------------ planner */

struct plan_unit {
	uint64_t first;     /* ordinal of its first event */
	uint64_t bytes;     /* all its events */
	uint64_t last;      /* bytes of its last piece (after forced cuts) */
	size_t cut0, ncut;  /* its forced cuts in p->forced */
};

struct pt_chrome_planner {
	uint64_t header, limit, room, ord, acc;
	bool have;
	uint32_t unit;
	PT_VEC(struct plan_unit) units;
	PT_VEC(uint64_t) forced;
	PT_VEC(uint64_t) cuts;
};

struct pt_chrome_planner *pt_chrome_planner_new(uint64_t header, uint64_t limit)
{
	struct pt_chrome_planner *p = pt_xcalloc(1, sizeof(*p));
	p->header = header;
	p->limit = limit;
	p->room = limit > header ? limit - header : 1;
	return p;
}

void pt_chrome_planner_event(struct pt_chrome_planner *p, uint32_t unit, uint64_t bytes)
{
	if (!p->have || unit != p->unit) {
		struct plan_unit u = { p->ord, 0, 0, p->forced.n, 0 };
		pt_vec_push(&p->units, u);
		p->unit = unit;
		p->have = true;
		p->acc = 0;
	}
	struct plan_unit *u = &p->units.v[p->units.n - 1];
	/* cut between events at the first one whose inclusion would exceed L (counted from a fresh part) */
	if (p->acc && p->acc + bytes > p->room) {
		pt_vec_push(&p->forced, p->ord);
		u->ncut++;
		p->acc = 0;
	}
	p->acc += bytes;
	u->bytes += bytes;
	u->last = p->acc;
	p->ord++;
}

size_t pt_chrome_planner_finish(struct pt_chrome_planner *p, const uint64_t **cuts)
{
	uint64_t cur = 0;
	bool open = false;
	p->cuts.n = 0;
	for (size_t i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];
		if (!u->ncut) {
			if (open && cur + u->bytes <= p->room) {
				cur += u->bytes;
				continue;
			}
			if (open)
				pt_vec_push(&p->cuts, u->first);
			open = true;
			cur = u->bytes;
			continue;
		}
		if (open)
			pt_vec_push(&p->cuts, u->first);
		for (size_t k = 0; k < u->ncut; k++)
			pt_vec_push(&p->cuts, p->forced.v[u->cut0 + k]);
		open = true;
		cur = u->last;
	}
	*cuts = p->cuts.v;
	return p->cuts.n + 1;
}

void pt_chrome_planner_free(struct pt_chrome_planner *p)
{
	if (!p)
		return;
	pt_vec_free(&p->units);
	pt_vec_free(&p->forced);
	pt_vec_free(&p->cuts);
	free(p);
}

/* ------------------------------------------------------------------ sink */

struct sink {
	char *buf;
	size_t len, cap;
	uint64_t total;   /* uncompressed bytes */
	struct pt_out *o; /* NULL: count only */
	bool gz;
	struct pt_pdeflate *pz; /* gzip on a thread pool (support/pdeflate.h) while open */
	uint64_t zbytes;
	bool zerr;
};

#define SINK_CAP (1u << 20)

/* Compressed bytes go to the output (whose first write error pt_out_commit reports), counted. */
static int sink_out(void *ctx, const void *p, size_t n)
{
	struct sink *s = ctx;
	pt_out_write(s->o, p, n);
	s->zbytes += n;
	return 0;
}

static void sink_init(struct sink *s, struct pt_out *o, bool gz, int level, int threads)
{
	memset(s, 0, sizeof(*s));
	s->cap = SINK_CAP;
	s->buf = pt_xmalloc(s->cap);
	s->o = o;
	s->gz = gz && o;
	if (s->gz) {
		struct pt_pdeflate_opts zo = { .level = level ? level : 6, .threads = threads, .gzip = true };
		s->pz = pt_pdeflate_open(&zo, sink_out, s);
	}
}

static void sink_flush(struct sink *s)
{
	s->total += s->len;
	if (s->o && s->len) {
		if (s->gz && !s->zerr)
			s->zerr = pt_pdeflate_write(s->pz, s->buf, s->len) != 0;
		else if (!s->gz)
			pt_out_write(s->o, s->buf, s->len);
	}
	s->len = 0;
}

static void sink_finish(struct sink *s)
{
	sink_flush(s);
	if (s->pz) {
		struct pt_err *e = NULL;
		if (pt_pdeflate_finish(s->pz, &e))
			s->zerr = true;
		pt_err_free(e);
		s->pz = NULL;
	}
}

static void sink_free(struct sink *s)
{
	pt_pdeflate_abort(s->pz); /* a sink given up before sink_finish */
	s->pz = NULL;
	free(s->buf);
}

static inline char *sink_reserve(struct sink *s, size_t n)
{
	if (s->len + n > s->cap) {
		sink_flush(s);
		if (n > s->cap) {
			s->cap = n;
			s->buf = pt_xrealloc(s->buf, s->cap);
		}
	}
	return s->buf + s->len;
}

static inline uint64_t sink_pos(const struct sink *s)
{
	return s->total + s->len;
}

static void sink_write(struct sink *s, const void *p, size_t n)
{
	char *d = sink_reserve(s, n);
	memcpy(d, p, n);
	s->len += n;
}

static void sink_puts(struct sink *s, const char *str)
{
	sink_write(s, str, strlen(str));
}

static void sink_i64(struct sink *s, int64_t v)
{
	char *d = sink_reserve(s, 24);
	s->len += (size_t)(put_i64(d, v) - d);
}

/* ------------------------------------------------------------------ strings */

struct arena {
	char *v;
	size_t n, cap;
};

static void arena_put(struct arena *a, const void *p, size_t n)
{
	if (!n)
		return;
	pt_xgrow((void **)&a->v, &a->cap, a->n + n, 1);
	memcpy(a->v + a->n, p, n);
	a->n += n;
}

/* Append s as a JSON string literal (quotes included). */
static void arena_jstr(struct arena *a, const char *str, size_t n)
{
	pt_xgrow((void **)&a->v, &a->cap, a->n + 6 * n + 2, 1);
	a->n += pt_jsonw_quote(a->v + a->n, str, n, true);
}

static void sink_jstr(struct sink *s, struct arena *tmp, const char *str, size_t n)
{
	tmp->n = 0;
	arena_jstr(tmp, str, n);
	sink_write(s, tmp->v, tmp->n);
}

/* cached fragments: offset and length into the arena; len UINT32_MAX = not yet built */
struct frag {
	uint32_t len;
	uint64_t off;
};

enum { NM_RAW, NM_DEMANGLE, NM_API, NM_LAST, NM_N };

/* ------------------------------------------------------------------ layout */

enum row_type { R_TRACK, R_SLICE, R_IV };
enum sl_kind { SL_STEPS, SL_SCOPE, SL_COMM };

struct row {
	uint32_t pid;
	uint32_t tid;
	int32_t sort;
	uint32_t lane;
	int64_t order;     /* secondary order within equal sort (first event, stream id) */
	char *name;        /* thread name (lane suffix added) */
	uint8_t type, slkind;
	uint32_t level;    /* scope level / overlap kind */
	uint32_t dev;
	uint32_t track;
	int64_t off;       /* clock offset of the device to the export clock */
	uint32_t *idx;     /* items: event indexes (R_TRACK), slice indexes (R_SLICE), intervals (R_IV) */
	size_t n;
	bool ranged;       /* lo, hi: min start and max end of the items (in the row's clock) */
	int64_t lo, hi;
	const struct pt_tl_slice *sl;
	const struct pt_ival *iv;
	char *prefix;      /* ,"pid":P,"tid":T,"ts": */
	size_t prefix_len;
	bool host;
	/* R_TRACK: text of the track's args; R_IV: the event text up to "ts": */
	char *head;        /* R_IV: {"ph":"X","cat":"Overlap","name":N,"pid":P,"tid":T,"ts": */
	size_t head_len;
	char targs[48];    /* "stream_id":S,"task_id": */
	char dargs[64];    /* "device":D,"stream":S */
	char tname[32];    /* "task S_ */
	uint8_t targs_len, dargs_len, tname_len;
};

struct proc {
	uint32_t pid;
	char *name;
	uint32_t first_tid; /* for counters */
	bool used;
	bool device;        /* kineto: a GPU/NPU process (labels, sort index 5000000 + id) */
	uint32_t devid;
};

struct flow {
	uint32_t api, act; /* event indexes */
	uint32_t id;
	uint32_t srow, frow;
	int64_t sts, fts;  /* rel */
};

struct csrc { /* a counter group: queue samples of one track */
	uint32_t track, pid, tid;
	int64_t off;
	uint32_t *idx;     /* sample indexes, time order */
	size_t n;
	char *name;
	bool queue;        /* series "size" (int) vs "value" (double) */
	bool carry0;       /* the first sample is the last one before the window, shown at its start */
	int64_t carry_t;
	const struct pt_gms_group *grp; /* a GPU memory group of the timeline pass: idx are its samples */
};

/* Time of sample k of a counter group (before the window carry). */
static inline int64_t csrc_time(const struct pt_model *m, const struct csrc *cs, size_t k)
{
	uint32_t i = cs->idx[k];
	return cs->grp ? cs->grp->time.v[i] : cs->queue ? m->queues.time[i] : m->counters.time[i];
}

enum { PH_X, PH_I, PH_C, PH_S, PH_F };

struct src {
	uint8_t ph;
	uint32_t pid, tid;
	uint32_t ref;      /* row / counter / flow-row index */
	size_t pos, n;
	uint32_t *items;   /* for flows: indexes into ctx flows */
	uint32_t key;      /* rank of (ph, pid, tid, source index) among the sources */
};

/*
 * The merge key of a source's current item: (rel ts << 32) | src->key, one
 * integer comparison for the order (ts, ph, pid, tid, source index). rel ts
 * is >= 0; DONE marks an exhausted source.
 */
typedef unsigned __int128 mkey;
#define MKEY_DONE (~(mkey)0)

static inline mkey mkey_of(int64_t ts, uint32_t key)
{
	return (mkey)(uint64_t)ts << 32 | key;
}

struct ctx {
	const struct pt_model *m;
	struct pt_index *x;
	const struct pt_tl *tl;
	const struct pt_chrome_opts *o;
	const char *clock;
	int64_t *dev_off;
	uint8_t *dev_ok;
	uint32_t *dev_pid, *dev_ovpid, *dev_rank;
	int64_t base;
	PT_VEC(struct proc) procs;
	PT_VEC(struct row) rows;
	PT_VEC(struct flow) flows;
	PT_VEC(struct csrc) counters;
	PT_VEC(struct src) srcs;
	uint32_t *flow_s, *flow_f; /* flow indexes grouped per source */
	struct arena arena, tmp;
	struct frag *names[NM_N];
	uint8_t *nflags;    /* per string id: NF_* */
	bool has_corr;      /* the model has correlation ids (else that column is all zero and never read) */
	/* the kineto profile (chrome-trace.md §11) */
	bool kineto;
	bool host_steps;       /* the model has host step ranges (CUPTI): no device Steps rows */
	uint32_t *copy_of;     /* per event: m->copies index + 1 (memcpy, memset) */
	uint32_t *kconf_of;    /* per event: m->kernel_configs index + 1 (kernels) */
	uint32_t *step_first, *step_last; /* per device: first and last step of its Steps row, 0 = none */
	struct frag *opargs;
	uint64_t overflow, unaligned, unanchored;
	PT_VEC(int64_t) bounds; /* step boundaries (rel), sorted */
	PT_VEC(uint32_t) bound_step;
	/* the k-way merge: a tournament tree of losers over the sources */
	mkey *leaf;         /* per source (padded to a power of two): the key of its current item */
	uint32_t *tree;     /* tree[0]: the winner; tree[1..nleaf-1]: the loser at each node */
	size_t nleaf;
	/* rendering state */
	bool first_event;
	uint64_t ord;
	/* split */
	const uint64_t *cuts;
	size_t ncuts;
	uint64_t *flow_ord; /* 2 per flow: ordinal of s and f */
	bool record_flow_ord;
	uint8_t *flow_drop;
	uint64_t dropped;
	bool abort_over;    /* stop when the output exceeds limit */
	uint64_t limit;
};

static uint32_t device_rank(const struct pt_device *dv)
{
	return dv->kind == PT_DEV_NPU ? dv->id : dv->pid && dv->rank >= 0 ? (uint32_t)dv->rank : 0;
}

size_t pt_chrome_ranks(const struct pt_model *m, uint32_t **out)
{
	uint32_t *v = pt_xmalloc((m->devices.n ? m->devices.n : 1) * sizeof(*v));
	size_t n = 0;
	for (size_t d = 0; d < m->devices.n; d++) {
		uint32_t r = device_rank(&m->devices.v[d]);
		size_t j = n;
		bool seen = false;
		for (size_t k = 0; k < n; k++)
			seen |= v[k] == r;
		if (seen)
			continue;
		while (j > 0 && v[j - 1] > r) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = r;
		n++;
	}
	*out = v;
	return n;
}

static const char *strget(const struct ctx *c, uint32_t id)
{
	return pt_model_strget(c->m, id);
}

/* Name of event string id in the given mode, cached and escaped. */
static const struct frag *name_frag(struct ctx *c, uint32_t id, int mode)
{
	struct frag *f = &c->names[mode][id];
	if (f->len != UINT32_MAX)
		return f;
	const char *s = strget(c, id);
	size_t n = strlen(s);
	char *dm = NULL;
	if (mode == NM_DEMANGLE && c->o->demangle && s[0] == '_' && s[1] == 'Z') {
		dm = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
		if (dm) {
			s = dm;
			n = strlen(dm);
		}
	} else if (mode == NM_API) {
		n = pt_api_name_len(s, n);
	} else if (mode == NM_LAST) {
		const char *sl = strrchr(s, '/');
		if (sl && sl[1]) {
			n -= (size_t)(sl + 1 - s);
			s = sl + 1;
		}
	}
	f->off = c->arena.n;
	arena_jstr(&c->arena, s, n);
	f->len = (uint32_t)(c->arena.n - f->off);
	free(dm);
	return f;
}

static bool name_differs(struct ctx *c, uint32_t id, int mode)
{
	const struct frag *a = name_frag(c, id, mode), *b = name_frag(c, id, NM_RAW);
	return a->len != b->len || memcmp(c->arena.v + a->off, c->arena.v + b->off, a->len);
}

/* Facts about a string id, computed once: it holds a '/'; its demangled / API form differs. */
enum { NF_DONE = 1, NF_SLASH = 2, NF_DEMANGLED = 4, NF_API = 8 };

static uint8_t name_flags(struct ctx *c, uint32_t id)
{
	uint8_t f = c->nflags[id];
	if (f)
		return f;
	f = NF_DONE;
	if (strchr(strget(c, id), '/'))
		f |= NF_SLASH;
	if (name_differs(c, id, NM_DEMANGLE))
		f |= NF_DEMANGLED;
	if (name_differs(c, id, NM_API))
		f |= NF_API;
	c->nflags[id] = f;
	return f;
}

static void shapes(struct arena *a, const struct pt_op *op, bool output)
{
	bool first = true;
	for (size_t i = 0; i < op->tensors.n; i++) {
		const struct pt_tensor *t = &op->tensors.v[i];
		if (t->output != output)
			continue;
		if (!first)
			arena_put(a, ";", 1);
		first = false;
		arena_put(a, "[", 1);
		for (uint32_t k = 0; k < t->nshape; k++) {
			char b[24];
			if (k)
				arena_put(a, ",", 1);
			arena_put(a, b, pt_fmt_i64(b, t->shape[k]));
		}
		arena_put(a, "]", 1);
	}
}

/* "full_name":..,"op_type":..,"input_shapes":..,"output_shapes":.. of an op */
static const struct frag *op_frag(struct ctx *c, uint32_t op)
{
	struct frag *f = &c->opargs[op];
	if (f->len != UINT32_MAX)
		return f;
	const struct pt_op *p = &c->m->ops.v[op];
	struct arena *t = &c->tmp;
	t->n = 0;
	arena_put(t, "\"full_name\":", 12);
	const char *s = strget(c, p->name);
	arena_jstr(t, s, strlen(s));
	if (p->type) {
		arena_put(t, ",\"op_type\":", 11);
		s = strget(c, p->type);
		arena_jstr(t, s, strlen(s));
	}
	if (p->tensors.n) {
		struct arena sh = { 0 };
		shapes(&sh, p, false);
		arena_put(t, ",\"input_shapes\":", 16);
		arena_jstr(t, sh.v ? sh.v : "", sh.n);
		sh.n = 0;
		shapes(&sh, p, true);
		arena_put(t, ",\"output_shapes\":", 17);
		arena_jstr(t, sh.v ? sh.v : "", sh.n);
		free(sh.v);
	}
	if (p->block_dim) {
		char b[24];
		arena_put(t, ",\"block_dim\":", 13);
		arena_put(t, b, pt_fmt_u64(b, p->block_dim));
	}
	f->off = c->arena.n;
	arena_put(&c->arena, t->v, t->n);
	f->len = (uint32_t)(c->arena.n - f->off);
	return f;
}

/* ------------------------------------------------------------------ clocks */

struct edge {
	const char *from, *to;
	int64_t off;
};

/* Offset from clock a to clock b through recorded offsets; false when unreachable. */
static bool clock_path(const struct pt_model *m, const char *a, const char *b, int64_t *off)
{
	if (!strcmp(a, b)) {
		*off = 0;
		return true;
	}
	PT_VEC(struct edge) ed = { 0 };
	for (size_t d = 0; d < m->devices.n; d++)
		for (size_t i = 0; i < m->devices.v[d].offsets.n; i++) {
			const struct pt_clock_offset *co = &m->devices.v[d].offsets.v[i];
			struct edge e1 = { co->from, co->to, co->offset_ns }, e2 = { co->to, co->from, 0 };
			pt_vec_push(&ed, e1);
			if (!__builtin_sub_overflow(0, co->offset_ns, &e2.off))
				pt_vec_push(&ed, e2);
		}
	/* breadth-first over names (tiny graphs) */
	PT_VEC(const char *) q = { 0 };
	PT_VEC(int64_t) qo = { 0 };
	pt_vec_push(&q, a);
	pt_vec_push(&qo, 0);
	bool found = false;
	for (size_t h = 0; h < q.n && !found; h++) {
		for (size_t i = 0; i < ed.n; i++) {
			if (strcmp(ed.v[i].from, q.v[h]))
				continue;
			bool seen = false;
			for (size_t k = 0; k < q.n; k++)
				seen |= !strcmp(q.v[k], ed.v[i].to);
			int64_t o;
			if (seen || __builtin_add_overflow(qo.v[h], ed.v[i].off, &o))
				continue; /* a sum beyond int64 (hostile offsets) is no path */
			pt_vec_push(&q, ed.v[i].to);
			pt_vec_push(&qo, o);
			if (!strcmp(ed.v[i].to, b)) {
				*off = qo.v[qo.n - 1];
				found = true;
				break;
			}
		}
	}
	pt_vec_free(&ed);
	pt_vec_free(&q);
	pt_vec_free(&qo);
	return found;
}

static const char *dev_clock(const struct pt_device *d)
{
	if (d->clock && *d->clock)
		return d->clock;
	return d->kind == PT_DEV_GPU || d->kind == PT_DEV_CPU ? "unix" : "unknown";
}

static void choose_clock(struct ctx *c, struct pt_diag *diag)
{
	const struct pt_model *m = c->m;
	size_t nd = m->devices.n;
	uint64_t *nev = pt_xcalloc(nd ? nd : 1, sizeof(*nev));
	for (size_t i = 0; i < m->events.n; i++)
		if (c->tl->ev_keep[i] & 1)
			nev[m->tracks.v[m->events.track[i]].device]++;
	for (size_t d = 0; d < nd; d++)
		if (c->kineto && c->dev_rank[d] != c->o->rank)
			nev[d] = 0; /* another rank's file */
	bool all_unix = true;
	int64_t off;
	for (size_t d = 0; d < nd; d++)
		if (nev[d] && !clock_path(m, dev_clock(&m->devices.v[d]), "unix", &off))
			all_unix = false;
	c->clock = "unix";
	if (!all_unix) {
		c->clock = NULL;
		/* the native domain of the first source: lowest rank, then lowest device id */
		uint32_t best = PT_NONE;
		for (size_t d = 0; d < nd; d++)
			if (nev[d] && (best == PT_NONE || c->dev_rank[d] < c->dev_rank[best] ||
				       (c->dev_rank[d] == c->dev_rank[best] && m->devices.v[d].id < m->devices.v[best].id)))
				best = (uint32_t)d;
		c->clock = best == PT_NONE ? "unknown" : dev_clock(&m->devices.v[best]);
	}
	for (size_t d = 0; d < nd; d++) {
		c->dev_ok[d] = clock_path(m, dev_clock(&m->devices.v[d]), c->clock, &c->dev_off[d]);
		if (!c->dev_ok[d] && nev[d]) {
			c->unaligned += nev[d];
			char *w = pt_xasprintf("'%s': clock '%s' has no recorded offset to '%s': %llu events not exported",
					       c->o->trace_name ? c->o->trace_name : "", dev_clock(&m->devices.v[d]), c->clock,
					       (unsigned long long)nev[d]);
			pt_diag_note(diag, "%s", w);
			free(w);
		}
		if (c->kineto && c->dev_rank[d] != c->o->rank)
			c->dev_ok[d] = 0;
	}
	free(nev);
}

/* ------------------------------------------------------------------ rows */

static int64_t ev_end(const struct pt_events *ev, size_t i)
{
	return ev->start[i] + (ev->dur[i] > 0 ? ev->dur[i] : 0);
}

/*
 * Sort idx (already by start; s[i] its starts) by (start asc, dur desc, name)
 * within equal starts; e (the ends) is permuted along.
 */
static void fix_ties(const struct ctx *c, uint32_t *idx, const int64_t *s, int64_t *e, size_t n)
{
	const struct pt_events *ev = &c->m->events;
	for (size_t i = 1; i < n; i++) {
		if (s[i] != s[i - 1])
			continue;
		uint32_t v = idx[i];
		int64_t ve = e[i];
		size_t j = i;
		while (j > 0 && s[j - 1] == s[i]) {
			uint32_t u = idx[j - 1];
			bool less = ev->dur[v] > ev->dur[u] ||
				    (ev->dur[v] == ev->dur[u] && strcmp(strget(c, ev->name[v]), strget(c, ev->name[u])) < 0);
			if (!less)
				break;
			idx[j] = u;
			e[j] = e[j - 1];
			j--;
		}
		idx[j] = v;
		e[j] = ve;
	}
}

/*
 * Nesting lanes (§5.3): items in order with [s, e); each goes to the first lane
 * where it nests inside (or after) the stack top. One lane set per row, fed
 * item by item.
 */
struct lane_stack {
	int64_t *v; /* ends */
	size_t n, cap;
};

struct lanes {
	struct lane_stack first;   /* lane 0 */
	struct lane_stack *stacks; /* lanes 1..255, once a second lane is needed */
	uint32_t nl;
	uint64_t overflow;         /* items not on lane 0 */
};

static struct lane_stack *lane_stack(struct lanes *L, uint32_t l)
{
	if (!l)
		return &L->first;
	if (!L->stacks)
		L->stacks = pt_xcalloc(256, sizeof(*L->stacks));
	return &L->stacks[l];
}

static inline uint8_t lane_next(struct lanes *L, int64_t s, int64_t e)
{
	uint32_t l = 0;
	struct lane_stack *st = &L->first;
	/* lane 0 first, without the lane table: the common case */
	while (st->n && st->v[st->n - 1] <= s)
		st->n--;
	if (!L->nl) {
		L->nl = 1;
	} else if (st->n && e > st->v[st->n - 1]) {
		for (l = 1;; l++) {
			if (l == 255)
				break;
			if (l == L->nl) {
				L->nl++;
				break;
			}
			st = lane_stack(L, l);
			while (st->n && st->v[st->n - 1] <= s)
				st->n--;
			if (!st->n || e <= st->v[st->n - 1])
				break;
		}
		if (l == 255 && L->nl < 256)
			L->nl = 256;
		st = lane_stack(L, l);
	}
	pt_vec_push(st, e);
	if (l)
		L->overflow++;
	return (uint8_t)l;
}

static void lanes_free(struct lanes *L)
{
	pt_vec_free(&L->first);
	if (L->stacks)
		for (int k = 0; k < 256; k++)
			pt_vec_free(&L->stacks[k]);
	free(L->stacks);
}

/* Returns lanes used; lane[i] set. */
static uint32_t assign_lanes(const int64_t *s, const int64_t *e, size_t n, uint8_t *lane, uint64_t *overflow)
{
	struct lanes L = { 0 };
	for (size_t i = 0; i < n; i++)
		lane[i] = lane_next(&L, s[i], e[i]);
	*overflow += L.overflow;
	uint32_t nl = L.nl;
	lanes_free(&L);
	return nl;
}

static uint32_t add_proc(struct ctx *c, uint32_t pid, char *name)
{
	for (size_t i = 0; i < c->procs.n; i++)
		if (c->procs.v[i].pid == pid) {
			free(name);
			return (uint32_t)i;
		}
	struct proc p = { pid, name, 0, false, false, 0 };
	pt_vec_push(&c->procs, p);
	return (uint32_t)c->procs.n - 1;
}

static void lane_rows(struct ctx *c, struct row proto, uint32_t *items, const uint8_t *lane, uint32_t nl, size_t n);

/* Split items (with starts/ends) into lanes and add one row per lane. */
static void add_rows(struct ctx *c, struct row proto, uint32_t *items, const int64_t *s, const int64_t *e, size_t n)
{
	if (!n) {
		free(items);
		return;
	}
	proto.ranged = true;
	proto.lo = INT64_MAX;
	proto.hi = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < proto.lo)
			proto.lo = s[i];
		if (e[i] > proto.hi)
			proto.hi = e[i];
	}
	uint8_t *lane = pt_xmalloc(n);
	uint32_t nl = assign_lanes(s, e, n, lane, &c->overflow);
	lane_rows(c, proto, items, lane, nl, n);
	free(lane);
}

/* One row per lane (lane[i] of items[i], nl lanes); takes items and proto.name. */
static void lane_rows(struct ctx *c, struct row proto, uint32_t *items, const uint8_t *lane, uint32_t nl, size_t n)
{
	if (nl <= 1) {
		proto.idx = items;
		proto.n = n;
		proto.lane = 0;
		pt_vec_push(&c->rows, proto);
		return;
	}
	for (uint32_t l = 0; l < nl; l++) {
		struct row r = proto;
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			k += lane[i] == l;
		if (!k)
			continue;
		r.idx = pt_xmalloc(k * sizeof(*r.idx));
		r.n = 0;
		for (size_t i = 0; i < n; i++)
			if (lane[i] == l)
				r.idx[r.n++] = items[i];
		r.lane = l;
		r.name = l ? pt_xasprintf("%s #%u", proto.name, l + 1) : pt_xstrdup(proto.name);
		pt_vec_push(&c->rows, r);
	}
	free(proto.name);
	free(items);
}

static void add_slice_row(struct ctx *c, uint32_t dev, uint8_t kind, uint32_t level, const struct pt_tl_row *tr,
			  int32_t sort, char *name)
{
	size_t n = tr->s.n;
	if (!n) {
		free(name);
		return;
	}
	/* order (start asc, dur desc): the pass writes slices by start; stable fix of ties */
	uint32_t *idx = pt_xmalloc(n * sizeof(*idx));
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	for (size_t i = 1; i < n; i++) {
		uint32_t v = idx[i];
		size_t j = i;
		while (j > 0) {
			const struct pt_tl_slice *a = &tr->s.v[idx[j - 1]], *b = &tr->s.v[v];
			if (a->start < b->start || (a->start == b->start && a->end >= b->end))
				break;
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	int64_t *s = pt_xmalloc(n * sizeof(*s)), *e = pt_xmalloc(n * sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		s[i] = tr->s.v[idx[i]].start;
		e[i] = tr->s.v[idx[i]].end;
	}
	struct row r = { .pid = c->dev_pid[dev], .sort = sort, .name = name, .type = R_SLICE, .slkind = kind,
			 .level = level, .dev = dev, .off = c->dev_off[dev], .sl = tr->s.v };
	add_rows(c, r, idx, s, e, n);
	free(s);
	free(e);
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->sort != b->sort)
		return a->sort < b->sort ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return a->lane < b->lane ? -1 : a->lane > b->lane;
}

static int stream_cmp_ctx_sort(const void *pa, const void *pb)
{
	const int64_t *a = pa, *b = pb; /* pairs (stream, track) */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static const char *kind_word(enum pt_device_kind k)
{
	return k == PT_DEV_NPU ? "NPU" : k == PT_DEV_GPU ? "GPU" : "Device";
}

/*
 * Kineto's pid/tid scheme and row names (cupti.md §7.5): device rows pid =
 * device id, tid = stream id, named "stream <id> " (with the trailing
 * space); host rows pid = OS pid, tid = OS tid, "thread <tid> (<name>)".
 * Rows without such an id (overflow rows of a thread, the Ascend Steps row)
 * keep their file-unique tid from TID_BASE.
 */
static void kineto_row(struct ctx *c, struct row *r)
{
	const struct pt_model *m = c->m;
	const struct pt_device *dv = &m->devices.v[r->dev];
	bool host = dv->kind == PT_DEV_CPU;
	r->pid = host ? (dv->pid ? dv->pid : dv->id) : dv->id;
	if (r->type == R_TRACK) {
		const struct pt_track *tr = &m->tracks.v[r->track];
		bool own = !r->lane && tr->stream >= 0 && tr->stream < (int64_t)TID_BASE &&
			   (tr->kind == PT_TRACK_STREAM || tr->kind == PT_TRACK_HOST_THREAD);
		char *base;
		if (tr->kind == PT_TRACK_STREAM) {
			base = pt_xasprintf("stream %lld ", (long long)tr->stream);
		} else if (tr->kind == PT_TRACK_HOST_THREAD) {
			const char *tn = strget(c, tr->name);
			base = *tn && strncmp(tn, "thread ", 7) ? pt_xasprintf("thread %lld (%s)", (long long)tr->stream, tn) :
								  pt_xasprintf("thread %lld", (long long)tr->stream);
		} else {
			base = pt_xstrdup(r->name);
			const char *hash = strstr(base, " #");
			if (r->lane && hash)
				base[hash - base] = 0;
		}
		free(r->name);
		r->name = r->lane ? pt_xasprintf("%s #%u", base, r->lane + 1) : pt_xstrdup(base);
		free(base);
		if (own) {
			r->tid = (uint32_t)tr->stream;
			r->sort = (int32_t)tr->stream;
		} else {
			r->sort = tr->stream >= 0 && tr->stream < INT32_MAX ? (int32_t)tr->stream : INT32_MAX;
		}
	} else {
		r->sort = -1;
	}
	uint32_t p = add_proc(c, r->pid, host ? pt_xasprintf("Host %u", r->pid) :
				      pt_xasprintf("%s %u", kind_word(dv->kind), dv->id));
	c->procs.v[p].device = !host;
	c->procs.v[p].devid = dv->id;
}

static void build_layout(struct ctx *c)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_tl *tl = c->tl;
	size_t nd = m->devices.n;
	/* processes */
	uint32_t host_slot = 0;
	for (size_t d = 0; d < nd; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		uint32_t r = c->dev_rank[d];
		if (dv->kind == PT_DEV_CPU) {
			c->dev_pid[d] = (r + 1) * 1000 + host_slot++;
			add_proc(c, c->dev_pid[d], pt_xasprintf("Rank %u Host %u", r, dv->id));
		} else {
			c->dev_pid[d] = (r + 1) * 1000 + 100 + (dv->id % 400);
			c->dev_ovpid[d] = (r + 1) * 1000 + 500 + (dv->id % 400);
			add_proc(c, c->dev_pid[d], pt_xasprintf("Rank %u %s %u", r, kind_word(dv->kind), dv->id));
		}
	}
	/* model tracks */
	size_t nt = m->tracks.n;
	int64_t *st = NULL;
	size_t nst = 0, cst = 0;
	for (size_t t = 0; t < nt; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		if (tr->kind == PT_TRACK_STREAM) {
			pt_xgrow((void **)&st, &cst, 2 * (nst + 1), sizeof(*st));
			st[2 * nst] = tr->stream;
			st[2 * nst + 1] = (int64_t)t;
			nst++;
		}
	}
	pt_sort(st, nst, 2 * sizeof(*st), stream_cmp_ctx_sort);
	int32_t *stream_rank = pt_xcalloc(nt ? nt : 1, sizeof(*stream_rank));
	{
		/* rank in stream-id order within each device */
		uint32_t *per_dev = pt_xcalloc(nd ? nd : 1, sizeof(*per_dev));
		for (size_t i = 0; i < nst; i++) {
			uint32_t t = (uint32_t)st[2 * i + 1];
			stream_rank[t] = (int32_t)per_dev[m->tracks.v[t].device]++;
		}
		free(per_dev);
	}
	free(st);
	/*
	 * One pass over the events in model order: per track the kept events,
	 * their span, lanes and whether they hold a step range. A track whose
	 * kept events come in strictly increasing start order in the model (the
	 * usual case: importers write each track in time order) is then done:
	 * that is its (start, dur desc, name) order. Any other track (equal or
	 * decreasing starts) takes the index's sorted list and fix_ties().
	 */
	struct tscan {
		size_t n;
		int64_t last, lo, hi;
		bool slow, steps;
		struct lanes L;
		uint32_t *idx;
		uint8_t *lane;
	} *ts = pt_xcalloc(nt ? nt : 1, sizeof(*ts));
	uint8_t *lane_of = pt_xmalloc(ev->n ? ev->n : 1);
	for (size_t i = 0; i < ev->n; i++) {
		int64_t du = ev->dur[i];
		uint8_t keep = tl->ev_keep[i];
		if (!(keep & 1) || du < 0 || (c->kineto && ev->kind[i] == PT_EV_GETNEXT)) /* Kineto has no get_next */
			continue;
		struct tscan *q = &ts[ev->track[i]];
		int64_t st0 = ev->start[i], en = st0 + du;
		if (q->n && st0 <= q->last)
			q->slow = true;
		q->last = st0;
		if (!q->n || st0 < q->lo)
			q->lo = st0;
		if (!q->n || en > q->hi)
			q->hi = en;
		q->steps |= (keep & 2) != 0;
		q->n++;
		if (!q->slow)
			lane_of[i] = lane_next(&q->L, st0, en);
	}
	for (size_t t = 0; t < nt; t++) {
		struct tscan *q = &ts[t];
		if (!q->n || q->slow || !c->dev_ok[m->tracks.v[t].device])
			continue;
		q->idx = pt_xmalloc(q->n * sizeof(*q->idx));
		if (q->L.nl > 1)
			q->lane = pt_xmalloc(q->n);
		q->n = 0;
	}
	for (size_t i = 0; i < ev->n; i++) {
		struct tscan *q = &ts[ev->track[i]];
		if (!q->idx || !(tl->ev_keep[i] & 1) || ev->dur[i] < 0 || (c->kineto && ev->kind[i] == PT_EV_GETNEXT))
			continue;
		if (q->lane)
			q->lane[q->n] = lane_of[i];
		q->idx[q->n++] = (uint32_t)i;
	}
	free(lane_of);
	int64_t *s = NULL, *e = NULL; /* scratch starts and ends for the other tracks */
	size_t scap = 0;
	for (size_t t = 0; t < nt; t++) {
		const struct pt_track *tr = &m->tracks.v[t];
		struct tscan *q = &ts[t];
		uint32_t d = tr->device;
		if (!c->dev_ok[d] || !q->n) {
			lanes_free(&q->L);
			continue;
		}
		uint32_t *idx = q->idx;
		size_t k = q->n;
		if (!idx) {
			size_t n;
			const uint32_t *all = pt_index_track_events(c->x, (uint32_t)t, &n);
			if (n > scap) {
				scap = n;
				s = pt_xrealloc(s, scap * sizeof(*s));
				e = pt_xrealloc(e, scap * sizeof(*e));
			}
			idx = pt_xmalloc((n ? n : 1) * sizeof(*idx));
			k = 0;
			for (size_t i = 0; i < n; i++) {
				uint32_t j = all[i];
				int64_t du = ev->dur[j];
				if (!(tl->ev_keep[j] & 1) || du < 0 || (c->kineto && ev->kind[j] == PT_EV_GETNEXT))
					continue;
				idx[k] = j;
				s[k] = ev->start[j];
				e[k] = s[k] + du;
				k++;
			}
			fix_ties(c, idx, s, e, k);
		}
		struct row r = { .pid = c->dev_pid[d], .type = R_TRACK, .dev = d, .track = (uint32_t)t, .off = c->dev_off[d] };
		const char *tn = strget(c, tr->name);
		switch (tr->kind) {
		case PT_TRACK_STREAM:
			r.sort = 100 + stream_rank[t];
			r.name = pt_xasprintf("Stream %lld", (long long)tr->stream);
			break;
		case PT_TRACK_HOST_THREAD:
			r.sort = q->steps ? 0 : 1;
			r.order = q->idx ? q->lo : s[0];
			r.host = true;
			r.name = *tn && strcmp(tn, "") ? pt_xasprintf("Thread %lld (%s)", (long long)tr->stream, tn) :
							 pt_xasprintf("Thread %lld", (long long)tr->stream);
			if (*tn && !strncmp(tn, "thread ", 7))
				r.name = (free(r.name), pt_xasprintf("Thread %lld", (long long)tr->stream));
			break;
		case PT_TRACK_AICPU:
			r.sort = 100000;
			r.name = pt_xstrdup("AI CPU");
			break;
		default:
			r.sort = 100001;
			r.order = (int64_t)t;
			r.name = pt_xstrdup(*tn ? tn : "Track");
		}
		if (q->idx) {
			r.ranged = true;
			r.lo = q->lo;
			r.hi = q->hi;
			c->overflow += q->L.overflow;
			lane_rows(c, r, idx, q->lane, q->L.nl, k);
			free(q->lane);
		} else {
			add_rows(c, r, idx, s, e, k);
		}
		lanes_free(&q->L);
	}
	free(s);
	free(e);
	free(ts);
	free(stream_rank);
	/* synthetic rows */
	for (size_t d = 0; d < nd; d++) {
		const struct pt_tl_device *td = &tl->dev[d];
		if (!c->dev_ok[d] || m->devices.v[d].kind == PT_DEV_CPU)
			continue;
		if (c->kineto) {
			/* ProfilerStep#<n> rows: the host step ranges where the model has them, else the device's steps */
			if (!c->host_steps && td->steps.s.n) {
				c->step_first[d] = td->steps.s.v[0].step;
				c->step_last[d] = td->steps.s.v[td->steps.s.n - 1].step;
				add_slice_row(c, (uint32_t)d, SL_STEPS, 0, &td->steps, 0, pt_xstrdup("Steps"));
			}
			continue;
		}
		add_slice_row(c, (uint32_t)d, SL_STEPS, 0, &td->steps, 0, pt_xstrdup("Steps"));
		for (uint32_t l = 0; l < tl->scope_depth; l++)
			add_slice_row(c, (uint32_t)d, SL_SCOPE, l, &td->scope[l], 1 + (int32_t)l, pt_xasprintf("Scope L%u", l));
		add_slice_row(c, (uint32_t)d, SL_COMM, 0, &td->comm, 1 + (int32_t)tl->scope_depth,
			      pt_xstrdup("Communication"));
		if (!td->has_overlap)
			continue;
		static const char *const ovn[] = { "Merged Computation Op", "Merged Communication Op",
						   "Pure Communication Op", "Free Time" };
		bool any = false;
		for (int k = 0; k < PT_TL_OV_N; k++) {
			const struct pt_ivset *iv = td->ov[k];
			if (!iv->n)
				continue;
			any = true;
			uint32_t *idx = pt_xmalloc(iv->n * sizeof(*idx));
			for (size_t i = 0; i < iv->n; i++)
				idx[i] = (uint32_t)i;
			struct row r = { .pid = c->dev_ovpid[d], .sort = k, .name = pt_xstrdup(ovn[k]), .type = R_IV,
					 .level = (uint32_t)k, .dev = (uint32_t)d, .off = c->dev_off[d], .iv = iv->v,
					 .idx = idx, .n = iv->n };
			pt_vec_push(&c->rows, r);
		}
		if (any)
			add_proc(c, c->dev_ovpid[d], pt_xasprintf("Rank %u %s %u Overlap", c->dev_rank[d],
								  kind_word(m->devices.v[d].kind), m->devices.v[d].id));
	}
	pt_sort(c->rows.v, c->rows.n, sizeof(*c->rows.v), row_cmp);
	if (c->kineto) { /* processes by Kineto's pids (cupti.md §7.5) */
		for (size_t i = 0; i < c->procs.n; i++)
			free(c->procs.v[i].name);
		c->procs.n = 0;
	}
	for (size_t i = 0; i < c->rows.n; i++) {
		struct row *r = &c->rows.v[i];
		r->tid = TID_BASE + (uint32_t)i;
		if (c->kineto)
			kineto_row(c, r);
		char b[96];
		int n = snprintf(b, sizeof(b), ",\"pid\":%u,\"tid\":%u,\"ts\":", r->pid, r->tid);
		r->prefix = pt_xstrndup(b, (size_t)n);
		r->prefix_len = (size_t)n;
		if (r->type == R_TRACK) {
			const struct pt_track *tr = &m->tracks.v[r->track];
			char *q = PUTL(r->targs, "\"stream_id\":");
			q = put_i64(q, tr->stream);
			q = PUTL(q, ",\"task_id\":");
			r->targs_len = (uint8_t)(q - r->targs);
			q = PUTL(r->tname, "\"task ");
			q = put_i64(q, tr->stream);
			*q++ = '_';
			r->tname_len = (uint8_t)(q - r->tname);
			if (tr->kind == PT_TRACK_STREAM) {
				q = PUTL(r->dargs, "\"device\":");
				q = put_i64(q, m->devices.v[tr->device].id);
				q = PUTL(q, ",\"stream\":");
				q = put_i64(q, tr->stream);
				r->dargs_len = (uint8_t)(q - r->dargs);
			}
		} else if (r->type == R_IV) {
			static const char *const nm[] = { "Computation", "Communication", "Pure Communication", "Free" };
			r->head = pt_xasprintf("{\"ph\":\"X\",\"cat\":\"Overlap\",\"name\":\"%s\"%s", nm[r->level], r->prefix);
			r->head_len = strlen(r->head);
		}
		for (size_t p = 0; p < c->procs.n; p++)
			if (c->procs.v[p].pid == r->pid && !c->procs.v[p].used) {
				c->procs.v[p].used = true;
				c->procs.v[p].first_tid = r->tid;
			}
	}
}

/* ------------------------------------------------------------------ flows and counters */

/*
 * Flow orders are stable radix sorts on one integer key at a time (DESIGN.md §8:
 * no comparison sorts with callbacks on hot paths): sorting by the minor key
 * first, then by the major one, orders by (major, minor, previous order).
 */
enum { FK_API, FK_STS, FK_SROW, FK_FTS, FK_FROW };

static int64_t flow_key(const struct flow *f, int k)
{
	switch (k) {
	case FK_API:
		return f->api;
	case FK_STS:
		return f->sts;
	case FK_SROW:
		return f->srow;
	case FK_FTS:
		return f->fts;
	default:
		return f->frow;
	}
}

/* Stable sort of the flow indexes idx[0 .. n) by key k; tmp has room for n. */
static void flow_sort_by(const struct flow *v, uint32_t *idx, size_t n, int k, struct pt_ival *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct pt_ival){ flow_key(&v[idx[i]], k), idx[i] };
	pt_ival_sort(tmp, n);
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)tmp[i].e;
}

static int64_t row_time(const struct ctx *c, int64_t t, uint32_t dev)
{
	return t + c->dev_off[dev] - c->base;
}

static void build_flows(struct ctx *c)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	if (!c->o->flows || !(ev->dense & PT_EVCOL_CORR)) /* no correlation ids: no arrows */
		return;
	uint32_t *row_of = pt_xmalloc((ev->n ? ev->n : 1) * sizeof(*row_of));
	memset(row_of, 0xff, (ev->n ? ev->n : 1) * sizeof(*row_of));
	for (size_t r = 0; r < c->rows.n; r++)
		if (c->rows.v[r].type == R_TRACK)
			for (size_t i = 0; i < c->rows.v[r].n; i++)
				row_of[c->rows.v[r].idx[i]] = (uint32_t)r;
	/* correlation -> api event (first by start) */
	struct pt_idmap api;
	uint64_t clo, chi;
	size_t nc = pt_events_corr_range(ev, PT_EV_API, &clo, &chi);
	pt_idmap_init(&api, clo, chi, nc);
	for (size_t i = 0; i < ev->n; i++)
		if (ev->kind[i] == PT_EV_API && ev->corr[i] && row_of[i] != UINT32_MAX && ev->dur[i] >= 1) {
			bool added;
			uint64_t *v = pt_idmap_put(&api, ev->corr[i], i, &added);
			if (!added && ev->start[i] < ev->start[*v])
				*v = i;
		}
	for (size_t i = 0; i < ev->n; i++) {
		uint8_t k = ev->kind[i];
		if (!ev->corr[i] || k == PT_EV_API || k == PT_EV_RANGE || row_of[i] == UINT32_MAX || ev->dur[i] < 1)
			continue;
		uint64_t *a = pt_idmap_get(&api, ev->corr[i]);
		if (!a)
			continue;
		uint32_t ai = (uint32_t)*a;
		uint32_t ad = m->tracks.v[ev->track[ai]].device, dd = m->tracks.v[ev->track[i]].device;
		/* viewer: at the midpoints (§6); kineto: at the starts, as Kineto writes them (cupti.md §7.6) */
		int64_t sh = c->kineto ? 0 : ev->dur[ai] / 2, fh = c->kineto ? 0 : ev->dur[i] / 2;
		struct flow f = { ai, (uint32_t)i, 0, row_of[ai], row_of[i], row_time(c, ev->start[ai] + sh, ad),
				  row_time(c, ev->start[i] + fh, dd) };
		pt_vec_push(&c->flows, f);
	}
	pt_idmap_free(&api);
	/* order by (API arrow start, API event, activity event); flows were made in activity order */
	size_t nf = c->flows.n;
	uint32_t *idx = pt_xmalloc((nf ? nf : 1) * sizeof(*idx));
	struct pt_ival *tmp = pt_xmalloc((nf ? nf : 1) * sizeof(*tmp));
	for (size_t i = 0; i < nf; i++)
		idx[i] = (uint32_t)i;
	flow_sort_by(c->flows.v, idx, nf, FK_API, tmp);
	flow_sort_by(c->flows.v, idx, nf, FK_STS, tmp);
	free(tmp);
	/* permute in place, cycle by cycle (position j takes flow idx[j]; done ones marked) */
	struct flow *v = c->flows.v;
	for (size_t i = 0; i < nf; i++) {
		if (idx[i] == UINT32_MAX)
			continue;
		struct flow t = v[i];
		size_t j = i;
		while (idx[j] != i) {
			size_t k = idx[j];
			v[j] = v[k];
			idx[j] = UINT32_MAX;
			j = k;
		}
		v[j] = t;
		idx[j] = UINT32_MAX;
	}
	for (size_t i = 0; i < nf; i++)
		v[i].id = (uint32_t)i + 1;
	free(idx);
	free(row_of);
}

/* --time-window: keep samples in the window, led by the last earlier one moved to the window start. */
static void window_samples(const struct ctx *c, struct csrc *cs, const int64_t *time)
{
	if (!c->tl->has_window)
		return;
	size_t k = 0;
	int64_t ws = c->tl->win_s, we = c->tl->win_e;
	size_t last_before = SIZE_MAX;
	for (size_t i = 0; i < cs->n; i++) {
		int64_t t = time[cs->idx[i]];
		if (t < ws)
			last_before = i;
	}
	if (last_before != SIZE_MAX && (last_before + 1 == cs->n || time[cs->idx[last_before + 1]] > ws)) {
		cs->idx[k++] = cs->idx[last_before];
		cs->carry0 = true;
		cs->carry_t = ws;
	}
	for (size_t i = 0; i < cs->n; i++) {
		int64_t t = time[cs->idx[i]];
		if (t >= ws && t < we)
			cs->idx[k++] = cs->idx[i];
	}
	cs->n = k;
}

/*
 * MindData series (model.h: tracks named md_...) are kept in the host-steady
 * clock or as sample index x interval; the model records no offset from them
 * to the device clock, so they are not exported (chrome-trace.md §7).
 */
static bool unanchored_track(const struct ctx *c, uint32_t t)
{
	return !strncmp(strget(c, c->m->tracks.v[t].name), "md_", 3);
}

static void build_counters(struct ctx *c)
{
	if (c->kineto) /* Kineto writes memory as its own instant events; no counters in this profile */
		return;
	const struct pt_model *m = c->m;
	const struct pt_queue_samples *q = &m->queues;
	size_t nt = m->tracks.n;
	uint32_t *cnt = pt_xcalloc(nt ? nt : 1, sizeof(*cnt));
	for (size_t i = 0; i < q->n; i++)
		cnt[q->track[i]]++;
	for (size_t t = 0; t < nt; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!cnt[t] || !c->dev_ok[d])
			continue;
		if (unanchored_track(c, (uint32_t)t)) {
			c->unanchored += cnt[t];
			continue;
		}
		struct csrc cs = { .track = (uint32_t)t, .pid = c->dev_pid[d], .off = c->dev_off[d], .queue = true };
		cs.idx = pt_xmalloc(cnt[t] * sizeof(*cs.idx));
		for (size_t i = 0; i < q->n; i++)
			if (q->track[i] == t)
				cs.idx[cs.n++] = (uint32_t)i;
		/* time order (stable) */
		for (size_t i = 1; i < cs.n; i++) {
			uint32_t v = cs.idx[i];
			size_t j = i;
			while (j > 0 && q->time[cs.idx[j - 1]] > q->time[v]) {
				cs.idx[j] = cs.idx[j - 1];
				j--;
			}
			cs.idx[j] = v;
		}
		window_samples(c, &cs, q->time);
		const char *tn = strget(c, m->tracks.v[t].name);
		cs.name = pt_xasprintf("Queue %s", *tn ? tn : "queue");
		pt_vec_push(&c->counters, cs);
	}
	memset(cnt, 0, (nt ? nt : 1) * sizeof(*cnt));
	const struct pt_counter_samples *cv = &m->counters;
	for (size_t i = 0; i < cv->n; i++)
		cnt[cv->track[i]]++;
	for (size_t t = 0; t < nt; t++) {
		uint32_t d = m->tracks.v[t].device;
		if (!cnt[t] || !c->dev_ok[d])
			continue;
		if (unanchored_track(c, (uint32_t)t)) {
			c->unanchored += cnt[t];
			continue;
		}
		/* the CUPTI importer's per-series memory tracks: the timeline pass's groups replace them */
		if (c->tl->dev[d].gmem.n && m->tracks.v[t].stream <= -20 && m->tracks.v[t].stream >= -30)
			continue;
		struct csrc cs = { .track = (uint32_t)t, .pid = c->dev_pid[d], .off = c->dev_off[d], .queue = false };
		cs.idx = pt_xmalloc(cnt[t] * sizeof(*cs.idx));
		for (size_t i = 0; i < cv->n; i++)
			if (cv->track[i] == t)
				cs.idx[cs.n++] = (uint32_t)i;
		for (size_t i = 1; i < cs.n; i++) {
			uint32_t v = cs.idx[i];
			size_t j = i;
			while (j > 0 && cv->time[cs.idx[j - 1]] > cv->time[v]) {
				cs.idx[j] = cs.idx[j - 1];
				j--;
			}
			cs.idx[j] = v;
		}
		window_samples(c, &cs, cv->time);
		const char *tn = strget(c, m->tracks.v[t].name);
		cs.name = pt_xstrdup(*tn ? tn : "Counter");
		pt_vec_push(&c->counters, cs);
	}
	free(cnt);
	/* GPU memory groups (chrome-trace.md §7): every sample carries all the group's series */
	for (size_t d = 0; d < m->devices.n && d < c->tl->ndev; d++) {
		const struct pt_gms *gs = &c->tl->dev[d].gmem;
		if (!c->dev_ok[d])
			continue;
		for (size_t k = 0; k < gs->n; k++) {
			const struct pt_gms_group *g = &gs->g[k];
			struct csrc cs = { .pid = c->dev_pid[d], .off = c->dev_off[d], .grp = g, .track = UINT32_MAX };
			cs.idx = pt_xmalloc((g->time.n ? g->time.n : 1) * sizeof(*cs.idx));
			for (size_t i = 0; i < g->time.n; i++)
				cs.idx[cs.n++] = (uint32_t)i;
			window_samples(c, &cs, g->time.v);
			cs.name = pt_xstrdup(g->name);
			pt_vec_push(&c->counters, cs);
		}
	}
	for (size_t i = 0; i < c->counters.n; i++) {
		struct csrc *cs = &c->counters.v[i];
		for (size_t p = 0; p < c->procs.n; p++)
			if (c->procs.v[p].pid == cs->pid)
				cs->tid = c->procs.v[p].first_tid;
		for (size_t j = 0; j < i && !cs->tid; j++) /* a process with counters only: one row for all of them */
			if (c->counters.v[j].pid == cs->pid)
				cs->tid = c->counters.v[j].tid;
		if (!cs->tid) /* the first counter of such a process: give it a row */
			cs->tid = TID_BASE + (uint32_t)(c->rows.n + i);
	}
}

/* ------------------------------------------------------------------ base and sources */

static inline int64_t src_item_ts(const struct ctx *c, const struct src *s, size_t pos)
{
	const struct pt_model *m = c->m;
	switch (s->ph) {
	case PH_X: {
		const struct row *r = &c->rows.v[s->ref];
		uint32_t i = r->idx[pos];
		int64_t t = r->type == R_TRACK ? m->events.start[i] : r->type == R_SLICE ? r->sl[i].start : r->iv[i].s;
		return t + r->off - c->base;
	}
	case PH_C: {
		const struct csrc *cs = &c->counters.v[s->ref];
		int64_t t = csrc_time(m, cs, pos);
		if (!pos && cs->carry0)
			t = cs->carry_t;
		return t + cs->off - c->base;
	}
	case PH_S:
		return c->flows.v[s->items[pos]].sts;
	default:
		return c->flows.v[s->items[pos]].fts;
	}
}

/* Absolute (export clock) min start and max end over everything exported, in
 * 128 bits (a time plus its clock offset may leave int64); a > b when empty. */
static void time_range(const struct ctx *c, __int128 *lo, __int128 *hi)
{
	const struct pt_model *m = c->m;
	__int128 a = (__int128)INT64_MAX + 1, b = (__int128)INT64_MIN - 1;
	for (size_t r = 0; r < c->rows.n; r++) {
		const struct row *rw = &c->rows.v[r];
		if (rw->ranged) {
			if ((__int128)rw->lo + rw->off < a)
				a = (__int128)rw->lo + rw->off;
			if ((__int128)rw->hi + rw->off > b)
				b = (__int128)rw->hi + rw->off;
			continue;
		}
		for (size_t k = 0; k < rw->n; k++) {
			uint32_t i = rw->idx[k];
			int64_t s, e;
			if (rw->type == R_TRACK) {
				s = m->events.start[i];
				e = ev_end(&m->events, i);
			} else if (rw->type == R_SLICE) {
				s = rw->sl[i].start;
				e = rw->sl[i].end;
			} else {
				s = rw->iv[i].s;
				e = rw->iv[i].e;
			}
			if ((__int128)s + rw->off < a)
				a = (__int128)s + rw->off;
			if ((__int128)e + rw->off > b)
				b = (__int128)e + rw->off;
		}
	}
	for (size_t q = 0; q < c->counters.n; q++) {
		const struct csrc *cs = &c->counters.v[q];
		for (size_t k = 0; k < cs->n; k++) {
			__int128 t = (__int128)csrc_time(m, cs, k) + cs->off;
			if (!k && cs->carry0)
				t = (__int128)cs->carry_t + cs->off;
			if (t < a)
				a = t;
			if (t > b)
				b = t;
		}
	}
	*lo = a;
	*hi = b;
}

static int src_cmp(const void *pa, const void *pb)
{
	const struct src *a = *(const struct src *const *)pa, *b = *(const struct src *const *)pb;
	if (a->ph != b->ph)
		return a->ph < b->ph ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a < b ? -1 : a > b; /* same (ph, pid, tid): counter series of one process, in series order */
}

/* src->key: the merge orders by (ts, ph, pid, tid); (ph, pid, tid) is ranked once here. */
static void rank_sources(struct ctx *c)
{
	size_t n = c->srcs.n;
	const struct src **v = pt_xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = &c->srcs.v[i];
	pt_sort(v, n, sizeof(*v), src_cmp);
	for (size_t i = 0; i < n; i++)
		c->srcs.v[v[i] - c->srcs.v].key = (uint32_t)i;
	free(v);
}

static void build_sources(struct ctx *c)
{
	for (size_t r = 0; r < c->rows.n; r++) {
		struct src s = { .ph = PH_X, .pid = c->rows.v[r].pid, .tid = c->rows.v[r].tid, .ref = (uint32_t)r,
				 .n = c->rows.v[r].n };
		pt_vec_push(&c->srcs, s);
	}
	for (size_t i = 0; i < c->counters.n; i++) {
		struct src s = { .ph = PH_C, .pid = c->counters.v[i].pid, .tid = c->counters.v[i].tid, .ref = (uint32_t)i,
				 .n = c->counters.v[i].n };
		pt_vec_push(&c->srcs, s);
	}
	size_t nf = c->flows.n;
	if (nf) {
		c->flow_s = pt_xmalloc(nf * sizeof(*c->flow_s));
		c->flow_f = pt_xmalloc(nf * sizeof(*c->flow_f));
		for (size_t i = 0; i < nf; i++)
			c->flow_s[i] = c->flow_f[i] = (uint32_t)i; /* id order */
		struct pt_ival *tmp = pt_xmalloc(nf * sizeof(*tmp));
		flow_sort_by(c->flows.v, c->flow_s, nf, FK_STS, tmp); /* (srow, sts, id) */
		flow_sort_by(c->flows.v, c->flow_s, nf, FK_SROW, tmp);
		flow_sort_by(c->flows.v, c->flow_f, nf, FK_FTS, tmp); /* (frow, fts, id) */
		flow_sort_by(c->flows.v, c->flow_f, nf, FK_FROW, tmp);
		free(tmp);
		for (int pass = 0; pass < 2; pass++) {
			uint32_t *v = pass ? c->flow_f : c->flow_s;
			for (size_t i = 0; i < nf;) {
				const struct flow *f = &c->flows.v[v[i]];
				uint32_t row = pass ? f->frow : f->srow;
				size_t j = i;
				while (j < nf && (pass ? c->flows.v[v[j]].frow : c->flows.v[v[j]].srow) == row)
					j++;
				struct src s = { .ph = pass ? PH_F : PH_S, .pid = c->rows.v[row].pid, .tid = c->rows.v[row].tid,
						 .ref = row, .n = j - i, .items = v + i };
				pt_vec_push(&c->srcs, s);
				i = j;
			}
		}
	}
	rank_sources(c);
}

static uint32_t tree_build(struct ctx *c, size_t node)
{
	if (node >= c->nleaf)
		return (uint32_t)(node - c->nleaf);
	uint32_t l = tree_build(c, 2 * node), r = tree_build(c, 2 * node + 1);
	if (c->leaf[l] < c->leaf[r]) {
		c->tree[node] = r;
		return l;
	}
	c->tree[node] = l;
	return r;
}

/* Leaf w changed: play it up to the root. */
static inline void tree_replay(struct ctx *c, uint32_t w)
{
	const mkey *lf = c->leaf;
	uint32_t *t = c->tree;
	mkey kw = lf[w];
	for (size_t node = (w + c->nleaf) >> 1; node; node >>= 1) {
		uint32_t o = t[node];
		if (lf[o] < kw) {
			t[node] = w;
			w = o;
			kw = lf[o];
		}
	}
	t[0] = w;
}

static void tree_init(struct ctx *c)
{
	size_t n = c->srcs.n, nl = 1;
	while (nl < n)
		nl *= 2;
	free(c->leaf);
	free(c->tree);
	c->nleaf = nl;
	c->leaf = pt_xmalloc(nl * sizeof(*c->leaf));
	c->tree = pt_xcalloc(nl, sizeof(*c->tree));
	for (size_t i = 0; i < nl; i++) {
		c->leaf[i] = MKEY_DONE;
		if (i >= n)
			continue;
		struct src *s = &c->srcs.v[i];
		s->pos = 0;
		if (s->n)
			c->leaf[i] = mkey_of(src_item_ts(c, s, 0), s->key);
	}
	c->tree[0] = tree_build(c, 1);
}

/* ------------------------------------------------------------------ rendering */

/* The start of an X event up to "name": per category, padded for a fixed-size copy. */
struct xhead {
	char s[48];
	uint8_t n;
};
#define XHEAD(cat) { "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":", sizeof("{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":") - 1 }
enum { XH_KERNEL, XH_AICPU, XH_GETNEXT, XH_MEMCPY, XH_MEMSET, XH_RUNTIME, XH_USERRANGE, XH_SYNC, XH_EVENT, XH_STEP,
       XH_UNNAMED };
static const struct xhead xheads[] = {
	XHEAD("Kernel"), XHEAD("AICPU"),     XHEAD("GetNext"), XHEAD("Memcpy"), XHEAD("Memset"),      XHEAD("Runtime"),
	XHEAD("UserRange"), XHEAD("Sync"), XHEAD("Event"),   XHEAD("Step"),   XHEAD("UnnamedTask"),
};

static int ev_cat(uint8_t k)
{
	switch (k) {
	case PT_EV_TASK:
	case PT_EV_KERNEL:
		return XH_KERNEL;
	case PT_EV_AICPU:
		return XH_AICPU;
	case PT_EV_GETNEXT:
		return XH_GETNEXT;
	case PT_EV_MEMCPY:
		return XH_MEMCPY;
	case PT_EV_MEMSET:
		return XH_MEMSET;
	case PT_EV_API:
		return XH_RUNTIME;
	case PT_EV_RANGE:
		return XH_USERRANGE;
	case PT_EV_SYNC:
		return XH_SYNC;
	default:
		return XH_EVENT;
	}
}

static void sep(struct ctx *c, struct sink *s)
{
	if (c->first_event) {
		c->first_event = false;
		return;
	}
	sink_write(s, ",\n", 2);
}

static inline char *put_sep(struct ctx *c, char *p)
{
	if (c->first_event) {
		c->first_event = false;
		return p;
	}
	p[0] = ',';
	p[1] = '\n';
	return p + 2;
}

/* An X event's row (pid, tid), ts and dur, both profiles alike. */
static inline char *put_row_times(const struct ctx *c, char *p, const struct row *r, size_t i)
{
	const struct pt_events *ev = &c->m->events;
	p = put(p, r->prefix, r->prefix_len);
	int64_t rel = ev->start[i] + r->off - c->base;
	p = put_us(p, rel);
	p = PUTL(p, ",\"dur\":");
	return put_dur(p, rel, ev->dur[i] > 0 ? ev->dur[i] : 0);
}

static inline char *put_frag(const struct ctx *c, char *p, const struct frag *f)
{
	return put(p, c->arena.v + f->off, f->len);
}

/* Event Sync and Stream Wait Event: what they waited for (cupti.md §6.7, Kineto's keys; -1 unknown). */
static char *put_sync_args(const struct ctx *c, char *p, const char *a0, uint32_t i)
{
	const struct pt_sync_info *si = pt_model_sync_info(c->m, i);
	if (!si || (si->type != 1 && si->type != 2))
		return p;
	if (p != a0)
		*p++ = ',';
	p = PUTL(p, "\"wait_on_stream\":");
	p = put_i64(p, si->wait_stream);
	p = PUTL(p, ",\"wait_on_cuda_event_record_corr_id\":");
	p = put_i64(p, si->wait_corr);
	p = PUTL(p, ",\"wait_on_cuda_event_id\":");
	return put_i64(p, si->cuda_event_id);
}

static bool api_is_driver(const char *n)
{
	return (!strncmp(n, "cu", 2) && strncmp(n, "cuda", 4)) || !strncmp(n, "<driver", 7) || !strncmp(n, "<internal", 9);
}

static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
					 "Managed Static" };

static const char *mem_kind(uint8_t k)
{
	return k < sizeof(mem_kinds) / sizeof(mem_kinds[0]) ? mem_kinds[k] : "Unrecognized";
}

/* The correlation an Ascend task carries in the kineto profile: its step's (see emit_slice). */
static uint32_t task_step_corr(const struct ctx *c, const struct row *r, uint32_t i)
{
	uint32_t st = c->tl->ev_step[i];
	if (st || !c->step_first[r->dev])
		return st;
	/* outside every step: the nearest one, the first before it starts, else the last */
	const struct pt_tl_device *td = &c->tl->dev[r->dev];
	return c->m->events.start[i] < td->steps.s.v[0].start ? c->step_first[r->dev] : c->step_last[r->dev];
}

/*
 * One model event in the kineto dialect (cupti.md §7.3, §7.4): Kineto's
 * categories and names; device events carry "device", "stream" and
 * "correlation", host events no "stream" (HTA tells device rows by it).
 */
static void emit_track_event_kineto(struct ctx *c, struct sink *sk, const struct row *r, uint32_t i)
{
	const struct pt_model *m = c->m;
	const struct pt_events *ev = &m->events;
	const struct pt_track *tr = &m->tracks.v[r->track];
	uint8_t k = ev->kind[i];
	uint32_t name = ev->name[i];
	const struct frag *nf = NULL, *of = NULL;
	char built[160];
	int bl = -1; /* length of a name built into `built` (JSON string, quotes included) */
	const char *cat;
	bool task = k == PT_EV_TASK || k == PT_EV_AICPU;
	const struct pt_copy_info *ci = c->copy_of && c->copy_of[i] ? &m->copies.v[c->copy_of[i] - 1] : NULL;
	switch (k) {
	case PT_EV_TASK:
	case PT_EV_AICPU:
	case PT_EV_KERNEL:
		cat = "kernel";
		break;
	case PT_EV_MEMCPY:
		cat = "gpu_memcpy";
		break;
	case PT_EV_MEMSET:
		cat = "gpu_memset";
		break;
	case PT_EV_API:
		cat = api_is_driver(strget(c, name)) ? "cuda_driver" : "cuda_runtime";
		break;
	case PT_EV_SYNC:
		cat = "cuda_sync";
		break;
	default:
		cat = r->host ? "user_annotation" : "gpu_user_annotation";
	}
	if (task) {
		if (ev->op[i])
			of = op_frag(c, ev->op[i] - 1);
		if (name)
			nf = name_frag(c, name, NM_LAST);
		else
			bl = snprintf(built, sizeof(built), "\"task %lld_%llu\"", (long long)tr->stream,
				      (unsigned long long)ev->task[i]);
	} else if (k == PT_EV_KERNEL) {
		nf = name_frag(c, name, NM_DEMANGLE);
	} else if (k == PT_EV_API) {
		nf = name_frag(c, name, NM_API);
	} else if (k == PT_EV_MEMCPY) {
		uint8_t ck = ci ? ci->copy_kind : 0;
		bl = snprintf(built, sizeof(built), "\"Memcpy %s (%s -> %s)\"",
			      copy_kinds[ck < sizeof(copy_kinds) / sizeof(copy_kinds[0]) ? ck : 0],
			      mem_kind(ci ? ci->src_kind : 0), mem_kind(ci ? ci->dst_kind : 0));
	} else if (k == PT_EV_MEMSET) {
		bl = snprintf(built, sizeof(built), "\"Memset (%s)\"", mem_kind(ci ? ci->dst_kind : 0));
	} else if (k == PT_EV_RANGE && (c->tl->ev_keep[i] & 2) && strncmp(strget(c, name), "ProfilerStep#", 13)) {
		bl = snprintf(built, sizeof(built), "\"ProfilerStep#%u\"", c->tl->ev_step[i]); /* HTA finds steps by name */
	} else {
		nf = name_frag(c, name, NM_RAW);
	}
	size_t need = 768 + r->prefix_len + (nf ? nf->len : 0) + (of ? of->len : 0);
	char *p0 = sink_reserve(sk, need), *p = put_sep(c, p0);
	p = PUTL(p, "{\"ph\":\"X\",\"cat\":\"");
	p = put(p, cat, strlen(cat));
	p = PUTL(p, "\",\"name\":");
	p = nf ? put_frag(c, p, nf) : put(p, built, (size_t)bl);
	p = put_row_times(c, p, r, i);
	p = PUTL(p, ",\"args\":{");
	char *a0 = p;
	uint64_t corr = task ? task_step_corr(c, r, i) : c->has_corr ? ev->corr[i] : 0;
	if (!r->host) {
		p = PUTL(p, "\"device\":");
		p = put_i64(p, m->devices.v[r->dev].id);
		p = PUTL(p, ",\"stream\":");
		/* a stream row: its stream id as recorded (CUPTI's invalid stream of a context-wide
		 * sync is 4294967295, as current Kineto prints it, and HTA counts it as GPU work; a
		 * Kineto trace's own -1 stays -1, a host row to HTA, as in that trace); a device row
		 * without a stream id (Ascend AI CPU): the row's tid, so that HTA counts its tasks as
		 * device work */
		p = put_i64(p, tr->kind != PT_TRACK_STREAM ? (int64_t)r->tid : tr->stream);
		p = PUTL(p, ",\"correlation\":");
		p = put_u64(p, corr);
	} else if (corr) {
		p = PUTL(p, "\"correlation\":");
		p = put_u64(p, corr);
	}
	if (task) {
		p = PUTL(p, ",\"task_id\":");
		p = put_u64(p, ev->task[i]);
	}
	if (k == PT_EV_KERNEL && c->kconf_of && c->kconf_of[i]) { /* Kineto's launch keys (cupti.md §7.4) */
		const struct pt_kernel_config *kc = &m->kernel_configs.v[c->kconf_of[i] - 1];
		p = PUTL(p, ",\"registers per thread\":");
		p = put_u64(p, kc->registers);
		p = PUTL(p, ",\"shared memory\":");
		p = put_i64(p, (int64_t)kc->static_smem + kc->dynamic_smem);
		p = PUTL(p, ",\"grid\":[");
		for (int d = 0; d < 3; d++) {
			p = put_i64(p, kc->grid[d]);
			*p++ = d < 2 ? ',' : ']';
		}
		p = PUTL(p, ",\"block\":[");
		for (int d = 0; d < 3; d++) {
			p = put_i64(p, kc->block[d]);
			*p++ = d < 2 ? ',' : ']';
		}
		if (kc->graph_id) {
			p = PUTL(p, ",\"graph id\":");
			p = put_u64(p, kc->graph_id);
		}
	}
	if (ci && ci->bytes) {
		p = PUTL(p, ",\"bytes\":");
		p = put_u64(p, ci->bytes);
	}
	if (k == PT_EV_SYNC)
		p = put_sync_args(c, p, a0, i);
	if (of) {
		if (p != a0)
			*p++ = ',';
		p = put_frag(c, p, of);
	}
	if (p == a0)
		p -= 9; /* drop the empty ,"args":{ */
	else
		*p++ = '}';
	*p++ = '}';
	sk->len += (size_t)(p - p0);
}

static void emit_track_event(struct ctx *c, struct sink *sk, const struct row *r, uint32_t i)
{
	if (c->kineto) {
		emit_track_event_kineto(c, sk, r, i);
		return;
	}
	const struct pt_events *ev = &c->m->events;
	uint8_t k = ev->kind[i];
	uint32_t name = ev->name[i];
	const struct frag *nf = NULL, *of = NULL, *rawf = NULL, *fullf = NULL;
	bool unnamed = false, task = k == PT_EV_TASK || k == PT_EV_AICPU;
	int cat = ev_cat(k);
	if (k == PT_EV_RANGE && (c->tl->ev_keep[i] & 2))
		cat = XH_STEP;
	if (ev->op[i])
		of = op_frag(c, ev->op[i] - 1);
	if (task) {
		if (!name) {
			unnamed = true;
			cat = XH_UNNAMED;
		} else {
			nf = name_frag(c, name, NM_LAST);
			if (!of && (name_flags(c, name) & NF_SLASH))
				fullf = name_frag(c, name, NM_RAW);
		}
	} else if (k == PT_EV_KERNEL) {
		nf = name_frag(c, name, NM_DEMANGLE);
		if (name_flags(c, name) & NF_DEMANGLED)
			rawf = name_frag(c, name, NM_RAW);
	} else if (k == PT_EV_API) {
		nf = name_frag(c, name, NM_API);
		if (name_flags(c, name) & NF_API)
			rawf = name_frag(c, name, NM_RAW);
	} else if (name || (k != PT_EV_MEMCPY && k != PT_EV_MEMSET)) {
		nf = name_frag(c, name, NM_RAW);
	}
	size_t need = 512 + r->prefix_len + (nf ? nf->len : 0) + (of ? of->len : 0) + (rawf ? rawf->len : 0) +
		      (fullf ? fullf->len : 0);
	char *p0 = sink_reserve(sk, need), *p = put_sep(c, p0);
	memcpy(p, xheads[cat].s, sizeof(xheads[cat].s)); /* need covers the padding */
	p += xheads[cat].n;
	if (nf) {
		p = put_frag(c, p, nf);
	} else if (unnamed) {
		memcpy(p, r->tname, sizeof(r->tname));
		p = put_i64(p + r->tname_len, (int64_t)ev->task[i]);
		*p++ = '"';
	} else {
		p = k == PT_EV_MEMCPY ? PUTL(p, "\"[CUDA memcpy]\"") : PUTL(p, "\"[CUDA memset]\"");
	}
	p = put_row_times(c, p, r, i);
	p = PUTL(p, ",\"args\":{");
	char *a0 = p;
	if (of) {
		p = put_frag(c, p, of);
	} else if (fullf) {
		p = PUTL(p, "\"full_name\":");
		p = put_frag(c, p, fullf);
	}
	if (rawf) {
		if (p != a0)
			*p++ = ',';
		p = PUTL(p, "\"raw_name\":");
		p = put_frag(c, p, rawf);
	}
	if (task) {
		if (k == PT_EV_TASK) {
			if (p != a0)
				*p++ = ',';
			memcpy(p, r->targs, sizeof(r->targs));
			p = put_i64(p + r->targs_len, (int64_t)ev->task[i]);
		}
	} else if (r->dargs_len) {
		if (p != a0)
			*p++ = ',';
		memcpy(p, r->dargs, sizeof(r->dargs));
		p += r->dargs_len;
	}
	if (c->has_corr && ev->corr[i]) {
		if (p != a0)
			*p++ = ',';
		p = PUTL(p, "\"correlation\":");
		p = put_u64(p, ev->corr[i]);
	}
	if (k == PT_EV_SYNC)
		p = put_sync_args(c, p, a0, i);
	if (c->tl->ev_step[i]) {
		if (p != a0)
			*p++ = ',';
		p = PUTL(p, "\"step\":");
		p = put_u64(p, c->tl->ev_step[i]);
	}
	if (p == a0)
		p -= 9; /* drop the empty ,"args":{ */
	else
		*p++ = '}';
	*p++ = '}';
	sk->len += (size_t)(p - p0);
}

static void emit_slice(struct ctx *c, struct sink *sk, const struct row *r, uint32_t i)
{
	const struct pt_tl_slice *sl = &r->sl[i];
	char b[48];
	if (c->kineto) { /* the Ascend steps: host-side ProfilerStep#<n>, correlation = the step (see §11 of the spec) */
		sink_puts(sk, "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#");
		sink_write(sk, b, pt_fmt_u64(b, sl->step));
		sink_puts(sk, "\"");
		sink_write(sk, r->prefix, r->prefix_len);
		sink_write(sk, b, pt_chrome_fmt_us(b, sl->start + r->off - c->base));
		sink_puts(sk, ",\"dur\":");
		sink_write(sk, b, pt_chrome_fmt_dur(b, sl->start + r->off - c->base, sl->end - sl->start));
		sink_puts(sk, ",\"args\":{\"correlation\":");
		sink_i64(sk, sl->step);
		sink_puts(sk, "}}");
		return;
	}
	if (r->slkind == SL_STEPS) {
		sink_puts(sk, "{\"ph\":\"X\",\"cat\":\"Step\",\"name\":\"Step ");
		sink_write(sk, b, pt_fmt_u64(b, sl->step));
		sink_puts(sk, "\"");
	} else if (r->slkind == SL_COMM) {
		sink_puts(sk, "{\"ph\":\"X\",\"cat\":\"Reduce\",\"name\":");
		const char *nm = sl->name ? strget(c, sl->name) : "parallel";
		sink_jstr(sk, &c->tmp, nm, strlen(nm));
	} else {
		const char *full = strget(c, sl->name);
		size_t off = 0, len = 0;
		pt_tl_scope_segment(full, r->level, &off, &len);
		sink_puts(sk, "{\"ph\":\"X\",\"cat\":\"Scope\",\"name\":");
		sink_jstr(sk, &c->tmp, full + off, len);
	}
	sink_write(sk, r->prefix, r->prefix_len);
	sink_write(sk, b, pt_chrome_fmt_us(b, sl->start + r->off - c->base));
	sink_puts(sk, ",\"dur\":");
	sink_write(sk, b, pt_chrome_fmt_dur(b, sl->start + r->off - c->base, sl->end - sl->start));
	if (r->slkind == SL_STEPS) {
		sink_puts(sk, ",\"args\":{\"step\":");
		sink_i64(sk, sl->step);
		if (sl->aux) {
			const struct pt_tl_win *w = &c->tl->dev[r->dev].win.v[sl->aux - 1];
			sink_puts(sk, ",\"device_start_ns\":");
			sink_i64(sk, w->s);
			sink_puts(sk, ",\"device_end_ns\":");
			sink_i64(sk, w->e);
		}
		if (sl->busy >= 0) {
			sink_puts(sk, ",\"busy_ns\":");
			sink_i64(sk, sl->busy);
		}
		sink_puts(sk, ",\"activities\":");
		sink_i64(sk, sl->count);
		sink_puts(sk, "}}");
	} else if (r->slkind == SL_COMM) {
		sink_puts(sk, ",\"args\":{\"stream\":");
		sink_i64(sk, sl->count);
		sink_puts(sk, ",\"start_tag\":");
		sink_i64(sk, sl->aux);
		sink_puts(sk, ",\"step\":");
		sink_i64(sk, sl->step);
		sink_puts(sk, "}}");
	} else {
		const char *full = strget(c, sl->name);
		size_t off = 0, len = 0;
		pt_tl_scope_segment(full, r->level, &off, &len);
		sink_puts(sk, ",\"args\":{\"scope\":");
		sink_jstr(sk, &c->tmp, full, off + len);
		sink_puts(sk, ",\"ops\":");
		sink_i64(sk, sl->count);
		sink_puts(sk, "}}");
	}
}

static void emit_iv(struct ctx *c, struct sink *sk, const struct row *r, uint32_t i)
{
	const struct pt_ival *iv = &r->iv[i];
	char *p0 = sink_reserve(sk, r->head_len + 96), *p = put_sep(c, p0);
	p = put(p, r->head, r->head_len);
	p = put_us(p, iv->s + r->off - c->base);
	p = PUTL(p, ",\"dur\":");
	p = put_dur(p, iv->s + r->off - c->base, iv->e - iv->s);
	*p++ = '}';
	sk->len += (size_t)(p - p0);
}

static void emit_counter(struct ctx *c, struct sink *sk, const struct csrc *cs, size_t pos, int64_t ts_rel)
{
	const struct pt_model *m = c->m;
	char b[64];
	uint32_t i = cs->idx[pos];
	if (!cs->grp && !cs->queue && !isfinite(m->counters.value[i]))
		return;
	sep(c, sk);
	sink_puts(sk, "{\"ph\":\"C\",\"name\":");
	const char *key = cs->queue || cs->grp ? NULL : strchr(cs->name, '#'); /* "GROUP#SERIES" tracks (memory) */
	sink_jstr(sk, &c->tmp, cs->name, key ? (size_t)(key - cs->name) : strlen(cs->name));
	int n = snprintf(b, sizeof(b), ",\"pid\":%u,\"tid\":%u,\"ts\":", cs->pid, cs->tid);
	sink_write(sk, b, (size_t)n);
	sink_write(sk, b, pt_chrome_fmt_us(b, ts_rel));
	if (cs->grp) { /* all the series of the group */
		const struct pt_gms_group *g = cs->grp;
		for (size_t k = 0; k < g->nseries; k++) {
			sink_puts(sk, k ? "," : ",\"args\":{");
			sink_jstr(sk, &c->tmp, g->series[k], strlen(g->series[k]));
			sink_puts(sk, ":");
			sink_i64(sk, g->val.v[i * g->nseries + k]);
		}
	} else if (cs->queue) {
		sink_puts(sk, ",\"args\":{\"size\":");
		sink_i64(sk, m->queues.size[i]);
	} else {
		if (key) {
			sink_puts(sk, ",\"args\":{");
			sink_jstr(sk, &c->tmp, key + 1, strlen(key + 1));
			sink_puts(sk, ":");
		} else {
			sink_puts(sk, ",\"args\":{\"value\":");
		}
		double v = m->counters.value[i];
		if (v == (double)(int64_t)v && fabs(v) < 9e15) {
			sink_i64(sk, (int64_t)v);
		} else {
			n = snprintf(b, sizeof(b), "%.6f", v);
			while (n > 1 && b[n - 1] == '0')
				n--;
			if (b[n - 1] == '.')
				n--;
			sink_write(sk, b, (size_t)n);
		}
	}
	sink_puts(sk, "}}");
}

static void emit_flow(struct ctx *c, struct sink *sk, const struct src *s, uint32_t fi)
{
	const struct flow *f = &c->flows.v[fi];
	const struct row *r = &c->rows.v[s->ref];
	char *p0 = sink_reserve(sk, 160 + r->prefix_len), *p = put_sep(c, p0);
	p = s->ph == PH_S ? PUTL(p, "{\"ph\":\"s\",\"id\":") : PUTL(p, "{\"ph\":\"f\",\"id\":");
	p = put_u64(p, f->id);
	if (c->kineto) { /* ph, id, pid, tid, ts, cat, name[, bp] */
		p = put(p, r->prefix, r->prefix_len);
		p = put_us(p, s->ph == PH_S ? f->sts : f->fts);
		p = PUTL(p, ",\"cat\":\"ac2g\",\"name\":\"ac2g\"");
		if (s->ph == PH_F)
			p = PUTL(p, ",\"bp\":\"e\"");
		*p++ = '}';
		sk->len += (size_t)(p - p0);
		return;
	}
	p = PUTL(p, ",\"cat\":\"flow\",\"name\":\"launch\"");
	p = put(p, r->prefix, r->prefix_len);
	p = put_us(p, s->ph == PH_S ? f->sts : f->fts);
	if (s->ph == PH_F)
		p = PUTL(p, ",\"bp\":\"e\"");
	*p++ = '}';
	sk->len += (size_t)(p - p0);
}

/* Kineto's metadata events (cupti.md §7.5). */
/* The name and sort index of every row, the same in both profiles. */
static void emit_thread_meta(struct ctx *c, struct sink *sk)
{
	char b[160];
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct row *r = &c->rows.v[i];
		sep(c, sk);
		int n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
				 r->pid, r->tid);
		sink_write(sk, b, (size_t)n);
		sink_jstr(sk, &c->tmp, r->name, strlen(r->name));
		sink_puts(sk, "}}");
		sep(c, sk);
		n = snprintf(b, sizeof(b),
			     "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%d}}",
			     r->pid, r->tid, r->sort);
		sink_write(sk, b, (size_t)n);
	}
}

static void emit_meta_kineto(struct ctx *c, struct sink *sk)
{
	char b[200];
	for (size_t p = 0; p < c->procs.n; p++) {
		const struct proc *pr = &c->procs.v[p];
		if (!pr->used)
			continue;
		sep(c, sk);
		int n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":",
				 pr->pid);
		sink_write(sk, b, (size_t)n);
		sink_jstr(sk, &c->tmp, pr->name, strlen(pr->name));
		sink_puts(sk, "}}");
		sep(c, sk);
		if (pr->device)
			n = snprintf(b, sizeof(b),
				     "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":%u,\"tid\":0,\"args\":{\"labels\":\"%s\"}}",
				     pr->pid, pr->name);
		else
			n = snprintf(b, sizeof(b),
				     "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":%u,\"tid\":0,\"args\":{\"labels\":\"CPU\"}}",
				     pr->pid);
		sink_write(sk, b, (size_t)n);
		sep(c, sk);
		n = snprintf(b, sizeof(b),
			     "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%u}}",
			     pr->pid, pr->device ? 5000000u + pr->devid : pr->pid);
		sink_write(sk, b, (size_t)n);
	}
	emit_thread_meta(c, sk);
}

static void emit_meta(struct ctx *c, struct sink *sk)
{
	char b[160];
	if (c->kineto) {
		emit_meta_kineto(c, sk);
		return;
	}
	for (size_t p = 0; p < c->procs.n; p++) {
		const struct proc *pr = &c->procs.v[p];
		if (!pr->used) {
			bool counters = false;
			for (size_t i = 0; i < c->counters.n; i++)
				counters |= c->counters.v[i].pid == pr->pid;
			if (!counters)
				continue;
		}
		sep(c, sk);
		int n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":", pr->pid);
		sink_write(sk, b, (size_t)n);
		sink_jstr(sk, &c->tmp, pr->name, strlen(pr->name));
		sink_puts(sk, "}}");
		sep(c, sk);
		n = snprintf(b, sizeof(b),
			     "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"args\":{\"sort_index\":%u}}", pr->pid,
			     pr->pid);
		sink_write(sk, b, (size_t)n);
	}
	emit_thread_meta(c, sk);
	/* counter-only processes get a named row too */
	for (size_t i = 0; i < c->counters.n; i++) {
		const struct csrc *cs = &c->counters.v[i];
		if (cs->tid < TID_BASE + c->rows.n)
			continue;
		bool named = false; /* the counters of one process share its row */
		for (size_t j = 0; j < i && !named; j++)
			named = c->counters.v[j].tid == cs->tid;
		if (named)
			continue;
		sep(c, sk);
		int n = snprintf(b, sizeof(b),
				 "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"Counters\"}}",
				 cs->pid, cs->tid);
		sink_write(sk, b, (size_t)n);
	}
}

struct hdr {
	size_t part, parts;
	uint64_t dropped;
};

/* The device entries of "deviceProperties" (keys known for the device: id, name). */
static void emit_device_props(struct ctx *c, struct sink *sk, bool only_rank)
{
	const struct pt_model *m = c->m;
	bool any = false;
	for (size_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		if (dv->kind == PT_DEV_CPU || (only_rank && c->dev_rank[d] != c->o->rank))
			continue;
		sink_puts(sk, any ? ", " : "\"deviceProperties\": [");
		any = true;
		sink_puts(sk, "{\"id\": ");
		sink_i64(sk, dv->id);
		if (dv->name) {
			sink_puts(sk, ", \"name\": ");
			sink_jstr(sk, &c->tmp, dv->name, strlen(dv->name));
		}
		sink_puts(sk, "}");
	}
	if (any)
		sink_puts(sk, "],\n");
}

/*
 * The kineto file of one rank (chrome-trace.md §11): its keys in Kineto's
 * order, each on its own line; "rank": <n> with one space, before
 * traceEvents, so that HTA's line scan finds it first.
 */
static void emit_header_kineto(struct ctx *c, struct sink *sk)
{
	sink_puts(sk, "{\"schemaVersion\": 1,\n");
	emit_device_props(c, sk, true);
	sink_puts(sk, "\"distributedInfo\": {\"rank\": ");
	sink_i64(sk, c->o->rank);
	sink_puts(sk, "},\n\"baseTimeNanoseconds\": ");
	sink_i64(sk, c->base);
	sink_puts(sk, ",\n\"proftool\": {\"version\": \"" PT_VERSION "\", \"profile\": \"kineto\", \"clock\": ");
	sink_jstr(sk, &c->tmp, c->clock, strlen(c->clock));
	sink_puts(sk, ", \"base_ns\": ");
	sink_i64(sk, c->base);
	sink_puts(sk, ", \"overflow_events\": ");
	sink_i64(sk, (int64_t)c->overflow);
	sink_puts(sk, ", \"unaligned_events\": ");
	sink_i64(sk, (int64_t)c->unaligned);
	sink_puts(sk, "},\n\"traceEvents\": [\n");
	c->first_event = true;
	emit_meta(c, sk);
}

static void emit_header(struct ctx *c, struct sink *sk, const struct hdr *h)
{
	const struct pt_model *m = c->m;
	if (c->kineto) {
		emit_header_kineto(c, sk);
		return;
	}
	/* ranks */
	PT_VEC(uint32_t) ranks = { 0 };
	for (size_t d = 0; d < m->devices.n; d++) {
		bool seen = false;
		for (size_t i = 0; i < ranks.n; i++)
			seen |= ranks.v[i] == c->dev_rank[d];
		if (!seen)
			pt_vec_push(&ranks, c->dev_rank[d]);
	}
	for (size_t i = 1; i < ranks.n; i++) /* sort */
		for (size_t j = i; j > 0 && ranks.v[j - 1] > ranks.v[j]; j--) {
			uint32_t t = ranks.v[j];
			ranks.v[j] = ranks.v[j - 1];
			ranks.v[j - 1] = t;
		}
	sink_puts(sk, "{\"schemaVersion\": 1,\n");
	if (ranks.n == 1) {
		emit_device_props(c, sk, false);
		sink_puts(sk, "\"distributedInfo\": {\"rank\": ");
		sink_i64(sk, ranks.v[0]);
		sink_puts(sk, "},\n");
	}
	sink_puts(sk, "\"proftool\": {\"version\": \"" PT_VERSION "\", \"profile\": \"viewer\", \"clock\": ");
	sink_jstr(sk, &c->tmp, c->clock, strlen(c->clock));
	sink_puts(sk, ", \"base_ns\": ");
	sink_i64(sk, c->base);
	sink_puts(sk, ", \"ranks\": [");
	for (size_t i = 0; i < ranks.n; i++) {
		sink_puts(sk, i ? ", {\"rank\": " : "{\"rank\": ");
		sink_i64(sk, ranks.v[i]);
		sink_puts(sk, ", \"host\": null, \"os_pid\": null, \"offset_ns\": ");
		int64_t off = 0;
		for (size_t d = 0; d < m->devices.n; d++)
			if (c->dev_rank[d] == ranks.v[i] && c->dev_ok[d]) {
				off = c->dev_off[d];
				break;
			}
		sink_i64(sk, off);
		sink_puts(sk, "}");
	}
	pt_vec_free(&ranks);
	sink_puts(sk, "], \"part\": ");
	sink_i64(sk, (int64_t)h->part);
	sink_puts(sk, ", \"parts\": ");
	sink_i64(sk, (int64_t)h->parts);
	sink_puts(sk, ", \"overflow_events\": ");
	sink_i64(sk, (int64_t)c->overflow);
	sink_puts(sk, ", \"dropped_flows\": ");
	sink_i64(sk, (int64_t)h->dropped);
	sink_puts(sk, ", \"scope_skipped\": ");
	sink_i64(sk, (int64_t)c->tl->scope_skipped);
	sink_puts(sk, ", \"unaligned_events\": ");
	sink_i64(sk, (int64_t)c->unaligned);
	sink_puts(sk, ", \"unanchored_samples\": ");
	sink_i64(sk, (int64_t)c->unanchored);
	sink_puts(sk, "},\n\"baseTimeNanoseconds\": ");
	sink_i64(sk, c->base);
	sink_puts(sk, ",\n\"traceEvents\": [\n");
	c->first_event = true;
	emit_meta(c, sk);
}

static void emit_footer(struct ctx *c, struct sink *sk)
{
	sink_puts(sk, c->kineto ? "\n],\n\"displayTimeUnit\": \"ms\",\n\"traceName\": " : "\n],\n\"traceName\": ");
	const char *tn = c->o->trace_name ? c->o->trace_name : "";
	sink_jstr(sk, &c->tmp, tn, strlen(tn));
	sink_puts(sk, "}\n");
}

static uint32_t unit_of(const struct ctx *c, int64_t ts)
{
	size_t lo = 0, hi = c->bounds.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->bounds.v[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* Part statistics for the manifest. */
struct part_info {
	int64_t first_ts, end_ts;
	uint32_t unit_lo, unit_hi;
	uint64_t events, bytes, gzip_bytes, dropped;
	char *file;
};

/*
 * The event loop. mode 0: write everything to sk (single file); mode 1:
 * planning (count only, feed the planner); mode 2: write parts.
 */
struct loop {
	int mode;
	struct sink *sk;
	struct pt_chrome_planner *pl;
	/* mode 2 */
	size_t part;             /* current part index (0-based) */
	int (*next_part)(struct ctx *, struct loop *, int64_t ts);
	struct part_info *pi;
	void *user;
	int err;
};

static bool flow_dropped(const struct ctx *c, uint32_t fi)
{
	return c->flow_drop && c->flow_drop[fi];
}

static void carry_counters(struct ctx *c, struct sink *sk, int64_t ts)
{
	/* each counter group resumes with its last value before the part */
	for (size_t i = 0; i < c->srcs.n; i++) {
		const struct src *s = &c->srcs.v[i];
		if (s->ph != PH_C || !s->pos || s->pos > s->n)
			continue;
		emit_counter(c, sk, &c->counters.v[s->ref], s->pos - 1, ts);
	}
}

static int run_loop(struct ctx *c, struct loop *L)
{
	tree_init(c);
	c->ord = 0;
	size_t cut = 0;
	for (;;) {
		uint32_t w = c->tree[0];
		if (c->leaf[w] == MKEY_DONE)
			break;
		int64_t ts = (int64_t)(uint64_t)(c->leaf[w] >> 32);
		struct src *s = &c->srcs.v[w];
		uint64_t before = sink_pos(L->sk);
		if (L->mode == 2 && cut < c->ncuts && c->ord == c->cuts[cut]) {
			cut++;
			if (L->next_part(c, L, ts))
				return -1;
			carry_counters(c, L->sk, ts);
			before = sink_pos(L->sk);
		}
		bool wrote = true;
		switch (s->ph) {
		case PH_X: {
			const struct row *r = &c->rows.v[s->ref];
			uint32_t i = r->idx[s->pos];
			if (r->type == R_TRACK) {
				emit_track_event(c, L->sk, r, i);
			} else if (r->type == R_SLICE) {
				sep(c, L->sk);
				emit_slice(c, L->sk, r, i);
			} else {
				emit_iv(c, L->sk, r, i);
			}
			break;
		}
		case PH_C:
			emit_counter(c, L->sk, &c->counters.v[s->ref], s->pos, ts);
			break;
		default: {
			uint32_t fi = s->items[s->pos];
			if (c->record_flow_ord)
				c->flow_ord[2 * fi + (s->ph == PH_F)] = c->ord;
			if (flow_dropped(c, fi)) {
				wrote = false;
				break;
			}
			emit_flow(c, L->sk, s, fi);
		}
		}
		uint64_t bytes = sink_pos(L->sk) - before;
		if (L->mode == 1)
			pt_chrome_planner_event(L->pl, unit_of(c, ts), bytes);
		if (L->mode == 2 && wrote) {
			struct part_info *p = &L->pi[L->part];
			if (!p->events || ts < p->first_ts)
				p->first_ts = ts;
			int64_t end = ts;
			if (s->ph == PH_X) {
				const struct row *r = &c->rows.v[s->ref];
				uint32_t i = r->idx[s->pos];
				end += r->type == R_TRACK ? (c->m->events.dur[i] > 0 ? c->m->events.dur[i] : 0) :
				       r->type == R_SLICE ? r->sl[i].end - r->sl[i].start : r->iv[i].e - r->iv[i].s;
			}
			if (!p->events || end > p->end_ts)
				p->end_ts = end;
			uint32_t u = unit_of(c, ts);
			if (!p->events || u < p->unit_lo)
				p->unit_lo = u;
			if (!p->events || u > p->unit_hi)
				p->unit_hi = u;
			p->events++;
		}
		if (L->mode == 0 && wrote)
			L->pi[0].events++;
		c->ord++;
		if (L->mode == 0 && c->abort_over && sink_pos(L->sk) > c->limit)
			return 1;
		/* advance the source */
		s->pos++;
		if (s->ph == PH_X && s->pos + 1 < s->n) { /* the item after next: its columns are far apart in memory */
			const struct row *r = &c->rows.v[s->ref];
			if (r->type == R_TRACK) {
				uint32_t j = r->idx[s->pos + 1];
				__builtin_prefetch(&c->m->events.start[j]);
				__builtin_prefetch(&c->m->events.dur[j]);
			}
		}
		c->leaf[w] = s->pos < s->n ? mkey_of(src_item_ts(c, s, s->pos), s->key) : MKEY_DONE;
		tree_replay(c, w);
	}
	return 0;
}

/* ------------------------------------------------------------------ driver */

static void ctx_free(struct ctx *c)
{
	for (size_t i = 0; i < c->procs.n; i++)
		free(c->procs.v[i].name);
	pt_vec_free(&c->procs);
	for (size_t i = 0; i < c->rows.n; i++) {
		free(c->rows.v[i].name);
		free(c->rows.v[i].idx);
		free(c->rows.v[i].prefix);
		free(c->rows.v[i].head);
	}
	pt_vec_free(&c->rows);
	pt_vec_free(&c->flows);
	for (size_t i = 0; i < c->counters.n; i++) {
		free(c->counters.v[i].idx);
		free(c->counters.v[i].name);
	}
	pt_vec_free(&c->counters);
	pt_vec_free(&c->srcs);
	free(c->flow_s);
	free(c->flow_f);
	free(c->arena.v);
	free(c->tmp.v);
	for (int k = 0; k < NM_N; k++)
		free(c->names[k]);
	free(c->opargs);
	free(c->nflags);
	pt_vec_free(&c->bounds);
	pt_vec_free(&c->bound_step);
	free(c->leaf);
	free(c->tree);
	free(c->dev_off);
	free(c->dev_ok);
	free(c->dev_pid);
	free(c->dev_ovpid);
	free(c->dev_rank);
	free(c->flow_ord);
	free(c->flow_drop);
	free(c->copy_of);
	free(c->kconf_of);
	free(c->step_first);
	free(c->step_last);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static char *path_stem(const char *path)
{
	size_t n = strlen(path);
	if (ends_with(path, ".json.gz"))
		n -= 8;
	else if (ends_with(path, ".json"))
		n -= 5;
	else if (ends_with(path, ".gz"))
		n -= 3;
	return pt_xstrndup(path, n);
}

/*
 * Parts are committed together (issue 29.10): each part and the manifest are
 * written through pt_out to a staging name "<final>.tmp.<pid>" beside their
 * final name; only when all of them are written are they renamed into place,
 * parts first and the manifest last. On any failure every staged file (and
 * any part already renamed) is removed, so a failed run leaves no part. After
 * a commit, parts of the same stem that the run did not write (an earlier,
 * longer run's, or its other compression) are removed.
 */
struct parts_state {
	const char *path;
	char *stem;
	struct pt_out out;
	bool open;
	struct sink sk;
	struct pt_err **e;
	size_t nparts;
	struct pt_chrome_stats *st;
	PT_VEC(char *) staged; /* staging names; their final names: part files, then the manifest */
	PT_VEC(char *) finals;
};

static char *stage_name(const char *final)
{
	return pt_xasprintf("%s.tmp.%ld", final, (long)getpid());
}

static int stage_open(struct parts_state *ps, struct pt_out *o, const char *final)
{
	char *st = stage_name(final);
	if (pt_out_open(o, st, ps->e)) {
		free(st);
		return -1;
	}
	free(o->name); /* messages name the file the user asked for */
	o->name = pt_xstrdup(final);
	pt_vec_push(&ps->staged, st);
	pt_vec_push(&ps->finals, pt_xstrdup(final));
	return 0;
}

/* Remove every staged file and n already committed ones. */
static void stage_abort(struct parts_state *ps, size_t committed)
{
	for (size_t i = 0; i < ps->staged.n; i++)
		unlink(i < committed ? ps->finals.v[i] : ps->staged.v[i]);
}

static bool is_part_name(const char *name, const char *base, size_t bl)
{
	if (strncmp(name, base, bl) || strncmp(name + bl, ".part", 5))
		return false;
	const char *q = name + bl + 5;
	size_t nd = 0;
	while (q[nd] >= '0' && q[nd] <= '9')
		nd++;
	return nd >= 3 && (!strcmp(q + nd, ".json") || !strcmp(q + nd, ".json.gz"));
}

/* Remove "<stem>.partNNN.json[.gz]" files that are not among this run's parts. */
static void remove_stale_parts(struct parts_state *ps)
{
	const char *slash = strrchr(ps->stem, '/');
	char *dir = slash ? pt_xstrndup(ps->stem, (size_t)(slash - ps->stem) + (slash == ps->stem)) : pt_xstrdup(".");
	const char *base = slash ? slash + 1 : ps->stem;
	size_t bl = strlen(base);
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!is_part_name(de->d_name, base, bl))
				continue;
			char *full = slash ? pt_xasprintf("%s/%s", dir, de->d_name) : pt_xstrdup(de->d_name);
			bool ours = false;
			for (size_t i = 0; i < ps->finals.n && !ours; i++)
				ours = !strcmp(ps->finals.v[i], full);
			if (!ours)
				unlink(full);
			free(full);
		}
		closedir(d);
	}
	free(dir);
}

static int stage_commit(struct parts_state *ps)
{
	for (size_t i = 0; i < ps->staged.n; i++)
		if (rename(ps->staged.v[i], ps->finals.v[i]) < 0) {
			int er = errno;
			stage_abort(ps, i);
			return pt_err_errno(ps->e, er, "cannot put '%s' in place (no part written)", ps->finals.v[i]);
		}
	remove_stale_parts(ps);
	return 0;
}

static void stage_free(struct parts_state *ps)
{
	for (size_t i = 0; i < ps->staged.n; i++) {
		free(ps->staged.v[i]);
		free(ps->finals.v[i]);
	}
	pt_vec_free(&ps->staged);
	pt_vec_free(&ps->finals);
}

static int close_part(struct ctx *c, struct loop *L)
{
	struct parts_state *ps = L->user;
	if (!ps->open)
		return 0;
	emit_footer(c, &ps->sk);
	sink_finish(&ps->sk);
	struct part_info *p = &L->pi[L->part];
	p->bytes = ps->sk.total;
	p->gzip_bytes = ps->sk.zbytes;
	ps->st->bytes += ps->sk.total;
	bool zerr = ps->sk.zerr;
	sink_free(&ps->sk);
	ps->open = false;
	if (zerr) {
		pt_out_abort(&ps->out);
		return pt_err(ps->e, "cannot compress '%s'", p->file);
	}
	return pt_out_commit(&ps->out, ps->e); /* to its staging name */
}

static int open_part(struct ctx *c, struct loop *L, size_t k)
{
	struct parts_state *ps = L->user;
	struct part_info *p = &L->pi[k];
	p->file = pt_xasprintf("%s.part%03zu.json%s", ps->stem, k + 1, c->o->gzip ? ".gz" : "");
	if (stage_open(ps, &ps->out, p->file))
		return -1;
	ps->open = true;
	sink_init(&ps->sk, &ps->out, c->o->gzip, c->o->gzip_level, c->o->gzip_threads);
	L->sk = &ps->sk;
	L->part = k;
	struct hdr h = { k + 1, ps->nparts, p->dropped };
	emit_header(c, &ps->sk, &h);
	return 0;
}

static int next_part(struct ctx *c, struct loop *L, int64_t ts)
{
	(void)ts;
	if (close_part(c, L))
		return -1;
	return open_part(c, L, L->part + 1);
}

static size_t part_of(const struct ctx *c, uint64_t ord)
{
	size_t lo = 0, hi = c->ncuts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->cuts[mid] <= ord)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int write_manifest(struct ctx *c, struct parts_state *ps, struct part_info *pi, size_t n, struct pt_err **e)
{
	char *mp = pt_xasprintf("%s.parts.json", ps->stem);
	struct pt_out o;
	if (stage_open(ps, &o, mp)) {
		free(mp);
		return -1;
	}
	struct sink sk;
	sink_init(&sk, &o, false, 0, 1);
	sink_puts(&sk, "{\"base_time_ns\": ");
	sink_i64(&sk, c->base);
	sink_puts(&sk, ", \"max_part_bytes\": ");
	sink_i64(&sk, (int64_t)c->limit);
	sink_puts(&sk, ", \"parts\": [\n");
	for (size_t k = 0; k < n; k++) {
		const struct part_info *p = &pi[k];
		const char *base = strrchr(p->file, '/');
		base = base ? base + 1 : p->file;
		sink_puts(&sk, k ? ",\n{\"file\": " : "{\"file\": ");
		sink_jstr(&sk, &c->tmp, base, strlen(base));
		sink_puts(&sk, ", \"first_ts_ns\": ");
		sink_i64(&sk, c->base + p->first_ts);
		sink_puts(&sk, ", \"end_ts_ns\": ");
		sink_i64(&sk, c->base + p->end_ts);
		sink_puts(&sk, ", \"steps\": ");
		uint32_t lo = p->unit_lo ? p->unit_lo : 1, hi = p->unit_hi;
		if (!c->bounds.n || !hi) {
			sink_puts(&sk, "null");
		} else {
			sink_puts(&sk, "[");
			sink_i64(&sk, c->bound_step.v[lo - 1]);
			sink_puts(&sk, ", ");
			sink_i64(&sk, c->bound_step.v[hi - 1]);
			sink_puts(&sk, "]");
		}
		sink_puts(&sk, ", \"bytes\": ");
		sink_i64(&sk, (int64_t)p->bytes);
		sink_puts(&sk, ", \"gzip_bytes\": ");
		if (c->o->gzip)
			sink_i64(&sk, (int64_t)p->gzip_bytes);
		else
			sink_puts(&sk, "null");
		sink_puts(&sk, ", \"events\": ");
		sink_i64(&sk, (int64_t)p->events);
		sink_puts(&sk, ", \"dropped_flows\": ");
		sink_i64(&sk, (int64_t)p->dropped);
		sink_puts(&sk, "}");
	}
	sink_puts(&sk, "\n]}\n");
	sink_finish(&sk);
	sink_free(&sk);
	free(mp);
	return pt_out_commit(&o, e);
}

static int write_parts(struct ctx *c, const char *path, struct pt_chrome_stats *st, struct pt_err **e)
{
	/* pass 1: plan */
	struct sink cnt;
	sink_init(&cnt, NULL, false, 0, 1);
	struct hdr h = { 99999, 99999, 999999999 };
	emit_header(c, &cnt, &h);
	emit_footer(c, &cnt);
	uint64_t header = sink_pos(&cnt);
	sink_free(&cnt);
	sink_init(&cnt, NULL, false, 0, 1);
	struct pt_chrome_planner *pl = pt_chrome_planner_new(header, c->limit);
	c->flow_ord = pt_xcalloc(2 * (c->flows.n ? c->flows.n : 1), sizeof(*c->flow_ord));
	c->record_flow_ord = true;
	struct loop L1 = { .mode = 1, .sk = &cnt, .pl = pl };
	c->first_event = false;
	run_loop(c, &L1);
	c->record_flow_ord = false;
	sink_free(&cnt);
	size_t nparts = pt_chrome_planner_finish(pl, &c->cuts);
	c->ncuts = nparts - 1;
	/* flows crossing parts are dropped */
	struct part_info *pi = pt_xcalloc(nparts, sizeof(*pi));
	c->flow_drop = pt_xcalloc(c->flows.n ? c->flows.n : 1, 1);
	for (size_t f = 0; f < c->flows.n; f++) {
		size_t a = part_of(c, c->flow_ord[2 * f]), b = part_of(c, c->flow_ord[2 * f + 1]);
		if (a != b) {
			c->flow_drop[f] = 1;
			pi[a].dropped++;
			pi[b].dropped++;
			c->dropped++;
		}
	}
	/* pass 2: write */
	struct parts_state ps = { .path = path, .stem = path_stem(path), .e = e, .nparts = nparts, .st = st };
	struct loop L2 = { .mode = 2, .next_part = next_part, .pi = pi, .user = &ps };
	int rc = open_part(c, &L2, 0);
	if (!rc)
		rc = run_loop(c, &L2);
	if (!rc)
		rc = close_part(c, &L2);
	else if (ps.open) {
		sink_free(&ps.sk);
		pt_out_abort(&ps.out);
	}
	if (!rc)
		rc = write_manifest(c, &ps, pi, nparts, e);
	if (!rc)
		rc = stage_commit(&ps);
	else
		stage_abort(&ps, 0);
	stage_free(&ps);
	st->parts = nparts;
	st->dropped_flows = c->dropped;
	for (size_t k = 0; k < nparts; k++) {
		st->events += pi[k].events;
		if (pi[k].events > st->max_part_events)
			st->max_part_events = pi[k].events;
		free(pi[k].file);
	}
	st->flows = 0;
	for (size_t f = 0; f < c->flows.n; f++)
		st->flows += !c->flow_drop[f];
	free(pi);
	free(ps.stem);
	pt_chrome_planner_free(pl);
	c->cuts = NULL;
	return rc;
}

int pt_chrome_write(const struct pt_model *m, struct pt_index *x, const struct pt_tl *tl,
		    const struct pt_chrome_opts *o, const char *path, struct pt_diag *diag,
		    struct pt_chrome_stats *st, struct pt_err **e)
{
	struct ctx c;
	memset(&c, 0, sizeof(c));
	memset(st, 0, sizeof(*st));
	c.m = m;
	c.x = x;
	c.tl = tl;
	c.o = o;
	size_t nd = m->devices.n ? m->devices.n : 1;
	c.dev_off = pt_xcalloc(nd, sizeof(*c.dev_off));
	c.dev_ok = pt_xcalloc(nd, 1);
	c.dev_pid = pt_xcalloc(nd, sizeof(*c.dev_pid));
	c.dev_ovpid = pt_xcalloc(nd, sizeof(*c.dev_ovpid));
	c.dev_rank = pt_xcalloc(nd, sizeof(*c.dev_rank));
	for (size_t d = 0; d < m->devices.n; d++) {
		const struct pt_device *dv = &m->devices.v[d];
		c.dev_rank[d] = device_rank(dv);
	}
	for (int k = 0; k < NM_N; k++) {
		size_t ns = m->strings.n ? m->strings.n : 1;
		c.names[k] = pt_xmalloc(ns * sizeof(struct frag));
		for (size_t i = 0; i < ns; i++)
			c.names[k][i].len = UINT32_MAX;
	}
	c.has_corr = m->events.dense & PT_EVCOL_CORR;
	c.kineto = o->profile == PT_CHROME_KINETO;
	c.step_first = pt_xcalloc(nd, sizeof(*c.step_first));
	c.step_last = pt_xcalloc(nd, sizeof(*c.step_last));
	if (c.kineto) {
		for (size_t i = 0; i < m->events.n && !c.host_steps; i++)
			c.host_steps = (tl->ev_keep[i] & 3) == 3;
		if (m->copies.n) {
			c.copy_of = pt_xcalloc(m->events.n ? m->events.n : 1, sizeof(*c.copy_of));
			for (size_t k = 0; k < m->copies.n; k++)
				if (m->copies.v[k].event < m->events.n)
					c.copy_of[m->copies.v[k].event] = (uint32_t)k + 1;
		}
		if (m->kernels.n) {
			c.kconf_of = pt_xcalloc(m->events.n ? m->events.n : 1, sizeof(*c.kconf_of));
			for (size_t k = 0; k < m->kernels.n; k++)
				if (m->kernels.v[k].event < m->events.n && m->kernels.v[k].config < m->kernel_configs.n)
					c.kconf_of[m->kernels.v[k].event] = m->kernels.v[k].config + 1;
		}
	}
	c.nflags = pt_xcalloc(m->strings.n ? m->strings.n : 1, 1);
	c.opargs = pt_xmalloc((m->ops.n ? m->ops.n : 1) * sizeof(struct frag));
	for (size_t i = 0; i < m->ops.n; i++)
		c.opargs[i].len = UINT32_MAX;
	choose_clock(&c, diag);
	build_layout(&c);
	build_counters(&c);
	__int128 lo, hi;
	time_range(&c, &lo, &hi);
	if (lo > hi)
		lo = hi = 0;
	int rc = 0;
	if (lo < INT64_MIN + 1000 || hi > INT64_MAX) {
		/* only a model whose clock offsets break the model's time range (2^62 ns) */
		rc = pt_err(e, "event times leave the int64 ns range in clock '%s' (clock offsets out of range)",
			    c.clock);
		goto out;
	}
	c.base = lo >= 0 ? (int64_t)lo / 1000 * 1000 : -((-(int64_t)lo + 999) / 1000 * 1000);
	if (hi - c.base >= MAX_REL) {
		rc = pt_err(e, "trace spans %llu ns, more than 2^53 ns: cannot write microseconds exactly",
			    (unsigned long long)(hi - c.base));
		goto out;
	}
	build_flows(&c);
	build_sources(&c);
	/* step boundaries (rel) for the part planner: starts of the Steps slices after the first */
	{
		PT_VEC(struct pt_ival) b = { 0 };
		for (size_t r = 0; r < c.rows.n; r++) {
			const struct row *rw = &c.rows.v[r];
			if (rw->type != R_SLICE || rw->slkind != SL_STEPS)
				continue;
			for (size_t k = 0; k < rw->n; k++) {
				struct pt_ival iv = { rw->sl[rw->idx[k]].start + rw->off - c.base, rw->sl[rw->idx[k]].step };
				pt_vec_push(&b, iv);
			}
		}
		pt_ival_sort(b.v, b.n);
		for (size_t i = 0; i < b.n; i++) {
			if (c.bounds.n && c.bounds.v[c.bounds.n - 1] == b.v[i].s)
				continue;
			pt_vec_push(&c.bounds, b.v[i].s);
			pt_vec_push(&c.bound_step, (uint32_t)b.v[i].e);
		}
		pt_vec_free(&b);
	}
	st->base_ns = c.base;
	st->unaligned_events = c.unaligned;
	st->overflow_events = c.overflow;
	c.limit = o->part_limit;
	/* standard output, a device or a pipe cannot split: measure first */
	bool to_stdout = pt_out_is_stream(path);
	if (to_stdout && c.limit) {
		struct sink cnt;
		sink_init(&cnt, NULL, false, 0, 1);
		struct hdr h = { 1, 1, 0 };
		emit_header(&c, &cnt, &h);
		struct part_info pi = { 0 };
		struct loop L = { .mode = 0, .sk = &cnt, .pi = &pi };
		run_loop(&c, &L);
		emit_footer(&c, &cnt);
		uint64_t total = sink_pos(&cnt);
		sink_free(&cnt);
		if (total > c.limit) {
			if (!strcmp(path, "-"))
				rc = pt_err(e, "trace of %llu bytes exceeds the %llu MiB part limit; write parts with -o FILE or pass --split-mb 0",
					    (unsigned long long)total, (unsigned long long)(c.limit >> 20));
			else
				rc = pt_err(e, "trace of %llu bytes exceeds the %llu MiB part limit, and '%s' is not a regular file that parts could go beside; pass --split-mb 0",
					    (unsigned long long)total, (unsigned long long)(c.limit >> 20), path);
			goto out;
		}
	}
	{
		struct pt_out out;
		if (pt_out_open(&out, path, e)) {
			rc = -1;
			goto out;
		}
		struct sink sk;
		sink_init(&sk, &out, o->gzip, o->gzip_level, o->gzip_threads);
		struct hdr h = { 1, 1, 0 };
		emit_header(&c, &sk, &h);
		struct part_info pi = { 0 };
		struct loop L = { .mode = 0, .sk = &sk, .pi = &pi };
		c.abort_over = c.limit && !to_stdout;
		int over = run_loop(&c, &L);
		if (over) {
			/* larger than one part: start again in parts */
			sink_free(&sk);
			pt_out_abort(&out);
			c.abort_over = false;
			rc = write_parts(&c, path, st, e);
			goto out;
		}
		emit_footer(&c, &sk);
		sink_finish(&sk);
		st->bytes = sk.total;
		bool zerr = sk.zerr;
		sink_free(&sk);
		if (zerr) {
			pt_out_abort(&out);
			rc = pt_err(e, "cannot compress '%s'", path);
			goto out;
		}
		rc = pt_out_commit(&out, e);
		st->parts = 1;
		st->events = pi.events;
		st->max_part_events = pi.events;
		st->flows = c.flows.n;
	}
out:
	ctx_free(&c);
	return rc;
}
