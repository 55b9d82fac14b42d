#include "model/ptm-source.h"

#include <string.h>

#include "model/ptm.h"

const char *pt_ptm_source_name(const struct pt_ptm_source *s)
{
	return pt_ptm_source_once(s) ? "standard input" : s->path;
}

bool pt_ptm_source_once(const struct pt_ptm_source *s)
{
	return !strcmp(s->path, "-");
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
	t->tap->batch(t->tap->arg, m);
	return t->sink->batch(t->sink->arg, m, e);
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
		s->tap->end(s->tap->arg, rc);
		return rc;
	}
	if (pt_ptm_source_once(s))
		return pt_ptm_read_stream_fd_cols(0, pt_ptm_source_name(s), m, sink, skip_cols, e);
	return pt_ptm_read_stream_tape(s->path, m, sink, skip_cols, s->tape, e);
}
