/* proftool dump: the stable text form of a whole model. */
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "model/dump.h"
#include "model/model.h"
#include "model/ptm-source.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/out.h"
#include "support/varint.h"
#include "support/vec.h"

static const struct pt_opt dump_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT, "write to FILE instead of standard output", NULL },
	{ 0 },
};

static const struct pt_opt *const groups[] = { dump_opts, pt_rawpath_opts, NULL };

static int on_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	pt_model_dump_events(m, &m->events, arg);
	return 0;
}

static int no_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)arg, (void)m, (void)e;
	return 0;
}

/* Each CUPTI side table's place in the file (the writer's order, ptm-write-tables.c), by its place in
 * the dump (dump.h, enum pt_dump_side): the dump prints the synchronization infos before the external
 * correlations and the API cbids, which the file holds before them. */
static const uint8_t file_place[PT_DUMP_NSIDE] = {
	[PT_DUMP_KERNELS] = 0, [PT_DUMP_COPIES] = 1,   [PT_DUMP_LINKS] = 2,  [PT_DUMP_EXT_CORR] = 3,
	[PT_DUMP_API_CBIDS] = 4, [PT_DUMP_SYNCS] = 5, [PT_DUMP_RANGES] = 6, [PT_DUMP_ARGS] = 7,
};

/* The side table that a chunk of PT_PTM_TABLES_BATCHWISE filled (the others are empty), or -1. */
static int side_of(const struct pt_model *m)
{
	const size_t n[PT_DUMP_NSIDE] = {
		[PT_DUMP_KERNELS] = m->kernels.n,     [PT_DUMP_COPIES] = m->copies.n, [PT_DUMP_LINKS] = m->links.n,
		[PT_DUMP_SYNCS] = m->syncs.n,	      [PT_DUMP_EXT_CORR] = m->ext_corr.n,
		[PT_DUMP_API_CBIDS] = m->api_cbids.n, [PT_DUMP_RANGES] = m->ranges.n, [PT_DUMP_ARGS] = m->event_args.n,
	};
	for (int t = 0; t < PT_DUMP_NSIDE; t++)
		if (n[t])
			return t;
	return -1;
}

struct dstream {
	struct pt_out *o; /* NULL in the first read */
	int last;         /* the file place of the last side table chunk so far, -1: none */
	bool unordered;   /* first read: a side table's chunk follows one of a table after it in the file */
	/* second read: the external correlations and the API cbids, packed as varints (zigzag differences of
	 * the correlation and external ids), until the synchronization infos are printed */
	PT_VEC(uint8_t) x, a;
	size_t nx, na;
	uint64_t xcorr, xid; /* the last external correlation held */
	bool flushed;
};

/* v appended to the byte vector vec (a PT_VEC(uint8_t)) as a varint. */
static void put_var(void *vec, uint64_t v)
{
	PT_VEC(uint8_t) *b = vec;
	pt_vec_reserve(b, b->n + 10);
	b->n = (size_t)(pt_varint_put(b->v + b->n, v) - b->v);
}

/* The held external correlations and API cbids, printed through m's tables a batch at a time. */
static void flush_held(struct dstream *d, struct pt_model *m)
{
	if (d->flushed)
		return;
	d->flushed = true;
	m->ext_corr.n = m->api_cbids.n = 0;
	const uint8_t *p = d->x.v;
	uint64_t corr = 0, id = 0;
	for (size_t i = 0; i < d->nx; i++) {
		struct pt_ext_corr x;
		x.device = (uint32_t)pt_varint_take(&p);
		x.kind = (uint32_t)pt_varint_take(&p);
		x.corr = corr += (uint64_t)pt_unzigzag(pt_varint_take(&p));
		x.id = id += (uint64_t)pt_unzigzag(pt_varint_take(&p));
		pt_vec_push(&m->ext_corr, x);
		if (m->ext_corr.n == PT_PTM_EVENT_BATCH || i + 1 == d->nx) {
			pt_model_dump_side(m, PT_DUMP_EXT_CORR, d->o);
			m->ext_corr.n = 0;
		}
	}
	p = d->a.v;
	for (size_t i = 0; i < d->na; i++) {
		uint32_t name = (uint32_t)pt_varint_take(&p);
		pt_model_add_api_cbid(m, name, (uint32_t)pt_varint_take(&p));
		if (m->api_cbids.n == PT_PTM_EVENT_BATCH || i + 1 == d->na) {
			pt_model_dump_side(m, PT_DUMP_API_CBIDS, d->o);
			m->api_cbids.n = 0;
		}
	}
	pt_vec_free(&d->x);
	pt_vec_free(&d->a);
}

/* A batch of events or a chunk of a side table (PT_PTM_TABLES_BATCHWISE): the first read checks the
 * tables' order, the second prints them. */
static int on_chunk(void *arg, struct pt_model *m, struct pt_err **e)
{
	(void)e;
	struct dstream *d = arg;
	if (m->events.n) {
		if (d->o)
			pt_model_dump_events(m, &m->events, d->o);
		return 0;
	}
	int t = side_of(m);
	if (t < 0)
		return 0;
	if (file_place[t] < d->last)
		d->unordered = true;
	d->last = file_place[t];
	if (!d->o)
		return 0;
	if (t == PT_DUMP_EXT_CORR) {
		for (size_t i = 0; i < m->ext_corr.n; i++) {
			const struct pt_ext_corr *x = &m->ext_corr.v[i];
			put_var(&d->x, x->device);
			put_var(&d->x, x->kind);
			put_var(&d->x, pt_zigzag((int64_t)(x->corr - d->xcorr)));
			put_var(&d->x, pt_zigzag((int64_t)(x->id - d->xid)));
			d->xcorr = x->corr, d->xid = x->id;
		}
		d->nx += m->ext_corr.n;
		return 0;
	}
	if (t == PT_DUMP_API_CBIDS) {
		for (size_t i = 0; i < m->api_cbids.n; i++) {
			put_var(&d->a, m->api_cbids.v[i].name);
			put_var(&d->a, m->api_cbids.v[i].cbid);
		}
		d->na += m->api_cbids.n;
		return 0;
	}
	if (t == PT_DUMP_RANGES || t == PT_DUMP_ARGS) {
		/* (the chunk's rows stay in m while the held ones go through m's tables, empty until now) */
		flush_held(d, m);
	}
	pt_model_dump_side(m, (enum pt_dump_side)t, d->o);
	return 0;
}

/* The old way, for a file whose side tables do not come in the writer's order: every table is held. */
static int dump_held(struct pt_common *c, const char *path, struct pt_err **e)
{
	const struct pt_ptm_source *src = PT_PTM_SOURCE(path);
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink first = { no_batch, NULL, false, 1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_PACK_GPU_MEM };
	unsigned nocols = PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK;
	int rc = pt_ptm_source_read_cols(src, m, &first, nocols, e);
	if (rc > 0) /* a skipping read never stops */
		rc = pt_err(e, "'%s': cannot be read as a stream", path);
	struct pt_out o;
	if (!rc)
		rc = pt_out_open(&o, c->output ? c->output : "-", e);
	if (!rc) {
		pt_model_dump_head(m, &o);
		struct pt_ptm_sink again = { on_batch, &o, true, 1 };
		rc = pt_ptm_source_read(src, m, &again, e);
		if (rc > 0)
			rc = pt_err(e, "'%s' changed while it was read", path);
		if (!rc) {
			pt_model_dump_tail(m, &o);
			rc = pt_out_commit(&o, e);
		} else {
			pt_out_abort(&o);
		}
	}
	pt_model_free(m);
	return rc;
}

/*
 * A model file dumped without holding its events or its CUPTI side tables:
 * a first read checks the whole file, keeps all but the events and those
 * tables, and sees the tables' chunks come in the writer's order (a file
 * whose tables do not is dumped by dump_held); a second one, into a model of
 * its own, writes the events batch by batch and the side tables chunk by
 * chunk (PT_PTM_TABLES_BATCHWISE) between what comes before and after them,
 * holding only the external correlations and the API cbids, packed, until
 * the synchronization infos that the dump prints before them are written. A
 * damaged file fails in the first read, before any output. The first read
 * decodes of the events only what the side tables' checks use (track, kind,
 * start); the other columns are decoded, and checked value by value, by the
 * second read (their bytes are in the first read's checksum).
 */
static int dump_streamed(struct pt_common *c, const char *path, struct pt_err **e)
{
	c->path = path;
	const struct pt_ptm_source *src = PT_PTM_SOURCE(path);
	struct pt_model *m = pt_model_new();
	struct dstream d = { .last = -1 };
	const uint32_t skip = 1 | PT_PTM_SKIP_BUT_TABLES | PT_PTM_PACK_GPU_MEM | PT_PTM_TABLES_BATCHWISE;
	struct pt_ptm_sink first = { on_chunk, &d, false, skip };
	unsigned nocols = PT_PTM_NO_NAME | PT_PTM_NO_DUR | PT_PTM_NO_CORR | PT_PTM_NO_OP | PT_PTM_NO_TASK;
	int rc = pt_ptm_source_read_cols(src, m, &first, nocols, e);
	if (rc > 0) /* a skipping read never stops */
		rc = pt_err(e, "'%s': cannot be read as a stream", path);
	if (!rc)
		pt_common_check_sel(c, m);
	if (!rc && d.unordered) {
		pt_model_free(m);
		return dump_held(c, path, e);
	}
	struct pt_out o;
	if (!rc)
		rc = pt_out_open(&o, c->output ? c->output : "-", e);
	if (rc) {
		pt_model_free(m);
		return rc;
	}
	pt_model_dump_head(m, &o);
	size_t ns = m->strings.n, nd = m->devices.n, nt = m->tracks.n;
	uint64_t nev = pt_events_total(&m->events);
	pt_model_free(m);
	m = pt_model_new();
	d = (struct dstream){ .o = &o, .last = -1 };
	struct pt_ptm_sink again = { on_chunk, &d, false, skip };
	rc = pt_ptm_source_read(src, m, &again, e);
	if (rc > 0 || (!rc && (d.unordered || m->strings.n != ns || m->devices.n != nd || m->tracks.n != nt ||
			       pt_events_total(&m->events) != nev)))
		rc = pt_err(e, "'%s' changed while it was read", path);
	if (!rc) {
		m->kernels.n = m->copies.n = m->links.n = m->ext_corr.n = m->api_cbids.n = 0;
		m->syncs.n = m->ranges.n = m->event_args.n = 0;
		flush_held(&d, m);
		pt_model_dump_tail(m, &o);
		rc = pt_out_commit(&o, e);
	} else {
		pt_out_abort(&o);
	}
	pt_vec_free(&d.x);
	pt_vec_free(&d.a);
	pt_model_free(m);
	return rc;
}

static int run(const struct pt_cmd *cmd, int argc, char **argv)
{
	struct pt_common c;
	pt_common_init(&c, cmd, PT_FMT_TABLE);
	int first = pt_common_parse(&c, argc, argv, NULL);
	if (first == -2)
		return 0;
	if (first < 0)
		return 2;
	if (argc - first != 1) {
		pt_usage_error(cmd, "expected one MODEL or PATH");
		return 2;
	}
	struct pt_err *e = NULL;
	struct pt_model *m = NULL;
	if (pt_common_is_model_file(argv[first])) {
		int rc = dump_streamed(&c, argv[first], &e);
		return pt_common_finish(&c, rc, e);
	}
	int rc = pt_common_load(&c, argv[first], &m, &e);
	if (!rc) {
		struct pt_out o;
		rc = pt_out_open(&o, c.output ? c.output : "-", &e);
		if (!rc) {
			pt_model_dump(m, &o);
			rc = pt_out_commit(&o, &e);
		}
	}
	pt_model_free(m);
	return pt_common_finish(&c, rc, e);
}

const struct pt_cmd pt_cmd_dump = {
	.name = "dump",
	.summary = "print the whole model in a stable text form",
	.usage = "[options] MODEL|PATH",
	.description = "One line per source, device, track, op (with its tensors), step (with its communication\n"
		       "intervals), AI CPU op, stat, event and sample, in model order. Identical models give\n"
		       "identical dumps: it is the oracle of the importer tests. A model file's events are\n"
		       "streamed, never held (proftool-dump(1) MEMORY).",
	.groups = groups,
	.run = run,
};
