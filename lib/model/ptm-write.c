/* Writing the .ptm model file, streamed chunk by chunk (see ptm.h). */
#include "model/ptm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/model.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/out.h"
#include "support/xalloc.h"

struct writer {
	struct pt_out *o;
	bool compress;
	z_stream z;
	uint8_t *zbuf;
	size_t zcap;
	uint8_t *pbuf; /* packed chunk */
	size_t pcap;
	uint32_t crc;
	int zerr;
};

static void emit(struct writer *w, const uint8_t *p, size_t n, bool count_crc)
{
	if (count_crc)
		w->crc = (uint32_t)crc32(w->crc, p, (uInt)n);
	if (!w->compress) {
		pt_out_write(w->o, p, n);
		return;
	}
	w->z.next_in = (Bytef *)p;
	w->z.avail_in = (uInt)n;
	while (w->z.avail_in && !w->zerr) {
		w->z.next_out = w->zbuf;
		w->z.avail_out = (uInt)w->zcap;
		if (deflate(&w->z, Z_NO_FLUSH) == Z_STREAM_ERROR)
			w->zerr = 1;
		pt_out_write(w->o, w->zbuf, w->zcap - w->z.avail_out);
	}
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
		pd.dtype_table = s(d->dtype_table);
		pd.dtype_table_origin = s(d->dtype_table_origin);
		pd.dynamic_shape = d->dynamic_shape;
		pd.step_end_tag = d->step_end_tag;
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

static void write_events(struct writer *w, const struct pt_model *m)
{
	const struct pt_events *ev = &m->events;
	uint32_t kind[PT_PTM_EVENT_BATCH];
	int64_t delta[PT_PTM_EVENT_BATCH];
	for (size_t b = 0; b < ev->n; b += PT_PTM_EVENT_BATCH) {
		size_t n = ev->n - b < PT_PTM_EVENT_BATCH ? ev->n - b : PT_PTM_EVENT_BATCH;
		int64_t prev = 0;
		for (size_t i = 0; i < n; i++) {
			kind[i] = ev->kind[b + i];
			delta[i] = (int64_t)((uint64_t)ev->start[b + i] - (uint64_t)prev);
			prev = ev->start[b + i];
		}
		Proftool__EventBatch pb = PROFTOOL__EVENT_BATCH__INIT;
		pb.n_track = pb.n_name = pb.n_kind = pb.n_start_delta = pb.n_dur = pb.n_corr = pb.n_op = pb.n_task = n;
		pb.track = ev->track + b;
		pb.name = ev->name + b;
		pb.kind = kind;
		pb.start_delta = delta;
		pb.dur = ev->dur + b;
		pb.corr = ev->corr + b;
		pb.op = ev->op + b;
		pb.task = ev->task + b;
		CHUNK(events, EVENTS, &pb);
	}
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

int pt_ptm_write(const struct pt_model *m, struct pt_out *o, bool compress, struct pt_err **e)
{
	struct writer w_, *w = &w_;
	memset(w, 0, sizeof(*w));
	w->o = o;
	w->compress = compress;
	w->crc = (uint32_t)crc32(0, NULL, 0);
	uint8_t hdr[16];
	memcpy(hdr, PT_PTM_MAGIC, 8);
	uint32_t ver = PT_PTM_VERSION, flags = compress ? PT_PTM_FLAG_ZLIB : 0;
	for (int i = 0; i < 4; i++) {
		hdr[8 + i] = (uint8_t)(ver >> (8 * i));
		hdr[12 + i] = (uint8_t)(flags >> (8 * i));
	}
	pt_out_write(o, hdr, sizeof(hdr));
	if (compress) {
		if (deflateInit(&w->z, 1) != Z_OK)
			return pt_err(e, "cannot initialise zlib");
		w->zcap = 256 * 1024;
		w->zbuf = pt_xmalloc(w->zcap);
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
	write_events(w, m);
	write_samples(w, m);

	Proftool__Footer pf = PROFTOOL__FOOTER__INIT;
	pf.n_strings = st->n;
	pf.n_devices = m->devices.n;
	pf.n_tracks = m->tracks.n;
	pf.n_events = m->events.n;
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

	int rc = 0;
	if (compress) {
		int zr;
		do {
			w->z.next_out = w->zbuf;
			w->z.avail_out = (uInt)w->zcap;
			zr = deflate(&w->z, Z_FINISH);
			pt_out_write(o, w->zbuf, w->zcap - w->z.avail_out);
		} while (zr == Z_OK);
		if (zr != Z_STREAM_END || w->zerr)
			rc = pt_err(e, "zlib compression failed");
		deflateEnd(&w->z);
	}
	free(w->zbuf);
	free(w->pbuf);
	return rc;
}
