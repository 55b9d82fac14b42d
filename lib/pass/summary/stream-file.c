/*
 * proftool summary over a .ptm input without holding its events: streaming
 * reads of the source the caller hands over (model/ptm-source.h) feed the
 * streaming summary (pass-summary.h). One read
 * when the file's TrackEvents tell the summary what it needs before the
 * first event; otherwise two: the first fills the model but for its events
 * and scans every batch, the second applies only the event batches and the
 * footer, whose counts and checksum must match what the first read found.
 * A GPU model whose views or selection need each activity's launching call
 * takes three: the scan, a read of the calls, the sums (stream-launch.c);
 * two where the calls come a batch ahead of the sums in one read. One with
 * host ranges takes five: the scan, the calls, the steps, the host read
 * (stream-host.c) and the sums.
 * Standard input gets one read, or is read whole. A raw PATH imported
 * streaming has its encoded events replayed instead of read.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptm.h"
#include "model/ptm-source.h"
#include "pass/pass-summary.h"
#include "support/err.h"
#include "support/xalloc.h"

static int on_batch(void *arg, struct pt_model *m, struct pt_err **e)
{
	return pt_summary_stream_batch(arg, m, e);
}

/* The first read: its sink, whose copy infos the summary may find it needs not. */
struct first {
	struct pt_summary_stream *s;
	struct pt_ptm_sink sink;
};

static int on_first(void *arg, struct pt_model *m, struct pt_err **e)
{
	struct first *f = arg;
	int rc = pt_summary_stream_batch(f->s, m, e);
	if ((f->sink.skip_tables & PT_PTM_SKIP_BUT_COPIES) && pt_summary_stream_copies_unused(f->s)) {
		f->sink.skip_tables &= (uint32_t)~PT_PTM_SKIP_BUT_COPIES;
		pt_vec_free(&m->copies);
	}
	return rc;
}

static int on_calls(void *arg, struct pt_model *m, struct pt_err **e)
{
	return pt_summary_stream_calls(arg, m, e);
}

static int on_steps(void *arg, struct pt_model *m, struct pt_err **e)
{
	return pt_summary_stream_steps(arg, m, e);
}

static int on_hosts(void *arg, struct pt_model *m, struct pt_err **e)
{
	return pt_summary_stream_hosts_batch(arg, m, e);
}

static int on_both(void *arg, struct pt_model *m, struct pt_err **e)
{
	return pt_summary_stream_both(arg, m, e);
}

/* A read that takes the launching calls a batch ahead of the sums (pt_summary_stream_both). */
static int read_both(const struct pt_ptm_source *src, struct pt_model *m, struct pt_summary_stream *s, const char *name,
		     struct pt_err **e)
{
	struct pt_ptm_sink ahead = { on_both, s, true, true };
	int rc = pt_ptm_source_read(src, m, &ahead, e);
	if (!rc)
		rc = pt_summary_stream_both_end(s, m, e);
	if (rc > 0)
		rc = pt_err(e, "'%s' changed while it was read", name);
	return rc;
}

int pt_summary_stream_file(const struct pt_ptm_source *src, const struct pt_summary_opts *o, struct pt_summary *out,
			   bool *streamed, struct pt_model **whole, struct pt_err **e)
{
	*streamed = false;
	*whole = NULL;
	memset(out, 0, sizeof(*out));
	bool pipe = pt_ptm_source_once(src);
	const char *name = pt_ptm_source_name(src);
	pt_xmap_big(); /* the reads free large blocks (the first read's buffers, the launch join's tables) */
	struct pt_model *m = pt_model_new();
	struct pt_summary_stream *s = pt_summary_stream_new(o);
	if (!pipe)
		pt_summary_stream_rereads(s);
	/* the CUPTI side tables are not summed, but for the launch reads' links and copy infos */
	struct first f = { s, { on_first, NULL, false, (uint32_t)pt_summary_stream_skip(s) } };
	f.sink.arg = &f;
	int rc;
	if (pipe) {
		/* one read only: what it cannot sum is read whole */
		pt_summary_stream_once(s);
		rc = pt_ptm_source_read(src, m, &f.sink, e);
		if (rc == PT_PTM_WHOLE || (!rc && pt_summary_stream_again(s))) { /* also: no batch at all */
			*whole = m;
			m = NULL;
			rc = 0;
			goto out;
		}
		if (rc == PT_PTM_STOP)
			rc = pt_err(e, "'%s': this model cannot be summarised in one read (it defines names, tracks, "
				       "ops or steps after its first event batch, or holds CUPTI tables beside Ascend "
				       "tasks); summarise it from a file, or with --in-memory",
				    name);
	} else {
		rc = pt_ptm_source_read(src, m, &f.sink, e);
	}
	if (!rc && pt_summary_stream_again(s)) {
		rc = pt_summary_stream_begin(s, m, e);
		if (rc == PT_PTM_STOP && pt_summary_stream_rescan(s)) {
			/* a file without TrackEvents with host ranges: the first read again, for the host read */
			pt_summary_stream_free(s);
			pt_model_free(m);
			m = pt_model_new();
			s = pt_summary_stream_new(o);
			pt_summary_stream_rereads(s);
			pt_summary_stream_hosts_known(s);
			f = (struct first){ s, { on_first, NULL, false, (uint32_t)pt_summary_stream_skip(s) } };
			f.sink.arg = &f;
			rc = pt_ptm_source_read(src, m, &f.sink, e); /* (PT_PTM_STOP: read whole) */
			if (!rc)
				rc = pt_summary_stream_again(s) ? pt_summary_stream_begin(s, m, e) : PT_PTM_STOP;
		}
		bool calls = false;
		if (!rc)
			rc = pt_summary_stream_seal(s, m, &calls);
		bool both = !rc && calls && pt_summary_stream_calls_ahead(s);
		if (both) { /* the launching calls a batch ahead of the sums, in one read */
			rc = read_both(src, m, s, name, e);
		} else if (!rc && calls) { /* the launching calls */
			struct pt_ptm_sink calls = { on_calls, s, true, true };
			rc = pt_ptm_source_read_cols(src, m, &calls, pt_summary_stream_calls_skip(s), e);
			if (rc > 0)
				rc = pt_err(e, "'%s' changed while it was read", name);
			pt_summary_stream_calls_end(s);
		}
		if (!rc && pt_summary_stream_hosts(s)) { /* host ranges: the steps, then the host read */
			struct pt_ptm_sink steps = { on_steps, s, true, true };
			rc = pt_ptm_source_read_cols(src, m, &steps, PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
			if (!rc)
				rc = pt_summary_stream_steps_end(s, m, e);
			if (!rc)
				rc = pt_summary_stream_host_begin(s, m, e);
			if (!rc) {
				struct pt_ptm_sink hosts = { on_hosts, s, true, true };
				rc = pt_ptm_source_read_cols(src, m, &hosts, PT_PTM_NO_OP | PT_PTM_NO_TASK, e);
			}
			if (!rc)
				pt_summary_stream_hosts_end(s);
			if (rc > 0)
				rc = pt_err(e, "'%s' changed while it was read", name);
		}
		if (!rc && !both && pt_summary_stream_hosts_ahead(s)) { /* the calls again, a batch ahead */
			rc = read_both(src, m, s, name, e);
		} else if (!rc && !both) {
			struct pt_ptm_sink again = { on_batch, s, true, true };
			rc = pt_ptm_source_read(src, m, &again, e);
			if (rc > 0) /* the first read would have stopped there */
				rc = pt_err(e, "'%s' changed while it was read", name);
		}
	}
	if (!rc && pt_summary_stream_unsure(s))
		goto out; /* not streamed: the caller reads it whole */
	if (!rc) {
		int bad = pt_summary_stream_end(s, out);
		if (bad)
			rc = pt_err(e, "'%s': the track events of track %d (TrackEvents) do not match its events", name,
				    bad - 1);
		else
			*streamed = true;
	}
out:
	pt_summary_stream_free(s);
	pt_model_free(m);
	return rc > 0 ? 0 : rc;
}

int pt_summary_stream_import(struct pt_model *m, const struct pt_summary_opts *o, struct pt_summary *out,
			     bool *streamed, struct pt_err **e)
{
	*streamed = false;
	memset(out, 0, sizeof(*out));
	if (!m->events.spill || !pt_summary_can_stream(m, o))
		return 0;
	struct pt_summary_stream *s = pt_summary_stream_new(o);
	struct pt_ptm_sink sink = { on_batch, s, false, false };
	int rc = pt_ptm_spill_replay(m, &sink, e);
	if (!rc && pt_summary_stream_again(s)) {
		rc = pt_summary_stream_begin(s, m, e);
		if (!rc)
			rc = pt_ptm_spill_replay(m, &sink, e);
	}
	if (!rc) {
		int bad = pt_summary_stream_end(s, out);
		if (bad) /* the track events were derived from these very events */
			rc = pt_err(e, "the track events of track %d do not match its events", bad - 1);
		else
			*streamed = true;
	}
	pt_summary_stream_free(s);
	return rc > 0 ? 0 : rc;
}
