/* MEMORY2 rows packed as varints (see gpu-mem-pack.h). */
#include "model/gpu-mem-pack.h"

#include <stdlib.h>
#include <string.h>

#include "support/varint.h"
#include "support/xalloc.h"

#define PACK_FIELDS 15

void pt_gpu_mem_pack_add(struct pt_gpu_mem_pack *p, const struct pt_gpu_mem *g)
{
	if (p->n % PT_GMP_EVERY == 0) {
		struct pt_gmp_mark k = { p->len, p->time, p->corr };
		pt_vec_push(&p->marks, k);
	}
	pt_xgrow((void **)&p->b, &p->cap, p->len + 1 + PACK_FIELDS * 10, 1);
	uint8_t *q = p->b + p->len + 1; /* after the byte of the row's length */
	q = pt_varint_put(q, g->device);
	q = pt_varint_put(q, (uint64_t)g->op | (uint64_t)g->mem_kind << 8 | (uint64_t)g->pool_type << 16);
	q = pt_varint_put(q, pt_zigzag((int64_t)g->corr - (int64_t)p->corr));
	q = pt_varint_put(q, g->pid);
	q = pt_varint_put(q, g->stream);
	q = pt_varint_put(q, pt_zigzag((int64_t)((uint64_t)g->time - (uint64_t)p->time))); /* modulo 2^64: any times */
	q = pt_varint_put(q, g->address);
	q = pt_varint_put(q, g->bytes);
	q = pt_varint_put(q, g->pc);
	q = pt_varint_put(q, g->pool_address);
	q = pt_varint_put(q, g->pool_threshold);
	q = pt_varint_put(q, g->pool_size);
	q = pt_varint_put(q, g->pool_utilized);
	q = pt_varint_put(q, g->name);
	q = pt_varint_put(q, g->source);
	p->b[p->len] = (uint8_t)(q - (p->b + p->len + 1)); /* at most 15 * 10 */
	p->len = (size_t)(q - p->b);
	p->corr = g->corr;
	p->time = g->time;
	p->n++;
}

void pt_gpu_mem_pack_free(struct pt_gpu_mem_pack *p)
{
	free(p->b);
	pt_vec_free(&p->marks);
	memset(p, 0, sizeof(*p));
}

void pt_gpu_mem_cursor_init(struct pt_gpu_mem_cursor *c, const struct pt_gpu_mem_pack *p)
{
	memset(c, 0, sizeof(*c));
	c->p = p;
}

/* The row at c->off into c->row; c moves past it. */
static void next(struct pt_gpu_mem_cursor *c)
{
	const uint8_t *q = c->p->b + c->off + 1;
	struct pt_gpu_mem *g = &c->row;
	memset(g, 0, sizeof(*g));
	g->device = (uint32_t)pt_varint_take(&q);
	uint64_t k = pt_varint_take(&q);
	g->op = (uint8_t)k;
	g->mem_kind = (uint8_t)(k >> 8);
	g->pool_type = (uint8_t)(k >> 16);
	g->corr = c->corr = (uint32_t)((int64_t)c->corr + pt_unzigzag(pt_varint_take(&q)));
	g->pid = (uint32_t)pt_varint_take(&q);
	g->stream = (uint32_t)pt_varint_take(&q);
	g->time = c->time = (int64_t)((uint64_t)c->time + (uint64_t)pt_unzigzag(pt_varint_take(&q)));
	g->address = pt_varint_take(&q);
	g->bytes = pt_varint_take(&q);
	g->pc = pt_varint_take(&q);
	g->pool_address = pt_varint_take(&q);
	g->pool_threshold = pt_varint_take(&q);
	g->pool_size = pt_varint_take(&q);
	g->pool_utilized = pt_varint_take(&q);
	g->name = (uint32_t)pt_varint_take(&q);
	g->source = (uint32_t)pt_varint_take(&q);
	c->off = (size_t)(q - c->p->b);
	c->i++;
}

const struct pt_gpu_mem *pt_gpu_mem_cursor_at(struct pt_gpu_mem_cursor *c, size_t i)
{
	if (c->i && i == c->i - 1)
		return &c->row;
	if (i < c->i || i - c->i >= PT_GMP_EVERY) { /* from the mark before it */
		const struct pt_gmp_mark *k = &c->p->marks.v[i / PT_GMP_EVERY];
		c->i = i / PT_GMP_EVERY * PT_GMP_EVERY;
		c->off = (size_t)k->off;
		c->time = k->time;
		c->corr = k->corr;
	}
	while (c->i <= i)
		next(c);
	return &c->row;
}

void pt_gpu_mem_heads_init(struct pt_gpu_mem_heads *h, const struct pt_gpu_mem_pack *p)
{
	memset(h, 0, sizeof(*h));
	h->p = p;
}

bool pt_gpu_mem_heads_next(struct pt_gpu_mem_heads *h, struct pt_gpu_mem_head *out)
{
	if (!h->p || h->i >= h->p->n)
		return false;
	const uint8_t *q = h->p->b + h->off, *end = q + 1 + *q;
	q++;
	out->device = (uint32_t)pt_varint_take(&q);
	out->op = (uint8_t)pt_varint_take(&q);
	out->corr = h->corr = (uint32_t)((int64_t)h->corr + pt_unzigzag(pt_varint_take(&q)));
	pt_varint_take(&q); /* pid */
	pt_varint_take(&q); /* stream */
	out->time = h->time = (int64_t)((uint64_t)h->time + (uint64_t)pt_unzigzag(pt_varint_take(&q)));
	h->off = (size_t)(end - h->p->b);
	h->i++;
	return true;
}

void pt_model_gpu_mem_heads_init(struct pt_model_gpu_mem_heads *h, const struct pt_model *m)
{
	memset(h, 0, sizeof(*h));
	h->m = m;
	pt_gpu_mem_heads_init(&h->h, m->gpu_mem_pack);
}

bool pt_model_gpu_mem_heads_next(struct pt_model_gpu_mem_heads *h, struct pt_gpu_mem_head *out)
{
	if (h->i < h->m->gpu_mem.n) {
		const struct pt_gpu_mem *g = &h->m->gpu_mem.v[h->i++];
		*out = (struct pt_gpu_mem_head){ g->device, g->op, g->corr, g->time };
		return true;
	}
	return pt_gpu_mem_heads_next(&h->h, out);
}

void pt_gpu_mem_unpack(struct pt_model *m, struct pt_gpu_mem_pack *p)
{
	pt_vec_reserve(&m->gpu_mem, m->gpu_mem.n + p->n);
	struct pt_gpu_mem_cursor c;
	pt_gpu_mem_cursor_init(&c, p);
	for (size_t i = 0; i < p->n; i++)
		m->gpu_mem.v[m->gpu_mem.n++] = *pt_gpu_mem_cursor_at(&c, i);
	pt_gpu_mem_pack_free(p);
}

void pt_gpu_mem_keep_packed(struct pt_model *m, struct pt_gpu_mem_pack *p)
{
	if (!m->gpu_mem_pack) {
		m->gpu_mem_pack = pt_xmalloc(sizeof(*m->gpu_mem_pack));
		*m->gpu_mem_pack = *p;
		memset(p, 0, sizeof(*p));
		return;
	}
	struct pt_gpu_mem_cursor c;
	pt_gpu_mem_cursor_init(&c, p);
	for (size_t i = 0; i < p->n; i++)
		pt_gpu_mem_pack_add(m->gpu_mem_pack, pt_gpu_mem_cursor_at(&c, i));
	pt_gpu_mem_pack_free(p);
}
