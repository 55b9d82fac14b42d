/*
 * Binary-era framework files (MindSpore >= 1.6, ascend.md §2.4): hash_dic
 * (text), then the fixed-size TASK_DESC (256 B), TENSOR_DATA (256 B) and
 * STEP_INFO (64 B) records, each starting with magic 0x5A5A and a dataTag.
 * Ops: one per distinct opName in first-appearance order. Joins go into
 * d->task_op ("<streamId>_<taskId>" -> op) and d->point_op (tag -> op).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/ascend-tables.h"
#include "import/ascend.h"
#include "support/le.h"
#include "support/xalloc.h"

#define FW_MAGIC 0x5A5Au
#define TAG_TASK_DESC 23
#define TAG_TENSOR 24
#define TAG_STEP_INFO 25

struct fwb {
	struct pt_ascend_ctx *c;
	struct pt_ascend_dev *d;
	struct pt_model *m;
	struct pt_hashmap hash_name; /* hash id -> string id */
	struct pt_hashmap name_op;   /* opName string id -> op index */
	uint64_t ops, tasks, graph_ops, ambiguous, hashes, tensor_recs, step_recs, bad_magic;
	int64_t shape[8];
};




static int read_hash_dic(struct fwb *b, struct pt_err **e)
{
	struct pt_slices *s = &b->d->files[PT_AK_FWB_HASH_DIC];
	if (!s->n)
		return 0;
	char *buf;
	size_t len;
	if (pt_slices_read_all(s, &buf, &len, e))
		return pt_err(e, "hash_dic");
	struct pt_textiter it;
	pt_textiter_init(&it, s, buf, len, '\n');
	const char *rec;
	size_t rl, file;
	uint64_t line;
	while (pt_textiter_next(&it, &rec, &rl, &file, &line)) {
		while (rl && (rec[rl - 1] == ' ' || rec[rl - 1] == '\t' || rec[rl - 1] == '\r'))
			rl--;
		if (!rl)
			continue;
		const char *colon = memchr(rec, ':', rl);
		uint64_t hash;
		if (!colon || !pt_ascend_parse_u64(rec, (size_t)(colon - rec), &hash)) {
			pt_diag_warn(b->c->diag, s->paths[file], "skipped unparsable hash_dic lines", PT_POS_LINE, line);
			continue;
		}
		bool added;
		uint32_t id = pt_strtab_intern(&b->m->strings, colon + 1, rl - (size_t)(colon + 1 - rec));
		*pt_hashmap_put(&b->hash_name, hash, id, &added) = id;
		b->hashes++;
	}
	free(buf);
	return 0;
}

/* A mixed name field: flag byte, 7 reserved bytes, then a NUL-terminated
 * string or a u64 hash id. */
static uint32_t mixed_name(struct fwb *b, const uint8_t *fld, size_t size, const char *path, uint64_t off)
{
	if (fld[0] == 0) {
		uint64_t hash = pt_le64(fld + 8);
		uint64_t *v = pt_hashmap_get(&b->hash_name, hash);
		if (v)
			return (uint32_t)*v;
		pt_diag_warn(b->c->diag, path, "named unknown hash ids as hash:<value>", PT_POS_OFFSET, off);
		char tmp[40];
		snprintf(tmp, sizeof(tmp), "hash:%" PRIu64, hash);
		return pt_model_str(b->m, tmp);
	}
	if (fld[0] != 1)
		pt_diag_warn(b->c->diag, path, "read name fields with an unknown flag as strings", PT_POS_OFFSET, off);
	const uint8_t *str = fld + 8;
	const uint8_t *nul = memchr(str, 0, size - 8);
	size_t n = nul ? (size_t)(nul - str) : size - 8;
	return pt_strtab_intern(&b->m->strings, (const char *)str, n);
}

static void on_task(struct fwb *b, const uint8_t *r, const char *path, uint64_t off)
{
	struct pt_model *m = b->m;
	uint32_t name = mixed_name(b, r + 8, 128, path, off);
	uint32_t type = mixed_name(b, r + 136, 64, path, off);
	uint32_t task_type = pt_le32(r + 4);
	uint32_t shape_type = pt_le32(r + 216);
	uint32_t block = pt_le32(r + 220);
	uint32_t stream = pt_le32(r + 228);
	uint32_t task = pt_le32(r + 232);
	if (shape_type == 1)
		b->d->dynamic_shape = true;
	bool added;
	uint64_t *v = pt_hashmap_put(&b->name_op, name, 0, &added);
	if (added) {
		struct pt_op op;
		memset(&op, 0, sizeof(op));
		op.device = b->d->dev;
		op.name = name;
		op.short_name = pt_ascend_short_name(m, pt_model_strget(m, name), pt_strtab_len(&m->strings, name),
						     false);
		op.type = type;
		op.block_dim = block;
		op.task_type = task_type > INT32_MAX ? -1 : (int32_t)task_type;
		*v = pt_model_add_op(m, &op);
		b->ops++;
	}
	if (pt_ascend_bind_task(m, b->d, PT_ERA_BINARY, stream, task, (uint32_t)*v)) {
		pt_diag_warn(b->c->diag, path,
			     "found task ids naming another op before (ambiguous join; the last record wins)",
			     PT_POS_OFFSET, off);
		b->ambiguous++;
	}
	b->tasks++;
}

static void on_tensor(struct fwb *b, const uint8_t *r, const char *path, uint64_t off)
{
	struct pt_model *m = b->m;
	uint32_t stream = pt_le32(r + 16), task = pt_le32(r + 20);
	unsigned num = r[24];
	b->tensor_recs++;
	uint64_t *v = pt_hashmap_get(&b->d->task_op, pt_ascend_task_key(PT_ERA_BINARY, stream, task));
	if (!v) {
		pt_diag_warn(b->c->diag, path, "skipped tensor_data records of tasks absent from task_desc",
			     PT_POS_OFFSET, off);
		return;
	}
	struct pt_op *op = &m->ops.v[*v];
	if (op->has_graph)
		return; /* tensors come from the op's first record only */
	if (num > 5) {
		pt_diag_warn(b->c->diag, path, "cut tensor_data records with more than 5 tensors to 5", PT_POS_OFFSET,
			     off);
		num = 5;
	}
	uint32_t nin = 0, nout = 0;
	for (unsigned i = 0; i < num; i++) {
		const uint8_t *slot = r + 28 + i * 44;
		bool output = pt_le32(slot) != 0;
		int fmt = pt_ascend_bin_code(pt_le32(slot + 4));
		int dt = pt_ascend_bin_code(pt_le32(slot + 8));
		uint32_t ns = 0;
		for (int k = 0; k < 8; k++) {
			uint32_t dim = pt_le32(slot + 12 + 4 * k);
			if (dim)
				b->shape[ns++] = dim;
		}
		pt_op_add_tensor(op, output, output ? nout++ : nin++, pt_model_str(m, pt_ascend_bin_format(fmt)), dt,
				 pt_model_str(m, pt_ascend_vm_dtype(dt, PT_DTYPE_TABLE_NEW)), b->shape, ns);
	}
	op->has_graph = true;
	b->graph_ops++;
}

static void on_step(struct fwb *b, const uint8_t *r, const char *path, uint64_t off)
{
	uint32_t stream = pt_le32(r + 8), task = pt_le32(r + 12);
	unsigned tag = r[36];
	b->step_recs++;
	uint64_t *v = pt_hashmap_get(&b->d->task_op, pt_ascend_task_key(PT_ERA_BINARY, stream, task));
	if (!v) {
		pt_diag_warn(b->c->diag, path, "skipped step_info records of tasks absent from task_desc",
			     PT_POS_OFFSET, off);
		return;
	}
	bool added;
	uint64_t op = *v;
	uint64_t *p = pt_hashmap_put(&b->d->point_op, tag, op, &added);
	if (!added && *p != op)
		pt_diag_warn(b->c->diag, path, "found step_info tags naming several ops (the last record wins)",
			     PT_POS_OFFSET, off);
	*p = op;
}

typedef void (*rec_fn)(struct fwb *b, const uint8_t *r, const char *path, uint64_t off);

static int read_records(struct fwb *b, enum pt_ascend_kind kind, const char *what, size_t recsize, unsigned tag,
			rec_fn fn, struct pt_err **e)
{
	struct pt_slices *s = &b->d->files[kind];
	if (!s->n)
		return 0;
	struct pt_recreader r;
	bool *tag_warned = pt_xcalloc(s->n, sizeof(*tag_warned));
	int rc = pt_recreader_open(&r, s, recsize, e);
	const uint8_t *rec;
	uint64_t logical, off;
	bool first = true;
	while (!rc) {
		int k = pt_recreader_next(&r, &rec, &logical, e);
		if (k <= 0) {
			rc = k;
			break;
		}
		size_t file = pt_slices_locate(r.s, logical, &off);
		const char *path = s->paths[file];
		uint16_t magic = pt_le16(rec);
		if (magic != FW_MAGIC) {
			if (first) {
				rc = pt_err(e, "%s '%s': bad magic 0x%04x at offset %" PRIu64
					    " (expected 0x5a5a): not a binary framework file",
					    what, path, magic, off);
				break;
			}
			pt_diag_warn(b->c->diag, path, "skipped records with a bad magic", PT_POS_OFFSET, off);
			b->bad_magic++;
			continue;
		}
		first = false;
		if (pt_le16(rec + 2) != tag && !tag_warned[file]) {
			tag_warned[file] = true;
			char *w = pt_xasprintf("found records with a dataTag other than %u", tag);
			pt_diag_warn(b->c->diag, path, w, PT_POS_OFFSET, off);
			free(w);
		}
		fn(b, rec, path, off);
	}
	if (!rc) {
		size_t tail = pt_recreader_tail(&r, &logical);
		if (tail) {
			size_t file = pt_slices_locate(r.s, logical, &off);
			pt_diag_warn_n(b->c->diag, s->paths[file], "skipped bytes of a truncated record", PT_POS_OFFSET,
				       off, tail);
		}
	}
	pt_recreader_close(&r);
	free(tag_warned);
	return rc;
}

int pt_ascend_read_framework_bin(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	if (!d->files[PT_AK_FWB_TASK_DESC].n && !d->files[PT_AK_FWB_TENSOR].n && !d->files[PT_AK_FWB_STEP_INFO].n &&
	    !d->files[PT_AK_FWB_HASH_DIC].n)
		return 0;
	struct pt_model *m = c->m;
	struct fwb b = { .c = c, .d = d, .m = m };
	pt_hashmap_init(&b.hash_name);
	pt_hashmap_init(&b.name_op);
	d->era = PT_ERA_BINARY;
	struct pt_device *dev = &m->devices.v[d->dev];
	pt_ascend_set_str(&dev->framework_era, "binary");
	pt_ascend_set_str(&dev->dtype_table, "new");
	pt_ascend_set_str(&dev->dtype_table_origin, "binary");

	int rc = read_hash_dic(&b, e);
	if (!rc)
		rc = read_records(&b, PT_AK_FWB_TASK_DESC, "task_desc", 256, TAG_TASK_DESC, on_task, e);
	if (!rc)
		rc = read_records(&b, PT_AK_FWB_TENSOR, "tensor_data", 256, TAG_TENSOR, on_tensor, e);
	if (!rc)
		rc = read_records(&b, PT_AK_FWB_STEP_INFO, "step_info", 64, TAG_STEP_INFO, on_step, e);
	if (d->dynamic_shape)
		dev->dynamic_shape = true;

	int32_t dv = (int32_t)d->dev;
	pt_model_stat_set(m, dv, "framework.ops", (int64_t)b.ops);
	pt_model_stat_set(m, dv, "framework.graph_ops", (int64_t)b.graph_ops);
	pt_model_stat_set(m, dv, "framework.tasks", (int64_t)b.tasks);
	pt_model_stat_set(m, dv, "framework.task_keys", (int64_t)d->task_op.n);
	pt_model_stat_set(m, dv, "framework.points", (int64_t)d->point_op.n);
	pt_model_stat_set(m, dv, "framework.ambiguous_keys", (int64_t)b.ambiguous);
	pt_model_stat_set(m, dv, "framework.hash_entries", (int64_t)b.hashes);
	pt_model_stat_set(m, dv, "framework.tensor_records", (int64_t)b.tensor_recs);
	pt_model_stat_set(m, dv, "framework.step_info_records", (int64_t)b.step_recs);
	pt_model_stat_set(m, dv, "framework.bad_magic_records", (int64_t)b.bad_magic);
	pt_model_stat_set(m, dv, "framework.dynamic_shape", d->dynamic_shape);
	pt_hashmap_free(&b.hash_name);
	pt_hashmap_free(&b.name_op);
	return rc;
}
