/* Unit tests of lib/model/ptm-columns.c: the reader's fast path decodes batches exactly as protobuf-c does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/ptm-columns.h"
#include "proftool.pb-c.h"

/* The value of element i of a field as a 64-bit pattern (plain fields: i = 0). */
static uint64_t field_value(const void *msg, const ProtobufCFieldDescriptor *f, size_t i)
{
	const char *p = (const char *)msg + f->offset;
	if (f->label == PROTOBUF_C_LABEL_REPEATED)
		p = *(const char *const *)p;
	bool wide = f->type == PROTOBUF_C_TYPE_UINT64 || f->type == PROTOBUF_C_TYPE_SINT64 ||
		    f->type == PROTOBUF_C_TYPE_INT64;
	if (wide) {
		uint64_t v;
		memcpy(&v, p + 8 * i, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, p + 4 * i, 4);
	return v;
}

/* Decode buf both ways; when the fast path takes it, every field must equal protobuf-c's. */
static bool same_as_protobuf(const uint8_t *buf, size_t len)
{
	struct pt_cols *cols = calloc(1, sizeof(*cols));
	assert_non_null(cols);
	Proftool__Chunk fc;
	bool fast = pt_cols_chunk(buf, len, cols, &fc);
	Proftool__Chunk *c = proftool__chunk__unpack(NULL, len, buf);
	if (fast) {
		assert_non_null(c);
		assert_int_equal(fc.body_case, c->body_case);
		const ProtobufCFieldDescriptor *cf =
			protobuf_c_message_descriptor_get_field(&proftool__chunk__descriptor, (unsigned)c->body_case);
		const void *a = *(void *const *)((const char *)&fc + cf->offset);
		const void *b = *(void *const *)((const char *)c + cf->offset);
		const ProtobufCMessageDescriptor *d = cf->descriptor;
		for (unsigned k = 0; k < d->n_fields; k++) {
			const ProtobufCFieldDescriptor *f = &d->fields[k];
			size_t n = 1;
			if (f->label == PROTOBUF_C_LABEL_REPEATED) {
				n = *(const size_t *)((const char *)a + f->quantifier_offset);
				assert_int_equal(n, *(const size_t *)((const char *)b + f->quantifier_offset));
			}
			for (size_t i = 0; i < n; i++)
				assert_int_equal(field_value(a, f, i), field_value(b, f, i));
		}
	}
	if (c)
		proftool__chunk__free_unpacked(c, NULL);
	pt_cols_free(cols);
	free(cols);
	return fast;
}

static uint8_t *pack(const Proftool__Chunk *c, size_t *len)
{
	*len = proftool__chunk__get_packed_size(c);
	uint8_t *buf = malloc(*len ? *len : 1);
	assert_non_null(buf);
	assert_int_equal(proftool__chunk__pack(c, buf), *len);
	return buf;
}

/* c packed by protobuf-c: the fast path takes it and decodes what protobuf-c decodes. */
static void taken_fast(const Proftool__Chunk *c)
{
	size_t len;
	uint8_t *buf = pack(c, &len);
	assert_true(same_as_protobuf(buf, len));
	free(buf);
}

static void test_batches(void **state)
{
	(void)state;
	enum { N = 37 }; /* runs of one-byte values longer and shorter than 8, and values of every width */
	int32_t s32[N];
	uint32_t u32[N];
	int64_t s64[N];
	uint64_t u64[N];
	for (int i = 0; i < N; i++) {
		s32[i] = i % 11 == 5 ? INT32_MIN : i % 11 == 6 ? INT32_MAX : i < 20 ? i % 3 - 1 : -i * 1000003;
		u32[i] = i % 9 == 4 ? UINT32_MAX : i < 24 ? (uint32_t)i : (uint32_t)i << 20;
		s64[i] = i % 7 == 3 ? INT64_MIN : i % 7 == 4 ? INT64_MAX : (int64_t)((uint64_t)(i - 18) << (i % 40));
		u64[i] = i % 5 == 2 ? UINT64_MAX : (uint64_t)i << (i % 60);
	}
	Proftool__KernelInfoBatch kb = PROFTOOL__KERNEL_INFO_BATCH__INIT;
	kb.n_event_delta = N, kb.event_delta = s64;
	kb.n_grid_x = kb.n_grid_y = kb.n_grid_z = kb.n_block_x = kb.n_block_y = kb.n_block_z = N;
	kb.grid_x = kb.grid_y = kb.grid_z = kb.block_x = kb.block_y = kb.block_z = s32;
	kb.n_registers = kb.n_graph_id = N, kb.registers = kb.graph_id = u32;
	kb.n_static_smem = kb.n_dynamic_smem = N, kb.static_smem = kb.dynamic_smem = s32;
	Proftool__Chunk c = PROFTOOL__CHUNK__INIT;
	c.body_case = PROFTOOL__CHUNK__BODY_KERNELS;
	c.kernels = &kb;
	taken_fast(&c);

	Proftool__EventBatch eb = PROFTOOL__EVENT_BATCH__INIT;
	eb.n_track = eb.n_name = eb.n_kind = eb.n_op = N, eb.track = eb.name = eb.kind = eb.op = u32;
	eb.n_start_delta = eb.n_dur = eb.n_corr_delta = N, eb.start_delta = eb.dur = eb.corr_delta = s64;
	eb.n_task = N, eb.task = u64;
	eb.quantum = 1000;
	c.body_case = PROFTOOL__CHUNK__BODY_EVENTS;
	c.events = &eb;
	taken_fast(&c);

	Proftool__CopyInfoBatch cb = PROFTOOL__COPY_INFO_BATCH__INIT;
	cb.n_event = cb.n_copy_kind = cb.n_src_kind = cb.n_dst_kind = N;
	cb.event = cb.copy_kind = cb.src_kind = cb.dst_kind = u32;
	cb.n_bytes = N, cb.bytes = u64;
	cb.n_src_device = cb.n_dst_device = N, cb.src_device = cb.dst_device = s32;
	c.body_case = PROFTOOL__CHUNK__BODY_COPIES;
	c.copies = &cb;
	taken_fast(&c);

	Proftool__GpuLinkBatch lb = PROFTOOL__GPU_LINK_BATCH__INIT; /* one column empty */
	lb.n_event_delta = lb.n_api_delta = N, lb.event_delta = lb.api_delta = s64;
	c.body_case = PROFTOOL__CHUNK__BODY_LINKS;
	c.links = &lb;
	taken_fast(&c);

	Proftool__SyncInfoBatch sb = PROFTOOL__SYNC_INFO_BATCH__INIT;
	sb.n_event_delta = sb.n_cuda_event_id = sb.n_wait_stream = sb.n_wait_corr = N;
	sb.event_delta = sb.cuda_event_id = sb.wait_stream = sb.wait_corr = s64;
	sb.n_type = N, sb.type = u32;
	c.body_case = PROFTOOL__CHUNK__BODY_SYNCS;
	c.syncs = &sb;
	taken_fast(&c);
}

/* Encodings the writer never makes: the fast path declines them (or agrees with protobuf-c). */
static void test_other_encodings(void **state)
{
	(void)state;
	/* chunk field 20 (kernels): tag 0xa2 0x01; registers: field 8 */
	/* a uint32 (registers, field 8) written as a 10-byte varint of a value beyond 32 bits */
	const uint8_t overlong[] = { 0xa2, 0x01, 12, 0x42, 10, 0x85, 0x80, 0x80, 0x80, 0x80, 0x82, 0x80, 0x80, 0x80, 0x00 };
	assert_true(same_as_protobuf(overlong, sizeof(overlong)));
	/* a packed column with no values */
	const uint8_t empty[] = { 0xa2, 0x01, 2, 0x42, 0 };
	assert_true(same_as_protobuf(empty, sizeof(empty)));
	/* declined: a repeated field written unpacked (protobuf-c accepts it) */
	const uint8_t unpacked[] = { 0xa2, 0x01, 4, 0x40, 7, 0x40, 8 };
	assert_false(same_as_protobuf(unpacked, sizeof(unpacked)));
	/* declined: the same packed field twice (protobuf-c concatenates) */
	const uint8_t twice[] = { 0xa2, 0x01, 6, 0x42, 1, 7, 0x42, 1, 8 };
	assert_false(same_as_protobuf(twice, sizeof(twice)));
	/* declined: an unknown field (99, varint) */
	const uint8_t unknown[] = { 0xa2, 0x01, 6, 0x42, 1, 7, 0x98, 0x06, 1 };
	assert_false(same_as_protobuf(unknown, sizeof(unknown)));
	/* declined: a chunk with a second field after its batch */
	const uint8_t second[] = { 0xa2, 0x01, 3, 0x42, 1, 7, 0xa2, 0x01, 0 };
	assert_false(same_as_protobuf(second, sizeof(second)));
	/* declined: a message with a string field (Track has none, Device has) */
	const uint8_t device[] = { 0x1a, 3, 0x1a, 1, 'x' };
	assert_false(same_as_protobuf(device, sizeof(device)));
	/* declined: a varint of 11 bytes inside a packed column, and one cut by the column's end */
	const uint8_t longv[] = { 0xa2, 0x01, 13, 0x42, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	assert_false(same_as_protobuf(longv, sizeof(longv)));
	const uint8_t cut[] = { 0xa2, 0x01, 4, 0x42, 2, 0x81, 0x81 };
	assert_false(same_as_protobuf(cut, sizeof(cut)));
	/* declined: a packed column longer than its message */
	const uint8_t past[] = { 0xa2, 0x01, 3, 0x42, 9, 1 };
	assert_false(same_as_protobuf(past, sizeof(past)));
	/* declined: empty input and a wire type other than length-delimited */
	assert_false(same_as_protobuf(empty, 0));
	const uint8_t vint[] = { 0xa0, 0x01, 5 };
	assert_false(same_as_protobuf(vint, sizeof(vint)));
}

/* Field number num's descriptor index in d. */
static unsigned index_of(const ProtobufCMessageDescriptor *d, unsigned num)
{
	const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, num);
	assert_non_null(f);
	return (unsigned)(f - d->fields);
}

/* Columns left undecoded (pt_cols_chunk_some): counted as protobuf-c counts them, values NULL; the
 * others decoded as ever; a column whose last varint is cut declines the batch. */
static void test_some(void **state)
{
	(void)state;
	enum { N = 61 }; /* values of every width, runs of one-byte values longer and shorter than 8 */
	uint32_t u32[N];
	int64_t s64[N];
	uint64_t u64[N];
	for (int i = 0; i < N; i++) {
		u32[i] = i % 9 == 4 ? UINT32_MAX : i < 24 ? (uint32_t)i : (uint32_t)i << (i % 32);
		s64[i] = i % 7 == 3 ? INT64_MIN : i % 7 == 4 ? INT64_MAX : (int64_t)((uint64_t)(i - 18) << (i % 40));
		u64[i] = i % 5 == 2 ? UINT64_MAX : (uint64_t)i << (i % 60);
	}
	Proftool__EventBatch eb = PROFTOOL__EVENT_BATCH__INIT;
	eb.n_track = eb.n_name = eb.n_kind = eb.n_op = N, eb.track = eb.name = eb.kind = eb.op = u32;
	eb.n_start_delta = eb.n_dur = eb.n_corr_delta = N, eb.start_delta = eb.dur = eb.corr_delta = s64;
	eb.n_task = N, eb.task = u64;
	Proftool__Chunk c = PROFTOOL__CHUNK__INIT;
	c.body_case = PROFTOOL__CHUNK__BODY_EVENTS;
	c.events = &eb;
	size_t len;
	uint8_t *buf = pack(&c, &len);
	const ProtobufCMessageDescriptor *d = &proftool__event_batch__descriptor;
	uint32_t skip = 1u << index_of(d, 2) | 1u << index_of(d, 5) | 1u << index_of(d, 8) | 1u << index_of(d, 10);
	struct pt_cols *cols = calloc(1, sizeof(*cols));
	assert_non_null(cols);
	Proftool__Chunk fc;
	assert_true(pt_cols_chunk_some(buf, len, cols, &fc, skip));
	assert_int_equal(fc.body_case, PROFTOOL__CHUNK__BODY_EVENTS);
	const Proftool__EventBatch *b = fc.events;
	assert_int_equal(b->n_name, N);
	assert_null(b->name);
	assert_int_equal(b->n_dur, N);
	assert_null(b->dur);
	assert_int_equal(b->n_task, N);
	assert_null(b->task);
	assert_int_equal(b->n_corr_delta, N);
	assert_null(b->corr_delta);
	assert_int_equal(b->n_track, N);
	assert_int_equal(b->n_start_delta, N);
	assert_int_equal(b->n_op, N);
	for (int i = 0; i < N; i++) {
		assert_int_equal(b->track[i], u32[i]);
		assert_int_equal(b->kind[i], u32[i]);
		assert_int_equal(b->op[i], u32[i]);
		assert_int_equal(b->start_delta[i], s64[i]);
	}
	/* chunk field 6 (events): track (field 1) one value, name (field 2) one 2-byte varint, counted
	 * as one; cut (its last byte with the continuation bit): declined */
	const uint8_t two[] = { 0x32, 7, 0x0a, 1, 0, 0x12, 2, 0x81, 0x01 };
	assert_true(pt_cols_chunk_some(two, sizeof(two), cols, &fc, skip));
	assert_int_equal(fc.events->n_track, 1);
	assert_int_equal(fc.events->n_name, 1);
	assert_null(fc.events->name);
	const uint8_t cut[] = { 0x32, 7, 0x0a, 1, 0, 0x12, 2, 0x81, 0x81 };
	assert_false(pt_cols_chunk_some(cut, sizeof(cut), cols, &fc, skip));
	pt_cols_free(cols);
	free(cols);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batches),
		cmocka_unit_test(test_other_encodings),
		cmocka_unit_test(test_some),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
