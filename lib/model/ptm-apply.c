/* Applying a decoded .ptm chunk to the model, every index checked first (see ptm-apply.h). */
#include "model/ptm-apply.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu-mem-pack.h"
#include "model/ptm-columns.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/xalloc.h"

/* The code of event i (i checked) of a read that keeps no events. */
static uint32_t ev_code(const struct ids *ids, uint64_t i)
{
	unsigned b = ids->kbits;
	if (b >= 8) {
		const uint8_t *p = ids->kcode + i * (b / 8);
		uint32_t c = 0;
		for (unsigned k = 0; k < b / 8; k++)
			c |= (uint32_t)p[k] << (8 * k);
		return c;
	}
	uint64_t bit = i * b;
	return (uint32_t)(ids->kcode[bit / 8] >> (bit % 8)) & ((1u << b) - 1);
}

static void set_code(uint8_t *v, unsigned b, uint64_t i, uint32_t c)
{
	if (b >= 8) {
		for (unsigned k = 0; k < b / 8; k++)
			v[i * (b / 8) + k] = (uint8_t)(c >> (8 * k));
		return;
	}
	uint64_t bit = i * b;
	uint8_t mask = (uint8_t)(((1u << b) - 1) << (bit % 8));
	v[bit / 8] = (uint8_t)((v[bit / 8] & ~mask) | ((c << (bit % 8)) & mask));
}

/* The track of event i (i checked), in a read that keeps events or not. */
static uint32_t ev_track(const struct pt_model *m, const struct ids *ids, uint64_t i)
{
	if (!ids->skip)
		return m->events.track[i];
	return ids->kpair[ev_code(ids, i)].track;
}

/* Is i the index of an event of kind k (k < 0: any kind) for a CUPTI side
 * table? A read that keeps no events (ids->skip) asks what it kept of them. */
static bool ev_ref(const struct pt_model *m, const struct ids *ids, uint64_t i, int k)
{
	if (ids->skip)
		return i < ids->nevents && (k < 0 || ids->kpair[ev_code(ids, i)].kind == k);
	return i < m->events.n && (k < 0 || m->events.kind[i] == k);
}

/* The device of event i (i checked). */
static const struct pt_device *ev_device(const struct pt_model *m, const struct ids *ids, uint64_t i)
{
	return &m->devices.v[m->tracks.v[ev_track(m, ids, i)].device];
}

/*
 * A GPU link joins a device activity to the runtime call that launched it
 * and that call's host range: the call and the range belong to the host
 * (CPU) device of the activity's process (the same pid). Passes index their
 * per-process tables with these links.
 */
static bool link_ok(const struct pt_model *m, const struct ids *ids, uint32_t event, uint32_t api, uint32_t range)
{
	const struct pt_device *g = ev_device(m, ids, event), *h = ev_device(m, ids, api);
	if (g->kind != PT_DEV_GPU || h->kind != PT_DEV_CPU || g->pid != h->pid)
		return false;
	return !range || ev_device(m, ids, range - 1) == h;
}

/* Are events i and j (checked) on one track? */
static bool same_track(const struct pt_model *m, const struct ids *ids, uint64_t i, uint64_t j)
{
	return ev_track(m, ids, i) == ev_track(m, ids, j);
}

/* The code of the pair (kind, track), added to the pairs when new. */
static uint32_t kpair_code(struct ids *ids, uint8_t kind, uint32_t track)
{
	uint64_t key = kind | (uint64_t)track << 8;
	if (ids->nkpair && key == ids->klast)
		return ids->klast_code;
	size_t slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 58);
	if (ids->kc_key[slot] == key + 1) {
		ids->klast = key;
		return ids->klast_code = ids->kc_code[slot];
	}
	if (!ids->nkpair)
		pt_hashmap_init(&ids->kpmap);
	bool added;
	uint64_t *v = pt_hashmap_put(&ids->kpmap, key, ids->nkpair, &added);
	if (added) {
		pt_xgrow((void **)&ids->kpair, &ids->kpcap, ids->nkpair + 1, sizeof(*ids->kpair));
		ids->kpair[ids->nkpair++] = (struct kpair){ track, kind };
	}
	ids->klast = key;
	ids->klast_code = (uint32_t)*v;
	ids->kc_key[slot] = key + 1;
	ids->kc_code[slot] = ids->klast_code;
	return ids->klast_code;
}

/* What a skipping read keeps of the n events just applied at the end of ev:
 * the code of their kind and track, in as few bits as the distinct pairs need
 * (a CUPTI model has a few dozen: 4 to 8 bits an event). */
static void kbits_add(struct ids *ids, const struct pt_events *ev, size_t n)
{
	uint64_t i0 = ids->nevents;
	uint32_t code[PT_PTM_EVENT_BATCH];
	for (size_t k = 0; k < n; k++)
		code[k] = kpair_code(ids, ev->kind[ev->n - n + k], ev->track[ev->n - n + k]);
	unsigned b = ids->kbits ? ids->kbits : 1;
	while (b < 32 && ids->nkpair > (size_t)1 << b)
		b *= 2;
	pt_xgrow((void **)&ids->kcode, &ids->kcap, (size_t)(((i0 + n) * b + 7) / 8), 1);
	if (b != ids->kbits && i0) { /* more pairs than the width held: widen, from the end */
		for (uint64_t i = i0; i-- > 0;)
			set_code(ids->kcode, b, i, ev_code(ids, i));
	}
	ids->kbits = b;
	for (size_t k = 0; k < n; k++)
		set_code(ids->kcode, b, i0 + k, code[k]);
}

/* Chunks that refer to names, devices, tracks and ops are checked against m's. */
void pt_ptm_ids_of(struct ids *ids, const struct pt_model *m)
{
	ids->nstrings = m->strings.n;
	ids->ndevices = m->devices.n;
	ids->ntracks = m->tracks.n;
	ids->nops = m->ops.n;
}

/* A uint32 column written either plainly (format 1) or as differences within
 * its batch (format 2, at most one of the two present): *out gets the values,
 * decoded into buf when needed. False when a decoded value leaves uint32. */
static bool undelta(const uint32_t *plain, size_t np, const int64_t *d, size_t nd, struct u32buf *buf,
		    const uint32_t **out)
{
	if (!nd) {
		*out = plain;
		return true;
	}
	if (np)
		return false;
	pt_xgrow((void **)&buf->v, &buf->cap, nd, sizeof(uint32_t));
	int64_t v = 0;
	for (size_t i = 0; i < nd; i++) {
		if (d[i] < -(int64_t)UINT32_MAX || d[i] > (int64_t)UINT32_MAX)
			return false;
		v += d[i];
		if (v < 0 || v > (int64_t)UINT32_MAX)
			return false;
		buf->v[i] = (uint32_t)v;
	}
	*out = buf->v;
	return true;
}

#define BAD(...) do { rc = pt_err(e, __VA_ARGS__); goto out; } while (0)

static char *dupz(const char *s)
{
	return s && *s ? pt_xstrdup(s) : NULL;
}

/*
 * The columns of event batch b appended to ev (room reserved), column by
 * column. 0, or 1 when an event refers to a missing track, name or op, to
 * an op of another device than its track's (or has a kind beyond 255), 2 when its start or duration leaves the model's
 * time range (model.h): whichever the first bad event breaks first, as a
 * check event by event would find.
 */
static int events_apply(struct pt_events *ev, const Proftool__EventBatch *b, const struct ids *ids, int64_t q,
			const struct pt_track *tracks, const struct pt_op *ops)
{
	size_t n = b->n_track, k0 = ev->n, bad_id = n, bad_t = n;
	if (!n)
		return 0;
	const uint32_t *tr = b->track, *nm = b->name, *kd = b->kind, *op = b->op;
	/* a column left undecoded (pt_cols_chunk_some: NULL) is neither checked nor stored */
	for (size_t i = 0; i < n; i++)
		if (tr[i] >= ids->ntracks || (nm && nm[i] >= ids->nstrings) || kd[i] >= 256 ||
		    (op && b->n_op && (op[i] > ids->nops || (op[i] && ops[op[i] - 1].device != tracks[tr[i]].device)))) {
			bad_id = i;
			break;
		}
	uint32_t *ctr = ev->track + k0, *cnm = ev->name + k0;
	uint8_t *ckd = ev->kind + k0;
	int64_t *cst = ev->start + k0, *cdu = ev->dur + k0;
	memcpy(ctr, tr, n * sizeof(*tr));
	if (nm)
		memcpy(cnm, nm, n * sizeof(*nm));
	else
		memset(cnm, 0, n * sizeof(*cnm));
	for (size_t i = 0; i < n; i++)
		ckd[i] = (uint8_t)kd[i];
	uint64_t tq = 0; /* start / quantum, accumulated modulo 2^64 (no signed overflow on hostile input) */
	const int64_t *sd = b->start_delta, *du = b->dur;
	for (size_t i = 0; i < n; i++) {
		tq += (uint64_t)sd[i];
		cst[i] = (int64_t)(tq * (uint64_t)q);
	}
	if (du)
		for (size_t i = 0; i < n; i++)
			cdu[i] = (int64_t)((uint64_t)du[i] * (uint64_t)q);
	else
		memset(cdu, 0, n * sizeof(*cdu));
	/* the model's time range (model.h), which passes rely on for overflow-free sums */
	for (size_t i = 0; i < n && i < bad_id; i++)
		if (cst[i] < -PT_TIME_LIMIT || cst[i] > PT_TIME_LIMIT || cdu[i] < -PT_TIME_LIMIT || cdu[i] > PT_TIME_LIMIT) {
			bad_t = i;
			break;
		}
	if (bad_id < n || bad_t < n)
		return bad_id <= bad_t ? 1 : 2;
	if (ev->dense & PT_EVCOL_CORR) {
		uint64_t *cc = ev->corr + k0;
		if (b->n_corr && b->corr) {
			memcpy(cc, b->corr, n * sizeof(*cc));
		} else if (b->n_corr_delta && b->corr_delta) {
			uint64_t corr = 0; /* likewise modulo 2^64 */
			for (size_t i = 0; i < n; i++)
				cc[i] = corr += (uint64_t)b->corr_delta[i];
		} else {
			memset(cc, 0, n * sizeof(*cc));
		}
	}
	if (ev->dense & PT_EVCOL_OP) {
		if (b->n_op && op)
			memcpy(ev->op + k0, op, n * sizeof(*op));
		else
			memset(ev->op + k0, 0, n * sizeof(*op));
	}
	if (ev->dense & PT_EVCOL_TASK) {
		if (b->n_task && b->task)
			memcpy(ev->task + k0, b->task, n * sizeof(*b->task));
		else
			memset(ev->task + k0, 0, n * sizeof(*b->task));
	}
	return 0;
}

int pt_ptm_apply(struct pt_model *m, const Proftool__Chunk *c, struct ids *ids, const char *name, uint64_t off,
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
	case PROFTOOL__CHUNK__BODY_DEVICE: {
		const Proftool__Device *p = c->device;
		CHECK((unsigned)p->kind <= PT_DEV_CPU, "device kind");
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
		d.comm_backend = dupz(p->comm_backend);
		d.world_size = p->world_size > 0 ? p->world_size : 0;
		/* a value the importer could not have stored (negative, not finite) is not one */
		d.has_cpu_process = (p->cpu_util_set & 1) && p->cpu_process >= 0 && p->cpu_process < 1e300;
		d.has_cpu_system = (p->cpu_util_set & 2) && p->cpu_system >= 0 && p->cpu_system < 1e300;
		d.cpu_process = d.has_cpu_process ? p->cpu_process : 0;
		d.cpu_system = d.has_cpu_system ? p->cpu_system : 0;
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
		d.host = dupz(p->host);
		d.lim = (struct pt_gpu_limits){ p->max_threads_per_block, p->max_threads_per_sm, p->warp_size,
						p->regs_per_block, p->regs_per_sm, p->smem_per_block, p->smem_per_sm,
						p->smem_per_block_optin };
		pt_vec_push(&m->devices, d);
		ids->ndevices++;
		break;
	}
	case PROFTOOL__CHUNK__BODY_TRACK: {
		const Proftool__Track *p = c->track;
		CHECK(p->device < ids->ndevices && p->name < ids->nstrings && (unsigned)p->kind <= PT_TRACK_COUNTER, "track");
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
	case PROFTOOL__CHUNK__BODY_TRACK_EVENTS: {
		const Proftool__TrackEvents *p = c->track_events;
		size_t n = p->n_count;
		CHECK(n == ids->ntracks && !m->track_events.n && p->n_min_start == n && p->n_max_end == n &&
			      p->n_kinds == n && p->n_flags == n && p->n_with_op == n, "track events (one value per track)");
		for (size_t i = 0; i < n; i++) {
			struct pt_track_events x = { p->count[i], p->with_op[i], p->min_start[i], p->max_end[i],
						     p->kinds[i], p->flags[i] };
			pt_vec_push(&m->track_events, x);
		}
		/* a read that keeps the events can size their columns once the counts are near (model.h) */
		uint64_t total = m->events.n;
		for (size_t i = 0; i < n && total <= UINT32_MAX; i++)
			total += p->count[i] < UINT32_MAX ? p->count[i] : UINT32_MAX;
		ids->expect = !ids->batchwise && total <= UINT32_MAX ? (size_t)total : 0;
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
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_name == n && b->n_kind == n && b->n_start_delta == n && b->n_dur == n &&
			      (b->n_corr == n || !b->n_corr) && (b->n_corr_delta == n || !b->n_corr_delta) &&
			      !(b->n_corr && b->n_corr_delta) && (b->n_op == n || !b->n_op) &&
			      (b->n_task == n || !b->n_task) && b->quantum <= INT64_MAX,
		      "event batch (column lengths differ)");
		int64_t q = b->quantum ? (int64_t)b->quantum : 1;
		struct pt_events *ev = &m->events;
		/* the columns take the declared size once half of it has come:
		 * counts that overstate the events cost at most twice their room */
		ev->expect = ids->expect && ev->n + n >= ids->expect / 2 ? ids->expect : 0;
		pt_events_reserve(ev, ev->n + n);
		/* sparse columns (model.h): store only what the batch carries */
		if ((b->n_corr && b->corr) || (b->n_corr_delta && b->corr_delta))
			ev->dense |= PT_EVCOL_CORR;
		if (b->n_op && b->op)
			ev->dense |= PT_EVCOL_OP;
		if (b->n_task && b->task)
			ev->dense |= PT_EVCOL_TASK;
		int bad = events_apply(ev, b, ids, q, m->tracks.v, m->ops.v);
		CHECK(bad != 1, "event");
		CHECK(bad != 2, "event time (beyond 2^62 ns)");
		ev->n += n;
		if (ids->kinds)
			kbits_add(ids, ev, n);
		ids->nevents += n;
		break;
	}
	case PROFTOOL__CHUNK__BODY_QUEUES: {
		const Proftool__QueueBatch *b = c->queues;
		size_t n = b->n_track;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
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
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
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
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
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
		size_t n = b->n_event + b->n_event_delta;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		const uint32_t *event;
		CHECK(undelta(b->event, b->n_event, b->event_delta, b->n_event_delta, &ids->scratch[0], &event) &&
			      b->n_grid_x == n && b->n_grid_y == n && b->n_grid_z == n && b->n_block_x == n &&
			      b->n_block_y == n && b->n_block_z == n && b->n_registers == n && b->n_static_smem == n &&
			      b->n_dynamic_smem == n && b->n_graph_id == n, "kernel batch (column lengths differ)");
		bool keep = !ids->skip || ids->keep_kernels;
		if (keep)
			pt_vec_reserve(&m->kernels, m->kernels.n + n);
		for (size_t i = 0; i < n; i++) {
			CHECK(ev_ref(m, ids, event[i], PT_EV_KERNEL), "kernel info");
			if (!keep)
				continue;
			struct pt_kernel_config k = { { b->grid_x[i], b->grid_y[i], b->grid_z[i] },
						      { b->block_x[i], b->block_y[i], b->block_z[i] }, b->registers[i],
						      b->static_smem[i], b->dynamic_smem[i], b->graph_id[i] };
			pt_model_add_kernel(m, event[i], &k);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_COPIES: {
		const Proftool__CopyInfoBatch *b = c->copies;
		size_t n = b->n_event + b->n_event_delta;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		const uint32_t *event;
		CHECK(undelta(b->event, b->n_event, b->event_delta, b->n_event_delta, &ids->scratch[0], &event) &&
			      b->n_copy_kind == n && b->n_src_kind == n && b->n_dst_kind == n && b->n_bytes == n &&
			      b->n_src_device == n && b->n_dst_device == n, "copy batch (column lengths differ)");
		bool drop = ids->skip && ((!ids->keep_tables && !ids->keep_copies) || ids->drop_launch);
		if (!drop)
			pt_vec_reserve(&m->copies, m->copies.n + n);
		for (size_t i = 0; i < n; i++) {
			CHECK((ev_ref(m, ids, event[i], PT_EV_MEMCPY) || ev_ref(m, ids, event[i], PT_EV_MEMSET)) &&
				      b->copy_kind[i] < 256 && b->src_kind[i] < 256 &&
				      b->dst_kind[i] < 256, "copy info");
			if (drop)
				continue;
			struct pt_copy_info ci = { event[i], (uint8_t)b->copy_kind[i], (uint8_t)b->src_kind[i],
						   (uint8_t)b->dst_kind[i], b->bytes[i], b->src_device[i],
						   b->dst_device[i] };
			pt_vec_push(&m->copies, ci);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_LINKS: {
		const Proftool__GpuLinkBatch *b = c->links;
		size_t n = b->n_event + b->n_event_delta;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		const uint32_t *event, *api, *range;
		CHECK(undelta(b->event, b->n_event, b->event_delta, b->n_event_delta, &ids->scratch[0], &event) &&
			      undelta(b->api, b->n_api, b->api_delta, b->n_api_delta, &ids->scratch[1], &api) &&
			      undelta(b->range, b->n_range, b->range_delta, b->n_range_delta, &ids->scratch[2], &range) &&
			      b->n_api + b->n_api_delta == n && b->n_range + b->n_range_delta == n,
		      "link batch (column lengths differ)");
		bool drop = ids->skip && (((!ids->keep_tables || ids->no_links) && !ids->keep_links) ||
					 (ids->drop_launch && !ids->links_batchwise));
		if (!drop)
			pt_vec_reserve(&m->links, m->links.n + n);
		for (size_t i = 0; i < n; i++) {
			CHECK(ev_ref(m, ids, event[i], -1) && ev_ref(m, ids, api[i], PT_EV_API) &&
				      (!range[i] || ev_ref(m, ids, range[i] - 1, PT_EV_RANGE)) &&
				      link_ok(m, ids, event[i], api[i], range[i]),
			      "GPU link");
			if (drop)
				continue;
			struct pt_gpu_link l = { event[i], api[i], range[i] };
			pt_vec_push(&m->links, l);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_EXT_CORR: {
		const Proftool__ExtCorrBatch *b = c->ext_corr;
		size_t n = b->n_device;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_kind == n && b->n_corr == n && b->n_id == n, "external correlation batch");
		bool drop = ids->skip && (!ids->keep_tables || ids->no_ext_corr);
		if (!drop)
			pt_vec_reserve(&m->ext_corr, m->ext_corr.n + n);
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices, "external correlation");
			if (drop)
				continue;
			struct pt_ext_corr x = { b->device[i], b->kind[i], b->corr[i], b->id[i] };
			pt_vec_push(&m->ext_corr, x);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_API_CBIDS: {
		const Proftool__ApiCbidBatch *b = c->api_cbids;
		size_t n = b->n_name;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_cbid == n, "API cbid batch (column lengths differ)");
		pt_vec_reserve(&m->api_cbids, m->api_cbids.n + n);
		for (size_t i = 0; i < n; i++) {
			CHECK(b->name[i] < ids->nstrings, "API cbid");
			pt_model_add_api_cbid(m, b->name[i], b->cbid[i]);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_EVENT_ARGS: {
		const Proftool__EventArgBatch *b = c->event_args;
		size_t n = b->n_event_delta;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		const uint32_t *event;
		CHECK(undelta(NULL, 0, b->event_delta, n, &ids->scratch[0], &event) && b->n_key == n && b->n_value == n,
		      "event argument batch (column lengths differ)");
		bool drop = ids->skip && !ids->keep_args;
		if (!drop)
			pt_vec_reserve(&m->event_args, m->event_args.n + n);
		for (size_t i = 0; i < n; i++) {
			/* (counted here, not by m->event_args.n, which a batchwise read empties) */
			uint64_t nargs = ids->nargs, last = ids->last_arg;
			CHECK(ev_ref(m, ids, event[i], -1) && (!nargs || event[i] >= last) && b->key[i] < ids->nstrings &&
				      b->value[i] < ids->nstrings,
			      "event argument");
			ids->nargs++;
			ids->last_arg = event[i];
			if (drop)
				continue;
			struct pt_event_arg a = { event[i], b->key[i], b->value[i] };
			pt_vec_push(&m->event_args, a);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_SYNCS: {
		const Proftool__SyncInfoBatch *b = c->syncs;
		size_t n = b->n_event_delta;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		const uint32_t *event;
		CHECK(undelta(NULL, 0, b->event_delta, n, &ids->scratch[0], &event) && b->n_type == n &&
			      b->n_cuda_event_id == n && b->n_wait_stream == n && b->n_wait_corr == n,
		      "synchronization batch (column lengths differ)");
		bool drop = ids->skip && !ids->keep_tables;
		if (!drop)
			pt_vec_reserve(&m->syncs, m->syncs.n + n);
		for (size_t i = 0; i < n; i++) {
			uint64_t nsyncs = ids->nsyncs, last = ids->last_sync; /* (as the arguments) */
			CHECK(ev_ref(m, ids, event[i], PT_EV_SYNC) && (!nsyncs || event[i] > last),
			      "synchronization info");
			ids->nsyncs++;
			ids->last_sync = event[i];
			if (drop)
				continue;
			struct pt_sync_info s = { event[i], b->type[i], b->cuda_event_id[i], b->wait_stream[i],
						  b->wait_corr[i] };
			pt_vec_push(&m->syncs, s);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_RANGE: {
		const Proftool__RangeInfo *p = c->range;
		CHECK(ev_ref(m, ids, p->event, PT_EV_RANGE) && p->type < ids->nstrings && p->label < ids->nstrings &&
			      p->domain < ids->nstrings &&
			      (!p->parent || (ev_ref(m, ids, p->parent - 1, PT_EV_RANGE) && p->parent - 1 != p->event &&
					      same_track(m, ids, p->event, p->parent - 1))),
		      "range info");
		if (ids->skip && !ids->keep_ranges)
			break;
		struct pt_range_info r = { p->event, p->type, p->label, p->domain, p->parent, p->id, p->flags };
		pt_vec_push(&m->ranges, r);
		break;
	}
	case PROFTOOL__CHUNK__BODY_AICORE: {
		const Proftool__AicoreBatch *b = c->aicore;
		size_t n = b->n_device;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_op == n && b->n_stream == n && b->n_task == n && n <= SIZE_MAX / PT_AICORE_NPMU &&
			      b->n_pmu == n * PT_AICORE_NPMU, "AI Core batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices && b->op[i] <= ids->nops &&
				      (!b->op[i] || m->ops.v[b->op[i] - 1].device == b->device[i]),
			      "AI Core record");
			struct pt_aicore a = { b->device[i], b->op[i], b->stream[i], b->task[i], { 0 } };
			for (int k = 0; k < PT_AICORE_NPMU; k++)
				a.pmu[k] = b->pmu[i * PT_AICORE_NPMU + (size_t)k];
			pt_vec_push(&m->aicore, a);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_MEM_GRAPH: {
		const Proftool__MemGraph *p = c->mem_graph;
		CHECK(p->device < ids->ndevices && p->fp_start < ids->nstrings && p->bp_end < ids->nstrings,
		      "memory graph");
		struct pt_mem_graph g = { p->device, p->graph_id, p->static_mem, p->total_mem, p->fp_start, p->bp_end };
		pt_vec_push(&m->mem_graphs, g);
		break;
	}
	case PROFTOOL__CHUNK__BODY_MEM_NODES: {
		const Proftool__MemNodeBatch *b = c->mem_nodes;
		size_t n = b->n_graph, k = 0;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_name == n && b->n_node_id == n && b->n_n_out == n && b->n_n_ws == n,
		      "memory node batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->graph[i] < m->mem_graphs.n && b->name[i] < ids->nstrings &&
				      b->n_out[i] <= b->n_ids - k && b->n_ws[i] <= b->n_ids - k - b->n_out[i] &&
				      m->mem_ids.n + b->n_ids < UINT32_MAX, "memory node");
			struct pt_mem_node nd = { b->graph[i], b->name[i], b->node_id[i], (uint32_t)m->mem_ids.n,
						  b->n_out[i], 0, b->n_ws[i] };
			for (uint32_t j = 0; j < b->n_out[i]; j++)
				pt_vec_push(&m->mem_ids, b->ids[k++]);
			nd.ws0 = (uint32_t)m->mem_ids.n;
			for (uint32_t j = 0; j < b->n_ws[i]; j++)
				pt_vec_push(&m->mem_ids, b->ids[k++]);
			pt_vec_push(&m->mem_nodes, nd);
		}
		CHECK(k == b->n_ids, "memory node batch (id count)");
		break;
	}
	case PROFTOOL__CHUNK__BODY_MEM_TENSORS: {
		const Proftool__MemTensorBatch *b = c->mem_tensors;
		size_t n = b->n_graph;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_id == n && b->n_size == n && b->n_type == n && b->n_life_start == n && b->n_life_end == n &&
			      b->n_life_long == n, "memory tensor batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->graph[i] < m->mem_graphs.n && b->type[i] < ids->nstrings &&
				      b->life_long[i] < ids->nstrings, "memory tensor");
			struct pt_mem_tensor x = { b->graph[i], b->id[i], b->size[i], b->type[i],
						   b->life_start[i], b->life_end[i], b->life_long[i] };
			pt_vec_push(&m->mem_tensors, x);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_GPU_MEM: {
		const Proftool__GpuMemBatch *b = c->gpu_mem;
		size_t n = b->n_device;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_op == n && b->n_mem_kind == n && b->n_pool_type == n && b->n_corr == n && b->n_pid == n &&
			      b->n_stream == n && b->n_time == n && b->n_address == n && b->n_bytes == n &&
			      b->n_pc == n && b->n_pool_address == n && b->n_pool_threshold == n &&
			      b->n_pool_size == n && b->n_pool_utilized == n && b->n_name == n && b->n_source == n,
		      "GPU memory batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices && b->op[i] < 256 && b->mem_kind[i] < 256 &&
				      b->pool_type[i] < 256 && b->name[i] < ids->nstrings && b->source[i] < ids->nstrings,
			      "GPU memory record");
			struct pt_gpu_mem r = { b->device[i], (uint8_t)b->op[i], (uint8_t)b->mem_kind[i],
						(uint8_t)b->pool_type[i], b->corr[i], b->pid[i], b->stream[i], b->time[i],
						b->address[i], b->bytes[i], b->pc[i], b->pool_address[i],
						b->pool_threshold[i], b->pool_size[i], b->pool_utilized[i], b->name[i],
						b->source[i] };
			if (ids->skip && !ids->keep_gpu_mem)
				continue;
			if (ids->pack_gpu_mem) {
				if (!m->gpu_mem_pack)
					m->gpu_mem_pack = pt_xcalloc(1, sizeof(*m->gpu_mem_pack));
				pt_gpu_mem_pack_add(m->gpu_mem_pack, &r);
			} else {
				pt_vec_push(&m->gpu_mem, r);
			}
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_GPU_POOLS: {
		const Proftool__GpuPoolBatch *b = c->gpu_pools;
		size_t n = b->n_device;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_op == n && b->n_pool_type == n && b->n_managed == n && b->n_corr == n && b->n_pid == n &&
			      b->n_time == n && b->n_address == n && b->n_size == n && b->n_utilized == n &&
			      b->n_min_keep == n && b->n_threshold == n, "GPU pool batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices && b->op[i] < 256 && b->pool_type[i] < 256, "GPU pool record");
			struct pt_gpu_pool p = { b->device[i], (uint8_t)b->op[i], (uint8_t)b->pool_type[i],
						 b->managed[i] != 0, b->corr[i], b->pid[i], b->time[i], b->address[i],
						 b->size[i], b->utilized[i], b->min_keep[i], b->threshold[i] };
			if (!ids->skip || ids->keep_gpu_mem)
				pt_vec_push(&m->gpu_pools, p);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_HCCL: {
		const Proftool__HcclBatch *b = c->hccl;
		size_t n = b->n_device;
		CHECK(n <= PT_PTM_EVENT_BATCH, "batch (more than 4096 rows)");
		CHECK(b->n_op == n && b->n_exec == n && b->n_tid == n && b->n_ts == n && b->n_dur == n && b->n_src == n &&
			      b->n_dst == n && b->n_transport == n && b->n_task_type == n && b->n_size == n,
		      "HCCL batch (column lengths differ)");
		for (size_t i = 0; i < n; i++) {
			CHECK(b->device[i] < ids->ndevices && b->op[i] < ids->nstrings && b->transport[i] < ids->nstrings &&
				      b->task_type[i] < ids->nstrings && b->dur[i] >= 0 && b->dur[i] <= INT64_C(1) << 62 &&
				      b->ts[i] >= -(INT64_C(1) << 62) && b->ts[i] <= INT64_C(1) << 62,
			      "HCCL event");
			struct pt_hccl_task h = { b->device[i], b->op[i], b->exec[i], b->tid[i], b->ts[i], b->dur[i],
						  b->src[i], b->dst[i], b->transport[i], b->task_type[i], b->size[i] };
			pt_vec_push(&m->hccl, h);
		}
		break;
	}
	case PROFTOOL__CHUNK__BODY_FOOTER: {
		const Proftool__Footer *f = c->footer;
		if (f->crc32 != crc)
			BAD("'%s': checksum mismatch (model says %08" PRIx32 ", content gives %08" PRIx32 ")", name,
			    f->crc32, crc);
		if (f->n_strings != (ids->strings_counted ? ids->nstrings : m->strings.n) || f->n_devices != m->devices.n || f->n_tracks != m->tracks.n ||
		    f->n_events != ids->nevents || f->n_ops != m->ops.n || f->n_steps != m->steps.n ||
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

/*
 * A StringPiece p[0, n), interned straight from the chunk's bytes (no copy
 * of every string, as protobuf-c would make). *added gets the number of
 * strings. 0, or -1 with *e set.
 */
int pt_ptm_strings_apply(struct pt_model *m, struct ids *ids, const uint8_t *p, size_t n, const char *name,
			 uint64_t off, size_t *added, struct pt_err **e)
{
	const uint8_t *q = p, *end = p + n;
	*added = 0;
	while (q < end) {
		uint64_t key, v;
		if (!pt_cols_varint(&q, end, &key) || (key & 7) != 2 || !pt_cols_varint(&q, end, &v) ||
		    v > (uint64_t)(end - q))
			return pt_err(e, "'%s': corrupt chunk at body offset %" PRIu64, name, off);
		if (key >> 3 != 1) { /* a field a newer writer added */
			q += v;
			continue;
		}
		if (v > PT_PTM_MAX_STRING)
			return pt_err(e, "'%s': a string of %" PRIu64 " bytes in the chunk at body offset %" PRIu64
					 " exceeds the limit of %u bytes", name, v, off, PT_PTM_MAX_STRING);
		if (memchr(q, 0, (size_t)v))
			return pt_err(e, "'%s': invalid string table (a string holds a NUL byte) in the chunk at body offset %" PRIu64,
				      name, off);
		uint32_t id = ids->strings_counted ? (uint32_t)ids->nstrings
						   : pt_strtab_intern(&m->strings, (const char *)q, (size_t)v);
		if (!(id == ids->nstrings || (ids->nstrings == 0 && id == 0)))
			return pt_err(e, "'%s': invalid string table (duplicate string) in the chunk at body offset %" PRIu64,
				      name, off);
		ids->nstrings++;
		(*added)++;
		q += v;
	}
	return 0;
}
