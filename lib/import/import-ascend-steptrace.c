/*
 * The step trace (ascend.md §2.2, §3.6): 20-byte records of (tag, task,
 * stream, cycles) over the slices of one logical stream, processed in file
 * order. Every end tag closes one step (struct pt_step): its fp, bp and end
 * points, the step-start tag's time, and the communication ("reduce")
 * intervals per stream, paired by tag (odd t with t + 1) whatever their order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/ascend.h"
#include "support/le.h"
#include "support/xalloc.h"
#include "support/sort.h"

#define ST_REC 20
#define TAG_FP 1
#define TAG_BP 2
#define END_OLD 255
#define END_NEW 65535

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the step-trace decoder assumes a little-endian host"
#endif



/* A reduce point of the open step. */
struct point {
	uint32_t stream, tag;
	uint64_t cyc;
	uint64_t off; /* logical */
};

/* A closed step, before numbering. */
struct cstep {
	struct pt_step s;
	uint64_t end_off; /* logical offset of its end tag */
};

struct st {
	struct pt_ascend_ctx *c;
	struct pt_ascend_dev *d;
	struct pt_slices *s;
	const struct pt_recreader *r;
	uint64_t end_tag;

	/* the open step */
	uint64_t fp, bp, start_tag;
	bool seen_fp, seen_bp;
	PT_VEC(struct point) pts;
	uint64_t first_off; /* first fp/bp/reduce record of the open step, UINT64_MAX none */

	bool have_prev;
	uint64_t prev_end;

	bool have_job;
	uint64_t job;

	PT_VEC(struct cstep) steps;
	struct pt_hashmap names; /* tag -> (name << 32 | type) */
	uint64_t records, zero;
};


static void warn_at(struct st *t, const char *what, uint64_t logical)
{
	uint64_t off;
	size_t f = pt_slices_locate(t->s, logical, &off);
	pt_diag_warn(t->c->diag, t->s->paths[f], what, PT_POS_OFFSET, off);
}

/*
 * E (§2.2): 65535 if a record with tag 65535 occurs in the first slice
 * before the second tag-1 record, else 255. An empty first slice is passed
 * over: the first slice is the one holding the first record.
 */
static int detect_end_tag(struct st *t, uint64_t *end, struct pt_err **e)
{
	struct pt_recreader r;
	int rc = pt_recreader_open(&r, t->s, ST_REC, e);
	int fps = 0;
	size_t first_file = SIZE_MAX;
	*end = END_OLD;
	const uint8_t *p;
	uint64_t off;
	while (!rc) {
		int k = pt_recreader_next(&r, &p, &off, e);
		if (k <= 0) {
			rc = k;
			break;
		}
		uint64_t foff;
		size_t file = pt_slices_locate(t->s, off, &foff);
		if (first_file == SIZE_MAX)
			first_file = file;
		else if (file != first_file)
			break; /* past the first slice (empty slices do not count) */
		uint64_t tag = pt_le64(p);
		if (tag == END_NEW) {
			*end = END_NEW;
			break;
		}
		if (tag == TAG_FP && ++fps == 2)
			break;
	}
	pt_recreader_close(&r);
	return rc < 0 ? -1 : 0;
}

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct pt_comm *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The type of a point-file op without one: the last '/' segment of its name
 * without a trailing "-op<digits>". */
static uint32_t type_from_name(struct pt_model *m, uint32_t name_id)
{
	/* a copy: interning may move the table the name lives in */
	char *name = pt_xstrdup(pt_model_strget(m, name_id));
	const char *seg = strrchr(name, '/');
	seg = seg ? seg + 1 : name;
	size_t len = strlen(seg);
	size_t i = len;
	while (i > 0 && seg[i - 1] >= '0' && seg[i - 1] <= '9')
		i--;
	if (i < len && i >= 3 && !memcmp(seg + i - 3, "-op", 3))
		len = i - 3;
	uint32_t id = pt_strtab_intern(&m->strings, seg, len);
	free(name);
	return id;
}

/* Name and type string ids of a reduce pair opened by `tag`. */
static void pair_names(struct st *t, uint32_t tag, uint32_t *name, uint32_t *type)
{
	struct pt_model *m = t->c->m;
	uint64_t *v = pt_hashmap_get(&t->names, tag);
	if (!v) {
		uint64_t *q = pt_hashmap_get(&t->d->point_op, tag);
		uint32_t n, ty;
		if (q && *q < m->ops.n) {
			const struct pt_op *op = &m->ops.v[*q];
			n = op->name;
			ty = op->type && pt_strtab_len(&m->strings, op->type)
				     ? op->type
				     : type_from_name(m, op->name);
		} else {
			n = ty = pt_model_str(m, "parallel");
		}
		v = pt_hashmap_put(&t->names, tag, ((uint64_t)n << 32) | ty, NULL);
	}
	*name = (uint32_t)(*v >> 32);
	*type = (uint32_t)*v;
}

/* Pair the open step's reduce points into s->comm (§3.6). */
static void pair_points(struct st *t, struct pt_step *s)
{
	struct point *v = t->pts.v;
	size_t n = t->pts.n;
	if (!n)
		return;
	pt_sort(v, n, sizeof(*v), cmp_point);

	/* duplicated (stream, tag): the later point wins */
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && v[i + 1].stream == v[i].stream && v[i + 1].tag == v[i].tag) {
			warn_at(t, "dropped duplicated reduce points", v[i].off);
			continue;
		}
		v[w++] = v[i];
	}
	n = w;

	uint64_t f = t->d->freq_khz;
	for (size_t i = 0; i < n;) {
		struct point *a = &v[i];
		if ((a->tag & 1) && i + 1 < n && v[i + 1].stream == a->stream && v[i + 1].tag == a->tag + 1) {
			struct point *b = &v[i + 1];
			i += 2;
			if (b->cyc < a->cyc) {
				warn_at(t, "dropped negative-duration reduce pairs", b->off > a->off ? b->off : a->off);
				continue;
			}
			struct pt_comm cm = { a->stream, a->tag, pt_ascend_cycles_to_ns(a->cyc, f),
					      pt_ascend_cycles_to_ns(b->cyc, f), 0, 0 };
			pair_names(t, a->tag, &cm.name, &cm.type);
			pt_vec_push(&s->comm, cm);
			continue;
		}
		warn_at(t, "dropped unmatched reduce points", a->off);
		i++;
	}
	/* already in (stream, tag) order; keep it explicit */
	pt_sort(s->comm.v, s->comm.n, sizeof(*s->comm.v), cmp_comm);
}

static void reset_open(struct st *t)
{
	t->fp = t->bp = t->start_tag = 0;
	t->seen_fp = t->seen_bp = false;
	t->pts.n = 0;
	t->first_off = UINT64_MAX;
}

static void close_step(struct st *t, uint64_t cyc, uint64_t off)
{
	uint64_t f = t->d->freq_khz;
	struct cstep cs;
	memset(&cs, 0, sizeof(cs));
	struct pt_step *s = &cs.s;
	s->device = t->d->dev;
	cs.end_off = off;

	uint64_t start = t->have_prev ? t->prev_end : t->fp;
	if (start) {
		s->has |= PT_STEP_HAS_START;
		s->start = pt_ascend_cycles_to_ns(start, f);
	}
	if (t->start_tag) {
		s->has |= PT_STEP_HAS_START_TAG;
		s->start_tag = pt_ascend_cycles_to_ns(t->start_tag, f);
	}
	if (t->fp) {
		s->has |= PT_STEP_HAS_FP;
		s->fp = pt_ascend_cycles_to_ns(t->fp, f);
	}
	if (t->bp) {
		s->has |= PT_STEP_HAS_BP;
		s->bp = pt_ascend_cycles_to_ns(t->bp, f);
	}
	if (cyc) {
		s->has |= PT_STEP_HAS_END;
		s->end = pt_ascend_cycles_to_ns(cyc, f);
	}
	pair_points(t, s);
	pt_vec_push(&t->steps, cs);

	t->have_prev = true;
	t->prev_end = cyc;
	reset_open(t);
}

static void on_record(struct st *t, const uint8_t *p, uint64_t off)
{
	uint64_t tag = pt_le64(p);
	uint32_t stream = pt_le16(p + 10);
	uint64_t cyc = pt_le64(p + 12);

	if (tag == t->end_tag) {
		close_step(t, cyc, off);
		return;
	}
	if (tag == 0 || tag > t->end_tag) {
		if (!t->have_job) {
			t->have_job = true;
			t->job = tag;
		} else if (tag != t->job) {
			warn_at(t, "found differing job-id tags", off);
		}
		t->start_tag = cyc;
		return;
	}
	if (t->first_off == UINT64_MAX)
		t->first_off = off;
	if (tag == TAG_FP || tag == TAG_BP) {
		bool *seen = tag == TAG_FP ? &t->seen_fp : &t->seen_bp;
		if (*seen)
			warn_at(t, "replaced repeated fp/bp tags", off);
		*seen = true;
		if (tag == TAG_FP)
			t->fp = cyc;
		else
			t->bp = cyc;
		return;
	}
	if (!cyc) {
		warn_at(t, "dropped zero-valued reduce points", off);
		return;
	}
	struct point pt = { stream, (uint32_t)tag, cyc, off };
	pt_vec_push(&t->pts, pt);
}

static bool dataset_sink(const struct pt_model *m, uint32_t dev)
{
	static const char pfx[] = "Default/InitDataSetQueue";
	for (size_t i = 0; i < m->ops.n; i++)
		if (m->ops.v[i].device == dev &&
		    !strncmp(pt_model_strget(m, m->ops.v[i].name), pfx, sizeof(pfx) - 1))
			return true;
	return false;
}

/* Number and append the closed steps; returns how many are incomplete. */
static uint64_t finish(struct st *t)
{
	struct pt_model *m = t->c->m;
	size_t first = 0;
	if (t->steps.n && dataset_sink(m, t->d->dev)) {
		pt_vec_free(&t->steps.v[0].s.comm);
		first = 1;
	}
	bool inference = true;
	for (size_t i = first; i < t->steps.n; i++)
		if (t->steps.v[i].s.has & PT_STEP_HAS_BP)
			inference = false;
	uint32_t need = PT_STEP_HAS_START | PT_STEP_HAS_FP | PT_STEP_HAS_END | (inference ? 0 : PT_STEP_HAS_BP);

	uint64_t incomplete = 0;
	char list[256];
	size_t ll = 0;
	list[0] = 0;
	uint32_t num = 0;
	for (size_t i = first; i < t->steps.n; i++) {
		struct pt_step *s = &t->steps.v[i].s;
		s->step = ++num;
		if ((s->has & need) != need) {
			if (!incomplete++)
				ll += (size_t)snprintf(list, sizeof(list), "%" PRIu32, s->step);
			else if (ll < sizeof(list) - 32)
				ll += (size_t)snprintf(list + ll, sizeof(list) - ll, ", %" PRIu32, s->step);
			else if (ll < sizeof(list) - 4)
				ll += (size_t)snprintf(list + ll, sizeof(list) - ll, ", ...");
			warn_at(t, "found incomplete steps (missing or zero fp, bp or end)", t->steps.v[i].end_off);
		}
		pt_model_add_step(m, s);
	}
	if (incomplete)
		pt_diag_note(t->c->diag, "'%s': incomplete steps: %s", pt_slices_name(t->s, 0), list);
	return incomplete;
}

int pt_ascend_read_step_trace(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_STEP_TRACE];
	if (!s->n)
		return 0;

	struct st t;
	memset(&t, 0, sizeof(t));
	t.c = c;
	t.d = d;
	t.s = s;
	pt_hashmap_init(&t.names);
	reset_open(&t);
	if (!d->freq_khz)
		d->freq_khz = 100000;

	struct pt_recreader r;
	memset(&r, 0, sizeof(r));
	r.fd = -1;
	int rc = detect_end_tag(&t, &t.end_tag, e);
	if (!rc)
		rc = pt_recreader_open(&r, s, ST_REC, e);
	t.r = &r;

	static const uint8_t zero[ST_REC];
	uint64_t max_cyc = pt_ascend_max_cycles(d->freq_khz);
	const uint8_t *p;
	uint64_t off;
	while (!rc) {
		int k = pt_recreader_next(&r, &p, &off, e);
		if (k <= 0) {
			rc = k;
			break;
		}
		t.records++;
		if (!memcmp(p, zero, ST_REC)) {
			t.zero++;
			warn_at(&t, "skipped all-zero records", off);
			continue;
		}
		if (pt_le64(p + 12) > max_cyc) {
			/* hostile sys_count: its ns is beyond the model's time range (2^62) */
			warn_at(&t, "skipped records with a sys_count beyond 2^62 ns", off);
			continue;
		}
		on_record(&t, p, off);
	}

	if (!rc) {
		uint64_t tail_off;
		size_t tail = pt_recreader_tail(&r, &tail_off);
		if (tail) {
			char what[96];
			snprintf(what, sizeof(what), "ignored truncated record of %zu bytes", tail);
			warn_at(&t, what, tail_off);
		}
		if (t.first_off != UINT64_MAX)
			warn_at(&t, "ignored unfinished steps after the last end tag", t.first_off);
		t.r = NULL;

		struct pt_model *m = c->m;
		int32_t dv = (int32_t)d->dev;
		uint64_t incomplete = finish(&t);
		m->devices.v[d->dev].step_end_tag = (uint32_t)t.end_tag;
		pt_model_stat_set(m, dv, "step_trace.records", (int64_t)t.records);
		pt_model_stat_set(m, dv, "step_trace.steps",
				  (int64_t)(t.steps.n - (t.steps.n && dataset_sink(m, d->dev))));
		pt_model_stat_set(m, dv, "step_trace.incomplete_steps", (int64_t)incomplete);
		pt_model_stat_set(m, dv, "step_trace.zero_records", (int64_t)t.zero);
		pt_model_stat_set(m, dv, "step_trace.end_tag", (int64_t)t.end_tag);
		if (t.have_job)
			pt_model_stat_set(m, dv, "step_trace.job_id", (int64_t)t.job);
	} else {
		for (size_t i = 0; i < t.steps.n; i++)
			pt_vec_free(&t.steps.v[i].s.comm);
		pt_err(e, "step trace '%s'", pt_slices_name(s, 0));
	}

	pt_recreader_close(&r);
	pt_vec_free(&t.pts);
	pt_vec_free(&t.steps);
	pt_hashmap_free(&t.names);
	return rc ? -1 : 0;
}
