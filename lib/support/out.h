/*
 * Buffered output to a file descriptor that remembers the first write error,
 * so that a full disk or a closed pipe is reported, never a silent exit 0.
 * pt_out_open_atomic() writes to a temporary file beside the target and only
 * pt_out_commit() renames it into place: a failed run leaves no partial file.
 */
#ifndef PT_OUT_H
#define PT_OUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;

struct pt_out {
	int fd;
	bool own_fd;
	char *buf;
	size_t len, cap;
	int err;          /* first errno seen, 0 if none */
	char *name;       /* for messages: path or "standard output" */
	char *tmp_path;   /* atomic mode: the temporary file */
	char *final_path;
	uint64_t written; /* bytes handed to the kernel */
};

void pt_out_init_fd(struct pt_out *o, int fd, const char *name);
/* "-" means standard output. Otherwise create path atomically. */
int pt_out_open(struct pt_out *o, const char *path, struct pt_err **e);
/* Is path written in place as one stream: "-", or an existing device, FIFO or
 * socket (/dev/null, /dev/stdout, a pipe)? Nothing can be created beside it. */
bool pt_out_is_stream(const char *path);
void pt_out_write(struct pt_out *o, const void *p, size_t n);
void pt_out_puts(struct pt_out *o, const char *s);
void pt_out_putc(struct pt_out *o, char c);
void pt_out_printf(struct pt_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pt_out_i64(struct pt_out *o, int64_t v);
void pt_out_u64(struct pt_out *o, uint64_t v);
int pt_out_flush(struct pt_out *o, struct pt_err **e);
/* Flush, close and rename into place; on any error remove the temporary file. */
int pt_out_commit(struct pt_out *o, struct pt_err **e);
/* Give up: close and remove a temporary file. */
void pt_out_abort(struct pt_out *o);

#endif
