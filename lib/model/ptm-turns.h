/*
 * A streaming read of a model file (pt_ptm_read_stream) run in a second
 * thread that takes turns with its caller: pt_ptm_turns_pull() lets the read
 * run until its sink hands one batch back (pt_ptm_turns_yield() from the
 * sink's batch function), so a writer can consume batches as if it called the
 * read, without holding the file's events. Used by the streamed timelines.
 */
#ifndef PT_PTM_TURNS_H
#define PT_PTM_TURNS_H
#include <pthread.h>
#include <stdbool.h>

#include "model/ptm.h"

struct pt_model;
struct pt_err;

struct pt_ptm_turns {
	/* set by the caller before the first pull */
	const char *path;
	struct pt_model *m;
	struct pt_ptm_sink sink;
	void (*before)(void *arg); /* in the read's thread, before each read (may be NULL) */
	void (*after)(void *arg);  /* in the read's thread, after a read that ended well (may be NULL) */
	void *arg;
	/* the read's state: rc and rerr tell how the last read ended once eof is set */
	bool eof;
	int rc;
	struct pt_err *rerr;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool running, stop;
	int turn; /* 1: the read runs, 0: the caller */
};

void pt_ptm_turns_init(struct pt_ptm_turns *t);
/* Stops a read still running; frees what pt_ptm_turns_init made. */
void pt_ptm_turns_destroy(struct pt_ptm_turns *t);
/* Lets the read run (started on the first call) until it hands a batch back:
 * 0; or until it is over: 1 (t->rc, t->rerr say how it ended). */
int pt_ptm_turns_pull(struct pt_ptm_turns *t);
/* From the sink's batch function, in the read's thread: hands the batch to the
 * caller and waits for its next pull; true when the caller asked the read to stop. */
bool pt_ptm_turns_yield(struct pt_ptm_turns *t);
/* Stops a running read and waits for its thread; its error, if any, is freed. */
void pt_ptm_turns_stop(struct pt_ptm_turns *t);
/* Stops a running read; the next pull reads the file again from its start. */
void pt_ptm_turns_rewind(struct pt_ptm_turns *t);

#endif
