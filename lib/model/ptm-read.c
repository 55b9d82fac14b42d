/* Reading the .ptm model file, streamed chunk by chunk (see ptm.h); each chunk is checked and applied by ptm-apply.c. */
#include "model/ptm.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include "model/model.h"
#include "model/ptm-apply.h"
#include "model/ptm-columns.h"
#include "model/ptm-source.h"
#include "proftool.pb-c.h"
#include "support/err.h"
#include "support/progress.h"
#include "support/xalloc.h"

struct reader {
	int fd;
	const char *name;
	bool compressed;
	struct inflate_state *z; /* ISA-L's inflate of the body (heap: 85 KiB) */
	int zhdr;                /* zlib header bytes taken (2: the deflate data follows) */
	uint8_t zh[2];
	bool zcheck;             /* verify the Adler-32 after the deflate data */
	const char *zerr;        /* a fault found after bytes that were returned first, in words */
	bool zend;
	uint8_t *in;   /* raw file bytes */
	size_t in_cap, in_len, in_pos;
	bool in_eof;
	uint64_t raw_read, raw_size; /* for progress; raw_size 0: not a regular file */
	uint64_t body_off; /* uncompressed body offset consumed */
	uint32_t crc;
	/* inflated bytes not yet consumed: small reads (a chunk's length, its
	 * first bytes) are served from here, so that a chunk costs one call of
	 * inflate() at most, not one per byte */
	uint8_t *ob;
	size_t ob_len, ob_pos;
	const struct pt_ptm_tape *play; /* the body comes from this tape, not from fd */
	size_t play_pos;
	struct pt_ptm_tape *rec;        /* the body read goes to this tape too (until it outgrows it) */
};
#define OB_CAP (64u << 10)

#define BAD(...) do { rc = pt_err(e, __VA_ARGS__); goto out; } while (0)

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
		r->raw_read += (uint64_t)n;
		pt_progress_report(r->name, r->raw_read, r->raw_size);
		return 0;
	}
}

/* An ISA-L inflate error in words (zlib's own for the same fault). */
static const char *inflate_words(int zr)
{
	switch (zr) {
	case ISAL_INVALID_BLOCK:
		return "invalid block";
	case ISAL_INVALID_SYMBOL:
		return "invalid code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	case ISAL_INCORRECT_CHECKSUM:
		return "incorrect data check";
	default:
		return "inflate error";
	}
}

/*
 * The zlib header (RFC 1950), checked here; ISA-L reads the deflate data after it, and the Adler-32
 * after that unless this read skips it. NULL when it is good or not all read yet; else the fault.
 */
static const char *zlib_header(struct reader *r)
{
	while (r->zhdr < 2 && r->in_pos < r->in_len)
		r->zh[r->zhdr++] = r->in[r->in_pos++];
	if (r->zhdr < 2)
		return NULL;
	if ((r->zh[0] & 0x0f) != 8)
		return "unknown compression method";
	if (r->zh[0] >> 4 > 7)
		return "invalid window size";
	if (((unsigned)r->zh[0] << 8 | r->zh[1]) % 31)
		return "incorrect header check";
	if (r->zh[1] & 0x20)
		return "needs a preset dictionary";
	r->z->crc_flag = r->zcheck ? ISAL_ZLIB_NO_HDR_VER : ISAL_DEFLATE;
	return NULL;
}

/* Inflate into p[0, n); returns the bytes produced (0: the stream ended or
 * the input is exhausted), or -1 with *e set. */
static ptrdiff_t inflate_some(struct reader *r, uint8_t *p, size_t n, uint64_t at, struct pt_err **e)
{
	for (;;) {
		if (r->zerr)
			return pt_err(e, "'%s': corrupt compressed data near body offset %" PRIu64 " (%s)", r->name,
				      at, r->zerr);
		if (r->zend || fill_in(r, e))
			return r->zend ? 0 : -1;
		struct inflate_state *z = r->z;
		if (r->zhdr < 2) {
			r->zerr = zlib_header(r);
			if (r->zerr || r->zhdr < 2) {
				if (!r->zerr && r->in_eof)
					return 0;
				continue;
			}
		}
		z->next_in = r->in + r->in_pos;
		z->avail_in = (uint32_t)(r->in_len - r->in_pos);
		z->next_out = p;
		z->avail_out = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
		uint32_t before = z->avail_out, in_before = z->avail_in;
		int zr = isal_inflate(z);
		size_t got = before - z->avail_out;
		r->in_pos = r->in_len - z->avail_in;
		if (zr != ISAL_DECOMP_OK && zr != ISAL_END_INPUT && zr != ISAL_OUT_OVERFLOW)
			r->zerr = inflate_words(zr); /* the bytes before the damage first; the next call reports it */
		else if (z->block_state == ISAL_BLOCK_FINISH)
			r->zend = true;
		else if (!got && z->avail_in == in_before && in_before)
			r->zerr = "no progress"; /* neither input taken nor output made: never loop on it */
		if (got || r->zend)
			return (ptrdiff_t)got;
		if (!r->zerr && r->in_eof && r->in_pos == r->in_len)
			return 0; /* truncated: the caller names the offset */
	}
}

/*
 * Keep p[0, n), the next body bytes, on the recording tape; past its limit, drop it. The tape is a
 * mapping of its own, of limit bytes, whose pages count once written: no copy as it grows, and
 * dropping it gives them back without moving malloc's mmap threshold (freeing a large block raises
 * it, and the blocks the pass grows after it would then be copied within the heap).
 */
static void tape_put(struct reader *r, const uint8_t *p, size_t n)
{
	struct pt_ptm_tape *t = r->rec;
	if (!t->v && t->limit) {
		void *v = mmap(NULL, t->limit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (v != MAP_FAILED) {
			t->v = v;
			t->cap = t->limit;
		}
	}
	if (!t->v || n > t->cap - t->n) {
		pt_ptm_tape_free(t);
		t->over = true;
		r->rec = NULL;
		return;
	}
	memcpy(t->v + t->n, p, n);
	t->n += n;
}

/* Read exactly n body bytes into p; returns 1 ok, 0 clean end before any byte, -1 error/truncation. */
static int body_read(struct reader *r, uint8_t *p, size_t n, struct pt_err **e)
{
	size_t got = 0;
	if (r->play) { /* bytes read, inflated and checked before */
		size_t k = r->play->n - r->play_pos;
		got = k < n ? k : n;
		memcpy(p, r->play->v + r->play_pos, got);
		r->play_pos += got;
	}
	while (got < n && !r->play) {
		if (r->compressed) {
			if (r->ob_pos < r->ob_len) {
				size_t k = r->ob_len - r->ob_pos;
				if (k > n - got)
					k = n - got;
				memcpy(p + got, r->ob + r->ob_pos, k);
				r->ob_pos += k;
				got += k;
				continue;
			}
			/* a large read inflates in place; a small one through ob */
			bool direct = n - got >= OB_CAP;
			ptrdiff_t k = inflate_some(r, direct ? p + got : r->ob, direct ? n - got : OB_CAP, r->body_off + got, e);
			if (k < 0)
				return -1;
			if (!k)
				break;
			if (direct) {
				got += (size_t)k;
			} else {
				r->ob_pos = 0;
				r->ob_len = (size_t)k;
			}
			continue;
		}
		if (fill_in(r, e))
			return -1;
		size_t k = r->in_len - r->in_pos;
		if (!k)
			break;
		if (k > n - got)
			k = n - got;
		memcpy(p + got, r->in + r->in_pos, k);
		r->in_pos += k;
		got += k;
	}
	if (got < n) {
		if (!got)
			return 0;
		return pt_err(e, "'%s': truncated model at body offset %" PRIu64, r->name, r->body_off + got);
	}
	r->body_off += n;
	if (r->rec)
		tape_put(r, p, n);
	return 1;
}

/*
 * Read a chunk of len body bytes into *buf (capacity *cap). The buffer grows
 * geometrically with the bytes that actually arrive (read or inflated), never
 * to the length the file claims up front: a tiny file claiming a 256 MiB
 * chunk costs a few KiB before it is found truncated. Returns as body_read(),
 * 0 meaning that the body ended at r->body_off (the bytes before it consumed).
 */
#define CHUNK_STEP (64u << 10)

static int chunk_read(struct reader *r, uint8_t **buf, size_t *cap, size_t have, size_t len, struct pt_err **e)
{
	while (have < len) {
		size_t want = have * 2;
		if (want < *cap)
			want = *cap;
		if (want < CHUNK_STEP)
			want = CHUNK_STEP;
		if (want > len)
			want = len;
		pt_xgrow((void **)buf, cap, want, 1);
		int k = body_read(r, *buf + have, want - have, e);
		if (k <= 0)
			return k;
		have = want;
	}
	return 1;
}


/*
 * The framing of a chunk from its first bytes p[0, n) (n = min(len, 16), so
 * that the key and the message length are there): one length-delimited
 * field of Chunk, its message filling the rest of the len bytes. Its field
 * number into *field and the bytes before the message into *hlen; false
 * when the chunk is framed otherwise (no writer does).
 */
static bool chunk_head(const uint8_t *p, size_t n, uint64_t len, uint32_t *field, size_t *hlen)
{
	const uint8_t *q = p, *end = p + n;
	uint64_t key, mlen;
	if (!pt_cols_varint(&q, end, &key) || (key & 7) != 2 || !(key >> 3) || key >> 3 > UINT32_MAX ||
	    !pt_cols_varint(&q, end, &mlen))
		return false;
	*hlen = (size_t)(q - p);
	*field = (uint32_t)(key >> 3);
	return mlen == len - *hlen;
}

/* The longest chunk of Chunk field number field (0: unknown) (ptm.h). */
static uint64_t chunk_limit(uint32_t field, const struct ids *ids)
{
	switch (field) {
	case PROFTOOL__CHUNK__BODY_STRINGS:
		return PT_PTM_MAX_CHUNK;
	case PROFTOOL__CHUNK__BODY_TRACK_EVENTS: /* six varints per track */
		return 6 * ((uint64_t)ids->ntracks * 10 + 16) + 64;
	case PROFTOOL__CHUNK__BODY_EVENTS:
	case PROFTOOL__CHUNK__BODY_QUEUES:
	case PROFTOOL__CHUNK__BODY_COUNTERS:
	case PROFTOOL__CHUNK__BODY_MD_RECORDS:
	case PROFTOOL__CHUNK__BODY_KERNELS:
	case PROFTOOL__CHUNK__BODY_COPIES:
	case PROFTOOL__CHUNK__BODY_LINKS:
	case PROFTOOL__CHUNK__BODY_EXT_CORR:
	case PROFTOOL__CHUNK__BODY_API_CBIDS:
	case PROFTOOL__CHUNK__BODY_SYNCS:
	case PROFTOOL__CHUNK__BODY_EVENT_ARGS:
	case PROFTOOL__CHUNK__BODY_AICORE:
	case PROFTOOL__CHUNK__BODY_MEM_TENSORS:
	case PROFTOOL__CHUNK__BODY_GPU_MEM:
	case PROFTOOL__CHUNK__BODY_GPU_POOLS:
	case PROFTOOL__CHUNK__BODY_HCCL:
	case PROFTOOL__CHUNK__BODY_MEM_NODES:
		return PT_PTM_MAX_BATCH;
	case 0:
		return PT_PTM_MAX_OTHER;
	default:
		return PT_PTM_MAX_RECORD;
	}
}

/*
 * Do the string fields of the message p[0, n) (descriptor d) and of the
 * messages it holds contain no NUL byte? protobuf-c keeps such a string,
 * and C code would read it cut at the NUL. Malformed bytes pass: protobuf-c
 * refuses them next.
 */
static bool strings_clean(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n, int depth)
{
	const uint8_t *q = p, *end = p + n;
	while (q < end) {
		uint64_t key, v;
		if (!pt_cols_varint(&q, end, &key))
			return true;
		switch (key & 7) {
		case 0:
			if (!pt_cols_varint(&q, end, &v))
				return true;
			break;
		case 1:
		case 5:
			if ((size_t)(end - q) < ((key & 7) == 1 ? 8u : 4u))
				return true;
			q += (key & 7) == 1 ? 8 : 4;
			break;
		case 2: {
			if (!pt_cols_varint(&q, end, &v) || v > (uint64_t)(end - q))
				return true;
			const ProtobufCFieldDescriptor *f =
				key >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)(key >> 3)) : NULL;
			if (f && f->type == PROTOBUF_C_TYPE_STRING && memchr(q, 0, (size_t)v))
				return false;
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE && depth < 8 &&
			    !strings_clean(f->descriptor, q, (size_t)v, depth + 1))
				return false;
			q += v;
			break;
		}
		default:
			return true;
		}
	}
	return true;
}


/*
 * Does the chunk add nothing to the model: a message without fields, or a
 * batch (a message whose first field is repeated) without any value?
 */
static bool chunk_empty(const Proftool__Chunk *c, size_t mlen)
{
	if (!mlen)
		return true;
	const ProtobufCFieldDescriptor *cf =
		protobuf_c_message_descriptor_get_field(&proftool__chunk__descriptor, (unsigned)c->body_case);
	if (!cf || cf->type != PROTOBUF_C_TYPE_MESSAGE)
		return false;
	const ProtobufCMessageDescriptor *d = cf->descriptor;
	const char *msg = *(const char *const *)((const char *)c + cf->offset);
	if (!d->n_fields || d->fields[0].label != PROTOBUF_C_LABEL_REPEATED)
		return false;
	for (unsigned i = 0; i < d->n_fields; i++)
		if (d->fields[i].label == PROTOBUF_C_LABEL_REPEATED &&
		    *(const size_t *)(msg + d->fields[i].quantifier_offset))
			return false;
	return true;
}

/* Is this chunk one that a streaming read cannot apply (it refers to events by index)? */
static bool needs_events(Proftool__Chunk__BodyCase body)
{
	return body == PROFTOOL__CHUNK__BODY_KERNELS || body == PROFTOOL__CHUNK__BODY_COPIES ||
	       body == PROFTOOL__CHUNK__BODY_LINKS || body == PROFTOOL__CHUNK__BODY_SYNCS ||
	       body == PROFTOOL__CHUNK__BODY_RANGE || body == PROFTOOL__CHUNK__BODY_EVENT_ARGS;
}

/* The chunks of the CUPTI side tables that PT_PTM_TABLES_BATCHWISE hands to the sink one at a time. */
static bool side_table(Proftool__Chunk__BodyCase body)
{
	return needs_events(body) || body == PROFTOOL__CHUNK__BODY_EXT_CORR || body == PROFTOOL__CHUNK__BODY_API_CBIDS;
}

/*
 * The body of every read. Without a sink the events accumulate in m; with
 * one, m->events is emptied before each batch and the sink sees the batch
 * alone (see ptm.h), until it returns PT_PTM_WHOLE: the read goes on as a
 * full read from there. Returns 0, -1 (error in *e), the sink's stop value,
 * or PT_PTM_WHOLE when the sink asked for it and the rest read well.
 */
static int read_body(int fd, const char *name, struct pt_model *m, const struct pt_ptm_sink *sink,
		     unsigned skip_cols, struct pt_ptm_tape *tape, struct pt_err **e)
{
	struct reader r;
	memset(&r, 0, sizeof(r));
	r.fd = fd;
	r.name = name;
	bool events_only = sink && sink->events_only, whole = false;
	/* a tape of the event batches alone serves the reads of the events alone; another reads the file */
	bool replay = tape && tape->whole && (!tape->events_only || events_only);
	if (replay)
		r.play = tape;
	else if (tape && !tape->over && !tape->whole)
		r.rec = tape;
	r.in_cap = replay ? 1 : 1 << 20;
	r.in = pt_xmalloc(r.in_cap);
	struct stat st;
	bool reg = !replay && !fstat(fd, &st) && S_ISREG(st.st_mode);
	if (pt_progress && reg)
		r.raw_size = (uint64_t)st.st_size;
	/* a file larger than the tape, with room for deflate's stored-block overhead: its body is too */
	if (r.rec && reg && (uint64_t)st.st_size > (uint64_t)tape->limit + tape->limit / 64 + 4096) {
		r.rec = NULL;
		tape->over = true;
	}
	bool taping = r.rec != NULL; /* (r.rec is NULL meanwhile over a chunk the tape does not keep) */
	r.ob = pt_xmalloc(OB_CAP);
	r.crc = 0; /* CRC-32 (zlib's crc32(), ISA-L's crc32_gzip_refl(): the same function) */
	uint8_t *chunk = NULL;
	size_t chunk_cap = 0;
	struct pt_cols *cols = pt_xcalloc(1, sizeof(*cols));
	struct ids ids;
	memset(&ids, 0, sizeof(ids));
	if (events_only) /* the model a first read of the same file filled */
		pt_ptm_ids_of(&ids, m);
	ids.batchwise = sink != NULL;
	ids.skip = sink && sink->skip_tables;
	ids.kinds = ids.skip && !events_only; /* a second read applies no side table */
	ids.keep_kernels = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_KERNELS);
	ids.keep_args = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_ARGS);
	ids.keep_gpu_mem = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_GPU_MEM);
	ids.keep_ranges = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_RANGES);
	ids.keep_links = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_LINKS);
	ids.links_batchwise = ids.keep_links && (sink->skip_tables & PT_PTM_LINKS_BATCHWISE);
	ids.keep_copies = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_COPIES);
	if (ids.kinds && (sink->skip_tables & PT_PTM_SKIP_BUT_TABLES))
		ids.keep_kernels = ids.keep_args = ids.keep_gpu_mem = ids.keep_ranges = ids.keep_tables = true;
	ids.ranges_batchwise = ids.keep_ranges && (sink->skip_tables & PT_PTM_RANGES_BATCHWISE);
	ids.drop_launch = ids.kinds && (sink->skip_tables & PT_PTM_SKIP_LAUNCH_TABLES);
	if (ids.keep_tables && (sink->skip_tables & PT_PTM_TABLES_NO_MEM_LINKS)) {
		ids.keep_gpu_mem = false;
		ids.no_links = true;
	}
	ids.no_ext_corr = ids.keep_tables && (sink->skip_tables & PT_PTM_TABLES_NO_EXT_CORR);
	bool tables_batchwise = ids.keep_tables && (sink->skip_tables & PT_PTM_TABLES_BATCHWISE);
	ids.strings_counted = ids.kinds && (sink->skip_tables & PT_PTM_STRINGS_COUNTED);
	ids.ext_batchwise = ids.keep_tables && !ids.no_ext_corr && (sink->skip_tables & PT_PTM_EXT_CORR_BATCHWISE);
	/* kept once set, a read turned whole included: the rows stay in one place */
	ids.pack_gpu_mem = ids.skip && (sink->skip_tables & PT_PTM_PACK_GPU_MEM);
	/* the descriptor indices of the EventBatch fields a sink's batch() does not read */
	uint32_t skip_fields = 0;
	static const struct { uint8_t bit; unsigned field; } nocol[] = {
		{ PT_PTM_NO_NAME, 2 }, { PT_PTM_NO_DUR, 5 },  { PT_PTM_NO_CORR, 6 },
		{ PT_PTM_NO_CORR, 10 }, { PT_PTM_NO_OP, 7 }, { PT_PTM_NO_TASK, 8 },
	};
	for (size_t k = 0; sink && k < sizeof(nocol) / sizeof(nocol[0]); k++) {
		const ProtobufCFieldDescriptor *f =
			protobuf_c_message_descriptor_get_field(&proftool__event_batch__descriptor, nocol[k].field);
		if ((skip_cols & nocol[k].bit) && f)
			skip_fields |= 1u << (f - proftool__event_batch__descriptor.fields);
	}
	int rc = 0;

	/* header: 16 raw bytes (a tape holds the body of a file whose header was checked) */
	uint8_t hdr[16];
	size_t got = replay ? sizeof(hdr) : 0;
	if (replay)
		memcpy(hdr, PT_PTM_MAGIC, PT_PTM_MAGIC_LEN);
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
	if (replay) {
		ver = PT_PTM_VERSION;
		flags = 0;
	}
	if (ver > PT_PTM_VERSION)
		BAD("'%s': model format version %" PRIu32 " is newer than this proftool reads (%d)", name, ver,
		    PT_PTM_VERSION);
	if (ver == 0 || (flags & ~PT_PTM_FLAG_ZLIB))
		BAD("'%s': unsupported model header at offset 8", name);
	r.compressed = flags & PT_PTM_FLAG_ZLIB;
	if (r.compressed) {
		r.z = pt_xmalloc(sizeof(*r.z));
		isal_inflate_init(r.z);
		/* a read again of a file read whole before (events_only) checks the body's bytes by the
		 * footer's CRC-32 alone: the zlib Adler-32 of the same bytes was checked the first time */
		r.zcheck = !events_only;
	}

	bool footer = false;
	while (!footer) {
		uint64_t off = r.body_off;
		uint32_t crc_before = r.crc;
		size_t tape_at = r.rec ? tape->n : 0; /* where this chunk starts on the recording tape */
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
		if (!len)
			BAD("'%s': empty chunk (length 0) at body offset %" PRIu64, name, off);
		/* the kind, from the first bytes: its limit holds before the rest is read */
		size_t head = len < 16 ? (size_t)len : 16, hlen;
		uint32_t field;
		const uint8_t *cb = NULL; /* the chunk's bytes: where a tape replayed holds them, else in chunk */
		if (r.play && r.play->n - r.play_pos >= len) {
			cb = r.play->v + r.play_pos;
			r.play_pos += (size_t)len;
			r.body_off += len;
		} else {
			pt_xgrow((void **)&chunk, &chunk_cap, head, 1);
			int k = body_read(&r, chunk, head, e);
			if (k < 0) {
				rc = -1;
				goto out;
			}
			if (!k)
				BAD("'%s': truncated model at body offset %" PRIu64, name, r.body_off);
		}
		if (!chunk_head(cb ? cb : chunk, head, len, &field, &hlen))
			BAD("'%s': corrupt chunk at body offset %" PRIu64, name, off);
		const ProtobufCFieldDescriptor *cf =
			protobuf_c_message_descriptor_get_field(&proftool__chunk__descriptor, field);
		uint64_t lim = chunk_limit(cf ? field : 0, &ids);
		if (len > lim)
			BAD("'%s': %s chunk of %" PRIu64 " bytes at body offset %" PRIu64
			    " exceeds the limit of %" PRIu64 " bytes for its kind",
			    name, cf ? cf->name : "unknown", len, off, lim);
		/* a tape of the event batches alone (pt_ptm_tape.events_only) does not keep this chunk */
		bool untaped = r.rec && tape->events_only && field != PROFTOOL__CHUNK__BODY_EVENTS &&
			       field != PROFTOOL__CHUNK__BODY_FOOTER;
		if (untaped) {
			tape->n = tape_at;
			r.rec = NULL;
		}
		if (!cb) {
			int k = chunk_read(&r, &chunk, &chunk_cap, head, (size_t)len, e);
			if (untaped)
				r.rec = tape;
			if (k < 0) {
				rc = -1;
				goto out;
			}
			if (!k)
				BAD("'%s': truncated model at body offset %" PRIu64, name, r.body_off);
			cb = chunk;
		} else if (untaped) {
			r.rec = tape;
		}
		if (field == PROFTOOL__CHUNK__BODY_FOOTER) {
			/* a tape's bytes were checked when it was recorded: its footer gets the checksum of then */
			if (replay)
				crc_before = tape->crc;
			else if (r.rec)
				tape->crc = crc_before;
		}
		if (!replay) {
			r.crc = crc32_gzip_refl(r.crc, vb, (uint64_t)nb);
			r.crc = crc32_gzip_refl(r.crc, cb, len);
		}
		/* a read again applies the event batches and the footer alone: the rest, checked by the
		 * first read, is not even decoded */
		if (events_only && field != PROFTOOL__CHUNK__BODY_EVENTS && field != PROFTOOL__CHUNK__BODY_FOOTER)
			continue;
		size_t mlen = (size_t)len - hlen;
		if (!cf || field == PROFTOOL__CHUNK__BODY_STRINGS) {
			/* a kind from a newer writer (skipped), or the string table,
			 * read from the chunk's bytes */
			size_t added = 0;
			if (cf && !events_only &&
			    pt_ptm_strings_apply(m, &ids, cb + hlen, mlen, name, off, &added, e)) {
				rc = -1;
				goto out;
			}
			if ((cf ? !added : !mlen) && ++ids.nempty > PT_PTM_MAX_EMPTY)
				BAD("'%s': more than %d empty chunks (the last at body offset %" PRIu64 ")", name,
				    PT_PTM_MAX_EMPTY, off);
			continue;
		}
		Proftool__Chunk fc;
		Proftool__Chunk *c = NULL;
		const Proftool__Chunk *a = &fc;
		bool some = skip_fields && !whole && field == PROFTOOL__CHUNK__BODY_EVENTS;
		if (!(some ? pt_cols_chunk_some(cb, len, cols, &fc, skip_fields) : pt_cols_chunk(cb, len, cols, &fc))) {
			if (!strings_clean(cf->descriptor, cb + hlen, mlen, 0))
				BAD("'%s': invalid string (a NUL byte) in the chunk at body offset %" PRIu64, name, off);
			c = proftool__chunk__unpack(NULL, len, cb);
			if (!c)
				BAD("'%s': corrupt chunk at body offset %" PRIu64, name, off);
			a = c;
		}
		if (chunk_empty(a, mlen) && ++ids.nempty > PT_PTM_MAX_EMPTY) {
			if (c)
				proftool__chunk__free_unpacked(c, NULL);
			BAD("'%s': more than %d empty chunks (the last at body offset %" PRIu64 ")", name,
			    PT_PTM_MAX_EMPTY, off);
		}
		bool batch = a->body_case == PROFTOOL__CHUNK__BODY_EVENTS;
		if (sink && !(sink->skip_tables & PT_PTM_SKIP_BUT_COPIES))
			ids.keep_copies = false; /* the sink needs them no more (ptm.h) */
		/* a chunk of links alone, for the sink (PT_PTM_LINKS_BATCHWISE) */
		bool lbatch = a->body_case == PROFTOOL__CHUNK__BODY_LINKS && ids.links_batchwise && !whole;
		/* a chunk of external correlations alone, for the sink (PT_PTM_EXT_CORR_BATCHWISE) */
		bool xbatch = a->body_case == PROFTOOL__CHUNK__BODY_EXT_CORR && ids.ext_batchwise && !whole;
		if (sink && (batch || lbatch || xbatch) && !whole)
			m->events.n = 0;
		if (lbatch)
			m->links.n = 0;
		if (xbatch)
			m->ext_corr.n = 0;
		/* a chunk of a CUPTI side table alone, for the sink (PT_PTM_TABLES_BATCHWISE) */
		bool tbatch = tables_batchwise && !whole && side_table(a->body_case);
		if (tbatch) {
			m->events.n = 0;
			m->kernels.n = m->copies.n = m->links.n = m->ext_corr.n = m->api_cbids.n = 0;
			m->syncs.n = m->ranges.n = m->event_args.n = 0;
		}
		if (sink && !whole && needs_events(a->body_case) && !ids.skip) {
			rc = PT_PTM_STOP; /* a CUPTI side table: only a full read can check it */
		} else if (!events_only || batch || a->body_case == PROFTOOL__CHUNK__BODY_FOOTER) {
			rc = pt_ptm_apply(m, a, &ids, name, off, &footer, crc_before, e);
			if (!rc && sink && (batch || lbatch || tbatch || xbatch) && !whole)
				rc = sink->batch(sink->arg, m, e);
			/* range infos for the sink, a batch of them at a time (PT_PTM_RANGES_BATCHWISE) */
			if (!rc && sink && !whole && ids.ranges_batchwise && a->body_case == PROFTOOL__CHUNK__BODY_RANGE &&
			    m->ranges.n >= PT_PTM_EVENT_BATCH) {
				m->events.n = 0;
				rc = sink->batch(sink->arg, m, e);
			}
			if (rc == PT_PTM_WHOLE) { /* the batch stays: every later one joins it */
				whole = true;
				ids.skip = ids.kinds = ids.keep_kernels = ids.keep_args = ids.keep_gpu_mem = ids.keep_ranges = ids.keep_tables = ids.batchwise = false;
				ids.keep_links = ids.keep_copies = ids.links_batchwise = ids.ranges_batchwise = ids.drop_launch = false;
				ids.no_ext_corr = tables_batchwise = ids.ext_batchwise = false;
				rc = 0;
			}
		}
		if (c)
			proftool__chunk__free_unpacked(c, NULL);
		if (rc)
			goto out;
		/* the decoded columns hold one value per byte of the chunks that
		 * used them: let a few hostile chunks not keep more than needed */
		if (pt_cols_bytes(cols) > PT_COLS_KEEP) {
			pt_cols_free(cols);
			memset(cols, 0, sizeof(*cols));
		}
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
	if (whole)
		rc = PT_PTM_WHOLE;
out:
	if (taping && !tape->over) { /* the tape holds a whole body, checked, or nothing */
		if (rc == 0)
			tape->whole = true;
		else {
			pt_ptm_tape_free(tape);
			tape->over = true;
		}
	}
	pt_progress_end();
	m->events.expect = 0;
	free(r.z);
	free(chunk);
	pt_cols_free(cols);
	free(cols);
	for (int k = 0; k < 3; k++)
		free(ids.scratch[k].v);
	free(ids.kcode);
	free(ids.kpair);
	if (ids.nkpair)
		pt_hashmap_free(&ids.kpmap);
	free(r.in);
	free(r.ob);
	return rc;
}

int pt_ptm_read_fd(int fd, const char *name, struct pt_model **mp, struct pt_err **e)
{
	struct pt_model *m = pt_model_new();
	int rc = read_body(fd, name, m, NULL, 0, NULL, e);
	if (rc) {
		pt_model_free(m);
		*mp = NULL;
	} else {
		*mp = m;
	}
	return rc;
}

/* A descriptor for one read of path ("-": standard input, read again where pt_ptm_stdin_spool() allows;
 * a path with a stand-in: that model file, model/ptm-source.h; *own: the caller closes it), or -1 with *e
 * set. */
static int open_input(const char *path, bool *own, struct pt_err **e)
{
	*own = true;
	if (strcmp(path, "-")) {
		int fd = pt_ptm_standin_open(path);
		if (fd == -1)
			return pt_err_errno(e, errno, "cannot read '%s' again (its model in a temporary file)", path);
		if (fd < 0)
			fd = open(path, O_RDONLY | O_CLOEXEC);
		return fd >= 0 ? fd : pt_err_errno(e, errno, "cannot open '%s'", path);
	}
	if (!pt_ptm_stdin_again()) {
		*own = false;
		return 0;
	}
	int fd = pt_ptm_stdin_open();
	return fd >= 0 ? fd : pt_err_errno(e, errno, "cannot read standard input again");
}

int pt_ptm_read(const char *path, struct pt_model **m, struct pt_err **e)
{
	bool own;
	int fd = open_input(path, &own, e);
	if (fd < 0)
		return -1;
	int rc = pt_ptm_read_fd(fd, strcmp(path, "-") ? path : "standard input", m, e);
	if (own)
		close(fd);
	return rc;
}

int pt_ptm_read_stream_fd(int fd, const char *name, struct pt_model *m, const struct pt_ptm_sink *sink,
			  struct pt_err **e)
{
	return read_body(fd, name, m, sink, 0, NULL, e);
}

int pt_ptm_read_stream_fd_cols(int fd, const char *name, struct pt_model *m, const struct pt_ptm_sink *sink,
			       unsigned skip_cols, struct pt_err **e)
{
	return read_body(fd, name, m, sink, skip_cols, NULL, e);
}

int pt_ptm_read_stream_cols(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, unsigned skip_cols,
			    struct pt_err **e)
{
	return pt_ptm_read_stream_tape(path, m, sink, skip_cols, NULL, e);
}

int pt_ptm_read_stream_tape(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, unsigned skip_cols,
			    struct pt_ptm_tape *t, struct pt_err **e)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	if (t && t->whole && (!t->events_only || sink->events_only))
		return read_body(-1, name, m, sink, skip_cols, t, e);
	bool own;
	int fd = open_input(path, &own, e);
	if (fd < 0)
		return -1;
	int rc = read_body(fd, name, m, sink, skip_cols, t, e);
	if (own)
		close(fd);
	return rc;
}

void pt_ptm_tape_free(struct pt_ptm_tape *t)
{
	if (t->v)
		munmap(t->v, t->cap);
	t->v = NULL;
	t->n = t->cap = 0;
	t->whole = false;
}

int pt_ptm_read_stream(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, struct pt_err **e)
{
	return pt_ptm_read_stream_cols(path, m, sink, 0, e);
}

bool pt_ptm_probe(const char *path)
{
	if (pt_ptm_standin_has(path))
		return true;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char b[PT_PTM_MAGIC_LEN];
	ssize_t n = read(fd, b, sizeof(b));
	close(fd);
	return n == PT_PTM_MAGIC_LEN && !memcmp(b, PT_PTM_MAGIC, PT_PTM_MAGIC_LEN);
}

/* Append the events of tail (a spill's resident events) to ev. */
static void events_append(struct pt_events *ev, const struct pt_events *tail)
{
	size_t b = ev->n, n = tail->n;
	pt_events_reserve(ev, b + n);
	memcpy(ev->track + b, tail->track, n * sizeof(*ev->track));
	memcpy(ev->name + b, tail->name, n * sizeof(*ev->name));
	memcpy(ev->kind + b, tail->kind, n * sizeof(*ev->kind));
	memcpy(ev->start + b, tail->start, n * sizeof(*ev->start));
	memcpy(ev->dur + b, tail->dur, n * sizeof(*ev->dur));
	/* sparse columns: dense in either part means dense now; a part that
	 * never stored one holds zeros */
	struct {
		int bit;
		void *dst;
		const void *src;
		size_t size;
	} sp[3] = {
		{ PT_EVCOL_CORR, ev->corr, tail->corr, sizeof(*ev->corr) },
		{ PT_EVCOL_OP, ev->op, tail->op, sizeof(*ev->op) },
		{ PT_EVCOL_TASK, ev->task, tail->task, sizeof(*ev->task) },
	};
	for (int j = 0; j < 3; j++) {
		if (!((ev->dense | tail->dense) & sp[j].bit))
			continue;
		ev->dense |= (uint8_t)sp[j].bit;
		uint8_t *d = (uint8_t *)sp[j].dst + b * sp[j].size;
		if (tail->dense & sp[j].bit)
			memcpy(d, sp[j].src, n * sp[j].size);
		else
			memset(d, 0, n * sp[j].size);
	}
	ev->n = b + n;
}

/*
 * Decode the spilled batches of sp into m->events, through the reader's own
 * checks: appended one after another (fresh: every batch alone, and each
 * then handed to sink). m->events must not spill (spill NULL).
 */
/* One chunk of a spill, p[0, len) at offset off of its plain bytes: an event batch, applied to m
 * (alone when fresh) and given to the sink. */
static int spill_chunk(struct pt_model *m, struct ids *ids, struct pt_cols *cols, const uint8_t *p, size_t len,
		       uint64_t off, bool fresh, const struct pt_ptm_sink *sink, struct pt_err **e)
{
	Proftool__Chunk fc;
	bool footer = false;
	if (!pt_cols_chunk(p, len, cols, &fc) || fc.body_case != PROFTOOL__CHUNK__BODY_EVENTS)
		return pt_err(e, "'the spilled events': not an event batch at offset %" PRIu64, off);
	if (fresh)
		m->events.n = 0;
	int rc = pt_ptm_apply(m, &fc, ids, "the spilled events", off, &footer, 0, e);
	if (!rc && sink)
		rc = sink->batch(sink->arg, m, e);
	return rc;
}

/* The chunks of a sealed spill, inflated a window at a time: z[0, zlen) inflates to plain bytes; or those
 * of a plain file spill fsp (z NULL), its plain bytes read a window at a time. */
static int spill_decode_buf(struct pt_model *m, struct ids *ids, struct pt_cols *cols, const struct pt_spill *fsp,
			    const uint8_t *z, size_t zlen, uint64_t plain, bool fresh, const struct pt_ptm_sink *sink,
			    struct pt_err **e)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (!fsp && inflateInit2(&zs, -15) != Z_OK)
		return pt_err(e, "cannot initialise zlib");
	size_t cap = 1u << 20, pos = 0, fill = 0, zin = 0;
	uint8_t *buf = pt_xmalloc(cap);
	uint64_t off = 0, fin = 0; /* off: of buf[pos] in the plain bytes; fin: the file's bytes read */
	bool ended = false;
	int rc = 0;
	for (;;) {
		/* a whole chunk at buf[pos]: its length, then its bytes */
		const uint8_t *q = buf + pos, *end = buf + fill;
		uint64_t clen = 0;
		bool got = pt_cols_varint(&q, end, &clen);
		if (got && clen > PT_PTM_MAX_BATCH)
			BAD("'the spilled events': corrupt chunk length at offset %" PRIu64, off);
		if (got && clen <= (uint64_t)(end - q)) {
			if (fsp)
				pt_progress_items("reading the imported events", off, plain); /* once a batch */
			else
				pt_progress_items("reading the imported events", zin, zlen);
			rc = spill_chunk(m, ids, cols, q, (size_t)clen, off, fresh, sink, e);
			if (rc)
				goto out;
			size_t used = (size_t)(q - (buf + pos)) + (size_t)clen;
			pos += used;
			off += used;
			continue;
		}
		if (ended) {
			if (pos != fill || off != plain)
				BAD("'the spilled events': corrupt chunk length at offset %" PRIu64, off);
			break;
		}
		/* more bytes: the rest to the front, room for the longest chunk */
		memmove(buf, buf + pos, fill - pos);
		fill -= pos;
		pos = 0;
		if (fill == cap)
			pt_xgrow((void **)&buf, &cap, PT_PTM_MAX_BATCH + 16, 1);
		if (fsp) {
			size_t n = plain - fin < cap - fill ? (size_t)(plain - fin) : cap - fill;
			if (!n && fin < plain)
				BAD("'the spilled events': corrupt chunk length at offset %" PRIu64, off);
			if ((rc = pt_ptm_spill_file_read(fsp, fin, buf + fill, n, e)))
				goto out;
			fin += n;
			fill += n;
			ended = fin == plain;
			continue;
		}
		zs.next_in = (Bytef *)(uintptr_t)(z + zin);
		zs.avail_in = (uInt)(zlen - zin < (1u << 30) ? zlen - zin : 1u << 30);
		zs.next_out = buf + fill;
		zs.avail_out = (uInt)(cap - fill);
		uInt ai = zs.avail_in, ao = zs.avail_out;
		int zr = inflate(&zs, Z_NO_FLUSH);
		zin += ai - zs.avail_in;
		fill += ao - zs.avail_out;
		if (zr == Z_STREAM_END)
			ended = true;
		else if (zr != Z_OK || (ai == zs.avail_in && ao == zs.avail_out))
			BAD("the compressed spilled events do not inflate back (zlib %d)", zr);
	}
out:
	if (!fsp)
		inflateEnd(&zs);
	free(buf);
	return rc;
}

static int spill_decode(struct pt_model *m, struct pt_spill *sp, bool fresh, const struct pt_ptm_sink *sink,
			struct pt_err **e)
{
	size_t len = 0, zlen = 0;
	uint64_t plain = 0;
	const uint8_t *z = NULL, *p = NULL;
	/* a replay reads a compressing spill, or a plain file one, back as it is; anything else makes it plain
	 * and in memory first */
	if (fresh ? pt_ptm_spill_seal(sp, e) : pt_ptm_spill_inflate(sp, e))
		return -1;
	bool file = pt_ptm_spill_plain_file(sp, &plain);
	z = file ? NULL : pt_ptm_spill_zbytes(sp, &zlen, &plain);
	if (!z && !file)
		p = pt_ptm_spill_bytes(sp, &len);
	struct ids ids;
	memset(&ids, 0, sizeof(ids));
	pt_ptm_ids_of(&ids, m);
	struct pt_cols *cols = pt_xcalloc(1, sizeof(*cols));
	int rc = 0;
	if (z || file)
		rc = spill_decode_buf(m, &ids, cols, file ? sp : NULL, z, zlen, plain, fresh, sink, e);
	for (size_t off = 0; p && off < len && !rc;) {
		pt_progress_items("reading the imported events", off, len); /* once a batch */
		const uint8_t *q = p + off, *end = p + len;
		uint64_t clen;
		if (!pt_cols_varint(&q, end, &clen) || clen > (uint64_t)(end - q))
			BAD("'the spilled events': corrupt chunk length at offset %zu", off);
		rc = spill_chunk(m, &ids, cols, q, (size_t)clen, off, fresh, sink, e);
		off = (size_t)(q - p) + (size_t)clen;
	}
out:
	pt_cols_free(cols);
	free(cols);
	for (int k = 0; k < 3; k++)
		free(ids.scratch[k].v);
	return rc;
}

int pt_ptm_spill_undo(struct pt_model *m, struct pt_err **e)
{
	struct pt_events *ev = &m->events;
	struct pt_spill *sp = ev->spill;
	ev->spill = NULL; /* no more spilling, from the reads below on */
	if (!sp || !ev->base) {
		pt_ptm_spill_free(sp);
		return 0;
	}
	struct pt_events tail = *ev;
	memset(ev, 0, sizeof(*ev));
	int rc = spill_decode(m, sp, false, NULL, e);
	if (!rc && ev->n != tail.base)
		rc = pt_err(e, "'the spilled events': %zu events instead of %zu", ev->n, tail.base);
	if (!rc)
		events_append(ev, &tail);
	pt_events_free_columns(&tail);
	pt_ptm_spill_free(sp);
	return rc;
}

/* Copy the events [b, b + n) of src into the empty columns of dst. */
static void events_slice(struct pt_events *dst, const struct pt_events *src, size_t b, size_t n)
{
	struct pt_events part = *src;
	part.track += b, part.name += b, part.kind += b, part.start += b, part.dur += b;
	part.corr += b, part.op += b, part.task += b;
	part.n = n;
	dst->n = 0;
	events_append(dst, &part);
}

int pt_ptm_spill_replay(struct pt_model *m, const struct pt_ptm_sink *sink, struct pt_err **e)
{
	struct pt_events held = m->events;
	if (!held.spill)
		return pt_err(e, "no import in progress to replay");
	if (m->track_events.n != m->tracks.n) {
		struct pt_track_events *x = pt_ptm_track_events(m);
		m->track_events.n = 0;
		for (size_t t = 0; t < m->tracks.n; t++)
			pt_vec_push(&m->track_events, x[t]);
		free(x);
	}
	/* the batches go through columns of their own; the held ones wait aside */
	memset(&m->events, 0, sizeof(m->events));
	int rc = spill_decode(m, held.spill, true, sink, e);
	for (size_t b = 0; b < held.n && !rc; b += PT_PTM_EVENT_BATCH) {
		events_slice(&m->events, &held, b, held.n - b < PT_PTM_EVENT_BATCH ? held.n - b : PT_PTM_EVENT_BATCH);
		rc = sink->batch(sink->arg, m, e);
	}
	pt_events_free_columns(&m->events);
	m->events = held;
	return rc;
}
