#include "support/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const struct pt_progress_sink *pt_progress;

bool pt_progress_meter_line(struct pt_progress_meter *p, double t, const char *what, enum pt_progress_unit unit,
			    uint64_t done, uint64_t total, char *buf, size_t n)
{
	if (t - p->start < p->delay || (p->shown && !p->every && t - p->last < 0.2))
		return false;
	p->last = t;
	p->shown = true;
	/* a file is named by its last component; at most 60 bytes, none of them a control byte */
	char w[61];
	const char *base = unit == PT_PROGRESS_BYTES ? strrchr(what, '/') : NULL;
	base = base ? base + 1 : what;
	size_t k = 0;
	for (; base[k] && k < sizeof(w) - 1; k++) {
		unsigned char c = (unsigned char)base[k];
		w[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	w[k] = 0;
	if (done > total && total)
		done = total;
	int pc = total ? (int)((double)done * 100.0 / (double)total) : 0;
	if (unit == PT_PROGRESS_BYTES && total)
		snprintf(buf, n, "proftool: reading '%s': %3d%% (%" PRIu64 " of %" PRIu64 " MB)", w, pc, done >> 20,
			 total >> 20);
	else if (unit == PT_PROGRESS_BYTES)
		snprintf(buf, n, "proftool: reading '%s': %" PRIu64 " MB", w, done >> 20);
	else if (total)
		snprintf(buf, n, "proftool: %s: %3d%%", w, pc);
	else
		snprintf(buf, n, "proftool: %s: %" PRIu64, w, done);
	return true;
}
