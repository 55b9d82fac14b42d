/*
 * The .ptm model file (man/proftool-model.5):
 *   magic "\x89PTM\r\n\x1a\n", u32 LE format version, u32 LE flags
 *   (bit 0: body is one zlib stream), then the body: Chunk messages of
 *   proto/proftool.proto, each preceded by its length as a base-128 varint.
 *   The last chunk is the Footer, with counts and a CRC-32 of the body.
 * This is the only code that packs or unpacks the model.
 */
#ifndef PT_PTM_H
#define PT_PTM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct pt_model;
struct pt_out;
struct pt_spill;

#define PT_PTM_MAGIC "\x89PTM\r\n\x1a\n"
#define PT_PTM_MAGIC_LEN 8
/* 2: correlation ids and the event indices of the CUPTI side tables are written
 * as differences within their batch (corr_delta, event_delta, ...); 1 is read too */
#define PT_PTM_VERSION 2
#define PT_PTM_FLAG_ZLIB 1u
#define PT_PTM_MAX_CHUNK (256u << 20) /* a larger length prefix is corrupt */
#define PT_PTM_EVENT_BATCH 4096       /* rows of any batch (events, samples, side tables) */
/* Limits of one chunk's length by what it holds (proftool-model(5) "Limits"),
 * checked before its bytes are read: a string piece may use PT_PTM_MAX_CHUNK,
 * a batch of rows (at most PT_PTM_EVENT_BATCH rows of at most 16 columns of
 * 10-byte varints, about 640 KiB, or the memory node batch with its id
 * lists) PT_PTM_MAX_BATCH, a chunk of a kind this reader does not know
 * (skipped) PT_PTM_MAX_OTHER, any other record (a device, a track, an op,
 * ...) PT_PTM_MAX_RECORD. TrackEvents holds six varints per track. */
#define PT_PTM_MAX_BATCH (4u << 20)
#define PT_PTM_MAX_RECORD (1u << 20)
#define PT_PTM_MAX_OTHER (16u << 20)
#define PT_PTM_MAX_STRING (1u << 20) /* bytes of one string of the string table */
#define PT_PTM_MAX_EMPTY 16          /* chunks that add nothing to the model */

/* The compressed body is one zlib stream of two parts: the chunks before the
 * first event batch, then the rest from it on. Each part is made of raw
 * deflate blocks of this many of its bytes, each ended with a sync flush
 * (support/pdeflate.h): the file's bytes depend on it, never on the number
 * of threads. A streaming import compresses the second part as it goes
 * (pt_ptm_spill_compress). */
#define PT_PTM_ZBLOCK (1u << 20)

/* Write m to o (already opened); compress with zlib level 1 unless !compress,
 * with jobs threads (<= 1: none; the bytes are the same for any number). */
int pt_ptm_write(const struct pt_model *m, struct pt_out *o, bool compress, int jobs, struct pt_err **e);
/*
 * The streaming import (`proftool import`): from pt_ptm_spill_start() on,
 * whenever m's columns are full (they hold from window to 1.5 x window
 * events, at least a batch), its whole event batches are
 * encoded as pt_ptm_write() will write them and dropped from memory (the
 * columns keep the rest: model.h, pt_events.base). pt_ptm_write() then writes
 * the same bytes as for a model that kept every event. An importer that reads
 * events it did not just add calls pt_ptm_spill_undo() first, which decodes
 * the spilled events back and stops spilling for the rest of the import.
 */
#define PT_PTM_SPILL_WINDOW (4 * PT_PTM_EVENT_BATCH)
void pt_ptm_spill_start(struct pt_model *m, size_t window);
int pt_ptm_spill_undo(struct pt_model *m, struct pt_err **e);
/* Right after pt_ptm_spill_start(), for a model to be written compressed: the
 * spilled batches go on to their compressed form at once (jobs threads), and
 * only that is kept. pt_ptm_write() then writes them as they are, once: a
 * second write of the model fails. */
void pt_ptm_spill_compress(struct pt_model *m, int jobs);
/* Right after pt_ptm_spill_compress(): the compressed batches go to an
 * unnamed temporary file in directory dir (removed when the spill is freed,
 * or at exit whatever happens) instead of memory, so that an import holds no
 * memory per event spilled. Where no file can be made there, they stay in
 * memory. A write that fails (a full disk) fails pt_ptm_write() and
 * pt_ptm_spill_inflate(), naming dir. */
void pt_ptm_spill_to_file(struct pt_model *m, const char *dir);
/* Right after pt_ptm_spill_start(), for a model only read (summary of a raw
 * dump): the plain spilled batches go, window by window, to an unnamed
 * temporary file in directory dir (removed when the spill is freed), no
 * compression; pt_ptm_spill_replay reads them back a window at a time. The
 * page cache holds the file, so the process's memory does not grow with the
 * events spilled, and no CPU goes to compressing them. False where no file can be made there: they
 * stay in memory, plain. A failed write is reported by the next read back,
 * naming dir. */
bool pt_ptm_spill_to_plain_file(struct pt_model *m, const char *dir);
/* A plain file spill (pt_ptm_spill_to_plain_file): true, with *len its bytes on file. */
bool pt_ptm_spill_plain_file(const struct pt_spill *s, uint64_t *len);
/* The bytes [off, off + n) of a plain file spill's file, or an error naming its directory. */
int pt_ptm_spill_file_read(const struct pt_spill *s, uint64_t off, uint8_t *buf, size_t n, struct pt_err **e);
/* Bring a compressing spill's batches back to their plain form (for reading
 * them back); 0, or -1 with *e set. */
int pt_ptm_spill_inflate(struct pt_spill *sp, struct pt_err **e);
/* End a compressing spill's stream so that it can be read back as it is
 * (pt_ptm_spill_replay does, once the import is over): no event spills after
 * it, and a write of the model inflates it first. 0, or -1 with *e set. */
int pt_ptm_spill_seal(struct pt_spill *sp, struct pt_err **e);
/* A sealed spill's raw deflate stream (NULL otherwise) and *plain, the bytes it inflates to. */
const uint8_t *pt_ptm_spill_zbytes(const struct pt_spill *s, size_t *len, uint64_t *plain);
/* For model.c: encode the whole batches ev holds when it holds at least the
 * window; returns how many events left the columns. */
struct pt_events;
size_t pt_ptm_spill_flush(struct pt_events *ev);
void pt_ptm_spill_free(struct pt_spill *s);
/* The spilled chunks (for pt_ptm_spill_undo). */
const uint8_t *pt_ptm_spill_bytes(const struct pt_spill *s, size_t *len);
/* Per track of m, what the writer records in TrackEvents (spilled events
 * included): an array of m->tracks.n records to free. */
struct pt_track_events *pt_ptm_track_events(const struct pt_model *m);

/* Does the file at path start with the .ptm magic? ("-" is never probed.) */
bool pt_ptm_probe(const char *path);

/*
 * Streaming read, for passes that need each event once and never the events
 * together (the summary's low-memory path). Every chunk but the event batches
 * is applied to m as pt_ptm_read() would; before each batch m->events is
 * emptied, and after it sink->batch() runs with m->events holding that batch
 * alone. All checks of a full
 * read run, footer and checksum included, except that chunks referring to
 * events by index (the CUPTI side tables) cannot be checked: the read stops
 * there and returns PT_PTM_STOP. With events_only, m must be the model a
 * previous streaming read of the same file filled; only event batches and the
 * footer are applied (the footer's counts must still match m).
 * With skip_tables, the CUPTI side tables and external correlations do not
 * stop the read: they get every check of a full read (against the events
 * read before them, of which the read keeps the (kind, track) pair as a code
 * of as few bits as the distinct pairs need: 4 to 8 bits an event for a
 * CUPTI run) and are not applied (m's tables stay empty); nor are the CUPTI
 * memory records and pools, which they check too. PT_PTM_SKIP_BUT_KERNELS
 * applies the kernel infos all the same (m->kernels, m->kernel_configs). A read that a
 * callback turns whole applies them from there, as a full read does.
 * Returns 0, -1 (error in *e), PT_PTM_STOP, or the first non-zero value a
 * callback returned (which stops the read; negative: an error set in *e).
 * A callback may instead return PT_PTM_WHOLE (for input that cannot be read
 * again, such as a pipe): that batch stays in m->events and the rest of the
 * file is read as pt_ptm_read() would, into m, without more callbacks; the
 * read then returns PT_PTM_WHOLE, or -1.
 */
#define PT_PTM_STOP 1
#define PT_PTM_WHOLE 2
struct pt_ptm_sink {
	int (*batch)(void *arg, struct pt_model *m, struct pt_err **e);
	void *arg;
	bool events_only;
	uint32_t skip_tables; /* 0, 1 (true), or PT_PTM_SKIP_BUT_* bits */
};
/*
 * pt_ptm_read_stream_cols(): the event columns that a sink's batch() never
 * reads, as PT_PTM_NO_* bits, are left undecoded and unchecked (zeros in
 * m->events; corr, op and task stay sparse). Their bytes still count in the
 * checksum and each must still hold one value per event; a read that uses
 * them checks them. Track, kind and start are always read.
 */
#define PT_PTM_NO_NAME 1
#define PT_PTM_NO_DUR 2
#define PT_PTM_NO_CORR 4
#define PT_PTM_NO_OP 8
#define PT_PTM_NO_TASK 16
/* skip_tables, but the kernel infos are applied (m->kernels), checked as a full read checks them */
#define PT_PTM_SKIP_BUT_KERNELS 2
/* skip_tables, but the event arguments are applied (m->event_args, indices of the file's events) */
#define PT_PTM_SKIP_BUT_ARGS 4
/* skip_tables, but the CUPTI memory records and pools are applied (m->gpu_mem, m->gpu_pools) */
#define PT_PTM_SKIP_BUT_GPU_MEM 8
/* skip_tables, but the range infos are applied (m->ranges, indices of the file's events) */
#define PT_PTM_SKIP_BUT_RANGES 16
/* skip_tables, but every table is applied (the events alone are not kept: a streamed dump) */
#define PT_PTM_SKIP_BUT_TABLES 32
/* skip_tables, but the launch links are applied (m->links, indices of the file's events) */
#define PT_PTM_SKIP_BUT_LINKS 64
/* with any other bit: the memory records applied go packed to m->gpu_mem_pack
 * (model/gpu-mem-pack.h, some 30 bytes a row instead of 96) instead of
 * m->gpu_mem, for the passes that read them through pt_model_gpu_mem() */
#define PT_PTM_PACK_GPU_MEM 128
/* skip_tables, but the copy infos are applied (m->copies, indices of the file's events); a sink
 * that finds during the read that it needs none clears the bit in its pt_ptm_sink: the later chunks'
 * copy infos are then not applied */
#define PT_PTM_SKIP_BUT_COPIES 256
/* with PT_PTM_SKIP_BUT_LINKS: m->links holds one chunk's links at a time, as m->events one batch:
 * emptied before each links chunk, and batch() runs after it with m->events empty (m->links.n
 * rows to take; the caller may empty it), so that no more than a chunk's links are held */
#define PT_PTM_LINKS_BATCHWISE 512
/* with PT_PTM_SKIP_BUT_TABLES: the launch tables, the launch links and the copy infos, are checked as a
 * full read checks them but not applied (m->links and m->copies stay empty), for a read that never
 * looks at them (the streamed GPU timeline); with PT_PTM_LINKS_BATCHWISE the links are handed to the
 * sink a chunk at a time all the same */
#define PT_PTM_SKIP_LAUNCH_TABLES 1024
/* with PT_PTM_SKIP_BUT_TABLES: the memory records and pools and the launch links are checked but not
 * applied (a pass that reads the other tables, such as the kineto profile's timeline) */
#define PT_PTM_TABLES_NO_MEM_LINKS 2048
/* with the range infos applied (PT_PTM_SKIP_BUT_RANGES or PT_PTM_SKIP_BUT_TABLES): m->ranges holds at most PT_PTM_EVENT_BATCH range infos at a time: once
 * it holds that many, batch() runs with m->events empty (m->ranges.n rows to take; the caller empties
 * it, else they stay; that call may not return PT_PTM_WHOLE), and the last rows are in m->ranges after
 * the read, so that a read that looks at each range info once does not hold them all */
#define PT_PTM_RANGES_BATCHWISE 4096
/* with PT_PTM_SKIP_BUT_TABLES: the external correlations are checked but not applied (m->ext_corr stays
 * empty), for a read that never looks at them (the viewer profile's streamed timeline) */
#define PT_PTM_TABLES_NO_EXT_CORR 8192
/* with PT_PTM_SKIP_BUT_TABLES: each chunk of the CUPTI side tables (kernel infos, copy infos, links,
 * external correlations, API cbids, synchronization infos, range infos, event arguments) is applied
 * alone, as PT_PTM_LINKS_BATCHWISE applies the links: those eight tables are emptied before it (the
 * kernel configurations stay) and batch() runs after it with m->events empty, so that no more than a
 * chunk's rows are held (a streamed dump) */
#define PT_PTM_TABLES_BATCHWISE 16384
/* with skip_tables: the string table is checked (a string's length, no NUL byte) and counted but not
 * interned (m->strings stays empty; the tables' string ids are checked against the count), for a read
 * that never looks at the strings' text, of a file whose table a read before holds (the caller's model) */
#define PT_PTM_STRINGS_COUNTED 32768
/* with PT_PTM_SKIP_BUT_TABLES (the external correlations applied): m->ext_corr holds one chunk's rows at
 * a time: emptied before each such chunk, and batch() runs after it with m->events empty (m->ext_corr.n
 * rows to take; the caller may empty it), so that no more than a chunk's rows are held */
#define PT_PTM_EXT_CORR_BATCHWISE 65536
int pt_ptm_read_stream(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, struct pt_err **e);
/*
 * A model file's uncompressed body kept in memory by a streaming read, for
 * the reads of the same file after it: pt_ptm_read_stream_tape() with a tape
 * that holds no body reads the file and keeps its body bytes on the tape,
 * up to limit bytes (a body that outgrows it is dropped as the read goes on,
 * and so is that of a read that fails or stops: the tape is then over, and
 * every later read reads the file); once a read has kept a whole body
 * (whole), the later reads take it from the tape instead of reading,
 * inflating and checksumming the file again. The tape's bytes were checked
 * as they were read (the footer's CRC-32 included). The caller sets limit
 * and frees the tape (pt_ptm_tape_free). With events_only set, the tape keeps
 * the event batches and the footer alone (each with its length): what a read
 * of the events alone (sink events_only) applies, and all that such a read
 * takes from it; a read that is not of the events alone reads the file.
 */
struct pt_ptm_tape {
	size_t limit; /* the most body bytes kept */
	bool events_only; /* keep the event batches and the footer alone (set by the caller) */
	uint8_t *v;
	size_t n, cap;
	uint32_t crc; /* the body's CRC-32 before its footer */
	bool whole;   /* v holds a whole body, read and checked */
	bool over;    /* the body outgrew limit, or its read failed: nothing kept */
};
int pt_ptm_read_stream_tape(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, unsigned skip_cols,
			    struct pt_ptm_tape *t, struct pt_err **e);
void pt_ptm_tape_free(struct pt_ptm_tape *t);
int pt_ptm_read_stream_cols(const char *path, struct pt_model *m, const struct pt_ptm_sink *sink, unsigned skip_cols,
			    struct pt_err **e);
/*
 * The streaming read of a model still being spilled (an import in progress,
 * pt_ptm_spill_start): its events, the spilled batches and then those still
 * held, go to sink->batch() one batch at a time as pt_ptm_read_stream()
 * gives a file's (m->events holds the batch alone), after m->track_events
 * was set as the writer would record it. A compressing spill
 * (pt_ptm_spill_compress) is sealed and inflated one batch at a time, so
 * that the replay holds no more than the compressed events. Only events are fed (sink's
 * events_only makes no difference); m's events are as before on return, so
 * it can be repeated. Returns what pt_ptm_read_stream() returns.
 */
int pt_ptm_spill_replay(struct pt_model *m, const struct pt_ptm_sink *sink, struct pt_err **e);
/* The same from an open file descriptor; name is used in messages. */
int pt_ptm_read_stream_fd(int fd, const char *name, struct pt_model *m, const struct pt_ptm_sink *sink,
			  struct pt_err **e);
int pt_ptm_read_stream_fd_cols(int fd, const char *name, struct pt_model *m, const struct pt_ptm_sink *sink,
			       unsigned skip_cols, struct pt_err **e);
/* Read a model from path ("-" = standard input). */
int pt_ptm_read(const char *path, struct pt_model **m, struct pt_err **e);
/* Read from an open file descriptor; name is used in messages. */
int pt_ptm_read_fd(int fd, const char *name, struct pt_model **m, struct pt_err **e);

#endif
