/*
 * CUPTI importer, pass 1 (see import-cupti.c): the dump's bytes through one
 * reused window, the strings, devices and tracks of the model, and the
 * decoding of every record of every BUFFER chunk through the layout table.
 */
#include "cupti/cupti-cbid-names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import-cupti-dump.h"
#include "import/import-cupti-join.h"
#include "import/import-cupti-memory.h"
#include "import/input.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/progress.h"
#include "support/xalloc.h"
#include "support/sort.h"

/* ---- strings ------------------------------------------------------------------- */

static uint32_t mstr(struct pt_model *m, struct cf *f, uint64_t id, bool raw)
{
	if (raw)
		return pt_model_str(m, "<unresolved>");
	if (!id)
		return pt_model_str(m, "<null>");
	if (id >= f->nstr || !f->str[id].off) {
		char b[48];
		f->unknown_strings++;
		snprintf(b, sizeof(b), "<unknown string %" PRIu64 ">", id);
		return pt_model_str(m, b);
	}
	struct str_ent *s = &f->str[id];
	if (s->mid == UINT32_MAX)
		s->mid = pt_strtab_intern(&m->strings, s->len ? f->sbytes.v + s->off - 1 : "", s->len);
	return s->mid;
}

/* ---- devices and tracks ------------------------------------------------------------ */

static uint32_t gpu_device(struct pt_model *m, struct cf *f, uint32_t cuda_dev)
{
	if (f->last_gpu && f->last_gpu_cuda == cuda_dev)
		return f->last_gpu - 1;
	bool added;
	uint64_t *v = pt_hashmap_put(&f->gpu, cuda_dev, 0, &added);
	if (!added) {
		f->last_gpu_cuda = cuda_dev;
		f->last_gpu = (uint32_t)*v + 1;
		return (uint32_t)*v;
	}
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = cuda_dev;
	d.kind = PT_DEV_GPU;
	d.clock = pt_xstrdup("unix");
	d.pid = f->pid;
	d.rank = f->rank;
	d.world_size = f->world > 0 ? f->world : 0;
	*v = pt_model_new_device(m, &d);
	return (uint32_t)*v;
}

/* The cbid of API name `name` (key: domain << 32 | cbid) into m->api_cbids, once per file and once per model
 * (called when the cbid cache misses: the table is a few hundred rows at most). */
static void api_cbid(struct pt_model *m, struct cf *f, uint64_t key, uint32_t name, uint32_t cbid)
{
	bool added;
	pt_hashmap_put(&f->cbid_put, key, 1, &added);
	if (!added)
		return;
	for (size_t i = 0; i < m->api_cbids.n; i++)
		if (m->api_cbids.v[i].name == name && m->api_cbids.v[i].cbid == cbid)
			return;
	pt_model_add_api_cbid(m, name, cbid);
}

static uint32_t track(struct pt_model *m, struct cf *f, uint32_t dev, enum pt_track_kind kind, int64_t stream)
{
	uint64_t key = (uint64_t)dev << 40 | (uint64_t)kind << 36 | ((uint64_t)stream & 0xfffffffffULL);
	if (key == f->last_track_key)
		return f->last_track;
	if (key == f->last_track_key2) {
		uint32_t t = f->last_track2;
		f->last_track_key2 = f->last_track_key;
		f->last_track2 = f->last_track;
		f->last_track_key = key;
		f->last_track = t;
		return t;
	}
	bool added;
	uint64_t *v = pt_hashmap_put(&f->tracks, key, 0, &added);
	if (added) {
		char name[64];
		if (kind == PT_TRACK_STREAM && stream < 0)
			snprintf(name, sizeof(name), "device");
		else if (kind == PT_TRACK_STREAM)
			snprintf(name, sizeof(name), "stream %" PRId64, stream);
		else if (stream < 0)
			snprintf(name, sizeof(name), "process");
		else
			snprintf(name, sizeof(name), "thread %" PRId64, stream);
		*v = pt_model_new_track(m, dev, kind, stream, pt_model_str(m, name));
		if (kind == PT_TRACK_HOST_THREAD && stream >= 0)
			pt_vec_push(&f->thread_tracks, (uint32_t)*v);
	}
	f->last_track_key2 = f->last_track_key;
	f->last_track2 = f->last_track;
	f->last_track_key = key;
	f->last_track = (uint32_t)*v;
	return (uint32_t)*v;
}

uint32_t pt_cupti_gpu_device(struct pt_model *m, struct cf *f, uint32_t cuda_dev)
{
	return gpu_device(m, f, cuda_dev);
}

uint32_t pt_cupti_track(struct pt_model *m, struct cf *f, uint32_t dev, enum pt_track_kind kind, int64_t stream)
{
	return track(m, f, dev, kind, stream);
}

/* ---- reading ------------------------------------------------------------------------ */

/*
 * The file's bytes [off, off + len), off + len <= f->size, valid until the next
 * call; NULL when the read fails or the file ends short of f->size (f->rerr).
 */
static const uint8_t *at(struct cf *f, uint64_t off, size_t len)
{
	static const uint8_t none[1];
	if (!len)
		return none;
	if (off >= f->woff && off + len <= f->woff + f->wlen)
		return f->win + (off - f->woff);
	if (f->rerr)
		return NULL;
	if (off > f->size || len > f->size - off) { /* callers check the framing: never */
		pt_err(&f->rerr, "'%s': a read of %zu bytes at byte %" PRIu64 " runs past its end", f->path, len, off);
		return NULL;
	}
	size_t want = len > f->ra ? len : f->ra;
	if (want > f->size - off)
		want = f->size - off;
	if (want > f->wcap) {
		free(f->win);
		f->win = pt_xmalloc(want);
		f->wcap = want;
	}
	f->woff = off;
	f->wlen = 0;
	while (f->wlen < want) {
		ssize_t n = pread(f->fd, f->win + f->wlen, want - f->wlen, (off_t)(off + f->wlen));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pt_err_errno(&f->rerr, errno, "cannot read '%s' at byte %" PRIu64, f->path, off + f->wlen);
			return NULL;
		}
		if (!n) {
			pt_input_shrunk(f->path, off + f->wlen, f->size, &f->rerr);
			return NULL;
		}
		f->wlen += (size_t)n;
	}
	if (!f->scanning)
		pt_progress_report(f->path, off + f->wlen, f->size);
	return f->win;
}

const uint8_t *pt_cupti_at(struct cf *f, uint64_t off, size_t len)
{
	return at(f, off, len);
}

/* ---- pass 1: records ---------------------------------------------------------------------- */

static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					 "Array",   "Managed",  "Device Static", "Managed Static" };

static const char *copy_kind_name(unsigned k)
{
	return k < 11 ? copy_kinds[k] : "<unknown>";
}

static const char *mem_kind_name(unsigned k)
{
	return k < 8 ? mem_kinds[k] : "Unrecognized";
}

/* Times of an interval record; false when untimed (counted). */
static bool times(struct cf *f, uint64_t s, uint64_t en, int64_t *start, int64_t *dur)
{
	if (!s || !en) {
		f->untimed++;
		return false;
	}
	if (s > en) {
		f->start_after_end++;
		return false;
	}
	int64_t end;
	if (!tmap(f, s, start) || !tmap(f, en, &end)) {
		f->untimed++;
		return false;
	}
	*dur = end - *start;
	if (*dur < 0) {
		f->start_after_end++;
		return false;
	}
	if (end > f->max_time)
		f->max_time = end;
	return true;
}

static uint32_t ctx_device(struct cf *f, uint32_t ctx, bool *known)
{
	uint64_t *v = pt_hashmap_get(&f->ctx_dev, ctx);
	*known = v != NULL;
	return v ? (uint32_t)*v : 0;
}

bool pt_cupti_times(struct cf *f, uint64_t s, uint64_t en, int64_t *start, int64_t *dur)
{
	return times(f, s, en, start, dur);
}

uint32_t pt_cupti_ctx_device(struct cf *f, uint32_t ctx, bool *known)
{
	return ctx_device(f, ctx, known);
}

static void note_ctx(struct cf *f, uint32_t ctx, uint32_t dev)
{
	if (f->have_ctx && f->last_ctx == ctx && f->last_ctx_dev == dev)
		return;
	f->have_ctx = true;
	f->last_ctx = ctx;
	f->last_ctx_dev = dev;
	bool added;
	pt_hashmap_put(&f->ctx_dev, ctx, dev, &added);
}

/* A DEVICE record's field by name (cupti.md §3.4), 0 when its layout has none. */
static uint64_t device_field(const struct cf *f, const uint8_t *r, const char *name)
{
	const struct pt_cl_field *fd = pt_cl_field(PT_CK_DEVICE, name);
	if (!fd || !f->lay[PT_CK_DEVICE] || !pt_cl_field_in(fd, f->lay[PT_CK_DEVICE]->size, pt_cl_range_of(f->version)))
		return 0;
	return get(r, (struct fo){ (int16_t)fd->off, fd->size });
}

/* The GPU limits of Kineto's deviceProperties from a DEVICE record (cupti.md §7.1). */
static void device_limits(const struct cf *f, const uint8_t *r, struct pt_device *dv)
{
	struct pt_gpu_limits *l = &dv->lim;
	uint64_t warp = device_field(f, r, "numThreadsPerWarp"), warps = device_field(f, r, "maxWarpsPerMultiprocessor");
	l->warp_size = (uint32_t)warp;
	l->max_threads_per_sm = warp * warps <= UINT32_MAX ? (uint32_t)(warp * warps) : 0;
	l->max_threads_per_block = (uint32_t)device_field(f, r, "maxThreadsPerBlock");
	l->regs_per_block = (uint32_t)device_field(f, r, "maxRegistersPerBlock");
	l->regs_per_sm = (uint32_t)device_field(f, r, "maxRegistersPerMultiprocessor");
	l->smem_per_block = device_field(f, r, "maxSharedMemoryPerBlock");
	l->smem_per_sm = device_field(f, r, "maxSharedMemoryPerMultiprocessor");
}

static void decode(struct pt_model *m, struct cf *f, uint32_t k, const uint8_t *r)
{
	const struct fo *o = f->fo[k];
	bool raw = !(f->kflags[k] & PT_CDUMP_K_REWRITTEN) || !(f->hflags & PT_CDUMP_H_POINTERS_REWRITTEN);
	int64_t start, dur;
	switch (k) {
	case PT_CK_KERNEL:
	case PT_CK_CONCURRENT_KERNEL: {
		uint32_t dev = (uint32_t)get(r, o[F_DEVICE]);
		note_ctx(f, (uint32_t)get(r, o[F_CONTEXT]), dev);
		if (!times(f, get(r, o[F_START]), get(r, o[F_END]), &start, &dur))
			return;
		uint32_t gd = gpu_device(m, f, dev);
		uint32_t t = track(m, f, gd, PT_TRACK_STREAM, (int64_t)get(r, o[F_STREAM]));
		uint32_t corr = (uint32_t)get(r, o[F_CORR]);
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, t, mstr(m, f, get(r, o[F_NAME]), raw), PT_EV_KERNEL, start, dur, corr, PT_NONE, 0);
		struct pt_kernel_config kc = { { geti(r, o[F_GX]), geti(r, o[F_GY]), geti(r, o[F_GZ]) },
					       { geti(r, o[F_BX]), geti(r, o[F_BY]), geti(r, o[F_BZ]) },
					       (uint32_t)get(r, o[F_REGS]), geti(r, o[F_SSMEM]), geti(r, o[F_DSMEM]),
					       (uint32_t)get(r, o[F_GRAPH]) };
		pt_model_add_kernel(m, ev, &kc);
		pt_cjoin_activity(f->join, ev, start, corr, 0, true);
		break;
	}
	case PT_CK_MEMCPY:
	case PT_CK_MEMCPY2:
	case PT_CK_MEMSET: {
		uint32_t dev = (uint32_t)get(r, o[F_DEVICE]);
		note_ctx(f, (uint32_t)get(r, o[F_CONTEXT]), dev);
		if (!times(f, get(r, o[F_START]), get(r, o[F_END]), &start, &dur))
			return;
		uint32_t gd = gpu_device(m, f, dev);
		uint32_t t = track(m, f, gd, PT_TRACK_STREAM, (int64_t)get(r, o[F_STREAM]));
		uint32_t corr = (uint32_t)get(r, o[F_CORR]);
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		struct pt_copy_info ci = { ev, 0, 0, 0, get(r, o[F_BYTES]), -1, -1 };
		char name[80];
		uint32_t *nc;
		if (k == PT_CK_MEMSET) {
			ci.dst_kind = (uint8_t)get(r, o[F_MEMKIND]);
			nc = &f->copy_names[11 * 9 * 9 + (ci.dst_kind < 8 ? ci.dst_kind : 8)];
			if (!*nc) {
				snprintf(name, sizeof(name), "Memset (%s)", mem_kind_name(ci.dst_kind));
				*nc = pt_model_str(m, name) + 1;
			}
		} else {
			ci.copy_kind = (uint8_t)get(r, o[F_COPYKIND]);
			ci.src_kind = (uint8_t)get(r, o[F_SRCKIND]);
			ci.dst_kind = (uint8_t)get(r, o[F_DSTKIND]);
			if (k == PT_CK_MEMCPY2) {
				ci.src_device = (int32_t)get(r, o[F_SRCDEV]);
				ci.dst_device = (int32_t)get(r, o[F_DSTDEV]);
			}
			unsigned ck = ci.copy_kind < 11 ? ci.copy_kind : 0, sk = ci.src_kind < 8 ? ci.src_kind : 8,
				 dk = ci.dst_kind < 8 ? ci.dst_kind : 8;
			nc = &f->copy_names[(ck * 9 + sk) * 9 + dk];
			if (!*nc || ci.copy_kind >= 11) {
				snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", copy_kind_name(ci.copy_kind),
					 mem_kind_name(ci.src_kind), mem_kind_name(ci.dst_kind));
				*nc = pt_model_str(m, name) + 1;
			}
		}
		pt_model_add_event(m, t, *nc - 1, k == PT_CK_MEMSET ? PT_EV_MEMSET : PT_EV_MEMCPY, start,
				   dur, corr, PT_NONE, 0);
		pt_model_add_copy(m, &ci);
		pt_cjoin_activity(f->join, ev, start, corr, k == PT_CK_MEMCPY ? (uint32_t)get(r, o[F_CORR2]) : 0, false);
		break;
	}
	case PT_CK_RUNTIME:
	case PT_CK_DRIVER:
	case PT_CK_INTERNAL_LAUNCH_API: {
		if (!times(f, get(r, o[F_START]), get(r, o[F_END]), &start, &dur))
			return;
		uint32_t tid = (uint32_t)get(r, o[F_TID]);
		uint32_t t = track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, tid);
		uint32_t cbid = (uint32_t)get(r, o[F_CBID]);
		uint32_t corr = (uint32_t)get(r, o[F_CORR]);
		uint32_t name;
		if (k == PT_CK_INTERNAL_LAUNCH_API) {
			name = pt_model_str(m, "<internal launch>");
		} else {
			uint64_t key = (uint64_t)(k == PT_CK_RUNTIME ? 2 : 1) << 32 | cbid;
			struct cbid_hit *cc = &f->cbid_cache[(cbid ^ (uint32_t)(key >> 32)) & 15];
			if (cc->name && cc->key == key) {
				name = cc->name - 1;
			} else {
				uint64_t *v = pt_hashmap_get(&f->cbid, key);
				const char *bn;
				if (v) {
					name = (uint32_t)(*v - 1);
				} else if ((bn = pt_cupti_cbid_name(k != PT_CK_RUNTIME, cbid))) {
					name = pt_model_str(m, bn); /* no name in the dump: the built-in table */
				} else {
					char b[48];
					snprintf(b, sizeof(b), "<%s cbid %" PRIu32 ">", k == PT_CK_RUNTIME ? "runtime" : "driver",
						 cbid);
					name = pt_model_str(m, b);
				}
				cc->key = key;
				cc->name = name + 1;
				api_cbid(m, f, key, name, cbid);
			}
		}
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, t, name, PT_EV_API, start, dur, corr, PT_NONE, 0);
		pt_cjoin_call(f->join, k != PT_CK_RUNTIME, corr, ev, t, start);
		break;
	}
	case PT_CK_SYNCHRONIZATION: {
		size_t n = f->pending_sync.n;
		pt_vec_reserve(&f->pending_sync, n + f->stride[k]);
		memcpy(f->pending_sync.v + n, r, f->stride[k]);
		f->pending_sync.n += f->stride[k];
		break;
	}
	case PT_CK_CUDA_EVENT: {
		struct cuda_event ce = { (uint32_t)get(r, o[F_CONTEXT]), (uint32_t)get(r, o[F_EVENTID]),
					 (uint32_t)get(r, o[F_STREAM]), (uint32_t)get(r, o[F_CORR]), get(r, o[F_SYNCID]) };
		pt_vec_push(&f->cuda_events, ce);
		break;
	}
	case PT_CK_MARKER: {
		struct marker mk;
		mk.flags = (uint32_t)get(r, o[F_FLAGS]);
		uint64_t ts = get(r, o[F_TS]);
		mk.id = (uint32_t)get(r, o[F_ID]);
		mk.objkind = (uint32_t)get(r, o[F_OBJKIND]);
		mk.tid = o[F_OBJID].size ? pt_le32(r + o[F_OBJID].off + 4) : 0;
		uint64_t nm = get(r, o[F_NAME]), dm = get(r, o[F_DOMAIN]);
		mk.name = nm ? mstr(m, f, nm, raw) : 0;
		mk.domain = dm ? mstr(m, f, dm, raw) : 0;
		mk.order = (uint32_t)f->markers.n;
		if (!ts) {
			f->untimed++;
			return;
		}
		if (!tmap(f, ts, &mk.ts)) {
			f->untimed++;
			return;
		}
		if (mk.ts > f->max_time)
			f->max_time = mk.ts;
		pt_vec_push(&f->markers, mk);
		break;
	}
	case PT_CK_MARKER_DATA:
		if (get(r, o[F_PAYLOADKIND]) == 1)
			*pt_hashmap_put(&f->mdata, get(r, o[F_ID]), 0, NULL) = get(r, o[F_PAYLOAD]) + 1;
		else if (get(r, o[F_PAYLOADKIND]) == 0) /* a double: the run CPU utilisation markers */
			*pt_hashmap_put(&f->mdata0, get(r, o[F_ID]), 0, NULL) = get(r, o[F_PAYLOAD]);
		break;
	case PT_CK_NAME:
		if (get(r, o[F_OBJKIND]) == 2 && o[F_OBJID].size) {
			uint32_t tid = pt_le32(r + o[F_OBJID].off + 4);
			uint64_t nm = get(r, o[F_NAME]);
			if (nm)
				*pt_hashmap_put(&f->nvtx_tnames, tid, 0, NULL) = (uint64_t)mstr(m, f, nm, raw) + 1;
		}
		break;
	case PT_CK_EXTERNAL_CORRELATION: {
		struct pt_ext_corr x = { f->cpu_dev, (uint32_t)get(r, o[F_EXTKIND]), get(r, o[F_CORR]),
					 get(r, o[F_EXTID]) };
		pt_model_add_ext_corr(m, &x);
		break;
	}
	case PT_CK_DEVICE: {
		uint32_t gd = gpu_device(m, f, (uint32_t)get(r, o[F_DEVID]));
		struct pt_device *dv = &m->devices.v[gd];
		uint64_t nm = get(r, o[F_NAME]);
		uint32_t sid = mstr(m, f, nm, raw);
		free(dv->name);
		dv->name = pt_xstrdup(pt_model_strget(m, sid));
		dv->sm_count = (uint32_t)get(r, o[F_SM]);
		dv->mem_bytes = get(r, o[F_MEM]);
		dv->mem_bandwidth_kbs = get(r, o[F_BW]);
		dv->cc_major = (uint32_t)get(r, o[F_CCMAJ]);
		dv->cc_minor = (uint32_t)get(r, o[F_CCMIN]);
		device_limits(f, r, dv);
		break;
	}
	case PT_CK_CONTEXT:
		note_ctx(f, (uint32_t)get(r, o[F_CONTEXT]), (uint32_t)get(r, o[F_DEVICE]));
		break;
	case PT_CK_MEMORY2:
	case PT_CK_MEMORY_POOL: { /* memory rows (cupti.md §6.11), decoded in import-cupti-memory.c */
		struct pt_cupti_mem cm;
		pt_cupti_mem_decode(k, f->lay[k], pt_cl_range_of(f->version), r, &cm);
		if (!cm.ts) {
			f->untimed++;
			return;
		}
		int64_t t;
		if (!tmap(f, cm.ts, &t)) {
			f->untimed++;
			return;
		}
		if (t > f->max_time)
			f->max_time = t;
		uint32_t gd = gpu_device(m, f, cm.cuda_device);
		if (k == PT_CK_MEMORY2) {
			cm.mem.device = gd;
			cm.mem.time = t;
			cm.mem.name = cm.name_id ? mstr(m, f, cm.name_id, raw) : 0;
			cm.mem.source = cm.source_id ? mstr(m, f, cm.source_id, raw) : 0;
			pt_gpu_mem_pack_add(&f->gmem, &cm.mem); /* to the model after the join (import-cupti.c) */
		} else {
			cm.pool.device = gd;
			cm.pool.time = t;
			pt_model_add_gpu_pool(m, &cm.pool);
		}
		break;
	}
	default:
		/* decoded kinds the model does not hold yet (OVERHEAD, CUDA_EVENT, MEMORY2, MEMORY_POOL,
		 * GRAPH_TRACE, MEMCPY2 handled above): counted */
		break;
	}
}

/*
 * The correlation ids that the activities of the BUFFER chunk at coff carry,
 * to the join's wanted ids (the records as pt_cupti_walk_buffer() frames
 * them, silently); false when the file could not be read (f->rerr).
 */
bool pt_cupti_scan_buffer(struct cf *f, uint64_t coff)
{
	const uint8_t *p = at(f, coff + 16, 32);
	if (!p)
		return false;
	uint64_t valid = pt_le64(p + 8), off = 0, b = coff + 48;
	while (valid - off >= 4) {
		const uint8_t *r = at(f, b + off, 4);
		if (!r)
			return false;
		uint32_t k = pt_le32(r);
		uint32_t s = k < PT_CK__MAX ? f->stride[k] : 0;
		if (!s || off + s > valid)
			break;
		bool act = k == PT_CK_KERNEL || k == PT_CK_CONCURRENT_KERNEL || k == PT_CK_MEMCPY || k == PT_CK_MEMCPY2 ||
			   k == PT_CK_MEMSET || k == PT_CK_SYNCHRONIZATION;
		if (act && f->lay[k]) {
			if (!(r = at(f, b + off, s)))
				return false;
			pt_cjoin_want(f->join, (uint32_t)get(r, f->fo[k][F_CORR]));
			if (k == PT_CK_MEMCPY)
				pt_cjoin_want(f->join, (uint32_t)get(r, f->fo[k][F_CORR2]));
		}
		off += s;
	}
	return true;
}

/* Decode the records of the BUFFER chunk at coff; returns the offset of its end, 0 when the file
 * could not be read (f->rerr). */
uint64_t pt_cupti_walk_buffer(struct pt_model *m, struct cf *f, uint64_t coff)
{
	const uint8_t *p = at(f, coff + 16, 32);
	if (!p)
		return 0;
	uint64_t seq = pt_le64(p), valid = pt_le64(p + 8);
	uint32_t nrec = pt_le32(p + 16);
	uint64_t off = 0, n = 0, b = coff + 48; /* b: the file offset of the records */
	f->n_buffers_read++;
	while (off < valid) {
		if (valid - off < 4) {
			pt_cupti_warnf(f, "buffer %" PRIu64 ": trailing bytes at byte %" PRIu64, seq, coff + 48 + off);
			break;
		}
		const uint8_t *r = at(f, b + off, 4);
		if (!r)
			return 0;
		uint32_t k = pt_le32(r);
		uint32_t s = k < PT_CK__MAX ? f->stride[k] : 0;
		if (!s) {
			pt_cupti_warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": unknown activity kind %" PRIu32 " at byte %" PRIu64
				 "; rest of the buffer skipped", seq, n, k, coff + 48 + off);
			f->unknown_kind_bytes += valid - off;
			break;
		}
		if (off + s > valid) {
			pt_cupti_warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": incomplete record (have %" PRIu64 " of %" PRIu32
				 " bytes) at byte %" PRIu64, seq, n, valid - off, s, coff + 48 + off);
			f->incomplete++;
			break;
		}
		if (f->lay[k] && !(r = at(f, b + off, s)))
			return 0;
		if (f->lay[k]) {
			if (!f->warned_kind[k] && (!(f->kflags[k] & PT_CDUMP_K_REWRITTEN) ||
						   !(f->hflags & PT_CDUMP_H_POINTERS_REWRITTEN)) &&
			    (k == PT_CK_KERNEL || k == PT_CK_CONCURRENT_KERNEL || k == PT_CK_MARKER || k == PT_CK_NAME ||
			     k == PT_CK_DEVICE || k == PT_CK_MEMORY2)) {
				f->warned_kind[k] = true;
				pt_cupti_warnf(f, "kind %" PRIu32 " was written without pointer rewrite; its names are <unresolved>", k);
			}
			if (!(f->kflags[k] & PT_CDUMP_K_REWRITTEN))
				f->raw_records++;
			decode(m, f, k, r);
		} else {
			if (!f->warned_kind[k]) {
				f->warned_kind[k] = true;
				int why = 0;
				pt_cl_find(f->version, k, s, &why);
				if (why == 2)
					pt_cupti_warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": layout mismatch for kind %" PRIu32
						 " (stride %" PRIu32 ") in CUPTI %" PRIu32 " at byte %" PRIu64
						 "; records of this kind skipped", seq, n, k, s, f->version, coff + 48 + off);
				else if (pt_cl_fields(k))
					pt_cupti_warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": no layout for kind %" PRIu32
						 " in CUPTI %" PRIu32 " at byte %" PRIu64 "; records of this kind skipped",
					      seq, n, k, f->version, coff + 48 + off);
			}
			f->skipped_kind[k]++;
		}
		off += s;
		n++;
	}
	f->n_records += n;
	if (n != nrec)
		pt_cupti_warnf(f, "buffer %" PRIu64 ": walked %" PRIu64 " records, collector reported %" PRIu32, seq, n, nrec);
	return coff + 48 + valid;
}
