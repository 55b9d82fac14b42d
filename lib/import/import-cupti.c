/*
 * CUPTI importer (cupti.md §1, §2, §6, §8.4): reads CUPTIDMP dumps written by
 * the collector (or the generator) without any CUPTI header. Pass 0 walks the
 * chunk framing and loads the small chunks (kind table, strings, names, clock
 * syncs, process facts); pass 1 walks every BUFFER with the stored strides
 * and decodes records through the layout table (lib/cupti/cupti-layouts.c);
 * pass 2 pairs NVTX markers into ranges and joins GPU work to its API call
 * and enclosing range. One CPU device per dump (process) and one GPU device
 * per (dump, CUDA device).
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
#include "import/import-cupti-join.h"
#include "import/input.h"
#include "import/import-cupti-memory.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/xalloc.h"
#include "support/sort.h"

/* ---- per-kind field offsets resolved from the layout table ------------------ */

struct fo {
	int16_t off; /* -1 = absent (default 0) */
	uint8_t size;
};

enum {
	F_START, F_END, F_DEVICE, F_CONTEXT, F_STREAM, F_CORR, F_CORR2, F_NAME,
	F_GX, F_GY, F_GZ, F_BX, F_BY, F_BZ, F_SSMEM, F_DSMEM, F_REGS, F_GRAPH,
	F_COPYKIND, F_SRCKIND, F_DSTKIND, F_BYTES, F_SRCDEV, F_DSTDEV, F_MEMKIND,
	F_CBID, F_PID, F_TID, F_TYPE, F_FLAGS, F_TS, F_ID, F_OBJKIND, F_OBJID, F_DOMAIN,
	F_PAYLOADKIND, F_PAYLOAD, F_EXTKIND, F_EXTID,
	F_SM, F_MEM, F_BW, F_CCMAJ, F_CCMIN, F_DEVID, F_NULLSTREAM,
	F_EVENTID, F_CUDAEVENTID, F_SYNCID,
	F__N
};

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

static inline uint64_t get(const uint8_t *r, struct fo f)
{
	switch (f.size) {
	case 1: return r[f.off];
	case 2: return pt_le16(r + f.off);
	case 4: return pt_le32(r + f.off);
	case 8: return pt_le64(r + f.off);
	case 12: return pt_le32(r + f.off); /* objid: first u32 */
	default: return 0;
	}
}

static inline int32_t geti(const uint8_t *r, struct fo f)
{
	return (int32_t)(uint32_t)get(r, f);
}

/* ---- one dump ------------------------------------------------------------------ */

struct str_ent {
	uint64_t off; /* offset of the bytes in cf.sbytes + 1, 0 = id absent */
	uint32_t len;
	uint32_t mid; /* model string id, UINT32_MAX = not interned yet */
};

struct clk {
	uint64_t cupti, real, mono, unc;
};

struct marker {
	uint32_t id, flags, objkind, tid, name, domain, order;
	int64_t ts;
};

struct range {
	int64_t start, end;
	uint32_t track, name, domain, flags, order;
	uint64_t id;
	bool thread; /* object kind THREAD (else process-wide) */
};

/* A cudaEventRecord (CUDA_EVENT record), kept for the synchronization joins of cupti.md §6.7. */
struct cuda_event {
	uint32_t ctx, event_id, stream, corr;
	uint64_t sync_id;
};

/* A cbid name found before: (domain << 32 | cbid) -> model string id + 1 (0 = empty). */
struct cbid_hit {
	uint64_t key;
	uint32_t name;
};

struct cf {
	const char *path;
	int fd;
	size_t size; /* when it was opened */
	/* the window: file bytes [woff, woff + wlen) in win (wcap bytes); reads go ra bytes ahead */
	uint8_t *win;
	size_t wcap, wlen, ra;
	uint64_t woff;
	struct pt_err *rerr; /* a read that failed or came short, for the caller */
	PT_VEC(char) sbytes; /* the bytes of the STRINGS entries, interned on first use */
	struct pt_diag *diag;
	uint32_t version, pid, hflags;
	/* kind table */
	bool kt_seen;
	uint32_t stride[PT_CK__MAX], kflags[PT_CK__MAX];
	const struct pt_cl_layout *lay[PT_CK__MAX];
	struct fo fo[PT_CK__MAX][F__N];
	bool warned_kind[PT_CK__MAX];
	uint64_t skipped_kind[PT_CK__MAX];
	/* tables */
	struct str_ent *str;
	size_t nstr;
	uint32_t last_str_id, last_blob_id;
	uint64_t nblobs;
	struct pt_hashmap cbid;   /* domain << 32 | cbid -> model string id + 1 */
	struct pt_hashmap tnames; /* tid -> model string id + 1 (THREAD_NAMES) */
	struct pt_hashmap nvtx_tnames; /* tid -> model string id + 1 (NAME records) */
	PT_VEC(struct clk) clocks;
	uint64_t dropped[PT_CDUMP_D__N];
	int32_t rank, local_rank, world;
	uint32_t ppid;
	char *host, *comm, *exe;
	PT_VEC(uint64_t) buffers; /* chunk offsets */
	bool have_end, truncated;
	uint64_t end_buffers, end_records, last_seq;
	bool seq_started;
	/* time mapping */
	int tmode; /* 0 identity, 1 offset, 2 linear */
	int64_t t_off;
	struct clk ca, cb;
	/* model */
	uint32_t cpu_dev;
	struct pt_hashmap gpu;     /* CUDA device id -> model device index */
	uint32_t last_gpu_cuda, last_gpu; /* the last one found (index + 1, 0 none) */
	struct cbid_hit cbid_cache[16]; /* recent cbid lookups */
	struct pt_hashmap ctx_dev; /* contextId -> CUDA device id */
	struct pt_hashmap tracks;  /* (model device << 40 | kind << 36 | stream & 0xfffffffff) -> track */
	uint64_t last_track_key;
	uint32_t last_track;
	PT_VEC(uint32_t) thread_tracks; /* host thread tracks created, to be named at the end */
	struct pt_cjoin *join;     /* launch and range joins (import-cupti-join.h) */
	uint32_t copy_names[11 * 9 * 9 + 9]; /* model string id + 1 of "Memcpy ..." / "Memset (...)" */
	uint64_t last_track_key2;
	uint32_t last_track2;
	uint32_t last_ctx, last_ctx_dev;
	bool have_ctx;
	PT_VEC(struct marker) markers;
	struct pt_hashmap mdata;    /* marker id -> payload (payloadKind 1 only) + 1 */
	PT_VEC(uint8_t) pending_sync; /* raw sync records, decoded after the context map is known */
	PT_VEC(struct cuda_event) cuda_events;
	uint32_t sync_stride;
	int64_t max_time;
	/* counters */
	uint64_t n_records, n_buffers_read, untimed, start_after_end, gpu_before_api, gpu_without_api,
		kernels_without_launch, corr_dup, unknown_strings, unknown_kind_bytes, incomplete, raw_records,
		nvtx_end_without_start, nvtx_unterminated, nvtx_end_before_start, nvtx_start_repeated,
		nvtx_bad_parent, unknown_chunks, unknown_context, sync_unjoined;
};

static void warnf(struct cf *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(struct cf *f, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pt_diag_warn(f->diag, f->path, buf, PT_POS_NONE, 0);
}

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

/* ---- time ------------------------------------------------------------------------ */

static void setup_time(struct cf *f)
{
	size_t n = f->clocks.n;
	if (!n) {
		warnf(f, "no clock sync in the dump; CUPTI timestamps used as they are");
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

/* Mapped times are kept within [0, 2^62] ns (1970 to 2116), like the Ascend device times: any
 * difference of two of them is then a valid model duration (|d| <= 2^62, proftool-model(5)) and any
 * sum fits in int64; a hostile clock mapping that leaves that range makes the record untimed, as
 * does one whose interpolation product (two differences of 64-bit times) leaves 128 bits. */
#define CUPTI_TIME_LIMIT ((__int128)1 << 62)

static inline bool tmap(const struct cf *f, uint64_t t, int64_t *out)
{
	__int128 v;
	if (f->tmode == 0) {
		v = (__int128)t;
	} else if (f->tmode == 1) {
		v = (__int128)t + f->t_off;
	} else {
		__int128 num;
		if (__builtin_mul_overflow((__int128)t - (__int128)f->ca.cupti,
					   (__int128)f->cb.real - (__int128)f->ca.real, &num))
			return false;
		v = (__int128)f->ca.real + num / ((__int128)f->cb.cupti - (__int128)f->ca.cupti);
	}
	if (v > CUPTI_TIME_LIMIT || v < 0)
		return false;
	*out = (int64_t)v;
	return true;
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
	*v = pt_model_new_device(m, &d);
	return (uint32_t)*v;
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

/* ---- pass 0: framing and small chunks ----------------------------------------------- */

static void chunk_bad(struct cf *f, uint64_t coff, uint64_t eoff, const char *what)
{
	warnf(f, "malformed %s chunk at byte %" PRIu64 ": entry at byte %" PRIu64 " runs past the payload; rest of "
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
		warnf(f, "malformed KIND_TABLE chunk at byte %" PRIu64 ": entry size %" PRIu32 " below 16", coff, esz);
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
			warnf(f, "KIND_TABLE at byte %" PRIu64 ": stride %" PRIu32 " of kind %" PRIu32
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
			warnf(f, "%s chunk at byte %" PRIu64 ": id %" PRIu32 " follows %" PRIu32 " (gap in ids)",
			      blobs ? "BLOBS" : "STRINGS", coff, id, *last);
		*last = id;
		if (!blobs && id) {
			if (id >= f->nstr) {
				/* never allocate blindly: ids are dense, so a sane id is below the bytes seen */
				if (id > f->size) {
					warnf(f, "STRINGS chunk at byte %" PRIu64 ": implausible id %" PRIu32 " ignored", coff, id);
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

/* ---- reading ------------------------------------------------------------------------ */

#define WINDOW (1u << 20)       /* the window of pass 1 */
#define READ_AHEAD (64u << 10) /* what pass 0 reads past a chunk header */

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
	return f->win;
}

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
	f->ra = READ_AHEAD;
	const uint8_t *d = f->size >= PT_CDUMP_HEADER_SIZE ? at(f, 0, PT_CDUMP_HEADER_SIZE) : NULL;
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
			warnf(f, "truncated dump: incomplete chunk at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		const uint8_t *h = at(f, off, 16);
		if (!h)
			return -1;
		uint32_t type = pt_le32(h);
		uint64_t plen = pt_le64(h + 8);
		if (type == 0 && plen == 0) {
			warnf(f, "truncated dump: zero fill at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		if (plen > f->size - off - 16) {
			warnf(f, "truncated dump: incomplete chunk at byte %" PRIu64, off);
			f->truncated = true;
			break;
		}
		if (f->have_end) {
			warnf(f, "ignored bytes after the END chunk at byte %" PRIu64, off);
			break;
		}
		/* the payload: whole, but only its 32-byte head for a BUFFER (pass 1 reads the rest) */
		const uint8_t *p = at(f, off + 16, type == PT_CDUMP_BUFFER && plen > 32 ? 32 : plen);
		if (!p)
			return -1;
		switch (type) {
		case PT_CDUMP_KIND_TABLE:
			if (f->kt_seen)
				warnf(f, "ignored a second KIND_TABLE chunk at byte %" PRIu64, off);
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
				warnf(f, "ignored a BUFFER chunk before the KIND_TABLE at byte %" PRIu64, off);
			} else if (plen < 32 || pt_le64(p + 8) != plen - 32) {
				warnf(f, "malformed BUFFER chunk at byte %" PRIu64 ": valid size differs from the payload; "
					 "chunk skipped", off);
			} else {
				uint64_t seq = pt_le64(p);
				if (f->seq_started && seq != f->last_seq + 1)
					warnf(f, "BUFFER chunk at byte %" PRIu64 ": seq %" PRIu64 " follows %" PRIu64
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
		warnf(f, "truncated dump: no END chunk");
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
			pt_model_add_gpu_mem(m, &cm.mem);
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

/* Decode the records of the BUFFER chunk at coff; returns the offset of its end, 0 when the file
 * could not be read (f->rerr). */
static uint64_t walk_buffer(struct pt_model *m, struct cf *f, uint64_t coff)
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
			warnf(f, "buffer %" PRIu64 ": trailing bytes at byte %" PRIu64, seq, coff + 48 + off);
			break;
		}
		const uint8_t *r = at(f, b + off, 4);
		if (!r)
			return 0;
		uint32_t k = pt_le32(r);
		uint32_t s = k < PT_CK__MAX ? f->stride[k] : 0;
		if (!s) {
			warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": unknown activity kind %" PRIu32 " at byte %" PRIu64
				 "; rest of the buffer skipped", seq, n, k, coff + 48 + off);
			f->unknown_kind_bytes += valid - off;
			break;
		}
		if (off + s > valid) {
			warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": incomplete record (have %" PRIu64 " of %" PRIu32
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
				warnf(f, "kind %" PRIu32 " was written without pointer rewrite; its names are <unresolved>", k);
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
					warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": layout mismatch for kind %" PRIu32
						 " (stride %" PRIu32 ") in CUPTI %" PRIu32 " at byte %" PRIu64
						 "; records of this kind skipped", seq, n, k, s, f->version, coff + 48 + off);
				else if (pt_cl_fields(k))
					warnf(f, "buffer %" PRIu64 ", record %" PRIu64 ": no layout for kind %" PRIu32
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
		warnf(f, "buffer %" PRIu64 ": walked %" PRIu64 " records, collector reported %" PRIu32, seq, n, nrec);
	return coff + 48 + valid;
}

/* ---- pass 2 ------------------------------------------------------------------------------- */

static const char *const typed_domains[] = { "ProfileStep", "Forward", "Backward", "Optimization", "Dataloader",
					     "Operator", "OperatorInner", "UserDefined", "Communication", NULL };

static bool is_step_name(const char *s)
{
	if (strncmp(s, "ProfilerStep#", 13) || !s[13])
		return false;
	for (s += 13; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* PyTorch emit_nvtx operator text: "<op>, seq = ..." etc.; returns the op length or 0. */
static size_t torch_op_len(const char *s)
{
	const char *c = strstr(s, ", ");
	if (!c || c == s)
		return 0;
	if (!strncmp(c, ", seq = ", 8) || !strncmp(c, ", op_id = ", 10) || !strncmp(c, ", sizes = ", 10))
		return (size_t)(c - s);
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* longer first: the shorter is pushed later (innermost) */
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Pair markers into ranges and add their events; returns the ranges (sorted by start). */
static struct range *build_ranges(struct pt_model *m, struct cf *f, size_t *nr)
{
	size_t n = f->markers.n;
	*nr = 0;
	if (!n)
		return NULL;
	/* paired in file order (the order CUPTI delivered them), so that an END before its START is seen */
	struct range *rs = pt_xmalloc(n * sizeof(*rs));
	size_t k = 0;
	struct pt_hashmap open; /* id -> marker index + 1 */
	pt_hashmap_init(&open);
	for (size_t i = 0; i < n; i++) {
		const struct marker *mk = &f->markers.v[i];
		bool thread = mk->objkind == 2;
		uint32_t t = track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, thread ? (int64_t)mk->tid : -1);
		if (mk->flags & 1) { /* instantaneous */
			rs[k++] = (struct range){ mk->ts, mk->ts, t, mk->name, mk->domain, PT_RANGE_INSTANT,
						  (uint32_t)i, mk->id, thread };
		} else if (mk->flags & 2) { /* start */
			bool added;
			uint64_t *v = pt_hashmap_put(&open, mk->id, i + 1, &added);
			if (!added) {
				f->nvtx_start_repeated++;
				*v = i + 1;
			}
		} else if (mk->flags & 4) { /* end */
			uint64_t *v = pt_hashmap_get(&open, mk->id);
			if (!v) {
				f->nvtx_end_without_start++;
				continue;
			}
			const struct marker *st = &f->markers.v[*v - 1];
			pt_hashmap_del(&open, mk->id);
			if (mk->ts < st->ts) {
				f->nvtx_end_before_start++;
				continue;
			}
			bool th = st->objkind == 2;
			uint32_t tt = track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, th ? (int64_t)st->tid : -1);
			rs[k++] = (struct range){ st->ts, mk->ts, tt, st->name, st->domain, 0, (uint32_t)(*v - 1), st->id,
						  th };
		}
	}
	/* unterminated: closed at the last timestamp of the trace, in start order */
	for (size_t i = 0; i < n; i++) {
		const struct marker *st = &f->markers.v[i];
		uint64_t *v = pt_hashmap_get(&open, st->id);
		if (!v || *v != i + 1)
			continue;
		f->nvtx_unterminated++;
		bool th = st->objkind == 2;
		uint32_t tt = track(m, f, f->cpu_dev, PT_TRACK_HOST_THREAD, th ? (int64_t)st->tid : -1);
		rs[k++] = (struct range){ st->ts, f->max_time > st->ts ? f->max_time : st->ts, tt, st->name, st->domain,
					  PT_RANGE_UNTERMINATED, (uint32_t)i, st->id, th };
	}
	pt_hashmap_free(&open);
	pt_sort(rs, k, sizeof(*rs), cmp_range);
	/* events and range info; nvtx id -> range event for explicit parents */
	struct pt_hashmap byid;
	pt_hashmap_init(&byid);
	size_t r0 = m->ranges.n;
	for (size_t i = 0; i < k; i++) {
		struct range *r = &rs[i];
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, r->track, r->name, PT_EV_RANGE, r->start, r->end - r->start, 0, PT_NONE, 0);
		const char *name = pt_model_strget(m, r->name), *dom = r->domain ? pt_model_strget(m, r->domain) : "";
		const char *type = "UserRange";
		uint32_t label = 0;
		for (int j = 0; typed_domains[j]; j++)
			if (!strcmp(dom, typed_domains[j]))
				type = typed_domains[j];
		if (!strcmp(type, "UserRange") && is_step_name(name)) {
			type = "ProfileStep";
		} else if (!strcmp(type, "UserRange") && !r->domain) {
			size_t ol = torch_op_len(name);
			if (ol) {
				type = "Operator";
				label = pt_strtab_intern(&m->strings, name, ol);
			}
		}
		struct pt_range_info ri = { ev, pt_model_str(m, type), label, r->domain, 0, r->id, r->flags };
		pt_model_add_range(m, &ri);
		if (!(r->flags & PT_RANGE_INSTANT))
			*pt_hashmap_put(&byid, r->id, 0, NULL) = i + 1;
		r->order = ev; /* from here on: the range's event index */
	}
	/* explicit parents (typed domains only) */
	for (size_t i = 0; i < k; i++) {
		struct range *r = &rs[i];
		struct pt_range_info *ri = &m->ranges.v[r0 + i];
		bool typed = false;
		const char *dom = r->domain ? pt_model_strget(m, r->domain) : "";
		for (int j = 0; typed_domains[j]; j++)
			typed |= !strcmp(dom, typed_domains[j]);
		uint64_t *pv = typed ? pt_hashmap_get(&f->mdata, r->id) : NULL;
		if (!pv || *pv == 1)
			continue;
		uint64_t *pr = pt_hashmap_get(&byid, *pv - 1);
		if (!pr || rs[*pr - 1].track != r->track || *pr - 1 == i)
			f->nvtx_bad_parent++;
		else
			ri->parent = rs[*pr - 1].order + 1;
	}
	pt_hashmap_free(&byid);
	*nr = k;
	return rs;
}

/* The launch and range joins (import-cupti-join.h) over the ranges of build_ranges(). */
static void join(struct cf *f, const struct range *rs, size_t nr)
{
	struct pt_cjoin_range *jr = pt_xmalloc((nr ? nr : 1) * sizeof(*jr));
	for (size_t i = 0; i < nr; i++)
		jr[i] = (struct pt_cjoin_range){ rs[i].start, rs[i].end, rs[i].track, rs[i].order, rs[i].thread,
						 (rs[i].flags & PT_RANGE_INSTANT) != 0 };
	struct pt_cjoin_stats st;
	pt_cjoin_finish(f->join, jr, nr, &st);
	free(jr);
	f->gpu_before_api += st.gpu_before_api;
	f->gpu_without_api += st.gpu_without_api;
	f->kernels_without_launch += st.kernels_without_launch;
	f->corr_dup += st.corr_dup;
}

/* CUDA event records in (context, event id, correlation id, file order) order:
 * the candidates of one sync are then one run, searched by correlation id. */
static int cuda_event_cmp(const void *pa, const void *pb)
{
	const struct cuda_event *a = pa, *b = pb;
	if (a->ctx != b->ctx)
		return a->ctx < b->ctx ? -1 : 1;
	if (a->event_id != b->event_id)
		return a->event_id < b->event_id ? -1 : 1;
	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	return 0;
}

/*
 * The cudaEventRecord an Event Sync or Stream Wait Event waited for (cupti.md
 * §6.7): the record with the same non-zero cudaEventSyncId, else (Kineto's
 * rule) the last record of the same context and event id whose correlation id
 * is smaller than the sync's. NULL when none.
 */
static const struct cuda_event *sync_source(const struct cf *f, const struct pt_hashmap *by_sync, uint32_t ctx,
					    uint32_t event_id, uint32_t corr, uint64_t sync_id)
{
	if (sync_id) {
		uint64_t *v = pt_hashmap_get(by_sync, sync_id);
		return v ? &f->cuda_events.v[*v] : NULL;
	}
	const struct cuda_event *ce = f->cuda_events.v;
	size_t lo = 0, hi = f->cuda_events.n; /* first record not below (ctx, event_id, corr) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct cuda_event key = { ctx, event_id, 0, corr, 0 };
		if (cuda_event_cmp(&ce[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ce[lo - 1].ctx != ctx || ce[lo - 1].event_id != event_id)
		return NULL;
	return &ce[lo - 1];
}

static void emit_syncs(struct pt_model *m, struct cf *f)
{
	struct pt_hashmap by_sync;
	pt_hashmap_init(&by_sync);
	if (f->cuda_events.n) {
		pt_sort(f->cuda_events.v, f->cuda_events.n, sizeof(*f->cuda_events.v), cuda_event_cmp);
		for (size_t i = 0; i < f->cuda_events.n; i++)
			if (f->cuda_events.v[i].sync_id) {
				bool added;
				uint64_t *v = pt_hashmap_put(&by_sync, f->cuda_events.v[i].sync_id, i, &added);
				if (!added)
					*v = i; /* a repeated id: the last record in sort order */
			}
	}
	static const char *const names[] = { "Unknown Sync", "Event Sync", "Stream Wait Event", "Stream Sync",
					     "Context Sync" };
	uint32_t s = f->stride[PT_CK_SYNCHRONIZATION];
	const struct fo *o = f->fo[PT_CK_SYNCHRONIZATION];
	for (size_t off = 0; s && off + s <= f->pending_sync.n; off += s) {
		const uint8_t *r = f->pending_sync.v + off;
		int64_t start, dur;
		if (!times(f, get(r, o[F_START]), get(r, o[F_END]), &start, &dur))
			continue;
		bool known;
		uint32_t dev = ctx_device(f, (uint32_t)get(r, o[F_CONTEXT]), &known);
		if (!known) {
			f->unknown_context++;
			dev = UINT32_MAX;
		}
		uint32_t gd = gpu_device(m, f, dev);
		uint32_t stream = (uint32_t)get(r, o[F_STREAM]);
		uint32_t t = track(m, f, gd, PT_TRACK_STREAM, stream == UINT32_MAX ? -1 : (int64_t)stream);
		uint32_t ty = (uint32_t)get(r, o[F_TYPE]);
		uint32_t corr = (uint32_t)get(r, o[F_CORR]);
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, t, pt_model_str(m, ty < 5 ? names[ty] : "Unknown Sync"), PT_EV_SYNC, start, dur,
				   corr, PT_NONE, 0);
		pt_cjoin_activity(f->join, ev, start, corr, 0, false);
		uint32_t eid = (uint32_t)get(r, o[F_CUDAEVENTID]);
		struct pt_sync_info si = { ev, ty, eid == UINT32_MAX ? -1 : (int64_t)eid, -1, -1 };
		if (ty == 1 || ty == 2) { /* EVENT_SYNCHRONIZE, STREAM_WAIT_EVENT */
			const struct cuda_event *ce = sync_source(f, &by_sync, (uint32_t)get(r, o[F_CONTEXT]), eid,
								  corr, get(r, o[F_SYNCID]));
			if (ce) {
				si.wait_stream = ce->stream == UINT32_MAX ? -1 : (int64_t)ce->stream;
				si.wait_corr = ce->corr;
			} else {
				f->sync_unjoined++;
			}
		}
		pt_model_add_sync(m, &si);
	}
	pt_hashmap_free(&by_sync);
}

static void name_threads(struct pt_model *m, struct cf *f)
{
	for (size_t i = 0; i < f->thread_tracks.n; i++) {
		struct pt_track *t = &m->tracks.v[f->thread_tracks.v[i]];
		uint64_t *v = pt_hashmap_get(&f->nvtx_tnames, (uint64_t)t->stream);
		if (!v)
			v = pt_hashmap_get(&f->tnames, (uint64_t)t->stream);
		if (v)
			t->name = (uint32_t)(*v - 1);
	}
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
		warnf(f, "the collector lost records (%" PRIu64 " dropped by CUPTI, %" PRIu64 " buffers refused, %" PRIu64
			 " buffers not written, %" PRIu64 " bytes discarded); totals are lower bounds",
		      f->dropped[0], f->dropped[1], f->dropped[2], f->dropped[3]);
	if (f->unknown_context)
		warnf(f, "%" PRIu64 " synchronization records with an unknown context put on device 4294967295",
		      f->unknown_context);
	if (f->unknown_strings)
		warnf(f, "%" PRIu64 " references to unknown string ids", f->unknown_strings);
	if (f->have_end && !f->truncated && (f->end_buffers != f->buffers.n || f->end_records != f->n_records))
		warnf(f, "END counts %" PRIu64 " buffers, %" PRIu64 " records; read %zu buffers, %" PRIu64 " records",
		      f->end_buffers, f->end_records, f->buffers.n, f->n_records);
}

static void cf_free(struct cf *f)
{
	free(f->str);
	pt_hashmap_free(&f->cbid);
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
	pt_vec_free(&f->pending_sync);
	pt_vec_free(&f->cuda_events);
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

static int import_one(struct pt_model *m, const char *path, int fd, size_t size, struct pt_diag *diag,
		      struct pt_err **e)
{
	struct cf *f = pt_xcalloc(1, sizeof(*f));
	f->path = path;
	f->fd = fd;
	f->size = size;
	f->diag = diag;
	f->last_track_key = f->last_track_key2 = UINT64_MAX;
	pt_hashmap_init(&f->cbid);
	pt_hashmap_init(&f->tnames);
	pt_hashmap_init(&f->nvtx_tnames);
	pt_hashmap_init(&f->gpu);
	pt_hashmap_init(&f->ctx_dev);
	pt_hashmap_init(&f->tracks);
	pt_hashmap_init(&f->mdata);
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
	f->cpu_dev = pt_model_new_device(m, &cd);
	pt_model_add_source(m, path, size, "cupti", (int32_t)f->cpu_dev);
	/* the joins keep what they need of the events: these may be encoded and dropped as they come */
	f->join = pt_cjoin_new(m);
	window_cap(f, WINDOW);
	f->ra = WINDOW;
	pt_input_test_shrink(path);
	for (size_t i = 0; i < f->buffers.n; i++) {
		if (!walk_buffer(m, f, f->buffers.v[i])) {
			read_failed(f, e);
			cf_free(f);
			free(f);
			return -1;
		}
	}
	emit_syncs(m, f);
	size_t nr = 0;
	struct range *rs = build_ranges(m, f, &nr);
	join(f, rs, nr);
	free(rs);
	name_threads(m, f);
	stats(m, f);
	cf_free(f);
	free(f);
	return 0;
}

/* ---- discovery ---------------------------------------------------------------------------- */

static int import_file(struct pt_model *m, const char *path, bool named, struct pt_diag *diag, struct pt_err **e)
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
	int rc = import_one(m, path, fd, (size_t)size, diag, e);
	close(fd);
	if (rc && !named)
		pt_err(e, "'%s'", path);
	return rc;
}

int pt_import_cupti(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		    struct pt_diag *diag, struct pt_err **e)
{
	(void)o;
	bool any = false;
	for (size_t i = 0; i < in->n; i++) {
		if (in->v[i].skip) { /* a FIFO would block the open for ever */
			pt_input_skip(diag, in->v[i].path, in->v[i].skip);
			continue;
		}
		if (import_file(m, in->v[i].path, in->v[i].named, diag, e))
			return -1;
		any = true;
	}
	if (any)
		pt_cupti_mem_counters(m); /* memory counter tracks (import-cupti-memory.c) */
	return any ? 0 : 1;
}
