/*
 * Applying a decoded .ptm chunk to the model (private to ptm-read.c and
 * ptm-apply.c): every index a chunk holds is checked against what the model
 * holds so far, then the chunk is appended.
 */
#ifndef PT_MODEL_PTM_APPLY_H
#define PT_MODEL_PTM_APPLY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "support/hashmap.h"
#include "proftool.pb-c.h"

struct pt_err;

struct u32buf {
	uint32_t *v;
	size_t cap;
};

struct ids {
	size_t nstrings, ndevices, ntracks, nops;
	uint64_t nevents; /* events applied so far (a streaming read keeps only the current batch) */
	struct u32buf scratch[3]; /* undelta()'s columns */
	bool batchwise;           /* a streaming read holds one event batch at a time */
	bool skip;                /* CUPTI side tables are checked, not applied (pt_ptm_sink.skip_tables) */
	bool kinds;               /* skip, and the tables will be checked: keep the pairs' codes */
	bool keep_kernels;        /* skip, but the kernel infos are applied */
	bool keep_args;           /* skip, but the event arguments are applied */
	bool keep_gpu_mem;        /* skip, but the GPU memory records and pools are applied */
	bool keep_ranges;         /* skip, but the range infos are applied */
	bool keep_tables;         /* skip, but every table is applied */
	bool pack_gpu_mem;        /* the GPU memory records go to m->gpu_mem_pack (PT_PTM_PACK_GPU_MEM) */
	bool keep_links;          /* skip, but the launch links are applied */
	bool no_links;            /* keep_tables, but the launch links are not applied (PT_PTM_TABLES_NO_MEM_LINKS) */
	bool links_batchwise;     /* keep_links, a chunk at a time (PT_PTM_LINKS_BATCHWISE) */
	bool ranges_batchwise;    /* keep_ranges, a batch at a time (PT_PTM_RANGES_BATCHWISE) */
	bool ext_batchwise;       /* keep_tables, the external correlations a chunk at a time (PT_PTM_EXT_CORR_BATCHWISE) */
	bool keep_copies;         /* skip, but the copy infos are applied */
	bool drop_launch;         /* skip: the links and copy infos are not applied, whatever else is */
	bool no_ext_corr;         /* keep_tables, but the external correlations are not applied (PT_PTM_TABLES_NO_EXT_CORR) */
	bool strings_counted;     /* skip: the strings are counted, not interned (PT_PTM_STRINGS_COUNTED) */
	uint64_t nsyncs, last_sync; /* synchronization rows checked so far, the last one's event */
	uint64_t nargs, last_arg;   /* event arguments checked so far, the last one's event */
	/* skip: the (kind, track) pair of every event read, as a code of kbits bits (1 to 32: as
	 * few as the distinct pairs so far need) into the pairs' table kpair */
	uint8_t *kcode;
	size_t kcap;
	unsigned kbits;
	struct kpair { uint32_t track; uint8_t kind; } *kpair;
	size_t nkpair, kpcap;
	struct pt_hashmap kpmap;  /* kind | track << 8 -> code */
	uint64_t klast;           /* the last pair's key and code: events come in runs */
	uint32_t klast_code;
	/* recent pairs' keys + 1 (0: none) and codes, by a hash of the key: runs of a few tracks */
	uint64_t kc_key[64];
	uint32_t kc_code[64];
	unsigned nempty;          /* chunks that added nothing (PT_PTM_MAX_EMPTY) */
	size_t expect;            /* the events TrackEvents declares (for m->events.expect) */
};

/* Chunks that refer to names, devices, tracks and ops are checked against m's. */
void pt_ptm_ids_of(struct ids *ids, const struct pt_model *m);
/* Check chunk c (body offset off in file name) against ids and apply it to m; *footer when it was the footer. */
int pt_ptm_apply(struct pt_model *m, const Proftool__Chunk *c, struct ids *ids, const char *name, uint64_t off,
		 bool *footer, uint32_t crc, struct pt_err **e);
/*
 * A StringPiece p[0, n), interned straight from the chunk's bytes (no copy
 * of every string, as protobuf-c would make). *added gets the number of
 * strings. 0, or -1 with *e set.
 */
int pt_ptm_strings_apply(struct pt_model *m, struct ids *ids, const uint8_t *p, size_t n, const char *name,
			 uint64_t off, size_t *added, struct pt_err **e);

#endif
