/* The streaming summary fed through a tap on another pass's reads (summary-tap.h). */
#include "pass/summary-tap.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-summary.h"
#include "support/err.h"
#include "support/xalloc.h"

enum tap_state {
	T_WAIT,  /* for a first read */
	T_FIRST, /* in a first read */
	T_AGAIN, /* the first read ended; the summary wants the events again */
	T_EVENTS, /* in that read */
	T_DONE,  /* the summary has every figure */
	T_FAILED, /* it cannot stream, or a read of the events stopped: the caller summarises */
};

struct pt_summary_tap {
	const struct pt_summary_opts *o;
	struct pt_summary_stream *s;
	enum tap_state st;
	struct pt_summary out; /* T_DONE: the views */
};

/* The summary stream reads the model of the read it is fed until it is freed: it is freed, and its
 * views made, while that model is there (within a read, or as it ends). */
static void drop(struct pt_summary_tap *t, enum tap_state st)
{
	pt_summary_stream_free(t->s);
	t->s = NULL;
	t->st = st;
}

static bool tap_begin(void *arg, struct pt_model *m, bool events_only)
{
	struct pt_summary_tap *t = arg;
	if (!events_only && t->st == T_WAIT) {
		t->s = pt_summary_stream_new(t->o);
		t->st = T_FIRST;
		return true;
	}
	if (!events_only || t->st != T_AGAIN)
		return false;
	struct pt_err *e = NULL;
	if (pt_summary_stream_begin(t->s, m, &e)) {
		pt_err_free(e); /* the caller's own summary says so */
		drop(t, T_FAILED);
		return false;
	}
	t->st = T_EVENTS;
	return true;
}

static void tap_batch(void *arg, const struct pt_model *m)
{
	struct pt_summary_tap *t = arg;
	if (t->st != T_FIRST && t->st != T_EVENTS)
		return;
	struct pt_err *e = NULL;
	if (pt_summary_stream_batch(t->s, m, &e)) {
		pt_err_free(e);
		drop(t, T_FAILED);
	}
}

static void tap_end(void *arg, int rc)
{
	struct pt_summary_tap *t = arg;
	if (t->st == T_FIRST && rc) {
		drop(t, T_WAIT); /* forgotten: the next first read starts afresh */
	} else if (t->st == T_FIRST && pt_summary_stream_again(t->s)) {
		t->st = T_AGAIN; /* the model stays until the next read of the same m */
	} else if (t->st == T_FIRST || t->st == T_EVENTS) {
		/* track events that the events contradict: the caller's own summary says so */
		if (rc || pt_summary_stream_end(t->s, &t->out))
			drop(t, T_FAILED);
		else
			drop(t, T_DONE);
	}
}

struct probe {
	struct pt_summary_stream *s;
	bool stop; /* the summary cannot stream the file */
};

static int probe_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct probe *p = arg;
	int rc = pt_summary_stream_batch(p->s, m, e);
	p->stop = rc == PT_PTM_STOP;
	pt_summary_stream_free(p->s); /* while m is there */
	p->s = NULL;
	return rc ? rc : PT_PTM_STOP;
}

bool pt_summary_tap_probe(const struct pt_ptm_source *src, const struct pt_summary_opts *o)
{
	struct probe p = { pt_summary_stream_new(o), false };
	struct pt_model *m = pt_model_new();
	struct pt_ptm_sink first = { probe_batch, &p, false, true };
	struct pt_ptm_source plain = { .path = src->path };
	struct pt_err *e = NULL;
	pt_ptm_source_read(&plain, m, &first, &e);
	pt_err_free(e);
	pt_summary_stream_free(p.s); /* no batch came */
	pt_model_free(m);
	return !p.stop;
}

struct pt_summary_tap *pt_summary_tap_new(const struct pt_summary_opts *o, struct pt_ptm_tap *tap)
{
	struct pt_summary_tap *t = pt_xcalloc(1, sizeof(*t));
	t->o = o;
	*tap = (struct pt_ptm_tap){ tap_begin, tap_batch, tap_end, t };
	return t;
}

bool pt_summary_tap_end(struct pt_summary_tap *t, struct pt_summary *out)
{
	if (t->st != T_DONE)
		return false;
	*out = t->out;
	t->st = T_FAILED; /* given away */
	return true;
}

void pt_summary_tap_free(struct pt_summary_tap *t)
{
	if (!t)
		return;
	if (t->st == T_DONE)
		pt_summary_free(&t->out);
	pt_summary_stream_free(t->s);
	free(t);
}
