/*
 * The slices of one file kind form one logical byte stream (ascend.md §1.3).
 * Readers here stream them in slice order and map any logical offset back to
 * the physical file and offset (or line) for diagnostics.
 */
#ifndef PT_SLICES_H
#define PT_SLICES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;

#define PT_SLICE_UNKNOWN UINT64_MAX

struct pt_slices {
	char **paths;    /* in slice order */
	uint64_t *start; /* logical offset where each file begins; PT_SLICE_UNKNOWN until
			  * the files before it have been read */
	size_t n;
};

void pt_slices_add(struct pt_slices *s, const char *path);
void pt_slices_free(struct pt_slices *s);
/* Physical file index and offset of a logical offset (files read so far). */
size_t pt_slices_locate(const struct pt_slices *s, uint64_t logical, uint64_t *off);
/* Base name of slice i (for messages). */
const char *pt_slices_name(const struct pt_slices *s, size_t i);
/* Total size of all files (stat), 0 for none. */
uint64_t pt_slices_size(const struct pt_slices *s);

/* Fixed-size records over the logical stream; records may straddle slices. */
struct pt_recreader {
	struct pt_slices *s;
	size_t recsize;
	size_t file;       /* index of the file being read */
	int fd;
	uint8_t *buf;
	size_t cap, len, pos;
	uint64_t buf_logical; /* logical offset of buf[0] */
	uint64_t file_read;   /* bytes read from the current file */
	uint64_t file_size;   /* its size when opened: ending before it is an error */
	uint64_t total;       /* size of all files at open, for progress */
	bool eof;
};

int pt_recreader_open(struct pt_recreader *r, struct pt_slices *s, size_t recsize, struct pt_err **e);
/*
 * Next record: returns 1 and sets *rec (recsize bytes, valid until the next
 * call) and *logical (its logical offset); 0 at the end of the stream; -1 on a
 * read error. At the end, pt_recreader_tail() tells the length of a trailing
 * partial record (0 if none) and its logical offset.
 */
int pt_recreader_next(struct pt_recreader *r, const uint8_t **rec, uint64_t *logical, struct pt_err **e);
size_t pt_recreader_tail(const struct pt_recreader *r, uint64_t *logical);
void pt_recreader_close(struct pt_recreader *r);

/* Read the whole logical stream into memory (text formats; NUL-terminated buffer). */
int pt_slices_read_all(struct pt_slices *s, char **buf, size_t *len, struct pt_err **e);

/*
 * Records of a text stream separated by `sep` ('\n' or '\0'), over a buffer
 * from pt_slices_read_all. A record split across slices is joined. Each record
 * reports the physical file and the 1-based line number where it starts
 * (for '\0' streams: the byte offset in that file instead).
 */
struct pt_textiter {
	const struct pt_slices *s;
	const char *buf;
	size_t len, pos;
	char sep;
	size_t file;      /* file of pos */
	uint64_t line;    /* line number of pos in that file */
};

void pt_textiter_init(struct pt_textiter *it, const struct pt_slices *s, const char *buf, size_t len, char sep);
/* Next record (without separator, without a trailing '\r'); 0 at end. */
int pt_textiter_next(struct pt_textiter *it, const char **rec, size_t *reclen, size_t *file, uint64_t *pos);

#endif
