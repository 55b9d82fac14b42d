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
	/* pt_err_nodata(): msg is "has no <kind> data (import <what> to get it)", the
	 * program puts the model's path in front (one missing-data error for every command) */
	int nodata;
};

/* Push a message onto *e (which may be NULL). Always returns -1. */
int pt_err(struct pt_err **e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Push strerror(errno) style cause: "<msg>: <strerror(errnum)>". Returns -1. */
int pt_err_errno(struct pt_err **e, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * The model holds none of the data a command needs: pushes "has no <kind> data
 * (import <what> to get it)" marked nodata (device >= 0: "has no <kind> data of
 * device N"); the program prints it after the model's path:
 *   proftool: error: JOB1 has no memory data (import memory_usage_<d>.pb ... to get it)
 * Returns -1.
 */
int pt_err_nodata(struct pt_err **e, const char *kind, long long device, const char *what);
/* The outermost error is a pt_err_nodata() one. */
int pt_err_is_nodata(const struct pt_err *e);
/* The whole chain as one newly allocated line. */
char *pt_err_str(const struct pt_err *e);
void pt_err_free(struct pt_err *e);

#endif
