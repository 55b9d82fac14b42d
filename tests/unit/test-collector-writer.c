/*
 * The collector's CUPTIDMP writer (lib/cupti/cdump-writer.c), CUDA-free:
 * the buffer-path round trip of cupti.md §8.3 with records laid out like
 * CUPTI's whose pointer slots hold real pointers, read back by the importer;
 * and the concurrency test (several threads on the buffer path at once).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cupti/cdump-writer.h"
#include "cupti/cupti-layouts.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/xalloc.h"

#define V13 130001u

static char *tmp_path(void)
{
	char *p = pt_xstrdup("/tmp/pt-cdw-XXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

static void open_writer(struct pt_cdump_writer *w, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	struct pt_cdump_header_info h = { V13, V13, 13000, 4242, 1000000000,
					  PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN };
	assert_int_equal(pt_cdump_writer_open(w, fd, &h), 0);
	/* the strides the probe gives on libcupti 130001 (cupti.md §3.3) */
	for (const uint32_t *k = pt_cl_decoded_kinds; *k; k++) {
		const struct pt_cl_layout *l = pt_cl_default(V13, *k);
		pt_cdump_writer_set_kind(w, *k, l->size, l->struct_version, PT_CDUMP_K_ENABLED);
	}
	pt_cdump_writer_classify(w);
	assert_int_equal(pt_cdump_writer_clock_sync(w, 1000000000, 1000000000, 5, 10, 0), 0);
	assert_int_equal(pt_cdump_writer_kind_table(w), 0);
}

static void put(uint8_t *r, uint32_t kind, const char *field, uint64_t v)
{
	const struct pt_cl_field *f = pt_cl_field(kind, field);
	assert_non_null(f);
	switch (f->size) {
	case 1: r[f->off] = (uint8_t)v; break;
	case 2: pt_put16(r + f->off, (uint16_t)v); break;
	case 4: pt_put32(r + f->off, (uint32_t)v); break;
	default: pt_put64(r + f->off, v); break;
	}
}

static uint8_t *rec(uint8_t *buf, size_t *len, uint32_t kind)
{
	uint32_t s = pt_cl_default(V13, kind)->size;
	uint8_t *r = buf + *len;
	memset(r, 0, s);
	pt_put32(r, kind);
	*len += s;
	return r;
}

static struct pt_model *import(const char *path, struct pt_diag *diag)
{
	struct pt_model *m = pt_model_new();
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	o.format = "cupti";
	struct pt_err *e = NULL;
	const char *paths[] = { path };
	int rc = pt_import(m, paths, 1, &o, diag, &e);
	if (rc) {
		char *s = pt_err_str(e);
		fail_msg("import failed: %s", s);
	}
	return m;
}

static size_t count_kind(const struct pt_model *m, enum pt_event_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < m->events.n; i++)
		n += m->events.kind[i] == k;
	return n;
}

static const char *ev_name(const struct pt_model *m, size_t i)
{
	return pt_model_strget(m, m->events.name[i]);
}

/* cupti.md §8.3: buffer-path round trip with real pointers. */
static void test_round_trip(void **state)
{
	(void)state;
	char *path = tmp_path();
	struct pt_cdump_writer w;
	open_writer(&w, path);
	static const char kname[] = "_Z6kernelPf";
	char *m1 = pt_xstrdup("step"), *m2 = pt_xstrdup("step"); /* equal texts behind different pointers */
	uint8_t apw[32];
	memset(apw, 0xab, sizeof(apw));
	uint32_t cbf[3] = { 4096, 1, 2 };
	uint8_t *buf = pt_xcalloc(1, 4096);
	size_t len = 0;
	for (int i = 0; i < 2; i++) {
		uint8_t *r = rec(buf, &len, PT_CK_RUNTIME);
		put(r, PT_CK_RUNTIME, "cbid", 211);
		put(r, PT_CK_RUNTIME, "start", 1000000100 + 1000 * (uint64_t)i);
		put(r, PT_CK_RUNTIME, "end", 1000000200 + 1000 * (uint64_t)i);
		put(r, PT_CK_RUNTIME, "processId", 4242);
		put(r, PT_CK_RUNTIME, "threadId", 4242);
		put(r, PT_CK_RUNTIME, "correlationId", 10 + (uint64_t)i);
		r = rec(buf, &len, PT_CK_CONCURRENT_KERNEL);
		put(r, PT_CK_CONCURRENT_KERNEL, "start", 1000000300 + 1000 * (uint64_t)i);
		put(r, PT_CK_CONCURRENT_KERNEL, "end", 1000000400 + 1000 * (uint64_t)i);
		put(r, PT_CK_CONCURRENT_KERNEL, "streamId", 7);
		put(r, PT_CK_CONCURRENT_KERNEL, "correlationId", 10 + (uint64_t)i);
		put(r, PT_CK_CONCURRENT_KERNEL, "gridX", 4);
		put(r, PT_CK_CONCURRENT_KERNEL, "name", (uint64_t)(uintptr_t)kname); /* one name pointer */
		put(r, PT_CK_CONCURRENT_KERNEL, "reserved0", 0xdeadbeef);
		put(r, PT_CK_CONCURRENT_KERNEL, "pAccessPolicyWindow", i ? (uint64_t)(uintptr_t)apw : 0);
	}
	for (int i = 0; i < 2; i++) {
		uint8_t *r = rec(buf, &len, PT_CK_MARKER);
		put(r, PT_CK_MARKER, "flags", i ? 4 : 2);
		put(r, PT_CK_MARKER, "timestamp", i ? 1000003000 : 1000000050);
		put(r, PT_CK_MARKER, "id", 1);
		put(r, PT_CK_MARKER, "objectKind", 2);
		put(r, PT_CK_MARKER, "name", (uint64_t)(uintptr_t)(i ? m2 : m1));
	}
	uint8_t *ov = rec(buf, &len, PT_CK_OVERHEAD);
	put(ov, PT_CK_OVERHEAD, "overheadKind", PT_CUPTI_OVERHEAD_COMMAND_BUFFER_FULL);
	put(ov, PT_CK_OVERHEAD, "start", 1000000500);
	put(ov, PT_CK_OVERHEAD, "end", 1000000600);
	put(ov, PT_CK_OVERHEAD, "overheadData", (uint64_t)(uintptr_t)cbf);
	uint8_t *mc = rec(buf, &len, PT_CK_MEMCPY);
	put(mc, PT_CK_MEMCPY, "reserved0", 0x1234);
	size_t n_rec = 8;
	uint8_t *copy = pt_xmalloc(len);
	memcpy(copy, buf, len);
	assert_int_equal(pt_cdump_writer_buffer(&w, buf, len, 0, 1000000700), 0);
	/* rewritten in place */
	const struct pt_cl_field *fname = pt_cl_field(PT_CK_CONCURRENT_KERNEL, "name");
	uint32_t s_api = pt_cl_default(V13, PT_CK_RUNTIME)->size, s_k = pt_cl_default(V13, PT_CK_KERNEL)->size;
	uint64_t id1 = pt_le64(buf + s_api + fname->off), id2 = pt_le64(buf + 2 * s_api + s_k + fname->off);
	assert_true(id1 >= 1);
	assert_int_equal(id1, id2); /* the shared name is stored once */
	assert_int_equal(pt_le64(buf + s_api + pt_cl_field(PT_CK_KERNEL, "reserved0")->off), 0);
	assert_int_equal(pt_le64(buf + s_api + pt_cl_field(PT_CK_KERNEL, "pAccessPolicyWindow")->off), 0);
	assert_int_equal(pt_le64(buf + 2 * s_api + s_k + pt_cl_field(PT_CK_KERNEL, "pAccessPolicyWindow")->off), 1);
	size_t mk0 = 2 * (s_api + s_k), s_m = pt_cl_default(V13, PT_CK_MARKER)->size;
	uint64_t n1 = pt_le64(buf + mk0 + pt_cl_field(PT_CK_MARKER, "name")->off);
	uint64_t n2 = pt_le64(buf + mk0 + s_m + pt_cl_field(PT_CK_MARKER, "name")->off);
	assert_int_equal(n1, n2); /* equal texts share one id */
	assert_true(n1 != id1);
	assert_int_equal(pt_le64(ov + pt_cl_field(PT_CK_OVERHEAD, "overheadData")->off), 2); /* second blob */
	assert_int_equal(pt_le64(mc + pt_cl_field(PT_CK_MEMCPY, "reserved0")->off), 0);
	assert_int_equal(w.strings.n, 3); /* "" + kernel name + "step" */
	assert_int_equal(pt_cdump_writer_close(&w, 1000000900), 0);
	assert_int_equal(w.seq, 1);
	assert_int_equal(w.n_records, n_rec);
	pt_cdump_writer_free(&w);

	struct pt_diag diag = { 0 };
	struct pt_model *m = import(path, &diag);
	assert_int_equal(pt_diag_total(&diag), 0);
	assert_int_equal(count_kind(m, PT_EV_KERNEL), 2);
	assert_int_equal(count_kind(m, PT_EV_API), 2);
	assert_int_equal(count_kind(m, PT_EV_RANGE), 1);
	for (size_t i = 0; i < m->events.n; i++) {
		if (m->events.kind[i] == PT_EV_KERNEL)
			assert_string_equal(ev_name(m, i), kname);
		if (m->events.kind[i] == PT_EV_RANGE)
			assert_string_equal(ev_name(m, i), "step");
	}
	assert_int_equal(m->links.n, 2);
	assert_int_equal(pt_model_stat_get(m, 0, "cupti.records", -1), (int64_t)n_rec);
	assert_int_equal(pt_model_kernel_config(m, 0)->grid[0], 4);
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(path);
	free(path);
	free(buf);
	free(copy);
	free(m1);
	free(m2);
}

struct thr {
	struct pt_cdump_writer *w;
	int id;
};

#define NTHREADS 4
#define NBUF 25

static void *worker(void *arg)
{
	struct thr *t = arg;
	uint32_t s = pt_cl_default(V13, PT_CK_CONCURRENT_KERNEL)->size;
	char name[32];
	snprintf(name, sizeof(name), "kernel_%d", t->id);
	for (int b = 0; b < NBUF; b++) {
		uint8_t *buf = pt_xcalloc(10, s);
		size_t len = 0;
		for (int i = 0; i < 10; i++) {
			uint8_t *r = rec(buf, &len, PT_CK_CONCURRENT_KERNEL);
			put(r, PT_CK_CONCURRENT_KERNEL, "start", 1000000000 + (uint64_t)(b * 100 + i) * 10);
			put(r, PT_CK_CONCURRENT_KERNEL, "end", 1000000005 + (uint64_t)(b * 100 + i) * 10);
			put(r, PT_CK_CONCURRENT_KERNEL, "streamId", (uint64_t)t->id);
			put(r, PT_CK_CONCURRENT_KERNEL, "name", (uint64_t)(uintptr_t)name);
		}
		pt_cdump_writer_buffer(t->w, buf, len, 0, 1);
		free(buf);
	}
	return NULL;
}

/* Several threads on the buffer path: a valid file, strictly increasing seq, no interleaving. */
static void test_concurrency(void **state)
{
	(void)state;
	char *path = tmp_path();
	struct pt_cdump_writer w;
	open_writer(&w, path);
	pthread_t th[NTHREADS];
	struct thr a[NTHREADS];
	for (int i = 0; i < NTHREADS; i++) {
		a[i] = (struct thr){ &w, i };
		assert_int_equal(pthread_create(&th[i], NULL, worker, &a[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(pt_cdump_writer_close(&w, 2000000000), 0);
	pt_cdump_writer_free(&w);

	/* the framing: BUFFER seq strictly increasing by one */
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	uint8_t *d = pt_xmalloc((size_t)size);
	assert_int_equal(fread(d, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	uint64_t off = 64, next_seq = 0;
	bool end = false;
	while (off < (uint64_t)size) {
		uint32_t type = pt_le32(d + off);
		uint64_t plen = pt_le64(d + off + 8);
		assert_true(off + 16 + plen <= (uint64_t)size);
		if (type == PT_CDUMP_BUFFER)
			assert_int_equal(pt_le64(d + off + 16), next_seq++);
		if (type == PT_CDUMP_END) {
			end = true;
			assert_int_equal(pt_le64(d + off + 16), NTHREADS * NBUF);
			assert_int_equal(pt_le64(d + off + 24), NTHREADS * NBUF * 10);
		}
		off += 16 + pt_cdump_round8(plen);
	}
	assert_true(end);
	assert_int_equal(off, (uint64_t)size);
	assert_int_equal(next_seq, NTHREADS * NBUF);
	free(d);

	struct pt_diag diag = { 0 };
	struct pt_model *m = import(path, &diag);
	assert_int_equal(count_kind(m, PT_EV_KERNEL), NTHREADS * NBUF * 10);
	for (size_t i = 0; i < m->events.n; i++) {
		char want[32];
		snprintf(want, sizeof(want), "kernel_%" PRId64, m->tracks.v[m->events.track[i]].stream);
		assert_string_equal(ev_name(m, i), want);
	}
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(path);
	free(path);
}

/* Records of kinds the writer does not know stay untouched (RAW); unknown kinds trim the buffer. */
static void test_raw_and_trim(void **state)
{
	(void)state;
	char *path = tmp_path();
	struct pt_cdump_writer w;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct pt_cdump_header_info h = { V13, V13, 0, 1, 0, PT_CDUMP_H_POINTERS_REWRITTEN };
	assert_int_equal(pt_cdump_writer_open(&w, fd, &h), 0);
	pt_cdump_writer_set_kind(&w, PT_CK_CONCURRENT_KERNEL, 224, 11, PT_CDUMP_K_ENABLED); /* a "newer" struct */
	pt_cdump_writer_classify(&w);
	assert_true(w.kinds[PT_CK_CONCURRENT_KERNEL].flags & PT_CDUMP_K_RAW);
	assert_int_equal(pt_cdump_writer_kind_table(&w), 0);
	uint8_t buf[224 + 8];
	memset(buf, 0, sizeof(buf));
	pt_put32(buf, PT_CK_CONCURRENT_KERNEL);
	pt_put64(buf + 104, 0x7fff12345678ULL); /* an address: must stay as it is */
	pt_put32(buf + 224, 57);                /* unknown kind: trimmed */
	assert_int_equal(pt_cdump_writer_buffer(&w, buf, sizeof(buf), 0, 1), 0);
	assert_int_equal(pt_le64(buf + 104), 0x7fff12345678ULL);
	assert_int_equal(w.dropped[PT_CDUMP_D_BYTES_DISCARDED], 8);
	assert_int_equal(pt_cdump_writer_close(&w, 1), 0);
	/* a buffer after END is not written and counted */
	assert_int_equal(pt_cdump_writer_buffer(&w, buf, 224, 0, 1), -1);
	assert_int_equal(w.dropped[PT_CDUMP_D_BUFFERS_NOT_WRITTEN], 1);
	pt_cdump_writer_free(&w);
	struct pt_diag diag = { 0 };
	struct pt_model *m = import(path, &diag);
	/* no layout for a 224-byte kernel in 13.0: counted and skipped */
	assert_int_equal(pt_model_stat_get(m, 0, "cupti.skipped_kind_10", 0), 1);
	assert_int_equal(pt_model_stat_get(m, 0, "cupti.bytes_discarded", 0), 8);
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(path);
	free(path);
}

static void test_create_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/pt-cdw-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *p1 = NULL, *p2 = NULL;
	int fd1 = pt_cdump_create_file(dir, "gpu node/1", 77, &p1);
	int fd2 = pt_cdump_create_file(dir, "gpu node/1", 77, &p2);
	assert_true(fd1 >= 0 && fd2 >= 0);
	assert_non_null(strstr(p1, "/cupti-gpu_node_1-77.cdump"));
	assert_non_null(strstr(p2, "/cupti-gpu_node_1-77-1.cdump"));
	close(fd1);
	close(fd2);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
	free(p1);
	free(p2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_concurrency),
		cmocka_unit_test(test_raw_and_trim),
		cmocka_unit_test(test_create_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
