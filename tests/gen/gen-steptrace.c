/*
 * Step trace back end (ascend.md §2.2): 20-byte packed records
 * { u64 tag, u16 task_id, u16 stream_id, u64 sys_count }.
 *
 * Per step: the job-id tag, FP (tag 1), reduce points (odd/even tag pairs per
 * stream), BP (tag 2) and the end tag E (255 or 65535), written in time order
 * (default), tag order or shuffled. With --print-expect the records written
 * are replayed through an independent model of §2.2/§3.6.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "support/xalloc.h"

#define TAG_JOB (-1)
#define TAG_END (-2)
#define TAG_RECORD (-3)

struct srec {
	uint64_t tag;
	uint16_t task, stream;
	uint64_t cyc;
	bool zero;
	uint32_t seq;
};

static int by_time(const void *a, const void *b)
{
	const struct srec *x = a, *y = b;

	if (x->cyc != y->cyc)
		return x->cyc < y->cyc ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_tag(const void *a, const void *b)
{
	const struct srec *x = a, *y = b;

	/* job-id tag first, end tag last, the rest by tag value */
	uint64_t kx = x->seq >> 24, ky = y->seq >> 24;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return (x->seq & 0xffffff) < (y->seq & 0xffffff) ? -1 : (x->seq & 0xffffff) > (y->seq & 0xffffff);
}

static bool inj_hits(const struct gen_inj *in, uint64_t step, int tag)
{
	return in->at == step && in->tag == tag;
}

/* ---- the expectation model -------------------------------------------- */

struct pt {
	uint64_t tag;
	uint16_t stream;
	uint64_t cyc;
};

static void model(struct gen *g, const struct srec *r, size_t n, uint64_t slice0)
{
	uint64_t E = 255, seen1 = 0, job = 0, steps = 0, incomplete = 0, zero = 0;
	uint64_t fp = 0, bp = 0, fprep = 0, bprep = 0, jobmis = 0, pairs = 0, dropped = 0, dups = 0;
	uint64_t prev_end = 0, negative = 0;
	bool have_job = false, have_fp = false, have_bp = false;
	PT_VEC(struct pt) red = { 0 };
	char line[256];

	for (size_t i = 0; i < n; i++) {
		if ((i + 1) * 20 > slice0)
			break;
		if (r[i].zero)
			continue;
		if (r[i].tag == 1 && ++seen1 == 2)
			break;
		if (r[i].tag == 65535) {
			E = 65535;
			break;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct srec *x = &r[i];
		if (x->zero) {
			zero++;
			continue;
		}
		if (x->tag == E) {
			steps++;
			uint64_t end = x->cyc;
			bool ok = have_fp && have_bp && fp && bp && end;
			if (!ok)
				incomplete++;
			/* reduce pairs of this step: (stream, odd t) with (stream, t+1) */
			for (size_t a = 0; a < red.n; a++) {
				if (red.v[a].tag == (uint64_t)-1)
					continue;
				for (size_t b = a + 1; b < red.n; b++)
					if (red.v[b].tag == red.v[a].tag && red.v[b].stream == red.v[a].stream) {
						dups++;
						red.v[b].tag = (uint64_t)-1;
					}
			}
			for (size_t a = 0; a < red.n; a++) {
				bool matched = false;
				if (red.v[a].tag == (uint64_t)-1)
					continue;
				for (size_t b = 0; b < red.n; b++) {
					if (red.v[b].stream != red.v[a].stream || red.v[b].tag == (uint64_t)-1)
						continue;
					if (red.v[a].tag % 2 == 1 && red.v[b].tag == red.v[a].tag + 1) {
						matched = true;
						if (red.v[b].cyc < red.v[a].cyc)
							negative++;
						else
							pairs++;
					}
					if (red.v[a].tag % 2 == 0 && red.v[b].tag + 1 == red.v[a].tag)
						matched = true;
				}
				if (!matched)
					dropped++;
			}
			if (steps <= 200) {
				uint64_t start = steps == 1 ? fp : prev_end;
				int p = snprintf(line, sizeof(line), "step %" PRIu64, steps);
				if (steps == 1 ? have_fp && fp : 1)
					p += snprintf(line + p, sizeof(line) - (size_t)p, " start_ns %" PRIu64,
						      gen_cyc_to_ns(g, start));
				else
					p += snprintf(line + p, sizeof(line) - (size_t)p, " start_ns -");
				p += snprintf(line + p, sizeof(line) - (size_t)p, " end_ns %" PRIu64,
					      gen_cyc_to_ns(g, end));
				if (have_fp && fp)
					p += snprintf(line + p, sizeof(line) - (size_t)p, " fp_ns %" PRIu64,
						      gen_cyc_to_ns(g, fp));
				else
					p += snprintf(line + p, sizeof(line) - (size_t)p, " fp_ns -");
				if (have_bp && bp)
					p += snprintf(line + p, sizeof(line) - (size_t)p, " bp_ns %" PRIu64,
						      gen_cyc_to_ns(g, bp));
				else
					p += snprintf(line + p, sizeof(line) - (size_t)p, " bp_ns -");
				snprintf(line + p, sizeof(line) - (size_t)p, " complete %d", ok ? 1 : 0);
				gen_expect(g, "%s", line);
			}
			prev_end = end;
			have_fp = have_bp = false;
			fp = bp = 0;
			red.n = 0;
		} else if (x->tag == 0 || x->tag > E) {
			if (!have_job) {
				have_job = true;
				job = x->tag;
			} else if (x->tag != job) {
				jobmis++;
			}
		} else if (x->tag == 1) {
			if (have_fp)
				fprep++;
			have_fp = true;
			fp = x->cyc;
		} else if (x->tag == 2) {
			if (have_bp)
				bprep++;
			have_bp = true;
			bp = x->cyc;
		} else {
			struct pt p = { x->tag, x->stream, x->cyc };
			pt_vec_push(&red, p);
		}
	}
	gen_expect(g, "step_trace.end_tag %" PRIu64, E);
	gen_expect(g, "step_trace.job_id %" PRIu64, job);
	gen_expect(g, "step_trace.zero_records %" PRIu64, zero);
	gen_expect(g, "step_trace.steps %" PRIu64, steps);
	gen_expect(g, "step_trace.incomplete_steps %" PRIu64, incomplete);
	gen_expect(g, "step_trace.fp_repeats %" PRIu64, fprep);
	gen_expect(g, "step_trace.bp_repeats %" PRIu64, bprep);
	gen_expect(g, "step_trace.jobid_mismatches %" PRIu64, jobmis);
	gen_expect(g, "step_trace.reduce_pairs %" PRIu64, pairs);
	gen_expect(g, "step_trace.reduce_negative %" PRIu64, negative);
	gen_expect(g, "step_trace.reduce_unmatched_points %" PRIu64, dropped);
	gen_expect(g, "step_trace.reduce_duplicate_points %" PRIu64, dups);
	pt_vec_free(&red);
}

/* ---- writer ------------------------------------------------------------ */

void gen_steptrace(struct gen *g)
{
	struct gen_sink *s = gen_sink_open(g, GK_STEP_TRACE);
	struct gen_step st = { 0 };
	PT_VEC(struct srec) all = { 0 };
	PT_VEC(struct srec) one = { 0 };
	uint64_t n, rng;
	unsigned char last[20];
	bool have_last = false;

	if (!s)
		return;
	n = gen_nsteps(g);
	gen_dyn_reset(g);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t step = k + 1;
		uint32_t seq = 0;
		gen_step_layout(g, k, &st);
		one.n = 0;
#define ADD(tagv, strm, tsk, c, klass) do { \
	struct srec r_ = { (tagv), (uint16_t)(tsk), (uint16_t)(strm), (c), false, (klass) << 24 | seq++ }; \
	pt_vec_push(&one, r_); \
} while (0)
		uint64_t job = g->jobtag;
		gen_for_inj(g, GK_STEP_TRACE, in)
			if (in->op == GI_JOBID && in->at == step)
				job = (uint64_t)in->val;
		if (!g->no_jobtag)
			ADD(job, g->st_stream, 0, st.jobtag, 0u);
		ADD(1, g->st_stream, g->st_task, st.fp, 1u);
		for (size_t i = 0; i < st.reduce.n; i++)
			ADD(st.reduce.v[i].tag, st.reduce.v[i].stream, st.reduce.v[i].task, st.reduce.v[i].cyc, 1u);
		ADD(2, g->st_stream, g->st_task, st.bp, 1u);
		ADD(g->end_tag, g->st_stream, g->st_task, st.end, 2u);
		/* step-level injections */
		size_t orig = one.n;
		for (size_t i = 0; i < orig; i++) {
			struct srec *r = &one.v[i];
			int tag = (r->seq >> 24) == 0 ? TAG_JOB : (r->seq >> 24) == 2 ? TAG_END : (int)r->tag;
			gen_for_inj(g, GK_STEP_TRACE, in) {
				if (!inj_hits(in, step, tag))
					continue;
				if (in->op == GI_ZERO_TAG)
					r->cyc = 0;
				else if (in->op == GI_DUP) {
					struct srec d = *r;
					d.cyc += gen_ns_to_cyc(g, 100);
					d.seq = (r->seq & 0xff000000u) | seq++;
					pt_vec_push(&one, d);
					r = &one.v[i];
				} else if (in->op == GI_DROP)
					r->tag = UINT64_MAX - 1; /* marker: removed below */
			}
		}
		size_t w = 0;
		for (size_t i = 0; i < one.n; i++)
			if (one.v[i].tag != UINT64_MAX - 1)
				one.v[w++] = one.v[i];
		one.n = w;
		if (g->st_order == 0)
			qsort(one.v, one.n, sizeof(*one.v), by_time);
		else if (g->st_order == 1)
			qsort(one.v, one.n, sizeof(*one.v), by_tag);
		else {
			/* shuffle what lies between the job-id tag and the end tag */
			size_t lo = 0, hi = one.n;
			qsort(one.v, one.n, sizeof(*one.v), by_tag);
			while (lo < hi && (one.v[lo].seq >> 24) == 0)
				lo++;
			while (hi > lo && (one.v[hi - 1].seq >> 24) == 2)
				hi--;
			rng = g->seed ^ (k * 0x2545f4914f6cdd1dULL);
			for (size_t i = hi - lo; i > 1; i--) {
				size_t j = (size_t)(gen_splitmix(&rng) % i);
				struct srec t = one.v[lo + i - 1];
				one.v[lo + i - 1] = one.v[lo + j];
				one.v[lo + j] = t;
			}
		}
		for (size_t i = 0; i < one.n; i++)
			pt_vec_push(&all, one.v[i]);
#undef ADD
	}
	gen_step_free(&st);
	pt_vec_free(&one);

	/* record-level injections on the whole stream, then write */
	PT_VEC(struct srec) fin = { 0 };
	for (size_t i = 0; i <= all.n; i++) {
		gen_for_inj(g, GK_STEP_TRACE, in)
			if (in->op == GI_ZERO_RECORD && in->at == i)
				for (uint64_t c = 0; c < in->n; c++) {
					struct srec z = { .zero = true };
					pt_vec_push(&fin, z);
				}
		if (i == all.n)
			break;
		bool drop = false;
		gen_for_inj(g, GK_STEP_TRACE, in)
			if (in->op == GI_DROP && in->tag == TAG_RECORD && in->at == i)
				drop = true;
		if (!drop)
			pt_vec_push(&fin, all.v[i]);
	}
	pt_vec_free(&all);
	for (size_t i = 0; i < fin.n; i++) {
		unsigned char b[20];
		memset(b, 0, sizeof(b));
		if (!fin.v[i].zero) {
			gen_le64(b, fin.v[i].tag);
			gen_le16(b + 8, fin.v[i].task);
			gen_le16(b + 10, fin.v[i].stream);
			gen_le64(b + 12, fin.v[i].cyc);
			memcpy(last, b, 20);
			have_last = true;
		}
		gen_sink_write(s, b, 20);
	}
	gen_for_inj(g, GK_STEP_TRACE, in)
		if (in->op == GI_TAIL && have_last) {
			gen_sink_write(s, last, (size_t)(in->n % 20));
			gen_expect(g, "step_trace.tail_bytes %" PRIu64, in->n % 20);
		}
	gen_expect(g, "step_trace.records %zu", fin.n);
	uint64_t slice0 = gen_sink_close(s);
	if (g->expect && !g->files[GK_STEP_TRACE].empty)
		model(g, fin.v, fin.n, slice0);
	pt_vec_free(&fin);
}
