/*
 * proftool-gen's Nsight Systems back end: an `nsys export --type sqlite`
 * database from a small text description (language in tests/gen/README.md,
 * "Nsight Systems exports"). The tables and columns are those of NVIDIA's
 * "SQLite Export Schema Reference" as nsys 2022.2 (schema 2.9) writes them,
 * written from that reference, never from proftool's importer, so importer
 * bugs show: CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET / _RUNTIME /
 * _SYNCHRONIZATION, NVTX_EVENTS, StringIds, ThreadNames, PROCESSES,
 * TARGET_INFO_GPU, TARGET_INFO_SESSION_START_TIME. `omit TABLE.COLUMN`
 * leaves a column out (older exports), `sql "..."` runs a statement on the
 * finished database (damage), `--scale N` repeats the whole timeline N times
 * (the benchmark's export of a few million rows). Same description, same
 * rows. A table is created only when it gets rows, as nsys does.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gen.h"
#include "support/vec.h"
#include "support/xalloc.h"

enum dk { D_KERNEL, D_MEMCPY, D_MEMSET, D_SYNC, D_API, D_NVTX };

struct dir {
	enum dk kind;
	int64_t name;        /* StringIds id (kernel, api); NVTX: -1 = text */
	char *text;          /* NVTX text */
	int64_t api;         /* StringIds id of the launching call, 0 = none */
	int64_t pid, tid, device, stream, at, dur, api_lead, api_dur, repeat, every, cls;
	int64_t bytes, kind2, src, dst; /* memcpy: copyKind, srcKind, dstKind; memset: memKind; sync: syncType */
	int64_t nvtx_type, domain;
	int32_t grid[3], block[3];
	bool open;           /* NVTX range without an end */
};

struct ng {
	const char *file;
	int line;
	sqlite3 *db;
	PT_VEC(char *) strs;
	PT_VEC(struct dir) dirs;
	PT_VEC(char *) omit;
	PT_VEC(char *) sql;
	PT_VEC(char *) procs;   /* "pid\tname" */
	PT_VEC(char *) threads; /* "pid\ttid\tname" */
	PT_VEC(char *) gpus;    /* SQL VALUES of TARGET_INFO_GPU */
	PT_VEC(char *) domains; /* "pid\tid\tname" */
	int64_t session;
	bool has_session;
};

static struct ng *G;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "proftool-gen: error: ");
	if (G && G->line)
		fprintf(stderr, "'%s' line %d: ", G->file, G->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int tokenize(char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == '\n')
			break;
		if (n == max)
			die("too many tokens");
		if (*p == '"') {
			char *o = ++p;
			tok[n++] = o;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				*o++ = *p++;
			}
			if (*p != '"')
				die("unterminated quote");
			p++;
			*o = 0;
			continue;
		}
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
	}
	return n;
}

/* An integer with an optional unit: ns (default), us, ms, s. */
static int64_t num(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);
	if (end == s)
		die("'%s' is not a number", s);
	int64_t m = !strcmp(end, "us") ? 1000 : !strcmp(end, "ms") ? 1000000 : !strcmp(end, "s") ? 1000000000 : 1;
	if (m == 1 && *end && strcmp(end, "ns"))
		die("'%s': unknown unit", s);
	return (int64_t)v * m;
}

static void triple(const char *s, int32_t *v)
{
	if (sscanf(s, "%" SCNd32 ",%" SCNd32 ",%" SCNd32, &v[0], &v[1], &v[2]) != 3)
		die("'%s' is not X,Y,Z", s);
}

/* The StringIds id of s (ids from 1, in order of first use). */
static int64_t str_id(const char *s)
{
	for (size_t i = 0; i < G->strs.n; i++)
		if (!strcmp(G->strs.v[i], s))
			return (int64_t)i + 1;
	pt_vec_push(&G->strs, pt_xstrdup(s));
	return (int64_t)G->strs.n;
}

static const char *const copy_kinds[] = { "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
					  "HtoH", "PtoP", NULL };
/* nsys's memory kinds (CUDA_MEMOPR_MEMORY_KIND): 0 Pageable .. 6 Managed Static, 7 Unknown */
static const char *const mem_kinds[] = { "pageable", "pinned", "device", "array", "managed", "device-static",
					 "managed-static", "unknown", NULL };

static int64_t lookup(const char *const *tab, const char *s, int64_t base)
{
	for (int i = 0; tab[i]; i++)
		if (!strcmp(tab[i], s))
			return i + base;
	die("unknown kind '%s'", s);
}

static void parse(FILE *in)
{
	char line[4096];
	char *tok[64];
	while (fgets(line, sizeof(line), in)) {
		G->line++;
		int n = tokenize(line, tok, 64);
		if (!n)
			continue;
		const char *d = tok[0];
		if (!strcmp(d, "session-start") && n == 2) {
			G->session = num(tok[1]);
			G->has_session = true;
		} else if (!strcmp(d, "process") && (n == 2 || (n == 4 && !strcmp(tok[2], "name")))) {
			pt_vec_push(&G->procs, pt_xasprintf("%" PRId64 "\t%s", num(tok[1]), n == 4 ? tok[3] : ""));
		} else if (!strcmp(d, "thread") && n == 5 && !strcmp(tok[3], "name")) {
			pt_vec_push(&G->threads, pt_xasprintf("%" PRId64 "\t%" PRId64 "\t%s", num(tok[1]), num(tok[2]), tok[4]));
		} else if (!strcmp(d, "domain") && n == 4) {
			pt_vec_push(&G->domains, pt_xasprintf("%" PRId64 "\t%" PRId64 "\t%s", num(tok[1]), num(tok[2]), tok[3]));
		} else if (!strcmp(d, "gpu") && n >= 2) {
			const char *name = "NVIDIA Test GPU";
			int64_t sms = 108, mem = 42297524224, bw = 1555200000000, maj = 8, min = 0;
			for (int i = 2; i + 1 < n; i += 2) {
				if (!strcmp(tok[i], "name"))
					name = tok[i + 1];
				else if (!strcmp(tok[i], "sms"))
					sms = num(tok[i + 1]);
				else if (!strcmp(tok[i], "mem"))
					mem = num(tok[i + 1]);
				else if (!strcmp(tok[i], "cc") && sscanf(tok[i + 1], "%" SCNd64 ".%" SCNd64, &maj, &min) == 2)
					;
				else
					die("gpu: unknown option '%s'", tok[i]);
			}
			char *q = sqlite3_mprintf("(1, %lld, %Q, %lld, %lld, %lld, %lld, %lld, %lld)", (long long)num(tok[1]),
						  name, (long long)mem, (long long)bw, (long long)sms, (long long)maj,
						  (long long)min, (long long)num(tok[1]));
			pt_vec_push(&G->gpus, pt_xstrdup(q));
			sqlite3_free(q);
		} else if (!strcmp(d, "omit") && n == 2) {
			pt_vec_push(&G->omit, pt_xstrdup(tok[1]));
		} else if (!strcmp(d, "sql") && n == 2) {
			pt_vec_push(&G->sql, pt_xstrdup(tok[1]));
		} else if (!strcmp(d, "kernel") || !strcmp(d, "memcpy") || !strcmp(d, "memset") || !strcmp(d, "sync") ||
			   !strcmp(d, "api") || !strcmp(d, "nvtx")) {
			struct dir r;
			memset(&r, 0, sizeof(r));
			r.pid = 100;
			r.tid = 100;
			r.stream = 7;
			r.dur = 1000;
			r.api_lead = 2000;
			r.api_dur = 1000;
			r.repeat = 1;
			r.every = 10000;
			r.grid[0] = r.grid[1] = r.grid[2] = 1;
			r.block[0] = r.block[1] = r.block[2] = 1;
			int i = 2;
			if (!strcmp(d, "kernel") && n >= 2) {
				r.kind = D_KERNEL;
				r.name = str_id(tok[1]);
				r.api = str_id("cudaLaunchKernel_v7000");
			} else if (!strcmp(d, "memcpy") && n >= 2) {
				r.kind = D_MEMCPY;
				r.kind2 = lookup(copy_kinds, tok[1], 1);
				r.src = r.kind2 == 1 ? 0 : 2;
				r.dst = r.kind2 == 2 ? 0 : 2;
				r.bytes = 4096;
				r.api = str_id("cudaMemcpyAsync_v3020");
			} else if (!strcmp(d, "memset")) {
				r.kind = D_MEMSET;
				r.kind2 = 2;
				r.bytes = 4096;
				r.api = str_id("cudaMemsetAsync_v3020");
				i = 1;
			} else if (!strcmp(d, "sync") && n >= 2) {
				r.kind = D_SYNC;
				r.kind2 = num(tok[1]);
				r.api = str_id("cudaStreamSynchronize_v3020");
			} else if (!strcmp(d, "api") && n >= 2) {
				r.kind = D_API;
				r.api = str_id(tok[1]);
			} else if (!strcmp(d, "nvtx") && n >= 3) {
				r.kind = D_NVTX;
				r.nvtx_type = !strcmp(tok[1], "push") ? 59 : !strcmp(tok[1], "startend") ? 60
					    : !strcmp(tok[1], "mark") ? 34 : 0;
				if (!r.nvtx_type)
					die("nvtx: push, startend or mark, not '%s'", tok[1]);
				r.text = pt_xstrdup(tok[2]);
				r.name = -1;
				i = 3;
			} else {
				die("%s: too few arguments", d);
			}
			for (; i < n; i++) {
				const char *o = tok[i], *v = i + 1 < n ? tok[i + 1] : NULL;
				if (!strcmp(o, "open")) {
					r.open = true;
					continue;
				}
				if (!v)
					die("%s: option '%s' needs a value", d, o);
				i++;
				if (!strcmp(o, "pid"))
					r.pid = num(v);
				else if (!strcmp(o, "tid"))
					r.tid = num(v);
				else if (!strcmp(o, "device"))
					r.device = num(v);
				else if (!strcmp(o, "stream"))
					r.stream = num(v);
				else if (!strcmp(o, "at"))
					r.at = num(v);
				else if (!strcmp(o, "dur"))
					r.dur = num(v);
				else if (!strcmp(o, "api"))
					r.api = !strcmp(v, "none") ? 0 : str_id(v);
				else if (!strcmp(o, "api-lead"))
					r.api_lead = num(v);
				else if (!strcmp(o, "api-dur"))
					r.api_dur = num(v);
				else if (!strcmp(o, "class"))
					r.cls = num(v);
				else if (!strcmp(o, "repeat"))
					r.repeat = num(v);
				else if (!strcmp(o, "every"))
					r.every = num(v);
				else if (!strcmp(o, "bytes"))
					r.bytes = num(v);
				else if (!strcmp(o, "src"))
					r.src = lookup(mem_kinds, v, 0);
				else if (!strcmp(o, "dst") || !strcmp(o, "mem"))
					r.dst = r.kind == D_MEMSET ? (r.kind2 = lookup(mem_kinds, v, 0)) : lookup(mem_kinds, v, 0);
				else if (!strcmp(o, "grid"))
					triple(v, r.grid);
				else if (!strcmp(o, "block"))
					triple(v, r.block);
				else if (!strcmp(o, "domain"))
					r.domain = num(v);
				else if (!strcmp(o, "text-id") && r.kind == D_NVTX)
					r.name = str_id(v);
				else
					die("%s: unknown option '%s'", d, o);
			}
			if (r.repeat < 1)
				die("repeat must be at least 1");
			pt_vec_push(&G->dirs, r);
		} else {
			die("unknown directive '%s' (or wrong arguments)", d);
		}
	}
}

/* ---- writing ------------------------------------------------------------------------------- */

static void exec(const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(G->db, sql, NULL, NULL, &err) != SQLITE_OK)
		die("sqlite: %s (in: %.80s)", err ? err : "?", sql);
}

/* CREATE TABLE name (cols) less the columns `omit` names. */
static void create(const char *table, const char *cols)
{
	char *c = pt_xstrdup(cols), *out = pt_xcalloc(1, strlen(cols) + 1);
	bool first = true;
	for (char *p = strtok(c, ","); p; p = strtok(NULL, ",")) {
		while (*p == ' ')
			p++;
		char name[64];
		sscanf(p, "%63s", name);
		bool drop = false;
		for (size_t i = 0; i < G->omit.n; i++) {
			const char *dot = strchr(G->omit.v[i], '.');
			if (dot && (size_t)(dot - G->omit.v[i]) == strlen(table) && !strncmp(G->omit.v[i], table, strlen(table)) &&
			    !strcmp(dot + 1, name))
				drop = true;
		}
		if (drop)
			continue;
		if (!first)
			strcat(out, ", ");
		strcat(out, p);
		first = false;
	}
	char *q = pt_xasprintf("CREATE TABLE %s (%s)", table, out);
	exec(q);
	free(q);
	free(c);
	free(out);
}

/* INSERT of the named columns that the table has; absent ones are dropped with their values. */
struct ins {
	sqlite3_stmt *st;
	int map[32]; /* value index -> bind position, 0 = column omitted */
};

static void prepare_ins(struct ins *s, const char *table, const char *const *cols, int n)
{
	char q[2048];
	int len = snprintf(q, sizeof(q), "INSERT INTO %s (", table), k = 0;
	for (int i = 0; i < n; i++) {
		bool drop = false;
		for (size_t j = 0; j < G->omit.n; j++) {
			char b[128];
			snprintf(b, sizeof(b), "%s.%s", table, cols[i]);
			drop |= !strcmp(G->omit.v[j], b);
		}
		s->map[i] = drop ? 0 : ++k;
		if (!drop)
			len += snprintf(q + len, sizeof(q) - (size_t)len, "%s\"%s\"", k > 1 ? ", " : "", cols[i]);
	}
	len += snprintf(q + len, sizeof(q) - (size_t)len, ") VALUES (");
	for (int i = 0; i < k; i++)
		len += snprintf(q + len, sizeof(q) - (size_t)len, "%s?", i ? ", " : "");
	snprintf(q + len, sizeof(q) - (size_t)len, ")");
	if (sqlite3_prepare_v2(G->db, q, -1, &s->st, NULL))
		die("sqlite: %s", sqlite3_errmsg(G->db));
}

static void put(struct ins *s, const int64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		if (s->map[i])
			sqlite3_bind_int64(s->st, s->map[i], v[i]);
	if (sqlite3_step(s->st) != SQLITE_DONE)
		die("sqlite: %s", sqlite3_errmsg(G->db));
	sqlite3_reset(s->st);
}

#define HW (INT64_C(1) << 48) /* the hardware/VM bits above the pid in a serialized global id */

static int64_t gtid(int64_t pid, int64_t tid)
{
	return HW | (pid & 0xFFFFFF) << 24 | (tid & 0xFFFFFF);
}

static const char k_kernel[] =
	"start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
	"streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
	"shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, "
	"registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
	"blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, "
	"dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, "
	"gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER";
static const char k_memcpy[] =
	"start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
	"streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, "
	"copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
	"srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER, "
	"virtualAddress INTEGER";
static const char k_memset[] =
	"start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
	"streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, "
	"bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER";
static const char k_sync[] =
	"start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
	"streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, "
	"eventId INTEGER NOT NULL";
static const char k_runtime[] =
	"start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, "
	"correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER";
static const char k_nvtx[] =
	"start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, "
	"color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, "
	"uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, "
	"floatValue REAL, jsonTextId INTEGER, jsonText TEXT";

static const char *const c_kernel[] = { "start", "end", "deviceId", "contextId", "streamId", "correlationId",
					"globalPid", "demangledName", "shortName", "registersPerThread", "gridX",
					"gridY", "gridZ", "blockX", "blockY", "blockZ", "staticSharedMemory",
					"dynamicSharedMemory", "localMemoryPerThread", "localMemoryTotal", "gridId" };
static const char *const c_memcpy[] = { "start", "end", "deviceId", "contextId", "streamId", "correlationId",
					"globalPid", "bytes", "copyKind", "srcKind", "dstKind" };
static const char *const c_memset[] = { "start", "end", "deviceId", "contextId", "streamId", "correlationId",
					"globalPid", "value", "bytes", "memKind" };
static const char *const c_sync[] = { "start", "end", "deviceId", "contextId", "streamId", "correlationId",
				      "globalPid", "syncType", "eventId" };
static const char *const c_runtime[] = { "start", "end", "eventClass", "globalTid", "correlationId", "nameId",
					 "returnValue" };

static void write_db(int64_t scale)
{
	bool any[6] = { false };
	for (size_t i = 0; i < G->dirs.n; i++)
		any[G->dirs.v[i].kind] = true;
	bool runtime = any[D_API];
	for (size_t i = 0; i < G->dirs.n; i++)
		runtime |= G->dirs.v[i].kind != D_NVTX && G->dirs.v[i].api;
	exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN");
	create("StringIds", "id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL");
	create("ThreadNames", "nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER");
	create("PROCESSES", "globalPid INTEGER, pid INTEGER, name TEXT");
	create("TARGET_INFO_GPU", "vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER, "
				  "memoryBandwidth INTEGER, smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER, "
				  "cuDevice INTEGER");
	if (G->has_session) {
		create("TARGET_INFO_SESSION_START_TIME", "utcEpochNs INTEGER, utcTime TEXT, localTime TEXT");
		char *q = pt_xasprintf("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (%" PRId64 ", NULL, NULL)",
				       G->session);
		exec(q);
		free(q);
	}
	for (size_t i = 0; i < G->gpus.n; i++) {
		char *q = pt_xasprintf("INSERT INTO TARGET_INFO_GPU VALUES %s", G->gpus.v[i]);
		exec(q);
		free(q);
	}
	for (size_t i = 0; i < G->procs.n; i++) {
		long long pid;
		char name[1024] = "";
		sscanf(G->procs.v[i], "%lld\t%1023[^\n]", &pid, name);
		char *q = sqlite3_mprintf("INSERT INTO PROCESSES VALUES (%lld, %lld, %Q)", (long long)gtid(pid, 0), pid, name);
		exec(q);
		sqlite3_free(q);
	}
	for (size_t i = 0; i < G->threads.n; i++) {
		long long pid, tid;
		char name[1024] = "";
		sscanf(G->threads.v[i], "%lld\t%lld\t%1023[^\n]", &pid, &tid, name);
		char *q = sqlite3_mprintf("INSERT INTO ThreadNames VALUES (%lld, 10, %lld)", (long long)str_id(name),
					  (long long)gtid(pid, tid));
		exec(q);
		sqlite3_free(q);
	}
	if (any[D_KERNEL])
		create("CUPTI_ACTIVITY_KIND_KERNEL", k_kernel);
	if (any[D_MEMCPY])
		create("CUPTI_ACTIVITY_KIND_MEMCPY", k_memcpy);
	if (any[D_MEMSET])
		create("CUPTI_ACTIVITY_KIND_MEMSET", k_memset);
	if (any[D_SYNC])
		create("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", k_sync);
	if (runtime)
		create("CUPTI_ACTIVITY_KIND_RUNTIME", k_runtime);
	if (any[D_NVTX] || G->domains.n)
		create("NVTX_EVENTS", k_nvtx);
	struct ins ik = { 0 }, im = { 0 }, is = { 0 }, iy = { 0 }, ir = { 0 };
	sqlite3_stmt *nv = NULL;
	if (any[D_KERNEL])
		prepare_ins(&ik, "CUPTI_ACTIVITY_KIND_KERNEL", c_kernel, 21);
	if (any[D_MEMCPY])
		prepare_ins(&im, "CUPTI_ACTIVITY_KIND_MEMCPY", c_memcpy, 11);
	if (any[D_MEMSET])
		prepare_ins(&is, "CUPTI_ACTIVITY_KIND_MEMSET", c_memset, 10);
	if (any[D_SYNC])
		prepare_ins(&iy, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", c_sync, 9);
	if (runtime)
		prepare_ins(&ir, "CUPTI_ACTIVITY_KIND_RUNTIME", c_runtime, 7);
	if (any[D_NVTX] || G->domains.n) {
		for (size_t i = 0; i < G->domains.n; i++) {
			long long pid, id;
			char name[1024] = "";
			sscanf(G->domains.v[i], "%lld\t%lld\t%1023[^\n]", &pid, &id, name);
			char *q = sqlite3_mprintf("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) "
						  "VALUES (0, 75, %Q, %lld, %lld)", name, (long long)gtid(pid, pid), id);
			exec(q);
			sqlite3_free(q);
		}
		if (sqlite3_prepare_v2(G->db,
				       "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, text, globalTid, textId, "
				       "domainId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				       -1, &nv, NULL))
			die("sqlite: %s", sqlite3_errmsg(G->db));
	}
	/* the timeline: one period holds every directive's repeats; scale repeats the period */
	int64_t period = 0;
	for (size_t i = 0; i < G->dirs.n; i++) {
		const struct dir *r = &G->dirs.v[i];
		int64_t end = r->at + (r->repeat - 1) * r->every + r->dur;
		if (end > period)
			period = end;
	}
	period += 10000;
	int64_t (*corr)[2] = NULL, rid = 0; /* {pid, last correlation id} */
	size_t ncorr = 0, ccap = 0;
	for (int64_t s = 0; s < scale; s++) {
		for (size_t i = 0; i < G->dirs.n; i++) {
			const struct dir *r = &G->dirs.v[i];
			for (int64_t k = 0; k < r->repeat; k++) {
				int64_t t = s * period + r->at + k * r->every;
				if (r->kind == D_NVTX) {
					sqlite3_bind_int64(nv, 1, t);
					if (r->nvtx_type == 34 || r->open)
						sqlite3_bind_null(nv, 2);
					else
						sqlite3_bind_int64(nv, 2, t + r->dur);
					sqlite3_bind_int64(nv, 3, r->nvtx_type);
					if (r->nvtx_type == 60)
						sqlite3_bind_int64(nv, 4, ++rid);
					else
						sqlite3_bind_null(nv, 4);
					if (r->name > 0)
						sqlite3_bind_null(nv, 5);
					else
						sqlite3_bind_text(nv, 5, r->text, -1, SQLITE_STATIC);
					sqlite3_bind_int64(nv, 6, gtid(r->pid, r->tid));
					if (r->name > 0)
						sqlite3_bind_int64(nv, 7, r->name);
					else
						sqlite3_bind_null(nv, 7);
					if (r->domain)
						sqlite3_bind_int64(nv, 8, r->domain);
					else
						sqlite3_bind_null(nv, 8);
					if (sqlite3_step(nv) != SQLITE_DONE)
						die("sqlite: %s", sqlite3_errmsg(G->db));
					sqlite3_reset(nv);
					continue;
				}
				/* correlation ids count per process, as CUPTI's do */
				size_t pi = 0;
				while (pi < ncorr && corr[pi][0] != r->pid)
					pi++;
				if (pi == ncorr) {
					pt_xgrow((void **)&corr, &ccap, ncorr + 1, sizeof(*corr));
					corr[ncorr][0] = r->pid;
					corr[ncorr++][1] = 0;
				}
				int64_t c = ++corr[pi][1];
				if (r->api) {
					int64_t a0 = r->kind == D_API ? t : t - r->api_lead;
					int64_t ad = r->kind == D_API ? r->dur : r->api_dur;
					int64_t v[] = { a0, a0 + ad, r->cls, gtid(r->pid, r->tid), c, r->api, 0 };
					put(&ir, v, 7);
				}
				int64_t gp = gtid(r->pid, 0);
				if (r->kind == D_KERNEL) {
					int64_t v[] = { t, t + r->dur, r->device, 1, r->stream, c, gp, r->name, r->name, 32,
							r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2],
							0, 0, 0, 0, c };
					put(&ik, v, 21);
				} else if (r->kind == D_MEMCPY) {
					int64_t v[] = { t, t + r->dur, r->device, 1, r->stream, c, gp, r->bytes, r->kind2, r->src,
							r->dst };
					put(&im, v, 11);
				} else if (r->kind == D_MEMSET) {
					int64_t v[] = { t, t + r->dur, r->device, 1, r->stream, c, gp, 0, r->bytes, r->kind2 };
					put(&is, v, 10);
				} else if (r->kind == D_SYNC) {
					int64_t v[] = { t, t + r->dur, r->device, 1, r->stream, c, gp, r->kind2, 0 };
					put(&iy, v, 9);
				}
			}
		}
	}
	free(corr);
	sqlite3_finalize(ik.st);
	sqlite3_finalize(im.st);
	sqlite3_finalize(is.st);
	sqlite3_finalize(iy.st);
	sqlite3_finalize(ir.st);
	sqlite3_finalize(nv);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(G->db, "INSERT INTO StringIds VALUES (?, ?)", -1, &st, NULL))
		die("sqlite: %s", sqlite3_errmsg(G->db));
	for (size_t i = 0; i < G->strs.n; i++) {
		sqlite3_bind_int64(st, 1, (int64_t)i + 1);
		sqlite3_bind_text(st, 2, G->strs.v[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("sqlite: %s", sqlite3_errmsg(G->db));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec("COMMIT");
	for (size_t i = 0; i < G->sql.n; i++)
		exec(G->sql.v[i]);
}

static const char *usage =
	"Usage: proftool-gen nsys DESC -o OUT.sqlite [--scale N]\n"
	"writes an Nsight Systems SQLite export (nsys export --type sqlite) from a description\n"
	"(tests/gen/README.md, \"Nsight Systems exports\"); --scale N repeats the timeline N times\n";

int gen_nsys_main(int argc, char **argv)
{
	const char *desc = NULL, *out = NULL;
	int64_t scale = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
			scale = num(argv[++i]);
		} else if (!desc && argv[i][0] != '-') {
			desc = argv[i];
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!desc || !out || scale < 1) {
		fputs(usage, stderr);
		return 2;
	}
	struct ng g;
	memset(&g, 0, sizeof(g));
	G = &g;
	g.file = desc;
	FILE *in = fopen(desc, "r");
	if (!in)
		die("cannot open '%s'", desc);
	parse(in);
	fclose(in);
	g.line = 0;
	char *tmp = pt_xasprintf("%s.tmp.%d", out, (int)getpid());
	unlink(tmp);
	if (sqlite3_open(tmp, &g.db) != SQLITE_OK)
		die("cannot create '%s': %s", tmp, sqlite3_errmsg(g.db));
	write_db(scale);
	if (sqlite3_close(g.db) != SQLITE_OK)
		die("cannot write '%s'", tmp);
	if (rename(tmp, out))
		die("cannot rename '%s' to '%s'", tmp, out);
	free(tmp);
	for (size_t i = 0; i < g.strs.n; i++)
		free(g.strs.v[i]);
	pt_vec_free(&g.strs);
	for (size_t i = 0; i < g.dirs.n; i++)
		free(g.dirs.v[i].text);
	pt_vec_free(&g.dirs);
	char **vs[] = { g.omit.v, g.sql.v, g.procs.v, g.threads.v, g.gpus.v, g.domains.v };
	size_t ns[] = { g.omit.n, g.sql.n, g.procs.n, g.threads.n, g.gpus.n, g.domains.n };
	for (int k = 0; k < 6; k++) {
		for (size_t i = 0; i < ns[k]; i++)
			free(vs[k][i]);
		free(vs[k]);
	}
	return 0;
}
