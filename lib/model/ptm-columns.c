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

/* The packed values of q[0, qe) into dst (room for one per byte); their count, or -1. */
static ptrdiff_t unpack(const uint8_t *q, const uint8_t *qe, uint64_t *dst)
{
	size_t cnt = 0;
	while (q < qe) {
		uint64_t w;
		if (qe - q >= 8 && (memcpy(&w, q, 8), !(w & UINT64_C(0x8080808080808080)))) {
			for (int j = 0; j < 8; j++) /* eight one-byte values */
				dst[cnt + (size_t)j] = q[j];
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
		dst[cnt++] = x;
	}
	return (ptrdiff_t)cnt;
}

/* Values as protobuf-c stores them: 32-bit types keep the low 32 bits, zigzag ones are decoded. */
static void *convert(struct pt_cols *cols, unsigned k, ProtobufCType t, size_t n)
{
	uint64_t *v = cols->col[k];
	if (wide(t)) {
		if (t == PROTOBUF_C_TYPE_SINT64)
			for (size_t i = 0; i < n; i++)
				v[i] = (v[i] >> 1) ^ (0 - (v[i] & 1));
		return v;
	}
	pt_xgrow((void **)&cols->c32[k], &cols->cap32[k], n ? n : 1, sizeof(uint32_t));
	uint32_t *w = cols->c32[k];
	if (t == PROTOBUF_C_TYPE_SINT32)
		for (size_t i = 0; i < n; i++)
			w[i] = ((uint32_t)v[i] >> 1) ^ (0 - ((uint32_t)v[i] & 1));
	else
		for (size_t i = 0; i < n; i++)
			w[i] = (uint32_t)v[i];
	return w;
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

bool pt_cols_chunk(const uint8_t *buf, size_t len, struct pt_cols *cols, Proftool__Chunk *c)
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
		/* at most one value per byte */
		pt_xgrow((void **)&cols->col[k], &cols->cap[k], plen ? (size_t)plen : 1, sizeof(uint64_t));
		ptrdiff_t n = unpack(p, p + plen, cols->col[k]);
		if (n < 0)
			return false;
		p += plen;
		*(size_t *)((char *)msg + f->quantifier_offset) = (size_t)n;
		*(void **)((char *)msg + f->offset) = convert(cols, k, f->type, (size_t)n);
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
