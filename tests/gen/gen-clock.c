/*
 * Clock and frequency files (ascend.md §2.5): host_start.log.<dev>,
 * dev_start.log.<dev> and info.json.<dev>.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "gen.h"
#include "support/xalloc.h"

void gen_clock(struct gen *g)
{
	char *l[3];

	if (g->files[GK_HOST_START].enabled) {
		l[0] = pt_xasprintf("[Device%d]", g->host_label >= 0 ? g->host_label : (int)g->device);
		l[1] = pt_xasprintf("clock_realtime: %" PRIu64, g->host_realtime);
		l[2] = pt_xasprintf("clock_monotonic_raw: %" PRIu64, g->host_monoraw);
		gen_text_emit(g, GK_HOST_START, l, 3, '\n');
		for (int i = 0; i < 3; i++)
			free(l[i]);
	}
	if (g->files[GK_DEV_START].enabled) {
		l[0] = pt_xasprintf("[Device%u]", g->device);
		l[1] = pt_xasprintf("clock_realtime: %" PRIu64, g->host_realtime);
		l[2] = pt_xasprintf("cntvct: %" PRIu64, g->dev_cntvct);
		gen_text_emit(g, GK_DEV_START, l, 3, '\n');
		for (int i = 0; i < 3; i++)
			free(l[i]);
		if (g->files[GK_HOST_START].enabled) {
			/* host_ns = host_monotonic + ns(syscnt) - ns(dev_cntvct) (§3.1):
			 * the offset added to device-clock ns */
			gen_expect(g, "clock.device_to_host_offset_ns %" PRId64,
				   (int64_t)g->host_monoraw - (int64_t)gen_cyc_to_ns(g, g->dev_cntvct));
		}
	}
	if (g->files[GK_HOST_START].enabled)
		gen_expect(g, "clock.unix_minus_monoraw_ns %" PRId64,
			   (int64_t)(g->host_realtime - g->host_monoraw));
	if (g->files[GK_INFO].enabled) {
		l[0] = pt_xasprintf("{\"jobInfo\":\"NA\",\"version\":\"1.0\",\"devices\":\"%u\","
				    "\"DeviceInfo\":[{\"id\":%u,\"env_type\":3,\"ai_core_num\":%u,"
				    "\"aiv_num\":0,\"hwts_frequency\":\"%s\",\"aic_frequency\":\"%s\","
				    "\"aiv_frequency\":\"%s\"}],\"rank_id\":0}",
				    g->device, g->device, g->cores, g->freq_text, g->aic_text, g->aic_text);
		gen_text_emit(g, GK_INFO, l, 1, '\n');
		free(l[0]);
		gen_expect(g, "info.hwts_freq_khz %" PRIu64, g->freq_khz);
	}
}
