/*
 * device_queue_profiling_<d>.txt and dataset_iterator_profiling_<d>.txt
 * (ascend.md §2.11): one record per line, `<type> <extra> <batch> <value>[
 * <timestamp>]`, decimal integers separated by spaces. Type 0 values are ms
 * (kept as ns), type 1 values queue sizes with the capacity in `extra`.
 * Unparsable lines are skipped and counted (line number); blank lines, CRLF
 * and a missing final newline are accepted.
 */
#include <stdlib.h>
#include <string.h>

#include "import/import-minddata.h"
#include "import/slices.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/parse.h"

/* Splits rec on runs of spaces/tabs; returns the field count (at most max + 1). */
static int split(const char *rec, size_t len, const char **f, size_t *fl, int max)
{
	int n = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && (rec[i] == ' ' || rec[i] == '\t'))
			i++;
		if (i >= len)
			break;
		size_t s = i;
		while (i < len && rec[i] != ' ' && rec[i] != '\t')
			i++;
		if (n == max)
			return max + 1;
		f[n] = rec + s;
		fl[n++] = i - s;
	}
	return n;
}

int pt_md_read_queue(struct pt_model *m, uint32_t dev, const char *path, int iterator, struct pt_diag *diag,
		     struct pt_err **e)
{
	struct pt_slices s = { 0 };
	pt_slices_add(&s, path);
	char *buf = NULL;
	size_t len = 0;
	if (pt_slices_read_all(&s, &buf, &len, e)) {
		pt_slices_free(&s);
		return pt_err(e, "MindData queue file '%s'", path);
	}
	pt_model_add_source(m, path, len, iterator ? "minddata-iterator" : "minddata-device-queue", (int32_t)dev);
	uint32_t track = pt_model_track(m, dev, PT_TRACK_QUEUE,
					iterator ? PT_MD_STREAM_HOST_ITER : PT_MD_STREAM_HOST_DEVQ,
					iterator ? "md_host_queue:dataset_iterator" : "md_host_queue:device_queue");
	struct pt_textiter it;
	pt_textiter_init(&it, &s, buf, len, '\n');
	const char *rec;
	size_t rl, file;
	uint64_t line;
	int64_t records = 0, skipped = 0;
	while (pt_textiter_next(&it, &rec, &rl, &file, &line)) {
		const char *f[5];
		size_t fl[5];
		int nf = split(rec, rl, f, fl, 5);
		if (!nf)
			continue;
		int64_t v[5];
		bool ok = nf == 4 || nf == 5;
		for (int k = 0; ok && k < nf; k++)
			ok = pt_parse_i64(f[k], fl[k], &v[k]);
		ok = ok && (v[0] == 0 || v[0] == 1) && v[1] >= 0 && v[2] >= 0 && v[3] >= 0 &&
		     (nf == 4 || v[4] >= 0) && v[3] <= INT64_MAX / 1000000 && (nf == 4 || v[4] <= PT_TIME_LIMIT / 1000000);
		if (!ok) {
			pt_diag_warn(diag, path, "skipped unparsable lines", PT_POS_LINE, line);
			skipped++;
			continue;
		}
		struct pt_md_record r = {
			.device = dev,
			.file = iterator ? PT_MD_ITERATOR : PT_MD_DEVICE_QUEUE,
			.type = (uint8_t)v[0],
			.extra = v[1],
			.batch = v[2],
			.value = v[0] == 0 ? v[3] * 1000000 : v[3],
			.time = nf == 5 ? v[4] * 1000000 : -1,
		};
		pt_model_add_md_record(m, &r);
		if (r.type == 1)
			pt_model_add_queue_sample(m, track, r.time >= 0 ? r.time : r.batch, r.value, r.extra);
		records++;
	}
	pt_model_stat_add(m, (int32_t)dev, iterator ? "minddata.iterator.records" : "minddata.device_queue.records",
			  records);
	if (skipped)
		pt_model_stat_add(m, (int32_t)dev,
				  iterator ? "minddata.iterator.skipped" : "minddata.device_queue.skipped", skipped);
	free(buf);
	pt_slices_free(&s);
	return 0;
}
