/*
 * The CUPTIDMP writer (cupti.md §1, §4, §5.5, §5.9), free of CUDA: chunk
 * framing, the string and blob id tables, the in-place pointer rewrite of
 * activity buffers and the stride table. The collector drives it from CUPTI's
 * callbacks; unit tests and the generator drive it directly. Thread-safe: one
 * mutex guards the tables, the counters and the file descriptor; dependent
 * chunks go out in one write so that chunks never interleave.
 */
#ifndef PT_CUPTI_CDUMP_WRITER_H
#define PT_CUPTI_CDUMP_WRITER_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cupti/cdump.h"
#include "support/hashmap.h"
#include "support/strtab.h"

struct pt_cdump_kind {
	uint32_t stride;         /* probed stride, 0 = rejected/absent */
	uint32_t struct_version;
	uint32_t flags;          /* PT_CDUMP_K_* */
	uint32_t layout_size;    /* size of the struct whose pointer slots are rewritten, 0 = none */
};

struct pt_cdump_header_info {
	uint32_t cupti_runtime_version, cupti_header_version, cuda_driver_version, pid;
	uint64_t start_realtime_ns, flags;
};

struct pt_cdump_writer {
	pthread_mutex_t lock;
	int fd;              /* -1 after a failure or close */
	bool closed, failed;
	uint32_t version;    /* CUPTI version: selects the layout range of the rewrite */
	struct pt_cdump_kind kinds[PT_CK__MAX];
	bool kind_table_written;
	uint64_t seq, n_records;
	struct pt_strtab strings;  /* string id = strtab id (0 = NULL / "") */
	size_t strings_emitted;
	struct pt_strtab blobs;
	size_t blobs_emitted;
	struct pt_hashmap ptr_cache; /* pointer -> string id */
	struct pt_hashmap tids;      /* thread ids already named */
	uint64_t dropped[PT_CDUMP_D__N];
	uint64_t strings_cut;        /* strings longer than the cap */
	size_t string_cap;           /* 64 KiB */
	/* Thread name for a new tid (procfs in the collector); NULL = none. Called under the lock. */
	bool (*thread_name)(uint32_t tid, char *buf, size_t n, void *arg);
	void *thread_name_arg;
	uint8_t *scratch;
	size_t scratch_cap;
};

/* Take over fd (opened by the caller) and write the 64-byte header. Returns 0 or -1 (errno set). */
int pt_cdump_writer_open(struct pt_cdump_writer *w, int fd, const struct pt_cdump_header_info *h);
/* Create `dir/cupti-<host>-<pid>[-N].cdump` with O_EXCL; the path goes to *path (malloc'd). -1 on error. */
int pt_cdump_create_file(const char *dir, const char *host, uint32_t pid, char **path);
/* Set a kind's table entry (before pt_cdump_writer_kind_table). */
void pt_cdump_writer_set_kind(struct pt_cdump_writer *w, uint32_t kind, uint32_t stride, uint32_t struct_version,
			      uint32_t flags);
/* Flag REWRITTEN the kinds whose stride equals a layout of the version, RAW the others (cupti.md §4 rule 5). */
void pt_cdump_writer_classify(struct pt_cdump_writer *w);
int pt_cdump_writer_kind_table(struct pt_cdump_writer *w);
/* One chunk, framed and padded; payload copied. */
int pt_cdump_writer_chunk(struct pt_cdump_writer *w, uint32_t type, const void *payload, size_t len);
int pt_cdump_writer_clock_sync(struct pt_cdump_writer *w, uint64_t cupti_ns, uint64_t realtime_ns,
			       uint64_t monotonic_ns, uint64_t uncertainty_ns, uint32_t reason);
/* PROCESS: tags[i] with strings vals[i] of lens[i] bytes. */
int pt_cdump_writer_process(struct pt_cdump_writer *w, uint32_t pid, uint32_t ppid, int32_t rank, int32_t local_rank,
			    int32_t world_size, size_t n, const uint32_t *tags, const char *const *vals,
			    const size_t *lens);
/* CBID_NAMES: n entries. */
int pt_cdump_writer_cbid_names(struct pt_cdump_writer *w, size_t n, const uint32_t *domains, const uint32_t *cbids,
			       const char *const *names);
int pt_cdump_writer_thread_name(struct pt_cdump_writer *w, uint32_t tid, const char *name);
/*
 * The buffer path: walk `valid` bytes of records with the stride table (the
 * walked prefix is kept, the rest counted as discarded), rewrite pointer slots
 * of REWRITTEN kinds in place (pointees are dereferenced: they must be live),
 * then write new STRINGS, BLOBS, THREAD_NAMES and the BUFFER in one write.
 * `flags` adds PT_CDUMP_B_FORCED. `walked`, if not NULL, is the record count a
 * walk made by the caller already (e.g. with cuptiActivityGetNextRecord):
 * UINT32_MAX = walk here.
 */
int pt_cdump_writer_buffer(struct pt_cdump_writer *w, uint8_t *buf, size_t valid, uint32_t flags,
			   uint64_t completed_realtime_ns);
/* Forget the pointer -> id cache (module unload: addresses may be reused). */
void pt_cdump_writer_clear_ptr_cache(struct pt_cdump_writer *w);
void pt_cdump_writer_add_dropped(struct pt_cdump_writer *w, unsigned which, uint64_t n);
/* DROPPED, END, close. end_realtime_ns stamps END. Idempotent. */
int pt_cdump_writer_close(struct pt_cdump_writer *w, uint64_t end_realtime_ns);
/* Free memory (after close). */
void pt_cdump_writer_free(struct pt_cdump_writer *w);

#endif
