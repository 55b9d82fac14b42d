#include "export/export-chrome-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/jsonw.h"
#include "support/err.h"
#include "support/fmt.h"
#include "support/out.h"
#include "support/pdeflate.h"
#include "support/progress.h"
#include "support/xalloc.h"

/* ------------------------------------------------------------------ numbers */

static inline char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
#define PUTL(p, lit) put((p), (lit), sizeof(lit) - 1)

/* put() for the short texts of every event (keys, names): overlapping fixed-size copies, no call */
static inline char *put_short(char *p, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n > 16 && n <= 32) {
		memcpy(p, s, 16);
		memcpy(p + n - 16, s + n - 16, 16);
	} else if (n >= 4 && n < 8) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			p[i] = s[i];
	} else {
		memcpy(p, s, n);
	}
	return p + n;
}

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

/*
 * put_us for an event's ts: consecutive events nearly always start in the
 * same 100 microseconds, whose digits are then copied from the last ts
 * instead of made again; the last two digits of the microseconds come from
 * the pair table.
 */
static inline char *put_ts(struct wctx *c, char *p, int64_t rel)
{
	uint64_t v = (uint64_t)rel, q = v / 1000, h = q / 100;
	unsigned f = (unsigned)(v - q * 1000);
	size_t n;
	if (!h) {
		n = pt_fmt_u64(p, q);
	} else {
		if (h == c->ts_h) {
			n = c->ts_n;
			memcpy(p, &c->ts_txt, 8);
		} else {
			n = pt_fmt_u64(p, h);
			c->ts_h = n <= 8 ? h : 0;
			c->ts_n = n;
			memcpy(&c->ts_txt, p, 8);
		}
		memcpy(p + n, pt_fmt_digits2 + 2 * (q - h * 100), 2);
		n += 2;
	}
	p[n] = '.';
	p[n + 1] = (char)('0' + f / 100);
	memcpy(p + n + 2, pt_fmt_digits2 + 2 * (f % 100), 2);
	return p + n + 4;
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

/* C for S + C == T other than D (S + D != T, dur > 0). */
static double dur_adjust(double S, double D, double T)
{
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

static inline char *put_dur(char *p, int64_t rel, int64_t dur)
{
	double S = (double)rel / 1000.0, D = (double)dur / 1000.0, T = end_target((double)(rel + dur) / 1000.0);
	if (S + D == T || !dur) /* a zero dur ends at ts: after a parent ending there, before or on the next start */
		return put_us(p, dur);
	double C = dur_adjust(S, D, T);
	if (C == D)
		return put_us(p, dur);
	return p + pt_fmt_dbl17(p, C);
}

size_t pt_chrome_fmt_dur(char *out, int64_t rel, int64_t dur)
{
	return (size_t)(put_dur(out, rel, dur) - out);
}

/* ------------------------------------------------------------------ sink */

#define SINK_CAP (1u << 20)

/* Compressed bytes go to the output (whose first write error pt_out_commit reports), counted. */
static int sink_out(void *ctx, const void *p, size_t n)
{
	struct sink *s = ctx;
	pt_out_write(s->o, p, n);
	s->zbytes += n;
	return 0;
}

void sink_init(struct sink *s, struct pt_out *o, bool gz, int level, int threads)
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

void sink_flush(struct sink *s)
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

void sink_finish(struct sink *s)
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

void sink_free(struct sink *s)
{
	pt_pdeflate_abort(s->pz); /* a sink given up before sink_finish */
	s->pz = NULL;
	free(s->buf);
}

void sink_grow(struct sink *s, size_t n)
{
	s->cap = n;
	s->buf = pt_xrealloc(s->buf, s->cap);
}

void sink_write(struct sink *s, const void *p, size_t n)
{
	char *d = sink_reserve(s, n);
	memcpy(d, p, n);
	s->len += n;
}

void sink_puts(struct sink *s, const char *str)
{
	sink_write(s, str, strlen(str));
}

void sink_i64(struct sink *s, int64_t v)
{
	char *d = sink_reserve(s, 24);
	s->len += (size_t)(put_i64(d, v) - d);
}

/* ------------------------------------------------------------------ strings */

/* Append s as a JSON string literal (quotes included). */
static void arena_jstr(struct arena *a, const char *str, size_t n)
{
	pt_xgrow((void **)&a->v, &a->cap, a->n + 6 * n + 2, 1);
	a->n += pt_jsonw_quote(a->v + a->n, str, n, true);
}

void sink_jstr(struct sink *s, struct arena *tmp, const char *str, size_t n)
{
	tmp->n = 0;
	arena_jstr(tmp, str, n);
	sink_write(s, tmp->v, tmp->n);
}

/* The JSON text of a keyed string, made on first use. */
static inline const struct frag *cached(struct wctx *c, struct pt_trace_str s)
{
	struct frag *f = &c->cache[s.key - 1];
	if (!f->len1) {
		f->off = c->arena.n;
		arena_jstr(&c->arena, s.s, s.n);
		f->len1 = (uint32_t)(c->arena.n - f->off) + 1;
	}
	return f;
}

/* Room for the JSON text of s (making a keyed one now). */
static inline size_t str_room(struct wctx *c, struct pt_trace_str s)
{
	if (s.key == PT_TRACE_PLAIN)
		return (size_t)s.n + 2;
	return s.key ? cached(c, s)->len1 : 6 * (size_t)s.n + 2;
}

static inline __attribute__((always_inline)) char *put_str(const struct wctx *c, char *p, struct pt_trace_str s)
{
	if (s.key == PT_TRACE_PLAIN) {
		*p++ = '"';
		p = put_short(p, s.s, s.n);
		*p++ = '"';
		return p;
	}
	if (s.key) {
		const struct frag *f = &c->cache[s.key - 1];
		return put_short(p, c->arena.v + f->off, f->len1 - 1);
	}
	return p + pt_jsonw_quote(p, s.s, s.n, true);
}

/* ------------------------------------------------------------------ events */

static void sep(struct wctx *c, struct sink *s)
{
	if (c->first_event) {
		c->first_event = false;
		return;
	}
	sink_write(s, ",\n", 2);
}

static inline char *put_sep(struct wctx *c, char *p)
{
	if (c->first_event) {
		c->first_event = false;
		return p;
	}
	p[0] = ',';
	p[1] = '\n';
	return p + 2;
}

/* A number argument: an integer when it is one, else six decimals without trailing zeros. */
static char *put_num(char *p, double v)
{
	if (v == (double)(int64_t)v && fabs(v) < 9e15)
		return put_i64(p, (int64_t)v);
	char b[400];
	int n = snprintf(b, sizeof(b), "%.6f", v);
	if (n < 1 || n >= (int)sizeof(b))
		return PUTL(p, "0");
	while (n > 1 && b[n - 1] == '0')
		n--;
	if (b[n - 1] == '.')
		n--;
	return put(p, b, (size_t)n);
}

/* A number with exactly 6 decimals (a non-finite one, never made, as 0) */
static char *put_f6(char *p, double v)
{
	char b[400];
	int n = isfinite(v) ? snprintf(b, sizeof(b), "%.6f", v) : 0;
	if (n < 1 || n >= (int)sizeof(b))
		return PUTL(p, "0");
	return put(p, b, (size_t)n);
}

/* Room for one argument: ',', the key (quoted, maybe escaped), ':', the value (an integer or three: 72 bytes at most) */
static inline size_t arg_room(struct wctx *c, const struct pt_trace_arg *a)
{
	size_t n = 8 + 72 + (a->kesc ? 6 * (size_t)a->k.n : PT_TRACE_KEY_ROOM);
	if (a->type == PT_TA_STR)
		n += str_room(c, a->v.s);
	else if (a->type == PT_TA_NUM || a->type == PT_TA_F6)
		n += 400;
	return n;
}

static inline __attribute__((always_inline)) char *put_arg(const struct wctx *c, char *p, const struct pt_trace_arg *a,
								 bool comma)
{
	if (comma)
		*p++ = ',';
	if (a->kesc) {
		p += pt_jsonw_quote(p, a->k.s, a->k.n, true);
	} else {
		*p++ = '"';
		memcpy(p, a->k.s, PT_TRACE_KEY_ROOM); /* the key's storage has that much (table/trace.h) */
		p += a->k.n;
		*p++ = '"';
	}
	*p++ = ':';
	switch (a->type) {
	case PT_TA_I64:
		return put_i64(p, a->v.i);
	case PT_TA_U64:
		return put_u64(p, a->v.u);
	case PT_TA_STR:
		return put_str(c, p, a->v.s);
	case PT_TA_NUM:
		return put_num(p, a->v.d);
	case PT_TA_F6:
		return put_f6(p, a->v.d);
	default:
		*p++ = '[';
		for (int d = 0; d < 3; d++) {
			p = put_i64(p, a->v.v3[d]);
			*p++ = d < 2 ? ',' : ']';
		}
		return p;
	}
}

/* p, or the start of the sink's buffer after a flush when fewer than n bytes are left after p */
static inline char *sink_room_at(struct sink *sk, char *p, size_t n)
{
	if ((size_t)(sk->buf + sk->cap - p) >= n)
		return p;
	sk->len = (size_t)(p - sk->buf);
	sink_flush(sk);
	if (n > sk->cap)
		sink_grow(sk, n);
	return sk->buf;
}

/*
 * The arguments, room made as they go (the sink may flush between two of
 * them, 8 bytes kept for the closing braces); a group's text is made once,
 * from its first event. An integer with a plain key (',' '"' key '"' ':' and
 * 20 digits and a sign) needs at most INT_ARG_ROOM bytes: the event's room
 * covers them all (INT_ARGS_ROOM) from the start and after every check for a
 * longer argument, so they need no check of their own.
 */
#define INT_ARG_ROOM (8 + PT_TRACE_KEY_ROOM + 24 + 8)
#define INT_ARGS_ROOM (PT_TRACE_MAX_ARGS * INT_ARG_ROOM)
/* A group of arguments (key, n of them at a, or none when the group was given before): its text, made once. */
static inline __attribute__((always_inline)) char *put_group(struct wctx *c, struct sink *sk, char *p, uint32_t key,
								 const struct pt_trace_arg *a, size_t n,
		       bool *comma)
{
	struct frag *f = &c->cache[key - 1];
	if (n && !f->len1) {
		size_t room = 0;
		for (size_t j = 0; j < n; j++)
			room += arg_room(c, &a[j]);
		pt_xgrow((void **)&c->arena.v, &c->arena.cap, c->arena.n + room, 1);
		char *q = c->arena.v + c->arena.n;
		for (size_t j = 0; j < n; j++)
			q = put_arg(c, q, &a[j], j > 0);
		f->off = c->arena.n;
		f->len1 = (uint32_t)(q - (c->arena.v + c->arena.n)) + 1;
		c->arena.n += f->len1 - 1;
	}
	if (f->len1 > 1) {
		p = sink_room_at(sk, p, f->len1 + 9 + INT_ARGS_ROOM);
		if (*comma)
			*p++ = ',';
		p = put_short(p, c->arena.v + f->off, f->len1 - 1);
		*comma = true;
	}
	return p;
}

static inline __attribute__((always_inline)) char *put_args(struct wctx *c, struct sink *sk, char *p,
								    const struct pt_trace_ev *ev)
{
	size_t k = 0;
	bool comma = false;
	if (ev->gkey) {
		p = put_group(c, sk, p, ev->gkey, ev->a, ev->gn, &comma);
		k = ev->gn;
	}
	for (int part = 0; part < 2; part++) {
		size_t end = part || !ev->rkey ? ev->nargs : ev->rat;
		for (; k < end; k++) {
			const struct pt_trace_arg *a = &ev->a[k];
			if (a->type > PT_TA_U64 || a->kesc)
				p = sink_room_at(sk, p, arg_room(c, a) + 8 + INT_ARGS_ROOM);
			p = put_arg(c, p, a, comma);
			comma = true;
		}
		if (part || !ev->rkey)
			break;
		p = put_group(c, sk, p, ev->rkey, ev->a + k, ev->rn, &comma);
		k += ev->rn;
	}
	return p;
}

/* {"ph":"X","cat":C,"name":N,"pid":P,"tid":T,"ts":TS,"dur":D[,"args":{..}]} */
static void emit_x(struct wctx *c, struct sink *sk, const struct pt_trace_ev *ev)
{
	const struct rowpfx *rp = &c->rows[ev->row];
	size_t need = sizeof(c->heads->s) + 2 + str_room(c, ev->name) + sizeof(rp->s) + 128 + INT_ARGS_ROOM;
	char *p0 = sink_reserve(sk, need), *p = put_sep(c, p0);
	const struct xhead *h = &c->heads[ev->cat];
	memcpy(p, h->s, sizeof(h->s)); /* need covers the padding */
	p += h->n;
	p = put_str(c, p, ev->name);
	memcpy(p, rp->s, sizeof(rp->s));
	p += rp->n;
	p = put_ts(c, p, ev->ts);
	p = PUTL(p, ",\"dur\":");
	p = put_dur(p, ev->ts, ev->dur);
	if (ev->nargs || ev->gkey || ev->rkey) {
		p = PUTL(p, ",\"args\":{");
		p = put_args(c, sk, p, ev);
		*p++ = '}';
	}
	*p++ = '}';
	sk->len = (size_t)(p - sk->buf);
}

/* {"ph":"C","name":N,"pid":P,"tid":T,"ts":TS,"args":{..}}; a sample that is not a number is left out */
static void emit_counter(struct wctx *c, struct sink *sk, const struct pt_trace_ev *ev)
{
	for (size_t k = 0; k < ev->nargs; k++)
		if (ev->a[k].type == PT_TA_NUM && !isfinite(ev->a[k].v.d))
			return;
	const struct pt_trace_counter *q = &c->t->counters[ev->row];
	size_t need = 2 + 64 + str_room(c, ev->name) + 128 + INT_ARGS_ROOM;
	char *p0 = sink_reserve(sk, need), *p = put_sep(c, p0);
	p = PUTL(p, "{\"ph\":\"C\",\"name\":");
	p = put_str(c, p, ev->name);
	p = PUTL(p, ",\"pid\":");
	p = put_u64(p, q->pid);
	p = PUTL(p, ",\"tid\":");
	p = put_u64(p, q->tid);
	p = PUTL(p, ",\"ts\":");
	p = put_ts(c, p, ev->ts);
	if (ev->nargs || ev->gkey || ev->rkey) {
		p = PUTL(p, ",\"args\":{");
		p = put_args(c, sk, p, ev);
		*p++ = '}';
	}
	*p++ = '}';
	sk->len = (size_t)(p - sk->buf);
}

/* viewer: {"ph":"s","id":I,"cat":C,"name":N,"pid":P,"tid":T,"ts":TS}; kineto: ph, id, pid, tid, ts, cat, name; f: ,"bp":"e" */
static void emit_flow(struct wctx *c, struct sink *sk, const struct pt_trace_ev *ev)
{
	const struct rowpfx *rp = &c->rows[ev->row];
	const char *cat = c->t->cats[ev->cat];
	size_t cl = c->catlen[ev->cat];
	/* room for the row prefix copied whole (its padding included) and short copies of the rest */
	char *p0 = sink_reserve(sk, 160 + sizeof(rp->s) + cl + str_room(c, ev->name)), *p = put_sep(c, p0);
	p = ev->ph == PT_PH_S ? PUTL(p, "{\"ph\":\"s\",\"id\":") : PUTL(p, "{\"ph\":\"f\",\"id\":");
	p = put_u64(p, (uint64_t)ev->flow + 1);
	if (c->kineto) {
		memcpy(p, rp->s, sizeof(rp->s));
		p += rp->n;
		p = put_ts(c, p, ev->ts);
	}
	p = PUTL(p, ",\"cat\":\"");
	p = put_short(p, cat, cl);
	p = PUTL(p, "\",\"name\":");
	p = put_str(c, p, ev->name);
	if (!c->kineto) {
		memcpy(p, rp->s, sizeof(rp->s));
		p += rp->n;
		p = put_ts(c, p, ev->ts);
	}
	if (ev->ph == PT_PH_F)
		p = PUTL(p, ",\"bp\":\"e\"");
	*p++ = '}';
	sk->len += (size_t)(p - p0);
}

/* ------------------------------------------------------------------ header and metadata */

/* The name and sort index of every row, the same in both profiles. */
static void emit_thread_meta(struct wctx *c, struct sink *sk)
{
	char b[160];
	for (size_t i = 0; i < c->t->nrows; i++) {
		const struct pt_trace_row *r = &c->t->rows[i];
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

/* Kineto's metadata events (cupti.md §7.5). */
static void emit_meta_kineto(struct wctx *c, struct sink *sk)
{
	char b[200];
	for (size_t p = 0; p < c->t->nprocs; p++) {
		const struct pt_trace_proc *pr = &c->t->procs[p];
		if (!pr->shown)
			continue;
		sep(c, sk);
		int n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":",
				 pr->pid);
		sink_write(sk, b, (size_t)n);
		sink_jstr(sk, &c->tmp, pr->name, strlen(pr->name));
		sink_puts(sk, "}}");
		sep(c, sk);
		n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":%u,\"tid\":0,\"args\":{\"labels\":",
			     pr->pid);
		sink_write(sk, b, (size_t)n);
		const char *lb = pr->labels ? pr->labels : pr->device ? pr->name : "CPU";
		sink_jstr(sk, &c->tmp, lb, strlen(lb));
		sink_puts(sk, "}}");
		sep(c, sk);
		n = snprintf(b, sizeof(b),
			     "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%u}}",
			     pr->pid, pr->sort_index);
		sink_write(sk, b, (size_t)n);
	}
	emit_thread_meta(c, sk);
}

static void emit_meta(struct wctx *c, struct sink *sk)
{
	char b[160];
	if (c->kineto) {
		emit_meta_kineto(c, sk);
		return;
	}
	for (size_t p = 0; p < c->t->nprocs; p++) {
		const struct pt_trace_proc *pr = &c->t->procs[p];
		if (!pr->shown)
			continue;
		sep(c, sk);
		int n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":", pr->pid);
		sink_write(sk, b, (size_t)n);
		sink_jstr(sk, &c->tmp, pr->name, strlen(pr->name));
		sink_puts(sk, "}}");
		sep(c, sk);
		if (pr->labels) { /* the host name of a host process (chrome-trace.md §5.2) */
			n = snprintf(b, sizeof(b), "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":%u,\"args\":{\"labels\":",
				     pr->pid);
			sink_write(sk, b, (size_t)n);
			sink_jstr(sk, &c->tmp, pr->labels, strlen(pr->labels));
			sink_puts(sk, "}}");
			sep(c, sk);
		}
		n = snprintf(b, sizeof(b),
			     "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"args\":{\"sort_index\":%u}}", pr->pid,
			     pr->sort_index);
		sink_write(sk, b, (size_t)n);
	}
	emit_thread_meta(c, sk);
	/* counter-only processes get a named row too */
	for (size_t i = 0; i < c->t->ncounters; i++) {
		const struct pt_trace_counter *q = &c->t->counters[i];
		if (!q->own_row)
			continue;
		sep(c, sk);
		int n = snprintf(b, sizeof(b),
				 "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"Counters\"}}",
				 q->pid, q->tid);
		sink_write(sk, b, (size_t)n);
	}
}

/* The device entries of "deviceProperties" (the keys known for the device: id, name, then the pass's). */
static void emit_device_props(struct wctx *c, struct sink *sk)
{
	for (size_t d = 0; d < c->t->ndevprops; d++) {
		const struct pt_trace_devprop *dp = &c->t->devprops[d];
		sink_puts(sk, d ? ", " : "\"deviceProperties\": [");
		sink_puts(sk, "{\"id\": ");
		sink_i64(sk, dp->id);
		if (dp->name) {
			sink_puts(sk, ", \"name\": ");
			sink_jstr(sk, &c->tmp, dp->name, strlen(dp->name));
		}
		for (uint32_t k = 0; k < dp->nkeys; k++) {
			sink_puts(sk, ", \"");
			sink_puts(sk, dp->key[k]); /* fixed ASCII */
			sink_puts(sk, "\": ");
			char b[24];
			int n = snprintf(b, sizeof(b), "%llu", (unsigned long long)dp->v[k]);
			sink_write(sk, b, (size_t)n);
		}
		sink_puts(sk, "}");
	}
	if (c->t->ndevprops)
		sink_puts(sk, "],\n");
}

/* distributedInfo (chrome-trace.md §11): "backend" when known, "rank": <n> with one space (HTA's regex), "world_size"
 * when known. */
static void emit_dist_info(struct wctx *c, struct sink *sk, uint32_t rank)
{
	const struct pt_trace *t = c->t;
	sink_puts(sk, "\"distributedInfo\": {");
	if (t->backend) {
		sink_puts(sk, "\"backend\": ");
		sink_jstr(sk, &c->tmp, t->backend, strlen(t->backend));
		sink_puts(sk, ", ");
	}
	sink_puts(sk, "\"rank\": ");
	sink_i64(sk, rank);
	if (t->world_size > 0) {
		sink_puts(sk, ", \"world_size\": ");
		sink_i64(sk, t->world_size);
	}
	sink_puts(sk, "},\n");
}

/*
 * The kineto file of one rank (chrome-trace.md §11): its keys in Kineto's
 * order, each on its own line; "rank": <n> with one space, before
 * traceEvents, so that HTA's line scan finds it first.
 */
static void emit_header_kineto(struct wctx *c, struct sink *sk)
{
	const struct pt_trace *t = c->t;
	sink_puts(sk, "{\"schemaVersion\": 1,\n");
	emit_device_props(c, sk);
	emit_dist_info(c, sk, t->rank);
	sink_puts(sk, "\"baseTimeNanoseconds\": ");
	sink_i64(sk, t->base_ns);
	sink_puts(sk, ",\n\"proftool\": {\"version\": \"" PT_VERSION "\", \"profile\": \"kineto\", \"clock\": ");
	sink_jstr(sk, &c->tmp, t->clock, strlen(t->clock));
	sink_puts(sk, ", \"base_ns\": ");
	sink_i64(sk, t->base_ns);
	sink_puts(sk, ", \"overflow_events\": ");
	sink_i64(sk, (int64_t)t->overflow_events);
	sink_puts(sk, ", \"unaligned_events\": ");
	sink_i64(sk, (int64_t)t->unaligned_events);
	sink_puts(sk, "},\n\"traceEvents\": [\n");
	c->first_event = true;
	emit_meta(c, sk);
}

void emit_header(struct wctx *c, struct sink *sk, const struct hdr *h)
{
	const struct pt_trace *t = c->t;
	if (c->kineto) {
		emit_header_kineto(c, sk);
		return;
	}
	sink_puts(sk, "{\"schemaVersion\": 1,\n");
	if (t->nranks == 1) {
		emit_device_props(c, sk);
		emit_dist_info(c, sk, t->ranks[0].rank);
	}
	sink_puts(sk, "\"proftool\": {\"version\": \"" PT_VERSION "\", \"profile\": \"viewer\", \"clock\": ");
	sink_jstr(sk, &c->tmp, t->clock, strlen(t->clock));
	sink_puts(sk, ", \"base_ns\": ");
	sink_i64(sk, t->base_ns);
	sink_puts(sk, ", \"ranks\": [");
	for (size_t i = 0; i < t->nranks; i++) {
		sink_puts(sk, i ? ", {\"rank\": " : "{\"rank\": ");
		sink_i64(sk, t->ranks[i].rank);
		sink_puts(sk, ", \"host\": null, \"os_pid\": null, \"offset_ns\": ");
		sink_i64(sk, t->ranks[i].offset_ns);
		sink_puts(sk, "}");
	}
	sink_puts(sk, "], \"part\": ");
	sink_i64(sk, (int64_t)h->part);
	sink_puts(sk, ", \"parts\": ");
	sink_i64(sk, (int64_t)h->parts);
	sink_puts(sk, ", \"overflow_events\": ");
	sink_i64(sk, (int64_t)t->overflow_events);
	sink_puts(sk, ", \"dropped_flows\": ");
	sink_i64(sk, (int64_t)h->dropped);
	sink_puts(sk, ", \"scope_skipped\": ");
	sink_i64(sk, (int64_t)t->scope_skipped);
	sink_puts(sk, ", \"unaligned_events\": ");
	sink_i64(sk, (int64_t)t->unaligned_events);
	sink_puts(sk, ", \"unanchored_samples\": ");
	sink_i64(sk, (int64_t)t->unanchored_samples);
	sink_puts(sk, "},\n\"baseTimeNanoseconds\": ");
	sink_i64(sk, t->base_ns);
	sink_puts(sk, ",\n\"traceEvents\": [\n");
	c->first_event = true;
	emit_meta(c, sk);
}

void emit_footer(struct wctx *c, struct sink *sk)
{
	sink_puts(sk, c->kineto ? "\n],\n\"displayTimeUnit\": \"ms\",\n\"traceName\": " : "\n],\n\"traceName\": ");
	const char *tn = c->o->trace_name ? c->o->trace_name : "";
	sink_jstr(sk, &c->tmp, tn, strlen(tn));
	sink_puts(sk, "}\n");
}

uint32_t unit_of(const struct wctx *c, int64_t ts)
{
	size_t lo = 0, hi = c->t->nbounds;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->t->bounds[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* ------------------------------------------------------------------ the loop */

static bool flow_dropped(const struct wctx *c, uint32_t fi)
{
	return c->flow_drop && c->flow_drop[fi];
}

static void carry_counters(struct wctx *c, struct sink *sk, int64_t ts)
{
	/* each counter group resumes with its last value before the part */
	struct pt_trace_ev ev;
	for (size_t i = 0; i < c->t->ncounters; i++)
		if (c->t->counter_last(c->t, (uint32_t)i, ts, &ev))
			emit_counter(c, sk, &ev);
}

/* run_loop's mode 0, the usual one (the whole trace into one sink): its counts kept in locals */
static int run_loop_single(struct wctx *c, struct loop *L)
{
	struct pt_trace *t = c->t;
	struct sink *sk = L->sk;
	struct pt_trace_ev ev;
	uint64_t ord = 0, events = 0, limit = c->abort_over ? c->limit : UINT64_MAX;
	int rc = 0;
	t->rewind(t);
	while (t->next(t, &ev)) {
		if (!(ord & 0xffff))
			pt_progress_tick("writing the trace (events)", ord, 0);
		switch (ev.ph) {
		case PT_PH_X:
			emit_x(c, sk, &ev);
			events++;
			break;
		case PT_PH_C:
			emit_counter(c, sk, &ev);
			events++;
			break;
		default:
			if (c->record_flow_ord)
				c->flow_ord[2 * ev.flow + (ev.ph == PT_PH_F)] = ord;
			if (!flow_dropped(c, ev.flow)) {
				emit_flow(c, sk, &ev);
				events++;
			}
		}
		ord++;
		if (sink_pos(sk) > limit) {
			rc = 1;
			break;
		}
	}
	c->ord = ord;
	L->pi[0].events += events;
	if (t->failed && t->failed(t, c->err))
		return -1;
	return rc;
}

int run_loop(struct wctx *c, struct loop *L)
{
	struct pt_trace *t = c->t;
	struct pt_trace_ev ev;
	if (L->mode == 0)
		return run_loop_single(c, L);
	t->rewind(t);
	c->ord = 0;
	size_t cut = 0;
	while (t->next(t, &ev)) {
		pt_progress_tick("writing the trace (events)", c->ord, 0);
		int64_t ts = ev.ts;
		uint64_t before = sink_pos(L->sk);
		if (L->mode == 2 && cut < c->ncuts && c->ord == c->cuts[cut]) {
			cut++;
			if (L->next_part(c, L, ts))
				return -1;
			carry_counters(c, L->sk, ts);
			before = sink_pos(L->sk);
		}
		bool wrote = true;
		switch (ev.ph) {
		case PT_PH_X:
			emit_x(c, L->sk, &ev);
			break;
		case PT_PH_C:
			emit_counter(c, L->sk, &ev);
			break;
		default:
			if (c->record_flow_ord)
				c->flow_ord[2 * ev.flow + (ev.ph == PT_PH_F)] = c->ord;
			if (flow_dropped(c, ev.flow)) {
				wrote = false;
				break;
			}
			emit_flow(c, L->sk, &ev);
		}
		uint64_t bytes = sink_pos(L->sk) - before;
		if (L->mode == 1)
			pt_chrome_planner_event(L->pl, unit_of(c, ts), bytes);
		if (L->mode == 2 && wrote) {
			struct part_info *p = &L->pi[L->part];
			if (!p->events || ts < p->first_ts)
				p->first_ts = ts;
			int64_t end = ts + (ev.ph == PT_PH_X ? ev.dur : 0);
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
	}
	if (t->failed && t->failed(t, c->err))
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ driver */

static void wctx_init(struct wctx *c, struct pt_trace *t, const struct pt_chrome_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->o = o;
	c->kineto = t->profile == PT_TRACE_KINETO;
	c->cache = pt_xcalloc(t->nkeys ? t->nkeys : 1, sizeof(*c->cache));
	c->heads = pt_xcalloc(t->ncats ? t->ncats : 1, sizeof(*c->heads));
	c->catlen = pt_xcalloc(t->ncats ? t->ncats : 1, sizeof(*c->catlen));
	for (size_t k = 0; k < t->ncats; k++) {
		c->catlen[k] = strlen(t->cats[k]);
		int n = snprintf(c->heads[k].s, sizeof(c->heads[k].s), "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", t->cats[k]);
		c->heads[k].n = (uint8_t)(n > 0 && n < (int)sizeof(c->heads[k].s) ? n : 0);
	}
	c->rows = pt_xcalloc(t->nrows ? t->nrows : 1, sizeof(*c->rows));
	for (size_t i = 0; i < t->nrows; i++) {
		int n = snprintf(c->rows[i].s, sizeof(c->rows[i].s), ",\"pid\":%u,\"tid\":%u,\"ts\":", t->rows[i].pid,
				 t->rows[i].tid);
		c->rows[i].n = (uint8_t)n;
	}
}

static void wctx_free(struct wctx *c)
{
	free(c->arena.v);
	free(c->tmp.v);
	free(c->cache);
	free(c->heads);
	free(c->catlen);
	free(c->rows);
	free(c->flow_ord);
	free(c->flow_drop);
}

int pt_chrome_write(struct pt_trace *t, const struct pt_chrome_opts *o, const char *path, struct pt_chrome_stats *st,
		    struct pt_err **e)
{
	struct wctx c;
	wctx_init(&c, t, o);
	c.err = e;
	memset(st, 0, sizeof(*st));
	int rc = 0;
	st->base_ns = t->base_ns;
	st->unaligned_events = t->unaligned_events;
	st->overflow_events = t->overflow_events;
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
		if (run_loop(&c, &L) < 0) {
			sink_free(&cnt);
			rc = -1;
			goto out;
		}
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
		if (over < 0) {
			sink_free(&sk);
			pt_out_abort(&out);
			rc = -1;
			goto out;
		}
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
		st->flows = t->nflows;
	}
out:
	wctx_free(&c);
	return rc;
}
