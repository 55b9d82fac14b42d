/*
 * nvprof's SQLite export (nvprof --export-profile, schema version 9) for the
 * nsys importer (import-nsys.c): the tables whose layout differs from Nsight
 * Systems' - GPU properties, calls by callback id on processId/threadId, NVTX
 * as CUPTI MARKER records. Kernels, copies and sets share pt_nsys_read_gpu().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/cupti-cbid-names.h"
#include "import/import-cupti-join.h"
#include "import/import-nsys.h"
#include "support/xalloc.h"

/* CUPTI_ACTIVITY_KIND_DEVICE: the GPUs' properties (names are StringTable ids, bandwidth KB/s). */
int pt_nvprof_devices(struct ns *s)
{
	static const char *const cols[] = { "id", "name", "globalMemorySize", "numMultiprocessors",
					    "computeCapabilityMajor", "computeCapabilityMinor", "globalMemoryBandwidth" };
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, "CUPTI_ACTIVITY_KIND_DEVICE", cols, 7, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	bool bad = false;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		struct gpuinfo g = { -1, 0, 0, 0, 0, 0, NULL };
		int64_t name = 0;
		if (!pt_nsys_col_int(s, st, 0, "id", &g.id, &bad))
			continue;
		uint64_t *k = pt_nsys_col_int(s, st, 1, "name", &name, &bad) ? pt_hashmap_get(&s->sid, (uint64_t)name) : NULL;
		g.name = k && s->strlen_.v[*k - 1] ? pt_xstrdup(s->strs.v[*k - 1]) : NULL;
		pt_nsys_col_int(s, st, 2, "globalMemorySize", &g.mem, &bad);
		pt_nsys_col_int(s, st, 3, "numMultiprocessors", &g.sms, &bad);
		pt_nsys_col_int(s, st, 4, "computeCapabilityMajor", &g.ccmaj, &bad);
		pt_nsys_col_int(s, st, 5, "computeCapabilityMinor", &g.ccmin, &bad);
		if (pt_nsys_col_int(s, st, 6, "globalMemoryBandwidth", &g.bw, &bad) && g.bw > 0 && g.bw <= INT64_MAX / 1000)
			g.bw *= 1000; /* KB/s, as gpu_of() takes B/s */
		pt_vec_push(&s->gpus, g);
		if (bad)
			break;
	}
	sqlite3_finalize(st);
	return rc < 0 || bad ? -1 : 0;
}

/* CUPTI_ACTIVITY_KIND_RUNTIME / _DRIVER: calls by callback id, on processId / threadId. */
int pt_nvprof_calls(struct ns *s, bool drv)
{
	static const char *const cols[] = { "!start", "!end", "!cbid", "processId", "threadId", "correlationId" };
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, drv ? "CUPTI_ACTIVITY_KIND_DRIVER" : "CUPTI_ACTIVITY_KIND_RUNTIME", cols, 6, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	struct pt_model *m = s->m;
	bool bad = false;
	int64_t last_cbid = -1;
	uint32_t last_name = 0;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		int64_t start = 0, end = 0, cbid = 0, pid = 0, tid = 0, corr = 0;
		bool ok = pt_nsys_col_int(s, st, 0, "start", &start, &bad) & pt_nsys_col_int(s, st, 1, "end", &end, &bad) &
			  pt_nsys_col_int(s, st, 2, "cbid", &cbid, &bad);
		bool has_pid = pt_nsys_col_int(s, st, 3, "processId", &pid, &bad) & pt_nsys_col_int(s, st, 4, "threadId", &tid, &bad);
		pt_nsys_col_int(s, st, 5, "correlationId", &corr, &bad);
		if (bad)
			break;
		if (!ok) {
			rc = pt_nsys_fail(s, "column 'start', 'end' or 'cbid' is NULL");
			break;
		}
		if (!has_pid || pid < 0 || pid > UINT32_MAX || tid < 0) {
			s->n_no_pid++;
			continue;
		}
		if (cbid != last_cbid) {
			const char *n = cbid >= 0 && cbid <= UINT32_MAX ? pt_cupti_cbid_name(drv, (uint32_t)cbid) : NULL;
			char b[64];
			if (!n) {
				snprintf(b, sizeof(b), "<%s cbid %" PRId64 ">", drv ? "driver" : "runtime", cbid);
				n = b;
			}
			last_name = pt_model_str(m, n);
			last_cbid = cbid;
		}
		int64_t t0, dur;
		if (!pt_nsys_times(s, start, end, &t0, &dur))
			continue;
		struct proc *p = pt_nsys_proc_of(s, (uint32_t)pid);
		uint32_t t = pt_nsys_track(s, p->cpu, PT_TRACK_HOST_THREAD, tid);
		uint32_t evi = (uint32_t)pt_events_total(&m->events);
		uint64_t c = corr > 0 && corr <= UINT32_MAX ? (uint64_t)corr : 0;
		pt_model_add_event(m, t, last_name, PT_EV_API, t0, dur, c, PT_NONE, 0);
		pt_cjoin_call(p->join, drv, (uint32_t)c, evi, t, t0);
		s->n_imported++;
	}
	sqlite3_finalize(st);
	return rc < 0 || bad ? -1 : 0;
}

/* A marker's objectId: CUPTI's CUpti_ActivityObjectKindId as stored, {processId, threadId} (u32 LE each). */
static bool nv_object(sqlite3_stmt *st, int col, uint32_t *pid, uint32_t *tid)
{
	const unsigned char *b = sqlite3_column_blob(st, col);
	int n = sqlite3_column_bytes(st, col);
	if (!b || n < 8)
		return false;
	*pid = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	*tid = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
	return true;
}

/*
 * CUPTI_ACTIVITY_KIND_MARKER: NVTX markers as CUPTI delivers them (flags 1 instantaneous, 2 start,
 * 4 end; a start and its end share `id`), paired in table order into s->nvtx as read_nvtx() does.
 */
int pt_nvprof_markers(struct ns *s)
{
	static const char *const cols[] = { "!flags", "!timestamp", "!id", "objectKind", "objectId", "name", "domain" };
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, "CUPTI_ACTIVITY_KIND_MARKER", cols, 7, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	struct pt_hashmap open; /* id -> s->nvtx index + 1 of its start */
	pt_hashmap_init(&open);
	bool bad = false;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		int64_t flags = 0, ts = 0, id = 0, okind = 0, name = 0, dom = 0;
		bool ok = pt_nsys_col_int(s, st, 0, "flags", &flags, &bad) & pt_nsys_col_int(s, st, 1, "timestamp", &ts, &bad) &
			  pt_nsys_col_int(s, st, 2, "id", &id, &bad);
		pt_nsys_col_int(s, st, 3, "objectKind", &okind, &bad);
		bool has_name = pt_nsys_col_int(s, st, 5, "name", &name, &bad);
		bool has_dom = pt_nsys_col_int(s, st, 6, "domain", &dom, &bad);
		if (bad)
			break;
		if (!ok) {
			rc = pt_nsys_fail(s, "column 'flags', 'timestamp' or 'id' is NULL");
			break;
		}
		int64_t t0, dur;
		if (!pt_nsys_times(s, ts, ts, &t0, &dur))
			continue;
		if (flags & 4) { /* end */
			uint64_t *v = pt_hashmap_get(&open, (uint64_t)id);
			if (!v) {
				s->n_nvtx_other++;
				continue;
			}
			struct nvtx *r = &s->nvtx.v[*v - 1];
			pt_hashmap_del(&open, (uint64_t)id);
			if (t0 < r->start) {
				s->n_nvtx_end_before_start++;
				r->flags = UINT32_MAX; /* dropped below */
				continue;
			}
			r->end = t0;
			r->flags = 0;
			continue;
		}
		if (!(flags & 3)) {
			s->n_nvtx_other++;
			continue;
		}
		uint32_t pid = 0, tid = 0;
		if (!nv_object(st, 5, &pid, &tid)) {
			s->n_no_pid++;
			continue;
		}
		uint32_t nm = 0, dm = 0;
		if ((has_name && name && pt_nsys_str_of(s, name, "name", &nm)) ||
		    (has_dom && dom && pt_nsys_str_of(s, dom, "domain", &dm))) {
			rc = -1;
			break;
		}
		bool thread = okind == 2; /* CUPTI_ACTIVITY_OBJECT_THREAD */
		struct nvtx r = { t0, t0, s->rowid, id, 0, 0, nm, dm, (flags & 1) ? PT_RANGE_INSTANT : PT_RANGE_UNTERMINATED,
				  (uint32_t)s->nvtx.n, thread };
		r.proc = (uint32_t)(pt_nsys_proc_of(s, pid) - s->procs.v);
		r.track = pt_nsys_track(s, s->procs.v[r.proc].cpu, PT_TRACK_HOST_THREAD, thread ? (int64_t)tid : -1);
		if (!(flags & 1)) {
			bool added;
			uint64_t *v = pt_hashmap_put(&open, (uint64_t)id, 0, &added);
			*v = s->nvtx.n + 1;
		}
		pt_vec_push(&s->nvtx, r);
	}
	sqlite3_finalize(st);
	pt_hashmap_free(&open);
	if (rc < 0 || bad)
		return -1;
	/* drop the ends before their starts; count the unterminated (read_nvtx closes them) */
	size_t k = 0;
	for (size_t i = 0; i < s->nvtx.n; i++) {
		if (s->nvtx.v[i].flags == UINT32_MAX)
			continue;
		s->n_nvtx_unterminated += (s->nvtx.v[i].flags & PT_RANGE_UNTERMINATED) != 0;
		s->nvtx.v[k++] = s->nvtx.v[i];
	}
	s->nvtx.n = k;
	return 0;
}
