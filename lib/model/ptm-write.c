/* Writing the .ptm model file, streamed chunk by chunk (see ptm.h): the chunk encoder, the
 * header, devices, ops, steps and events; the side tables are ptm-write-tables.c. */
#define _GNU_SOURCE /* O_TMPFILE, mkostemp */
#include "model/ptm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "model/model.h"
#include "model/ptm-writer.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/out.h"
#include "support/pdeflate.h"
#include "support/xalloc.h"


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

void pt_ptm_put_chunk(struct writer *w, const Proftool__Chunk *c, bool count_crc)
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
void pt_ptm_put_columns(struct writer *w, unsigned body, const struct col *cols, size_t ncols)
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
		pd.world_size = d->world_size;
		pd.cpu_process = d->has_cpu_process ? d->cpu_process : 0;
		pd.cpu_system = d->has_cpu_system ? d->cpu_system : 0;
		pd.cpu_util_set = (d->has_cpu_process ? 1u : 0u) | (d->has_cpu_system ? 2u : 0u);
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
		pd.host = s(d->host);
		pd.max_threads_per_block = d->lim.max_threads_per_block;
		pd.max_threads_per_sm = d->lim.max_threads_per_sm;
		pd.warp_size = d->lim.warp_size;
		pd.regs_per_block = d->lim.regs_per_block;
		pd.regs_per_sm = d->lim.regs_per_sm;
		pd.smem_per_block = d->lim.smem_per_block;
		pd.smem_per_sm = d->lim.smem_per_sm;
		pd.smem_per_block_optin = d->lim.smem_per_block_optin;
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
	/* pt_ptm_spill_to_file(): z's bytes go to an unnamed temporary file
	 * instead (flen of them so far; ferr: the errno of a write that failed);
	 * pt_ptm_spill_to_plain_file(): the plain chunks do, at every flush */
	bool file, plain_file;
	int fd, ferr;
	uint64_t flen;
	char *dir; /* for messages */
	bool sealed; /* the compressor ended its stream: z holds all of it, to read back (spill_seal) */
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
	pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_TRACK_EVENTS, cols, sizeof(cols) / sizeof(cols[0]));
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
	pt_ptm_put_columns(w, PROFTOOL__CHUNK__BODY_EVENTS, cols, sizeof(cols) / sizeof(cols[0]));
}

/* n bytes to the end of a spill's file; 0, or -1 with ferr set (then and after). */
static int spill_file_write(struct pt_spill *sp, const void *p, size_t n)
{
	for (size_t k = 0; k < n && !sp->ferr;) {
		ssize_t r = write(sp->fd, (const uint8_t *)p + k, n - k);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			sp->ferr = r < 0 ? errno : ENOSPC;
		else
			k += (size_t)r;
	}
	sp->flen += n;
	return sp->ferr ? -1 : 0;
}

/* Compressed bytes of a spill go to its memory, or its file. */
static int to_vec(void *ctx, const void *p, size_t n)
{
	struct pt_spill *sp = ctx;
	if (sp->file)
		return spill_file_write(sp, p, n);
	pt_vec_reserve(&sp->z, sp->z.n + n);
	memcpy(sp->z.v + sp->z.n, p, n);
	sp->z.n += n;
	return 0;
}

static int spill_file_error(const struct pt_spill *sp, int err, struct pt_err **e)
{
	return pt_err_errno(e, err, "cannot %s the temporary file of the model's events in '%s'",
			    sp->ferr ? "write" : "read", sp->dir);
}

/* The bytes [off, off + n) of a spill's file to buf; 0, or an errno. */
static int spill_file_read(const struct pt_spill *sp, uint64_t off, uint8_t *buf, size_t n)
{
	for (size_t k = 0; k < n;) {
		ssize_t r = pread(sp->fd, buf + k, n - k, (off_t)(off + k));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		k += (size_t)r;
	}
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
		if (sp->file) { /* the file's bytes, through a buffer of a block */
			size_t bl = sp->flen < PT_PTM_ZBLOCK ? (size_t)sp->flen : PT_PTM_ZBLOCK;
			uint8_t *buf = pt_xmalloc(bl ? bl : 1);
			int err = sp->ferr;
			for (uint64_t o = 0; o < sp->flen && !err; o += bl) {
				size_t n = sp->flen - o < bl ? (size_t)(sp->flen - o) : bl;
				if (!(err = spill_file_read(sp, o, buf, n)))
					pt_out_write(w->o, buf, n);
			}
			free(buf);
			if (err) {
				spill_file_error(sp, err, w->ze);
				w->zerr = 1;
			}
		} else if (sp->z.n) {
			pt_out_write(w->o, sp->z.v, sp->z.n);
		}
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
	if (sp && sp->plain_file) { /* written plain (pt_ptm_write): the file's bytes, a piece at a time */
		int err = sp->ferr;
		uint8_t *buf = pt_xmalloc(1u << 20);
		for (uint64_t o = 0; !err && o < sp->flen; o += 1u << 20) {
			size_t n = sp->flen - o < (1u << 20) ? (size_t)(sp->flen - o) : 1u << 20;
			if (!(err = spill_file_read(sp, o, buf, n)))
				emit(w, buf, n, true);
		}
		free(buf);
		if (err) {
			spill_file_error(sp, err, w->ze);
			w->zerr = 1;
		}
	}
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
	if (!sp || sp->sealed || ev->n < sp->window)
		return 0;
	size_t k = ev->n / PT_PTM_EVENT_BATCH * PT_PTM_EVENT_BATCH;
	track_events_add(&sp->tx, &sp->last, &sp->ntx, ev, 0, k);
	for (size_t b = 0; b < k; b += PT_PTM_EVENT_BATCH)
		put_event_batch(&sp->w, ev, b, PT_PTM_EVENT_BATCH);
	if (sp->plain_file) { /* the window's chunks to the file; after a failed write, nowhere (ferr tells) */
		spill_file_write(sp, sp->w.mem, sp->w.mlen);
		sp->w.mlen = 0;
	}
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
	if (!sp || sp->w.pz || sp->w.mlen || sp->file)
		return;
	sp->w.pz = part_open(jobs, to_vec, sp);
	sp->w.crc = (uint32_t)crc32(0, NULL, 0);
	sp->w.to_mem = false;
}

/* An unnamed temporary file in dir for sp's bytes; false where none can be made there. */
static bool spill_file_open(struct pt_spill *sp, const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) { /* a file system without unnamed files: a named one, removed at once */
		char *t = pt_xasprintf("%s/.proftool-events-XXXXXX", dir);
		fd = mkostemp(t, O_CLOEXEC);
		if (fd >= 0)
			unlink(t);
		free(t);
	}
	if (fd < 0)
		return false;
	sp->fd = fd;
	sp->file = true;
	sp->dir = pt_xstrdup(dir);
	return true;
}

void pt_ptm_spill_to_file(struct pt_model *m, const char *dir)
{
	struct pt_spill *sp = m->events.spill;
	if (!sp || !sp->w.pz || sp->file || sp->z.n)
		return;
	spill_file_open(sp, dir); /* else kept in memory */
}

bool pt_ptm_spill_to_plain_file(struct pt_model *m, const char *dir)
{
	struct pt_spill *sp = m->events.spill;
	if (!sp || sp->w.pz || sp->file || sp->w.mlen || m->events.base)
		return false;
	sp->plain_file = spill_file_open(sp, dir); /* else kept in memory */
	return sp->plain_file;
}

bool pt_ptm_spill_plain_file(const struct pt_spill *s, uint64_t *len)
{
	*len = s && s->plain_file ? s->flen : 0;
	return s && s->plain_file;
}

int pt_ptm_spill_file_read(const struct pt_spill *sp, uint64_t off, uint8_t *buf, size_t n, struct pt_err **e)
{
	int err = sp->ferr ? sp->ferr : spill_file_read(sp, off, buf, n);
	return err ? spill_file_error(sp, err, e) : 0;
}

/* A plain file spill's chunks back to memory, and no file from here on. */
static int spill_unfile(struct pt_spill *sp, struct pt_err **e)
{
	int err = sp->ferr;
	if (!err && sp->flen > SIZE_MAX / 2)
		err = EFBIG;
	if (!err) { /* the file's bytes, then those of the last flush after them */
		size_t n = (size_t)sp->flen;
		pt_xgrow((void **)&sp->w.mem, &sp->w.mcap, n + sp->w.mlen + 1, 1);
		memmove(sp->w.mem + n, sp->w.mem, sp->w.mlen);
		if (!(err = spill_file_read(sp, 0, sp->w.mem, n)))
			sp->w.mlen += n;
	}
	if (err)
		return spill_file_error(sp, err, e);
	close(sp->fd);
	sp->file = sp->plain_file = false;
	return 0;
}

int pt_ptm_spill_seal(struct pt_spill *sp, struct pt_err **e)
{
	if (sp && sp->taken)
		return pt_err(e, "the spilled events of this model were written once and are gone");
	if (!sp || !sp->w.pz)
		return 0;
	struct pt_pdeflate *pz = sp->w.pz;
	sp->w.pz = NULL;
	sp->sealed = true;
	int zr0 = pt_pdeflate_end(pz, true, NULL, NULL, e);
	if (sp->file) { /* back to memory: the file's bytes, then no file */
		int err = sp->ferr;
		if (!err && sp->flen > SIZE_MAX / 2)
			err = EFBIG;
		if (!err) {
			pt_vec_reserve(&sp->z, sp->flen ? (size_t)sp->flen : 1);
			if (!(err = spill_file_read(sp, 0, sp->z.v, (size_t)sp->flen)))
				sp->z.n = (size_t)sp->flen;
		}
		close(sp->fd);
		sp->file = false;
		if (err) {
			if (!zr0)
				spill_file_error(sp, err, e);
			return -1;
		}
	}
	return zr0 ? -1 : 0;
}

const uint8_t *pt_ptm_spill_zbytes(const struct pt_spill *s, size_t *len, uint64_t *plain)
{
	*len = s && s->sealed ? s->z.n : 0;
	*plain = s && s->sealed ? s->w.len : 0;
	return s && s->sealed ? s->z.v : NULL;
}

int pt_ptm_spill_inflate(struct pt_spill *sp, struct pt_err **e)
{
	if (sp && sp->plain_file)
		return spill_unfile(sp, e);
	if (pt_ptm_spill_seal(sp, e))
		return -1;
	if (!sp || !sp->sealed)
		return 0;
	sp->sealed = false;
	sp->w.to_mem = true; /* from here on, as if it had never compressed */
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
	if (s->file)
		close(s->fd);
	free(s->dir);
	pt_vec_free(&s->z);
	free(s->w.mem);
	free(s->w.pbuf);
	free(s->w.cbuf);
	free(s->tx);
	free(s->last);
	free(s);
}

int pt_ptm_write(const struct pt_model *m, struct pt_out *o, bool compress, int jobs, struct pt_err **e)
{
	struct pt_spill *sp = m->events.spill;
	if (sp && sp->taken)
		return pt_err(e, "the spilled events of this model were written once and are gone");
	/* read back: written plain; a plain file spill written plain is copied from its file (write_events) */
	if (sp && (sp->sealed || (sp->plain_file && compress)) && pt_ptm_spill_inflate(sp, e))
		return -1;
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
	} else if (!(sp && sp->plain_file) && pt_ptm_spill_inflate(sp, e)) { /* a compressing spill, written plain */
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
	pt_ptm_write_cupti(w, m);
	pt_ptm_write_aicore(w, m);
	pt_ptm_write_memory(w, m);
	pt_ptm_write_hccl(w, m);
	pt_ptm_write_samples(w, m);
	pt_ptm_write_minddata(w, m);

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
	pt_ptm_put_chunk(w, &fc, false);

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
