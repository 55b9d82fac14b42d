/* Reading the .ptm model file, streamed chunk by chunk (see ptm.h). */
#include "model/ptm.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "model/model.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/xalloc.h"

struct reader {
	int fd;
	const char *name;
	bool compressed;
	z_stream z;
	bool zend;
	uint8_t *in;   /* raw file bytes */
	size_t in_cap, in_len, in_pos;
	bool in_eof;
	uint64_t body_off; /* uncompressed body offset consumed */
	uint32_t crc;
};

/* Fill raw input; returns 0 ok, -1 error. */
static int fill_in(struct reader *r, struct pt_err **e)
{
	if (r->in_pos < r->in_len || r->in_eof)
		return 0;
	r->in_pos = r->in_len = 0;
	for (;;) {
		ssize_t n = read(r->fd, r->in, r->in_cap);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return pt_err_errno(e, errno, "cannot read '%s'", r->name);
		}
		if (!n)
			r->in_eof = true;
		r->in_len = (size_t)n;
		return 0;
	}
}

/* Read exactly n body bytes into p; returns 1 ok, 0 clean end before any byte, -1 error/truncation. */
static int body_read(struct reader *r, uint8_t *p, size_t n, struct pt_err **e)
{
	size_t got = 0;
	while (got < n) {
		if (fill_in(r, e))
			return -1;
		if (!r->compressed) {
			size_t k = r->in_len - r->in_pos;
			if (!k)
				break;
			if (k > n - got)
				k = n - got;
			memcpy(p + got, r->in + r->in_pos, k);
			r->in_pos += k;
			got += k;
			continue;
		}
		if (r->zend)
			break;
		r->z.next_in = r->in + r->in_pos;
		r->z.avail_in = (uInt)(r->in_len - r->in_pos);
		r->z.next_out = p + got;
		r->z.avail_out = (uInt)(n - got);
		int zr = inflate(&r->z, Z_NO_FLUSH);
		got = n - r->z.avail_out;
		r->in_pos = r->in_len - r->z.avail_in;
		if (zr == Z_STREAM_END) {
			r->zend = true;
		} else if (zr == Z_BUF_ERROR && r->in_eof && r->in_pos == r->in_len) {
			break;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return pt_err(e, "'%s': corrupt compressed data near body offset %" PRIu64 " (%s)", r->name,
				      r->body_off + got, r->z.msg ? r->z.msg : "zlib error");
		}
	}
	if (got < n) {
		if (!got)
			return 0;
		return pt_err(e, "'%s': truncated model at body offset %" PRIu64, r->name, r->body_off + got);
	}
	r->body_off += n;
	return 1;
}

struct ids {
	size_t nstrings, ndevices, ntracks, nops;
};

#define BAD(...) do { rc = pt_err(e, __VA_ARGS__); goto out; } while (0)

static char *dupz(const char *s)
{
	return s && *s ? pt_xstrdup(s) : NULL;
}

static int apply(struct pt_model *m, const Proftool__Chunk *c, struct ids *ids, const char *name, uint64_t off,
		 bool *footer, uint32_t crc, struct pt_err **e)
{
	int rc = 0;
#define CHECK(cond, what) do { if (!(cond)) BAD("'%s': invalid %s in the chunk at body offset %" PRIu64, name, what, off); } while (0)
	switch (c->body_case) {
	case PROFTOOL__CHUNK__BODY_HEADER:
		if (c->header->format_version > PT_PTM_VERSION)
			BAD("'%s': model format version %" PRIu32 " is newer than this proftool reads (%d)", name,
			    c->header->format_version, PT_PTM_VERSION);
		free(m->producer);
		m->producer = pt_xstrdup(c->header->producer);
		break;
	case PROFTOOL__CHUNK__BODY_SOURCE: {
		const Proftool__Source *s = c->source;
		struct pt_source src = { pt_xstrdup(s->path), s->size, pt_xstrdup(s->importer),
					 pt_xstrdup(s->importer_version), s->device };
		pt_vec_push(&m->sources, src);
		break;
	}
	case PROFTOOL__CHUNK__BODY_STRINGS:
		for (size_t i = 0; i < c->strings->n_s; i++) {
			uint32_t id = pt_strtab_intern(&m->strings, (const char *)c->strings->s[i].data,
						       c->strings->s[i].len);
			CHECK(id == ids->nstrings || (ids->nstrings == 0 && id == 0), "string table (duplicate string)");
			ids->nstrings++;
		}
		break;
	case PROFTOOL__CHUNK__BODY_DEVICE: {
		const Proftool__Device *p = c->device;
		struct pt_device d;
		memset(&d, 0, sizeof(d));
		d.id = p->id;
		d.kind = (enum pt_device_kind)p->kind;
		d.name = dupz(p->name);
		d.freq_khz = p->freq_khz;
		d.freq_origin = (enum pt_freq_origin)p->freq_origin;
		d.peak_flops = p->peak_flops;
		d.ai_core_num = p->ai_core_num;
		d.aic_freq_khz = p->aic_freq_khz;
		d.clock = dupz(p->clock);
		for (size_t j = 0; j < p->n_offsets; j++) {
			struct pt_clock_offset o = { pt_xstrdup(p->offsets[j]->from), pt_xstrdup(p->offsets[j]->to),
						     p->offsets[j]->offset_ns };
			pt_vec_push(&d.offsets, o);
		}
		d.framework_era = dupz(p->framework_era);
		d.framework_backend = dupz(p->framework_backend);
		d.dtype_table = dupz(p->dtype_table);
		d.dtype_table_origin = dupz(p->dtype_table_origin);
		d.dynamic_shape = p->dynamic_shape;
		d.step_end_tag = p->step_end_tag;
		d.pid = p->pid;
		d.rank = p->rank;
		d.sm_count = p->sm_count;
		d.mem_bytes = p->mem_bytes;
		d.cc_major = p->cc_major;
		d.cc_minor = p->cc_minor;
		d.mem_bandwidth_kbs = p->mem_bandwidth_kbs;
		pt_vec_push(&m->devices, d);
		ids->ndevices++;
		break;
	}
	case PROFTOOL__CHUNK__BODY_TRACK: {
		const Proftool__Track *p = c->track;
		CHECK(p->device < ids->ndevices && p->name < ids->nstrings, "track");
		struct pt_track t = { p->device, (enum pt_track_kind)p->kind, p->stream, p->name };
		pt_vec_push(&m->tracks, t);
		ids->ntracks++;
		break;
	}
	case PROFTOOL__CHUNK__BODY_OP: {
		const Proftool__Op *p = c->op;
		CHECK(p->device < ids->ndevices && p->name < ids->nstrings && p->short_name < ids->nstrings &&
			      p->type < ids->nstrings, "op");
		struct pt_op op;
		memset(&op, 0, sizeof(op));
		op.device = p->device;
		op.name = p->name;
		op.short_name = p->short_name;
		op.type = p->type;
		op.block_dim = p->block_dim;
		op.task_type = p->task_type;
		op.has_graph = p->has_graph;
		for (size_t j = 0; j < p->n_tensors; j++) {
			const Proftool__Tensor *t = p->tensors[j];
			if (t->format >= ids->nstrings || t->dtype >= ids->nstrings || t->n_shape > UINT32_MAX) {
				uint32_t k = pt_model_add_op(m, &op);
				(void)k;
				BAD("'%s': invalid tensor in the chunk at body offset %" PRIu64, name, off);
			}
			pt_op_add_tensor(&op, t->output, t->index, t->format, t->dtype_code, t->dtype, t->shape,
					 (uint32_t)t->n_shape);
		}
		for (size_t j = 0; j < p->n_task_keys; j++)
			pt_vec_push(&op.task_keys, pt_xstrdup(p->task_keys[j]));
		pt_model_add_op(m, &op);
		ids->nops++;
		break;
	}
	case PROFTOOL__CHUNK__BODY_STEP: {
		const Proftool__Step *p = c->step;
		CHECK(p->device < ids->ndevices, "step");
		struct pt_step st;
		memset(&st, 0, sizeof(st));
		st.device = p->device;
		st.step = p->step;
		st.has = p->has;
		st.start = p->start;
		st.start_tag = p->start_tag;
		st.fp = p->fp;
		st.bp = p->bp;
		st.end = p->end;
		for (size_t j = 0; j < p->n_comm; j++) {
			const Proftool__CommInterval *ci = p->comm[j];
			if (ci->name >= ids->nstrings || ci->type >= ids->nstrings) {
				pt_vec_free(&st.comm);
				BAD("'%s': invalid step in the chunk at body offset %" PRIu64, name, off);
			}
			struct pt_comm cm = { ci->stream, ci->tag, ci->start, ci->end, ci->name, ci->type };
			pt_vec_push(&st.comm, cm);
		}
		pt_model_add_step(m, &st);
		break;
	}
	case PROFTOOL__CHUNK__BODY_AICPU: {
		const Proftool__AicpuOp *p = c->aicpu;
		CHECK(p->device < ids->ndevices && p->name < ids->nstrings, "AI CPU op");
		struct pt_aicpu a = { p->device, p->serial, p->name, p->has, p->start, p->end,
				      p->total_ns, p->dispatch_ns, p->event };
		pt_model_add_aicpu(m, &a);
		break;
	}
	case PROFTOOL__CHUNK__BODY_STAT: {
		const Proftool__Stat *p = c->stat;
		struct pt_stat st = { p->device, pt_xstrdup(p->key), p->value };
		pt_vec_push(&m->stats, st);
		break;
	}
	case PROFTOOL__CHUNK__BODY_EVENTS: {
		const Proftool__EventBatch *b = c->events;
		size_t n = b->n_track;
		CHECK(b->n_name == n && b->n_kind == n && b->n_start_delta == n && b->n_dur == n &&
			      (b->n_corr == n || !b->n_corr) && (b->n_op == n || !b->n_op) &&
			      (b->n_task == n || !b->n_task) && b->quantum <= INT64_MAX,
		      "event batch (column lengths differ)");
		int64_t q = b->quantum ? (int64_t)b->quantum : 1;
		struct pt_events *ev = &m->events;
		pt_events_reserve(ev, ev->n + n);
		uint64_t tq = 0; /* start / quantum, accumulated modulo 2^64 */
		for (size_t i = 0; i < n; i++) {
			uint32_t op = b->n_op ? b->op[i] : 0;
			CHECK(b->track[i] < ids->ntracks && b->name[i] < ids->nstrings && b->kind[i] < 256 &&
				      op <= ids->nops, "event");
			tq += (uint64_t)b->start_delta[i];
			size_t k = ev->n + i;
			ev->track[k] = b->track[i];
			ev->name[k] = b->name[i];
			ev->kind[k] = (uint8_t)b->kind[i];
			ev->start[k] = (int64_t)(tq * (uint64_t)q); /* no signed overflow on hostile input */
			ev->dur[k] = (int64_t)((uint64_t)b->dur[i] * (uint64_t)q);
			ev->corr[k] = b->n_corr ? b->corr[i] : 0;
			ev->op[k] = op;
			ev->task[k] = b->n_task ? b->task[i] : 0;
		}
		ev->n += n;
		break;
	}
	case PROFTOOL__CHUNK__BODY_QUEUES: {
		const Proftool__QueueBatch *b = c->queues;
		size_t n = b->n_track;
		CHECK(b->n_time == n && b->n_size == n && b->n_capacity == n, "queue batch");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->track[i] < ids->ntracks, "queue sample");
			pt_model_add_queue_sample(m, b->track[i], b->time[i], b->size[i], b->capacity[i]);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_COUNTERS: {
		const Proftool__CounterBatch *b = c->counters;
		size_t n = b->n_track;
		CHECK(b->n_time == n && b->n_value == n, "counter batch");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->track[i] < ids->ntracks, "counter sample");
			pt_model_add_counter_sample(m, b->track[i], b->time[i], b->value[i]);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_MD_OP: {
		const Proftool__MdOp *p = c->md_op;
		CHECK(p->device < ids->ndevices && p->type < ids->nstrings && p->queue_track <= ids->ntracks &&
			      (p->queue_track != 0) == p->has_queue, "MindData op");
		struct pt_md_op op;
		memset(&op, 0, sizeof(op));
		op.device = p->device;
		op.op_id = p->op_id;
		op.type = p->type;
		op.num_workers = p->num_workers;
		op.sampling_interval_ns = p->sampling_interval_ns;
		op.has_queue = p->has_queue;
		op.queue_capacity = p->queue_capacity;
		op.queue_track = p->queue_track ? p->queue_track - 1 : PT_NONE;
		op.order = p->order;
		for (size_t j = 0; j < p->n_children; j++)
			pt_vec_push(&op.children, p->children[j]);
		pt_model_add_md_op(m, &op);
		break;
	}
	case PROFTOOL__CHUNK__BODY_MD_RECORDS: {
		const Proftool__MdRecordBatch *b = c->md_records;
		size_t n = b->n_device;
		CHECK(b->n_file == n && b->n_type == n && b->n_extra == n && b->n_batch == n && b->n_value == n &&
			      b->n_time == n, "MindData record batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices && b->file[i] <= 1 && b->type[i] <= 1, "MindData record");
			struct pt_md_record r = { b->device[i], (uint8_t)b->file[i], (uint8_t)b->type[i], b->extra[i],
						  b->batch[i], b->value[i], b->time[i] };
			pt_model_add_md_record(m, &r);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_KERNELS: {
		const Proftool__KernelInfoBatch *b = c->kernels;
		size_t n = b->n_event;
		CHECK(b->n_grid_x == n && b->n_grid_y == n && b->n_grid_z == n && b->n_block_x == n &&
			      b->n_block_y == n && b->n_block_z == n && b->n_registers == n && b->n_static_smem == n &&
			      b->n_dynamic_smem == n && b->n_graph_id == n, "kernel batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->event[i] < m->events.n && m->events.kind[b->event[i]] == PT_EV_KERNEL, "kernel info");
			struct pt_kernel_info k = { b->event[i], { b->grid_x[i], b->grid_y[i], b->grid_z[i] },
						    { b->block_x[i], b->block_y[i], b->block_z[i] }, b->registers[i],
						    b->static_smem[i], b->dynamic_smem[i], b->graph_id[i] };
			pt_vec_push(&m->kernels, k);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_COPIES: {
		const Proftool__CopyInfoBatch *b = c->copies;
		size_t n = b->n_event;
		CHECK(b->n_copy_kind == n && b->n_src_kind == n && b->n_dst_kind == n && b->n_bytes == n &&
			      b->n_src_device == n && b->n_dst_device == n, "copy batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->event[i] < m->events.n && b->copy_kind[i] < 256 && b->src_kind[i] < 256 &&
				      b->dst_kind[i] < 256, "copy info");
			struct pt_copy_info ci = { b->event[i], (uint8_t)b->copy_kind[i], (uint8_t)b->src_kind[i],
						   (uint8_t)b->dst_kind[i], b->bytes[i], b->src_device[i],
						   b->dst_device[i] };
			pt_vec_push(&m->copies, ci);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_LINKS: {
		const Proftool__GpuLinkBatch *b = c->links;
		size_t n = b->n_event;
		CHECK(b->n_api == n && b->n_range == n, "link batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->event[i] < m->events.n && b->api[i] < m->events.n && b->range[i] <= m->events.n,
			      "GPU link");
			struct pt_gpu_link l = { b->event[i], b->api[i], b->range[i] };
			pt_vec_push(&m->links, l);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_EXT_CORR: {
		const Proftool__ExtCorrBatch *b = c->ext_corr;
		size_t n = b->n_device;
		CHECK(b->n_kind == n && b->n_corr == n && b->n_id == n, "external correlation batch");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices, "external correlation");
			struct pt_ext_corr x = { b->device[i], b->kind[i], b->corr[i], b->id[i] };
			pt_vec_push(&m->ext_corr, x);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_RANGE: {
		const Proftool__RangeInfo *p = c->range;
		CHECK(p->event < m->events.n && p->type < ids->nstrings && p->label < ids->nstrings &&
			      p->domain < ids->nstrings && p->parent <= m->events.n, "range info");
		struct pt_range_info r = { p->event, p->type, p->label, p->domain, p->parent, p->id, p->flags };
		pt_vec_push(&m->ranges, r);
		break;
	}
	case PROFTOOL__CHUNK__BODY_FOOTER: {
		const Proftool__Footer *f = c->footer;
		if (f->crc32 != crc)
			BAD("'%s': checksum mismatch (model says %08" PRIx32 ", content gives %08" PRIx32 ")", name,
			    f->crc32, crc);
		if (f->n_strings != m->strings.n || f->n_devices != m->devices.n || f->n_tracks != m->tracks.n ||
		    f->n_events != m->events.n || f->n_ops != m->ops.n || f->n_steps != m->steps.n ||
		    f->n_queue_samples != m->queues.n || f->n_counter_samples != m->counters.n ||
		    f->n_stats != m->stats.n || f->n_sources != m->sources.n || f->n_aicpu != m->aicpu.n)
			BAD("'%s': the footer's counts do not match the content", name);
		*footer = true;
		break;
	}
	default:
		/* an unknown chunk from a newer minor writer: skipped */
		break;
	}
out:
#undef CHECK
	return rc;
}

int pt_ptm_read_fd(int fd, const char *name, struct pt_model **mp, struct pt_err **e)
{
	struct reader r;
	memset(&r, 0, sizeof(r));
	r.fd = fd;
	r.name = name;
	r.in_cap = 1 << 20;
	r.in = pt_xmalloc(r.in_cap);
	r.crc = (uint32_t)crc32(0, NULL, 0);
	struct pt_model *m = pt_model_new();
	uint8_t *chunk = NULL;
	size_t chunk_cap = 0;
	int rc = 0;

	/* header: 16 raw bytes */
	uint8_t hdr[16];
	size_t got = 0;
	while (got < sizeof(hdr)) {
		if (fill_in(&r, e)) {
			rc = -1;
			goto out;
		}
		size_t k = r.in_len - r.in_pos;
		if (!k)
			break;
		if (k > sizeof(hdr) - got)
			k = sizeof(hdr) - got;
		memcpy(hdr + got, r.in + r.in_pos, k);
		r.in_pos += k;
		got += k;
	}
	if (got < sizeof(hdr) || memcmp(hdr, PT_PTM_MAGIC, PT_PTM_MAGIC_LEN))
		BAD("'%s': not a proftool model (bad magic at offset 0)", name);
	uint32_t ver = (uint32_t)hdr[8] | (uint32_t)hdr[9] << 8 | (uint32_t)hdr[10] << 16 | (uint32_t)hdr[11] << 24;
	uint32_t flags = (uint32_t)hdr[12] | (uint32_t)hdr[13] << 8 | (uint32_t)hdr[14] << 16 | (uint32_t)hdr[15] << 24;
	if (ver > PT_PTM_VERSION)
		BAD("'%s': model format version %" PRIu32 " is newer than this proftool reads (%d)", name, ver,
		    PT_PTM_VERSION);
	if (ver == 0 || (flags & ~PT_PTM_FLAG_ZLIB))
		BAD("'%s': unsupported model header at offset 8", name);
	r.compressed = flags & PT_PTM_FLAG_ZLIB;
	if (r.compressed && inflateInit(&r.z) != Z_OK)
		BAD("cannot initialise zlib");

	struct ids ids = { 0, 0, 0, 0 };
	bool footer = false;
	while (!footer) {
		uint64_t off = r.body_off;
		uint32_t crc_before = r.crc;
		uint64_t len = 0;
		uint8_t vb[10];
		int shift = 0, nb = 0;
		for (;;) {
			int k = body_read(&r, &vb[nb], 1, e);
			if (k < 0) {
				rc = -1;
				goto out;
			}
			if (!k)
				BAD("'%s': truncated model: no footer (body ends at offset %" PRIu64 ")", name, r.body_off);
			len |= (uint64_t)(vb[nb] & 0x7f) << shift;
			if (!(vb[nb++] & 0x80))
				break;
			shift += 7;
			if (nb >= 10)
				BAD("'%s': corrupt chunk length at body offset %" PRIu64, name, off);
		}
		if (len > PT_PTM_MAX_CHUNK)
			BAD("'%s': chunk length %" PRIu64 " at body offset %" PRIu64 " exceeds the limit of %u bytes", name,
			    len, off, PT_PTM_MAX_CHUNK);
		pt_xgrow((void **)&chunk, &chunk_cap, len ? len : 1, 1);
		int k = len ? body_read(&r, chunk, len, e) : 1;
		if (k < 0) {
			rc = -1;
			goto out;
		}
		if (!k)
			BAD("'%s': truncated model at body offset %" PRIu64, name, r.body_off);
		r.crc = (uint32_t)crc32(r.crc, vb, (uInt)nb);
		r.crc = (uint32_t)crc32(r.crc, chunk, (uInt)len);
		Proftool__Chunk *c = proftool__chunk__unpack(NULL, len, chunk);
		if (!c)
			BAD("'%s': corrupt chunk at body offset %" PRIu64, name, off);
		rc = apply(m, c, &ids, name, off, &footer, crc_before, e);
		proftool__chunk__free_unpacked(c, NULL);
		if (rc)
			goto out;
	}
	/* nothing may follow the footer */
	uint8_t extra;
	int k = body_read(&r, &extra, 1, e);
	if (k < 0) {
		rc = -1;
		goto out;
	}
	if (k > 0)
		BAD("'%s': unexpected data after the footer at body offset %" PRIu64, name, r.body_off - 1);
out:
	if (r.compressed)
		inflateEnd(&r.z);
	free(chunk);
	free(r.in);
	if (rc) {
		pt_model_free(m);
		*mp = NULL;
	} else {
		*mp = m;
	}
	return rc;
}

int pt_ptm_read(const char *path, struct pt_model **m, struct pt_err **e)
{
	if (!strcmp(path, "-"))
		return pt_ptm_read_fd(0, "standard input", m, e);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pt_err_errno(e, errno, "cannot open '%s'", path);
	int rc = pt_ptm_read_fd(fd, path, m, e);
	close(fd);
	return rc;
}

bool pt_ptm_probe(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char b[PT_PTM_MAGIC_LEN];
	ssize_t n = read(fd, b, sizeof(b));
	close(fd);
	return n == PT_PTM_MAGIC_LEN && !memcmp(b, PT_PTM_MAGIC, PT_PTM_MAGIC_LEN);
}
