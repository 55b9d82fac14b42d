/* Writing the .ptm model file, streamed chunk by chunk (see ptm.h). */
#include "model/ptm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/model.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/out.h"
#include "support/pdeflate.h"
#include "support/xalloc.h"

struct writer {
	struct pt_out *o;
	struct pt_pdeflate *pz; /* NULL: uncompressed; else the part of the body being written */
	unsigned long adler0;   /* of the first part (the chunks before the events) */
	int zerr;               /* a part failed (pt_pdeflate_end's error is in *ze) */
	struct pt_err **ze;
	uint8_t *pbuf; /* packed chunk */
	size_t pcap;
	uint8_t *cbuf; /* put_columns' encoded columns */
	size_t ccap;
	uint32_t crc;
	uint64_t len; /* bytes written, to o or pz */
	/* a spill's writer (struct pt_spill): chunks are kept in mem instead */
	bool to_mem;
	uint8_t *mem;
	size_t mlen, mcap;
};

static void emit(struct writer *w, const uint8_t *p, size_t n, bool count_crc)
{
	if (w->to_mem) {
		pt_xgrow((void **)&w->mem, &w->mcap, w->mlen + n, 1);
		memcpy(w->mem + w->mlen, p, n);
		w->mlen += n;
		return;
	}
	if (count_crc)
		w->crc = (uint32_t)crc32(w->crc, p, (uInt)n);
	w->len += n;
	if (w->pz)
		pt_pdeflate_write(w->pz, p, n); /* a failure is reported by pt_pdeflate_end */
	else
		pt_out_write(w->o, p, n);
}

/* Compressed bytes go to the output, whose first write error pt_out_commit reports. */
static int to_out(void *ctx, const void *p, size_t n)
{
	pt_out_write(ctx, p, n);
	return 0;
}

static void put_chunk(struct writer *w, const Proftool__Chunk *c, bool count_crc)
{
	size_t n = protobuf_c_message_get_packed_size(&c->base);
	pt_xgrow((void **)&w->pbuf, &w->pcap, n + 10, 1);
	uint8_t *p = w->pbuf;
	size_t k = 0;
	uint64_t v = n;
	do {
		p[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	protobuf_c_message_pack(&c->base, p + k);
	emit(w, p, k + n, count_crc);
}

/*
 * Column batches (events and the CUPTI side tables, the bulk of a model) are
 * encoded here directly: each column a packed repeated field, in field-number
 * order, empty columns and zero scalars left out -- the bytes protobuf-c's
 * generic packer gives for the same message (tests/unit/test-model.c checks
 * that), at a fraction of its cost.
 */
enum col_type { COL_U32, COL_U64, COL_S32, COL_S64, COL_SCALAR };

struct col {
	unsigned field;
	enum col_type type;
	const void *v; /* COL_SCALAR: NULL, the value in n */
	size_t n;
};

static inline size_t vsize(uint64_t v)
{
	return ((size_t)(64 - __builtin_clzll(v | 1)) + 6) / 7;
}

static inline uint8_t *vput(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint8_t *vput1(uint8_t *p, uint64_t v)
{
	if (__builtin_expect(v < 0x80, 1)) {
		*p = (uint8_t)v;
		return p + 1;
	}
	return vput(p, v);
}

/* Encode a column's values as varints at p; returns the end. */
static uint8_t *col_encode(const struct col *c, uint8_t *p)
{
	size_t n = c->n;
	switch (c->type) {
	case COL_U32: {
		const uint32_t *v = c->v;
		for (size_t i = 0; i < n; i++)
			p = vput1(p, v[i]);
		break;
	}
	case COL_U64: {
		const uint64_t *v = c->v;
		for (size_t i = 0; i < n; i++)
			p = vput1(p, v[i]);
		break;
	}
	case COL_S32: {
		const int32_t *v = c->v;
		for (size_t i = 0; i < n; i++)
			p = vput1(p, ((uint32_t)v[i] << 1) ^ (uint32_t)(v[i] >> 31));
		break;
	}
	case COL_S64: {
		const int64_t *v = c->v;
		for (size_t i = 0; i < n; i++)
			p = vput1(p, ((uint64_t)v[i] << 1) ^ (uint64_t)(v[i] >> 63));
		break;
	}
	case COL_SCALAR:
		break;
	}
	return p;
}

/* One chunk whose body (Chunk field `body`) is a message of columns: the
 * columns are encoded once into scratch space, then framed with their lengths. */
static void put_columns(struct writer *w, unsigned body, const struct col *cols, size_t ncols)
{
	size_t plen[16], msg = 0, max = 0;
	for (size_t j = 0; j < ncols; j++)
		if (cols[j].type != COL_SCALAR)
			max += cols[j].n * 10;
	pt_xgrow((void **)&w->cbuf, &w->ccap, max + 1, 1);
	uint8_t *q = w->cbuf;
	for (size_t j = 0; j < ncols; j++) {
		const struct col *c = &cols[j];
		plen[j] = 0;
		if (!c->n)
			continue;
		if (c->type == COL_SCALAR) {
			msg += vsize(c->field << 3) + vsize(c->n);
			continue;
		}
		uint8_t *e = col_encode(c, q);
		plen[j] = (size_t)(e - q);
		q = e;
		msg += vsize((c->field << 3) | 2) + vsize(plen[j]) + plen[j];
	}
	size_t chunk = vsize((body << 3) | 2) + vsize(msg) + msg;
	pt_xgrow((void **)&w->pbuf, &w->pcap, chunk + 10, 1);
	uint8_t *p = vput(w->pbuf, chunk);
	p = vput(p, (body << 3) | 2);
	p = vput(p, msg);
	q = w->cbuf;
	for (size_t j = 0; j < ncols; j++) {
		const struct col *c = &cols[j];
		if (!c->n)
			continue;
		if (c->type == COL_SCALAR) {
			p = vput(p, c->field << 3);
			p = vput(p, c->n);
			continue;
		}
		p = vput(p, (c->field << 3) | 2);
		p = vput(p, plen[j]);
		memcpy(p, q, plen[j]);
		p += plen[j];
		q += plen[j];
	}
	emit(w, w->pbuf, (size_t)(p - w->pbuf), true);
}

#define CHUNK(field, CASE, val) do { \
	Proftool__Chunk c_ = PROFTOOL__CHUNK__INIT; \
	c_.body_case = PROFTOOL__CHUNK__BODY_##CASE; \
	c_.field = (val); \
	put_chunk(w, &c_, true); \
} while (0)

static char *s(const char *x)
{
	return (char *)(x ? x : "");
}

static void write_devices(struct writer *w, const struct pt_model *m)
{
	for (size_t i = 0; i < m->devices.n; i++) {
		const struct pt_device *d = &m->devices.v[i];
		Proftool__Device pd = PROFTOOL__DEVICE__INIT;
		pd.id = d->id;
		pd.kind = (Proftool__DeviceKind)d->kind;
		pd.name = s(d->name);
		pd.freq_khz = d->freq_khz;
		pd.freq_origin = (Proftool__FreqOrigin)d->freq_origin;
		pd.peak_flops = d->peak_flops;
		pd.ai_core_num = d->ai_core_num;
		pd.aic_freq_khz = d->aic_freq_khz;
		pd.clock = s(d->clock);
		Proftool__ClockOffset *offs = pt_xcalloc(d->offsets.n, sizeof(*offs));
		Proftool__ClockOffset **offp = pt_xcalloc(d->offsets.n, sizeof(*offp));
		for (size_t j = 0; j < d->offsets.n; j++) {
			proftool__clock_offset__init(&offs[j]);
			offs[j].from = s(d->offsets.v[j].from);
			offs[j].to = s(d->offsets.v[j].to);
			offs[j].offset_ns = d->offsets.v[j].offset_ns;
			offp[j] = &offs[j];
		}
		pd.n_offsets = d->offsets.n;
		pd.offsets = offp;
		pd.framework_era = s(d->framework_era);
		pd.framework_backend = s(d->framework_backend);
		pd.comm_backend = s(d->comm_backend);
		pd.dtype_table = s(d->dtype_table);
		pd.dtype_table_origin = s(d->dtype_table_origin);
		pd.dynamic_shape = d->dynamic_shape;
		pd.step_end_tag = d->step_end_tag;
		pd.pid = d->pid;
		pd.rank = d->rank;
		pd.sm_count = d->sm_count;
		pd.mem_bytes = d->mem_bytes;
		pd.cc_major = d->cc_major;
		pd.cc_minor = d->cc_minor;
		pd.mem_bandwidth_kbs = d->mem_bandwidth_kbs;
		CHUNK(device, DEVICE, &pd);
		free(offs);
		free(offp);
	}
}

static void write_ops(struct writer *w, const struct pt_model *m)
{
	for (size_t i = 0; i < m->ops.n; i++) {
		const struct pt_op *op = &m->ops.v[i];
		Proftool__Op po = PROFTOOL__OP__INIT;
		po.device = op->device;
		po.name = op->name;
		po.short_name = op->short_name;
		po.type = op->type;
		po.block_dim = op->block_dim;
		po.task_type = op->task_type;
		po.has_graph = op->has_graph;
		Proftool__Tensor *ts = pt_xcalloc(op->tensors.n, sizeof(*ts));
		Proftool__Tensor **tp = pt_xcalloc(op->tensors.n, sizeof(*tp));
		for (size_t j = 0; j < op->tensors.n; j++) {
			const struct pt_tensor *t = &op->tensors.v[j];
			proftool__tensor__init(&ts[j]);
			ts[j].output = t->output;
			ts[j].index = t->index;
			ts[j].format = t->format;
			ts[j].dtype_code = t->dtype_code;
			ts[j].dtype = t->dtype;
			ts[j].n_shape = t->nshape;
			ts[j].shape = t->shape;
			tp[j] = &ts[j];
		}
		po.n_tensors = op->tensors.n;
		po.tensors = tp;
		po.n_task_keys = op->task_keys.n;
		po.task_keys = op->task_keys.v;
		CHUNK(op, OP, &po);
		free(ts);
		free(tp);
	}
}

static void write_steps(struct writer *w, const struct pt_model *m)
{
	for (size_t i = 0; i < m->steps.n; i++) {
		const struct pt_step *st = &m->steps.v[i];
		Proftool__Step ps = PROFTOOL__STEP__INIT;
		ps.device = st->device;
		ps.step = st->step;
		ps.has = st->has;
		ps.start = st->start;
		ps.start_tag = st->start_tag;
		ps.fp = st->fp;
		ps.bp = st->bp;
		ps.end = st->end;
		Proftool__CommInterval *cs = pt_xcalloc(st->comm.n, sizeof(*cs));
		Proftool__CommInterval **cp = pt_xcalloc(st->comm.n, sizeof(*cp));
		for (size_t j = 0; j < st->comm.n; j++) {
			const struct pt_comm *c = &st->comm.v[j];
			proftool__comm_interval__init(&cs[j]);
			cs[j].stream = c->stream;
			cs[j].tag = c->tag;
			cs[j].start = c->start;
			cs[j].end = c->end;
			cs[j].name = c->name;
			cs[j].type = c->type;
			cp[j] = &cs[j];
		}
		ps.n_comm = st->comm.n;
		ps.comm = cp;
		CHUNK(step, STEP, &ps);
		free(cs);
		free(cp);
	}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/*
 * Exact division by a batch's time quantum q = 2^k * d (d odd) without a
 * divide instruction: a multiple of q shifted right by k is a multiple of d,
 * and multiplying it by the inverse of d modulo 2^64 gives the quotient, for
 * negative values too. x is a multiple of q exactly when its low k bits are
 * zero and (x >> k) * inv <= (2^64 - 1) / d (Granlund and Montgomery).
 */
struct quantum {
	uint64_t q, inv, lim;
	unsigned k;
};

static void quantum_set(struct quantum *z, uint64_t q)
{
	z->q = q;
	z->k = (unsigned)__builtin_ctzll(q);
	uint64_t d = q >> z->k, inv = d; /* Newton: each step doubles the correct low bits */
	for (int i = 0; i < 5; i++)
		inv *= 2 - d * inv;
	z->inv = inv;
	z->lim = UINT64_MAX / d;
}

static bool quantum_divides(const struct quantum *z, uint64_t x)
{
	return !(x & ((UINT64_C(1) << z->k) - 1)) && (x >> z->k) * z->inv <= z->lim;
}

/* Widen z to the gcd of its quantum and |v| (a quantum of 0 takes |v|). */
static inline void quantum_fit(struct quantum *z, int64_t v)
{
	uint64_t x = mag(v);
	if (!x || (z->q && quantum_divides(z, x)))
		return;
	quantum_set(z, gcd64(z->q, x));
}

static int64_t quantum_div(const struct quantum *z, int64_t x)
{
	return (int64_t)((uint64_t)(x >> z->k) * z->inv);
}

/* Is every value of a column zero? Then it is written empty. */
static bool all_zero64(const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

static bool all_zero32(const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

/* Columns that mostly count up (correlation ids, event indices) are written as
 * differences from the previous value of the batch: short varints that deflate
 * well. 64-bit ones modulo 2^64, so any value round-trips. */
static void deltas64(const uint64_t *v, size_t n, int64_t *d)
{
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		d[i] = (int64_t)(v[i] - prev);
		prev = v[i];
	}
}

static void deltas32(const uint32_t *v, size_t n, int64_t *d)
{
	int64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		d[i] = (int64_t)v[i] - prev;
		prev = v[i];
	}
}

/*
 * The streaming import (ptm.h): the spilled events' chunks, exactly as
 * write_events() would have written them, and their TrackEvents so far.
 */
struct pt_spill {
	/* to_mem: w.mem holds the chunks; after pt_ptm_spill_compress() they go
	 * to w.pz instead, the compressor of the body's second part, which the
	 * writer takes over (w.crc and w.len: what went in); z holds its output */
	struct writer w;
	size_t window;
	struct pt_track_events *tx; /* per track, of the spilled events */
	int64_t *last;
	size_t ntx;
	PT_VEC(uint8_t) z;
	bool taken; /* a writer took the compressor over: the spilled events are gone */
};

/* Add the events [b, b + n) of ev to the per-track records x (nx of them,
 * grown to cover every track seen). */
static void track_events_add(struct pt_track_events **x, int64_t **last, size_t *nx, const struct pt_events *ev,
			     size_t b, size_t n)
{
	for (size_t i = b; i < b + n; i++) {
		uint32_t t = ev->track[i];
		if (t >= *nx) {
			size_t k = (size_t)t + 1;
			*x = pt_xrealloc(*x, k * sizeof(**x));
			*last = pt_xrealloc(*last, k * sizeof(**last));
			memset(*x + *nx, 0, (k - *nx) * sizeof(**x));
			memset(*last + *nx, 0, (k - *nx) * sizeof(**last));
			*nx = k;
		}
		pt_track_events_add(&(*x)[t], &(*last)[t], ev->kind[i], ev->start[i], ev->dur[i], ev->op[i]);
	}
}

struct pt_track_events *pt_ptm_track_events(const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	size_t nt = m->tracks.n;
	struct pt_track_events *x = pt_xcalloc(nt ? nt : 1, sizeof(*x));
	int64_t *last = pt_xcalloc(nt ? nt : 1, sizeof(*last));
	size_t nx = nt;
	const struct pt_spill *sp = ev->spill;
	if (sp && sp->ntx) {
		/* the records cover the model's tracks (events of other tracks,
		 * which no importer adds, count nowhere, as without a spill) */
		size_t k = sp->ntx < nt ? sp->ntx : nt;
		memcpy(x, sp->tx, k * sizeof(*x));
		memcpy(last, sp->last, k * sizeof(*last));
	}
	track_events_add(&x, &last, &nx, ev, 0, ev->n);
	free(last);
	for (size_t t = 0; t < nt; t++)
		if (!x[t].count)
			x[t].flags = PT_TRACKEV_IN_ORDER;
	return x;
}

/* TrackEvents: what each track's events are like, before the first batch. */
static void write_track_events(struct writer *w, const struct pt_model *m)
{
	size_t nt = m->tracks.n;
	if (!nt)
		return;
	struct pt_track_events *x = pt_ptm_track_events(m);
	/* columns */
	uint64_t *count = pt_xmalloc(nt * sizeof(*count)), *with_op = pt_xmalloc(nt * sizeof(*with_op));
	int64_t *lo = pt_xmalloc(nt * sizeof(*lo)), *hi = pt_xmalloc(nt * sizeof(*hi));
	uint32_t *kinds = pt_xmalloc(nt * sizeof(*kinds)), *flags = pt_xmalloc(nt * sizeof(*flags));
	for (size_t t = 0; t < nt; t++) {
		count[t] = x[t].count;
		with_op[t] = x[t].with_op;
		lo[t] = x[t].min_start;
		hi[t] = x[t].max_end;
		kinds[t] = x[t].kinds;
		flags[t] = x[t].flags;
	}
	free(x);
	const struct col cols[] = {
		{ 1, COL_U64, count, nt }, { 2, COL_S64, lo, nt },	{ 3, COL_S64, hi, nt },
		{ 4, COL_U32, kinds, nt }, { 5, COL_U32, flags, nt }, { 6, COL_U64, with_op, nt },
	};
	put_columns(w, PROFTOOL__CHUNK__BODY_TRACK_EVENTS, cols, sizeof(cols) / sizeof(cols[0]));
	free(count);
	free(with_op);
	free(lo);
	free(hi);
	free(kinds);
	free(flags);
}

/* One EventBatch chunk: the events [b, b + n) of ev, n <= PT_PTM_EVENT_BATCH. */
static void put_event_batch(struct writer *w, const struct pt_events *ev, size_t b, size_t n)
{
	uint32_t kind[PT_PTM_EVENT_BATCH];
	int64_t delta[PT_PTM_EVENT_BATCH], dur[PT_PTM_EVENT_BATCH], corr[PT_PTM_EVENT_BATCH];
	/* the time quantum: the gcd of every start and duration (10 ns for
	 * 100 MHz Ascend counters), so that varints get shorter */
	struct quantum z = { 0 };
	for (size_t i = 0; i < n && z.q != 1; i++) {
		quantum_fit(&z, ev->start[b + i]);
		quantum_fit(&z, ev->dur[b + i]);
	}
	if (z.q == 0)
		quantum_set(&z, 1);
	uint64_t q = z.q;
	/* deltas in units of q, modulo 2^64: exact for any int64 starts */
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		kind[i] = ev->kind[b + i];
		uint64_t sq = (uint64_t)quantum_div(&z, ev->start[b + i]);
		delta[i] = (int64_t)(sq - prev);
		dur[i] = quantum_div(&z, ev->dur[b + i]);
		prev = sq;
	}
	bool has_corr = !all_zero64(ev->corr + b, n);
	if (has_corr)
		deltas64(ev->corr + b, n, corr);
	const struct col cols[] = {
		{ 1, COL_U32, ev->track + b, n },
		{ 2, COL_U32, ev->name + b, n },
		{ 3, COL_U32, kind, n },
		{ 4, COL_S64, delta, n },
		{ 5, COL_S64, dur, n },
		{ 7, COL_U32, ev->op + b, all_zero32(ev->op + b, n) ? 0 : n },
		{ 8, COL_U64, ev->task + b, all_zero64(ev->task + b, n) ? 0 : n },
		{ 9, COL_SCALAR, NULL, q > 1 ? q : 0 },
		{ 10, COL_S64, corr, has_corr ? n : 0 },
	};
	put_columns(w, PROFTOOL__CHUNK__BODY_EVENTS, cols, sizeof(cols) / sizeof(cols[0]));
}

/* Compressed bytes of a spill go to its memory. */
static int to_vec(void *ctx, const void *p, size_t n)
{
	struct pt_spill *sp = ctx;
	pt_vec_reserve(&sp->z, sp->z.n + n);
	memcpy(sp->z.v + sp->z.n, p, n);
	sp->z.n += n;
	return 0;
}

static struct pt_pdeflate *part_open(int jobs, pt_pdeflate_sink sink, void *ctx)
{
	struct pt_pdeflate_opts zo = { .level = 1, .threads = jobs, .block = PT_PTM_ZBLOCK, .raw = true };
	return pt_pdeflate_open(&zo, sink, ctx);
}

/* The compressed body's first part ends before the first event batch; the second
 * begins there, from a spill's own compressor when it has one (ptm.h). */
static void second_part(struct writer *w, struct pt_spill *sp, int jobs)
{
	if (pt_pdeflate_end(w->pz, false, &w->adler0, NULL, w->ze))
		w->zerr = 1;
	if (sp && sp->w.pz) {
		if (sp->z.n)
			pt_out_write(w->o, sp->z.v, sp->z.n);
		pt_vec_free(&sp->z);
		pt_pdeflate_set_sink(sp->w.pz, to_out, w->o);
		w->pz = sp->w.pz;
		sp->w.pz = NULL;
		sp->taken = true;
		w->crc = (uint32_t)crc32_combine(w->crc, sp->w.crc, (z_off_t)sp->w.len);
	} else {
		w->pz = part_open(jobs, to_out, w->o);
	}
}

static void write_events(struct writer *w, const struct pt_model *m, int jobs)
{
	const struct pt_events *ev = &m->events;
	write_track_events(w, m);
	struct pt_spill *sp = ev->spill;
	if (w->pz)
		second_part(w, sp, jobs);
	if (sp) /* the spilled batches, in pieces that zlib's and crc32's counts hold */
		for (size_t o = 0; o < sp->w.mlen; o += 1u << 20)
			emit(w, sp->w.mem + o, sp->w.mlen - o < (1u << 20) ? sp->w.mlen - o : 1u << 20, true);
	/* spills hold whole batches only, so the batches here start where they
	 * would have started in a model that kept every event */
	for (size_t b = 0; b < ev->n; b += PT_PTM_EVENT_BATCH)
		put_event_batch(w, ev, b, ev->n - b < PT_PTM_EVENT_BATCH ? ev->n - b : PT_PTM_EVENT_BATCH);
}

void pt_ptm_spill_start(struct pt_model *m, size_t window)
{
	struct pt_events *ev = &m->events;
	if (ev->spill)
		return;
	struct pt_spill *sp = pt_xcalloc(1, sizeof(*sp));
	sp->w.to_mem = true;
	/* the columns hold at least the window (growth is geometric: up to
	 * 1.5 times it); appending to full columns spills */
	pt_events_reserve(ev, window < PT_PTM_EVENT_BATCH ? PT_PTM_EVENT_BATCH : window);
	sp->window = ev->cap;
	ev->spill = sp;
}

size_t pt_ptm_spill_flush(struct pt_events *ev)
{
	struct pt_spill *sp = ev->spill;
	if (!sp || ev->n < sp->window)
		return 0;
	size_t k = ev->n / PT_PTM_EVENT_BATCH * PT_PTM_EVENT_BATCH;
	track_events_add(&sp->tx, &sp->last, &sp->ntx, ev, 0, k);
	for (size_t b = 0; b < k; b += PT_PTM_EVENT_BATCH)
		put_event_batch(&sp->w, ev, b, PT_PTM_EVENT_BATCH);
	/* the rest moves to the front; zero (sparse) columns have nothing to move */
	size_t r = ev->n - k;
	memmove(ev->track, ev->track + k, r * sizeof(*ev->track));
	memmove(ev->name, ev->name + k, r * sizeof(*ev->name));
	memmove(ev->kind, ev->kind + k, r * sizeof(*ev->kind));
	memmove(ev->start, ev->start + k, r * sizeof(*ev->start));
	memmove(ev->dur, ev->dur + k, r * sizeof(*ev->dur));
	if (ev->dense & PT_EVCOL_CORR)
		memmove(ev->corr, ev->corr + k, r * sizeof(*ev->corr));
	if (ev->dense & PT_EVCOL_OP)
		memmove(ev->op, ev->op + k, r * sizeof(*ev->op));
	if (ev->dense & PT_EVCOL_TASK)
		memmove(ev->task, ev->task + k, r * sizeof(*ev->task));
	ev->n = r;
	ev->base += k;
	return k;
}

void pt_ptm_spill_compress(struct pt_model *m, int jobs)
{
	struct pt_spill *sp = m->events.spill;
	if (!sp || sp->w.pz || sp->w.mlen)
		return;
	sp->w.pz = part_open(jobs, to_vec, sp);
	sp->w.crc = (uint32_t)crc32(0, NULL, 0);
	sp->w.to_mem = false;
}

int pt_ptm_spill_inflate(struct pt_spill *sp, struct pt_err **e)
{
	if (sp && sp->taken)
		return pt_err(e, "the spilled events of this model were written once and are gone");
	if (!sp || !sp->w.pz)
		return 0;
	struct pt_pdeflate *pz = sp->w.pz;
	sp->w.pz = NULL;
	sp->w.to_mem = true; /* from here on, as if it had never compressed */
	if (pt_pdeflate_end(pz, true, NULL, NULL, e))
		return -1;
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, -15) != Z_OK)
		return pt_err(e, "cannot initialise zlib");
	uint64_t len = sp->w.len;
	pt_xgrow((void **)&sp->w.mem, &sp->w.mcap, len ? len : 1, 1);
	int zr = Z_OK;
	for (size_t in = 0, out = 0; zr == Z_OK;) { /* in pieces that zlib's counts hold */
		zs.next_in = sp->z.v + in;
		zs.avail_in = (uInt)(sp->z.n - in < (1u << 30) ? sp->z.n - in : 1u << 30);
		zs.next_out = sp->w.mem + out;
		zs.avail_out = (uInt)(len - out < (1u << 30) ? len - out : 1u << 30);
		uInt ai = zs.avail_in, ao = zs.avail_out;
		zr = inflate(&zs, Z_NO_FLUSH);
		in += ai - zs.avail_in;
		out += ao - zs.avail_out;
		if (zr == Z_OK && ai == zs.avail_in && ao == zs.avail_out)
			zr = Z_BUF_ERROR; /* no progress */
	}
	bool ok = zr == Z_STREAM_END && zs.total_out == len;
	inflateEnd(&zs);
	pt_vec_free(&sp->z);
	if (!ok)
		return pt_err(e, "the compressed spilled events do not inflate back (zlib %d)", zr);
	sp->w.mlen = len;
	return 0;
}

const uint8_t *pt_ptm_spill_bytes(const struct pt_spill *s, size_t *len)
{
	*len = s ? s->w.mlen : 0;
	return s ? s->w.mem : NULL;
}

void pt_ptm_spill_free(struct pt_spill *s)
{
	if (!s)
		return;
	pt_pdeflate_abort(s->w.pz);
	pt_vec_free(&s->z);
	free(s->w.mem);
	free(s->w.pbuf);
	free(s->w.cbuf);
	free(s->tx);
	free(s->last);
	free(s);
}

static void write_samples(struct writer *w, const struct pt_model *m)
{
	const struct pt_queue_samples *q = &m->queues;
	for (size_t b = 0; b < q->n; b += PT_PTM_EVENT_BATCH) {
		size_t n = q->n - b < PT_PTM_EVENT_BATCH ? q->n - b : PT_PTM_EVENT_BATCH;
		Proftool__QueueBatch pq = PROFTOOL__QUEUE_BATCH__INIT;
		pq.n_track = pq.n_time = pq.n_size = pq.n_capacity = n;
		pq.track = q->track + b;
		pq.time = q->time + b;
		pq.size = q->size + b;
		pq.capacity = q->capacity + b;
		CHUNK(queues, QUEUES, &pq);
	}
	const struct pt_counter_samples *c = &m->counters;
	for (size_t b = 0; b < c->n; b += PT_PTM_EVENT_BATCH) {
		size_t n = c->n - b < PT_PTM_EVENT_BATCH ? c->n - b : PT_PTM_EVENT_BATCH;
		Proftool__CounterBatch pc = PROFTOOL__COUNTER_BATCH__INIT;
		pc.n_track = pc.n_time = pc.n_value = n;
		pc.track = c->track + b;
		pc.time = c->time + b;
		pc.value = c->value + b;
		CHUNK(counters, COUNTERS, &pc);
	}
}

/* MindData ops and per-batch records (chunks 30, 31). */
static void write_minddata(struct writer *w, const struct pt_model *m)
{
	for (size_t i = 0; i < m->md_ops.n; i++) {
		const struct pt_md_op *op = &m->md_ops.v[i];
		Proftool__MdOp po = PROFTOOL__MD_OP__INIT;
		po.device = op->device;
		po.op_id = op->op_id;
		po.type = op->type;
		po.num_workers = op->num_workers;
		po.sampling_interval_ns = op->sampling_interval_ns;
		po.has_queue = op->has_queue;
		po.queue_capacity = op->queue_capacity;
		po.queue_track = op->queue_track == PT_NONE ? 0 : op->queue_track + 1;
		po.order = op->order;
		po.n_children = op->children.n;
		po.children = op->children.v;
		CHUNK(md_op, MD_OP, &po);
	}
	const struct pt_md_record *r = m->md_records.v;
	size_t nr = m->md_records.n;
	uint32_t dev[PT_PTM_EVENT_BATCH], file[PT_PTM_EVENT_BATCH], type[PT_PTM_EVENT_BATCH];
	int64_t extra[PT_PTM_EVENT_BATCH], batch[PT_PTM_EVENT_BATCH], value[PT_PTM_EVENT_BATCH],
		time[PT_PTM_EVENT_BATCH];
	for (size_t b = 0; b < nr; b += PT_PTM_EVENT_BATCH) {
		size_t n = nr - b < PT_PTM_EVENT_BATCH ? nr - b : PT_PTM_EVENT_BATCH;
		for (size_t i = 0; i < n; i++) {
			dev[i] = r[b + i].device;
			file[i] = r[b + i].file;
			type[i] = r[b + i].type;
			extra[i] = r[b + i].extra;
			batch[i] = r[b + i].batch;
			value[i] = r[b + i].value;
			time[i] = r[b + i].time;
		}
		Proftool__MdRecordBatch pb = PROFTOOL__MD_RECORD_BATCH__INIT;
		pb.n_device = pb.n_file = pb.n_type = pb.n_extra = pb.n_batch = pb.n_value = pb.n_time = n;
		pb.device = dev;
		pb.file = file;
		pb.type = type;
		pb.extra = extra;
		pb.batch = batch;
		pb.value = value;
		pb.time = time;
		CHUNK(md_records, MD_RECORDS, &pb);
	}
}

/* CUPTI side tables (chunks 20-24), after the events they index. */
static void write_cupti(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	uint32_t u[4][B];
	int32_t i32[9][B];
	uint64_t u64[2][B];
	int64_t d[3][B];
	for (size_t b = 0; b < m->kernels.n; b += B) {
		size_t n = m->kernels.n - b < B ? m->kernels.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_kernel_config *k = pt_model_kernel_config(m, b + i);
			u[0][i] = m->kernels.v[b + i].event;
			u[1][i] = k->registers;
			u[2][i] = k->graph_id;
			for (int j = 0; j < 3; j++) {
				i32[j][i] = k->grid[j];
				i32[3 + j][i] = k->block[j];
			}
			i32[6][i] = k->static_smem;
			i32[7][i] = k->dynamic_smem;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 2, COL_S32, i32[0], n }, { 3, COL_S32, i32[1], n }, { 4, COL_S32, i32[2], n },
			{ 5, COL_S32, i32[3], n }, { 6, COL_S32, i32[4], n }, { 7, COL_S32, i32[5], n },
			{ 8, COL_U32, u[1], n },   { 9, COL_S32, i32[6], n }, { 10, COL_S32, i32[7], n },
			{ 11, COL_U32, u[2], n },  { 12, COL_S64, d[0], n },
		};
		put_columns(w, PROFTOOL__CHUNK__BODY_KERNELS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->copies.n; b += B) {
		size_t n = m->copies.n - b < B ? m->copies.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_copy_info *c = &m->copies.v[b + i];
			u[0][i] = c->event;
			u[1][i] = c->copy_kind;
			u[2][i] = c->src_kind;
			u[3][i] = c->dst_kind;
			u64[0][i] = c->bytes;
			i32[0][i] = c->src_device;
			i32[1][i] = c->dst_device;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 2, COL_U32, u[1], n },   { 3, COL_U32, u[2], n },   { 4, COL_U32, u[3], n },
			{ 5, COL_U64, u64[0], n }, { 6, COL_S32, i32[0], n }, { 7, COL_S32, i32[1], n },
			{ 8, COL_S64, d[0], n },
		};
		put_columns(w, PROFTOOL__CHUNK__BODY_COPIES, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->links.n; b += B) {
		size_t n = m->links.n - b < B ? m->links.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->links.v[b + i].event;
			u[1][i] = m->links.v[b + i].api;
			u[2][i] = m->links.v[b + i].range;
		}
		for (int j = 0; j < 3; j++)
			deltas32(u[j], n, d[j]);
		const struct col cols[] = { { 4, COL_S64, d[0], n }, { 5, COL_S64, d[1], n }, { 6, COL_S64, d[2], n } };
		put_columns(w, PROFTOOL__CHUNK__BODY_LINKS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t b = 0; b < m->ext_corr.n; b += B) {
		size_t n = m->ext_corr.n - b < B ? m->ext_corr.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->ext_corr.v[b + i].device;
			u[1][i] = m->ext_corr.v[b + i].kind;
			u64[0][i] = m->ext_corr.v[b + i].corr;
			u64[1][i] = m->ext_corr.v[b + i].id;
		}
		Proftool__ExtCorrBatch pb = PROFTOOL__EXT_CORR_BATCH__INIT;
		pb.n_device = pb.n_kind = pb.n_corr = pb.n_id = n;
		pb.device = u[0];
		pb.kind = u[1];
		pb.corr = u64[0];
		pb.id = u64[1];
		CHUNK(ext_corr, EXT_CORR, &pb);
	}
	for (size_t b = 0; b < m->syncs.n; b += B) {
		size_t n = m->syncs.n - b < B ? m->syncs.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_sync_info *s = &m->syncs.v[b + i];
			u[0][i] = s->event;
			u[1][i] = s->type;
			d[1][i] = s->cuda_event_id;
			d[2][i] = s->wait_stream;
			u64[0][i] = (uint64_t)s->wait_corr;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = {
			{ 1, COL_S64, d[0], n }, { 2, COL_U32, u[1], n }, { 3, COL_S64, d[1], n },
			{ 4, COL_S64, d[2], n }, { 5, COL_S64, u64[0], n },
		};
		put_columns(w, PROFTOOL__CHUNK__BODY_SYNCS, cols, sizeof(cols) / sizeof(cols[0]));
	}
	for (size_t i = 0; i < m->ranges.n; i++) {
		const struct pt_range_info *r = &m->ranges.v[i];
		Proftool__RangeInfo pr = PROFTOOL__RANGE_INFO__INIT;
		pr.event = r->event;
		pr.type = r->type;
		pr.label = r->label;
		pr.domain = r->domain;
		pr.parent = r->parent;
		pr.id = r->id;
		pr.flags = r->flags;
		CHUNK(range, RANGE, &pr);
	}
	for (size_t b = 0; b < m->event_args.n; b += B) {
		size_t n = m->event_args.n - b < B ? m->event_args.n - b : B;
		for (size_t i = 0; i < n; i++) {
			u[0][i] = m->event_args.v[b + i].event;
			u[1][i] = m->event_args.v[b + i].key;
			u[2][i] = m->event_args.v[b + i].value;
		}
		deltas32(u[0], n, d[0]);
		const struct col cols[] = { { 1, COL_S64, d[0], n }, { 2, COL_U32, u[1], n }, { 3, COL_U32, u[2], n } };
		put_columns(w, PROFTOOL__CHUNK__BODY_EVENT_ARGS, cols, sizeof(cols) / sizeof(cols[0]));
	}
}

/* Memory tables (chunks 60-64): Ascend graphs, nodes, tensors; CUPTI MEMORY2 and MEMORY_POOL. */
static void write_memory(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH, NU = 7, NU64 = 10, NS = 2 };
	if (!m->mem_graphs.n && !m->gpu_mem.n && !m->gpu_pools.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(NU * sizeof(*u));
	uint64_t(*q)[B] = pt_xmalloc(NU64 * sizeof(*q));
	int64_t(*t)[B] = pt_xmalloc(NS * sizeof(*t));
	protobuf_c_boolean *bo = pt_xmalloc(B * sizeof(*bo));
	for (size_t i = 0; i < m->mem_graphs.n; i++) {
		const struct pt_mem_graph *g = &m->mem_graphs.v[i];
		Proftool__MemGraph pg = PROFTOOL__MEM_GRAPH__INIT;
		pg.device = g->device;
		pg.graph_id = g->graph_id;
		pg.static_mem = g->static_mem;
		pg.total_mem = g->total_mem;
		pg.fp_start = g->fp_start;
		pg.bp_end = g->bp_end;
		CHUNK(mem_graph, MEM_GRAPH, &pg);
	}
	PT_VEC(uint64_t) ids = { 0 };
	for (size_t b = 0; b < m->mem_nodes.n; b += B) {
		size_t n = m->mem_nodes.n - b < B ? m->mem_nodes.n - b : B;
		ids.n = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pt_mem_node *nd = &m->mem_nodes.v[b + i];
			u[0][i] = nd->graph;
			u[1][i] = nd->name;
			q[0][i] = nd->node_id;
			u[2][i] = nd->nout;
			u[3][i] = nd->nws;
			for (uint32_t k = 0; k < nd->nout; k++)
				pt_vec_push(&ids, m->mem_ids.v[nd->out0 + k]);
			for (uint32_t k = 0; k < nd->nws; k++)
				pt_vec_push(&ids, m->mem_ids.v[nd->ws0 + k]);
		}
		Proftool__MemNodeBatch pb = PROFTOOL__MEM_NODE_BATCH__INIT;
		pb.n_graph = pb.n_name = pb.n_node_id = pb.n_n_out = pb.n_n_ws = n;
		pb.graph = u[0];
		pb.name = u[1];
		pb.node_id = q[0];
		pb.n_out = u[2];
		pb.n_ws = u[3];
		pb.n_ids = ids.n;
		pb.ids = ids.v;
		CHUNK(mem_nodes, MEM_NODES, &pb);
	}
	pt_vec_free(&ids);
	for (size_t b = 0; b < m->mem_tensors.n; b += B) {
		size_t n = m->mem_tensors.n - b < B ? m->mem_tensors.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_mem_tensor *x = &m->mem_tensors.v[b + i];
			u[0][i] = x->graph;
			q[0][i] = x->id;
			q[1][i] = x->size;
			u[1][i] = x->type;
			q[2][i] = x->life_start;
			q[3][i] = x->life_end;
			u[2][i] = x->life_long;
		}
		Proftool__MemTensorBatch pb = PROFTOOL__MEM_TENSOR_BATCH__INIT;
		pb.n_graph = pb.n_id = pb.n_size = pb.n_type = pb.n_life_start = pb.n_life_end = pb.n_life_long = n;
		pb.graph = u[0];
		pb.id = q[0];
		pb.size = q[1];
		pb.type = u[1];
		pb.life_start = q[2];
		pb.life_end = q[3];
		pb.life_long = u[2];
		CHUNK(mem_tensors, MEM_TENSORS, &pb);
	}
	for (size_t b = 0; b < m->gpu_mem.n; b += B) {
		size_t n = m->gpu_mem.n - b < B ? m->gpu_mem.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_gpu_mem *r = &m->gpu_mem.v[b + i];
			u[0][i] = r->device;
			u[1][i] = r->op;
			u[2][i] = r->mem_kind;
			u[3][i] = r->pool_type;
			u[4][i] = r->corr;
			u[5][i] = r->pid;
			u[6][i] = r->stream;
			t[0][i] = r->time;
			q[0][i] = r->address;
			q[1][i] = r->bytes;
			q[2][i] = r->pc;
			q[3][i] = r->pool_address;
			q[4][i] = r->pool_threshold;
			q[5][i] = r->pool_size;
			q[6][i] = r->pool_utilized;
			q[7][i] = r->name;
			q[8][i] = r->source;
		}
		uint32_t *nm = pt_xmalloc(2 * n * sizeof(*nm) + 1);
		for (size_t i = 0; i < n; i++) {
			nm[i] = (uint32_t)q[7][i];
			nm[n + i] = (uint32_t)q[8][i];
		}
		Proftool__GpuMemBatch pb = PROFTOOL__GPU_MEM_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_mem_kind = pb.n_pool_type = pb.n_corr = pb.n_pid = pb.n_stream =
			pb.n_time = pb.n_address = pb.n_bytes = pb.n_pc = pb.n_pool_address = pb.n_pool_threshold =
				pb.n_pool_size = pb.n_pool_utilized = pb.n_name = pb.n_source = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.mem_kind = u[2];
		pb.pool_type = u[3];
		pb.corr = u[4];
		pb.pid = u[5];
		pb.stream = u[6];
		pb.time = t[0];
		pb.address = q[0];
		pb.bytes = q[1];
		pb.pc = q[2];
		pb.pool_address = q[3];
		pb.pool_threshold = q[4];
		pb.pool_size = q[5];
		pb.pool_utilized = q[6];
		pb.name = nm;
		pb.source = nm + n;
		CHUNK(gpu_mem, GPU_MEM, &pb);
		free(nm);
	}
	for (size_t b = 0; b < m->gpu_pools.n; b += B) {
		size_t n = m->gpu_pools.n - b < B ? m->gpu_pools.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_gpu_pool *p = &m->gpu_pools.v[b + i];
			u[0][i] = p->device;
			u[1][i] = p->op;
			u[2][i] = p->pool_type;
			bo[i] = p->managed;
			u[3][i] = p->corr;
			u[4][i] = p->pid;
			t[0][i] = p->time;
			q[0][i] = p->address;
			q[1][i] = p->size;
			q[2][i] = p->utilized;
			q[3][i] = p->min_keep;
			q[4][i] = p->threshold;
		}
		Proftool__GpuPoolBatch pb = PROFTOOL__GPU_POOL_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_pool_type = pb.n_managed = pb.n_corr = pb.n_pid = pb.n_time =
			pb.n_address = pb.n_size = pb.n_utilized = pb.n_min_keep = pb.n_threshold = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.pool_type = u[2];
		pb.managed = bo;
		pb.corr = u[3];
		pb.pid = u[4];
		pb.time = t[0];
		pb.address = q[0];
		pb.size = q[1];
		pb.utilized = q[2];
		pb.min_keep = q[3];
		pb.threshold = q[4];
		CHUNK(gpu_pools, GPU_POOLS, &pb);
	}
	free(u);
	free(q);
	free(t);
	free(bo);
}

/* HCCL trace events (chunk 70). */
static void write_hccl(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	if (!m->hccl.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(8 * sizeof(*u));
	int64_t(*t)[B] = pt_xmalloc(2 * sizeof(*t));
	uint64_t *q = pt_xmalloc(B * sizeof(*q));
	for (size_t b = 0; b < m->hccl.n; b += B) {
		size_t n = m->hccl.n - b < B ? m->hccl.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_hccl_task *h = &m->hccl.v[b + i];
			u[0][i] = h->device;
			u[1][i] = h->op;
			u[2][i] = h->exec;
			u[3][i] = h->tid;
			t[0][i] = h->ts;
			t[1][i] = h->dur;
			u[4][i] = h->src;
			u[5][i] = h->dst;
			u[6][i] = h->transport;
			u[7][i] = h->task_type;
			q[i] = h->size;
		}
		Proftool__HcclBatch pb = PROFTOOL__HCCL_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_exec = pb.n_tid = pb.n_ts = pb.n_dur = pb.n_src = pb.n_dst = pb.n_transport =
			pb.n_task_type = pb.n_size = n;
		pb.device = u[0];
		pb.op = u[1];
		pb.exec = u[2];
		pb.tid = u[3];
		pb.ts = t[0];
		pb.dur = t[1];
		pb.src = u[4];
		pb.dst = u[5];
		pb.transport = u[6];
		pb.task_type = u[7];
		pb.size = q;
		CHUNK(hccl, HCCL, &pb);
	}
	free(u);
	free(t);
	free(q);
}

/* AI Core PMU records (chunk 50), after the ops they index. */
static void write_aicore(struct writer *w, const struct pt_model *m)
{
	enum { B = PT_PTM_EVENT_BATCH };
	if (!m->aicore.n)
		return;
	uint32_t(*u)[B] = pt_xmalloc(4 * sizeof(*u));
	uint64_t *pmu = pt_xmalloc(B * PT_AICORE_NPMU * sizeof(*pmu));
	for (size_t b = 0; b < m->aicore.n; b += B) {
		size_t n = m->aicore.n - b < B ? m->aicore.n - b : B;
		for (size_t i = 0; i < n; i++) {
			const struct pt_aicore *a = &m->aicore.v[b + i];
			u[0][i] = a->device;
			u[1][i] = a->op;
			u[2][i] = a->stream;
			u[3][i] = a->task;
			for (int k = 0; k < PT_AICORE_NPMU; k++)
				pmu[i * PT_AICORE_NPMU + (size_t)k] = a->pmu[k];
		}
		Proftool__AicoreBatch pb = PROFTOOL__AICORE_BATCH__INIT;
		pb.n_device = pb.n_op = pb.n_stream = pb.n_task = n;
		pb.n_pmu = n * PT_AICORE_NPMU;
		pb.device = u[0];
		pb.op = u[1];
		pb.stream = u[2];
		pb.task = u[3];
		pb.pmu = pmu;
		CHUNK(aicore, AICORE, &pb);
	}
	free(u);
	free(pmu);
}

int pt_ptm_write(const struct pt_model *m, struct pt_out *o, bool compress, int jobs, struct pt_err **e)
{
	struct pt_spill *sp = m->events.spill;
	if (sp && sp->taken)
		return pt_err(e, "the spilled events of this model were written once and are gone");
	struct writer w_, *w = &w_;
	memset(w, 0, sizeof(*w));
	w->o = o;
	w->ze = e;
	w->crc = (uint32_t)crc32(0, NULL, 0);
	uint8_t hdr[16];
	memcpy(hdr, PT_PTM_MAGIC, 8);
	uint32_t ver = PT_PTM_VERSION, flags = compress ? PT_PTM_FLAG_ZLIB : 0;
	for (int i = 0; i < 4; i++) {
		hdr[8 + i] = (uint8_t)(ver >> (8 * i));
		hdr[12 + i] = (uint8_t)(flags >> (8 * i));
	}
	pt_out_write(o, hdr, sizeof(hdr));
	if (compress) { /* one zlib stream in two raw deflate parts: see PT_PTM_ZBLOCK */
		uint8_t zh[2];
		pt_pdeflate_zlib_header(1, zh);
		pt_out_write(o, zh, sizeof(zh));
		w->pz = part_open(jobs, to_out, o);
	} else if (pt_ptm_spill_inflate(sp, e)) { /* a compressing spill, written plain after all */
		return -1;
	}

	Proftool__Header ph = PROFTOOL__HEADER__INIT;
	char producer[64];
	snprintf(producer, sizeof(producer), "proftool %s", PT_VERSION);
	ph.producer = producer;
	ph.format_version = PT_PTM_VERSION;
	CHUNK(header, HEADER, &ph);

	for (size_t i = 0; i < m->sources.n; i++) {
		const struct pt_source *src = &m->sources.v[i];
		Proftool__Source ps = PROFTOOL__SOURCE__INIT;
		ps.path = s(src->path);
		ps.size = src->size;
		ps.importer = s(src->importer);
		ps.importer_version = s(src->importer_version);
		ps.device = src->device;
		CHUNK(source, SOURCE, &ps);
	}

	/* strings in pieces */
	const struct pt_strtab *st = &m->strings;
	ProtobufCBinaryData bd[1024];
	for (size_t b = 0; b < st->n; b += 1024) {
		size_t n = st->n - b < 1024 ? st->n - b : 1024;
		for (size_t i = 0; i < n; i++) {
			bd[i].data = (uint8_t *)(st->data + st->off[b + i]);
			bd[i].len = st->slen[b + i];
		}
		Proftool__StringPiece sp = PROFTOOL__STRING_PIECE__INIT;
		sp.n_s = n;
		sp.s = bd;
		CHUNK(strings, STRINGS, &sp);
	}

	write_devices(w, m);
	for (size_t i = 0; i < m->tracks.n; i++) {
		const struct pt_track *t = &m->tracks.v[i];
		Proftool__Track pt = PROFTOOL__TRACK__INIT;
		pt.device = t->device;
		pt.kind = (Proftool__TrackKind)t->kind;
		pt.stream = t->stream;
		pt.name = t->name;
		CHUNK(track, TRACK, &pt);
	}
	write_ops(w, m);
	write_steps(w, m);
	for (size_t i = 0; i < m->aicpu.n; i++) {
		const struct pt_aicpu *a = &m->aicpu.v[i];
		Proftool__AicpuOp pa = PROFTOOL__AICPU_OP__INIT;
		pa.device = a->device;
		pa.serial = a->serial;
		pa.name = a->name;
		pa.has = a->has;
		pa.start = a->start;
		pa.end = a->end;
		pa.total_ns = a->total_ns;
		pa.dispatch_ns = a->dispatch_ns;
		pa.event = a->event;
		CHUNK(aicpu, AICPU, &pa);
	}
	for (size_t i = 0; i < m->stats.n; i++) {
		Proftool__Stat ps = PROFTOOL__STAT__INIT;
		ps.device = m->stats.v[i].device;
		ps.key = m->stats.v[i].key;
		ps.value = m->stats.v[i].value;
		CHUNK(stat, STAT, &ps);
	}
	write_events(w, m, jobs);
	write_cupti(w, m);
	write_aicore(w, m);
	write_memory(w, m);
	write_hccl(w, m);
	write_samples(w, m);
	write_minddata(w, m);

	Proftool__Footer pf = PROFTOOL__FOOTER__INIT;
	pf.n_strings = st->n;
	pf.n_devices = m->devices.n;
	pf.n_tracks = m->tracks.n;
	pf.n_events = pt_events_total(&m->events);
	pf.n_ops = m->ops.n;
	pf.n_steps = m->steps.n;
	pf.n_queue_samples = m->queues.n;
	pf.n_counter_samples = m->counters.n;
	pf.n_stats = m->stats.n;
	pf.n_sources = m->sources.n;
	pf.n_aicpu = m->aicpu.n;
	pf.crc32 = w->crc;
	Proftool__Chunk fc = PROFTOOL__CHUNK__INIT;
	fc.body_case = PROFTOOL__CHUNK__BODY_FOOTER;
	fc.footer = &pf;
	put_chunk(w, &fc, false);

	int rc = w->zerr ? -1 : 0;
	if (w->pz) {
		unsigned long adler;
		uint64_t len;
		if (pt_pdeflate_end(w->pz, true, &adler, &len, e))
			rc = -1;
		adler = adler32_combine(w->adler0, adler, (z_off_t)len);
		uint8_t t[4] = { (uint8_t)(adler >> 24), (uint8_t)(adler >> 16), (uint8_t)(adler >> 8), (uint8_t)adler };
		pt_out_write(o, t, sizeof(t));
	}
	free(w->pbuf);
	free(w->cbuf);
	return rc;
}
