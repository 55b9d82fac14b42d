/*
 * CUPTI importer (lib/import/import-cupti.c): dumps built in the test with the
 * CUDA-free writer. Malformed payloads of every chunk type, header errors,
 * 12.x layouts, clock mapping, correlation joins, and the side tables'
 * round trip through the .ptm file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cupti/cdump-writer.h"
#include "cupti/cupti-layouts.h"
#include "import/registry.h"
#include "model/model.h"
#include "model/ptm.h"
#include "support/out.h"
#include "support/xalloc.h"

static char *tmp_path(void)
{
	char *p = pt_xstrdup("/tmp/pt-icu-XXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

struct dump {
	char *path;
	struct pt_cdump_writer w;
	uint32_t version;
};

static void dump_open(struct dump *d, uint32_t version, uint64_t hflags)
{
	d->path = tmp_path();
	d->version = version;
	int fd = open(d->path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	struct pt_cdump_header_info h = { version, version, 0, 99, 0, hflags };
	assert_int_equal(pt_cdump_writer_open(&d->w, fd, &h), 0);
	for (const uint32_t *k = pt_cl_decoded_kinds; *k; k++) {
		const struct pt_cl_layout *l = pt_cl_default(version, *k);
		pt_cdump_writer_set_kind(&d->w, *k, l->size, l->struct_version, PT_CDUMP_K_ENABLED);
	}
	pt_cdump_writer_classify(&d->w);
}

static void put(struct dump *d, uint8_t *r, uint32_t kind, const char *field, uint64_t v)
{
	const struct pt_cl_field *f = pt_cl_field(kind, field);
	assert_non_null(f);
	assert_true(pt_cl_field_in(f, pt_cl_default(d->version, kind)->size, pt_cl_range_of(d->version)));
	switch (f->size) {
	case 1: r[f->off] = (uint8_t)v; break;
	case 2: pt_put16(r + f->off, (uint16_t)v); break;
	case 4: pt_put32(r + f->off, (uint32_t)v); break;
	default: pt_put64(r + f->off, v); break;
	}
}

static uint8_t *rec(struct dump *d, uint8_t *buf, size_t *len, uint32_t kind)
{
	uint32_t s = pt_cl_default(d->version, kind)->size;
	uint8_t *r = buf + *len;
	memset(r, 0, s);
	pt_put32(r, kind);
	*len += s;
	return r;
}

/* A launch (runtime corr) + kernel (corr) + memcpy with runtimeCorrelationId, times from t0. */
static void launch(struct dump *d, uint64_t t0, uint32_t corr, const char *name)
{
	uint8_t buf[1024];
	size_t len = 0;
	uint8_t *r = rec(d, buf, &len, PT_CK_RUNTIME);
	put(d, r, PT_CK_RUNTIME, "cbid", 211);
	put(d, r, PT_CK_RUNTIME, "start", t0);
	put(d, r, PT_CK_RUNTIME, "end", t0 + 100);
	put(d, r, PT_CK_RUNTIME, "threadId", 5);
	put(d, r, PT_CK_RUNTIME, "correlationId", corr);
	r = rec(d, buf, &len, PT_CK_CONCURRENT_KERNEL);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "start", t0 + 200);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "end", t0 + 300);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "streamId", 7);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "correlationId", corr);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "blockX", 64);
	put(d, r, PT_CK_CONCURRENT_KERNEL, "name", (uint64_t)(uintptr_t)name);
	r = rec(d, buf, &len, PT_CK_MEMCPY);
	put(d, r, PT_CK_MEMCPY, "copyKind", 2);
	put(d, r, PT_CK_MEMCPY, "bytes", 64);
	put(d, r, PT_CK_MEMCPY, "start", t0 + 400);
	put(d, r, PT_CK_MEMCPY, "end", t0 + 500);
	put(d, r, PT_CK_MEMCPY, "streamId", 7);
	put(d, r, PT_CK_MEMCPY, "correlationId", corr + 1000); /* driver id: not traced */
	put(d, r, PT_CK_MEMCPY, "runtimeCorrelationId", corr);
	assert_int_equal(pt_cdump_writer_buffer(&d->w, buf, len, 0, 0), 0);
}

static int try_import(const char *path, struct pt_model **mp, struct pt_diag *diag, char **err)
{
	struct pt_model *m = pt_model_new();
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	o.format = "cupti";
	struct pt_err *e = NULL;
	const char *paths[] = { path };
	int rc = pt_import(m, paths, 1, &o, diag, &e);
	if (rc) {
		*err = pt_err_str(e);
		pt_err_free(e);
		pt_model_free(m);
		*mp = NULL;
	} else {
		*mp = m;
	}
	return rc;
}

static size_t count_kind(const struct pt_model *m, enum pt_event_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < m->events.n; i++)
		n += m->events.kind[i] == k;
	return n;
}

/* Every chunk type with a payload cut short: a warning, the rest of the dump still read. */
static void test_malformed_chunks(void **state)
{
	(void)state;
	static const uint32_t types[] = { PT_CDUMP_CLOCK_SYNC, PT_CDUMP_STRINGS, PT_CDUMP_BUFFER, PT_CDUMP_BLOBS,
					  PT_CDUMP_CBID_NAMES, PT_CDUMP_PROCESS, PT_CDUMP_DROPPED,
					  PT_CDUMP_THREAD_NAMES, PT_CDUMP_KIND_TABLE, PT_CDUMP_END };
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		struct dump d;
		dump_open(&d, 130001, PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN);
		assert_int_equal(pt_cdump_writer_clock_sync(&d.w, 0, 0, 0, 0, 0), 0);
		bool kt_first = types[t] != PT_CDUMP_KIND_TABLE;
		if (kt_first)
			assert_int_equal(pt_cdump_writer_kind_table(&d.w), 0);
		/* an entry header announcing more bytes than the payload holds */
		uint8_t bad[12] = { 1, 0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0 };
		assert_int_equal(pt_cdump_writer_chunk(&d.w, types[t], bad, types[t] == PT_CDUMP_CLOCK_SYNC ? 8 : 6), 0);
		if (!kt_first)
			assert_int_equal(pt_cdump_writer_kind_table(&d.w), 0);
		if (types[t] == PT_CDUMP_END) {
			/* after a (malformed) END nothing more is read */
			pt_cdump_writer_free(&d.w);
		} else {
			launch(&d, 1000, 1, "k");
			assert_int_equal(pt_cdump_writer_close(&d.w, 0), 0);
			pt_cdump_writer_free(&d.w);
		}
		struct pt_diag diag = { 0 };
		struct pt_model *m;
		char *err = NULL;
		assert_int_equal(try_import(d.path, &m, &diag, &err), 0);
		assert_true(pt_diag_total(&diag) >= 1);
		if (types[t] != PT_CDUMP_END) {
			assert_int_equal(count_kind(m, PT_EV_KERNEL), 1);
			assert_int_equal(m->links.n, 2);
		}
		pt_model_free(m);
		pt_diag_free(&diag);
		unlink(d.path);
		free(d.path);
	}
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void test_header_errors(void **state)
{
	(void)state;
	static const struct { size_t off; uint8_t val; const char *want; } cases[] = {
		{ 0, 'X', "bad magic at byte 0" },
		{ 8, 2, "major version 2 at byte 8" },
		{ 12, 32, "header size 32 at byte 12" },
		{ 14, 0, "at byte 14" },
		{ 15, 4, "pointer size 4 at byte 15" },
	};
	char *path = tmp_path();
	char *p2 = pt_xasprintf("%s.cdump", path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t h[64] = { 'C', 'U', 'P', 'T', 'I', 'D', 'M', 'P', 1, 0, 0, 0, 64, 0, 1, 8 };
		h[cases[i].off] = cases[i].val;
		write_file(p2, h, sizeof(h));
		struct pt_diag diag = { 0 };
		struct pt_model *m;
		char *err = NULL;
		assert_int_equal(try_import(p2, &m, &diag, &err), -1);
		assert_non_null(strstr(err, cases[i].want));
		free(err);
		pt_diag_free(&diag);
	}
	/* too short */
	write_file(p2, "CUPTIDMP", 8);
	struct pt_diag diag = { 0 };
	struct pt_model *m;
	char *err = NULL;
	assert_int_equal(try_import(p2, &m, &diag, &err), -1);
	assert_non_null(strstr(err, "shorter than the 64-byte"));
	free(err);
	/* not a dump at all: nothing for this importer */
	write_file(path, "hello", 5);
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	m = pt_model_new();
	struct pt_err *e = NULL;
	const char *paths[] = { path };
	struct pt_walk *w = pt_walk_new(paths, 1);
	struct pt_inputs in = { 0 };
	assert_int_equal(pt_classify_cupti(w, &o, &in, &diag, &e), 0);
	assert_int_equal(in.n, 0);
	pt_inputs_free(&in);
	pt_walk_free(w);
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(p2);
	unlink(path);
	free(p2);
	free(path);
}

/* CUDA 12.6 (CUPTI 24): Kernel9 (208) and Memcpy5 (88) strides select the 12.x layouts. */
static void test_cuda12_layouts(void **state)
{
	(void)state;
	struct dump d;
	dump_open(&d, 24, PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN);
	assert_int_equal(d.w.kinds[PT_CK_CONCURRENT_KERNEL].stride, 208);
	assert_int_equal(d.w.kinds[PT_CK_MEMCPY].stride, 88);
	assert_int_equal(pt_cdump_writer_kind_table(&d.w), 0);
	launch(&d, 5000, 3, "k12");
	assert_int_equal(pt_cdump_writer_close(&d.w, 0), 0);
	pt_cdump_writer_free(&d.w);
	struct pt_diag diag = { 0 };
	struct pt_model *m;
	char *err = NULL;
	assert_int_equal(try_import(d.path, &m, &diag, &err), 0);
	assert_int_equal(count_kind(m, PT_EV_KERNEL), 1);
	assert_int_equal(count_kind(m, PT_EV_MEMCPY), 1);
	assert_int_equal(pt_model_kernel_config(m, 0)->block[0], 64);
	assert_int_equal(m->copies.v[0].bytes, 64);
	/* the memcpy joins through runtimeCorrelationId */
	assert_int_equal(m->links.n, 2);
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(d.path);
	free(d.path);
}

/* Without the default clock, CUPTI ns map linearly through the first and last CLOCK_SYNC. */
static void test_clock_mapping(void **state)
{
	(void)state;
	struct dump d;
	dump_open(&d, 130001, PT_CDUMP_H_POINTERS_REWRITTEN);
	assert_int_equal(pt_cdump_writer_clock_sync(&d.w, 1000, 1000000000000, 0, 0, 0), 0);
	assert_int_equal(pt_cdump_writer_kind_table(&d.w), 0);
	launch(&d, 2000, 1, "k");
	assert_int_equal(pt_cdump_writer_clock_sync(&d.w, 3000, 1000000004000, 0, 0, 2), 0); /* real runs 2x */
	assert_int_equal(pt_cdump_writer_close(&d.w, 0), 0);
	pt_cdump_writer_free(&d.w);
	struct pt_diag diag = { 0 };
	struct pt_model *m;
	char *err = NULL;
	assert_int_equal(try_import(d.path, &m, &diag, &err), 0);
	for (size_t i = 0; i < m->events.n; i++)
		if (m->events.kind[i] == PT_EV_API) {
			assert_int_equal(m->events.start[i], 1000000002000); /* 1e12 + (2000 - 1000) * 2 */
			assert_int_equal(m->events.dur[i], 200);
		}
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(d.path);
	free(d.path);
}

/* The side tables survive the .ptm round trip, and a model with a bad side table is rejected. */
static void test_ptm_round_trip(void **state)
{
	(void)state;
	struct dump d;
	dump_open(&d, 130001, PT_CDUMP_H_DEFAULT_CLOCK | PT_CDUMP_H_POINTERS_REWRITTEN);
	assert_int_equal(pt_cdump_writer_clock_sync(&d.w, 0, 0, 0, 0, 0), 0);
	assert_int_equal(pt_cdump_writer_kind_table(&d.w), 0);
	launch(&d, 1000, 1, "a");
	launch(&d, 2000, 2, "b");
	assert_int_equal(pt_cdump_writer_close(&d.w, 0), 0);
	pt_cdump_writer_free(&d.w);
	struct pt_diag diag = { 0 };
	struct pt_model *m;
	char *err = NULL;
	assert_int_equal(try_import(d.path, &m, &diag, &err), 0);
	char *ptm = tmp_path();
	struct pt_out o;
	struct pt_err *e = NULL;
	assert_int_equal(pt_out_open(&o, ptm, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, true, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	struct pt_model *m2 = NULL;
	assert_int_equal(pt_ptm_read(ptm, &m2, &e), 0);
	assert_int_equal(m2->kernels.n, 2);
	assert_int_equal(m2->copies.n, 2);
	assert_int_equal(m2->links.n, 4);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(m2->kernels.v[i].event, m->kernels.v[i].event);
		assert_memory_equal(pt_model_kernel_config(m2, i), pt_model_kernel_config(m, i),
				    sizeof(struct pt_kernel_config));
	}
	assert_memory_equal(m2->links.v, m->links.v, 4 * sizeof(*m->links.v));
	assert_int_equal(m2->devices.v[0].pid, 99);
	assert_int_equal(m2->devices.v[1].pid, 99);
	pt_model_free(m2);
	/* a link to an event that does not exist is invalid */
	m->links.v[0].api = (uint32_t)m->events.n + 5;
	assert_int_equal(pt_out_open(&o, ptm, &e), 0);
	assert_int_equal(pt_ptm_write(m, &o, false, 1, &e), 0);
	assert_int_equal(pt_out_commit(&o, &e), 0);
	assert_int_equal(pt_ptm_read(ptm, &m2, &e), -1);
	char *s = pt_err_str(e);
	assert_non_null(strstr(s, "invalid GPU link"));
	free(s);
	pt_err_free(e);
	pt_model_free(m);
	pt_diag_free(&diag);
	unlink(ptm);
	free(ptm);
	unlink(d.path);
	free(d.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed_chunks),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_cuda12_layouts),
		cmocka_unit_test(test_clock_mapping),
		cmocka_unit_test(test_ptm_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
