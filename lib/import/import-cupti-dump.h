/*
 * One CUPTI dump being read (private to the CUPTI importer's files):
 *   import-cupti.c          the importer: framing and small chunks (pass 0), the time mapping,
 *                           the counters, the driver of one dump
 *   import-cupti-records.c  the reading window, strings, devices and tracks, and the records
 *                           of every BUFFER (pass 1)
 *   import-cupti-ranges.c   NVTX ranges, the launch and range joins, the synchronization joins
 *                           and thread names (pass 2)
 */
#ifndef PT_IMPORT_CUPTI_DUMP_H
#define PT_IMPORT_CUPTI_DUMP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cupti/cdump.h"
#include "cupti/cupti-layouts.h"
#include "import/import-cupti-memory.h"
#include "model/gpu-mem-pack.h"
#include "model/model.h"
#include "support/hashmap.h"
#include "support/vec.h"

struct pt_cjoin;
struct pt_diag;
struct pt_err;

#define PT_CUPTI_WINDOW (64u << 10)      /* the window of pass 1 */
#define PT_CUPTI_READ_AHEAD (64u << 10) /* what pass 0 reads past a chunk header */

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
	bool scanning;       /* reading for pt_cupti_scan_buffer(): no progress reports */
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
	struct pt_hashmap cbid_put; /* domain << 32 | cbid -> 1 once its row is in m->api_cbids */
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
	struct pt_hashmap mdata0;   /* marker id -> payload bits (payloadKind 0, a double) */
	PT_VEC(uint8_t) pending_sync; /* raw sync records, decoded after the context map is known */
	PT_VEC(struct cuda_event) cuda_events;
	struct pt_gpu_mem_pack gmem; /* MEMORY2 rows, packed (model/gpu-mem-pack.h) */
	uint32_t sync_stride;
	int64_t max_time;
	/* counters */
	uint64_t n_records, n_buffers_read, untimed, start_after_end, gpu_before_api, gpu_without_api,
		kernels_without_launch, corr_dup, unknown_strings, unknown_kind_bytes, incomplete, raw_records,
		nvtx_end_without_start, nvtx_unterminated, nvtx_end_before_start, nvtx_start_repeated,
		nvtx_bad_parent, unknown_chunks, unknown_context, sync_unjoined, nvtx_extra_info_repeated,
		nvtx_bad_extra_info;
};

void pt_cupti_warnf(struct cf *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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

/* import-cupti-records.c */
const uint8_t *pt_cupti_at(struct cf *f, uint64_t off, size_t len);
uint32_t pt_cupti_gpu_device(struct pt_model *m, struct cf *f, uint32_t cuda_dev);
uint32_t pt_cupti_track(struct pt_model *m, struct cf *f, uint32_t dev, enum pt_track_kind kind, int64_t stream);
bool pt_cupti_times(struct cf *f, uint64_t s, uint64_t en, int64_t *start, int64_t *dur);
uint32_t pt_cupti_ctx_device(struct cf *f, uint32_t ctx, bool *known);
uint64_t pt_cupti_walk_buffer(struct pt_model *m, struct cf *f, uint64_t coff);
bool pt_cupti_scan_buffer(struct cf *f, uint64_t coff);

/* import-cupti-ranges.c */
struct range *pt_cupti_build_ranges(struct pt_model *m, struct cf *f, size_t *nr);
void pt_cupti_join_ranges(struct cf *f, const struct range *rs, size_t nr);
void pt_cupti_emit_syncs(struct pt_model *m, struct cf *f);
void pt_cupti_name_threads(struct pt_model *m, struct cf *f);

#endif
