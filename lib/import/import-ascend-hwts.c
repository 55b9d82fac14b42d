/*
 * The HWTS task log (ascend.md §2.1): 64-byte records over the slices of one
 * logical stream. Start/End of task records are paired per (stream, task id)
 * in file order (§3.3); each completed pair becomes one PT_EV_TASK event on
 * its stream's track, named after the framework op its task key joins
 * (§3.2). Block records (types 2-4) are decoded and counted only.
 *
 * Hot loop: fixed little-endian loads, no allocation per record, per-stream
 * state in a direct table (hash map for huge stream ids), open Starts in an
 * open-addressing table with backward-shift deletion.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/ascend.h"
#include "support/le.h"
#include "support/xalloc.h"

#define HWTS_REC 64
#define DIRECT_STREAMS 65536u
#define TASK_RANGE 65536
#define NO_OFF UINT64_MAX




#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the HWTS decoder assumes a little-endian host"
#endif

/* Per-stream state. */
struct hw_stream {
	uint32_t id;
	uint32_t track;    /* PT_NONE until the first execution */
	uint64_t last_cyc; /* syscnt of the previous type-0/1 record */
	int64_t last_ext;  /* dynamic shape: extended id of the previous record, -1 none */
	uint64_t laps;     /* dynamic shape: highest lap (ext / 65536) seen */
	bool has_last;
	uint32_t **pages;  /* task id -> op cache, see task_op() */
};

/* An open Start. off == NO_OFF marks an empty slot. */
struct hw_open {
	uint64_t key;
	uint64_t cyc;
	uint64_t off;
};

struct open_map {
	struct hw_open *v;
	size_t cap, n; /* cap: power of two */
};

static void om_init(struct open_map *m, size_t cap)
{
	m->cap = cap;
	m->n = 0;
	m->v = pt_xmalloc(cap * sizeof(*m->v));
	for (size_t i = 0; i < cap; i++)
		m->v[i].off = NO_OFF;
}

static inline size_t om_slot(const struct open_map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = (size_t)pt_hash64(key) & mask;
	while (m->v[i].off != NO_OFF && m->v[i].key != key)
		i = (i + 1) & mask;
	return i;
}

static void om_grow(struct open_map *m)
{
	struct open_map o = *m;
	om_init(m, o.cap * 2);
	for (size_t i = 0; i < o.cap; i++) {
		if (o.v[i].off == NO_OFF)
			continue;
		m->v[om_slot(m, o.v[i].key)] = o.v[i];
		m->n++;
	}
	free(o.v);
}

/* Remove slot i, shifting back the entries of its probe run. */
static void om_del(struct open_map *m, size_t i)
{
	size_t mask = m->cap - 1, j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (m->v[j].off == NO_OFF)
			break;
		size_t home = (size_t)pt_hash64(m->v[j].key) & mask;
		/* can the entry at j move to i? only if home is not in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->v[i] = m->v[j];
			i = j;
		}
	}
	m->v[i].off = NO_OFF;
	m->n--;
}

/* Per-physical-file tally of dropped negative-duration pairs. */
struct neg_tally {
	uint64_t count;
	uint64_t first_end;   /* logical offset of the first End */
	uint64_t first_start; /* logical offset of its Start */
};

struct hw {
	struct pt_ascend_ctx *c;
	struct pt_ascend_dev *d;
	struct pt_slices *s;
	const struct pt_recreader *r;
	uint64_t max_cyc; /* the largest syscnt whose ns is within PT_TIME_LIMIT */

	struct hw_stream *st;
	size_t nst, capst;
	uint32_t *direct;       /* stream id -> index + 1, ids < DIRECT_STREAMS */
	struct pt_hashmap big;  /* other stream ids -> index */
	uint32_t last_sid, last_si; /* one-entry cache */
	bool have_last;

	struct open_map open;
	struct pt_hashmap unnamed_set; /* task keys of unnamed executions */
	struct neg_tally *neg;   /* per physical file */

	uint64_t records, types[8], zero, executions, named, unnamed, unnamed_keys;
	uint64_t orphan_starts, orphan_ends, negative, out_of_order, ooo_first;
};


static void warn_at(struct hw *h, const char *what, uint64_t logical)
{
	uint64_t off;
	size_t f = pt_slices_locate(h->s, logical, &off);
	pt_diag_warn(h->c->diag, h->s->paths[f], what, PT_POS_OFFSET, off);
}

static uint32_t stream_index_slow(struct hw *h, uint32_t sid)
{
	uint64_t *p = NULL;
	if (sid < DIRECT_STREAMS) {
		if (h->direct[sid])
			return h->direct[sid] - 1;
	} else {
		p = pt_hashmap_get(&h->big, sid);
		if (p)
			return (uint32_t)*p;
	}
	struct hw_stream ns = { sid, PT_NONE, 0, -1, 0, false, NULL };
	pt_xgrow((void **)&h->st, &h->capst, h->nst + 1, sizeof(*h->st));
	h->st[h->nst] = ns;
	uint32_t idx = (uint32_t)h->nst++;
	if (sid < DIRECT_STREAMS)
		h->direct[sid] = idx + 1;
	else
		pt_hashmap_put(&h->big, sid, idx, NULL);
	return idx;
}

static inline uint32_t stream_index(struct hw *h, uint32_t sid)
{
	if (h->have_last && sid == h->last_sid)
		return h->last_si;
	uint32_t i = stream_index_slow(h, sid);
	h->last_sid = sid;
	h->last_si = i;
	h->have_last = true;
	return i;
}

/* Dynamic shape (§2.1): the task id extended by the stream's wraps. */
static inline uint64_t extend_task(struct hw_stream *st, uint16_t task)
{
	int64_t ext;
	if (st->last_ext < 0) {
		ext = task;
	} else {
		/* serial-number step from the previous id, within half the range */
		int32_t delta = (int32_t)((uint32_t)(task - (uint16_t)st->last_ext) & 0xFFFFu);
		if (delta >= TASK_RANGE / 2)
			delta -= TASK_RANGE;
		ext = st->last_ext + delta;
		if (ext < 0)
			ext = task;
	}
	st->last_ext = ext;
	if ((uint64_t)ext / TASK_RANGE > st->laps)
		st->laps = (uint64_t)ext / TASK_RANGE;
	return (uint64_t)ext;
}

/*
 * Op index of a (stream, task), through a per-stream cache of the task_op
 * map in pages of 256 task ids: 0 = not looked up yet, 1 = no op, op + 2.
 * In dynamic-shape mode the extended id (which may exceed 16 bits) is the
 * join key of TASK_DESC (§2.1), so it is looked up without the cache.
 * A new unnamed task key is counted once (several (stream, task) pairs may
 * share a key in the text era).
 */
static uint32_t task_op_slow(struct hw *h, struct hw_stream *st, uint64_t task, uint32_t *slot)
{
	uint64_t key = pt_ascend_task_key(h->d->era, st->id, task);
	uint64_t *q = pt_hashmap_get(&h->d->task_op, key);
	uint32_t op = q && *q < h->c->m->ops.n ? (uint32_t)*q : PT_NONE;
	if (slot)
		*slot = op == PT_NONE ? 1 : op + 2;
	if (op == PT_NONE) {
		bool added;
		pt_hashmap_put(&h->unnamed_set, key, 0, &added);
		h->unnamed_keys += added;
	}
	return op;
}

static inline uint32_t task_op(struct hw *h, struct hw_stream *st, uint16_t task)
{
	if (!st->pages)
		st->pages = pt_xcalloc(TASK_RANGE / 256, sizeof(*st->pages));
	uint32_t **pg = &st->pages[task >> 8];
	if (!*pg)
		*pg = pt_xcalloc(256, sizeof(**pg));
	uint32_t *slot = &(*pg)[task & 255];
	if (*slot)
		return *slot == 1 ? PT_NONE : *slot - 2;
	return task_op_slow(h, st, task, slot);
}

static uint32_t stream_track(struct hw *h, struct hw_stream *st)
{
	if (st->track == PT_NONE) {
		char name[32];
		snprintf(name, sizeof(name), "stream %" PRIu32, st->id);
		st->track = pt_model_track(h->c->m, h->d->dev, PT_TRACK_STREAM, st->id, name);
	}
	return st->track;
}

static void negative_pair(struct hw *h, uint64_t start_off, uint64_t end_off)
{
	uint64_t off;
	size_t f = pt_slices_locate(h->s, end_off, &off);
	struct neg_tally *t = &h->neg[f];
	if (!t->count++) {
		t->first_end = end_off;
		t->first_start = start_off;
	}
	h->negative++;
}

static inline void on_task(struct hw *h, int type, uint32_t sid, uint16_t task, uint64_t cyc, uint64_t off)
{
	if (__builtin_expect(cyc > h->max_cyc, 0)) {
		/* hostile syscnt: its ns is beyond the model's time range (2^62) */
		warn_at(h, "skipped records with a syscnt beyond 2^62 ns", off);
		return;
	}
	uint32_t si = stream_index(h, sid); /* may grow h->st */
	struct hw_stream *st = &h->st[si];
	if (st->has_last && cyc < st->last_cyc) {
		if (!h->out_of_order++)
			h->ooo_first = off;
	}
	st->last_cyc = cyc;
	st->has_last = true;

	uint64_t ext = h->d->dynamic_shape ? extend_task(st, task) : task;
	uint64_t key = ((uint64_t)sid << 32) | (ext & 0xFFFFFFFFu);

	if (type == 0) {
		if ((h->open.n + 1) * 2 > h->open.cap)
			om_grow(&h->open);
		size_t i = om_slot(&h->open, key);
		if (h->open.v[i].off != NO_OFF)
			h->orphan_starts++;
		else
			h->open.n++;
		h->open.v[i].key = key;
		h->open.v[i].cyc = cyc;
		h->open.v[i].off = off;
		return;
	}

	size_t i = om_slot(&h->open, key);
	if (h->open.v[i].off == NO_OFF) {
		h->orphan_ends++;
		return;
	}
	uint64_t scyc = h->open.v[i].cyc, soff = h->open.v[i].off;
	om_del(&h->open, i);
	if (cyc < scyc) {
		negative_pair(h, soff, off);
		return;
	}

	struct pt_model *m = h->c->m;
	uint32_t op = h->d->dynamic_shape ? task_op_slow(h, st, ext, NULL) : task_op(h, st, task);
	uint32_t name = 0;
	if (op != PT_NONE) {
		name = m->ops.v[op].name;
		h->named++;
	} else {
		h->unnamed++;
	}
	uint64_t f = h->d->freq_khz;
	int64_t s = pt_ascend_cycles_to_ns(scyc, f), e = pt_ascend_cycles_to_ns(cyc, f);
	struct pt_events *ev = &m->events;
	if (ev->n == ev->cap && !ev->spill)
		pt_events_reserve(ev, ev->cap + (ev->cap >> 1) + (1u << 16));
	pt_model_add_event(m, stream_track(h, st), name, PT_EV_TASK, s, e - s, 0, op, ext);
	h->executions++;
}

static void report(struct hw *h)
{
	struct pt_model *m = h->c->m;
	int32_t dv = (int32_t)h->d->dev;
	static const char *const tkeys[5] = { "hwts.task_start", "hwts.task_end", "hwts.block_start",
					      "hwts.block_end", "hwts.block_pmu" };

	pt_model_stat_set(m, dv, "hwts.records", (int64_t)h->records);
	for (int t = 0; t < 5; t++)
		pt_model_stat_set(m, dv, tkeys[t], (int64_t)h->types[t]);
	pt_model_stat_set(m, dv, "hwts.invalid_type", (int64_t)(h->types[5] + h->types[6] + h->types[7]));
	pt_model_stat_set(m, dv, "hwts.zero_records", (int64_t)h->zero);
	pt_model_stat_set(m, dv, "hwts.executions", (int64_t)h->executions);
	pt_model_stat_set(m, dv, "hwts.named_executions", (int64_t)h->named);
	pt_model_stat_set(m, dv, "hwts.unnamed_executions", (int64_t)h->unnamed);
	pt_model_stat_set(m, dv, "hwts.unnamed_keys", (int64_t)h->unnamed_keys);
	pt_model_stat_set(m, dv, "hwts.orphan_starts", (int64_t)h->orphan_starts);
	pt_model_stat_set(m, dv, "hwts.orphan_ends", (int64_t)h->orphan_ends);
	pt_model_stat_set(m, dv, "hwts.negative_pairs", (int64_t)h->negative);
	pt_model_stat_set(m, dv, "hwts.out_of_order", (int64_t)h->out_of_order);
	if (h->out_of_order) {
		uint64_t off;
		size_t f = pt_slices_locate(h->s, h->ooo_first, &off);
		pt_model_stat_set(m, dv, "hwts.out_of_order_first_offset", (int64_t)off);
		pt_model_stat_set(m, dv, "hwts.out_of_order_first_slice", (int64_t)f);
	}
	pt_model_stat_set(m, dv, "hwts.dynamic_shape", h->d->dynamic_shape);
	if (h->d->dynamic_shape) {
		uint64_t wrapped = 0;
		for (size_t i = 0; i < h->nst; i++)
			wrapped += h->st[i].laps > 0;
		pt_model_stat_set(m, dv, "hwts.streams_wrapped", (int64_t)wrapped);
		if (wrapped > 1)
			pt_diag_note(h->c->diag,
				     "'%s': task ids wrapped on %" PRIu64 " streams; per-stream wrap counting "
				     "(dynamic shape) is unverified on such data",
				     pt_slices_name(h->s, 0), wrapped);
	}

	for (size_t f = 0; f < h->s->n; f++) {
		struct neg_tally *t = &h->neg[f];
		if (!t->count)
			continue;
		uint64_t eoff, soff;
		pt_slices_locate(h->s, t->first_end, &eoff);
		size_t sf = pt_slices_locate(h->s, t->first_start, &soff);
		char what[512];
		if (sf == f)
			snprintf(what, sizeof(what), "dropped negative-duration pairs (End before its Start at offset %" PRIu64 ")",
				 soff);
		else
			snprintf(what, sizeof(what),
				 "dropped negative-duration pairs (End before its Start at offset %" PRIu64 " of '%s')", soff,
				 pt_slices_name(h->s, sf));
		pt_diag_warn_n(h->c->diag, h->s->paths[f], what, PT_POS_OFFSET, eoff, t->count);
	}
}

int pt_ascend_read_hwts(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_HWTS];
	if (!s->n)
		return 0;

	struct pt_recreader r;
	if (pt_recreader_open(&r, s, HWTS_REC, e)) {
		pt_recreader_close(&r);
		return pt_err(e, "HWTS log '%s'", pt_slices_name(s, 0));
	}

	struct hw h;
	memset(&h, 0, sizeof(h));
	h.c = c;
	h.d = d;
	h.s = s;
	h.r = &r;
	h.direct = pt_xcalloc(DIRECT_STREAMS, sizeof(*h.direct));
	pt_hashmap_init(&h.big);
	pt_hashmap_init(&h.unnamed_set);
	om_init(&h.open, 1024);
	h.neg = pt_xcalloc(s->n, sizeof(*h.neg));
	if (!d->freq_khz)
		d->freq_khz = 100000;
	c->m->devices.v[d->dev].dynamic_shape = d->dynamic_shape;
	h.max_cyc = pt_ascend_max_cycles(d->freq_khz);

	/* About one execution per two records. */
	uint64_t size = pt_slices_size(s);
	if (!c->m->events.spill) /* a streaming import holds only its window */
		pt_events_reserve(&c->m->events, c->m->events.n + (size_t)(size / (2 * HWTS_REC)) + 16);

	static const char *const invalid_what[8] = {
		[5] = "skipped records of invalid log type 5",
		[6] = "skipped records of invalid log type 6",
		[7] = "skipped records of invalid log type 7",
	};
	static const uint8_t zero[HWTS_REC];

	int rc = 0;
	const uint8_t *p;
	uint64_t off;
	for (;;) {
		int k = pt_recreader_next(&r, &p, &off, e);
		if (k <= 0) {
			rc = k;
			break;
		}
		h.records++;
		unsigned type = p[0] & 7u;
		h.types[type]++;
		if (type <= 1) {
			/* padding: a "Start" whose 64 bytes are all zero (Q7) */
			if (type == 0 && !pt_le64(p) && !pt_le64(p + 8) && !memcmp(p, zero, HWTS_REC)) {
				h.types[0]--;
				h.zero++;
				warn_at(&h, "skipped all-zero records", off);
				continue;
			}
			on_task(&h, (int)type, pt_le32(p + 16), pt_le16(p + 6), pt_le64(p + 8), off);
		} else if (type >= 5) {
			warn_at(&h, invalid_what[type], off);
		}
		/* types 2-4: decoded, counted, not used (§2.1) */
	}

	if (!rc) {
		uint64_t tail_off;
		size_t tail = pt_recreader_tail(&r, &tail_off);
		if (tail) {
			char what[96];
			snprintf(what, sizeof(what), "ignored truncated record of %zu bytes", tail);
			warn_at(&h, what, tail_off);
		}
		/* Starts never closed */
		h.orphan_starts += h.open.n;
		h.r = NULL;
		report(&h);
	} else {
		pt_err(e, "HWTS log '%s'", pt_slices_name(s, 0));
	}

	pt_recreader_close(&r);
	for (size_t i = 0; i < h.nst; i++) {
		if (!h.st[i].pages)
			continue;
		for (size_t j = 0; j < TASK_RANGE / 256; j++)
			free(h.st[i].pages[j]);
		free(h.st[i].pages);
	}
	free(h.st);
	free(h.direct);
	pt_hashmap_free(&h.big);
	pt_hashmap_free(&h.unnamed_set);
	free(h.open.v);
	free(h.neg);
	return rc ? -1 : 0;
}
