/*
 * The Nsight Systems / nvprof SQLite importer's shared state (import-nsys.c:
 * the nsys layout and the file; import-nsys-nvprof.c: nvprof's tables).
 * Internal to those two files; the importer is pt_import_nsys() (registry.h).
 */
#ifndef PT_IMPORT_NSYS_H
#define PT_IMPORT_NSYS_H
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "support/vec.h"

struct pt_cjoin;
struct pt_diag;
struct pt_err;

#define NS_MAXCOLS 24

/* NVTX_EVENTS.eventType values (the schema reference's NvtxEventType). */
enum { NVTX_CATEGORY = 33, NVTX_MARK = 34, NVTX_THREAD = 39, NVTX_PUSHPOP = 59, NVTX_STARTEND = 60,
       NVTX_DOMAIN_CREATE = 75 };

struct proc {
	uint32_t pid;
	uint32_t cpu; /* CPU device index */
	struct pt_cjoin *join;
	PT_VEC(struct pt_cjoin_range) ranges;
};

struct nvtx {
	int64_t start, end; /* end < start: none (unterminated) */
	int64_t rowid, range_id;
	uint32_t proc, track, name, domain, flags, order;
	bool thread;
};

struct gpuinfo {
	int64_t id, mem, sms, ccmaj, ccmin, bw;
	char *name;
};

struct ns {
	struct pt_model *m;
	const char *path;
	struct pt_diag *diag;
	struct pt_err **e;
	sqlite3 *db;
	const char *table; /* the table being read, for messages */
	int64_t rowid;
	int64_t base;
	bool has_base;
	bool nvprof; /* nvprof's layout (StringTable, _id_, cbid, processId/threadId, MARKER) */
	/* StringIds: nsys id -> index + 1 in strs; model string id + 1 once used */
	struct pt_hashmap sid;
	PT_VEC(char *) strs;
	PT_VEC(uint32_t) strlen_;
	PT_VEC(uint32_t) msid;
	int64_t last_sid;
	uint32_t last_msid;
	/* processes, devices, tracks */
	PT_VEC(struct proc) procs;
	struct pt_hashmap pidx;   /* pid -> procs index + 1 */
	uint32_t last_pid, last_proc; /* last_proc: index + 1 */
	struct pt_hashmap gpu;    /* pid << 32 | deviceId -> device index */
	struct pt_hashmap tracks; /* device << 40 | kind << 36 | stream -> track index */
	uint64_t last_key;
	uint32_t last_track;
	PT_VEC(uint32_t) host_tracks;
	struct pt_hashmap pnames; /* pid -> nsys string index + 1 (PROCESSES.name, kept here) */
	PT_VEC(char *) pname_s;
	struct pt_hashmap tnames; /* pid << 32 | tid -> nsys string id + 1 */
	PT_VEC(struct gpuinfo) gpus;
	uint8_t copy_map[64], mem_map[64]; /* nsys enum value -> CUPTI's */
	uint32_t copy_names[11 * 9 * 9 + 9];
	uint32_t sync_names[5];
	PT_VEC(struct nvtx) nvtx;
	int64_t max_time;
	/* counters */
	uint64_t n_rows, n_imported, n_other_class, n_neg, n_untimed, n_no_pid, n_nvtx_other;
	uint64_t n_nvtx_unterminated, n_nvtx_end_before_start;
};

enum gk { G_KERNEL, G_MEMCPY, G_MEMSET, G_SYNC };

int pt_nsys_fail(struct ns *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* SELECT rowid, cols... FROM table ('!' before a name: required): 1 absent table, 0 *out, -1 error. */
int pt_nsys_query(struct ns *s, const char *table, const char *const *cols, int n, const char *tail,
		  sqlite3_stmt **out);
/* Column i (after rowid) as an integer: true; false when NULL; anything else an error in *bad. */
bool pt_nsys_col_int(struct ns *s, sqlite3_stmt *st, int i, const char *name, int64_t *v, bool *bad);
/* The next row: 1, 0 at the end, -1 on an error. */
int pt_nsys_step(struct ns *s, sqlite3_stmt *st);
/* The model string of string id `id` (StringIds, nvprof: StringTable); -1 when it lacks it. */
int pt_nsys_str_of(struct ns *s, int64_t id, const char *what, uint32_t *out);
/* Stored times to model times; false (counted) when out of range or reversed. */
bool pt_nsys_times(struct ns *s, int64_t start, int64_t end, int64_t *t0, int64_t *dur);
struct proc *pt_nsys_proc_of(struct ns *s, uint32_t pid);
uint32_t pt_nsys_track(struct ns *s, uint32_t dev, enum pt_track_kind kind, int64_t stream);
/* GPU rows of one kind from `table` (NULL: the kind's nsys table). */
int pt_nsys_read_gpu(struct ns *s, enum gk kind, const char *table);

/* nvprof (import-nsys-nvprof.c) */
int pt_nvprof_devices(struct ns *s);
int pt_nvprof_calls(struct ns *s, bool drv);
int pt_nvprof_markers(struct ns *s);

#endif
