/*
 * A streaming model read in a second thread, taking turns with its caller
 * (model/ptm-turns.h). One mutex and one condition variable; turn says whose
 * go it is, so exactly one of the two threads runs at a time.
 */
#include "model/ptm-turns.h"

#include "support/err.h"

void pt_ptm_turns_init(struct pt_ptm_turns *t)
{
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
}

void pt_ptm_turns_destroy(struct pt_ptm_turns *t)
{
	pt_ptm_turns_stop(t);
	pt_err_free(t->rerr);
	t->rerr = NULL;
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
}

static void *reader(void *arg)
{
	struct pt_ptm_turns *t = arg;
	struct pt_err *e = NULL;
	int rc = 0;
	pthread_mutex_lock(&t->mu);
	bool stop = t->stop;
	pthread_mutex_unlock(&t->mu);
	if (!stop) {
		if (t->before)
			t->before(t->arg);
		rc = pt_ptm_read_stream(t->path, t->m, &t->sink, &e);
		if (!rc && t->after)
			t->after(t->arg); /* the file's end: every event is read */
	}
	pthread_mutex_lock(&t->mu);
	t->rc = rc;
	t->rerr = e;
	t->eof = true;
	t->turn = 0;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int pt_ptm_turns_pull(struct pt_ptm_turns *t)
{
	if (t->eof)
		return 1;
	pthread_mutex_lock(&t->mu);
	t->turn = 1;
	if (!t->running) {
		t->running = true;
		if (pthread_create(&t->th, NULL, reader, t)) {
			t->running = false;
			t->eof = true;
			t->rc = -1;
			t->turn = 0;
		}
	} else {
		pthread_cond_broadcast(&t->cv);
	}
	while (t->turn == 1)
		pthread_cond_wait(&t->cv, &t->mu);
	bool eof = t->eof;
	pthread_mutex_unlock(&t->mu);
	return eof;
}

bool pt_ptm_turns_yield(struct pt_ptm_turns *t)
{
	pthread_mutex_lock(&t->mu);
	t->turn = 0;
	pthread_cond_broadcast(&t->cv);
	while (t->turn == 0)
		pthread_cond_wait(&t->cv, &t->mu);
	bool stop = t->stop;
	pthread_mutex_unlock(&t->mu);
	return stop;
}

void pt_ptm_turns_stop(struct pt_ptm_turns *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = true;
	t->turn = 1;
	pthread_cond_broadcast(&t->cv);
	while (!t->eof)
		pthread_cond_wait(&t->cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	t->running = false;
	pt_err_free(t->rerr);
	t->rerr = NULL;
}

void pt_ptm_turns_rewind(struct pt_ptm_turns *t)
{
	pt_ptm_turns_stop(t);
	t->eof = t->stop = false;
	t->turn = 0;
	t->rc = 0;
}
