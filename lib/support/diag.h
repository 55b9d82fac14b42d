/*
 * Warnings, counted per (file, kind) and summarised once at the end:
 *   proftool: warning: 'hwts...slice_0': skipped 3 all-zero records (first at offset 128)
 * The library never prints; the program calls pt_diag_print() at exit.
 */
#ifndef PT_DIAG_H
#define PT_DIAG_H
#include <stdint.h>
#include <stdio.h>

enum pt_pos { PT_POS_NONE, PT_POS_OFFSET, PT_POS_LINE };

struct pt_diag_entry {
	char *file;    /* may be NULL */
	char *what;    /* e.g. "skipped all-zero records" */
	enum pt_pos pos;
	uint64_t first;
	uint64_t count;
	int note;      /* 1: pt_diag_info(), printed as "proftool: note:"; 2: pt_diag_once() */
};

struct pt_diag {
	struct pt_diag_entry *v;
	size_t n, cap;
};

/* Count one occurrence of `what` in `file` at `pos` (an offset or a line). */
void pt_diag_warn(struct pt_diag *d, const char *file, const char *what, enum pt_pos kind, uint64_t pos);
/* Count `count` occurrences at once (first position given). */
void pt_diag_warn_n(struct pt_diag *d, const char *file, const char *what, enum pt_pos kind,
		    uint64_t first, uint64_t count);
/* A free-form warning, printed once however often it is given. */
void pt_diag_note(struct pt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A free-form fact the user should know, not a fault, printed once as
 * "proftool: note: ..." (coverage of the device data, issue #25 point 7). */
void pt_diag_info(struct pt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A free-form warning printed once, however often it is given (no count). */
void pt_diag_once(struct pt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print every entry as a "proftool: warning:" line, in the order first seen. */
void pt_diag_print(const struct pt_diag *d, FILE *f);
uint64_t pt_diag_total(const struct pt_diag *d);
/* The entries of from added to d, in their order, as if they had been made in d; from is emptied. */
void pt_diag_append(struct pt_diag *d, struct pt_diag *from);
void pt_diag_free(struct pt_diag *d);

#endif
