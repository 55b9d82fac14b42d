/*
 * TDT enqueue log, DATA_PREPROCESS.dev.TDT.<dev>.slice_<n> (ascend.md §2.8):
 * NUL-terminated records
 *   [<tick>] Enqueue data to dp, source:<uuid>, index:<n>, size:<bytes>
 * Nothing is derived from them; proftool counts the records and the bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "import/ascend.h"
#include "support/span.h"

/* The value of the last "size:" in the record, if it is a decimal integer. */
static bool record_size(const char *p, size_t n, uint64_t *out)
{
	const char *key = NULL;
	for (size_t i = 0; i + 5 <= n; i++)
		if (!memcmp(p + i, "size:", 5))
			key = p + i + 5;
	if (!key)
		return false;
	const char *end = p + n;
	while (key < end && pt_is_space(*key))
		key++;
	while (end > key && pt_is_space(end[-1]))
		end--;
	if (key == end)
		return false;
	uint64_t v = 0;
	for (const char *q = key; q < end; q++) {
		if (*q < '0' || *q > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*q - '0');
	}
	*out = v;
	return true;
}

int pt_ascend_read_tdt(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_TDT];
	struct pt_model *m = c->m;
	int32_t dv = (int32_t)d->dev;
	char *buf;
	size_t len;

	if (!s->n)
		return 0;
	if (pt_slices_read_all(s, &buf, &len, e))
		return -1;

	int64_t records = 0, bad = 0;
	uint64_t bytes = 0;
	struct pt_textiter it;
	const char *rec;
	size_t n, file;
	uint64_t pos;
	pt_textiter_init(&it, s, buf, len, '\0');
	while (pt_textiter_next(&it, &rec, &n, &file, &pos)) {
		while (n && pt_is_space(rec[n - 1]))
			n--;
		while (n && pt_is_space(*rec)) {
			rec++;
			n--;
		}
		if (!n)
			continue;
		records++;
		uint64_t v;
		if (record_size(rec, n, &v) && bytes <= UINT64_MAX - v) {
			bytes += v;
		} else {
			pt_diag_warn(c->diag, s->paths[file], "ignored records without a parsable size", PT_POS_OFFSET,
				     pos);
			bad++;
		}
	}
	free(buf);
	pt_model_stat_add(m, dv, "tdt.records", records);
	pt_model_stat_add(m, dv, "tdt.bytes", bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes);
	if (bad)
		pt_model_stat_add(m, dv, "tdt.unparsable", bad);
	return 0;
}
