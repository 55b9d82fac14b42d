/* Opening the files an importer reads (see input.h). */
#define _GNU_SOURCE
#include "import/input.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/diag.h"
#include "support/err.h"

static const char *mode_name(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

int pt_input_open(const char *path, int *fd, uint64_t *size, struct pt_err **e)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return pt_err_errno(e, errno, "cannot open '%s'", path);
	struct stat st;
	if (fstat(*fd, &st)) {
		int er = errno;
		close(*fd);
		*fd = -1;
		return pt_err_errno(e, er, "cannot read '%s'", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		return pt_err(e, "'%s' is not a regular file: %s", path, mode_name(st.st_mode));
	}
	int fl = fcntl(*fd, F_GETFL);
	if (fl != -1)
		(void)fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK);
	*size = (uint64_t)st.st_size;
	return 0;
}

const char *pt_input_not_regular(const char *path)
{
	return pt_input_what(path, NULL);
}

const char *pt_input_what(const char *path, bool *is_dir)
{
	struct stat st;
	if (is_dir)
		*is_dir = false;
	if (!stat(path, &st)) {
		if (is_dir)
			*is_dir = S_ISDIR(st.st_mode);
		return S_ISREG(st.st_mode) ? NULL : mode_name(st.st_mode);
	}
	int er = errno;
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return er == ELOOP ? "a symbolic link loop" : "a dangling symbolic link";
	return "not readable";
}

void pt_input_skip(struct pt_diag *diag, const char *path, const char *what)
{
	char b[96];
	snprintf(b, sizeof(b), "not a regular file (%s): skipped", what ? what : "it changed while listed");
	pt_diag_warn(diag, path, b, PT_POS_NONE, 0);
}

int pt_input_shrunk(const char *path, uint64_t at, uint64_t size, struct pt_err **e)
{
	return pt_err(e, "'%s': file shrank while it was read: it ends at byte %" PRIu64 ", %" PRIu64
		      " bytes when opened", path, at, size);
}

void pt_input_test_shrink(const char *path)
{
	static int done;
	const char *v = getenv("PT_TEST_SHRINK_TO");
	if (done || !v || !*v)
		return;
	off_t to = (off_t)strtoull(v, NULL, 10);
	struct stat st;
	if (stat(path, &st) || st.st_size <= to) /* only a file it shrinks */
		return;
	done = 1;
	if (truncate(path, to))
		(void)0; /* the test that set it sees no shrink and fails */
}
