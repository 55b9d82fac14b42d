/*
 * Buffered output to a file descriptor that remembers the first write error,
 * so that a full disk or a closed pipe is reported, never a silent exit 0.
 * pt_out_open() writes a file through a temporary "<file>.tmp.<pid>" beside
 * it and only pt_out_commit() renames it into place: a failed run leaves no
 * partial file. A symbolic link is followed (its target is replaced, keeping
 * the target's mode and, where allowed, owner); a device, FIFO or socket, a
 * link to one, and a name of one of our descriptors (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, whatever it points to) are written in place: nothing is
 * ever created beside them. With pt_out_cleanup_on_signals() a fatal signal removes
 * the temporaries before the process dies of it, and opening a file removes
 * the temporaries of the same name that processes no longer running left.
 */
#ifndef PT_OUT_H
#define PT_OUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_err;
struct tmp_node;

struct pt_out {
	int fd;
	bool own_fd;
	char *buf;
	size_t len, cap;
	int err;          /* first errno seen, 0 if none */
	char *name;       /* for messages: path or "standard output" */
	char *tmp_path;   /* atomic mode: the temporary file */
	char *final_path; /* atomic mode: the file replaced (a symbolic link's target) */
	struct tmp_node *tmp_reg; /* atomic mode: the temporary's entry for the signal handler */
	uint64_t written; /* bytes handed to the kernel */
};

void pt_out_init_fd(struct pt_out *o, int fd, const char *name);
/* A reader that closes the pipe being written (`proftool ... | head -1`): with a handler
 * set, a write failing with EPIPE calls it instead of recording an error; main() sets one
 * that ends the process quietly. pt_out_remove_temporaries() unlinks every temporary file
 * still open (async-signal-safe), for such a handler. */
void pt_out_on_broken_pipe(void (*handler)(void));
void pt_out_remove_temporaries(void);
/* Install handlers of the catchable fatal signals (SIGHUP, SIGINT, SIGQUIT,
 * SIGTERM, SIGUSR1/2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF; not those
 * ignored at start) that remove every open temporary file, then die of the
 * signal with its default action. For main(), once. */
void pt_out_cleanup_on_signals(void);
/* "-" means standard output. Otherwise create path atomically. */
int pt_out_open(struct pt_out *o, const char *path, struct pt_err **e);
/* Is path written in place as one stream: "-", or an existing device, FIFO or
 * socket (/dev/null, /dev/stdout, a pipe)? Nothing can be created beside it. */
bool pt_out_is_stream(const char *path);
/* Is path a directory to write files into: it ends in '/' or is an existing
 * directory (or a link to one)? */
bool pt_out_is_dir(const char *path);
/* Make sure the directory path exists: create it (one level, mode 0777 less
 * the umask) when it does not; an error when something else has the name. */
int pt_out_make_dir(const char *path, struct pt_err **e);
/* "<dir>/<name><ext>" (malloc'd), one slash between dir and name. */
char *pt_out_dir_file(const char *dir, const char *name, const char *ext);
void pt_out_write(struct pt_out *o, const void *p, size_t n);
void pt_out_puts(struct pt_out *o, const char *s);
void pt_out_putc(struct pt_out *o, char c);
void pt_out_printf(struct pt_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pt_out_i64(struct pt_out *o, int64_t v);
void pt_out_u64(struct pt_out *o, uint64_t v);
/* Text for a terminal (text tables, hint text): names from a dump may hold
 * control bytes (ESC sequences that move the cursor, retitle or clear the
 * screen). C0 controls (0x00-0x1f: tab, newline, ESC...), DEL (0x7f) and the
 * UTF-8 C1 controls (0xc2 0x80-0x9f) are written as "\xHH" per byte; every
 * other byte, a backslash included, as it is. CSV and JSON keep exact bytes. */
size_t pt_text_escaped_len(const char *s, size_t n);
/* s[0..n) escaped, NUL-terminated (malloc'd); *len (if not NULL) its length. */
char *pt_text_escape(const char *s, size_t n, size_t *len);
void pt_out_text(struct pt_out *o, const char *s, size_t n);
int pt_out_flush(struct pt_out *o, struct pt_err **e);
/* Flush, close and rename into place; on any error remove the temporary file. */
int pt_out_commit(struct pt_out *o, struct pt_err **e);
/* Give up: close and remove a temporary file. */
void pt_out_abort(struct pt_out *o);

#endif
