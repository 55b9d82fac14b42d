/*
 * Text-era framework files (ascend.md §2.3): graph_desc_info, task_desc_info
 * and point, of the vm or ge backend (d->ge_backend). Ops are added in
 * graph_desc order, then the task_desc ops without a graph line (task_desc
 * order), then the point ops named nowhere else. Joins go into d->task_op
 * (task key -> op index) and d->point_op (tag -> op index).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/ascend-tables.h"
#include "import/ascend.h"
#include "support/xalloc.h"

void pt_ascend_task_key_str(enum pt_ascend_era era, uint32_t stream, uint64_t task, char *buf)
{
	if (era != PT_ERA_BINARY && task >= 25000)
		snprintf(buf, 48, "%" PRIu64, task);
	else
		snprintf(buf, 48, "%" PRIu32 "_%" PRIu64, stream, task);
}

struct fwt {
	struct pt_ascend_ctx *c;
	struct pt_ascend_dev *d;
	struct pt_model *m;
	struct pt_hashmap name_op; /* name string id -> op index (ops of this reader) */
	uint32_t first_op;
	uint64_t ops, graph_ops, tasks, points, point_only_ops, ambiguous;
	PT_VEC(int64_t) shape;
};

/* One tensor group of a graph line (input_... or output_... tokens). */
struct group {
	bool active, output;
	uint32_t index;
	uint32_t format;
	int32_t code;
	uint32_t dtype;
	bool shape_ok;
};

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Next whitespace-separated token of [*p, end). */
static bool next_token(const char **p, const char *end, const char **tok, size_t *len)
{
	const char *s = *p;
	while (s < end && is_space(*s))
		s++;
	if (s >= end)
		return false;
	const char *t = s;
	while (t < end && !is_space(*t))
		t++;
	*tok = s;
	*len = (size_t)(t - s);
	*p = t;
	return true;
}

static bool tok_is(const char *t, size_t n, const char *lit)
{
	size_t l = strlen(lit);
	return n == l && !memcmp(t, lit, l);
}

static void op_init(struct fwt *f, struct pt_op *op, const char *name, size_t len)
{
	memset(op, 0, sizeof(*op));
	op->device = f->d->dev;
	op->name = pt_strtab_intern(&f->m->strings, name, len);
	op->short_name = pt_ascend_short_name(f->m, name, len, f->d->ge_backend);
	op->task_type = -1;
}

/* Op index of a name, adding an op without graph data if absent. */
static uint32_t op_of(struct fwt *f, const char *name, size_t len, bool *added)
{
	uint32_t id = pt_strtab_intern(&f->m->strings, name, len);
	uint64_t *v = pt_hashmap_get(&f->name_op, id);
	*added = !v;
	if (v)
		return (uint32_t)*v;
	struct pt_op op;
	op_init(f, &op, name, len);
	uint32_t idx = pt_model_add_op(f->m, &op);
	bool a;
	pt_hashmap_put(&f->name_op, id, idx, &a);
	return idx;
}

static void group_flush(struct fwt *f, struct pt_op *op, struct group *g)
{
	if (!g->active)
		return;
	pt_op_add_tensor(op, g->output, g->index, g->format, g->code, g->dtype, f->shape.v,
			 g->shape_ok ? (uint32_t)f->shape.n : 0);
	g->active = false;
}

static uint32_t count_dir(const struct pt_op *op, bool output)
{
	uint32_t n = 0;
	for (size_t i = 0; i < op->tensors.n; i++)
		n += op->tensors.v[i].output == output;
	return n;
}

static void group_start(struct fwt *f, struct pt_op *op, struct group *g, bool output, uint32_t index)
{
	group_flush(f, op, g);
	memset(g, 0, sizeof(*g));
	g->active = true;
	g->output = output;
	g->index = index;
	g->code = -1;
	g->shape_ok = true;
	f->shape.n = 0;
}

static void parse_graph_line(struct fwt *f, const char *s, size_t n, const char *path, uint64_t line)
{
	struct pt_model *m = f->m;
	const char *p = s, *end = s + n, *tok;
	size_t tl;
	struct pt_op op;
	struct group g = { 0 };
	bool have_op = false, ge = f->d->ge_backend;
	uint32_t type = 0;

	while (next_token(&p, end, &tok, &tl)) {
		const char *colon = memchr(tok, ':', tl);
		if (!colon) {
			pt_diag_warn(f->c->diag, path, "skipped graph_desc tokens without ':'", PT_POS_LINE, line);
			continue;
		}
		const char *key = tok, *val = colon + 1;
		size_t kl = (size_t)(colon - tok), vl = tl - kl - 1;
		if (!have_op) {
			/* the line starts with op_name: (checked by the caller) */
			op_init(f, &op, val, vl);
			have_op = true;
			continue;
		}
		if (tok_is(key, kl, "op_type")) {
			type = pt_strtab_intern(&m->strings, val, vl);
			continue;
		}
		bool output;
		if (kl > 6 && !memcmp(key, "input_", 6)) {
			output = false;
			key += 6;
			kl -= 6;
		} else if (kl > 7 && !memcmp(key, "output_", 7)) {
			output = true;
			key += 7;
			kl -= 7;
		} else {
			continue; /* op_name repeated by a joined line, or an unknown key */
		}
		if (tok_is(key, kl, "id")) {
			uint64_t idx;
			if (!pt_ascend_parse_u64(val, vl, &idx) || idx > UINT32_MAX) {
				pt_diag_warn(f->c->diag, path, "numbered unparsable tensor ids by position", PT_POS_LINE,
					     line);
				group_flush(f, &op, &g);
				idx = count_dir(&op, output);
			}
			group_start(f, &op, &g, output, (uint32_t)idx);
			continue;
		}
		if (!g.active || g.output != output) {
			group_flush(f, &op, &g);
			group_start(f, &op, &g, output, count_dir(&op, output));
		}
		if (tok_is(key, kl, "format")) {
			uint64_t code;
			if (ge && pt_ascend_parse_u64(val, vl, &code) && code <= INT32_MAX)
				g.format = pt_model_str(m, pt_ascend_ge_format((int)code));
			else
				g.format = pt_strtab_intern(&m->strings, val, vl);
		} else if (tok_is(key, kl, "data_type")) {
			uint64_t code;
			if (pt_ascend_parse_u64(val, vl, &code) && code <= INT32_MAX) {
				g.code = (int32_t)code;
				/* vm names are given once the table is chosen */
				g.dtype = ge ? pt_model_str(m, pt_ascend_ge_dtype((int)code)) : 0;
			} else {
				pt_diag_warn(f->c->diag, path, "kept unparsable data types as text", PT_POS_LINE, line);
				g.code = -1;
				g.dtype = pt_strtab_intern(&m->strings, val, vl);
			}
		} else if (tok_is(key, kl, "shape")) {
			if (vl && val[0] == '"') {
				val++;
				vl--;
			}
			if (vl && val[vl - 1] == '"')
				vl--;
			f->shape.n = 0;
			g.shape_ok = true;
			for (size_t i = 0; vl && i <= vl;) {
				const char *comma = memchr(val + i, ',', vl - i);
				size_t j = comma ? (size_t)(comma - val) : vl;
				int64_t dim;
				if (!pt_ascend_parse_i64(val + i, j - i, &dim)) {
					g.shape_ok = false;
					pt_diag_warn(f->c->diag, path, "dropped unparsable shapes", PT_POS_LINE, line);
					break;
				}
				pt_vec_push(&f->shape, dim);
				i = j + 1;
			}
		}
	}
	if (!have_op)
		return;
	group_flush(f, &op, &g);
	op.type = type;
	op.has_graph = true;
	uint32_t id = op.name;
	uint32_t idx = pt_model_add_op(m, &op);
	bool added;
	pt_hashmap_put(&f->name_op, id, idx, &added);
	if (!added)
		pt_diag_warn(f->c->diag, path, "found duplicate graph_desc op names", PT_POS_LINE, line);
	f->graph_ops++;
}

static int read_graph(struct fwt *f, struct pt_err **e)
{
	struct pt_slices *s = &f->d->files[PT_AK_FW_GRAPH_DESC];
	if (!s->n)
		return 0;
	char *buf;
	size_t len;
	if (pt_slices_read_all(s, &buf, &len, e))
		return pt_err(e, "graph_desc");
	struct pt_textiter it;
	pt_textiter_init(&it, s, buf, len, '\n');
	char *pend = NULL;
	size_t plen = 0, pcap = 0, pfile = 0, file;
	uint64_t pline = 0, line;
	bool have = false;
	const char *rec;
	size_t rl;
	while (pt_textiter_next(&it, &rec, &rl, &file, &line)) {
		while (rl && is_space(*rec)) {
			rec++;
			rl--;
		}
		while (rl && is_space(rec[rl - 1]))
			rl--;
		if (!rl)
			continue;
		if (rl >= 8 && !memcmp(rec, "op_name:", 8)) {
			if (have)
				parse_graph_line(f, pend, plen, s->paths[pfile], pline);
			plen = 0;
			have = true;
			pfile = file;
			pline = line;
		} else if (have) {
			pt_diag_warn(f->c->diag, s->paths[file],
				     "joined graph_desc lines not starting with op_name: to the previous line", PT_POS_LINE,
				     line);
		} else {
			pt_diag_warn(f->c->diag, s->paths[file], "skipped graph_desc lines without op_name", PT_POS_LINE,
				     line);
			continue;
		}
		/* a continuation is separated by the line break it replaced */
		pt_xgrow((void **)&pend, &pcap, plen + rl + 1, 1);
		if (plen)
			pend[plen++] = ' ';
		memcpy(pend + plen, rec, rl);
		plen += rl;
	}
	if (have)
		parse_graph_line(f, pend, plen, s->paths[pfile], pline);
	free(pend);
	free(buf);
	return 0;
}

/* Choose the VM data-type table (§2.3) and name the graph tensors with it. */
static void name_vm_dtypes(struct fwt *f)
{
	struct pt_model *m = f->m;
	struct pt_device *dev = &m->devices.v[f->d->dev];
	bool any = false, high = false, low = false;
	for (size_t i = f->first_op; i < m->ops.n; i++)
		for (size_t j = 0; j < m->ops.v[i].tensors.n; j++) {
			int32_t code = m->ops.v[i].tensors.v[j].dtype_code;
			if (code < 0)
				continue;
			any = true;
			high |= code >= 42;
			low |= code <= 28;
		}
	int opt = f->c->opts ? f->c->opts->dtype_table : 0;
	int table;
	const char *origin;
	if (opt == PT_DTYPE_TABLE_OLD || opt == PT_DTYPE_TABLE_NEW) {
		table = opt;
		origin = "option";
	} else if (high) {
		table = PT_DTYPE_TABLE_NEW;
		origin = "chosen";
	} else if (low) {
		table = PT_DTYPE_TABLE_OLD;
		origin = "chosen";
	} else {
		table = PT_DTYPE_TABLE_OLD;
		origin = "ambiguous";
		if (any)
			pt_diag_warn(f->c->diag, f->d->files[PT_AK_FW_GRAPH_DESC].paths[0],
				     "assumed the old VM data-type table: the codes fit both (see --dtype-table)",
				     PT_POS_NONE, 0);
	}
	pt_ascend_set_str(&dev->dtype_table, table == PT_DTYPE_TABLE_NEW ? "new" : "old");
	pt_ascend_set_str(&dev->dtype_table_origin, origin);
	for (size_t i = f->first_op; i < m->ops.n; i++)
		for (size_t j = 0; j < m->ops.v[i].tensors.n; j++) {
			struct pt_tensor *t = &m->ops.v[i].tensors.v[j];
			if (t->dtype_code >= 0)
				t->dtype = pt_model_str(m, pt_ascend_vm_dtype(t->dtype_code, table));
		}
}

static int read_tasks(struct fwt *f, struct pt_err **e)
{
	struct pt_slices *s = &f->d->files[PT_AK_FW_TASK_DESC];
	if (!s->n)
		return 0;
	char *buf;
	size_t len;
	if (pt_slices_read_all(s, &buf, &len, e))
		return pt_err(e, "task_desc");
	struct pt_textiter it;
	pt_textiter_init(&it, s, buf, len, '\n');
	const char *rec;
	size_t rl, file;
	uint64_t line;
	while (pt_textiter_next(&it, &rec, &rl, &file, &line)) {
		const char *tok[6], *p = rec, *end = rec + rl;
		size_t tl[6];
		int nt = 0;
		while (nt < 6 && next_token(&p, end, &tok[nt], &tl[nt]))
			nt++;
		if (!nt)
			continue;
		int o = nt == 5 ? 1 : 0;
		uint64_t block, task, stream;
		if ((nt != 4 && nt != 5) || !pt_ascend_parse_u64(tok[o + 1], tl[o + 1], &block) ||
		    block > UINT32_MAX || !pt_ascend_parse_u64(tok[o + 2], tl[o + 2], &task) ||
		    !pt_ascend_parse_u64(tok[o + 3], tl[o + 3], &stream) || stream > UINT32_MAX) {
			pt_diag_warn(f->c->diag, s->paths[file], "skipped unparsable task_desc lines", PT_POS_LINE, line);
			continue;
		}
		bool added;
		uint32_t op = op_of(f, tok[o], tl[o], &added);
		if (!f->m->ops.v[op].task_keys.n)
			f->m->ops.v[op].block_dim = (uint32_t)block;
		if (pt_ascend_bind_task(f->m, f->d, PT_ERA_TEXT, (uint32_t)stream, task, op)) {
			pt_diag_warn(f->c->diag, s->paths[file],
				     "found task ids naming another op before (ambiguous join; the last line wins)",
				     PT_POS_LINE, line);
			f->ambiguous++;
		}
		f->tasks++;
	}
	free(buf);
	return 0;
}

static int read_points(struct fwt *f, struct pt_err **e)
{
	struct pt_slices *s = &f->d->files[PT_AK_FW_POINT];
	if (!s->n)
		return 0;
	char *buf;
	size_t len;
	if (pt_slices_read_all(s, &buf, &len, e))
		return pt_err(e, "point");
	struct pt_textiter it;
	pt_textiter_init(&it, s, buf, len, '\n');
	const char *rec;
	size_t rl, file;
	uint64_t line;
	while (pt_textiter_next(&it, &rec, &rl, &file, &line)) {
		const char *tok[3], *p = rec, *end = rec + rl;
		size_t tl[3];
		int nt = 0;
		while (nt < 3 && next_token(&p, end, &tok[nt], &tl[nt]))
			nt++;
		if (!nt)
			continue;
		uint64_t tag;
		if (nt != 2 || !pt_ascend_parse_u64(tok[0], tl[0], &tag)) {
			pt_diag_warn(f->c->diag, s->paths[file], "skipped unparsable point lines", PT_POS_LINE, line);
			continue;
		}
		bool added, a;
		uint32_t op = op_of(f, tok[1], tl[1], &added);
		if (added)
			f->point_only_ops++;
		uint64_t *v = pt_hashmap_put(&f->d->point_op, tag, op, &a);
		if (!a && *v != op)
			pt_diag_warn(f->c->diag, s->paths[file], "found repeated point tags (the last line wins)",
				     PT_POS_LINE, line);
		*v = op;
	}
	free(buf);
	return 0;
}

int pt_ascend_read_framework_text(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	if (!d->files[PT_AK_FW_TASK_DESC].n && !d->files[PT_AK_FW_GRAPH_DESC].n && !d->files[PT_AK_FW_POINT].n)
		return 0;
	struct pt_model *m = c->m;
	struct fwt f = { .c = c, .d = d, .m = m, .first_op = (uint32_t)m->ops.n };
	pt_hashmap_init(&f.name_op);
	d->era = PT_ERA_TEXT;
	struct pt_device *dev = &m->devices.v[d->dev];
	pt_ascend_set_str(&dev->framework_era, "text");
	pt_ascend_set_str(&dev->framework_backend, d->ge_backend ? "ge" : "vm");

	int rc = read_graph(&f, e);
	if (!rc && !d->ge_backend)
		name_vm_dtypes(&f);
	if (!rc)
		rc = read_tasks(&f, e);
	if (!rc)
		rc = read_points(&f, e);

	int32_t dv = (int32_t)d->dev;
	uint64_t ops = m->ops.n - f.first_op;
	pt_model_stat_set(m, dv, "framework.ops", (int64_t)(ops - f.point_only_ops));
	pt_model_stat_set(m, dv, "framework.point_only_ops", (int64_t)f.point_only_ops);
	pt_model_stat_set(m, dv, "framework.graph_ops", (int64_t)f.graph_ops);
	pt_model_stat_set(m, dv, "framework.tasks", (int64_t)f.tasks);
	pt_model_stat_set(m, dv, "framework.task_keys", (int64_t)d->task_op.n);
	pt_model_stat_set(m, dv, "framework.points", (int64_t)d->point_op.n);
	pt_model_stat_set(m, dv, "framework.ambiguous_keys", (int64_t)f.ambiguous);
	pt_hashmap_free(&f.name_op);
	pt_vec_free(&f.shape);
	return rc;
}
