/*
 * Text-era framework files (ascend.md §2.3): task_desc_info, graph_desc_info
 * and point, for the vm backend (Framework.host.vm.*) or the ge backend
 * (Framework.host.*). Formats and data types are written as given in the
 * description: strings for vm formats, integer codes otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static char *graph_line(const struct gen_op *op)
{
	size_t cap = 256, n = 0;
	char *s = pt_xmalloc(cap);
	int in = 0, out = 0;

#define CAT(...) do { \
	int l_ = snprintf(NULL, 0, __VA_ARGS__); \
	pt_xgrow((void **)&s, &cap, n + (size_t)l_ + 1, 1); \
	snprintf(s + n, cap - n, __VA_ARGS__); \
	n += (size_t)l_; \
} while (0)
	CAT("op_name:%s op_type:%s", op->name, op->type ? op->type : "");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < op->tensors.n; i++) {
			const struct gen_tensor *t = &op->tensors.v[i];
			if (t->output != (pass == 1))
				continue;
			const char *p = pass ? "output" : "input";
			int id = pass ? out++ : in++;
			CAT(" %s_id:%d %s_format:%s %s_data_type:%s %s_shape:\"%s\"", p, id,
			    p, t->format, p, t->dtype, p, t->shape);
		}
#undef CAT
	return s;
}

void gen_framework_text(struct gen *g)
{
	PT_VEC(char *) l = { 0 };

	/* task_desc_info: <full_op_name> <block_dim> <task_id> <stream_id> */
	for (size_t i = 0; i < g->ops.n; i++) {
		struct gen_op *op = &g->ops.v[i];
		if (op->no_task)
			continue;
		for (size_t t = 0; t < op->tasks.n; t++) {
			char *s = g->taskdesc_fields == 5
				? pt_xasprintf("%zu %s %u %u %u", i, op->name, op->block, op->tasks.v[t], op->stream)
				: pt_xasprintf("%s %u %u %u", op->name, op->block, op->tasks.v[t], op->stream);
			pt_vec_push(&l, s);
		}
	}
	gen_text_emit(g, GK_TASK_DESC, l.v, l.n, '\n');
	free_lines(l.v, l.n);
	memset(&l, 0, sizeof(l));

	/* graph_desc_info */
	for (size_t i = 0; i < g->ops.n; i++) {
		struct gen_op *op = &g->ops.v[i];
		if (op->no_graph)
			continue;
		char *s = graph_line(op);
		gen_for_inj(g, GK_GRAPH_DESC, in)
			if (in->op == GI_LINE && in->tag == -50 && in->n == l.n + 1) {
				char *t = pt_xasprintf("%s bogus_token_without_colon", s);
				free(s);
				s = t;
			}
		pt_vec_push(&l, s);
	}
	gen_text_emit(g, GK_GRAPH_DESC, l.v, l.n, '\n');
	free_lines(l.v, l.n);
	memset(&l, 0, sizeof(l));

	/* point: <tag> <full_op_name> */
	for (int i = 0; i < g->npoints; i++)
		pt_vec_push(&l, pt_xasprintf("%d %s", g->points[i].tag, g->points[i].op));
	gen_text_emit(g, GK_POINT, l.v, l.n, '\n');
	free_lines(l.v, l.n);
}
