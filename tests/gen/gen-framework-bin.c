/*
 * Binary-era framework files (ascend.md §2.4): data/Framework.task_desc_info
 * (TASK_DESC, 256 B), tensor_data_info (TENSOR_DATA, 256 B), step_info
 * (STEP_INFO, 64 B), all starting with magic 0x5A5A and a dataTag, and the
 * text hash_dic (`<hash>:<name>`).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

#define MAGIC 0x5A5A

struct recs {
	unsigned char *v;
	size_t n, cap;   /* bytes */
	size_t size;     /* record size */
};

static unsigned char *rec_new(struct recs *r)
{
	pt_xgrow((void **)&r->v, &r->cap, r->n + r->size, 1);
	unsigned char *p = r->v + r->n;
	memset(p, 0, r->size);
	r->n += r->size;
	return p;
}

/* the mixed name field (128 or 64 bytes); returns whether it was hashed */
static bool put_name(unsigned char *f, size_t len, const char *name, bool hashed)
{
	size_t l = strlen(name);

	if (!hashed && l + 1 <= len - 8) {
		f[0] = 1;
		memcpy(f + 8, name, l);
		return false;
	}
	f[0] = 0;
	gen_le64(f + 8, gen_hash_name(name));
	return true;
}

static void emit_recs(struct gen *g, enum gen_kind kind, struct recs *r, const char *what)
{
	struct gen_sink *s;
	size_t count = r->n / r->size;

	gen_for_inj(g, kind, in) {
		unsigned char *p = in->at < count ? r->v + in->at * r->size : NULL;
		switch (in->op) {
		case GI_BAD_MAGIC:
			if (p)
				gen_le16(p, 0xA5A5);
			break;
		case GI_WRONG_TAG:
			if (p)
				gen_le16(p + 2, (uint16_t)in->n);
			break;
		case GI_TENSOR_NUM:
			if (p && kind == GK_TENSOR)
				p[24] = (uint8_t)in->n;
			break;
		case GI_JUNK_AFTER_NUL:
			if (p && kind == GK_TASK_DESC && p[8] == 1) {
				size_t l = strnlen((char *)p + 16, 119);
				if (l + 1 + 4 <= 120)
					memcpy(p + 16 + l + 1, "JUNK", 4);
			}
			break;
		default:
			break;
		}
	}
	s = gen_sink_open(g, kind);
	if (!s)
		return;
	for (size_t i = 0; i <= count; i++) {
		gen_for_inj(g, kind, in)
			if (in->op == GI_ZERO_RECORD && in->at == i)
				for (uint64_t c = 0; c < in->n; c++) {
					unsigned char z[256] = { 0 };
					gen_sink_write(s, z, r->size);
				}
		if (i < count)
			gen_sink_write(s, r->v + i * r->size, r->size);
	}
	gen_for_inj(g, kind, in)
		if (in->op == GI_TAIL && count) {
			gen_sink_write(s, r->v + (count - 1) * r->size, (size_t)(in->n % r->size));
			gen_expect(g, "%s.tail_bytes %" PRIu64, what, in->n % r->size);
		}
	gen_expect(g, "%s.records %zu", what, count);
	gen_sink_close(s);
}

static void task_desc(struct gen *g, struct recs *r, const struct gen_op *op, uint32_t task,
		      uint32_t stream, uint64_t iter, uint64_t ts, bool *hashed)
{
	unsigned char *p = rec_new(r);

	gen_le16(p, MAGIC);
	gen_le16(p + 2, 23);
	gen_le32(p + 4, op->task_type);
	if (put_name(p + 8, 128, op->name, op->hashed))
		*hashed = true;
	if (put_name(p + 136, 64, op->type ? op->type : "", op->hashed))
		*hashed = true;
	gen_le64(p + 200, iter);
	gen_le64(p + 208, ts);
	gen_le32(p + 216, g->dynamic ? 1 : 0);
	gen_le32(p + 220, op->block);
	gen_le32(p + 224, 1);
	gen_le32(p + 228, stream);
	gen_le32(p + 232, task);
	gen_le32(p + 236, 0);
}

static void tensors(struct gen *g, struct recs *r, const struct gen_op *op, uint32_t stream, uint32_t task)
{
	size_t i = 0;

	(void)g;
	while (i < op->tensors.n) {
		unsigned char *p = rec_new(r);
		size_t k;
		gen_le16(p, MAGIC);
		gen_le16(p + 2, 24);
		gen_le32(p + 4, 1);
		gen_le64(p + 8, 0);
		gen_le32(p + 16, stream);
		gen_le32(p + 20, task);
		for (k = 0; k < 5 && i < op->tensors.n; k++, i++) {
			const struct gen_tensor *t = &op->tensors.v[i];
			unsigned char *slot = p + 28 + k * 44;
			gen_le32(slot, t->output ? 1 : 0);
			gen_le32(slot + 4, (uint32_t)strtoul(t->format, NULL, 0));
			gen_le32(slot + 8, (uint32_t)strtoul(t->dtype, NULL, 0));
			const char *s = t->shape;
			for (int d = 0; d < 8 && *s; d++) {
				char *end;
				gen_le32(slot + 12 + d * 4, (uint32_t)strtoul(s, &end, 10));
				s = *end == ',' ? end + 1 : end;
			}
		}
		p[24] = (uint8_t)k;
	}
}

void gen_framework_bin(struct gen *g)
{
	struct recs td = { .size = 256 }, tn = { .size = 256 }, si = { .size = 64 };
	bool hashed = false;
	uint64_t nsteps = gen_nsteps(g);
	struct gen_step st = { 0 };
	bool *tens_done = pt_xcalloc(g->ops.n + 1, 1);

	gen_dyn_reset(g);
	if (!g->dynamic) {
		for (size_t i = 0; i < g->ops.n; i++) {
			struct gen_op *op = &g->ops.v[i];
			for (size_t t = 0; t < op->tasks.n; t++) {
				if (!op->no_task)
					task_desc(g, &td, op, op->tasks.v[t], op->stream, 0, g->start_cycles, &hashed);
				if (t == 0 && !op->no_graph)
					tensors(g, &tn, op, op->stream, op->tasks.v[t]);
			}
		}
	}
	/* dynamic shape: one TASK_DESC per execution; STEP_INFO per step and point */
	for (uint64_t k = 0; k < nsteps && (g->dynamic || g->npoints); k++) {
		gen_step_layout(g, k, &st);
		for (size_t i = 0; i < st.execs.n && g->dynamic; i++) {
			struct gen_exec *e = &st.execs.v[i];
			if (e->op < 0)
				continue;
			struct gen_op *op = &g->ops.v[e->op];
			if (!op->no_task)
				task_desc(g, &td, op, e->task, e->stream, k + 1, e->start, &hashed);
			if (!tens_done[e->op] && !op->no_graph) {
				tensors(g, &tn, op, e->stream, e->task);
				tens_done[e->op] = true;
			}
		}
		for (int p = 0; p < g->npoints; p++) {
			int opi = -1;
			uint32_t stream = 0, task = 0;
			for (size_t i = 0; i < g->ops.n; i++)
				if (!strcmp(g->ops.v[i].name, g->points[p].op))
					opi = (int)i;
			for (size_t i = 0; i < st.execs.n; i++)
				if (st.execs.v[i].op == opi) {
					stream = st.execs.v[i].stream;
					task = st.execs.v[i].task;
					break;
				}
			if (opi < 0)
				continue;
			if (!stream && !task) {
				stream = g->ops.v[opi].stream;
				task = g->ops.v[opi].tasks.v[0];
			}
			unsigned char *q = rec_new(&si);
			gen_le16(q, MAGIC);
			gen_le16(q + 2, 25);
			gen_le32(q + 4, 1);
			gen_le32(q + 8, stream);
			gen_le32(q + 12, task);
			gen_le64(q + 16, st.fp);
			gen_le64(q + 24, k + 1);
			gen_le32(q + 32, 0);
			q[36] = (uint8_t)g->points[p].tag;
		}
	}
	gen_step_free(&st);
	free(tens_done);
	emit_recs(g, GK_TASK_DESC, &td, "task_desc_bin");
	emit_recs(g, GK_TENSOR, &tn, "tensor_data");
	emit_recs(g, GK_STEP_INFO, &si, "step_info");
	free(td.v);
	free(tn.v);
	free(si.v);

	/* hash_dic: every hashed name once, in op order */
	if (hashed || g->files[GK_HASH_DIC].enabled) {
		PT_VEC(char *) l = { 0 };
		g->files[GK_HASH_DIC].enabled = true;
		for (size_t i = 0; i < g->ops.n; i++) {
			struct gen_op *op = &g->ops.v[i];
			const char *names[2] = { op->name, op->type ? op->type : "" };
			size_t lim[2] = { 119, 55 };
			for (int j = 0; j < 2; j++) {
				if (!op->hashed && strlen(names[j]) <= lim[j])
					continue;
				bool drop = false, dup = false;
				gen_for_inj(g, GK_HASH_DIC, in)
					if (in->op == GI_DROP_HASH && !strcmp(in->text, names[j]))
						drop = true;
				for (size_t x = 0; x < l.n && !dup; x++) {
					const char *c = strchr(l.v[x], ':');
					dup = c && !strcmp(c + 1, names[j]);
				}
				if (!drop && !dup)
					pt_vec_push(&l, pt_xasprintf("%" PRIu64 ":%s", gen_hash_name(names[j]), names[j]));
			}
		}
		gen_text_emit(g, GK_HASH_DIC, l.v, l.n, '\n');
		for (size_t i = 0; i < l.n; i++)
			free(l.v[i]);
		pt_vec_free(&l);
	}
}
