/* The reader's fast path for batches of integer columns (see ptm-columns.h). */
#include "model/ptm-columns.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

bool pt_cols_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	for (int sh = 0; sh < 70 && p < end; sh += 7) {
		uint8_t b = *p++;
		if (sh == 63 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80)) {
			*pp = p;
			*v = x;
			return true;
		}
	}
	return false;
}

static bool int_type(ProtobufCType t)
{
	return t == PROTOBUF_C_TYPE_UINT32 || t == PROTOBUF_C_TYPE_SINT32 || t == PROTOBUF_C_TYPE_INT32 ||
	       t == PROTOBUF_C_TYPE_UINT64 || t == PROTOBUF_C_TYPE_SINT64 || t == PROTOBUF_C_TYPE_INT64;
}

static bool wide(ProtobufCType t)
{
	return t == PROTOBUF_C_TYPE_UINT64 || t == PROTOBUF_C_TYPE_SINT64 || t == PROTOBUF_C_TYPE_INT64;
}

/* A message every field of which is a packed repeated integer or a plain integer. */
static bool columnar(const ProtobufCMessageDescriptor *d, struct pt_cols *cols)
{
	if (d->n_fields > PT_COLS_MAX || d->sizeof_message > sizeof(cols->msg))
		return false;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		if (!int_type(f->type) || (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
			return false;
		if (f->label == PROTOBUF_C_LABEL_REPEATED ? !(f->flags & PROTOBUF_C_FIELD_FLAG_PACKED)
							  : f->label != PROTOBUF_C_LABEL_NONE)
			return false;
	}
	return true;
}

/*
 * The packed values of q[0, qe) into d64, or, for a 32-bit field, their low
 * 32 bits (as protobuf-c keeps them) into d32 (room for one per byte),
 * zigzag-decoded for a sint field (zz); their count, or -1. Always inlined,
 * so that each of its four uses stores one width and one kind of value.
 */
static inline __attribute__((always_inline)) ptrdiff_t unpack(const uint8_t *q, const uint8_t *qe, uint64_t *d64,
							      uint32_t *d32, bool zz)
{
#define PUT(i, x) do { \
	uint64_t v_ = (x); \
	if (d32) \
		d32[i] = zz ? ((uint32_t)v_ >> 1) ^ (0 - ((uint32_t)v_ & 1)) : (uint32_t)v_; \
	else \
		d64[i] = zz ? (v_ >> 1) ^ (0 - (v_ & 1)) : v_; \
} while (0)
	size_t cnt = 0;
	while (q < qe) {
		uint64_t w;
		if (qe - q >= 8 && (memcpy(&w, q, 8), !(w & UINT64_C(0x8080808080808080)))) {
			for (int j = 0; j < 8; j++) /* eight one-byte values */
				PUT(cnt + (size_t)j, q[j]);
			cnt += 8;
			q += 8;
			continue;
		}
		uint64_t x = *q;
		if (__builtin_expect(!(x & 0x80), 1)) {
			q++;
		} else if (qe - q >= 4 && !(q[1] & 0x80)) { /* starts and durations: mostly 2-4 bytes */
			x = (x & 0x7f) | (uint64_t)q[1] << 7;
			q += 2;
		} else if (qe - q >= 4 && !(q[2] & 0x80)) {
			x = (x & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)q[2] << 14;
			q += 3;
		} else if (qe - q >= 4 && !(q[3] & 0x80)) {
			x = (x & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)(q[2] & 0x7f) << 14 |
			    (uint64_t)q[3] << 21;
			q += 4;
		} else {
			const uint8_t *t = q; /* keeps q in a register */
			if (!pt_cols_varint(&t, qe, &x))
				return -1;
			q = t;
		}
		PUT(cnt, x);
		cnt++;
	}
#undef PUT
	return (ptrdiff_t)cnt;
}

/* Field f's packed values q[0, qe) as protobuf-c stores them, into the columns of index k. */
static ptrdiff_t unpack_field(struct pt_cols *cols, unsigned k, const ProtobufCFieldDescriptor *f, const uint8_t *q,
			      const uint8_t *qe, void **out)
{
	size_t room = qe > q ? (size_t)(qe - q) : 1; /* at most one value per byte */
	if (wide(f->type)) {
		pt_xgrow((void **)&cols->col[k], &cols->cap[k], room, sizeof(uint64_t));
		*out = cols->col[k];
		return f->type == PROTOBUF_C_TYPE_SINT64 ? unpack(q, qe, cols->col[k], NULL, true)
							 : unpack(q, qe, cols->col[k], NULL, false);
	}
	pt_xgrow((void **)&cols->c32[k], &cols->cap32[k], room, sizeof(uint32_t));
	*out = cols->c32[k];
	return f->type == PROTOBUF_C_TYPE_SINT32 ? unpack(q, qe, NULL, cols->c32[k], true)
						 : unpack(q, qe, NULL, cols->c32[k], false);
}

static void store_plain(void *msg, const ProtobufCFieldDescriptor *f, uint64_t x)
{
	char *p = (char *)msg + f->offset;
	if (wide(f->type)) {
		if (f->type == PROTOBUF_C_TYPE_SINT64)
			x = (x >> 1) ^ (0 - (x & 1));
		memcpy(p, &x, sizeof(x));
	} else {
		uint32_t w = (uint32_t)x;
		if (f->type == PROTOBUF_C_TYPE_SINT32)
			w = (w >> 1) ^ (0 - (w & 1));
		memcpy(p, &w, sizeof(w));
	}
}

/* The varints in q[0, qe): the bytes without the continuation bit; -1 when the last has it. */
static ptrdiff_t count_varints(const uint8_t *q, const uint8_t *qe)
{
	if (q < qe && qe[-1] & 0x80)
		return -1;
	size_t cont = 0, n = (size_t)(qe - q);
	for (; qe - q >= 8; q += 8) {
		uint64_t w;
		memcpy(&w, q, 8);
		/* the continuation bits as 0/1 bytes, summed by a multiply into the top byte */
		cont += (size_t)((((w & UINT64_C(0x8080808080808080)) >> 7) * UINT64_C(0x0101010101010101)) >> 56);
	}
	for (; q < qe; q++)
		cont += *q >> 7;
	return (ptrdiff_t)(n - cont);
}

bool pt_cols_chunk(const uint8_t *buf, size_t len, struct pt_cols *cols, Proftool__Chunk *c)
{
	return pt_cols_chunk_some(buf, len, cols, c, 0);
}

bool pt_cols_chunk_some(const uint8_t *buf, size_t len, struct pt_cols *cols, Proftool__Chunk *c, uint32_t skip)
{
	const uint8_t *p = buf, *end = buf + len;
	uint64_t key, blen;
	if (!pt_cols_varint(&p, end, &key) || (key & 7) != 2 || key >> 3 > UINT32_MAX)
		return false;
	const ProtobufCFieldDescriptor *cf =
		protobuf_c_message_descriptor_get_field(&proftool__chunk__descriptor, (unsigned)(key >> 3));
	if (!cf || cf->type != PROTOBUF_C_TYPE_MESSAGE || !pt_cols_varint(&p, end, &blen) ||
	    blen != (uint64_t)(end - p))
		return false;
	const ProtobufCMessageDescriptor *d = cf->descriptor;
	if (!columnar(d, cols))
		return false;
	void *msg = cols->msg;
	d->message_init(msg);
	uint32_t seen = 0;
	while (p < end) {
		if (!pt_cols_varint(&p, end, &key) || key >> 3 > UINT32_MAX)
			return false;
		const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, (unsigned)(key >> 3));
		if (!f)
			return false;
		unsigned k = (unsigned)(f - d->fields);
		if (seen & (1u << k))
			return false;
		seen |= 1u << k;
		if (f->label != PROTOBUF_C_LABEL_REPEATED) {
			uint64_t x;
			if ((key & 7) != 0 || !pt_cols_varint(&p, end, &x))
				return false;
			store_plain(msg, f, x);
			continue;
		}
		uint64_t plen;
		if ((key & 7) != 2 || !pt_cols_varint(&p, end, &plen) || plen > (uint64_t)(end - p))
			return false;
		void *vals = NULL;
		ptrdiff_t n = skip & (1u << k) ? count_varints(p, p + plen) : unpack_field(cols, k, f, p, p + plen, &vals);
		if (n < 0)
			return false;
		p += plen;
		*(size_t *)((char *)msg + f->quantifier_offset) = (size_t)n;
		*(void **)((char *)msg + f->offset) = vals;
	}
	proftool__chunk__init(c);
	c->body_case = (Proftool__Chunk__BodyCase)cf->id;
	*(void **)((char *)c + cf->offset) = msg;
	return true;
}

void pt_cols_free(struct pt_cols *cols)
{
	for (int k = 0; k < PT_COLS_MAX; k++) {
		free(cols->col[k]);
		free(cols->c32[k]);
	}
}

size_t pt_cols_bytes(const struct pt_cols *cols)
{
	size_t n = 0;
	for (int k = 0; k < PT_COLS_MAX; k++)
		n += cols->cap[k] * sizeof(uint64_t) + cols->cap32[k] * sizeof(uint32_t);
	return n;
}
