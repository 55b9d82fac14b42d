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
#include "support/xalloc.h"

struct span {
	const char *p;
	size_t n;
};

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

static struct span trim(struct span s)
{
	while (s.n && is_space(*s.p)) {
		s.p++;
		s.n--;
	}
	while (s.n && is_space(s.p[s.n - 1]))
		s.n--;
	return s;
}

static struct span after_last_colon(struct span s)
{
	for (size_t i = s.n; i-- > 0;)
		if (s.p[i] == ':')
			return trim((struct span){ s.p + i + 1, s.n - i - 1 });
	return trim(s);
}

static bool contains(struct span s, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= s.n; i++)
		if (!memcmp(s.p + i, needle, k))
			return true;
	return false;
}

static bool parse_u64(struct span s, uint64_t *out)
{
	uint64_t v = 0;
	if (!s.n)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(s.p[i] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	}
	*out = v;
	return true;
}

/* Microseconds as an exact decimal to ns. */
static bool parse_us(struct span s, int64_t *ns)
{
	uint64_t v = 0;
	int frac = -1;
	bool digits = false;
	for (size_t i = 0; i < s.n; i++) {
		char ch = s.p[i];
		if (ch >= '0' && ch <= '9') {
			if (frac >= 3) {
				if (ch != '0')
					return false;
				continue;
			}
			if (v > (UINT64_MAX / 2 - 9) / 10)
				return false;
			v = v * 10 + (uint64_t)(ch - '0');
			digits = true;
			if (frac >= 0)
				frac++;
		} else if (ch == '.' && frac < 0) {
			frac = 0;
		} else {
			return false;
		}
	}
	if (!digits)
		return false;
	for (int i = frac < 0 ? 0 : frac; i < 3; i++) {
		if (v > (uint64_t)INT64_MAX / 10)
			return false;
		v *= 10;
	}
	*ns = (int64_t)v;
	return true;
}

/*
 * A time value: "<µs>" or "<µs> <cycles>"; the cycle token, when present,
 * is preferred (§3.1).
 */
static bool parse_time(struct span v, uint64_t freq_khz, int64_t *ns, bool *cyc, uint64_t *cycles)
{
	size_t i = 0;
	while (i < v.n && !is_space(v.p[i]))
		i++;
	struct span t0 = { v.p, i }, t1 = trim((struct span){ v.p + i, v.n - i });
	if (!parse_us(t0, ns))
		return false;
	*cyc = false;
	if (t1.n) {
		if (!parse_u64(t1, cycles))
			return false;
		*cyc = freq_khz && (unsigned __int128)*cycles * 1000000u / freq_khz <= (unsigned __int128)INT64_MAX;
	}
	return true;
}

/* Split on ','; returns the field count (at most 8 stored). */
static size_t split(struct span s, struct span *f)
{
	size_t nf = 0;
	const char *p = s.p, *end = s.p + s.n;
	for (;;) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		const char *fe = q ? q : end;
		if (nf < 8)
			f[nf] = (struct span){ p, (size_t)(fe - p) };
		nf++;
		if (!q)
			break;
		p = q + 1;
	}
	return nf;
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
		struct span r = trim((struct span){ rec, n });
		if (!r.n)
			continue;
		records++;
		const char *path = s->paths[file];
		struct span f[8];
		size_t nf = split(r, f);
		if (nf != 4 || !contains(f[0], "Node")) {
			pt_diag_warn(c->diag, path, "skipped unparsable records", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		/* the second layout has the queue size in field 1 */
		bool q1 = contains(f[1], "queue");
		struct span vstart = after_last_colon(f[q1 ? 2 : 1]);
		struct span vend = after_last_colon(f[q1 ? 3 : 2]);
		struct span vsize = after_last_colon(f[q1 ? 1 : 3]);
		int64_t start, end;
		uint64_t size, cs, ce;
		bool hs, he;
		if (!parse_time(vstart, d->freq_khz, &start, &hs, &cs) || !parse_time(vend, d->freq_khz, &end, &he, &ce) ||
		    !parse_u64(vsize, &size) || size > INT64_MAX) {
			pt_diag_warn(c->diag, path, "skipped records with unparsable values", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		if (hs && he) {
			start = pt_ascend_cycles_to_ns(cs, d->freq_khz);
			end = pt_ascend_cycles_to_ns(ce, d->freq_khz);
		}
		if (end < start) {
			pt_diag_warn(c->diag, path, "skipped records ending before they start", PT_POS_OFFSET, pos);
			skipped++;
			continue;
		}
		struct span name = after_last_colon(f[0]);
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
