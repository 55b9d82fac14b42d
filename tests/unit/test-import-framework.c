/* Unit tests of the framework readers, text era and binary era (ascend.md §2.3, §2.4, §3.4, §5, §6). */
#include <setjmp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "import/ascend-tables.h"
#include "import/ascend.h"
#include "support/xalloc.h"

/* ---- fixture helpers ---- */

struct fx {
	char dir[64];
	struct pt_model *m;
	struct pt_diag diag;
	struct pt_ascend_opts opts;
	struct pt_ascend_ctx c;
	struct pt_ascend_dev d;
	int nfiles;
};

static struct fx *fx_new(void)
{
	struct fx *f = pt_xcalloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/pt-fw-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->m = pt_model_new();
	f->opts.device = -1;
	f->c.m = f->m;
	f->c.diag = &f->diag;
	f->c.opts = &f->opts;
	f->d.id = 0;
	f->d.dev = pt_model_device(f->m, PT_DEV_NPU, 0);
	pt_hashmap_init(&f->d.task_op);
	pt_hashmap_init(&f->d.point_op);
	return f;
}

static void fx_free(struct fx *f)
{
	for (int k = 0; k < PT_AK__N; k++) {
		for (size_t i = 0; i < f->d.files[k].n; i++)
			if (!strncmp(f->d.files[k].paths[i], f->dir, strlen(f->dir)))
				unlink(f->d.files[k].paths[i]);
		pt_slices_free(&f->d.files[k]);
	}
	rmdir(f->dir);
	pt_hashmap_free(&f->d.task_op);
	pt_hashmap_free(&f->d.point_op);
	pt_diag_free(&f->diag);
	pt_model_free(f->m);
	free(f);
}

/* Write a slice file of `kind` with the given bytes. */
static void add_file(struct fx *f, enum pt_ascend_kind kind, const char *name, const void *p, size_t n)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	if (n)
		assert_int_equal(fwrite(p, 1, n, fp), n);
	fclose(fp);
	pt_slices_add(&f->d.files[kind], path);
}

static void add_text(struct fx *f, enum pt_ascend_kind kind, const char *name, const char *text)
{
	add_file(f, kind, name, text, strlen(text));
}

/* Count of the warnings whose text contains `what` (and whose file ends with `file` if given). */
static uint64_t warned(const struct fx *f, const char *what, const char *file, uint64_t *first)
{
	uint64_t n = 0;
	for (size_t i = 0; i < f->diag.n; i++) {
		const struct pt_diag_entry *e = &f->diag.v[i];
		if (!strstr(e->what, what))
			continue;
		if (file && (!e->file || strlen(e->file) < strlen(file) ||
			     strcmp(e->file + strlen(e->file) - strlen(file), file)))
			continue;
		if (first && !n)
			*first = e->first;
		n += e->count;
	}
	return n;
}

static const char *S(const struct fx *f, uint32_t id)
{
	return pt_model_strget(f->m, id);
}

static int64_t statv(const struct fx *f, const char *key)
{
	return pt_model_stat_get(f->m, (int32_t)f->d.dev, key, -12345);
}

/* Op index bound to a task key, or -1. */
static int64_t task_op(const struct fx *f, enum pt_ascend_era era, uint32_t stream, uint64_t task)
{
	uint64_t *v = pt_hashmap_get(&f->d.task_op, pt_ascend_task_key(era, stream, task));
	return v ? (int64_t)*v : -1;
}

static int64_t point_op(const struct fx *f, uint64_t tag)
{
	uint64_t *v = pt_hashmap_get(&f->d.point_op, tag);
	return v ? (int64_t)*v : -1;
}

static bool has_key(const struct pt_op *op, const char *key)
{
	for (size_t i = 0; i < op->task_keys.n; i++)
		if (!strcmp(op->task_keys.v[i], key))
			return true;
	return false;
}

/* "d0,d1,..." of a tensor's shape */
static const char *shape_str(const struct pt_tensor *t, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < t->nshape; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%" PRId64, i ? "," : "", t->shape[i]);
	return buf;
}

/* ---- small pieces ---- */

static void test_task_key_str(void **state)
{
	(void)state;
	char b[48];
	pt_ascend_task_key_str(PT_ERA_TEXT, 3, 30092, b);
	assert_string_equal(b, "30092");
	pt_ascend_task_key_str(PT_ERA_TEXT, 3, 24999, b);
	assert_string_equal(b, "3_24999");
	pt_ascend_task_key_str(PT_ERA_BINARY, 7, 65535, b);
	assert_string_equal(b, "7_65535");
	pt_ascend_task_key_str(PT_ERA_BINARY, 4294967295u, 4294967295u, b);
	assert_string_equal(b, "4294967295_4294967295");
}

static void test_tables(void **state)
{
	(void)state;
	assert_string_equal(pt_ascend_vm_dtype(26, PT_DTYPE_TABLE_OLD), "NUMBER_TYPE_BEGIN");
	assert_string_equal(pt_ascend_vm_dtype(31, PT_DTYPE_TABLE_OLD), "NUMBER_TYPE_INT32");
	assert_string_equal(pt_ascend_vm_dtype(40, PT_DTYPE_TABLE_OLD), "NUMBER_TYPE_FLOAT32");
	assert_string_equal(pt_ascend_vm_dtype(42, PT_DTYPE_TABLE_OLD), "NUMBER_TYPE_END");
	assert_string_equal(pt_ascend_vm_dtype(43, PT_DTYPE_TABLE_OLD), "UNKNOWN");
	assert_string_equal(pt_ascend_vm_dtype(25, PT_DTYPE_TABLE_OLD), "UNKNOWN");
	assert_string_equal(pt_ascend_vm_dtype(29, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_BEGIN");
	assert_string_equal(pt_ascend_vm_dtype(34, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_INT32");
	assert_string_equal(pt_ascend_vm_dtype(42, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_FLOAT16");
	assert_string_equal(pt_ascend_vm_dtype(43, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_FLOAT32");
	assert_string_equal(pt_ascend_vm_dtype(45, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_COMPLEX");
	assert_string_equal(pt_ascend_vm_dtype(46, PT_DTYPE_TABLE_NEW), "NUMBER_TYPE_END");
	assert_string_equal(pt_ascend_vm_dtype(47, PT_DTYPE_TABLE_NEW), "UNKNOWN");
	assert_string_equal(pt_ascend_vm_dtype(-1, PT_DTYPE_TABLE_NEW), "UNKNOWN");
	assert_string_equal(pt_ascend_ge_dtype(0), "DT_FLOAT");
	assert_string_equal(pt_ascend_ge_dtype(5), "UNKNOWN");
	assert_string_equal(pt_ascend_ge_dtype(6), "DT_INT16");
	assert_string_equal(pt_ascend_ge_dtype(26), "DT_UNDEFINED");
	assert_string_equal(pt_ascend_ge_dtype(27), "UNKNOWN");
	assert_string_equal(pt_ascend_ge_format(0), "FORMAT_NCHW");
	assert_string_equal(pt_ascend_ge_format(20), "FORMAT_HASHTABLE_LOOKUP_LOOKUPS");
	assert_string_equal(pt_ascend_ge_format(24), "FORMAT_HASHTABLE_LOOKUP_HITS");
	assert_string_equal(pt_ascend_ge_format(29), "FORMAT_FRACTAL_NZ");
	assert_string_equal(pt_ascend_ge_format(39), "FORMAT_ALL");
	assert_string_equal(pt_ascend_ge_format(40), "UNKNOWN");
	assert_string_equal(pt_ascend_bin_format(0), "UNKNOWN");
	assert_string_equal(pt_ascend_bin_format(2), "NC1KHKWHWC0");
	assert_string_equal(pt_ascend_bin_format(10), "FRAC_NZ");
	assert_string_equal(pt_ascend_bin_format(21), "DHWCN");
	assert_string_equal(pt_ascend_bin_format(22), "UNKNOWN");
	assert_int_equal(pt_ascend_bin_code(229), 29);
	assert_int_equal(pt_ascend_bin_code(199), 199);
}

static void test_short_name(void **state)
{
	(void)state;
	struct pt_model *m = pt_model_new();
	const char *n1 = "Default/network-WithLossCell/_backbone-ResNet/conv1-Conv2d/Cast-op5";
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n1, strlen(n1), false)), "Cast-op5");
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n1, strlen(n1), true)), "Cast-op5");
	const char *n2 = "Default/a/Conv2D-op1Default/b/BiasAdd-op2Default/Relu-op3";
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n2, strlen(n2), true)),
			    "Conv2D-op1+BiasAdd-op2+Relu-op3");
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n2, strlen(n2), false)), "Relu-op3");
	const char *n3 = "Gradients/x/y/Mul-op9";
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n3, strlen(n3), true)), "Mul-op9");
	const char *n4 = "Other/x/Mul-op9";
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n4, strlen(n4), false)), n4);
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n4, strlen(n4), true)), n4);
	const char *n5 = "Defaultx/Mul";
	assert_string_equal(pt_model_strget(m, pt_ascend_short_name(m, n5, strlen(n5), false)), n5);
	pt_model_free(m);
}

/* ---- text era ---- */

static void test_text_basic(void **state)
{
	(void)state;
	struct fx *f = fx_new();
	add_text(f, PT_AK_FW_GRAPH_DESC, "Framework.host.vm.graph_desc_info.0.slice_0",
		 "op_name:Default/net/Cast-op6 op_type:Cast input_id:0 input_format:DefaultFormat input_data_type:40 "
		 "input_shape:\"32,3,224,224\" output_id:0 output_format:NC1HWC0 output_data_type:39 output_shape:\"\"\n"
		 "op_name:Gradients/g/Mul-op2 op_type:Mul input_id:0 input_format:FracZ input_data_type:31 "
		 "input_shape:\"1\" input_id:1 input_format:DefaultFormat input_data_type:40 input_shape:\"-1,4\"\n");
	add_text(f, PT_AK_FW_TASK_DESC, "Framework.host.vm.task_desc_info.0.slice_0",
		 "Default/net/Cast-op6 32 51517 0\n"
		 "Default/Only-task 4 7 2\n"
		 "x Gradients/g/Mul-op2 8 30000 5\n" /* five fields */
		 "Gradients/g/Mul-op2 9 30001 5\n");
	add_text(f, PT_AK_FW_POINT, "Framework.host.vm.point.0.slice_0", "1 Default/net/Cast-op6\n2 Default/Point-only\n");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_null(e);
	assert_int_equal(f->d.era, PT_ERA_TEXT);
	struct pt_device *dev = &f->m->devices.v[f->d.dev];
	assert_string_equal(dev->framework_era, "text");
	assert_string_equal(dev->framework_backend, "vm");
	assert_string_equal(dev->dtype_table, "old");
	assert_string_equal(dev->dtype_table_origin, "ambiguous");
	assert_int_equal(warned(f, "old VM data-type table", NULL, NULL), 1);

	assert_int_equal(f->m->ops.n, 4);
	struct pt_op *o = f->m->ops.v;
	assert_string_equal(S(f, o[0].name), "Default/net/Cast-op6");
	assert_string_equal(S(f, o[0].short_name), "Cast-op6");
	assert_string_equal(S(f, o[0].type), "Cast");
	assert_int_equal(o[0].block_dim, 32);
	assert_int_equal(o[0].task_type, -1);
	assert_true(o[0].has_graph);
	assert_int_equal(o[0].tensors.n, 2);
	struct pt_tensor *t = &o[0].tensors.v[0];
	char sb[128];
	assert_false(t->output);
	assert_int_equal(t->index, 0);
	assert_string_equal(S(f, t->format), "DefaultFormat");
	assert_int_equal(t->dtype_code, 40);
	assert_string_equal(S(f, t->dtype), "NUMBER_TYPE_FLOAT32");
	assert_string_equal(shape_str(t, sb, sizeof(sb)), "32,3,224,224");
	t = &o[0].tensors.v[1];
	assert_true(t->output);
	assert_string_equal(S(f, t->format), "NC1HWC0");
	assert_string_equal(S(f, t->dtype), "NUMBER_TYPE_FLOAT16");
	assert_int_equal(t->nshape, 0);
	assert_int_equal(o[0].task_keys.n, 1);
	assert_string_equal(o[0].task_keys.v[0], "51517");

	assert_string_equal(S(f, o[1].name), "Gradients/g/Mul-op2");
	assert_string_equal(S(f, o[1].short_name), "Mul-op2");
	assert_int_equal(o[1].tensors.n, 2);
	assert_int_equal(o[1].tensors.v[1].index, 1);
	assert_string_equal(S(f, o[1].tensors.v[0].dtype), "NUMBER_TYPE_INT32");
	assert_string_equal(shape_str(&o[1].tensors.v[1], sb, sizeof(sb)), "-1,4");
	assert_int_equal(o[1].block_dim, 8); /* the first task line */
	assert_int_equal(o[1].task_keys.n, 2);
	assert_true(has_key(&o[1], "30000") && has_key(&o[1], "30001"));

	assert_string_equal(S(f, o[2].name), "Default/Only-task");
	assert_string_equal(S(f, o[2].short_name), "Only-task");
	assert_false(o[2].has_graph);
	assert_int_equal(o[2].type, 0);
	assert_int_equal(o[2].block_dim, 4);
	assert_string_equal(o[2].task_keys.v[0], "2_7");

	assert_string_equal(S(f, o[3].name), "Default/Point-only");
	assert_false(o[3].has_graph);
	assert_int_equal(o[3].task_keys.n, 0);

	assert_int_equal(task_op(f, PT_ERA_TEXT, 0, 51517), 0);
	assert_int_equal(task_op(f, PT_ERA_TEXT, 99, 51517), 0); /* >= 25000: no stream */
	assert_int_equal(task_op(f, PT_ERA_TEXT, 2, 7), 2);
	assert_int_equal(task_op(f, PT_ERA_TEXT, 3, 7), -1);
	assert_int_equal(task_op(f, PT_ERA_TEXT, 5, 30000), 1);
	assert_int_equal(point_op(f, 1), 0);
	assert_int_equal(point_op(f, 2), 3);

	assert_int_equal(statv(f, "framework.ops"), 3);
	assert_int_equal(statv(f, "framework.point_only_ops"), 1);
	assert_int_equal(statv(f, "framework.graph_ops"), 2);
	assert_int_equal(statv(f, "framework.tasks"), 4);
	assert_int_equal(statv(f, "framework.task_keys"), 4);
	assert_int_equal(statv(f, "framework.points"), 2);
	assert_int_equal(statv(f, "framework.ambiguous_keys"), 0);
	assert_int_equal(warned(f, "", NULL, NULL), 1); /* only the ambiguous-table note */
	fx_free(f);
}

static void test_text_malformed(void **state)
{
	(void)state;
	struct fx *f = fx_new();
	/* slice 0 ends mid-line: joined without a warning; a line broken inside a slice is joined with one */
	add_text(f, PT_AK_FW_GRAPH_DESC, "Framework.host.vm.graph_desc_info.0.slice_0",
		 "op_name:Default/A-op1 op_type:A input_id:0 input_format:Def");
	add_text(f, PT_AK_FW_GRAPH_DESC, "Framework.host.vm.graph_desc_info.0.slice_1",
		 "aultFormat input_data_type:43 input_shape:\"2,2\"\r\n"
		 "op_name:Default/B-op2 op_type:B garbage output_id:0 output_format:ND\r\n"
		 " output_data_type:44 output_shape:\"x,1\"  \r\n"
		 "\n"
		 "op_name:Default/C-op3 op_type:C output_id:0 output_data_type:42 output_shape:\"7\"");
	add_text(f, PT_AK_FW_TASK_DESC, "Framework.host.vm.task_desc_info.0.slice_0",
		 "Default/A-op1 1 30000 0\r\n"
		 "Default/B-op2 1 abc 0\n"
		 "Default/B-op2 1 2\n"
		 "Default/B-op2 1 30000 3   \n"
		 "Default/C-op3 2 5 1");
	add_text(f, PT_AK_FW_POINT, "Framework.host.vm.point.0.slice_0", "x Default/A-op1\n3 Default/C-op3");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(f->m->ops.n, 3);
	struct pt_op *o = f->m->ops.v;
	char sb[64];
	assert_string_equal(S(f, o[0].name), "Default/A-op1");
	assert_int_equal(o[0].tensors.n, 1);
	assert_string_equal(S(f, o[0].tensors.v[0].format), "DefaultFormat");
	assert_string_equal(shape_str(&o[0].tensors.v[0], sb, sizeof(sb)), "2,2");
	/* codes >= 42 choose the new table */
	assert_string_equal(S(f, o[0].tensors.v[0].dtype), "NUMBER_TYPE_FLOAT32");
	assert_string_equal(f->m->devices.v[0].dtype_table, "new");
	assert_string_equal(f->m->devices.v[0].dtype_table_origin, "chosen");

	assert_string_equal(S(f, o[1].name), "Default/B-op2");
	assert_string_equal(S(f, o[1].type), "B");
	assert_int_equal(o[1].tensors.n, 1);
	assert_true(o[1].tensors.v[0].output);
	assert_string_equal(S(f, o[1].tensors.v[0].format), "ND");
	assert_string_equal(S(f, o[1].tensors.v[0].dtype), "NUMBER_TYPE_FLOAT64");
	assert_int_equal(o[1].tensors.v[0].nshape, 0);
	uint64_t first = 0;
	assert_int_equal(warned(f, "without ':'", "graph_desc_info.0.slice_1", &first), 1);
	assert_int_equal(first, 2);
	assert_int_equal(warned(f, "joined graph_desc lines", "graph_desc_info.0.slice_1", &first), 1);
	assert_int_equal(first, 3);
	assert_int_equal(warned(f, "unparsable shapes", NULL, &first), 1);
	assert_int_equal(first, 2);
	assert_string_equal(S(f, o[2].name), "Default/C-op3");
	assert_string_equal(S(f, o[2].tensors.v[0].dtype), "NUMBER_TYPE_FLOAT16");

	/* task lines: 2 and 3 skipped; line 4 re-binds key 30000 to another op */
	assert_int_equal(warned(f, "unparsable task_desc", "task_desc_info.0.slice_0", &first), 2);
	assert_int_equal(first, 2);
	assert_int_equal(warned(f, "ambiguous join", NULL, &first), 1);
	assert_int_equal(first, 4);
	assert_int_equal(statv(f, "framework.ambiguous_keys"), 1);
	assert_int_equal(task_op(f, PT_ERA_TEXT, 0, 30000), 1);
	assert_int_equal(o[0].task_keys.n, 0);
	assert_true(has_key(&o[1], "30000"));
	assert_true(has_key(&o[2], "1_5"));
	assert_int_equal(statv(f, "framework.tasks"), 3);
	assert_int_equal(warned(f, "unparsable point", NULL, &first), 1);
	assert_int_equal(first, 1);
	assert_int_equal(point_op(f, 3), 2);
	assert_int_equal(statv(f, "framework.points"), 1);
	fx_free(f);
}

static void test_text_tables_and_empty(void **state)
{
	(void)state;
	/* codes <= 28: old table chosen; the option overrides */
	for (int opt = 0; opt <= 2; opt++) {
		struct fx *f = fx_new();
		f->opts.dtype_table = opt;
		add_text(f, PT_AK_FW_GRAPH_DESC, "Framework.host.vm.graph_desc_info.0.slice_0",
			 "op_name:Default/A op_type:A input_id:0 input_format:ND input_data_type:27 input_shape:\"1\"\n");
		add_text(f, PT_AK_FW_TASK_DESC, "Framework.host.vm.task_desc_info.0.slice_0", "");
		struct pt_err *e = NULL;
		assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
		struct pt_device *dev = &f->m->devices.v[0];
		const char *name = S(f, f->m->ops.v[0].tensors.v[0].dtype);
		if (opt == 2) {
			assert_string_equal(dev->dtype_table, "new");
			assert_string_equal(dev->dtype_table_origin, "option");
			assert_string_equal(name, "UNKNOWN");
		} else {
			assert_string_equal(dev->dtype_table, "old");
			assert_string_equal(dev->dtype_table_origin, opt ? "option" : "chosen");
			assert_string_equal(name, "NUMBER_TYPE_BOOL");
		}
		assert_int_equal(f->m->ops.v[0].tensors.v[0].dtype_code, 27);
		assert_int_equal(statv(f, "framework.tasks"), 0);
		assert_int_equal(f->diag.n, 0);
		fx_free(f);
	}
	/* no framework files: nothing happens */
	struct fx *f = fx_new();
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(f->d.era, PT_ERA_NONE);
	assert_null(f->m->devices.v[0].framework_era);
	assert_int_equal(statv(f, "framework.ops"), -12345);
	fx_free(f);
	/* empty files only: era set, zero counts */
	f = fx_new();
	add_text(f, PT_AK_FW_POINT, "Framework.host.vm.point.0.slice_0", "");
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(f->d.era, PT_ERA_TEXT);
	assert_int_equal(statv(f, "framework.ops"), 0);
	assert_int_equal(statv(f, "framework.points"), 0);
	fx_free(f);
}

static void test_text_ge(void **state)
{
	(void)state;
	struct fx *f = fx_new();
	f->d.ge_backend = true;
	add_text(f, PT_AK_FW_GRAPH_DESC, "Framework.host.graph_desc_info.0.slice_0",
		 "op_name:Default/a/Conv2D-op1Default/b/BiasAdd-op2 op_type:Conv2D input_id:0 input_format:3 "
		 "input_data_type:1 input_shape:\"1,2\" output_id:0 output_format:99 output_data_type:NCHW\n");
	add_text(f, PT_AK_FW_TASK_DESC, "Framework.host.task_desc_info.0.slice_0",
		 "Default/a/Conv2D-op1Default/b/BiasAdd-op2 2 10 1\n");
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	struct pt_device *dev = &f->m->devices.v[0];
	assert_string_equal(dev->framework_backend, "ge");
	assert_null(dev->dtype_table);
	struct pt_op *o = f->m->ops.v;
	assert_int_equal(f->m->ops.n, 1);
	assert_string_equal(S(f, o[0].short_name), "Conv2D-op1+BiasAdd-op2");
	assert_string_equal(S(f, o[0].tensors.v[0].format), "FORMAT_NC1HWC0");
	assert_string_equal(S(f, o[0].tensors.v[0].dtype), "DT_FLOAT16");
	assert_int_equal(o[0].tensors.v[0].dtype_code, 1);
	assert_string_equal(S(f, o[0].tensors.v[1].format), "UNKNOWN");
	assert_int_equal(o[0].tensors.v[1].dtype_code, -1);
	assert_string_equal(S(f, o[0].tensors.v[1].dtype), "NCHW");
	assert_int_equal(warned(f, "unparsable data types", NULL, NULL), 1);
	assert_string_equal(o[0].task_keys.v[0], "1_10");
	fx_free(f);
}

/* ---- binary era ---- */

struct rb {
	uint8_t *b;
	size_t len, cap;
};

static void rb_put(struct rb *r, const void *p, size_t n)
{
	pt_xgrow((void **)&r->b, &r->cap, r->len + n, 1);
	memcpy(r->b + r->len, p, n);
	r->len += n;
}

static void w16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void w64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A mixed name field: a string, or "#<hash>" for a hash id. */
static void mixed(uint8_t *fld, size_t size, const char *s)
{
	if (s[0] == '#') {
		fld[0] = 0;
		w64(fld + 8, strtoull(s + 1, NULL, 10));
	} else {
		fld[0] = 1;
		memcpy(fld + 8, s, strlen(s) < size - 8 ? strlen(s) : size - 8);
	}
}

static void task_rec(struct rb *r, uint16_t magic, uint16_t tag, const char *name, const char *type, uint32_t ttype,
		     uint32_t shape_type, uint32_t block, uint32_t stream, uint32_t task)
{
	uint8_t x[256];
	memset(x, 0, sizeof(x));
	w16(x, magic);
	w16(x + 2, tag);
	w32(x + 4, ttype);
	mixed(x + 8, 128, name);
	mixed(x + 136, 64, type);
	w32(x + 216, shape_type);
	w32(x + 220, block);
	w32(x + 228, stream);
	w32(x + 232, task);
	w32(x + 236, 77);
	rb_put(r, x, sizeof(x));
}

struct slot {
	uint32_t type, fmt, dt, dims[8];
};

static void tensor_rec(struct rb *r, uint32_t stream, uint32_t task, unsigned num, const struct slot *s, unsigned ns)
{
	uint8_t x[256];
	memset(x, 0, sizeof(x));
	w16(x, 0x5A5A);
	w16(x + 2, 24);
	w32(x + 16, stream);
	w32(x + 20, task);
	x[24] = (uint8_t)num;
	for (unsigned i = 0; i < ns && i < 5; i++) {
		uint8_t *p = x + 28 + 44 * i;
		w32(p, s[i].type);
		w32(p + 4, s[i].fmt);
		w32(p + 8, s[i].dt);
		for (int k = 0; k < 8; k++)
			w32(p + 12 + 4 * k, s[i].dims[k]);
	}
	rb_put(r, x, sizeof(x));
}

static void step_rec(struct rb *r, uint32_t stream, uint32_t task, uint8_t tag)
{
	uint8_t x[64];
	memset(x, 0, sizeof(x));
	w16(x, 0x5A5A);
	w16(x + 2, 25);
	w32(x + 8, stream);
	w32(x + 12, task);
	x[36] = tag;
	rb_put(r, x, sizeof(x));
}

static void test_bin_basic(void **state)
{
	(void)state;
	struct fx *f = fx_new();
	add_text(f, PT_AK_FWB_HASH_DIC, "Framework.hash_dic.0.slice_0",
		 "123456789012345:Default/net/MatMul-op7\r\n18446744073709551615:MatMul\nbad line\n\n");
	struct rb r = { 0 };
	task_rec(&r, 0x5A5A, 23, "Default/net/Add-op1", "Add", 0, 0, 8, 2, 1);
	task_rec(&r, 0x5A5A, 23, "#123456789012345", "#18446744073709551615", 1, 1, 16, 2, 2);
	task_rec(&r, 0x1234, 23, "Default/Bad", "Bad", 0, 0, 1, 9, 9); /* bad magic: skipped */
	task_rec(&r, 0x5A5A, 99, "Default/net/Add-op1", "Add", 0, 0, 8, 3, 70000); /* wrong tag: warned once */
	task_rec(&r, 0x5A5A, 99, "#42", "#43", 2, 0, 1, 4, 1);                        /* unknown hashes */
	task_rec(&r, 0x5A5A, 23, "Default/net/Add-op1", "Add", 0, 0, 8, 2, 1);        /* repeated iteration */
	/* slice 0 ends inside the third record: records straddle slices */
	add_file(f, PT_AK_FWB_TASK_DESC, "Framework.task_desc_info.0.slice_0", r.b, 600);
	add_file(f, PT_AK_FWB_TASK_DESC, "Framework.task_desc_info.0.slice_1", r.b + 600, r.len - 600);
	r.len = 0;
	struct slot sl[3] = {
		{ 0, 202, 243, { 16, 0, 32, 0, 0, 0, 0, 0 } },
		{ 0, 10, 42, { 1, 2, 3, 4, 5, 6, 7, 8 } },
		{ 1, 3, 234, { 0 } },
	};
	tensor_rec(&r, 2, 1, 3, sl, 3);
	tensor_rec(&r, 2, 1, 1, sl + 1, 1);  /* second record of the op: ignored */
	tensor_rec(&r, 4, 1, 9, sl, 3);      /* more than 5 tensors */
	tensor_rec(&r, 8, 8, 1, sl, 1);      /* unknown task */
	rb_put(&r, "\x5a\x5a\x18\x00", 4);   /* truncated tail */
	add_file(f, PT_AK_FWB_TENSOR, "Framework.tensor_data_info.0.slice_0", r.b, r.len);
	r.len = 0;
	step_rec(&r, 2, 2, 1);
	step_rec(&r, 3, 70000, 2);
	step_rec(&r, 5, 5, 3); /* unknown task */
	add_file(f, PT_AK_FWB_STEP_INFO, "Framework.step_info.0.slice_0", r.b, r.len);
	free(r.b);

	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_bin(&f->c, &f->d, &e), 0);
	assert_null(e);
	assert_int_equal(f->d.era, PT_ERA_BINARY);
	assert_true(f->d.dynamic_shape);
	struct pt_device *dev = &f->m->devices.v[0];
	assert_true(dev->dynamic_shape);
	assert_string_equal(dev->framework_era, "binary");
	assert_string_equal(dev->dtype_table, "new");
	assert_string_equal(dev->dtype_table_origin, "binary");

	assert_int_equal(f->m->ops.n, 3);
	struct pt_op *o = f->m->ops.v;
	assert_string_equal(S(f, o[0].name), "Default/net/Add-op1");
	assert_string_equal(S(f, o[0].short_name), "Add-op1");
	assert_string_equal(S(f, o[0].type), "Add");
	assert_int_equal(o[0].block_dim, 8);
	assert_int_equal(o[0].task_type, 0);
	assert_int_equal(o[0].task_keys.n, 2);
	assert_string_equal(o[0].task_keys.v[0], "2_1");
	assert_string_equal(o[0].task_keys.v[1], "3_70000");
	assert_string_equal(S(f, o[1].name), "Default/net/MatMul-op7");
	assert_string_equal(S(f, o[1].type), "MatMul");
	assert_int_equal(o[1].task_type, 1);
	assert_int_equal(o[1].block_dim, 16);
	assert_string_equal(S(f, o[2].name), "hash:42");
	assert_string_equal(S(f, o[2].type), "hash:43");
	assert_int_equal(o[2].task_type, 2);
	assert_int_equal(task_op(f, PT_ERA_BINARY, 2, 1), 0);
	assert_int_equal(task_op(f, PT_ERA_BINARY, 3, 70000), 0);
	assert_int_equal(task_op(f, PT_ERA_BINARY, 2, 2), 1);
	assert_int_equal(task_op(f, PT_ERA_BINARY, 4, 1), 2);
	assert_int_equal(task_op(f, PT_ERA_BINARY, 9, 9), -1);

	uint64_t first;
	assert_int_equal(warned(f, "bad magic", "task_desc_info.0.slice_0", &first), 1);
	assert_int_equal(first, 512);
	assert_int_equal(warned(f, "dataTag", "task_desc_info.0.slice_1", &first), 1); /* once per file */
	assert_int_equal(first, 168);
	assert_int_equal(warned(f, "unknown hash", "task_desc_info.0.slice_1", &first), 2);
	assert_int_equal(first, 424);
	assert_int_equal(warned(f, "unparsable hash_dic", NULL, &first), 1);
	assert_int_equal(first, 3);

	/* tensors: first record of the op only; formats/dtypes >= 200 reduced */
	assert_true(o[0].has_graph);
	assert_int_equal(o[0].tensors.n, 3);
	char sb[64];
	struct pt_tensor *t = o[0].tensors.v;
	assert_false(t[0].output);
	assert_int_equal(t[0].index, 0);
	assert_string_equal(S(f, t[0].format), "NC1KHKWHWC0");
	assert_int_equal(t[0].dtype_code, 43);
	assert_string_equal(S(f, t[0].dtype), "NUMBER_TYPE_FLOAT32");
	assert_string_equal(shape_str(&t[0], sb, sizeof(sb)), "16,32");
	assert_int_equal(t[1].index, 1);
	assert_string_equal(S(f, t[1].format), "FRAC_NZ");
	assert_string_equal(S(f, t[1].dtype), "NUMBER_TYPE_FLOAT16");
	assert_string_equal(shape_str(&t[1], sb, sizeof(sb)), "1,2,3,4,5,6,7,8");
	assert_true(t[2].output);
	assert_int_equal(t[2].index, 0);
	assert_string_equal(S(f, t[2].format), "ND");
	assert_string_equal(S(f, t[2].dtype), "NUMBER_TYPE_INT32");
	assert_int_equal(t[2].nshape, 0);
	assert_false(o[1].has_graph);
	assert_true(o[2].has_graph);
	assert_int_equal(o[2].tensors.n, 5); /* slots 3 and 4 are zero: inputs of UNKNOWN format */
	assert_string_equal(S(f, o[2].tensors.v[4].format), "UNKNOWN");
	assert_int_equal(warned(f, "more than 5", NULL, &first), 1);
	assert_int_equal(first, 512);
	assert_int_equal(warned(f, "tensor_data records of tasks absent", NULL, &first), 1);
	assert_int_equal(first, 768);
	assert_int_equal(warned(f, "truncated", "tensor_data_info.0.slice_0", &first), 4);
	assert_int_equal(first, 1024);

	assert_int_equal(point_op(f, 1), 1);
	assert_int_equal(point_op(f, 2), 0);
	assert_int_equal(point_op(f, 3), -1);
	assert_int_equal(warned(f, "step_info records of tasks absent", NULL, &first), 1);
	assert_int_equal(first, 128);

	assert_int_equal(statv(f, "framework.ops"), 3);
	assert_int_equal(statv(f, "framework.tasks"), 5);
	assert_int_equal(statv(f, "framework.task_keys"), 4);
	assert_int_equal(statv(f, "framework.graph_ops"), 2);
	assert_int_equal(statv(f, "framework.points"), 2);
	assert_int_equal(statv(f, "framework.ambiguous_keys"), 0);
	assert_int_equal(statv(f, "framework.hash_entries"), 2);
	assert_int_equal(statv(f, "framework.bad_magic_records"), 1);
	assert_int_equal(statv(f, "framework.dynamic_shape"), 1);
	fx_free(f);
}

static void test_bin_bad_first_magic(void **state)
{
	(void)state;
	struct fx *f = fx_new();
	struct rb r = { 0 };
	task_rec(&r, 0x5A5A, 23, "Default/A", "A", 0, 0, 1, 1, 1);
	add_file(f, PT_AK_FWB_TASK_DESC, "Framework.task_desc_info.0.slice_0", r.b, r.len);
	r.len = 0;
	step_rec(&r, 1, 1, 1);
	r.b[0] = 0x11;
	step_rec(&r, 1, 1, 2);
	add_file(f, PT_AK_FWB_STEP_INFO, "Framework.step_info.0.slice_0", r.b, r.len);
	free(r.b);
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_bin(&f->c, &f->d, &e), -1);
	assert_non_null(e);
	char *msg = pt_err_str(e);
	assert_non_null(strstr(msg, "Framework.step_info.0.slice_0"));
	assert_non_null(strstr(msg, "bad magic"));
	assert_non_null(strstr(msg, "offset 0"));
	assert_false(f->d.dynamic_shape);
	free(msg);
	pt_err_free(e);
	fx_free(f);

	/* an empty first slice: the first record is in the second one */
	f = fx_new();
	uint8_t junk[256] = { 0 };
	add_file(f, PT_AK_FWB_TENSOR, "Framework.tensor_data_info.0.slice_0", "", 0);
	add_file(f, PT_AK_FWB_TENSOR, "Framework.tensor_data_info.0.slice_1", junk, sizeof(junk));
	e = NULL;
	assert_int_equal(pt_ascend_read_framework_bin(&f->c, &f->d, &e), -1);
	msg = pt_err_str(e);
	assert_non_null(strstr(msg, "Framework.tensor_data_info.0.slice_1"));
	free(msg);
	pt_err_free(e);
	fx_free(f);

	/* only empty files: no records, not fatal */
	f = fx_new();
	add_file(f, PT_AK_FWB_TASK_DESC, "Framework.task_desc_info.0.slice_0", "", 0);
	add_file(f, PT_AK_FWB_TENSOR, "Framework.tensor_data_info.0.slice_0", "", 0);
	add_file(f, PT_AK_FWB_STEP_INFO, "Framework.step_info.0.slice_0", "xyz", 3);
	e = NULL;
	assert_int_equal(pt_ascend_read_framework_bin(&f->c, &f->d, &e), 0);
	assert_int_equal(f->d.era, PT_ERA_BINARY);
	assert_int_equal(statv(f, "framework.tasks"), 0);
	assert_int_equal(warned(f, "truncated", "step_info.0.slice_0", NULL), 3);
	fx_free(f);
}

/* ---- real samples (ascend.md §6) ---- */

static char *shared_dir(void)
{
	const char *env = getenv("PT_SHARED");
	char *p;
	if (env)
		p = pt_xasprintf("%s/fixtures/mindinsight", env);
	else if (getenv("PT_SRC"))
		p = pt_xasprintf("%s/../shared/fixtures/mindinsight", getenv("PT_SRC"));
	else
		p = pt_xasprintf("%s/../../../shared/fixtures/mindinsight", __FILE__);
	struct stat st;
	if (stat(p, &st) || !S_ISDIR(st.st_mode)) {
		print_message("fixtures not found at '%s': skipped\n", p);
		free(p);
		return NULL;
	}
	return p;
}

/* Add the sample file dir/sub/name if present. */
static bool add_sample(struct fx *f, enum pt_ascend_kind kind, const char *base, const char *name)
{
	char *p = pt_xasprintf("%s/%s", base, name);
	struct stat st;
	bool ok = !stat(p, &st);
	if (ok)
		pt_slices_add(&f->d.files[kind], p);
	free(p);
	return ok;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *b = NULL;
	size_t len = 0, cap = 0, n;
	do {
		pt_xgrow((void **)&b, &cap, len + 4096 + 1, 1);
		n = fread(b + len, 1, 4096, fp);
		len += n;
	} while (n);
	fclose(fp);
	b[len] = 0;
	return b;
}

/* One framework_raw CSV row (MindInsight's), from the model. */
static char *framework_row(struct fx *f, const struct pt_op *op)
{
	char buf[4096], sb[256];
	size_t n = 0;
	const char *name = S(f, op->name);
	const char *sub = !strncmp(name, "Default/", 8) ? "Default" : !strncmp(name, "Gradients/", 10) ? "Gradients" : "";
	/* task_id; the stream id of keys >= 25000 is not in the model: JOB1's is 0 */
	const char *key = op->task_keys.n ? op->task_keys.v[0] : "";
	const char *us = strchr(key, '_');
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s,%.*s,%u,%s,%s,%s,%s,", us ? us + 1 : key,
			      us ? (int)(us - key) : 1, us ? key : "0", op->block_dim, name, S(f, op->short_name),
			      S(f, op->type), sub);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\"{");
	for (size_t i = 0; i < op->tensors.n; i++) {
		const struct pt_tensor *t = &op->tensors.v[i];
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "%s\"\"%s_%u\"\": {\"\"format\"\": \"\"%s\"\", \"\"data_type\"\": \"\"%s\"\", "
				      "\"\"shape\"\": \"\"%s\"\"}",
				      i ? ", " : "", t->output ? "output" : "input", t->index, S(f, t->format),
				      S(f, t->dtype), shape_str(t, sb, sizeof(sb)));
	}
	snprintf(buf + n, sizeof(buf) - n, "}\"");
	return pt_xstrdup(buf);
}

static void check_job1_like(const char *base, const char *dir, const char *infix)
{
	struct fx *f = fx_new();
	char name[256];
	snprintf(name, sizeof(name), "%s/Framework.host.vm.task_desc_info.0%s.slice_0", dir, infix);
	assert_true(add_sample(f, PT_AK_FW_TASK_DESC, base, name));
	snprintf(name, sizeof(name), "%s/Framework.host.vm.graph_desc_info.0%s.slice_0", dir, infix);
	assert_true(add_sample(f, PT_AK_FW_GRAPH_DESC, base, name));
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(f->m->ops.n, 4);
	assert_int_equal(statv(f, "framework.ops"), 4);
	assert_int_equal(statv(f, "framework.tasks"), 4);
	assert_int_equal(statv(f, "framework.graph_ops"), 4);
	assert_int_equal(statv(f, "framework.ambiguous_keys"), 0);
	assert_string_equal(f->m->devices.v[0].dtype_table, "old");
	char *p = pt_xasprintf("%s/JOB1/expected/framework_raw_0.csv", base);
	char *csv = slurp(p);
	free(p);
	assert_non_null(csv);
	char *save = NULL, *line = strtok_r(csv, "\n", &save);
	assert_non_null(line);
	size_t row = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		size_t l = strlen(line);
		if (l && line[l - 1] == '\r')
			line[l - 1] = 0;
		if (!*line)
			continue;
		assert_true(row < f->m->ops.n);
		char *got = framework_row(f, &f->m->ops.v[row]);
		assert_string_equal(got, line);
		free(got);
		row++;
	}
	assert_int_equal(row, 4);
	free(csv);
	/* keys >= 25000: joined on the task id alone */
	assert_int_equal(task_op(f, PT_ERA_TEXT, 0, 51522), 3);
	assert_int_equal(task_op(f, PT_ERA_TEXT, 517, 51517), 0);
	assert_int_equal(f->diag.n, 1); /* the ambiguous data-type table */
	fx_free(f);
}

static void test_fixture_job1(void **state)
{
	(void)state;
	char *base = shared_dir();
	if (!base)
		skip();
	check_job1_like(base, "JOB1", "");
	free(base);
}

static void test_fixture_container(void **state)
{
	(void)state;
	char *base = shared_dir();
	if (!base)
		skip();
	check_job1_like(base, "container/0/data", ".JOB2");
	free(base);
}

static void test_fixture_job3(void **state)
{
	(void)state;
	char *base = shared_dir();
	if (!base)
		skip();
	struct fx *f = fx_new();
	f->d.id = 1;
	assert_true(add_sample(f, PT_AK_FW_TASK_DESC, base, "JOB3/Framework.host.vm.task_desc_info.1.slice_0"));
	assert_true(add_sample(f, PT_AK_FW_GRAPH_DESC, base, "JOB3/Framework.host.vm.graph_desc_info.1.slice_0"));
	assert_true(add_sample(f, PT_AK_FW_POINT, base, "JOB3/Framework.host.vm.point.1.slice_0"));
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(statv(f, "framework.ops"), 199);
	assert_int_equal(statv(f, "framework.graph_ops"), 199);
	assert_int_equal(statv(f, "framework.tasks"), 199);
	assert_int_equal(statv(f, "framework.task_keys"), 199);
	assert_int_equal(statv(f, "framework.points"), 8);
	assert_int_equal(statv(f, "framework.ambiguous_keys"), 0);
	/* the point file names 5 ops that neither task_desc nor graph_desc lists */
	assert_int_equal(statv(f, "framework.point_only_ops"), 5);
	assert_int_equal(f->m->ops.n, 204);
	assert_string_equal(S(f, f->m->ops.v[0].name), "Default/AssignAdd-op414");
	assert_string_equal(f->m->ops.v[0].task_keys.v[0], "30092");
	assert_int_equal(task_op(f, PT_ERA_TEXT, 3, 30092), 0);
	int64_t p3 = point_op(f, 3), p4 = point_op(f, 4);
	assert_true(p3 >= 0 && p3 == p4);
	assert_string_equal(S(f, f->m->ops.v[p3].short_name), "AllGather-op136");
	assert_string_equal(S(f, f->m->ops.v[point_op(f, 1)].name), "Default/Cast-op6");
	/* codes 31, 39, 40 only: the old table, ambiguous */
	assert_string_equal(f->m->devices.v[0].dtype_table_origin, "ambiguous");
	assert_int_equal(f->diag.n, 1);
	for (size_t i = 0; i < 199; i++) {
		assert_true(f->m->ops.v[i].has_graph);
		assert_int_equal(f->m->ops.v[i].task_keys.n, 1);
	}
	fx_free(f);
	free(base);
}

static void test_fixture_job4(void **state)
{
	(void)state;
	char *base = shared_dir();
	if (!base)
		skip();
	struct fx *f = fx_new();
	assert_true(add_sample(f, PT_AK_FW_TASK_DESC, base, "JOB4/data/Framework.host.vm.task_desc_info.0.slice_0"));
	assert_true(add_sample(f, PT_AK_FW_GRAPH_DESC, base, "JOB4/data/Framework.host.vm.graph_desc_info.0.slice_0"));
	assert_true(add_sample(f, PT_AK_FW_POINT, base, "JOB4/data/Framework.host.vm.point.0.slice_0"));
	struct pt_err *e = NULL;
	assert_int_equal(pt_ascend_read_framework_text(&f->c, &f->d, &e), 0);
	assert_int_equal(f->m->ops.n, 4);
	for (uint32_t i = 0; i < 4; i++) {
		char key[16];
		snprintf(key, sizeof(key), "0_%u", i + 1);
		assert_int_equal(f->m->ops.v[i].task_keys.n, 1);
		assert_string_equal(f->m->ops.v[i].task_keys.v[0], key);
		assert_int_equal(task_op(f, PT_ERA_TEXT, 0, i + 1), i);
	}
	assert_int_equal(task_op(f, PT_ERA_TEXT, 1, 1), -1);
	assert_int_equal(point_op(f, 1), 0);
	assert_int_equal(point_op(f, 2), 1);
	assert_int_equal(statv(f, "framework.points"), 2);
	assert_int_equal(statv(f, "framework.point_only_ops"), 0);
	fx_free(f);
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_key_str),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_short_name),
		cmocka_unit_test(test_text_basic),
		cmocka_unit_test(test_text_malformed),
		cmocka_unit_test(test_text_tables_and_empty),
		cmocka_unit_test(test_text_ge),
		cmocka_unit_test(test_bin_basic),
		cmocka_unit_test(test_bin_bad_first_magic),
		cmocka_unit_test(test_fixture_job1),
		cmocka_unit_test(test_fixture_container),
		cmocka_unit_test(test_fixture_job3),
		cmocka_unit_test(test_fixture_job4),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
