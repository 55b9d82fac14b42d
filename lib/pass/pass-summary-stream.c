/*
 * proftool summary over a .ptm file without holding its events: two
 * streaming reads (model/ptm.h) feed the streaming summary (pass-summary.h).
 * The first fills the model but for its events and scans every batch; the
 * second applies only the event batches and the footer, whose counts and
 * checksum must match what the first read found.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "pass/pass-summary.h"
#include "support/err.h"

static int on_scan(void *arg, struct pt_model *m, size_t first, struct pt_err **e)
{
	(void)first;
	(void)e;
	return pt_summary_stream_scan(arg, m);
}

static int on_batch(void *arg, struct pt_model *m, size_t first, struct pt_err **e)
{
	(void)m;
	(void)first;
	(void)e;
	pt_summary_stream_batch(arg);
	return 0;
}

int pt_summary_stream_file(const char *path, const struct pt_summary_opts *o, struct pt_summary *out,
			   bool *streamed, struct pt_err **e)
{
	*streamed = false;
	memset(out, 0, sizeof(*out));
	struct pt_model *m = pt_model_new();
	struct pt_summary_stream *s = pt_summary_stream_new(o);
	struct pt_ptm_sink scan = { on_scan, s, false };
	int rc = pt_ptm_read_stream(path, m, &scan, e);
	if (!rc)
		rc = pt_summary_stream_begin(s, m, e);
	if (!rc) {
		struct pt_ptm_sink sum = { on_batch, s, true };
		rc = pt_ptm_read_stream(path, m, &sum, e);
		if (rc > 0) /* the first read would have stopped there */
			rc = pt_err(e, "'%s' changed while it was read", path);
	}
	if (!rc) {
		pt_summary_stream_end(s, out);
		*streamed = true;
	}
	pt_summary_stream_free(s);
	pt_model_free(m);
	return rc > 0 ? 0 : rc;
}
