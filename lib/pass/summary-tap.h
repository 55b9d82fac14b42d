/*
 * The streaming summary (pass-summary.h) fed by another pass's reads of the
 * same .ptm file (a tap, model/ptm-source.h), so that the file is not read
 * again for it: diff --by step takes a side's step figures from the summary's
 * model view while `steps` streams that side. The summary takes the reads it
 * would make itself: the first read of the whole file, then, when it asks
 * for one, the next read of the events alone. A first read that stops early
 * is forgotten (the next first read starts afresh); where the summary cannot
 * stream, or the reads end before it has what it needs, pt_summary_tap_end()
 * says so and the caller summarises as it would have (pt_summary_stream_file).
 */
#ifndef PT_PASS_SUMMARY_TAP_H
#define PT_PASS_SUMMARY_TAP_H
#include <stdbool.h>

#include "model/ptm-source.h"

struct pt_summary;
struct pt_summary_opts;
struct pt_summary_tap;

/*
 * Can the summary stream src with o, as far as its first event batch says (the devices with the
 * selection; host ranges when the file's TrackEvents tell)? One read that stops after that batch.
 * False only when the summary would load the model whole; a read error is left to the reads after.
 */
bool pt_summary_tap_probe(const struct pt_ptm_source *src, const struct pt_summary_opts *o);
/* A tap summarising with o (held until _free); *tap is to be set in the source that is read. */
struct pt_summary_tap *pt_summary_tap_new(const struct pt_summary_opts *o, struct pt_ptm_tap *tap);
/* True with *out filled when the reads summarised the file; false: out untouched. */
bool pt_summary_tap_end(struct pt_summary_tap *t, struct pt_summary *out);
void pt_summary_tap_free(struct pt_summary_tap *t);

#endif
