#include "model/ptm-source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "model/ptm.h"
#include "support/err.h"
#include "support/xalloc.h"

static bool in_again; /* pt_ptm_stdin_spool() made standard input readable again */

const char *pt_ptm_source_name(const struct pt_ptm_source *s)
{
	return !strcmp(s->path, "-") ? "standard input" : s->path;
}

bool pt_ptm_source_once(const struct pt_ptm_source *s)
{
	return !strcmp(s->path, "-") && !in_again;
}

int pt_ptm_source_read(const struct pt_ptm_source *s, struct pt_model *m, const struct pt_ptm_sink *sink,
		       struct pt_err **e)
{
	return pt_ptm_source_read_cols(s, m, sink, 0, e);
}

struct tapped {
	const struct pt_ptm_tap *tap;
	const struct pt_ptm_sink *sink;
};

static int tapped_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct tapped *t = arg;
	/* the range infos a tap takes (PT_PTM_RANGES_BATCHWISE: it empties them) are the sink's too; taken
	 * by either, they go */
	size_t nr = m->ranges.n;
	t->tap->batch(t->tap->arg, m);
	bool took = nr && !m->ranges.n;
	m->ranges.n = nr;
	int rc = t->sink->batch(t->sink->arg, m, e);
	if (took)
		m->ranges.n = 0;
	return rc;
}

int pt_ptm_source_read_cols(const struct pt_ptm_source *s, struct pt_model *m, const struct pt_ptm_sink *sink,
			    unsigned skip_cols, struct pt_err **e)
{
	if (s->tap && s->tap->begin(s->tap->arg, m, sink->events_only)) {
		struct pt_ptm_source plain = { .path = s->path, .tape = s->tape };
		struct tapped t = { s->tap, sink };
		struct pt_ptm_sink both = *sink;
		both.batch = tapped_batch;
		both.arg = &t;
		int rc = pt_ptm_source_read_cols(&plain, m, &both, 0, e);
		size_t nr = m->ranges.n; /* (the last range infos: the caller's too) */
		s->tap->end(s->tap->arg, rc);
		m->ranges.n = nr;
		return rc;
	}
	if (pt_ptm_source_once(s))
		return pt_ptm_read_stream_fd_cols(0, pt_ptm_source_name(s), m, sink, skip_cols, e);
	return pt_ptm_read_stream_tape(s->path, m, sink, skip_cols, s->tape, e);
}

/* ------------------------------------------------------------------ standard input read again */

static off_t in_start; /* where its reads start */

bool pt_ptm_stdin_again(void)
{
	return in_again;
}

/* A descriptor of its own reading the file of descriptor src from offset at: a description of its own
 * (the kernel reopens the file, deleted or not), else a shared one; -1 with errno set. */
static int reopen_at(int src, off_t at)
{
	char proc[32];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", src);
	int fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = fcntl(src, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0 && lseek(fd, at, SEEK_SET) != at) {
		int er = errno;
		close(fd);
		errno = er;
		return -1;
	}
	return fd;
}

int pt_ptm_stdin_open(void)
{
	return reopen_at(0, in_start);
}

/* An unlinked file of dir to write, -1 when none can be made. */
static int spool_file(const char *dir, const char *tag)
{
	int fd;
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	char *p = pt_xasprintf("%s/proftool-%s-XXXXXX", dir, tag);
	fd = mkstemp(p);
	if (fd >= 0) {
		unlink(p);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	free(p);
	return fd;
}

int pt_ptm_stdin_spool(const char *dir, unsigned long long *bytes, struct pt_err **e)
{
	*bytes = 0;
	if (in_again)
		return 1;
	struct stat st;
	if (fstat(0, &st))
		return pt_err_errno(e, errno, "cannot read standard input");
	if (S_ISREG(st.st_mode)) {
		off_t at = lseek(0, 0, SEEK_CUR);
		if (at >= 0) {
			in_start = at;
			in_again = true;
			return 1;
		}
	}
	int fd = spool_file(dir, "stdin");
	if (fd < 0)
		return 0;
	enum { BUF = 1 << 20 };
	char *buf = pt_xmalloc(BUF);
	int rc = 0;
	for (;;) {
		ssize_t n = read(0, buf, BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = pt_err_errno(e, errno, "cannot read standard input (at byte %llu)", *bytes);
			break;
		}
		if (!n)
			break;
		for (ssize_t w = 0; w < n;) {
			ssize_t k = write(fd, buf + w, (size_t)(n - w));
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				rc = pt_err_errno(e, errno,
						  "cannot copy standard input to a temporary file in '%s' (TMPDIR) to read it "
						  "again (at byte %llu)",
						  dir, *bytes + (unsigned long long)w);
				break;
			}
			w += k;
		}
		if (rc)
			break;
		*bytes += (unsigned long long)n;
	}
	free(buf);
	if (!rc && dup2(fd, 0) < 0)
		rc = pt_err_errno(e, errno, "cannot read standard input again");
	close(fd);
	if (rc)
		return -1;
	in_start = 0;
	in_again = true;
	return 1;
}

/* ------------------------------------------------------------------ stand-ins */

static struct standin {
	char *path;
	int fd;
} *standins;
static size_t nstandins;

int pt_ptm_standin_file(const char *dir)
{
	return spool_file(dir, "model");
}

void pt_ptm_standin_set(const char *path, int fd)
{
	standins = pt_xrealloc(standins, (nstandins + 1) * sizeof(*standins));
	standins[nstandins++] = (struct standin){ pt_xstrdup(path), fd };
}

static const struct standin *standin_of(const char *path)
{
	for (size_t i = 0; i < nstandins; i++)
		if (!strcmp(standins[i].path, path))
			return &standins[i];
	return NULL;
}

bool pt_ptm_standin_has(const char *path)
{
	return standin_of(path) != NULL;
}

int pt_ptm_standin_open(const char *path)
{
	const struct standin *s = standin_of(path);
	return s ? reopen_at(s->fd, 0) : -2;
}
