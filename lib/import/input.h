/*
 * Opening the files an importer reads, so that no input can hang or kill an
 * import (issue 29 items 5, 6 and 11): a FIFO, a device or a directory is
 * refused, never opened blocking; a file is read, never mapped; a file that
 * ends before the size it had when it was opened (truncated while it was
 * read) is an error naming the file and the byte where it ended.
 */
#ifndef PT_IMPORT_INPUT_H
#define PT_IMPORT_INPUT_H
#include <stdbool.h>
#include <stdint.h>

struct pt_err;
struct pt_diag;

/*
 * Open path for reading: O_NONBLOCK until fstat tells it is a regular file,
 * then blocking. Anything else is refused ("'PATH' is not a regular file: a
 * FIFO"). *size: its size now. 0 or -1 (with *e).
 */
int pt_input_open(const char *path, int *fd, uint64_t *size, struct pt_err **e);
/*
 * What path is when it is not a regular file (following symbolic links):
 * "a directory", "a FIFO", "a device", "a socket", "a dangling symbolic
 * link", ... NULL for a regular file.
 */
const char *pt_input_not_regular(const char *path);
/* The same, and *is_dir (may be NULL): whether it is a directory. */
const char *pt_input_what(const char *path, bool *is_dir);
/* A directory walk skips entry path, which names an input but is not a regular file: a warning. */
void pt_input_skip(struct pt_diag *diag, const char *path, const char *what);
/* The error for a file that ended at byte `at`, short of the `size` bytes it had when opened. */
int pt_input_shrunk(const char *path, uint64_t at, uint64_t size, struct pt_err **e);
/*
 * A test hook, for the regression tests of truncation during import: with
 * PT_TEST_SHRINK_TO=N in the environment, the first call on a file longer
 * than N bytes truncates it to N (importers call it after their first read
 * of a file). Does nothing otherwise.
 */
void pt_input_test_shrink(const char *path);

#endif
