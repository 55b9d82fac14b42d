/*
 * Ascend memory importer (ascend.md §2.12): a MemoryProto packed with the
 * generated protobuf-c code is imported from a temporary directory; the
 * writer quirk (workspace ids repeating outputs) is dropped; node_id and
 * lifetime problems are warned; empty files are counted; malformed files are
 * fatal with the file and a byte offset; the CUPTI memory decoder reads
 * MEMORY2 / MEMORY_POOL fields at their documented offsets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cupti/cdump.h"
#include "cupti/cupti-layouts.h"
#include "import/import-ascend-memory.h"
#include "import/import-cupti-memory.h"
#include "import/registry.h"
#include "mindspore_memory.pb-c.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/xalloc.h"

static char dir[64];

static void mkdir_tmp(void)
{
	strcpy(dir, "/tmp/pt-memimp-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static char *write_file(const char *name, const void *p, size_t n)
{
	char *path = pt_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	if (n)
		assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	return path;
}

static void cleanup(char *path)
{
	unlink(path);
	free(path);
	rmdir(dir);
}

static int import_dir(struct pt_model *m, struct pt_diag *d, struct pt_err **e)
{
	struct pt_import_opts o;
	pt_import_opts_init(&o);
	const char *paths[] = { dir };
	return pt_import(m, paths, 1, &o, d, e);
}

static void test_import(void **state)
{
	(void)state;
	mkdir_tmp();
	Mindspore__Profiler__TensorMemProto t[3];
	Mindspore__Profiler__TensorMemProto *tp[3];
	for (int i = 0; i < 3; i++) {
		mindspore__profiler__tensor_mem_proto__init(&t[i]);
		tp[i] = &t[i];
		t[i].tensor_id = (uint64_t)i + 1;
		t[i].size = 64u << i;
		t[i].type = "Common";
		t[i].life_long = "LifeLongNone";
	}
	t[0].life_end = 1;
	t[1].life_start = 1, t[1].life_end = 7; /* overlong */
	t[2].life_start = 1, t[2].life_end = 0; /* reversed */
	Mindspore__Profiler__NodeMemProto n[2];
	Mindspore__Profiler__NodeMemProto *np[2];
	uint64_t out0[] = { 1 }, ws0[] = { 1, 3 }, out1[] = { 2 };
	for (int i = 0; i < 2; i++) {
		mindspore__profiler__node_mem_proto__init(&n[i]);
		np[i] = &n[i];
	}
	n[0].node_name = "Conv2D-op1";
	n[0].node_id = 0;
	n[0].n_output_tensor_id = 1, n[0].output_tensor_id = out0;
	n[0].n_workspace_tensor_id = 2, n[0].workspace_tensor_id = ws0;
	n[1].node_name = "ReLU-op2";
	n[1].node_id = 5; /* differs from its position */
	n[1].n_output_tensor_id = 1, n[1].output_tensor_id = out1;
	Mindspore__Profiler__GraphMemProto g = MINDSPORE__PROFILER__GRAPH_MEM_PROTO__INIT;
	Mindspore__Profiler__GraphMemProto *gp = &g;
	g.graph_id = 4;
	g.static_mem = 1000;
	g.n_node_mems = 2, g.node_mems = np;
	g.n_tensor_mems = 3, g.tensor_mems = tp;
	Mindspore__Profiler__MemoryProto mp = MINDSPORE__PROFILER__MEMORY_PROTO__INIT;
	mp.n_graph_mem = 1, mp.graph_mem = &gp;
	mp.total_mem = 123456789;
	size_t len = mindspore__profiler__memory_proto__get_packed_size(&mp);
	uint8_t *buf = malloc(len);
	mindspore__profiler__memory_proto__pack(&mp, buf);
	char *path = write_file("memory_usage_0.pb", buf, len);
	free(buf);

	struct pt_model *m = pt_model_new();
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(import_dir(m, &d, &e), 0);
	assert_int_equal(m->mem_graphs.n, 1);
	assert_int_equal(m->mem_graphs.v[0].graph_id, 4);
	assert_int_equal(m->mem_graphs.v[0].static_mem, 1000);
	assert_int_equal(m->mem_graphs.v[0].total_mem, 123456789);
	assert_int_equal(m->mem_nodes.n, 2);
	assert_int_equal(m->mem_nodes.v[0].nout, 1);
	assert_int_equal(m->mem_nodes.v[0].nws, 1); /* id 1 repeated an output: dropped */
	assert_int_equal(m->mem_ids.v[m->mem_nodes.v[0].ws0], 3);
	assert_int_equal(m->mem_nodes.v[1].node_id, 5);
	assert_int_equal(m->mem_tensors.n, 3);
	assert_int_equal(pt_model_stat_get(m, 0, "memory.tensors", -1), 3);
	assert_int_equal(pt_diag_total(&d), 3); /* node_id, overlong, reversed */
	pt_diag_free(&d);
	pt_model_free(m);
	cleanup(path);
}

static void test_empty_and_malformed(void **state)
{
	(void)state;
	mkdir_tmp();
	char *path = write_file("memory_usage_2.pb", "", 0);
	struct pt_model *m = pt_model_new();
	struct pt_diag d = { 0 };
	struct pt_err *e = NULL;
	assert_int_equal(import_dir(m, &d, &e), 0);
	assert_int_equal(m->mem_graphs.n, 0);
	assert_int_equal(m->devices.v[0].id, 2);
	assert_int_equal(pt_model_stat_get(m, 0, "memory.empty_files", 0), 1);
	pt_model_free(m);
	cleanup(path);

	/* graph field (1, length 9) of which only 3 bytes exist; then a wrong wire type for total_mem */
	static const uint8_t bad[][5] = { { 0x0a, 0x09, 0x08, 0x01, 0x10 }, { 0x10, 0x01, 0x12, 0x00, 0x00 } };
	static const char *const want[] = { "length past the end of the enclosing message at byte 0",
					    "unexpected wire type for a known field at byte 2" };
	for (int i = 0; i < 2; i++) {
		mkdir_tmp();
		path = write_file("memory_usage_0.pb", bad[i], i ? 4 : 5);
		m = pt_model_new();
		e = NULL;
		assert_int_equal(import_dir(m, &d, &e), -1);
		char *s = pt_err_str(e);
		assert_non_null(strstr(s, "memory_usage_0.pb"));
		if (!strstr(s, want[i]))
			fail_msg("got '%s', want '%s'", s, want[i]);
		free(s);
		pt_err_free(e);
		pt_model_free(m);
		cleanup(path);
	}
	pt_diag_free(&d);
}

static void test_file_names(void **state)
{
	(void)state;
	uint32_t n;
	assert_int_equal(pt_memory_file_number("memory_usage_12.pb", &n), 0);
	assert_int_equal(n, 12);
	assert_int_equal(pt_memory_file_number("memory_usage_.pb", &n), -1);
	assert_int_equal(pt_memory_file_number("memory_usage_1.pbx", &n), -1);
	assert_int_equal(pt_memory_file_number("xmemory_usage_1.pb", &n), -1);
}

static void put(uint8_t *r, unsigned off, unsigned size, uint64_t v)
{
	for (unsigned i = 0; i < size; i++)
		r[off + i] = (uint8_t)(v >> (8 * i));
}

static void test_cupti_decode(void **state)
{
	(void)state;
	uint8_t r[128];
	memset(r, 0, sizeof(r));
	put(r, 0, 4, PT_CK_MEMORY2);
	put(r, 4, 4, 1);
	put(r, 8, 4, 3);
	put(r, 12, 4, 77);
	put(r, 16, 8, 0x7f0000001000ull);
	put(r, 24, 8, 4096);
	put(r, 32, 8, 123456789);
	put(r, 48, 4, 4242);
	put(r, 52, 4, 1);
	put(r, 60, 4, 9);
	put(r, 80, 4, 1);
	put(r, 88, 8, 0xa000);
	put(r, 104, 8, 1 << 21);
	put(r, 112, 8, 4096);
	put(r, 120, 8, 5);
	struct pt_cupti_mem cm;
	const struct pt_cl_layout *lay = pt_cl_default(130001, PT_CK_MEMORY2);
	assert_non_null(lay);
	pt_cupti_mem_decode(PT_CK_MEMORY2, lay, pt_cl_range_of(130001), r, &cm);
	assert_int_equal(cm.mem.op, 1);
	assert_int_equal(cm.mem.mem_kind, 3);
	assert_int_equal(cm.mem.corr, 77);
	assert_int_equal(cm.mem.address, 0x7f0000001000ull);
	assert_int_equal(cm.mem.bytes, 4096);
	assert_int_equal(cm.ts, 123456789);
	assert_int_equal(cm.mem.pid, 4242);
	assert_int_equal(cm.cuda_device, 1);
	assert_int_equal(cm.mem.stream, 9);
	assert_int_equal(cm.mem.pool_type, 1);
	assert_int_equal(cm.mem.pool_address, 0xa000);
	assert_int_equal(cm.mem.pool_size, 1 << 21);
	assert_int_equal(cm.mem.pool_utilized, 4096);
	assert_int_equal(cm.source_id, 5);

	memset(r, 0, sizeof(r));
	put(r, 0, 4, PT_CK_MEMORY_POOL);
	put(r, 4, 4, 3);
	put(r, 8, 4, 1);
	put(r, 16, 4, 4242);
	put(r, 20, 4, 2);
	put(r, 24, 8, 1000);
	put(r, 32, 8, 0xb000);
	put(r, 40, 8, 2000);
	put(r, 56, 8, 99);
	put(r, 64, 8, 10);
	put(r, 72, 1, 1);
	lay = pt_cl_default(130001, PT_CK_MEMORY_POOL);
	assert_non_null(lay);
	pt_cupti_mem_decode(PT_CK_MEMORY_POOL, lay, pt_cl_range_of(130001), r, &cm);
	assert_int_equal(cm.pool.op, PT_GPOOL_TRIMMED);
	assert_int_equal(cm.pool.min_keep, 1000);
	assert_int_equal(cm.pool.address, 0xb000);
	assert_int_equal(cm.pool.size, 2000);
	assert_int_equal(cm.ts, 99);
	assert_int_equal(cm.pool.utilized, 10);
	assert_true(cm.pool.managed);
	assert_int_equal(cm.cuda_device, 2);
	/* MemoryPool2 (12.x, 72 bytes) has no isManagedPool: default 0 */
	lay = pt_cl_default(24, PT_CK_MEMORY_POOL);
	assert_non_null(lay);
	pt_cupti_mem_decode(PT_CK_MEMORY_POOL, lay, pt_cl_range_of(24), r, &cm);
	assert_false(cm.pool.managed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_empty_and_malformed),
		cmocka_unit_test(test_file_names),
		cmocka_unit_test(test_cupti_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
