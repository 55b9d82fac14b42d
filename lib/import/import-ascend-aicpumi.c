/*
 * Device-side get_next records, DATA_PREPROCESS.dev.AICPUMI.<dev>.slice_<n>
 * (ascend.md §2.7): NUL-terminated text records in two layouts,
 *
 *   Node:<name>, Run start:<µs>, Run end:<µs>, queue size:<n>
 *   Node:<name>, queue size:<n>, Run start:<µs>, Run end:<µs>
 *
 * Each record becomes a PT_EV_GETNEXT event on the device's "get_next" queue
 * track and a queue sample at its run end.
 */
#include <stdlib.h>
#include <string.h>

#include "import/ascend.h"
#include "support/span.h"
#include "support/xalloc.h"

/*
 * A time value: "<µs>" or "<µs> <cycles>"; the cycle token, when present,
 * is preferred (§3.1).
 */
static bool parse_time(struct pt_span v, uint64_t freq_khz, int64_t *ns, bool *cyc, uint64_t *cycles)
{
	size_t i = 0;
	while (i < v.n && !pt_is_space(v.p[i]))
		i++;
	struct pt_span t0 = { v.p, i }, t1 = pt_span_trim((struct pt_span){ v.p + i, v.n - i });
	if (!pt_span_us_ns(t0, ns))
		return false;
	*cyc = false;
	if (t1.n) {
		if (!pt_span_u64(t1, cycles))
			return false;
		*cyc = pt_ascend_cycles_fit(*cycles, freq_khz);
	}
	return true;
}


int pt_ascend_read_aicpumi(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_AICPUMI];
	struct pt_model *m = c->m;
	int32_t dv = (int32_t)d->dev;
	uint32_t track = PT_NONE;
	char *buf;
	size_t len;

	if (!s->n)
		return 0;
	if (pt_slices_read_all(s, &buf, &len, e))
		return -1;

	int64_t records = 0, events = 0, skipped = 0;
	struct pt_textiter it;
	const char *rec;
	size_t n, file;
	uint64_t pos;
	pt_textiter_init(&it, s, buf, len, '\0');
	while (pt_textiter_next(&it, &rec, &n, &file, &pos)) {
		struct pt_span r = pt_span_trim((struct pt_span){ rec, n });
		if (!r.n)
			continue;
		records++;
		const char *path = s->paths[file];
		struct pt_span f[8];
		size_t nf = pt_span_split(r, ',', f, 8);
		if (nf != 4 || !pt_span_contains(f[0], "Node")) {
			pt_diag_warn(c->diag, path, "skipped unparsable records", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		/* the second layout has the queue size in field 1 */
		bool q1 = pt_span_contains(f[1], "queue");
		struct pt_span vstart = pt_span_trim(pt_span_after_last(f[q1 ? 2 : 1], ':'));
		struct pt_span vend = pt_span_trim(pt_span_after_last(f[q1 ? 3 : 2], ':'));
		struct pt_span vsize = pt_span_trim(pt_span_after_last(f[q1 ? 1 : 3], ':'));
		int64_t start, end;
		uint64_t size, cs, ce;
		bool hs, he;
		if (!parse_time(vstart, d->freq_khz, &start, &hs, &cs) || !parse_time(vend, d->freq_khz, &end, &he, &ce) ||
		    !pt_span_u64(vsize, &size) || size > INT64_MAX) {
			pt_diag_warn(c->diag, path, "skipped records with unparsable values", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		if (hs && he) {
			start = pt_ascend_cycles_to_ns(cs, d->freq_khz);
			end = pt_ascend_cycles_to_ns(ce, d->freq_khz);
		}
		if (!pt_ascend_ns_fit(start) || !pt_ascend_ns_fit(end)) {
			pt_diag_warn(c->diag, path, "skipped records with times beyond 2^62 ns", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		if (end < start) {
			pt_diag_warn(c->diag, path, "skipped records ending before they start", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		struct pt_span name = pt_span_trim(pt_span_after_last(f[0], ':'));
		char *ns = pt_xstrndup(name.p, name.n);
		uint32_t nid = pt_model_str(m, ns);
		free(ns);
		if (track == PT_NONE)
			track = pt_model_track(m, d->dev, PT_TRACK_QUEUE, -1, "get_next");
		pt_model_add_event(m, track, nid, PT_EV_GETNEXT, start, end - start, 0, PT_NONE, 0);
		pt_model_add_queue_sample(m, track, end, (int64_t)size, -1);
		events++;
	}
	free(buf);
	pt_model_stat_add(m, dv, "aicpumi.records", records);
	pt_model_stat_add(m, dv, "aicpumi.events", events);
	pt_model_stat_add(m, dv, "aicpumi.skipped", skipped);
	return 0;
}
