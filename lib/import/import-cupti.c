/*
 * CUPTI importer (cupti.md §1, §2, §6, §8.4): reads CUPTIDMP dumps written by
 * the collector (or the generator) without any CUPTI header. Pass 0 walks the
 * chunk framing and loads the small chunks (kind table, strings, names, clock
 * syncs, process facts); pass 1 walks every BUFFER with the stored strides
 * and decodes records through the layout table (lib/cupti/cupti-layouts.c);
 * pass 2 pairs NVTX markers into ranges and joins GPU work to its API call
 * and enclosing range. One CPU device per dump (process) and one GPU device
 * per (dump, CUDA device). This file holds pass 0 and the driver; pass 1 is
 * import-cupti-records.c, pass 2 import-cupti-ranges.c (the dump being read:
 * import-cupti-dump.h).
 *
 * The dump is read through one reused window (pread), never mapped: peak
 * memory is the model's, whether or not the dump is in the page cache, and a
 * dump that shrinks while it is read (a collector still writing it, a disk
 * cleaner) is an error naming the file and the byte where it ended, not a
 * SIGBUS.
 */
#include "cupti/cupti-cbid-names.h"
#include "import/registry.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cupti/cdump.h"
#include "cupti/cupti-layouts.h"
#include "import/import-cupti-dump.h"
#include "import/import-cupti-join.h"
#include "import/input.h"
#include "import/import-cupti-memory.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/progress.h"
#include "support/xalloc.h"
#include "support/sort.h"

/* ---- per-kind field names resolved from the layout table ------------------ */

static const char *const field_names[F__N] = {
	[F_START] = "start", [F_END] = "end", [F_DEVICE] = "deviceId", [F_CONTEXT] = "contextId",
	[F_STREAM] = "streamId", [F_CORR] = "correlationId", [F_CORR2] = "runtimeCorrelationId", [F_NAME] = "name",
	[F_GX] = "gridX", [F_GY] = "gridY", [F_GZ] = "gridZ", [F_BX] = "blockX", [F_BY] = "blockY",
	[F_BZ] = "blockZ", [F_SSMEM] = "staticSharedMemory", [F_DSMEM] = "dynamicSharedMemory",
	[F_REGS] = "registersPerThread", [F_GRAPH] = "graphId", [F_COPYKIND] = "copyKind", [F_SRCKIND] = "srcKind",
	[F_DSTKIND] = "dstKind", [F_BYTES] = "bytes", [F_SRCDEV] = "srcDeviceId", [F_DSTDEV] = "dstDeviceId",
	[F_MEMKIND] = "memoryKind", [F_CBID] = "cbid", [F_PID] = "processId", [F_TID] = "threadId",
	[F_TYPE] = "type", [F_FLAGS] = "flags", [F_TS] = "timestamp", [F_ID] = "id", [F_OBJKIND] = "objectKind",
	[F_OBJID] = "objectId", [F_DOMAIN] = "domain", [F_PAYLOADKIND] = "payloadKind", [F_PAYLOAD] = "payload",
	[F_EXTKIND] = "externalKind", [F_EXTID] = "externalId", [F_SM] = "numMultiprocessors",
	[F_MEM] = "globalMemorySize", [F_BW] = "globalMemoryBandwidth", [F_CCMAJ] = "computeCapabilityMajor",
	[F_CCMIN] = "computeCapabilityMinor", [F_DEVID] = "id", [F_NULLSTREAM] = "nullStreamId",
	[F_EVENTID] = "eventId", [F_CUDAEVENTID] = "cudaEventId", [F_SYNCID] = "cudaEventSyncId",
};

void pt_cupti_warnf(struct cf *f, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pt_diag_warn(f->diag, f->path, buf, PT_POS_NONE, 0);
}

/* ---- time ------------------------------------------------------------------------ */

static void setup_time(struct cf *f)
{
	size_t n = f->clocks.n;
	if (!n) {
		pt_cupti_warnf(f, "no clock sync in the dump; CUPTI timestamps used as they are");
		f->tmode = 0;
		return;
	}
	bool ok = f->hflags & PT_CDUMP_H_DEFAULT_CLOCK;
	for (size_t i = 0; ok && i < n; i++) {
		const struct clk *c = &f->clocks.v[i];
		uint64_t diff = c->cupti > c->real ? c->cupti - c->real : c->real - c->cupti;
		uint64_t tol = c->unc > 1000000 ? c->unc : 1000000;
		ok = diff <= tol;
	}
	if (ok) {
		f->tmode = 0;
		return;
	}
	f->ca = f->clocks.v[0];
	f->cb = f->clocks.v[n - 1];
	if (n == 1 || f->cb.cupti == f->ca.cupti) {
		f->tmode = 1;
		f->t_off = (int64_t)(f->ca.real - f->ca.cupti);
	} else {
		f->tmode = 2;
	}
}

/* ---- pass 0: framing and small chunks ----------------------------------------------- */

static void chunk_bad(struct cf *f, uint64_t coff, uint64_t eoff, const char *what)
{
	pt_cupti_warnf(f, "malformed %s chunk at byte %" PRIu64 ": entry at byte %" PRIu64 " runs past the payload; rest of "
		 "the chunk skipped", what, coff, eoff);
}

static void load_kind_table(struct cf *f, const uint8_t *p, uint64_t len, uint64_t coff)
{
	if (len < 8) {
		chunk_bad(f, coff, coff + 16, "KIND_TABLE");
		return;
	}
	uint32_t esz = pt_le32(p), n = pt_le32(p + 4);
	if (esz < 16) {
		pt_cupti_warnf(f, "malformed KIND_TABLE chunk at byte %" PRIu64 ": entry size %" PRIu32 " below 16", coff, esz);
		return;
	}
	f->kt_seen = true;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t o = 8 + i * esz;
		if (o + esz > len) {
			chunk_bad(f, coff, coff + 16 + o, "KIND_TABLE");
			break;
		}
		uint32_t k = pt_le32(p + o), s = pt_le32(p + o + 4), fl = pt_le32(p + o + 12);
		if (k >= PT_CK__MAX)
			continue;
		if (s && (s % 8 || s < 8 || s > 4096)) {
			pt_cupti_warnf(f, "KIND_TABLE at byte %" PRIu64 ": stride %" PRIu32 " of kind %" PRIu32
				 " is not a multiple of 8 in 8..4096; kind treated as unknown", coff, s, k);
			s = 0;
		}
		f->stride[k] = s;
		f->kflags[k] = fl;
	}
}

static void load_strings(struct cf *f, const uint8_t *p, uint64_t len, uint64_t coff, bool blobs)
{
	uint64_t o = 0;
	while (o < len) {
		if (len - o < 8) {
			chunk_bad(f, coff, coff + 16 + o, blobs ? "BLOBS" : "STRINGS");
			return;
		}
		uint32_t id = pt_le32(p + o), l = pt_le32(p + o + 4);
		uint64_t ent = pt_cdump_round8(8 + (uint64_t)l + (blobs ? 0 : 1));
		if ((uint64_t)8 + l > len - o) {
			chunk_bad(f, coff, coff + 16 + o, blobs ? "BLOBS" : "STRINGS");
			return;
		}
		uint32_t *last = blobs ? &f->last_blob_id : &f->last_str_id;
		if (id != *last + 1)
			pt_cupti_warnf(f, "%s chunk at byte %" PRIu64 ": id %" PRIu32 " follows %" PRIu32 " (gap in ids)",
			      blobs ? "BLOBS" : "STRINGS", coff, id, *last);
		*last = id;
		if (!blobs && id) {
			if (id >= f->nstr) {
				/* never allocate blindly: ids are dense, so a sane id is below the bytes seen */
				if (id > f->size) {
					pt_cupti_warnf(f, "STRINGS chunk at byte %" PRIu64 ": implausible id %" PRIu32 " ignored", coff, id);
				} else {
					size_t nn = f->nstr ? f->nstr : 256;
					while (nn <= id)
						nn *= 2;
					f->str = pt_xrealloc(f->str, nn * sizeof(*f->str));
					memset(f->str + f->nstr, 0, (nn - f->nstr) * sizeof(*f->str));
					f->nstr = nn;
				}
			}
			if (id < f->nstr) {
				f->str[id].off = f->sbytes.n + 1;
				if (l) { /* an empty string has no bytes (and sbytes may have no storage yet) */
					pt_vec_reserve(&f->sbytes, f->sbytes.n + l);
					memcpy(f->sbytes.v + f->sbytes.n, p + o + 8, l);
					f->sbytes.n += l;
				}
				f->str[id].len = l;
				f->str[id].mid = UINT32_MAX;
			}
		}
		if (blobs)
			f->nblobs++;
		o += ent > len - o ? len - o : ent;
	}
}

static void load_cbid_names(struct pt_model *m, struct cf *f, const uint8_t *p, uint64_t len, uint64_t coff)
{
	uint64_t o = 0;
	while (o < len) {
		if (len - o < 16) {
			chunk_bad(f, coff, coff + 16 + o, "CBID_NAMES");
			return;
		}
		uint32_t dom = pt_le32(p + o), cbid = pt_le32(p + o + 4), l = pt_le32(p + o + 8);
		if ((uint64_t)16 + l > len - o) {
			chunk_bad(f, coff, coff + 16 + o, "CBID_NAMES");
			return;
		}
		uint32_t sid = pt_strtab_intern(&m->strings, (const char *)p + o + 16, l);
		*pt_hashmap_put(&f->cbid, (uint64_t)dom << 32 | cbid, 0, NULL) = (uint64_t)sid + 1;
		uint64_t ent = pt_cdump_round8(16 + (uint64_t)l + 1);
		o += ent > len - o ? len - o : ent;
	}
}

static void load_thread_names(struct pt_model *m, struct cf *f, const uint8_t *p, uint64_t len, uint64_t coff)
{
	uint64_t o = 0;
	while (o < len) {
		if (len - o < 8) {
			chunk_bad(f, coff, coff + 16 + o, "THREAD_NAMES");
			return;
		}
		uint32_t tid = pt_le32(p + o), l = pt_le32(p + o + 4);
		if ((uint64_t)8 + l > len - o) {
			chunk_bad(f, coff, coff + 16 + o, "THREAD_NAMES");
			return;
		}
		uint32_t sid = pt_strtab_intern(&m->strings, (const char *)p + o + 8, l);
		*pt_hashmap_put(&f->tnames, tid, 0, NULL) = (uint64_t)sid + 1;
		uint64_t ent = pt_cdump_round8(8 + (uint64_t)l + 1);
		o += ent > len - o ? len - o : ent;
	}
}

static void load_process(struct cf *f, const uint8_t *p, uint64_t len, uint64_t coff)
{
	if (len < 24) {
		chunk_bad(f, coff, coff + 16, "PROCESS");
		return;
	}
	f->ppid = pt_le32(p + 4);
	f->rank = (int32_t)pt_le32(p + 8);
	f->local_rank = (int32_t)pt_le32(p + 12);
	f->world = (int32_t)pt_le32(p + 16);
	uint32_t n = pt_le32(p + 20);
	uint64_t o = 24;
	for (uint32_t i = 0; i < n; i++) {
		if (len - o < 8 || (uint64_t)8 + pt_le32(p + o + 4) > len - o) {
			chunk_bad(f, coff, coff + 16 + o, "PROCESS");
			return;
		}
		uint32_t tag = pt_le32(p + o), l = pt_le32(p + o + 4);
		char **dst = tag == PT_CDUMP_P_HOST ? &f->host : tag == PT_CDUMP_P_COMM ? &f->comm
			   : tag == PT_CDUMP_P_EXE ? &f->exe : NULL;
		if (dst) {
			free(*dst);
			*dst = pt_xstrndup((const char *)p + o + 8, l);
		}
		uint64_t ent = pt_cdump_round8(8 + (uint64_t)l + 1);
		o += ent > len - o ? len - o : ent;
	}
}

/* ---- the dump ----------------------------------------------------------------------- */

/* A window no larger than `cap` from now on (pass 0 may have grown it to a large chunk). */
static void window_cap(struct cf *f, size_t cap)
{
	if (f->wcap > cap) {
		free(f->win);
		f->win = NULL;
		f->wcap = f->wlen = 0;
	}
}

static int pass0(struct pt_model *m, struct cf *f, struct pt_err **e)
{
	f->ra = PT_CUPTI_READ_AHEAD;
	const uint8_t *d = f->size >= PT_CDUMP_HEADER_SIZE ? pt_cupti_at(f, 0, PT_CDUMP_HEADER_SIZE) : NULL;
	if (f->rerr)
		return -1;
	if (f->size < PT_CDUMP_HEADER_SIZE)
		return pt_err(e, "file of %zu bytes is shorter than the 64-byte CUPTIDMP header at byte 0", f->size);
	if (memcmp(d, PT_CDUMP_MAGIC, 8))
		return pt_err(e, "not a CUPTIDMP dump (bad magic at byte 0)");
	if (pt_le16(d + 8) != PT_CDUMP_FMT_MAJOR)
		return pt_err(e, "unsupported CUPTIDMP major version %u at byte 8", pt_le16(d + 8));
	uint16_t hsz = pt_le16(d + 12);
	if (hsz < 64 || hsz % 8 || hsz > f->size)
		return pt_err(e, "bad CUPTIDMP header size %u at byte 12", hsz);
	if (d[14] != 1)
		return pt_err(e, "not a little-endian CUPTIDMP dump at byte 14");
	if (d[15] != 8)
		return pt_err(e, "unsupported pointer size %u at byte 15", d[15]);
	f->version = pt_le32(d + 16);
	f->pid = pt_le32(d + 28);
	f->hflags = (uint32_t)pt_le64(d + 40);
	d = NULL;
	f->rank = f->local_rank = f->world = -1;

	uint64_t off = hsz;
	for (;;) {
		if (off >= f->size)
			break;
		if (f->size - off < 16) {
			pt_cupti_warnf(f, "truncated dump: incomplete chunk at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		const uint8_t *h = pt_cupti_at(f, off, 16);
		if (!h)
			return -1;
		uint32_t type = pt_le32(h);
		uint64_t plen = pt_le64(h + 8);
		if (type == 0 && plen == 0) {
			pt_cupti_warnf(f, "truncated dump: zero fill at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		if (plen > f->size - off - 16) {
			pt_cupti_warnf(f, "truncated dump: incomplete chunk at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		if (f->have_end) {
			pt_cupti_warnf(f, "ignored bytes after the END chunk at byte %" PRIu64, off);
			break;
		}
		/* the payload: whole, but only its 32-byte head for a BUFFER (pass 1 reads the rest) */
		const uint8_t *p = pt_cupti_at(f, off + 16, type == PT_CDUMP_BUFFER && plen > 32 ? 32 : plen);
		if (!p)
			return -1;
		switch (type) {
		case PT_CDUMP_KIND_TABLE:
			if (f->kt_seen)
				pt_cupti_warnf(f, "ignored a second KIND_TABLE chunk at byte %" PRIu64, off);
			else
				load_kind_table(f, p, plen, off);
			break;
		case PT_CDUMP_CLOCK_SYNC:
			if (plen < 40) {
				chunk_bad(f, off, off + 16, "CLOCK_SYNC");
			} else {
				struct clk c = { pt_le64(p), pt_le64(p + 8), pt_le64(p + 16), pt_le64(p + 24) };
				pt_vec_push(&f->clocks, c);
			}
			break;
		case PT_CDUMP_STRINGS:
			load_strings(f, p, plen, off, false);
			break;
		case PT_CDUMP_BLOBS:
			load_strings(f, p, plen, off, true);
			break;
		case PT_CDUMP_BUFFER:
			if (!f->kt_seen) {
				pt_cupti_warnf(f, "ignored a BUFFER chunk before the KIND_TABLE at byte %" PRIu64, off);
			} else if (plen < 32 || pt_le64(p + 8) != plen - 32) {
				pt_cupti_warnf(f, "malformed BUFFER chunk at byte %" PRIu64 ": valid size differs from the payload; "
					 "chunk skipped", off);
			} else {
				uint64_t seq = pt_le64(p);
				if (f->seq_started && seq != f->last_seq + 1)
					pt_cupti_warnf(f, "BUFFER chunk at byte %" PRIu64 ": seq %" PRIu64 " follows %" PRIu64
						 " (gap in seq)", off, seq, f->last_seq);
				f->seq_started = true;
				f->last_seq = seq;
				pt_vec_push(&f->buffers, off);
			}
			break;
		case PT_CDUMP_CBID_NAMES:
			load_cbid_names(m, f, p, plen, off);
			break;
		case PT_CDUMP_PROCESS:
			load_process(f, p, plen, off);
			break;
		case PT_CDUMP_DROPPED:
			for (uint64_t i = 0; i < PT_CDUMP_D__N && (i + 1) * 8 <= plen; i++)
				f->dropped[i] = pt_le64(p + 8 * i);
			if (plen < 8)
				chunk_bad(f, off, off + 16, "DROPPED");
			break;
		case PT_CDUMP_THREAD_NAMES:
			load_thread_names(m, f, p, plen, off);
			break;
		case PT_CDUMP_END:
			if (plen < 24) {
				chunk_bad(f, off, off + 16, "END");
			} else {
				f->end_buffers = pt_le64(p);
				f->end_records = pt_le64(p + 8);
			}
			f->have_end = true;
			break;
		default:
			f->unknown_chunks++;
			break;
		}
		uint64_t next = off + 16 + pt_cdump_round8(plen);
		if (next <= off)
			break;
		off = next;
	}
	if (!f->have_end && !f->truncated)
		pt_cupti_warnf(f, "truncated dump: no END chunk");
	/* layouts */
	int range = pt_cl_range_of(f->version);
	for (uint32_t k = 1; k < PT_CK__MAX; k++) {
		if (!f->stride[k] || !pt_cl_fields(k))
			continue;
		int why = 0;
		f->lay[k] = pt_cl_find(f->version, k, f->stride[k], &why);
		if (!f->lay[k])
			continue;
		for (int i = 0; i < F__N; i++) {
			const struct pt_cl_field *fd = pt_cl_field(k, field_names[i]);
			if (fd && pt_cl_field_in(fd, f->lay[k]->size, range))
				f->fo[k][i] = (struct fo){ (int16_t)fd->off, fd->size };
			else
				f->fo[k][i] = (struct fo){ 0, 0 };
		}
	}
	return 0;
}

static void stats(struct pt_model *m, struct cf *f)
{
	int32_t d = (int32_t)f->cpu_dev;
	pt_model_stat_set(m, d, "cupti.buffers", (int64_t)f->n_buffers_read);
	pt_model_stat_set(m, d, "cupti.records", (int64_t)f->n_records);
	const struct { const char *k; uint64_t v; } s[] = {
		{ "cupti.records_dropped_by_cupti", f->dropped[0] },
		{ "cupti.buffers_refused", f->dropped[1] },
		{ "cupti.buffers_not_written", f->dropped[2] },
		{ "cupti.bytes_discarded", f->dropped[3] },
		{ "cupti.unknown_kind_bytes", f->unknown_kind_bytes },
		{ "cupti.incomplete_records", f->incomplete },
		{ "cupti.untimed_records", f->untimed },
		{ "cupti.start_after_end", f->start_after_end },
		{ "cupti.gpu_before_api", f->gpu_before_api },
		{ "cupti.gpu_without_api", f->gpu_without_api },
		{ "cupti.kernels_without_launch", f->kernels_without_launch },
		{ "cupti.correlation_duplicates", f->corr_dup },
		{ "cupti.unknown_string_ids", f->unknown_strings },
		{ "cupti.raw_kind_records", f->raw_records },
		{ "cupti.nvtx_end_without_start", f->nvtx_end_without_start },
		{ "cupti.nvtx_end_before_start", f->nvtx_end_before_start },
		{ "cupti.nvtx_start_repeated", f->nvtx_start_repeated },
		{ "cupti.nvtx_unterminated", f->nvtx_unterminated },
		{ "cupti.nvtx_bad_parent", f->nvtx_bad_parent },
		{ "cupti.nvtx_extra_info_repeated", f->nvtx_extra_info_repeated },
		{ "cupti.nvtx_bad_extra_info", f->nvtx_bad_extra_info },
		{ "cupti.sync_unknown_context", f->unknown_context },
		{ "cupti.sync_without_event_record", f->sync_unjoined },
		{ "cupti.unknown_chunks", f->unknown_chunks },
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].v)
			pt_model_stat_set(m, d, s[i].k, (int64_t)s[i].v);
	for (uint32_t k = 0; k < PT_CK__MAX; k++)
		if (f->skipped_kind[k]) {
			char key[64];
			snprintf(key, sizeof(key), "cupti.skipped_kind_%" PRIu32, k);
			pt_model_stat_set(m, d, key, (int64_t)f->skipped_kind[k]);
		}
	if (f->dropped[0] || f->dropped[1] || f->dropped[2] || f->dropped[3])
		pt_cupti_warnf(f, "the collector lost records (%" PRIu64 " dropped by CUPTI, %" PRIu64 " buffers refused, %" PRIu64
			 " buffers not written, %" PRIu64 " bytes discarded); totals are lower bounds",
		      f->dropped[0], f->dropped[1], f->dropped[2], f->dropped[3]);
	if (f->unknown_context)
		pt_cupti_warnf(f, "%" PRIu64 " synchronization records with an unknown context put on device 4294967295",
		      f->unknown_context);
	if (f->unknown_strings)
		pt_cupti_warnf(f, "%" PRIu64 " references to unknown string ids", f->unknown_strings);
	if (f->have_end && !f->truncated && (f->end_buffers != f->buffers.n || f->end_records != f->n_records))
		pt_cupti_warnf(f, "END counts %" PRIu64 " buffers, %" PRIu64 " records; read %zu buffers, %" PRIu64 " records",
		      f->end_buffers, f->end_records, f->buffers.n, f->n_records);
}

static void cf_free(struct cf *f)
{
	free(f->str);
	pt_hashmap_free(&f->cbid);
	pt_hashmap_free(&f->cbid_put);
	pt_hashmap_free(&f->tnames);
	pt_hashmap_free(&f->nvtx_tnames);
	pt_vec_free(&f->clocks);
	free(f->host);
	free(f->comm);
	free(f->exe);
	pt_vec_free(&f->buffers);
	pt_hashmap_free(&f->gpu);
	pt_hashmap_free(&f->ctx_dev);
	pt_hashmap_free(&f->tracks);
	pt_vec_free(&f->thread_tracks);
	pt_cjoin_free(f->join);
	pt_vec_free(&f->markers);
	pt_hashmap_free(&f->mdata);
	pt_hashmap_free(&f->mdata0);
	pt_vec_free(&f->pending_sync);
	pt_vec_free(&f->cuda_events);
	pt_gpu_mem_pack_free(&f->gmem);
	pt_vec_free(&f->sbytes);
	free(f->win);
	pt_err_free(f->rerr);
}

/* The error of a read that failed or came short, passed on to *e. */
static int read_failed(struct cf *f, struct pt_err **e)
{
	if (!f->rerr)
		return pt_err(e, "cannot read '%s'", f->path);
	int rc = pt_err(e, "%s", f->rerr->msg);
	return rc;
}

static int import_one(struct pt_model *m, const char *path, int fd, size_t size, bool keep_packed,
		      struct pt_diag *diag, struct pt_err **e)
{
	struct cf *f = pt_xcalloc(1, sizeof(*f));
	f->path = path;
	f->fd = fd;
	f->size = size;
	f->diag = diag;
	f->last_track_key = f->last_track_key2 = UINT64_MAX;
	pt_hashmap_init(&f->cbid);
	pt_hashmap_init(&f->cbid_put);
	pt_hashmap_init(&f->tnames);
	pt_hashmap_init(&f->nvtx_tnames);
	pt_hashmap_init(&f->gpu);
	pt_hashmap_init(&f->ctx_dev);
	pt_hashmap_init(&f->tracks);
	pt_hashmap_init(&f->mdata);
	pt_hashmap_init(&f->mdata0);
	int rc = pass0(m, f, e);
	if (rc && f->rerr)
		read_failed(f, e);
	if (rc) {
		cf_free(f);
		free(f);
		return rc;
	}
	setup_time(f);
	/* the process's CPU device */
	struct pt_device cd;
	memset(&cd, 0, sizeof(cd));
	cd.id = f->pid;
	cd.kind = PT_DEV_CPU;
	cd.name = f->comm ? pt_xstrdup(f->comm) : pt_xasprintf("process %" PRIu32, f->pid);
	cd.clock = pt_xstrdup("unix");
	cd.pid = f->pid;
	cd.rank = f->rank;
	cd.world_size = f->world > 0 ? f->world : 0;
	cd.host = f->host && *f->host ? pt_xstrdup(f->host) : NULL;
	f->cpu_dev = pt_model_new_device(m, &cd);
	pt_model_add_source(m, path, size, "cupti", (int32_t)f->cpu_dev);
	/* the joins keep what they need of the events: these may be encoded and dropped as they come */
	f->join = pt_cjoin_new(m);
	window_cap(f, PT_CUPTI_WINDOW);
	f->ra = PT_CUPTI_WINDOW;
	/* the ids the activities carry, so that the join keeps only the calls that
	 * launched something (a few percent of the calls of a real trace) */
	pt_cjoin_filter(f->join);
	f->scanning = true;
	for (size_t i = 0; i < f->buffers.n; i++) {
		if (!pt_cupti_scan_buffer(f, f->buffers.v[i])) {
			read_failed(f, e);
			cf_free(f);
			free(f);
			return -1;
		}
	}
	f->scanning = false;
	pt_input_test_shrink(path);
	for (size_t i = 0; i < f->buffers.n; i++) {
		if (!pt_cupti_walk_buffer(m, f, f->buffers.v[i])) {
			read_failed(f, e);
			cf_free(f);
			free(f);
			return -1;
		}
	}
	pt_cupti_emit_syncs(m, f);
	size_t nr = 0;
	struct range *rs = pt_cupti_build_ranges(m, f, &nr);
	pt_cupti_join_ranges(f, rs, nr);
	free(rs);
	if (keep_packed) /* only written: the writer and the counters' replay read them packed */
		pt_gpu_mem_keep_packed(m, &f->gmem);
	else
		pt_gpu_mem_unpack(m, &f->gmem);
	pt_cupti_name_threads(m, f);
	stats(m, f);
	cf_free(f);
	free(f);
	return 0;
}

/* ---- discovery ---------------------------------------------------------------------------- */

static int import_file(struct pt_model *m, const char *path, bool named, bool keep_packed, struct pt_diag *diag,
		       struct pt_err **e)
{
	int fd;
	uint64_t size;
	if (pt_input_open(path, &fd, &size, e))
		return -1;
	if (size > SIZE_MAX / 2) {
		close(fd);
		return pt_err(e, "'%s' is too large (%" PRIu64 " bytes)", path, size);
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a larger read-ahead, as the mapping had */
	int rc = import_one(m, path, fd, (size_t)size, keep_packed, diag, e);
	pt_progress_end();
	close(fd);
	if (rc && !named)
		pt_err(e, "'%s'", path);
	return rc;
}

int pt_import_cupti(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		    struct pt_diag *diag, struct pt_err **e)
{
	bool any = false;
	for (size_t i = 0; i < in->n; i++) {
		if (in->v[i].skip) { /* a FIFO would block the open for ever */
			pt_input_skip(diag, in->v[i].path, in->v[i].skip);
			continue;
		}
		if (import_file(m, in->v[i].path, in->v[i].named, o->only_written, diag, e))
			return -1;
		any = true;
	}
	if (any)
		pt_cupti_mem_counters(m); /* memory counter tracks (import-cupti-memory.c) */
	return any ? 0 : 1;
}
