#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "fmt.h"
#include "xalloc.h"

#define OUT_BUF (256 * 1024)

void pt_out_init_fd(struct pt_out *o, int fd, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->name = pt_xstrdup(name);
	o->cap = OUT_BUF;
	o->buf = pt_xmalloc(o->cap);
}

/* What path is for writing: standard output, an existing device, FIFO or
 * socket (written in place), a directory (an error), else a file to create. */
enum target { T_STDOUT, T_IN_PLACE, T_DIR, T_FILE };

static enum target target_of(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return T_STDOUT;
	if (stat(path, &st) || S_ISREG(st.st_mode))
		return T_FILE;
	return S_ISDIR(st.st_mode) ? T_DIR : T_IN_PLACE;
}

bool pt_out_is_stream(const char *path)
{
	enum target t = target_of(path);
	return t == T_STDOUT || t == T_IN_PLACE;
}

int pt_out_open(struct pt_out *o, const char *path, struct pt_err **e)
{
	switch (target_of(path)) {
	case T_STDOUT:
		pt_out_init_fd(o, 1, "standard output");
		return 0;
	case T_DIR:
		return pt_err(e, "cannot create '%s': it is a directory", path);
	case T_IN_PLACE: {
		/* A device, FIFO or socket (e.g. /dev/full, /dev/stdout) is written in
		 * place: a temporary file beside it must never be renamed over it. */
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return pt_err_errno(e, errno, "cannot open '%s'", path);
		pt_out_init_fd(o, fd, path);
		o->own_fd = true;
		return 0;
	}
	case T_FILE:
		break;
	}
	char *tmp = pt_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int er = errno;
		free(tmp);
		return pt_err_errno(e, er, "cannot create '%s'", path);
	}
	pt_out_init_fd(o, fd, path);
	o->own_fd = true;
	o->tmp_path = tmp;
	o->final_path = pt_xstrdup(path);
	return 0;
}

static void drain(struct pt_out *o, const char *p, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			return;
		}
		p += w;
		n -= (size_t)w;
		o->written += (uint64_t)w;
	}
}

void pt_out_write(struct pt_out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->len + n > o->cap) {
		drain(o, o->buf, o->len);
		o->len = 0;
		if (n >= o->cap) {
			drain(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void pt_out_puts(struct pt_out *o, const char *s)
{
	pt_out_write(o, s, strlen(s));
}

void pt_out_putc(struct pt_out *o, char c)
{
	if (o->len < o->cap)
		o->buf[o->len++] = c;
	else
		pt_out_write(o, &c, 1);
}

void pt_out_printf(struct pt_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		pt_out_write(o, small, (size_t)n);
		return;
	}
	char *big = pt_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pt_out_write(o, big, (size_t)n);
	free(big);
}

void pt_out_i64(struct pt_out *o, int64_t v)
{
	char b[24];
	pt_out_write(o, b, pt_fmt_i64(b, v));
}

void pt_out_u64(struct pt_out *o, uint64_t v)
{
	char b[24];
	pt_out_write(o, b, pt_fmt_u64(b, v));
}

int pt_out_flush(struct pt_out *o, struct pt_err **e)
{
	drain(o, o->buf, o->len);
	o->len = 0;
	if (o->err)
		return pt_err_errno(e, o->err, "cannot write %s%s%s", o->own_fd ? "'" : "", o->name,
				    o->own_fd ? "'" : "");
	return 0;
}

static void release(struct pt_out *o)
{
	free(o->buf);
	free(o->name);
	free(o->tmp_path);
	free(o->final_path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int pt_out_commit(struct pt_out *o, struct pt_err **e)
{
	int rc = pt_out_flush(o, e);
	if (o->own_fd) {
		if (!rc && close(o->fd) < 0)
			rc = pt_err_errno(e, errno, "cannot write '%s'", o->name);
		else if (rc)
			close(o->fd);
		if (!rc && o->tmp_path && rename(o->tmp_path, o->final_path) < 0)
			rc = pt_err_errno(e, errno, "cannot rename '%s' to '%s'", o->tmp_path, o->final_path);
		if (rc && o->tmp_path)
			unlink(o->tmp_path);
	}
	release(o);
	return rc;
}

void pt_out_abort(struct pt_out *o)
{
	if (o->own_fd) {
		close(o->fd);
		if (o->tmp_path)
			unlink(o->tmp_path);
	}
	release(o);
}
