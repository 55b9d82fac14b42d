/*
 * HWTS task log back end (ascend.md §2.1): 64-byte records, log types
 * 0 Start of task, 1 End of task, 2/3 Start/End of block, 4 Block PMU.
 *
 * With --print-expect the records actually written are replayed through an
 * independent model of §2.1/§3.3 (per-key pairing in file order, orphans,
 * negative durations, out-of-order timestamps, per-stream wraps) to give the
 * numbers an importer must find.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/hashmap.h"
#include "support/xalloc.h"

struct hrec {
	uint8_t type, flag, cnt, core;
	uint16_t block;
	uint16_t task;
	uint64_t syscnt;
	uint32_t stream;
	bool zero;
};

struct expect_op {
	uint64_t calls, total_ns;
};

struct hw {
	struct gen *g;
	struct gen_sink *s;
	uint64_t gi;          /* index of the next generated record */
	bool have_held;
	struct hrec held;     /* swap */
	unsigned char last[64];
	bool have_last;
	uint8_t cnt;
	bool injs;

	/* expectation model */
	bool model;
	struct pt_hashmap open;    /* (stream<<32 | ext id) -> start syscnt */
	struct pt_hashmap wraps;   /* stream -> wraps << 32 | last task id + 1 */
	struct pt_hashmap lastcyc; /* stream -> last type-0/1 syscnt + 1 */
	struct pt_hashmap keyop;   /* join key -> op index + 1 */
	struct pt_hashmap unk;     /* unnamed join keys */
	uint64_t recs, zero, types[8], starts, ends, pairs, orphan_s, orphan_e, negative, ooo;
	uint64_t unnamed_execs, unnamed_ns, wrapped_streams;
	struct pt_hashmap wrapped;
	uint64_t first_ooo_off;
	struct expect_op *ops;
};

static uint64_t join_key(const struct gen *g, uint32_t stream, uint64_t task)
{
	if (!g->binary && task >= 25000)
		return (1ULL << 63) | task;
	return ((uint64_t)stream << 32) | task;
}

static void model_rec(struct hw *h, const struct hrec *r, uint64_t off)
{
	struct gen *g = h->g;
	bool added;

	h->recs++;
	if (r->zero) {
		h->zero++;
		return;
	}
	h->types[r->type]++;
	if (r->type > 4)
		return;
	/* extended id: per-stream wrap counting, dynamic shape only */
	uint64_t ext = r->task;
	if (g->dynamic) {
		uint64_t *w = pt_hashmap_put(&h->wraps, r->stream, 0, &added);
		uint64_t wraps = *w >> 32, last = *w & 0xffffffffu;
		if (last && r->task < last - 1) {
			wraps++;
			pt_hashmap_put(&h->wrapped, r->stream, 1, &added);
			if (added)
				h->wrapped_streams++;
		}
		*w = (wraps << 32) | ((uint64_t)r->task + 1);
		ext = r->task + wraps * 65536;
	}
	if (r->type > 1)
		return;
	uint64_t *lc = pt_hashmap_put(&h->lastcyc, r->stream, 0, &added);
	if (*lc && r->syscnt + 1 < *lc) {
		if (!h->ooo)
			h->first_ooo_off = off;
		h->ooo++;
	}
	*lc = r->syscnt + 1;

	uint64_t pk = ((uint64_t)r->stream << 32) | ext;
	if (r->type == 0) {
		h->starts++;
		uint64_t *v = pt_hashmap_put(&h->open, pk, r->syscnt, &added);
		if (!added) {
			h->orphan_s++;
			*v = r->syscnt;
		}
		return;
	}
	h->ends++;
	uint64_t *v = pt_hashmap_get(&h->open, pk);
	if (!v) {
		h->orphan_e++;
		return;
	}
	uint64_t start = *v;
	pt_hashmap_del(&h->open, pk);
	int64_t dur = (int64_t)gen_cyc_to_ns(g, r->syscnt) - (int64_t)gen_cyc_to_ns(g, start);
	if (dur < 0) {
		h->negative++;
		return;
	}
	h->pairs++;
	uint64_t *op = pt_hashmap_get(&h->keyop, join_key(g, r->stream, ext));
	if (op) {
		h->ops[*op - 1].calls++;
		h->ops[*op - 1].total_ns += (uint64_t)dur;
	} else {
		h->unnamed_execs++;
		h->unnamed_ns += (uint64_t)dur;
		pt_hashmap_put(&h->unk, join_key(g, r->stream, ext), 0, &added);
	}
}

static void out_rec(struct hw *h, const struct hrec *r)
{
	unsigned char *p, tmp[64];

	if (h->s->g->files[GK_HWTS].empty)
		return;
	if (h->model)
		model_rec(h, r, h->s->total);
	/* write into the sink buffer directly: the hot path of scale mode */
	p = h->s->n + 64 > h->s->cap ? tmp : h->s->buf + h->s->n;
	memset(p, 0, 64);
	if (!r->zero) {
		p[0] = (uint8_t)(r->cnt << 4 | (r->flag ? 8 : 0) | (r->type & 7));
		p[1] = r->core;
		gen_le16(p + 2, h->g->hwts_const);
		gen_le16(p + 4, r->block);
		gen_le16(p + 6, r->task);
		if (r->type == 4)
			gen_le64(p + 24, r->syscnt);
		else
			gen_le64(p + 8, r->syscnt);
		gen_le32(p + 16, r->stream);
	}
	if (p == h->s->buf + h->s->n) {
		h->s->n += 64;
		h->s->total += 64;
	} else {
		gen_sink_write(h->s, p, 64);
	}
	if (!r->zero) {
		memcpy(h->last, h->s->buf + h->s->n - 64, 64);
		h->have_last = true;
	}
}

static void emit(struct hw *h, struct hrec r)
{
	struct gen *g = h->g;
	uint64_t i = h->gi++;
	bool dup = false, swap = false, drop = false;

	r.cnt = h->cnt;
	h->cnt = (h->cnt + 1) & 15;
	if (h->injs) {
		gen_for_inj(g, GK_HWTS, in) {
			switch (in->op) {
			case GI_ZERO_RECORD:
				if (in->at == i) {
					struct hrec z = { .zero = true };
					for (uint64_t c = 0; c < in->n; c++)
						out_rec(h, &z);
				}
				break;
			case GI_DROP:
				if (i >= in->at && i < in->at + in->n)
					drop = true;
				break;
			case GI_DUP:
				if (i == in->at)
					dup = true;
				break;
			case GI_SWAP:
				if (i == in->at)
					swap = true;
				break;
			case GI_INVALID_TYPE:
				if (i == in->at)
					r.type = (uint8_t)in->n;
				break;
			case GI_FLAG:
				if (i == in->at)
					r.flag = 1;
				break;
			case GI_SHIFT:
				if (i == in->at) {
					int64_t c = (int64_t)gen_ns_to_cyc(g, (uint64_t)(in->val < 0 ? -in->val : in->val));
					r.syscnt = in->val < 0 ? r.syscnt - (uint64_t)c : r.syscnt + (uint64_t)c;
				}
				break;
			default:
				break;
			}
		}
	}
	if (drop)
		return;
	if (swap) {
		h->held = r;
		h->have_held = true;
		return;
	}
	out_rec(h, &r);
	if (dup)
		out_rec(h, &r);
	if (h->have_held) {
		h->have_held = false;
		out_rec(h, &h->held);
	}
}

/* a record of one step, sorted by time (stable: seq) */
struct ev {
	uint64_t t;
	uint32_t seq;
	struct hrec r;
};

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* (time, seq) order: radix sort of packed keys, qsort when they do not fit */
static void sort_evs(struct ev **v, size_t n)
{
	static PT_VEC(uint64_t) key, tmp;
	static PT_VEC(struct ev) out;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if ((*v)[i].t < lo)
			lo = (*v)[i].t;
		if ((*v)[i].t > hi)
			hi = (*v)[i].t;
	}
	if (n >= (1u << 24) || hi - lo >= (1ULL << 40)) {
		qsort(*v, n, sizeof(**v), ev_cmp);
		return;
	}
	pt_vec_reserve(&key, n);
	pt_vec_reserve(&tmp, n);
	pt_vec_reserve(&out, n);
	for (size_t i = 0; i < n; i++)
		key.v[i] = ((*v)[i].t - lo) << 24 | (*v)[i].seq;
	gen_sort_u64(key.v, tmp.v, n);
	for (size_t i = 0; i < n; i++)
		out.v[i] = (*v)[key.v[i] & 0xffffff];
	memcpy(*v, out.v, n * sizeof(*out.v));
}

static void build_keyop(struct hw *h)
{
	struct gen *g = h->g;
	struct gen_step st = { 0 };
	bool added;

	/* static: the task_desc lines as written (last line wins on collisions) */
	if (!g->dynamic) {
		for (size_t i = 0; i < g->ops.n; i++) {
			struct gen_op *op = &g->ops.v[i];
			if (op->no_task)
				continue;
			for (size_t t = 0; t < op->tasks.n; t++) {
				uint64_t *v = pt_hashmap_put(&h->keyop, join_key(g, op->stream, op->tasks.v[t]),
							     i + 1, &added);
				*v = i + 1;
			}
		}
		return;
	}
	/* dynamic shape: one TASK_DESC per execution, ids as laid out */
	uint64_t n = gen_nsteps(g);
	gen_dyn_reset(g);
	for (uint64_t k = 0; k < n; k++) {
		gen_step_layout(g, k, &st);
		for (size_t i = 0; i < st.execs.n; i++) {
			struct gen_exec *e = &st.execs.v[i];
			if (e->op < 0 || g->ops.v[e->op].no_task)
				continue;
			uint64_t *v = pt_hashmap_put(&h->keyop, join_key(g, e->stream, e->task),
						     (uint64_t)e->op + 1, &added);
			*v = (uint64_t)e->op + 1;
		}
	}
	gen_step_free(&st);
}

void gen_hwts(struct gen *g)
{
	struct hw h = { .g = g };
	struct gen_step st = { 0 };
	uint64_t n;

	h.s = gen_sink_open(g, GK_HWTS);
	if (!h.s)
		return;
	gen_for_inj(g, GK_HWTS, in)
		h.injs = true;
	h.model = g->expect != NULL;
	if (h.model) {
		pt_hashmap_init(&h.open);
		pt_hashmap_init(&h.wraps);
		pt_hashmap_init(&h.lastcyc);
		pt_hashmap_init(&h.keyop);
		pt_hashmap_init(&h.unk);
		pt_hashmap_init(&h.wrapped);
		h.ops = pt_xcalloc(g->ops.n + 1, sizeof(*h.ops));
		build_keyop(&h);
	}
	n = gen_nsteps(g);
	gen_dyn_reset(g);
	PT_VEC(struct ev) evs = { 0 };
	for (uint64_t k = 0; k < n; k++) {
		gen_step_layout(g, k, &st);
		/* records of the step in time order: Start at start, End at end;
		 * block and PMU records in between */
		uint32_t seq = 0;
		evs.n = 0;
		for (size_t i = 0; i < st.execs.n; i++) {
			struct gen_exec *e = &st.execs.v[i];
			struct hrec r = { .task = (uint16_t)e->task, .stream = e->stream,
					  .core = 0 };
			struct ev v;
			r.type = 0;
			r.syscnt = e->start;
			v = (struct ev){ e->start, seq++, r };
			pt_vec_push(&evs, v);
			for (int b = 0; b < g->blocks; b++) {
				uint64_t span = e->end - e->start;
				r.block = (uint16_t)b;
				r.core = (uint8_t)(b % 32);
				r.type = 2;
				r.syscnt = e->start + span * (uint64_t)b / (uint64_t)(2 * g->blocks);
				v = (struct ev){ r.syscnt, seq++, r };
				pt_vec_push(&evs, v);
				r.type = 3;
				r.syscnt = e->end - span * (uint64_t)b / (uint64_t)(2 * g->blocks);
				if (r.syscnt > e->start)
					r.syscnt--;
				v = (struct ev){ r.syscnt, seq++, r };
				pt_vec_push(&evs, v);
			}
			r.block = 0;
			r.core = 0;
			if (g->pmu) {
				r.type = 4;
				r.syscnt = e->end;
				v = (struct ev){ e->end, seq++, r };
				pt_vec_push(&evs, v);
			}
			r.type = 1;
			r.syscnt = e->end;
			v = (struct ev){ e->end, seq++, r };
			pt_vec_push(&evs, v);
		}
		sort_evs(&evs.v, evs.n);
		for (size_t i = 0; i < evs.n; i++)
			emit(&h, evs.v[i].r);
	}
	pt_vec_free(&evs);
	if (h.have_held) {
		h.have_held = false;
		out_rec(&h, &h.held);
	}
	gen_step_free(&st);
	gen_for_inj(g, GK_HWTS, in) {
		if (in->op == GI_TAIL) {
			if (in->n >= 64)
				fprintf(stderr, "proftool-gen: warning: hwts tail of %" PRIu64
					" bytes is a whole record\n", in->n);
			gen_sink_write(h.s, h.last, (size_t)(in->n % 64));
			gen_expect(g, "hwts.tail_bytes %" PRIu64, in->n % 64);
		}
	}
	gen_expect(g, "hwts.records %" PRIu64, h.recs);
	if (h.model) {
		gen_expect(g, "hwts.zero_records %" PRIu64, h.zero);
		for (int t = 0; t < 8; t++)
			gen_expect(g, "hwts.type%d %" PRIu64, t, h.types[t]);
		gen_expect(g, "hwts.invalid_type %" PRIu64, h.types[5] + h.types[6] + h.types[7]);
		gen_expect(g, "hwts.starts %" PRIu64, h.starts);
		gen_expect(g, "hwts.ends %" PRIu64, h.ends);
		gen_expect(g, "hwts.pairs %" PRIu64, h.pairs);
		gen_expect(g, "hwts.orphan_starts %" PRIu64, h.orphan_s + h.open.n);
		gen_expect(g, "hwts.orphan_ends %" PRIu64, h.orphan_e);
		gen_expect(g, "hwts.negative %" PRIu64, h.negative);
		gen_expect(g, "hwts.out_of_order %" PRIu64, h.ooo);
		if (h.ooo)
			gen_expect(g, "hwts.out_of_order_first_offset %" PRIu64, h.first_ooo_off);
		gen_expect(g, "hwts.unnamed_execs %" PRIu64, h.unnamed_execs);
		gen_expect(g, "hwts.unnamed_keys %zu", h.unk.n);
		gen_expect(g, "hwts.unnamed_total_ns %" PRIu64, h.unnamed_ns);
		gen_expect(g, "hwts.wrapped_streams %" PRIu64, h.wrapped_streams);
		for (size_t i = 0; i < g->ops.n; i++)
			gen_expect(g, "op %s calls %" PRIu64 " total_ns %" PRIu64, g->ops.v[i].name,
				   h.ops[i].calls, h.ops[i].total_ns);
		pt_hashmap_free(&h.open);
		pt_hashmap_free(&h.wraps);
		pt_hashmap_free(&h.lastcyc);
		pt_hashmap_free(&h.keyop);
		pt_hashmap_free(&h.unk);
		pt_hashmap_free(&h.wrapped);
		free(h.ops);
	}
	gen_sink_close(h.s);
}
