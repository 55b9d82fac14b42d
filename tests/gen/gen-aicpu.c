/*
 * Device-side data-preprocess files: AI CPU op records (ascend.md §2.6, text
 * Node/Thread pairs in the 3- and 6-field layouts, or the binary 128-byte
 * variant), get_next records (AICPUMI, §2.7) and the TDT enqueue log (§2.8).
 * All text records are NUL-terminated.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

/* µs value of a device time, optionally followed by the raw counter */
static char *val(const struct gen *g, uint64_t cyc, bool cycles)
{
	uint64_t us = gen_cyc_to_ns(g, cyc) / 1000;

	return cycles ? pt_xasprintf("%" PRIu64 " %" PRIu64, us, cyc) : pt_xasprintf("%" PRIu64, us);
}

static bool inj_at(struct gen *g, enum gen_inj_op op, uint64_t at, uint64_t *n)
{
	gen_for_inj(g, GK_AICPU, in)
		if (in->op == op && in->at == at) {
			if (n)
				*n = in->n;
			return true;
		}
	return false;
}

static char *thread_rec(const struct gen *g, const struct gen_aicpu *a, uint64_t start, uint64_t end,
			uint64_t fields, uint64_t serial)
{
	char *s = pt_xasprintf("Thread[%2" PRIu64 "] process device[%u]:aicpu[ 0] task end, "
			       "tickDrvTopHalf=%" PRIu64 ",tickDrvBottomHalf=%" PRIu64 ", "
			       "tickBeforeRun=%" PRIu64 ",tickAfterRun=%" PRIu64 ", "
			       "dispatchTime=%u us, totalTime=%u us.",
			       serial % 16, g->device, start - 1000, start - 900, start, end,
			       a->dispatch_us, a->total_us);
	if (fields && fields != 7) {
		/* fewer fields: cut after field N; more: add some */
		if (fields < 7) {
			char *p = s;
			for (uint64_t f = 0; f < fields && p; f++)
				p = strchr(p + (f ? 1 : 0), ',');
			if (p)
				*p = 0;
		} else {
			char *t = s;
			for (uint64_t f = 7; f < fields; f++) {
				s = pt_xasprintf("%s, extra=%" PRIu64, t, f);
				free(t);
				t = s;
			}
		}
	}
	return s;
}

struct meta {
	int kind;             /* 1 Node, 2 Thread */
	int fields;
	uint64_t total_us, dispatch_us, exec_ns;
};

static int nfields(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

static void aicpu_text(struct gen *g, const struct gen_step *steps_unused)
{
	PT_VEC(char *) r = { 0 };
	PT_VEC(struct meta) m = { 0 };
	struct gen_step st = { 0 };
	uint64_t nsteps = gen_nsteps(g), serial = 0;
	uint64_t pairs = 0, node_only = 0, thread_only = 0, bad_node = 0, bad_thread = 0;
	uint64_t total_us = 0, dispatch_us = 0, exec_ns = 0;

	(void)steps_unused;
	gen_dyn_reset(g);
	for (uint64_t k = 0; k < nsteps; k++) {
		gen_step_layout(g, k, &st);
		for (size_t i = 0; i < st.cpu.n; i++) {
			const struct gen_aicpu *a = &g->aicpu.v[st.cpu.v[i].idx];
			uint64_t s = st.cpu.v[i].start, e = st.cpu.v[i].end, nf = 0, tf = 0;
			uint64_t at = ++serial;
			char *rs = val(g, s, a->cycles), *re = val(g, e, a->cycles), *node;
			const char *run = a->tart ? "Run tart" : "Run start";

			struct meta tm = { 2, 7, a->total_us, a->dispatch_us, 0 };
			if (inj_at(g, GI_THREAD_ONLY, at, NULL)) {
				pt_vec_push(&r, thread_rec(g, a, s, e, 0, at));
				pt_vec_push(&m, tm);
			}
			if (a->layout == 3) {
				node = pt_xasprintf("[%" PRIu64 "] Node:%s, %s:%s, Run end:%s", s, a->name, run, rs, re);
			} else {
				uint64_t c = s + (e - s) / 4, m0 = s + (e - s) / 2, m1 = m0 + (e - s) / 8;
				char *cs = val(g, c, a->cycles), *ms = val(g, m0, a->cycles), *me = val(g, m1, a->cycles);
				node = pt_xasprintf("[%" PRIu64 "] Node:%s, %s:%s, compute start:%s, memcpy start:%s, "
						    "memcpy end:%s,Run end:%s", s, a->name, run, rs, cs, ms, me, re);
				free(cs);
				free(ms);
				free(me);
			}
			free(rs);
			free(re);
			bool badn = false;
			if (inj_at(g, GI_FIELDS, at, &nf)) {
				char *t = node;
				if (nf < (uint64_t)a->layout) {
					char *p = t;
					for (uint64_t f = 0; f < nf && p; f++)
						p = strchr(p + (f ? 1 : 0), ',');
					if (p)
						*p = 0;
					node = pt_xstrdup(t);
				} else {
					node = pt_xstrdup(t);
					for (uint64_t f = (uint64_t)a->layout; f < nf; f++) {
						char *u = pt_xasprintf("%s, extra:%" PRIu64, node, f);
						free(node);
						node = u;
					}
				}
				free(t);
				badn = nf != 3 && nf != 6;
			}
			(void)badn;
			struct meta nm = { 1, nfields(node), 0, 0, gen_cyc_to_ns(g, e) - gen_cyc_to_ns(g, s) };
			pt_vec_push(&r, node);
			pt_vec_push(&m, nm);
			if (inj_at(g, GI_NODE_ONLY, at, NULL))
				continue;
			inj_at(g, GI_THREAD_FIELDS, at, &tf);
			pt_vec_push(&r, thread_rec(g, a, s, e, tf, at));
			tm.fields = nfields(r.v[r.n - 1]);
			pt_vec_push(&m, tm);
		}
	}
	/* the spec's reading (§2.6): a Node record immediately followed by a
	 * Thread record is an op */
	for (size_t i = 0; i < m.n; i++) {
		if (m.v[i].kind == 1) {
			if (i + 1 < m.n && m.v[i + 1].kind == 2) {
				if (m.v[i].fields != 3 && m.v[i].fields != 6)
					bad_node++;
				else if (m.v[i + 1].fields != 7)
					bad_thread++;
				else {
					pairs++;
					total_us += m.v[i + 1].total_us;
					dispatch_us += m.v[i + 1].dispatch_us;
					exec_ns += m.v[i].exec_ns;
				}
				i++;
			} else {
				node_only++;
			}
		} else {
			thread_only++;
		}
	}
	pt_vec_free(&m);
	gen_step_free(&st);
	gen_text_emit(g, GK_AICPU, r.v, r.n, '\0');
	gen_expect(g, "aicpu.pairs %" PRIu64, pairs);
	gen_expect(g, "aicpu.node_without_thread %" PRIu64, node_only);
	gen_expect(g, "aicpu.thread_without_node %" PRIu64, thread_only);
	gen_expect(g, "aicpu.bad_node_layout %" PRIu64, bad_node);
	gen_expect(g, "aicpu.bad_thread %" PRIu64, bad_thread);
	gen_expect(g, "aicpu.total_us %" PRIu64, total_us);
	gen_expect(g, "aicpu.dispatch_us %" PRIu64, dispatch_us);
	gen_expect(g, "aicpu.exec_ns_from_cycles %" PRIu64, exec_ns);
	for (size_t i = 0; i < r.n; i++)
		free(r.v[i]);
	pt_vec_free(&r);
}

static void aicpu_bin(struct gen *g)
{
	struct gen_sink *s = gen_sink_open(g, GK_AICPU);
	struct gen_step st = { 0 };
	uint64_t nsteps = gen_nsteps(g), idx = 0, bad = 0, total_us = 0;
	unsigned char last[128];
	bool have_last = false;

	if (!s)
		return;
	gen_dyn_reset(g);
	for (uint64_t k = 0; k < nsteps; k++) {
		gen_step_layout(g, k, &st);
		for (size_t i = 0; i < st.cpu.n; i++, idx++) {
			const struct gen_aicpu *a = &g->aicpu.v[st.cpu.v[i].idx];
			uint64_t b = st.cpu.v[i].start, e = st.cpu.v[i].end;
			uint32_t stream = a->stream, task = a->task;
			unsigned char p[128];
			/* an AI CPU op that is also a framework op: its task in this step */
			for (size_t x = 0; x < st.execs.n; x++) {
				int o = st.execs.v[x].op;
				if (o >= 0 && !strcmp(g->ops.v[o].name, a->name)) {
					stream = st.execs.v[x].stream;
					task = st.execs.v[x].task;
					break;
				}
			}
			memset(p, 0, sizeof(p));
			gen_le16(p, 0x5A5A);
			gen_le16(p + 2, 60);
			gen_le16(p + 4, (uint16_t)stream);
			gen_le16(p + 6, (uint16_t)task);
			gen_le64(p + 8, gen_cyc_to_ns(g, b) / 1000);
			gen_le64(p + 16, b);
			gen_le64(p + 24, gen_cyc_to_ns(g, b + (e - b) / 4) / 1000);
			gen_le64(p + 32, gen_cyc_to_ns(g, b + (e - b) / 2) / 1000);
			gen_le64(p + 40, gen_cyc_to_ns(g, b + (e - b) * 5 / 8) / 1000);
			gen_le64(p + 48, gen_cyc_to_ns(g, e) / 1000);
			gen_le64(p + 56, e);
			gen_le32(p + 64, 1);
			gen_le32(p + 68, g->device);
			gen_le64(p + 72, b - 2000);
			gen_le64(p + 80, b - 1000);
			gen_le64(p + 88, b);
			gen_le64(p + 96, e);
			gen_le32(p + 104, 1);
			gen_le32(p + 108, a->dispatch_us);
			gen_le32(p + 112, a->total_us);
			gen_le16(p + 116, 0);
			p[118] = 1;
			gen_for_inj(g, GK_AICPU, in) {
				if (in->op == GI_ZERO_RECORD && in->at == idx)
					for (uint64_t c = 0; c < in->n; c++) {
						unsigned char z[128] = { 0 };
						gen_sink_write(s, z, 128);
						bad++;
					}
				if (in->op == GI_BAD_MAGIC && in->at == idx) {
					gen_le16(p, 0xA5A5);
					bad++;
					total_us -= a->total_us;
				}
			}
			total_us += a->total_us;
			gen_sink_write(s, p, 128);
			memcpy(last, p, 128);
			have_last = true;
		}
	}
	gen_step_free(&st);
	gen_for_inj(g, GK_AICPU, in)
		if (in->op == GI_TAIL && have_last) {
			gen_sink_write(s, last, (size_t)(in->n % 128));
			gen_expect(g, "aicpu.tail_bytes %" PRIu64, in->n % 128);
		}
	gen_expect(g, "aicpu.records %" PRIu64, idx);
	gen_expect(g, "aicpu.bad_records %" PRIu64, bad);
	gen_expect(g, "aicpu.total_us %" PRIu64, total_us);
	gen_sink_close(s);
}

void gen_aicpu(struct gen *g)
{
	if (!g->files[GK_AICPU].enabled)
		return;
	if (g->aicpu_binary)
		aicpu_bin(g);
	else
		aicpu_text(g, NULL);
}

void gen_aicpumi(struct gen *g)
{
	PT_VEC(char *) r = { 0 };
	struct gen_step st = { 0 };
	uint64_t nsteps = gen_nsteps(g), getnext = 0, wait_ns = 0;

	if (!g->files[GK_AICPUMI].enabled)
		return;
	gen_dyn_reset(g);
	for (uint64_t k = 0; k < nsteps && g->aicpumi.n; k++) {
		gen_step_layout(g, k, &st);
		for (size_t i = 0; i < st.mi.n; i++) {
			const struct gen_aicpumi *a = &g->aicpumi.v[st.mi.v[i].idx];
			uint64_t s = gen_cyc_to_ns(g, st.mi.v[i].start) / 1000;
			uint64_t e = gen_cyc_to_ns(g, st.mi.v[i].end) / 1000;
			uint32_t q = (uint32_t)((a->queue + k) % (a->queue + 3));
			if (a->layout == 1)
				pt_vec_push(&r, pt_xasprintf("Node:%s, Run start:%" PRIu64 ", Run end:%" PRIu64
							     ", queue size:%u", a->name, s, e, q));
			else
				pt_vec_push(&r, pt_xasprintf("Node:%s, queue size:%u, Run start:%" PRIu64
							     ", Run end:%" PRIu64, a->name, q, s, e));
			if (!strcmp(a->name, "GetNext_dequeue_wait")) {
				getnext++;
				wait_ns += (e - s) * 1000;
			}
		}
	}
	gen_step_free(&st);
	gen_text_emit(g, GK_AICPUMI, r.v, r.n, '\0');
	gen_expect(g, "aicpumi.get_next_records %" PRIu64, getnext);
	gen_expect(g, "aicpumi.get_next_wait_ns %" PRIu64, wait_ns);
	for (size_t i = 0; i < r.n; i++)
		free(r.v[i]);
	pt_vec_free(&r);
}

void gen_tdt(struct gen *g)
{
	PT_VEC(char *) r = { 0 };
	uint64_t rng = g->seed ^ 0x7d7ULL, a = gen_splitmix(&rng), b = gen_splitmix(&rng);
	uint64_t tick = g->start_cycles / 100;

	if (!g->files[GK_TDT].enabled)
		return;
	for (uint64_t i = 1; i <= g->tdt_count; i++) {
		tick += 600 + gen_splitmix(&rng) % 1000;
		pt_vec_push(&r, pt_xasprintf("[%" PRIu64 "] Enqueue data to dp, source:%08" PRIx64 "-%04" PRIx64
					     "-11ea-%04" PRIx64 "-%012" PRIx64 ", index:%" PRIu64 ", size:%" PRIu64,
					     tick, a >> 32, (a >> 16) & 0xffff, b >> 48, (uint64_t)(b & 0xffffffffffffULL),
					     i, g->tdt_size));
	}
	gen_text_emit(g, GK_TDT, r.v, r.n, '\0');
	for (size_t i = 0; i < r.n; i++)
		free(r.v[i]);
	pt_vec_free(&r);
}
