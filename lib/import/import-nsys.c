/*
 * Nsight Systems SQLite importer: the database `nsys export --type sqlite`
 * writes (NVIDIA's "SQLite Export Schema Reference"), onto the records the
 * CUPTI importer produces (model.h), so that every view works on it unchanged:
 *  - CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET / _SYNCHRONIZATION rows
 *    are GPU events on the stream tracks of one GPU device per (process,
 *    CUDA device), with their launch configuration, copy kinds and bytes,
 *    synchronization types;
 *  - CUPTI_ACTIVITY_KIND_RUNTIME rows of event class 0 (runtime) and 1
 *    (driver) are API calls on host-thread tracks of one CPU device per
 *    process; GPU work joins its call through `correlationId`
 *    (import-cupti-join.c) and the call its innermost NVTX range. Rows of
 *    other classes (67: the copy of a call nsys records with its backtrace)
 *    are counted, not imported: they would count each call twice;
 *  - NVTX_EVENTS push/pop ranges (event type 59) are ranges on their thread,
 *    start/end ranges (60) process-wide ranges, marks (34) instants; the
 *    domain of each is the name its domainId was created with (75);
 *  - StringIds resolve every name; ThreadNames and PROCESSES name threads and
 *    processes; TARGET_INFO_GPU fills the GPU devices; ENUM_* tables, where
 *    the export has them, map copy and memory kinds by name.
 * Processes and threads come from the serialized global ids: pid =
 * (globalTid >> 24) & 0xFFFFFF, tid = globalTid & 0xFFFFFF (globalPid: the
 * same with tid 0). Times are ns from the session start; with
 * TARGET_INFO_SESSION_START_TIME they become Unix ns (clock "unix", as CUPTI
 * dumps and Kineto traces), else they stay session ns (clock "nsys-session").
 * Every column is found by name (PRAGMA table_info): columns were added over
 * the years and tables are created only when they have data, so an absent
 * table is empty and an absent optional column NULL. The file is opened
 * read-only and immutable: nothing is ever written to it, no journal or lock
 * file is created beside it.
 * nvprof's export (--export-profile, schema version 9: StringTable with _id_,
 * CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, calls by cbid on processId/threadId,
 * NVTX as CUPTI_ACTIVITY_KIND_MARKER start/end/instant records) is read by the
 * same code where the layouts agree, and by the nv_* readers where they differ.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "import/import-cupti-join.h"
#include "import/import-nsys.h"
#include "import/input.h"
#include "import/nvtx-range.h"
#include "import/registry.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"
#include "support/hashmap.h"
#include "support/progress.h"
#include "support/sort.h"
#include "support/xalloc.h"

int pt_nsys_fail(struct ns *s, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (s->table && s->rowid >= 0)
		return pt_err(s->e, "table %s, rowid %" PRId64 ": %s", s->table, s->rowid, b);
	if (s->table)
		return pt_err(s->e, "table %s: %s", s->table, b);
	return pt_err(s->e, "%s", b);
}

static int sql_fail(struct ns *s, const char *what)
{
	return pt_nsys_fail(s, "%s: %s", what, sqlite3_errmsg(s->db));
}

/* ---- reading tables by column name ------------------------------------------------------ */

static bool table_exists(struct ns *s, const char *t)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	bool ok = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return ok;
}

/*
 * SELECT rowid, cols... FROM table: a column the table lacks reads as NULL,
 * unless it is required (a '!' before its name), which is an error. Returns
 * 1 when the table is absent, 0 with *out, -1 on an error.
 */
int pt_nsys_query(struct ns *s, const char *table, const char *const *cols, int n, const char *tail,
		 sqlite3_stmt **out)
{
	s->table = table;
	s->rowid = -1;
	if (!table_exists(s, table))
		return 1;
	bool have[NS_MAXCOLS] = { false };
	char *sql = pt_xasprintf("PRAGMA table_info(\"%s\")", table);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	free(sql);
	if (rc)
		return sql_fail(s, "cannot read its columns");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 1);
		for (int i = 0; c && i < n; i++)
			if (!strcmp(cols[i] + (cols[i][0] == '!'), c))
				have[i] = true;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(s, "cannot read its columns");
	size_t cap = 64, len = 0;
	char *q = pt_xmalloc(cap);
	len += (size_t)snprintf(q, cap, "SELECT rowid");
	for (int i = 0; i < n; i++) {
		const char *c = cols[i] + (cols[i][0] == '!');
		if (!have[i] && cols[i][0] == '!') {
			free(q);
			return pt_nsys_fail(s, "no column '%s'", c);
		}
		char b[80];
		int l = have[i] ? snprintf(b, sizeof(b), ", \"%s\"", c) : snprintf(b, sizeof(b), ", NULL");
		pt_xgrow((void **)&q, &cap, len + (size_t)l + 1, 1);
		memcpy(q + len, b, (size_t)l + 1);
		len += (size_t)l;
	}
	char *full = pt_xasprintf("%s FROM \"%s\"%s", q, table, tail ? tail : "");
	free(q);
	rc = sqlite3_prepare_v2(s->db, full, -1, out, NULL);
	free(full);
	if (rc)
		return sql_fail(s, "cannot read it");
	return 0;
}

/* Column i+1 (after rowid) as an integer: true, or false when NULL; anything else is an error (*bad). */
bool pt_nsys_col_int(struct ns *s, sqlite3_stmt *st, int i, const char *name, int64_t *v, bool *bad)
{
	/* one column call (its value), then the value's type and integer: the row loop's cost */
	sqlite3_value *x = sqlite3_column_value(st, i + 1);
	int ty = sqlite3_value_type(x);
	if (ty == SQLITE_INTEGER) {
		*v = sqlite3_value_int64(x);
		return true;
	}
	if (ty != SQLITE_NULL && !*bad) {
		*bad = true;
		pt_nsys_fail(s, "column '%s' is not an integer", name);
	}
	return false;
}

/* The next row: 1, 0 at the end, -1 on an error (a damaged file). */
int pt_nsys_step(struct ns *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		s->rowid = sqlite3_column_int64(st, 0);
		pt_progress_tick("reading SQLite rows", (size_t)s->n_rows++, 0);
		return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	/* the row that failed is the one after s->rowid */
	if (s->rowid >= 0)
		return pt_err(s->e, "table %s, after rowid %" PRId64 ": %s", s->table, s->rowid, sqlite3_errmsg(s->db));
	return pt_err(s->e, "table %s: %s", s->table, sqlite3_errmsg(s->db));
}

/* ---- strings ----------------------------------------------------------------------------- */

static int load_strings(struct ns *s)
{
	static const char *const cols[] = { "!id", "!value" }, *const nv_cols[] = { "!_id_", "!value" };
	sqlite3_stmt *st;
	const char *t = s->nvprof ? "StringTable" : "StringIds";
	int rc = pt_nsys_query(s, t, s->nvprof ? nv_cols : cols, 2, NULL, &st);
	if (rc)
		return rc > 0 ? pt_nsys_fail(s, "no %s table", t) : -1;
	bool bad = false;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		int64_t id;
		if (!pt_nsys_col_int(s, st, 0, "id", &id, &bad)) {
			if (!bad)
				pt_nsys_fail(s, "column '%s' is NULL", s->nvprof ? "_id_" : "id");
			rc = -1;
			break;
		}
		const char *v = (const char *)sqlite3_column_text(st, 2);
		size_t n = v ? (size_t)sqlite3_column_bytes(st, 2) : 0;
		bool added;
		uint64_t *slot = pt_hashmap_put(&s->sid, (uint64_t)id, 0, &added);
		if (!added) {
			rc = pt_nsys_fail(s, "string id %" PRId64 " repeated", id);
			break;
		}
		char *c = pt_xmalloc(n + 1);
		if (n)
			memcpy(c, v, n);
		c[n] = 0;
		pt_vec_push(&s->strs, c);
		pt_vec_push(&s->strlen_, (uint32_t)n);
		pt_vec_push(&s->msid, 0);
		*slot = s->strs.n;
	}
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

/* The model string of nsys string id `id` of column `what`: -1 (an error) when StringIds lacks it. */
int pt_nsys_str_of(struct ns *s, int64_t id, const char *what, uint32_t *out)
{
	if (id == s->last_sid && s->last_msid) {
		*out = s->last_msid - 1;
		return 0;
	}
	uint64_t *v = pt_hashmap_get(&s->sid, (uint64_t)id);
	if (!v)
		return pt_nsys_fail(s, "%s %" PRId64 " is not in %s", what, id, s->nvprof ? "StringTable" : "StringIds");
	size_t i = *v - 1;
	if (!s->msid.v[i])
		s->msid.v[i] = pt_strtab_intern(&s->m->strings, s->strs.v[i], s->strlen_.v[i]) + 1;
	s->last_sid = id;
	s->last_msid = s->msid.v[i];
	*out = s->msid.v[i] - 1;
	return 0;
}

/* ---- model helpers ----------------------------------------------------------------------- */

static uint32_t new_device(struct ns *s, enum pt_device_kind kind, uint32_t id, const char *name, uint32_t pid)
{
	struct pt_device d;
	memset(&d, 0, sizeof(d));
	d.id = id;
	d.kind = kind;
	d.name = pt_xstrdup(name);
	d.clock = pt_xstrdup(s->nvprof ? "cupti" : s->has_base ? "unix" : "nsys-session");
	d.pid = pid;
	d.rank = -1;
	return pt_model_new_device(s->m, &d);
}

/* The process of pid: its CPU device and join. */
struct proc *pt_nsys_proc_of(struct ns *s, uint32_t pid)
{
	if (s->last_proc && s->last_pid == pid)
		return &s->procs.v[s->last_proc - 1];
	bool added;
	uint64_t *v = pt_hashmap_put(&s->pidx, pid, 0, &added);
	if (added) {
		struct proc p;
		memset(&p, 0, sizeof(p));
		p.pid = pid;
		uint64_t *pn = pt_hashmap_get(&s->pnames, pid);
		char b[48];
		snprintf(b, sizeof(b), "process %" PRIu32, pid);
		p.cpu = new_device(s, PT_DEV_CPU, pid, pn ? s->pname_s.v[*pn - 1] : b, pid);
		p.join = pt_cjoin_new(s->m);
		pt_vec_push(&s->procs, p);
		*v = s->procs.n;
	}
	s->last_pid = pid;
	s->last_proc = (uint32_t)*v;
	return &s->procs.v[*v - 1];
}

static uint32_t gpu_of(struct ns *s, uint32_t pid, int64_t dev)
{
	uint64_t key = (uint64_t)pid << 32 | (uint32_t)dev;
	bool added;
	uint64_t *v = pt_hashmap_put(&s->gpu, key, 0, &added);
	if (added) {
		char b[48];
		snprintf(b, sizeof(b), "GPU %" PRId64, dev);
		const struct gpuinfo *g = NULL;
		for (size_t i = 0; i < s->gpus.n; i++)
			if (s->gpus.v[i].id == dev)
				g = &s->gpus.v[i];
		*v = new_device(s, PT_DEV_GPU, (uint32_t)dev, g && g->name ? g->name : b, pid);
		struct pt_device *d = &s->m->devices.v[*v];
		if (g) {
			d->mem_bytes = g->mem > 0 ? (uint64_t)g->mem : 0;
			d->sm_count = g->sms > 0 && g->sms <= UINT32_MAX ? (uint32_t)g->sms : 0;
			d->cc_major = g->ccmaj > 0 && g->ccmaj <= UINT32_MAX ? (uint32_t)g->ccmaj : 0;
			d->cc_minor = g->ccmin > 0 && g->ccmin <= UINT32_MAX ? (uint32_t)g->ccmin : 0;
			d->mem_bandwidth_kbs = g->bw > 0 ? (uint64_t)g->bw / 1000 : 0; /* B/s */
		}
	}
	return (uint32_t)*v;
}

uint32_t pt_nsys_track(struct ns *s, uint32_t dev, enum pt_track_kind kind, int64_t stream)
{
	uint64_t key = (uint64_t)dev << 40 | (uint64_t)kind << 36 | ((uint64_t)stream & 0xfffffffffULL);
	if (key == s->last_key)
		return s->last_track;
	bool added;
	uint64_t *v = pt_hashmap_put(&s->tracks, key, 0, &added);
	if (added) {
		char name[64];
		if (kind == PT_TRACK_STREAM)
			snprintf(name, sizeof(name), stream < 0 ? "device" : "stream %" PRId64, stream);
		else if (stream < 0)
			snprintf(name, sizeof(name), "process");
		else
			snprintf(name, sizeof(name), "thread %" PRId64, stream);
		*v = pt_model_new_track(s->m, dev, kind, stream, pt_model_str(s->m, name));
		if (kind == PT_TRACK_HOST_THREAD && stream >= 0)
			pt_vec_push(&s->host_tracks, (uint32_t)*v);
	}
	s->last_key = key;
	s->last_track = (uint32_t)*v;
	return (uint32_t)*v;
}

/*
 * Session ns [start, end] to model times in *t0, *dur: false (counted) when
 * they leave the model's range, span more than it allows a duration (2^62 ns,
 * model.h), or end before start.
 */
bool pt_nsys_times(struct ns *s, int64_t start, int64_t end, int64_t *t0, int64_t *dur)
{
	if (start > PT_TIME_LIMIT || start < -PT_TIME_LIMIT || end > PT_TIME_LIMIT || end < -PT_TIME_LIMIT ||
	    (s->base > 0 && start > PT_TIME_LIMIT - s->base) || (s->base > 0 && end > PT_TIME_LIMIT - s->base) ||
	    (s->base < 0 && start < -PT_TIME_LIMIT - s->base) || (end > 0 && start < end - PT_TIME_LIMIT)) {
		s->n_untimed++;
		return false;
	}
	if (end < start) {
		s->n_neg++;
		return false;
	}
	*t0 = start + s->base;
	*dur = end - start;
	if (*t0 + *dur > s->max_time)
		s->max_time = *t0 + *dur;
	return true;
}

/* ---- small tables ------------------------------------------------------------------------ */

static int load_meta(struct ns *s)
{
	sqlite3_stmt *st;
	bool bad = false;
	int rc;
	/* session start */
	static const char *const c_start[] = { "utcEpochNs" };
	if (!(rc = pt_nsys_query(s, "TARGET_INFO_SESSION_START_TIME", c_start, 1, NULL, &st))) {
		while ((rc = pt_nsys_step(s, st)) > 0)
			if (pt_nsys_col_int(s, st, 0, "utcEpochNs", &s->base, &bad) && s->base >= 0 && s->base <= PT_TIME_LIMIT)
				s->has_base = true;
		sqlite3_finalize(st);
	}
	if (rc < 0 || bad)
		return -1;
	if (!s->has_base)
		s->base = 0;
	/* process names */
	static const char *const c_proc[] = { "pid", "name" };
	if (!(rc = pt_nsys_query(s, "PROCESSES", c_proc, 2, NULL, &st))) {
		while ((rc = pt_nsys_step(s, st)) > 0) {
			int64_t pid;
			const char *name = (const char *)sqlite3_column_text(st, 2);
			if (!pt_nsys_col_int(s, st, 0, "pid", &pid, &bad) || !name || !*name)
				continue;
			bool added;
			uint64_t *v = pt_hashmap_put(&s->pnames, (uint64_t)(pid & 0xFFFFFF), 0, &added);
			if (added) {
				pt_vec_push(&s->pname_s, pt_xstrdup(name));
				*v = s->pname_s.n;
			}
		}
		sqlite3_finalize(st);
	}
	if (rc < 0 || bad)
		return -1;
	/* thread names */
	static const char *const c_thr[] = { "nameId", "globalTid" };
	if (!(rc = pt_nsys_query(s, "ThreadNames", c_thr, 2, NULL, &st))) {
		while ((rc = pt_nsys_step(s, st)) > 0) {
			int64_t name, gt;
			if (pt_nsys_col_int(s, st, 0, "nameId", &name, &bad) && pt_nsys_col_int(s, st, 1, "globalTid", &gt, &bad))
				*pt_hashmap_put(&s->tnames, (uint64_t)((gt >> 24) & 0xFFFFFF) << 32 | (uint64_t)(gt & 0xFFFFFF), 0,
						NULL) = (uint64_t)name + 1;
		}
		sqlite3_finalize(st);
	}
	if (rc < 0 || bad)
		return -1;
	/* GPUs */
	static const char *const c_gpu[] = { "id", "name", "totalMemory", "smCount", "computeMajor", "computeMinor",
					     "memoryBandwidth" };
	if (!(rc = pt_nsys_query(s, "TARGET_INFO_GPU", c_gpu, 7, NULL, &st))) {
		while ((rc = pt_nsys_step(s, st)) > 0) {
			struct gpuinfo g = { -1, 0, 0, 0, 0, 0, NULL };
			if (!pt_nsys_col_int(s, st, 0, "id", &g.id, &bad))
				continue;
			const char *name = (const char *)sqlite3_column_text(st, 2);
			g.name = name && *name ? pt_xstrdup(name) : NULL;
			pt_nsys_col_int(s, st, 2, "totalMemory", &g.mem, &bad);
			pt_nsys_col_int(s, st, 3, "smCount", &g.sms, &bad);
			pt_nsys_col_int(s, st, 4, "computeMajor", &g.ccmaj, &bad);
			pt_nsys_col_int(s, st, 5, "computeMinor", &g.ccmin, &bad);
			pt_nsys_col_int(s, st, 6, "memoryBandwidth", &g.bw, &bad);
			pt_vec_push(&s->gpus, g);
		}
		sqlite3_finalize(st);
	}
	if (rc < 0 || bad)
		return -1;
	/* enums: the CUPTI values of the copy and memory kinds, by their names */
	for (int i = 0; i < 64; i++) {
		s->copy_map[i] = i <= 10 ? (uint8_t)i : 0;         /* CUDA_MEMCPY_KIND: CUPTI's order */
		s->mem_map[i] = i <= 6 ? (uint8_t)(i + 1) : 0;     /* 0 Pageable .. 6 Managed Static; 7 Unknown */
	}
	static const char *const c_enum[] = { "id", "name" };
	static const char *const copy_names[] = { "htod", "dtoh", "htoa", "atoh", "atoa", "atod", "dtoa", "dtod", "htoh",
						  "ptop", NULL };
	for (int pass = 0; pass < 2; pass++) {
		const char *t = pass ? "ENUM_CUDA_MEM_KIND" : "ENUM_CUDA_MEMCPY_OPER";
		if ((rc = pt_nsys_query(s, t, c_enum, 2, NULL, &st)))
			continue;
		while ((rc = pt_nsys_step(s, st)) > 0) {
			int64_t id;
			const char *nm = (const char *)sqlite3_column_text(st, 2);
			if (!pt_nsys_col_int(s, st, 0, "id", &id, &bad) || id < 0 || id >= 64 || !nm)
				continue;
			char low[64];
			size_t k = 0;
			for (; nm[k] && k < sizeof(low) - 1; k++)
				low[k] = (char)(nm[k] >= 'A' && nm[k] <= 'Z' ? nm[k] + 32 : nm[k]);
			low[k] = 0;
			uint8_t v = 0;
			if (!pass) {
				for (int j = 0; copy_names[j]; j++)
					if (strstr(low, copy_names[j]) && !strstr(low, "unified"))
						v = (uint8_t)(j + 1);
				s->copy_map[id] = v;
			} else {
				v = strstr(low, "pageable") ? 1 : strstr(low, "pinned") ? 2
				  : strstr(low, "static") ? (strstr(low, "managed") ? 7 : 6)
				  : strstr(low, "device") ? 3 : strstr(low, "array") ? 4 : strstr(low, "managed") ? 5 : 0;
				s->mem_map[id] = v;
			}
		}
		sqlite3_finalize(st);
		if (rc < 0 || bad)
			return -1;
	}
	return 0;
}

/* ---- API calls --------------------------------------------------------------------------- */

static int read_runtime(struct ns *s)
{
	static const char *const cols[] = { "!start", "!end", "eventClass", "globalTid", "correlationId", "!nameId" };
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, "CUPTI_ACTIVITY_KIND_RUNTIME", cols, 6, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	struct pt_model *m = s->m;
	bool bad = false;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		int64_t start = 0, end = 0, cls = 0, gt = 0, corr = 0, name = 0;
		bool ok = pt_nsys_col_int(s, st, 0, "start", &start, &bad) & pt_nsys_col_int(s, st, 1, "end", &end, &bad);
		pt_nsys_col_int(s, st, 2, "eventClass", &cls, &bad);
		bool has_gt = pt_nsys_col_int(s, st, 3, "globalTid", &gt, &bad);
		pt_nsys_col_int(s, st, 4, "correlationId", &corr, &bad);
		bool has_name = pt_nsys_col_int(s, st, 5, "nameId", &name, &bad);
		if (bad)
			break;
		if (!ok || !has_name) {
			rc = pt_nsys_fail(s, "column '%s' is NULL", !ok ? "start/end" : "nameId");
			break;
		}
		if (cls != 0 && cls != 1) {
			s->n_other_class++;
			continue;
		}
		if (!has_gt) {
			s->n_no_pid++;
			continue;
		}
		uint32_t nm;
		if (pt_nsys_str_of(s, name, "nameId", &nm)) {
			rc = -1;
			break;
		}
		int64_t t0, dur;
		if (!pt_nsys_times(s, start, end, &t0, &dur))
			continue;
		struct proc *p = pt_nsys_proc_of(s, (uint32_t)((gt >> 24) & 0xFFFFFF));
		uint32_t t = pt_nsys_track(s, p->cpu, PT_TRACK_HOST_THREAD, gt & 0xFFFFFF);
		uint32_t evi = (uint32_t)pt_events_total(&m->events);
		uint64_t c = corr > 0 && corr <= UINT32_MAX ? (uint64_t)corr : 0;
		pt_model_add_event(m, t, nm, PT_EV_API, t0, dur, c, PT_NONE, 0);
		pt_cjoin_call(p->join, cls == 1, (uint32_t)c, evi, t, t0);
		s->n_imported++;
	}
	sqlite3_finalize(st);
	return rc < 0 || bad ? -1 : 0;
}

/* ---- GPU activity ------------------------------------------------------------------------ */


static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD",      "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const mem_kinds[] = { "Unknown", "Pageable", "Pinned", "Device",
					 "Array",   "Managed",  "Device Static", "Managed Static" };
static const char *const sync_names[] = { "Unknown Sync", "Event Sync", "Stream Wait Event", "Stream Sync",
					  "Context Sync" };

/* The columns after the common ones (start, end, deviceId, streamId, correlationId, globalPid). */
#define GC 6
static const char *const kernel_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					   "demangledName", "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY",
					   "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory" };
static const char *const memcpy_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					   "bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId" };
static const char *const memset_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					   "bytes", "memKind" };
static const char *const sync_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					 "syncType", "eventId" };

static uint8_t kind_of(const uint8_t *map, int64_t v)
{
	return v >= 0 && v < 64 ? map[v] : 0;
}

/* nvprof: the same positions under its names (no globalPid: GPU rows belong to the first process) */
static const char *const nv_kernel_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					      "name", "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY",
					      "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory" };
static const char *const nv_memset_cols[] = { "!start", "!end", "deviceId", "streamId", "correlationId", "globalPid",
					      "bytes", "memoryKind" };

/* Table `table` (NULL: the kind's nsys table) of GPU rows of one kind. */
int pt_nsys_read_gpu(struct ns *s, enum gk kind, const char *table)
{
	static const char *const tables[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
					      "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" };
	const char *const *cols = kind == G_KERNEL ? (s->nvprof ? nv_kernel_cols : kernel_cols)
				: kind == G_MEMCPY ? memcpy_cols
				: kind == G_MEMSET ? (s->nvprof ? nv_memset_cols : memset_cols) : sync_cols;
	int ncols = kind == G_KERNEL ? 17 : kind == G_MEMCPY ? 12 : 8;
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, table ? table : tables[kind], cols, ncols, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	struct pt_model *m = s->m;
	bool bad = false;
	int64_t x[NS_MAXCOLS];
	bool has[NS_MAXCOLS];
	while ((rc = pt_nsys_step(s, st)) > 0) {
		for (int i = 0; i < ncols; i++) {
			x[i] = 0;
			has[i] = pt_nsys_col_int(s, st, i, cols[i] + (cols[i][0] == '!'), &x[i], &bad);
		}
		if (bad)
			break;
		if (!has[0] || !has[1]) {
			rc = pt_nsys_fail(s, "column '%s' is NULL", has[0] ? "end" : "start");
			break;
		}
		uint32_t name = 0;
		if (kind == G_KERNEL) {
			int c = has[GC] ? GC : has[GC + 1] ? GC + 1 : -1; /* demangledName, else shortName */
			if (c < 0) {
				rc = pt_nsys_fail(s, "no kernel name (demangledName and shortName are NULL)");
				break;
			}
			if (pt_nsys_str_of(s, x[c], cols[c], &name)) {
				rc = -1;
				break;
			}
		}
		int64_t t0, dur;
		if (!pt_nsys_times(s, x[0], x[1], &t0, &dur))
			continue;
		/* the process: globalPid; without one, the first process seen (a one-process export) */
		struct proc *p;
		if (has[5])
			p = pt_nsys_proc_of(s, (uint32_t)((x[5] >> 24) & 0xFFFFFF));
		else if (s->procs.n)
			p = &s->procs.v[0];
		else
			p = pt_nsys_proc_of(s, 0);
		int64_t dev = has[2] && x[2] >= 0 && x[2] <= UINT32_MAX ? x[2] : 0;
		uint32_t gd = gpu_of(s, p->pid, dev);
		uint32_t t = pt_nsys_track(s, gd, PT_TRACK_STREAM, has[3] ? x[3] : -1);
		uint32_t evi = (uint32_t)pt_events_total(&m->events);
		uint64_t corr = has[4] && x[4] > 0 && x[4] <= UINT32_MAX ? (uint64_t)x[4] : 0;
		if (kind == G_KERNEL) {
			pt_model_add_event(m, t, name, PT_EV_KERNEL, t0, dur, corr, PT_NONE, 0);
			struct pt_kernel_config kc;
			memset(&kc, 0, sizeof(kc));
			for (int i = 0; i < 3; i++) {
				kc.grid[i] = (int32_t)x[GC + 2 + i];
				kc.block[i] = (int32_t)x[GC + 5 + i];
			}
			kc.registers = (uint32_t)x[GC + 8];
			kc.static_smem = (int32_t)x[GC + 9];
			kc.dynamic_smem = (int32_t)x[GC + 10];
			pt_model_add_kernel(m, evi, &kc);
			pt_cjoin_activity(p->join, evi, t0, (uint32_t)corr, 0, true);
		} else if (kind == G_SYNC) {
			uint32_t ty = has[GC] && x[GC] >= 0 && x[GC] < 5 ? (uint32_t)x[GC] : 0;
			if (!s->sync_names[ty])
				s->sync_names[ty] = pt_model_str(m, sync_names[ty]) + 1;
			pt_model_add_event(m, t, s->sync_names[ty] - 1, PT_EV_SYNC, t0, dur, corr, PT_NONE, 0);
			bool ev = ty == 1 || ty == 2;
			struct pt_sync_info si = { evi, ty, ev && has[GC + 1] ? x[GC + 1] : -1, -1, -1 };
			pt_model_add_sync(m, &si);
			pt_cjoin_activity(p->join, evi, t0, (uint32_t)corr, 0, false);
		} else {
			bool set = kind == G_MEMSET;
			struct pt_copy_info ci = { evi, 0, 0, 0, has[GC] && x[GC] > 0 ? (uint64_t)x[GC] : 0, -1, -1 };
			uint32_t *nc;
			if (set) {
				ci.dst_kind = has[GC + 1] ? kind_of(s->mem_map, x[GC + 1]) : 0;
				nc = &s->copy_names[11 * 9 * 9 + ci.dst_kind];
			} else {
				ci.copy_kind = has[GC + 1] ? kind_of(s->copy_map, x[GC + 1]) : 0;
				ci.src_kind = has[GC + 2] ? kind_of(s->mem_map, x[GC + 2]) : 0;
				ci.dst_kind = has[GC + 3] ? kind_of(s->mem_map, x[GC + 3]) : 0;
				if (ci.copy_kind == 10) { /* peer copies name their devices */
					ci.src_device = has[GC + 4] ? (int32_t)x[GC + 4] : -1;
					ci.dst_device = has[GC + 5] ? (int32_t)x[GC + 5] : -1;
				}
				nc = &s->copy_names[(ci.copy_kind * 9 + ci.src_kind) * 9 + ci.dst_kind];
			}
			if (!*nc) {
				char b[96];
				if (set)
					snprintf(b, sizeof(b), "Memset (%s)", mem_kinds[ci.dst_kind]);
				else
					snprintf(b, sizeof(b), "Memcpy %s (%s -> %s)", copy_kinds[ci.copy_kind],
						 mem_kinds[ci.src_kind], mem_kinds[ci.dst_kind]);
				*nc = pt_model_str(m, b) + 1;
			}
			pt_model_add_event(m, t, *nc - 1, set ? PT_EV_MEMSET : PT_EV_MEMCPY, t0, dur, corr, PT_NONE, 0);
			pt_model_add_copy(m, &ci);
			pt_cjoin_activity(p->join, evi, t0, (uint32_t)corr, 0, false);
		}
		s->n_imported++;
	}
	sqlite3_finalize(st);
	return rc < 0 || bad ? -1 : 0;
}

/* ---- NVTX ---------------------------------------------------------------------------------- */

static int cmp_nvtx(const void *a, const void *b)
{
	const struct nvtx *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* longer first: the shorter is inner */
	return x->order < y->order ? -1 : x->order > y->order;
}

static int read_nvtx(struct ns *s)
{
	static const char *const cols[] = { "!start", "end", "!eventType", "rangeId", "text", "globalTid", "textId",
					    "domainId" };
	sqlite3_stmt *st;
	int rc = pt_nsys_query(s, "NVTX_EVENTS", cols, 8, NULL, &st);
	if (rc)
		return rc > 0 ? 0 : -1;
	struct pt_model *m = s->m;
	struct pt_hashmap domains; /* pid << 32 | domainId -> model string id + 1 */
	pt_hashmap_init(&domains);
	bool bad = false;
	while ((rc = pt_nsys_step(s, st)) > 0) {
		int64_t start = 0, end = 0, type = 0, rid = 0, gt = 0, tid = 0, dom = 0;
		bool has_start = pt_nsys_col_int(s, st, 0, "start", &start, &bad);
		bool has_end = pt_nsys_col_int(s, st, 1, "end", &end, &bad);
		bool has_type = pt_nsys_col_int(s, st, 2, "eventType", &type, &bad);
		pt_nsys_col_int(s, st, 3, "rangeId", &rid, &bad);
		bool has_gt = pt_nsys_col_int(s, st, 5, "globalTid", &gt, &bad);
		bool has_tid = pt_nsys_col_int(s, st, 6, "textId", &tid, &bad);
		pt_nsys_col_int(s, st, 7, "domainId", &dom, &bad);
		if (bad)
			break;
		if (!has_start || !has_type) {
			rc = pt_nsys_fail(s, "column '%s' is NULL", has_start ? "eventType" : "start");
			break;
		}
		uint32_t name = 0;
		const char *text = (const char *)sqlite3_column_text(st, 5);
		if (text)
			name = pt_strtab_intern(&m->strings, text, (size_t)sqlite3_column_bytes(st, 5));
		else if (has_tid && pt_nsys_str_of(s, tid, "textId", &name)) {
			rc = -1;
			break;
		}
		uint32_t pid = (uint32_t)((gt >> 24) & 0xFFFFFF);
		if (type == NVTX_DOMAIN_CREATE) {
			*pt_hashmap_put(&domains, (uint64_t)pid << 32 | (uint32_t)dom, 0, NULL) = (uint64_t)name + 1;
			continue;
		}
		if (type != NVTX_PUSHPOP && type != NVTX_STARTEND && type != NVTX_MARK) {
			s->n_nvtx_other++;
			continue;
		}
		if (!has_gt) {
			s->n_no_pid++;
			continue;
		}
		struct nvtx r = { 0, 0, s->rowid, rid, 0, 0, name, 0, 0, (uint32_t)s->nvtx.n, type != NVTX_STARTEND };
		if (type == NVTX_MARK) {
			end = start;
			r.flags = PT_RANGE_INSTANT;
		} else if (!has_end) {
			s->n_nvtx_unterminated++;
			r.flags = PT_RANGE_UNTERMINATED;
			end = start; /* closed at the last time of the export, below */
		} else if (end < start) {
			s->n_nvtx_end_before_start++;
			continue;
		}
		int64_t t0, dur;
		if (!pt_nsys_times(s, start, end, &t0, &dur))
			continue;
		r.start = t0;
		r.end = t0 + dur;
		r.proc = (uint32_t)(pt_nsys_proc_of(s, pid) - s->procs.v);
		r.track = pt_nsys_track(s, s->procs.v[r.proc].cpu, PT_TRACK_HOST_THREAD, r.thread ? (gt & 0xFFFFFF) : -1);
		uint64_t *d = pt_hashmap_get(&domains, (uint64_t)pid << 32 | (uint32_t)dom);
		r.domain = dom && d ? (uint32_t)(*d - 1) : 0;
		pt_vec_push(&s->nvtx, r);
	}
	sqlite3_finalize(st);
	pt_hashmap_free(&domains);
	return rc < 0 || bad ? -1 : 0;
}

/* The ranges of s->nvtx as range events, in start order (longer first), and for the joins. */
static void add_ranges(struct ns *s)
{
	struct pt_model *m = s->m;
	/* unterminated ranges close at the last time of the export */
	for (size_t i = 0; i < s->nvtx.n; i++)
		if (s->nvtx.v[i].flags & PT_RANGE_UNTERMINATED && s->max_time > s->nvtx.v[i].start)
			s->nvtx.v[i].end = s->max_time;
	pt_sort(s->nvtx.v, s->nvtx.n, sizeof(*s->nvtx.v), cmp_nvtx);
	for (size_t i = 0; i < s->nvtx.n; i++) {
		struct nvtx *r = &s->nvtx.v[i];
		uint32_t ev = (uint32_t)pt_events_total(&m->events);
		pt_model_add_event(m, r->track, r->name, PT_EV_RANGE, r->start, r->end - r->start, 0, PT_NONE, 0);
		const char *name = pt_model_strget(m, r->name), *dom = r->domain ? pt_model_strget(m, r->domain) : NULL;
		size_t ol;
		const char *type = pt_nvtx_range_type(name, dom, &ol);
		uint32_t label = ol ? pt_strtab_intern(&m->strings, name, ol) : 0;
		struct pt_range_info ri = { ev, pt_model_str(m, type), label, r->domain, 0,
					    r->range_id > 0 ? (uint64_t)r->range_id : 0, r->flags };
		pt_model_add_range(m, &ri);
		struct pt_cjoin_range jr = { r->start, r->end, r->track, ev, r->thread, (r->flags & PT_RANGE_INSTANT) != 0 };
		pt_vec_push(&s->procs.v[r->proc].ranges, jr);
		s->n_imported++;
	}
}

/* ---- one file ---------------------------------------------------------------------------------- */

static void finish(struct ns *s, uint64_t size)
{
	struct pt_model *m = s->m;
	struct pt_cjoin_stats tot = { 0, 0, 0, 0 };
	for (size_t i = 0; i < s->procs.n; i++) {
		struct proc *p = &s->procs.v[i];
		struct pt_cjoin_stats js;
		pt_cjoin_finish(p->join, p->ranges.v, p->ranges.n, &js);
		tot.gpu_before_api += js.gpu_before_api;
		tot.gpu_without_api += js.gpu_without_api;
		tot.kernels_without_launch += js.kernels_without_launch;
		tot.corr_dup += js.corr_dup;
	}
	for (size_t i = 0; i < s->host_tracks.n; i++) {
		struct pt_track *t = &m->tracks.v[s->host_tracks.v[i]];
		uint32_t pid = m->devices.v[t->device].pid;
		uint64_t *v = pt_hashmap_get(&s->tnames, (uint64_t)pid << 32 | (uint64_t)t->stream);
		uint64_t *k = v ? pt_hashmap_get(&s->sid, *v - 1) : NULL;
		if (k)
			t->name = pt_strtab_intern(&m->strings, s->strs.v[*k - 1], s->strlen_.v[*k - 1]);
	}
	int32_t sd = s->procs.n ? (int32_t)s->procs.v[0].cpu : -1;
	pt_model_add_source(m, s->path, size, s->nvprof ? "nvprof" : "nsys", sd);
	const struct { const char *key; uint64_t v; } st[] = {
		{ "nsys.rows", s->n_rows },
		{ "nsys.imported_events", s->n_imported },
		{ "nsys.runtime_rows_of_other_classes", s->n_other_class },
		{ "nsys.negative_durations", s->n_neg },
		{ "nsys.untimed_records", s->n_untimed },
		{ "nsys.rows_without_thread", s->n_no_pid },
		{ "nsys.nvtx_other_events", s->n_nvtx_other },
		{ "nsys.nvtx_unterminated", s->n_nvtx_unterminated },
		{ "nsys.nvtx_end_before_start", s->n_nvtx_end_before_start },
		{ "nsys.gpu_before_api", tot.gpu_before_api },
		{ "nsys.gpu_without_api", tot.gpu_without_api },
		{ "nsys.kernels_without_launch", tot.kernels_without_launch },
		{ "nsys.correlation_duplicates", tot.corr_dup },
	};
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		char key[80];
		snprintf(key, sizeof(key), "%s%s", s->nvprof ? "nvprof" : "nsys", st[i].key + 4); /* "nsys.rows" */
		if (st[i].v || i < 2)
			pt_model_stat_set(m, sd, key, (int64_t)st[i].v);
	}
	if (s->has_base)
		pt_model_stat_set(m, sd, "nsys.session_start_unix_ns", s->base);
}

static void ns_free(struct ns *s)
{
	for (size_t i = 0; i < s->strs.n; i++)
		free(s->strs.v[i]);
	pt_vec_free(&s->strs);
	pt_vec_free(&s->strlen_);
	pt_vec_free(&s->msid);
	pt_hashmap_free(&s->sid);
	for (size_t i = 0; i < s->procs.n; i++) {
		pt_cjoin_free(s->procs.v[i].join);
		pt_vec_free(&s->procs.v[i].ranges);
	}
	pt_vec_free(&s->procs);
	pt_hashmap_free(&s->pidx);
	pt_hashmap_free(&s->gpu);
	pt_hashmap_free(&s->tracks);
	pt_vec_free(&s->host_tracks);
	pt_hashmap_free(&s->pnames);
	for (size_t i = 0; i < s->pname_s.n; i++)
		free(s->pname_s.v[i]);
	pt_vec_free(&s->pname_s);
	pt_hashmap_free(&s->tnames);
	for (size_t i = 0; i < s->gpus.n; i++)
		free(s->gpus.v[i].name);
	pt_vec_free(&s->gpus);
	pt_vec_free(&s->nvtx);
	if (s->db)
		sqlite3_close(s->db);
	pt_progress_end();
}

/* "file:PATH?immutable=1" with the URI's special bytes of PATH escaped. */
static char *uri_of(const char *path)
{
	size_t n = strlen(path);
	char *u = pt_xmalloc(n * 3 + 32), *o = u;
	o += sprintf(o, "file:");
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f)
			o += sprintf(o, "%%%02X", c);
		else
			*o++ = (char)c;
	}
	strcpy(o, "?immutable=1");
	return u;
}

/* Whether the export has the tables of an Nsight Systems export (or nvprof's). */
static bool nsys_tables(sqlite3 *db, bool *nvprof)
{
	static const char *const any[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
					   "CUPTI_ACTIVITY_KIND_MEMCPY", "NVTX_EVENTS", "TARGET_INFO_SESSION_START_TIME",
					   "TARGET_INFO_GPU", "ThreadNames", NULL };
	struct ns t;
	memset(&t, 0, sizeof(t));
	t.db = db;
	*nvprof = table_exists(&t, "StringTable") && table_exists(&t, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL");
	if (!table_exists(&t, "StringIds"))
		return false;
	for (int i = 0; any[i]; i++)
		if (table_exists(&t, any[i]))
			return true;
	return false;
}

/* 0 imported, -1 an error; in a directory walk (in_dir), 1: a readable SQLite database of another program, skipped. */
static int import_file(struct pt_model *m, const char *path, bool in_dir, struct pt_diag *diag, struct pt_err **e)
{
	int fd;
	uint64_t size;
	if (pt_input_open(path, &fd, &size, e))
		return -1;
	close(fd);
	struct ns s;
	memset(&s, 0, sizeof(s));
	s.m = m;
	s.path = path;
	s.diag = diag;
	s.e = e;
	s.rowid = -1;
	s.last_sid = -1;
	s.last_key = UINT64_MAX;
	s.max_time = INT64_MIN;
	pt_hashmap_init(&s.sid);
	pt_hashmap_init(&s.pidx);
	pt_hashmap_init(&s.gpu);
	pt_hashmap_init(&s.tracks);
	pt_hashmap_init(&s.pnames);
	pt_hashmap_init(&s.tnames);
	char *uri = uri_of(path);
	int rc = sqlite3_open_v2(uri, &s.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		rc = pt_err(e, "cannot open the SQLite database: %s", s.db ? sqlite3_errmsg(s.db) : "out of memory");
		ns_free(&s);
		return rc;
	}
	sqlite3_extended_result_codes(s.db, 1);
	sqlite3_exec(s.db, "PRAGMA cache_size=-16384", NULL, NULL, NULL);
	bool nvprof;
	if (!nsys_tables(s.db, &nvprof) && !nvprof) {
		const char *why = sqlite3_errcode(s.db) != SQLITE_OK && sqlite3_errcode(s.db) != SQLITE_DONE &&
					  sqlite3_errcode(s.db) != SQLITE_ROW
				? sqlite3_errmsg(s.db)
				: NULL;
		if (why) {
			rc = pt_err(e, "not a readable SQLite database: %s", why);
		} else if (in_dir) {
			pt_diag_warn(diag, path, "skipped: an SQLite database but not an Nsight Systems export", PT_POS_NONE, 0);
			rc = 1;
		} else {
			rc = pt_err(e, "an SQLite database but not an Nsight Systems export (no StringIds table beside the "
				       "CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or TARGET_INFO_* tables)");
		}
		ns_free(&s);
		return rc;
	}
	pt_input_test_shrink(path);
	s.nvprof = nvprof;
	for (int i = 0; i < 64; i++) { /* nvprof stores CUPTI's kinds; load_meta() maps nsys's */
		s.copy_map[i] = i <= 10 ? (uint8_t)i : 0;
		s.mem_map[i] = i <= 7 ? (uint8_t)i : 0;
	}
	rc = load_strings(&s);
	if (nvprof) {
		if (!rc)
			rc = pt_nvprof_devices(&s);
		if (!rc)
			rc = pt_nvprof_calls(&s, false);
		if (!rc)
			rc = pt_nvprof_calls(&s, true);
		if (!rc)
			rc = pt_nsys_read_gpu(&s, G_KERNEL, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL");
		if (!rc)
			rc = pt_nsys_read_gpu(&s, G_KERNEL, "CUPTI_ACTIVITY_KIND_KERNEL");
		if (!rc)
			rc = pt_nsys_read_gpu(&s, G_MEMCPY, NULL);
		if (!rc)
			rc = pt_nsys_read_gpu(&s, G_MEMSET, NULL);
		if (!rc)
			rc = pt_nvprof_markers(&s);
	} else {
		if (!rc)
			rc = load_meta(&s);
		if (!rc)
			rc = read_runtime(&s);
		for (int k = G_KERNEL; !rc && k <= G_SYNC; k++)
			rc = pt_nsys_read_gpu(&s, (enum gk)k, NULL);
		if (!rc)
			rc = read_nvtx(&s);
	}
	if (!rc)
		add_ranges(&s);
	if (!rc) {
		struct stat now;
		if (!stat(path, &now) && (uint64_t)now.st_size < size)
			rc = pt_input_shrunk(path, (uint64_t)now.st_size, size, e);
	}
	if (!rc)
		finish(&s, size);
	ns_free(&s);
	return rc < 0 ? -1 : 0;
}

/* ---- discovery ---------------------------------------------------------------------------------- */

/* Whether the file starts with the SQLite header. */
bool pt_nsys_sniff_file(const char *path)
{
	int fd;
	uint64_t size;
	struct pt_err *ignored = NULL;
	if (pt_input_open(path, &fd, &size, &ignored)) {
		pt_err_free(ignored);
		return false;
	}
	char b[16];
	ssize_t n = read(fd, b, sizeof(b));
	close(fd);
	return n == 16 && !memcmp(b, "SQLite format 3", 16);
}

/* The files the classifier's rule (pt_classify_nsys) found: an SQLite file named as a PATH is ours
 * (not an export is an error); one listed in a directory (depth 1) may be another program's
 * database, skipped with a warning. */
int pt_import_nsys(struct pt_model *m, const struct pt_inputs *in, const struct pt_import_opts *o,
		   struct pt_diag *diag, struct pt_err **e)
{
	(void)o;
	bool any = false;
	for (size_t i = 0; i < in->n; i++) {
		const struct pt_input *x = &in->v[i];
		if (x->skip) {
			pt_input_skip(diag, x->path, x->skip);
			continue;
		}
		bool in_dir = x->depth == 1;
		int r = import_file(m, x->path, in_dir, diag, e);
		if (r < 0) {
			if (in_dir || !x->named)
				pt_err(e, "'%s'", x->path);
			return -1;
		}
		any |= r == 0;
	}
	return any ? 0 : 1;
}
