/*
 * AI Core PMU data, data/aicore.data.<dev>.slice_<n> (ascend.md §2.9):
 * fixed 128-byte records over the slices of one logical stream,
 *
 *   off 6   u16      task_id
 *   off 32  8 x u64  PMU events: cube_fp16, cube_int8, vec_fp32,
 *                    vec_fp16_128lane, vec_fp16_64lane, vec_int32, vec_misc,
 *                    (unused)
 *   off 96  u32      stream_id
 *
 * Each record becomes one struct pt_aicore row, joined to its framework op
 * through the task key of §2.1/§3.2 (the era's threshold; the raw task id:
 * dynamic-shape wraps are not applied here). Records of tasks absent from
 * task_desc are kept with no op and counted. All-zero records are padding:
 * skipped and counted, as for HWTS. A truncated tail is skipped with a
 * warning; an empty file means "no PMU records" (a count, never fatal).
 * FLOPs are not computed here: that is pass-flops' business.
 */
#include <stdio.h>
#include <string.h>

#include "import/ascend.h"
#include "support/le.h"

#define AICORE_REC 128

static void warn_at(struct pt_ascend_ctx *c, struct pt_slices *s, const char *what, uint64_t logical)
{
	uint64_t off;
	size_t f = pt_slices_locate(s, logical, &off);
	pt_diag_warn(c->diag, s->paths[f], what, PT_POS_OFFSET, off);
}

int pt_ascend_read_aicore(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_AICORE];
	struct pt_model *m = c->m;
	int32_t dv = (int32_t)d->dev;
	if (!s->n)
		return 0;
	pt_model_stat_set(m, dv, "aicore.files", (int64_t)s->n);

	struct pt_recreader r;
	if (pt_recreader_open(&r, s, AICORE_REC, e)) {
		pt_recreader_close(&r);
		return pt_err(e, "AI Core data '%s'", pt_slices_name(s, 0));
	}
	static const uint8_t zero[AICORE_REC];
	int64_t records = 0, zeros = 0, joined = 0, unjoined = 0;
	int rc;
	const uint8_t *p;
	uint64_t off;
	for (;;) {
		rc = pt_recreader_next(&r, &p, &off, e);
		if (rc <= 0)
			break;
		if (!memcmp(p, zero, AICORE_REC)) {
			zeros++;
			warn_at(c, s, "skipped all-zero records", off);
			continue;
		}
		records++;
		struct pt_aicore a;
		a.device = d->dev;
		a.task = pt_le16(p + 6);
		a.stream = pt_le32(p + 96);
		for (int k = 0; k < PT_AICORE_NPMU; k++)
			a.pmu[k] = pt_le64(p + 32 + 8 * k);
		uint64_t key = pt_ascend_task_key(d->era, a.stream, a.task);
		uint64_t *q = pt_hashmap_get(&d->task_op, key);
		if (q && *q < m->ops.n) {
			a.op = (uint32_t)*q + 1;
			joined++;
		} else {
			a.op = 0;
			unjoined++;
		}
		pt_model_add_aicore(m, &a);
	}
	if (!rc) {
		uint64_t tail_off;
		size_t tail = pt_recreader_tail(&r, &tail_off);
		if (tail) {
			char what[96];
			snprintf(what, sizeof(what), "ignored truncated record of %zu bytes", tail);
			warn_at(c, s, what, tail_off);
		}
	}
	pt_recreader_close(&r);
	if (rc < 0)
		return pt_err(e, "AI Core data '%s'", pt_slices_name(s, 0));
	pt_model_stat_add(m, dv, "aicore.records", records);
	pt_model_stat_add(m, dv, "aicore.joined", joined);
	pt_model_stat_add(m, dv, "aicore.unknown_tasks", unjoined);
	if (zeros)
		pt_model_stat_add(m, dv, "aicore.zero_records", zeros);
	return 0;
}
