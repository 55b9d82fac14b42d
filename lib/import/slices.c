#include "import/slices.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/input.h"
#include "support/err.h"
#include "support/progress.h"
#include "support/xalloc.h"

#define RR_CHUNK (1u << 20)

void pt_slices_add(struct pt_slices *s, const char *path)
{
	s->paths = pt_xrealloc(s->paths, (s->n + 1) * sizeof(*s->paths));
	s->start = pt_xrealloc(s->start, (s->n + 2) * sizeof(*s->start));
	s->paths[s->n] = pt_xstrdup(path);
	/* where a file starts is known once the files before it have been read */
	if (!s->n)
		s->start[0] = 0;
	s->start[s->n + 1] = PT_SLICE_UNKNOWN;
	s->n++;
}

void pt_slices_free(struct pt_slices *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->start);
	memset(s, 0, sizeof(*s));
}

size_t pt_slices_locate(const struct pt_slices *s, uint64_t logical, uint64_t *off)
{
	size_t i = 0;
	while (i + 1 < s->n && s->start[i + 1] != PT_SLICE_UNKNOWN && logical >= s->start[i + 1])
		i++;
	*off = logical - s->start[i];
	return i;
}

const char *pt_slices_name(const struct pt_slices *s, size_t i)
{
	const char *p = s->paths[i], *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

uint64_t pt_slices_size(const struct pt_slices *s)
{
	uint64_t t = 0;
	struct stat st;
	for (size_t i = 0; i < s->n; i++)
		if (!stat(s->paths[i], &st))
			t += (uint64_t)st.st_size;
	return t;
}

/* A slice is a regular file (a FIFO or device is refused, never waited on); *size: its size at open. */
static int open_file(struct pt_slices *s, size_t i, int *fd, uint64_t *size, struct pt_err **e)
{
	return pt_input_open(s->paths[i], fd, size, e);
}

int pt_recreader_open(struct pt_recreader *r, struct pt_slices *s, size_t recsize, struct pt_err **e)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->recsize = recsize;
	r->fd = -1;
	r->cap = RR_CHUNK + recsize;
	r->buf = pt_xmalloc(r->cap);
	if (!s->n) {
		r->eof = true;
		return 0;
	}
	s->start[0] = 0;
	r->total = pt_progress ? pt_slices_size(s) : 0;
	return open_file(s, 0, &r->fd, &r->file_size, e);
}

/* Refill so that at least recsize bytes are buffered, unless the stream ends. */
static int refill(struct pt_recreader *r, struct pt_err **e)
{
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->buf_logical += r->pos;
		r->pos = 0;
	}
	while (!r->eof && r->len < r->recsize) {
		ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return pt_err_errno(e, errno, "cannot read '%s'", r->s->paths[r->file]);
		}
		if (n > 0) {
			if (!r->file_read)
				pt_input_test_shrink(r->s->paths[r->file]);
			r->len += (size_t)n;
			r->file_read += (uint64_t)n;
			pt_progress_report(r->s->paths[r->file], r->s->start[r->file] + r->file_read, r->total);
			continue;
		}
		/* end of this file: the next one starts here, unless it ended short of its size */
		if (r->file_read < r->file_size)
			return pt_input_shrunk(r->s->paths[r->file], r->file_read, r->file_size, e);
		close(r->fd);
		r->fd = -1;
		r->s->start[r->file + 1] = r->s->start[r->file] + r->file_read;
		r->file++;
		r->file_read = 0;
		if (r->file >= r->s->n) {
			r->eof = true;
			break;
		}
		if (open_file(r->s, r->file, &r->fd, &r->file_size, e))
			return -1;
	}
	return 0;
}

int pt_recreader_next(struct pt_recreader *r, const uint8_t **rec, uint64_t *logical, struct pt_err **e)
{
	if (r->len - r->pos < r->recsize && refill(r, e))
		return -1;
	if (r->len - r->pos < r->recsize)
		return 0;
	*rec = r->buf + r->pos;
	*logical = r->buf_logical + r->pos;
	r->pos += r->recsize;
	return 1;
}

size_t pt_recreader_tail(const struct pt_recreader *r, uint64_t *logical)
{
	*logical = r->buf_logical + r->pos;
	return r->len - r->pos;
}

void pt_recreader_close(struct pt_recreader *r)
{
	pt_progress_end();
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

int pt_slices_read_all(struct pt_slices *s, char **bufp, size_t *lenp, struct pt_err **e)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (size_t i = 0; i < s->n; i++) {
		s->start[i] = len;
		int fd;
		uint64_t size;
		if (open_file(s, i, &fd, &size, e)) {
			free(buf);
			return -1;
		}
		for (;;) {
			pt_xgrow((void **)&buf, &cap, len + 65536 + 1, 1);
			ssize_t n = read(fd, buf + len, cap - len - 1);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				int er = errno;
				close(fd);
				free(buf);
				return pt_err_errno(e, er, "cannot read '%s'", s->paths[i]);
			}
			if (!n)
				break;
			if (len == s->start[i])
				pt_input_test_shrink(s->paths[i]);
			len += (size_t)n;
		}
		close(fd);
		if (len - s->start[i] < size) {
			free(buf);
			return pt_input_shrunk(s->paths[i], len - s->start[i], size, e);
		}
		s->start[i + 1] = len;
	}
	pt_xgrow((void **)&buf, &cap, len + 1, 1);
	buf[len] = 0;
	*bufp = buf;
	*lenp = len;
	return 0;
}

void pt_textiter_init(struct pt_textiter *it, const struct pt_slices *s, const char *buf, size_t len, char sep)
{
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->buf = buf;
	it->len = len;
	it->sep = sep;
	it->line = 1;
}

/* Advance it->file/line over buf[from, to). */
static void advance(struct pt_textiter *it, size_t from, size_t to)
{
	for (size_t p = from; p < to;) {
		while (it->file + 1 < it->s->n && p >= it->s->start[it->file + 1]) {
			it->file++;
			it->line = 1;
		}
		size_t lim = to;
		if (it->file + 1 < it->s->n && it->s->start[it->file + 1] < lim)
			lim = (size_t)it->s->start[it->file + 1];
		if (it->sep == '\n') {
			const char *q = it->buf + p;
			const char *end = it->buf + lim;
			while ((q = memchr(q, '\n', (size_t)(end - q)))) {
				it->line++;
				q++;
			}
		}
		p = lim;
	}
	while (it->file + 1 < it->s->n && to >= it->s->start[it->file + 1] && it->s->start[it->file + 1] < it->len) {
		it->file++;
		it->line = 1;
	}
}

int pt_textiter_next(struct pt_textiter *it, const char **rec, size_t *reclen, size_t *file, uint64_t *pos)
{
	if (it->pos >= it->len)
		return 0;
	/* position of the record start */
	size_t start = it->pos;
	advance(it, start, start); /* settle file index for start */
	*file = it->file;
	*pos = it->sep == '\n' ? it->line : start - (size_t)it->s->start[it->file];
	const char *p = memchr(it->buf + start, it->sep, it->len - start);
	size_t end = p ? (size_t)(p - it->buf) : it->len;
	*rec = it->buf + start;
	*reclen = end - start;
	if (*reclen && it->sep == '\n' && (*rec)[*reclen - 1] == '\r')
		(*reclen)--;
	it->pos = p ? end + 1 : it->len;
	advance(it, start, it->pos);
	return 1;
}
