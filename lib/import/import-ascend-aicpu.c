/*
 * AI CPU op records, DATA_PREPROCESS.dev.AICPU.<dev>.slice_<n> (ascend.md
 * §2.6, §3.5). Two variants: NUL-separated text records (Node/Thread pairs)
 * and, in one MindSpore >= 1.6 version, 128-byte binary records starting
 * with the magic 5A 5A. Every op becomes a pt_aicpu and an event on the
 * device's "AI CPU" track.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/input.h"
#include "import/ascend.h"
#include "support/le.h"
#include "support/span.h"
#include "support/xalloc.h"

#define AICPU_BIN_RECSIZE 128
#define AICPU_MAGIC 0x5A5Au
#define MAX_FIELDS 16

struct aicpu_state {
	struct pt_ascend_ctx *c;
	struct pt_ascend_dev *d;
	uint32_t track;
	uint32_t serial;
	int64_t total_ns;
	int64_t ops;
};

/* A Node value: "<µs>" or "<µs> <cycles>". */
struct nodeval {
	int64_t us_ns;
	bool has_cycles;
	uint64_t cycles;
};

static bool parse_nodeval(struct pt_span field, struct nodeval *v)
{
	struct pt_span rest = pt_span_after_last(field, ':');
	struct pt_span t0 = pt_span_token(&rest), t1 = pt_span_token(&rest), t2 = pt_span_token(&rest);
	if (t2.n || !pt_span_us_ns(t0, &v->us_ns))
		return false;
	v->has_cycles = t1.n != 0;
	if (v->has_cycles && !pt_span_u64(t1, &v->cycles))
		return false;
	return true;
}

/* A Thread value: the first token after the last '=', in µs. */
static bool parse_threadval(struct pt_span field, int64_t *ns)
{
	struct pt_span rest = pt_span_after_last(field, '=');
	return pt_span_us_ns(pt_span_token(&rest), ns);
}

static void add_op(struct aicpu_state *st, uint32_t name, int64_t start, int64_t end, bool times, int64_t total_ns,
		   int64_t dispatch_ns, uint32_t op, uint64_t task)
{
	struct pt_model *m = st->c->m;
	struct pt_aicpu a;
	memset(&a, 0, sizeof(a));
	a.device = st->d->dev;
	a.serial = ++st->serial;
	a.name = name;
	a.has = PT_AICPU_HAS_TOTAL | PT_AICPU_HAS_DISPATCH;
	a.total_ns = total_ns;
	a.dispatch_ns = dispatch_ns;
	if (times) {
		a.has |= PT_AICPU_HAS_TIMES;
		a.start = start;
		a.end = end;
		if (st->track == PT_NONE)
			st->track = pt_model_track(m, st->d->dev, PT_TRACK_AICPU, -1, "AI CPU");
		a.event = (uint32_t)pt_events_total(&m->events) + 1;
		pt_model_add_event(m, st->track, name, PT_EV_AICPU, start, end - start, 0, op, task);
	}
	pt_model_add_aicpu(m, &a);
	st->ops++;
	if (__builtin_add_overflow(st->total_ns, total_ns, &st->total_ns))
		st->total_ns = INT64_MAX;
}


/* Start and end of a run: from the cycle tokens when both have one within the
 * model's time range, else µs (the caller checks the range of the result). */
static void run_times(const struct aicpu_state *st, const struct nodeval *s, const struct nodeval *e,
		      int64_t *start, int64_t *end)
{
	uint64_t f = st->d->freq_khz;
	if (s->has_cycles && e->has_cycles && f && pt_ascend_cycles_fit(s->cycles, f) && pt_ascend_cycles_fit(e->cycles, f)) {
		*start = pt_ascend_cycles_to_ns(s->cycles, f);
		*end = pt_ascend_cycles_to_ns(e->cycles, f);
	} else {
		*start = s->us_ns;
		*end = e->us_ns;
	}
}

/* The op name of a Node record's field 0 (by layout), interned. */
static uint32_t node_name(struct pt_model *m, struct pt_span f0, size_t nf)
{
	struct pt_span name = pt_span_trim(pt_span_after_last(f0, ':'));
	if (nf == 6) {
		name = pt_span_after_last(name, '/');
		const char *dash = memchr(name.p, '-', name.n);
		if (dash)
			name.n = (size_t)(dash - name.p);
	}
	char *s = pt_xstrndup(name.p, name.n);
	uint32_t id = pt_model_str(m, s);
	free(s);
	return id;
}

/* One Node/Thread pair; false when it was skipped (warned). */
static bool text_pair(struct aicpu_state *st, struct pt_span node, const char *npath, uint64_t npos, struct pt_span thread,
		      const char *tpath, uint64_t tpos)
{
	struct pt_diag *diag = st->c->diag;
	struct pt_span nf[MAX_FIELDS], tf[MAX_FIELDS];
	size_t nn = pt_span_split(node, ',', nf, MAX_FIELDS), tn = pt_span_split(thread, ',', tf, MAX_FIELDS);
	if (nn != 3 && nn != 6) {
		pt_diag_warn(diag, npath, "skipped Node records with an unknown field count", PT_POS_OFFSET, npos);
		return false;
	}
	if (tn != 7) {
		pt_diag_warn(diag, tpath, "skipped Thread records with a field count other than 7", PT_POS_OFFSET,
			     tpos);
		return false;
	}
	struct nodeval vs, ve;
	if (!parse_nodeval(nf[1], &vs) || !parse_nodeval(nf[nn == 3 ? 2 : 5], &ve)) {
		pt_diag_warn(diag, npath, "skipped Node records with unparsable values", PT_POS_OFFSET, npos);
		return false;
	}
	int64_t dispatch, total;
	if (!parse_threadval(tf[5], &dispatch) || !parse_threadval(tf[6], &total)) {
		pt_diag_warn(diag, tpath, "skipped Thread records with unparsable values", PT_POS_OFFSET, tpos);
		return false;
	}
	int64_t start, end;
	run_times(st, &vs, &ve, &start, &end);
	bool times = true;
	if (!pt_ascend_ns_fit(start) || !pt_ascend_ns_fit(end)) {
		pt_diag_warn(diag, npath, "kept Node records beyond 2^62 ns without their times", PT_POS_OFFSET, npos);
		times = false;
	} else if (end < start) {
		pt_diag_warn(diag, npath, "kept Node records without their times, which end before they start",
			     PT_POS_OFFSET, npos);
		times = false;
	}
	add_op(st, node_name(st->c->m, nf[0], nn), start, end, times, total, dispatch, PT_NONE, 0);
	return true;
}

static int read_text(struct aicpu_state *st, struct pt_slices *s, struct pt_err **e)
{
	struct pt_ascend_ctx *c = st->c;
	struct pt_model *m = c->m;
	int32_t dv = (int32_t)st->d->dev;
	char *buf;
	size_t len;
	if (pt_slices_read_all(s, &buf, &len, e))
		return -1;

	int64_t records = 0, thread_wo_node = 0, node_wo_thread = 0, skipped = 0;
	bool pending = false;
	struct pt_span pnode = { NULL, 0 };
	const char *ppath = NULL;
	uint64_t ppos = 0;

	struct pt_textiter it;
	const char *rec;
	size_t n, file;
	uint64_t pos;
	pt_textiter_init(&it, s, buf, len, '\0');
	while (pt_textiter_next(&it, &rec, &n, &file, &pos)) {
		if (n && rec[n - 1] == '\n')
			n--;
		if (!n)
			continue;
		struct pt_span r = { rec, n };
		const char *path = s->paths[file];
		records++;
		if (pt_span_contains(r, "Node")) {
			if (pending) {
				pt_diag_warn(c->diag, ppath, "skipped Node records without a Thread record",
					     PT_POS_OFFSET, ppos);
				node_wo_thread++;
				skipped++;
			}
			pending = true;
			pnode = r;
			ppath = path;
			ppos = pos;
		} else if (pt_span_contains(r, "Thread")) {
			if (pending) {
				if (!text_pair(st, pnode, ppath, ppos, r, path, pos))
					skipped++;
				pending = false;
			} else {
				thread_wo_node++;
			}
		} else {
			if (pending) {
				pt_diag_warn(c->diag, ppath, "skipped Node records without a Thread record",
					     PT_POS_OFFSET, ppos);
				node_wo_thread++;
				skipped++;
				pending = false;
			}
			pt_diag_warn(c->diag, path, "skipped records that are neither Node nor Thread",
				     PT_POS_OFFSET, pos);
			skipped++;
		}
	}
	if (pending) {
		pt_diag_warn(c->diag, ppath, "skipped Node records without a Thread record", PT_POS_OFFSET, ppos);
		node_wo_thread++;
		skipped++;
	}
	free(buf);
	pt_model_stat_add(m, dv, "aicpu.records", records);
	pt_model_stat_add(m, dv, "aicpu.thread_without_node", thread_wo_node);
	pt_model_stat_add(m, dv, "aicpu.node_without_thread", node_wo_thread);
	pt_model_stat_add(m, dv, "aicpu.skipped", skipped);
	return 0;
}




/* µs as ns, saturating (binary fields are u64; beyond PT_TIME_LIMIT, the times are dropped). */
static int64_t us_to_ns(uint64_t us)
{
	return us > (uint64_t)INT64_MAX / 1000 ? INT64_MAX : (int64_t)(us * 1000);
}

static int read_binary(struct aicpu_state *st, struct pt_slices *s, struct pt_err **e)
{
	struct pt_ascend_ctx *c = st->c;
	struct pt_ascend_dev *d = st->d;
	struct pt_model *m = c->m;
	int32_t dv = (int32_t)d->dev;
	struct pt_recreader r;
	const uint8_t *rec;
	uint64_t logical, off;
	int64_t records = 0, skipped = 0, no_magic = 0, big_task = 0, unknown = 0;
	int rc;

	if (pt_recreader_open(&r, s, AICPU_BIN_RECSIZE, e)) {
		pt_recreader_close(&r);
		return -1;
	}
	while ((rc = pt_recreader_next(&r, &rec, &logical, e)) > 0) {
		records++;
		size_t fi = pt_slices_locate(s, logical, &off);
		if (pt_le16(rec) != AICPU_MAGIC) {
			pt_diag_warn(c->diag, s->paths[fi], "skipped records without magic 0x5A5A", PT_POS_OFFSET,
				     off);
			no_magic++;
			skipped++;
			continue;
		}
		uint32_t stream = pt_le16(rec + 4);
		uint32_t task = pt_le16(rec + 6);
		if (task >= 65536) { /* the reference's limit; a u16 field never reaches it */
			big_task++;
			skipped++;
			continue;
		}
		uint64_t key = pt_ascend_task_key(PT_ERA_BINARY, stream, task);
		uint64_t *opi = pt_hashmap_get(&d->task_op, key);
		uint32_t op = PT_NONE, name;
		if (opi && *opi < m->ops.n) {
			op = (uint32_t)*opi;
			/* copied: interning may move the string table */
			const char *full = pt_model_strget(m, m->ops.v[op].name);
			const char *slash = strrchr(full, '/');
			char *last = pt_xstrdup(slash ? slash + 1 : full);
			name = pt_model_str(m, last);
			free(last);
		} else {
			char buf[48];
			pt_ascend_task_key_str(PT_ERA_BINARY, stream, task, buf);
			name = pt_model_str(m, buf);
			pt_diag_warn(c->diag, s->paths[fi], "kept records of tasks unknown to the framework files",
				     PT_POS_OFFSET, off);
			unknown++;
		}
		struct nodeval vs = { us_to_ns(pt_le64(rec + 8)), pt_le64(rec + 16) != 0, pt_le64(rec + 16) };
		struct nodeval ve = { us_to_ns(pt_le64(rec + 48)), pt_le64(rec + 56) != 0, pt_le64(rec + 56) };
		int64_t start, end;
		run_times(st, &vs, &ve, &start, &end);
		bool times = true;
		if (!pt_ascend_ns_fit(start) || !pt_ascend_ns_fit(end)) {
			pt_diag_warn(c->diag, s->paths[fi], "kept records beyond 2^62 ns without their times", PT_POS_OFFSET,
				     off);
			times = false;
		} else if (end < start) {
			pt_diag_warn(c->diag, s->paths[fi], "kept records without their times, which end before they start",
				     PT_POS_OFFSET, off);
			times = false;
		}
		add_op(st, name, start, end, times, (int64_t)pt_le32(rec + 112) * 1000, (int64_t)pt_le32(rec + 108) * 1000,
		       op, task);
	}
	if (rc == 0) {
		size_t tail = pt_recreader_tail(&r, &logical);
		if (tail) {
			size_t fi = pt_slices_locate(s, logical, &off);
			char what[96];
			snprintf(what, sizeof(what), "skipped truncated records of %zu bytes", tail);
			pt_diag_warn(c->diag, s->paths[fi], what, PT_POS_OFFSET, off);
			pt_model_stat_add(m, dv, "aicpu.truncated_bytes", (int64_t)tail);
			skipped++;
		}
	}
	pt_recreader_close(&r);
	if (rc < 0)
		return -1;
	pt_model_stat_add(m, dv, "aicpu.records", records);
	pt_model_stat_add(m, dv, "aicpu.skipped", skipped);
	pt_model_stat_add(m, dv, "aicpu.no_magic", no_magic);
	pt_model_stat_add(m, dv, "aicpu.task_id_over_65535", big_task);
	pt_model_stat_add(m, dv, "aicpu.unknown_tasks", unknown);
	return 0;
}

/* The first two bytes of the logical stream; false with fewer than two. */
static int peek2(struct pt_slices *s, uint8_t out[2], bool *got, struct pt_err **e)
{
	size_t have = 0;
	*got = false;
	for (size_t i = 0; i < s->n && have < 2; i++) {
		int fd;
		uint64_t size;
		if (pt_input_open(s->paths[i], &fd, &size, e))
			return -1;
		while (have < 2) {
			ssize_t k = read(fd, out + have, 2 - have);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				int er = errno;
				close(fd);
				return pt_err_errno(e, er, "cannot read '%s'", s->paths[i]);
			}
			if (!k)
				break;
			have += (size_t)k;
		}
		close(fd);
	}
	*got = have == 2;
	return 0;
}

int pt_ascend_read_aicpu(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_AICPU];
	struct aicpu_state st = { c, d, PT_NONE, 0, 0, 0 };
	uint8_t head[2];
	bool got;

	if (!s->n)
		return 0;
	if (peek2(s, head, &got, e))
		return -1;
	bool binary = got && head[0] == 0x5A && head[1] == 0x5A;
	if (binary ? read_binary(&st, s, e) : read_text(&st, s, e))
		return -1;
	int32_t dv = (int32_t)d->dev;
	pt_model_stat_add(c->m, dv, "aicpu.ops", st.ops);
	pt_model_stat_add(c->m, dv, "aicpu.total_ns", st.total_ns);
	pt_model_stat_set(c->m, dv, "aicpu.binary", binary);
	return 0;
}
