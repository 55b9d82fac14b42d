/*
 * Errors with cause chains. A function that fails returns -1 and pushes a
 * message with pt_err(); each caller may push its own context on top. The
 * chain prints outermost first, joined by ": ":
 *   cannot import 'JOB3': step trace 'x.slice_0': truncated record at byte 167440
 */
#ifndef PT_ERR_H
#define PT_ERR_H

struct pt_err {
	char *msg;
	struct pt_err *cause;
};

/* Push a message onto *e (which may be NULL). Always returns -1. */
int pt_err(struct pt_err **e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Push strerror(errno) style cause: "<msg>: <strerror(errnum)>". Returns -1. */
int pt_err_errno(struct pt_err **e, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The whole chain as one newly allocated line. */
char *pt_err_str(const struct pt_err *e);
void pt_err_free(struct pt_err *e);

#endif
